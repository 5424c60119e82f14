"""Golden cases and properties of the scoring module (docs/rules.md §5.4, §7.8, §8-§11).

Every test names the docs/rules.md section it checks; the seed 002 examples (the
scoring calculator) are quoted where they are used.
"""

from __future__ import annotations

import dataclasses
import doctest
import importlib
from typing import Any

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import belote.scoring
from belote.cards import ALL_TRUMP, HEARTS
from belote.errors import BeloteError, InvalidRecordError, OptionError
from belote.options import Rounding, make_rules
from belote.scoring import (
    EW,
    NS,
    GameTally,
    HandEntry,
    HandScore,
    Outcome,
    capot_trick_points,
    check_hand_entry,
    game_status,
    hand_entry_to_json,
    parse_game,
    parse_hand_entry,
    round_points,
    scale_ta_points,
    score_game,
    score_game_json,
    score_hand,
    score_hand_json,
    scored_totals,
    void_hand,
)

Result = tuple[str, int, int, int]


def hand(profile: str = "classic", options: dict[str, Any] | None = None, /,
         **entry: Any) -> Result:
    """(outcome, NS score, EW score, reserve after) of a HandEntry given as JSON."""
    out = score_hand_json({"profile": profile, "options": options or {}, **entry})
    return out["outcome"], out["score"]["NS"], out["score"]["EW"], out["reserve"]


def totals(profile: str = "classic", options: dict[str, Any] | None = None, /,
           **entry: Any) -> tuple[int, int]:
    out = score_hand_json({"profile": profile, "options": options or {}, **entry})
    return out["totals"]["NS"], out["totals"]["EW"]


# --- §8 classic and moroccan, seed 002 ---------------------------------------------------

BOTH = pytest.mark.parametrize("profile", ["classic", "moroccan"])


@BOTH
def test_seed002_82_against_80_is_made(profile: str) -> None:
    """§8.2, seed 002: "82 against 80 is made"; each team scores its own total."""
    assert hand(profile, taker="NS", trick_points={"NS": 82}) == ("made", 82, 80, 0)
    assert hand(profile, taker="EW", trick_points={"EW": 82}) == ("made", 80, 82, 0)


@BOTH
def test_seed002_81_against_81_is_a_litige(profile: str) -> None:
    """§8.4, seed 002: "81 against 81 is a tie": defenders score at once, the
    takers' points go to the reserve."""
    assert hand(profile, taker="NS", trick_points={"NS": 81}) == ("litige", 0, 81, 81)


@BOTH
def test_seed002_fifty_lowers_the_bar(profile: str) -> None:
    """§8.2, seed 002: "with a 4-card Suivi (50 points), 57 trick points are
    enough (107 against 105)"."""
    obj = {"taker": "NS", "trick_points": {"NS": 57}, "declarations": {"NS": 50}}
    assert totals(profile, **obj) == (107, 105)
    assert hand(profile, **obj) == ("made", 107, 105, 0)


@BOTH
def test_seed002_failed_with_belote(profile: str) -> None:
    """§8.3, seed 002: "the taker makes 70 in tricks and has Belote (20); the
    defenders make 92 and won the comparison with a 3-card Suivi (20). Totals:
    90 against 112 ... The defenders score 162 + 20 = 182; the taker keeps 20"."""
    obj = {"taker": "NS", "trick_points": {"NS": 70}, "declarations": {"EW": 20},
           "belote": "NS"}
    assert totals(profile, **obj) == (90, 112)
    assert hand(profile, **obj) == ("failed", 20, 182, 0)
    mirrored = {"taker": "EW", "trick_points": {"EW": 70}, "declarations": {"NS": 20},
                "belote": "EW"}
    assert hand(profile, **mirrored) == ("failed", 182, 20, 0)


def test_seed002_hand3_failed_taker_declaration_goes_to_defenders() -> None:
    """§8.3, seed 002 hand 3: "the taker had the declaration but failed; the
    defenders score 162 + those 50 declaration points = 212"."""
    obj = {"taker": "NS", "trick_points": {"NS": 40}, "declarations": {"NS": 50}}
    assert totals(**obj) == (90, 122)
    assert hand(**obj) == ("failed", 0, 212, 0)


def test_taker_decl_on_failure_lost() -> None:
    """§8.3 taker_decl_on_failure = lost (S0 literal): the failed takers'
    declarations are scored by nobody."""
    obj = {"taker": "NS", "trick_points": {"NS": 40}, "declarations": {"NS": 50}}
    assert hand(options={"taker_decl_on_failure": "lost"}, **obj) == ("failed", 0, 162, 0)


def test_seed002_hand4_belote_stays_with_failed_taker() -> None:
    """§7.8, seed 002 hand 4: "Belote stays with the taker despite the failure"."""
    obj = {"taker": "EW", "trick_points": {"NS": 112}, "belote": "EW"}
    assert hand(**obj) == ("failed", 162, 20, 0)


def test_belote_on_failure_defenders_in_classic() -> None:
    """§7.8 belote_on_failure = defenders: the failed takers' belote goes over."""
    obj = {"taker": "NS", "trick_points": {"NS": 70}, "declarations": {"EW": 20},
           "belote": "NS"}
    assert hand(options={"belote_on_failure": "defenders"}, **obj) == ("failed", 0, 202, 0)


def test_seed002_capot_by_takers_with_tierce() -> None:
    """§8.5, seed 002: "the taking team makes capot and won the comparison with a
    3-card Suivi ... it scores 252 + 20 = 272, the defenders 0"."""
    obj = {"taker": "NS", "capot": "NS", "declarations": {"NS": 20}}
    assert totals(**obj) == (272, 0)
    assert hand(**obj) == ("made", 272, 0, 0)


def test_seed002_capot_by_defenders() -> None:
    """§8.3/§8.5, seed 002: "If the defenders make capot against the taker, they
    score 252 instead of 162, plus declarations"; the taker keeps its belote."""
    obj = {"taker": "NS", "capot": "EW", "declarations": {"EW": 20}, "belote": "NS"}
    assert totals(**obj) == (20, 272)
    assert hand(**obj) == ("failed", 20, 272, 0)


def test_capot_entered_with_its_trick_points() -> None:
    """§5.2: a capot's trick points may be given (252, or all 162 card points) or left out."""
    for given_points in ({"NS": 252}, {"NS": 162}, {"EW": 0}, {"NS": 252, "EW": 0}):
        assert hand(taker="NS", capot="NS", trick_points=given_points) == ("made", 252, 0, 0)


@pytest.mark.parametrize(("value", "expected"), [
    ("kept", ("made", 252, 50, 0)),
    ("to_capot_team", ("made", 302, 0, 0)),
    ("void", ("made", 252, 0, 0)),
])
def test_capot_loser_declarations_takers_capot(value: str, expected: Result) -> None:
    """§8.5 capot_loser_declarations kept [D; S2] | to_capot_team (FFB-C) | void (PB)."""
    obj = {"taker": "NS", "capot": "NS", "declarations": {"EW": 50}}
    assert hand(options={"capot_loser_declarations": value}, **obj) == expected


@pytest.mark.parametrize(("value", "expected"), [
    ("kept", ("failed", 0, 302, 0)),  # kept by the takers, then transferred on failure
    ("to_capot_team", ("failed", 0, 302, 0)),
    ("void", ("failed", 0, 252, 0)),
])
def test_capot_loser_declarations_defenders_capot(value: str, expected: Result) -> None:
    """§8.5 with a capot by the defenders, the takers' declarations (§8.3 transfer)."""
    obj = {"taker": "NS", "capot": "EW", "declarations": {"NS": 50}}
    assert hand(options={"capot_loser_declarations": value}, **obj) == expected


def test_capot_loser_declarations_lost_and_void() -> None:
    """§8.3 + §8.5: kept declarations of capot takers are lost with taker_decl_on_failure=lost."""
    obj = {"taker": "NS", "capot": "EW", "declarations": {"NS": 50}}
    assert hand(options={"taker_decl_on_failure": "lost"}, **obj) == ("failed", 0, 252, 0)


