// The reference board: Tablut against Konakis at a level of the player's choosing, two people
// at one screen, or an analysis of any position; a review of every game. Driven only through
// the konakis package: the rules API for the board (legal moves, playing, the result,
// records, the strength levels) and the engine's line protocol for thinking.
//
// All the board's state is the one object `app`; `render()` draws the page from it, and every
// change goes through a function here that changes `app`, then saves and redraws.
import { init, Game, presets, levels, KonakisError } from './konakis/index.js';
import { EngineClient } from './engine-client.js';
import { BoardView } from './view.js';
import { Chart } from './chart.js';
import { lineEntries, placeMove, variationsWithin, variationRow } from './variations.js';
import { HINT_MAX_LEVEL, DEFAULT_LEVEL, levelLabel, playsLike } from './levels.js';
import { Sound } from './sound.js';
import { Premove, premoveTargets } from './premove.js';
import { setUpNewcomer, renderNewcomer } from './newcomer.js';
import {
  SIDE_NAME, otherSide, sideOfPosition, splitMove,
  attackersView, scoreShort, scoreLong, barShare, resultHeadline, recordMove,
  attackersChances, attackersShare, chancesText, chancesLong, clockText, VERDICT, isMarked,
  endingText, resultText,
} from './format.js';

const $ = (id) => document.getElementById(id);

/** Where the game and the settings are kept across a reload. */
const STORE_KEY = 'konakis-board';
/** The review's limit per position: nodes, so that a review is the same every time. */
const REVIEW_NODES = 20_000;
/** The hint's search: full strength within a node count (the same hint every time). */
const HINT_NODES = 60_000;
/** `?seed=N` in the address: the seed of the levels' random choices (reproducible games). */
const SEED = Number(new URLSearchParams(location.search).get('seed')) || 0;

const app = {
  // The settings (kept across a reload).
  mode: 'play',             // 'play' | 'hotseat' | 'analysis'
  human: 'attackers',
  level: DEFAULT_LEVEL,
  limit: 'movetime 1000',   // the engine's limit per move without a clock
  clockChoice: '0+0',       // the clock select's value
  clock: { minutes: 0, increment: 0 }, // the clock chosen for the next game (0 minutes: none)
  rules: 'original',        // a preset id, or an option map (from an imported record)
  flipped: false,           // the board turned from the player's side (boardTurned)
  // The game (kept across a reload).
  /** @type {Game} */ game: null,
  /** Per move: { move, side, piece, text (record notation), captured: square -> piece }. */
  history: [],
  ending: null,             // { winner, reason: 'resign' | 'time' }: an end the rules do not see
  gameClock: null,          // this game's clock, { minutes, increment }, or null
  times: null,              // { attackers, defenders }: ms left when the running clock started
  review: null,             // { status, done, total, start, moves, result, notation, limit, error }
  /** Moves tried in analysis away from the game's present (variations.js): { from, moves }. */
  variations: [],
  // What the page shows and does now.
  ply: null,                // the number of moves of the position looked at; null: the present
  line: null,               // the line looked at: null (the game) or a variation's index
  turnStarted: 0,           // performance.now() when the running clock last started
  defaultStart: '',         // the start position of these rules (sent as `position startpos`)
  selected: null,
  targets: [],
  justCaptured: [],         // squares the last move took, drawn fading once
  version: 0,               // bumped by every change of the game: older answers are dropped
  animating: false,
  thinking: false,
  /** @type {EngineClient|null} */ engine: null,
  analysis: null,           // { version, ply, side, lines: InfoLine[] }
  hint: null,               // { version, move, line } or { version, busy: true }
  reviewAbort: null,        // the AbortController of the running review
  presets: [],
  presetRules: {},          // preset id -> its full option map
  levels: null,             // the package's levels(): each level's Elo
};

let view;
let chart;
const sound = new Sound();
const premove = new Premove();

const pieceSide = (kind) => (kind === 'attacker' ? 'attackers' : 'defenders');
const sortedJson = (map) => JSON.stringify(Object.keys(map).sort().map((k) => [k, String(map[k])]));

function announce(text) {
  $('announce').textContent = text;
}

function ioMessage(text, bad = false) {
  const msg = $('io-msg');
  msg.textContent = text;
  msg.classList.toggle('bad', bad);
}

function engineProblem(error) {
  // An engine failure is shown on the page and logged: it is a bug, never an expected event.
  console.error(error);
  $('turn-text').textContent = `Engine error: ${error.message}`;
}

// ---------------------------------------------------------------- positions and the outcome

/** The moves of the position looked at. */
function shownPly() {
  return app.ply ?? app.history.length;
}

/** The moves of the line looked at: the game's, or those of a variation (with the game's
 * moves before it). */
function shownEntries() {
  return lineEntries(app.history, app.variations, app.line);
}

/** Does the board show the game's present (its last position)? */
function atPresent() {
  return app.line === null && app.ply === null;
}

/** A new game replaying the first `n` of `entries` from the game's start (to be freed). */
function replayed(entries, n) {
  const g = new Game({ rules: app.game.rules(), position: app.game.start() });
  for (const { move } of entries.slice(0, n)) g.play(move);
  return g;
}

let shownCache = null;
/**
 * The position after `ply` moves of the line looked at: { pieces, side, status, openLines,
 * fen }. The present is the game itself; another one is replayed from the start (and kept
 * until the next change).
 */
function positionAt(ply) {
  const present = app.line === null && ply >= app.history.length;
  const key = `${app.version}:${app.line}:${ply}`;
  if (!present && shownCache?.key === key) return shownCache.value;
  const g = present ? app.game : replayed(shownEntries(), ply);
  const status = g.status();
  const value = {
    pieces: g.pieces(), side: g.sideToMove(), status, fen: g.position(),
    openLines: status.over ? 0 : g.kingOpenLines(),
  };
  if (!present) {
    g.free();
    shownCache = { key, value };
  }
  return value;
}

/** The game's outcome: the rules' status, or a resignation or a loss on time. */
function outcome() {
  const status = app.game.status();
  if (status.over || !app.ending) return status;
  return { over: true, winner: app.ending.winner, reason: app.ending.reason, text: endingText(app.ending) };
}

/** The side of the player against the engine, or null when nobody plays one side (two
 * players, analysis): whose result "You won" and "You lost" are. */
function playerSide() {
  return app.mode === 'play' ? app.human : null;
}

/** A game in progress: moves played and no result yet (what a question protects). */
function inProgress() {
  return app.history.length > 0 && !outcome().over;
}

const lineCache = new Map();
/** Moves from a position in the record's notation (`Ke5-c5`, `c4-c2xb2/d2`). */
function lineText(fen, moves) {
  const key = `${fen}|${moves.join(' ')}`;
  if (lineCache.has(key)) return lineCache.get(key);
  const g = new Game({ rules: app.game.rules(), position: fen });
  const texts = [];
  for (const move of moves) {
    const before = g.pieces();
    let captured;
    try {
      ({ captured } = g.play(move));
    } catch {
      break;
    }
    texts.push(recordMove(move, before[move.slice(0, 2)], Object.fromEntries(captured.map((sq) => [sq, before[sq]]))));
  }
  g.free();
  if (lineCache.size > 500) lineCache.clear();
  lineCache.set(key, texts);
  return texts;
}

/**
 * Fills `el` with text and moves, each move kept whole on a line (a line may break between
 * moves, never inside `d1-d3`): `parts` are strings and arrays of moves.
 */
function writeMoves(el, parts) {
  const nodes = [];
  for (const part of parts) {
    if (typeof part === 'string') {
      nodes.push(part);
      continue;
    }
    for (const [i, text] of part.entries()) {
      const span = document.createElement('span');
      span.className = 'mv';
      span.textContent = text;
      if (i) nodes.push(' ');
      nodes.push(span);
    }
  }
  el.replaceChildren(...nodes);
}

