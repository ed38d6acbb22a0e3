"""The command line, through Click's runner: outputs, exit codes, and every bad input."""

import json
from pathlib import Path

import pytest
import reference as ref
from click.testing import CliRunner
from conftest import CASE_FILES, CASES

from cli import main

PUZZLES = Path(__file__).resolve().parents[1] / "puzzles"


def run(*args, input=None):
    return CliRunner().invoke(main, [str(a) for a in args], input=input)


def test_help_lists_every_command():
    result = run("--help")
    assert result.exit_code == 0
    commands = ("judge", "solve", "moves", "deal", "check", "validate", "best", "play", "batch")
    for command in (*commands, "bench"):
        assert command in result.output


@pytest.mark.parametrize("command", ["solve", "best", "analyze", "batch", "play"])
def test_max_memory_defaults_to_the_searchs_default(command):
    from solver.search import DEFAULT_MEMORY_MB

    (option,) = [p for p in main.commands[command].params if p.name == "max_memory"]
    assert option.default == DEFAULT_MEMORY_MB


@pytest.mark.parametrize("name", CASE_FILES)
def test_judge_reproduces_the_answers_byte_for_byte(name):
    result = run("judge", CASES / f"{name}.in")
    assert result.exit_code == 0
    assert result.stdout == (CASES / f"{name}.ans").read_text()


def test_judge_reads_stdin_with_any_whitespace_and_card_order():
    text = (
        "2  RB2222AAAAKKKKQQQQ33\t3445566778899TTJJ JJTT9988776655443\n\n"
        "33445566778899TTJJQQ KKKKAAAA2222334BR\nqqjjtt99887766554"
    )
    result = run("judge", input=text)
    assert result.exit_code == 0
    assert result.stdout == "Case 1: Yes\nCase 2: Yes\n"


BAD_CONTEST = [
    ("1\n33333 4 5\n", "case 1, line 2", "holds more than 4 x 3"),  # a fifth 3
    ("1\n3X4 5 6\n", "case 1, line 2", "unknown card 'X'"),
    ("2\n3 4 5\n6 7\n", "case 2, line 3", "ends before peasant 2's hand"),  # two hands
    ("1\n", "case 1, line 1", "ends before the landlord's hand"),  # a missing line
    ("1\nB 3 B\n", "case 1, line 2", "2 x B"),  # one joker twice
    ("", "empty", "number of cases"),
    ("x\n3 4 5\n", "line 1", "expected the number of cases, got 'x'"),
    ("\x00\x01\xff\n", "line 1", "expected the number of cases"),  # a binary file
    ("1\n33\xff 4 5\n", "case 1, line 2", "unknown card '\\xff'"),  # the bad byte named
]


@pytest.mark.parametrize("text, where, what", BAD_CONTEST)
def test_judge_names_the_bad_case(tmp_path, text, where, what):
    path = tmp_path / "bad.in"
    path.write_bytes(text.encode("latin-1"))
    result = run("judge", path)
    assert result.exit_code == 2
    assert where in result.stderr and what in result.stderr and str(path) in result.stderr
    assert isinstance(result.exception, SystemExit)  # a handled error, not a crash


def test_judge_keeps_the_cases_before_a_bad_one(tmp_path):
    path = tmp_path / "bad.in"
    path.write_text("3\n33445566778899TTJJQQ BR 2222\n34 5 6\n3Z 4 5\n")
    result = run("judge", path)
    assert result.exit_code == 2
    assert result.stdout == "Case 1: Yes\nCase 2: No\n"
    assert "case 3" in result.stderr


def test_validate_accepts_a_complete_file():
    result = run("validate", CASES / "random_2000.in")
    assert result.exit_code == 0
    assert "2,000 cases" in result.stdout


def deal_text(count=2, seed=7):
    return run("deal", "--seed", seed, "-n", count).stdout


