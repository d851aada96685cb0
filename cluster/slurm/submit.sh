#!/usr/bin/env bash
# Submits a sharded konakis match and its merge:
#   SHARDS=64 RESULTS=/shared/run1 cluster/slurm/submit.sh <konakis match flags>
# prints the two job ids; the table lands in $RESULTS/merged.txt.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
: "${RESULTS:?set RESULTS to a folder every node can write}" "${SHARDS:?set SHARDS}"
mkdir -p "$RESULTS"
array=$(sbatch --parsable --export=ALL,SHARDS="$SHARDS",RESULTS="$RESULTS" \
    --array=0-$((SHARDS - 1)) "$here/match-array.sh" "$@")
merge=$(sbatch --parsable --export=ALL,RESULTS="$RESULTS" \
    --dependency=afterany:"$array" "$here/merge.sh")
echo "array job $array, merge job $merge"
