"""Profiles and options: every point where tables play differently (docs/rules.md).

:class:`Rules` is a frozen value holding every option of docs/rules.md by its exact
name.  :func:`make_rules` builds one from a profile name and overrides, refusing
unknown profiles and options and values of the wrong kind with an
:class:`~belote.errors.OptionError` that names the option.

>>> r = make_rules("coinche", {"max_bid": 180})
>>> r.profile, r.max_bid, r.declarations, r.rounding
('coinche', 180, True, 'nearest10_5up')
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
from typing import Any, Final

from belote.errors import OptionError

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

CHOICE_OPTIONS: Final[dict[str, tuple[Any, ...]]] = {
    "direction": ("clockwise", "anticlockwise"),
    "min_cut": (2, 3),
    "allpass_dealer": ("next", "same"),
    "deal_pattern": ("3-2", "2-3", "3-3-2", "3-2-3", "2-3-3"),
    "surcoinche_factor": (3, 4),
    "ta_values": ("pc", "ffbc", "scaled"),
    "undertrump_partner": ("allowed", "only_if_only_trumps", "must_overtrump_if_only_trumps"),
    "decl_tie": ("nobody", "first_announcer"),
    "belote_on_failure": ("kept", "defenders"),
    "taker_decl_on_failure": ("transfer", "lost"),
    "tie_rule": ("litige", "fail", "made"),
    "capot_loser_declarations": ("kept", "to_capot_team", "void"),
    "min_80": (80, 82),
    "count_mode": ("made_plus_bid", "made_only", "bid_only"),
    "unbid_capot_points": (250, 252),
    "fail_base": (160, 162),
    "double_scope": ("whole", "contract_only", "forfeit"),
    "bid_capot_scoring": ("flat", "as_contract"),
    "capot_fail_value": (500, 410),
    "rounding": ("none", "nearest10_5up", "nearest10_6up"),
    "limit": ("points", "deals"),
    "reach_rule": ("reach_or_exceed", "strictly_exceed"),
    "both_cross": ("higher_total", "taker_must_make", "draw"),
    "no_win_on_belote": ("off", "capot", "capot_or_failed"),
    "three_deal": ("24_cards", "kitty", "six_each"),
    "two_deal": ("stock", "decouverte"),
}

POSITIVE_INT_OPTIONS: Final = ("generale_value", "target")
MAX_POSITIVE_INT: Final = 1_000_000  # a target (or générale value) no game goes beyond

TAKE_PASS_PATTERNS: Final = ("3-2", "2-3")
AUCTION_PATTERNS: Final = ("3-3-2", "3-2-3", "2-3-3")


@dataclass(frozen=True)
class Rules:
    """The rules of one table: a profile and every option of docs/rules.md.

    ``profile``, ``deck``, ``bidding`` and ``players`` are fixed by the profile;
    every other field is an option by its docs/rules.md name.
    """

    profile: str = "classic"
    deck: str = "french"  # "french" or "spanish" (names only, docs/rules.md §1.2)
    bidding: str = "take_pass"  # "take_pass" (§3) or "auction" (§4)
    players: int = 4  # 4, or 3 and 2 (§12)
    # §0, §2
    direction: str = "anticlockwise"
    shuffle_each_deal: bool = True
    min_cut: int = 3
    allpass_dealer: str = "next"
    # §3, §4
    deal_pattern: str = "3-2"
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
    ta_values: str = "pc"
    overtrump_partner_on_trump_lead: bool = True
    partner_master_exemption: bool = True
    undertrump_partner: str = "allowed"
    must_undertrump: bool = False
    # §7
    declarations: bool = True
    card_reuse: bool = False
    split_long_runs: bool = False
    longer_run_first: bool = False
    decl_tie: str = "nobody"
    king_first: bool = False
    belote_on_failure: str = "kept"
    # §8
    taker_decl_on_failure: str = "transfer"
    tie_rule: str = "litige"
    capot_loser_declarations: str = "kept"
    # §9
    min_80: int = 80
    beat_defence: bool = True
    decl_count_for_contract: bool = True
    count_mode: str = "made_plus_bid"
    unbid_capot_points: int = 250
    fail_base: int = 160
    double_scope: str = "whole"
    bid_capot_scoring: str = "flat"
    capot_fail_value: int = 500
    # §10
    rounding: str = "none"
    round_final_hand: bool = True
    # §11
    target: int = 1000
    limit: str = "points"
    reach_rule: str = "reach_or_exceed"
    both_cross: str = "higher_total"
    no_win_on_belote: str = "off"
    # §12
    three_deal: str = "24_cards"
    two_deal: str = "stock"

    @property
    def is_auction(self) -> bool:
        """Numeric auction (coinche, contrée) rather than take or pass."""
        return self.bidding == "auction"

    def options(self) -> dict[str, Any]:
        """Every option by name (the profile, deck, bidding and players left out)."""
        return {
            f.name: getattr(self, f.name)
            for f in dataclasses.fields(self)
            if f.name not in _FIXED_FIELDS
        }

    def overrides(self) -> dict[str, Any]:
        """The options that differ from the profile's defaults."""
        base = profile_rules(self.profile)
        return {k: v for k, v in self.options().items() if getattr(base, k) != v}


