"""The ``landlord`` command line: an exact Dou Dizhu solver.

numba-backed modules are imported inside the commands, so that ``--help`` is instant.
Exit codes: 0 success, 1 a handled failure (a wrong answer found by ``check``, a puzzle
whose expected answer differs), 2 bad usage or bad input, 3 an answer a limit left
unknown.
"""

from __future__ import annotations

import json
import os
import sys
from dataclasses import replace
from pathlib import Path
from typing import IO

import click

from solver.rules import BANNABLE


class InputError(click.ClickException):
    """Bad input: reported as one line, exit code 2."""

    exit_code = 2


def _compile_notice(*modules: str) -> None:
    """Say on stderr when the kernels are about to be compiled (first run only)."""
    from solver.jit import is_cached

    if not all(is_cached(m) for m in modules):
        click.echo("landlord: compiling the solver (first run only, a few seconds)...", err=True)


def _finite(ctx: click.Context, param: click.Parameter, value: float | None) -> float | None:
    """Refuse nan (which slips past range checks) for a numeric option."""
    if value is not None and value != value:
        raise click.BadParameter("must be a number", ctx, param)
    return value


def _searcher(max_memory: float, time_limit: float | None):  # noqa: ANN202
    """A searcher with a table of ``max_memory`` MB, or a clear error if it cannot be had."""
    from solver.search import Searcher

    try:
        return Searcher(max_memory, time_limit)
    except MemoryError:
        raise InputError(f"--max-memory {max_memory:g}: not enough memory for that table") from None


def _name(file: IO[bytes]) -> str:
    """How an input file is named in messages (stdin has no path)."""
    name = getattr(file, "name", "<stdin>")
    return name if isinstance(name, str) else "<stdin>"


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="landlord-solver")
def main() -> None:
    """Exact Dou Dizhu (Fight the Landlord) solver: springs and forced wins, all hands open."""


@main.command(short_help="Answer the contest problem (HDU 4032).")
@click.argument("file", type=click.File("rb"), default="-")
def judge(file: IO[bytes]) -> None:
    """Answer the contest problem (HDU 4032) for FILE (default: stdin).

    Prints `Case k: Yes` or `Case k: No` for every case. The file is read and answered a
    chunk of cases at a time, so memory stays flat however long it is; the cases before
    a malformed one are still answered.
    """
    from solver.contest import answer_lines, contest_chunks, open_input
    from solver.errors import LandlordError

    _compile_notice("spring")
    from solver.spring import solve_many

    try:
        for part in contest_chunks(open_input(file), _name(file)):
            sys.stdout.write(answer_lines(solve_many(part.hands), part.first + 1))
            if part.error:
                raise part.error
    except LandlordError as e:
        raise InputError(str(e)) from None


def _limits(f):  # noqa: ANN001, ANN202 (a Click decorator)
    """The rule options and search limits shared by the commands that search."""
    f = click.option(
        "--ban",
        multiple=True,
        type=click.Choice(BANNABLE),
        help="Ban a combination kind, on top of the puzzle's own bans (repeatable).",
    )(f)
    f = click.option(
        "--time-limit",
        type=click.FloatRange(min=0, min_open=True, max=1e9),
        callback=_finite,
        metavar="SECONDS",
        help="Stop a search after this long: the answer is then unknown (exit 3).",
    )(f)
    return click.option(
        "--max-memory",
        type=click.FloatRange(min=1, max=1 << 20),
        callback=_finite,
        default=64,
        show_default=True,
        metavar="MB",
        help="Size of the search's transposition table.",
    )(f)


