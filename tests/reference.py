"""Slow, obviously-correct pure-Python reference for the classic Dou Dizhu rules.

Tests compare the fast numba solver against this module differentially: every legal
play of a hand, the beating relation, the spring question and small perfect-information
endgames are written here as the plainest enumeration of the rules stated in the
docstring of ``solver/rules.py``, with no cleverness beyond memoization.  Hands are
15-entry rank-count tuples indexed by LETTERS; a play is ``(cards, kind, rank, length)``.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

LETTERS = "3456789TJQKA2BR"
KINDS = frozenset(
    {
        "single",
        "pair",
        "trio",
        "trio+single",
        "trio+pair",
        "chain",
        "pair-chain",
        "plane",
        "plane+singles",
        "plane+pairs",
        "bomb",
        "rocket",
        "quad+singles",
        "quad+pairs",
    }
)
TWO, BLACK, RED = 12, 13, 14  # rank indices of the 2 and the jokers
CHAIN_RANKS = range(12)  # 3..A: the only ranks a chain, pair chain or plane may use

Hand = tuple[int, ...]
Play = tuple[Hand, str, int, int]


def parse(text: str) -> Hand:
    """Parse cards such as ``"10 J-q,2BR"`` into a rank-count tuple."""
    counts = [0] * 15
    i = 0
    while i < len(text):
        ch = text[i].upper()
        if ch.isspace() or ch in ",-":
            i += 1
        elif ch == "1" and text[i + 1 : i + 2] == "0":
            counts[LETTERS.index("T")] += 1
            i += 2
        elif ch in LETTERS:
            counts[LETTERS.index(ch)] += 1
            i += 1
        else:
            raise ValueError(f"bad card {text[i]!r} at position {i} in {text!r}")
    return tuple(counts)


def fmt(counts: Sequence[int]) -> str:
    """Canonical string of a rank-count vector, low to high."""
    return "".join(LETTERS[r] * c for r, c in enumerate(counts))


def _bans(bans: Iterable[str]) -> frozenset[str]:
    bans = frozenset(bans)
    unknown = bans - KINDS
    if unknown:
        raise ValueError(f"unknown kind names in bans: {sorted(unknown)}")
    return bans


def _vec(parts: Iterable[tuple[int, int]]) -> Hand:
    """Rank-count vector from (rank, count) pairs."""
    v = [0] * 15
    for r, c in parts:
        v[r] += c
    return tuple(v)


def _fits(cards: Sequence[int], hand: Sequence[int]) -> bool:
    return all(c <= h for c, h in zip(cards, hand, strict=True))


def _minus(hand: Sequence[int], cards: Sequence[int]) -> Hand:
    return tuple(h - c for h, c in zip(hand, cards, strict=True))


@functools.lru_cache(maxsize=1 << 16)
def _all_plays(hand: Hand, bans: frozenset[str]) -> frozenset[Play]:
    """Every legal play from ``hand`` (straight from the table in solver/rules.py)."""
    out: set[Play] = set()

    def add(kind: str, rank: int, length: int, parts: Iterable[tuple[int, int]]) -> None:
        if kind not in bans:
            out.add((_vec(parts), kind, rank, length))

    # 1 single: any card, jokers included.
    for r in range(15):
        if hand[r] >= 1:
            add("single", r, 1, [(r, 1)])
    # 12 rocket: both jokers.
    if hand[BLACK] >= 1 and hand[RED] >= 1:
        add("rocket", RED, 1, [(BLACK, 1), (RED, 1)])
    for r in range(13):  # jokers never form pairs, trios or quads
        # 2 pair, 3 trio, 4 trio+single, 5 trio+pair.
        if hand[r] >= 2:
            add("pair", r, 1, [(r, 2)])
        if hand[r] >= 3:
            add("trio", r, 1, [(r, 3)])
            for k in range(15):
                if k != r and hand[k] >= 1:
                    add("trio+single", r, 1, [(r, 3), (k, 1)])
            for k in range(13):
                if k != r and hand[k] >= 2:
                    add("trio+pair", r, 1, [(r, 3), (k, 2)])
        # 11 bomb, 13 quad+two (two singles of different ranks, or two pairs of
        # different ranks; kickers of other ranks than the quad; never both jokers).
        if hand[r] >= 4:
            add("bomb", r, 1, [(r, 4)])
            singles = [k for k in range(15) if k != r and hand[k] >= 1]
            for a, b in itertools.combinations(singles, 2):
                if {a, b} != {BLACK, RED}:
                    add("quad+singles", r, 1, [(r, 4), (a, 1), (b, 1)])
            pairs = [k for k in range(13) if k != r and hand[k] >= 2]
            for a, b in itertools.combinations(pairs, 2):
                add("quad+pairs", r, 1, [(r, 4), (a, 2), (b, 2)])
    # 6 chain (5..12 singles), 7 pair chain (3+ pairs), 8-10 planes (2+ trios).
    for kind, lo, hi, body in chain_runs(hand):
        n = hi - lo + 1
        add(kind, hi, n, body)
        if kind != "plane":
            continue
        # Kickers: distinct ranks, none a trio rank of the chain.
        others = [k for k in range(15) if not lo <= k <= hi]
        singles = [k for k in others if hand[k] >= 1]
        for ks in itertools.combinations(singles, n):
            if not (BLACK in ks and RED in ks):
                add("plane+singles", hi, n, body + [(k, 1) for k in ks])
        pairs = [k for k in others if k < BLACK and hand[k] >= 2]
        for ks in itertools.combinations(pairs, n):
            add("plane+pairs", hi, n, body + [(k, 2) for k in ks])
    return frozenset(out)


def chain_runs(hand: Sequence[int]) -> Iterator[tuple[str, int, int, list[tuple[int, int]]]]:
    """Every chain, pair chain and plane (without kickers) the hand holds, as (kind,
    lowest rank, highest rank, [(rank, count), ...]): the same rule in both games."""
    for kind, need, min_len in (("chain", 1, 5), ("pair-chain", 2, 3), ("plane", 3, 2)):
        for lo in CHAIN_RANKS:
            for hi in range(lo, CHAIN_RANKS[-1] + 1):
                if hand[hi] < need:
                    break
                if hi - lo + 1 >= min_len:
                    yield kind, lo, hi, [(x, need) for x in range(lo, hi + 1)]


def plays(hand: Sequence[int], bans: Iterable[str] = frozenset()) -> set[Play]:
    """Every legal play (each distinct reading once) whose cards come from ``hand``."""
    return set(_all_plays(tuple(hand), _bans(bans)))


def readings(cards: Sequence[int], bans: Iterable[str] = frozenset()) -> list[Play]:
    """All readings of exactly ``cards`` as one play (possibly none)."""
    cards = tuple(cards)
    found = [p for p in _all_plays(cards, _bans(bans)) if p[0] == cards]
    return sorted(found, key=lambda p: (p[1], p[2], p[3]))


def beats(play: Play, table: Play) -> bool:
    """True iff ``play`` may be played on top of ``table``."""
    _, kind, rank, length = play
    _, t_kind, t_rank, t_length = table
    if t_kind == "rocket":
        return False  # nothing beats the rocket
    if kind == "rocket":
        return True
    if kind == "bomb":
        return t_kind != "bomb" or rank > t_rank
    return kind == t_kind and length == t_length and rank > t_rank


@functools.lru_cache(maxsize=1 << 12)
def _by_shape(hand: Hand, bans: frozenset[str]) -> dict[tuple[str, int], list[Play]]:
    groups: dict[tuple[str, int], list[Play]] = {}
    for p in _all_plays(hand, bans):
        groups.setdefault((p[1], p[3]), []).append(p)
    return groups


def can_beat(hand: Sequence[int], table: Play, bans: Iterable[str] = frozenset()) -> bool:
    """True iff some play from ``hand`` beats ``table``."""
    groups = _by_shape(tuple(hand), _bans(bans))
    # By beats(), only plays of the table's kind and length, bombs or the rocket can
    # beat it; looking only at those is the same as scanning every play.
    candidates = (
        groups.get((table[1], table[3]), [])
        + groups.get(("bomb", 1), [])
        + groups.get(("rocket", 1), [])
    )
    return any(beats(p, table) for p in candidates)


def _safe(play: Play, p1: Hand, p2: Hand, bans: frozenset[str]) -> bool:
    """A play neither peasant can beat."""
    return not can_beat(p1, play, bans) and not can_beat(p2, play, bans)


def spring(
    landlord: Sequence[int],
    p1: Sequence[int],
    p2: Sequence[int],
    bans: Iterable[str] = frozenset(),
) -> bool:
    """Can the landlord's hand split into legal plays, at most one of them beatable?"""
    bans = _bans(bans)
    landlord, p1, p2 = tuple(landlord), tuple(p1), tuple(p2)
    every = _all_plays(landlord, bans)
    # Card sets with at least one reading that neither peasant can beat, indexed by
    # their lowest rank.
    safe_by_low: dict[int, set[Hand]] = {}
    for p in every:
        if _safe(p, p1, p2, bans):
            low = next(r for r in range(15) if p[0][r])
            safe_by_low.setdefault(low, set()).add(p[0])

    @functools.cache
    def all_safe(rest: Hand) -> bool:
        """``rest`` splits exactly into safe plays (the one holding its lowest card
        is tried first, which loses no split)."""
        if not any(rest):
            return True
        low = next(r for r in range(15) if rest[r])
        return any(_fits(c, rest) and all_safe(_minus(rest, c)) for c in safe_by_low.get(low, ()))

    # The last play may be any legal play (or nothing); the rest must all be safe.
    lasts = {p[0] for p in every} | {(0,) * 15}
    return any(all_safe(_minus(landlord, c)) for c in lasts)


