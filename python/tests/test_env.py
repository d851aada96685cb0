"""The Gymnasium-style environment: the action mask is exactly the legal moves, the
observation shows the board, rewards come from the result."""

from __future__ import annotations

import subprocess
import sys
import warnings

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
    env = TablutEnv(rule_options={"MoveLimit": 4}, max_plies=2, illegal_action="raise")
    env.reset()
    with pytest.raises(konakis.IllegalMoveError):
        env.step(action_of("e5e6"))
    env.step(action_of("d1d3"))
    _, _, terminated, truncated, _ = env.step(action_of("e3f3"))
    assert truncated and not terminated
    assert env.rules.move_limit == 4


def test_an_illegal_action_loses_by_default_and_changes_nothing() -> None:
    env = TablutEnv()
    _, info = env.reset()
    assert info["illegal_action"] is False
    before = env.game.position
    obs, reward, terminated, truncated, info = env.step(action_of("e5e6"))
    assert (reward, terminated, truncated, info["illegal_action"]) == (-1.0, True, False, True)
    assert env.game.position == before and env.game.moves == []
    # The episode is over: a step before reset() is refused, and reset() starts again.
    with pytest.raises(konakis.GameOverError) as e:
        env.step(action_of("d1d3"))
    assert e.value.reason == "episode-ended"
    env.reset()
    env.step(action_of("d1d3"))
    assert env.game.moves == ["d1d3"]


def test_action_of_and_move_of_refuse_what_is_not_an_action() -> None:
    for bad in (6561, -1, 2**70):
        with pytest.raises(konakis.MoveSyntaxError) as e:
            move_of(bad)
        assert e.value.reason == "not-an-action"
    assert move_of(6560) == "i9i9" and move_of(0) == "a1a1"
    for text, reason in [("e5", "notation"), ("z9a1", "not-a-square"), ("a10-a1", "not-a-square"), ("a10a1", "notation"),
                         ("d1e2", "not-straight"), ("d1d1", "same-square")]:
        with pytest.raises(konakis.MoveSyntaxError) as e:
            action_of(text)
        assert e.value.reason == reason, text
    with pytest.raises(konakis.MoveSyntaxError):
        square_index("j1")
    with pytest.raises(konakis.ArgumentError):
        square_name(81)
    env = TablutEnv()
    env.reset()
    for bad in (6561, -1):
        with pytest.raises(konakis.MoveSyntaxError):
            env.step(bad)
    assert env.game.moves == []


def test_unsupported_render_modes_and_options_are_refused_at_construction() -> None:
    with pytest.raises(konakis.ArgumentError) as e:
        TablutEnv(render_mode="human")
    assert e.value.reason == "render-mode" and "'human'" in str(e.value)
    with pytest.raises(konakis.ArgumentError):
        TablutEnv(render_mode="rgb_array")
    assert "e5" not in TablutEnv(render_mode="ansi").render() and "K" in TablutEnv().render()
    with pytest.raises(konakis.ArgumentError) as e:
        TablutEnv(agent_side="defenders")
    assert e.value.reason == "no-opponent"
    with pytest.raises(konakis.ArgumentError):
        TablutEnv(opponent="random", agent_side="white")
    with pytest.raises(konakis.ArgumentError):
        TablutEnv(opponent="stockfish")
    with pytest.raises(konakis.ArgumentError):
        TablutEnv(illegal_action="ignore")


def test_the_agent_plays_the_second_side_against_an_opponent() -> None:
    # Under the reference rules the attackers move first; the agent takes the defenders.
    env = TablutEnv(opponent="random", agent_side="defenders")
    obs, info = env.reset(seed=5)
    assert len(env.game.moves) == 1 and env.game.side_to_move == "defenders"
    assert obs[5].sum() == 0 and info["side_to_move"] == "defenders"
    first = env.game.moves[0]
    env.reset(seed=5)
    assert env.game.moves == [first]  # the opponent's draws follow the seed
    rng = np.random.default_rng(0)
    total = 0.0
    while True:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, reward, terminated, truncated, info = env.step(action)
        total += reward
        if terminated or truncated:
            break
        assert env.game.side_to_move == "defenders"
    status = env.game.status
    assert total == status.score_for("defenders")
    # An opponent function gets a copy of the game and may answer with an action.
    seen = []

    def opponent(game: Game) -> int:
        seen.append(game)
        return action_of(game.legal_moves[0])

    env = TablutEnv(opponent=opponent, agent_side="defenders")
    env.reset()
    assert seen[0] is not env.game and env.game.moves == [seen[0].legal_moves[0]]


