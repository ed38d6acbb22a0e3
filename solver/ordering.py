"""Move ordering for the forced-win search, the moves it can leave out, and the arena the
moves live in.

The arena holds the moves of every node on the path from the root, one column a move:
its cards (packed), its meta, and a word of flags or sort keys. A node's moves are a
contiguous segment; the columns above it are free scratch while the node is expanded.
"""

from __future__ import annotations

import numpy as np

from .cards import ACE, NUM_RANKS
from .jit import kernel
from .movegen import RANK_LOWS, doubles, ranks_held, ranks_thrice, ranks_twice, size_of
from .rules import (
    PAIR,
    PLANE_PAIRS,
    PLANE_SINGLES,
    QUAD_PAIRS,
    QUAD_SINGLES,
    SINGLE,
    TRIO,
    TRIO_PAIR,
    TRIO_SINGLE,
)
from .table import RANK_BITS13, chain_ranks, held_ranks, up_to_highest

# Rows of the arena.
A_CARDS, A_METAS, A_KEYS, A_ROWS = 0, 1, 2, 3
MAX_SIZE = 63
SORT_KEYS = 32 * (MAX_SIZE + 1)  # the counting sort's key range
SHORT_LIST = 16  # moves sorted by insertion rather than by counting
PLAIN_BITS = 11  # the bits of the plain sort key (SORT_KEYS = 2**11)
PLAIN_KEYS = 1 << PLAIN_BITS
REST_MAX = 15  # the plays the rest of a hand needs, as a sort key: at most this
#: An answer's plain key holds, above its control, safe and rank bits, the plays that
#: seeing chains through ranks held more than once saves its rest (at most CHAINED_MAX).
CHAINED_SHIFT = 6
CHAINED_MAX = 15
#: Bits of each move's sort key that carry who cannot answer it (one per player after
#: the mover: three at most).
CANNOT_BITS = 3
CANNOT_MASK = (1 << CANNOT_BITS) - 1


