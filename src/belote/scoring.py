"""Scoring: one hand (docs/rules.md §8, §9, §10) and a whole game (§11), every profile
and every table (§12).

Every score of the project goes through :func:`score_hand`: the calculator
(``belote score``), the replay engine (a played hand becomes a
:class:`HandEntry`) and the score sheets (:func:`score_game`).  A game is kept
by one :class:`GameTally` at every table: per team with four players, per seat
with three or two, where a hand's two sides (the taker against the others, or
seat against seat) are scored by :func:`score_hand` and shared out per seat
(:func:`score_seat_hand`).

>>> rules = make_rules("classic")
>>> entry = HandEntry(taker=NS, trick_points=(70, 92), declarations=(0, 20), belote=(20, 0))
>>> score_hand(rules, entry).to_json()
{'outcome': 'failed', 'totals': {'NS': 90, 'EW': 112}, 'score': {'NS': 20, 'EW': 182}, 'reserve': 0}
>>> parse_hand_entry({"taker": "NS", "trick_points": {"NS": 163}}, rules)
Traceback (most recent call last):
...
belote.errors.InvalidRecordError: hand: trick_points.NS: 163 is outside 0..162

Choices where docs/rules.md leaves room (each also said where it is applied):

* §5.4 tout-atout with ``ta_values = "scaled"``: trick points are entered raw
  (full trump values, 258 in all) and each team's is scaled ×162/258 rounded to
  the nearest point (the two always add back to 162); belote and declarations
  are added after, unscaled.  A capot counts 252 and 0 as in every trump mode
  (§5.2): the capot value is fixed, not scaled.  The capot team's raw trick
  points may be entered as 348 (248 + 100) or 258, or as 252 or 162.
* §8.4 litige with rounding on: the reserve receives the takers' rounded trick
  points plus their declarations (what they would have scored); the reserve is
  added unrounded when awarded (§10).
* §8.5, §9: ``capot_loser_declarations`` moves the validated declarations of a
  team that took no trick before anything else (to_capot_team: to the capot
  team; void: nobody); ``totals`` and the made/failed test use the moved
  values.  The option applies in §9 too, so the §9.2 sentence "defenders'
  declarations pass to takers" is its ``to_capot_team`` value; the profile
  table's ``kept`` default decides.
* §9.1 ``beat_defence`` compares the full totals T (trick points +
  declarations + belote), whatever ``decl_count_for_contract`` says.
* §9.2 bases: a failed contract at M=1 gives the defenders ``fail_base``
  (160 | 162) + C; the base of a coinched or surcoinched hand is 160, or 250
  after an unbid capot made by the takers; the forfeit scope is 160×M + C×M
  (320 | 640).  A made unbid capot at M=1 scores ``unbid_capot_points``
  (250 | 252) instead of R(P).  ``fail_base`` and ``unbid_capot_points`` are
  fixed values that R never touches (§9.2: FFB contrée counts an unbid capot
  252 + 120 = 372); nor are the flat capot/générale values and the contract
  ever rounded.
* §9.2 a bid capot made under ``as_contract`` counts its trick points R(252).
* §9.3 ``made_only``: made, M=1: each team R(P)+A+B; failed, M=1: defenders
  base + both teams' declarations; M≥2: the winner (base + declarations)×M
  (320 | 640 without declarations) whatever ``double_scope``; a capot contract
  always scores flat (500×M, failed ``capot_fail_value``×M).
* §9.4 ``bid_only``: the winner scores C×M (capot contract: 500 | 250 by
  ``bid_capot_scoring``, failed flat ``capot_fail_value``); belote still goes
  by §7.8 (it is outside the contract everywhere).
* §7.8 belote is never multiplied nor reserved; every team keeps its own
  unless the takers failed and ``belote_on_failure = "defenders"``.
* §10 ``round_final_hand = false``: the hand that ends the game is counted
  exactly (no rounding).  A hand is counted exactly when it would end the game
  counted either way, and the end is then decided on the exact points; other
  hands are rounded.  In a deal-limited game the last deal is thus counted
  exactly, unless it leaves the totals equal both ways (the game goes on).
* §11.3 ``taker_must_make``: when both teams reach the target on a hand the
  takers did not make (failed or litige), the defenders win; otherwise the
  higher total wins and equality plays on.  ``draw``: both reaching on the
  same hand ends the game without a winner (PB "the game is drawn").
* §11.4 ``no_win_on_belote`` (points limit): a team that took no trick this
  hand (capot against it) or, with ``capot_or_failed``, the takers who failed,
  does not win on this hand when it reaches the target only thanks to the
  belote points it scored this hand; the game goes on (FFB: "un pli
  supplémentaire").  A team already at the target before the hand is not
  held back again.
* §11.1 ``limit = "deals"``: ``target`` is the number of counted deals
  (all-pass deals are not counted); after the last, the higher total wins;
  equal totals: ``draw`` ends without a winner, otherwise further deals are
  played, each a possible last deal.  A litige on a last deal: each team
  scores its own points (§8.4) and the reserve is dropped.
* §8.4 a reserve still open when the game ends is discarded: the game's
  reserve is 0 once finished (the last hand's own ``reserve`` still shows it).
* §11 at a table of three or two (§12) the score is kept per seat, by the same
  :class:`GameTally`: the seats at the target (every seat after the last deal of
  a deal-limited game) are candidates; ``taker_must_make`` takes out a taker who
  did not make the last hand when another seat is a candidate (after the last
  deal too); the highest total wins; equal highest totals play on, or end drawn
  with ``draw`` (two teams: ``draw`` ends the game as soon as both reach the
  target).  ``no_win_on_belote`` (§11.4), ``round_final_hand = false`` (§10) and
  the last deal's litige (§11.1) apply to the team game only; each is written
  once, in :func:`game_status` and :meth:`GameTally.add`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Final

from belote.cards import ALL_TRUMP, NO_TRUMP, TRUMP_MODE_NAMES, parse_trump
from belote.errors import BeloteError, InvalidRecordError, OptionError
from belote.options import (
    BeloteOnFailure,
    BidCapotScoring,
    BothCross,
    CapotLoserDeclarations,
    CountMode,
    DoubleScope,
    Limit,
    NoWinOnBelote,
    ReachRule,
    Rounding,
    Rules,
    TakerDeclOnFailure,
    TaValues,
    TieRule,
    make_rules,
)
from belote.records import record_of
from belote.table import DealMode, Table, parse_seat

NS: Final = 0
EW: Final = 1
TEAM_NAMES: Final = ("NS", "EW")
SEAT_LETTERS: Final = ("N", "E", "S")  # the seats of a table of three or two (§12)
SIDE_NAMES_3P: Final = ("taker", "defenders")  # the sides at a table of three (§12.1)

CARD_POINTS: Final = 162  # §5.1: 152 card points + 10 de der
CAPOT_POINTS: Final = 252  # §5.2: 152 + 100
SCALED_TA_POINTS: Final = 258  # §5.4: full trump values in four suits + 10
SCALED_TA_CAPOT_POINTS: Final = 348  # 248 + 100, raw, before the capot rule
BELOTE_POINTS: Final = 20
CAPOT_CONTRACT_VALUE: Final = 250  # §4.3: a capot bid is worth 250 as a contract
FLAT_CAPOT_VALUE: Final = 500  # §9.2 bid_capot_scoring = flat: winner 500×M
DOUBLED_BASE: Final = 160  # §9.2 M >= 2 and §9.3: the base of a coinched hand
UNBID_CAPOT_BASE: Final = 250  # §9.2: the base after an unbid capot made by the takers


class Outcome(StrEnum):
    """How a hand ended: the ``outcome`` of docs/json.md's HandScore, a member equal to
    and serialised as its word."""

    MADE = "made"  # the takers made their contract (§8.2, §9.1)
    FAILED = "failed"  # dedans (§8.3, §9.1)
    LITIGE = "litige"  # equal totals, the takers' points held in reserve (§8.4)
    VOID = "void"  # every player passed (§2.4)
    COUNTED = "counted"  # belote découverte: each player scores his own points (§12.2)


OUTCOMES: Final = tuple(o.value for o in Outcome if o is not Outcome.COUNTED)
# (Members read once where every deal reads them: a member read from its class is slow.)
_MADE: Final = Outcome.MADE
_FAILED: Final = Outcome.FAILED
_NO_ROUNDING: Final = Rounding.NONE
_ROUND_5UP: Final = Rounding.NEAREST10_5UP
_ROUND_6UP: Final = Rounding.NEAREST10_6UP
_DEALS: Final = Limit.DEALS
# (§8.4 tie_rule: the outcome of equal totals)
_TIE_OUTCOME: Final = {TieRule.LITIGE: Outcome.LITIGE, TieRule.FAIL: Outcome.FAILED,
                       TieRule.MADE: Outcome.MADE}

HAND_KEYS: Final = (
    "profile", "options", "taker", "trick_points", "capot", "declarations", "belote",
    "contract", "trump", "multiplier", "reserve",
)
GAME_KEYS: Final = ("profile", "options", "target", "hands")


# --- values ------------------------------------------------------------------


@dataclass(frozen=True)
class HandEntry:
    """What a score calculator is told about one hand (docs/json.md HandEntry).

    ``taker`` is a team (0 NS, 1 EW).  ``trick_points`` are card points with the
    last-trick bonus per team (a capot: 252 and 0).  ``declarations`` are the
    validated declaration points per team (at most one team above 0),
    ``belote`` the belote-rebelote points per team (20; in tout-atout up to 80,
    both teams possible).  ``contract`` is the coinche/contrée contract: a
    value 80..max_bid, ``"capot"`` or ``"generale"``; None in classic and
    moroccan.  ``trump`` is a trump mode of :mod:`belote.cards` (0..5, S H D C
    SA TA) when known.  ``multiplier`` is the coinche level: 1, 2 (coinche) or 4
    (surcoinche, counted by ``surcoinche_factor``).  ``reserve`` is the litige
    reserve carried into the hand.  ``generale_won`` says, for a générale, whether
    the bidder personally won every trick (§4.8); None leaves it to ``capot``.
    ``in_play`` is the trick total of a two- or three-player deal that leaves cards
    out (§12: the cards played + 10); None means the usual 162.
    A "capot" or "generale" contract is made
    iff ``capot == taker``.
    """

    taker: int
    trick_points: tuple[int, int]
    capot: int | None = None
    declarations: tuple[int, int] = (0, 0)
    belote: tuple[int, int] = (0, 0)
    contract: int | str | None = None
    trump: int | None = None
    multiplier: int = 1
    reserve: int = 0
    generale_won: bool | None = None
    in_play: int | None = None

    @property
    def card_total(self) -> int:
        """Both sides' trick points when nobody makes capot: 162, or with two or three
        players dealing part of the pack (§12) the points of the cards played + 10
        (as entered: raw trump values in scaled tout-atout, see :func:`scored_totals`)."""
        return CARD_POINTS if self.in_play is None else self.in_play

    @property
    def capot_total(self) -> int:
        """The capot team's trick points: 252, or the cards played + 100 (§5.2, §12;
        as entered, like :attr:`card_total`)."""
        return CAPOT_POINTS if self.in_play is None else self.in_play + 90


@dataclass(frozen=True)
class HandScore:
    """The score of one hand, at any table.

    ``totals``: each side's trick points + validated declarations + belote,
    before the outcome is applied and before any rounding: the two teams, or at
    a table of three the taker and the defenders, at two each seat (§12).
    ``score``: what each score column adds for this hand, any reserve awarded
    included: per team with four players, per seat with three or two (§12).
    ``reserve``: the litige reserve after this hand.  ``players`` names the
    columns; :func:`score_hand` gives the two sides' score (``players`` 4),
    which at a table of three :func:`score_seat_hand` shares out per seat.
    """

    outcome: Outcome
    totals: tuple[int, int]
    score: tuple[int, ...]
    reserve: int
    players: int = 4

    def __post_init__(self) -> None:
        if type(self.outcome) is not Outcome:  # a word given: its member
            object.__setattr__(self, "outcome", Outcome(self.outcome))

    def to_json(self) -> dict[str, Any]:
        sides = side_names(self.players)
        return {
            "outcome": str(self.outcome),
            "totals": {sides[0]: self.totals[0], sides[1]: self.totals[1]},
            "score": score_dict(self.score, self.players),
            "reserve": self.reserve,
        }


@dataclass(frozen=True)
class GameScore:
    """A score sheet at any table: every hand's score, running totals, and how the
    game stands; per team with four players, per seat with three or two (§12)."""

    hands: tuple[HandScore, ...]
    running: tuple[tuple[int, ...], ...]
    totals: tuple[int, ...]
    reserve: int
    finished: bool
    winner: int | None
    players: int = 4

    def to_json(self) -> dict[str, Any]:
        n = self.players
        return {
            "hands": [h.to_json() for h in self.hands],
            "running": [score_dict(r, n) for r in self.running],
            "totals": score_dict(self.totals, n),
            "reserve": self.reserve,
            "finished": self.finished,
            "winner": None if self.winner is None else score_names(n)[self.winner],
        }


def score_names(players: int) -> tuple[str, ...]:
    """The columns a game's score is kept in: the teams NS and EW with four players
    (§11), each seat N, E (, S) with three or two (§12)."""
    return TEAM_NAMES if players == 4 else SEAT_LETTERS[:players]


def side_names(players: int) -> tuple[str, str]:
    """The two sides of a hand's contract: the teams; at a table of three the taker
    and the defenders (§12.1); at two each seat."""
    if players == 4:
        return TEAM_NAMES
    if players == 3:
        return SIDE_NAMES_3P
    return ("N", "E")


def score_dict(values: Sequence[int], players: int) -> dict[str, int]:
    """``values`` per score column, named (``{"NS": .., "EW": ..}`` or per seat)."""
    return dict(zip(score_names(players), values, strict=True))


def team_dict(pair: tuple[int, int]) -> dict[str, int]:
    return {"NS": pair[0], "EW": pair[1]}


def void_hand(reserve: int = 0) -> HandScore:
    """An all-pass deal (§2.4): no score, the reserve carried unchanged."""
    return HandScore(Outcome.VOID, (0, 0), (0, 0), reserve)


# --- small rules ---------------------------------------------------------------


def round_points(points: int, rounding: Rounding) -> int:
    """R of §10 applied to trick points: ``nearest10_5up`` 85→90, 84→80;
    ``nearest10_6up`` 85→80, 86→90; ``none`` unchanged.

    >>> round_points(117, Rounding.NEAREST10_5UP), round_points(156, Rounding.NEAREST10_6UP)
    (120, 160)
    """
    if rounding is _ROUND_5UP:
        return (points + 5) // 10 * 10
    if rounding is _ROUND_6UP:
        return (points + 4) // 10 * 10
    return points


def scale_ta_points(raw: int) -> int:
    """§5.4 ``ta_values = "scaled"``: raw points × 162/258, nearest point."""
    return (2 * raw * CARD_POINTS + SCALED_TA_POINTS) // (2 * SCALED_TA_POINTS)


def scored_totals(rules: Rules, entry: HandEntry) -> tuple[int, int]:
    """The trick total and the capot value as scored: 162 and 252; with two or three
    players dealing part of the pack (§12), the cards played + 10 and that + 90, the
    cards played scaled ×162/258 in scaled tout-atout (§5.4) like the teams' points."""
    if entry.in_play is None:
        return CARD_POINTS, CAPOT_POINTS
    total = scale_ta_points(entry.in_play) if _scaled_ta(rules, entry.trump) else entry.in_play
    return total, total + CAPOT_POINTS - CARD_POINTS