def test_an_illegal_opponent_move_takes_the_agents_move_back() -> None:
    env = TablutEnv(opponent=lambda g: "e5e6")
    env.reset()
    with pytest.raises(konakis.IllegalMoveError):
        env.step(action_of("d1d3"))
    assert env.game.moves == []


def test_info_pickles_and_the_seed_fixes_np_random() -> None:
    import pickle

    env = TablutEnv()
    _, info = env.reset(seed=11)
    back = pickle.loads(pickle.dumps(info))
    assert back["status"] == info["status"] and (back["action_mask"] == info["action_mask"]).all()
    a = env.np_random.integers(1 << 30)
    env.reset(seed=11)
    assert env.np_random.integers(1 << 30) == a
    assert env.unwrapped is env and env.spec is None


def test_the_environment_works_without_gymnasium() -> None:
    code = (
        "import sys; sys.modules['gymnasium'] = None\n"
        "import konakis, konakis.env as e\n"
        "env = e.TablutEnv(opponent='random', agent_side='defenders')\n"
        "obs, info = env.reset(seed=1)\n"
        "assert type(env).__mro__[1].__name__ == '_EnvBase', type(env).__mro__\n"
        "assert env.unwrapped is env and env.spec is None and env.np_random is not None\n"
        "a = env.action_space.sample(info['action_mask'])\n"
        "obs, r, term, trunc, info = env.step(a)\n"
        "assert len(env.game.moves) == 3\n"
        "print('ok')\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0 and out.stdout == "ok\n", out.stderr


def test_gymnasium_check_env_passes_without_warnings() -> None:
    gymnasium = pytest.importorskip("gymnasium")
    from gymnasium.utils.env_checker import check_env

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        # Made through the registered id (so spec is set, and check_env tries the render
        # modes), two-player and one-player as the second side.
        check_env(gymnasium.make("konakis/Tablut-v0").unwrapped)
        check_env(
            gymnasium.make(
                "konakis/Tablut-v0", rules="ashton", opponent="random", agent_side="attackers"
            ).unwrapped
        )
    # Made directly (no spec: gymnasium warns that it cannot try the other render modes).
    with pytest.warns(UserWarning, match="not having a spec"):
        check_env(TablutEnv("english"))
    assert isinstance(TablutEnv(), gymnasium.Env)


def test_gymnasium_make_time_limit_and_episode_statistics() -> None:
    gymnasium = pytest.importorskip("gymnasium")
    from gymnasium.wrappers import RecordEpisodeStatistics, TimeLimit

    env = RecordEpisodeStatistics(
        gymnasium.make("konakis/Tablut-v0", opponent="random", max_episode_steps=6)
    )
    assert any(isinstance(w, TimeLimit) for w in _wrappers(env))
    assert env.spec is not None and env.spec.id == "konakis/Tablut-v0"
    assert env.spec.max_episode_steps == 6
    obs, info = env.reset(seed=3)
    steps = 0
    while True:
        action = int(env.np_random.choice(np.flatnonzero(info["action_mask"])))
        obs, reward, terminated, truncated, info = env.step(action)
        steps += 1
        if terminated or truncated:
            break
    assert steps <= 6 and (truncated or terminated)
    assert info["episode"]["l"] == steps and info["episode"]["r"] == reward
    assert len(env.unwrapped.game.moves) == 2 * steps or terminated


def _wrappers(env: object) -> list:
    found = []
    while hasattr(env, "env"):
        found.append(env)
        env = env.env  # type: ignore[attr-defined]
    return found


def test_an_async_vector_env_of_two_steps() -> None:
    gymnasium = pytest.importorskip("gymnasium")

    envs = gymnasium.vector.AsyncVectorEnv(
        [lambda: gymnasium.make("konakis/Tablut-v0", opponent="random") for _ in range(2)]
    )
    try:
        obs, info = envs.reset(seed=[1, 2])
        assert obs.shape == (2, 6, 9, 9)
        rng = np.random.default_rng(0)
        for _ in range(5):
            actions = np.array(
                [int(rng.choice(np.flatnonzero(m))) for m in info["action_mask"]]
            )
            obs, reward, terminated, truncated, info = envs.step(actions)
            assert obs.shape == (2, 6, 9, 9) and reward.shape == (2,)
            assert all(isinstance(s, konakis.Status) for s in info["status"])
            assert not info["illegal_action"].any()
    finally:
        envs.close()


def test_an_opponent_makes_it_one_player() -> None:
    engine = NativeEngine()
    env = TablutEnv("ashton", opponent=lambda g: engine.search(g, nodes=500)["move"])
    obs, info = env.reset(seed=3)
    assert env.game.side_to_move == "defenders"
    action = env.action_space.sample(info["action_mask"])
    _, _, _, _, info = env.step(action)
    assert len(env.game.moves) == 2 and env.game.side_to_move == "defenders"
