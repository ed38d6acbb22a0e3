"""The examples in README.md and puzzles/README.md, run and compared with what they show,
so that their printed figures cannot drift from what the tool prints.

Every fenced block of the two files is accounted for: a ``$ landlord ...`` session is run
command by command (in a scratch folder holding a copy of ``puzzles/``) and its output
compared line by line; a ``python`` block is run and each ``expression  # value`` line
checked; a ``toml`` block is solved as a puzzle file and must meet its ``expect``. A
plain block without commands must be named in NOT_EXAMPLES, and a command that cannot
run in a test in SKIPPED, each with its reason: a new example is never silently unchecked.
"""

from __future__ import annotations

import ast
import re
import shlex
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli import main

ROOT = Path(__file__).resolve().parents[1]
FILES = ("README.md", "puzzles/README.md")

#: (file, how the first line starts) of the plain blocks that show no command's output
NOT_EXAMPLES = {
    ("README.md", "python3 -m pip install . "): "the install-and-test commands (what CI runs)",
    ("README.md", "cli.py "): "the source layout",
    ("puzzles/README.md", "landlord solve puzzles/ "): "usage lines, no output shown",
}

#: (file, command) of the commands a test cannot run, with why
SKIPPED = {
    ("README.md", "head -1 results.jsonl"): (
        "results are written as the workers finish, so which line comes first varies"
    ),
}

#: The only run-to-run (and machine-to-machine) differences a README's output may show:
#: times, rates and the number of batch workers. Replaced alike in the README and the output.
VARIES = (
    (re.compile(r"\d[\d,]*(\.\d+)? (s|ms|µs)\b"), "<time>"),
    (re.compile(r"\d[\d,]*(\.\d+)? (items|deals|nodes)/s\b"), r"<rate> \2/s"),
    (re.compile(r"\b\d+ workers?\b"), "<n> workers"),
)
#: Printed on stderr by the first command of a fresh install only.
COMPILING = "landlord: compiling the solver (first run only, a few seconds)..."
ELLIPSIS = "..."  # a line of its own stands for any lines, inside a line for any text


@dataclass(frozen=True)
class Block:
    """A fenced block of a README: where it starts, its info string and its lines."""

    file: str
    line: int
    info: str
    lines: tuple[str, ...]

    @property
    def id(self) -> str:
        return f"{self.file}:{self.line}"

    @property
    def is_session(self) -> bool:
        return any(ln.startswith("$ ") for ln in self.lines)

    def commands(self) -> list[tuple[str, list[str]]]:
        """The session's commands, each with the output lines shown after it."""
        out: list[tuple[str, list[str]]] = []
        for ln in self.lines:
            if ln.startswith("$ "):
                out.append((ln[2:], []))
            else:
                assert out, f"{self.id}: output before the first command: {ln!r}"
                out[-1][1].append(ln)
        return out


def blocks(file: str) -> list[Block]:
    """Every fenced block of ``file`` (a path from the repository root)."""
    found, current, start, info = [], None, 0, ""
    for number, line in enumerate((ROOT / file).read_text().splitlines(), 1):
        if line.startswith("```"):
            if current is None:
                current, start, info = [], number, line[3:].strip()
            else:
                found.append(Block(file, start, info, tuple(current)))
                current = None
        elif current is not None:
            current.append(line)
    assert current is None, f"{file}: a block opened at line {start} is never closed"
    return found


ALL = [b for f in FILES for b in blocks(f)]


def normalised(text: str) -> str:
    """``text`` with what varies from run to run replaced by placeholders."""
    for pattern, placeholder in VARIES:
        text = pattern.sub(placeholder, text)
    return text


def shown(lines: list[str]) -> re.Pattern[str]:
    """A pattern for the output a README shows, ``...`` elisions included."""
    parts = []
    for line in lines:
        if line.strip() == ELLIPSIS:
            parts.append(r"(?:[^\n]*\n)*?")
        else:
            escaped = re.escape(normalised(line)).replace(re.escape(ELLIPSIS), "[^\n]*?")
            parts.append(escaped + r"\n")
    return re.compile("".join(parts))


