"""Batch runs: contest cases and puzzles by the thousand, solved in parallel, streamed to
JSON lines.

Every item has an id that names its source and its number there (``deals.in#12``, the
12th case of a contest file; ``set.toml#3``, a puzzle file's third puzzle; ``<stdin>#5``),
the same from run to run, so that a resumed run skips what the output already holds.
Items travel in tasks (a couple of thousand 4 µs spring cases, or a few puzzles), so that
a pool's cost per task is spread thin. A task returns its finished JSON lines, and the
one parent process writes and flushes them as soon as the task is done: a killed run
loses only the tasks in flight. Memory stays flat: contest files are read a chunk at a
time, a bounded number of tasks is in flight, and time percentiles come from a
fixed-size histogram.
"""

from __future__ import annotations

import json
import math
import os
import queue
import re
import sys
import threading
import time
from array import array
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import IO, Any

import numpy as np

from .api import Solver
from .cards import format_hand
from .contest import Buffer, contest_chunks, declared_cases, open_input
from .errors import InputFileError, LandlordError
from .puzzles import Puzzle, load_file, load_text
from .rules import CLASSIC
from .search import DEFAULT_MEMORY_MB
from .spring import spring_line, workspace

TASK_CASES = 2048  # contest cases per task
TASK_WEIGHT = 16  # a task holds up to 16 spring puzzles, or a single win puzzle
STDIN = "<stdin>"
ANSWER_NAMES = {True: "yes", False: "no", None: "unknown"}


@dataclass(frozen=True)
class Settings:
    """How every item of a run is solved (the same in every worker)."""

    question: str | None = None  # overrides each puzzle's question; contest cases are springs
    bans: tuple[str, ...] = ()
    memory_mb: float = DEFAULT_MEMORY_MB
    time_limit: float | None = None
    all_moves: bool = False


@dataclass
class Source:
    """One input: a contest file's bytes, a puzzle file's puzzles, or why it is unusable."""

    name: str
    data: Buffer | None = None
    puzzles: list[Puzzle | InputFileError] | None = None
    error: str | None = None
    total: int = 1  # items in it: T for a contest file


@dataclass
class Task:
    """Items of one source sent to a worker: contest deals or puzzles, with their numbers."""

    source: str
    numbers: np.ndarray  # 1-based item numbers in the source
    deals: np.ndarray | None = None  # (n, 3, 15) uint8 rank counts
    puzzles: tuple[Puzzle, ...] = ()


@dataclass
class TaskResult:
    """A finished task: its JSON lines, counts by outcome, and the time of each item."""

    text: str
    counts: Counter[str]
    times: np.ndarray
    items: int  # lines in ``text``
    dropped: int = 0  # items announced but never read (a contest file cut by a bad case)


def split_id(item: str) -> tuple[str, int]:
    """An id as (source, number); a whole source's id (an unreadable file) has number 0."""
    source, _, number = item.rpartition("#")
    return (source, int(number)) if source and number.isdigit() else (item, 0)


def error_result(item: str, message: str, dropped: int = 0) -> TaskResult:
    """The result of a bad item: one error line."""
    text = json.dumps({"id": item, "error": message}) + "\n"
    return TaskResult(text, Counter(error=1), np.zeros(0), 1, dropped)


# -- reading the inputs ------------------------------------------------------------------


def read_sources(inputs: list[str], stdin: IO[bytes]) -> list[Source]:
    """The sources named: files, folders (their ``*.toml`` and ``*.in`` files), ``-``.

    A ``.toml`` file is a puzzle file; any other file is a contest file. Standard input
    holds either (``landlord deal`` writes both), told apart by its first character.
    """
    out = []
    seen: set[str] = set()
    for name in inputs:
        if name == "-":
            if STDIN in seen:
                continue
            seen.add(STDIN)
            data = stdin.read()
            if data.lstrip()[:1].isdigit() or not data.strip():
                out.append(_contest(STDIN, data))
            else:
                items = load_text(data, STDIN, "stdin")
                out.append(Source(STDIN, puzzles=items, total=len(items)))
            continue
        path = Path(_id_path(name))
        if path.is_dir():
            files = sorted(
                p for p in path.rglob("*") if p.suffix in (".toml", ".in") and p.is_file()
            )
            if not files:
                raise InputFileError(f"{name}: no puzzle (*.toml) or contest (*.in) file in it")
        elif path.exists():
            files = [path]
        else:
            raise InputFileError(f"{name}: no such file or folder")
        for f in files:
            if str(f) in seen:  # named twice (or a file and its folder): solved once
                continue
            seen.add(str(f))
            if f.suffix == ".toml":
                items = load_file(f)
                out.append(Source(str(f), puzzles=items, total=len(items)))
                continue
            try:
                with open(f, "rb") as file:
                    out.append(_contest(str(f), open_input(file)))
            except OSError as e:
                out.append(Source(str(f), error=f"{f}: cannot read: {e.strerror or e}"))
    return out


