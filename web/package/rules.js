// The rules of Tablut, synchronous, for a front-end's own board: the same rules code as the
// native engine (konakis-core), compiled to WebAssembly. See rules.d.ts for the documentation.

import wasmInit, {
  RulesGame,
  levelsJson,
  rulesOptionsJson,
  rulesPresetsJson,
} from './wasm/konakis_wasm.js';

let loading = null;
let loaded = false;

export function init(source) {
  if (!loading) {
    const args = source === undefined ? undefined : { module_or_path: source };
    loading = wasmInit(args).then(
      () => {
        loaded = true;
      },
      (e) => {
        loading = null; // let a later call try again (another source, the network back)
        throw e;
      },
    );
  }
  return loading;
}

function ready() {
  if (!loaded) throw new Error('konakis: call and await init() before using the rules API');
}

export class KonakisError extends Error {
  constructor(kind, message) {
    super(message);
    this.name = 'KonakisError';
    this.kind = kind;
  }
}

// Runs a call into the wasm module, turning its errors (Error objects with a `kind`) into
// KonakisError.
function call(f) {
  try {
    return f();
  } catch (e) {
    if (e instanceof Error && typeof e.kind === 'string' && !(e instanceof KonakisError)) {
      throw new KonakisError(e.kind, e.message);
    }
    throw e;
  }
}

export function ruleOptions() {
  ready();
  return JSON.parse(rulesOptionsJson());
}

export function presets() {
  ready();
  return JSON.parse(rulesPresetsJson());
}

export function levels() {
  ready();
  return JSON.parse(levelsJson());
}

// Today as OpenTafl's records write it (YYYY.MM.DD, UTC, as `konakis match` does).
function today() {
  const d = new Date();
  const two = (n) => String(n).padStart(2, '0');
  return `${d.getUTCFullYear()}.${two(d.getUTCMonth() + 1)}.${two(d.getUTCDate())}`;
}

const wrap = Symbol('wrap');

// Square names in the order of the placement string: a1, b1, ... i1, a2, ... i9.
const SQUARES = Array.from({ length: 81 }, (_, i) => 'abcdefghi'[i % 9] + (Math.floor(i / 9) + 1));
const PIECES = { a: 'attacker', d: 'defender', k: 'king' };

// The words of a space-separated list ('' is none).
function words(text) {
  return text === '' ? [] : text.split(' ');
}

export class Game {
  #inner;

  constructor(opts = {}) {
    ready();
    if (opts && opts[wrap]) {
      this.#inner = opts[wrap];
      return;
    }
    const { rules, position } = opts ?? {};
    let preset;
    const names = [];
    const values = [];
    if (typeof rules === 'string') {
      preset = rules;
    } else if (rules !== undefined && rules !== null) {
      if (typeof rules !== 'object') {
        throw new KonakisError('rules', 'rules must be a preset id or an object of rule options');
      }
      for (const [name, value] of Object.entries(rules)) {
        names.push(name);
        values.push(String(value));
      }
    }
    if (position !== undefined && position !== null && typeof position !== 'string') {
      throw new KonakisError('position', 'the position must be a position string');
    }
    this.#inner = call(() => new RulesGame(preset, names, values, position ?? undefined));
  }

  static fromOtg(text) {
    ready();
    const inner = call(() => RulesGame.fromOtg(String(text)));
    return new Game({ [wrap]: inner });
  }

  rules() {
    return JSON.parse(this.#inner.rulesJson());
  }

  position() {
    return this.#inner.position();
  }

  start() {
    return this.#inner.start();
  }

  sideToMove() {
    return this.#inner.sideToMove();
  }

  plies() {
    return this.#inner.plies();
  }

  pieces() {
    const placement = this.#inner.placement();
    const pieces = {};
    for (let i = 0; i < 81; i++) {
      const piece = PIECES[placement[i]];
      if (piece) pieces[SQUARES[i]] = piece;
    }
    return pieces;
  }

  kingSquare() {
    return this.#inner.kingSquare() ?? null;
  }

  special() {
    return JSON.parse(this.#inner.specialJson());
  }

  legalMoves(from) {
    if (from !== undefined && from !== null && typeof from !== 'string') {
      throw new KonakisError('move-syntax', 'a square is a string such as e5');
    }
    return words(call(() => this.#inner.legalMoves(from ?? undefined)));
  }

  play(move) {
    if (typeof move !== 'string') {
      throw new KonakisError('move-syntax', 'a move is a string such as d1d3');
    }
    return { captured: call(() => this.#inner.play(move)) };
  }

  undo() {
    return this.#inner.undo() ?? null;
  }

  moves() {
    return words(this.#inner.moves());
  }

  status() {
    return JSON.parse(this.#inner.statusJson());
  }

  kingOpenLines() {
    return this.#inner.kingOpenLines();
  }

  otg(tags = {}) {
    const all = { date: today(), ...tags };
    const names = Object.keys(all);
    const values = names.map((k) => String(all[k]));
    return call(() => this.#inner.otg(names, values));
  }

  free() {
    if (this.#inner) {
      this.#inner.free();
      this.#inner = undefined;
    }
  }
}
