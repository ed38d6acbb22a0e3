"""The output file of a batch run: held by one run at a time, and read back by ``--resume``.

A run locks its output (an exclusive ``flock``) from before it reads or empties it until
it ends, so that a second run on the same file is refused instead of interleaving its
lines with the first's. ``--resume`` reads the ids the file already answers and compacts
it in place, through the locked descriptor (a rewrite into a new file would leave the
lock on the old one): error lines go, so that their items are tried again (the input may
have been fixed); so do lines that answer another question than the run asks of their
item, lines that are not whole JSON objects (cut off or edited), a repeated id's later
lines, and blank lines. Answers a limit left unknown stay, and are counted. Only a
regular file is locked, read back or emptied: a device or a pipe as ``--out`` is just
written to.
"""

from __future__ import annotations

import json
import os
import re
import stat
import sys
from array import array
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

import numpy as np

from .errors import InputFileError, OutputError

if sys.platform != "win32":
    import fcntl

FLUSH = 1 << 20  # bytes of lines read between two writes of a compaction
READ_BUFFER = 1 << 20
RESULT_START = b'{"id": '  # how every line of a batch output begins
_ID = re.compile(rb'\{"id": ("(?:[^"\\]|\\.)*")')
#: What the run asks of an item, by source and number: the question a line must answer
#: to count as finished (None: any, for an item the run does not hold).
Asked = Callable[[str, int], str | None]


def split_id(item: str) -> tuple[str, int]:
    """An id as (source, number); a whole source's id (an unreadable file) has number 0."""
    source, _, number = item.rpartition("#")
    if source and number.isascii() and number.isdigit() and len(number) <= 18:
        return source, int(number)
    return item, 0


class Finished:
    """The item numbers of one source that an output file already holds (sorted)."""

    def __init__(self, numbers: np.ndarray) -> None:
        self.numbers = numbers

    def __len__(self) -> int:
        return len(self.numbers)

    def __contains__(self, number: int) -> bool:
        return not self.todo(np.array([number], np.int64))[0]

    def todo(self, numbers: np.ndarray) -> np.ndarray:
        """A mask of the ``numbers`` still to solve."""
        if not len(self.numbers):
            return np.ones(len(numbers), np.bool_)
        at = np.minimum(np.searchsorted(self.numbers, numbers), len(self.numbers) - 1)
        return self.numbers[at] != numbers


NOTHING = Finished(np.zeros(0, np.int64))


@dataclass
class Resumed:
    """What ``--resume`` found in the output: the ids answered, by source, and the lines
    it took out."""

    finished: dict[str, Finished] = field(default_factory=dict)
    errors: int = 0  # items with an error line and no result, tried again
    duplicates: int = 0  # later lines of an id already answered
    broken: int = 0  # lines begun as results but not whole JSON objects, their items tried again
    changed: int = 0  # lines answering another question than the run asks, tried again
    unknown: int = 0  # results whose answer a limit left unknown (kept unless retried)


def is_regular(file: IO[bytes]) -> bool:
    """Whether ``file`` is a regular file (not a device, a pipe or a terminal)."""
    return stat.S_ISREG(os.fstat(file.fileno()).st_mode)


