"""Forced wins with all hands open: an AND/OR search over two- and three-player endgames.

A position is the hands (landlord, peasant 1[, peasant 2]), who is to move, and the play
on the table with its owner (or a free lead). The mover beats the table play or passes;
on a free lead he must play. When the turn comes back to the owner of the table play,
everyone else has passed and he leads freely. The first player out ends the game, and
either peasant going out wins for both: the peasants cooperate perfectly.

The kernel :func:`search` is a depth-first AND/OR search that returns whether the
landlord's side wins. At each node, in this order:

1. the transposition table: a fixed number of 4-entry buckets keyed on the whole
   position (three packed hands, mover, owner, table play) with the ranks 3..A that
   nobody holds squeezed out (:func:`_table_key`), so that a hit is never a collision
   and positions that differ only in such ranks, which have the same value, share an
   entry; entries carry the number of their question, so that a new question starts
   from an empty table without wiping it; the entry that cost the fewest nodes to find
   is replaced;
2. exact quick wins: the mover can play out his hand in one legal play; or, on a free
   lead, he can play everything with at most one play an opponent can beat (the spring
   search of :mod:`solver.spring` over the moves just generated, against his opponents
   only: a partner just passes);
3. the moves, ordered: on a lead, longer plays first, then low ranks; in answer, plays
   of the table's kind before bombs, then plays an opponent can answer before those no
   opponent can (keep control for later), then high ranks; a pass first when the
   table play is a partner's, else last. A play that the next player cannot beat goes
   straight to the player after him (and on, if he cannot either): a forced pass costs
   no node;
4. before searching any move, every move's position is looked up in the table: one
   already known to win for the mover settles the node (enhanced transposition
   cutoff). The lookups go in batches, so that they wait for memory together, and the
   keys are handed down to the moves' own nodes. A move after which the next to move
   goes out in one play is settled without a node of its own.

Quick results are stored in the table too, so that no position is expanded twice. What
the search needs to know of a hand (its best rank in every shape, which tells whether it
can answer a play; its reading as one play) is kept in a small cache keyed by the hand,
since the same hands come back again and again.

The search is deterministic: the same position gives the same answer, line and node
count every time. Limits (nodes, time, the size of the move stack) stop it with
"unknown", never with a wrong answer; the table's size is fixed, so memory never grows.
"""

from __future__ import annotations

import math
import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import numba
import numpy as np

from .cards import ACE, NUM_RANKS, Hand, check_disjoint, check_hand, format_hand, pack
from .errors import RuleError
from .jit import kernel
from .movegen import (
    ALL_KINDS,
    MAX_MOVES,
    NONE,
    TABLE_SIZE,
    Move,
    as_play,
    beats,
    best_ranks,
    classify,
    follows,
    gen_moves,
    leads,
    mark_answers,
    size_of,
    unmark_answers,
)
from .rules import BOMB, CLASSIC, ROCKET, RuleSet
from .spring import W_MINR, W_THR, safe_minimum, spring_search, workspace

WIN, LOSS, UNKNOWN = 1, 0, -1  # for the landlord's side
PLAYER_NAMES = ("landlord", "peasant1", "peasant2")

# Counters and limits in the search's stats row.
S_NODES, S_HITS, S_TOP, S_ABORT, S_NODE_LIMIT, S_GENERATION, S_WHOLE = range(7)
# S_WHOLE + p: the other player p's whole hand as one play (0: it is none), as of the
# last node expanded
S_SPRING = S_WHOLE + 3  # the opponents' hands the spring table was last made for, and the
S_SPRING_OK = S_SPRING + 2  # answer of safe_minimum for them
ABORT_NODES, ABORT_TIME, ABORT_ARENA = 1, 2, 3
# Columns of a transposition-table entry: the three packed hands, then the rest.
T_H0, T_H1, T_H2, T_INFO = range(4)
# Rows of the move arena (the moves of every node on the path) and of the scratch array.
A_CARDS, A_METAS, A_KEYS, A_ROWS = 0, 1, 2, 3
X_STATS, X_MINR, X_ZERO, X_COUNTS, X_OTHER, X_BY_KEY, X_ROWS = range(7)
# Columns of a row of hand facts: a hand's best ranks (see best_ranks), then the hand, the
# meta of the whole hand as one play (0: none) and the question the row was made for.
F_HAND, F_WHOLE, F_GENERATION = TABLE_SIZE, TABLE_SIZE + 1, TABLE_SIZE + 2
FACTS = 512  # rows of hand facts

