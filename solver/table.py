"""The transposition tables of the forced-win search, and the keys they file positions
under.

A table is a fixed array of buckets of :data:`BUCKET` entries. An entry of the value
table is four int64 words: the key's three hand words and its info word, laid out as
below; a table for four hands has a fifth word, the fourth hand's. The proof table
(the proof-number search's, :data:`PROOF_WORDS`) has both, and a sixth word: a
position's proof and disproof numbers, while it is still open (:func:`probe_numbers`).
A key is the whole position (the packed hands, mover, owner, table play) in a canonical
form that positions of the same value share (:func:`table_key`), so a hit is never a
collision. Entries carry the number of their question, so that a new question starts
from an empty table without wiping it; in a full bucket the entry that cost the fewest
nodes to find is replaced. A question's keys use the table's first rows, a power of two
of them, and a search that outgrows them doubles them (:func:`grow`): a small search
keeps to a few rows, which the caches serve better.
"""

from __future__ import annotations

import mmap
from collections import namedtuple

import numpy as np

from .goal import GOAL_BITS
from .jit import kernel, prefetch
from .movegen import ranks_held, ranks_thrice
from .position import UNKNOWN

# The words of an entry.
E_HAND0, E_HAND1, E_HAND2, E_INFO, E_HAND3, E_NUMBERS = range(6)
ENTRY_WORDS = 4  # the words of an entry for up to three hands
WIDE_ENTRY_WORDS = 5  # for four
PROOF_WORDS = 6  # an entry of the proof table
#: The numbers word of a proof-table entry: the proof number in the low half, the
#: disproof number in the high half, each below 2**31.
NUMBER_BITS = 32
NUMBER_MASK = (1 << (NUMBER_BITS - 1)) - 1
BUCKET = 4
# The info word: the key's info (mover, table owner, table play; then which of its
# places lie in chain runs, see table_key; then the goal, see solver.goal), then the
# value, the question's number and the entry's weight (the bit length of the nodes it
# cost).
TABLE_PLAY_BITS = 0xFFF << 4
ZONE_SHIFT = 16
GOAL_SHIFT = ZONE_SHIFT + 12
INFO_BITS = GOAL_SHIFT + GOAL_BITS
VALUE_SHIFT = INFO_BITS
GENERATION_SHIFT = VALUE_SHIFT + 1
GENERATION_BITS = 16  # (8 wiped a 64 MB table every 255 questions: 20 us a question)
WEIGHT_SHIFT = GENERATION_SHIFT + GENERATION_BITS  # six bits: below the sign bit
INFO_MASK = (1 << INFO_BITS) - 1
GENERATION_MASK = (1 << GENERATION_BITS) - 1
#: questions a table serves before it is wiped (generation 0 marks an empty entry)
GENERATIONS = GENERATION_MASK

#: A position's key: its hand words and info word, and the first entry of its bucket
#: (``hand3`` is 0 for fewer than four hands).
Key = namedtuple("Key", "hand0 hand1 hand2 info bucket hand3")

RANK_BITS = 0x111111111111  # the lowest bit of each rank field 3..A (the ranks of chains)
CHAIN_RANKS = (1 << 48) - 1  # the fields of ranks 3..A
TWO = 12  # the rank of the 2s
ALL_RANKS = (1 << 52) - 1  # the fields of ranks 3..2
RANK_BITS13 = 0x1111111111111  # the lowest bit of each rank field 3..2
NO_PLACE = 15  # the table play's place when no answerer holds a rank up to its own


def table_entries(memory_mb: float, words: int = ENTRY_WORDS) -> int:
    """The largest power-of-two number of entries of ``words`` words within
    ``memory_mb`` (at least one bucket)."""
    entries = BUCKET
    while entries * 2 * 8 * words <= memory_mb * 2**20:
        entries *= 2
    return entries


HUGE_PAGE = 2 << 20  # bytes