def check_spring_line(
    landlord: Sequence[int],
    p1: Sequence[int],
    p2: Sequence[int],
    line: list[tuple[int, ...]],
    bans: Iterable[str] = frozenset(),
) -> None:
    """Verify a spring witness line; raise AssertionError naming the bad move."""
    bans = _bans(bans)
    p1, p2 = tuple(p1), tuple(p2)
    rest = tuple(landlord)
    if not line:
        raise AssertionError("spring line is empty")
    for i, cards in enumerate(line):
        cards = tuple(cards)
        if len(cards) != 15 or min(cards) < 0 or not any(cards):
            raise AssertionError(f"move {i}: {cards!r} is not a nonempty card vector")
        if not _fits(cards, rest):
            raise AssertionError(f"move {i}: {fmt(cards)} is not in the remaining hand {fmt(rest)}")
        reads = readings(cards, bans)
        if not reads:
            raise AssertionError(f"move {i}: {fmt(cards)} is not a legal play")
        if i < len(line) - 1 and not any(_safe(p, p1, p2, bans) for p in reads):
            raise AssertionError(
                f"move {i}: {fmt(cards)} can be beaten by a peasant under every reading "
                f"({', '.join(p[1] for p in reads)}) but is not the last play"
            )
        rest = _minus(rest, cards)
    if any(rest):
        raise AssertionError(f"line ends after move {len(line) - 1} with {fmt(rest)} still in hand")


