"""Random deals, reproducible from a seed on every platform and Python version."""

from __future__ import annotations

import random

from .cards import CLASSIC_DECK, Hand
from .contest import DEAL_SIZES


def random_deals(seed: int, count: int) -> list[tuple[Hand, Hand, Hand]]:
    """``count`` shuffled deals: the landlord's 20 cards, then both peasants' 17.

    ``random.Random`` is used because its shuffle for a given seed has not changed across
    Python versions, so a seed names the same deals everywhere.
    """
    rng = random.Random(seed)
    deck = [r for r, n in enumerate(CLASSIC_DECK) for _ in range(n)]
    deals = []
    for _ in range(count):
        rng.shuffle(deck)
        hands = []
        at = 0
        for size in DEAL_SIZES:
            counts = [0] * len(CLASSIC_DECK)
            for r in deck[at : at + size]:
                counts[r] += 1
            hands.append(tuple(counts))
            at += size
        deals.append((hands[0], hands[1], hands[2]))
    return deals
