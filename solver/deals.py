"""Deals: random ones, reproducible from a seed on every platform and Python version, and
deals before the auction (three hands of 17 and the kitty), read from the command line or
from files of ``[[deal]]`` tables::

    [[deal]]
    name = "seed 1 deal 1"
    hands = ["17 cards", "17 cards", "17 cards"]   # seats 1, 2, 3 in turn order
    kitty = "3 cards"

Reading is all validation: a deal that loads holds the whole deck, 17/17/17 + 3. The
four-player game's deals are four hands of 25 and a kitty of 8, from two decks; such a
table says ``rules = "four-player"`` (or the reader is told the game).
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace

from .cards import LETTERS, NUM_RANKS, Hand, format_hand, parse_hand
from .contest import deal_sizes
from .errors import CardError, InputFileError, RuleError, WholeFileError, quoted
from .rules import CLASSIC, RuleSet, rule_set
from .tomlfile import read_toml, stray_key


def deck_cards(rules: RuleSet) -> list[int]:
    """A game's deck, one entry (a rank) a card: what is shuffled."""
    return [r for r, n in enumerate(rules.deck) for _ in range(n)]


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


def random_deals(
    seed: int, count: int, strength: float = 0.0, rules: RuleSet = CLASSIC
) -> list[list[Hand]]:
    """``count`` deals at once (see :func:`iter_deals`)."""
    return list(iter_deals(seed, count, strength, rules))


def _orders(seed: int, count: int, strength: float, rules: RuleSet) -> Iterator[list[int]]:
    """Shuffled decks, one a deal: see :func:`iter_deals`."""
    rng = random.Random(seed)
    deck = deck_cards(rules)
    weights = [round(1e6 * math.exp(strength * r)) for r in range(NUM_RANKS)]
    for _ in range(count):
        rng.shuffle(deck)
        if strength:
            pool = list(deck)
            landlord = []
            for _ in range(rules.landlord_cards):
                i = rng.choices(range(len(pool)), weights=[weights[r] for r in pool])[0]
                landlord.append(pool.pop(i))
            yield landlord + pool
        else:
            yield deck


def iter_deals(
    seed: int, count: int, strength: float = 0.0, rules: RuleSet = CLASSIC
) -> Iterator[list[Hand]]:
    """``count`` deals, each made as it is asked for: the landlord's 20 cards, then both
    peasants' 17 (four-player: 33, then three peasants' 25).

    With ``strength`` 0 the deck is shuffled uniformly. A positive ``strength`` draws the
    landlord's cards one by one with weight ``exp(strength * rank)``, leaning his hand to
    high cards: about half of the deals at 0.3 are springs, against 3% of uniform ones.
    ``random.Random`` is used because its stream for a given seed is stable across Python
    versions, so a seed names the same deals everywhere.
    """
    for order in _orders(seed, count, strength, rules):
        yield cut(order, deal_sizes(rules))


def iter_open_deals(
    seed: int, count: int, strength: float = 0.0, rules: RuleSet = CLASSIC
) -> Iterator[Deal]:
    """The same deals before the auction: seat 1's cards and the kitty are the
    landlord's of :func:`iter_deals`, the other seats the peasants' hands; so seat 1's
    row of a deal's table answers the deal :func:`iter_deals` gives."""
    first, *others = rules.deal
    for k, order in enumerate(_orders(seed, count, strength, rules), 1):
        s1, kitty, *rest = cut(order, (first, rules.kitty, *others))
        yield Deal(deal_name(seed, k, strength), (s1, *rest), kitty, rules=rules)


def deal_name(seed: int, k: int, strength: float = 0.0) -> str:
    """The name of the ``k``-th deal of a seed: the strength too when it leans the deal,
    so that two files of one seed never give different deals one name."""
    lean = f" strength {strength:g}" if strength else ""
    return f"seed {seed}{lean} deal {k}"


