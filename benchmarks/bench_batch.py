"""Batch-run benchmarks: scaling with workers, and memory over a long run.

    python benchmarks/bench_batch.py [--deals 100000] [--long 1000000] [--workers 1,2]

Figures, each from a ``landlord batch`` process on a contest file of random deals
(``landlord deal --seed 1``):

* throughput by worker count (the summary's items/s, which counts the solving, and the
  wall time, which adds start-up), as a ratio to one worker measured in the same run;
* the resident memory of the whole run (the batch process and its workers), sampled
  through a long run: it should stay flat, with no growth per item.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
COMMAND = [sys.executable, "-c", "from cli import main; main()", "batch"]
ENV = dict(os.environ, PYTHONPATH=str(ROOT))


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
    anonymous part (heap: what would grow per item) and the file-backed part (code, and
    the memory-mapped input, which fills as the file is read)."""
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


def run(args: list[str], sample: bool = False) -> tuple[float, str, list[tuple[int, int]]]:
    """Wall seconds, the summary, and memory samples (KB) of one batch run."""
    start = time.perf_counter()
    proc = subprocess.Popen(
        COMMAND + args, env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
    )
    samples = []
    while proc.poll() is None:
        if sample:
            samples.append(memory_kb(proc.pid))
        time.sleep(0.1)
    summary = proc.stderr.read()
    if proc.returncode:
        raise SystemExit(f"batch failed: {summary}")
    return time.perf_counter() - start, summary, samples


def items_per_s(summary: str) -> float:
    return float(re.search(r"\(([\d,]+) items/s", summary).group(1).replace(",", ""))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=100_000, help="deals in the scaling runs")
    parser.add_argument("--long", type=int, default=1_000_000, help="deals in the memory run")
    parser.add_argument("--workers", default="1,2", help="worker counts to compare")
    parser.add_argument("--repeat", type=int, default=3, help="runs per worker count (best)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        deals = Path(tmp) / "deals.in"
        deals_file(deals, args.deals, args.deals)
        out = str(Path(tmp) / "out.jsonl")
        base_rate = base_wall = 0.0
        for workers in (int(w) for w in args.workers.split(",")):
            runs = [
                run([str(deals), "--out", out, "--workers", str(workers)])
                for _ in range(args.repeat)
            ]
            wall = min(r[0] for r in runs)
            rate = max(items_per_s(r[1]) for r in runs)
            base_rate, base_wall = base_rate or rate, base_wall or wall
            print(
                f"{args.deals:,} deals, {workers} worker{'s' * (workers != 1)}: "
                f"{rate:>9,.0f} items/s solving ({rate / base_rate:.2f}x the first), "
                f"{wall:.2f} s wall with start-up ({base_wall / wall:.2f}x)"
            )
        if args.long:
            long = Path(tmp) / "long.in"
            deals_file(long, args.long, min(args.deals, args.long))
            wall, summary, samples = run([str(long), "--out", out], sample=True)
            tenth = max(len(samples) // 10, 1)
            print(
                f"{args.long:,} deals on every core: {wall:.1f} s wall, "
                f"{items_per_s(summary):,.0f} items/s; memory of all its processes "
                "(proportional set size), heap + mapped files:"
            )
            for i in range(tenth, len(samples), tenth):
                anon, mapped = samples[i]
                print(
                    f"  at {100 * i // len(samples):>2}% of the run: {anon / 1024:6.1f} MB heap"
                    f" + {mapped / 1024:6.1f} MB mapped"
                )


if __name__ == "__main__":
    main()
