#!/usr/bin/env bash
# Builds the browser package into web/dist/konakis/ and the reference board into
# web/dist/board/ (the board with a copy of the package beside it, one folder to serve).
set -euo pipefail
cd "$(dirname "$0")/.."
WASM_BINDGEN_VERSION=0.2.130
if [ "$(wasm-bindgen --version 2>/dev/null)" != "wasm-bindgen $WASM_BINDGEN_VERSION" ]; then
    echo "installing wasm-bindgen-cli $WASM_BINDGEN_VERSION with cargo install (the first build" \
        "only; it compiles some 160 crates: about 5 minutes on two cores)"
    # Not --locked: the CLI's own lock file pins a webpki-roots release that some registry
    # mirrors lack; the CLI's version is what must match, and that is exact.
    cargo install "wasm-bindgen-cli@$WASM_BINDGEN_VERSION"
fi
rustup target add wasm32-unknown-unknown > /dev/null 2>&1 || true
cargo build --profile wasm -p konakis-wasm --target wasm32-unknown-unknown
# Cargo's target folder, wherever CARGO_TARGET_DIR or a Cargo config puts it.
target=$(cargo metadata --format-version 1 --no-deps \
    | sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')
wasm=$target/wasm32-unknown-unknown/wasm/konakis_wasm.wasm
[ -f "$wasm" ] || { echo "build.sh: cargo built no $wasm" >&2; exit 1; }
out=web/dist/konakis
rm -rf "$out" web/dist/board
mkdir -p "$out"
wasm-bindgen --target web --no-typescript --out-dir "$out/wasm" "$wasm"
# Binaryen's optimiser (web/package.json's dev dependency, installed by `npm ci` in web/):
# a smaller .wasm and a few per cent more nodes per second. Skipped, with a note, without it.
opt=web/node_modules/.bin/wasm-opt
if [ -x "$opt" ]; then
    "$opt" -O3 --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
        --enable-mutable-globals --enable-reference-types --enable-multivalue \
        "$out/wasm/konakis_wasm_bg.wasm" -o "$out/wasm/konakis_wasm_bg.wasm"
else
    echo "note: $opt not found (cd web && npm ci installs it); the .wasm is not optimised further"
fi
cp web/package/* "$out/"
cp -r web/board web/dist/board
cp -r "$out" web/dist/board/konakis
size=$(wc -c < "$out/wasm/konakis_wasm_bg.wasm")
gzipped=$(gzip -9 -c "$out/wasm/konakis_wasm_bg.wasm" | wc -c)
echo "built $out ($size bytes of wasm, $gzipped gzipped) and web/dist/board"
