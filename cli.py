"""The ``landlord`` command line: an exact Dou Dizhu solver.

numba-backed modules are imported inside the commands, so that ``--help`` is instant.
Exit codes: 0 success, 1 a handled failure (a wrong answer found by ``check``, a puzzle
whose expected answer differs, an output that cannot be written), 2 bad usage or bad
input, 3 an answer a limit left unknown, 130 Ctrl-C. :class:`App` is the one place that
turns exceptions into these.
"""

from __future__ import annotations

import json
import os
import sys
from functools import partial
from pathlib import Path
from typing import IO, Any

import click

from solver.errors import LandlordError, OperationalError, OutputError
from solver.rules import BANNABLE, QUESTIONS


class InputError(click.ClickException):
    """Bad input: reported as one line, exit code 2."""

    exit_code = 2


def _silence_stdout() -> None:
    """Send what is left of standard output nowhere, so that the interpreter's last flush
    cannot fail again once a write has (a closed pipe, a full disk)."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # not a real file (as under a test runner)
        pass


def _bad_item(message: str, as_json: bool, **where: str) -> None:
    """Report an item that could not be answered: a line on stderr and, under --json, a
    record in the stream in its place, so that a script reading it sees every item."""
    click.echo(f"error: {message}", err=True)
    if as_json:
        click.echo(json.dumps({**where, "error": message}))


class App(click.Group):
    """The command group, mapping every exception a command lets out to one line and an
    exit code: bad input 2, an operational failure 1, Ctrl-C 130."""

    def main(self, *args: Any, **kwargs: Any) -> Any:
        if sys.stdin is None:  # started with standard input closed: read it as empty
            sys.stdin = open(os.devnull)  # noqa: SIM115 (for the whole process)
        try:
            return super().main(*args, **kwargs)
        except OSError as e:  # writing the group's own --help or --version
            _silence_stdout()
            click.echo(f"Error: cannot write the output: {e.strerror or e}", err=True)
            sys.exit(1)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            result = super().invoke(ctx)
            sys.stdout.flush()  # a full disk shows here, not at the interpreter's exit
            return result
        except LandlordError as e:
            raise InputError(str(e)) from None
        except OutputError as e:
            if e.broken_pipe:  # the reader has gone (`| head`): stop quietly
                _silence_stdout()
                raise click.exceptions.Exit(1) from None
            raise click.ClickException(str(e)) from None
        except OperationalError as e:
            raise click.ClickException(str(e)) from None
        except KeyboardInterrupt:
            click.echo("interrupted", err=True)
            raise click.exceptions.Exit(130) from None
        except BrokenPipeError:
            _silence_stdout()
            raise click.exceptions.Exit(1) from None
        except OSError as e:  # what the commands leave unhandled: writing the output
            _silence_stdout()
            where = e.filename or "the output"
            raise click.ClickException(f"cannot write {where}: {e.strerror or e}") from None


def _compile_notice(*modules: str) -> None:
    """Say on stderr when the kernels of ``modules`` are about to be compiled: on the
    first run, or on every run when their cache cannot be written."""
    from solver.jit import CACHE_PROBLEM, is_cached

    if CACHE_PROBLEM is not None:
        click.echo(f"landlord: {CACHE_PROBLEM}; compiling in memory (a few seconds)...", err=True)
    elif not all(is_cached(m) for m in modules):
        click.echo("landlord: compiling the solver (first run only, a few seconds)...", err=True)


def _finite(ctx: click.Context, param: click.Parameter, value: float | None) -> float | None:
    """Refuse nan (which slips past range checks) for a numeric option."""
    if value is not None and value != value:
        raise click.BadParameter("must be a number", ctx, param)
    return value


def _no_memory(max_memory: float) -> InputError:
    """The error of a table that does not fit in memory, its size in plain digits."""
    return InputError(f"--max-memory {max_memory:.15g}: not enough memory")


def _searcher(max_memory: float, time_limit: float | None):  # noqa: ANN202
    """A searcher with a table of ``max_memory`` MB, its kernels loaded so that no
    answer's time includes it, or a clear error if the table cannot be had."""
    from solver.endgame import load_search
    from solver.search import Searcher

    try:
        searcher = Searcher(max_memory, time_limit)
    except MemoryError:
        raise _no_memory(max_memory) from None
    load_search(searcher)
    return searcher


def _name(file: IO[bytes]) -> str:
    """How an input file is named in messages (stdin has no path)."""
    name = getattr(file, "name", "<stdin>")
    return name if isinstance(name, str) else "<stdin>"


def _game(ctx: click.Context, param: click.Parameter, value: str) -> Any:
    from solver.rules import rule_set

    return rule_set(value)


def _rules(f):  # noqa: ANN001, ANN202 (a Click decorator)
    """--rules: the game of the hands given on the command line and in contest and deal
    files (a puzzle names its own with the key ``rules``)."""
    return click.option(
        "--rules",
        "rules",
        type=click.Choice(["classic", "four-player"]),
        default="classic",
        show_default=True,
        callback=_game,
        help="The game: classic (three players, one deck) or four-player (two decks). A "
        "puzzle or deal with a rules key, or a position with RULES=, plays its own.",
    )(f)


@click.group(cls=App, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="landlord-solver")
def main() -> None:
    """Exact Dou Dizhu (Fight the Landlord) solver: springs and forced wins, all hands open."""


