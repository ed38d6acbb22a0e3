"""Where a batch run's tasks are solved: in this process, in a pool of worker processes,
or on a Dask cluster.

An engine takes a stream of work, tasks mixed with results already known (which pass
straight through), and gives back results in the order the tasks finish, with a bounded
number of tasks in flight, so that memory stays flat however long the stream. A failure
of the machinery (a worker killed, a cluster lost) stops the run; a task's own bad items
are results, not failures.
"""

from __future__ import annotations

import os
import queue
import socket
import sys
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

from .errors import EngineError, LandlordError, RunStopped

WORKER_WAIT = 30  # seconds to wait for a Dask worker to join

T = TypeVar("T")  # a task
R = TypeVar("R")  # its result


def usable_cores() -> int:
    """The cores this process may run on."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def pool_size(requested: int | None, tasks: int) -> tuple[int, str | None]:
    """How many workers to start for ``tasks`` tasks: as many as ``requested`` (default:
    one per usable core), but never more than the usable cores (the tasks are CPU-bound,
    and each worker holds its own tables) nor than the tasks. With a one-line note when
    a request was cut."""
    cores = usable_cores()
    size = max(min(requested or cores, cores, tasks), 1)
    if requested is None or size >= requested:
        return size, None
    task_count = f"{tasks:,} task{'s' * (tasks != 1)}"
    core_count = f"{cores} usable core{'s' * (cores != 1)}"
    return size, f"note: --workers {requested} capped to {size} ({task_count}, {core_count})"


class Engine:
    """This process (one worker), a local process pool, or a Dask cluster."""

    def __init__(self, workers: int = 1, scheduler: str | None = None) -> None:
        self.workers = workers  # for a cluster: its threads, once it is reached
        self.scheduler = scheduler
        self._close: Callable[[bool], None] = lambda finished: None

    def results(self, work: Iterator[T | R], solve: Callable[[T], R], task: type[T]) -> Iterator[R]:
        """Solve the instances of ``task`` in ``work`` (``solve`` and the tasks must
        pickle); results as they finish. Call :meth:`close` after."""
        if self.scheduler is not None:
            client = _dask_client(self.scheduler)
            self._close = lambda finished: client.close()
            threads = sum(client.nthreads().values()) or 1
            self.workers = threads

            def submit(job: T) -> Any:
                return client.submit(solve, job, pure=False)

            def alive() -> bool:
                return bool(client.scheduler_info().get("workers"))

            return _streamed(submit, work, task, 2 * threads + 2, alive)
        if self.workers == 1:
            return (solve(job) if isinstance(job, task) else job for job in work)
        import concurrent.futures as cf
        import multiprocessing as mp

        context = mp.get_context("fork" if "fork" in mp.get_all_start_methods() else "spawn")
        pool = cf.ProcessPoolExecutor(
            self.workers, context, initializer=tie_to_parent, initargs=(os.getpid(),)
        )
        self._close = lambda finished: pool.shutdown() if finished else stop_pool(pool)
        for future in [pool.submit(os.getpid) for _ in range(self.workers)]:
            future.result()  # the workers are up before the clock starts

        def submit_local(job: T) -> Any:
            return pool.submit(solve, job)

        return _streamed(submit_local, work, task, 2 * self.workers + 2)

    def close(self, finished: bool) -> None:
        """Release the pool (waiting for it when the run ``finished``) or the cluster."""
        self._close(finished)


def _streamed(
    submit: Callable[[T], Any],
    work: Iterator[T | R],
    task: type[T],
    in_flight: int,
    alive: Callable[[], bool] = lambda: True,
) -> Iterator[R]:
    """Results in the order tasks finish, with at most ``in_flight`` tasks submitted.

    Any failure of a task stops the run: its items are not written, so that
    ``--resume`` solves them again. So does ``alive()`` turning false while the run
    waits (a cluster whose last worker has gone, where tasks would wait forever).
    """
    finished: queue.SimpleQueue = queue.SimpleQueue()
    pending = 0

    def collect(block: bool) -> Iterator[R]:
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

    for job in work:
        if not isinstance(job, task):
            yield job
            continue
        try:
            future = submit(job)
        except Exception as e:  # noqa: BLE001 (whatever the engine raises)
            reason = str(e).rstrip(".")
            raise RunStopped(f"cannot hand out a task: {type(e).__name__}: {reason}") from None
        pending += 1
        future.add_done_callback(finished.put)
        yield from collect(block=pending >= in_flight)
    while pending:
        yield from collect(block=True)


def stop_pool(pool: Any) -> None:
    """Stop a process pool at once (Ctrl-C, an error): its workers killed, the tasks
    still queued cancelled. The executor has no public way to stop a running task, and
    its shutdown would wait for every task already handed to a worker."""
    for process in list((pool._processes or {}).values()):
        process.kill()
    pool.shutdown(wait=False, cancel_futures=True)


def tie_to_parent(parent: int) -> None:
    """Pool initializer: a worker ends when its parent process is killed, even by
    SIGKILL; Ctrl-C is the parent's, which then stops the pool (:func:`stop_pool`)."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if sys.platform.startswith("linux"):
        import ctypes

        try:
            ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            pass
    if os.getppid() != parent:  # killed before the line above took effect
        os._exit(1)


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
