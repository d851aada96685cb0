// The reference board in a real browser (Chromium through playwright-core): a whole game
// against the engine played by clicking, take-back, the keyboard, Ashton's camps, analysis
// mode, and a phone-sized screen. Every move the page shows is checked with the package's
// rules API inside the page. Needs `bash web/build.sh` first; screenshots go to
// web/dist/screenshots/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, stat } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { serve } from '../serve.mjs';
import { rng } from './common.mjs';

const root = fileURLToPath(new URL('../dist/board/', import.meta.url));
const shots = fileURLToPath(new URL('../dist/screenshots/', import.meta.url));
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--no-first-run'];
const REASONS = ['escape', 'capture', 'encirclement', 'no-move', 'repetition', 'move-limit'];
const ASHTON_CAMPS = ['a4', 'a5', 'a6', 'b5', 'd1', 'e1', 'f1', 'e2', 'i4', 'i5', 'i6', 'h5', 'd9', 'e9', 'f9', 'e8'];

let server;
let browser;
let base;

before(async () => {
  await stat(`${root}index.html`).catch(() => {
    throw new Error(`${root} has no index.html: run 'bash web/build.sh' first`);
  });
  await stat(`${root}konakis/index.js`).catch(() => {
    throw new Error(`${root}konakis/ is missing: run 'bash web/build.sh' first`);
  });
  await mkdir(shots, { recursive: true });
  server = await serve(root, 0);
  base = `http://127.0.0.1:${server.address().port}/`;
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS });
});

after(async () => {
  await browser?.close();
  await new Promise((done) => (server ? server.close(done) : done()));
});


/**
 * Opens the board; collects console errors, page errors and any request that leaves the
 * page's own server (there must be none), and loads the rules API into the page for checks.
 */
async function openBoard(contextOptions = { viewport: { width: 1280, height: 900 } }) {
  const context = await browser.newContext(contextOptions);
  const page = await context.newPage();
  const problems = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console error: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('request', (r) => {
    const url = r.url();
    if (!url.startsWith(base) && !url.startsWith('blob:') && !url.startsWith('data:')) problems.push(`network: ${url}`);
  });
  await page.goto(base);
  await page.waitForSelector('#app:not([data-state="loading"])', { timeout: 30_000 });
  await page.evaluate(async () => {
    const K = await import('./konakis/index.js');
    await K.init();
    window.__K = K;
  });
  return { page, problems, context };
}

/** Waits until the board waits for the player (or the game is over); returns the state. */
async function waitForPlayer(page, timeout = 30_000) {
  await page.waitForFunction(() => ['human', 'over', 'analysis'].includes(document.getElementById('app').dataset.state), null, { timeout });
  return page.$eval('#app', (e) => e.dataset.state);
}

/**
 * What the page shows, checked against the rules API in the page: the move list replayed
 * from the list's start position under the selected rules (each move legal), the position
 * that gives, and for each legal move whether it captures or wins.
 */
async function shown(page) {
  return page.evaluate(() => {
    const K = window.__K;
    const list = document.getElementById('moves');
    const moves = [...list.querySelectorAll('[data-move]')].map((e) => e.dataset.move);
    const rules = document.getElementById('rules').value;
    const game = new K.Game({ rules, position: list.dataset.start });
    const illegal = [];
    for (const move of moves) {
      try {
        game.play(move);
      } catch (error) {
        illegal.push(`${move}: ${error.message}`);
        break;
      }
    }
    const side = game.sideToMove();
    const status = game.status();
    const candidates = status.over ? [] : game.legalMoves().map((move) => {
      const { captured } = game.play(move);
      const after = game.status();
      game.undo();
      return { move, captures: captured.length, wins: after.over && after.winner === side };
    });
    const drawn = Object.fromEntries([...document.querySelectorAll('.pieces .piece:not(.taken):not(.fallen)')]
      .map((e) => [e.dataset.square, e.dataset.piece]));
    const out = {
      moves, illegal, side, status, candidates, drawn,
      pieces: game.pieces(),
      position: game.position(),
      shownPosition: document.getElementById('position').value,
    };
    game.free();
    return out;
  });
}

