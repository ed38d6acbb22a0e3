"""Forced-win answers with their proofs: the winning move, a principal line to the end of
the game, and every first move with its outcome.

The search kernel only says who wins; lines come from walking down the game, asking the
(kernel's, table-backed) value of each child: the winning side plays its first move that
keeps the win, the losing side its first legal move, until somebody is out.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .cards import format_hand, parse_hand
from .errors import LandlordError, RuleError, quoted
from .movegen import Move
from .rules import CLASSIC, RuleSet, rule_set
from .scoring import History, check_history_cards, line_stake
from .search import LOSS, PLAYER_NAMES, UNKNOWN, WIN, Position, Searcher, SearchStats, make_position

SHORT_NAMES = ("L", "P1", "P2", "P3")
MAX_LINE_PLIES = 1000  # more than any game lasts: 108 cards, at most three passes a play


@dataclass(frozen=True)
class Step:
    """One move of a line: who moved and what (None for a pass)."""

    player: int
    move: Move | None

    def __str__(self) -> str:
        return f"{SHORT_NAMES[self.player]} {'pass' if self.move is None else self.move}"

    @property
    def text(self) -> str:
        """The move alone, as ``--json`` writes it: cards, or ``pass``."""
        return "pass" if self.move is None else str(self.move)


@dataclass
class WinResult:
    """The answer to "does the landlord's side win?", with its proof and its cost."""

    value: int  # WIN, LOSS or UNKNOWN
    line: list[Step] = field(default_factory=list)
    first_moves: list[tuple[Step, int, list[Step]]] | None = None
    stats: SearchStats = field(default_factory=SearchStats)

    @property
    def answer(self) -> bool | None:
        """True when the landlord's side wins, False when it loses, None when unknown."""
        return None if self.value == UNKNOWN else self.value == WIN


def keeping_move(searcher: Searcher, pos: Position) -> tuple[Move | None, bool]:
    """The mover's first move that keeps his side winning, else his first move; and
    whether a limit left some move's outcome unknown."""
    mine = WIN if pos.to_move == 0 else LOSS
    options = searcher.moves(pos)
    if searcher.by_proof_numbers(pos):  # first the move the search proved, if it is known
        for m in options:
            if searcher.known(pos.after(m)) == mine:
                return m, False
    stopped = False
    for m in options:
        v = searcher.value(pos.after(m))
        if v == mine:
            return m, False
        stopped |= v == UNKNOWN
    return options[0], stopped


def principal_line(searcher: Searcher, pos: Position) -> list[Step]:
    """Best play from ``pos`` to the end of the game (shorter if a limit stops it)."""
    line: list[Step] = []
    while pos.winner is None and len(line) < MAX_LINE_PLIES:
        value = searcher.value(pos)
        if value == UNKNOWN:
            break
        if value == (WIN if pos.to_move == 0 else LOSS):
            choice, stopped = keeping_move(searcher, pos)
            if stopped:
                break
        else:  # every move loses: the first will do
            choice = searcher.moves(pos)[0]
        line.append(Step(pos.to_move, choice))
        pos = pos.after(choice)
    return line


def solve_win(
    searcher: Searcher, pos: Position, all_moves: bool = False, lines: bool = False
) -> WinResult:
    """Answer a position; ``all_moves`` adds every first move with its outcome (and, with
    ``lines``, the line that follows it: for a losing move, its refutation)."""
    searcher.start(pos.rules)
    value = searcher.value(pos)
    result = WinResult(value, stats=searcher.stats)
    if value != UNKNOWN:
        result.line = principal_line(searcher, pos)
    if all_moves:
        result.first_moves = []
        for m in searcher.moves(pos):
            child = pos.after(m)
            v = searcher.value(child)
            follow = principal_line(searcher, child) if lines and v != UNKNOWN else []
            result.first_moves.append((Step(pos.to_move, m), v, follow))
        if value == UNKNOWN:  # a limit stopped the root, yet its moves may settle it
            values = [v for _, v, _ in result.first_moves]
            mine = WIN if pos.to_move == 0 else LOSS
            if mine in values:
                result.value = mine
            elif UNKNOWN not in values:
                result.value = 1 - mine
    result.stats = searcher.stats
    return result


