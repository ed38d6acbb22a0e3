"""The double-dummy table of a deal: deals before the auction, and each seat's answer."""

import json

import pytest
from click.testing import CliRunner

from cli import main
from solver.deals import deal_arguments, iter_deals, iter_open_deals, load_deals, parse_deal
from solver.endgame import solve_win
from solver.search import WIN, Searcher, make_position


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_seat_one_of_a_deal_is_the_contest_deal():
    for strength in (0.0, 0.3):
        opened = [d.landlord_hands(0) for d in iter_open_deals(3, 40, strength)]
        assert opened == [list(d) for d in iter_deals(3, 40, strength)]


def test_deal_files_round_trip(tmp_path):
    text = run("deal", "--seed", 4, "-n", 3, "--format", "deal").stdout
    deals = load_deals(text.encode(), "d.toml")
    assert [d.name for d in deals] == [f"seed 4 deal {k}" for k in (1, 2, 3)]
    assert [d.line for d in deals] == [1, 6, 11]
    assert [parse_deal(d.describe()).hands for d in deals] == [d.hands for d in deals]
    made = list(iter_open_deals(4, 3))
    assert [(d.hands, d.kitty) for d in deals] == [(d.hands, d.kitty) for d in made]


@pytest.mark.parametrize(
    "spec, what",
    [
        ("S1=3 S2=4 S3=5 KITTY=6", "S1 '3' has 1 card, expected 17"),
        ("S1=3 S2=4 S3=5", "needs KITTY="),
        ("S1=3 S1=4", "S1= is given twice"),
        ("S4=3", "unexpected 'S4=3'"),
    ],
)
def test_bad_deals_on_the_command_line(spec, what):
    result = run("analyze", spec)
    assert result.exit_code == 2 and what in result.stderr


def test_a_deal_must_be_the_whole_deck():
    deal = next(iter_open_deals(1, 1)).describe()
    swapped = deal.replace("KITTY=", "KITTY=3", 1)[:-1]  # one card of the kitty made a 3
    result = run("analyze", swapped)
    assert result.exit_code == 2 and "a deal is the whole deck" in result.stderr


def test_a_card_dealt_twice_is_named():
    deal = next(iter_open_deals(1, 1)).describe()  # seat 2 holds the black joker
    twice = deal.replace("B", "R", 1)
    result = run("analyze", twice)
    assert result.exit_code == 2
    assert result.stderr.endswith(": the deal holds 2 x R: a deal is the whole deck, 1 of each\n")


DEAL = run("deal", "--seed", 1, "--format", "deal").stdout
PUZZLE = run("deal", "--seed", 1, "--format", "toml").stdout
BOTH = ": [[deal]] and [[puzzle]] tables in one file: deals and puzzles go in separate files"


@pytest.mark.parametrize(
    "text, command, what",
    [
        (DEAL + PUZZLE, "analyze", BOTH),
        (PUZZLE + DEAL, "solve", BOTH),
        (
            "seed = 1\n" + DEAL,
            "analyze",
            ", line 1: key 'seed' outside a [[deal]] table in a file that has [[deal]] tables",
        ),
        (
            DEAL,
            "solve",
            ": a file of [[deal]] tables: `landlord analyze` and `landlord batch` answer deals",
        ),
        (
            PUZZLE,
            "analyze",
            ": no deal in the file (expected [[deal]] tables; puzzles go to `landlord solve`)",
        ),
        ("", "analyze", ": no deal in the file (expected [[deal]] tables)"),
    ],
)
def test_a_file_is_of_deals_or_of_puzzles(tmp_path, text, command, what):
    path = tmp_path / "f.toml"
    path.write_text(text)
    result = run(command, path)
    assert result.exit_code == 2
    assert f"error: {path}{what}\n" in result.stderr
    if what == BOTH:  # batch reads deals and puzzles, but not from one file
        batch = run("batch", path, "--out", tmp_path / "out.jsonl")
        assert batch.exit_code == 2
        assert json.loads((tmp_path / "out.jsonl").read_text())["error"] == f"{path}{what}"


def test_bad_deal_files(tmp_path):
    path = tmp_path / "d.toml"
    path.write_text('[[deal]]\nname = "x"\nhands = ["3", "4"]\nkitty = "5"\n')
    result = run("analyze", path)
    assert result.exit_code == 2
    assert "line 1, deal 'x': 'hands' must list the three seats' hands" in result.stderr
    classic = run("analyze", path, "--rules", "four-player")
    assert classic.exit_code == 2
    assert "of the four-player game (the game --rules four-player names; a classic deal" in (
        classic.stderr
    )


@pytest.mark.parametrize(
    "table, what",
    [
        ('hands = ["3", "4", "5"]', "no 'kitty': a deal needs hands and kitty"),
        ('kitty = "3"', "no 'hands': a deal needs hands and kitty"),
        ('hands = ["3", "4", "5"]\nkitty = 3', "'kitty' must be a string of cards"),
        ('hands = [3, "4", "5"]\nkitty = "3"', "'hands' must list strings of cards"),
        (
            'rules = "four-player"\nhands = ["3", "4", "5"]\nkitty = "3"',
            "'hands' must list the four seats' hands of the four-player game",
        ),
    ],
)
def test_each_fault_of_a_deal_table_is_named(tmp_path, table, what):
    path = tmp_path / "d.toml"
    path.write_text(f'[[deal]]\nname = "x"\n{table}\n')
    result = run("analyze", path)
    assert result.exit_code == 2
    assert result.stderr.splitlines()[-1] == f"error: {path}, line 1, deal 'x': {what}"


