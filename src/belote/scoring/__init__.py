"""Scoring: one hand (docs/rules.md §8, §9, §10) and a whole game (§11), every profile
and every table (§12), in one place.

Every score of the project goes through this package: the calculator (``belote
score``), the engine (a played hand becomes a :class:`HandEntry`), the bots, the score
sheets (:func:`score_game`) and the faces that show how a hand was counted (the
:class:`Breakdown` of a :class:`HandScore`).  Its modules:

* :mod:`~belote.scoring.values`: the entry (one type at every table: its columns are
  the teams with four players, the seats with three or two), the scores, the
  constants and the small rules (rounding, scaled tout-atout, the multiplier);
* :mod:`~belote.scoring.arithmetic`: a hand's score as a :class:`Breakdown` (§8, §9,
  §10), belote découverte (§12.2), the shares of a table of three (§12.1);
* :mod:`~belote.scoring.checks`: what an entry may hold, the most a side can declare
  (:func:`declaration_max`, §7);
* :mod:`~belote.scoring.codec`: entries in JSON, read and written (docs/json.md);
* :mod:`~belote.scoring.game`: a hand checked and scored at any table
  (:func:`score_hand`), the game's tally and its end (§11).

>>> from belote.options import make_rules
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

from belote.scoring.arithmetic import (
    belote_scored,
    score_counted,
    score_valid_hand,
    seat_shares,
)
from belote.scoring.checks import (
    DECLARATION_MAX,
    check_entry,
    declaration_max,
    declaration_total_problem,
    declaration_total_refusal,
)
from belote.scoring.codec import (
    GAME_KEYS,
    HAND_KEYS,
    SEAT_HAND_KEYS,
    check_object,
    entry_to_json,
    parse_entry,
    parse_team,
    rules_of,
    table_rules_of,
    two_team_rules,
)
from belote.scoring.game import (
    Entry,
    GameTally,
    game_status,
    parse_game,
    parse_hand_input,
    reached,
    score_entry,
    score_game,
    score_game_json,
    score_hand,
    score_hand_json,
)
from belote.scoring.values import (
    BELOTE_POINTS,
    CAPOT_CONTRACT_VALUE,
    CAPOT_POINTS,
    CARD_POINTS,
    COUNTED,
    DEFENDERS,
    DOUBLED_BASE,
    EW,
    FLAT_CAPOT_VALUE,
    NS,
    OUTCOMES,
    SCALED_TA_CAPOT_POINTS,
    SCALED_TA_POINTS,
    SEAT_LETTERS,
    SIDE_NAMES_3P,
    TAKER_SIDE,
    TEAM_NAMES,
    UNBID_CAPOT_BASE,
    Breakdown,
    GameScore,
    HandEntry,
    HandScore,
    Outcome,
    Part,
    SeatEntry,
    Term,
    capot_trick_points,
    is_decouverte,
    multiplier_factor,
    partial_pack,
    round_points,
    scale_ta_points,
    score_dict,
    score_names,
    scored_totals,
    seat_capot_total,
    seat_dict,
    side_entry,
    side_names,
    team_dict,
    trick_total,
    void_hand,
)

# The names of the team and the per-seat forms, one function each since one entry type
# serves every table.
check_hand_entry = check_seat_entry = check_entry
parse_hand_entry = parse_seat_entry = parse_entry
hand_entry_to_json = seat_entry_to_json = entry_to_json
score_seat_hand = score_hand

__all__ = [
    "BELOTE_POINTS",
    "CAPOT_CONTRACT_VALUE",
    "CAPOT_POINTS",
    "CARD_POINTS",
    "COUNTED",
    "DECLARATION_MAX",
    "DEFENDERS",
    "DOUBLED_BASE",
    "EW",
    "FLAT_CAPOT_VALUE",
    "GAME_KEYS",
    "HAND_KEYS",
    "NS",
    "OUTCOMES",
    "SCALED_TA_CAPOT_POINTS",
    "SCALED_TA_POINTS",
    "SEAT_HAND_KEYS",
    "SEAT_LETTERS",
    "SIDE_NAMES_3P",
    "TAKER_SIDE",
    "TEAM_NAMES",
    "UNBID_CAPOT_BASE",
    "Breakdown",
    "Entry",
    "GameScore",
    "GameTally",
    "HandEntry",
    "HandScore",
    "Outcome",
    "Part",
    "SeatEntry",
    "Term",
    "belote_scored",
    "capot_trick_points",
    "check_entry",
    "check_hand_entry",
    "check_object",
    "check_seat_entry",
    "declaration_max",
    "declaration_total_problem",
    "declaration_total_refusal",
    "entry_to_json",
    "game_status",
    "hand_entry_to_json",
    "is_decouverte",
    "multiplier_factor",
    "parse_entry",
    "parse_game",
    "parse_hand_entry",
    "parse_hand_input",
    "parse_seat_entry",
    "parse_team",
    "partial_pack",
    "reached",
    "round_points",
    "rules_of",
    "scale_ta_points",
    "score_counted",
    "score_dict",
    "score_entry",
    "score_game",
    "score_game_json",
    "score_hand",
    "score_hand_json",
    "score_names",
    "score_seat_hand",
    "score_valid_hand",
    "scored_totals",
    "seat_capot_total",
    "seat_dict",
    "seat_entry_to_json",
    "seat_shares",
    "side_entry",
    "side_names",
    "table_rules_of",
    "team_dict",
    "trick_total",
    "two_team_rules",
    "void_hand",
]