ARENA = 1 << 19  # moves on the path from the root, all nodes together
ENTRY_BYTES = 32  # four int64 words a table entry
DEFAULT_MEMORY_MB = 64
GENERATIONS = 255  # questions a table serves before it is wiped
MAX_SIZE = 63
SORT_KEYS = 32 * (MAX_SIZE + 1)
BATCH = 64  # children looked up in the table together
SHORT_LIST = 16  # moves sorted by insertion rather than by counting
TIME_CHECK = 4095  # look at the clock every 4096 nodes
FEW_CARDS = 16  # positions this small go to the table's first quarter


class Buffers:
    """The search's arrays: a few 2-D arrays, held here for the kernels."""

    def __init__(self, memory_mb: float = DEFAULT_MEMORY_MB) -> None:
        entries = 4
        while entries * 2 * ENTRY_BYTES <= memory_mb * 2**20:
            entries *= 2
        # written now (not lazily zeroed), so that no question pays for the first touch
        self.table = np.full((entries, 4), 0, np.int64)
        self.arena = np.full((A_ROWS, ARENA), 0, np.int64)
        self.scratch = np.zeros((X_ROWS, SORT_KEYS + 1), np.int64)
        self.scratch[X_MINR] = NONE  # see mark_answers
        self.facts = np.zeros((FACTS, F_GENERATION + 1), np.int64)
        self.ws = workspace()

    @property
    def stats(self) -> np.ndarray:
        return self.scratch[X_STATS]

    def args(self) -> tuple:
        """The kernel's arguments after the position and rules, in order."""
        return self.table, self.arena, self.scratch, self.facts, self.ws


@kernel
def _fold(x):
    """30 bits of a packed hand, mixed; products of two stay below 2**61."""
    return (x ^ (x >> 30)) & 0x3FFFFFFF


@kernel
def _bucket_of(h0, h1, h2, info, size):
    """The first row of a table key's bucket.

    Positions of at most :data:`FEW_CARDS` cards, the bulk of every search and cheap to
    find again, live in the table's first quarter: a region small enough to stay in the
    processor's caches, where the many lookups near the leaves are quick. The rest
    spread over the whole table. (Measured: about 10% faster than one region.)
    """
    mixed = (
        _fold(h0) * 0x2545F491 + _fold(h1) * 0x3C6EF372 + _fold(h2) * 0x1B873593 + info * 0x27D4EB2F
    )
    if size_of(h0 + h1 + h2) <= FEW_CARDS:
        size >>= 2
    return ((mixed >> 13) & (size - 1)) & ~3


RANK_BITS = 0x111111111111  # the lowest bit of each rank field 3..A (the ranks of chains)
CHAIN_RANKS = (1 << 48) - 1  # the fields of ranks 3..A


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
def _table_key(h0, h1, h2, info):
    """The position's key in the table: equal for positions that differ only in ranks 3..A
    that nobody holds, which cannot matter.

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
def _unpack(packed, counts):
    for r in range(NUM_RANKS):
        counts[r] = (packed >> (4 * r)) & 15


#: Set by the search's Ctrl-C handler: a KeyboardInterrupt cannot cross a kernel, so
#: the search stops at its next look at the clock and the interrupt is raised after it.
_INTERRUPT = {"pressed": False}


def _now() -> float:
    """The time the search's deadline is read against: infinitely late after Ctrl-C."""
    return math.inf if _INTERRUPT["pressed"] else time.perf_counter()


@kernel
def _deadline_passed(deadline):
    with numba.objmode(now="float64"):
        now = _now()
    return now >= deadline


