#!/usr/bin/env python3
"""Records how TaflZero reads FENs: tests/data/taflzero/fen-readback.txt, which the tests of
crates/protocols/src/taflzero.rs read (Konakis must read each FEN to the board TaflZero shows,
and write that board back to the same FEN).

TaflZero's UCI front-end takes `position fen <FEN>` and prints its board with `board`; it has
no command that writes a FEN, so its writer is checked through the form its `get_fen` gives
(fen.rs: top rank first, runs of empty squares as one decimal number, then ` a` or ` d`),
which is the form this script writes. The FENs are TaflZero's start (`INITIAL_FEN`), the
positions of its own FEN tests, and random positions (seeded, so the file is the same on
every run).

TaflZero is a program built outside this repository (the anchors); its location comes in
through the environment:

  TAFLZERO   TaflZero's UCI engine (a program or script that starts `taflzero uci`)

Usage: TAFLZERO=/path/to/taflzero scripts/taflzero-fen.py [--count N] [--seed S] > FILE
"""

import argparse
import os
import random
import re
import subprocess
import sys

SIDE = 11
THRONE = (5, 5)

FIXED = [
    # TaflZero's INITIAL_FEN (src/board/constants.rs).
    "3aaaaa3/5a5/11/a4d4a/a3ddd3a/aa1ddkdd1aa/a3ddd3a/a4d4a/11/5a5/3aaaaa3 a",
    # The positions of TaflZero's FEN tests (src/board/fen/tests.rs).
    "11/4a6/11/11/7d3/5k5/11/1d9/8a2/11/10a d",
    "11/4a6/11/11/7d3/5k5/11/1d9/8a2/11/11 a",
]


def fen_of(cells, side):
    """The FEN of a board given as {(file, rank): letter}, ranks from 0 at the bottom."""
    rows = []
    for rank in reversed(range(SIDE)):
        row, empty = "", 0
        for file in range(SIDE):
            letter = cells.get((file, rank))
            if letter is None:
                empty += 1
                continue
            if empty:
                row += str(empty)
                empty = 0
            row += letter
        if empty:
            row += str(empty)
        rows.append(row)
    return "/".join(rows) + " " + side


def random_fen(rng):
    """One king anywhere, soldiers of both sides on a random share of the other squares (none on
    the throne, which Konakis keeps for the king), either side to move."""
    squares = [(f, r) for f in range(SIDE) for r in range(SIDE)]
    king = rng.choice(squares)
    cells = {king: "k"}
    fill = rng.random() * 0.6
    for sq in squares:
        if sq != king and sq != THRONE and rng.random() < fill:
            cells[sq] = rng.choice("ad")
    return fen_of(cells, rng.choice("ad"))


ANSI = re.compile(r"\x1b\[[0-9;]*m")


def boards(engine, fens):
    """The board TaflZero prints after `position fen` for each FEN, as rows of `. A D K`."""
    script = "".join(f"position fen {fen}\nboard\n" for fen in fens) + "quit\n"
    out = subprocess.run(
        [engine], input=script, capture_output=True, text=True, timeout=120, check=True
    ).stdout
    rows = []
    for line in ANSI.sub("", out).splitlines():
        m = re.match(r"^\s*(\d+)\u2502(.*)\u2502\s*\d+$", line)
        if m:
            rows.append((int(m.group(1)), m.group(2).split()))
    if len(rows) != SIDE * len(fens):
        sys.exit(f"expected {SIDE * len(fens)} board rows from TaflZero, got {len(rows)}")
    return [rows[i * SIDE:(i + 1) * SIDE] for i in range(len(fens))]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=40, help="random positions (default 40)")
    parser.add_argument("--seed", type=int, default=45, help="their seed (default 45)")
    args = parser.parse_args()
    engine = os.environ.get("TAFLZERO")
    if not engine:
        sys.exit("set TAFLZERO to TaflZero's UCI engine")
    rng = random.Random(args.seed)
    fens = FIXED + [random_fen(rng) for _ in range(args.count)]
    print("# How TaflZero (sovelin/taflzero at 41d1957) reads FENs, recorded by")
    print("# scripts/taflzero-fen.py: each `fen` line was sent as `position fen <FEN>`, and the")
    print("# eleven rows after it are the board TaflZero's `board` printed (rank 11 first,")
    print("# files a-k; A attacker, D defender, K king, . empty).")
    for fen, board in zip(fens, boards(engine, fens)):
        print(f"fen {fen}")
        for rank, cells in board:
            print(f"{rank:>2} {' '.join(cells)}")


if __name__ == "__main__":
    main()
