"""What a hand's entry may hold (docs/rules.md §5, §7, §9, §12): one check for every
table, over the entry's columns (the teams with four players, the seats with three or
two), each refusal naming the field and the column.

The most a side can declare in one hand (§7) is one rule, :func:`declaration_max`,
read by this check, the calculator (``belote score``) and the score sheet's form.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final, Protocol

from belote.cards import ALL_TRUMP, NO_TRUMP, TRUMP_MODE_NAMES
from belote.errors import REFUSAL_ENGLISH, InvalidRecordError, Refusal
from belote.options import Rules
from belote.scoring.values import (
    BELOTE_POINTS,
    DEFENDERS,
    SEAT_LETTERS,
    SIDE_NAMES_3P,
    TEAM_NAMES,
    HandEntry,
    capot_values,
    is_decouverte,
    is_int,
    partial_pack,
    seat_capot_total,
    trick_total,
)
from belote.table import DealMode, Table


class Bad(Protocol):
    """Makes the refusal of one field of an entry: its message, or a :class:`Refusal`
    with its fields (the message then written from them)."""

    def __call__(self, field: str, message: str = "", refusal: Refusal | None = None,
                 /, **values: object) -> InvalidRecordError: ...

# The most one side can declare in one hand (§7.2, §7.6).  A player announces from
# his own hand: eight cards with four players, which hold two carrés at most (a
# third takes four more cards), the best of them jacks (200) and nines (150).  A
# sequence pays less for its cards than a carré (a cent is 100 for five cards, a
# carré of 100 takes four), and with four players two hands of eight cannot lay a
# sequence over a carré's cards worth more than a carré elsewhere.  A team's two
# hands thus hold at most the four best carrés: jacks 200 + nines 150 + two of 100
# (aces, tens, kings or queens); in sans-atout aces 200 + tens 150 + two of 100.
# The same 550 holds at three and two players (hands of 8 to 10 cards: two carrés
# each and two cards over, no sequence of them) unless a card may count twice.
DECLARATION_MAX: Final = 550
# With ``card_reuse`` a card of a carré may count in a sequence too (§7.3): one hand
# of ten cards then holds at most 400 (carrés of jacks and nines with the ten and
# queen of one suit: 350 + the cinquante 9-10-J-Q); the two defenders of a table of
# three, two such hands, 800 at the most.
REUSE_HAND_MAX: Final = 400


def declaration_max(rules: Rules) -> int:
    """The most one side can declare in one hand under ``rules`` (§7): 550, the four
    best carrés of a team's two hands (:data:`DECLARATION_MAX`); at a table of three
    with ``card_reuse`` the two defenders' hands may hold more (800)."""
    if rules.card_reuse and rules.players == 3:
        return 2 * REUSE_HAND_MAX
    return DECLARATION_MAX


def declaration_total_problem(points: int, rules: Rules | None = None) -> str | None:
    """What is wrong with a side's declaration total ``points``, or None: negative,
    more than :func:`declaration_max` (:data:`DECLARATION_MAX` when no rules are
    given), or not a sum of declaration values (every multiple of 10 but 10 and 30)."""
    found = declaration_total_refusal(points, rules)
    return None if found is None else REFUSAL_ENGLISH[found[0]].format(**found[1])


def declaration_total_refusal(points: int, rules: Rules | None = None,
                              ) -> tuple[Refusal, dict[str, object]] | None:
    """:func:`declaration_total_problem` by code: the refusal and its fields, or None."""
    if points < 0:
        return Refusal.NEGATIVE, {"value": points}
    limit = DECLARATION_MAX if rules is None else declaration_max(rules)
    if points > limit:
        return Refusal.DECLARATIONS_MAX, {"value": points, "limit": limit}
    if points % 10 or points in (10, 30):
        return Refusal.DECLARATIONS_SUM, {"value": points}
    return None


