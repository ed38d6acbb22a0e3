"""The four-player double-deck game: move generation, springs and forced wins, each
against the independent slow reference of ``reference_four.py``, and its input errors."""

from __future__ import annotations

import json
import random
import tomllib

import numpy as np
import pytest
import reference_four as ref
from click.testing import CliRunner
from conftest import STRATEGIES, make_searcher

from cli import main
from solver.cards import DOUBLE_DECK, NUM_RANKS, pack, parse_hand
from solver.endgame import describe, parse_position, solve_win
from solver.errors import RuleError
from solver.movegen import Move, as_play, follows, leads, readings
from solver.position import make_position
from solver.rules import FOUR_PLAYER, rule_set
from solver.scoring import History
from solver.search import WIN, Searcher
from solver.spring import solve_many, solve_spring
from solver.table import table_key

DECK = [r for r, n in enumerate(DOUBLE_DECK) for _ in range(n)]


def play(m: Move) -> ref.Play:
    return (m.cards, m.kind, m.rank, m.length)


def hand(cards: list[int]) -> tuple[int, ...]:
    counts = [0] * NUM_RANKS
    for r in cards:
        counts[r] += 1
    return tuple(counts)


def plays_of(text: str) -> set[ref.Play]:
    return {play(m) for m in leads(parse_hand(text), FOUR_PLAYER)}


@pytest.mark.parametrize(
    "text, count",
    [
        # single 3, pair, trio, bombs of 4, 5, 6, 7 and 8 cards: 3 + 5
        ("33333333", 8),
        # B, R, BB, RR and the rocket BBRR
        ("BBRR", 5),
        # B and R alone: BR is no pair and no rocket
        ("BR", 2),
        # singles 3 + pairs 3 + trios 2 + trio+pair (333 with 44 or 55, 444 with 33 or
        # 55) 4 + plane 333444 + pair chain 334455: no trio + single (3334)
        ("33344455", 14),
        # singles 4, pairs 4, trios 2, trio+pair 3 + 3 (333 with 44, BB, RR; 444 with
        # 33, BB, RR), plane, rocket: 18; 333444 + BB + RR would hold all four jokers
        ("333444BBRR", 18),
        # singles 2, pairs 2, trios 2, trio+pair 2, plane, bombs 3333, 33333, 4444, 44444
        ("3333344444", 13),
    ],
)
def test_hand_counts_derived_by_hand(text, count):
    assert len(plays_of(text)) == count
    assert plays_of(text) == ref.plays(parse_hand(text))


def test_the_whole_double_deck():
    """7,964 plays (the reference's count by shape, in its docstring): well within the
    buffers, so no hand of the game can overflow them."""
    got = leads(DOUBLE_DECK, FOUR_PLAYER)
    assert len(got) == ref.count_deck_plays() == 7964
    by_kind: dict[str, int] = {}
    for m in got:
        by_kind[m.kind] = by_kind.get(m.kind, 0) + 1
    assert by_kind == {
        "single": 15,
        "pair": 15,
        "trio": 13,
        "trio+pair": 182,
        "chain": 36,
        "pair-chain": 55,
        "plane": 66,
        "plane+pairs": 7516,
        "bomb": 65,
        "rocket": 1,
    }


def test_random_hands_leads_and_follows_match_the_reference():
    rng = random.Random(41)
    deck = list(DECK)
    for _ in range(250):
        rng.shuffle(deck)
        h = hand(deck[: rng.randint(1, 33)])
        assert {play(m) for m in leads(h, FOUR_PLAYER)} == ref.plays(h)
        options = sorted(ref.plays(hand(deck[40 : 40 + rng.randint(1, 10)])))
        table = options[rng.randrange(len(options))]
        got = {play(m) for m in follows(h, as_play(table[0], FOUR_PLAYER), FOUR_PLAYER)}
        assert got == ref.follows(h, table)


@pytest.mark.parametrize(
    "cards, reading",
    [
        ("55555", ("bomb", 2)),
        ("33333333", ("bomb", 5)),
        ("BB", ("pair", 1)),
        ("BBRR", ("rocket", 1)),
        ("333BB", ("trio+pair", 1)),
        ("33344455BB", ("plane+pairs", 2)),
    ],
)
def test_readings(cards, reading):
    (m,) = readings(parse_hand(cards), FOUR_PLAYER)
    assert (m.kind, m.length) == reading


