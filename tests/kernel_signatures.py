"""Compile every kernel the way the package calls them, then print each kernel's type
signatures as JSON: ``{"module.kernel": ["(int64, ...)", ...]}``.

Run in a process of its own with an empty numba cache (tests/test_numba.py): in a process
that loaded the search from the cache, the kernels only other kernels call are never
compiled, and their signatures cannot be seen.
"""

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import solver.contest  # noqa: E402
import solver.goal  # noqa: E402
import solver.movegen  # noqa: E402
import solver.ordering  # noqa: E402
import solver.search  # noqa: E402
import solver.spring  # noqa: E402
import solver.table  # noqa: E402
from solver.cards import parse_hand  # noqa: E402
from solver.contest import read_contest  # noqa: E402
from solver.endgame import parse_position, solve_win  # noqa: E402
from solver.movegen import follows, leads  # noqa: E402
from solver.scoring import History  # noqa: E402
from solver.search import Searcher  # noqa: E402
from solver.spring import solve_many, solve_spring  # noqa: E402
from solver.stake import solve_stake  # noqa: E402

KERNEL_MODULES = (
    solver.movegen,
    solver.spring,
    solver.contest,
    solver.goal,
    solver.table,
    solver.ordering,
    solver.search,
)


def kernels():
    # (numba only now: solver.jit names the cache folder that numba reads on import)
    from numba.core.registry import CPUDispatcher

    for module in KERNEL_MODULES:
        for name, obj in vars(module).items():
            if isinstance(obj, CPUDispatcher) and obj.__module__ == module.__name__:
                yield f"{module.__name__}.{name}", obj


def exercise() -> None:
    """Every entry point: move generation, the spring solvers, both searches, stakes."""
    hand = parse_hand("33344455566677789TBR22")
    for m in leads(hand)[:50]:
        follows(hand, m)
    solve_spring(hand, (parse_hand("4"), parse_hand("5")))
    edge = ROOT / "tests" / "data" / "edge_cases.in"
    solve_many(read_contest(edge.read_bytes(), "edge_cases").hands)
    solve_win(Searcher(memory_mb=1, time_limit=60), parse_position("L=45569TKA2 P1=4588TJKB"))
    for spec in ("L=3333KA P1=2", "L=45577 P1=35662 P2=42BR", "L=3445556JKA P1=348TJQ22"):
        solve_stake(Searcher(memory_mb=1, time_limit=60), parse_position(spec), History())
    proof = Searcher(memory_mb=1, time_limit=60, strategy="proof-number")  # every node
    proof.proof_leaf = 0
    solve_win(proof, parse_position("L=45569TKA2 P1=4588TJKB P2=3377"))
    solve_stake(proof, parse_position("L=3445556JKA P1=348TJQ22"), History())


if __name__ == "__main__":
    exercise()
    print(json.dumps({name: [str(s) for s in d.signatures] for name, d in kernels()}))