def minimax(
    hands: Sequence[Sequence[int]],
    to_move: int,
    table: Play | None,
    table_owner: int | None,
    bans: Iterable[str] = frozenset(),
) -> bool:
    """Open-hand game value: True iff the landlord (player 0) wins against any defence."""
    bans = _bans(bans)
    start = tuple(tuple(h) for h in hands)
    if len(start) not in (2, 3):
        raise ValueError("minimax needs 2 or 3 hands")
    return game_wins(start, to_move, table, table_owner, lambda h: _all_plays(h, bans), beats)


def game_wins(
    start: tuple[Hand, ...],
    to_move: int,
    table: Play | None,
    table_owner: int | None,
    plays_of: Any,
    beats_table: Any,
) -> bool:
    """:func:`minimax` for any game, given its plays and beating relation (the
    four-player reference uses its own): the turn order, passes and who wins are the
    same in every game."""
    n = len(start)
    if not all(any(h) for h in start):
        return not any(start[0])  # already decided: landlord out wins, peasant out loses

    @functools.cache
    def value(hs: tuple[Hand, ...], mover: int, tab: Play | None, owner: int | None) -> bool:
        hand = hs[mover]
        mine = plays_of(hand)
        options = mine if tab is None else [p for p in mine if beats_table(p, tab)]
        # Bigger plays first: only an ordering, so that any()/all() stop early.
        options = sorted(options, key=lambda p: (-sum(p[0]), p[1], p[2], p[3], p[0]))
        nxt = (mover + 1) % n

        def outcomes() -> Iterable[bool]:
            for p in options:
                left = _minus(hand, p[0])
                if not any(left):
                    yield mover == 0
                    continue
                new = hs[:mover] + (left,) + hs[mover + 1 :]
                yield step(new, nxt, p, mover)
            if tab is not None:  # passing is allowed only when something is on the table
                yield step(hs, nxt, tab, owner)

        return any(outcomes()) if mover == 0 else all(outcomes())

    def step(hs: tuple[Hand, ...], mover: int, tab: Play | None, owner: int | None) -> bool:
        if tab is not None and owner == mover:  # everyone else passed: free lead
            tab, owner = None, None
        return value(hs, mover, tab, owner)

    return step(start, to_move, table, table_owner)


def count_deck_plays() -> tuple[int, int]:
    """(distinct plays from the full 54-card deck, how many of them use <= 20 cards)."""
    deck = (4,) * 13 + (1, 1)
    every = _all_plays(deck, frozenset())
    return len(every), sum(1 for p in every if sum(p[0]) <= 20)


