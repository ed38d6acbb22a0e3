"""The stake question against the win question, side by side on the same positions.

    python benchmarks/bench_stake.py [--random 40] [--time-limit 60] [--list]

Sets, each position solved from an empty table, one core, warm process:

* the bench list and the stake list (``solver/bench_list.txt``, ``solver/stake_list.txt``);
* random positions of 24-32 cards, two and three players, landlord to lead (the seeds
  of ``bench_growth.py --random``), at the start of a hand.

For each set: total, median and worst time of each question; the ratio of the medians,
the median of the positions' ratios and the worst one (the stake question's time over
the win question's, each position's time floored at 0.1 ms); and the nodes. ``--list``
prints every position's figures too.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from solver.bench import (  # noqa: E402
    bench_list,
    random_positions,
    stake_list,
    timed,
    timed_stake,
    warm,
)
from solver.endgame import describe, parse_position  # noqa: E402
from solver.search import Position, Searcher  # noqa: E402


def sets(count: int) -> list[tuple[str, list[Position]]]:
    listed = [parse_position(e.position) for e in bench_list()]
    listed += [parse_position(e.position) for e in stake_list()]
    return [
        ("bench + stake lists", listed),
        ("random 2p 24-32", list(random_positions(101, count, 2, 24, 32))),
        ("random 3p 24-32", list(random_positions(102, count, 3, 24, 32))),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--random", type=int, default=40, help="random positions of each kind")
    parser.add_argument("--time-limit", type=float, default=60.0, help="per question")
    parser.add_argument("--list", action="store_true", help="every position's figures")
    args = parser.parse_args()
    searcher = Searcher(time_limit=args.time_limit)
    warm(searcher)
    timed_stake(searcher, parse_position("L=3 P1=4"))
    head = (
        f"{'set':<20} {'n':>3}  {'win total':>9} {'median':>8} {'worst':>7}  "
        f"{'stake total':>11} {'median':>8} {'worst':>7}  {'x medians':>9} {'median x':>8} "
        f"{'worst x':>7}  "
        f"{'win nodes':>11} {'stake nodes':>11}"
    )
    print(head)
    for label, positions in sets(args.random):
        wins, stakes, ratios = [], [], []
        win_nodes = stake_nodes = 0
        for pos in positions:
            answer, win_s, nw = timed(searcher, pos)
            value, stake_s, ns = timed_stake(searcher, pos)
            wins.append(win_s)
            stakes.append(stake_s)
            ratios.append(max(stake_s, 1e-4) / max(win_s, 1e-4))
            win_nodes += nw
            stake_nodes += ns
            if args.list:
                print(
                    f"  {describe(pos)}: win {answer} {win_s:.4f} s {nw:,}; stake {value} "
                    f"{stake_s:.4f} s {ns:,}"
                )
        print(
            f"{label:<20} {len(positions):>3}  {sum(wins):>9.3f} {statistics.median(wins):>8.4f} "
            f"{max(wins):>7.3f}  {sum(stakes):>11.3f} {statistics.median(stakes):>8.4f} "
            f"{max(stakes):>7.3f}  "
            f"{statistics.median(stakes) / max(statistics.median(wins), 1e-6):>9.2f} "
            f"{statistics.median(ratios):>8.2f} {max(ratios):>7.1f}  "
            f"{win_nodes:>11,} {stake_nodes:>11,}"
        )


if __name__ == "__main__":
    main()