@pytest.mark.parametrize(
    "mutate, where, what",
    [
        (lambda t: t.replace("2\n", "3\n", 1), "case 3", "ends before"),  # T too large
        (lambda t: t.replace("2\n", "1\n", 1), "line 5", "after the 1 case the file declares"),
        (lambda t: t + "junk\n", "line 8", "unexpected 'junk'"),
        (lambda t: _move_card(t), "case 1, line 2", "has 19 cards, expected 20"),
        (lambda t: _swap_card(t), "case 1, line 2", "the hands hold 5 x"),
    ],
)
def test_validate_names_the_first_violation(tmp_path, mutate, where, what):
    path = tmp_path / "deals.in"
    path.write_text(mutate(deal_text()))
    result = run("validate", path)
    assert result.exit_code == 2, result.output
    assert where in result.stderr and what in result.stderr


def _move_card(text):
    lines = text.splitlines()
    lines[2] += lines[1][-1]
    lines[1] = lines[1][:-1]
    return "\n".join(lines) + "\n"


def _swap_card(text):
    """Make the landlord's first card another rank: that rank then has five cards."""
    lines = text.splitlines()
    lines[1] = ("4" if lines[1][0] == "3" else "3") + lines[1][1:]
    return "\n".join(lines) + "\n"


def test_check_accepts_right_output_and_lists_differences(tmp_path):
    answers = (CASES / "random_2000.ans").read_text().splitlines()
    right = tmp_path / "right.out"
    right.write_text("\n".join(answers) + "\n")
    result = run("check", CASES / "random_2000.in", right)
    assert result.exit_code == 0, result.output
    flipped = list(answers)
    first_yes = next(i for i, a in enumerate(flipped) if a.endswith("Yes"))
    flipped[first_yes] = flipped[first_yes].replace("Yes", "No")
    flipped[3] = "Case 4: Yes"
    wrong = tmp_path / "wrong.out"
    wrong.write_text("\n".join(flipped[:1500]) + "\n")
    result = run("check", CASES / "random_2000.in", wrong)
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert lines[0] == "Case 4: expected No, got Yes"
    assert lines[1] == f"Case {first_yes + 1}: expected Yes, got No"
    assert lines[2:] == [
        f"Case 1501: expected {answers[1500].split()[-1]}, got nothing (the output ends; "
        "cases 1501 to 2000 are missing)"
    ]
    assert result.stderr.splitlines()[-1] == (
        f"Error: {wrong}: wrong answer (502 of 2,000 cases differ; 3 differences listed)"
    )
    every = tmp_path / "every.out"  # every answer flipped: more than are listed
    every.write_text(
        "".join(f"{a[:-3]}No\n" if a.endswith("Yes") else f"{a[:-2]}Yes\n" for a in answers)
    )
    result = run("check", CASES / "random_2000.in", every)
    assert result.stderr.splitlines()[-1] == (
        f"Error: {every}: wrong answer (2,000 of 2,000 cases differ; 10 differences listed)"
    )


def test_deal_is_reproducible_and_valid(tmp_path):
    first = deal_text(50, seed=11)
    assert first == deal_text(50, seed=11)
    assert first != deal_text(50, seed=12)
    path = tmp_path / "deals.in"
    path.write_text(first)
    assert run("validate", path).exit_code == 0
    judged = run("judge", path).stdout.splitlines()
    lines = first.split()
    for k in range(50):
        land, p1, p2 = (ref.parse(lines[1 + 3 * k + j]) for j in range(3))
        assert judged[k].endswith("Yes") == ref.spring(land, p1, p2)


def test_deal_as_puzzle_file_solves(tmp_path):
    path = tmp_path / "deals.toml"
    path.write_text(run("deal", "--seed", 3, "-n", 5, "--format", "toml").stdout)
    result = run("solve", "--json", path)
    assert result.exit_code == 0
    assert len(result.stdout.splitlines()) == 5


def test_solve_bundled_puzzles():
    result = run("solve", PUZZLES)
    assert result.exit_code == 0, result.output
    assert "0 mismatched, 0 unknown, 0 errors" in result.stderr


