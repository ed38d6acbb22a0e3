"""The contest format (HDU 4032 "Fight the Landlord"): reading, answering, checking.

Input: the number of cases T, then three hands per case (landlord, peasant 1, peasant 2;
four in the four-player game, peasant 3 last), separated by any whitespace, each hand a
run of card letters in any order (commas or dashes may separate them, as anywhere else).
Output: one line per case, ``Case k: Yes`` or ``Case k: No``, k counted from 1.

Reading is a numba kernel, a state machine over the raw bytes: the input is fed to it in
fixed-size blocks, from a file or a pipe alike, and its state carries over from block to
block, so memory stays flat however long the input is and a block may end anywhere (in
T, inside a hand, inside a run of blanks). A file of a hundred thousand deals costs
milliseconds. The kernel stops at the first malformed token with a status and the
token's first bytes; this module turns that into a message naming the case, the line
(counted as a text editor counts them: a newline, a carriage return or the two together
end a line) and the token.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import IO

import numpy as np

from .cards import LETTERS, NUM_RANKS, TEN
from .errors import InputFileError, WholeFileError, quoted
from .jit import kernel
from .progress import plural
from .rules import CLASSIC, RuleSet


def deal_sizes(rules: RuleSet) -> tuple[int, ...]:
    """The hand sizes of a complete deal of a game, the landlord's with the kitty (20,
    17, 17 classic; 33, 25, 25, 25 four-player)."""
    return (rules.landlord_cards, *rules.deal[1:])


#: Cases read and solved at a time: memory stays flat however long the file is.
CHUNK = 1 << 14
#: Bytes read from the input at a time.
BLOCK = 1 << 20
#: Bytes of a token kept for messages.
TOKEN_BYTES = 40
#: The largest T read: more cases than any input can hold.
MAX_DECLARED = 10**15

# where the reader is (the state's PHASE)
IN_COUNT, IN_CASES, IN_TRAILER, FINISHING_TOKEN, DONE = range(5)
# what stopped it (the state's STATUS)
OK, BAD_COUNT, BAD_CARD, TOO_MANY, OVERLAP, WRONG_SIZE, TRAILING = range(7)
# the reader's state: one int64 row, carried from block to block
(
    PHASE,
    STATUS,
    DECLARED,  # T, as read so far
    CASE,  # cases completed in the whole input
    HAND,  # the hand being read in the current case (0 landlord, then the peasants)
    IN_TOKEN,
    PENDING_ONE,  # the last byte of the token was a '1' (a '0' must follow: the ten)
    LINE,  # the line of the next byte
    TOKEN_LINE,  # the line where the current token starts
    CASE_LINE,  # the line where the current case starts
    LAST_LINE,  # the line of the last byte that was not whitespace
    TOKEN_LEN,  # bytes of the current token read (the first TOKEN_BYTES are kept)
    BAD_AT,  # where in the token the bad byte is
    BAD_BYTE,  # the bad byte itself
    BAD_RANK,  # the rank that is over the deck
    TALLY,  # the cards of a hand of the wrong size, or of a rank over the deck
    FILLED,  # cases written to the output array by this call
    AFTER_RETURN,  # the last byte was a carriage return (a newline after it ends no line)
    STATE_FIELDS,
) = range(19)

_ONE = 100  # '1', which must be followed by '0'
_SEPARATOR = 101  # ',' or '-' between the cards of a hand
_BAD = 255
_NEWLINE, _RETURN, _ZERO, _NINE = 10, 13, 48, 57
_BOM = b"\xef\xbb\xbf"


def _card_table() -> np.ndarray:
    table = np.full(256, _BAD, np.uint8)
    for r, c in enumerate(LETTERS):
        table[ord(c)] = table[ord(c.lower())] = r
    table[ord("1")] = _ONE
    table[ord(",")] = table[ord("-")] = _SEPARATOR
    return table


_CARDS = _card_table()


@kernel
def _is_space(b):
    return b == 32 or 9 <= b <= 13


@kernel
def _end_token(st, hands, deck, sizes):
    """A hand's token has ended: check it, and close the case after its last hand."""
    if st[PENDING_ONE]:  # a '1' alone
        st[BAD_AT] = st[TOKEN_LEN] - 1
        st[BAD_BYTE] = 49  # the '1'
        st[STATUS], st[PHASE] = BAD_CARD, DONE
        return
    k = st[FILLED]
    j = st[HAND]
    n = 0
    for r in range(NUM_RANKS):
        n += hands[k, j, r]
    if n == 0 or sizes[j] and n != sizes[j]:  # (no card: separators alone)
        st[TALLY] = n
        st[STATUS], st[PHASE] = WRONG_SIZE, DONE
        return
    if j < hands.shape[1] - 1:
        st[HAND] = j + 1
        return
    for r in range(NUM_RANKS):
        total = 0
        for p in range(hands.shape[1]):
            total += hands[k, p, r]
        if total > deck[r]:
            st[BAD_RANK] = r
            st[TALLY] = total
            st[STATUS], st[PHASE] = OVERLAP, DONE
            return
    st[HAND] = 0
    st[FILLED] = k + 1
    st[CASE] += 1
    if st[CASE] == st[DECLARED]:
        st[PHASE] = IN_TRAILER if sizes[0] else DONE


