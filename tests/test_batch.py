"""Batch runs: answers, ids, resuming (after a SIGKILL too), workers, Dask, bad items."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
import reference as ref
from click.testing import CliRunner
from conftest import CASES

from cli import main
from solver.batch import TimeHistogram, split_id

ROOT = Path(__file__).resolve().parents[1]
PUZZLES = ROOT / "puzzles"


def run(*args, input=None, cwd=None):
    if cwd is not None:
        os.chdir(cwd)
    return CliRunner().invoke(main, [str(a) for a in args], input=input)


@pytest.fixture(autouse=True)
def _keep_cwd():
    here = os.getcwd()
    yield
    os.chdir(here)


def results(path: Path) -> dict[str, dict]:
    """The output's records by id; every id exactly once."""
    records = [json.loads(line) for line in path.read_text().splitlines()]
    ids = [r["id"] for r in records]
    assert len(ids) == len(set(ids)), "an item was written twice"
    return {r["id"]: r for r in records}


def contest_answers(name: str) -> list[bool]:
    return [ln.endswith("Yes") for ln in (CASES / f"{name}.ans").read_text().splitlines()]


def without_times(records: dict[str, dict]) -> dict[str, dict]:
    return {k: {f: v for f, v in r.items() if f != "seconds"} for k, r in records.items()}


def test_contest_cases_answer_and_prove(tmp_path, shared_cases):
    out = tmp_path / "out.jsonl"
    result = run("batch", CASES / "yes_biased_500.in", "--out", out, "--workers", "1", cwd=CASES)
    assert result.exit_code == 0, result.output
    got = results(out)
    hands, answers = shared_cases["yes_biased_500"]
    assert len(got) == len(answers)
    for k, (deal, want) in enumerate(zip(hands.tolist(), answers, strict=True), 1):
        r = got[f"yes_biased_500.in#{k}"]
        assert r["question"] == "spring" and r["answer"] is want
        assert r["seconds"] >= 0
        if want:
            ref.check_spring_line(*deal, [ref.parse(p) for p in r["line"]])
        else:
            assert r["line"] == []
    yes = sum(answers)
    assert f"{yes:,} yes, {len(answers) - yes:,} no, 0 unknown; 0 errors" in result.stderr


def test_puzzles_match_their_expected_answers(tmp_path):
    out = tmp_path / "out.jsonl"
    result = run("batch", "puzzles", "--out", out, "--workers", "2", cwd=ROOT)
    assert result.exit_code == 0, result.output
    got = results(out)
    assert len(got) == 120
    assert all(r["answer"] == r["expect"] for r in got.values())
    assert "puzzles/04-published-endgames.toml#10" in got
    assert got["puzzles/04-published-endgames.toml#10"]["question"] == "win"
    assert "0 mismatched" in result.stderr


def test_workers_and_inline_agree(tmp_path):
    one, two = tmp_path / "1.jsonl", tmp_path / "2.jsonl"
    for out, workers in ((one, 1), (two, 2)):
        result = run("batch", "random_2000.in", "--out", out, "--workers", workers, cwd=CASES)
        assert result.exit_code == 0, result.output
    got = results(two)
    assert without_times(results(one)) == without_times(got)
    answers = contest_answers("random_2000")
    assert [got[f"random_2000.in#{k}"]["answer"] for k in range(1, 2001)] == answers


def test_deal_output_on_stdin(tmp_path):
    text = run("deal", "--seed", "5", "-n", "40").stdout
    result = run("batch", "-", "--workers", "1", input=text)
    assert result.exit_code == 0, result.output
    lines = [json.loads(ln) for ln in result.stdout.splitlines()]
    assert [r["id"] for r in lines] == [f"<stdin>#{k}" for k in range(1, 41)]
    judged = run("judge", input=text).stdout.splitlines()
    assert [r["answer"] for r in lines] == [ln.endswith("Yes") for ln in judged]
    toml = run("deal", "--seed", "5", "-n", "3", "--format", "toml").stdout
    result = run("batch", "-", "--workers", "1", input=toml)
    assert result.exit_code == 0, result.output
    names = [json.loads(ln)["name"] for ln in result.stdout.splitlines()]
    assert names == [f"seed 5 deal {k}" for k in (1, 2, 3)]


