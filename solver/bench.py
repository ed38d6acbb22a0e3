"""The standard benchmark suite behind ``landlord bench``: fixed positions and fixed-seed
deal sets, so that two machines, or two versions, can be compared figure by figure.

* the bench list (``bench_list.txt``): published and constructed endgames, each solved
  from an empty table and compared with the answer and node count the list expects;
  the total node count is the *bench signature*, which changes only when the search
  does (and then the list is updated with it);
* the stake list (``stake_list.txt``): the same positions and some rich in bombs,
  asked the stake question (with the history each position implies), compared with
  the value and node count listed; its total is the *stake signature*;
* spring deal sets: uniformly random deals and yes-biased ones (``strength`` 0.3);
* random endgames: two-player positions of 24-30 cards, three-player ones of 26-32;
* the growth suite (``landlord bench --growth``, opt-in: it takes minutes): how the
  search's cost grows with the cards in play, from 26 to a full deal, each position
  compared with the growth list (``growth_list.txt``), which may also list a position
  as ``unknown`` (not answered within the node limit it was recorded at).
"""

from __future__ import annotations

import random
import re
import statistics
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from importlib.resources import files
from pathlib import Path

import numpy as np

from .cards import NUM_RANKS
from .deals import cut, deck_cards, random_deals
from .endgame import describe, load_search, parse_position, side_wins
from .errors import InputFileError
from .rules import CLASSIC, RuleSet
from .scoring import History
from .search import DEFAULT_MEMORY_MB, Position, Searcher, make_position
from .spring import solve_many
from .stake import score_value, stake_score

#: (name, seed, strength) of the spring deal sets
DEAL_SETS = (("random", 1, 0.0), ("yes-biased", 2, 0.3))
#: (name, seed, players, fewest cards, most cards) of the random endgame sets
POSITION_SETS = (("two-player", 1, 2, 24, 30), ("three-player", 2, 3, 26, 32))
#: the answers of the stake list: values, +1, -1, +2, -2, ...
STAKE_VALUES = tuple(f"{sign}{2**k}" for k in range(16) for sign in "+-")
#: the file of each listed suite
LIST_FILES = {"bench list": "bench_list.txt", "stake list": "stake_list.txt"}


@dataclass(frozen=True)
class Listed:
    """One line of the bench list: a position with the answer and nodes it must give."""

    name: str
    answer: str  # the landlord's side's result: win or loss (in the growth list, or unknown)
    nodes: int  # for an unknown answer, the nodes searched before the limit stopped it
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
    stopped: str | None = None  # for an unknown answer, the limit that stopped the search
    node_limit: int = 0  # the search's node limit (0: none)
    position: str = ""  # a listed position, as ``landlord best`` reads it

    @property
    def verdict(self) -> str:
        """How the row compares with its list: ``""`` (not listed), ``same``, ``differs``
        (another node count), ``wrong answer`` (a win became a loss or the other way),
        ``newly answered`` (listed unknown: an improvement), ``still unknown``, or
        ``not compared`` (stopped by the clock, which depends on the machine, or by a
        node limit below the listed nodes)."""
        want = self.expected_answer
        if want is None:
            return ""
        if want == "unknown":
            return "still unknown" if self.answer == "unknown" else "newly answered"
        if self.answer == "unknown":
            assert self.expected_nodes is not None
            clock = self.stopped == "time limit"
            if clock or (self.stopped == "node limit" and self.node_limit < self.expected_nodes):
                return "not compared"
            return "differs"  # the same limit that let it answer now stops it
        if self.answer != want:
            return "wrong answer"
        return "same" if self.nodes == self.expected_nodes else "differs"

    @property
    def differs(self) -> bool:
        """Whether a listed position gave another answer or node count than listed."""
        return self.verdict in ("differs", "wrong answer")

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
            "stopped": self.stopped,
            "verdict": self.verdict,
            "position": self.position,
        }


def read_list(text: str, source: str, answers: tuple[str, ...] = ("win", "loss")) -> list[Listed]:
    """``NAME ANSWER NODES POSITION`` lines, ``#`` comments ignored."""
    out = []
    for number, line in enumerate(text.splitlines(), 1):
        line = line.split("#")[0].strip()
        if not line:
            continue
        fields = line.split(maxsplit=3)
        if len(fields) < 4 or fields[1] not in answers or not fields[2].isdigit():
            raise InputFileError(
                f"{source}, line {number}: not NAME ANSWER NODES POSITION: {line!r}"
            )
        name, answer, nodes, position = fields
        out.append(Listed(name, answer, int(nodes), position))
    return out