def open_output(path: Path, name: str) -> IO[bytes]:
    """``path`` opened for the results, at its end, and locked when it is a regular file
    (created when missing; emptied only once the run starts: see :func:`empty`).

    A file another run holds is refused (:class:`OutputError`, naming it ``name``); so
    is one that cannot be opened (:class:`InputFileError`).
    """
    try:
        regular = not path.exists() or path.is_file()  # links followed
        flags = os.O_RDWR | os.O_CREAT if regular else os.O_WRONLY  # never truncated here
        file = open(path, "r+b" if regular else "wb", opener=lambda p, _: os.open(p, flags, 0o666))
    except OSError as e:
        raise InputFileError(f"--out {name}: cannot write: {e.strerror or e}") from None
    if is_regular(file):
        try:
            if sys.platform != "win32":
                fcntl.flock(file.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            file.close()
            raise OutputError(
                f"--out {name}: another landlord batch run is writing it; "
                "wait for that run to end, or choose another --out"
            ) from None
        except OSError:  # a file system without locks: the run goes on unguarded
            pass
        file.seek(0, os.SEEK_END)
    return file


def empty(file: IO[bytes]) -> None:
    """Empty the output for a fresh run (a regular file only: a device or a pipe is just
    written to)."""
    if is_regular(file):
        file.truncate(0)
        file.seek(0)


def finished_items(
    file: IO[bytes], path: Path, asked: Asked | None = None, retry_unknown: bool = False
) -> Resumed:
    """The ids already answered in the output ``file`` (named ``path`` in messages), by
    source, for ``--resume``, as answers to the questions ``asked`` (None: any); the file is
    compacted in place and left at its end. With ``retry_unknown``, the answers a limit
    left unknown go too, so that their items are solved again.

    Any line that is neither a result nor blank is an error: the file is not this
    command's output.
    """
    if not is_regular(file):
        return Resumed()
    fd = file.fileno()
    try:
        scan = _scan(fd, path, asked, retry_unknown)
        kept = _compact(fd, _lines(fd), scan.keep, FLUSH) if scan.dropped else None
        os.ftruncate(fd, scan.complete if kept is None else kept)
        file.seek(0, os.SEEK_END)
    except OSError as e:
        raise InputFileError(f"{path}: cannot rewrite: {e.strerror or e}") from None
    return scan.resumed


@dataclass
class _Scan:
    """The first pass over an output file: which lines to keep, and what they answer."""

    resumed: Resumed
    keep: np.ndarray  # one flag per whole line
    complete: int  # bytes in whole lines (a half-written last line follows)

    @property
    def dropped(self) -> int:
        return len(self.keep) - int(self.keep.sum())


def _scan(fd: int, path: Path, asked: Asked | None, retry_unknown: bool) -> _Scan:
    """Read every line; keep the first result line of each id that answers the question
    asked of it (and is settled, with ``retry_unknown``)."""
    sources: dict[str, int] = {}
    where, numbers = array("i"), array("q")  # per result line: its source, its number
    failed_where, failed_numbers = array("i"), array("q")  # the same per error line
    results = bytearray()  # per whole line: 1 for a result line kept, 0 for one dropped
    unsettled = bytearray()  # per result line: 1 when a limit left an answer unknown
    complete = broken = changed = retried_unknown = 0
    try:
        with open(fd, "rb", buffering=READ_BUFFER, closefd=False) as reader:
            reader.seek(0)
            for count, line in enumerate(reader, 1):
                if not line.endswith(b"\n"):  # cut off, if it is a result begun
                    if not (line.startswith(RESULT_START) or RESULT_START.startswith(line)):
                        raise InputFileError(
                            f"{path}, line {count}: not a batch result, so there is nothing "
                            "to resume"
                        )
                    break
                complete += len(line)
                if not line.strip():
                    results.append(False)  # dropped
                    continue
                item, record = _read_line(line)
                if not isinstance(item, str):
                    raise InputFileError(
                        f"{path}, line {count}: not a batch result (a JSON object with an "
                        '"id"), so there is nothing to resume'
                    )
                source, number = split_id(item)
                at = sources.setdefault(source, len(sources))
                dropped = True
                if record is None:  # cut off or edited: its item is tried again
                    broken += 1
                elif "error" in record:  # tried again, unless the item has a result too
                    failed_where.append(at)
                    failed_numbers.append(number)
                elif asked and asked(source, number) not in (None, _question(record)):
                    changed += 1  # asked again
                elif retry_unknown and not _settled(record):
                    retried_unknown += 1
                else:
                    dropped = False
                    unsettled.append(not _settled(record))
                    where.append(at)
                    numbers.append(number)
                results.append(not dropped)
    except OSError as e:
        raise InputFileError(f"{path}: cannot read: {e.strerror or e}") from None
    src, num = np.frombuffer(where, np.int32), np.frombuffer(numbers, np.int64)
    order = np.lexsort((num, src))  # by source, then number; a stable sort: first lines first
    src, num = src[order], num[order]
    first = np.ones(len(order), np.bool_)
    first[1:] = (src[1:] != src[:-1]) | (num[1:] != num[:-1])
    in_file_order = np.empty_like(first)
    in_file_order[order] = first
    is_result = np.frombuffer(results, np.bool_)
    keep = is_result.copy()
    keep[is_result] = in_file_order
    bounds = np.searchsorted(src, np.arange(len(sources) + 1))
    done = [Finished(num[a:b][first[a:b]]) for a, b in zip(bounds, bounds[1:], strict=False)]
    failed = np.unique(
        np.stack([np.frombuffer(failed_where, np.int32), np.frombuffer(failed_numbers, np.int64)]),
        axis=1,
    )
    retried = sum(int(done[k].todo(failed[1][failed[0] == k]).sum()) for k in np.unique(failed[0]))
    finished = {s: done[k] for s, k in sources.items() if len(done[k])}
    duplicates = len(order) - int(first.sum())
    kept_unknown = int(np.frombuffer(unsettled, np.bool_)[order][first].sum())
    unknown = retried_unknown + kept_unknown  # (one of the two is 0)
    resumed = Resumed(finished, retried, duplicates, broken, changed, unknown)
    return _Scan(resumed, keep, complete)


def _read_line(line: bytes) -> tuple[object, dict | None]:
    """A line's id (None when the line is no result) and the whole object (None when a
    line begun as a result is not one whole JSON object with that id: cut off, or
    edited)."""
    try:
        record = json.loads(line.decode(), parse_constant=_no_constant)
        if isinstance(record, dict) and isinstance(record.get("id"), str):
            return record["id"], record
    except (ValueError, UnicodeDecodeError):
        pass
    m = _ID.match(line.removeprefix(b"\xef\xbb\xbf"))  # (an editor's byte-order mark)
    try:
        return (json.loads(m.group(1)), None) if m else (None, None)
    except ValueError:
        return None, None


def _no_constant(name: str) -> None:
    """NaN and Infinity are not JSON: a line holding one was not written by a run."""
    raise ValueError(name)


def _question(record: dict) -> str:
    """The question a result line answers: its own word, or for a deal's table, the stake
    question when its seats have values, else the forced win."""
    if "seats" in record:
        return "stake" if any("value" in seat for seat in record["seats"]) else "win"
    return str(record.get("question"))


def _settled(record: dict) -> bool:
    """Whether a result line's answers (and values, where asked) are all known."""
    for answer in record.get("seats") or [record]:
        if answer.get("answer", False) is None or answer.get("value", 0) is None:
            return False
    return True


def _lines(fd: int) -> Iterator[bytes]:
    """The whole lines of the file behind ``fd``, from its start."""
    with open(fd, "rb", buffering=READ_BUFFER, closefd=False) as reader:
        reader.seek(0)
        for line in reader:
            if not line.endswith(b"\n"):
                return
            yield line


def _compact(fd: int, lines: Iterator[bytes], keep: np.ndarray, flush: int) -> int:
    """Move the kept ``lines`` of the file behind ``fd`` forward over the others, in
    place; return the length of what is kept (the caller truncates the rest).

    Writes only ever land on lines already read, so memory stays flat: a flush at a
    time. What a kill leaves is still an output that ``--resume`` reads: each flush first
    writes the kept lines, then blanks the lines read since the last one (or does both
    in one write where they meet), so the file always holds whole lines, the kept ones,
    blank ones, and the rest as they were (a line moved but not yet blanked is a
    repeated id, which the next resume drops).
    """
    moved = blanked = read = 0  # ends of: the lines moved, the blanks after them, the read
    kept = bytearray()

    def write() -> None:
        nonlocal moved, blanked
        end = moved + len(kept)
        if end <= blanked:  # the kept lines land on blank lines only
            os.pwrite(fd, kept, moved)
            os.pwrite(fd, b"\n" * (read - blanked), blanked)
        else:
            os.pwrite(fd, kept + b"\n" * (read - end), moved)
        moved, blanked = end, read
        kept.clear()

    for line, wanted in zip(lines, keep.tolist(), strict=True):
        if wanted and moved == read:  # nothing dropped yet: the line stays where it is
            moved = blanked = read = read + len(line)
            continue
        if wanted:
            kept += line
        read += len(line)
        if read - blanked >= flush:
            write()
    if read > blanked:
        write()
    return moved
