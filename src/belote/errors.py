"""Exceptions of the belote engine, and the rules' refusals by name.

Every error is a :class:`ValueError` subclass whose message says what is wrong and
where (field, trick, seat, card), so that the command line can print it as it is.

A refusal of the rules (:class:`IllegalActionError`) names the rule it enforces with a
:class:`RuleCode`, the section of docs/rules.md it comes from (:attr:`RuleCode.section`),
and carries what it is about as typed attributes (the seat, the card, the call...): its
English message is written from them (:data:`ENGLISH`), and a face that speaks another
language writes its own from the same code and fields, never from the English words.

>>> err = IllegalPlayError(RuleCode.FOLLOW_SUIT, seat=3, card="7C", where=("trick 3",))
>>> str(err)
'trick 3: W may not play 7C: must follow suit (§6.1)'
>>> err.code, err.code.section, err.seat, err.card
(<RuleCode.FOLLOW_SUIT: 'follow_suit'>, '§6.1', 3, '7C')
"""

from __future__ import annotations

import functools
import string
from collections.abc import Callable, Sequence
from enum import StrEnum
from types import MappingProxyType
from typing import Final

_SEATS: Final = "NESW"  # §0.1 (the seat letters of belote.play.SEAT_NAMES)


class RuleCode(StrEnum):
    """A refusal of the rules, by name: its JSON word (docs/json.md, "Refusals by
    code") and the section of docs/rules.md it enforces (:attr:`section`)."""

    # whose turn and when (§0.1, §3, §4, §12.1)
    NOT_YOUR_TURN = "not_your_turn"
    WRONG_PHASE = "wrong_phase"
    BIDDING_OVER = "bidding_over"
    BIDDING_GOES_ON = "bidding_goes_on"
    # take-or-pass bidding (§3, §12.1)
    FIRST_ROUND_TAKE_OR_PASS = "first_round_take_or_pass"
    SECOND_ROUND_NO_TAKE = "second_round_no_take"
    TURNED_SUIT_AGAIN = "turned_suit_again"
    SECOND_ROUND_NAME_A_SUIT = "second_round_name_a_suit"
    # the auction of coinche and contrée (§4)
    AUCTION_OVER = "auction_over"
    NOT_A_CALL = "not_a_call"
    DENOMINATION_OFF = "denomination_off"
    GENERALE_OFF = "generale_off"
    BID_NOT_A_MULTIPLE = "bid_not_a_multiple"
    BID_ABOVE_MAX = "bid_above_max"
    BID_TOO_LOW = "bid_too_low"
    AUCTION_FROZEN = "auction_frozen"
    NUMBER_AFTER_CAPOT = "number_after_capot"
    REOPEN_SAME_SUIT = "reopen_same_suit"
    NO_BID_TO_COINCHE = "no_bid_to_coinche"
    COINCHE_BY_OPPONENTS = "coinche_by_opponents"
    ALREADY_COINCHED = "already_coinched"
    CAPOT_NOT_COINCHED = "capot_not_coinched"
    COINCHE_IN_TURN = "coinche_in_turn"
    NO_COINCHE_TO_ANSWER = "no_coinche_to_answer"
    ALREADY_SURCOINCHED = "already_surcoinched"
    SURCOINCHE_BY_BIDDERS = "surcoinche_by_bidders"
    PASS_OR_SURCOINCHE = "pass_or_surcoinche"
    # the card play (§6)
    CARD_NOT_HELD = "card_not_held"
    HAND_OVER = "hand_over"
    FOLLOW_SUIT = "follow_suit"
    BEAT_THE_MASTER = "beat_the_master"
    OVERTRUMP_PARTNER = "overtrump_partner"
    UNDERTRUMP_PARTNER = "undertrump_partner"
    OVERTRUMP = "overtrump"
    UNDERTRUMP = "undertrump"
    MUST_TRUMP = "must_trump"
    # declarations (§7, §12.2)
    ANNOUNCE_WITH_FIRST_CARD = "announce_with_first_card"
    DECLARATIONS_OFF = "declarations_off"
    NO_DECLARATIONS_DECOUVERTE = "no_declarations_decouverte"
    DECLARATION_NOT_HELD = "declaration_not_held"
    COMBINATION_REPEATS_A_CARD = "combination_repeats_a_card"
    COMBINATION_NOT_HELD = "combination_not_held"
    CARRE_SCORES_NOTHING = "carre_scores_nothing"
    NOT_A_COMBINATION = "not_a_combination"
    CARD_IN_TWO_COMBINATIONS = "card_in_two_combinations"
    LONG_RUN_SPLIT = "long_run_split"
    BELOTE_WITHOUT_THE_PAIR = "belote_without_the_pair"
    # the kitty (§12.1)
    DISCARD_TWO_CARDS = "discard_two_cards"
    DISCARD_FIRST = "discard_first"
    NO_DISCARD_NOW = "no_discard_now"
    NOT_THE_TAKER = "not_the_taker"
    # a deal and a game (§11)
    DEAL_NOT_OVER = "deal_not_over"
    GAME_OVER = "game_over"
    DEAL_IN_PROGRESS = "deal_in_progress"
    NO_DEAL_TO_SCORE = "no_deal_to_score"

    @property
    def section(self) -> str:
        """The section(s) of docs/rules.md this refusal enforces: ``"§6.1"``."""
        return SECTIONS[self]