def test_litige_belote_is_never_reserved() -> None:
    """§8.4, seed 002: "The taker's points (except Belote, which they keep) go into
    reserve"; 71 + 20 against 91."""
    obj = {"taker": "NS", "trick_points": {"NS": 71}, "belote": "NS"}
    assert totals(**obj) == (91, 91)
    assert hand(**obj) == ("litige", 20, 91, 71)


def test_litige_declarations_go_to_the_reserve() -> None:
    """§8.4: reserve += T_takers − belote_takers (declarations included)."""
    obj = {"taker": "EW", "trick_points": {"EW": 71}, "declarations": {"EW": 20}}
    assert hand(**obj) == ("litige", 91, 0, 91)


def test_reserve_goes_to_the_winner_of_the_next_hand() -> None:
    """§8.4: "They will go to the team that wins the next hand that is not a tie:
    the taker's team if its contract is made, the defenders if it fails"."""
    assert hand(taker="NS", trick_points={"NS": 92}, reserve=81) == ("made", 173, 70, 0)
    assert hand(taker="NS", trick_points={"NS": 70}, reserve=81) == ("failed", 0, 243, 0)
    assert hand(taker="EW", trick_points={"NS": 70}, reserve=81) == ("made", 70, 173, 0)


def test_successive_litiges_accumulate() -> None:
    """§8.4, seed 002: "Successive ties add up in the reserve"."""
    assert hand(taker="NS", trick_points={"NS": 81}, reserve=81) == ("litige", 0, 81, 162)


@pytest.mark.parametrize(("tie_rule", "expected"), [
    ("litige", ("litige", 0, 81, 81)),
    ("fail", ("failed", 0, 162, 0)),
    ("made", ("made", 81, 81, 0)),
])
def test_tie_rule(tie_rule: str, expected: Result) -> None:
    """§8.4 tie_rule = litige [D; FFB-B §10.1.3, S2] | fail | made."""
    assert hand(options={"tie_rule": tie_rule}, taker="NS", trick_points={"NS": 81}) == expected


def test_litige_on_the_last_deal_scores_each_team_its_points() -> None:
    """§8.4: "Deal-limited match, litige on last deal: each team scores its own
    points"; the reserve carried in is dropped."""
    rules = make_rules("classic", {"limit": "deals", "target": 3})
    entry = HandEntry(taker=NS, trick_points=(71, 91), belote=(20, 0), reserve=40)
    assert score_hand(rules, entry, last_deal=True) == HandScore(Outcome.LITIGE, (91, 91),
                                                                 (91, 91), 0)
    assert score_hand(rules, entry) == HandScore(Outcome.LITIGE, (91, 91), (20, 91), 111)


def test_rounding_in_classic_when_chosen() -> None:
    """§10 rounding applied to each team's trick points (an option of classic too);
    totals stay unrounded; a failure counts R(162), a capot R(252)."""
    five = {"rounding": "nearest10_5up"}
    six = {"rounding": "nearest10_6up"}
    assert totals(options=five, taker="NS", trick_points={"NS": 85}) == (85, 77)
    assert hand(options=five, taker="NS", trick_points={"NS": 85}) == ("made", 90, 80, 0)
    assert hand(options=six, taker="NS", trick_points={"NS": 85}) == ("made", 80, 80, 0)
    assert hand(options=five, taker="NS", trick_points={"NS": 70}) == ("failed", 0, 160, 0)
    assert hand(options=five, taker="NS", capot="NS") == ("made", 250, 0, 0)
    assert hand(options=five, taker="NS", trick_points={"NS": 81}) == ("litige", 0, 80, 80)


def test_reserve_is_added_unrounded() -> None:
    """§10: "a litige reserve is added unrounded"."""
    obj = {"taker": "NS", "trick_points": {"NS": 92}, "reserve": 81}
    assert hand(options={"rounding": "nearest10_5up"}, **obj) == ("made", 171, 70, 0)


# --- §5.4 tout-atout, sans-atout --------------------------------------------------------

TA_SCALED = {"sa_ta_in_classic": True, "ta_values": "scaled"}


def test_scaled_tout_atout_points() -> None:
    """§5.4 ta_values = scaled (FFB-B §11.3): raw points (258 in all) ×162/258
    rounded, belote added after."""
    assert scale_ta_points(172) == 108 and scale_ta_points(86) == 54
    assert all(scale_ta_points(p) + scale_ta_points(258 - p) == 162 for p in range(259))
    obj = {"taker": "NS", "trump": "TA", "trick_points": {"NS": 172}}
    assert totals(options=TA_SCALED, **obj) == (108, 54)
    assert hand(options=TA_SCALED, **obj) == ("made", 108, 54, 0)
    with_belote = {**obj, "belote": {"NS": 20, "EW": 40}}
    assert hand(options=TA_SCALED, **with_belote) == ("made", 128, 94, 0)
    litige = {"taker": "NS", "trump": "TA", "trick_points": {"NS": 129}}
    assert hand(options=TA_SCALED, **litige) == ("litige", 0, 81, 81)


def test_scaled_tout_atout_capot_counts_252() -> None:
    """§5.2/§5.4: a capot in scaled TA counts 252 (the fixed capot value), whether
    entered raw (348 = 248 + 100) or not."""
    for pts in ({"NS": 348}, {"NS": 258}, {"NS": 252}, None):
        obj: dict[str, Any] = {"taker": "NS", "trump": "TA", "capot": "NS"}
        if pts is not None:
            obj["trick_points"] = pts
        assert hand(options=TA_SCALED, **obj) == ("made", 252, 0, 0)
    rules = make_rules("classic", TA_SCALED)
    raw = HandEntry(taker=NS, trick_points=(348, 0), capot=NS, trump=ALL_TRUMP)
    assert score_hand(rules, raw).score == (252, 0)


def test_scaled_tout_atout_points_must_add_to_258() -> None:
    """§5.4/§8.6: raw scaled points add to 258."""
    with pytest.raises(InvalidRecordError, match="does not add to 258"):
        hand(options=TA_SCALED, taker="NS", trump="TA", trick_points={"NS": 100, "EW": 62})
    with pytest.raises(InvalidRecordError, match=r"outside 0\.\.258"):
        hand(options=TA_SCALED, taker="NS", trump="TA", trick_points={"NS": 259})


def test_other_ta_values_count_162() -> None:
    """§5.4 ta_values pc/ffbc total 162; both teams may have belote in TA (§7.7)."""
    opts = {"sa_ta_in_classic": True}
    obj = {"taker": "NS", "trump": "TA", "trick_points": {"NS": 100},
           "belote": {"NS": 40, "EW": 20}}
    assert hand(options=opts, **obj) == ("made", 140, 82, 0)
    assert hand(options={**opts, "ta_values": "scaled"}, taker="NS", trump="H",
                trick_points={"NS": 100}) == ("made", 100, 62, 0)


def test_tout_atout_in_coinche() -> None:
    """§4.3 sa_ta = true: TA contracts; ta_values ffbc also totals 162 (§5.4); one
    belote per suit (§7.7)."""
    opts = {"sa_ta": True, "ta_values": "ffbc"}
    obj = {"taker": "EW", "contract": 120, "trump": "TA", "trick_points": {"EW": 110},
           "belote": {"NS": 20, "EW": 40}}
    assert hand("coinche", opts, **obj) == ("made", 70, 270, 0)  # 110→110 + 40 + 120


def test_no_belote_in_sans_atout() -> None:
    """§7.7: "None in SA"."""
    with pytest.raises(InvalidRecordError, match="sans-atout"):
        hand(options={"sa_ta_in_classic": True}, taker="NS", trump="SA",
             trick_points={"NS": 100}, belote="NS")


# --- §9 coinche and contrée ---------------------------------------------------------------


def test_ffbk_117_on_110() -> None:
    """§10 FFB-K example: "117→120, +110"; defenders 45 → 50; totals unrounded."""
    obj = {"taker": "NS", "contract": 110, "trick_points": {"NS": 117}}
    assert totals("contree", **obj) == (117, 45)
    assert hand("contree", **obj) == ("made", 230, 50, 0)
    assert hand("contree", {"rounding": "none"}, **obj) == ("made", 227, 45, 0)


