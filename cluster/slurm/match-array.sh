#!/usr/bin/env bash
# One shard of a konakis match per Slurm array task. Submit with
#   RESULTS=/shared/run1 sbatch --array=0-3 cluster/slurm/match-array.sh <konakis match flags>
# Task K of the array plays shard K/N (N = SHARDS, or the array's size) and writes
# $RESULTS/shard-K.json (complete or absent), its table in $RESULTS/shard-K.txt and its
# games, numbered as in the whole match, in $RESULTS/games/.
#SBATCH --job-name=konakis-match
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=1
#SBATCH --output=konakis-match-%A_%a.log
set -euo pipefail
: "${RESULTS:?set RESULTS to a folder every node can write}"
KONAKIS=${KONAKIS:-konakis}
K=${SLURM_ARRAY_TASK_ID:?run this with sbatch --array}
N=${SHARDS:-${SLURM_ARRAY_TASK_COUNT:?}}
mkdir -p "$RESULTS/games"
exec "$KONAKIS" match "$@" --shard "$K/$N" --json "$RESULTS/shard-$K.json" \
    --records "$RESULTS/games/" > "$RESULTS/shard-$K.txt"
