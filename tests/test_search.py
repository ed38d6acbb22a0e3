"""The forced-win search: published answers, agreement with the slow reference minimax,
lines replayed move by move by independent code, determinism, limits."""

import mmap
import random

import pytest
import reference as ref
from conftest import PUBLISHED, STRATEGIES, make_searcher, random_split
from reference import replay

from solver.cards import format_hand, pack, parse_hand
from solver.endgame import parse_position, solve_win
from solver.errors import LandlordError
from solver.ordering import WINNER_SLOTS
from solver.rules import BANNABLE, CLASSIC
from solver.search import LOSS, UNKNOWN, WIN, Searcher, make_position
from solver.table import (
    ENTRY_WORDS,
    GENERATIONS,
    HUGE_PAGE,
    grow,
    new_table,
    probe,
    store,
    table_entries,
)
from solver.table import table_key as kernel_key


def published():
    for line in PUBLISHED.read_text().splitlines():
        body = line.split("#")[0].split()
        fields = dict(kv.split("=") for kv in body)
        yield fields


@pytest.mark.parametrize("fields", list(published()), ids=lambda f: f["ID"])
def test_published_endgames(fields):
    bans = fields["BAN"].split(",") if "BAN" in fields else []
    pos = make_position(
        [parse_hand(fields["L"]), parse_hand(fields["P1"])], rules=CLASSIC.with_bans(bans)
    )
    result = solve_win(Searcher(memory_mb=32), pos)
    assert result.value == (WIN if fields["ANSWER"] == "win" else LOSS)
    replay(pos, result.line, result.value)


def random_position(rng, players):
    sizes = [rng.randint(1, 7 if players == 2 else 5) for _ in range(players)]
    cut = random_split(rng, (*sizes, rng.randint(1, 6)))
    hands, extra = cut[:players], cut[players]
    to_move = rng.randrange(players)
    table = owner = None
    if rng.random() < 0.4:
        table = rng.choice(sorted(ref.plays(extra)))
        owner = rng.choice([p for p in range(players) if p != to_move])
    bans = frozenset(b for b in BANNABLE if rng.random() < 0.15)
    return hands, to_move, table, owner, bans


def agrees(searcher, hands, to_move, table, owner, bans=frozenset()):
    """Whether the position is one the reference reads alike (a table play of the same
    kind); if so, check the search's answer against the reference minimax and replay its
    line."""
    rules = CLASSIC.with_bans(bans)
    pos = make_position(list(hands), to_move, None if table is None else table[0], owner, rules)
    if table is not None and pos.table.kind != table[1]:
        return False  # the reference reads the cards another way: not the same position
    want = ref.minimax(tuple(hands), to_move, table, owner, bans)
    result = solve_win(searcher, pos)
    assert result.value == (WIN if want else LOSS), (hands, to_move, table, owner, bans)
    replay(pos, result.line, result.value)
    return True


@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize("players", [2, 3])
def test_agrees_with_reference_minimax(players, strategy):
    rng = random.Random(10 + players)
    searcher = make_searcher(strategy, 4)
    for _ in range(250 if players == 2 else 150):
        agrees(searcher, *random_position(rng, players))


@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize("players", [2, 3])
def test_agrees_with_reference_where_bombs_abound(players, strategy):
    """Hands dealt from a few ranks (bombs everywhere, the rocket often): the quick wins
    that take the lead back must give way to every bomb."""
    rng = random.Random(60 + players)
    searcher = make_searcher(strategy, 1)
    checked = 0
    while checked < (50 if players == 2 else 80):
        ranks = (*rng.sample(range(13), 4), 13, 14)
        sizes = [rng.randint(2, 7 if players == 2 else 5) for _ in range(players)]
        *hands, extra = random_split(rng, (*sizes, 4), ranks)
        to_move = rng.randrange(players)
        table = owner = None
        if rng.random() < 0.3 and ref.plays(extra):
            table = rng.choice(sorted(ref.plays(extra)))
            owner = rng.choice([p for p in range(players) if p != to_move])
        checked += agrees(searcher, hands, to_move, table, owner)


@pytest.mark.parametrize(
    ("spec", "wins"),
    [
        ("L=32 P1=56", True),  # lead the 3, take the lead back with the 2
        ("L=3322 P1=5566", True),  # the same with pairs
        ("L=32 P1=44445", False),  # a bomb beats the 2 too
        ("L=32 P1=5BR", False),  # and the rocket
        ("L=342 P1=5", False),  # the peasant goes out on the 3
        ("L=3422 P1=5 P2=66", False),  # peasant 1 goes out on the 3
        ("L=3422 P1=56 P2=67", True),
    ],
)
def test_taking_the_lead_back(spec, wins):
    """Positions where leading low and taking the lead back is, or only seems, a win."""
    pos = parse_position(spec)
    assert ref.minimax(pos.hands, 0, None, None) == wins
    assert Searcher(memory_mb=1).value(pos) == (WIN if wins else LOSS)


