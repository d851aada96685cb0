#!/usr/bin/env python3
"""Reruns the reference perft counts of tests/data/perft/reference.txt with the programs that
counted them (hnefatafl-copenhagen, OpenTafl, TaflZero) and says whether each still agrees.

The programs are referees built outside this repository (the anchors); only their locations
come in, through the environment:

  HNEFATAFL_PERFT          the perft counter built against hnefatafl-copenhagen
                           (`perft SIZE DEPTH`, SIZE 7, 11 or 13)
  OPENTAFL_DIR             the folder of a built OpenTafl 0.4.8 (OpenTafl.jar, external-rules.conf)
  OPENTAFL_PERFT_CLASSES   the folder holding the OpenTafl perft counter's OpenTaflPerft.class
  JAVA                     the java launcher (default: java)
  TAFLZERO_PERFT           the perft counter built against TaflZero (`taflzero-perft DEPTH`)

A program whose variables are unset is skipped, and said to be. Options:

  --max-depth N   only lines of depth N or less
  --program P     only lines counted by P (hnefatafl-copenhagen, opentafl, taflzero)
  --print         print each recounted line in the file's format instead of comparing
  --rules-strings recount tests/data/opentafl/rules-strings-perft.txt instead: Konakis' OpenTafl
                  rules strings (VARIANT DEPTH COUNT STRING), each counted by OpenTafl from the
                  string itself

Exit status: 0 when every count that was rerun agrees, 1 when one differs or a program fails,
2 on bad arguments or a line of the file that does not parse.
"""

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

REFERENCE = Path(__file__).resolve().parent.parent / "tests" / "data" / "perft" / "reference.txt"
RULES_STRINGS = (
    Path(__file__).resolve().parent.parent / "tests" / "data" / "opentafl" / "rules-strings-perft.txt"
)

# Each variant: the program that counts it and how that program names it.
HNEFATAFL_SIZES = {
    "hnefatafl.org-brandubh-7": "7",
    "hnefatafl.org-copenhagen-11": "11",
    "hnefatafl.org-13": "13",
}
# OpenTafl's menu numbers (Variants.hardcodedRules), or the name of a line of external-rules.conf.
OPENTAFL_VARIANTS = {
    "opentafl-sea-battle-9": "1",
    "opentafl-fetlar-11": "2",
    "opentafl-copenhagen-11": "3",
    "opentafl-copenhagen-relaxed-11": "4",
    "opentafl-berserk-11": "5",
    "opentafl-brandub-7": "6",
    "opentafl-tawlbwrdd-11": "7",
    "opentafl-tablut-9": "8",
    "opentafl-foteviken-9": "9",
    "opentafl-magpie-7": "10",
    "opentafl-sea-battle-13": "name:Sea_Battle_(Parlett)",
}
TAFLZERO_VARIANTS = {"taflzero-copenhagen-11"}


class Skip(Exception):
    """The program for a line is not configured."""


def read_reference(path):
    lines = []
    for number, text in enumerate(path.read_text().splitlines(), 1):
        text = text.split("#", 1)[0].strip()
        if not text:
            continue
        fields = text.split()
        if len(fields) != 4 or not fields[1].isdigit() or not fields[2].isdigit():
            raise ValueError(f"{path}:{number}: expected VARIANT DEPTH COUNT PROGRAM, got {text!r}")
        variant, depth, count, program = fields[0], int(fields[1]), int(fields[2]), fields[3]
        lines.append((number, variant, depth, count, program, None))
    return lines


def read_rules_strings(path):
    """Lines VARIANT DEPTH COUNT RULES-STRING, all counted by OpenTafl from the string."""
    lines = []
    for number, text in enumerate(path.read_text().splitlines(), 1):
        if not text.strip() or text.startswith("#"):
            continue
        fields = text.split(" ", 3)
        if len(fields) != 4 or not fields[1].isdigit() or not fields[2].isdigit():
            raise ValueError(f"{path}:{number}: expected VARIANT DEPTH COUNT STRING, got {text!r}")
        lines.append((number, fields[0], int(fields[1]), int(fields[2]), "opentafl", fields[3]))
    return lines


def env(name):
    value = os.environ.get(name)
    if not value:
        raise Skip(f"{name} is not set")
    return value


