"""`landlord bench`: the standard suite, its signature, and the bench list's expected
answers and node counts, checked position by position (perft style)."""

import dataclasses
import json

import pytest
from click.testing import CliRunner
from conftest import PUBLISHED

from cli import main
from solver import bench

SIGNATURE = 687_400  # changes only when the search does; then bench_list.txt changes too


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
    assert report["differences"] == []
    spring = [r for r in report["rows"] if r["suite"] == "spring"]
    assert [r["items"] for r in spring] == [300, 300]
    assert all(r["expected_answer"] is None for r in spring)
    assert set(report["median_seconds"]) == {"two-player", "three-player"}
    assert set(report["deals_per_second"]) == {r["case"] for r in spring}


def test_the_text_report_prints_the_signature():
    result = run("bench", "--deals", "300", "--random", "0")
    assert result.exit_code == 0, result.output
    assert "bench signature: 687,400 nodes (28 positions)" in result.stdout
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
    assert "bench signature: 687,400 nodes" in result.stdout
    assert "expected signature: 687,401 nodes" in result.stdout
    assert "2 of 28 positions differ" in result.stdout
    assert "the bench list differs at P01, P22" in result.stderr


def test_the_json_report_lists_the_differing_positions(tampered):
    result = run("bench", "--deals", "10", "--random", "0", "--json")
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    p01, p22 = tampered["P01"].nodes, tampered["P22"].nodes
    assert report["differences"] == [
        dict(case="P01", expected_answer="loss", expected_nodes=p01 + 1, answer="loss", nodes=p01),
        dict(case="P22", expected_answer="win", expected_nodes=p22, answer="loss", nodes=p22),
    ]
    assert report["signature"] == SIGNATURE and report["expected_signature"] == SIGNATURE + 1
