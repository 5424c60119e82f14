"""A deal's actions as values: a call, the kitty discard, a card (docs/rules.md §3, §4,
§6, §7, §12.1).

Each action is a frozen, hashable value that says what a seat does, never who does
it (the :class:`~belote.round.Round` knows whose turn it is), but for the one call
made out of turn: a coinche with ``coinche_in_turn`` off (§4.5), which names its
seat.  ``Round.legal_actions()`` lists them, ``Round.verify(action)`` says why one
is refused, ``Round.can(action)`` answers, ``Round.apply(action)`` does it and
returns the event it made (the deal's log, ``Round.events()``); a bot's turn is
turned into one by :func:`belote.bots.base.next_action`.

- :class:`Call`: a call of the bidding, spelt as the bidding knows it (``pass``,
  ``take``, ``H``, ``80S``, ``coinche``...), with ``seat`` for an out-of-turn
  coinche.
- :class:`Discard`: the taker's two cards laid aside after taking the kitty (§12.1).
- :class:`Play`: a card, with what the seat chooses to say with it: ``declarations``
  the combinations it announces with its first card, each as its cards (None: the
  default announcement, everything held best grouped, §7.4); ``belote`` False when
  it declines to say belote / rebelote with the trump king or queen (§7.7).

Each is read and written as the record's action (docs/json.md): ``{"call": "take"}``
(``"seat": "E"`` for an out-of-turn coinche), ``{"discard": ["7D", "8D"]}``,
``{"card": "JH"}`` (``"declarations": [["7H", "8H", "9H"]]`` when announced
explicitly, ``"belote": false`` when belote was not said).

>>> Play.from_json({"card": "JH", "belote": False})
Play(card=12, declarations=None, belote=False)
>>> Call("take").to_json(), action_from_json({"call": "coinche", "seat": "E"})
({'call': 'take'}, Call(call='coinche', seat=1))
>>> Discard((14, 15)).to_json()
{'discard': ['KH', 'AH']}
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final, TypeAlias, TypeVar

from belote.cards import Card, card_name, parse_card, scan_forward
from belote.errors import IllegalActionError
from belote.play import SEAT_NAMES
from belote.table import parse_seat

__all__ = ["PLAIN_PLAYS", "Action", "Call", "Discard", "Play", "action_from_json", "plain_play"]


@dataclass(frozen=True, slots=True)
class Call:
    """A call of the bidding (§3, §4); ``seat`` only for an out-of-turn coinche (§4.5)."""

    call: str
    seat: int | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"call": self.call}
        if self.seat is not None:
            out["seat"] = SEAT_NAMES[self.seat]
        return out

    @staticmethod
    def from_json(data: Any, where: str = "action") -> Call:
        return _read_one(Call, "call", data, where)


@dataclass(frozen=True, slots=True)
class Discard:
    """The kitty discard (§12.1): the two cards the taker lays aside, as given."""

    cards: tuple[Card, ...]

    def to_json(self) -> dict[str, Any]:
        return {"discard": [card_name(c) for c in self.cards]}

    @staticmethod
    def from_json(data: Any, where: str = "action") -> Discard:
        return _read_one(Discard, "discard", data, where)


@dataclass(frozen=True, slots=True)
class Play:
    """A card (§6) with what is said with it: the combinations announced, each as its
    cards (None: the default announcement, §7.4), and whether belote is said (§7.7)."""

    card: Card
    declarations: tuple[tuple[Card, ...], ...] | None = None
    belote: bool = True

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"card": card_name(self.card)}
        if self.declarations is not None:
            out["declarations"] = [[card_name(c) for c in combo] for combo in self.declarations]
        if not self.belote:
            out["belote"] = False
        return out

    @staticmethod
    def from_json(data: Any, where: str = "action") -> Play:
        return _read_one(Play, "card", data, where)


# One action of a deal.
Action: TypeAlias = Call | Discard | Play

# The Play of each card with nothing chosen (the default announcement, belote said when
# due), made once: the action of most cards, in the hot path of the bots' games.
PLAIN_PLAYS: Final = tuple(Play(c) for c in range(32))


def plain_play(c: Card) -> Play:
    """``Play(c)``: the card with the default announcement and belote said when due."""
    return PLAIN_PLAYS[c]


def combination_cards(cards: int) -> tuple[Card, ...]:
    """A combination's cards (a mask) as a :class:`Play` holds them: in card order."""
    return tuple(scan_forward(cards))


_A = TypeVar("_A")


def _read_one(kind: type[_A], word: str, data: Any, where: str) -> _A:
    """An action of one kind read from JSON (``from_json`` of each), another refused."""
    action = action_from_json(data, where)
    if not isinstance(action, kind):
        raise IllegalActionError(f"{where}: not a {word}: {data!r}")
    return action


def action_from_json(data: Any, where: str = "action") -> Action:
    """The action of a record (docs/json.md), read as :meth:`Round.actions_json` writes
    it; ``where`` names it in a refusal."""
    if not isinstance(data, dict):
        raise IllegalActionError(f"{where}: expected an object, got {data!r}")
    if "call" in data:
        seat = data.get("seat")
        return Call(str(data["call"]), None if seat is None else parse_seat(seat, f"{where}.seat"))
    if "discard" in data:
        cards = data["discard"]
        if not isinstance(cards, list):
            raise IllegalActionError(f"{where}: 'discard' must list cards, got {cards!r}")
        return Discard(tuple(parse_card(str(t)) for t in cards))
    if "card" in data:
        c = parse_card(str(data["card"]))
        combos = data.get("declarations")
        decls: tuple[tuple[Card, ...], ...] | None = None
        if combos is not None:
            if not isinstance(combos, list) or not all(isinstance(x, list) for x in combos):
                raise IllegalActionError(
                    f"{where}: 'declarations' must list combinations of cards, got {combos!r}")
            decls = tuple(tuple(parse_card(t) for t in combo) for combo in combos)
        belote = bool(data.get("belote", True))
        if decls is None and belote:
            return PLAIN_PLAYS[c]
        return Play(c, decls, belote)
    raise IllegalActionError(f"{where}: neither a call nor a card: {data!r}")
