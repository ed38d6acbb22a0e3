"""Batch runs of deal files: each [[deal]] one item whose line is `analyze --json`'s
object for it with the batch id, its three seats searched under the batch's limits and
rules; resumed, deduplicated, and a bad deal an error line while the others finish."""

import json
import shutil
from pathlib import Path

import pytest
from conftest import CASES
from test_batch import items_solved, results, run

from solver.analyze import analyze_deal
from solver.deals import deals_toml, iter_open_deals, load_deals
from solver.rules import CLASSIC
from solver.search import Searcher
from solver.sources import is_deal_file

#: Biased deals whose every seat is answered in a few thousand nodes (a few ms): seat 1
#: wins, seats 2 and 3 lose.
FAST = ("deal", "--seed", "25", "-n", "3", "--strength", "1", "--format", "deal")
#: Seed 25's first deal with the hands moved one seat on: seat 2 now holds the strong
#: hand, so his is the seat that wins (the rotation of seats is what is checked).
ROTATED = """
[[deal]]
name = "seat 2 strong"
hands = ["33344566778899TTQ", "JQQQKKKAAAA2222BR", "34455566778899TTJ"]
kitty = "JJK"
"""
#: Seat 1 a card short (his R gone to the kitty); a kitty holding a fifth 3 (a K lost).
SHORT = """
[[deal]]
name = "short"
hands = ["JQQQKKKAAAA2222B", "34455566778899TTJ", "33344566778899TTQ"]
kitty = "JJKR"
"""
DUPLICATE = """
[[deal]]
name = "a fifth 3"
hands = ["JQQQKKKAAAA2222BR", "34455566778899TTJ", "33344566778899TTQ"]
kitty = "JJ3"
"""


def fast_deals() -> str:
    return run(*FAST).stdout


def analyzed(path: Path) -> list[dict]:
    """What `landlord analyze --json` says of the same file, deal by deal."""
    result = run("analyze", path, "--json", "--workers", "1")
    assert result.exit_code == 0, result.output
    return [json.loads(line) for line in result.stdout.splitlines()]


def seats_without_times(record: dict) -> dict:
    seats = [{k: v for k, v in s.items() if k != "seconds"} for s in record["seats"]]
    return {**{k: v for k, v in record.items() if k not in ("id", "seats")}, "seats": seats}


def test_each_deal_gets_the_table_analyze_gives(in_tmp):
    Path("d.toml").write_text(fast_deals() + ROTATED)
    result = run("batch", "d.toml", "./d.toml", "--out", "out.jsonl", "--workers", "1")
    assert result.exit_code == 0, result.output
    got = results(in_tmp / "out.jsonl")  # named twice, solved once
    assert list(got) == [f"d.toml#{k}" for k in (1, 2, 3, 4)]  # one worker: in file order
    want = analyzed(in_tmp / "d.toml")
    assert [seats_without_times(r) for r in got.values()] == [seats_without_times(r) for r in want]
    assert all(list(r) == ["id", "name", "deal", "seats"] for r in got.values())
    answers = [[s["answer"] for s in r["seats"]] for r in got.values()]
    assert answers == [[True, False, False]] * 3 + [[False, True, False]]
    rotated = got["d.toml#4"]
    assert rotated["name"] == "seat 2 strong" and rotated["seats"][1]["move"]
    assert [s["nodes"] for s in rotated["seats"]] == [
        got["d.toml#1"]["seats"][k]["nodes"] for k in (2, 0, 1)
    ]
    assert "  deals: 4 deals, 12 seats as landlord: 4 win, 8 lose, 0 unknown; 0 errors" in (
        result.stderr
    )
    assert "answers:" not in result.stderr  # no case or puzzle in the run