// ---------------------------------------------------------------- the game

/** The moves of `game` with their notation, replayed from its start. */
function historyOf(game) {
  const g = new Game({ rules: game.rules(), position: game.start() });
  const history = [];
  for (const move of game.moves()) {
    const before = g.pieces();
    const side = g.sideToMove();
    const { captured } = g.play(move);
    history.push(entry(move, side, before, captured));
  }
  g.free();
  return history;
}

function entry(move, side, before, captured) {
  const piece = before[move.slice(0, 2)];
  const taken = Object.fromEntries(captured.map((sq) => [sq, before[sq]]));
  return { move, side, piece, captured: taken, text: recordMove(move, piece, taken) };
}

/** Saved variations ({ from, moves: ['d1d3', ...] }) replayed on the game; one that no longer
 * replays is dropped. */
function restoredVariations(saved) {
  const kept = [];
  for (const v of Array.isArray(saved) ? saved : []) {
    if (!Number.isInteger(v?.from) || v.from < 0 || v.from >= app.history.length || !Array.isArray(v.moves)) continue;
    const g = replayed(app.history, v.from);
    const moves = [];
    try {
      for (const move of v.moves) {
        const before = g.pieces();
        const side = g.sideToMove();
        const { captured } = g.play(move);
        moves.push(entry(move, side, before, captured));
      }
    } catch (error) {
      if (!(error instanceof KonakisError)) throw error;
      moves.length = 0;
    }
    g.free();
    if (moves.length) kept.push({ from: v.from, moves });
  }
  return kept;
}

/** Makes `game` the board's game (a new one, an imported record, a loaded position). */
function startFrom(game, { restore = null } = {}) {
  app.game?.free();
  app.game = game;
  const fresh = new Game({ rules: game.rules() });
  app.defaultStart = fresh.start();
  fresh.free();
  app.history = historyOf(game);
  app.ply = null;
  app.line = null;
  app.variations = restore?.variations ? restoredVariations(restore.variations) : [];
  app.justCaptured = [];
  app.analysis = null;
  app.hint = null;
  stopReview();
  app.review = restore?.review ?? null;
  app.ending = restore?.ending ?? null;
  app.gameClock = restore ? restore.gameClock : (app.clock.minutes > 0 ? { ...app.clock } : null);
  app.times = restore?.times ?? (app.gameClock
    ? { attackers: app.gameClock.minutes * 60_000, defenders: app.gameClock.minutes * 60_000 }
    : null);
  app.turnStarted = performance.now();
  app.engine?.newGame();
  view.setSpecial(game.special());
  changed();
}

function newGame() {
  startFrom(new Game({ rules: app.rules }));
  announce(app.mode === 'play' ? `New game. You play the ${app.human}.` : 'New game.');
}

/** May the player move (or pick up a piece) in the position looked at? */
function humanCanMove() {
  if (!app.engine || app.animating) return false;
  if (app.mode === 'analysis') return !positionAt(shownPly()).status.over;
  if (!atPresent() || outcome().over) return false;
  return app.mode === 'hotseat' || app.game.sideToMove() === app.human;
}

function canTakeBack() {
  const n = app.history.length;
  if (app.ending || app.animating) return false;
  if (app.mode !== 'play') return n > 0;
  const humanStarted = sideOfPosition(app.game.start()) === app.human;
  return n >= (humanStarted ? 1 : 2);
}

/** The game's length after a take-back: one move less, or against the engine the player's
 * last move and all after it. */
function lengthAfterTakeBack() {
  const n = app.history.length;
  if (app.mode !== 'play') return n - 1;
  return app.history.map((h) => h.side).lastIndexOf(app.human);
}

async function takeBack() {
  if (!canTakeBack()) return;
  if (app.mode === 'analysis' && app.line !== null) {
    takeBackInVariation();
    return;
  }
  // What goes with the moves besides them: the result of a finished game (and its review),
  // variations that leave the game from the moves taken back. Ask first.
  const lost = [];
  if (outcome().over) {
    const told = resultText(outcome(), playerSide());
    lost.push(`the result (${told.headline}: ${told.how})${doneReview() ? ' and the review' : ''}`);
  }
  const dropped = app.variations.length - variationsWithin(app.variations, lengthAfterTakeBack()).length;
  if (dropped) lost.push(dropped === 1 ? 'a variation from those moves' : `${dropped} variations from those moves`);
  if (lost.length) {
    const question = `Taking back removes ${lost.join(', and ')}. Take back?`;
    if (!(await ask(question, 'Take back')) || !canTakeBack()) return;
  }
  if (app.mode !== 'play') {
    app.game.undo();
  } else {
    // The player's last move and the engine's reply to it (or just the player's move when
    // the engine has not answered yet, or the game ended with it).
    while (app.game.undo() !== null && app.game.sideToMove() !== app.human);
  }
  app.history.length = app.game.moves().length;
  app.variations = variationsWithin(app.variations, app.history.length);
  app.ply = null;
  app.line = null;
  announce('Move taken back.');
  forgetReview();
  changed();
}

/** Takes back the last move of the variation looked at (the variation goes with its only
 * move); the board shows where it now ends. */
function takeBackInVariation() {
  const v = app.variations[app.line];
  v.moves.pop();
  if (v.moves.length) {
    app.ply = v.from + v.moves.length;
  } else {
    app.variations.splice(app.line, 1);
    app.line = null;
    app.ply = v.from;
  }
  announce('Move taken back.');
  changed();
}

/** A review that no longer fits the game (a move taken back, a new line in analysis) goes. */
function forgetReview() {
  if (app.review && !reviewFits()) {
    stopReview();
    app.review = null;
  }
}

/** Plays `move`: at the game's present, or in analysis at the position looked at, where it
 * goes into a variation (the game's moves stay). */
async function playMove(move, { animate }) {
  const aside = app.mode === 'analysis' && !atPresent();
  const version = app.version;
  const [from, to] = splitMove(move);
  app.selected = null;
  app.targets = [];
  // The slide is drawn on the position looked at: only when the move is played there.
  if (animate && (aside || atPresent())) {
    app.animating = true;
    render();
    await view.animate(from, to);
    app.animating = false;
    if (version !== app.version) return;
  }
  if (aside) {
    playAside(move);
    return;
  }
  const before = app.game.pieces();
  const side = app.game.sideToMove();
  let captured;
  try {
    ({ captured } = app.game.play(move));
  } catch (error) {
    if (!(error instanceof KonakisError)) throw error;
    console.error(`the board refused ${move}: ${error.message}`);
    render();
    return;
  }
  punchClock(side);
  sound.play(captured.length ? 'capture' : 'move');
  const e = entry(move, side, before, captured);
  app.history.push(e);
  app.justCaptured = atPresent() ? captured : [];
  forgetReview();
  const took = captured.length ? `, taking ${captured.join(' ')}` : '';
  announce(`${SIDE_NAME[side]} ${e.text}${took}.`);
  changed();
  if (outcome().over) gameEnded();
}

/** Plays `move` at the position looked at in analysis, away from the game's present: along
 * a line that has it there already, at the end of the variation looked at, or as a new
 * variation. */
function playAside(move) {
  const ply = shownPly();
  const place = placeMove(app.history, app.variations, app.line, ply, move);
  if (place.kind === 'follow') {
    goTo(place.ply, place.line);
    return;
  }
  const g = replayed(shownEntries(), ply);
  const before = g.pieces();
  const side = g.sideToMove();
  let captured;
  try {
    ({ captured } = g.play(move));
  } catch (error) {
    if (!(error instanceof KonakisError)) throw error;
    console.error(`the board refused ${move}: ${error.message}`);
    render();
    return;
  } finally {
    g.free();
  }
  const e = entry(move, side, before, captured);
  if (place.kind === 'end') {
    app.variations[app.line].moves.push(e);
  } else {
    app.variations.push({ from: place.from, moves: [...place.prefix, e] });
    app.line = app.variations.length - 1;
  }
  app.ply = ply + 1;
  app.justCaptured = captured;
  const took = captured.length ? `, taking ${captured.join(' ')}` : '';
  announce(`${SIDE_NAME[side]} ${e.text}${took}, in a variation.`);
  changed();
}

