// Offline after one visit (the service worker, ../sw.js) and a new version's
// offer to reload. Registered once the app runs, so the first visit's own
// downloads come first; the worker then caches the site, mostly from the
// browser's HTTP cache. When a new build is deployed, the browser installs
// its worker beside the running one; the page then says so (#update in
// index.html) and its button hands over to the new worker and reloads. The
// run is saved first, so the reload keeps it.
const SW = new URL('../sw.js', import.meta.url);
const SCOPE = new URL('../', import.meta.url);

function offer(registration, saveRun) {
  const banner = document.getElementById('update');
  if (!banner || !registration.waiting || !navigator.serviceWorker.controller) return;
  banner.hidden = false;
  document.getElementById('update-reload').onclick = () => {
    saveRun();
    navigator.serviceWorker.addEventListener('controllerchange', () => location.reload(), { once: true });
    registration.waiting.postMessage('skipWaiting');
  };
}

export async function goOffline(saveRun) {
  if (!('serviceWorker' in navigator) || !window.isSecureContext) return;
  try {
    const registration = await navigator.serviceWorker.register(SW, { scope: SCOPE.pathname });
    offer(registration, saveRun);
    registration.addEventListener('updatefound', () => {
      const worker = registration.installing;
      worker?.addEventListener('statechange', () => { if (worker.state === 'installed') offer(registration, saveRun); });
    });
  } catch (e) {
    // The site still works; only the offline copy is missing.
    console.warn('GroupScope: no offline copy (' + (e && e.message ? e.message : e) + ')');
  }
}