def multiplier_factor(rules: Rules, multiplier: int) -> int:
    """M of §4.7: coinche 2; a surcoinche (level 4) counts ``surcoinche_factor``."""
    if multiplier == 4:
        return rules.surcoinche_factor
    return multiplier


def _scaled_ta(rules: Rules, trump: int | None) -> bool:
    return trump == ALL_TRUMP and rules.ta_values is TaValues.SCALED


def trick_total(rules: Rules, trump: int | None) -> int:
    """What both teams' trick points add to as entered: 162, or 258 raw in scaled TA."""
    return SCALED_TA_POINTS if _scaled_ta(rules, trump) else CARD_POINTS


def capot_trick_points(rules: Rules, trump: int | None) -> int:
    """The capot team's trick points as the play gives them (§5.2): 252, or 348 in
    raw trump values in scaled tout-atout (§5.4; scored 252 like every capot)."""
    return SCALED_TA_CAPOT_POINTS if _scaled_ta(rules, trump) else CAPOT_POINTS


def _capot_values(rules: Rules, trump: int | None) -> tuple[int, ...]:
    if _scaled_ta(rules, trump):
        return (CAPOT_POINTS, CARD_POINTS, SCALED_TA_CAPOT_POINTS, SCALED_TA_POINTS)
    return (CAPOT_POINTS, CARD_POINTS)


def _sa_ta_allowed(rules: Rules) -> bool:
    return rules.sa_ta if rules.is_auction else rules.sa_ta_in_classic


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


# --- checks ----------------------------------------------------------------------

_Bad = Callable[[str, str], InvalidRecordError]


def check_hand_entry(rules: Rules, entry: HandEntry, where: str = "hand") -> None:
    """Refuse an impossible entry with an :class:`InvalidRecordError` naming the field."""

    def bad(field: str, message: str) -> InvalidRecordError:
        return InvalidRecordError(f"{where}: {field}: {message}")

    if not _is_int(entry.taker) or entry.taker not in (NS, EW):
        raise bad("taker", f"{entry.taker!r} is not a team (0 NS or 1 EW)")
    trump = entry.trump
    if trump is not None:
        if not _is_int(trump) or not 0 <= trump <= ALL_TRUMP:
            raise bad("trump", f"{trump!r} is not a trump mode")
        if trump >= NO_TRUMP and not _sa_ta_allowed(rules):
            option = "sa_ta" if rules.is_auction else "sa_ta_in_classic"
            raise bad("trump", f"{TRUMP_MODE_NAMES[trump]!r} is not played here "
                               f"(option {option} is false)")
    capot = entry.capot
    if capot is not None and (not _is_int(capot) or capot not in (NS, EW)):
        raise bad("capot", f"{capot!r} is not a team (0 NS or 1 EW)")
    _check_trick_points(rules, entry, bad)
    _check_declarations(rules, entry, bad)
    _check_belote(entry, bad)
    _check_contract(rules, entry, bad)
    if not _is_int(entry.reserve) or entry.reserve < 0:
        raise bad("reserve", f"{entry.reserve!r} is not a whole number of points >= 0")
    if entry.reserve and rules.is_auction:
        raise bad("reserve", f"{entry.reserve!r}: {rules.profile} has no litige reserve "
                             "(docs/rules.md §8.4 is for classic and moroccan)")