SECTIONS: Final = MappingProxyType({
    RuleCode.NOT_YOUR_TURN: "§0.1",
    RuleCode.WRONG_PHASE: "§3.4, §4.4, §12.1",
    RuleCode.BIDDING_OVER: "§3.2, §4.4",
    RuleCode.BIDDING_GOES_ON: "§3.4, §4.4",
    RuleCode.FIRST_ROUND_TAKE_OR_PASS: "§3.2",
    RuleCode.SECOND_ROUND_NO_TAKE: "§3.3",
    RuleCode.TURNED_SUIT_AGAIN: "§3.3",
    RuleCode.SECOND_ROUND_NAME_A_SUIT: "§3.3",
    RuleCode.AUCTION_OVER: "§4.4",
    RuleCode.NOT_A_CALL: "§4.2",
    RuleCode.DENOMINATION_OFF: "§4.3",
    RuleCode.GENERALE_OFF: "§4.8",
    RuleCode.BID_NOT_A_MULTIPLE: "§4.3",
    RuleCode.BID_ABOVE_MAX: "§4.3",
    RuleCode.BID_TOO_LOW: "§4.3",
    RuleCode.AUCTION_FROZEN: "§4.5",
    RuleCode.NUMBER_AFTER_CAPOT: "§4.6",
    RuleCode.REOPEN_SAME_SUIT: "§4.4",
    RuleCode.NO_BID_TO_COINCHE: "§4.5",
    RuleCode.COINCHE_BY_OPPONENTS: "§4.5",
    RuleCode.ALREADY_COINCHED: "§4.5",
    RuleCode.CAPOT_NOT_COINCHED: "§4.6",
    RuleCode.COINCHE_IN_TURN: "§4.5",
    RuleCode.NO_COINCHE_TO_ANSWER: "§4.5",
    RuleCode.ALREADY_SURCOINCHED: "§4.5",
    RuleCode.SURCOINCHE_BY_BIDDERS: "§4.5",
    RuleCode.PASS_OR_SURCOINCHE: "§4.5",
    RuleCode.CARD_NOT_HELD: "§6",
    RuleCode.HAND_OVER: "§6",
    RuleCode.FOLLOW_SUIT: "§6.1",
    RuleCode.BEAT_THE_MASTER: "§6.1, §6.2",
    RuleCode.OVERTRUMP_PARTNER: "§6.3a",
    RuleCode.UNDERTRUMP_PARTNER: "§6.3a",
    RuleCode.OVERTRUMP: "§6.3c",
    RuleCode.UNDERTRUMP: "§6.3c",
    RuleCode.MUST_TRUMP: "§6.3b",
    RuleCode.ANNOUNCE_WITH_FIRST_CARD: "§7.4",
    RuleCode.DECLARATIONS_OFF: "§7.1",
    RuleCode.NO_DECLARATIONS_DECOUVERTE: "§12.2",
    RuleCode.DECLARATION_NOT_HELD: "§7.6",
    RuleCode.COMBINATION_REPEATS_A_CARD: "§7.2",
    RuleCode.COMBINATION_NOT_HELD: "§7.2",
    RuleCode.CARRE_SCORES_NOTHING: "§7.2",
    RuleCode.NOT_A_COMBINATION: "§7.2",
    RuleCode.CARD_IN_TWO_COMBINATIONS: "§7.3",
    RuleCode.LONG_RUN_SPLIT: "§7.3",
    RuleCode.BELOTE_WITHOUT_THE_PAIR: "§7.7",
    RuleCode.DISCARD_TWO_CARDS: "§12.1",
    RuleCode.DISCARD_FIRST: "§12.1",
    RuleCode.NO_DISCARD_NOW: "§12.1",
    RuleCode.NOT_THE_TAKER: "§12.1",
    RuleCode.DEAL_NOT_OVER: "§8, §9",
    RuleCode.GAME_OVER: "§11",
    RuleCode.DEAL_IN_PROGRESS: "§2.1",
    RuleCode.NO_DEAL_TO_SCORE: "§2.1, §2.4",
})

