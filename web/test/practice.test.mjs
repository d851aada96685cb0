// The board as a place to practise (issue 32), in Chromium through playwright-core: the level
// picker with the engine's own Elo, a whole game against level 1 won by following the hints,
// the review of a known game with its marks, looking back through a game and returning, the
// board turned round, two players at one screen, the questions before a game is discarded,
// resigning, dragging with a finger on a phone, a reload that restores the game, clocks
// that run out, and the page without cross-origin isolation. Engine play is made
// reproducible with `?seed=N` (the engine's `Skill Seed`). Screenshots of each state at 1280
// and 375 px go to web/dist/screenshots/. Needs `bash web/build.sh` first.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { rng } from './common.mjs';
import {
  start, stop, openBoard, ready, waitForPlayer, shown, assertConsistent, clickMove, dragMove,
  choose, shot, answer, noSidewaysScroll, squareCentre, plainProxy, PHONE, randomRecord, importRecord,
} from './board-common.mjs';

let env;
before(async () => {
  env = await start();
});
after(async () => {
  await stop(env);
});

/** The state of the review card ('none', 'running', 'done', 'stopped', 'failed'). */
const reviewStatus = (page) => page.$eval('#review-card', (e) => e.dataset.status);

async function waitForReview(page, timeout = 60_000) {
  await page.waitForFunction(() => ['done', 'failed'].includes(document.getElementById('review-card').dataset.status), null, { timeout });
  assert.equal(await reviewStatus(page), 'done', 'the review finished');
}

/** The verdicts and marks of the move list. */
async function marks(page) {
  return page.$$eval('#moves .ply', (els) => els.map((e) => ({
    move: e.dataset.move, verdict: e.dataset.verdict ?? null, mark: e.querySelector('.mark')?.textContent ?? '',
  })));
}

/**
 * A known game as an OpenTafl record, made with the rules API in the page: the attackers could
 * take the king on d7 with d4-d6 but play b8-b9 (a missed win); the defenders could escape
 * along rank 7 but play a5-a6 (a missed win, and the king can now be taken); the attackers
 * take him with d4-d6 (the best move).
 */
const KNOWN = { position: '9/1b1b1b3/3K5/9/w8/3b5/w4w3/9/9 b 0', moves: ['b8b9', 'a5a6', 'd4d6'] };

async function knownRecord(page) {
  return page.evaluate(({ position, moves }) => {
    const game = new window.__K.Game({ position });
    for (const m of moves) game.play(m);
    const text = game.otg({ attackers: 'Player A', defenders: 'Player B' });
    game.free();
    return text;
  }, KNOWN);
}

test('the level picker names every level with the engine\'s own Elo, and hints show at the lower levels', { timeout: 60_000 }, async () => {
  const { page, problems, context } = await openBoard(env);
  const { options, curve } = await page.evaluate(() => ({
    options: [...document.querySelectorAll('#level option')].map((o) => ({ value: Number(o.value), text: o.textContent })),
    curve: window.__K.levels(),
  }));
  assert.equal(options.length, curve.full + 1, 'one entry per level, 0 to full strength');
  for (const [i, o] of options.entries()) {
    const { level, elo } = curve.levels[i];
    assert.equal(o.value, level);
    assert.match(o.text, new RegExp(`^${level} \u00b7 [A-Z][^\u00b7]+ \u00b7 ${elo} Elo$`), `level ${level}: ${o.text}`);
  }
  assert.match(options[curve.full].text, /Full strength/);
  // The notes of docs/levels.md beside the levels they name.
  await page.selectOption('#level', '14');
  assert.match(options[14].text, /^14 \u00b7 Expert \u00b7 /, 'level 14 keeps its band\'s name');
  assert.match(await page.$eval('#level-note', (e) => e.textContent), /OpenTafl \(a desktop tafl program\)/, 'the note says which program it plays like, and what that is');
  assert.equal(await page.$eval('#hint', (e) => e.hidden), true, 'no hint at level 14');
  await page.selectOption('#level', '8');
  assert.equal(await page.$eval('#hint', (e) => e.hidden), false, 'a hint at level 8');
  assert.equal(await page.$eval('#limits', (e) => e.open), false, 'the engine limits are folded away');
  await page.click('#limits summary');
  await page.selectOption('#level', '14');
  await shot(page, 'levels-1280');
  assert.deepEqual(problems, []);
  await context.close();
});

