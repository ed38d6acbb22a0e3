"""The contest reader: chunked reading equals whole reading, errors across chunks."""

import io
import json

import numpy as np
import pytest
from click.testing import CliRunner
from conftest import CASES

from cli import main
from solver import contest
from solver.contest import contest_chunks, read_contest
from solver.errors import InputFileError


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


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
    assert "case 2" in result.stderr and "declares 1,000,000,000,000 cases" in result.stderr


@pytest.mark.parametrize("count", [b"-1", b"+1", b"1_0", b"1.0"])
def test_the_count_is_plain_digits(count):
    with pytest.raises(InputFileError, match="expected the number of cases"):
        read_contest(count + b"\n3 4 5\n", "f")


def test_ten_as_two_characters():
    hands = read_contest(b"1\n1010TT 3 4\n", "f").hands
    assert hands[0, 0, 7] == 4


def _blocks(monkeypatch, size):
    """Make the reader take its input ``size`` bytes at a time."""
    monkeypatch.setattr(contest, "BLOCK", size)


AWKWARD = (
    b" " * 5000
    + b"\r\n\t 3\n"  # T after a long run of blanks
    + b"33445566778899AAKK22\r\n1010TTJJQQ3456789 \x0b\x0c BR2"  # the ten as 10
    + b" " * 6000
    + b"\n345\n6\n7"  # a long run of blanks between cases
    + b"\n\n1010 J Q"  # the file ends inside the last hand
)


@pytest.mark.parametrize("size", [1, 2, 3, 5, 7, 64, 4096, 1 << 20])
def test_a_block_may_end_anywhere(monkeypatch, size):
    whole = read_contest(AWKWARD, "f")
    _blocks(monkeypatch, size)
    parts = list(contest_chunks(AWKWARD, "f", chunk=2))
    assert [p.first for p in parts] == [0, 2]
    assert np.array_equal(np.concatenate([p.hands for p in parts]), whole.hands)
    assert whole.hands.shape == (3, 3, 15) and parts[-1].error is None
    assert whole.hands[0, 1, 7] == 4 and whole.hands[2, 0, 7] == 2


@pytest.mark.parametrize("size", [1, 3, 7, 1000])
@pytest.mark.parametrize(
    "text, message",
    [
        (
            b"2\n3 4 5\n33 4 5?6\n",
            "f, case 2, line 3: unknown card '?' in peasant 2's hand '5?6'",
        ),
        (b"  \n\n 1x\n", "f, line 3: expected the number of cases, got '1x'"),
        (b"2\n3 4 5\n\n\n6 7", "f, case 2, line 5: the file ends before peasant 2's hand"),
        (b"2\r3 4 5\r\r\r6 7", "f, case 2, line 5: the file ends before peasant 2's hand"),
        (b"2\r\n3\r\n4\r\n5\r\n\r\n6 X", "f, case 2, line 6: unknown card 'X' in peasant 1's"),
        (b"2\n\r3 4 5\r\n\n\r6 X", "f, case 2, line 6: unknown card 'X' in peasant 1's"),
        (b"1\n3 4 5 " + b"3" * 30 + b"\n", None),  # what follows T cases is not read
        (b"1\n3 4 5 1\n", None),
        (b"1\n31 4 5\n", "unknown card '1' in the landlord's hand '31'"),
        (b"1\n3,3-4 5 6\n", None),  # commas and dashes between cards
        (b"1\n3 - 6\n", "f, case 1, line 2: peasant 1's hand '-' holds no card"),
        (b"1\n1,0 4 5\n", "unknown card '1' in the landlord's hand '1,0'"),
        (
            b"1\n3 4 33333\n",
            "f, case 1, line 2: peasant 2's hand '33333' holds more than 4 x 3",
        ),
    ],
)
def test_errors_do_not_depend_on_the_blocks(monkeypatch, size, text, message):
    _blocks(monkeypatch, size)
    try:
        error = read_contest(text, "f").error
    except InputFileError as e:  # a bad T: nothing can be read
        error = e
    assert (error is None) if message is None else message in str(error), error


def test_t_after_a_page_of_blank_lines_is_read(tmp_path):
    """T beyond the first 4,096 bytes: every case answered, by judge, validate and batch."""
    deals = run("deal", "--seed", 5, "-n", 12).stdout
    clean, padded, spaced = (tmp_path / n for n in ("clean.in", "padded.in", "spaced.in"))
    clean.write_text(deals)
    padded.write_text("\n" * 4095 + deals)
    spaced.write_text(" " * 5000 + deals)
    answers = run("judge", clean).stdout
    assert answers.count("\n") == 12
    for path in (padded, spaced):
        assert run("judge", path).stdout == answers
        assert run("validate", path).stdout.endswith(
            "valid, 12 cases, each a complete deal split 20/17/17\n"
        )
        batch = run("batch", path, "--workers", "1")
        assert batch.exit_code == 0, batch.output
        got = [json.loads(line)["answer"] for line in batch.stdout.splitlines()]
        assert got == [a.endswith("Yes") for a in answers.splitlines()]
    with open(padded, "rb") as f:
        assert contest.declared_cases(f, "padded") == 12


