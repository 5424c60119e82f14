"""Entries and scores in JSON (docs/json.md HandEntry, HandScore, GameScore, and the
per-seat entry of three and two players): one reader and one writer of an entry at
every table, its columns named by the table (NS and EW, or N, E and S).

>>> from belote.options import make_rules
>>> parse_entry({"taker": "NS", "trick_points": {"NS": 163}}, make_rules("classic"))
Traceback (most recent call last):
...
belote.errors.InvalidRecordError: hand: trick_points.NS: 163 is outside 0..162
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

from belote.cards import TRUMP_MODE_NAMES, parse_trump
from belote.errors import BeloteError, InvalidRecordError, OptionError, Refusal
from belote.options import Rules, make_rules
from belote.scoring.checks import Bad, capot_name, check_entry, complaint
from belote.scoring.values import (
    BELOTE_POINTS,
    CAPOT_POINTS,
    EW,
    NS,
    SEAT_LETTERS,
    SIDE_NAMES_3P,
    TAKER_SIDE,
    TEAM_NAMES,
    HandEntry,
    capot_values,
    is_int,
    seat_capot_total,
    seat_dict,
    team_dict,
    trick_total,
)
from belote.table import DealMode, Table, parse_seat

HAND_KEYS: Final = (
    "profile", "options", "taker", "trick_points", "capot", "declarations", "belote",
    "contract", "trump", "multiplier", "reserve",
)
SEAT_HAND_KEYS: Final = (
    "profile", "options", "taker", "trick_points", "trick_total", "capot", "declarations",
    "belote", "trump", "leader", "reserve",
)
GAME_KEYS: Final = ("profile", "options", "target", "hands")


def table_rules_of(obj: Mapping[str, Any]) -> Rules:
    """The rules named by an input's ``profile`` (default classic) and ``options``,
    any number of players."""
    profile = obj.get("profile", "classic")
    if profile is None:
        profile = "classic"
    options = obj.get("options")
    return make_rules(profile, options or {})


def rules_of(obj: Mapping[str, Any]) -> Rules:
    """The rules named by an input's ``profile`` (default classic) and ``options``, of
    a four-player profile."""
    return two_team_rules(table_rules_of(obj))


def two_team_rules(rules: Rules) -> Rules:
    """Refuse the three- and two-player profiles where two teams NS and EW are scored:
    their hands are scored per seat (§12)."""
    if rules.players != 4:
        raise OptionError(
            f"profile {rules.profile!r}: two teams (NS, EW) are for the four-player "
            f"profiles; a {rules.players}-player hand is scored per seat (docs/json.md, "
            "three and two players)"
        )
    return rules


def check_object(obj: Any, keys: Sequence[str], where: str) -> dict[str, Any]:
    """``obj`` as a JSON object of only ``keys`` (an input of docs/json.md)."""
    if not isinstance(obj, dict):
        raise InvalidRecordError(f"{where}: expected a JSON object, got {type(obj).__name__}")
    for key in obj:
        if key not in keys:
            raise InvalidRecordError(
                f"{where}: unknown key {key!r} (expected {', '.join(keys)})")
    return obj


def parse_team(value: Any, field: str, where: str = "hand") -> int:
    """``"NS"`` → 0, ``"EW"`` → 1 (any case)."""
    if isinstance(value, str) and value.strip().upper() in TEAM_NAMES:
        return TEAM_NAMES.index(value.strip().upper())
    raise InvalidRecordError(f"{where}: {field}: {value!r} is not NS or EW")


class _Columns:
    """How an input names the columns of the rules' table: the teams, or the seats."""

    def __init__(self, rules: Rules, where: str) -> None:
        self.seats = Table.of(rules).scores_per_seat
        self.players = rules.players
        self.count = rules.players if self.seats else 2
        self.names: tuple[str, ...] = (SEAT_LETTERS[:self.players] if self.seats
                                       else TEAM_NAMES)
        self.kind = "seat" if self.seats else "team"
        self.where = where

    def parse(self, value: Any, field: str, where: str | None = None) -> int:
        if self.seats:
            return parse_seat(value, f"{where or self.where}: {field}", self.players)
        return parse_team(value, field, where or self.where)

    def points(self, value: Any, field: str) -> dict[int, int]:
        """``{"NS": 92}`` → ``{0: 92}`` (or per seat): known keys, whole numbers >= 0."""
        where = self.where
        if not isinstance(value, dict):
            raise InvalidRecordError(f"{where}: {field}: {value!r} is not an object such as "
                                     f"{{\"{self.names[0]}\": 92}}")
        out: dict[int, int] = {}
        for key, points in value.items():
            index = self.parse(key, field, where)
            name = self.names[index]
            if index in out:
                raise InvalidRecordError(f"{where}: {field}: {self.kind} {key!r} given twice")
            if not is_int(points):
                raise InvalidRecordError(
                    f"{where}: {field}.{name}: {points!r} is not a whole number")
            if points < 0:
                raise InvalidRecordError.refused(Refusal.NEGATIVE, where, f"{field}.{name}",
                                                 value=points, team=name)
            out[index] = points
        return out

    def values(self, obj: Mapping[str, Any], field: str) -> tuple[int, ...]:
        given = {} if obj.get(field) is None else self.points(obj[field], field)
        return tuple(given.get(c, 0) for c in range(self.count))


