"""The spring solver: known answers, witness lines replayed by independent code, and
agreement with the slow reference."""

import random

import numpy as np
import pytest
import reference as ref
from conftest import CASE_FILES, random_split

from solver.cards import parse_hand
from solver.errors import CardError
from solver.rules import BANNABLE, CLASSIC
from solver.spring import solve_many, solve_spring, workspace


@pytest.mark.parametrize("name", CASE_FILES)
def test_shared_cases(shared_cases, name):
    hands, answers = shared_cases[name]
    assert solve_many(hands).tolist() == answers


@pytest.mark.parametrize("name", CASE_FILES)
def test_witness_lines_replay(shared_cases, name):
    hands, answers = shared_cases[name]
    ws = workspace()
    for deal, want in zip(hands.tolist(), answers, strict=True):
        land, p1, p2 = (tuple(h) for h in deal)
        result = solve_spring(land, (p1, p2), ws=ws)
        assert result.answer == want
        assert bool(result.line) == want
        if want:
            ref.check_spring_line(land, p1, p2, [m.cards for m in result.line])
            # each play is one of its own readings, and only the last may be beaten
            for m in result.line[:-1]:
                assert not ref.can_beat(p1, (m.cards, m.kind, m.rank, m.length))
                assert not ref.can_beat(p2, (m.cards, m.kind, m.rank, m.length))


def test_edge_case_lines():
    # against a peasant bomb only higher bombs and the rocket are safe: 33 goes last
    r = solve_spring(parse_hand("RB2222AAAA33"), (parse_hand("4444"), parse_hand("66")))
    assert r.line_text() == ["AAAA", "2222", "BR", "33"]
    # a whole hand that is one play is a one-play line
    r = solve_spring(parse_hand("33445566778899TTJJQQ"), (parse_hand("BR"), parse_hand("2222")))
    assert r.line_text() == ["33445566778899TTJJQQ"]
    # two beatable plays: no spring
    r = solve_spring(parse_hand("34"), (parse_hand("5"), parse_hand("")))
    assert not r.answer and r.line == ()


def test_agrees_with_reference_on_small_deals():
    rng = random.Random(5)
    ws = workspace()
    for trial in range(1500):
        sizes = (rng.randint(1, 12), rng.randint(0, 10), rng.randint(0, 10))
        land, p1, p2 = random_split(rng, sizes)
        bans = frozenset(b for b in BANNABLE if rng.random() < 0.15) if trial % 3 == 0 else ()
        rules = CLASSIC.with_bans(bans)
        result = solve_spring(land, (p1, p2), rules, ws)
        assert result.answer == ref.spring(land, p1, p2, frozenset(bans)), (
            ref.fmt(land),
            ref.fmt(p1),
            ref.fmt(p2),
            bans,
        )
        if result.answer:
            ref.check_spring_line(land, p1, p2, [m.cards for m in result.line], frozenset(bans))


def test_agrees_with_reference_on_strong_hands():
    """Hands rich in trios and bombs, where the search has the most to try."""
    rng = random.Random(6)
    for _ in range(150):
        ranks = rng.sample(range(13), 6)
        land = [0] * 15
        for r in ranks:
            land[r] = rng.choice([3, 3, 4, 2])
        rest = [4 - c if r < 13 else 1 for r, c in enumerate(land)]
        pool = [r for r, c in enumerate(rest) for _ in range(c)]
        rng.shuffle(pool)
        peasants = []
        for size in (rng.randint(3, 9), rng.randint(3, 9)):
            h = [0] * 15
            for r in pool[:size]:
                h[r] += 1
            pool = pool[size:]
            peasants.append(tuple(h))
        land = tuple(land)
        got = solve_spring(land, (peasants[0], peasants[1])).answer
        assert got == ref.spring(land, *peasants), (ref.fmt(land), *map(ref.fmt, peasants))


def test_batch_equals_one_by_one(shared_cases):
    hands, _ = shared_cases["yes_biased_500"]
    one = [
        solve_spring(*(tuple(h) for h in d[:1]), tuple(tuple(h) for h in d[1:])).answer
        for d in hands.tolist()[:100]
    ]
    assert solve_many(hands[:100]).tolist() == one


def test_invalid_hands_are_refused():
    with pytest.raises(CardError):
        solve_spring(parse_hand("333"), (parse_hand("33"), parse_hand("")))
    with pytest.raises(CardError):
        solve_spring(parse_hand("77777"), (parse_hand(""), parse_hand("")))


def test_empty_batch():
    assert solve_many(np.zeros((0, 3, 15), np.int64)).tolist() == []
