"""The rules: positions, legal moves, play with typed errors, undo, status, repetition and
the move limit, options and presets, OpenTafl records, perft and playouts; and the rules
compared with the native program on random games under every preset."""

from __future__ import annotations

import copy
import random
import subprocess
from typing import Callable, Dict, List, Tuple

import pytest

import konakis
from konakis import Game, Rules

PRESET_IDS = [p["id"] for p in Rules.presets()]


def test_start_position_and_perft_match_the_documented_counts() -> None:
    g = Game()
    assert g.position == konakis.START_POSITION
    assert g.side_to_move == "attackers"
    assert len(g.legal_moves()) == 80
    assert g.perft(2) == 4_400
    assert g.perft(3) == 353_200
    assert sum(n for _, n in g.divide(2)) == 4_400


def test_errors_carry_typed_reasons_and_change_nothing() -> None:
    g = Game()
    g.play("d1d3")
    before = (g.position, g.moves)
    with pytest.raises(konakis.IllegalMoveError) as e:
        g.play("e5e6")
    assert e.value.reason == "occupied" and e.value.move == "e5e6"
    assert str(e.value) == "e5e6 is not legal: e6 is occupied"
    with pytest.raises(konakis.IllegalMoveError) as e:
        g.play("d3d4")
    assert e.value.reason == "wrong-side"
    with pytest.raises(konakis.MoveSyntaxError) as e:
        g.play("e4")
    assert e.value.reason == "notation"
    with pytest.raises(konakis.MoveSyntaxError):
        g.legal_moves("z9")
    assert isinstance(e.value, konakis.KonakisError)
    assert (g.position, g.moves) == before
    with pytest.raises(konakis.PositionError) as p:
        Game(position="9/9 b")
    assert p.value.reason == "rank-count"
    with pytest.raises(konakis.RulesError) as r:
        Rules("salmi")
    assert r.value.reason == "unknown-preset"
    with pytest.raises(konakis.RulesError) as r:
        Rules(KingCapture="Salmi")
    assert r.value.reason == "invalid-value"


def test_the_end_of_a_game_its_status_and_undo() -> None:
    g = Game(position="9/9/9/9/9/9/9/1K7/b8 w")
    assert g.play("b2a2") == []
    s = g.status
    assert (s.over, s.winner, s.reason) == (True, "defenders", "escape")
    assert s.text == "defenders win: the king reached the edge"
    assert s.score_for("defenders") == 1 and s.score_for("attackers") == -1
    assert g.legal_moves() == [] and g.legal_actions() == []
    with pytest.raises(konakis.GameOverError) as e:
        g.play("a1b1")
    assert e.value.reason == "escape"
    assert g.undo() == "b2a2"
    assert g.position == "9/9/9/9/9/9/9/1K7/b8 w 0"
    assert g.undo() is None


def test_captures_repetition_and_the_move_limit() -> None:
    g = Game(position="9/9/9/9/4K4/9/9/9/b2wb4 b")
    assert g.play("a1c1") == ["d1"]
    assert g.piece_at("d1") is None and g.piece_at("c1") == "attacker"
    g = Game()
    assert g.occurrences == 1 and g.plies_left == 200
    for mv in ["a4a3", "e3f3", "a3a4", "f3e3"] * 2:
        g.play(mv)
    assert g.occurrences == 3
    assert g.status.reason == "repetition" and g.status.winner is None
    g = Game(Rules(MoveLimit=2))
    g.play("d1d3")
    g.play("e3f3")
    assert g.status.reason == "move-limit" and g.plies_left == 0
    assert Game(Rules(MoveLimit=0)).plies_left is None


def test_every_option_and_preset_is_reachable() -> None:
    table = Rules.option_table()
    names = [row["name"] for row in table]
    assert names[0] == "Ruleset" and "MoveLimit" in names and "Encirclement" in names
    r = Rules()
    for row in table:
        assert r.get(row["name"]) == str(row["default"]).lower() or row["kind"] != "bool"
    ashton = Rules("ashton")
    assert ashton.get("Ruleset") == "Ashton" and ashton.repetition_draw == 2
    assert len(ashton.camps()) == 16 and Rules().camps() == []
    assert Rules("taflhub") == Rules(**dict(Rules.presets()[2]["options"]))
    assert Rules(MoveLimit=300, KingArmed=False).options()["KingArmed"] == "false"
    assert eval(repr(Rules("english")), {"Rules": Rules}) == Rules("english")
    assert Game(Rules("ashton")).side_to_move == "defenders"


