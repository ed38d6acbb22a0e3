"""Puzzle files: TOML, human-writable, one or many puzzles a file.

::

    [[puzzle]]                      # a file may hold many; a file with a single puzzle
    name = "rocket and four bombs"  # may also put these keys at the top level
    question = "spring"
    landlord = "RB2222AAAAKKKKQQQQ33"
    peasants = ["3445566778899TTJJ", "JJTT9988776655443"]  # in turn order
    expect = true                   # optional: the known answer
    source = "why this puzzle exists"   # optional
    bans = ["trio+single"]          # optional: combination kinds that are illegal
    bid = 2                         # optional: the points a line's stake is counted at

This shape is a contract other tools rely on: keys are added, never renamed. Reading is
all validation: a puzzle that loads is one the solver can trust. Errors name the file,
the line and the puzzle.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from .cards import Hand, check_disjoint, check_hand, format_hand, parse_hand
from .errors import InputFileError, LandlordError, WholeFileError
from .position import PLAYER_NAMES, Position, make_position
from .rules import CLASSIC, QUESTIONS, RuleSet, check_question, rule_set
from .scoring import History, check_bid, check_history_cards
from .tomlfile import line_of, read_toml, stray_key, toml_value

KEYS = (
    "name",
    "question",
    "landlord",
    "peasants",
    "expect",
    "source",
    "bans",
    "to_move",
    "table",
    "history",
    "bid",
    "rules",
)
HISTORY_KEYS = ("bombs", "peasants_played", "landlord_plays")


@dataclass(frozen=True)
class Puzzle:
    """One validated puzzle, with where it came from."""

    name: str
    question: str
    landlord: Hand
    peasants: tuple[Hand, ...]
    rules: RuleSet
    expect: bool | int | None = None  # a stake question's may be its value
    source: str | None = None
    file: str = ""
    line: int = 0
    to_move: int = 0
    table: Hand | None = None
    table_by: int | None = None
    given_history: History | None = None
    bid: int = 1

    @property
    def history(self) -> History:
        """The hand's history before the position: as given, else what the position
        implies (see :meth:`History.implied`)."""
        if self.given_history is not None:
            return self.given_history
        pos = self.position()
        return History.implied(pos.to_move, pos.table, pos.owner, pos.rules)

    @property
    def where(self) -> str:
        """Where the puzzle is written, for messages: file, line and name."""
        return f"{self.file}, line {self.line}, puzzle {self.name!r}"

    def asked(
        self, question: str | None = None, bans: Iterable[str] = (), bid: int | None = None
    ) -> Puzzle:
        """The puzzle with another question, more bans or another bid; its ``expect`` is
        dropped when the question or the rules change, since it answers only the question
        and rules it was written for (a value is in units of the bid, so it stays)."""
        rules = self.rules.with_bans(bans)
        question = question or self.question
        check_question(question, rules)
        bid = bid or self.bid
        if question == self.question and rules == self.rules:
            return self if bid == self.bid else replace(self, bid=bid)
        return replace(self, question=question, rules=rules, expect=None, bid=bid)

    def position(self) -> Position:
        """The position of a ``win`` or ``stake`` question (validated when read)."""
        return make_position(
            [self.landlord, *self.peasants], self.to_move, self.table, self.table_by, self.rules
        )


def puzzle_files(paths: list[Path]) -> Iterator[Path]:
    """The puzzle files named, folders expanded to their ``*.toml`` files (sorted)."""
    for path in paths:
        if path.is_dir():
            yield from sorted(
                p for p in path.rglob("*") if p.suffix.lower() == ".toml" and p.is_file()
            )
        else:
            yield path


def load_file(path: Path) -> list[Puzzle | InputFileError]:
    """Every puzzle of a file, or the error that spoils it; one bad puzzle spoils only itself."""
    try:
        raw = path.read_bytes()
    except OSError as e:
        return [WholeFileError(f"{path}: cannot read: {e.strerror or e}")]
    stem = path.stem.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    return load_text(raw, str(path), stem)  # a name that is no UTF-8 still names a puzzle


def load_text(raw: bytes, source: str, stem: str = "puzzle") -> list[Puzzle | InputFileError]:
    """Parse a puzzle file's bytes (see :func:`load_file`)."""
    try:
        doc, text = read_toml(raw, source, "puzzle file")
    except WholeFileError as e:
        return [e]
    lines = text.splitlines()
    if "puzzle" in doc:
        tables = doc["puzzle"]
        if not isinstance(tables, list) or not all(isinstance(t, dict) for t in tables):
            return [WholeFileError(f"{source}: 'puzzle' must be an array of tables ([[puzzle]])")]
        stray = [k for k in doc if k != "puzzle"]
        if stray:
            return [stray_key(lines, source, stray[0], "puzzle")]
        if not tables:
            return [WholeFileError(f"{source}: no puzzle in the file ('puzzle' is empty)")]
        starts = [i for i, ln in enumerate(lines, 1) if re.match(r"\s*\[\[\s*puzzle\s*\]\]", ln)]
        if len(starts) != len(tables):  # written as an inline array: no header lines
            starts = [1] * len(tables)
        named = [(t, f"{stem} #{k}", starts[k - 1]) for k, t in enumerate(tables, 1)]
    elif "deal" in doc:
        return [
            WholeFileError(
                f"{source}: a file of [[deal]] tables: `landlord analyze` and `landlord batch` "
                "answer deals"
            )
        ]
    elif doc:
        named = [(doc, stem, 1)]
    else:
        return [WholeFileError(f"{source}: no puzzle in the file (expected [[puzzle]] tables)")]
    out: list[Puzzle | InputFileError] = []
    for table, default_name, start in named:
        try:
            out.append(_puzzle(table, default_name, source, lines, start))
        except LandlordError as e:
            error = e if isinstance(e, InputFileError) else InputFileError(str(e))
            error.name = table.get("name", default_name)
            out.append(error)
    return out


