"""Stakes on the command line: the stake question in puzzle files, every line's stake,
best --stake, analyze --stake, batch, and bad stake input."""

import json
import re
from pathlib import Path

import pytest
import reference as ref
from click.testing import CliRunner

from cli import main
from solver.analyze import analyze_seat
from solver.cards import parse_hand
from solver.deals import parse_deal
from solver.endgame import Step, parse_position
from solver.movegen import as_play
from solver.puzzles import load_text, to_toml
from solver.rules import CLASSIC
from solver.scoring import History
from solver.search import WIN, Searcher, make_position

STAKES = Path(__file__).resolve().parents[1] / "puzzles" / "08-stakes.toml"
HEAD = 'question = "stake"\nlandlord = "5AA"\npeasants = ["7778A"]\n'


def run(*args, input=None):
    return CliRunner().invoke(main, [str(a) for a in args], input=input)


def steps(players, moves, rules):
    """A ``--json`` line as the solver's steps, for the reference to read."""
    names = ["landlord", "peasant1", "peasant2"]
    return [
        Step(names.index(p), None if m == "pass" else as_play(parse_hand(m), rules))
        for p, m in zip(players, moves, strict=True)
    ]


def test_stake_puzzles_give_their_values_with_lines_of_that_stake():
    result = run("solve", "--json", STAKES)
    assert result.exit_code == 0, result.output
    records = [json.loads(ln) for ln in result.stdout.splitlines()]
    puzzles = {p.name: p for p in load_text(STAKES.read_bytes(), str(STAKES))}
    assert len(records) == len(puzzles) == 10
    for rec in records:
        p = puzzles[rec["name"]]
        pos, h = p.position(), p.history
        assert rec["value"] == rec["expect"] == p.expect
        assert rec["points"] == rec["value"] * p.bid and rec["bid"] == p.bid
        line = steps(rec["players"], rec["line"], p.rules)
        fields = (h.bombs, h.peasants_played, h.landlord_plays)
        assert ref.replay_stake(pos, line, *fields) == rec["value"], rec["name"]
        stake = rec["stake"]
        assert stake["points"] == rec["points"]
        assert stake["multiplier"] == abs(rec["value"])
        played = [m for m in rec["line"] if m != "pass"]
        assert stake["rocket"] == ("BR" in played)


def test_every_win_line_carries_its_stake(tmp_path):
    # the published P22: the landlord leads 3444 and never plays again, an anti-spring
    path = tmp_path / "p.toml"
    path.write_text('question = "win"\nlandlord = "34444"\npeasants = ["55556"]\nbid = 3\n')
    result = run("solve", "--json", path)
    assert result.exit_code == 0, result.output
    rec = json.loads(result.stdout)
    assert rec["line"] == ["3444", "5556", "pass", "5"]
    assert rec["stake"] == {
        "bombs": 0,
        "rocket": False,
        "spring": False,
        "anti_spring": True,
        "multiplier": 2,
        "points": -6,
    }
    result = run("solve", path)
    assert "stake x2 (anti-spring): -6" in result.stdout
    # the stake question's line is the costliest the peasants can force: with the bomb
    result = run("solve", "--json", "--question", "stake", path)
    rec = json.loads(result.stdout)
    assert rec["value"] == -4 and rec["stake"]["bombs"] == 1 and rec["points"] == -12


def test_a_spring_line_carries_its_stake(tmp_path):
    path = tmp_path / "s.toml"
    path.write_text('landlord = "RB2222AAAA33"\npeasants = ["4444", "66"]\n')
    rec = json.loads(run("solve", "--json", path).stdout)
    assert rec["answer"] is True
    assert rec["stake"] == {
        "bombs": 2,
        "rocket": True,
        "spring": True,
        "anti_spring": False,
        "multiplier": 16,
        "points": 16,
    }


def test_all_moves_gives_each_first_moves_value():
    result = run("solve", "--json", "--all-moves", STAKES)
    rec = json.loads(result.stdout.splitlines()[1])  # S02: L=3333KA P1=2
    values = {m["move"]: m["value"] for m in rec["first_moves"]}
    assert values["3333KA"] == 2 and values["3333"] == -2 and values["333K"] == -1
    assert all(m["wins"] == (m["value"] > 0) for m in rec["first_moves"])


