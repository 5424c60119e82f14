"""The bot interface and the drivers that seat bots at a table.

A bot is anything with the methods of :class:`Bot`.  It only ever receives
a :class:`~belote.round.PlayerView`: the seat's own cards, the calls, the cards
played and what was said (docs/rules.md §7.4, §7.6, §7.7), never the
:class:`~belote.round.Round`, the other hands or the deck.  :func:`play_deal`
is the one place that holds the round and hands each bot its view.

The drivers seat as many bots as the profile has players: four, or three and two
for belote at small tables (docs/rules.md §12, profiles ``classic-3p`` and
``classic-2p``), the taker's kitty discard (§12.1 ``kitty``) included and belote
découverte (§12.2, no bidding) played from the first card.

>>> from belote.bots.registry import make_bot
>>> from belote.options import make_rules
>>> bots = [make_bot("random", seed=s) for s in range(4)]
>>> match = play_game(make_rules(), bots, seed=7)
>>> match.finished, match.winner in (0, 1)
(True, True)
>>> bots3 = [make_bot("heuristic", seed=s) for s in range(3)]
>>> match = play_game(make_rules("classic-3p", {"three_deal": "kitty"}), bots3, seed=3)
>>> match.finished, len(match.seat_totals)
(True, 3)

The bots by name (``make_bot("pimc:worlds=40")``) are :mod:`belote.bots.registry`'s.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, ClassVar, Final, NoReturn, Protocol, TypeGuard, runtime_checkable

from belote.actions import PLAIN_PLAYS as _PLAIN_PLAYS
from belote.actions import Action, Discard, Play, combination_cards
from belote.actions import Call as CallAction
from belote.cards import (
    ACE,
    ALL_TRUMP,
    KING,
    NO_TRUMP,
    QUEEN,
    RANK_OF,
    SUIT_LETTERS,
    SUIT_MASKS,
    SUIT_OF,
    TEN,
    Card,
    CardMask,
    TrumpMode,
    card,
    card_name,
    rank_of,
    scan_forward,
    suit_of,
)
from belote.declarations import Declaration
from belote.errors import IllegalActionError, IllegalPlayError, OptionError
from belote.game import Match
from belote.options import Rules
from belote.play import SEAT_NAMES
from belote.round import ALL_PASS, BIDDING, DISCARD, OVER, PLAY, Event, PlayerView, Round

__all__ = [
    "BaseBot",
    "Bot",
    "BotSetting",
    "GameWeighing",
    "apply_for",
    "check_settings",
    "check_table",
    "default_discard",
    "discard_of",
    "discard_pairs",
    "discard_trump",
    "legal_calls",
    "legal_cards",
    "next_action",
    "play_deal",
    "play_game",
    "played_by",
]


@runtime_checkable
class Bot(Protocol):
    """A player: it answers calls, cards, declarations and belote from a view only."""

    name: str

    def call(self, view: PlayerView) -> str:
        """One of ``view.legal_calls``, in the bidding phase."""
        ...

    def play(self, view: PlayerView) -> int:
        """One of ``view.legal_cards``, in the play phase."""
        ...

    def declarations(self, view: PlayerView) -> Sequence[Declaration] | None:
        """What to announce with the first card (§7.4); None announces all held."""
        ...

    def say_belote(self, view: PlayerView, card: Card) -> bool:
        """Whether to say belote / rebelote when playing the trump king or queen (§7.7)."""
        ...

    def discard(self, view: PlayerView) -> list[Card]:
        """Three players, kitty deal (§12.1): the two cards of ``view.hand`` (twelve,
        the kitty taken) that the taker lays aside, in the ``discard`` phase.

        A bot without this method is given :func:`default_discard`'s choice."""
        ...


class GameWeighing(StrEnum):
    """A bot's setting ``game``: how a call weighs the game so far (§11)."""

    IGNORE = "ignore"  # a deal's score difference
    AWARE = "aware"  # its score weighed by the chance to win the game


@dataclass(frozen=True, slots=True)
class BotSetting:
    """One setting a bot accepts in its spec (``pimc:worlds=40``).

    ``kind`` is int, float, str, or a :class:`~enum.StrEnum` whose words are the
    setting's ``choices`` (the value read is then the member)."""

    kind: type  # int, float, str or a StrEnum
    default: Any
    help: str
    minimum: float | None = None
    choices: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if issubclass(self.kind, StrEnum) and not self.choices:
            object.__setattr__(self, "choices", tuple(m.value for m in self.kind))


