"""Profiles and options: every point where tables play differently (docs/rules.md).

:class:`Rules` is a frozen value holding every option of docs/rules.md by its exact
name.  :func:`make_rules` builds one from a profile name and overrides, refusing
unknown profiles and options and values of the wrong kind with an
:class:`~belote.errors.OptionError` that names the option.

Each option that takes one of a few words is a :class:`~enum.StrEnum` (:class:`TieRule`,
:class:`Rounding`...): a :class:`Rules` holds the member, which the code compares by
identity (``rules.tie_rule is TieRule.FAIL``), and which prints and serialises as its
JSON word.  :data:`CHOICE_OPTIONS`, the values each option takes, is read from them.

>>> r = make_rules("coinche", {"max_bid": 180, "tie_rule": "fail"})
>>> r.profile, r.max_bid, r.declarations, r.rounding
('coinche', 180, True, <Rounding.NEAREST10_5UP: 'nearest10_5up'>)
>>> r.tie_rule is TieRule.FAIL, r.overrides()
(True, {'max_bid': 180, 'tie_rule': 'fail'})
>>> make_rules("classic", {"tie_rule": "coin"})
Traceback (most recent call last):
...
belote.errors.OptionError: option 'tie_rule': 'coin' is not one of litige, fail, made
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Final

from belote.errors import OptionError, Refusal

PROFILES: Final = ("classic", "moroccan", "coinche", "contree")
# Belote for three and for two players (docs/rules.md §12): take-or-pass, classic cards.
SMALL_TABLE_PROFILES: Final = ("classic-3p", "classic-2p")
ALL_PROFILES: Final = PROFILES + SMALL_TABLE_PROFILES

BOOL_OPTIONS: Final = (
    "shuffle_each_deal", "sa_ta", "sa_ta_in_classic", "suit_ranking", "reopen_by_suit_change",
    "coinche_in_turn", "coinche_freezes", "capot_doublable", "generale",
    "overtrump_partner_on_trump_lead", "partner_master_exemption", "must_undertrump",
    "declarations", "card_reuse", "split_long_runs", "longer_run_first", "king_first",
    "beat_defence", "decl_count_for_contract", "round_final_hand",
)

# --- the options that take a word: one StrEnum each, in the order of docs/rules.md ---


class Deck(StrEnum):
    """The names of the cards (§1.2); fixed by the profile."""

    FRENCH = "french"
    SPANISH = "spanish"


class Bidding(StrEnum):
    """How a contract is made; fixed by the profile."""

    TAKE_PASS = "take_pass"  # take or pass (§3)
    AUCTION = "auction"  # the numeric auction of coinche and contrée (§4)


class Direction(StrEnum):
    """``direction`` (§0.1)."""

    CLOCKWISE = "clockwise"
    ANTICLOCKWISE = "anticlockwise"


class AllpassDealer(StrEnum):
    """``allpass_dealer`` (§2.4)."""

    NEXT = "next"
    SAME = "same"


class DealPattern(StrEnum):
    """``deal_pattern`` (§3.1, §4.1): the first two for take or pass, the rest for an
    auction."""

    P3_2 = "3-2"
    P2_3 = "2-3"
    P3_3_2 = "3-3-2"
    P3_2_3 = "3-2-3"
    P2_3_3 = "2-3-3"


class TaValues(StrEnum):
    """``ta_values`` (§5.4)."""

    PC = "pc"
    FFBC = "ffbc"
    SCALED = "scaled"


class UndertrumpPartner(StrEnum):
    """``undertrump_partner`` (§6.3a)."""

    ALLOWED = "allowed"
    ONLY_IF_ONLY_TRUMPS = "only_if_only_trumps"
    MUST_OVERTRUMP_IF_ONLY_TRUMPS = "must_overtrump_if_only_trumps"


class DeclTie(StrEnum):
    """``decl_tie`` (§7.5)."""

    NOBODY = "nobody"
    FIRST_ANNOUNCER = "first_announcer"


class BeloteOnFailure(StrEnum):
    """``belote_on_failure`` (§7.8)."""

    KEPT = "kept"
    DEFENDERS = "defenders"


class TakerDeclOnFailure(StrEnum):
    """``taker_decl_on_failure`` (§8.3)."""

    TRANSFER = "transfer"
    LOST = "lost"


class TieRule(StrEnum):
    """``tie_rule`` (§8.4)."""

    LITIGE = "litige"
    FAIL = "fail"
    MADE = "made"


class CapotLoserDeclarations(StrEnum):
    """``capot_loser_declarations`` (§8.5)."""

    KEPT = "kept"
    TO_CAPOT_TEAM = "to_capot_team"
    VOID = "void"


class CountMode(StrEnum):
    """``count_mode`` (§9.2)."""

    MADE_PLUS_BID = "made_plus_bid"
    MADE_ONLY = "made_only"
    BID_ONLY = "bid_only"


class DoubleScope(StrEnum):
    """``double_scope`` (§9.2)."""

    WHOLE = "whole"
    CONTRACT_ONLY = "contract_only"
    FORFEIT = "forfeit"


class BidCapotScoring(StrEnum):
    """``bid_capot_scoring`` (§9.2)."""

    FLAT = "flat"
    AS_CONTRACT = "as_contract"


class Rounding(StrEnum):
    """``rounding`` (§10)."""

    NONE = "none"
    NEAREST10_5UP = "nearest10_5up"
    NEAREST10_6UP = "nearest10_6up"


class Limit(StrEnum):
    """``limit`` (§11.1)."""

    POINTS = "points"
    DEALS = "deals"


class ReachRule(StrEnum):
    """``reach_rule`` (§11.2)."""

    REACH_OR_EXCEED = "reach_or_exceed"
    STRICTLY_EXCEED = "strictly_exceed"


class BothCross(StrEnum):
    """``both_cross`` (§11.3)."""

    HIGHER_TOTAL = "higher_total"
    TAKER_MUST_MAKE = "taker_must_make"
    DRAW = "draw"


class NoWinOnBelote(StrEnum):
    """``no_win_on_belote`` (§11.4)."""

    OFF = "off"
    CAPOT = "capot"
    CAPOT_OR_FAILED = "capot_or_failed"


class ThreeDeal(StrEnum):
    """``three_deal`` (§12.1); :class:`belote.table.DealMode` has the same words."""

    CARDS_24 = "24_cards"
    KITTY = "kitty"
    SIX_EACH = "six_each"


class TwoDeal(StrEnum):
    """``two_deal`` (§12.2); :class:`belote.table.DealMode` has the same words."""

    STOCK = "stock"
    DECOUVERTE = "decouverte"


WORD_OPTIONS: Final[Mapping[str, type[StrEnum]]] = {
    "direction": Direction,
    "allpass_dealer": AllpassDealer,
    "deal_pattern": DealPattern,
    "ta_values": TaValues,
    "undertrump_partner": UndertrumpPartner,
    "decl_tie": DeclTie,
    "belote_on_failure": BeloteOnFailure,
    "taker_decl_on_failure": TakerDeclOnFailure,
    "tie_rule": TieRule,
    "capot_loser_declarations": CapotLoserDeclarations,
    "count_mode": CountMode,
    "double_scope": DoubleScope,
    "bid_capot_scoring": BidCapotScoring,
    "rounding": Rounding,
    "limit": Limit,
    "reach_rule": ReachRule,
    "both_cross": BothCross,
    "no_win_on_belote": NoWinOnBelote,
    "three_deal": ThreeDeal,
    "two_deal": TwoDeal,
}
"""The enum of each option that takes a word (its members are the words allowed)."""

# The enums of the fields fixed by the profile, with those of the options.
_FIELD_ENUMS: Final[Mapping[str, type[StrEnum]]] = {
    "deck": Deck, "bidding": Bidding, **WORD_OPTIONS,
}

_NUMBER_CHOICES: Final[Mapping[str, tuple[int, ...]]] = {
    "min_cut": (2, 3),
    "surcoinche_factor": (3, 4),
    "min_80": (80, 82),
    "unbid_capot_points": (250, 252),
    "fail_base": (160, 162),
    "capot_fail_value": (500, 410),
}

_CHOICE_ORDER: Final = (
    "direction", "min_cut", "allpass_dealer", "deal_pattern", "surcoinche_factor",
    "ta_values", "undertrump_partner", "decl_tie", "belote_on_failure",
    "taker_decl_on_failure", "tie_rule", "capot_loser_declarations", "min_80", "count_mode",
    "unbid_capot_points", "fail_base", "double_scope", "bid_capot_scoring", "capot_fail_value",
    "rounding", "limit", "reach_rule", "both_cross", "no_win_on_belote", "three_deal",
    "two_deal",
)

CHOICE_OPTIONS: Final[dict[str, tuple[Any, ...]]] = {
    name: (tuple(m.value for m in WORD_OPTIONS[name]) if name in WORD_OPTIONS
           else _NUMBER_CHOICES[name])
    for name in _CHOICE_ORDER
}
"""The values of each option that takes one of a few: its enum's words, or numbers."""

