"""Engines out of process: the real program, sync and asyncio, and a deliberately broken
engine for the failures (death, silence, refusal)."""

from __future__ import annotations

import asyncio
import sys
import textwrap
from pathlib import Path

import pytest

from konakis import Game, PovScore, Rules, Score
from konakis.engine import (
    AsyncEngine,
    Engine,
    EngineError,
    EngineTerminatedError,
    EngineTimeoutError,
    Limit,
    parse_info,
)


def test_play_and_analyse_with_the_real_program(konakis_bin: str) -> None:
    with Engine.popen([konakis_bin]) as engine:
        assert engine.id["name"].startswith("Konakis")
        assert "Skill Level" in engine.options and "MultiPV" in engine.options
        g = Game(Rules("ashton"))
        for _ in range(4):
            result = engine.play(g, Limit(nodes=3_000))
            assert result.move in g.legal_moves()
            g.play(result.move)
        info = engine.analyse(g, Limit(depth=4))
        assert info["depth"] == 4 and info["pv"][0] in g.legal_moves()
        assert isinstance(info["score"], PovScore) and info["score"].turn == g.side_to_move
        assert info["score"].relative.score() is not None or info["score"].is_mate()
        lines = engine.analyse(g, Limit(depth=3), multipv=3)
        assert isinstance(lines, list) and [l["multipv"] for l in lines] == [1, 2, 3]
        engine.configure({"UCI_ShowWDL": True, "Skill Level": 3})
        info = engine.analyse(Game(), Limit(depth=3))
        assert sum(info["wdl"]) == 1000
        assert tuple(info["score"].relative.wdl()) == info["wdl"]
        with pytest.raises(EngineError, match="Skill Level"):
            engine.configure({"Skill Level": 99})
        # Back to other rules: the driver sends the rule options again.
        result = engine.play(Game(Rules("english")), Limit(time=0.05))
        assert result.move in Game(Rules("english")).legal_moves()


def test_asyncio(konakis_bin: str) -> None:
    async def main() -> str:
        engine = await AsyncEngine.popen([konakis_bin])
        try:
            result = await engine.play(Game(), Limit(depth=3))
            assert result.move is not None
            return result.move
        finally:
            await engine.quit()

    assert asyncio.run(main()) in Game().legal_moves()


def test_a_finished_game_gives_no_move(konakis_bin: str) -> None:
    with Engine.popen([konakis_bin]) as engine:
        result = engine.play("9/9/9/9/9/9/9/9/4K4 b", Limit(depth=2))
        assert result.move is None
        assert "game over" in result.info.get("string", "")


BROKEN = textwrap.dedent(
    """
    import sys
    mode = sys.argv[1]
    if mode == "mute":
        sys.stdin.readline()
        import time; time.sleep(30)
    for line in sys.stdin:
        word = line.split()[0] if line.split() else ""
        if word == "uci":
            print("id name Broken"); print("uciok"); sys.stdout.flush()
        elif word == "isready":
            print("readyok"); sys.stdout.flush()
        elif word == "setoption":
            print("info string error: setoption: no options here"); sys.stdout.flush()
        elif word == "go":
            if mode == "die":
                sys.exit(3)
            if mode == "slow":
                continue
            print("info depth 1 score cp 5 nodes 1 pv d1d3"); print("bestmove d1d3")
            sys.stdout.flush()
    """
)


@pytest.fixture
def broken(tmp_path: Path) -> list:
    script = tmp_path / "broken.py"
    script.write_text(BROKEN)
    return [sys.executable, str(script)]


def test_a_dead_engine_is_an_exception(broken: list) -> None:
    with Engine.popen(broken + ["die"]) as engine:
        with pytest.raises(EngineTerminatedError, match="exit code 3"):
            engine.play(None, Limit(depth=1))
        with pytest.raises(EngineTerminatedError):
            engine.play(None, Limit(depth=1))


def test_a_silent_engine_times_out(broken: list) -> None:
    with pytest.raises(EngineTimeoutError):
        Engine.popen(broken + ["mute"], timeout=0.5)
    with Engine.popen(broken + ["slow"]) as engine:
        with pytest.raises(EngineTimeoutError):
            engine.play(None, Limit(depth=1), timeout=0.5)


def test_refusals_and_a_well_behaved_answer(broken: list) -> None:
    with Engine.popen(broken + ["ok"]) as engine:
        assert engine.play(None, Limit(depth=1)).move == "d1d3"
        with pytest.raises(EngineError, match="no options here"):
            engine.configure({"Hash": 1})
    with pytest.raises(EngineTerminatedError):
        Engine.popen(["/nonexistent/engine"])


def test_info_lines_become_dictionaries() -> None:
    info = parse_info(
        "info depth 6 seldepth 16 multipv 2 score mate -3 wdl 0 0 1000 upperbound nodes 44101 "
        "nps 3675083 time 12 hashfull 1 pv a4c4 c5c6"
    )
    assert info == {
        "depth": 6, "seldepth": 16, "multipv": 2, "score": PovScore(Score(mate=-3), "attackers"),
        "wdl": (0, 0, 1000), "bound": "upper", "nodes": 44101, "nps": 3675083,
        "time": 0.012, "hashfull": 1, "pv": ["a4c4", "c5c6"],
    }
    assert parse_info("info string hello there") == {"string": "hello there"}
    assert parse_info("info depth x") == {}


def test_an_otep_engine(konakis_bin: str) -> None:
    from konakis.otep import AsyncOtepEngine, OtepEngine, opentafl_record

    assert opentafl_record(Game().board_bytes()) == (
        "/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/"
    )
    with OtepEngine.popen([konakis_bin, "otep", "--hash", "4"]) as engine:
        g = Game(moves=["d1d3"])
        result = engine.play(g, Limit(attackers_clock=2.0, defenders_clock=2.0))
        assert result.move in g.legal_moves()
        g.play(result.move)
        assert engine.play(g, Limit(time=0.1)).move in g.legal_moves()
        lines = engine.analyse(g, Limit(time=0.2), multipv=2)
        assert isinstance(lines, list) and len(lines) == 2
        assert lines[0]["pv"][0] in g.legal_moves()
        assert isinstance(lines[0]["score"], PovScore) and sum(lines[0]["score"].wdl().relative) == 1000
        with pytest.raises(EngineError, match="time limits"):
            engine.play(g, Limit(depth=3))
        with pytest.raises(EngineError, match="options"):
            engine.configure({"Hash": 1})

    async def main() -> str:
        engine = await AsyncOtepEngine.popen([konakis_bin, "otep"])
        try:
            return (await engine.play(Game(), Limit(time=0.05))).move or ""
        finally:
            await engine.quit()

    assert asyncio.run(main()) in Game().legal_moves()
