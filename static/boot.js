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
  const { assign, load, play, pause, step, seek, setSpeed, inject, state } = gs;
  window.groupscope = Object.assign(window.groupscope || {}, {
    assign, load, play, pause, step, seek, setSpeed, inject,
    state: () => JSON.parse(state()),
  });
}).catch((e) => {
  showError('GroupScope could not start: ' + (e && e.message ? e.message : e));
});