class BaseBot(ABC):
    """Defaults shared by the bots: announce everything held, always say belote, lay
    aside the kitty discard of :func:`default_discard`.

    Subclasses set :attr:`kind` and :attr:`SETTINGS` and implement ``call`` and
    ``play`` (and may replace :meth:`discard`).  ``self.rng`` is the bot's
    own generator, seeded by ``seed``.
    """

    kind: ClassVar[str] = "base"
    SETTINGS: ClassVar[Mapping[str, BotSetting]] = {}

    def __init__(self, seed: int | None = None, **settings: Any) -> None:
        self.seed = seed
        self.rng = random.Random(seed)
        self.settings: dict[str, Any] = check_settings(self.kind, self.SETTINGS, settings)
        self.given: frozenset[str] = frozenset(settings)  # the settings not left at default
        given = ",".join(f"{k}={settings[k]}" for k in settings)
        self.name = f"{self.kind}:{given}" if given else self.kind
        # Whether every card is a plain Play (actions.PLAIN_PLAYS): the bot keeps the
        # default announcement and belote of these methods, so the driver need not ask
        # it (next_action: a view's fields read for every card cost a random deal 3%).
        cls = type(self)
        self.plain_cards: bool = (cls.declarations is BaseBot.declarations
                                  and cls.say_belote is BaseBot.say_belote)

    @abstractmethod
    def call(self, view: PlayerView) -> str:
        """One of the seat's legal calls."""

    @abstractmethod
    def play(self, view: PlayerView) -> int:
        """One of the seat's legal cards."""

    def declarations(self, view: PlayerView) -> Sequence[Declaration] | None:
        return None

    def say_belote(self, view: PlayerView, card: Card) -> bool:
        return True

    def discard(self, view: PlayerView) -> list[Card]:
        """The kitty discard (§12.1): :func:`default_discard`'s two cards (the view of
        the card play shows them to the taker, ``PlayerView.discards``)."""
        return default_discard(view)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r} seed={self.seed!r}>"


def check_settings(
    bot: str, known: Mapping[str, BotSetting], settings: Mapping[str, Any]
) -> dict[str, Any]:
    """Every setting of ``known`` by name: its value in ``settings`` (a spec's text or a
    value), checked, or its default; an unknown or a bad one refused, by name."""
    values = {k: s.default for k, s in known.items()}
    for key, value in settings.items():
        if key not in known:
            raise OptionError(
                f"bot {bot!r}: unknown setting {key!r}"
                + (f" (one of {', '.join(known)})" if known else " (it takes none)")
            )
        values[key] = _check_setting(bot, key, known[key], value)
    return values


def _check_setting(bot: str, key: str, setting: BotSetting, value: Any) -> Any:
    where = f"bot {bot!r}: setting {key!r}"
    kind: Any = setting.kind
    if kind is str or issubclass(kind, StrEnum):
        if not isinstance(value, str) or (setting.choices and value not in setting.choices):
            raise OptionError(f"{where}: {value!r} is not one of {', '.join(setting.choices)}")
        return kind(value)
    if isinstance(value, str):
        try:
            value = kind(value.strip())
        except ValueError:
            what = "whole number" if setting.kind is int else "number"
            raise OptionError(f"{where}: {value!r} is not a {what}") from None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise OptionError(f"{where}: {value!r} is not a number")
    if setting.kind is int and not isinstance(value, int):
        raise OptionError(f"{where}: {value!r} is not a whole number")
    if setting.minimum is not None and value < setting.minimum:
        raise OptionError(f"{where}: {value!r} is below {setting.minimum:g}")
    return kind(value)


def check_table(rules: Rules, bots: Sequence[object], where: str = "play_deal") -> None:
    """One bot a seat: as many bots as the profile has players (4, or 3 and 2, §12),
    each able to play at that table (None: a seat a person plays)."""
    n = rules.players
    if len(bots) != n:
        seats = " ".join(SEAT_NAMES[:n])
        raise OptionError(
            f"{where}: profile {rules.profile!r} seats {n} players ({seats}): "
            f"give {n} bots, got {len(bots)}"
        )