@kernel
def read_block(block, st, token, hands, table, deck, sizes):
    """Feed ``block`` to the reader whose state is ``st``; return the bytes consumed.

    Complete cases go to ``hands[st[FILLED]:]``; the call returns early when ``hands`` is
    full (before the next case's first byte) or when the reader is ``DONE``. ``token``
    keeps the current token's first bytes. ``sizes`` holds the hand sizes a strict read
    demands (zeros: any size, and the bytes after the last case are not read).
    """
    n = block.shape[0]
    i = 0
    while i < n:
        phase = st[PHASE]
        if phase == DONE:
            return i
        b = block[i]
        space = _is_space(b)
        if space:
            if st[IN_TOKEN]:
                st[IN_TOKEN] = 0
                if phase == IN_COUNT:
                    st[PHASE] = IN_CASES if st[DECLARED] else IN_TRAILER if sizes[0] else DONE
                elif phase == IN_CASES:
                    _end_token(st, hands, deck, sizes)
                else:  # the end of a malformed token
                    st[PHASE] = DONE
                if st[PHASE] == DONE:
                    return i
            if b == _RETURN or (b == _NEWLINE and not st[AFTER_RETURN]):
                st[LINE] += 1
            st[AFTER_RETURN] = b == _RETURN
            i += 1
            continue
        st[AFTER_RETURN] = 0
        st[LAST_LINE] = st[LINE]
        if not st[IN_TOKEN]:
            if phase == IN_CASES and st[HAND] == 0 and st[FILLED] == hands.shape[0]:
                return i  # the output is full: the next case waits for the next call
            st[IN_TOKEN] = 1
            st[TOKEN_LEN] = 0
            st[TOKEN_LINE] = st[LINE]
            if phase == IN_CASES:
                if st[HAND] == 0:
                    st[CASE_LINE] = st[LINE]
                hands[st[FILLED], st[HAND], :] = 0
            elif phase == IN_TRAILER:
                st[STATUS], st[PHASE] = TRAILING, FINISHING_TOKEN
                phase = FINISHING_TOKEN
        at = st[TOKEN_LEN]
        st[TOKEN_LEN] = at + 1
        if at < TOKEN_BYTES:
            token[at] = b
        elif phase == FINISHING_TOKEN:  # enough of it is kept for the message
            st[PHASE] = DONE
            return i
        i += 1
        if phase == IN_COUNT:
            if _ZERO <= b <= _NINE and st[DECLARED] <= MAX_DECLARED:
                st[DECLARED] = 10 * st[DECLARED] + (b - _ZERO)
            else:
                st[STATUS], st[PHASE] = BAD_COUNT, FINISHING_TOKEN
        elif phase == IN_CASES:
            k = st[FILLED]
            j = st[HAND]
            if st[PENDING_ONE]:
                st[PENDING_ONE] = 0
                if b != _ZERO:
                    st[BAD_AT] = at - 1
                    st[BAD_BYTE] = 49  # the '1'
                    st[STATUS], st[PHASE] = BAD_CARD, FINISHING_TOKEN
                    continue
                r = TEN
            else:
                r = table[b]
                if r == _ONE:
                    st[PENDING_ONE] = 1
                    continue
                if r == _SEPARATOR:
                    continue
                if r >= NUM_RANKS:
                    st[BAD_AT] = at
                    st[BAD_BYTE] = b
                    st[STATUS], st[PHASE] = BAD_CARD, FINISHING_TOKEN
                    continue
            hands[k, j, r] += 1
            if hands[k, j, r] > deck[r]:
                st[BAD_RANK] = r
                st[STATUS], st[PHASE] = TOO_MANY, FINISHING_TOKEN
    return i


