"""OpenTafl engines out of process: the OpenTafl Engine Protocol (OTEP), as ``konakis otep``
and OpenTafl's own AI speak it (protocol.md, "OpenTafl mode").

The same face as :mod:`konakis.engine`: ``OtepEngine.popen(["konakis", "otep"])``,
:meth:`OtepEngine.play`, :meth:`OtepEngine.analyse`, sync or with ``asyncio``
(:class:`AsyncOtepEngine`), and the same exceptions. OTEP knows only time: a
:class:`~konakis.engine.Limit` gives a time per move (``time``) or clocks; a depth or node
limit is refused. The rules go to the engine as OpenTafl's rules string, which cannot say
everything Konakis' options can (Ashton's camps and its draw on the first repetition, the move
limit): the engine plays its reading of that string.
"""

from __future__ import annotations

import asyncio
import re
from typing import Any, Dict, List, Mapping, Optional, Union

from .engine import (
    AsyncEngine,
    Engine,
    EngineError,
    Limit,
    PlayResult,
    Position,
    _pov_score,
)

__all__ = ["AsyncOtepEngine", "OtepEngine", "opentafl_record", "rules_string"]


def opentafl_record(board: bytes) -> str:
    """OpenTafl's position record of a placement (``Game.board_bytes()``): ranks from rank 1 up
    between slashes, ``t`` attacker, ``T`` defender, ``K`` king, digits for empty squares."""
    ranks = []
    for rank in range(9):
        text, empty = "", 0
        for cell in board[rank * 9 : rank * 9 + 9]:
            if cell == 0:
                empty += 1
                continue
            if empty:
                text += str(empty)
                empty = 0
            text += "tTK"[cell - 1]
        ranks.append(text + (str(empty) if empty else ""))
    return "/" + "/".join(ranks) + "/"


def rules_string(game: Any) -> str:
    """OpenTafl's rules string of a game's rules and start position."""
    for line in game.to_otg().splitlines():
        if line.startswith("[rules:"):
            return str(line[len("[rules:") : -1])
    raise EngineError("the game's record has no rules tag")


_MOVE = re.compile(r"K?([a-i][1-9])-([a-i][1-9])")


def _move_of(text: str) -> Optional[str]:
    """``e3-e1``, ``Ke5-e7``, ``e3-e1xe2/d1+`` -> ``e3e1``."""
    m = _MOVE.match(text)
    return m.group(1) + m.group(2) if m else None