# --- what a view offers ---------------------------------------------------------


def legal_cards(view: PlayerView) -> list[Card]:
    """The seat's legal cards (empty unless it is its turn to play)."""
    return list(view.legal_cards)


def legal_calls(view: PlayerView) -> list[str]:
    """The seat's legal calls (empty unless it is its turn to call)."""
    return list(view.legal_calls)


def played_by(view: PlayerView) -> list[CardMask]:
    """The cards each seat has played so far (completed tricks and the current one),
    one mask a seat of the table (four, or three and two, §12)."""
    n = view.rules.players
    out = [0] * n
    for t in view.tricks:
        for i, c in enumerate(t.cards):
            out[(t.leader + i) % n] |= 1 << c
    for i, c in enumerate(view.trick):
        out[(view.trick_leader + i) % n] |= 1 << c
    return out


def discard_trump(view: PlayerView) -> TrumpMode | None:
    """The trump named by the taker, from the calls (the kitty discard comes before the
    contract is in the view, §12.1); None before anybody took."""
    if view.contract is not None:
        return view.contract.trump
    named = {**{letter: suit for suit, letter in enumerate(SUIT_LETTERS)},
             "SA": NO_TRUMP, "TA": ALL_TRUMP}
    for call in reversed(view.calls):
        text = getattr(call, "call", "")
        if text in named:
            return named[text]
        if text == "take" and view.turned is not None:
            return suit_of(view.turned)
    return None


def default_discard(view: PlayerView) -> list[Card]:
    """Two cards of the taker's twelve to lay aside (§12.1 ``kitty``): they count in his
    tricks, so a ten without its ace is put safe; short plain suits are emptied (a void
    to trump in); trumps and aces are kept.  No card is forbidden (docs/rules.md §12.1 names
    none); a trump goes only when fewer than two other cards are held.

    >>> from belote.cards import mask_names
    >>> from belote.options import make_rules
    >>> rnd = Round(make_rules("classic-3p", {"three_deal": "kitty"}), 0, list(range(32)))
    >>> rnd.call("H"); str(rnd.phase)
    Call(seat=1, call='H')
    'discard'
    >>> mask_names(rnd.view(1).hand)
    ['7S', '8S', '9S', '8H', '9H', 'AH', '7D', '8D', '7C', '8C', 'KC', 'AC']
    >>> [card_name(c) for c in default_discard(rnd.view(1))]  # a void in diamonds
    ['7D', '8D']
    """
    return discard_of(view.hand, discard_trump(view))


def discard_of(hand: CardMask, trump: TrumpMode | None) -> list[Card]:
    """:func:`default_discard`'s two cards of ``hand`` under ``trump`` (None: not known):
    the first of :func:`discard_pairs`."""
    return list(discard_pairs(hand, trump, 1)[0])


def discard_pairs(hand: CardMask, trump: TrumpMode | None,
                  most: int | None = None) -> list[tuple[Card, Card]]:
    """The pairs of ``hand`` the discard rule weighs (its plain cards, every card when
    fewer than two are plain), best first by the rule's own value (the ``most`` best;
    None: all), each pair in card order; the first is :func:`discard_of`'s."""
    cards = list(scan_forward(hand))
    plain = [c for c in cards if trump is None or trump >= NO_TRUMP or suit_of(c) != trump]
    pool = plain if len(plain) >= 2 else cards

    def value(c: Card) -> float:
        """How good laying ``c`` aside is on its own."""
        suit, rank = suit_of(c), rank_of(c)
        held = hand & SUIT_MASKS[suit]
        if trump is not None and (trump == ALL_TRUMP or suit == trump):
            return -100.0 - rank
        if rank == ACE:
            return -40.0
        if rank == TEN:
            return -20.0 if held >> card(suit, ACE) & 1 else 14.0
        return {KING: 4.0, QUEEN: 3.0, 4: 2.0}.get(rank, 0.0) * 0.5 + (7 - rank) * 0.1

    ranked: list[tuple[float, int, int]] = []
    for i, a in enumerate(pool):
        for b in pool[i + 1:]:
            v = value(a) + value(b)
            chosen = 1 << a | 1 << b
            for suit in {suit_of(a), suit_of(b)}:
                held = hand & SUIT_MASKS[suit]
                if held and not held & ~chosen and (trump is None or suit != trump):
                    v += 9.0  # a void: the taker will trump this suit
            ranked.append((v, -a, -b))
    assert ranked
    ranked.sort(reverse=True)
    return [(min(-a, -b), max(-a, -b)) for _, a, b in ranked[:most]]


