#!/usr/bin/env bash
# The balance study of docs/balance.md: Konakis against itself under every rule family it
# plays, each family a sharded match run through cluster/parallel.sh (here, or over ssh with
# SSHLOGIN), then one chart of the sides' shares with the summary lines:
#   RESULTS=balance cluster/balance.sh
#   FAMILIES="ashton original" GAMES=2000 ST=0.1 SHARDS=8 JOBS=2 RESULTS=b cluster/balance.sh
# Writes RESULTS/<family>/{open.txt,shard-K.json,games/,merged.txt} and RESULTS/balance.svg.
set -euo pipefail
: "${RESULTS:?set RESULTS}"
root=$(cd "$(dirname "$0")/.." && pwd)
KONAKIS=${KONAKIS:-konakis}
GAMES=${GAMES:-1000}
ST=${ST:-0.025}
SHARDS=${SHARDS:-4}
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
files=()
for fam in ${FAMILIES:-original english taflhub encyclopedia opentafl ashton}; do
  [ -n "${RULES[$fam]:-}" ] || { echo "unknown family $fam (${!RULES[*]})" >&2; exit 1; }
  read -ra rules <<< "${RULES[$fam]}"
  read -ra extra <<< "${EXTRA[$fam]:-}"
  out=$RESULTS/$fam
  mkdir -p "$out"
  # Two random plies per opening, for variety (every one kept): each is played with both sides.
  [ -f "$out/open.txt" ] || "$KONAKIS" openings --count $(((GAMES + 1) / 2)) --plies 2 --seed 17 \
      --depth 1 --margin 100000 --rules "${rules[@]}" --output "$out/open.txt" 2> /dev/null
  KONAKIS=$KONAKIS SHARDS=$SHARDS RESULTS=$out "$root/cluster/parallel.sh" \
      --engine name=konakis-a "cmd=$KONAKIS" --engine name=konakis-b "cmd=$KONAKIS" \
      --each "st=$ST" timemargin=1000 'option.Move Overhead=5' option.Threads=1 \
      --games "$GAMES" --concurrency 1 --openings "$out/open.txt" "${extra[@]}" \
      --rules "${rules[@]}" > "$out/run.log" 2>&1
  files+=("$out"/shard-*.json)
done
"$KONAKIS" match report --chart "$RESULTS/balance.svg" "${files[@]}"
