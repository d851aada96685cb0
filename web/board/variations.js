// Variations: moves tried in analysis from an earlier position of the game, kept beside the
// game (its main line) instead of replacing its moves, and shown in the move list as a chess
// site shows them: indented, in parentheses, each move clickable.
//
// A variation is { from, moves }: it leaves the main line after its first `from` moves (its
// first move is another choice for the main line's move `from + 1`), and `moves` are its
// moves as the move list keeps them ({ move, side, text, ... }). A move played inside a
// variation, away from its end, starts another variation from the same place that repeats
// the moves before it. A line is null (the main line) or the index of a variation.

/** The moves of a line: the main line, or the game's first `from` moves and a variation's. */
export function lineEntries(history, variations, line) {
  if (line === null) return history;
  const v = variations[line];
  return [...history.slice(0, v.from), ...v.moves];
}

/**
 * Where `move`, played at the position after `ply` moves of `line`, goes:
 * - { kind: 'follow', line, ply }: a line already has it there; the board goes on along it;
 * - { kind: 'end' }: at the end of the line looked at; it extends that line;
 * - { kind: 'new', from, prefix }: a new variation, leaving the main line after `from` moves,
 *   whose moves are `prefix` and then the move.
 */
export function placeMove(history, variations, line, ply, move) {
  const entries = lineEntries(history, variations, line);
  if (ply === entries.length) return { kind: 'end' };
  const before = entries.slice(0, ply).map((e) => e.move);
  const lines = [null, ...variations.keys()];
  for (const other of lines) {
    const theirs = lineEntries(history, variations, other);
    if (theirs.length > ply && theirs[ply].move === move
      && before.every((m, i) => theirs[i].move === m)) {
      return { kind: 'follow', line: other, ply: ply + 1 };
    }
  }
  const from = line === null ? ply : variations[line].from;
  return { kind: 'new', from, prefix: entries.slice(from, ply) };
}

/** The variations that hang on the main line's first `length` moves (the others lose the
 * move they leave from when the main line is cut back to `length` moves). */
export function variationsWithin(variations, length) {
  return variations.filter((v) => v.from < length);
}

/**
 * The move list's row of variation `line`: "(3… d4-d6 4. e1-e3)", each move a button with
 * `data-move`, `data-ply` (the moves of the position after it) and `data-line`; the move
 * looked at has the class `current`. `go(ply, line)` is called with a clicked move's place.
 */
export function variationRow(variations, line, current, go) {
  const v = variations[line];
  const li = document.createElement('li');
  li.className = 'variation';
  li.dataset.line = String(line);
  li.append('(');
  for (const [k, e] of v.moves.entries()) {
    const index = v.from + k; // the move's place in the game, from 0
    const number = Math.floor(index / 2) + 1;
    if (index % 2 === 0) li.append(`${k ? ' ' : ''}${number}.`);
    else if (k === 0) li.append(`${number}\u2026`);
    li.append(' ');
    const cell = document.createElement('button');
    cell.type = 'button';
    cell.className = 'vply';
    cell.dataset.move = e.move;
    cell.dataset.ply = String(index + 1);
    cell.dataset.line = String(line);
    cell.textContent = e.text;
    if (current.line === line && current.ply === index + 1) cell.classList.add('current');
    cell.addEventListener('click', () => go(index + 1, line));
    li.append(cell);
  }
  li.append(')');
  return li;
}
