"""Move ordering: the hand count it sorts by, against a rank-by-rank count."""

import random

from solver.cards import ACE, NUM_RANKS, pack
from solver.ordering import _plays_needed


def runs(counts: list[int], c: int) -> list[int]:
    """The lengths of the runs of chainable ranks (3 to ace) holding exactly ``c``."""
    out, length = [], 0
    for r in range(ACE + 2):
        if r <= ACE and counts[r] == c:
            length += 1
        elif length:
            out.append(length)
            length = 0
    return out


def hand_count(counts: list[int]) -> int:
    """The count as its rules say, rank by rank: a chain of five or more singles, three
    or more pairs or two or more trios is one play, shorter runs a play a rank; a trio
    carries one loose single or pair; a bomb is one play; the two jokers go together."""
    high = counts[ACE + 1 :]  # the 2s and the jokers: never in a chain
    plays = sum(1 if n >= 5 else 0 for n in runs(counts, 1))
    loose = sum(n for n in runs(counts, 1) if n < 5) + high.count(1)
    plays += sum(1 for n in runs(counts, 2) if n >= 3)
    loose += sum(n for n in runs(counts, 2) if n < 3) + high.count(2)
    plays += sum(1 if n >= 2 else n for n in runs(counts, 3)) + high.count(3)
    plays += counts.count(4)
    trios = counts.count(3)
    if counts[NUM_RANKS - 2] and counts[NUM_RANKS - 1]:
        loose -= 1
    return plays + max(loose - trios, 0)


def test_the_hand_count_is_the_rank_by_rank_count():
    """On hands of one deck and of two (up to eight of a rank, two of a joker)."""
    rng = random.Random(5)
    for _ in range(20_000):
        most = rng.choice([4, 8])
        counts = [rng.randint(0, most) for _ in range(NUM_RANKS - 2)]
        counts += [rng.randint(0, most // 4) for _ in range(2)]
        assert _plays_needed(pack(counts)) == hand_count(counts), counts
    for counts, plays in (
        ([1] * 12 + [0, 1, 1], 2),  # 3 to ace, and the rocket
        ([3, 3, 1, 1] + [0] * 11, 1),  # a plane carrying two singles
        ([2, 2, 2, 4, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0], 3),  # pairs chain, bomb, a 2
    ):
        assert hand_count(counts) == plays == _plays_needed(pack(counts)), counts
