"""The transposition table of the forced-win search, and the keys it files positions under.

The table is a fixed array of buckets of :data:`BUCKET` entries. An entry is four int64
words: the key's three hand words and its info word, laid out as below. A key is the
whole position (three packed hands, mover, owner, table play) in a canonical form that
positions of the same value share (:func:`table_key`), so a hit is never a collision.
Entries carry the number of their question, so that a new question starts from an
empty table without wiping it; in a full bucket the entry that cost the fewest nodes
to find is replaced.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from .cards import ACE
from .jit import kernel
from .movegen import size_of
from .position import UNKNOWN

# The words of an entry.
E_HAND0, E_HAND1, E_HAND2, E_INFO = range(4)
ENTRY_WORDS = 4
ENTRY_BYTES = 8 * ENTRY_WORDS
BUCKET = 4
# The info word: the key's info (mover, table owner, table play), then the value, the
# question's number and the entry's weight (the bit length of the nodes it cost).
INFO_BITS = 16
VALUE_SHIFT = INFO_BITS
GENERATION_SHIFT = VALUE_SHIFT + 1
GENERATION_BITS = 8
WEIGHT_SHIFT = GENERATION_SHIFT + GENERATION_BITS
INFO_MASK = (1 << INFO_BITS) - 1
GENERATION_MASK = (1 << GENERATION_BITS) - 1
#: questions a table serves before it is wiped (generation 0 marks an empty entry)
GENERATIONS = GENERATION_MASK
FEW_CARDS = 16  # keys of positions this small go to the table's first quarter

#: A position's key: its three hand words and info word, and the first entry of its bucket.
Key = namedtuple("Key", "hand0 hand1 hand2 info bucket")

RANK_BITS = 0x111111111111  # the lowest bit of each rank field 3..A (the ranks of chains)
CHAIN_RANKS = (1 << 48) - 1  # the fields of ranks 3..A
ORDER_MARK = 1  # field 0 of an order key's first hand word, which no squeezed key sets
#: REPEAT[n]: n fields of 1 (times a count: n fields of that count)
REPEAT = np.array([(16**n - 1) // 15 for n in range(16)], np.int64)


def new_table(memory_mb: float) -> np.ndarray:
    """The largest table of a power-of-two number of entries within ``memory_mb`` (at
    least one bucket), written now so that no question pays for the first touch."""
    entries = BUCKET
    while entries * 2 * ENTRY_BYTES <= memory_mb * 2**20:
        entries *= 2
    return np.zeros((entries, ENTRY_WORDS), np.int64)


@kernel
def fold(x):
    """30 bits of a packed hand, mixed; products of two stay below 2**61."""
    return (x ^ (x >> 30)) & 0x3FFFFFFF


@kernel
def _bucket_of(h0, h1, h2, info, cards, entries):
    """The first entry of a key's bucket.

    Positions of at most :data:`FEW_CARDS` cards, the bulk of every search and cheap to
    find again, live in the table's first quarter: a region small enough to stay in the
    processor's caches, where the many lookups near the leaves are quick. The rest
    spread over the whole table. (Measured: about 10% faster than one region.)
    """
    mixed = (
        fold(h0) * 0x2545F491 + fold(h1) * 0x3C6EF372 + fold(h2) * 0x1B873593 + info * 0x27D4EB2F
    )
    if cards <= FEW_CARDS:
        entries >>= 2
    return ((mixed >> 13) & (entries - 1)) & ~(BUCKET - 1)


@kernel
def table_key(h0, h1, h2, info, entries):
    """The :class:`Key` of a position (``info``: mover | owner << 2 | table play << 4).

    When nobody can form a chain, only the order of the ranks matters
    (:func:`_order_key`); otherwise the ranks nobody holds are squeezed out
    (:func:`_squeeze_key`)."""
    if _chain_free(h0) and _chain_free(h1) and _chain_free(h2):
        k0, k1, k2, k = _order_key(h0, h1, h2, info)
    else:
        k0, k1, k2, k = _squeeze_key(h0, h1, h2, info)
    return Key(k0, k1, k2, k, _bucket_of(k0, k1, k2, k, size_of(h0 + h1 + h2), entries))


@kernel
def _chain_free(h):
    """Whether the hand can form no chain of any kind: no five consecutive ranks 3..A
    held, no three consecutive pairs, no two consecutive trios. Hands only shrink, so a
    chain-free hand stays so."""
    m1 = (h | (h >> 1) | (h >> 2)) & RANK_BITS
    if m1 & (m1 >> 4) & (m1 >> 8) & (m1 >> 12) & (m1 >> 16):
        return False
    m2 = ((h >> 1) | (h >> 2)) & RANK_BITS
    if m2 & (m2 >> 4) & (m2 >> 8):
        return False
    m3 = ((h >> 2) | ((h >> 1) & h)) & RANK_BITS
    return (m3 & (m3 >> 4)) == 0


@kernel
def _order_key(h0, h1, h2, info):
    """The key of a position in which nobody can form a chain.

    Then a play's kind depends only on the counts of its ranks and the 2 is a rank like
    any other, so only the order of the ranks 3..2 matters: they are listed in order
    without gaps. Within a run of ranks that one player holds alone (no one else's card
    between them, nor the table play's rank) not even the order matters, for a player's
    plays are never compared with his own: each such run is listed with its counts
    sorted, highest first. So a player holding 5 and 6 as singles, or a trio of 8 and a
    single 9 against a single 8 and a trio of 9, are one entry when nobody else holds
    cards between them. The table play's rank keeps a place of its own (empty if nobody
    holds it); the jokers keep theirs, in fields 14 and 15.
    """
    table = info >> 4
    t = (table >> 4) & 15 if table else 99
    k0, k1, k2 = np.int64(ORDER_MARK), np.int64(0), np.int64(0)
    # typed, not bare literals: _put_run compiles once (tests/test_numba.py)
    place = np.int64(1)
    run = np.int64(-1)  # the player of the run being gathered
    tally = np.int64(0)  # its counts: four bits for each of 1..4
    t_place = 0
    x0, x1, x2 = h0, h1, h2
    for r in range(13):
        c0, c1, c2 = x0 & 15, x1 & 15, x2 & 15
        x0, x1, x2 = x0 >> 4, x1 >> 4, x2 >> 4
        total = c0 + c1 + c2
        if total == 0 and r != t:
            continue
        alone = -1
        if r != t:
            alone = 0 if c0 == total else (1 if c1 == total else (2 if c2 == total else -1))
        if alone != run or alone < 0:
            if run >= 0:
                k0, k1, k2, place = _put_run(k0, k1, k2, run, tally, place)
            run, tally = alone, 0
        if alone >= 0:
            tally += 1 << (4 * (total - 1))
        else:
            k0 |= c0 << (4 * place)
            k1 |= c1 << (4 * place)
            k2 |= c2 << (4 * place)
            if r == t:
                t_place = place
            place += 1
    if run >= 0:
        k0, k1, k2, place = _put_run(k0, k1, k2, run, tally, place)
    k0 |= ((h0 >> 52) & 0xFF) << 56
    k1 |= ((h1 >> 52) & 0xFF) << 56
    k2 |= ((h2 >> 52) & 0xFF) << 56
    if table == 0 or t > 12:
        return k0, k1, k2, info
    return k0, k1, k2, (info & 15) | ((table & ~0xF0) | t_place << 4) << 4


@kernel
def _put_run(k0, k1, k2, player, tally, place):
    """Write a run of one player's ranks (``tally``: how many of each count, four bits
    each) from field ``place`` on, highest counts first; return the keys and the next
    free field."""
    word = 0
    width = 0
    for count in range(4, 0, -1):
        times = (tally >> (4 * (count - 1))) & 15
        word |= count * REPEAT[times] << (4 * width)  # ``times`` fields of ``count``
        width += times
    word <<= 4 * place
    if player == 0:
        k0 |= word
    elif player == 1:
        k1 |= word
    else:
        k2 |= word
    return k0, k1, k2, place + width


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
def _squeeze_key(h0, h1, h2, info):
    """The key of a position with chains possible: equal for positions that differ only
    in ranks 3..A that nobody holds, which cannot matter.

    Those ranks are squeezed out of the three hands together, each run of them leaving
    one empty rank that still breaks chains (a run below the lowest held rank leaves
    none); the 2 and the jokers keep their places. Plays correspond one to one and beat
    each other alike, so such positions have the same value. The table play's rank moves
    to the place of its own rank or of the run it lies in.
    """
    held = (h0 | h1 | h2) & CHAIN_RANKS
    held = (held | (held >> 1) | (held >> 2)) & RANK_BITS  # counts are at most 4
    keep = held | (~held & (held << 4) & RANK_BITS)  # held ranks and the first of each run
    kept = (keep | (keep >> 3)) & 0x030303030303  # gather the twelve bits
    kept = (kept | (kept >> 6)) & 0x000F000F000F
    kept = (kept | (kept >> 12)) & 0x000000FF000000FF
    kept = (kept | (kept >> 24)) & 0xFFF
    x0, x1, x2 = h0 & CHAIN_RANKS, h1 & CHAIN_RANKS, h2 & CHAIN_RANKS
    for step in range(4):
        fields = SQUEEZE[kept, step]
        shift = 4 << step
        t0, t1, t2 = x0 & fields, x1 & fields, x2 & fields
        x0 = (x0 ^ t0) | (t0 >> shift)
        x1 = (x1 ^ t1) | (t1 >> shift)
        x2 = (x2 ^ t2) | (t2 >> shift)
    # the chain ranks from field 1 on (field 0 stands for a run below them all), the 2 and
    # the jokers in fields 13 to 15
    k0 = x0 << 4 | (h0 >> 48) << 52
    k1 = x1 << 4 | (h1 >> 48) << 52
    k2 = x2 << 4 | (h2 >> 48) << 52
    table = info >> 4
    if table == 0:
        return k0, k1, k2, info
    rank = (table >> 4) & 15
    if rank > ACE:
        place = rank + 1
    else:  # how many kept fields lie at or below it
        below = keep & ((1 << (4 * rank + 4)) - 1)
        place = ((below * RANK_BITS) >> 44) & 15
    return k0, k1, k2, (info & 15) | ((table & ~0xF0) | place << 4) << 4


@kernel
def probe(key, tt, generation):
    """The value stored for a key in this question, or UNKNOWN."""
    wanted = generation << GENERATION_SHIFT | key.info
    mask = INFO_MASK | GENERATION_MASK << GENERATION_SHIFT
    for slot in range(key.bucket, key.bucket + BUCKET):
        e = tt[slot, E_INFO]
        if e & mask == wanted and tt[slot, E_HAND0] == key.hand0:
            if tt[slot, E_HAND1] == key.hand1 and tt[slot, E_HAND2] == key.hand2:
                return (e >> VALUE_SHIFT) & 1
    return UNKNOWN


@kernel
def store(key, value, work, tt, generation):
    """Remember a value that cost ``work`` nodes, replacing an entry of an earlier
    question or else the one that cost the fewest nodes (its weight: the bit length of
    its work)."""
    weight = 0
    while work:
        work >>= 1
        weight += 1
    victim = key.bucket
    for slot in range(key.bucket, key.bucket + BUCKET):
        if (tt[slot, E_INFO] >> GENERATION_SHIFT) & GENERATION_MASK != generation:
            victim = slot
            break
        if tt[slot, E_INFO] >> WEIGHT_SHIFT < tt[victim, E_INFO] >> WEIGHT_SHIFT:
            victim = slot
    tt[victim, E_HAND0], tt[victim, E_HAND1], tt[victim, E_HAND2] = key.hand0, key.hand1, key.hand2
    tt[victim, E_INFO] = (
        key.info | value << VALUE_SHIFT | generation << GENERATION_SHIFT | weight << WEIGHT_SHIFT
    )


def wipe(tt: np.ndarray) -> None:
    """Mark every entry empty (when the questions' numbers run out)."""
    tt[:, E_INFO] = 0
