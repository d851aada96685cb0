#!/usr/bin/env bash
# Issue 34, the Python package: build the abi3 wheel with maturin, install it offline from the
# built file into a fresh virtual environment, and run the package's tests against the native
# program (built here if `cargo test --release` has not built it already), and run
# python/README.md's examples from the wheel alone. `.ci/run` calls this; it needs Python 3
# with venv, and PyPI for maturin, pytest and numpy.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=target/python-ci/venv
wheels=target/python-ci/wheels
rm -rf target/python-ci
if ! python3 -m venv "$venv" 2> /dev/null; then
    # Debian's python3 keeps venv in a package of its own.
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq python3-venv > /dev/null
    rm -rf "$venv"
    python3 -m venv "$venv"
fi
"$venv/bin/pip" install -q --upgrade pip
"$venv/bin/pip" install -q maturin pytest numpy
# Gymnasium for the environment's own checks (check_env, wrappers, vector envs); mypy for stubtest.
"$venv/bin/pip" install -q "gymnasium>=1.0" mypy
"$venv/bin/maturin" build --release --interpreter "$venv/bin/python" --out "$wheels"
# Offline, from the built file alone: first into a bare environment (the wheel needs nothing
# else), then into the tests' environment.
python3 -m venv target/python-ci/bare
target/python-ci/bare/bin/pip install -q --no-index "$wheels"/konakis-*.whl
target/python-ci/bare/bin/python -c 'import konakis; assert konakis.Game().perft(2) == 4400'
"$venv/bin/pip" install --no-index --find-links "$wheels" konakis
cargo build --release --bin konakis
# python/README.md's examples as written, as a user runs them after `pip install`: in the bare
# environment (the wheel, and NumPy and Gymnasium for the learning examples), each in a fresh interpreter in
# an empty directory, with the environment's own `konakis` command and the system's on the
# PATH, no KONAKIS_BIN. Only the example marked `python native` (`konakis datagen`, a tool of
# the native program) gets target/release first on its PATH.
target/python-ci/bare/bin/pip install -q numpy "gymnasium>=1.0"
target/python-ci/bare/bin/python python/tests/readme_examples.py --native-dir "$PWD/target/release"
export KONAKIS_BIN="$PWD/target/release/konakis"
# From outside python/, so that `import konakis` is the installed wheel, not the sources.
(cd target/python-ci && ./venv/bin/python -m pytest -q ../../python/tests)
# The type stubs against the installed module: every mismatch fails (none is allowed).
(cd target/python-ci && ./venv/bin/python -m mypy.stubtest konakis)
