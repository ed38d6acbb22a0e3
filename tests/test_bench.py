"""`landlord bench`: the standard suite and its signature."""

import json

from click.testing import CliRunner

from cli import main


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_bench_prints_the_signature_and_every_case():
    result = run("bench", "--deals", "300", "--random", "1", "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    listed = [r for r in report["rows"] if r["suite"] == "bench list"]
    assert len(listed) == 28 and report["signature"] == sum(r["nodes"] for r in listed)
    assert report["signature"] == 687_400  # changes only when the search does
    assert {r["case"]: r["answer"] for r in listed}["P21"] == "win"
    spring = [r for r in report["rows"] if r["suite"] == "spring"]
    assert [r["items"] for r in spring] == [300, 300]
    assert set(report["median_seconds"]) == {"two-player", "three-player"}
    text = run("bench", "--deals", "300", "--random", "0")
    assert text.exit_code == 0
    assert "bench signature: 687,400 nodes (28 positions)" in text.stdout
    assert "deals/s" in text.stdout