def _id_path(name: str) -> str:
    """A path as ids spell it: relative to the working folder when inside it (links
    resolved), else absolute, so that ``deals.in``, ``./deals.in`` and its full path
    name the same items."""
    full = Path(name).resolve()
    try:
        return str(full.relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(full)


def _contest(name: str, data: Buffer) -> Source:
    try:
        declared, _ = declared_cases(data, name)
    except InputFileError as e:
        return Source(name, error=str(e))
    return Source(name, data=data, total=declared)


class Finished:
    """The item numbers of one source that an output file already holds (sorted)."""

    def __init__(self, numbers: np.ndarray) -> None:
        self.numbers = numbers

    def __contains__(self, number: int) -> bool:
        i = int(np.searchsorted(self.numbers, number))
        return i < len(self.numbers) and int(self.numbers[i]) == number

    def __len__(self) -> int:
        return len(self.numbers)

    def todo(self, numbers: np.ndarray) -> np.ndarray:
        """A mask of the ``numbers`` still to solve."""
        return ~np.isin(numbers, self.numbers, assume_unique=True)


NOTHING = Finished(np.zeros(0, np.int64))
_ID = re.compile(rb'\{"id": ("(?:[^"\\]|\\.)*")')


def finished_items(path: Path) -> dict[str, Finished]:
    """The ids already in an output file, by source, for ``--resume``.

    A last line left half-written (the run was killed mid-write) is cut off the file, so
    that appending starts on a fresh line; any other line that is not a result is an
    error (the file is not this command's output).
    """
    numbers: dict[str, array] = {}
    complete = 0
    try:
        file = open(path, "rb")
    except FileNotFoundError:
        return {}
    except OSError as e:
        raise InputFileError(f"{path}: cannot read: {e.strerror or e}") from None
    with file:
        for i, line in enumerate(file, 1):
            if not line.endswith(b"\n"):
                break
            complete += len(line)
            if not line.strip():
                continue
            m = _ID.match(line)
            try:
                item = json.loads(m.group(1) if m else json.loads(line)["id"])
            except (ValueError, KeyError, TypeError):
                item = None
            if not isinstance(item, str):
                raise InputFileError(
                    f'{path}, line {i}: not a batch result (a JSON object with an "id"), '
                    "so there is nothing to resume"
                )
            source, number = split_id(item)
            numbers.setdefault(source, array("q")).append(number)
    if complete < path.stat().st_size:
        os.truncate(path, complete)
    return {s: Finished(np.unique(np.frombuffer(a, np.int64))) for s, a in numbers.items()}


class Plan:
    """The tasks of a run, made lazily, skipping the items already finished."""

    def __init__(
        self, sources: list[Source], settings: Settings, finished: dict[str, Finished]
    ) -> None:
        self.sources = sources
        self.settings = settings
        self.finished = finished
        self.skipped = 0  # items skipped so far because they were finished
        self.total = sum(max(s.total - len(finished.get(s.name, NOTHING)), 0) for s in sources)

    def tasks(self) -> Iterator[Task | TaskResult]:
        """Tasks for the workers, and the results of bad items (found while reading)."""
        for src in self.sources:
            done = self.finished.get(src.name, NOTHING)
            if 0 in done:  # the whole source was recorded as unusable
                self.skipped += 1
            elif src.error is not None:
                yield error_result(src.name, src.error)
            elif src.puzzles is not None:
                yield from self._puzzle_tasks(src, done)
            else:
                yield from self._case_tasks(src, done)

    def _case_tasks(self, src: Source, done: Finished) -> Iterator[Task | TaskResult]:
        assert src.data is not None
        for part in contest_chunks(src.data, src.name):
            for at in range(0, len(part.hands), TASK_CASES):
                deals = part.hands[at : at + TASK_CASES]
                numbers = np.arange(len(deals), dtype=np.int64) + (part.first + at + 1)
                if len(done):
                    todo = done.todo(numbers)
                    self.skipped += int(len(numbers) - todo.sum())
                    numbers, deals = numbers[todo], deals[todo]
                if len(numbers):
                    yield Task(src.name, numbers, deals.astype(np.uint8))
            if part.error is not None:
                bad = part.first + len(part.hands) + 1
                after = part.declared - bad
                note = f" ({after} case{'s' * (after != 1)} after it not read)" if after else ""
                if bad in done:
                    self.skipped += 1
                else:
                    yield error_result(f"{src.name}#{bad}", f"{part.error}{note}", after)

    def _puzzle_tasks(self, src: Source, done: Finished) -> Iterator[Task | TaskResult]:
        assert src.puzzles is not None
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
            puzzles.append(replace(item, rules=item.rules.with_bans(self.settings.bans)))
            weight += TASK_WEIGHT if (self.settings.question or item.question) == "win" else 1
            if weight >= TASK_WEIGHT:
                yield Task(src.name, np.array(numbers, np.int64), puzzles=tuple(puzzles))
                numbers, puzzles, weight = [], [], 0
        if numbers:
            yield Task(src.name, np.array(numbers, np.int64), puzzles=tuple(puzzles))

    def needs_search(self) -> bool:
        """Whether any item asks the win question (so workers should load the search)."""
        if self.settings.question is not None:
            return self.settings.question == "win" and any(s.puzzles for s in self.sources)
        return any(
            isinstance(p, Puzzle) and p.question == "win"
            for s in self.sources
            for p in s.puzzles or ()
        )


# -- solving (in the workers) ------------------------------------------------------------

_local = threading.local()  # one solver per worker thread (Dask may run tasks in threads)


def worker_state(settings: Settings) -> tuple[Solver, np.ndarray, np.ndarray]:
    """This thread's solver, spring workspace and rule array, made once per settings."""
    state = getattr(_local, "state", None)
    if state is None or state[0] != settings:
        solver = Solver(settings.memory_mb, settings.time_limit, settings.all_moves)
        rules = CLASSIC.with_bans(settings.bans).array()
        state = _local.state = (settings, solver, workspace(), rules)
    return state[1], state[2], state[3]


def run_task(task: Task, settings: Settings) -> TaskResult:
    """Solve a task's items: one JSON line each (id, question, answer, line, seconds)."""
    solver, ws, rules = worker_state(settings)
    lines: list[str] = []
    times: list[float] = []
    counts: Counter[str] = Counter()
    if task.deals is not None:
        _solve_deals(task, rules, ws, lines, times, counts)
    else:
        _solve_puzzles(task, settings, solver, lines, times, counts)
    text = "".join(line + "\n" for line in lines)
    return TaskResult(text, counts, np.array(times, np.float64), len(lines))


def _solve_deals(
    task: Task,
    rules: np.ndarray,
    ws: np.ndarray,
    lines: list[str],
    times: list[float],
    counts: Counter[str],
) -> None:
    """Contest cases, on the spring kernel directly: the lines are written by hand (the
    same JSON that ``json.dumps`` gives) because at a few µs a case, formatting counts."""
    assert task.deals is not None
    deals = task.deals.astype(np.int64)
    head = '{"id": ' + json.dumps(task.source)[:-1]
    yes = no = 0
    for i, k in enumerate(task.numbers.tolist()):
        start = time.perf_counter()
        plays = spring_line(deals[i], rules, ws)
        seconds = time.perf_counter() - start
        times.append(seconds)
        if plays:
            yes += 1
            line = json.dumps([format_hand(p) for p in plays])
        else:
            no += 1
            line = "[]"
        lines.append(
            f'{head}#{k}", "question": "spring", "answer": {"true" if plays else "false"}, '
            f'"line": {line}, "seconds": {round(seconds, 6)!r}}}'
        )
    counts.update(yes=yes, no=no)


def _solve_puzzles(
    task: Task,
    settings: Settings,
    solver: Solver,
    lines: list[str],
    times: list[float],
    counts: Counter[str],
) -> None:
    """Puzzles, through the API: the same JSON objects as ``landlord solve --json``."""
    for k, puzzle in zip(task.numbers.tolist(), task.puzzles, strict=True):
        item = f"{task.source}#{k}"
        where = f"{puzzle.file}, line {puzzle.line}, puzzle {puzzle.name!r}"
        try:
            sol = solver.solve(puzzle, settings.question)
        except LandlordError as e:
            lines.append(json.dumps({"id": item, "error": f"{where}: {e}"}))
            counts["error"] += 1
            continue
        except MemoryError:
            message = f"{where}: not enough memory for a {settings.memory_mb:g} MB table"
            lines.append(json.dumps({"id": item, "error": message}))
            counts["error"] += 1
            continue
        times.append(sol.seconds)
        counts[ANSWER_NAMES[sol.answer]] += 1
        counts["mismatch"] += sol.mismatch
        lines.append(json.dumps({"id": item, **sol.as_json()}))


def _die_with_parent(parent: int) -> None:
    """Pool initializer: a worker ends when the batch process is killed, even by SIGKILL."""
    if sys.platform.startswith("linux"):
        import ctypes
        import signal

        try:
            ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            pass
    if os.getppid() != parent:  # killed before the line above took effect
        os._exit(1)


# -- running -----------------------------------------------------------------------------


class WorkerDied(LandlordError):
    """A worker process died (killed, or out of memory): the run cannot go on."""


def _streamed(
    submit: Callable[[Task], Any], tasks: Iterator[Task | TaskResult], in_flight: int
) -> Iterator[TaskResult]:
    """Results in the order tasks finish, with at most ``in_flight`` tasks submitted."""
    finished: queue.SimpleQueue = queue.SimpleQueue()
    owner: dict[Any, Task] = {}

    def collect(block: bool) -> Iterator[TaskResult]:
        while owner:
            try:
                future = finished.get(block=block)
            except queue.Empty:
                return
            task = owner.pop(future)
            yield _outcome(future, task)
            block = False

    for task in tasks:
        if isinstance(task, TaskResult):
            yield task
            continue
        future = submit(task)
        owner[future] = task
        future.add_done_callback(finished.put)
        yield from collect(block=len(owner) >= in_flight)
    while owner:
        yield from collect(block=True)


def _outcome(future: Any, task: Task) -> TaskResult:
    """A finished future's result; an unexpected failure becomes error lines for its items."""
    from concurrent.futures.process import BrokenProcessPool

    try:
        return future.result()
    except BrokenProcessPool as e:
        raise WorkerDied(f"a worker process died ({e})") from None
    except Exception as e:  # noqa: BLE001 (a bug in one task must not lose the run)
        lines = "".join(
            json.dumps({"id": f"{task.source}#{k}", "error": f"internal error: {e!r}"}) + "\n"
            for k in task.numbers.tolist()
        )
        n = len(task.numbers)
        return TaskResult(lines, Counter(error=n, internal=n), np.zeros(0), n)


class Engine:
    """Where the tasks run: this process, a local process pool, or a Dask cluster."""

    def __init__(self, settings: Settings, workers: int = 1, scheduler: str | None = None):
        self.settings = settings
        self.workers = workers
        self.scheduler = scheduler
        self._close: Callable[[], None] = lambda: None

    def results(self, plan: Plan) -> Iterator[TaskResult]:
        """Run the plan's tasks; results as they finish."""
        solver, _, _ = worker_state(self.settings)  # compiled before any fork
        if plan.needs_search():
            solver.prepare("win")
        tasks = plan.tasks()
        if self.scheduler is not None:
            client = _dask_client(self.scheduler)
            self._close = client.close
            threads = sum(client.nthreads().values()) or 1
            self.workers = threads

            def submit(task: Task) -> Any:
                return client.submit(run_task, task, self.settings, pure=False)

            return _streamed(submit, tasks, 2 * threads + 2)
        if self.workers == 1:
            return (t if isinstance(t, TaskResult) else run_task(t, self.settings) for t in tasks)
        import concurrent.futures as cf
        import multiprocessing as mp

        context = mp.get_context("fork" if "fork" in mp.get_all_start_methods() else "spawn")
        pool = cf.ProcessPoolExecutor(
            self.workers, context, initializer=_die_with_parent, initargs=(os.getpid(),)
        )
        self._close = lambda: pool.shutdown(wait=False, cancel_futures=True)
        for future in [pool.submit(os.getpid) for _ in range(self.workers)]:
            future.result()  # the workers are up before the clock starts

        def submit_local(task: Task) -> Any:
            return pool.submit(run_task, task, self.settings)

        return _streamed(submit_local, tasks, 2 * self.workers + 2)

    def close(self) -> None:
        """Release the pool or the cluster connection."""
        self._close()


def _dask_client(address: str) -> Any:
    try:
        from distributed import Client
    except ImportError:
        raise LandlordError("--scheduler needs Dask: pip install 'landlord-solver[dask]'") from None
    try:
        return Client(address, timeout=10, set_as_default=False)
    except (OSError, TimeoutError, ValueError) as e:
        raise LandlordError(f"--scheduler {address}: cannot reach the scheduler ({e})") from None


# -- progress and summary ----------------------------------------------------------------


class TimeHistogram:
    """Percentiles of the time per item in fixed memory: bins 1% wide, from 0.1 µs."""

    LOW = 1e-7
    RATIO = 1.01
    BINS = 3000  # up to 0.1 µs x 1.01^3000, about 10^6 s

    def __init__(self) -> None:
        self.counts = np.zeros(self.BINS, np.int64)
        self.max = 0.0

    def add(self, times: np.ndarray) -> None:
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


def _clock(seconds: float) -> str:
    """A time left as m:ss (h:mm:ss past an hour)."""
    s = math.ceil(seconds)
    if s >= 3600:
        return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}"
    return f"{s // 60}:{s % 60:02d}"


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
        self.done += items
        self.total -= dropped
        now = time.perf_counter()
        if self.enabled and (now - self._drawn >= 0.2 or self.done >= self.total):
            self._drawn = now
            self.stream.write("\r" + self.text(now) + "\033[K")
            self.stream.flush()

    def text(self, now: float) -> str:
        elapsed = max(now - self.start, 1e-9)
        rate = self.done / elapsed
        left = max(self.total - self.done, 0)
        eta = _clock(left / rate) if rate > 0 else "?"
        pct = 100 * self.done / self.total if self.total > 0 else 100.0
        width = 24
        fill = int(width * min(pct, 100) / 100)
        bar = "#" * fill + "-" * (width - fill)
        return (
            f"[{bar}] {self.done:,}/{max(self.total, self.done):,} items {pct:5.1f}%  "
            f"{rate:,.0f}/s  ETA {eta}"
        )

    def close(self) -> None:
        if self.enabled:
            self.stream.write("\r\033[K")
            self.stream.flush()