@main.command(short_help="Answer the contest problem (HDU 4032).")
@click.argument("file", type=click.File("rb"), default="-")
@_rules
def judge(file: IO[bytes], rules: Any) -> None:
    """Answer the contest problem (HDU 4032) for FILE (default: stdin).

    Prints `Case k: Yes` or `Case k: No` for every case. The file is read and answered a
    chunk of cases at a time, so memory stays flat however long it is; the cases before
    a malformed one are still answered.
    """
    from solver.contest import answer_lines, contest_chunks

    _compile_notice("contest", "spring")
    from solver.spring import solve_many

    for part in contest_chunks(file, _name(file), rules):
        sys.stdout.write(answer_lines(solve_many(part.hands, rules), part.first + 1))
        if part.error:
            raise part.error


def _limits(f):  # noqa: ANN001, ANN202 (a Click decorator)
    """The rule options and search limits shared by the commands that search."""
    f = click.option(
        "--ban",
        multiple=True,
        type=click.Choice(BANNABLE),
        help="Ban a combination kind, on top of the puzzle's own bans (repeatable).",
    )(f)
    return _search_limits(f)


def _all_moves(f):  # noqa: ANN001, ANN202 (a Click decorator)
    return click.option(
        "--all-moves",
        is_flag=True,
        help="For win questions, list the winning first moves; for stake questions, every "
        "first move's value.",
    )(f)


def _bid(f, default: str = "each puzzle's own, else 1"):  # noqa: ANN001, ANN202 (a decorator)
    return click.option(
        "--bid",
        type=click.Choice(["1", "2", "3"]),
        callback=lambda ctx, param, value: None if value is None else int(value),
        help=f"The bid stakes are counted at (default: {default}).",
    )(f)


def _search_limits(f):  # noqa: ANN001, ANN202 (a Click decorator)
    """--time-limit (of each search) and --max-memory (of each table)."""
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
        default=256,
        show_default=True,
        metavar="MB",
        help="The most memory the search's transposition table takes: a search starts "
        "with 64 MB of it (or all of it, if less) and doubles what it uses as it outgrows "
        "it. A position of 36 cards or more adds a proof-number table of half the start.",
    )(f)


