"""A Gymnasium environment for Tablut, one-player against an opponent or two-player.

:class:`TablutEnv` is a ``gymnasium.Env`` when the gymnasium package is installed (so
``gymnasium.utils.env_checker.check_env``, the wrappers and the vector environments take it)
and is registered as ``"konakis/Tablut-v0"``: ``gymnasium.make("konakis/Tablut-v0",
rules="ashton", opponent="random", agent_side="attackers")``. Without gymnasium it keeps the
same API (``reset`` -> ``(observation, info)``, ``step`` -> ``(observation, reward, terminated,
truncated, info)``, ``action_space``, ``observation_space``, ``np_random``, ``spec``,
``unwrapped``) with small stand-ins for the spaces (``n``/``shape``/``sample``/``contains``).

**Actions.** An action is ``from_index * 81 + to_index``, where a square's index is
``rank * 9 + file`` counted from 0 (``a1`` = 0, ``i1`` = 8, ``a2`` = 9, ``e5`` = 40, ``i9`` = 80):
6,561 actions, of which the legal ones are flagged in ``info["action_mask"]`` (an int8 array of
6,561) after every ``reset`` and ``step``. :func:`action_of` and :func:`move_of` convert (and
raise ``konakis.MoveSyntaxError`` for text that is not a move or a number that is not an
action).

**Illegal actions.** Every number of the action space is an action Gymnasium may sample, so by
default (``illegal_action="lose"``) an illegal one is not played: the episode ends
(``terminated``) with reward -1 and ``info["illegal_action"]`` true. With
``illegal_action="raise"`` it raises ``konakis.IllegalMoveError`` and changes nothing.

**Observations.** A float32 array of shape ``(6, 9, 9)``, indexed ``[plane, rank, file]`` with
rank 0 the first rank: the attackers, the defenders, the king, the throne, the camps (Ashton's;
empty under other rules), and a plane of ones when the attackers are to move (zeros for the
defenders).

**Rewards.** Without an opponent both sides play through the same ``step``, and the reward
belongs to the side that just moved: +1 if its move won the game, 0 otherwise, draws included.
``terminated`` is true when the game has ended (a win, repetition, the move limit);
``truncated`` when ``max_plies`` plies of the episode were played first.

**Opponent.** With ``opponent`` the environment is one-player: the agent plays ``agent_side``
(by default the side to move at the start), and the opponent answers each of the agent's moves
within the same ``step`` (and moves first in ``reset`` when the agent plays the second side).
The reward is the agent's: +1 when the agent wins, -1 when it loses. ``opponent`` is
``"random"`` (a uniformly random legal move, drawn from ``np_random``, so seeded by
``reset(seed=...)``) or a function from a ``konakis.Game`` (a copy of the game) to a move in
text or an action, e.g. ``lambda g: engine.search(g, nodes=500)["move"]``. If the opponent's
move is illegal, its error is raised and the agent's move is taken back.

``info`` holds ``action_mask``, ``side_to_move``, ``status`` (a ``konakis.Status``),
``position`` (the position string) and ``illegal_action``; everything in it pickles, so the
environment runs in ``gymnasium.vector.AsyncVectorEnv``.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional, Tuple, Union

import numpy as np

from ._konakis import (
    ArgumentError,
    Game,
    GameOverError,
    MoveSyntaxError,
    Rules,
    action_of,
    move_of,
)

try:
    import gymnasium
    from gymnasium import spaces as _gym_spaces
except ImportError:  # the environment works without gymnasium, with stand-ins below
    gymnasium = None  # type: ignore[assignment]
    _gym_spaces = None  # type: ignore[assignment]

__all__ = [
    "TablutEnv",
    "ENV_ID",
    "action_of",
    "move_of",
    "ACTIONS",
    "square_index",
    "square_name",
]

ACTIONS = 81 * 81
#: The id under which :class:`TablutEnv` is registered with gymnasium.
ENV_ID = "konakis/Tablut-v0"
_FILES = "abcdefghi"

Opponent = Union[str, Callable[[Game], Union[str, int]]]


def _argument_error(message: str, reason: str) -> ArgumentError:
    error = ArgumentError(message)
    error.reason = reason  # type: ignore[attr-defined]
    return error


def square_index(name: str) -> int:
    """``"e5"`` -> 40: ``rank * 9 + file``, from 0. Raises ``konakis.MoveSyntaxError``
    (``not-a-square``) for text that is not a square."""
    text = name.strip().lower()
    if len(text) == 2 and text[0] in _FILES and text[1] in "123456789":
        return (int(text[1]) - 1) * 9 + _FILES.index(text[0])
    error = MoveSyntaxError(f"'{name}' is not a square (a1 to i9)")
    error.reason = "not-a-square"  # type: ignore[attr-defined]
    raise error


def square_name(index: int) -> str:
    """40 -> ``"e5"``. Raises ``konakis.ArgumentError`` for a number that is not from 0 to 80."""
    if isinstance(index, bool) or not 0 <= int(index) < 81:
        raise _argument_error(f"{index!r} is not a square index (0 to 80)", "not-a-square")
    index = int(index)
    return f"{_FILES[index % 9]}{index // 9 + 1}"


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
    if _gym_spaces is not None:
        return (
            _gym_spaces.Discrete(ACTIONS),
            _gym_spaces.Box(0.0, 1.0, shape=(6, 9, 9), dtype=np.float32),
        )
    return _Discrete(ACTIONS), _Box(0.0, 1.0, (6, 9, 9), np.float32)


class _EnvBase:
    """What ``gymnasium.Env`` gives an environment, for when gymnasium is not installed:
    ``np_random`` (seeded by ``reset(seed=...)``), ``spec``, ``unwrapped``, ``close``."""

    metadata: Dict[str, Any] = {}
    render_mode: Optional[str] = None
    spec: Any = None
    _np_random: Optional[np.random.Generator] = None

    @property
    def np_random(self) -> np.random.Generator:
        if self._np_random is None:
            self._np_random = np.random.default_rng()
        return self._np_random

    @np_random.setter
    def np_random(self, value: np.random.Generator) -> None:
        self._np_random = value

    @property
    def unwrapped(self) -> "_EnvBase":
        return self

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None
    ) -> Any:
        if seed is not None:
            self._np_random = np.random.default_rng(seed)
        return None

    def close(self) -> None:
        pass

    def __enter__(self) -> "_EnvBase":
        return self

    def __exit__(self, *args: Any) -> None:
        self.close()


_Base: Any = gymnasium.Env if gymnasium is not None else _EnvBase

_THRONE = np.zeros((9, 9), dtype=np.float32)
_THRONE[4, 4] = 1.0
_SIDES = ("attackers", "defenders")


class TablutEnv(_Base):  # type: ignore[misc]
    """Tablut as an environment (see the module documentation). ``rules``: a
    ``konakis.Rules``, a preset id (``"ashton"``), or None for the reference rules;
    ``rule_options``: options changed on top of it (``{"MoveLimit": 300}``); ``opponent`` and
    ``agent_side``: the one-player game; ``illegal_action``: ``"lose"`` or ``"raise"``;
    ``max_plies``: truncate the episode after this many plies of the episode; ``render_mode``:
    None or ``"ansi"``; ``position``: the start position string."""

    metadata: Dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 4}

    def __init__(
        self,
        rules: Any = None,
        *,
        rule_options: Optional[Dict[str, Any]] = None,
        opponent: Optional[Opponent] = None,
        agent_side: Optional[str] = None,
        illegal_action: str = "lose",
        max_plies: Optional[int] = None,
        render_mode: Optional[str] = None,
        position: Optional[str] = None,
    ) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise _argument_error(
                f"render_mode {render_mode!r} is not supported: TablutEnv renders None or "
                f"'ansi' (the board as text)",
                "render-mode",
            )
        if isinstance(opponent, str) and opponent != "random":
            raise _argument_error(
                f"opponent {opponent!r} is not 'random' or a function from a Game to a move",
                "opponent",
            )
        if opponent is not None and not isinstance(opponent, str) and not callable(opponent):
            raise _argument_error(
                f"opponent {opponent!r} is not 'random' or a function from a Game to a move",
                "opponent",
            )
        if agent_side is not None:
            if agent_side not in _SIDES:
                raise _argument_error(
                    f"agent_side {agent_side!r} is not 'attackers' or 'defenders'", "not-a-side"
                )
            if opponent is None:
                raise _argument_error(
                    "agent_side needs an opponent to play the other side "
                    "(opponent='random' or a function)",
                    "no-opponent",
                )
        if illegal_action not in ("lose", "raise"):
            raise _argument_error(
                f"illegal_action {illegal_action!r} is not 'lose' or 'raise'", "illegal-action"
            )
        if max_plies is not None and (isinstance(max_plies, bool) or int(max_plies) < 1):
            raise _argument_error(f"max_plies {max_plies!r} is not a number from 1", "max-plies")
        if rules is None or isinstance(rules, str):
            rules = Rules(rules)
        if rule_options:
            rules = rules.with_options(**rule_options)
        self.rules: Rules = rules
        self.opponent = opponent
        self.agent_side = agent_side
        self.illegal_action = illegal_action
        self.max_plies = max_plies
        self.render_mode = render_mode
        self.start_position = position
        self.action_space, self.observation_space = _spaces()
        self.game = Game(self.rules, self.start_position)
        self._camps = self._camps_plane()
        self._episode_plies = 0
        self._ended = False
        self._agent = self.agent_side or self.game.side_to_move

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

    def _info(self, illegal: bool = False) -> Dict[str, Any]:
        return {
            "action_mask": self.action_mask(),
            "side_to_move": self.game.side_to_move,
            "status": self.game.status,
            "position": self.game.position,
            "illegal_action": illegal,
        }

    def _opponent_move(self) -> None:
        """The opponent's move in the current position."""
        if self.opponent == "random":
            legal: List[int] = self.game.legal_actions()
            self.game.play_action(legal[int(self.np_random.integers(len(legal)))])
            return
        assert callable(self.opponent)
        answer = self.opponent(self.game.copy())
        if isinstance(answer, str):
            self.game.play(answer)
        else:
            self.game.play_action(answer)

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None
    ) -> Tuple[np.ndarray, Dict[str, Any]]:
        """A new game; ``options={"position": ...}`` starts from a position string. With an
        opponent and the agent playing the second side, the opponent moves first."""
        super().reset(seed=seed)
        if seed is not None and hasattr(self.action_space, "seed"):
            self.action_space.seed(seed)
        position = (options or {}).get("position", self.start_position)
        self.game = Game(self.rules, position)
        self._episode_plies = 0
        self._ended = False
        self._agent = self.agent_side or self.game.side_to_move
        if self.opponent is not None and self.game.side_to_move != self._agent:
            if not self.game.is_over:
                self._opponent_move()
                self._episode_plies += 1
        return self.observation(), self._info()

    def step(self, action: int) -> Tuple[np.ndarray, float, bool, bool, Dict[str, Any]]:
        """Plays ``action`` for the side to move (and the opponent's answer, if there is
        one). A number that is not an action raises ``konakis.MoveSyntaxError``, a step after
        the episode ended ``konakis.GameOverError``; both change nothing."""
        action = int(action)
        if not 0 <= action < ACTIONS:
            move_of(action)  # the one range check of actions: raises MoveSyntaxError
        if self._ended:
            error = GameOverError("the episode has ended: call reset() to start a new one")
            error.reason = "episode-ended"  # type: ignore[attr-defined]
            error.status = self.game.status.text  # type: ignore[attr-defined]
            raise error
        mover = self._agent_or_mover()
        if self.illegal_action == "lose" and action not in self.game.legal_actions():
            self._ended = True
            return self.observation(), -1.0, True, False, self._info(illegal=True)
        self.game.play_action(action)
        if self.opponent is not None and not self.game.is_over:
            try:
                self._opponent_move()
            except BaseException:
                self.game.undo()
                raise
            self._episode_plies += 1
        self._episode_plies += 1
        status = self.game.status
        terminated = status.over
        reward = float(status.score_for(mover)) if terminated else 0.0
        truncated = (
            not terminated
            and self.max_plies is not None
            and self._episode_plies >= self.max_plies
        )
        self._ended = terminated
        return self.observation(), reward, terminated, bool(truncated), self._info()

    def _agent_or_mover(self) -> str:
        """The side whose reward ``step`` returns: the agent's with an opponent, else the side
        to move."""
        if self.opponent is not None:
            return self._agent
        return self.game.side_to_move

    def render(self) -> str:
        """The board as text (the ``"ansi"`` render mode)."""
        return str(self.game)

    def close(self) -> None:
        """Nothing to release."""


if gymnasium is not None and ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, entry_point="konakis.env:TablutEnv")