function assertConsistent(s) {
  assert.deepEqual(s.illegal, [], 'every move in the move list is legal');
  assert.equal(s.shownPosition, s.position, 'the position field is the position of the move list');
  assert.deepEqual(s.drawn, s.pieces, 'the pieces drawn are the pieces of the position');
}

/** Picks up the piece of `move` by clicking, checks the highlighted squares, then drops it. */
async function clickMove(page, s, move) {
  const from = move.slice(0, 2);
  const to = move.slice(2);
  await page.click(`.hit[data-square="${from}"]`);
  const hints = await page.$$eval('.hints .hint', (els) => els.map((e) => e.dataset.square).sort());
  const legal = s.candidates.map((c) => c.move).filter((m) => m.startsWith(from)).map((m) => m.slice(2)).sort();
  assert.deepEqual(hints, legal, `the squares highlighted for ${from} are its legal destinations`);
  await page.click(`.hit[data-square="${to}"]`);
  await page.waitForFunction((n) => document.querySelectorAll('#moves [data-move]').length > n, s.moves.length);
}

/** A move for the player: a win if there is one, else a capture, else any. */
function choose(s, random) {
  const pick = (list) => list[Math.floor(random() * list.length)];
  const wins = s.candidates.filter((c) => c.wins);
  if (wins.length) return pick(wins).move;
  const captures = s.candidates.filter((c) => c.captures > 0);
  if (captures.length && random() < 0.8) return pick(captures).move;
  return pick(s.candidates).move;
}

async function shot(page, name, fullPage = false) {
  await page.screenshot({ path: `${shots}${name}.png`, fullPage });
}

test('a whole game against the engine, played by clicking', { timeout: 150_000 }, async () => {
  const { page, problems, context } = await openBoard();
  await shot(page, 'start');
  await page.selectOption('#level', 'depth 1');
  // Swap sides: the player takes the defenders, the engine opens as the attackers.
  await page.click('#swap');
  assert.equal(await page.$eval('#side', (e) => e.value), 'defenders');
  const random = rng(16);
  let midShot = false;
  let engineMoves = 0;
  for (;;) {
    const state = await waitForPlayer(page);
    const s = await shown(page);
    assertConsistent(s);
    if (state === 'over') {
      assert.ok(s.status.over, 'the rules API agrees that the game is over');
      const result = await page.$eval('#result', (e) => ({
        hidden: e.hidden, reason: e.dataset.reason, winner: e.dataset.winner,
        headline: document.getElementById('result-headline').textContent,
        why: document.getElementById('result-reason').textContent,
      }));
      assert.equal(result.hidden, false, 'the result is shown');
      assert.ok(REASONS.includes(result.reason), `a known reason: ${result.reason}`);
      assert.equal(result.reason, s.status.reason, 'the reason shown is the game\'s');
      assert.equal(result.winner, s.status.winner ?? 'draw');
      assert.match(result.headline, s.status.winner ? /win/ : /Draw/);
      assert.ok(result.why.length > 5, 'the reason is written out');
      break;
    }
    assert.equal(s.side, 'defenders', 'the board waits for the player only on the player\'s turn');
    engineMoves = Math.ceil(s.moves.length / 2);
    if (!midShot && s.moves.length >= 12) {
      await shot(page, 'mid-game');
      midShot = true;
    }
    await clickMove(page, s, choose(s, random));
  }
  assert.ok(engineMoves >= 1, 'the engine moved');
  await shot(page, 'end');
  assert.deepEqual(problems, []);
  await context.close();
});

