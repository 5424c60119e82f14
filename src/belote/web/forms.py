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

from belote.cards import ACE, ALL_TRUMP, JACK, KING, NINE, NO_TRUMP, QUEEN, TEN, TrumpMode
from belote.declarations import (
    CARRE,
    Declaration,
    carre_points,
    make_carre,
    make_sequence,
    resolve,
    strength,
)
from belote.errors import InvalidRecordError, Refusal
from belote.options import Rules
from belote.scoring import declaration_total_refusal
from belote.web.i18n import N_
from belote.web.security import parse_whole

TEAMS: Final = ("NS", "EW")
# Declarations entered by name (docs/rules.md §7.2): how many of each kind a team
# announced; the points and the comparison (§7.5) are the engine's.
SEQUENCE_KINDS: Final = {"tierce": 3, "cinquante": 4, "cent": 5}
CARRE_KINDS: Final = {"carre_J": JACK, "carre_9": NINE, "carre_A": ACE, "carre_T": TEN,
                      "carre_K": KING, "carre_Q": QUEEN}
DECL_KINDS: Final = (*SEQUENCE_KINDS, *CARRE_KINDS)
DECL_NAME_FIELDS: Final = tuple(f"decl_{t}_{k}" for t in ("NS", "EW") for k in DECL_KINDS)
FORM_FIELDS: Final = (
    "taker", "points_team", "points", "capot", "decl_team", "decl_points", "belote",
    "contract", "trump", "multiplier", "decl_tie", *DECL_NAME_FIELDS,
)
DECLARATION_VALUES: Final = (20, 40, 50, 70, 100, 120, 150, 200, 250, 300)


def check_declaration(points: int, rules: Rules) -> None:
    """Refuse a team's declaration total that no hand can make: the scoring's rule
    (:func:`belote.scoring.declaration_total_refusal`, §7).

    >>> from belote.options import make_rules
    >>> check_declaration(1000, make_rules("classic"))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    belote.errors.InvalidRecordError: declarations: 1000 is more than one team can declare...
    """
    found = declaration_total_refusal(points, rules)
    if found is not None:
        raise InvalidRecordError.refused(found[0], "declarations", **found[1])


def _text(form: Mapping[str, Any], name: str) -> str:
    value = form.get(name)
    return value.strip() if isinstance(value, str) else ""


def _team(form: Mapping[str, Any], name: str, required: bool = False) -> str | None:
    value = _text(form, name).upper()
    if not value:
        if required:
            raise InvalidRecordError.refused(Refusal.CHOOSE_TEAM, name)
        return None
    if value not in TEAMS:
        raise InvalidRecordError.refused(Refusal.NOT_A_TEAM, name, text=value)
    return value


def _whole(form: Mapping[str, Any], name: str) -> int | None:
    # ASCII digits only: Python's int() would take "1_0" and Arabic-Indic digits.
    return parse_whole(_text(form, name), name, -100_000, 100_000)


def trump_mode(form: Mapping[str, Any]) -> TrumpMode:
    """The trump the carrés are valued in: sans-atout changes them (§7.2), else any suit."""
    trump = _text(form, "trump").upper()
    return NO_TRUMP if trump == "SA" else ALL_TRUMP if trump == "TA" else 0


def named_declarations(form: Mapping[str, Any]) -> dict[str, list[Declaration]] | None:
    """Each team's declarations entered by name (``decl_NS_tierce`` = 2...), as the
    engine's :class:`Declaration` values; None when none is entered.

    >>> d = named_declarations({"decl_NS_tierce": "2", "decl_EW_carre_J": "1"})
    >>> [(x.name, x.points) for x in d["NS"]], [(x.name, x.points) for x in d["EW"]]
    ([('tierce', 20), ('tierce', 20)], [('carré of J', 200)])
    """
    trump = trump_mode(form)
    # sequences of one length compare equal by name: the same (plain) suit, the ace on top
    plain = 1 if trump == 0 else 0
    out: dict[str, list[Declaration]] = {"NS": [], "EW": []}
    seen_carres: set[str] = set()
    for team in TEAMS:
        for kind in DECL_KINDS:
            name = f"decl_{team}_{kind}"
            count = parse_whole(_text(form, name), name, 0, 5) or 0
            if kind in SEQUENCE_KINDS:
                length = SEQUENCE_KINDS[kind]
                out[team] += [make_sequence(plain, 8 - length, length)] * count
            elif count:
                if count > 1 or kind in seen_carres:
                    raise InvalidRecordError.refused(Refusal.CARRE_TWICE, "declarations", kind,
                                                     kind=kind)
                seen_carres.add(kind)
                out[team].append(make_carre(CARRE_KINDS[kind], trump))
    if not out["NS"] and not out["EW"]:
        return None
    for team in TEAMS:
        # two players of eight cards: two sequences each at most (3 + 5, 4 + 4)
        sequences = [d for d in out[team] if d.kind != CARRE]
        if len(sequences) > 4 or sum(d.length for d in sequences) > 16:
            raise InvalidRecordError.refused(Refusal.TOO_MANY_SEQUENCES, f"declarations.{team}",
                                             team=team)
    return out


