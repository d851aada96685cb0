// Pure helpers for what the board shows: scores, moves, results. No DOM, no engine.

/** The two sides, as the rules API names them, and how the board names them to people. */
export const SIDE_NAME = { attackers: 'Attackers', defenders: 'Defenders' };

export function otherSide(side) {
  return side === 'attackers' ? 'defenders' : 'attackers';
}

/** The side to move in a position string (`<placement> <b|w> [<plies>]`). */
export function sideOfPosition(position) {
  return position.trim().split(/\s+/)[1] === 'w' ? 'defenders' : 'attackers';
}

/** `d1d3` -> ['d1', 'd3']. */
export function splitMove(move) {
  return [move.slice(0, 2), move.slice(2)];
}

/**
 * Turns an engine score (from the side to move's view, as protocol.md gives it) into the
 * attackers' view, which is the one view the board shows everywhere: positive is good for
 * the attackers. `mate N` becomes { mate: winner, moves: |N| }.
 */
export function attackersView(score, sideToMove) {
  const sign = sideToMove === 'attackers' ? 1 : -1;
  if ('mate' in score) {
    const moverWins = score.mate > 0;
    const winner = moverWins === (sideToMove === 'attackers') ? 'attackers' : 'defenders';
    return { mate: winner, moves: Math.abs(score.mate) };
  }
  return { cp: sign * score.cp };
}

/** Short text of a score in the attackers' view: `+1.25` soldiers, or `#3` / `#-3`. */
export function scoreShort(view) {
  if ('mate' in view) return view.mate === 'attackers' ? `#${view.moves}` : `#-${view.moves}`;
  const soldiers = view.cp / 100;
  const text = Math.abs(soldiers).toFixed(2);
  if (view.cp === 0) return '0.00';
  return (view.cp > 0 ? '+' : '\u2212') + text;
}

/** Long text of a score, for tooltips and screen readers. */
export function scoreLong(view) {
  if ('mate' in view) {
    const who = view.mate === 'attackers' ? 'the attackers win' : 'the defenders win';
    return `${who} in ${view.moves} move${view.moves === 1 ? '' : 's'} (mate in ${view.moves})`;
  }
  if (view.cp === 0) return 'level';
  const who = view.cp > 0 ? 'attackers' : 'defenders';
  return `${(Math.abs(view.cp) / 100).toFixed(2)} soldiers better for the ${who}`;
}

/**
 * The share of the evaluation bar that belongs to the attackers, 0..1. A logistic curve, so
 * that a few soldiers' worth fills most of it; a forced result fills it entirely.
 */
export function barShare(view) {
  if ('mate' in view) return view.mate === 'attackers' ? 1 : 0;
  return 1 / (1 + Math.exp(-view.cp / 350));
}

/** What each end reason is called on the board. */
export const REASON_TEXT = {
  escape: 'the king escaped to the edge',
  capture: 'the king was captured',
  encirclement: 'the defenders are encircled',
  'no-move': 'no legal move left',
  repetition: 'the same position came up again',
  'move-limit': 'the move limit was reached',
};

/** A headline for a finished game: "Defenders win" / "Draw". */
export function resultHeadline(status) {
  if (!status.winner) return 'Draw';
  return `${SIDE_NAME[status.winner]} win`;
}

/**
 * A finished game as the page tells it. `status` is the rules' status, or a resignation or a
 * loss on time (reason `resign` / `time`); `human` is the side of the player against the
 * engine, or null when nobody plays one side (two players, analysis). `outcome` is `won` or
 * `lost` for the player, `draw`, or `neutral` (a win with no player's side); `headline`
 * "You won", "You lost", "Defenders win", "Draw"; `how` the way it ended.
 */
export function resultText(status, human = null) {
  const how = howItEnded(status, human);
  if (!status.winner) return { outcome: 'draw', headline: 'Draw', how };
  if (!human) return { outcome: 'neutral', headline: resultHeadline(status), how };
  const won = status.winner === human;
  return { outcome: won ? 'won' : 'lost', headline: won ? 'You won' : 'You lost', how };
}

/** How a game ended, in words, naming the loser where the reason is theirs: "you resigned",
 * "Konakis had no legal move left", "the king escaped to the edge". */