test('keyboard moves, engine animation and take-back', { timeout: 60_000 }, async () => {
  const { page, problems, context } = await openBoard();
  await page.selectOption('#level', 'depth 1');
  // The keyboard: focus the board, cursor from e5 down to e2, pick up, one left, put down.
  await page.focus('#board');
  assert.equal(await page.$eval('.cursor', (e) => getComputedStyle(e).display), 'block', 'the cursor shows on focus');
  for (const key of ['ArrowDown', 'ArrowDown', 'ArrowDown', 'Enter']) await page.keyboard.press(key);
  assert.deepEqual(await page.$$eval('.hints .hint', (els) => els.map((e) => e.dataset.square).sort()),
    ['a2', 'b2', 'c2', 'd2', 'f2', 'g2', 'h2', 'i2'].sort(), 'the attacker on e2 can go along rank 2');
  await page.keyboard.press('Escape');
  assert.equal(await page.$$eval('.hints .hint', (els) => els.length), 0, 'Escape puts the piece back');
  await page.keyboard.press('Enter');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('Enter');
  // The engine answers with an animated move.
  await page.waitForSelector('.piece.moving', { timeout: 10_000 });
  await waitForPlayer(page);
  let s = await shown(page);
  assertConsistent(s);
  assert.equal(s.moves[0], 'e2d2', 'the keyboard played e2-d2');
  assert.equal(s.moves.length, 2, 'the engine replied');
  const before = s;
  await clickMove(page, s, choose(s, rng(7)));
  await waitForPlayer(page);
  s = await shown(page);
  assertConsistent(s);
  assert.equal(s.moves.length, 4);
  await page.click('#takeback');
  await waitForPlayer(page);
  s = await shown(page);
  assertConsistent(s);
  assert.deepEqual(s.moves, before.moves, 'the move list is back to before the player\'s move');
  assert.deepEqual(s.drawn, before.drawn, 'the board is back to before the player\'s move');
  assert.equal(s.position, before.position);
  assert.deepEqual(problems, []);
  await context.close();
});

