"""Forced wins with all hands open: an AND/OR search over endgames of two to four players
(the landlord against one, two or three peasants).

A position (:mod:`solver.position`) is the hands, who is to move, and the play on the
table with its owner (or a free lead). The mover beats the table play or passes; on a
free lead he must play. When the turn comes back to the owner of the table play,
everyone else has passed and he leads freely. The first player out ends the game, and
any peasant going out wins for all of them: the peasants cooperate perfectly.

The kernel :func:`search` is a depth-first AND/OR search that returns whether the
landlord's side wins, or meets a goal (:mod:`solver.goal`: a win with so many more
doublings of the stake, or a loss with at most so many), which travels with the node
and its table key; the stake question asks a few such goals. At each node, in this
order:

1. the transposition table (:mod:`solver.table`), keyed on the position in a canonical
   form that positions of the same value share: ranks nobody holds squeezed out, and
   when nobody can form a chain, only the order of the ranks kept (half the nodes of
   the squeeze alone on random positions of 16-44 cards); the table play's rank as its
   answerers see it, and one player's counts sorted in a run of ranks he alone holds;
2. exact quick wins: the mover can play out his hand in one legal play; or, on a free
   lead, he can play everything with at most one play an opponent can beat (the spring
   search of :mod:`solver.spring` over the moves just generated, against his opponents
   only: a partner just passes); or he can do so after leading his lowest singles and
   pairs, up to three, each followed by one no opponent can beat that takes the lead
   back; or, answering a play, he can beat it with a play no opponent can beat and
   then do either (from 20 cards in play down, only where the rest needs at most three
   plays: below that the test costs more time than the nodes it saves); or a player's
   deciding card settles it: his one card, or his highest, where no opponent holds a
   higher card or a bomb and he can play out the rest after it with at most one play
   they can beat, the last. That side loses when it cannot go out without first
   playing a single under that card that nobody covers (:func:`_last_card`; of four
   players, where the card is above all their singles and each of them must play a
   single before his last play, :func:`_shut_out`): a third fewer nodes on whole deals,
   where the landlord holds one card at a fifth of them. Under a goal, a way out
   counts only when it meets the goal (a side kept from going out, only when winning
   is the goal), and a goal the bombs left in the hands cannot reach (or cannot
   exceed) is settled before anything else;
3. the moves, ordered (:mod:`solver.ordering`; under a goal that wants two doublings or
   more, the bombs and the rocket first), without the plays whose kicker a lower one
   would replace to the mover's gain (for a peasant, where no partner holds a rank
   between the two), nor those whose main rank a lower one would (where no partner
   holds a rank between the two, nor an opponent as many cards of one as the play has
   of its main rank: a lone card parts no pairs). A play that the next player cannot
   beat goes straight to the player after him (and on, if he cannot either): a forced
   pass costs no node;
4. before searching any move, every move's position is looked up in the table: one
   already known to win for the mover settles the node (enhanced transposition
   cutoff). The lookups go in batches, each bucket asked of memory as soon as its key
   is worked out (:func:`solver.table.fetch_ahead`), so that they wait for memory
   together (5-10% less time on positions of 38-54 cards), and the keys are handed
   down to the moves' own nodes. A move after which the next to move goes out in one
   play is settled without a node of its own.

Quick results are stored in the table too, so that no position is expanded twice. What
the search needs to know of a hand (its best rank in every shape, which tells whether it
can answer a play; its reading as one play) is kept in a small cache keyed by the hand,
since the same hands come back again and again.

Positions of :data:`PROOF_FROM` cards or more go to a depth-first proof-number search
(df-pn, Nagai), :func:`prove`. Depth first, a wrong first choice at one node (a move
that looks good and takes a huge tree to refute) holds the whole search up, and in a
whole deal, where a lead has hundreds of moves, that is what decides its cost; the
proof-number search always works on the move whose proof looks cheapest and switches
when another looks cheaper. Its numbers:

- a move not yet searched starts from a guess: its place in the move order, each place
  down weighing :data:`PLACE_WEIGHT` (the order is right at most nodes), and the room
  of the player to move after it;
- the best move is searched until its number passes the next one's by half (the
  "1 + epsilon" thresholds of Pawlewicz and Lew);
- a node's disproof number is weak (Ueda et al.): its widest move's, plus one for every
  other move still open, rather than their sum, which counts shared positions again and
  again and grows with every level of a deep tree.

Within it, positions of :data:`PROOF_LEAF` cards or fewer go to the depth-first search,
which is faster there. Settled positions go to the value table, which both searches
read and write; open ones keep their numbers in a table of their own (half the value
table's size, made when first needed). The search comes back to its positions again and
again (a quarter of its openings on a whole deal): one with numbers in that table skips
the quick checks, which found nothing the first time, and moves to positions that the
depth-first search settles are never looked for there (3% less time on a whole deal).

The move that proved a position by search goes to a small memo under the mover's hand
and the play he faced (:func:`solver.ordering.remember_winner`), and comes first when
that hand meets that play again: sibling positions differ in other hands, and the answer
that won in one usually wins in the next (on whole deals and positions of 38-50 cards,
1.6x less time). Moves found winning in the table are not remembered (that costs twice
the time). The depth-first search keeps a memo of its own, in a second set of slots (its
many small positions would push the proof-number search's winners out), for positions
of :data:`MEMO_FROM` cards or more: a winner that was not its node's first move is
remembered, and a remembered one goes first, within the question (on random positions
of 24-32 cards, 1.3x less time and 1.4x fewer nodes; on positions of 38-54 cards, 7%
fewer nodes in about the same time).

The search is deterministic: the same position gives the same answer, line and node
count every time. Limits (nodes, time, the size of the move stack) stop it with
"unknown", never with a wrong answer. The table's size is fixed: a question keys
positions to its first rows (64 MB of them) and doubles the rows it uses as its nodes
outgrow them (:data:`GROW_AFTER`), up to the whole table, so memory never grows past it.
"""

from __future__ import annotations

import _signal
import math
import signal
import threading
import time
from collections import namedtuple
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import numba
import numpy as np

from .cards import BLACK_JOKER, NUM_RANKS, RED_JOKER, pack
from .goal import (
    JOKERS,
    PLAIN,
    bombs_first,
    goal_after,
    needs_win,
    out_value,
    settled,
    spring_decides,
    spring_doubles,
    wins_enough,
)
from .jit import kernel
from .movegen import (
    ALL_KINDS,
    BOMB_LENGTHS,
    MAX_MOVES,
    NONE,
    OVERFLOW,
    RANK_LOWS,
    TABLE_SIZE,
    Move,
    beats,
    best_ranks,
    classify,
    follows,
    gen_moves,
    leads,
    mark_answers,
    ranks_thrice,
    size_of,
    unmark_answers,
)
from .ordering import (
    A_CARDS,
    A_KEYS,
    A_METAS,
    A_ROWS,
    DEPTH_FIRST,
    DEPTH_FIRST_SHIFT,
    DOMINATED,
    SORT_KEYS,
    WINNER_COLUMNS,
    WINNER_SLOTS,
    doublings_first,
    drop_dominated,
    order_moves,
    plays_needed,
    remember_winner,
    widths_held,
    winner_first,
)
from .position import LOSS, PLAYER_NAMES, UNKNOWN, WIN, Position, make_position
from .rules import BOMB, PAIR, ROCKET, SINGLE, TRIO, RuleSet
from .spring import (
    W_MINR,
    W_THR,
    lowest_rank,
    plays_with_one_single,
    safe_minimum,
    spring_from,
    spring_plays,
    spring_search,
    workspace,
)
from .table import (
    ENTRY_WORDS,
    GENERATIONS,
    GOAL_SHIFT,
    NUMBER_BITS,
    NUMBER_MASK,
    PROOF_WORDS,
    WIDE_ENTRY_WORDS,
    Key,
    chain_ranks,
    fetch_ahead,
    fold,
    grow,
    held_ranks,
    new_table,
    probe,
    probe_numbers,
    single_runs,
    store,
    store_numbers,
    table_entries,
    table_key,
    wipe,
)

__all__ = [
    "DEFAULT_MEMORY_MB",
    "LOSS",
    "PLAYER_NAMES",
    "UNKNOWN",
    "WIN",
    "Position",
    "SearchStats",
    "Searcher",
    "make_position",
]