def _pair(value: Any) -> bool:
    return (isinstance(value, (tuple, list)) and len(value) == 2
            and all(_is_int(v) for v in value))


def _check_points_pair(values: Any, field: str, bad: _Bad) -> None:
    """Points per team: a pair of whole numbers >= 0."""
    if not _pair(values):
        raise bad(field, f"{values!r} is not a pair of whole numbers")
    for team in (NS, EW):
        if values[team] < 0:
            raise bad(f"{field}.{TEAM_NAMES[team]}", f"{values[team]!r} is negative")


def _check_trick_points(rules: Rules, entry: HandEntry, bad: _Bad) -> None:
    points = entry.trick_points
    _check_points_pair(points, "trick_points", bad)
    total = trick_total(rules, entry.trump) if entry.in_play is None else entry.in_play
    if entry.capot is not None:
        winner, loser = entry.capot, 1 - entry.capot
        if points[loser] != 0:
            raise bad(f"trick_points.{TEAM_NAMES[loser]}",
                      f"{points[loser]!r} with a capot by {TEAM_NAMES[winner]} "
                      f"(the other team takes no trick: 0)")
        allowed = (_capot_values(rules, entry.trump) if entry.in_play is None
                   else (entry.capot_total, entry.in_play))
        if points[winner] not in allowed:
            raise bad(f"trick_points.{TEAM_NAMES[winner]}",
                      f"{points[winner]!r} with a capot by {TEAM_NAMES[winner]} "
                      f"(a capot counts {entry.capot_total})")
        return
    for team in (NS, EW):
        if points[team] > total:
            raise bad(f"trick_points.{TEAM_NAMES[team]}",
                      f"{points[team]!r} is outside 0..{total}")
    if points[NS] + points[EW] != total:
        raise bad("trick_points", f"{points[NS]} + {points[EW]} does not add to {total}")


def _check_declarations(rules: Rules, entry: HandEntry, bad: _Bad) -> None:
    decl = entry.declarations
    if not _pair(decl):
        raise bad("declarations", f"{decl!r} is not a pair of whole numbers")
    for team in (NS, EW):
        field = f"declarations.{TEAM_NAMES[team]}"
        value = decl[team]
        if value < 0:
            raise bad(field, f"{value!r} is negative")
        if value and not rules.declarations:
            raise bad(field, f"{value!r}: {rules.profile} is played without declarations "
                             "(option declarations is false)")
        if value % 10 or value in (10, 30):
            raise bad(field, f"{value!r} is not a sum of declaration values "
                             "(20, 50, 100, 150, 200)")
    if decl[NS] > 0 and decl[EW] > 0:
        raise bad("declarations", f"both teams have points ({decl[NS]} and {decl[EW]}): "
                                  "only the team that wins the comparison scores (§7.6)")


def _check_belote(entry: HandEntry, bad: _Bad) -> None:
    belote = entry.belote
    _check_points_pair(belote, "belote", bad)
    if entry.trump == NO_TRUMP:
        if belote != (0, 0):
            raise bad("belote", "there is no belote in sans-atout (§7.7)")
        return
    if entry.trump == ALL_TRUMP:
        for team in (NS, EW):
            if belote[team] % BELOTE_POINTS:
                raise bad(f"belote.{TEAM_NAMES[team]}",
                          f"{belote[team]!r} is not a multiple of 20")
        if belote[NS] + belote[EW] > 4 * BELOTE_POINTS:
            raise bad("belote", f"{belote[NS]} + {belote[EW]} is more than 80 "
                                "(one belote per suit in tout-atout)")
        return
    for team in (NS, EW):
        if belote[team] not in (0, BELOTE_POINTS):
            raise bad(f"belote.{TEAM_NAMES[team]}",
                      f"{belote[team]!r} is not 0 or 20 (only tout-atout has more)")
    if belote[NS] and belote[EW]:
        raise bad("belote", "both teams have belote: only one team holds trump K and Q")


def _check_contract(rules: Rules, entry: HandEntry, bad: _Bad) -> None:
    contract = entry.contract
    multiplier = entry.multiplier
    if not rules.is_auction:
        if contract is not None:
            raise bad("contract", f"{contract!r}: {rules.profile} has no contract "
                                  "(take or pass, docs/rules.md §3)")
        if multiplier != 1 or not _is_int(multiplier):
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
    elif not _is_int(contract):
        raise bad("contract", f"{contract!r} is not a number, 'capot' or 'generale'")
    elif (contract < 80 or contract % 10
          or (rules.max_bid is not None and contract > rules.max_bid)):
        raise bad("contract", f"{contract!r} is not a multiple of 10 in "
                              f"80..{_max_text(rules)}")
    if not _is_int(multiplier) or multiplier not in (1, 2, 4):
        raise bad("multiplier", f"{multiplier!r} is not 1, 2 (coinche) or 4 (surcoinche)")
    if contract == "capot" and multiplier != 1 and not rules.capot_doublable:
        raise bad("multiplier", f"{multiplier!r}: a capot bid cannot be coinched "
                                "(option capot_doublable is false)")


def _max_text(rules: Rules) -> str:
    return "" if rules.max_bid is None else str(rules.max_bid)


# --- one hand ----------------------------------------------------------------------


def score_hand(
    rules: Rules,
    entry: HandEntry,
    *,
    last_deal: bool = False,
    rounded: bool = True,
    where: str = "hand",
) -> HandScore:
    """The score of one hand under ``rules`` (docs/rules.md §8 classic/moroccan, §9
    coinche/contrée, §10 rounding).

    ``last_deal``: the last deal of a deal-limited game (a litige then gives
    each team its own points, §8.4).  ``rounded = False`` counts the trick
    points exactly (the final hand with ``round_final_hand = false``, §10).
    The entry is checked first (:func:`check_hand_entry`).
    """
    check_hand_entry(rules, entry, where)
    return score_valid_hand(rules, entry, last_deal=last_deal, rounded=rounded)


def score_valid_hand(
    rules: Rules, entry: HandEntry, *, last_deal: bool = False, rounded: bool = True
) -> HandScore:
    """:func:`score_hand` of an entry known to be valid, unchecked: one the engine made
    itself from a hand played under ``rules`` (:meth:`belote.hand.HandPlay.result`)."""
    if entry.capot is not None:
        points = [0, 0]
        points[entry.capot] = scored_totals(rules, entry)[1]
    elif _scaled_ta(rules, entry.trump):
        points = [scale_ta_points(p) for p in entry.trick_points]
    else:
        points = list(entry.trick_points)
    decl = list(entry.declarations)
    if entry.capot is not None:
        loser = 1 - entry.capot
        moved, decl[loser] = decl[loser], 0
        if rules.capot_loser_declarations is CapotLoserDeclarations.KEPT:
            decl[loser] = moved
        elif rules.capot_loser_declarations is CapotLoserDeclarations.TO_CAPOT_TEAM:
            decl[entry.capot] += moved
    belote = list(entry.belote)
    totals = (points[0] + decl[0] + belote[0], points[1] + decl[1] + belote[1])
    rounding = rules.rounding if rounded else _NO_ROUNDING
    if rules.is_auction:
        return _score_auction(rules, entry, points, decl, belote, totals, rounding)
    return _score_classic(rules, entry, points, decl, belote, totals, rounding, last_deal)


def _own(points: list[int], decl: list[int], belote: list[int], rounding: Rounding,
         team: int) -> int:
    """What ``team`` scores of its own: its trick points rounded (§10), its declarations
    and belote."""
    return round_points(points[team], rounding) + decl[team] + belote[team]


def _score_classic(
    rules: Rules, entry: HandEntry, points: list[int], decl: list[int], belote: list[int],
    totals: tuple[int, int], rounding: Rounding, last_deal: bool,
) -> HandScore:
    """§8: made if T_takers > T_def, failed if lower, equality by ``tie_rule``."""
    t, d = entry.taker, 1 - entry.taker
    if totals[t] > totals[d]:
        outcome = _MADE
    elif totals[t] < totals[d]:
        outcome = _FAILED
    else:
        outcome = _TIE_OUTCOME[rules.tie_rule]
    score = [0, 0]
    reserve = 0
    if outcome is _MADE:
        score[t] = _own(points, decl, belote, rounding, t) + entry.reserve
        score[d] = _own(points, decl, belote, rounding, d)
    elif outcome is _FAILED:
        card_total, capot_total = scored_totals(rules, entry)
        base = capot_total if entry.capot == d else card_total
        won = round_points(base, rounding) + decl[d] + belote[d]
        if rules.taker_decl_on_failure is TakerDeclOnFailure.TRANSFER:
            won += decl[t]
        if rules.belote_on_failure is BeloteOnFailure.DEFENDERS:
            won += belote[t]
        else:
            score[t] = belote[t]
        score[d] = won + entry.reserve
    elif last_deal:
        # §8.4: a litige on the last deal of a deal-limited match: each team its own
        score[t] = _own(points, decl, belote, rounding, t)
        score[d] = _own(points, decl, belote, rounding, d)
    else:
        score[d] = _own(points, decl, belote, rounding, d)
        score[t] = belote[t]
        reserve = entry.reserve + round_points(points[t], rounding) + decl[t]
    return record_of(HandScore, outcome=outcome, totals=totals, score=(score[0], score[1]),
                     reserve=reserve)


