"""numba hygiene: one type signature per kernel (so the on-disk cache stays valid), a
cold run then a warm run in fresh processes, and the same answers without the JIT."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import CASES

ROOT = Path(__file__).resolve().parents[1]


def landlord(*args, env_extra):
    env = dict(os.environ, **env_extra)
    return subprocess.run(
        [sys.executable, "-c", "from cli import main; main()", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )


@pytest.mark.slow
def test_cold_then_warm_process(tmp_path):
    cache = {"NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    want = (CASES / "edge_cases.ans").read_text()
    cold = landlord("judge", CASES / "edge_cases.in", env_extra=cache)
    assert cold.returncode == 0, cold.stderr
    assert cold.stdout == want
    assert "compiling" in cold.stderr
    warm = landlord("judge", CASES / "edge_cases.in", env_extra=cache)
    assert warm.returncode == 0, warm.stderr
    assert warm.stdout == want
    assert warm.stderr == ""


@pytest.mark.slow
def test_every_kernel_has_exactly_one_signature_and_loads_from_the_cache(tmp_path):
    """The recursive search above all: numba's cache is only safe for it with one. In a
    process of its own with an empty cache, so that every kernel is compiled there; then
    a second process loads the recursive search from that cache and answers alike."""
    cache = {"NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    run = subprocess.run(
        [sys.executable, str(ROOT / "tests" / "kernel_signatures.py")],
        env=dict(os.environ, **cache),
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stderr
    found = json.loads(run.stdout)
    assert len(found) >= 20
    for name in ("solver.search.search", "solver.search.prove", "solver.ordering._counting_pass"):
        assert name in found, name
    for name, signatures in found.items():
        assert len(signatures) == 1, (name, signatures)
    warm = landlord("best", "L=35577TTQQ2 P1=9A", env_extra=cache)
    assert warm.returncode == 0, warm.stderr
    assert "L to move wins: 8 of 10 first moves win" in warm.stdout
    assert warm.stderr == ""  # nothing compiled


def test_same_answers_without_the_jit():
    no_jit = {"NUMBA_DISABLE_JIT": "1"}
    result = landlord("judge", CASES / "edge_cases.in", env_extra=no_jit)
    assert result.returncode == 0, result.stderr
    assert result.stdout == (CASES / "edge_cases.ans").read_text()
    result = landlord("best", "L=792 P1=5J P2=34 TO=P1", env_extra=no_jit)
    assert result.returncode == 0, result.stderr
    assert "P1 to move wins: 1 of 2 first moves wins" in result.stdout


def copy_of_the_solver(tmp_path: Path) -> Path:
    """A copy of the solver's sources under ``tmp_path``, to be edited."""
    copy = tmp_path / "solver"
    shutil.copytree(ROOT / "solver", copy, ignore=shutil.ignore_patterns("__pycache__"))
    return copy


def another_version(copy: Path) -> None:
    """Change the copy's sources (a comment in table.py)."""
    (copy / "table.py").write_text((copy / "table.py").read_text() + "\n# another version\n")


def cache_folder(copy: Path, env: dict[str, str]) -> Path:
    """The cache folder the copy's kernels would use, run with ``env``."""
    run = subprocess.run(
        [sys.executable, "-c", "import solver.jit, os; print(os.environ['NUMBA_CACHE_DIR'])"],
        cwd=copy.parent,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return Path(run.stdout.strip())


def test_each_version_of_the_sources_has_a_cache_of_its_own(tmp_path):
    """numba checks only the stamp of the file a kernel is written in: without this, a
    search compiled against an older table.py would be loaded after table.py changed."""
    copy = copy_of_the_solver(tmp_path)
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["XDG_CACHE_HOME"] = str(tmp_path / "cache")
    before = cache_folder(copy, env)
    assert before.parent == tmp_path / "cache" / "landlord-solver" / "numba"
    another_version(copy)
    assert cache_folder(copy, env) != before
    assert cache_folder(copy, env).parent == before.parent


def test_a_given_cache_folder_also_has_a_folder_for_each_version(tmp_path):
    """Under NUMBA_CACHE_DIR too: a folder kept for benchmarks of one tree must not
    serve kernels compiled from its older sources. A worker that inherits the folder
    already named for this version keeps it."""
    copy = copy_of_the_solver(tmp_path)
    given = tmp_path / "given"

    def folder(cache_dir: Path) -> Path:
        return cache_folder(copy, dict(os.environ, NUMBA_CACHE_DIR=str(cache_dir)))

    before = folder(given)
    assert before.parent == given
    assert folder(before) == before
    another_version(copy)
    after = folder(given)
    assert after != before and after.parent == given
