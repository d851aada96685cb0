"""Engines out of process, the python-chess way.

Any program that speaks the Konakis line protocol (protocol.md: ``uci``, ``setoption``,
``position``, ``go``, ``info``, ``bestmove``) -- Konakis itself, or another engine written
to it -- is started with :meth:`Engine.popen` and driven with :meth:`Engine.play` and
:meth:`Engine.analyse`::

    from konakis import Game, Rules
    from konakis.engine import Engine, Limit

    with Engine.popen(["konakis"]) as engine:
        game = Game(Rules("ashton"))
        result = engine.play(game, Limit(time=0.1))
        game.play(result.move)

:class:`AsyncEngine` is the same for ``asyncio`` (``await AsyncEngine.popen([...])``);
:class:`Engine` runs one in an event loop on a thread of its own.

Failures are exceptions: :class:`EngineTerminatedError` when the engine has died or closed its
output, :class:`EngineTimeoutError` when it does not answer in time, :class:`EngineError` when
it refuses a command (its ``info string error:`` line is the message).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import subprocess
import threading
from dataclasses import dataclass, field
from typing import (
    Any,
    Coroutine,
    Dict,
    List,
    Mapping,
    Optional,
    Sequence,
    Tuple,
    TypeVar,
    Union,
    overload,
)

from ._konakis import Game as _Game
from ._konakis import NativeEngine as _NativeEngine
from .score import PovScore, Score, Wdl

__all__ = [
    "Analysis",
    "AsyncAnalysis",
    "AsyncEngine",
    "Engine",
    "EngineError",
    "EngineTerminatedError",
    "EngineTimeoutError",
    "Limit",
    "PlayResult",
    "parse_info",
]

T = TypeVar("T")

#: A position for an engine: a ``konakis.Game`` (its rules, start and moves are sent), a
#: position string, or None for the start position under the engine's current rules.
Position = Any


class EngineError(RuntimeError):
    """The engine refused a command or broke the protocol."""


class EngineTerminatedError(EngineError):
    """The engine process has ended (or closed its output) while an answer was awaited."""


class EngineTimeoutError(EngineError, TimeoutError):
    """The engine did not answer within the time allowed."""


@dataclass
class Limit:
    """When a search ends: any of a depth, nodes, a time per move (seconds), clocks
    (seconds: ``attackers_clock``/``defenders_clock`` and their increments), or ``mate``.
    With none, the search runs until :meth:`AsyncEngine.stop` (or :meth:`Engine.stop`,
    ``NativeEngine.stop``)."""

    depth: Optional[int] = None
    nodes: Optional[int] = None
    time: Optional[float] = None
    mate: Optional[int] = None
    attackers_clock: Optional[float] = None
    defenders_clock: Optional[float] = None
    attackers_inc: Optional[float] = None
    defenders_inc: Optional[float] = None

    def go_words(self) -> List[str]:
        """The parameters of ``go`` for this limit."""
        words: List[str] = []

        def ms(seconds: float) -> str:
            return str(max(0, int(round(seconds * 1000))))

        if self.depth is not None:
            words += ["depth", str(int(self.depth))]
        if self.nodes is not None:
            words += ["nodes", str(int(self.nodes))]
        if self.time is not None:
            words += ["movetime", ms(self.time)]
        if self.mate is not None:
            words += ["mate", str(int(self.mate))]
        # `w` is the defenders and `b` the attackers in the protocol's clock words.
        if self.defenders_clock is not None:
            words += ["wtime", ms(self.defenders_clock)]
        if self.attackers_clock is not None:
            words += ["btime", ms(self.attackers_clock)]
        if self.defenders_inc is not None:
            words += ["winc", ms(self.defenders_inc)]
        if self.attackers_inc is not None:
            words += ["binc", ms(self.attackers_inc)]
        if not words:
            words = ["infinite"]
        return words

    def expected_seconds(self) -> Optional[float]:
        """About how long a search under this limit lasts, if the limit says (a time, or the
        larger clock); None for depth, nodes or mate."""
        if self.time is not None:
            return self.time
        clocks = [c for c in (self.attackers_clock, self.defenders_clock) if c is not None]
        return max(clocks) if clocks else None


@dataclass
class PlayResult:
    """What :meth:`AsyncEngine.play` returns: the move (None when the game is over), the
    expected reply, and the last info of the search's first line."""

    move: Optional[str]
    ponder: Optional[str] = None
    info: Dict[str, Any] = field(default_factory=dict)