@contextmanager
def _interruptible() -> Iterator[None]:
    """Run a search with Ctrl-C recorded instead of raised inside the kernel (where it
    would surface as a SystemError), then raise it as a KeyboardInterrupt."""
    if threading.current_thread() is not threading.main_thread() or (
        signal.getsignal(signal.SIGINT) is not signal.default_int_handler
    ):
        yield
        return
    _INTERRUPT["pressed"] = False
    signal.signal(signal.SIGINT, lambda signum, frame: _INTERRUPT.update(pressed=True))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    if _INTERRUPT["pressed"]:
        _INTERRUPT["pressed"] = False
        raise KeyboardInterrupt


@kernel
def search_root(
    h0, h1, h2, mover, table, owner, players, rules, tt, arena, scratch, facts, ws, deadline
):
    """:func:`search` from a position whose table key is still to be worked out."""
    k0, k1, k2, key = _table_key(h0, h1, h2, mover | (owner << 2 if table else 0) | table << 4)
    return search(
        h0,
        h1,
        h2,
        k0,
        k1,
        k2,
        key,
        _bucket_of(k0, k1, k2, key, tt.shape[0]),
        mover,
        table,
        owner,
        players,
        rules,
        tt,
        arena,
        scratch,
        facts,
        ws,
        deadline,
    )


@kernel
def search(
    h0,
    h1,
    h2,
    k0,
    k1,
    k2,
    key,
    slots,
    mover,
    table,
    owner,
    players,
    rules,
    tt,
    arena,
    scratch,
    facts,
    ws,
    deadline,
):
    """The value of a position for the landlord's side: WIN, LOSS or UNKNOWN (a limit).

    Hands are packed (``h2`` is 0 with two players); ``k0 .. key`` are the position's
    table key (:func:`_table_key`) and ``slots`` its bucket, worked out by the caller
    with those of the other moves; ``table`` is the meta of the play to beat (0 for a
    free lead) and ``owner`` its player. One recursive function with one type
    signature: numba's on-disk cache is only safe for recursion of that form.
    """
    nodes = scratch[X_STATS, S_NODES] + 1
    scratch[X_STATS, S_NODES] = nodes
    limit = scratch[X_STATS, S_NODE_LIMIT]
    if limit and nodes > limit:
        scratch[X_STATS, S_ABORT] = ABORT_NODES
    elif nodes & TIME_CHECK == 0 and _deadline_passed(deadline):
        scratch[X_STATS, S_ABORT] = ABORT_TIME
    if scratch[X_STATS, S_ABORT]:
        return UNKNOWN
    known = _probe(k0, k1, k2, key, slots, tt, scratch)
    if known != UNKNOWN:
        scratch[X_STATS, S_HITS] += 1
        return known
    mine = WIN if mover == 0 else LOSS  # the mover's side winning
    base = scratch[X_STATS, S_TOP]
    if base + 3 * MAX_MOVES + 1 > arena.shape[1]:
        scratch[X_STATS, S_ABORT] = ABORT_ARENA
        return UNKNOWN
    n = _expand(h0, h1, h2, mover, table, owner, players, rules, base, arena, scratch, facts, ws)
    if n < 0:
        value = mine if n == -1 else 1 - mine
        _store(k0, k1, k2, key, value, slots, tt, scratch, nodes)
        return value
    scratch[X_STATS, S_TOP] = base + 3 * n  # the moves, then their children's keys
    # read now: the recursion below reuses the cache rows for other hands
    nxt = mover + 1 if mover + 1 < players else 0
    whole_next = scratch[X_STATS, S_WHOLE + nxt]
    whole_last = scratch[X_STATS, S_WHOLE + (nxt + 1 if nxt + 1 < players else 0)]
    # a child the table already knows to be a win for the mover settles the node
    known = _known_child(
        h0, h1, h2, mover, table, owner, players, mine, base, n, tt, arena, scratch
    )
    value = mine if known == mine else 1 - mine
    for i in range(base, base + n if value != mine else base):
        play = arena[A_CARDS, i]
        if play == (h0 if mover == 0 else (h1 if mover == 1 else h2)):
            value = mine
            break
        c0, c1, c2, child_mover, child_table, child_owner = _child(
            h0, h1, h2, mover, table, owner, players, arena, i
        )
        if child_mover != mover:  # the next to move goes out at once? (no node needed)
            whole = whole_next if child_mover == nxt else whole_last
            if whole and (child_table == 0 or beats(whole, child_table)):
                if (child_mover == 0) == (mover == 0):
                    value = mine
                    break
                continue
        j = i + n
        v = search(
            c0,
            c1,
            c2,
            arena[A_CARDS, j],
            arena[A_METAS, j],
            arena[A_KEYS, j],
            arena[A_CARDS, j + n],
            arena[A_METAS, j + n],
            child_mover,
            child_table,
            child_owner,
            players,
            rules,
            tt,
            arena,
            scratch,
            facts,
            ws,
            deadline,
        )
        if v == UNKNOWN or v == mine:
            value = v
            break
    scratch[X_STATS, S_TOP] = base
    if value == UNKNOWN:
        return UNKNOWN
    _store(k0, k1, k2, key, value, slots, tt, scratch, nodes)
    return value