/**
 * The player takes `side` ("You play" or "Swap sides", one behaviour): in a game against the
 * engine a new game starts, after a question if a game is in progress (the select goes back
 * on "no"); in the other modes the side is only kept for the next game against the engine.
 */
async function changeSide(side) {
  if (app.mode !== 'play') {
    app.human = side;
    save();
    render();
    return;
  }
  if (!(await mayDiscard('Changing sides'))) {
    $('side').value = app.human;
    return;
  }
  app.human = side;
  newGame();
}

/** Ends the game now: `ending` is a resignation or a loss on time. */
function endGame(ending) {
  app.ending = ending;
  const told = resultText(outcome(), playerSide());
  announce(`${told.headline}: ${told.how}.`);
  changed();
  gameEnded();
}

/** After the last move of a game: the review starts by itself (not in analysis). */
function gameEnded() {
  if (app.mode !== 'analysis' && app.history.length > 0) startReview();
}

// ---------------------------------------------------------------- clocks

/** Are the clocks on for this game (never in analysis)? */
function clocksOn() {
  return app.gameClock !== null && app.times !== null && app.mode !== 'analysis';
}

/** Does the clock of the side to move run? From the first move on, until the end. */
function clockRuns() {
  return clocksOn() && app.history.length > 0 && !outcome().over;
}

/** Milliseconds left on a side's clock now. */
function timeLeft(side) {
  let t = app.times[side];
  if (clockRuns() && side === app.game.sideToMove()) t -= performance.now() - app.turnStarted;
  return t;
}

/** The mover's clock stops and gains the increment; the other side's starts. */
function punchClock(mover) {
  if (!clocksOn()) return;
  const now = performance.now();
  if (clockRuns()) app.times[mover] -= now - app.turnStarted;
  app.times[mover] += app.gameClock.increment * 1000;
  app.turnStarted = now;
}

/** The clocks' times kept as they are now (before a save). */
function settledTimes() {
  if (!clocksOn()) return app.times;
  return { attackers: timeLeft('attackers'), defenders: timeLeft('defenders') };
}

function tick() {
  if (!clockRuns()) return;
  const side = app.game.sideToMove();
  if (timeLeft(side) <= 0) {
    app.times[side] = 0;
    endGame({ winner: otherSide(side), reason: 'time' });
    return;
  }
  renderClocks();
}

/** `go` for the engine: its clock and the player's when the clocks run, else the limit. */
function goCommand() {
  if (!clocksOn()) return `go ${app.limit}`;
  const inc = app.gameClock.increment * 1000;
  const t = (side) => Math.max(0, Math.round(timeLeft(side)));
  return `go wtime ${t('defenders')} btime ${t('attackers')} winc ${inc} binc ${inc}`;
}

// ---------------------------------------------------------------- moving pieces

function onSquare(square) {
  if (premoveTime()) {
    premoveSquare(square);
    return;
  }
  if (!humanCanMove()) return;
  if (square === null) {
    app.selected = null;
    app.targets = [];
    render();
    return;
  }
  if (app.selected && app.targets.includes(square)) {
    playMove(app.selected + square, { animate: false });
    return;
  }
  const shown = positionAt(shownPly());
  const kind = shown.pieces[square];
  if (kind && pieceSide(kind) === shown.side && app.selected !== square) {
    app.selected = square;
    app.targets = legalFrom(square);
    announce(app.targets.length
      ? `Picked ${square}; it can go to ${app.targets.join(', ')}.`
      : `The piece on ${square} cannot move.`);
  } else {
    app.selected = null;
    app.targets = [];
  }
  render();
}

/** The destinations of the piece on `square` in the position looked at. */
function legalFrom(square) {
  const ply = shownPly();
  if (atPresent()) return app.game.legalMoves(square).map((m) => m.slice(2));
  const g = new Game({ rules: app.game.rules(), position: positionAt(ply).fen });
  const targets = g.legalMoves(square).map((m) => m.slice(2));
  g.free();
  return targets;
}

function canDrag(square) {
  if (premoveTime()) return ownPiece(square);
  if (!humanCanMove()) return false;
  const shown = positionAt(shownPly());
  const kind = shown.pieces[square];
  return Boolean(kind) && pieceSide(kind) === shown.side;
}

function onDrop(from, to) {
  if (premoveTime()) {
    if (app.selected === from && app.targets.includes(to)) enterPremove(from + to);
    else premoveSquare(null);
    return;
  }
  if (app.selected === from && app.targets.includes(to)) {
    playMove(from + to, { animate: false });
    return;
  }
  app.selected = null;
  app.targets = [];
  render();
}

// ---------------------------------------------------------------- premoves

/** May the player enter a premove: playing, at the present, the engine to move? */
function premoveTime() {
  return app.mode === 'play' && app.engine !== null && app.ply === null && !outcome().over
    && app.game.sideToMove() !== app.human;
}

/** Is there one of the player's pieces on `square` in the game? */
function ownPiece(square) {
  const kind = app.game.pieces()[square];
  return Boolean(kind) && pieceSide(kind) === app.human;
}

/** A click (or a key) on `square`, or off the board (null), while the engine thinks: picks up
 * one of the player's pieces, enters the premove to a square it may go to, or cancels. */
function premoveSquare(square) {
  if (square && app.selected && app.targets.includes(square)) {
    enterPremove(app.selected + square);
    return;
  }
  const had = premove.move !== null;
  premove.clear();
  if (square && ownPiece(square) && app.selected !== square) {
    app.selected = square;
    app.targets = premoveTargets(app.game.rules(), app.game.position(), square);
  } else {
    app.selected = null;
    app.targets = [];
    if (had) announce('Premove cancelled.');
  }
  render();
}

function enterPremove(move) {
  premove.set(move, app.history.length);
  app.selected = null;
  app.targets = [];
  const [from, to] = splitMove(move);
  announce(`Premove ${from}-${to}: played after Konakis' reply if it is still legal.`);
  render();
}

/** The premove as the board draws it, while it waits for the engine's reply; a premove that
 * no longer belongs to the game (a move taken back, a new game, another mode) goes. */
function shownPremove() {
  if (premove.move === null) return null;
  if (premoveTime() && premove.waiting(app.history.length)) return premove.move;
  if (premove.ply + 1 !== app.history.length || app.mode !== 'play') premove.clear();
  return null;
}

/** After the engine's reply: plays the premove if it is legal now, else drops it. True when
 * a premove is on its way. */
function playPremove() {
  if (app.mode !== 'play' || app.ply !== null || app.game.sideToMove() !== app.human) return false;
  const move = premove.takeAfterReply(app.history.length);
  if (move === null || outcome().over) return false;
  const [from, to] = splitMove(move);
  if (!app.game.legalMoves(from).includes(move)) {
    announce(`Premove ${from}-${to} dropped: it is not legal after Konakis' reply.`);
    return false;
  }
  const version = app.version;
  // Played after this change has been drawn and saved, as if the player had just moved.
  queueMicrotask(() => {
    if (version === app.version && humanCanMove()) playMove(move, { animate: false });
  });
  return true;
}

/** After any change of the game: save, redraw, then let the engine play or analyse. */
function changed() {
  app.version++;
  app.selected = null;
  app.targets = [];
  app.hint = null;
  save();
  render();
  think();
}

