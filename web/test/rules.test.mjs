// The browser package's rules API (web/dist/konakis/rules.js, built by web/build.sh) against
// the native engine (target/release/konakis, `cargo build --release`): random games under
// every preset and a few rule variants, played through the wasm API, must have the same legal
// moves, positions, king lines and results as the native engine gives for the same moves
// through its line protocol. Then the API's own behaviour: typed errors that leave the game
// as it was, undo, presets, option table, OpenTafl records, perft.
//
// Run from web/: `bash build.sh && node --test test/rules.test.mjs`.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { nativeKonakis, rng } from './common.mjs';

const pkg = new URL('../dist/konakis/', import.meta.url);
const nativeBin = nativeKonakis;
if (!existsSync(new URL('rules.js', pkg))) {
  throw new Error('web/dist/konakis is missing: run `bash web/build.sh` first');
}
if (!existsSync(nativeBin)) {
  throw new Error(`${nativeBin.pathname} is missing: run \`cargo build --release\` first`);
}
const { init, Game, KonakisError, presets, ruleOptions } = await import(new URL('rules.js', pkg));
await init(await readFile(new URL('wasm/konakis_wasm_bg.wasm', pkg)));


/** The native engine behind its line protocol, one query at a time. */
class Native {
  constructor() {
    this.proc = spawn(nativeBin.pathname, [], { stdio: ['pipe', 'pipe', 'inherit'] });
    this.lines = [];
    this.waiting = null;
    createInterface({ input: this.proc.stdout }).on('line', (line) => {
      this.lines.push(line);
      if (this.waiting && this.waiting.done(line)) {
        const { resolve } = this.waiting;
        this.waiting = null;
        resolve(this.lines.splice(0));
      }
    });
  }

  /** Sends `text` and resolves with every line up to the one `done` accepts. */
  ask(text, done) {
    return new Promise((resolve) => {
      this.waiting = { resolve, done };
      this.proc.stdin.write(text);
    });
  }

  async setRules(options) {
    const set = Object.entries(options)
      .map(([name, value]) => `setoption name ${name} value ${value}\n`)
      .join('');
    await this.ask(`${set}isready\n`, (l) => l === 'readyok');
    const lines = await this.ask('d\n', (l) => l.startsWith('Rules: '));
    return lines.find((l) => l.startsWith('Rules: ')).slice(7);
  }

  /** The position, status, king line and legal moves after `moves` from the start. */
  async query(moves) {
    const lines = await this.ask(
      `position startpos moves ${moves.join(' ')}\nd\ngo perft 1\n`,
      (l) => l.startsWith('Nodes searched: '),
    );
    const field = (name) => {
      const l = lines.find((x) => x.startsWith(`${name}: `));
      assert.ok(l, `native d prints ${name}: ${lines.join('\n')}`);
      return l.slice(name.length + 2);
    };
    const errors = lines.filter((l) => l.startsWith('info string error'));
    assert.deepEqual(errors, [], `native accepts ${moves.join(' ')}`);
    const legal = lines.filter((l) => /^[a-i][1-9][a-i][1-9]: 1$/.test(l)).map((l) => l.slice(0, 4));
    return { position: field('Position'), status: field('Status'), king: field('King'), legal };
  }

  close() {
    this.proc.stdin.end('quit\n');
    return new Promise((resolve) => this.proc.on('exit', resolve));
  }
}

/** The native `King:` line for a number of open lines. */
function kingLine(n) {
  if (n === 0) return 'no open line to the edge';
  if (n === 1) return 'raichi (1 open line to the edge)';
  return `tuichu (${n} open lines to the edge)`;
}

/** The reason each native status text gives. */
const REASONS = [
  ['the king reached the edge', 'escape'],
  ['the king was captured', 'capture'],
  ['encircled', 'encirclement'],
  ['no legal move', 'no-move'],
  ['(repetition)', 'repetition'],
  ['move limit', 'move-limit'],
];

/**
 * Plays `games` random games under `rules` through the wasm API and checks them against the
 * native engine: every position of the first `full` games, and for the others one position
 * picked at random and the last. With probability `takeBack` a move takes back the side's
 * previous move, so that positions recur. Returns how the games ended.
 */
