"""The contest format (HDU 4032 "Fight the Landlord"): reading, answering, checking.

Input: the number of cases T, then three hands per case (landlord, peasant 1, peasant 2),
separated by any whitespace, each hand a run of card letters in any order. Output: one
line per case, ``Case k: Yes`` or ``Case k: No``, k counted from 1.

Reading is a numba kernel over the raw bytes, so that a file of a hundred thousand deals
costs milliseconds. The kernel stops at the first malformed hand and returns a status;
this module turns that into a message naming the case, the line and the token.
"""

from __future__ import annotations

import io
import mmap
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import IO

import numpy as np

from .cards import LETTERS, NUM_RANKS, TEN
from .errors import InputFileError, WholeFileError
from .jit import kernel
from .rules import CLASSIC, RuleSet

Buffer = bytes | mmap.mmap

#: Hand sizes of a complete classic deal: the landlord holds the three extra cards.
DEAL_SIZES = (20, 17, 17)

OK, BAD_CARD, MISSING, TOO_MANY, OVERLAP = 0, 1, 2, 3, 4
_TEN_1 = 100  # '1', which must be followed by '0'
_BAD = 255


def _card_table() -> np.ndarray:
    table = np.full(256, _BAD, np.uint8)
    for r, c in enumerate(LETTERS):
        table[ord(c)] = table[ord(c.lower())] = r
    table[ord("1")] = _TEN_1
    return table


_CARDS = _card_table()


@kernel
def _is_space(b):
    return b == 32 or 9 <= b <= 13


@kernel
def read_hands(buf, pos, table, deck, hands, starts, err):
    """Read ``hands.shape[0]`` cases of three hands from ``buf[pos:]``.

    ``starts[k, j]`` receives the offset of each hand's token. Returns the offset after
    the last token read; on a malformed case ``err`` holds (status, case, hand, offset,
    rank) and the cases before it are complete.
    """
    n = buf.shape[0]
    err[0] = OK
    for k in range(hands.shape[0]):
        for j in range(3):
            while pos < n and _is_space(buf[pos]):
                pos += 1
            starts[k, j] = pos
            if pos == n:
                err[0], err[1], err[2], err[3] = MISSING, k, j, pos
                return pos
            hand = hands[k, j]
            hand[:] = 0
            while pos < n and not _is_space(buf[pos]):
                r = table[buf[pos]]
                if r == _TEN_1 and pos + 1 < n and buf[pos + 1] == 48:  # "10" is the ten
                    r = TEN
                    pos += 1
                elif r >= NUM_RANKS:
                    err[0], err[1], err[2], err[3] = BAD_CARD, k, j, pos
                    return pos
                hand[r] += 1
                if hand[r] > deck[r]:
                    err[0], err[1], err[2], err[3], err[4] = TOO_MANY, k, j, starts[k, j], r
                    return pos
                pos += 1
        for r in range(NUM_RANKS):
            if hands[k, 0, r] + hands[k, 1, r] + hands[k, 2, r] > deck[r]:
                err[0], err[1], err[2], err[3], err[4] = OVERLAP, k, 0, starts[k, 0], r
                return pos
    return pos


#: Cases read and solved at a time: memory stays flat however long the file is.
CHUNK = 1 << 14


@dataclass
class ContestChunk:
    """A run of cases read from a contest file, up to the first malformed one (``error``)."""

    first: int  # index of the first case in the file (0-based)
    hands: np.ndarray  # (cases, 3, 15) rank counts
    starts: np.ndarray  # (cases, 3) byte offset of each hand
    end: int  # offset after the last hand read
    declared: int  # T, as the file states it
    error: InputFileError | None


_HAND_NAMES = ("landlord", "peasant 1", "peasant 2")


def open_input(file: IO[bytes]) -> Buffer:
    """The bytes of an input file: mapped when it is a regular file, else read."""
    try:
        if os.fstat(file.fileno()).st_size > 0:
            return mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ)
    except (OSError, ValueError, io.UnsupportedOperation):
        pass
    return file.read()


