"""Make ``tests/data/answers.txt``: random positions with the forced-win answer of a search.

The answers guard the search against a rewrite: they are made once with the search as it
was before (a copy of that tree), and ``tests/test_answers.py`` asks the current search
the same questions. Run from anywhere, naming the tree whose ``solver`` package answers::

    NUMBA_CACHE_DIR=/tmp/answers-numba python tests/make_answers.py --tree /path/to/old/tree

``--tree`` defaults to the repository holding this script. The positions depend only on
``--seed`` (candidate ``i`` is dealt from its own generator, seeded with the seed and
``i``); the search decides which are kept (those answered within ``--node-limit`` nodes,
each a new question of one searcher) and their answers. The dealing uses the reference
rules of ``tests/reference.py`` only, so that no tree's move generator shapes the set.

Each candidate has 20..36 cards in the players' hands, two or three players (each hand
3..20 cards), any player to move; a third have a play on the table: cards dealt from
outside the hands, read as a play, owned by a player other than the mover; a quarter
ban some combinations; a quarter are dealt with a few chain ranks missing from the
deck, so that chains break at gaps.
"""

from __future__ import annotations

import argparse
import hashlib
import random
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
OUT = HERE / "data" / "answers.txt"
SEED = 20240610
COUNT = 2000
NODE_LIMIT = 200_000
MEMORY_MB = 16  # the searcher's table; tests/test_answers.py uses the same
TABLE_SHARE, BAN_SHARE, GAP_SHARE = 1 / 3, 1 / 4, 1 / 4
CHAIN_RANKS = range(12)  # 3..A


def deal(seed: int, i: int, bannable: tuple[str, ...]) -> dict[str, Any]:
    """Candidate ``i``: hands, mover, table cards and owner (or None), bans. Depends on
    ``seed`` and ``i`` alone."""
    import reference as ref

    rng = random.Random(f"answers {seed} {i}")
    players = rng.choice((2, 3))
    n = rng.randint(20, 36)
    sizes = []
    left = n
    for k in range(players - 1, 0, -1):  # each hand 3..20, the rest fits the others
        size = rng.randint(max(3, left - 20 * k), min(20, left - 3 * k))
        sizes.append(size)
        left -= size
    sizes.append(left)
    rng.shuffle(sizes)
    extra = rng.randint(1, 10)  # the cards a table play is taken from
    ranks = list(range(15))
    if rng.random() < GAP_SHARE:
        most = min(4, (54 - n - extra) // 4)
        for r in rng.sample(CHAIN_RANKS, rng.randint(1, most) if most else 0):
            ranks.remove(r)
    deck = [r for r in ranks for _ in range(4 if r < 13 else 1)]
    rng.shuffle(deck)
    hands, at = [], 0
    for size in (*sizes, extra):
        counts = [0] * 15
        for r in deck[at : at + size]:
            counts[r] += 1
        hands.append(tuple(counts))
        at += size
    to_move = rng.randrange(players)
    bans: frozenset[str] = frozenset()
    if rng.random() < BAN_SHARE:
        bans = frozenset(rng.sample(bannable, rng.randint(1, 3)))
    table = owner = None
    if rng.random() < TABLE_SHARE:
        by_kind: dict[str, list] = {}
        for p in sorted(ref.plays(hands[players], bans)):
            by_kind.setdefault(p[1], []).append(p)
        kind = rng.choice(sorted(by_kind))  # every kind the cards allow, equally often
        table = rng.choice(by_kind[kind])[0]
        owner = rng.choice([p for p in range(players) if p != to_move])
    return {
        "hands": hands[:players],
        "to_move": to_move,
        "table": table,
        "owner": owner,
        "bans": bans,
    }


def category(pos: Any) -> tuple[int, str, bool, bool]:
    """(players, mover, table play, bans): what the counts are split by."""
    mover = "L" if pos.to_move == 0 else "P"
    return pos.players, mover, pos.table is not None, bool(pos.rules.bans)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tree", type=Path, default=ROOT, help="tree whose solver answers")
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--count", type=int, default=COUNT, help="positions to keep")
    parser.add_argument("--node-limit", type=int, default=NODE_LIMIT)
    args = parser.parse_args(argv)

    tree = args.tree.resolve()
    sys.path.insert(0, str(tree))
    sys.path.insert(1, str(HERE))  # for `import reference`
    import solver

    if Path(solver.__file__).resolve().parent != tree / "solver":
        raise SystemExit(f"imported {solver.__file__}, not the solver of {tree}")
    from solver.endgame import describe, parse_position
    from solver.rules import BANNABLE, CLASSIC
    from solver.search import UNKNOWN, WIN, Searcher, make_position

    searcher = Searcher(memory_mb=MEMORY_MB, node_limit=args.node_limit)
    warm = parse_position("L=3 P1=4")
    searcher.start(warm.rules)
    searcher.value(warm)  # compiles the kernels: not part of any position's time

    lines: list[str] = []
    kept: Counter[tuple[int, str, bool, bool]] = Counter()
    answers: Counter[str] = Counter()
    nodes = over = i = 0
    seconds = 0.0
    while len(lines) < args.count:
        d = deal(args.seed, i, BANNABLE)
        i += 1
        rules = CLASSIC.with_bans(d["bans"])
        # the reference's play reads as a legal play here too (else make_position raises)
        pos = make_position(list(d["hands"]), d["to_move"], d["table"], d["owner"], rules)
        spec = describe(pos)
        if parse_position(spec) != pos:
            raise SystemExit(f"{spec!r} does not read back as the same position")
        searcher.start(pos.rules)
        start = time.perf_counter()
        value = searcher.value(pos)
        if value == UNKNOWN:
            over += 1
            continue
        seconds += time.perf_counter() - start
        nodes += searcher.stats.nodes
        answer = "win" if value == WIN else "loss"
        lines.append(f"{answer} {spec}")
        kept[category(pos)] += 1
        answers[answer] += 1

    digest = hashlib.sha256((tree / "solver" / "search.py").read_bytes()).hexdigest()[:16]
    header = [
        "# Forced-win answers: ANSWER POSITION, one position a line. ANSWER is the landlord's",
        "# side's result under best play (win or loss); POSITION is in the notation of",
        "# solver.endgame.parse_position. Made by tests/make_answers.py (tests/data/README.md):",
        f"# seed {args.seed}, the first {len(lines)} of {i} candidates answered within",
        f"# {args.node_limit:,} nodes ({over} were not); {answers['win']} win, "
        f"{answers['loss']} loss; {nodes:,} nodes",
        f"# in all, by the search of a solver/search.py with sha256 {digest}.",
    ]
    args.out.write_text("\n".join(header + lines) + "\n")
    print(f"{args.out}: {len(lines)} positions of {i} candidates ({over} over the limit)")
    print(f"answers: {dict(answers)}; {nodes:,} nodes, {seconds:.2f} s of search")
    for (players, mover, table, banned), k in sorted(kept.items()):
        what = f"{players} players, {mover} to move, {'table' if table else 'lead'}"
        print(f"  {what}, {'bans' if banned else 'no bans'}: {k}")


if __name__ == "__main__":
    main()