def test_the_table_of_a_deal(tmp_path):
    """Seats of biased deals that are decided in a few thousand nodes; each answer is the
    search's on the seat's own position, and seat 1's winning move keeps the win."""
    path = tmp_path / "d.toml"
    path.write_text(
        run("deal", "--seed", 7, "-n", 12, "--strength", 0.6, "--format", "deal").stdout
    )
    deals = [d for d in load_deals(path.read_bytes(), str(path)) if d.name.endswith(" 10")]
    spec = deals[0].describe()
    result = run("analyze", spec, "--json", "--workers", 2)
    assert result.exit_code == 0, result.output
    record = json.loads(result.stdout)
    assert record["name"] == spec and record["deal"] == spec
    seats = record["seats"]
    assert [s["seat"] for s in seats] == [1, 2, 3]
    assert [s["answer"] for s in seats] == [True, False, False]
    assert seats[1]["move"] is None and all(s["nodes"] > 0 for s in seats)
    searcher = Searcher(16)
    for s in seats:
        pos = make_position(deals[0].landlord_hands(s["seat"] - 1))
        assert solve_win(searcher, pos).answer == s["answer"]
    lead = make_position(deals[0].landlord_hands(0))
    first = next(m for m in searcher.moves(lead) if str(m) == seats[0]["move"])
    searcher.start(lead.rules)
    assert searcher.value(lead.after(first)) == WIN  # the move keeps the win
    text = run("analyze", spec)
    assert text.exit_code == 0
    assert text.stdout.splitlines()[1].startswith(
        f"  seat 1 as landlord wins  first move {seats[0]['move']}"
    )


def test_a_limit_leaves_a_seat_unknown():
    deal = next(iter_open_deals(1, 1)).describe()
    result = run("analyze", deal, "--time-limit", "0.2", "--workers", 1, "--json")
    assert result.exit_code == 3
    seats = json.loads(result.stdout)["seats"]
    assert any(s["answer"] is None and s["stopped_by"] == "time limit" for s in seats)


def _decided_deal(tmp_path):
    """A deal whose seats are each decided in a few thousand nodes (see above)."""
    text = run("deal", "--seed", 7, "-n", 12, "--strength", 0.6, "--format", "deal").stdout
    return next(d for d in load_deals(text.encode(), "d.toml") if d.name.endswith(" 10"))


def test_a_bad_deal_costs_no_other_its_table(tmp_path):
    good = _decided_deal(tmp_path).describe()
    bad = good.replace("KITTY=", "KITTY=3", 1)  # four cards in the kitty
    result = run("analyze", good, bad, tmp_path / "none.toml", tmp_path, good, "--json")
    assert result.exit_code == 2
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert [r.get("deal") for r in records] == [good, None, None, None, good]
    errors = [e for e in result.stderr.splitlines() if e.startswith("error: ")]
    assert len(errors) == 3
    assert [f"error: {r['error']}" for r in records[1:4]] == errors
    assert "KITTY" in errors[0]
    assert errors[1].endswith(
        "none.toml: no such file, and not a deal (expected S1=, S2=, S3=, KITTY=)"
    )
    assert errors[2].endswith(f"{tmp_path}: not a file (expected [[deal]] tables)")


def test_deal_words_typed_without_quotes_join():
    words = ["S1=3", "s2=4", "S3=5", "KITTY=6", "S1=7", "S2=8", "d.toml", "S3=9", "S1=3 S2=4"]
    assert deal_arguments(words) == [
        "S1=3 s2=4 S3=5 KITTY=6",
        "S1=7 S2=8",
        "d.toml",
        "S3=9",
        "S1=3 S2=4",
    ]


def test_a_deal_typed_without_quotes_is_one_deal(tmp_path):
    deal = _decided_deal(tmp_path).describe()
    result = run("analyze", *deal.split(), deal, "--json", "--workers", 1)
    assert result.exit_code == 0, result.stderr
    first, second = (json.loads(line) for line in result.stdout.splitlines())
    assert first["deal"] == second["deal"] == deal
    answers = [(s["seat"], s["answer"], s["move"], s["nodes"]) for s in first["seats"]]
    assert answers == [(s["seat"], s["answer"], s["move"], s["nodes"]) for s in second["seats"]]
    assert all(isinstance(s["answer"], bool) for s in first["seats"])


@pytest.mark.parametrize("workers", [1, 2])
def test_a_table_too_big_for_memory_is_a_clear_error(tmp_path, workers):
    good = _decided_deal(tmp_path).describe()
    result = run("analyze", good, "--max-memory", 1_000_000, "--workers", workers)
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert result.stderr.splitlines()[-1] == "Error: --max-memory 1000000: not enough memory"


def test_deal_names_tell_strengths_apart():
    for fmt in ("deal", "toml"):
        leaning = run("deal", "--seed", 4, "--strength", 0.3, "--format", fmt).stdout
        assert 'name = "seed 4 strength 0.3 deal 1"' in leaning
        assert 'name = "seed 4 deal 1"' in run("deal", "--seed", 4, "--format", fmt).stdout