_FIXED_FIELDS: Final = frozenset({"profile", "deck", "bidding", "players"})
OPTION_NAMES: Final = tuple(
    f.name for f in dataclasses.fields(Rules) if f.name not in _FIXED_FIELDS
)

_PROFILE_DEFAULTS: Final[dict[str, dict[str, Any]]] = {
    "classic": {},
    "moroccan": {"deck": "spanish"},
    "coinche": {
        "bidding": "auction", "deal_pattern": "3-3-2", "max_bid": 250,
        "generale": True, "generale_value": 500, "beat_defence": True,
        "rounding": "nearest10_5up", "target": 2000,
    },
    "contree": {
        "bidding": "auction", "deal_pattern": "3-3-2", "max_bid": 160,
        "generale": False, "declarations": False, "belote_on_failure": "defenders",
        "beat_defence": False, "rounding": "nearest10_5up", "target": 2000,
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


def profile_rules(profile: str) -> Rules:
    """The defaults of a profile (docs/rules.md, 'Profiles and their defaults')."""
    try:
        values = _PROFILE_DEFAULTS[profile]
    except (KeyError, TypeError):
        raise OptionError(
            f"unknown profile {profile!r} (one of {', '.join(ALL_PROFILES)})"
        ) from None
    return Rules(profile=profile, **values)


def _check_value(name: str, value: Any, rules: Rules) -> Any:
    if name in BOOL_OPTIONS:
        if isinstance(value, bool):
            return value
        raise OptionError(f"option {name!r}: {value!r} is not true or false")
    if name in CHOICE_OPTIONS:
        allowed = CHOICE_OPTIONS[name]
        if name == "deal_pattern":
            allowed = AUCTION_PATTERNS if rules.is_auction else TAKE_PASS_PATTERNS
        ok = any(value == a and type(value) is type(a) for a in allowed)
        if not ok:
            listed = ", ".join(str(a) for a in allowed)
            raise OptionError(f"option {name!r}: {value!r} is not one of {listed}")
        return value
    if name in POSITIVE_INT_OPTIONS:
        if isinstance(value, int) and not isinstance(value, bool) and \
                0 < value <= MAX_POSITIVE_INT:
            return value
        shown = repr(value) if len(repr(value)) <= 24 else repr(value)[:20] + "..."
        raise OptionError(f"option {name!r}: {shown} is not a whole number in "
                          f"1..{MAX_POSITIVE_INT}")
    if name == "max_bid":
        if value is None:
            return None
        if (isinstance(value, int) and not isinstance(value, bool)
                and value >= 160 and value % 10 == 0):
            return value
        raise OptionError(
            f"option 'max_bid': {value!r} is not a multiple of 10 from 160, or null"
        )
    raise OptionError(f"unknown option {name!r}")  # pragma: no cover - guarded by caller


def make_rules(profile: str = "classic", options: Mapping[str, Any] | None = None) -> Rules:
    """Rules of ``profile`` with ``options`` overriding its defaults, each checked."""
    if not isinstance(profile, str):
        raise OptionError(f"profile: {profile!r} is not a profile name")
    rules = profile_rules(profile)
    if not options:
        return rules
    if not isinstance(options, Mapping):
        raise OptionError(f"options: {options!r} is not an object of option names")
    changes: dict[str, Any] = {}
    for name, value in options.items():
        if name not in OPTION_NAMES:
            raise OptionError(
                f"unknown option {name!r} (see docs/rules.md for the option names)"
            )
        changes[name] = _check_value(name, value, rules)
    return dataclasses.replace(rules, **changes)


def parse_option_text(name: str, text: str) -> Any:
    """Convert ``NAME=VALUE`` text from a command line to the option's JSON value."""
    if name not in OPTION_NAMES:
        raise OptionError(f"unknown option {name!r} (see docs/rules.md for the option names)")
    t = text.strip()
    if name in BOOL_OPTIONS:
        if t.lower() in ("true", "on", "yes", "1"):
            return True
        if t.lower() in ("false", "off", "no", "0"):
            return False
        raise OptionError(f"option {name!r}: {text!r} is not true or false")
    if name == "max_bid" and t.lower() in ("null", "none", ""):
        return None
    if name in POSITIVE_INT_OPTIONS or name == "max_bid" or (
        name in CHOICE_OPTIONS and isinstance(CHOICE_OPTIONS[name][0], int)
    ):
        # ASCII digits only: int() would also take "1_0" and other scripts' digits.
        if not re.fullmatch(r"-?[0-9]{1,18}", t):
            raise OptionError(f"option {name!r}: {text[:24]!r} is not a whole number")
        return int(t)
    return t


def parse_option_assignment(text: str) -> tuple[str, Any]:
    """Parse ``NAME=VALUE`` (as in ``--option tie_rule=fail``)."""
    if "=" not in text:
        raise OptionError(f"option {text!r}: expected NAME=VALUE")
    name, _, value = text.partition("=")
    name = name.strip()
    return name, parse_option_text(name, value)