def _score_auction(
    rules: Rules, entry: HandEntry, points: list[int], decl: list[int], belote: list[int],
    totals: tuple[int, int], rounding: Rounding,
) -> HandScore:
    """§9: made by the contract (§9.1), scored by ``count_mode`` (§9.2-9.4).

    Readings of §9 where its text is short (each checked against the reference
    engine in tests/reference/auction.py):

    - ``fail_base`` is a fixed value, not rounded (the option exists to choose
      between 160 and the unrounded 162); the base of a coinched or surcoinched
      hand is 160, or 250 when the takers made an unbid capot; ``forfeit`` is
      160×M + C×M whatever the tricks.
    - ``made_only`` (§9.3): a failed or doubled hand gives the winner 160×M and no
      declarations; ``bid_only`` (§9.4): the winner scores C×M only, no belote, a
      capot contract counting C = 250.
    - Belote is never multiplied; a failed taker keeps his (``kept``) or it goes to
      the defenders (``defenders``), §7.8.
    """
    t, d = entry.taker, 1 - entry.taker
    contract = entry.contract
    m = multiplier_factor(rules, entry.multiplier)
    unbid_capot = isinstance(contract, int) and entry.capot == t
    if contract == "generale" and entry.generale_won is not None:
        made = entry.generale_won and entry.capot == t  # §4.8: the bidder alone
    elif contract in ("capot", "generale"):
        made = entry.capot == t
    else:
        assert isinstance(contract, int)
        threshold = max(contract, rules.min_80) if contract == 80 else contract
        counted = points[t] + belote[t] + (decl[t] if rules.decl_count_for_contract else 0)
        made = counted >= threshold and (not rules.beat_defence or totals[t] > totals[d])
    winner, loser = (t, d) if made else (d, t)
    own_belote = list(belote)
    if not made and rules.belote_on_failure is BeloteOnFailure.DEFENDERS:
        own_belote[d] += own_belote[t]
        own_belote[t] = 0
    score = [0, 0]
    outcome = _MADE if made else _FAILED

    def done() -> HandScore:
        return HandScore(outcome, totals, (score[0], score[1]), 0)

    if rules.count_mode is CountMode.BID_ONLY:
        value = contract if isinstance(contract, int) else (
            CAPOT_CONTRACT_VALUE if contract == "capot" else rules.generale_value)
        score[winner] = value * m
        return done()
    if contract == "generale" or (contract == "capot" and (
            rules.bid_capot_scoring is BidCapotScoring.FLAT
            or rules.count_mode is CountMode.MADE_ONLY)):
        if contract == "generale":
            value = rules.generale_value
        else:
            value = FLAT_CAPOT_VALUE if made else rules.capot_fail_value
        score[winner] = value * m + own_belote[winner]
        score[loser] = own_belote[loser]
        return done()
    c = contract if isinstance(contract, int) else CAPOT_CONTRACT_VALUE
    if rules.count_mode is CountMode.MADE_ONLY:
        if m == 1 and made:
            for team in (t, d):
                score[team] = round_points(points[team], rounding) + decl[team] + belote[team]
        else:
            score[winner] = DOUBLED_BASE * m + own_belote[winner]
            score[loser] = own_belote[loser]
        return done()
    # made_plus_bid (§9.2)
    if m == 1:
        if made and unbid_capot:
            # §9.2: unbid_capot_points is a fixed value, never rounded (252 + 120 = 372).
            score[t] = rules.unbid_capot_points + decl[t] + belote[t] + c
            score[d] = decl[d] + belote[d]
        elif made:
            score[t] = round_points(points[t], rounding) + decl[t] + belote[t] + c
            score[d] = round_points(points[d], rounding) + decl[d] + belote[d]
        else:
            score[t] = own_belote[t]
            score[d] = rules.fail_base + c + decl[d] + decl[t] + own_belote[d]
        return done()
    base = UNBID_CAPOT_BASE if (made and unbid_capot) else DOUBLED_BASE
    if rules.double_scope is DoubleScope.WHOLE:
        value = (base + c + decl[t] + decl[d]) * m
    elif rules.double_scope is DoubleScope.CONTRACT_ONLY:
        value = base + decl[t] + decl[d] + c * m
    else:  # forfeit: 320 (M=2) or 640 (M=4) + C×M
        value = DOUBLED_BASE * m + c * m
    score[winner] = value + own_belote[winner]
    score[loser] = own_belote[loser]
    return done()


def belote_scored(rules: Rules, entry: HandEntry, outcome: Outcome) -> tuple[int, int]:
    """The belote points each team adds with this hand's score (§7.8)."""
    if outcome is Outcome.VOID:
        return (0, 0)
    if outcome is Outcome.FAILED and rules.belote_on_failure is BeloteOnFailure.DEFENDERS:
        bel = [0, 0]
        bel[1 - entry.taker] = entry.belote[0] + entry.belote[1]
        return (bel[0], bel[1])
    return entry.belote


# --- JSON -----------------------------------------------------------------------------


def parse_team(value: Any, field: str, where: str = "hand") -> int:
    """``"NS"`` → 0, ``"EW"`` → 1 (any case)."""
    if isinstance(value, str) and value.strip().upper() in TEAM_NAMES:
        return TEAM_NAMES.index(value.strip().upper())
    raise InvalidRecordError(f"{where}: {field}: {value!r} is not NS or EW")


def _team_points(value: Any, field: str, where: str) -> dict[int, int]:
    """``{"NS": 92}`` → ``{0: 92}``; keys NS/EW, whole numbers >= 0."""
    return _named_points(value, field, where, "team", TEAM_NAMES, parse_team)


def _named_points(
    value: Any, field: str, where: str, kind: str, names: Sequence[str],
    parse_key: Callable[[Any, str, str], int],
) -> dict[int, int]:
    """Points per team or per seat (``kind``): keys read by ``parse_key``, whole
    numbers >= 0."""
    if not isinstance(value, dict):
        raise InvalidRecordError(
            f"{where}: {field}: {value!r} is not an object such as {{\"{names[0]}\": 92}}")
    out: dict[int, int] = {}
    for key, points in value.items():
        index = parse_key(key, field, where)
        name = names[index]
        if index in out:
            raise InvalidRecordError(f"{where}: {field}: {kind} {key!r} given twice")
        if not _is_int(points):
            raise InvalidRecordError(
                f"{where}: {field}.{name}: {points!r} is not a whole number")
        if points < 0:
            raise InvalidRecordError(f"{where}: {field}.{name}: {points!r} is negative")
        out[index] = points
    return out


def rules_of(obj: Mapping[str, Any]) -> Rules:
    """The rules named by an input's ``profile`` (default classic) and ``options``."""
    return two_team_rules(table_rules_of(obj))


def two_team_rules(rules: Rules) -> Rules:
    """Refuse the three- and two-player profiles where two teams NS and EW are scored:
    their hands are scored per seat (§12, :func:`score_seat_hand`)."""
    if rules.players != 4:
        raise OptionError(
            f"profile {rules.profile!r}: two teams (NS, EW) are for the four-player "
            f"profiles; a {rules.players}-player hand is scored per seat (docs/json.md, "
            "three and two players)"
        )
    return rules


def parse_hand_entry(
    obj: Any, rules: Rules, where: str = "hand", *, allow_reserve: bool = True,
) -> HandEntry:
    """A docs/json.md HandEntry object → :class:`HandEntry`, every field checked.

    ``profile`` and ``options`` may appear; they must then name ``rules``.
    ``allow_reserve = False`` refuses a non-zero ``reserve`` (a game or a score
    sheet carries the reserve itself).  ``belote`` is a team, null, or (an
    addition for tout-atout) an object of points per team such as
    ``{"NS": 40, "EW": 20}``.
    """
    obj = check_object(obj, HAND_KEYS, where)
    _same_rules(obj, rules, where, rules_of)

    def bad(field: str, message: str) -> InvalidRecordError:
        return InvalidRecordError(f"{where}: {field}: {message}")

    if obj.get("taker") is None:
        raise bad("taker", "required (NS or EW)")
    taker = parse_team(obj["taker"], "taker", where)
    trump = _parse_trump_field(obj, bad)

    capot = None if obj.get("capot") is None else parse_team(obj["capot"], "capot", where)

    given = {} if obj.get("trick_points") is None else _team_points(
        obj["trick_points"], "trick_points", where)
    total = trick_total(rules, trump)
    if capot is not None:
        allowed = _capot_values(rules, trump)
        for team, value in given.items():
            expected = allowed if team == capot else (0,)
            if value not in expected:
                if team == capot:
                    raise bad(f"trick_points.{TEAM_NAMES[team]}",
                              f"{value!r} with a capot by {TEAM_NAMES[capot]} "
                              f"(a capot counts {CAPOT_POINTS})")
                raise bad(f"trick_points.{TEAM_NAMES[team]}",
                          f"{value!r} with a capot by {TEAM_NAMES[capot]} "
                          "(the other team takes no trick: 0)")
        pair = [0, 0]
        pair[capot] = CAPOT_POINTS
        trick_points = (pair[0], pair[1])
    else:
        if not given:
            raise bad("trick_points", "required: one team's points, e.g. {\"NS\": 92}, "
                                      "or a capot")
        for team, value in given.items():
            if value > total:
                raise bad(f"trick_points.{TEAM_NAMES[team]}",
                          f"{value!r} is outside 0..{total}")
        if len(given) == 1:
            (team, value), = given.items()
            pair = [0, 0]
            pair[team], pair[1 - team] = value, total - value
            trick_points = (pair[0], pair[1])
        else:
            trick_points = (given[NS], given[EW])

    decl_given = {} if obj.get("declarations") is None else _team_points(
        obj["declarations"], "declarations", where)
    declarations = (decl_given.get(NS, 0), decl_given.get(EW, 0))

    belote = _parse_belote(obj.get("belote"), where)

    contract = obj.get("contract")
    if isinstance(contract, str):
        contract = contract.strip().lower()
    elif contract is not None and not _is_int(contract):
        raise bad("contract", f"{contract!r} is not a number, 'capot' or 'generale'")

    multiplier = obj.get("multiplier", 1)
    if multiplier is None:
        multiplier = 1
    if not _is_int(multiplier):
        raise bad("multiplier", f"{multiplier!r} is not 1, 2 (coinche) or 4 (surcoinche)")

    reserve = _parse_reserve(obj, allow_reserve, bad)
    entry = HandEntry(
        taker=taker, trick_points=trick_points, capot=capot, declarations=declarations,
        belote=belote, contract=contract, trump=trump, multiplier=multiplier,
        reserve=reserve,
    )
    check_hand_entry(rules, entry, where)
    return entry


