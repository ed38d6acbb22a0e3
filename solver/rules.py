"""The rules of classic three-player Dou Dizhu, as the solver implements them.

Chain ranks are 3..A (indices 0..11): a 2 or a joker is never part of a chain.

====  ==============  ===========================================  ========================
kind  name            shape                                        notes
====  ==============  ===========================================  ========================
1     single          1 card                                       jokers included
2     pair            2 of a rank                                  the two jokers are no pair
3     trio            3 of a rank
4     trio+single     trio + 1 card of another rank                kicker may be a 2 or joker
5     trio+pair       trio + a pair of another rank
6     chain           5..12 consecutive singles                    chain ranks only
7     pair-chain      3+ consecutive pairs                         chain ranks only
8     plane           2+ consecutive trios                         chain ranks only
9     plane+singles   n consecutive trios + n singles              kickers of distinct ranks,
                                                                   none a trio rank of the
                                                                   chain, never both jokers
10    plane+pairs     n consecutive trios + n pairs                pairs of distinct ranks,
                                                                   none a trio rank
11    bomb            4 of a rank                                  beats every non-bomb
12    rocket          both jokers                                  beats everything
13    quad+singles    4 of a rank + 2 singles of different ranks   never both jokers
14    quad+pairs      4 of a rank + 2 pairs of different ranks
====  ==============  ===========================================  ========================

Kickers are always of other ranks than the main part; single and pair kickers never mix.
A play is compared by its *main rank* (the trio or quad rank, or the top rank of a chain)
and, for chains, its *length* (number of links). A play beats the table when it is the
same kind and length with a higher main rank; or it is a bomb over a non-bomb or a lower
bomb; or it is the rocket. A quad + two is not a bomb: any bomb beats it.

A play's kind, main rank and length travel through the kernels as one integer, the
*meta*: ``kind | rank << 4 | length << 8``.

This module is plain Python (no kernels), so the command line can read it instantly.
The rule set is an object passed down to every kernel (as a small integer array), so
that variants, such as puzzles that ban some combinations, need no new kernels.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

from .cards import CLASSIC_DECK
from .errors import RuleError

PASS = 0
SINGLE, PAIR, TRIO, TRIO_SINGLE, TRIO_PAIR = 1, 2, 3, 4, 5
CHAIN, PAIR_CHAIN, PLANE, PLANE_SINGLES, PLANE_PAIRS = 6, 7, 8, 9, 10
BOMB, ROCKET, QUAD_SINGLES, QUAD_PAIRS = 11, 12, 13, 14
NUM_KINDS = 15  # kinds are 1..14; 0 is a pass

#: Kind names by number (0 is a pass): the names puzzle files, --ban and --json use.
KIND_NAMES = tuple(
    "pass single pair trio trio+single trio+pair chain pair-chain plane plane+singles "
    "plane+pairs bomb rocket quad+singles quad+pairs".split()
)
KIND_OF_NAME = {name: k for k, name in enumerate(KIND_NAMES) if k}

#: Kinds a puzzle may ban (the ones published puzzles ban).
BANNABLE = (
    "trio+single",
    "trio+pair",
    "quad+singles",
    "quad+pairs",
    "plane+singles",
    "plane+pairs",
)

#: The questions a puzzle can ask: a spring, a forced win, the stake with best play.
QUESTIONS = ("spring", "win", "stake")

#: Layout of the rule array the kernels read (the deck is checked before, in Python).
R_BANS, R_SIZE = 0, 1


@dataclass(frozen=True)
class RuleSet:
    """A rule set: the deck the hands come from and the combination kinds banned."""

    deck: tuple[int, ...] = CLASSIC_DECK
    bans: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        """Refuse what the kernels cannot serve, rather than search it wrongly: they know
        one 54-card deck (four of each rank 3..2, one of each joker)."""
        if tuple(self.deck) != CLASSIC_DECK:
            raise RuleError(f"deck {self.deck!r}: the solver plays the classic 54-card deck only")
        for b in self.bans:
            if b not in BANNABLE:
                raise RuleError(f"cannot ban {b!r}: expected one of {', '.join(BANNABLE)}")

    def with_bans(self, bans: Iterable[str]) -> RuleSet:
        """This rule set with some combination kinds made illegal."""
        bans = list(bans)
        for b in bans:
            if not isinstance(b, str):
                raise RuleError(f"cannot ban {b!r}: expected one of {', '.join(BANNABLE)}")
        return RuleSet(self.deck, self.bans | frozenset(bans))

    def array(self) -> np.ndarray:
        """The rule set as the kernels read it."""
        import numpy as np  # here, so that reading the rules needs no numpy

        arr = np.zeros(R_SIZE, dtype=np.int64)
        arr[R_BANS] = sum(1 << KIND_OF_NAME[b] for b in self.bans)
        return arr


CLASSIC = RuleSet()