def test_solve_json_records():
    result = run("solve", "--json", PUZZLES)
    assert result.exit_code == 0
    records = [json.loads(ln) for ln in result.stdout.splitlines()]
    assert len(records) >= 30
    for rec in records:
        assert {"name", "question", "answer", "line", "seconds"} <= rec.keys()
        if rec["question"] == "stake":
            assert rec["value"] == rec["expect"] and rec["answer"] == (rec["value"] > 0)
            assert rec["stake"]["points"] == rec["points"] == rec["value"] * rec["bid"]
        else:
            assert rec["answer"] == rec["expect"]
        if rec["question"] == "spring":
            assert bool(rec["line"]) == rec["answer"]  # a witness for every yes
        else:
            assert rec["line"]  # a line to the end of the game either way


PUZZLE = """
[[puzzle]]
name = "two low singles"
landlord = "3345"
peasants = ["6", "7"]
expect = {expect}
"""


def test_solve_reports_a_mismatch(tmp_path):
    path = tmp_path / "p.toml"
    path.write_text(PUZZLE.format(expect="true"))
    result = run("solve", path)
    assert result.exit_code == 1
    assert "MISMATCH: expected yes" in result.stdout
    path.write_text(PUZZLE.format(expect="false"))
    assert run("solve", path).exit_code == 0


def test_solve_top_level_puzzle_and_line(tmp_path):
    path = tmp_path / "single.toml"
    path.write_text('landlord = "RB2222AAAA33"\npeasants = ["4444", "66"]\nexpect = true\n')
    result = run("solve", "--json", path)
    assert result.exit_code == 0
    rec = json.loads(result.stdout)
    assert rec["name"] == "single" and rec["question"] == "spring"
    assert rec["line"] == ["AAAA", "2222", "BR", "33"]
    assert rec["plays"][2] == {"cards": "BR", "kind": "rocket", "rank": "R"}


BAD_PUZZLES = [
    ('landlord = "3777777"\npeasants = ["4", "5"]\n', "line 1", "6 x 7"),
    ('landlord = "3X"\npeasants = ["4", "5"]\n', "line 1", "unknown card 'X'"),
    (
        '[[puzzle]]\nname = "a"\nlandlord = "3"\npeasants = ["4", "5", "6"]\n',
        "line 4",
        "one or two",
    ),
    ('[[puzzle]]\nname = "lost"\npeasants = ["4", "5"]\n', "puzzle 'lost'", "no 'landlord'"),
    ('landlord = "3"\npeasants = ["4", "5"]\nexpect = tru\n', "TOML syntax error", "line 3"),
    ("", "", "no puzzle in the file"),
    ('landlord = "3"\npeasants = ["4", "5"]\ncolour = "red"\n', "line 3", "unknown key"),
    ('landlord = "3"\npeasants = ["4", "5"]\nquestion = "draw"\n', "line 3", "unknown question"),
    ('landlord = "3"\npeasants = ["4", "5"]\nexpect = "yes"\n', "line 3", "true or false"),
    ('landlord = "33"\npeasants = ["33", "3"]\n', "line 1", "5 x 3"),
    ('landlord = "3"\npeasants = ["4", "5"]\nbans = ["bomb"]\n', "line 3", "cannot ban"),
]


@pytest.mark.parametrize("text, where, what", BAD_PUZZLES)
def test_solve_names_the_bad_puzzle(tmp_path, text, where, what):
    path = tmp_path / "bad.toml"
    path.write_text(text)
    result = run("solve", path)
    assert result.exit_code == 2
    assert str(path) in result.stderr and where in result.stderr and what in result.stderr
    assert isinstance(result.exception, SystemExit)  # a handled error, not a crash


def test_solve_binary_file_and_the_rest_still_solved(tmp_path):
    (tmp_path / "a.toml").write_bytes(b"\x89PNG\x00\x01\xff\xfe")
    (tmp_path / "b.toml").write_text(PUZZLE.format(expect="false"))
    result = run("solve", tmp_path)
    assert result.exit_code == 2
    assert "line 1: not UTF-8 text (byte 1)" in result.stderr
    assert "two low singles: spring? no" in result.stdout


