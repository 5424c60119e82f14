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
from collections.abc import Callable, Mapping, Sequence
from enum import StrEnum
from types import MappingProxyType
from typing import Final, Self

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


class Refusal(StrEnum):
    """A refusal that is no rule's, by name: of the web app's rooms, their chat and
    connections, of the review of a finished deal, of the score sheets, their links
    and their forms.  Its JSON word is the ``code`` of the web's error answers
    (docs/json.md, "Refusals of the web app"); its English is
    :data:`REFUSAL_ENGLISH`, written from the error's fields
    (:attr:`BeloteError.values`)."""

    # a room and its seats (belote.web.rooms, belote.web.messages)
    NO_SUCH_ROOM = "no_such_room"
    ROOM_CLOSED = "room_closed"
    ROOM_CANNOT_OPEN = "room_cannot_open"
    ROOM_GAME_OVER = "room_game_over"
    GAME_STARTED = "game_started"
    GAME_NOT_STARTED = "game_not_started"
    DEAL_OVER = "deal_over"
    DEAL_NOT_OVER = "room_deal_not_over"
    SEAT_TAKEN = "seat_taken"
    SEAT_NOT_EMPTY = "seat_not_empty"
    NOT_A_SEAT = "not_a_seat"
    SEAT_HELD = "seat_held"
    NOT_A_SEAT_WORD = "not_a_seat_word"
    ONE_SEAT_PER_PLAYER = "one_seat_per_player"
    PRIVATE_TABLE = "private_table"
    INVITATION_NEEDED = "invitation_needed"
    TAKE_A_SEAT = "take_a_seat"
    LEAVE_BEFORE_START = "leave_before_start"
    NO_HINT_NOW = "no_hint_now"
    # a room's chat (belote.web.chat)
    CHAT_PRIVATE = "chat_private"
    CHAT_EMPTY = "chat_empty"
    CHAT_NOT_TEXT = "chat_not_text"
    CHAT_TOO_LONG = "chat_too_long"
    CHAT_TOO_FAST = "chat_too_fast"
    CHAT_NO_SEAT = "chat_no_seat"
    # the messages and requests themselves (belote.web.messages, belote.web.security)
    NOT_A_MESSAGE = "not_a_message"
    HELLO_FIRST = "hello_first"
    UNKNOWN_MESSAGE = "unknown_message"
    TOO_BIG = "too_big"
    NOT_JSON = "not_json"
    NOT_WHOLE = "not_whole"
    OUT_OF_RANGE = "out_of_range"
    BAD_FIELD = "bad_field"
    NOT_JSON_TEXT = "not_json_text"
    EXPECTED_OBJECT = "expected_object"
    NO_HELLO = "no_hello"
    TOO_MANY_MESSAGES = "too_many_messages"
    CROSS_SITE = "cross_site"
    CROSS_SITE_REQUEST = "cross_site_request"
    BAD_CSRF = "bad_csrf"
    REQUEST_TOO_LARGE = "request_too_large"
    UNKNOWN_HOST = "unknown_host"
    NO_PAGE = "no_page"
    BOT_NEEDS_SEAT = "bot_needs_seat"
    JOIN_NEEDS_INVITATION = "join_needs_invitation"
    BAD_REQUEST = "bad_request"
    METHOD_NOT_ALLOWED = "method_not_allowed"
    REQUEST_REFUSED = "request_refused"
    NOT_A_CARD_TEXT = "not_a_card_text"
    BAD_TOKEN = "bad_token"
    INTERNAL_ERROR = "internal_error"
    NO_IDENTITY = "no_identity"
    TOO_MANY_SOCKETS = "too_many_sockets"
    # the live sheet's WebSocket (belote.web.routes_sheets, belote.web.sheet_live)
    NO_FOLLOW_IN_TIME = "no_follow_in_time"
    FOLLOW_FIRST = "follow_first"
    PING_ONLY = "ping_only"
    TOO_MANY_FOLLOWERS = "too_many_followers"
    SERVER_STOPPING = "server_stopping"
    # the server's limits and its database
    TOO_MANY_TABLES = "too_many_tables"
    SERVER_FULL = "server_full"
    TOO_MANY_NEW_TABLES = "too_many_new_tables"
    GAME_NOT_SAVED = "game_not_saved"
    GAME_NOT_SAVED_STOPPING = "game_not_saved_stopping"
    GAME_NOT_SAVED_ERROR = "game_not_saved_error"
    STORE_UNREADABLE = "store_unreadable"
    SHEETS_BUSY = "sheets_busy"
    DATABASE_UNAVAILABLE = "database_unavailable"
    # the review of a finished deal (belote.web.routes_review, belote.web.review)
    DEAL_IN_PLAY = "deal_in_play"
    ONE_ANALYSIS_AT_A_TIME = "one_analysis_at_a_time"
    ANALYSES_BUSY = "analyses_busy"
    # the score sheets and their links (belote.sheets, belote.web.routes_sheets)
    NO_SUCH_SHEET = "no_such_sheet"
    NOT_A_SHEET_ID = "not_a_sheet_id"
    SHEET_DELETED = "sheet_deleted"
    FOLLOW_ONLY = "follow_only"
    OWNER_ONLY = "owner_only"
    PER_SEAT_SHEET = "per_seat_sheet"
    NO_SUCH_HAND = "no_such_hand"
    NOTHING_TO_UNDO = "nothing_to_undo"
    GAME_ALREADY_WON = "game_already_won"
    GAME_ALREADY_DRAWN = "game_already_drawn"
    SHEET_PLAYERS = "sheet_players"
    NAMES_COUNT = "names_count"
    NAME_EMPTY = "name_empty"
    IMPORT_NOT_JSON = "import_not_json"
    IMPORT_INVALID = "import_invalid"
    PER_SEAT_TABLE = "per_seat_table"
    # a hand entered on a sheet's form (belote.scoring.checks, belote.web.forms)
    CHOOSE_TEAM = "choose_team"
    NOT_A_TEAM = "not_a_team"
    ENTER_POINTS = "enter_points"
    DECLARATIONS_WHOSE = "declarations_whose"
    CHOOSE_CONTRACT = "choose_contract"
    NEGATIVE = "negative"
    TRICK_POINTS_RANGE = "trick_points_range"
    TRICK_POINTS_SUM = "trick_points_sum"
    CAPOT_OTHER_SIDE = "capot_other_side"
    CAPOT_TOTAL = "capot_total"
    DECLARATIONS_MAX = "declarations_max"
    DECLARATIONS_SUM = "declarations_sum"
    DECLARATIONS_BOTH = "declarations_both"
    DECLARATIONS_OFF = "sheet_declarations_off"
    DECLARATIONS_TWICE = "declarations_twice"
    DECLARATIONS_TIED = "declarations_tied"
    CARRE_TWICE = "carre_twice"
    TOO_MANY_SEQUENCES = "too_many_sequences"
    NO_BELOTE_SANS_ATOUT = "no_belote_sans_atout"
    BELOTE_BOTH = "belote_both"
    CONTRACT_VALUE = "contract_value"
    MULTIPLIER_VALUE = "multiplier_value"
    CAPOT_NOT_DOUBLED = "capot_not_doubled"
    TRUMP_OFF = "trump_off"
    # a game's profile and options (belote.options)
    UNKNOWN_PROFILE = "unknown_profile"
    UNKNOWN_OPTION = "unknown_option"
    OPTION_VALUE = "option_value"