#: A position inside the kernels: packed hands (0 for the players a position lacks), the
#: mover, the meta of the play to beat (0: a free lead) and its owner, and the goal of
#: the landlord's side (:mod:`solver.goal`; 0: to win).
Node = namedtuple("Node", "hand0 hand1 hand2 mover table owner goal hand3")
#: What every node of one search shares: the number of players, the rule set's array,
#: the transposition table, the move arena, the scratch rows, the hand facts, the spring
#: workspace, the memo of winning moves (the proof-number search's), and the deadline
#: (``time.perf_counter`` seconds). Kernels hand it on whole, call after call: one more
#: array in it, even one that nothing reads, measured 40% more time for the search (on
#: positions of 50 cards and whole deals; one more number: no change), so it holds
#: only the arrays the kernels cannot do without.
Context = namedtuple("Context", "players rules tt arena scratch facts ws winners deadline")

# Rows of the scratch array: the search's counters and limits (columns C_*); the
# answerable ranks of a table play (see mark_answers) and of a free lead; two rows of
# unpacked counts; the counting sort's tallies; the spring table's memo (columns M_*).
X_STATS, X_MINR, X_ZERO, X_COUNTS, X_OTHER, X_BY_KEY, X_SPRING, X_ROWS = range(8)
C_NODES, C_HITS, C_TOP, C_ABORT, C_NODE_LIMIT, C_GENERATION, C_REMEMBERED, C_ENTRIES = range(8)
# The spring memo: the opponents' hands the table of unbeatable ranks was last made
# for, and whether they can be sprung at all (safe_minimum's answer).
M_OPPONENT_A, M_OPPONENT_B, M_OPPONENT_C, M_SAFE = range(4)
ABORT_NODES, ABORT_TIME, ABORT_ARENA = 1, 2, 3
# What expanding a node can find instead of its moves: a quick result for the mover, or
# more moves than the generator may write.
QUICK_WIN, QUICK_LOSS, NO_ROOM = -1, -2, -3
WHOLE_BITS = 16  # a meta in the word of the whole hands of the players after the mover
WHOLE_MASK = (1 << WHOLE_BITS) - 1
# Columns of a row of hand facts: a hand's best ranks (see best_ranks), then the hand, the
# meta of the whole hand as one play (0: none), the question the row was made for, and
# whether the hand must play a single under a rank before its last play (SINGLES_*, in
# SINGLES_BITS a rank, NONE's for any single).
F_HAND, F_WHOLE, F_GENERATION, F_SINGLES = range(TABLE_SIZE, TABLE_SIZE + 4)
F_COLUMNS = TABLE_SIZE + 4
SINGLES_UNKNOWN, SINGLES_NEEDED, SINGLES_SPARED = 0, 1, 2
SINGLES_BITS, SINGLES_MASK = 2, 3
FACTS = 512  # rows of hand facts

ARENA = 1 << 19  # moves on the path from the root, all nodes together
#: The most memory the value table takes by default. A search keys positions to the
#: table's first rows, 64 MB of them (two million positions), and doubles the rows in
#: use whenever its nodes pass :data:`GROW_AFTER` times their number, up to the whole
#: table. A bigger table misses the caches more often: on the growth list's 38-card
#: positions (1-6 M nodes), 128 MB from the start costs most of them 8-10% more time for
#: 2% fewer nodes, so searches of up to 8 M nodes keep to 64 MB. A search that outgrows
#: it spends its nodes on what the table lost: the hardest 44-card position of the
#: growth list takes 63 M nodes at a fixed 64 MB and 51 M when the table grows to
#: 256 MB, in 13-15% less time. More would take more of a machine than a default should
#: (a batch has a table a worker); ``--max-memory`` sets it.
DEFAULT_MEMORY_MB = 256
START_MB = 64  # the table's rows in use when a question starts (at most all of them)
GROW_AFTER = 4  # the rows in use double when the nodes of one search pass this many times theirs
BATCH = 64  # children looked up in the table together
PROOF_FROM = 36  # positions of this many cards or more go to the proof-number search
MEMO_FROM = 12  # the depth-first search remembers winners of positions this big or bigger
PROOF_LEAF = 20  # within the proof-number search, positions this small are searched depth first
SHORT_REST = 3  # see _spring_after_control
TAKE_BACK = 3  # the most low plays _spring_after_taking_back leads before the spring
INFINITE = NUMBER_MASK  # a proof or disproof number: settled
PROVED = INFINITE << NUMBER_BITS  # numbers words: proved, disproved, stopped by a limit
DISPROVED = INFINITE
STOPPED = INFINITE | INFINITE << NUMBER_BITS
# a move's flags in the arena: his own side moves next; not yet looked up; its position
# is big enough for the proof-number search (only such positions have numbers); its
# position was opened before (see prove)
OWN, OPEN, DEEP, SEEN = 1, 2, 4, 8
EPSILON_SHIFT = 1  # the best move is searched until its number passes 1 + 1/2 of the next
#: Added, for each place down the move order, to the first proof number of a move not
#: yet searched (for the side to move): the order is usually right, so the search keeps
#: to a move until its proof has grown well past the next move's guess.
PLACE_WEIGHT = 64
TIME_CHECK = 4095  # look at the clock (and the table's rows in use) every 4096 nodes


class Buffers:
    """The search's arrays, held here for the kernels."""

    def __init__(self, memory_mb: float = DEFAULT_MEMORY_MB, start_mb: float = START_MB) -> None:
        self.memory_mb = memory_mb
        self.start_mb = min(memory_mb, start_mb)
        self.table = self.value_table(ENTRY_WORDS)
        self._proofs: np.ndarray | None = None
        self.arena = np.full((A_ROWS, ARENA), 0, np.int64)
        self.scratch = np.zeros((X_ROWS, SORT_KEYS + 1), np.int64)
        self.scratch[X_MINR] = NONE  # see mark_answers
        self.facts = np.zeros((FACTS, F_COLUMNS), np.int64)
        self.ws = workspace()
        self.winners = np.zeros((2 * WINNER_SLOTS, WINNER_COLUMNS), np.int64)  # two sets

    @property
    def stats(self) -> np.ndarray:
        return self.scratch[X_STATS]

    def value_table(self, words: int) -> np.ndarray:
        """A value table of entries of ``words`` words, its first rows (those a question
        starts with) touched now."""
        return new_table(self.memory_mb, words, table_entries(self.start_mb, words))

    @property
    def start_entries(self) -> int:
        """The value table's rows in use when a question starts."""
        return table_entries(self.start_mb, self.table.shape[1])

    def proofs(self) -> np.ndarray:
        """The proof-number search's table, half the size of the value table's first
        rows (a bigger one measured no better), made when a position first needs it."""
        if self._proofs is None:
            self._proofs = new_table(self.start_mb / 2, PROOF_WORDS)
        return self._proofs

    def wipe(self) -> None:
        """Mark every table entry and hand fact empty (when the questions' numbers run
        out)."""
        wipe(self.table)
        if self._proofs is not None:
            wipe(self._proofs)
        self.facts[:, F_GENERATION] = 0

    def context(self, players: int, rules: np.ndarray, deadline: float) -> Context:
        return Context(
            players,
            rules,
            self.table,
            self.arena,
            self.scratch,
            self.facts,
            self.ws,
            self.winners,
            deadline,
        )


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


def _record_interrupt(signum: int, frame: object) -> None:
    """The search's Ctrl-C handler."""
    _INTERRUPT["pressed"] = True


@contextmanager
def _interruptible() -> Iterator[None]:
    """Run a search with Ctrl-C recorded instead of raised inside the kernel (where it
    would surface as a SystemError), then raise it as a KeyboardInterrupt.

    The handler goes in and out through ``_signal``: :func:`signal.signal` converts
    every handler to an enum and back, which cost 11 us of a small question's 38 us."""
    if threading.current_thread() is not threading.main_thread() or (
        _signal.getsignal(signal.SIGINT) is not signal.default_int_handler
    ):
        yield
        return
    _INTERRUPT["pressed"] = False
    _signal.signal(signal.SIGINT, _record_interrupt)
    try:
        yield
    finally:
        _signal.signal(signal.SIGINT, signal.default_int_handler)
    if _INTERRUPT["pressed"]:
        _INTERRUPT["pressed"] = False
        raise KeyboardInterrupt


@kernel
def _hand(node, player):
    """The packed hand of a player of the node."""
    if player == 0:
        return node.hand0
    if player == 1:
        return node.hand1
    return node.hand2 if player == 2 else node.hand3


@kernel
def _seat(turn, players):
    """The seat ``turn`` turns after seat 0, for a turn below ``2 * players`` (a
    subtraction: a modulo costs a division). The third player after the mover is read
    only with four players, where that always holds."""
    return turn - players if turn >= players else turn


@kernel
def _info(node):
    """The word of a node's key that is not hands: mover, table owner, table play, goal."""
    return (
        node.mover
        | (node.owner << 2 if node.table else 0)
        | node.table << 4
        | node.goal << GOAL_SHIFT
    )


