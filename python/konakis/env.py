"""A Gymnasium-style two-player Tablut environment.

:class:`TablutEnv` follows Gymnasium's ``Env`` API (``reset`` -> ``(observation, info)``,
``step`` -> ``(observation, reward, terminated, truncated, info)``, ``action_space``,
``observation_space``) without needing the gymnasium package: when it is installed, the spaces
are Gymnasium's own; otherwise small stand-ins with the same ``n``/``shape``/``sample``/
``contains``.

**Actions.** An action is ``from_index * 81 + to_index``, where a square's index is
``rank * 9 + file`` counted from 0 (``a1`` = 0, ``i1`` = 8, ``a2`` = 9, ``e5`` = 40, ``i9`` = 80):
6,561 actions, of which the legal ones are flagged in ``info["action_mask"]`` (an int8 array of
6,561) after every ``reset`` and ``step``. :func:`action_of` and :func:`move_of` convert.

**Observations.** A float32 array of shape ``(6, 9, 9)``, indexed ``[plane, rank, file]`` with
rank 0 the first rank: the attackers, the defenders, the king, the throne, the camps (Ashton's;
empty under other rules), and a plane of ones when the attackers are to move (zeros for the
defenders).

**Rewards.** Both sides play through the same ``step``. The reward belongs to the side that just
moved: +1 if its move won the game, -1 if the game ended in its loss (which a move of its own
cannot do under these rules, but an opponent's move can: see ``opponent``), 0 otherwise,
draws included. ``terminated`` is true when the game has ended (a win, repetition, the move
limit); ``truncated`` when ``max_plies`` was reached first.

**Opponent.** With ``opponent`` (a function from a ``konakis.Game`` to a move in text, e.g. a
``konakis.NativeEngine`` search) the environment is one-player: after each of the agent's
moves, the opponent answers within the same ``step``, and the reward is the agent's (-1 when
the opponent's move wins).
"""

from __future__ import annotations

from typing import Any, Callable, Dict, Optional, Tuple

import numpy as np

from ._konakis import Game, Rules

__all__ = ["TablutEnv", "action_of", "move_of", "ACTIONS", "square_index", "square_name"]

ACTIONS = 81 * 81
_FILES = "abcdefghi"


def square_index(name: str) -> int:
    """``"e5"`` -> 40: ``rank * 9 + file``, from 0."""
    name = name.strip().lower()
    return (int(name[1:]) - 1) * 9 + _FILES.index(name[0])


def square_name(index: int) -> str:
    """40 -> ``"e5"``."""
    return f"{_FILES[index % 9]}{index // 9 + 1}"


def action_of(move: str) -> int:
    """The action of a move in text (``"d1d3"`` or ``"d1-d3"``)."""
    text = move.replace("-", "").strip()
    return square_index(text[:2]) * 81 + square_index(text[2:4])


