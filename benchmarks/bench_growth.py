"""Growth benchmark: how the forced-win search's cost grows with the cards in play, this
tree side by side with a baseline tree.

    python benchmarks/bench_growth.py [--baseline DIR] [--sizes 26,32,38] [--time-limit 60]
                                      [--random 40]

The positions are the growth suite's (``landlord bench --growth``): 8 three-player
positions, landlord to lead, of each size from 26 cards (10/8/8) to 50 (18/16/16), and
8 whole deals (20/17/17, the landlord with the kitty), from fixed seeds; ``--random N``
runs N random positions of 24-32 cards of two and of three players instead (with
``--sizes``, as well). This tree makes them and hands them to each tree as text, so that
both solve the same positions even where the baseline has no growth suite.

Each tree runs in a process of its own, one core, warm, the trees one after the other:
every position from an empty 64 MB table, stopped at ``--node-limit`` nodes or
``--time-limit`` seconds, whichever comes first. A baseline is a second worktree of an
older commit (``git worktree add ../base COMMIT``): only its ``solver.search.Searcher``
and ``solver.endgame.parse_position`` are used, which every version has.

Per set: positions answered within the limits, median and worst time, median nodes and
total time, for both trees, and the ratios (baseline / this tree: above 1 this tree is
the faster); ``>`` marks a figure an unanswered position decides (it is at least that).
Then the totals, each tree's worst case, and any position the trees answer differently
(a win in one, a loss in the other: one of them is wrong).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from solver.bench import (  # noqa: E402
    GROWTH_NODE_LIMIT,
    GROWTH_TIME_LIMIT,
    MEMORY_MB,
    WARM_PROOF,
    Figure,
    GrowthLine,
    GrowthSet,
    growth_sets,
    random_positions,
)
from solver.endgame import describe  # noqa: E402
from solver.search import Position  # noqa: E402

#: Run in each tree's own process (``python -c CHILD TREE``): solves the positions of the
#: job on stdin, one JSON line each: [name, answer, seconds, nodes]. The first line names
#: the solver package it imported, so that a wrong tree is noticed.
CHILD = """
import json, sys, time
sys.path.insert(0, sys.argv[1])
import solver
from solver.endgame import parse_position
from solver.search import Searcher
job = json.load(sys.stdin)
searcher = Searcher(job["memory"], time_limit=job["time_limit"], node_limit=job["node_limit"])
searcher.value(parse_position("L=3 P1=4"))  # loads the compiled kernels
if "strategy" in Searcher.__init__.__code__.co_varnames:  # and the proof-number search's
    Searcher(1, strategy="proof-number").value(parse_position(job["warm_proof"]))
print(json.dumps(solver.__file__), flush=True)
for name, spec in job["positions"]:
    pos = parse_position(spec)
    searcher.start(pos.rules)
    start = time.perf_counter()
    value = searcher.value(pos)
    seconds = time.perf_counter() - start
    answer = {1: "win", 0: "loss"}.get(int(value), "unknown")
    print(json.dumps([name, answer, seconds, searcher.stats.nodes]), flush=True)
"""


@dataclass(frozen=True)
class RandomSet:
    """``--random N``: random two- or three-player positions of 24-32 cards in play,
    landlord to lead, from a fixed seed (as a growth set, one row of the table)."""

    name: str
    players: int
    seed: int
    count: int

    @property
    def label(self) -> str:
        return f"24-32, {self.players} players"

    def positions(self) -> list[tuple[str, Position]]:
        made = random_positions(self.seed, self.count, self.players, 24, 32)
        return [(f"{self.name}-{k}", pos) for k, pos in enumerate(made, 1)]


@dataclass(frozen=True)
class Result:
    """One position solved by one tree."""

    name: str
    answer: str
    seconds: float
    nodes: int


def solve_in(
    label: str, tree: Path, positions: list[tuple[str, str]], args: argparse.Namespace
) -> list[Result]:
    """Solve the positions with ``tree``'s code, in a process of its own (so that each
    tree runs its own kernels, warm); each one's figures on stderr as it is done."""
    job = {
        "memory": MEMORY_MB,
        "node_limit": args.node_limit,
        "time_limit": args.time_limit,
        "positions": positions,
        "warm_proof": WARM_PROOF,
    }
    env = dict(os.environ, PYTHONPATH=str(tree))
    proc = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(tree)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env=env,
        cwd=tree,
    )
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(json.dumps(job))
    proc.stdin.close()
    first = proc.stdout.readline()
    if not first:
        raise SystemExit(f"{tree}: the solving process failed (exit {proc.wait()})")
    imported = Path(json.loads(first))
    if not imported.resolve().is_relative_to(tree.resolve()):
        proc.kill()
        raise SystemExit(f"{tree}: its process imported {imported}, not the tree's own solver")
    results = []
    for line in proc.stdout:
        result = Result(*json.loads(line))
        results.append(result)
        print(
            f"  {label}: {result.name} {result.answer} {result.nodes:,} nodes "
            f"{result.seconds:.3f} s",
            file=sys.stderr,
        )
    if proc.wait():
        raise SystemExit(f"{tree}: the solving process failed (exit {proc.returncode})")
    return results


def ratio(base: Figure, new: Figure) -> str:
    """baseline / this tree, marked where a bound makes it only a bound itself."""
    if base.bound and new.bound:
        return "?"
    mark = ">" if base.bound else "<" if new.bound else ""
    return f"{mark}{base.value / max(new.value, 1e-9):.2f}x"


