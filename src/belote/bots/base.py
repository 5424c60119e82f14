"""The bot interface, the bot factory, and the drivers that seat four bots at a table.

A bot is anything with the four methods of :class:`Bot`.  It only ever receives
a :class:`~belote.round.PlayerView`: the seat's own cards, the calls, the cards
played and what was said (RULES.md §7.4, §7.6, §7.7), never the
:class:`~belote.round.Round`, the other hands or the deck.  :func:`play_deal`
is the one place that holds the round and hands each bot its view.

>>> from belote.options import make_rules
>>> bots = [make_bot("random", seed=s) for s in range(4)]
>>> match = play_game(make_rules(), bots, seed=7)
>>> match.finished, match.winner in (0, 1)
(True, True)
>>> make_bot("pimc:worlds=8").name
'pimc:worlds=8'
>>> make_bot("minimax")
Traceback (most recent call last):
...
belote.errors.OptionError: unknown bot 'minimax' (one of random, heuristic, pimc)
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Final, Protocol, runtime_checkable

from belote.cards import ALL_TRUMP, KING, NO_TRUMP, QUEEN, Card, CardMask, card_name
from belote.declarations import Declaration
from belote.errors import IllegalActionError, OptionError
from belote.game import Match
from belote.options import PROFILES, Rules
from belote.play import SEAT_NAMES
from belote.round import ALL_PASS, BIDDING, OVER, PLAY, PlayerView, Round

__all__ = [
    "BOT_NAMES",
    "BaseBot",
    "Bot",
    "BotSetting",
    "check_four_players",
    "legal_calls",
    "legal_cards",
    "make_bot",
    "parse_bot_spec",
    "play_deal",
    "play_game",
    "played_by",
    "split_bot_specs",
]

BOT_NAMES: Final = ("random", "heuristic", "pimc")


@runtime_checkable
class Bot(Protocol):
    """A player: it answers calls, cards, declarations and belote from a view only."""

    name: str

    def call(self, view: PlayerView) -> str:
        """One of ``view.legal`` (the calls), in the bidding phase."""
        ...

    def play(self, view: PlayerView) -> int:
        """One of ``view.legal`` (the cards), in the play phase."""
        ...

    def declarations(self, view: PlayerView) -> Sequence[Declaration] | None:
        """What to announce with the first card (§7.4); None announces all held."""
        ...

    def say_belote(self, view: PlayerView, card: Card) -> bool:
        """Whether to say belote / rebelote when playing the trump king or queen (§7.7)."""
        ...


@dataclass(frozen=True, slots=True)
class BotSetting:
    """One setting a bot accepts in its spec (``pimc:worlds=40``)."""

    kind: type  # int, float or str
    default: Any
    help: str
    minimum: float | None = None
    choices: tuple[str, ...] = ()


class BaseBot(ABC):
    """Defaults shared by the bots: announce everything held, always say belote.

    Subclasses set :attr:`kind` and :attr:`SETTINGS` and implement ``call`` and
    ``play``.  ``self.rng`` is the bot's own generator, seeded by ``seed``.
    """

    kind: ClassVar[str] = "base"
    SETTINGS: ClassVar[Mapping[str, BotSetting]] = {}

    def __init__(self, seed: int | None = None, **settings: Any) -> None:
        self.seed = seed
        self.rng = random.Random(seed)
        values = {k: s.default for k, s in self.SETTINGS.items()}
        for key, value in settings.items():
            if key not in self.SETTINGS:
                raise OptionError(
                    f"bot {self.kind!r}: unknown setting {key!r}"
                    + (f" (one of {', '.join(self.SETTINGS)})" if self.SETTINGS else
                       " (it takes none)")
                )
            values[key] = _check_setting(self.kind, key, self.SETTINGS[key], value)
        self.settings: dict[str, Any] = values
        given = ",".join(f"{k}={settings[k]}" for k in settings)
        self.name = f"{self.kind}:{given}" if given else self.kind

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

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r} seed={self.seed!r}>"


def _check_setting(bot: str, key: str, setting: BotSetting, value: Any) -> Any:
    where = f"bot {bot!r}: setting {key!r}"
    if setting.kind is str:
        if not isinstance(value, str) or (setting.choices and value not in setting.choices):
            raise OptionError(f"{where}: {value!r} is not one of {', '.join(setting.choices)}")
        return value
    if isinstance(value, str):
        try:
            value = setting.kind(value.strip())
        except ValueError:
            what = "whole number" if setting.kind is int else "number"
            raise OptionError(f"{where}: {value!r} is not a {what}") from None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise OptionError(f"{where}: {value!r} is not a number")
    if setting.kind is int and not isinstance(value, int):
        raise OptionError(f"{where}: {value!r} is not a whole number")
    if setting.minimum is not None and value < setting.minimum:
        raise OptionError(f"{where}: {value!r} is below {setting.minimum:g}")
    return setting.kind(value)


def parse_bot_spec(spec: str) -> tuple[str, dict[str, str]]:
    """``"pimc:worlds=40,seconds=0.5"`` → ``("pimc", {"worlds": "40", "seconds": "0.5"})``."""
    if not isinstance(spec, str) or not spec.strip():
        raise OptionError(f"not a bot: {spec!r} (one of {', '.join(BOT_NAMES)})")
    name, _, rest = spec.strip().partition(":")
    name = name.strip().lower()
    settings: dict[str, str] = {}
    for part in rest.split(","):
        if not part.strip():
            continue
        key, eq, value = part.partition("=")
        if not eq or not key.strip():
            raise OptionError(f"bot spec {spec!r}: setting {part!r} is not KEY=VALUE")
        settings[key.strip()] = value.strip()
    return name, settings


def split_bot_specs(text: str) -> list[str]:
    """Split a comma-separated list of bot specs, keeping each spec's own settings.

    A piece with ``=`` and no ``:`` continues the settings of the spec before it.

    >>> split_bot_specs("pimc:worlds=40,seconds=0.5,heuristic, random")
    ['pimc:worlds=40,seconds=0.5', 'heuristic', 'random']
    """
    specs: list[str] = []
    for piece in text.split(","):
        part = piece.strip()
        if specs and "=" in part and ":" not in part:
            specs[-1] += "," + part
        else:
            specs.append(part)
    return specs


def _bot_classes() -> dict[str, Callable[..., BaseBot]]:
    # Imported here: the bot modules import this one for BaseBot.
    from belote.bots.heuristic import HeuristicBot
    from belote.bots.pimc import PimcBot
    from belote.bots.random_bot import RandomBot

    return {"random": RandomBot, "heuristic": HeuristicBot, "pimc": PimcBot}


def make_bot(spec: str, seed: int | None = None) -> BaseBot:
    """A bot from its spec: ``random``, ``heuristic``, ``pimc``, ``pimc:worlds=40,seconds=0.5``.

    The same spec and seed give a bot that makes the same decisions from the
    same views (``pimc`` with a ``seconds`` budget excepted: the clock may stop it).
    """
    name, settings = parse_bot_spec(spec)
    classes = _bot_classes()
    if name not in classes:
        raise OptionError(f"unknown bot {name!r} (one of {', '.join(BOT_NAMES)})")
    return classes[name](seed, **settings)


def check_four_players(rules: Rules) -> None:
    """The bots play the four-player profiles; refuse the others with a clear message."""
    if rules.players != 4:
        raise OptionError(
            f"profile {rules.profile!r}: the bots play the four-player profiles "
            f"({', '.join(PROFILES)}); belote for {rules.players} has no bots yet"
        )


# --- what a view offers ---------------------------------------------------------


def legal_cards(view: PlayerView) -> list[Card]:
    """The seat's legal cards (empty unless it is its turn to play)."""
    return [c for c in view.legal if isinstance(c, int)] if view.phase == PLAY else []