def test_best_stake_values_and_the_stake_of_each_line():
    spec = "L=45577 P1=35662 P2=42BR"
    result = run("best", spec, "--stake", "--lines", "--json")
    assert result.exit_code == 0, result.output
    rec = json.loads(result.stdout)
    assert rec["value"] == -4 and rec["answer"] is False
    pos = parse_position(spec)
    for move in rec["moves"]:
        first = as_play(parse_hand(move["move"]))
        child = pos.after(first)
        hands = [tuple(h) for h in child.hands]
        table = (child.table.cards, child.table.kind, child.table.rank, child.table.length)
        assert move["value"] == ref.value_minimax(hands, child.to_move, table, 0, 0, False, 1)
        # the move with the line after it ends the hand with a stake of that value
        assert move["stake"]["points"] == move["value"]
    text = run("best", spec, "--stake").stdout
    assert "L to move: worth -4 to the landlord" in text


def test_analyze_stake_gives_each_seats_value():
    deal = "S1=9JQKKKKAAAA2222BR S2=334456778899TTJQQ S3=334455566677889TT KITTY=JJQ"
    result = run("analyze", deal, "--stake", "--bid", "2", "--json")
    assert result.exit_code == 0, result.output
    seats = json.loads(result.stdout)["seats"]
    for s in seats:
        assert s["answer"] == (s["value"] > 0)
        assert s["points"] == 2 * s["value"] == s["stake"]["points"]
    assert seats[0]["value"] > 0 and seats[1]["value"] < 0
    text = run("analyze", deal, "--stake").stdout
    assert f"seat 1 as landlord wins  first move {seats[0]['move']}  worth " in text
    assert "points at a bid" not in text
    text = run("analyze", deal, "--stake", "--bid", "2").stdout
    assert f", {seats[0]['points']:+d} points at a bid of 2" in text
    assert run("analyze", deal, "--bid", "2").exit_code == 2  # --bid needs --stake


def test_batch_answers_the_stake_question(tmp_path):
    out = tmp_path / "r.jsonl"
    result = run(
        "batch", STAKES, "--question", "stake", "--bid", "2", "--out", out, "--workers", "1"
    )
    assert result.exit_code == 0, result.output
    records = [json.loads(ln) for ln in out.read_text().splitlines()]
    assert len(records) == 10
    assert all(r["points"] == 2 * r["value"] == r["stake"]["points"] for r in records)
    assert all(r["value"] == r["expect"] for r in records)


def test_history_and_bid_survive_a_round_trip():
    text = HEAD.replace('"5AA"', '"3"').replace('"7778A"', '"4"') + (
        "history = { bombs = 2, landlord_plays = 1 }\nbid = 3\nexpect = 8\n"
    )
    (puzzle,) = load_text(text.encode(), "t.toml")
    assert puzzle.history == History(2, False, 1) and puzzle.bid == 3 and puzzle.expect == 8
    (again,) = load_text(to_toml([puzzle]).encode(), "t.toml")
    assert (again.history, again.bid, again.expect) == (puzzle.history, 3, 8)


@pytest.mark.parametrize(
    "to_move, table, history",
    [
        (0, None, History()),  # the start of a hand
        (1, 0, History(0, False, 1)),  # the landlord's play on the table
        (0, 1, History(0, True, 1)),  # a peasant's play on the table
        (1, None, History(0, True, 1)),  # a peasant leads: he won a round
    ],
)
def test_a_position_without_history_assumes_the_least(to_move, table, history):
    assert History.implied(to_move, None, table, CLASSIC) == history


@pytest.mark.parametrize(
    "extra, line, message",
    [
        ("bid = 4\n", 4, "bid 4: expected 1, 2 or 3"),
        ("bid = true\n", 4, "bid True: expected 1, 2 or 3"),
        ("bid = 2.0\n", 4, "bid 2.0: expected 1, 2 or 3"),
        (
            "history = { bombs = -1, landlord_plays = 1 }\n",
            4,
            "history bombs must be a whole number 0 or more, got -1",
        ),
        (
            'to_move = "peasant1"\nhistory = { landlord_plays = 0 }\n',
            5,
            "landlord_plays = 0 only at the start of a hand, where the landlord leads",
        ),
        (
            "history = { bombs = 1, landlord_plays = 0 }\n",
            4,
            "with landlord_plays = 0 nothing has been played yet",
        ),
        (
            'table = { play = "6", by = "peasant1" }\n'
            "history = { peasants_played = false, landlord_plays = 1 }\n",
            5,
            "the table play is a peasant's, so peasants_played = true",
        ),
        (
            "history = { bombs = 12, landlord_plays = 1 }\n",
            4,
            "12 bombs, but the cards out of play and on the table make at most 10",
        ),
        ("history = { played = true }\n", 4, "'history' must be { bombs = 0"),
        ("history = { peasants_played = 1 }\n", 4, "peasants_played must be true or false"),
        ("expect = 3\n", 4, "a stake's 'expect' is a power of two or its negative, got 3"),
        ("expect = 2.0\n", 4, "a stake's 'expect' is its value, a power of two or its negative"),
    ],
)
def test_bad_stake_input_gets_one_clear_message(tmp_path, extra, line, message):
    path = tmp_path / "bad.toml"
    path.write_text(HEAD + extra)
    result = run("solve", path)
    assert result.exit_code == 2
    errors = [ln for ln in result.stderr.splitlines() if ln.startswith("error:")]
    assert len(errors) == 1, result.stderr
    assert f"bad.toml, line {line}, puzzle 'bad': " in errors[0] and message in errors[0]
    assert "Traceback" not in result.output


