"""The stake question: agreement with the slow reference minimax over values, lines whose
stake (recounted by independent code) is the value, and the goal words of the yes/no
searches."""

import random

import pytest
import reference as ref
from conftest import STRATEGIES, make_searcher, random_split
from test_search import random_position

from solver.bench import stake_list
from solver.endgame import parse_position
from solver.errors import RuleError
from solver.goal import PLAIN, goal_after, goal_for
from solver.rules import CLASSIC
from solver.scoring import History, check_history_cards
from solver.search import WIN, Searcher, make_position
from solver.stake import final_score, score_value, solve_stake, stake_score


def random_history(rng, pos):
    """A history the position can follow from (the start of a hand half the time when the
    landlord leads freely)."""
    for _ in range(50):
        if pos.to_move == 0 and pos.table is None and rng.random() < 0.5:
            history = History()
        else:
            history = History(
                rng.choice([0, 0, 1, 2]), rng.random() < 0.5, rng.choice([1, 1, 2, 3])
            )
        try:
            history.check(pos.to_move, pos.table, pos.owner, pos.rules)
            check_history_cards(history, pos.hands, pos.table)
        except RuleError:
            continue
        return history
    return None


def check_stake(searcher, pos, history, all_moves=False):
    """Solve the stake question; check the value against the reference, the line's stake
    against the value, and (with ``all_moves``) each first move's value."""
    table = (
        None
        if pos.table is None
        else (pos.table.cards, pos.table.kind, pos.table.rank, pos.table.length)
    )
    fields = (history.bombs, history.peasants_played, history.landlord_plays)
    want = ref.value_minimax(pos.hands, pos.to_move, table, pos.owner, *fields, pos.rules.bans)
    result = solve_stake(searcher, pos, history, bid=2, all_moves=all_moves)
    where = (pos, history)
    assert result.value == want, where
    assert result.points == 2 * want
    assert result.answer == (want > 0)
    assert ref.replay_stake(pos, result.line, *fields) == want, where
    assert result.stake is not None and result.stake.value == want
    assert result.stake.points == 2 * want
    if all_moves:
        for step, score, _ in result.first_moves:
            child = pos.after(step.move)
            after = history.after(step.player, step.move)
            if child.winner is not None:
                continue
            t = (
                None
                if child.table is None
                else (child.table.cards, child.table.kind, child.table.rank, child.table.length)
            )
            f = (after.bombs, after.peasants_played, after.landlord_plays)
            assert score_value(score) == ref.value_minimax(
                child.hands, child.to_move, t, child.owner, *f, pos.rules.bans
            ), (where, step)
    return want


def agrees(searcher, rng, hands, to_move, table, owner, bans):
    rules = CLASSIC.with_bans(bans)
    pos = make_position(list(hands), to_move, None if table is None else table[0], owner, rules)
    if table is not None and pos.table.kind != table[1]:
        return None
    history = random_history(rng, pos)
    if history is None:
        return None
    return check_stake(searcher, pos, history, all_moves=rng.random() < 0.2)


@pytest.mark.parametrize("players", [2, 3])
def test_agrees_with_reference_value_minimax(players):
    rng = random.Random(50 + players)
    searcher = Searcher(memory_mb=4)
    values = set()
    for _ in range(200 if players == 2 else 120):
        values.add(agrees(searcher, rng, *random_position(rng, players)))
    # wins and losses, with and without doublings, all met
    assert {1, 2, -1, -2} <= values


@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize("players", [2, 3])
def test_agrees_with_reference_where_bombs_abound(players, strategy):
    """Hands from a deck of few ranks, so that bombs and the rocket are common (the
    goals of many doublings: each strategy)."""
    rng = random.Random(60 + players)
    searcher = make_searcher(strategy, 4)
    values = set()
    for _ in range(60 if players == 2 else 40):
        sizes = [rng.randint(2, 7 if players == 2 else 5) for _ in range(players)]
        hands = random_split(rng, tuple(sizes), (0, 1, 2, 3, 12, 13, 14))
        to_move = rng.randrange(players)
        table = owner = None
        values.add(agrees(searcher, rng, hands, to_move, table, owner, frozenset()))
    assert max(v for v in values if v) >= 4 and min(v for v in values if v) <= -4


