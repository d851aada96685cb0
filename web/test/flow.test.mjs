// The board's game flow (issue 43), in Chromium through playwright-core: the arrow keys after
// a move made with the mouse, a move from an earlier position in analysis kept as a variation
// beside the game and its review, one behaviour for "You play" and "Swap sides", a question
// before a finished game's last move is taken back, and the result said as the player's
// ("You won", "You lost") with how. Screenshots at 1280 and 375 px go to
// web/dist/screenshots/. Needs `bash web/build.sh` first.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { rng } from './common.mjs';
import {
  start, stop, openBoard, ready, waitForPlayer, shown, assertConsistent, clickMove, choose, shot,
  answer, noSidewaysScroll, randomRecord, importRecord, PHONE, shots,
} from './board-common.mjs';

let env;
before(async () => {
  env = await start();
});
after(async () => {
  await stop(env);
});

const ply = (page) => page.$eval('#app', (e) => Number(e.dataset.ply));
const cursorShown = (page) => page.$eval('.cursor', (e) => getComputedStyle(e).display === 'block');

test('after a move made with the mouse the arrow keys step through the moves; the board\'s cursor is reached with Tab', { timeout: 60_000 }, async () => {
  const { page, problems, context } = await openBoard(env, { query: '?seed=2' });
  await page.selectOption('#level', '1');
  let s = await shown(page);
  await clickMove(page, s, choose(s, rng(2)));
  await waitForPlayer(page);
  s = await shown(page);
  assert.equal(s.moves.length, 2, 'the engine replied');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'board', 'the click left the focus on the board');
  assert.equal(await cursorShown(page), false, 'no keyboard cursor after a click');
  await page.keyboard.press('ArrowLeft');
  assert.equal(await ply(page), 1, 'the left arrow stepped back one move');
  await page.keyboard.press('ArrowLeft');
  assert.equal(await ply(page), 0);
  await page.keyboard.press('ArrowRight');
  assert.equal(await ply(page), 1, 'the right arrow stepped on');
  await page.keyboard.press('End');
  assert.equal(await ply(page), 2, 'End went back to the game');
  await page.keyboard.press('Home');
  assert.equal(await ply(page), 0, 'Home went to the start');
  await page.keyboard.press('End');
  // Reached with Tab (from the page's top, the board is the first stop) the board takes the
  // arrows for its cursor.
  await page.click('h1');
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'board', 'Tab reaches the board');
  assert.equal(await cursorShown(page), true, 'the cursor shows');
  const cursor = await page.$eval('#board', (e) => e.dataset.cursor);
  await page.keyboard.press('ArrowLeft');
  const moved = await page.$eval('#board', (e) => e.dataset.cursor);
  assert.notEqual(moved, cursor, 'the left arrow moved the cursor');
  assert.equal(await ply(page), 2, 'and did not step through the moves');
  // A click on the board leaves cursor mode again: the arrows step through the moves.
  await page.click('.hit[data-square="e5"]');
  await page.keyboard.press('ArrowLeft');
  assert.equal(await ply(page), 1, 'after a click the left arrow steps back again');
  await shot(page, 'arrows-after-click-1280');
  assert.deepEqual(problems, []);
  await context.close();
});

/** The game's moves (the main line) and the variations as the move list shows them. */
async function moveList(page) {
  return page.evaluate(() => ({
    main: [...document.querySelectorAll('#moves .ply')].map((e) => ({
      move: e.dataset.move, verdict: e.dataset.verdict ?? null,
    })),
    variations: [...document.querySelectorAll('#moves li.variation')].map((li) => ({
      text: li.textContent,
      cells: [...li.querySelectorAll('.vply')].map((e) => ({
        move: e.dataset.move, ply: Number(e.dataset.ply), current: e.classList.contains('current'),
      })),
    })),
    line: document.getElementById('app').dataset.line,
  }));
}