@main.command(short_help="Solve puzzle files and folders.")
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="One JSON object per line per puzzle.")
@click.option(
    "--question",
    type=click.Choice(["spring", "win"]),
    help="Ask this question of every puzzle instead of its own.",
)
@click.option("--all-moves", is_flag=True, help="For win questions, list the winning first moves.")
@_limits
def solve(
    paths: tuple[Path, ...],
    as_json: bool,
    question: str | None,
    all_moves: bool,
    ban: tuple[str, ...],
    time_limit: float | None,
    max_memory: float,
) -> None:
    """Solve puzzle files (and folders of them) and print each answer with its line.

    Exits 1 when an answer differs from the one a puzzle expects, 2 when a file or
    puzzle is malformed (the others are still solved), 3 when a limit left some answer
    unknown.
    """
    from solver.errors import InputFileError, LandlordError
    from solver.puzzles import load_file, puzzle_files

    _compile_notice("spring", "search")
    from solver.api import Solver

    solver = Solver(max_memory, time_limit, all_moves)
    errors = mismatches = solved = unknown = 0
    files = list(puzzle_files(list(paths)))
    if not files:
        raise InputError(f"no puzzle file (*.toml) in {', '.join(map(str, paths))}")
    for path in files:
        for item in load_file(path):
            if isinstance(item, InputFileError):
                errors += 1
                click.echo(f"error: {item}", err=True)
                continue
            try:
                sol = solver.solve(replace(item, rules=item.rules.with_bans(ban)), question)
            except LandlordError as e:
                errors += 1
                click.echo(f"error: {item.where}: {e}", err=True)
                continue
            except MemoryError:
                raise InputError(f"--max-memory {max_memory:g}: not enough memory") from None
            solved += 1
            mismatches += sol.mismatch
            unknown += sol.answer is None
            click.echo(json.dumps(sol.as_json()) if as_json else sol.text())
    if not as_json:
        click.echo(
            f"{solved} solved, {mismatches} mismatched, {unknown} unknown, {errors} errors",
            err=True,
        )
    if errors:
        sys.exit(2)
    if mismatches:
        sys.exit(1)
    if unknown:
        sys.exit(3)