@kernel
def search_root(node, ctx):
    """:func:`search` from a node whose table key is still to be worked out."""
    key = table_key(node.hand0, node.hand1, node.hand2, node.hand3, _info(node), _entries(ctx))
    return search(node, key, ctx)


@kernel
def search(node, key, ctx):
    """The value of a node for the landlord's side: WIN, LOSS or UNKNOWN (a limit).

    ``key`` is the node's table key, worked out by the caller with those of the other
    moves. One recursive function with one type signature: numba's on-disk cache is
    only safe for recursion of that form.
    """
    stats = ctx.scratch[X_STATS]
    nodes = stats[C_NODES] + 1
    seen = np.int64(0)  # never: only the proof-number search comes back (typed: one signature)
    known, n, wholes = _open(node, key, nodes, np.int64(3), seen, ctx)
    if n == 0:
        return known
    generation = stats[C_GENERATION]
    mover = node.mover
    mine = WIN if mover == 0 else LOSS  # the mover's side winning
    base = stats[C_TOP]
    arena = ctx.arena
    stats[C_TOP] = base + 3 * n  # the moves, then their children's keys
    players = ctx.players
    hand = _hand(node, mover)
    # a child the table already knows to be a win for the mover settles the node
    value = mine if _known_child(node, mine, base, n, ctx) == mine else 1 - mine
    at = base
    for i in range(base, base + n if value != mine else base):
        child = _child(node, players, arena, i)
        v = _without_node(node, child, hand, arena[A_CARDS, i], arena[A_METAS, i], wholes, players)
        if v == UNKNOWN:
            v = search(child, _child_key(arena, i + n, n, players), ctx)
        if v == UNKNOWN or v == mine:
            value = v
            at = i
            break
    stats[C_TOP] = base
    if value == UNKNOWN:
        return UNKNOWN
    if at > base and _cards_in_play(node) >= MEMO_FROM:  # a winner that was not first
        situation = _depth_first_situation(node)
        remember_winner(ctx.winners, hand, situation, arena[A_CARDS, at], arena[A_METAS, at])
        stats[C_REMEMBERED] = 1
    store(key, value, stats[C_NODES] - nodes + 1, ctx.tt, generation)
    return value


@kernel
def prove_root(node, ctx, pt, leaf):
    """:func:`prove` from a node whose table key is still to be worked out, until it is
    proved or disproved (or a limit stops it): WIN, LOSS or UNKNOWN."""
    key = table_key(node.hand0, node.hand1, node.hand2, node.hand3, _info(node), _entries(ctx))
    infinite = np.int64(INFINITE)  # (a bare INFINITE would compile prove once more)
    numbers = prove(node, key, infinite, infinite, np.int64(0), ctx, pt, leaf)
    if ctx.scratch[X_STATS, C_ABORT]:
        return UNKNOWN
    mine = WIN if node.mover == 0 else LOSS
    return mine if numbers == PROVED else 1 - mine


@kernel
def prove(node, key, proof_limit, disproof_limit, seen, ctx, pt, leaf):
    """Depth-first proof-number search (df-pn) of a node: its numbers word (the proof
    number of a win for the mover's side, and the disproof number; see
    :mod:`solver.table`), searched until one reaches its limit or the node is settled.

    A node of ``leaf`` cards or fewer is settled by :func:`search`. Settled
    nodes go to the value table, open ones with their numbers to the proof table
    ``pt``. The moves' numbers are kept in the arena (rows cards and metas of columns
    ``i + 3n``, as they count for the mover: towards his proof and his disproof; row keys
    marks a move after which his own side moves). ``seen`` (nonzero) says that the node
    was opened before: it has numbers, so its quick checks found nothing then."""
    stats = ctx.scratch[X_STATS]
    generation = stats[C_GENERATION]
    mine = WIN if node.mover == 0 else LOSS
    if _cards_in_play(node) <= leaf:
        v = search(node, key, ctx)
        if v == UNKNOWN:
            return STOPPED
        return PROVED if v == mine else DISPROVED
    nodes = stats[C_NODES] + 1
    known, n, wholes = _open(node, key, nodes, np.int64(4), seen, ctx)
    if n == 0:
        return STOPPED if known == UNKNOWN else (PROVED if known == mine else DISPROVED)
    tt = ctx.tt
    base = stats[C_TOP]
    arena = ctx.arena
    stats[C_TOP] = base + 4 * n
    players = ctx.players
    hand, situation = _hand(node, node.mover), _situation(node)
    winner_first(ctx.winners, hand, situation, base, n, arena)
    won = _open_moves(node, mine, base, n, wholes, ctx, pt, leaf)
    proof = disproof = 0
    while not won:
        proof, second, best, widest, still_open = INFINITE, INFINITE, base, 0, 0
        for i in range(base, base + n):  # the best move, the runner-up's number
            a = arena[A_CARDS, i + 3 * n]
            if a < proof:
                proof, second, best = a, proof, i
            elif a < second:
                second = a
            b = arena[A_METAS, i + 3 * n]
            if b:
                widest = max(widest, b)
                still_open += 1
        # the disproof number, weak: the widest move's, plus one for each other move not
        # yet disproved (a sum would count the positions that moves share again and
        # again, and grows with every level of a deep tree)
        disproof = min(INFINITE - 1, widest + still_open - 1) if still_open else 0
        if proof == 0 or proof >= proof_limit or disproof >= disproof_limit or stats[C_ABORT]:
            break
        c = best + 3 * n
        # the best move's limits: until it is no longer the best (with room to spare: the
        # "1 + epsilon" of Pawlewicz and Lew, so that two close moves do not seesaw), or
        # the node's disproof number reaches its limit, which it does when this move's
        # reaches the limit less one for each other open move (and at least one more
        # than it has: a capped number never leaves the move without room)
        limit_a = min(proof_limit, second + (second >> EPSILON_SHIFT) + 1)
        limit_b = max(disproof_limit - (still_open - 1), arena[A_METAS, c] + 1)
        child = _child(node, players, arena, best)
        k = _child_key(arena, best + n, n, players)
        own = arena[A_KEYS, c] & OWN != 0
        opened = arena[A_KEYS, c] & SEEN
        if own:
            numbers = prove(child, k, limit_a, limit_b, opened, ctx, pt, leaf)
        else:
            numbers = prove(child, k, limit_b, limit_a, opened, ctx, pt, leaf)
        _keep_numbers(arena, c, numbers, own)
        arena[A_KEYS, c] |= SEEN
    stats[C_TOP] = base
    if stats[C_ABORT]:
        return STOPPED
    work = stats[C_NODES] - nodes + 1
    if not won and proof == 0:
        remember_winner(ctx.winners, hand, situation, arena[A_CARDS, best], arena[A_METAS, best])
    if won or proof == 0:
        store(key, mine, work, tt, generation)
        return PROVED
    if disproof == 0:
        store(key, 1 - mine, work, tt, generation)
        return DISPROVED
    store_numbers(key, proof | disproof << NUMBER_BITS, work, pt, generation)
    return proof | disproof << NUMBER_BITS


@kernel
def _open_moves(node, mine, base, n, wholes, ctx, pt, leaf):
    """Whether a move of the mover's is known to win for him; if none is, each move's
    numbers for the mover in the arena (see :func:`prove`): settled, as the proof table
    has them, or guessed from the move's place in the order and the room of the player
    to move after it (a free lead: about as many moves as cards). The moves' keys go to
    the arena as for :func:`_known_child`, and the lookups go in passes over all the
    moves, their buckets in both tables asked of memory as the keys are worked out. A
    move to a position of ``leaf`` cards or fewer, which the depth-first search settles,
    is never looked for in the proof table: only open positions of the proof-number
    search have numbers there."""
    arena, tt = ctx.arena, ctx.tt
    generation = ctx.scratch[X_STATS, C_GENERATION]
    players, entries = ctx.players, _entries(ctx)
    hand = _hand(node, node.mover)
    for i in range(base, base + n):
        c, j = i + 3 * n, i + n
        child = _child(node, players, arena, i)
        k = table_key(child.hand0, child.hand1, child.hand2, child.hand3, _info(child), entries)
        arena[A_CARDS, j], arena[A_METAS, j], arena[A_KEYS, j] = k.hand0, k.hand1, k.hand2
        arena[A_CARDS, j + n], arena[A_METAS, j + n], arena[A_KEYS, j + n] = (
            k.info,
            k.bucket,
            k.hand3,
        )
        fetch_ahead(k, tt)
        deep = _cards_in_play(child) > leaf
        if deep:
            fetch_ahead(k, pt)
        own = (child.mover == 0) == (node.mover == 0)
        v = _without_node(node, child, hand, arena[A_CARDS, i], arena[A_METAS, i], wholes, players)
        if v == mine:
            return True
        arena[A_KEYS, c] = OWN if own else 0
        if v != UNKNOWN:
            arena[A_CARDS, c], arena[A_METAS, c] = INFINITE, 0
            continue
        arena[A_KEYS, c] |= (OPEN | DEEP) if deep else OPEN
        later = PLACE_WEIGHT * (i - base)
        room = size_of(_hand(child, child.mover)) if child.table == 0 else 2
        if own:
            arena[A_CARDS, c], arena[A_METAS, c] = 1 + later, room
        else:
            arena[A_CARDS, c], arena[A_METAS, c] = room + later, 1
    for i in range(base, base + n):
        c = i + 3 * n
        if arena[A_KEYS, c] & OPEN:
            v = probe(_child_key(arena, i + n, n, players), tt, generation)
            if v == mine:
                return True
            if v != UNKNOWN:
                arena[A_KEYS, c] ^= OPEN
                arena[A_CARDS, c], arena[A_METAS, c] = INFINITE, 0
    for i in range(base, base + n):
        c = i + 3 * n
        flags = arena[A_KEYS, c]
        arena[A_KEYS, c] = flags & OWN
        if flags & OPEN and flags & DEEP:
            numbers = probe_numbers(_child_key(arena, i + n, n, players), pt, generation)
            if numbers != 0:
                _keep_numbers(arena, c, numbers, flags & OWN != 0)
                arena[A_KEYS, c] |= SEEN
    return False