@dataclass(frozen=True)
class Deal:
    """A deal before the auction: the seats' hands in turn order, and the kitty."""

    name: str
    hands: tuple[Hand, ...]
    kitty: Hand
    file: str = ""
    line: int = 0
    rules: RuleSet = CLASSIC

    def landlord_hands(self, seat: int) -> list[Hand]:
        """The hands in turn order when ``seat`` (0, 1, ...) is the landlord: his own with
        the kitty, then the seats after him (peasant 1, peasant 2, ...)."""
        own = tuple(a + b for a, b in zip(self.hands[seat], self.kitty, strict=True))
        seats = len(self.hands)
        return [own, *(self.hands[(seat + k) % seats] for k in range(1, seats))]

    def describe(self) -> str:
        """The deal as the command line reads it."""
        seats = " ".join(f"S{i}={format_hand(h)}" for i, h in enumerate(self.hands, 1))
        game = f" RULES={self.rules.name}" if self.rules != CLASSIC else ""
        return f"{seats} KITTY={format_hand(self.kitty)}{game}"


def seat_keys(rules: RuleSet) -> tuple[str, ...]:
    """The keys of a deal on the command line: S1=, S2=, ... and KITTY=."""
    return (*(f"S{i}" for i in range(1, rules.players + 1)), "KITTY")


def make_deal(
    name: str,
    hands: list[str],
    kitty: str,
    file: str = "",
    line: int = 0,
    rules: RuleSet = CLASSIC,
) -> Deal:
    """A deal from its hands in the notation, validated: 17/17/17 + 3 (25/25/25/25 + 8
    for four players), the whole deck."""
    parsed = []
    sizes = (*rules.deal, rules.kitty)
    for key, text, size in zip(seat_keys(rules), [*hands, kitty], sizes, strict=True):
        hand = parse_hand(text)
        if sum(hand) != size:
            cards = f"{sum(hand)} card{'s' * (sum(hand) != 1)}"
            raise CardError(f"{key} {quoted(text)} has {cards}, expected {size}")
        parsed.append(hand)
    total = [sum(h[r] for h in parsed) for r in range(NUM_RANKS)]
    r = max(range(NUM_RANKS), key=lambda r: total[r] - rules.deck[r])  # a card dealt twice
    if total[r] != rules.deck[r]:  # (the sizes add up: a card missing means one twice)
        raise CardError(
            f"the deal holds {total[r]} x {LETTERS[r]}: a deal is the whole deck, "
            f"{rules.deck[r]} of each"
        )
    return Deal(name, tuple(parsed[:-1]), parsed[-1], file, line, rules)


def parse_deal(spec: str, rules: RuleSet = CLASSIC) -> Deal:
    """Read ``S1=... S2=... S3=... KITTY=...`` (and ``S4=`` for four players; a
    ``RULES=`` token names the game instead of ``rules``)."""
    for token in spec.split():
        key, sep, value = token.partition("=")
        if sep and key.upper() == "RULES":
            try:
                rules = rule_set(value.lower())
            except RuleError as e:
                raise CardError(f"deal {quoted(spec)}: {e}") from None
    keys = seat_keys(rules)
    fields: dict[str, str] = {}
    for token in spec.split():
        key, sep, value = token.partition("=")
        key = key.upper()
        if key == "RULES" and sep:
            continue
        if not sep or key not in keys:
            raise CardError(
                f"deal {quoted(spec)}: unexpected {quoted(token)}; expected "
                f"{', '.join(k + '=' for k in keys)} (and RULES=)"
            )
        if key in fields:
            raise CardError(f"deal {quoted(spec)}: {key}= is given twice")
        fields[key] = value
    missing = [k for k in keys if k not in fields]
    if missing:
        raise CardError(f"deal {quoted(spec)}: needs {', '.join(k + '=' for k in missing)}")
    try:
        deal = make_deal("", [fields[k] for k in keys[:-1]], fields["KITTY"], rules=rules)
        return replace(deal, name=deal.describe())  # named as the command line writes it
    except CardError as e:
        raise CardError(f"deal {quoted(spec)}: {e}") from None


#: The keys of a deal's words (seat keys of every game, the kitty's, the game's).
DEAL_KEYS = ("S1", "S2", "S3", "S4", "KITTY", "RULES")