@main.command(short_help="Solve many deals and puzzles in parallel, to JSON lines.")
@click.argument("inputs", nargs=-1, required=True, metavar="INPUT...")
@click.option(
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write the JSON lines to this file (default: stdout).",
)
@click.option("--resume", is_flag=True, help="Skip the items already in --out; append the rest.")
@click.option(
    "--workers",
    type=click.IntRange(min=1, max=4096),
    help="Worker processes (default: one per core; 1 solves in this process).",
)
@click.option(
    "--scheduler",
    metavar="ADDRESS",
    help="Run on a Dask cluster instead (pip install 'landlord-solver[dask]').",
)
@click.option(
    "--question",
    type=click.Choice(["spring", "win"]),
    help="Ask this question of every puzzle instead of its own (contest cases are springs).",
)
@click.option("--all-moves", is_flag=True, help="For win questions, list the winning first moves.")
@click.option(
    "--progress/--no-progress",
    default=None,
    help="Show a progress bar on stderr (default: when stderr is a terminal and the "
    "results go elsewhere).",
)
@_limits
def batch(
    inputs: tuple[str, ...],
    out: Path | None,
    resume: bool,
    workers: int | None,
    scheduler: str | None,
    question: str | None,
    all_moves: bool,
    progress: bool | None,
    ban: tuple[str, ...],
    time_limit: float | None,
    max_memory: float,
) -> None:
    """Solve contest files, puzzle files and folders of them (or `landlord deal` output
    on stdin, as -), writing one JSON line per item as soon as it is solved: id,
    question, answer, line, seconds (or id and error for a bad item).

    An item's id is its source, named from the folder of --out, and its number there
    (deals.in#12, set.toml#3, <stdin>#5), so that --resume can finish an interrupted
    run, trying failed items again: every item ends up in the output exactly once. A
    summary goes to stderr at the end. Exits 2 when some item was bad (the
    others are still solved), 1 when an answer differs from a puzzle's expected one, 3
    when a limit left some answer unknown.
    """
    from solver import batch as b
    from solver.errors import LandlordError

    if resume and out is None:
        raise click.UsageError("--resume needs --out: the file to resume")
    if scheduler is not None and workers is not None:
        raise click.UsageError("--workers and --scheduler exclude each other")
    settings = b.Settings(question, ban, max_memory, time_limit, all_moves)
    real = out.resolve() if out else None  # a link's target: its folder names the files
    anchor = real.parent if real else Path.cwd()
    try:
        sources = b.read_sources(list(inputs), sys.stdin.buffer, anchor)
        if out:
            b.refuse_overwrite(out, sources)
        finished, retried = b.finished_items(real) if resume and real else ({}, 0)
        # appended to, and emptied only once the run has started (see b.run)
        target = open(real, "a", encoding="utf-8") if real else _stdout()
    except LandlordError as e:
        raise InputError(str(e)) from None
    except OSError as e:
        raise InputError(f"--out {out}: cannot write: {e.strerror or e}") from None
    if finished and not any(src.name in finished for src in sources):
        click.echo(
            f"warning: none of the results already in {out} are from these inputs (ids name "
            f"files from the folder of {out})",
            err=True,
        )
    piped = [src.name for src in sources if src.path is None]
    if finished and piped:
        click.echo(
            f"note: {', '.join(piped)} resumed by item number: the same data must come again",
            err=True,
        )
    plan = b.Plan(sources, settings, finished)
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    engine = b.Engine(settings, workers or cores or 1, scheduler)
    if progress is None:  # a bar only on a terminal, and not where the results go
        progress = sys.stderr.isatty() and not (out is None and sys.stdout.isatty())
    bar = b.Progress(plan.total, sys.stderr, progress)
    summary = b.Summary()
    _compile_notice("spring", "search")
    try:
        with target as f:
            b.run(plan, engine, f, bar, summary, fresh=real is not None and not resume)
    except KeyboardInterrupt:
        click.echo(summary.text(str(out)), err=True)
        click.echo("interrupted: the results above are written; rerun with --resume", err=True)
        sys.exit(130)
    except b.OutputError as e:
        if e.broken_pipe:  # the reader has gone (`| head`): stop quietly
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            sys.exit(1)
        raise click.ClickException(str(e)) from None
    except b.EngineError as e:
        raise click.ClickException(str(e)) from None
    except b.RunStopped as e:
        click.echo(summary.text(str(out)), err=True)
        message = f"{e}; the results above are written: rerun with --resume"
        raise click.ClickException(message) from None
    except LandlordError as e:
        raise InputError(str(e)) from None
    except MemoryError:
        raise InputError(f"--max-memory {max_memory:g}: not enough memory") from None
    click.echo(summary.text(str(out)), err=True)
    if retried:
        click.echo(f"  {b.plural(retried, 'item')} that failed before tried again", err=True)
    counts = summary.counts
    if counts["error"]:
        sys.exit(2)
    if counts["mismatch"]:
        sys.exit(1)
    if counts["unknown"]:
        sys.exit(3)


def _stdout() -> IO[str]:
    """Standard output for ``with``, left open afterwards."""
    import contextlib

    return contextlib.nullcontext(sys.stdout)  # type: ignore[return-value]


def _positions(target: str, bans: tuple[str, ...]) -> list[tuple[str, object]]:
    """(name, position) pairs from a puzzle file or folder, or one inline position."""
    from solver.endgame import parse_position
    from solver.errors import InputFileError, LandlordError
    from solver.puzzles import load_file, puzzle_files
    from solver.rules import CLASSIC

    path = Path(target)
    if not target.strip() or not path.exists():
        try:
            return [(target, parse_position(target, CLASSIC.with_bans(bans)))]
        except LandlordError as e:
            raise InputError(f"{e} (and no file {target!r} exists)") from None
    out = []
    for f in puzzle_files([path]):
        for item in load_file(f):
            if isinstance(item, InputFileError):
                raise InputError(str(item))
            try:
                out.append((item.name, replace(item, rules=item.rules.with_bans(bans)).position()))
            except LandlordError as e:
                raise InputError(f"{item.where}: {e}") from None
    if not out:
        raise InputError(f"{target}: no puzzle in it")
    return out