def test_goal_words_follow_the_history():
    """The kernels' goal after a play equals the goal worked out afresh from the history
    after it: the search and the lines it gives agree on what each node must achieve."""
    rng = random.Random(7)
    searcher = Searcher(memory_mb=4)
    for _ in range(300):
        hands, to_move, table, owner, bans = random_position(rng, 3)
        pos = make_position(list(hands), to_move, None if table is None else table[0], owner)
        history = random_history(rng, pos)
        if history is None:
            continue
        for threshold in (-3, -2, -1, 1, 2, 3, 4):
            goal = goal_for(threshold, history)
            for move in searcher.moves(pos):
                meta = 0 if move is None else move.meta
                after = history.after(pos.to_move, move)
                assert goal_after(goal, pos.to_move, meta) == goal_for(threshold, after)


def test_a_settled_goal_is_the_win_question():
    assert goal_for(1, History()) == PLAIN
    assert goal_for(2, History(bombs=1, landlord_plays=1)) == PLAIN
    assert goal_for(-1, History(bombs=1, landlord_plays=1)) == PLAIN
    assert goal_for(-2, History(bombs=1, landlord_plays=1)) != PLAIN


@pytest.mark.parametrize(
    "spec, history, value",
    [
        # 3333KA goes out at once as a quad + two singles: a spring, x2. Bombing with 3333
        # first would double too, but the 2 then beats the K or the A and goes out.
        ("L=3333KA P1=2", History(), 2),
        # the same, both peasants holding a card each
        ("L=3333KA P1=2 P2=B", History(), 2),
        # 2222 is a bomb no one can beat, then the 3: a spring with a bomb, x4
        ("L=22223 P1=4", History(), 4),
        # the peasant goes out at once with 555567 (the landlord made one play: an
        # anti-spring, -2); bombing first lets the 8 beat his 6 or 7
        ("L=8 P1=555567 TO=P1", History(0, True, 1), -2),
        # ... and after the landlord's second play there is no anti-spring
        ("L=8 P1=555567 TO=P1", History(0, True, 2), -1),
        # two bombs played already and a spring still possible: x8
        ("L=3 P1=4 TO=L", History(2, False, 1), 8),
        # the rocket and a bomb, then the 3, against the 2: x8 with the spring
        ("L=BR22223 P1=4", History(), 8),
    ],
)
def test_hand_checked_values(spec, history, value):
    pos = parse_position(spec)
    assert check_stake(Searcher(memory_mb=4), pos, history, all_moves=True) == value


@pytest.mark.parametrize(
    "spec",
    [
        # puzzles/02-edge-cases.toml E12: a bomb war, worth -32
        "L=66778899TTJJQQKKAA22 P1=BR333344445555678 P2=22AAKKQQJJTT99876",
        # the stake list's B04: 30 cards, a bomb in play, worth -4
        next(e.position for e in stake_list() if e.name == "B04"),
    ],
)
def test_a_large_value_is_the_best_of_its_childrens(spec):
    """Too large for the reference: the root's value is the best of its first moves'
    values for the mover, each solved by a fresh search with its own table, and the
    principal line (replayed by the reference) has that stake."""
    pos = parse_position(spec)
    result = solve_stake(Searcher(memory_mb=16), pos, History())
    children = []
    for move in Searcher(memory_mb=1).moves(pos):
        child, after = pos.after(move), History().after(0, move)
        if child.winner is not None:
            children.append(score_value(final_score(after, child.winner == WIN)))
        else:
            children.append(score_value(stake_score(Searcher(memory_mb=16), child, after)))
    assert result.value == max(children)
    assert ref.replay_stake(pos, result.line, 0, False, 0) == result.value
