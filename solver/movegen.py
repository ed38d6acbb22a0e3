"""Move generation over rank-count vectors (numba kernels) and its Python face.

One generator serves every purpose. It takes a *minimum-rank table* ``minr`` indexed by
``kind * 16 + length`` and emits every play of that kind and length whose main rank is at
least the entry (16 means "none of this shape"):

* a free lead is the all-zero table;
* the answers to a play on the table come from :func:`follow_table`.

A second mask argument names the kinds worth looking at, so that answering a single
does not walk the chains. :func:`best_ranks` gives, for every shape at once, the best
rank a hand can play in it: whether a play can be beaten, without generating anything.

Plays are written to two parallel buffers: the cards packed four bits a rank (see
:mod:`solver.cards`) and the meta ``kind | rank << 4 | length << 8`` (see
:mod:`solver.rules`). The generator writes at most :data:`MAX_MOVES` plays and never past
a buffer's end; a hand with more plays gets :data:`OVERFLOW` instead of a count. (Every
hand of the classic game has at most 13,530 plays, the whole deck's number, so it never
overflows there.)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .cards import ACE, BLACK_JOKER, LETTERS, NUM_RANKS, RED_JOKER, Hand, format_hand, unpack
from .errors import RuleError
from .jit import kernel
from .rules import (
    BOMB,
    CHAIN,
    CLASSIC,
    KIND_NAMES,
    NUM_KINDS,
    PAIR,
    PAIR_CHAIN,
    PLANE,
    PLANE_PAIRS,
    PLANE_SINGLES,
    QUAD_PAIRS,
    QUAD_SINGLES,
    R_BANS,
    R_BOMB_MAX,
    R_ROCKET,
    ROCKET,
    SINGLE,
    TRIO,
    TRIO_PAIR,
    TRIO_SINGLE,
    RuleSet,
    rule_set,
)

MAX_MOVES = 16384
OVERFLOW = -1  # what the generator returns for a hand with more than MAX_MOVES plays
TABLE_SIZE = 256  # kind * 16 + length
NONE = 16  # a minimum rank above every rank: no play of that shape
MIN_LINKS = (0, 5, 3, 2)  # shortest chain of singles, pairs, trios
CHAIN_KIND = (0, CHAIN, PAIR_CHAIN, PLANE)
GROUP_KIND = (0, SINGLE, PAIR, TRIO, BOMB, BOMB, BOMB, BOMB, BOMB)  # n cards of one rank
BOMB_LENGTHS = 5  # a bomb's length is its cards beyond three: 1 (four cards) to 5 (eight)
KICKED_KINDS = ((TRIO_SINGLE, TRIO_PAIR), (QUAD_SINGLES, QUAD_PAIRS))  # on a trio, a quad
ALL_KINDS = (1 << NUM_KINDS) - 2  # kinds 1..14
RANK_LOWS = 0x111111111111111  # the lowest bit of each of the 15 rank fields
GROUP_KINDS = sum(1 << k for k in (SINGLE, PAIR, TRIO, BOMB, *KICKED_KINDS[0], *KICKED_KINDS[1]))
PLANE_KICKED = 1 << PLANE_SINGLES | 1 << PLANE_PAIRS


@kernel
def doubles(meta):
    """Whether the play ``meta`` doubles the stake: a bomb or the rocket."""
    kind = meta & 15
    return kind == BOMB or kind == ROCKET


@kernel
def size_of(packed):
    """The number of cards in a packed hand: its nibbles summed in parallel."""
    x = (packed & 0x0F0F0F0F0F0F0F0F) + ((packed >> 4) & 0x0F0F0F0F0F0F0F0F)
    x += x >> 8
    x += x >> 16
    x += x >> 32
    return x & 0xFF


@kernel
def ranks_held(packed):
    """The ranks a packed hand holds cards of, one bit a rank at the low bit of its
    field."""
    return (packed | packed >> 1 | packed >> 2 | packed >> 3) & RANK_LOWS


@kernel
def ranks_twice(packed):
    """The ranks a packed hand holds two cards of or more, one bit a rank at the low bit
    of its field."""
    return (packed >> 1 | packed >> 2 | packed >> 3) & RANK_LOWS


@kernel
def ranks_thrice(packed):
    """The ranks a packed hand holds three cards of or more, one bit a rank at the low
    bit of its field."""
    return (packed >> 2 | packed >> 3 | (packed >> 1) & packed) & RANK_LOWS


@kernel
def _emit(out_cards, out_meta, n, cards, meta, end):
    """Write one play at ``n`` if it is before ``end``; count it either way."""
    if n < end:
        out_cards[n] = cards
        out_meta[n] = meta
    return n + 1


@kernel
def _kickers(h, kinds, minr, meta, lo, hi, main, out_cards, out_meta, n, end):
    """Emit ``main`` with every legal set of kickers for the play ``meta`` describes.

    Kickers are singles or pairs (by kind), one per trio of a plane and two for a quad,
    from distinct ranks outside ``lo..hi``, and never both jokers (nor BB and RR).
    """
    kind = meta & 15
    length = meta >> 8
    if not (kinds >> kind) & 1 or (meta >> 4) & 15 < minr[kind * 16 + length]:
        return n
    width = 2 if kind == TRIO_PAIR or kind == QUAD_PAIRS or kind == PLANE_PAIRS else 1
    count = length if kind == PLANE_SINGLES or kind == PLANE_PAIRS else 1 + (kind >= QUAD_SINGLES)
    cand = 0  # the candidate ranks, four bits each (no array: no allocation)
    c = 0
    for r in range(NUM_RANKS):
        if (r < lo or r > hi) and h[r] >= width:
            cand |= r << (4 * c)
            c += 1
    if c < count:
        return n
    both = 0  # the bit pattern of "both jokers" among the candidates, if present
    if (
        c >= 2
        and (cand >> (4 * (c - 2))) & 15 == BLACK_JOKER
        and (cand >> (4 * (c - 1))) == RED_JOKER
    ):
        both = (1 << (c - 2)) | (1 << (c - 1))
    mask = (1 << count) - 1
    while mask < (1 << c):
        if both == 0 or (mask & both) != both:
            cards = main
            m = mask
            i = 0
            while m:
                if m & 1:
                    cards += width << (4 * ((cand >> (4 * i)) & 15))
                m >>= 1
                i += 1
            n = _emit(out_cards, out_meta, n, cards, meta, end)
        # next subset of the same size (Gosper's hack)
        low = mask & -mask
        ripple = mask + low
        mask = ripple | (((mask ^ ripple) >> 2) // low)
    return n


@kernel
def gen_moves(h, rules, minr, kinds, out_cards, out_meta, at):
    """Write every play from hand ``h`` allowed by ``minr`` from index ``at`` of the
    buffers on; return how many, or OVERFLOW when there are more than MAX_MOVES or the
    buffers end first (what did not fit is not written).

    ``kinds`` is a bit mask of the kinds worth looking at (bit ``k`` for kind ``k``):
    :data:`ALL_KINDS` for a lead, a handful when answering a play. (An offset rather
    than a slice: a slice is an array object, counted in and out at every call.)
    """
    kinds &= ~rules[R_BANS]
    n = at
    end = min(at + MAX_MOVES, out_cards.shape[0], out_meta.shape[0])
    biggest = rules[R_BOMB_MAX]
    total = 0
    for r in range(NUM_RANKS):
        total += h[r]
    # groups of one rank: single, pair, trio, bomb and what hangs on trios and quads
    if kinds & GROUP_KINDS:
        for r in range(NUM_RANKS):
            one = r << 4 | 1 << 8  # main rank r, length 1
            for size in range(1, min(h[r], biggest) + 1):
                kind = GROUP_KIND[size]
                length = size - 3 if kind == BOMB else 1
                main = size << (4 * r)
                if (kinds >> kind) & 1 and r >= minr[kind * 16 + length]:
                    n = _emit(out_cards, out_meta, n, main, kind | r << 4 | length << 8, end)
                if size == 3 or size == 4:
                    for kicked in KICKED_KINDS[size - 3]:
                        n = _kickers(
                            h, kinds, minr, kicked | one, r, r, main, out_cards, out_meta, n, end
                        )
    jokers = rules[R_ROCKET]
    if h[BLACK_JOKER] >= jokers and h[RED_JOKER] >= jokers:
        if (kinds >> ROCKET) & 1 and minr[ROCKET * 16 + 1] <= RED_JOKER:
            cards = (jokers << (4 * BLACK_JOKER)) | (jokers << (4 * RED_JOKER))
            n = _emit(out_cards, out_meta, n, cards, ROCKET | RED_JOKER << 4 | 1 << 8, end)
    # chains of singles, pairs and trios, with the kickers of planes
    for width in range(1, 4):
        kind = CHAIN_KIND[width]
        if not (kinds >> kind) & 1 and not (width == 3 and kinds & PLANE_KICKED):
            continue
        for lo in range(ACE + 1):
            cards = 0
            for hi in range(lo, ACE + 1):
                if h[hi] < width:
                    break
                cards += width << (4 * hi)
                links = hi - lo + 1
                if links < MIN_LINKS[width]:
                    continue
                top = hi << 4 | links << 8
                if (kinds >> kind) & 1 and hi >= minr[kind * 16 + links]:
                    n = _emit(out_cards, out_meta, n, cards, kind | top, end)
                if width == 3 and total >= 4 * links:
                    for plane in (PLANE_SINGLES, PLANE_PAIRS):
                        n = _kickers(
                            h, kinds, minr, plane | top, lo, hi, cards, out_cards, out_meta, n, end
                        )
    return n - at if n <= end else OVERFLOW


@kernel
def follow_table(table, minr):
    """Fill ``minr`` so that the generator yields exactly the plays that beat ``table``;
    return the mask of the kinds that can."""
    minr[:TABLE_SIZE] = NONE
    return mark_answers(table, minr)


@kernel
def mark_answers(table, minr):
    """:func:`follow_table` for a ``minr`` that is all NONE already: only the entries
    that can beat ``table`` are set (its shape's, the rocket's and the bombs'), and
    :func:`unmark_answers` puts them back. For callers that answer many plays with one
    table."""
    kind = table & 15
    rank = (table >> 4) & 15
    if kind == ROCKET:
        return 0
    minr[ROCKET * 16 + 1] = 0
    longer = 1  # bombs of this length or more beat the table whatever their rank
    if kind == BOMB:
        longer = (table >> 8) + 1
    minr[kind * 16 + (table >> 8)] = rank + 1
    for length in range(longer, BOMB_LENGTHS + 1):
        minr[BOMB * 16 + length] = 0
    if kind == BOMB:
        return 1 << BOMB | 1 << ROCKET
    return 1 << kind | 1 << BOMB | 1 << ROCKET


@kernel
def unmark_answers(table, minr):
    """Undo :func:`mark_answers`: ``minr`` all NONE again."""
    minr[ROCKET * 16 + 1] = NONE
    for length in range(1, BOMB_LENGTHS + 1):
        minr[BOMB * 16 + length] = NONE
    minr[(table & 15) * 16 + (table >> 8)] = NONE


@kernel
def beats(meta, table):
    """Whether a play (its meta) beats the play on the table (its meta).

    Same kind and length with a higher main rank; or a bomb over a non-bomb, a shorter
    bomb or a lower one of its length; or the rocket. A quad + two is no bomb: any bomb
    beats it.
    """
    kind = meta & 15
    tkind = table & 15
    if kind == ROCKET:
        return True
    if tkind == ROCKET:
        return False
    if kind == BOMB:
        return tkind != BOMB or meta >> 4 > table >> 4  # length, then rank
    if tkind == BOMB:
        return False
    # same kind (bits 0-3) and length (bits 8+), higher rank (bits 4-7)
    return (meta & ~0xF0) == (table & ~0xF0) and (meta >> 4) & 15 > (table >> 4) & 15


@kernel
def classify(h, rules):
    """The meta of one legal reading of exactly the cards ``h``, or 0 if there is none."""
    bans = rules[R_BANS]
    total = 0
    distinct = 0
    lo = -1
    hi = -1
    # how many ranks hold exactly 1, 2, 3, 4 cards (packed, a byte each: no allocation),
    # and the highest rank holding 3 and 4; more than four of a rank is a bomb or nothing
    mult = 0
    top3 = top4 = -1
    many = False
    for r in range(NUM_RANKS):
        c = h[r]
        if c:
            total += c
            distinct += 1
            if lo < 0:
                lo = r
            hi = r
            if c <= 4:
                mult += 1 << (8 * (c - 1))
            else:
                many = True
            if c == 3:
                top3 = r
            elif c == 4:
                top4 = r
    ones, twos, threes, fours = mult & 255, (mult >> 8) & 255, (mult >> 16) & 255, mult >> 24
    if total == 0:
        return 0
    if distinct == 1:
        kind = GROUP_KIND[total] if total <= rules[R_BOMB_MAX] else 0
        if kind and not (bans >> kind) & 1:
            return kind | lo << 4 | (total - 3 if kind == BOMB else 1) << 8
    jokers = rules[R_ROCKET]
    if (
        total == 2 * jokers
        and h[BLACK_JOKER] == jokers
        and h[RED_JOKER] == jokers
        and not (bans >> ROCKET) & 1
    ):
        return ROCKET | RED_JOKER << 4 | 1 << 8
    if many or (h[BLACK_JOKER] == 2 and h[RED_JOKER] == 2):  # all four jokers: the rocket only
        return 0
    if distinct == 2 and threes == 1 and ones == 1 and not (bans >> TRIO_SINGLE) & 1:
        return TRIO_SINGLE | top3 << 4 | 1 << 8
    if distinct == 2 and threes == 1 and twos == 1 and not (bans >> TRIO_PAIR) & 1:
        return TRIO_PAIR | top3 << 4 | 1 << 8
    if distinct == 3 and fours == 1:
        joker_pair = h[BLACK_JOKER] == 1 and h[RED_JOKER] == 1
        if ones == 2 and not joker_pair and not (bans >> QUAD_SINGLES) & 1:
            return QUAD_SINGLES | top4 << 4 | 1 << 8
        if twos == 2 and not (bans >> QUAD_PAIRS) & 1:
            return QUAD_PAIRS | top4 << 4 | 1 << 8
    # chains: every rank the same count, consecutive, within 3..A
    for width in range(1, 4):
        if (mult >> (8 * (width - 1))) & 255 == distinct and hi <= ACE and hi - lo + 1 == distinct:
            kind = CHAIN_KIND[width]
            if distinct >= MIN_LINKS[width] and not (bans >> kind) & 1:
                return kind | hi << 4 | distinct << 8
    # planes with kickers: try each window of trios of the right length
    for width in range(1, 3):
        kind = PLANE_SINGLES if width == 1 else PLANE_PAIRS
        if total % (3 + width) or (bans >> kind) & 1:
            continue
        links = total // (3 + width)
        if links < 2:
            continue
        for start in range(ACE + 2 - links):
            ok = True
            for r in range(start, start + links):
                if h[r] != 3:
                    ok = False
                    break
            if not ok:
                continue
            for r in range(NUM_RANKS):
                if (r < start or r >= start + links) and h[r] != 0 and h[r] != width:
                    ok = False
                    break
            if ok and not (h[BLACK_JOKER] == width and h[RED_JOKER] == width):
                return kind | (start + links - 1) << 4 | links << 8
    return 0


@kernel
def best_ranks(h, rules, thr):
    """Raise ``thr[kind * 16 + length]`` to the best main rank ``h`` can play in that shape
    (a bomb counts at every length up to its size: six 5s hold bombs of 4, 5 and 6).

    This answers "can this hand beat that play?" for every shape at once, without
    enumerating kickers: only their existence matters.
    """
    bans = rules[R_BANS]
    biggest = rules[R_BOMB_MAX]
    # distinct ranks held, and ranks holding a pair, the jokers counted once (never both
    # kickers)
    any_rank = 0
    pair_ranks = 0
    for r in range(NUM_RANKS):
        if h[r] >= 1 and not (r == RED_JOKER and h[BLACK_JOKER] >= 1):
            any_rank += 1
        if h[r] >= 2 and not (r == RED_JOKER and h[BLACK_JOKER] >= 2):
            pair_ranks += 1
    for r in range(NUM_RANKS):
        c = h[r]
        if c >= 1:
            _raise(thr, bans, SINGLE | r << 4 | 1 << 8)
        if c >= 2:
            _raise(thr, bans, PAIR | r << 4 | 1 << 8)
        if c >= 3:
            _raise(thr, bans, TRIO | r << 4 | 1 << 8)
            if any_rank >= 2:
                _raise(thr, bans, TRIO_SINGLE | r << 4 | 1 << 8)
            if pair_ranks - 1 >= 1:
                _raise(thr, bans, TRIO_PAIR | r << 4 | 1 << 8)
        for size in range(4, min(c, biggest) + 1):
            _raise(thr, bans, BOMB | r << 4 | (size - 3) << 8)
        if c >= 4:
            if any_rank - 1 >= 2:
                _raise(thr, bans, QUAD_SINGLES | r << 4 | 1 << 8)
            if pair_ranks - 1 >= 2:
                _raise(thr, bans, QUAD_PAIRS | r << 4 | 1 << 8)
    if h[BLACK_JOKER] >= rules[R_ROCKET] and h[RED_JOKER] >= rules[R_ROCKET]:
        _raise(thr, bans, ROCKET | RED_JOKER << 4 | 1 << 8)
    for width in range(1, 4):
        run = 0
        for hi in range(ACE + 1):
            run = run + 1 if h[hi] >= width else 0
            for links in range(MIN_LINKS[width], run + 1):
                _raise(thr, bans, CHAIN_KIND[width] | hi << 4 | links << 8)
                # kickers: any other distinct ranks (the chain's ranks all count in the tallies)
                if width == 3 and any_rank - links >= links:
                    _raise(thr, bans, PLANE_SINGLES | hi << 4 | links << 8)
                if width == 3 and pair_ranks - links >= links:
                    _raise(thr, bans, PLANE_PAIRS | hi << 4 | links << 8)


@kernel
def _raise(thr, bans, meta):
    """Record that a play of this meta's shape and main rank can be made."""
    kind = meta & 15
    at = kind * 16 + (meta >> 8)
    if not (bans >> kind) & 1 and thr[at] < (meta >> 4) & 15:
        thr[at] = (meta >> 4) & 15


@dataclass(frozen=True)
class Move:
    """One play: its cards and the combination they are played as."""

    cards: Hand
    kind: str
    rank: int
    length: int

    @property
    def meta(self) -> int:
        """The kernels' integer form of kind, rank and length."""
        return KIND_NAMES.index(self.kind) | self.rank << 4 | self.length << 8

    @classmethod
    def from_kernel(cls, cards: int, meta: int) -> Move:
        return cls(unpack(cards), KIND_NAMES[meta & 15], (meta >> 4) & 15, meta >> 8)

    def beats(self, table: Move) -> bool:
        """Whether this play beats ``table``."""
        return bool(beats(self.meta, table.meta))

    def __str__(self) -> str:
        return format_hand(self.cards)

    def as_dict(self) -> dict[str, str]:
        """The JSON form: cards, kind and main-rank letter."""
        return {"cards": str(self), "kind": self.kind, "rank": LETTERS[self.rank]}


def _run(hand: Hand, rules: RuleSet, minr: np.ndarray, kinds: int) -> list[Move]:
    cards = np.empty(MAX_MOVES, np.int64)
    meta = np.empty(MAX_MOVES, np.int64)
    n = gen_moves(np.array(hand, np.int64), rules.array(), minr, kinds, cards, meta, np.int64(0))
    if n == OVERFLOW:
        raise RuleError(f"hand {format_hand(hand)!r} has more than {MAX_MOVES} plays")
    return [Move.from_kernel(int(c), int(m)) for c, m in zip(cards[:n], meta[:n], strict=True)]


def leads(hand: Hand, rules: RuleSet = CLASSIC) -> list[Move]:
    """Every legal play from ``hand`` on a free lead."""
    return _run(hand, rules, np.zeros(TABLE_SIZE, np.int64), ALL_KINDS)


def follows(hand: Hand, table: Move, rules: RuleSet = CLASSIC) -> list[Move]:
    """Every play from ``hand`` that beats ``table`` (passing is not listed)."""
    minr = np.empty(TABLE_SIZE, np.int64)
    kinds = follow_table(table.meta, minr)
    return _run(hand, rules, minr, kinds)


def readings(cards: Hand, rules: RuleSet = CLASSIC) -> list[Move]:
    """Every way to read exactly these cards as one legal play (often one, maybe none)."""
    return [m for m in leads(cards, rules) if m.cards == tuple(cards)]


def as_play(cards: Hand, rules: RuleSet = CLASSIC) -> Move:
    """The one reading of ``cards`` as a play; :class:`RuleError` if there is none."""
    found = readings(cards, rules)
    if not found:
        raise RuleError(f"{format_hand(cards)!r} {why_no_play(cards, rules)}")
    return found[0]


def why_no_play(cards: Hand, rules: RuleSet) -> str:
    """Why cards that no reading makes a play are none: a kind the game bans, or no
    combination at all."""
    banned = sorted({m.kind for m in readings(cards, rule_set(rules.name))})
    if banned:
        return f"is a {' or '.join(banned)}, which the rules here ban"
    return "is not a legal combination"