@kernel
def _known_child(h0, h1, h2, mover, table, owner, players, mine, base, n, tt, arena, scratch):
    """``mine`` if the table knows a move of the mover's to win for him, else UNKNOWN.

    Every child's table key and bucket go to the arena above the moves (the key of the
    child of move ``i`` in column ``i + n``, rows cards, metas and keys; its last word
    and its bucket in column ``i + 2n``), for the search to pass on. They are worked
    out in batches before the lookups, which then do not wait on each other."""
    for start in range(base, base + n, BATCH):
        stop = min(start + BATCH, base + n)
        for i in range(start, stop):
            c0, c1, c2, child_mover, child_table, child_owner = _child(
                h0, h1, h2, mover, table, owner, players, arena, i
            )
            k0, k1, k2, key = _table_key(
                c0,
                c1,
                c2,
                child_mover | (child_owner << 2 if child_table else 0) | child_table << 4,
            )
            j = i + n
            arena[A_CARDS, j], arena[A_METAS, j], arena[A_KEYS, j] = k0, k1, k2
            arena[A_CARDS, j + n] = key
            arena[A_METAS, j + n] = _bucket_of(k0, k1, k2, key, tt.shape[0])
        for j in range(start + n, stop + n):
            known = _probe(
                arena[A_CARDS, j],
                arena[A_METAS, j],
                arena[A_KEYS, j],
                arena[A_CARDS, j + n],
                arena[A_METAS, j + n],
                tt,
                scratch,
            )
            if known == mine:
                return mine
    return UNKNOWN


@kernel
def _child(h0, h1, h2, mover, table, owner, players, arena, i):
    """The position after the mover's ``i``-th move in the arena: hands, mover, table
    play and its owner. A pass clears the table when the turn reaches its owner; after a
    play, the players who cannot answer it pass at once (they cost no node)."""
    play = arena[A_CARDS, i]
    nxt = mover + 1 if mover + 1 < players else 0
    if play == 0:
        return h0, h1, h2, nxt, (0 if nxt == owner else table), owner
    child_mover = nxt
    cannot = arena[A_KEYS, i]
    while cannot & 1 and child_mover != mover:
        child_mover = child_mover + 1 if child_mover + 1 < players else 0
        cannot >>= 1
    child_table = 0 if child_mover == mover else arena[A_METAS, i]  # all passed: a new lead
    c0 = h0 - play if mover == 0 else h0
    c1 = h1 - play if mover == 1 else h1
    c2 = h2 - play if mover == 2 else h2
    return c0, c1, c2, child_mover, child_table, mover


@kernel
def _probe(h0, h1, h2, info, slots, tt, scratch):
    """The value stored for a position in this question, or UNKNOWN."""
    current = scratch[X_STATS, S_GENERATION] << 17 | info  # entries of this question only
    for slot in range(slots, slots + 4):
        e = tt[slot, T_INFO]
        if e & 0x1FEFFFF == current and tt[slot, T_H0] == h0 and tt[slot, T_H1] == h1:
            if tt[slot, T_H2] == h2:
                return (e >> 16) & 1
    return UNKNOWN


