// The page's script: instantiates oid_web.wasm (oid-core compiled for wasm32-unknown-unknown),
// which `cargo xtask web` inlines into the one-file page (gzipped, base64, in place of
// __OID_WASM__), and wires the three tools to its exports. Nothing is fetched: the page works
// opened from a file, offline. Every id is made, parsed and decoded by the wasm; this script
// only moves text in and out of its shared buffer and formats dates for people.
'use strict';

(() => {
  const HEX_LEN = 24;
  /** The most ids one click makes (the counter allows 2^24 per second; a browser tab holds this easily). */
  const MAX_COUNT = 1_000_000;
  /** The most ids the box shows: a textarea with many more lines takes seconds to lay out. */
  const PREVIEW = 10_000;
  // The record oid_inspect writes (see oid-web/src/exports.rs).
  const RECORD = { hex: 0, timestamp: 24, counter: 28, machine: 32, processId: 36, random: 40, formLen: 45, form: 46 };

  const $ = (id) => document.getElementById(id);
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  /** The wasm, gzipped and base64-encoded by `cargo xtask web`. */
  const WASM = '__OID_WASM__';

  /**
   * An error the wasm reported: its message is shown as is. A second line, when there is one, is
   * oid-core's "did you mean <id>?" hint; `hint` holds that id.
   */
  class OidError extends Error {
    constructor(text) {
      const [message, suggestion = ''] = text.split('\n', 2);
      super(message);
      this.suggestion = suggestion;
      this.hint = suggestion.match(/[0-9a-f]{24}/)?.[0] ?? null;
    }
  }

  /** Calls into the wasm and reads its shared buffer. */
  class Oid {
    constructor(exports) {
      this.x = exports;
    }

    buffer() {
      // A fresh view each time: views die if the memory ever grows.
      return new Uint8Array(this.x.memory.buffer, this.x.oid_buffer(), this.x.oid_buffer_len());
    }

    /** The result of an export: a count, or an error whose message is in the buffer. */
    check(ret) {
      if (ret < 0) throw new OidError(decoder.decode(this.buffer().subarray(0, -ret)));
      return ret;
    }

    seed() {
      const [a, b] = crypto.getRandomValues(new Uint32Array(2));
      this.check(this.x.oid_seed(a, b));
    }

    /** `count` ids from one reading of the clock, in batches as large as the buffer holds. */
    generate(count) {
      const secs = Math.floor(Date.now() / 1000);
      const ids = [];
      while (ids.length < count) {
        const n = this.check(this.x.oid_generate(secs, count - ids.length));
        if (n === 0) throw new OidError('the generator made no ids');
        const text = decoder.decode(this.buffer().subarray(0, n * HEX_LEN));
        for (let i = 0; i < n; i++) ids.push(text.slice(i * HEX_LEN, (i + 1) * HEX_LEN));
      }
      return ids;
    }

    /**
     * The fields of an id read as pasted (hex, quoted, ObjectId("…"), {"$oid": "…"}), decoded by
     * oid-core, with the name of the form it was in; throws oid-core's message for bad input.
     */
    inspect(text) {
      const bytes = encoder.encode(text);
      const buffer = this.buffer();
      buffer.set(bytes.subarray(0, buffer.length));
      this.check(this.x.oid_inspect(bytes.length));
      const record = this.buffer();
      const view = new DataView(record.buffer, record.byteOffset);
      const word = (at) => view.getUint32(at, true);
      return {
        hex: decoder.decode(record.subarray(RECORD.hex, RECORD.hex + HEX_LEN)),
        timestamp: word(RECORD.timestamp),
        counter: word(RECORD.counter),
        machine: word(RECORD.machine),
        processId: word(RECORD.processId),
        random: hex(record.subarray(RECORD.random, RECORD.random + 5)),
        form: decoder.decode(record.subarray(RECORD.form, RECORD.form + record[RECORD.formLen])),
      };
    }

    /**
     * A time as pasted into From or Until, read as the CLI reads its time arguments (an id in
     * any pasted form, ISODate("…"), new Date(…), {"$date": …}): `{ secs, form }`.
     */
    when(text) {
      const bytes = encoder.encode(text);
      const buffer = this.buffer();
      buffer.set(bytes.subarray(0, buffer.length));
      this.check(this.x.oid_when(bytes.length));
      const record = this.buffer();
      const view = new DataView(record.buffer, record.byteOffset);
      return { secs: view.getUint32(0, true), form: decoder.decode(record.subarray(5, 5 + record[4])) };
    }

    /**
     * The id bounds of `[from, to)` (milliseconds, `NaN` for an open end) by oid-core's range
     * rule: `{ lower, upper, inclusive }` (`inclusive`: `$lte` instead of `$lt`).
     */
    range(fromMs, toMs) {
      const n = this.check(this.x.oid_range(fromMs, toMs));
      const text = decoder.decode(this.buffer().subarray(0, n));
      return { lower: text.slice(0, 24), upper: text.slice(24, 48), inclusive: text[48] === '=' };
    }
  }

  const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  const hexNumber = (n, digits) => '0x' + n.toString(16).padStart(digits, '0');
  const utc = (secs) => new Date(secs * 1000).toISOString().replace('.000Z', 'Z');
  const local = (secs) => new Date(secs * 1000).toLocaleString(undefined, {
    dateStyle: 'full', timeStyle: 'long',
  });

  function show(element, text) {
    element.textContent = text;
    element.hidden = !text;
  }

  /** Copies `text`: the Clipboard API where the page may use it (https, localhost), else a copy event. */
  async function copy(text) {
    try {
      await navigator.clipboard.writeText(text);
      return true;
    } catch {
      const onCopy = (event) => {
        event.clipboardData.setData('text/plain', text);
        event.preventDefault();
      };
      document.addEventListener('copy', onCopy);
      try {
        return document.execCommand('copy');
      } finally {
        document.removeEventListener('copy', onCopy);
      }
    }
  }

  function wireGenerate(oid) {
    const count = $('count');
    const ids = $('ids');
    const status = $('generate-status');
    let all = []; // the last click's ids, all of them (the box may show fewer)
    $('generate-form').addEventListener('submit', (event) => {
      event.preventDefault();
      status.classList.remove('error');
      const n = Number(count.value);
      if (count.value.trim() === '' || !Number.isInteger(n) || n < 1 || n > MAX_COUNT) {
        status.classList.add('error');
        status.textContent = `enter a whole number of ids from 1 to ${MAX_COUNT.toLocaleString('en')}`;
        count.focus();
        return;
      }
      try {
        all = oid.generate(n);
        ids.value = (n > PREVIEW ? all.slice(0, PREVIEW) : all).join('\n');
        const first = oid.inspect(all[0]);
        const last = oid.inspect(all[all.length - 1]);
        status.textContent = `Generated ${n.toLocaleString('en')} ${n === 1 ? 'id' : 'ids'} at ${utc(first.timestamp)}, `
          + `random value ${first.random}, counter ${hexNumber(first.counter, 6)}`
          + (n > 1 ? ` to ${hexNumber(last.counter, 6)}.` : '.')
          + (n > PREVIEW ? ` The box shows the first ${PREVIEW.toLocaleString('en')}; Copy all copies every one.` : '');
      } catch (e) {
        status.classList.add('error');
        status.textContent = e.message;
      }
    });
    $('copy').addEventListener('click', async () => {
      status.classList.remove('error');
      if (all.length === 0) {
        status.textContent = 'nothing to copy yet: generate some ids first';
        return;
      }
      const n = all.length;
      status.textContent = (await copy(all.join('\n')))
        ? `Copied ${n.toLocaleString('en')} ${n === 1 ? 'id' : 'ids'} to the clipboard.`
        : 'could not copy: select the ids in the box and copy them by hand';
    });
  }

  /** Wires a copy button: copies `text()` and says how it went in `status`. */
  function copyButton(button, status, what, text) {
    button.addEventListener('click', async () => {
      status.classList.remove('error');
      status.textContent = '';
      const ok = await copy(text());
      if (!ok) status.classList.add('error');
      status.textContent = ok ? `Copied ${what} to the clipboard.` : `could not copy: select ${what} and copy it by hand`;
    });
  }

  function wireInspect(oid) {
    const input = $('inspect-input');
    const error = $('inspect-error');
    const suggestion = $('inspect-suggestion');
    const result = $('inspect-result');
    const status = $('inspect-status');
    const field = (name) => result.querySelector(`[data-field="${name}"]`);
    let hinted = null;
    // The legacy reading (machine id, process id) means nothing for ids with a random value,
    // which every driver has made since 3.4 (2016): shown only when asked for.
    const legacy = $('inspect-legacy');
    const showLegacy = () => {
      for (const el of result.querySelectorAll('[data-legacy]')) el.hidden = !legacy.checked;
    };
    legacy.addEventListener('change', showLegacy);
    $('inspect-form').addEventListener('submit', (event) => {
      event.preventDefault();
      status.textContent = '';
      try {
        const id = oid.inspect(input.value);
        field('hex').textContent = id.hex;
        field('form').textContent = id.form;
        field('utc').textContent = utc(id.timestamp);
        field('local').textContent = local(id.timestamp);
        field('timestamp').textContent = String(id.timestamp);
        field('random').textContent = id.random;
        field('counter').textContent = `${id.counter} (${hexNumber(id.counter, 6)})`;
        field('legacy').textContent = `machine id ${hexNumber(id.machine, 6)}, process id ${id.processId} `
          + `(${hexNumber(id.processId, 4)}), counter ${id.counter}`;
        showLegacy();
        show(error, '');
        suggestion.hidden = true;
        result.hidden = false;
      } catch (e) {
        result.hidden = true;
        show(error, e.message);
        hinted = e.hint ?? null;
        $('inspect-suggestion-text').textContent = e.suggestion ?? '';
        suggestion.hidden = !hinted;
      }
    });
    $('inspect-use').addEventListener('click', () => {
      input.value = hinted;
      $('inspect-form').requestSubmit();
      input.focus();
    });
    copyButton($('inspect-copy'), status, 'the result', () => Array.from(result.querySelectorAll('dt'))
      .filter((dt) => !dt.hidden).map((dt) => `${dt.textContent}: ${dt.nextElementSibling.textContent}`).join('\n'));
  }

  /** Seconds since the epoch for a datetime-local value read in UTC or local time; null if empty. */
  function millis(value, zone, name) {
    if (!value) return null;
    const ms = zone === 'utc' ? Date.parse(value + 'Z') : new Date(value).getTime();
    if (Number.isNaN(ms)) throw new OidError(`${name}: not a date and time`);
    return ms;
  }

  /** A datetime-local value (seconds precision) for `secs` in UTC or local time. */
  function dateTimeValue(secs, zone) {
    const d = new Date(secs * 1000);
    if (zone === 'utc') return d.toISOString().slice(0, 19);
    const two = (n) => String(n).padStart(2, '0');
    return `${String(d.getFullYear()).padStart(4, '0')}-${two(d.getMonth() + 1)}-${two(d.getDate())}`
      + `T${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`;
  }

  function wireRange(oid) {
    const error = $('range-error');
    const result = $('range-result');
    const status = $('range-status');
    const zone = () => new FormData($('range-form')).get('zone');
    // An id pasted into From or Until (in any form Inspect reads) stands for the second it was
    // made in; ISODate("…"), new Date(…) and {"$date": …} for their time (oid-core's PastedDate,
    // as the CLI reads its time arguments).
    for (const [id, name] of [['range-from', 'From'], ['range-to', 'Until']]) {
      $(id).addEventListener('paste', (event) => {
        const text = event.clipboardData?.getData('text/plain') ?? '';
        if (text.trim() === '') return;
        event.preventDefault();
        status.classList.remove('error');
        try {
          const { secs, form } = oid.when(text);
          $(id).value = dateTimeValue(secs, zone());
          show(error, '');
          status.textContent = form === 'ObjectId'
            ? `${name}: ${utc(secs)}, the second id ${oid.inspect(text).hex} was made in.`
            : `${name}: ${utc(secs)}, read from ${form}.`;
        } catch (e) {
          status.textContent = '';
          show(error, `${name}: not a time or an ObjectId: ${e.message}` + (e.suggestion ? `; ${e.suggestion}` : ''));
        }
      });
    }
    copyButton($('range-json-copy'), status, 'the extended JSON filter', () => $('range-json').value);
    copyButton($('range-shell-copy'), status, 'the mongosh filter', () => $('range-shell').value);
    $('range-form').addEventListener('submit', (event) => {
      event.preventDefault();
      status.textContent = '';
      try {
        const zone = new FormData(event.target).get('zone');
        const from = millis($('range-from').value, zone, 'from');
        const to = millis($('range-to').value, zone, 'until');
        if (from === null && to === null) throw new OidError('enter a start time, an end time, or both');
        if (from !== null && to !== null && from >= to) {
          throw new OidError('the start time must be before the end time');
        }
        const json = [];
        const shell = [];
        const { lower, upper, inclusive } = oid.range(from ?? NaN, to ?? NaN);
        // An empty field leaves that side of the filter out; a given end past the last second
        // an id can hold becomes `$lte` the largest id, so that second is included.
        const bounds = [];
        if (from !== null) bounds.push(['$gte', lower]);
        if (to !== null) bounds.push([inclusive ? '$lte' : '$lt', upper]);
        for (const [op, bound] of bounds) {
          json.push(`"${op}": {"$oid": "${bound}"}`);
          shell.push(`${op}: ObjectId("${bound}")`);
        }
        $('range-json').value = `{"_id": {${json.join(', ')}}}`;
        $('range-shell').value = `{ _id: { ${shell.join(', ')} } }`;
        show(error, '');
        result.hidden = false;
      } catch (e) {
        result.hidden = true;
        show(error, e.message);
      }
    });
  }

  async function main() {
    let exports;
    try {
      // Standard APIs only (Chromium 80+, Firefox 113+, Safari 16.4+): no fetch, so a page
      // opened from a file works too.
      const gzipped = Uint8Array.from(atob(WASM), (c) => c.charCodeAt(0));
      const stream = new Blob([gzipped]).stream().pipeThrough(new DecompressionStream('gzip'));
      ({ instance: { exports } } = await WebAssembly.instantiate(await new Response(stream).arrayBuffer(), {}));
    } catch (e) {
      show($('load-status'), `could not start the page's WebAssembly (${e.message}); this browser may be too old`);
      return;
    }
    const oid = new Oid(exports);
    try {
      oid.seed();
    } catch (e) {
      show($('load-status'), `could not seed the generator: ${e.message}`);
      return;
    }
    wireGenerate(oid);
    wireInspect(oid);
    wireRange(oid);
    for (const id of ['generate', 'copy', 'inspect', 'range']) $(id).disabled = false;
    document.documentElement.dataset.ready = 'true';
  }

  main();
})();
