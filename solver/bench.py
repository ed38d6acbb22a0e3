"""The standard benchmark suite behind ``landlord bench``: fixed positions and fixed-seed
deal sets, so that two machines, or two versions, can be compared figure by figure.

* the bench list (``bench_list.txt``): published and constructed endgames, each solved
  from an empty table and compared with the answer and node count the list expects;
  the total node count is the *bench signature*, which changes only when the search
  does (and then the list is updated with it);
* spring deal sets: uniformly random deals and yes-biased ones (``strength`` 0.3);
* random endgames: two-player positions of 24-30 cards, three-player ones of 26-32.
"""

from __future__ import annotations

import random
import statistics
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
class Listed:
    """One line of the bench list: a position with the answer and nodes it must give."""

    name: str
    answer: str  # the landlord's side's result: win or loss
    nodes: int
    position: str  # as ``landlord best`` reads it


@dataclass(frozen=True)
class Row:
    """One measured case: what was solved, its answer, nodes and time, and for a bench
    list position the answer and nodes the list expects."""

    suite: str
    case: str
    answer: str
    seconds: float
    nodes: int = 0
    items: int = 1  # deals in a spring set
    expected_answer: str | None = None
    expected_nodes: int | None = None

    @property
    def differs(self) -> bool:
        """Whether a bench list position gave another answer or node count than listed."""
        return self.expected_answer is not None and (
            self.answer != self.expected_answer or self.nodes != self.expected_nodes
        )

    def as_json(self) -> dict[str, object]:
        return {
            "suite": self.suite,
            "case": self.case,
            "answer": self.answer,
            "seconds": round(self.seconds, 6),
            "nodes": self.nodes,
            "items": self.items,
            "expected_answer": self.expected_answer,
            "expected_nodes": self.expected_nodes,
        }


def bench_list() -> list[Listed]:
    """The bench list: ``NAME ANSWER NODES POSITION`` lines, ``#`` comments ignored."""
    out = []
    text = files("solver").joinpath("bench_list.txt").read_text()
    for number, line in enumerate(text.splitlines(), 1):
        line = line.split("#")[0].strip()
        if not line:
            continue
        fields = line.split(maxsplit=3)
        if len(fields) < 4 or fields[1] not in ("win", "loss") or not fields[2].isdigit():
            raise ValueError(
                f"bench_list.txt, line {number}: not NAME ANSWER NODES POSITION: {line!r}"
            )
        name, answer, nodes, position = fields
        out.append(Listed(name, answer, int(nodes), position))
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
    """The bench list, one row a position, with the answer and nodes the list expects."""
    for listed in bench_list():
        answer, seconds, nodes = timed(searcher, parse_position(listed.position))
        yield Row(
            "bench list",
            listed.name,
            answer,
            seconds,
            nodes,
            expected_answer=listed.answer,
            expected_nodes=listed.nodes,
        )


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


@dataclass(frozen=True)
class Report:
    """The whole suite's rows and the figures drawn from them."""

    rows: list[Row]

    def suite(self, name: str) -> list[Row]:
        """The rows of one suite, in order."""
        return [r for r in self.rows if r.suite == name]

    @property
    def listed(self) -> list[Row]:
        return self.suite("bench list")

    @property
    def signature(self) -> int:
        """The bench signature: the total node count of the bench list."""
        return sum(r.nodes for r in self.listed)

    @property
    def expected_signature(self) -> int:
        return sum(r.expected_nodes or 0 for r in self.listed)

    @property
    def differences(self) -> list[Row]:
        """The bench list positions whose answer or node count is not the listed one."""
        return [r for r in self.listed if r.differs]

    @property
    def nodes_per_second(self) -> float:
        searched = [r for r in self.rows if r.suite != "spring"]
        return sum(r.nodes for r in searched) / max(sum(r.seconds for r in searched), 1e-9)

    @property
    def deals_per_second(self) -> dict[str, float]:
        return {r.case: r.items / max(r.seconds, 1e-9) for r in self.suite("spring")}

    @property
    def medians(self) -> dict[str, float]:
        """Median seconds of each random endgame set (none when no position was run)."""
        sets = {name: [r.seconds for r in self.suite(name)] for name, *_ in POSITION_SETS}
        return {name: statistics.median(times) for name, times in sets.items() if times}

    def as_json(self) -> dict[str, object]:
        return {
            "rows": [r.as_json() for r in self.rows],
            "signature": self.signature,
            "expected_signature": self.expected_signature,
            "differences": [
                {
                    "case": r.case,
                    "expected_answer": r.expected_answer,
                    "expected_nodes": r.expected_nodes,
                    "answer": r.answer,
                    "nodes": r.nodes,
                }
                for r in self.differences
            ],
            "nodes_per_second": round(self.nodes_per_second),
            "deals_per_second": {k: round(v) for k, v in self.deals_per_second.items()},
            "median_seconds": {k: round(v, 6) for k, v in self.medians.items()},
        }


def run_suite(searcher: Searcher, limited: Searcher, deals: int, positions: int) -> Report:
    """Run the whole suite: the bench list with ``searcher``, ``deals`` deals in each
    spring set, ``positions`` random endgames of each kind with ``limited`` (the searcher
    with a time limit)."""
    warm(searcher)
    warm(limited)
    rows = list(positions_suite(searcher))
    rows += deals_suite(deals)
    rows += random_suite(limited, positions)
    return Report(rows)
