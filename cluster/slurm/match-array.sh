#!/usr/bin/env bash
# One shard of a konakis match per Slurm array task. Submit with
#   RESULTS=/nfs/run1 sbatch --array=0-3 cluster/slurm/match-array.sh <konakis match flags>
# Task K of the array plays shard K/N (N = SHARDS, or the array's size) and writes
# $RESULTS/shard-K.json (complete or absent), its table in $RESULTS/shard-K.txt and its
# games, numbered as in the whole match, in $RESULTS/games/. A task that cannot start (no
# RESULTS, no konakis, a folder it cannot write) says why in one line of its log; a shard
# that fails leaves no empty table.
#SBATCH --job-name=konakis-match
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=1
#SBATCH --output=konakis-match-%A_%a.log
set -uo pipefail
die() { echo "match-array.sh: $*" >&2; exit 1; }
[ -n "${RESULTS:-}" ] || die "set RESULTS to a folder every node can write"
K=${SLURM_ARRAY_TASK_ID:-}
[ -n "$K" ] || die "run this with sbatch --array (SLURM_ARRAY_TASK_ID is not set)"
N=${SHARDS:-${SLURM_ARRAY_TASK_COUNT:-}}
[[ $N =~ ^[1-9][0-9]*$ ]] || die "set SHARDS to the number of shards (1 or more)"
[ $# -gt 0 ] || die "give the konakis match flags after the script's name"
KONAKIS=${KONAKIS:-konakis}
command -v "$KONAKIS" > /dev/null \
    || die "konakis program '$KONAKIS' not found on $(hostname): set KONAKIS to it or put it on the PATH"
mkdir -p "$RESULTS/games" 2> /dev/null || die "cannot create the folder $RESULTS/games"
[ -w "$RESULTS" ] && [ -w "$RESULTS/games" ] || die "cannot write in $RESULTS"
"$KONAKIS" match "$@" --shard "$K/$N" --json "$RESULTS/shard-$K.json" \
    --records "$RESULTS/games/" > "$RESULTS/shard-$K.txt"
code=$?
[ -s "$RESULTS/shard-$K.txt" ] || rm -f "$RESULTS/shard-$K.txt"
exit "$code"
