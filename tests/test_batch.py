"""Batch runs end to end: answers, ids, resuming (after a SIGKILL too), workers, Dask, bad
items."""

import json
import os
import pickle
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from concurrent.futures import Future
from pathlib import Path

import numpy as np
import pytest
import reference as ref
from click.testing import CliRunner
from conftest import CASES

from cli import main
from solver import batch
from solver.engines import _streamed, usable_cores
from solver.errors import RunStopped
from solver.progress import TimeHistogram, per_second
from solver.resume import split_id

ROOT = Path(__file__).resolve().parents[1]
COMMAND = [sys.executable, "-c", "from cli import main; main()", "batch"]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


def run(*args, input=None):
    return CliRunner().invoke(main, [str(a) for a in args], input=input)


@pytest.fixture()
def work(tmp_path):
    """A working folder holding copies of the shared contest cases and a puzzle file."""
    for f in CASES.glob("*.in"):
        shutil.copy(f, tmp_path)
    shutil.copy(ROOT / "puzzles" / "05-endgame-rules.toml", tmp_path / "rules.toml")
    here = os.getcwd()
    os.chdir(tmp_path)
    yield tmp_path
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


def items_solved(stderr: str) -> int:
    return int(re.search(r"^([\d,]+) items? in ", stderr, re.M).group(1).replace(",", ""))


def test_contest_cases_answer_and_prove(work, shared_cases):
    result = run("batch", "yes_biased_500.in", "--out", "out.jsonl", "--workers", "1")
    assert result.exit_code == 0, result.output
    got = results(work / "out.jsonl")
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
    shutil.copytree(ROOT / "puzzles", tmp_path / "puzzles")
    out = tmp_path / "out.jsonl"
    result = run("batch", tmp_path / "puzzles", "--out", out, "--workers", "2")
    assert result.exit_code == 0, result.output
    got = results(out)
    assert len(got) == 148
    for r in got.values():
        assert r["expect"] == (r["value"] if r["question"] == "stake" else r["answer"])
    assert got["puzzles/04-published-endgames.toml#10"]["question"] == "win"
    assert "0 mismatched" in result.stderr


@pytest.mark.skipif(usable_cores() < 2, reason="a pool needs two cores")
def test_workers_and_inline_agree(work):
    copies = batch.TASK_CASES // 2000 + 1  # two tasks at least, so that both workers work
    deals = (CASES / "random_2000.in").read_text().split(maxsplit=1)[1]
    Path("many.in").write_text(f"{2000 * copies}\n" + deals * copies)
    for out, workers in (("1.jsonl", 1), ("2.jsonl", 2)):
        result = run("batch", "many.in", "--out", out, "--workers", workers)
        assert result.exit_code == 0, result.output
        assert f"{workers} worker" in result.stderr
    got = results(work / "2.jsonl")
    assert without_times(results(work / "1.jsonl")) == without_times(got)
    answers = contest_answers("random_2000") * copies
    assert [got[f"many.in#{k}"]["answer"] for k in range(1, 2000 * copies + 1)] == answers


def test_deal_output_on_stdin(work):
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


def test_a_contest_cases_stake_is_counted_at_the_bid(work):
    text = run("deal", "--seed", "3", "-n", "5", "--strength", "0.5").stdout
    plain, bid = (
        [
            json.loads(ln)
            for ln in run("batch", "-", "--workers", "1", *extra, input=text).stdout.splitlines()
        ]
        for extra in ((), ("--bid", "3"))
    )
    springs = [r["stake"] for r in plain if r["answer"]]
    assert springs and [r["stake"] for r in bid if r["answer"]] == [
        {**s, "points": 3 * s["points"]} for s in springs
    ]


def test_the_output_inside_an_input_folder_is_not_read_as_an_input(tmp_path):
    folder = tmp_path / "set"
    folder.mkdir()
    (folder / "d.in").write_text(run("deal", "--seed", "3", "-n", "5").stdout)
    out = folder / "res.in"  # named as a contest file, found by the folder's scan
    for again in ((), (), ("--resume",)):
        result = run("batch", folder, "--out", out, "--workers", "1", *again)
        assert result.exit_code == 0, result.output
        assert sorted(results(out)) == [f"d.in#{k}" for k in range(1, 6)]


