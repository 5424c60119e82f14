"""The scoring package (src/belote/scoring): one entry type at every table, a hand's
score as a breakdown the faces print, one rule for the most a side can declare
(docs/rules.md §7, §8–§12)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import belote.scoring
from belote.cards import ACE, JACK, NINE, NO_TRUMP, QUEEN, RANK_MASKS, TEN, parse_card
from belote.cli.questions import parse_declarations
from belote.declarations import best_announcement, carre_points
from belote.errors import BeloteError, InvalidRecordError
from belote.options import make_rules
from belote.scoring import (
    DECLARATION_MAX,
    HandEntry,
    Outcome,
    SeatEntry,
    Term,
    check_entry,
    declaration_max,
    entry_to_json,
    parse_entry,
    score_hand,
)
from belote.web.forms import check_declaration
from belote.web.present import score_calculation

PACKAGE = Path(belote.scoring.__file__).parent


def test_no_module_of_the_package_is_long() -> None:
    """Each module of the package stays readable on its own (about 600 lines at most)."""
    for module in PACKAGE.glob("*.py"):
        lines = module.read_text(encoding="utf-8").count("\n")
        assert lines <= 600, f"{module.name}: {lines} lines"


# --- the most a side can declare (§7) -----------------------------------------------------


def test_declaration_max_is_the_four_best_carres() -> None:
    """550: a player announces from his own eight cards, which hold two carrés at most;
    a team's two hands hold at most the four best: jacks 200 + nines 150 + two of 100
    (aces and tens), in sans-atout aces 200 + tens 150 + two of 100.  The engine's own
    declarations of two such hands make exactly that."""
    for trump, ranks in ((0, (JACK, NINE, ACE, TEN)), (NO_TRUMP, (ACE, TEN, JACK, QUEEN))):
        assert sum(carre_points(r, trump) for r in ranks) == DECLARATION_MAX == 550
    rules = make_rules("classic")
    first = RANK_MASKS[JACK] | RANK_MASKS[NINE]
    second = RANK_MASKS[ACE] | RANK_MASKS[TEN]
    team = sum(d.points for hand in (first, second)
               for d in best_announcement(hand, rules, 0))
    assert team == 550
    assert declaration_max(rules) == declaration_max(make_rules("coinche")) == 550
    assert declaration_max(make_rules("classic", {"card_reuse": True})) == 550
    assert declaration_max(make_rules("classic-3p")) == 550


def test_declaration_max_with_card_reuse_at_three() -> None:
    """With card_reuse a carré's cards count in a sequence too (§7.3): one hand of ten
    holds 400 (carrés of jacks and nines, and the cinquante 9-10-J-Q of one suit), so
    the two defenders of a table of three may go over 550; their limit is two such
    hands."""
    rules = make_rules("classic-3p", {"card_reuse": True, "three_deal": "kitty"})
    hand = (RANK_MASKS[JACK] | RANK_MASKS[NINE] | 1 << parse_card("TS")
            | 1 << parse_card("QS"))
    assert sum(d.points for d in best_announcement(hand, rules, 0)) == 400
    assert declaration_max(rules) == 800
    entry = SeatEntry(3, 0, (20, 72, 70), declarations=(0, 400, 240))
    check_entry(rules, entry)  # 640 for the defenders: accepted


@pytest.mark.parametrize("points", [550, 540, 20])
def test_engine_calculator_and_form_accept_the_same_totals(points: int) -> None:
    rules = make_rules("classic")
    check_entry(rules, HandEntry(taker=0, trick_points=(100, 62), declarations=(points, 0)))
    assert parse_declarations(str(points), rules)[0] == points
    check_declaration(points, rules)


@pytest.mark.parametrize("points", [560, 570, 1000, 1600, 30, 35])
def test_engine_calculator_and_form_refuse_the_same_totals(points: int) -> None:
    """One rule (§7): the engine's check, the calculator (``belote score``) and the
    score sheet's form refuse the same totals, with the same reason."""
    rules = make_rules("classic")
    with pytest.raises(InvalidRecordError) as engine:
        check_entry(rules, HandEntry(taker=0, trick_points=(100, 62),
                                     declarations=(points, 0)))
    with pytest.raises(ValueError) as calculator:
        parse_declarations(str(points), rules)
    with pytest.raises(InvalidRecordError) as form:
        check_declaration(points, rules)
    reason = str(calculator.value)
    assert str(engine.value) == f"hand: declarations.NS: {reason}"
    assert str(form.value) == f"declarations: {reason}"
    if points > 550:
        assert "at most 550" in reason