def legal_calls(view: PlayerView) -> list[str]:
    """The seat's legal calls (empty unless it is its turn to call)."""
    return [c for c in view.legal if isinstance(c, str)] if view.phase == BIDDING else []


def played_by(view: PlayerView) -> list[CardMask]:
    """The cards each seat has played so far (completed tricks and the current one)."""
    out = [0, 0, 0, 0]
    for t in view.tricks:
        for i, c in enumerate(t.cards):
            out[(t.leader + i) & 3] |= 1 << c
    for i, c in enumerate(view.trick):
        out[(view.trick_leader + i) & 3] |= 1 << c
    return out


def _may_say_belote(view: PlayerView, c: Card) -> bool:
    """Whether ``c`` is a trump king or queen whose partner card the seat holds or played."""
    if view.contract is None or c & 7 not in (KING, QUEEN):
        return False
    trump = view.contract.trump
    if trump == NO_TRUMP or (trump != ALL_TRUMP and c >> 3 != trump):
        return False
    other = c ^ (KING ^ QUEEN)  # K <-> Q of the same suit
    return bool((view.hand | played_by(view)[view.seat]) >> other & 1)


# --- drivers ---------------------------------------------------------------------------


def play_deal(rnd: Round, bots: Sequence[Bot]) -> None:
    """Drive ``rnd`` to the end (phase ``over`` or ``all_pass``), seat ``i`` played by ``bots[i]``.

    Each bot is asked with its own seat's view only.  A bot answering an action
    that is not legal raises :class:`~belote.errors.IllegalActionError` naming
    the bot, the seat and the action.
    """
    check_four_players(rnd.rules)
    if len(bots) != 4:
        raise ValueError(f"play_deal needs 4 bots, got {len(bots)}")
    while rnd.phase in (BIDDING, PLAY):
        seat = rnd.current_player()
        bot = bots[seat]
        view = rnd.view(seat)
        where = f"bot {bot.name!r} at {SEAT_NAMES[seat]}"
        if rnd.phase == BIDDING:
            call = bot.call(view)
            if call not in view.legal:
                raise IllegalActionError(
                    f"{where} answered the call {call!r}, not one of {list(view.legal)}"
                )
            rnd.call(call)
            continue
        c = bot.play(view)
        if not isinstance(c, int) or c not in view.legal:
            shown = card_name(c) if isinstance(c, int) and 0 <= c < 32 else repr(c)
            raise IllegalActionError(
                f"{where}, trick {len(view.tricks) + 1}: {shown} is not a legal card "
                f"({', '.join(card_name(x) for x in legal_cards(view))})"
            )
        decls: Sequence[Declaration] | None = None
        if not view.tricks and view.announced[seat] is None:
            decls = bot.declarations(view)
        belote = bot.say_belote(view, c) if _may_say_belote(view, c) else True
        rnd.play_card(c, decls, belote)
    assert rnd.phase in (OVER, ALL_PASS)


def play_game(
    rules: Rules,
    bots: Sequence[Bot],
    seed: int | None,
    first_dealer: int | None = None,
    max_deals: int = 200,
) -> Match:
    """A game to the rules' target between four bots (``bots[i]`` at seat ``i``).

    Stops after ``max_deals`` deals (all-passes included) when nobody has won by
    then; the returned match then has ``finished`` false.
    """
    check_four_players(rules)
    match = Match(rules, seed=seed, first_dealer=first_dealer)
    while not match.finished and match.deals < max_deals:
        rnd = match.new_round()
        play_deal(rnd, bots)
        match.finish_round()
    return match
