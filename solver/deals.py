"""Deals: random ones, reproducible from a seed on every platform and Python version, and
deals before the auction (three hands of 17 and the kitty), read from the command line or
from files of ``[[deal]]`` tables::

    [[deal]]
    name = "seed 1 deal 1"
    hands = ["17 cards", "17 cards", "17 cards"]   # seats 1, 2, 3 in turn order
    kitty = "3 cards"

Reading is all validation: a deal that loads holds the whole deck, 17/17/17 + 3.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace

from .cards import CLASSIC_DECK, LETTERS, NUM_RANKS, Hand, format_hand, parse_hand
from .contest import DEAL_SIZES
from .errors import CardError, InputFileError, WholeFileError, quoted
from .tomlfile import read_toml

#: The classic deck, one entry (a rank) a card: what is shuffled.
DECK = [r for r, n in enumerate(CLASSIC_DECK) for _ in range(n)]


def cut(order: Sequence[int], sizes: Sequence[int]) -> list[Hand]:
    """Hands of the given sizes dealt from the top of a shuffled deck of ranks."""
    hands = []
    at = 0
    for size in sizes:
        counts = [0] * NUM_RANKS
        for r in order[at : at + size]:
            counts[r] += 1
        hands.append(tuple(counts))
        at += size
    return hands


def random_deals(seed: int, count: int, strength: float = 0.0) -> list[tuple[Hand, Hand, Hand]]:
    """``count`` deals at once (see :func:`iter_deals`)."""
    return list(iter_deals(seed, count, strength))


def _orders(seed: int, count: int, strength: float) -> Iterator[list[int]]:
    """Shuffled decks, one a deal: see :func:`iter_deals`."""
    rng = random.Random(seed)
    deck = list(DECK)
    weights = [round(1e6 * math.exp(strength * r)) for r in range(NUM_RANKS)]
    for _ in range(count):
        rng.shuffle(deck)
        if strength:
            pool = list(deck)
            landlord = []
            for _ in range(DEAL_SIZES[0]):
                i = rng.choices(range(len(pool)), weights=[weights[r] for r in pool])[0]
                landlord.append(pool.pop(i))
            yield landlord + pool
        else:
            yield deck


def iter_deals(seed: int, count: int, strength: float = 0.0) -> Iterator[tuple[Hand, Hand, Hand]]:
    """``count`` deals, each made as it is asked for: the landlord's 20 cards, then both
    peasants' 17.

    With ``strength`` 0 the deck is shuffled uniformly. A positive ``strength`` draws the
    landlord's cards one by one with weight ``exp(strength * rank)``, leaning his hand to
    high cards: about half of the deals at 0.3 are springs, against 3% of uniform ones.
    ``random.Random`` is used because its stream for a given seed is stable across Python
    versions, so a seed names the same deals everywhere.
    """
    for order in _orders(seed, count, strength):
        landlord_hand, p1, p2 = cut(order, DEAL_SIZES)
        yield landlord_hand, p1, p2


def iter_open_deals(seed: int, count: int, strength: float = 0.0) -> Iterator[Deal]:
    """The same deals before the auction: seat 1's 17 cards and the kitty are the
    landlord's 20 of :func:`iter_deals`, seats 2 and 3 the peasants' hands; so seat 1's
    row of a deal's table answers the deal :func:`iter_deals` gives."""
    for k, order in enumerate(_orders(seed, count, strength), 1):
        s1, kitty, s2, s3 = cut(order, (17, 3, 17, 17))
        yield Deal(f"seed {seed} deal {k}", (s1, s2, s3), kitty)


@dataclass(frozen=True)
class Deal:
    """A deal before the auction: the three seats' hands in turn order, and the kitty."""

    name: str
    hands: tuple[Hand, Hand, Hand]
    kitty: Hand
    file: str = ""
    line: int = 0

    def landlord_hands(self, seat: int) -> list[Hand]:
        """The hands in turn order when ``seat`` (0, 1 or 2) is the landlord: his own with
        the kitty, then the two seats after him (peasant 1 and peasant 2)."""
        own = tuple(a + b for a, b in zip(self.hands[seat], self.kitty, strict=True))
        return [own, self.hands[(seat + 1) % 3], self.hands[(seat + 2) % 3]]

    def describe(self) -> str:
        """The deal as the command line reads it."""
        seats = " ".join(f"S{i}={format_hand(h)}" for i, h in enumerate(self.hands, 1))
        return f"{seats} KITTY={format_hand(self.kitty)}"


