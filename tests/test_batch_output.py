"""The output of a batch run: devices and pipes as --out, one run at a time on a file (its
lock), and --resume compacting the file in place (error lines, repeated ids, blanks)."""

import itertools
import json
import os
import shutil
import signal
import subprocess
import threading
import time
from pathlib import Path

import pytest
from conftest import CASES
from test_batch import COMMAND, ENV, items_solved, results, run

from solver import resume
from solver.errors import OutputError
from solver.resume import finished_items, open_output

TWO = "2\n3\n4\n5\n33\n44\n55\n"  # two tiny deals


@pytest.fixture()
def work(tmp_path):
    """A working folder holding a copy of the shared edge cases and a two-deal file."""
    shutil.copy(CASES / "edge_cases.in", tmp_path)
    (tmp_path / "two.in").write_text(TWO)
    here = os.getcwd()
    os.chdir(tmp_path)
    yield tmp_path
    os.chdir(here)


def test_a_device_as_out_is_written_to_not_emptied(work):
    for extra in ((), ("--resume",)):
        result = run("batch", "two.in", "--out", os.devnull, "--workers", "1", *extra)
        assert result.exit_code == 0, result.output
        assert items_solved(result.stderr) == 2


def test_a_fifo_as_out_is_written_to(work):
    os.mkfifo("out.fifo")
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(Path("out.fifo").read_bytes()))
    reader.start()
    try:
        result = run("batch", "two.in", "--out", "out.fifo", "--workers", "1")
    finally:
        reader.join(timeout=10)
        if reader.is_alive():  # the run never opened the pipe: let the reader go
            os.close(os.open("out.fifo", os.O_WRONLY | os.O_NONBLOCK))
            reader.join()
    assert result.exit_code == 0, result.output
    assert [json.loads(line)["id"] for line in got[0].splitlines()] == ["two.in#1", "two.in#2"]


def test_a_fresh_run_empties_its_output_even_with_no_items(work):
    Path("none.in").write_text("0\n")
    Path("out.jsonl").write_text('{"id": "old.in#1", "answer": true}\n')
    result = run("batch", "none.in", "--out", "out.jsonl", "--workers", "1")
    assert result.exit_code == 0, result.output
    assert Path("out.jsonl").read_bytes() == b""


def test_an_output_is_held_by_one_run_at_a_time(tmp_path):
    path = tmp_path / "out.jsonl"
    first = open_output(path, "out.jsonl")
    with pytest.raises(OutputError, match="out.jsonl: another landlord batch run is writing it"):
        open_output(path, "out.jsonl")
    first.close()
    open_output(path, "out.jsonl").close()  # free again


