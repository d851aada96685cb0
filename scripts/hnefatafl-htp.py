#!/usr/bin/env python3
"""Records short exchanges with hnefatafl.org's engine in its Hnefatafl Text Protocol:
tests/data/hnefatafl/htp-session.txt, which the tests of crates/protocols/src/hnefatafl.rs
read (every `play` line the engine accepted or sent is read by Konakis and written back the
same; every one it refused for its form is refused by Konakis too).

The engine (hnefatafl-copenhagen's `hnefatafl-text-protocol`) is a program built outside
this repository (the anchors); its location comes in through the environment:

  HNEFATAFL_HTP   the hnefatafl-text-protocol program

Each session is one run of the engine. The engine answers each command with one line that
starts with `=` (done, with the squares captured, or the move it chose) or `?` (refused, and
why); its `generate_move` also prints a line `N turn: ROLE play: <play>` first. The file keeps
each command (`>`) with its answer (`<`), and the `turn:` lines (`<`) in order. Usage:

  HNEFATAFL_HTP=/path/to/hnefatafl-text-protocol scripts/hnefatafl-htp.py > FILE
"""

import os
import subprocess
import sys

SESSIONS = [
    (
        "11x11 (Copenhagen): moves, a capture, refusals, the engine's move, a resignation",
        [
            "play attacker a4 e4",
            "play defender d6 d9",
            "play attacker k4 g4",
            "play attacker d1 d2",
            "play defender zz d4",
            "play defender d9 d9",
            "play defender d9 f8",
            "play defender D9 D8",
            "play defender d9 d12",
            "play defender e5 e4",
            "generate_move",
            "play attacker resigns",
            "final_status",
        ],
    ),
    (
        "7x7 (Brandubh): squares written 0a1 ... 0g7; the defenders move first",
        [
            "board_size 7",
            "play defender 0c4 0c2",
            "play attacker 0b4 0b2",
            "play defender 0h1 0h2",
            "play defender 0e4 0e5",
            "show_board_open_tafl",
        ],
    ),
    (
        "13x13: squares written in capitals, A1 ... M13",
        [
            "board_size 13",
            "play attacker D1 D4",
            "play attacker D13 D9",
            "play defender G10 J10",
            "generate_move",
            "show_board_open_tafl",
        ],
    ),
]


def run(engine, commands):
    """The engine's answer to each command, with the `turn:` lines it printed before one."""
    out = subprocess.run(
        [engine, "--seconds", "1"],
        input="".join(c + "\n" for c in commands) + "quit\n",
        capture_output=True,
        text=True,
        timeout=300,
    ).stdout
    answers, pending = [], []
    for line in out.splitlines():
        if " turn: " in line and " play: " in line:
            pending.append(line)
        elif line.startswith("=") or line.startswith("?"):
            answers.append((pending, line))
            pending = []
    if len(answers) != len(commands):
        sys.exit(f"expected {len(commands)} answers, got {len(answers)}:\n{out}")
    return answers


def main():
    engine = os.environ.get("HNEFATAFL_HTP")
    if not engine:
        sys.exit("set HNEFATAFL_HTP to the hnefatafl-text-protocol program")
    print("# Exchanges with hnefatafl-copenhagen's hnefatafl-text-protocol (dcampbell24/hnefatafl,")
    print("# the engine of hnefatafl.org), recorded by scripts/hnefatafl-htp.py: `>` a command")
    print("# sent, `<` what the engine wrote (its `turn:` line, then its answer).")
    for title, commands in SESSIONS:
        print(f"\n## {title}")
        for command, (turns, answer) in zip(commands, run(engine, commands)):
            print(f"> {command}")
            for t in turns:
                print(f"< {t}")
            print(f"< {answer.rstrip()}")


if __name__ == "__main__":
    main()