@main.command(short_help="Every first move with its outcome.")
@click.argument("target", metavar="POSITION-OR-FILE")
@click.option("--lines", is_flag=True, help="Show the line after each move (a refutation).")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per position.")
@_limits
def best(
    target: str,
    lines: bool,
    as_json: bool,
    ban: tuple[str, ...],
    time_limit: float | None,
    max_memory: float,
) -> None:
    """Print every first move of a position with its outcome: which plays still win?

    POSITION-OR-FILE is a puzzle file (or folder), or a position written as
    "L=2QQTT77553 P1=AA9 [P2=...] [TO=L|P1|P2] [TABLE=55@P1] [BAN=trio+single,...]".
    """
    _compile_notice("search")
    from solver.endgame import SHORT_NAMES, describe, side_wins, solve_win
    from solver.search import UNKNOWN

    positions = _positions(target, ban)
    searcher = _searcher(max_memory, time_limit)
    unknown = False
    for name, pos in positions:
        result = solve_win(searcher, pos, all_moves=True, lines=lines)
        mover = SHORT_NAMES[pos.to_move]
        moves = result.first_moves or []
        unknown |= result.value == UNKNOWN or any(v == UNKNOWN for _, v, _ in moves)

        if as_json:
            click.echo(
                json.dumps(
                    {
                        "name": name,
                        "position": describe(pos),
                        "answer": result.answer,
                        "moves": [
                            {
                                "move": s.text,
                                "wins": side_wins(v, pos.to_move),
                                "line": [str(x) for x in follow],
                            }
                            for s, v, follow in moves
                        ],
                        "nodes": searcher.stats.nodes,
                        "seconds": round(searcher.stats.seconds, 6),
                    }
                )
            )
            continue
        wins = sum(side_wins(v, pos.to_move) is True for _, v, _ in moves)
        open_moves = sum(v == UNKNOWN for _, v, _ in moves)
        click.echo(describe(pos) if name == target else f"{name}: {describe(pos)}")
        click.echo(
            f"  {mover} to move {_verdict(result.value, pos.to_move)}: {wins} of {len(moves)} "
            f"first move{'s' * (len(moves) != 1)} win"
            + (f" ({open_moves} unknown: a limit stopped the search)" if open_moves else "")
        )
        width = max((len(s.text) for s, _, _ in moves), default=4)
        for step, v, follow in moves:
            text = f"  {step.text:<{width}}  {_verdict(v, pos.to_move)}"
            if lines and follow:
                text += "   " + "  ".join(str(x) for x in follow)
            click.echo(text)
    if unknown:
        sys.exit(3)


def _verdict(value: int, player: int) -> str:
    """An outcome from ``player``'s side: wins, loses or unknown."""
    from solver.endgame import side_wins

    return {True: "wins", False: "loses", None: "unknown"}[side_wins(value, player)]