def test_a_second_run_on_the_same_output_is_refused(tmp_path):
    """The first run is stopped (SIGSTOP) mid-way, holding its output; a second run,
    fresh or resuming, is refused in one line and leaves the file alone."""
    deals = (CASES / "yes_biased_500.in").read_text().split(maxsplit=1)[1]
    copies = 200  # 100,000 cases
    (tmp_path / "big.in").write_text(f"{500 * copies}\n" + deals * copies)
    out = tmp_path / "out.jsonl"
    command = COMMAND + ["big.in", "--out", str(out), "--workers", "1"]
    first = subprocess.Popen(command, cwd=tmp_path, env=ENV, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120
        while first.poll() is None and time.monotonic() < deadline:
            if out.exists() and out.stat().st_size:
                break
            time.sleep(0.002)
        first.send_signal(signal.SIGSTOP)
        assert first.poll() is None, "the first run ended before it could be stopped"
        while Path(f"/proc/{first.pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "T":
            time.sleep(0.001)  # stopped only once its write in progress is done
        held = out.read_bytes()
        for extra in ([], ["--resume"]):
            second = subprocess.run(
                command + extra, cwd=tmp_path, env=ENV, capture_output=True, text=True, timeout=60
            )
            assert second.returncode == 1
            assert second.stderr.count("\n") == 1 and "Traceback" not in second.stderr
            assert "out.jsonl: another landlord batch run is writing it" in second.stderr
            assert out.read_bytes() == held
    finally:
        first.send_signal(signal.SIGCONT)
    assert first.wait(timeout=120) == 0
    assert len(results(out)) == 500 * copies


def edge_lines() -> list[bytes]:
    """The 16 result lines of the shared edge cases, in order."""
    result = run("batch", "edge_cases.in", "--out", "full.jsonl", "--workers", "1")
    assert result.exit_code == 0, result.output
    return Path("full.jsonl").read_bytes().splitlines(keepends=True)


def repeated(line: bytes) -> bytes:
    """A later line of the same id, told apart from the first by its time."""
    record = json.loads(line)
    return json.dumps({**record, "seconds": 99.0}).encode() + b"\n"


@pytest.mark.parametrize("cut", [1, 4, 20])  # a kill can cut a line anywhere, even in "id"
def test_resume_drops_repeated_ids_keeping_the_first_line(work, cut):
    lines = edge_lines()
    error = b'{"id": "edge_cases.in#9", "error": "it failed"}\n'
    text = lines[:8] + [repeated(x) for x in lines[2:6]] + [b"\n", error, repeated(lines[7])]
    Path("out.jsonl").write_bytes(b"".join(text) + lines[9][:cut])  # a half-written last line
    inode = os.stat("out.jsonl").st_ino
    done = subprocess.run(
        COMMAND + ["edge_cases.in", "--out", "out.jsonl", "--resume", "--workers", "1"],
        cwd=work,
        env=ENV,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert items_solved(done.stderr) == 8
    assert "5 duplicate lines removed" in done.stderr
    assert "1 item that failed before tried again" in done.stderr
    got = results(work / "out.jsonl")  # every id once
    assert len(got) == 16 and all(r["seconds"] != 99.0 for r in got.values())
    assert Path("out.jsonl").read_bytes().startswith(b"".join(lines[:8]))
    assert os.stat("out.jsonl").st_ino == inode  # rewritten in place, under the lock


def mixed_output(tmp_path: Path) -> tuple[Path, bytes]:
    """An output to compact (results, errors, repeated ids, blanks) and what is kept."""
    kept, text = [], []
    for k in range(1, 41):
        line = json.dumps({"id": f"a.in#{k}", "answer": k % 2 == 0, "pad": "x" * k})
        kept.append(line.encode() + b"\n")
        text.append(kept[-1])
        if k % 3 == 0:  # 13 items that failed, and have no result
            text.append(json.dumps({"id": f"a.in#{100 + k}", "error": "bad"}).encode() + b"\n")
        if k % 4 == 0:
            text.append(json.dumps({"id": f"a.in#{k // 2}", "answer": None}).encode() + b"\n")
        if k % 7 == 0:
            text.append(b"\n")
    text.append(b'{"id": "a.in#1", "error": "bad"}\n')  # failed, yet it has a result
    path = tmp_path / "out.jsonl"
    path.write_bytes(b"".join(text))
    return path, b"".join(kept)


@pytest.mark.parametrize("flush", [1, 50, 333, 1 << 20])
def test_resume_compacts_in_place_whatever_the_flush_size(tmp_path, monkeypatch, flush):
    monkeypatch.setattr(resume, "FLUSH", flush)
    path, kept = mixed_output(tmp_path)
    inode = path.stat().st_ino
    with open_output(path, "out.jsonl") as file:
        found = finished_items(file, path)
        file.write(b"appended\n")
    assert path.read_bytes() == kept + b"appended\n" and path.stat().st_ino == inode
    assert found.errors == 13 and found.duplicates == 10
    assert found.finished["a.in"].numbers.tolist() == list(range(1, 41))


class Killed(BaseException):
    """A kill, in the middle of a compaction."""


@pytest.mark.parametrize("flush", [1, 90])
def test_a_compaction_killed_at_any_write_leaves_a_resumable_file(tmp_path, monkeypatch, flush):
    monkeypatch.setattr(resume, "FLUSH", flush)
    real_pwrite = os.pwrite
    budget = -1  # writes left before the kill (none when negative)

    def pwrite(fd: int, data: bytes, offset: int) -> int:
        nonlocal budget
        if budget == 0:
            raise Killed
        budget -= 1
        return real_pwrite(fd, data, offset)

    monkeypatch.setattr(os, "pwrite", pwrite)
    for kill_at in itertools.count():
        path, kept = mixed_output(tmp_path)
        budget = kill_at
        with open_output(path, "out.jsonl") as file:
            try:
                finished_items(file, path)
                break  # done before the kill: every write has had its turn
            except Killed:
                pass
        budget = -1
        with open_output(path, "out.jsonl") as file:  # the next resume reads it, and fixes it
            found = finished_items(file, path)
        assert path.read_bytes() == kept, f"killed at write {kill_at}"
        assert found.finished["a.in"].numbers.tolist() == list(range(1, 41))
    assert kill_at > 3


def test_resume_tries_again_the_items_of_lines_that_are_no_whole_result(work):
    assert run("batch", "two.in", "--out", "out.jsonl", "--workers", "1").exit_code == 0
    first, second = Path("out.jsonl").read_bytes().splitlines(keepends=True)
    for bad in (
        second[:40] + b"\n",
        second.replace(b"e-", b'NaN, "x": 1e-'),
        b"\xef\xbb\xbf" + second,
    ):
        Path("out.jsonl").write_bytes(bad + first)
        result = run("batch", "two.in", "--out", "out.jsonl", "--workers", "1", "--resume")
        assert result.exit_code == 0, result.output
        assert "1 broken line (no whole result) removed, their items tried again" in result.stderr
        lines = Path("out.jsonl").read_bytes().splitlines()
        assert [json.loads(ln)["id"] for ln in lines] == ["two.in#1", "two.in#2"]


def test_resume_asks_again_the_items_a_line_answers_another_question_of(work):
    Path("p.toml").write_text('[[puzzle]]\nquestion = "win"\nlandlord = "2223"\npeasants = ["4"]\n')
    assert run("batch", "p.toml", "two.in", "--out", "out.jsonl", "--workers", "1").exit_code == 0
    result = run(
        "batch", "p.toml", "two.in", "--out", "out.jsonl", "--resume", "--question", "stake"
    )
    assert result.exit_code == 0, result.output
    assert "1 line answering another question removed, their items asked again" in result.stderr
    got = results(work / "out.jsonl")
    assert got["p.toml#1"]["question"] == "stake" and got["p.toml#1"]["value"] == 2
    assert got["two.in#1"]["question"] == "spring" and len(got) == 3  # cases are springs
    again = run("batch", "p.toml", "two.in", "--out", "out.jsonl", "--resume")
    assert again.exit_code == 0, again.output
    assert "1 line answering another question" in again.stderr  # back to the puzzle's own
    assert results(work / "out.jsonl")["p.toml#1"]["question"] == "win"


def test_resume_counts_answers_left_unknown_and_retries_them_when_asked(work):
    Path("p.toml").write_text(
        '[[puzzle]]\nquestion = "win"\nlandlord = "3456789TJQKA2BR"\n'
        'peasants = ["33445566778899TTJJ"]\n'
    )
    limited = ("batch", "p.toml", "--out", "out.jsonl", "--workers", "1")
    first = run(*limited, "--time-limit", "1e-9")
    assert first.exit_code == 3 and results(work / "out.jsonl")["p.toml#1"]["answer"] is None
    kept = run(*limited, "--resume")
    assert kept.exit_code == 3, kept.output
    assert "1 result already in out.jsonl left unknown by a limit" in kept.stderr
    retried = run(*limited, "--resume", "--retry-unknown")
    assert retried.exit_code == 0, retried.output
    assert "1 item left unknown before solved again" in retried.stderr
    assert results(work / "out.jsonl")["p.toml#1"]["answer"] is not None