@kernel
def _store(h0, h1, h2, info, value, slots, tt, scratch, first):
    """Remember a value, replacing an entry of an earlier question or else the one that
    cost the fewest nodes (its weight: the bit length of the nodes searched since
    ``first``, the node's own number)."""
    work = scratch[X_STATS, S_NODES] - first + 1
    weight = 0
    while work:
        work >>= 1
        weight += 1
    generation = scratch[X_STATS, S_GENERATION]
    victim = slots
    for slot in range(slots, slots + 4):
        if (tt[slot, T_INFO] >> 17) & 255 != generation:
            victim = slot
            break
        if tt[slot, T_INFO] >> 25 < tt[victim, T_INFO] >> 25:
            victim = slot
    tt[victim, T_H0], tt[victim, T_H1], tt[victim, T_H2] = h0, h1, h2
    tt[victim, T_INFO] = info | value << 16 | generation << 17 | weight << 25


@kernel
def _expand(h0, h1, h2, mover, table, owner, players, rules, base, arena, scratch, facts, ws):
    """Write the mover's moves, ordered, to the arena from ``base`` on and return how
    many; or -1 (-2) when an exact quick check finds that the mover wins (loses).

    Kept apart from the recursive :func:`search`, so that the recursion stays small.
    """
    hand = h0 if mover == 0 else (h1 if mover == 1 else h2)
    stats = scratch[X_STATS]
    # 1. the whole hand in one play
    counts = scratch[X_COUNTS]
    busy = np.int64(-1)  # (a bare -1 would compile _facts_row once more for it)
    whole = facts[_facts_row(hand, counts, rules, facts, stats, busy), F_WHOLE]
    _unpack(hand, counts)
    if whole and (table == 0 or beats(whole, table)):
        return -1
    # 2. the moves
    if table == 0:
        minr = scratch[X_ZERO]
        kinds = ALL_KINDS
    else:  # the row is all NONE but for the entries of this table play, while in use
        minr = scratch[X_MINR]
        kinds = mark_answers(table, minr)
    cards, metas = arena[A_CARDS], arena[A_METAS]
    n = gen_moves(counts, rules, minr, kinds, cards, metas, base)
    if table != 0:
        unmark_answers(table, minr)
    # 3. the facts of every other player's hand (the second's never in the first's row)
    first = mover + 1 if mover + 1 < players else 0  # the players after the mover
    second = first + 1 if first + 1 < players else 0
    hand_first = h0 if first == 0 else (h1 if first == 1 else h2)
    row_first = _facts_row(hand_first, scratch[X_OTHER], rules, facts, stats, busy)
    stats[S_WHOLE + first] = facts[row_first, F_WHOLE]
    row_second = row_first
    if players == 3:
        hand_second = h0 if second == 0 else (h1 if second == 1 else h2)
        row_second = _facts_row(hand_second, scratch[X_OTHER], rules, facts, stats, row_first)
        stats[S_WHOLE + second] = facts[row_second, F_WHOLE]
    # 4. on a free lead, a spring against the opponents (the partner simply passes); the
    # table of unbeatable ranks is kept while the opponents' hands are unchanged
    if table == 0:
        if mover == 0:  # against both peasants
            row_a, row_b, key_a, key_b = row_first, row_second, h1, h2
        else:  # against the landlord
            row_a = row_first if first == 0 else row_second
            row_b, key_a, key_b = row_a, h0, h0
        if stats[S_SPRING] != key_a or stats[S_SPRING + 1] != key_b:
            stats[S_SPRING], stats[S_SPRING + 1] = key_a, key_b
            thr = ws[W_THR]
            one, two = facts[row_a], facts[row_b]
            for i in range(TABLE_SIZE):
                thr[i] = max(one[i], two[i])
            stats[S_SPRING_OK] = safe_minimum(thr, ws[W_MINR])
        if stats[S_SPRING_OK] and spring_search(hand, n, cards, metas, base, ws) > 0:
            return -1
        if players == 2 and size_of(h1 if mover == 0 else h0) == 1:
            # one card left to the opponent: he goes out on any play he can beat, so the
            # spring just tried was the mover's only way to win
            return -2
    else:  # passing is a move too
        cards[base + n] = 0
        metas[base + n] = 0
        n += 1
    # 5. who after the mover cannot answer each play (bit k: the k-th player after him):
    # such a player must pass, and the search skips him
    best_first, best_second = facts[row_first], facts[row_second]
    for i in range(base, base + n):
        m = metas[i]
        cannot = 0
        if m != 0:
            cannot = 0 if _answerable(best_first, m) else 1
            if players == 3 and not _answerable(best_second, m):
                cannot |= 2
        arena[A_KEYS, i] = cannot
    # 6. ordered
    partner_owns = table != 0 and mover != 0 and owner != 0
    # the mover's opponents among the players after him, as bits like ``cannot``'s
    opponents = (1 << (players - 1)) - 1 if mover == 0 else 1 << (players - 1 - mover)
    _order(base, n, table == 0, table != 0, partner_owns, opponents, arena, scratch[X_BY_KEY])
    return n