@kernel
def order_moves(
    base, n, hand, free, has_pass, pass_first, before_bombs, chain_ties, opponents, arena, by_key
):
    """Sort the moves in ``base .. base + n`` of the arena (a stable counting sort),
    keeping each move's bits of who cannot answer it (``opponents``: the bits of the
    mover's opponents).

    First by the plays the rest of the hand still needs, fewest first: the move that
    leaves the hand closest to going out (in answer :func:`plays_needed`, which sees
    chains through ranks held more than once; on a lead the plain :func:`hand_count`,
    which measured no worse there and costs less; with ``chain_ties`` (two players),
    among answers whose rests need as many, first those whose count owes least to the
    chains, that the plain count agrees with); bombs and the rocket, the control a hand
    keeps for last, come after every other play whatever their rest. Then, on a free
    lead, more cards first. Then plays an opponent can answer before those no opponent
    can (shed weak cards, keep control for later); then low ranks first. A pass (the
    last move, if ``has_pass``) goes first when the partner owns the table, else, if
    ``before_bombs``, before the bombs and the rocket (for the plain win, where they are
    control alone, not doublings the stake question wants), else stays last.

    Measured, depth first, on random positions of 24-32 cards: sorting answers by the
    rest as well as leads, and answering with low ranks first, needs 5.5x fewer nodes
    with two players and 3x fewer with three (high ranks first and the rest for leads
    alone, before). (On the published endgames and random deals: "plays no one can
    answer first" needs about twice the nodes, and answering with them first 4x; sorting
    leads by size before the rest, 1.5x to 4x.) Answers by :func:`plays_needed` rather
    than the hand count: 8% less time on positions of 38-54 cards, 68 M nodes instead of
    114 M on a 44-card one, and 27 k instead of 286 k on a two-player one of 30 cards;
    those whose count owes least to the chains first among equals, with two players:
    47,925 nodes instead of 76,191 on a position of 29 cards that took more time than
    the hand count alone, 27 k instead of 95 k on another (with three players it cost
    the six whole deals of the growth list it answers 3.1 M nodes instead of 2.4 M, and
    a seventh more than 200 M instead of 192 M). Bombs and the rocket after every other
    play, rather than by their rest like the others, and for the plain win after the
    pass as well: a third fewer nodes on the seven 50-card positions of the growth list
    that are answered, 13% on its 38-card ones and a quarter on its 32-card ones, the
    same on random positions of 24-32 cards, and 10% fewer on the stake list (with the
    pass before the bombs under a stake goal too, twice as many).
    """
    cards, metas, keys = arena[A_CARDS], arena[A_METAS], arena[A_KEYS]
    plays = n - 1 if has_pass else n
    for i in range(base, base + plays):
        rank = (metas[i] >> 4) & 15
        control = doubles(metas[i])
        size = MAX_SIZE - min(size_of(cards[i]), MAX_SIZE) if free else (1 if control else 0)
        safe = keys[i] & opponents == opponents  # no opponent can answer it
        key = (size * 2 + safe) * 16 + rank
        if control:  # after every other play, whatever the rest
            rest = REST_MAX
        else:
            left = hand - cards[i]
            plain = hand_count(left)
            rest = plain if free else with_chains(left, plain)
            if chain_ties and not free:  # what seeing the chains saved
                key |= min(plain - rest, CHAINED_MAX) << CHAINED_SHIFT
        key |= min(rest, REST_MAX) << PLAIN_BITS
        keys[i] = key << CANNOT_BITS | keys[i]  # the cannot-answer bits ride along
    if plays <= SHORT_LIST:
        _insertion_sort(base, plays, cards, metas, keys)
    else:
        out = base + n  # scratch above the segment
        # typed, not bare literals: _counting_pass compiles once (tests/test_numba.py)
        zero, plain, rest, rest_max = (
            np.int64(0),
            np.int64(PLAIN_KEYS - 1),
            np.int64(PLAIN_BITS),
            np.int64(REST_MAX),
        )
        _counting_pass(base, plays, out, zero, plain, cards, metas, keys, by_key)
        # a second stable pass: by the plays the rest still needs
        _counting_pass(base, plays, out, rest, rest_max, cards, metas, keys, by_key)
        for i in range(base, base + plays):
            keys[i] &= CANNOT_MASK
    if has_pass:  # the pass, last: to the front, or before the bombs and the rocket
        to = base + plays
        if pass_first:
            to = base
        elif before_bombs:
            while to > base and doubles(metas[to - 1]):
                to -= 1
        _move_forward(base + plays, to, cards, metas, keys)


@kernel
def _counting_pass(base, plays, out, shift, mask, cards, metas, keys, by_key):
    """One stable counting sort of ``plays`` moves by the key above the cannot-answer
    bits, ``(keys >> CANNOT_BITS >> shift) & mask``,
    through the arena above the segment (``out``)."""
    lo = mask
    hi = 0
    for i in range(base, base + plays):
        k = (keys[i] >> CANNOT_BITS >> shift) & mask
        lo = min(lo, k)
        hi = max(hi, k)
    by_key[lo : hi + 2] = 0
    for i in range(base, base + plays):
        by_key[((keys[i] >> CANNOT_BITS >> shift) & mask) + 1] += 1
    for k in range(lo + 1, hi + 2):
        by_key[k] += by_key[k - 1]
    for i in range(base, base + plays):
        k = (keys[i] >> CANNOT_BITS >> shift) & mask
        at = out + by_key[k]
        by_key[k] += 1
        cards[at] = cards[i]
        metas[at] = metas[i]
        keys[at] = keys[i]
    for i in range(plays):
        cards[base + i] = cards[out + i]
        metas[base + i] = metas[out + i]
        keys[base + i] = keys[out + i]


#: One bit a rank, at the low bit of its four (the packing of :mod:`solver.cards`), for
#: the ranks that chains can use (3 to ace); RANK_LOWS has one for every rank.
CHAIN_BITS = sum(1 << (4 * r) for r in range(ACE + 1))
JOKERS = 4 * (NUM_RANKS - 2)  # the black joker's four bits, the red one's next


@kernel
def plays_needed(h):
    """The plays a hand needs to go out, estimated: the better of its :func:`hand_count`
    and, where it holds runs of five or more ranks held once, twice or three times, a
    chain of singles along each run plus the hand count of the rest (3 44 5 66 7 is
    three plays, 34567 4 6, where the hand count sees five)."""
    return with_chains(h, hand_count(h))


