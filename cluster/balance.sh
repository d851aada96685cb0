#!/usr/bin/env bash
# The balance study of docs/balance.md: Konakis against itself under every rule family it
# plays, each family a sharded match run through cluster/parallel.sh (here, or over ssh with
# SSHLOGIN), then one chart of the sides' shares with the summary lines:
#   RESULTS=balance cluster/balance.sh
#   FAMILIES="ashton original" GAMES=2000 ST=0.1 SHARDS=8 JOBS=2 RESULTS=b cluster/balance.sh
# Writes RESULTS/<family>/{open.txt,shard-K.json,games/,merged.txt} and RESULTS/balance.svg.
# Before the first match it checks what it needs (RESULTS, konakis, GNU parallel, a folder it
# can write, known families) and stops with one line on stderr if something is missing, as it
# does when a step fails (the step's own output is in RESULTS/<family>/*.log).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
die() { echo "balance.sh: $*" >&2; exit 1; }
[ -n "${RESULTS:-}" ] || die "set RESULTS to the folder for the results, e.g. RESULTS=balance"
KONAKIS=${KONAKIS:-konakis}
GAMES=${GAMES:-1000}
ST=${ST:-0.025}
SHARDS=${SHARDS:-4}
[[ $GAMES =~ ^[1-9][0-9]*$ ]] || die "GAMES must be a number of games (1 or more), not '$GAMES'"
[[ $SHARDS =~ ^[1-9][0-9]*$ ]] || die "SHARDS must be a number of shards (1 or more), not '$SHARDS'"
declare -A RULES=(
  [original]="KingCapture=Original"
  [english]="KingCapture=English"
  [taflhub]="KingCapture=English ThroneHostile=true KingReentersThrone=false ThroneGuardCapture=false"
  [encyclopedia]="KingCapture=English ThroneHostile=true KingReentersThrone=false ThroneGuardCapture=false FirstMove=Defenders KingArmed=false"
  [opentafl]="KingCapture=Original ThroneHostile=true KingReentersThrone=false MoveLimit=0 Encirclement=true"
  [ashton]="Ruleset=Ashton"
)
# Ashton has no move limit, and two engines can play thousands of plies without repeating a
# position: a game is drawn once each side has played 200 moves.
declare -A EXTRA=([ashton]="--maxmoves 200")
read -ra families <<< "${FAMILIES:-original english taflhub encyclopedia opentafl ashton}"
for fam in "${families[@]}"; do
  [ -n "${RULES[$fam]:-}" ] || die "unknown family '$fam' (the families: ${!RULES[*]})"
done
command -v "$KONAKIS" > /dev/null \
    || die "konakis program '$KONAKIS' not found: set KONAKIS to it or put it on the PATH"
# The matches run through cluster/parallel.sh: its checks, once, before the first family.
command -v parallel > /dev/null || die "GNU parallel not found: install it (apt-get install parallel)"
parallel --version 2> /dev/null | grep -q '^GNU parallel' \
    || die "'parallel' on the PATH is not GNU parallel (moreutils has another): install GNU parallel"
mkdir -p "$RESULTS" 2> /dev/null && [ -w "$RESULTS" ] || die "cannot create or write the folder $RESULTS"
# parallel.sh finds the program by its path.
KONAKIS=$(command -v "$KONAKIS")
files=()
for fam in "${families[@]}"; do
  read -ra rules <<< "${RULES[$fam]}"
  read -ra extra <<< "${EXTRA[$fam]:-}"
  out=$RESULTS/$fam
  mkdir -p "$out"
  # Two random plies per opening, for variety (every one kept): each is played with both sides.
  # Written aside and renamed, so a failed run leaves no partial file to be taken up next time.
  if [ ! -f "$out/open.txt" ]; then
    "$KONAKIS" openings --count $(((GAMES + 1) / 2)) --plies 2 --seed 17 --depth 1 \
        --margin 100000 --rules "${rules[@]}" --output "$out/open.txt.part" \
        2> "$out/openings.log" \
        || { rm -f "$out/open.txt.part"; die "$fam: konakis openings failed: $(tail -n 1 "$out/openings.log")"; }
    mv "$out/open.txt.part" "$out/open.txt"
  fi
  code=0
  KONAKIS=$KONAKIS SHARDS=$SHARDS RESULTS=$out "$root/cluster/parallel.sh" \
      --engine name=konakis-a "cmd=$KONAKIS" --engine name=konakis-b "cmd=$KONAKIS" \
      --each "st=$ST" timemargin=1000 'option.Move Overhead=5' option.Threads=1 \
      --games "$GAMES" --concurrency 1 --openings "$out/open.txt" "${extra[@]}" \
      --rules "${rules[@]}" > "$out/run.log" 2>&1 || code=$?
  [ "$code" -eq 0 ] || die "$fam: the match did not finish every shard (exit status $code): see $out/run.log"
  files+=("$out"/shard-*.json)
done
"$KONAKIS" match report --chart "$RESULTS/balance.svg" "${files[@]}"
