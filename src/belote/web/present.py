"""How the web app shows the game: hands sorted for a person, declarations as a
table says them, hand results, and Spanish card names for the moroccan profile.

Everything here is a pure function of engine values; the JSON it builds holds
cards by their canonical names (``JH``, ``TS``) only, the browser drawing them
with French or Spanish faces (docs/rules.md §1.2).

>>> from belote.cards import HEARTS, mask_of, parse_card
>>> sort_hand(mask_of(parse_card(c) for c in "7S JH AS 9H TD 8C".split()), HEARTS)
['JH', '9H', 'AS', '7S', 'TD', '8C']
>>> spanish_message("trick 3: W may not play 7C: must overtrump (§6.3c)")
'trick 3: W may not play 4 de bastos: must overtrump (§6.3c)'
>>> symbol_message("trick 3: W may not play TC: must overtrump (§6.3c)")
'trick 3: W may not play 10♣: must overtrump (§6.3c)'
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from typing import Any, Final

from belote.cards import (
    ALL_TRUMP,
    NO_TRUMP,
    PLAIN_ORDER,
    SUIT_MASKS,
    TRUMP_ORDER,
    Card,
    CardMask,
    TrumpMode,
    card_name,
    card_symbol,
    parse_card,
    scan_forward,
    spanish_name,
    trump_name,
)
from belote.declarations import CARRE, Declaration
from belote.hand import Contract, HandResult
from belote.play import SEAT_NAMES, TEAM_NAMES, Trick
from belote.round import Announced

# Suits laid out so that colours alternate: spades, hearts, clubs, diamonds.
_ALTERNATING: Final = (0, 1, 3, 2)
_RED: Final = (False, True, True, False)  # ♠ ♥ ♦ ♣
ALL_SUITS_MASK: Final = (1 << 32) - 1
_CARD_CODE: Final = re.compile(r"\b([789TJQKA][SHDC])\b")


def seat_name(seat: int) -> str:
    return SEAT_NAMES[seat]


def parse_seat(text: object, players: int = 4) -> int:
    """``"N"`` → 0 … ``"W"`` → 3 (N, E, S with three players, N, E with two, §12);
    anything else raises :class:`ValueError`."""
    names = SEAT_NAMES[:players]
    if isinstance(text, str) and len(text.strip()) == 1 and text.strip().upper() in names:
        return names.index(text.strip().upper())
    listed = ", ".join(names[:-1]) + " or " + names[-1]
    where = "" if players == 4 else f" at a table of {players}"
    raise ValueError(f"not a seat: {text!r} ({listed}{where})")


def _strength(c: Card, trump: TrumpMode | None) -> int:
    suit = c >> 3
    if trump is not None and (suit == trump or trump == ALL_TRUMP):
        return TRUMP_ORDER[c & 7]
    return PLAIN_ORDER[c & 7]


def suit_order(trump: TrumpMode | None, present: CardMask = ALL_SUITS_MASK) -> list[int]:
    """Suits from left to right: the trump first, then the suits held so that
    colours alternate as far as they can (♠ ♥ ♣ ♦ when all four are there)."""
    held = [s for s in _ALTERNATING if present & SUIT_MASKS[s]]
    lead = [trump] if trump is not None and trump < NO_TRUMP and trump in held else []
    rest = [s for s in held if s not in lead]

    def clashes(order: tuple[int, ...]) -> int:
        seq = [*lead, *order]
        return sum(1 for a, b in itertools.pairwise(seq) if _RED[a] == _RED[b])

    best = min(itertools.permutations(rest), key=clashes) if rest else ()
    out = [*lead, *best]
    return out + [s for s in _ALTERNATING if s not in out]


def sort_hand(hand: CardMask, trump: TrumpMode | None) -> list[str]:
    """A hand as a player holds it: grouped by suit (trump first), strongest first."""
    order = suit_order(trump, hand)
    cards = sorted(
        scan_forward(hand),
        key=lambda c: (order.index(c >> 3), -_strength(c, trump)),
    )
    return [card_name(c) for c in cards]


def spanish_message(text: str) -> str:
    """An engine message with each card named the Spanish way (docs/rules.md §1.2)."""
    return _CARD_CODE.sub(lambda m: spanish_name(parse_card(m.group(1))), text)


def symbol_message(text: str) -> str:
    """An engine message with each card written for people: ``10♥``, ``A♣``."""
    return _CARD_CODE.sub(lambda m: card_symbol(parse_card(m.group(1))), text)


def announced_type(d: Announced) -> str:
    """What the table hears at trick 1: the kind only (§7.4), never the cards."""
    return "carré" if d.kind == CARRE else d.name


def declaration_json(d: Declaration) -> dict[str, Any]:
    """A declaration once it may be seen: its name, cards and points."""
    return {"name": d.name, "cards": d.card_names(), "points": d.points}


def trick_json(trick: Trick, players: int = 4) -> dict[str, Any]:
    """A completed trick; ``players`` is 4, or 3 and 2 at the small tables (§12)."""
    return {
        "leader": SEAT_NAMES[trick.leader],
        "cards": [
            {"seat": SEAT_NAMES[(trick.leader + i) % players], "card": card_name(c)}
            for i, c in enumerate(trick.cards)
        ],
        "winner": SEAT_NAMES[trick.winner],
        "points": trick.points,
    }


def current_trick_json(leader: int, cards: Sequence[Card], players: int = 4) -> dict[str, Any]:
    return {
        "leader": SEAT_NAMES[leader],
        "cards": [
            {"seat": SEAT_NAMES[(leader + i) % players], "card": card_name(c)}
            for i, c in enumerate(cards)
        ],
    }


def trump_text(mode: TrumpMode | None) -> str | None:
    return None if mode is None else trump_name(mode)


def result_json(result: HandResult) -> dict[str, Any]:
    """A finished hand, everything public by then: contract, points, outcome, score."""
    decl = result.declarations
    return {
        "contract": result.contract.to_json(),
        "trick_points": dict(zip(TEAM_NAMES, result.trick_points, strict=True)),
        "declarations": dict(zip(TEAM_NAMES, decl.points, strict=True)),
        "declarations_winner": None if decl.winner is None else TEAM_NAMES[decl.winner],
        "belote": None if result.belote_team is None else TEAM_NAMES[result.belote_team],
        "belote_points": dict(zip(TEAM_NAMES, result.belote_points, strict=True)),
        "capot": None if result.capot is None else TEAM_NAMES[result.capot],
        "tricks_won": {
            TEAM_NAMES[t]: sum(1 for tr in result.tricks if tr.winner & 1 == t) for t in (0, 1)
        },
        "score": result.score.to_json(),
    }


def side_seats(contract: Contract, players: int) -> list[list[str]]:
    """The seats of each side of a hand at a small table (§12): with three the
    taker's side and the other two (§12.1), with two each seat its own side."""
    if players == 3:
        return [[SEAT_NAMES[contract.taker]],
                [SEAT_NAMES[s] for s in range(3) if s != contract.taker]]
    return [[SEAT_NAMES[s]] for s in range(players)]