test('a whole game against level 1, won by following the hints (dragging and clicking), then reviewed', { timeout: 300_000 }, async () => {
  const { page, problems, context } = await openBoard(env, { query: '?seed=21' });
  await page.selectOption('#level', '1');
  await page.click('#swap');
  assert.equal(await page.$eval('#side', (e) => e.value), 'defenders');
  let turns = 0;
  for (;;) {
    const state = await waitForPlayer(page, 60_000);
    const s = await shown(page);
    assertConsistent(s);
    if (state === 'over') {
      assert.equal(s.status.winner, 'defenders', `the player (defenders) won: ${s.status.text}`);
      assert.equal(await page.$eval('#result-headline', (e) => e.textContent), 'You won');
      break;
    }
    assert.ok(turns < 150, 'the game ends within 150 of the player\'s moves');
    await page.click('#hint');
    await page.waitForSelector('#hint-text:not([hidden])[data-move]', { timeout: 60_000 });
    const hint = await page.$eval('#hint-text', (e) => e.dataset.move);
    assert.equal(await page.$eval('#hint-arrow', (e) => e.dataset.move), hint, 'the hint is drawn as an arrow');
    assert.ok(s.candidates.some((c) => c.move === hint), `the hint ${hint} is legal`);
    if (turns === 2) await shot(page, 'hint-1280');
    if (turns % 2 === 0) {
      await dragMove(page, hint);
      await page.waitForFunction((n) => document.querySelectorAll('#moves [data-move]').length > n, s.moves.length);
    } else {
      await clickMove(page, s, hint);
    }
    const after = await shown(page);
    assert.equal(after.moves[s.moves.length], hint, 'the hint was played');
    turns++;
  }
  // The review starts by itself at the end of the game.
  await waitForReview(page, 120_000);
  const m = await marks(page);
  assert.ok(m.every((x) => x.verdict !== null), 'every move has a verdict');
  const acc = await page.$$eval('.side-accuracy .acc', (els) => els.map((e) => e.textContent));
  for (const a of acc) assert.match(a, /^\d{1,3} %$/, `an accuracy per side: ${a}`);
  const dots = await page.$$eval('.chart-mark', (els) => els.length);
  assert.equal(dots, m.filter((x) => x.mark !== '').length, 'the chart marks the marked moves');
  await shot(page, 'won-by-hints-1280');
  assert.deepEqual(problems, []);
  await context.close();
});

test('the review of a known game: the marks, each side\'s accuracy, the chart, the better move with its line', { timeout: 120_000 }, async () => {
  for (const [options, width] of [[undefined, 1280], [PHONE, 375]]) {
    const { page, problems, context } = await openBoard(env, options ? { options } : {});
    await importRecord(page, await knownRecord(page));
    await waitForReview(page);
    assert.deepEqual(await marks(page), [
      { move: 'b8b9', verdict: 'missed-win', mark: '??' },
      { move: 'a5a6', verdict: 'missed-win', mark: '??' },
      { move: 'd4d6', verdict: 'best', mark: '' },
    ], 'the verdicts and marks of the known game');
    const accuracy = await page.$$eval('.side-accuracy', (els) => els.map((e) => ({
      side: e.dataset.side, acc: e.querySelector('.acc').textContent, counts: e.querySelector('.counts').textContent,
    })));
    assert.match(accuracy[0].counts, /1 missed win/, 'the attackers missed one win');
    assert.match(accuracy[1].counts, /1 missed win/, 'the defenders missed one win');
    for (const a of accuracy) assert.match(a.acc, /^\d{1,3} %$/);
    assert.equal(await page.$$eval('.chart-mark', (els) => els.length), 2, 'two marked moves on the chart');
    // The first move: the better move is the capture of the king, drawn as an arrow.
    await page.click('#moves .ply[data-ply="1"]');
    assert.equal(await page.$eval('#app', (e) => e.dataset.ply), '1');
    assert.equal(await page.$eval('#better-arrow', (e) => e.dataset.move), 'd4d6');
    const said = await page.$eval('#review-move', (e) => e.textContent);
    assert.match(said, /b8-b9\?\?: a missed win\. Better was d4-d6xKd7/, said);
    // The defenders' missed escape: the king along rank 7 to the edge.
    await page.click('#moves .ply[data-ply="2"]');
    const better = await page.$eval('#better-arrow', (e) => e.dataset.move);
    assert.ok(['d7a7', 'd7i7'].includes(better), `the better move is an escape (${better})`);
    assert.match(await page.$eval('#evalbar-text', (e) => e.textContent), /^Attackers win in 1$/, 'the bar says the attackers now win in 1');
    await shot(page, `review-${width}`, width === 375);
    // A click on the chart's left edge goes to the start.
    const box = await page.$eval('#chart svg', (e) => {
      e.scrollIntoView({ block: 'center' });
      return e.getBoundingClientRect().toJSON();
    });
    await page.mouse.click(box.x + 2, box.y + box.height / 2);
    assert.equal(await page.$eval('#app', (e) => e.dataset.ply), '0', 'the chart took the board to the start');
    if (width === 375) await noSidewaysScroll(page);
    assert.deepEqual(problems, []);
    await context.close();
  }
});

