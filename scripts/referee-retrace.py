#!/usr/bin/env python3
"""Plays given games of Copenhagen 11x11 through hnefatafl.org's referee and writes them in the
format of tests/data/referees (crates/core/tests/referee_games.rs), every number the referee's.

The referee is `hnefatafl-text-protocol` built from hnefatafl-copenhagen (outside this
repository, the anchors); its location comes in through the environment:

  HNEFATAFL_TEXT_PROTOCOL  the hnefatafl-text-protocol program

Input (a file, or standard input): one game a line, `game N: MOVE MOVE ...`, each move written
`from-to` or `fromto` (`d1-d3`). For each position the referee is asked for its legal moves
(`play_from`, then `play_to` for each piece: their number is the count), the move is played
(`play`, whose reply lists the captures) and, after the last move, `final_status`. The record
of each game goes to standard output:

  game N size 11 plies P status STATUS: from-to[xSQ/SQ...]#COUNT ... end#COUNT

A move the referee refuses is reported on standard error, and that game left out.
Exit status: 0 when every game was written, 1 when one was refused, 2 on bad input.
"""

import os
import re
import subprocess
import sys

STATUS = {
    "attacker_wins": "AttackerWins",
    "defender_wins": "DefenderWins",
    "draw": "Draw",
    "ongoing": "Ongoing",
}


class Referee:
    """One hnefatafl-text-protocol process, asked one command at a time."""

    def __init__(self, program):
        self.process = subprocess.Popen(
            [program], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )

    def ask(self, command):
        """The reply to `command`: (True, text) for `= text`, (False, text) for `? text`."""
        self.process.stdin.write(command + "\n")
        self.process.stdin.flush()
        while True:
            line = self.process.stdout.readline()
            if not line:
                raise RuntimeError(f"the referee stopped at '{command}'")
            line = line.rstrip("\n")
            if line.startswith("="):
                return True, line[1:].strip()
            if line.startswith("?"):
                return False, line[1:].strip()

    def legal_moves(self):
        """The number of legal moves here, and the role to move (None when there are none)."""
        ok, reply = self.ask("play_from")
        if not ok or not reply:
            return 0, None
        role, *pieces = reply.split()
        count = 0
        for square in pieces:
            ok, targets = self.ask(f"play_to {role} {square}")
            if ok:
                count += len(targets.split())
        return count, role

    def close(self):
        self.process.stdin.write("quit\n")
        self.process.stdin.flush()
        self.process.wait()


def trace(program, number, moves):
    """The record of one game, or raises ValueError naming the move refused."""
    referee = Referee(program)
    try:
        referee.ask("board_size 11")
        tokens = []
        for move in moves:
            squares = re.findall(r"[a-k](?:1[01]|[1-9])", move)
            if len(squares) != 2:
                raise ValueError(f"'{move}' is not a move")
            source, target = squares
            count, role = referee.legal_moves()
            ok, reply = referee.ask(f"play {role} {source} {target}")
            if not ok:
                raise ValueError(f"the referee refuses {move}: {reply}")
            taken = "/".join(sorted(reply.split()))
            tokens.append(f"{source}-{target}" + (f"x{taken}" if taken else "") + f"#{count}")
        _, status = referee.ask("final_status")
        status = STATUS[status]
        end = referee.legal_moves()[0] if status == "Ongoing" else 0
        tokens.append(f"end#{end}")
        return f"game {number} size 11 plies {len(moves)} status {status}: " + " ".join(tokens)
    finally:
        referee.close()


def main():
    program = os.environ.get("HNEFATAFL_TEXT_PROTOCOL")
    if not program:
        print("set HNEFATAFL_TEXT_PROTOCOL to the hnefatafl-text-protocol program", file=sys.stderr)
        return 2
    source = open(sys.argv[1]) if len(sys.argv) > 1 else sys.stdin
    refused = False
    for line in source:
        if not line.strip() or line.startswith("#"):
            continue
        head, _, moves = line.partition(":")
        words = head.split()
        if len(words) != 2 or words[0] != "game" or not words[1].isdigit():
            print(f"not a game line: {line.strip()}", file=sys.stderr)
            return 2
        try:
            print(trace(program, int(words[1]), moves.split()), flush=True)
        except ValueError as e:
            print(f"game {words[1]}: {e}", file=sys.stderr)
            refused = True
    return 1 if refused else 0


if __name__ == "__main__":
    sys.exit(main())