@pytest.mark.parametrize(
    ("spec", "wins", "quick"),
    [
        ("L=3472B P1=568 P2=9TJ", True, True),  # 3 and 4, each taken back; then the 7
        ("L=334722B P1=5568 P2=99TJ", True, True),  # 33 back with 22, the 4 with B; the 7
        ("L=345722B P1=5689 P2=9TJQ", True, True),  # 3, 4 and 5 back with B, 2 and 2
        ("L=3472B P1=58 P2=9TJ", False, False),  # peasant 1 goes out on the 4
        ("L=3457BR P1=5689 P2=9TJQ", False, False),  # three low singles, two to take back
        ("L=3472B P1=568 P2=9TJ2", True, False),  # the 2 is not above them all: searched
    ],
)
def test_taking_the_lead_back_again(spec, wins, quick):
    """Leading low more than once, taking the lead back each time: where it holds, the
    root is settled by itself (one node); where it only seems to, searched."""
    pos = parse_position(spec)
    assert ref.minimax(pos.hands, 0, None, None) == wins
    searcher = Searcher(memory_mb=1)
    assert searcher.value(pos) == (WIN if wins else LOSS)
    assert (searcher.stats.nodes == 1) == quick


@pytest.mark.parametrize(
    ("spec", "wins", "quick"),
    [
        ("L=23 P1=45 P2=67 TABLE=9@P1 TO=L", True, True),  # the 2, then the 3
        ("L=23 P1=45 TABLE=9@P1 TO=L", True, True),  # two players
        ("L=234567 P1=66 P2=77 TABLE=9@P1 TO=L", True, True),  # the 2, then the chain
        ("L=2R P1=B5 P2=67 TABLE=9@P1 TO=L", True, True),  # the red joker, then the 2
        ("L=23A77 P1=KK8 P2=QQ6 TABLE=9@P1 TO=L", True, True),  # the 2, the 3, the A back
        ("L=5K P1=23 P2=4 TABLE=Q@L TO=P1", False, True),  # peasant 1: the 2, then the 3
        ("L=5K P1=A3 P2=2 TABLE=Q@L TO=P1", False, True),  # his partner passes the A
        ("L=23 P1=4444 P2=67 TABLE=9@P1 TO=L", False, False),  # a bomb beats the 2
        ("L=2346 P1=55 P2=77 TABLE=9@P1 TO=L", False, False),  # 3, 4, 6: two beatable
        ("L=2K P1=A3 P2=4 TABLE=Q@L TO=P1", True, False),  # the landlord's 2 beats the A
    ],
)
def test_answering_with_control_then_springing(spec, wins, quick):
    """Answering with a play no opponent can beat, then playing out the rest with at most
    one beatable play: where it holds, the node is settled by itself (one node, where
    the search would need at least two); where it only seems to, searched."""
    assert_settled(spec, wins, quick)


def assert_settled(spec, wins, quick):
    """The position ``spec`` is won (or lost) as the reference minimax says, and where
    ``quick``, a search of its own settles it in one node."""
    pos = parse_position(spec)
    t = pos.table
    table = None if t is None else (t.cards, t.kind, t.rank, t.length)
    assert ref.minimax(pos.hands, pos.to_move, table, pos.owner) == wins
    searcher = Searcher(memory_mb=1)
    assert searcher.value(pos) == (WIN if wins else LOSS)
    if quick:
        assert searcher.stats.nodes == 1