test('the review shows its progress and can be stopped', { timeout: 120_000 }, async () => {
  const { page, problems, context } = await openBoard(env);
  await importRecord(page, await randomRecord(page, 80, 9));
  // Stopped as soon as two of its 81 positions are done (the rest take seconds).
  await page.waitForFunction(() => document.getElementById('review-bar').value >= 2, null, { timeout: 60_000 });
  assert.equal(await reviewStatus(page), 'running');
  assert.match(await page.$eval('#review-state', (e) => e.textContent), /^\d+ of 81 positions$/);
  await page.click('#review-stop');
  await page.waitForFunction(() => document.getElementById('review-card').dataset.status === 'stopped', null, { timeout: 10_000 });
  assert.equal(await page.$eval('#review-state', (e) => e.textContent), 'stopped');
  assert.equal(await page.$$eval('#moves .mark', (els) => els.length), 0, 'a stopped review marks nothing');
  assert.equal(await page.$eval('#review-start', (e) => e.disabled), false, 'the review can be started again');
  // Started again, it runs to its end.
  await page.click('#review-start');
  await page.waitForFunction(() => document.getElementById('review-bar').value >= 2, null, { timeout: 60_000 });
  await shot(page, 'review-progress-1280');
  await waitForReview(page);
  assert.equal((await marks(page)).filter((m) => m.verdict).length, 80, 'every move reviewed');
  assert.deepEqual(problems, []);
  await context.close();
});