def test_a_side_of_two_defenders_is_held_to_the_limit() -> None:
    rules = make_rules("classic-3p")
    with pytest.raises(InvalidRecordError, match="defenders: 600 is more than one team"):
        check_entry(rules, SeatEntry(3, 0, (20, 72, 70), declarations=(0, 350, 250)))


# --- one entry type ------------------------------------------------------------------------


@pytest.mark.parametrize(("profile", "obj"), [
    ("classic", {"taker": "EW", "trick_points": {"NS": 60}, "belote": "EW",
                 "declarations": {"EW": 50}}),
    ("coinche", {"taker": "NS", "trick_points": {"NS": 100, "EW": 62}, "contract": 90,
                 "multiplier": 2, "trump": "H"}),
    ("classic-3p", {"taker": "E", "trick_points": {"N": 40, "E": 92}, "belote": "S",
                    "leader": "S"}),
    ("classic-2p", {"taker": "N", "trick_points": {"N": 92, "E": 40},
                    "declarations": {"N": 20}}),
    ("classic-2p", {"options": {"two_deal": "decouverte"}, "trick_points": {"N": 92}}),
])
def test_one_entry_type_reads_and_writes_every_table(profile: str, obj: dict[str, object]
                                                     ) -> None:
    options = obj.pop("options", {})
    assert isinstance(options, dict)
    rules = make_rules(profile, options)
    entry = parse_entry(obj, rules)
    assert type(entry) is HandEntry
    assert entry.per_seat == (rules.players != 4)
    assert len(entry.trick_points) == (2 if rules.players == 4 else rules.players)
    assert parse_entry(entry_to_json(entry), rules) == entry
    assert score_hand(rules, entry).players == rules.players


def test_seat_entry_is_a_hand_entry_of_seats() -> None:
    entry = SeatEntry(3, 1, (40, 92, 30))
    assert type(entry) is HandEntry and entry.players == 3
    assert entry.declarations == entry.belote == (0, 0, 0)
    assert entry == HandEntry(taker=1, trick_points=(40, 92, 30), players=3)


def test_a_refusal_names_the_column_of_its_table() -> None:
    with pytest.raises(InvalidRecordError, match=r"belote\.NS: 30 is not 0 or 20"):
        check_entry(make_rules("classic"), HandEntry(0, (92, 70), belote=(30, 0)))
    with pytest.raises(InvalidRecordError, match=r"belote\.S: 30 is not 0 or 20"):
        check_entry(make_rules("classic-3p"), SeatEntry(3, 0, (92, 40, 30),
                                                        belote=(0, 0, 30)))


# --- the breakdown --------------------------------------------------------------------------


def _formula(profile: str, options: dict[str, object], **entry: object) -> str | None:
    rules = make_rules(profile, options)
    return score_calculation(rules, HandEntry(**entry))  # type: ignore[arg-type]


@pytest.mark.parametrize(("options", "entry", "formula"), [
    ({}, {"taker": 0, "trick_points": (102, 60), "contract": 100, "multiplier": 2},
     "(160 + 100) × 2"),
    ({}, {"taker": 0, "trick_points": (102, 60), "contract": 100, "multiplier": 2,
          "declarations": (0, 20), "belote": (20, 0)}, "(160 + 100 + 20) × 2 + 20"),
    ({"double_scope": "contract_only"}, {"taker": 0, "trick_points": (102, 60),
                                         "contract": 100, "multiplier": 2,
                                         "declarations": (50, 0)}, "160 + 50 + 100 × 2"),
    ({"double_scope": "forfeit"}, {"taker": 0, "trick_points": (60, 102), "contract": 100,
                                   "multiplier": 4}, "160 × 4 + 100 × 4"),
    ({}, {"taker": 0, "trick_points": (60, 102), "contract": 100,
          "declarations": (0, 20)}, "160 + 100 + 20"),
    ({"fail_base": 162}, {"taker": 1, "trick_points": (102, 60), "contract": 110},
     "162 + 110"),
    ({"bid_capot_scoring": "flat"}, {"taker": 0, "trick_points": (252, 0), "capot": 0,
                                     "contract": "capot", "multiplier": 2}, "500 × 2"),
    ({"count_mode": "bid_only"}, {"taker": 0, "trick_points": (102, 60), "contract": 90,
                                  "belote": (20, 0)}, "90"),
    ({"count_mode": "made_only"}, {"taker": 0, "trick_points": (102, 60), "contract": 90,
                                   "multiplier": 2}, "160 × 2"),
    ({}, {"taker": 0, "trick_points": (252, 0), "capot": 0, "contract": 80,
          "multiplier": 2}, "(250 + 80) × 2"),
    ({}, {"taker": 0, "trick_points": (102, 60), "contract": 100}, None),
    ({}, {"taker": 0, "trick_points": (252, 0), "capot": 0, "contract": 80}, None),
])
def test_score_calculation_prints_the_breakdown(
    options: dict[str, object], entry: dict[str, object], formula: str | None,
) -> None:
    """§9.2–9.4 as the sheet shows them; None where the winner scores his own points."""
    assert _formula("coinche", options, **entry) == formula