def _parse_belote(value: Any, where: str) -> tuple[int, int]:
    if value is None:
        return (0, 0)
    if isinstance(value, str):
        team = parse_team(value, "belote", where)
        return (BELOTE_POINTS, 0) if team == NS else (0, BELOTE_POINTS)
    if isinstance(value, dict):
        points = _team_points(value, "belote", where)
        return (points.get(NS, 0), points.get(EW, 0))
    raise InvalidRecordError(
        f"{where}: belote: {value!r} is not NS, EW, null or points per team")


def hand_entry_to_json(entry: HandEntry) -> dict[str, Any]:
    """The docs/json.md HandEntry form of ``entry`` (``parse_hand_entry`` reads it back)."""
    out: dict[str, Any] = {
        "taker": TEAM_NAMES[entry.taker],
        "trick_points": team_dict(entry.trick_points),
        "capot": None if entry.capot is None else TEAM_NAMES[entry.capot],
        "declarations": team_dict(entry.declarations),
    }
    belote = entry.belote
    if belote == (0, 0):
        out["belote"] = None
    elif belote == (BELOTE_POINTS, 0):
        out["belote"] = "NS"
    elif belote == (0, BELOTE_POINTS):
        out["belote"] = "EW"
    else:
        out["belote"] = team_dict(belote)
    if entry.contract is not None:
        out["contract"] = entry.contract
        out["multiplier"] = entry.multiplier
    elif entry.multiplier != 1:
        out["multiplier"] = entry.multiplier
    if entry.trump is not None:
        out["trump"] = TRUMP_MODE_NAMES[entry.trump]
    if entry.reserve:
        out["reserve"] = entry.reserve
    return out


def parse_hand_input(obj: Any) -> tuple[Rules, HandEntry]:
    """The ``score hand`` input: a HandEntry with its own ``profile`` and ``options``."""
    if not isinstance(obj, dict):
        raise InvalidRecordError(f"hand: expected a JSON object, got {type(obj).__name__}")
    rules = rules_of(obj)
    return rules, parse_hand_entry(obj, rules)


def score_hand_json(obj: Any) -> dict[str, Any]:
    """``belote score hand --json``: the HandScore of a HandEntry object (at a table
    of three or two, of a per-seat entry: :func:`score_seat_hand_json`)."""
    if isinstance(obj, dict):
        rules = table_rules_of(obj)
        if rules.players != 4:
            return score_seat_hand_json(obj, rules)
    rules, entry = parse_hand_input(obj)
    return score_hand(rules, entry).to_json()


# --- three and two players (§12) -------------------------------------------------------------
#
# A calculator at a table of three or two is told who took (nobody in belote
# découverte), each seat's trick points (or all but one, the last worked out),
# a capot, the declarations and belote per seat.  The hand is scored by the
# sides of the engine (the taker against the two others, or seat against seat)
# through :func:`score_hand`, and the side's score shared out per seat by
# :func:`seat_shares` exactly as a played hand is (belote.hand.HandPlay).

TAKER_SIDE: Final = 0
DEFENDERS: Final = 1
SEAT_HAND_KEYS: Final = (
    "profile", "options", "taker", "trick_points", "trick_total", "capot", "declarations",
    "belote", "trump", "leader", "reserve",
)
COUNTED: Final = Outcome.COUNTED  # belote découverte: each player scores his own points (§12.2)


def is_decouverte(rules: Rules) -> bool:
    """Belote découverte (§12.2): no bidding, no taker; each seat counts its own points."""
    return Table.of(rules).mode is DealMode.DECOUVERTE


def partial_pack(rules: Rules) -> bool:
    """Whether part of the pack stays out (§12: ``six_each``, ``stock``), so that the
    trick total is the points of the cards played + 10, not 162."""
    return Table.of(rules).mode.leaves_cards_out


@dataclass(frozen=True)
class SeatEntry:
    """What a calculator is told about one hand at a table of three or two (§12).

    ``taker`` is the taker's seat (0 N, 1 E, 2 S), None in belote découverte.
    ``trick_points`` are each seat's card points with the last trick's 10 (100
    for a capot), the taker's including the two cards laid aside from the kitty;
    after a capot against the kitty's taker, his discards count for nobody (0 for
    him, the defenders' own tricks for them).  ``capot`` is the side that took
    every trick: three players 0 (the taker) or 1 (the defenders); two players
    the seat.  ``declarations`` and ``belote`` are per seat (validated
    declarations: one side at most above 0).  ``in_play`` is the trick total
    where part of the pack stays out (the points of the cards played + 10),
    else None.  ``leader`` is the seat that led the first trick (three players:
    it decides which defender gets an odd point of the shares; None: the seat
    after the taker).  ``reserve`` is the litige reserve carried in.
    """

    players: int
    taker: int | None
    trick_points: tuple[int, ...]
    capot: int | None = None
    declarations: tuple[int, ...] | None = None
    belote: tuple[int, ...] | None = None
    trump: int | None = None
    in_play: int | None = None
    leader: int | None = None
    reserve: int = 0

    @property
    def decl(self) -> tuple[int, ...]:
        return self.declarations or (0,) * self.players

    @property
    def bel(self) -> tuple[int, ...]:
        return self.belote or (0,) * self.players

    def side_of(self, seat: int) -> int:
        """The side ``seat`` counts for: with three players 0 the taker, 1 the two
        others; with two players each seat is a side."""
        if self.players == 2:
            return seat
        return TAKER_SIDE if seat == self.taker else DEFENDERS

    def first_leader(self) -> int:
        if self.leader is not None:
            return self.leader
        assert self.taker is not None
        return (self.taker + 1) % self.players


def seat_dict(values: Sequence[int]) -> dict[str, int]:
    return {SEAT_LETTERS[s]: v for s, v in enumerate(values)}


def seat_shares(
    rules: Rules, side_score: Sequence[int], taker: int, leader: int,
    trick_points: Sequence[int], belote: Sequence[int], trump: int | None,
) -> tuple[int, int, int]:
    """Each seat's score with three players (§12.1): the taker scores his side's
    score; each defender his own trick points and belote, the two sharing equally
    the rest of their side's score (declarations, a failed taker's points, a
    reserve), an odd point going to the first defender in play order from
    ``leader`` (who led the first trick).  In scaled tout-atout the defenders' own
    points are scaled like the side's (§5.4)."""
    defenders = [s for s in ((leader + i) % 3 for i in range(3)) if s != taker]
    own_points = list(trick_points)
    if _scaled_ta(rules, trump):
        own_points = [scale_ta_points(p) for p in own_points]
    own = [own_points[s] + belote[s] for s in defenders]
    half, odd = divmod(side_score[1] - sum(own), 2)
    out = [0, 0, 0]
    out[taker] = side_score[0]
    out[defenders[0]] = own[0] + half + odd
    out[defenders[1]] = own[1] + half
    return (out[0], out[1], out[2])


def seat_capot_total(rules: Rules, trump: int | None, in_play: int | None) -> int:
    """The capot side's trick points as counted on its tricks: 252 (raw 348 in scaled
    tout-atout), or with part of the pack out the cards played + 100 (§5.2, §12)."""
    return capot_trick_points(rules, trump) if in_play is None else in_play + 90


def side_entry(rules: Rules, entry: SeatEntry) -> HandEntry:
    """The two-sided :class:`HandEntry` of a hand at a table of three or two (the
    taker's side 0 against the defenders 1, or N against E), as the engine scores
    a played hand (belote.hand.HandPlay.result)."""
    assert entry.taker is not None
    points = [0, 0]
    decl = [0, 0]
    bel = [0, 0]
    for seat in range(entry.players):
        side = entry.side_of(seat)
        points[side] += entry.trick_points[seat]
        decl[side] += entry.decl[seat]
        bel[side] += entry.bel[seat]
    if entry.capot is not None:
        # a capot counts its fixed value, whatever was laid aside (§12.1 kitty)
        points = [0, 0]
        points[entry.capot] = seat_capot_total(rules, entry.trump, entry.in_play)
    return HandEntry(
        taker=entry.side_of(entry.taker), trick_points=(points[0], points[1]),
        capot=entry.capot, declarations=(decl[0], decl[1]), belote=(bel[0], bel[1]),
        trump=entry.trump, reserve=entry.reserve, in_play=entry.in_play,
    )