@kernel
def _facts_row(hand, counts, rules, facts, stats, busy):
    """The row of ``facts`` that holds the facts of ``hand`` for this question, made now
    (with ``counts`` as scratch) if it was not there; never row ``busy``.

    Hands come back again and again in a search (a player's hand is unchanged while the
    others play), so most of them are found here rather than worked out."""
    row = (_fold(hand) * 0x2545F491 >> 20) & (facts.shape[0] - 1)
    if facts[row, F_HAND] == hand and facts[row, F_GENERATION] == stats[S_GENERATION]:
        return row
    if row == busy:
        row ^= 1
        if facts[row, F_HAND] == hand and facts[row, F_GENERATION] == stats[S_GENERATION]:
            return row
    _unpack(hand, counts)
    best = facts[row]
    best[:TABLE_SIZE] = -1
    best_ranks(counts, rules, best)
    best[F_HAND] = hand
    best[F_WHOLE] = classify(counts, rules)
    best[F_GENERATION] = stats[S_GENERATION]
    return row


@kernel
def _answerable(thr, meta):
    """Whether a hand whose best ranks are ``thr`` can beat the play ``meta``."""
    kind = meta & 15
    rank = (meta >> 4) & 15
    if kind == ROCKET:
        return False
    if thr[ROCKET * 16 + 1] >= 0:
        return True
    if kind == BOMB:
        return thr[BOMB * 16 + 1] > rank
    return thr[BOMB * 16 + 1] >= 0 or thr[kind * 16 + (meta >> 8)] > rank


