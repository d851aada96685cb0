// The rules of Tablut, synchronous: the same rules code as the native Konakis engine, compiled
// to WebAssembly. Squares are named a1 (bottom left, the attackers' side) to i9; moves are
// written from-square then to-square, `d1d3` (`d1-d3` is accepted too).

/**
 * Loads the WebAssembly module, once for this JavaScript realm (a page or a worker); later
 * calls return the same promise. Every other function of this API needs it to have resolved.
 *
 * @param source where the `.wasm` is: a URL (fetched), its bytes, or a compiled module.
 *   Default: `wasm/konakis_wasm_bg.wasm` beside the glue. In Node, pass the bytes:
 *   `await init(await readFile(new URL('./wasm/konakis_wasm_bg.wasm', import.meta.resolve('konakis'))))`.
 *   If loading fails the promise rejects and a later call tries again.
 */
export function init(source?: string | URL | BufferSource | WebAssembly.Module): Promise<void>;

/** The two sides: the attackers (16 soldiers, move first by default) and the defenders
 * (the king and 8 soldiers). */
export type Side = 'attackers' | 'defenders';

/** What can stand on a square. */
export type Piece = 'attacker' | 'defender' | 'king';

/** Why a game ended: the king reached the edge, the king was captured, the defenders were
 * encircled (rule option `Encirclement`), the side to move had no legal move (and lost), a
 * position recurred (`RepetitionDraw`), or the move limit was reached (`MoveLimit`). */
export type EndReason =
  | 'escape'
  | 'capture'
  | 'encirclement'
  | 'no-move'
  | 'repetition'
  | 'move-limit';

/** A game's status. */
export interface Status {
  /** Whether the game has ended. */
  over: boolean;
  /** The side that won; `null` while the game goes on and for a draw. */
  winner: Side | null;
  /** Why it ended; `null` while it goes on. */
  reason: EndReason | null;
  /** The native engine's words, e.g. `defenders win: the king reached the edge` or `ongoing`. */
  text: string;
}

/** One rule option, from the engine's option table (the rows `uci` announces). */
export interface RuleOption {
  /** The name, e.g. `KingCapture` (matched without regard to case). */
  name: string;
  /** `choice`: one of `values`; `bool`: `true` / `false`; `number`: an integer in `min..max`. */
  kind: 'choice' | 'bool' | 'number';
  /** The allowed values of a `choice`. */
  values?: string[];
  /** The smallest value of a `number`. */
  min?: number;
  /** The largest value of a `number`. */
  max?: number;
  /** The default value, as text. */
  default: string;
  /** One line on what the option does. */
  description: string;
}

/** A named reading of the rules. */
export interface Preset {
  /** `original` (the defaults), `english` (four attackers capture the king), `taflhub` and
   * `encyclopedia` (the readings of the tafl hub and the Hungarian encyclopedia), `ashton` (the
   * Tablut Challenge's rules). */
  id: 'original' | 'english' | 'taflhub' | 'encyclopedia' | 'ashton';
  /** The name a user reads. */
  name: string;
  /** One line on where the reading comes from. */
  description: string;
  /** The options that make it, applied to the defaults in this order, e.g.
   * `{ KingCapture: 'English' }`; `{}` for the defaults. */
  options: Record<string, string>;
}

/** Every rule option, in the engine's order. */
export function ruleOptions(): RuleOption[];

/** The presets, the defaults first. */
export function presets(): Preset[];

/** The engine's strength levels (the `Skill Level` option) and the Elo of each on the
 * calibrated scale of docs/levels.md (level 0 = 0), as built into this engine: a level picker
 * shows these figures, so a new calibration reaches it with the next build. */
export interface Levels {
  /** The level that is full strength (20), the default of `Skill Level`. */
  full: number;
  /** The range `UCI_Elo` takes: the Elo of level 0 and of full strength, rounded inwards. */
  elo: [number, number];
  /** Every level from 0 to `full`, in order, with its Elo rounded to a whole number. */
  levels: { level: number; elo: number }[];
}

/** The strength levels and their Elo. */
export function levels(): Levels;