def _seat_name(seat: int) -> str:
    return SEAT_LETTERS[seat]


def check_seat_entry(rules: Rules, entry: SeatEntry, where: str = "hand") -> None:
    """Refuse an impossible hand at a table of three or two, naming the field and seat."""

    def bad(field: str, message: str) -> InvalidRecordError:
        return InvalidRecordError(f"{where}: {field}: {message}")

    n = rules.players
    if entry.players != n:
        raise bad("players", f"{entry.players!r}: {rules.profile} is played by {n}")
    seats = range(n)
    decouverte = is_decouverte(rules)
    if decouverte:
        if entry.taker is not None:
            raise bad("taker", "nobody takes in belote découverte (§12.2): leave it out")
    elif not _is_int(entry.taker) or entry.taker not in seats:
        raise bad("taker", f"{entry.taker!r} is not a seat ({', '.join(SEAT_LETTERS[:n])})")
    trump = entry.trump
    if trump is not None:
        if not _is_int(trump) or not 0 <= trump <= ALL_TRUMP:
            raise bad("trump", f"{trump!r} is not a trump mode")
        if trump >= NO_TRUMP and (decouverte or not rules.sa_ta_in_classic):
            why = ("never in belote découverte (§12.2)" if decouverte
                   else "option sa_ta_in_classic is false")
            raise bad("trump", f"{TRUMP_MODE_NAMES[trump]!r} is not played here ({why})")
    for name, values in (("trick_points", entry.trick_points), ("declarations", entry.decl),
                         ("belote", entry.bel)):
        if (not isinstance(values, tuple) or len(values) != n
                or not all(_is_int(v) for v in values)):
            raise bad(name, f"{values!r} is not {n} whole numbers, one per seat")
        for seat in seats:
            if values[seat] < 0:
                raise bad(f"{name}.{_seat_name(seat)}", f"{values[seat]!r} is negative")
    if entry.in_play is not None:
        if not partial_pack(rules):
            raise bad("trick_total", "only where part of the pack stays out "
                                     "(three_deal six_each, two_deal stock)")
        if not _is_int(entry.in_play) or not 10 <= entry.in_play <= trick_total(rules, trump):
            raise bad("trick_total", f"{entry.in_play!r} is outside "
                                     f"10..{trick_total(rules, trump)}")
    elif partial_pack(rules):
        raise bad("trick_total", "required: the points of the cards played + 10 (§12)")
    _check_seat_points(rules, entry, bad)
    _check_seat_declarations(rules, entry, bad)
    _check_seat_belote(entry, bad)
    if entry.leader is not None and (n != 3 or not _is_int(entry.leader)
                                     or entry.leader not in seats):
        raise bad("leader", f"{entry.leader!r}: the seat that led the first trick, N, E or S "
                            "(three players only)")
    if not _is_int(entry.reserve) or entry.reserve < 0:
        raise bad("reserve", f"{entry.reserve!r} is not a whole number of points >= 0")
    if entry.reserve and decouverte:
        raise bad("reserve", "belote découverte carries no reserve (§12.2)")
    if not decouverte:
        check_hand_entry(rules, side_entry(rules, entry), where)


def _check_seat_points(rules: Rules, entry: SeatEntry, bad: _Bad) -> None:
    n = entry.players
    points = entry.trick_points
    total = trick_total(rules, entry.trump) if entry.in_play is None else entry.in_play
    capot_total = seat_capot_total(rules, entry.trump, entry.in_play)
    capot = entry.capot
    if capot is None:
        for seat in range(n):
            if points[seat] > total:
                raise bad(f"trick_points.{_seat_name(seat)}",
                          f"{points[seat]!r} is outside 0..{total}")
        if sum(points) != total:
            raise bad("trick_points", " + ".join(map(str, points))
                      + f" does not add to {total}")
        return
    sides = 2 if n == 3 else n
    if not _is_int(capot) or capot not in range(sides):
        what = "0 (the taker) or 1 (the defenders)" if n == 3 else "a seat"
        raise bad("capot", f"{capot!r} is not {what}")
    winners = [s for s in range(n) if entry.side_of(s) == capot]
    for seat in range(n):
        if seat not in winners and points[seat]:
            raise bad(f"trick_points.{_seat_name(seat)}",
                      f"{points[seat]!r} with a capot by {_capot_name(entry, capot)} "
                      "(no trick: 0)")
    won = sum(points[s] for s in winners)
    if Table.of(rules).mode is DealMode.KITTY and capot == DEFENDERS:
        # their own tricks: 252 less the two cards the taker laid aside (lost to him)
        if won > capot_total:
            raise bad("trick_points", f"{won} is more than a capot's {capot_total}")
        return
    if won != capot_total:
        raise bad("trick_points", f"{won} with a capot by {_capot_name(entry, capot)} "
                                  f"(a capot counts {capot_total})")


def _capot_name(entry: SeatEntry, capot: int) -> str:
    if entry.players == 3:
        return SIDE_NAMES_3P[capot]
    return SEAT_LETTERS[capot]


def _check_seat_declarations(rules: Rules, entry: SeatEntry, bad: _Bad) -> None:
    decl = entry.decl
    sides = [0, 0]
    for seat in range(entry.players):
        value = decl[seat]
        field = f"declarations.{_seat_name(seat)}"
        if not value:
            continue
        if is_decouverte(rules):
            raise bad(field, f"{value!r}: no declarations in belote découverte (§12.2)")
        if not rules.declarations:
            raise bad(field, f"{value!r}: {rules.profile} is played without declarations "
                             "(option declarations is false)")
        if value % 10 or value in (10, 30):
            raise bad(field, f"{value!r} is not a sum of declaration values "
                             "(20, 50, 100, 150, 200)")
        sides[entry.side_of(seat)] += 1
    if sides[0] and sides[1]:
        what = "the taker and a defender" if entry.players == 3 else "both seats"
        raise bad("declarations", f"{what} have points: only the side that wins the "
                                  "comparison scores (§7.6)")


def _check_seat_belote(entry: SeatEntry, bad: _Bad) -> None:
    belote = entry.bel
    seats = range(entry.players)
    if entry.trump == NO_TRUMP:
        if any(belote):
            raise bad("belote", "there is no belote in sans-atout (§7.7)")
        return
    if entry.trump == ALL_TRUMP:
        for seat in seats:
            if belote[seat] % BELOTE_POINTS:
                raise bad(f"belote.{_seat_name(seat)}",
                          f"{belote[seat]!r} is not a multiple of 20")
        if sum(belote) > 4 * BELOTE_POINTS:
            raise bad("belote", " + ".join(map(str, belote))
                      + " is more than 80 (one belote per suit in tout-atout)")
        return
    for seat in seats:
        if belote[seat] not in (0, BELOTE_POINTS):
            raise bad(f"belote.{_seat_name(seat)}",
                      f"{belote[seat]!r} is not 0 or 20 (only tout-atout has more)")
    if sum(1 for b in belote if b) > 1:
        raise bad("belote", "two seats have belote: only one holds trump K and Q")


def score_seat_hand(rules: Rules, entry: SeatEntry, *, where: str = "hand") -> HandScore:
    """The score of one hand at a table of three or two, per seat (§12), as the
    engine scores the same hand played (belote.hand.HandPlay.result)."""
    check_seat_entry(rules, entry, where)
    n = entry.players
    if entry.taker is None:  # belote découverte: each scores his own
        totals = (entry.trick_points[0] + entry.bel[0], entry.trick_points[1] + entry.bel[1])
        return HandScore(COUNTED, totals, totals, 0, n)
    hand = score_hand(rules, side_entry(rules, entry), where=where)
    if n == 2:
        seats: tuple[int, ...] = hand.score
    else:
        seats = seat_shares(rules, hand.score, entry.taker, entry.first_leader(),
                            entry.trick_points, entry.bel, entry.trump)
    return HandScore(hand.outcome, hand.totals, seats, hand.reserve, n)


# --- three and two players: JSON ------------------------------------------------------------


def _parse_seat_letter(value: Any, field: str, where: str, players: int) -> int:
    return parse_seat(value, f"{where}: {field}", players)


def _seat_points(value: Any, field: str, where: str, players: int) -> dict[int, int]:
    """``{"N": 92, "E": 40}`` → ``{0: 92, 1: 40}``; seat keys, whole numbers >= 0."""

    def seat(key: Any, field: str, where: str) -> int:
        return _parse_seat_letter(key, field, where, players)

    return _named_points(value, field, where, "seat", SEAT_LETTERS, seat)


