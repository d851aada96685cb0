"""The Gymnasium-style environment: the action mask is exactly the legal moves, the
observation shows the board, rewards come from the result."""

from __future__ import annotations

import numpy as np
import pytest

import konakis
from konakis import Game, NativeEngine, Rules
from konakis.env import ACTIONS, TablutEnv, action_of, move_of, square_index, square_name

PRESET_IDS = [p["id"] for p in Rules.presets()]


def test_the_encoding_round_trips() -> None:
    assert square_index("a1") == 0 and square_index("e5") == 40 and square_index("i9") == 80
    assert all(square_index(square_name(i)) == i for i in range(81))
    assert action_of("d1d3") == 3 * 81 + 21 and action_of("d1-d3") == action_of("d1d3")
    assert move_of(action_of("e3f3")) == "e3f3"


@pytest.mark.parametrize("preset", PRESET_IDS)
def test_the_mask_is_the_legal_moves_through_random_games(preset: str) -> None:
    env = TablutEnv(preset)
    rng = np.random.default_rng(1)
    for _ in range(3):
        obs, info = env.reset()
        while True:
            assert obs.shape == (6, 9, 9) and obs.dtype == np.float32
            mask = info["action_mask"]
            assert mask.shape == (ACTIONS,)
            legal = sorted(action_of(m) for m in env.game.legal_moves())
            assert np.flatnonzero(mask).tolist() == legal
            if not legal:
                break
            mover = env.game.side_to_move
            obs, reward, terminated, truncated, info = env.step(int(rng.choice(legal)))
            if terminated:
                assert reward == env.game.status.score_for(mover)
                assert not info["action_mask"].any()
                break
            assert reward == 0.0 and not truncated


def test_the_observation_planes() -> None:
    env = TablutEnv("ashton")
    obs, _ = env.reset()
    assert obs[0].sum() == 16 and obs[1].sum() == 8 and obs[2].sum() == 1
    assert obs[2, 4, 4] == 1 and obs[3, 4, 4] == 1
    assert obs[4].sum() == 16 and obs[4, 0, 3] == 1  # d1 is a camp
    assert obs[5].sum() == 0  # the defenders move first under Ashton
    assert obs[0, 0, 3] == 1  # an attacker on d1


def test_rewards_options_truncation_and_illegal_actions() -> None:
    env = TablutEnv(position="9/9/9/9/9/9/9/1K7/b8 w")
    env.reset()
    _, reward, terminated, _, _ = env.step(action_of("b2a2"))
    assert terminated and reward == 1.0
    env = TablutEnv(rule_options={"MoveLimit": 4}, max_plies=2)
    env.reset()
    with pytest.raises(konakis.IllegalMoveError):
        env.step(action_of("e5e6"))
    env.step(action_of("d1d3"))
    _, _, terminated, truncated, _ = env.step(action_of("e3f3"))
    assert truncated and not terminated
    assert env.rules.move_limit == 4


def test_an_opponent_makes_it_one_player() -> None:
    engine = NativeEngine()
    env = TablutEnv("ashton", opponent=lambda g: engine.search(g, nodes=500)["move"])
    obs, info = env.reset(seed=3)
    assert env.game.side_to_move == "defenders"
    action = env.action_space.sample(info["action_mask"])
    _, _, _, _, info = env.step(action)
    assert len(env.game.moves) == 2 and env.game.side_to_move == "defenders"