_INT_FIELDS = {"depth", "seldepth", "multipv", "nodes", "nps", "hashfull", "currmovenumber"}


def _turn_of(position: Position) -> str:
    """The side to move of a position for an engine: a Game's, a position string's last word
    (``w`` the defenders, ``b`` the attackers, as in the protocol), else the start's."""
    if position is None:
        return str(_Game().side_to_move)
    if isinstance(position, str):
        words = position.split()
        if len(words) >= 2 and words[1] in ("w", "b"):
            return "defenders" if words[1] == "w" else "attackers"
        return str(_Game().side_to_move)
    return str(position.side_to_move)


def _model_game(position: Position) -> Any:
    """The game whose win-chance model scores a search of ``position``: a copy of the Game
    given, or None for a position string (its rules are the engine's, unknown here)."""
    if position is None or isinstance(position, str):
        return None
    return position.copy()


def parse_info(line: str, position: Position = None) -> Dict[str, Any]:
    """One ``info`` line as a dictionary: ``depth``, ``seldepth``, ``multipv``, ``score`` as a
    :class:`~konakis.score.PovScore` (from the side to move of ``position``, the position
    searched), ``wdl`` as ``(win, draw, loss)`` per mille for the side to move (the engine's,
    or Konakis' model's when ``position`` is a Game), ``bound`` (``"exact"``, ``"lower"``,
    ``"upper"``), ``nodes``, ``nps``, ``time`` in seconds, ``hashfull``, ``pv`` (a list of
    moves), ``currmove``, ``string``."""
    words = line.split()
    if words and words[0] == "info":
        words = words[1:]
    info: Dict[str, Any] = {}
    raw_score: Optional[Tuple[str, int]] = None
    i = 0
    while i < len(words):
        w = words[i]
        try:
            if w == "string":
                info["string"] = " ".join(words[i + 1 :])
                break
            if w == "pv":
                info["pv"] = words[i + 1 :]
                break
            if w in _INT_FIELDS:
                info[w] = int(words[i + 1])
                i += 2
            elif w == "time":
                info["time"] = int(words[i + 1]) / 1000.0
                i += 2
            elif w == "score":
                if words[i + 1] not in ("cp", "mate"):
                    break
                raw_score = (words[i + 1], int(words[i + 2]))
                info.setdefault("bound", "exact")
                i += 3
            elif w == "wdl":
                info["wdl"] = (int(words[i + 1]), int(words[i + 2]), int(words[i + 3]))
                i += 4
            elif w in ("lowerbound", "upperbound"):
                info["bound"] = w[:-5]
                i += 1
            elif w == "currmove":
                info["currmove"] = words[i + 1]
                i += 2
            else:
                i += 1
        except (IndexError, ValueError):
            # A malformed field ends what can be read of the line.
            break
    if raw_score is not None:
        info["score"] = _pov_score(raw_score, info.get("wdl"), position)
        if "wdl" not in info and info["score"].relative._wdl is not None:
            info["wdl"] = tuple(info["score"].relative.wdl())
    return info


def _pov_score(raw: Tuple[str, int], wdl: Optional[Tuple[int, int, int]],
               position: Position) -> PovScore:
    """A score of the side to move of ``position`` as a PovScore, with the win chances sent
    or else those of Konakis' model for a Game."""
    kind, value = raw
    if wdl is None:
        game = position if not (position is None or isinstance(position, str)) else None
        if game is not None:
            wdl = _NativeEngine.win_chances(game, ("cp" if kind == "cp" else "mate", value))
    chances = Wdl(*wdl) if wdl is not None else None
    score = Score(cp=value, wdl=chances) if kind == "cp" else Score(mate=value, wdl=chances)
    return PovScore(score, _turn_of(position))


def _position_command(position: Position) -> List[str]:
    if position is None:
        return ["position startpos"]
    if isinstance(position, str):
        return ["position fen " + position.strip()]
    moves = list(position.moves)
    line = "position fen " + position.start_position
    if moves:
        line += " moves " + " ".join(moves)
    return [line]


