"""Batch-run benchmarks: 1 worker against 2 (or more), and memory over a long run.

    python benchmarks/bench_batch.py [--deals 1000000] [--long 1000000] [--workers 1,2]

Figures, each from a whole ``landlord batch DEALS --out FILE --workers N`` process on a
contest file of random deals (``landlord deal --seed 1``):

* by worker count: the wall time of the whole process (start-up, reading, solving and
  writing: what a user waits for), the best of ``--repeat`` runs, with its ratio to
  the first count's; the summary's items/s (the solving alone); and the CPU seconds of
  the process and its workers. On 2 cores, 2 workers should be at least 1.8x faster
  than 1. A run during which other processes used the CPU is marked ``(busy)``: its
  time is not to be trusted;
* the resident memory of the whole run (the batch process and its workers), sampled
  through a long run: it should stay flat, with no growth per item.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
COMMAND = [sys.executable, "-c", "from cli import main; main()", "batch"]
ENV = dict(os.environ, PYTHONPATH=str(ROOT))
BUSY = 0.2  # CPU seconds other processes may use during a run before it is marked


def deals_file(path: Path, count: int, base: int) -> None:
    """``count`` random deals: ``base`` of them from seed 1, repeated to make up the count."""
    made = subprocess.run(
        COMMAND[:-1] + ["deal", "--seed", "1", "-n", str(base)],
        env=ENV,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    hands = made.split("\n", 1)[1].splitlines(keepends=True)
    with open(path, "w") as f:
        f.write(f"{count}\n")
        for k in range(count):
            f.writelines(hands[3 * (k % base) : 3 * (k % base) + 3])


def memory_kb(pid: int) -> tuple[int, int]:
    """Proportional memory of a process and its children, in KB (Linux /proc): the
    anonymous part (heap: what would grow per item) and the file-backed part (code)."""
    anon = mapped = 0
    for status in Path("/proc").glob("[0-9]*/status"):
        try:
            ppid = int(re.search(r"PPid:\s+(\d+)", status.read_text()).group(1))
            if int(status.parent.name) not in (pid,) and ppid != pid:
                continue
            rollup = (status.parent / "smaps_rollup").read_text()
        except (OSError, AttributeError):
            continue
        anon += int(re.search(r"Pss_Anon:\s+(\d+)", rollup).group(1))
        mapped += int(re.search(r"Pss_File:\s+(\d+)", rollup).group(1))
    return anon, mapped


def busy_seconds() -> float:
    """CPU seconds the whole machine has spent busy since it started (Linux /proc/stat)."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    return (sum(fields) - fields[3] - fields[4]) / os.sysconf("SC_CLK_TCK")  # not idle, iowait


class Run:
    """One batch process: its wall time, its summary, its CPU and the machine's."""

    def __init__(self, args: list[str], sample: bool = False) -> None:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        machine = busy_seconds()
        start = time.perf_counter()
        proc = subprocess.Popen(
            COMMAND + args, env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
        )
        self.samples: list[tuple[int, int]] = []
        while sample and proc.poll() is None:
            self.samples.append(memory_kb(proc.pid))
            time.sleep(0.1)
        self.summary = proc.communicate()[1]
        self.wall = time.perf_counter() - start
        if proc.returncode:
            raise SystemExit(f"batch failed: {self.summary}")
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        self.cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
        self.busy = busy_seconds() - machine - self.cpu > BUSY  # other processes ran too

    @property
    def items_per_s(self) -> float:
        return float(re.search(r"\(([\d,]+) items/s", self.summary).group(1).replace(",", ""))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1_000_000, help="deals in the scaling runs")
    parser.add_argument("--long", type=int, default=1_000_000, help="deals in the memory run")
    parser.add_argument("--workers", default="1,2", help="worker counts to compare")
    parser.add_argument("--repeat", type=int, default=3, help="runs per worker count (best)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        deals = Path(tmp) / "deals.in"
        deals_file(deals, args.deals, args.deals)
        out = str(Path(tmp) / "out.jsonl")
        Run([str(deals), "--out", out, "--workers", "1"])  # loads the compiled kernels
        base_wall = 0.0
        for workers in (int(w) for w in args.workers.split(",")):
            runs = [
                Run([str(deals), "--out", out, "--workers", str(workers)])
                for _ in range(args.repeat)
            ]
            best = min(runs, key=lambda r: (r.busy, r.wall))
            base_wall = base_wall or best.wall
            print(
                f"{args.deals:,} deals, {workers} worker{'s' * (workers != 1)}: "
                f"{best.wall:.2f} s wall ({base_wall / best.wall:.2f}x the first), "
                f"{best.items_per_s:>9,.0f} items/s solving, {best.cpu:.2f} s CPU"
                + (" (busy)" if best.busy else "")
            )
        if args.long:
            long = Path(tmp) / "long.in"
            deals_file(long, args.long, min(args.deals, args.long))
            run = Run([str(long), "--out", out], sample=True)
            tenth = max(len(run.samples) // 10, 1)
            print(
                f"{args.long:,} deals on every core: {run.wall:.1f} s wall, "
                f"{run.items_per_s:,.0f} items/s; memory of all its processes "
                "(proportional set size), heap + code:"
            )
            for i in range(tenth, len(run.samples), tenth):
                anon, mapped = run.samples[i]
                print(
                    f"  at {100 * i // len(run.samples):>2}% of the run: {anon / 1024:6.1f} MB "
                    f"heap + {mapped / 1024:6.1f} MB code"
                )


if __name__ == "__main__":
    main()
