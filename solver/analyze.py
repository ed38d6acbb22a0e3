"""The double-dummy table of a deal: for each seat as landlord (he takes the kitty and
leads; the two seats after him are peasant 1 and peasant 2), whether he wins with all
hands open, with a winning first move, and what the answer cost; and, when asked, what
the hand is worth to him with best play (the stake question).

The three seats of a deal are independent questions, so they run in parallel: each
worker process has its own search table, and results come back in the deals' order.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from .deals import Deal
from .endgame import load_search, solve_win
from .engines import stop_pool, tie_to_parent
from .rules import CLASSIC, RuleSet
from .scoring import History, Stake
from .search import DEFAULT_MEMORY_MB, Searcher, make_position
from .stake import solve_stake


@dataclass(frozen=True)
class SeatResult:
    """One seat's row: the forced-win answer (None when a limit stopped the search), a
    winning first move when he wins (the one the forced-win search proved, when a limit
    stopped the value), the nodes searched and the seconds taken; with the stake
    question, the value too (None when a limit stopped it, perhaps after the answer)."""

    seat: int  # 1, 2 or 3
    answer: bool | None
    move: str | None
    nodes: int
    seconds: float
    stopped_by: str | None = None
    staked: bool = False  # whether the stake question was asked: then the three below
    value: int | None = None
    points: int | None = None
    stake: Stake | None = None  # of the principal line

    @property
    def settled(self) -> bool:
        """Whether all that was asked is known: the answer, and the value if asked."""
        return self.answer is not None and (not self.staked or self.value is not None)

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "seat": self.seat,
            "answer": self.answer,
            "move": self.move,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 6),
        }
        if self.staked:
            out["value"] = self.value
            out["points"] = self.points
            out["stake"] = None if self.stake is None else self.stake.as_dict()
        if self.stopped_by:
            out["stopped_by"] = self.stopped_by
        return out


@dataclass(frozen=True)
class DealResult:
    """A deal's double-dummy table."""

    deal: Deal
    seats: tuple[SeatResult, ...]

    def as_json(self) -> dict[str, Any]:
        return {
            "name": self.deal.name,
            "deal": self.deal.describe(),
            "seats": [s.as_json() for s in self.seats],
        }


def analyze_seat(
    searcher: Searcher,
    deal: Deal,
    seat: int,
    rules: RuleSet = CLASSIC,
    bid: int | None = None,
) -> SeatResult:
    """Seat ``seat`` (1, 2 or 3) as landlord, leading: does he win (under ``rules``, so
    that ``landlord batch --ban`` asks the same of deals as of puzzles)? With a ``bid``,
    the stake question: what the hand is worth to him at that bid."""
    start = time.perf_counter()
    pos = make_position(deal.landlord_hands(seat - 1), rules=rules)
    if bid is None:
        result = solve_win(searcher, pos)
        move = result.line[0].text if result.answer and result.line else None
        stats = result.stats
        return SeatResult(
            seat, result.answer, move, stats.nodes, time.perf_counter() - start, stats.aborted
        )
    valued = solve_stake(searcher, pos, History(), bid)
    move = valued.line[0].text if valued.answer and valued.line else None
    stats = valued.stats
    return SeatResult(
        seat,
        valued.answer,  # known even when a limit stopped the value
        move,
        stats.nodes,
        time.perf_counter() - start,
        stats.aborted,
        True,
        valued.value,
        valued.points,
        valued.stake,
    )


def analyze_deal(
    searcher: Searcher, deal: Deal, rules: RuleSet = CLASSIC, bid: int | None = None
) -> DealResult:
    """A deal's table, its seats one after another on ``searcher`` (with a ``bid``, with
    their values)."""
    seats = range(1, len(deal.hands) + 1)
    return DealResult(deal, tuple(analyze_seat(searcher, deal, s, rules, bid) for s in seats))


_worker: dict[str, Any] = {}


def _start_worker(memory_mb: float, time_limit: float | None, parent: int) -> None:
    """Pool initializer: the kernels loaded (a spawned worker does not inherit them). The
    worker's own table is made at its first seat, so that a table too big for memory is
    that seat's MemoryError rather than a broken pool."""
    tie_to_parent(parent)
    _worker["settings"] = (memory_mb, time_limit)
    load_search(Searcher(1, time_limit))


def _seat_task(deal: Deal, seat: int, bid: int | None) -> SeatResult:
    if "searcher" not in _worker:
        try:
            _worker["searcher"] = Searcher(*_worker["settings"])
        except MemoryError as e:  # (numpy's own kind does not survive the way back)
            raise MemoryError(str(e)) from None
    return analyze_seat(_worker["searcher"], deal, seat, deal.rules, bid)


def analyze(
    deals: Iterable[Deal],
    memory_mb: float = DEFAULT_MEMORY_MB,
    time_limit: float | None = None,
    workers: int = 1,
    bid: int | None = None,
) -> Iterator[DealResult]:
    """The table of each deal, in order (with a ``bid``, with each seat's value); with
    ``workers`` > 1 the seats of the deals run in that many processes (each with a
    ``memory_mb`` table), a few deals ahead."""
    searcher = Searcher(memory_mb if workers <= 1 else 1, time_limit)
    load_search(searcher)
    if workers <= 1:
        for deal in deals:
            yield analyze_deal(searcher, deal, deal.rules, bid)
        return
    import concurrent.futures as cf
    import multiprocessing as mp

    context = mp.get_context("fork" if "fork" in mp.get_all_start_methods() else "spawn")
    pool = cf.ProcessPoolExecutor(
        workers, context, initializer=_start_worker, initargs=(memory_mb, time_limit, os.getpid())
    )
    try:
        pending: list[tuple[Deal, list[cf.Future[SeatResult]]]] = []
        for deal in deals:
            seats = range(1, len(deal.hands) + 1)
            pending.append((deal, [pool.submit(_seat_task, deal, s, bid) for s in seats]))
            while len(pending) * 3 >= 2 * workers + 3:  # enough work in flight
                done, futures = pending.pop(0)
                yield DealResult(done, tuple(f.result() for f in futures))
        for done, futures in pending:
            yield DealResult(done, tuple(f.result() for f in futures))
    except BaseException:  # Ctrl-C, an error, or the caller stopped early: no seat is waited for
        stop_pool(pool)
        raise
    pool.shutdown()
