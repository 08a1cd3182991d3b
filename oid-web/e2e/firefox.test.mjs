// The one-file page in Firefox (headless Firefox ESR, driven over Marionette, its own automation
// protocol, with Node's `net` alone): opened by file://, it loads its wasm, generates 100 ids,
// inspects one pasted as {"$oid": …}, hides the legacy fields, and loads no resource. The full
// suite runs in Chromium (page.test.mjs); this checks that the standard APIs the page relies on
// (DecompressionStream, WebAssembly under its CSP) work in Firefox too. Run by
// `cargo xtask web-test`.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const pagePath = path.resolve(process.env.OID_WEB_PAGE ?? path.join(here, '..', '..', 'target', 'web', 'oid.html'));
const pageUrl = pathToFileURL(pagePath).href;
const executable = process.env.OID_WEB_FIREFOX ?? '/usr/bin/firefox-esr';

const sleep = (ms) => new Promise((resolve) => { setTimeout(resolve, ms); });

/** A Marionette connection: `len:json` messages; commands `[0, id, name, params]`. */
class Marionette {
  constructor(socket) {
    this.socket = socket;
    this.buffer = Buffer.alloc(0);
    this.waiting = [];
    this.id = 0;
    socket.on('data', (chunk) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      for (;;) {
        const colon = this.buffer.indexOf(':');
        if (colon < 0) return;
        const len = Number(this.buffer.subarray(0, colon).toString());
        if (this.buffer.length < colon + 1 + len) return;
        const message = JSON.parse(this.buffer.subarray(colon + 1, colon + 1 + len).toString());
        this.buffer = this.buffer.subarray(colon + 1 + len);
        this.waiting.shift()?.(message);
      }
    });
  }

  next() {
    return new Promise((resolve) => { this.waiting.push(resolve); });
  }

  async command(name, params) {
    this.id += 1;
    const body = Buffer.from(JSON.stringify([0, this.id, name, params]));
    const reply = this.next();
    this.socket.write(`${body.length}:`);
    this.socket.write(body);
    const [, , error, result] = await reply;
    if (error) throw new Error(`${name}: ${JSON.stringify(error)}`);
    return result;
  }
}

let firefox;
let profile;
let marionette;

before(async () => {
  profile = await mkdtemp(path.join(os.tmpdir(), 'oid-web-firefox-'));
  // Port 0: Firefox picks a free port and writes it to MarionetteActivePort.
  await writeFile(path.join(profile, 'user.js'), 'user_pref("marionette.port", 0);\n');
  firefox = spawn(executable, ['--headless', '--marionette', '-no-remote', '-profile', profile], { stdio: 'ignore' });
  let port;
  for (let i = 0; i < 200 && !port; i++) {
    port = Number(await readFile(path.join(profile, 'MarionetteActivePort'), 'utf8').catch(() => '')) || undefined;
    if (!port) await sleep(100);
  }
  assert.ok(port, 'Firefox opened its Marionette port');
  const socket = net.connect(port, '127.0.0.1');
  marionette = new Marionette(socket);
  await marionette.next(); // the greeting
  await marionette.command('WebDriver:NewSession', { capabilities: {} });
});

after(async () => {
  await marionette?.command('WebDriver:DeleteSession', {}).catch(() => {});
  marionette?.socket.destroy();
  firefox?.kill();
  if (profile) await rm(profile, { recursive: true, force: true, maxRetries: 5 });
});

test('Firefox: opened by file://, it generates, inspects a pasted {"$oid"} and hides the legacy fields', async () => {
  await marionette.command('WebDriver:Navigate', { url: pageUrl });
  const { value } = await marionette.command('WebDriver:ExecuteAsyncScript', {
    scriptTimeout: 20_000,
    args: [],
    script: `
      const done = arguments[0];
      const wait = () => {
        const status = document.getElementById('load-status');
        if (!status.hidden) return done({ error: status.textContent });
        if (document.documentElement.dataset.ready !== 'true') return setTimeout(wait, 50);
        document.getElementById('count').value = '100';
        document.getElementById('generate-form').requestSubmit();
        const ids = document.getElementById('ids').value.split('\\n');
        document.getElementById('inspect-input').value = '{"$oid": "' + ids[42] + '"}';
        document.getElementById('inspect-form').requestSubmit();
        const field = (name) => document.querySelector('[data-field="' + name + '"]');
        done({
          ids, inspected: field('hex').textContent, form: field('form').textContent,
          legacyHidden: field('legacy').hidden, error: document.getElementById('inspect-error').hidden ? null : 'inspect',
          resources: performance.getEntriesByType('resource').map((entry) => entry.name),
          browser: navigator.userAgent,
        });
      };
      wait();`,
  });
  assert.equal(value.error, null, JSON.stringify(value));
  assert.match(value.browser, /Firefox\//);
  assert.equal(value.ids.length, 100);
  assert.equal(new Set(value.ids).size, 100);
  for (const id of value.ids) assert.match(id, /^[0-9a-f]{24}$/);
  assert.equal(value.inspected, value.ids[42]);
  assert.equal(value.form, 'extended JSON {"$oid": "…"}');
  assert.equal(value.legacyHidden, true);
  assert.deepEqual(value.resources, [], 'nothing loaded but the page');
});