def parse_seat_entry(
    obj: Any, rules: Rules, where: str = "hand", *, allow_reserve: bool = True,
) -> SeatEntry:
    """A per-seat hand entry (docs/json.md, three and two players) → :class:`SeatEntry`.

    ``trick_points`` gives every seat's points, or all but one: the missing seat's
    are the trick total (162, or ``trick_total`` where part of the pack stays
    out) less the others'.  After a capot the capot side's points may be left out
    (they are its capot total) and the other side's are 0.
    """
    obj = check_object(obj, SEAT_HAND_KEYS, where)
    _same_rules(obj, rules, where, table_rules_of)
    n = rules.players
    names = SEAT_LETTERS[:n]

    def bad(field: str, message: str) -> InvalidRecordError:
        return InvalidRecordError(f"{where}: {field}: {message}")

    decouverte = is_decouverte(rules)
    taker: int | None = None
    if decouverte:
        if obj.get("taker") is not None:
            raise bad("taker", f"{obj['taker']!r}: nobody takes in belote découverte "
                               "(§12.2): leave it out or null")
    elif obj.get("taker") is None:
        raise bad("taker", f"required: the taker's seat ({', '.join(names)})")
    else:
        taker = _parse_seat_letter(obj["taker"], "taker", where, n)
    trump = _parse_trump_field(obj, bad)

    capot: int | None = None
    raw_capot = obj.get("capot")
    if raw_capot is not None:
        if n == 3:
            word = raw_capot.strip().lower() if isinstance(raw_capot, str) else None
            if word not in SIDE_NAMES_3P:
                raise bad("capot", f"{raw_capot!r} is not 'taker', 'defenders' or null "
                                   "(the side that took every trick)")
            capot = SIDE_NAMES_3P.index(word)
        else:
            capot = _parse_seat_letter(raw_capot, "capot", where, n)

    in_play: int | None = None
    raw_total = obj.get("trick_total")
    full = trick_total(rules, trump)
    if raw_total is not None:
        if not _is_int(raw_total) or not 10 <= raw_total <= full:
            raise bad("trick_total", f"{raw_total!r} is outside 10..{full}")
        if partial_pack(rules):
            in_play = raw_total
        elif raw_total != full:
            raise bad("trick_total", f"{raw_total!r}: the whole pack is played here, "
                                     f"the trick total is {full}")

    given = {} if obj.get("trick_points") is None else _seat_points(
        obj["trick_points"], "trick_points", where, n)
    points = _work_out_points(rules, given, taker, capot, trump, in_play, bad)
    if partial_pack(rules) and in_play is None:
        in_play = sum(points) if capot is None else sum(points) - 90

    decl_given = {} if obj.get("declarations") is None else _seat_points(
        obj["declarations"], "declarations", where, n)
    declarations = tuple(decl_given.get(s, 0) for s in range(n))

    belote_value = obj.get("belote")
    if belote_value is None:
        belote = (0,) * n
    elif isinstance(belote_value, str):
        seat = _parse_seat_letter(belote_value, "belote", where, n)
        belote = tuple(BELOTE_POINTS if s == seat else 0 for s in range(n))
    elif isinstance(belote_value, dict):
        bel = _seat_points(belote_value, "belote", where, n)
        belote = tuple(bel.get(s, 0) for s in range(n))
    else:
        raise bad("belote", f"{belote_value!r} is not a seat, null or points per seat")

    leader: int | None = None
    if obj.get("leader") is not None:
        if n != 3:
            raise bad("leader", "only with three players (it decides an odd point "
                                "of the defenders' shares)")
        leader = _parse_seat_letter(obj["leader"], "leader", where, n)

    reserve = _parse_reserve(obj, allow_reserve, bad)
    entry = SeatEntry(
        players=n, taker=taker, trick_points=points, capot=capot,
        declarations=declarations, belote=belote, trump=trump, in_play=in_play,
        leader=leader, reserve=reserve,
    )
    check_seat_entry(rules, entry, where)
    return entry