def small_result_json(result: HandResult, players: int) -> dict[str, Any]:
    """A finished hand at a table of three or two (§12): the two sides' points (the
    taker against the other two, or seat against seat), then each seat's score.

    Nothing hidden is in it: the taker's kitty discards (§12.1) count in his trick
    points but are never named."""
    assert result.seats is not None
    decl = result.declarations
    tricks = [0] * players
    for t in result.tricks:
        tricks[t.winner] += 1
    return {
        "contract": result.contract.to_json(),
        "outcome": result.score.outcome,
        "sides": side_seats(result.contract, players),
        "trick_points": list(result.trick_points),
        "declarations": list(decl.points),
        "declarations_winner": decl.winner,
        "belote_points": list(result.belote_points),
        "capot": result.capot,
        "side_totals": list(result.score.totals),
        "side_score": list(result.score.score),
        "reserve": result.score.reserve,
        "tricks_won": dict(zip(SEAT_NAMES, tricks, strict=False)),
        "seats": dict(zip(SEAT_NAMES, result.seats, strict=False)),
    }


def small_score_json(
    totals: Sequence[int], hands: Sequence[Sequence[int]], reserve: int, finished: bool,
    winner: int | None,
) -> dict[str, Any]:
    """Each seat's own score at a table of three or two (§12): every scored deal,
    the running totals, the reserve, and the winning seat once the game is over."""
    n = len(totals)
    names = SEAT_NAMES[:n]
    running: list[dict[str, int]] = []
    acc = [0] * n
    for h in hands:
        acc = [a + b for a, b in zip(acc, h, strict=True)]
        running.append(dict(zip(names, acc, strict=True)))
    return {
        "seats": list(names),
        "hands": [dict(zip(names, h, strict=True)) for h in hands],
        "running": running,
        "totals": dict(zip(names, totals, strict=True)),
        "reserve": reserve,
        "finished": finished,
        "winner": None if winner is None else SEAT_NAMES[winner],
    }
