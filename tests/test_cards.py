"""Notation: parsing, canonical printing, validation."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from solver.cards import (
    CLASSIC_DECK,
    LETTERS,
    check_disjoint,
    check_hand,
    format_hand,
    pack,
    parse_hand,
    unpack,
)
from solver.errors import CardError

hands = st.lists(st.integers(0, 4), min_size=13, max_size=13).flatmap(
    lambda ranks: st.tuples(st.integers(0, 1), st.integers(0, 1)).map(
        lambda jokers: tuple(ranks) + jokers
    )
)


@given(hands)
def test_parse_print_round_trip(hand):
    assert parse_hand(format_hand(hand)) == hand
    assert unpack(pack(hand)) == hand


@given(hands, st.randoms(use_true_random=False))
def test_any_order_case_and_separators_read_the_same(hand, rnd):
    cards = list(format_hand(hand))
    rnd.shuffle(cards)
    noisy = "".join(c.lower() if rnd.random() < 0.5 else c for c in cards)
    sep = rnd.choice(["", " ", ",", "-", ", "])
    text = sep.join("10" if c in "Tt" and rnd.random() < 0.5 else c for c in noisy)
    assert parse_hand(text) == hand


def test_canonical_order_is_low_to_high():
    assert format_hand(parse_hand("R2B3 10 aK")) == "3TKA2BR"
    assert LETTERS == "3456789TJQKA2BR"


@pytest.mark.parametrize("text, bad", [("AX", "'X'"), ("3 4 1", "'1'"), ("33:4", "':'")])
def test_unknown_card_is_quoted(text, bad):
    with pytest.raises(CardError, match=bad):
        parse_hand(text)


def test_too_many_of_a_rank():
    with pytest.raises(CardError, match="5 x 7"):
        check_hand(parse_hand("777773"), CLASSIC_DECK, "777773")
    with pytest.raises(CardError, match="2 x R"):
        check_hand(parse_hand("RR"), CLASSIC_DECK, "RR")
    check_hand(parse_hand("7777BR"), CLASSIC_DECK, "7777BR")


def test_hands_overlapping_beyond_one_deck():
    with pytest.raises(CardError, match="3 x B"):
        check_disjoint([parse_hand("B3"), parse_hand("B"), parse_hand("B")], CLASSIC_DECK)
    check_disjoint([parse_hand("33"), parse_hand("33"), parse_hand("BR")], CLASSIC_DECK)
