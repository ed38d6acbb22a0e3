"""The goal of a yes/no search: what the landlord's side must achieve at a node.

The stake question (:mod:`solver.stake`) is answered by yes/no searches, "is the hand
worth at least ``t`` to the landlord?", over the forced-win search. A threshold is
counted in *scores*: ``k + 1`` for a landlord win with ``k`` doublings, ``-(k + 1)`` for
a loss with ``k``, so that a higher score is a better hand for him. Inside the search
the goal is kept relative to the doublings still to come, as one small integer that
goes into the node's table key:

- ``PLAIN`` (0): the landlord's side must win, however. Every goal whose doublings are
  already settled becomes this one, so it shares its table entries with the forced-win
  question;
- ``NEED`` k: the landlord must win with at least k more doublings; the flag says
  whether a spring (one doubling more) is still possible;
- ``ALLOW`` a: the landlord must win, or lose with at most a more doublings; the flag
  counts his plays so far (0, 1, 2 for more), since an anti-spring needs exactly one.

A goal is settled without search when the doublings the hands can still make (a bomb
per rank of which one hand holds four, the rocket when one hand holds both jokers) cannot
reach what it needs, or cannot exceed what it allows. Where a spring is one of the
doublings the landlord still needs, the spring search decides it on his free leads.
"""

from __future__ import annotations

from .jit import kernel
from .movegen import doubles
from .position import LOSS, UNKNOWN, WIN
from .scoring import History

PLAIN = 0
COUNT_BITS = 5
COUNT_MASK = (1 << COUNT_BITS) - 1
MODE_SHIFT = COUNT_BITS
NEED, ALLOW = 1, 2
FLAG_SHIFT = MODE_SHIFT + 2
#: bits of a goal word (see table.GOAL_SHIFT)
GOAL_BITS = FLAG_SHIFT + 2
FOURS = 0x4444444444444  # bit 2 of the fields 3..2: four of a rank (a count of 4)
JOKERS = 0x11 << 52  # both jokers' fields


def goal_for(threshold: int, history: History) -> int:
    """The goal word of "the hand is worth a score of at least ``threshold``" (not 0) to
    the landlord, from a position with ``history``."""
    if threshold > 0:
        need = threshold - 1 - history.bombs
        if need <= 0:
            return PLAIN
        spring = not history.peasants_played
        return min(need, COUNT_MASK) | NEED << MODE_SHIFT | spring << FLAG_SHIFT
    allow = -threshold - 1 - history.bombs
    if allow < 0:
        return PLAIN
    plays = min(history.landlord_plays, 2)
    return min(allow, COUNT_MASK) | ALLOW << MODE_SHIFT | plays << FLAG_SHIFT


@kernel
def goal_after(goal, mover, meta):
    """The goal after ``mover`` makes the play ``meta`` (0: a pass)."""
    if goal == PLAIN or meta == 0:
        return goal
    count = goal & COUNT_MASK
    mode = (goal >> MODE_SHIFT) & 3
    flag = goal >> FLAG_SHIFT
    if doubles(meta):
        count -= 1
    if mode == NEED:
        if count <= 0:
            return PLAIN
        if mover != 0:
            flag = 0  # no spring any more
    else:
        if count < 0:
            return PLAIN
        if mover == 0 and flag < 2:
            flag += 1
    return count | mode << MODE_SHIFT | flag << FLAG_SHIFT


@kernel
def out_value(goal, mover, meta):
    """WIN when ``mover`` going out with the play ``meta`` meets the goal, else LOSS."""
    if goal == PLAIN:
        return WIN if mover == 0 else LOSS
    count = goal & COUNT_MASK
    flag = goal >> FLAG_SHIFT
    more = 1 if doubles(meta) else 0
    if (goal >> MODE_SHIFT) & 3 == NEED:
        return WIN if mover == 0 and more + flag >= count else LOSS
    if mover == 0:
        return WIN
    return WIN if more + (1 if flag == 1 else 0) <= count else LOSS


@kernel
def doublings_left(h0, h1, h2):
    """The most doublings the hands can still play: a bomb for every rank of which a
    hand holds four, and the rocket when a hand holds both jokers."""
    most = 0
    for h in (h0, h1, h2):
        fours = h & FOURS
        while fours:
            fours &= fours - 1
            most += 1
        if h & JOKERS == JOKERS:
            most += 1
    return most


@kernel
def settled(goal, h0, h1, h2):
    """WIN or LOSS when the doublings the hands can still make settle the goal whoever
    wins, else UNKNOWN."""
    if goal == PLAIN:
        return UNKNOWN
    most = doublings_left(h0, h1, h2)
    count = goal & COUNT_MASK
    flag = goal >> FLAG_SHIFT
    if (goal >> MODE_SHIFT) & 3 == NEED:
        return LOSS if count > most + flag else UNKNOWN
    return WIN if count >= most + (1 if flag <= 1 else 0) else UNKNOWN


@kernel
def wins_enough(goal, mover):
    """Whether the mover's side winning, in any way, meets his side's goal."""
    if goal == PLAIN:
        return True
    return ((goal >> MODE_SHIFT) & 3 == NEED) == (mover != 0)


@kernel
def needs_win(goal, mover):
    """Whether the mover's side can meet its goal only by winning."""
    if goal == PLAIN:
        return True
    return ((goal >> MODE_SHIFT) & 3 == NEED) == (mover == 0)


@kernel
def spring_doubles(goal, mover):
    """Whether the mover is the landlord needing more doublings, a spring still one."""
    if goal == PLAIN or mover != 0:
        return False
    return (goal >> MODE_SHIFT) & 3 == NEED and goal >> FLAG_SHIFT == 1


@kernel
def spring_decides(goal, clean, h0, h1, h2):
    """For :func:`spring_doubles` goals on the landlord's free lead, given whether he can
    spring from here (``clean``): WIN when one doubling is all he needs and he can;
    LOSS when he cannot and the bombs left cannot make up what he needs; else UNKNOWN."""
    count = goal & COUNT_MASK
    if clean and count <= 1:
        return WIN
    if not clean and count > doublings_left(h0, h1, h2):
        return LOSS
    return UNKNOWN


@kernel
def bombs_first(goal, mover):
    """Whether the mover's side wants two doublings or more (the landlord needing them,
    or the peasants to exceed what he allows): then its bombs and rocket are tried
    first. Measured on the bomb-laden full deals of puzzles/02-edge-cases.toml: E12
    177 M nodes down to 3.6 k, E14 34 M to 5.0 M. With one doubling to get, a bomb is
    better kept as a control card: bombs first cost up to 2x there."""
    if goal == PLAIN:
        return False
    count = goal & COUNT_MASK
    if (goal >> MODE_SHIFT) & 3 == NEED:
        return mover == 0 and count >= 2
    return mover != 0 and count >= 1