function howItEnded(status, human) {
  const loser = status.winner ? otherSide(status.winner) : null;
  const who = (side) => {
    if (!human) return `the ${side}`;
    return side === human ? 'you' : 'Konakis';
  };
  if (status.reason === 'resign') return `${who(loser)} resigned`;
  if (status.reason === 'time') return `${who(loser)} ran out of time`;
  if (status.reason === 'no-move' && loser) return `${who(loser)} had no legal move left`;
  return REASON_TEXT[status.reason] ?? status.text;
}

/**
 * A move as the record writes it (OpenTafl's full notation, as `konakis` writes records):
 * `K` before a king's move, the squares joined by `-`, then the captured squares after `x`,
 * separated by `/`, a captured king with his `K`: `d1-d3`, `Ke5-c5`, `c4-c2xb2/d2`,
 * `a6-e6xKe7`. `piece` is what moved; `captured` maps each taken square to what stood there.
 */
export function recordMove(move, piece, captured = {}) {
  const king = piece === 'king' ? 'K' : '';
  const taken = Object.entries(captured).map(([sq, kind]) => (kind === 'king' ? `K${sq}` : sq));
  return `${king}${move.slice(0, 2)}-${move.slice(2)}${taken.length ? `x${taken.join('/')}` : ''}`;
}

/**
 * The chances from the attackers' side, per mille: `wdl` is the engine's `{win, draw, loss}`
 * for the side to move (protocol.md, `UCI_ShowWDL`).
 */
export function attackersChances(wdl, sideToMove) {
  return sideToMove === 'attackers'
    ? { attackers: wdl.win, draw: wdl.draw, defenders: wdl.loss }
    : { attackers: wdl.loss, draw: wdl.draw, defenders: wdl.win };
}

/** The attackers' expected score, 0..1: their win chance plus half the draw chance. */
export function attackersShare(chances) {
  return (chances.attackers + chances.draw / 2) / 1000;
}

/** A per mille chance as a whole percentage, never 0 or 100 unless certain. */
function percent(permille) {
  const p = Math.round(permille / 10);
  if (p === 0 && permille > 0) return 1;
  if (p === 100 && permille < 1000) return 99;
  return p;
}

/**
 * Who is winning, in words a player reads: "Attackers 82 %" (the favourite's chance of a
 * win), "Even" when neither side is ahead, or "Attackers win in 3" for a forced result
 * (`view` from attackersView).
 */
export function chancesText(chances, view = null) {
  if (view && 'mate' in view) return `${SIDE_NAME[view.mate]} win in ${view.moves}`;
  const lead = chances.attackers >= chances.defenders ? 'attackers' : 'defenders';
  if (Math.abs(chances.attackers - chances.defenders) < 20 && chances.draw < 500) return 'Even';
  if (chances.draw > chances[lead]) return `Draw ${percent(chances.draw)} %`;
  return `${SIDE_NAME[lead]} ${percent(chances[lead])} %`;
}

/** The long form of the chances, for tooltips: "attackers win 82 %, draw 3 %, defenders win 15 %". */
export function chancesLong(chances) {
  return `attackers win ${percent(chances.attackers)} %, draw ${percent(chances.draw)} %, `
    + `defenders win ${percent(chances.defenders)} %`;
}

/** A clock's time: `4:05`, under ten seconds `7.3`, never below 0. */
export function clockText(ms) {
  const t = Math.max(0, ms);
  if (t < 10_000) return (Math.floor(t / 100) / 10).toFixed(1);
  const s = Math.ceil(t / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/** The marks of the review's verdicts (docs/review.md) in the move list, and their words. */
export const VERDICT = {
  best: { mark: '', words: 'the best move' },
  good: { mark: '', words: 'a good move' },
  inaccuracy: { mark: '?!', words: 'an inaccuracy' },
  mistake: { mark: '?', words: 'a mistake' },
  blunder: { mark: '??', words: 'a blunder' },
  'missed-win': { mark: '??', words: 'a missed win' },
  'allows-loss': { mark: '??', words: 'a move that lets a forced loss in' },
};

/** Whether a verdict is marked (and its better move shown). */
export function isMarked(verdict) {
  return VERDICT[verdict]?.mark !== '' && verdict in VERDICT;
}

/** The result of a game ended by resignation or on time: who lost, in words (`human` as for
 * resultText). */
export function endingText(ending, human = null) {
  return howItEnded(ending, human);
}
