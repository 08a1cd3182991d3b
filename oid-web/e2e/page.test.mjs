// End-to-end test of the oid-web page: opens the one-file page target/web/oid.html by file://,
// as a person who double-clicks it would, in the system Chromium driven by playwright-core, with
// every network request recorded and refused, and checks what a person would see. Run by
// `cargo xtask web-test` (which builds the page first); screenshots go to target/web/e2e/.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
const pagePath = path.resolve(process.env.OID_WEB_PAGE ?? path.join(here, '..', '..', 'target', 'web', 'oid.html'));
const pageUrl = pathToFileURL(pagePath).href;
const artifacts = path.join(path.dirname(pagePath), 'e2e');
const executablePath = process.env.OID_WEB_CHROMIUM ?? '/usr/bin/chromium';
const FLAGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];
const HEX_ID = /^[0-9a-f]{24}$/;

/** The fields of a hex id, decoded here independently of the page. */
function parts(id) {
  return {
    timestamp: parseInt(id.slice(0, 8), 16),
    random: id.slice(8, 18),
    counter: parseInt(id.slice(18, 24), 16),
  };
}

/** Checks a batch the way the issue asks: shape, uniqueness, one random value and time, consecutive counters. */
function assertBatch(ids, count) {
  assert.equal(ids.length, count);
  for (const id of ids) assert.match(id, HEX_ID);
  assert.equal(new Set(ids).size, count, 'ids are unique');
  const first = parts(ids[0]);
  ids.forEach((id, i) => {
    const p = parts(id);
    assert.equal(p.random, first.random, `id ${i} shares the random value`);
    assert.equal(p.timestamp, first.timestamp, `id ${i} shares the timestamp`);
    assert.equal(p.counter, (first.counter + i) % 0x1000000, `id ${i} has the next counter`);
  });
  return first;
}