def test_rounding_never_makes_a_contract() -> None:
    """§9.1 (FFB-W): "89 on 90 fails"; defenders fail_base + C."""
    obj = {"taker": "NS", "contract": 90, "trick_points": {"NS": 89}}
    assert hand("contree", **obj) == ("failed", 0, 250, 0)
    assert hand("contree", {"fail_base": 162, "rounding": "none"}, **obj) == (
        "failed", 0, 252, 0)


def test_fail_base() -> None:
    """§9.2 fail_base 160 [D] | 162: a fixed value, not rounded by §10 (the option
    is there to choose between 160 and the whole 162)."""
    obj = {"taker": "NS", "contract": 90, "trick_points": {"NS": 89}}
    assert hand("contree", {"rounding": "none"}, **obj) == ("failed", 0, 250, 0)
    assert hand("contree", {"fail_base": 162}, **obj) == ("failed", 0, 252, 0)
    # coinched, the base is 160 whatever fail_base says (§9.2 "base = 160")
    assert hand("contree", {"fail_base": 162, "rounding": "none"}, multiplier=2, **obj) == (
        "failed", 0, 500, 0)


def test_nearest10_6up() -> None:
    """§10 nearest10_6up (Équipe-Ludique, Cannes): 115 → 110, 47 → 50; 5up: 120."""
    obj = {"taker": "NS", "contract": 110, "trick_points": {"NS": 115}}
    assert hand("contree", {"rounding": "nearest10_6up"}, **obj) == ("made", 220, 50, 0)
    assert hand("contree", **obj) == ("made", 230, 50, 0)
    assert [round_points(p, Rounding.NEAREST10_6UP) for p in (84, 85, 86, 156)] == [80, 80, 90, 160]
    assert [round_points(p, Rounding.NEAREST10_5UP) for p in (84, 85, 86)] == [80, 90, 90]


def test_min_80() -> None:
    """§9.1 min_80 = 80 [D] | 82 (PC): applies to an 80 contract only."""
    obj = {"taker": "NS", "contract": 80, "trick_points": {"NS": 81}}
    assert hand("contree", **obj) == ("made", 160, 80, 0)
    assert hand("contree", {"min_80": 82}, **obj) == ("failed", 0, 240, 0)
    ninety = {"taker": "NS", "contract": 90, "trick_points": {"NS": 90}}
    assert hand("contree", {"min_80": 82}, **ninety) == ("made", 180, 70, 0)


def test_beat_defence() -> None:
    """§9.1 beat_defence true [D coinche, FFB-C §10.1.1]: T_takers > T_def too,
    equality fails | false [D contree; FFB-K "even if defenders made more"]."""
    equal = {"taker": "NS", "contract": 80, "trick_points": {"NS": 81}}
    assert hand("coinche", **equal) == ("failed", 0, 240, 0)
    assert hand("coinche", {"beat_defence": False}, **equal) == ("made", 160, 80, 0)
    outscored = {"taker": "NS", "contract": 80, "trick_points": {"NS": 85},
                 "declarations": {"EW": 50}}
    assert hand("coinche", **outscored) == ("failed", 0, 290, 0)
    assert hand("coinche", {"beat_defence": False}, **outscored) == ("made", 170, 130, 0)


def test_decl_count_for_contract() -> None:
    """§9.1 decl_count_for_contract (FFB-C: "demande 100, réalise 83 points mais a
    une tierce, il a donc 103 points. Son contrat est donc réalisé")."""
    obj = {"taker": "NS", "contract": 100, "trick_points": {"NS": 83},
           "declarations": {"NS": 20}}
    assert hand("coinche", **obj) == ("made", 200, 80, 0)
    assert hand("coinche", {"decl_count_for_contract": False}, **obj) == ("failed", 0, 280, 0)


def test_belote_counts_for_the_contract() -> None:
    """§9.1 belote counts [D; FFB]: 76 + belote = 96 on 100 fails (tournoi
    international); 80 + belote = 100 is made."""
    fail = {"taker": "NS", "contract": 100, "trick_points": {"NS": 76}, "belote": "NS"}
    assert hand("contree", **fail) == ("failed", 0, 280, 0)  # contree: belote to defenders
    assert hand("coinche", **fail) == ("failed", 20, 260, 0)  # coinche: kept
    made = {"taker": "NS", "contract": 100, "trick_points": {"NS": 80}, "belote": "NS"}
    assert hand("contree", **made) == ("made", 200, 80, 0)


def test_failed_contract_gives_all_declarations_to_defenders() -> None:
    """§9.2 M=1 failed: defenders fail_base + C + A_d + A_t + B_d."""
    obj = {"taker": "NS", "contract": 120, "trick_points": {"NS": 90},
           "declarations": {"NS": 20}, "belote": "EW"}
    assert hand("coinche", **obj) == ("failed", 0, 320, 0)


def test_unbid_capot() -> None:
    """§9.2 unbid capot by takers: P = unbid_capot_points 250 [D] | 252 (FFB-K §9.2)."""
    obj = {"taker": "NS", "contract": 100, "capot": "NS"}
    assert totals("contree", **obj) == (252, 0)
    assert hand("contree", **obj) == ("made", 350, 0, 0)
    assert hand("contree", {"unbid_capot_points": 252, "rounding": "none"}, **obj) == (
        "made", 352, 0, 0)
    assert hand("contree", {"unbid_capot_points": 252}, **obj) == ("made", 352, 0, 0)
    assert hand("contree", **obj, belote="NS") == ("made", 370, 0, 0)


def test_unbid_capot_points_never_rounded() -> None:
    """§9.2 unbid capot: "instead of R(P) the takers score unbid_capot_points 250 [D] |
    252 (FFB-K §9.2), a fixed value that §10 never rounds (FFB-K: 252 + 120 = 372)"."""
    obj = {"taker": "NS", "contract": 120, "capot": "NS"}
    assert hand("contree", {"unbid_capot_points": 252}, **obj) == ("made", 372, 0, 0)
    for rounding in ("none", "nearest10_5up", "nearest10_6up"):
        opts = {"unbid_capot_points": 252, "rounding": rounding}
        assert hand("contree", opts, **obj) == ("made", 372, 0, 0)
        assert hand("coinche", opts, **obj) == ("made", 372, 0, 0)


@pytest.mark.parametrize(("value", "expected"), [
    ("kept", ("made", 350, 20, 0)),
    ("to_capot_team", ("made", 370, 0, 0)),
    ("void", ("made", 350, 0, 0)),
])
def test_unbid_capot_defenders_declarations(value: str, expected: Result) -> None:
    """§9.2 "defenders' declarations pass to takers (FFB-C)" is
    capot_loser_declarations = to_capot_team; the profile default is kept."""
    obj = {"taker": "NS", "contract": 100, "capot": "NS", "declarations": {"EW": 20}}
    assert hand("coinche", {"capot_loser_declarations": value}, **obj) == expected


def test_capot_by_defenders_against_a_contract() -> None:
    """§9.2 failed with a capot by the defenders: fail_base + C (250 is the base only
    after the takers' unbid capot)."""
    assert hand("contree", taker="NS", contract=80, capot="EW") == ("failed", 0, 240, 0)


def test_coinche_multipliers_whole() -> None:
    """§9.2 M≥2, double_scope = whole [D]: (base + C + A)×M; surcoinche counts
    surcoinche_factor 4 [D] | 3."""
    obj = {"taker": "NS", "contract": 100, "trick_points": {"NS": 117}}
    assert hand("contree", multiplier=2, **obj) == ("made", 520, 0, 0)
    assert hand("contree", multiplier=4, **obj) == ("made", 1040, 0, 0)
    assert hand("contree", {"surcoinche_factor": 3}, multiplier=4, **obj) == (
        "made", 780, 0, 0)
    failed = {"taker": "NS", "contract": 100, "trick_points": {"NS": 95}}
    assert hand("contree", multiplier=2, **failed) == ("failed", 0, 520, 0)


@pytest.mark.parametrize(("scope", "expected"), [
    ("whole", 620),  # (160 + 100 + 50) × 2
    ("contract_only", 410),  # 160 + 50 + 100 × 2
    ("forfeit", 520),  # 320 + 100 × 2
])
def test_double_scope(scope: str, expected: int) -> None:
    """§9.2 double_scope whole (FFB-C, FFB-W) | contract_only (PC, FFB-K note 1) |
    forfeit (FFB-K table); the loser scores 0."""
    obj = {"taker": "NS", "contract": 100, "trick_points": {"NS": 117},
           "declarations": {"NS": 50}, "multiplier": 2}
    assert hand("coinche", {"double_scope": scope}, **obj) == ("made", expected, 0, 0)


