"""Scoring: what a hand is worth, and the stake of a line.

A hand's stake is the bid, doubled once for every bomb and for the rocket played in it
(by either side; in the four-player game only bombs of six cards or more count), once
more for a spring (the landlord wins and no peasant played a card in the hand) and once
for an anti-spring (the peasants win and the landlord made only one play, his opening
lead). Each peasant pays the landlord the stake when he wins, and the landlord pays
each peasant the stake when they win.

A position taken from the middle of a hand carries its :class:`History`: the doublings
already played and what decides whether a spring or an anti-spring is still possible.
A *value* is what the hand is worth to the landlord per peasant in units of the bid:
``+2**k`` when he wins with ``k`` doublings, ``-2**k`` when he loses with ``k``.

This module is plain Python: it reads lines, it does not search them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol

from .errors import RuleError
from .movegen import Move
from .rules import CLASSIC, RuleSet

BIDS = (1, 2, 3)


def doubling(cards: Sequence[int], rules: RuleSet = CLASSIC) -> str | None:
    """``"bomb"`` or ``"rocket"`` when the cards of one play double the stake (a bomb of
    the rule set's stake size or more, one rank alone; the rocket, its jokers alone),
    else None."""
    total = sum(cards)
    if rules.stake_bomb <= total <= rules.bomb_sizes[1] and total in cards[:13]:
        return "bomb"
    jokers = rules.rocket
    return "rocket" if total == 2 * jokers and cards[13] == cards[14] == jokers else None


def doubles(move: Move | None, rules: RuleSet = CLASSIC) -> bool:
    """Whether playing ``move`` doubles the stake."""
    return move is not None and doubling(move.cards, rules) is not None


class Played(Protocol):
    """One move of a line: who made it and what (None for a pass)."""

    player: int
    move: Move | None


@dataclass(frozen=True)
class History:
    """What has happened in the hand before a position: the doublings played (bombs and
    the rocket), whether a peasant has played a card (then no spring), and how many plays
    the landlord has made (an anti-spring needs exactly one when the peasants go out)."""

    bombs: int = 0
    peasants_played: bool = False
    landlord_plays: int = 0

    def after(self, player: int, move: Move | None, rules: RuleSet = CLASSIC) -> History:
        """The history after ``player`` makes ``move`` (None: passes)."""
        if move is None:
            return self
        return History(
            self.bombs + doubles(move, rules),
            self.peasants_played or player != 0,
            self.landlord_plays + (player == 0),
        )

    def doublings(self, landlord_wins: bool) -> int:
        """The doublings of a hand that ends now with this history."""
        if landlord_wins:
            return self.bombs + (not self.peasants_played)
        return self.bombs + (self.landlord_plays == 1)

    def check(self, to_move: int, table: Move | None, table_by: int | None, rules: RuleSet) -> None:
        """Refuse a history the position cannot follow from: the landlord makes the first
        play of every hand, and a table play or a peasant's free lead says who has played
        (and a bomb on the table has been counted)."""
        if self.bombs < 0 or self.landlord_plays < 0:
            raise RuleError("history: bombs and landlord_plays cannot be negative")
        if self.landlord_plays == 0:
            if to_move != 0 or table_by is not None:
                raise RuleError(
                    "history: landlord_plays = 0 only at the start of a hand, where the "
                    "landlord leads: he always makes the first play"
                )
            if self.peasants_played or self.bombs:
                raise RuleError(
                    "history: with landlord_plays = 0 nothing has been played yet "
                    "(no bombs, no peasant play)"
                )
        if table_by is not None and table_by != 0 and not self.peasants_played:
            raise RuleError("history: the table play is a peasant's, so peasants_played = true")
        if table_by is None and to_move != 0 and not self.peasants_played:
            raise RuleError(
                "history: a peasant leads, so he has won a round: peasants_played = true"
            )
        if doubles(table, rules) and self.bombs == 0:
            raise RuleError(f"history: the table play {table} doubled the stake, so bombs >= 1")

    @classmethod
    def implied(
        cls, to_move: int, table: Move | None, table_by: int | None, rules: RuleSet
    ) -> History:
        """The history that assumes least for a position given without one: the start of
        a hand when the landlord leads freely; otherwise no doublings but a bomb on the
        table, and no more plays than the position needs (the landlord has led; a peasant
        has played when the table play is his or he leads)."""
        if to_move == 0 and table_by is None:
            return cls()
        peasants = table_by not in (None, 0) or (table_by is None and to_move != 0)
        return cls(int(doubles(table, rules)), peasants, 1)

    def given(self, **keys: Any) -> History:
        """This (implied) history with some of its keys given: the others as implied,
        and the landlord's plays at least one where the keys given say something was
        played (he always makes the first play)."""
        made = replace(self, **keys)
        if "landlord_plays" not in keys and (made.bombs or made.peasants_played):
            made = replace(made, landlord_plays=max(made.landlord_plays, 1))
        return made

    @property
    def notation(self) -> str:
        """As a position on the command line gives it."""
        played = "yes" if self.peasants_played else "no"
        return f"BOMBS={self.bombs} PEASANTS_PLAYED={played} LANDLORD_PLAYS={self.landlord_plays}"

    def as_dict(self) -> dict[str, Any]:
        return {
            "bombs": self.bombs,
            "peasants_played": self.peasants_played,
            "landlord_plays": self.landlord_plays,
        }


@dataclass(frozen=True)
class Stake:
    """The stake of a line played to the end of the hand: the doublings played in it,
    spring or anti-spring, the multiplier (with the history's doublings) and the points
    at the bid, signed for the landlord (per peasant)."""

    bombs: int
    rocket: bool
    spring: bool
    anti_spring: bool
    multiplier: int
    points: int

    @classmethod
    def of_spring(
        cls, plays: Sequence[Sequence[int]], bid: int = 1, rules: RuleSet = CLASSIC
    ) -> Stake:
        """The stake of a spring's plays (the landlord's, all of them), from their cards
        alone: the fast path of runs over many deals."""
        kinds = [doubling(p, rules) for p in plays]
        bombs, rocket = kinds.count("bomb"), "rocket" in kinds
        multiplier = 2 ** (bombs + rocket + 1)
        return cls(bombs, rocket, True, False, multiplier, bid * multiplier)

    @property
    def value(self) -> int:
        """The signed multiplier: the hand's worth to the landlord in units of the bid."""
        return self.multiplier if self.points > 0 else -self.multiplier

    def as_dict(self) -> dict[str, Any]:
        return {
            "bombs": self.bombs,
            "rocket": self.rocket,
            "spring": self.spring,
            "anti_spring": self.anti_spring,
            "multiplier": self.multiplier,
            "points": self.points,
        }

    @property
    def reasons(self) -> str:
        """What doubled the stake, in words ("2 bombs, spring"; empty when nothing did)."""
        parts = [f"{self.bombs} bomb{'s' * (self.bombs != 1)}"] if self.bombs else []
        if self.rocket:
            parts.append("rocket")
        if self.spring:
            parts.append("spring")
        if self.anti_spring:
            parts.append("anti-spring")
        return ", ".join(parts)

    def __str__(self) -> str:
        why = f" ({self.reasons})" if self.reasons else ""
        return f"x{self.multiplier}{why}: {self.points:+d}"


def line_stake(
    line: Sequence[Played],
    hands: Sequence[Sequence[int]],
    history: History,
    bid: int = 1,
    rules: RuleSet = CLASSIC,
) -> Stake | None:
    """The stake of ``line`` played from a position with these hands and history, or
    None when the line stops before a player is out."""
    left = [sum(h) for h in hands]
    bombs = rocket = 0
    for step in line:
        if step.move is None:
            continue
        history = history.after(step.player, step.move, rules)
        kind = doubling(step.move.cards, rules)
        bombs += kind == "bomb"
        rocket += kind == "rocket"
        left[step.player] -= sum(step.move.cards)
        if left[step.player] == 0:
            landlord_wins = step.player == 0
            spring = landlord_wins and not history.peasants_played
            anti = not landlord_wins and history.landlord_plays == 1
            multiplier = 2 ** history.doublings(landlord_wins)
            return Stake(
                bombs,
                bool(rocket),
                spring,
                anti,
                multiplier,
                bid * multiplier * (1 if landlord_wins else -1),
            )
    return None


def check_bid(bid: object) -> int:
    """A bid of 1, 2 or 3 points."""
    if isinstance(bid, bool) or not isinstance(bid, int) or bid not in BIDS:  # 2.0 too
        raise RuleError(f"bid {bid!r}: expected 1, 2 or 3")
    return bid


def check_history_cards(
    history: History,
    hands: Sequence[Sequence[int]],
    table: Move | None,
    rules: RuleSet = CLASSIC,
) -> None:
    """Refuse more doublings in the history than the cards out of play could have made:
    a bomb that doubles takes the stake bomb's cards of a rank that are in no hand and
    not on the table (four of four classic, six of eight four-player), the rocket every
    joker; a table play that doubled the stake is one of them."""
    held = [sum(h[r] for h in hands) + (table.cards[r] if table else 0) for r in range(15)]
    out = [n - h for n, h in zip(rules.deck, held, strict=True)]
    most = sum(n // rules.stake_bomb for n in out[:13]) + (held[13] == 0 and held[14] == 0)
    most += doubles(table, rules)
    if history.bombs > most:
        raise RuleError(
            f"history: {history.bombs} bomb{'s' * (history.bombs != 1)}, but the cards out "
            f"of play and on the table make at most {most}"
        )
