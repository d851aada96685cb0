"""Issue 43, the protocol driver: an answer always belongs to its question. A search that is
cancelled (asyncio.wait_for, Ctrl-C) is stopped and its bestmove dropped before the next one;
every search runs under its game's rules whatever was configured in between; stop() and the
streaming analysis leave the engine ready for the next search."""

from __future__ import annotations

import asyncio
import sys
import threading
import time
from pathlib import Path
from typing import Callable, Iterator

import pytest

from konakis import Game, PovScore, Rules
from konakis.engine import AsyncEngine, Engine, Limit
from konakis.otep import AsyncOtepEngine

# The attackers move first at the start; after one move it is the defenders' turn, so no move
# of the first position's search is legal in the second.
FIRST = Game()
SECOND = Game(moves=["d1d3"])


@pytest.fixture
def engine(konakis_bin: str) -> Iterator[Engine]:
    with Engine.popen([konakis_bin]) as e:
        yield e


def test_a_play_cancelled_by_wait_for_does_not_answer_the_next_play(konakis_bin: str) -> None:
    async def main() -> None:
        engine = await AsyncEngine.popen([konakis_bin])
        try:
            with pytest.raises(asyncio.TimeoutError):
                await asyncio.wait_for(engine.play(FIRST, Limit(time=3)), 0.3)
            start = time.monotonic()
            result = await engine.play(SECOND, Limit(depth=2))
            assert result.move in SECOND.legal_moves()
            assert time.monotonic() - start < 1.5
        finally:
            await engine.quit()

    asyncio.run(main())


def test_an_endless_analysis_cancelled_by_wait_for_does_not_answer_the_next_one(
        konakis_bin: str) -> None:
    async def main() -> None:
        engine = await AsyncEngine.popen([konakis_bin])
        try:
            with pytest.raises(asyncio.TimeoutError):
                await asyncio.wait_for(engine.analyse(FIRST, Limit(), multipv=3), 0.3)
            start = time.monotonic()
            info = await engine.analyse(SECOND, Limit(depth=2))
            assert info["pv"][0] in SECOND.legal_moves()
            # MultiPV was set back: one line.
            assert info.get("multipv", 1) == 1
            assert time.monotonic() - start < 1.5
        finally:
            await engine.quit()

    asyncio.run(main())


@pytest.mark.parametrize("limit", [Limit(time=3), Limit()], ids=["time", "infinite"])
def test_ctrl_c_during_a_sync_play_stops_it_and_the_next_play_answers_its_own_game(
        engine: Engine, limit: Limit,
        interrupt_main_after: Callable[[float], threading.Timer]) -> None:
    timer = interrupt_main_after(0.3)
    start = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        engine.play(FIRST, limit)
    timer.join()
    assert time.monotonic() - start < 1.5
    start = time.monotonic()
    result = engine.play(SECOND, Limit(depth=2))
    assert result.move in SECOND.legal_moves()
    assert time.monotonic() - start < 1.5


def test_configure_between_two_plays_does_not_leave_the_rules_of_the_game(engine: Engine) -> None:
    ashton = Game(Rules("ashton"), position="9/7w1/9/9/9/4b4/3bKb3/9/9 w")
    assert ashton.is_legal("e3e1") is False
    assert engine.play(ashton, Limit(depth=2)).move in ashton.legal_moves()
    engine.configure({"Ruleset": "Linnaeus"})
    for depth in (1, 2, 3):
        result = engine.play(ashton, Limit(depth=depth))
        assert result.move in ashton.legal_moves(), result.move


def test_stop_from_another_thread_ends_an_endless_play(engine: Engine) -> None:
    timer = threading.Timer(0.3, engine.stop)
    timer.start()
    start = time.monotonic()
    result = engine.play(FIRST, Limit())
    assert time.monotonic() - start < 2.0
    assert result.move in FIRST.legal_moves()
    assert engine.play(SECOND, Limit(depth=2)).move in SECOND.legal_moves()


def test_async_stop_ends_an_endless_play(konakis_bin: str) -> None:
    async def main() -> None:
        engine = await AsyncEngine.popen([konakis_bin])
        try:
            task = asyncio.ensure_future(engine.play(FIRST, Limit()))
            await asyncio.sleep(0.3)
            await engine.stop()
            result = await asyncio.wait_for(task, 2.0)
            assert result.move in FIRST.legal_moves()
            assert (await engine.play(SECOND, Limit(depth=2))).move in SECOND.legal_moves()
        finally:
            await engine.quit()

    asyncio.run(main())