def line_of(label: str, results: list[Result]) -> GrowthLine:
    return GrowthLine.of(label, [(r.answer, r.seconds, r.nodes) for r in results])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", type=Path, help="a worktree of the commit to compare with")
    parser.add_argument("--sizes", help="card counts of the sets to run, e.g. 26,32 (all)")
    parser.add_argument("--time-limit", type=float, default=GROWTH_TIME_LIMIT, help="seconds")
    parser.add_argument("--node-limit", type=int, default=GROWTH_NODE_LIMIT, help="nodes")
    parser.add_argument(
        "--random",
        type=int,
        default=0,
        help="also N random 24-32-card positions of 2 and 3 players",
    )
    args = parser.parse_args()
    sizes = [int(x) for x in args.sizes.split(",")] if args.sizes else None
    sets: list[GrowthSet | RandomSet] = [] if args.random and not sizes else growth_sets(sizes)
    if args.random:
        sets += [RandomSet("R2", 2, 101, args.random), RandomSet("R3", 3, 102, args.random)]
    positions = {s.name: [(n, describe(p)) for n, p in s.positions()] for s in sets}
    flat = [p for ps in positions.values() for p in ps]
    trees = {"this": ROOT}
    if args.baseline:
        if not (args.baseline / "solver" / "search.py").is_file():
            raise SystemExit(f"--baseline {args.baseline}: not a tree of this project")
        trees["baseline"] = args.baseline
    got = {}
    for label, tree in trees.items():
        print(f"{label}: {tree}", file=sys.stderr)
        got[label] = {r.name: r for r in solve_in(label, tree, flat, args)}

    print(
        f"{len(flat)} positions, limits {args.node_limit:,} nodes and {args.time_limit:g} s "
        f"a position, {MEMORY_MB} MB table"
        + ("; ratios are baseline / this tree" * bool(args.baseline))
    )
    print(f"{GrowthLine.HEADER[:24]} {'tree':<9}{GrowthLine.HEADER[24:]}")
    for s in sets:
        lines = {k: line_of(s.label, [v[n] for n, _ in positions[s.name]]) for k, v in got.items()}
        for k, line in lines.items():
            label = s.label if k == "this" else ""
            text = line.text()
            print(f"{label:<24} {k:<9}{text[24:]}")
        if "baseline" in lines:
            new, base = lines["this"], lines["baseline"]
            cells = [
                (ratio(base.median, new.median), 9),
                (ratio(base.worst, new.worst), 9),
                (ratio(base.median_nodes, new.median_nodes), 14),
                (ratio(Figure(base.total_seconds), Figure(new.total_seconds)), 9),
            ]
            print(f"{'':<24} {'ratio':<9}{'':>9} " + " ".join(f"{c:>{w}}" for c, w in cells))

    for label, results in got.items():
        rows = list(results.values())
        answered = sum(r.answer != "unknown" for r in rows)
        total = sum(r.seconds for r in rows)
        worst = max(rows, key=lambda r: (r.answer == "unknown", r.seconds))
        print(
            f"{label}: {answered}/{len(rows)} answered, {total:.1f} s in all, "
            f"{sum(r.nodes for r in rows) / max(total, 1e-9):,.0f} nodes/s; worst "
            f"{worst.name} {worst.answer} in {worst.seconds:.2f} s ({worst.nodes:,} nodes)"
            + "".join(
                f", {k} {o[worst.name].answer} in {o[worst.name].seconds:.2f} s"
                for k, o in got.items()
                if k != label
            )
        )
    if "baseline" in got:
        this, base = got["this"], got["baseline"]
        total_this = sum(r.seconds for r in this.values())
        total_base = sum(r.seconds for r in base.values())
        both = [n for n in this if "unknown" not in (this[n].answer, base[n].answer)]
        time_ratio = sum(base[n].seconds for n in both) / max(
            sum(this[n].seconds for n in both), 1e-9
        )
        node_ratio = sum(base[n].nodes for n in both) / max(sum(this[n].nodes for n in both), 1)
        print(
            f"total time: baseline / this tree {total_base / max(total_this, 1e-9):.2f}x; on the "
            f"{len(both)} positions both answered {time_ratio:.2f}x in time, "
            f"{node_ratio:.2f}x in nodes"
        )
        slowed = max(both, key=lambda n: this[n].seconds / max(base[n].seconds, 1e-9), default=None)
        if slowed:
            print(
                f"most slowed: {slowed} {base[slowed].seconds * 1e3:.2f} ms -> "
                f"{this[slowed].seconds * 1e3:.2f} ms"
            )
        newly = [n for n in this if this[n].answer != "unknown" and base[n].answer == "unknown"]
        lost = [n for n in this if this[n].answer == "unknown" and base[n].answer != "unknown"]
        if newly:
            print(f"answered by this tree only: {', '.join(newly)}")
        if lost:
            print(f"answered by the baseline only: {', '.join(lost)}")
        conflicts = [n for n in both if this[n].answer != base[n].answer]
        for n in conflicts:
            print(f"WRONG ANSWER in one tree: {n} this {this[n].answer}, baseline {base[n].answer}")
        if conflicts:
            raise SystemExit(1)


if __name__ == "__main__":
    main()