@main.command(short_help="Play a puzzle against the solver.")
@click.argument("file", type=click.Path(exists=True, path_type=Path))
@click.option("--puzzle", "name", help="The puzzle's name (default: the file's first).")
@click.option(
    "--as",
    "side",
    type=click.Choice(["landlord", "peasants"]),
    help="The side you play (default: the side to move).",
)
@_limits
def play(
    file: Path,
    name: str | None,
    side: str | None,
    ban: tuple[str, ...],
    time_limit: float | None,
    max_memory: float,
) -> None:
    """Play a puzzle in the terminal against the solver, which answers every move
    perfectly and tells you when a move throws away a won position.

    Type cards (as 33 or 3-3), `pass`, `hint` for the winning moves, or `quit`. A
    --time-limit applies to each of the solver's answers.
    """
    from solver.cards import format_hand
    from solver.endgame import SHORT_NAMES, keeping_move
    from solver.errors import InputFileError, LandlordError
    from solver.puzzles import load_file
    from solver.search import LOSS, UNKNOWN, WIN

    items = load_file(file)
    chosen = [p for p in items if not isinstance(p, InputFileError) and name in (None, p.name)]
    if not chosen:
        errors = [str(p) for p in items if isinstance(p, InputFileError)]
        raise InputError(errors[0] if errors else f"{file}: no puzzle named {name!r}")
    puzzle = chosen[0]
    try:
        pos = replace(puzzle, rules=puzzle.rules.with_bans(ban)).position()
    except LandlordError as e:
        raise InputError(f"{puzzle.where}: {e}") from None
    _compile_notice("search")
    searcher = _searcher(max_memory, time_limit)
    mine = (
        {"landlord": WIN, "peasants": LOSS}[side] if side else (WIN if pos.to_move == 0 else LOSS)
    )
    you = "the landlord" if mine == WIN else "the peasants"
    click.echo(f"{puzzle.name}: you play {you}.")
    stopped = "(the time limit stopped the search: no proof)"
    while pos.winner is None:
        hands = "  ".join(f"{SHORT_NAMES[i]}: {format_hand(h)}" for i, h in enumerate(pos.hands))
        table = f"  table: {pos.table} by {SHORT_NAMES[pos.owner]}" if pos.table else ""
        click.echo(f"{hands}{table}")
        searcher.start(pos.rules)  # the time limit counts afresh for every answer
        options = searcher.moves(pos)
        if (pos.to_move == 0) != (mine == WIN):  # the solver's turn: a move that keeps a win
            move, unknown = keeping_move(searcher, pos)
            note = f"  {stopped}" if unknown else ""
            click.echo(f"{SHORT_NAMES[pos.to_move]} plays {'pass' if move is None else move}{note}")
            pos = pos.after(move)
            continue
        try:
            text = click.prompt(
                f"{SHORT_NAMES[pos.to_move]} to move", default="", show_default=False
            )
        except click.Abort:  # end of input: as good as quit
            return
        text = text.strip().lower()
        if text == "quit":
            return
        if text == "hint":
            values = [searcher.value(pos.after(m)) for m in options]
            good = [m for m, v in zip(options, values, strict=True) if v == mine]
            click.echo(
                "winning moves: "
                + (", ".join("pass" if m is None else str(m) for m in good) or "none")
                + (f"  {stopped}" if UNKNOWN in values else "")
            )
            continue
        move = _pick_move(text, options, pos)
        if move is False:
            continue
        value = searcher.value(pos)
        after = searcher.value(pos.after(move))
        if value == mine and after != mine and after != UNKNOWN:
            click.echo("That throws away a won position.")
        pos = pos.after(move)
    click.echo("You win." if pos.winner == mine else "You lose.")


def _pick_move(text, options, pos):  # noqa: ANN001, ANN202 (solver types, imported lazily)
    """The legal move a player typed, or False (after saying why) when there is none."""
    from solver.cards import parse_hand
    from solver.errors import LandlordError
    from solver.movegen import readings

    if text == "pass":
        if None in options:
            return None
        click.echo("You cannot pass on a free lead.")
        return False
    try:
        cards = parse_hand(text)
    except LandlordError as e:
        click.echo(str(e))
        return False
    for m in options:
        if m is not None and m.cards == cards:
            return m
    legal = readings(cards, pos.rules)
    click.echo(
        "Not a legal combination."
        if not legal
        else "You do not hold those cards."
        if any(c > h for c, h in zip(cards, pos.hands[pos.to_move], strict=True))
        else "That does not beat the table."
    )
    return False