def last_count(output, what):
    """The count on the last `perft ...` line a counter printed."""
    for line in reversed(output.splitlines()):
        if line.startswith("perft "):
            return int(line.split()[-1])
    raise RuntimeError(f"{what} printed no perft line")


def run(command, cwd=None):
    done = subprocess.run(command, capture_output=True, text=True, cwd=cwd)
    if done.returncode != 0:
        raise RuntimeError(f"{command[0]} exited {done.returncode}: {done.stderr.strip()[-300:]}")
    return done.stdout


def opentafl_rules(folder, key):
    """The line of OpenTafl's external-rules.conf that holds `key` (e.g. name:Sea_Battle_(Parlett))."""
    conf = Path(folder) / "external-rules.conf"
    for line in conf.read_text().splitlines():
        if key in line.split():
            return line.strip()
    raise RuntimeError(f"no rules with {key} in {conf}")


def count(variant, depth, program, rules=None):
    if program == "hnefatafl-copenhagen":
        if variant not in HNEFATAFL_SIZES:
            raise ValueError(f"hnefatafl-copenhagen does not count {variant}")
        binary = env("HNEFATAFL_PERFT")
        return last_count(run([binary, HNEFATAFL_SIZES[variant], str(depth)]), binary)
    if program == "opentafl":
        if rules is None and variant not in OPENTAFL_VARIANTS:
            raise ValueError(f"OpenTafl does not count {variant}")
        folder = env("OPENTAFL_DIR")
        classes = env("OPENTAFL_PERFT_CLASSES")
        if rules is not None:
            which = rules
        else:
            which = OPENTAFL_VARIANTS[variant]
            if not which.isdigit():
                which = opentafl_rules(folder, which)
        classpath = os.pathsep.join([str(Path(folder) / "OpenTafl.jar"), classes])
        java = os.environ.get("JAVA", "java")
        # OpenTafl may write logs beside itself; a scratch folder keeps them out of the way.
        with tempfile.TemporaryDirectory() as scratch:
            out = run([java, "-Xmx1g", "-cp", classpath, "OpenTaflPerft", "perft", which, str(depth)], cwd=scratch)
        return last_count(out, "OpenTaflPerft")
    if program == "taflzero":
        if variant not in TAFLZERO_VARIANTS:
            raise ValueError(f"TaflZero does not count {variant}")
        binary = env("TAFLZERO_PERFT")
        return last_count(run([binary, str(depth)]), binary)
    raise ValueError(f"unknown program {program}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-depth", type=int)
    parser.add_argument("--program")
    parser.add_argument("--print", action="store_true", dest="print_lines")
    parser.add_argument("--file", type=Path)
    parser.add_argument("--rules-strings", action="store_true")
    args = parser.parse_args()

    try:
        if args.rules_strings:
            args.file = args.file or RULES_STRINGS
            lines = read_rules_strings(args.file)
        else:
            args.file = args.file or REFERENCE
            lines = read_reference(args.file)
    except (OSError, ValueError) as error:
        print(error, file=sys.stderr)
        return 2

    agreed = differed = failed = 0
    skipped = set()
    for number, variant, depth, want, program, rules in lines:
        if args.max_depth is not None and depth > args.max_depth:
            continue
        if args.program and program != args.program:
            continue
        try:
            got = count(variant, depth, program, rules)
        except Skip as why:
            skipped.add(f"{program} ({why})")
            continue
        except ValueError as error:
            print(f"{args.file}:{number}: {error}", file=sys.stderr)
            return 2
        except (OSError, RuntimeError) as error:
            print(f"FAILED  {variant} {depth} ({program}): {error}")
            failed += 1
            continue
        if args.print_lines:
            print(f"{variant} {depth} {got} {rules if rules else program}", flush=True)
        elif got == want:
            print(f"agrees  {variant} {depth} {got} ({program})", flush=True)
            agreed += 1
        else:
            print(f"DIFFERS {variant} {depth}: {got}, the file says {want} ({program})", flush=True)
            differed += 1
    for what in sorted(skipped):
        print(f"skipped {what}")
    if not args.print_lines:
        print(f"{agreed} agree, {differed} differ, {failed} failed")
    return 1 if differed or failed else 0


if __name__ == "__main__":
    sys.exit(main())
