#!/usr/bin/env bash
# Submits a sharded konakis match and its merge:
#   SHARDS=64 RESULTS=/nfs/run1 cluster/slurm/submit.sh <konakis match flags>
# prints the two job ids; the table lands in $RESULTS/merged.txt. Before it submits anything
# it checks what it needs (the variables, sbatch, konakis, a folder it can write) and stops
# with one line on stderr if something is missing.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
die() { echo "submit.sh: $*" >&2; exit 1; }
[ -n "${RESULTS:-}" ] || die "set RESULTS to a folder every node can write"
[[ ${SHARDS:-} =~ ^[1-9][0-9]*$ ]] || die "set SHARDS to the number of shards (1 or more), e.g. SHARDS=64"
[ $# -gt 0 ] || die "give the konakis match flags after the script's name"
command -v sbatch > /dev/null || die "sbatch (Slurm) not found on the PATH"
KONAKIS=${KONAKIS:-konakis}
command -v "$KONAKIS" > /dev/null \
    || die "konakis program '$KONAKIS' not found: set KONAKIS to it or put it on the PATH"
mkdir -p "$RESULTS" 2> /dev/null && [ -w "$RESULTS" ] || die "cannot create or write the folder $RESULTS"
array=$(sbatch --parsable --export=ALL,SHARDS="$SHARDS",RESULTS="$RESULTS",KONAKIS="$KONAKIS" \
    --array=0-$((SHARDS - 1)) "$here/match-array.sh" "$@")
merge=$(sbatch --parsable --export=ALL,RESULTS="$RESULTS",KONAKIS="$KONAKIS" \
    --dependency=afterany:"$array" "$here/merge.sh")
echo "array job $array, merge job $merge"