@pytest.mark.parametrize("cards", ["BR", "3334", "33334", "33335", "333444BBRR", "33BBRR"])
def test_no_reading(cards):
    assert readings(parse_hand(cards), FOUR_PLAYER) == []


@pytest.mark.parametrize(
    "high, low",
    [
        ("33333333", "2222222"),  # more cards win whatever the rank
        ("33333", "2222"),
        ("55555", "44444"),  # one size: by rank
        ("BBRR", "22222222"),  # the rocket over any bomb
        ("RR", "BB"),
        ("BB", "22"),
        ("3333", "AAA22"),  # a bomb over any non-bomb
    ],
)
def test_beating(high, low):
    a, b = as_play(parse_hand(high), FOUR_PLAYER), as_play(parse_hand(low), FOUR_PLAYER)
    assert a.beats(b) and not b.beats(a)


def test_springs_match_the_reference():
    rng = random.Random(7)
    deck = list(DECK)
    yes = 0
    for _ in range(300):
        rng.shuffle(deck)
        peasants = [hand(deck[40 + 14 * i : 40 + 14 * i + rng.randint(1, 14)]) for i in range(3)]
        peasants = peasants[: rng.randint(1, 3)]
        landlord = hand(deck[: rng.randint(1, 24)])
        result = solve_spring(landlord, tuple(peasants), FOUR_PLAYER)
        assert result.answer == (ref.spring(landlord, peasants) is not None)
        if result.answer:
            yes += 1
            ref.check_spring_line(landlord, peasants, [play(m) for m in result.line])
    assert yes > 30


def test_full_deals_spring_as_the_reference_says():
    """Deals of 33/25/25/25, leaning the landlord's hand to high cards so that some are
    springs; the batch kernel agrees with the one-deal call."""
    from solver.deals import random_deals

    deals = random_deals(5, 60, 1.5, FOUR_PLAYER)
    answers = solve_many(np.array(deals, np.int64), FOUR_PLAYER).tolist()
    for d, answer in zip(deals, answers, strict=True):
        assert [sum(h) for h in d] == [33, 25, 25, 25]
        result = solve_spring(d[0], tuple(d[1:]), FOUR_PLAYER)
        assert result.answer == answer == (ref.spring(d[0], d[1:]) is not None)
        if answer:
            ref.check_spring_line(d[0], d[1:], [play(m) for m in result.line])
    assert 10 < sum(answers) < 50


def random_position(rng: random.Random) -> tuple:
    deck = list(DECK)
    rng.shuffle(deck)
    players = rng.randint(2, 4)
    hands, at = [], 0
    for _ in range(players):
        size = rng.randint(1, 5)
        hands.append(hand(deck[at : at + size]))
        at += size
    to_move = rng.randrange(players)
    table = owner = None
    if rng.random() < 0.5:
        owner = rng.choice([i for i in range(players) if i != to_move])
        options = sorted(ref.plays(hand(deck[at : at + rng.randint(1, 6)])))
        table = options[rng.randrange(len(options))]
    return hands, to_move, table, owner


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_forced_wins_match_the_reference_and_lines_replay(strategy):
    """One, two and three cooperating peasants, either side to move, table plays: the
    answer is the reference minimax's, and every line replays move by move to it."""
    rng = random.Random(3)
    searcher = make_searcher(strategy, 4)
    seen = set()
    for _ in range(300):
        hands, to_move, table, owner = random_position(rng)
        pos = make_position(hands, to_move, table[0] if table else None, owner, FOUR_PLAYER)
        result = solve_win(searcher, pos)
        expected = ref.minimax(tuple(hands), to_move, table, owner)
        assert result.answer == expected
        line = [None if s.move is None else play(s.move) for s in result.line]
        assert ref.replay(tuple(hands), to_move, table, owner, line) == expected
        seen.add((len(hands), expected))
    assert seen == {(p, a) for p in (2, 3, 4) for a in (True, False)}


def test_three_peasants_cooperate():
    """Peasant 3 alone can go out (a single 3), but only over a partner's low lead: the
    landlord's single 2 holds peasant 1's lead, yet peasant 1 leads the 4 and passes."""
    pos = parse_position("L=2AA P1=45 P2=6 P3=3 TO=P1 RULES=four-player")
    assert Searcher().value(pos) == int(ref.minimax(pos.hands, 1, None, None))


