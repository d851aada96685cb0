#!/usr/bin/env bash
# An SPRT on a cluster in waves: the match (its --games is the cap) is cut into SHARDS
# shards; each wave runs WAVE more of them, then 'konakis match merge --sprt' judges all the
# finished ones and the script stops at a verdict or when every shard has run.
#   SHARDS=100 WAVE=10 RESULTS=/shared/sprt RUN=slurm cluster/sprt-waves.sh \
#       --sprt elo0=0 elo1=5 -- <konakis match flags>
# RUN=slurm submits each wave as an array job and waits for it (sbatch --wait); RUN=parallel
# runs it with GNU parallel (JOBS at a time, SSHLOGIN as in parallel.sh).
# Exit status: 0 H1 accepted, 3 H0 accepted, 4 the cap was reached without a verdict, 1 error.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
: "${RESULTS:?set RESULTS}" "${SHARDS:?set SHARDS}" "${WAVE:?set WAVE}"
KONAKIS=${KONAKIS:-konakis}
sprt=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do sprt+=("$1"); shift; done
shift || { echo "usage: $0 --sprt elo0=.. elo1=.. -- <match flags>" >&2; exit 1; }
mkdir -p "$RESULTS/games"
first=0
while [ "$first" -lt "$SHARDS" ]; do
    last=$((first + WAVE - 1))
    [ "$last" -ge "$SHARDS" ] && last=$((SHARDS - 1))
    echo "wave: shards $first-$last of $SHARDS" >&2
    case ${RUN:-parallel} in
    slurm)
        sbatch --wait --export=ALL,SHARDS="$SHARDS",RESULTS="$RESULTS" \
            --array="$first-$last" "$here/slurm/match-array.sh" "$@" >&2 ;;
    parallel)
        remote=()
        if [ -n "${SSHLOGIN:-}" ]; then remote=(--sshlogin "$SSHLOGIN"); fi
        seq "$first" "$last" | parallel -q -j "${JOBS:-2}" "${remote[@]}" \
            "$KONAKIS" match "$@" --shard "{}/$SHARDS" --json "$RESULTS/shard-{}.json" \
            --records "$RESULTS/games/" > /dev/null ;;
    *) echo "RUN must be slurm or parallel" >&2; exit 1 ;;
    esac
    "$KONAKIS" match merge "$RESULTS"/shard-*.json "${sprt[@]}" > "$RESULTS/merged.txt"
    code=$?
    case $code in
    0) echo "H1 accepted" >&2; cat "$RESULTS/merged.txt"; exit 0 ;;
    3) echo "H0 accepted" >&2; cat "$RESULTS/merged.txt"; exit 3 ;;
    4) first=$((last + 1)) ;;
    *) echo "merge failed ($code)" >&2; exit 1 ;;
    esac
done
echo "every shard has run without a verdict" >&2
cat "$RESULTS/merged.txt"
exit 4
