// The reference board: a Tablut game against Konakis, or an analysis of any position, driven
// only through the konakis package — the rules API for the board (legal moves, playing,
// the result, records) and the engine's line protocol for thinking.
import { init, Game, presets, KonakisError } from './konakis/index.js';
import { EngineClient } from './engine-client.js';
import { BoardView } from './view.js';
import {
  SIDE_NAME, REASON_TEXT, otherSide, sideOfPosition, showMove, splitMove,
  attackersView, scoreShort, scoreLong, barShare, resultHeadline,
} from './format.js';

const $ = (id) => document.getElementById(id);

const app = {
  /** @type {Game} */ game: null,
  rules: 'original',        // a preset id, or an option map (from an imported record)
  defaultStart: '',         // the start position of these rules (sent as `position startpos`)
  mode: 'play',             // 'play' | 'analysis'
  human: 'attackers',
  level: 'movetime 1000',
  selected: null,
  targets: [],
  lastMove: null,
  captured: [],
  capturedPieces: {},
  version: 0,               // bumped by every change of the game: older answers are dropped
  animating: false,
  thinking: false,
  /** @type {EngineClient|null} */ engine: null,
  analysis: null,           // { version, side, lines: InfoLine[] }
  presets: [],
  presetRules: {},          // preset id -> its full option map
};

let view;

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

// ---------------------------------------------------------------- the game

function startFrom(game) {
  app.game?.free();
  app.game = game;
  const fresh = new Game({ rules: game.rules() });
  app.defaultStart = fresh.start();
  fresh.free();
  const moves = game.moves();
  app.lastMove = moves.length ? moves[moves.length - 1] : null;
  app.captured = [];
  app.capturedPieces = {};
  app.analysis = null;
  app.engine?.newGame();
  view.setSpecial(game.special());
  changed();
}

function newGame() {
  startFrom(new Game({ rules: app.rules }));
  announce(`New game. You play the ${app.human}.`);
}

function humanCanMove() {
  if (!app.engine || app.animating || app.game.status().over) return false;
  return app.mode === 'analysis' || app.game.sideToMove() === app.human;
}

function canTakeBack() {
  const n = app.game.moves().length;
  if (app.mode === 'analysis') return n > 0;
  const humanStarted = sideOfPosition(app.game.start()) === app.human;
  return n >= (humanStarted ? 1 : 2);
}

function takeBack() {
  if (!canTakeBack() || app.animating) return;
  if (app.mode === 'analysis') {
    app.game.undo();
  } else {
    // The player's last move and the engine's reply to it (or just the player's move when
    // the engine has not answered yet, or the game ended with it).
    while (app.game.undo() !== null && app.game.sideToMove() !== app.human);
  }
  const moves = app.game.moves();
  app.lastMove = moves.length ? moves[moves.length - 1] : null;
  app.captured = [];
  announce('Move taken back.');
  changed();
}

async function playMove(move, { animate }) {
  const version = app.version;
  const before = app.game.pieces();
  const [from, to] = splitMove(move);
  app.selected = null;
  app.targets = [];
  if (animate) {
    app.animating = true;
    render();
    await view.animate(from, to);
    app.animating = false;
    if (version !== app.version) return;
  }
  let captured;
  try {
    ({ captured } = app.game.play(move));
  } catch (error) {
    if (!(error instanceof KonakisError)) throw error;
    console.error(`the board refused ${move}: ${error.message}`);
    render();
    return;
  }
  app.lastMove = move;
  app.captured = captured;
  app.capturedPieces = Object.fromEntries(captured.map((sq) => [sq, before[sq]]));
  const who = pieceSide(before[from]);
  const took = captured.length ? `, taking ${captured.join(' ')}` : '';
  announce(`${SIDE_NAME[who]} ${showMove(move)}${took}.`);
  changed();
}