# Each refusal's English, written from its fields (str.format); the context an error
# opens with ("sheet 3", "hand 2", a form's field) is kept apart (BeloteError.where).
REFUSAL_ENGLISH: Final[MappingProxyType[Refusal, str]] = MappingProxyType({
    Refusal.NO_SUCH_ROOM: "no room {room!r} (it may have closed)",
    Refusal.ROOM_CLOSED: "room {room!r} was closed: {reason}",
    Refusal.ROOM_CANNOT_OPEN: "room {room!r} cannot be opened right now ({detail})",
    Refusal.ROOM_GAME_OVER: "the game is over",
    Refusal.GAME_STARTED: "the game has already started",
    Refusal.GAME_NOT_STARTED: "the game has not started",
    Refusal.DEAL_OVER: "the deal is over: ask for the next deal",
    Refusal.DEAL_NOT_OVER: "the deal is not over",
    Refusal.SEAT_TAKEN: "seat {seat} is taken by {name}",
    Refusal.SEAT_NOT_EMPTY: "seat {seat} is not empty",
    Refusal.NOT_A_SEAT: "this table of {players} seats {seats}",
    Refusal.SEAT_HELD: "you already hold seat {seat}",
    Refusal.NOT_A_SEAT_WORD: "not a seat: {text!r} ({seats})",
    Refusal.ONE_SEAT_PER_PLAYER: "you already hold seat {seat} at this table: one seat per "
                                 "player",
    Refusal.PRIVATE_TABLE: "a table against bots is private: nobody else can sit there",
    Refusal.INVITATION_NEEDED: "only someone invited (the room's link) can take a seat",
    Refusal.TAKE_A_SEAT: "take a seat first",
    Refusal.LEAVE_BEFORE_START: "a seat can be left only before the game starts",
    Refusal.NO_HINT_NOW: "no hint now: it is not your turn",
    Refusal.CHAT_PRIVATE: "a table against bots has no chat",
    Refusal.CHAT_EMPTY: "chat: the message is empty",
    Refusal.CHAT_NOT_TEXT: "chat: a message is text, or one of the quick messages",
    Refusal.CHAT_TOO_LONG: "chat: a message has at most {max} characters (this one has {n})",
    Refusal.CHAT_TOO_FAST: "chat: too many messages in a short time; wait a few seconds",
    Refusal.CHAT_NO_SEAT: "chat: only the players and the spectators of this room may write",
    Refusal.NOT_A_MESSAGE: "a message is a JSON object with a 'type'",
    Refusal.HELLO_FIRST: "say hello first (with your seat's token or the room's invitation)",
    Refusal.UNKNOWN_MESSAGE: "unknown message type {kind!r}",
    Refusal.TOO_BIG: "{size} bytes, more than {limit}",
    Refusal.NOT_JSON: "{detail}",
    Refusal.NOT_WHOLE: "{text!r} is not a whole number",
    Refusal.OUT_OF_RANGE: "{value} is outside {low}..{high}",
    Refusal.BAD_FIELD: "{detail}",
    Refusal.NOT_JSON_TEXT: "a message is JSON text",
    Refusal.EXPECTED_OBJECT: "expected a JSON object",
    Refusal.NO_HELLO: "no hello in time: the connection is closed (reload the page)",
    Refusal.TOO_MANY_MESSAGES: "too many messages: the connection is closed (reload the page)",
    Refusal.CROSS_SITE: "refused: the connection comes from another site",
    Refusal.CROSS_SITE_REQUEST: "refused: the request comes from another site (Origin/Referer)",
    Refusal.BAD_CSRF: "refused: missing or wrong CSRF token (reload the page and try again)",
    Refusal.REQUEST_TOO_LARGE: "the request body is larger than {limit} bytes",
    Refusal.UNKNOWN_HOST: "refused: this server does not answer to the name in the Host header",
    Refusal.NO_PAGE: "this address leads to no page",
    Refusal.BOT_NEEDS_SEAT: "only a seated player may put a bot at the table",
    Refusal.JOIN_NEEDS_INVITATION: "taking a seat needs the room's invitation (its link)",
    Refusal.BAD_REQUEST: "the request is not valid ({problems})",
    Refusal.METHOD_NOT_ALLOWED: "{detail}",
    Refusal.REQUEST_REFUSED: "{detail}",
    Refusal.NOT_A_CARD_TEXT: "not a card: {text!r}",
    Refusal.BAD_TOKEN: "room {room}: your token holds no seat here (take a seat)",
    Refusal.INTERNAL_ERROR: "internal error",
    Refusal.NO_IDENTITY: "refused: no identity cookie (open the page first, then connect)",
    Refusal.TOO_MANY_SOCKETS: "refused: too many open connections from your network; close "
                              "some and try again",
    Refusal.NO_FOLLOW_IN_TIME: "nothing valid was sent within {seconds} s",
    Refusal.FOLLOW_FIRST: 'the first message is {{"type": "follow"}} with the sheet\'s secret '
                          "or none",
    Refusal.PING_ONLY: 'after the hello only {{"type": "ping"}} is read',
    Refusal.TOO_MANY_FOLLOWERS: "too many pages follow this sheet",
    Refusal.SERVER_STOPPING: "the server is stopping",
    Refusal.TOO_MANY_TABLES: "you have {n} tables open already: finish or leave one (an "
                             "unused table closes by itself)",
    Refusal.SERVER_FULL: "the server holds {n} rooms already; try later",
    Refusal.TOO_MANY_NEW_TABLES: "too many new tables in a short time: wait a minute",
    Refusal.GAME_NOT_SAVED: "the game could not be saved: the database is busy (another "
                            "program is writing to it); nothing was changed, try again in "
                            "a moment",
    Refusal.GAME_NOT_SAVED_STOPPING: "the game could not be saved (the server is stopping); "
                                     "nothing was changed",
    Refusal.GAME_NOT_SAVED_ERROR: "the game could not be saved ({detail}); nothing was changed",
    Refusal.STORE_UNREADABLE: "the {what} could not be read ({detail})",
    Refusal.SHEETS_BUSY: "the score sheets are busy: another program is writing to them; "
                         "nothing was changed, try again in a moment",
    Refusal.DATABASE_UNAVAILABLE: "the database cannot be used right now ({detail}); nothing "
                                  "was changed",
    Refusal.DEAL_IN_PLAY: "this deal is still being played: its review opens once it is over",
    Refusal.ONE_ANALYSIS_AT_A_TIME: "one analysis at a time: wait for the one under way, then "
                                    "try again",
    Refusal.ANALYSES_BUSY: "the server is busy analysing other deals: try again later",
    Refusal.NO_SUCH_SHEET: "no such sheet",
    Refusal.NOT_A_SHEET_ID: "not a sheet id (a whole number; `belote sheet list` shows them)",
    Refusal.SHEET_DELETED: "deleted on {date}",
    Refusal.FOLLOW_ONLY: "this link lets you follow the sheet, not change it",
    Refusal.OWNER_ONLY: "only its owner may delete it or manage its links",
    Refusal.PER_SEAT_SHEET: "a {players}-player sheet ({profile}), scored per seat "
                            "(docs/rules.md §12): `belote sheet show {sheet}` shows it; this "
                            "view keeps two teams (NS, EW)",
    Refusal.NO_SUCH_HAND: "sheet {sheet} has no hand {hand}",
    Refusal.NOTHING_TO_UNDO: "no hand to undo",
    Refusal.GAME_ALREADY_WON: "the game was already won after hand {hand}",
    Refusal.GAME_ALREADY_DRAWN: "the game was already ended (a draw) after hand {hand}",
    Refusal.SHEET_PLAYERS: "{text!r} is not 4, 5, 6 or 7",
    Refusal.NAMES_COUNT: "{text!r} gives {n} names, not {count}",
    Refusal.NAME_EMPTY: "{text!r} has an empty name",
    Refusal.IMPORT_NOT_JSON: "{file!r} is not a JSON file: {detail}",
    Refusal.IMPORT_INVALID: "{detail}",
    Refusal.PER_SEAT_TABLE: "profile {profile!r}: a {players}-player sheet is scored per seat "
                            "(docs/rules.md §12); `belote sheet` and `belote score --sheet` keep "
                            "it, this view keeps two teams (NS, EW)",
    Refusal.CHOOSE_TEAM: "choose NS or EW",
    Refusal.NOT_A_TEAM: "{text!r} is not NS or EW",
    Refusal.ENTER_POINTS: "enter one team's trick points (or a capot)",
    Refusal.DECLARATIONS_WHOSE: "say which team scores them",
    Refusal.CHOOSE_CONTRACT: "choose the contract (80…, capot or générale)",
    Refusal.NEGATIVE: "{value!r} is negative",
    Refusal.TRICK_POINTS_RANGE: "{value!r} is outside 0..{total}",
    Refusal.TRICK_POINTS_SUM: "{points} does not add to {total}",
    Refusal.CAPOT_OTHER_SIDE: "{value!r} with a capot by {by} ({other})",
    Refusal.CAPOT_TOTAL: "{value!r} with a capot by {by} (a capot counts {total})",
    Refusal.DECLARATIONS_MAX: "{value!r} is more than one team can declare in a hand (at most "
                              "{limit}: carrés of jacks, nines, aces and tens)",
    Refusal.DECLARATIONS_SUM: "{value!r} is not a sum of declaration values (20, 50, 100, 150, "
                              "200)",
    Refusal.DECLARATIONS_BOTH: "both teams have points ({first} and {second}): only the team "
                               "that wins the comparison scores (§7.6)",
    Refusal.DECLARATIONS_OFF: "{value!r}: {profile} is played without declarations (option "
                              "declarations is false)",
    Refusal.DECLARATIONS_TWICE: "enter them by name or as points after the comparison, not "
                                "both",
    Refusal.DECLARATIONS_TIED: "both teams' best declarations are equal: say whose is higher",
    Refusal.CARRE_TWICE: "only one carré of each rank is in the cards",
    Refusal.TOO_MANY_SEQUENCES: "more sequences than a team's 16 cards can hold",
    Refusal.NO_BELOTE_SANS_ATOUT: "there is no belote in sans-atout (§7.7)",
    Refusal.BELOTE_BOTH: "both teams have belote: only one team holds trump K and Q",
    Refusal.CONTRACT_VALUE: "{value!r} is not a multiple of 10 in 80..{limit}",
    Refusal.MULTIPLIER_VALUE: "{value!r} is not 1, 2 (coinche) or 4 (surcoinche)",
    Refusal.CAPOT_NOT_DOUBLED: "{value!r}: a capot bid cannot be coinched (option "
                               "capot_doublable is false)",
    Refusal.TRUMP_OFF: "{trump!r} is not played here (option {option} is false)",
    Refusal.UNKNOWN_PROFILE: "unknown profile {profile!r} (one of {profiles})",
    Refusal.UNKNOWN_OPTION: "unknown option {name!r} (see docs/rules.md for the option names)",
    Refusal.OPTION_VALUE: "{detail}",
})