def parse_entry(
    obj: Any, rules: Rules, where: str = "hand", *, allow_reserve: bool = True,
) -> HandEntry:
    """A hand entry of docs/json.md → :class:`HandEntry`, every field checked: per team
    with four players, per seat at a table of three or two.

    ``profile`` and ``options`` may appear; they must then name ``rules``.
    ``allow_reserve = False`` refuses a non-zero ``reserve`` (a game or a score sheet
    carries the reserve itself).  ``trick_points`` gives every column's points, or all
    but one: the missing one's are the trick total (162, or ``trick_total`` where part
    of the pack stays out) less the others'.  After a capot the capot side's points
    may be left out and the other side's are 0.  ``belote`` is a team or a seat, null,
    or (for tout-atout) an object of points per column such as ``{"NS": 40, "EW": 20}``.
    """
    columns = _Columns(rules, where)
    seats = columns.seats
    obj = check_object(obj, SEAT_HAND_KEYS if seats else HAND_KEYS, where)
    _same_rules(obj, rules, where, table_rules_of if seats else rules_of)
    bad = complaint(where)
    n = columns.count
    mode = Table.of(rules).mode
    decouverte = mode is DealMode.DECOUVERTE
    taker: int | None = None
    if decouverte:
        if obj.get("taker") is not None:
            raise bad("taker", f"{obj['taker']!r}: nobody takes in belote découverte "
                               "(§12.2): leave it out or null")
    elif obj.get("taker") is None:
        raise bad("taker", f"required: the taker's seat ({', '.join(columns.names)})" if seats
                  else "required (NS or EW)")
    else:
        taker = columns.parse(obj["taker"], "taker")
    trump = _parse_trump_field(obj, bad)
    capot = _parse_capot(obj.get("capot"), columns, bad)
    in_play = _parse_trick_total(obj.get("trick_total"), rules, trump, bad)
    given = {} if obj.get("trick_points") is None else columns.points(
        obj["trick_points"], "trick_points")
    if seats:
        points = _work_out_points(rules, given, taker, capot, trump, in_play, bad)
        if mode.leaves_cards_out and in_play is None:
            in_play = sum(points) if capot is None else sum(points) - 90
    else:
        points = _team_points(rules, given, capot, trump, bad)
    declarations = columns.values(obj, "declarations")
    belote_value = obj.get("belote")
    if isinstance(belote_value, str):
        holder = columns.parse(belote_value, "belote")
        belote = tuple(BELOTE_POINTS if c == holder else 0 for c in range(n))
    elif belote_value is None or isinstance(belote_value, dict):
        belote = columns.values(obj, "belote")
    elif seats:
        raise bad("belote", f"{belote_value!r} is not a seat, null or points per seat")
    else:
        raise bad("belote", f"{belote_value!r} is not NS, EW, null or points per team")
    contract = obj.get("contract")
    if isinstance(contract, str):
        contract = contract.strip().lower()
    elif contract is not None and not is_int(contract):
        raise bad("contract", f"{contract!r} is not a number, 'capot' or 'generale'")
    multiplier = obj.get("multiplier", 1)
    if multiplier is None:
        multiplier = 1
    if not is_int(multiplier):
        raise bad("multiplier", f"{multiplier!r} is not 1, 2 (coinche) or 4 (surcoinche)")
    leader: int | None = None
    if obj.get("leader") is not None:
        if rules.players != 3:
            raise bad("leader", "only with three players (it decides an odd point "
                                "of the defenders' shares)")
        leader = columns.parse(obj["leader"], "leader")
    reserve = _parse_reserve(obj, allow_reserve, bad)
    entry = HandEntry(
        taker=taker, trick_points=points, capot=capot, declarations=declarations,
        belote=belote, contract=contract, trump=trump, multiplier=multiplier,
        reserve=reserve, in_play=in_play, leader=leader, players=4 if not seats else n,
    )
    check_entry(rules, entry, where)
    return entry