@kernel
def _keep_numbers(arena, c, numbers, own):
    """Keep a move's numbers in column ``c`` of the arena as they count for the mover:
    his side's numbers as they are, his opponents' swapped."""
    proof, disproof = numbers & NUMBER_MASK, numbers >> NUMBER_BITS
    if own:
        arena[A_CARDS, c], arena[A_METAS, c] = proof, disproof
    else:
        arena[A_CARDS, c], arena[A_METAS, c] = disproof, proof


@kernel
def _situation(node):
    """The word a winning move is remembered under with the mover's hand: the table
    play, its owner (none on a free lead) and the mover."""
    owner = node.owner if node.table != 0 else 0
    return node.table | owner << 32 | node.mover << 36


@kernel
def _depth_first_situation(node):
    """The word the depth-first search remembers a winner under: the situation with the
    node's goal (what wins for one goal need not for another), in the memo's second set
    of slots."""
    return _situation(node) | DEPTH_FIRST | node.goal << (DEPTH_FIRST_SHIFT + 1)


@kernel
def _cards_in_play(node):
    """The cards in all the node's hands."""
    return size_of(node.hand0 + node.hand1 + node.hand2 + node.hand3)


@kernel
def _open(node, key, nodes, columns, seen, ctx):
    """Count and open the node ``nodes`` (its table key ``key``): ``(value, 0, 0)`` when
    its goal is settled, the table knows its value or an exact quick result settles it
    (stored, then); ``(UNKNOWN, 0, 0)`` when a limit stops the search or the move stack
    (``columns`` arena columns a move) is full; else ``(UNKNOWN, n, wholes)`` with its
    ``n`` moves in the arena (see :func:`_expand`; a node ``seen`` before skips the quick
    checks)."""
    stats = ctx.scratch[X_STATS]
    if _stopped(stats, nodes, ctx.deadline):
        return UNKNOWN, 0, 0
    if node.goal != PLAIN:
        done = settled(node.goal, node.hand0, node.hand1, node.hand2)
        if done != UNKNOWN:
            return done, 0, 0
    generation = stats[C_GENERATION]
    if nodes & TIME_CHECK == 0:
        _grow_if_outgrown(stats, nodes, ctx.tt)
    known = probe(key, ctx.tt, generation)
    if known != UNKNOWN:
        stats[C_HITS] += 1
        return known, 0, 0
    base = stats[C_TOP]
    if base + columns * MAX_MOVES + 1 > ctx.arena.shape[1]:
        stats[C_ABORT] = ABORT_ARENA
        return UNKNOWN, 0, 0
    n, wholes = _expand(node, base, seen == 0, ctx)
    if n == NO_ROOM:
        stats[C_ABORT] = ABORT_ARENA
        return UNKNOWN, 0, 0
    if n < 0:
        mine = WIN if node.mover == 0 else LOSS
        value = mine if n == QUICK_WIN else 1 - mine
        store(key, value, stats[C_NODES] - nodes + 1, ctx.tt, generation)
        return value, 0, 0
    if columns == 3 and _cards_in_play(node) >= MEMO_FROM:  # depth first
        situation = _depth_first_situation(node)
        winner_first(ctx.winners, _hand(node, node.mover), situation, base, n, ctx.arena)
    return UNKNOWN, n, wholes


@kernel
def _grow_if_outgrown(stats, nodes, tt):
    """Double the value table's rows in use once the search's ``nodes`` pass
    :data:`GROW_AFTER` times their number, while the table has more."""
    entries = stats[C_ENTRIES]
    if nodes > GROW_AFTER * entries and entries < tt.shape[0]:
        grow(tt, entries, stats[C_GENERATION])
        stats[C_ENTRIES] = 2 * entries


@kernel
def _entries(ctx):
    """The value table's rows in use: what table keys file positions among."""
    return ctx.scratch[X_STATS, C_ENTRIES]


@kernel
def _stopped(stats, nodes, deadline):
    """Count the node ``nodes``; whether a limit (nodes, the clock) or an earlier stop
    ends the search (``stats[C_ABORT]`` says which)."""
    stats[C_NODES] = nodes
    limit = stats[C_NODE_LIMIT]
    if limit and nodes > limit:
        stats[C_ABORT] = ABORT_NODES
    elif nodes & TIME_CHECK == 0 and _deadline_passed(deadline):
        stats[C_ABORT] = ABORT_TIME
    return stats[C_ABORT] != 0


@kernel
def _without_node(node, child, hand, play, meta, wholes, players):
    """The value of a move that needs no node of its own, else UNKNOWN: the mover goes
    out (the game's end), or the next to move goes out at once."""
    mover = node.mover
    if play == hand:
        return out_value(node.goal, mover, meta)
    if child.mover != mover:
        steps = child.mover - mover  # turns after the mover
        steps += players if steps < 0 else 0
        whole = (wholes >> (WHOLE_BITS * (steps - 1))) & WHOLE_MASK
        if whole and (child.table == 0 or beats(whole, child.table)):
            theirs = WIN if child.mover == 0 else LOSS
            if out_value(child.goal, child.mover, whole) == theirs:  # his side's best
                return theirs
    return UNKNOWN


@kernel
def _known_child(node, mine, base, n, ctx):
    """``mine`` if the table knows a move of the mover's to win for him, else UNKNOWN.

    Every child's table key goes to the arena above the moves (the key of the child of
    move ``i`` in column ``i + n``, rows cards, metas and keys; its info word, its
    bucket and its fourth hand in column ``i + 2n``), for the search to pass on. They
    are worked out in batches before the lookups, which then do not wait on each
    other."""
    arena, tt, entries = ctx.arena, ctx.tt, _entries(ctx)
    generation = ctx.scratch[X_STATS, C_GENERATION]
    for start in range(base, base + n, BATCH):
        stop = min(start + BATCH, base + n)
        for i in range(start, stop):
            child = _child(node, ctx.players, arena, i)
            key = table_key(
                child.hand0, child.hand1, child.hand2, child.hand3, _info(child), entries
            )
            j = i + n
            arena[A_CARDS, j], arena[A_METAS, j], arena[A_KEYS, j] = key.hand0, key.hand1, key.hand2
            arena[A_CARDS, j + n] = key.info
            arena[A_METAS, j + n] = key.bucket
            fetch_ahead(key, tt)
            if ctx.players == 4:  # (only then: a store here slows the lookups below)
                arena[A_KEYS, j + n] = key.hand3
        for j in range(start + n, stop + n):
            if probe(_child_key(arena, j, n, ctx.players), tt, generation) == mine:
                return mine
    return UNKNOWN


@kernel
def _child_key(arena, j, n, players):
    """The key :func:`_known_child` left in column ``j`` of the arena (and ``j + n``;
    the fourth hand only with four players)."""
    return Key(
        arena[A_CARDS, j],
        arena[A_METAS, j],
        arena[A_KEYS, j],
        arena[A_CARDS, j + n],
        arena[A_METAS, j + n],
        arena[A_KEYS, j + n] if players == 4 else 0,
    )