def _play_result(words: List[str], info: Dict[str, Any], strings: List[str]) -> PlayResult:
    best = words[1] if len(words) > 1 and words[1] != "(none)" else None
    ponder = words[3] if len(words) > 3 and words[2] == "ponder" else None
    info = dict(info)
    if strings:
        info["string"] = "\n".join(strings)
    return PlayResult(best, ponder, info)


class AsyncEngine:
    """An engine process driven through the Konakis protocol with ``asyncio``.

    Start one with ``await AsyncEngine.popen(command)``; it has answered ``uci`` and
    ``isready`` by then. ``id`` holds its ``id`` lines (``name``, ``author``), ``options`` its
    option table (name to a dictionary of ``type``, ``default``, ``min``, ``max``, ``var``).

    A search that is cancelled (``asyncio.wait_for``, ``Task.cancel``, Ctrl-C in
    :class:`Engine`) is sent ``stop`` at once, and its ``bestmove`` is read and dropped before
    the next command: an answer always belongs to its question.
    """

    def __init__(self, process: asyncio.subprocess.Process, timeout: Optional[float]) -> None:
        self._process = process
        self._timeout = timeout
        self._lock = asyncio.Lock()
        self.id: Dict[str, str] = {}
        self.options: Dict[str, Dict[str, Any]] = {}
        # The rule options last sent, so that a game under the same rules does not send them
        # again; None after any configure(), which may have changed them.
        self._sent_rules: Optional[Dict[str, str]] = None
        # What the engine still owes: a `go` whose `bestmove` has not been read (and whether
        # it was sent `stop`), `isready`s whose `readyok` has not.
        self._searching = False
        self._stop_sent = False
        self._pending_ready = 0
        # MultiPV set by analyse(multipv=...) and not yet set back to 1.
        self._multipv_changed = False
        self._analysis: Optional[AsyncAnalysis] = None

    @classmethod
    async def popen(
        cls,
        command: Union[str, Sequence[str]],
        *,
        timeout: Optional[float] = 10.0,
        options: Optional[Mapping[str, Any]] = None,
        cwd: Optional[str] = None,
        env: Optional[Mapping[str, str]] = None,
        stderr: Any = subprocess.DEVNULL,
    ) -> "AsyncEngine":
        """Starts ``command`` (a program and its arguments) and shakes hands: ``uci`` until
        ``uciok``, then ``isready``. ``timeout`` (seconds) bounds every answer that is not a
        search's; ``options`` are set at once (see :meth:`configure`)."""
        argv = [command] if isinstance(command, str) else list(command)
        try:
            process = await asyncio.create_subprocess_exec(
                *argv,
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                stderr=stderr,
                cwd=cwd,
                env=dict(env) if env is not None else None,
            )
        except OSError as e:
            raise EngineTerminatedError(f"cannot start {argv[0]!r}: {e}") from e
        engine = cls(process, timeout)
        try:
            await engine._handshake()
            if options:
                await engine.configure(options)
        except BaseException:
            await engine._kill()
            raise
        return engine

    # -- the line level ------------------------------------------------------------------

    def _send(self, line: str) -> None:
        stdin = self._process.stdin
        if stdin is None or stdin.is_closing() or self._process.returncode is not None:
            raise EngineTerminatedError(f"the engine has ended; cannot send {line!r}")
        try:
            stdin.write((line + "\n").encode("ascii", "replace"))
        except (BrokenPipeError, ConnectionResetError) as e:
            raise EngineTerminatedError(f"the engine has ended; cannot send {line!r}") from e

    async def _drain(self) -> None:
        stdin = self._process.stdin
        if stdin is None:
            return
        try:
            await stdin.drain()
        except (BrokenPipeError, ConnectionResetError) as e:
            raise EngineTerminatedError("the engine has ended") from e

    async def _readline(self, timeout: Optional[float]) -> str:
        stdout = self._process.stdout
        assert stdout is not None
        try:
            raw = await asyncio.wait_for(stdout.readline(), timeout)
        except asyncio.TimeoutError as e:
            raise EngineTimeoutError(f"the engine did not answer within {timeout} s") from e
        if not raw:
            self._searching = False
            self._pending_ready = 0
            code = await self._returncode()
            raise EngineTerminatedError(
                "the engine closed its output"
                + (f" (exit code {code})" if code is not None else "")
            )
        line = raw.decode("utf-8", "replace").rstrip("\r\n")
        self._note(line)
        return line

    def _note(self, line: str) -> None:
        """Keeps count of the answers owed, whoever reads them."""
        word = line.split(maxsplit=1)[0] if line.strip() else ""
        if word == "readyok" and self._pending_ready:
            self._pending_ready -= 1
        elif word == "bestmove":
            self._searching = False

    async def _returncode(self) -> Optional[int]:
        try:
            return await asyncio.wait_for(self._process.wait(), 1.0)
        except asyncio.TimeoutError:
            return None

    async def _handshake(self) -> None:
        self._send("uci")
        await self._drain()
        while True:
            line = await self._readline(self._timeout)
            words = line.split()
            if not words:
                continue
            if words[0] == "uciok":
                break
            if words[0] == "id" and len(words) >= 2:
                self.id[words[1]] = " ".join(words[2:])
            elif words[0] == "option":
                self._take_option(line)
        await self._ping()

    def _take_option(self, line: str) -> None:
        # option name <name...> type <t> [default <v...>] [min <n>] [max <n>] [var <v>]...
        words = line.split()[1:]
        keys = {"name", "type", "default", "min", "max", "var"}
        current: Optional[str] = None
        parts: Dict[str, Any] = {"var": []}
        buffer: List[str] = []

        def flush() -> None:
            if current is None:
                return
            text = " ".join(buffer)
            if current == "var":
                parts["var"].append(text)
            else:
                parts[current] = text

        for w in words:
            if w in keys:
                flush()
                current, buffer = w, []
            else:
                buffer.append(w)
        flush()
        name = parts.pop("name", None)
        if name:
            self.options[name] = parts

    async def _ping(self) -> List[str]:
        """``isready`` until ``readyok``; returns the ``info string error:`` messages that came
        before it."""
        self._send("isready")
        self._pending_ready += 1
        await self._drain()
        errors: List[str] = []
        while self._pending_ready:
            line = await self._readline(self._timeout)
            if line.startswith("info string error:"):
                errors.append(line[len("info string error:") :].strip())
        return errors

    # -- what a cancelled command leaves behind ------------------------------------------

    def _busy(self) -> bool:
        """Whether the engine owes answers to a command that was cancelled."""
        return self._searching or self._pending_ready > 0

    def _interrupt(self) -> None:
        """Ends the running search at once (its ``bestmove`` follows); nothing when none
        runs or it was already told."""
        if self._searching and not self._stop_sent and self._process.returncode is None:
            try:
                self._send("stop")
            except EngineError:
                return
            self._stop_sent = True

    def _settle_timeout(self) -> float:
        return self._timeout if self._timeout is not None else 10.0

    async def _settle(self) -> None:
        """Before a command: reads and drops what the engine still owes to a cancelled one
        (``stop`` first, so a search ends at once), and sets MultiPV back. An engine that does
        not answer is killed (EngineTerminatedError). The caller holds the lock."""
        if self._busy():
            self._interrupt()
            await self._drain()
            try:
                while self._busy():
                    await self._readline(self._settle_timeout())
            except EngineTimeoutError:
                await self._kill()
                raise EngineTerminatedError(
                    "the engine did not end a cancelled search; it was killed"
                ) from None
        if self._multipv_changed:
            self._multipv_changed = False
            await self._configure({"MultiPV": 1})

    def _stop_analysis(self) -> None:
        if self._analysis is not None and not self._analysis.done():
            self._analysis.stop()

    # -- commands ------------------------------------------------------------------------

    async def configure(self, options: Mapping[str, Any]) -> None:
        """Sets options by name (``{"Skill Level": 5, "UCI_ShowWDL": True}``); raises
        EngineError with the engine's message if it refuses one. The next search of a Game
        sends its rules again, whatever was set here."""
        self._stop_analysis()
        async with self._lock:
            await self._settle()
            self._sent_rules = None
            await self._configure(options)

    async def _configure(self, options: Mapping[str, Any]) -> None:
        for name, value in options.items():
            if value is None:
                self._send(f"setoption name {name}")
            else:
                if isinstance(value, bool):
                    value = "true" if value else "false"
                self._send(f"setoption name {name} value {value}")
        errors = await self._ping()
        if errors:
            raise EngineError("; ".join(errors))

    async def _set_position(self, position: Position) -> None:
        rules = getattr(position, "rules", None)
        if rules is not None:
            wanted = {name: str(value) for name, value in rules.options().items()}
            if wanted != self._sent_rules:
                self._sent_rules = None
                # Ruleset first: Ashton fixes other options, which then may only keep its values.
                ordered = sorted(wanted.items(), key=lambda kv: kv[0] != "Ruleset")
                await self._configure(dict(ordered))
                self._sent_rules = wanted
        for line in _position_command(position):
            self._send(line)
        errors = await self._ping()
        if errors:
            raise EngineError("; ".join(errors))

    async def _go(self, position: Position, limit: Limit) -> None:
        await self._set_position(position)
        self._send("go " + " ".join(limit.go_words()))
        self._searching, self._stop_sent = True, False
        await self._drain()

    async def _search(
        self,
        position: Position,
        limit: Limit,
        timeout: Optional[float],
        infos: Optional[Dict[int, Dict[str, Any]]],
    ) -> PlayResult:
        await self._go(position, limit)
        try:
            return await self._read_search(position, limit, timeout, infos)
        except BaseException:
            # Cancelled or failed: stop the search now; the next command drops its bestmove.
            self._interrupt()
            raise

    async def _read_search(
        self,
        position: Position,
        limit: Limit,
        timeout: Optional[float],
        infos: Optional[Dict[int, Dict[str, Any]]],
    ) -> PlayResult:
        if timeout is None:
            expected = limit.expected_seconds()
            timeout = None if expected is None else expected + 10.0
        loop = asyncio.get_running_loop()
        deadline = None if timeout is None else loop.time() + timeout
        last: Dict[int, Dict[str, Any]] = infos if infos is not None else {}
        strings: List[str] = []
        while True:
            left = None if deadline is None else max(0.0, deadline - loop.time())
            try:
                line = await self._readline(left)
            except EngineTimeoutError:
                await self._give_up()
                raise EngineTimeoutError(
                    f"no bestmove within {timeout} s (the engine was stopped)"
                ) from None
            words = line.split()
            if not words:
                continue
            if words[0] == "bestmove":
                return _play_result(words, last.get(1, {}), strings)
            if words[0] == "info":
                info = parse_info(line, position)
                if "string" in info:
                    strings.append(info["string"])
                elif "score" in info:
                    last[info.get("multipv", 1)] = info

    async def _give_up(self) -> None:
        """After a time-out: ``stop``, and a second to drain the ``bestmove``; an engine that
        does not give it is killed."""
        self._interrupt()
        try:
            await self._drain()
            while self._searching:
                await self._readline(1.0)
        except EngineError:
            await self._kill()

    async def play(
        self,
        position: Position,
        limit: Limit,
        *,
        timeout: Optional[float] = None,
    ) -> PlayResult:
        """The engine's move in ``position`` (a ``konakis.Game``, a position string, or None
        for the start) under ``limit``. ``timeout`` (seconds; default: the limit's time plus 10
        s, none for a depth or node limit) bounds the wait for ``bestmove``."""
        self._stop_analysis()
        async with self._lock:
            await self._settle()
            return await self._search(position, limit, timeout, None)

    @overload
    async def analyse(self, position: Position, limit: Limit, *, multipv: None = None,
                      timeout: Optional[float] = None) -> Dict[str, Any]: ...

    @overload
    async def analyse(self, position: Position, limit: Limit, *, multipv: int,
                      timeout: Optional[float] = None) -> List[Dict[str, Any]]: ...

    async def analyse(
        self,
        position: Position,
        limit: Limit,
        *,
        multipv: Optional[int] = None,
        timeout: Optional[float] = None,
    ) -> Union[Dict[str, Any], List[Dict[str, Any]]]:
        """The last info of the search (a dictionary, see :func:`parse_info`), or with
        ``multipv`` a list of the lines' infos, best first."""
        return await self._analyse(position, limit, multipv, timeout)

    async def _analyse(
        self,
        position: Position,
        limit: Limit,
        multipv: Optional[int],
        timeout: Optional[float],
    ) -> Union[Dict[str, Any], List[Dict[str, Any]]]:
        self._stop_analysis()
        async with self._lock:
            await self._settle()
            if multipv is not None:
                self._multipv_changed = True
                await self._configure({"MultiPV": multipv})
            lines: Dict[int, Dict[str, Any]] = {}
            result = await self._search(position, limit, timeout, lines)
            await self._settle()
            if multipv is None:
                return result.info
            return [lines[k] for k in sorted(lines)]

    async def analysis(
        self,
        position: Position,
        limit: Optional[Limit] = None,
        *,
        multipv: Optional[int] = None,
    ) -> "AsyncAnalysis":
        """Starts a search of ``position`` (without a limit: until :meth:`stop`) and returns
        at once an :class:`AsyncAnalysis`, which yields the search's infos as they arrive::

            async with await engine.analysis(game) as analysis:
                async for info in analysis:
                    if info.get("depth", 0) >= 12:
                        break
            # leaving the block stopped the search and read its bestmove

        Any other command stops it too (after which it is read to its end)."""
        self._stop_analysis()
        await self._lock.acquire()
        try:
            await self._settle()
            if multipv is not None:
                self._multipv_changed = True
                await self._configure({"MultiPV": multipv})
            await self._go(position, limit if limit is not None else Limit())
        except BaseException:
            self._interrupt()
            self._lock.release()
            raise
        analysis = AsyncAnalysis(self)
        self._analysis = analysis
        task = asyncio.get_running_loop().create_task(self._feed(analysis, position))
        # Its failure reaches the iteration and wait(); nobody need await the task itself.
        task.add_done_callback(lambda t: t.cancelled() or t.exception())
        analysis._task = task
        return analysis

    async def _feed(self, analysis: "AsyncAnalysis", position: Position) -> PlayResult:
        """Reads a running analysis' lines into it until its ``bestmove``; holds the lock."""
        strings: List[str] = []
        try:
            while True:
                line = await self._readline(None)
                words = line.split()
                if not words:
                    continue
                if words[0] == "bestmove":
                    result = _play_result(words, analysis.info, strings)
                    analysis._put(None)
                    return result
                if words[0] == "info":
                    info = parse_info(line, position)
                    if "string" in info:
                        strings.append(info["string"])
                    analysis._take(info)
        except BaseException as e:
            self._interrupt()
            analysis._put(e)
            raise
        finally:
            self._lock.release()

    async def stop(self) -> None:
        """Ends the running search (of :meth:`play`, :meth:`analyse` or :meth:`analysis`)
        early: it answers with the best move found so far. Nothing when no search runs."""
        self._interrupt()
        if self._stop_sent:
            await self._drain()

    async def ping(self) -> None:
        """``isready``: waits until the engine answers ``readyok``."""
        self._stop_analysis()
        async with self._lock:
            await self._settle()
            await self._ping()

    async def quit(self) -> None:
        """Sends ``quit`` and waits for the process to end (killing it after a second)."""
        if self._process.returncode is None:
            try:
                self._send("quit")
                await self._drain()
            except EngineError:
                pass
            try:
                await asyncio.wait_for(self._process.wait(), 1.0)
            except asyncio.TimeoutError:
                await self._kill()

    async def _kill(self) -> None:
        if self._process.returncode is None:
            try:
                self._process.kill()
            except ProcessLookupError:
                pass
            await self._process.wait()
        self._searching = False
        self._pending_ready = 0

    @property
    def returncode(self) -> Optional[int]:
        """The exit code once the process has ended, else None."""
        return self._process.returncode

    async def __aenter__(self) -> "AsyncEngine":
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.quit()