@pytest.mark.parametrize("to_move", ["P1", "P3"])
def test_three_peasants_shut_out(to_move):
    """Each peasant must play a single before his last play and none holds a bomb: the
    landlord's 2 takes the first such single and his 4 goes out. Settled in one node."""
    pos = parse_position(f"L=42 P1=5567 P2=89TJ P3=36 TO={to_move} RULES=four-player")
    searcher = Searcher(memory_mb=1)
    assert searcher.value(pos) == int(ref.minimax(pos.hands, pos.to_move, None, None))
    assert searcher.stats.nodes == 1


def test_the_key_tells_eight_fives_from_four():
    """Counts of up to eight: each hand keeps every card in its key."""

    def key(spec: str) -> tuple:
        pos = parse_position(spec + " RULES=four-player")
        packed = [pack(h) for h in pos.hands] + [0] * (4 - pos.players)
        k = table_key(*packed, pos.to_move, 1 << 16)
        return (k.hand0, k.hand1, k.hand2, k.hand3, k.info)

    assert key("L=6 P1=55555555") != key("L=6 P1=3333333355555555")
    assert key("L=6 P1=5555 P2=3 P3=4") != key("L=6 P1=5555 P2=3 P3=44")
    assert key("L=5 P1=77777777") == key("L=6 P1=88888888")  # only the order counts
    searcher = Searcher(1)
    for spec, wins in (("L=666663 P1=55555555", False), ("L=666663 P1=5555", True)):
        pos = parse_position(spec + " RULES=four-player")
        assert (searcher.value(pos) == WIN) == wins == ref.minimax(pos.hands)


def run(*args: str, input: str | None = None):
    return CliRunner().invoke(main, list(args), input=input)


def test_bad_four_player_input_is_one_clear_line(tmp_path):
    r = run("moves", "555555555", "--rules", "four-player")
    assert r.exit_code == 2 and "holds 9 x 5: the deck has only 8" in r.output
    r = run("best", "L=RRR P1=3", "--rules", "four-player")
    assert r.exit_code == 2 and "holds 3 x R: the deck has only 2 of that joker" in r.output
    r = run("moves", "33", "--rules", "five-player")
    assert r.exit_code == 2 and "'five-player' is not one of 'classic', 'four-player'" in r.output
    r = run("best", "L=3 P1=4 P2=5 P3=6")
    assert r.exit_code == 2 and "classic game has 2 to 3 hands, got 4" in r.output
    bad = tmp_path / "bad.toml"
    bad.write_text('[[puzzle]]\nrules = "five"\nlandlord = "3"\npeasants = ["4"]\n')
    r = run("solve", str(bad))
    assert r.exit_code == 2 and "line 2" in r.output and "unknown rules 'five'" in r.output
    stake = tmp_path / "stake.toml"
    stake.write_text(
        '[[puzzle]]\nquestion = "stake"\nrules = "four-player"\nlandlord = "3"\npeasants = ["4"]\n'
    )
    r = run("solve", str(stake))
    assert r.exit_code == 2 and "stake question is asked of the classic game only" in r.output


def test_a_short_four_player_deal_is_refused(tmp_path):
    deal = run("deal", "--seed", "2", "--rules", "four-player").output.split("\n")
    assert [len(x) for x in deal[1:5]] == [33, 25, 25, 25]
    short = tmp_path / "short.in"
    short.write_text("\n".join([deal[0], *deal[1:4], deal[4][:-1]]) + "\n")
    r = run("validate", str(short), "--rules", "four-player")
    assert r.exit_code == 2
    assert "peasant 3's hand" in r.output and "has 24 cards, expected 25" in r.output
    r = run("validate", str(tmp_path / "short.in"))  # as a classic file: 33 cards
    assert r.exit_code == 2 and "holds more than 4 x 3" in r.output
    seats = run("deal", "--seed", "2", "--rules", "four-player", "--format", "deal").output
    hands = tomllib.loads(seats)["deal"][0]["hands"]
    spec = " ".join(f"S{i}={h}" for i, h in enumerate(hands, 1)) + " KITTY=3"
    r = run("analyze", spec, "--rules", "four-player")
    assert r.exit_code == 2 and "KITTY '3' has 1 card, expected 8" in r.output


