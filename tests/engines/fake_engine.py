#!/usr/bin/env python3
"""A small Tablut engine for testing `konakis match`: it speaks the protocol and plays random
legal moves (its own rules code, written from the README's rules, so it needs no Konakis), and on
request misbehaves in one chosen way.

Usage: fake_engine.py [--fault KIND] [--at N] [--seed S] [--score CP] [--sleep MS]
       fake_engine.py --proto otep [--busy MS] [--seed S]

--fault, at the engine's N-th move of each game (default N = 1):
  none        a well-behaved random mover (the default)
  illegal     answers with a well-formed move that is not legal (an empty square's "piece")
  malformed   answers `bestmove xyz`
  crash       writes a message to stderr and exits with status 3
  hang        never answers, not even `stop`
  slow        sleeps --sleep ms before answering (too slow for a short clock); answers `stop`
  spin        computes for --sleep ms of its own CPU time before answering (longer on a busy
              CPU)
  garbage     prints binary and text garbage around every answer, then plays normally
  mute        prints only garbage at move N and never `bestmove` (but answers `stop`)
  nomove      answers `bestmove (none)`
  twice       plays normally but repeats every `bestmove` line in the same write
  no-uciok    never answers `uci`
  exit        exits at once, before reading anything
  startfail   runs normally once, then exits at once whenever it is started again
              (the first start creates the file --marker PATH)
--score CP    reports `info depth 1 score cp CP` before every move (for adjudication tests)

With --proto otep it speaks the OpenTafl Engine Protocol instead (says `hello`, reads the
start position from `rules ... start:...` and every later board from the position record of
`move`/`opponent-move`, answers `play SIDE` with `move a1-a2`), and --busy MS makes it behave
as OpenTafl 0.4.8's AI does: after writing its move it is still busy with the finished search
for MS milliseconds, writing a `status` line every MS/10 ms. A command that arrives while it
is busy kills it as the next `play` kills OpenTafl's AI: it prints a NullPointerException
message on stdout and exits with status 1.
"""

import os
import select

import random
import sys
import time

START = "3bbb3/4b4/4w4/b3w3b/bbwwKwwbb/b3w3b/4w4/4b4/3bbb3"
THRONE = 40
DIRS = [(0, 1), (1, 0), (0, -1), (-1, 0)]