@main.command(short_help="Solve puzzle files and folders.")
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="One JSON object per line per puzzle.")
@click.option(
    "--question",
    type=click.Choice(QUESTIONS),
    help="Ask this question of every puzzle instead of its own (spring asks it of the "
    "hands alone, from the landlord's lead: a puzzle's table, to_move and history are set "
    "aside).",
)
@_all_moves
@_bid
@_limits
def solve(
    paths: tuple[Path, ...],
    as_json: bool,
    question: str | None,
    all_moves: bool,
    bid: int | None,
    ban: tuple[str, ...],
    time_limit: float | None,
    max_memory: float,
) -> None:
    """Solve puzzle files (and folders of them) and print each answer with its line.

    Exits 1 when an answer differs from the one a puzzle expects, 2 when a file or
    puzzle is malformed (the others are still solved), 3 when a limit left some answer
    unknown.
    """
    from solver.errors import InputFileError
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
                _bad_item(str(item), as_json, file=str(path))
                continue
            try:
                sol = solver.solve(item.asked(question, ban, bid))
            except LandlordError as e:
                errors += 1
                _bad_item(f"{item.where}: {e}", as_json, name=item.name, file=item.file)
                continue
            except MemoryError:
                raise _no_memory(max_memory) from None
            solved += 1
            mismatches += sol.mismatch
            unknown += not sol.settled
            click.echo(json.dumps(sol.as_json()) if as_json else sol.text())
    if not as_json:
        click.echo(
            f"{solved} solved, {mismatches} mismatched, {unknown} unknown, "
            f"{errors} error{'s' * (errors != 1)}",
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
    "--retry-unknown",
    is_flag=True,
    help="With --resume, solve again the items a limit left unknown (under this run's limits).",
)
@click.option(
    "--workers",
    type=click.IntRange(min=1, max=4096),
    help="Worker processes (default and most: one per usable core, and no more than "
    "the tasks; 1 solves in this process).",
)
@click.option(
    "--scheduler",
    metavar="ADDRESS",
    help="Run on a Dask cluster instead (pip install 'landlord-solver[dask]').",
)
@click.option(
    "--question",
    type=click.Choice(QUESTIONS),
    help="Ask this question of every puzzle instead of its own (spring, of the hands alone; "
    "contest cases are springs; "
    "deal files always get their double-dummy table, with stake each seat's value too).",
)
@_all_moves
@partial(_bid, default="each puzzle's own, else 1; deals have stakes only with --question stake")
@click.option(
    "--progress/--no-progress",
    default=None,
    help="Show a progress bar on stderr (default: when stderr is a terminal and the "
    "results go elsewhere).",
)
@_rules
@_limits
def batch(
    inputs: tuple[str, ...],
    out: Path | None,
    resume: bool,
    retry_unknown: bool,
    workers: int | None,
    scheduler: str | None,
    question: str | None,
    all_moves: bool,
    bid: int | None,
    progress: bool | None,
    rules: Any,
    ban: tuple[str, ...],
    time_limit: float | None,
    max_memory: float,
) -> None:
    """Solve contest files, puzzle files, deal files and folders of them (or `landlord
    deal` output on stdin, as -), writing one JSON line per item as soon as it is
    solved: id, question, answer, line, seconds; for a deal of a [[deal]] file, id and
    what `landlord analyze --json` prints (name, deal, seats); id and error for a bad
    item.

    An item's id is its source, named from the folder of --out, and its number there
    (deals.in#12, set.toml#3, open.toml#2, <stdin>#5), so that --resume can finish an
    interrupted run, trying failed items again (and those whose line was cut off or
    answers another question than this run asks) and dropping repeated lines: every
    item ends up in the output exactly once. Answers a limit left unknown are kept, and
    counted (exit 3), unless --retry-unknown. A run holds --out (a lock) as long as it lasts,
    so a second run on the same file is refused; a device or a pipe as --out is just
    written to. --workers is capped to the cores this process may use and to the run's
    tasks (a note says so when it cuts a request).

    A summary goes to stderr at the end. Exits 2 when some item was bad (the others are
    still solved), 1 when an answer differs from a puzzle's expected one or when --out
    is held by another run, 3 when a limit left some answer (or a deal's seat) unknown,
    in this run or in the results it resumed.
    """
    import contextlib

    from solver import batch as b
    from solver.engines import Engine, pool_size
    from solver.errors import RunStopped
    from solver.progress import Progress, Summary, plural
    from solver.resume import Resumed, finished_items, open_output
    from solver.sources import read_sources, refuse_overwrite

    if resume and out is None:
        raise click.UsageError("--resume needs --out: the file to resume")
    if retry_unknown and not resume:
        raise click.UsageError("--retry-unknown goes with --resume")
    if scheduler is not None and workers is not None:
        raise click.UsageError("--workers and --scheduler exclude each other")
    settings = b.Settings(question, ban, max_memory, time_limit, all_moves, bid, rules.name)
    real = out.resolve() if out else None  # a link's target: its folder names the files
    anchor = real.parent if real else Path.cwd()
    sources = read_sources(list(inputs), sys.stdin.buffer, anchor, rules, out)
    if out:
        refuse_overwrite(out, sources)
    # locked before it is read or emptied; emptied only once the run has started (b.run)
    target = open_output(real, str(out)) if real else contextlib.nullcontext(sys.stdout.buffer)
    with target as file:
        resumed = Resumed()
        if resume and real:
            asked = b.asked_questions(sources, settings)
            resumed = finished_items(file, real, asked, retry_unknown)
        finished = resumed.finished
        if finished and not any(src.name in finished for src in sources):
            click.echo(
                f"warning: none of the results already in {out} are from these inputs (ids "
                f"name files from the folder of {out})",
                err=True,
            )
        piped = [src.name for src in sources if src.path is None]
        if finished and piped:
            click.echo(
                f"note: {', '.join(piped)} resumed by item number: the same data must come again",
                err=True,
            )
        plan = b.Plan(sources, settings, finished)
        size = 1
        if scheduler is None:
            size, note = pool_size(workers, plan.max_tasks())
            if note:
                click.echo(note, err=True)
        engine = Engine(size, scheduler)
        if progress is None:  # a bar only on a terminal, and not where the results go
            progress = sys.stderr.isatty() and not (out is None and sys.stdout.isatty())
        bar = Progress(plan.total, sys.stderr, progress)
        summary = Summary()
        _compile_notice(*(("spring", "search") if plan.needs_search() else ("spring",)))
        try:
            b.run(plan, engine, file, bar, summary, fresh=real is not None and not resume)
        except KeyboardInterrupt:
            click.echo(summary.text(str(out)), err=True)
            click.echo("interrupted: the results above are written; rerun with --resume", err=True)
            sys.exit(130)
        except RunStopped as e:
            click.echo(summary.text(str(out)), err=True)
            message = f"{e}; the results above are written: rerun with --resume"
            raise click.ClickException(message) from None
        except MemoryError:
            raise _no_memory(max_memory) from None
    click.echo(summary.text(str(out)), err=True)
    if resumed.errors:
        click.echo(f"  {plural(resumed.errors, 'item')} that failed before tried again", err=True)
    if resumed.duplicates:
        click.echo(
            f"  {plural(resumed.duplicates, 'duplicate line')} removed (the first of each id kept)",
            err=True,
        )
    if resumed.broken:
        lines = plural(resumed.broken, "broken line")
        click.echo(f"  {lines} (no whole result) removed, their items tried again", err=True)
    if resumed.changed:
        lines = plural(resumed.changed, "line")
        click.echo(
            f"  {lines} answering another question removed, their items asked again", err=True
        )
    if resumed.unknown and retry_unknown:
        click.echo(
            f"  {plural(resumed.unknown, 'item')} left unknown before solved again", err=True
        )
    elif resumed.unknown:
        click.echo(
            f"  {plural(resumed.unknown, 'result')} already in {out} left unknown by a limit "
            "(kept: --retry-unknown solves them again)",
            err=True,
        )
    counts = summary.counts
    if counts["error"]:
        sys.exit(2)
    if counts["mismatch"]:
        sys.exit(1)
    if counts["unknown"] or counts["seat_unknown"] or resumed.unknown and not retry_unknown:
        sys.exit(3)


def _positions(target: str, rules: Any, bans: tuple[str, ...], bid: int | None = None) -> list[Any]:
    """(name, position, history, bid) for a puzzle file or folder's puzzles, or for one
    inline position (of the game ``rules``); a bad puzzle of a file is its error in its
    place, so that the others are still answered."""
    from solver.endgame import parse_staked
    from solver.errors import InputFileError
    from solver.puzzles import load_file, puzzle_files

    path = Path(target)
    if not target.strip() or not path.exists():
        try:
            pos, history = parse_staked(target, rules.with_bans(bans))
        except LandlordError as e:
            raise InputError(
                str(e) if "=" in target else f"{e} (and no file {target!r} exists)"
            ) from None
        return [(target, pos, history, bid or 1)]
    out: list[Any] = []
    for f in puzzle_files([path]):
        for item in load_file(f):
            if isinstance(item, InputFileError):
                out.append(item)
                continue
            try:
                puzzle = item.asked(bans=bans, bid=bid)
                out.append((item.name, puzzle.position(), puzzle.history, puzzle.bid))
            except LandlordError as e:
                out.append(InputFileError(f"{item.where}: {e}"))
    if not out:
        raise InputError(f"{target}: no puzzle in it")
    if len(out) == 1 and isinstance(out[0], InputFileError):
        raise InputError(str(out[0]))
    return out


