// What the board's browser tests share: the server, Chromium, opening the board with a watch
// on console errors and on requests that leave the page's server, reading what the page shows
// and checking it against the package's rules API inside the page.
import assert from 'node:assert/strict';
import { mkdir, stat } from 'node:fs/promises';
import { createServer, request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { serve } from '../serve.mjs';

export const root = fileURLToPath(new URL('../dist/board/', import.meta.url));
export const shots = fileURLToPath(new URL('../dist/screenshots/', import.meta.url));
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--no-first-run'];
export const PHONE = { viewport: { width: 375, height: 740 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };
export const DESKTOP = { viewport: { width: 1280, height: 900 } };

/** Starts the server (cross-origin isolated, web/serve.mjs) and Chromium. */
export async function start() {
  await stat(`${root}index.html`).catch(() => {
    throw new Error(`${root} has no index.html: run 'bash web/build.sh' first`);
  });
  await stat(`${root}konakis/index.js`).catch(() => {
    throw new Error(`${root}konakis/ is missing: run 'bash web/build.sh' first`);
  });
  await mkdir(shots, { recursive: true });
  const server = await serve(root, 0);
  const base = `http://127.0.0.1:${server.address().port}/`;
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS });
  return { server, base, browser };
}

/** The same files without the cross-origin isolation headers: a proxy that drops them. */
export async function plainProxy(server) {
  const plain = createServer((req, res) => {
    const forward = request({ port: server.address().port, path: req.url, headers: req.headers }, (r) => {
      const headers = { ...r.headers };
      delete headers['cross-origin-opener-policy'];
      delete headers['cross-origin-embedder-policy'];
      res.writeHead(r.statusCode, headers);
      r.pipe(res);
    });
    req.pipe(forward);
  });
  await new Promise((ok) => plain.listen(0, '127.0.0.1', ok));
  return plain;
}

export async function stop({ server, browser }) {
  await browser?.close();
  await new Promise((done) => (server ? server.close(done) : done()));
}

/**
 * Opens the board at `base` + `query`; collects console errors, page errors and any request
 * that leaves the page's own server (there must be none), and loads the rules API into the
 * page for checks. `context` reuses a browser context (a reload test).
 */
export async function openBoard(env, { query = '', options = DESKTOP, context = null, base = env.base } = {}) {
  context ??= await env.browser.newContext(options);
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
  await page.goto(base + query);
  await ready(page);
  return { page, problems, context };
}

/** Waits for the board to start and loads the rules API into the page as window.__K. */
export async function ready(page) {
  await page.waitForSelector('#app:not([data-state="loading"])', { timeout: 30_000 });
  await page.evaluate(async () => {
    const K = await import('./konakis/index.js');
    await K.init();
    window.__K = K;
  });
}

/** Waits until the board waits for the player (or the game is over); returns the state. */
export async function waitForPlayer(page, timeout = 30_000) {
  await page.waitForFunction(() => ['human', 'over', 'analysis'].includes(document.getElementById('app').dataset.state), null, { timeout });
  return page.$eval('#app', (e) => e.dataset.state);
}

/**
 * What the page shows, checked against the rules API in the page: the move list's line
 * looked at (the game's, or a variation's) replayed from the list's start position under the
 * selected rules (each move legal), the position that gives, the position after the move looked at, and for each legal move of the game's
 * position whether it captures or wins. `notation` is the move list's text, `expected` the
 * record's notation of the same moves from the rules API.
 */
export async function shown(page) {
  return page.evaluate(() => {
    const K = window.__K;
    const list = document.getElementById('moves');
    // The moves of the line looked at: the game's, or a variation's after the game's moves
    // before it (#app's data-line: 'main' or the variation's index).
    const line = document.getElementById('app').dataset.line ?? 'main';
    let cells = [...list.querySelectorAll('.ply[data-move]')];
    if (line !== 'main') {
      const own = [...list.querySelectorAll(`.vply[data-line="${line}"]`)];
      const from = Number(own[0].dataset.ply) - 1;
      cells = [...cells.slice(0, from), ...own];
    }
    const moves = cells.map((e) => e.dataset.move);
    const notation = cells.map((e) => e.firstChild.textContent);
    const rulesValue = document.getElementById('rules').value;
    const ply = Number(document.getElementById('app').dataset.ply);
    const game = new K.Game({ rules: rulesValue === 'custom' ? undefined : rulesValue, position: list.dataset.start });
    const illegal = [];
    const expected = [];
    let atPly = null;
    for (const [i, move] of moves.entries()) {
      if (i === ply) atPly = game.pieces();
      const before = game.pieces();
      try {
        const { captured } = game.play(move);
        const king = before[move.slice(0, 2)] === 'king' ? 'K' : '';
        const taken = captured.map((sq) => (before[sq] === 'king' ? `K${sq}` : sq));
        expected.push(`${king}${move.slice(0, 2)}-${move.slice(2)}${taken.length ? `x${taken.join('/')}` : ''}`);
      } catch (error) {
        illegal.push(`${move}: ${error.message}`);
        break;
      }
    }
    atPly ??= game.pieces();
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
      moves, notation, expected, illegal, side, status, candidates, drawn, ply, atPly,
      pieces: game.pieces(),
      position: game.position(),
      shownPosition: document.getElementById('position').value,
    };
    game.free();
    return out;
  });
}

