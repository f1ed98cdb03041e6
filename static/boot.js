// Loads the wasm module with a path relative to this file, so the site works
// from any sub-path and offline. Load failures are shown, never a blank page.
import init, * as gs from '../pkg/groupscope.js';

function showError(message) {
  const panel = document.getElementById('error-panel');
  if (panel) {
    panel.textContent = message;
    panel.hidden = false;
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
