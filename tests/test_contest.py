"""The contest reader: chunked reading equals whole reading, errors across chunks."""

import numpy as np
import pytest
from click.testing import CliRunner
from conftest import CASES

from cli import main
from solver.contest import contest_chunks, read_contest
from solver.errors import InputFileError


def test_chunks_equal_the_whole_file():
    data = (CASES / "random_2000.in").read_bytes()
    whole = read_contest(data, "random_2000")
    parts = list(contest_chunks(data, "random_2000", chunk=7))
    assert len(parts) == -(-2000 // 7)
    assert [p.first for p in parts] == list(range(0, 2000, 7))
    assert np.array_equal(np.concatenate([p.hands for p in parts]), whole.hands)
    assert whole.hands.shape == (2000, 3, 15) and whole.error is None
    assert (whole.hands.sum(axis=2) == (20, 17, 17)).all()


def test_error_in_a_later_chunk_names_the_file_case():
    data = (CASES / "random_2000.in").read_bytes()
    lines = data.split(b"\n")
    lines[1 + 3 * 1234 + 1] = b"3?" + lines[1 + 3 * 1234 + 1][2:]  # case 1235, peasant 1
    parts = list(contest_chunks(b"\n".join(lines), "f", chunk=100))
    assert sum(len(p.hands) for p in parts) == 1234
    assert str(parts[-1].error).startswith("f, case 1235, line 3705: unknown card '?'")


def test_zero_cases():
    result = CliRunner().invoke(main, ["judge"], input="0\n")
    assert result.exit_code == 0 and result.stdout == ""


def test_a_huge_count_is_a_missing_case_not_a_crash():
    result = CliRunner().invoke(main, ["judge"], input="1000000000000\n3 4 5\n")
    assert result.exit_code == 2
    assert result.stdout == "Case 1: Yes\n"  # a single card is one play
    assert "case 2" in result.stderr and "declares 1000000000000 cases" in result.stderr


@pytest.mark.parametrize("count", [b"-1", b"+1", b"1_0", b"1.0"])
def test_the_count_is_plain_digits(count):
    with pytest.raises(InputFileError, match="expected the number of cases"):
        read_contest(count + b"\n3 4 5\n", "f")


def test_ten_as_two_characters():
    hands = read_contest(b"1\n1010TT 3 4\n", "f").hands
    assert hands[0, 0, 7] == 4
