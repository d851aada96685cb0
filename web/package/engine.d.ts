// The Konakis engine in a Web Worker, behind the line protocol (protocol.md).

/** A worker as `Engine.start` uses it: the parts of a Web Worker it needs. */
export interface WorkerLike {
  postMessage(message: unknown, transfer?: Transferable[]): void;
  onmessage: ((event: { data: any }) => void) | null;
  onerror: ((event: { message?: string }) => void) | null;
  terminate(): void;
}

export interface EngineStart {
  /** Address of worker.js (relative: to the page); default: the one beside engine.js. */
  worker?: string | URL;
  /** Address of the .wasm (relative: to the page); default: wasm/konakis_wasm_bg.wasm beside engine.js. */
  wasm?: string | URL;
  /**
   * How `stop` reaches a running search. Default: 'shared' where SharedArrayBuffer is
   * available (a cross-origin isolated page, or Node), else 'restart'. 'shared' throws where
   * it is not available; 'restart' can be asked for anywhere (tests).
   */
  stopMode?: 'shared' | 'restart';
  /** Makes the worker (a Web Worker-style object) for `url`, e.g. a worker_threads adapter. */
  createWorker?: (url: URL) => WorkerLike | Promise<WorkerLike>;
}

export class Engine {
  /** Starts a worker with the engine; resolves once its WebAssembly is loaded. */
  static start(opts?: EngineStart): Promise<Engine>;
  /** One protocol line (several if it holds line ends); nothing after `quit`. */
  send(line: string): void;
  /** Every output line, without its line end; returns a function that unsubscribes. */
  onLine(cb: (line: string) => void): () => void;
  /** How stop reaches a running search: shared memory, or restarting the worker. */
  readonly stopMode: 'shared' | 'restart';
  /** Ends the worker at once; nothing more is printed. */
  terminate(): void;
  /**
   * Reviews every move of a game in a worker of its own (README, "Reviewing a game"):
   * resolves with the JSON of `konakis analyse --json` (docs/review.md); rejects on a bad
   * request or game, or when `signal` aborts ('the review was cancelled').
   */
  analyseGame(
    request: AnalyseRequest,
    opts?: { onProgress?: (done: number, total: number) => void; signal?: AbortSignal },
  ): Promise<AnalyseResult>;
}

/** A game to review: a record, or a position with moves and rules; one limit per position. */
export interface AnalyseRequest {
  /** An OpenTafl record (every game in it is reviewed, under the rules it carries). */
  otg?: string;
  /** Without `otg`: the start, `startpos` (the default) or a position string. */
  position?: string;
  /** Without `otg`: the moves from it (`d1d3`, `d1-d3` or OpenTafl's full notation). */
  moves?: string[] | string;
  /** Without `otg`: rule options by name (as `new Game` takes them), or a preset's id. */
  rules?: Record<string, string | number | boolean>;
  preset?: string;
  /** One limit per position: a depth, nodes or milliseconds (default: 100 ms). */
  depth?: number;
  nodes?: number;
  movetime?: number;
  /** Drops in expected score (points of 100) for an inaccuracy, a mistake, a blunder. */
  thresholds?: [number, number, number];
}

export type Verdict = 'best' | 'good' | 'inaccuracy' | 'mistake' | 'blunder' | 'missed-win' | 'allows-loss';

/** An evaluation from one side: centi-soldiers, a forced result in n moves, or the end. */
export type Eval = { cp: number } | { mate: number } | 'won' | 'lost' | 'drawn';

export interface Chances {
  /** Per mille; the three sum to 1000. */
  win: number;
  draw: number;
  loss: number;
}

export interface MoveReview {
  number: number;
  side: 'attackers' | 'defenders';
  played: string;
  best: string | null;
  line: string[];
  before: Eval;
  after: Eval;
  chances_before: Chances;
  chances_after: Chances;
  drop: number;
  accuracy: number;
  verdict: Verdict;
}

export interface SideSummary {
  moves: number;
  accuracy: number | null;
  best: number;
  good: number;
  inaccuracies: number;
  mistakes: number;
  blunders: number;
  missed_wins: number;
  allowed_losses: number;
}

export interface AnalyseResult {
  limits: { depth: number | null; nodes: number | null; movetime: number | null };
  thresholds: { inaccuracy: number; mistake: number; blunder: number };
  games: {
    game: number;
    rules: string;
    start: string;
    status: string;
    ending: string | null;
    /** The moves in OpenTafl's full notation. */
    notation: string[];
    review: { moves: MoveReview[]; attackers: SideSummary; defenders: SideSummary; last: Eval };
  }[];
}

export interface InfoLine {
  depth: number;
  seldepth?: number;
  /** 1 unless MultiPV is above 1. */
  multipv: number;
  /** From the side to move's view; mate n > 0: it wins with its n-th move. */
  score: { cp: number } | { mate: number };
  /**
   * Only with the `UCI_ShowWDL` option on: the chances of a win, a draw and a loss for the side
   * to move, per mille (they add up to 1000).
   */
  wdl?: { win: number; draw: number; loss: number };
  bound?: 'lower' | 'upper';
  nodes: number;
  nps?: number;
  /** Milliseconds since `go`. */
  time: number;
  /** Permille of the hash table in use. */
  hashfull?: number;
  pv: string[];
}

/** The fields of a search's `info` line, or null for any other line. */
export function parseInfo(line: string): InfoLine | null;

/** `bestmove X [ponder Y]`; best is null for `bestmove (none)` (the game is over). */
export function parseBestMove(line: string): { best: string | null; ponder: string | null } | null;
