"""The ``konakis`` command that the wheel installs: the engine, in-process.

``konakis`` reads the line protocol (protocol.md) on stdin and answers on stdout, and
``konakis otep [--movetime MS] [--threads N] [--hash MIB] [--max-time MS] [--skill N | --elo N]``
speaks OpenTafl's engine protocol, both through the extension module (the protocols crate's own
loops), so that ``Engine.popen(["konakis"])`` works after ``pip install``. The other tools of
the native ``konakis`` program (``bench``, ``match``, ``datagen``, ...) are not in the wheel:
``cargo build --release`` in the repository builds that program.
"""

from __future__ import annotations

import argparse
import signal
import sys
from typing import List, Optional

from . import SearchError, _konakis


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text} is not a positive number")
    return value


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="konakis",
        description="Konakis, a Tablut engine. Without a command it reads protocol commands "
        "on stdin and answers on stdout (protocol.md).",
        epilog="This is the engine of the Python package; the native program's other tools "
        "(bench, match, datagen, ...) come with `cargo build --release` in the repository.",
    )
    commands = parser.add_subparsers(dest="command")
    otep = commands.add_parser("otep", help="play as an OpenTafl engine (OTEP on stdin/stdout)")
    otep.add_argument("--movetime", type=_positive, default=5_000, metavar="MS",
                      help="milliseconds per move when the host sends no clock")
    otep.add_argument("--threads", type=_positive, default=1, help="search threads")
    otep.add_argument("--hash", type=_positive, default=64, metavar="MIB",
                      help="transposition table size in MiB")
    otep.add_argument("--max-time", type=_positive, default=None, metavar="MS",
                      help="never think longer than this many milliseconds per move")
    strength = otep.add_mutually_exclusive_group()
    strength.add_argument("--skill", type=int, default=None, metavar="N",
                          help="strength level, 0 (weakest) to 20 (full strength)")
    strength.add_argument("--elo", type=int, default=None, metavar="N",
                          help="play at this Elo (docs/levels.md)")
    return parser


def main(argv: Optional[List[str]] = None) -> int:
    """The command's entry point; returns the exit code."""
    words = sys.argv[1:] if argv is None else argv
    if words and not words[0].startswith("-") and words[0] != "otep":
        print(f"error: `konakis {words[0]}` is a tool of the native konakis program, which "
              "the Python package does not ship; build it with `cargo build --release` in the "
              "repository. This command is the engine: `konakis` (the line protocol) and "
              "`konakis otep`.", file=sys.stderr)
        return 2
    args = _parser().parse_args(words)
    # Ctrl-C ends the engine at once, as it does the native program (Python's own handler
    # would wait for the protocol loop to return).
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    try:
        if args.command == "otep":
            _konakis.run_otep(movetime=args.movetime, threads=args.threads, hash=args.hash,
                              max_time=args.max_time, skill=args.skill, elo=args.elo)
        else:
            _konakis.run_protocol()
    except SearchError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