def _may_say_belote(view: PlayerView, c: Card) -> bool:
    """Whether ``c`` is a trump king or queen whose partner card the seat holds or played."""
    if view.contract is None or RANK_OF[c] not in (KING, QUEEN):
        return False
    trump = view.contract.trump
    if trump == NO_TRUMP or (trump != ALL_TRUMP and SUIT_OF[c] != trump):
        return False
    other = c ^ (KING ^ QUEEN)  # K <-> Q of the same suit
    return bool(view.hand >> other & 1 or played_by(view)[view.seat] >> other & 1)


# --- drivers ---------------------------------------------------------------------------


def next_action(bot: Bot, view: PlayerView) -> Action:
    """What ``bot`` does at its turn, as an action: the one place a bot's turn is
    decided, for every driver (the arena, the tournament, the terminal game).

    - the bidding: its call, one of ``view.legal_calls``;
    - the kitty discard (§12.1): its two cards (:func:`default_discard`'s for a bot
      without a ``discard`` method), two different cards of its hand;
    - the card play: its card; with its first card what it announces (§7.4,
      :meth:`Bot.declarations`), and with a trump king or queen whose partner card it
      holds or has played whether it says belote (§7.7, :meth:`Bot.say_belote`).

    An answer that is not an action of the seat raises
    :class:`~belote.errors.IllegalActionError` naming the bot and the seat; whether the
    card is legal is the round's to check (:func:`apply_for`, ``Round.apply``).
    """
    if view.legal_cards:  # the card play
        return _card_action(bot, view)
    seat, phase = view.seat, view.phase
    if phase is BIDDING:
        call = bot.call(view)
        if call not in view.legal_calls:
            raise IllegalActionError(f"{_where(bot, seat)} answered the call {call!r}, "
                                     f"not one of {list(view.legal_calls)}")
        return CallAction(call)
    if phase is DISCARD:
        chooser = getattr(bot, "discard", None)
        cards = list(chooser(view)) if chooser is not None else default_discard(view)
        _check_discard(_where(bot, seat), view, cards)
        return Discard(tuple(cards))
    raise IllegalActionError(f"{_where(bot, seat)}: nothing to do in phase {phase}")


def _card_action(bot: Bot, view: PlayerView) -> Play:
    """:func:`next_action` in the card play (its turn: ``view.legal_cards`` is not empty)."""
    c = bot.play(view)
    try:
        quick = _CARDS[c] is c  # an exact card number, the answer of every bot: one look-up
    except (IndexError, TypeError):
        quick = False
    if not quick and not _is_card(c):
        _illegal_card(bot, view, c)
    try:
        plain = bot.plain_cards  # type: ignore[attr-defined]  # (BaseBot.plain_cards)
    except AttributeError:  # a bot of the Bot protocol alone: asked
        plain = False
    if plain:  # nothing to ask: the default announcement, belote said when due
        return _PLAIN_PLAYS[c]
    decls: Sequence[Declaration] | None = None
    if view.my_declarations is None:  # its first card (§7.4)
        decls = bot.declarations(view)
    belote = True
    due = view.belote_due  # (0 for most seats: tested first, it saves a shift)
    if due and due >> c & 1:
        belote = bot.say_belote(view, c)
    if decls is None:
        return _PLAIN_PLAYS[c] if belote else Play(c, None, False)
    return Play(c, tuple(combination_cards(d.cards) for d in decls), belote)


def apply_for(rnd: Round, bot: Bot, view: PlayerView, action: Action) -> Event:
    """``rnd.apply(action)``, the action :func:`next_action` had ``bot`` choose from
    ``view``: a card that is not legal is refused naming the bot, the seat, the trick
    and the legal cards; a refused announcement with the hand's own message (§7.4)."""
    try:
        return rnd.apply(action)
    except IllegalPlayError as exc:
        _refused(bot, view, action, exc)