test('two players at one screen: looking back and returning, the board turned round, questions, resigning', { timeout: 120_000 }, async () => {
  const { page, problems, context } = await openBoard(env);
  await page.click('label:has(input[name="mode"][value="hotseat"])');
  assert.equal(await page.$eval('#resign', (e) => e.disabled), true, 'no resigning before the first move');
  const random = rng(5);
  for (let i = 0; i < 6; i++) {
    assert.equal(await waitForPlayer(page), 'human', 'in two-player mode the board waits for a person on both sides');
    const s = await shown(page);
    assertConsistent(s);
    await clickMove(page, s, choose(s, random));
  }
  const game = await shown(page);
  assert.equal(game.moves.length, 6, 'nobody but the players moved');
  // A move in the list: the board shows the position after it.
  await page.click('#moves .ply[data-ply="2"]');
  let s = await shown(page);
  assert.equal(s.ply, 2);
  assertConsistent(s);
  assert.equal(await page.$eval('#looking-back', (e) => e.hidden), false, 'the page says it is looking back');
  await page.click('.hit[data-square="e5"]');
  assert.equal(await page.$$eval('.hints .hint', (els) => els.length), 0, 'no piece is picked up in the past');
  await shot(page, 'looking-back-1280');
  // The arrow keys step through the game, Home and End go to its ends.
  await page.focus('#nav-prev');
  await page.keyboard.press('ArrowLeft');
  assert.equal((await shown(page)).ply, 1);
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  s = await shown(page);
  assert.equal(s.ply, 3);
  assertConsistent(s);
  await page.keyboard.press('Home');
  assert.equal((await shown(page)).ply, 0);
  await page.keyboard.press('End');
  assert.equal((await shown(page)).ply, 6);
  await page.click('#nav-first');
  await page.click('#nav-next');
  assert.equal((await shown(page)).ply, 1);
  await page.click('#return');
  s = await shown(page);
  assert.equal(s.ply, 6, 'back to the game');
  assertConsistent(s);
  assert.equal(await page.$eval('#looking-back', (e) => e.hidden), true);
  // The board turned round: i9 at the bottom left, a1 at the top right; moves still work.
  await page.click('#flip');
  const a1 = await squareCentre(page, 'a1');
  const i9 = await squareCentre(page, 'i9');
  assert.ok(a1.x > i9.x && a1.y < i9.y, 'a1 is at the top right once the board is turned');
  const coords = await page.$$eval('.coords text', (els) => els.map((e) => e.textContent));
  assert.equal(coords[0], 'i', 'the files run from i on the left');
  s = await shown(page);
  await clickMove(page, s, choose(s, random));
  assertConsistent(await shown(page));
  await shot(page, 'flipped-1280');
  // Questions before the game is discarded: a new game, then a change of rules, both refused.
  await page.click('#new');
  await shot(page, 'confirm-1280');
  await answer(page, false);
  assert.equal((await shown(page)).moves.length, 7, 'the game is kept');
  await page.selectOption('#rules', 'english');
  await answer(page, false);
  assert.equal(await page.$eval('#rules', (e) => e.value), 'original', 'the rules stay');
  assert.equal((await shown(page)).moves.length, 7, 'the game is kept');
  // Resigning: the side to move (the defenders, after seven moves) gives up.
  await page.click('#resign');
  await answer(page, true);
  await page.waitForSelector('#result:not([hidden])');
  assert.equal(await page.$eval('#result', (e) => e.dataset.reason), 'resign');
  assert.equal(await page.$eval('#result-headline', (e) => e.textContent), 'Attackers win');
  assert.equal(await page.$eval('#result-reason', (e) => e.textContent), 'the defenders resigned');
  assert.equal(await page.$eval('#result', (e) => e.dataset.outcome), 'neutral', 'two players: nobody\'s own result');
  await shot(page, 'resigned-1280');
  // A game that is over is discarded without a question.
  await page.selectOption('#rules', 'english');
  await page.waitForFunction(() => document.querySelectorAll('#moves [data-move]').length === 0);
  assert.equal(await page.$eval('#confirm', (e) => e.open), false);
  assert.deepEqual(problems, []);
  await context.close();
});

/** Drags a piece with one finger (touch events through Chrome's DevTools protocol). */
async function touchDrag(page, context, from, to) {
  const cdp = await context.newCDPSession(page);
  const a = await squareCentre(page, from);
  const b = await squareCentre(page, to);
  const point = (t) => ({ x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t });
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [point(0)] });
  for (const t of [0.1, 0.3, 0.5, 0.7, 0.9, 1]) {
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [point(t)] });
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await cdp.detach();
}

test('on a 375 px touch screen a finger drags a piece; a drop on a square it cannot reach puts it back', { timeout: 60_000 }, async () => {
  const { page, problems, context } = await openBoard(env, { query: '?seed=3', options: PHONE });
  await page.selectOption('#level', '2');
  await page.evaluate(() => window.scrollTo(0, 0));
  await touchDrag(page, context, 'd1', 'e3');
  assert.equal((await shown(page)).moves.length, 0, 'd1-e3 is no move: nothing was played');
  assert.equal(await page.$$eval('.pieces .piece[data-square="d1"]', (els) => els.length), 1, 'the piece is back on d1');
  await touchDrag(page, context, 'd1', 'd3');
  await waitForPlayer(page);
  const s = await shown(page);
  assertConsistent(s);
  assert.equal(s.moves[0], 'd1d3', 'the finger played d1-d3');
  assert.equal(s.moves.length, 2, 'the engine replied');
  const top = await page.evaluate(() => window.scrollY);
  assert.equal(top, 0, 'the drag did not scroll the page');
  await noSidewaysScroll(page);
  await shot(page, 'touch-drag-375', true);
  assert.deepEqual(problems, []);
  await context.close();
});