def test_solve_json_keeps_a_record_of_each_bad_puzzle_in_the_stream(tmp_path):
    (tmp_path / "a.toml").write_bytes(b"\x89PNG\x00\x01\xff\xfe")
    (tmp_path / "b.toml").write_text(PUZZLE.format(expect="false"))
    path = tmp_path / "c.toml"
    path.write_text('rules = "four-player"\nlandlord = "3"\npeasants = ["4", "5", "6"]\n')
    result = run("solve", "--json", "--question", "stake", tmp_path)
    assert result.exit_code == 2
    bad, good, asked = (json.loads(line) for line in result.stdout.splitlines())
    assert bad == {"file": str(tmp_path / "a.toml"), "error": bad["error"]}
    assert "line 1: not UTF-8 text (byte 1)" in bad["error"]
    assert good["name"] == "two low singles" and good["answer"] is not None
    assert asked["name"] == "c" and asked["file"] == str(path)
    assert asked["error"] == (
        f"{path}, line 1, puzzle 'c': the stake question is asked of the classic game only, "
        "not four-player"
    )
    assert f"error: {asked['error']}" in result.stderr


def test_moves_json_and_beat():
    result = run("moves", "33345", "--json")
    assert result.exit_code == 0
    plays = json.loads(result.stdout)
    # 3 singles + 33 + 333 + 3334 + 3335 = 7
    assert len(plays) == 7
    assert {"cards": "3334", "kind": "trio+single", "rank": "3"} in plays
    result = run("moves", "55667789TJQKKAA2BR", "--beat", "334455", "--json")
    assert [p["cards"] for p in json.loads(result.stdout)] == ["BR", "556677"]
    result = run("moves", "3444", "--beat", "333J", "--ban", "trio+single")
    assert result.exit_code == 2 and "--beat '333J' is a trio+single, which the rules here ban" in (
        result.stderr
    )


@pytest.mark.parametrize(
    "args, what",
    [
        (("AX",), "unknown card 'X'"),
        (("3", "--beat", "34"), "not a legal combination"),
        (("34567", "--beat", "23456"), "--beat '23456' is not a legal combination"),
        (("33333",), "5 x 3"),
        (("34567", "--beat", "X"), "--beat 'X': unknown card 'X'"),
        (("BR", "--beat", "BR"), "--beat 'BR': the hands together hold 2 x B"),
    ],
)
def test_moves_bad_input(args, what):
    result = run("moves", *args)
    assert result.exit_code == 2 and what in result.stderr


def test_deal_stream_is_pinned():
    """A seed names the same deals on every platform and version."""
    assert deal_text(1, seed=5).splitlines() == [
        "1",
        "556778899TTJQKKA22BR",
        "33444566799JJQQKA",
        "33456788TTJQKAA22",
    ]
    assert run("deal", "--seed", 5, "--strength", 0.3).stdout.splitlines() == [
        "1",
        "55778TQQQKKAAA2222BR",
        "344556678999TJJKK",
        "33344667889TTJJQA",
    ]


@pytest.mark.parametrize(
    "text, what",
    [
        ('puzzle = [{landlord = "3", peasants = ["4", "5"], expect = true}]\n', None),
        ("puzzle = []\n", "no puzzle in the file"),
        ('landlord = "3"\npeasants = ["4", "5"]\nbans = [["x"]]\n', "cannot ban ['x']"),
        (
            'question = "win"\nlandlord = "3"\npeasants = ["4", "5"]\n'
            'table = { play = "34", by = "peasant1" }\n',
            "not a legal combination",
        ),
        (
            'landlord = "3"\npeasants = ["4", "5"]\ntable = { play = "4", by = "peasant1" }\n',
            "a spring starts from a free lead: 'table' is for win and stake questions",
        ),
        (
            'landlord = "3"\npeasants = ["4", "5"]\nto_move = "peasant1"\n',
            "a spring starts with the landlord to move",
        ),
        ('\ufeff[[puzzle]]\nlandlord = "3"\npeasants = ["4"]\n', None),  # a byte-order mark
        ('landlord = "3"\npeasants = ' + "[" * 500 + '"4"' + "]" * 500 + "\n", "nested too deep"),
    ],
)
def test_unusual_puzzle_files(tmp_path, text, what):
    path = tmp_path / "p.toml"
    path.write_text(text)
    result = run("solve", path)
    if what is None:
        assert result.exit_code == 0, result.output
        assert "p #1: spring? yes" in result.stdout
    else:
        assert result.exit_code == 2 and what in result.stderr
        assert isinstance(result.exception, SystemExit)