def bench_list() -> list[Listed]:
    """The bench list: ``NAME ANSWER NODES POSITION`` lines, ``#`` comments ignored."""
    return read_list(files("solver").joinpath("bench_list.txt").read_text(), "bench_list.txt")


def stake_list() -> list[Listed]:
    """The stake list: ``NAME VALUE NODES POSITION`` lines, ``#`` comments ignored."""
    text = files("solver").joinpath("stake_list.txt").read_text()
    return read_list(text, "stake_list.txt", STAKE_VALUES)


def split(players: int, total: int) -> list[int]:
    """Hand sizes for a position of ``total`` cards, the landlord's the largest."""
    share = total // players
    return [total - (players - 1) * share] + [share] * (players - 1)


def random_positions(
    seed: int,
    count: int,
    players: int,
    lo: int,
    hi: int,
    sizes: list[int] | None = None,
    rules: RuleSet = CLASSIC,
) -> Iterator[Position]:
    """Positions (landlord to move) from shuffled decks, reproducible from the seed."""
    rng = random.Random(seed)
    deck = deck_cards(rules)
    for _ in range(count):
        total = rng.randint(lo, hi)
        rng.shuffle(deck)
        yield make_position(cut(deck, sizes or split(players, total)), rules=rules)


def timed(searcher: Searcher, pos: Position) -> tuple[str, float, int]:
    """Solve ``pos`` from an empty table: the answer (win, loss, unknown), seconds, nodes."""
    searcher.start(pos.rules)
    start = time.perf_counter()
    value = searcher.value(pos)
    seconds = time.perf_counter() - start
    answer = {True: "win", False: "loss", None: "unknown"}[side_wins(value, 0)]
    return answer, seconds, searcher.stats.nodes


def timed_stake(searcher: Searcher, pos: Position) -> tuple[str, float, int]:
    """The stake question from an empty table, with the history the position implies:
    the value (``+4``, ``-1``, or ``unknown``), seconds, nodes."""
    start = time.perf_counter()
    score = stake_score(
        searcher, pos, History.implied(pos.to_move, pos.table, pos.owner, pos.rules)
    )
    seconds = time.perf_counter() - start
    answer = "unknown" if score is None else f"{score_value(score):+d}"
    return answer, seconds, searcher.stats.nodes


#: A position for warm() that the proof-number search expands (more than PROOF_LEAF
#: cards, no quick win): its kernels are compiled before any case is timed.
WARM_PROOF = "L=3568899JQQA P1=33459TJJQK2"


def warm(searcher: Searcher) -> None:
    """Load the compiled kernels, both searches' (the proof-number search's on a position
    it expands) and the spring's, and make the searcher's proof-number table (made once
    a searcher, on the first position that needs it), so that no case's time includes
    either."""
    load_search(searcher)
    timed(Searcher(1, strategy="proof-number"), parse_position(WARM_PROOF))
    searcher.buffers.proofs()
    solve_many(np.zeros((1, 3, NUM_RANKS), np.int64))


