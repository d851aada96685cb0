#!/usr/bin/env python3
"""Calibrates Konakis' strength levels (the `Skill Level` option) on one Elo scale.

Plays the ladder: every level against the one above it (level 20 is full strength), under the
default rules and under Ashton (`Ruleset=Ashton`), with `konakis match` at a fixed number of
nodes per move for every engine (a level's own caps are lower still, so the limit only binds
full strength). Each pair's Elo difference comes from its game pairs (pentanomial, as the
runner counts them); the scale is anchored at level 0 = 0 and the differences are chained up
the ladder, their errors added in quadrature. Writes:

  docs/levels.md                   the ladder per rule family: level, Elo +- 95 % error, games,
                                   the gap to the level below with its LOS, the limits, the
                                   command, the check that level 0 loses to a greedy mover
                                   and beats a random one (examples/movers.rs), and how often
                                   each level errs (its self-play games reviewed by
                                   `konakis analyse`)
  crates/engine/src/levels.txt     level -> Elo under the default rules, which the engine
                                   embeds for UCI_Elo (rebuild Konakis afterwards)

Usage:
  scripts/levels.py [--games N] [--baseline-games N] [--openings N] [--nodes N] [--families default,ashton] [--results DIR]
                    [--konakis PATH] [--movers PATH] [--preliminary] [--review-games N] [--review-nodes N]

  --games N       games per neighbouring pair (default 200)
  --baseline-games N  games of level 0 against each baseline mover (default 200)
  --openings N    openings per family (default 100; 0 plays from the start position only):
                  konakis openings --count N --plies 6 --seed 11 --absolute, each played twice
                  with the sides swapped. Under Ashton the start position is won by the
                  attackers at every level from about 12 up, which hides every difference
  --nodes N       nodes per move of every engine (default 100000)
  --families L    rule families to play, comma-separated: default, ashton (default both)
  --results DIR   where each match's JSON goes (default levels-results); a pair whose JSON is
                  already there with the same games, nodes and rules is not played again, so
                  an interrupted run resumes
  --konakis PATH  the engine (default target/release/konakis)
  --movers PATH   the baseline movers (default target/release/examples/movers; build them with
                  cargo build --release --example movers)
  --preliminary   mark the figures as preliminary in docs/levels.md and levels.txt
  --concurrency K games at the same time (default 1)
  --review-games N  games of each level against itself, per family, reviewed move by move
                  (default 10; 0 skips the step): the share of each level's moves that
                  `konakis analyse` calls an inaccuracy, a mistake, a blunder, a missed win or
                  a move that allows a forced loss, and the level's mean accuracy
  --review-nodes N  nodes per position of that review (default 20000; a node limit, so the
                  review does not depend on the machine's load)

Needs Python 3 and a release build. Stops with one line on stderr if something is missing.
"""

import argparse
import json
import math
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FULL = 20
# The first level that parries a one-move loss (PARRY_LEVEL in crates/engine/src/skill/mod.rs).
PARRY_LEVEL = 8
FAMILIES = {"default": [], "ashton": ["Ruleset=Ashton"]}
# Ashton has no move limit: a game is drawn once each side has played 200 moves.
EXTRA = {"default": [], "ashton": ["--maxmoves", "200"]}


# docs/levels.md from this line on is written by hand; the script keeps it when it rewrites the
# tables above.
HAND_WRITTEN = "<!-- Written by hand from here on: scripts/levels.py keeps what follows. -->"


def die(msg):
    print("levels.py: " + msg, file=sys.stderr)
    sys.exit(1)


def engine(level, konakis):
    spec = ["name=level%d" % level, "cmd=" + konakis]
    if level < FULL:
        spec.append("option.Skill Level=%d" % level)
    return spec


def command(a, b, family, args, games, json_path):
    cmd = [args.konakis, "match", "--engine"] + a + ["--engine"] + b
    cmd += ["--each", "nodes=%d" % args.nodes, "--games", str(games)]
    if args.openings > 0:
        cmd += ["--openings", openings_file(family, args), "order=sequential"]
    cmd += ["--concurrency", str(args.concurrency), "--json", json_path]
    if FAMILIES[family]:
        cmd += ["--rules"] + FAMILIES[family]
    return cmd + EXTRA[family]