class _AnalysisLines:
    """What :class:`AsyncAnalysis` and :class:`konakis.native.NativeAnalysis` share: ``info``
    and ``multipv``, the latest info of every line, and the reading of their queue, whose items
    are an info, an exception (raised) or None (the end)."""

    def __init__(self) -> None:
        self._ended = False
        self.info: Dict[str, Any] = {}
        self.multipv: List[Dict[str, Any]] = [self.info]

    def _merge(self, info: Dict[str, Any]) -> None:
        """Merges ``info`` into the latest info of its line."""
        k = int(info.get("multipv", 1))
        while len(self.multipv) < k:
            self.multipv.append({})
        self.multipv[k - 1].update(info)

    def _item(self, item: Union[Dict[str, Any], BaseException, None],
              end: "type[Exception]") -> Dict[str, Any]:
        """A queue's item as the iteration gives it: the info, or ``end`` raised at the end of
        the search, or the search's exception; after either, the iteration has ended."""
        if item is None:
            self._ended = True
            raise end
        if isinstance(item, BaseException):
            self._ended = True
            raise item
        return item


class AsyncAnalysis(_AnalysisLines):
    """A running search, from :meth:`AsyncEngine.analysis`: ``async for info in analysis``
    yields every info (see :func:`parse_info`) as it arrives, until the search ends;
    :meth:`stop` ends it early, :meth:`wait` returns its :class:`PlayResult`. ``info`` is the
    latest info of the first line (merged), ``multipv`` the latest of every line. As a context
    manager (``with`` or ``async with``) it stops the search on leaving; ``async with`` also
    waits for its end."""

    def __init__(self, engine: AsyncEngine) -> None:
        super().__init__()
        self._engine = engine
        self._queue: "asyncio.Queue[Union[Dict[str, Any], BaseException, None]]" = (
            asyncio.Queue()
        )
        self._task: "Optional[asyncio.Task[PlayResult]]" = None

    def _take(self, info: Dict[str, Any]) -> None:
        self._merge(info)
        self._queue.put_nowait(info)

    def _put(self, item: Union[BaseException, None]) -> None:
        self._queue.put_nowait(item)

    def done(self) -> bool:
        """Whether the search has ended (its bestmove has been read)."""
        return self._task is not None and self._task.done()

    def stop(self) -> None:
        """Ends the search early (nothing if it has ended); the iteration then runs out."""
        if not self.done() and self._engine._analysis is self:
            self._engine._interrupt()

    async def wait(self) -> PlayResult:
        """Waits for the search to end; its move, as :meth:`AsyncEngine.play` gives it."""
        assert self._task is not None
        return await asyncio.shield(self._task)

    async def get(self) -> Dict[str, Any]:
        """The next info; StopAsyncIteration once the search has ended and all were read."""
        if self._ended:
            raise StopAsyncIteration
        return self._item(await self._queue.get(), StopAsyncIteration)

    def __aiter__(self) -> "AsyncAnalysis":
        return self

    async def __anext__(self) -> Dict[str, Any]:
        return await self.get()

    def __enter__(self) -> "AsyncAnalysis":
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    async def __aenter__(self) -> "AsyncAnalysis":
        return self

    async def __aexit__(self, *exc: object) -> None:
        self.stop()
        try:
            await self.wait()
        except EngineError:
            pass