def test_otg_records_round_trip_under_every_preset() -> None:
    for preset in PRESET_IDS:
        g = Game(Rules(preset))
        g.playout(seed=7, max_plies=30)
        text = g.to_otg([("event", "test"), ("date", "2026.12.03")])
        back = Game.from_otg(text)
        assert back.moves == g.moves and back.rules == g.rules and back.position == g.position
    with pytest.raises(konakis.RecordError):
        Game.from_otg("")
    with pytest.raises(konakis.RecordError):
        Game().to_otg([("rules", "x")])


def test_playouts_in_rust_are_reproducible_and_copies_are_independent() -> None:
    a, b = Game(), Game()
    assert a.playout(seed=3) == b.playout(seed=3)
    assert a.is_over
    c = copy.copy(Game(moves=["d1d3"]))
    d = c.copy()
    d.play("e3f3")
    assert c.moves == ["d1d3"] and d.moves == ["d1d3", "e3f3"]
    moves, att, de, draws = konakis.random_playouts(Rules("ashton"), games=20, seed=1)
    assert att + de + draws == 20 and moves > 0
    # The fast loop plays the referee's game: the first game equals Game.playout's.
    g = Game(Rules("ashton"))
    played = len(g.playout(seed=5))
    assert konakis.random_playouts(Rules("ashton"), games=1, seed=5)[0] == played