def _refused(bot: Bot, view: PlayerView, action: Action, exc: IllegalPlayError) -> NoReturn:
    """The round refused a bot's card: an illegal card named with the bot and the
    seat; a refused announcement with the hand's own message (§7.4)."""
    if isinstance(action, Play) and action.card not in view.legal_cards:
        _illegal_card(bot, view, action.card)
    raise exc  # what the bot announced is refused: the hand's message says why


def play_deal(rnd: Round, bots: Sequence[Bot]) -> None:
    """Drive ``rnd`` to the end (phase ``over`` or ``all_pass``), seat ``i`` played by ``bots[i]``.

    One bot a seat of the profile: four, or three and two (§12).  Each bot is
    asked with its own seat's view only (:func:`next_action`): its calls, its cards,
    and as the taker of a kitty deal the two cards it lays aside (§12.1).  A bot
    answering an action that is not legal raises
    :class:`~belote.errors.IllegalActionError` naming the bot, the seat and the action.
    """
    check_table(rnd.rules, bots)
    view_of, apply, play_card = rnd.view, rnd.apply, rnd.play_card
    while (phase := rnd.phase) is BIDDING or phase is DISCARD:
        view = view_of()  # the seat to act's
        bot = bots[view.seat]
        action = next_action(bot, view)
        try:
            apply(action)
        except IllegalPlayError as exc:
            _refused(bot, view, action, exc)
    while rnd.phase is PLAY:  # the card play
        view = view_of()  # the seat to play's
        bot = bots[view.seat]
        card = _card_action(bot, view)  # (next_action's own branch: a hot path)
        try:
            if card.declarations is None:  # Round.apply's branch, without its dispatch
                play_card(card.card, None, card.belote)
            else:
                apply(card)
        except IllegalPlayError as exc:
            _refused(bot, view, card, exc)
    assert rnd.phase in (OVER, ALL_PASS)


# The 32 card numbers, each the one int object of its value (small ints are made once):
# ``_CARDS[c] is c`` for an int 0..31, and for nothing else (a bool, a float, an int of
# another type fail it, and are told apart by :func:`_is_card`).
_CARDS: Final = tuple(range(32))


def _is_card(c: object) -> TypeGuard[int]:
    """Whether a bot's answer ``c`` is a card number (an int 0..31)."""
    return isinstance(c, int) and 0 <= c < 32


def _illegal_card(bot: Bot, view: PlayerView, c: object) -> NoReturn:
    shown = card_name(c) if _is_card(c) else repr(c)
    raise IllegalActionError(
        f"{_where(bot, view.seat)}, trick {len(view.tricks) + 1}: {shown} is not a "
        f"legal card ({', '.join(card_name(x) for x in view.legal_cards)})"
    )


def _where(bot: Bot, seat: int) -> str:
    return f"bot {bot.name!r} at {SEAT_NAMES[seat]}"


def _check_discard(where: str, view: PlayerView, cards: Sequence[object]) -> None:
    """Two different cards of the taker's hand (§12.1), or an error naming them."""
    held = [c for c in cards if isinstance(c, int) and not isinstance(c, bool)
            and 0 <= c < 32 and view.hand >> c & 1]
    if len(cards) == 2 and len(held) == 2 and held[0] != held[1]:
        return
    shown = [card_name(c) if isinstance(c, int) and 0 <= c < 32 else repr(c) for c in cards]
    raise IllegalActionError(
        f"{where} laid aside {shown}: the kitty discard is two different cards of "
        f"its hand (§12.1)"
    )


def play_game(
    rules: Rules,
    bots: Sequence[Bot],
    seed: int | None,
    first_dealer: int | None = None,
    max_deals: int = 200,
) -> Match:
    """A game to the rules' target between bots (``bots[i]`` at seat ``i``): four, or
    three and two at the §12 profiles, each of those playing for his own total.

    Stops after ``max_deals`` deals (all-passes included) when nobody has won by
    then; the returned match then has ``finished`` false.
    """
    check_table(rules, bots, "play_game")
    match = Match(rules, seed=seed, first_dealer=first_dealer)
    while not match.finished and match.deals < max_deals:
        rnd = match.new_round()
        play_deal(rnd, bots)
        match.finish_round()
    return match