def replay(pos: Any, line: Sequence[Any], value: int) -> None:
    """Check a line with the reference rules alone: every move legal, the game over at the
    end, and won by the side the answer names. ``pos`` and the steps of ``line`` are the
    solver's, read through their fields only; ``value`` is 1 when the landlord's side
    wins, 0 when it loses."""
    hands = [list(h) for h in pos.hands]
    table = (
        None
        if pos.table is None
        else (pos.table.cards, pos.table.kind, pos.table.rank, pos.table.length)
    )
    owner, mover = pos.owner, pos.to_move
    bans = pos.rules.bans
    for k, step in enumerate(line):
        assert step.player == mover, f"move {k}: expected player {mover}"
        if step.move is None:
            assert table is not None, f"move {k}: a pass on a free lead"
        else:
            m = step.move
            play = (m.cards, m.kind, m.rank, m.length)
            assert play in plays(tuple(hands[mover]), bans), f"move {k}: not a legal play"
            assert table is None or beats(play, table), f"move {k}: does not beat"
            hands[mover] = [a - b for a, b in zip(hands[mover], m.cards, strict=True)]
            table, owner = play, mover
            if not any(hands[mover]):
                assert k == len(line) - 1, "the line goes on after the game ended"
                assert (mover == 0) == (value == 1), "the wrong side went out"
                return
        mover = (mover + 1) % len(hands)
        if table is not None and mover == owner:
            table = owner = None
    raise AssertionError("the line ends before the game does")


def value_minimax(
    hands: Sequence[Sequence[int]],
    to_move: int,
    table: Play | None,
    table_owner: int | None,
    bombs: int = 0,
    peasants_played: bool = False,
    landlord_plays: int = 0,
    bans: Iterable[str] = frozenset(),
) -> int:
    """Open-hand value of the hand to the landlord per peasant, in units of the bid, when
    each side maximizes its own payoff: 2**d for a landlord win with d doublings, -2**d
    for a loss. Doublings: every bomb and the rocket, the ``bombs`` already played, a
    spring (landlord out, no peasant ever played a card), an anti-spring (a peasant out,
    the landlord made exactly one play)."""
    bans = _bans(bans)
    start = tuple(tuple(h) for h in hands)
    n = len(start)

    @functools.cache
    def value(
        hs: tuple[Hand, ...],
        mover: int,
        tab: Play | None,
        owner: int | None,
        d: int,
        peasants: bool,
        plays: int,
    ) -> int:
        hand = hs[mover]
        options = [p for p in _all_plays(hand, bans) if tab is None or beats(p, tab)]
        nxt = (mover + 1) % n
        results = []
        for p in options:
            left = _minus(hand, p[0])
            d2 = d + (p[1] in ("bomb", "rocket"))
            peasants2 = peasants or mover != 0
            plays2 = plays + (mover == 0)
            if not any(left):
                if mover == 0:
                    results.append(2 ** (d2 + (not peasants2)))
                else:
                    results.append(-(2 ** (d2 + (plays2 == 1))))
                continue
            new = hs[:mover] + (left,) + hs[mover + 1 :]
            results.append(step(new, nxt, p, mover, d2, peasants2, plays2))
        if tab is not None:
            results.append(step(hs, nxt, tab, owner, d, peasants, plays))
        return max(results) if mover == 0 else min(results)

    def step(hs, mover, tab, owner, d, peasants, plays):  # noqa: ANN001, ANN202
        if tab is not None and owner == mover:
            tab, owner = None, None
        return value(hs, mover, tab, owner, d, peasants, plays)

    return step(start, to_move, table, table_owner, bombs, peasants_played, landlord_plays)


def replay_stake(
    pos: Any, line: Sequence[Any], bombs: int, peasants_played: bool, landlord_plays: int
) -> int:
    """The signed multiplier the line ``line`` (the solver's steps, read through their
    fields) ends the hand with, counted from the reference rules alone; the line is
    checked move by move as :func:`replay` does."""
    hands = [list(h) for h in pos.hands]
    for step in line:
        m = step.move
        if m is None:
            continue
        bombs += m.kind in ("bomb", "rocket")
        peasants_played = peasants_played or step.player != 0
        landlord_plays += step.player == 0
        hands[step.player] = [a - b for a, b in zip(hands[step.player], m.cards, strict=True)]
    winner = next(i for i, h in enumerate(hands) if not any(h))
    replay(pos, line, int(winner == 0))
    if winner == 0:
        return 2 ** (bombs + (not peasants_played))
    return -(2 ** (bombs + (landlord_plays == 1)))