# Why a card or a call is refused: the end of "S may not play 7C: ..." (belote.play's
# explain_illegal) and of "S may not call '80H': ..." (belote.auction).
WHY: Final = MappingProxyType({
    RuleCode.HAND_OVER: "the hand is over",
    RuleCode.FOLLOW_SUIT: "must follow suit (§6.1)",
    RuleCode.BEAT_THE_MASTER: "must play higher than the master card of the led suit (§6.1, §6.2)",
    RuleCode.OVERTRUMP_PARTNER: "must overtrump the partner when holding only trumps (§6.3a)",
    RuleCode.UNDERTRUMP_PARTNER:
        "may not undertrump the partner while holding other cards (§6.3a)",
    RuleCode.OVERTRUMP: "must overtrump (§6.3c)",
    RuleCode.UNDERTRUMP: "must play a trump, even a lower one (§6.3c must_undertrump)",
    RuleCode.MUST_TRUMP: "must trump (§6.3b)",
    RuleCode.AUCTION_OVER: "the auction is over",
    RuleCode.DENOMINATION_OFF: "{trump} is not allowed (§4.3 sa_ta)",
    RuleCode.GENERALE_OFF: "the générale is off (§4.8 generale)",
    RuleCode.BID_NOT_A_MULTIPLE: "a bid is a multiple of 10 from 80 (§4.3)",
    RuleCode.BID_ABOVE_MAX: "the highest numeric bid is {limit} (§4.3 max_bid)",
    RuleCode.BID_TOO_LOW: "it does not go higher than {bid} (§4.3)",
    RuleCode.AUCTION_FROZEN: "the auction is frozen by the coinche (§4.5 coinche_freezes)",
    RuleCode.NUMBER_AFTER_CAPOT: "after a capot bid no number may be bid (§4.6)",
    RuleCode.REOPEN_SAME_SUIT:
        "the last bidder may go on only in another suit (§4.4 reopen_by_suit_change)",
    RuleCode.NO_BID_TO_COINCHE: "there is no bid to coinche (§4.5)",
    RuleCode.COINCHE_BY_OPPONENTS: "only an opponent of the highest bidder may coinche (§4.5)",
    RuleCode.ALREADY_COINCHED: "the contract is already coinched (§4.5)",
    RuleCode.CAPOT_NOT_COINCHED: "a capot bid may not be coinched (§4.6 capot_doublable)",
    RuleCode.COINCHE_IN_TURN: "a coinche is made in turn (§4.5 coinche_in_turn)",
    RuleCode.NO_COINCHE_TO_ANSWER: "there is no coinche to answer (§4.5)",
    RuleCode.ALREADY_SURCOINCHED: "the contract is already surcoinched (§4.5)",
    RuleCode.SURCOINCHE_BY_BIDDERS: "only the bidding side may surcoinche (§4.5)",
    RuleCode.PASS_OR_SURCOINCHE:
        "after a coinche the bidding side may only pass or surcoinche (§4.5)",
})

_PLAY: Final = "{seat} may not play {card}: "
_CALL: Final = "{seat} may not call {call!r}: "