def _puzzle(
    table: dict[str, Any], default: str, source: str, lines: list[str], start: int
) -> Puzzle:
    name = table.get("name", default)
    where = f"{source}, puzzle {name!r}"

    def fail(key: str, message: str) -> InputFileError:
        return InputFileError(
            f"{source}, line {line_of(lines, key, start)}, puzzle {name!r}: {message}"
        )

    for key in table:
        if key not in KEYS:
            raise fail(key, f"unknown key {key!r}: expected one of {', '.join(KEYS)}")
    if not isinstance(name, str) or not name.isprintable() or not name.strip():
        raise fail(
            "name", f"'name' must be a string of printable characters, got {toml_value(name)}"
        )
    question = table.get("question", "spring")
    if question not in QUESTIONS:
        raise fail(
            "question", f"unknown question {question!r}: expected one of {', '.join(QUESTIONS)}"
        )
    try:
        game = rule_set(table.get("rules", "classic"))
        check_question(question, game)
    except LandlordError as e:
        raise fail("rules", str(e)) from None
    if "landlord" not in table:
        raise InputFileError(f"{where} (line {start}): no 'landlord' hand")
    landlord = _hand(table["landlord"], "landlord", fail, game)
    peasants_raw = table.get("peasants")
    most = game.players - 1
    if not isinstance(peasants_raw, list) or not 1 <= len(peasants_raw) <= most:
        counts = "one or two" if most == 2 else "one to three"
        raise fail(
            "peasants",
            f"'peasants' must list {counts} peasants' hands in turn order, "
            f"got {toml_value(peasants_raw)}",
        )
    peasants = tuple(_hand(p, "peasants", fail, game) for p in peasants_raw)
    bans = table.get("bans", [])
    if not isinstance(bans, list):
        raise fail("bans", f"'bans' must be a list of combination kinds, got {toml_value(bans)}")
    try:
        rules = game.with_bans(bans)
    except LandlordError as e:
        raise fail("bans", str(e)) from None
    try:
        check_disjoint((landlord, *peasants), rules.deck)
    except LandlordError as e:
        raise fail("landlord", str(e)) from None
    expect = table.get("expect")
    if question == "stake" and isinstance(expect, int) and not isinstance(expect, bool):
        if expect == 0 or abs(expect) & (abs(expect) - 1):
            raise fail(
                "expect", f"a stake's 'expect' is a power of two or its negative, got {expect}"
            )
    elif expect is not None and not isinstance(expect, bool):
        if question == "stake":
            raise fail(
                "expect",
                "a stake's 'expect' is its value, a power of two or its negative (or true or "
                f"false: whether the landlord wins), got {toml_value(expect)}",
            )
        raise fail("expect", f"'expect' must be true or false, got {toml_value(expect)}")
    src = table.get("source")
    if src is not None and not isinstance(src, str):
        raise fail("source", f"'source' must be a string, got {toml_value(src)}")
    players = PLAYER_NAMES[: 1 + len(peasants)]
    to_move = _player(table.get("to_move", "landlord"), players, "to_move", fail)
    if question == "spring" and to_move:
        raise fail(
            "to_move", "a spring starts with the landlord to move: 'to_move' is for win and stake"
        )
    play = by = None
    if "table" in table:
        if question == "spring":
            raise fail(
                "table", "a spring starts from a free lead: 'table' is for win and stake questions"
            )
        spec = table["table"]
        if not isinstance(spec, dict) or set(spec) != {"play", "by"}:
            raise fail(
                "table",
                f'\'table\' must be {{ play = "55", by = "peasant1" }}, got {toml_value(spec)}',
            )
        play = _hand(spec["play"], "table", fail, game)
        by = _player(spec["by"], players, "table", fail)
    try:
        bid = check_bid(table.get("bid", 1))
    except LandlordError as e:
        raise fail("bid", str(e)) from None
    given: dict[str, Any] | None = None
    if "history" in table:
        if question == "spring":
            raise fail(
                "history", "a spring starts a hand: 'history' is for win and stake questions"
            )
        given = _history(table["history"], fail)
    puzzle = Puzzle(
        name,
        question,
        landlord,
        peasants,
        rules,
        expect,
        None if src is None else str(src),
        source,
        start,
        to_move,
        play,
        by,
        None,
        bid,
    )
    if question != "spring" or play is not None:  # a position the search can trust
        try:
            pos = puzzle.position()
        except LandlordError as e:
            raise fail("table" if play is not None else "landlord", str(e)) from None
        if given is not None:  # what it leaves out is what the position implies
            history = puzzle.history.given(**given)
            puzzle = replace(puzzle, given_history=history)
            try:
                history.check(pos.to_move, pos.table, pos.owner, pos.rules)
                check_history_cards(history, pos.hands, pos.table, pos.rules)
            except LandlordError as e:
                raise fail("history", str(e)) from None
    return puzzle