class Engine:
    """The synchronous face of :class:`AsyncEngine`: the same methods, each waiting for its
    answer; the engine's event loop runs on a thread of its own. Use it as a context manager,
    or call :meth:`quit`. Ctrl-C (KeyboardInterrupt) during a search stops that search; the
    next command does not wait for it and never gets its move. :meth:`stop` works from any
    thread."""

    _async_class = AsyncEngine

    def __init__(self, engine: AsyncEngine, loop: asyncio.AbstractEventLoop,
                 thread: threading.Thread) -> None:
        self._engine = engine
        self._loop = loop
        self._thread = thread

    @classmethod
    def popen(cls, command: Union[str, Sequence[str]], **kwargs: Any) -> "Engine":
        """Starts an engine; the keyword arguments are those of :meth:`AsyncEngine.popen`."""
        loop = asyncio.new_event_loop()
        thread = threading.Thread(target=loop.run_forever, name="konakis-engine", daemon=True)
        thread.start()
        future = asyncio.run_coroutine_threadsafe(cls._async_class.popen(command, **kwargs), loop)
        try:
            engine = future.result()
        except BaseException:
            future.cancel()
            loop.call_soon_threadsafe(loop.stop)
            thread.join()
            loop.close()
            raise
        return cls(engine, loop, thread)

    def _run(self, coro: Coroutine[Any, Any, T]) -> T:
        if self._loop.is_closed():
            coro.close()
            raise EngineTerminatedError("the engine has been closed")
        future = asyncio.run_coroutine_threadsafe(coro, self._loop)
        try:
            return future.result()
        except concurrent.futures.CancelledError as e:
            raise EngineTerminatedError("the engine's loop was stopped") from e
        except BaseException:
            # KeyboardInterrupt (or any exception raised in this thread) while waiting: cancel
            # the command in the loop, which stops its search.
            future.cancel()
            raise

    @property
    def id(self) -> Dict[str, str]:
        """The engine's ``id`` lines."""
        return self._engine.id

    @property
    def options(self) -> Dict[str, Dict[str, Any]]:
        """The engine's option table."""
        return self._engine.options

    @property
    def returncode(self) -> Optional[int]:
        """The exit code once the process has ended, else None."""
        return self._engine.returncode

    def configure(self, options: Mapping[str, Any]) -> None:
        """See :meth:`AsyncEngine.configure`."""
        self._run(self._engine.configure(options))

    def play(self, position: Position, limit: Limit, *,
             timeout: Optional[float] = None) -> PlayResult:
        """See :meth:`AsyncEngine.play`."""
        return self._run(self._engine.play(position, limit, timeout=timeout))

    @overload
    def analyse(self, position: Position, limit: Limit, *, multipv: None = None,
                timeout: Optional[float] = None) -> Dict[str, Any]: ...

    @overload
    def analyse(self, position: Position, limit: Limit, *, multipv: int,
                timeout: Optional[float] = None) -> List[Dict[str, Any]]: ...

    def analyse(self, position: Position, limit: Limit, *, multipv: Optional[int] = None,
                timeout: Optional[float] = None) -> Union[Dict[str, Any], List[Dict[str, Any]]]:
        """See :meth:`AsyncEngine.analyse`."""
        return self._run(self._engine._analyse(position, limit, multipv, timeout))

    def analysis(self, position: Position, limit: Optional[Limit] = None, *,
                 multipv: Optional[int] = None) -> "Analysis":
        """Starts a search and returns an :class:`Analysis` at once; see
        :meth:`AsyncEngine.analysis`::

            with engine.analysis(game) as analysis:
                for info in analysis:
                    if info.get("depth", 0) >= 12:
                        break
        """
        inner = self._run(self._engine.analysis(position, limit, multipv=multipv))
        return Analysis(self, inner)

    def stop(self) -> None:
        """Ends the running search early (see :meth:`AsyncEngine.stop`); from any thread."""
        if self._loop.is_closed():
            return
        asyncio.run_coroutine_threadsafe(self._engine.stop(), self._loop).result()

    def ping(self) -> None:
        """See :meth:`AsyncEngine.ping`."""
        self._run(self._engine.ping())

    def quit(self) -> None:
        """Ends the engine and the thread of its loop."""
        if self._loop.is_closed():
            return
        try:
            self._run(self._engine.quit())
        finally:
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join()
            self._loop.close()

    close = quit

    def __enter__(self) -> "Engine":
        return self

    def __exit__(self, *exc: object) -> None:
        self.quit()