# Each code's English message(s), written from its fields (str.format): a code said in
# more than one way (a call and a card out of turn) has one message per set of fields,
# the one whose fields are those given being chosen.  A seat field is written as its
# letter, a list of cards spaced, a list of calls with commas.
ENGLISH: Final[MappingProxyType[RuleCode, tuple[str, ...]]] = MappingProxyType({
    RuleCode.NOT_YOUR_TURN: (_CALL + "it is {turn}'s turn",
                             "it is {turn}'s turn to {act}, not {seat}'s",
                             "it is {turn}'s turn to {act}"),
    RuleCode.WRONG_PHASE: ("no {act} now: the deal is in phase {phase}",
                           "the deal has no card play (phase {phase})"),
    RuleCode.BIDDING_OVER: (_CALL + "the bidding is over",
                            "no call after the all-pass ({call!r})",
                            "{seat}: no call now, the bidding is over"),
    RuleCode.BIDDING_GOES_ON: ("{seat}: no card now, the bidding goes on",),
    RuleCode.FIRST_ROUND_TAKE_OR_PASS: (
        "{seat} may not call {call!r} in round 1: only 'take' or 'pass' (§3.2)",),
    RuleCode.SECOND_ROUND_NO_TAKE: (
        "{seat} may not call 'take' in round 2: name a suit or pass (§3.3)",),
    RuleCode.TURNED_SUIT_AGAIN: (
        "{seat} may not name {call!r} in round 2: it is the turned suit (§3.3)",),
    RuleCode.SECOND_ROUND_NAME_A_SUIT: (
        "{seat} may not call {call!r} in round 2: name one of {calls} or pass (§3.3)",),
    RuleCode.NOT_A_CALL: ("{seat}: {call!r} is not a call (pass, a bid such as 80H or "
                          "capotS, coinche, surcoinche)",),
    RuleCode.CARD_NOT_HELD: ("{seat} does not hold {card}", "{seat} does not hold {cards}"),
    **{code: (_PLAY + why,) for code, why in WHY.items() if code.section.startswith("§6")},
    **{code: (_CALL + why,) for code, why in WHY.items() if code.section.startswith("§4")},
    RuleCode.ANNOUNCE_WITH_FIRST_CARD: ("{seat} may announce only with the first card (§7.4)",),
    RuleCode.DECLARATIONS_OFF: ("{seat}: declarations are off (§7.1 declarations)",
                                "declarations are off (§7.1 declarations)"),
    RuleCode.NO_DECLARATIONS_DECOUVERTE: (
        "{seat}: no declarations in belote découverte (§12.2)",
        "no declarations in belote découverte (§12.2)"),
    RuleCode.DECLARATION_NOT_HELD: (
        "{seat} announces {declaration} without holding it (§7.6)",),
    RuleCode.COMBINATION_REPEATS_A_CARD: ("combination {cards!r} repeats a card",),
    RuleCode.COMBINATION_NOT_HELD: ("combination {cards!r}: does not hold {other}",),
    RuleCode.CARRE_SCORES_NOTHING: ("carré {cards!r} scores nothing (7s and 8s, §7.2)",),
    RuleCode.NOT_A_COMBINATION: (
        "{cards!r} is not a sequence of 3 or more of one suit nor a carré (§7.2)",),
    RuleCode.CARD_IN_TWO_COMBINATIONS: (
        "{cards} and {other} share a card; a card counts in one combination only "
        "(§7.3 card_reuse)",),
    RuleCode.LONG_RUN_SPLIT: (
        "{cards} and {other} split one run; a run of 6 to 8 is one cent "
        "(§7.3 split_long_runs)",),
    RuleCode.BELOTE_WITHOUT_THE_PAIR: ("{seat} does not hold the trump king and queen (§7.7)",),
    RuleCode.DISCARD_TWO_CARDS: ("{seat} must lay aside two different cards",
                                 "lay aside two cards, not {given} (§12.1)"),
    RuleCode.DISCARD_FIRST: ("{seat}: no card now, {turn} lays two cards aside first (§12.1)",),
    RuleCode.NO_DISCARD_NOW: ("no discard now: the deal is in phase {phase}",
                              "{seat}: nothing to lay aside now (only the taker of a kitty "
                              "deal, once he took it, §12.1)"),
    RuleCode.NOT_THE_TAKER: ("{turn} took the kitty and lays two cards aside, not {seat}",),
    RuleCode.DEAL_NOT_OVER: ("the deal is not over (phase {phase})",
                             "the hand is not over: trick {trick}, {turn} to play"),
    RuleCode.GAME_OVER: ("the game is over: no further deal",),
    RuleCode.DEAL_IN_PROGRESS: ("the current deal is not finished and scored",),
    RuleCode.NO_DEAL_TO_SCORE: ("no finished deal to score",),
})


@functools.cache
def template_fields(template: str) -> frozenset[str]:
    """The fields a message of :data:`ENGLISH` (or any ``str.format`` text) names."""
    return frozenset(name for _, name, _, _ in string.Formatter().parse(template) if name)


class BeloteError(ValueError):
    """Base class of every error the engine raises on bad input or a refused action."""

    code: RuleCode | None = None
    """The rule refused (:class:`IllegalActionError`, and an error that reports one, as
    a record's action refused); None for an error of the input's form."""


class InvalidCardError(BeloteError):
    """A card, suit or trump that cannot be parsed."""


class OptionError(BeloteError):
    """An unknown profile or option, or an option value of the wrong kind."""