def listed_suite(
    searcher: Searcher,
    suite: str,
    listed: list[Listed],
    solve: Callable[[Searcher, Position], tuple[str, float, int]],
) -> Iterator[Row]:
    """A list's positions, each solved by ``solve``, one row a position, with the answer
    and nodes the list expects."""
    for e in listed:
        answer, seconds, nodes = solve(searcher, parse_position(e.position))
        yield Row(
            suite,
            e.name,
            answer,
            seconds,
            nodes,
            expected_answer=e.answer,
            expected_nodes=e.nodes,
            position=e.position,
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
    def staked(self) -> list[Row]:
        return self.suite("stake list")

    @property
    def stake_signature(self) -> int:
        """The stake signature: the total node count of the stake list."""
        return sum(r.nodes for r in self.staked)

    @property
    def expected_stake_signature(self) -> int:
        return sum(r.expected_nodes or 0 for r in self.staked)

    @property
    def differences(self) -> list[Row]:
        """The listed positions whose answer or node count is not the listed one."""
        return [r for r in self.listed + self.staked if r.differs]

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
            "stake_signature": self.stake_signature,
            "expected_stake_signature": self.expected_stake_signature,
            "differences": [
                {
                    "suite": r.suite,
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
    rows = list(listed_suite(searcher, "bench list", bench_list(), timed))
    rows += listed_suite(searcher, "stake list", stake_list(), timed_stake)
    rows += deals_suite(deals)
    rows += random_suite(limited, positions)
    return Report(rows)


# The growth suite ---------------------------------------------------------------------

MEMORY_MB = DEFAULT_MEMORY_MB  # the table of every growth search: node counts depend on its size
GROWTH_COUNT = 8  # positions of each growth set
GROWTH_NODE_LIMIT = 200_000_000  # the standard limit: a minute or two a position
GROWTH_TIME_LIMIT = 60.0  # a benchmark run's clock, on top of the node limit


@dataclass(frozen=True)
class GrowthSet:
    """Three-player positions of one size, landlord to lead, from a fixed seed (the
    number of cards: a seed names the same positions on every machine). A set of
    ``deals`` is whole deals, as ``landlord deal --seed SEED`` prints them: seat 1's 17
    cards and the kitty as the landlord's hand, against 17 and 17."""

    name: str
    seed: int
    sizes: tuple[int, int, int]
    deals: bool = False

    @property
    def cards(self) -> int:
        return sum(self.sizes)

    @property
    def label(self) -> str:
        """Cards in play, and the hands (L/P1/P2)."""
        hands = "/".join(map(str, self.sizes))
        return f"{self.cards} ({hands}){' deals' if self.deals else ''}"

    def positions(self, count: int = GROWTH_COUNT) -> list[tuple[str, Position]]:
        """The set's first ``count`` positions, each with its name in the growth list."""
        if self.deals:
            made: Iterable[Position] = (
                make_position(list(d)) for d in random_deals(self.seed, count)
            )
        else:
            cards, sizes = self.cards, list(self.sizes)
            made = random_positions(self.seed, count, 3, cards, cards, sizes)
        return [(f"{self.name}-{k}", pos) for k, pos in enumerate(made, 1)]


GROWTH_SETS = (
    GrowthSet("G26", 26, (10, 8, 8)),
    GrowthSet("G32", 32, (12, 10, 10)),
    GrowthSet("G38", 38, (14, 12, 12)),
    GrowthSet("G44", 44, (16, 14, 14)),
    GrowthSet("G50", 50, (18, 16, 16)),
    GrowthSet("D54", 54, (20, 17, 17), deals=True),
)
GROWTH_LIST = "growth_list.txt"
_LIMIT_LINE = re.compile(r"#\s*(\w+):.*\bnode limit ([\d,]+)")


def growth_sets(sizes: Iterable[int] | None = None) -> list[GrowthSet]:
    """The growth sets of the given card counts (all by default), smallest first."""
    if sizes is None:
        return list(GROWTH_SETS)
    wanted = set(sizes)
    known = {s.cards for s in GROWTH_SETS}
    if wanted - known:
        raise ValueError(
            f"no growth set of {', '.join(map(str, sorted(wanted - known)))} cards: "
            f"the sets have {', '.join(map(str, sorted(known)))}"
        )
    return [s for s in GROWTH_SETS if s.cards in wanted]


def default_growth_list() -> Path:
    """Where the bundled growth list is (``--record`` writes there by default)."""
    return Path(str(files("solver").joinpath(GROWTH_LIST)))


@dataclass(frozen=True)
class GrowthList:
    """The growth list: each position's expected answer and nodes by name, and the node
    limit each set was recorded at (from its heading comment)."""

    entries: dict[str, Listed] = field(default_factory=dict)
    limits: dict[str, int] = field(default_factory=dict)


def read_growth_list(path: Path) -> GrowthList:
    """Read a growth list; ANSWER may be ``unknown``."""
    try:
        text = path.read_text()
    except OSError as e:
        raise InputFileError(f"cannot read the growth list {path}: {e.strerror or e}") from None
    entries = read_list(text, str(path), ("win", "loss", "unknown"))
    limits = {}
    for line in text.splitlines():
        found = _LIMIT_LINE.match(line)
        if found:
            limits[found[1]] = int(found[2].replace(",", ""))
    return GrowthList({e.name: e for e in entries}, limits)


def check_positions(listed: GrowthList, sets: Iterable[GrowthSet], source: str) -> None:
    """Refuse a list whose positions are not the ones the seeds give: its answers and
    nodes would be compared with another position's."""
    for s in sets:
        for name, pos in s.positions():
            entry = listed.entries.get(name)
            if entry is not None and parse_position(entry.position) != pos:
                raise InputFileError(
                    f"{source}: {name} is not the position seed {s.seed} gives "
                    f"({describe(pos)}): record the list again (landlord bench --growth --record)"
                )


def growth_rows(
    searcher: Searcher, sets: Iterable[GrowthSet], listed: GrowthList, count: int = GROWTH_COUNT
) -> Iterator[Row]:
    """Every position of the sets, solved from an empty table, one row as each is done
    (a whole run takes minutes), with the answer and nodes the list expects."""
    for s in sets:
        for name, pos in s.positions(count):
            answer, seconds, nodes = timed(searcher, pos)
            entry = listed.entries.get(name)
            yield Row(
                s.name,
                name,
                answer,
                seconds,
                nodes,
                expected_answer=entry.answer if entry else None,
                expected_nodes=entry.nodes if entry else None,
                stopped=searcher.stats.aborted if answer == "unknown" else None,
                node_limit=searcher.node_limit,
                position=describe(pos),
            )


@dataclass(frozen=True)
class Figure:
    """A median or a worst case; ``bound`` when an unanswered position (whose figure is
    only where it stopped) decides it: the true figure is at least this."""

    value: float
    bound: bool = False

    def text(self, digits: int = 2, comma: bool = False) -> str:
        shown = f"{self.value:,.0f}" if comma else f"{self.value:.{digits}f}"
        return (">" if self.bound else "") + shown


def _figures(values: list[tuple[float, bool]]) -> tuple[Figure, Figure]:
    """The median and the worst of (value, unanswered) pairs, unanswered ones last."""
    ordered = sorted(values, key=lambda v: (v[1], v[0]))
    n = len(ordered)
    middle = ordered[(n - 1) // 2 : n // 2 + 1]
    median = Figure(statistics.mean(v for v, _ in middle), any(u for _, u in middle))
    worst = Figure(max(v for v, _ in ordered), any(u for _, u in ordered))
    return median, worst


@dataclass(frozen=True)
class GrowthLine:
    """One line of the growth table: a set's figures."""

    label: str
    positions: int
    answered: int
    median: Figure
    worst: Figure
    median_nodes: Figure
    total_seconds: float

    @classmethod
    def of(cls, label: str, rows: list[tuple[str, float, int]]) -> GrowthLine:
        """The line of a set from its (answer, seconds, nodes) results."""
        median, worst = _figures([(t, a == "unknown") for a, t, _ in rows])
        nodes, _ = _figures([(float(n), a == "unknown") for a, _, n in rows])
        answered = sum(a != "unknown" for a, _, _ in rows)
        total = sum(t for _, t, _ in rows)
        return cls(label, len(rows), answered, median, worst, nodes, total)

    HEADER = (
        f"{'cards in play (L/P1/P2)':<24} {'answered':>8} {'median s':>9} {'worst s':>9} "
        f"{'median nodes':>14} {'total s':>9}"
    )

    def text(self) -> str:
        """The line under :attr:`HEADER`."""
        return (
            f"{self.label:<24} {f'{self.answered}/{self.positions}':>8} "
            f"{self.median.text(3):>9} {self.worst.text(3):>9} "
            f"{self.median_nodes.text(comma=True):>14} {self.total_seconds:>9.1f}"
        )

    def as_json(self) -> dict[str, object]:
        return {
            "cards": self.label,
            "positions": self.positions,
            "answered": self.answered,
            "median_seconds": round(self.median.value, 6),
            "median_at_least": self.median.bound,
            "worst_seconds": round(self.worst.value, 6),
            "worst_at_least": self.worst.bound,
            "median_nodes": round(self.median_nodes.value),
            "median_nodes_at_least": self.median_nodes.bound,
            "total_seconds": round(self.total_seconds, 6),
        }


@dataclass(frozen=True)
class GrowthReport:
    """The growth suite's rows, compared with the list, and the table drawn from them."""

    rows: list[Row]
    sets: list[GrowthSet]
    node_limit: int
    time_limit: float | None

    def lines(self) -> list[GrowthLine]:
        """The growth table: one line a set that was run."""
        out = []
        for s in self.sets:
            rows = [(r.answer, r.seconds, r.nodes) for r in self.rows if r.suite == s.name]
            if rows:
                out.append(GrowthLine.of(s.label, rows))
        return out

    def having(self, verdict: str) -> list[Row]:
        return [r for r in self.rows if r.verdict == verdict]

    @property
    def differences(self) -> list[Row]:
        """The listed positions whose answer or node count is not the listed one."""
        return [r for r in self.rows if r.differs]

    @property
    def nodes_per_second(self) -> float:
        return sum(r.nodes for r in self.rows) / max(sum(r.seconds for r in self.rows), 1e-9)

    def as_json(self) -> dict[str, object]:
        def case(r: Row) -> dict[str, object]:
            return {
                "case": r.case,
                "expected_answer": r.expected_answer,
                "expected_nodes": r.expected_nodes,
                "answer": r.answer,
                "nodes": r.nodes,
            }

        return {
            "rows": [r.as_json() for r in self.rows],
            "growth": [line.as_json() for line in self.lines()],
            "node_limit": self.node_limit,
            "time_limit": self.time_limit,
            "differences": [case(r) for r in self.differences],
            "newly_answered": [case(r) for r in self.having("newly answered")],
            "not_compared": [case(r) for r in self.having("not compared")],
            "nodes_per_second": round(self.nodes_per_second),
        }


def growth_searcher(node_limit: int, time_limit: float | None) -> Searcher:
    """The growth suite's searcher, warm: the standard table, and the limits."""
    searcher = Searcher(MEMORY_MB, time_limit=time_limit, node_limit=node_limit)
    warm(searcher)
    return searcher


LIST_HEADER = """\
# The growth list: the growth suite's positions (`landlord bench --growth`), each with
# the answer and nodes the search gives from an empty table of {memory} MB (the default,
# of which a search uses 64 MB until it outgrows them). A benchmark run compares every
# position with its line: another node count, or another answer, fails (exit 1); a
# position listed `unknown` that now answers is an improvement.
#
# Written by `landlord bench --growth --record [--sizes ...] [--node-limit N]`, which
# solves each position under a node limit alone (never the clock), so that what is
# recorded is the same on every machine: record again whenever the search changes. A
# set recorded below the standard node limit says so in its heading: record it again at
# the standard one when there is time (it can take minutes a position).
#
# NAME      G<cards>-<k>: three-player positions, landlord to lead, from seed <cards>;
#           D54-<k>: whole deals (`landlord deal --seed 54`), the landlord with the kitty
# ANSWER    the landlord's side's result: win, loss, or unknown (the node limit stopped it)
# NODES     the positions the search visits (for unknown, those it visited before stopping)
# POSITION  as `landlord best` reads it
"""


def set_heading(s: GrowthSet, node_limit: int) -> str:
    """A set's heading comment in the list: it carries the node limit it was recorded at,
    marked when that is below the standard one."""
    note = f" (below the standard {GROWTH_NODE_LIMIT:,})" if node_limit < GROWTH_NODE_LIMIT else ""
    return f"# {s.name}: {s.label}, seed {s.seed}, node limit {node_limit:,}{note}"


def write_growth_list(path: Path, old: GrowthList, rows: list[Row], node_limit: int) -> None:
    """Write the list: the sets of ``rows`` as recorded now, the other sets of ``old`` as
    they were."""
    recorded = {r.suite for r in rows}
    lines = [LIST_HEADER.format(memory=MEMORY_MB)]
    width = max(len(name) for name in [*old.entries, *(r.case for r in rows), "NAME"])
    for s in GROWTH_SETS:
        if s.name in recorded:
            limit = node_limit
            entries = [
                Listed(r.case, r.answer, r.nodes, r.position) for r in rows if r.suite == s.name
            ]
        else:
            entries = [e for e in old.entries.values() if e.name.startswith(f"{s.name}-")]
            limit = old.limits.get(s.name, 0)
            if not entries:
                continue
        lines.append(f"\n{set_heading(s, limit)}\n")
        lines.extend(
            f"{e.name:<{width}} {e.answer:<7} {e.nodes:>11} {e.position}\n" for e in entries
        )
    part = path.with_name(path.name + ".part")  # then renamed: never a half-written list
    part.write_text("".join(lines))
    part.replace(path)


def record_growth(
    path: Path, sets: list[GrowthSet], node_limit: int, count: int = GROWTH_COUNT
) -> Iterator[Row]:
    """Solve the sets under ``node_limit`` alone and write them into the list at ``path``
    (the other sets kept as they were), yielding each row as it is done. The list is
    written after each set, so that an interrupted recording keeps the sets it finished."""
    old = read_growth_list(path) if path.exists() else GrowthList()
    searcher = growth_searcher(node_limit, None)
    rows: list[Row] = []
    for s in sets:
        for row in growth_rows(searcher, [s], GrowthList(), count):
            rows.append(row)
            yield row
        write_growth_list(path, old, rows, node_limit)


def run_growth(
    sets: list[GrowthSet], listed: GrowthList, node_limit: int, time_limit: float | None
) -> Iterator[Row]:
    """The growth suite as a benchmark: under both limits, compared with the list."""
    searcher = growth_searcher(node_limit, time_limit)
    yield from growth_rows(searcher, sets, listed)
