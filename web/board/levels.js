// The names a player reads for the engine's strength levels (the `Skill Level` option). The
// Elo beside each name is the engine's own (the package's `levels()`, the calibrated curve of
// docs/levels.md), never written here, so that a new calibration reaches the picker with the
// next build.

/** A short name for each band of levels, by the lowest level of the band. */
const NAMES = [
  [0, 'Beginner'],
  [1, 'Novice'],
  [3, 'Learner'],
  [5, 'Casual player'],
  [7, 'Club player'],
  [10, 'Strong club player'],
  [13, 'Expert'],
  [16, 'Master'],
  [19, 'Grandmaster'],
  [20, 'Full strength'],
];

/**
 * Which real programs a level plays like, from the matches in docs/levels.md ("Real programs
 * on the scale"); the one place on the board that says so. Keep it in step with that file:
 * these placements come from 20 games each and move when the levels are calibrated again.
 * `name` replaces the level's band name in the picker; `note` is shown under it.
 */
const PLAYS_LIKE = {
  10: { name: 'Like osarracino', note: 'plays like osarracino, a Tablut Challenge program (Ashton rules)' },
  14: {
    name: 'Like OpenTafl\u2019s AI',
    note: 'plays like OpenTafl\u2019s AI (OpenTafl\u2019s Tablut rules) and like weakmind, the 2021 Tablut Challenge champion (Ashton rules)',
  },
};

/** Levels at which the board offers a hint: the lower half, where a player is learning. */
export const HINT_MAX_LEVEL = 10;

/** The level a new player starts at. */
export const DEFAULT_LEVEL = 5;

/** The name of a level, e.g. "Novice", or the program it plays like. */
export function levelName(level) {
  if (PLAYS_LIKE[level]?.name) return PLAYS_LIKE[level].name;
  let name = NAMES[0][1];
  for (const [from, n] of NAMES) if (level >= from) name = n;
  return name;
}

/** What a level plays like, in a few words, or ''. */
export function playsLike(level) {
  return PLAYS_LIKE[level]?.note ?? '';
}

/** The picker's text for a level: "3 · Learner · 134 Elo". */
export function levelLabel({ level, elo }) {
  return `${level} \u00b7 ${levelName(level)} \u00b7 ${elo} Elo`;
}