def complaint(where: str) -> Bad:
    def bad(field: str, message: str = "", refusal: Refusal | None = None,
            /, **values: object) -> InvalidRecordError:
        if refusal is not None:
            return InvalidRecordError.refused(refusal, where, field, **values)
        # a field of the wrong form: by code too (the web says which field), its English
        # ``where: field: message`` as ever
        return InvalidRecordError.refused(Refusal.BAD_FIELD, where, field, field=field,
                                          detail=message)

    return bad


def check_entry(rules: Rules, entry: HandEntry, where: str = "hand") -> None:
    """Refuse an impossible entry with an :class:`InvalidRecordError` naming the field
    and the column: a team's (``trick_points.NS``) or at a table of three or two a
    seat's (``belote.E``)."""
    bad = complaint(where)
    seats = entry.per_seat
    names = SEAT_LETTERS if seats else TEAM_NAMES
    decouverte = is_decouverte(rules)
    n = rules.players if seats else 2
    if seats:
        if entry.players != rules.players:
            raise bad("players", f"{entry.players!r}: {rules.profile} is played by "
                                 f"{rules.players}")
        if decouverte:
            if entry.taker is not None:
                raise bad("taker", "nobody takes in belote découverte (§12.2): leave it out")
        elif not is_int(entry.taker) or entry.taker not in range(n):
            raise bad("taker", f"{entry.taker!r} is not a seat "
                               f"({', '.join(SEAT_LETTERS[:n])})")
    elif not is_int(entry.taker) or entry.taker not in (0, 1):
        raise bad("taker", f"{entry.taker!r} is not a team (0 NS or 1 EW)")
    _check_trump(rules, entry.trump, decouverte, bad)
    for name, values in (("trick_points", entry.trick_points),
                         ("declarations", entry.declarations), ("belote", entry.belote)):
        if (not isinstance(values, (tuple, list)) or len(values) != n
                or not all(is_int(v) for v in values)):
            what = f"{n} whole numbers, one per seat" if seats else "a pair of whole numbers"
            raise bad(name, f"{values!r} is not {what}")
        for column in range(n):
            if values[column] < 0:
                raise bad(f"{name}.{names[column]}", "", Refusal.NEGATIVE,
                          value=values[column], team=names[column])
    if seats:
        _check_trick_total(rules, entry, bad)
    _check_trick_points(rules, entry, bad)
    _check_declarations(rules, entry, bad)
    _check_belote(entry, bad)
    if entry.leader is not None and (rules.players != 3 or not seats
                                     or not is_int(entry.leader)
                                     or entry.leader not in range(3)):
        raise bad("leader", f"{entry.leader!r}: the seat that led the first trick, N, E or S "
                            "(three players only)")
    _check_contract(rules, entry, bad)
    if not is_int(entry.reserve) or entry.reserve < 0:
        raise bad("reserve", f"{entry.reserve!r} is not a whole number of points >= 0")
    if entry.reserve and decouverte:
        raise bad("reserve", "belote découverte carries no reserve (§12.2)")
    if entry.reserve and rules.is_auction:
        raise bad("reserve", f"{entry.reserve!r}: {rules.profile} has no litige reserve "
                             "(docs/rules.md §8.4 is for classic and moroccan)")


def _check_trump(rules: Rules, trump: Any, decouverte: bool, bad: Bad) -> None:
    if trump is None:
        return
    if not is_int(trump) or not 0 <= trump <= ALL_TRUMP:
        raise bad("trump", f"{trump!r} is not a trump mode")
    if trump < NO_TRUMP:
        return
    option = "sa_ta" if rules.is_auction else "sa_ta_in_classic"
    if decouverte:
        raise bad("trump", f"{TRUMP_MODE_NAMES[trump]!r} is not played here "
                           "(never in belote découverte (§12.2))")
    if not getattr(rules, option):
        raise bad("trump", "", Refusal.TRUMP_OFF, trump=TRUMP_MODE_NAMES[trump], option=option)


