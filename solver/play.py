"""A puzzle played against the solver: its replies keep a won position won, hints list
the moves that win, and a move that throws a win away is caught. Played for points (the
stake question), its replies keep its side's value, hints list the moves that keep
yours, and a move that gives some of it away is caught. The command line only does the
talking."""

from __future__ import annotations

from .cards import format_hand, parse_hand
from .endgame import SHORT_NAMES, Step, keeping_move
from .errors import LandlordError
from .movegen import Move, readings, why_no_play
from .rules import check_question
from .scoring import History, Stake, line_stake
from .search import UNKNOWN, WIN, Position, Searcher
from .stake import Walker, score_value


class IllegalMove(LandlordError):
    """What a player typed is not a legal move here (the message says why)."""


class Game:
    """One game from a position: the human plays one side (``WIN``: the landlord,
    ``LOSS``: the peasants), the solver the other. A time limit counts afresh for every
    answer; ``stopped`` records whether one ever left an answer unknown. The moves made
    are kept, for the stake of the game (from the puzzle's history, at its bid); with
    ``staked``, both sides play for points."""

    def __init__(
        self,
        searcher: Searcher,
        pos: Position,
        human: int,
        history: History | None = None,
        bid: int = 1,
        staked: bool = False,
    ) -> None:
        self.searcher = searcher
        self.first = self.pos = pos
        self.human = human
        self.stopped = False
        self.history = self.now = history or History.implied(
            pos.to_move, pos.table, pos.owner, pos.rules
        )
        self.bid = bid
        self.staked = staked
        if staked:
            check_question("stake", pos.rules)
        self.line: list[Step] = []

    @property
    def stake(self) -> Stake | None:
        """The stake of the game so far: None until it is over."""
        return line_stake(self.line, self.first.hands, self.history, self.bid, self.pos.rules)

    def _move(self, move: Move | None) -> None:
        self.line.append(Step(self.pos.to_move, move))
        self.now = self.now.after(self.pos.to_move, move, self.pos.rules)
        self.pos = self.pos.after(move)

    def _walker(self) -> tuple[Walker, int | None]:
        """A new question, and the score of the position now (None: a limit stopped it)."""
        self.searcher.start(self.pos.rules)
        walk = Walker(self.searcher)
        score = walk.score(self.pos, self.now)
        self.stopped |= score is None
        return walk, score

    @property
    def over(self) -> bool:
        return self.pos.winner is not None

    @property
    def human_won(self) -> bool:
        return self.pos.winner == self.human

    @property
    def solvers_turn(self) -> bool:
        return (self.pos.to_move == 0) != (self.human == WIN)

    def state(self) -> str:
        """The hands, and the play to beat."""
        pos = self.pos
        hands = "  ".join(f"{SHORT_NAMES[i]}: {format_hand(h)}" for i, h in enumerate(pos.hands))
        table = f"  table: {pos.table} by {SHORT_NAMES[pos.owner]}" if pos.table else ""
        return hands + table

    def reply(self) -> tuple[Move | None, bool]:
        """Make the solver's move (one that keeps its side winning, when there is one);
        return it, and whether a limit left its choice unproved."""
        if self.staked:
            walk, score = self._walker()
            found, move = (
                (False, None) if score is None else walk.keeping_move(self.pos, self.now, score)
            )
            unknown = not found
            if not found:
                move = self.searcher.moves(self.pos)[0]
        else:
            self.searcher.start(self.pos.rules)
            move, unknown = keeping_move(self.searcher, self.pos)
        self.stopped |= unknown
        self._move(move)
        return move, unknown

    def hint(self) -> tuple[list[Move | None], bool]:
        """The human's winning moves (played for points: those that keep his side's
        value), and whether a limit left some move unknown."""
        options = self.searcher.moves(self.pos)
        if self.staked:
            walk, score = self._walker()
            if score is None:
                return [], True
            keeps = [walk.keeps(self.pos, self.now, score, m) for m in options]
            good = [m for m, v in zip(options, keeps, strict=True) if v == WIN]
            unknown = UNKNOWN in keeps
        else:
            self.searcher.start(self.pos.rules)
            values = [self.searcher.value(self.pos.after(m)) for m in options]
            good = [m for m, v in zip(options, values, strict=True) if v == self.human]
            unknown = UNKNOWN in values
        self.stopped |= unknown
        return good, unknown

    def value(self) -> int | None:
        """What the hand is worth to the landlord now, with best play (None: unknown)."""
        _, score = self._walker()
        return None if score is None else score_value(score)

    def parse(self, text: str) -> Move | None:
        """The legal move ``text`` names (None: a pass, in any case), or
        :class:`IllegalMove`."""
        options = self.searcher.moves(self.pos)
        if text.lower() == "pass":
            if None not in options:
                raise IllegalMove("You cannot pass on a free lead.")
            return None
        try:
            cards = parse_hand(text)
        except LandlordError as e:
            raise IllegalMove(str(e)) from None
        if not any(cards):  # an empty line, or separators alone
            raise IllegalMove("Type cards (as 33 or 3-3), pass, hint or quit.")
        for m in options:
            if m is not None and m.cards == cards:
                return m
        hand = self.pos.hands[self.pos.to_move]
        if not readings(cards, self.pos.rules):
            why = why_no_play(cards, self.pos.rules)
            raise IllegalMove(f"{format_hand(cards)} {why}.")
        if any(c > h for c, h in zip(cards, hand, strict=True)):
            raise IllegalMove("You do not hold those cards.")
        raise IllegalMove("That does not beat the table.")

    def play(self, move: Move | None) -> str | None:
        """Make the human's move; return what it threw away, if anything: a won
        position, or (played for points) some of his side's value."""
        if self.staked:
            before = self.value()
            self._move(move)
            stake = self.stake  # the hand's, once it is over
            after = stake.value if stake is not None else self.value()
            if before is None or after is None or before == after:
                return None
            if (after < before) == (self.human == WIN):
                return (
                    f"That gives some away: the hand was worth {before:+d} to the landlord, "
                    f"now {after:+d}."
                )
            return None
        self.searcher.start(self.pos.rules)
        before = self.searcher.value(self.pos)
        after = self.searcher.value(self.pos.after(move))
        self.stopped |= UNKNOWN in (before, after)
        self._move(move)
        if before == self.human and after not in (self.human, UNKNOWN):
            return "That throws away a won position."
        return None
