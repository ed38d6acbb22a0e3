"""Cards and notation: rank indices, parsing and canonical printing of hands.

Suits never matter, so a hand is a rank-count vector of 15 entries, lowest rank first::

    index   0 1 2 3 4 5 6 7 8 9 10 11 12 13 14
    letter  3 4 5 6 7 8 9 T J Q K  A  2  B  R

``T`` is the ten (``10`` is accepted on input), ``B`` the black and ``R`` the red joker.
Input may be in either case and may separate cards with spaces, commas or dashes; output
is always canonical: letters sorted low to high with nothing between them.

For the kernels a hand is also *packed* into one integer, four bits per rank
(rank ``r`` in bits ``4r .. 4r+3``), so that removing a play is a subtraction.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .errors import CardError, quoted

LETTERS = "3456789TJQKA2BR"
NUM_RANKS = 15
TEN, BLACK_JOKER, RED_JOKER = 7, 13, 14
ACE = 11  # the highest chain rank: 2s and jokers never join a chain

#: One classic 54-card deck: four of each rank 3..2 and one of each joker.
CLASSIC_DECK: tuple[int, ...] = (4,) * 13 + (1, 1)
#: Two decks, for the four-player game: eight of each rank 3..2 and two of each joker.
DOUBLE_DECK: tuple[int, ...] = (8,) * 13 + (2, 2)

Hand = tuple[int, ...]

_SEPARATORS = " \t,-"
_RANK_OF = {c: i for i, c in enumerate(LETTERS)} | {c.lower(): i for i, c in enumerate(LETTERS)}


def parse_hand(text: str) -> Hand:
    """Read a hand in the notation; raise :class:`CardError` quoting an unknown card."""
    counts = [0] * NUM_RANKS
    i = 0
    while i < len(text):
        c = text[i]
        if c in _SEPARATORS:
            i += 1
            continue
        if text.startswith("10", i):
            counts[TEN] += 1
            i += 2
            continue
        rank = _RANK_OF.get(c)
        if rank is None:
            raise CardError(
                f"unknown card {quoted(c)} in {quoted(text)}: expected cards from {LETTERS} (or 10)"
            )
        counts[rank] += 1
        i += 1
    return tuple(counts)


def format_hand(counts: Sequence[int]) -> str:
    """Print a rank-count vector in canonical notation."""
    return "".join(LETTERS[r] * n for r, n in enumerate(counts))


def check_hand(counts: Sequence[int], deck: Sequence[int], text: str) -> None:
    """Reject a hand holding more of a rank than the deck has (``text`` is quoted)."""
    for r, n in enumerate(counts):
        if n > deck[r]:
            what = "joker" if r >= BLACK_JOKER else "rank"
            raise CardError(
                f"hand {text!r} holds {n} x {LETTERS[r]}: "
                f"the deck has only {deck[r]} of that {what}"
            )


def check_disjoint(hands: Iterable[Sequence[int]], deck: Sequence[int]) -> None:
    """Reject hands that together hold more of a rank than one deck has."""
    total = [0] * NUM_RANKS
    for h in hands:
        for r, n in enumerate(h):
            total[r] += n
    for r, n in enumerate(total):
        if n > deck[r]:
            raise CardError(
                f"the hands together hold {n} x {LETTERS[r]}: the deck has only {deck[r]}"
            )


def pack(counts: Sequence[int]) -> int:
    """Pack a rank-count vector into one integer, four bits per rank."""
    packed = 0
    for r, n in enumerate(counts):
        packed |= n << (4 * r)
    return packed


def unpack(packed: int) -> Hand:
    """Inverse of :func:`pack`."""
    return tuple((int(packed) >> (4 * r)) & 15 for r in range(NUM_RANKS))