def _check_trick_total(rules: Rules, entry: HandEntry, bad: Bad) -> None:
    """The trick total of a per-seat entry: given exactly where part of the pack stays
    out (§12)."""
    if entry.in_play is not None:
        if not partial_pack(rules):
            raise bad("trick_total", "only where part of the pack stays out "
                                     "(three_deal six_each, two_deal stock)")
        full = trick_total(rules, entry.trump)
        if not is_int(entry.in_play) or not 10 <= entry.in_play <= full:
            raise bad("trick_total", f"{entry.in_play!r} is outside 10..{full}")
    elif partial_pack(rules):
        raise bad("trick_total", "required: the points of the cards played + 10 (§12)")


def capot_name(entry: HandEntry, capot: int) -> str:
    """The side that made capot, as a refusal names it."""
    if not entry.per_seat:
        return TEAM_NAMES[capot]
    return SIDE_NAMES_3P[capot] if entry.players == 3 else SEAT_LETTERS[capot]


def _check_trick_points(rules: Rules, entry: HandEntry, bad: Bad) -> None:
    seats = entry.per_seat
    names = SEAT_LETTERS if seats else TEAM_NAMES
    points = entry.trick_points
    columns = range(len(points))
    total = trick_total(rules, entry.trump) if entry.in_play is None else entry.in_play
    capot = entry.capot
    if capot is None:
        for column in columns:
            if points[column] > total:
                raise bad(f"trick_points.{names[column]}", "", Refusal.TRICK_POINTS_RANGE,
                          value=points[column], total=total, team=names[column])
        if sum(points) != total:
            raise bad("trick_points", "", Refusal.TRICK_POINTS_SUM,
                      points=" + ".join(map(str, points)), total=total)
        return
    if not is_int(capot) or capot not in (0, 1):
        what = ("0 (the taker) or 1 (the defenders)" if entry.players == 3
                else "a seat" if seats else "a team (0 NS or 1 EW)")
        raise bad("capot", f"{capot!r} is not {what}")
    by = capot_name(entry, capot)
    for column in columns:
        if entry.side_of(column) != capot and points[column]:
            other = "no trick: 0" if seats else "the other team takes no trick: 0"
            raise bad(f"trick_points.{names[column]}", "", Refusal.CAPOT_OTHER_SIDE,
                      value=points[column], by=by, other=other, team=names[column])
    if not seats:
        allowed = (capot_values(rules, entry.trump) if entry.in_play is None
                   else (entry.capot_total, entry.in_play))
        if points[capot] not in allowed:
            raise bad(f"trick_points.{TEAM_NAMES[capot]}", "", Refusal.CAPOT_TOTAL,
                      value=points[capot], by=by, total=entry.capot_total,
                      team=TEAM_NAMES[capot])
        return
    capot_total = seat_capot_total(rules, entry.trump, entry.in_play)
    won = sum(points[s] for s in columns if entry.side_of(s) == capot)
    if Table.of(rules).mode is DealMode.KITTY and capot == DEFENDERS:
        # their own tricks: 252 less the two cards the taker laid aside (lost to him)
        if won > capot_total:
            raise bad("trick_points", f"{won} is more than a capot's {capot_total}")
        return
    if won != capot_total:
        raise bad("trick_points", "", Refusal.CAPOT_TOTAL, value=won, by=by, total=capot_total)


def side_totals(entry: HandEntry, values: Sequence[int]) -> tuple[int, int]:
    """``values`` per column summed per side (a team, the taker, the defenders)."""
    out = [0, 0]
    for column, value in enumerate(values):
        out[entry.side_of(column)] += value
    return (out[0], out[1])