@pytest.mark.parametrize(
    ("spec", "wins", "quick"),
    [
        ("L=42 P1=556678 P2=99TJ TO=P1", True, True),  # each peasant must play two singles
        ("L=42 P1=556678 P2=99TJ TABLE=2@P1 TO=L", True, True),  # whatever is on the table
        ("L=42 P1=556678 P2=99TJ TABLE=QQ@P2 TO=P1", True, True),
        ("L=422 P1=556678 TO=P1", True, True),  # two players
        ("L=42 P1=555678 P2=99TJ TO=P1", True, True),  # the trio takes one single along
        ("L=42 P1=55567 P2=99TJ TO=P1", False, False),  # and leaves one: 5556, then 7
        ("L=42 P1=5556789T P2=99JQ TO=P2", True, False),  # 56789T and 55: no single
        ("L=5566789 P1=42 P2=9", False, True),  # peasant 1's 2 takes the landlord's single
        ("L=5566789 P1=4222 P2=9", False, True),
        ("L=2A56 P1=556678 P2=99TJ TO=P2", False, False),  # the landlord has two low cards
        ("L=556678 P1=42", False, True),
        ("L=42 P1=556678 P2=99T TO=P1", False, False),  # peasant 2 needs one single: 99, T
        ("L=42 P1=5555678 P2=99TJ TO=P1", False, False),  # a bomb beats the 2
        ("L=42 P1=556678 P2=99TBR TO=P1", False, True),  # peasant 2's red joker takes the 2
        ("L=3579 P1=2TTJJ P2=4", False, True),  # the 2 takes a single; TT and JJ, unbeaten
        ("L=3579 P1=2TTJJ P2=4 TABLE=2@L TO=P1", False, True),
        ("L=5566778 P1=42 P2=9T", True, False),  # the landlord needs one single
        ("L=9 P1=4578 P2=36TJ TO=P1", True, True),  # peasant 2 covers two of four lows
        ("L=9 P1=34578 P2=36TJ TO=P1", True, True),
        ("L=9 P1=4578 P2=36TJQ TO=P1", True, False),  # three covers: searched
        ("L=9 P1=4578 P2=36TJ TABLE=KK@P2 TO=P1", True, True),  # whatever is on the table
        ("L=9 P1=4578 P2=36TJ TABLE=4@P1 TO=P2", True, True),
        ("L=9 P1=4578 P2=36JJJJ TO=P1", False, False),  # a bomb covers too
        ("L=9 P1=4578 TO=P1", True, True),  # two players
        ("L=9 P1=4444578 TO=P1", False, True),  # 4444+57, then the 8
        ("L=K P1=555678 P2=348 TO=P1", True, True),  # 5556 leaves two singles
        ("L=K P1=55567 P2=348 TO=P1", False, True),  # 5556 leaves one: the 7 goes out
        ("L=T P1=8 P2=33356899KAA2B TO=P2", True, True),  # peasant 1 never leads again
        ("L=T P1=8 P2=3568KA TABLE=44@P1 TO=P2", False, False),  # but he owns the table
        ("L=9 P1=45K P2=36JJ TO=P2", True, True),  # the K gives peasant 1 one lead: two lows
        ("L=9 P1=45K P2=36JJ TO=P1", False, False),  # on the lead, one more: 4, J, K, 5
        ("L=9 P1=45677 P2=36JJQ TO=P2", True, True),  # the 77 one lead more: three lows
        ("L=3K P1=4578 P2=36TJ TO=P1", True, True),  # nobody beats the K: the 3 goes out
        ("L=3KA2 P1=4578 P2=36TJ TO=P1", True, True),
        ("L=3K P1=4578 P2=36TJA TO=P1", False, False),  # the A beats the K
        ("L=357J P1=8 P2=TT TO=L", False, True),  # the landlord must play 3, 5 or 7 first
        ("L=35JQ P1=KK P2=9 TO=L", False, True),  # peasant 1 passes, peasant 2 goes out
        ("L=35JQ P1=KK P2=A TABLE=QQ@L TO=P1", False, True),
    ],
)
def test_deciding_card(spec, wins, quick):
    """A player's deciding card (his one card, or his highest when he can go out after
    it), against a side that must play singles under it before its last play, more than
    it can cover: where that holds, the node is settled by itself."""
    assert_settled(spec, wins, quick)