POSITIVE_INT_OPTIONS: Final = ("generale_value", "target")
MAX_POSITIVE_INT: Final = 1_000_000  # a target (or générale value) no game goes beyond

TAKE_PASS_PATTERNS: Final = (DealPattern.P3_2, DealPattern.P2_3)
AUCTION_PATTERNS: Final = (DealPattern.P3_3_2, DealPattern.P3_2_3, DealPattern.P2_3_3)


@dataclass(frozen=True)
class Rules:
    """The rules of one table: a profile and every option of docs/rules.md.

    ``profile``, ``deck``, ``bidding`` and ``players`` are fixed by the profile;
    every other field is an option by its docs/rules.md name.
    """

    profile: str = "classic"
    deck: Deck = Deck.FRENCH  # the names only (docs/rules.md §1.2)
    bidding: Bidding = Bidding.TAKE_PASS  # take or pass (§3) or the auction (§4)
    players: int = 4  # 4, or 3 and 2 (§12)
    # §0, §2
    direction: Direction = Direction.ANTICLOCKWISE
    shuffle_each_deal: bool = True
    min_cut: int = 3
    allpass_dealer: AllpassDealer = AllpassDealer.NEXT
    # §3, §4
    deal_pattern: DealPattern = DealPattern.P3_2
    sa_ta_in_classic: bool = False
    max_bid: int | None = 160
    sa_ta: bool = False
    suit_ranking: bool = False
    reopen_by_suit_change: bool = False
    coinche_in_turn: bool = True
    coinche_freezes: bool = True
    capot_doublable: bool = True
    surcoinche_factor: int = 4
    generale: bool = False
    generale_value: int = 1000  # §4.8 (coinche's profile sets its own 500)
    # §5, §6
    ta_values: TaValues = TaValues.PC
    overtrump_partner_on_trump_lead: bool = True
    partner_master_exemption: bool = True
    undertrump_partner: UndertrumpPartner = UndertrumpPartner.ALLOWED
    must_undertrump: bool = False
    # §7
    declarations: bool = True
    card_reuse: bool = False
    split_long_runs: bool = False
    longer_run_first: bool = False
    decl_tie: DeclTie = DeclTie.NOBODY
    king_first: bool = False
    belote_on_failure: BeloteOnFailure = BeloteOnFailure.KEPT
    # §8
    taker_decl_on_failure: TakerDeclOnFailure = TakerDeclOnFailure.TRANSFER
    tie_rule: TieRule = TieRule.LITIGE
    capot_loser_declarations: CapotLoserDeclarations = CapotLoserDeclarations.KEPT
    # §9
    min_80: int = 80
    beat_defence: bool = True
    decl_count_for_contract: bool = True
    count_mode: CountMode = CountMode.MADE_PLUS_BID
    unbid_capot_points: int = 250
    fail_base: int = 160
    double_scope: DoubleScope = DoubleScope.WHOLE
    bid_capot_scoring: BidCapotScoring = BidCapotScoring.FLAT
    capot_fail_value: int = 500
    # §10
    rounding: Rounding = Rounding.NONE
    round_final_hand: bool = True
    # §11
    target: int = 1000
    limit: Limit = Limit.POINTS
    reach_rule: ReachRule = ReachRule.REACH_OR_EXCEED
    both_cross: BothCross = BothCross.HIGHER_TOTAL
    no_win_on_belote: NoWinOnBelote = NoWinOnBelote.OFF
    # §12
    three_deal: ThreeDeal = ThreeDeal.CARDS_24
    two_deal: TwoDeal = TwoDeal.STOCK

    def __post_init__(self) -> None:
        # A word given for a member (``Rules(tie_rule="fail")``, ``dataclasses.replace``)
        # becomes the member, so that comparing by identity never meets a plain str.
        for name, kind in _FIELD_ENUMS.items():
            value = getattr(self, name)
            if type(value) is not kind:
                if value not in kind.__members__.values():
                    listed = ", ".join(kind)
                    raise _bad_value(name, value, f"{value!r} is not one of {listed}")
                object.__setattr__(self, name, kind(value))

    @property
    def is_auction(self) -> bool:
        """Numeric auction (coinche, contrée) rather than take or pass."""
        return self.bidding is Bidding.AUCTION

    def options(self) -> dict[str, Any]:
        """Every option by name (the profile, deck, bidding and players left out), each
        value as its JSON value (an enum's member as its word, a plain ``str``)."""
        return {
            f.name: _json_value(getattr(self, f.name))
            for f in dataclasses.fields(self)
            if f.name not in _FIXED_FIELDS
        }

    def overrides(self) -> dict[str, Any]:
        """The options that differ from the profile's defaults."""
        base = profile_rules(self.profile)
        return {k: v for k, v in self.options().items() if getattr(base, k) != v}


