"""Growth benchmark: how the forced-win search's cost grows with the cards in play, this
tree side by side with a baseline tree.

    python benchmarks/bench_growth.py [--baseline DIR] [--sizes 26,32,38] [--time-limit 60]
                                      [--random 40] [--repeat 3]

The positions are the growth suite's (``landlord bench --growth``): 8 three-player
positions, landlord to lead, of each size from 26 cards (10/8/8) to 50 (18/16/16), and
8 whole deals (20/17/17, the landlord with the kitty), from fixed seeds; ``--random N``
runs N random positions of 24-32 cards of two and of three players instead (with
``--sizes``, as well). This tree makes them and hands them to each tree as text, so that
both solve the same positions even where the baseline has no growth suite.

Each tree runs in a process of its own, one core, warm, and the trees take turns
position by position (which goes first alternates), so that a machine that slows down
or speeds up during the run weighs on both alike: every position from an empty table
of the default size, stopped at ``--node-limit`` nodes or ``--time-limit`` seconds,
whichever comes first. ``--repeat N`` solves each answered position N times in each tree
and keeps the fastest time (the nodes are the same every time). A baseline is a second
worktree of an older commit (``git worktree add ../base COMMIT``): only its
``solver.search.Searcher`` and ``solver.endgame.parse_position`` are used, which every
version has.

Per set: positions answered within the limits, median and worst time, median nodes and
total time, for both trees, and the ratios (baseline / this tree: above 1 this tree is
the faster); ``>`` marks a figure an unanswered position decides (it is at least that).
Then the totals, each tree's worst case, the positions that take more nodes here than
in the baseline (the five that lose most), and any position the trees answer
differently (a win in one, a loss in the other: one of them is wrong).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import NoReturn

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

#: Run in each tree's own process (``python -c CHILD TREE``): reads the job (one JSON
#: line), then solves each position it is sent (a JSON line [name, position]) and answers
#: with a JSON line [name, answer, seconds, nodes]. The first line it writes names the
#: solver package it imported, so that a wrong tree is noticed.
CHILD = """
import json, sys, time
sys.path.insert(0, sys.argv[1])
import solver
from solver.endgame import parse_position
from solver.search import Searcher
job = json.loads(sys.stdin.readline())
searcher = Searcher(job["memory"], time_limit=job["time_limit"], node_limit=job["node_limit"])
searcher.value(parse_position("L=3 P1=4"))  # loads the compiled kernels
if "strategy" in Searcher.__init__.__code__.co_varnames:  # and the proof-number search's
    Searcher(1, strategy="proof-number").value(parse_position(job["warm_proof"]))
    searcher.buffers.proofs()  # its table, made once a process, before any clock runs
print(json.dumps(solver.__file__), flush=True)
for line in sys.stdin:
    name, spec = json.loads(line)
    pos = parse_position(spec)
    best = None
    for _ in range(job["repeat"]):
        searcher.start(pos.rules)
        start = time.perf_counter()
        value = searcher.value(pos)
        seconds = time.perf_counter() - start
        answer = {1: "win", 0: "loss"}.get(int(value), "unknown")
        best = seconds if best is None else min(best, seconds)
        if answer == "unknown":  # a limit: once is enough
            break
    print(json.dumps([name, answer, best, searcher.stats.nodes]), flush=True)
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


class Solver:
    """A tree's solving process (so that each tree runs its own kernels, warm)."""

    def __init__(self, label: str, tree: Path, args: argparse.Namespace) -> None:
        self.label = label
        job = {
            "memory": MEMORY_MB,
            "node_limit": args.node_limit,
            "time_limit": args.time_limit,
            "warm_proof": WARM_PROOF,
            "repeat": args.repeat,
        }
        env = dict(os.environ, PYTHONPATH=str(tree))
        self.proc = subprocess.Popen(
            [sys.executable, "-c", CHILD, str(tree)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=env,
            cwd=tree,
        )
        self.tree = tree
        first = self._ask(job)
        imported = Path(json.loads(first))
        if not imported.resolve().is_relative_to(tree.resolve()):
            self.proc.kill()
            raise SystemExit(f"{tree}: its process imported {imported}, not the tree's own solver")

    def _ask(self, message: object) -> str:
        """Send one JSON line; the line that comes back."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps(message) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            self._failed()
        return line

    def solve(self, name: str, spec: str) -> Result:
        """One position's figures, printed on stderr as well."""
        result = Result(*json.loads(self._ask([name, spec])))
        print(
            f"  {self.label}: {result.name} {result.answer} {result.nodes:,} nodes "
            f"{result.seconds:.3f} s",
            file=sys.stderr,
        )
        return result

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        if self.proc.wait():
            self._failed()

    def _failed(self) -> NoReturn:
        raise SystemExit(f"{self.tree}: the solving process failed (exit {self.proc.wait()})")


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
    parser.add_argument(
        "--repeat", type=int, default=1, help="solve each position N times, keep the fastest"
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
    solvers = [Solver(label, tree, args) for label, tree in trees.items()]
    got: dict[str, dict[str, Result]] = {label: {} for label in trees}
    for k, (name, spec) in enumerate(flat):
        for solver in solvers if k % 2 == 0 else solvers[::-1]:  # who goes first alternates
            got[solver.label][name] = solver.solve(name, spec)
    for solver in solvers:
        solver.close()

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
        slower = [n for n in both if this[n].nodes > base[n].nodes]
        print(
            f"more nodes than the baseline: {len(slower)} of {len(both)}"
            + "".join(
                f"; {n} {base[n].nodes:,} -> {this[n].nodes:,}"
                for n in sorted(slower, key=lambda n: base[n].nodes / this[n].nodes)[:5]
            )
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