@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize("players", [2, 3])
def test_agrees_with_reference_where_one_player_holds_one_card(players, strategy):
    """The landlord or a peasant down to one card (or the landlord to a few), the others
    holding a few ranks (chains, trios and bombs among them): positions that one card
    decides, or only nearly."""
    rng = random.Random(90 + players)
    searcher, alone = make_searcher(strategy, 1), Searcher(memory_mb=1)
    checked = settled = 0
    while checked < (80 if players == 2 else 100):
        sizes = [rng.randint(2, 7) for _ in range(players)]
        sizes[rng.randrange(players)] = 1
        sizes[0] = rng.choice((sizes[0], 2, 3))
        lo, width = rng.randint(0, 6), rng.randint(4, 9)
        jokers = (13, 14) if rng.random() < 0.5 else ()
        *hands, extra = random_split(rng, (*sizes, 3), (*range(lo, min(lo + width, 13)), *jokers))
        quick = settled_alone(rng, searcher, alone, hands, extra, 0.4)
        if quick is not None:
            checked += 1
            settled += quick
    assert settled >= checked // 2  # the rules are met, not only missed


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_agrees_with_reference_where_peasant_1_leads_singles(strategy):
    """The landlord down to one card, or one and a low card or two; peasant 1 holding
    singles and pairs of any rank, a stray trio now and then: positions where he has as
    many low singles as chances to lead again, or nearly."""
    rng = random.Random(77)
    searcher, alone = make_searcher(strategy, 1), Searcher(memory_mb=1)
    checked = settled = 0
    while checked < 120:
        deck = [r for r in range(15) for _ in range(4 if r < 13 else 1)]
        rng.shuffle(deck)
        landlord, peasant_1, peasant_2, extra = ([0] * 15 for _ in range(4))
        top = rng.randint(4, 14)
        landlord[top] = 1
        deck.remove(top)
        lower = [r for r in deck if r < top]
        for r in rng.sample(lower, min(len(lower), rng.choice((0, 0, 1, 2)))):
            if r in deck:
                landlord[r] += 1
                deck.remove(r)
        size = rng.randint(2, 7)
        while sum(peasant_1) < size:
            r = rng.choice(deck)
            if peasant_1[r] < 2 or rng.random() < 0.1:
                peasant_1[r] += 1
            deck.remove(r)
        for r in deck[: rng.randint(3, 9)]:
            peasant_2[r] += 1
        for r in deck[9:12]:
            extra[r] += 1
        hands = [tuple(landlord), tuple(peasant_1), tuple(peasant_2)]
        quick = settled_alone(rng, searcher, alone, hands, tuple(extra), 0.4)
        if quick is not None:
            checked += 1
            settled += quick
    assert settled >= checked // 2  # the rules are met, not only missed


@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize("players", [2, 3])
def test_agrees_with_reference_where_one_side_holds_the_tops(players, strategy):
    """One player holds a few cards above every rank the others hold, and a low card or
    two: positions where a side is shut out, or only nearly."""
    rng = random.Random(80 + players)
    searcher, alone = make_searcher(strategy, 1), Searcher(memory_mb=1)
    checked = settled = 0
    while checked < (60 if players == 2 else 80):
        cut = rng.randint(6, 11)  # ranks 3..cut-th are the low ones
        low, high = range(cut), range(cut, 15)
        top = rng.randrange(players)  # who holds the tops
        tops = random_split(rng, (rng.randint(1, 3),), high)[0]
        sizes = [rng.randint(3, 6) for _ in range(players)]
        sizes[top] = rng.choice((0, 1, 1, 2))
        *lows, extra = random_split(rng, (*sizes, 3), low)
        hands = list(lows)
        hands[top] = tuple(a + b for a, b in zip(lows[top], tops, strict=True))
        if sum(hands[top]) == 0:
            continue
        quick = settled_alone(rng, searcher, alone, hands, extra, 0.3)
        if quick is not None:
            checked += 1
            settled += quick
    assert settled >= checked // 4  # the rule is met, not only missed


def settled_alone(rng, searcher, alone, hands, extra, chance):
    """Give ``hands`` a random mover and, at ``chance``, a play of ``extra`` on the table,
    and check the position as :func:`agrees` does: None where the reference reads the
    play otherwise, else whether a search of its own (``alone``) settles it in one node."""
    players = len(hands)
    to_move = rng.randrange(players)
    table = owner = None
    if rng.random() < chance and ref.plays(extra):
        table = rng.choice(sorted(ref.plays(extra)))
        owner = rng.choice([p for p in range(players) if p != to_move])
    if not agrees(searcher, hands, to_move, table, owner):
        return None
    pos = make_position(hands, to_move, None if table is None else table[0], owner)
    alone.start(CLASSIC)
    alone.value(pos)
    return alone.stats.nodes == 1


def window_split(rng, sizes, lo, width):
    """Hands dealt from the ranks ``lo .. lo + width - 1`` (within 3..A) and the 2s:
    chains galore, with ranks that nobody holds in between once cards are played."""
    return random_split(rng, sizes, (*range(lo, min(lo + width, 12)), 12))


@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize("players", [2, 3])
def test_agrees_with_reference_on_chains_and_gaps(players, strategy):
    """Positions rich in chains, where squeezing unheld ranks out of the table key
    (which must keep chains broken where they are broken) matters most."""
    rng = random.Random(40 + players)
    searcher = make_searcher(strategy, 1)  # small: entries are replaced too
    checked = 0
    while checked < (150 if players == 2 else 100):
        sizes = [rng.randint(3, 7 if players == 2 else 5) for _ in range(players)]
        *hands, extra = window_split(rng, (*sizes, 6), rng.randint(0, 5), rng.randint(5, 8))
        to_move = rng.randrange(players)
        table = owner = None
        if rng.random() < 0.5:
            table = max(ref.plays(extra), key=lambda p: (p[3], sum(p[0])))  # chains first
            owner = rng.choice([p for p in range(players) if p != to_move])
        checked += agrees(searcher, hands, to_move, table, owner)