@main.command(short_help="Every first move with its outcome.")
@click.argument("target", metavar="POSITION-OR-FILE")
@click.option("--lines", is_flag=True, help="Show the line after each move (a refutation).")
@click.option("--stake", is_flag=True, help="Each first move's value (the stake question) instead.")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per position.")
@_bid
@_rules
@_limits
def best(
    target: str,
    lines: bool,
    stake: bool,
    as_json: bool,
    bid: int | None,
    rules: Any,
    ban: tuple[str, ...],
    time_limit: float | None,
    max_memory: float,
) -> None:
    """Print every first move of a position with its outcome: which plays still win?
    With --stake, what each play is worth with best play after it.

    POSITION-OR-FILE is a puzzle file (or folder), or a position written as
    "L=2QQTT77553 P1=AA9 [P2=... [P3=...]] [TO=L|P1|P2|P3] [TABLE=55@P1] [BAN=trio+single,...]
    [BOMBS=n PEASANTS_PLAYED=yes|no LANDLORD_PLAYS=n]": the history, for stakes, as the
    puzzle key history (by default, the least the position implies).
    """
    _compile_notice("search")
    from solver.endgame import SHORT_NAMES, best_record, describe, side_wins, solve_win
    from solver.scoring import line_stake
    from solver.search import UNKNOWN

    positions = _positions(target, rules, ban, bid)
    searcher = _searcher(max_memory, time_limit)
    unknown = errors = False
    for item in positions:
        if isinstance(item, LandlordError):
            _bad_item(str(item), as_json)
            errors = True
            continue
        name, pos, history, points = item
        if stake:
            unknown |= _best_stake(searcher, name, target, pos, history, points, lines, as_json)
            continue
        result = solve_win(searcher, pos, all_moves=True, lines=lines)
        moves = result.first_moves or []
        unknown |= result.value == UNKNOWN or any(v == UNKNOWN for _, v, _ in moves)
        if as_json:
            click.echo(json.dumps(best_record(name, pos, result, history, points)))
            continue
        wins = sum(side_wins(v, pos.to_move) is True for _, v, _ in moves)
        open_moves = sum(v == UNKNOWN for _, v, _ in moves)
        click.echo(describe(pos) if name == target else f"{name}: {describe(pos)}")
        click.echo(
            f"  {SHORT_NAMES[pos.to_move]} to move {_verdict(result.value, pos.to_move)}: "
            f"{wins} of {len(moves)} first move{'s' * (len(moves) != 1)} "
            f"win{'s' * (wins == 1 or len(moves) == 1)}"
            + (f" ({open_moves} unknown: a limit stopped the search)" if open_moves else "")
        )
        width = max((len(s.text) for s, _, _ in moves), default=4)
        for step, v, follow in moves:
            text = f"  {step.text:<{width}}  {_verdict(v, pos.to_move)}"
            if lines:
                if follow:
                    text += "   " + "  ".join(str(x) for x in follow)
                line = line_stake([step, *follow], pos.hands, history, points, pos.rules)
                if line is not None:
                    text += f"  stake {line}"
            click.echo(text)
    if errors:
        sys.exit(2)
    if unknown:
        sys.exit(3)


