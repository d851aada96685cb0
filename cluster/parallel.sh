#!/usr/bin/env bash
# Runs the shards of a konakis match with GNU parallel, here or over ssh, then merges them:
#   SHARDS=8 RESULTS=results cluster/parallel.sh <konakis match flags>
#   SHARDS=64 JOBS=4 SSHLOGIN=host1,host2 RESULTS=/nfs/run1 cluster/parallel.sh ...
# JOBS shards run at a time (per machine); with SSHLOGIN, konakis (KONAKIS, default on the
# PATH) and RESULTS must be at the same paths on every machine (a shared folder).
# Writes RESULTS/shard-K.json, RESULTS/games/, the shards' tables in RESULTS/shards.txt and the
# merged table in RESULTS/merged.txt. Before it starts it checks what it needs (the variables,
# konakis, GNU parallel, a folder it can write) and stops with one line on stderr if something
# is missing; a step that produces nothing leaves no empty file. Exit status: the merge's
# ('konakis match merge --help'), or 1 when it could not get that far.
set -uo pipefail
die() { echo "parallel.sh: $*" >&2; exit 1; }
whole() { [[ $1 =~ ^[1-9][0-9]*$ ]]; }

[ -n "${RESULTS:-}" ] || die "set RESULTS to the folder for the results, e.g. RESULTS=results"
whole "${SHARDS:-}" || die "set SHARDS to the number of shards (1 or more), e.g. SHARDS=8"
whole "${JOBS:-2}" || die "JOBS must be a number of shards at a time (1 or more), not '$JOBS'"
[ $# -gt 0 ] || die "give the konakis match flags after the script's name"
KONAKIS=${KONAKIS:-konakis}
command -v "$KONAKIS" > /dev/null \
    || die "konakis program '$KONAKIS' not found: set KONAKIS to it or put it on the PATH"
command -v parallel > /dev/null || die "GNU parallel not found: install it (apt-get install parallel)"
parallel --version 2> /dev/null | grep -q '^GNU parallel' \
    || die "'parallel' on the PATH is not GNU parallel (moreutils has another): install GNU parallel"
mkdir -p "$RESULTS/games" 2> /dev/null || die "cannot create the folder $RESULTS/games"
[ -w "$RESULTS" ] && [ -w "$RESULTS/games" ] || die "cannot write in $RESULTS"

rm -f "$RESULTS/merged.txt"
remote=()
if [ -n "${SSHLOGIN:-}" ]; then remote=(--sshlogin "$SSHLOGIN"); fi
seq 0 $((SHARDS - 1)) | parallel -q -j "${JOBS:-2}" "${remote[@]}" \
    "$KONAKIS" match "$@" --shard "{}/$SHARDS" --json "$RESULTS/shard-{}.json" \
    --records "$RESULTS/games/" > "$RESULTS/shards.txt"
[ -s "$RESULTS/shards.txt" ] || rm -f "$RESULTS/shards.txt"
shards=("$RESULTS"/shard-*.json)
[ -e "${shards[0]}" ] || die "no shard finished (the shards' errors are above)"
# The merged table is written aside and kept only if the merge printed one.
"$KONAKIS" match merge "${shards[@]}" > "$RESULTS/merged.txt.part"
code=$?
if [ -s "$RESULTS/merged.txt.part" ]; then
    mv "$RESULTS/merged.txt.part" "$RESULTS/merged.txt"
    cat "$RESULTS/merged.txt"
else
    rm -f "$RESULTS/merged.txt.part"
fi
exit "$code"
