"""Where the forced-win search's time goes, kernel by kernel (Linux, with ``perf``).

    python benchmarks/profile_search.py [NAMES] [--node-limit N] [--top 30]

NAMES are positions of the growth list (``solver/growth_list.txt``), comma-separated
(default: G38-5, G50-3 and D54-5, about ten seconds of search). Each is solved from an
empty table under ``perf record``, and the share of the samples that fell in each
compiled kernel is printed, highest first, with the positions' nodes and time.

``perf`` cannot name numba's code by itself: it lies in memory that no file maps. It
reads the names of such code from ``/tmp/perf-PID.map``, which this script writes with
every function numba compiled in the process (its address, its size as the distance to
the next one, its name from the mangled symbol). Only code compiled in the process has
its symbols at hand, so the kernels are compiled afresh into a temporary cache (half a
minute or more) rather than loaded. A kernel that LLVM inlined counts in its caller.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import NoReturn

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
CACHE = tempfile.mkdtemp(prefix="landlord-profile-")
os.environ["NUMBA_CACHE_DIR"] = CACHE  # before solver.jit reads it: compiled afresh

from numba.core.registry import cpu_target  # noqa: E402

from solver.bench import default_growth_list, read_growth_list, warm  # noqa: E402
from solver.endgame import parse_position  # noqa: E402
from solver.search import LOSS, WIN, Position, Searcher  # noqa: E402

DEFAULT_NAMES = "G38-5,G50-3,D54-5"
SAMPLES_PER_SECOND = 999
PERF_MAP = Path(f"/tmp/perf-{os.getpid()}.map")  # where perf looks for the names
_LENGTH = re.compile(r"\d+")


def fail(message: str) -> NoReturn:
    print(f"error: {message}", file=sys.stderr)
    sys.exit(1)


def demangle(symbol: str) -> str:
    """``solver.search._expand`` from numba's mangled ``_ZN6solver6search7_expandB3v28...``:
    the length-prefixed names after ``_ZN``, up to its ABI tags (``B``) or arguments
    (``E``). Other symbols stay as they are."""
    if not symbol.startswith("_ZN"):
        return symbol
    names, at = [], 3
    while length := _LENGTH.match(symbol, at):
        at = length.end() + int(length[0])
        names.append(symbol[length.end() : at])
    return ".".join(names) or symbol


def compiled_functions() -> list[tuple[int, str]]:
    """The address and mangled name of every function compiled in this process, in
    address order."""
    engine = cpu_target.target_context.codegen()._engine
    found = []
    for name in engine._defined_symbols:
        try:
            address = engine.get_function_address(name)
        except (RuntimeError, ValueError):  # a global variable, not a function
            continue
        if address:
            found.append((address, name))
    return sorted(found)


def write_perf_map(functions: list[tuple[int, str]], path: Path) -> None:
    """perf's map of just-in-time code: a line ``START SIZE NAME`` a function, in hex, each
    taken to end where the next begins."""
    ends = [address for address, _ in functions[1:]] + [functions[-1][0] + 4096]
    with path.open("w") as out:
        for (address, name), end in zip(functions, ends, strict=True):
            out.write(f"{address:x} {end - address:x} {demangle(name)}\n")


def shares(data: Path) -> list[tuple[float, str]]:
    """The share of the samples in each symbol, from ``perf report``."""
    report = subprocess.run(
        ["perf", "report", "-i", str(data), "--no-children", "--sort", "symbol", "--stdio"],
        capture_output=True,
        text=True,
    )
    if report.returncode:
        fail(f"perf report failed: {report.stderr.strip()}")
    rows = []
    for line in report.stdout.splitlines():
        found = re.match(r"\s*([\d.]+)%\s+\[\.\]\s+(\S+)", line)
        if found:
            rows.append((float(found[1]), found[2]))
    return rows


def profile(positions: list[tuple[str, Position]], node_limit: int, data: Path) -> None:
    """Solve the positions under ``perf record`` (samples to ``data``), printing each
    one's answer, nodes and time."""
    print("compiling the kernels afresh (half a minute or more) ...", flush=True)
    searcher = Searcher(node_limit=node_limit)
    warm(searcher)
    write_perf_map(compiled_functions(), PERF_MAP)
    command = ["perf", "record", "-F", str(SAMPLES_PER_SECOND), "-p", str(os.getpid())]
    errors = data.with_suffix(".err")
    with errors.open("w") as err:
        perf = subprocess.Popen([*command, "-o", str(data)], stderr=err)
    time.sleep(1)  # perf attaches
    if perf.poll() is not None:
        fail(f"perf record failed: {errors.read_text().strip()}")
    total = 0.0
    for name, pos in positions:
        searcher.start(pos.rules)
        value = searcher.value(pos)
        s = searcher.stats
        total += s.seconds
        answer = {WIN: "win", LOSS: "loss"}.get(value, "unknown")
        print(f"{name:8} {answer:8} {s.nodes:>12,} nodes {s.seconds:8.2f} s", flush=True)
    perf.send_signal(signal.SIGINT)
    perf.wait()
    print(f"{'total':8} {'':8} {'':>12}       {total:8.2f} s\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="?", default=DEFAULT_NAMES, help="growth list names")
    parser.add_argument("--node-limit", type=int, default=0, help="stop each search here")
    parser.add_argument("--top", type=int, default=30, help="kernels to print")
    args = parser.parse_args()
    try:
        if shutil.which("perf") is None:
            fail("perf is not installed (on Debian and Ubuntu: apt install linux-perf)")
        listed = read_growth_list(default_growth_list()).entries
        names = args.names.split(",")
        unknown = [n for n in names if n not in listed]
        if unknown:
            fail(f"not in the growth list: {', '.join(unknown)} (names such as G44-6, D54-7)")
        data = Path(CACHE) / "perf.data"
        profile([(n, parse_position(listed[n].position)) for n in names], args.node_limit, data)
        for share, symbol in shares(data)[: args.top]:
            print(f"{share:6.2f}%  {symbol}")
    finally:  # (perf report reads the map: it goes only now)
        PERF_MAP.unlink(missing_ok=True)
        shutil.rmtree(CACHE, ignore_errors=True)


if __name__ == "__main__":
    main()
