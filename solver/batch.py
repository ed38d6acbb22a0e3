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
import shutil
import socket
import sys
import tempfile
import threading
import time
from array import array
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import IO, Any

import numpy as np

from .api import Solver
from .cards import format_hand
from .contest import Buffer, contest_chunks, declared_cases, open_input
from .errors import (
    EngineError,
    InputFileError,
    LandlordError,
    OutputError,
    RunStopped,
    WholeFileError,
)
from .puzzles import Puzzle, load_file, load_text
from .rules import CLASSIC
from .search import DEFAULT_MEMORY_MB
from .spring import spring_line, workspace

TASK_CASES = 2048  # contest cases per task
TASK_WEIGHT = 16  # a task holds up to 16 spring puzzles, or a single win puzzle
STDIN = "<stdin>"
WORKER_WAIT = 30  # seconds to wait for a Dask worker to join
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
    """One input: a contest file (opened when its turn comes), a puzzle file's puzzles,
    or why it is unusable."""

    name: str  # as ids spell it
    path: str | None = None  # the file, as named (a contest file is opened when its turn comes)
    spool: IO[bytes] | None = None  # a contest input copied from a pipe
    puzzles: list[Puzzle | InputFileError] | None = None
    error: str | None = None
    total: int = 1  # items in it: T for a contest file

    @contextmanager
    def contest(self) -> Iterator[Buffer]:
        """The contest input's bytes, mapped while the caller needs them."""
        if self.spool is not None:
            self.spool.seek(0)
            yield open_input(self.spool)
            return
        assert self.path is not None
        with open(self.path, "rb") as file:
            yield open_input(file)


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
    if source and number.isascii() and number.isdigit() and len(number) <= 18:
        return source, int(number)
    return item, 0


def error_result(item: str, message: str, dropped: int = 0) -> TaskResult:
    """The result of a bad item: one error line."""
    text = json.dumps({"id": item, "error": message}) + "\n"
    return TaskResult(text, Counter(error=1), np.zeros(0), 1, dropped)


# -- reading the inputs ------------------------------------------------------------------


def read_sources(inputs: list[str], stdin: IO[bytes], anchor: Path) -> list[Source]:
    """The sources named: files, folders (their ``*.toml`` and ``*.in`` files), ``-``.

    A ``.toml`` file is a puzzle file; any other file is a contest file. Standard input
    and pipes hold either (``landlord deal`` writes both), told apart by their first
    character; a contest input from a pipe is copied to a temporary file, so that memory
    stays flat. Ids name files relative to ``anchor`` (see :func:`id_path`).
    """
    out: list[Source] = []
    seen: set[str] = set()
    for name in inputs:
        if name == "-":
            if STDIN not in seen:
                seen.add(STDIN)
                out.append(_piped(STDIN, stdin))
            continue
        try:
            if os.path.isdir(name):
                found = sorted(
                    p for p in Path(name).rglob("*") if p.suffix in (".toml", ".in") and p.is_file()
                )
                if not found:
                    raise InputFileError(f"{name}: no puzzle (*.toml) or contest (*.in) file in it")
                files = [str(p) for p in found]
            elif os.path.exists(name):
                files = [name]
            else:
                raise InputFileError(f"{name}: no such file or folder")
            for f in files:
                item = id_path(f, anchor)
                if item not in seen:  # named twice (or a file and its folder): solved once
                    seen.add(item)
                    out.append(_source(f, item))
        except (OSError, RuntimeError) as e:  # a name too long, a loop of links
            reason = getattr(e, "strerror", None) or e
            raise InputFileError(f"{name}: cannot read: {reason}") from None
    return out


def id_path(name: str, anchor: Path) -> str:
    """A file as ids spell it: relative to ``anchor`` (the output file's folder) when
    inside it, else absolute, links resolved; so that ``deals.in``, ``./deals.in`` and
    its full path name the same items, whatever the working folder. A pipe keeps the
    name it was given."""
    if not os.path.isfile(name):
        return name
    full = Path(name).resolve()
    try:
        return str(full.relative_to(anchor.resolve()))
    except ValueError:
        return str(full)


def _source(name: str, item: str) -> Source:
    """A named input: a puzzle file, a contest file, or a pipe."""
    if not os.path.isfile(name):
        with open(name, "rb") as stream:
            return _piped(item, stream)
    if name.endswith(".toml"):
        return replace(_puzzle_source(item, load_file(Path(name))), path=name)
    try:
        with open(name, "rb") as file:
            head = file.read(4096)
        declared, _ = declared_cases(head, item)
    except OSError as e:
        return Source(item, error=f"{name}: cannot read: {e.strerror or e}")
    except WholeFileError as e:
        return Source(item, error=str(e))
    return Source(item, path=name, total=declared)