def table_key(spec):
    pos = parse_position(spec)
    hands = [pack(h) for h in pos.hands] + [0] * (4 - pos.players)
    meta = pos.table.meta if pos.table else 0
    owner = pos.owner if pos.table else 0
    return kernel_key(*hands, pos.to_move | owner << 2 | meta << 4, 1 << 16)


def test_table_key_squeezes_out_ranks_nobody_holds():
    """With a chain possible (the landlord's TJQKA, 9TJQK or 34567), the ranks nobody
    holds are dropped, but for one just above the chain's run."""
    # 4 and 6..9, or 4, 5 and 7..9, are held by nobody: one gap either way
    assert table_key("L=TJQKA3 P1=5") == table_key("L=TJQKA3 P1=6")
    # a run below the lowest rank held leaves nothing
    assert table_key("L=9TJQK P1=5") == table_key("L=9TJQK P1=4")
    # the 2 and the jokers keep their places, whatever is squeezed below them
    assert table_key("L=34567B P1=2") == table_key("L=45678B P1=2")
    assert table_key("L=34567B P1=2") != table_key("L=34567R P1=2")
    # the table play's rank moves with its run, or with its own rank
    assert table_key("L=34567 P1=Q TABLE=9@L TO=P1") == table_key("L=34567 P1=K TABLE=T@L TO=P1")
    assert table_key("L=34567 P1=Q TABLE=Q@L TO=P1") == table_key("L=34567 P1=K TABLE=K@L TO=P1")
    assert table_key("L=34567 P1=Q TABLE=2@L TO=P1") == table_key("L=34567 P1=K TABLE=2@L TO=P1")


def test_table_key_keeps_what_matters():
    # adjacent ranks can chain, ranks with a gap between cannot
    assert table_key("L=34567 P1=9") != table_key("L=34568 P1=9")
    assert table_key("L=34567 P1=8") != table_key("L=34567 P1=9")
    # a table play just below an answerer's rank differs from one equal to it; the
    # owner's ranks (he never answers his own play) do not part table plays
    assert table_key("L=5 P1=9 TABLE=8@L TO=P1") != table_key("L=5 P1=9 TABLE=9@L TO=P1")
    assert table_key("L=5 P1=9 TABLE=4@L TO=P1") == table_key("L=5 P1=9 TABLE=5@L TO=P1")
    assert table_key("L=5 P1=9 TABLE=4@P1 TO=L") != table_key("L=5 P1=9 TABLE=5@P1 TO=L")
    # so the owner's two cards that nobody else holds between are one card to the key
    assert table_key("L=4 P1=9 TABLE=5@L TO=P1") == table_key("L=5 P1=9 TABLE=4@L TO=P1")
    # who holds what, who moves, who owns the table
    assert table_key("L=3 P1=4") != table_key("L=4 P1=3")
    assert table_key("L=3 P1=4") != table_key("L=3 P1=4 TO=P1")
    assert table_key("L=3 P1=4 P2=5 TABLE=6@P1 TO=L") != table_key("L=3 P1=4 P2=5 TABLE=6@P2 TO=L")


def test_table_key_keeps_only_the_order_when_nobody_can_chain():
    # gaps do not matter, nor where the ranks are: the 2 is a rank like any other
    assert table_key("L=3 P1=4") == table_key("L=3 P1=5") == table_key("L=9 P1=2")
    assert table_key("L=344 P1=5") == table_key("L=3TT P1=A") == table_key("L=9QQ P1=2")
    # one player's counts of ranks nobody else holds, nor any rank between: swapped
    assert table_key("L=344 P1=5") == table_key("L=334 P1=5")
    assert table_key("L=355 P1=4") != table_key("L=335 P1=4")
    # ... unless a table play he may answer lies between them
    assert table_key("L=355 P1=K TABLE=4@P1 TO=L") != table_key("L=335 P1=K TABLE=4@P1 TO=L")
    assert table_key("L=355 P1=K TABLE=6@P1 TO=L") == table_key("L=335 P1=K TABLE=6@P1 TO=L")
    assert table_key("L=355 P1=K TABLE=4@L TO=P1") == table_key("L=335 P1=K TABLE=4@L TO=P1")
    # the order is kept, and the table play's rank keeps a place
    assert table_key("L=35 P1=4") != table_key("L=34 P1=5")
    assert table_key("L=35 P1=K TABLE=4@P1 TO=L") == table_key("L=36 P1=K TABLE=5@P1 TO=L")
    assert table_key("L=35 P1=K TABLE=4@P1 TO=L") != table_key("L=35 P1=K TABLE=6@P1 TO=L")
    assert table_key("L=35 P1=K TABLE=6@P1 TO=L") == table_key("L=35 P1=K TABLE=7@P1 TO=L")
    assert table_key("L=35 P1=K TABLE=2@P1 TO=L") == table_key("L=35 P1=A TABLE=2@P1 TO=L")
    assert table_key("L=35 P1=2 TABLE=2@L TO=P1") == table_key("L=35 P1=A TABLE=A@L TO=P1")
    # the jokers keep their own places
    assert table_key("L=3B P1=4") != table_key("L=3R P1=4")
    # a chain possible is another key altogether
    assert table_key("L=34567 P1=9") != table_key("L=34579 P1=9")


