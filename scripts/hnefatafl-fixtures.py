#!/usr/bin/env python3
"""Plays the rule cases of a fixture file (tests/data/rules/*.txt) of hnefatafl.org's games with
hnefatafl-copenhagen's own rules, and says whether each agrees with what the case expects.

The referee is a program built outside this repository against the hnefatafl-copenhagen crate
(the anchors' fixture referee): it reads blocks of `case NAME`, `turn attacker|defender`, the
picture rows, then `play FROM TO` (played: it prints the captures, the status and the king's
square) and `try FROM TO` (on a copy: `ok` or `refused`), ended by `end`. Its path comes in
HNEFATAFL_FIXTURES.

    HNEFATAFL_FIXTURES=PATH scripts/hnefatafl-fixtures.py tests/data/rules/family-13x13.txt

Checked per case: each `play` is accepted; `captures` after it; `status` (ongoing, or the
winning side); `king`; `legal` and `illegal` moves. Exit status 0 when every check agrees, 1
when one differs, 2 on bad arguments.
"""

import os
import re
import subprocess
import sys

STATUS = {"ongoing": "Ongoing", "attackers": "AttackerWins", "defenders": "DefenderWins", "draw": "Draw"}


def cases(lines):
    """Each case: name, side, picture rows, steps (kind, words)."""
    out, i = [], 0
    while i < len(lines):
        if not lines[i].startswith("case "):
            i += 1
            continue
        name = lines[i][5:]
        i += 1
        while not lines[i].startswith("start:"):
            i += 1
        side = lines[i].split()[1]
        rows = []
        i += 1
        while i < len(lines) and re.fullmatch(r"[bwK.+* ]+", lines[i]):
            rows.append(lines[i])
            i += 1
        steps = []
        while i < len(lines) and lines[i].strip() and not lines[i].startswith("case "):
            steps.append(lines[i].split())
            i += 1
        out.append((name, side, rows, steps))
    return out


def main():
    if len(sys.argv) != 2 or "HNEFATAFL_FIXTURES" not in os.environ:
        print(__doc__, file=sys.stderr)
        return 2
    todo = cases(open(sys.argv[1]).read().split("\n"))
    script, expect = [], []
    for name, side, rows, steps in todo:
        script += [f"case {name}", "turn " + ("attacker" if side == "b" else "defender")] + rows
        for words in steps:
            if words[0] == "play":
                for m in words[1:]:
                    f, t = re.fullmatch(r"([a-m]\d+)([a-m]\d+)", m).groups()
                    script.append(f"play {f} {t}")
            elif words[0] in ("legal", "illegal"):
                f, t = re.fullmatch(r"([a-m]\d+)([a-m]\d+)", words[1]).groups()
                script.append(f"try {f} {t}")
        script.append("end")
    run = subprocess.run([os.environ["HNEFATAFL_FIXTURES"]], input="\n".join(script) + "\n",
                         capture_output=True, text=True, check=True)
    answers = {}
    current = None
    for line in run.stdout.split("\n"):
        if line.startswith("case "):
            current = line[5:]
            answers[current] = []
        elif line.strip():
            answers[current].append(line.split())
    bad = 0
    for name, _, _, steps in todo:
        got = iter(answers.get(name, []))
        last = None
        problems = []
        for words in steps:
            kind = words[0]
            if kind == "play":
                for _ in words[1:]:
                    last = next(got)
                    if "REFUSED" in last:
                        problems.append(" ".join(last))
            elif kind in ("legal", "illegal"):
                a = next(got)
                if (a[2] == "ok") != (kind == "legal"):
                    problems.append(f"{kind} {words[1]}: {' '.join(a[2:])}")
            elif kind == "captures" and last:
                want = sorted(words[1:]) if words[1] != "none" else ["none"]
                have = last[3:last.index("status")]
                if sorted(have) != want:
                    problems.append(f"captures {want}, the referee {have}")
            elif kind == "status" and last:
                have = last[last.index("status") + 1]
                if STATUS[words[1]] != have:
                    problems.append(f"status {' '.join(words[1:])}, the referee {have}")
            elif kind == "king" and last:
                have = last[last.index("king") + 1]
                want = "None" if words[1] == "none" else f'Some("{words[1]}")'
                if have != want:
                    problems.append(f"king {words[1]}, the referee {have}")
        print(("agrees  " if not problems else "DIFFERS ") + name + "".join("\n    " + p for p in problems))
        bad += bool(problems)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
