"""Test setup: a fresh numba cache for every run, so stale compiled code never passes; and
the test data, which lives in tests/data (nothing outside the repository is read)."""

import os
import random
import sys
import tempfile
from pathlib import Path

import pytest

os.environ["NUMBA_CACHE_DIR"] = tempfile.mkdtemp(prefix="landlord-numba-")
sys.path.insert(0, str(Path(__file__).parent))  # for `import reference`

DATA = Path(__file__).resolve().parent / "data"  # the test data: tests/data/README.md
CASES = DATA  # the contest cases: NAME.in with its answers in NAME.ans
PUBLISHED = DATA / "published.txt"  # the published two-player endgames
CASE_FILES = ("edge_cases", "random_2000", "yes_biased_500", "skewed_500")


def random_split(
    rng: random.Random, sizes: tuple[int, ...], ranks: range | tuple[int, ...] = range(15)
) -> list[tuple[int, ...]]:
    """Deal hands of the given sizes from one shuffled deck (of the given ranks only)."""
    deck = [r for r in ranks for _ in range(4 if r < 13 else 1)]
    rng.shuffle(deck)
    hands, at = [], 0
    for size in sizes:
        counts = [0] * 15
        for r in deck[at : at + size]:
            counts[r] += 1
        hands.append(tuple(counts))
        at += size
    return hands


@pytest.fixture(scope="session")
def shared_cases():
    """Every contest case in tests/data with its verified answer: name -> (hands, answers)."""
    from solver.contest import read_contest

    out = {}
    for name in CASE_FILES:
        read = read_contest((CASES / f"{name}.in").read_bytes(), name)
        answers = [ln.endswith("Yes") for ln in (CASES / f"{name}.ans").read_text().splitlines()]
        out[name] = (read.hands, answers)
    return out


#: The searches a reference test runs: the one users get, and the proof-number search alone
#: down to the game's end (its leaves, where the depth-first search takes over, at 0 cards).
STRATEGIES = ("auto", "proof-number")


def make_searcher(strategy: str, memory_mb: float, **limits: float):
    """A searcher of the given strategy (see STRATEGIES)."""
    from solver.search import Searcher

    searcher = Searcher(memory_mb=memory_mb, strategy=strategy, **limits)
    if strategy == "proof-number":
        searcher.proof_leaf = 0
    return searcher


@pytest.fixture()
def in_tmp(tmp_path, monkeypatch):
    """A test's own empty working folder."""
    monkeypatch.chdir(tmp_path)
    return tmp_path