def test_no_bomb_of_a_rank_on_the_table(tmp_path):
    """The 7 on the table is of the only rank no hand holds: no bomb was ever played."""
    path = tmp_path / "t.toml"
    path.write_text(
        'question = "stake"\nlandlord = "345689TJQKA"\n'
        'peasants = ["345689TJQKA", "345689TJQKA2BR"]\nto_move = "peasant1"\n'
        'table = { play = "7", by = "landlord" }\nhistory = { bombs = 1, landlord_plays = 1 }\n'
    )
    result = run("solve", path)
    assert result.exit_code == 2
    assert "line 6, puzzle 't': history: 1 bomb, but the cards out of play" in result.stderr
    assert "make at most 0" in result.stderr


def test_a_history_left_incomplete_is_filled_in_as_on_the_command_line(tmp_path):
    """The keys a puzzle's history leaves out are what its position implies: here the
    landlord's play on the table makes landlord_plays = 1, as BOMBS=1 alone does inline."""
    path = tmp_path / "h.toml"
    path.write_text(
        'question = "stake"\nlandlord = "33"\npeasants = ["4", "5"]\nto_move = "peasant1"\n'
        'table = { play = "6", by = "landlord" }\nhistory = { bombs = 1 }\n'
    )
    (puzzle,) = load_text(path.read_bytes(), str(path))
    assert puzzle.history == History(1, False, 1)
    rec = json.loads(run("solve", "--json", path).stdout)
    inline = json.loads(
        run("best", "L=33 P1=4 P2=5 TO=P1 TABLE=6@L BOMBS=1", "--stake", "--json").stdout
    )
    assert rec["value"] == inline["value"] == 4  # the bomb and the spring
    assert inline["history"] == {"bombs": 1, "peasants_played": False, "landlord_plays": 1}
    # at the landlord's free lead, a bomb played means he has played: not the hand's start
    path.write_text(
        'question = "stake"\nlandlord = "3333"\npeasants = ["4"]\nhistory = { bombs = 1 }\n'
    )
    (puzzle,) = load_text(path.read_bytes(), str(path))
    assert puzzle.history == History(1, False, 1)
    inline = json.loads(run("best", "L=3333 P1=4 BOMBS=1", "--stake", "--json").stdout)
    assert inline["history"] == {"bombs": 1, "peasants_played": False, "landlord_plays": 1}
    assert inline["value"] == json.loads(run("solve", "--json", path).stdout)["value"] == 8


def test_a_spring_question_takes_no_history(tmp_path):
    path = tmp_path / "s.toml"
    path.write_text('landlord = "3"\npeasants = ["4"]\nhistory = { bombs = 1 }\n')
    result = run("solve", path)
    assert result.exit_code == 2
    assert "a spring starts a hand: 'history' is for win and stake questions" in result.stderr


def test_a_bid_option_outside_1_to_3_is_bad_usage():
    result = run("solve", STAKES, "--bid", "4")
    assert result.exit_code == 2 and "'4' is not one of '1', '2', '3'" in result.output


def test_an_inline_position_may_give_its_history():
    result = run("best", "L=3 P1=4 BOMBS=2 LANDLORD_PLAYS=1", "--stake")
    assert result.exit_code == 0, result.output
    assert "L=3 P1=4 TO=L BOMBS=2 PEASANTS_PLAYED=no LANDLORD_PLAYS=1" in result.stdout
    assert "worth +8 to the landlord" in result.stdout  # two bombs and the spring
    rec = json.loads(run("best", "L=3 P1=4 TO=P1 TABLE=5@L", "--stake", "--json").stdout)
    assert rec["history"] == {"bombs": 0, "peasants_played": False, "landlord_plays": 1}
    for spec, message in (
        ("L=3 P1=4 BOMBS=x", "BOMBS= and LANDLORD_PLAYS= take whole numbers"),
        ("L=3 P1=4 PEASANTS_PLAYED=maybe", "PEASANTS_PLAYED= takes yes or no"),
        ("L=3 P1=4 TO=P1 PEASANTS_PLAYED=no", "a peasant leads, so he has won a round"),
        ("L=3 P1=4 BOMBS=-1", "cannot be negative"),
    ):
        result = run("best", spec, "--stake")
        assert result.exit_code == 2 and message in result.output, (spec, result.output)
        assert "Traceback" not in result.output


