// Shared helpers for the end-to-end tests: serve dist/ under a sub-path on
// 127.0.0.1 and drive Debian's chromium through playwright-core (no download).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createServer } from 'node:net';
import { chromium } from 'playwright-core';

export const ROOT = resolve(import.meta.dirname, '..', '..');
export const ARTIFACTS = join(ROOT, 'tests', 'e2e', 'artifacts');
export const SUBPATH = '/some/sub/path/groupscope/';

function freePort() {
  return new Promise((ok, fail) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => ok(port));
    });
    srv.on('error', fail);
  });
}

/** Copies dist/ under a sub-path of a fresh folder and serves that folder
 * (`dir`: the site's copy, for a test that deploys a new build); close()
 * stops the server and removes the folder. */
export async function serveSite() {
  const dir = mkdtempSync(join(tmpdir(), 'groupscope-site-'));
  cpSync(join(ROOT, 'dist'), join(dir, SUBPATH), { recursive: true });
  const port = await freePort();
  const proc = spawn('python3', ['-m', 'http.server', String(port), '--bind', '127.0.0.1', '--directory', dir], {
    stdio: 'ignore',
  });
  const origin = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    try {
      const r = await fetch(origin + SUBPATH);
      if (r.ok) break;
    } catch { /* not up yet */ }
    await new Promise((r) => setTimeout(r, 100));
  }
  const close = () => {
    proc.kill();
    rmSync(dir, { recursive: true, force: true });
  };
  return { url: origin + SUBPATH, origin, close, dir: join(dir, SUBPATH) };
}

export async function launch() {
  mkdirSync(ARTIFACTS, { recursive: true });
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1',
    ],
  });
}

/** Waits two animation frames, so that what the page rendered for the last call
 * (a seek, an injection) is on screen before the test reads the DOM. */
export const frames = (page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));

/** Opens the page, recording every request that leaves the site and every page error.
 * The first-visit welcome is marked as seen unless `welcome` is set (tests of
 * the welcome itself), so it does not cover what other tests click. */
export async function openPage(browser, site, { welcome = false, viewport = { width: 1400, height: 1000 }, path = '' } = {}) {
  const page = await browser.newPage({ viewport });
  if (!welcome) await page.addInitScript(() => { try { localStorage.setItem('groupscope.welcomed', '1'); } catch { /* storage off */ } });
  const foreign = [];
  const errors = [];
  page.on('request', (r) => { if (!r.url().startsWith(site.origin + SUBPATH) && !r.url().startsWith('data:') && !r.url().startsWith('blob:' + site.origin)) foreign.push(r.url()); });
  page.on('requestfailed', (r) => errors.push(`request failed: ${r.url()}`));
  page.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
  await page.goto(site.url + path);
  await page.waitForSelector('#play');
  return { page, foreign, errors };
}

/** Serves the site, opens the page and runs `body({ page, browser, site })`;
 * then checks that the page made no foreign request and hit no error, and
 * closes everything. */
export async function withPage(body, options = {}) {
  const site = await serveSite();
  const browser = await launch();
  try {
    const { page, foreign, errors } = await openPage(browser, site, options);
    await body({ page, browser, site });
    assert.deepEqual(foreign, []);
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
    site.close();
  }
}

/** Serves the site and launches the browser for `body({ browser, site, open })`,
 * where `open(options)` opens a page (as `openPage`) and, when `body` returns,
 * every page it opened is checked for foreign requests and errors; then
 * everything is closed. For tests that open several pages (viewports, languages). */
export async function withSite(body) {
  const site = await serveSite();
  const browser = await launch();
  const opened = [];
  try {
    const open = async (options) => {
      const p = await openPage(browser, site, options);
      opened.push(p);
      return p.page;
    };
    await body({ browser, site, open });
    for (const { foreign, errors } of opened) {
      assert.deepEqual(foreign, []);
      assert.deepEqual(errors, []);
    }
  } finally {
    await browser.close();
    site.close();
  }
}
