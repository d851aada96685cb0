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

/** `d1d3` -> `d1–d3`, for reading. */
export function showMove(move) {
  return `${move.slice(0, 2)}\u2013${move.slice(2)}`;
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