async function compareRandomGames(rules, { games, full, seed, takeBack }) {
  const first = new Game({ rules });
  const wasmRules = Object.entries(first.rules()).map(([k, v]) => `${k}=${v}`).join(' ');
  first.free();
  // The native engine under the same rules, set through its own options.
  const options = typeof rules === 'string'
    ? presets().find((p) => p.id === rules).options
    : rules;
  const tally = {};
  // Several native processes at once: a query waits mostly on the pipe, not on the CPU.
  const lanes = 4;
  await Promise.all(Array.from({ length: lanes }, async (_, lane) => {
    const native = new Native();
    try {
      assert.equal(await native.setRules(options), wasmRules, 'the same rules');
      for (let n = lane; n < games; n += lanes) {
        const reason = await compareOneGame(native, rules, n, n < full, seed * 100000 + n, takeBack);
        tally[reason] = (tally[reason] ?? 0) + 1;
      }
    } finally {
      await native.close();
    }
  }));
  return tally;
}

/** One random game (see compareRandomGames); returns why it ended. */
async function compareOneGame(native, rules, n, full, seed, takeBack) {
  const random = rng(seed);
  const game = new Game({ rules });
  const sample = full ? -1 : Math.floor(random() * 60);
  try {
    for (;;) {
      const moves = game.moves();
      const at = `${JSON.stringify(rules)}, seed ${seed}, game ${n}, after ${moves.join(' ')}`;
      const status = game.status();
      const legal = game.legalMoves();
      if (sample < 0 || moves.length === sample || status.over) {
        const got = await native.query(moves);
        assert.equal(game.position(), got.position, `position, ${at}`);
        assert.equal(status.text, got.status, `status, ${at}`);
        assert.equal(kingLine(game.kingOpenLines()), got.king, `king's lines, ${at}`);
        if (!status.over) {
          assert.deepEqual([...legal].sort(), [...got.legal].sort(), `legal moves, ${at}`);
        } else if (status.winner) {
          // A won board has no moves (the native perft ignores only the draws).
          assert.deepEqual(got.legal, [], `no moves once won, ${at}`);
        }
      }
      if (status.over) {
        const reason = REASONS.find(([words]) => status.text.includes(words))?.[1];
        assert.equal(status.reason, reason, `reason, ${at}`);
        assert.equal(status.winner === null, status.text.startsWith('draw'), `winner, ${at}`);
        assert.deepEqual(legal, [], `no moves once over, ${at}`);
        return status.reason;
      }
      // Moves from one square are the moves of all that start there.
      const from = legal[Math.floor(random() * legal.length)].slice(0, 2);
      assert.deepEqual(game.legalMoves(from), legal.filter((m) => m.startsWith(from)), at);
      const back = moves.length >= 2 ? moves[moves.length - 2] : null;
      const undoing = back && `${back.slice(2)}${back.slice(0, 2)}`;
      const move = undoing && legal.includes(undoing) && random() < takeBack
        ? undoing
        : legal[Math.floor(random() * legal.length)];
      const before = game.pieces();
      const { captured } = game.play(move);
      // The captured squares are the opponent's pieces that vanished.
      const after = game.pieces();
      const gone = Object.keys(before).filter((sq) => sq !== move.slice(0, 2) && !(sq in after));
      assert.deepEqual([...captured].sort(), gone.sort(), `captures of ${move}, ${at}`);
    }
  } finally {
    game.free();
  }
}

// Per preset: 200 games, the first 12 checked at every position.
const GAMES = 200;

for (const [i, preset] of ['original', 'english', 'taflhub', 'encyclopedia', 'ashton'].entries()) {
  test(`random games under the ${preset} preset agree with the native engine`, async (t) => {
    const tally = await compareRandomGames(preset, { games: GAMES, full: 12, seed: 16 + i, takeBack: 0.05 });
    t.diagnostic(`${preset}: ${JSON.stringify(tally)}`);
    assert.equal(Object.values(tally).reduce((a, b) => a + b, 0), GAMES);
  });
}

test('random games under rule variants agree with the native engine, every reason appears', async (t) => {
  const seen = {};
  const variants = [
    { MoveLimit: '30' },
    { RepetitionDraw: '2', ThronePassable: 'false' },
    { Encirclement: 'true', KingArmed: 'false', MoveLimit: '0' },
    { KingCapture: 'English', FirstMove: 'Defenders', ThroneHostile: 'true', ThroneGuardCapture: 'false' },
  ];
  for (const [i, rules] of variants.entries()) {
    const tally = await compareRandomGames(rules, { games: 60, full: 6, seed: 100 + i, takeBack: 0.3 });
    for (const [reason, n] of Object.entries(tally)) seen[reason] = (seen[reason] ?? 0) + n;
  }
  t.diagnostic(JSON.stringify(seen));
  for (const reason of ['escape', 'capture', 'move-limit', 'repetition']) {
    assert.ok(seen[reason] > 0, `some game ended by ${reason}: ${JSON.stringify(seen)}`);
  }
});