def test_a_bad_deal_is_an_error_line_and_the_others_finish(in_tmp):
    good = fast_deals()
    Path("d.toml").write_text(good + SHORT + DUPLICATE + ROTATED)
    Path("whole.toml").write_text("deal = 3\n")
    result = run("batch", "d.toml", "whole.toml", "--out", "out.jsonl", "--workers", "1")
    assert result.exit_code == 2
    got = results(in_tmp / "out.jsonl")
    assert len(got) == 7
    assert got["d.toml#4"]["error"] == (
        "d.toml, line 16, deal 'short': S1 'JQQQKKKAAAA2222B' has 16 cards, expected 17"
    )
    assert got["d.toml#5"]["error"].startswith(
        "d.toml, line 21, deal 'a fifth 3': the deal holds 5 x 3"
    )
    assert (
        got["whole.toml"]["error"] == "whole.toml: no deal in the file (expected [[deal]] tables)"
    )
    assert [got[f"d.toml#{k}"]["seats"][0]["answer"] for k in (1, 2, 3, 6)] == [
        True,
        True,
        True,
        False,
    ]
    assert "4 deals, 12 seats as landlord: 4 win, 8 lose, 0 unknown; 3 errors" in result.stderr
    Path("d.toml").write_text(good + ROTATED + ROTATED + ROTATED)  # the bad ones fixed
    Path("whole.toml").write_text(ROTATED)
    fixed = run("batch", "d.toml", "whole.toml", "--out", "out.jsonl", "--resume")
    assert fixed.exit_code == 0, fixed.output
    assert items_solved(fixed.stderr) == 3 and "3 items that failed before tried again" in (
        fixed.stderr
    )
    got = results(in_tmp / "out.jsonl")
    assert set(got) == {*(f"d.toml#{k}" for k in range(1, 7)), "whole.toml#1"}
    assert all("seats" in r for r in got.values())


def test_a_run_of_bad_deals_alone_is_summed_up_as_deals(in_tmp):
    Path("d.toml").write_text(SHORT + DUPLICATE)
    result = run("batch", "d.toml", "--workers", "1")
    assert result.exit_code == 2
    assert [json.loads(ln)["id"] for ln in result.stdout.splitlines()] == ["d.toml#1", "d.toml#2"]
    assert "answers:" not in result.stderr
    assert "  deals: 0 deals, 0 seats as landlord: 0 win, 0 lose, 0 unknown; 2 errors\n" in (
        result.stderr
    )


def test_resume_finishes_the_deals_and_drops_repeated_lines(in_tmp):
    Path("d.toml").write_text(fast_deals() + ROTATED)
    run("batch", "d.toml", "--out", "full.jsonl", "--workers", "1")
    lines = Path("full.jsonl").read_text().splitlines(keepends=True)
    Path("part.jsonl").write_text(lines[0] + lines[0] + lines[1][:30])  # repeated, then cut
    result = run("batch", "d.toml", "--out", "part.jsonl", "--resume", "--workers", "2")
    assert result.exit_code == 0, result.output
    assert items_solved(result.stderr) == 3
    assert "; 1 skipped (already in part.jsonl)" in result.stderr
    assert "1 duplicate line removed" in result.stderr
    part, full = results(in_tmp / "part.jsonl"), results(in_tmp / "full.jsonl")
    assert part["d.toml#1"] == full["d.toml#1"]  # the line kept as it was
    assert {k: seats_without_times(r) for k, r in part.items()} == {
        k: seats_without_times(r) for k, r in full.items()
    }
    again = run("batch", "d.toml", "--out", "part.jsonl", "--resume")
    assert again.exit_code == 0 and items_solved(again.stderr) == 0
    assert "4 skipped" in again.stderr