def openings_file(family, args):
    """The family's openings file in the results folder, written on first use: random
    openings whose score is within 100 centi-soldiers of 0 (the sides' balance, not the start
    position's: under Ashton the start is far from balanced)."""
    path = os.path.join(args.results, "%s-openings-%d.txt" % (family, args.openings))
    if not os.path.exists(path):
        cmd = [args.konakis, "openings", "--count", str(args.openings), "--plies", "6"]
        cmd += ["--seed", "11", "--absolute"]
        if FAMILIES[family]:
            cmd += ["--rules"] + FAMILIES[family]
        done = subprocess.run(cmd, capture_output=True, text=True)
        if done.returncode != 0:
            die("konakis openings failed: %s" % done.stderr.strip().splitlines()[-1:])
        with open(path, "w") as f:
            f.write(done.stdout)
    return path


def play(name, a, b, family, args, games):
    """Plays (or reuses) one match of `games` games; returns its JSON."""
    path = os.path.join(args.results, "%s-%s.json" % (family, name))
    key = {"games": games, "nodes": args.nodes, "family": family, "openings": args.openings}
    meta = path + ".key"
    if os.path.exists(path) and os.path.exists(meta):
        with open(meta) as f:
            if json.load(f) == key:
                with open(path) as g:
                    return json.load(g)
    cmd = command(a, b, family, args, games, path)
    print("levels.py: %s %s" % (family, name), file=sys.stderr, flush=True)
    done = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if done.returncode != 0:
        die("match %s %s failed: %s" % (family, name, done.stderr.strip().splitlines()[-1:]))
    with open(meta, "w") as f:
        json.dump(key, f)
    with open(path) as g:
        return json.load(g)


def fit(pentanomial):
    """Elo of the first engine from its game pairs, with a 95 % error and the LOS.

    A pair scores 0, 1/2, 1, 3/2 or 2. Half a pair of each side's win is added (a prior) so
    that a clean sweep still gives a finite figure; the error comes from the variance of the
    pair scores (delta method)."""
    counts = [c + (0.5 if i in (0, 4) else 0) for i, c in enumerate(pentanomial)]
    n = sum(counts)
    scores = [0, 0.25, 0.5, 0.75, 1]
    mean = sum(c * s for c, s in zip(counts, scores)) / n
    var = sum(c * (s - mean) ** 2 for c, s in zip(counts, scores)) / n
    sd = math.sqrt(var / n)
    elo = -400 * math.log10(1 / mean - 1)
    slope = 400 / math.log(10) / (mean * (1 - mean))
    los = 0.5 * (1 + math.erf((mean - 0.5) / (sd * math.sqrt(2)))) if sd > 0 else 1.0
    return elo, 1.96 * sd * slope, los


def ladder(family, args):
    """The ladder of one family: rows of (level, elo, error, gap, gap error, los, games)."""
    rows = [(0, 0.0, 0.0, None, None, None, 0)]
    for level in range(FULL):
        a = engine(level + 1, args.konakis)
        b = engine(level, args.konakis)
        data = play("%d-%d" % (level + 1, level), a, b, family, args, args.games)
        first = data["engines"][0]
        gap, err, los = fit(first["pentanomial"])
        elo = rows[-1][1] + gap
        total = math.hypot(rows[-1][2], err)
        rows.append((level + 1, elo, total, gap, err, los, first["games"]))
    return rows


def baseline(family, args):
    """Level 0 against the greedy and the random mover: (opponent, level 0's W-D-L, score)."""
    out = []
    for kind in ("greedy", "random"):
        other = ["name=" + kind, "cmd=" + args.movers, "arg=" + kind]
        data = play("0-" + kind, engine(0, args.konakis), other, family, args, args.baseline_games)
        e = data["engines"][0]
        out.append((kind, e["wins"], e["draws"], e["losses"], e["score"]))
    return out


VERDICTS = ("inaccuracies", "mistakes", "blunders", "missed_wins", "allowed_losses")
VERDICT_KEYS = dict(zip(("inaccuracy", "mistake", "blunder", "missed-win", "allows-loss"), VERDICTS))


