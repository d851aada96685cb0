"""``konakis.NativeEngine``: the Konakis engine in-process, with the face of the protocol
driver (:class:`konakis.engine.Engine`): ``play(game, Limit(...))`` returns a
:class:`~konakis.engine.PlayResult`, ``analyse`` the same info dictionaries (scores as
:class:`~konakis.score.PovScore`), ``configure``, ``stop`` and ``quit``, so either can stand in
for the other. ``search(game, depth=...)``, the keyword form, stays as the lower level."""

from __future__ import annotations

import queue
import threading
from typing import Any, Dict, List, Mapping, Optional, Union, overload

from . import _konakis
from .engine import (
    EngineTimeoutError,
    Limit,
    PlayResult,
    Position,
    _AnalysisLines,
    _pov_score,
)

__all__ = ["NativeAnalysis", "NativeEngine"]


def _game_of(position: Position) -> _konakis.Game:
    """The game to search: a Game as it is, a position string under the reference rules, or
    None for the start."""
    if position is None:
        return _konakis.Game()
    if isinstance(position, str):
        return _konakis.Game(position=position)
    game: _konakis.Game = position
    return game


def _limit_words(limit: Limit) -> Dict[str, Any]:
    words: Dict[str, Any] = {
        "depth": limit.depth,
        "nodes": limit.nodes,
        "time": limit.time,
        "mate": limit.mate,
        "attackers_clock": limit.attackers_clock,
        "defenders_clock": limit.defenders_clock,
        "attackers_inc": limit.attackers_inc,
        "defenders_inc": limit.defenders_inc,
    }
    words = {k: v for k, v in words.items() if v is not None}
    if not words:
        words["infinite"] = True
    return words


def _info(line: Dict[str, Any], game: _konakis.Game) -> Dict[str, Any]:
    """A line of ``search`` as the protocol driver's info: the score a PovScore."""
    info = dict(line)
    info["score"] = _pov_score(tuple(line["score"]), tuple(line["wdl"]), game)
    return info


class NativeEngine(_konakis.NativeEngine):
    """The Konakis engine in-process; options by name as the protocol's ``setoption``
    (``NativeEngine(Threads=2, **{"Skill Level": 5})``). Besides ``search``, the protocol
    driver's methods: :meth:`play`, :meth:`analyse`, :meth:`configure`, ``stop``,
    :meth:`quit`, and ``with``. A search releases the GIL; ``stop()`` from another thread or
    Ctrl-C ends it (Ctrl-C with KeyboardInterrupt)."""

    id = {"name": "Konakis " + _konakis.__version__, "author": "the Konakis authors"}

    def configure(self, options: Mapping[str, Any]) -> None:
        """Sets options by name, as :meth:`konakis.engine.Engine.configure`."""
        for name, value in options.items():
            self.set_option(name, value)

    def _run(self, game: _konakis.Game, limit: Limit, multipv: Optional[int],
             timeout: Optional[float]) -> Dict[str, Any]:
        words = _limit_words(limit)
        if multipv is not None:
            words["multipv"] = multipv
        timer: Optional[threading.Timer] = None
        fired = threading.Event()
        if timeout is not None:
            def late() -> None:
                fired.set()
                self.stop()

            timer = threading.Timer(timeout, late)
            timer.daemon = True
            timer.start()
        try:
            result = self.search(game, **words)
        finally:
            if timer is not None:
                timer.cancel()
        if fired.is_set():
            raise EngineTimeoutError(f"no move within {timeout} s (the search was stopped)")
        return result

    def play(self, position: Position, limit: Limit, *,
             timeout: Optional[float] = None) -> PlayResult:
        """The engine's move in ``position`` (a Game, a position string under the reference
        rules, or None for the start) under ``limit`` (none: until ``stop()``)."""
        game = _game_of(position)
        result = self._run(game, limit, None, timeout)
        lines = result["lines"]
        info = _info(lines[0], game) if lines else {}
        if result["move"] is None:
            info["string"] = "game over: " + result["status"]
        return PlayResult(result["move"], result["ponder"], info)

    @overload
    def analyse(self, position: Position, limit: Limit, *, multipv: None = None,
                timeout: Optional[float] = None) -> Dict[str, Any]: ...

    @overload
    def analyse(self, position: Position, limit: Limit, *, multipv: int,
                timeout: Optional[float] = None) -> List[Dict[str, Any]]: ...

    def analyse(self, position: Position, limit: Limit, *, multipv: Optional[int] = None,
                timeout: Optional[float] = None) -> Union[Dict[str, Any], List[Dict[str, Any]]]:
        """The last info of the search, or with ``multipv`` a list of the lines' infos, best
        first, as :meth:`konakis.engine.Engine.analyse` gives them."""
        game = _game_of(position)
        result = self._run(game, limit, multipv, timeout)
        infos = [_info(line, game) for line in result["lines"]]
        if multipv is None:
            return infos[0] if infos else {}
        return infos

    def analysis(self, position: Position, limit: Optional[Limit] = None, *,
                 multipv: Optional[int] = None) -> "NativeAnalysis":
        """Starts a search on a thread of its own (without a limit: until stopped) and returns
        a :class:`NativeAnalysis` at once, which yields the infos as the search finds them,
        as :meth:`konakis.engine.Engine.analysis` does::

            with engine.analysis(game) as analysis:
                for info in analysis:
                    if info["depth"] >= 12:
                        break
        """
        return NativeAnalysis(self, _game_of(position), limit or Limit(), multipv)

    def quit(self) -> None:
        """Stops a running search; the engine needs no other ending (for the same face as the
        protocol driver)."""
        self.stop()

    close = quit

    def __enter__(self) -> "NativeEngine":
        return self

    def __exit__(self, *exc: object) -> None:
        self.quit()