def compare_declarations(
    decls: Mapping[str, list[Declaration]], rules: Rules, trump: TrumpMode, tie: str | None,
) -> dict[str, Any]:
    """The comparison of §7.5 (the engine's :func:`resolve`): only the team with the best
    declaration scores, all its own.  By name two sequences of one length are equal:
    ``tie`` says which team's is higher (the higher card, then a sequence in trumps).

    >>> from belote.options import make_rules
    >>> d = named_declarations({"decl_NS_tierce": "1", "decl_NS_cinquante": "1",
    ...                         "decl_EW_carre_9": "1"})
    >>> r = compare_declarations(d, make_rules(), 0, None)
    >>> r["winner"], r["points"], r["best"]
    ('EW', 150, {'NS': 'cinquante', 'EW': 'carre_9'})
    """
    announced = [decls["NS"], decls["EW"]]
    result = resolve(announced, rules, trump, 0, (0, 1))
    keys = [max((strength(d, rules, trump) for d in side), default=None) for side in announced]
    tied = keys[0] is not None and keys[0] == keys[1]
    winner = None if result.winner is None else TEAMS[result.winner]
    if tied:
        if tie not in ("NS", "EW", "none"):
            raise InvalidRecordError.refused(Refusal.DECLARATIONS_TIED, "declarations")
        winner = None if tie == "none" else tie
    points = 0 if winner is None else sum(d.points for d in decls[winner])
    return {
        "winner": winner,
        "points": points,
        "tied": tied,
        "totals": {t: sum(d.points for d in decls[t]) for t in TEAMS},
        "items": {t: [[_kind_of(d), d.points] for d in decls[t]] for t in TEAMS},
        "best": {t: (_kind_of(max(decls[t], key=lambda d: strength(d, rules, trump)))
                     if decls[t] else None) for t in TEAMS},
    }


def _kind_of(d: Declaration) -> str:
    if d.kind == CARRE:
        return next(k for k, r in CARRE_KINDS.items() if r == d.rank)
    return {3: "tierce", 4: "cinquante"}.get(d.length, "cent")


def carre_values(rules: Rules, trump: str = "") -> dict[str, int]:
    """Each declaration's points by name (carrés in sans-atout differ, §7.2)."""
    mode = trump_mode({"trump": trump})
    out = {"tierce": 20, "cinquante": 50, "cent": 100}
    out.update({k: carre_points(r, mode) for k, r in CARRE_KINDS.items()})
    return out


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
            raise InvalidRecordError.refused(Refusal.ENTER_POINTS, "points")
        team = _team(form, "points_team") or taker
        entry["trick_points"] = {team: points}
    decl_points = _whole(form, "decl_points")
    decl_team = _team(form, "decl_team")
    named = named_declarations(form) if rules.declarations else None
    if named is not None:
        if decl_points:
            raise InvalidRecordError.refused(Refusal.DECLARATIONS_TWICE, "declarations")
        compared = compare_declarations(named, rules, trump_mode(form),
                                        _text(form, "decl_tie") or None)
        check_declaration(compared["points"], rules)
        if compared["winner"] is not None and compared["points"]:
            entry["declarations"] = {compared["winner"]: compared["points"]}
    elif decl_points:
        check_declaration(decl_points, rules)
        if decl_team is None:
            raise InvalidRecordError.refused(Refusal.DECLARATIONS_WHOSE, "declarations")
        entry["declarations"] = {decl_team: decl_points}
    belote = _team(form, "belote")
    if belote is not None:
        entry["belote"] = belote
    if rules.is_auction:
        contract = _text(form, "contract").lower()
        if not contract:
            raise InvalidRecordError.refused(Refusal.CHOOSE_CONTRACT, "contract")
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
