// The names a player reads for the engine's strength levels (the `Skill Level` option). The
// Elo beside each name is the engine's own (the package's `levels()`, the calibrated curve of
// docs/levels.md), never written here, so that a new calibration reaches the picker with the
// next build.

/** A short name for each band of levels, by the lowest level of the band. */
const NAMES = [
  [0, 'First steps'],
  [1, 'Beginner'],
  [3, 'Learner'],
  [5, 'Casual player'],
  [8, 'Club player'],
  [10, 'Strong club player'],
  [13, 'Expert'],
  [16, 'Master'],
  [19, 'Grandmaster'],
  [20, 'Full strength'],
];

/**
 * The levels offered as one-click buttons, for a player who does not know the numbers: each
 * the first level of a band of NAMES, named after it in a word (full strength as
 * "Strongest"). The picker beside them has every level.
 */
export const LEVEL_BUTTONS = [
  { name: 'Beginner', level: 1 },
  { name: 'Casual', level: 5 },
  { name: 'Club', level: 8 },
  { name: 'Expert', level: 13 },
  { name: 'Strongest', level: 20 },
];

/**
 * Which real programs a level plays like, from the matches in docs/levels.md ("Real programs
 * on the scale"); the one place on the board that says so. Keep it in step with that file:
 * these placements come from 20 games each and move when the levels are calibrated again.
 * The note is shown under the picker, for those who know the programs; the level keeps its
 * band's name.
 */
const PLAYS_LIKE = {
  10: 'plays about as well as osarracino, a program of the Tablut Challenge (a university contest of game-playing programs, under Ashton rules)',
  14: 'plays about as well as the AI of OpenTafl (a desktop tafl program) and weakmind, the 2021 Tablut Challenge champion',
};

/** Levels at which the board offers a hint: the lower half, where a player is learning. */
export const HINT_MAX_LEVEL = 10;

/**
 * The level a new player starts at: the Beginner button, level 1. By docs/levels.md it looks
 * one ply ahead at a few of its pieces' moves and is some 200 Elo below the casual level 5
 * (which would win about three games in four against it): a first game a newcomer can win,
 * against an opponent that still takes what it is offered and is not a random mover.
 */
export const DEFAULT_LEVEL = 1;

/** The name of a level, e.g. "Beginner". */
export function levelName(level) {
  let name = NAMES[0][1];
  for (const [from, n] of NAMES) if (level >= from) name = n;
  return name;
}

/** What a level plays like, in a few words, or ''. */
export function playsLike(level) {
  return PLAYS_LIKE[level] ?? '';
}

/** The picker's text for a level: "3 · Learner · 134 Elo". */
export function levelLabel({ level, elo }) {
  return `${level} \u00b7 ${levelName(level)} \u00b7 ${elo} Elo`;
}