test('a reload restores the game, its clock, the level, the side and the turned board', { timeout: 90_000 }, async () => {
  const { page, problems, context } = await openBoard(env, { query: '?seed=8' });
  await page.selectOption('#level', '2');
  await page.selectOption('#clock', '3+2');
  const random = rng(8);
  for (let i = 0; i < 2; i++) {
    await waitForPlayer(page);
    const s = await shown(page);
    await clickMove(page, s, choose(s, random));
  }
  await waitForPlayer(page);
  await page.click('#flip');
  const before = await shown(page);
  assert.equal(before.moves.length, 4);
  const clocks = await page.$$eval('.clock .clock-time', (els) => els.map((e) => e.textContent));
  await page.reload();
  await ready(page);
  await waitForPlayer(page);
  const afterReload = await shown(page);
  assertConsistent(afterReload);
  assert.deepEqual(afterReload.moves, before.moves, 'the moves are back');
  assert.equal(await page.$eval('#level', (e) => e.value), '2', 'the level is back');
  assert.equal(await page.$eval('#clock', (e) => e.value), '3+2', 'the clock setting is back');
  assert.equal(await page.$eval('#board', (e) => e.dataset.flipped), 'true', 'the board is still turned');
  const clocksAfter = await page.$$eval('.clock .clock-time', (els) => els.map((e) => e.textContent));
  const seconds = (t) => t.split(':').reduce((a, b) => a * 60 + Number(b), 0);
  for (const [i, t] of clocksAfter.entries()) {
    assert.ok(Math.abs(seconds(t) - seconds(clocks[i])) <= 3, `clock ${i} kept its time (${clocks[i]} -> ${t})`);
  }
  assert.deepEqual(problems, []);
  await context.close();
});

/** Sets a custom clock of `minutes` + `increment` s. */
async function customClock(page, minutes, increment) {
  await page.selectOption('#clock', 'custom');
  await page.fill('#clock-minutes', String(minutes));
  await page.fill('#clock-increment', String(increment));
  await page.$eval('#clock-increment', (e) => e.dispatchEvent(new Event('change')));
}

test('clocks: the engine plays from its clock, and a player whose time runs out loses on time', { timeout: 120_000 }, async () => {
  for (const [options, width] of [[undefined, 1280], [PHONE, 375]]) {
    const { page, problems, context } = await openBoard(env, { query: '?seed=6', options: options ?? undefined });
    // Full strength with 6 s for the game: it must share its time out, not think 1 s a move.
    await page.selectOption('#level', '20');
    await customClock(page, 0.1, 0);
    assert.equal(await page.$eval('#clock-top', (e) => e.hidden), false, 'the clocks show');
    const random = rng(6);
    for (let i = 0; i < 3; i++) {
      await waitForPlayer(page);
      const s = await shown(page);
      await clickMove(page, s, choose(s, random));
    }
    await waitForPlayer(page);
    const engineLeft = await page.$eval('.clock[data-side="defenders"] .clock-time', (e) => Number(e.textContent));
    assert.ok(engineLeft > 0 && engineLeft < 6, `the engine's clock ran (${engineLeft} s left)`);
    assert.ok(engineLeft > 3.5, `the engine took its time from its clock, not 1 s a move (${engineLeft} s left after three moves)`);
    await shot(page, `clocks-${width}`, width === 375);
    // The player now waits: the attackers' clock runs out.
    await page.waitForSelector('#result:not([hidden])', { timeout: 15_000 });
    assert.equal(await page.$eval('#result', (e) => e.dataset.reason), 'time');
    assert.equal(await page.$eval('#result-headline', (e) => e.textContent), 'You lost');
    assert.equal(await page.$eval('#result-reason', (e) => e.textContent), 'you ran out of time');
    assert.equal(await page.$eval('#result', (e) => e.dataset.outcome), 'lost', 'coloured as a loss');
    const flagged = await page.$eval('.clock[data-side="attackers"]', (e) => ({ flagged: e.classList.contains('flagged'), time: e.querySelector('.clock-time').textContent }));
    assert.deepEqual(flagged, { flagged: true, time: '0.0' }, 'the attackers\' clock shows the loss');
    await shot(page, `time-loss-${width}`, width === 375);
    if (width === 375) await noSidewaysScroll(page);
    assert.deepEqual(problems, []);
    await context.close();
  }
});

