"""The engine in-process: limits, multi-PV, levels, win chances, game analysis, the GIL
released while it searches, and a stop from another thread."""

from __future__ import annotations

import threading
import time

import pytest

import konakis
from konakis import Game, NativeEngine, Rules


def test_depth_node_and_time_limits() -> None:
    e = NativeEngine()
    g = Game(Rules("ashton"))
    r = e.search(g, depth=4)
    assert r["move"] in g.legal_moves()
    assert r["lines"][0]["depth"] == 4 and r["lines"][0]["pv"][0] == r["move"]
    r = e.search(g, nodes=2_000)
    assert r["move"] in g.legal_moves() and r["nodes"] < 20_000
    start = time.perf_counter()
    r = e.search(g, time=0.2)
    assert time.perf_counter() - start < 2.0 and r["move"] in g.legal_moves()
    with pytest.raises(ValueError):
        e.search(g)


def test_multipv_lines_carry_scores_and_win_chances() -> None:
    e = NativeEngine()
    g = Game()
    r = e.search(g, depth=5, multipv=3)
    lines = r["lines"]
    assert [l["multipv"] for l in lines] == [1, 2, 3]
    assert len({l["pv"][0] for l in lines}) == 3
    for l in lines:
        kind, value = l["score"]
        assert kind in ("cp", "mate") and isinstance(value, int)
        assert sum(l["wdl"]) == 1000
        assert l["wdl"] == NativeEngine.win_chances(g, l["score"])
    assert len(e.search(g, depth=3)["lines"]) == 1


def test_a_finished_game_has_no_move() -> None:
    g = Game(position="9/9/9/9/9/9/9/9/4K4 b")
    r = NativeEngine().search(g, depth=3)
    assert r["move"] is None and r["status"].startswith("defenders win")


def test_levels_and_options_by_name() -> None:
    g = Game(Rules("ashton"))
    weak = NativeEngine(**{"Skill Level": 0, "Skill Seed": 1})
    assert weak.search(g, nodes=5_000)["move"] in g.legal_moves()
    elo = NativeEngine(UCI_LimitStrength=True, UCI_Elo=800)
    assert elo.search(g, nodes=5_000)["move"] in g.legal_moves()
    names = [row["name"] for row in NativeEngine.option_table()]
    assert {"Skill Level", "UCI_Elo", "MultiPV", "Threads", "KingCapture"} <= set(names)
    with pytest.raises(konakis.SearchError) as e:
        weak.set_option("Skill Level", 99)
    assert e.value.reason == "option"
    with pytest.raises(konakis.SearchError):
        weak.set_option("No Such Option", 1)


def test_a_search_releases_the_gil_and_stops_from_another_thread() -> None:
    e = NativeEngine()
    g = Game()
    out = {}

    def think() -> None:
        out["result"] = e.search(g, time=60.0)

    t = threading.Thread(target=think)
    start = time.perf_counter()
    t.start()
    # Python code keeps running while the search does: the GIL is free.
    counted = 0
    while time.perf_counter() - start < 0.3:
        counted += 1
    assert counted > 1000
    e.stop()
    t.join(10)
    assert not t.is_alive()
    assert time.perf_counter() - start < 5.0
    assert out["result"]["move"] in g.legal_moves()


def test_analyse_game_reviews_every_move() -> None:
    g = Game(moves=["d1d3", "e3f3", "a4c4"])
    review = konakis.analyse_game(g, depth=3)
    moves = review["review"]["moves"]
    assert len(moves) == 3
    assert {"played", "verdict"} <= set(moves[0])
    assert review["review"]["attackers"]["moves"] == 2
