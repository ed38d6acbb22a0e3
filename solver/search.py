"""Forced wins with all hands open: an AND/OR search over two- and three-player endgames.

A position is the hands (landlord, peasant 1[, peasant 2]), who is to move, and the play
on the table with its owner (or a free lead). The mover beats the table play or passes;
on a free lead he must play. When the turn comes back to the owner of the table play,
everyone else has passed and he leads freely. The first player out ends the game, and
either peasant going out wins for both: the peasants cooperate perfectly.

The kernel :func:`search` is a depth-first AND/OR search that returns whether the
landlord's side wins. At each node, in this order:

1. the transposition table: a fixed number of 4-entry buckets keyed on the *whole*
   position (three packed hands, mover, owner, table play), so a hit is never a
   collision; entries carry the number of their question, so that a new question
   starts from an empty table without wiping it; the entry that cost the fewest nodes
   to find is replaced;
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
   cutoff). A move after which the next to move goes out in one play is settled
   without a node of its own.

Quick results are stored in the table too, so that no position is expanded twice.

The search is deterministic: the same position gives the same answer, line and node
count every time. Limits (nodes, time, the size of the move stack) stop it with
"unknown", never with a wrong answer; the table's size is fixed, so memory never grows.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numba
import numpy as np

from .cards import NUM_RANKS, Hand, check_disjoint, check_hand, format_hand, pack
from .errors import RuleError
from .jit import borrow, kernel
from .movegen import (
    ALL_KINDS,
    MAX_MOVES,
    TABLE_SIZE,
    Move,
    as_play,
    beats,
    best_ranks,
    classify,
    follow_table,
    follows,
    gen_moves,
    leads,
    size_of,
)
from .rules import BOMB, CLASSIC, ROCKET, RuleSet
from .spring import W_MINR, W_THR, safe_minimum, spring_search, workspace

WIN, LOSS, UNKNOWN = 1, 0, -1  # for the landlord's side
PLAYER_NAMES = ("landlord", "peasant1", "peasant2")

# Counters and limits in the search's stats row.
S_NODES, S_HITS, S_TOP, S_ABORT, S_NODE_LIMIT, S_GENERATION, S_THR_HAND = range(7)
S_WHOLE = S_THR_HAND + 3  # S_WHOLE + p: player p's whole hand as one play (0: it is none)
ABORT_NODES, ABORT_TIME, ABORT_ARENA = 1, 2, 3
# Columns of a transposition-table entry: the three packed hands, then the rest.
T_H0, T_H1, T_H2, T_INFO = range(4)
# Rows of the move arena (the moves of every node on the path) and of the scratch array.
A_CARDS, A_METAS, A_KEYS, A_ROWS = 0, 1, 2, 3
X_STATS, X_MINR, X_COUNTS, X_OTHER, X_BY_KEY, X_THR = range(6)
X_ROWS = X_THR + 3  # X_THR + p: player p's best ranks, for his hand at S_THR_HAND + p

ARENA = 1 << 19  # moves on the path from the root, all nodes together
ENTRY_BYTES = 32  # four int64 words a table entry
DEFAULT_MEMORY_MB = 64
GENERATIONS = 255  # questions a table serves before it is wiped
MAX_SIZE = 63
SORT_KEYS = 32 * (MAX_SIZE + 1)
TIME_CHECK = 4095  # look at the clock every 4096 nodes


class Buffers:
    """The search's arrays: a few 2-D arrays, which the kernel borrows (see
    :func:`solver.jit.borrow`) for as long as this object holds them."""

    def __init__(self, memory_mb: float = DEFAULT_MEMORY_MB) -> None:
        entries = 4
        while entries * 2 * ENTRY_BYTES <= memory_mb * 2**20:
            entries *= 2
        # written now (not lazily zeroed), so that no question pays for the first touch
        self.table = np.full((entries, 4), 0, np.int64)
        self.arena = np.full((A_ROWS, ARENA), 0, np.int64)
        self.scratch = np.zeros((X_ROWS, SORT_KEYS + 1), np.int64)
        self.ws = workspace()

    @property
    def stats(self) -> np.ndarray:
        return self.scratch[X_STATS]

    def args(self) -> tuple:
        """The kernel's arguments after the position and rules, in order."""
        return self.table, self.arena, self.scratch, self.ws


@kernel
def _fold(x):
    """30 bits of a packed hand, mixed; products of two stay below 2**61."""
    return (x ^ (x >> 30)) & 0x3FFFFFFF


@kernel
def _bucket_of(h0, h1, h2, info, size):
    mixed = (
        _fold(h0) * 0x2545F491 + _fold(h1) * 0x3C6EF372 + _fold(h2) * 0x1B873593 + info * 0x27D4EB2F
    )
    return ((mixed >> 13) & (size - 1)) & ~3


@kernel
def _unpack(packed, counts):
    for r in range(NUM_RANKS):
        counts[r] = (packed >> (4 * r)) & 15


@kernel
def _deadline_passed(deadline):
    with numba.objmode(now="float64"):
        now = time.perf_counter()
    return now > deadline


@kernel
def search_root(h0, h1, h2, mover, table, owner, players, rules, tt, arena, scratch, ws, deadline):
    """:func:`search` on arrays that are not reference-counted (the caller holds them)."""
    return search(
        h0,
        h1,
        h2,
        mover,
        table,
        owner,
        players,
        borrow(rules),
        borrow(tt),
        borrow(arena),
        borrow(scratch),
        borrow(ws),
        deadline,
    )


