"""The size of a batch run's pool: no more workers than tasks, nor than usable cores."""

import re
from pathlib import Path

from test_batch import run

from solver.batch import TASK_CASES
from solver.engines import pool_size, usable_cores


def workers_used(stderr: str) -> int:
    return int(re.search(r"items/s, (\d+) workers?\)", stderr).group(1))


def test_no_more_workers_than_tasks(in_tmp):
    Path("two.in").write_text("2\n3\n4\n5\n33\n44\n55\n")
    result = run("batch", "two.in", "--workers", "3")
    assert result.exit_code == 0, result.output
    assert "note: --workers 3 capped to 1 (1 task, " in result.stderr
    assert workers_used(result.stderr) == 1


def test_no_more_workers_than_usable_cores(in_tmp):
    cases = 3 * TASK_CASES  # three tasks of tiny deals
    Path("many.in").write_text(f"{cases}\n" + "3 4 5\n" * cases)
    result = run("batch", "many.in", "--workers", "64")
    assert result.exit_code == 0, result.output
    size = min(usable_cores(), 3)
    assert f"note: --workers 64 capped to {size} (3 tasks, {usable_cores()} usable core" in (
        result.stderr
    )
    assert workers_used(result.stderr) == size


def test_pool_size():
    cores = usable_cores()
    assert pool_size(None, 1) == (1, None)  # the default, cut silently
    assert pool_size(None, 10**6) == (cores, None)
    assert pool_size(1, 10**6) == (1, None)
    size, note = pool_size(4096, 10**6)
    assert size == cores and note.startswith(f"note: --workers 4096 capped to {cores} ")