@kernel
def _order(base, n, free, has_pass, pass_first, opponents, arena, by_key):
    """Sort the moves in ``base .. base + n`` of the arena (a stable counting sort),
    keeping each move's bits of who cannot answer it (``opponents``: the bits of the
    mover's opponents).

    On a free lead, more cards first; in answer, plays of the table's kind before bombs
    and the rocket. Then plays an opponent can answer before those no opponent can
    (shed weak cards, keep control for later); then, on a free lead, low ranks first, and when
    answering, high ranks first. A pass (the last move, if ``has_pass``) goes first when
    the partner owns the table, else stays last. (Measured on the published endgames
    and random deals: "plays no one can answer first" needs about twice the nodes; not
    sorting answers by it needs 1.3x to 3x; sorting leads by it before size, 1.5x to 4x.)
    """
    cards, metas, keys = arena[A_CARDS], arena[A_METAS], arena[A_KEYS]
    plays = n - 1 if has_pass else n
    lo = SORT_KEYS
    hi = 0
    for i in range(base, base + plays):
        rank = (metas[i] >> 4) & 15
        size = MAX_SIZE - min(size_of(cards[i]), MAX_SIZE)
        if not free and (metas[i] & 15 == BOMB or metas[i] & 15 == ROCKET):
            size = 1  # answering, a bomb or the rocket comes after the plays of the kind
        elif not free:
            size = 0
        safe = keys[i] & opponents == opponents  # no opponent can answer it
        key = (size * 2 + safe) * 16 + (rank if free else 15 - rank)
        keys[i] = key << 2 | keys[i]  # the cannot-answer bits ride along (two at most)
        lo = min(lo, key)
        hi = max(hi, key)
    if plays <= SHORT_LIST:
        _insertion_sort(base, plays, cards, metas, keys)
        if has_pass and pass_first:  # move the pass from the end to the front
            for i in range(base + plays, base, -1):
                cards[i] = cards[i - 1]
                metas[i] = metas[i - 1]
                keys[i] = keys[i - 1]
            cards[base] = 0
            metas[base] = 0
            keys[base] = 0
        return
    by_key[lo : hi + 2] = 0
    for i in range(base, base + plays):
        by_key[(keys[i] >> 2) + 1] += 1
    for k in range(lo + 1, hi + 2):
        by_key[k] += by_key[k - 1]
    first = 1 if has_pass and pass_first else 0
    out = base + n  # scratch above the segment
    for i in range(base, base + plays):
        key = keys[i] >> 2
        at = out + first + by_key[key]
        by_key[key] += 1
        cards[at] = cards[i]
        metas[at] = metas[i]
        keys[at] = keys[i] & 3
    if has_pass:
        at = out if pass_first else out + n - 1
        cards[at] = 0
        metas[at] = 0
        keys[at] = 0
    for i in range(n):
        cards[base + i] = cards[out + i]
        metas[base + i] = metas[out + i]
        keys[base + i] = keys[out + i]


@kernel
def _insertion_sort(base, n, cards, metas, keys):
    """The stable sort of :func:`_order` for a short list (most answers are a few plays):
    no counting pass over the key range. Leaves only the cannot-answer bits in ``keys``."""
    for i in range(base + 1, base + n):
        c, m, k = cards[i], metas[i], keys[i]
        j = i - 1
        while j >= base and keys[j] >> 2 > k >> 2:
            cards[j + 1] = cards[j]
            metas[j + 1] = metas[j]
            keys[j + 1] = keys[j]
            j -= 1
        cards[j + 1] = c
        metas[j + 1] = m
        keys[j + 1] = k
    for i in range(base, base + n):
        keys[i] &= 3


@dataclass(frozen=True)
class Position:
    """A validated position: hands in turn order, the mover, and the play to beat."""

    hands: tuple[Hand, ...]
    to_move: int = 0
    table: Move | None = None
    owner: int | None = None
    rules: RuleSet = CLASSIC

    @property
    def players(self) -> int:
        return len(self.hands)

    def after(self, move: Move | None) -> Position:
        """The position after the mover plays ``move`` (None: passes)."""
        nxt = (self.to_move + 1) % self.players
        if move is None:
            if self.table is None:
                raise RuleError("cannot pass on a free lead")
            clear = nxt == self.owner
            return Position(
                self.hands,
                nxt,
                None if clear else self.table,
                None if clear else self.owner,
                self.rules,
            )
        hands = list(self.hands)
        hands[self.to_move] = tuple(
            a - b for a, b in zip(hands[self.to_move], move.cards, strict=True)
        )
        return Position(tuple(hands), nxt, move, self.to_move, self.rules)

    @property
    def winner(self) -> int | None:
        """WIN or LOSS when a player has gone out, else None."""
        for i, h in enumerate(self.hands):
            if not any(h):
                return WIN if i == 0 else LOSS
        return None