def test_the_named_rule_sets():
    assert rule_set("four-player") is FOUR_PLAYER
    assert FOUR_PLAYER.landlord_cards == 33 and FOUR_PLAYER.players == 4
    with pytest.raises(RuleError, match="unknown rules 'five'"):
        rule_set("five")
    with pytest.raises(RuleError, match="2 to 4 hands, got 5"):
        make_position([(1,) + (0,) * 14] * 5, rules=FOUR_PLAYER)


def test_the_bundled_four_player_puzzles_are_the_references_answers():
    """Every puzzle of ``puzzles/09-four-player.toml``: its expected answer is the
    solver's and the reference's, and its line replays (a spring's as a spring)."""
    from pathlib import Path

    from solver.api import Solver
    from solver.puzzles import load_file

    puzzles = load_file(Path(__file__).parents[1] / "puzzles" / "09-four-player.toml")
    solver = Solver()
    for p in puzzles:
        assert not isinstance(p, Exception), p
        assert p.rules == FOUR_PLAYER
        sol = solver.solve(p)
        assert sol.answer == p.expect, p.name
        if p.question == "spring":
            assert (ref.spring(p.landlord, p.peasants) is not None) == p.expect, p.name
            if p.expect:
                ref.check_spring_line(p.landlord, p.peasants, [play(m) for m in sol.result.line])
            continue
        pos = p.position()
        table = None if pos.table is None else play(pos.table)
        assert ref.minimax(pos.hands, pos.to_move, table, pos.owner) == p.expect, p.name
        line = [None if s.move is None else play(s.move) for s in sol.result.line]
        assert ref.replay(pos.hands, pos.to_move, table, pos.owner, line) == p.expect, p.name


def test_a_four_player_deal_file_names_its_game_and_reads_back(tmp_path):
    deals = run("deal", "--seed", "3", "--rules", "four-player", "--format", "deal").output
    assert 'rules = "four-player"' in deals
    path = tmp_path / "d.toml"
    path.write_text(deals)
    from solver.deals import load_deals

    (deal,) = load_deals(path.read_bytes(), str(path))
    assert deal.rules == FOUR_PLAYER and [sum(h) for h in deal.hands] == [25] * 4
    assert "RULES=four-player" in deal.describe()
    path.write_text(deals.replace('rules = "four-player"\n', ""))
    r = run("analyze", str(path))
    assert r.exit_code == 2 and "'hands' must list the three seats' hands" in r.output
    assert 'rules = "four-player"' in r.output


def test_a_history_of_the_four_player_game_counts_its_own_bombs():
    """Six of a rank out of play make a bomb that doubles: with seven 4s out, twelve
    ranks can have been bombed (not the 3s: five are held), and the rocket played."""
    from solver.endgame import parse_staked

    spec = "L=33333 P1=4 RULES=four-player LANDLORD_PLAYS=1 PEASANTS_PLAYED=yes BOMBS="
    assert parse_staked(spec + "13")[1].bombs == 13
    with pytest.raises(RuleError, match="make at most 13"):
        parse_staked(spec + "14")
    pos, _ = parse_staked("L=33333 P1=4 RULES=four-player")
    assert parse_position(describe(pos)) == pos


@pytest.mark.parametrize("table, multiplier", [("3333", 2), ("333333", 4), ("BBRR", 4)])
def test_a_play_on_the_table_doubles_by_the_four_player_rules(table, multiplier):
    """A four-card bomb does not double in the four-player game; six of a kind and the
    rocket do, and the history a position implies (and a puzzle's) counts them so."""
    spec = f"L=44 P1=55 P2=6 TO=P2 TABLE={table}@P1 RULES=four-player"
    r = run("best", spec, "--lines", "--json")
    assert r.exit_code == 0, r.output
    stake = json.loads(r.stdout)["moves"][0]["stake"]
    assert stake["multiplier"] == multiplier and stake["anti_spring"]
    pos = parse_position(spec)
    no_bomb = History(0, True, 1)
    if multiplier == 2:  # a four-card bomb doubled nothing
        no_bomb.check(pos.to_move, pos.table, pos.owner, pos.rules)
    else:
        with pytest.raises(RuleError, match="doubled the stake, so bombs >= 1"):
            no_bomb.check(pos.to_move, pos.table, pos.owner, pos.rules)