class Analysis:
    """The synchronous face of :class:`AsyncAnalysis`, from :meth:`Engine.analysis`: iterate
    over it for the infos as they arrive; :meth:`stop`, :meth:`wait`; as a context manager it
    stops the search on leaving and waits for its end, after which the engine takes the next
    command."""

    def __init__(self, engine: Engine, inner: AsyncAnalysis) -> None:
        self._engine = engine
        self._inner = inner

    @property
    def info(self) -> Dict[str, Any]:
        """The latest info of the first line."""
        return self._inner.info

    @property
    def multipv(self) -> List[Dict[str, Any]]:
        """The latest info of every line."""
        return self._inner.multipv

    def __iter__(self) -> "Analysis":
        return self

    def __next__(self) -> Dict[str, Any]:
        try:
            return self._engine._run(self._inner.get())
        except StopAsyncIteration:
            raise StopIteration from None
        except KeyboardInterrupt:
            self.stop()
            raise

    def stop(self) -> None:
        """Ends the search early; from any thread."""
        if not self._engine._loop.is_closed():
            self._engine._loop.call_soon_threadsafe(self._inner.stop)

    def wait(self) -> PlayResult:
        """Waits for the search to end and returns its move."""
        return self._engine._run(self._inner.wait())

    def __enter__(self) -> "Analysis":
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
        try:
            self.wait()
        except EngineError:
            pass