/** Lets the engine play its move, analyse the position looked at, or rest (or plays the
 * player's premove once the engine has replied). */
function think() {
  if (!app.engine) return;
  if (playPremove()) return;
  if (app.mode === 'play' && !outcome().over && app.game.sideToMove() !== app.human) {
    app.analysis = null;
    engineMove();
  } else if (app.mode === 'analysis' && !positionAt(shownPly()).status.over) {
    analyse();
  } else {
    app.analysis = null;
    app.engine.cancel();
    setThinking(false);
    renderAnalysis();
  }
}

/** The position command of the position after `ply` moves of `entries` (the game's moves, or
 * a line's). */
function positionCommand(ply = app.history.length, entries = app.history) {
  const start = app.game.start();
  const moves = entries.slice(0, ply).map((h) => h.move);
  const base = start === app.defaultStart ? 'position startpos' : `position fen ${start}`;
  return moves.length ? `${base} moves ${moves.join(' ')}` : base;
}

// ---------------------------------------------------------------- the engine

/** The engine's options for its own moves (the level) and for analysis and hints. */
function engineOptions(kind) {
  const base = { UCI_ShowWDL: 'true', 'Skill Seed': SEED };
  if (kind === 'move') return { ...base, MultiPV: 1, 'Skill Level': app.level };
  return { ...base, MultiPV: kind === 'analysis' ? 3 : 1, 'Skill Level': app.levels?.full ?? 20 };
}

async function engineMove() {
  const version = app.version;
  setThinking(true, '');
  let answer = null;
  try {
    answer = await app.engine.search({
      rules: app.game.rules(),
      options: engineOptions('move'),
      position: positionCommand(),
      go: goCommand(),
      onInfo: (info) => {
        if (version !== app.version || info.multipv !== 1) return;
        setThinking(true, `depth ${info.depth}`);
      },
    });
  } catch (error) {
    engineProblem(error);
  }
  if (version !== app.version) return;
  setThinking(false);
  if (answer?.best) await playMove(answer.best, { animate: true });
}

function setThinking(on, detail = '') {
  app.thinking = on;
  const box = $('thinking');
  box.hidden = !on;
  box.lastChild.textContent = detail ? `Konakis is thinking… ${detail}` : 'Konakis is thinking…';
  updateState();
}

async function analyse() {
  const version = app.version;
  const ply = shownPly();
  const { line } = app;
  const side = positionAt(ply).side;
  app.analysis = { version, ply, line, side, lines: [] };
  renderAnalysis();
  try {
    await app.engine.search({
      rules: app.game.rules(),
      options: engineOptions('analysis'),
      position: positionCommand(ply, shownEntries()),
      go: 'go infinite',
      onInfo: (info) => {
        const a = app.analysis;
        if (!a || a.version !== version || a.ply !== ply || a.line !== line || !info.pv.length) return;
        const slot = info.multipv - 1;
        // A bound is only a bound: keep the last exact line unless there is none yet.
        if (info.bound && a.lines[slot]) return;
        a.lines[slot] = info;
        scheduleAnalysisRender();
      },
    });
  } catch (error) {
    engineProblem(error);
  }
}

let analysisFrame = 0;
function scheduleAnalysisRender() {
  if (analysisFrame) return;
  analysisFrame = requestAnimationFrame(() => {
    analysisFrame = 0;
    renderAnalysis();
    renderArrows();
  });
}

function canHint() {
  return app.mode === 'play' && app.level <= HINT_MAX_LEVEL && humanCanMove();
}

/** Asks the engine, at full strength, for the player's best move; draws it as an arrow. */
async function hint() {
  if (!canHint() || app.hint) return;
  const version = app.version;
  app.hint = { version, busy: true };
  render();
  let line = [];
  let answer = null;
  try {
    answer = await app.engine.search({
      rules: app.game.rules(),
      options: engineOptions('hint'),
      position: positionCommand(),
      go: `go nodes ${HINT_NODES}`,
      onInfo: (info) => {
        if (info.multipv === 1 && info.pv.length && !info.bound) line = info.pv;
      },
    });
  } catch (error) {
    engineProblem(error);
  }
  if (version !== app.version || !answer?.best) return;
  if (line[0] !== answer.best) line = [answer.best];
  app.hint = { version, move: answer.best, line };
  announce(`Hint: ${lineText(app.game.position(), [answer.best])[0]}.`);
  render();
}

// ---------------------------------------------------------------- the review

/** Does the review belong to this game (the same start, its moves the game's first)? */
function reviewFits() {
  const r = app.review;
  if (!r || r.start !== app.game.start() || r.moves.length > app.history.length) return false;
  return r.moves.every((m, i) => app.history[i].move === m);
}

/** The finished review of this game, or null. */
function doneReview() {
  return app.review?.status === 'done' && reviewFits() ? app.review : null;
}

function stopReview() {
  app.reviewAbort?.abort();
  app.reviewAbort = null;
}

/** Reviews every move of the game in a worker of its own, with progress; it can be stopped. */
async function startReview() {
  if (!app.engine || app.history.length === 0) return;
  stopReview();
  const abort = new AbortController();
  app.reviewAbort = abort;
  const moves = app.history.map((h) => h.move);
  app.review = {
    status: 'running', done: 0, total: moves.length + 1, start: app.game.start(), moves,
    result: null, limit: REVIEW_NODES,
  };
  const mine = app.review;
  renderReview();
  try {
    const answer = await app.engine.analyseGame(
      { otg: app.game.otg(), nodes: REVIEW_NODES },
      {
        signal: abort.signal,
        onProgress: (done, total) => {
          if (app.review !== mine) return;
          Object.assign(mine, { done, total });
          renderReview();
        },
      },
    );
    if (app.review !== mine) return;
    Object.assign(mine, { status: 'done', result: answer.games[0].review });
    announce('The review is ready.');
  } catch (error) {
    if (app.review !== mine) return;
    if (abort.signal.aborted) {
      mine.status = 'stopped';
    } else {
      console.error(error);
      Object.assign(mine, { status: 'failed', error: error.message });
    }
  } finally {
    if (app.reviewAbort === abort) app.reviewAbort = null;
  }
  save();
  render();
}

/** The attackers' expected score at every ply of a review, 0..1. */
function reviewShares(result) {
  const moverShare = (side, ch) => {
    const e = (ch.win + ch.draw / 2) / 1000;
    return side === 'attackers' ? e : 1 - e;
  };
  const moves = result.moves;
  if (!moves.length) return [];
  return [moverShare(moves[0].side, moves[0].chances_before), ...moves.map((m) => moverShare(m.side, m.chances_after))];
}

/** The reviewed move that led to the position after `ply` moves, or null (the review is the
 * game's: a variation's moves have none). */
function reviewedMove(ply) {
  const r = doneReview();
  return r && ply > 0 && app.line === null ? r.result.moves[ply - 1] ?? null : null;
}

// ---------------------------------------------------------------- navigation

/** Looks at the position after `ply` moves of `line` (the game's present at the game's end;
 * a variation's moves before it leaves the game are the game's). */
function goTo(ply, line = app.line) {
  const target = Math.max(0, Math.min(lineEntries(app.history, app.variations, line).length, ply));
  const on = line !== null && target <= app.variations[line].from ? null : line;
  const next = on === null && target === app.history.length ? null : target;
  if (next === app.ply && on === app.line) return;
  app.ply = next;
  app.line = on;
  app.selected = null;
  app.targets = [];
  app.justCaptured = [];
  render();
  if (app.mode === 'analysis') think();
}

// ---------------------------------------------------------------- saving

