"""Reading the TOML files the solver takes (puzzle files, deal files): a file that is not
UTF-8 text, or not TOML, is one message naming the file (and the line, where known)."""

from __future__ import annotations

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
        raise WholeFileError(f"{source}: TOML syntax error: {e}") from None
    except RecursionError:
        raise WholeFileError(f"{source}: TOML nested too deeply to be a {what}") from None