/** `shown` with the legal moves of the position looked at as its candidates (shown's are
 * those of the line's end), for clickMove there. */
async function here(page) {
  const s = await shown(page);
  const legal = await page.evaluate(({ start, moves }) => {
    const rules = document.getElementById('rules').value;
    const game = new window.__K.Game({ rules, position: start });
    for (const m of moves) game.play(m);
    const out = game.legalMoves();
    game.free();
    return out;
  }, { start: await page.$eval('#moves', (e) => e.dataset.start), moves: s.moves.slice(0, s.ply) });
  return { ...s, candidates: legal.map((move) => ({ move, captures: 0, wins: false })) };
}

/** Plays `move` with two clicks at the position looked at (`s` from here()); waits until the
 * board has moved on to the position after it. */
async function playHere(page, s, move) {
  await page.click(`.hit[data-square="${move.slice(0, 2)}"]`);
  const hints = await page.$$eval('.hints .hint', (els) => els.map((e) => e.dataset.square).sort());
  const legal = s.candidates.map((c) => c.move).filter((m) => m.startsWith(move.slice(0, 2))).map((m) => m.slice(2)).sort();
  assert.deepEqual(hints, legal, `the squares highlighted for ${move.slice(0, 2)} are its legal destinations`);
  await page.click(`.hit[data-square="${move.slice(2)}"]`);
  await page.waitForFunction((n) => Number(document.getElementById('app').dataset.ply) === n, s.ply + 1);
}

test('in analysis a move from an earlier position is a variation: the game\'s 24 moves and their review stay', { timeout: 180_000 }, async () => {
  for (const [options, width] of [[undefined, 1280], [PHONE, 375]]) {
    const { page, problems, context } = await openBoard(env, options ? { options } : {});
    await importRecord(page, await randomRecord(page, 24, 43));
    await page.waitForFunction(() => document.getElementById('review-card').dataset.status === 'done', null, { timeout: 90_000 });
    const game = await moveList(page);
    assert.equal(game.main.length, 24, 'a game of 24 plies');
    assert.ok(game.main.every((m) => m.verdict), 'every move reviewed');
    await page.click('label:has(input[name="mode"][value="analysis"])');
    for (let i = 0; i < 4; i++) await page.click('#nav-prev');
    assert.equal(await ply(page), 20);
    // A move other than the game's 21st.
    let s = await here(page);
    const other = s.candidates.map((c) => c.move).find((m) => m !== game.main[20].move);
    await playHere(page, s, other);
    let list = await moveList(page);
    assert.deepEqual(list.main, game.main, 'the game keeps its 24 moves and their verdicts');
    assert.equal(await page.$eval('#review-card', (e) => e.dataset.status), 'done', 'the review stays');
    assert.equal(list.variations.length, 1, 'one variation');
    assert.deepEqual(list.variations[0].cells, [{ move: other, ply: 21, current: true }], 'the new move, looked at');
    assert.match(list.variations[0].text, /^\(11\. \S+\)$/, `in parentheses with its number: ${list.variations[0].text}`);
    assert.equal(list.line, '0', 'the board looks at the variation');
    s = await shown(page);
    assert.deepEqual(s.illegal, []);
    assert.deepEqual(s.moves, [...game.main.slice(0, 20).map((m) => m.move), other], 'the variation\'s line is the game\'s 20 moves and the new one');
    assert.deepEqual(s.drawn, s.atPly, 'the board shows the variation\'s position');
    assert.equal(await page.$eval('#looking-back', (e) => e.textContent.includes('in a variation')), true);
    // The variation goes on; the analysis follows it.
    s = await here(page);
    const reply = choose(s, rng(43));
    await playHere(page, s, reply);
    list = await moveList(page);
    assert.deepEqual(list.variations[0].cells.map((c) => c.move), [other, reply], 'the variation grew');
    assert.equal(list.main.length, 24);
    await page.waitForFunction(() => document.querySelectorAll('.pv-line').length > 0, null, { timeout: 30_000 });
    await shot(page, `variation-${width}`, width === 375);
    if (width === 375) await noSidewaysScroll(page);
    // Back along the variation onto the game: the left arrow leaves it at its first move.
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    assert.equal(await ply(page), 20);
    assert.equal((await moveList(page)).line, 'main', 'back on the game\'s line');
    // The game's own move from there follows the game: no new variation.
    await playHere(page, await here(page), game.main[20].move);
    list = await moveList(page);
    assert.equal(list.line, 'main');
    assert.equal(list.variations.length, 1, 'the game\'s move made no variation');
    // A click in the variation goes there; "Back to the game" returns to its present.
    await page.click('#moves .vply[data-ply="22"]');
    assert.equal((await moveList(page)).line, '0');
    assert.equal(await ply(page), 22);
    await page.click('#return');
    assert.equal(await ply(page), 24);
    assert.equal((await moveList(page)).line, 'main');
    assertConsistent(await shown(page));
    // A reload keeps the variation.
    await page.reload();
    await ready(page);
    list = await moveList(page);
    assert.deepEqual(list.main, game.main, 'the game and its review after a reload');
    assert.deepEqual(list.variations[0].cells.map((c) => c.move), [other, reply], 'the variation after a reload');
    // Out of analysis (no lines moving the page about) the variation is still there to look at.
    await page.click('label:has(input[name="mode"][value="hotseat"])');
    await page.click('#moves .vply[data-ply="22"]');
    s = await shown(page);
    assert.equal(s.ply, 22);
    assert.deepEqual(s.drawn, s.atPly, 'the board shows the variation\'s position');
    await page.locator('.moves-card').screenshot({ path: `${shots}variation-moves-${width}.png` });
    // Back in analysis, Take back in the variation takes back its last move, not the game's.
    await page.click('label:has(input[name="mode"][value="analysis"])');
    await page.click('#moves .vply[data-ply="22"]');
    await page.click('#takeback');
    list = await moveList(page);
    assert.deepEqual(list.variations[0].cells, [{ move: other, ply: 21, current: true }], 'the variation\'s last move went');
    assert.deepEqual(list.main, game.main, 'the game keeps its moves');
    assert.deepEqual(problems, []);
    await context.close();
  }
});