@kernel
def _child(node, players, arena, i):
    """The node after the mover's ``i``-th move in the arena. A pass clears the table
    when the turn reaches its owner; after a play, the players who cannot answer it pass
    at once (they cost no node)."""
    play = arena[A_CARDS, i]
    mover = node.mover
    nxt = mover + 1 if mover + 1 < players else 0
    if play == 0:
        table = 0 if nxt == node.owner else node.table
        return Node(
            node.hand0, node.hand1, node.hand2, nxt, table, node.owner, node.goal, node.hand3
        )
    child_mover = nxt
    cannot = arena[A_KEYS, i]
    while cannot & 1 and child_mover != mover:
        child_mover = child_mover + 1 if child_mover + 1 < players else 0
        cannot >>= 1
    child_table = 0 if child_mover == mover else arena[A_METAS, i]  # all passed: a new lead
    return Node(
        node.hand0 - play if mover == 0 else node.hand0,
        node.hand1 - play if mover == 1 else node.hand1,
        node.hand2 - play if mover == 2 else node.hand2,
        child_mover,
        child_table,
        mover,
        goal_after(node.goal, mover, arena[A_METAS, i]),
        node.hand3 - play if mover == 3 else node.hand3,
    )


@kernel
def _expand(node, base, fresh, ctx):
    """Write the mover's moves, ordered, to the arena from ``base`` on; return how many
    (or QUICK_WIN / QUICK_LOSS when an exact quick check settles the node for the
    mover, NO_ROOM when his moves do not fit), and the whole hands of the (up to three)
    players after him as one play each (0: none).

    Kept apart from the recursive :func:`search`, so that the recursion stays small. A
    node opened before (not ``fresh``: the proof-number search comes back to its nodes)
    skips the quick checks, which found nothing then and would find nothing now.
    """
    h0, h1, h2 = node.hand0, node.hand1, node.hand2
    mover, table, players = node.mover, node.table, ctx.players
    rules, arena, scratch, facts, ws = ctx.rules, ctx.arena, ctx.scratch, ctx.facts, ctx.ws
    hand = _hand(node, mover)
    generation = scratch[X_STATS, C_GENERATION]
    # 1. the whole hand in one play
    counts = scratch[X_COUNTS]
    busy = np.int64(-1)  # (a bare -1 would compile _facts_row once more for it)
    whole = facts[_facts_row(hand, counts, rules, facts, generation, busy, busy), F_WHOLE]
    _unpack(hand, counts)
    goal = node.goal
    mine = WIN if mover == 0 else LOSS
    goes_out = fresh and whole and (table == 0 or beats(whole, table))
    if goes_out and out_value(goal, mover, whole) == mine:
        return QUICK_WIN, 0
    if fresh and goal == PLAIN:
        if players <= 3:
            shut = _last_card(node, base, ctx)
        else:
            shut = _shut_out(node, base, ctx)
        if shut != UNKNOWN:
            return QUICK_WIN if shut == mine else QUICK_LOSS, 0
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
    if n == OVERFLOW:
        return NO_ROOM, 0
    # 3. the facts of every other player's hand, each in a row of its own
    first = _seat(mover + 1, players)  # the players after the mover
    second = _seat(mover + 2, players)
    third = _seat(mover + 3, players)
    other = scratch[X_OTHER]
    row_first = _facts_row(_hand(node, first), other, rules, facts, generation, busy, busy)
    row_second = row_third = row_first
    if players >= 3:
        row_second = _facts_row(
            _hand(node, second), other, rules, facts, generation, row_first, busy
        )
    if players == 4:
        row_third = _facts_row(
            _hand(node, third), other, rules, facts, generation, row_first, row_second
        )
    whole_first, whole_second = facts[row_first, F_WHOLE], facts[row_second, F_WHOLE]
    whole_third = facts[row_third, F_WHOLE]
    opponents = _opponent_rows(node, row_first, row_second, row_third, players)
    # 4. on a free lead, a spring against the opponents (the partner simply passes): a
    # win, when winning is enough; the table of unbeatable ranks is kept while the
    # opponents' hands are unchanged
    one_card = players == 2 and size_of(h1 if mover == 0 else h0) == 1
    enough = wins_enough(goal, mover)
    spring_counts = spring_doubles(goal, mover)  # a spring is one doubling he needs
    if fresh and table == 0 and (enough or spring_counts or (one_card and needs_win(goal, mover))):
        springable = _spring_table(node, opponents, ctx)
        sprung = clean = False  # clean: no opponent ever plays
        if springable:
            sprung = clean = spring_search(hand, n, cards, metas, base, ws) > 0
            if not sprung:
                sprung = _spring_after_taking_back(hand, node, players, n, base, ctx)
        if sprung and enough:
            return QUICK_WIN, 0
        if spring_counts:
            decided = spring_decides(goal, clean, h0, h1, h2)
            if decided != UNKNOWN:
                return QUICK_WIN if decided == WIN else QUICK_LOSS, 0
        if one_card and not sprung and needs_win(goal, mover):
            # one card left to the opponent: he goes out on any play he can beat, so the
            # spring just tried was the mover's only way to win, and his side must win
            return QUICK_LOSS, 0
    # answering, a play no opponent can beat and then a spring: a win, when winning is
    # enough
    if fresh and table != 0 and enough:
        small = _cards_in_play(node) <= PROOF_LEAF
        if _spring_after_control(hand, node, counts, n, base, small, opponents, ctx):
            return QUICK_WIN, 0
    # after the spring tries, which need every kicker
    if kinds & DOMINATED:
        partners = one = two = three = np.int64(0)  # (typed: one signature)
        for seat in range(players):
            if seat == mover:
                continue
            if seat != 0 and mover != 0:  # a partner
                partners |= held_ranks(_hand(node, seat))
            else:
                held = widths_held(_hand(node, seat))
                one, two, three = one | held[0], two | held[1], three | held[2]
        n = drop_dominated(hand, partners, (one, two, three), table, base, n, cards, metas)
    if table != 0:  # passing is a move too
        cards[base + n] = 0
        metas[base + n] = 0
        n += 1
    # 5. who after the mover cannot answer each play (bit k: the k-th player after him):
    # such a player must pass, and the search skips him
    best_first, best_second, best_third = facts[row_first], facts[row_second], facts[row_third]
    for i in range(base, base + n):
        m = metas[i]
        cannot = 0
        if m != 0:
            cannot = 0 if _answerable(best_first, m) else 1
            if players >= 3 and not _answerable(best_second, m):
                cannot |= 2
            if players == 4 and not _answerable(best_third, m):
                cannot |= 4
        arena[A_KEYS, i] = cannot
    # 6. ordered
    partner_owns = table != 0 and mover != 0 and node.owner != 0
    # the mover's opponents among the players after him, as bits like ``cannot``'s
    opponents = (1 << (players - 1)) - 1 if mover == 0 else 1 << (players - 1 - mover)
    free, has_pass, by_key = table == 0, table != 0, scratch[X_BY_KEY]
    plain, chain_ties = goal == PLAIN, players == 2
    order_moves(
        base, n, hand, free, has_pass, partner_owns, plain, chain_ties, opponents, arena, by_key
    )
    if bombs_first(goal, mover):
        doublings_first(base, n, arena)
    return n, whole_first | whole_second << WHOLE_BITS | whole_third << (2 * WHOLE_BITS)


@kernel
def _opponent_rows(node, row_first, row_second, row_third, players):
    """The facts rows of the mover's opponents, three (repeated where he has fewer),
    from those of the players after him: every peasant for the landlord, the landlord
    for a peasant."""
    if node.mover == 0:
        return row_first, row_second, row_third
    first, second = _seat(node.mover + 1, players), _seat(node.mover + 2, players)
    row = row_first if first == 0 else (row_second if second == 0 else row_third)
    return row, row, row


@kernel
def _spring_table(node, opponents, ctx):
    """Whether the mover's opponents can be sprung at all (they hold no rocket); their
    best ranks then go to ``ws[W_THR]`` and their spring table to ``ws[W_MINR]``, which
    are kept while their hands are unchanged. ``opponents`` are their facts rows (see
    :func:`_opponent_rows`)."""
    ws, memo = ctx.ws, ctx.scratch[X_SPRING]
    row_a, row_b, row_c = opponents
    if node.mover == 0:
        key_a, key_b, key_c = node.hand1, node.hand2, node.hand3
    else:
        key_a = key_b = key_c = node.hand0
    opponents_changed = memo[M_OPPONENT_A] != key_a or memo[M_OPPONENT_B] != key_b
    if opponents_changed or memo[M_OPPONENT_C] != key_c:
        memo[M_OPPONENT_A], memo[M_OPPONENT_B], memo[M_OPPONENT_C] = key_a, key_b, key_c
        thr, facts = ws[W_THR], ctx.facts
        one, two, three = facts[row_a], facts[row_b], facts[row_c]
        for i in range(TABLE_SIZE):
            thr[i] = max(one[i], two[i], three[i])
        memo[M_SAFE] = safe_minimum(thr, ws[W_MINR])
    return memo[M_SAFE] != 0