def out(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def sq_name(i):
    return "abcdefghi"[i % 9] + str(i // 9 + 1)


def sq_index(name):
    return (int(name[1:]) - 1) * 9 + "abcdefghi".index(name[0])


def step(s, d):
    f, r = s % 9 + DIRS[d][0], s // 9 + DIRS[d][1]
    return r * 9 + f if 0 <= f < 9 and 0 <= r < 9 else None


class Rules:
    def __init__(self):
        self.king_capture = "original"
        self.first_move = "attackers"
        self.king_armed = True
        self.throne_hostile = False
        self.king_reenters = True
        self.throne_passable = True
        self.guard_capture = True

    def set(self, name, value):
        name, value = name.lower(), value.lower()
        flag = value == "true"
        if name == "kingcapture":
            self.king_capture = value
        elif name == "firstmove":
            self.first_move = value
        elif name == "kingarmed":
            self.king_armed = flag
        elif name == "thronehostile":
            self.throne_hostile = flag
        elif name == "kingreentersthrone":
            self.king_reenters = flag
        elif name == "thronepassable":
            self.throne_passable = flag
        elif name == "throneguardcapture":
            self.guard_capture = flag


class Board:
    """cells[i] is '', 'b', 'w' or 'K'; side is 'b' (attackers) or 'w' (defenders)."""

    def __init__(self, placement, side):
        self.cells = [""] * 81
        ranks = placement.split("/")
        for k, row in enumerate(ranks):
            r = 8 - k
            f = 0
            for c in row:
                if c.isdigit():
                    f += int(c)
                else:
                    self.cells[r * 9 + f] = c
                    f += 1
        self.side = side

    def king(self):
        return self.cells.index("K") if "K" in self.cells else None

    def moves(self, rules):
        res = []
        mine = "b" if self.side == "b" else "wK"
        for s in range(81):
            p = self.cells[s]
            if not p or p not in mine:
                continue
            is_king = p == "K"
            passes = rules.throne_passable or (is_king and rules.king_reenters)
            for d in range(4):
                t = step(s, d)
                while t is not None and not self.cells[t]:
                    if t == THRONE:
                        if is_king and rules.king_reenters:
                            res.append((s, t))
                        if not passes:
                            break
                    else:
                        res.append((s, t))
                    t = step(t, d)
        return res

    def play(self, rules, s, t):
        p = self.cells[s]
        self.cells[s], self.cells[t] = "", p
        king = self.king()
        if self.side == "b":
            for d in range(4):
                n = step(t, d)
                if n is None:
                    continue
                if self.cells[n] == "K":
                    if self.king_taken(rules, n, d):
                        self.cells[n] = ""
                    continue
                if self.cells[n] != "w":
                    continue
                far = step(n, d)
                if far is None:
                    continue
                anvil = self.cells[far] == "b"
                if far == THRONE:
                    if king == THRONE:
                        others = [x for x in (step(THRONE, e) for e in range(4)) if x != n]
                        anvil = rules.guard_capture and all(self.cells[x] == "b" for x in others)
                    else:
                        anvil = rules.throne_hostile
                if anvil:
                    self.cells[n] = ""
        elif p == "w" or rules.king_armed:
            partners = "wK" if rules.king_armed else "w"
            for d in range(4):
                n = step(t, d)
                if n is None or self.cells[n] != "b":
                    continue
                far = step(n, d)
                if far is None:
                    continue
                if (self.cells[far] and self.cells[far] in partners) or (
                    far == THRONE and rules.throne_hostile and king != THRONE
                ):
                    self.cells[n] = ""
        self.side = "w" if self.side == "b" else "b"

    def king_taken(self, rules, k, d):
        if k % 9 in (0, 8) or k // 9 in (0, 8):
            return False  # a king on the edge has escaped
        neighbours = [step(k, e) for e in range(4)]
        ring = [x for x in neighbours if x != THRONE]
        surrounded = all(self.cells[x] == "b" for x in ring)
        if k == THRONE or THRONE in neighbours or rules.king_capture == "english":
            return surrounded
        far = step(k, d)
        return far is not None and self.cells[far] == "b"


def garbage():
    out("\x00\x01 garbage \xff line " + "".join(random.choice("#%&*@") for _ in range(20)))
    sys.stdout.buffer.write(b"\xfe\xfd raw bytes\n")
    sys.stdout.flush()
    out("bestmovefoo e1e2")
    out("info string hello")


def otep_board(record, side):
    """A Board from an OpenTafl position record (rank 1 first; t attacker, T defender, K king)."""
    ranks = [r for r in record.split("/") if r]
    placement = "/".join(reversed(ranks)).replace("T", "w").replace("t", "b")
    return Board(placement, side)


class Input:
    """Lines from stdin read straight from the file descriptor, so that a wait can also tell
    whether anything has arrived."""

    def __init__(self):
        self.buf = b""

    def ready(self, timeout):
        if b"\n" in self.buf:
            return True
        return bool(select.select([0], [], [], max(timeout, 0))[0])

    def line(self):
        while b"\n" not in self.buf:
            chunk = os.read(0, 4096)
            if not chunk:
                return None
            self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        return line.decode("ascii", "replace")


def busy_after_move(inp, busy_ms):
    """OpenTafl's aftermath of a move: status lines for busy_ms; dies if a command comes."""
    moved = time.monotonic()
    end = moved + busy_ms / 1000.0
    step = busy_ms / 10000.0
    n = 0
    while True:
        now = time.monotonic()
        if now >= end:
            return
        if inp.ready(min(step, end - now)):
            line = inp.line()
            if line is None:
                return  # the host has gone: nothing to race with
            cmd = line.split(" ")[0]
            out("Exception in thread Thread-1 java.lang.NullPointerException (simulated): "
                "'%s' arrived %.0f ms after the move, while still busy" % (cmd, (time.monotonic() - moved) * 1000))
            sys.exit(1)
        n += 1
        out("status after-move statistics line %d" % n)


def main_otep(opts):
    busy = int(opts["--busy"])
    inp = Input()
    board = Board(START, "b")
    out("hello")
    while True:
        line = inp.line()
        if line is None:
            return
        words = line.split()
        if not words:
            continue
        cmd = words[0]
        if cmd == "rules":
            start = [w for w in words if w.startswith("start:")]
            board = otep_board(start[0][len("start:"):] if start else "", "b")
        elif cmd == "move" and len(words) > 1:
            board = otep_board(words[1], board.side)
        elif cmd == "opponent-move" and len(words) > 2:
            board = otep_board(words[2], board.side)
        elif cmd == "play":
            board.side = "b" if "attackers" in line else "w"
            moves = board.moves(Rules())
            if not moves:
                out("error -1 no legal move")
                continue
            s, t = random.choice(moves)
            out("move %s-%s" % (sq_name(s), sq_name(t)))
            if busy > 0:
                busy_after_move(inp, busy)
        elif cmd == "goodbye":
            return


def main():
    args = sys.argv[1:]
    opts = {"--fault": "none", "--at": "1", "--seed": "1", "--score": None, "--sleep": "2000", "--marker": "",
            "--proto": "uci", "--busy": "0"}
    i = 0
    while i < len(args):
        opts[args[i]] = args[i + 1]
        i += 2
    if opts["--proto"] == "otep":
        random.seed(int(opts["--seed"]))
        return main_otep(opts)
    fault, at = opts["--fault"], int(opts["--at"])
    random.seed(int(opts["--seed"]))
    if fault == "exit":
        sys.exit(2)
    if fault == "startfail":
        # Works the first time (the runner's check before the match), then exits at once.
        import os

        if os.path.exists(opts["--marker"]):
            sys.exit(2)
        open(opts["--marker"], "w").close()
    rules = Rules()
    board = Board(START, "b")
    move_no = 0
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        cmd = words[0]
        if cmd == "uci":
            if fault == "no-uciok":
                continue
            out("id name FakeEngine " + fault)
            for name, kind in [
                ("KingCapture", "combo default Original var Original var English"),
                ("FirstMove", "combo default Attackers var Attackers var Defenders"),
                ("KingArmed", "check default true"),
                ("ThroneHostile", "check default false"),
                ("KingReentersThrone", "check default true"),
                ("ThronePassable", "check default true"),
                ("ThroneGuardCapture", "check default true"),
                ("RepetitionDraw", "spin default 3 min 2 max 10"),
                ("MoveLimit", "spin default 200 min 0 max 10000"),
                ("Encirclement", "check default false"),
                ("Hash", "spin default 1 min 1 max 1024"),
            ]:
                out("option name %s type %s" % (name, kind))
            out("uciok")
        elif cmd == "isready":
            out("readyok")
        elif cmd == "setoption" and "value" in words:
            name = " ".join(words[2 : words.index("value")])
            rules.set(name, " ".join(words[words.index("value") + 1 :]))
        elif cmd == "ucinewgame":
            move_no = 0
        elif cmd == "position":
            if words[1] == "startpos":
                first = "w" if rules.first_move == "defenders" else "b"
                board = Board(START, first)
                rest = words[2:]
            else:
                board = Board(words[2], words[3])
                rest = words[4:]
                if rest and rest[0].isdigit():
                    rest = rest[1:]
            if rest and rest[0] == "moves":
                for m in rest[1:]:
                    m = m.replace("-", "")
                    board.play(rules, sq_index(m[:2]), sq_index(m[2:]))
        elif cmd == "go":
            move_no += 1
            now = move_no == at
            if opts["--score"] is not None:
                out("info depth 1 score cp %s nodes 1 pv" % opts["--score"])
            if fault == "garbage":
                garbage()
            if now and fault == "crash":
                sys.stderr.write("simulated crash at move %d\n" % move_no)
                sys.stderr.flush()
                sys.exit(3)
            if now and fault == "hang":
                while True:
                    time.sleep(3600)
            if now and fault == "mute":
                garbage()
                continue
            if now and fault == "slow":
                time.sleep(int(opts["--sleep"]) / 1000.0)
            if now and fault == "spin":
                # CPU time, not wall time: on a CPU it must share, it takes longer.
                until = time.process_time() + int(opts["--sleep"]) / 1000.0
                while time.process_time() < until:
                    pass
            if now and fault == "illegal":
                empty = [s for s in range(81) if not board.cells[s] and s != THRONE]
                a = next(s for s in empty if step(s, 0) is not None and not board.cells[step(s, 0)])
                out("bestmove %s%s" % (sq_name(a), sq_name(step(a, 0))))
                continue
            if now and fault == "malformed":
                out("bestmove xyz")
                continue
            if now and fault == "nomove":
                out("bestmove (none)")
                continue
            moves = board.moves(rules)
            if not moves:
                out("bestmove (none)")
                continue
            s, t = random.choice(moves)
            out("info depth 1 nodes %d" % len(moves))
            answer = "bestmove %s%s" % (sq_name(s), sq_name(t))
            # `twice`: the copy goes out in the same write, so it is there before the runner
            # talks to this engine again.
            out(answer + "\n" + answer if fault == "twice" else answer)
        elif cmd == "stop" and fault == "mute":
            out("bestmove (none)")
        elif cmd == "quit":
            return


if __name__ == "__main__":
    try:
        main()
    except (BrokenPipeError, KeyboardInterrupt):
        pass