class IllegalActionError(BeloteError):
    """An action that is well formed but not allowed now by the rules.

    Made from a :class:`RuleCode` and the fields its message names (the seat ``seat``
    refused, the seat ``turn`` whose turn it is, the card ``card``, the cards
    ``cards`` and ``other``, the call ``call``, the calls ``calls`` one may make,
    the bid ``bid`` to beat, the trump ``trump``, the highest bid ``limit``, the
    trick ``trick``, the deal's ``phase``, the action ``act``, the declaration
    ``declaration``, what was ``given``), each kept as an attribute, and ``where``,
    the context its message opens with (``("trick 3",)``).  Cards are kept by their
    canonical names (``"JH"``).  A bare message (no code) is for the refusals that
    are no rule's: a bot's answer, an action of the wrong form."""

    def __init__(
        self,
        code: RuleCode | str,
        *,
        where: Sequence[str] = (),
        seat: int | None = None,
        turn: int | None = None,
        card: str | None = None,
        cards: Sequence[str] | None = None,
        other: Sequence[str] | None = None,
        call: str | None = None,
        calls: Sequence[str] | None = None,
        bid: str | None = None,
        trump: str | None = None,
        limit: int | None = None,
        trick: int | None = None,
        phase: str | None = None,
        act: str | None = None,
        declaration: str | None = None,
        given: str | None = None,
    ) -> None:
        self.code = code if isinstance(code, RuleCode) else None
        self.text = None if isinstance(code, RuleCode) else code
        self.where = tuple(where)
        self.seat = seat
        self.turn = turn
        self.card = card
        self.cards = None if cards is None else tuple(cards)
        self.other = None if other is None else tuple(other)
        self.call = call
        self.calls = None if calls is None else tuple(calls)
        self.bid = bid
        self.trump = trump
        self.limit = limit
        self.trick = trick
        self.phase = None if phase is None else str(phase)
        self.act = act
        self.declaration = declaration
        self.given = given
        # (the message is written when asked for: a verify that is only asked "can?"
        # writes none)

    def fields(self) -> dict[str, object]:
        """The fields given (not None), by name: what the message is written from."""
        names = ("seat", "turn", "card", "cards", "other", "call", "calls", "bid", "trump",
                 "limit", "trick", "phase", "act", "declaration", "given")
        values = {name: getattr(self, name) for name in names}
        return {name: value for name, value in values.items() if value is not None}

    def english(self) -> str:
        """The message without its context (:attr:`where`), in the English of
        :data:`ENGLISH`."""
        if self.code is None:
            assert self.text is not None
            return self.text
        fields = self.fields()
        templates = ENGLISH[self.code]
        # the message naming exactly the fields given, else one naming some of them
        chosen = next((t for t in templates if template_fields(t) == fields.keys()), None)
        if chosen is None:
            chosen = next((t for t in templates if template_fields(t) <= fields.keys()),
                          f"{self.code} (§{self.code.section.lstrip('§')})")
        words: dict[str, object] = {}
        for name, value in fields.items():
            if name in ("seat", "turn"):
                assert isinstance(value, int)
                words[name] = _SEATS[value]
            elif name in ("cards", "other"):
                assert isinstance(value, tuple)
                words[name] = " ".join(value)
            elif name == "calls":
                assert isinstance(value, tuple)
                words[name] = ", ".join(value)
            else:
                words[name] = value
        return chosen.format(**words)

    def __str__(self) -> str:
        return ": ".join((*self.where, self.english()))

    def __reduce__(self) -> tuple[object, ...]:
        # (kept whole through pickling: a tournament's worker sends its errors back)
        return (_rebuilt, (type(self), dict(self.__dict__)))

    def within(self, where: str) -> IllegalActionError:
        """The same refusal, its message opening with ``where`` (``"bid 3"``) too."""
        out = type(self).__new__(type(self))
        out.__dict__.update(self.__dict__)
        out.where = (where, *self.where)
        out.args = self.args
        return out


def _rebuilt(kind: type[IllegalActionError], state: dict[str, object]) -> IllegalActionError:
    out = kind.__new__(kind)
    out.__dict__.update(state)
    return out


class IllegalBidError(IllegalActionError):
    """A call (take, pass, suit, bid, coinche...) that the bidding rules refuse."""


class IllegalPlayError(IllegalActionError):
    """A card that the seat does not hold or may not play (docs/rules.md §6)."""


class IllegalDeclarationError(IllegalActionError):
    """A declaration that is not held, not a combination, or announced out of time."""


class InvalidRecordError(BeloteError):
    """A malformed record or score entry (missing field, wrong type, impossible values)."""


def allowed(verify: Callable[[], object]) -> bool:
    """Whether ``verify`` passes: the *can* of the verify / can / act triads, which
    answer what *verify* would raise (an :class:`IllegalActionError`) as a bool."""
    try:
        verify()
    except IllegalActionError:
        return False
    return True
