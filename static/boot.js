// Loads the wasm module with a path relative to this file, so the site works
// from any sub-path and offline. Load failures are shown, never a blank page.
// Also runs the first-visit welcome (static HTML in index.html, so it shows
// before the wasm is ready): a choice is remembered and handed to the app as
// a `groupscope-door` event (or kept in `window.groupscopeDoor` until it starts).
import init, * as gs from '../pkg/groupscope.js';

const WELCOMED = 'groupscope.welcomed';

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

init(new URL('../pkg/groupscope_bg.wasm', import.meta.url)).then(() => {
  // A small API for page authors (documented in the README).
  const { assign, load, play, pause, step, seek, setSpeed, inject, state, explain } = gs;
  const api = { assign, load, play, pause, step, seek, setSpeed, inject };
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
}).catch((e) => {
  showError('GroupScope could not start: ' + (e && e.message ? e.message : e));
});
