"""The inputs of a batch run, and the ids that name their items.

Every item has an id that names its source and its number there (``deals.in#12``, the
12th case of a contest file; ``set.toml#3``, a puzzle file's third puzzle;
``open.toml#2``, a deal file's second deal; ``<stdin>#5``), the same from run to run, so
that a resumed run can tell what the output already holds.
A source is read lazily where it can be: a contest file is only asked for its T here,
and its cases are read when their turn comes.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import IO

from .contest import declared_cases
from .deals import Deal, load_deals
from .errors import InputFileError, WholeFileError
from .puzzles import Puzzle, load_text
from .rules import CLASSIC, RuleSet
from .tomlfile import read_toml

STDIN = "<stdin>"
SNIFF = 1 << 16  # bytes read from a pipe at a time while looking for its first character
_BOM = b"\xef\xbb\xbf"  # a UTF-8 byte-order mark, as some editors write


@dataclass
class Source:
    """One input: a contest file (read when its turn comes), a puzzle file's puzzles, a
    deal file's deals (each a double-dummy table), or why it is unusable."""

    name: str  # as ids spell it
    path: str | None = None  # the file, as named
    spool: IO[bytes] | None = None  # a contest input copied from a pipe
    puzzles: list[Puzzle | InputFileError] | None = None
    open_deals: list[Deal | InputFileError] | None = None  # deals before the auction
    error: str | None = None
    total: int = 1  # items in it: T for a contest file

    @property
    def listed(self) -> bool:
        """Whether its items are in memory already (a puzzle or a deal file), so that its
        tasks can be made up front."""
        return self.puzzles is not None or self.open_deals is not None

    @contextmanager
    def contest(self) -> Iterator[IO[bytes]]:
        """The contest input, open at its start, while the caller reads it."""
        if self.spool is not None:
            self.spool.seek(0)
            yield self.spool
            return
        assert self.path is not None
        with open(self.path, "rb") as file:
            yield file


def read_sources(
    inputs: list[str],
    stdin: IO[bytes],
    anchor: Path,
    rules: RuleSet = CLASSIC,
    output: Path | None = None,
) -> list[Source]:
    """The sources named: files, folders (their ``*.toml`` and ``*.in`` files, but the
    ``output`` file once it holds results), ``-``. A name that is no file or folder is a
    source whose error is its only item, so that the others are still solved; when no
    name is usable at all, their errors are raised, before any output is touched.

    A ``.toml`` file is a deal file when it holds ``[[deal]]`` tables, else a puzzle
    file; any other file is a contest file. Standard input and pipes hold any of them
    (``landlord deal`` writes all three), a contest input told apart by its first
    character; a contest input from a pipe is copied to a temporary file, so that memory
    stays flat. Ids name files relative to ``anchor`` (see :func:`id_path`).
    """
    out: list[Source] = []
    seen: set[str] = set()
    results = _results_file(output)
    usable = False  # whether some name is an input
    for name in inputs:
        if name == "-":
            usable = True
            if STDIN not in seen:
                seen.add(STDIN)
                out.append(_piped(STDIN, stdin, rules))
            continue
        try:
            files = _files(name, results)
        except InputFileError as e:
            error = str(e)
        except (OSError, RuntimeError) as e:  # a name too long, a loop of links
            error = f"{name}: cannot read: {getattr(e, 'strerror', None) or e}"
        else:
            usable = True
            for f in files:
                item = id_path(f, anchor)
                if item not in seen:  # named twice (or a file and its folder): solved once
                    seen.add(item)
                    out.append(_source(f, item, rules))
            continue
        if name not in seen:
            seen.add(name)
            out.append(Source(name, error=error))
    if not usable:  # no input at all: say so of each, and write nothing
        raise InputFileError("; ".join(str(src.error) for src in out))
    return out


def _results_file(output: Path | None) -> Path | None:
    """The output file when it already holds results (a JSON line first, or nothing), so
    that a folder's scan leaves it out; None for any other file, which stays an input
    (and is refused as the output, see :func:`refuse_overwrite`)."""
    if output is None or not output.is_file():
        return None
    try:
        with open(output, "rb") as file:
            first = file.read(SNIFF).removeprefix(_BOM).lstrip()[:1]
    except OSError:
        return None
    return output if first in (b"", b"{") else None