def test_contract_only_pagat_example() -> None:
    """§9.2 contract_only, PC: "160 + (100 × 2) = 360"."""
    obj = {"taker": "NS", "contract": 100, "trick_points": {"NS": 117}, "multiplier": 2}
    assert hand("contree", {"double_scope": "contract_only"}, **obj) == ("made", 360, 0, 0)


def test_belote_is_never_multiplied() -> None:
    """§9.2: "Belote is never multiplied (FFB "hors belote", Cannes)"; the loser keeps
    its own belote (§7.8 kept)."""
    ns = {"taker": "NS", "contract": 100, "trick_points": {"NS": 117}, "multiplier": 2}
    assert hand("coinche", belote="NS", **ns) == ("made", 540, 0, 0)
    assert hand("coinche", belote="EW", **ns) == ("made", 520, 20, 0)
    failed = {"taker": "NS", "contract": 100, "trick_points": {"NS": 75}, "multiplier": 4}
    assert hand("coinche", belote="NS", **failed) == ("failed", 20, 1040, 0)
    assert hand("contree", belote="NS", **failed) == ("failed", 0, 1060, 0)


def test_count_mode_made_only() -> None:
    """§9.3 count_mode = made_only (FFB-K option): made → each team R(P)+A+B;
    failed → defenders 160 + belote; contré 320, surcontré 640; capot 500/1000/2000."""
    opts = {"count_mode": "made_only"}
    assert hand("contree", opts, taker="NS", contract=110,
                trick_points={"NS": 117}) == ("made", 120, 50, 0)
    failed = {"taker": "NS", "contract": 120, "trick_points": {"NS": 117}}
    assert hand("contree", opts, **failed) == ("failed", 0, 160, 0)
    assert hand("contree", opts, belote="EW", **failed) == ("failed", 0, 180, 0)
    assert hand("contree", opts, multiplier=2, **failed) == ("failed", 0, 320, 0)
    assert hand("contree", opts, multiplier=4, **failed) == ("failed", 0, 640, 0)
    capot = {"taker": "NS", "contract": "capot", "capot": "NS"}
    assert [hand("contree", opts, multiplier=m, **capot)[1] for m in (1, 2, 4)] == [
        500, 1000, 2000]
    assert hand("contree", opts, taker="NS", contract=100, capot="NS") == ("made", 250, 0, 0)


def test_count_mode_bid_only() -> None:
    """§9.4 count_mode = bid_only (FFB-W, ASCEE): the winner scores C×M only."""
    opts = {"count_mode": "bid_only"}
    assert hand("contree", opts, taker="NS", contract=110,
                trick_points={"NS": 117}) == ("made", 110, 0, 0)
    assert hand("contree", opts, taker="NS", contract=120,
                trick_points={"NS": 117}) == ("failed", 0, 120, 0)
    assert hand("contree", opts, taker="EW", contract=120, multiplier=2,
                trick_points={"EW": 117}) == ("failed", 240, 0, 0)
    capot = {"taker": "NS", "contract": "capot", "capot": "NS"}  # C = 250 (§9)
    assert hand("contree", opts, **capot) == ("made", 250, 0, 0)
    assert hand("contree", {**opts, "bid_capot_scoring": "as_contract"}, **capot) == (
        "made", 250, 0, 0)
    # "only": no belote either
    assert hand("contree", opts, taker="NS", contract=110, belote="EW",
                trick_points={"NS": 117}) == ("made", 110, 0, 0)


def test_bid_capot_flat() -> None:
    """§9.2 bid_capot_scoring = flat [D; PC, FFB-W]: winner 500×M ("contré 1000,
    surcontré 2000"), capot_fail_value 500 [D] | 410; + belote."""
    made = {"taker": "NS", "contract": "capot", "capot": "NS"}
    assert hand("coinche", **made) == ("made", 500, 0, 0)
    assert hand("coinche", multiplier=2, **made) == ("made", 1000, 0, 0)
    assert hand("coinche", multiplier=4, **made) == ("made", 2000, 0, 0)
    assert hand("coinche", {"surcoinche_factor": 3}, multiplier=4, **made) == (
        "made", 1500, 0, 0)
    assert hand("coinche", belote="NS", **made) == ("made", 520, 0, 0)
    failed = {"taker": "NS", "contract": "capot", "trick_points": {"NS": 150}}
    assert hand("coinche", **failed) == ("failed", 0, 500, 0)
    assert hand("coinche", {"capot_fail_value": 410}, **failed) == ("failed", 0, 410, 0)
    assert hand("coinche", {"capot_fail_value": 410}, multiplier=2, **failed) == (
        "failed", 0, 820, 0)


def test_bid_capot_as_contract() -> None:
    """§9.2 bid_capot_scoring = as_contract (FFB-C/K text): §9.2 with C = 250."""
    opts = {"bid_capot_scoring": "as_contract"}
    made = {"taker": "NS", "contract": "capot", "capot": "NS", "declarations": {"NS": 20}}
    assert hand("coinche", opts, **made) == ("made", 520, 0, 0)  # R(252) + 20 + 250
    # a capot bid is no unbid capot: the base of a coinched hand stays 160 (§9.2)
    assert hand("coinche", opts, multiplier=2, **made) == ("made", 860, 0, 0)
    failed = {"taker": "NS", "contract": "capot", "trick_points": {"NS": 150}}
    assert hand("coinche", opts, **failed) == ("failed", 0, 410, 0)  # 160 + 250


def test_capot_doublable() -> None:
    """§4.6 capot_doublable = false: a capot bid cannot be coinched."""
    with pytest.raises(InvalidRecordError, match="capot_doublable"):
        hand("coinche", {"capot_doublable": False}, taker="NS", contract="capot",
             capot="NS", multiplier=2)


def test_generale() -> None:
    """§4.8/§9.2 générale: winner generale_value×M (coinche's 500 by its profile, 1000
    elsewhere); made iff capot by the taking team."""
    made = {"taker": "EW", "contract": "generale", "capot": "EW"}
    assert hand("coinche", **made) == ("made", 0, 500, 0)
    assert hand("coinche", multiplier=2, **made) == ("made", 0, 1000, 0)
    assert hand("coinche", {"generale_value": 1000}, **made) == ("made", 0, 1000, 0)
    # Chosen in contrée (off by its profile), the générale is worth the text's 1000.
    assert hand("contree", {"generale": True}, **made) == ("made", 0, 1000, 0)
    failed = {"taker": "EW", "contract": "generale", "trick_points": {"EW": 152}}
    assert hand("coinche", belote="EW", **failed) == ("failed", 500, 20, 0)
    with pytest.raises(InvalidRecordError, match="generale"):
        hand("contree", **made)


def test_belote_on_failure_profiles() -> None:
    """§7.8 belote_on_failure kept [D coinche; FFB-C] | defenders [D contree; FFB-K §7]."""
    obj = {"taker": "NS", "contract": 120, "trick_points": {"NS": 90}, "belote": "NS"}
    assert hand("coinche", **obj) == ("failed", 20, 280, 0)
    assert hand("contree", **obj) == ("failed", 0, 300, 0)
    assert hand("contree", {"belote_on_failure": "kept"}, **obj) == ("failed", 20, 280, 0)


def test_max_bid_unbounded() -> None:
    """§4.3 max_bid null: any multiple of 10 from 80; 300 cannot be made without 300 points."""
    obj = {"taker": "NS", "contract": 300, "capot": "NS"}
    assert hand("contree", {"max_bid": None}, **obj) == ("failed", 0, 460, 0)


# --- entry checks ------------------------------------------------------------------------