def _json_value(value: Any) -> Any:
    """An option's value as JSON has it: a member as its word (a plain ``str``)."""
    return value.value if isinstance(value, StrEnum) else value


_FIXED_FIELDS: Final = frozenset({"profile", "deck", "bidding", "players"})
OPTION_NAMES: Final = tuple(
    f.name for f in dataclasses.fields(Rules) if f.name not in _FIXED_FIELDS
)

_PROFILE_DEFAULTS: Final[dict[str, dict[str, Any]]] = {
    "classic": {},
    "moroccan": {"deck": Deck.SPANISH},
    "coinche": {
        "bidding": Bidding.AUCTION, "deal_pattern": DealPattern.P3_3_2, "max_bid": 250,
        "generale": True, "generale_value": 500, "beat_defence": True,
        "rounding": Rounding.NEAREST10_5UP, "target": 2000,
    },
    "contree": {
        "bidding": Bidding.AUCTION, "deal_pattern": DealPattern.P3_3_2, "max_bid": 160,
        "generale": False, "declarations": False,
        "belote_on_failure": BeloteOnFailure.DEFENDERS,
        "beat_defence": False, "rounding": Rounding.NEAREST10_5UP, "target": 2000,
    },
    "classic-3p": {"players": 3},
    "classic-2p": {"players": 2},
}


