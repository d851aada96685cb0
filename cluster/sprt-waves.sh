#!/usr/bin/env bash
# An SPRT on a cluster in waves: the match (its --games is the cap) is cut into SHARDS
# shards; each wave runs WAVE more of them, then 'konakis match merge --sprt' judges all the
# finished ones and the script stops at a verdict or when every shard has run.
#   SHARDS=100 WAVE=10 RESULTS=/nfs/sprt RUN=slurm cluster/sprt-waves.sh \
#       --sprt elo0=0 elo1=5 -- <konakis match flags>
# RUN=slurm submits each wave as an array job and waits for it (sbatch --wait); RUN=parallel
# runs it with GNU parallel (JOBS at a time, SSHLOGIN as in parallel.sh).
# Before the first wave it checks what it needs (the variables, konakis, sbatch or GNU
# parallel, a folder it can write) and stops with one line on stderr if something is missing.
# Exit status: 0 H1 accepted, 3 H0 accepted, 4 the cap was reached without a verdict, 1 error.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
die() { echo "sprt-waves.sh: $*" >&2; exit 1; }
whole() { [[ $1 =~ ^[1-9][0-9]*$ ]]; }

[ -n "${RESULTS:-}" ] || die "set RESULTS to the folder for the results, e.g. RESULTS=sprt"
whole "${SHARDS:-}" || die "set SHARDS to the number of shards (1 or more), e.g. SHARDS=100"
whole "${WAVE:-}" || die "set WAVE to the number of shards per wave (1 or more), e.g. WAVE=10"
whole "${JOBS:-2}" || die "JOBS must be a number of shards at a time (1 or more), not '$JOBS'"
KONAKIS=${KONAKIS:-konakis}
sprt=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do sprt+=("$1"); shift; done
[ $# -gt 1 ] || die "usage: sprt-waves.sh --sprt elo0=.. elo1=.. -- <konakis match flags>"
shift
command -v "$KONAKIS" > /dev/null \
    || die "konakis program '$KONAKIS' not found: set KONAKIS to it or put it on the PATH"
case ${RUN:-parallel} in
slurm)
    command -v sbatch > /dev/null || die "RUN=slurm needs sbatch (Slurm) on the PATH" ;;
parallel)
    command -v parallel > /dev/null \
        || die "GNU parallel not found: install it (apt-get install parallel) or use RUN=slurm"
    parallel --version 2> /dev/null | grep -q '^GNU parallel' \
        || die "'parallel' on the PATH is not GNU parallel (moreutils has another): install GNU parallel" ;;
*) die "RUN must be slurm or parallel, not '$RUN'" ;;
esac
mkdir -p "$RESULTS/games" 2> /dev/null || die "cannot create the folder $RESULTS/games"
[ -w "$RESULTS" ] && [ -w "$RESULTS/games" ] || die "cannot write in $RESULTS"
rm -f "$RESULTS/merged.txt"

first=0
while [ "$first" -lt "$SHARDS" ]; do
    last=$((first + WAVE - 1))
    [ "$last" -ge "$SHARDS" ] && last=$((SHARDS - 1))
    echo "wave: shards $first-$last of $SHARDS" >&2
    case ${RUN:-parallel} in
    slurm)
        sbatch --wait --export=ALL,SHARDS="$SHARDS",RESULTS="$RESULTS",KONAKIS="$KONAKIS" \
            --array="$first-$last" "$here/slurm/match-array.sh" "$@" >&2 ;;
    parallel)
        remote=()
        if [ -n "${SSHLOGIN:-}" ]; then remote=(--sshlogin "$SSHLOGIN"); fi
        seq "$first" "$last" | parallel -q -j "${JOBS:-2}" "${remote[@]}" \
            "$KONAKIS" match "$@" --shard "{}/$SHARDS" --json "$RESULTS/shard-{}.json" \
            --records "$RESULTS/games/" > /dev/null ;;
    esac
    shards=("$RESULTS"/shard-*.json)
    [ -e "${shards[0]}" ] || die "no shard of the wave finished (see the shards' errors)"
    # The merged table is written aside and replaces the last wave's only if there is one.
    "$KONAKIS" match merge "${shards[@]}" "${sprt[@]}" > "$RESULTS/merged.txt.part"
    code=$?
    if [ -s "$RESULTS/merged.txt.part" ]; then
        mv "$RESULTS/merged.txt.part" "$RESULTS/merged.txt"
    else
        rm -f "$RESULTS/merged.txt.part"
    fi
    case $code in
    0) echo "H1 accepted" >&2; cat "$RESULTS/merged.txt"; exit 0 ;;
    3) echo "H0 accepted" >&2; cat "$RESULTS/merged.txt"; exit 3 ;;
    4) first=$((last + 1)) ;;
    *) die "the merge failed (exit status $code; its error is above)" ;;
    esac
done
echo "every shard has run without a verdict" >&2
cat "$RESULTS/merged.txt"
exit 4
