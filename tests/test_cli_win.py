"""The command line for forced wins: solve (win puzzles), best and play."""

import json
import os

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
    assert rec["answer"] is True and rec["to_move"] == "landlord"
    peasant = json.loads(run("best", "L=792 P1=5J P2=34 TO=P1", "--json").stdout)
    assert peasant["to_move"] == "peasant1" and peasant["answer"] is False  # the landlord's
    assert [m["wins"] for m in peasant["moves"]] == [True, False]  # peasant 1's


def test_best_text_with_refutations():
    result = run("best", "L=792 P1=5J P2=34 TO=P1", "--lines")
    assert result.exit_code == 0
    assert "P1 to move wins: 1 of 2 first moves wins" in result.stdout
    assert "J  loses   P2 pass  L 2" in result.stdout
    lines = result.stdout.splitlines()  # each line with its stake, as every line is printed
    assert lines[2] == "  5  wins   P2 pass  L 7  P1 J  stake x1: -1"
    assert lines[3].endswith("L 7  P1 pass  P2 pass  L 9  stake x1: +1")


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
    assert result.stdout.rstrip().endswith("You win.\nThe hand's stake: x1: +1")


def test_bans_on_the_command_line():
    # with trio + single, 3334 then 5; without it two singles are left for the 6 to beat
    spec = "L=33345 P1=6"
    assert "L to move loses" in run("best", spec, "--ban", "trio+single").stdout
    assert "L to move wins" in run("best", spec).stdout
    assert run("best", spec, "--ban", "bomb").exit_code == 2


def test_best_under_a_time_limit_says_unknown():
    spec = "L=344577789JJQKAAA22BR P1=344566899TTTQKKA2 P2=3355667889TJJQQK2"  # D54-4
    result = run("best", spec, "--time-limit", "0.5", "--max-memory", "4")
    assert result.exit_code == 3
    assert "L to move unknown" in result.stdout and "unknown: a limit stopped" in result.stdout


def test_play_says_when_the_input_ends_before_the_game(tmp_path):
    path = tmp_path / "p.toml"
    path.write_text(P02)
    result = run("play", path, input="")
    assert result.exit_code == 1
    assert "the input ended before the game did" in result.stderr


def test_best_counts_in_words():
    result = run("best", "L=3 P1=4")
    assert result.exit_code == 0
    assert "L to move wins: 1 of 1 first move wins" in result.stdout
    result = run("best", "L=3 P1=45 TO=L TABLE=5@P1")  # a pass, his only move, loses
    assert "L to move loses: 0 of 1 first move wins" in result.stdout
    result = run("best", "L=34 P1=5")
    assert "L to move loses: 0 of 2 first moves win" in result.stdout


def test_a_position_names_each_hand_once():
    result = run("best", "L=3 P1=4 L=5")
    assert result.exit_code == 2
    assert "L= is given twice" in result.stderr


def test_best_json_keeps_the_line_and_splits_it():
    rec = json.loads(run("best", "L=792 P1=5J P2=34 TO=P1", "--lines", "--json").stdout)
    losing = next(m for m in rec["moves"] if m["move"] == "J")
    assert losing["line"][:2] == ["P2 pass", "L 2"]  # the first form, for scripts that read it
    assert losing["line_moves"][:2] == ["pass", "2"]
    assert losing["line_players"][:2] == ["peasant2", "landlord"]
    names = {"landlord": "L", "peasant1": "P1", "peasant2": "P2"}
    pairs = zip(losing["line_players"], losing["line_moves"], strict=True)
    split = [f"{names[p]} {m}" for p, m in pairs]
    assert split == losing["line"]


def test_play_explains_an_empty_line(tmp_path):
    path = tmp_path / "p.toml"
    path.write_text(P02)
    for typed in ("", "-", " - "):
        result = run("play", path, input=f"{typed}\nquit\n")
        assert result.exit_code == 0
        assert "Type cards (as 33 or 3-3), pass, hint or quit." in result.stdout
        assert "Not a legal combination" not in result.stdout


def test_play_from_a_pipe_shows_each_typed_move_after_its_prompt(tmp_path):
    path = tmp_path / "p.toml"
    path.write_text(P02)
    lines = run("play", path, input="55\nquit\n").stdout.splitlines()
    assert lines[2:4] == ["L to move: 55", "L: 377TTQQ2  P1: 9A  table: 55 by L"]
    assert lines[-1] == "L to move: quit"


def test_play_quotes_a_bad_move_as_typed(tmp_path):
    path = tmp_path / "p.toml"
    path.write_text(P02)
    lines = run("play", path, input="ZA\nPASS\nQUIT\n").stdout.splitlines()
    assert "unknown card 'Z' in 'ZA': expected cards from 3456789TJQKA2BR (or 10)" in lines
    assert "You cannot pass on a free lead." in lines


def test_play_notes_a_name_two_puzzles_share(tmp_path):
    path = tmp_path / "p.toml"
    path.write_text(P02 + "\n" + P02.replace('"35577TTQQ2"', '"33"'))
    result = run("play", path, "--puzzle", "P02", input="quit\n")
    assert "note: 2 puzzles of" in result.stderr and "(lines 1, 7): playing the first" in (
        result.stderr
    )
    assert "L: 35577TTQQ2" in result.stdout


