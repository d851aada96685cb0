// What several web tests share.

import { pathToFileURL } from 'node:url';

/**
 * The native engine the tests compare the package with: `KONAKIS_NATIVE` (web/test.sh sets it
 * from Cargo's target folder, which CARGO_TARGET_DIR may move), else target/release/konakis.
 */
export const nativeKonakis = process.env.KONAKIS_NATIVE
  ? pathToFileURL(process.env.KONAKIS_NATIVE)
  : new URL('../../target/release/konakis', import.meta.url);

/** A small seeded generator (mulberry32), so that a failing game can be played again. */
export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