#: §11.1 the targets each profile's players agree on (its default among them): Moroccan
#: tables play to 500 or 700 too, classic ones to 501 or 1001, coinche and contrée to
#: 1000 to 3000.  Any positive whole number may still be chosen.
TARGET_CHOICES: Final[dict[str, tuple[int, ...]]] = {
    "classic": (501, 1000, 1001),
    "moroccan": (500, 700, 1000),
    "coinche": (1000, 1500, 2000, 3000),
    "contree": (1000, 1500, 2000, 3000),
    "classic-3p": (501, 1000, 1001),
    "classic-2p": (501, 1000, 1001),
}


def _bad_value(name: str, value: object, detail: str) -> OptionError:
    """Option ``name`` refused its ``value`` (``detail``, in English: what it may be),
    by code (:attr:`Refusal.OPTION_VALUE`): ``option 'target': 0 is not ...``."""
    return OptionError.refused(Refusal.OPTION_VALUE, f"option {name!r}", name=name,
                               value=value, detail=detail)


def profile_rules(profile: str) -> Rules:
    """The defaults of a profile (docs/rules.md, 'Profiles and their defaults')."""
    try:
        values = _PROFILE_DEFAULTS[profile]
    except (KeyError, TypeError):
        raise OptionError.refused(Refusal.UNKNOWN_PROFILE, profile=profile,
                                  profiles=", ".join(ALL_PROFILES)) from None
    return Rules(profile=profile, **values)


