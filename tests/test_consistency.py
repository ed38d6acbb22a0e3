"""Larger positions than the reference minimax can reach, checked two ways that need no
trusted answer: the root's value is the OR (the mover's side) or AND of its children's,
each child asked of a searcher of its own, so that no table entry is shared; and every
line the solver gives (the principal line and each first move's line, as ``best``
prints them) is replayed by the reference rules and must end with the answer's side out.
"""

import random

import pytest
import reference as ref
from conftest import random_split
from reference import replay

from solver.endgame import Step, describe, solve_win
from solver.rules import CLASSIC
from solver.search import LOSS, UNKNOWN, WIN, Position, Searcher, make_position

MEMORY_MB = 8
NODE_LIMIT = 50_000_000  # far beyond any of these: a lost search fails as "unknown"
NAMES = {WIN: "win", LOSS: "loss"}


def deal(players: int, seed: int, bans: tuple[str, ...] = ()) -> Position:
    """Three players with 38..54 cards in their hands or two with 30..37 (each hand 10..20
    and peasants' at most 17 of three); any mover; 2 in 5 with a play on the table, taken
    from cards outside the hands and owned by another player than the mover."""
    rng = random.Random(seed)
    rules = CLASSIC.with_bans(bans)
    if players == 3:
        n = rng.randint(38, 54)
        lord = rng.randint(max(10, n - 34), min(20, n - 12))
        p1 = rng.randint(max(3, n - lord - 17), min(17, n - lord - 3))
        sizes = (lord, p1, n - lord - p1)
    else:
        n = rng.randint(30, 37)
        lord = rng.randint(max(10, n - 20), min(20, n - 10))
        sizes = (lord, n - lord)
    *hands, extra = random_split(rng, (*sizes, min(6, 54 - n)))
    to_move = rng.randrange(players)
    if any(extra) and rng.random() < 0.4:
        table = rng.choice(sorted(ref.plays(extra, bans)))[0]
        owner = rng.choice([p for p in range(players) if p != to_move])
        return make_position(hands, to_move, table, owner, rules)
    return make_position(hands, to_move, rules=rules)


TRIOS = ("trio+single", "trio+pair")  # banned as in many published puzzles
WIDE = ("quad+singles", "quad+pairs", "plane+singles", "plane+pairs")
# (players, seed, bans, answer): positions that today's search answers within a second,
# children and lines included; both answers, either side to move, a lead or a play to beat.
CASES = [
    (3, 8, (), LOSS),  # peasant 1 leads, 45 cards
    (3, 15, TRIOS, LOSS),  # landlord leads, 44 cards (every move loses)
    (3, 52, (), LOSS),  # landlord answers a trio and single, 46 cards
    (3, 53, (), LOSS),  # peasant 2 answers his partner's 2, 44 cards
    (3, 62, WIDE, LOSS),  # peasant 1 leads, 43 cards
    (3, 286, (), LOSS),  # landlord answers an ace, 53 cards
    (3, 139, WIDE, WIN),  # peasant 2 leads, 38 cards (every move loses for the peasants)
    (3, 663, (), WIN),  # peasant 2 leads, 41 cards
    (3, 1199, (), WIN),  # landlord answers an ace, 40 cards
    (3, 1604, (), WIN),  # landlord leads, 38 cards
    (3, 1131, (), WIN),  # peasant 1 answers his partner's ten, 38 cards
    (2, 2, (), LOSS),  # the peasant leads, 30 cards
    (2, 10, TRIOS, WIN),  # the peasant leads, 30 cards
    (2, 13, (), LOSS),  # the landlord answers a nine, 34 cards
    (2, 16, WIDE, WIN),  # the landlord leads, 35 cards
    (2, 28, WIDE, LOSS),  # the peasant answers a four, 31 cards
    (2, 11, (), WIN),  # the landlord answers the red joker, 37 cards
    (2, 87, (), LOSS),  # the landlord leads, 32 cards
    (2, 24, (), WIN),  # the peasant leads, 36 cards
    (2, 106, (), LOSS),  # the landlord answers a pair, 37 cards
]


def fresh_value(pos: Position) -> int:
    """The value from a searcher of its own: nothing known beforehand."""
    if pos.winner is not None:
        return pos.winner
    searcher = Searcher(memory_mb=MEMORY_MB, node_limit=NODE_LIMIT)
    searcher.start(pos.rules)
    return searcher.value(pos)


def check_line(pos: Position, line: list[Step], value: int, what: str) -> None:
    """The reference replay, its failure naming the position and the line."""
    try:
        replay(pos, line, value)
    except AssertionError as e:
        moves = " ".join(map(str, line))
        raise AssertionError(f"{describe(pos)}: {what} [{moves}]: {e}") from None


@pytest.mark.parametrize(
    "players, seed, bans, answer",
    CASES,
    ids=[f"{p}p-{s}{'-bans' * bool(b)}" for p, s, b, _ in CASES],
)
def test_root_is_the_or_and_of_its_children_and_lines_replay(
    players: int, seed: int, bans: tuple[str, ...], answer: int
) -> None:
    pos = deal(players, seed, bans)
    where = describe(pos)
    root = fresh_value(pos)
    moves = Searcher(memory_mb=1).moves(pos)
    children = [fresh_value(pos.after(m)) for m in moves]
    assert UNKNOWN not in children and root != UNKNOWN, where
    mine, theirs = (WIN, LOSS) if pos.to_move == 0 else (LOSS, WIN)
    assert root == (mine if mine in children else theirs), (where, root, children)
    assert root == answer, f"{where}: today's search answered {NAMES[answer]}"

    result = solve_win(Searcher(memory_mb=MEMORY_MB), pos, all_moves=True, lines=True)
    assert result.value == root, where
    check_line(pos, result.line, result.value, "the principal line")
    assert result.first_moves is not None
    assert [step.move for step, _, _ in result.first_moves] == moves, where
    for (step, value, follow), fresh in zip(result.first_moves, children, strict=True):
        assert value == fresh, (where, str(step))  # the shared table says the same
        check_line(pos, [step, *follow], value, f"the line after {step}")
