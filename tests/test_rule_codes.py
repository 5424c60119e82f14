"""Refusals of the rules by code (belote.errors.RuleCode): each refusal of the engine
names the rule it enforces, its section of docs/rules.md and its fields, and writes its
English from them, the words the command line has always printed; docs/json.md lists
every code with its section; the JSON error answers carry the code."""

from __future__ import annotations

import json
import pickle
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from belote.auction import NumericAuction
from belote.bidding import TakePassBidding
from belote.cards import card_name, parse_card
from belote.cli import app
from belote.declarations import check_announcement, make_sequence, parse_combination
from belote.errors import (
    ENGLISH,
    REFUSAL_ENGLISH,
    SECTIONS,
    WHY,
    IllegalActionError,
    IllegalBidError,
    IllegalPlayError,
    InvalidRecordError,
    Refusal,
    RuleCode,
    template_fields,
)
from belote.game import Match
from belote.options import make_rules
from belote.play import explain_illegal, illegal_code
from belote.replay import replay
from belote.round import Round
from tests.helpers import mask, position

DOCS = Path(__file__).resolve().parent.parent / "docs"
DECK = list(range(32))
COINCHE = make_rules("coinche")


def refused(action: Callable[[], object]) -> IllegalActionError:
    with pytest.raises(IllegalActionError) as caught:
        action()
    return caught.value


# --- the codes themselves ---------------------------------------------------------------


def test_every_code_has_its_section_and_english() -> None:
    assert set(SECTIONS) == set(RuleCode) == set(ENGLISH)
    for code in RuleCode:
        assert re.fullmatch(r"§\d+(\.\d+[a-z]?)?(, §\d+(\.\d+[a-z]?)?)*", code.section), code
        fields = [template_fields(t) for t in ENGLISH[code]]
        assert len(set(fields)) == len(fields), code  # one message per set of fields


def test_every_section_named_is_a_section_of_the_rules() -> None:
    headings = set(re.findall(r"^#+ (§[\d.a-z]+) ", (DOCS / "rules.md").read_text("utf-8"),
                              flags=re.M))
    for code in RuleCode:
        for section in code.section.split(", "):
            assert section in headings, (code, section)


def test_docs_json_lists_every_code_with_its_section() -> None:
    text = (DOCS / "json.md").read_text(encoding="utf-8")
    rows = dict(re.findall(r"^\| `([a-z_]+)` \| (§[^|]+?) \|", text, flags=re.M))
    assert rows == {str(code): code.section for code in RuleCode}


