#!/usr/bin/env bash
# The browser package's tests: builds the package and the board (web/build.sh), the native
# engine the rules tests compare against, installs what a fresh machine lacks (Node.js and
# npm, Debian's Chromium, playwright-core from the npm registry), then runs Node's test
# runner over web/test/. Screenshots of the board land in web/dist/screenshots/.
set -euo pipefail
cd "$(dirname "$0")"
missing=()
command -v node > /dev/null || missing+=(nodejs)
command -v npm > /dev/null || missing+=(npm)
[ -x /usr/bin/chromium ] || missing+=(chromium)
if [ ${#missing[@]} -gt 0 ]; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq "${missing[@]}" > /dev/null
fi
npm ci --no-audit --no-fund
bash build.sh
cargo build --release -q -p konakis
# The native engine the tests compare with, in Cargo's target folder (CARGO_TARGET_DIR or a
# Cargo config may move it).
target=$(cargo metadata --format-version 1 --no-deps \
    | sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')
KONAKIS_NATIVE=$target/release/konakis npm test
