"""The rules of Dou Dizhu as the solver implements them: the classic three-player game
and the four-player double-deck game, each a :class:`RuleSet`.

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
and its *length*: the number of links of a chain, the number of cards beyond three of a
bomb (1 for four cards), and 1 otherwise. A play beats the table when it is the same kind
and length with a higher main rank; or it is a bomb over a non-bomb, a shorter bomb or a
lower one of its length; or it is the rocket. A quad + two is not a bomb: any bomb beats
it.

**The four-player game** (:data:`FOUR_PLAYER`) deals two decks (eight of each rank 3..2,
two of each joker) 25 to each of four players and 8 to the landlord, who plays 33 cards
against three peasants in partnership. Its differences:

* a bomb is 4 to 8 cards of one rank; more cards beat fewer whatever the ranks, and
  bombs of one size compare by rank;
* the rocket is all four jokers (BBRR), and no other play holds all four;
* BB and RR are pairs, ranked above 22 (BB below RR): as plays, and as the pair of a
  trio + pair or plane + pairs (a plane's pairs never both BB and RR);
* there is no trio + single, plane + singles or quad + two.

Where the rules are silent, the solver reads: a bomb of five or more cards is one play
(never split into a bomb and a kicker); kicker pairs are of distinct ranks, so four of a
rank are never two of a plane's pairs; a trio's pair is never of the trio's rank (so
``33333`` is a bomb, not a trio + pair); only bombs of six cards or more and the rocket
double the stake; springs and anti-springs double it as in the classic game.

A play's kind, main rank and length travel through the kernels as one integer, the
*meta*: ``kind | rank << 4 | length << 8``.

This module is plain Python (no kernels), so the command line can read it instantly.
The rule set is an object passed down to every kernel (as a small integer array, see
:meth:`RuleSet.array`), so that variants need no new kernels.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

from .cards import CLASSIC_DECK, DOUBLE_DECK
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

#: Layout of the rule array the kernels read: the kinds not played (bans and kinds the
#: game lacks, one bit per kind), the largest bomb, and the jokers of each colour that
#: make the rocket.
R_BANS, R_BOMB_MAX, R_ROCKET, R_SIZE = 0, 1, 2, 3

#: The kinds the four-player game does not have.
NOT_IN_FOUR_PLAYER = frozenset({"trio+single", "plane+singles", "quad+singles", "quad+pairs"})


#: The games the kernels serve, as the fields of a rule set without its bans: name,
#: players, deck, deal, kitty, absent kinds, bomb sizes, rocket, stake bomb.
_GAMES = {
    "classic": ("classic", 3, CLASSIC_DECK, (17, 17, 17), 3, frozenset(), (4, 4), 1, 4),
    "four-player": (
        *("four-player", 4, DOUBLE_DECK, (25, 25, 25, 25), 8),
        *(NOT_IN_FOUR_PLAYER, (4, 8), 2, 6),
    ),
}


@dataclass(frozen=True)
class RuleSet:
    """A rule set: the players, the deck and the deal, the kinds, bombs and rocket, and
    the kinds banned. The kernels serve two games, :data:`CLASSIC` and
    :data:`FOUR_PLAYER` (with any bans); any other combination is refused when made."""

    name: str = "classic"
    players: int = 3
    deck: tuple[int, ...] = CLASSIC_DECK
    deal: tuple[int, ...] = (17, 17, 17)  # each seat's cards before the kitty
    kitty: int = 3
    absent: frozenset[str] = frozenset()  # kinds the game does not have
    bomb_sizes: tuple[int, int] = (4, 4)  # the smallest and the largest bomb
    rocket: int = 1  # jokers of each colour in the rocket
    stake_bomb: int = 4  # the smallest bomb that doubles the stake
    bans: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        """Refuse what the kernels cannot serve, rather than search it wrongly."""
        shape = (self.name, self.players, tuple(self.deck), tuple(self.deal), self.kitty)
        shape += (frozenset(self.absent), tuple(self.bomb_sizes), self.rocket, self.stake_bomb)
        if _GAMES.get(self.name) != shape:
            raise RuleError(
                f"rule set {self.name!r} with deck {self.deck!r}: the solver plays the "
                f"games {', '.join(RULE_NAMES)} only"
            )
        for b in self.bans:
            if b not in BANNABLE:
                raise RuleError(f"cannot ban {b!r}: expected one of {', '.join(BANNABLE)}")

    def with_bans(self, bans: Iterable[str]) -> RuleSet:
        """This rule set with some combination kinds made illegal."""
        bans = list(bans)
        for b in bans:
            if not isinstance(b, str):
                raise RuleError(f"cannot ban {b!r}: expected one of {', '.join(BANNABLE)}")
        return replace(self, bans=self.bans | frozenset(bans))

    @property
    def landlord_cards(self) -> int:
        """The landlord's cards at the start: his deal and the kitty."""
        return self.deal[0] + self.kitty

    def array(self) -> np.ndarray:
        """The rule set as the kernels read it."""
        import numpy as np  # here, so that reading the rules needs no numpy

        arr = np.zeros(R_SIZE, dtype=np.int64)
        arr[R_BANS] = sum(1 << KIND_OF_NAME[b] for b in self.bans | self.absent)
        arr[R_BOMB_MAX] = self.bomb_sizes[1]
        arr[R_ROCKET] = self.rocket
        return arr


CLASSIC = RuleSet()
FOUR_PLAYER = RuleSet(*_GAMES["four-player"])

#: The named rule sets, by the names ``--rules`` and puzzle files use.
RULE_SETS = {r.name: r for r in (CLASSIC, FOUR_PLAYER)}
RULE_NAMES = tuple(RULE_SETS)


def rule_set(name: str) -> RuleSet:
    """The rule set of a name; :class:`RuleError` naming the choices for another."""
    if not isinstance(name, str) or name not in RULE_SETS:
        raise RuleError(f"unknown rules {name!r}: expected one of {', '.join(RULE_NAMES)}")
    return RULE_SETS[name]


def check_question(question: str, rules: RuleSet) -> None:
    """Refuse a question the rule set's kernels do not answer: the stake question is the
    classic game's (the four-player game's stake rules are not searched)."""
    if question == "stake" and rules.name != CLASSIC.name:
        raise RuleError(f"the stake question is asked of the classic game only, not {rules.name}")