def _piped(item: str, stream: IO[bytes]) -> Source:
    """An input read from a pipe: a contest input (digits first) or a puzzle file."""
    head = stream.read(4096)
    if head.lstrip()[:1].isdigit() or not head.strip():
        spool = tempfile.TemporaryFile()
        spool.write(head)
        shutil.copyfileobj(stream, spool)
        spool.flush()
        try:
            declared, _ = declared_cases(head, item)
        except WholeFileError as e:
            return Source(item, error=str(e))
        return Source(item, spool=spool, total=declared)
    return _puzzle_source(item, load_text(head + stream.read(), item, "stdin"))


def _puzzle_source(item: str, puzzles: list[Puzzle | InputFileError]) -> Source:
    if len(puzzles) == 1 and isinstance(puzzles[0], WholeFileError):
        return Source(item, error=str(puzzles[0]))
    return Source(item, puzzles=puzzles, total=len(puzzles))


def refuse_overwrite(out: Path, sources: list[Source]) -> None:
    """Refuse an output file that is also an input: writing it would destroy the input."""
    if not out.exists():
        return
    for src in sources:
        if src.path and os.path.exists(src.path) and os.path.samefile(out, src.path):
            raise InputFileError(f"--out {out}: it is also an input ({src.path}); choose another")


class Finished:
    """The item numbers of one source that an output file already holds (sorted)."""

    def __init__(self, numbers: np.ndarray) -> None:
        self.numbers = numbers

    def __len__(self) -> int:
        return len(self.numbers)

    def __contains__(self, number: int) -> bool:
        return not self.todo(np.array([number], np.int64))[0]

    def todo(self, numbers: np.ndarray) -> np.ndarray:
        """A mask of the ``numbers`` still to solve."""
        if not len(self.numbers):
            return np.ones(len(numbers), np.bool_)
        at = np.minimum(np.searchsorted(self.numbers, numbers), len(self.numbers) - 1)
        return self.numbers[at] != numbers


NOTHING = Finished(np.zeros(0, np.int64))
_ID = re.compile(rb'\{"id": ("(?:[^"\\]|\\.)*")(, "error")?')


def finished_items(path: Path) -> tuple[dict[str, Finished], int]:
    """The ids already answered in an output file, by source, for ``--resume``; and how
    many error lines it held.

    Error lines are taken out of the file, so that their items are tried again (the
    input may have been fixed), and a last line left half-written (the run was killed
    mid-write) is cut off, so that appending starts on a fresh line. Any other line that
    is not a result is an error: the file is not this command's output.
    """
    numbers: dict[str, array] = {}
    complete = errors = 0
    try:
        file = open(path, "rb")
    except FileNotFoundError:
        return {}, 0
    except OSError as e:
        raise InputFileError(f"{path}: cannot read: {e.strerror or e}") from None
    with file:
        for i, line in enumerate(file, 1):
            if not line.endswith(b"\n"):  # cut off below, if it is a result begun
                if not line.startswith(b'{"id": '):
                    raise InputFileError(
                        f"{path}, line {i}: not a batch result, so there is nothing to resume"
                    )
                break
            complete += len(line)
            if not line.strip():
                continue
            try:
                item, failed = _read_id(line)
            except (ValueError, KeyError, TypeError):
                item, failed = None, False
            if not isinstance(item, str):
                raise InputFileError(
                    f'{path}, line {i}: not a batch result (a JSON object with an "id"), '
                    "so there is nothing to resume"
                )
            if failed:
                errors += 1
                continue
            source, number = split_id(item)
            numbers.setdefault(source, array("q")).append(number)
    try:
        if errors:
            _drop_errors(path)
        elif complete < path.stat().st_size:
            os.truncate(path, complete)
    except OSError as e:
        raise InputFileError(f"{path}: cannot rewrite: {e.strerror or e}") from None
    finished = {s: Finished(np.unique(np.frombuffer(a, np.int64))) for s, a in numbers.items()}
    return finished, errors


def _drop_errors(path: Path) -> None:
    """Rewrite an output file without its error lines (and any half-written last line)."""
    kept = path.with_name(path.name + ".resume")
    with open(path, "rb") as source, open(kept, "wb") as target:
        for line in source:
            if not line.endswith(b"\n"):
                break
            if not _read_id(line)[1]:
                target.write(line)
    shutil.copymode(path, kept)
    os.replace(kept, path)


