// The board as a newcomer and a chess-site player meet it (issue 43), in Chromium through
// playwright-core: the layout at 1280×800 and on a 375×740 phone (the move list and the
// set-up on the first screen, no button's text wrapping, targets for a finger), three lines
// on the rules that follow the rules chosen, the words a newcomer cannot know explained, the
// sounds of moves and captures with their mute switch, premoves, the board turned to the
// player's side, the default level of a first visit and the named level buttons. Needs
// `bash web/build.sh` first; screenshots go to web/dist/screenshots/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { rng } from './common.mjs';
import {
  start, stop, openBoard, ready, waitForPlayer, shown, assertConsistent, clickMove, choose, shot,
  noSidewaysScroll, PHONE,
} from './board-common.mjs';
import { SOUNDS } from '../board/sound.js';
import { LEVEL_BUTTONS } from '../board/levels.js';

const LAPTOP = { viewport: { width: 1280, height: 800 } };
const PHONE_740 = { ...PHONE, viewport: { width: 375, height: 740 } };

let env;
before(async () => {
  env = await start();
});
after(async () => {
  await stop(env);
});

/** Plays `n` of the player's moves against the engine (chosen with `random`). */
async function playMoves(page, n, random) {
  for (let i = 0; i < n; i++) {
    await waitForPlayer(page);
    const s = await shown(page);
    await clickMove(page, s, choose(s, random));
  }
  await waitForPlayer(page);
}

/** The page's box of an element (CSS pixels, from the top of the screen as scrolled). */
const box = (page, selector) => page.$eval(selector, (e) => e.getBoundingClientRect().toJSON());

test('at 1280x800 the move list is on the first screen after some moves, and no button wraps its words', { timeout: 90_000 }, async () => {
  const { page, problems, context } = await openBoard(env, { query: '?seed=31', options: LAPTOP });
  await playMoves(page, 3, rng(31));
  await page.evaluate(() => window.scrollTo(0, 0));
  const list = await box(page, '#moves');
  const firstRow = await box(page, '#moves li');
  assert.ok(list.top >= 0 && firstRow.bottom <= 800, `the move list's first row is on the screen (${firstRow.top}-${firstRow.bottom} of 800)`);
  const rows = await page.$$eval('#moves li', (els) => els.filter((e) => e.getBoundingClientRect().bottom <= innerHeight).length);
  assert.ok(rows >= 3, `the moves played show without scrolling (${rows} rows)`);
  // Every button on the page: its words on one line (a text line's height, not two).
  const wrapped = await page.$$eval('button, .button', (els) => els.filter((e) => e.checkVisibility()).map((e) => {
    const tops = new Set();
    const walk = document.createTreeWalker(e, NodeFilter.SHOW_TEXT);
    for (let node = walk.nextNode(); node; node = walk.nextNode()) {
      if (!node.textContent.trim()) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      for (const r of range.getClientRects()) if (r.width > 0) tops.add(Math.round(r.top));
    }
    return { id: e.id || e.textContent.trim(), lines: tops.size };
  }).filter((b) => b.lines > 1));
  assert.deepEqual(wrapped, [], 'no button\'s words wrap onto a second line');
  await shot(page, 'layout-1280x800');
  // Reviewed, the longest button's words (Review again) still fit in its card.
  await page.click('#review-start');
  await page.waitForFunction(() => document.getElementById('review-card').dataset.status === 'done', null, { timeout: 60_000 });
  assert.equal(await page.$eval('#review-start', (e) => e.textContent), 'Review again');
  const outside = await page.$$eval('button, .button', (els) => els.filter((e) => e.checkVisibility() && e.closest('.card')).filter((e) => {
    // The card's content box: its padding is the margin every control keeps.
    const card = e.closest('.card');
    const box = card.getBoundingClientRect();
    const style = getComputedStyle(card);
    const left = box.left + parseFloat(style.borderLeftWidth) + parseFloat(style.paddingLeft);
    const right = box.right - parseFloat(style.borderRightWidth) - parseFloat(style.paddingRight);
    const b = e.getBoundingClientRect();
    return b.left < left - 0.5 || b.right > right + 0.5;
  }).map((e) => e.id || e.textContent));
  assert.deepEqual(outside, [], 'every button inside its card\'s padding');
  assert.deepEqual(problems, []);
  await context.close();
});

