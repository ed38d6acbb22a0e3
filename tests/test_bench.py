"""`landlord bench`: the standard suite, its signature, and the bench list's expected
answers and node counts, checked position by position (perft style)."""

import dataclasses
import json

import pytest
from click.testing import CliRunner
from conftest import PUBLISHED

from cli import main
from solver import bench, deals

SIGNATURE = 46_895  # changes only when the search does; then bench_list.txt changes too
STAKE_SIGNATURE = 496_335  # the same for the stake question and stake_list.txt


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


@pytest.fixture(scope="module")
def report():
    """One JSON run of the suite, shared by the tests that only read it."""
    result = run("bench", "--deals", "300", "--random", "1", "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_the_list_carries_the_signature_and_the_published_answers():
    listed = bench.bench_list()
    assert [e.name for e in listed] == [f"P{k:02}" for k in range(1, 26)] + ["T01", "T02", "T03"]
    assert sum(e.nodes for e in listed) == SIGNATURE
    # P01-P25 are the published endgames: their listed answers are the published ones
    published = {}
    for line in PUBLISHED.read_text().splitlines():
        fields = dict(kv.split("=") for kv in line.split("#")[0].split())
        published[fields["ID"]] = {"win": "win", "lose": "loss"}[fields["ANSWER"]]
    assert {e.name: e.answer for e in listed if e.name in published} == published


def test_every_position_gives_its_listed_answer_and_nodes(report):
    rows = [r for r in report["rows"] if r["suite"] == "bench list"]
    expected = {e.name: (e.answer, e.nodes) for e in bench.bench_list()}
    assert {r["case"]: (r["expected_answer"], r["expected_nodes"]) for r in rows} == expected
    assert {r["case"]: (r["answer"], r["nodes"]) for r in rows} == expected
    assert report["signature"] == report["expected_signature"] == SIGNATURE
    staked = [r for r in report["rows"] if r["suite"] == "stake list"]
    expected = {e.name: (e.answer, e.nodes) for e in bench.stake_list()}
    assert {r["case"]: (r["answer"], r["nodes"]) for r in staked} == expected
    assert report["stake_signature"] == report["expected_stake_signature"] == STAKE_SIGNATURE
    assert report["differences"] == []
    spring = [r for r in report["rows"] if r["suite"] == "spring"]
    assert [r["items"] for r in spring] == [300, 300]
    assert all(r["expected_answer"] is None for r in spring)
    assert set(report["median_seconds"]) == {"two-player", "three-player"}
    assert set(report["deals_per_second"]) == {r["case"] for r in spring}


def test_the_text_report_prints_the_signature():
    result = run("bench", "--deals", "300", "--random", "0")
    assert result.exit_code == 0, result.output
    assert f"bench signature: {SIGNATURE:,} nodes (28 positions)" in result.stdout
    assert f"stake signature: {STAKE_SIGNATURE:,} nodes (40 positions)" in result.stdout
    assert "deals/s" in result.stdout
    assert "differ" not in result.output
    assert "median" not in result.stdout  # no random endgames were run


@pytest.fixture
def tampered(monkeypatch):
    """The bench list with one node count (P01) and one answer (P22) made wrong."""
    listed = bench.bench_list()
    changed = []
    for e in listed:
        if e.name == "P01":
            e = dataclasses.replace(e, nodes=e.nodes + 1)
        elif e.name == "P22":
            assert e.answer == "loss"
            e = dataclasses.replace(e, answer="win")
        changed.append(e)
    monkeypatch.setattr(bench, "bench_list", lambda: changed)
    return {e.name: e for e in listed}


def test_a_wrong_node_count_or_answer_fails_naming_each_position(tampered):
    result = run("bench", "--deals", "10", "--random", "0")
    assert result.exit_code == 1, result.output
    p01, p22 = tampered["P01"].nodes, tampered["P22"].nodes
    report = result.stdout.split("positions differ from the list:\n")[1].splitlines()
    assert report[0].split() == ["case", "expected", "got"]
    assert [line.split() for line in report[1:]] == [
        ["P01", "loss", f"{p01 + 1:,}", "loss", f"{p01:,}"],
        ["P22", "win", f"{p22:,}", "loss", f"{p22:,}", "WRONG", "ANSWER"],
    ]
    assert f"bench signature: {SIGNATURE:,} nodes" in result.stdout
    assert f"expected signature: {SIGNATURE + 1:,} nodes" in result.stdout
    assert "2 of 68 positions differ" in result.stdout
    assert (
        "the bench lists differ at P01 (solver/bench_list.txt), P22 (solver/bench_list.txt)"
        in result.stderr
    )


def test_the_json_report_lists_the_differing_positions(tampered):
    result = run("bench", "--deals", "10", "--random", "0", "--json")
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    p01, p22 = tampered["P01"].nodes, tampered["P22"].nodes
    common = dict(suite="bench list", expected_answer="loss", answer="loss")
    assert report["differences"] == [
        dict(common, case="P01", expected_nodes=p01 + 1, nodes=p01),
        dict(common, case="P22", expected_answer="win", expected_nodes=p22, nodes=p22),
    ]
    assert report["signature"] == SIGNATURE and report["expected_signature"] == SIGNATURE + 1


# The growth suite: run on the small sets only (seconds); every expectation is read from
# the growth list, so that these tests hold after the list is recorded again.

GROWTH = bench.default_growth_list()


def growth(*args, listed=None):
    extra = ["--growth-list", listed] if listed else []
    return run("bench", "--growth", *args, *extra)


def test_growth_sets_are_the_sizes_and_the_real_deals():
    sets = bench.growth_sets()
    assert [(s.name, s.cards, s.sizes) for s in sets] == [
        ("G26", 26, (10, 8, 8)),
        ("G32", 32, (12, 10, 10)),
        ("G38", 38, (14, 12, 12)),
        ("G44", 44, (16, 14, 14)),
        ("G50", 50, (18, 16, 16)),
        ("D54", 54, (20, 17, 17)),
    ]
    for s in sets:
        made = s.positions()
        assert [name for name, _ in made] == [f"{s.name}-{k}" for k in range(1, 9)]
        for _, pos in made:
            assert [sum(h) for h in pos.hands] == list(s.sizes)
            assert pos.to_move == 0 and pos.table is None
    # whole deals: seat 1 with the kitty as the landlord, the deals `landlord deal` prints
    open_deals = deals.iter_open_deals(54, 8)
    assert [p.hands for _, p in sets[-1].positions()] == [
        tuple(d.landlord_hands(0)) for d in open_deals
    ]
    assert [s.cards for s in bench.growth_sets([32, 26])] == [26, 32]
    with pytest.raises(ValueError, match="no growth set of 27 cards"):
        bench.growth_sets([27])


def test_the_growth_list_holds_every_position_the_seeds_give():
    listed = bench.read_growth_list(GROWTH)
    sets = bench.growth_sets()
    bench.check_positions(listed, sets, str(GROWTH))  # raises when a position is not the seed's
    names = [name for s in sets for name, _ in s.positions()]
    assert sorted(listed.entries) == sorted(names)
    assert set(listed.limits) == {s.name for s in sets}
    for e in listed.entries.values():
        if e.answer == "unknown":  # stopped by the limit it was recorded at
            assert e.nodes == listed.limits[e.name.split("-")[0]] + 1
        else:
            assert e.nodes <= listed.limits[e.name.split("-")[0]]


def test_the_growth_suite_gives_the_listed_answers_and_nodes():
    result = growth("--sizes", "26", "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    listed = bench.read_growth_list(GROWTH).entries
    rows = report["rows"]
    assert [r["case"] for r in rows] == [f"G26-{k}" for k in range(1, 9)]
    assert {r["case"]: (r["answer"], r["nodes"]) for r in rows} == {
        r["case"]: (listed[r["case"]].answer, listed[r["case"]].nodes) for r in rows
    }
    assert {r["verdict"] for r in rows} <= {"same", "still unknown"}
    assert report["differences"] == [] and report["newly_answered"] == []
    [line] = report["growth"]
    assert line["cards"] == "26 (10/8/8)" and line["positions"] == 8
    assert line["answered"] == sum(r["answer"] != "unknown" for r in rows)
    assert report["node_limit"] == bench.GROWTH_NODE_LIMIT and report["time_limit"] == 60


def test_the_growth_text_report_prints_the_table():
    result = growth("--sizes", "26", "--time-limit", "30")
    assert result.exit_code == 0, result.output
    out = result.stdout.splitlines()
    assert out[0].split() == ["set", "case", "answer", "nodes", "seconds", "listed"]
    assert [ln.split()[1] for ln in out[1:9]] == [f"G26-{k}" for k in range(1, 9)]
    assert out[9] == bench.GrowthLine.HEADER
    assert out[10].startswith("26 (10/8/8) ") and out[10].split()[2] == "8/8"
    assert f"limits: {bench.GROWTH_NODE_LIMIT:,} nodes and 30 s a position" in result.stdout
    assert "differ" not in result.output


def doctored(tmp_path, change):
    """A copy of the growth list with ``change(name, entry)`` applied to its G26 lines."""
    out = []
    for line in GROWTH.read_text().splitlines():
        fields = line.split(maxsplit=3)
        if fields and fields[0].startswith("G26-"):
            entry = change(bench.Listed(fields[0], fields[1], int(fields[2]), fields[3]))
            line = f"{entry.name} {entry.answer} {entry.nodes} {entry.position}"
        out.append(line)
    path = tmp_path / "growth_list.txt"
    path.write_text("\n".join(out) + "\n")
    return path


def g26():
    """The G26 entries of the growth list that the search answers, fewest nodes first."""
    entries = [e for e in bench.read_growth_list(GROWTH).entries.values() if e.name[:4] == "G26-"]
    return sorted((e for e in entries if e.answer != "unknown"), key=lambda e: e.nodes)


@pytest.fixture
def wrong(tmp_path):
    """The growth list with one node count made wrong, one answer turned round, and one
    answer made unknown (an improvement when it answers again)."""
    a, b, c = g26()[-3:]
    flip = {"win": "loss", "loss": "win"}

    def change(e):
        if e.name == a.name:
            return dataclasses.replace(e, nodes=e.nodes + 1)
        if e.name == b.name:
            return dataclasses.replace(e, answer=flip[e.answer])
        if e.name == c.name:
            return dataclasses.replace(e, answer="unknown", nodes=1001)
        return e

    return doctored(tmp_path, change), (a, b, c)


def test_a_growth_difference_fails_naming_each_position(wrong):
    path, (a, b, c) = wrong
    result = growth("--sizes", "26", listed=path)
    assert result.exit_code == 1, result.output
    report = result.stdout.split("positions differ from the list:\n")[1].splitlines()
    assert report[0].split() == ["case", "expected", "got"]
    flipped = {"win": "loss", "loss": "win"}[b.answer]
    expected = {
        a.name: [a.name, a.answer, f"{a.nodes + 1:,}", a.answer, f"{a.nodes:,}"],
        b.name: [b.name, flipped, f"{b.nodes:,}", b.answer, f"{b.nodes:,}", "WRONG", "ANSWER"],
    }
    assert [line.split() for line in report[1:]] == [expected[n] for n in sorted(expected)]
    assert "2 of 8 positions differ" in result.stdout
    assert f"{c.name}: listed unknown, now {c.answer} in {c.nodes:,} nodes (improved)" in (
        result.stdout
    )
    names = ", ".join(sorted([a.name, b.name]))
    assert f"the growth list differs at {names} ({path})" in result.stderr


def test_the_growth_json_report_lists_the_differences_and_improvements(wrong):
    path, (a, b, c) = wrong
    result = growth("--sizes", "26", "--json", listed=path)
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    flipped = {"win": "loss", "loss": "win"}[b.answer]
    differences = {
        a.name: dict(case=a.name, expected_answer=a.answer, expected_nodes=a.nodes + 1),
        b.name: dict(case=b.name, expected_answer=flipped, expected_nodes=b.nodes),
    }
    for e in (a, b):
        differences[e.name].update(answer=e.answer, nodes=e.nodes)
    assert report["differences"] == [differences[n] for n in sorted(differences)]
    assert report["newly_answered"] == [
        dict(
            case=c.name,
            expected_answer="unknown",
            expected_nodes=1001,
            answer=c.answer,
            nodes=c.nodes,
        )
    ]


def test_a_node_limit_below_the_listed_nodes_is_no_difference_but_one_it_used_to_meet_is(
    tmp_path,
):
    *_, second, biggest = g26()
    limit = biggest.nodes - 1  # the biggest cannot answer now: not compared
    result = growth("--sizes", "26", "--node-limit", limit, "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert [d["case"] for d in report["not_compared"]] == [biggest.name]
    # listed as answered within the limit, yet stopped by it: the search needs more nodes
    path = doctored(tmp_path, lambda e: dataclasses.replace(e, nodes=limit) if e == biggest else e)
    result = growth("--sizes", "26", "--node-limit", limit, listed=path)
    assert result.exit_code == 1, result.output
    assert f"{biggest.name} {biggest.answer} {limit:,} unknown {limit + 1:,}" in " ".join(
        result.stdout.split()
    )
    assert second.nodes <= limit


def test_record_writes_the_list_and_keeps_the_sets_not_run(tmp_path):
    fresh = tmp_path / "fresh.txt"
    result = growth("--sizes", "26", "--record", listed=fresh)
    assert result.exit_code == 0, result.output
    assert f"recorded 8 positions (G26) in {fresh}" in result.stdout
    recorded = bench.read_growth_list(fresh)
    listed = bench.read_growth_list(GROWTH)
    assert recorded.entries == {k: v for k, v in listed.entries.items() if k[:4] == "G26-"}
    assert recorded.limits == {"G26": bench.GROWTH_NODE_LIMIT}
    # a lower limit, over a copy of the whole list: G26 again (what needs more is unknown,
    # its heading says so), the other sets as they were
    copy = tmp_path / "copy.txt"
    copy.write_text(GROWTH.read_text())
    result = growth("--sizes", "26", "--record", "--node-limit", 1000, listed=copy)
    assert result.exit_code == 0, result.output
    again = bench.read_growth_list(copy)
    assert {k: v for k, v in again.entries.items() if k[:4] != "G26-"} == {
        k: v for k, v in listed.entries.items() if k[:4] != "G26-"
    }
    for name, e in again.entries.items():
        if name[:4] == "G26-":
            before = listed.entries[name]
            if before.answer != "unknown" and before.nodes <= 1000:
                assert e == before
            else:
                assert (e.answer, e.nodes) == ("unknown", 1001)
    assert again.limits == {**listed.limits, "G26": 1000}
    assert "# G26: 26 (10/8/8), seed 26, node limit 1,000 (below the standard 200,000,000)" in (
        copy.read_text()
    )
    # run against it: the positions recorded unknown answer now, an improvement
    result = growth("--sizes", "26", "--json", listed=copy)
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert len(report["newly_answered"]) == sum(
        e.answer == "unknown" for e in again.entries.values() if e.name[:4] == "G26-"
    )


def test_a_list_of_other_positions_is_refused(tmp_path):
    path = doctored(
        tmp_path,
        lambda e: dataclasses.replace(e, position="L=3 P1=4 P2=5") if e.name == "G26-1" else e,
    )
    result = growth("--sizes", "26", listed=path)
    assert result.exit_code == 2
    assert "G26-1 is not the position seed 26 gives" in result.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--growth", "--sizes", "27"], "no growth set of 27 cards"),
        (["--growth", "--sizes", "26,x"], "is not card counts"),
        (["--sizes", "26"], "need --growth"),
        (["--record"], "need --growth"),
        (["--growth", "--random", "2"], "not --growth"),
        (["--growth", "--record", "--time-limit", "9"], "no --time-limit"),
        (["--growth", "--growth-list", "nowhere.txt"], "no growth list at nowhere.txt"),
    ],
)
def test_growth_options_are_checked(args, message, in_tmp):
    result = run("bench", *args)
    assert result.exit_code == 2, result.output
    assert message in result.stderr


def test_the_default_node_limit_is_the_suites():
    [option] = [p for p in main.commands["bench"].params if p.name == "node_limit"]
    assert option.default == bench.GROWTH_NODE_LIMIT


def test_a_verdict_compares_what_can_be_compared():
    def row(expected, got, stopped=None, limit=0):
        return bench.Row("G", "G-1", got[0], 0.0, got[1], 1, *expected, stopped, limit)

    assert row((None, None), ("win", 5)).verdict == ""
    assert row(("win", 5), ("win", 5)).verdict == "same"
    assert row(("win", 5), ("win", 6)).verdict == "differs"
    assert row(("win", 5), ("loss", 5)).verdict == "wrong answer"
    assert row(("unknown", 11), ("loss", 9)).verdict == "newly answered"
    assert row(("unknown", 11), ("unknown", 11), "node limit", 10).verdict == "still unknown"
    assert row(("win", 50), ("unknown", 11), "node limit", 10).verdict == "not compared"
    assert row(("win", 50), ("unknown", 9), "time limit", 100).verdict == "not compared"
    assert row(("win", 5), ("unknown", 11), "node limit", 10).verdict == "differs"
    assert [r.differs for r in (row(("win", 5), ("win", 6)), row(("unknown", 1), ("win", 6)))] == [
        True,
        False,
    ]


def test_a_median_or_worst_decided_by_an_unanswered_position_is_a_bound():
    line = bench.GrowthLine.of("x", [("win", 1.0, 10), ("loss", 2.0, 20), ("unknown", 3.0, 99)])
    assert (line.median, line.worst, line.median_nodes) == (
        bench.Figure(2.0),
        bench.Figure(3.0, True),
        bench.Figure(20.0),
    )
    line = bench.GrowthLine.of("x", [("win", 1.0, 10), ("unknown", 5.0, 99)])
    assert line.median == bench.Figure(3.0, True) and line.answered == 1
    assert line.median.text(1) == ">3.0" and line.total_seconds == 6.0


def test_the_stake_list_holds_the_values_of_the_reference():
    """Every listed value small enough for the reference minimax is its value, and the
    list's positions cover wins and losses with and without doublings."""
    import reference as ref

    from solver.endgame import parse_position

    listed = bench.stake_list()
    assert sum(e.nodes for e in listed) == STAKE_SIGNATURE
    checked = 0
    for e in listed:
        pos = parse_position(e.position)
        if sum(map(sum, pos.hands)) <= 14:
            history = pos.to_move == 0 and pos.table is None  # the start of a hand
            fields = (0, not history, int(not history))
            want = ref.value_minimax(pos.hands, pos.to_move, None, None, *fields, pos.rules.bans)
            assert int(e.answer) == want, e.name
            checked += 1
    assert checked >= 8
    assert {"+1", "+2", "+4", "+8", "-1", "-2", "-4"} <= {e.answer for e in listed}
