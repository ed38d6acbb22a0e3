"""Forced-win search benchmarks: prints a table and the bench signature.

    python benchmarks/bench_search.py [--random 10] [--time-limit 60]
    python benchmarks/bench_search.py --record     # after a change to the search:
                                                   # the bench and stake lists' nodes

Figures, one core, warm process (each position solved from an empty table):

* the bench list (``solver/bench_list.txt``, as ``landlord bench`` runs it): every
  position's answer, nodes and time (the best of ``--repeat`` runs, each from an empty
  table); the *bench signature* is the total node count, which changes only when the
  search does;
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
import re
import statistics
import sys
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from solver.bench import (  # noqa: E402
    POSITION_SETS,
    STAKE_VALUES,
    bench_list,
    random_positions,
    read_list,
    timed,
    timed_stake,
    warm,
)
from solver.endgame import describe, parse_position  # noqa: E402
from solver.search import Position, Searcher  # noqa: E402

HARDEST = ("P08", "P10", "P11", "P12", "P13", "P14", "P15", "P16", "P18", "P19", "P20", "P21")
CPP = {"hardest": 1.9, "two-player": 1.7, "three-player": 0.8}


def record(name: str, solve: Callable[[Searcher, Position], tuple[str, float, int]]) -> None:
    """Solve every position of the list ``solver/NAME`` as ``landlord bench`` does (a
    default table, an empty one each) and write its node count into the list, the rest
    of the file as it was. A changed answer is a wrong one: the list is then left alone."""
    path = ROOT / "solver" / name
    searcher = Searcher()
    warm(searcher)
    lines, wrong, before, after = [], [], 0, 0
    answers = STAKE_VALUES if name == "stake_list.txt" else ("win", "loss")
    for line in path.read_text().splitlines():
        entry = read_list(line, path.name, answers)
        if not entry:
            lines.append(line)
            continue
        listed = entry[0]
        answer, _, nodes = solve(searcher, parse_position(listed.position))
        if answer != listed.answer:
            wrong.append(f"{listed.name}: listed {listed.answer}, got {answer}")
        before, after = before + listed.nodes, after + nodes
        old = re.match(r"\s*\S+\s+\S+\s+(\d+)", line)  # the third column: the nodes
        assert old is not None
        start, end = old.span(1)
        lead = line[:start].rstrip()
        gap = start - len(lead) + end - start - len(str(nodes))
        lines.append(f"{lead}{' ' * max(gap, 1)}{nodes}{line[end:]}")
    if wrong:
        raise SystemExit("answers differ from the list (not written):\n  " + "\n  ".join(wrong))
    path.write_text("\n".join(lines) + "\n")
    print(f"signature {before:,} -> {after:,} nodes: written to {path}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--random", type=int, default=10, help="random positions of each kind")
    parser.add_argument("--time-limit", type=float, default=60.0, help="per random position")
    parser.add_argument("--memory", type=float, default=64.0, help="table size, MB")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each bench position")
    parser.add_argument(
        "--record",
        action="store_true",
        help="write the bench list's node counts again (after a change to the search)",
    )
    args = parser.parse_args()
    if args.record:
        record("bench_list.txt", timed)
        record("stake_list.txt", timed_stake)
        return
    searcher = Searcher(args.memory)
    warm(searcher)
    total_nodes = 0
    total_time = 0.0
    print(f"{'position':<8} {'answer':<7} {'nodes':>11} {'seconds':>9}")
    signature = 0
    hardest = []
    for listed in bench_list():
        name, spec = listed.name, listed.position
        runs = [timed(searcher, parse_position(spec)) for _ in range(max(1, args.repeat))]
        answer, dt, nodes = min(runs, key=lambda run: run[1])
        signature += nodes
        total_nodes += nodes
        total_time += dt
        if name in HARDEST:
            hardest.append(dt)
        print(f"{name:<8} {answer:<7} {nodes:>11,} {dt:>9.3f}")
    print(f"bench signature: {signature} nodes")
    print(
        f"twelve hardest published: {sum(hardest):.2f} s in all, slowest {max(hardest):.2f} s"
        f" ({CPP['hardest'] / sum(hardest):.2f}x the C++ reference's speed)"
    )
    limited = Searcher(args.memory, time_limit=args.time_limit)
    warm(limited)
    for label, seed, players, lo, hi in POSITION_SETS:
        times, unknown = [], 0
        for pos in random_positions(seed, args.random, players, lo, hi):
            answer, dt, nodes = timed(limited, pos)
            total_nodes += nodes
            total_time += dt
            unknown += answer == "unknown"
            times.append(dt)
        median = statistics.median(times)
        print(
            f"random {label} {lo}-{hi} cards: {len(times)} positions, median "
            f"{median:.3f} s, slowest {max(times):.2f} s, {unknown} stopped at "
            f"{args.time_limit:.0f} s ({CPP[label] / median:.2f}x the C++ reference's speed)"
        )
    deal = next(random_positions(3, 1, 2, 37, 37, sizes=[20, 17]))
    answer, dt, nodes = timed(limited, deal)
    total_nodes += nodes
    total_time += dt
    print(f"20+17 deal {describe(deal)}: {answer} in {dt:.2f} s, {nodes:,} nodes")
    print(f"{total_nodes / total_time:,.0f} nodes/s over {total_nodes:,} nodes")


if __name__ == "__main__":
    main()
