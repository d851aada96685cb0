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
from typing import Any, Coroutine, Dict, List, Mapping, Optional, Sequence, TypeVar, Union

__all__ = [
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
    With none, the search runs until :meth:`AsyncEngine.stop`."""

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


def parse_info(line: str) -> Dict[str, Any]:
    """One ``info`` line as a dictionary: ``depth``, ``seldepth``, ``multipv``, ``score`` as
    ``("cp", n)`` or ``("mate", n)``, ``wdl`` as ``(win, draw, loss)`` per mille, ``bound``
    (``"exact"``, ``"lower"``, ``"upper"``), ``nodes``, ``nps``, ``time`` in seconds,
    ``hashfull``, ``pv`` (a list of moves), ``currmove``, ``string``."""
    words = line.split()
    if words and words[0] == "info":
        words = words[1:]
    info: Dict[str, Any] = {}
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
                info["score"] = (words[i + 1], int(words[i + 2]))
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
    return info


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


class AsyncEngine:
    """An engine process driven through the Konakis protocol with ``asyncio``.

    Start one with ``await AsyncEngine.popen(command)``; it has answered ``uci`` and
    ``isready`` by then. ``id`` holds its ``id`` lines (``name``, ``author``), ``options`` its
    option table (name to a dictionary of ``type``, ``default``, ``min``, ``max``, ``var``).
    """

    def __init__(self, process: asyncio.subprocess.Process, timeout: Optional[float]) -> None:
        self._process = process
        self._timeout = timeout
        self._lock = asyncio.Lock()
        self.id: Dict[str, str] = {}
        self.options: Dict[str, Dict[str, Any]] = {}
        self._sent_rules: Optional[Dict[str, str]] = None

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
            code = await self._returncode()
            raise EngineTerminatedError(
                "the engine closed its output"
                + (f" (exit code {code})" if code is not None else "")
            )
        return raw.decode("utf-8", "replace").rstrip("\r\n")

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
        await self._drain()
        errors: List[str] = []
        while True:
            line = await self._readline(self._timeout)
            if line.strip() == "readyok":
                return errors
            if line.startswith("info string error:"):
                errors.append(line[len("info string error:") :].strip())

    # -- commands ------------------------------------------------------------------------

    async def configure(self, options: Mapping[str, Any]) -> None:
        """Sets options by name (``{"Skill Level": 5, "UCI_ShowWDL": True}``); raises
        EngineError with the engine's message if it refuses one."""
        async with self._lock:
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
                # Ruleset first: Ashton fixes other options, which then may only keep its values.
                ordered = sorted(wanted.items(), key=lambda kv: kv[0] != "Ruleset")
                await self._configure(dict(ordered))
                self._sent_rules = wanted
        for line in _position_command(position):
            self._send(line)
        errors = await self._ping()
        if errors:
            raise EngineError("; ".join(errors))

    async def _search(
        self,
        position: Position,
        limit: Limit,
        timeout: Optional[float],
        infos: Optional[Dict[int, Dict[str, Any]]],
    ) -> PlayResult:
        await self._set_position(position)
        self._send("go " + " ".join(limit.go_words()))
        await self._drain()
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
                best = words[1] if len(words) > 1 and words[1] != "(none)" else None
                ponder = words[3] if len(words) > 3 and words[2] == "ponder" else None
                info = dict(last.get(1, {}))
                if strings:
                    info["string"] = "\n".join(strings)
                return PlayResult(best, ponder, info)
            if words[0] == "info":
                info = parse_info(line)
                if "string" in info:
                    strings.append(info["string"])
                elif "score" in info:
                    last[info.get("multipv", 1)] = info

    async def _give_up(self) -> None:
        """After a time-out: ``stop``, and a second to drain the ``bestmove``; an engine that
        does not give it is killed."""
        try:
            self._send("stop")
            await self._drain()
            while True:
                line = await self._readline(1.0)
                if line.startswith("bestmove"):
                    return
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
        async with self._lock:
            return await self._search(position, limit, timeout, None)

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
        async with self._lock:
            if multipv is not None:
                await self._configure({"MultiPV": multipv})
            lines: Dict[int, Dict[str, Any]] = {}
            try:
                result = await self._search(position, limit, timeout, lines)
            finally:
                if multipv is not None and self._process.returncode is None:
                    await self._configure({"MultiPV": 1})
            if multipv is None:
                return result.info
            return [lines[k] for k in sorted(lines)]

    async def ping(self) -> None:
        """``isready``: waits until the engine answers ``readyok``."""
        async with self._lock:
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

    @property
    def returncode(self) -> Optional[int]:
        """The exit code once the process has ended, else None."""
        return self._process.returncode

    async def __aenter__(self) -> "AsyncEngine":
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.quit()


class Engine:
    """The synchronous face of :class:`AsyncEngine`: the same methods, each waiting for its
    answer; the engine's event loop runs on a thread of its own. Use it as a context manager,
    or call :meth:`quit`."""

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

    def analyse(self, position: Position, limit: Limit, *, multipv: Optional[int] = None,
                timeout: Optional[float] = None) -> Union[Dict[str, Any], List[Dict[str, Any]]]:
        """See :meth:`AsyncEngine.analyse`."""
        return self._run(self._engine.analyse(position, limit, multipv=multipv,
                                              timeout=timeout))

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
