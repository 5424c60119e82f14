"""Refusals said in plain words, for people at the table and on the score sheets'
pages: what is wrong and what the rule is, the seats named ("North", "your partner",
"you") and the cards drawn, in the page's language.  A refusal of the rules is said from
its code (:func:`rule_text`); the other refusals of the rooms, the connections and the
score sheets' forms, which name no rule, from their code too (:func:`refusal_text`);
never from their English words.  :func:`refusal_message` is a refusal as a WebSocket's
``error`` message, :func:`error_code` its code.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Final

from belote.cards import (
    card_symbol,
    parse_card,
    spanish_name,
)
from belote.errors import BeloteError, IllegalActionError, Refusal, RuleCode
from belote.play import SEAT_NAMES
from belote.web.i18n import N_, gettext
from belote.web.present import DECL_LABELS
from belote.web.security import PAGE_WORDS

SEAT_WORDS: Final = (N_("North"), N_("East"), N_("South"), N_("West"))
_SUITS: Final = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}

# --- refusals of the rules, by code ---------------------------------------------------
#
# A refusal of the rules (belote.errors.IllegalActionError) is said from its RuleCode and
# its fields, never from its English words: RULE_TEXTS gives each code its sentence, the
# %(names)s of which are the refusal's fields in words (:func:`_field_words`).

# Why a card may not be played (§6), said as the rule: "You may not play %(card)s: ...".
_WHY_CARD: Final = {
    RuleCode.FOLLOW_SUIT: N_("you must follow the suit that was led when you have it."),
    RuleCode.BEAT_THE_MASTER: N_(
        "in trumps you must play higher than the best trump of the trick when you can."),
    RuleCode.OVERTRUMP_PARTNER: N_(
        "holding nothing but trumps, you must play higher than your partner's trump."),
    RuleCode.UNDERTRUMP_PARTNER: N_(
        "you may not play a lower trump than your partner's while you hold other cards."),
    RuleCode.OVERTRUMP: N_(
        "when the trick is trumped and you cannot follow suit, you must play a higher "
        "trump if you have one."),
    RuleCode.UNDERTRUMP: N_(
        "without the suit that was led you must play a trump, even a lower one."),
    RuleCode.MUST_TRUMP: N_(
        "without the suit that was led you must play a trump when you have one."),
    RuleCode.HAND_OVER: N_("the hand is over."),
}

# Why a call is refused (§4): "You may not call %(call)s: ...".
_WHY_CALL: Final = {
    RuleCode.NO_BID_TO_COINCHE: N_("there is no bid to coinche yet."),
    RuleCode.COINCHE_BY_OPPONENTS: N_("only an opponent of the highest bidder may coinche."),
    RuleCode.ALREADY_COINCHED: N_("the contract is already coinched."),
    RuleCode.CAPOT_NOT_COINCHED: N_("a capot bid may not be coinched at this table."),
    RuleCode.COINCHE_IN_TURN: N_("at this table one coinches only in turn."),
    RuleCode.NO_COINCHE_TO_ANSWER: N_("there is no coinche to answer with a surcoinche."),
    RuleCode.ALREADY_SURCOINCHED: N_("the contract is already surcoinched."),
    RuleCode.SURCOINCHE_BY_BIDDERS: N_("only the side that made the bid may surcoinche."),
    RuleCode.PASS_OR_SURCOINCHE: N_(
        "after a coinche, the side that made the bid may only pass or surcoinche."),
    RuleCode.GENERALE_OFF: N_("the générale is not played at this table."),
    RuleCode.BID_NOT_A_MULTIPLE: N_("a bid is a multiple of 10, from 80 up."),
    RuleCode.AUCTION_FROZEN: N_("after a coinche nobody may bid any more."),
    RuleCode.NUMBER_AFTER_CAPOT: N_("after a capot bid, no bid in points may follow."),
    RuleCode.REOPEN_SAME_SUIT: N_("the last bidder may go on only in another suit."),
}

# Each code's sentence, for the reader of the refusal (a player acts for his own seat
# only: the seat refused is "you"); %(why)s is the rule of _WHY_CARD or _WHY_CALL.
RULE_TEXTS: Final[Mapping[RuleCode, str]] = {
    RuleCode.NOT_YOUR_TURN: N_("It is not your turn: %(turn)s plays or speaks now."),
    RuleCode.WRONG_PHASE: N_("Not now: wait for your turn."),
    RuleCode.BIDDING_OVER: N_("The bidding is over: no more calls."),
    RuleCode.BIDDING_GOES_ON: N_("No card yet: the bidding is not over."),
    RuleCode.FIRST_ROUND_TAKE_OR_PASS: N_(
        "In the first round you may only take the turned card or pass."),
    RuleCode.SECOND_ROUND_NO_TAKE: N_(
        "In the second round you name another suit as trump, or pass."),
    RuleCode.TURNED_SUIT_AGAIN: N_(
        "In the second round the suit of the turned card may no longer be chosen."),
    RuleCode.SECOND_ROUND_NAME_A_SUIT: N_(
        "In the second round, name one of %(calls)s as trump, or pass."),
    RuleCode.AUCTION_OVER: N_("The bidding is over: no more calls."),
    RuleCode.NOT_A_CALL: N_(
        "That is not a call: pass, a bid such as 80♥ or capot♠, coinche or surcoinche."),
    RuleCode.DENOMINATION_OFF: N_("A bid in %(trump)s is not played at this table."),
    RuleCode.BID_ABOVE_MAX: N_("The highest bid in points is %(limit)s."),
    RuleCode.BID_TOO_LOW: N_("A bid must go higher than %(bid)s."),
    **dict.fromkeys(_WHY_CALL, N_("You may not call %(call)s: %(why)s")),
    RuleCode.CARD_NOT_HELD: N_("You do not hold %(card)s."),
    **dict.fromkeys(_WHY_CARD, N_("You may not play %(card)s: %(why)s")),
    RuleCode.ANNOUNCE_WITH_FIRST_CARD: N_(
        "Declarations are announced with your first card only."),
    RuleCode.DECLARATIONS_OFF: N_("This game is played without declarations."),
    RuleCode.NO_DECLARATIONS_DECOUVERTE: N_("There are no declarations in belote découverte."),
    RuleCode.DECLARATION_NOT_HELD: N_("You cannot announce a combination you do not hold."),
    RuleCode.COMBINATION_REPEATS_A_CARD: N_("A combination holds each of its cards once."),
    RuleCode.COMBINATION_NOT_HELD: N_("You do not hold %(other)s."),
    RuleCode.CARRE_SCORES_NOTHING: N_("A carré of sevens or eights scores nothing."),
    RuleCode.NOT_A_COMBINATION: N_(
        "Declare a sequence of three cards or more of one suit, or a carré."),
    RuleCode.CARD_IN_TWO_COMBINATIONS: N_("A card counts in one combination only."),
    RuleCode.LONG_RUN_SPLIT: N_(
        "A run of six to eight cards is one cent: it may not be cut in two."),
    RuleCode.BELOTE_WITHOUT_THE_PAIR: N_(
        "Belote is said only by the player who holds the king and queen of trumps."),
    RuleCode.DISCARD_TWO_CARDS: N_("Lay aside two different cards."),
    RuleCode.DISCARD_FIRST: N_("No card yet: %(turn)s first lays two cards aside."),
    RuleCode.NO_DISCARD_NOW: N_(
        "There is nothing to lay aside now: only the taker of a deal with a kitty lays two "
        "cards aside, once he has taken it."),
    RuleCode.NOT_THE_TAKER: N_(
        "%(turn)s took the kitty: the taker lays two cards aside, not you."),
    RuleCode.DEAL_NOT_OVER: N_("the deal is not over"),
    RuleCode.GAME_OVER: N_("the game is over"),
    RuleCode.DEAL_IN_PROGRESS: N_("The deal on the table is not finished yet."),
    RuleCode.NO_DEAL_TO_SCORE: N_("No deal is finished yet."),
}
# The same rule said otherwise for some fields: a call out of turn, a discard of the
# wrong form, the seat to lay aside reading its own refusal.
_IN_THE_BIDDING: Final = N_("It is not your turn: %(turn)s speaks now.")
_NOT_TWO_CARDS: Final = N_("Lay aside exactly two cards.")
_SELF_DISCARD: Final = N_("No card yet: first lay two cards aside.")


def rule_text(lang: str, exc: IllegalActionError, *, seat: int | None = None,
              players: int = 4, spanish: bool = False) -> str:
    """A refusal of the rules in plain words in ``lang``, from its code and fields
    (:data:`RULE_TEXTS`): the seats named ("you" for ``seat``, the reader, "your
    partner"), the cards in words (Spanish ones when ``spanish``), no § number.

    >>> from belote.errors import IllegalPlayError
    >>> err = IllegalPlayError(RuleCode.FOLLOW_SUIT, seat=2, card="AH", where=("trick 3",))
    >>> rule_text("fr", err, seat=2).split(" : ")[0]
    "Vous ne pouvez pas jouer l'as de cœur"
    >>> rule_text("en", err, seat=0)
    'You may not play A♥: you must follow the suit that was led when you have it.'
    """
    code = exc.code
    assert code is not None
    message = RULE_TEXTS[code]
    if code is RuleCode.NOT_YOUR_TURN and exc.call is not None:
        message = _IN_THE_BIDDING
    elif code is RuleCode.DISCARD_TWO_CARDS and exc.given is not None:
        message = _NOT_TWO_CARDS
    elif code is RuleCode.DISCARD_FIRST and seat is not None and exc.turn == seat:
        message = _SELF_DISCARD
    words = _field_words(lang, exc, seat, players, spanish)
    if code in _WHY_CARD:
        words["why"] = gettext(lang, _WHY_CARD[code])
    elif code in _WHY_CALL:
        words["why"] = gettext(lang, _WHY_CALL[code])
    text = gettext(lang, message) % words
    # a message that opens with a name ("your partner took the kitty") opens a sentence
    return text[:1].upper() + text[1:] if message.startswith("%(") else text


def _field_words(lang: str, exc: IllegalActionError, seat: int | None, players: int,
                 spanish: bool) -> dict[str, str]:
    """A refusal's fields in words of ``lang``, by the names of :data:`RULE_TEXTS`."""
    words: dict[str, str] = {}
    if exc.turn is not None:
        words["turn"] = _seat_text(lang, SEAT_NAMES[exc.turn], seat, players)
    if exc.card is not None:
        words["card"] = _card_text(exc.card, spanish, lang)
    for name in ("cards", "other"):
        cards = getattr(exc, name)
        if cards is not None:
            words[name] = ", ".join(_card_text(c, spanish, lang) for c in cards)
    if exc.cards is not None and "card" not in words:
        words["card"] = words["cards"]  # the cards a kitty discard names, not held
    if exc.call is not None:
        words["call"] = _call_text(lang, exc.call)
    if exc.calls is not None:
        words["calls"] = ", ".join(_trump_text(lang, c) for c in exc.calls)
    if exc.bid is not None:
        words["bid"] = _bid_text(lang, exc.bid)
    if exc.trump is not None:
        words["trump"] = _trump_text(lang, exc.trump)
    if exc.limit is not None:
        words["limit"] = str(exc.limit)
    return words


def say_refusal(lang: str, exc: BeloteError, *, seat: int | None = None, players: int = 4,
                spanish: bool = False, teams: Mapping[str, str] | None = None) -> str:
    """Any refusal in plain words in ``lang``: a refusal of the rules from its code
    (:func:`rule_text`), another refusal from its code (:func:`refusal_text`); an
    error that has no code (a file that is no sheet, a record of the wrong form) keeps
    its message.

    >>> from belote.web.seats import RoomError
    >>> say_refusal("fr", RoomError.refused(Refusal.SEAT_TAKEN, seat="N", name="Ann"))
    'La place Nord est prise par Ann.'
    """
    if isinstance(exc, IllegalActionError) and exc.code is not None:
        return rule_text(lang, exc, seat=seat, players=players, spanish=spanish)
    if exc.refusal is not None:
        return refusal_text(lang, exc, seat=seat, players=players, teams=teams)
    return str(exc)


def error_code(exc: BeloteError) -> str | None:
    """What ``exc`` refuses, by code: the rule's (:class:`~belote.errors.RuleCode`)
    or another refusal's (:class:`~belote.errors.Refusal`); None for an error that
    has none."""
    code = exc.code or exc.refusal
    return None if code is None else str(code)


def refusal_message(exc: BeloteError, lang: str, **how: Any) -> dict[str, Any]:
    """A refusal as a WebSocket's ``error`` message: its words in ``lang``
    (:func:`say_refusal`, given ``how``) and its code."""
    out: dict[str, Any] = {"type": "error", "message": say_refusal(lang, exc, **how)}
    code = error_code(exc)
    if code is not None:
        out["code"] = code
    return out


# --- the other refusals, by code ------------------------------------------------------
#
# A refusal that is no rule's (belote.errors.Refusal: the rooms, the connections, the
# score sheets and their forms) is said from its code and fields too, never from its
# English: REFUSAL_TEXTS gives each code its sentence, whose %(names)s are its fields in
# words (:func:`_refusal_words`).  A few fields are left unsaid on purpose
# (UNSAID_FIELDS): a room's id (the page's own address), a system error's English
# detail, a field already said by another.

REFUSAL_TEXTS: Final[Mapping[Refusal, str]] = {
    Refusal.NO_SUCH_ROOM: N_("There is no such room (it may have closed)."),
    Refusal.ROOM_CLOSED: N_("This room was closed: %(reason)s"),
    Refusal.ROOM_CANNOT_OPEN: N_(
        "This room cannot be opened right now: try again in a moment."),
    Refusal.ROOM_GAME_OVER: N_("the game is over"),
    Refusal.GAME_STARTED: N_("the game has already started"),
    Refusal.GAME_NOT_STARTED: N_("the game has not started"),
    Refusal.DEAL_OVER: N_("the deal is over: ask for the next deal"),
    Refusal.DEAL_NOT_OVER: N_("the deal is not over"),
    Refusal.SEAT_TAKEN: N_("The %(seat)s seat is taken by %(name)s."),
    Refusal.SEAT_NOT_EMPTY: N_("The %(seat)s seat is not empty."),
    Refusal.NOT_A_SEAT: N_("This table has %(players)s seats: %(seats)s."),
    Refusal.SEAT_HELD: N_("you already hold seat %(seat)s"),
    Refusal.NOT_A_SEAT_WORD: N_("“%(text)s” is not a seat: choose %(seats)s."),
    Refusal.ONE_SEAT_PER_PLAYER: N_(
        "You already hold the %(seat)s seat at this table: one seat per player."),
    Refusal.PRIVATE_TABLE: N_("a table against bots is private: nobody else can sit there"),
    Refusal.INVITATION_NEEDED: N_("only someone invited (the room's link) can take a seat"),
    Refusal.TAKE_A_SEAT: N_("take a seat first"),
    Refusal.LEAVE_BEFORE_START: N_("a seat can be left only before the game starts"),
    Refusal.NO_HINT_NOW: N_("No hint now: it is not your turn."),
    Refusal.CHAT_PRIVATE: N_("A table against bots has no chat."),
    Refusal.CHAT_EMPTY: N_("Chat: the message is empty."),
    Refusal.CHAT_NOT_TEXT: N_("Chat: a message is text, or one of the quick messages."),
    Refusal.CHAT_TOO_LONG: N_(
        "Chat: a message has at most %(max)s characters (this one has %(n)s)."),
    Refusal.CHAT_TOO_FAST: N_("Chat: too many messages in a short time; wait a few seconds."),
    Refusal.CHAT_NO_SEAT: N_(
        "Chat: only the players and the spectators of this room may write."),
    Refusal.NOT_A_MESSAGE: N_("A message is a JSON object with a type."),
    Refusal.HELLO_FIRST: N_("Say hello first, with your seat's token or the room's link."),
    Refusal.UNKNOWN_MESSAGE: N_("Unknown message: %(kind)s."),
    Refusal.TOO_BIG: N_("The message is too big: %(size)s bytes, more than %(limit)s."),
    Refusal.NOT_JSON: N_("The message could not be read (it is not valid JSON)."),
    Refusal.NOT_WHOLE: N_("“%(text)s” is not a whole number."),
    Refusal.OUT_OF_RANGE: N_("%(value)s is outside %(low)s to %(high)s."),
    Refusal.BAD_FIELD: N_("The field %(field)s is not valid."),
    Refusal.NOT_JSON_TEXT: N_("A message is JSON text."),
    Refusal.EXPECTED_OBJECT: N_("The request is a JSON object."),
    Refusal.NO_HELLO: N_("No hello in time: the connection is closed. Reload the page."),
    Refusal.TOO_MANY_MESSAGES: N_("Too many messages: the connection is closed. Reload the page."),
    Refusal.CROSS_SITE: N_("Refused: the connection comes from another site."),
    Refusal.NO_PAGE: N_("This address leads to no page."),
    Refusal.BOT_NEEDS_SEAT: N_("Only a seated player may put a bot at the table."),
    Refusal.JOIN_NEEDS_INVITATION: N_("Taking a seat needs the room's invitation (its link)."),
    Refusal.BAD_REQUEST: N_("The request is not valid (%(fields)s)."),
    Refusal.METHOD_NOT_ALLOWED: N_("This address does not answer to the %(method)s method."),
    Refusal.REQUEST_REFUSED: N_("The request is refused (error %(status)s)."),
    Refusal.NOT_A_CARD_TEXT: N_("“%(text)s” is not a card."),
    Refusal.BAD_TOKEN: N_("Your token holds no seat at this table: take a seat."),
    Refusal.INTERNAL_ERROR: N_("Something went wrong on the server: try again."),
    Refusal.NO_IDENTITY: N_("Reload the page first: this browser has no identity yet."),
    Refusal.TOO_MANY_SOCKETS: N_(
        "Too many connections are open from your network: close some and try again."),
    Refusal.NO_FOLLOW_IN_TIME: N_(
        "Nothing valid was sent within %(seconds)s s: the connection is closed."),
    Refusal.FOLLOW_FIRST: N_(
        'The first message is {"type": "follow"}, with the sheet\'s secret or without.'),
    Refusal.PING_ONLY: N_('After the first message, only {"type": "ping"} is read.'),
    Refusal.TOO_MANY_FOLLOWERS: N_(
        "Too many pages follow this score sheet: close one and reload the page."),
    Refusal.SERVER_STOPPING: N_("The server is stopping: reload the page in a moment."),
    Refusal.TOO_MANY_TABLES: N_(
        "You have %(n)s tables open already: finish or leave one (an unused table closes "
        "by itself)."),
    Refusal.SERVER_FULL: N_("The server is full of rooms right now: try again later."),
    Refusal.TOO_MANY_NEW_TABLES: N_("too many new tables in a short time: wait a minute"),
    Refusal.GAME_NOT_SAVED: N_(
        "The game could not be saved: the database is busy (another program is writing "
        "to it). Nothing was changed: try again in a moment."),
    Refusal.GAME_NOT_SAVED_STOPPING: N_(
        "The game could not be saved: the server is stopping. Nothing was changed: reload "
        "the page in a moment."),
    Refusal.GAME_NOT_SAVED_ERROR: N_(
        "The game could not be saved: the database cannot be used right now. Nothing was "
        "changed: try again in a moment."),
    Refusal.STORE_UNREADABLE: N_(
        "The database cannot be read right now: try again in a moment."),
    Refusal.SHEETS_BUSY: N_(
        "The score sheets are busy: another program is writing to them. Nothing was "
        "changed: try again in a moment."),
    Refusal.DATABASE_UNAVAILABLE: N_(
        "The database cannot be used right now. Nothing was changed: try again in a "
        "moment."),
    Refusal.DEAL_IN_PLAY: N_(
        "This deal is still being played: its review opens once it is over."),
    Refusal.ONE_ANALYSIS_AT_A_TIME: N_(
        "One analysis at a time: wait for the one under way, then try again."),
    Refusal.ANALYSES_BUSY: N_(
        "The server is busy analysing other deals: try again in a minute."),
    Refusal.NO_SUCH_SHEET: N_("There is no score sheet number %(sheet)s."),
    Refusal.NOT_A_SHEET_ID: N_("“%(text)s” is not a score sheet's number."),
    Refusal.SHEET_DELETED: N_("Score sheet %(sheet)s was deleted on %(date)s."),
    Refusal.FOLLOW_ONLY: N_("Your link lets you follow score sheet %(sheet)s, not change it."),
    Refusal.OWNER_ONLY: N_(
        "Only the owner of score sheet %(sheet)s may delete it or manage its links."),
    Refusal.PER_SEAT_SHEET: N_(
        "Score sheet %(sheet)s is for %(players)s players (%(profile)s), each scoring for "
        "himself: these pages show the sheets of two teams; the command belote sheet show "
        "%(sheet)s shows it."),
    Refusal.NO_SUCH_HAND: N_("Score sheet %(sheet)s has no hand %(hand)s."),
    Refusal.NOTHING_TO_UNDO: N_("Score sheet %(sheet)s has no hand to undo."),
    Refusal.GAME_ALREADY_WON: N_("The game was already won after hand %(hand)s."),
    Refusal.GAME_ALREADY_DRAWN: N_("The game already ended in a draw after hand %(hand)s."),
    Refusal.NAMES_COUNT: N_("“%(text)s” gives %(n)s names: %(count)s are needed."),
    Refusal.NAME_EMPTY: N_("“%(text)s”: a name is empty."),
    Refusal.IMPORT_NOT_JSON: N_("The file %(file)s is not a JSON file."),
    Refusal.IMPORT_INVALID: N_(
        "The file %(file)s is not a score sheet that can be imported (a sheet exported by "
        "belote)."),
    Refusal.PER_SEAT_TABLE: N_(
        "A game of %(players)s players (%(profile)s) is scored per seat: these pages keep "
        "the sheets of two teams; the command belote sheet keeps it."),
    Refusal.CONTRACT_VALUE: N_(
        "The contract %(value)s is not a bid: a multiple of 10 from 80 up to %(limit)s."),
    Refusal.MULTIPLIER_VALUE: N_(
        "The multiplier is 1, 2 (coinche) or 4 (surcoinche), not %(value)s."),
    Refusal.CAPOT_NOT_DOUBLED: N_("A capot bid may not be coinched at this table."),
    Refusal.TRUMP_OFF: N_("%(trump)s is not played at this table."),
    Refusal.SHEET_PLAYERS: N_("A sheet has 4, 5, 6 or 7 players, not “%(text)s”."),
    Refusal.CHOOSE_TEAM: N_("Say which team took."),
    Refusal.NOT_A_TEAM: N_("Choose one of the two teams, not “%(text)s”."),
    Refusal.ENTER_POINTS: N_("points: enter one team's trick points (or a capot)"),
    Refusal.DECLARATIONS_WHOSE: N_("declarations: say which team scores them"),
    Refusal.CHOOSE_CONTRACT: N_("contract: choose the contract (80…, capot or générale)"),
    Refusal.NEGATIVE: N_("%(value)s: points cannot be negative."),
    Refusal.TRICK_POINTS_RANGE: N_(
        "%(team)s cannot have made %(value)s trick points: the tricks of a hand hold "
        "%(total)s points in all (the 10 for the last trick included)."),
    Refusal.TRICK_POINTS_SUM: N_(
        "The two teams' trick points must add up to %(total)s, not %(points)s."),
    Refusal.CAPOT_OTHER_SIDE: N_(
        "With a capot by %(by)s the other team takes no trick: it has 0 points, not "
        "%(value)s."),
    Refusal.CAPOT_TOTAL: N_("A capot by %(by)s counts %(total)s points, not %(value)s."),
    Refusal.DECLARATIONS_MAX: N_(
        "Declarations: %(value)s is more than one team can declare in a hand (at most "
        "%(limit)s: carrés of jacks, nines, aces and tens)."),
    Refusal.DECLARATIONS_SUM: N_(
        "Declarations: no hand makes %(value)s; a team declares tierces (20), cinquantes "
        "(50), cents (100) and carrés (100, 150 or 200)."),
    Refusal.DECLARATIONS_BOTH: N_(
        "Only the team that wins the comparison of declarations scores them, not both "
        "(%(first)s and %(second)s)."),
    Refusal.DECLARATIONS_OFF: N_(
        "This game (%(profile)s) is played without declarations: %(value)s cannot be "
        "scored."),
    Refusal.DECLARATIONS_TWICE: N_(
        "Enter the declarations by name or as the points won after the comparison, not "
        "both."),
    Refusal.DECLARATIONS_TIED: N_(
        "Both teams' best declarations are equal: say whose is higher (the higher card "
        "wins, then a sequence in trumps), or that nobody scores them."),
    Refusal.CARRE_TWICE: N_(
        "There is only one %(kind)s in the cards: it cannot be declared twice."),
    Refusal.TOO_MANY_SEQUENCES: N_(
        "%(team)s cannot hold that many sequences: two players of eight cards declare two "
        "sequences each at most."),
    Refusal.NO_BELOTE_SANS_ATOUT: N_("There is no belote in sans-atout."),
    Refusal.BELOTE_BOTH: N_(
        "Only one team can say belote-rebelote: one player holds the king and queen of "
        "trumps."),
    Refusal.UNKNOWN_PROFILE: N_("There is no game called %(profile)s: choose %(profiles)s."),
    Refusal.UNKNOWN_OPTION: N_("There is no option called %(name)s."),
    Refusal.OPTION_VALUE: N_("The option %(name)s cannot be %(value)s."),
    **PAGE_WORDS,
}

# The fields a code's sentence leaves unsaid on purpose (every other field is said).
UNSAID_FIELDS: Final[Mapping[Refusal, frozenset[str]]] = {
    Refusal.NO_SUCH_ROOM: frozenset({"room"}),
    Refusal.SERVER_FULL: frozenset({"n"}),  # the server's own count of rooms
    Refusal.ROOM_CLOSED: frozenset({"room", "why", "seconds", "detail"}),  # said as reason
    Refusal.ROOM_CANNOT_OPEN: frozenset({"room", "detail"}),
    Refusal.NOT_JSON: frozenset({"detail"}),
    Refusal.NOT_WHOLE: frozenset({"field"}),  # the form shows the refusal at its field
    Refusal.OUT_OF_RANGE: frozenset({"field"}),
    Refusal.BAD_FIELD: frozenset({"detail"}),
    Refusal.NOT_A_SEAT_WORD: frozenset({"players"}),  # said in the seats' names
    Refusal.REQUEST_TOO_LARGE: frozenset({"limit"}),  # said as "max"
    Refusal.CAPOT_OTHER_SIDE: frozenset({"other", "team"}),  # the team is "the other"
    Refusal.CAPOT_TOTAL: frozenset({"team"}),  # the team is the capot's, "by"
    Refusal.IMPORT_NOT_JSON: frozenset({"detail"}),
    # an English detail (pydantic's, Starlette's, SQLite's, a record's checks) unsaid
    Refusal.BAD_REQUEST: frozenset({"problems"}),
    Refusal.METHOD_NOT_ALLOWED: frozenset({"detail"}),
    Refusal.REQUEST_REFUSED: frozenset({"detail"}),
    Refusal.DATABASE_UNAVAILABLE: frozenset({"detail"}),
    Refusal.GAME_NOT_SAVED_ERROR: frozenset({"detail"}),
    Refusal.STORE_UNREADABLE: frozenset({"what", "detail"}),  # the table read, in English
    Refusal.IMPORT_INVALID: frozenset({"detail"}),
    Refusal.BAD_TOKEN: frozenset({"room"}),
    Refusal.OPTION_VALUE: frozenset({"detail"}),
    Refusal.TRUMP_OFF: frozenset({"option"}),  # the option's name is for the command line
    Refusal.CAPOT_NOT_DOUBLED: frozenset({"value"}),
    Refusal.NEGATIVE: frozenset({"team"}),
    Refusal.DECLARATIONS_MAX: frozenset({"team"}),
    Refusal.DECLARATIONS_SUM: frozenset({"team"}),
    Refusal.CARRE_TWICE: frozenset(),
}

# A count of declarations by name (the form's decl_NS_tierce...) out of its range.
_DECLARATION_COUNT: Final = N_(
    "Declarations by name: enter how many of each kind, from %(low)s to %(high)s, not "
    "%(value)s.")
# ... and one that is no whole number.
_DECLARATION_COUNT_WORD: Final = N_(
    "Declarations by name: enter how many of each kind as a whole number, not %(text)s.")
# A contract refused where bids have no highest value (max_bid unset).
_NO_HIGHEST_BID: Final = N_("The contract %(value)s is not a bid: a multiple of 10, from 80 up.")

# Why a room was closed (web.room_manager.CLOSED_WHY), said in the page's language.
_CLOSED_WHY: Final = {
    "idle": N_("nobody visited it for %(span)s."),
    "evicted": N_("the server was full, and this table was the one left idle the longest."),
    "unrestorable": N_("it could not be restored after a restart of the server."),
    "other": N_("it is no longer open."),
}


def span_text(lang: str, seconds: float) -> str:
    """A length of time in words of ``lang``: "6 hours", "25 minutes", "a minute".

    >>> span_text("fr", 6 * 3600), span_text("en", 1500)
    ('6 heures', '25 minutes')
    """
    if seconds >= 3600:
        return gettext(lang, N_("%(n)s hours")) % {"n": f"{round(seconds / 3600, 2):g}"}
    if seconds < 60:
        return gettext(lang, N_("less than a minute"))
    minutes = round(seconds / 60)
    if minutes > 1:
        return gettext(lang, N_("%(n)s minutes")) % {"n": minutes}
    return gettext(lang, N_("a minute"))


def refusal_text(lang: str, exc: BeloteError, *, seat: int | None = None, players: int = 4,
                 teams: Mapping[str, str] | None = None) -> str:
    """A refusal that is no rule's in plain words in ``lang``, from its code and fields
    (:data:`REFUSAL_TEXTS`): the seats named ("you" for ``seat``, the reader), the teams
    of a score sheet by their names (``teams``, ``{"NS": "Nous", "EW": "Eux"}``).

    >>> from belote.sheets import SheetError
    >>> refusal_text("fr", SheetError.refused(Refusal.NO_SUCH_HAND, sheet=3, hand=9))
    "La feuille de score 3 n'a pas de donne 9."
    """
    refusal = exc.refusal
    assert refusal is not None
    words = _refusal_words(lang, refusal, exc.values, seat, players, teams)
    sentence = REFUSAL_TEXTS[refusal]
    if refusal is Refusal.CONTRACT_VALUE and not words.get("limit"):
        sentence = _NO_HIGHEST_BID  # (no max_bid)
    elif refusal is Refusal.OUT_OF_RANGE and str(exc.values.get("field", "")).startswith(
            "decl_"):
        sentence = _DECLARATION_COUNT  # a count of the form's declarations by name
    elif refusal is Refusal.NOT_WHOLE and str(exc.values.get("field", "")).startswith(
            "decl_"):
        sentence = _DECLARATION_COUNT_WORD
    return gettext(lang, sentence) % words


def _refusal_words(lang: str, refusal: Refusal, values: Mapping[str, object],
                   seat: int | None, players: int,
                   teams: Mapping[str, str] | None) -> dict[str, str]:
    """A refusal's fields in words of ``lang``, by the names of :data:`REFUSAL_TEXTS`."""
    words: dict[str, str] = {}
    for name, value in values.items():
        if name == "seat" and isinstance(value, str) and value in SEAT_NAMES:
            words[name] = _seat_text(lang, value, seat, players)
        elif name in ("team", "by"):
            words[name] = (teams or {}).get(str(value), str(value))
        elif name == "kind" and isinstance(value, str) and value in DECL_LABELS:
            words[name] = gettext(lang, DECL_LABELS[value])
        elif name == "trump" and isinstance(value, str):
            words[name] = _trump_text(lang, value)
        elif name == "seats" and isinstance(value, str):
            letters = [c for c in value if c in SEAT_NAMES]
            words[name] = ", ".join(gettext(lang, SEAT_WORDS[SEAT_NAMES.index(c)])
                                    for c in letters)
        else:
            words[name] = str(value)
    words.setdefault("team", gettext(lang, N_("A team")))
    if refusal is Refusal.ROOM_CLOSED:
        why = str(values.get("why", "other"))
        span = {"span": span_text(lang, float(str(values.get("seconds", 0))))}
        words["reason"] = gettext(lang, _CLOSED_WHY.get(why, _CLOSED_WHY["other"])) % span
    if refusal is Refusal.REQUEST_TOO_LARGE:
        words["max"] = words.get("limit", "")
    return words


def _seat_text(lang: str, letter: str, you: int | None, players: int) -> str:
    seat = SEAT_NAMES.index(letter)
    if you is not None and seat == you:
        return gettext(lang, N_("you"))
    if you is not None and players == 4 and seat == (you + 2) % 4:
        return gettext(lang, N_("your partner"))
    return gettext(lang, SEAT_WORDS[seat])


# The cards in French words (a French page): the French pack's ranks and suits, the
# Spanish pack keeping its own words (docs/rules.md §1.2), each with its article.
_FR_RANKS: Final = {"7": "7", "8": "8", "9": "9", "T": "10", "J": "valet", "Q": "dame",
                    "K": "roi", "A": "as"}
_FR_SUITS: Final = {"S": "pique", "H": "cœur", "D": "carreau", "C": "trèfle"}
_FR_LETTERS: Final = {"J": "V", "Q": "D", "K": "R"}
_FEMININE: Final = frozenset({"dame", "sota"})


def french_card(code: str, spanish: bool = False, article: bool = True) -> str:
    """A card in French words: ``l'as de cœur``, ``le valet de carreau``, ``la sota
    de oros`` (without ``article``: ``valet de carreau``)."""
    c = parse_card(code)
    name = spanish_name(c) if spanish else f"{_FR_RANKS[code[0]]} de {_FR_SUITS[code[1]]}"
    if not article:
        return name
    first = name.split(" ", 1)[0]
    if first == "as":
        return "l'" + name
    return ("la " if first in _FEMININE else "le ") + name


def _card_text(code: str, spanish: bool, lang: str = "en", article: bool = True) -> str:
    """A card in a sentence of ``lang``: ``10♥`` and ``the sota de oros`` in English
    (a card named in words takes its article, as in French), ``le 10 de cœur`` and
    ``la sota de oros`` in French; without ``article``: ``sota de oros``.

    >>> _card_text("AD", True), _card_text("AD", True, "fr"), _card_text("AD", False)
    ('the as de oros', "l'as de oros", 'A♦')
    """
    try:
        c = parse_card(code)
    except Exception:
        return code
    if lang == "fr":
        return french_card(code, spanish, article)
    if spanish:
        return ("the " if article else "") + spanish_name(c)
    return card_symbol(c)


def french_short(code: str) -> str:
    """A card's short French name, the letters of a French pack: ``V♦``, ``10♥``."""
    return _FR_LETTERS.get(code[0], "10" if code[0] == "T" else code[0]) + _SUITS[code[1]]


def _bid_text(lang: str, name: str) -> str:
    m = re.fullmatch(r"(\d+|capot|generale)(SA|TA|[SHDC])", name)
    if not m:
        return name
    value = "générale" if m.group(1) == "generale" else m.group(1)
    return f"{value} {_trump_text(lang, m.group(2))}"


def _trump_text(lang: str, trump: str) -> str:
    if trump == "SA":
        return gettext(lang, N_("sans-atout"))
    if trump == "TA":
        return gettext(lang, N_("tout-atout"))
    return _SUITS.get(trump, trump)


def _call_text(lang: str, call: str) -> str:
    calls = {"pass": N_("pass"), "take": N_("take"), "coinche": N_("coinche"),
             "surcoinche": N_("surcoinche")}
    if call in calls:
        return gettext(lang, calls[call])
    return _bid_text(lang, call)