@dataclass
class ContestChunk:
    """A run of cases read from a contest file, up to the first malformed one (``error``)."""

    first: int  # index of the first case in the file (0-based)
    hands: np.ndarray  # (cases, players, 15) rank counts
    declared: int  # T, as the file states it
    error: InputFileError | None


#: How messages name each hand of a case.
_HAND_NAMES = ("the landlord's", "peasant 1's", "peasant 2's", "peasant 3's")


class _Reader:
    """The reader's state and its input, fed to :func:`read_block` a block at a time."""

    def __init__(self, file: IO[bytes] | bytes, source: str, rules: RuleSet, strict: bool):
        self.file = io.BytesIO(file) if isinstance(file, bytes | bytearray) else file
        self.source = source
        self.rules = rules
        self.st = np.zeros(STATE_FIELDS, np.int64)
        self.st[LINE] = self.st[LAST_LINE] = 1
        self.token = np.zeros(TOKEN_BYTES, np.uint8)
        self.deck = np.array(rules.deck, np.int64)
        self.sizes = np.array(deal_sizes(rules) if strict else (0,) * rules.players, np.int64)
        self.block = np.zeros(0, np.uint8)
        self.at = 0  # bytes of the block consumed
        self.read = 0  # bytes of the input read
        self.ended = False

    def _refill(self) -> bool:
        """The next block, or False past the end of the input. The end is fed as one
        blank, which ends the last token as a blank would."""
        if self.ended:
            return False
        data = self.file.read(BLOCK)
        if not self.read and data.startswith(_BOM):  # as some editors write UTF-8
            data = data[len(_BOM) :] or self.file.read(BLOCK)
        self.read += len(data)
        if not data:
            self.ended = True
            data = b" "
        self.block = np.frombuffer(data, np.uint8)
        self.at = 0
        return True

    def feed(self, hands: np.ndarray) -> None:
        """Read into ``hands`` until it is full, the reader is done, or the input ends."""
        st = self.st
        st[FILLED] = 0
        while st[PHASE] != DONE:
            if self.at == len(self.block) and not self._refill():
                return
            self.at += read_block(
                self.block[self.at :], st, self.token, hands, _CARDS, self.deck, self.sizes
            )
            if self.at < len(self.block) and st[PHASE] != DONE:
                return  # ``hands`` is full

    def count(self) -> int:
        """T, read as far as needed; or WholeFileError."""
        self.feed(np.zeros((0, self.rules.players, NUM_RANKS), np.int64))
        st = self.st
        if st[STATUS] == BAD_COUNT:
            token = self.token_text()
            if bytes(self.token[: min(int(st[TOKEN_LEN]), TOKEN_BYTES)]).isdigit():
                raise WholeFileError(
                    f"{self.source}, line {st[TOKEN_LINE]}: {token} cases: more than any "
                    "input can hold"
                )
            raise WholeFileError(
                f"{self.source}, line {st[TOKEN_LINE]}: expected the number of cases, got {token}"
            )
        if st[PHASE] == IN_COUNT:
            empty = "blank" if self.read else "empty"
            raise WholeFileError(
                f"{self.source}: the file is {empty}: expected the number of cases"
            )
        return int(st[DECLARED])

    def token_text(self) -> str:
        seen = int(self.st[TOKEN_LEN])
        return quoted(bytes(self.token[: min(seen, TOKEN_BYTES)]), cut=seen > TOKEN_BYTES)

    def error(self) -> InputFileError | None:
        """The malformed token that stopped the reader, or the cases that are missing."""
        st = self.st
        status = int(st[STATUS])
        declared = int(st[DECLARED])
        if status == OK and st[CASE] == declared:
            return None
        case = int(st[CASE]) + 1
        who = _HAND_NAMES[int(st[HAND])]
        where = f"{self.source}, case {case}, line {st[TOKEN_LINE]}"
        deck = self.rules.deck
        rank = int(st[BAD_RANK])
        if status == OK:
            return InputFileError(
                f"{self.source}, case {case}, line {st[LAST_LINE]}: the file ends before "
                f"{who} hand (the file declares {plural(declared, 'case')})"
            )
        if status == BAD_CARD:
            raw = bytes(self.token[: min(int(st[TOKEN_LEN]), TOKEN_BYTES)])
            return InputFileError(
                f"{where}: unknown card {_char_at(raw, int(st[BAD_AT]), int(st[BAD_BYTE]))} "
                f"in {who} hand {self.token_text()}: expected cards from {LETTERS} (or 10)"
            )
        if status == TOO_MANY:
            return InputFileError(
                f"{where}: {who} hand {self.token_text()} holds more than "
                f"{deck[rank]} x {LETTERS[rank]}"
            )
        if status == OVERLAP:
            return InputFileError(
                f"{self.source}, case {case}, line {st[CASE_LINE]}: the hands hold "
                f"{st[TALLY]} x {LETTERS[rank]}, more than the deck's {deck[rank]}"
            )
        if status == WRONG_SIZE and not st[TALLY]:
            return InputFileError(f"{where}: {who} hand {self.token_text()} holds no card")
        if status == WRONG_SIZE:
            return InputFileError(
                f"{where}: {who} hand {self.token_text()} has "
                f"{st[TALLY]} card{'s' * int(st[TALLY] != 1)}, "
                f"expected {deal_sizes(self.rules)[int(st[HAND])]}"
            )
        return InputFileError(
            f"{self.source}, line {st[TOKEN_LINE]}: unexpected {self.token_text()} after the "
            f"{plural(declared, 'case')} the file declares"
        )


