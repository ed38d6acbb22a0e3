"""The proof-number search, and the two searches taking turns on large positions: the
answers the depth-first search gives, lines replayed by the reference rules, children
that agree with their root, determinism and limits. (The proof-number search against the
reference minimax: the reference tests of test_search.py and test_stake.py, run with
each strategy.)"""

import pytest
from reference import replay
from test_consistency import CASES, deal

import solver.search
from solver.endgame import describe, parse_position, solve_win
from solver.search import LOSS, UNKNOWN, WIN, Position, Searcher

MEMORY_MB = 8
SMALL_BUDGET = 3000  # the depth-first search's first turn, so that both searches take turns


@pytest.fixture()
def short_turns(monkeypatch):
    monkeypatch.setattr(solver.search, "FIRST_BUDGET", SMALL_BUDGET)


@pytest.mark.parametrize(
    "players, seed, bans, answer",
    CASES,
    ids=[f"{p}p-{s}{'-bans' * bool(b)}" for p, s, b, _ in CASES],
)
def test_large_positions_answer_alike_in_turns_and_alone(players, seed, bans, answer, short_turns):
    """Positions of 30-54 cards that the depth-first search answers (test_consistency):
    the proof-number search alone and the two in turns give its answer, and lines that
    replay to it; and the root's answer is the OR (or AND) of its children's, each found
    by a proof-number search of its own."""
    pos = deal(players, seed, bans)
    where = describe(pos)
    for strategy in ("auto", "proof-number"):
        result = solve_win(Searcher(MEMORY_MB, strategy=strategy), pos)
        assert result.value == answer, (where, strategy)
        replay(pos, result.line, result.value)
    children = [fresh_value(pos.after(m)) for m in Searcher(1).moves(pos)]
    assert UNKNOWN not in children, where
    mine, theirs = (WIN, LOSS) if pos.to_move == 0 else (LOSS, WIN)
    assert answer == (mine if mine in children else theirs), (where, children)


def fresh_value(pos: Position) -> int:
    """The proof-number search's value from a searcher of its own: no entry shared."""
    if pos.winner is not None:
        return pos.winner
    searcher = Searcher(MEMORY_MB, strategy="proof-number")
    searcher.start(pos.rules)
    return searcher.value(pos)


def test_turns_are_taken_and_their_nodes_counted(short_turns):
    """A position the depth-first search needs more than its first turn for: the turns
    add up to the nodes reported, the same every time; the node limit counts them all."""
    pos = deal(3, 663)  # 41 cards: 175,765 nodes depth first
    alone = Searcher(MEMORY_MB, strategy="depth-first")
    alone.start(pos.rules)
    assert alone.value(pos) == WIN and alone.stats.nodes > 4 * SMALL_BUDGET
    runs = []
    for _ in range(2):
        searcher = Searcher(MEMORY_MB)
        searcher.start(pos.rules)
        assert searcher.value(pos) == WIN
        assert searcher.stats.aborted is None  # a turn's end is no limit
        runs.append(searcher.stats.nodes)
    assert runs[0] == runs[1]
    # a limit one below the answer, and one where a turn ends (it counts one node more
    # than its budget: the node that found the budget spent)
    for limit in (runs[0] - 1, SMALL_BUDGET + 1):
        limited = Searcher(MEMORY_MB, node_limit=limit)
        limited.start(pos.rules)
        assert limited.value(pos) == UNKNOWN and limited.stats.aborted == "node limit"
        assert limited.stats.nodes <= limit + 1, limit


def test_proof_number_search_is_deterministic_and_stops_at_limits():
    pos = parse_position("L=3446677889TTJQ22 P1=33566889TJJKK2 P2=34557799QKKA2B")
    runs = [solve_win(Searcher(MEMORY_MB, strategy="proof-number", node_limit=300_000), pos)]
    runs.append(solve_win(Searcher(MEMORY_MB, strategy="proof-number", node_limit=300_000), pos))
    assert runs[0].value == UNKNOWN and runs[0].stats.aborted == "node limit"
    assert runs[0].stats.nodes == runs[1].stats.nodes
    timed = solve_win(Searcher(MEMORY_MB, strategy="proof-number", time_limit=0.05), pos)
    assert timed.value == UNKNOWN and timed.stats.aborted == "time limit"
    small = parse_position("L=45569TKA2 P1=4588TJKB P2=3377")
    lines = {
        tuple(map(str, solve_win(Searcher(MEMORY_MB, strategy="proof-number"), small).line))
        for _ in range(2)
    }
    assert len(lines) == 1


@pytest.mark.parametrize("strategy", ["depth-first", "proof-number"])
def test_every_strategy_answers_small_positions(strategy):
    for spec, value in (
        ("L=3333KA P1=2", WIN),
        ("L=3568899JQQA P1=33459TJJQK2", WIN),
        ("L=45569TKA2 P1=4588TJKB P2=3377", LOSS),
    ):
        result = solve_win(Searcher(1, strategy=strategy), parse_position(spec))
        assert result.value == value, (spec, strategy)


def test_an_unknown_strategy_is_refused():
    with pytest.raises(ValueError, match="strategy"):
        Searcher(1, strategy="breadth-first")