def test_an_input_inside_an_input_folder_is_still_refused_as_the_output(tmp_path):
    folder = tmp_path / "set"
    folder.mkdir()
    deals = run("deal", "--seed", "3", "-n", "5").stdout
    (folder / "d.in").write_text(deals)
    (folder / "e.in").write_text(deals)
    result = run("batch", folder, "--out", folder / "d.in", "--workers", "1")
    assert result.exit_code == 2 and "it is also an input" in result.output
    assert (folder / "d.in").read_text() == deals


def test_no_usable_input_leaves_the_output_untouched(tmp_path):
    out = tmp_path / "out.jsonl"
    out.write_text('{"id": "d.in#1", "answer": true}\n')
    for names in (["nope.in"], ["nope.in", "nope.in", tmp_path / "none"]):
        result = run("batch", *names, "--out", out, "--workers", "1")
        assert result.exit_code == 2 and "nope.in: no such file or folder" in result.output
        assert out.read_text() == '{"id": "d.in#1", "answer": true}\n'


def test_a_missing_input_is_an_error_line_and_the_others_are_solved(tmp_path):
    (tmp_path / "d.in").write_text(run("deal", "--seed", "3", "-n", "5").stdout)
    out = tmp_path / "out.jsonl"
    result = run("batch", tmp_path / "nope.in", tmp_path / "d.in", "--out", out, "--workers", "1")
    assert result.exit_code == 2
    got = results(out)
    assert got[str(tmp_path / "nope.in")] == {
        "id": str(tmp_path / "nope.in"),
        "error": f"{tmp_path / 'nope.in'}: no such file or folder",
    }
    assert all(isinstance(got[f"d.in#{k}"]["answer"], bool) for k in range(1, 6))


def test_a_named_pipe_is_read_like_stdin(work):
    os.mkfifo("pipe")
    text = run("deal", "--seed", "2", "-n", "5").stdout
    writer = threading.Thread(target=lambda: Path("pipe").write_text(text))
    writer.start()
    result = run("batch", "pipe", "--workers", "1")
    writer.join()
    assert result.exit_code == 0, result.output
    assert [json.loads(ln)["id"] for ln in result.stdout.splitlines()] == [
        f"pipe#{k}" for k in range(1, 6)
    ]


def test_ids_name_files_from_the_output_folder(work):
    first = run("batch", "edge_cases.in", "--out", "out.jsonl", "--workers", "1")
    assert first.exit_code == 0, first.output
    ids = set(results(work / "out.jsonl"))
    assert ids == {f"edge_cases.in#{k}" for k in range(1, 17)}
    os.chdir(work.parent)  # the same files, named from elsewhere: nothing to redo
    again = run("batch", f"{work.name}/./edge_cases.in", "--out", work / "out.jsonl", "--resume")
    assert again.exit_code == 0, again.output
    assert items_solved(again.stderr) == 0 and "16 skipped" in again.stderr
    assert set(results(work / "out.jsonl")) == ids
    os.chdir(work)
    named = ("edge_cases.in", ".", "./edge_cases.in", "-", "-")
    result = run("batch", *named, "--out", "all.jsonl", "--workers", "1", input="1\n3\n4\n5\n")
    assert result.exit_code == 0, result.output
    got = results(work / "all.jsonl")  # every item once, though named three times
    cases = sum(len(f.read_text().splitlines()) for f in CASES.glob("*.ans"))
    assert len(got) == cases + 14 + 1 and "<stdin>#1" in got and "rules.toml#14" in got
    assert split_id("a#b.in#12") == ("a#b.in", 12)
    assert split_id("broken.in") == ("broken.in", 0)


