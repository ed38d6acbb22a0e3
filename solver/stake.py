"""The stake question: what a hand is worth to the landlord with best play on both sides.

Each side maximizes its own payoff: the landlord the signed stake, the peasants its
negative. The value is found as the bridge solver DDS finds its tricks, by yes/no
searches over the forced-win search, "is the hand worth a score of at least ``t``?"
(scores as in :mod:`solver.goal`), all in one table: the forced-win answer first, then
thresholds upwards from a win (more doublings) or downwards from a loss (costlier
losses) until one fails. Most hands hold few bombs, and a goal the remaining bombs
cannot reach is settled without search, so a value usually costs the win question
and one or two small searches more.

A principal line keeps both bounds: the landlord plays a move that keeps the value at
least ``v``, a peasant one that keeps it below the next score, so the line ends with a
stake of exactly ``v``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .endgame import MAX_LINE_PLIES, Step, describe, line_record, stopped_record
from .goal import goal_for
from .movegen import Move
from .rules import check_question
from .scoring import History, Stake, line_stake
from .search import LOSS, PLAYER_NAMES, UNKNOWN, WIN, Position, Searcher, SearchStats


def score_value(score: int) -> int:
    """The signed multiplier of a score: ``k + 1`` is ``2**k``, ``-(k + 1)`` is ``-2**k``."""
    return 2 ** (score - 1) if score > 0 else -(2 ** (-score - 1))


def next_score(score: int) -> int:
    """The next better score for the landlord (there is no score 0)."""
    return score + 1 if score != -1 else 1


def final_score(history: History, landlord_wins: bool) -> int:
    """The score of a hand that has just ended."""
    k = history.doublings(landlord_wins)
    return k + 1 if landlord_wins else -(k + 1)


@dataclass
class StakeResult:
    """The answer to "what is the hand worth?", with its proof and its cost."""

    score: int | None  # None when a limit stopped the search
    bid: int = 1
    won: bool | None = None  # the forced-win answer, asked first: known before the value
    line: list[Step] = field(default_factory=list)
    stake: Stake | None = None
    first_moves: list[tuple[Step, int | None, list[Step]]] | None = None
    stats: SearchStats = field(default_factory=SearchStats)

    @property
    def value(self) -> int | None:
        """The signed multiplier, or None when unknown."""
        return None if self.score is None else score_value(self.score)

    @property
    def points(self) -> int | None:
        """The value at the bid."""
        return None if self.score is None else score_value(self.score) * self.bid

    @property
    def answer(self) -> bool | None:
        """Whether the hand is worth something to the landlord: the forced-win answer
        (known, as the first threshold, even when a limit then stopped the value)."""
        return self.won if self.score is None else self.score > 0


class Walker:
    """Thresholds asked of positions with their histories, on one searcher (within its
    current question)."""

    def __init__(self, searcher: Searcher) -> None:
        self.searcher = searcher

    def holds(self, pos: Position, history: History, threshold: int, look: bool = False) -> int:
        """WIN when the hand is worth a score of at least ``threshold``, LOSS when not,
        UNKNOWN when a limit stopped the search; with ``look``, from what the table
        already holds, without a search (UNKNOWN: not there)."""
        winner = pos.winner
        if winner is not None:
            return WIN if final_score(history, winner == WIN) >= threshold else LOSS
        ask = self.searcher.known if look else self.searcher.value
        return ask(pos, goal_for(threshold, history))

    def score(self, pos: Position, history: History, won: int | None = None) -> int | None:
        """The exact score of the position, or None when a limit stopped a search;
        ``won``: the first threshold's answer, the forced-win one, when already asked."""
        if won is None:
            won = self.holds(pos, history, 1)
        if won == UNKNOWN:
            return None
        if won == WIN:
            t = 1
            while (more := self.holds(pos, history, t + 1)) == WIN:
                t += 1
            return None if more == UNKNOWN else t
        t = -(history.bombs + 1)  # the cheapest loss
        while (held := self.holds(pos, history, t)) == LOSS:
            t -= 1
        return None if held == UNKNOWN else t

    def keeps(
        self, pos: Position, history: History, score: int, move: Move | None, look: bool = False
    ) -> int:
        """WIN when ``move`` keeps the mover's side at ``score``, the position's score (the
        landlord keeps at least it, a peasant below the next), LOSS when it gives some
        of it away, UNKNOWN when a limit stopped the search (with ``look``, see
        :meth:`holds`)."""
        landlord = pos.to_move == 0
        threshold = score if landlord else next_score(score)
        after = history.after(pos.to_move, move, pos.rules)
        v = self.holds(pos.after(move), after, threshold, look)
        if v == UNKNOWN:
            return UNKNOWN
        return WIN if v == (WIN if landlord else LOSS) else LOSS

    def keeping_move(self, pos: Position, history: History, score: int) -> tuple[bool, Move | None]:
        """The mover's first move that keeps the position's ``score``: (True, move); or
        (False, None) when a limit stopped the search first. The move a proof-number
        search proved is looked for in the table first, so that the moves before it in
        the order are not searched."""
        if self.searcher.by_proof_numbers(pos):
            found, move = self.proved_move(pos, history, score)
            if found:
                return True, move
        for m in self.searcher.moves(pos):
            v = self.keeps(pos, history, score, m)
            if v == WIN:
                return True, m
            if v == UNKNOWN:
                break
        return False, None

    def proved_move(self, pos: Position, history: History, score: int) -> tuple[bool, Move | None]:
        """The mover's first move that the table already shows keeping ``score``, found
        without a search (the move a search just proved): (True, move), else (False,
        None)."""
        for m in self.searcher.moves(pos):
            if self.keeps(pos, history, score, m, look=True) == WIN:
                return True, m
        return False, None

    def line(self, pos: Position, history: History, score: int) -> list[Step]:
        """Best play to the end of the hand, keeping the score exactly ``score`` (shorter
        if a limit stops it)."""
        line: list[Step] = []
        while pos.winner is None and len(line) < MAX_LINE_PLIES:
            found, choice = self.keeping_move(pos, history, score)
            if not found:
                break
            line.append(Step(pos.to_move, choice))
            history = history.after(pos.to_move, choice, pos.rules)
            pos = pos.after(choice)
        return line