test('an illegal move, bad text and a move after the end throw typed errors and change nothing', () => {
  const game = new Game();
  game.play('d1d3');
  const before = [game.position(), game.moves().join(' '), game.status().text];
  const expect = (f, kind, message) => {
    assert.throws(f, (e) => {
      assert.ok(e instanceof KonakisError && e instanceof Error, `${e}`);
      assert.equal(e.kind, kind);
      assert.equal(e.name, 'KonakisError');
      if (message) assert.equal(e.message, message);
      return true;
    });
    assert.deepEqual([game.position(), game.moves().join(' '), game.status().text], before);
  };
  expect(() => game.play('e5e6'), 'illegal-move', 'e5e6 is not legal: e6 is occupied');
  expect(() => game.play('d3d4'), 'illegal-move',
    'd3d4 is not legal: the piece on d3 belongs to the attackers, and the defenders are to move');
  expect(() => game.play('e3c3'), 'illegal-move', 'e3c3 is not legal: the path is blocked');
  expect(() => game.play('hello'), 'move-syntax', "'hello' is not a move (expected e.g. d1d3 or d1-d3)");
  expect(() => game.play('e4f5'), 'move-syntax');
  expect(() => game.play(42), 'move-syntax');
  expect(() => game.legalMoves('j1'), 'move-syntax');

  const won = new Game({ position: '9/9/9/9/9/9/9/1K7/b8 w' });
  won.play('b2a2');
  assert.deepEqual(won.status(), {
    over: true, winner: 'defenders', reason: 'escape', text: 'defenders win: the king reached the edge',
  });
  assert.throws(() => won.play('a1b1'), (e) => e.kind === 'game-over' && /the game is over/.test(e.message));
  assert.equal(won.position(), '9/9/9/9/9/9/9/K8/b8 b 1');
});

test('bad positions, presets, rule options and values are refused with their kind', () => {
  const kindOf = (f) => {
    try {
      f();
    } catch (e) {
      assert.ok(e instanceof KonakisError, `${e}`);
      assert.ok(e.message.length > 0 && /^[\x20-\x7e]*$/.test(e.message), e.message);
      return e.kind;
    }
    return null;
  };
  assert.equal(kindOf(() => new Game({ position: '9/9/9 b' })), 'position');
  assert.equal(kindOf(() => new Game({ position: 'x'.repeat(10000) })), 'position');
  assert.equal(kindOf(() => new Game({ position: '9/9/9/9/9/9/9/9/K7\u00e9 b' })), 'position');
  assert.equal(kindOf(() => new Game({ rules: 'salmi' })), 'rules');
  assert.equal(kindOf(() => new Game({ rules: { KingCapture: 'Salmi' } })), 'rules');
  assert.equal(kindOf(() => new Game({ rules: { MoveLimit: 10001 } })), 'rules');
  assert.equal(kindOf(() => new Game({ rules: { Hash: '16' } })), 'rules');
  assert.equal(kindOf(() => new Game({ rules: { Ruleset: 'Ashton', FirstMove: 'Attackers' } })), 'rules');
  assert.equal(kindOf(() => new Game({ rules: { kingcapture: 'english', MoveLimit: 0 } })), null);
  assert.throws(() => new Game({ rules: { KingCapture: 'Salmi' } }), {
    name: 'KonakisError',
    message: "invalid value 'Salmi' for KingCapture (allowed: one of Original, English)",
  });
});

test('undo takes moves back to the start, and play after undo goes on from there', () => {
  const game = new Game({ rules: 'taflhub' });
  const seen = [game.position()];
  game.play('d1d3');
  seen.push(game.position());
  const legal = game.legalMoves();
  game.play(legal[0]);
  seen.push(game.position());
  assert.equal(game.undo(), legal[0]);
  assert.equal(game.position(), seen[1]);
  assert.equal(game.undo(), 'd1d3');
  assert.equal(game.position(), seen[0]);
  assert.equal(game.position(), game.start());
  assert.equal(game.undo(), null);
  assert.deepEqual(game.moves(), []);
  game.play('d1d3');
  assert.equal(game.position(), seen[1]);
  // A drawn game comes back to life when the repeating move is taken back.
  const shuffle = ['a4a3', 'e3f3', 'a3a4', 'f3e3'].concat(['a4a3', 'e3f3', 'a3a4', 'f3e3']);
  const draw = new Game();
  for (const m of shuffle) draw.play(m);
  assert.equal(draw.status().reason, 'repetition');
  draw.undo();
  assert.equal(draw.status().over, false);
  assert.ok(draw.legalMoves().includes('f3e3'));
});