def _history(spec: Any, fail: Any) -> dict[str, Any]:
    """``history = { bombs = 2, peasants_played = true, landlord_plays = 3 }``: the keys
    given, each optional (the rest is what the position implies)."""
    if not isinstance(spec, dict) or not set(spec) <= set(HISTORY_KEYS):
        raise fail(
            "history",
            "'history' must be { bombs = 0, peasants_played = false, landlord_plays = 0 } "
            f"(any of those keys), got {toml_value(spec)}",
        )
    for key in ("bombs", "landlord_plays"):
        value = spec.get(key, 0)
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise fail(
                "history",
                f"history {key} must be a whole number 0 or more, got {toml_value(value)}",
            )
    played = spec.get("peasants_played", False)
    if not isinstance(played, bool):
        raise fail(
            "history", f"history peasants_played must be true or false, got {toml_value(played)}"
        )
    return dict(spec)


def _player(value: Any, players: tuple[str, ...], key: str, fail: Any) -> int:
    if value not in players:
        raise fail(key, f"unknown player {value!r}: expected one of {', '.join(players)}")
    return players.index(value)


def _hand(value: Any, key: str, fail: Any, rules: RuleSet) -> Hand:
    if not isinstance(value, str):
        raise fail(key, f"a hand must be a string of cards, got {toml_value(value)}")
    try:
        hand = parse_hand(value)
        check_hand(hand, rules.deck, value)
    except LandlordError as e:
        raise fail(key, str(e)) from None
    if not any(hand) and key == "landlord":
        raise fail(key, "the landlord's hand is empty")
    return hand


def to_toml(puzzles: list[Puzzle]) -> str:
    """Write puzzles back in the file format (the inverse of :func:`load_text`)."""
    out = []
    for p in puzzles:
        out.append("[[puzzle]]")
        out.append(f"name = {_quote(p.name)}")
        out.append(f'question = "{p.question}"')
        if p.rules.name != CLASSIC.name:
            out.append(f'rules = "{p.rules.name}"')
        out.append(f'landlord = "{format_hand(p.landlord)}"')
        out.append("peasants = [" + ", ".join(f'"{format_hand(h)}"' for h in p.peasants) + "]")
        if p.to_move:
            out.append(f'to_move = "{PLAYER_NAMES[p.to_move]}"')
        if p.table is not None and p.table_by is not None:
            out.append(
                f'table = {{ play = "{format_hand(p.table)}", by = "{PLAYER_NAMES[p.table_by]}" }}'
            )
        if p.rules.bans:
            out.append("bans = [" + ", ".join(f'"{b}"' for b in sorted(p.rules.bans)) + "]")
        if p.given_history is not None:
            h = p.given_history
            played = "true" if h.peasants_played else "false"
            out.append(
                f"history = {{ bombs = {h.bombs}, peasants_played = {played}, "
                f"landlord_plays = {h.landlord_plays} }}"
            )
        if p.bid != 1:
            out.append(f"bid = {p.bid}")
        if isinstance(p.expect, bool):
            out.append(f"expect = {'true' if p.expect else 'false'}")
        elif p.expect is not None:
            out.append(f"expect = {p.expect}")
        if p.source is not None:
            out.append(f"source = {_quote(p.source)}")
        out.append("")
    return "\n".join(out)


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'