@dataclass
class Summary:
    """What a run did: counts by outcome, throughput and time per item."""

    counts: Counter[str] = field(default_factory=Counter)
    times: TimeHistogram = field(default_factory=TimeHistogram)
    items: int = 0
    skipped: int = 0
    seconds: float = 0.0
    workers: int = 1

    def add(self, result: TaskResult) -> None:
        self.counts.update(result.counts)
        self.times.add(result.times)
        self.items += result.items

    def text(self, out_name: str) -> str:
        c = self.counts
        rate = self.items / self.seconds if self.seconds > 0 else 0.0
        where = f"{self.workers} worker{'s' * (self.workers != 1)}"
        lines = [
            f"{self.items:,} items in {duration(self.seconds)} ({rate:,.0f} items/s, {where})",
            f"  answers: {c['yes']:,} yes, {c['no']:,} no, {c['unknown']:,} unknown; "
            f"{c['error']:,} errors, {c['mismatch']:,} mismatched"
            + (f"; {self.skipped:,} skipped (already in {out_name})" if self.skipped else ""),
        ]
        if self.times.counts.any():
            p = self.times.percentile
            lines.append(
                f"  time per item: p50 {duration(p(50))}, p90 {duration(p(90))}, "
                f"p99 {duration(p(99))}, max {duration(self.times.max)}"
            )
        return "\n".join(lines)


def run(plan: Plan, engine: Engine, out: IO[str], progress: Progress, summary: Summary) -> None:
    """Solve the plan, writing each task's lines (flushed) as soon as it finishes.

    ``summary`` is filled as results arrive, so a caller still has it when the run is
    interrupted or a worker dies.
    """
    results = engine.results(plan)  # loads (or compiles) the kernels: not timed
    start = time.perf_counter()
    try:
        for result in results:
            out.write(result.text)
            out.flush()
            summary.add(result)
            summary.skipped = plan.skipped
            summary.seconds = time.perf_counter() - start
            progress.advance(result.items, result.dropped)
    finally:
        summary.skipped = plan.skipped
        summary.seconds = time.perf_counter() - start
        summary.workers = engine.workers
        progress.close()
        engine.close()
