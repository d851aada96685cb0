// The engine package in Chromium (playwright-core, Debian's /usr/bin/chromium): `stop` during
// `go infinite` answers within 100 ms, on a cross-origin isolated page (web/serve.mjs sends
// the headers) through shared memory, and with the worker-restart fallback. Needs
// `bash web/build.sh` first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
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
