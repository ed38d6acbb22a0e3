"""Random deals, reproducible from a seed on every platform and Python version."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from .cards import CLASSIC_DECK, NUM_RANKS, Hand
from .contest import DEAL_SIZES

#: The classic deck, one entry (a rank) a card: what is shuffled.
DECK = [r for r, n in enumerate(CLASSIC_DECK) for _ in range(n)]


def cut(order: Sequence[int], sizes: Sequence[int]) -> list[Hand]:
    """Hands of the given sizes dealt from the top of a shuffled deck of ranks."""
    hands = []
    at = 0
    for size in sizes:
        counts = [0] * NUM_RANKS
        for r in order[at : at + size]:
            counts[r] += 1
        hands.append(tuple(counts))
        at += size
    return hands


def random_deals(seed: int, count: int, strength: float = 0.0) -> list[tuple[Hand, Hand, Hand]]:
    """``count`` deals: the landlord's 20 cards, then both peasants' 17.

    With ``strength`` 0 the deck is shuffled uniformly. A positive ``strength`` draws the
    landlord's cards one by one with weight ``exp(strength * rank)``, leaning his hand to
    high cards: about half of the deals at 0.3 are springs, against 3% of uniform ones.
    ``random.Random`` is used because its stream for a given seed is stable across Python
    versions, so a seed names the same deals everywhere.
    """
    rng = random.Random(seed)
    deck = list(DECK)
    weights = [round(1e6 * math.exp(strength * r)) for r in range(NUM_RANKS)]
    deals = []
    for _ in range(count):
        rng.shuffle(deck)
        if strength:
            pool = list(deck)
            landlord = []
            for _ in range(DEAL_SIZES[0]):
                i = rng.choices(range(len(pool)), weights=[weights[r] for r in pool])[0]
                landlord.append(pool.pop(i))
            order = landlord + pool
        else:
            order = deck
        landlord_hand, p1, p2 = cut(order, DEAL_SIZES)
        deals.append((landlord_hand, p1, p2))
    return deals
