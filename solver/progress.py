"""What a batch run shows while it runs and when it ends: a progress bar on stderr, and a
summary of outcomes, throughput and time per item.

Memory stays flat however long the run: time percentiles come from a fixed-size
histogram, not from the times themselves.
"""

from __future__ import annotations

import math
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import IO

import numpy as np


class TimeHistogram:
    """Percentiles of the time per item in fixed memory: bins 1% wide, from 0.1 µs."""

    LOW = 1e-7
    RATIO = 1.01
    BINS = 3000  # up to 0.1 µs x 1.01^3000, about 10^6 s

    def __init__(self) -> None:
        self.counts = np.zeros(self.BINS, np.int64)
        self.max = 0.0

    def add(self, times: np.ndarray) -> None:
        """Count these times (seconds)."""
        if not len(times):
            return
        bins = np.log(np.maximum(times, self.LOW) / self.LOW) / math.log(self.RATIO)
        self.counts += np.bincount(
            np.minimum(bins.astype(np.int64), self.BINS - 1), minlength=self.BINS
        )
        self.max = max(self.max, float(times.max()))

    def percentile(self, q: float) -> float:
        """The ``q``-th percentile, to within 1% (0 when empty)."""
        n = int(self.counts.sum())
        if not n:
            return 0.0
        i = int(np.searchsorted(np.cumsum(self.counts), max(math.ceil(q / 100 * n), 1)))
        return min(self.LOW * self.RATIO ** (i + 0.5), self.max)


def duration(seconds: float) -> str:
    """A short human duration: 3.9 µs, 12.1 ms, 2.35 s, 1:02:03."""
    if seconds < 1e-3:
        return f"{seconds * 1e6:.1f} µs"
    if seconds < 1:
        return f"{seconds * 1e3:.1f} ms"
    if seconds < 100:
        return f"{seconds:.2f} s"
    s = round(seconds)
    return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}"


def per_second(rate: float) -> str:
    """A rate, whole from ten a second (``1,234``), else to two figures (``0.49``), and
    below a hundredth ``<0.01``."""
    if rate >= 10 or rate == 0:
        return f"{rate:,.0f}"
    return f"{rate:.2g}" if rate >= 0.01 else "<0.01"


def plural(count: int, word: str) -> str:
    """``1 item``, ``2 items``, ``1,000 items``."""
    return f"{count:,} {word}{'s' * (count != 1)}"


class Progress:
    """A one-line progress bar (items done, rate, ETA), redrawn at most 5 times a second."""

    def __init__(self, total: int, stream: IO[str], enabled: bool) -> None:
        self.total = total
        self.done = 0
        self.stream = stream
        self.enabled = enabled
        self.start = time.perf_counter()
        self._drawn = 0.0

    def advance(self, items: int, dropped: int = 0) -> None:
        """Count ``items`` done, and ``dropped`` announced items that will never come."""
        self.done += items
        self.total -= dropped
        now = time.perf_counter()
        if self.enabled and (now - self._drawn >= 0.2 or self.done >= self.total):
            self._drawn = now
            self.stream.write("\r" + self.text(now) + "\033[K")
            self.stream.flush()

    def text(self, now: float) -> str:
        """The bar as it stands at ``now`` (a ``perf_counter`` reading)."""
        rate = self.done / max(now - self.start, 1e-9)
        left = max(self.total - self.done, 0)
        eta = "0 s" if not left else duration(left / rate) if rate > 0 else "?"
        pct = 100 * self.done / self.total if self.total > 0 else 100.0
        fill = int(24 * min(pct, 100) / 100)
        return (
            f"[{'#' * fill}{'-' * (24 - fill)}] {self.done:,}/{max(self.total, self.done):,}"
            f" items {pct:5.1f}%  {per_second(rate)}/s  ETA {eta}"
        )

    def erase(self) -> None:
        """Clear the bar (before other output on the same terminal)."""
        if self.enabled:
            self.stream.write("\r\033[K")
            self.stream.flush()


@dataclass
class Summary:
    """What a run did: counts by outcome (a deal's by seat), throughput and time per item."""

    counts: Counter[str] = field(default_factory=Counter)
    times: TimeHistogram = field(default_factory=TimeHistogram)
    items: int = 0
    skipped: int = 0
    seconds: float = 0.0
    workers: int = 1

    def add(self, counts: Counter[str], times: np.ndarray, items: int) -> None:
        """Count a finished task's items: by outcome, their times, how many."""
        self.counts.update(counts)
        self.times.add(times)
        self.items += items

    def text(self, out_name: str) -> str:
        """The summary's lines; ``out_name`` is where the skipped items already are.

        Contest cases and puzzles are counted by answer; deals, whose one line holds
        three answers, by seat on a line of their own. A run of deals alone (bad ones
        included) has no answers line: its errors and skips end the deals line instead.
        """
        c = self.counts
        rate = self.items / self.seconds if self.seconds > 0 else 0.0
        lines = [
            f"{plural(self.items, 'item')} in {duration(self.seconds)} "
            f"({per_second(rate)} items/s, {plural(self.workers, 'worker')})"
        ]
        skipped = f"; {self.skipped:,} skipped (already in {out_name})" if self.skipped else ""
        errors = plural(c["error"], "error")
        deals = c["deals"]
        deal_items = deals + c["deal_error"]
        answered = c["yes"] + c["no"] + c["unknown"]
        if answered or not deal_items:
            lines.append(
                f"  answers: {c['yes']:,} yes, {c['no']:,} no, {c['unknown']:,} unknown; "
                f"{errors}, {c['mismatch']:,} mismatched" + skipped
            )
        if deal_items:
            seats = c["seat_yes"] + c["seat_no"] + c["seat_unknown"]
            lines.append(
                f"  deals: {plural(deals, 'deal')}, {plural(seats, 'seat')} as landlord: "
                f"{c['seat_yes']:,} win, {c['seat_no']:,} lose, {c['seat_unknown']:,} unknown"
                + ("" if answered else f"; {errors}" + skipped)
            )
        if self.times.counts.any():
            p = self.times.percentile
            lines.append(
                f"  time per item: p50 {duration(p(50))}, p90 {duration(p(90))}, "
                f"p99 {duration(p(99))}, max {duration(self.times.max)}"
            )
        return "\n".join(lines)
