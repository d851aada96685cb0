// The package as a web developer gets it: `npm pack` in the built folder, the tarball installed
// into a scratch project (no network: the package has no dependencies), and both APIs used
// through the bare name 'konakis', as the package README shows. Needs `bash web/build.sh` first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const built = new URL('../dist/konakis/', import.meta.url).pathname;

test('npm pack makes a tarball that installs and runs the rules and the engine by name', () => {
  const dir = mkdtempSync(join(tmpdir(), 'konakis-pack-'));
  try {
    execFileSync('npm', ['pack', '--silent', '--pack-destination', dir], { cwd: built });
    const tarball = readdirSync(dir).find((f) => f.endsWith('.tgz'));
    assert.ok(tarball, 'npm pack wrote a tarball');
    const project = join(dir, 'project');
    execFileSync('mkdir', [project]);
    writeFileSync(join(project, 'package.json'), '{"name":"scratch","private":true,"type":"module"}');
    execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', '--silent', join(dir, tarball)], {
      cwd: project,
    });
    const files = execFileSync('tar', ['-tzf', join(dir, tarball)], { encoding: 'utf8' });
    for (const f of ['index.js', 'index.d.ts', 'rules.js', 'engine.js', 'worker.js', 'README.md',
      'wasm/konakis_wasm_bg.wasm', 'wasm/konakis_wasm.js']) {
      assert.ok(files.includes(`package/${f}`), `the tarball holds ${f}`);
    }
    writeFileSync(join(project, 'use.mjs'), `
      import { readFile } from 'node:fs/promises';
      import { init, Game, Engine, parseBestMove } from 'konakis';
      const wasm = new URL('./wasm/konakis_wasm_bg.wasm', import.meta.resolve('konakis'));
      await init(await readFile(wasm));
      const game = new Game({ rules: 'ashton' });
      const first = game.legalMoves().length;
      const engine = await Engine.start();
      const best = await new Promise((ok) => {
        engine.onLine((l) => { const b = parseBestMove(l); if (b) ok(b.best); });
        engine.send('setoption name Ruleset value Ashton');
        engine.send('position startpos');
        engine.send('go depth 3');
      });
      const legal = game.legalMoves().includes(best);
      engine.terminate();
      console.log(JSON.stringify({ first, best, legal }));
    `);
    const out = JSON.parse(execFileSync('node', ['use.mjs'], { cwd: project, encoding: 'utf8' }));
    // Ashton: the defenders move first and have 56 moves (the README's perft 1).
    assert.equal(out.first, 56);
    assert.ok(out.legal, `the engine's move ${out.best} is legal`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the .wasm a visitor downloads, networks and all, is under 500 KB gzipped', () => {
  // What a web server sends with gzip: web/build.sh prints the same figure (gzip -9).
  const wasm = readFileSync(join(built, 'wasm/konakis_wasm_bg.wasm'));
  const gzipped = gzipSync(wasm, { level: 9 }).length;
  assert.ok(gzipped < 500_000, `${wasm.length} bytes, ${gzipped} gzipped`);
});
