"""Issue 43, the engine in-process: Ctrl-C during a search, the protocol driver's face
(Limit in, PlayResult out, the same infos), and the score objects of both engines."""

from __future__ import annotations

import threading
import time
from typing import Callable

import pytest

from konakis import Game, NativeEngine, PovScore, PovWdl, Rules, Score, Wdl
from konakis.engine import Engine, EngineTimeoutError, Limit, PlayResult


def test_ctrl_c_during_a_native_search_raises_at_once_and_the_engine_searches_again(
        interrupt_main_after: Callable[[float], threading.Timer]) -> None:
    engine = NativeEngine()
    game = Game()
    timer = interrupt_main_after(0.3)
    start = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        engine.search(game, time=5)
    timer.join()
    assert time.monotonic() - start < 1.5
    result = engine.search(game, depth=3)
    assert result["move"] in game.legal_moves() and result["lines"][0]["depth"] == 3


def test_ctrl_c_ends_an_endless_native_play(
        interrupt_main_after: Callable[[float], threading.Timer]) -> None:
    engine = NativeEngine()
    timer = interrupt_main_after(0.3)
    start = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        engine.play(Game(), Limit())
    timer.join()
    assert time.monotonic() - start < 1.5
    second = Game(moves=["d1d3"])
    assert engine.play(second, Limit(depth=2)).move in second.legal_moves()


def test_ctrl_c_during_a_native_game_review_raises_at_once(
        interrupt_main_after: Callable[[float], threading.Timer]) -> None:
    engine = NativeEngine()
    timer = interrupt_main_after(0.3)
    start = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        engine.review_json(Game(moves=["d1d3", "e3f3"]), time=5)
    timer.join()
    assert time.monotonic() - start < 1.5


def test_the_native_engine_plays_a_limit_and_returns_a_play_result() -> None:
    game = Game(Rules("ashton"))
    with NativeEngine(Threads=1) as engine:
        result = engine.play(game, Limit(depth=4))
        assert isinstance(result, PlayResult)
        assert result.move in game.legal_moves() and result.info["depth"] == 4
        assert engine.play(game, Limit(nodes=2_000)).move in game.legal_moves()
        clock = Limit(attackers_clock=0.5, defenders_clock=0.5)
        start = time.monotonic()
        assert engine.play(game, clock).move in game.legal_moves()
        assert time.monotonic() - start < 1.0
        timer = threading.Timer(0.2, engine.stop)
        timer.start()
        assert engine.play(game, Limit()).move in game.legal_moves()
        with pytest.raises(EngineTimeoutError):
            engine.play(game, Limit(), timeout=0.2)
        over = engine.play("9/9/9/9/9/9/9/9/4K4 b", Limit(depth=2))
        assert over.move is None and "game over" in over.info["string"]
    # The keyword form stays.
    assert NativeEngine().search(game, depth=2)["move"] in game.legal_moves()


def test_native_and_protocol_analyse_give_the_same_infos(konakis_bin: str) -> None:
    game = Game(Rules("ashton"), moves=["e3f3"])
    native = NativeEngine()
    with Engine.popen([konakis_bin]) as protocol:
        for engine in (native, protocol):
            info = engine.analyse(game, Limit(depth=4))
            assert isinstance(info, dict)
            assert {"depth", "seldepth", "score", "wdl", "bound", "nodes", "time", "pv"} <= set(info)
            assert isinstance(info["score"], PovScore) and info["score"].turn == game.side_to_move
            assert info["pv"][0] in game.legal_moves()
            assert tuple(info["score"].relative.wdl()) == info["wdl"]
            lines = engine.analyse(game, Limit(depth=3), multipv=2)
            assert isinstance(lines, list) and [l["multipv"] for l in lines] == [1, 2]


def test_scores_carry_the_win_chances_of_the_engines_model() -> None:
    game = Game(Rules("ashton"))
    info = NativeEngine().analyse(game, Limit(depth=3))
    score = info["score"]
    relative = score.relative
    assert relative.score() is not None and not score.is_mate()
    assert tuple(relative.wdl()) == NativeEngine.win_chances(game, ("cp", relative.score()))
    other = "attackers" if game.side_to_move == "defenders" else "defenders"
    assert score.pov(game.side_to_move) == relative
    assert score.pov(other) == -relative
    assert score.wdl().pov(other) == Wdl(*reversed(tuple(relative.wdl())))
    assert 0.0 <= relative.wdl().expectation() <= 1.0


def test_score_objects_behave_as_python_chess_scores() -> None:
    mate = Score(mate=3, wdl=Wdl(1000, 0, 0))
    assert mate.is_mate() and mate.mate() == 3 and mate.score() is None
    assert mate.score(mate_score=100_000) == 99_997
    assert (-mate).mate() == -3 and (-mate).score(mate_score=100_000) == -99_997
    assert (-mate).wdl() == Wdl(0, 0, 1000)
    cp = Score(cp=35)
    assert repr(cp) == "Cp(+35)" and repr(-cp) == "Cp(-35)"
    with pytest.raises(ValueError, match="no win chances"):
        cp.wdl()
    with pytest.raises(ValueError):
        Score()
    pov = PovScore(cp, "attackers")
    assert pov.attackers() == cp and pov.defenders() == Score(cp=-35)
    assert pov == PovScore(Score(cp=-35), "defenders")
    with pytest.raises(ValueError):
        pov.pov("white")
    assert PovWdl(Wdl(600, 100, 300), "attackers").defenders() == Wdl(300, 100, 600)


def test_the_konakis_command_of_the_package_refuses_the_native_programs_tools() -> None:
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "konakis._cli", "datagen", "--games", "1"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "cargo build --release" in done.stderr
    done = subprocess.run([sys.executable, "-m", "konakis._cli", "otep", "--skill", "99"],
                          input="", capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and "Skill Level" in done.stderr
    done = subprocess.run([sys.executable, "-m", "konakis._cli"], input="uci\nquit\n",
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and "uciok" in done.stdout


def test_a_native_analysis_streams_infos_stops_early_and_the_engine_plays_next() -> None:
    engine = NativeEngine()
    game = Game()
    depths = []
    with engine.analysis(game) as analysis:
        for info in analysis:
            assert isinstance(info["score"], PovScore) and info["pv"][0] in game.legal_moves()
            depths.append(info["depth"])
            if info["depth"] >= 4:
                break
    assert depths[:4] == [1, 2, 3, 4]
    assert analysis.wait().move in game.legal_moves()
    second = Game(moves=["d1d3"])
    assert engine.play(second, Limit(depth=2)).move in second.legal_moves()
    limited = engine.analysis(second, Limit(depth=3), multipv=2)
    infos = list(limited)
    assert max(i["depth"] for i in infos) == 3 and {i["multipv"] for i in infos} == {1, 2}
    assert limited.wait().move in second.legal_moves()


def test_an_exception_in_on_info_stops_the_native_search_and_is_raised() -> None:
    def refuse(info: dict) -> None:
        raise RuntimeError("enough")

    start = time.monotonic()
    with pytest.raises(RuntimeError, match="enough"):
        NativeEngine().search(Game(), infinite=True, on_info=refuse)
    assert time.monotonic() - start < 2.0