class Native:
    """A protocol session with the native program, to ask it for the legal moves (`go perft
    1`), the position string and the status (`d`) of a game."""

    def __init__(self, binary: str, rules: Rules) -> None:
        self.p = subprocess.Popen(
            [binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        options = sorted(rules.options().items(), key=lambda kv: kv[0] != "Ruleset")
        for name, value in options:
            self.send(f"setoption name {name} value {value}")

    def send(self, line: str) -> None:
        assert self.p.stdin is not None
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def read_until(self, prefix: str) -> List[str]:
        assert self.p.stdout is not None
        lines = []
        while True:
            line = self.p.stdout.readline()
            assert line, "the program ended"
            line = line.rstrip("\n")
            assert not line.startswith("info string error"), line
            lines.append(line)
            if line.startswith(prefix):
                return lines

    def look(self, g: Game) -> Tuple[List[str], Dict[str, str]]:
        moves = " ".join(g.moves)
        self.send(f"position fen {g.start_position}" + (f" moves {moves}" if moves else ""))
        self.send("go perft 1")
        legal = [l.split(":")[0] for l in self.read_until("Nodes searched") if ": " in l
                 and not l.startswith("Nodes")]
        self.send("d")
        shown = {}
        for l in self.read_until("Rules:"):
            if ": " in l:
                k, v = l.split(": ", 1)
                shown[k] = v
        return legal, shown

    def close(self) -> None:
        self.send("quit")
        self.p.wait(5)


@pytest.mark.parametrize("preset", PRESET_IDS)
def test_rules_agree_with_the_native_program_on_random_games(konakis_bin: str, preset: str) -> None:
    rules = Rules(preset)
    native = Native(konakis_bin, rules)
    rnd = random.Random(preset)
    try:
        for _ in range(3):
            g = Game(rules)
            while True:
                legal, shown = native.look(g)
                assert shown["Position"] == g.position
                assert shown["Status"] == g.status.text
                if not g.is_over:
                    assert sorted(legal) == sorted(g.legal_moves())
                    frm = rnd.choice(g.legal_moves())[:2]
                    assert g.legal_moves(frm) == [m for m in g.legal_moves() if m[:2] == frm]
                if g.is_over or len(g.moves) >= 120:
                    break
                g.play(rnd.choice(g.legal_moves()))
    finally:
        native.close()


def test_games_rules_and_statuses_pickle_and_compare_by_value() -> None:
    import pickle

    g = Game(Rules("taflhub", MoveLimit=300))
    g.playout(seed=2, max_plies=9)
    for protocol in range(2, pickle.HIGHEST_PROTOCOL + 1):
        back = pickle.loads(pickle.dumps(g, protocol))
        assert back == g and back is not g
        assert (back.position, back.moves, back.rules) == (g.position, g.moves, g.rules)
        assert back.occurrences == g.occurrences and back.status == g.status
        r = pickle.loads(pickle.dumps(g.rules, protocol))
        assert r == g.rules and hash(r) == hash(g.rules)
    # A game from a position string with a ply count keeps it, and its history.
    h = Game(position="9/9/9/9/4K4/9/9/9/b2wb4 b 17", moves=["a1c1"])
    assert pickle.loads(pickle.dumps(h)) == h
    assert copy.deepcopy(h) == h
    # Equal games: the same rules, start and moves; a different history is a different game.
    assert Game() == Game()
    assert Game(moves=["d1d3"]) != Game()
    assert Game(Rules("english")) != Game()
    a, b = Game(moves=["d1d2", "e3f3", "d2d3"]), Game(moves=["d1d3", "e3f3"])
    assert a.position.split()[0] == b.position.split()[0] and a != b
    assert Game() != "Game()"
    with pytest.raises(TypeError):
        hash(Game())  # a game changes: no hash
    assert len({Rules(), Rules(), Rules("ashton")}) == 2
    # Statuses: the ended ones and the ongoing one pickle, compare and hash by value.
    ended = Game(position="9/9/9/9/9/9/9/1K7/b8 w")
    ended.play("b2a2")
    for status in (ended.status, Game().status, Game(Rules(MoveLimit=1), moves=["d1d3"]).status):
        back = pickle.loads(pickle.dumps(status))
        assert back == status and hash(back) == hash(status)
        assert (back.over, back.winner, back.reason, back.text) == (
            status.over, status.winner, status.reason, status.text)
    assert konakis.Status("escape", "defenders") == ended.status
    with pytest.raises(konakis.ArgumentError) as e:
        konakis.Status("escape", "attackers")
    assert e.value.reason == "not-a-status"
    # The package's errors pickle too, with their reason (a worker process sends them back).
    with pytest.raises(konakis.IllegalMoveError) as i:
        Game().play("e5e6")
    back_error = pickle.loads(pickle.dumps(i.value))
    assert type(back_error) is konakis.IllegalMoveError and back_error.reason == "wrong-side"
    assert back_error.move == "e5e6"


@pytest.mark.parametrize(
    "call, error, reason",
    [
        (lambda: Game().perft(-1), konakis.ArgumentError, "negative"),
        (lambda: Game().perft(2**70), konakis.ArgumentError, "too-large"),
        (lambda: Game().perft(21), konakis.ArgumentError, "too-large"),
        (lambda: Game().divide(-2), konakis.ArgumentError, "negative"),
        (lambda: Game().divide(0), konakis.ArgumentError, "too-small"),
        (lambda: Game().playout(seed=-1), konakis.ArgumentError, "negative"),
        (lambda: Game().playout(max_plies=-1), konakis.ArgumentError, "negative"),
        (lambda: konakis.random_playouts(games=-1), konakis.ArgumentError, "negative"),
        (lambda: konakis.random_playouts(seed=-3), konakis.ArgumentError, "negative"),
        (lambda: konakis.random_playouts(max_plies=2**40), konakis.ArgumentError, "too-large"),
        (lambda: Game().play_action(-1), konakis.MoveSyntaxError, "not-an-action"),
        (lambda: Game().play_action(6561), konakis.MoveSyntaxError, "not-an-action"),
        (lambda: Game().play_action(-(2**80)), konakis.MoveSyntaxError, "not-an-action"),
        (lambda: Game().status.score_for("white knights"), konakis.ArgumentError, "not-a-side"),
    ],
    ids=[
        "perft(-1)", "perft(2**70)", "perft(21)", "divide(-2)", "divide(0)", "playout(seed=-1)",
        "playout(max_plies=-1)", "random_playouts(games=-1)", "random_playouts(seed=-3)",
        "random_playouts(max_plies=2**40)", "play_action(-1)", "play_action(6561)",
        "play_action(-2**80)", "score_for(bad side)",
    ],
)
def test_numbers_out_of_range_raise_the_packages_typed_errors(
    call: Callable[[], object], error: type, reason: str
) -> None:
    with pytest.raises(error) as e:
        call()
    assert e.value.reason == reason
    assert isinstance(e.value, konakis.KonakisError)
    assert not isinstance(e.value, OverflowError)
    if error is konakis.ArgumentError:
        assert isinstance(e.value, ValueError)  # what code catching a bad value expects


def test_a_game_is_unchanged_by_a_refused_number() -> None:
    g = Game(moves=["d1d3"])
    before = (g.position, g.moves)
    for bad in (-1, 6561, 2**64):
        with pytest.raises(konakis.MoveSyntaxError):
            g.play_action(bad)
    with pytest.raises(konakis.ArgumentError):
        g.playout(seed=-1)
    assert (g.position, g.moves) == before
    with pytest.raises(TypeError):
        g.perft("2")  # not a number at all: Python's own TypeError


def test_a_chess_fen_is_reported_as_the_wrong_number_of_ranks() -> None:
    with pytest.raises(konakis.PositionError) as e:
        Game(position="rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
    assert e.value.reason == "rank-count"
    assert "8 rank(s)" in str(e.value) and "expected 9" in str(e.value)
