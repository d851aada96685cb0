#!/usr/bin/env bash
# Merges the shards in $RESULTS into $RESULTS/merged.txt; run after the array with
#   sbatch --dependency=afterany:<array job id> cluster/slurm/merge.sh [--sprt elo0=.. elo1=..]
# Missing shards (a task that failed) are listed in the log; exit status as
# 'konakis match merge --help' gives it.
#SBATCH --job-name=konakis-merge
#SBATCH --ntasks=1
#SBATCH --output=konakis-merge-%j.log
set -uo pipefail
: "${RESULTS:?set RESULTS to the folder of the shards}"
KONAKIS=${KONAKIS:-konakis}
"$KONAKIS" match merge "$RESULTS"/shard-*.json "$@" > "$RESULTS/merged.txt"