ERRORS: list[tuple[str, dict[str, Any], dict[str, Any], str]] = [
    ("classic", {}, {"taker": "NS", "trick_points": {"NS": 163}},
     r"trick_points\.NS: 163 is outside 0\.\.162"),
    ("classic", {}, {"taker": "NS", "trick_points": {"NS": 100, "EW": 70}},
     "100 \\+ 70 does not add to 162"),
    ("classic", {}, {"taker": "NS", "trick_points": {"NS": -1}}, r"trick_points\.NS: -1 is neg"),
    ("classic", {}, {"taker": "NS", "capot": "NS", "trick_points": {"EW": 20}},
     r"trick_points\.EW: 20 with a capot by NS"),
    ("classic", {}, {"taker": "NS", "capot": "NS", "trick_points": {"NS": 100}},
     r"trick_points\.NS: 100 with a capot by NS"),
    ("classic", {}, {"taker": "NS"}, "trick_points: required"),
    ("classic", {}, {"taker": "NS", "trick_points": {"NS": 92},
                     "declarations": {"NS": 20, "EW": 50}}, "declarations: both teams"),
    ("classic", {}, {"taker": "NS", "trick_points": {"NS": 92}, "declarations": {"NS": -20}},
     r"declarations\.NS: -20 is negative"),
    ("classic", {}, {"taker": "NS", "trick_points": {"NS": 92}, "declarations": {"NS": 25}},
     r"declarations\.NS: 25 is not a sum"),
    ("classic", {}, {"taker": "NS", "trick_points": {"NS": 92}, "declarations": {"EW": 30}},
     r"declarations\.EW: 30 is not a sum"),
    ("contree", {}, {"taker": "NS", "contract": 80, "trick_points": {"NS": 92},
                     "declarations": {"NS": 20}}, "without declarations"),
    ("classic", {}, {"taker": "NS", "trick_points": {"NS": 92}, "belote": {"NS": 40}},
     r"belote\.NS: 40 is not 0 or 20"),
    ("classic", {}, {"taker": "NS", "trick_points": {"NS": 92},
                     "belote": {"NS": 20, "EW": 20}}, "both teams have belote"),
    ("classic", {"sa_ta_in_classic": True},
     {"taker": "NS", "trump": "TA", "trick_points": {"NS": 92}, "belote": {"NS": 100}},
     "more than 80"),
    ("classic", {"sa_ta_in_classic": True},
     {"taker": "NS", "trump": "TA", "trick_points": {"NS": 92}, "belote": {"NS": 30}},
     "not a multiple of 20"),
    ("classic", {}, {"taker": "NS", "trick_points": {"NS": 92}, "contract": 80},
     "contract: 80: classic has no contract"),
    ("classic", {}, {"taker": "NS", "trick_points": {"NS": 92}, "multiplier": 2},
     "multiplier: 2: classic has no coinche"),
    ("coinche", {}, {"taker": "NS", "trick_points": {"NS": 92}}, "contract: required"),
    ("coinche", {}, {"taker": "NS", "trick_points": {"NS": 92}, "contract": 85},
     r"contract: 85 is not a multiple of 10 in 80\.\.250"),
    ("coinche", {}, {"taker": "NS", "trick_points": {"NS": 92}, "contract": 70},
     "contract: 70 is not"),
    ("coinche", {}, {"taker": "NS", "trick_points": {"NS": 92}, "contract": 260},
     "contract: 260 is not"),
    ("contree", {}, {"taker": "NS", "trick_points": {"NS": 92}, "contract": 170},
     r"contract: 170 is not a multiple of 10 in 80\.\.160"),
    ("contree", {}, {"taker": "NS", "trick_points": {"NS": 92}, "contract": "slam"},
     "contract: 'slam' is not"),
    ("contree", {}, {"taker": "NS", "trick_points": {"NS": 92}, "contract": True},
     "contract: True is not"),
    ("contree", {}, {"taker": "NS", "trick_points": {"NS": 92}, "contract": 80,
                     "multiplier": 3}, "multiplier: 3 is not 1, 2"),
    ("contree", {}, {"taker": "NS", "trick_points": {"NS": 92}, "contract": 80,
                     "multiplier": True}, "multiplier: True is not"),
    ("contree", {}, {"taker": "NS", "trick_points": {"NS": 92}, "contract": 80,
                     "reserve": 81}, "reserve: 81: contree has no litige"),
    ("classic", {}, {"taker": "NS", "trick_points": {"NS": 92}, "reserve": -5},
     "reserve: -5 is not"),
    ("classic", {}, {"taker": "NS", "trick_points": {"NS": True}},
     r"trick_points\.NS: True is not a whole number"),
    ("classic", {}, {"taker": "NS", "trick_points": {"NS": 92.0}},
     r"trick_points\.NS: 92.0 is not a whole number"),
    ("classic", {}, {"taker": "NS", "trick_points": [92, 70]}, "trick_points: \\[92, 70\\]"),
    ("classic", {}, {"taker": "NS", "trick_points": {"NE": 92}}, "trick_points: 'NE' is not NS"),
    ("classic", {}, {"taker": "N", "trick_points": {"NS": 92}}, "taker: 'N' is not NS or EW"),
    ("classic", {}, {"trick_points": {"NS": 92}}, "taker: required"),
    ("classic", {}, {"taker": "NS", "trick_points": {"NS": 92}, "capot": "X"},
     "capot: 'X' is not NS or EW"),
    ("classic", {}, {"taker": "NS", "trick_points": {"NS": 92}, "belote": "yes"},
     "belote: 'yes' is not NS or EW"),
    ("classic", {}, {"taker": "NS", "trick_points": {"NS": 92}, "belote": 20},
     "belote: 20 is not NS, EW, null"),
    ("classic", {}, {"taker": "NS", "trick_points": {"NS": 92}, "trump": "X"},
     "trump: 'X' is not S, H"),
    ("classic", {}, {"taker": "NS", "trick_points": {"NS": 92}, "trump": "TA"},
     "trump: 'TA' is not played here \\(option sa_ta_in_classic"),
    ("coinche", {}, {"taker": "NS", "trick_points": {"NS": 92}, "trump": "SA",
                     "contract": 80}, "option sa_ta is false"),
    ("classic", {}, {"taker": "NS", "trick_points": {"NS": 92}, "points": 3},
     "unknown key 'points'"),
]


@pytest.mark.parametrize(("profile", "options", "obj", "message"), ERRORS)
def test_entry_checks(profile: str, options: dict[str, Any], obj: dict[str, Any],
                      message: str) -> None:
    """Impossible entries are refused naming the field (§8.6, §7.6, §7.7, §4.3, §4.7)."""
    with pytest.raises(InvalidRecordError, match=message) as info:
        score_hand_json({"profile": profile, "options": options, **obj})
    assert str(info.value).startswith("hand: ")


def test_bad_profile_or_option() -> None:
    """docs/json.md: an unknown profile or option is an error."""
    with pytest.raises(OptionError, match="unknown profile"):
        score_hand_json({"profile": "bridge", "taker": "NS", "trick_points": {"NS": 92}})
    with pytest.raises(OptionError, match="tie_rule"):
        score_hand_json({"options": {"tie_rule": "coin"}, "taker": "NS",
                         "trick_points": {"NS": 92}})
    with pytest.raises(InvalidRecordError, match="expected a JSON object"):
        score_hand_json([1, 2])


def test_entry_profile_must_match_the_rules() -> None:
    """docs/json.md `sheet add`: a HandEntry naming other rules than those in force (a
    score sheet's) is refused; a sheet carries the reserve itself (§8.4)."""
    rules = make_rules("classic")
    obj = {"profile": "classic", "taker": "NS", "trick_points": {"NS": 92}}
    assert parse_hand_entry(obj, rules) == HandEntry(NS, (92, 70))
    with pytest.raises(InvalidRecordError, match="differ from the rules in force"):
        parse_hand_entry({**obj, "options": {"tie_rule": "fail"}}, rules)
    with pytest.raises(InvalidRecordError, match="reserve: 40: not given here"):
        parse_hand_entry({**obj, "reserve": 40}, rules, allow_reserve=False)


def test_score_hand_checks_entries_built_in_code() -> None:
    """§8.6/§7.6: score_hand refuses an impossible HandEntry built in code as well."""
    rules = make_rules("classic")
    with pytest.raises(InvalidRecordError, match="does not add to 162"):
        score_hand(rules, HandEntry(NS, (100, 100)))
    with pytest.raises(InvalidRecordError, match="taker"):
        score_hand(rules, HandEntry(2, (100, 62)))
    with pytest.raises(InvalidRecordError, match="trump"):
        check_hand_entry(rules, HandEntry(NS, (100, 62), trump=7))
    with pytest.raises(InvalidRecordError, match="capot"):
        check_hand_entry(rules, HandEntry(NS, (100, 62), capot=True))


