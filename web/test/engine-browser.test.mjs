// The engine package in Chromium (playwright-core, Debian's /usr/bin/chromium): `stop` during
// `go infinite` answers within 100 ms, on a cross-origin isolated page (web/serve.mjs sends
// the headers) through shared memory, and with the worker-restart fallback. Needs
// `bash web/build.sh` first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { serve } from '../serve.mjs';

const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--no-first-run'];
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

test('stop during go infinite answers within 100 ms in Chromium (median of five)', async () => {
  const server = await serve(fileURLToPath(new URL('..', import.meta.url)), 0);
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ARGS });
  try {
    const page = await browser.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    const { port } = server.address();
    await page.goto(`http://127.0.0.1:${port}/test/pages/engine.html`);
    await page.waitForFunction(() => window.ready === true);
    const delays = [50, 200, 400, 800, 1200];
    for (const stopMode of [undefined, 'restart']) {
      const r = await page.evaluate(([m, d]) => window.stopLatency(m, d), [stopMode, delays]);
      console.log(`Chromium stop latency (${r.mode}), ms: ${r.figures.map((f) => f.toFixed(1)).join(' ')}`);
      assert.equal(r.isolated, true, 'the page is cross-origin isolated');
      assert.equal(r.mode, stopMode ?? 'shared');
      assert.ok(median(r.figures) < 100, `${r.mode}: ${r.figures}`);
      assert.ok(r.moves.every((m) => /^[a-i][1-9][a-i][1-9]$/.test(m)), String(r.moves));
      assert.equal(r.nodes, 'Nodes searched: 353200');
    }
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
    server.close();
  }
});

test('a page that is not cross-origin isolated gets the restart fallback, and stop still answers', async () => {
  const isolated = await serve(fileURLToPath(new URL('..', import.meta.url)), 0);
  // The same files without the isolation headers: a proxy that drops them.
  const plain = createServer((req, res) => {
    const forward = request({ port: isolated.address().port, path: req.url, headers: req.headers }, (r) => {
      const headers = { ...r.headers };
      delete headers['cross-origin-opener-policy'];
      delete headers['cross-origin-embedder-policy'];
      res.writeHead(r.statusCode, headers);
      r.pipe(res);
    });
    req.pipe(forward);
  });
  await new Promise((ok) => plain.listen(0, '127.0.0.1', ok));
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ARGS });
  try {
    const page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${plain.address().port}/test/pages/engine.html`);
    await page.waitForFunction(() => window.ready === true);
    const r = await page.evaluate(() => window.stopLatency(undefined, [100, 300, 600]));
    console.log(`Chromium, not isolated (${r.mode}), ms: ${r.figures.map((f) => f.toFixed(1)).join(' ')}`);
    assert.equal(r.isolated, false);
    assert.equal(r.mode, 'restart');
    assert.ok(median(r.figures) < 100, String(r.figures));
    assert.equal(r.nodes, 'Nodes searched: 353200');
  } finally {
    await browser.close();
    plain.close();
    isolated.close();
  }
});
