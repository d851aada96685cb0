// The Konakis engine's Web Worker: one protocol session (crates/wasm/src/session.rs) that
// answers the lines engine.js posts, in order. A search runs synchronously inside
// `session.line`, so a `stop` cannot arrive as a message while it runs; instead engine.js
// counts the stops and ponderhits it sends in a SharedArrayBuffer, and the session's poll
// function (asked every thousand nodes or so) compares those counters with their values when
// the running line was sent.
//
// Messages in:  { type: 'init', wasm, flags }        wasm: URL string, bytes or Module (or
//                                                    undefined: the .wasm beside the glue);
//                                                    flags: SharedArrayBuffer or null
//               { type: 'line', id, text, kind, stops, hits, quiet }
//               { type: 'analyse', request }          request: JSON text for analyseGame
//                                                    (a worker of its own; stopped when the
//                                                    stop counter rises above 0)
// Messages out: { type: 'loaded' }                   this script runs
//               { type: 'ready' } | { type: 'failed', message }
//               { type: 'output', id, text }         one output line of line `id`
//               { type: 'done', id, error, more }    line `id` answered; error: it printed an
//                                                    `info string error:` line; more: false
//                                                    after `quit`
//               { type: 'progress', done, total }   positions of the review judged so far
//               { type: 'analysed', json | error }  the review as JSON text, or why not
import init, { Session, analyseGame } from './wasm/konakis_wasm.js';

let session = null;
/** Int32Array over the shared buffer: [0] stops sent, [1] ponderhits sent. */
let flags = null;
/** The counters when the line being answered was sent. */
let base = { stops: 0, hits: 0 };
/** The line being answered is a `go ponder` whose ponderhit has not come yet. */
let pondering = false;
/** Ponderhits up to this count were answered through the poll function. */
let hitsAnswered = 0;
let current = { id: 0, quiet: false, error: false };

function output(text) {
  if (text.startsWith('info string error:')) current.error = true;
  if (!current.quiet) postMessage({ type: 'output', id: current.id, text });
}

function poll() {
  if (Atomics.load(flags, 0) > base.stops) return 1;
  if (pondering && Atomics.load(flags, 1) > base.hits) {
    // One ponderhit ends one ponder search; its line, when it comes, is not answered again.
    pondering = false;
    hitsAnswered = base.hits + 1;
    return 2;
  }
  return 0;
}

function answer(msg) {
  current = { id: msg.id, quiet: !!msg.quiet, error: false };
  base = { stops: msg.stops ?? 0, hits: msg.hits ?? 0 };
  pondering = msg.kind === 'ponder';
  let more = true;
  if (!(msg.kind === 'ponderhit' && msg.hits <= hitsAnswered)) {
    try {
      more = session.line(msg.text);
    } catch (e) {
      // The session never throws on input; this is the engine itself failing (a trap).
      output(`info string error: the engine failed (${String(e?.message ?? e).replace(/\s+/g, ' ')})`);
    }
  }
  pondering = false;
  postMessage({ type: 'done', id: msg.id, error: current.error, more });
  if (!more) close();
}

/** Reviews a game (crates/wasm/src/review.rs) and posts the answer. */
function analyse(msg) {
  const stopPoll = flags ? () => (Atomics.load(flags, 0) > 0 ? 1 : 0) : undefined;
  try {
    const json = analyseGame(msg.request, (done, total) => postMessage({ type: 'progress', done, total }), stopPoll);
    postMessage({ type: 'analysed', json });
  } catch (e) {
    postMessage({ type: 'analysed', error: String(e?.message ?? e) });
  }
}

/** Messages that came before the session was made. */
const early = [];

onmessage = async ({ data: msg }) => {
  if (msg.type === 'line' || msg.type === 'analyse') {
    if (session) (msg.type === 'line' ? answer : analyse)(msg);
    else early.push(msg);
    return;
  }
  if (msg.type !== 'init') return;
  try {
    await init(msg.wasm === undefined ? undefined : { module_or_path: msg.wasm });
    session = new Session(output);
    if (msg.flags) {
      flags = new Int32Array(msg.flags);
      session.setStopPoll(poll);
    }
    postMessage({ type: 'ready' });
    for (const m of early.splice(0)) (m.type === 'line' ? answer : analyse)(m);
  } catch (e) {
    postMessage({ type: 'failed', message: String(e?.message ?? e) });
  }
};

postMessage({ type: 'loaded' });