SEAT_KEYS = ("S1", "S2", "S3", "KITTY")
OPEN_SIZES = (17, 17, 17, 3)


def make_deal(name: str, hands: list[str], kitty: str, file: str = "", line: int = 0) -> Deal:
    """A deal from its hands in the notation, validated: 17/17/17 + 3, the whole deck."""
    parsed = []
    for key, text, size in zip(SEAT_KEYS, [*hands, kitty], OPEN_SIZES, strict=True):
        hand = parse_hand(text)
        if sum(hand) != size:
            cards = f"{sum(hand)} card{'s' * (sum(hand) != 1)}"
            raise CardError(f"{key} {quoted(text)} has {cards}, expected {size}")
        parsed.append(hand)
    total = [sum(h[r] for h in parsed) for r in range(NUM_RANKS)]
    for r, n in enumerate(total):
        if n != CLASSIC_DECK[r]:
            raise CardError(
                f"the deal holds {n} x {LETTERS[r]}: a deal is the whole deck, "
                f"{CLASSIC_DECK[r]} of each"
            )
    return Deal(name, (parsed[0], parsed[1], parsed[2]), parsed[3], file, line)


def parse_deal(spec: str) -> Deal:
    """Read ``S1=... S2=... S3=... KITTY=...``."""
    fields: dict[str, str] = {}
    for token in spec.split():
        key, sep, value = token.partition("=")
        key = key.upper()
        if not sep or key not in SEAT_KEYS:
            raise CardError(
                f"deal {quoted(spec)}: unexpected {quoted(token)}; expected S1=, S2=, S3= "
                "and KITTY="
            )
        if key in fields:
            raise CardError(f"deal {quoted(spec)}: {key}= is given twice")
        fields[key] = value
    missing = [k for k in SEAT_KEYS if k not in fields]
    if missing:
        raise CardError(f"deal {quoted(spec)}: needs {', '.join(k + '=' for k in missing)}")
    try:
        deal = make_deal("", [fields["S1"], fields["S2"], fields["S3"]], fields["KITTY"])
        return replace(deal, name=deal.describe())  # named as the command line writes it
    except CardError as e:
        raise CardError(f"deal {quoted(spec)}: {e}") from None


def load_deals(raw: bytes, source: str) -> list[Deal | InputFileError]:
    """Every deal of a file of ``[[deal]]`` tables, or the error that spoils it; one bad
    deal spoils only itself."""
    try:
        doc, text = read_toml(raw, source, "deal file")
    except WholeFileError as e:
        return [e]
    tables = doc.get("deal")
    if not isinstance(tables, list) or not tables or not all(isinstance(t, dict) for t in tables):
        return [WholeFileError(f"{source}: expected [[deal]] tables")]
    starts = [i for i, ln in enumerate(text.splitlines(), 1) if ln.strip() == "[[deal]]"]
    if len(starts) != len(tables):
        starts = [1] * len(tables)
    out: list[Deal | InputFileError] = []
    for k, (table, line) in enumerate(zip(tables, starts, strict=True), 1):
        name = table.get("name", f"deal #{k}")
        where = f"{source}, line {line}, deal {quoted(str(name))}"
        try:
            unknown = [key for key in table if key not in ("name", "hands", "kitty")]
            if unknown:
                raise CardError(f"unknown key {quoted(unknown[0])}: expected name, hands, kitty")
            hands, kitty = table.get("hands"), table.get("kitty")
            if not isinstance(name, str) or not name.isprintable():
                raise CardError("'name' must be a string of printable characters")
            if not (isinstance(hands, list) and len(hands) == 3):
                raise CardError("'hands' must list the three seats' hands")
            if not all(isinstance(h, str) for h in [*hands, kitty]):
                raise CardError("'hands' and 'kitty' must be strings of cards")
            out.append(make_deal(name, hands, kitty, source, line))
        except CardError as e:
            out.append(InputFileError(f"{where}: {e}"))
    return out


def deals_toml(deals: Iterable[Deal]) -> Iterator[str]:
    """Deals in the file format, one ``[[deal]]`` table each (the inverse of
    :func:`load_deals`); a JSON string is a TOML basic string."""
    for d in deals:
        hands = ", ".join(json.dumps(format_hand(h)) for h in d.hands)
        yield (
            f"[[deal]]\nname = {json.dumps(d.name)}\nhands = [{hands}]\n"
            f"kitty = {json.dumps(format_hand(d.kitty))}\n"
        )