def _char_at(raw: bytes, at: int, byte: int) -> str:
    """The character that starts at byte ``at`` of a token, quoted; a byte that starts no
    character (or lies past the kept bytes) is shown as ``\\xff``."""
    for width in (1, 2, 3, 4):
        if at + width <= len(raw):
            try:
                return quoted(raw[at : at + width].decode("utf-8"))
            except UnicodeDecodeError:
                continue
    return quoted(bytes([byte]))


def declared_cases(file: IO[bytes] | bytes, source: str) -> int:
    """T, the number of cases an input declares, read from the file's current position
    (after any amount of whitespace); raise :class:`WholeFileError` when it has none."""
    return _Reader(file, source, CLASSIC, strict=False).count()


def contest_chunks(
    file: IO[bytes] | bytes,
    source: str,
    rules: RuleSet = CLASSIC,
    chunk: int = CHUNK,
    strict: bool = False,
) -> Iterator[ContestChunk]:
    """Read a contest input a chunk of cases at a time, from the file's current position.

    A malformed case ends the reading: its chunk carries ``error``, and the cases before
    it are complete. A missing or unreadable T raises at once. A case is one hand a
    player (three classic, four in the four-player game). ``strict`` also demands
    complete deals (20/17/17; 33/25/25/25) and nothing after the last case.
    """
    reader = _Reader(file, source, rules, strict)
    declared = reader.count()
    if strict and reader.token[0] == _ZERO and reader.st[TOKEN_LEN] > 1:
        raise WholeFileError(
            f"{source}, line {reader.st[TOKEN_LINE]}: the number of cases {reader.token_text()} "
            "has a leading zero"
        )
    first = 0
    while True:
        cases = max(min(chunk, declared - first), 0)
        hands = np.zeros((cases, rules.players, NUM_RANKS), np.int64)
        reader.feed(hands)
        filled = int(reader.st[FILLED])
        if reader.st[PHASE] == DONE or reader.ended:
            yield ContestChunk(first, hands[:filled], declared, reader.error())
            return
        yield ContestChunk(first, hands[:filled], declared, None)
        first += filled


