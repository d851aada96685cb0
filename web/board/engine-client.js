// Drives the engine through its line protocol (protocol.md), the way any GUI would: the
// uci / isready handshake, setoption, position, go, stop, and the package's parsers for the
// `info` and `bestmove` lines. One job at a time: a new job stops the running search and
// waits for its `bestmove` before it starts, and a job that was overtaken by a newer one
// before it could start is dropped, so the board never acts on a stale answer.
import { Engine, parseInfo, parseBestMove } from './konakis/index.js';

export class EngineClient {
  #engine;
  #waiters = [];      // { test(line) -> bool, resolve(line) } for handshake lines
  #errors = [];       // `info string error:` lines since the last sync
  #search = null;     // the running search: { onInfo, resolve }
  #tail = Promise.resolve();
  #ticket = 0;        // bumped by every new job; a job with an old ticket gives up
  #options = new Map(); // option values as last sent, so unchanged ones are not resent
  #newGame = false;

  /** The engine's name from `id name`. */
  name = 'Konakis';

  /** Starts the worker and does the uci / isready handshake. */
  static async start() {
    const engine = await Engine.start();
    const client = new EngineClient(engine);
    await client.#handshake();
    return client;
  }

  constructor(engine) {
    this.#engine = engine;
    engine.onLine((line) => this.#line(line));
  }

  /** How `stop` reaches a running search: 'shared' (a shared flag) or 'restart'. */
  get stopMode() {
    return this.#engine.stopMode;
  }

  /** Is a search running (between its `go` and its `bestmove`)? */
  get searching() {
    return this.#search !== null;
  }

  #send(line) {
    this.#engine.send(line);
  }

  #line(line) {
    if (line.startsWith('info string error')) {
      this.#errors.push(line.slice('info string '.length));
      if (this.#search) {
        // A `go` that is refused prints no bestmove: end the job with the error.
        const { resolve } = this.#search;
        this.#search = null;
        resolve({ error: line });
      }
      return;
    }
    if (this.#search) {
      if (line.startsWith('bestmove')) {
        const { resolve } = this.#search;
        this.#search = null;
        resolve(parseBestMove(line));
        return;
      }
      if (line.startsWith('info')) {
        const info = parseInfo(line);
        if (info) this.#search.onInfo(info);
        return;
      }
    }
    for (let i = 0; i < this.#waiters.length; i++) {
      if (this.#waiters[i].test(line)) {
        const [waiter] = this.#waiters.splice(i, 1);
        waiter.resolve(line);
        return;
      }
    }
  }

  #waitFor(test) {
    return new Promise((resolve) => this.#waiters.push({ test, resolve }));
  }

  async #handshake() {
    const uciok = this.#waitFor((l) => l === 'uciok');
    const name = this.#waitFor((l) => l.startsWith('id name '));
    this.#send('uci');
    this.name = (await name).slice('id name '.length);
    await uciok;
    await this.#sync();
  }

  /** isready / readyok: every command sent before has been dealt with. Returns its errors. */
  async #sync() {
    this.#errors = [];
    const ready = this.#waitFor((l) => l === 'readyok');
    this.#send('isready');
    await ready;
    const errors = this.#errors;
    this.#errors = [];
    return errors;
  }

  /** Sends `stop` if a search runs; its job ends when the `bestmove` comes. */
  stop() {
    if (this.#search) this.#send('stop');
  }

  /**
   * Runs `task(isCurrent)` alone: stops the running search, waits for the previous job to
   * end, and resolves to null without running it if a newer job came meanwhile.
   */
  #exclusive(task) {
    const ticket = ++this.#ticket;
    this.stop();
    const previous = this.#tail;
    const run = previous.then(() => (ticket === this.#ticket ? task(() => ticket === this.#ticket) : null));
    this.#tail = run.catch(() => {});
    return run;
  }

  /** The next job begins with `ucinewgame` (empties the table and the histories). */
  newGame() {
    this.#newGame = true;
  }

  /**
   * Sends the options that differ from what the engine has: every rule option of `rules` (as
   * Game.rules() gives them; Ruleset first, since Ashton fixes the others and Linnaeus
   * restores their defaults), then `options` (name -> value, e.g. MultiPV, Skill Level).
   */
  #configure(rules, options) {
    const ruleset = rules.Ruleset ?? 'Linnaeus';
    const wanted = [['Ruleset', ruleset]];
    if (ruleset.toLowerCase() !== 'ashton') {
      for (const [name, value] of Object.entries(rules)) {
        if (name !== 'Ruleset') wanted.push([name, String(value)]);
      }
    }
    const rulesetChanged = this.#options.get('Ruleset') !== ruleset;
    const ruleNames = new Set(wanted.map(([name]) => name));
    for (const [name, value] of Object.entries(options)) wanted.push([name, String(value)]);
    for (const [name, value] of wanted) {
      // A new Ruleset resets the other rule options inside the engine: send them all again.
      if ((rulesetChanged && ruleNames.has(name)) || this.#options.get(name) !== value) {
        this.#send(`setoption name ${name} value ${value}`);
        this.#options.set(name, value);
      }
    }
    if (this.#newGame) this.#send('ucinewgame');
    this.#newGame = false;
  }

  /**
   * Searches: sets the rules and the engine `options` (name -> value), sends `position`
   * (checked with isready before `go`), then `go`. `onInfo` gets every parsed `info` line. Resolves to { best, ponder } from
   * `bestmove`, or to null when a newer job overtook this one (its answer is of no use any
   * more). Throws when the engine refuses a command.
   */
  search({ rules, options = {}, position, go, onInfo = () => {} }) {
    return this.#exclusive(async (isCurrent) => {
      this.#configure(rules, options);
      this.#send(position);
      const errors = await this.#sync();
      if (errors.length) {
        this.#options.clear(); // unsure what the engine has now: send everything next time
        throw new Error(`the engine refused the set-up: ${errors.join('; ')}`);
      }
      if (!isCurrent()) return null;
      const answer = await new Promise((resolve) => {
        this.#search = { onInfo, resolve };
        this.#send(go);
      });
      if (answer?.error) throw new Error(`the engine refused '${go}': ${answer.error}`);
      return isCurrent() ? answer : null;
    });
  }

  /**
   * Reviews every move of a game in a worker of its own (the package's `analyseGame`), beside
   * the searches: resolves with the review, rejects when `signal` aborts.
   */
  analyseGame(request, opts) {
    return this.#engine.analyseGame(request, opts);
  }

  /** Drops whatever job runs or waits (its promise resolves to null). */
  cancel() {
    return this.#exclusive(async () => {});
  }
}