def _zeroed(size: int) -> np.ndarray:
    """``size`` bytes of zeros, untouched, in 2 MB pages where the system gives them
    (Linux's transparent huge pages): a table's lookups land anywhere in it, and with
    pages of 4 KB almost every one also misses the processor's page cache. On the
    hardest 44-card position of the growth list, 7-13% less time."""
    if not hasattr(mmap, "MADV_HUGEPAGE"):
        return np.zeros(size, np.uint8)
    try:
        memory = mmap.mmap(-1, size + HUGE_PAGE, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    except OSError as e:
        raise MemoryError(f"cannot map {size} bytes: {e.strerror or e}") from None
    try:
        memory.madvise(mmap.MADV_HUGEPAGE)
    except OSError:  # (a kernel without them: pages of 4 KB, as np.zeros gives)
        pass
    raw = np.frombuffer(memory, np.uint8)
    start = -raw.ctypes.data % HUGE_PAGE
    return raw[start : start + size]


def new_table(memory_mb: float, words: int = ENTRY_WORDS, touched: int | None = None) -> np.ndarray:
    """The largest table of entries of ``words`` words within ``memory_mb``, its first
    ``touched`` entries (all by default) written now so that no question pays for their
    first touch; the rest take memory only once a search grows into them."""
    entries = table_entries(memory_mb, words)
    table = _zeroed(entries * words * 8).view(np.int64).reshape(entries, words)
    table[:touched] = 0
    return table


@kernel
def fold(x):
    """30 bits of a packed hand, mixed; products of two stay below 2**61."""
    return (x ^ (x >> 30)) & 0x3FFFFFFF


@kernel
def _bucket_of(h0, h1, h2, h3, info, entries):
    """The first entry of a key's bucket, anywhere in the table. (Measured: keeping the
    positions of at most 16 cards in a quarter of the table, for the caches, saved 10%
    on small searches, but the big ones then crowd that quarter: 15% more nodes on
    positions of 38-44 cards.)"""
    mixed = (
        fold(h0) * 0x2545F491 + fold(h1) * 0x3C6EF372 + fold(h2) * 0x1B873593 + info * 0x27D4EB2F
    )
    if h3:
        mixed += fold(h3) * 0x165667B1
    return ((mixed >> 13) & (entries - 1)) & ~(BUCKET - 1)


@kernel
def table_key(h0, h1, h2, h3, info, entries):
    """The :class:`Key` of a position (``info``: mover | owner << 2 | table play << 4 |
    goal << GOAL_SHIFT).

    What decides a position's value is the counts of each rank in each hand, the order
    of the ranks, and, only where some player could ever form a chain (hands only
    shrink: within his runs of five or more singles, three or more pairs, two or more
    trios), which ranks are next to each other. So the ranks nobody holds are dropped,
    but for an empty rank just above such a run, which keeps it from running on into
    the next rank 3..A held; the 2s come right after the highest rank kept and the
    jokers keep their own fields. The table play's rank becomes a place among those
    kept (:func:`_table_place`), and one player's counts in a run of ranks he alone
    holds are sorted (:func:`_sort_lone_runs`). The info word carries which of the
    places kept are in chain runs. Positions with the same key have plays that
    correspond one to one and beat each other alike, so the same value. (Measured on
    random positions of 16-44 cards: half the nodes of a key that only squeezes out the
    ranks nobody holds.)
    """
    zone = chain_ranks(h0) | chain_ranks(h1) | chain_ranks(h2)
    if h3:  # a fourth hand (its work apart: the classic game never pays for it)
        zone |= chain_ranks(h3)
    table = (info & TABLE_PLAY_BITS) >> 4
    t = (table >> 4) & 15 if table else 15
    held = (h0 | h1 | h2 | h3) & ALL_RANKS
    points = held_ranks(held)
    below_top = up_to_highest(points & RANK_BITS)  # the fields up to the highest chain rank held
    points |= (zone << 4) & below_top  # the rank above a run, if a chain rank held is above
    low = points & RANK_BITS
    kept = _gather(low)
    x0, x1, x2, z = h0 & CHAIN_RANKS, h1 & CHAIN_RANKS, h2 & CHAIN_RANKS, zone
    for step in range(4):
        fields = SQUEEZE[kept, step]
        shift = 4 << step
        t0, t1, t2, tz = x0 & fields, x1 & fields, x2 & fields, z & fields
        x0 = (x0 ^ t0) | (t0 >> shift)
        x1 = (x1 ^ t1) | (t1 >> shift)
        x2 = (x2 ^ t2) | (t2 >> shift)
        z = (z ^ tz) | (tz >> shift)
    at = 4 * (((low * RANK_BITS) >> 44) & 15)  # where the 2s go: after the ranks kept
    if points >> (4 * TWO):
        x0 |= ((h0 >> (4 * TWO)) & 15) << at
        x1 |= ((h1 >> (4 * TWO)) & 15) << at
        x2 |= ((h2 >> (4 * TWO)) & 15) << at
    place = NO_PLACE
    if t <= TWO:
        place = _table_place(h0, h1, h2, h3, info, t, points)
        info = (info & ~TABLE_PLAY_BITS) | ((table & ~0xF0) | place << 4) << 4
    if not h3:
        x0, x1, x2 = _sort_lone_runs(x0, x1, x2, z, place)
    k0 = x0 | (h0 >> 52) << 52
    k1 = x1 | (h1 >> 52) << 52
    k2 = x2 | (h2 >> 52) << 52
    k3 = h3
    if h3:
        x3 = h3 & CHAIN_RANKS
        for step in range(4):
            t3 = x3 & SQUEEZE[kept, step]
            x3 = (x3 ^ t3) | (t3 >> (4 << step))
        if points >> (4 * TWO):
            x3 |= ((h3 >> (4 * TWO)) & 15) << at
        k3 = x3 | (h3 >> 52) << 52
    k = info | _gather(z) << ZONE_SHIFT
    bucket = _bucket_of(k0, k1, k2, k3, k, entries)
    return Key(k0, k1, k2, k, bucket, k3)


@kernel
def _table_place(h0, h1, h2, h3, info, t, points):
    """Where the table play's rank ``t`` (3..2) goes among the places kept (``points``).

    Only the answerers' ranks above it matter (an answer beats it by rank, and the
    owner never answers his own play), so the rank is taken down to the highest rank
    at or below it an answerer holds: that rank's place. When they hold none, every
    answer of the shape beats it: :data:`NO_PLACE`."""
    owner = (info >> 2) & 3
    answerers = (
        (h0 if owner != 0 else 0)
        | (h1 if owner != 1 else 0)
        | (h2 if owner != 2 else 0)
        | (h3 if owner != 3 else 0)
    )
    ranks = held_ranks(answerers) & ((2 << (4 * t)) - 1)  # the answerers' ranks up to t
    if ranks == 0:
        return NO_PLACE
    below = up_to_highest(ranks)  # the highest of them and every rank below
    return (((points & below) * RANK_BITS13 >> (4 * TWO)) & 15) - 1


@kernel
def _sort_lone_runs(x0, x1, x2, zone, split):
    """The squeezed hands with the counts sorted within each run of places that one hand
    alone holds, outside the chain runs (``zone``) and not across the table play's
    place (``split``: a run ends there).

    Nobody else holds a rank of such a run or one between its ranks, so its ranks
    compare alike with every other player's and no chain joins them: swapping two of
    them in that hand gives a position nobody can tell from it, of the same value."""
    n0, n1, n2 = held_ranks(x0), held_ranks(x1), held_ranks(x2)
    lone0 = n0 & ~(n1 | n2) & ~zone
    lone1 = n1 & ~(n0 | n2) & ~zone
    lone2 = n2 & ~(n0 | n1) & ~zone
    # the places of a run whose next place is in the run too (none goes on from split)
    go_on = ~(1 << (4 * split)) if split < NO_PLACE else -1
    return (
        _sort_runs(x0, lone0 & (lone0 >> 4) & go_on),
        _sort_runs(x1, lone1 & (lone1 >> 4) & go_on),
        _sort_runs(x2, lone2 & (lone2 >> 4) & go_on),
    )


@kernel
def held_ranks(h):
    """The ranks 3..2 a packed hand holds (or the places a squeezed one does), one bit a
    rank at the low bit of its field."""
    return ranks_held(h) & RANK_BITS13


@kernel
def up_to_highest(bits):
    """Every field at or below the highest one of ``bits`` (one bit a field, at its low
    bit) that is set."""
    bits |= bits >> 4
    bits |= bits >> 8
    bits |= bits >> 16
    return bits | bits >> 32


@kernel
def _sort_runs(x, links):
    """``x`` with the counts of each run of places sorted, low first (``links``: a bit at
    each place whose next place is in its run): swaps of neighbours out of order."""
    changed = links != 0
    while changed:
        changed = False
        rest = links
        while rest:
            bit = rest & -rest
            rest ^= bit
            lo, hi = x & (bit * 15), x & (bit * 240)
            if lo > hi >> 4:
                x += (hi >> 4) - lo + (lo << 4) - hi
                changed = True
    return x


@kernel
def single_runs(h):
    """Where the hand's runs of five ranks 3..A start (one bit a field): the chains of
    singles it could form."""
    m1 = ranks_held(h) & RANK_BITS
    return m1 & (m1 >> 4) & (m1 >> 8) & (m1 >> 12) & (m1 >> 16)


@kernel
def chain_ranks(h):
    """The ranks 3..A (one bit a field) of every chain the hand could ever form: its
    runs of five or more singles, three or more pairs, two or more trios."""
    m2 = ((h >> 1) | (h >> 2) | (h >> 3)) & RANK_BITS  # counts 2..8
    m3 = ranks_thrice(h) & RANK_BITS
    w1 = single_runs(h)
    w2 = m2 & (m2 >> 4) & (m2 >> 8)
    w3 = m3 & (m3 >> 4)
    return w1 | w1 << 4 | w1 << 8 | w1 << 12 | w1 << 16 | w2 | w2 << 4 | w2 << 8 | w3 | w3 << 4


@kernel
def _gather(bits):
    """The lowest bits of the twelve fields 3..A as one 12-bit number."""
    x = (bits | (bits >> 3)) & 0x030303030303
    x = (x | (x >> 6)) & 0x000F000F000F
    x = (x | (x >> 12)) & 0x000000FF000000FF
    return (x | (x >> 24)) & 0xFFF


def _squeeze_masks() -> np.ndarray:
    """For each set of rank fields to keep (12 bits, one per rank 3..A), the masks of the
    fields that move down by 1, 2, 4 and 8 places when the kept fields are packed
    together: a "compress" of Hacker's Delight (7-4), done once here for every set."""
    out = np.zeros((1 << 12, 4), np.int64)
    for kept in range(1 << 12):
        mask = sum(1 << (4 * r) for r in range(12) if kept >> r & 1)
        zeros_right = (~mask << 4) & RANK_BITS
        for step in range(4):
            parity = zeros_right ^ (zeros_right << 4)
            parity ^= parity << 8
            parity ^= parity << 16
            parity ^= parity << 32
            parity &= RANK_BITS
            move = parity & mask
            mask = (mask ^ move) | (move >> (4 << step))
            out[kept, step] = move * 15
            zeros_right &= ~parity
    return out


SQUEEZE = _squeeze_masks()


@kernel
def fetch_ahead(key, tt):
    """Start bringing a key's bucket into the caches (its first, middle and last rows:
    every cache line it may span), for a lookup a little later. Work done meanwhile,
    such as the next keys, overlaps the wait for memory."""
    bucket = key.bucket & (tt.shape[0] - 1)  # (the proof table may be the smaller)
    prefetch(tt, bucket)
    prefetch(tt, bucket + BUCKET // 2)
    prefetch(tt, bucket + BUCKET - 1)


@kernel
def probe(key, tt, generation):
    """The value stored for a key in this question, or UNKNOWN."""
    wanted = generation << GENERATION_SHIFT | key.info
    mask = INFO_MASK | GENERATION_MASK << GENERATION_SHIFT
    for slot in range(key.bucket, key.bucket + BUCKET):
        e = tt[slot, E_INFO]
        if e & mask == wanted and tt[slot, E_HAND0] == key.hand0:
            if tt[slot, E_HAND1] == key.hand1 and tt[slot, E_HAND2] == key.hand2:
                if tt.shape[1] == ENTRY_WORDS or tt[slot, E_HAND3] == key.hand3:
                    return (e >> VALUE_SHIFT) & 1
    return UNKNOWN


@kernel
def store(key, value, work, tt, generation):
    """Remember a value that cost ``work`` nodes, replacing an entry of an earlier
    question or else the one that cost the fewest nodes (its weight: the bit length of
    its work)."""
    weight = _bit_length(work)
    victim = _victim(key.bucket, tt, generation)
    tt[victim, E_HAND0], tt[victim, E_HAND1], tt[victim, E_HAND2] = key.hand0, key.hand1, key.hand2
    if tt.shape[1] > ENTRY_WORDS:
        tt[victim, E_HAND3] = key.hand3
    tt[victim, E_INFO] = (
        key.info | value << VALUE_SHIFT | generation << GENERATION_SHIFT | weight << WEIGHT_SHIFT
    )


@kernel
def _bit_length(work):
    """An entry's weight: the bit length of the nodes it cost."""
    weight = 0
    while work:
        work >>= 1
        weight += 1
    return weight


@kernel
def _victim(bucket, tt, generation):
    """The entry of a bucket to replace: one of an earlier question, else the one that
    cost the fewest nodes."""
    victim = bucket
    for slot in range(bucket, bucket + BUCKET):
        if (tt[slot, E_INFO] >> GENERATION_SHIFT) & GENERATION_MASK != generation:
            return slot
        if tt[slot, E_INFO] >> WEIGHT_SHIFT < tt[victim, E_INFO] >> WEIGHT_SHIFT:
            victim = slot
    return victim


@kernel
def grow(tt, entries, generation):
    """Double the entries a question's keys file positions in, from the first
    ``entries``: each of its entries moves to its bucket among twice as many, which is
    its own or the one ``entries`` rows above (a key's bucket is its hash's low bits).
    Those rows above hold no entry of this question (they were not in use), so nothing
    found is lost."""
    for slot in range(entries):
        e = tt[slot, E_INFO]
        if (e >> GENERATION_SHIFT) & GENERATION_MASK != generation:
            continue
        h3 = tt[slot, E_HAND3] if tt.shape[1] > ENTRY_WORDS else 0
        h0, h1, h2 = tt[slot, E_HAND0], tt[slot, E_HAND1], tt[slot, E_HAND2]
        bucket = _bucket_of(h0, h1, h2, h3, e & INFO_MASK, 2 * entries)
        if bucket >= entries:
            to = _victim(bucket, tt, generation)
            for word in range(tt.shape[1]):
                tt[to, word] = tt[slot, word]
            tt[slot, E_INFO] = 0


def wipe(tt: np.ndarray) -> None:
    """Mark every entry empty (when the questions' numbers run out)."""
    tt[:, E_INFO] = 0


@kernel
def _find(key, tt, generation):
    """The slot holding ``key`` in a table with a fourth hand's word, or -1."""
    wanted = generation << GENERATION_SHIFT | key.info
    mask = INFO_MASK | GENERATION_MASK << GENERATION_SHIFT
    bucket = key.bucket & (tt.shape[0] - 1)  # (the proof table may be the smaller)
    for slot in range(bucket, bucket + BUCKET):
        if tt[slot, E_INFO] & mask == wanted and tt[slot, E_HAND0] == key.hand0:
            if tt[slot, E_HAND1] == key.hand1 and tt[slot, E_HAND2] == key.hand2:
                if tt[slot, E_HAND3] == key.hand3:
                    return slot
    return -1


@kernel
def probe_numbers(key, pt, generation):
    """The numbers word stored for an open position in this question, or 0 (none)."""
    slot = _find(key, pt, generation)
    return pt[slot, E_NUMBERS] if slot >= 0 else 0


@kernel
def store_numbers(key, numbers, work, pt, generation):
    """Remember an open position's numbers word. Its weight is the bit length of the
    most nodes one visit of it has cost (an open position is visited again and again,
    each time with more room)."""
    weight = _bit_length(work)
    victim = _find(key, pt, generation)
    if victim >= 0:
        weight = max(weight, pt[victim, E_INFO] >> WEIGHT_SHIFT)
    else:
        victim = _victim(key.bucket & (pt.shape[0] - 1), pt, generation)
    pt[victim, E_HAND0], pt[victim, E_HAND1], pt[victim, E_HAND2] = key.hand0, key.hand1, key.hand2
    pt[victim, E_HAND3] = key.hand3
    pt[victim, E_INFO] = key.info | generation << GENERATION_SHIFT | weight << WEIGHT_SHIFT
    pt[victim, E_NUMBERS] = numbers