@main.command(short_help="List the legal plays of a hand.")
@click.argument("hand")
@click.option("--beat", metavar="PLAY", help="Only the plays that beat PLAY.")
@click.option("--ban", multiple=True, type=click.Choice(BANNABLE), help="Ban a kind (repeatable).")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list.")
def moves(hand: str, beat: str | None, ban: tuple[str, ...], as_json: bool) -> None:
    """List the legal plays from HAND (on a free lead, or answering --beat PLAY)."""
    from solver.cards import check_disjoint, check_hand, format_hand, parse_hand
    from solver.errors import LandlordError
    from solver.movegen import follows, leads, readings
    from solver.rules import CLASSIC

    rules = CLASSIC.with_bans(ban)
    try:
        cards = parse_hand(hand)
        check_hand(cards, rules.deck, hand)
        if beat is None:
            plays = leads(cards, rules)
        else:
            table_cards = parse_hand(beat)
            check_hand(table_cards, rules.deck, beat)
            check_disjoint((cards, table_cards), rules.deck)
            found = readings(table_cards, rules)
            if not found:
                raise InputError(
                    f"--beat {beat!r}: {format_hand(table_cards)!r} is not a legal combination"
                )
            plays = []
            for table in found:
                plays += [m for m in follows(cards, table, rules) if m not in plays]
    except LandlordError as e:
        raise InputError(str(e)) from None
    if as_json:
        click.echo(json.dumps([m.as_dict() for m in plays]))
        return
    width = max((len(str(m)) for m in plays), default=5)
    for m in plays:
        d = m.as_dict()
        click.echo(f"{d['cards']:<{width}}  {d['kind']:<13}  {d['rank']}")
    click.echo(f"{len(plays)} play{'s' * (len(plays) != 1)}", err=True)


@main.command(short_help="Print random deals from a seed.")
@click.option("--seed", type=int, required=True, help="The seed that names the deals.")
@click.option(
    "-n", "count", type=click.IntRange(min=0), default=1, show_default=True, help="How many deals."
)
@click.option(
    "--strength",
    type=click.FloatRange(min=0, max=10),
    callback=_finite,
    default=0.0,
    show_default=True,
    help="Lean the landlord's hand to high cards (0.3 gives about half springs).",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["contest", "toml"]),
    default="contest",
    show_default=True,
    help="Contest input, or a puzzle file.",
)
def deal(seed: int, count: int, strength: float, fmt: str) -> None:
    """Print random deals, reproducible from the seed (and strength)."""
    from solver.cards import format_hand
    from solver.deals import random_deals

    deals = random_deals(seed, count, strength)
    if fmt == "contest":
        out = [str(count)] + [format_hand(h) for d in deals for h in d]
        sys.stdout.write("\n".join(out) + "\n")
        return
    from solver.puzzles import Puzzle, to_toml
    from solver.rules import CLASSIC

    puzzles = [
        Puzzle(f"seed {seed} deal {k}", "spring", d[0], d[1:], CLASSIC)
        for k, d in enumerate(deals, 1)
    ]
    sys.stdout.write(to_toml(puzzles))


def _count(*decls: str, default: int, least: int, text: str):  # noqa: ANN202 (a decorator)
    """A bounded count option that shows its default."""
    kind = click.IntRange(min=least, max=10_000_000)
    return click.option(*decls, type=kind, default=default, show_default=True, help=text)


