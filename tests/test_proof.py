"""The proof-number search, and the choice between the two searches: the answers the
depth-first search gives on large positions, lines replayed by the reference rules,
children that agree with their root, determinism and limits. (The proof-number search
against the reference minimax: the reference tests of test_search.py and test_stake.py,
run with each strategy.)"""

import pytest
from reference import replay
from test_consistency import CASES, deal

from solver import bench
from solver.endgame import describe, parse_position, solve_win
from solver.search import LOSS, PROOF_FROM, UNKNOWN, WIN, Position, Searcher

MEMORY_MB = 8


@pytest.mark.parametrize(
    "players, seed, bans, answer",
    CASES,
    ids=[f"{p}p-{s}{'-bans' * bool(b)}" for p, s, b, _ in CASES],
)
def test_large_positions_answer_alike_by_every_strategy(players, seed, bans, answer):
    """Positions of 30-54 cards that the depth-first search answers (test_consistency):
    the proof-number search and the default give its answer, and lines that replay to
    it; and the root's answer is the OR (or AND) of its children's, each found by a
    proof-number search of its own."""
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


@pytest.mark.parametrize(
    "spec, proof",
    [
        ("L=3344556677899TTTJJQ2 P1=34578899QKKAAAA2B", True),  # two players, 37 cards
        ("L=35566899TQKA P1=3378TTJQA2 P2=344478JKK2", False),  # three players, 32 cards
        ("L=3557TJJQKKAA2R P1=3345699TJQK2 P2=466677789TJ2", True),  # 38 cards
    ],
)
def test_the_default_searches_by_the_cards_in_play(spec, proof):
    """The default gives positions of PROOF_FROM cards or more (whatever the number of
    players) to the proof-number search and smaller ones to the depth-first search: it
    searches as that strategy does, node for node; the other strategy agrees."""
    pos = parse_position(spec)
    assert (sum(map(sum, pos.hands)) >= PROOF_FROM) == proof
    runs = {}
    for strategy in ("auto", "proof-number", "depth-first"):
        searcher = Searcher(MEMORY_MB, strategy=strategy)
        searcher.start(pos.rules)
        runs[strategy] = (searcher.value(pos), searcher.stats.nodes)
    chosen = "proof-number" if proof else "depth-first"
    assert runs["auto"] == runs[chosen]
    assert runs["proof-number"][1] != runs["depth-first"][1]  # the two can be told apart
    assert {value for value, _ in runs.values()} == {runs["auto"][0]}


def test_proof_number_search_is_deterministic_and_stops_at_limits():
    pos = parse_position("L=3446677889TTJQ22 P1=33566889TJJKK2 P2=34557799QKKA2B")
    runs = [solve_win(Searcher(MEMORY_MB, strategy="proof-number", node_limit=100_000), pos)]
    runs.append(solve_win(Searcher(MEMORY_MB, strategy="proof-number", node_limit=100_000), pos))
    # a searcher that answered another question first (its memo of winning moves is
    # forgotten between questions, like its table)
    reused = Searcher(MEMORY_MB, strategy="proof-number", node_limit=100_000)
    solve_win(reused, parse_position("L=34567789TTJQKA2 P1=3345689JQQKA2 P2=4556789TJKA22B"))
    runs.append(solve_win(reused, pos))
    assert runs[0].value == UNKNOWN and runs[0].stats.aborted == "node limit"
    assert runs[0].stats.nodes == runs[1].stats.nodes == runs[2].stats.nodes
    timed = solve_win(Searcher(MEMORY_MB, strategy="proof-number", time_limit=0.05), pos)
    assert timed.value == UNKNOWN and timed.stats.aborted == "time limit"
    small = parse_position("L=45569TKA2 P1=4588TJKB P2=3377")
    lines = {
        tuple(map(str, solve_win(Searcher(MEMORY_MB, strategy="proof-number"), small).line))
        for _ in range(2)
    }
    assert len(lines) == 1


@pytest.mark.parametrize("name", ["G38-1", "G38-3", "G38-4", "D54-8"])
def test_proof_number_positions_give_the_growth_list_s_answer_and_nodes(name):
    """The proof-number search comes back to its positions again and again, and skips
    there what cannot have changed (the quick checks; the proof table for the positions
    the depth-first search settles): it must still search as the growth list recorded,
    node for node, from an empty table of the default size."""
    entry = bench.read_growth_list(bench.default_growth_list()).entries[name]
    pos = parse_position(entry.position)
    assert sum(map(sum, pos.hands)) >= PROOF_FROM
    answer, _, nodes = bench.timed(Searcher(), pos)
    assert (answer, nodes) == (entry.answer, entry.nodes)


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


def test_a_whole_deal_won_by_proof_numbers_gets_its_line_within_the_search_s_budget():
    """A proof-number search settles few of a lead's moves: the line takes the move it
    proved (found in the table, at no node's cost) rather than searching the lead's many
    moves in their listed order, which here took more than 12 million nodes in vain."""
    pos = parse_position("L=34477899JJQKKKAAA22R P1=35666789TTTJQA22B P2=334455567889TJQQK TO=L")
    searcher = Searcher(64, node_limit=1_000_000)
    result = solve_win(searcher, pos)
    assert result.value == WIN
    assert searcher.stats.aborted is None and searcher.stats.nodes < 1_000_000
    replay(pos, result.line, result.value)


def test_a_proved_move_no_one_can_answer_is_found_past_the_forced_passes():
    """The search lets a player who cannot answer a play pass without a position of his
    own, so the proved bomb with kickers, which neither peasant can beat, is known only
    after both passes: the line must look past them (before, it searched the lead's
    moves in their listed order until the limit stopped it, and gave no line)."""
    pos = parse_position("L=444689TTTTQQKAAAA22B P1=33556678999JJJQKR P2=33455677788JQKK22 TO=L")
    searcher = Searcher(64, node_limit=1_200_000)
    result = solve_win(searcher, pos)
    assert result.value == WIN
    assert searcher.stats.aborted is None
    assert [str(step) for step in result.line[:3]] == ["L 68TTTT", "P1 pass", "P2 pass"]
    replay(pos, result.line, result.value)
    assert searcher.known(pos.after(result.line[0].move)) == WIN


def test_known_reads_the_table_and_counts_no_nodes():
    pos = parse_position("L=34477899JJQKKKAAA22R P1=35666789TTTJQA22B P2=334455567889TJQQK TO=L")
    searcher = Searcher(64)
    assert searcher.value(pos) == WIN
    nodes = searcher.stats.nodes
    assert searcher.known(pos) == WIN
    children = [searcher.known(pos.after(m)) for m in searcher.moves(pos)]
    assert WIN in children and UNKNOWN in children  # the proof settled some moves only
    assert searcher.stats.nodes == nodes and searcher.stats.aborted is None
    other = parse_position("L=34456777TQKKAA2R P1=56789TTJJQKA22 P2=34455689TJQA2B TO=L")
    assert searcher.known(other) == UNKNOWN
