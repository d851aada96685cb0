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
