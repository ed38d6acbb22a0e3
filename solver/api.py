"""The Python API: solve puzzles and deals, the same answers the CLI prints."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from .puzzles import Puzzle
from .spring import SpringResult, solve_spring, workspace


@dataclass(frozen=True)
class Solution:
    """A solved puzzle: the answer, its line, and how long it took."""

    puzzle: Puzzle
    result: SpringResult
    seconds: float

    @property
    def answer(self) -> bool:
        return self.result.answer

    @property
    def mismatch(self) -> bool:
        """Whether the puzzle states an expected answer that this one contradicts."""
        return self.puzzle.expect is not None and self.puzzle.expect != self.answer

    def as_json(self) -> dict[str, Any]:
        """The ``--json`` object: name, question, answer, line, seconds, and context."""
        out: dict[str, Any] = {
            "name": self.puzzle.name,
            "question": self.puzzle.question,
            "answer": self.answer,
            "line": self.result.line_text(),
            "plays": [m.as_dict() for m in self.result.line],
            "seconds": round(self.seconds, 6),
            "file": self.puzzle.file,
        }
        if self.puzzle.expect is not None:
            out["expect"] = self.puzzle.expect
        return out


class Solver:
    """Solves puzzles one after another, reusing its buffers."""

    def __init__(self) -> None:
        self._ws = workspace()
        # load the compiled kernels now, so that no puzzle's time includes it
        solve_spring((1,) + (0,) * 14, ((0,) * 15, (0,) * 15), ws=self._ws)

    def solve(self, puzzle: Puzzle) -> Solution:
        """Answer a validated puzzle's question."""
        start = time.perf_counter()
        p1, p2 = puzzle.peasants
        result = solve_spring(puzzle.landlord, (p1, p2), puzzle.rules, self._ws)
        return Solution(puzzle, result, time.perf_counter() - start)