def deal_arguments(words: tuple[str, ...] | list[str]) -> list[str]:
    """The command line's arguments with each deal typed without quotes (``S1=...
    S2=... S3=... KITTY=...`` as separate words) joined into one: a run of single
    ``KEY=`` words makes one deal, a key met again starts the next. Other arguments
    (files, quoted deals) pass as they are."""
    joined: list[str] = []
    keys: set[str] = set()  # those of the run being joined (empty: none is)
    for word in words:
        key, sep, _ = word.partition("=")
        key = key.upper()
        if not sep or key not in DEAL_KEYS or len(word.split()) != 1:
            joined.append(word)
            keys = set()
        elif keys and key not in keys:
            joined[-1] += " " + word
            keys.add(key)
        else:
            joined.append(word)
            keys = {key}
    return joined


def load_deals(raw: bytes, source: str, rules: RuleSet = CLASSIC) -> list[Deal | InputFileError]:
    """Every deal of a file of ``[[deal]]`` tables, or the error that spoils it; one bad
    deal spoils only itself."""
    try:
        doc, text = read_toml(raw, source, "deal file")
    except WholeFileError as e:
        return [e]
    lines = text.splitlines()
    tables = doc.get("deal")
    if not isinstance(tables, list) or not tables or not all(isinstance(t, dict) for t in tables):
        hint = "; puzzles go to `landlord solve`" if "puzzle" in doc else ""
        return [WholeFileError(f"{source}: no deal in the file (expected [[deal]] tables{hint})")]
    stray = [k for k in doc if k != "deal"]
    if stray:
        return [stray_key(lines, source, stray[0], "deal")]
    starts = [i for i, ln in enumerate(lines, 1) if ln.strip() == "[[deal]]"]
    if len(starts) != len(tables):
        starts = [1] * len(tables)
    out: list[Deal | InputFileError] = []
    for k, (table, line) in enumerate(zip(tables, starts, strict=True), 1):
        name = table.get("name", f"deal #{k}")
        where = f"{source}, line {line}, deal {quoted(str(name))}"
        try:
            unknown = [key for key in table if key not in ("name", "hands", "kitty", "rules")]
            if unknown:
                raise CardError(
                    f"unknown key {quoted(unknown[0])}: expected name, hands, kitty, rules"
                )
            game = rule_set(table["rules"]) if "rules" in table else rules
            hands, kitty = table.get("hands"), table.get("kitty")
            if not isinstance(name, str) or not name.isprintable():
                raise CardError("'name' must be a string of printable characters")
            for key in ("hands", "kitty"):
                if key not in table:
                    raise CardError(f"no {quoted(key)}: a deal needs hands and kitty")
            if not (isinstance(hands, list) and len(hands) == game.players):
                seats = {3: "three", 4: "four"}[game.players]
                other = ""
                if "rules" not in table:  # the run's game: --rules, else classic
                    other = (
                        ' (a deal of another game says so: rules = "four-player")'
                        if game.name == "classic"
                        else f" (the game --rules {game.name} names; a classic deal says "
                        'so: rules = "classic")'
                    )
                raise CardError(
                    f"'hands' must list the {seats} seats' hands of the {game.name} game{other}"
                )
            if not all(isinstance(h, str) for h in hands):
                raise CardError("'hands' must list strings of cards")
            if not isinstance(kitty, str):
                raise CardError("'kitty' must be a string of cards")
            out.append(make_deal(name, hands, kitty, source, line, game))
        except (CardError, RuleError) as e:
            out.append(InputFileError(f"{where}: {e}"))
    return out


def deals_toml(deals: Iterable[Deal]) -> Iterator[str]:
    """Deals in the file format, one ``[[deal]]`` table each (the inverse of
    :func:`load_deals`); a JSON string is a TOML basic string."""
    for d in deals:
        hands = ", ".join(json.dumps(format_hand(h)) for h in d.hands)
        game = f"rules = {json.dumps(d.rules.name)}\n" if d.rules != CLASSIC else ""
        yield (
            f"[[deal]]\nname = {json.dumps(d.name)}\n{game}hands = [{hands}]\n"
            f"kitty = {json.dumps(format_hand(d.kitty))}\n"
        )