function save() {
  if (!app.game) return;
  const r = app.review;
  const data = {
    settings: {
      mode: app.mode, human: app.human, level: app.level, limit: app.limit,
      clockChoice: app.clockChoice, clock: app.clock, rules: app.rules, flipped: app.flipped,
    },
    game: {
      rules: app.game.rules(), start: app.game.start(), moves: app.history.map((h) => h.move),
      ending: app.ending, gameClock: app.gameClock, times: settledTimes(),
      variations: app.variations.map((v) => ({ from: v.from, moves: v.moves.map((h) => h.move) })),
      review: r?.status === 'done' ? { ...r } : null,
    },
  };
  try {
    localStorage.setItem(STORE_KEY, JSON.stringify(data));
  } catch {
    // Storage full or refused (a private window): the board works on without it.
  }
}

/** The saved settings and game, or null; a saved game that no longer replays is dropped. */
function loadSaved() {
  let data;
  try {
    data = JSON.parse(localStorage.getItem(STORE_KEY) ?? 'null');
  } catch {
    return null;
  }
  if (!data || typeof data !== 'object') return null;
  let game = null;
  const g = data.game;
  if (g && Array.isArray(g.moves)) {
    try {
      game = new Game({ rules: g.rules, position: g.start });
      for (const m of g.moves) game.play(m);
    } catch (error) {
      if (!(error instanceof KonakisError)) throw error;
      game?.free();
      game = null;
    }
  }
  return { settings: data.settings ?? {}, game, saved: g };
}

function applySettings(s) {
  if (['play', 'hotseat', 'analysis'].includes(s.mode)) app.mode = s.mode;
  if (s.human === 'attackers' || s.human === 'defenders') app.human = s.human;
  const full = app.levels.full;
  if (Number.isInteger(s.level) && s.level >= 0 && s.level <= full) app.level = s.level;
  if ([...$('limit').options].some((o) => o.value === s.limit)) app.limit = s.limit;
  if ([...$('clock').options].some((o) => o.value === s.clockChoice)) app.clockChoice = s.clockChoice;
  if (s.clock && Number.isFinite(s.clock.minutes) && Number.isFinite(s.clock.increment)) {
    app.clock = { minutes: s.clock.minutes, increment: s.clock.increment };
  }
  if (typeof s.rules === 'string' && app.presets.some((p) => p.id === s.rules)) app.rules = s.rules;
  else if (s.rules && typeof s.rules === 'object') app.rules = s.rules;
  app.flipped = s.flipped === true;
}

// ---------------------------------------------------------------- questions

/** Asks a yes-or-no question in the page's own dialog; resolves to true for yes. */
function ask(text, yes) {
  const dialog = $('confirm');
  $('confirm-text').textContent = text;
  $('confirm-yes').textContent = yes;
  const root = $('app');
  dialog.returnValue = '';
  dialog.showModal();
  root.dataset.question = 'open';
  return new Promise((resolve) => {
    dialog.addEventListener('close', () => {
      resolve(dialog.returnValue === 'yes');
      // The asker acts on the answer in this task's microtasks; once they are over the page
      // says so (tests wait for it rather than for a guess at what the action changes).
      setTimeout(() => {
        root.dataset.question = 'answered';
      });
    }, { once: true });
  });
}

/** True when nothing is lost by `what`, or the player agrees to lose the game in progress. */
async function mayDiscard(what) {
  if (!inProgress()) return true;
  return ask(`${what} ends the game in progress (${app.history.length} moves). Discard it?`, 'Discard the game');
}

// ---------------------------------------------------------------- drawing

function render() {
  const ply = shownPly();
  const shown = positionAt(ply);
  const present = atPresent();
  const status = present ? outcome() : shown.status;
  const last = ply > 0 ? shownEntries()[ply - 1] : null;
  view.setFlipped(boardTurned());
  view.render({
    pieces: shown.pieces,
    selected: app.selected,
    targets: app.targets,
    lastMove: last?.move ?? null,
    premove: shownPremove(),
    captured: present ? app.justCaptured : [],
    capturedPieces: last?.captured ?? {},
    arrows: arrows(),
    king: kingFate(shown.pieces, status, last),
  });
  app.justCaptured = []; // the taken pieces fade out once, not again at the next redraw

  const turn = $('turn');
  turn.dataset.side = status.over ? 'none' : shown.side;
  let text;
  if (status.over) text = present ? 'Game over' : 'The end of the game';
  else if (!present || app.mode !== 'play') text = `${SIDE_NAME[shown.side]} to move`;
  else if (shown.side === app.human) text = `${SIDE_NAME[shown.side]} to move — your move`;
  else text = `${SIDE_NAME[shown.side]} to move — Konakis`;
  if (app.engine) $('turn-text').textContent = text;

  $('looking-back').hidden = present;
  $('looking-at').textContent = (ply === 0 ? '0 (the start)' : `${ply} (${last.text})`)
    + (app.line === null ? '' : ', in a variation');

  const result = $('result');
  const over = outcome();
  result.hidden = !over.over;
  if (over.over) {
    const told = resultText(over, playerSide());
    result.dataset.reason = over.reason;
    result.dataset.winner = over.winner ?? 'draw';
    result.dataset.outcome = told.outcome;
    $('result-headline').textContent = told.headline;
    $('result-reason').textContent = told.how;
    $('result-reason').title = over.text;
  }

  const openLines = status.over ? 0 : shown.openLines;
  const king = $('king-lines');
  king.hidden = openLines === 0;
  king.dataset.lines = String(openLines);
  // Linnaeus' words, said in plain ones after them (the element's title explains them).
  king.textContent = openLines === 1 ? 'Raichi! The king can reach the edge next move'
    : `Tuichu! The king has ${openLines} open lines to the edge`;

  renderMoves();
  const count = (kind) => Object.values(shown.pieces).filter((k) => k === kind).length;
  $('material').textContent = `${count('attacker')} attackers · ${count('defender')} defenders`;
  const pos = $('position');
  if (document.activeElement !== pos) pos.value = app.game.position();
  renderControls();
  renderNewcomer({ level: app.level, rules: app.game.rules(), sound });
  renderClocks();
  renderHint();
  renderAnalysis();
  renderReview();
  updateState();
}

/** Is the board turned round (the defenders' side at the bottom)? When you play the
 * defenders it is, as a chess site turns it to your colour; the flip button turns it from
 * there (`app.flipped`). */
function boardTurned() {
  return app.flipped !== (app.mode === 'play' && app.human === 'defenders');
}

/** The arrows on the board: the engine's best move in analysis, a hint, the better move of a
 * marked move in the review. */
function arrows() {
  const list = [];
  const ply = shownPly();
  const a = app.analysis;
  if (app.mode === 'analysis' && a?.ply === ply && a.line === app.line && a.lines[0]?.pv[0]) list.push({ move: a.lines[0].pv[0], kind: 'best' });
  if (app.hint?.move && atPresent()) list.push({ move: app.hint.move, kind: 'hint' });
  const m = reviewedMove(ply);
  if (m && isMarked(m.verdict) && m.best && m.best !== m.played) list.push({ move: m.best, kind: 'better' });
  return list;
}

function renderArrows() {
  view.setArrows(arrows());
}

/** The king's square ringed at the end: he escaped there, or was captured there. */
function kingFate(pieces, status, last) {
  if (!status.over || (status.reason !== 'escape' && status.reason !== 'capture')) return null;
  // A captured king is off the board: he fell where the last move took him.
  const where = status.reason === 'escape' ? pieces : last?.captured ?? {};
  const square = Object.keys(where).find((sq) => where[sq] === 'king');
  return square ? { square, kind: status.reason === 'escape' ? 'won' : 'lost' } : null;
}