def test_a_sync_analysis_streams_infos_stops_early_and_the_engine_plays_next(
        engine: Engine) -> None:
    depths = []
    start = time.monotonic()
    with engine.analysis(FIRST) as analysis:
        for info in analysis:
            if "score" in info:
                assert isinstance(info["score"], PovScore)
                assert info["pv"][0] in FIRST.legal_moves()
                depths.append(info["depth"])
            if depths and depths[-1] >= 4:
                break
    assert depths[:4] == [1, 2, 3, 4]
    assert analysis.info["pv"][0] in FIRST.legal_moves()
    assert time.monotonic() - start < 5.0
    result = engine.play(SECOND, Limit(depth=2))
    assert result.move in SECOND.legal_moves()


def test_a_limited_analysis_runs_out_and_waits_for_its_move(engine: Engine) -> None:
    analysis = engine.analysis(FIRST, Limit(depth=3), multipv=2)
    infos = [info for info in analysis if "score" in info]
    assert max(info["depth"] for info in infos) == 3
    assert {info["multipv"] for info in infos} == {1, 2}
    assert len(analysis.multipv) == 2
    assert analysis.wait().move in FIRST.legal_moves()
    assert engine.analyse(SECOND, Limit(depth=2)).get("multipv", 1) == 1


def test_a_play_while_an_analysis_runs_stops_it_and_answers_its_own_game(engine: Engine) -> None:
    analysis = engine.analysis(FIRST)
    next(iter(analysis))
    start = time.monotonic()
    assert engine.play(SECOND, Limit(depth=2)).move in SECOND.legal_moves()
    assert time.monotonic() - start < 2.0
    assert analysis.wait().move in FIRST.legal_moves()


def test_an_async_analysis_streams_and_stops(konakis_bin: str) -> None:
    async def main() -> None:
        engine = await AsyncEngine.popen([konakis_bin])
        try:
            async with await engine.analysis(FIRST) as analysis:
                async for info in analysis:
                    if info.get("depth", 0) >= 3:
                        break
            assert analysis.done()
            result = await engine.play(SECOND, Limit(depth=2))
            assert result.move in SECOND.legal_moves()
        finally:
            await engine.quit()

    asyncio.run(main())


def test_an_otep_play_cancelled_by_wait_for_does_not_answer_the_next_play(
        konakis_bin: str) -> None:
    async def main() -> None:
        engine = await AsyncOtepEngine.popen([konakis_bin, "otep", "--hash", "4"])
        try:
            with pytest.raises(asyncio.TimeoutError):
                await asyncio.wait_for(engine.play(FIRST, Limit(time=1.0)), 0.2)
            result = await engine.play(SECOND, Limit(time=0.1))
            assert result.move in SECOND.legal_moves()
        finally:
            await engine.quit()

    asyncio.run(main())


# An OTEP engine that, like OpenTafl's own AI, answers every `analyze` after its time even when
# the host has gone on: the answer of a cancelled search is still on its way. It plays a4-a3
# for the attackers and e3-f3 for the defenders.
SLOW_OTEP = """
import sys, time
plies = 0
for line in sys.stdin:
    words = line.split()
    if words[:1] == ["rules"]:
        plies = 0
    elif words[:1] == ["opponent-move"]:
        plies += 1
    elif words[:1] == ["analyze"]:
        time.sleep(float(words[2]))
        print("analysis 1 " + ("a4-a3" if plies % 2 == 0 else "e3-f3") + " 0")
        sys.stdout.flush()
    elif words[:1] == ["goodbye"]:
        break
"""


def test_a_cancelled_otep_play_whose_answer_comes_late_does_not_answer_the_next(
        tmp_path: Path) -> None:
    script = tmp_path / "slow_otep.py"
    script.write_text(SLOW_OTEP)

    async def main() -> None:
        engine = await AsyncOtepEngine.popen([sys.executable, str(script)])
        try:
            with pytest.raises(asyncio.TimeoutError):
                await asyncio.wait_for(engine.play(FIRST, Limit(time=0.5)), 0.1)
            result = await engine.play(SECOND, Limit(time=0.1))
            assert result.move == "e3f3" and result.move in SECOND.legal_moves()
        finally:
            await engine.quit()

    asyncio.run(main())


def test_ctrl_c_while_iterating_a_sync_analysis_stops_it_and_the_next_play_answers_its_game(
        engine: Engine, interrupt_main_after: Callable[[float], threading.Timer]) -> None:
    analysis = engine.analysis(FIRST)
    timer = interrupt_main_after(0.3)
    start = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        for _ in analysis:
            pass
    timer.join()
    assert time.monotonic() - start < 1.5
    result = engine.play(SECOND, Limit(depth=2))
    assert result.move in SECOND.legal_moves()
    assert time.monotonic() - start < 2.5