class BeloteError(ValueError):
    """Base class of every error the engine raises on bad input or a refused action."""

    code: RuleCode | None = None
    """The rule refused (:class:`IllegalActionError`, and an error that reports one, as
    a record's action refused); None for an error of the input's form."""

    refusal: Refusal | None = None
    """A refusal that is no rule's, by name (:meth:`refused`), or None."""

    values: Mapping[str, object] = MappingProxyType({})
    """The fields of :attr:`refusal` (what its English is written from), by name."""

    context: tuple[str, ...] = ()
    """What the message of a :attr:`refusal` opens with (``("sheet 3",)``)."""

    @classmethod
    def refused(cls, refusal: Refusal, *context: str, **values: object) -> Self:
        """The refusal ``refusal``, its English written from ``values``
        (:data:`REFUSAL_ENGLISH`) after ``context``.

        >>> err = BeloteError.refused(Refusal.NO_SUCH_HAND, sheet=3, hand=9)
        >>> str(err), err.refusal, dict(err.values)
        ('sheet 3 has no hand 9', <Refusal.NO_SUCH_HAND: 'no_such_hand'>, {'sheet': 3, 'hand': 9})
        """
        err = cls(": ".join((*context, REFUSAL_ENGLISH[refusal].format(**values))))
        err.refusal = refusal
        err.values = dict(values)  # (a dict: kept through pickling)
        err.context = tuple(context)
        return err

    def within(self, where: str) -> Self:
        """The same refusal, its message opening with ``where`` (``"hand 3"``) too."""
        out = type(self).__new__(type(self))
        out.__dict__.update(self.__dict__)
        out.args = (f"{where}: {self}",)
        out.context = (where, *self.context)
        return out


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

    def within(self, where: str) -> Self:
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
