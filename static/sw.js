// GroupScope's service worker: after one visit the site works offline.
// scripts/build.sh writes it to the site's folder (dist/sw.js, beside
// index.html, so its scope is the whole site whatever the sub-path), with
// VERSION (a hash of every file's content) and FILES (every file of the
// build but the plain wasm, which only browsers without DecompressionStream
// load) filled in. Installing caches FILES under a name made of the site's
// folder and VERSION; a new build changes VERSION, so the browser installs
// the new worker beside the old one, and the page offers to reload
// (static/offline.js). Activating deletes this site's older caches only.
// Lessons are fetched from the network first (a teacher may add one without
// a rebuild), the copy kept serving offline.
// Nothing is fetched from anywhere but the site's own folder.
const VERSION = '__VERSION__';
const FILES = __FILES__;
const BASE = new URL('./', self.location);
const PREFIX = `groupscope ${BASE.pathname} `;
const CACHE = PREFIX + VERSION;

self.addEventListener('install', (event) => {
  // `no-cache`: each file is checked with the server (a 304 costs nothing), so
  // a new build never caches a stale copy from the browser's HTTP cache.
  const requests = FILES.map((f) => new Request(new URL(f, BASE), { cache: 'no-cache' }));
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(requests)));
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    const names = await caches.keys();
    await Promise.all(names.filter((n) => n.startsWith(PREFIX) && n !== CACHE).map((n) => caches.delete(n)));
    await self.clients.claim();
  })());
});

// The page's "Reload" on a new version (static/offline.js).
self.addEventListener('message', (event) => {
  if (event.data === 'skipWaiting') self.skipWaiting();
});

// The site's page (whatever its ?query; the #fragment never reaches here).
function isPage(url) {
  return url.pathname === BASE.pathname || url.pathname === BASE.pathname + 'index.html';
}

self.addEventListener('fetch', (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== 'GET' || url.origin !== BASE.origin || !url.pathname.startsWith(BASE.pathname)) return;
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    // Lessons are the network's first: a teacher adds one to lessons/ and
    // lessons/index.json without a rebuild. The copy kept serves offline.
    if (url.pathname.startsWith(BASE.pathname + 'lessons/')) {
      try {
        const fresh = await fetch(request, { cache: 'no-cache' });
        if (fresh.ok) await cache.put(request, fresh.clone());
        return fresh;
      } catch (offline) {
        const kept = await cache.match(request);
        if (kept) return kept;
        throw offline;
      }
    }
    const page = request.mode === 'navigate' && isPage(url);
    const hit = await cache.match(page ? new URL('index.html', BASE) : request, { ignoreSearch: page });
    return hit || fetch(request);
  })());
});
