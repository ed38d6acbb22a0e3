"""Move ordering: the hand count it sorts by, against a rank-by-rank count; the plays
with dominated kickers or main ranks it leaves out, and the dominance itself against
the reference minimax."""

import random

import numpy as np
import pytest
import reference as ref

from solver.cards import ACE, NUM_RANKS, format_hand, pack, parse_hand, unpack
from solver.movegen import Move, as_play, follows, leads
from solver.ordering import (
    A_CARDS,
    A_KEYS,
    A_METAS,
    A_ROWS,
    SORT_KEYS,
    WINNER_COLUMNS,
    WINNER_SLOTS,
    drop_dominated,
    hand_count,
    order_moves,
    plays_needed,
    remember_winner,
    widths_held,
    winner_first,
)
from solver.table import RANK_BITS13, held_ranks


def runs(counts: list[int], c: int) -> list[int]:
    """The lengths of the runs of chainable ranks (3 to ace) holding exactly ``c``."""
    out, length = [], 0
    for r in range(ACE + 2):
        if r <= ACE and counts[r] == c:
            length += 1
        elif length:
            out.append(length)
            length = 0
    return out


def rank_count(counts: list[int]) -> int:
    """The count as its rules say, rank by rank: a chain of five or more singles, three
    or more pairs or two or more trios is one play, shorter runs a play a rank; a trio
    carries one loose single or pair; a bomb is one play; the two jokers go together."""
    high = counts[ACE + 1 :]  # the 2s and the jokers: never in a chain
    plays = sum(1 if n >= 5 else 0 for n in runs(counts, 1))
    loose = sum(n for n in runs(counts, 1) if n < 5) + high.count(1)
    plays += sum(1 for n in runs(counts, 2) if n >= 3)
    loose += sum(n for n in runs(counts, 2) if n < 3) + high.count(2)
    plays += sum(1 if n >= 2 else n for n in runs(counts, 3)) + high.count(3)
    plays += counts.count(4)
    trios = counts.count(3)
    if counts[NUM_RANKS - 2] and counts[NUM_RANKS - 1]:
        loose -= 1
    return plays + max(loose - trios, 0)


def with_chains(counts: list[int]) -> int:
    """The plays needed as :func:`plays_needed` estimates them, rank by rank: the better
    of the count and, for the runs of five or more ranks 3..A held once to three times,
    a chain along each run plus the count of what is left."""
    runs, start = [], None
    for r in range(ACE + 2):
        if r <= ACE and 1 <= counts[r] <= 3:
            start = r if start is None else start
        elif start is not None:
            if r - start >= 5:
                runs.append(range(start, r))
            start = None
    if not runs:
        return rank_count(counts)
    rest = list(counts)
    for run in runs:
        for r in run:
            rest[r] -= 1
    return min(rank_count(counts), len(runs) + rank_count(rest))