function onSquare(square) {
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
  const kind = app.game.pieces()[square];
  if (kind && pieceSide(kind) === app.game.sideToMove() && app.selected !== square) {
    app.selected = square;
    app.targets = app.game.legalMoves(square).map((m) => m.slice(2));
    announce(app.targets.length
      ? `Picked ${square}; it can go to ${app.targets.join(', ')}.`
      : `The piece on ${square} cannot move.`);
  } else {
    app.selected = null;
    app.targets = [];
  }
  render();
}

/** After any change of the game: redraw, then let the engine play or analyse. */
function changed() {
  app.version++;
  app.selected = null;
  app.targets = [];
  render();
  if (!app.engine) return;
  const over = app.game.status().over;
  if (app.mode === 'play') {
    app.analysis = null;
    if (!over && app.game.sideToMove() !== app.human) engineMove();
    else app.engine.cancel();
  } else if (!over) {
    analyse();
  } else {
    app.analysis = null;
    app.engine.cancel();
    renderAnalysis();
  }
}

function positionCommand() {
  const start = app.game.start();
  const moves = app.game.moves();
  const base = start === app.defaultStart ? 'position startpos' : `position fen ${start}`;
  return moves.length ? `${base} moves ${moves.join(' ')}` : base;
}

// ---------------------------------------------------------------- the engine