@main.command(short_help="Run the standard benchmark suite.")
@_count("--deals", default=20_000, least=1, text="Deals in each spring set.")
@_count("--random", "positions", default=5, least=0, text="Positions in each random endgame set.")
@click.option(
    "--time-limit",
    type=click.FloatRange(min=0, min_open=True, max=1e9),
    callback=_finite,
    default=60,
    show_default=True,
    metavar="SECONDS",
    help="Stop a random endgame after this long (its answer is then unknown).",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead.")
def bench(deals: int, positions: int, time_limit: float, as_json: bool) -> None:
    """Run the standard benchmark suite on one core: the bench list (its total node count
    is the bench signature), fixed-seed spring deal sets and random endgames. Prints
    per-case times and throughput."""
    import statistics

    _compile_notice("spring", "search")
    from solver import bench as suite

    searcher = _searcher(64, None)
    limited = _searcher(64, time_limit)
    suite.warm(searcher)
    suite.warm(limited)
    listed = list(suite.positions_suite(searcher))
    spring = list(suite.deals_suite(deals))
    endgames = list(suite.random_suite(limited, positions))
    rows = listed + spring + endgames
    signature = sum(r.nodes for r in listed)
    searched = listed + endgames
    nodes_per_s = sum(r.nodes for r in searched) / max(sum(r.seconds for r in searched), 1e-9)
    medians = {
        name: statistics.median(r.seconds for r in endgames if r.suite == name)
        for name, *_ in suite.POSITION_SETS
        if positions
    }
    if as_json:
        summary = {
            "rows": [r.as_json() for r in rows],
            "signature": signature,
            "nodes_per_second": round(nodes_per_s),
            "deals_per_second": {r.case: round(r.items / r.seconds) for r in spring},
            "median_seconds": {k: round(v, 6) for k, v in medians.items()},
        }
        click.echo(json.dumps(summary))
        return
    width = max(len(r.case) for r in rows)
    click.echo(f"{'suite':<13} {'case':<{width}}  {'answer':<9} {'nodes':>11} {'seconds':>9}")
    for r in rows:
        extra = f"  {r.items / r.seconds:>11,.0f} deals/s" if r.suite == "spring" else ""
        nodes = f"{r.nodes:,}" if r.nodes else "-"
        click.echo(
            f"{r.suite:<13} {r.case:<{width}}  {r.answer:<9} {nodes:>11} {r.seconds:>9.3f}{extra}"
        )
    click.echo(f"bench signature: {signature:,} nodes ({len(listed)} positions)")
    click.echo(f"search speed: {nodes_per_s:,.0f} nodes/s")
    for name, median in medians.items():
        click.echo(f"random {name} endgames: median {median:.3f} s")


@main.command(short_help="Check a contestant's output.")
@click.argument("input_file", metavar="INPUT", type=click.File("rb"))
@click.argument("output_file", metavar="OUTPUT", type=click.File("rb"))
def check(input_file: IO[bytes], output_file: IO[bytes]) -> None:
    """Check a contestant's OUTPUT for the contest INPUT, case by case.

    Lists the first cases that differ and exits 0 only when every case matches.
    """
    import numpy as np

    from solver.contest import compare_output, contest_chunks, open_input
    from solver.errors import LandlordError

    try:
        text = output_file.read().decode("utf-8")
    except UnicodeDecodeError:
        raise InputError(f"{_name(output_file)}: not a UTF-8 text file") from None
    _compile_notice("spring")
    from solver.spring import solve_many

    answers = []
    try:
        for part in contest_chunks(open_input(input_file), _name(input_file)):
            if part.error:
                raise part.error
            answers.append(solve_many(part.hands))
    except LandlordError as e:
        raise InputError(str(e)) from None
    expected = np.concatenate(answers)
    problems = compare_output(expected, text, _name(output_file))
    for p in problems:
        click.echo(p)
    if problems:
        raise click.ClickException(
            f"{_name(output_file)}: wrong answer ({len(problems)} "
            f"difference{'s' * (len(problems) != 1)} listed)"
        )
    click.echo(f"{_name(output_file)}: all {len(expected)} cases right")


@main.command(short_help="Validate a contest input file.")
@click.argument("input_file", metavar="INPUT", type=click.File("rb"))
def validate(input_file: IO[bytes]) -> None:
    """Validate a contest INPUT file strictly (complete 20/17/17 deals, nothing else)."""
    from solver.contest import open_input
    from solver.contest import validate as check_input
    from solver.errors import LandlordError

    try:
        click.echo(check_input(open_input(input_file), _name(input_file)))
    except LandlordError as e:
        raise InputError(str(e)) from None


if __name__ == "__main__":
    main()