def _best_stake(
    searcher: Any,
    name: str,
    target: str,
    pos: Any,
    history: Any,
    bid: int,
    lines: bool,
    as_json: bool,
) -> bool:
    """``best --stake`` for one position; whether some value is unknown."""
    from solver.endgame import SHORT_NAMES, describe
    from solver.stake import score_value, solve_stake, stake_record

    result = solve_stake(searcher, pos, history, bid, all_moves=True, lines=lines)
    moves = result.first_moves or []
    unknown = result.value is None or any(s is None for _, s, _ in moves)
    if as_json:
        click.echo(json.dumps(stake_record(name, pos, history, result)))
        return unknown
    value = "unknown" if result.value is None else f"{result.value:+d}"
    keep = sum(s == result.score for _, s, _ in moves) if result.score is not None else 0
    open_moves = sum(s is None for _, s, _ in moves)
    shown = f"{describe(pos)} {history.notation}"
    click.echo(shown if name == target else f"{name}: {shown}")
    click.echo(
        f"  {SHORT_NAMES[pos.to_move]} to move: worth {value} to the landlord"
        + (f" ({result.points:+d} points at a bid of {bid})" if result.points and bid != 1 else "")
        + f"; {keep} of {len(moves)} first move{'s' * (len(moves) != 1)} keep{'s' * (keep == 1)} it"
        + (f" ({open_moves} unknown: a limit stopped the search)" if open_moves else "")
    )
    width = max((len(s.text) for s, _, _ in moves), default=4)
    for step, s, follow in moves:
        shown = "unknown" if s is None else f"{score_value(s):+d}"
        text = f"  {step.text:<{width}}  {shown:>7}"
        if lines and follow:
            text += "   " + "  ".join(str(x) for x in follow)
        click.echo(text)
    return unknown


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
@click.option(
    "--stake",
    is_flag=True,
    help="Play for points: the solver keeps its side's value, hints keep yours (the "
    "default for a stake puzzle).",
)
@_limits
def play(
    file: Path,
    name: str | None,
    side: str | None,
    stake: bool,
    ban: tuple[str, ...],
    time_limit: float | None,
    max_memory: float,
) -> None:
    """Play a puzzle in the terminal against the solver, which answers every move
    perfectly and tells you when a move throws away a won position. With --stake (or a
    stake puzzle) both sides play for points: the solver keeps its side's value, and
    tells you when a move gives some of yours away. The hand's stake ends the game.

    Type cards (as 33 or 3-3), `pass`, `hint` for the winning (or value-keeping) moves,
    or `quit`. A
    --time-limit applies to each of the solver's answers. Exits 0 when the game ends or
    you quit, 3 when a limit left some answer of the solver's unproved, 1 when the input
    ends before the game, 130 on Ctrl-C.
    """
    from solver.endgame import SHORT_NAMES
    from solver.errors import InputFileError
    from solver.play import Game, IllegalMove
    from solver.puzzles import load_file
    from solver.search import LOSS, WIN

    items = load_file(file)
    puzzles = [p for p in items if not isinstance(p, InputFileError)]
    errors = [p for p in items if isinstance(p, InputFileError)]
    chosen = [p for p in puzzles if name in (None, p.name)]
    if not chosen:
        if name is None or not puzzles:
            raise InputError(str(errors[0]) if errors else f"{file}: no puzzle in it")
        named = [e for e in errors if e.name == name]
        if named:  # the puzzle is there, but bad: say why
            raise InputError(str(named[0]))
        known = ", ".join(repr(p.name) for p in puzzles)
        unread = f"; {len(errors)} more could not be read" if errors else ""
        raise InputError(f"{file}: no puzzle named {name!r} (it has {known}{unread})")
    puzzle = chosen[0]
    if name is not None and len(chosen) > 1:
        lines = ", ".join(str(p.line) for p in chosen)
        click.echo(
            f"note: {len(chosen)} puzzles of {file} are named {name!r} (lines {lines}): "
            "playing the first",
            err=True,
        )
    try:
        pos = puzzle.asked(bans=ban).position()
    except LandlordError as e:
        raise InputError(f"{puzzle.where}: {e}") from None
    _compile_notice("search")
    human = {"landlord": WIN, "peasants": LOSS}[side] if side else (LOSS if pos.to_move else WIN)
    staked = stake or puzzle.question == "stake"
    game = Game(_searcher(max_memory, time_limit), pos, human, puzzle.history, puzzle.bid, staked)
    click.echo(f"{puzzle.name}: you play {'the landlord' if human == WIN else 'the peasants'}.")
    stopped = "(the time limit stopped the search: no proof)"
    while not game.over:
        click.echo(game.state())
        mover = SHORT_NAMES[game.pos.to_move]
        if game.solvers_turn:
            move, unknown = game.reply()
            note = f"  {stopped}" if unknown else ""
            click.echo(f"{mover} plays {'pass' if move is None else move}{note}")
            continue
        click.echo(f"{mover} to move: ", nl=False)
        try:
            line = sys.stdin.readline()
        except KeyboardInterrupt:  # ends the game with exit code 130, on a line of its own
            click.echo()
            raise
        if not line:
            click.echo()
            raise click.ClickException("the input ended before the game did")
        if not sys.stdin.isatty():  # no terminal echoed it: the transcript shows it
            click.echo(line.rstrip("\r\n"))
        typed = line.strip()
        text = typed.lower()  # the words; cards are read as typed
        if text == "quit":
            break
        if text == "hint":
            good, unknown = game.hint()
            shown = ", ".join("pass" if m is None else str(m) for m in good)
            shown = shown or ("none proved" if unknown else "none")
            label = "moves that keep your value" if game.staked else "winning moves"
            click.echo(f"{label}: {shown}" + (f"  {stopped}" if unknown else ""))
            continue
        try:
            move = game.parse(typed)
        except IllegalMove as e:
            click.echo(str(e))
            continue
        warning = game.play(move)
        if warning:
            click.echo(warning)
    if game.over:
        click.echo("You win." if game.human_won else "You lose.")
        click.echo(f"The hand's stake: {game.stake}")
    if game.stopped:
        sys.exit(3)


@main.command(short_help="List the legal plays of a hand.")
@click.argument("hand")
@click.option("--beat", metavar="PLAY", help="Only the plays that beat PLAY.")
@click.option("--ban", multiple=True, type=click.Choice(BANNABLE), help="Ban a kind (repeatable).")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list.")
@_rules
def moves(hand: str, beat: str | None, ban: tuple[str, ...], as_json: bool, rules: Any) -> None:
    """List the legal plays from HAND (on a free lead, or answering --beat PLAY)."""
    from solver.cards import check_disjoint, check_hand, parse_hand

    rules = rules.with_bans(ban)
    cards = parse_hand(hand)
    check_hand(cards, rules.deck, hand)
    _compile_notice("movegen")
    from solver.movegen import follows, leads, readings, why_no_play

    if beat is None:
        plays = leads(cards, rules)
    else:
        try:
            table_cards = parse_hand(beat)
            check_hand(table_cards, rules.deck, beat)
            check_disjoint((cards, table_cards), rules.deck)
        except LandlordError as e:
            raise InputError(f"--beat {beat!r}: {e}") from None
        found = readings(table_cards, rules)
        if not found:
            raise InputError(f"--beat {beat!r} {why_no_play(table_cards, rules)}")
        plays = []
        for table in found:
            plays += [m for m in follows(cards, table, rules) if m not in plays]
    if as_json:
        click.echo(json.dumps([m.as_dict() for m in plays]))
        return
    width = max((len(str(m)) for m in plays), default=5)
    for m in plays:
        d = m.as_dict()
        click.echo(f"{d['cards']:<{width}}  {d['kind']:<13}  {d['rank']}")
    click.echo(f"{len(plays)} play{'s' * (len(plays) != 1)}", err=True)


