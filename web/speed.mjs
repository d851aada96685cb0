// The wasm engine's bench against the native one, side by side: `node web/speed.mjs [rounds]
// [depth]` after `cargo build --release` and `bash web/build.sh`. Each round runs the native
// `konakis bench` (one thread) and then the same bench in the package's worker, in turn, so
// that both see the same machine; it prints each round and the medians.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Engine } from './dist/konakis/engine.js';

const rounds = Number(process.argv[2] ?? 5);
const depth = Number(process.argv[3] ?? 8);
const native = fileURLToPath(new URL('../target/release/konakis', import.meta.url));

function nativeBench() {
  const out = execFileSync(native, ['bench', '--depth', String(depth), '--threads', '1'], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  return summary(out.split('\n'));
}

function summary(lines) {
  const get = (name) => Number(lines.find((l) => l.startsWith(name))?.split(': ')[1]);
  return { nodes: get('Nodes searched'), nps: get('Nodes/second'), ms: get('Total time (ms)') };
}

const engine = await Engine.start();
function wasmBench() {
  return new Promise((ok) => {
    const lines = [];
    const off = engine.onLine((l) => {
      lines.push(l);
      if (l.startsWith('Nodes/second')) {
        off();
        ok(summary(lines));
      }
    });
    engine.send(`bench ${depth}`);
  });
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const n = [];
const w = [];
for (let r = 1; r <= rounds; r++) {
  const a = nativeBench();
  const b = await wasmBench();
  if (a.nodes !== b.nodes) throw new Error(`node counts differ: native ${a.nodes}, wasm ${b.nodes}`);
  n.push(a.nps);
  w.push(b.nps);
  console.log(`round ${r}: nodes ${a.nodes}  native ${a.nps} nps  wasm ${b.nps} nps  (${((100 * b.nps) / a.nps).toFixed(0)} %)`);
}
const [mn, mw] = [median(n), median(w)];
console.log(`median: native ${mn} nps, wasm ${mw} nps: ${((100 * mw) / mn).toFixed(0)} % of native`);
engine.terminate();
