"""The spring solver: can the landlord play out every card without a peasant playing?

Every play but the last must be unbeatable by each peasant, and peasants never play, so
their hands never change. The question is therefore a partition problem: split the
landlord's hand into plays that no peasant can beat, plus at most one last play that
may be beatable.

The kernel first asks which shapes the peasants can beat at all (one table of best
ranks for all their hands: :func:`solver.movegen.best_ranks`), generates every play of the
landlord's hand and marks the unbeatable ones, then searches depth first, with an
explicit stack, covering the lowest remaining rank at each step: it goes either into an
unbeatable play or into the one last play, which may be beatable. First, the cards of
the ranks that no unbeatable play holds must all fit in one play, the last (a cheap
test that ends most failing springs at once). The plays are grouped
by lowest rank, longest first; states that failed are remembered in a small
direct-mapped table, stamped per set of plays so that it is never cleared. The
forced-win search marks a hand's plays once (:func:`spring_plays`) and searches
several hands within it over them (:func:`spring_from`): the hand, and what is left of
it after the plays it would lead first. The same search, with singles alone beatable
(those under a rank), tells whether a hand must play such a single before its last
play (:func:`plays_with_one_single`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .cards import NUM_RANKS, Hand, check_disjoint, check_hand, format_hand, unpack
from .errors import RuleError
from .jit import kernel
from .movegen import (
    ALL_KINDS,
    BOMB_LENGTHS,
    MAX_MOVES,
    NONE,
    OVERFLOW,
    TABLE_SIZE,
    Move,
    as_play,
    best_ranks,
    classify,
    gen_moves,
    ranks_held,
    size_of,
)
from .rules import BOMB, CLASSIC, ROCKET, SINGLE, RuleSet

MEMO_SIZE = 1 << 12
MAX_LINE = 64  # a line has at most one play per card; a play has at most 64 cards
NIBBLE_TOPS = 0x888888888888888  # the top bit of each of the 15 four-bit rank fields

LAST_TAKEN = 1 << 60  # in a search state: the one beatable play has been used

# The workspace is one 2-D int64 array (a row each, reused from deal to deal and never
# cleared: a stamp per set of plays tells the memo's entries apart), so that it travels
# to a kernel as one object. These name its rows.
W_STATE, W_THR, W_MINR, W_ZERO, W_CARDS, W_META, W_SAFE, W_RISKY = range(8)
W_SAFE_AT, W_RISKY_AT, W_KEY, W_STAMP, W_STACK_H, W_STACK_I, W_STACK_PLAY, W_LINE = range(8, 16)
W_KEYS, W_ORDER, W_TALLY = 16, 17, 18
W_SINGLES_BEATABLE = 19  # a spring table under which singles alone (under a rank) are beatable
W_ROWS = 20
# Columns of the row W_STATE: the memo's stamp (a new one for each set of plays
# searched), and what spring_plays found of the plays: how many are unbeatable, the
# ranks those hold, whether they are grouped for the search yet.
S_STAMP, S_SAFE_PLAYS, S_COVERED, S_GROUPED = range(4)


def workspace() -> np.ndarray:
    """Fresh buffers for :func:`spring_kernel`."""
    return np.zeros((W_ROWS, MAX_MOVES), np.int64)


@kernel
def _contains(hand, play):
    """Whether packed ``play`` is a sub-multiset of packed ``hand`` (no nibble borrows)."""
    diff = hand - play
    return (((~hand & play) | (~(hand ^ play) & diff)) & NIBBLE_TOPS) == 0


@kernel
def _slot(state, size):
    """A memo slot for a state. Products stay below 2**63, so that the pure-Python run
    (NUMBA_DISABLE_JIT=1) computes the same slots as the compiled one."""
    folded = (state ^ (state >> 31)) & 0xFFFFFFFF
    return ((folded * 0x5BD1E995) >> 16) & (size - 1)


@kernel
def lowest_rank(packed):
    """The lowest rank a packed hand holds (of a hand of one card, its rank)."""
    r = 0
    while (packed >> (4 * r)) & 15 == 0:
        r += 1
    return r


@kernel
def _bucket(n, plays, at, safe, keys, order, tally, out_safe, safe_at, out_risky, risky_at):
    """Split the ``n`` packed plays from ``plays[at]`` on by ``safe[i]``, and group each
    part by lowest rank (``safe_at[r] .. safe_at[r + 1]``, the same for the risky ones),
    largest first inside a group: long plays finish a search sooner and make shorter
    lines. Two counting sorts; ``keys``, ``order`` and ``tally`` are scratch (no
    allocation: this runs at every free lead of the forced-win search)."""
    by_size = tally[: MAX_LINE + 2]
    by_group = tally[MAX_LINE + 2 : MAX_LINE + 2 + 2 * 16 + 1]  # (risky?, lowest rank)
    by_size[:] = 0
    by_group[:] = 0
    for i in range(n):
        group = (0 if safe[i] else 16) + lowest_rank(plays[at + i])
        smaller = MAX_LINE - size_of(plays[at + i])
        keys[i] = group << 8 | smaller
        by_size[smaller + 1] += 1
        by_group[group + 1] += 1
    for k in range(1, MAX_LINE + 2):
        by_size[k] += by_size[k - 1]
    for k in range(1, 2 * 16 + 1):
        by_group[k] += by_group[k - 1]
    for i in range(n):
        k = keys[i] & 255
        order[by_size[k]] = i
        by_size[k] += 1
    n_safe = by_group[16]
    for r in range(NUM_RANKS + 1):
        safe_at[r] = by_group[r]
        risky_at[r] = by_group[16 + r] - n_safe
    for j in range(n):
        i = order[j]
        group = keys[i] >> 8
        slot = by_group[group]
        by_group[group] += 1
        if group < 16:
            out_safe[slot] = plays[at + i]
        else:
            out_risky[slot - n_safe] = plays[at + i]


@kernel
def unbeatable(meta, minr):
    """Whether no opponent can beat the play ``meta``, by their spring table ``minr``."""
    return (meta >> 4) & 15 >= minr[(meta & 15) * 16 + (meta >> 8)]


@kernel
def safe_minimum(thr, minr):
    """Fill ``minr`` with the lowest unbeatable rank of every shape, from ``thr``, the best
    ranks the opponents hold; False when nothing at all is unbeatable (a rocket)."""
    # a play is unbeatable when no opponent holds a higher one of its shape: rank >= best
    if thr[ROCKET * 16 + 1] >= 0:  # a rocket beats everything
        minr[:TABLE_SIZE] = NONE
        return False
    if thr[BOMB * 16 + 1] >= 0:  # a bomb beats every non-bomb and every shorter bomb
        minr[:TABLE_SIZE] = NONE
        longest = BOMB_LENGTHS
        while thr[BOMB * 16 + longest] < 0:
            longest -= 1
        minr[BOMB * 16 + longest] = thr[BOMB * 16 + longest]
        for length in range(longest + 1, BOMB_LENGTHS + 1):
            minr[BOMB * 16 + length] = 0
        minr[ROCKET * 16 + 1] = 0
    else:
        for i in range(TABLE_SIZE):
            minr[i] = max(thr[i], 0)
    return True


@kernel
def spring_kernel(deal, rules, ws):
    """Solve one deal (rows: the landlord's hand, then each peasant's); write the witness
    (packed plays) to ``ws[W_LINE]``; return its length.

    A length of 0 means no spring; OVERFLOW, a landlord's hand with more plays than the
    generator writes (never a hand within the deck: the whole double deck has 7,964).
    """
    land = deal[0]
    line = ws[W_LINE]
    packed = np.int64(0)  # not a bare 0, which would compile the callees once more
    for r in range(NUM_RANKS):
        packed |= land[r] << (4 * r)
    if classify(land, rules):
        line[0] = packed
        return 1
    if not unbeatable_table(deal, rules, ws):
        return 0
    cards, meta = ws[W_CARDS], ws[W_META]
    zero = np.int64(0)
    n = gen_moves(land, rules, ws[W_ZERO], np.int64(ALL_KINDS), cards, meta, zero)
    if n == OVERFLOW:
        return OVERFLOW
    return spring_search(packed, n, cards, meta, zero, ws)


@kernel
def unbeatable_table(deal, rules, ws):
    """Set ``ws[W_MINR]`` to the lowest unbeatable rank of every shape against every
    peasant (the rows of ``deal`` after the first); False when nothing at all is
    unbeatable (a peasant holds the rocket)."""
    thr = ws[W_THR]
    thr[:TABLE_SIZE] = -1
    for p in range(1, deal.shape[0]):
        best_ranks(deal[p], rules, thr)
    return safe_minimum(thr, ws[W_MINR])


@kernel
def spring_search(packed, n, cards, metas, at, ws):
    """The spring search of the hand ``packed`` over its ``n`` plays (with their metas,
    from index ``at`` on), against ``minr``, the lowest unbeatable rank of every shape
    (see :func:`unbeatable_table`). Returns the witness length or 0."""
    spring_plays(n, metas, cards, at, ws)
    return spring_from(packed, n, cards, at, ws)


@kernel
def spring_plays(n, metas, cards, at, ws):
    """Mark which of ``n`` plays (from index ``at`` on) are unbeatable by the opponents
    whose spring table is ``ws[W_MINR]``, for :func:`spring_from` to search any hand
    within them: the hand they were generated for, or what is left of it after some
    plays."""
    _mark_plays(n, metas, cards, at, ws, ws[W_MINR])


@kernel
def plays_with_one_single(packed, n, cards, metas, at, ws, below):
    """Whether the hand ``packed`` can be played out with at most one single of a rank
    under ``below`` (NONE: any single), over its ``n`` plays (from index ``at`` on): the
    spring search, with every other play counted unbeatable. A hand that cannot must
    play such a single before its last play."""
    minr = ws[W_SINGLES_BEATABLE]
    minr[SINGLE * 16 + 1] = below
    _mark_plays(n, metas, cards, at, ws, minr)
    return spring_from(packed, n, cards, at, ws) > 0


@kernel
def _mark_plays(n, metas, cards, at, ws, minr):
    """Mark which of ``n`` plays (from index ``at`` on) are unbeatable by the spring
    table ``minr`` (see :func:`safe_minimum`), for :func:`spring_from`; their grouping
    for the search is made by the first search that needs it."""
    row, flags = ws[W_STATE], ws[W_META]
    n_safe = covered = 0
    for i in range(n):
        flags[i] = unbeatable(metas[at + i], minr)
        n_safe += flags[i]
        if flags[i]:
            covered |= ranks_held(cards[at + i])
    row[S_STAMP] += 1  # a new memo: its failures hold for these plays only
    row[S_SAFE_PLAYS], row[S_COVERED], row[S_GROUPED] = n_safe, covered, 0


@kernel
def spring_from(packed, n, cards, at, ws):
    """The spring search of ``packed`` over the ``n`` plays that :func:`spring_plays`
    marked last (any hand within the hand they were generated for): the witness length
    or 0.

    The search covers the lowest remaining rank first: it must go either into an
    unbeatable play or into the one last play, which may be beatable. A state is the
    cards left and whether the last play is taken; the states that failed are
    remembered for every search over the same plays.
    """
    row = ws[W_STATE]
    bare = packed & ~(row[S_COVERED] * 15)
    if row[S_SAFE_PLAYS] == 0 or not _last_can_hold(bare, n, cards, at):
        return 0
    stamp, size = row[S_STAMP], MEMO_SIZE
    memo_key, memo_stamp = ws[W_KEY], ws[W_STAMP]
    slot = _slot(packed, size)
    if memo_stamp[slot] == stamp and memo_key[slot] == packed:
        return 0  # it failed already
    line = ws[W_LINE]
    safe, risky = ws[W_SAFE], ws[W_RISKY]
    safe_at, risky_at = ws[W_SAFE_AT], ws[W_RISKY_AT]
    if not row[S_GROUPED]:
        keys, order, tally = ws[W_KEYS], ws[W_ORDER], ws[W_TALLY]
        _bucket(n, cards, at, ws[W_META], keys, order, tally, safe, safe_at, risky, risky_at)
        row[S_GROUPED] = 1
    stack_h, stack_i, stack_play = ws[W_STACK_H], ws[W_STACK_I], ws[W_STACK_PLAY]
    depth = np.int64(0)  # not a bare 0, which would compile the helpers once more for it
    stack_h[0] = packed
    stack_i[0] = 0
    while depth >= 0:
        state = stack_h[depth]
        hand = state & ~LAST_TAKEN
        r = lowest_rank(hand)
        i = stack_i[depth]
        n_safe = safe_at[r + 1] - safe_at[r]
        n_all = n_safe if state & LAST_TAKEN else n_safe + risky_at[r + 1] - risky_at[r]
        play = 0
        while i < n_all:
            play = safe[safe_at[r] + i] if i < n_safe else risky[risky_at[r] + i - n_safe]
            i += 1
            if _contains(hand, play):
                break
            play = 0
        if play == 0:  # nothing covers the lowest rank: remember the failure, go back
            slot = _slot(state, size)
            memo_key[slot] = state
            memo_stamp[slot] = stamp
            depth -= 1
            continue
        stack_i[depth] = i
        child = state - play
        if i > n_safe:
            child |= LAST_TAKEN
            play |= LAST_TAKEN
        stack_play[depth] = play
        if child & ~LAST_TAKEN == 0:
            return _write_line(depth, stack_play, line)
        slot = _slot(child, size)
        if memo_stamp[slot] == stamp and memo_key[slot] == child:
            continue
        depth += 1
        stack_h[depth] = child
        stack_i[depth] = 0
    return 0


@kernel
def _last_can_hold(bare, n, cards, at):
    """Whether one of the ``n`` plays holds all of ``bare``: the cards of the ranks that
    no unbeatable play holds, which can only go out in the one last play. Most failed
    springs fail here, before any sorting or search."""
    if bare == 0:
        return True
    for i in range(n):
        if _contains(cards[at + i], bare):
            return True
    return False


@kernel
def _write_line(depth, stack_play, line):
    """The plays on the stack, the unbeatable ones first and the last play last."""
    k = 0
    for d in range(depth + 1):
        if not stack_play[d] & LAST_TAKEN:
            line[k] = stack_play[d]
            k += 1
    for d in range(depth + 1):
        if stack_play[d] & LAST_TAKEN:
            line[k] = stack_play[d] & ~LAST_TAKEN
            k += 1
    return k


@kernel
def spring_batch(hands, rules, answers, ws):
    """Answer many deals (``hands[k]``: the landlord's hand, then each peasant's) into
    ``answers``."""
    for k in range(hands.shape[0]):
        answers[k] = spring_kernel(hands[k], rules, ws) > 0


@dataclass(frozen=True)
class SpringResult:
    """The answer to the spring question, with its proof: the plays in order."""

    answer: bool
    line: tuple[Move, ...]

    def line_text(self) -> list[str]:
        """The line in canonical notation, one string per play."""
        return [str(m) for m in self.line]


def solve_spring(
    landlord: Hand,
    peasants: tuple[Hand, ...],
    rules: RuleSet = CLASSIC,
    ws: np.ndarray | None = None,
) -> SpringResult:
    """Answer the spring question (the landlord against one peasant or more, up to the
    game's players); a yes carries its witness line.

    The last play of the line is the only one a peasant may be able to beat.
    """
    if not any(landlord):
        raise RuleError("the landlord's hand is empty: the hand is over")
    if not 1 <= len(peasants) < rules.players:
        raise RuleError(
            f"the {rules.name} game has 1 to {rules.players - 1} peasants, got {len(peasants)}"
        )
    for h in (landlord, *peasants):
        check_hand(h, rules.deck, format_hand(h))
    check_disjoint((landlord, *peasants), rules.deck)
    ws = ws if ws is not None else workspace()
    plays = spring_line(np.array((landlord, *peasants), np.int64), rules.array(), ws)
    return SpringResult(bool(plays), tuple(as_play(p, rules) for p in plays))


def spring_line(deal: np.ndarray, rules: np.ndarray, ws: np.ndarray) -> list[Hand]:
    """The witness line of a validated deal (int64 rows: the landlord, then each
    peasant), one rank-count vector per play; empty when there is no spring. ``rules``
    is :meth:`RuleSet.array`: the fast path for callers that solve many deals."""
    n = spring_kernel(deal, rules, ws)
    if n == OVERFLOW:
        raise RuleError(f"hand {format_hand(deal[0])!r} has more plays than the solver holds")
    return [unpack(int(p)) for p in ws[W_LINE, :n]]


def solve_many(hands: np.ndarray, rules: RuleSet = CLASSIC) -> np.ndarray:
    """Answer an array of validated deals, shape ``(T, players, 15)``: one boolean per
    deal."""
    answers = np.zeros(len(hands), np.bool_)
    spring_batch(np.ascontiguousarray(hands, np.int64), rules.array(), answers, workspace())
    return answers
