"""The command line as a real process meets it: Ctrl-C in a search, a cache it cannot
write, a full disk, a reader that goes away, a compile notice only when compiling."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import CASES

from solver.deals import deals_toml, iter_open_deals

ROOT = Path(__file__).resolve().parents[1]
#: A three-player position of 50 cards: minutes of search
HARD = "L=55777899JJQQKKKAA2 P1=33445666789TTQQB P2=33445689TTJJK22R"
HARD_TOML = (
    'question = "win"\nlandlord = "55777899JJQQKKKAA2"\n'
    'peasants = ["33445666789TTQQB", "33445689TTJJK22R"]\n'
)


def start(*args, env=None, **kwargs):
    """``landlord ARGS`` in a new process, with Ctrl-C delivered as a terminal would."""
    return subprocess.Popen(
        [sys.executable, "-c", "from cli import main; main()", *map(str, args)],
        cwd=ROOT,
        env=env or os.environ,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        **kwargs,
    )


def landlord(*args, env=None, stdout=subprocess.PIPE, timeout=300):
    proc = start(*args, env=env, stdout=stdout, stderr=subprocess.PIPE)
    out, err = proc.communicate(timeout=timeout)
    return proc.returncode, out, err


@pytest.fixture(scope="module")
def warm():
    """Kernels compiled into this run's cache, so that a process starts in a second."""
    assert landlord("best", "L=3 P1=4")[0] == 0
    assert landlord("judge", CASES / "edge_cases.in")[0] == 0


@pytest.mark.parametrize(
    "args, stdin",
    [
        (("best", HARD), None),
        (("solve", "{toml}"), None),
        (("play", "{toml}", "--as", "peasants"), ""),  # the solver, as landlord, thinks first
    ],
    ids=["best", "solve", "play"],
)
def test_ctrl_c_in_a_search_is_a_clean_interrupt(warm, tmp_path, args, stdin):
    puzzle = tmp_path / "hard.toml"
    puzzle.write_text(HARD_TOML)
    args = [str(puzzle) if a == "{toml}" else a for a in args]
    proc = start(*args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    time.sleep(4)  # well into the search
    assert proc.poll() is None
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(input=stdin, timeout=30)
    assert proc.returncode == 130
    assert err.splitlines()[-1] == "interrupted" and "Traceback" not in err


@pytest.mark.parametrize("command", ["analyze", "batch"])
def test_ctrl_c_ends_a_run_and_its_workers_at_once(warm, tmp_path, command):
    fast = next(iter_open_deals(25, 1, 1.0)).describe()
    assert landlord("analyze", fast, "--workers", 1)[0] == 0  # the proof-number kernels too
    deals = tmp_path / "slow.toml"
    deals.write_text("".join(deals_toml(iter_open_deals(1, 2))))  # seats of minutes
    args = [deals]
    if command == "batch":  # more files than workers: tasks wait in the pool's queue
        copies = [tmp_path / f"slow{k}.toml" for k in range(3)]
        for copy in copies:
            copy.write_text(deals.read_text())
        args += [*copies, "--out", tmp_path / "out.jsonl"]
    pipes = {"stdout": subprocess.PIPE, "stderr": subprocess.PIPE}
    proc = start(command, *args, "--workers", 2, start_new_session=True, **pipes)
    time.sleep(4)  # the workers well into their first seats
    assert proc.poll() is None
    os.killpg(proc.pid, signal.SIGINT)  # as a terminal does: to the workers too
    try:
        _, err = proc.communicate(timeout=20)  # not the minutes the seats would take
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 130
    assert err.splitlines()[-1].startswith("interrupted") and "Traceback" not in err


@pytest.mark.parametrize("where", ["NUMBA_CACHE_DIR", "HOME"])
def test_a_cache_that_cannot_be_written_compiles_in_memory(tmp_path, where):
    blocker = tmp_path / "a-file"  # nothing can be made below a file, even by root
    blocker.write_text("")
    env = dict(os.environ)
    env.pop("XDG_CACHE_HOME", None)
    if where == "HOME":
        env.pop("NUMBA_CACHE_DIR")
        env["HOME"] = str(blocker)
    else:
        env["NUMBA_CACHE_DIR"] = str(blocker / "cache")
    code, out, err = landlord("moves", "3345", env=env)
    assert code == 0, err
    assert out.splitlines()[0].split() == ["3", "single", "3"]
    notices = [ln for ln in err.splitlines() if "compiling" in ln]
    assert len(notices) == 1 and "cannot write the compiled-code cache" in notices[0]
    assert "Traceback" not in err


@pytest.mark.parametrize(
    "args",
    [
        ("judge", CASES / "edge_cases.in"),
        ("validate", CASES / "edge_cases.in"),
        ("deal", "--seed", "1", "-n", "5000"),
        ("solve", ROOT / "puzzles" / "01-rules.toml"),
        ("moves", "33344455566677789TBR22"),
        ("--help",),
        ("--version",),
    ],
    ids=lambda a: a if isinstance(a, str) else None,
)
def test_a_full_disk_is_one_line(warm, args):
    with open("/dev/full", "w") as full:
        code, _, err = landlord(*args, stdout=full)
    assert code == 1
    assert err.splitlines()[-1] == "Error: cannot write the output: No space left on device"
    assert "Traceback" not in err and "Exception ignored" not in err


def test_deals_stream_in_flat_memory():
    proc = start(
        "deal", "--seed", "1", "-n", "1000000000", stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    first = [proc.stdout.readline() for _ in range(4)]
    proc.stdout.close()  # as `| head -4` does
    _, err = proc.communicate(timeout=60)
    assert first[0] == "1000000000\n" and len(first[1]) == 21
    assert "Traceback" not in err
    peak = (  # the process's own peak memory, as it ends
        "import atexit, resource, sys; atexit.register(lambda: sys.stderr.write("
        "f'peak {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}\\n')); "
        "from cli import main; main()"
    )
    sizes = []
    for count in ("3000", "300000"):
        done = subprocess.run(
            [sys.executable, "-c", peak, "deal", "--seed", "1", "-n", count],
            cwd=ROOT,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            timeout=300,
        )
        assert done.returncode == 0, done.stderr
        sizes.append(int(done.stderr.split()[-1]))
    assert sizes[1] < sizes[0] + 50_000  # KB; holding 300,000 deals took 270 MB more


def test_the_compile_notice_comes_only_when_compiling(tmp_path):
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"))
    deals = tmp_path / "two.in"
    deals.write_text((CASES / "edge_cases.in").read_text())
    for args in (("moves", "3345"), ("batch", deals, "--workers", "1")):
        cold = landlord(*args, env=env)
        warm = landlord(*args, env=env)
        assert cold[0] == warm[0] == 0, cold[2] + warm[2]
        assert "compiling" in cold[2]
        assert "compiling" not in warm[2]


@pytest.mark.parametrize(
    "args, code, what",
    [
        (("judge",), 2, "the file is empty"),
        (("play", ROOT / "puzzles" / "04-published-endgames.toml"), 1, "the input ended"),
    ],
)
def test_a_closed_standard_input_reads_as_empty(warm, args, code, what):
    closed = subprocess.run(  # as `landlord ... <&-` starts it
        [sys.executable, "-c", "from cli import main; main()", *map(str, args)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        preexec_fn=lambda: os.close(0),
    )
    assert closed.returncode == code, closed.stderr
    assert what in closed.stderr and "Traceback" not in closed.stderr