@kernel
def _spring_after_control(hand, node, counts, n, base, small, opponents, ctx):
    """Whether the mover can answer the table play with one of his ``n`` answers (in the
    arena from ``base``) that no opponent can beat, and then spring with the rest (or
    spring after taking the lead back): his partner passes, and he leads what is left.

    In a ``small`` position (the depth-first search's), where the test would cost more
    time than the nodes it saves, only rests of at most :data:`SHORT_REST` plays (as
    :func:`solver.ordering.plays_needed` counts them) are tried. ``counts`` holds his
    hand; his leads are written above the answers for the spring search. Whether an
    opponent can beat an answer is read from their facts rows (``opponents``, see
    :func:`_opponent_rows`); their spring table (:func:`_spring_table`) is made only
    for a rest worth a spring search, since their hands change at almost every answer."""
    arena, facts = ctx.arena, ctx.facts
    cards, metas = arena[A_CARDS], arena[A_METAS]
    row_a, row_b, row_c = opponents
    one, two, three = facts[row_a], facts[row_b], facts[row_c]
    leads_at = count = -1
    for i in range(base, base + n):
        m = metas[i]
        if _answerable(one, m) or _answerable(two, m) or _answerable(three, m):
            continue
        rest = hand - cards[i]
        if rest == 0:  # he goes out (read otherwise than as his whole hand's one play)
            return True
        if small and plays_needed(rest) > SHORT_REST:
            continue
        if leads_at < 0:
            if not _spring_table(node, opponents, ctx):
                return False
            leads_at = base + n
            zero = ctx.scratch[X_ZERO]
            kinds = np.int64(ALL_KINDS)  # (typed as at the other call: one signature)
            count = gen_moves(counts, ctx.rules, zero, kinds, cards, metas, leads_at)
            if count == OVERFLOW:
                return False
            spring_plays(count, metas, cards, leads_at, ctx.ws)
        if spring_from(rest, count, cards, leads_at, ctx.ws) > 0:
            return True
        if _spring_after_taking_back(rest, node, ctx.players, count, leads_at, ctx):
            return True
    return False


@kernel
def _spring_after_taking_back(hand, node, players, n, base, ctx):
    """Whether the mover can lead his lowest pairs and singles one at a time (up to
    :data:`TAKE_BACK` of them), take the lead back after each with a pair (single)
    above every one his opponents hold if they beat it, and then spring. The spring is
    searched over the plays of his hand that :func:`solver.spring.spring_plays` marked
    last (``n`` of them in the arena from ``base``).

    Exact when the opponents hold no bomb or rocket (nothing else beats his top plays)
    and none of them can go out meanwhile: each plays at most once a round, so it is
    enough that every one of them holds more cards than a pair a round and a single a
    round take. The spring is then tried on what is left after all those plays, which
    holds either way (if nobody beats a low play, its top one is just one more
    unbeatable play). ``ws[W_THR]`` holds the opponents' best ranks, ``ws[W_MINR]``
    their spring table (see _expand). (Up to three low plays rather than one: 11% fewer
    nodes on random positions of 24-32 cards, 12% on a whole deal of the growth list.)"""
    thr = ctx.ws[W_THR]
    if _holds_bomb(thr):
        return False
    if node.mover == 0:
        fewest = size_of(node.hand1)
        if players >= 3:
            fewest = min(fewest, size_of(node.hand2))
        if players == 4:
            fewest = min(fewest, size_of(node.hand3))
    else:
        fewest = size_of(node.hand0)
    one, two = np.int64(1), np.int64(2)  # (typed: one signature)
    for pairs in range(TAKE_BACK + 1):
        if fewest <= 2 * pairs:
            break
        taken = _lows_and_tops(hand, two, pairs, thr[PAIR * 16 + 1])
        if taken < 0:
            break
        for singles in range(0 if pairs else 1, TAKE_BACK + 1 - pairs):  # one low play or more
            if fewest <= 2 * pairs + singles:
                break
            also = _lows_and_tops(hand - taken, one, singles, thr[SINGLE * 16 + 1])
            if also < 0:
                break
            rest = hand - taken - also
            if rest == 0 or spring_from(rest, n, ctx.arena[A_CARDS], base, ctx.ws) > 0:
                return True
    return False


@kernel
def _shut_out(node, base, ctx):
    """WIN when the peasants are shut out, LOSS when the landlord is, else UNKNOWN.

    A side is shut out when it must play a single before its last play (every player
    of it: :func:`_needs_single`), holds no bomb or rocket, and one player of the
    other side holds a single above all of its singles and can spring with the rest
    of his hand (:func:`_takes_and_springs`). Whatever is on the table and whoever is
    to move, that player passes until a player of the shut side plays a single (his
    partners pass too), which is never that player's last card; he beats it with his
    top single, which nobody can beat, and springs. The shut side cannot go out first,
    since it plays a single first, and he acts on that single before the lead can come
    back to its player. (On a free lead of his own, he springs at once.) ``base`` is
    where the arena is free for the moves of a hand. Asked of four players: of two or
    three, :func:`_last_card` settles all this does and more."""
    players, facts, scratch = ctx.players, ctx.facts, ctx.scratch
    generation, other = scratch[X_STATS, C_GENERATION], scratch[X_OTHER]
    busy = np.int64(-1)  # (typed as at the other calls: one signature)
    landlord, landlord_bombs = _other_side(node, np.int64(1), ctx)
    peasants, peasants_bombs = _other_side(node, np.int64(0), ctx)
    if not peasants_bombs and landlord[0] > peasants[0]:
        if _takes_and_springs(node.hand0, landlord[0], peasants):
            shut = True
            for seat in range(1, players):
                shut = shut and _needs_single(_hand(node, seat), np.int64(NONE), base, ctx)
            if shut:
                return WIN
    if landlord_bombs:
        return UNKNOWN
    for seat in range(1, players):
        hand = _hand(node, seat)
        row = _facts_row(hand, other, ctx.rules, facts, generation, busy, busy)
        top = facts[row, SINGLE * 16 + 1]
        if top > landlord[0] and _takes_and_springs(hand, top, landlord):
            return LOSS if _needs_single(node.hand0, np.int64(NONE), base, ctx) else UNKNOWN
    return UNKNOWN


@kernel
def _last_card(node, base, ctx):
    """WIN when the landlord's side wins, LOSS when it loses, as the deciding card of a
    player of two or three says (:func:`_deciding_card`: his one card, or his highest
    when he can go out after it), else UNKNOWN. ``base`` is where the arena is free
    for the moves of a hand.

    A peasant whose deciding card is ``c`` wins when the landlord must play a single
    under ``c`` before his last play (:func:`_needs_single`): that single is never the
    landlord's last card, and the peasant beats it with ``c`` and goes out before the
    lead comes back (his partner passes). The landlord whose deciding card is ``c``
    wins when neither peasant can go out first. The peasant seated before him cannot
    when he must play a single under ``c`` before his last play: the landlord beats it
    at once. Nor can his partner when he must play more such singles before his last
    play than that peasant can cover (:func:`_covers`), or than he has chances to lead
    (:func:`_locked_out`): a low single that nobody covers the landlord beats. Whatever
    is on the table and whoever is to move.
    """
    players = ctx.players
    for seat in range(1, players):
        c = _deciding_card(node, seat, ctx)
        if c >= 0 and _needs_single(node.hand0, c, base, ctx):
            return LOSS
    c = _deciding_card(node, np.int64(0), ctx)  # (typed as in the loop: one signature)
    if c < 0 or not _needs_single(_hand(node, players - 1), c, base, ctx):
        return UNKNOWN
    if players == 2:
        return WIN
    if _locked_out(node, c):
        return WIN
    covers = _covers(node.hand2, c)
    if covers == 0:
        return WIN if _needs_single(node.hand1, c, base, ctx) else UNKNOWN
    glance, once = _singles_at_a_glance(node.hand1, c)
    return WIN if glance == SINGLES_NEEDED and once >= covers + 2 else UNKNOWN


@kernel
def _deciding_card(node, seat, ctx):
    """The rank of the card of the player in ``seat`` that decides as if it were his only
    one, or -1: his one card; or his highest, where no opponent holds a higher card or
    a bomb, and he can play out the rest after it with at most one play they can beat,
    the last (:func:`_takes_and_springs`): once he plays a single, he plays that card
    and then the rest."""
    hand = _hand(node, seat)
    if size_of(hand) == 1:
        return lowest_rank(hand)
    top = NUM_RANKS - 1
    while hand >> (4 * top) == 0:
        top -= 1
    for opponent in range(ctx.players):
        if (opponent == 0) != (seat == 0) and _hand(node, opponent) >> (4 * (top + 1)) != 0:
            return -1
    their, bombs = _other_side(node, seat, ctx)
    return top if not bombs and _takes_and_springs(hand, top, their) else -1


