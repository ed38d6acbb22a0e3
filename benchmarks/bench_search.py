"""Forced-win search benchmarks: prints a table and the bench signature.

    python benchmarks/bench_search.py [--random 10] [--time-limit 60]

Figures, one core, warm process (each position solved from an empty table):

* the bench list (``bench_list.txt``): every position's answer, nodes and time; the
  *bench signature* is the total node count, which changes only when the search does;
* the twelve hardest published two-player endgames (17-25 cards), total and slowest;
* random two-player positions of 24-30 cards and three-player positions of 26-32
  cards (fixed seeds), median time; and one 20 + 17 two-player deal;
* nodes per second over everything searched.

The C++ figures quoted for comparison are the plain negamax-with-table reference
measured on this machine: 1.9 s for the twelve hardest published puzzles (the hardest
alone about 1 s), a median of 1.7 s on the two-player and 0.8 s on the three-player
random positions.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from solver.cards import CLASSIC_DECK  # noqa: E402
from solver.endgame import describe, parse_position  # noqa: E402
from solver.search import UNKNOWN, WIN, Searcher, make_position  # noqa: E402

HARDEST = ("P08", "P10", "P11", "P12", "P13", "P14", "P15", "P16", "P18", "P19", "P20", "P21")
CPP = {"hardest": 1.9, "two": 1.7, "three": 0.8}


def bench_list() -> list[tuple[str, str]]:
    """(name, position) pairs of the bench list."""
    out = []
    for line in (Path(__file__).parent / "bench_list.txt").read_text().splitlines():
        line = line.split("#")[0].strip()
        if line:
            name, spec = line.split(maxsplit=1)
            out.append((name, spec))
    return out


def timed(searcher: Searcher, pos) -> tuple[int, float, int]:  # noqa: ANN001
    searcher.start(pos.rules)
    t = time.perf_counter()
    value = searcher.value(pos)
    return value, time.perf_counter() - t, searcher.stats.nodes


def split(players: int, total: int) -> list[int]:
    """Hand sizes for a position of ``total`` cards, the landlord's the largest."""
    if players == 2:
        return [(total + 1) // 2, total // 2]
    return [total - 2 * (total // 3), total // 3, total // 3]


def random_positions(seed: int, count: int, players: int, lo: int, hi: int, sizes=None):  # noqa: ANN001, ANN201
    """Positions from shuffled decks, reproducible from the seed."""
    rng = random.Random(seed)
    deck = [r for r, n in enumerate(CLASSIC_DECK) for _ in range(n)]
    for _ in range(count):
        total = rng.randint(lo, hi)
        rng.shuffle(deck)
        hands, at = [], 0
        for size in sizes or split(players, total):
            counts = [0] * 15
            for r in deck[at : at + size]:
                counts[r] += 1
            hands.append(tuple(counts))
            at += size
        yield make_position(hands)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--random", type=int, default=10, help="random positions of each kind")
    parser.add_argument("--time-limit", type=float, default=60.0, help="per random position")
    parser.add_argument("--memory", type=float, default=64.0, help="table size, MB")
    args = parser.parse_args()
    searcher = Searcher(args.memory)
    timed(searcher, parse_position("L=3 P1=4"))  # load the kernels
    total_nodes = 0
    total_time = 0.0
    print(f"{'position':<8} {'answer':<7} {'nodes':>11} {'seconds':>9}")
    signature = 0
    hardest = []
    for name, spec in bench_list():
        value, dt, nodes = timed(searcher, parse_position(spec))
        signature += nodes
        total_nodes += nodes
        total_time += dt
        if name in HARDEST:
            hardest.append(dt)
        print(f"{name:<8} {'win' if value == WIN else 'loss':<7} {nodes:>11,} {dt:>9.3f}")
    print(f"bench signature: {signature} nodes")
    print(
        f"twelve hardest published: {sum(hardest):.2f} s in all, slowest {max(hardest):.2f} s"
        f" ({CPP['hardest'] / sum(hardest):.2f}x the C++ reference's speed)"
    )
    limited = Searcher(args.memory, time_limit=args.time_limit)
    timed(limited, parse_position("L=3 P1=4"))
    for label, players, lo, hi, seed in (("two", 2, 24, 30, 1), ("three", 3, 26, 32, 2)):
        times, unknown = [], 0
        for pos in random_positions(seed, args.random, players, lo, hi):
            value, dt, nodes = timed(limited, pos)
            total_nodes += nodes
            total_time += dt
            unknown += value == UNKNOWN
            times.append(dt)
        median = statistics.median(times)
        print(
            f"random {label}-player {lo}-{hi} cards: {len(times)} positions, median "
            f"{median:.3f} s, slowest {max(times):.2f} s, {unknown} stopped at "
            f"{args.time_limit:.0f} s ({CPP[label] / median:.2f}x the C++ reference's speed)"
        )
    deal = next(random_positions(3, 1, 2, 37, 37, sizes=[20, 17]))
    value, dt, nodes = timed(limited, deal)
    total_nodes += nodes
    total_time += dt
    verdict = {WIN: "win", UNKNOWN: "unknown"}.get(value, "loss")
    print(f"20+17 deal {describe(deal)}: {verdict} in {dt:.2f} s, {nodes:,} nodes")
    print(f"{total_nodes / total_time:,.0f} nodes/s over {total_nodes:,} nodes")


if __name__ == "__main__":
    main()