def _parse_capot(value: Any, columns: _Columns, bad: Bad) -> int | None:
    """The side that took every trick: a team, a seat at two, or at three the words
    ``taker`` and ``defenders``."""
    if value is None:
        return None
    if columns.players != 3:
        return columns.parse(value, "capot")
    word = value.strip().lower() if isinstance(value, str) else None
    if word not in SIDE_NAMES_3P:
        raise bad("capot", f"{value!r} is not 'taker', 'defenders' or null "
                           "(the side that took every trick)")
    return SIDE_NAMES_3P.index(word)


def _parse_trick_total(value: Any, rules: Rules, trump: int | None, bad: Bad) -> int | None:
    """A per-seat entry's ``trick_total``: kept where part of the pack stays out, else
    only the full total is accepted."""
    if value is None:
        return None
    full = trick_total(rules, trump)
    if not is_int(value) or not 10 <= value <= full:
        raise bad("trick_total", f"{value!r} is outside 10..{full}")
    if Table.of(rules).mode.leaves_cards_out:
        return int(value)
    if value != full:
        raise bad("trick_total", f"{value!r}: the whole pack is played here, "
                                 f"the trick total is {full}")
    return None


def _team_points(rules: Rules, given: dict[int, int], capot: int | None,
                 trump: int | None, bad: Bad) -> tuple[int, int]:
    """Both teams' trick points from those given (one or both); a capot's are 252 and
    0, whichever value the capot team's points were given as (§5.2, §5.4)."""
    total = trick_total(rules, trump)
    pair = [0, 0]
    if capot is not None:
        allowed = capot_values(rules, trump)
        for team, value in given.items():
            if value in (allowed if team == capot else (0,)):
                continue
            if team == capot:
                raise bad(f"trick_points.{TEAM_NAMES[team]}", "", Refusal.CAPOT_TOTAL,
                          value=value, by=TEAM_NAMES[capot], total=CAPOT_POINTS,
                          team=TEAM_NAMES[team])
            raise bad(f"trick_points.{TEAM_NAMES[team]}", "", Refusal.CAPOT_OTHER_SIDE,
                      value=value, by=TEAM_NAMES[capot],
                      other="the other team takes no trick: 0", team=TEAM_NAMES[team])
        pair[capot] = CAPOT_POINTS
        return (pair[0], pair[1])
    if not given:
        raise bad("trick_points", "required: one team's points, e.g. {\"NS\": 92}, or a capot")
    for team, value in given.items():
        if value > total:
            raise bad(f"trick_points.{TEAM_NAMES[team]}", "", Refusal.TRICK_POINTS_RANGE,
                      value=value, total=total, team=TEAM_NAMES[team])
    if len(given) == 2:
        return (given[NS], given[EW])
    (team, value), = given.items()
    pair[team], pair[1 - team] = value, total - value
    return (pair[0], pair[1])