@kernel
def with_chains(h, plain):
    """:func:`plays_needed` of ``h``, given its hand count ``plain`` (the move ordering
    has it already)."""
    many = (h >> 2 | h >> 3) & RANK_LOWS  # the ranks held four times or more
    held = ranks_held(h) & ~many & CHAIN_BITS
    runs = held & held >> 4 & held >> 8 & held >> 12 & held >> 16  # where a run of 5 starts
    if runs == 0:
        return plain
    chains = _starts(runs)
    runs |= runs << 4 | runs << 8 | runs << 12 | runs << 16
    return min(plain, chains + hand_count(h - runs))


@kernel
def hand_count(h):
    """A quick count of the plays a hand needs to go out: chains of five or more singles,
    three or more pairs, two or more trios count one play;
    each trio carries one loose single or pair; bombs and the rocket count one.

    Worked on all ranks at once, a bit a rank (it sorts every move of every node)."""
    # the ranks of which the hand holds exactly 1, 2, 3 and 4 cards
    ones, twos = _zero_ranks(h ^ RANK_LOWS), _zero_ranks(h ^ 2 * RANK_LOWS)
    threes, fours = _zero_ranks(h ^ 3 * RANK_LOWS), _zero_ranks(h ^ 4 * RANK_LOWS)
    singles, pairs, trios = ones & CHAIN_BITS, twos & CHAIN_BITS, threes & CHAIN_BITS
    in_chains = singles & singles >> 4 & singles >> 8 & singles >> 12 & singles >> 16
    single_chains = _starts(in_chains)
    in_chains |= in_chains << 4 | in_chains << 8 | in_chains << 12 | in_chains << 16
    loose = _count(singles & ~in_chains) + _count(ones & ~CHAIN_BITS)
    in_pairs = pairs & pairs >> 4 & pairs >> 8
    pair_chains = _starts(in_pairs)
    in_pairs |= in_pairs << 4 | in_pairs << 8
    loose += _count(pairs & ~in_pairs) + _count(twos & ~CHAIN_BITS)
    in_planes = trios & trios >> 4
    planes = _starts(in_planes)
    in_planes |= in_planes << 4
    plays = single_chains + pair_chains + planes + _count(trios & ~in_planes)
    plays += _count(threes & ~CHAIN_BITS) + _count(fours)
    if (h >> JOKERS) & 15 and (h >> (JOKERS + 4)) & 15:
        loose -= 1  # the two jokers go together
    return plays + max(loose - _count(threes), 0)


@kernel
def _zero_ranks(x):
    """The ranks whose four bits in ``x`` are all zero, a bit a rank."""
    x |= x >> 1
    x |= x >> 2
    return ~x & RANK_LOWS


@kernel
def _starts(bits):
    """How many runs of consecutive ranks ``bits`` (a bit a rank) holds."""
    return _count(bits & ~(bits << 4))


@kernel
def _count(bits):
    """How many ranks ``bits`` (a bit a rank) holds: the multiplication sums every
    rank's bit into the top rank's four bits (at most 15: no carry)."""
    return (bits * RANK_LOWS >> (4 * (NUM_RANKS - 1))) & 15


@kernel
def _insertion_sort(base, n, cards, metas, keys):
    """The stable sort of :func:`order_moves` for a short list (most answers are a few plays):
    no counting pass over the key range. Leaves only the cannot-answer bits in ``keys``."""
    for i in range(base + 1, base + n):
        c, m, k = cards[i], metas[i], keys[i]
        j = i - 1
        while j >= base and keys[j] >> CANNOT_BITS > k >> CANNOT_BITS:
            cards[j + 1] = cards[j]
            metas[j + 1] = metas[j]
            keys[j + 1] = keys[j]
            j -= 1
        cards[j + 1] = c
        metas[j + 1] = m
        keys[j + 1] = k
    for i in range(base, base + n):
        keys[i] &= CANNOT_MASK


@kernel
def doublings_first(base, n, arena):
    """Move the bombs and the rocket among the moves in ``base .. base + n`` of the
    arena to the front, keeping their order and the others'."""
    cards, metas, keys = arena[A_CARDS], arena[A_METAS], arena[A_KEYS]
    front = base
    for i in range(base, base + n):
        if doubles(metas[i]):
            _move_forward(i, front, cards, metas, keys)
            front += 1