test('"You play" changed mid-game asks, as "Swap sides" does; "yes" starts a new game with the other side', { timeout: 60_000 }, async () => {
  const { page, problems, context } = await openBoard(env, { query: '?seed=2' });
  await page.selectOption('#level', '1');
  let s = await shown(page);
  await clickMove(page, s, choose(s, rng(5)));
  await waitForPlayer(page);
  const game = await shown(page);
  assert.equal(game.moves.length, 2);
  // "No": the side, the game and the turn stay (the engine does not move for the player).
  await page.selectOption('#side', 'defenders');
  await answer(page, false);
  assert.equal(await page.$eval('#side', (e) => e.value), 'attackers', 'the select went back');
  assert.equal(await page.$eval('#app', (e) => e.dataset.state), 'human', 'still the player\'s turn');
  assert.deepEqual((await shown(page)).moves, game.moves, 'the game is kept');
  await page.click('#swap');
  await answer(page, false);
  assert.equal(await page.$eval('#side', (e) => e.value), 'attackers');
  assert.deepEqual((await shown(page)).moves, game.moves);
  // "Yes": a new game with the player as the defenders; the engine opens.
  await page.selectOption('#side', 'defenders');
  await answer(page, true);
  await waitForPlayer(page);
  s = await shown(page);
  assertConsistent(s);
  assert.equal(s.moves.length, 1, 'a new game: the engine (attackers) opened');
  assert.equal(s.side, 'defenders');
  assert.deepEqual(problems, []);
  await context.close();
});

/** Loads a position through the Import / export card (answering a question if one comes). */
async function loadPosition(page, position, { asks }) {
  if (!(await page.$eval('#io', (e) => e.open))) await page.click('#io summary');
  await page.fill('#position', position);
  await page.click('#load-pos');
  if (asks) await answer(page, true);
}