def _check_value(name: str, value: Any, rules: Rules) -> Any:
    if name in BOOL_OPTIONS:
        if isinstance(value, bool):
            return value
        raise _bad_value(name, value, f"{value!r} is not true or false")
    if name in WORD_OPTIONS:
        kind = WORD_OPTIONS[name]
        allowed: tuple[Any, ...] = tuple(kind)
        if kind is DealPattern:
            allowed = AUCTION_PATTERNS if rules.is_auction else TAKE_PASS_PATTERNS
        if not isinstance(value, str) or value not in allowed:
            listed = ", ".join(allowed)
            raise _bad_value(name, value, f"{value!r} is not one of {listed}")
        return kind(value)
    if name in CHOICE_OPTIONS:
        allowed = CHOICE_OPTIONS[name]
        if not any(value == a and type(value) is type(a) for a in allowed):
            listed = ", ".join(str(a) for a in allowed)
            raise _bad_value(name, value, f"{value!r} is not one of {listed}")
        return value
    if name in POSITIVE_INT_OPTIONS:
        if isinstance(value, int) and not isinstance(value, bool) and \
                0 < value <= MAX_POSITIVE_INT:
            return value
        shown = repr(value) if len(repr(value)) <= 24 else repr(value)[:20] + "..."
        raise _bad_value(name, shown, f"{shown} is not a whole number in 1..{MAX_POSITIVE_INT}")
    if name == "max_bid":
        if value is None:
            return None
        if (isinstance(value, int) and not isinstance(value, bool)
                and value >= 160 and value % 10 == 0):
            return value
        raise _bad_value(name, value, f"{value!r} is not a multiple of 10 from 160, or null")
    raise OptionError(f"unknown option {name!r}")  # pragma: no cover - guarded by caller


def make_rules(profile: str = "classic", options: Mapping[str, Any] | None = None) -> Rules:
    """Rules of ``profile`` with ``options`` overriding its defaults, each checked."""
    if not isinstance(profile, str):
        raise OptionError.refused(Refusal.BAD_FIELD, "profile", field="profile",
                                  detail=f"{profile!r} is not a profile name")
    rules = profile_rules(profile)
    if not options:
        return rules
    if not isinstance(options, Mapping):
        raise OptionError.refused(Refusal.BAD_FIELD, "options", field="options",
                                  detail=f"{options!r} is not an object of option names")
    changes: dict[str, Any] = {}
    for name, value in options.items():
        if name not in OPTION_NAMES:
            raise OptionError.refused(Refusal.UNKNOWN_OPTION, name=name)
        changes[name] = _check_value(name, value, rules)
    return dataclasses.replace(rules, **changes)


def parse_option_text(name: str, text: str) -> Any:
    """Convert ``NAME=VALUE`` text from a command line to the option's value: a word of
    the option's enum becomes its member; a word that is none of them is left as text,
    for :func:`make_rules` to refuse with the values the profile allows."""
    if name not in OPTION_NAMES:
        raise OptionError.refused(Refusal.UNKNOWN_OPTION, name=name)
    t = text.strip()
    if name in BOOL_OPTIONS:
        if t.lower() in ("true", "on", "yes", "1"):
            return True
        if t.lower() in ("false", "off", "no", "0"):
            return False
        raise _bad_value(name, text, f"{text!r} is not true or false")
    if name == "max_bid" and t.lower() in ("null", "none", ""):
        return None
    if name in POSITIVE_INT_OPTIONS or name == "max_bid" or (
        name in CHOICE_OPTIONS and isinstance(CHOICE_OPTIONS[name][0], int)
    ):
        # ASCII digits only: int() would also take "1_0" and other scripts' digits.
        if not re.fullmatch(r"-?[0-9]{1,18}", t):
            raise _bad_value(name, text[:24], f"{text[:24]!r} is not a whole number")
        return int(t)
    kind = WORD_OPTIONS.get(name)
    if kind is not None and t in kind.__members__.values():
        return kind(t)
    return t


def parse_option_assignment(text: str) -> tuple[str, Any]:
    """Parse ``NAME=VALUE`` (as in ``--option tie_rule=fail``)."""
    if "=" not in text:
        raise OptionError(f"option {text!r}: expected NAME=VALUE")
    name, _, value = text.partition("=")
    name = name.strip()
    return name, parse_option_text(name, value)