describe('oid-web page in headless Chromium', () => {
  let browser;
  let context;
  let page;
  const problems = [];
  /** Every request a page made other than for the page's own file (none is expected). */
  const external = [];
  /** Every request for the page's file. */
  const loads = [];

  /** A page of `ctx` that records script errors. */
  async function open(ctx) {
    const p = await ctx.newPage();
    p.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    p.on('console', (m) => { if (m.type() === 'error') problems.push(`console error: ${m.text()}`); });
    await p.goto(pageUrl);
    await p.waitForSelector('html[data-ready="true"]', { timeout: 15_000 });
    return p;
  }

  /** A context that records every request and refuses any that would go over the network. */
  async function newContext(options) {
    const ctx = await browser.newContext({ locale: 'en-US', timezoneId: 'Asia/Kolkata', ...options });
    await ctx.grantPermissions(['clipboard-read', 'clipboard-write']);
    ctx.on('request', (request) => {
      const url = request.url();
      if (url === pageUrl) loads.push(url);
      else if (!url.startsWith('data:')) external.push(url);
    });
    await ctx.route('**/*', (route) => (route.request().url() === pageUrl ? route.continue() : route.abort()));
    return ctx;
  }

  const generated = async (p = page) => (await p.locator('#ids').inputValue()).split('\n');

  before(async () => {
    await mkdir(artifacts, { recursive: true });
    browser = await chromium.launch({ executablePath, headless: true, args: FLAGS, timeout: 30_000 });
    context = await newContext({ viewport: { width: 1000, height: 900 } });
    page = await open(context);
  });

  after(async () => {
    await browser?.close();
  });

  test('opens from the one file by file://, requesting nothing else, with no errors', async () => {
    assert.match(pageUrl, /^file:\/\/.*\/oid\.html$/);
    assert.equal(await page.locator('#load-status').isHidden(), true);
    assert.deepEqual(loads, [pageUrl]);
    assert.deepEqual(external, []);
    assert.equal(await page.locator('meta[name="viewport"]').getAttribute('content'),
      'width=device-width, initial-scale=1');
  });

  test('generates 100 ids that share time and random value, with consecutive counters', async () => {
    await page.getByLabel('How many ids').fill('100');
    const before = Math.floor(Date.now() / 1000);
    await page.getByRole('button', { name: 'Generate' }).click();
    const after = Math.floor(Date.now() / 1000);
    const ids = await generated();
    const first = assertBatch(ids, 100);
    assert.ok(first.timestamp >= before && first.timestamp <= after, 'the time is now');
    const status = await page.locator('#generate-status').textContent();
    assert.match(status, new RegExp(`^Generated 100 ids at .*random value ${first.random}, counter 0x`));

    // Inspect one of them: its own fields back, the legacy reading hidden.
    await page.getByLabel('ObjectId', { exact: true }).fill(ids[42]);
    await page.getByRole('button', { name: 'Inspect', exact: true }).click();
    const field = (name) => page.locator(`#inspect-result [data-field="${name}"]`).textContent();
    assert.equal(await field('hex'), ids[42]);
    assert.equal(await field('timestamp'), String(first.timestamp));
    assert.equal(await field('random'), first.random);
    const counter = (first.counter + 42) % 0x1000000;
    assert.equal(await field('counter'), `${counter} (0x${counter.toString(16).padStart(6, '0')})`);
    assert.equal(await page.locator('#inspect-result [data-field="legacy"]').isHidden(), true);

    // The next click goes on from the same generator: same random value, next counter.
    await page.getByLabel('How many ids').fill('3');
    await page.getByRole('button', { name: 'Generate' }).click();
    const next = assertBatch(await generated(), 3);
    assert.equal(next.random, first.random);
    assert.equal(next.counter, (first.counter + 100) % 0x1000000);
  });

  test('copy all puts the ids on the clipboard', async () => {
    await page.getByLabel('How many ids').fill('100');
    await page.getByRole('button', { name: 'Generate' }).click();
    await page.getByRole('button', { name: 'Copy all' }).click();
    await page.waitForFunction(() => document.getElementById('generate-status').textContent.startsWith('Copied'));
    assert.equal(await page.locator('#generate-status').textContent(), 'Copied 100 ids to the clipboard.');
    const clipboard = await page.evaluate(() => navigator.clipboard.readText());
    assert.equal(clipboard, await page.locator('#ids').inputValue());
  });

  test('a batch larger than the wasm buffer is one batch; the box shows the first 10,000', async () => {
    await page.getByLabel('How many ids').fill('20000');
    await page.getByRole('button', { name: 'Generate' }).click();
    assert.match(await page.locator('#generate-status').textContent(),
      /^Generated 20,000 ids .* The box shows the first 10,000; Copy all copies every one\.$/);
    const shown = await generated();
    assertBatch(shown, 10000);
    await page.getByRole('button', { name: 'Copy all' }).click();
    await page.waitForFunction(() => document.getElementById('generate-status').textContent.startsWith('Copied'));
    assert.equal(await page.locator('#generate-status').textContent(), 'Copied 20,000 ids to the clipboard.');
    const copied = (await page.evaluate(() => navigator.clipboard.readText())).split('\n');
    assertBatch(copied, 20000);
    assert.deepEqual(copied.slice(0, 10000), shown);
  });

  test('copy all still works where the Clipboard API is refused', async () => {
    const p = await context.newPage();
    await p.addInitScript(() => {
      window.refusals = 0;
      navigator.clipboard.writeText = () => {
        window.refusals += 1;
        return Promise.reject(new DOMException('refused', 'NotAllowedError'));
      };
    });
    await p.goto(pageUrl);
    await p.waitForSelector('html[data-ready="true"]');
    await p.getByRole('button', { name: 'Copy all' }).click();
    assert.equal(await p.locator('#generate-status').textContent(), 'nothing to copy yet: generate some ids first');
    await p.getByLabel('How many ids').fill('7');
    await p.getByRole('button', { name: 'Generate' }).click();
    await p.getByRole('button', { name: 'Copy all' }).click();
    await p.waitForFunction(() => document.getElementById('generate-status').textContent.startsWith('Copied'));
    assert.equal(await p.evaluate(() => window.refusals), 1, 'the Clipboard API was tried and refused');
    assert.equal(await p.evaluate(() => navigator.clipboard.readText()), await p.locator('#ids').inputValue());
    assertBatch(await generated(p), 7);
    await p.close();
  });

  test('a count that is not a whole number from 1 to 1,000,000 is refused', async () => {
    const before = await page.locator('#ids').inputValue();
    for (const bad of ['0', '-3', '2.5', '1000001', '']) {
      await page.getByLabel('How many ids').fill(bad);
      await page.getByRole('button', { name: 'Generate' }).click();
      assert.equal(await page.locator('#generate-status').textContent(),
        'enter a whole number of ids from 1 to 1,000,000', `count ${JSON.stringify(bad)}`);
      assert.equal(await page.locator('#ids').inputValue(), before, 'the ids are left alone');
    }
  });

  test('inspects 507f1f77bcf86cd799439011', async () => {
    await page.getByLabel('ObjectId', { exact: true }).fill('  507F1F77BCF86CD799439011 ');
    await page.getByRole('button', { name: 'Inspect', exact: true }).click();
    const field = (name) => page.locator(`#inspect-result [data-field="${name}"]`).textContent();
    assert.equal(await page.locator('#inspect-result').isVisible(), true);
    assert.equal(await field('hex'), '507f1f77bcf86cd799439011');
    assert.equal(await field('form'), 'hex');
    assert.equal(await field('utc'), '2012-10-17T21:13:27Z');
    // The context's time zone is Asia/Kolkata (UTC+05:30).
    assert.match(await field('local'), /October 18, 2012.* 2:43:27\sAM GMT\+5:30/);
    assert.equal(await field('timestamp'), '1350508407');
    assert.equal(await field('random'), 'bcf86cd799');
    assert.equal(await field('counter'), '4427793 (0x439011)');
    assert.equal(await page.locator('#inspect-error').isHidden(), true);

    // The legacy reading is hidden until asked for, and says whose layout it is.
    const legacy = page.locator('#inspect-result [data-field="legacy"]');
    const legacyTerm = page.locator('#inspect-result dt[data-legacy]');
    assert.equal(await legacy.isHidden(), true, 'legacy fields hidden by default');
    assert.equal(await legacyTerm.isHidden(), true);
    await page.getByLabel(/Show the legacy reading/).check();
    assert.equal(await legacy.isVisible(), true);
    assert.equal(await legacyTerm.textContent(), 'Legacy reading (pre-3.4 driver layout)');
    assert.equal(await field('legacy'), 'machine id 0xbcf86c, process id 55193 (0xd799), counter 4427793');
    await page.getByLabel(/Show the legacy reading/).uncheck();
    assert.equal(await legacy.isHidden(), true);
  });

  test('an invalid id shows oid-core\'s error instead of a result', async () => {
    const cases = [
      ['507f1f77bcf86cd79943901g', "invalid character 'g' at index 23: expected a hex digit"],
      ['abc', 'invalid length: expected 24 hex characters, found 3'],
      ['', 'invalid length: expected 24 hex characters, found 0'],
      ['507f1f77bcf86cd79943901é', "invalid character 'é' at index 23: expected a hex digit"],
      ['a'.repeat(200_000), 'invalid length: expected 24 hex characters, found more than 98304 bytes'],
    ];
    for (const [input, message] of cases) {
      await page.getByLabel('ObjectId', { exact: true }).fill(input);
      await page.getByLabel('ObjectId', { exact: true }).press('Enter');
      assert.equal(await page.getByRole('alert').filter({ hasText: message }).count(), 1, message);
      assert.equal(await page.locator('#inspect-error').textContent(), message);
      assert.equal(await page.locator('#inspect-result').isHidden(), true);
      assert.equal(await page.locator('#inspect-suggestion').isHidden(), true, 'no hint: no id inside');
    }
    await page.screenshot({ path: path.join(artifacts, 'invalid.png') });
  });

  /** Puts `text` on the clipboard and pastes it into `field` with the keyboard, as a person would. */
  async function paste(field, text) {
    await page.evaluate((t) => navigator.clipboard.writeText(t), text);
    await field.focus();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.press('ControlOrMeta+V');
  }

  test('inspect reads what people paste, and says which form it was', async () => {
    const input = page.getByLabel('ObjectId', { exact: true });
    const field = (name) => page.locator(`#inspect-result [data-field="${name}"]`).textContent();
    for (const [text, form] of [
      ['ObjectId("507f1f77bcf86cd799439011")', 'mongosh ObjectId("…")'],
      ["ObjectId('507F1F77BCF86CD799439011')", 'mongosh ObjectId("…")'],
      ['new ObjectId("507f1f77bcf86cd799439011")', 'mongosh ObjectId("…")'],
      ['{"$oid": "507f1f77bcf86cd799439011"}', 'extended JSON {"$oid": "…"}'],
      [' {$oid: \'507f1f77bcf86cd799439011\'}\n', 'extended JSON {"$oid": "…"}'],
      ['"507f1f77bcf86cd799439011"', 'quoted hex'],
    ]) {
      await paste(input, text);
      assert.equal(await input.inputValue(), text.replace('\n', ''), 'the paste landed in the field');
      await input.press('Enter');
      assert.equal(await page.locator('#inspect-result').isVisible(), true, text);
      assert.equal(await field('hex'), '507f1f77bcf86cd799439011', text);
      assert.equal(await field('form'), form, text);
      assert.equal(await field('utc'), '2012-10-17T21:13:27Z', text);
      assert.equal(await page.locator('#inspect-error').isHidden(), true);
    }
  });

  test('a near miss gets the CLI\'s "did you mean" hint, which inspects it in one click', async () => {
    const input = page.getByLabel('ObjectId', { exact: true });
    for (const [text, message] of [
      ['ObjectID("507f1f77bcf86cd799439011")', 'invalid length: expected 24 hex characters, found 36'],
      ['"507f1f77bcf86cd799439011",', 'invalid length: expected 24 hex characters, found 27'],
      ['id: 507f1f77bcf86cd799439011', 'invalid length: expected 24 hex characters, found 28'],
    ]) {
      await paste(input, text);
      await input.press('Enter');
      assert.equal(await page.locator('#inspect-error').textContent(), message, text);
      assert.equal(await page.locator('#inspect-result').isHidden(), true);
      assert.equal(await page.locator('#inspect-suggestion-text').textContent(),
        'did you mean 507f1f77bcf86cd799439011?', text);
    }
    await page.locator('section', { has: page.locator('#inspect-heading') })
      .screenshot({ path: path.join(artifacts, 'near-miss.png') });
    await page.getByRole('button', { name: 'Inspect it' }).click();
    assert.equal(await input.inputValue(), '507f1f77bcf86cd799439011');
    assert.equal(await page.locator('#inspect-result [data-field="form"]').textContent(), 'hex');
    assert.equal(await page.locator('#inspect-error').isHidden(), true);
    assert.equal(await page.locator('#inspect-suggestion').isHidden(), true);
    // A recognised form around bad hex is not a near miss: no hint.
    await input.fill('ObjectId("507f1f77bcf86cd79943901g")');
    await input.press('Enter');
    assert.equal(await page.locator('#inspect-error').textContent(),
      "invalid character 'g' at index 23: expected a hex digit");
    assert.equal(await page.locator('#inspect-suggestion').isHidden(), true);
  });

  test('copy result puts the inspected fields on the clipboard', async () => {
    await page.getByLabel('ObjectId', { exact: true }).fill('{"$oid": "6553f1003f2a91c8d4003039"}');
    await page.getByRole('button', { name: 'Inspect', exact: true }).click();
    await page.getByRole('button', { name: 'Copy result' }).click();
    await page.waitForFunction(() => document.getElementById('inspect-status').textContent !== '');
    assert.equal(await page.locator('#inspect-status').textContent(), 'Copied the result to the clipboard.');
    const lines = (await page.evaluate(() => navigator.clipboard.readText())).split('\n');
    assert.deepEqual(lines.slice(0, 3), [
      'Id: 6553f1003f2a91c8d4003039', 'Read as: extended JSON {"$oid": "…"}', 'Created (UTC): 2023-11-14T22:13:20Z',
    ]);
    assert.ok(lines.includes('Counter: 12345 (0x003039)'), lines.join('\n'));
    assert.equal(lines.length, 7, 'the hidden legacy reading is not copied');
  });

  test('the range helper writes the MongoDB filter', async () => {
    const make = async (from, to, zone) => {
      await page.getByLabel('From').fill(from);
      await page.getByLabel('Until (exclusive)').fill(to);
      await page.getByLabel(zone).check();
      await page.getByRole('button', { name: 'Make filter' }).click();
    };
    const json = () => page.getByLabel('Extended JSON').inputValue();
    const shell = () => page.getByLabel('mongosh').inputValue();

    await make('2012-10-17T21:13:27', '2012-10-17T21:13:28', 'UTC');
    assert.equal(await json(),
      '{"_id": {"$gte": {"$oid": "507f1f770000000000000000"}, "$lt": {"$oid": "507f1f780000000000000000"}}}');
    assert.equal(await shell(),
      '{ _id: { $gte: ObjectId("507f1f770000000000000000"), $lt: ObjectId("507f1f780000000000000000") } }');

    await make('2012-10-18T02:43:27', '', 'local time');
    assert.equal(await json(), '{"_id": {"$gte": {"$oid": "507f1f770000000000000000"}}}');
    assert.equal(await shell(), '{ _id: { $gte: ObjectId("507f1f770000000000000000") } }');

    const error = () => page.locator('#range-error').textContent();
    await make('2012-10-17T21:13:28', '2012-10-17T21:13:27', 'UTC');
    assert.equal(await error(), 'the start time must be before the end time');
    assert.equal(await page.locator('#range-result').isHidden(), true);
    // An end past the last second an id can hold includes that second ($lte the largest id).
    await make('2000-01-01T00:00:00', '2106-02-07T06:28:16', 'UTC');
    assert.equal(await json(),
      '{"_id": {"$gte": {"$oid": "386d43800000000000000000"}, "$lte": {"$oid": "ffffffffffffffffffffffff"}}}');
    await make('', '', 'UTC');
    assert.equal(await error(), 'enter a start time, an end time, or both');
  });

  test('each range filter has a copy button', async () => {
    await page.getByLabel('From').fill('2012-10-17T21:13:27');
    await page.getByLabel('Until (exclusive)').fill('2012-10-17T21:13:28');
    await page.getByLabel('UTC').check();
    await page.getByRole('button', { name: 'Make filter' }).click();
    const status = page.locator('#range-status');
    const clipboard = () => page.evaluate(() => navigator.clipboard.readText());
    for (const [button, box, what] of [
      ['Copy extended JSON', 'Extended JSON', 'the extended JSON filter'],
      ['Copy mongosh', 'mongosh', 'the mongosh filter'],
    ]) {
      await page.evaluate(() => navigator.clipboard.writeText(''));
      await page.getByRole('button', { name: button }).click();
      // Each click clears the status first, then says how the copy went.
      await page.waitForFunction(() => document.getElementById('range-status').textContent !== '');
      assert.equal(await status.textContent(), `Copied ${what} to the clipboard.`);
      assert.equal(await clipboard(), await page.getByLabel(box, { exact: true }).inputValue());
    }
    assert.match(await clipboard(), /^\{ _id: \{ \$gte: ObjectId\("507f1f770000000000000000"\), \$lt: /);
  });

  test('an id pasted into From or Until stands for the second it was made in', async () => {
    const from = page.getByLabel('From');
    const to = page.getByLabel('Until (exclusive)');
    const status = page.locator('#range-status');
    await page.getByLabel('UTC').check();
    await paste(from, '{"$oid": "507f1f77bcf86cd799439011"}');
    assert.equal(await from.inputValue(), '2012-10-17T21:13:27');
    assert.equal(await status.textContent(),
      'From: 2012-10-17T21:13:27Z, the second id 507f1f77bcf86cd799439011 was made in.');
    await paste(to, "ObjectId('507f1f780000000000000000')");
    assert.equal(await to.inputValue(), '2012-10-17T21:13:28');
    await page.getByRole('button', { name: 'Make filter' }).click();
    assert.equal(await page.getByLabel('Extended JSON').inputValue(),
      '{"_id": {"$gte": {"$oid": "507f1f770000000000000000"}, "$lt": {"$oid": "507f1f780000000000000000"}}}');

    // In local time (Asia/Kolkata here) the same id is that second on the local clock.
    await page.getByLabel('local time').check();
    await paste(from, '507F1F77BCF86CD799439011');
    assert.equal(await from.inputValue(), '2012-10-18T02:43:27');

    // A near miss is refused with the hint, and the field is left alone.
    await paste(from, 'ObjectID("6553f1003f2a91c8d4003039")');
    assert.equal(await from.inputValue(), '2012-10-18T02:43:27');
    assert.equal(await page.locator('#range-error').textContent(),
      'From: not a time or an ObjectId: invalid length: expected 24 hex characters, found 36; '
      + 'did you mean 6553f1003f2a91c8d4003039?');
    await page.getByLabel('UTC').check();
  });

  test('dates pasted as mongosh and extended JSON write them set From and Until, as the CLI reads them', async () => {
    const from = page.getByLabel('From');
    const to = page.getByLabel('Until (exclusive)');
    const status = page.locator('#range-status');
    await page.getByLabel('UTC').check();
    await paste(from, 'ISODate("2012-10-17T21:13:27.000Z")');
    assert.equal(await from.inputValue(), '2012-10-17T21:13:27');
    assert.equal(await status.textContent(), 'From: 2012-10-17T21:13:27Z, read from ISODate("…").');
    await paste(to, '{"$date": {"$numberLong": "1350508408000"}}');
    assert.equal(await to.inputValue(), '2012-10-17T21:13:28');
    assert.equal(await status.textContent(), 'Until: 2012-10-17T21:13:28Z, read from extended JSON {"$date": …}.');
    await paste(from, 'new Date("2012-10-17T23:13:27+02:00")');
    assert.equal(await from.inputValue(), '2012-10-17T21:13:27');
    await page.getByRole('button', { name: 'Make filter' }).click();
    assert.equal(await page.getByLabel('Extended JSON').inputValue(),
      '{"_id": {"$gte": {"$oid": "507f1f770000000000000000"}, "$lt": {"$oid": "507f1f780000000000000000"}}}');
    await paste(from, "ISODate('2024-02-30')");
    assert.equal(await from.inputValue(), '2012-10-17T21:13:27', 'a bad date leaves the field alone');
    assert.equal(await page.locator('#range-error').textContent(),
      'From: not a time or an ObjectId: invalid date in ISODate("…"): expected RFC 3339 such as 2024-01-01T00:00:00Z');
  });

  test('screenshot of the page in use (target/web/e2e/page.png)', async () => {
    await page.getByLabel('How many ids').fill('100');
    await page.getByRole('button', { name: 'Generate' }).click();
    await page.getByLabel('ObjectId', { exact: true }).fill('507f1f77bcf86cd799439011');
    await page.getByRole('button', { name: 'Inspect', exact: true }).click();
    await page.getByLabel('From').fill('2012-10-17T21:13:27');
    await page.getByLabel('Until (exclusive)').fill('2012-10-17T21:13:28');
    await page.getByRole('button', { name: 'Make filter' }).click();
    for (const shown of ['#ids', '#inspect-result', '#range-result']) {
      assert.equal(await page.locator(shown).isVisible(), true, shown);
    }
    await page.screenshot({ path: path.join(artifacts, 'page.png'), fullPage: true });
  });

  test('is usable by keyboard alone, with a label on every field', async () => {
    const p = await open(context);
    const unlabelled = await p.$$eval('input, textarea', (els) => els
      .filter((el) => el.labels.length === 0).map((el) => el.outerHTML));
    assert.deepEqual(unlabelled, []);

    // Tab through the page and note where the focus lands.
    const order = [];
    for (let i = 0; i < 40; i++) {
      await p.keyboard.press('Tab');
      const id = await p.evaluate(() => {
        const el = document.activeElement;
        return el.id || `${el.name}=${el.value}`;
      });
      if (order.at(-1) !== id) order.push(id);
      if (id === 'range') break;
    }
    assert.deepEqual(order, ['count', 'generate', 'copy', 'ids', 'inspect-input', 'inspect',
      'range-from', 'range-to', 'zone=utc', 'range']);

    // Generate and inspect with keys only.
    await p.locator('#count').focus();
    await p.keyboard.press('ControlOrMeta+A');
    await p.keyboard.type('5');
    await p.keyboard.press('Enter');
    assertBatch(await generated(p), 5);
    await p.locator('#inspect-input').focus();
    await p.keyboard.type('507f1f77bcf86cd799439011');
    await p.keyboard.press('Enter');
    assert.equal(await p.locator('[data-field="utc"]').textContent(), '2012-10-17T21:13:27Z');
    await p.close();
  });

  test('is readable on a phone: no sideways scrolling', async () => {
    const phone = await newContext({ viewport: { width: 360, height: 740 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
    const p = await open(phone);
    await p.getByLabel('How many ids').fill('100');
    await p.getByRole('button', { name: 'Generate' }).click();
    assertBatch(await generated(p), 100);
    await p.getByLabel('ObjectId', { exact: true }).fill('507f1f77bcf86cd799439011');
    await p.getByRole('button', { name: 'Inspect', exact: true }).click();
    await p.getByLabel('From').fill('2012-10-17T21:13:27');
    await p.getByRole('button', { name: 'Make filter' }).click();
    const { scrollWidth, innerWidth } = await p.evaluate(() => ({
      scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth,
    }));
    assert.ok(scrollWidth <= innerWidth, `page is ${scrollWidth}px wide in a ${innerWidth}px viewport`);
    await p.screenshot({ path: path.join(artifacts, 'phone.png'), fullPage: true });
    await phone.close();
  });

  test('requested nothing but the page file itself, and logged no error', () => {
    assert.ok(loads.length > 0 && loads.every((url) => url === pageUrl), loads.join('\n'));
    assert.deepEqual(external, []);
    assert.deepEqual(problems, []);
  });
});
