// The engine package in Node: the protocol session in its worker, through engine.js, in both
// stop modes. Needs `bash web/build.sh` first (it tests web/dist/konakis, the built package).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { Engine, parseInfo, parseBestMove } from '../dist/konakis/engine.js';
import { init, levels } from '../dist/konakis/rules.js';
import { nativeKonakis } from './common.mjs';

/** An engine with a line log and a way to wait for the line that matches. */
async function open(opts = {}) {
  const engine = await Engine.start(opts);
  const lines = [];
  const waiters = [];
  engine.onLine((line) => {
    lines.push(line);
    for (const w of [...waiters]) {
      if (w.re.test(line)) {
        waiters.splice(waiters.indexOf(w), 1);
        clearTimeout(w.timer);
        w.ok(lines.splice(0));
      }
    }
  });
  /** Sends `line` and resolves to every line from then until one that matches `re`. */
  const ask = (line, re, ms = 60_000) => {
    lines.length = 0;
    const answer = new Promise((ok, fail) => {
      const timer = setTimeout(() => fail(new Error(`no ${re} after '${line}' in ${ms} ms`)), ms);
      waiters.push({ re, ok, timer });
    });
    if (line !== null) engine.send(line);
    return answer;
  };
  return { engine, ask };
}

const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));

/** The moves of `go perft 1` in the current position. */
async function legalMoves(ask) {
  const lines = await ask('go perft 1', /^Nodes searched/);
  return lines.filter((l) => /^[a-i][1-9][a-i][1-9]: 1$/.test(l)).map((l) => l.slice(0, 4));
}

