"""The standard benchmark suite behind ``landlord bench``: fixed positions and fixed-seed
deal sets, so that two machines, or two versions, can be compared figure by figure.

* the bench list (``bench_list.txt``): published and constructed endgames, each solved
  from an empty table; the total node count is the *bench signature*, which changes
  only when the search does;
* spring deal sets: uniformly random deals and yes-biased ones (``strength`` 0.3);
* random endgames: two-player positions of 24-30 cards, three-player ones of 26-32.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from dataclasses import dataclass
from importlib.resources import files

import numpy as np

from .cards import NUM_RANKS
from .deals import DECK, cut, random_deals
from .endgame import describe, parse_position, side_wins
from .search import Position, Searcher, make_position
from .spring import solve_many

#: (name, seed, strength) of the spring deal sets
DEAL_SETS = (("random", 1, 0.0), ("yes-biased", 2, 0.3))
#: (name, seed, players, fewest cards, most cards) of the random endgame sets
POSITION_SETS = (("two-player", 1, 2, 24, 30), ("three-player", 2, 3, 26, 32))


@dataclass(frozen=True)
class Row:
    """One measured case: what was solved, its answer, nodes and time."""

    suite: str
    case: str
    answer: str
    seconds: float
    nodes: int = 0
    items: int = 1  # deals in a spring set

    def as_json(self) -> dict[str, object]:
        return {
            "suite": self.suite,
            "case": self.case,
            "answer": self.answer,
            "seconds": round(self.seconds, 6),
            "nodes": self.nodes,
            "items": self.items,
        }


def bench_list() -> list[tuple[str, str]]:
    """(name, position) pairs of the bench list, positions as ``landlord best`` reads them."""
    out = []
    for line in files("solver").joinpath("bench_list.txt").read_text().splitlines():
        line = line.split("#")[0].strip()
        if line:
            name, spec = line.split(maxsplit=1)
            out.append((name, spec))
    return out


def split(players: int, total: int) -> list[int]:
    """Hand sizes for a position of ``total`` cards, the landlord's the largest."""
    if players == 2:
        return [(total + 1) // 2, total // 2]
    return [total - 2 * (total // 3), total // 3, total // 3]


def random_positions(
    seed: int, count: int, players: int, lo: int, hi: int, sizes: list[int] | None = None
) -> Iterator[Position]:
    """Positions (landlord to move) from shuffled decks, reproducible from the seed."""
    rng = random.Random(seed)
    deck = list(DECK)
    for _ in range(count):
        total = rng.randint(lo, hi)
        rng.shuffle(deck)
        yield make_position(cut(deck, sizes or split(players, total)))


def timed(searcher: Searcher, pos: Position) -> tuple[str, float, int]:
    """Solve ``pos`` from an empty table: the answer (win, loss, unknown), seconds, nodes."""
    searcher.start(pos.rules)
    start = time.perf_counter()
    value = searcher.value(pos)
    seconds = time.perf_counter() - start
    answer = {True: "win", False: "loss", None: "unknown"}[side_wins(value, 0)]
    return answer, seconds, searcher.stats.nodes


def warm(searcher: Searcher) -> None:
    """Load the compiled kernels, so that no case's time includes it."""
    timed(searcher, parse_position("L=3 P1=4"))
    solve_many(np.zeros((1, 3, NUM_RANKS), np.int64))


def positions_suite(searcher: Searcher) -> Iterator[Row]:
    """The bench list, one row a position."""
    for name, spec in bench_list():
        answer, seconds, nodes = timed(searcher, parse_position(spec))
        yield Row("bench list", name, answer, seconds, nodes)


def deals_suite(count: int) -> Iterator[Row]:
    """The spring deal sets, one row a set (its time is the solving alone)."""
    for name, seed, strength in DEAL_SETS:
        hands = np.array(random_deals(seed, count, strength), np.int64)
        start = time.perf_counter()
        answers = solve_many(hands)
        seconds = time.perf_counter() - start
        yes = int(answers.sum())
        yield Row("spring", f"{name} seed {seed}", f"{yes} yes", seconds, 0, count)


def random_suite(searcher: Searcher, count: int) -> Iterator[Row]:
    """The random endgame sets, one row a position."""
    for name, seed, players, lo, hi in POSITION_SETS:
        for k, pos in enumerate(random_positions(seed, count, players, lo, hi), 1):
            answer, seconds, nodes = timed(searcher, pos)
            yield Row(name, f"seed {seed} #{k} {describe(pos)}", answer, seconds, nodes)
