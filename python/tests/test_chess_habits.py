"""What python-chess users type first works on a Game: push/pop/push_uci, an iterable
legal_moves that is still callable, is_game_over() and outcome()."""

from __future__ import annotations

import random

import pytest

import konakis
from konakis import Game, Rules


def test_push_pop_and_push_uci_beside_play_and_undo() -> None:
    g = Game()
    assert g.push("d1d3") == []
    assert g.push_uci("e3-f3") == "e3f3"
    assert g.moves == ["d1d3", "e3f3"]
    assert g.pop() == "e3f3" and g.pop() == "d1d3"
    with pytest.raises(IndexError):
        g.pop()
    assert g == Game()
    with pytest.raises(konakis.IllegalMoveError):
        g.push("e5e6")
    with pytest.raises(konakis.MoveSyntaxError):
        g.push_uci("e5")
    assert g.moves == []
    # push and play are one: the captures come back the same way.
    a = Game(position="9/9/9/9/4K4/9/9/9/b2wb4 b")
    assert a.push("a1c1") == ["d1"]


def test_legal_moves_is_iterable_sized_and_still_callable() -> None:
    g = Game()
    moves = [m for m in g.legal_moves]
    assert len(moves) == 80 and len(g.legal_moves) == 80
    assert moves == g.legal_moves() == list(g.legal_moves)
    assert g.legal_moves("d1") == ["d1a1", "d1b1", "d1c1", "d1d2", "d1d3", "d1d4"]
    assert "d1d3" in g.legal_moves and "d1-d3" in g.legal_moves
    assert "e5e6" not in g.legal_moves and "nonsense" not in g.legal_moves
    assert 3 not in g.legal_moves
    assert g.legal_moves[0] == moves[0] and g.legal_moves[-1] == moves[-1]
    with pytest.raises(IndexError):
        g.legal_moves[80]
    assert random.Random(1).choice(g.legal_moves) in moves
    # A view of the game, as python-chess's: it follows the moves played.
    view = g.legal_moves
    g.push("d1d3")
    assert list(view) == g.legal_moves() and "d1d3" not in view
    assert len(view) == len(g.legal_moves())
    with pytest.raises(konakis.MoveSyntaxError):
        g.legal_moves("z9")
    ended = Game(position="9/9/9/9/9/9/9/1K7/b8 w")
    ended.push("b2a2")
    assert len(ended.legal_moves) == 0 and not ended.legal_moves and list(ended.legal_moves) == []


def test_is_game_over_and_outcome_as_python_chess() -> None:
    g = Game(position="9/9/9/9/9/9/9/1K7/b8 w")
    assert g.is_game_over() is False and g.outcome() is None
    g.push("b2a2")
    assert g.is_game_over() is True
    outcome = g.outcome()
    assert isinstance(outcome, konakis.Outcome)
    assert outcome.winner == "defenders" and outcome.termination == "escape"
    assert outcome.reason == "escape" and outcome == g.status
    draw = Game(Rules(MoveLimit=2), moves=["d1d3", "e3f3"])
    assert draw.is_game_over()
    assert draw.outcome() is not None
    assert (draw.outcome().winner, draw.outcome().termination) == (None, "move-limit")


def test_a_random_game_loop_the_python_chess_way() -> None:
    rng = random.Random(7)
    g = Game(Rules("ashton"))
    while not g.is_game_over() and len(g.moves) < 300:
        g.push(rng.choice(list(g.legal_moves)))
    while g.moves:
        g.pop()
    assert g == Game(Rules("ashton"))