function renderControls() {
  const play = app.mode === 'play';
  $('side-field').classList.toggle('dim', !play);
  $('level-field').classList.toggle('dim', !play);
  $('side').value = app.human;
  $('level').value = String(app.level);
  $('limit').value = app.limit;
  $('clock').value = app.clockChoice;
  $('clock-custom').hidden = app.clockChoice !== 'custom';
  const sameClock = JSON.stringify(app.gameClock) === JSON.stringify(app.clock.minutes > 0 ? app.clock : null);
  $('clock-note').hidden = sameClock;
  const note = playsLike(app.level);
  $('level-note').textContent = note ? `Level ${app.level} ${note}.` : '';
  $('level-note').hidden = !note || !play;
  for (const radio of document.querySelectorAll('input[name="mode"]')) radio.checked = radio.value === app.mode;
  $('takeback').disabled = !canTakeBack();
  $('resign').hidden = app.mode === 'analysis';
  $('resign').disabled = !canResign();
  $('swap').hidden = app.mode !== 'play';
  $('hint').hidden = !(app.mode === 'play' && app.level <= HINT_MAX_LEVEL);
  $('hint').disabled = !canHint() || Boolean(app.hint);
  $('review-start').disabled = app.history.length === 0 || app.review?.status === 'running';
  const ply = shownPly();
  $('nav-first').disabled = ply === 0;
  $('nav-prev').disabled = ply === 0;
  $('nav-next').disabled = ply === shownEntries().length;
  $('nav-last').disabled = atPresent();
  $('flip').setAttribute('aria-pressed', String(boardTurned()));
}

/** The game can be resigned: a move has been played, it is not over, and the board shows the
 * present. (Before the first move there is nothing to give up: a new game or a change of side
 * is the way out.) */
function canResign() {
  return app.game.moves().length > 0 && !outcome().over && atPresent() && !app.animating;
}

function renderClocks() {
  const on = clocksOn();
  const bottom = boardTurned() ? 'defenders' : 'attackers';
  const running = clockRuns() ? app.game.sideToMove() : null;
  for (const [id, side] of [['clock-bottom', bottom], ['clock-top', otherSide(bottom)]]) {
    const box = $(id);
    box.hidden = !on;
    if (!on) continue;
    const left = timeLeft(side);
    box.dataset.side = side;
    box.classList.toggle('running', running === side);
    box.classList.toggle('low', left < 10_000);
    box.classList.toggle('flagged', app.ending?.reason === 'time' && app.ending.winner !== side);
    box.querySelector('.clock-side').textContent = app.mode === 'play'
      ? (side === app.human ? `You (${SIDE_NAME[side].toLowerCase()})` : `Konakis (${SIDE_NAME[side].toLowerCase()})`)
      : SIDE_NAME[side];
    box.querySelector('.clock-time').textContent = clockText(left);
  }
}

function renderHint() {
  const box = $('hint-text');
  const h = app.hint;
  box.hidden = !h || !atPresent();
  delete box.dataset.move;
  if (!h) return;
  if (h.busy) {
    box.textContent = 'Looking for a good move…';
    return;
  }
  const texts = lineText(app.game.position(), h.line.slice(0, 6));
  box.dataset.move = h.move;
  writeMoves(box, ['Hint: ', texts.slice(0, 1), ...(texts.length > 1 ? [' (the line: ', texts, ')'] : [])]);
}

function updateState() {
  const root = $('app');
  root.dataset.mode = app.mode;
  let state;
  if (!app.engine) state = 'loading';
  else if (app.animating) state = 'engine';
  else if (outcome().over) state = 'over';
  else if (app.mode === 'play' && app.game.sideToMove() !== app.human) state = 'engine';
  else state = app.mode === 'analysis' ? 'analysis' : 'human';
  root.dataset.state = state;
  root.dataset.ply = String(shownPly());
  root.dataset.line = app.line === null ? 'main' : String(app.line);
}

function renderMoves() {
  const list = $('moves');
  list.dataset.start = app.game.start();
  const review = doneReview();
  const rows = [];
  const ply = shownPly();
  for (let i = 0; i < app.history.length; i += 2) {
    const li = document.createElement('li');
    const num = document.createElement('span');
    num.className = 'num';
    num.textContent = `${i / 2 + 1}.`;
    li.appendChild(num);
    for (const [k, h] of app.history.slice(i, i + 2).entries()) {
      const index = i + k + 1; // the position after this move
      const cell = document.createElement('button');
      cell.type = 'button';
      cell.className = 'ply';
      cell.dataset.move = h.move;
      cell.dataset.ply = String(index);
      cell.textContent = h.text;
      const verdict = review?.result.moves[index - 1]?.verdict;
      if (verdict) {
        cell.dataset.verdict = verdict;
        if (isMarked(verdict)) {
          const mark = document.createElement('span');
          mark.className = `mark ${verdict}`;
          mark.textContent = VERDICT[verdict].mark;
          mark.title = VERDICT[verdict].words;
          cell.appendChild(mark);
        }
      }
      if (index === ply && app.line === null) cell.classList.add('current');
      cell.addEventListener('click', () => goTo(index, null));
      li.appendChild(cell);
    }
    rows.push(li);
    // The variations that leave the game at these moves, under them.
    for (const [line, v] of app.variations.entries()) {
      if (v.from === i || v.from === i + 1) rows.push(variationRow(app.variations, line, { line: app.line, ply }, goTo));
    }
  }
  if (!app.history.length) {
    const li = document.createElement('li');
    li.className = 'empty';
    li.textContent = 'No moves yet.';
    rows.push(li);
  }
  list.replaceChildren(...rows);
  // The list scrolls itself to the move looked at (never the page: scrollIntoView would).
  const current = list.querySelector('.current');
  if (current) {
    const top = current.offsetTop; // the list is positioned: offsets are its own
    if (top < list.scrollTop) list.scrollTop = top;
    else if (top + current.offsetHeight > list.scrollTop + list.clientHeight) {
      list.scrollTop = top + current.offsetHeight - list.clientHeight;
    }
  } else if (atPresent()) list.scrollTop = list.scrollHeight;
}