def review(level, family, args):
    """Plays (or reuses) `--review-games` games of a level against itself, reviews every move
    with `konakis analyse` at `--review-nodes` nodes a position, and returns the counts over
    both sides' moves: {"games", "moves", "accuracy", "inaccuracies", ...}."""
    name = "%s-review-%d" % (family, level)
    path = os.path.join(args.results, name + ".json")
    key = {
        "games": args.review_games,
        "nodes": args.nodes,
        "family": family,
        "openings": args.openings,
        "review_nodes": args.review_nodes,
    }
    meta = path + ".key"
    if os.path.exists(path) and os.path.exists(meta):
        with open(meta) as f:
            if json.load(f) == key:
                with open(path) as g:
                    return json.load(g)
    records = os.path.join(args.results, name + ".otg")
    match_json = os.path.join(args.results, name + "-match.json")
    if os.path.exists(records):
        os.remove(records)  # match appends to a records file
    a = engine(level, args.konakis)
    b = engine(level, args.konakis)
    a[0] += "a"
    b[0] += "b"
    cmd = command(a, b, family, args, args.review_games, match_json) + ["--records", records]
    print("levels.py: %s review, level %d: play" % (family, level), file=sys.stderr, flush=True)
    done = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if done.returncode != 0:
        die("match %s %s failed: %s" % (family, name, done.stderr.strip().splitlines()[-1:]))
    cmd = [args.konakis, "analyse", records, "--nodes", str(args.review_nodes), "--json"]
    cmd += ["--concurrency", str(args.concurrency), "--quiet"]
    print("levels.py: %s review, level %d: review" % (family, level), file=sys.stderr, flush=True)
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        die("analyse %s failed: %s" % (records, done.stderr.strip().splitlines()[-1:]))
    data = json.loads(done.stdout)
    # The records hold each game's opening moves too, which no level chose: skip them.
    skips = []
    with open(records) as f:
        for line in f:
            if line.startswith("[opening:"):
                words = line.strip()[len("[opening:") : -1].split()
                skips.append(len(words) - words.index("moves") - 1 if "moves" in words else 0)
    if len(skips) != len(data["games"]):
        skips = [0] * len(data["games"])
    out = {"games": 0, "moves": 0, "accuracy": None}
    out.update((v, 0) for v in VERDICTS)
    total = 0.0
    for game, skip in zip(data["games"], skips):
        out["games"] += 1
        for move in game["review"]["moves"][skip:]:
            out["moves"] += 1
            total += move["accuracy"]
            if move["verdict"] in VERDICT_KEYS:
                out[VERDICT_KEYS[move["verdict"]]] += 1
    if out["moves"]:
        out["accuracy"] = total / out["moves"]
    with open(path, "w") as f:
        json.dump(out, f)
    with open(meta, "w") as f:
        json.dump(key, f)
    return out


