"""A position of the forced-win search, in plain Python: the hands in turn order (landlord,
peasant 1[, peasant 2[, peasant 3]]), who is to move, and the play on the table with its owner (or a
free lead). Reading and checking positions needs no search (only the move generator, to
read a table play), so this module is apart from it."""

from __future__ import annotations

from dataclasses import dataclass

from .cards import Hand, check_disjoint, check_hand, format_hand
from .errors import RuleError
from .movegen import Move, as_play
from .rules import CLASSIC, RuleSet

WIN, LOSS, UNKNOWN = 1, 0, -1  # for the landlord's side
PLAYER_NAMES = ("landlord", "peasant1", "peasant2", "peasant3")


@dataclass(frozen=True)
class Position:
    """A validated position: hands in turn order, the mover, and the play to beat."""

    hands: tuple[Hand, ...]
    to_move: int = 0
    table: Move | None = None
    owner: int | None = None
    rules: RuleSet = CLASSIC

    @property
    def players(self) -> int:
        return len(self.hands)

    def after(self, move: Move | None) -> Position:
        """The position after the mover plays ``move`` (None: passes)."""
        nxt = (self.to_move + 1) % self.players
        if move is None:
            if self.table is None:
                raise RuleError("cannot pass on a free lead")
            clear = nxt == self.owner
            return Position(
                self.hands,
                nxt,
                None if clear else self.table,
                None if clear else self.owner,
                self.rules,
            )
        hands = list(self.hands)
        hands[self.to_move] = tuple(
            a - b for a, b in zip(hands[self.to_move], move.cards, strict=True)
        )
        return Position(tuple(hands), nxt, move, self.to_move, self.rules)

    @property
    def winner(self) -> int | None:
        """WIN or LOSS when a player has gone out, else None."""
        for i, h in enumerate(self.hands):
            if not any(h):
                return WIN if i == 0 else LOSS
        return None


def make_position(
    hands: list[Hand],
    to_move: int = 0,
    table: Hand | None = None,
    owner: int | None = None,
    rules: RuleSet = CLASSIC,
) -> Position:
    """Validate a position (hands within the deck, a legal table play, a sane owner)."""
    if not 2 <= len(hands) <= rules.players:
        raise RuleError(
            f"a position of the {rules.name} game has 2 to {rules.players} hands, got {len(hands)}"
        )
    for i, h in enumerate(hands):
        check_hand(h, rules.deck, format_hand(h))
        if not any(h):
            raise RuleError(f"{PLAYER_NAMES[i]}'s hand is empty: the game is over")
    if not 0 <= to_move < len(hands):
        raise RuleError(f"no {PLAYER_NAMES[to_move]} in a {len(hands)}-player position")
    move = None
    if table is not None:
        check_disjoint([*hands, table], rules.deck)
        move = as_play(table, rules)
        if owner is None or not 0 <= owner < len(hands):
            raise RuleError("a table play needs its owner, one of the players")
        if owner == to_move:
            raise RuleError(
                f"the {PLAYER_NAMES[owner]} owns the table play and is also to move: "
                "after everyone passes the owner leads freely"
            )
    else:
        check_disjoint(hands, rules.deck)
        owner = None
    return Position(tuple(hands), to_move, move, owner, rules)