def landlord(args: list[str], redirect: Path | None) -> str:
    """Run one ``landlord`` command in this process; what it shows on the terminal."""
    result = CliRunner().invoke(main, args)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    command = f"landlord {shlex.join(args)}"
    assert result.exit_code == 0, f"{command}: exit {result.exit_code}\n{result.output}"
    if redirect is None:
        return result.output
    redirect.write_bytes(result.stdout_bytes)
    return result.stderr


def run_line(command: str, folder: Path) -> str:
    """Run a session line: ``landlord`` commands, each with an optional ``> FILE``,
    joined by ``&&``. Other shell syntax is refused, so that the test says what it
    cannot run rather than run something else."""
    lexer = shlex.shlex(command, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    parts: list[list[str]] = [[]]
    for token in lexer:
        if token == "&&":
            parts.append([])
        else:
            parts[-1].append(token)
    output = []
    for words in parts:
        redirect = None
        if len(words) > 2 and words[-2] == ">":
            redirect, words = folder / words[-1], words[:-2]
        assert words[0] == "landlord" and not {"|", ">", ";", "&", "<"} & set(words), (
            f"cannot run {command!r} in a test: run it another way or list it in SKIPPED"
        )
        output.append(landlord(words[1:], redirect))
    text = "".join(output)
    return "".join(ln for ln in text.splitlines(keepends=True) if ln.rstrip("\n") != COMPILING)


@pytest.fixture
def folder(tmp_path, monkeypatch):
    """A scratch working folder holding a copy of the bundled puzzles."""
    shutil.copytree(ROOT / "puzzles", tmp_path / "puzzles")
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize("block", [b for b in ALL if b.is_session], ids=lambda b: b.id)
def test_session_prints_what_the_readme_shows(block, folder):
    checked = 0
    for command, lines in block.commands():
        if (block.file, command) in SKIPPED:
            continue
        got = normalised(run_line(command, folder))
        want = shown(lines)
        if not want.fullmatch(got):
            shows = "\n".join(lines)
            pytest.fail(f"{block.id}: `{command}` prints\n{got}where the README shows\n{shows}")
        checked += 1
    assert checked, f"{block.id}: every command is skipped"


@pytest.mark.parametrize("block", [b for b in ALL if b.info == "python"], ids=lambda b: b.id)
def test_python_example_gives_the_values_shown(block):
    code = "\n".join(block.lines)
    namespace: dict[str, object] = {}
    checked = 0
    for node in ast.parse(code).body:
        rest = block.lines[node.end_lineno - 1][node.end_col_offset :].strip()
        if isinstance(node, ast.Expr) and rest.startswith("#"):
            value = eval(compile(ast.Expression(node.value), block.id, "eval"), namespace)
            assert repr(value) == rest[1:].strip(), ast.get_source_segment(code, node)
            checked += 1
        else:
            exec(compile(ast.Module([node], []), block.id, "exec"), namespace)
    assert checked, f"{block.id}: no `expression  # value` line to check"


@pytest.mark.parametrize("block", [b for b in ALL if b.info == "toml"], ids=lambda b: b.id)
def test_puzzle_example_meets_its_expect(block, tmp_path):
    path = tmp_path / "example.toml"
    path.write_text("\n".join(block.lines) + "\n")
    result = CliRunner().invoke(main, ["solve", str(path)])
    assert result.exit_code == 0, result.output
    assert re.search(r"\b\d+ solved, 0 mismatched, 0 unknown, 0 errors", result.stderr)


def test_every_block_is_checked_or_listed():
    listed = set()
    for b in ALL:
        assert b.info in ("", "python", "toml"), f"{b.id}: a ```{b.info} block is never checked"
        if not b.info and not b.is_session:
            names = [k for k in NOT_EXAMPLES if k[0] == b.file and b.lines[0].startswith(k[1])]
            assert names, (
                f"{b.id}: a block without `$ landlord` commands: give it its commands or "
                "list it in NOT_EXAMPLES"
            )
            listed.update(names)
    # the lists name only what the READMEs still hold
    assert listed == set(NOT_EXAMPLES)
    commands = {(b.file, c) for b in ALL if b.is_session for c, _ in b.commands()}
    assert set(SKIPPED) <= commands