def test_json_forms() -> None:
    """docs/json.md HandScore output and the HandEntry JSON form (round trip)."""
    out = score_hand_json({"taker": "NS", "trick_points": {"NS": 92}})
    assert out == {"outcome": "made", "totals": {"NS": 92, "EW": 70},
                   "score": {"NS": 92, "EW": 70}, "reserve": 0}
    assert void_hand(81).to_json() == {"outcome": "void", "totals": {"NS": 0, "EW": 0},
                                       "score": {"NS": 0, "EW": 0}, "reserve": 81}
    rules = make_rules("coinche")
    entry = HandEntry(EW, (40, 122), declarations=(0, 50), belote=(20, 0), contract=110,
                      trump=HEARTS, multiplier=2)
    js = hand_entry_to_json(entry)
    assert js == {"taker": "EW", "trick_points": {"NS": 40, "EW": 122}, "capot": None,
                  "declarations": {"NS": 0, "EW": 50}, "belote": "NS", "contract": 110,
                  "multiplier": 2, "trump": "H"}
    assert parse_hand_entry(js, rules) == entry
    lower = {"taker": "ew", "trick_points": {"ns": 40}, "contract": "CAPOT", "trump": "h"}
    assert parse_hand_entry(lower, rules).contract == "capot"


# --- §11 the game ------------------------------------------------------------------------


def entry(taker: int, ns_points: int, **kw: Any) -> HandEntry:
    return HandEntry(taker, (ns_points, 162 - ns_points), **kw)


def test_reach_rule() -> None:
    """§11.2 reach_rule = reach_or_exceed [D; FFB] | strictly_exceed (BGA)."""
    hands = [entry(NS, 100), entry(NS, 100)]
    game = score_game(make_rules("classic"), hands, target=200)
    assert (game.finished, game.winner, game.totals) == (True, NS, (200, 124))
    strict = make_rules("classic", {"reach_rule": "strictly_exceed"})
    game = score_game(strict, hands, target=200)
    assert (game.finished, game.winner) == (False, None)
    game = score_game(strict, [*hands, entry(EW, 62)], target=200)
    assert (game.finished, game.winner, game.totals) == (True, NS, (262, 224))


def test_hand_after_the_end_is_an_error() -> None:
    """docs/json.md: "A hand entered after the game is finished is an error"."""
    hands = [entry(NS, 100), entry(NS, 100), entry(NS, 100)]
    with pytest.raises(InvalidRecordError,
                       match=r"^hand 3: the game was already won after hand 2$"):
        score_game(make_rules("classic"), hands, target=200)


def test_running_totals_and_reserve_across_hands() -> None:
    """§8.4 the reserve is carried from a litige to the next non-tied hand."""
    game = score_game(make_rules("classic"), [entry(NS, 81), entry(EW, 81), entry(NS, 92)])
    assert [h.outcome for h in game.hands] == ["litige", "litige", "made"]
    assert [h.reserve for h in game.hands] == [81, 162, 0]
    assert game.running == ((0, 81), (81, 81), (81 + 92 + 162, 81 + 70))
    assert game.to_json()["running"][-1] == {"NS": 335, "EW": 151}
    with pytest.raises(InvalidRecordError, match="hand 2: reserve: 40 is not the reserve"):
        score_game(make_rules("classic"), [entry(NS, 81), entry(NS, 92, reserve=40)])


def test_game_reserve_discarded_at_the_end() -> None:
    """§8.4: "Game ending with a reserve open: reserve discarded"."""
    game = score_game(make_rules("classic"), [entry(NS, 81)], target=80)
    assert (game.finished, game.winner, game.reserve) == (True, EW, 0)
    assert game.hands[0].reserve == 81


def test_both_cross_higher_total() -> None:
    """§11.3 both_cross = higher_total [D; S2]: "If both teams pass it on the same
    hand, the higher total wins; if they are exactly equal, a deciding hand is played"."""
    rules = make_rules("classic")
    game = score_game(rules, [entry(NS, 92)], target=70)
    assert (game.finished, game.winner) == (True, NS)
    tied = make_rules("classic", {"tie_rule": "made"})
    game = score_game(tied, [entry(NS, 81)], target=81)
    assert (game.finished, game.winner, game.totals) == (False, None, (81, 81))
    assert game.to_json()["winner"] is None
    game = score_game(tied, [entry(NS, 81), entry(EW, 100)], target=81)
    assert (game.finished, game.winner) == (True, NS)


@pytest.mark.parametrize(("value", "finished", "winner"), [
    ("higher_total", True, NS),
    ("taker_must_make", True, EW),
    ("draw", True, None),
])
def test_both_cross_when_the_taker_failed(value: str, finished: bool,
                                          winner: int | None) -> None:
    """§11.3: NS (higher total) failed the hand that took both past the target:
    higher_total → NS; taker_must_make (S0 "the attacking team must also have made
    its contract") → EW; draw (PB "the game is drawn") → no winner."""
    rules = make_rules("classic", {"both_cross": value})
    hands = [entry(NS, 155), entry(NS, 50, belote=(20, 0))]
    game = score_game(rules, hands, target=160)
    assert game.totals == (175, 169)
    assert (game.finished, game.winner) == (finished, winner)


def test_taker_must_make_when_the_taker_made() -> None:
    """§11.3 taker_must_make: takers who made: the higher total wins."""
    rules = make_rules("classic", {"both_cross": "taker_must_make"})
    game = score_game(rules, [entry(NS, 100), entry(EW, 60)], target=150)
    assert (game.finished, game.winner, game.totals) == (True, EW, (160, 164))
    game = score_game(rules, [entry(NS, 92), entry(EW, 70)], target=150)
    assert game.totals == (162, 162)
    assert (game.finished, game.winner) == (False, None)


def test_draw_is_refused_further_hands() -> None:
    """§11.3 both_cross = draw: a drawn game takes no further hand (docs/json.md)."""
    rules = make_rules("classic", {"both_cross": "draw"})
    with pytest.raises(InvalidRecordError, match="already ended \\(a draw\\) after hand 1"):
        score_game(rules, [entry(NS, 92), entry(NS, 92)], target=70)


@pytest.mark.parametrize(("value", "finished"), [
    ("off", True), ("capot", False), ("capot_or_failed", False),
])
def test_no_win_on_belote_capot(value: str, finished: bool) -> None:
    """§11.4 no_win_on_belote capot (FFB-W: a team made capot cannot win on its
    belote alone): NS reach 272 ≥ 270 only with the belote of a hand where EW
    made capot."""
    rules = make_rules("classic", {"no_win_on_belote": value})
    hands = [HandEntry(NS, (252, 0), capot=NS), HandEntry(EW, (0, 252), capot=EW,
                                                          belote=(20, 0))]
    game = score_game(rules, hands, target=270)
    assert game.totals == (272, 252)
    assert (game.finished, game.winner) == (finished, NS if finished else None)


@pytest.mark.parametrize(("value", "finished"), [
    ("off", True), ("capot", True), ("capot_or_failed", False),
])
def test_no_win_on_belote_failed(value: str, finished: bool) -> None:
    """§11.4 capot_or_failed (FFB-C): failed takers cannot win on their belote alone."""
    rules = make_rules("classic", {"no_win_on_belote": value})
    hands = [HandEntry(NS, (252, 0), capot=NS), entry(NS, 50, belote=(20, 0))]
    game = score_game(rules, hands, target=270)
    assert game.totals == (272, 162)
    assert game.finished is finished


@pytest.mark.parametrize(("target", "finished"), [(300, True), (310, False)])
def test_no_win_on_belote_points_beyond_the_belote(target: int, finished: bool) -> None:
    """§11.4: a capot team that reaches the target without its belote (here with
    its kept declarations, §8.5) still wins; with only the belote it does not."""
    rules = make_rules("classic", {"no_win_on_belote": "capot"})
    hands = [HandEntry(NS, (252, 0), capot=NS),
             HandEntry(EW, (0, 252), capot=EW, declarations=(50, 0), belote=(20, 0))]
    game = score_game(rules, hands, target=target)
    assert game.totals == (322, 252)
    assert (game.finished, game.winner) == (finished, NS if finished else None)