@kernel
def _other_side(node, seat, ctx):
    """The best single, pair and trio (-1: none) of the side against the player in
    ``seat``, and whether it holds a bomb or the rocket."""
    other, busy = ctx.scratch[X_OTHER], np.int64(-1)
    generation, facts = ctx.scratch[X_STATS, C_GENERATION], ctx.facts
    single, pair, trio = np.int64(-1), np.int64(-1), np.int64(-1)
    bombs = False
    for opponent in range(ctx.players):
        if (opponent == 0) != (seat == 0):
            row = _facts_row(_hand(node, opponent), other, ctx.rules, facts, generation, busy, busy)
            best = _best_plain(facts[row])
            single, pair, trio = max(single, best[0]), max(pair, best[1]), max(trio, best[2])
            bombs = bombs or _holds_bomb(facts[row])
    return (single, pair, trio), bombs


@kernel
def _locked_out(node, below):
    """Whether peasant 1 of three, against a landlord who wins once a single under rank
    ``below`` reaches him, can never play out his hand while his partner must play such
    a single before his last play: he holds no trio, no chain and not both jokers, and
    more singles under ``below`` than he has chances to lead.

    Every such single he plays is a lead (or, once, an answer to the play on the
    table): all else that reaches him is a single of that rank or above (his partner
    never plays a lower one, which the landlord would beat at once) or a play the
    landlord cannot beat, and his low single beats neither. After each, his partner must
    take the lead from it, and he leads again only after beating one of his partner's
    plays: a single, with a card above ``below``; or a pair, with a pair. So his chances
    are those cards and pairs, and one more when he moves or owns the table play."""
    hand = node.hand1
    if chain_ranks(hand) or hand & JOKERS == JOKERS:
        return False
    if ranks_thrice(hand):
        return False
    up_to = (np.int64(1) << (4 * below + 4)) - 1  # the fields up to rank ``below``
    singles, pairs = hand & ~(hand >> 1) & RANK_LOWS, (hand >> 1) & RANK_LOWS
    lows = size_of(singles & (up_to >> 4))
    chances = size_of(hand >> (4 * below + 4)) + size_of(pairs & up_to)
    leads = node.mover == 1 or (node.table != 0 and node.owner == 1)
    return lows > chances + leads


@kernel
def _covers(hand, below):
    """The most singles under rank ``below`` that ``hand`` can beat with plays that a
    single of that rank cannot: its cards of that rank or above, and its bombs."""
    covers = 0
    for r in range(NUM_RANKS):
        c = (hand >> (4 * r)) & 15
        covers += c if r >= below else c >= 4
    return covers


@kernel
def _best_plain(best):
    """The best single, pair and trio of a hand whose best ranks are ``best`` (-1: none)."""
    return best[SINGLE * 16 + 1], best[PAIR * 16 + 1], best[TRIO * 16 + 1]


@kernel
def _holds_bomb(best):
    """Whether a hand whose best ranks are ``best`` holds a bomb or the rocket."""
    return best[BOMB * 16 + 1] >= 0 or best[ROCKET * 16 + 1] >= 0


@kernel
def _takes_and_springs(hand, top, their):
    """Whether ``hand`` can play out what is left after one card of rank ``top`` with
    at most one play that the other side (no bomb, no rocket; its best single, pair and
    trio ``their``) can beat, the last: each rank as one play of all its cards (a pair,
    a trio, a bomb), or as singles where it is not under their best single."""
    their_single, their_pair, their_trio = their
    rest = hand - (np.int64(1) << (4 * top))
    beatable = 0
    for r in range(their_single):
        c = (rest >> (4 * r)) & 15
        if c == 1 or r >= BLACK_JOKER:  # (a joker twice is no pair)
            beatable += c
        elif c == 2:
            beatable += r < their_pair
        elif c == 3:
            beatable += r < their_trio
    return beatable <= 1


@kernel
def _singles_at_a_glance(hand, below):
    """Of the singles under rank ``below`` (NONE: all) that ``hand`` plays: SINGLES_SPARED
    when it holds at most one such rank once (and no joker twice: no pair),
    SINGLES_NEEDED when it holds two such ranks or more once and nothing that could
    take a single along (a trio or more, five ranks in a row, the two jokers), else
    SINGLES_UNKNOWN."""
    once = many = np.int64(0)
    for r in range(NUM_RANKS):
        c = (hand >> (4 * r)) & 15
        once += c == 1 and r < below
        many |= c >= 3
    black, red = (hand >> (4 * BLACK_JOKER)) & 15, (hand >> (4 * RED_JOKER)) & 15
    if once <= 1:
        jokers_twice = black > 1 or red > 1
        return (SINGLES_UNKNOWN if jokers_twice else SINGLES_SPARED), once
    both_jokers = black > 0 and red > 0
    taken_along = many or single_runs(hand) or both_jokers
    return (SINGLES_UNKNOWN if taken_along else SINGLES_NEEDED), once


@kernel
def _needs_single(hand, below, base, ctx):
    """Whether every way of playing out ``hand`` has two singles or more of ranks under
    ``below`` (NONE: any), so that it plays such a single before its last play: at a
    glance at its counts (:func:`_singles_at_a_glance`), else by the spring search with
    only those singles beatable (its moves go to the arena from ``base`` on), kept with
    the hand's facts for that rank and those it tells of: a hand that needs such singles
    needs them under every higher rank, and one that does not, under no lower one."""
    glance = _singles_at_a_glance(hand, below)[0]
    if glance != SINGLES_UNKNOWN:
        return glance == SINGLES_NEEDED
    scratch, facts = ctx.scratch, ctx.facts
    other, busy = scratch[X_OTHER], np.int64(-1)
    generation = scratch[X_STATS, C_GENERATION]
    row = _facts_row(hand, other, ctx.rules, facts, generation, busy, busy)
    if facts[row, F_WHOLE] != 0:
        return False
    known = (facts[row, F_SINGLES] >> (SINGLES_BITS * below)) & SINGLES_MASK
    if known != SINGLES_UNKNOWN:
        return known == SINGLES_NEEDED
    _unpack(hand, other)
    cards, metas = ctx.arena[A_CARDS], ctx.arena[A_METAS]
    kinds = np.int64(ALL_KINDS)  # (typed as at the other calls: one signature)
    n = gen_moves(other, ctx.rules, scratch[X_ZERO], kinds, cards, metas, base)
    spring = plays_with_one_single(hand, n, cards, metas, base, ctx.ws, below)
    needed = n != OVERFLOW and not spring
    told = facts[row, F_SINGLES]
    for rank in range(below, NONE + 1) if needed else range(below + 1):
        shift = SINGLES_BITS * rank
        if (told >> shift) & SINGLES_MASK == SINGLES_UNKNOWN:
            told |= (SINGLES_NEEDED if needed else SINGLES_SPARED) << shift
    facts[row, F_SINGLES] = told
    return needed


