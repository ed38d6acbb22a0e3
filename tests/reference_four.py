"""Slow, obviously-correct pure-Python reference for four-player (double-deck) Dou Dizhu.

Independent of the ``solver`` package: every legal play of a hand, the beating relation,
the spring question and small open-hand endgames are written here as the plainest
enumeration of the rules, with no cleverness beyond memoization.

Rules: two decks (108 cards: eight of each rank 3..2, two black jokers B, two red
jokers R). Hands are 15-entry rank-count tuples indexed by LETTERS (at most 8 of a rank
3..2, at most 2 of each joker); a play is ``(cards, kind, rank, length)``. Kinds:
single; pair (BB and RR are pairs, BR is not); trio (3..2); trio+pair (22/BB/RR allowed
as the pair); chain (5..12 singles within 3..A); pair-chain (3+ pairs within 3..A);
plane (2+ trios within 3..A); plane+pairs (n trios + n pairs of distinct other ranks,
never BB and RR together); bomb (4..8 of a rank 3..2, length = cards - 3); rocket (BBRR,
rank 14). Trio+single, plane+singles and the quad+kicker kinds are not played, and no
play but the rocket holds all four jokers.

Hand-derived play counts (checked by ``__main__``):
  "33333333": single 1 + pair 1 + trio 1 + bombs of 4..8 cards 5 = 8.
  "BBRR": singles B, R 2 + pairs BB, RR 2 + rocket 1 = 5.
  "BR": singles 2 = 2 (BR is neither a pair nor a rocket).
  "34567": singles 5 + chain 1 = 6.
  "33344455": singles 3 + pairs 3 + trios 2 + trio+pair (333 with 44/55, 444 with
    33/55) 4 + plane 333444 1 + pair-chain 334455 1 = 14 (no plane+pairs: it needs
    two kicker ranks besides 3 and 4).
  "3334445566": singles 4 + pairs 4 + trios 2 + trio+pair 3+3 = 6 + plane 1 +
    plane+pairs 333444+5566 1 + pair-chains 3-5, 4-6, 3-6 3 = 21.
  "333444BBRR": singles 4 + pairs 4 + trios 2 + trio+pair (333 with 44/BB/RR, 444 with
    33/BB/RR) 6 + plane 1 + rocket 1 = 18 (333444+BB+RR would hold all four jokers).
  "3333344444": singles 2 + pairs 2 + trios 2 + trio+pair 2 + plane 1 + bombs (4 or 5
    of each rank) 4 = 13.
  Full 108-card deck: single 15, pair 15, trio 13, trio+pair 13*14 = 182,
    chain 8+7+...+1 = 36, pair-chain 10+...+1 = 55, plane 11+...+1 = 66,
    bomb 13*5 = 65, rocket 1, plane+pairs sum over n=2..7 of
    (13-n) * (C(15-n, n) - C(13-n, n-2)) = 847+2100+2646+1568+343+12 = 7516
    (n trio positions times n-subsets of the 15-n other pair ranks, less those holding
    both BB and RR); in all 7964.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterable, Sequence

from reference import _minus, _vec, chain_runs, fmt, game_wins  # notation, game flow, chains

LETTERS = "3456789TJQKA2BR"
KINDS = frozenset(
    {
        "single",
        "pair",
        "trio",
        "trio+pair",
        "chain",
        "pair-chain",
        "plane",
        "plane+pairs",
        "bomb",
        "rocket",
    }
)
UNPLAYED = frozenset({"trio+single", "plane+singles", "quad+singles", "quad+pairs"})
TWO, BLACK, RED = 12, 13, 14  # rank indices of the 2 and the jokers
LIMITS = (8,) * 13 + (2, 2)  # most cards of each rank one hand may hold
DECK: tuple[int, ...] = LIMITS

Hand = tuple[int, ...]
Play = tuple[Hand, str, int, int]
EMPTY: Hand = (0,) * 15


def parse(text: str) -> Hand:
    """Parse cards such as ``"33 T J-Q,2BR"`` ("10" also reads as T) into a count tuple."""
    counts = [0] * 15
    text = text.upper().replace("10", "T")
    for i, ch in enumerate(text):
        if ch.isspace() or ch in ",-":
            continue
        if ch not in LETTERS:
            raise ValueError(f"bad card {ch!r} at position {i} in {text!r}")
        counts[LETTERS.index(ch)] += 1
    return _hand(counts)


def _hand(counts: Sequence[int]) -> Hand:
    """Validate a rank-count vector against the double deck and return it as a tuple."""
    hand = tuple(int(c) for c in counts)
    if len(hand) != 15 or any(not 0 <= c <= m for c, m in zip(hand, LIMITS, strict=True)):
        raise ValueError(f"not a four-player hand: {hand!r}")
    return hand


def _bans(bans: Iterable[str]) -> frozenset[str]:
    bans = frozenset(bans)
    unknown = bans - KINDS - UNPLAYED
    if unknown:
        raise ValueError(f"unknown kind names in bans: {sorted(unknown)}")
    return bans


@functools.lru_cache(maxsize=1 << 16)
def _all_plays(hand: Hand, bans: frozenset[str]) -> frozenset[Play]:
    """Every legal play from ``hand``, kind by kind straight from the rules."""
    out: set[Play] = set()

    def add(kind: str, rank: int, length: int, parts: Iterable[tuple[int, int]]) -> None:
        cards = _vec(parts)
        if cards[BLACK] == 2 and cards[RED] == 2 and kind != "rocket":
            return  # only the rocket may hold all four jokers
        if kind not in bans:
            out.add((cards, kind, rank, length))

    for r in range(15):
        if hand[r] >= 1:
            add("single", r, 1, [(r, 1)])
        if hand[r] >= 2:  # 33..22, BB and RR
            add("pair", r, 1, [(r, 2)])
    if hand[BLACK] == 2 and hand[RED] == 2:
        add("rocket", RED, 1, [(BLACK, 2), (RED, 2)])
    for r in range(TWO + 1):  # trios and bombs: ranks 3..2 only
        if hand[r] >= 3:
            add("trio", r, 1, [(r, 3)])
            for k in range(15):
                if k != r and hand[k] >= 2:
                    add("trio+pair", r, 1, [(r, 3), (k, 2)])
        for size in range(4, hand[r] + 1):
            add("bomb", r, size - 3, [(r, size)])
    for kind, lo, hi, body in chain_runs(hand):
        n = hi - lo + 1
        add(kind, hi, n, body)
        if kind == "plane":  # kickers: n pairs of distinct non-trio ranks
            pairs = [k for k in range(15) if not lo <= k <= hi and hand[k] >= 2]
            for ks in itertools.combinations(pairs, n):
                add("plane+pairs", hi, n, body + [(k, 2) for k in ks])
    return frozenset(out)


def plays(hand: Sequence[int], bans: Iterable[str] = frozenset()) -> set[Play]:
    """Every legal play (each distinct (cards, kind, rank, length) once) from ``hand``."""
    return set(_all_plays(_hand(hand), _bans(bans)))


def beats(play: Play, table: Play) -> bool:
    """True iff ``play`` may be played on top of ``table``."""
    cards, kind, rank, length = play
    t_cards, t_kind, t_rank, t_length = table
    if t_kind == "rocket":
        return False  # the rocket is never beaten
    if kind == "rocket":
        return True
    if kind == "bomb" and t_kind == "bomb":
        return (sum(cards), rank) > (sum(t_cards), t_rank)
    if kind == "bomb":
        return True
    return kind == t_kind and length == t_length and rank > t_rank


def follows(hand: Sequence[int], table: Play, bans: Iterable[str] = frozenset()) -> set[Play]:
    """The plays from ``hand`` that beat ``table``."""
    return {p for p in plays(hand, bans) if beats(p, table)}


@functools.lru_cache(maxsize=1 << 16)
def _can_beat(hand: Hand, table: Play, bans: frozenset[str]) -> bool:
    return any(beats(p, table) for p in _all_plays(hand, bans))


def _safe(play: Play, peasants: Sequence[Hand], bans: frozenset[str]) -> bool:
    """A play no peasant can beat."""
    return not any(_can_beat(h, play, bans) for h in peasants)


def _hands(hands: Sequence[Sequence[int]], least: int, most: int, what: str) -> tuple[Hand, ...]:
    """Validated hands, between ``least`` and ``most`` of them."""
    out = tuple(_hand(h) for h in hands)
    if not least <= len(out) <= most:
        raise ValueError(f"{what} needs {least}..{most} hands")
    return out


def spring(
    landlord: Sequence[int],
    peasants: Sequence[Sequence[int]],
    bans: Iterable[str] = frozenset(),
) -> list[Play] | None:
    """A line playing out the landlord's whole hand from a free lead with every play but
    the last unbeatable by each peasant, or None if there is none."""
    bans = _bans(bans)
    hand, others = _hand(landlord), _hands(peasants, 1, 3, "the spring question")
    if not any(hand):
        return []
    every = _all_plays(hand, bans)
    # One unbeatable play per card set, indexed by its lowest rank.  The order of the
    # unbeatable plays is free (the peasants never play), so only which cards go last
    # matters, and the rest must split into unbeatable plays.
    safe_by_low: dict[int, dict[Hand, Play]] = {}
    for p in sorted(every):
        if _safe(p, others, bans):
            low = next(r for r in range(15) if p[0][r])
            safe_by_low.setdefault(low, {}).setdefault(p[0], p)

    @functools.cache
    def split(rest: Hand) -> tuple[Play, ...] | None:
        """``rest`` as unbeatable plays; the play holding its lowest rank is chosen first,
        which loses no split since some play of any split holds that rank."""
        if not any(rest):
            return ()
        low = next(r for r in range(15) if rest[r])
        for cards, p in safe_by_low.get(low, {}).items():
            left = _minus(rest, cards)
            if min(left) >= 0:
                tail = split(left)
                if tail is not None:
                    return (p, *tail)
        return None

    for last in sorted(every):
        head = split(_minus(hand, last[0]))
        if head is not None:
            return [*head, last]
    return None


def check_spring_line(
    landlord: Sequence[int],
    peasants: Sequence[Sequence[int]],
    line: Sequence[Play],
    bans: Iterable[str] = frozenset(),
) -> None:
    """Raise AssertionError, naming the bad move, unless ``line`` is a spring line."""
    bans = _bans(bans)
    rest, others = _hand(landlord), _hands(peasants, 1, 3, "the spring question")
    for i, play in enumerate(line):
        play = (tuple(play[0]), play[1], play[2], play[3])
        assert min(_minus(rest, play[0])) >= 0, f"move {i}: {fmt(play[0])} not in {fmt(rest)}"
        assert play in _all_plays(rest, bans), f"move {i}: {play!r} is not a legal play"
        if i < len(line) - 1:
            assert _safe(play, others, bans), f"move {i}: {play!r} can be beaten"
        rest = _minus(rest, play[0])
    assert not any(rest), f"the line leaves {fmt(rest)} in the landlord's hand"


def minimax(
    hands: Sequence[Sequence[int]],
    to_move: int = 0,
    table: Play | None = None,
    owner: int | None = None,
    bans: Iterable[str] = frozenset(),
) -> bool:
    """Open-hand game value: True iff the landlord (player 0) wins against any defence
    by the peasants (players 1.., cooperating)."""
    bans = _bans(bans)
    start = _hands(hands, 2, 4, "a position")
    table = None if table is None else (tuple(table[0]), table[1], table[2], table[3])
    return game_wins(start, to_move, table, owner, lambda h: _all_plays(h, bans), beats)


def replay(
    hands: Sequence[Sequence[int]],
    to_move: int,
    table: Play | None,
    owner: int | None,
    line: Sequence[Play | None],
    bans: Iterable[str] = frozenset(),
) -> int:
    """Replay ``line`` (plays, None for a pass) from the position, checking every move;
    1 if it ends with the landlord out, 0 with a peasant out."""
    bans = _bans(bans)
    hs = list(_hands(hands, 2, 4, "a position"))
    if not all(any(h) for h in hs):
        assert not line, "the game is already over"
        return int(not any(hs[0]))
    mover = to_move
    if table is not None:
        table = (tuple(table[0]), table[1], table[2], table[3])
        if owner == mover:
            table = owner = None
    for k, move in enumerate(line):
        if move is None:
            assert table is not None, f"move {k}: a pass on a free lead"
        else:
            play = (tuple(move[0]), move[1], move[2], move[3])
            assert play in _all_plays(hs[mover], bans), f"move {k}: {play!r} is not legal"
            assert table is None or beats(play, table), f"move {k}: {play!r} does not beat"
            hs[mover] = _minus(hs[mover], play[0])
            table, owner = play, mover
            if not any(hs[mover]):
                assert k == len(line) - 1, f"move {k}: the line goes on after the game ended"
                return int(mover == 0)
        mover = (mover + 1) % len(hs)
        if table is not None and mover == owner:
            table = owner = None
    raise AssertionError("the line ends before anyone is out")


def count_deck_plays() -> int:
    """Distinct plays from the full 108-card hand (8 of each rank 3..2, BB, RR)."""
    return len(_all_plays(DECK, frozenset()))


def _deck_formula() -> dict[str, int]:
    """The full-deck count per kind by the arithmetic in the module docstring."""
    from math import comb

    return {
        "single": 15,
        "pair": 15,
        "trio": 13,
        "trio+pair": 13 * 14,
        "chain": sum(13 - n for n in range(5, 13)),
        "pair-chain": sum(13 - n for n in range(3, 13)),
        "plane": sum(13 - n for n in range(2, 13)),
        "plane+pairs": sum(
            (13 - n) * (comb(15 - n, n) - comb(13 - n, n - 2)) for n in range(2, 13)
        ),
        "bomb": 13 * 5,
        "rocket": 1,
    }


if __name__ == "__main__":
    import collections
    import time

    expected = {
        "33333333": 8,
        "BBRR": 5,
        "BR": 2,
        "34567": 6,
        "33344455": 14,
        "3334445566": 21,
        "333444BBRR": 18,
        "3333344444": 13,
    }
    for text, want in expected.items():
        got = len(plays(parse(text)))
        print(f"{text:>12}: {got} plays (hand-derived {want})")
        assert got == want, text
    t0 = time.perf_counter()
    total = count_deck_plays()
    elapsed = time.perf_counter() - t0
    by_kind = collections.Counter(p[1] for p in _all_plays(DECK, frozenset()))
    print(f"full deck: {total} plays in {elapsed:.3f}s; by kind {dict(sorted(by_kind.items()))}")
    assert dict(by_kind) == _deck_formula(), _deck_formula()
    assert total == sum(_deck_formula().values()) == 7964
    line = spring(parse("33344455"), [parse("3")])
    print("spring 33344455 vs 3:", [f"{fmt(p[0])} {p[1]}" for p in line])
    assert line is not None
    check_spring_line(parse("33344455"), [parse("3")], line)
    print("minimax 2 vs 3 4 5 (landlord leads):", minimax((parse("2"), parse("3"), parse("4"))))
