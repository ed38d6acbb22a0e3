"""The inputs of a batch run: T and the first character found after any amount of
whitespace, in files and pipes alike."""

import json
from pathlib import Path

from test_batch import run

BLANKS = " \n\t" * 40_000  # 120,000 bytes: many a read's worth


def test_a_pipe_may_start_with_any_amount_of_whitespace(in_tmp):
    result = run("batch", "-", "--workers", "1", input=BLANKS + "1\n3\n4\n5\n")
    assert result.exit_code == 0, result.output
    assert [json.loads(line)["id"] for line in result.stdout.splitlines()] == ["<stdin>#1"]
    puzzle = BLANKS + 'landlord = "33"\npeasants = ["4"]\n'
    result = run("batch", "-", "--workers", "1", input=puzzle)
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["answer"] is True


def test_a_blank_pipe_is_one_error(in_tmp):
    result = run("batch", "-", "--workers", "1", input=BLANKS)
    assert result.exit_code == 2
    record = json.loads(result.stdout)
    assert record["id"] == "<stdin>" and "expected the number of cases" in record["error"]


def test_a_contest_file_may_declare_its_cases_after_any_whitespace(in_tmp):
    Path("late.in").write_text(BLANKS + "2\n3\n4\n5\n33\n44\n55\n")
    result = run("batch", "late.in", "--workers", "1")
    assert result.exit_code == 0, result.output
    ids = [json.loads(line)["id"] for line in result.stdout.splitlines()]
    assert ids == ["late.in#1", "late.in#2"]
