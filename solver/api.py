"""The Python API: solve puzzles, the same answers the CLI prints."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from .endgame import (
    SHORT_NAMES,
    Step,
    WinResult,
    load_search,
    side_wins,
    solve_win,
    stopped_record,
)
from .puzzles import Puzzle
from .scoring import History, Stake, line_stake
from .search import (
    DEFAULT_MEMORY_MB,
    PLAYER_NAMES,
    Searcher,
)
from .spring import SpringResult, solve_spring, workspace
from .stake import StakeResult, score_value, solve_stake

EMPTY = (0,) * 15


@dataclass(frozen=True)
class Solution:
    """A solved puzzle: the answer, its line, and how long it took."""

    puzzle: Puzzle
    question: str
    result: SpringResult | WinResult | StakeResult
    seconds: float

    @property
    def answer(self) -> bool | None:
        """True or False; None when a limit stopped a search."""
        return self.result.answer

    @property
    def settled(self) -> bool:
        """Whether all that was asked is known: the answer, and a stake question's value."""
        value_known = not isinstance(self.result, StakeResult) or self.result.value is not None
        return self.answer is not None and value_known

    @property
    def mismatch(self) -> bool:
        """Whether the puzzle states an expected answer (or value) that this one contradicts."""
        expect = self.puzzle.expect
        if expect is None or self.answer is None:
            return False
        if isinstance(expect, bool):
            return expect != self.answer
        value = self.result.value if isinstance(self.result, StakeResult) else None
        return value is not None and expect != value

    @property
    def steps(self) -> list[Step]:
        """The line as moves with their players (a spring's are all the landlord's)."""
        if isinstance(self.result, SpringResult):
            return [Step(0, m) for m in self.result.line]
        return self.result.line

    @property
    def stake(self) -> Stake | None:
        """The stake of the line, when it ends the hand."""
        if isinstance(self.result, StakeResult):
            return self.result.stake
        p = self.puzzle
        history = History() if self.question == "spring" else p.history
        return line_stake(self.steps, (p.landlord, *p.peasants), history, p.bid, p.rules)

    def line_text(self) -> list[str]:
        """The line, one string per move: cards in canonical notation, or ``pass``."""
        if isinstance(self.result, SpringResult):
            return self.result.line_text()
        return [step.text for step in self.result.line]

    def as_json(self) -> dict[str, Any]:
        """The ``--json`` object: name, question, answer, line, seconds, and context."""
        out: dict[str, Any] = {
            "name": self.puzzle.name,
            "question": self.question,
            "answer": self.answer,
            "line": self.line_text(),
            "seconds": round(self.seconds, 6),
            "file": self.puzzle.file,
        }
        stake = self.stake
        out["stake"] = None if stake is None else stake.as_dict()
        if isinstance(self.result, StakeResult):
            out["value"] = self.result.value
            out["points"] = self.result.points
            out["bid"] = self.puzzle.bid
        if isinstance(self.result, SpringResult):
            out["plays"] = [m.as_dict() for m in self.result.line]
        else:
            r = self.result
            out["players"] = [PLAYER_NAMES[step.player] for step in r.line]
            out["to_move"] = PLAYER_NAMES[self.puzzle.to_move]
            out["nodes"] = r.stats.nodes
            out["table_hits"] = r.stats.hits
            out.update(stopped_record(r.stats))
            if isinstance(r, StakeResult) and r.first_moves is not None:
                out["first_moves"] = [
                    {
                        "move": step.text,
                        "value": None if s is None else score_value(s),
                        "wins": None if s is None else (s > 0) == (step.player == 0),
                    }
                    for step, s, _ in r.first_moves
                ]
            elif isinstance(r, WinResult) and r.first_moves is not None:
                out["first_moves"] = [
                    {"move": step.text, "wins": side_wins(v, step.player)}
                    for step, v, _ in r.first_moves
                ]
        if self.puzzle.expect is not None:
            out["expect"] = self.puzzle.expect
        return out

    def text(self) -> str:
        """One human line: verdict, then the line as a player reads it, and its stake."""
        verdict = {True: "yes", False: "no", None: "unknown"}[self.answer]
        if isinstance(self.result, StakeResult):
            value = self.result.value
            verdict = "unknown" if value is None else f"{value:+d}"
        head = f"{self.puzzle.name}: {self.question}? {verdict}"
        if isinstance(self.result, SpringResult):
            plays = self.result.line
            if plays:
                head += f" in {len(plays)} play{'s' * (len(plays) != 1)}: " + "  ".join(
                    str(m) for m in plays
                )
        else:
            r = self.result
            head += f" ({SHORT_NAMES[self.puzzle.to_move]} to move)"
            if r.line:
                head += ": " + "  ".join(str(step) for step in r.line)
            if r.stats.aborted:
                head += f"  (stopped by the {r.stats.aborted})"
        stake = self.stake
        if stake is not None:
            head += f"  stake {stake}"
        if not isinstance(self.result, SpringResult):
            r = self.result
            head += f"  [{r.stats.nodes:,} nodes]"
            if isinstance(r, StakeResult) and r.first_moves is not None:
                values = [
                    f"{step.text} {'?' if s is None else f'{score_value(s):+d}'}"
                    for step, s, _ in r.first_moves
                ]
                head += f"\n  first moves: {', '.join(values)}"
            elif isinstance(r, WinResult) and r.first_moves is not None:
                wins = [step.text for step, v, _ in r.first_moves if side_wins(v, step.player)]
                head += f"\n  winning first moves: {', '.join(wins) if wins else 'none'}"
        if self.mismatch:
            expect = self.puzzle.expect
            shown = ("yes" if expect else "no") if isinstance(expect, bool) else f"{expect:+d}"
            head += f"  MISMATCH: expected {shown}"
        return head + f"  ({self.seconds * 1000:.2f} ms)"


class Solver:
    """Solves puzzles one after another, reusing its buffers and search table."""

    def __init__(
        self,
        memory_mb: float = DEFAULT_MEMORY_MB,
        time_limit: float | None = None,
        all_moves: bool = False,
    ) -> None:
        self._ws = workspace()
        self._searcher: Searcher | None = None
        self._memory_mb = memory_mb
        self._time_limit = time_limit
        self._all_moves = all_moves
        # load the compiled spring kernels now, so that no puzzle's time includes it
        solve_spring((1,) + EMPTY[1:], (EMPTY, EMPTY), ws=self._ws)

    def prepare(self, question: str) -> None:
        """Load what ``question`` needs (the search and its table for ``win``), so that no
        puzzle's time includes it."""
        if question in ("win", "stake") and self._searcher is None:
            self._searcher = Searcher(self._memory_mb, self._time_limit)
            load_search(self._searcher)

    def solve(self, puzzle: Puzzle, question: str | None = None) -> Solution:
        """Answer a validated puzzle's question (or ``question`` instead, and then its
        ``expect`` no longer applies)."""
        puzzle = puzzle.asked(question)
        question = puzzle.question
        self.prepare(question)
        start = time.perf_counter()
        result: SpringResult | WinResult | StakeResult
        if question == "spring":
            result = solve_spring(puzzle.landlord, puzzle.peasants, puzzle.rules, self._ws)
        elif question == "stake":
            assert self._searcher is not None
            result = solve_stake(
                self._searcher,
                puzzle.position(),
                puzzle.history,
                puzzle.bid,
                all_moves=self._all_moves,
            )
        else:
            assert self._searcher is not None
            result = solve_win(self._searcher, puzzle.position(), all_moves=self._all_moves)
        return Solution(puzzle, question, result, time.perf_counter() - start)
