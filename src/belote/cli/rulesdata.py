"""`belote rules`: the profiles and every option, from the code itself.

Read from :mod:`belote.options` (the profiles' defaults, the options' kinds and
values), so it never disagrees with what the engine accepts.  The human form is
plain text; ``--json`` answers::

    {"profiles": {"classic": {"players": 4, "deck": "french", "bidding": "take_pass"}, ...},
     "options": {"tie_rule": {"values": ["litige", "fail", "made"],
                              "default": {"classic": "litige", ...}}, ...}}

where ``values`` is the list of allowed values, or a sentence for the options
that take a number.  docs/rules.md explains each option.  Imports neither typer
nor rich.
"""

from __future__ import annotations

from typing import Any

from belote.cli.common import dumps, echo
from belote.options import (
    ALL_PROFILES,
    AUCTION_PATTERNS,
    BOOL_OPTIONS,
    CHOICE_OPTIONS,
    OPTION_NAMES,
    POSITIVE_INT_OPTIONS,
    TAKE_PASS_PATTERNS,
    Bidding,
    profile_rules,
)

FIXED = ("players", "deck", "bidding")


def option_values(name: str) -> list[Any] | str:
    """The values an option takes: a list, or a sentence for numbers."""
    if name in BOOL_OPTIONS:
        return [True, False]
    if name == "deal_pattern":
        return [*TAKE_PASS_PATTERNS, *AUCTION_PATTERNS]
    if name in CHOICE_OPTIONS:
        return list(CHOICE_OPTIONS[name])
    if name in POSITIVE_INT_OPTIONS:
        return "a positive whole number"
    if name == "max_bid":
        return "null (no limit) or a multiple of 10 from 160"
    return "see docs/rules.md"  # pragma: no cover - every option has a kind above


def rules_data() -> dict[str, Any]:
    """The profiles and the options, as ``belote rules --json`` answers them."""
    bases = {p: profile_rules(p) for p in ALL_PROFILES}
    profiles = {p: {k: getattr(r, k) for k in FIXED} for p, r in bases.items()}
    options = {
        name: {
            "values": option_values(name),
            "default": {p: getattr(r, name) for p, r in bases.items()},
        }
        for name in OPTION_NAMES
    }
    return {"profiles": profiles, "options": options}


def _text(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def rules_text() -> str:
    """The human form: the profiles, then one line an option."""
    data = rules_data()
    lines = ["Profiles (--profile NAME, or \"profile\" in JSON):"]
    for name, fixed in data["profiles"].items():
        bidding = "take or pass" if fixed["bidding"] is Bidding.TAKE_PASS else "numeric auction"
        lines.append(f"  {name:<11} {fixed['players']} players, {fixed['deck']} cards, {bidding}")
    lines += [
        "",
        "Options (--option NAME=VALUE, or \"options\": {NAME: VALUE} in JSON).  The default",
        "is classic's, other profiles' defaults follow where they differ.  docs/rules.md",
        "explains each option.",
        "",
    ]
    rows = []
    for name, info in data["options"].items():
        values = info["values"]
        shown = ", ".join(_text(v) for v in values) if isinstance(values, list) else values
        if name == "deal_pattern":
            shown = (", ".join(TAKE_PASS_PATTERNS) + " (take or pass); "
                     + ", ".join(AUCTION_PATTERNS) + " (auction)")
        defaults = info["default"]
        base = defaults["classic"]
        others = ", ".join(f"{p}: {_text(v)}" for p, v in defaults.items() if v != base)
        rows.append((name, shown, _text(base) + (f"  ({others})" if others else "")))
    width = max(len(r[0]) for r in rows) + 2
    vwidth = min(max(len(r[1]) for r in rows), 44) + 2
    lines.append(f"  {'option':<{width}}{'values':<{vwidth}}default")
    for name, shown, default in rows:
        if len(shown) > vwidth - 2:
            lines.append(f"  {name:<{width}}{shown}")
            lines.append(f"  {'':<{width}}{'':<{vwidth}}{default}")
        else:
            lines.append(f"  {name:<{width}}{shown:<{vwidth}}{default}")
    return "\n".join(lines)


def print_rules(json_mode: bool = False) -> None:
    echo(dumps(rules_data()) if json_mode else rules_text())