@main.command(short_help="Print random deals from a seed.")
@click.option(
    "--seed", type=click.IntRange(min=0), required=True, help="The seed that names the deals."
)
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
    type=click.Choice(["contest", "toml", "deal"]),
    default="contest",
    show_default=True,
    help="Contest input, a puzzle file, or a file of deals before the auction (17/17/17 "
    "and the kitty, for `landlord analyze`: seat 1's hand and the kitty are the contest "
    "deal's landlord hand).",
)
@_rules
def deal(seed: int, count: int, strength: float, fmt: str, rules: Any) -> None:
    """Print random deals, reproducible from the seed (and strength), each as soon as it
    is made: any count streams in flat memory. With --rules four-player, a deal is the
    landlord's 33 cards and three peasants' 25 (contest text: four hands a case)."""
    from solver.cards import format_hand
    from solver.deals import deal_name, iter_deals

    deals = iter_deals(seed, count, strength, rules)
    if fmt == "contest":
        sys.stdout.write(f"{count}\n")
        for d in deals:
            sys.stdout.write("".join(format_hand(h) + "\n" for h in d))
        return
    if fmt == "deal":
        from solver.deals import deals_toml, iter_open_deals

        for k, table in enumerate(deals_toml(iter_open_deals(seed, count, strength, rules))):
            sys.stdout.write(("\n" if k else "") + table)
        return
    from solver.puzzles import Puzzle, to_toml

    for k, d in enumerate(deals, 1):
        puzzle = Puzzle(deal_name(seed, k, strength), "spring", d[0], tuple(d[1:]), rules)
        sys.stdout.write(("\n" if k > 1 else "") + to_toml([puzzle]))


def _count(*decls: str, default: int, least: int, text: str):  # noqa: ANN202 (a decorator)
    """A bounded count option that shows its default."""
    kind = click.IntRange(min=least, max=10_000_000)
    return click.option(*decls, type=kind, default=default, show_default=True, help=text)


def _sizes(ctx: click.Context, param: click.Parameter, value: str | None) -> list[int] | None:
    """``--sizes 26,32``: card counts, each a number."""
    if value is None:
        return None
    try:
        return [int(part) for part in value.split(",")]
    except ValueError:
        raise click.BadParameter(
            f"{value!r} is not card counts such as 26,32", ctx, param
        ) from None


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
    help="Stop a random endgame (or growth position) after this long (its answer is then unknown).",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead.")
@click.option(
    "--growth",
    is_flag=True,
    help="Run the growth suite instead (minutes): 8 three-player positions of each size "
    "from 26 cards to whole deals, compared with the growth list, and a table of how the "
    "search's cost grows.",
)
@click.option(
    "--sizes",
    callback=_sizes,
    metavar="CARDS,...",
    help="With --growth: only the sets of these card counts (26, 32, 38, 44, 50; 54 is "
    "whole deals).",
)
@click.option(
    "--node-limit",
    type=click.IntRange(min=1, max=10**15),
    default=200_000_000,  # solver.bench.GROWTH_NODE_LIMIT
    show_default=True,
    metavar="NODES",
    help="With --growth: stop a position after this many nodes.",
)
@click.option(
    "--record",
    is_flag=True,
    help="With --growth: solve under the node limit alone (not the clock, so that the "
    "figures are the same on every machine) and write the answers and nodes into the "
    "growth list, keeping the sets not run.",
)
@click.option(
    "--growth-list",
    type=click.Path(dir_okay=False, path_type=Path),
    help="With --growth: the growth list to compare with, or to --record into "
    "[default: the bundled solver/growth_list.txt].",
)
@click.pass_context
def bench(
    ctx: click.Context,
    deals: int,
    positions: int,
    time_limit: float,
    as_json: bool,
    growth: bool,
    sizes: list[int] | None,
    node_limit: int,
    record: bool,
    growth_list: Path | None,
) -> None:
    """Run the standard benchmark suite on one core: the bench list (its total node count
    is the bench signature), fixed-seed spring deal sets and random endgames. Prints
    per-case times and throughput.

    Exits 1 when a bench list position's answer or node count is not the listed one,
    naming each such position with what was expected and what was got.

    With --growth, runs the growth suite instead: each position's row as it is solved,
    then the table (cards in play, answered within the limits, median and worst time,
    median nodes, total time). Exits 1 when a position's answer or nodes differ from the
    growth list; one listed unknown that now answers is an improvement.
    """
    given = {
        name
        for name in ("deals", "positions", "time_limit", "sizes", "node_limit", "record")
        if ctx.get_parameter_source(name) is not click.core.ParameterSource.DEFAULT
    } | ({"growth_list"} if growth_list else set())
    if growth and given & {"deals", "positions"}:
        raise click.UsageError("--deals and --random are for the standard suite, not --growth")
    if record and "time_limit" in given:
        raise click.UsageError("--record solves under the node limit alone: no --time-limit")
    if not growth and given - {"deals", "positions", "time_limit"}:
        raise click.UsageError("--sizes, --node-limit, --record and --growth-list need --growth")
    _compile_notice("spring", "search")
    from solver import bench as suite

    if growth:
        _bench_growth(sizes, node_limit, time_limit, record, growth_list, as_json)
        return
    report = suite.run_suite(_searcher(64, None), _searcher(64, time_limit), deals, positions)
    if as_json:
        click.echo(json.dumps(report.as_json()))
    else:
        rows, rates = report.rows, report.deals_per_second
        width = max(len(r.case) for r in rows)
        click.echo(f"{'suite':<13} {'case':<{width}}  {'answer':<9} {'nodes':>11} {'seconds':>9}")
        for r in rows:
            extra = f"  {rates[r.case]:>11,.0f} deals/s" if r.suite == "spring" else ""
            nodes = f"{r.nodes:,}" if r.nodes else "-"
            click.echo(
                f"{r.suite:<13} {r.case:<{width}}  {r.answer:<9} {nodes:>11} "
                f"{r.seconds:>9.3f}{extra}"
            )
        click.echo(f"bench signature: {report.signature:,} nodes ({len(report.listed)} positions)")
        click.echo(
            f"stake signature: {report.stake_signature:,} nodes ({len(report.staked)} positions)"
        )
        click.echo(f"search speed: {report.nodes_per_second:,.0f} nodes/s")
        for name, median in report.medians.items():
            click.echo(f"random {name} endgames: median {median:.3f} s")
    differ = report.differences
    if differ:
        if not as_json:
            click.echo(f"expected signature: {report.expected_signature:,} nodes")
            click.echo(f"expected stake signature: {report.expected_stake_signature:,} nodes")
            _print_differences(differ, len(report.listed) + len(report.staked))
        names = ", ".join(f"{r.case} (solver/{suite.LIST_FILES[r.suite]})" for r in differ)
        raise click.ClickException(f"the bench lists differ at {names}")


