// Loads the wasm module with a path relative to this file, so the site works
// from any sub-path and offline. Load failures are shown, never a blank page.
// Also runs the first-visit welcome (static HTML in index.html, so it shows
// before the wasm is ready): a choice is remembered and handed to the app as
// a `groupscope-door` event (or kept in `window.groupscopeDoor` until it starts).
// The glue (pkg/groupscope.js) is imported once the welcome is up, together
// with the wasm's download: a static import would hold this script, and so the
// welcome, until the glue had arrived.
let gs = null;

const WELCOMED = 'groupscope.welcomed';

// The static first frame's accessible names, in the page's language (lang.js
// set it; the visible texts switch by CSS, attributes cannot).
if (document.documentElement.lang.startsWith('zh')) {
  for (const el of document.querySelectorAll('[data-label-zh]')) el.setAttribute('aria-label', el.dataset.labelZh);
}

function showError(message) {
  const panel = document.getElementById('error-panel');
  if (panel) {
    panel.textContent = message;
    panel.hidden = false;
  }
  return panel;
}

// The run as an export file, refreshed every second while the page lives, so
// a page whose wasm died can still hand it over (nothing leaves the browser).
let lastRun = null;
let dead = false;

function saveRun() {
  if (dead) return;
  try {
    lastRun = gs.runJson();
  } catch (e) {
    if (e instanceof WebAssembly.RuntimeError) died(e);
  }
}

// A trap in the wasm (out of memory, a panic) leaves every call throwing: say
// so in plain words, offer the run and a reload, and stop calling in.
function died(e) {
  if (dead) return;
  dead = true;
  const panel = showError('GroupScope stopped working (' + (e && e.message ? e.message : e) +
    '). Your run up to the last second is kept: download it, then reload the page and import it.');
  if (!panel) return;
  const buttons = document.createElement('p');
  if (lastRun) {
    const save = document.createElement('button');
    save.id = 'error-download';
    save.textContent = 'Download the run';
    save.addEventListener('click', () => {
      const a = document.createElement('a');
      a.href = URL.createObjectURL(new Blob([lastRun], { type: 'application/json' }));
      a.download = 'groupscope-run.json';
      a.click();
    });
    buttons.append(save, ' ');
  }
  const reload = document.createElement('button');
  reload.id = 'error-reload';
  reload.textContent = 'Reload';
  reload.addEventListener('click', () => location.reload());
  buttons.append(reload);
  panel.append(buttons);
}

function isTrap(e) {
  return e instanceof WebAssembly.RuntimeError || /unreachable|RefCell|capacity overflow|memory access out of bounds/.test(String(e && e.message));
}

window.addEventListener('error', (ev) => { if (isTrap(ev.error || ev)) died(ev.error || ev); });
window.addEventListener('unhandledrejection', (ev) => { if (isTrap(ev.reason)) died(ev.reason); });

// Every call into the wasm goes through here: a trap becomes the panel above,
// an ordinary error (a rejected input) is thrown on to the caller.
function guarded(f) {
  return (...args) => {
    if (dead) throw new Error('GroupScope stopped working; reload the page');
    try {
      return f(...args);
    } catch (e) {
      if (isTrap(e)) died(e);
      throw e;
    }
  };
}

function remembered() {
  try { return localStorage.getItem(WELCOMED) === '1'; } catch { return false; }
}

function closeWelcome(door) {
  const w = document.getElementById('welcome');
  if (w) w.hidden = true;
  try { localStorage.setItem(WELCOMED, '1'); } catch { /* storage off */ }
  if (door && door !== 'close') {
    window.groupscopeDoor = door;
    window.dispatchEvent(new CustomEvent('groupscope-door', { detail: door }));
  }
}

// Shown again from Help (the app calls this).
window.groupscopeWelcome = () => {
  const w = document.getElementById('welcome');
  if (!w) return;
  w.hidden = false;
  w.querySelector('.door')?.focus();
};

