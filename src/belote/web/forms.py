"""The score calculator as an HTML form, and back: form fields ↔ a HandEntry (docs/json.md).

The form asks what a calculator asks (seed 002): who took, one team's trick
points (the other's are worked out: 162 minus them, docs/rules.md §5.1), a capot
(252 and 0, §5.2), the validated declarations of one team (§7.6), the team that
said belote-rebelote (§7.7) and, for coinche and contrée, the contract, its
trump and the coinche level (§4.7).

>>> from belote.options import make_rules
>>> form_to_entry({"taker": "NS", "points_team": "EW", "points": "70"}, make_rules())
{'taker': 'NS', 'trick_points': {'EW': 70}}
>>> form_to_entry({"taker": "NS", "points": "lots"}, make_rules())
Traceback (most recent call last):
...
belote.web.security.BadInput: points: 'lots' is not a whole number
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from belote.errors import InvalidRecordError
from belote.options import Rules
from belote.web.i18n import N_
from belote.web.security import parse_whole

TEAMS: Final = ("NS", "EW")
FORM_FIELDS: Final = (
    "taker", "points_team", "points", "capot", "decl_team", "decl_points", "belote",
    "contract", "trump", "multiplier",
)
DECLARATION_VALUES: Final = (20, 40, 50, 70, 100, 120, 150, 200, 250, 300)
# The most one team can declare in a hand (docs/rules.md §7.2): carrés give the most
# points per card, and a team's 16 cards hold at most four of them, of jacks (200),
# nines (150), aces and tens (100 each; sans-atout: aces 200, tens 150) = 550.
# Sequences add less than the carrés they would break.
DECLARATION_MAX: Final = 550
DECLARATION_RULE: Final = ("a team declares tierces (20), cinquantes (50), cents (100) "
                           "and carrés (100, 150 or 200)")


def check_declaration(points: int) -> None:
    """Refuse a team's declaration total that no hand can make (§7.2).

    >>> check_declaration(1000)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    belote.errors.InvalidRecordError: declarations: 1000 is more than one team can declare...
    """
    if points < 0:
        raise InvalidRecordError(f"declarations: {points} is negative; {DECLARATION_RULE}")
    if points > DECLARATION_MAX:
        raise InvalidRecordError(
            f"declarations: {points} is more than one team can declare in a hand "
            f"(at most {DECLARATION_MAX}: carrés of jacks, nines, aces and tens)")
    if points % 10 or points in (10, 30):
        raise InvalidRecordError(
            f"declarations: no hand makes {points}; {DECLARATION_RULE}")


def _text(form: Mapping[str, Any], name: str) -> str:
    value = form.get(name)
    return value.strip() if isinstance(value, str) else ""


def _team(form: Mapping[str, Any], name: str, required: bool = False) -> str | None:
    value = _text(form, name).upper()
    if not value:
        if required:
            raise InvalidRecordError(f"{name}: choose NS or EW")
        return None
    if value not in TEAMS:
        raise InvalidRecordError(f"{name}: {value!r} is not NS or EW")
    return value


def _whole(form: Mapping[str, Any], name: str) -> int | None:
    # ASCII digits only: Python's int() would take "1_0" and Arabic-Indic digits.
    return parse_whole(_text(form, name), name, -100_000, 100_000)


def form_to_entry(form: Mapping[str, Any], rules: Rules) -> dict[str, Any]:
    """The HandEntry JSON of the calculator form (checked later by the scoring module)."""
    taker = _team(form, "taker", required=True)
    entry: dict[str, Any] = {"taker": taker}
    capot = _team(form, "capot")
    if capot is not None:
        entry["capot"] = capot
    else:
        points = _whole(form, "points")
        if points is None:
            raise InvalidRecordError("points: enter one team's trick points (or a capot)")
        team = _team(form, "points_team") or taker
        entry["trick_points"] = {team: points}
    decl_points = _whole(form, "decl_points")
    decl_team = _team(form, "decl_team")
    if decl_points:
        check_declaration(decl_points)
        if decl_team is None:
            raise InvalidRecordError("declarations: say which team scores them")
        entry["declarations"] = {decl_team: decl_points}
    belote = _team(form, "belote")
    if belote is not None:
        entry["belote"] = belote
    if rules.is_auction:
        contract = _text(form, "contract").lower()
        if not contract:
            raise InvalidRecordError("contract: choose the contract (80…, capot or générale)")
        entry["contract"] = contract if contract in ("capot", "generale") else _whole(
            form, "contract")
        multiplier = _whole(form, "multiplier")
        if multiplier is not None and multiplier != 1:
            entry["multiplier"] = multiplier
    trump = _text(form, "trump").upper()
    if trump:
        entry["trump"] = trump
    return entry


def entry_to_form(entry: Mapping[str, Any]) -> dict[str, str]:
    """The form fields that show a HandEntry JSON again (to edit a hand)."""
    form = {name: "" for name in FORM_FIELDS}
    taker = str(entry.get("taker") or "")
    form["taker"] = taker
    if entry.get("capot"):
        form["capot"] = str(entry["capot"])
    points = entry.get("trick_points") or {}
    if isinstance(points, Mapping) and points and not entry.get("capot"):
        team = taker if taker in points else next(iter(points))
        form["points_team"] = team
        form["points"] = str(points[team])
    decls = entry.get("declarations") or {}
    if isinstance(decls, Mapping):
        for team in TEAMS:
            if decls.get(team):
                form["decl_team"], form["decl_points"] = team, str(decls[team])
    belote = entry.get("belote")
    if isinstance(belote, str):
        form["belote"] = belote
    elif isinstance(belote, Mapping):
        scoring = [t for t in TEAMS if belote.get(t)]
        form["belote"] = scoring[0] if scoring else ""
    if entry.get("contract") is not None:
        form["contract"] = str(entry["contract"])
    if entry.get("trump"):
        form["trump"] = str(entry["trump"])
    form["multiplier"] = str(entry.get("multiplier") or 1)
    return form


def contract_choices(rules: Rules) -> list[tuple[str, str]]:
    """(value, label) of every contract of the auction profiles (§4.3, §4.6, §4.8)."""
    top = rules.max_bid if rules.max_bid is not None else 500
    out = [(str(v), str(v)) for v in range(80, top + 1, 10)]
    out.append(("capot", N_("capot")))
    if rules.generale:
        out.append(("generale", N_("générale")))
    return out


def trump_choices(rules: Rules) -> list[tuple[str, str]]:
    out = [("S", N_("♠ spades")), ("H", N_("♥ hearts")), ("D", N_("♦ diamonds")),
           ("C", N_("♣ clubs"))]
    if rules.sa_ta or rules.sa_ta_in_classic:
        out += [("SA", N_("no trump (sans-atout)")), ("TA", N_("all trumps (tout-atout)"))]
    return out


def wants_trump(rules: Rules) -> bool:
    """The trump changes the count only with sans-atout / tout-atout (§5.3, §5.4)."""
    return rules.sa_ta or rules.sa_ta_in_classic