def write_data(rows, args):
    path = os.path.join(ROOT, "crates", "engine", "src", "levels.txt")
    lines = [
        "# Konakis strength levels: level, Elo (level 0 = 0), 95 % error, games of the pair with",
        "# the level below. Default rules, %d nodes per move. Written by scripts/levels.py." % args.nodes,
    ]
    if args.preliminary:
        lines.append("# PRELIMINARY: a first, small calibration (%d games per pair)." % args.games)
    lines.append(
        "# A gap that came out at or below zero is entered as +1, as UCI_Elo needs a rising curve."
    )
    last = None
    for level, elo, err, _, _, _, games in rows:
        if last is not None and elo <= last:
            elo = last + 1
        lines.append("%d %.0f %.0f %d" % (level, elo, err, games))
        last = round(elo)
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def write_docs(results, args):
    cmd = "scripts/levels.py --games %d --baseline-games %d --openings %d --nodes %d --families %s" % (
        args.games,
        args.baseline_games,
        args.openings,
        args.nodes,
        ",".join(results),
    )
    if args.review_games > 0:
        cmd += " --review-games %d --review-nodes %d" % (args.review_games, args.review_nodes)
    if args.preliminary:
        cmd += " --preliminary"
    out = ["# Strength levels", ""]
    if args.preliminary:
        out += [
            "**Preliminary figures**: a first, small calibration of %d games per neighbouring" % args.games,
            "pair. The errors are wide; a longer run of the same command replaces them.",
            "",
        ]
    out += [
        "`Skill Level` 0-19 plays weaker than full strength (20, the default); `UCI_LimitStrength`",
        "with `UCI_Elo` picks the level, fractional between two levels, whose Elo below is the one",
        "asked for (the default rules' column, which the engine embeds from",
        "`crates/engine/src/levels.txt`). How a level weakens its play is described in",
        "`crates/engine/src/skill/`: a depth and node cap per level, several lines searched, and",
        "a bounded random push on their scores. Every level takes a win it has on the board.",
        "Level 0 does not search: it plays as a beginner on their first day, who now and then sees",
        "a win the opponent threatens for the next move and parries it (always once the opponent has let",
        "it pass), now and then takes a capture of the one piece it looks at, and otherwise moves that",
        "piece, drawn at random, at random.",
        "Levels 1 to 7 look one ply deep at the moves of only a few of their pieces at a time;",
        "from level %d up a level searches every move two plies deep or more and parries a king" % PARRY_LEVEL,
        "capture or escape it can see coming next move.",
        "",
        "## How the figures are made",
        "",
        "```",
        cmd,
        "```",
        "",
        "Each level plays the level above it (level 20 is full strength) in %d games, the" % args.games,
        "engines swapping sides, %s, at %d nodes per move for every" % (
            "from the start position"
            if args.openings == 0
            else "from %d openings (`konakis openings --count %d --plies 6 --seed 11 --absolute`: six random plies, kept if a depth-5 search scores them within 100 centi-soldiers of 0), each played twice" % (args.openings, args.openings),
            args.nodes,
        ),
        "engine (`--each nodes=%d`): a level's own caps are lower, so this limit binds full" % args.nodes,
        "strength only, and the level-20 row is full strength at that many nodes; at a longer",
        "time per move full strength is stronger and the levels below stay as they are.",
        "The scale's anchor: **level 0 = 0 Elo**. A gap is the Elo of the upper level against",
        "the lower from their game pairs (pentanomial, half a pair of each sweep added so that a",
        "clean sweep stays finite) with its 95 % error; a level's Elo is the sum of the gaps",
        "below it, the errors added in quadrature. LOS is the likelihood that the upper level is",
        "the stronger.",
        "",
    ]
    for family, (rows, base, _) in results.items():
        rules = "default rules" if family == "default" else "Ashton (`Ruleset=Ashton`, `--maxmoves 200`)"
        out += ["## Ladder, %s" % rules, ""]
        out += ["| level | Elo | ± 95 % | gap to the level below | LOS | games |", "|---|---|---|---|---|---|"]
        for level, elo, err, gap, gerr, los, games in rows:
            if gap is None:
                out.append("| %d | %.0f | anchor | | | |" % (level, elo))
            else:
                out.append(
                    "| %d | %.0f | %.0f | %+.0f ± %.0f | %.1f %% | %d |"
                    % (level, elo, err, gap, gerr, 100 * los, games)
                )
        gaps = [r[3] for r in rows if r[3] is not None]
        least = min(r[5] for r in rows if r[5] is not None)
        out += [
            "",
            "Span %.0f Elo; the largest gap %+.0f, the smallest %+.0f; the smallest LOS %.1f %%"
            % (rows[-1][1] - rows[0][1], max(gaps), min(gaps), 100 * least),
            "(targets: a span of at least 1,500, no gap above 150, every LOS at least 95 %).",
        ]
        out += [""]
        out += ["Level 0 against the baseline movers (`examples/movers.rs`, %d games each):" % args.baseline_games, ""]
        out += ["| opponent | level 0 wins | draws | losses | level 0 score |", "|---|---|---|---|---|"]
        for kind, w, d, l, score in base:
            out.append("| %s | %d | %d | %d | %.1f %% |" % (kind, w, d, l, 100 * score))
        out += [""]
    out += [
        "`greedy` takes a win, else a capture, when there is one and otherwise moves at random;",
        "`random` moves uniformly at random. Level 0 is meant to lose most games to the first",
        "and to beat the second in at least nine games of ten.",
        "",
    ]
    if args.review_games > 0:
        out += errs(results, args)
    path = os.path.join(ROOT, "docs", "levels.md")
    # What people wrote below the marker (notes, the real programs' places) is kept.
    kept = []
    if os.path.exists(path):
        with open(path) as f:
            old = f.read().split("\n")
        if HAND_WRITTEN in old:
            kept = old[old.index(HAND_WRITTEN):]
    out += kept or [HAND_WRITTEN, ""]
    with open(path, "w") as f:
        f.write("\n".join(out))