def read_contest(file: IO[bytes] | bytes, source: str, rules: RuleSet = CLASSIC) -> ContestChunk:
    """Read a whole contest input at once (see :func:`contest_chunks`)."""
    parts = list(contest_chunks(file, source, rules))
    return ContestChunk(
        0, np.concatenate([p.hands for p in parts]), parts[-1].declared, parts[-1].error
    )


def answer_lines(answers: np.ndarray, first: int = 1) -> str:
    """The contest output for a run of answers, numbered from ``first``."""
    return "".join(
        f"Case {k}: {'Yes' if a else 'No'}\n" for k, a in enumerate(answers.tolist(), first)
    )


def validate(file: IO[bytes] | bytes, source: str, rules: RuleSet = CLASSIC) -> str:
    """Check a contest input strictly; return a one-line summary or raise.

    Strict means: T matches the cases, every case is a complete deal split
    landlord 20 / peasants 17 / 17 (33 / 25 / 25 / 25 for four players), and nothing
    follows the last case.
    """
    # with these sizes and no rank beyond the deck (checked on reading), a deal is complete
    declared = 0
    for part in contest_chunks(file, source, rules, strict=True):
        if part.error:
            raise part.error
        declared = part.declared
    split = "/".join(map(str, deal_sizes(rules)))
    return f"{source}: valid, {plural(declared, 'case')}, each a complete deal split {split}"


_ANSWER = re.compile(rb"Case ([0-9]+): (Yes|No)")
_BLANKS = b" \t\r\n\v\f"


def _lines(output: IO[bytes]) -> Iterator[bytes]:
    """A file's lines as a text editor counts them, as the input's are counted: split at
    a newline, a carriage return or the two together (a form feed or U+2028 inside a
    line stays in it)."""
    for raw in output:
        body = raw.removesuffix(b"\n")
        if len(body) < len(raw):
            body = body.removesuffix(b"\r")
        yield from body.split(b"\r")


def compare_output(
    expected: Iterable[np.ndarray], output: IO[bytes], source: str, limit: int = 10
) -> tuple[list[str], int, int]:
    """The differences between a contestant's output and the right answers (given a
    chunk at a time), case by case, read as a stream: at most ``limit`` messages (none:
    the output is right), the number of cases, and how many of them differ.

    A line must be exactly ``Case k: Yes`` or ``Case k: No``, k in ASCII digits without
    leading zeros; after the last case only blank lines may follow."""
    problems: list[str] = []
    lines = _lines(output)
    k = differ = 0
    ended: tuple[int, str] | None = None  # the first missing case and its answer
    for answers in expected:
        for want in answers.tolist():
            k += 1
            if ended:
                continue
            right = "Yes" if want else "No"
            raw = next(lines, None)
            if raw is None:
                ended = k, right
                continue
            m = _ANSWER.fullmatch(raw)
            malformed = not m or m.group(1) != str(k).encode()
            if not malformed and m.group(2).decode() == right:
                continue
            differ += 1
            if len(problems) >= limit:
                continue
            if malformed:
                trimmed = raw.rstrip(b" \t")
                blanks = trimmed != raw and _ANSWER.fullmatch(trimmed)
                why = ": blanks after the answer" if blanks else ""
                problems.append(
                    f"Case {k}: expected 'Case {k}: {right}', got {quoted(raw[:60])} "
                    f"({source}, line {k}{why})"
                )
            else:
                problems.append(f"Case {k}: expected {right}, got {m.group(2).decode()}")
    if ended:  # one message for all the missing cases, not one a case
        first, right = ended
        differ += k - first + 1
        more = f"; cases {first} to {k} are missing" if k > first else ""
        problems.append(f"Case {first}: expected {right}, got nothing (the output ends{more})")
    elif len(problems) < limit:
        for at, raw in enumerate(lines, k + 1):
            if raw.strip(_BLANKS):
                problems.append(
                    f"{source}, line {at}: unexpected {quoted(raw[:60])} "
                    f"after the {plural(k, 'case')} of the input"
                )
                break
    return problems, k, differ
