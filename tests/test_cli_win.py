"""The command line for forced wins: solve (win puzzles), best and play."""

import json

import pytest
from click.testing import CliRunner

from cli import main

P02 = '[[puzzle]]\nname = "P02"\nquestion = "win"\nlandlord = "35577TTQQ2"\npeasants = ["9A"]\n'


def run(*args, input=None):
    return CliRunner().invoke(main, [str(a) for a in args], input=input)


def test_best_lists_the_published_winning_first_moves():
    result = run("best", "L=35577TTQQ2 P1=9A", "--json")
    assert result.exit_code == 0
    rec = json.loads(result.stdout)
    wins = {m["move"] for m in rec["moves"] if m["wins"]}
    # the published answer: 3, 10, Q, 2, 55, 77, 1010, QQ
    assert wins == {"3", "T", "Q", "2", "55", "77", "TT", "QQ"}
    assert rec["answer"] is True


def test_best_text_with_refutations():
    result = run("best", "L=792 P1=5J P2=34 TO=P1", "--lines")
    assert result.exit_code == 0
    assert "P1 to move wins: 1 of 2 first moves win" in result.stdout
    assert "J  loses   P2 pass  L 2" in result.stdout


def test_solve_win_json_line_with_passes(tmp_path):
    path = tmp_path / "p.toml"
    path.write_text(P02 + "expect = true\n")
    result = run("solve", "--json", "--all-moves", path)
    assert result.exit_code == 0, result.output
    rec = json.loads(result.stdout)
    assert rec["answer"] is True and rec["question"] == "win"
    assert "pass" in rec["line"] and len(rec["players"]) == len(rec["line"])
    assert rec["players"][0] == "landlord" and rec["nodes"] > 0
    assert {m["move"] for m in rec["first_moves"] if m["wins"]} >= {"55", "QQ"}


def test_solve_table_and_to_move(tmp_path):
    path = tmp_path / "p.toml"
    path.write_text(
        'question = "win"\nlandlord = "3444"\npeasants = ["55556"]\nto_move = "peasant1"\n'
        'table = { play = "3", by = "landlord" }\nexpect = false\n'
    )
    result = run("solve", path)
    assert result.exit_code == 0, result.output
    assert "win? no (P1 to move)" in result.stdout


def test_unknown_has_its_own_exit_code(tmp_path):
    path = tmp_path / "p.toml"
    path.write_text(
        '[[puzzle]]\nname = "P10"\nquestion = "win"\nlandlord = "3568899JQQA"\n'
        'peasants = ["33459TJJQK2"]\nexpect = true\n'
    )
    result = run("solve", "--json", "--time-limit", "0.001", path)
    assert result.exit_code == 3
    rec = json.loads(result.stdout)
    assert rec["answer"] is None and rec["stopped_by"] == "time limit"


def test_question_override(tmp_path):
    path = tmp_path / "p.toml"
    path.write_text(P02)
    result = run("solve", "--json", "--question", "spring", path)
    assert result.exit_code == 0
    rec = json.loads(result.stdout)
    # against 9A alone the pairs and the 2 are safe, and the 3 goes last: a spring
    assert rec["question"] == "spring" and rec["answer"] is True
    assert rec["line"][-1] == "3"


@pytest.mark.parametrize(
    "text, what",
    [
        (
            'question = "win"\nlandlord = "3"\npeasants = ["4"]\nto_move = "peasant2"\n',
            "unknown player 'peasant2'",
        ),
        (
            'question = "win"\nlandlord = "3"\npeasants = ["4"]\ntable = { play = "34", by = '
            '"peasant1" }\n',
            "line 4",
        ),
        ('question = "win"\nlandlord = "3"\npeasants = ["4"]\ntable = "5"\n', "'table' must be"),
    ],
)
def test_bad_win_puzzles(tmp_path, text, what):
    path = tmp_path / "bad.toml"
    path.write_text(text)
    result = run("solve", path)
    assert result.exit_code == 2 and what in result.stderr


def test_best_bad_position():
    result = run("best", "L=3 P1=4 TABLE=5@L")
    assert result.exit_code == 2
    assert "owns the table play" in result.stderr


def test_play_a_game_and_hear_about_a_thrown_away_win(tmp_path):
    path = tmp_path / "p.toml"
    path.write_text(P02)
    # 5 throws the win away (the published losing first moves are 5 and 7)
    result = run("play", path, input="5\nquit\n")
    assert result.exit_code == 0
    assert "That throws away a won position." in result.stdout
    # the winning plan: pairs first, then 3; the solver answers each move
    result = run("play", path, input="55\n77\nTT\nQQ\n3\n2\n")
    assert result.exit_code == 0, result.output
    assert "throws away" not in result.stdout
    assert result.stdout.rstrip().endswith("You win.")


def test_bans_on_the_command_line():
    # with trio + single, 3334 then 5; without it two singles are left for the 6 to beat
    spec = "L=33345 P1=6"
    assert "L to move loses" in run("best", spec, "--ban", "trio+single").stdout
    assert "L to move wins" in run("best", spec).stdout
    assert run("best", spec, "--ban", "bomb").exit_code == 2


def test_best_under_a_time_limit_says_unknown():
    spec = "L=3344556677899TTTJJQ2 P1=34578899QKKAAAA2B P2=356TJQK"
    result = run("best", spec, "--time-limit", "0.5", "--max-memory", "4")
    assert result.exit_code == 3
    assert "L to move unknown" in result.stdout and "unknown: a limit stopped" in result.stdout


def test_play_ends_quietly_at_the_end_of_input(tmp_path):
    path = tmp_path / "p.toml"
    path.write_text(P02)
    result = run("play", path, input="")
    assert result.exit_code == 0