def test_resume_cuts_a_half_written_line_and_finishes(work):
    run("batch", "skewed_500.in", "--out", "full.jsonl", "--workers", "1")
    text = (work / "full.jsonl").read_bytes()
    cut = text.index(b"\n", len(text) // 3) + 20  # 20 bytes into a line
    (work / "part.jsonl").write_bytes(text[:cut])
    kept = text[:cut].count(b"\n")
    result = run("batch", "skewed_500.in", "--out", "part.jsonl", "--resume", "--workers", "2")
    assert result.exit_code == 0, result.output
    assert items_solved(result.stderr) == 500 - kept
    assert f"{kept:,} skipped" in result.stderr
    assert without_times(results(work / "part.jsonl")) == without_times(
        results(work / "full.jsonl")
    )
    again = run("batch", "skewed_500.in", "--out", "part.jsonl", "--resume")
    assert again.exit_code == 0 and items_solved(again.stderr) == 0
    assert len(results(work / "part.jsonl")) == 500


def test_resume_tries_failed_items_again(work):
    Path("p.toml").write_text('[[puzzle]]\nlandlord = "33"\npeasants = ["4"]\n\n[[puzzle]]\n')
    Path("q.toml").write_text("not = [toml")
    first = run("batch", "p.toml", "q.toml", "--out", "out.jsonl", "--workers", "1")
    assert first.exit_code == 2
    got = results(work / "out.jsonl")
    assert "no 'landlord' hand" in got["p.toml#2"]["error"]
    assert "TOML syntax error" in got["q.toml"]["error"]  # a whole file: its bare name
    Path("p.toml").write_text(
        '[[puzzle]]\nlandlord = "33"\npeasants = ["4"]\n\n'
        '[[puzzle]]\nlandlord = "34"\npeasants = ["5"]\n'
    )
    Path("q.toml").write_text('landlord = "2"\npeasants = ["3"]\n')
    fixed = run("batch", "p.toml", "q.toml", "--out", "out.jsonl", "--resume")
    assert fixed.exit_code == 0, fixed.output
    assert "2 items that failed before tried again" in fixed.stderr
    got = results(work / "out.jsonl")
    assert set(got) == {"p.toml#1", "p.toml#2", "q.toml#1"}
    assert got["p.toml#2"]["answer"] is False and got["q.toml#1"]["answer"] is True


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


@pytest.mark.skipif(usable_cores() < 2, reason="a pool needs two cores")
def test_sigkill_then_resume_answers_every_item_once(tmp_path):
    """Kill a parallel run mid-way with SIGKILL; the resumed run completes it exactly."""
    deals = (CASES / "yes_biased_500.in").read_text().split(maxsplit=1)[1]
    copies = 600  # 300,000 cases: a few seconds of work, so the kill lands mid-run
    (tmp_path / "big.in").write_text(f"{500 * copies}\n" + deals * copies)
    out = tmp_path / "out.jsonl"
    command = COMMAND + ["big.in", "--out", str(out), "--workers", "2"]
    proc = subprocess.Popen(command, cwd=tmp_path, env=ENV, stderr=subprocess.PIPE)
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
        command + ["--resume"], cwd=tmp_path, env=ENV, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    got = results(out)
    assert len(got) == 500 * copies
    answers = contest_answers("yes_biased_500") * copies
    assert all(got[f"big.in#{k}"]["answer"] is a for k, a in enumerate(answers, 1))


def test_a_closed_pipe_ends_the_run_quietly(tmp_path):
    deals = (CASES / "random_2000.in").read_text().split(maxsplit=1)[1]
    (tmp_path / "big.in").write_text(f"{2000 * 50}\n" + deals * 50)
    proc = subprocess.Popen(
        COMMAND + ["big.in", "--workers", "1"],
        cwd=tmp_path,
        env=ENV,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert json.loads(proc.stdout.readline())["id"] == "big.in#1"
    proc.stdout.close()
    assert proc.wait(timeout=60) == 1
    assert proc.stderr.read() == b""


def test_dask_cluster_gives_the_local_results(work):
    from distributed import LocalCluster

    inputs = ("edge_cases.in", "rules.toml")
    run("batch", *inputs, "--out", "local.jsonl", "--workers", "1")
    with LocalCluster(
        n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None
    ) as cluster:
        result = run(
            "batch", *inputs, "--out", "dask.jsonl", "--scheduler", cluster.scheduler_address
        )
    assert result.exit_code == 0, result.output
    remote = results(work / "dask.jsonl")
    assert without_times(remote) == without_times(results(work / "local.jsonl"))
    assert len(remote) == 16 + 14
    assert "2 workers" in result.stderr


def test_tasks_and_results_travel_by_pickle(shared_cases):
    """What a Dask or pool worker receives and returns survives pickling."""
    hands, answers = shared_cases["edge_cases"]
    task = batch.Task("e.in", np.arange(1, 17), hands.astype(np.uint8))
    settings = batch.Settings(bans=("trio+pair",))
    here = batch.run_task(task, settings)
    shipped = pickle.loads(pickle.dumps((task, settings)))
    there = pickle.loads(pickle.dumps(batch.run_task(*shipped)))

    def records(result: batch.TaskResult) -> list[dict]:
        return [
            {k: v for k, v in json.loads(line).items() if k != "seconds"}
            for line in result.data.splitlines()
        ]

    assert records(here) == records(there) and here.counts == there.counts
    assert [r["answer"] for r in records(there)] == answers
    assert there.items == 16 and len(there.times) == 16


def test_a_failed_task_stops_the_run_without_writing_its_items():
    broken: Future = Future()
    broken.set_exception(ConnectionError("the scheduler went away"))
    task = batch.Task("x.in", np.arange(1, 3), np.zeros((2, 3, 15), np.uint8))
    stream = _streamed(lambda t: broken, iter([task]), batch.Task, 4)
    with pytest.raises(RunStopped, match="ConnectionError: the scheduler went away"):
        next(stream)


def test_bad_items_are_recorded_and_the_run_goes_on(work):
    Path("bad.in").write_text("3\n3456789TJQKA2BR33\n44\n55\nXYZ\n44\n55\n33\n44\n55\n")
    Path("bad.toml").write_text(
        '[[puzzle]]\nlandlord = "33"\npeasants = ["4"]\n\n'
        '[[puzzle]]\nlandlord = "3Z"\npeasants = ["4"]\n'
    )
    result = run("batch", "bad.in", "bad.toml", "--out", "out.jsonl", "--workers", "1")
    assert result.exit_code == 2
    got = results(work / "out.jsonl")
    assert got["bad.in#1"]["answer"] is True
    error = got["bad.in#2"]["error"]
    assert "case 2, line 5" in error and "'X'" in error and "cases after it are not read" in error
    assert got["bad.toml#1"]["answer"] is True
    assert "bad.toml, line 6" in got["bad.toml#2"]["error"]
    assert "2 errors" in result.stderr


@pytest.mark.parametrize(
    "args, message",
    [
        (("nope.in",), "nope.in: no such file or folder"),
        (("nope.in", "gone.in"), "nope.in: no such file or folder; gone.in: no such file"),
        (("bad.in", "--retry-unknown"), "--retry-unknown goes with --resume"),
        (("bad.in", "--resume"), "--resume needs --out"),
        (("bad.in", "--workers", "2", "--scheduler", "x:1"), "exclude each other"),
        (("bad.in", "--workers", "0"), "--workers"),
        (("bad.in", "--out", "not-results.txt", "--resume"), "not-results.txt, line 2: not a"),
        (("empty",), "empty: no puzzle (*.toml) or contest (*.in) file in it"),
        (("bad.in", "--out", "./bad.in"), "--out bad.in: it is also an input"),
        (("p.toml", "--out", "p.toml"), "--out p.toml: it is also an input"),
        (("bad.in", "--out", "nowhere/out.jsonl"), "--out nowhere/out.jsonl: cannot write"),
        (("bad.in", "--out", "notes.txt", "--resume"), "notes.txt, line 1: not a batch result"),
        (("p.toml", "--out", "p.toml", "--resume"), "--out p.toml: it is also an input"),
    ],
)
def test_bad_usage_exits_2_with_a_clear_message(tmp_path, args, message):
    (tmp_path / "bad.in").write_text("1\n3\n4\n5\n")
    (tmp_path / "not-results.txt").write_text('{"id": "bad.in#1"}\nhello\n')
    (tmp_path / "empty").mkdir()
    puzzle = '[[puzzle]]\nlandlord = "3Z"\npeasants = ["4"]\n'
    (tmp_path / "p.toml").write_text(puzzle)
    (tmp_path / "notes.txt").write_text("my notes, no newline")
    here = os.getcwd()
    os.chdir(tmp_path)
    try:
        result = run("batch", *args)
    finally:
        os.chdir(here)
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output
    assert (tmp_path / "bad.in").read_text() == "1\n3\n4\n5\n"
    assert (tmp_path / "p.toml").read_text() == puzzle
    assert (tmp_path / "notes.txt").read_text() == "my notes, no newline"


def test_a_run_that_cannot_start_leaves_the_old_output_alone(work):
    Path("out.jsonl").write_text('{"id": "edge_cases.in#1", "answer": true}\n')
    result = run("batch", "edge_cases.in", "--out", "out.jsonl", "--scheduler", "tcp://127.0.0.1:9")
    assert result.exit_code == 1
    assert "cannot reach the scheduler" in result.output and "Traceback" not in result.output
    assert Path("out.jsonl").read_text() == '{"id": "edge_cases.in#1", "answer": true}\n'


def test_resume_through_a_link_to_the_output(work):
    Path("real").mkdir()
    first = run("batch", "edge_cases.in", "--out", "real/out.jsonl", "--workers", "1")
    assert first.exit_code == 0
    Path("link.jsonl").symlink_to("real/out.jsonl")
    again = run("batch", "real/../edge_cases.in", "--out", "link.jsonl", "--resume")
    assert again.exit_code == 0, again.output
    assert "16 skipped" in again.stderr and "warning" not in again.stderr
    assert len(results(work / "real" / "out.jsonl")) == 16 and Path("link.jsonl").is_symlink()


def test_progress_bar_only_when_asked_or_on_a_terminal(work):
    shown = run("batch", "edge_cases.in", "--progress", "--workers", "1")
    assert "16/16 items" in shown.stderr and "ETA" in shown.stderr and "\r" in shown.stderr
    quiet = run("batch", "edge_cases.in", "--workers", "1")
    assert "ETA" not in quiet.stderr


def test_limits_give_unknown_and_exit_3(work):
    hard = 'landlord = "3568899JQQA"\npeasants = ["33459TJJQK2"]\nquestion = "win"\n'
    Path("hard.toml").write_text(hard)
    result = run("batch", "hard.toml", "--time-limit", "1e-6", "--workers", "1")
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


def test_a_puzzle_file_nested_too_deep_is_one_error_and_the_run_goes_on(work):
    Path("deep.toml").write_text(f'landlord = "33"\npeasants = {"[" * 500}{"]" * 500}\n')
    inputs = ("edge_cases.in", "deep.toml", "rules.toml")
    result = run("batch", *inputs, "--out", "out.jsonl", "--workers", "1")
    assert result.exit_code == 2, result.output
    got = results(work / "out.jsonl")
    assert "deep.toml" in got["deep.toml"]["error"]
    assert len(got) == 1 + 16 + 14
    assert all("answer" in r for item, r in got.items() if item != "deep.toml")


def test_a_slow_rate_is_not_rounded_to_zero():
    assert [per_second(r) for r in (0.0, 5e-5, 0.4887, 2.5, 9.96, 10.4, 175_123.6)] == [
        "0",
        "<0.01",
        "0.49",
        "2.5",
        "10",
        "10",
        "175,124",
    ]


def test_a_folder_scan_reads_upper_case_extensions(tmp_path):
    (tmp_path / "UP.IN").write_text(run("deal", "--seed", "3", "-n", "2").stdout)
    (tmp_path / "P.TOML").write_text('landlord = "33"\npeasants = ["4", "5"]\n')
    result = run("batch", tmp_path, "--out", tmp_path / "out.jsonl", "--workers", "1")
    assert result.exit_code == 0, result.output
    assert sorted(results(tmp_path / "out.jsonl")) == ["P.TOML#1", "UP.IN#1", "UP.IN#2"]
    assert run("solve", tmp_path).stderr.splitlines()[-1].startswith("1 solved, ")