def test_classic_hands_show_no_calculation() -> None:
    assert _formula("classic", {}, taker=0, trick_points=(60, 102)) is None
    assert _formula("classic", {}, taker=0, trick_points=(102, 60)) is None


AUCTION_OPTIONS = st.fixed_dictionaries({}, optional={
    "count_mode": st.sampled_from(("made_plus_bid", "made_only", "bid_only")),
    "double_scope": st.sampled_from(("whole", "contract_only", "forfeit")),
    "bid_capot_scoring": st.sampled_from(("flat", "as_contract")),
    "belote_on_failure": st.sampled_from(("kept", "defenders")),
    "fail_base": st.sampled_from((160, 162)),
    "capot_loser_declarations": st.sampled_from(("kept", "to_capot_team", "void")),
})


@st.composite
def auction_cases(draw: st.DrawFn) -> tuple[dict[str, object], HandEntry]:
    options = draw(AUCTION_OPTIONS)
    taker = draw(st.sampled_from((0, 1)))
    capot = draw(st.sampled_from((None, None, 0, 1)))
    if capot is None:
        ns = draw(st.integers(0, 162))
        points = (ns, 162 - ns)
    else:
        points = (252, 0) if capot == 0 else (0, 252)
    side = draw(st.sampled_from((0, 1)))
    decl = [0, 0]
    decl[side] = draw(st.sampled_from((0, 20, 50, 100, 150, 200)))
    belote = [0, 0]
    belote[draw(st.sampled_from((0, 1)))] = draw(st.sampled_from((0, 20)))
    contract = draw(st.one_of(st.sampled_from((80, 100, 120, 160)), st.just("capot")))
    multiplier = draw(st.sampled_from((1, 2, 4)))
    return options, HandEntry(taker=taker, trick_points=points, capot=capot,
                              declarations=(decl[0], decl[1]),
                              belote=(belote[0], belote[1]), contract=contract,
                              multiplier=multiplier)


@settings(max_examples=300, deadline=None)
@given(auction_cases())
def test_the_breakdown_adds_up_to_the_score(case: tuple[dict[str, object], HandEntry]
                                            ) -> None:
    """Each side's formula, read back as arithmetic, is its score; a shown calculation
    is the winner's formula."""
    options, entry = case
    rules = make_rules("coinche", options)
    try:
        hand = score_hand(rules, entry)
    except BeloteError:
        return
    breakdown = hand.breakdown
    assert breakdown is not None and breakdown.score == hand.score
    for side in (0, 1):
        text = breakdown.formula(side)
        assert eval(text.replace("×", "*"), {}) == hand.score[side], text
    shown = score_calculation(rules, entry)
    if shown is not None:
        assert entry.taker is not None
        winner = entry.taker if hand.outcome is Outcome.MADE else 1 - entry.taker
        assert shown == breakdown.formula(winner)
        assert not any(kind is Term.POINTS for part in breakdown.parts[winner]
                       for kind, _ in part.terms)


def test_decouverte_is_counted_by_the_scoring() -> None:
    """§12.2: the engine's découverte result is the scoring's count of its points."""
    from belote.scoring import score_counted

    rules = make_rules("classic-2p", {"two_deal": "decouverte"})
    entry = SeatEntry(2, None, (100, 62), belote=(20, 0))
    hand = score_hand(rules, entry)
    assert hand.outcome is Outcome.COUNTED and hand.score == (120, 62)
    assert dataclasses.replace(hand, players=4) == score_counted((100, 62), (20, 0))
