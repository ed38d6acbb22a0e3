"""Batch runs: contest cases, puzzles and deals by the thousand, solved in parallel,
streamed to JSON lines.

Items (named as :mod:`solver.sources` says) travel in tasks, thousands of few-µs spring
cases, a few puzzles or one deal (three searches), so that a pool's cost per task is
spread thin. A task returns its finished JSON lines, already encoded, and the one parent
process writes and flushes them as soon as the task is done: a killed run loses only the
tasks in flight. Memory stays flat: contest files are read a task's cases at a time, and
a bounded number of tasks is in flight (see :mod:`solver.engines`).
"""

from __future__ import annotations

import gc
import json
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from typing import IO, TypeVar

import numpy as np

from .analyze import analyze_deal
from .api import Solver
from .cards import format_hand
from .contest import contest_chunks
from .deals import Deal
from .endgame import load_search
from .engines import Engine
from .errors import InputFileError, LandlordError, OutputError, quoted
from .progress import Progress, Summary
from .puzzles import Puzzle
from .resume import NOTHING, Asked, Finished, empty
from .rules import rule_set
from .scoring import Stake
from .search import DEFAULT_MEMORY_MB, Searcher
from .sources import Source
from .spring import spring_line, workspace

TASK_CASES = 8192  # contest cases per task: about 45 ms of work, a short tail for a pool
TASK_WEIGHT = 16  # a task holds up to 16 spring puzzles, or a single win puzzle
ANSWER_NAMES = {True: "yes", False: "no", None: "unknown"}


@dataclass(frozen=True)
class Settings:
    """How every item of a run is solved (the same in every worker)."""

    question: str | None = None  # overrides each puzzle's question; contest cases are springs
    bans: tuple[str, ...] = ()  # for every item (a deal's seats too)
    memory_mb: float = DEFAULT_MEMORY_MB
    time_limit: float | None = None  # of each search: each seat of a deal
    all_moves: bool = False
    bid: int | None = None  # for every puzzle, instead of its own
    rules: str = "classic"  # the game of contest and deal files (puzzles name their own)

    def puzzle_question(self, puzzle: Puzzle) -> str:
        """The question a puzzle is asked: the run's, else its own."""
        return self.question or puzzle.question

    @property
    def deal_question(self) -> str:
        """What a deal's table answers: the stake question when the run asks it, else the
        forced win."""
        return "stake" if self.question == "stake" else "win"


@dataclass
class Task:
    """Items of one source sent to a worker: contest deals, puzzles or deals before the
    auction, with their numbers."""

    source: str
    numbers: np.ndarray  # 1-based item numbers in the source
    deals: np.ndarray | None = None  # (n, players, 15) uint8 rank counts
    puzzles: tuple[Puzzle, ...] = ()
    open_deals: tuple[Deal, ...] = ()  # each answered with its double-dummy table


@dataclass
class TaskResult:
    """A finished task: its JSON lines, counts by outcome, and the time of each item."""

    data: bytes  # the lines, UTF-8
    counts: Counter[str]
    times: np.ndarray
    items: int  # lines in ``data``
    dropped: int = 0  # items announced but never read (a contest file cut by a bad case)


def error_result(item: str, message: str, dropped: int = 0, deal: bool = False) -> TaskResult:
    """The result of a bad item: one error line (counted as a deal's too, for a deal)."""
    data = (json.dumps({"id": item, "error": message}) + "\n").encode()
    return TaskResult(data, Counter(error=1, deal_error=int(deal)), np.zeros(0), 1, dropped)


def asked_questions(sources: list[Source], settings: Settings) -> Asked:
    """The question the run asks of each item, for ``--resume`` to tell a result of
    another question from a finished one: a contest case's is the spring; a puzzle's its
    own, or the run's --question; a deal's table answers the stake question or the
    forced win."""
    listed: dict[str, list[str | None]] = {}
    for src in sources:
        if src.puzzles is not None:
            listed[src.name] = [
                None if isinstance(p, InputFileError) else settings.puzzle_question(p)
                for p in src.puzzles
            ]
        elif src.open_deals is not None:
            listed[src.name] = [settings.deal_question] * len(src.open_deals)
    contest = {src.name for src in sources if not src.listed and src.error is None}

    def asked(source: str, number: int) -> str | None:
        questions = listed.get(source)
        if questions is not None:
            return questions[number - 1] if 0 < number <= len(questions) else None
        return "spring" if source in contest and number > 0 else None

    return asked