const welcome = document.getElementById('welcome');
if (welcome) {
  welcome.addEventListener('click', (e) => {
    const door = e.target.closest('[data-door]');
    if (door) closeWelcome(door.dataset.door);
    else if (e.target === welcome) closeWelcome('close');
  });
  welcome.addEventListener('keydown', (e) => {
    if (e.key === 'Escape') { e.stopPropagation(); closeWelcome('close'); }
  });
  // A first visit without a link to a run or a lesson gets the welcome.
  const linked = /(^|[#&])(z|run|lesson)=/.test(location.hash.slice(1));
  if (!remembered() && !linked) {
    welcome.hidden = false;
    welcome.querySelector('.door')?.focus();
  }
}

// The wasm is shipped twice: gzipped (pkg/groupscope_bg.wasm.gz, about a third
// of the bytes, so a plain static host that compresses nothing sends that) and
// as is. The gzipped file is unzipped in the browser (DecompressionStream) and
// compiled as it streams in; the plain file is the fallback where that is
// missing or fails. A host that sends the .gz with `Content-Encoding: gzip`
// has let the browser unzip it already: its first bytes are then the wasm
// magic, not gzip's, and it is compiled as it is.
const WASM = new URL('../pkg/groupscope_bg.wasm', import.meta.url);
const WASM_GZ = new URL('../pkg/groupscope_bg.wasm.gz', import.meta.url);

// The download's progress, on the static first frame and the welcome
// (`.load-progress` in index.html); hidden once the wasm has arrived.
function progress(fraction) {
  for (const bar of document.querySelectorAll('.load-progress')) {
    if (fraction === null) bar.hidden = true;
    else bar.value = Math.min(fraction, 0.99);
  }
}

// The response's body, counted into `progress` as it arrives.
function counted(response) {
  const total = Number(response.headers.get('Content-Length')) || 0;
  // Without a length the bars run without a value (indeterminate).
  if (!total) for (const bar of document.querySelectorAll('.load-progress')) bar.removeAttribute('value');
  let loaded = 0;
  return response.body.pipeThrough(new TransformStream({
    transform(chunk, out) {
      loaded += chunk.byteLength;
      if (total) progress(loaded / total);
      out.enqueue(chunk);
    },
  }));
}

// The stream with its first chunk read: whether it starts as gzip (1f 8b), and
// the whole stream again.
async function sniff(stream) {
  const reader = stream.getReader();
  const first = await reader.read();
  const head = first.done ? new Uint8Array() : first.value;
  const whole = new ReadableStream({
    start(out) { if (head.byteLength) out.enqueue(head); },
    async pull(out) {
      const { done, value } = await reader.read();
      if (done) out.close(); else out.enqueue(value);
    },
    cancel(reason) { return reader.cancel(reason); },
  });
  return { gzip: head[0] === 0x1f && head[1] === 0x8b, whole };
}

async function compileGzipped() {
  if (typeof DecompressionStream !== 'function' || typeof WebAssembly.compileStreaming !== 'function') {
    throw new Error('no DecompressionStream');
  }
  const response = await fetch(WASM_GZ);
  if (!response.ok || !response.body) throw new Error(`${WASM_GZ}: HTTP ${response.status}`);
  const { gzip, whole } = await sniff(counted(response));
  const wasm = gzip ? whole.pipeThrough(new DecompressionStream('gzip')) : whole;
  return WebAssembly.compileStreaming(new Response(wasm, { headers: { 'Content-Type': 'application/wasm' } }));
}

// A compiled module from the gzipped file, or else the plain file's address
// (wasm-bindgen's loader fetches and instantiates that itself).
async function wasmModule() {
  try {
    return await compileGzipped();
  } catch (e) {
    console.warn('GroupScope: loading the plain wasm (' + (e && e.message ? e.message : e) + ')');
    return WASM;
  }
}

Promise.all([import('../pkg/groupscope.js'), wasmModule()]).then(([glue, module_or_path]) => {
  progress(null);
  gs = glue;
  return glue.default({ module_or_path });
}).then(() => {
  // A small API for page authors (documented in the README).
  const { assign, load, play, pause, step, seek, setSpeed, inject, runJson, state, explain } = gs;
  const api = { assign, load, play, pause, step, seek, setSpeed, inject, runJson };
  for (const k of Object.keys(api)) api[k] = guarded(api[k]);
  const readState = guarded(state);
  const readExplain = guarded(explain);
  window.groupscope = Object.assign(window.groupscope || {}, api, {
    state: () => JSON.parse(readState()),
    explain: (text) => {
      if (typeof text !== 'string') throw new TypeError('groupscope.explain(text): text must be a string of log lines');
      return JSON.parse(readExplain(text));
    },
  });
  setInterval(saveRun, 1000);
  // Offline after this visit, once the app runs (static/offline.js).
  import('./offline.js').then((m) => m.goOffline(saveRun)).catch((e) => console.warn('GroupScope: ' + e));
}).catch((e) => {
  showError('GroupScope could not start: ' + (e && e.message ? e.message : e));
});