def test_play_says_a_banned_kind_is_banned(tmp_path):
    path = tmp_path / "p.toml"
    path.write_text('question = "win"\nlandlord = "3334"\npeasants = ["5"]\n')
    result = run("play", path, "--ban", "trio+single", input="3334\nquit\n")
    assert "3334 is a trio+single, which the rules here ban." in result.stdout.splitlines()
    result = run("best", "L=4447 P1=5 TABLE=3336@P1 BAN=trio+single")
    assert result.exit_code == 2 and "'3336' is a trio+single, which the rules here ban" in (
        result.stderr
    )


def test_play_names_a_missing_puzzle(tmp_path):
    path = tmp_path / "p.toml"
    path.write_text(P02 + '\n[[puzzle]]\nname = "broken"\nlandlord = "X"\npeasants = ["4"]\n')
    result = run("play", path, "--puzzle", "nope")
    assert result.exit_code == 2
    assert "no puzzle named 'nope' (it has 'P02'; 1 more could not be read)" in result.stderr
    assert "unknown card" not in result.stderr  # the broken puzzle is not the one asked for
    broken = run("play", path, "--puzzle", "broken")
    assert broken.exit_code == 2
    assert "puzzle 'broken': unknown card 'X'" in broken.stderr  # why it cannot be played


def test_play_under_a_time_limit_that_stops_the_solver_exits_3(tmp_path):
    path = tmp_path / "p.toml"
    path.write_text(
        'question = "win"\nlandlord = "344577789JJQKAAA22BR"\n'
        'peasants = ["344566899TTTQKKA2", "3355667889TJJQQK2"]\n'  # D54-4
    )
    result = run("play", path, "--as", "peasants", "--time-limit", "0.2", input="quit\n")
    assert "the time limit stopped the search" in result.stdout
    assert result.exit_code == 3


def test_expect_is_checked_only_for_its_question_and_rules():
    path = "puzzles/05-endgame-rules.toml"
    spring = run("solve", path, "--json", "--question", "spring")
    assert spring.exit_code == 0, spring.output
    assert all("expect" not in json.loads(ln) for ln in spring.stdout.splitlines())
    banned = run("solve", path, "--ban", "trio+single")
    assert banned.exit_code == 0, banned.output
    assert " 0 mismatched" in banned.stderr
    own = run("solve", path, "--json")
    assert own.exit_code == 0 and all("expect" in json.loads(ln) for ln in own.stdout.splitlines())


def test_a_limit_that_stops_the_root_is_settled_by_its_moves():
    result = run("best", "L=3 P1=4", "--time-limit", "1e-300")
    assert "L to move wins: 1 of 1 first move wins" in result.stdout


@pytest.mark.parametrize(
    "spec, what",
    [
        ("L=3 P1=4 TO=", "unknown player '': expected one of L, P1"),
        ("L=3 P1=4 TABLE=@P1", "TABLE needs the play and its owner"),
        ("L=35577TTQQ2 P1=9A TABLE=55@P2", "unknown player 'P2': expected one of L, P1"),
    ],
)
def test_position_errors_name_the_field(spec, what):
    result = run("best", spec)
    assert result.exit_code == 2 and what in result.stderr
    assert "no file" not in result.stderr


def test_best_answers_every_good_puzzle_of_a_folder_with_a_bad_one(tmp_path):
    (tmp_path / "a.toml").write_text('landlord = "3334"\npeasants = ["4"]\n')
    (tmp_path / "b.toml").write_text('landlord = "33"\npeasants = ["4"]\nbans = ["chain"]\n')
    (tmp_path / "c.toml").write_text('landlord = "33"\npeasants = ["44", "5"]\n')
    result = run("best", tmp_path, "--json")
    assert result.exit_code == 2
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert [r.get("name") for r in records] == ["a", None, "c"]
    message = (
        f"{tmp_path / 'b.toml'}, line 3, puzzle 'b': cannot ban 'chain': expected one "
        "of trio+single, trio+pair, quad+singles, quad+pairs, plane+singles, plane+pairs"
    )
    assert records[1] == {"error": message}
    assert result.stderr.splitlines()[-1] == f"error: {message}"


@pytest.mark.parametrize("stake", [[], ["--stake"]])
def test_best_json_says_which_limit_stopped_it(stake):
    result = run("best", "L=35577TTQQ2 P1=9A", "--time-limit", "1e-9", "--json", *stake)
    assert result.exit_code == 3
    record = json.loads(result.stdout)
    assert record["answer"] is None and record["stopped_by"] == "time limit"
    done = json.loads(run("best", "L=35577TTQQ2 P1=9A", "--json", *stake).stdout)
    assert done["answer"] is not None and "stopped_by" not in done


def test_a_puzzle_is_named_by_a_file_name_that_is_no_utf8(tmp_path):
    path = tmp_path / os.fsdecode(b"caf\xe9.toml")
    path.write_text('landlord = "3334"\npeasants = ["4"]\n')
    result = run("solve", path, "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["name"] == "caf\ufffd"