def load_search(searcher: Searcher) -> None:
    """Load (or compile) the kernels of both searches with a trivial question each (a
    whole deal goes to the proof-number search), so that no answer's time includes it."""
    trivial = make_position([(1,) + (0,) * 14, (0, 1) + (0,) * 13])
    solve_win(searcher, trivial)
    Searcher(1, strategy="proof-number").value(trivial)


def parse_position(spec: str, rules: RuleSet = CLASSIC) -> Position:
    """Read ``L=... P1=... [P2=... [P3=...]] [TO=L|P1|P2|P3] [TABLE=cards@P1]
    [BAN=kind,...] [RULES=classic|four-player]`` (``RULES=`` replaces the game of
    ``rules``, keeping its bans)."""
    fields: dict[str, str] = {}
    for token in spec.split():
        key, sep, value = token.partition("=")
        key = key.upper()
        if not sep or key not in (*SHORT_NAMES, "TO", "TABLE", "BAN", "RULES"):
            raise RuleError(
                f"position {spec!r}: unexpected {token!r}; expected L=, P1=, P2=, P3=, TO=, "
                "TABLE=cards@player, BAN=kind,... or RULES=name"
            )
        if key in fields:
            raise RuleError(f"position {spec!r}: {key}= is given twice")
        fields[key] = value
    if "L" not in fields or "P1" not in fields:
        raise RuleError(f"position {spec!r}: needs at least L= and P1=")
    if "P3" in fields and "P2" not in fields:
        raise RuleError(f"position {spec!r}: P3= needs P2=")
    try:
        hands = [parse_hand(fields[key]) for key in SHORT_NAMES if key in fields]
        if "RULES" in fields:
            rules = rule_set(fields["RULES"].lower()).with_bans(rules.bans)
        if fields.get("BAN"):
            rules = rules.with_bans(fields["BAN"].split(","))
        to_move = player_index(fields.get("TO", "L"), len(hands))
        table = owner = None
        if "TABLE" in fields:
            cards, at, who = fields["TABLE"].partition("@")
            if not at or not cards:
                raise RuleError("TABLE needs the play and its owner, as TABLE=55@P1")
            table, owner = parse_hand(cards), player_index(who, len(hands))
        return make_position(hands, to_move, table, owner, rules)
    except LandlordError as e:
        raise RuleError(f"position {spec!r}: {e}") from None


HISTORY_FIELDS = ("BOMBS", "PEASANTS_PLAYED", "LANDLORD_PLAYS")


def parse_staked(spec: str, rules: RuleSet = CLASSIC) -> tuple[Position, History]:
    """A position with its history: :func:`parse_position`'s notation, and optionally
    ``BOMBS=n PEASANTS_PLAYED=yes|no LANDLORD_PLAYS=n`` (the puzzle key ``history``;
    what is not given is what the position implies, see :meth:`History.implied`)."""
    kept, given = [], {}
    for token in spec.split():
        key, sep, value = token.partition("=")
        if sep and key.upper() in HISTORY_FIELDS:
            given[key.upper()] = value
        else:
            kept.append(token)
    pos = parse_position(" ".join(kept), rules)
    history = History.implied(pos.to_move, pos.table, pos.owner, pos.rules)
    if not given:
        return pos, history
    keys: dict[str, Any] = {}
    try:
        if "BOMBS" in given:
            keys["bombs"] = int(given["BOMBS"])
        if "LANDLORD_PLAYS" in given:
            keys["landlord_plays"] = int(given["LANDLORD_PLAYS"])
    except ValueError:
        raise RuleError(
            f"position {spec!r}: BOMBS= and LANDLORD_PLAYS= take whole numbers"
        ) from None
    if "PEASANTS_PLAYED" in given:
        played = given["PEASANTS_PLAYED"].lower()
        if played not in ("yes", "no"):
            raise RuleError(f"position {spec!r}: PEASANTS_PLAYED= takes yes or no, got {played!r}")
        keys["peasants_played"] = played == "yes"
    history = history.given(**keys)
    try:
        history.check(pos.to_move, pos.table, pos.owner, pos.rules)
        check_history_cards(history, pos.hands, pos.table, pos.rules)
    except LandlordError as e:
        raise RuleError(f"position {spec!r}: {e}") from None
    return pos, history