test('at 375x740 the side and the level are on the first screen with the board', { timeout: 60_000 }, async () => {
  const { page, problems, context } = await openBoard(env, { options: PHONE_740 });
  await page.evaluate(() => window.scrollTo(0, 0));
  for (const selector of ['#board', '#side', '#level', '#level-buttons']) {
    const b = await box(page, selector);
    assert.ok(b.top >= 0 && b.bottom <= 740, `${selector} is on the first screen (${Math.round(b.top)}-${Math.round(b.bottom)} of 740)`);
    assert.ok(b.left >= 0 && b.right <= 375, `${selector} is inside the screen's width`);
  }
  for (const { level } of LEVEL_BUTTONS) {
    const b = await box(page, `.level-button[data-level="${level}"]`);
    assert.ok(b.bottom <= 740 && b.right <= 375, `the button of level ${level} is on the first screen`);
  }
  await noSidewaysScroll(page);
  await shot(page, 'layout-375x740');
  await shot(page, 'layout-375x740-full', true);
  assert.deepEqual(problems, []);
  await context.close();
});

test('at 375 px every control is at least 40 px high and wide: move rows, selects, fields, headings that open', { timeout: 90_000 }, async () => {
  const { page, problems, context } = await openBoard(env, { query: '?seed=32', options: PHONE_740 });
  await playMoves(page, 2, rng(32));
  // Everything that can be shown: both folded sections, the custom clock's fields, a record.
  await page.click('#limits summary');
  await page.click('#io summary');
  await page.selectOption('#clock', 'custom');
  await page.click('#export-otg');
  const small = await page.$$eval(
    'button, select, input, textarea, summary, a[href], label.button, [tabindex="0"], .segmented label',
    (els) => els.filter((e) => e.checkVisibility() && !e.closest('.sr-only, dialog:not([open])'))
      .map((e) => ({ what: e.id || e.outerHTML.slice(0, 60), ...e.getBoundingClientRect().toJSON() }))
      .filter((b) => b.height < 40 || b.width < 40)
      .map((b) => `${b.what}: ${Math.round(b.width)} x ${Math.round(b.height)}`),
  );
  assert.deepEqual(small, [], 'no control smaller than 40 px');
  assert.ok(await page.$$eval('#moves .ply', (els) => els.length) >= 4, 'the move list\'s rows were measured');
  await noSidewaysScroll(page);
  assert.deepEqual(problems, []);
  await context.close();
});

/** The three lines on the rules as shown. */
const howto = (page) => page.$$eval('#howto li', (els) => els.map((e) => e.textContent));

test('three lines on how to win and how pieces are taken follow the rules chosen', { timeout: 60_000 }, async () => {
  const { page, problems, context } = await openBoard(env);
  // Two players: nobody moves by himself, so no question comes when the rules change.
  await page.click('label:has(input[name="mode"][value="hotseat"])');
  const texts = {};
  for (const id of ['original', 'english', 'taflhub', 'encyclopedia', 'ashton']) {
    await page.selectOption('#rules', id);
    const lines = await howto(page);
    assert.equal(lines.length, 3, `three lines for ${id}`);
    for (const line of lines) assert.ok(line.length > 20, `a whole sentence for ${id}: ${line}`);
    texts[id] = lines.join(' ');
  }
  assert.equal(new Set(Object.values(texts)).size, 5, 'each ruleset has its own text');
  assert.match(texts.original, /two attackers in line/, 'Linnaeus: the king is taken by two');
  assert.match(texts.original, /attackers move first/);
  assert.match(texts.english, /all four sides/, 'English: the king is taken by four');
  assert.match(texts.taflhub, /empty throne counts as an enemy/, 'the hub: a hostile throne');
  assert.match(texts.encyclopedia, /defenders move first/, 'the encyclopedia: defenders first');
  assert.match(texts.encyclopedia, /king does not capture/, 'the encyclopedia: an unarmed king');
  assert.match(texts.ashton, /camps/, 'Ashton: camps');
  assert.match(texts.ashton, /defenders move first/i, 'Ashton: defenders first');
  assert.match(texts.ashton, /comes back is a draw/, 'Ashton: a repetition draws at once');
  for (const text of Object.values(texts)) assert.match(text, /edge/, 'how the king escapes');
  assert.deepEqual(problems, []);
  await context.close();
});