def test_limit_deals() -> None:
    """§11.1 limit = deals (FFB-B §10.4): target is the number of deals; all-pass
    deals are not counted (§2.4)."""
    rules = make_rules("classic", {"limit": "deals", "target": 2})
    tally = GameTally(rules)
    tally.add(entry(NS, 100))
    assert tally.add_all_pass().outcome == "void"
    assert not tally.finished
    tally.add(entry(EW, 60))
    assert (tally.finished, tally.winner, tally.totals) == (True, EW, (160, 164))
    game = tally.result()
    assert [h.outcome for h in game.hands] == ["made", "void", "made"]
    with pytest.raises(InvalidRecordError, match="hand 4: the game was already won after "
                                                 "hand 3"):
        tally.add(entry(NS, 100))


def test_limit_deals_litige_on_the_last_deal() -> None:
    """§8.4: "Deal-limited match, litige on last deal: each team scores its own points"."""
    rules = make_rules("classic", {"limit": "deals", "target": 3})
    game = score_game(rules, [entry(NS, 100), entry(EW, 81), entry(NS, 81)])
    assert [(h.outcome, h.score, h.reserve) for h in game.hands] == [
        ("made", (100, 62), 0), ("litige", (81, 0), 81), ("litige", (81, 81), 0)]
    assert (game.finished, game.winner, game.totals, game.reserve) == (
        True, NS, (262, 143), 0)


@pytest.mark.parametrize(("value", "finished"), [("higher_total", False), ("draw", True)])
def test_limit_deals_equal_totals(value: str, finished: bool) -> None:
    """§11.3 with a deal limit: equal totals after the last deal play on (or a draw)."""
    rules = make_rules("classic", {"limit": "deals", "target": 1, "both_cross": value,
                                   "tie_rule": "made"})
    game = score_game(rules, [entry(NS, 81)])
    assert (game.finished, game.winner) == (finished, None)
    if not finished:
        game = score_game(rules, [entry(NS, 81), entry(NS, 81)])
        assert not game.finished
        game = score_game(rules, [entry(NS, 81), entry(NS, 81), entry(EW, 80)])
        assert (game.finished, game.winner) == (True, EW)


def contree_110_on_117() -> HandEntry:
    return HandEntry(NS, (117, 45), contract=110)


@pytest.mark.parametrize(("round_final", "target", "finished", "totals_"), [
    (True, 230, True, (230, 50)),    # FFB-K 2016: rounded points may win
    (False, 230, False, (227, 45)),  # the final hand is counted exactly: 227 < 230
    (False, 200, True, (227, 45)),   # exact both ways: the exact points are kept
    (True, 200, True, (230, 50)),
])
def test_round_final_hand(round_final: bool, target: int, finished: bool,
                          totals_: tuple[int, int]) -> None:
    """§10 round_final_hand = true [D; FFB-K "rounded points may win"] | false
    (Équipe-Ludique: "une exception est faite sur la dernière partie où les points
    sont notés sans arrondis")."""
    rules = make_rules("contree", {"round_final_hand": round_final})
    game = score_game(rules, [contree_110_on_117()], target=target)
    assert (game.finished, game.totals) == (finished, totals_)


def test_round_final_hand_exact_points_end_the_game() -> None:
    """§10 round_final_hand = false: 114 → 110 rounded would not reach 222, the exact
    114 + 110 = 224 does: the hand is the last and counted exactly."""
    entry_ = HandEntry(NS, (114, 48), contract=110)
    exact = make_rules("contree", {"round_final_hand": False})
    game = score_game(exact, [entry_], target=222)
    assert (game.finished, game.winner, game.totals) == (True, NS, (224, 48))
    rounded = make_rules("contree")
    game = score_game(rounded, [entry_], target=222)
    assert (game.finished, game.totals) == (False, (220, 50))


def test_rounding_may_win_classic_ffb_example() -> None:
    """§10, FFB-B §10.4.2: "910 points et réalise 85 points, elle marque 90, ce qui
    mène son score à 1000. Elle remporte la partie" (target shifted by 910)."""
    rules = make_rules("classic", {"rounding": "nearest10_5up"})
    game = score_game(rules, [entry(NS, 85)], target=90)
    assert (game.finished, game.winner, game.totals) == (True, NS, (90, 80))


def test_profile_targets() -> None:
    """§11.1 target: classic/moroccan 1000, coinche/contree 2000 (profile table)."""
    assert GameTally(make_rules("classic")).target == 1000
    assert GameTally(make_rules("moroccan")).target == 1000
    assert GameTally(make_rules("coinche")).target == 2000
    assert GameTally(make_rules("contree", {"target": 1500})).target == 1500
    with pytest.raises(InvalidRecordError, match="target"):
        GameTally(make_rules("classic"), target=0)


def test_game_status_direct() -> None:
    """§11.2-11.3 game_status on totals alone."""
    rules = make_rules("classic")
    assert game_status(rules, (999, 0), 1000) == (False, None)
    assert game_status(rules, (1000, 0), 1000) == (True, NS)
    assert game_status(rules, (1001, 1002), 1000) == (True, EW)
    assert game_status(rules, (1002, 1002), 1000) == (False, None)


def test_score_game_json() -> None:
    """docs/json.md `score game`: output keys, the profile's target by default."""
    out = score_game_json({
        "profile": "classic", "target": 150,
        "hands": [{"taker": "NS", "trick_points": {"NS": 92}},
                  {"taker": "EW", "trick_points": {"EW": 92}, "belote": "EW"}],
    })
    assert out == {
        "hands": [
            {"outcome": "made", "totals": {"NS": 92, "EW": 70},
             "score": {"NS": 92, "EW": 70}, "reserve": 0},
            {"outcome": "made", "totals": {"NS": 70, "EW": 112},
             "score": {"NS": 70, "EW": 112}, "reserve": 0},
        ],
        "running": [{"NS": 92, "EW": 70}, {"NS": 162, "EW": 182}],
        "totals": {"NS": 162, "EW": 182}, "reserve": 0, "finished": True, "winner": "EW",
    }
    rules, entries, target = parse_game({"profile": "coinche", "hands": []})
    assert (rules.profile, entries, target) == ("coinche", [], None)


@pytest.mark.parametrize(("obj", "message"), [
    ({"hands": [], "score": 1}, "game: unknown key 'score'"),
    ({"hands": {}}, "game: hands: {} is not a list"),
    ({}, "game: hands: None is not a list"),
    ({"hands": [], "target": -1}, "game: target: -1"),
    ({"hands": [], "target": True}, "game: target: True"),
    ({"hands": [{"taker": "NS", "trick_points": {"NS": 92}, "profile": "classic"}]},
     "hand 1: 'profile' belongs at the top level"),
    ({"hands": [{"taker": "NS", "trick_points": {"NS": 92}}, {"taker": "NS"}]},
     "hand 2: trick_points: required"),
    ({"hands": [{"taker": "NS", "trick_points": {"NS": 92}, "reserve": 10}]},
     "hand 1: reserve: 10: not given here"),
    ({"hands": [7]}, "hand 1: expected a JSON object"),
    ([], "game: expected a JSON object"),
])
def test_parse_game_errors(obj: Any, message: str) -> None:
    """docs/json.md `score game` input: errors name the key and the hand."""
    with pytest.raises(BeloteError, match=message):
        score_game_json(obj)


# --- properties ------------------------------------------------------------------------------

DECL_VALUES = (20, 40, 50, 70, 100, 120, 150, 200, 250)


