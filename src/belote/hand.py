"""One hand from the contract to the score, with every check (RULES.md §5–§8).

:class:`HandPlay` wraps the fast :class:`~belote.play.PlayState` with the
checked path: a card that is not held or not legal is refused with an
:class:`~belote.errors.IllegalPlayError` naming the rule; declarations are
announced with a seat's first card and compared when trick 2 starts (§7.4);
belote-rebelote is said as the trump king and queen are played (§7.7).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from belote.cards import KING, QUEEN, Card, CardMask, TrumpMode, card_name, trump_name
from belote.declarations import (
    Declaration,
    DeclarationResult,
    belote_suits,
    best_announcement,
    check_announcement,
    resolve,
)
from belote.errors import IllegalPlayError
from belote.options import Rules
from belote.play import SEAT_NAMES, TEAM_NAMES, PlayState, Trick, explain_illegal
from belote.scoring import HandEntry, HandScore, score_hand

BELOTE_POINTS: Final = 20


@dataclass(frozen=True, slots=True)
class Contract:
    """Who took, in what trump, for what value (coinche), at what multiplier."""

    taker: int
    trump: TrumpMode
    value: int | str | None = None
    multiplier: int = 1

    @property
    def team(self) -> int:
        return self.taker & 1

    def to_json(self) -> dict[str, Any]:
        return {
            "taker": SEAT_NAMES[self.taker],
            "team": TEAM_NAMES[self.team],
            "trump": trump_name(self.trump),
            "value": self.value,
            "multiplier": self.multiplier,
        }


@dataclass(frozen=True, slots=True)
class CardPlayed:
    """A card played, with what was said with it."""

    seat: int
    card: Card
    declarations: tuple[Declaration, ...] = ()
    belote: str | None = None  # "belote" or "rebelote" when said with this card


@dataclass(frozen=True)
class HandResult:
    """Everything a finished hand produced, and its score."""

    contract: Contract
    tricks: tuple[Trick, ...]
    declarations: DeclarationResult
    belote_team: int | None
    belote_points: tuple[int, int]
    trick_points: tuple[int, int]
    capot: int | None
    score: HandScore
    entry: HandEntry = field(repr=False)


class HandPlay:
    """The card play of a hand under a contract, checked card by card."""

    def __init__(
        self,
        rules: Rules,
        contract: Contract,
        hands: Sequence[CardMask],
        leader: int,
        reserve: int = 0,
    ) -> None:
        self.rules = rules
        self.contract = contract
        self.initial_hands = tuple(hands)
        self.state = PlayState(rules, contract.trump, hands, leader)
        self.first_leader = leader
        self.reserve = reserve
        self.history: list[CardPlayed] = []
        self.announced: list[list[Declaration] | None] = [None, None, None, None]
        self._declarations: DeclarationResult | None = None
        # belote per seat: suits held (K+Q of trump) and the announcement state per suit
        self._belote_suits = [belote_suits(h, contract.trump) for h in hands]
        self._belote_said: dict[tuple[int, int], list[Card]] = {}
        self._belote_refused: set[tuple[int, int]] = set()
        self._belote_order: list[int] = []  # seats in order of first announcement

    # --- queries ----------------------------------------------------------

    @property
    def turn(self) -> int:
        return self.state.turn

    def is_over(self) -> bool:
        return self.state.is_over()

    def legal_cards(self) -> list[Card]:
        return [] if self.is_over() else self.state.legal_cards()

    def trick_number(self) -> int:
        return len(self.state.tricks) + 1

    def declaration_result(self) -> DeclarationResult | None:
        """The comparison, once the first card of trick 2 is played (§7.4)."""
        return self._declarations

    # --- the checked triad ------------------------------------------------

    def verify_play(self, c: Card) -> None:
        seat = self.state.turn
        if self.is_over():
            raise IllegalPlayError(f"{SEAT_NAMES[seat]} may not play {card_name(c)}: "
                                   "the hand is over")
        if not self.state.hands[seat] >> c & 1:
            raise IllegalPlayError(
                f"trick {self.trick_number()}: {SEAT_NAMES[seat]} does not hold {card_name(c)}"
            )
        why = explain_illegal(self.state, c)
        if why is not None:
            raise IllegalPlayError(
                f"trick {self.trick_number()}: {SEAT_NAMES[seat]} may not play "
                f"{card_name(c)}: {why}"
            )

    def can_play(self, c: Card) -> bool:
        return not self.is_over() and explain_illegal(self.state, c) is None

    def play(
        self,
        c: Card,
        declarations: Sequence[Declaration] | None = None,
        belote: bool = True,
    ) -> CardPlayed:
        """Play ``c`` for the seat to play.

        ``declarations``: what the seat announces with its first card (§7.4);
        None announces all it holds, best grouped (the default announcement).
        ``belote``: whether the seat says belote / rebelote when this card is the
        trump king or queen it holds together (§7.7).
        """
        self.verify_play(c)
        state = self.state
        seat = state.turn
        announced: tuple[Declaration, ...] = ()
        if self.announced[seat] is None and len(state.tricks) == 0:
            decls = self._announcement(seat, declarations)
            self.announced[seat] = decls
            announced = tuple(decls)
        elif declarations:
            raise IllegalPlayError(
                f"trick {self.trick_number()}: {SEAT_NAMES[seat]} may announce only with "
                "the first card (§7.4)"
            )
        said = self._say_belote(seat, c, belote)
        state.push(c)
        if len(state.tricks) == 1 and len(state.trick) == 1 and self._declarations is None:
            self._declarations = self._resolve()
        if state.is_over() and self._declarations is None:
            self._declarations = self._resolve()
        record = CardPlayed(seat, c, announced, said)
        self.history.append(record)
        return record

    def _announcement(
        self, seat: int, declarations: Sequence[Declaration] | None
    ) -> list[Declaration]:
        if not self.rules.declarations:
            if declarations:
                raise IllegalPlayError(
                    f"{SEAT_NAMES[seat]}: declarations are off (§7.1 declarations)"
                )
            return []
        hand = self.initial_hands[seat]
        if declarations is None:
            return best_announcement(hand, self.rules, self.contract.trump)
        for d in declarations:
            if d.cards & ~hand:
                raise IllegalPlayError(
                    f"{SEAT_NAMES[seat]} announces {d} without holding it (§7.6)"
                )
        check_announcement(declarations, self.rules, f"seat {SEAT_NAMES[seat]}")
        return list(declarations)

    def _say_belote(self, seat: int, c: Card, belote: bool) -> str | None:
        suit, rank = c >> 3, c & 7
        if rank not in (KING, QUEEN) or suit not in self._belote_suits[seat]:
            return None
        key = (seat, suit)
        if key in self._belote_refused:
            return None
        played = self._belote_said.get(key)
        if played is None:
            if not belote:
                self._belote_refused.add(key)
                return None
            self._belote_said[key] = [c]
            if seat not in self._belote_order:
                self._belote_order.append(seat)
            return "belote"
        played.append(c)
        return "rebelote"

    def _resolve(self) -> DeclarationResult:
        announced = [a or [] for a in self.announced]
        return resolve(announced, self.rules, self.contract.trump, self.first_leader)

    # --- the result -------------------------------------------------------

    def belote_points(self) -> tuple[int, int]:
        """Belote points per team so far: 20 for each belote said and completed (§7.7)."""
        points = [0, 0]
        for (seat, _suit), cards in self._belote_said.items():
            if len(cards) == 2 and (not self.rules.king_first or cards[0] & 7 == KING):
                points[seat & 1] += BELOTE_POINTS
        return points[0], points[1]

    def belote_refused(self) -> set[tuple[int, int]]:
        """(seat, suit) of each belote held but not said (§7.7: omission scores 0)."""
        return set(self._belote_refused)

    def belote_team(self) -> int | None:
        points = self.belote_points()
        for seat in self._belote_order:
            if points[seat & 1]:
                return seat & 1
        return None

    def result(self) -> HandResult:
        if not self.is_over():
            raise IllegalPlayError(
                f"the hand is not over: trick {self.trick_number()}, "
                f"{SEAT_NAMES[self.turn]} to play"
            )
        state = self.state
        decls = self._declarations or DeclarationResult(None, (0, 0))
        capot = state.capot()
        belote = self.belote_points()
        entry = HandEntry(
            taker=self.contract.team,
            trick_points=(state.trick_points[0], state.trick_points[1]),
            capot=capot,
            declarations=decls.points,
            belote=belote,
            contract=self.contract.value,
            trump=self.contract.trump,
            multiplier=self.contract.multiplier,
            reserve=self.reserve,
            generale_won=(
                all(t.winner == self.contract.taker for t in state.tricks)
                if self.contract.value == "generale" else None
            ),
        )
        return HandResult(
            contract=self.contract,
            tricks=tuple(state.tricks),
            declarations=decls,
            belote_team=self.belote_team(),
            belote_points=belote,
            trick_points=(state.trick_points[0], state.trick_points[1]),
            capot=capot,
            score=score_hand(self.rules, entry),
            entry=entry,
        )


def card_names(cards: Sequence[Card]) -> list[str]:
    return [card_name(c) for c in cards]
