"""The current search gives every answer recorded in ``tests/data/answers.txt``.

The answers were made by the search as it stood before its rewrite
(``tests/make_answers.py``; provenance in ``tests/data/README.md``), so that a faster
search that answers any of these differently is caught, with every differing position
named at once.
"""

from collections import Counter

import pytest
from conftest import DATA

from solver.endgame import describe, parse_position
from solver.search import LOSS, UNKNOWN, WIN, Searcher

ANSWERS = DATA / "answers.txt"
MEMORY_MB = 16  # as tests/make_answers.py made them: node counts comparable
# Far more than any recorded position took (at most 200,000 nodes): a search that loses
# its way shows as "unknown" instead of a test that never ends.
NODE_LIMIT = 50_000_000
NAMES = {WIN: "win", LOSS: "loss", UNKNOWN: "unknown"}


def recorded() -> list[tuple[str, str]]:
    """(answer, position) for every line of the file that is not a comment."""
    rows = []
    for line in ANSWERS.read_text().splitlines():
        if line and not line.startswith("#"):
            answer, spec = line.split(" ", 1)
            rows.append((answer, spec))
    return rows


def test_the_file_holds_the_whole_mix():
    """A truncated or regenerated-wrong file would pass the answers test vacuously."""
    rows = recorded()
    assert len(rows) >= 2000
    assert {answer for answer, _ in rows} == {"win", "loss"}
    features = ("P2=", "TO=L", "TABLE=", "BAN=")  # three players, landlord to move, ...
    seen = Counter(f for _, spec in rows for f in features if f in spec)
    for f in features:  # each both present and absent in a good share of the positions
        assert 100 <= seen[f] <= len(rows) - 100, (f, seen[f])


@pytest.mark.parametrize("strategy", ["auto", "proof-number"])
def test_current_search_gives_every_recorded_answer(strategy):
    """Both searches: the proof-number one on every node of more than its leaf's cards
    (20), which most of these positions have."""
    searcher = Searcher(memory_mb=MEMORY_MB, node_limit=NODE_LIMIT, strategy=strategy)
    rows = recorded()
    wrong = []
    nodes = 0
    for answer, spec in rows:
        pos = parse_position(spec)
        assert describe(pos) == spec, f"{spec!r} does not read back as written"
        searcher.start(pos.rules)  # a new question: nothing carried over from the last
        got = NAMES[searcher.value(pos)]
        nodes += searcher.stats.nodes
        if got != answer:
            wrong.append(f"  {answer} -> {got}: {spec}")
    assert not wrong, f"{len(wrong)} of {len(rows)} answers differ ({nodes:,} nodes):\n" + (
        "\n".join(wrong)
    )


def test_a_value_has_the_sign_of_the_recorded_answer():
    """The stake question on every tenth recorded position (with the history each
    implies): a win is never worth a negative value, a loss never a positive one, and
    the line's stake is the value."""
    from solver.scoring import History
    from solver.stake import solve_stake

    searcher = Searcher(memory_mb=MEMORY_MB, node_limit=NODE_LIMIT)
    wrong = []
    for answer, spec in recorded()[::10]:
        pos = parse_position(spec)
        result = solve_stake(
            searcher, pos, History.implied(pos.to_move, pos.table, pos.owner, pos.rules)
        )
        assert result.value is not None, spec
        if (result.value > 0) != (answer == "win") or result.stake.value != result.value:
            wrong.append(f"  {answer}: value {result.value}, line {result.stake}: {spec}")
    assert not wrong, "\n".join(wrong)