@st.composite
def classic_entries(draw: st.DrawFn) -> HandEntry:
    taker = draw(st.sampled_from((NS, EW)))
    capot = draw(st.sampled_from((None, None, None, NS, EW)))
    if capot is None:
        ns = draw(st.integers(0, 162))
        points = (ns, 162 - ns)
    else:
        points = (252, 0) if capot == NS else (0, 252)
    decl = [0, 0]
    decl_team = draw(st.sampled_from((None, NS, EW)))
    if decl_team is not None:
        decl[decl_team] = draw(st.sampled_from(DECL_VALUES))
    belote = [0, 0]
    belote_team = draw(st.sampled_from((None, NS, EW)))
    if belote_team is not None:
        belote[belote_team] = 20
    reserve = draw(st.sampled_from((0, 0, 81, 91, 162)))
    return HandEntry(taker, points, capot, (decl[0], decl[1]), (belote[0], belote[1]),
                     reserve=reserve)


def mirror(e: HandEntry) -> HandEntry:
    def swap(p: tuple[int, ...]) -> tuple[int, int]:
        return (p[1], p[0])
    assert e.taker is not None
    return dataclasses.replace(
        e, taker=1 - e.taker, trick_points=swap(e.trick_points),
        capot=None if e.capot is None else 1 - e.capot,
        declarations=swap(e.declarations), belote=swap(e.belote))


CLASSIC = make_rules("classic")


@given(classic_entries())
def test_classic_properties(e: HandEntry) -> None:
    """§8 for random valid entries: scores never negative; made → each team its
    total (+ the reserve to the takers); failed → the takers keep only their
    belote; litige → reserve += T_takers − belote; outcome by the totals."""
    s = score_hand(CLASSIC, e)
    assert e.taker is not None
    t, d = e.taker, 1 - e.taker
    assert min(s.score) >= 0 and s.reserve >= 0
    if s.totals[t] > s.totals[d]:
        assert s.outcome == "made"
        expected = [s.totals[0], s.totals[1]]
        expected[t] += e.reserve
        assert s.score == tuple(expected) and s.reserve == 0
    elif s.totals[t] < s.totals[d]:
        assert s.outcome == "failed"
        assert s.score[t] == e.belote[t] and s.reserve == 0
    else:
        assert s.outcome == "litige"
        assert s.reserve == e.reserve + s.totals[t] - e.belote[t]
        assert s.score == ((e.belote[0], s.totals[1]) if t == NS else (s.totals[0],
                                                                       e.belote[1]))


@given(classic_entries())
def test_classic_points_are_conserved(e: HandEntry) -> None:
    """§8 with the default options no point is created or lost: what is scored plus
    what goes to the reserve equals the trick points (162, or 252 with a capot),
    every declaration, every belote, and the reserve taken in."""
    s = score_hand(CLASSIC, e)
    assume(not (s.outcome == "failed" and e.capot == e.taker))  # capot team out-declared
    trick = 252 if e.capot is not None else 162
    assert (sum(s.score) + s.reserve == trick + sum(e.declarations) + sum(e.belote)
            + e.reserve)


@given(classic_entries())
def test_classic_mirror_and_round_trip(e: HandEntry) -> None:
    """§8: swapping the teams swaps the score; the docs/json.md HandEntry JSON reads
    back to the same entry."""
    s, m = score_hand(CLASSIC, e), score_hand(CLASSIC, mirror(e))
    assert m.outcome == s.outcome and m.reserve == s.reserve
    assert m.score == (s.score[1], s.score[0]) and m.totals == (s.totals[1], s.totals[0])
    assert parse_hand_entry(hand_entry_to_json(e), CLASSIC) == e


@st.composite
def auction_cases(draw: st.DrawFn) -> tuple[str, dict[str, Any], HandEntry]:
    profile = draw(st.sampled_from(("coinche", "contree")))
    options = {
        "count_mode": draw(st.sampled_from(("made_plus_bid", "made_only", "bid_only"))),
        "double_scope": draw(st.sampled_from(("whole", "contract_only", "forfeit"))),
        "rounding": draw(st.sampled_from(("none", "nearest10_5up", "nearest10_6up"))),
        "bid_capot_scoring": draw(st.sampled_from(("flat", "as_contract"))),
        "belote_on_failure": draw(st.sampled_from(("kept", "defenders"))),
    }
    e = draw(classic_entries())
    if profile == "contree":
        e = dataclasses.replace(e, declarations=(0, 0))
    contracts: tuple[int | str, ...] = ("capot", *range(80, 170, 10))
    if profile == "coinche":
        contracts = (*contracts, "generale")
    contract = draw(st.sampled_from(contracts))
    multiplier = draw(st.sampled_from((1, 2, 4)))
    return profile, options, dataclasses.replace(e, reserve=0, contract=contract,
                                                 multiplier=multiplier)


@given(auction_cases())
def test_auction_properties(case: tuple[str, dict[str, Any], HandEntry]) -> None:
    """§9: scores never negative; failed takers keep at most their belote (§7.8);
    made takers under made_plus_bid score at least the contract; rounding never
    makes a contract (§9.1); swapping teams swaps the score."""
    profile, options, e = case
    rules = make_rules(profile, options)
    s = score_hand(rules, e)
    t = e.taker
    assert t is not None
    assert min(s.score) >= 0 and s.reserve == 0
    if s.outcome == "failed":
        kept = rules.belote_on_failure == "kept" and rules.count_mode != "bid_only"
        assert s.score[t] == (e.belote[t] if kept else 0)
    elif rules.count_mode == "made_plus_bid" and isinstance(e.contract, int):
        assert s.score[t] >= e.contract
    exact = score_hand(dataclasses.replace(rules, rounding=Rounding.NONE), e)
    assert exact.outcome == s.outcome
    m = score_hand(rules, mirror(e))
    assert m.score == (s.score[1], s.score[0]) and m.outcome == s.outcome
    assert parse_hand_entry(hand_entry_to_json(e), rules) == e


@given(st.lists(classic_entries(), min_size=1, max_size=12))
def test_game_properties(entries: list[HandEntry]) -> None:
    """§11: running totals never go down; the game ends exactly when a team reaches
    the target, the winner being the team past it (the higher when both are)."""
    rules = make_rules("classic")
    tally = GameTally(rules, target=500)
    for e in entries:
        if tally.finished:
            with pytest.raises(InvalidRecordError, match="already won"):
                tally.add(dataclasses.replace(e, reserve=0))
            break
        before = tally.totals
        tally.add(dataclasses.replace(e, reserve=0))
        assert tally.totals[0] >= before[0] and tally.totals[1] >= before[1]
        over = [total >= 500 for total in tally.totals]
        if tally.finished:
            assert tally.winner is not None and over[tally.winner]
            assert tally.totals[tally.winner] > tally.totals[1 - tally.winner] or not all(
                over)
            assert tally.reserve == 0
        else:
            assert not any(over) or tally.totals[0] == tally.totals[1]



def test_doctests() -> None:
    """The examples in the module's docstrings (§8.3 seed 002, §10, §11) run as written."""
    failures = tried = 0
    for module in (belote.scoring, *(importlib.import_module(f"belote.scoring.{name}")
                                     for name in ("values", "arithmetic", "checks", "codec",
                                                  "game"))):
        result = doctest.testmod(module)
        failures, tried = failures + result.failed, tried + result.attempted
    assert failures == 0 and tried > 5


def test_5_4_12_scaled_ta_totals_of_a_partial_pack() -> None:
    """§5.4 with §12 (six_each / stock: the cards played + 10): in scaled tout-atout
    the trick total and the capot value are scaled like the sides' points; elsewhere
    they are as entered, and a whole pack keeps 162 / 252."""
    ta = make_rules("classic-3p", {"sa_ta_in_classic": True, "ta_values": "scaled",
                                   "three_deal": "six_each"})
    failed = HandEntry(taker=NS, trick_points=(23, 207), trump=ALL_TRUMP, in_play=230)
    assert scored_totals(ta, failed) == (144, 234)  # 230 x 162/258 = 144.4
    score = score_hand(ta, failed)
    assert score.outcome == "failed" and score.score == (0, 144)
    plain = make_rules("classic-3p", {"three_deal": "six_each"})
    assert scored_totals(plain, HandEntry(taker=NS, trick_points=(60, 90), in_play=150)) == (
        150, 240)
    assert scored_totals(ta, HandEntry(taker=NS, trick_points=(100, 158), trump=ALL_TRUMP)) == (
        162, 252)
    assert capot_trick_points(ta, ALL_TRUMP) == 348 and capot_trick_points(ta, 0) == 252