def test_docs_json_lists_every_refusal_of_the_web_app() -> None:
    text = (DOCS / "json.md").read_text(encoding="utf-8")
    section = text.split("### Refusals of the web app", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| `([a-z_]+)` \| ", section, flags=re.M)
    assert rows == [str(code) for code in Refusal]
    assert not set(rows) & {str(code) for code in RuleCode}  # one word, one meaning


def test_a_refusal_of_no_rule_keeps_its_code_fields_and_english() -> None:
    """A refusal of the sheets or the rooms (errors.Refusal): its English written from
    its fields after its context, kept through a further context and pickling; the
    command line's JSON errors name only the rules' codes (docs/json.md)."""
    from belote.cli.common import rule_code
    from belote.scoring import parse_hand_entry

    with pytest.raises(InvalidRecordError) as refused:
        parse_hand_entry({"taker": "NS", "trick_points": {"EW": 170}}, make_rules(), "hand 4")
    err = refused.value
    assert str(err) == "hand 4: trick_points.EW: 170 is outside 0..162"
    assert err.refusal is Refusal.TRICK_POINTS_RANGE and err.code is None
    assert dict(err.values) == {"value": 170, "total": 162, "team": "EW"}
    assert err.context == ("hand 4", "trick_points.EW")
    outer = err.within("game")
    assert str(outer) == "game: " + str(err) and outer.context[0] == "game"
    again = pickle.loads(pickle.dumps(outer))
    assert str(again) == str(outer) and again.refusal is Refusal.TRICK_POINTS_RANGE
    assert dict(again.values) == dict(err.values)
    assert rule_code(err) is None
    assert set(REFUSAL_ENGLISH) == set(Refusal)


def test_a_refusal_keeps_its_code_and_fields_through_a_context_and_pickling() -> None:
    err = IllegalBidError(RuleCode.BID_TOO_LOW, seat=1, call="80C", bid="90H")
    assert str(err) == "E may not call '80C': it does not go higher than 90H (§4.3)"
    outer = err.within("bid 3")
    assert str(outer) == "bid 3: " + str(err) and isinstance(outer, IllegalBidError)
    assert (outer.code, outer.seat, outer.bid, outer.where) == (err.code, 1, "90H", ("bid 3",))
    again = pickle.loads(pickle.dumps(outer))
    assert type(again) is IllegalBidError and str(again) == str(outer)
    assert again.code is RuleCode.BID_TOO_LOW and again.call == "80C"
    # fields that no message names exactly: one naming some of them, else the code
    odd = IllegalPlayError(RuleCode.FOLLOW_SUIT, seat=1, card="7H", trick=3)
    assert str(odd) == "E may not play 7H: must follow suit (§6.1)"
    assert str(IllegalPlayError(RuleCode.FOLLOW_SUIT)) == "follow_suit (§6.1)"
    bare = IllegalActionError("a bot answered nonsense")  # no rule: a bare message
    assert bare.code is None and str(bare) == "a bot answered nonsense"


# --- each refusal path raises its code (docs/rules.md sections in the names) --------------


def test_3_2_first_round_take_or_pass_and_one_call_a_turn() -> None:
    bidding = TakePassBidding(make_rules(), 3, parse_card("JH"))
    err = refused(lambda: bidding.call("take", 1))
    assert (err.code, err.seat, err.turn, err.call) == (RuleCode.NOT_YOUR_TURN, 1, 0, "take")
    err = refused(lambda: bidding.call("S"))
    assert err.code is RuleCode.FIRST_ROUND_TAKE_OR_PASS
    assert str(err) == "N may not call 'S' in round 1: only 'take' or 'pass' (§3.2)"


def test_3_3_second_round_names_another_suit() -> None:
    bidding = TakePassBidding(make_rules(), 3, parse_card("JH"))
    for _ in range(4):
        bidding.call("pass")
    assert refused(lambda: bidding.call("take")).code is RuleCode.SECOND_ROUND_NO_TAKE
    err = refused(lambda: bidding.call("H"))
    assert (err.code, err.call) == (RuleCode.TURNED_SUIT_AGAIN, "H")
    err = refused(lambda: bidding.call("80H"))
    assert (err.code, err.calls) == (RuleCode.SECOND_ROUND_NAME_A_SUIT, ("S", "D", "C"))
    assert str(err) == "N may not call '80H' in round 2: name one of S, D, C or pass (§3.3)"
    for _ in range(4):
        bidding.call("pass")
    assert refused(lambda: bidding.call("pass")).code is RuleCode.BIDDING_OVER


def _auction(calls: list[str], rules: Any = COINCHE) -> NumericAuction:
    a = NumericAuction(rules, 3)
    for c in calls:
        a.call(c)
    return a


@pytest.mark.parametrize(("options", "calls", "call", "code", "fields"), [
    ({}, ["80H", "pass", "pass", "pass"], "pass", RuleCode.AUCTION_OVER, {}),
    ({}, [], "BOGUS", RuleCode.NOT_A_CALL, {"call": "BOGUS"}),
    ({}, [], "80SA", RuleCode.DENOMINATION_OFF, {"trump": "SA"}),
    ({"generale": False}, [], "generaleS", RuleCode.GENERALE_OFF, {}),
    ({}, [], "85H", RuleCode.BID_NOT_A_MULTIPLE, {}),
    ({}, [], "260H", RuleCode.BID_ABOVE_MAX, {"limit": 250}),
    ({}, ["100H"], "90S", RuleCode.BID_TOO_LOW, {"bid": "100H"}),
    ({"coinche_freezes": True}, ["80H", "coinche"], "90H", RuleCode.PASS_OR_SURCOINCHE, {}),
    ({}, ["capotH"], "160S", RuleCode.NUMBER_AFTER_CAPOT, {}),
    ({"reopen_by_suit_change": True}, ["80H", "pass", "pass", "pass"], "90H",
     RuleCode.REOPEN_SAME_SUIT, {}),
    ({}, [], "coinche", RuleCode.NO_BID_TO_COINCHE, {}),
    ({}, ["80H", "pass"], "coinche", RuleCode.COINCHE_BY_OPPONENTS, {}),
    ({"capot_doublable": False}, ["capotH"], "coinche", RuleCode.CAPOT_NOT_COINCHED, {}),
    ({"coinche_freezes": False}, ["80H", "coinche", "pass"], "coinche",
     RuleCode.ALREADY_COINCHED, {}),
    ({}, ["80H"], "surcoinche", RuleCode.NO_COINCHE_TO_ANSWER, {}),
    ({"coinche_freezes": False}, ["80H", "coinche", "pass"], "surcoinche",
     RuleCode.SURCOINCHE_BY_BIDDERS, {}),
])
def test_4_the_auction_refuses_each_call_with_its_rule(
        options: dict[str, Any], calls: list[str], call: str, code: RuleCode,
        fields: dict[str, Any]) -> None:
    """docs/rules.md §4.2-§4.8: every refusal of the auction names its rule."""
    a = _auction(calls, make_rules("coinche", options))
    err = refused(lambda: a.call(call))
    assert err.code is code and isinstance(err, IllegalBidError), str(err)
    assert err.call == call and err.seat == a.turn
    assert {k: getattr(err, k) for k in fields} == fields
    assert code.section in str(err) or code in (RuleCode.AUCTION_OVER, RuleCode.NOT_A_CALL)


def test_4_5_a_coinche_out_of_turn_and_a_call_after_the_surcoinche() -> None:
    a = _auction(["80H", "pass"])
    err = refused(lambda: a.call("coinche", seat=3))
    assert (err.code, err.seat) == (RuleCode.COINCHE_IN_TURN, 3)
    b = _auction(["80H", "coinche", "surcoinche"])  # a surcoinche ends the auction
    assert refused(lambda: b.call("pass")).code is RuleCode.AUCTION_OVER


@pytest.mark.parametrize(("hands", "leader", "played", "card", "code", "options"), [
    (("", "7S JH", "", ""), 0, "AS", "JH", RuleCode.FOLLOW_SUIT, {}),
    (("", "7H JH", "", ""), 0, "9H", "7H", RuleCode.BEAT_THE_MASTER, {}),
    (("", "", "7H JH AD", ""), 0, "AS 9H", "7H", RuleCode.OVERTRUMP, {}),
    (("", "7H AD", "", ""), 0, "AS", "AD", RuleCode.MUST_TRUMP, {}),
    (("", "", "7H AD", ""), 0, "AS 9H", "AD", RuleCode.UNDERTRUMP, {"must_undertrump": True}),
    (("", "", "7H JH", ""), 3, "AS 9H 7S", "7H", RuleCode.OVERTRUMP_PARTNER,
     {"undertrump_partner": "must_overtrump_if_only_trumps"}),
    (("", "", "7H AD", ""), 3, "AS 9H 7S", "7H", RuleCode.UNDERTRUMP_PARTNER,
     {"undertrump_partner": "only_if_only_trumps"}),
    (("", "7S", "", ""), 0, "AS", "KC", RuleCode.CARD_NOT_HELD, {}),
])
def test_6_each_illegal_card_names_its_rule(
        hands: tuple[str, str, str, str], leader: int, played: str, card: str, code: RuleCode,
        options: dict[str, Any]) -> None:
    """docs/rules.md §6.1-§6.3: the code of each refused card (hearts are trump), and the
    English of explain_illegal written from it."""
    state = position(hands, "H", leader, played, **options)
    c = parse_card(card)
    assert illegal_code(state, c) is code
    seat = "NESW"[state.turn]
    why = explain_illegal(state, c)
    assert why == (f"{seat} does not hold {card}" if code is RuleCode.CARD_NOT_HELD
                   else WHY[code])


def test_6_a_round_refuses_a_card_with_the_code_of_the_rule() -> None:
    rnd = Round(make_rules(), 0, DECK)
    err = refused(lambda: rnd.verify_play(0))
    assert (err.code, err.act, err.phase) == (RuleCode.WRONG_PHASE, "card", "bidding")
    rnd.call("take")
    seat = rnd.current_player()
    foreign = next(c for c in range(32) if not rnd.hand(seat) >> c & 1)
    err = refused(lambda: rnd.play_card(foreign))
    assert isinstance(err, IllegalPlayError) and err.code is RuleCode.CARD_NOT_HELD
    assert (err.seat, err.where) == (seat, ("trick 1",))


def test_7_declarations_refused_by_code() -> None:
    """docs/rules.md §7.2, §7.3: what may be announced."""
    rules = make_rules()

    def combo(cards: str, hand: str | None = None) -> Any:
        cs = [parse_card(c) for c in cards.split()]
        return parse_combination(cs, mask(hand or cards), rules, 1, "seat N")

    cases = [("7S 8S TS", None, RuleCode.NOT_A_COMBINATION),
             ("7S 8S 9S", "7S 8S", RuleCode.COMBINATION_NOT_HELD),
             ("7S 7H 7D 7C", None, RuleCode.CARRE_SCORES_NOTHING),
             ("7S 7S 8S", None, RuleCode.COMBINATION_REPEATS_A_CARD)]
    for cards, hand, code in cases:
        err = refused(lambda cards=cards, hand=hand: combo(cards, hand))  # type: ignore[misc]
        assert err.code is code and err.where == ("seat N",), str(err)
    err = refused(lambda: combo("7S 8S 9S", "7S 8S"))
    assert (err.cards, err.other) == (("7S", "8S", "9S"), ("9S",))
    assert str(err) == "seat N: combination '7S 8S 9S': does not hold 9S"
    a, b, c = combo("7S 8S 9S"), combo("TS JS QS"), combo("TS TH TD TC")
    assert refused(lambda: check_announcement([a, b], rules, "N")).code is RuleCode.LONG_RUN_SPLIT
    err = refused(lambda: check_announcement([b, c], rules, "N"))
    assert err.code is RuleCode.CARD_IN_TWO_COMBINATIONS and err.other == ("TS", "TH", "TD", "TC")


def _first_to_play(profile: str, options: dict[str, Any] | None = None,
                   calls: tuple[str, ...] = ("take",)) -> Any:
    """The hand's play of a deal whose bidding is over (``calls``), no card played."""
    rnd = Round(make_rules(profile, options), 0, DECK)
    for call in calls:
        rnd.call(call)
    assert rnd._play is not None
    return rnd


def test_7_1_7_4_7_6_12_2_announcements_refused_by_code() -> None:
    """docs/rules.md §7.1 (declarations off), §7.4 (with the first card only), §7.6 (what
    is held), §12.2 (none in belote découverte)."""
    tierce = make_sequence(0, 0, 3)  # 7S 8S 9S
    rnd = _first_to_play("contree", calls=("80H", "pass", "pass", "pass"))
    err = refused(lambda: rnd._play.verify_announcement([tierce]))
    assert (err.code, err.seat) == (RuleCode.DECLARATIONS_OFF, rnd.current_player())
    rnd = _first_to_play("classic-2p", {"two_deal": "decouverte"}, calls=())
    err = refused(lambda: rnd._play.verify_announcement([tierce]))
    assert err.code is RuleCode.NO_DECLARATIONS_DECOUVERTE
    rnd = _first_to_play("classic")
    hand = rnd.hand(rnd.current_player())
    missing = next(make_sequence(suit, low, 3) for suit in range(4) for low in range(6)
                   if make_sequence(suit, low, 3).cards & ~hand)
    err = refused(lambda: rnd._play.verify_announcement([missing]))
    assert (err.code, err.declaration) == (RuleCode.DECLARATION_NOT_HELD, str(missing))
    for _ in range(4):  # trick 1
        rnd.play_card(rnd.legal_cards()[0])
    err = refused(lambda: rnd._play.verify_announcement([tierce]))
    assert (err.code, err.where) == (RuleCode.ANNOUNCE_WITH_FIRST_CARD, ("trick 2",))


def _record(**changes: Any) -> dict[str, Any]:
    record: dict[str, Any] = {
        "profile": "classic", "dealer": "W", "turned": "JH", "bids": ["take"],
        "hands": {"N": ["7S", "8S", "9S", "TS", "JS", "QS", "KS", "JH"],  # N takes JH
                  "E": ["7H", "8H", "9H", "TH", "QH", "KH", "AH", "7D"],
                  "S": ["8D", "9D", "TD", "JD", "QD", "KD", "AD", "7C"],
                  "W": ["8C", "9C", "TC", "JC", "QC", "KC", "AC", "AS"]}}
    record.update(changes)
    return record


@pytest.mark.parametrize(("changes", "code", "message"), [
    ({"belote": {"N": True}}, RuleCode.BELOTE_WITHOUT_THE_PAIR,
     "belote.N: N does not hold the trump king and queen (§7.7)"),
    ({"profile": "contree", "bids": ["80H", "pass", "pass", "pass"],
      "declarations": {"N": [["7S", "8S", "9S"]]}}, RuleCode.DECLARATIONS_OFF,
     "declarations.N: declarations are off (§7.1 declarations)"),
    ({"declarations": {"N": [["7S", "8S", "TS"]]}}, RuleCode.NOT_A_COMBINATION,
     "declarations.N[0]: '7S 8S TS' is not a sequence"),
])
def test_7_a_hand_record_refused_by_the_rules_names_the_code(
        changes: dict[str, Any], code: RuleCode, message: str) -> None:
    """docs/rules.md §7.1, §7.2, §7.7: belote said without the pair, declarations where
    there are none, a combination that is none, in a record `belote replay` reads."""
    record = _record(**changes)
    if record["profile"] == "contree":
        record.pop("turned")
    err = refused(lambda: replay(record))
    assert err.code is code and str(err).startswith(message), str(err)


def test_12_1_the_kitty_discard_refused_by_code() -> None:
    rnd = Round(make_rules("classic-3p", {"three_deal": "kitty"}), 0, DECK)
    assert refused(lambda: rnd.verify_discard([0, 1])).code is RuleCode.NO_DISCARD_NOW
    rnd.call("H")
    held = [c for c in range(32) if rnd.hands[1] >> c & 1]
    err = refused(lambda: rnd.verify_discard([held[0], held[0]]))
    assert (err.code, err.seat) == (RuleCode.DISCARD_TWO_CARDS, 1)


def test_11_a_game_refuses_a_deal_out_of_order_by_code() -> None:
    """docs/rules.md §2.1, §11: a deal at a time, none after the end."""
    match = Match(make_rules())
    assert refused(match.finish_round).code is RuleCode.NO_DEAL_TO_SCORE
    rnd = match.new_round()
    assert refused(match.new_round).code is RuleCode.DEAL_IN_PROGRESS
    err = refused(rnd.result)
    assert (err.code, err.phase) == (RuleCode.DEAL_NOT_OVER, "bidding")


# --- the JSON of the command line ---------------------------------------------------------


def test_a_record_refused_by_the_rules_keeps_its_code() -> None:
    """A deal's record whose action breaks a rule (docs/json.md): the record's error names
    the rule's code too."""
    rnd = Round(make_rules(), 0, DECK)
    rnd.call("take")
    record = rnd.record()
    seat = rnd.current_player()
    foreign = next(c for c in range(32) if not rnd.hand(seat) >> c & 1)
    record["actions"] = [*record["actions"], {"card": card_name(foreign)}]
    with pytest.raises(InvalidRecordError) as caught:
        Round.from_record(record)
    assert caught.value.code is RuleCode.CARD_NOT_HELD
    assert f"does not hold {card_name(foreign)}" in str(caught.value)


def test_replay_json_answers_the_code_beside_the_error() -> None:
    """docs/json.md, Refusals by code: `"code"` beside `"error"`; none for an input's
    form."""
    record = {"profile": "classic", "dealer": "N", "turned": "JH", "bids": ["BOGUS"],
              "hands": {"N": ["7S", "8S", "9S", "TS", "JS", "QS", "KS", "AS"],
                        "E": ["7H", "8H", "9H", "TH", "QH", "KH", "AH", "7D"],
                        "S": ["8D", "9D", "TD", "JD", "QD", "KD", "AD", "7C"],
                        "W": ["8C", "9C", "TC", "JC", "QC", "KC", "AC", "JH"]}}
    try:
        replay(record)
    except IllegalActionError as exc:
        expected = str(exc)
    out = CliRunner().invoke(app, ["replay", "--json"], input=json.dumps(record))
    assert out.exit_code == 2
    assert json.loads(out.stdout) == {"error": expected, "code": "first_round_take_or_pass"}
    lines = json.dumps(record) + "\n" + json.dumps({"profile": "classic"}) + "\n"
    out = CliRunner().invoke(app, ["replay", "--jsonl"], input=lines)
    answers = [json.loads(line) for line in out.stdout.splitlines()]
    assert answers[0] == {"error": f"line 1: {expected}", "code": "first_round_take_or_pass"}
    assert set(answers[1]) == {"error"}  # a record of the wrong form: no rule, no code
