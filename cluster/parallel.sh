#!/usr/bin/env bash
# Runs the shards of a konakis match with GNU parallel, here or over ssh, then merges them:
#   SHARDS=8 RESULTS=results cluster/parallel.sh <konakis match flags>
#   SHARDS=64 JOBS=4 SSHLOGIN=host1,host2 RESULTS=/shared/run1 cluster/parallel.sh ...
# JOBS shards run at a time (per machine); with SSHLOGIN, konakis (KONAKIS, default on the
# PATH) and RESULTS must be at the same paths on every machine (a shared folder).
set -uo pipefail
: "${RESULTS:?set RESULTS}" "${SHARDS:?set SHARDS}"
KONAKIS=${KONAKIS:-konakis}
mkdir -p "$RESULTS/games"
remote=()
if [ -n "${SSHLOGIN:-}" ]; then remote=(--sshlogin "$SSHLOGIN"); fi
seq 0 $((SHARDS - 1)) | parallel -q -j "${JOBS:-2}" "${remote[@]}" \
    "$KONAKIS" match "$@" --shard "{}/$SHARDS" --json "$RESULTS/shard-{}.json" \
    --records "$RESULTS/games/" > "$RESULTS/shards.txt"
"$KONAKIS" match merge "$RESULTS"/shard-*.json | tee "$RESULTS/merged.txt"