def random_counts(rng: random.Random) -> list[int]:
    """A hand of one deck or of two (up to eight of a rank, two of a joker)."""
    most = rng.choice([4, 8])
    counts = [rng.randint(0, most) for _ in range(NUM_RANKS - 2)]
    return counts + [rng.randint(0, most // 4) for _ in range(2)]


def test_the_hand_count_is_the_rank_by_rank_count():
    rng = random.Random(5)
    for _ in range(20_000):
        counts = random_counts(rng)
        assert hand_count(pack(counts)) == rank_count(counts), counts
    for counts, plays in (
        ([1] * 12 + [0, 1, 1], 2),  # 3 to ace, and the rocket
        ([3, 3, 1, 1] + [0] * 11, 1),  # a plane carrying two singles
        ([2, 2, 2, 4, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0], 3),  # pairs chain, bomb, a 2
    ):
        assert rank_count(counts) == plays == hand_count(pack(counts)), counts


def test_plays_needed_sees_chains_through_ranks_held_more_than_once():
    rng = random.Random(6)
    for _ in range(20_000):
        counts = random_counts(rng)
        needed = plays_needed(pack(counts))
        assert needed == with_chains(counts), counts
        assert needed <= hand_count(pack(counts))
    for hand, count, needed in (
        ("3445667", 5, 3),  # 34567, 4, 6
        ("3455567", 4, 2),  # 34567, 55 (the hand count: 555 with 3, 4, 6, 7)
        ("3344556677", 1, 1),  # a chain of pairs: no better as two chains of singles
        ("34567777", 5, 5),  # 3456 and a bomb: a rank held four times is no link
        ("3456", 4, 4),  # too short for a chain
    ):
        h = pack(parse_hand(hand))
        assert (hand_count(h), plays_needed(h)) == (count, needed), hand


def kept(
    hand: str,
    partners: str = "",
    opponents: list[str] | None = None,
    table: Move | None = None,
) -> tuple[list[Move], set[str]]:
    """The plays of ``hand`` (its leads, or its answers to ``table``), and the ones
    drop_dominated keeps (as text) for a mover whose partners hold ``partners``
    and whose opponents hold ``opponents``, a hand each (None: every rank, as many
    times as any play has, so no main rank is swapped)."""
    cards_of = parse_hand(hand)
    moves = leads(cards_of) if table is None else follows(cards_of, table)
    cards = np.array([pack(m.cards) for m in moves], np.int64)
    metas = np.array([m.meta for m in moves], np.int64)
    ranks = held_ranks(pack(parse_hand(partners))) if partners else 0
    widths = [RANK_BITS13] * 3 if opponents is None else [0] * 3
    for o in opponents or []:
        for w, held in enumerate(widths_held(pack(parse_hand(o)))):
            widths[w] |= held
    meta = table.meta if table else 0
    n = drop_dominated(pack(cards_of), ranks, tuple(widths), meta, 0, len(moves), cards, metas)
    return moves, {format_hand(unpack(int(c))) for c in cards[:n]}


def deal(deck: list[int], sizes: tuple[int, ...]) -> list[list[int]]:
    """Hands (rank counts) of ``sizes`` cards each, dealt from the top of ``deck``."""
    hands, at = [], 0
    for size in sizes:
        hand = [0] * NUM_RANKS
        for r in deck[at : at + size]:
            hand[r] += 1
        hands.append(hand)
        at += size
    return hands


def landlord_wins_after(hands: list, mover: int, play: tuple[int, ...], kind: str) -> bool:
    """The reference minimax's value for the landlord after ``mover`` plays ``play`` (of
    ``kind``) from ``hands``: the next player answers it; a mover who goes out wins for
    his side."""
    now = [tuple(h) for h in hands]
    now[mover] = tuple(a - b for a, b in zip(hands[mover], play, strict=True))
    if not any(now[mover]):
        return mover == 0
    table = next(p for p in ref.readings(play) if p[1] == kind)
    return ref.minimax(now, (mover + 1) % len(hands), table, mover)


@pytest.mark.parametrize(
    "hand, partners, stays, goes",
    [
        # free singles 5 and K, free pairs 88 and 99: the lowest of each goes with the trio
        ("33358899K", "", {"3335", "3338", "3339", "33388"}, {"333K", "33399"}),
        # a partner holding a ten could beat a 5 but not a K: the K stays
        ("33358899K", "T", {"3335", "333K", "33388"}, {"33399"}),
        # ... or a K, an 8 (both in (5, K]) or a 9 (in (8, 9] too); a 5 or an ace: no
        ("33358899K", "K", {"333K"}, {"33399"}),
        ("33358899K", "8", {"333K"}, {"33399"}),
        ("33358899K", "9", {"333K", "33399"}, set()),
        ("33358899K", "5A", {"3335", "33388"}, {"333K", "33399"}),
        # 3-7 could make a chain, so none of them is free: every kicker stays
        ("34567KKK", "", {"3KKK", "4KKK", "5KKK", "6KKK", "7KKK"}, set()),
        # free singles 9, J, K: the trios take the 9, the plane the 9 and the J
        (
            "3334449JK",
            "",
            {"3339", "4449", "3334449J", "3334", "3444"},
            {"333J", "333K", "444J", "444K", "3334449K", "333444JK"},
        ),
        # a joker is never free
        ("3335B", "", {"3335", "333B"}, set()),
        # free pairs 55, 99, KK (no free single): the trio takes the 55 as a pair
        ("3335599KK", "", {"33355", "3335", "3339", "333K"}, {"33399", "333KK"}),
        # a partner's Q parts the 99 from the KK, not the 55 from the 99
        ("3335599KK", "Q", {"33355", "333KK"}, {"33399"}),
    ],
)
def test_only_the_lowest_free_kickers_stay(
    hand: str, partners: str, stays: set[str], goes: set[str]
) -> None:
    moves, left = kept(hand, partners)
    every = {format_hand(m.cards) for m in moves}
    assert stays <= left and stays <= every
    assert goes <= every and not goes & left
    assert left == every - goes  # nothing else is left out


def test_a_dropped_lead_never_wins_where_the_lead_kept_for_it_loses() -> None:
    """The dominance the search relies on, checked by the reference minimax: for every
    lead left out, the same lead with its highest free kicker swapped for the lowest
    free rank left over wins for the landlord whenever the dropped one does."""
    rng = random.Random(11)
    deck = [r for r in range(NUM_RANKS) for _ in range(4 if r < 13 else 1)]
    checked = 0
    while checked < 60:
        rng.shuffle(deck)
        landlord, peasant = deal(deck, (8, 6))
        moves, left = kept(format_hand(tuple(landlord)))
        for m in moves:
            if format_hand(m.cards) in left:
                continue
            better = swapped(landlord, m)
            after = {
                play: landlord_wins_after([landlord, peasant], 0, play, m.kind)
                for play in (m.cards, better)
            }
            assert after[better] or not after[m.cards], (landlord, peasant, m)
            checked += 1


def swapped(hand: list[int], move: Move, partner: list[int] | None = None) -> tuple[int, ...]:
    """``move`` with the highest kicker it can swap for the lowest (see
    :func:`lower_kickers`): the lead drop_dominated keeps for it when there is
    no partner."""
    return lower_kickers(hand, move, partner)[0]


def lower_kickers(
    hand: list[int], move: Move, partner: list[int] | None = None
) -> list[tuple[int, ...]]:
    """``move`` with one kicker of a rank held once (twice for pairs) swapped for a lower
    such rank it leaves in the hand, with no rank of ``partner`` above that one up to the
    kicker's: every such swap, higher kickers and lower ranks first."""
    if "+" not in move.kind:  # no kickers
        return []
    width = 2 if "pair" in move.kind else 1
    main = {r for r, c in enumerate(move.cards) if c >= 3}
    zone = chainable(hand)
    free = [r for r in range(13) if hand[r] == width and r not in main and r not in zone]
    chosen = [r for r in free if move.cards[r] == width]
    spare = [r for r in free if move.cards[r] == 0]
    held = [r for r in range(NUM_RANKS) if partner and partner[r]]
    out = []
    for b in sorted(chosen, reverse=True):
        for a in sorted(spare):
            if a < b and not any(a < r <= b for r in held):
                out.append(moved(move, b, a, width))
    return out


def moved(move: Move, b: int, a: int, width: int) -> tuple[int, ...]:
    """The cards of ``move`` with its ``width`` cards of rank ``b`` swapped for rank ``a``."""
    play = list(move.cards)
    play[b] -= width
    play[a] += width
    return tuple(play)


def test_a_dropped_peasant_lead_never_beats_the_lead_kept_for_it() -> None:
    """The same for the first peasant of three, whose partner's cards limit the swaps:
    whenever the landlord beats the lead kept (a dropped lead with one kicker swapped for
    a lower free rank, no partner rank between them), he beats the dropped one too."""
    rng = random.Random(12)
    deck = [r for r in range(NUM_RANKS) for _ in range(4 if r < 13 else 1)]
    checked = wins = 0
    while checked < 40:
        rng.shuffle(deck)
        hands = deal(deck, (5, 8, 4))
        landlord, peasant, partner = hands
        moves, left = kept(format_hand(tuple(peasant)), format_hand(tuple(partner)))
        for m in moves:
            if format_hand(m.cards) in left:
                continue
            better = swapped(peasant, m, partner)
            after = {
                play: landlord_wins_after(hands, 1, play, m.kind) for play in (m.cards, better)
            }
            assert after[m.cards] or not after[better], (landlord, peasant, partner, m)
            checked += 1
            wins += after[m.cards]
    assert 0 < wins < checked  # both outcomes are among the leads checked


def test_a_partner_between_the_kickers_keeps_the_higher_one() -> None:
    """Why a partner's cards count: with the landlord on A2 and the partner on a lone ten,
    the first peasant must lead 444 with the ten, keeping the 6 for his partner to beat
    (444 with the 6 loses). The filter keeps both; 444K and 444A go, for 444T."""
    hands = [parse_hand("A2"), parse_hand("4446TKA"), parse_hand("T")]
    moves, left = kept("4446TKA", "T")
    trios = {format_hand(m.cards) for m in moves if m.kind == "trio+single"}
    assert trios & left == {"4446", "444T"} and trios - left == {"444K", "444A"}
    wins = {
        text: landlord_wins_after(hands, 1, parse_hand(text), "trio+single")
        for text in ("4446", "444T")
    }
    assert wins == {"4446": True, "444T": False}


def play_of(cards: str, kind: str = "single") -> Move:
    """``cards`` read as one play of ``kind`` (a table play)."""
    return next(m for m in leads(parse_hand(cards)) if m.kind == kind)


@pytest.mark.parametrize(
    "hand, others, table, stays, goes",
    [
        # free singles 3 5 7 9 J K; the opponent holds a 4 and an 8: the 7 goes for the 5,
        # the J and the K for the 9
        ("3579JK", "48", None, {"3", "5", "9"}, {"7", "J", "K"}),
        # answering a 6: the 7 is the lowest answer, the J and K still go for the 9
        ("3579JK", "48", "6", {"7", "9"}, {"J", "K"}),
        # the opponent's K keeps the K (it answers the J, not the K)
        ("3579JK", "48K", None, {"3", "5", "9", "K"}, {"7", "J"}),
        # pairs: 55 goes for 33 unless the opponent holds a pair of 4s or 5s; 88 for 55
        # likewise (a lone 4 answers neither pair)
        ("335588", "44", None, {"33", "55", "3", "5", "8"}, {"88"}),
        ("335588", "4", None, {"33", "3", "5", "8"}, {"55", "88"}),
        # trios with their kickers: 888 goes for 555 (and takes the same kicker), but not
        # past three 7s; two 7s answer no trio
        ("5558889", "3", None, {"555", "5559", "9"}, {"888", "8889"}),
        ("5558889", "777", None, {"555", "5559", "888", "8889", "9"}, set()),
        ("5558889", "77", None, {"555", "5559", "9"}, {"888", "8889"}),
        # a rank is free only at its own width: the 8s are three, so no pair, single or
        # trio here has a lower free rank of its width to go to
        ("88899", "3", None, {"8", "9", "88", "99", "888", "8889", "88899"}, set()),
        # 3-7 could make a chain: none of them is free
        ("34567", "", None, {"3", "4", "5", "6", "7"}, set()),
        # the 2 is free, a joker never: the 2 goes for the K, B and R stay; but the
        # opponent's ace keeps the 2
        ("K2BR", "4", None, {"K", "B", "R", "BR"}, {"2"}),
        ("K2BR", "A", None, {"K", "2", "B", "R", "BR"}, set()),
    ],
)
def test_only_the_lowest_free_main_ranks_stay(
    hand: str, others: str, table: str | None, stays: set[str], goes: set[str]
) -> None:
    moves, left = kept(hand, opponents=[others], table=play_of(table) if table else None)
    every = {format_hand(m.cards) for m in moves}
    assert stays <= left and stays <= every
    assert goes <= every and not goes & left
    assert left == every - goes


def chainable(hand: list[int]) -> set[int]:
    """The ranks 3..A of every chain the hand could ever form: its runs of five or more
    singles, three or more pairs, two or more trios."""
    zone: set[int] = set()
    for width, length in ((1, 5), (2, 3), (3, 2)):
        run: list[int] = []
        for r in range(ACE + 2):
            if r <= ACE and hand[r] >= width:
                run.append(r)
                continue
            if len(run) >= length:
                zone.update(run)
            run = []
    return zone


def lower_mains(
    hand: list[int],
    move: Move,
    partner: list[int] | None,
    opponents: list[list[int]],
    table_rank: int,
) -> list[tuple[int, ...]]:
    """``move`` (a single, pair or trio, with its kickers) with its main rank ``t``
    swapped for each lower rank ``a``, both held exactly the main part's width of and
    outside the hand's chains, ``a`` beating the table's rank, and of the ranks above
    ``a`` up to ``t``, none held by the partner nor as many times as the width by an
    opponent."""
    width = {"single": 1, "pair": 2, "trio": 3, "trio+single": 3, "trio+pair": 3}.get(move.kind)
    t = (move.meta >> 4) & 15
    zone = chainable(hand)
    if width is None or t > 12 or hand[t] != width or t in zone:
        return []
    out = []
    for a in range(table_rank + 1, t):
        if hand[a] == width and a not in zone and not move.cards[a]:
            window = range(a + 1, t + 1)
            if partner and any(partner[r] for r in window):
                continue
            if not any(o[r] >= width for o in opponents for r in window):
                out.append(moved(move, t, a, width))
    return out


def test_a_dropped_play_never_beats_the_play_with_a_lower_main_rank() -> None:
    """The main-rank dominance, checked by the reference minimax on random positions of
    two and three players, every mover, on a free lead and in answer to a single or a
    pair: for every play left out, each play with its main rank swapped for a lower
    one the rule allows does at least as well for the mover's side. Among them, swaps
    past an opponent's rank that he holds fewer times than the play's width."""
    rng = random.Random(13)
    deck = [r for r in range(NUM_RANKS) for _ in range(4 if r < 13 else 1)]
    checked = wins = past = 0
    while checked < 80:
        players = rng.choice([2, 3])
        rng.shuffle(deck)
        sizes = (6, 5, 5)[:players]
        hands = deal(deck, sizes)
        mover = rng.randrange(players)
        table = None
        if rng.random() < 0.5:  # the player before him led a single or pair of the rest
            width = rng.choice([1, 2])
            rest = deck[sum(sizes) :]
            ranks = [r for r in range(13) if rest.count(r) >= width]
            r = rng.choice(ranks)
            cards = tuple(width if q == r else 0 for q in range(NUM_RANKS))
            table = play_of(format_hand(cards), ("single", "pair")[width - 1])
        hand = hands[mover]
        partner = hands[3 - mover] if players == 3 and mover else None
        opponents = [h for s, h in enumerate(hands) if s != mover and (s == 0 or mover == 0)]
        moves, left = kept(
            format_hand(tuple(hand)),
            format_hand(tuple(partner)) if partner else "",
            [format_hand(tuple(o)) for o in opponents],
            table,
        )
        table_rank = (table.meta >> 4) & 15 if table else -1
        for m in moves:
            if format_hand(m.cards) in left:
                continue
            mains = lower_mains(hand, m, partner, opponents, table_rank)
            kept_for_it = mains + lower_kickers(hand, m, partner)
            assert kept_for_it, (hands, mover, table, m)  # a play left out has a better one
            for better in kept_for_it:
                assert format_hand(better) in {format_hand(x.cards) for x in moves}
                after = {
                    play: landlord_wins_after(hands, mover, play, m.kind)
                    for play in (m.cards, better)
                }
                if mover == 0:
                    assert after[better] or not after[m.cards], (hands, mover, table, m)
                else:
                    assert after[m.cards] or not after[better], (hands, mover, table, m)
                checked += 1
                wins += after[m.cards]
                past += better in mains and past_short_ranks(m, better, opponents)
    assert 0 < wins < checked and past > 0


def past_short_ranks(move: Move, better: tuple[int, ...], opponents: list[list[int]]) -> bool:
    """Whether ``better``, ``move`` with its main rank lowered, passes a rank that an
    opponent holds, but fewer times than the main part's width."""
    t = (move.meta >> 4) & 15
    a = next(r for r in range(NUM_RANKS) if better[r] > move.cards[r])
    width = better[a] - move.cards[a]
    return any(0 < o[r] < width for o in opponents for r in range(a + 1, t + 1))


def test_an_opponent_between_the_main_ranks_keeps_the_higher_one() -> None:
    """Why an opponent's cards count: the landlord on 37JK against a peasant on
    56Q2 loses leading the 3 (the peasant answers the 5 or 6, and the 2 controls) and
    wins leading the 7. The filter keeps both; the J goes for the 7 (the peasant's Q
    keeps the K)."""
    hands = [parse_hand("37JK"), parse_hand("56Q2")]
    moves, left = kept("37JK", opponents=["56Q2"])
    singles = {format_hand(m.cards) for m in moves if m.kind == "single"}
    assert singles & left == {"3", "7", "K"} and singles - left == {"J"}
    wins = {text: landlord_wins_after(hands, 0, parse_hand(text), "single") for text in ("3", "7")}
    assert wins == {"3": False, "7": True}


def test_a_remembered_winner_comes_first_and_the_rest_keep_their_order() -> None:
    cards = parse_hand("3456789TJ")
    hand = pack(cards)
    moves = leads(cards)[:5]
    arena = np.zeros((A_ROWS, 16), np.int64)
    for i, m in enumerate(moves):
        arena[A_CARDS, 2 + i], arena[A_METAS, 2 + i] = pack(m.cards), m.meta
        arena[A_KEYS, 2 + i] = i
    winners = np.zeros((WINNER_SLOTS, WINNER_COLUMNS), np.int64)
    situation = np.int64(7)
    before = arena.copy()
    winner_first(winners, hand, situation, 2, 5, arena)  # nothing remembered yet
    assert (arena == before).all()
    remember_winner(winners, hand, situation, pack(moves[3].cards), moves[3].meta)
    winner_first(winners, hand, situation + 1, 2, 5, arena)  # another situation
    winner_first(winners, hand + 1, situation, 2, 5, arena)  # another hand
    assert (arena == before).all()
    winner_first(winners, hand, situation, 2, 5, arena)
    assert list(arena[A_KEYS, 2:7]) == [3, 0, 1, 2, 4]
    assert arena[A_CARDS, 2] == pack(moves[3].cards) and arena[A_METAS, 2] == moves[3].meta
    assert (arena[:, :2] == 0).all() and (arena[:, 7:] == 0).all()


@pytest.mark.parametrize(
    ("hand", "table", "chain_ties", "order"),
    [
        # Q leaves 2 plays, the others 3, but 8's three need the chain TJQKA through QQQ
        ("888TJQQQKA", "3", True, ["Q", "T", "J", "K", "A", "8"]),
        ("888TJQQQKA", "3", False, ["Q", "8", "T", "J", "K", "A"]),
        # each leaves 4 plays, but 99's four need the chain 9TJQK through TT and KK
        ("4999TTJQKK", "33", True, ["TT", "KK", "99"]),
        ("4999TTJQKK", "33", False, ["99", "TT", "KK"]),
    ],
)
def test_answers_go_by_the_rest_then_by_what_its_chains_save(
    hand: str, table: str, chain_ties: bool, order: list[str]
) -> None:
    """In answer the fewest plays the rest needs come first; among equals, with
    ``chain_ties`` (two players), the rest whose count owes least to chains through
    ranks held more than once (its plain hand count agrees); then the low ranks."""
    cards = parse_hand(hand)
    moves = follows(cards, as_play(parse_hand(table)))
    packed = pack(cards)
    rests = [plays_needed(packed - pack(m.cards)) for m in moves]
    saved = [hand_count(packed - pack(m.cards)) - r for m, r in zip(moves, rests, strict=True)]
    assert len(set(rests)) < len(rests) and len(set(saved)) > 1  # the tie-break decides
    arena = np.zeros((A_ROWS, 64), np.int64)
    for i, m in enumerate(moves):
        arena[A_CARDS, i], arena[A_METAS, i] = pack(m.cards), m.meta
    by_key = np.zeros(SORT_KEYS + 1, np.int64)
    order_moves(0, len(moves), packed, False, False, False, False, chain_ties, 1, arena, by_key)
    got = [format_hand(unpack(c)) for c in arena[A_CARDS, : len(moves)]]
    assert got == order


def test_a_partner_between_the_main_ranks_keeps_the_higher_one_whatever_he_holds() -> None:
    """A partner's lone 4 keeps the pair of 5s that an opponent's lone 4 does not: the
    partner can beat a single 3 (from the 33 kept for the 55) that he cannot beat as a
    5, so the two hands left differ for him."""
    _, by_partner = kept("335588", "4", [""])
    _, by_opponent = kept("335588", "", ["4"])
    assert "55" in by_partner and "55" not in by_opponent
    assert "88" not in by_partner and "88" not in by_opponent