def test_ids_do_not_depend_on_how_a_path_is_spelled(tmp_path):
    out = tmp_path / "out.jsonl"
    run("batch", "./edge_cases.in", "--out", out, "--workers", "1", cwd=CASES)
    first = set(results(out))
    run("batch", CASES / "edge_cases.in", "--out", out, "--workers", "1", cwd=CASES)
    assert set(results(out)) == first
    twice = ("edge_cases.in", ".", "./edge_cases.in", "-", "-")
    result = run("batch", *twice, "--out", out, "--workers", "1", input="1\n3\n4\n5\n", cwd=CASES)
    assert result.exit_code == 0, result.output
    got = results(out)  # every item once, though named three times
    cases = sum(len(f.read_text().splitlines()) for f in CASES.glob("*.ans"))
    assert len(got) == cases + 1 and set(got) > first and "<stdin>#1" in got
    assert split_id("a#b.in#12") == ("a#b.in", 12)
    assert split_id("broken.in") == ("broken.in", 0)


def test_resume_cuts_a_half_written_line_and_finishes(tmp_path):
    full, part = tmp_path / "full.jsonl", tmp_path / "part.jsonl"
    run("batch", "skewed_500.in", "--out", full, "--workers", "1", cwd=CASES)
    text = full.read_bytes()
    cut = text.index(b"\n", len(text) // 3) + 20  # 20 bytes into a line
    part.write_bytes(text[:cut])
    kept = text[:cut].count(b"\n")
    result = run("batch", "skewed_500.in", "--out", part, "--resume", "--workers", "2", cwd=CASES)
    assert result.exit_code == 0, result.output
    assert f"{500 - kept:,} items" in result.stderr
    assert f"{kept:,} skipped" in result.stderr
    assert without_times(results(part)) == without_times(results(full))
    again = run("batch", "skewed_500.in", "--out", part, "--resume", cwd=CASES)
    assert again.exit_code == 0 and "0 items" in again.stderr
    assert len(results(part)) == 500


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (Linux's /proc)."""
    out = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            out.append(int(stat.parent.name))
    return out


def test_sigkill_then_resume_answers_every_item_once(tmp_path):
    """Kill a parallel run mid-way with SIGKILL; the resumed run completes it exactly."""
    deals = (CASES / "yes_biased_500.in").read_text().split(maxsplit=1)[1]
    copies = 600  # 300,000 cases: a few seconds of work, so the kill lands mid-run
    (tmp_path / "big.in").write_text(f"{500 * copies}\n" + deals * copies)
    out = tmp_path / "out.jsonl"
    command = [sys.executable, "-c", "from cli import main; main()", "batch", "big.in"]
    command += ["--out", str(out), "--workers", "2"]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(command, cwd=tmp_path, env=env, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        if out.exists() and out.stat().st_size > 200_000:
            break
        time.sleep(0.005)
    assert proc.poll() is None, "the run ended before it could be killed"
    workers = children(proc.pid)
    assert len(workers) == 2
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    proc.stderr.close()
    for _ in range(500):  # the workers die with the run, not orphaned
        if not any(Path(f"/proc/{pid}").exists() for pid in workers):
            break
        time.sleep(0.01)
    assert not any(Path(f"/proc/{pid}").exists() for pid in workers)
    written = out.read_bytes().count(b"\n")
    assert 0 < written < 500 * copies
    done = subprocess.run(
        command + ["--resume"], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    got = results(out)
    assert len(got) == 500 * copies
    answers = contest_answers("yes_biased_500") * copies
    assert all(got[f"big.in#{k}"]["answer"] is a for k, a in enumerate(answers, 1))


def test_dask_cluster_gives_the_local_results(tmp_path):
    from distributed import LocalCluster

    local, remote = tmp_path / "local.jsonl", tmp_path / "dask.jsonl"
    inputs = (CASES / "edge_cases.in", "puzzles/05-endgame-rules.toml")
    run("batch", *inputs, "--out", local, "--workers", "1", cwd=ROOT)
    with LocalCluster(
        n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None
    ) as cluster:
        address = cluster.scheduler_address
        result = run("batch", *inputs, "--out", remote, "--scheduler", address)
    assert result.exit_code == 0, result.output
    assert without_times(results(remote)) == without_times(results(local))
    assert "2 workers" in result.stderr


def test_bad_items_are_recorded_and_the_run_goes_on(tmp_path):
    (tmp_path / "bad.in").write_text("3\n3456789TJQKA2BR33\n44\n55\nXYZ\n44\n55\n33\n44\n55\n")
    (tmp_path / "bad.toml").write_text(
        '[[puzzle]]\nlandlord = "33"\npeasants = ["4"]\n\n'
        '[[puzzle]]\nlandlord = "3Z"\npeasants = ["4"]\n'
    )
    out = tmp_path / "out.jsonl"
    result = run("batch", "bad.in", "bad.toml", "--out", out, "--workers", "1", cwd=tmp_path)
    assert result.exit_code == 2
    got = results(out)
    assert got["bad.in#1"]["answer"] is True
    error = got["bad.in#2"]["error"]
    assert "case 2, line 5" in error and "'X'" in error and "1 case after it not read" in error
    assert got["bad.toml#1"]["answer"] is True
    assert "bad.toml, line 6" in got["bad.toml#2"]["error"]
    assert "2 errors" in result.stderr


@pytest.mark.parametrize(
    "args, message",
    [
        (("nope.in",), "nope.in: no such file or folder"),
        (("bad.in", "--resume"), "--resume needs --out"),
        (("bad.in", "--workers", "2", "--scheduler", "x:1"), "exclude each other"),
        (("bad.in", "--workers", "0"), "--workers"),
        (("bad.in", "--out", "not-results.txt", "--resume"), "not-results.txt, line 2: not a"),
        (("empty",), "empty: no puzzle (*.toml) or contest (*.in) file in it"),
    ],
)
def test_bad_usage_exits_2_with_a_clear_message(tmp_path, args, message):
    (tmp_path / "bad.in").write_text("1\n3\n4\n5\n")
    (tmp_path / "not-results.txt").write_text('{"id": "bad.in#1"}\nhello\n')
    (tmp_path / "empty").mkdir()
    result = run("batch", *args, cwd=tmp_path)
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output


def test_unreachable_scheduler_is_a_clear_error(tmp_path):
    (tmp_path / "a.in").write_text("1\n3\n4\n5\n")
    result = run("batch", "a.in", "--scheduler", "tcp://127.0.0.1:9", cwd=tmp_path)
    assert result.exit_code == 2
    assert "cannot reach the scheduler" in result.output


def test_progress_bar_only_when_asked_or_on_a_terminal(tmp_path):
    shown = run("batch", "edge_cases.in", "--progress", "--workers", "1", cwd=CASES)
    assert "items" in shown.stderr and "ETA" in shown.stderr and "\r" in shown.stderr
    quiet = run("batch", "edge_cases.in", "--workers", "1", cwd=CASES)
    assert "ETA" not in quiet.stderr


def test_limits_give_unknown_and_exit_3(tmp_path):
    hard = 'landlord = "3568899JQQA"\npeasants = ["33459TJJQK2"]\nquestion = "win"\n'
    (tmp_path / "hard.toml").write_text(hard)
    result = run("batch", "hard.toml", "--time-limit", "1e-6", "--workers", "1", cwd=tmp_path)
    assert result.exit_code == 3
    record = json.loads(result.stdout)
    assert record["answer"] is None and record["stopped_by"] == "time limit"


def test_time_percentiles_are_within_one_percent():
    rng = np.random.default_rng(1)
    times = np.exp(rng.uniform(np.log(1e-6), np.log(10), 100_000))
    hist = TimeHistogram()
    for part in np.array_split(times, 7):
        hist.add(part)
    for q in (50, 90, 99):
        exact = np.percentile(times, q)
        assert abs(hist.percentile(q) / exact - 1) < 0.011
    assert hist.max == times.max()