def make_position(
    hands: list[Hand],
    to_move: int = 0,
    table: Hand | None = None,
    owner: int | None = None,
    rules: RuleSet = CLASSIC,
) -> Position:
    """Validate a position (hands within one deck, a legal table play, a sane owner)."""
    if len(hands) not in (2, 3):
        raise RuleError(f"a position has 2 or 3 hands, got {len(hands)}")
    for i, h in enumerate(hands):
        check_hand(h, rules.deck, format_hand(h))
        if not any(h):
            raise RuleError(f"the {PLAYER_NAMES[i]}'s hand is empty: the game is over")
    if not 0 <= to_move < len(hands):
        raise RuleError(f"no {PLAYER_NAMES[to_move]} in a {len(hands)}-player position")
    move = None
    if table is not None:
        check_disjoint([*hands, table], rules.deck)
        move = as_play(table, rules)
        if owner is None or not 0 <= owner < len(hands):
            raise RuleError("a table play needs its owner, one of the players")
        if owner == to_move:
            raise RuleError(
                f"the {PLAYER_NAMES[owner]} owns the table play and is also to move: "
                "after everyone passes the owner leads freely"
            )
    else:
        check_disjoint(hands, rules.deck)
        owner = None
    return Position(tuple(hands), to_move, move, owner, rules)


@dataclass
class SearchStats:
    """What a search cost."""

    nodes: int = 0
    hits: int = 0
    seconds: float = 0.0
    aborted: str | None = None


class Searcher:
    """Evaluates positions of one question after another with one transposition table."""

    def __init__(
        self,
        memory_mb: float = DEFAULT_MEMORY_MB,
        time_limit: float | None = None,
        node_limit: int | None = None,
    ) -> None:
        self.buffers = Buffers(memory_mb)
        _deadline_passed(0.0)  # its first call sets up object mode (about 40 ms): not mid-search
        self.time_limit = time_limit
        self.node_limit = node_limit or 0
        self.stats = SearchStats()
        self._rules: RuleSet | None = None
        self._generation = 0
        self._deadline = float("inf")

    def start(self, rules: RuleSet) -> None:
        """Begin a new question: a table whose old entries no longer count (so that node
        counts never depend on what was asked before), fresh counters, and the clock.

        Entries carry the number of their question; the table is wiped only when the
        numbers run out."""
        self._generation += 1
        if self._generation > GENERATIONS:
            self.buffers.table[:, T_INFO] = 0
            self.buffers.facts[:, F_GENERATION] = 0
            self._generation = 1
        self._rules = rules
        self.stats = SearchStats()
        self._started = time.perf_counter()
        limit = self.time_limit
        self._deadline = self._started + limit if limit else float("inf")

    def value(self, pos: Position) -> int:
        """WIN or LOSS for the landlord's side, or UNKNOWN when a limit stopped the search."""
        if self._rules != pos.rules:
            self.start(pos.rules)
        done = pos.winner
        if done is not None:
            return done
        if time.perf_counter() > self._deadline:
            self.stats.aborted = "time limit"
            return UNKNOWN
        stats = self.buffers.stats
        stats[:] = 0
        stats[S_GENERATION] = self._generation
        stats[S_NODE_LIMIT] = max(0, self.node_limit - self.stats.nodes) if self.node_limit else 0
        if self.node_limit and stats[S_NODE_LIMIT] == 0:
            self.stats.aborted = "node limit"
            return UNKNOWN
        h = [pack(x) for x in pos.hands] + [0] * (3 - pos.players)
        table = pos.table.meta if pos.table else 0
        owner = pos.owner if pos.owner is not None else 0
        with _interruptible():
            v = search_root(
                h[0],
                h[1],
                h[2],
                pos.to_move,
                table,
                owner,
                pos.players,
                pos.rules.array(),
                *self.buffers.args(),
                self._deadline,
            )
        self.stats.nodes += int(stats[S_NODES])
        self.stats.hits += int(stats[S_HITS])
        self.stats.seconds = time.perf_counter() - self._started
        if v == UNKNOWN:
            self.stats.aborted = {
                ABORT_NODES: "node limit",
                ABORT_TIME: "time limit",
                ABORT_ARENA: "move stack full",
            }[int(stats[S_ABORT])]
        return int(v)

    def moves(self, pos: Position) -> list[Move | None]:
        """The mover's legal moves (None is a pass): longer plays first, a pass last."""
        hand = pos.hands[pos.to_move]
        plays = leads(hand, pos.rules) if pos.table is None else follows(hand, pos.table, pos.rules)
        plays.sort(key=lambda m: -sum(m.cards))
        return plays if pos.table is None else [*plays, None]