class AsyncOtepEngine(AsyncEngine):
    """An OTEP engine driven with ``asyncio``; see the module documentation.

    OTEP has no ``stop`` that answers: a cancelled search runs to its time, and the next
    command first reads and drops its answer (a ``move`` or ``analysis`` line)."""

    def __init__(self, process: asyncio.subprocess.Process, timeout: Optional[float]) -> None:
        super().__init__(process, timeout)
        # The answer owed to the last `play` or `analyze` (its first word), and until when
        # (the loop's clock) it may come.
        self._awaiting: Optional[str] = None
        self._awaiting_until = 0.0

    def _note(self, line: str) -> None:
        word = line.split(maxsplit=1)[0] if line.strip() else ""
        if self._awaiting is not None and word in (self._awaiting, "error"):
            self._awaiting = None

    def _busy(self) -> bool:
        return self._awaiting is not None

    def _settle_timeout(self) -> float:
        left = self._awaiting_until - asyncio.get_running_loop().time()
        return max(1.0, left)

    def _expect(self, word: str, timeout: Optional[float]) -> None:
        self._awaiting = word
        self._awaiting_until = asyncio.get_running_loop().time() + (
            timeout if timeout is not None else 10.0
        )

    async def analysis(
        self,
        position: Position,
        limit: Optional[Limit] = None,
        *,
        multipv: Optional[int] = None,
    ) -> Any:
        """OTEP answers an analysis only at its end: use :meth:`analyse`."""
        raise EngineError("OTEP engines give no streaming analysis; use analyse()")

    async def _handshake(self) -> None:
        # OTEP has no handshake: the engine may greet with `hello`, which is skipped as read.
        return None

    async def _ping(self) -> List[str]:
        return []

    async def _configure(self, options: Mapping[str, Any]) -> None:
        if options:
            raise EngineError("OTEP engines take no options (start them with the flags they need)")

    async def _send_game(self, position: Position) -> str:
        """Sends the rules and the moves of a game; returns the side to move."""
        if position is None or isinstance(position, str):
            raise EngineError("an OTEP engine needs a konakis.Game (its rules string and moves)")
        self._send("rules " + rules_string(position))
        replay = position.copy()
        while replay.undo() is not None:
            pass
        for move in position.moves:
            replay.play(move)
            record = opentafl_record(replay.board_bytes())
            self._send(f"opponent-move {move[:2]}-{move[2:]} {record}")
        return str(position.side_to_move)

    async def _answer(self, prefix: str, timeout: Optional[float]) -> List[str]:
        """Reads until a line starting with ``prefix``; an ``error`` line is an EngineError."""
        loop = asyncio.get_running_loop()
        deadline = None if timeout is None else loop.time() + timeout
        while True:
            left = None if deadline is None else max(0.0, deadline - loop.time())
            line = await self._readline(left)
            words = line.split()
            if not words:
                continue
            if words[0] == "error":
                raise EngineError(line)
            if words[0] == prefix:
                return words

    async def _search(
        self,
        position: Position,
        limit: Limit,
        timeout: Optional[float],
        infos: Optional[Dict[int, Dict[str, Any]]],
    ) -> PlayResult:
        if limit.depth is not None or limit.nodes is not None or limit.mate is not None:
            raise EngineError("OTEP engines take time limits only (time or clocks)")
        side = await self._send_game(position)
        seconds = limit.expected_seconds() or 5.0
        if timeout is None:
            timeout = seconds + 10.0
        if limit.time is not None:
            # A fixed time per move: OTEP's `analyze` thinks exactly that long.
            lines = await self._analyze(position, 1, limit.time, timeout)
            move = lines[0]["pv"][0] if lines and lines[0]["pv"] else None
            return PlayResult(move, None, lines[0] if lines else {})

        def ms(seconds: Optional[float]) -> str:
            return "-1" if seconds is None else str(int(round(seconds * 1000)))

        self._send(f"clock {ms(limit.attackers_clock)} {ms(limit.defenders_clock)} 0 0 0")
        self._send(f"play {side}")
        self._expect("move", timeout)
        await self._drain()
        words = await self._answer("move", timeout)
        return PlayResult(_move_of(words[1]) if len(words) > 1 else None)

    async def _analyze(self, position: Position, lines: int, seconds: float,
                       timeout: Optional[float]) -> List[Dict[str, Any]]:
        self._send(f"analyze {lines} {seconds:g}")
        self._expect("analysis", timeout)
        await self._drain()
        words = await self._answer("analysis", timeout)
        out: List[Dict[str, Any]] = []
        # analysis <k> <move|move|...> <eval> <move|...> <eval> ...
        rest = words[2:]
        for k in range(0, len(rest) - 1, 2):
            pv = [m for m in (_move_of(t) for t in rest[k].split("|")) if m]
            try:
                value = int(rest[k + 1])
            except ValueError:
                break
            # OTEP scores are absolute: positive when the attackers stand better.
            if position.side_to_move != "attackers":
                value = -value
            out.append({"multipv": k // 2 + 1, "pv": pv,
                        "score": _pov_score(("cp", value), None, position)})
        return out

    async def _analyse(
        self,
        position: Position,
        limit: Limit,
        multipv: Optional[int],
        timeout: Optional[float],
    ) -> Union[Dict[str, Any], List[Dict[str, Any]]]:
        # `analyse` (the base class's) for OTEP: `analyze` for `limit.time` seconds; the lines
        # as dictionaries with `pv` and `score`, a PovScore (OpenTafl's absolute hundredths of
        # a soldier turned to the side to move's view: `score.attackers()` is OpenTafl's
        # figure), its win chances from Konakis' model of the game.
        if limit.time is None:
            raise EngineError("OTEP analysis takes a time (Limit(time=...))")
        async with self._lock:
            await self._settle()
            await self._send_game(position)
            lines = await self._analyze(position, multipv or 1, limit.time,
                                        timeout if timeout is not None else limit.time + 10.0)
        if multipv is None:
            return lines[0] if lines else {}
        return lines

    async def quit(self) -> None:
        """Sends ``goodbye`` and waits for the process to end (killing it after a second)."""
        if self._process.returncode is None:
            try:
                self._send("goodbye")
                await self._drain()
            except EngineError:
                pass
        await super().quit()


class OtepEngine(Engine):
    """The synchronous face of :class:`AsyncOtepEngine`."""

    _async_class = AsyncOtepEngine