def _line_of(data: Buffer, offset: int) -> int:
    return data[:offset].count(b"\n") + 1


def _token_at(data: Buffer, offset: int) -> str:
    m = re.match(rb"\S*", data[offset : offset + 64])
    token = m.group(0) if m else b""
    return token[:40].decode("utf-8", "backslashreplace")


def declared_cases(data: Buffer, source: str) -> tuple[int, int]:
    """T, the number of cases the file declares, and the offset after it."""
    m = re.match(rb"\s*(\S+)", data[:4096])
    if not m:
        if data[:4096].strip():
            raise WholeFileError(f"{source}, line 1: expected the number of cases")
        raise WholeFileError(f"{source}: the file is empty: expected the number of cases")
    try:
        if not m.group(1).isdigit():
            raise ValueError
        declared = int(m.group(1).decode("ascii"))
    except (UnicodeDecodeError, ValueError):
        raise WholeFileError(
            f"{source}, line {_line_of(data, m.start(1))}: expected the number of cases, "
            f"got {_token_at(data, m.start(1))!r}"
        ) from None
    return declared, m.end(1)


def contest_chunks(
    data: Buffer, source: str, rules: RuleSet = CLASSIC, chunk: int = CHUNK
) -> Iterator[ContestChunk]:
    """Read a contest file's bytes a chunk of cases at a time.

    A malformed case ends the reading: its chunk carries ``error``, and the cases before
    it are complete. A missing or unreadable T raises at once.
    """
    declared, pos = declared_cases(data, source)
    buf = np.frombuffer(data, np.uint8)
    deck = np.array(rules.deck, np.int64)
    table = _CARDS
    err = np.zeros(5, np.int64)
    first = 0
    while True:
        count = min(chunk, declared - first)
        hands = np.zeros((count, 3, NUM_RANKS), np.int64)
        starts = np.zeros((count, 3), np.int64)
        pos = read_hands(buf, pos, table, deck, hands, starts, err)
        status = int(err[0])
        if status != OK:
            case = int(err[1])
            error = _read_error(data, source, declared, err, first, hands, starts, rules)
            yield ContestChunk(first, hands[:case], starts[:case], pos, declared, error)
            return
        yield ContestChunk(first, hands, starts, pos, declared, None)
        _release(data, pos)
        first += count
        if first >= declared:
            return


def _release(data: Buffer, end: int) -> None:
    """Drop the pages of a mapped file read up to ``end`` from memory (they are read back
    if needed), so that resident memory stays flat however long the file is."""
    if isinstance(data, mmap.mmap) and hasattr(mmap, "MADV_DONTNEED"):
        whole_pages = end - end % mmap.PAGESIZE
        if whole_pages:
            data.madvise(mmap.MADV_DONTNEED, 0, whole_pages)


def _read_error(
    data: Buffer,
    source: str,
    declared: int,
    err: np.ndarray,
    first: int,
    hands: np.ndarray,
    starts: np.ndarray,
    rules: RuleSet,
) -> InputFileError:
    status, case, hand, offset, rank = (int(x) for x in err)
    if status == MISSING:  # point at the last line with something on it
        offset = max(len(data[:offset].rstrip()) - 1, 0)
    where = f"{source}, case {first + case + 1}, line {_line_of(data, offset)}"
    who = _HAND_NAMES[hand]
    if status == MISSING:
        return InputFileError(
            f"{where}: the file ends before the {who}'s hand (the file declares {declared} cases)"
        )
    if status == BAD_CARD:
        return InputFileError(
            f"{where}: unknown card {_token_at(data, offset)[:1]!r} in the {who}'s hand "
            f"{_token_at(data, int(starts[case, hand]))!r}: expected cards from {LETTERS}"
        )
    if status == TOO_MANY:
        return InputFileError(
            f"{where}: the {who}'s hand {_token_at(data, offset)!r} holds more than "
            f"{rules.deck[rank]} x {LETTERS[rank]}"
        )
    total = int(hands[case, :, rank].sum())
    return InputFileError(
        f"{where}: the three hands hold {total} x {LETTERS[rank]}, "
        f"more than the deck's {rules.deck[rank]}"
    )


