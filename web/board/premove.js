// A move entered while the engine thinks (a premove, as chess sites have it): kept until the
// engine has replied, then played at once if it is legal, dropped if not. The page decides
// when a premove may be entered and draws it; this module keeps it and finds where a piece
// may go.
import { Game, KonakisError } from './konakis/index.js';

export class Premove {
  /** The move ('d1d3'), or null. */
  move = null;
  /** The number of moves in the game when it was entered (the engine to move). */
  ply = 0;

  set(move, ply) {
    this.move = move;
    this.ply = ply;
  }

  clear() {
    this.move = null;
  }

  /** Is the premove still waiting for the engine's reply in a game of `length` moves? */
  waiting(length) {
    return this.move !== null && this.ply === length;
  }

  /**
   * The premove, taken (cleared), once the engine has replied to the move it was entered
   * after, in a game of `length` moves now; else null.
   */
  takeAfterReply(length) {
    if (this.move === null || this.ply + 1 !== length) return null;
    const move = this.move;
    this.move = null;
    return move;
  }
}

/**
 * Where the piece on `square` could go if its side were to move in `position` (a position
 * string) under `rules`: the squares a premove offers, as the rules see them now. After the
 * engine's reply the move is checked again.
 */
export function premoveTargets(rules, position, square) {
  const parts = position.trim().split(/\s+/);
  parts[1] = parts[1] === 'b' ? 'w' : 'b';
  let game;
  try {
    game = new Game({ rules, position: parts.join(' ') });
  } catch (error) {
    if (error instanceof KonakisError) return [];
    throw error;
  }
  try {
    return game.legalMoves(square).map((m) => m.slice(2));
  } finally {
    game.free();
  }
}