def test_play_for_points(tmp_path):
    path = tmp_path / "a.toml"
    path.write_text('question = "stake"\nlandlord = "455772BR"\npeasants = ["46888", "672"]\n')
    # the hint keeps the value +2; the 7 keeps the win but halves it (see best --stake)
    result = run("play", path, input="hint\n7\nquit\n")
    assert result.exit_code == 0, result.output
    assert "moves that keep your value: 55, 77, BR, 4, 2" in result.stdout
    assert "That gives some away: the hand was worth +2 to the landlord, now +1." in result.stdout
    values = {m["move"]: m["value"] for m in best_moves("L=455772BR P1=46888 P2=672")}
    assert {m for m, v in values.items() if v == 2} == {"55", "77", "BR", "4", "2"}
    # played well to the end, the hand's stake is the value
    result = run("play", STAKES, "--puzzle", "S01", input="2222\n3\n")
    assert result.stdout.rstrip().endswith("You win.\nThe hand's stake: x4 (1 bomb, spring): +4")
    # --stake plays a win puzzle for points too
    path.write_text('question = "win"\nlandlord = "22223"\npeasants = ["4"]\n')
    result = run("play", path, "--stake", input="3\n")
    assert "now -2" in result.stdout and "You lose." in result.stdout


def best_moves(spec):
    return json.loads(run("best", spec, "--stake", "--json").stdout)["moves"]


def test_a_seats_answer_outlives_a_limit_that_stops_its_value():
    """Seat 2 loses in a few thousand nodes, while what his loss costs him takes
    millions: a limit that stops the value keeps the answer, and the run exits 3."""
    hands, kitty = ["67899TTJKKAA2222B", "33455667789TJQQKA", "334557889TJJQQKAR"], "446"
    deal = " ".join(f"S{k}={h}" for k, h in enumerate(hands, 1)) + f" KITTY={kitty}"
    searcher = Searcher(8, node_limit=100_000)
    plain = analyze_seat(searcher, parse_deal(deal), 2)
    assert plain.answer is False and plain.nodes < 10_000
    valued = analyze_seat(searcher, parse_deal(deal), 2, bid=1)
    assert (valued.answer, valued.value, valued.stopped_by) == (False, None, "node limit")
    assert not valued.settled and plain.settled
    result = run("analyze", deal, "--json", "--stake", "--time-limit", "0.5", "--workers", "1")
    assert result.exit_code == 3
    seat = json.loads(result.stdout)["seats"][1]
    assert seat["answer"] is False and seat["value"] is None and seat["points"] is None
    assert seat["stopped_by"] == "time limit"
    text = f'[[deal]]\nname = "d"\nhands = {json.dumps(hands)}\nkitty = "{kitty}"\n'
    limits = ("--question", "stake", "--time-limit", "0.5", "--workers", "1")
    batch = run("batch", "-", *limits, input=text)
    assert batch.exit_code == 3, batch.output
    assert json.loads(batch.stdout)["seats"][1]["answer"] is False
    seats = re.search(r"(\d+) win, (\d+) lose, (\d+) unknown", batch.stderr).groups()
    assert int(seats[2]) >= 1  # the seat whose value is unknown counts as unknown


def test_a_seat_that_wins_keeps_its_first_move_when_a_limit_stops_its_value():
    """Seat 1 wins in under a hundred nodes; how much, a limit stops. The move the
    forced-win search proved is still given, and it wins."""
    deal = parse_deal("S1=78JQQQKKAAA2222BR S2=344466677789TTTJJ S3=33345555688999JKK KITTY=TQA")
    valued = analyze_seat(Searcher(8, node_limit=30_000), deal, 1, bid=1)
    assert (valued.answer, valued.value, valued.stopped_by) == (True, None, "node limit")
    searcher = Searcher(8)
    pos = make_position(deal.landlord_hands(0))
    played = pos.after(as_play(parse_hand(valued.move)))
    assert searcher.value(played) == WIN


def test_best_stake_says_how_many_first_moves_a_limit_left_unknown():
    result = run("best", "L=35577TTQQ2 P1=9A", "--stake", "--time-limit", "1e-9")
    assert result.exit_code == 3
    head = result.stdout.splitlines()[1]
    moves = len(result.stdout.splitlines()) - 2
    assert head == (
        f"  L to move: worth unknown to the landlord; 0 of {moves} first moves keep it "
        f"({moves} unknown: a limit stopped the search)"
    )