function renderAnalysis() {
  const on = app.mode === 'analysis';
  $('analysis-card').hidden = !on;
  const bar = $('evalbar');
  const list = $('pv-lines');
  const ply = shownPly();
  if (!on) {
    // Out of analysis the bar shows the review's chances at the move looked at.
    const r = doneReview();
    const shares = r ? reviewShares(r.result) : [];
    bar.hidden = !r || app.line !== null || ply >= shares.length;
    if (!bar.hidden) {
      const m = ply > 0 ? r.result.moves[ply - 1] : r.result.moves[0];
      const ch = ply > 0 ? m.chances_after : m.chances_before;
      const chances = m.side === 'attackers'
        ? { attackers: ch.win, draw: ch.draw, defenders: ch.loss }
        : { attackers: ch.loss, draw: ch.draw, defenders: ch.win };
      bar.style.setProperty('--share', shares[ply].toFixed(3));
      const end = positionAt(ply).status;
      $('evalbar-text').textContent = end.over ? resultHeadline(end) : chancesText(chances, reviewMate(m, ply));
      $('evalbar-soldiers').textContent = '';
      bar.title = chancesLong(chances);
    }
    return;
  }
  bar.hidden = false;
  const status = positionAt(ply).status;
  if (status.over) {
    bar.style.setProperty('--share', status.winner === 'attackers' ? 1 : status.winner ? 0 : 0.5);
    $('evalbar-text').textContent = resultHeadline(status);
    $('evalbar-soldiers').textContent = '';
    $('analysis-depth').textContent = '';
    list.replaceChildren();
    return;
  }
  const a = app.analysis;
  const lines = a?.ply === ply && a.line === app.line ? a.lines.filter(Boolean) : [];
  if (!lines.length) {
    bar.style.setProperty('--share', 0.5);
    $('evalbar-text').textContent = '…';
    $('evalbar-soldiers').textContent = '';
    $('analysis-depth').textContent = '';
    const li = document.createElement('li');
    li.className = 'empty';
    li.textContent = 'Thinking…';
    list.replaceChildren(li);
    return;
  }
  const top = lines[0];
  const topView = attackersView(top.score, a.side);
  const topChances = top.wdl ? attackersChances(top.wdl, a.side) : null;
  bar.style.setProperty('--share', (topChances ? attackersShare(topChances) : barShare(topView)).toFixed(3));
  $('evalbar-text').textContent = topChances ? chancesText(topChances, topView) : scoreShort(topView);
  $('evalbar-soldiers').textContent = 'mate' in topView ? '' : scoreShort(topView);
  bar.title = topChances ? `${chancesLong(topChances)}; ${scoreLong(topView)}` : scoreLong(topView);
  $('analysis-depth').textContent = `depth ${top.depth}`;
  const fen = positionAt(ply).fen;
  list.replaceChildren(...lines.map((info) => {
    const v = attackersView(info.score, a.side);
    const chances = info.wdl ? attackersChances(info.wdl, a.side) : null;
    const li = document.createElement('li');
    li.className = 'pv-line';
    li.dataset.multipv = String(info.multipv);
    li.dataset.depth = String(info.depth);
    li.tabIndex = 0;
    const texts = lineText(fen, info.pv.slice(0, 12));
    li.title = `${chances ? `${chancesLong(chances)}; ` : ''}${scoreLong(v)}; depth ${info.depth}. Click to play ${texts[0]}.`;
    const score = document.createElement('span');
    score.className = `score ${'mate' in v ? 'mate' : ''}`;
    const words = document.createElement('span');
    words.className = 'chances';
    words.textContent = chances ? chancesText(chances, v) : scoreShort(v);
    const soldiers = document.createElement('small');
    soldiers.className = 'soldiers';
    soldiers.textContent = 'mate' in v ? scoreShort(v) : scoreShort(v);
    score.append(words, soldiers);
    const depth = document.createElement('span');
    depth.className = 'depth';
    depth.textContent = `d${info.depth}`;
    const pv = document.createElement('span');
    pv.className = 'pv';
    pv.dataset.moves = info.pv.join(' ');
    writeMoves(pv, [texts]);
    li.append(score, depth, pv);
    const play = () => {
      if (humanCanMove()) playMove(info.pv[0], { animate: true });
    };
    li.addEventListener('click', play);
    li.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' || e.key === ' ') {
        e.preventDefault();
        play();
      }
    });
    return li;
  }));
}

/** A forced result in a review's evaluation (the mover's) as attackersView gives it. */
function reviewMate(m, ply) {
  const e = ply > 0 ? m.after : m.before;
  if (!e || typeof e !== 'object' || !('mate' in e)) return null;
  const moverWins = e.mate > 0;
  const winner = moverWins ? m.side : otherSide(m.side);
  return { mate: winner, moves: Math.abs(e.mate) };
}

function renderReview() {
  const r = app.review;
  const card = $('review-card');
  const fits = r && reviewFits();
  // Only a review shows the card (the Review button's tooltip says what one is).
  card.hidden = !fits;
  $('review-start').textContent = fits && r.status === 'done' ? 'Review again' : 'Review';
  const progress = $('review-progress');
  const result = $('review-result');
  const state = $('review-state');
  card.dataset.status = fits ? r.status : 'none';
  if (!fits) {
    progress.hidden = true;
    result.hidden = true;
    state.textContent = '';
    return;
  }
  progress.hidden = r.status !== 'running';
  if (r.status === 'running') {
    $('review-bar').max = r.total;
    $('review-bar').value = r.done;
    state.textContent = `${r.done} of ${r.total} positions`;
  } else if (r.status === 'stopped') {
    state.textContent = 'stopped';
  } else if (r.status === 'failed') {
    state.textContent = `failed: ${r.error}`;
  } else {
    state.textContent = `${r.limit.toLocaleString('en')} nodes a position`;
  }
  result.hidden = r.status !== 'done';
  if (r.status !== 'done') return;
  const res = r.result;
  for (const side of ['attackers', 'defenders']) {
    const box = card.querySelector(`.side-accuracy[data-side="${side}"]`);
    const s = res[side];
    box.querySelector('.acc').textContent = s.accuracy === null ? '–' : `${Math.round(s.accuracy)} %`;
    const counts = [
      [s.blunders, 'blunder', 'blunders'], [s.mistakes, 'mistake', 'mistakes'],
      [s.inaccuracies, 'inaccuracy', 'inaccuracies'], [s.missed_wins, 'missed win', 'missed wins'],
      [s.allowed_losses, 'move into a forced loss', 'moves into a forced loss'],
    ].filter(([n]) => n > 0).map(([n, one, many]) => `${n} ${n === 1 ? one : many}`);
    box.querySelector('.counts').textContent = counts.length ? counts.join(' · ') : 'no marked moves';
  }
  const shares = reviewShares(res);
  const marks = res.moves.map((m, i) => ({ ply: i + 1, verdict: m.verdict })).filter((m) => isMarked(m.verdict));
  // In a variation the chart marks where it leaves the game.
  const gamePly = app.line === null ? shownPly() : app.variations[app.line].from;
  chart.render(shares, marks, Math.min(gamePly, shares.length - 1));
  const ply = shownPly();
  const m = reviewedMove(ply);
  const text = $('review-move');
  if (!m) {
    text.textContent = 'Click a move, or the chart, to see what the engine thinks of it.';
    delete text.dataset.verdict;
    return;
  }
  text.dataset.verdict = m.verdict;
  const played = app.history[ply - 1].text;
  const number = `${Math.ceil(ply / 2)}${ply % 2 ? '.' : '…'}`;
  const parts = [`${number} `, [`${played}${VERDICT[m.verdict].mark}`], `: ${VERDICT[m.verdict].words}`];
  if (m.verdict !== 'best' && m.best && m.best !== m.played) {
    const before = positionAt(ply - 1).fen;
    const line = lineText(before, m.line.slice(0, 6));
    parts.push('. Better was ', [line[0] ?? m.best], ...(line.length > 1 ? [' (the line: ', line, ')'] : []));
  }
  writeMoves(text, [...parts, '.']);
}

// ---------------------------------------------------------------- import / export

function playerNames() {
  if (app.mode !== 'play') return { attackers: 'Player', defenders: 'Player' };
  const engine = `${app.engine?.name ?? 'Konakis'} (level ${app.level})`;
  return app.human === 'attackers'
    ? { attackers: 'Player', defenders: engine }
    : { attackers: engine, defenders: 'Player' };
}

function exportOtg() {
  const text = app.game.otg({ compiler: 'Konakis reference board', ...playerNames() });
  $('otg').value = text;
  const link = $('download-otg');
  if (link.href.startsWith('blob:')) URL.revokeObjectURL(link.href);
  link.href = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
  link.hidden = false;
  ioMessage(`Record of ${app.history.length} plies written.`);
}

/** Finds the preset whose rules are exactly these, or null. */
function presetOf(rules) {
  const key = sortedJson(rules);
  return app.presets.find((p) => sortedJson(app.presetRules[p.id]) === key)?.id ?? null;
}

function setRulesSelect(id, rules) {
  const select = $('rules');
  select.querySelector('option[value="custom"]')?.remove();
  if (id) {
    app.rules = id;
    select.value = id;
  } else {
    app.rules = rules;
    const opt = new Option('Rules of the imported record', 'custom');
    select.add(opt);
    select.value = 'custom';
  }
  describeRules();
}

async function importOtg(text) {
  let game;
  try {
    game = Game.fromOtg(text);
  } catch (error) {
    if (!(error instanceof KonakisError)) throw error;
    ioMessage(`Not imported: ${error.message}`, true);
    return;
  }
  if (!(await mayDiscard('Importing a record'))) {
    game.free();
    return;
  }
  const rules = game.rules();
  setRulesSelect(presetOf(rules), rules);
  startFrom(game);
  ioMessage(`Imported a game of ${game.moves().length} plies; its review starts.`);
  startReview();
}