def _check_declarations(rules: Rules, entry: HandEntry, bad: Bad) -> None:
    seats = entry.per_seat
    names = SEAT_LETTERS if seats else TEAM_NAMES
    for column, value in enumerate(entry.declarations):
        if not value:
            continue
        field = f"declarations.{names[column]}"
        if seats and is_decouverte(rules):
            raise bad(field, f"{value!r}: no declarations in belote découverte (§12.2)")
        if not rules.declarations:
            raise bad(field, "", Refusal.DECLARATIONS_OFF, value=value, profile=rules.profile)
        found = declaration_total_refusal(value, rules)
        if found is not None:
            raise bad(field, "", found[0], **found[1], team=names[column])
    sides = side_totals(entry, entry.declarations) if entry.taker is not None else (0, 0)
    if sides[0] and sides[1]:
        if not seats:
            raise bad("declarations", "", Refusal.DECLARATIONS_BOTH, first=sides[0],
                      second=sides[1])
        what = "the taker and a defender" if entry.players == 3 else "both seats"
        raise bad("declarations", f"{what} have points: only the side that wins the "
                                  "comparison scores (§7.6)")
    for side, value in enumerate(sides):
        if value > declaration_max(rules):  # two defenders' declarations together
            raise bad("declarations", f"{SIDE_NAMES_3P[side]}: "
                      + (declaration_total_problem(value, rules) or ""))


def _check_belote(entry: HandEntry, bad: Bad) -> None:
    seats = entry.per_seat
    names = SEAT_LETTERS if seats else TEAM_NAMES
    belote = entry.belote
    if entry.trump == NO_TRUMP:
        if any(belote):
            raise bad("belote", "", Refusal.NO_BELOTE_SANS_ATOUT)
        return
    if entry.trump == ALL_TRUMP:
        for column, value in enumerate(belote):
            if value % BELOTE_POINTS:
                raise bad(f"belote.{names[column]}", f"{value!r} is not a multiple of 20")
        if sum(belote) > 4 * BELOTE_POINTS:
            raise bad("belote", " + ".join(map(str, belote))
                      + " is more than 80 (one belote per suit in tout-atout)")
        return
    for column, value in enumerate(belote):
        if value not in (0, BELOTE_POINTS):
            raise bad(f"belote.{names[column]}",
                      f"{value!r} is not 0 or 20 (only tout-atout has more)")
    if sum(1 for b in belote if b) > 1:
        if seats:
            raise bad("belote", "two seats have belote: only one holds trump K and Q")
        raise bad("belote", "", Refusal.BELOTE_BOTH)


def _check_contract(rules: Rules, entry: HandEntry, bad: Bad) -> None:
    contract = entry.contract
    multiplier = entry.multiplier
    if not rules.is_auction:
        if contract is not None:
            raise bad("contract", f"{contract!r}: {rules.profile} has no contract "
                                  "(take or pass, docs/rules.md §3)")
        if multiplier != 1 or not is_int(multiplier):
            raise bad("multiplier", f"{multiplier!r}: {rules.profile} has no coinche")
        return
    if contract is None:
        raise bad("contract", f"required in {rules.profile} (80..{_max_text(rules)}, "
                              f"capot{', generale' if rules.generale else ''})")
    if isinstance(contract, str):
        if contract == "generale" and not rules.generale:
            raise bad("contract", "'generale' is not played here (option generale is false)")
        if contract not in ("capot", "generale"):
            raise bad("contract", f"{contract!r} is not a number, 'capot' or 'generale'")
    elif not is_int(contract):
        raise bad("contract", f"{contract!r} is not a number, 'capot' or 'generale'")
    elif (contract < 80 or contract % 10
          or (rules.max_bid is not None and contract > rules.max_bid)):
        raise bad("contract", "", Refusal.CONTRACT_VALUE, value=contract,
                  limit=_max_text(rules))
    if not is_int(multiplier) or multiplier not in (1, 2, 4):
        raise bad("multiplier", "", Refusal.MULTIPLIER_VALUE, value=multiplier)
    if contract == "capot" and multiplier != 1 and not rules.capot_doublable:
        raise bad("multiplier", "", Refusal.CAPOT_NOT_DOUBLED, value=multiplier)


def _max_text(rules: Rules) -> str:
    return "" if rules.max_bid is None else str(rules.max_bid)