class Plan:
    """The tasks of a run, skipping the items already finished: a contest file's made as
    it is read, a puzzle or deal file's (its items are in memory already) up front."""

    def __init__(
        self, sources: list[Source], settings: Settings, finished: dict[str, Finished]
    ) -> None:
        self.sources = sources
        self.settings = settings
        self.finished = finished
        self.skipped = 0  # items skipped so far because they were finished
        self.total = sum(max(s.total - len(finished.get(s.name, NOTHING)), 0) for s in sources)
        self._listed_work = {
            s.name: list(self._puzzle_tasks(s) if s.puzzles is not None else self._deal_tasks(s))
            for s in sources
            if s.listed
        }

    def tasks(self) -> Iterator[Task | TaskResult]:
        """Tasks for the workers, and the results of bad items (found while reading)."""
        for src in self.sources:
            if src.error is not None:
                yield error_result(src.name, src.error)
            elif src.listed:
                yield from self._listed_work[src.name]
            else:
                yield from self._case_tasks(src)

    def max_tasks(self) -> int:
        """At most how many tasks :meth:`tasks` gives (a pool needs no more workers)."""
        count = sum(isinstance(t, Task) for work in self._listed_work.values() for t in work)
        for src in self.sources:
            if src.error is None and not src.listed:
                left = src.total - len(self.finished.get(src.name, NOTHING))
                count += min(-(-src.total // TASK_CASES), max(left, 0))
        return count

    def needs_search(self) -> bool:
        """Whether any item searches: a win puzzle or a deal (so workers should load the
        search)."""
        return self.asks_search() or self.has_deals()

    def asks_search(self) -> bool:
        """Whether any puzzle asks a question that searches, win or stake (so workers
        need a puzzle solver's search table)."""
        return any(
            isinstance(p, Puzzle) and self.settings.puzzle_question(p) != "spring"
            for s in self.sources
            for p in s.puzzles or ()
        )

    def has_deals(self) -> bool:
        """Whether any deal is to be solved (so workers need a deal searcher's table)."""
        return any(
            isinstance(t, Task) and t.open_deals
            for work in self._listed_work.values()
            for t in work
        )

    def _case_tasks(self, src: Source) -> Iterator[Task | TaskResult]:
        done = self.finished.get(src.name, NOTHING)
        try:
            with src.contest() as file:
                game = rule_set(self.settings.rules)
                for part in contest_chunks(file, src.name, game, chunk=TASK_CASES):
                    numbers = np.arange(1, len(part.hands) + 1, dtype=np.int64) + part.first
                    deals = part.hands
                    if len(done):
                        todo = done.todo(numbers)
                        self.skipped += int(len(numbers) - todo.sum())
                        numbers, deals = numbers[todo], deals[todo]
                    if len(numbers):
                        yield Task(src.name, numbers, deals.astype(np.uint8))
                    if part.error is not None:
                        bad = part.first + len(part.hands) + 1
                        note = "; the cases after it are not read" if bad < part.declared else ""
                        yield error_result(
                            f"{src.name}#{bad}", f"{part.error}{note}", part.declared - bad
                        )
        except OSError as e:  # gone or unreadable since the run began
            yield error_result(src.name, f"{src.path}: cannot read: {e.strerror or e}")

    def _puzzle_tasks(self, src: Source) -> Iterator[Task | TaskResult]:
        assert src.puzzles is not None
        done = self.finished.get(src.name, NOTHING)
        numbers: list[int] = []
        puzzles: list[Puzzle] = []
        weight = 0
        for k, item in enumerate(src.puzzles, 1):
            if k in done:
                self.skipped += 1
                continue
            if isinstance(item, InputFileError):
                yield error_result(f"{src.name}#{k}", str(item))
                continue
            numbers.append(k)
            puzzles.append(item.asked(bans=self.settings.bans, bid=self.settings.bid))
            question = self.settings.puzzle_question(item)
            weight += TASK_WEIGHT if question != "spring" else 1
            if weight >= TASK_WEIGHT:
                yield Task(src.name, np.array(numbers, np.int64), puzzles=tuple(puzzles))
                numbers, puzzles, weight = [], [], 0
        if numbers:
            yield Task(src.name, np.array(numbers, np.int64), puzzles=tuple(puzzles))

    def _deal_tasks(self, src: Source) -> Iterator[Task | TaskResult]:
        """A task a deal: its three searches weigh at least as much as a win puzzle."""
        assert src.open_deals is not None
        done = self.finished.get(src.name, NOTHING)
        for k, item in enumerate(src.open_deals, 1):
            if k in done:
                self.skipped += 1
            elif isinstance(item, InputFileError):
                yield error_result(f"{src.name}#{k}", str(item), deal=True)
            else:
                yield Task(src.name, np.array([k], np.int64), open_deals=(item,))


# -- solving (in the workers) ------------------------------------------------------------


class WorkerState:
    """One worker thread's buffers: the spring workspace and rule array, a puzzle solver
    (with its search table) and a deal searcher (with its own), each made when an item
    first needs it."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.rule_set = rule_set(settings.rules).with_bans(settings.bans)
        self.rules = self.rule_set.array()
        self.ws = workspace()
        self._solver: Solver | None = None
        self._searcher: Searcher | None = None

    @property
    def solver(self) -> Solver:
        """The puzzle solver (its spring kernels loaded)."""
        if self._solver is None:
            s = self.settings
            self._solver = Solver(s.memory_mb, s.time_limit, s.all_moves)
        return self._solver

    @property
    def searcher(self) -> Searcher:
        """The deals' searcher (its kernels loaded), with the run's limits."""
        if self._searcher is None:
            searcher = Searcher(self.settings.memory_mb, self.settings.time_limit)
            load_search(searcher)
            self._searcher = searcher
        return self._searcher


_local = threading.local()  # one state per worker thread (Dask may run tasks in threads)


def worker_state(settings: Settings) -> WorkerState:
    """This thread's state for ``settings``, made once."""
    state = getattr(_local, "state", None)
    if state is None or state.settings != settings:
        state = _local.state = WorkerState(settings)
    return state


def prepare(plan: Plan) -> None:
    """Load (or compile) the kernels the plan needs, in this process before any worker is
    forked, so that no worker loads them again and no item's time includes it.

    What is loaded by then lives as long as the process, so the garbage collector is
    told to leave it alone: it never scans those objects again, a forked worker need
    not copy their pages, and the exit skips them (tens of ms).
    """
    state = worker_state(plan.settings)
    spring_line(np.eye(state.rule_set.players, 15, dtype=np.int64), state.rules, state.ws)
    if plan.asks_search():
        state.solver.prepare("win")
    if plan.has_deals():
        state.searcher  # noqa: B018 (made and loaded here, before the fork)
    gc.freeze()


def run_task(task: Task, settings: Settings) -> TaskResult:
    """Solve a task's items: one JSON line each (id, question, answer, line, seconds; a
    deal's id, name, deal and seats)."""
    state = worker_state(settings)
    lines: list[str] = []
    times: list[float] = []
    counts: Counter[str] = Counter()
    if task.deals is not None:
        _solve_deals(task, state, lines, times, counts)
    elif task.open_deals:
        _solve_open_deals(task, state, lines, times, counts)
    else:
        _solve_puzzles(task, state, lines, times, counts)
    data = "".join(line + "\n" for line in lines).encode()
    return TaskResult(data, counts, np.array(times, np.float64), len(lines))


def _solve_deals(
    task: Task, state: WorkerState, lines: list[str], times: list[float], counts: Counter[str]
) -> None:
    """Contest cases, on the spring kernel directly: the lines are written by hand (the
    same JSON that ``json.dumps`` gives) because at a few µs a case, formatting counts."""
    assert task.deals is not None
    deals = task.deals.astype(np.int64)
    rules, ws = state.rules, state.ws
    head = '{"id": ' + json.dumps(task.source)[:-1]
    bid = state.settings.bid or 1
    yes = no = 0
    for i, k in enumerate(task.numbers.tolist()):
        start = time.perf_counter()
        plays = spring_line(deals[i], rules, ws)
        seconds = time.perf_counter() - start
        times.append(seconds)
        if plays:
            yes += 1
            line = json.dumps([format_hand(p) for p in plays])
            stake_json = json.dumps(Stake.of_spring(plays, bid, state.rule_set).as_dict())
        else:
            no += 1
            line, stake_json = "[]", "null"
        lines.append(
            f'{head}#{k}", "question": "spring", "answer": {"true" if plays else "false"}, '
            f'"line": {line}, "seconds": {round(seconds, 6)!r}, "stake": {stake_json}}}'
        )
    counts.update(yes=yes, no=no)


T = TypeVar("T")


def _attempt(
    solve: Callable[[], T],
    item: str,
    where: str,
    state: WorkerState,
    lines: list[str],
    counts: Counter[str],
) -> T | None:
    """``solve()``; or, when the item is bad or the table does not fit in memory, None
    and the item's error line."""
    try:
        return solve()
    except LandlordError as e:
        message = f"{where}: {e}"
    except MemoryError:
        message = f"{where}: not enough memory for a {state.settings.memory_mb:.15g} MB table"
    lines.append(json.dumps({"id": item, "error": message}))
    counts["error"] += 1
    return None


def _solve_puzzles(
    task: Task, state: WorkerState, lines: list[str], times: list[float], counts: Counter[str]
) -> None:
    """Puzzles, through the API: the same JSON objects as ``landlord solve --json``."""
    settings = state.settings
    for k, puzzle in zip(task.numbers.tolist(), task.puzzles, strict=True):
        item = f"{task.source}#{k}"
        where = puzzle.where
        sol = _attempt(
            partial(state.solver.solve, puzzle, settings.question),
            item,
            where,
            state,
            lines,
            counts,
        )
        if sol is None:
            continue
        times.append(sol.seconds)
        counts[ANSWER_NAMES[sol.answer if sol.settled else None]] += 1
        counts["mismatch"] += sol.mismatch
        lines.append(json.dumps({"id": item, **sol.as_json()}))


def _solve_open_deals(
    task: Task, state: WorkerState, lines: list[str], times: list[float], counts: Counter[str]
) -> None:
    """Deals before the auction, through the analyze code: the same JSON objects as
    ``landlord analyze --json``. Counted by deal and by seat (``seat_yes``, ...), apart
    from the answers of puzzles and cases; a deal's time is its three seats'. Asked the
    stake question, each seat's value too. Each deal is played by its own game (a file's
    ``rules`` key, else ``--rules``), with the run's bans."""
    settings = state.settings
    bid = (settings.bid or 1) if settings.deal_question == "stake" else None
    for k, deal in zip(task.numbers.tolist(), task.open_deals, strict=True):
        item = f"{task.source}#{k}"
        where = f"{deal.file}, line {deal.line}, deal {quoted(deal.name)}"
        result = _attempt(
            partial(analyze_deal, state.searcher, deal, deal.rules.with_bans(settings.bans), bid),
            item,
            where,
            state,
            lines,
            counts,
        )
        if result is None:
            counts["deal_error"] += 1
            continue
        times.append(sum(s.seconds for s in result.seats))
        counts["deals"] += 1
        counts.update(f"seat_{ANSWER_NAMES[s.answer if s.settled else None]}" for s in result.seats)
        lines.append(json.dumps({"id": item, **result.as_json()}))


# -- running -----------------------------------------------------------------------------


def run(
    plan: Plan,
    engine: Engine,
    out: IO[bytes],
    progress: Progress,
    summary: Summary,
    fresh: bool = False,
) -> None:
    """Solve the plan, writing each task's lines (flushed) as soon as it finishes; with
    ``fresh``, empty ``out`` once the engine is up (so that a run that cannot start
    leaves an old output alone), and no sooner than the first lines are to be written,
    so that the workers start meanwhile.

    ``summary`` is filled as results arrive, so a caller still has it when the run is
    interrupted or stopped.
    """
    start = progress.start = time.perf_counter()
    finished = started = False
    try:
        prepare(plan)  # not timed
        results = engine.results(plan.tasks(), partial(run_task, settings=plan.settings), Task)
        started = True
        start = progress.start = time.perf_counter()
        shared_terminal = progress.enabled and out.isatty()
        for result in results:
            if fresh:
                empty(out)
                fresh = False
            if shared_terminal:
                progress.erase()
            try:
                out.write(result.data)
                out.flush()
            except OSError as e:
                name = getattr(out, "name", "the output")
                raise OutputError(
                    f"{name}: cannot write: {e.strerror or e}", isinstance(e, BrokenPipeError)
                ) from None
            summary.add(result.counts, result.times, result.items)
            summary.skipped = plan.skipped
            summary.seconds = time.perf_counter() - start
            progress.advance(result.items, result.dropped)
        finished = True
    finally:
        if fresh and started:  # stopped before any line: emptied all the same
            empty(out)
        summary.skipped = plan.skipped
        summary.seconds = time.perf_counter() - start
        summary.workers = engine.workers
        progress.erase()
        engine.close(finished)