CHAIN_KINDS = {"chain", "pair-chain", "plane", "plane+singles", "plane+pairs"}
NAMES = ("L", "P1", "P2")


def chains_possible(hands):
    return any(p[1] in CHAIN_KINDS for h in hands for p in ref.plays(h))


def relabel(rng, hands, table):
    """``hands`` (with a single, pair, trio or bomb on the table) with the ranks 3..2
    that matter (those held, and the table play's) moved to other places in the same
    order: a position nobody can tell from it when no one can form a chain."""
    t = table[2] if table else None
    points = [r for r in range(13) if r == t or any(h[r] for h in hands)]
    places = dict(zip(points, sorted(rng.sample(range(13), len(points))), strict=True))
    out = []
    for h in hands:
        moved = [0] * 15
        for r in points:
            moved[places[r]] = h[r]
        out.append(tuple(moved[:13]) + tuple(h[13:]))
    if table is None:
        return out, None
    moved = [0] * 15
    moved[places[t]] = table[0][t]
    return out, tuple(moved)


def chainless_position(rng, most_two, most_three, kinds):
    """A random position of two or three players (hands of 2 to ``most_two`` or
    ``most_three`` cards) where nobody can form a chain, half the time with a play of
    ``kinds`` from the cards left over on the table: (hands, to move, table, owner), or
    None when the draw does not serve."""
    players = rng.choice([2, 3])
    sizes = [rng.randint(2, most_two if players == 2 else most_three) for _ in range(players)]
    *hands, extra = random_split(rng, (*sizes, 4))
    if chains_possible(hands):
        return None
    to_move = rng.randrange(players)
    table = owner = None
    if rng.random() < 0.5:
        simple = [p for p in ref.plays(extra) if p[1] in kinds and p[2] <= 12]
        if not simple:
            return None
        table = rng.choice(sorted(simple))
        owner = rng.choice([p for p in range(players) if p != to_move])
    return hands, to_move, table, owner


def test_positions_that_differ_only_in_the_order_of_ranks_share_key_and_value():
    """The reference minimax (which knows nothing of keys) gives positions related by
    :func:`relabel` the same value, and the table gives them the same key."""
    rng = random.Random(11)
    done = 0
    while done < 80:
        drawn = chainless_position(rng, 6, 4, ("single", "pair", "trio", "bomb"))
        if drawn is None:
            continue
        hands, to_move, table, owner = drawn
        other, moved = relabel(rng, hands, table)
        if chains_possible(other):  # ranks moved next to each other
            continue
        tables = (None if table is None else table[0], moved)
        specs = []
        for hs, cards in zip((hands, other), tables, strict=True):
            spec = " ".join(f"{n}={format_hand(h)}" for n, h in zip(NAMES, hs, strict=False))
            spec += f" TO={NAMES[to_move]}"
            if cards is not None:
                spec += f" TABLE={format_hand(cards)}@{NAMES[owner]}"
            specs.append(spec)
        assert table_key(specs[0]) == table_key(specs[1]), specs
        plays = (table, None if moved is None else ref.readings(moved)[0])
        pairs = zip((hands, other), plays, strict=True)
        values = {ref.minimax(hs, to_move, tab, owner) for hs, tab in pairs}
        assert len(values) == 1, specs
        want = WIN if values.pop() else LOSS
        assert Searcher(memory_mb=1).value(parse_position(specs[1])) == want, specs
        done += 1