test('the presets and the option table are the engine\'s', () => {
  const ids = presets().map((p) => p.id);
  assert.deepEqual(ids, ['original', 'english', 'taflhub', 'encyclopedia', 'ashton']);
  const byId = Object.fromEntries(presets().map((p) => [p.id, p.options]));
  assert.deepEqual(byId.original, {});
  assert.deepEqual(byId.english, { KingCapture: 'English' });
  assert.deepEqual(byId.taflhub, {
    KingCapture: 'English', ThroneHostile: 'true', KingReentersThrone: 'false', ThroneGuardCapture: 'false',
  });
  assert.deepEqual(byId.encyclopedia, { ...byId.taflhub, FirstMove: 'Defenders', KingArmed: 'false' });
  assert.deepEqual(byId.ashton, { Ruleset: 'Ashton' });
  for (const p of presets()) {
    // A preset by id and its options on the defaults are the same rules.
    assert.deepEqual(new Game({ rules: p.id }).rules(), new Game({ rules: p.options }).rules(), p.id);
    assert.ok(p.name && p.description, p.id);
  }
  const options = ruleOptions();
  const defaults = new Game().rules();
  assert.deepEqual(options.map((o) => o.name), Object.keys(defaults));
  for (const o of options) {
    assert.equal(o.default, defaults[o.name], o.name);
    assert.ok(['choice', 'bool', 'number'].includes(o.kind) && o.description, o.name);
    if (o.kind === 'choice') assert.ok(o.values.includes(o.default), o.name);
    if (o.kind === 'number') assert.ok(o.min <= Number(o.default) && Number(o.default) <= o.max, o.name);
  }
  const ashton = new Game({ rules: 'ashton' });
  assert.equal(ashton.sideToMove(), 'defenders');
  assert.equal(ashton.special().camps.length, 16);
  assert.ok(ashton.special().camps.includes('a4') && ashton.special().camps.includes('e8'));
  assert.deepEqual(new Game().special(), { throne: 'e5', camps: [], corners: [] });
  const start = new Game();
  assert.equal(Object.keys(start.pieces()).length, 25);
  assert.equal(start.pieces().e5, 'king');
  assert.equal(start.kingSquare(), 'e5');
  assert.equal(start.plies(), 0);
});

test('an OpenTafl record round-trips: fromOtg(otg()) gives the same rules, moves and result', () => {
  const random = rng(7);
  for (const preset of ['original', 'taflhub', 'ashton']) {
    const game = new Game({ rules: preset });
    while (!game.status().over && game.moves().length < 60) {
      const legal = game.legalMoves();
      game.play(legal[Math.floor(random() * legal.length)]);
    }
    const text = game.otg({ event: 'rules test', date: '2026.12.01' });
    assert.match(text, /^\[date:2026\.12\.01\]\n/);
    assert.match(text, /\n\[compiler:Konakis\]\n\[rules:dim:9 name:Tablut /);
    assert.match(text, /\n\[event:rules test\]\n/);
    assert.ok(/^[\x20-\x7e\n]*$/.test(text), 'ASCII');
    const back = Game.fromOtg(text);
    assert.deepEqual(back.moves(), game.moves(), preset);
    assert.deepEqual(back.rules(), game.rules(), preset);
    assert.deepEqual(back.status(), game.status(), preset);
    assert.equal(back.start(), game.start());
  }
  // The date defaults to today (UTC), as `konakis match` writes it.
  const d = new Date();
  const today = `${d.getUTCFullYear()}.${String(d.getUTCMonth() + 1).padStart(2, '0')}.`;
  assert.ok(new Game().otg().startsWith(`[date:${today}`));
  for (const tags of [{ rules: 'x' }, { 'a b': 'x' }, { start: 'x' }]) {
    assert.throws(() => new Game().otg(tags), (e) => e.kind === 'record');
  }
  assert.throws(() => Game.fromOtg(''), (e) => e.kind === 'record');
  assert.throws(() => Game.fromOtg('[rules:dim:9]\n\n1. e5-e9'), (e) => e.kind === 'record');
});

/** perft through the API: play every legal move, count at the leaves, undo. */
function perft(game, depth) {
  const legal = game.legalMoves();
  if (depth === 1) return legal.length;
  let n = 0;
  for (const m of legal) {
    game.play(m);
    n += perft(game, depth - 1);
    game.undo();
  }
  return n;
}

test('perft through legalMoves, play and undo gives the known counts', () => {
  assert.equal(perft(new Game(), 2), 4400);
  assert.equal(perft(new Game(), 3), 353200);
});