/** The king on e5 with one open line, down to e1; the defenders to move. */
const KING_ESCAPES = '4b4/9/9/9/b3K3b/9/9/9/9 w 40';

/** The result box as shown. */
function result(page) {
  return page.$eval('#result', (e) => ({
    outcome: e.dataset.outcome, border: getComputedStyle(e).borderColor,
    headline: document.getElementById('result-headline').textContent,
    how: document.getElementById('result-reason').textContent,
  }));
}

/** Against full strength as the defenders, from KING_ESCAPES: the player's king escapes.
 * Returns the winning move. */
async function winAsDefenders(page) {
  await page.selectOption('#level', '20');
  // The player as the defenders (before the first move: no question); the engine opens.
  await page.selectOption('#side', 'defenders');
  await waitForPlayer(page);
  await loadPosition(page, KING_ESCAPES, { asks: true });
  await waitForPlayer(page);
  const s = await shown(page);
  const win = s.candidates.find((c) => c.wins).move;
  await clickMove(page, s, win);
  await page.waitForSelector('#result:not([hidden])');
  return win;
}

test('the result is the player\'s, "You won" in green or "You lost" in red, with how the game ended', { timeout: 120_000 }, async () => {
  for (const [options, width] of [[undefined, 1280], [PHONE, 375]]) {
    const { page, problems, context } = await openBoard(env, { query: '?seed=7', options: options ?? undefined });
    await winAsDefenders(page);
    assert.deepEqual(await result(page), {
      outcome: 'won', border: 'rgb(127, 163, 90)', headline: 'You won', how: 'the king escaped to the edge',
    }, 'a win, in green');
    await shot(page, `you-won-${width}`, width === 375);
    // The player as the attackers (the game is over: no question): the engine escapes.
    await page.selectOption('#side', 'attackers');
    await waitForPlayer(page);
    await loadPosition(page, KING_ESCAPES, { asks: false });
    await page.waitForSelector('#result:not([hidden])', { timeout: 30_000 });
    assert.deepEqual(await result(page), {
      outcome: 'lost', border: 'rgb(208, 96, 76)', headline: 'You lost', how: 'the king escaped to the edge',
    }, 'a loss, in red');
    await shot(page, `you-lost-${width}`, width === 375);
    if (width === 375) await noSidewaysScroll(page);
    assert.deepEqual(problems, []);
    await context.close();
  }
});

test('Take back after the game has ended asks first: "no" keeps the winning move, the result and the review', { timeout: 120_000 }, async () => {
  const { page, problems, context } = await openBoard(env, { query: '?seed=7' });
  const win = await winAsDefenders(page);
  await page.waitForFunction(() => document.getElementById('review-card').dataset.status === 'done', null, { timeout: 60_000 });
  await page.click('#takeback');
  assert.equal(await page.$eval('#confirm', (e) => e.open), true, 'a question comes first');
  assert.match(await page.$eval('#confirm-text', (e) => e.textContent), /the result \(.+: the king escaped to the edge\) and the review/);
  await shot(page, 'takeback-question-1280');
  await answer(page, false);
  assert.deepEqual((await shown(page)).moves, [win], 'the winning move stays');
  assert.equal(await page.$eval('#result', (e) => e.hidden), false, 'the result stays');
  assert.equal(await page.$eval('#review-card', (e) => e.dataset.status), 'done', 'the review stays');
  await page.click('#takeback');
  await answer(page, true);
  assert.deepEqual((await shown(page)).moves, [], 'taken back after "yes"');
  assert.equal(await page.$eval('#result', (e) => e.hidden), true, 'the result went');
  assert.equal(await page.$eval('#app', (e) => e.dataset.state), 'human', 'the player\'s turn again');
  assert.deepEqual(problems, []);
  await context.close();
});