def read_contest(data: Buffer, source: str, rules: RuleSet = CLASSIC) -> ContestChunk:
    """Read a whole contest file at once (see :func:`contest_chunks`)."""
    parts = list(contest_chunks(data, source, rules))
    last = parts[-1]
    return ContestChunk(
        0,
        np.concatenate([p.hands for p in parts]),
        np.concatenate([p.starts for p in parts]),
        last.end,
        last.declared,
        last.error,
    )


def answer_lines(answers: np.ndarray, first: int = 1) -> str:
    """The contest output for a run of answers, numbered from ``first``."""
    return "".join(
        f"Case {k}: {'Yes' if a else 'No'}\n" for k, a in enumerate(answers.tolist(), first)
    )


def validate(data: Buffer, source: str, rules: RuleSet = CLASSIC) -> str:
    """Check a contest input file strictly; return a one-line summary or raise.

    Strict means: T matches the cases, every case is a complete deal split
    landlord 20 / peasants 17 / 17, and nothing follows the last case.
    """
    # with these sizes and no rank beyond the deck (checked on reading), a deal is complete
    end = 0
    declared = 0
    for part in contest_chunks(data, source, rules):
        if part.error:
            raise part.error
        sizes = part.hands.sum(axis=2)
        wrong = np.argwhere(sizes != np.array(DEAL_SIZES))
        if len(wrong):
            k, j = (int(x) for x in wrong[0])
            start = int(part.starts[k, j])
            raise InputFileError(
                f"{source}, case {part.first + k + 1}, line {_line_of(data, start)}: the "
                f"{_HAND_NAMES[j]}'s hand {_token_at(data, start)!r} has {sizes[k, j]} "
                f"cards, expected {DEAL_SIZES[j]}"
            )
        end, declared = part.end, part.declared
    trailing = re.search(rb"\S", data[end:])
    if trailing:
        offset = end + trailing.start()
        raise InputFileError(
            f"{source}, line {_line_of(data, offset)}: unexpected {_token_at(data, offset)!r} "
            f"after the last of the {declared} cases"
        )
    return f"{source}: valid, {declared} cases, each a complete deal split 20/17/17"


_ANSWER = re.compile(r"Case (\d+): (Yes|No)")


def compare_output(expected: np.ndarray, text: str, source: str, limit: int = 10) -> list[str]:
    """The differences between a contestant's output and the right answers, case by case.

    Returns at most ``limit`` messages (an empty list means the output is right).
    """
    problems: list[str] = []
    lines = text.splitlines()
    for k, want in enumerate(expected.tolist(), 1):
        if len(problems) >= limit:
            break
        right = f"{'Yes' if want else 'No'}"
        if k > len(lines):
            problems.append(f"Case {k}: expected {right}, got nothing (the output ends)")
            continue
        m = _ANSWER.fullmatch(lines[k - 1].rstrip("\r"))
        if not m or int(m.group(1)) != k:
            problems.append(
                f"Case {k}: expected {f'Case {k}: {right}'!r}, "
                f"got {lines[k - 1][:60]!r} ({source}, line {k})"
            )
        elif m.group(2) != right:
            problems.append(f"Case {k}: expected {right}, got {m.group(2)}")
    extra = [ln for ln in lines[len(expected) :] if ln.strip()]
    if extra and len(problems) < limit:
        problems.append(
            f"{source}, line {len(expected) + 1}: unexpected {extra[0][:60]!r} "
            f"after the last of the {len(expected)} cases"
        )
    return problems
