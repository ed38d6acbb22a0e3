"""Reading the TOML files the solver takes (puzzle files, deal files): a file that is not
UTF-8 text, or not TOML, is one message naming the file (and the line, where known)."""

from __future__ import annotations

import datetime
import json
import re
import tomllib
from typing import Any

from .errors import WholeFileError


def read_toml(raw: bytes, source: str, what: str) -> tuple[dict[str, Any], str]:
    """The document and its text, or :class:`WholeFileError`; ``what`` names the kind of
    file in messages ("puzzle file")."""
    try:
        text = raw.decode("utf-8").removeprefix(
            "\ufeff"
        )  # a byte-order mark, as some editors write
    except UnicodeDecodeError as e:
        line = raw[: e.start].count(b"\n") + 1
        raise WholeFileError(
            f"{source}, line {line}: not UTF-8 text (byte {e.start + 1})"
        ) from None
    if "\x00" in text:
        raise WholeFileError(f"{source}: not a text file (it holds NUL bytes)")
    try:
        return tomllib.loads(text), text
    except tomllib.TOMLDecodeError as e:
        hint = ""
        if text.lstrip()[:1].isdigit():  # a number first: the contest format's T
            hint = (
                " (a contest file? `landlord judge` reads those, and `landlord batch` under a"
                " name that does not end in .toml)"
            )
        raise WholeFileError(f"{source}: TOML syntax error: {e}{hint}") from None
    except RecursionError:
        raise WholeFileError(f"{source}: TOML nested too deeply to be a {what}") from None


def line_of(lines: list[str], key: str, start: int = 1) -> int:
    """The line (from ``start``) where ``key = ...`` is written, or its table's header
    ``[puzzle.key]``, else ``start``."""
    pattern = re.compile(rf"\s*{re.escape(key)}\s*=")
    header = re.compile(rf"\s*\[[^\[\]]*\.\s*{re.escape(key)}\s*\]")
    for i in range(start - 1, len(lines)):
        if pattern.match(lines[i]) or header.match(lines[i]):
            return i + 1
        if i >= start and re.match(r"\s*\[", lines[i]):
            break
    return start


def stray_key(lines: list[str], source: str, key: str, table: str) -> WholeFileError:
    """The error for a top-level ``key`` in a file of ``[[table]]`` tables; deals and
    puzzles in one file are told as such, whichever comes first."""
    if key in ("puzzle", "deal"):
        return WholeFileError(
            f"{source}: [[deal]] and [[puzzle]] tables in one file: "
            "deals and puzzles go in separate files"
        )
    return WholeFileError(
        f"{source}, line {line_of(lines, key)}: key {key!r} outside a [[{table}]] table "
        f"in a file that has [[{table}]] tables"
    )


def toml_value(value: object) -> str:
    """A value read from a TOML file, written back as TOML writes it (``true``, not
    Python's ``True``), for messages about it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {toml_value(v)}" for k, v in value.items()) + " }"
    if isinstance(value, datetime.date | datetime.time):
        return value.isoformat()
    return str(value)