class NativeAnalysis(_AnalysisLines):
    """A running search of :meth:`NativeEngine.analysis`: iterate over it for the infos as they
    come; :meth:`stop` ends it early, :meth:`wait` returns its :class:`PlayResult`; ``info`` is
    the latest info of the first line, ``multipv`` of every line. As a context manager it
    stops the search on leaving and waits for its end."""

    def __init__(self, engine: NativeEngine, game: _konakis.Game, limit: Limit,
                 multipv: Optional[int]) -> None:
        super().__init__()
        self._engine = engine
        self._game = game
        self._queue: "queue.Queue[Union[Dict[str, Any], BaseException, None]]" = queue.Queue()
        self._result: Optional[PlayResult] = None
        self._error: Optional[BaseException] = None
        words = _limit_words(limit)
        if multipv is not None:
            words["multipv"] = multipv
        self._thread = threading.Thread(target=self._search, args=(words,),
                                        name="konakis-analysis", daemon=True)
        self._thread.start()

    def _take(self, line: Dict[str, Any]) -> None:
        info = _info(line, self._game)
        self._merge(info)
        self._queue.put(info)

    def _search(self, words: Dict[str, Any]) -> None:
        try:
            result = self._engine.search(self._game, on_info=self._take, **words)
            info = dict(self.info)
            if result["move"] is None:
                info["string"] = "game over: " + result["status"]
            self._result = PlayResult(result["move"], result["ponder"], info)
            self._queue.put(None)
        except BaseException as e:
            self._error = e
            self._queue.put(e)

    def __iter__(self) -> "NativeAnalysis":
        return self

    def __next__(self) -> Dict[str, Any]:
        if self._ended:
            raise StopIteration
        try:
            item = self._queue.get()
        except KeyboardInterrupt:
            self.stop()
            raise
        return self._item(item, StopIteration)

    def stop(self) -> None:
        """Ends the search early (nothing if it has ended); from any thread."""
        if self._thread.is_alive():
            self._engine.stop()

    def wait(self) -> PlayResult:
        """Waits for the search to end and returns its move."""
        self._thread.join()
        if self._error is not None:
            raise self._error
        assert self._result is not None
        return self._result

    def __enter__(self) -> "NativeAnalysis":
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
        self._thread.join()
