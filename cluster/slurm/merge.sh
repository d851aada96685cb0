#!/usr/bin/env bash
# Merges the shards in $RESULTS into $RESULTS/merged.txt; run after the array with
#   sbatch --dependency=afterany:<array job id> cluster/slurm/merge.sh [--sprt elo0=.. elo1=..]
# Missing shards (a task that failed) are listed in the log; exit status as
# 'konakis match merge --help' gives it. With no shard to merge, or when the merge fails, it
# says why in one line of its log and writes no merged.txt.
#SBATCH --job-name=konakis-merge
#SBATCH --ntasks=1
#SBATCH --output=konakis-merge-%j.log
set -uo pipefail
die() { echo "merge.sh: $*" >&2; exit 1; }
[ -n "${RESULTS:-}" ] || die "set RESULTS to the folder of the shards"
KONAKIS=${KONAKIS:-konakis}
command -v "$KONAKIS" > /dev/null \
    || die "konakis program '$KONAKIS' not found: set KONAKIS to it or put it on the PATH"
[ -d "$RESULTS" ] || die "no folder $RESULTS"
shards=("$RESULTS"/shard-*.json)
[ -e "${shards[0]}" ] || die "no shard-*.json in $RESULTS: no task of the array finished (see konakis-match-*.log)"
rm -f "$RESULTS/merged.txt"
"$KONAKIS" match merge "${shards[@]}" "$@" > "$RESULTS/merged.txt.part"
code=$?
if [ -s "$RESULTS/merged.txt.part" ]; then
    mv "$RESULTS/merged.txt.part" "$RESULTS/merged.txt"
else
    rm -f "$RESULTS/merged.txt.part"
fi
exit "$code"