def test_widened_gaps_share_key_and_value():
    """Widen a run of ranks nobody holds by one rank (every chain rank above it moves up):
    the same key, and the same value from a fresh table."""
    rng = random.Random(7)
    done = 0
    while done < 60:
        players = rng.choice([2, 3])
        sizes = [rng.randint(3, 7 if players == 2 else 5) for _ in range(players)]
        hands = window_split(rng, sizes, rng.randint(0, 3), rng.randint(6, 8))
        held = [any(h[r] for h in hands) for r in range(12)]
        gaps = [r for r in range(11) if not held[r] and (r == 0 or held[r - 1])]
        if held[11] or not gaps:
            continue
        at = rng.choice(gaps)
        wide = [h[:at] + (0,) + h[at:11] + h[12:] for h in hands]
        specs = [
            " ".join(f"{n}={format_hand(h)}" for n, h in zip(("L", "P1", "P2"), hs, strict=False))
            for hs in (hands, wide)
        ]
        assert table_key(specs[0]) == table_key(specs[1]), specs
        values = {Searcher(memory_mb=1).value(parse_position(spec)) for spec in specs}
        assert len(values) == 1, specs
        done += 1


def spec_of(hands, to_move, table, owner):
    spec = " ".join(f"{n}={format_hand(h)}" for n, h in zip(NAMES, hands, strict=False))
    spec += f" TO={NAMES[to_move]}"
    return spec + (f" TABLE={format_hand(table[0])}@{NAMES[owner]}" if table else "")


def test_counts_swapped_within_a_lone_run_share_key_and_value():
    """Swap the counts of two ranks one player holds: when nobody else holds either or a
    rank between, and the table play (if he may answer it) does not lie between them,
    the key is the same; and whenever the key is the same, so is the reference's
    value."""
    rng = random.Random(13)
    same = differ = 0
    while same < 60 or differ < 30:
        drawn = chainless_position(rng, 7, 5, ("single", "pair", "trio"))
        if drawn is None:
            continue
        hands, to_move, table, owner = drawn
        players = len(hands)
        who = rng.randrange(players)
        mine = [r for r in range(13) if hands[who][r]]
        if len(mine) < 2:
            continue
        r, s = sorted(rng.sample(mine, 2))
        if hands[who][r] == hands[who][s]:
            continue
        swapped = list(hands[who])
        swapped[r], swapped[s] = swapped[s], swapped[r]
        other = [tuple(swapped) if p == who else h for p, h in enumerate(hands)]
        on_table = table[0] if table else (0,) * 15
        if any(sum(h[q] for h in other) + on_table[q] > 4 for q in (r, s)):
            continue  # more of a rank than the deck has
        others = [h for p, h in enumerate(hands) if p != who]
        lone = not any(h[q] for h in others for q in range(r, s + 1))
        parted = table is not None and owner != who and r <= table[2] < s
        keys = [table_key(spec_of(hs, to_move, table, owner)) for hs in (hands, other)]
        assert (keys[0] == keys[1]) == (lone and not parted), (hands, other, table, owner)
        if keys[0] == keys[1]:
            values = {ref.minimax(hs, to_move, table, owner) for hs in (hands, other)}
            assert len(values) == 1, (hands, other, table, owner)
            same += 1
        else:
            differ += 1


def test_three_players_peasants_cooperate():
    # peasant 1 must lead the 5, keeping the J: the landlord then has to spend a card
    pos = parse_position("L=792 P1=5J P2=34 TO=P1")
    result = solve_win(Searcher(memory_mb=4), pos, all_moves=True)
    assert result.value == LOSS
    replay(pos, result.line, result.value)
    outcomes = {step.text: v for step, v, _ in result.first_moves}
    assert outcomes == {"5": LOSS, "J": WIN}


def test_deterministic_nodes_and_lines():
    pos = parse_position("L=45569TKA2 P1=4588TJKB")
    runs = [solve_win(Searcher(memory_mb=8), pos) for _ in range(2)]
    again = Searcher(memory_mb=8)
    solve_win(again, parse_position("L=3455KK P1=345522"))  # the table held other things
    runs.append(solve_win(again, pos))
    assert len({r.stats.nodes for r in runs}) == 1
    assert len({tuple(map(str, r.line)) for r in runs}) == 1


def test_no_question_inherits_the_winning_moves_another_remembered():
    pos = parse_position("L=3568899JQQA P1=33459TJJQK2")
    fresh = solve_win(Searcher(memory_mb=8), pos).stats.nodes
    busy = Searcher(memory_mb=8)
    solve_win(busy, pos)
    assert busy.buffers.winners[WINNER_SLOTS:].any()  # the depth-first search's memo
    assert solve_win(busy, pos).stats.nodes == fresh