/** `go infinite`, then after `ms`, `stop`: the milliseconds until its `bestmove`. */
async function stopLatency(engine, ask, ms) {
  const started = ask('go infinite', /^info depth \d+ seldepth/);
  await started;
  await sleep(ms);
  const answered = ask(null, /^bestmove /);
  const t = performance.now();
  engine.send('stop');
  const lines = await answered;
  const latency = performance.now() - t;
  assert.ok(parseBestMove(lines.at(-1)).best, lines.at(-1));
  return latency;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

test('the handshake: uci gives id, the option table and uciok; isready gives readyok', async () => {
  const { engine, ask } = await open();
  assert.equal(engine.stopMode, 'shared', 'Node has SharedArrayBuffer');
  const lines = await ask('uci', /^uciok$/);
  assert.match(lines[0], /^id name Konakis \d+\.\d+\.\d+$/);
  assert.match(lines[1], /^id author /);
  const options = lines.filter((l) => l.startsWith('option name '));
  for (const name of ['Hash', 'Threads', 'MultiPV', 'Ruleset', 'KingCapture', 'Move Overhead']) {
    assert.ok(options.some((l) => l.startsWith(`option name ${name} type `)), name);
  }
  assert.equal(lines.at(-1), 'uciok');
  assert.deepEqual(await ask('isready', /^readyok$/), ['readyok']);
  engine.terminate();
});

test('levels() gives every Skill Level with the Elo of the curve the engine plays by', async () => {
  await init(await readFile(new URL('../dist/konakis/wasm/konakis_wasm_bg.wasm', import.meta.url)));
  const l = levels();
  assert.equal(l.levels.length, l.full + 1);
  assert.deepEqual(l.levels.map((x) => x.level), [...Array(l.full + 1).keys()]);
  for (let i = 1; i < l.levels.length; i++) assert.ok(l.levels[i].elo >= l.levels[i - 1].elo, `level ${i} is no weaker`);
  // The engine's own option table says the same: Skill Level up to full strength, UCI_Elo over
  // the curve's range.
  const { engine, ask } = await open();
  const lines = await ask('uci', /^uciok$/);
  assert.ok(lines.includes(`option name Skill Level type spin default ${l.full} min 0 max ${l.full}`), 'Skill Level');
  const elo = lines.find((line) => line.startsWith('option name UCI_Elo '));
  assert.match(elo, new RegExp(` min ${l.elo[0]} max ${l.elo[1]}$`), elo);
  assert.ok(Math.abs(l.levels[l.full].elo - l.elo[1]) <= 1, 'the top of the range is full strength');
  engine.terminate();
});

test('go perft 4 from the start counts 19,913,864 leaves', async () => {
  const { engine, ask } = await open();
  const lines = await ask('go perft 4', /^Nodes searched/);
  assert.equal(lines.at(-1), 'Nodes searched: 19913864');
  const divided = lines.filter((l) => /^[a-i][1-9][a-i][1-9]: \d+$/.test(l));
  assert.equal(divided.reduce((sum, l) => sum + Number(l.split(': ')[1]), 0), 19913864);
  engine.terminate();
});

test('go depth 6 answers a legal move, with info lines GUIs can parse', async () => {
  const { engine, ask } = await open();
  for (const position of ['position startpos', 'position startpos moves e8c8 e4h4']) {
    engine.send(position);
    const legal = await legalMoves(ask);
    assert.ok(legal.length > 20, position);
    const lines = await ask('go depth 6', /^bestmove /);
    const { best } = parseBestMove(lines.at(-1));
    assert.ok(legal.includes(best), `${position}: ${best} not in ${legal}`);
    const infos = lines.map(parseInfo).filter(Boolean);
    assert.deepEqual(infos.map((i) => i.depth), [1, 2, 3, 4, 5, 6], position);
    assert.equal(infos.at(-1).pv[0], best);
    assert.ok(infos.every((i) => 'cp' in i.score || 'mate' in i.score));
  }
  engine.terminate();
});

test('stop during go infinite answers within 100 ms (median of five), both stop modes', async () => {
  for (const stopMode of ['shared', 'restart']) {
    const { engine, ask } = await open({ stopMode });
    assert.equal(engine.stopMode, stopMode);
    const figures = [];
    for (const ms of [50, 200, 400, 800, 1200]) figures.push(await stopLatency(engine, ask, ms));
    console.log(`stop latency (${stopMode}), ms: ${figures.map((f) => f.toFixed(1)).join(' ')}`);
    assert.ok(median(figures) < 100, `${stopMode}: ${figures}`);
    // The engine goes on working after the stops (in 'restart' mode: a new worker).
    assert.equal((await ask('go perft 2', /^Nodes searched/)).at(-1), 'Nodes searched: 4400');
    engine.terminate();
  }
});

test('a stop sent before the worker reaches a go stops that go, and not a later one', async () => {
  const { engine, ask } = await open();
  // The worker is busy with the perft when the go infinite and the stop arrive.
  const answered = ask(null, /^bestmove /);
  engine.send('go perft 4');
  engine.send('go infinite');
  engine.send('stop');
  const lines = await answered;
  assert.ok(lines.includes('Nodes searched: 19913864'));
  // Now a stop processed before a go: the go depth 5 must run to its depth.
  engine.send('stop');
  const later = await ask('go depth 5', /^bestmove /);
  assert.equal(later.map(parseInfo).filter(Boolean).at(-1).depth, 5);
  engine.terminate();
});

test('ponderhit turns a ponder search into a timed one', async () => {
  const { engine, ask } = await open();
  await ask('go ponder wtime 1000 btime 1000', /^info depth \d+ seldepth/);
  const t = performance.now();
  const lines = await ask('ponderhit', /^bestmove /, 10_000);
  assert.ok(performance.now() - t < 5000, 'the clock ran after ponderhit');
  assert.ok(!lines.some((l) => l.startsWith('info string error')), lines.join('\n'));
  // A ponderhit with no ponder search is refused, as natively.
  const refused = await ask('ponderhit', /^info string error/);
  assert.equal(refused.at(-1), 'info string error: ponderhit: no ponder search is running (go ponder starts one)');
  engine.terminate();
});

test('1,000 junk lines, one error line each, then a correct perft', async () => {
  const { engine, ask } = await open();
  const junk = [];
  for (let i = 0; i < 1000; i++) {
    const kinds = [
      `xyzzy${i}`,
      `go depth ${-i}`,
      `position fen ${'z'.repeat(i % 90)}`,
      `setoption name Hash value ${1e9 + i}`,
      `go perft 0`,
      `position startpos moves a1a${(i % 9) + 1}`,
      String.fromCharCode(...Array.from({ length: 12 }, (_, k) => 33 + ((i * 7 + k * 13) % 94))),
      `go movetime -${i} nodes`,
      `bench 999`,
      `\u0001\u007f\u00ff ${i}`,
    ];
    junk.push(kinds[i % kinds.length]);
  }
  let errors = 0;
  const counted = new Promise((ok) => {
    const off = engine.onLine((l) => {
      if (l.startsWith('info string error')) errors++;
      if (l === 'readyok') {
        off();
        ok();
      }
    });
  });
  for (const line of junk) engine.send(line);
  engine.send('isready');
  await counted;
  // Every line above is refused with exactly one line; none crashes the worker or changes
  // the position.
  assert.equal(errors, 1000);
  assert.equal((await ask('go perft 3', /^Nodes searched/)).at(-1), 'Nodes searched: 353200');
  engine.terminate();
});

test('setoption errors are one clear line and change nothing', async () => {
  const { engine, ask } = await open();
  const cases = [
    ['setoption name Hash value 0', /^info string error: setoption: invalid value '0' for Hash/],
    ['setoption name NoSuchOption value 3', /^info string error: setoption: /],
    ['setoption name KingCapture value Sideways', /^info string error: setoption: /],
    ['setoption Hash', /^info string error: setoption: /],
  ];
  for (const [line, re] of cases) {
    const lines = await ask(line, /^info string /);
    assert.equal(lines.length, 1, line);
    assert.match(lines[0], re);
  }
  const rules = (await ask('d', /^Rules: /)).at(-1);
  assert.match(rules, /KingCapture=Original/);
  // A good one works, and the rules change shows.
  engine.send('setoption name KingCapture value English');
  assert.match((await ask('d', /^Rules: /)).at(-1), /KingCapture=English/);
  engine.terminate();
});

test('under Ashton the worker evaluates with the built-in network, as the native engine does', async () => {
  const { execFileSync } = await import('node:child_process');
  const native = nativeKonakis;
  const script = [
    'setoption name Ruleset value Ashton',
    'position startpos moves e4f4 e2e3 d5d6',
    'eval',
    'setoption name Eval value Classical',
    'eval',
    'quit',
  ];
  const expected = execFileSync(native.pathname, { input: script.join('\n') + '\n' })
    .toString()
    .split('\n')
    .filter((l) => /^(Classical|Network|Evaluation):/.test(l));
  const { engine, ask } = await open();
  const seen = [];
  for (const line of script.slice(0, -1)) {
    if (line === 'eval') {
      const lines = await ask(line, /^Evaluation:/);
      seen.push(...lines.filter((l) => /^(Classical|Network|Evaluation):/.test(l)));
    } else {
      engine.send(line);
    }
  }
  assert.deepEqual(seen, expected);
  assert.match(seen[1], /^Network: -?\d+ cp .*\(Ashton network, built in, ashton-2\.nnue\)$/);
  assert.equal(seen[4], 'Network: not used (Eval is Classical)');
  // A worker has no files: EvalFile is one error line, and the built-in network stays.
  const refused = await ask('setoption name EvalFile value ashton.nnue', /^info string error/);
  assert.match(refused.at(-1), /^info string error: setoption: EvalFile: ashton\.nnue: /);
  engine.send('setoption name Eval value Network');
  const after = await ask('eval', /^Evaluation:/);
  assert.ok(after.includes(seen[1]), after.join('\n'));
  engine.terminate();
});

test('parseInfo and parseBestMove read what the engine prints', () => {
  const info = parseInfo(
    'info depth 7 seldepth 15 multipv 2 score mate -3 upperbound nodes 1234 nps 99 time 12 hashfull 5 pv e2c2 g5g2',
  );
  assert.deepEqual(info, {
    depth: 7, seldepth: 15, multipv: 2, score: { mate: -3 }, bound: 'upper', nodes: 1234, nps: 99,
    time: 12, hashfull: 5, pv: ['e2c2', 'g5g2'],
  });
  assert.deepEqual(
    parseInfo('info depth 4 seldepth 8 score cp 618 wdl 855 0 145 nodes 7367 nps 818555 time 9 hashfull 2 pv e2g2'),
    {
      depth: 4, seldepth: 8, multipv: 1, score: { cp: 618 }, wdl: { win: 855, draw: 0, loss: 145 },
      nodes: 7367, nps: 818555, time: 9, hashfull: 2, pv: ['e2g2'],
    },
  );
  // Chances that are not three whole numbers adding up to 1000 make no info.
  assert.equal(parseInfo('info depth 4 score cp 1 wdl 500 500 nodes 1 time 1 pv e2g2'), null);
  assert.equal(parseInfo('info depth 4 score cp 1 wdl 500 400 99 nodes 1 time 1 pv e2g2'), null);
  assert.equal(parseInfo('info string hello'), null);
  assert.equal(parseInfo('info depth 9 currmove e8c8 currmovenumber 1'), null);
  assert.deepEqual(parseBestMove('bestmove e8c8 ponder g5g8'), { best: 'e8c8', ponder: 'g5g8' });
  assert.deepEqual(parseBestMove('bestmove (none)'), { best: null, ponder: null });
  assert.equal(parseBestMove('readyok'), null);
});

test('with UCI_ShowWDL the worker reports win chances, as the native engine does', async () => {
  const { execFileSync } = await import('node:child_process');
  const script = [
    'ucinewgame',
    'setoption name Ruleset value Ashton',
    'setoption name UCI_ShowWDL value true',
    'position startpos moves e3f3 d1d3',
    'go depth 3',
    'isready',
  ];
  const native = execFileSync(nativeKonakis.pathname, { input: script.join('\n') + '\n' })
    .toString()
    .split('\n')
    .filter((l) => l.startsWith('info depth'))
    .map((l) => parseInfo(l).wdl);
  const { engine, ask } = await open();
  const before = await ask('go depth 3', /^bestmove/);
  assert.ok(before.every((l) => !l.includes(' wdl ')), before.join('\n'));
  for (const line of script.slice(0, 4)) engine.send(line);
  const lines = await ask('go depth 3', /^bestmove/);
  const seen = lines.filter((l) => l.startsWith('info depth')).map((l) => parseInfo(l).wdl);
  assert.ok(seen.length > 0 && seen.every((w) => w && w.win + w.draw + w.loss === 1000), lines.join('\n'));
  // The native engine's input ends after `go`, which may stop its search early.
  assert.ok(native.length > 0);
  assert.deepEqual(seen.slice(0, native.length), native);
  engine.terminate();
});

test('quit ends the worker: nothing more is answered', async () => {
  const { engine, ask } = await open();
  await ask('isready', /^readyok$/);
  const seen = [];
  engine.onLine((l) => seen.push(l));
  engine.send('go infinite');
  await sleep(100);
  engine.send('quit');
  engine.send('isready');
  await sleep(500);
  assert.ok(!seen.some((l) => l.startsWith('bestmove') || l === 'readyok'), seen.join('\n'));
});

test('analyseGame reviews a game with progress, and an abort cancels it, both stop modes', async () => {
  for (const stopMode of ['shared', 'restart']) {
    const { engine } = await open({ stopMode });
    // The attackers take the king with d4-d6 in one; b8-b9 misses it.
    const seen = [];
    const review = await engine.analyseGame(
      { position: '9/1b1b1b3/3K5/9/w8/3b5/w4w3/9/9 b 0', moves: ['b8b9'], depth: 4 },
      { onProgress: (done, total) => seen.push([done, total]) },
    );
    assert.deepEqual(seen, [[1, 2], [2, 2]], stopMode);
    const move = review.games[0].review.moves[0];
    assert.equal(move.verdict, 'missed-win', stopMode);
    assert.deepEqual(move.before, { mate: 1 });
    assert.equal(move.best, 'd4d6');
    assert.equal(review.games[0].notation[0], 'b8-b9');
    await assert.rejects(engine.analyseGame({ moves: 'd1d3 e5e9', depth: 1 }), /move 2/);
    const abort = new AbortController();
    const long = engine.analyseGame({ moves: 'd1d2 f5f8 e8c8', movetime: 60_000 }, { signal: abort.signal });
    setTimeout(() => abort.abort(), 300);
    await assert.rejects(long, /cancelled/, stopMode);
    engine.terminate();
  }
});