async function loadPosition() {
  const text = $('position').value.trim();
  let game;
  try {
    game = new Game({ rules: app.rules, position: text });
  } catch (error) {
    if (!(error instanceof KonakisError)) throw error;
    ioMessage(`Not loaded: ${error.message}`, true);
    return;
  }
  if (!(await mayDiscard('Loading a position'))) {
    game.free();
    return;
  }
  startFrom(game);
  ioMessage('Position loaded.');
}

async function copyPosition() {
  const input = $('position');
  try {
    await navigator.clipboard.writeText(input.value);
    ioMessage('Position copied.');
  } catch {
    input.focus();
    input.select();
    ioMessage('Copying is not allowed here: the text is selected, copy it with Ctrl+C.');
  }
}

// ---------------------------------------------------------------- set-up

function describeRules() {
  const preset = app.presets.find((p) => p.id === app.rules);
  $('rules-desc').textContent = preset
    ? preset.description.charAt(0).toUpperCase() + preset.description.slice(1)
    : Object.entries(app.rules).map(([k, v]) => `${k}=${v}`).join(' ');
}

/** The clock the select and the custom fields choose. */
function chosenClock() {
  const choice = $('clock').value;
  if (choice !== 'custom') {
    const [minutes, increment] = choice.split('+').map(Number);
    return { minutes, increment };
  }
  const minutes = Math.min(180, Math.max(0.1, Number($('clock-minutes').value) || 5));
  const increment = Math.min(60, Math.max(0, Math.round(Number($('clock-increment').value) || 0)));
  return { minutes, increment };
}

function clockChanged() {
  app.clockChoice = $('clock').value;
  app.clock = chosenClock();
  // Before the first move the new clock applies at once; later, from the next game.
  if (app.history.length === 0) {
    app.gameClock = app.clock.minutes > 0 ? { ...app.clock } : null;
    app.times = app.gameClock
      ? { attackers: app.gameClock.minutes * 60_000, defenders: app.gameClock.minutes * 60_000 }
      : null;
  }
  save();
  render();
}

function wire() {
  for (const radio of document.querySelectorAll('input[name="mode"]')) {
    radio.addEventListener('change', () => {
      app.mode = radio.value;
      if (app.mode !== 'analysis') {
        app.ply = null;
        app.line = null;
      }
      // The clock of the side to move starts afresh when the clocks come back on.
      app.turnStarted = performance.now();
      changed();
    });
  }
  $('side').addEventListener('change', (e) => changeSide(e.target.value));
  $('level').addEventListener('change', (e) => {
    app.level = Number(e.target.value);
    save();
    render();
  });
  $('limit').addEventListener('change', (e) => {
    app.limit = e.target.value;
    save();
  });
  $('clock').addEventListener('change', clockChanged);
  $('clock-minutes').addEventListener('change', clockChanged);
  $('clock-increment').addEventListener('change', clockChanged);
  $('rules').addEventListener('change', async (e) => {
    const id = e.target.value;
    if (id === 'custom') return;
    if (!(await mayDiscard('Changing the rules'))) {
      e.target.value = typeof app.rules === 'string' ? app.rules : 'custom';
      return;
    }
    setRulesSelect(id);
    newGame();
  });
  $('new').addEventListener('click', async () => {
    if (await mayDiscard('A new game')) newGame();
  });
  $('swap').addEventListener('click', () => changeSide(otherSide(app.human)));
  $('takeback').addEventListener('click', takeBack);
  $('resign').addEventListener('click', async () => {
    if (outcome().over) return;
    const loser = app.mode === 'play' ? app.human : app.game.sideToMove();
    const who = app.mode === 'play' ? 'you' : `the ${loser}`;
    if (!(await ask(`Resign this game? It counts as a win for the ${otherSide(loser)}; ${who} lose.`, 'Resign'))) return;
    if (!outcome().over) endGame({ winner: otherSide(loser), reason: 'resign' });
  });
  $('hint').addEventListener('click', hint);
  $('review-start').addEventListener('click', startReview);
  $('review-stop').addEventListener('click', stopReview);
  $('nav-first').addEventListener('click', () => goTo(0, null));
  $('nav-prev').addEventListener('click', () => goTo(shownPly() - 1));
  $('nav-next').addEventListener('click', () => goTo(shownPly() + 1));
  $('nav-last').addEventListener('click', () => goTo(app.history.length, null));
  $('return').addEventListener('click', () => goTo(app.history.length, null));
  $('flip').addEventListener('click', () => {
    app.flipped = !app.flipped;
    save();
    render();
  });
  // The arrow keys step through the moves wherever the focus is (as on a chess site), but for
  // the fields and the board in cursor mode (the board prevents the keys it takes).
  document.addEventListener('keydown', (e) => {
    if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.target.closest?.('input, select, textarea, dialog')) return;
    // Left and right along the line looked at; Home and End to the game's start and present.
    const steps = {
      ArrowLeft: [shownPly() - 1, app.line], ArrowRight: [shownPly() + 1, app.line],
      Home: [0, null], End: [app.history.length, null],
    };
    if (!(e.key in steps)) return;
    e.preventDefault();
    goTo(...steps[e.key]);
  });
  $('load-pos').addEventListener('click', loadPosition);
  $('position').addEventListener('keydown', (e) => {
    if (e.key === 'Enter') loadPosition();
  });
  $('copy-pos').addEventListener('click', copyPosition);
  $('export-otg').addEventListener('click', exportOtg);
  $('import-otg').addEventListener('click', () => importOtg($('otg').value));
  $('otg-file').addEventListener('change', async (e) => {
    const file = e.target.files[0];
    if (!file) return;
    const text = await file.text();
    $('otg').value = text;
    importOtg(text);
    e.target.value = '';
  });
  addEventListener('pagehide', save);
  setInterval(tick, 100);
}

async function main() {
  await init();
  app.presets = presets();
  app.levels = levels();
  for (const p of app.presets) {
    const g = new Game({ rules: p.id });
    app.presetRules[p.id] = g.rules();
    g.free();
    $('rules').add(new Option(p.name, p.id));
  }
  for (const l of app.levels.levels) $('level').add(new Option(levelLabel(l), String(l.level)));
  view = new BoardView($('board'), {
    onSquare, canDrag, onDrop, isSelected: (sq) => app.selected === sq,
  });
  chart = new Chart($('chart'), (ply) => goTo(ply, null));
  setUpNewcomer({
    levels: app.levels,
    sound,
    onLevel: (level) => {
      app.level = level;
      save();
      render();
    },
  });
  wire();
  const saved = loadSaved();
  if (saved) applySettings(saved.settings);
  if (saved?.game) {
    const rules = saved.game.rules();
    setRulesSelect(presetOf(rules), rules);
    const g = saved.saved;
    const review = g.review && g.review.status === 'done' && g.review.result ? g.review : null;
    startFrom(saved.game, {
      restore: {
        ending: g.ending ?? null, gameClock: g.gameClock ?? null, times: g.times ?? null, review,
        variations: g.variations,
      },
    });
  } else {
    setRulesSelect(typeof app.rules === 'string' ? app.rules : null, app.rules);
    startFrom(new Game({ rules: app.rules }));
  }
  app.engine = await EngineClient.start();
  $('engine-info').textContent = `Engine: ${app.engine.name}; stop: ${app.engine.stopMode === 'shared'
    ? 'shared flag (cross-origin isolated)' : 'restart'}.`;
  app.turnStarted = performance.now();
  changed();
}

main().catch((error) => {
  console.error(error);
  $('turn-text').textContent = `The board could not start: ${error.message}`;
});