def move_of(action: int) -> str:
    """The move in text of an action."""
    return square_name(action // 81) + square_name(action % 81)


class _Discrete:
    """A stand-in for ``gymnasium.spaces.Discrete`` when gymnasium is not installed."""

    def __init__(self, n: int, seed: Optional[int] = None) -> None:
        self.n = n
        self.shape: Tuple[int, ...] = ()
        self.dtype = np.dtype(np.int64)
        self.np_random = np.random.default_rng(seed)

    def seed(self, seed: Optional[int] = None) -> None:
        self.np_random = np.random.default_rng(seed)

    def sample(self, mask: Optional[np.ndarray] = None) -> int:
        if mask is None:
            return int(self.np_random.integers(self.n))
        allowed = np.flatnonzero(mask)
        if allowed.size == 0:
            return 0
        return int(self.np_random.choice(allowed))

    def contains(self, x: Any) -> bool:
        try:
            return 0 <= int(x) < self.n
        except (TypeError, ValueError):
            return False


class _Box:
    """A stand-in for ``gymnasium.spaces.Box`` when gymnasium is not installed."""

    def __init__(self, low: float, high: float, shape: Tuple[int, ...], dtype: Any) -> None:
        self.low, self.high, self.shape, self.dtype = low, high, shape, np.dtype(dtype)

    def contains(self, x: Any) -> bool:
        a = np.asarray(x)
        return a.shape == self.shape and bool(((a >= self.low) & (a <= self.high)).all())


def _spaces() -> Tuple[Any, Any]:
    try:
        from gymnasium import spaces  # type: ignore[import-not-found]

        return (
            spaces.Discrete(ACTIONS),
            spaces.Box(0.0, 1.0, shape=(6, 9, 9), dtype=np.float32),
        )
    except ImportError:
        return _Discrete(ACTIONS), _Box(0.0, 1.0, (6, 9, 9), np.float32)


_THRONE = np.zeros((9, 9), dtype=np.float32)
_THRONE[4, 4] = 1.0


class TablutEnv:
    """Tablut as an environment. ``rules``: a ``konakis.Rules``, a preset id (``"ashton"``), or
    None for the reference rules; ``rule_options``: options changed on top of it
    (``{"MoveLimit": 300}``); ``opponent``: see the module documentation; ``max_plies``:
    truncate the episode after this many plies of the episode."""

    metadata: Dict[str, Any] = {"render_modes": ["ansi"]}

    def __init__(
        self,
        rules: Any = None,
        *,
        rule_options: Optional[Dict[str, Any]] = None,
        opponent: Optional[Callable[[Game], str]] = None,
        max_plies: Optional[int] = None,
        render_mode: Optional[str] = None,
        position: Optional[str] = None,
    ) -> None:
        if rules is None or isinstance(rules, str):
            rules = Rules(rules)
        if rule_options:
            rules = rules.with_options(**rule_options)
        self.rules: Rules = rules
        self.opponent = opponent
        self.max_plies = max_plies
        self.render_mode = render_mode
        self.start_position = position
        self.action_space, self.observation_space = _spaces()
        self.game = Game(self.rules, self.start_position)
        self._camps = self._camps_plane()
        self._episode_plies = 0

    def _camps_plane(self) -> np.ndarray:
        plane = np.zeros(81, dtype=np.float32)
        for square in self.rules.camps():
            plane[square_index(square)] = 1.0
        return plane.reshape(9, 9)

    def observation(self) -> np.ndarray:
        """The observation of the current position (see the module documentation)."""
        cells = np.frombuffer(self.game.board_bytes(), dtype=np.uint8).reshape(9, 9)
        obs = np.zeros((6, 9, 9), dtype=np.float32)
        obs[0] = cells == 1
        obs[1] = cells == 2
        obs[2] = cells == 3
        obs[3] = _THRONE
        obs[4] = self._camps
        if self.game.side_to_move == "attackers":
            obs[5] = 1.0
        return obs

    def action_mask(self) -> np.ndarray:
        """An int8 array of 6,561 (Gymnasium's mask type): 1 for each legal action."""
        mask = np.zeros(ACTIONS, dtype=np.int8)
        legal = self.game.legal_actions()
        if legal:
            mask[np.asarray(legal, dtype=np.int64)] = 1
        return mask

    def _info(self) -> Dict[str, Any]:
        status = self.game.status
        return {
            "action_mask": self.action_mask(),
            "side_to_move": self.game.side_to_move,
            "status": status,
            "position": self.game.position,
        }

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None
    ) -> Tuple[np.ndarray, Dict[str, Any]]:
        """A new game; ``options={"position": ...}`` starts from a position string."""
        if seed is not None and hasattr(self.action_space, "seed"):
            self.action_space.seed(seed)
        position = (options or {}).get("position", self.start_position)
        self.game = Game(self.rules, position)
        self._episode_plies = 0
        return self.observation(), self._info()

    def step(self, action: int) -> Tuple[np.ndarray, float, bool, bool, Dict[str, Any]]:
        """Plays ``action`` for the side to move (and the opponent's answer, if there is
        one). An illegal action raises ``konakis.IllegalMoveError`` and changes nothing."""
        mover = self.game.side_to_move
        self.game.play_action(int(action))
        self._episode_plies += 1
        if self.opponent is not None and not self.game.is_over:
            self.game.play(self.opponent(self.game))
            self._episode_plies += 1
        status = self.game.status
        terminated = status.over
        reward = float(status.score_for(mover)) if terminated else 0.0
        truncated = (
            not terminated
            and self.max_plies is not None
            and self._episode_plies >= self.max_plies
        )
        return self.observation(), reward, terminated, bool(truncated), self._info()

    def render(self) -> str:
        """The board as text."""
        return str(self.game)

    def close(self) -> None:
        """Nothing to release."""