def _read_id(line: bytes) -> tuple[object, bool]:
    """A result line's id and whether it is an error line (the common form read fast)."""
    m = _ID.match(line)
    if m:
        return json.loads(m.group(1)), bool(m.group(2))
    record = json.loads(line)
    return record["id"], "error" in record


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
            if src.error is not None:
                yield error_result(src.name, src.error)
            elif src.puzzles is not None:
                yield from self._puzzle_tasks(src, done)
            else:
                yield from self._case_tasks(src, done)

    def _case_tasks(self, src: Source, done: Finished) -> Iterator[Task | TaskResult]:
        try:
            with src.contest() as data:
                yield from self._read_cases(src.name, data, done)
        except OSError as e:  # gone or unreadable since the run began
            yield error_result(src.name, f"{src.path}: cannot read: {e.strerror or e}")

    def _read_cases(self, name: str, data: Buffer, done: Finished) -> Iterator[Task | TaskResult]:
        for part in contest_chunks(data, name):
            for at in range(0, len(part.hands), TASK_CASES):
                deals = part.hands[at : at + TASK_CASES]
                numbers = np.arange(len(deals), dtype=np.int64) + (part.first + at + 1)
                if len(done):
                    todo = done.todo(numbers)
                    self.skipped += int(len(numbers) - todo.sum())
                    numbers, deals = numbers[todo], deals[todo]
                if len(numbers):
                    yield Task(name, numbers, deals.astype(np.uint8))
            if part.error is not None:
                bad = part.first + len(part.hands) + 1
                note = "; the cases after it are not read" if bad < part.declared else ""
                yield error_result(f"{name}#{bad}", f"{part.error}{note}", part.declared - bad)

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
        where = puzzle.where
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


def _streamed(
    submit: Callable[[Task], Any],
    tasks: Iterator[Task | TaskResult],
    in_flight: int,
    alive: Callable[[], bool] = lambda: True,
) -> Iterator[TaskResult]:
    """Results in the order tasks finish, with at most ``in_flight`` tasks submitted.

    Any failure of a task (a worker process killed, a lost cluster; a task's own item
    errors are results, not failures) stops the run: its items are not written, so
    that ``--resume`` solves them again. So does ``alive()`` turning false while the
    run waits (a cluster whose last worker has gone, where tasks would wait forever).
    """
    finished: queue.SimpleQueue = queue.SimpleQueue()
    pending = 0

    def collect(block: bool) -> Iterator[TaskResult]:
        nonlocal pending
        while pending:
            try:
                future = finished.get(block=block, timeout=WORKER_WAIT if block else None)
            except queue.Empty:
                if block and not alive():
                    raise RunStopped("no worker is left to run the tasks") from None
                if block:
                    continue
                return
            pending -= 1
            try:
                result = future.result()
            except Exception as e:  # noqa: BLE001 (whatever the engine raises)
                reason = str(e).rstrip(".")
                raise RunStopped(f"a task failed: {type(e).__name__}: {reason}") from None
            yield result
            block = False

    for task in tasks:
        if isinstance(task, TaskResult):
            yield task
            continue
        try:
            future = submit(task)
        except Exception as e:  # noqa: BLE001 (whatever the engine raises)
            reason = str(e).rstrip(".")
            raise RunStopped(f"cannot hand out a task: {type(e).__name__}: {reason}") from None
        pending += 1
        future.add_done_callback(finished.put)
        yield from collect(block=pending >= in_flight)
    while pending:
        yield from collect(block=True)


class Engine:
    """Where the tasks run: this process, a local process pool, or a Dask cluster."""

    def __init__(self, settings: Settings, workers: int = 1, scheduler: str | None = None):
        self.settings = settings
        self.workers = workers
        self.scheduler = scheduler
        self._close: Callable[[bool], None] = lambda finished: None

    def results(self, plan: Plan) -> Iterator[TaskResult]:
        """Run the plan's tasks; results as they finish."""
        solver, _, _ = worker_state(self.settings)  # compiled before any fork
        if plan.needs_search():
            solver.prepare("win")
        tasks = plan.tasks()
        if self.scheduler is not None:
            client = _dask_client(self.scheduler)
            self._close = lambda finished: client.close()
            threads = sum(client.nthreads().values()) or 1
            self.workers = threads

            def submit(task: Task) -> Any:
                return client.submit(run_task, task, self.settings, pure=False)

            def alive() -> bool:
                return bool(client.scheduler_info().get("workers"))

            return _streamed(submit, tasks, 2 * threads + 2, alive)
        if self.workers == 1:
            return (t if isinstance(t, TaskResult) else run_task(t, self.settings) for t in tasks)
        import concurrent.futures as cf
        import multiprocessing as mp

        context = mp.get_context("fork" if "fork" in mp.get_all_start_methods() else "spawn")
        pool = cf.ProcessPoolExecutor(
            self.workers, context, initializer=_die_with_parent, initargs=(os.getpid(),)
        )
        self._close = lambda finished: pool.shutdown(wait=finished, cancel_futures=True)
        for future in [pool.submit(os.getpid) for _ in range(self.workers)]:
            future.result()  # the workers are up before the clock starts

        def submit_local(task: Task) -> Any:
            return pool.submit(run_task, task, self.settings)

        return _streamed(submit_local, tasks, 2 * self.workers + 2)

    def close(self, finished: bool) -> None:
        """Release the pool (waiting for it when the run ``finished``) or the cluster."""
        self._close(finished)


