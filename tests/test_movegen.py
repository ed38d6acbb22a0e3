"""Move generation: exact counts, and agreement with the slow reference on random hands.

Counts follow RULES.md (the docstring of solver/rules.py states the same rules).
"""

import random
import re
from dataclasses import replace

import numpy as np
import pytest
import reference as ref
from conftest import random_split

from solver.cards import CLASSIC_DECK, parse_hand
from solver.errors import RuleError
from solver.movegen import TABLE_SIZE, Move, best_ranks, classify, follows, leads, readings
from solver.rules import BANNABLE, CLASSIC, FOUR_PLAYER, KIND_NAMES, RuleSet


def as_set(moves):
    return {(m.cards, m.kind, m.rank, m.length) for m in moves}


def test_full_deck_has_13530_plays():
    plays = leads(CLASSIC_DECK)
    assert len(plays) == 13530
    assert len(as_set(plays)) == 13530  # every play is generated once
    assert sum(1 for m in plays if sum(m.cards) <= 20) == 12654


@pytest.mark.parametrize(
    "hand, count",
    [
        ("BR", 3),  # singles B, R + rocket = 3
        ("34567", 6),  # 5 singles + 1 chain = 6
        ("345678", 9),  # 6 singles + 2 five-chains + 1 six-chain = 9
        ("2222", 4),  # single, pair, trio, bomb = 4
        ("22223", 6),  # 2 singles + pair + trio + bomb + 2223 = 6 (quad+two needs two kickers)
        ("222234", 9),  # 3 singles + pair + trio + bomb + 2223, 2224 + 2222+3+4 = 9
        ("2222BR", 9),  # 3 singles + pair + trio + bomb + rocket + 222B, 222R = 9 (no 2222+B+R)
        ("333444", 11),  # 2 singles + 2 pairs + 2 trios + 2 trio+single + 2 trio+pair + plane
        # 4 singles + 2 pairs + 2 trios + 6 trio+single + 2 trio+pair + plane + 333444+5+6 = 18
        ("33344456", 18),
        # 5 singles + 5 pairs + pair-chains (3 of 3 pairs + 2 of 4 + 1 of 5) + chain 34567
        # = 5 + 5 + 6 + 1 = 17
        ("3344556677", 17),
    ],
)
def test_hand_derived_counts(hand, count):
    assert len(leads(parse_hand(hand))) == count


def test_ace_trio_and_two_trio_are_no_plane():
    # 2 singles + 2 pairs + 2 trios + 2 trio+single + 2 trio+pair = 10, and no plane
    plays = leads(parse_hand("AAA222"))
    assert len(plays) == 10
    assert not [m for m in plays if m.kind.startswith("plane")]


def random_hand(rng: random.Random, size: int) -> tuple[int, ...]:
    return random_split(rng, (size,))[0]


def random_bans(rng: random.Random) -> frozenset[str]:
    return frozenset(b for b in BANNABLE if rng.random() < 0.2)


def test_leads_agree_with_reference():
    rng = random.Random(1)
    for trial in range(400):
        hand = random_hand(rng, rng.randint(0, 20 if trial % 4 else 30))
        bans = random_bans(rng)
        got = as_set(leads(hand, CLASSIC.with_bans(bans)))
        assert got == ref.plays(hand, bans), ref.fmt(hand)


def test_follows_agree_with_reference():
    rng = random.Random(2)
    checked = 0
    while checked < 600:
        mine, other = random_split(rng, (rng.randint(1, 17), rng.randint(1, 20)))
        table = rng.choice(sorted(ref.plays(other))) if any(other) else None
        if table is None:
            continue
        move = Move(*table)
        want = {p for p in ref.plays(mine) if ref.beats(p, table)}
        assert as_set(follows(mine, move)) == want, (ref.fmt(mine), ref.fmt(table[0]))
        assert {p for p in as_set(leads(mine)) if Move(*p).beats(move)} == want
        checked += 1


def test_classify_agrees_with_reference_readings():
    rng = random.Random(3)
    rules = CLASSIC.array()
    for _ in range(3000):
        cards = random_hand(rng, rng.choice([1, 2, 3, 4, 5, 6, 8, 10, 12, 15, 16, 20]))
        found = classify(np.array(cards, np.int64), rules)
        readings_ref = ref.readings(cards)
        if found:
            kind, rank, length = KIND_NAMES[found & 15], (found >> 4) & 15, found >> 8
            assert (cards, kind, rank, length) in readings_ref
        else:
            assert readings_ref == []
        assert as_set(readings(cards)) == set(readings_ref)
    # every generated play of a rich hand reads as itself
    for m in leads(parse_hand("333444555666777888BR22")):
        assert classify(np.array(m.cards, np.int64), rules) != 0


def test_best_ranks_answers_can_beat():
    rng = random.Random(4)
    for _ in range(1500):
        hand, other = random_split(rng, (rng.randint(1, 17), rng.randint(1, 20)))
        if not any(other):
            continue
        bans = random_bans(rng)
        rules = CLASSIC.with_bans(bans)
        table = rng.choice(sorted(ref.plays(other, bans)))
        thr = np.full(TABLE_SIZE, -1, np.int64)
        best_ranks(np.array(hand, np.int64), rules.array(), thr)
        kind = KIND_NAMES.index(table[1])
        can = (
            thr[12 * 16 + 1] >= 0  # rocket
            or (table[1] != "bomb" and thr[11 * 16 + 1] >= 0)
            or thr[kind * 16 + table[3]] > table[2]
        ) and table[1] != "rocket"
        assert can == ref.can_beat(hand, table, bans), (ref.fmt(hand), table)


def test_bans_remove_exactly_their_kind():
    hand = parse_hand("3334445566TTTT")
    full = as_set(leads(hand))
    for ban in BANNABLE:
        banned = as_set(leads(hand, RuleSet().with_bans([ban])))
        assert banned == {p for p in full if p[1] != ban}


@pytest.mark.parametrize(
    "make, message",
    [
        (lambda: RuleSet(deck=(8,) * 13 + (2, 2)), "the solver plays the games classic, four-"),
        (lambda: replace(FOUR_PLAYER, players=3), "rule set 'four-player' with deck"),
        (lambda: replace(FOUR_PLAYER, bomb_sizes=(4, 9)), "the solver plays the games"),
        (lambda: FOUR_PLAYER.with_bans(["bomb"]), "cannot ban 'bomb'"),
        (lambda: RuleSet(bans=frozenset({"bomb"})), "cannot ban 'bomb'"),
        (lambda: CLASSIC.with_bans([["trio+single"]]), "cannot ban ['trio+single']"),
    ],
)
def test_a_rule_set_the_kernels_cannot_serve_is_refused(make, message):
    """Never searched wrongly: the kernels serve the classic and the four-player game
    (a classic game with two decks, or four-player bombs of nine, are neither)."""
    with pytest.raises(RuleError, match=re.escape(message)):
        make()