@kernel
def _move_forward(i, to, cards, metas, keys):
    """Move the move in column ``i`` to column ``to`` (not after it), the moves between
    one column on."""
    c, m, k = cards[i], metas[i], keys[i]
    for j in range(i, to, -1):
        cards[j] = cards[j - 1]
        metas[j] = metas[j - 1]
        keys[j] = keys[j - 1]
    cards[to], metas[to], keys[to] = c, m, k


#: The kinds with single kickers, those with pair kickers, and both (a bit a kind).
SINGLE_KICKED = (1 << TRIO_SINGLE) | (1 << PLANE_SINGLES) | (1 << QUAD_SINGLES)
PAIR_KICKED = (1 << TRIO_PAIR) | (1 << PLANE_PAIRS) | (1 << QUAD_PAIRS)
KICKED = SINGLE_KICKED | PAIR_KICKED
#: The kinds a play of a lower main rank can replace: one rank, beaten by rank alone.
MAIN_SWAPPED = (1 << SINGLE) | (1 << PAIR) | (1 << TRIO) | (1 << TRIO_SINGLE) | (1 << TRIO_PAIR)
#: The kinds of which :func:`drop_dominated` may leave a play out.
DOMINATED = KICKED | MAIN_SWAPPED


@kernel
def drop_dominated(hand, partners, opponents, table, base, n, cards, metas):
    """Leave out of the moves in ``base .. base + n`` (keeping their order) every play
    that a play with a lower kicker, or a lower main rank, would replace to the mover's
    gain; return how many moves are left. ``partners``: the ranks the mover's partners
    hold (a bit a rank, as :func:`solver.table.held_ranks`; 0 for a mover who plays
    alone); ``opponents``: the ranks where some opponent of his holds a card, two
    cards, three (:func:`widths_held`, joined over them); ``table``: the meta of the
    play to beat (0: a free lead), whose rank a lower main rank must still beat.

    A rank is *free* for a width when the hand holds exactly that many cards of it (one
    card for a single, two for a pair, three for a trio), it is no joker, and no chain
    the hand could ever form uses it. Of two plays that differ only in a free kicker,
    lower ``a`` in one and higher ``b`` in the other, the first is at least as good when
    no partner holds a rank above ``a`` up to ``b``: after it the mover holds ``b``
    where the other leaves him ``a``, and whatever he would later do with ``a`` (no
    chain uses it) he can do with ``b``, which beats all that ``a`` beats; his
    opponents' answers are only fewer, and his partners' the same.
    The same holds of a single, pair or trio (with its kickers) of free rank ``b``
    against the same play of free rank ``a``, when no partner holds a rank above ``a``
    up to ``b``, nor any opponent as many cards of such a rank as the play has of its
    main rank: everyone answers the two alike (an opponent with fewer cards there
    answers neither with them), and in the cards the mover keeps, ``b`` for ``a``,
    his opponents only meet higher ranks. So a play is left out when such a swap
    exists: a chain of swaps, each lowering a rank, ends at a play that is kept.
    """
    zone = chain_ranks(hand)
    # the ranks of which the hand holds exactly one card, two and three
    singles = _zero_ranks(hand ^ RANK_LOWS) & ~zone & RANK_BITS13  # (no joker)
    pairs = _zero_ranks(hand ^ 2 * RANK_LOWS) & ~zone & RANK_BITS13
    trios = _zero_ranks(hand ^ 3 * RANK_LOWS) & ~zone & RANK_BITS13
    # the ranks a main rank must be above: those up to the table play's
    beaten = up_to_highest(1 << (4 * ((table >> 4) & 15))) if table else 0
    # the ranks that part two main ranks of a single, of a pair, of a trio
    one, two, three = partners | opponents[0], partners | opponents[1], partners | opponents[2]
    out = base
    for i in range(base, base + n):
        meta = metas[i]
        kind = meta & 15
        top = (meta >> 4) & 15
        if MAIN_SWAPPED >> kind & 1:
            width = 1 if kind == SINGLE else (2 if kind == PAIR else 3)
            free = singles if width == 1 else (pairs if width == 2 else trios)
            apart = one if width == 1 else (two if width == 2 else three)
            spare = free & ~held_ranks(cards[i]) & ~beaten
            if _swappable(free & (1 << (4 * top)), spare, apart):
                continue
        if KICKED >> kind & 1:
            links = meta >> 8 if kind == PLANE_SINGLES or kind == PLANE_PAIRS else 1
            main = 0  # the main part's ranks, all four bits of each
            for r in range(top - links + 1, top + 1):
                main |= 15 << (4 * r)
            free = (singles if SINGLE_KICKED >> kind & 1 else pairs) & ~main
            chosen = held_ranks(cards[i] & ~main) & free
            if _swappable(chosen, free & ~chosen, partners):
                continue
        cards[out] = cards[i]
        metas[out] = meta
        out += 1
    return out - base