def _work_out_points(
    rules: Rules, given: dict[int, int], taker: int | None, capot: int | None,
    trump: int | None, in_play: int | None, bad: _Bad,
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
        if in_play is None and partial_pack(rules):
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
    if partial_pack(rules) and in_play is None:
        raise bad("trick_total", "required when a seat's trick points are left out: the "
                                 "points of the cards played + 10 (§12)")
    total = trick_total(rules, trump) if in_play is None else in_play
    points = [given.get(s, 0) for s in range(n)]
    for seat, value in given.items():
        if value > total:
            raise bad(f"trick_points.{names[seat]}", f"{value!r} is outside 0..{total}")
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


def check_object(obj: Any, keys: Sequence[str], where: str) -> dict[str, Any]:
    """``obj`` as a JSON object of only ``keys`` (an input of docs/json.md)."""
    if not isinstance(obj, dict):
        raise InvalidRecordError(f"{where}: expected a JSON object, got {type(obj).__name__}")
    for key in obj:
        if key not in keys:
            raise InvalidRecordError(
                f"{where}: unknown key {key!r} (expected {', '.join(keys)})")
    return obj


def _parse_trump_field(obj: Mapping[str, Any], bad: _Bad) -> int | None:
    value = obj.get("trump")
    if value is None:
        return None
    if isinstance(value, str):
        try:
            return parse_trump(value)
        except BeloteError:
            pass
    raise bad("trump", f"{value!r} is not S, H, D, C, SA or TA")


def _parse_reserve(obj: Mapping[str, Any], allow_reserve: bool, bad: _Bad) -> int:
    reserve = obj.get("reserve", 0)
    if reserve is None:
        reserve = 0
    if not _is_int(reserve):
        raise bad("reserve", f"{reserve!r} is not a whole number")
    if reserve and not allow_reserve:
        raise bad("reserve", f"{reserve!r}: not given here (the game carries the reserve)")
    return int(reserve)


def seat_entry_to_json(entry: SeatEntry) -> dict[str, Any]:
    """The JSON form of a per-seat entry (:func:`parse_seat_entry` reads it back)."""
    n = entry.players
    out: dict[str, Any] = {
        "taker": None if entry.taker is None else SEAT_LETTERS[entry.taker],
        "trick_points": seat_dict(entry.trick_points),
        "capot": None if entry.capot is None else _capot_name(entry, entry.capot),
        "declarations": seat_dict(entry.decl),
    }
    bel = entry.bel
    holders = [s for s in range(n) if bel[s]]
    if not holders:
        out["belote"] = None
    elif len(holders) == 1 and bel[holders[0]] == BELOTE_POINTS:
        out["belote"] = SEAT_LETTERS[holders[0]]
    else:
        out["belote"] = seat_dict(bel)
    optional = {  # written only when given, in this order
        "trump": None if entry.trump is None else TRUMP_MODE_NAMES[entry.trump],
        "trick_total": entry.in_play,
        "leader": None if entry.leader is None else SEAT_LETTERS[entry.leader],
        "reserve": entry.reserve or None,
    }
    out.update((key, value) for key, value in optional.items() if value is not None)
    return out


def table_rules_of(obj: Mapping[str, Any]) -> Rules:
    """The rules named by an input's ``profile`` (default classic) and ``options``,
    any number of players."""
    profile = obj.get("profile", "classic")
    if profile is None:
        profile = "classic"
    options = obj.get("options")
    return make_rules(profile, options or {})


def score_seat_hand_json(obj: Any, rules: Rules) -> dict[str, Any]:
    """``belote score hand --json`` at a table of three or two."""
    entry = parse_seat_entry(obj, rules)
    return score_seat_hand(rules, entry).to_json()


# --- a game, at every table ------------------------------------------------------------------
#
# One tally for every table (belote.table.Table): its score is kept per team with
# four players and per seat with three or two (§12), each hand scored by
# :func:`score_entry`.  The end of the game (§11) is decided by :func:`game_status`,
# where the few rules that differ by table are written once.

#: a hand of a game: two teams (four players), or per seat at a table of three or two
Entry = HandEntry | SeatEntry


def score_entry(
    rules: Rules, entry: Entry, *, last_deal: bool = False, rounded: bool = True,
    where: str = "hand",
) -> HandScore:
    """One hand of a game, scored per team (§8–§10) or at a table of three or two per
    seat (§12; ``last_deal`` and ``rounded`` are for the team game, see
    :class:`GameTally`)."""
    if isinstance(entry, SeatEntry):
        return score_seat_hand(rules, entry, where=where)
    return score_hand(two_team_rules(rules), entry, last_deal=last_deal, rounded=rounded,
                      where=where)


def parse_entry(
    obj: Any, rules: Rules, where: str = "hand", *, allow_reserve: bool = True,
) -> Entry:
    """A hand entry of the rules' table: a team entry (:func:`parse_hand_entry`), or at
    a table of three or two a per-seat entry (:func:`parse_seat_entry`)."""
    if Table.of(rules).scores_per_seat:
        return parse_seat_entry(obj, rules, where, allow_reserve=allow_reserve)
    return parse_hand_entry(obj, rules, where, allow_reserve=allow_reserve)


def entry_to_json(entry: Entry) -> dict[str, Any]:
    """The JSON form of a hand entry (:func:`parse_entry` reads it back)."""
    if isinstance(entry, SeatEntry):
        return seat_entry_to_json(entry)
    return hand_entry_to_json(entry)


def reached(rules: Rules, total: int, target: int) -> bool:
    """Whether ``total`` reaches ``target`` under ``reach_rule`` (§11.2)."""
    if rules.reach_rule is ReachRule.STRICTLY_EXCEED:
        return total > target
    return total >= target


def game_status(
    rules: Rules,
    totals: Sequence[int],
    target: int,
    entry: Entry | None = None,
    hand: HandScore | None = None,
    deals_played: int = 0,
) -> tuple[bool, int | None]:
    """(finished, winner) after a hand that brought the game to ``totals`` (§11): the
    winning team, or at a table of three or two the winning seat (§12).

    ``entry`` and ``hand`` are the last hand (for ``both_cross =
    taker_must_make`` and ``no_win_on_belote``); ``deals_played`` counts the
    deals played, all-pass ones left out (for ``limit = "deals"``).  A finished
    game without a winner is a draw.  The columns at the target (every one once
    the deals are played) are the candidates; the highest total among them wins,
    equal highest totals play on (``draw``: the game ends without a winner).
    """
    return _game_end(rules, not Table.of(rules).scores_per_seat, totals, target, entry, hand,
                     deals_played)


def _game_end(
    rules: Rules, teams: bool, totals: Sequence[int], target: int, entry: Entry | None,
    hand: HandScore | None, deals_played: int,
) -> tuple[bool, int | None]:
    """:func:`game_status`, told whether the score is the two teams' (``teams``)."""
    columns = range(len(totals))
    if rules.limit is _DEALS:
        # §11.1: after the last deal the higher total wins
        if deals_played < target:
            return False, None
        candidates = list(columns)
        if teams:
            return _highest(rules, totals, candidates)
    else:
        candidates = [c for c in columns if reached(rules, totals[c], target)]
        if teams and entry is not None and hand is not None:
            # §11.4 no win on belote alone: four players only
            candidates = [c for c in candidates
                          if not _held_by_belote(rules, totals, target, entry, hand, c)]
        if teams and len(candidates) > 1 and rules.both_cross is BothCross.DRAW:
            return True, None  # §11.3 draw: both teams over on one hand
    # §11.3 taker_must_make: takers who did not make the last hand do not win on it
    # (per seat also after the last deal of a deal-limited game)
    if (rules.both_cross is BothCross.TAKER_MUST_MAKE and entry is not None and hand is not None
            and hand.outcome is not _MADE and len(candidates) > 1
            and entry.taker in candidates):
        candidates.remove(entry.taker)
    return _highest(rules, totals, candidates)


def _held_by_belote(
    rules: Rules, totals: Sequence[int], target: int, entry: Entry, hand: HandScore,
    team: int,
) -> bool:
    """§11.4: ``team`` reaches the target only thanks to this hand's belote, after a
    capot against it (or, with ``capot_or_failed``, as failed takers)."""
    if rules.no_win_on_belote is NoWinOnBelote.OFF or isinstance(entry, SeatEntry):
        return False
    credit = belote_scored(rules, entry, hand.outcome)[team]
    capoted = entry.capot == 1 - team
    failed = (rules.no_win_on_belote is NoWinOnBelote.CAPOT_OR_FAILED
              and team == entry.taker and hand.outcome is Outcome.FAILED)
    return ((capoted or failed) and credit > 0
            and not reached(rules, totals[team] - credit, target))


def _highest(
    rules: Rules, totals: Sequence[int], candidates: Sequence[int],
) -> tuple[bool, int | None]:
    """The candidate with the highest total wins; equal highest totals play on, or
    with ``both_cross = "draw"`` end the game drawn (§11.3)."""
    if not candidates:
        return False, None
    best = max(totals[c] for c in candidates)
    leaders = [c for c in candidates if totals[c] == best]
    if len(leaders) == 1:
        return True, leaders[0]
    if rules.both_cross is BothCross.DRAW:
        return True, None
    return False, None


class GameTally:
    """A game scored one hand at a time (score sheets, the calculator, belote.game),
    at any table: per team with four players, per seat with three or two (§12).

    >>> tally = GameTally(make_rules("classic"), target=150)
    >>> tally.add(HandEntry(taker=NS, trick_points=(92, 70))).score
    (92, 70)
    >>> tally.add(HandEntry(taker=EW, trick_points=(40, 122))).score
    (40, 122)
    >>> tally.finished, tally.winner, tally.totals
    (True, 1, (132, 192))
    >>> tally = GameTally(make_rules("classic-3p"), target=150)
    >>> tally.add(SeatEntry(3, 0, (92, 40, 30))).score
    (92, 40, 30)
    >>> tally.add(SeatEntry(3, 1, (10, 40, 112))).score  # E fails: N and S share 40
    (30, 0, 132)
    >>> tally.finished, tally.winner, tally.totals
    (True, 2, (122, 40, 162))
    """

    def __init__(self, rules: Rules, target: int | None = None) -> None:
        if target is None:
            target = rules.target
        if not _is_int(target) or target <= 0:
            raise InvalidRecordError(f"target: {target!r} is not a positive whole number")
        self.rules = rules
        self.table = Table.of(rules)
        self._teams = not self.table.scores_per_seat
        self.target = target
        self.players = rules.players
        self.hands: list[HandScore] = []
        self.entries: list[Entry | None] = []
        self.running: list[tuple[int, ...]] = []
        self.totals: tuple[int, ...] = (0,) * len(score_names(rules.players))
        self.reserve = 0
        self.deals_played = 0
        self.finished = False
        self.winner: int | None = None
        self.ended_after = 0

    def _refuse_when_over(self) -> None:
        if self.finished:
            number = len(self.hands) + 1
            what = "won" if self.winner is not None else "ended (a draw)"
            raise InvalidRecordError(
                f"hand {number}: the game was already {what} after hand {self.ended_after}")

    def add(self, entry: Entry) -> HandScore:
        """Score the next hand (its reserve is the one the game carries) and record it."""
        self._refuse_when_over()
        number = len(self.hands) + 1
        where = f"hand {number}"
        if entry.reserve not in (0, self.reserve):
            raise InvalidRecordError(
                f"{where}: reserve: {entry.reserve!r} is not the reserve the game carries "
                f"({self.reserve})")
        # §12.2: belote découverte (no taker) carries no reserve
        entry = dataclasses.replace(entry, reserve=0 if entry.taker is None else self.reserve)
        deals = self.deals_played + 1
        # The team game (§11.1) drops the reserve of a litige on the last deal of a
        # deal-limited game and (§10 round_final_hand = false) counts the hand that
        # ends the game exactly; the per-seat game (§12) scores every hand as played.
        teams = self._teams
        last_deal = teams and self.rules.limit is _DEALS and deals >= self.target
        hand = score_entry(self.rules, entry, last_deal=last_deal, where=where)
        finished, winner = self._status(entry, hand, deals)
        if teams and self.rules.rounding is not _NO_ROUNDING and not self.rules.round_final_hand:
            exact = score_entry(self.rules, entry, last_deal=last_deal, rounded=False,
                                where=where)
            exact_status = self._status(entry, exact, deals)
            if finished or exact_status[0]:
                hand, (finished, winner) = exact, exact_status
        self.deals_played = deals
        self._record(entry, hand)
        self.finished, self.winner = finished, winner
        if finished:
            self.ended_after = number
            self.reserve = 0  # §8.4: a reserve open at the end is discarded
        return hand

    def add_all_pass(self) -> HandScore:
        """An all-pass deal (§2.4): nothing scored, not counted in a deal limit."""
        self._refuse_when_over()
        hand = void_hand(self.reserve)
        self._record(None, hand)
        return hand

    def _status(self, entry: Entry, hand: HandScore, deals: int) -> tuple[bool, int | None]:
        totals = tuple(t + s for t, s in zip(self.totals, hand.score, strict=True))
        return _game_end(self.rules, self._teams, totals, self.target, entry, hand, deals)

    def _record(self, entry: Entry | None, hand: HandScore) -> None:
        self.entries.append(entry)
        self.hands.append(hand)
        self.totals = tuple(t + s for t, s in zip(self.totals, hand.score, strict=True))
        self.running.append(self.totals)
        self.reserve = hand.reserve

    def result(self) -> GameScore:
        return GameScore(
            hands=tuple(self.hands), running=tuple(self.running), totals=self.totals,
            reserve=self.reserve, finished=self.finished, winner=self.winner,
            players=self.players,
        )


def score_game(
    rules: Rules, entries: Sequence[Entry], target: int | None = None,
) -> GameScore:
    """Score a score sheet: every hand in order, the reserve carried from hand to
    hand, the end of the game checked after each (§11).  A hand after the end
    raises ``InvalidRecordError("hand 7: the game was already won after hand 6")``.
    """
    tally = GameTally(rules, target)
    for entry in entries:
        tally.add(entry)
    return tally.result()


def parse_game(obj: Any) -> tuple[Rules, list[Entry], int | None]:
    """The ``score game`` input: ``{"profile", "options", "target", "hands"}``; the
    hands are per seat at a table of three or two."""
    obj = check_object(obj, GAME_KEYS, "game")
    rules = table_rules_of(obj)
    target = obj.get("target")
    if target is not None and (not _is_int(target) or target <= 0):
        raise InvalidRecordError(f"game: target: {target!r} is not a positive whole number")
    hands = obj.get("hands")
    if not isinstance(hands, list):
        raise InvalidRecordError(f"game: hands: {hands!r} is not a list of hand entries")
    entries = [parse_entry(_game_hand(hand, number), rules, f"hand {number}",
                           allow_reserve=False)
               for number, hand in enumerate(hands, start=1)]
    return rules, entries, target


def _game_hand(hand: Any, number: int) -> Any:
    """A hand of a game object: its ``profile`` and ``options`` belong at the top."""
    if isinstance(hand, dict):
        for key in ("profile", "options"):
            if key in hand:
                raise InvalidRecordError(
                    f"hand {number}: {key!r} belongs at the top level of the game")
    return hand


def score_game_json(obj: Any) -> dict[str, Any]:
    """``belote score game --json``: the GameScore of a game object (per seat at a
    table of three or two)."""
    rules, entries, target = parse_game(obj)
    return score_game(rules, entries, target).to_json()