@kernel
def _lows_and_tops(hand, width, rounds, best):
    """The cards of the ``rounds`` lowest and the ``rounds`` highest plays of ``width``
    cards of one rank (a rank held twice as many times gives two): the low plays, and
    the plays that take the lead back after them. -1 when there are not so many, when a
    top play is not above ``best`` (the opponents' best of its shape), when the lowest
    play is not below it (then none needs taking back), or when a rank would be both."""
    if rounds == 0:
        return np.int64(0)
    lows = np.int64(0)
    lowest = -1
    found = 0
    for r in range(NUM_RANKS):
        plays = min(((hand >> (4 * r)) & 15) // width, rounds - found)
        if plays:
            lows += plays * width << (4 * r)
            found += plays
            lowest = r if lowest < 0 else lowest
            if found == rounds:
                break
    tops = np.int64(0)
    found = 0
    for r in range(NUM_RANKS - 1, best, -1):
        plays = min(((hand >> (4 * r)) & 15) // width, rounds - found)
        tops += plays * width << (4 * r)
        found += plays
        if found == rounds:
            break
    if found < rounds or lowest >= best or held_ranks(lows) & held_ranks(tops):
        return np.int64(-1)
    return lows + tops


@kernel
def _facts_row(hand, counts, rules, facts, generation, busy, also_busy):
    """The row of ``facts`` that holds the facts of ``hand`` for this question, made now
    (with ``counts`` as scratch) if it was not there; never row ``busy`` or ``also_busy``.

    Hands come back again and again in a search (a player's hand is unchanged while the
    others play), so most of them are found here rather than worked out."""
    row = (fold(hand) * 0x2545F491 >> 20) & (facts.shape[0] - 1)
    if facts[row, F_HAND] == hand and facts[row, F_GENERATION] == generation:
        return row
    if row == busy or row == also_busy:
        row ^= 1
        if row == busy or row == also_busy:
            row ^= 3
        if facts[row, F_HAND] == hand and facts[row, F_GENERATION] == generation:
            return row
    _unpack(hand, counts)
    best = facts[row]
    best[:TABLE_SIZE] = -1
    best_ranks(counts, rules, best)
    best[F_HAND] = hand
    best[F_WHOLE] = classify(counts, rules)
    best[F_GENERATION] = generation
    best[F_SINGLES] = SINGLES_UNKNOWN
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
    if kind == BOMB:  # a longer bomb, or a higher one of its length
        length = meta >> 8
        for longer in range(length + 1, BOMB_LENGTHS + 1):
            if thr[BOMB * 16 + longer] >= 0:
                return True
        return thr[BOMB * 16 + length] > rank
    return thr[BOMB * 16 + 1] >= 0 or thr[kind * 16 + (meta >> 8)] > rank


@dataclass
class SearchStats:
    """What a search cost."""

    nodes: int = 0
    hits: int = 0
    seconds: float = 0.0
    aborted: str | None = None


#: How a :class:`Searcher` searches: "auto" (depth first; from :data:`PROOF_FROM` cards in
#: play, the proof-number search), "depth-first" alone, or "proof-number" alone (depth
#: first at :data:`PROOF_LEAF` cards or fewer).
STRATEGIES = ("auto", "depth-first", "proof-number")


class Searcher:
    """Evaluates positions of one question after another with one transposition table."""

    def __init__(
        self,
        memory_mb: float = DEFAULT_MEMORY_MB,
        time_limit: float | None = None,
        node_limit: int | None = None,
        strategy: str = "auto",
        start_mb: float = START_MB,
    ) -> None:
        if strategy not in STRATEGIES:
            raise ValueError(f"unknown search strategy {strategy!r}: expected one of {STRATEGIES}")
        self.strategy = strategy
        #: the proof-number search's leaves: positions of at most this many cards, searched
        #: depth first (0 in tests: the proof-number search down to the game's end)
        self.proof_leaf = PROOF_LEAF
        self.memory_mb = memory_mb
        self.buffers = Buffers(memory_mb, start_mb)
        self._entries = self.buffers.start_entries  # the table's rows in use (see GROW_AFTER)
        _deadline_passed(0.0)  # its first call sets up object mode (about 40 ms): not mid-search
        self.time_limit = time_limit
        self.node_limit = node_limit or 0
        self.stats = SearchStats()
        self._rules: RuleSet | None = None
        self._rules_array = np.zeros(0, np.int64)  # the kernels' reading of _rules
        self._generation = 0
        self._deadline = float("inf")
        self._remembered = False  # whether the depth-first memo holds this question's winners

    @property
    def table_rows(self) -> int:
        """The value table's rows the question uses now: the first ones, doubled as its
        searches outgrow them (see :data:`GROW_AFTER`)."""
        return self._entries

    def start(self, rules: RuleSet) -> None:
        """Begin a new question: a table whose old entries no longer count (so that node
        counts never depend on what was asked before), fresh counters, and the clock.

        Entries carry the number of their question; the table is wiped only when the
        numbers run out."""
        self._generation += 1
        words = WIDE_ENTRY_WORDS if rules.players == 4 else ENTRY_WORDS
        if self.buffers.table.shape[1] != words:  # four hands need a wider entry
            self.buffers.table = self.buffers.value_table(words)
        self._entries = self.buffers.start_entries
        if self._generation > GENERATIONS:
            self.buffers.wipe()
            self._generation = 1
        if self._remembered:  # a question's winners are no other question's
            self.buffers.winners[WINNER_SLOTS:] = 0
            self._remembered = False
        self._rules = rules
        self._rules_array = rules.array()
        self.stats = SearchStats()
        self._started = time.perf_counter()
        limit = self.time_limit
        self._deadline = self._started + limit if limit else float("inf")

    def value(self, pos: Position, goal: int = PLAIN) -> int:
        """WIN or LOSS for the landlord's side, or UNKNOWN when a limit stopped the search:
        whether it wins, or meets ``goal`` (:mod:`solver.goal`)."""
        if self._rules != pos.rules:
            self.start(pos.rules)
        done = pos.winner
        if done is not None:
            if goal != PLAIN:
                raise ValueError("a finished hand's goal is met or not by its stake alone")
            return done
        if time.perf_counter() > self._deadline:
            self.stats.aborted = "time limit"
            return UNKNOWN
        h = [pack(x) for x in pos.hands] + [0] * (4 - pos.players)
        node = Node(
            h[0],
            h[1],
            h[2],
            pos.to_move,
            pos.table.meta if pos.table else 0,
            pos.owner if pos.owner is not None else 0,
            goal,
            h[3],
        )
        ctx = self.buffers.context(pos.players, self._rules_array, self._deadline)
        with _interruptible():
            if self.by_proof_numbers(pos):
                self.buffers.winners[:] = 0  # another position's winning moves
                leaf = np.int64(self.proof_leaf)
                return self._run(prove_root, node, ctx, self.buffers.proofs(), leaf)
            return self._run(search_root, node, ctx)

    def known(self, pos: Position, goal: int = PLAIN) -> int:
        """What the table (or an exact quick result) already holds of ``pos`` (under
        ``goal``): WIN, LOSS or UNKNOWN, from looks that open at most one position each
        and count no nodes. After a proof-number search, which settles few of a lead's
        many moves, this finds the move it proved without searching the others.

        The search lets a player who cannot beat the play on the table pass at once,
        without a position of his own, so what it holds of such a position it holds
        of the one after his pass: the looks go on past such passes."""
        limit = self.node_limit
        nodes, hits, aborted = self.stats.nodes, self.stats.hits, self.stats.aborted
        try:
            while True:
                self.node_limit = nodes + 1
                self.stats.nodes, self.stats.hits, self.stats.aborted = nodes, hits, aborted
                value = self.value(pos, goal)
                if value != UNKNOWN or not self._must_pass(pos):
                    return value
                pos = pos.after(None)
        finally:
            self.node_limit = limit
            self.stats.nodes, self.stats.hits, self.stats.aborted = nodes, hits, aborted

    @staticmethod
    def _must_pass(pos: Position) -> bool:
        """Whether the mover cannot beat the play on the table (the game not over)."""
        if pos.table is None or pos.winner is not None:
            return False
        return not follows(pos.hands[pos.to_move], pos.table, pos.rules)

    def by_proof_numbers(self, pos: Position) -> bool:
        """Whether this searcher gives ``pos`` to the proof-number search."""
        if self.strategy == "auto":
            return sum(sum(h) for h in pos.hands) >= PROOF_FROM
        return self.strategy == "proof-number"

    def _run(self, search_kernel: Callable, *args: object) -> int:
        """One search kernel from the root within the limits left, its counts added to
        the stats: its value."""
        if self.node_limit and self.stats.nodes >= self.node_limit:
            self.stats.aborted = "node limit"
            return UNKNOWN
        stats = self.buffers.stats
        stats[:] = 0
        self.buffers.scratch[X_SPRING] = 0  # the spring memo of another position's search
        stats[C_GENERATION] = self._generation
        stats[C_ENTRIES] = self._entries
        stats[C_NODE_LIMIT] = self.node_limit - self.stats.nodes if self.node_limit else 0
        v = search_kernel(*args)
        self._remembered |= bool(stats[C_REMEMBERED])
        self._entries = int(stats[C_ENTRIES])  # grown, for the question's next searches
        self.stats.nodes += int(stats[C_NODES])
        self.stats.hits += int(stats[C_HITS])
        self.stats.seconds = time.perf_counter() - self._started
        if v == UNKNOWN:
            self.stats.aborted = {
                ABORT_NODES: "node limit",
                ABORT_TIME: "time limit",
                ABORT_ARENA: "move stack full",
            }[int(stats[C_ABORT])]
        return int(v)

    def moves(self, pos: Position) -> list[Move | None]:
        """The mover's legal moves (None is a pass): longer plays first, a pass last."""
        hand = pos.hands[pos.to_move]
        plays = leads(hand, pos.rules) if pos.table is None else follows(hand, pos.table, pos.rules)
        plays.sort(key=lambda m: -sum(m.cards))
        return plays if pos.table is None else [*plays, None]
