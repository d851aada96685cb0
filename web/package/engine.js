// The Konakis engine in a Web Worker, behind the line protocol of the native program
// (protocol.md): `send` lines, read lines with `onLine`. See README.md, "The engine".
//
// A search runs synchronously in the worker, so `stop` cannot reach it as a message. Two ways
// round that (`engine.stopMode`):
// - 'shared': the page is cross-origin isolated (or this is Node), so a SharedArrayBuffer
//   holds two counters, stops and ponderhits sent. Every line is posted with the counters'
//   values at the time it was sent; the running search compares them with the live values
//   every thousand nodes or so. A `stop` sent after a `go` therefore stops that `go`, even if
//   the worker had not reached it yet, and never a `go` sent after the `stop`.
// - 'restart': no shared memory. `stop` (or `ponderhit`) ends the worker running the work and
//   answers for it from what it printed (`bestmove` from the last principal variation, as the
//   search would; `info string perft stopped` / `bench stopped`); a new worker gets the
//   options and the position replayed, silently, and the lines sent since. The search's
//   table is lost, nothing else.

const here = import.meta.url;
/** Where addresses given to `Engine.start` are resolved: the page (in Node: engine.js). */
const base = () => globalThis.location?.href ?? here;
const isNode = typeof process !== 'undefined' && !!process.versions?.node && typeof window === 'undefined';

/** What each line is, for the bookkeeping here (the worker's session parses it for real). */
function classify(text) {
  const words = text.trim().split(/\s+/);
  const first = words[0];
  const alone = words.length === 1;
  if (alone && (first === 'stop' || first === 'quit' || first === 'ponderhit')) return first;
  if (first === 'go') {
    if (words[1] === 'perft') return 'perft';
    return words.includes('ponder') ? 'ponder' : 'go';
  }
  if (first === 'bench') return 'bench';
  if (first === 'setoption') return 'option';
  if (first === 'position' || first === 'ucinewgame') return 'position';
  return 'other';
}

const WORK = new Set(['go', 'ponder', 'perft', 'bench']);

// Node ≥ 20 has no Web Worker; a worker_threads worker gets the few globals worker.js uses.
const NODE_BOOT = `
const { parentPort, workerData } = require('node:worker_threads');
globalThis.postMessage = (m, t) => parentPort.postMessage(m, t);
globalThis.close = () => parentPort.close();
globalThis.onmessage = null;
parentPort.on('message', (data) => globalThis.onmessage?.({ data }));
import(workerData);
`;

async function nodeWorker(url) {
  const { Worker } = await import('node:worker_threads');
  const w = new Worker(NODE_BOOT, { eval: true, workerData: url.href });
  const adapted = {
    postMessage: (m, t) => w.postMessage(m, t),
    terminate: () => w.terminate(),
    onmessage: null,
    onerror: null,
  };
  w.on('message', (data) => adapted.onmessage?.({ data }));
  w.on('error', (e) => adapted.onerror?.({ message: String(e?.message ?? e) }));
  return adapted;
}

/** The compiled engine, once per wasm address. */
const modules = new Map();

async function compile(source) {
  const url = source === undefined ? new URL('./wasm/konakis_wasm_bg.wasm', here) : new URL(source, base());
  const key = url.href;
  if (!modules.has(key)) {
    const made = (async () => {
      if (isNode && url.protocol === 'file:') {
        const { readFile } = await import('node:fs/promises');
        return WebAssembly.compile(await readFile(url));
      }
      const response = await fetch(url);
      if (!response.ok) throw new Error(`cannot load ${url}: HTTP ${response.status}`);
      return WebAssembly.compile(await response.arrayBuffer());
    })();
    modules.set(key, made);
    made.catch(() => modules.delete(key));
  }
  return modules.get(key);
}