def errs(results, args):
    """The section "How often each level errs" of docs/levels.md."""
    out = [
        "## How often each level errs",
        "",
        "Each level plays %d games against itself per rule family (the same openings and %d nodes"
        % (args.review_games, args.nodes),
        "per move as the ladder; `konakis match --records`), and `konakis analyse --nodes %d --json`"
        % args.review_nodes,
        "reviews every move of both sides (docs/review.md: a fixed node count per position, so",
        "the review does not depend on the machine's load; the opening's six random plies are",
        "left out, as no level chose them). A share is",
        "the part of the level's moves, both sides' (both are that level), with that verdict:",
        "an inaccuracy drops the mover's expected score by 5 points or more, a mistake by 10, a",
        "blunder by 15; a missed win gives up a forced win, an allowed loss lets a forced loss",
        "in (these two are counted apart, not as blunders). The accuracy is the mean of the",
        "moves' accuracies (lichess' formula). The review searches each position at far fewer",
        "nodes than the ladder gives full strength, so for the upper levels it is the weaker",
        "judge, and some of their \"errors\" are the review's. Full strength plays without",
        "noise, so at level 20 the two games of an opening are the same game (and now and then",
        "at the levels just below). The moves column is what each share is over.",
        "",
    ]
    for family, (_, _, rev) in results.items():
        rules = "default rules" if family == "default" else "Ashton"
        out += ["### %s" % rules[0].upper() + rules[1:], ""]
        out += [
            "| level | games | moves | inaccuracies | mistakes | blunders | missed wins | allowed losses | accuracy |",
            "|---|---|---|---|---|---|---|---|---|",
        ]
        for level, r in enumerate(rev):
            n = r["moves"]
            cells = ["%.1f %%" % (100.0 * r[v] / n) if n else "-" for v in VERDICTS]
            acc = "%.1f" % r["accuracy"] if r["accuracy"] is not None else "-"
            out.append("| %d | %d | %d | %s | %s |" % (level, r["games"], n, " | ".join(cells), acc))
        out += [""]
    return out


def main():
    p = argparse.ArgumentParser(description="Calibrates the strength levels (see the file's header).")
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--nodes", type=int, default=100000)
    p.add_argument("--families", default="default,ashton")
    p.add_argument("--results", default="levels-results")
    p.add_argument("--konakis", default=os.path.join(ROOT, "target", "release", "konakis"))
    p.add_argument("--movers", default=os.path.join(ROOT, "target", "release", "examples", "movers"))
    p.add_argument("--baseline-games", type=int, default=200)
    p.add_argument("--openings", type=int, default=100)
    p.add_argument("--concurrency", type=int, default=1)
    p.add_argument("--preliminary", action="store_true")
    p.add_argument("--review-games", type=int, default=10)
    p.add_argument("--review-nodes", type=int, default=20000)
    args = p.parse_args()
    if args.openings < 0:
        die("--openings needs 0 (the start position only) or more")
    if args.games < 2 or args.baseline_games < 2 or args.nodes < 1 or args.concurrency < 1:
        die("--games and --baseline-games need 2 or more, --nodes and --concurrency 1 or more")
    if args.review_games < 0 or args.review_nodes < 1:
        die("--review-games needs 0 (no review) or more, --review-nodes 1 or more")
    families = [f for f in args.families.split(",") if f]
    for f in families:
        if f not in FAMILIES:
            die("unknown family '%s' (the families: %s)" % (f, ", ".join(FAMILIES)))
    for prog, what in ((args.konakis, "konakis"), (args.movers, "movers")):
        if not os.access(prog, os.X_OK):
            die("%s program '%s' not found (cargo build --release --examples)" % (what, prog))
    os.makedirs(args.results, exist_ok=True)
    results = {}
    for family in families:
        results[family] = (ladder(family, args), baseline(family, args), [])
    if args.review_games > 0:
        for family in families:
            for level in range(FULL + 1):
                results[family][2].append(review(level, family, args))
    if "default" in results:
        write_data(results["default"][0], args)
    write_docs(results, args)


if __name__ == "__main__":
    main()