test('without cross-origin isolation (the restart stop mode) the board plays, analyses, hints and reviews', { timeout: 120_000 }, async () => {
  const plain = await plainProxy(env.server);
  const base = `http://127.0.0.1:${plain.address().port}/`;
  try {
    const { page, problems, context } = await openBoard(env, { base, query: '?seed=11' });
    assert.equal(await page.evaluate(() => crossOriginIsolated), false);
    assert.match(await page.$eval('#engine-info', (e) => e.textContent), /stop: restart/);
    await page.selectOption('#level', '3');
    let s = await shown(page);
    await clickMove(page, s, choose(s, rng(1)));
    await waitForPlayer(page);
    assert.equal((await shown(page)).moves.length, 2, 'the engine replied');
    // Analysis runs without end; leaving it must stop it (a worker restart here).
    await page.click('label:has(input[name="mode"][value="analysis"])');
    await page.waitForFunction(() => Number(document.querySelector('.pv-line')?.dataset.depth) >= 4, null, { timeout: 30_000 });
    await page.click('label:has(input[name="mode"][value="play"])');
    await page.click('#hint');
    await page.waitForSelector('#hint-text:not([hidden])[data-move]', { timeout: 30_000 });
    s = await shown(page);
    const hint = await page.$eval('#hint-text', (e) => e.dataset.move);
    assert.ok(s.candidates.some((c) => c.move === hint), 'the hint is legal');
    await page.click('#review-start');
    await waitForReview(page);
    assert.equal((await marks(page)).filter((m) => m.verdict).length, 2, 'both moves reviewed');
    assert.deepEqual(problems, []);
    await context.close();
  } finally {
    plain.close();
  }
});

test('screenshots of the new states at 375 px: levels, hint, looking back, two players, the question, analysis, resigning, the review running', { timeout: 120_000 }, async () => {
  const { page, problems, context } = await openBoard(env, { query: '?seed=4', options: PHONE });
  await page.selectOption('#level', '3');
  await shot(page, 'levels-375', true);
  await page.click('#hint');
  await page.waitForSelector('#hint-text:not([hidden])[data-move]', { timeout: 30_000 });
  await shot(page, 'hint-375');
  await noSidewaysScroll(page);
  await page.click('label:has(input[name="mode"][value="hotseat"])');
  const random = rng(4);
  for (let i = 0; i < 4; i++) {
    const s = await shown(page);
    await clickMove(page, s, choose(s, random));
  }
  await page.click('#flip');
  await page.click('#moves .ply[data-ply="2"]');
  await shot(page, 'looking-back-375', true);
  await noSidewaysScroll(page);
  await page.click('#return');
  await page.click('#new');
  await shot(page, 'confirm-375');
  await answer(page, false);
  await page.click('#resign');
  await answer(page, true);
  await page.waitForSelector('#result:not([hidden])');
  await shot(page, 'resigned-375');
  await noSidewaysScroll(page);
  await page.click('label:has(input[name="mode"][value="analysis"])');
  await page.waitForFunction(() => document.querySelectorAll('.pv-line').length === 3, null, { timeout: 30_000 });
  await shot(page, 'analysis-375', true);
  await noSidewaysScroll(page);
  await page.click('label:has(input[name="mode"][value="play"])');
  // The resigned game is over: importing asks nothing.
  await importRecord(page, await randomRecord(page, 80, 12));
  await page.waitForFunction(() => document.getElementById('review-bar').value >= 2, null, { timeout: 60_000 });
  await shot(page, 'review-progress-375', true);
  await noSidewaysScroll(page);
  await waitForReview(page);
  assert.deepEqual(problems, []);
  await context.close();
});