export class Engine {
  #opts;
  #module = null;
  #worker = null;
  /** Int32Array: [0] stops sent, [1] ponderhits sent; null in 'restart' mode. */
  #flags = null;
  #listeners = new Set();
  #nextId = 1;
  /** Lines sent and not yet answered, oldest (the one being answered) first. */
  #pending = [];
  /** The lines that made the current options and position, to replay after a restart. */
  #log = [];
  #restarting = false;
  #quit = false;
  /** 'restart' mode: a worker started ahead, so that a restart need not wait for one. */
  #spare = null;

  constructor(opts, token) {
    if (token !== Engine.#token) throw new TypeError('use Engine.start()');
    this.#opts = opts;
    const shared = opts.stopMode !== 'restart' && typeof SharedArrayBuffer === 'function'
      && globalThis.crossOriginIsolated !== false;
    if (opts.stopMode === 'shared' && !shared) {
      throw new Error("stopMode 'shared' needs SharedArrayBuffer (a cross-origin isolated page)");
    }
    if (shared) this.#flags = new Int32Array(new SharedArrayBuffer(8));
  }

  static #token = Symbol('Engine');

  /** Starts a worker with the engine; resolves once its WebAssembly is loaded. */
  static async start(opts = {}) {
    const engine = new Engine(opts, Engine.#token);
    engine.#module = await compile(opts.wasm);
    await engine.#spawn();
    return engine;
  }

  /** 'shared' or 'restart': how `stop` reaches a running search (see the top of this file). */
  get stopMode() {
    return this.#flags ? 'shared' : 'restart';
  }

  /** A new worker with a session, ready for lines (not yet this engine's). */
  async #makeWorker(flags = this.#flags) {
    const url = this.#opts.worker === undefined ? new URL('./worker.js', here) : new URL(this.#opts.worker, base());
    let worker;
    if (this.#opts.createWorker) worker = await this.#opts.createWorker(url);
    else if (typeof Worker === 'function') worker = new Worker(url, { type: 'module' });
    else if (isNode) worker = await nodeWorker(url);
    else throw new Error('no Worker here');
    await new Promise((ok, fail) => {
      worker.onerror = (e) => fail(new Error(`the engine's worker failed to start: ${e?.message ?? e}`));
      worker.onmessage = ({ data }) => {
        if (data.type === 'loaded') worker.postMessage({ type: 'init', wasm: this.#module, flags: flags?.buffer ?? null });
        else if (data.type === 'ready') ok();
        else if (data.type === 'failed') fail(new Error(data.message));
      };
    }).catch((e) => {
      worker.terminate();
      throw e;
    });
    return worker;
  }

  /** Makes the engine's worker (in 'restart' mode the spare one, if ready, and a new spare). */
  async #spawn() {
    const spare = this.#spare;
    this.#spare = null;
    const worker = await (spare ?? this.#makeWorker());
    if (!this.#flags && !this.#quit) {
      this.#spare = this.#makeWorker();
      this.#spare.catch(() => {});
    }
    this.#worker = worker;
    worker.onmessage = ({ data }) => {
      if (this.#worker === worker) this.#received(data);
    };
    worker.onerror = (e) => {
      if (this.#worker === worker) this.#failed(e?.message ?? String(e));
    };
  }

  /**
   * Reviews every move of a game in a worker of its own, beside the protocol's (README,
   * "Reviewing a game"): resolves with the review (the JSON of `konakis analyse --json`,
   * docs/review.md), calls `onProgress(done, total)` after each position, and rejects with an
   * Error on a bad request or game, or when `signal` aborts.
   */
  async analyseGame(request, { onProgress, signal } = {}) {
    signal?.throwIfAborted();
    const shared = typeof SharedArrayBuffer === 'function' && globalThis.crossOriginIsolated !== false;
    const flags = shared ? new Int32Array(new SharedArrayBuffer(8)) : null;
    const worker = await this.#makeWorker(flags);
    let abort = null;
    try {
      return await new Promise((resolve, reject) => {
        // With shared memory the review stops at its next poll and answers 'cancelled'; without,
        // the worker is ended (below).
        abort = () => (flags ? Atomics.add(flags, 0, 1) : reject(new Error('the review was cancelled')));
        if (signal?.aborted) return abort();
        signal?.addEventListener('abort', abort, { once: true });
        worker.onmessage = ({ data }) => {
          if (data.type === 'progress') onProgress?.(data.done, data.total);
          else if (data.type === 'analysed') {
            if (data.error !== undefined) reject(new Error(data.error));
            else resolve(JSON.parse(data.json));
          }
        };
        worker.onerror = (e) => reject(new Error(`the review's worker failed (${e?.message ?? e})`));
        worker.postMessage({ type: 'analyse', request: JSON.stringify(request) });
      });
    } finally {
      signal?.removeEventListener('abort', abort);
      worker.terminate();
    }
  }

  /** Sends one protocol line (several if it holds line ends). */
  send(line) {
    for (const text of String(line).split('\n')) this.#sendOne(text.replace(/\r$/, ''));
  }

  #sendOne(text) {
    if (this.#quit) return;
    const kind = classify(text);
    const running = this.#pending.findLast((e) => WORK.has(e.kind));
    if (kind === 'quit') {
      // As natively: nothing more is printed for work still running.
      this.#quit = true;
      for (const e of this.#pending) if (WORK.has(e.kind)) e.silenced = true;
    }
    if (this.#flags) {
      if (kind === 'stop' || kind === 'quit') Atomics.add(this.#flags, 0, 1);
      if (kind === 'ponderhit') Atomics.add(this.#flags, 1, 1);
    } else if (running && !running.stopped) {
      if (kind === 'quit') return this.terminate();
      if (kind === 'stop' || (kind === 'ponderhit' && running.kind === 'ponder')) {
        running.stopped = kind;
        return this.#check();
      }
    }
    const entry = {
      id: this.#nextId++,
      text,
      kind,
      stops: this.#flags ? Atomics.load(this.#flags, 0) : 0,
      hits: this.#flags ? Atomics.load(this.#flags, 1) : 0,
    };
    this.#pending.push(entry);
    this.#post(entry);
  }

  #post(entry, quiet = false) {
    if (this.#restarting) return;
    const { id, text, kind, stops, hits } = entry;
    this.#worker.postMessage({ type: 'line', id, text, kind, stops, hits, quiet });
  }

  /** Calls `cb(line)` for every output line from now on; returns a function that stops it. */
  onLine(cb) {
    this.#listeners.add(cb);
    return () => this.#listeners.delete(cb);
  }

  #emit(text) {
    for (const cb of [...this.#listeners]) {
      try {
        cb(text);
      } catch (e) {
        queueMicrotask(() => {
          throw e;
        });
      }
    }
  }

  #received(msg) {
    const entry = this.#pending.find((e) => e.id === msg.id);
    if (msg.type === 'output') {
      if (!entry || entry.silenced) return;
      const info = WORK.has(entry.kind) ? parseInfo(msg.text) : null;
      if (info && info.multipv === 1 && info.pv.length) entry.pv = info.pv;
      if (msg.text.startsWith('info string game over')) entry.over = true;
      this.#emit(msg.text);
      this.#check();
    } else if (msg.type === 'done') {
      if (!entry) return;
      this.#pending.splice(this.#pending.indexOf(entry), 1);
      if (!msg.error && (entry.kind === 'option' || entry.kind === 'position')) this.#remember(entry);
      if (!msg.more) this.terminate();
      else this.#check();
    }
  }

  #remember(entry) {
    // A position line that worked replaces the one before it (the options stay, in order).
    if (entry.kind === 'position') this.#log = this.#log.filter((e) => e.kind !== 'position');
    this.#log.push({ id: 0, text: entry.text, kind: entry.kind, stops: 0, hits: 0 });
  }

  /** 'restart' mode: acts on a stop or ponderhit for the work being answered, once it can. */
  #check() {
    const head = this.#pending[0];
    if (this.#restarting || !head?.stopped) return;
    if (head.kind === 'perft') return this.#restart(['info string perft stopped']);
    if (head.kind === 'bench') return this.#restart(['info string bench stopped']);
    if (head.stopped === 'ponderhit') {
      // The opponent played the expected move: the same search, timed, in a new worker.
      const text = head.text.trim().split(/\s+/).filter((w) => w !== 'ponder').join(' ');
      return this.#restart([], { ...head, text, kind: 'go', stopped: undefined, pv: undefined });
    }
    if (head.over) return this.#restart(['bestmove (none)']);
    // The first iteration reports within milliseconds; until it has, there is no move to give.
    if (head.pv) {
      const [best, ponder] = head.pv;
      this.#restart([ponder ? `bestmove ${best} ponder ${ponder}` : `bestmove ${best}`]);
    }
  }

  async #restart(lines, replacement) {
    this.#restarting = true;
    this.#worker.terminate();
    this.#worker = null;
    const head = this.#pending.shift();
    if (!head.silenced) for (const l of lines) this.#emit(l);
    if (replacement) this.#pending.unshift(replacement);
    try {
      await this.#spawn();
    } catch (e) {
      this.#restarting = false;
      this.#emit(`info string error: cannot restart the engine (${e.message})`);
      this.#quit = true;
      return;
    }
    this.#restarting = false;
    if (this.#quit && !this.#pending.length) return this.terminate();
    for (const e of this.#log) this.#post(e, true);
    for (const e of this.#pending) this.#post(e);
    this.#check();
  }

  #failed(message) {
    this.#emit(`info string error: the engine's worker failed (${String(message).replace(/\s+/g, ' ')})`);
    // What was being answered is lost; the rest is answered by a new worker.
    const head = this.#pending[0];
    if (head) head.stopped = 'failed';
    if (!this.#restarting) this.#restart([]);
  }

  /** Ends the worker at once; nothing more is printed and `send` does nothing from now on. */
  terminate() {
    this.#quit = true;
    this.#pending = [];
    this.#worker?.terminate();
    this.#worker = null;
    this.#spare?.then((w) => w.terminate(), () => {});
    this.#spare = null;
  }
}

/**
 * The fields of a search's `info` line (one with a score), or null for any other line.
 * Scores are the side to move's, as the engine prints them; with the `UCI_ShowWDL` option on,
 * `wdl` holds the chances of a win, a draw and a loss for the side to move, per mille.
 */
export function parseInfo(line) {
  const w = String(line).trim().split(/\s+/);
  if (w[0] !== 'info' || !w.includes('score')) return null;
  const info = { depth: 0, multipv: 1, score: null, nodes: 0, time: 0, pv: [] };
  for (let i = 1; i < w.length; i++) {
    const n = Number(w[i + 1]);
    switch (w[i]) {
      case 'depth': case 'seldepth': case 'multipv': case 'nodes': case 'nps': case 'time': case 'hashfull':
        if (!Number.isFinite(n)) return null;
        info[w[i]] = n;
        i++;
        break;
      case 'score':
        if ((w[i + 1] !== 'cp' && w[i + 1] !== 'mate') || !Number.isFinite(Number(w[i + 2]))) return null;
        info.score = { [w[i + 1]]: Number(w[i + 2]) };
        i += 2;
        break;
      case 'wdl': {
        const [win, draw, loss] = w.slice(i + 1, i + 4).map(Number);
        if (![win, draw, loss].every(Number.isInteger) || win + draw + loss !== 1000) return null;
        info.wdl = { win, draw, loss };
        i += 3;
        break;
      }
      case 'lowerbound': info.bound = 'lower'; break;
      case 'upperbound': info.bound = 'upper'; break;
      case 'pv':
        info.pv = w.slice(i + 1);
        i = w.length;
        break;
      default:
        return null;
    }
  }
  return info.score ? info : null;
}

/** `bestmove X [ponder Y]` as { best, ponder } (null for `(none)` or no ponder), or null. */
export function parseBestMove(line) {
  const w = String(line).trim().split(/\s+/);
  if (w[0] !== 'bestmove' || w.length < 2) return null;
  const best = w[1] === '(none)' ? null : w[1];
  const ponder = w[2] === 'ponder' && w[3] ? w[3] : null;
  return { best, ponder };
}
