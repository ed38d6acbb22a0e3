"""The forced-win search: published answers, agreement with the slow reference minimax,
lines replayed move by move by independent code, determinism, limits."""

import random

import pytest
import reference as ref
from conftest import SHARED, random_split

from solver.cards import parse_hand
from solver.endgame import parse_position, solve_win
from solver.errors import LandlordError
from solver.rules import BANNABLE, CLASSIC
from solver.search import LOSS, UNKNOWN, WIN, Searcher, make_position


def published():
    for line in (SHARED / "endgames" / "published.txt").read_text().splitlines():
        body = line.split("#")[0].split()
        fields = dict(kv.split("=") for kv in body)
        yield fields


def replay(pos, line, value):
    """Check a line with the reference rules alone: every move legal, the game over at the
    end, and won by the side the answer names."""
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
            assert play in ref.plays(tuple(hands[mover]), bans), f"move {k}: not a legal play"
            assert table is None or ref.beats(play, table), f"move {k}: does not beat"
            hands[mover] = [a - b for a, b in zip(hands[mover], m.cards, strict=True)]
            table, owner = play, mover
            if not any(hands[mover]):
                assert k == len(line) - 1, "the line goes on after the game ended"
                assert (mover == 0) == (value == WIN), "the wrong side went out"
                return
        mover = (mover + 1) % len(hands)
        if table is not None and mover == owner:
            table = owner = None
    raise AssertionError("the line ends before the game does")


@pytest.mark.parametrize("fields", list(published()), ids=lambda f: f["ID"])
def test_published_endgames(fields):
    bans = fields["BAN"].split(",") if "BAN" in fields else []
    pos = make_position(
        [parse_hand(fields["L"]), parse_hand(fields["P1"])], rules=CLASSIC.with_bans(bans)
    )
    result = solve_win(Searcher(memory_mb=32), pos)
    assert result.value == (WIN if fields["ANSWER"] == "win" else LOSS)
    replay(pos, result.line, result.value)


def random_position(rng, players):
    sizes = [rng.randint(1, 7 if players == 2 else 5) for _ in range(players)]
    cut = random_split(rng, (*sizes, rng.randint(1, 6)))
    hands, extra = cut[:players], cut[players]
    to_move = rng.randrange(players)
    table = owner = None
    if rng.random() < 0.4:
        table = rng.choice(sorted(ref.plays(extra)))
        owner = rng.choice([p for p in range(players) if p != to_move])
    bans = frozenset(b for b in BANNABLE if rng.random() < 0.15)
    return hands, to_move, table, owner, bans


@pytest.mark.parametrize("players", [2, 3])
def test_agrees_with_reference_minimax(players):
    rng = random.Random(10 + players)
    searcher = Searcher(memory_mb=4)
    for _ in range(250 if players == 2 else 150):
        hands, to_move, table, owner, bans = random_position(rng, players)
        pos = make_position(
            list(hands),
            to_move,
            None if table is None else table[0],
            owner,
            CLASSIC.with_bans(bans),
        )
        if table is not None and pos.table.kind != table[1]:
            continue  # the reference reads the cards another way: not the same position
        want = ref.minimax(hands, to_move, table, owner, bans)
        result = solve_win(searcher, pos)
        assert result.value == (WIN if want else LOSS), (hands, to_move, table, owner, bans)
        replay(pos, result.line, result.value)


def test_three_players_peasants_cooperate():
    # peasant 1 must lead the 5, keeping the J: the landlord then has to spend a card
    pos = parse_position("L=792 P1=5J P2=34 TO=P1")
    result = solve_win(Searcher(memory_mb=4), pos, all_moves=True)
    assert result.value == LOSS
    replay(pos, result.line, result.value)
    outcomes = {step.text: v for step, v, _ in result.first_moves}
    assert outcomes == {"5": LOSS, "J": WIN}


def test_deterministic_nodes_and_lines():
    pos = parse_position("L=45569TKA2 P1=4588TJKB")
    runs = [solve_win(Searcher(memory_mb=8), pos) for _ in range(2)]
    again = Searcher(memory_mb=8)
    solve_win(again, parse_position("L=3455KK P1=345522"))  # the table held other things
    runs.append(solve_win(again, pos))
    assert len({r.stats.nodes for r in runs}) == 1
    assert len({tuple(map(str, r.line)) for r in runs}) == 1


def test_old_entries_never_count_even_after_the_table_is_wiped():
    pos = parse_position("L=3455KK P1=345522")
    fresh = solve_win(Searcher(memory_mb=1), pos).stats.nodes
    busy = Searcher(memory_mb=1)
    for _ in range(300):  # more questions than an entry can number: one wipe on the way
        assert solve_win(busy, pos).stats.nodes == fresh


def test_limits_give_unknown_not_a_wrong_answer():
    pos = parse_position("L=3568899JQQA P1=33459TJJQK2")
    result = solve_win(Searcher(memory_mb=4, node_limit=500), pos)
    assert result.value == UNKNOWN and result.answer is None
    assert result.stats.aborted == "node limit"
    result = solve_win(Searcher(memory_mb=4, time_limit=1e-4), pos)
    assert result.value == UNKNOWN and result.stats.aborted == "time limit"


@pytest.mark.parametrize(
    "spec, what",
    [
        ("L=3 P1=4 TABLE=34@P1", "not a legal combination"),
        ("L=3 P1=4 TABLE=5@L", "owns the table play and is also to move"),
        ("L=3 P1=4 TABLE=5", "needs its owner"),
        ("L=3 P1=3333", "5 x 3"),
        ("L=3 P1=4 TABLE=3333@P1", "5 x 3"),
        ("L=3 P1=4 TO=P2", "no peasant2"),
        ("L=3 P1=", "hand is empty"),
        ("L=3 Q=4", "unexpected 'Q=4'"),
    ],
)
def test_bad_positions(spec, what):
    with pytest.raises(LandlordError, match=what):
        parse_position(spec)