def _dask_client(address: str) -> Any:
    """A client of the Dask scheduler at ``address``, once a worker has joined it."""
    try:
        from distributed import Client
    except ImportError:
        raise LandlordError("--scheduler needs Dask: pip install 'landlord-solver[dask]'") from None
    scheme, _, rest = address.rpartition("://")
    if scheme not in ("", "tcp", "tls", "inproc", "ucx", "ws", "wss"):
        raise LandlordError(f"--scheduler {address}: unknown protocol {scheme!r}")
    if scheme in ("", "tcp", "tls"):  # fail fast, before the client retries for its timeout
        host, _, port = rest.rpartition(":") if ":" in rest else (rest, "", "")
        try:
            address_info = (host.strip("[]") or "localhost", int(port or 8786))
            socket.create_connection(address_info, timeout=5).close()
        except (OSError, ValueError) as e:
            raise EngineError(f"--scheduler {address}: cannot reach the scheduler ({e})") from None
    try:
        client = Client(address, timeout=10, set_as_default=False)
    except (OSError, TimeoutError, ValueError) as e:
        raise EngineError(f"--scheduler {address}: cannot reach the scheduler ({e})") from None
    try:
        client.wait_for_workers(1, timeout=WORKER_WAIT)
    except TimeoutError:
        client.close()
        raise EngineError(
            f"--scheduler {address}: no worker joined the scheduler in {WORKER_WAIT} s"
        ) from None
    return client


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
        self.done += items
        self.total -= dropped
        now = time.perf_counter()
        if self.enabled and (now - self._drawn >= 0.2 or self.done >= self.total):
            self._drawn = now
            self.stream.write("\r" + self.text(now) + "\033[K")
            self.stream.flush()

    def text(self, now: float) -> str:
        rate = self.done / max(now - self.start, 1e-9)
        left = max(self.total - self.done, 0)
        eta = "0 s" if not left else duration(left / rate) if rate > 0 else "?"
        pct = 100 * self.done / self.total if self.total > 0 else 100.0
        fill = int(24 * min(pct, 100) / 100)
        return (
            f"[{'#' * fill}{'-' * (24 - fill)}] {self.done:,}/{max(self.total, self.done):,}"
            f" items {pct:5.1f}%  {rate:,.0f}/s  ETA {eta}"
        )

    def erase(self) -> None:
        """Clear the bar (before other output on the same terminal)."""
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
        lines = [
            f"{plural(self.items, 'item')} in {duration(self.seconds)} "
            f"({rate:,.0f} items/s, {plural(self.workers, 'worker')})",
            f"  answers: {c['yes']:,} yes, {c['no']:,} no, {c['unknown']:,} unknown; "
            f"{plural(c['error'], 'error')}, {c['mismatch']:,} mismatched"
            + (f"; {self.skipped:,} skipped (already in {out_name})" if self.skipped else ""),
        ]
        if self.times.counts.any():
            p = self.times.percentile
            lines.append(
                f"  time per item: p50 {duration(p(50))}, p90 {duration(p(90))}, "
                f"p99 {duration(p(99))}, max {duration(self.times.max)}"
            )
        return "\n".join(lines)


def run(
    plan: Plan,
    engine: Engine,
    out: IO[str],
    progress: Progress,
    summary: Summary,
    fresh: bool = False,
) -> None:
    """Solve the plan, writing each task's lines (flushed) as soon as it finishes; with
    ``fresh``, empty ``out`` first, once the engine is up (so that a run that cannot
    start leaves an old output alone).

    ``summary`` is filled as results arrive, so a caller still has it when the run is
    interrupted or stopped.
    """
    start = progress.start = time.perf_counter()
    finished = False
    try:
        results = engine.results(plan)  # loads (or compiles) the kernels: not timed
        if fresh:
            out.truncate(0)
        start = progress.start = time.perf_counter()
        shared_terminal = progress.enabled and out.isatty()
        for result in results:
            if shared_terminal:
                progress.erase()
            try:
                out.write(result.text)
                out.flush()
            except OSError as e:
                name = getattr(out, "name", "the output")
                raise OutputError(
                    f"{name}: cannot write: {e.strerror or e}", isinstance(e, BrokenPipeError)
                ) from None
            summary.add(result)
            summary.skipped = plan.skipped
            summary.seconds = time.perf_counter() - start
            progress.advance(result.items, result.dropped)
        finished = True
    finally:
        summary.skipped = plan.skipped
        summary.seconds = time.perf_counter() - start
        summary.workers = engine.workers
        progress.erase()
        engine.close(finished)
