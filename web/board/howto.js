// How the game is won and how pieces are taken, in three lines for a newcomer, written from
// the rule options of the game on the board (the package's `rules()` map), so that they
// change with the rules chosen. docs/rules.md is the full text.

const on = (value) => String(value).toLowerCase() === 'true';
const is = (value, word) => String(value).toLowerCase() === word.toLowerCase();

/**
 * Three sentences: how each side wins, how pieces move and soldiers are taken, how the king
 * is taken. `rules` is an option map ({ Ruleset: 'Linnaeus', KingCapture: 'Original', ... }).
 * @returns {{ win: string, capture: string, king: string }}
 */
export function howToPlay(rules) {
  if (is(rules.Ruleset, 'Ashton')) {
    return {
      win: 'The defenders (light) win when the king reaches an edge square outside the camps; '
        + 'the attackers (dark) win by capturing the king. A position that comes back is a draw.',
      capture: 'The defenders move first. Every piece moves like a rook in chess, along a row '
        + 'or column over empty squares, never onto the throne or into a camp (an attacker may '
        + 'leave its own). A soldier is taken when a move closes it in between two enemies in '
        + 'line; the throne and the camps count as enemies.',
      king: 'The king is taken by four attackers on the throne, three beside it (the throne '
        + 'the fourth), and anywhere else by two in line; a camp beyond him counts as one.',
    };
  }
  const first = is(rules.FirstMove, 'Defenders') ? 'The defenders move first.' : 'The attackers move first.';
  const partners = [];
  if (on(rules.ThroneHostile)) partners.push('the empty throne counts as an enemy of both sides');
  partners.push(on(rules.KingArmed) ? 'the king helps to capture' : 'the king does not capture');
  const win = on(rules.Encirclement)
    ? 'the attackers (dark) win by capturing the king, or by shutting every defender off from the edge'
    : 'the attackers (dark) win by capturing the king';
  const king = is(rules.KingCapture, 'English')
    ? 'The king is taken only when attackers close him in on all four sides (beside the '
      + 'throne, three attackers and the throne).'
    : 'The king is taken like a soldier, by two attackers in line; on the throne it takes '
      + 'four, beside it three (the throne the fourth).';
  return {
    win: `The defenders (light) win when the king reaches any square on the edge; ${win}.`,
    capture: `${first} Every piece moves like a rook in chess, along a row or column over `
      + 'empty squares; only the king may stop on the throne. A soldier is taken when a move '
      + `closes it in between two enemies in line; ${partners.join('; ')}.`,
    king,
  };
}