class _Pipe(io.RawIOBase):
    """A pipe's end: bytes come only as asked for, never all at once."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.at = 0

    def readable(self) -> bool:
        return True

    def read(self, size: int = -1) -> bytes:
        assert size > 0, "the whole input was asked for"
        out = self.data[self.at : self.at + size]
        self.at += len(out)
        return out


def test_a_pipe_is_read_a_block_at_a_time(monkeypatch):
    data = (CASES / "random_2000.in").read_bytes()
    _blocks(monkeypatch, 4096)
    pipe = _Pipe(data)
    ahead = []
    for part in contest_chunks(pipe, "<stdin>", chunk=100):
        ahead.append(pipe.at - 57 * (part.first + len(part.hands)))
        assert part.error is None
    assert len(ahead) == 20 and max(ahead) <= 4096 + 57  # never more than a block ahead


def test_a_byte_order_mark_is_skipped():
    assert read_contest(b"\xef\xbb\xbf1\n3 4 5\n", "f").hands.shape == (1, 3, 15)


@pytest.mark.parametrize(
    "text, shown",
    [
        (b"1\n33\xff 4 5\n", r"unknown card '\xff' in the landlord's hand '33\xff'"),
        (b"1\n3\xef\xbc\x93 4 5\n", "unknown card '\uff13' in the landlord's hand '3\uff13'"),
        (b"1\n3\x01 4 5\n", r"unknown card '\x01'"),
    ],
)
def test_a_bad_byte_is_named(text, shown):
    assert shown in str(read_contest(text, "f").error)


def test_validate_counts_in_words():
    assert contest.validate(run("deal", "--seed", 1).stdout.encode(), "f") == (
        "f: valid, 1 case, each a complete deal split 20/17/17"
    )


def compare(text):
    """check's verdict on an output, for two cases whose answers are No and Yes."""
    problems, cases, differ = contest.compare_output(
        [np.array([False, True])], io.BytesIO(text.encode()), "o"
    )
    assert cases == 2 and (differ > 0) == any(p.startswith("Case") for p in problems)
    return problems


def test_check_wants_ascii_case_numbers_and_counts_lines_as_an_editor_does():
    assert compare("Case 1: No\nCase 2: Yes\n") == []
    assert compare("Case 1: No\r\nCase 2: Yes\r\n \n\t\n") == []
    assert compare("Case 1: No\rCase 2: Yes\r\r") == []
    assert compare("Case 1: No\r\rCase 2: Yes\r")[0].endswith("got '' (o, line 2)")
    arabic = compare("Case \u0661: No\nCase 2: Yes\n")
    assert arabic == ["Case 1: expected 'Case 1: No', got 'Case \u0661: No' (o, line 1)"]
    assert compare("Case 01: No\nCase 2: Yes\n")[0].endswith("got 'Case 01: No' (o, line 1)")
    assert compare("Case 2: Yes\nCase 1: No\n")[0].endswith("got 'Case 2: Yes' (o, line 1)")
    assert compare("Case " + "1" * 5000 + ": No\nCase 2: Yes\n")[0].startswith("Case 1: exp")
    trailing = compare("Case 1: No \t\nCase 2: Yes\n")
    assert trailing == [
        r"Case 1: expected 'Case 1: No', got 'Case 1: No \t' (o, line 1: blanks after the answer)"
    ]
    for blank in ("\u3000", "\u00a0"):  # only ASCII blanks are blank to a checker
        assert compare(f"Case 1: No\nCase 2: Yes\n{blank}\n") != []
    for odd, shown in (("\x0c", r"\x0c"), ("\u2028", r"\u2028"), ("\x1c", r"\x1c")):
        problems = compare(f"Case 1: No{odd}\nCase 2: Yes\njunk\n")
        assert problems[0] == f"Case 1: expected 'Case 1: No', got 'Case 1: No{shown}' (o, line 1)"
        assert problems[1] == "o, line 3: unexpected 'junk' after the 2 cases of the input"


@pytest.mark.parametrize("t", ["\uff11", "\u00b2", "\u0661"])
def test_a_count_in_other_digits_is_no_count(t):
    with pytest.raises(InputFileError, match="expected the number of cases, got"):
        read_contest(f"{t}\n3 4 5\n".encode(), "f")


@pytest.mark.parametrize(
    "tail, card",
    [(b"1 K A", "'1'"), (b"\xef\xbc\x94 K A", "'\\xef'"), (b"x K A", "'x'")],
)
def test_a_bad_card_past_the_kept_bytes_is_still_named(tail, card):
    token = b"3333444455556666777788889999TTTTJJJJQQQQ"  # 40 cards: the bytes kept
    error = str(read_contest(b"1\n" + token + tail + b"\n", "f").error)
    assert f"unknown card {card} in the landlord's hand '{token.decode()}...'" in error


def test_validate_refuses_a_count_with_a_leading_zero():
    deal = run("deal", "--seed", 1).stdout
    with pytest.raises(InputFileError, match="line 1: the number of cases '01' has a leading zero"):
        contest.validate(("0" + deal).encode(), "f")
