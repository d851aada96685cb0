// The reference board in a real browser (Chromium through playwright-core): a whole game
// against the engine played by clicking, take-back, the keyboard, Ashton's camps, analysis
// mode with win chances, import and export, and a phone-sized screen. Every move the page
// shows is checked with the package's rules API inside the page. Needs `bash web/build.sh`
// first; screenshots go to web/dist/screenshots/. practice.test.mjs has the rest: levels,
// hints, the review, navigation, drag, reload, clocks.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { rng } from './common.mjs';
import {
  start, stop, openBoard, waitForPlayer, shown, assertConsistent, clickMove, choose, shot,
  answer, noSidewaysScroll, PHONE,
} from './board-common.mjs';

const REASONS = ['escape', 'capture', 'encirclement', 'no-move', 'repetition', 'move-limit'];
const ASHTON_CAMPS = ['a4', 'a5', 'a6', 'b5', 'd1', 'e1', 'f1', 'e2', 'i4', 'i5', 'i6', 'h5', 'd9', 'e9', 'f9', 'e8'];

let env;
before(async () => {
  env = await start();
});
after(async () => {
  await stop(env);
});

test('a whole game against the engine at level 0, played by clicking, as the defenders', { timeout: 150_000 }, async () => {
  const { page, problems, context } = await openBoard(env, { query: '?seed=16' });
  await shot(page, 'start');
  await page.selectOption('#level', '0');
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
      const mine = s.status.winner === 'defenders' ? 'You won' : 'You lost';
      assert.equal(result.headline, s.status.winner ? mine : 'Draw', 'the result is the player\'s');
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
  const { page, problems, context } = await openBoard(env, { query: '?seed=2' });
  await page.selectOption('#level', '1');
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
  const earlier = s;
  await clickMove(page, s, choose(s, rng(7)));
  await waitForPlayer(page);
  s = await shown(page);
  assertConsistent(s);
  assert.equal(s.moves.length, 4);
  await page.click('#takeback');
  await waitForPlayer(page);
  s = await shown(page);
  assertConsistent(s);
  assert.deepEqual(s.moves, earlier.moves, 'the move list is back to before the player\'s move');
  assert.deepEqual(s.drawn, earlier.drawn, 'the board is back to before the player\'s move');
  assert.equal(s.position, earlier.position);
  assert.deepEqual(problems, []);
  await context.close();
});

/** The analysis lines as shown. */
async function lines(page) {
  return page.$$eval('.pv-line', (els) => els.map((e) => ({
    multipv: Number(e.dataset.multipv), depth: Number(e.dataset.depth),
    chances: e.querySelector('.chances').textContent, soldiers: e.querySelector('.soldiers').textContent,
    pv: e.querySelector('.pv').dataset.moves.split(' '), text: e.querySelector('.pv').textContent,
  })));
}

