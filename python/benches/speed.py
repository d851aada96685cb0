"""The speeds python/README.md states: random playouts and perft in Rust, and the cost of
one call of legal_moves and play from a Python loop. Run: python python/benches/speed.py"""

from __future__ import annotations

import random
import time
from typing import Callable

import konakis
from konakis import Game, Rules


def best_of(runs: int, work: Callable[[], float]) -> float:
    return max(work() for _ in range(runs))


def main() -> None:
    for preset in ["original", "ashton"]:
        rules = Rules(preset)

        def playouts() -> float:
            start = time.perf_counter()
            moves = konakis.random_playouts(rules, games=3000, seed=1)[0]
            return moves / (time.perf_counter() - start)

        def perft() -> float:
            start = time.perf_counter()
            leaves = Game(rules).perft(4)
            return leaves / (time.perf_counter() - start)

        print(f"{preset}: random_playouts {best_of(3, playouts):,.0f} moves/s, "
              f"perft(4) {best_of(3, perft):,.0f} leaves/s")

        g = Game(rules)
        n = 50_000
        start = time.perf_counter()
        for _ in range(n):
            g.legal_moves()
        legal = (time.perf_counter() - start) / n
        start = time.perf_counter()
        for _ in range(n):
            g.legal_actions()
        actions = (time.perf_counter() - start) / n
        mv = g.legal_moves()[0]
        start = time.perf_counter()
        for _ in range(n):
            h = g.copy()
            h.play(mv)
        play = (time.perf_counter() - start) / n
        start = time.perf_counter()
        for _ in range(n):
            g.copy()
        copy = (time.perf_counter() - start) / n
        rnd = random.Random(1)
        moves = 0
        start = time.perf_counter()
        while moves < 100_000:
            game = Game(rules)
            while not game.is_over:
                game.play(rnd.choice(game.legal_moves()))
                moves += 1
        loop = moves / (time.perf_counter() - start)
        print(f"  start position: legal_moves {legal * 1e6:.1f} us, legal_actions "
              f"{actions * 1e6:.1f} us, play {max(play - copy, 0) * 1e6:.2f} us; "
              f"a Python random-game loop: {loop:,.0f} moves/s")


if __name__ == "__main__":
    main()