/** What went wrong (see `KonakisError`). */
export type ErrorKind =
  | 'move-syntax' // text that is not a move (or not a square)
  | 'illegal-move' // a move the position does not allow
  | 'position' // a bad position string
  | 'rules' // an unknown preset or rule option, or a value it does not allow
  | 'game-over' // a move after the end of the game
  | 'record'; // an OpenTafl record that cannot be read, or a bad tag to write

/** Every failure of the rules API throws this; the game is left as it was. */
export class KonakisError extends Error {
  /** What went wrong, for a program to tell cases apart. */
  kind: ErrorKind;
  /** The native library's message, e.g. `e5e6 is not legal: e6 is occupied`. */
  message: string;
  name: 'KonakisError';
}

/** Options of `new Game()`. */
export interface GameOptions {
  /** A preset id, or rule options set in turn on the defaults, e.g.
   * `{ KingCapture: 'English', MoveLimit: '100' }` (values may be numbers or booleans).
   * Default: the default rules. */
  rules?: Preset['id'] | Record<string, string | number | boolean>;
  /** A position string, `<placement> <side> [<plies>]` (ranks 9 to 1, `b` attacker,
   * `w` defender, `K` king, digits for empty squares; side `b` or `w`). Default: the start
   * position (whose side to move follows the rule option `FirstMove`). */
  position?: string;
}

/** A game of Tablut: the rules, the position it started from and the moves played, refereed by
 * the engine's own rules code. Synchronous; call `free()` when done with it (or leave it to the
 * garbage collector). */
export class Game {
  /** A new game. Throws `KonakisError` (`rules`, `position`). */
  constructor(opts?: GameOptions);
  /** Every rule option's value, e.g. `{ Ruleset: 'Linnaeus', KingCapture: 'Original', ... }`. */
  rules(): Record<string, string>;
  /** The position string of the current position, e.g.
   * `3bbb3/4b4/4w4/b3w3b/bbwwKwwbb/b3w3b/4w4/4b4/3bbb3 b 0`. */
  position(): string;
  /** The position string the game started from. */
  start(): string;
  /** The side to move. */
  sideToMove(): Side;
  /** The position's ply count: the start's plus the moves played (the move limit counts it). */
  plies(): number;
  /** The occupied squares, e.g. `{ e5: 'king', d1: 'attacker', ... }`, in square order. */
  pieces(): Record<string, Piece>;
  /** The king's square, or `null` once he is captured. */
  kingSquare(): string | null;
  /** The special squares: the throne (`e5`), the camps (Ashton's 16, none otherwise) and the
   * corners (none: in Tablut the king escapes to any edge square). */
  special(): { throne: string; camps: string[]; corners: string[] };
  /** The legal moves (`e7d7` style), all or only those from the square `from`; none once the
   * game is over. Throws `KonakisError` (`move-syntax`) for a bad square. */
  legalMoves(from?: string): string[];
  /** Plays a move and returns the squares of the pieces it captured (the king's included).
   * Throws `KonakisError` (`move-syntax`, `illegal-move`, `game-over`) and then changes
   * nothing. */
  play(move: string): { captured: string[] };
  /** Takes the last move back and returns it; `null` at the start. */
  undo(): string | null;
  /** The moves played since `start()`. */
  moves(): string[];
  /** The status: ongoing, or who won and why, or a draw and why. */
  status(): Status;
  /** The number of clear straight lines from the king to the edge: 0, 1 (raichi) or 2 and
   * more (tuichu). 0 when the king is captured or already on the edge. */
  kingOpenLines(): number;
  /** The game as an OpenTafl `.otg` record, written by the same code as
   * `konakis match --records`: `date` (default: today, UTC), `result` (when the game is over),
   * `compiler` (default `Konakis`), `rules` (OpenTafl's rules string), `konakis-rules` (every
   * rule option), then your tags in order, `start`, `reason` (when over), `plies`, and the
   * numbered turns. Tag names are letters, digits, `-` and `_`; `result`, `rules`,
   * `konakis-rules`, `start`, `reason` and `plies` are written from the game and may not be
   * given. Throws `KonakisError` (`record`). */
  otg(tags?: Record<string, string>): string;
  /** The first game of an `.otg` record (Konakis' or OpenTafl's), replayed move by move under
   * its rules. Throws `KonakisError` (`record`) naming the turn at fault. */
  static fromOtg(text: string): Game;
  /** Releases the game's WebAssembly memory; the object is unusable afterwards. */
  free(): void;
}
