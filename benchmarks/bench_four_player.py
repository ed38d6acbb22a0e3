"""Four-player endgames against classic ones of the same size: the forced-win search's
cost as the cards in play grow, for both games side by side.

    python benchmarks/bench_four_player.py [--sizes 16,20,24,28,32] [--count 8]
                                           [--time-limit 10]

For each number of cards in play: classic three-player positions (landlord to lead, the
growth suite's split), and four-player positions of the landlord against one, two and
three peasants, all from fixed seeds; one core, warm, each from an empty 64 MB table,
stopped at ``--time-limit`` seconds. Per set: positions answered, median and worst
time, median nodes. Never part of the test suite.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from solver.bench import MEMORY_MB, random_positions, timed, warm  # noqa: E402
from solver.rules import CLASSIC, FOUR_PLAYER  # noqa: E402
from solver.search import Searcher  # noqa: E402

#: The sets of each size: (label, rules, players).
SETS = (
    ("classic 3p", CLASSIC, 3),
    ("four 2p", FOUR_PLAYER, 2),
    ("four 3p", FOUR_PLAYER, 3),
    ("four 4p", FOUR_PLAYER, 4),
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="16,20,24,28,32")
    parser.add_argument("--count", type=int, default=8)
    parser.add_argument("--time-limit", type=float, default=10.0)
    args = parser.parse_args()
    searcher = Searcher(MEMORY_MB, time_limit=args.time_limit)
    warm(searcher)
    print(f"{'set':<11} {'cards':>5} {'answered':>9} {'median s':>9} {'worst s':>9} {'nodes':>10}")
    for size in (int(s) for s in args.sizes.split(",")):
        for label, rules, players in SETS:
            seconds, nodes, answered = [], [], 0
            for pos in random_positions(1000 + size, args.count, players, size, size, None, rules):
                answer, sec, n = timed(searcher, pos)
                answered += answer != "unknown"
                seconds.append(sec)
                nodes.append(n)
            worst = max(seconds)
            mark = ">" if answered < args.count else " "
            print(
                f"{label:<11} {size:>5} {answered:>5}/{args.count:<3} "
                f"{statistics.median(seconds):>9.3f} {mark}{worst:>8.3f} "
                f"{statistics.median(nodes):>10,.0f}"
            )


if __name__ == "__main__":
    main()