def test_deal_files_mix_with_contest_and_puzzle_files_in_a_folder(in_tmp):
    Path("in").mkdir()
    Path("in/deals.toml").write_text(fast_deals())
    Path("in/p.toml").write_text('[[puzzle]]\nlandlord = "33"\npeasants = ["4"]\n')
    shutil.copy(CASES / "edge_cases.in", "in")
    result = run("batch", "in", "--out", "out.jsonl", "--workers", "2")
    assert result.exit_code == 0, result.output
    got = results(in_tmp / "out.jsonl")
    assert len(got) == 3 + 1 + 16
    assert all("seats" in got[f"in/deals.toml#{k}"] for k in (1, 2, 3))
    assert got["in/p.toml#1"]["question"] == "spring" and got["in/p.toml#1"]["answer"] is True
    assert got["in/edge_cases.in#1"]["question"] == "spring"
    cases = [ln.endswith("Yes") for ln in (CASES / "edge_cases.ans").read_text().splitlines()]
    yes = sum(cases) + 1
    assert f"  answers: {yes} yes, {17 - yes} no, 0 unknown; 0 errors, 0 mismatched\n" in (
        result.stderr
    )
    assert "  deals: 3 deals, 9 seats as landlord: 3 win, 6 lose, 0 unknown\n" in result.stderr


def test_deal_output_on_stdin(in_tmp):
    result = run("batch", "-", "--workers", "1", input=fast_deals())
    assert result.exit_code == 0, result.output
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert [r["id"] for r in records] == ["<stdin>#1", "<stdin>#2", "<stdin>#3"]
    assert [r["name"] for r in records] == [f"seed 25 strength 1 deal {k}" for k in (1, 2, 3)]


def test_bans_apply_to_the_seats(in_tmp):
    Path("d.toml").write_text(fast_deals())
    bans = ("plane+singles", "trio+single")
    args = [a for b in bans for a in ("--ban", b)]
    result = run(
        "batch", "d.toml", "--out", "out.jsonl", "--workers", "1", "--max-memory", "16", *args
    )
    assert result.exit_code == 0, result.output
    got = results(in_tmp / "out.jsonl")
    deals = load_deals(Path("d.toml").read_bytes(), "d.toml")
    searcher = Searcher(16)
    for k, deal in enumerate(deals, 1):
        want = analyze_deal(searcher, deal, CLASSIC.with_bans(bans)).as_json()
        assert seats_without_times(got[f"d.toml#{k}"]) == seats_without_times(want)
    first = got["d.toml#1"]["seats"][0]["move"]
    assert first != analyzed(in_tmp / "d.toml")[0]["seats"][0]["move"]  # a plane, now banned


def test_each_deal_file_plays_its_own_game(in_tmp):
    four = run("deal", "--seed", 4, "-n", 1, "--rules", "four-player", "--format", "deal")
    Path("four.toml").write_text(four.stdout)
    Path("classic.toml").write_text(fast_deals())
    result = run(
        "batch", "four.toml", "classic.toml", "--out", "out.jsonl", "--workers", "1",
        "--time-limit", "0.05", "--max-memory", "16",
    )  # fmt: skip
    assert "0 errors" in result.stderr, result.output
    got = results(in_tmp / "out.jsonl")
    assert [len(got[i]["seats"]) for i in ("four.toml#1", "classic.toml#1")] == [4, 3]
    assert "RULES=four-player" in got["four.toml#1"]["deal"]
    assert [s["answer"] for s in got["classic.toml#1"]["seats"]] == [True, False, False]


def test_a_limit_leaves_a_seat_unknown_and_exits_3(in_tmp):
    Path("slow.toml").write_text("".join(deals_toml(iter_open_deals(1, 1))))  # slow seats
    result = run("batch", "slow.toml", "--time-limit", "0.05", "--workers", "1")
    assert result.exit_code == 3
    seats = json.loads(result.stdout)["seats"]
    assert any(s["answer"] is None and s["stopped_by"] == "time limit" for s in seats)
    unknown = sum(s["answer"] is None for s in seats)
    assert f"lose, {unknown} unknown; 0 errors" in result.stderr


@pytest.mark.parametrize(
    "text, is_deals",
    [
        (ROTATED, True),
        ('[[puzzle]]\nname = "deal"\nlandlord = "33"\npeasants = ["4"]\n', False),
        ('landlord = "33"\npeasants = ["4"]\n', False),
        ("deal = [toml", False),  # not TOML: reported as a puzzle file is
    ],
)
def test_deal_files_are_told_by_their_tables(text, is_deals):
    assert is_deal_file(text.encode()) is is_deals