def _print_differences(differ: list[Any], listed: int) -> None:
    """The positions that differ from their list, perft style: expected, then got."""
    click.echo(f"{len(differ)} of {listed} positions differ from the list:")
    click.echo(f"  {'case':<6} {'expected':<16} got")
    for r in differ:
        want = f"{r.expected_answer} {r.expected_nodes:,}"
        wrong = "  WRONG ANSWER" if r.verdict == "wrong answer" else ""
        click.echo(f"  {r.case:<6} {want:<16} {r.answer} {r.nodes:,}{wrong}")


def _bench_growth(
    sizes: list[int] | None,
    node_limit: int,
    time_limit: float,
    record: bool,
    path: Path | None,
    as_json: bool,
) -> None:
    """``landlord bench --growth``: run (or --record) the growth suite, print its rows as
    they come and then its table, and fail on a difference from the growth list."""
    from solver import bench as suite

    try:
        sets = suite.growth_sets(sizes)
    except ValueError as e:
        raise click.BadParameter(str(e), param_hint="--sizes") from None
    path = path or suite.default_growth_list()
    if record:
        listed, rows = suite.GrowthList(), suite.record_growth(path, sets, node_limit)
        limit: float | None = None
    else:
        if not path.exists():
            raise InputError(f"no growth list at {path}: write one with --record")
        listed = suite.read_growth_list(path)
        suite.check_positions(listed, sets, str(path))
        rows, limit = suite.run_growth(sets, listed, node_limit, time_limit), time_limit
    done = []
    if not as_json:
        click.echo(f"{'set':<5} {'case':<7} {'answer':<8} {'nodes':>13} {'seconds':>9}  listed")
    for r in rows:  # solved one by one: a whole run takes minutes
        done.append(r)
        if not as_json:
            verdict = {"": "-", "wrong answer": "WRONG ANSWER"}.get(r.verdict, r.verdict)
            row = f"{r.suite:<5} {r.case:<7} {r.answer:<8} {r.nodes:>13,} {r.seconds:>9.3f}"
            click.echo(f"{row}  {verdict}")
    report = suite.GrowthReport(done, sets, node_limit, limit)
    if as_json:
        click.echo(json.dumps(report.as_json()))
    else:
        click.echo(suite.GrowthLine.HEADER)
        for line in report.lines():
            click.echo(line.text())
        clock = f" and {limit:g} s" if limit else ""
        click.echo(f"limits: {node_limit:,} nodes{clock} a position (>: stopped, at least this)")
        click.echo(f"search speed: {report.nodes_per_second:,.0f} nodes/s")
        if record:
            names = ", ".join(s.name for s in sets)
            click.echo(f"recorded {len(done)} positions ({names}) in {path}")
        for r in report.having("newly answered"):
            click.echo(f"{r.case}: listed unknown, now {r.answer} in {r.nodes:,} nodes (improved)")
        for r in report.having("not compared"):
            click.echo(
                f"{r.case}: stopped by the {r.stopped} before the listed {r.expected_nodes:,} "
                "nodes: not compared"
            )
        if report.differences:
            _print_differences(report.differences, sum(bool(r.verdict) for r in done))
    if report.differences:
        names = ", ".join(r.case for r in report.differences)
        raise click.ClickException(f"the growth list differs at {names} ({path})")