def _work_out_points(
    rules: Rules, given: dict[int, int], taker: int | None, capot: int | None,
    trump: int | None, in_play: int | None, bad: Bad,
) -> tuple[int, ...]:
    """Every seat's trick points from those given (all, or all but one)."""
    n = rules.players
    names = SEAT_LETTERS[:n]
    if capot is not None:
        if n == 2:
            winners = [capot]
        else:
            if taker is None:  # pragma: no cover - découverte is two players
                raise bad("capot", "needs a taker")
            winners = [taker] if capot == TAKER_SIDE else [s for s in range(n) if s != taker]
        points = [0] * n
        for seat, value in given.items():
            if seat not in winners and value:
                raise bad(f"trick_points.{names[seat]}",
                          f"{value!r} with a capot: {names[seat]} took no trick (0)")
            points[seat] = value
        missing = [s for s in winners if s not in given]
        if not missing:
            return tuple(points)
        if in_play is None and Table.of(rules).mode.leaves_cards_out:
            raise bad("trick_points", "with a capot here give the capot side's points "
                                      "(cards + 100) or trick_total")
        capot_total = seat_capot_total(rules, trump, in_play)
        if len(missing) > 1 or (Table.of(rules).mode is DealMode.KITTY and len(winners) == 2):
            raise bad("trick_points", "with a capot by the defenders give each defender's "
                                      "points (they decide the shares, §12.1)")
        rest = capot_total - sum(points[s] for s in winners)
        if rest < 0:
            raise bad("trick_points", f"the capot side's points are more than "
                                      f"{capot_total}")
        points[missing[0]] = rest
        return tuple(points)
    missing = [s for s in range(n) if s not in given]
    if not missing:
        return tuple(given[s] for s in range(n))
    if len(missing) > 1:
        example = ", ".join(f'"{names[s]}": ...' for s in range(n - 1))
        raise bad("trick_points", f"required: every seat's points, or all but one "
                                  f"({{{example}}}), or a capot")
    if Table.of(rules).mode.leaves_cards_out and in_play is None:
        raise bad("trick_total", "required when a seat's trick points are left out: the "
                                 "points of the cards played + 10 (§12)")
    total = trick_total(rules, trump) if in_play is None else in_play
    points = [given.get(s, 0) for s in range(n)]
    for seat, value in given.items():
        if value > total:
            raise bad(f"trick_points.{names[seat]}", "", Refusal.TRICK_POINTS_RANGE,
                      value=value, total=total, team=names[seat])
    rest = total - sum(points)
    if rest < 0:
        raise bad("trick_points", " + ".join(str(given[s]) for s in sorted(given))
                  + f" is more than {total}")
    points[missing[0]] = rest
    return tuple(points)


def _same_rules(
    obj: Mapping[str, Any], rules: Rules, where: str,
    named_rules: Callable[[Mapping[str, Any]], Rules],
) -> None:
    """A hand entry that names a profile or options must name the rules in force."""
    if "profile" in obj or "options" in obj:
        try:
            named = named_rules(obj)
        except BeloteError as exc:
            raise InvalidRecordError(f"{where}: {exc}") from None
        if named != rules:
            raise InvalidRecordError(
                f"{where}: profile/options: {obj.get('profile')!r} with "
                f"{obj.get('options') or {}!r} differ from the rules in force "
                f"({rules.profile} with {rules.overrides()!r})")


def _parse_trump_field(obj: Mapping[str, Any], bad: Bad) -> int | None:
    value = obj.get("trump")
    if value is None:
        return None
    if isinstance(value, str):
        try:
            return parse_trump(value)
        except BeloteError:
            pass
    raise bad("trump", f"{value!r} is not S, H, D, C, SA or TA")


def _parse_reserve(obj: Mapping[str, Any], allow_reserve: bool, bad: Bad) -> int:
    reserve = obj.get("reserve", 0)
    if reserve is None:
        reserve = 0
    if not is_int(reserve):
        raise bad("reserve", f"{reserve!r} is not a whole number")
    if reserve and not allow_reserve:
        raise bad("reserve", f"{reserve!r}: not given here (the game carries the reserve)")
    return int(reserve)


def entry_to_json(entry: HandEntry) -> dict[str, Any]:
    """The JSON form of a hand entry (:func:`parse_entry` reads it back): per team, or
    per seat at a table of three or two."""
    seats = entry.per_seat
    names = SEAT_LETTERS if seats else TEAM_NAMES
    per_column = seat_dict if seats else team_dict
    out: dict[str, Any] = {
        "taker": None if entry.taker is None else names[entry.taker],
        "trick_points": per_column(entry.trick_points),
        "capot": None if entry.capot is None else capot_name(entry, entry.capot),
        "declarations": per_column(entry.declarations),
    }
    holders = [c for c, b in enumerate(entry.belote) if b]
    if not holders:
        out["belote"] = None
    elif len(holders) == 1 and entry.belote[holders[0]] == BELOTE_POINTS:
        out["belote"] = names[holders[0]]
    else:
        out["belote"] = per_column(entry.belote)
    if entry.contract is not None:
        out["contract"] = entry.contract
    optional = {  # written only when given, in this order
        "multiplier": entry.multiplier if entry.contract is not None or entry.multiplier != 1
        else None,
        "trump": None if entry.trump is None else TRUMP_MODE_NAMES[entry.trump],
        "trick_total": entry.in_play if seats else None,
        "leader": None if entry.leader is None else SEAT_LETTERS[entry.leader],
        "reserve": entry.reserve or None,
    }
    out.update((key, value) for key, value in optional.items() if value is not None)
    return out