async function engineMove() {
  const version = app.version;
  const side = app.game.sideToMove();
  setThinking(true, '');
  let answer = null;
  try {
    answer = await app.engine.search({
      rules: app.game.rules(),
      multiPV: 1,
      position: positionCommand(),
      go: `go ${app.level}`,
      onInfo: (info) => {
        if (version !== app.version || info.multipv !== 1) return;
        const score = attackersView(info.score, side);
        setThinking(true, `depth ${info.depth} · ${scoreShort(score)}`);
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
  const side = app.game.sideToMove();
  app.analysis = { version, side, lines: [] };
  renderAnalysis();
  try {
    await app.engine.search({
      rules: app.game.rules(),
      multiPV: 3,
      position: positionCommand(),
      go: 'go infinite',
      onInfo: (info) => {
        if (version !== app.version || !app.analysis || !info.pv.length) return;
        const slot = info.multipv - 1;
        // A bound is only a bound: keep the last exact line unless there is none yet.
        if (info.bound && app.analysis.lines[slot]) return;
        app.analysis.lines[slot] = info;
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
  });
}

// ---------------------------------------------------------------- drawing

function render() {
  const g = app.game;
  const status = g.status();
  const best = app.mode === 'analysis' ? app.analysis?.lines[0]?.pv[0] ?? null : null;
  const pieces = g.pieces();
  view.render({
    pieces,
    selected: app.selected,
    targets: app.targets,
    lastMove: app.lastMove,
    captured: app.captured,
    capturedPieces: app.capturedPieces,
    arrow: status.over ? null : best,
    king: kingFate(pieces, status),
  });
  app.captured = []; // the taken pieces fade out once, not again at the next redraw

  const side = g.sideToMove();
  const turn = $('turn');
  turn.dataset.side = status.over ? 'none' : side;
  let text;
  if (status.over) text = 'Game over';
  else if (app.mode === 'analysis') text = `${SIDE_NAME[side]} to move`;
  else if (side === app.human) text = `${SIDE_NAME[side]} to move — your move`;
  else text = `${SIDE_NAME[side]} to move — Konakis`;
  if (app.engine) $('turn-text').textContent = text;

  const result = $('result');
  result.hidden = !status.over;
  if (status.over) {
    result.dataset.reason = status.reason;
    result.dataset.winner = status.winner ?? 'draw';
    $('result-headline').textContent = resultHeadline(status);
    $('result-reason').textContent = REASON_TEXT[status.reason] ?? status.text;
    $('result-reason').title = status.text;
  }

  const lines = status.over ? 0 : g.kingOpenLines();
  const king = $('king-lines');
  king.hidden = lines === 0;
  king.dataset.lines = String(lines);
  king.textContent = lines === 1 ? 'Raichi! The king has an open line to the edge'
    : `Tuichu! The king has ${lines} open lines to the edge`;

  renderMoves();
  const count = (kind) => Object.values(pieces).filter((k) => k === kind).length;
  $('material').textContent = `${count('attacker')} attackers · ${count('defender')} defenders`;
  const pos = $('position');
  if (document.activeElement !== pos) pos.value = g.position();
  $('takeback').disabled = !canTakeBack();
  renderAnalysis();
  updateState();
}

/** The king's square ringed at the end: he escaped there, or was captured there. */
function kingFate(pieces, status) {
  if (!status.over || (status.reason !== 'escape' && status.reason !== 'capture')) return null;
  // A captured king is off the board: he fell where the last move took him.
  const where = status.reason === 'escape' ? pieces : app.capturedPieces;
  const square = Object.keys(where).find((sq) => where[sq] === 'king');
  return square ? { square, kind: status.reason === 'escape' ? 'won' : 'lost' } : null;
}

function updateState() {
  const root = $('app');
  root.dataset.mode = app.mode;
  let state;
  if (!app.engine) state = 'loading';
  else if (app.game.status().over) state = 'over';
  else if (app.animating || (app.mode === 'play' && app.game.sideToMove() !== app.human)) state = 'engine';
  else state = app.mode === 'analysis' ? 'analysis' : 'human';
  root.dataset.state = state;
}

function renderMoves() {
  const list = $('moves');
  list.dataset.start = app.game.start();
  const moves = app.game.moves();
  const rows = [];
  for (let i = 0; i < moves.length; i += 2) {
    const li = document.createElement('li');
    const num = document.createElement('span');
    num.className = 'num';
    num.textContent = `${i / 2 + 1}.`;
    li.appendChild(num);
    for (const move of moves.slice(i, i + 2)) {
      const ply = document.createElement('span');
      ply.className = 'ply';
      ply.dataset.move = move;
      ply.textContent = showMove(move);
      li.appendChild(ply);
    }
    rows.push(li);
  }
  if (!moves.length) {
    const li = document.createElement('li');
    li.className = 'empty';
    li.textContent = 'No moves yet.';
    rows.push(li);
  }
  const last = rows[rows.length - 1].querySelector('.ply:last-child');
  last?.classList.add('current');
  list.replaceChildren(...rows);
  list.scrollTop = list.scrollHeight;
}

function renderAnalysis() {
  const on = app.mode === 'analysis';
  $('analysis-card').hidden = !on;
  $('evalbar').hidden = !on;
  if (!on) return;
  const bar = $('evalbar');
  const list = $('pv-lines');
  const status = app.game.status();
  if (status.over) {
    bar.style.setProperty('--share', status.winner === 'attackers' ? 1 : status.winner ? 0 : 0.5);
    $('evalbar-text').textContent = resultHeadline(status);
    $('analysis-depth').textContent = '';
    list.replaceChildren();
    return;
  }
  const a = app.analysis;
  const lines = (a?.lines ?? []).filter(Boolean);
  if (!lines.length) {
    bar.style.setProperty('--share', 0.5);
    $('evalbar-text').textContent = '…';
    $('analysis-depth').textContent = '';
    const li = document.createElement('li');
    li.className = 'empty';
    li.textContent = 'Thinking…';
    list.replaceChildren(li);
    return;
  }
  const top = attackersView(lines[0].score, a.side);
  bar.style.setProperty('--share', barShare(top).toFixed(3));
  $('evalbar-text').textContent = 'mate' in top
    ? `${scoreShort(top)}: ${top.mate} mate in ${top.moves}` : scoreShort(top);
  bar.title = scoreLong(top);
  $('analysis-depth').textContent = `depth ${lines[0].depth}`;
  list.replaceChildren(...lines.map((info) => {
    const view = attackersView(info.score, a.side);
    const li = document.createElement('li');
    li.className = 'pv-line';
    li.dataset.multipv = String(info.multipv);
    li.dataset.depth = String(info.depth);
    li.tabIndex = 0;
    li.title = `${scoreLong(view)}; depth ${info.depth}. Click to play ${showMove(info.pv[0])}.`;
    const score = document.createElement('span');
    score.className = `score ${'mate' in view ? 'mate' : ''}`;
    score.textContent = scoreShort(view);
    const depth = document.createElement('span');
    depth.className = 'depth';
    depth.textContent = `d${info.depth}`;
    const pv = document.createElement('span');
    pv.className = 'pv';
    pv.textContent = info.pv.slice(0, 12).map(showMove).join(' ');
    li.append(score, depth, pv);
    const play = () => {
      if (humanCanMove() && app.game.legalMoves().includes(info.pv[0])) playMove(info.pv[0], { animate: true });
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
  const best = lines[0].pv[0];
  if (view.svg.querySelector('#best-arrow')?.dataset.move !== best) view.setArrow(best);
}

// ---------------------------------------------------------------- import / export

function playerNames() {
  if (app.mode === 'analysis') return { attackers: 'Analysis', defenders: 'Analysis' };
  const engine = `${app.engine?.name ?? 'Konakis'} (${app.level})`;
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
  ioMessage(`Record of ${app.game.moves().length} plies written.`);
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

function importOtg(text) {
  let game;
  try {
    game = Game.fromOtg(text);
  } catch (error) {
    if (!(error instanceof KonakisError)) throw error;
    ioMessage(`Not imported: ${error.message}`, true);
    return;
  }
  const rules = game.rules();
  setRulesSelect(presetOf(rules), rules);
  startFrom(game);
  ioMessage(`Imported a game of ${game.moves().length} plies.`);
}

function loadPosition() {
  const text = $('position').value.trim();
  let game;
  try {
    game = new Game({ rules: app.rules, position: text });
  } catch (error) {
    if (!(error instanceof KonakisError)) throw error;
    ioMessage(`Not loaded: ${error.message}`, true);
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

function wire() {
  for (const radio of document.querySelectorAll('input[name="mode"]')) {
    radio.addEventListener('change', () => {
      app.mode = radio.value;
      $('side-field').classList.toggle('dim', app.mode === 'analysis');
      $('level-field').classList.toggle('dim', app.mode === 'analysis');
      changed();
    });
  }
  $('side').addEventListener('change', (e) => {
    app.human = e.target.value;
    announce(`You play the ${app.human}.`);
    changed();
  });
  $('level').addEventListener('change', (e) => {
    app.level = e.target.value;
  });
  $('rules').addEventListener('change', (e) => {
    if (e.target.value === 'custom') return;
    setRulesSelect(e.target.value);
    newGame();
  });
  $('new').addEventListener('click', newGame);
  $('swap').addEventListener('click', () => {
    app.human = otherSide(app.human);
    $('side').value = app.human;
    newGame();
  });
  $('takeback').addEventListener('click', takeBack);
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
}

async function main() {
  await init();
  app.presets = presets();
  for (const p of app.presets) {
    const g = new Game({ rules: p.id });
    app.presetRules[p.id] = g.rules();
    g.free();
    $('rules').add(new Option(p.name, p.id));
  }
  app.level = $('level').value;
  app.human = $('side').value;
  view = new BoardView($('board'), onSquare);
  wire();
  setRulesSelect('original');
  startFrom(new Game({ rules: app.rules }));
  app.engine = await EngineClient.start();
  $('engine-info').textContent = `Engine: ${app.engine.name}; stop: ${app.engine.stopMode === 'shared'
    ? 'shared flag (cross-origin isolated)' : 'restart'}.`;
  changed();
}

main().catch((error) => {
  console.error(error);
  $('turn-text').textContent = `The board could not start: ${error.message}`;
});