test('the words a newcomer cannot know are explained: raichi on the board, the programs a level plays like', { timeout: 60_000 }, async () => {
  const { page, problems, context } = await openBoard(env);
  await page.click('label:has(input[name="mode"][value="analysis"])');
  await page.click('#io summary');
  await page.fill('#position', '4b4/9/9/9/b3K3b/9/9/9/9 w 40');
  await page.click('#load-pos');
  await page.waitForSelector('#king-lines:not([hidden])');
  const king = await page.$eval('#king-lines', (e) => ({ text: e.textContent, title: e.title, hidden: e.hidden }));
  assert.equal(king.hidden, false);
  assert.match(king.text, /^Raichi! The king can reach the edge next move$/, 'the warning says what it means');
  assert.match(king.title, /one \(raichi\) or two or more \(tuichu\) clear lines to the edge/, 'and the word is explained');
  const names = await page.$$eval('#level option', (els) => els.map((e) => e.textContent));
  for (const name of names) assert.doesNotMatch(name, /osarracino|OpenTafl/, `level names are plain words: ${name}`);
  await page.click('label:has(input[name="mode"][value="play"])');
  await page.selectOption('#level', '10');
  assert.match(await page.$eval('#level-note', (e) => e.textContent), /osarracino, a program of the Tablut Challenge \(a university contest/, 'the program is said to be a program, and of what');
  assert.deepEqual(problems, []);
  await context.close();
});

/** Replaces the page's AudioContext with one that writes down each tone's first pitch in
 * window.__tones (before the page's scripts run). */
async function stubAudio(context) {
  await context.addInitScript(() => {
    window.__tones = [];
    const param = (record) => ({
      setValueAtTime: (v) => record?.(v), exponentialRampToValueAtTime: () => {}, linearRampToValueAtTime: () => {},
    });
    class FakeContext {
      state = 'running';
      currentTime = 0;
      destination = {};
      resume() { return Promise.resolve(); }
      createGain() { return { gain: param(), connect() {} }; }
      createOscillator() {
        const osc = { type: '', connect() {}, start() { window.__tones.push(osc.pitch); }, stop() {} };
        osc.frequency = param((v) => { osc.pitch ??= v; });
        return osc;
      }
    }
    window.AudioContext = FakeContext;
  });
}

const tones = (page) => page.evaluate(() => window.__tones.splice(0));
const pitches = (kind) => SOUNDS[kind].map((t) => t.from);

test('a move and a capture each make their sound; muted they make none, and the switch is kept', { timeout: 60_000 }, async () => {
  const context = await env.browser.newContext();
  await stubAudio(context);
  const { page, problems } = await openBoard(env, { context });
  await page.click('label:has(input[name="mode"][value="hotseat"])');
  await page.click('#io summary');
  // The defenders to move; d3 and a soldier of theirs on e3; f1 can close it in from f3.
  await page.fill('#position', '9/9/9/9/4K4/9/3bw4/9/5b3 w 0');
  await page.click('#load-pos');
  await tones(page);
  let s = await shown(page);
  await clickMove(page, s, 'e5e4');
  assert.deepEqual(await tones(page), pitches('move'), 'a quiet move knocks once');
  s = await shown(page);
  await clickMove(page, s, 'f1f3');
  assert.deepEqual((await shown(page)).pieces.e3, undefined, 'f1-f3 took e3');
  assert.deepEqual(await tones(page), pitches('capture'), 'a capture makes its own sound');
  assert.equal(await page.$eval('#sound', (e) => e.getAttribute('aria-pressed')), 'true', 'sound is on at first');
  await page.click('#sound');
  assert.equal(await page.$eval('#sound', (e) => e.getAttribute('aria-pressed')), 'false');
  s = await shown(page);
  await clickMove(page, s, 'e4c4');
  assert.deepEqual(await tones(page), [], 'muted: silent');
  await page.reload();
  await ready(page);
  assert.equal(await page.$eval('#sound', (e) => e.getAttribute('aria-pressed')), 'false', 'still muted after a reload');
  s = await shown(page);
  await clickMove(page, s, 'd3d1');
  assert.deepEqual(await tones(page), [], 'still silent after a reload');
  await page.click('#sound');
  s = await shown(page);
  await clickMove(page, s, 'c4c5');
  assert.deepEqual(await tones(page), pitches('move'), 'on again: the sound is back');
  assert.deepEqual(problems, []);
  await context.close();
});

/** Holds the engine's `go` lines in the page until window.__release() (installed before the
 * page's scripts run), so that a test can act while the engine "thinks". */
async function holdEngine(context) {
  await context.addInitScript(() => {
    const held = [];
    window.__hold = false;
    const post = Worker.prototype.postMessage;
    Worker.prototype.postMessage = function (message, ...rest) {
      if (window.__hold && message?.type === 'line' && /^go\b/.test(message.text)) held.push([this, message, rest]);
      else post.call(this, message, ...rest);
    };
    window.__release = () => {
      window.__hold = false;
      for (const [worker, message, rest] of held.splice(0)) post.call(worker, message, ...rest);
    };
  });
}

/**
 * A position where the engine (the defenders) has one legal move: the king on the throne,
 * shut in on three sides, can only go to e4. The player has the attackers and moves h8-h7
 * first. The engine's go is held until the test releases it.
 */
async function premoveSetUp(env) {
  const context = await env.browser.newContext(LAPTOP);
  await holdEngine(context);
  const { page, problems } = await openBoard(env, { context, query: '?seed=9' });
  await page.click('#io summary');
  await page.fill('#position', '9/7b1/9/4b4/3bKb3/2b6/4b4/9/b8 b 0');
  await page.click('#load-pos');
  await waitForPlayer(page);
  await page.evaluate(() => {
    window.__hold = true;
  });
  const s = await shown(page);
  await clickMove(page, s, 'h8h7');
  assert.equal(await page.$eval('#app', (e) => e.dataset.state), 'engine', 'the engine thinks (its go is held)');
  return { context, page, problems };
}

const premoveShown = (page) => page.$eval('#board', (e) => e.dataset.premove ?? '');

test('a premove entered while the engine thinks is played at once after its reply', { timeout: 60_000 }, async () => {
  const { context, page, problems } = await premoveSetUp(env);
  await page.click('.hit[data-square="a1"]');
  const targets = await page.$$eval('.hints .hint', (els) => els.map((e) => e.dataset.square).sort());
  assert.deepEqual(targets, ['a2', 'a3', 'a4', 'a5', 'a6', 'a7', 'a8', 'a9', 'b1', 'c1', 'd1', 'e1', 'f1', 'g1', 'h1', 'i1'].sort(), 'a1\'s squares are offered');
  await page.click('.hit[data-square="a3"]');
  assert.equal(await premoveShown(page), 'a1a3', 'the premove is drawn');
  assert.equal(await page.$$eval('.marks .premove', (els) => els.length), 2);
  await shot(page, 'premove-1280');
  await page.evaluate(() => window.__release());
  await page.waitForFunction(() => document.querySelectorAll('#moves [data-move]').length >= 3, null, { timeout: 20_000 });
  const s = await shown(page);
  assertConsistent(s);
  assert.deepEqual(s.moves.slice(0, 3), ['h8h7', 'e5e4', 'a1a3'], 'the engine replied e5-e4 and the premove a1-a3 followed at once');
  assert.equal(await premoveShown(page), '', 'the premove is gone once played');
  assert.deepEqual(problems, []);
  await context.close();
});

test('a premove is cancelled by a right click or a click on an empty square, and dropped when the reply makes it illegal', { timeout: 60_000 }, async () => {
  const { context, page, problems } = await premoveSetUp(env);
  await page.click('.hit[data-square="a1"]');
  await page.click('.hit[data-square="a3"]');
  assert.equal(await premoveShown(page), 'a1a3');
  await page.click('.hit[data-square="g2"]', { button: 'right' });
  assert.equal(await premoveShown(page), '', 'a right click cancels it');
  await page.click('.hit[data-square="a1"]');
  await page.click('.hit[data-square="a3"]');
  await page.click('.hit[data-square="g2"]');
  assert.equal(await premoveShown(page), '', 'a click on an empty square cancels it');
  // c4-e4 is a move now, but e4 is where the king must go.
  await page.click('.hit[data-square="c4"]');
  await page.click('.hit[data-square="e4"]');
  assert.equal(await premoveShown(page), 'c4e4');
  await page.evaluate(() => window.__release());
  await page.waitForFunction(() => document.querySelectorAll('#moves [data-move]').length >= 2, null, { timeout: 20_000 });
  assert.equal(await waitForPlayer(page), 'human', 'the player is to move');
  const s = await shown(page);
  assertConsistent(s);
  assert.deepEqual(s.moves, ['h8h7', 'e5e4'], 'the illegal premove was not played');
  assert.equal(await premoveShown(page), '', 'and it is gone');
  assert.match(await page.$eval('#announce', (e) => e.textContent), /Premove c4-e4 dropped/);
  assert.deepEqual(problems, []);
  await context.close();
});

test('the board turns to the player\'s side: the defenders at the bottom when you play them, and the flip button turns it back', { timeout: 60_000 }, async () => {
  const { page, problems, context } = await openBoard(env, { query: '?seed=12' });
  const flipped = () => page.$eval('#board', (e) => e.dataset.flipped ?? 'false');
  assert.equal(await flipped(), 'false', 'as the attackers, their side at the bottom');
  await page.click('#swap');
  assert.equal(await page.$eval('#side', (e) => e.value), 'defenders');
  assert.equal(await flipped(), 'true', 'as the defenders, the board is turned round');
  assert.equal(await page.$eval('#flip', (e) => e.getAttribute('aria-pressed')), 'true');
  const coords = await page.$$eval('.coords text', (els) => els.map((e) => e.textContent));
  assert.equal(coords[0], 'i', 'the files run from i on the left');
  await page.click('#flip');
  assert.equal(await flipped(), 'false', 'the flip button turns it back');
  await page.click('#flip');
  assert.equal(await flipped(), 'true');
  // Two players at one screen: nobody's side; the board stands as the flip button left it.
  await page.click('label:has(input[name="mode"][value="hotseat"])');
  assert.equal(await flipped(), 'false');
  assert.deepEqual(problems, []);
  await context.close();
});

test('a first visit starts at the Beginner level, and the named buttons set the level', { timeout: 60_000 }, async () => {
  const { page, problems, context } = await openBoard(env, { query: '?seed=13' });
  assert.equal(await page.$eval('#level', (e) => e.value), '1', 'a fresh profile plays level 1');
  const pressed = () => page.$$eval('.level-button[aria-pressed="true"]', (els) => els.map((e) => e.textContent));
  assert.deepEqual(await pressed(), ['Beginner']);
  const names = await page.$$eval('.level-button', (els) => els.map((e) => e.textContent));
  assert.deepEqual(names, LEVEL_BUTTONS.map((b) => b.name), 'a few named buttons');
  for (const { name, level } of LEVEL_BUTTONS) {
    await page.click(`.level-button[data-level="${level}"]`);
    assert.equal(await page.$eval('#level', (e) => e.value), String(level), `${name} sets level ${level}`);
    assert.deepEqual(await pressed(), [name]);
  }
  // The rest one click away: the picker of every level.
  await page.selectOption('#level', '7');
  assert.deepEqual(await pressed(), [], 'a level between the buttons presses none');
  await page.click('.level-button[data-level="8"]');
  await page.reload();
  await ready(page);
  assert.equal(await page.$eval('#level', (e) => e.value), '8', 'the level chosen is kept');
  // The engine plays at the level chosen (the record names it).
  await playMoves(page, 1, rng(13));
  await page.click('#io summary');
  await page.click('#export-otg');
  assert.match(await page.$eval('#otg', (e) => e.value), /^\[defenders:Konakis.*\(level 8\)\]$/m);
  assert.deepEqual(problems, []);
  await context.close();
});