@kernel
def search(h0, h1, h2, mover, table, owner, players, rules, tt, arena, scratch, ws, deadline):
    """The value of a position for the landlord's side: WIN, LOSS or UNKNOWN (a limit).

    Hands are packed (``h2`` is 0 with two players); ``table`` is the meta of the play to
    beat (0 for a free lead) and ``owner`` its player. One recursive function with one
    type signature: numba's on-disk cache is only safe for recursion of that form.
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
    if table == 0:
        owner = 0
    info = mover | owner << 2 | table << 4
    slots = _bucket_of(h0, h1, h2, info, tt.shape[0])
    known = _probe(h0, h1, h2, info, slots, tt, scratch)
    if known != UNKNOWN:
        scratch[X_STATS, S_HITS] += 1
        return known
    mine = WIN if mover == 0 else LOSS  # the mover's side winning
    base = scratch[X_STATS, S_TOP]
    if base + 2 * MAX_MOVES + 1 > arena.shape[1]:
        scratch[X_STATS, S_ABORT] = ABORT_ARENA
        return UNKNOWN
    n = _expand(h0, h1, h2, mover, table, owner, players, rules, base, arena, scratch, ws)
    if n < 0:
        value = mine if n == -1 else 1 - mine
        _store(h0, h1, h2, info, value, slots, tt, scratch, nodes)
        return value
    scratch[X_STATS, S_TOP] = base + n
    # read now: the recursion below reuses the cache rows for other hands
    nxt = mover + 1 if mover + 1 < players else 0
    whole_next = scratch[X_STATS, S_WHOLE + nxt]
    whole_last = scratch[X_STATS, S_WHOLE + (nxt + 1 if nxt + 1 < players else 0)]
    # a child the table already knows to be a win for the mover settles the node
    value = 1 - mine
    for i in range(base, base + n):
        c0, c1, c2, child_mover, child_table, child_owner = _child(
            h0, h1, h2, mover, table, owner, players, arena, i
        )
        child_info = child_mover | (child_owner << 2 if child_table else 0) | child_table << 4
        child_slots = _bucket_of(c0, c1, c2, child_info, tt.shape[0])
        known = _probe(c0, c1, c2, child_info, child_slots, tt, scratch)
        if known == mine:
            value = mine
            break
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
        v = search(
            c0,
            c1,
            c2,
            child_mover,
            child_table,
            child_owner,
            players,
            rules,
            tt,
            arena,
            scratch,
            ws,
            deadline,
        )
        if v == UNKNOWN or v == mine:
            value = v
            break
    scratch[X_STATS, S_TOP] = base
    if value == UNKNOWN:
        return UNKNOWN
    _store(h0, h1, h2, info, value, slots, tt, scratch, nodes)
    return value


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
def _expand(h0, h1, h2, mover, table, owner, players, rules, base, arena, scratch, ws):
    """Write the mover's moves, ordered, to the arena from ``base`` on and return how
    many; or -1 (-2) when an exact quick check finds that the mover wins (loses).

    Kept apart from the recursive :func:`search`, so that the recursion stays small.
    """
    hand = h0 if mover == 0 else (h1 if mover == 1 else h2)
    counts, minr = scratch[X_COUNTS], scratch[X_MINR]
    _unpack(hand, counts)
    # 1. the whole hand in one play
    whole = classify(counts, rules)
    if whole and (table == 0 or beats(whole, table)):
        return -1
    # 2. the moves
    if table == 0:
        minr[:TABLE_SIZE] = 0
        kinds = ALL_KINDS
    else:
        kinds = follow_table(table, minr)
    cards, metas = arena[A_CARDS], arena[A_METAS]
    n = gen_moves(counts, rules, minr, kinds, cards, metas, base)
    # 3. every other player's best ranks (kept while his hand is unchanged)
    for k in range(players - 1):
        after = (mover + 1 + k) % players
        hand_after = h0 if after == 0 else (h1 if after == 1 else h2)
        if scratch[X_STATS, S_THR_HAND + after] != hand_after:
            scratch[X_STATS, S_THR_HAND + after] = hand_after
            counts, thr = scratch[X_OTHER], scratch[X_THR + after]
            _unpack(hand_after, counts)
            thr[:TABLE_SIZE] = -1
            best_ranks(counts, rules, thr)
            scratch[X_STATS, S_WHOLE + after] = classify(counts, rules)
    # 4. on a free lead, a spring against the opponents (the partner simply passes)
    if table == 0:
        thr = ws[W_THR]
        for i in range(TABLE_SIZE):
            best = scratch[X_THR + (1 if mover == 0 else 0), i]
            if mover == 0 and players == 3:
                best = max(best, scratch[X_THR + 2, i])
            thr[i] = best
        if safe_minimum(thr, ws[W_MINR]) and spring_search(hand, n, cards, metas, base, ws) > 0:
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
    for i in range(base, base + n):
        m = arena[A_METAS, i]
        cannot = 0
        if m != 0:
            for k in range(players - 1):
                if not _answerable(scratch[X_THR + (mover + 1 + k) % players], m):
                    cannot |= 1 << k
        arena[A_KEYS, i] = cannot
    # 6. ordered
    partner_owns = table != 0 and mover != 0 and owner != 0
    # the mover's opponents among the players after him, as bits like ``cannot``'s
    opponents = (1 << (players - 1)) - 1 if mover == 0 else 1 << (players - 1 - mover)
    _order(base, n, table == 0, table != 0, partner_owns, opponents, arena, scratch[X_BY_KEY])
    return n


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
