#!/bin/bash
# OpenTafl hosts Konakis: whole headless games inside OpenTafl 0.4.8 itself (its network server
# and two headless clients), `konakis otep` against OpenTafl's own AI, sides swapped from game
# to game, each record replayed by `konakis replay`. CI cannot build OpenTafl in its time, so
# this check runs outside `.ci/run`; docs/rules.md ("OpenTafl hosts Konakis") keeps its latest
# result.
#
# Usage: scripts/opentafl-host.sh OPENTAFL_DIR KONAKIS RULES GAMES CLOCK OUT
#   OPENTAFL_DIR  a folder with OpenTafl.jar (0.4.8) and engines/opentafl.ini (its AI as an
#                 OTEP engine); it is copied, never changed
#   KONAKIS       the konakis program (a release build)
#   RULES         OpenTafl's variant number, as its variant menu counts: 3 Copenhagen 11x11,
#                 6 Brandub 7x7, 8 Tablut 9x9 (tests/data/opentafl/builtin-rules-strings.txt)
#   GAMES         games to play; Konakis attacks in odd games, defends in even ones
#   CLOCK         OpenTafl's clock, main+overtime/periods+increment in ms: 0+2000/3+0 gives
#                 each side 2 s a move (OpenTafl's AI thinks 1 s of it, as does Konakis)
#   OUT           a folder for the records (game-N-konakis-SIDE.otg), logs and summary.txt
#
# OpenTafl's server listens on the fixed port 11541 of the loopback; each run therefore goes in
# a network namespace of its own (`unshare -rn`), so that runs and other programs never meet.
# Needs java (17) and unshare (util-linux) with unprivileged user namespaces.
set -u
if [ $# -ne 6 ]; then
  sed -n '8,20p' "$0" >&2
  exit 2
fi
if [ -z "${OTEP_HOST_INSIDE:-}" ]; then
  mkdir -p "$6" || exit 2
  export OTEP_HOST_INSIDE=1
  exec unshare -rn bash -c 'ip link set lo up && exec "$0" "$@"' "$0" "$@"
fi

ot=$(realpath "$1") konakis=$(realpath "$2") rules=$3 games=$4 clock=$5 out=$(realpath "$6")
repo=$(dirname "$(realpath "$0")")/..
work="$out/opentafl"
rm -rf "$work"
mkdir -p "$work/engines/konakis" "$work/saved-games/headless-ai"
cp "$ot/OpenTafl.jar" "$work/"
cp "$ot/engines/opentafl.ini" "$work/engines/"
cp "$repo/engines/konakis.ini" "$work/engines/"
cp "$konakis" "$work/engines/konakis/konakis"
cd "$work" || exit 2
summary="$out/summary.txt"
echo "# $(date -u +%Y-%m-%dT%H:%MZ) rules $rules clock $clock games $games" >> "$summary"

for n in $(seq 1 "$games"); do
  if [ $((n % 2)) -eq 1 ]; then
    side=attackers a=engines/konakis.ini b=engines/opentafl.ini
  else
    side=defenders a=engines/opentafl.ini b=engines/konakis.ini
  fi
  rm -f saved-games/headless-ai/*
  log="$out/game-$n"
  java -jar OpenTafl.jar --server --threads 2 > "$log-server.log" 2>&1 &
  srv=$!
  sleep 4
  # The creating client plays the attackers.
  java -jar OpenTafl.jar --headless --server 127.0.0.1 --username botA --password pwA \
    --engine "$a" --create --rules "$rules" --clock "$clock" --side attackers \
    > "$log-attackers.log" 2>&1 &
  ca=$!
  sleep 6
  timeout "${GAME_TIMEOUT:-3600}" java -jar OpenTafl.jar --headless --server 127.0.0.1 \
    --username botB --password pwB --engine "$b" --join --opponent botA \
    > "$log-defenders.log" 2>&1
  status=$?
  sleep 2
  kill "$ca" "$srv" 2> /dev/null
  wait "$ca" "$srv" 2> /dev/null
  record=$(ls -t saved-games/headless-ai/*.otg 2> /dev/null | head -1)
  if [ -z "$record" ]; then
    echo "game $n konakis $side: no record (client exited $status)" >> "$summary"
    continue
  fi
  kept="$out/game-$n-konakis-$side.otg"
  cp "$record" "$kept"
  result=$(grep -o '\[result:[-0-9]*\]' "$kept" | head -1)
  replayed=$("$konakis" replay "$kept" 2>&1 | tr '\n' ' ')
  echo "game $n konakis $side $result: $replayed" >> "$summary"
done