@kernel
def widths_held(h):
    """The ranks 3..2 of which ``h`` holds a card, two cards, three or more (a bit a rank,
    as :func:`solver.table.held_ranks`): where it can answer a single, a pair or a trio
    (with or without kickers) of a lower rank with one of that rank."""
    one = held_ranks(h)
    return one, ranks_twice(h) & one, ranks_thrice(h) & one


@kernel
def _swappable(chosen, spare, blocking):
    """Whether some rank of ``spare`` lies below some rank of ``chosen`` with no rank of
    ``blocking`` above it up to that one (all a bit a rank)."""
    while chosen:
        b = chosen & -chosen  # the lowest chosen rank left
        chosen ^= b
        below = b - 1  # the ranks under b
        # from the highest blocking rank up to b (if any) on, under b
        window = below & ~(up_to_highest(blocking & (below | b)) >> 4)
        if spare & window:
            return True
    return False


# The memo of winning moves: for a hand in a situation (see remember_winner), the move
# that last won for it; a row a slot, these columns.
WINNER_HAND, WINNER_SITUATION, WINNER_CARDS, WINNER_META, WINNER_COLUMNS = range(5)
#: Slots of the memo. The proof-number search of a whole deal opens some hundred thousand
#: positions, yet 65,536 slots find no more winners than 4,096: what pays is the move
#: that won for a hand moments ago, in a sibling position.
WINNER_SLOTS = 4096
#: A bit of the situation word that sends a winner to a second set of slots: the
#: depth-first search's, whose many small positions would otherwise push the
#: proof-number search's winners out. The memo has ``2 * WINNER_SLOTS`` rows.
DEPTH_FIRST_SHIFT = 40
DEPTH_FIRST = 1 << DEPTH_FIRST_SHIFT


@kernel
def _winner_slot(hand, situation):
    mixed = (hand ^ (situation * 0x9E3779B1)) * 0x2545F4914F6CDD1D
    half = (situation >> DEPTH_FIRST_SHIFT) & 1
    return (mixed >> 40) & (WINNER_SLOTS - 1) | half * WINNER_SLOTS


@kernel
def remember_winner(winners, hand, situation, cards, meta):
    """Remember that the move ``cards``/``meta`` won for ``hand`` in ``situation`` (a word
    of the table play, its owner and the mover): the same hand meets the same play again
    and again while the other hands change, and the move that won once usually wins
    again (a "killer move")."""
    slot = winners[_winner_slot(hand, situation)]
    slot[WINNER_HAND], slot[WINNER_SITUATION] = hand, situation
    slot[WINNER_CARDS], slot[WINNER_META] = cards, meta


@kernel
def winner_first(winners, hand, situation, base, n, arena):
    """Move the remembered winning move of ``hand`` in ``situation``, if it is among the
    moves in ``base .. base + n`` of the arena, to the front."""
    slot = winners[_winner_slot(hand, situation)]
    if slot[WINNER_HAND] != hand or slot[WINNER_SITUATION] != situation:
        return
    cards, metas, keys = arena[A_CARDS], arena[A_METAS], arena[A_KEYS]
    for i in range(base, base + n):
        if cards[i] == slot[WINNER_CARDS] and metas[i] == slot[WINNER_META]:
            _move_forward(i, base, cards, metas, keys)
            return