def stake_score(searcher: Searcher, pos: Position, history: History) -> int | None:
    """The score of a position with its history alone (no line), or None when a limit
    stopped a search: what the benchmarks time."""
    check_question("stake", pos.rules)
    searcher.start(pos.rules)
    return Walker(searcher).score(pos, history)


def solve_stake(
    searcher: Searcher,
    pos: Position,
    history: History,
    bid: int = 1,
    all_moves: bool = False,
    lines: bool = False,
) -> StakeResult:
    """The value of a position with its history; ``all_moves`` adds every first move
    with its value (and, with ``lines``, the line that follows it)."""
    check_question("stake", pos.rules)
    searcher.start(pos.rules)
    walk = Walker(searcher)
    won = walk.holds(pos, history, 1)
    # the winning side's first move, looked up while the forced win's proof is in the
    # table: the line, when a limit then stops the value
    found, first = False, None
    if won == (WIN if pos.to_move == 0 else LOSS):
        keep = 1 if pos.to_move == 0 else -1  # worth something to the landlord, or not
        found, first = walk.proved_move(pos, history, keep)
    score = walk.score(pos, history, won)
    result = StakeResult(score, bid, won={WIN: True, LOSS: False}.get(won))
    if all_moves:
        result.first_moves = []
        for m in searcher.moves(pos):
            child, after = pos.after(m), history.after(pos.to_move, m, pos.rules)
            s = walk.score(child, after)
            follow = walk.line(child, after, s) if lines and s is not None else []
            result.first_moves.append((Step(pos.to_move, m), s, follow))
        known = [s for _, s, _ in result.first_moves if s is not None]
        if score is None and len(known) == len(result.first_moves):
            result.score = score = max(known) if pos.to_move == 0 else min(known)
    if score is not None:
        result.line = walk.line(pos, history, score)
        result.stake = line_stake(result.line, pos.hands, history, bid, pos.rules)
    elif found:
        result.line = [Step(pos.to_move, first)]
    result.stats = searcher.stats
    return result


def stake_record(name: str, pos: Position, history: History, result: StakeResult) -> dict[str, Any]:
    """``landlord best --stake --json``'s object for one position: its value, and every
    first move with its value and the line after it (see :func:`line_record`)."""
    return {
        "name": name,
        "position": describe(pos),
        "to_move": PLAYER_NAMES[pos.to_move],
        "history": history.as_dict(),
        "answer": result.answer,
        "value": result.value,
        "points": result.points,
        "moves": [
            {
                "move": step.text,
                "value": None if s is None else score_value(s),
                **line_record(pos, step, follow, history, result.bid),
            }
            for step, s, follow in result.first_moves or []
        ],
        "nodes": result.stats.nodes,
        "seconds": round(result.stats.seconds, 6),
        **stopped_record(result.stats),
    }