def player_index(name: str, players: int = 3) -> int:
    """A player named as L/P1/P2/P3 or landlord/peasant1/..., one of ``players``."""
    key = name.strip().lower()
    names = list(zip(SHORT_NAMES, PLAYER_NAMES, strict=True))[:players]
    for i, (short, full) in enumerate(names):
        if key in (short.lower(), full):
            return i
    expected = ", ".join(short for short, _ in names)
    raise RuleError(f"unknown player {quoted(name)}: expected one of {expected}")


def side_wins(value: int, player: int) -> bool | None:
    """Whether a move by ``player`` that leads to ``value`` keeps his side winning."""
    if value == UNKNOWN:
        return None
    return value == (WIN if player == 0 else LOSS)


def describe(pos: Position) -> str:
    """The position in the notation of :func:`parse_position`."""
    parts = [f"{SHORT_NAMES[i]}={format_hand(h)}" for i, h in enumerate(pos.hands)]
    parts.append(f"TO={SHORT_NAMES[pos.to_move]}")
    if pos.table is not None and pos.owner is not None:
        parts.append(f"TABLE={pos.table}@{SHORT_NAMES[pos.owner]}")
    if pos.rules.bans:
        parts.append("BAN=" + ",".join(sorted(pos.rules.bans)))
    if pos.rules.name != CLASSIC.name:
        parts.append(f"RULES={pos.rules.name}")
    return " ".join(parts)


def line_record(
    pos: Position, step: Step, follow: list[Step], history: History, bid: int
) -> dict[str, Any]:
    """A first move's line in ``--json``: given whole (``"P1 pass"``, as first written)
    and split into ``line_moves`` and ``line_players``, as ``solve`` writes it; and the
    stake of the first move with the line after it, when it ends the hand."""
    stake = line_stake([step, *follow], pos.hands, history, bid, pos.rules)
    return {
        "line": [str(x) for x in follow],
        "line_moves": [x.text for x in follow],
        "line_players": [PLAYER_NAMES[x.player] for x in follow],
        "stake": None if stake is None else stake.as_dict(),
    }


def best_record(
    name: str, pos: Position, result: WinResult, history: History, bid: int = 1
) -> dict[str, Any]:
    """``landlord best --json``'s object for one position: every first move with its
    outcome and the line after it (see :func:`line_record`)."""
    return {
        "name": name,
        "position": describe(pos),
        "to_move": PLAYER_NAMES[pos.to_move],  # the side "wins" speaks for
        "answer": result.answer,
        "moves": [
            {
                "move": step.text,
                "wins": side_wins(v, pos.to_move),
                **line_record(pos, step, follow, history, bid),
            }
            for step, v, follow in result.first_moves or []
        ],
        "nodes": result.stats.nodes,
        "seconds": round(result.stats.seconds, 6),
        **stopped_record(result.stats),
    }


def stopped_record(stats: SearchStats) -> dict[str, str]:
    """``{"stopped_by": "time limit"}`` (or the node limit, or the move stack) when a
    limit left something unknown, else nothing: the key of ``solve --json``."""
    return {"stopped_by": stats.aborted} if stats.aborted else {}
