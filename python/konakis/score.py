"""Scores and win chances, the python-chess way, for both engines.

A search reports a :class:`PovScore`: a :class:`Score` from the point of view of the side to
move (``relative``) and that side (``turn``). ``info["score"].relative.score()`` is in
centi-soldiers, ``.mate()`` the moves to a forced win (negative: to a forced loss), and
``.wdl()`` the chances of a win, a draw and a loss per mille (:class:`Wdl`), from the engine
when it reports them (``UCI_ShowWDL``) and otherwise from Konakis' win-chance model of the
game's rules and plies (docs/winchances.md)::

    info = engine.analyse(game, Limit(depth=6))
    print(info["score"].relative.score(), info["score"].wdl().relative.expectation())
    print(info["score"].pov("attackers"))     # Cp(-35): the same score for the attackers
"""

from __future__ import annotations

from typing import NamedTuple, Optional

__all__ = ["PovScore", "PovWdl", "Score", "Wdl", "SIDES"]

#: The two sides, as ``Game.side_to_move`` names them.
SIDES = ("attackers", "defenders")


def _other(side: str) -> str:
    if side not in SIDES:
        raise ValueError(f"side {side!r} is neither 'attackers' nor 'defenders'")
    return SIDES[1] if side == SIDES[0] else SIDES[0]


class Wdl(NamedTuple):
    """Win, draw and loss chances per mille (they add up to 1000) for one side."""

    wins: int
    draws: int
    losses: int

    def total(self) -> int:
        return self.wins + self.draws + self.losses

    def expectation(self) -> float:
        """The expected score, 0 (a sure loss) to 1 (a sure win), a draw counting half."""
        return (self.wins + 0.5 * self.draws) / max(1, self.total())

    def __neg__(self) -> "Wdl":
        return Wdl(self.losses, self.draws, self.wins)


class Score:
    """A score from one side's point of view: centi-soldiers (``Score(cp=35)``) or a forced
    win in ``n`` moves (``Score(mate=3)``; ``-3``: a forced loss), with the win chances that
    go with it when they are known."""

    __slots__ = ("_cp", "_mate", "_wdl")

    def __init__(self, *, cp: Optional[int] = None, mate: Optional[int] = None,
                 wdl: Optional[Wdl] = None) -> None:
        if (cp is None) == (mate is None):
            raise ValueError("a score is either cp or mate")
        self._cp = cp
        self._mate = mate
        self._wdl = Wdl(*wdl) if wdl is not None else None

    def score(self, *, mate_score: Optional[int] = None) -> Optional[int]:
        """Centi-soldiers; for a mate None, or with ``mate_score`` that value less the moves
        to the win (negated for a loss)."""
        if self._cp is not None:
            return self._cp
        if mate_score is None:
            return None
        assert self._mate is not None
        return mate_score - self._mate if self._mate > 0 else -mate_score - self._mate

    def mate(self) -> Optional[int]:
        """Moves to a forced win (negative: to a forced loss), or None."""
        return self._mate

    def is_mate(self) -> bool:
        return self._mate is not None

    def wdl(self) -> Wdl:
        """The chances of a win, a draw and a loss per mille: the engine's, or Konakis'
        win-chance model's for the game searched. ValueError when neither is known (a search
        of a position string by an engine that sends no ``wdl``)."""
        if self._wdl is None:
            raise ValueError(
                "no win chances for this score: the engine sent none (UCI_ShowWDL) and the "
                "position searched was not a konakis.Game"
            )
        return self._wdl

    def __neg__(self) -> "Score":
        wdl = -self._wdl if self._wdl is not None else None
        if self._cp is not None:
            return Score(cp=-self._cp, wdl=wdl)
        assert self._mate is not None
        return Score(mate=-self._mate, wdl=wdl)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Score):
            return NotImplemented
        return (self._cp, self._mate) == (other._cp, other._mate)

    def __hash__(self) -> int:
        return hash((self._cp, self._mate))

    def __repr__(self) -> str:
        if self._cp is not None:
            return f"Cp({self._cp:+d})"
        return f"Mate({self._mate:+d})"


class PovWdl:
    """Win chances from the point of view of ``turn``, the side to move."""

    __slots__ = ("relative", "turn")

    def __init__(self, relative: Wdl, turn: str) -> None:
        _other(turn)
        self.relative = relative
        self.turn = turn

    def pov(self, side: str) -> Wdl:
        """The chances for ``side`` (``"attackers"`` or ``"defenders"``)."""
        _other(side)
        return self.relative if side == self.turn else -self.relative

    def attackers(self) -> Wdl:
        return self.pov("attackers")

    def defenders(self) -> Wdl:
        return self.pov("defenders")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PovWdl):
            return NotImplemented
        return self.attackers() == other.attackers()

    def __repr__(self) -> str:
        return f"PovWdl({tuple(self.relative)}, {self.turn!r})"


class PovScore:
    """A score from the point of view of ``turn``, the side to move of the position
    searched: ``relative`` is that side's, :meth:`pov` either side's."""

    __slots__ = ("relative", "turn")

    def __init__(self, relative: Score, turn: str) -> None:
        _other(turn)
        self.relative = relative
        self.turn = turn

    def pov(self, side: str) -> Score:
        """The score for ``side`` (``"attackers"`` or ``"defenders"``)."""
        _other(side)
        return self.relative if side == self.turn else -self.relative

    def attackers(self) -> Score:
        return self.pov("attackers")

    def defenders(self) -> Score:
        return self.pov("defenders")

    def is_mate(self) -> bool:
        return self.relative.is_mate()

    def wdl(self) -> PovWdl:
        """The win chances (see :meth:`Score.wdl`) from the same point of view."""
        return PovWdl(self.relative.wdl(), self.turn)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PovScore):
            return NotImplemented
        return self.attackers() == other.attackers()

    def __hash__(self) -> int:
        return hash(self.attackers())

    def __repr__(self) -> str:
        return f"PovScore({self.relative!r}, {self.turn!r})"