@main.command(short_help="Check a contestant's output.")
@click.argument("input_file", metavar="INPUT", type=click.File("rb"))
@click.argument("output_file", metavar="OUTPUT", type=click.File("rb"))
@_rules
def check(input_file: IO[bytes], output_file: IO[bytes], rules: Any) -> None:
    """Check a contestant's OUTPUT for the contest INPUT, case by case.

    Lists the first cases that differ and exits 0 only when every case matches. Both
    files are read as streams, so memory stays flat however long they are.
    """
    from solver.contest import compare_output, contest_chunks
    from solver.progress import plural

    if _name(input_file) == _name(output_file) == "<stdin>":
        raise click.UsageError("INPUT and OUTPUT cannot both be - (standard input)")
    _compile_notice("contest", "spring")
    from solver.spring import solve_many

    def expected():  # noqa: ANN202 (the right answers, a chunk at a time)
        for part in contest_chunks(input_file, _name(input_file), rules):
            yield solve_many(part.hands, rules)
            if part.error:
                raise part.error

    problems, cases, differ = compare_output(expected(), output_file, _name(output_file))
    for p in problems:
        click.echo(p)
    if problems:
        listed = plural(len(problems), "difference")
        verb = "differs" if differ == 1 else "differ"
        wrong = f"{differ:,} of {plural(cases, 'case')} {verb}; " if differ else ""
        raise click.ClickException(f"{_name(output_file)}: wrong answer ({wrong}{listed} listed)")
    click.echo(f"{_name(output_file)}: all {plural(cases, 'case')} right")


@main.command(short_help="Validate a contest input file.")
@click.argument("input_file", metavar="INPUT", type=click.File("rb"))
@_rules
def validate(input_file: IO[bytes], rules: Any) -> None:
    """Validate a contest INPUT file strictly (complete 20/17/17 deals, or 33/25/25/25
    with --rules four-player; nothing else)."""
    from solver.contest import validate as check_input

    _compile_notice("contest")
    click.echo(check_input(input_file, _name(input_file), rules))


@main.command(short_help="The double-dummy table of deals: which seat wins as landlord.")
@click.argument("targets", nargs=-1, required=True, metavar="DEAL-OR-FILE...")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per deal.")
@click.option(
    "--workers",
    type=click.IntRange(min=1),
    help="Processes searching seats in parallel (default and most: one per usable core).",
)
@click.option("--stake", is_flag=True, help="Also each seat's value: the stake question.")
@partial(_bid, default="1")
@_rules
@_search_limits
def analyze(
    targets: tuple[str, ...],
    as_json: bool,
    workers: int | None,
    stake: bool,
    bid: int | None,
    rules: Any,
    time_limit: float | None,
    max_memory: float,
) -> None:
    """For each deal, every seat as landlord: he takes the kitty and leads, the two seats
    after him are the peasants, all hands open. Does he win? With a winning first move,
    the nodes searched and the seconds taken: which seat should take the landlord.
    With --stake, also what the hand is worth to him with best play on both sides.

    A deal is written "S1=... S2=... S3=... KITTY=..." (17, 17, 17 and 3 cards, the
    whole deck; with --rules four-player also S4=, 25 cards each and 8), quoted or not,
    or comes from a file of [[deal]] tables, as `landlord deal --format deal` writes them.
    """
    from solver.deals import Deal, deal_arguments, load_deals, parse_deal
    from solver.rules import check_question

    # every deal, or the error that spoils it alone: a bad one costs no other its answer
    items: list[Deal | LandlordError] = []
    for target in deal_arguments(targets):
        path = Path(target)
        if path.is_file():
            try:
                items += load_deals(path.read_bytes(), target, rules)
            except OSError as e:
                items.append(LandlordError(f"{target}: cannot read: {e.strerror or e}"))
        elif "=" in target:
            try:
                items.append(parse_deal(target, rules))
            except LandlordError as e:
                items.append(e)
        elif not target.strip():
            items.append(LandlordError("an empty argument: expected a deal or a deal file"))
        elif path.exists():
            items.append(LandlordError(f"{target}: not a file (expected [[deal]] tables)"))
        else:
            items.append(
                LandlordError(
                    f"{target}: no such file, and not a deal (expected S1=, S2=, S3=, KITTY=)"
                )
            )
    deals = [d for d in items if isinstance(d, Deal)]
    _compile_notice("search")
    from solver.analyze import analyze as double_dummy
    from solver.engines import pool_size

    size, note = pool_size(workers, sum(len(d.hands) for d in deals))
    if note:
        click.echo(note, err=True)
    unknown = False
    if bid is not None and not stake:
        raise click.UsageError("--bid counts stakes: it needs --stake")
    if stake:
        for d in deals:
            check_question("stake", d.rules)
    asked = (bid or 1) if stake else None
    results = double_dummy(deals, max_memory, time_limit, size, asked)
    errors = 0
    for item in items:
        if not isinstance(item, Deal):
            errors += 1
            _bad_item(str(item), as_json)
            continue
        try:
            result = next(results)
        except MemoryError:
            raise _no_memory(max_memory) from None
        unknown |= not all(s.settled for s in result.seats)
        if as_json:
            click.echo(json.dumps(result.as_json()))
            continue
        shown = result.deal.describe()
        click.echo(shown if result.deal.name == shown else f"{result.deal.name}: {shown}")
        for s in result.seats:
            verdict = {True: "wins", False: "loses", None: "unknown"}[s.answer]
            move = f"  first move {s.move}" if s.move else ""
            stopped = f"  (stopped by the {s.stopped_by})" if s.stopped_by else ""
            worth = ""
            if s.staked:
                worth = "  worth unknown" if s.value is None else f"  worth {s.value:+d}"
                worth += f" ({s.stake.reasons})" if s.stake and s.stake.reasons else ""
                worth += f", {s.points:+d} points at a bid of {bid}" if s.points and bid else ""
            click.echo(
                f"  seat {s.seat} as landlord {verdict}{move}{worth}{stopped}  "
                f"[{s.nodes:,} nodes]  ({s.seconds:.2f} s)"
            )
    if errors:
        sys.exit(2)
    if unknown:
        sys.exit(3)


if __name__ == "__main__":
    main()
