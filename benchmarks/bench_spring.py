"""Spring and move-generation benchmarks: prints a table, never part of the test suite.

    python benchmarks/bench_spring.py [--deals 100000] [--sample 2000] [--rules four-player]

Figures, all on one core in a warm process unless said otherwise:

* spring throughput on uniformly random deals and on yes-biased deals (``--strength 0.3``,
  about half springs), and the per-case median and p99 (each sampled case is solved
  ``REPEAT`` times in one call, so call overhead is amortised away);
* lead generation per landlord's hand (20 cards; 33 in the four-player game), median,
  and plays generated per second;
* ``landlord judge`` wall time, start-up included: one case cold (fresh numba cache) and
  warm, and the whole random file;
* the same-run baseline: the slow pure-Python reference (``tests/reference.py``, or
  ``tests/reference_four.py``) on a sample of the same deals, as a speed ratio.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from solver.cards import format_hand  # noqa: E402
from solver.deals import random_deals  # noqa: E402
from solver.jit import kernel  # noqa: E402
from solver.movegen import ALL_KINDS, MAX_MOVES, TABLE_SIZE, gen_moves  # noqa: E402
from solver.rules import CLASSIC, RuleSet, rule_set  # noqa: E402
from solver.spring import solve_many  # noqa: E402

REPEAT = 50
CPP_DEALS_PER_S = {"random": 40_000, "yes-biased": 30_000}  # the plain C++ reference (classic)
STRENGTH = {"classic": 0.3, "four-player": 1.5}  # about half springs


@kernel
def _lead_loop(hands, rules, minr, cards, meta, repeat):
    total = 0
    for _ in range(repeat):
        for k in range(hands.shape[0]):
            total += gen_moves(hands[k], rules, minr, np.int64(ALL_KINDS), cards, meta, np.int64(0))
    return total


def per_case_us(hands: np.ndarray, rules: RuleSet) -> list[float]:
    """Microseconds per case, each case solved REPEAT times in one batch."""
    out = []
    for k in range(len(hands)):
        batch = np.repeat(hands[k : k + 1], REPEAT, axis=0)
        t = time.perf_counter()
        solve_many(batch, rules)
        out.append((time.perf_counter() - t) / REPEAT * 1e6)
    return out


def p99(xs: list[float]) -> float:
    return sorted(xs)[min(len(xs) - 1, int(0.99 * len(xs)))]


def as_array(deals) -> np.ndarray:
    return np.array(deals, np.int64)


def bench_spring(name: str, hands: np.ndarray, sample: int, game: RuleSet) -> list[str]:
    solve_many(hands[:10], game)  # compile or load
    t = time.perf_counter()
    answers = solve_many(hands, game)
    rate = len(hands) / (time.perf_counter() - t)
    cases = per_case_us(hands[:sample], game)
    import reference
    import reference_four

    ref_n = min(200, len(hands))
    t = time.perf_counter()
    for land, *peasants in hands[:ref_n].tolist():
        if game == CLASSIC:
            reference.spring(tuple(land), *map(tuple, peasants))
        else:
            reference_four.spring(land, peasants)
    ref_rate = ref_n / (time.perf_counter() - t)
    cpp = f"x{rate / CPP_DEALS_PER_S[name]:.1f} the C++ reference  " if game == CLASSIC else ""
    return [
        f"spring {name:<10} {len(hands):>8} deals  {answers.mean() * 100:5.1f}% yes  "
        f"{rate:>10,.0f} deals/s  median {statistics.median(cases):6.2f} us  "
        f"p99 {p99(cases):7.2f} us  {cpp}x{rate / ref_rate:,.0f} the Python reference"
    ]


def bench_leads(hands: np.ndarray, sample: int, game: RuleSet) -> list[str]:
    rules = game.array()
    minr = np.zeros(TABLE_SIZE, np.int64)
    cards = np.empty(MAX_MOVES, np.int64)
    meta = np.empty(MAX_MOVES, np.int64)
    landlords = np.ascontiguousarray(hands[:, 0])
    _lead_loop(landlords[:2], rules, minr, cards, meta, 1)
    per_hand = []
    for k in range(min(sample, len(landlords))):
        one = landlords[k : k + 1]
        t = time.perf_counter()
        _lead_loop(one, rules, minr, cards, meta, REPEAT * 4)
        per_hand.append((time.perf_counter() - t) / (REPEAT * 4) * 1e6)
    t = time.perf_counter()
    moves = _lead_loop(landlords, rules, minr, cards, meta, 1)
    dt = time.perf_counter() - t
    return [
        f"leads  {game.landlord_cards}-card hands {len(landlords):>8}  "
        f"median {statistics.median(per_hand):.2f} us"
        f"  p99 {p99(per_hand):.2f} us  {moves / len(landlords):.0f} plays/hand"
        f"  {moves / dt:,.0f} plays/s"
    ]


def contest_file(deals, path: Path) -> None:
    lines = [str(len(deals))] + [format_hand(h) for d in deals for h in d]
    path.write_text("\n".join(lines) + "\n")


def wall(args: list[str], env: dict[str, str]) -> float:
    t = time.perf_counter()
    subprocess.run(args, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - t


def bench_cli(deals, tmp: Path, game: RuleSet) -> list[str]:
    one, many = tmp / "one.in", tmp / "many.in"
    contest_file(deals[:1], one)
    contest_file(deals, many)
    cmd = [sys.executable, "-c", "from cli import main; main()", "judge", "--rules", game.name]
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp / "cache"), PYTHONPATH=str(ROOT))
    cold = wall(cmd + [str(one)], env)
    warm = min(wall(cmd + [str(one)], env) for _ in range(3))
    whole = min(wall(cmd + [str(many)], env) for _ in range(3))
    cpp = len(deals) / CPP_DEALS_PER_S["random"]
    versus = f" ({whole / cpp:.2f}x the C++ reference's {cpp:.1f} s)" if game == CLASSIC else ""
    return [
        f"judge  one case: cold {cold:.2f} s, warm {warm:.2f} s;  {len(deals):,} random deals:"
        f" {whole:.2f} s start-up included{versus}"
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=100_000)
    parser.add_argument("--sample", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rules", choices=("classic", "four-player"), default="classic")
    args = parser.parse_args()
    game = rule_set(args.rules)
    random_set = random_deals(args.seed, args.deals, rules=game)
    biased_set = random_deals(args.seed, args.deals // 5, STRENGTH[game.name], game)
    rows = bench_spring("random", as_array(random_set), args.sample, game)
    rows += bench_spring("yes-biased", as_array(biased_set), args.sample, game)
    rows += bench_leads(as_array(random_set), args.sample, game)
    with tempfile.TemporaryDirectory() as tmp:
        rows += bench_cli(random_set, Path(tmp), game)
    print("\n".join(rows))


if __name__ == "__main__":
    main()