@pytest.mark.parametrize(
    "args",
    [
        ("deal", "--seed", "1", "--strength", "50"),
        ("deal", "--seed", "1", "--strength", "nan"),
        ("best", "L=3 P1=4", "--max-memory", "inf"),
        ("best", "L=3 P1=4", "--max-memory", "nan"),
        ("best", "L=3 P1=4", "--time-limit", "nan"),
        ("best", ""),
        ("moves", "3333", "--beat", "3333"),
    ],
)
def test_out_of_range_options_and_impossible_input(args):
    result = run(*args)
    assert result.exit_code == 2, result.output
    assert isinstance(result.exception, SystemExit)


def test_folders_without_puzzles(tmp_path):
    assert run("solve", tmp_path).exit_code == 2
    assert "no puzzle" in run("best", str(tmp_path)).stderr


def test_a_negative_seed_is_refused():
    result = run("deal", "--seed", -1)
    assert result.exit_code == 2 and "--seed" in result.stderr


def test_a_byte_that_is_no_text_on_the_command_line_is_named():
    result = run("moves", "3\udcff")  # how Python hands over the byte 0xff of an argument
    assert result.exit_code == 2
    assert "unknown card '\\xff' in '3\\xff'" in result.stderr


def test_a_puzzle_name_must_be_printable(tmp_path):
    path = tmp_path / "p.toml"
    path.write_text('name = "a\\u001b[31mred"\nlandlord = "3"\npeasants = ["4"]\n')
    result = run("solve", path)
    assert result.exit_code == 2 and "printable characters" in result.stderr
    path.write_text('name = " "\nlandlord = "3"\npeasants = ["4"]\n')
    assert 'printable characters, got " "' in run("solve", path).stderr
    path.write_text('name = "n"\nlandlord = "3"\npeasants = ["4"]\nsource = 5\n')
    assert "line 4, puzzle 'n': 'source' must be a string, got 5" in run("solve", path).stderr


def test_an_error_in_a_puzzles_subtable_names_the_subtables_line(tmp_path):
    path = tmp_path / "p.toml"
    path.write_text(
        '[[puzzle]]\nname = "a"\nlandlord = "33"\npeasants = ["44"]\n\n'
        '[[puzzle]]\nname = "b"\nquestion = "win"\nlandlord = "33"\npeasants = ["44", "5"]\n'
        'to_move = "peasant2"\n'
        '\n[puzzle.table]\nplay = "7"\nby = "peasant9"\n'
    )
    result = run("solve", path)
    assert result.exit_code == 2
    assert f"error: {path}, line 13, puzzle 'b': unknown player 'peasant9'" in result.stderr


def test_check_refuses_standard_input_for_both_files():
    result = run("check", "-", "-", input="1\n")
    assert result.exit_code == 2
    assert "INPUT and OUTPUT cannot both be - (standard input)" in result.output


def test_a_contest_file_given_for_a_toml_file_is_told_where_it_belongs(tmp_path):
    path = tmp_path / "deals.in"
    path.write_text(deal_text())
    for command in ("solve", "analyze", "play"):
        result = run(command, path)
        assert result.exit_code == 2
        assert "(a contest file? `landlord judge` reads those, and `landlord batch` under a " in (
            result.output
        ), command


def test_a_wrong_value_in_a_puzzle_file_is_quoted_as_toml_writes_it(tmp_path):
    path = tmp_path / "p.toml"
    path.write_text('landlord = true\npeasants = ["4"]\n')
    assert "a hand must be a string of cards, got true" in run("solve", path).stderr
    path.write_text('landlord = "3"\npeasants = ["4"]\nsource = 1979-05-27\n')
    assert "'source' must be a string, got 1979-05-27" in run("solve", path).stderr
    path.write_text('question = "win"\nlandlord = "3"\npeasants = ["4"]\nbans = "x"\n')
    assert "'bans' must be a list of combination kinds, got \"x\"" in run("solve", path).stderr