def _files(name: str, results: Path | None) -> list[str]:
    """The input files a name stands for: itself, or a folder's puzzle and contest files
    but ``results``, the run's own output, which may lie among them."""
    if os.path.isdir(name):
        found = sorted(
            p
            for p in Path(name).rglob("*")
            if p.suffix.lower() in (".toml", ".in")
            and p.is_file()
            and not (results and _same_file(p, results))
        )
        if not found:
            raise InputFileError(f"{name}: no puzzle (*.toml) or contest (*.in) file in it")
        return [str(p) for p in found]
    if os.path.exists(name):
        return [name]
    raise InputFileError(f"{name}: no such file or folder")


def _same_file(a: Path, b: Path) -> bool:
    """Whether two paths name one file (False when one cannot be looked at)."""
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def id_path(name: str, anchor: Path) -> str:
    """A file as ids spell it: relative to ``anchor`` (the output file's folder) when
    inside it, else absolute, links resolved; so that ``deals.in``, ``./deals.in`` and
    its full path name the same items, whatever the working folder. A pipe keeps the
    name it was given."""
    if not os.path.isfile(name):
        return name
    full = Path(name).resolve()
    try:
        return str(full.relative_to(anchor.resolve()))
    except ValueError:
        return str(full)


def _source(name: str, item: str, rules: RuleSet) -> Source:
    """A named input: a puzzle or deal file, a contest file, or a pipe."""
    if not os.path.isfile(name):
        try:
            with open(name, "rb") as stream:
                return _piped(item, stream, rules)
        except OSError as e:
            return Source(item, error=f"{name}: cannot read: {e.strerror or e}")
    if name.lower().endswith(".toml"):
        path = Path(name)
        try:
            raw = path.read_bytes()
        except OSError as e:
            return Source(item, error=f"{path}: cannot read: {e.strerror or e}")
        return replace(_toml_source(item, raw, str(path), path.stem, rules), path=name)
    try:
        with open(name, "rb") as file:
            declared = declared_cases(file, item)
    except OSError as e:
        return Source(item, error=f"{name}: cannot read: {e.strerror or e}")
    except WholeFileError as e:
        return Source(item, error=str(e))
    return Source(item, path=name, total=declared)


def _piped(item: str, stream: IO[bytes], rules: RuleSet) -> Source:
    """An input read from a pipe: a contest input (a digit first, or nothing at all), or
    a puzzle or deal file. What is read while looking for the first character is
    spooled, so that any amount of leading whitespace is fine."""
    spool = tempfile.TemporaryFile()
    block = stream.read(SNIFF)
    spool.write(block)
    first = block.removeprefix(_BOM).lstrip()[:1]
    while block and not first:
        block = stream.read(SNIFF)
        spool.write(block)
        first = block.lstrip()[:1]
    if first and not first.isdigit():
        spool.seek(0)
        text = spool.read() + stream.read()
        spool.close()
        return _toml_source(item, text, item, "stdin", rules)
    shutil.copyfileobj(stream, spool)
    spool.seek(0)
    try:
        declared = declared_cases(spool, item)
    except WholeFileError as e:
        spool.close()
        return Source(item, error=str(e))
    return Source(item, spool=spool, total=declared)


def _toml_source(item: str, raw: bytes, source: str, stem: str, rules: RuleSet) -> Source:
    """A TOML input, ``source`` in messages: its deals if it is a deal file, else its
    puzzles (a file that is not TOML is reported as a puzzle file would be)."""
    if is_deal_file(raw):
        deals = load_deals(raw, source, rules)
        if len(deals) == 1 and isinstance(deals[0], WholeFileError):
            return Source(item, error=str(deals[0]))
        return Source(item, open_deals=deals, total=len(deals))
    puzzles = load_text(raw, source, stem)
    if len(puzzles) == 1 and isinstance(puzzles[0], WholeFileError):
        return Source(item, error=str(puzzles[0]))
    return Source(item, puzzles=puzzles, total=len(puzzles))


def is_deal_file(raw: bytes) -> bool:
    """Whether a TOML file's bytes are a deal file: a ``deal`` key at the top and no
    ``puzzle`` one (a puzzle file has no ``deal`` key, so nothing is read both ways).
    The bytes are parsed only when they mention ``deal`` at all."""
    if b"deal" not in raw:
        return False
    try:
        doc, _ = read_toml(raw, "", "deal file")
    except WholeFileError:
        return False
    return "deal" in doc and "puzzle" not in doc


def refuse_overwrite(out: Path, sources: list[Source]) -> None:
    """Refuse an output file that is also an input (named, or found in a folder and not
    left out as a results file): writing it would destroy the input."""
    if not out.exists():
        return
    for src in sources:
        if src.path and os.path.exists(src.path) and os.path.samefile(out, src.path):
            raise InputFileError(f"--out {out}: it is also an input ({src.path}); choose another")
