"""Konakis from Python: Tablut rules and a strong, adjustable engine.

- :class:`Rules`, :class:`Game`, :class:`Status`: the rules in Rust (positions, legal moves,
  play with typed errors, undo, status, repetition and move-limit state, every rule option and
  the presets, OpenTafl records, perft, random playouts).
- :class:`NativeEngine`: the Konakis search in-process (depth, node or time limits, multi-PV,
  strength levels, win chances) with the protocol driver's face (``play(game, Limit(...))``),
  and :func:`analyse_game` for the review of a game.
- :mod:`konakis.score`: :class:`PovScore`, :class:`Score` and :class:`Wdl`, the scores of
  both engines' infos.
- :mod:`konakis.engine`: any engine that speaks the Konakis protocol, out of process, the
  python-chess way (``Engine.popen(["konakis"])``), sync or asyncio; :mod:`konakis.otep`
  the same for OpenTafl engines (OTEP).
- :mod:`konakis.env`: a Gymnasium environment (``gymnasium.make("konakis/Tablut-v0")`` once
  ``konakis`` is imported, when gymnasium is installed); :mod:`konakis.data`: the reader of
  ``konakis datagen`` files into NumPy arrays.

See python/README.md for examples.
"""

from __future__ import annotations

import importlib.util
import json
from typing import Any, Dict, Optional, Tuple

from ._konakis import (
    START_POSITION,
    ArgumentError,
    GameOverError,
    IllegalMoveError,
    KonakisError,
    MoveSyntaxError,
    PositionError,
    RecordError,
    RulesError,
    SearchError,
    Game,
    LegalMoves,
    Outcome,
    Rules,
    Status,
    __version__,
    action_of,
    move_of,
    random_playouts,
)
from .engine import (
    Analysis,
    AsyncAnalysis,
    AsyncEngine,
    Engine,
    EngineError,
    EngineTerminatedError,
    EngineTimeoutError,
    Limit,
    PlayResult,
)
from .native import NativeEngine
from .otep import AsyncOtepEngine, OtepEngine
from .score import PovScore, PovWdl, Score, Wdl

__all__ = [
    "START_POSITION",
    "ArgumentError",
    "GameOverError",
    "IllegalMoveError",
    "KonakisError",
    "MoveSyntaxError",
    "PositionError",
    "RecordError",
    "RulesError",
    "SearchError",
    "Game",
    "LegalMoves",
    "NativeEngine",
    "Outcome",
    "Rules",
    "Status",
    "__version__",
    "action_of",
    "move_of",
    "random_playouts",
    "analyse_game",
    "Engine",
    "AsyncEngine",
    "Limit",
    "PlayResult",
    "Analysis",
    "AsyncAnalysis",
    "PovScore",
    "PovWdl",
    "Score",
    "Wdl",
    "EngineError",
    "EngineTerminatedError",
    "EngineTimeoutError",
    "OtepEngine",
    "AsyncOtepEngine",
]


def analyse_game(
    game: Game,
    *,
    engine: Optional[NativeEngine] = None,
    depth: Optional[int] = None,
    nodes: Optional[int] = None,
    time: Optional[float] = None,
    thresholds: Optional[Tuple[float, float, float]] = None,
) -> Dict[str, Any]:
    """Reviews every move of ``game`` and returns the review as a dictionary.

    Each position is searched within the limits (``time`` in seconds); the result is
    ``konakis analyse --json``'s object for one game (docs/review.md): ``result["review"]
    ["moves"]`` has, per move, the move played, the engine's move, the win chances before and
    after, the verdict and the accuracy; ``result["review"]["attackers"]`` and ``["defenders"]``
    sum each side up.
    ``thresholds`` are the drops (inaccuracy, mistake, blunder) in points of expected score.
    The review is ``engine``'s at full strength, whatever its level; its transposition table
    and histories are empty afterwards, as after ``engine.clear()``.
    """
    if engine is None:
        engine = NativeEngine()
    text = engine.review_json(game, depth=depth, nodes=nodes, time=time, thresholds=thresholds)
    parsed: Dict[str, Any] = json.loads(text)
    result: Dict[str, Any] = parsed["games"][0]
    return result


# With gymnasium installed, importing the environment registers it ("konakis/Tablut-v0"), so
# that `gymnasium.make` finds it after `import konakis`. Without gymnasium nothing is imported:
# the package needs neither it nor NumPy.
if importlib.util.find_spec("gymnasium") is not None:
    from . import env as _env  # noqa: F401