test('analysis mode: win chances in words, soldiers beside them, lines, arrow, a new analysis after a move', { timeout: 60_000 }, async () => {
  const { page, problems, context } = await openBoard(env);
  await page.click('label:has(input[name="mode"][value="analysis"])');
  const settle = async () => {
    await page.waitForFunction(() => {
      const l = document.querySelectorAll('.pv-line');
      return l.length === 3 && Number(l[0].dataset.depth) >= 5;
    }, null, { timeout: 30_000 });
  };
  await settle();
  let shownLines = await lines(page);
  assert.deepEqual(shownLines.map((l) => l.multipv), [1, 2, 3], 'MultiPV 3 gives three lines');
  for (const l of shownLines) {
    assert.match(l.chances, /^((Attackers|Defenders|Draw) \d{1,3} %|Even|(Attackers|Defenders) win in \d+)$/, `chances in words: ${l.chances}`);
    assert.match(l.soldiers, /^([+\u2212]\d+\.\d\d|0\.00|#-?\d+)$/, `the soldiers' score beside them: ${l.soldiers}`);
  }
  const check = async () => page.evaluate(() => {
    const K = window.__K;
    const game = new K.Game({ rules: document.getElementById('rules').value, position: document.getElementById('position').value });
    const arrow = document.getElementById('best-arrow')?.dataset.move ?? null;
    const out = {
      arrow, legal: game.legalMoves(), bar: document.getElementById('evalbar-text').textContent,
      barHidden: document.getElementById('evalbar').hidden,
      first: document.querySelector('.pv-line .pv').dataset.moves.split(' ')[0],
      firstChances: document.querySelector('.pv-line .chances').textContent,
    };
    game.free();
    return out;
  });
  let c = await check();
  assert.equal(c.barHidden, false, 'the evaluation bar shows');
  // Read in one go with the lines (the search goes on deepening meanwhile).
  assert.equal(c.bar, c.firstChances, 'the bar shows the best line\'s chances');
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
  shownLines = await lines(page);
  assert.equal(shownLines.length, 3);
  // Back to play: the analysis goes away.
  await page.click('label:has(input[name="mode"][value="play"])');
  assert.equal(await page.$eval('#analysis-card', (e) => e.hidden), true);
  assert.deepEqual(problems, []);
  await context.close();
});

test('import and export: the .otg record round trip, a position string, raichi and a win in 1', { timeout: 90_000 }, async () => {
  const { page, problems, context } = await openBoard(env, { query: '?seed=4' });
  await page.selectOption('#level', '1');
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
  assert.match(record, /^\[defenders:Konakis.*\(level 1\)\]$/m, 'the record names the engine and its level');
  // The record's moves are written as the move list writes them.
  for (const text of played.notation) assert.ok(record.includes(text), `the record has ${text}`);
  // A new game (after the question), then the record back: the same moves.
  await page.click('#new');
  await answer(page, true);
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
  await answer(page, true);
  assert.equal(await page.$eval('#king-lines', (e) => e.dataset.lines), '1');
  assert.match(await page.$eval('#king-lines', (e) => e.textContent), /Raichi/);
  // The defenders win at once (e5-e1 and others): a win in 1 for the defenders.
  await page.waitForFunction(() => document.getElementById('evalbar-text').textContent === 'Defenders win in 1', null, { timeout: 20_000 });
  assert.equal(await page.$eval('.pv-line .chances', (e) => e.textContent), 'Defenders win in 1');
  assert.equal(await page.$eval('.pv-line .soldiers', (e) => e.textContent), '#-1');
  await page.fill('#position', 'not a position');
  await page.click('#load-pos');
  assert.match(await page.$eval('#io-msg', (e) => e.textContent), /^Not loaded: /);
  assert.deepEqual(problems, []);
  await context.close();
});

test('Ashton: camps and throne drawn, defenders first', { timeout: 60_000 }, async () => {
  const { page, problems, context } = await openBoard(env, { query: '?seed=5' });
  await page.selectOption('#level', '1');
  await page.selectOption('#rules', 'ashton');
  const camps = await page.$$eval('.fields .camp', (els) => els.map((e) => e.dataset.square).sort());
  assert.deepEqual(camps, [...ASHTON_CAMPS].sort(), 'the sixteen camp squares are drawn');
  assert.equal(await page.$$eval('.fields .throne[data-square="e5"]', (els) => els.length), 1, 'the throne is drawn');
  await waitForPlayer(page);
  const s = await shown(page);
  assertConsistent(s);
  assert.equal(s.moves.length, 1, 'the engine (defenders) opened');
  await shot(page, 'ashton');
  // Back to the original rules, after the question: no camps.
  await page.selectOption('#rules', 'original');
  await answer(page, true);
  assert.equal(await page.$$eval('.fields .camp', (els) => els.length), 0);
  assert.deepEqual(problems, []);
  await context.close();
});

test('a 375 px wide phone screen: no sideways scrolling, the board fits, takes taps, and its buttons fit a thumb', { timeout: 60_000 }, async () => {
  const { page, problems, context } = await openBoard(env, { options: PHONE });
  await noSidewaysScroll(page);
  const board = await page.$eval('#board', (e) => e.getBoundingClientRect().toJSON());
  assert.ok(board.left >= 0 && board.right <= 375, 'the board is inside the screen');
  assert.ok(board.width >= 330, `the board uses the width (${board.width} px)`);
  const buttons = await page.$$eval('.navbar button:not([hidden])', (els) => els.map((e) => ({ id: e.id, ...e.getBoundingClientRect().toJSON() })));
  for (const b of buttons) {
    assert.ok(b.height >= 40 && b.width >= 40, `${b.id} is at least 40 px square (${b.width} x ${b.height})`);
    assert.ok(b.left >= 0 && b.right <= 375, `${b.id} is on the screen`);
  }
  await page.tap('.hit[data-square="d1"]');
  assert.ok(await page.$$eval('.hints .hint', (els) => els.length) > 0, 'a tap picks a piece');
  await shot(page, 'phone', true);
  assert.deepEqual(problems, []);
  await context.close();
});