test('analysis mode: evaluation, lines, arrow, and a new analysis after a move', { timeout: 60_000 }, async () => {
  const { page, problems, context } = await openBoard();
  await page.click('label:has(input[name="mode"][value="analysis"])');
  const lines = async () => page.$$eval('.pv-line', (els) => els.map((e) => ({
    multipv: Number(e.dataset.multipv), depth: Number(e.dataset.depth),
    score: e.querySelector('.score').textContent, pv: e.querySelector('.pv').textContent,
  })));
  const settle = async () => {
    await page.waitForFunction(() => {
      const l = document.querySelectorAll('.pv-line');
      return l.length === 3 && Number(l[0].dataset.depth) >= 5;
    }, null, { timeout: 30_000 });
  };
  await settle();
  let shownLines = await lines();
  assert.deepEqual(shownLines.map((l) => l.multipv), [1, 2, 3], 'MultiPV 3 gives three lines');
  for (const l of shownLines) assert.match(l.score, /^([+\u2212]\d+\.\d\d|0\.00|#-?\d+)$/, `a score: ${l.score}`);
  const check = async () => page.evaluate(() => {
    const K = window.__K;
    const game = new K.Game({ rules: document.getElementById('rules').value, position: document.getElementById('position').value });
    const arrow = document.getElementById('best-arrow')?.dataset.move ?? null;
    const out = {
      arrow, legal: game.legalMoves(), bar: document.getElementById('evalbar-text').textContent,
      barHidden: document.getElementById('evalbar').hidden,
      first: document.querySelector('.pv-line .pv').textContent.split(' ')[0].replace('\u2013', ''),
    };
    game.free();
    return out;
  });
  let c = await check();
  assert.equal(c.barHidden, false, 'the evaluation bar shows');
  assert.ok(c.bar.startsWith(shownLines[0].score), `the bar shows the best line's score (${c.bar})`);
  assert.ok(c.arrow, 'the best move is drawn as an arrow');
  assert.equal(c.arrow, c.first, 'the arrow is the best line\'s first move');
  assert.ok(c.legal.includes(c.arrow), 'the arrow is a legal move');
  await shot(page, 'analysis');
  // In analysis the player moves either side; the engine starts again on the new position.
  const s = await shown(page);
  await clickMove(page, s, choose(s, rng(3)));
  await settle();
  c = await check();
  assert.ok(c.legal.includes(c.arrow), 'the new arrow is a legal move of the new position');
  shownLines = await lines();
  assert.equal(shownLines.length, 3);
  // Back to play: the analysis goes away.
  await page.click('label:has(input[name="mode"][value="play"])');
  assert.equal(await page.$eval('#analysis-card', (e) => e.hidden), true);
  assert.deepEqual(problems, []);
  await context.close();
});

test('import and export: the .otg record round trip, a position string, raichi and a mate score', { timeout: 60_000 }, async () => {
  const { page, problems, context } = await openBoard();
  await page.selectOption('#level', 'depth 1');
  for (let i = 0; i < 2; i++) {
    await waitForPlayer(page);
    const s = await shown(page);
    await clickMove(page, s, choose(s, rng(11 + i)));
  }
  await waitForPlayer(page);
  const played = await shown(page);
  assert.equal(played.moves.length, 4);
  await page.click('#io summary');
  await page.click('#export-otg');
  const record = await page.$eval('#otg', (e) => e.value);
  assert.match(record, /^\[attackers:Player\]$/m, 'the record names the player');
  assert.match(record, /^\[defenders:Konakis.*\(depth 1\)\]$/m, 'the record names the engine');
  // A new game, then the record back: the same moves.
  await page.click('#new');
  await waitForPlayer(page);
  assert.equal((await shown(page)).moves.length, 0);
  await page.fill('#otg', record);
  await page.click('#import-otg');
  await waitForPlayer(page);
  const back = await shown(page);
  assertConsistent(back);
  assert.deepEqual(back.moves, played.moves, 'the imported record has the moves exported');
  // A bad record is refused with a message, and the game stays.
  await page.fill('#otg', 'no record here');
  await page.click('#import-otg');
  assert.match(await page.$eval('#io-msg', (e) => e.textContent), /^Not imported: /);
  assert.deepEqual((await shown(page)).moves, played.moves);
  // A position string: the king on e5 with one open line (raichi), the defenders to move.
  await page.click('label:has(input[name="mode"][value="analysis"])');
  await page.fill('#position', '4b4/9/9/9/b3K3b/9/9/9/9 w 40');
  await page.click('#load-pos');
  assert.equal(await page.$eval('#king-lines', (e) => e.dataset.lines), '1');
  assert.match(await page.$eval('#king-lines', (e) => e.textContent), /Raichi/);
  // The defenders win at once (e5-e1 and others): mate in 1 for the defenders.
  await page.waitForFunction(() => document.getElementById('evalbar-text').textContent.startsWith('#-1'), null, { timeout: 20_000 });
  assert.match(await page.$eval('.pv-line .score', (e) => e.textContent), /^#-1$/);
  await page.fill('#position', 'not a position');
  await page.click('#load-pos');
  assert.match(await page.$eval('#io-msg', (e) => e.textContent), /^Not loaded: /);
  assert.deepEqual(problems, []);
  await context.close();
});

test('Ashton: camps and throne drawn, defenders first', { timeout: 60_000 }, async () => {
  const { page, problems, context } = await openBoard();
  await page.selectOption('#level', 'depth 1');
  await page.selectOption('#rules', 'ashton');
  const camps = await page.$$eval('.fields .camp', (els) => els.map((e) => e.dataset.square).sort());
  assert.deepEqual(camps, [...ASHTON_CAMPS].sort(), 'the sixteen camp squares are drawn');
  assert.equal(await page.$$eval('.fields .throne[data-square="e5"]', (els) => els.length), 1, 'the throne is drawn');
  await waitForPlayer(page);
  const s = await shown(page);
  assertConsistent(s);
  assert.equal(s.moves.length, 1, 'the engine (defenders) opened');
  await shot(page, 'ashton');
  // Back to the original rules: no camps.
  await page.selectOption('#rules', 'original');
  assert.equal(await page.$$eval('.fields .camp', (els) => els.length), 0);
  assert.deepEqual(problems, []);
  await context.close();
});

test('a 375 px wide phone screen: no sideways scrolling, the board fits and takes taps', { timeout: 60_000 }, async () => {
  const { page, problems, context } = await openBoard({
    viewport: { width: 375, height: 740 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true,
  });
  const sizes = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
    board: document.getElementById('board').getBoundingClientRect().toJSON(),
  }));
  assert.ok(sizes.scroll <= 375, `no horizontal overflow (scroll width ${sizes.scroll})`);
  assert.ok(sizes.board.left >= 0 && sizes.board.right <= 375, 'the board is inside the screen');
  assert.ok(sizes.board.width >= 330, `the board uses the width (${sizes.board.width} px)`);
  await page.tap('.hit[data-square="d1"]');
  assert.ok(await page.$$eval('.hints .hint', (els) => els.length) > 0, 'a tap picks a piece');
  await shot(page, 'phone', true);
  assert.deepEqual(problems, []);
  await context.close();
});