def test_old_entries_never_count_even_after_the_table_is_wiped():
    pos = parse_position("L=3455KK P1=345522")
    fresh = solve_win(Searcher(memory_mb=1), pos).stats.nodes
    busy = Searcher(memory_mb=1)
    solve_win(busy, pos)  # question 1, whose entries stay in the table
    busy._generation = GENERATIONS - 1  # the questions' numbers about to run out
    solve_win(busy, parse_position("L=3 P1=4"))  # the last number, other entries
    # numbered 1 again: but for the wipe, question 1's entries would settle it at once
    assert solve_win(busy, pos).stats.nodes == fresh


def test_a_new_table_is_zeroed_and_starts_on_a_huge_page():
    tt = new_table(8, touched=0)
    assert tt.shape == (table_entries(8), ENTRY_WORDS)
    assert not tt.any()
    if hasattr(mmap, "MADV_HUGEPAGE"):  # (where the system has them)
        assert tt.ctypes.data % HUGE_PAGE == 0
    with pytest.raises(MemoryError):
        new_table(1 << 40)


def test_a_grown_table_finds_every_entry_it_held():
    """Doubling the rows in use moves each entry of the question to the bucket its key
    names among twice as many rows; other questions' entries stay where they are."""
    rng = random.Random(5)
    tt = new_table(1)
    half = tt.shape[0] // 2
    positions = [[pack(h) for h in random_split(rng, (6, 5, 5))] for _ in range(3 * half // 2)]
    for n, (h0, h1, h2) in enumerate(positions):  # more than half fit: some are replaced
        store(kernel_key(h0, h1, h2, 0, n % 3, half), n % 2, n, tt, 1 + n % 2)
    held = [
        (n, p)
        for n, p in enumerate(positions)
        if probe(kernel_key(*p, 0, n % 3, half), tt, 1 + n % 2) == n % 2
    ]
    assert 0 < len(held) < len(positions)
    grow(tt, half, 2)  # question 2's entries move; question 1's stay
    for n, (h0, h1, h2) in held:
        if n % 2:  # question 2
            assert probe(kernel_key(h0, h1, h2, 0, n % 3, 2 * half), tt, 2) == 1
        else:
            assert probe(kernel_key(h0, h1, h2, 0, n % 3, half), tt, 1) == 0


def test_a_search_that_outgrows_its_table_rows_doubles_them():
    pos = parse_position("L=44567789JK2R P1=457TQKKKA2 P2=6999TQA22B")  # 250-350 k nodes
    fixed = solve_win(Searcher(memory_mb=0.25), pos)
    grown = [Searcher(memory_mb=1, start_mb=0.25) for _ in range(2)]
    results = [solve_win(s, pos) for s in grown]
    assert grown[0].table_rows == 4 * Searcher(memory_mb=0.25).table_rows  # grown twice
    assert {r.value for r in results} == {fixed.value}
    assert len({(r.stats.nodes, tuple(map(str, r.line))) for r in results}) == 1
    assert results[0].stats.nodes < fixed.stats.nodes  # (260 k against 350 k)
    replay(pos, results[0].line, results[0].value)
    solve_win(grown[0], parse_position("L=3455KK P1=345522"))  # a new question starts small
    assert grown[0].table_rows == Searcher(memory_mb=0.25).table_rows


def test_limits_give_unknown_not_a_wrong_answer():
    pos = parse_position("L=3568899JQQA P1=33459TJJQK2")
    result = solve_win(Searcher(memory_mb=4, node_limit=500), pos)
    assert result.value == UNKNOWN and result.answer is None
    assert result.stats.aborted == "node limit"
    result = solve_win(Searcher(memory_mb=4, time_limit=1e-4), pos)
    assert result.value == UNKNOWN and result.stats.aborted == "time limit"


@pytest.mark.parametrize(
    "spec, what",
    [
        ("L=3 P1=4 TABLE=34@P1", "not a legal combination"),
        ("L=3 P1=4 TABLE=5@L", "owns the table play and is also to move"),
        ("L=3 P1=4 TABLE=5", "needs the play and its owner"),
        ("L=3 P1=3333", "5 x 3"),
        ("L=3 P1=4 TABLE=3333@P1", "5 x 3"),
        ("L=3 P1=4 TO=P2", "unknown player .P2.: expected one of L, P1"),
        ("L=3 P1=", "hand is empty"),
        ("L=3 Q=4", "unexpected 'Q=4'"),
    ],
)
def test_bad_positions(spec, what):
    with pytest.raises(LandlordError, match=what):
        parse_position(spec)