export function assertConsistent(s) {
  assert.deepEqual(s.illegal, [], 'every move in the move list is legal');
  assert.equal(s.shownPosition, s.position, 'the position field is the position of the move list');
  assert.deepEqual(s.drawn, s.atPly, 'the pieces drawn are those of the position looked at');
  assert.deepEqual(s.notation, s.expected, 'the move list writes the moves as the record does (K, x)');
}

/** Picks up the piece of `move` by clicking, checks the highlighted squares, then drops it. */
export async function clickMove(page, s, move) {
  const from = move.slice(0, 2);
  const to = move.slice(2);
  await page.click(`.hit[data-square="${from}"]`);
  const hints = await page.$$eval('.hints .hint', (els) => els.map((e) => e.dataset.square).sort());
  const legal = s.candidates.map((c) => c.move).filter((m) => m.startsWith(from)).map((m) => m.slice(2)).sort();
  assert.deepEqual(hints, legal, `the squares highlighted for ${from} are its legal destinations`);
  await page.click(`.hit[data-square="${to}"]`);
  await page.waitForFunction((n) => document.querySelectorAll('#moves [data-move]').length > n, s.moves.length);
}

/** The centre of a square on the screen. */
export async function squareCentre(page, square) {
  const box = await page.$eval(`.hit[data-square="${square}"]`, (e) => e.getBoundingClientRect().toJSON());
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

/** Drags the piece of `move` with the mouse, in several steps. */
export async function dragMove(page, move) {
  const a = await squareCentre(page, move.slice(0, 2));
  const b = await squareCentre(page, move.slice(2));
  await page.mouse.move(a.x, a.y);
  await page.mouse.down();
  await page.mouse.move((a.x + b.x) / 2, (a.y + b.y) / 2, { steps: 4 });
  await page.mouse.move(b.x, b.y, { steps: 4 });
  await page.mouse.up();
}

/** A move for a player: a win if there is one, else a capture, else any. */
export function choose(s, random) {
  const pick = (list) => list[Math.floor(random() * list.length)];
  const wins = s.candidates.filter((c) => c.wins);
  if (wins.length) return pick(wins).move;
  const captures = s.candidates.filter((c) => c.captures > 0);
  if (captures.length && random() < 0.8) return pick(captures).move;
  return pick(s.candidates).move;
}

/** A screenshot into web/dist/screenshots/, of the page's top (or all of it). */
export async function shot(page, name, fullPage = false) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: `${shots}${name}.png`, fullPage });
}

/** Answers the page's question (the confirmation dialog) with yes or no, and waits until the
 * page has acted on the answer. */
export async function answer(page, yes) {
  await page.waitForSelector('#confirm[open]');
  await page.click(yes ? '#confirm-yes' : '#confirm-no');
  await page.waitForSelector('#app[data-question="answered"]', { state: 'attached' });
}

/** The page has no sideways scrolling. */
export async function noSidewaysScroll(page) {
  const { scroll, client } = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth,
  }));
  assert.ok(scroll <= client, `no horizontal overflow (scroll width ${scroll}, screen ${client})`);
}

/** A longer game of seeded random moves as a record (for the review's progress and stop). */
export async function randomRecord(page, plies, seed) {
  return page.evaluate(({ plies, seed }) => {
    let a = seed >>> 0;
    const random = () => {
      a = (a + 0x6d2b79f5) >>> 0;
      let t = a;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    const game = new window.__K.Game();
    for (let i = 0; i < plies && !game.status().over; i++) {
      const legal = game.legalMoves();
      game.play(legal[Math.floor(random() * legal.length)]);
    }
    const text = game.otg();
    game.free();
    return text;
  }, { plies, seed });
}

/** Imports an OpenTafl record through the Import / export card. */
export async function importRecord(page, text) {
  if (!(await page.$eval('#io', (e) => e.open))) await page.click('#io summary');
  await page.fill('#otg', text);
  await page.click('#import-otg');
}
