"""Hand-checked tests of the reference engine itself (tests/reference/engine.py).

Each test quotes the docs/rules.md section it checks; the expected values are worked
out by hand from docs/rules.md and the seeds, not from any engine.
"""

from __future__ import annotations

from typing import Any

import pytest

from belote.options import make_rules
from tests.reference.engine import (
    DECK,
    RefPlay,
    belote_counts,
    card_points,
    check_announcement,
    compare_declarations,
    default_announcement,
    hand_score,
    held_combinations,
    legal_cards,
    make_combination,
    ref_count_sequences,
    ref_replay,
    trick_winner,
)

CLASSIC = make_rules("classic")


def rules(**options: Any) -> Any:
    return make_rules("classic", options)


# --- §5 points and order ---------------------------------------------------------------


def test_5_1_trump_and_plain_points() -> None:
    """§5.1: trump J 20, 9 14, A 11, 10 10, K 4, Q 3; plain A 11, 10 10, K 4, Q 3, J 2."""
    assert [card_points(r + "H", "H") for r in "JA9TKQ87"] == [20, 11, 14, 10, 4, 3, 0, 0]
    assert [card_points(r + "S", "H") for r in "JA9TKQ87"] == [2, 11, 0, 10, 4, 3, 0, 0]
    assert sum(card_points(c, "H") for c in DECK) == 152


def test_5_3_no_trump_aces_19() -> None:
    """§5.3: SA: A 19, 10 10, K 4, Q 3, J 2; 152 in all."""
    assert card_points("AC", "SA") == 19
    assert card_points("JC", "SA") == 2
    assert sum(card_points(c, "SA") for c in DECK) == 152


@pytest.mark.parametrize(("ta_values", "jack", "queen", "total"),
                         [("pc", 14, 1, 152), ("ffbc", 13, 2, 152), ("scaled", 20, 3, 248)])
def test_5_4_all_trump_values(ta_values: str, jack: int, queen: int, total: int) -> None:
    """§5.4: TA: J14 9:9 A6 10:5 K3 Q1 (pc), J13 ... Q2 (ffbc), full trump values (scaled)."""
    assert card_points("JD", "TA", ta_values) == jack
    assert card_points("QD", "TA", ta_values) == queen
    assert card_points("9D", "TA", ta_values) == (14 if ta_values == "scaled" else 9)
    assert sum(card_points(c, "TA", ta_values) for c in DECK) == total


def test_5_5_trick_winner() -> None:
    """§5.5: the highest trump wins, else the highest card of the led suit."""
    assert trick_winner(["AS", "TS", "7H", "KS"], "H") == 2  # a small trump cuts
    assert trick_winner(["AS", "TS", "7H", "9H"], "H") == 3  # trump 9 over trump 7
    assert trick_winner(["TS", "AD", "KS", "QS"], "H") == 0  # off-suit ace does not win
    assert trick_winner(["9H", "AH", "JH", "TH"], "H") == 2  # trump order J 9 A
    assert trick_winner(["9S", "AS", "JS", "TS"], "H") == 1  # plain order A T K Q J 9
    assert trick_winner(["9S", "AS", "JD", "TS"], "TA") == 0  # TA: trump order, led suit only
    assert trick_winner(["9S", "AS", "JS", "TS"], "SA") == 1  # SA: plain order


# --- §6 legal moves ---------------------------------------------------------------------


def test_6_1_follow_suit() -> None:
    """§6.1: holding the led plain suit, any card of it (no duty to beat)."""
    assert legal_cards(["7S", "AS", "JH", "8C"], ["KS"], "H", CLASSIC) == ["7S", "AS"]


def test_6_1_no_trump_no_duty_to_beat() -> None:
    """§6.1 SA: follow suit, no duty to beat."""
    assert legal_cards(["7S", "AS", "8C"], ["KS"], "SA", CLASSIC) == ["7S", "AS"]


def test_6_1_all_trump_must_beat() -> None:
    """§6.1 TA: must beat the master card of the led suit if able, even partner's."""
    # partner (leader) master with 9S; only JS beats it
    assert legal_cards(["7S", "AS", "JS", "8C"], ["9S", "7C"], "TA", CLASSIC) == ["JS"]
    # nothing beats JS: any spade
    assert legal_cards(["7S", "AS", "8C"], ["JS"], "TA", CLASSIC) == ["7S", "AS"]
    # §6.4: void -> any card
    assert legal_cards(["8C", "9D"], ["JS"], "TA", CLASSIC) == ["9D", "8C"]


def test_6_2_trump_led_must_overtrump() -> None:
    """§6.2: trump led: a higher trump if able, else any trump."""
    hand = ["7H", "AH", "JH", "8C"]
    assert legal_cards(hand, ["9H"], "H", CLASSIC) == ["JH"]
    assert legal_cards(["7H", "AH", "8C"], ["9H"], "H", CLASSIC) == ["7H", "AH"]


def test_6_2_overtrump_partner_on_trump_lead_false() -> None:
    """§6.2 overtrump_partner_on_trump_lead = false: partner master -> any trump."""
    hand = ["7H", "AH", "JH", "8C"]
    trick = ["9H", "8H"]  # partner led 9H and is master
    assert legal_cards(hand, trick, "H", CLASSIC) == ["JH"]
    off = rules(overtrump_partner_on_trump_lead=False)
    assert legal_cards(hand, trick, "H", off) == ["7H", "JH", "AH"]
    # opponent master: the duty stays
    assert legal_cards(hand, ["8H", "9H"], "H", off) == ["JH"]


def test_6_3_a_partner_master_exemption() -> None:
    """§6.3 a: void, partner master, exemption on: any card; off: must trump (S0 rule 2)."""
    hand = ["7H", "8C", "9D"]
    trick = ["AS", "7S"]  # partner's ace is master
    assert legal_cards(hand, trick, "H", CLASSIC) == ["7H", "9D", "8C"]
    assert legal_cards(hand, trick, "H", rules(partner_master_exemption=False)) == ["7H"]


def test_6_3_a_undertrump_partner_options() -> None:
    """§6.3 a undertrump_partner: allowed | only_if_only_trumps | must_overtrump_if_only_trumps."""
    trick = ["AS", "9H", "8S"]  # partner (2nd) trumped with 9H and is master
    hand = ["7H", "JH", "8C"]
    assert legal_cards(hand, trick, "H", CLASSIC) == ["7H", "JH", "8C"]
    only = rules(undertrump_partner="only_if_only_trumps")
    assert legal_cards(hand, trick, "H", only) == ["JH", "8C"]  # 7H under partner's 9H refused
    assert legal_cards(["7H", "QH"], trick, "H", only) == ["7H", "QH"]  # only trumps: anything
    must = rules(undertrump_partner="must_overtrump_if_only_trumps")
    assert legal_cards(hand, trick, "H", must) == ["JH", "8C"]
    assert legal_cards(["7H", "JH"], trick, "H", must) == ["JH"]  # only trumps: overtrump
    assert legal_cards(["7H", "QH"], trick, "H", must) == ["7H", "QH"]  # unable: any
    # the partner's master card is not a trump: the option does not matter
    assert legal_cards(hand, ["AS", "7S"], "H", only) == ["7H", "JH", "8C"]


def test_6_3_b_must_trump() -> None:
    """§6.3 b: void, opponent master, no trump on the table: any trump."""
    assert legal_cards(["7H", "JH", "8C"], ["AS"], "H", CLASSIC) == ["7H", "JH"]


def test_6_3_c_overtrump_or_discard() -> None:
    """§6.3 c: a higher trump if able; else must_undertrump false -> any card, true -> trump."""
    trick = ["AS", "9H"]  # opponent trumped with 9H
    assert legal_cards(["7H", "JH", "8C"], trick, "H", CLASSIC) == ["JH"]
    assert legal_cards(["7H", "QH", "8C"], trick, "H", CLASSIC) == ["7H", "QH", "8C"]
    under = rules(must_undertrump=True)
    assert legal_cards(["7H", "QH", "8C"], trick, "H", under) == ["7H", "QH"]


def test_6_3_d_no_trump_any_card() -> None:
    """§6.3 d: void in the led suit and no trump: any card."""
    assert legal_cards(["8C", "9D"], ["AS"], "H", CLASSIC) == ["9D", "8C"]


def test_6_4_void_in_trump_lead() -> None:
    """§6.4: trump led and void: any card."""
    assert legal_cards(["8C", "9D"], ["JH"], "H", CLASSIC) == ["9D", "8C"]


# --- §7 declarations -----------------------------------------------------------------------


def test_7_2_values() -> None:
    """§7.2: tierce 20, cinquante 50, cent 100; carré J 200, 9 150, A/10/K/Q 100, 8s 7s nothing."""
    assert make_combination(["7H", "8H", "9H"], "S").value == 20
    assert make_combination(["7H", "8H", "9H", "TH"], "S").value == 50
    assert make_combination(["7H", "8H", "9H", "TH", "JH", "QH"], "S").value == 100
    assert make_combination(["JS", "JH", "JD", "JC"], "S").value == 200
    assert make_combination(["9S", "9H", "9D", "9C"], "S").value == 150
    assert make_combination(["QS", "QH", "QD", "QC"], "S").value == 100
    with pytest.raises(ValueError):
        make_combination(["8S", "8H", "8D", "8C"], "S")
    with pytest.raises(ValueError):
        make_combination(["KH", "AH", "7H"], "S")  # no wrap (§7.2)
    assert make_combination(["AS", "AH", "AD", "AC"], "SA").value == 200  # SA carrés
    assert make_combination(["TS", "TH", "TD", "TC"], "SA").value == 150


def test_7_2_held_combinations() -> None:
    """§7.2: every run of 3+ (sub-runs too) and every carré held."""
    hand = ["7H", "8H", "9H", "TH", "JS", "JH", "JD", "JC"]
    found = {c.cards for c in held_combinations(hand, "S")}
    assert found == {
        ("7H", "8H", "9H"), ("8H", "9H", "TH"), ("7H", "8H", "9H", "TH"),
        ("8H", "9H", "TH", "JH"), ("7H", "8H", "9H", "TH", "JH"), ("9H", "TH", "JH"),
        ("JS", "JH", "JD", "JC"),
    }


def test_7_3_default_announcement_long_run() -> None:
    """§7.3 split_long_runs: false -> an 8-run is one cent; true -> 7-8-9 + T-A = 120."""
    hand = [r + "H" for r in "789TJQKA"]
    assert sum(c.value for c in default_announcement(hand, "S", CLASSIC)) == 100
    split = default_announcement(hand, "S", rules(split_long_runs=True))
    assert sorted(c.value for c in split) == [20, 100]
    assert max(c.cards[-1] for c in split if c.value == 100) == "AH"  # the strongest grouping


def test_7_3_card_reuse() -> None:
    """§7.3 card_reuse: false -> JH in the carré or the run; true -> in both."""
    hand = ["8H", "9H", "TH", "JH", "JS", "JD", "JC", "7C"]
    plain = default_announcement(hand, "S", CLASSIC)
    assert sorted(c.value for c in plain) == [20, 200]  # carré J + 8-9-10
    reuse = default_announcement(hand, "S", rules(card_reuse=True))
    assert sorted(c.value for c in reuse) == [50, 200]  # carré J + 8-9-10-J


def test_7_3_check_announcement() -> None:
    """§7.3: refused: a card not held, not a combination, touching runs, a card used twice."""
    hand = ["7H", "8H", "9H", "TH", "JH", "QH", "JS", "JD"]
    ok = check_announcement("N", hand, [["7H", "8H", "9H"]], "S", CLASSIC)
    assert [c.value for c in ok] == [20]
    for bad in ([["7H", "8H", "AH"]], [["KH", "QH", "JH"]],
                [["7H", "8H", "9H"], ["TH", "JH", "QH"]],
                [["7H", "8H", "9H"], ["9H", "TH", "JH"]]):
        with pytest.raises(ValueError):
            check_announcement("N", hand, bad, "S", CLASSIC)
    touching = [["7H", "8H", "9H"], ["TH", "JH", "QH"]]
    assert len(check_announcement("N", hand, touching, "S", rules(split_long_runs=True))) == 2


def _combos(*groups: list[str]) -> list[Any]:
    return [make_combination(g, "H") for g in groups]


def test_7_5_carre_beats_sequence_of_equal_value() -> None:
    """§7.5 (1): a carré of Q (100) beats a cent; §7.6 the winner scores all its combinations."""
    announced = {
        "N": _combos(["QS", "QH", "QD", "QC"]),
        "E": _combos(["7C", "8C", "9C", "TC", "JC"]),
        "S": _combos(["7D", "8D", "9D"]),
    }
    assert compare_declarations(announced, "H", CLASSIC, "N") == {
        "winner": "NS", "points": {"NS": 120, "EW": 0}}


def test_7_5_top_card_then_trump() -> None:
    """§7.5 (2) higher top card, (3) trump beats plain, (4) decl_tie."""
    higher = {"N": _combos(["8S", "9S", "TS"]), "E": _combos(["7H", "8H", "9H"])}
    assert compare_declarations(higher, "H", CLASSIC, "N")["winner"] == "NS"
    trump = {"N": _combos(["8S", "9S", "TS"]), "E": _combos(["8H", "9H", "TH"])}
    assert compare_declarations(trump, "H", CLASSIC, "N")["winner"] == "EW"
    tie = {"N": _combos(["8S", "9S", "TS"]), "E": _combos(["8D", "9D", "TD"])}
    assert compare_declarations(tie, "H", CLASSIC, "N") == {
        "winner": None, "points": {"NS": 0, "EW": 0}}
    first = rules(decl_tie="first_announcer")
    assert compare_declarations(tie, "H", first, "N")["winner"] == "NS"
    assert compare_declarations(tie, "H", first, "E")["winner"] == "EW"


def test_7_5_longer_run_first() -> None:
    """§7.5 (2) longer_run_first: a 6-run to the J beats a 5-run to the A (both cents)."""
    announced = {"N": _combos(["7S", "8S", "9S", "TS", "JS", "QS"]),
                 "E": _combos(["TD", "JD", "QD", "KD", "AD"])}
    assert compare_declarations(announced, "H", CLASSIC, "N")["winner"] == "EW"
    longer = rules(longer_run_first=True)
    assert compare_declarations(announced, "H", longer, "N")["winner"] == "NS"


def test_7_7_belote_king_first() -> None:
    """§7.7: belote scores when both are played; king_first: only if the king came first."""
    plays = [("N", "QH"), ("E", "7S"), ("N", "KH")]
    assert belote_counts("N", "H", plays, CLASSIC)
    assert not belote_counts("N", "H", plays, rules(king_first=True))
    assert not belote_counts("N", "H", plays[:2], CLASSIC)


# --- §8 hand score (seed 002's worked examples) ---------------------------------------------


def test_8_2_made() -> None:
    """§8.2: 82 against 80 is made; each team scores its own points (S2)."""
    out = hand_score(CLASSIC, "NS", {"NS": 82, "EW": 80}, None, {}, {})
    assert out == {"outcome": "made", "totals": {"NS": 82, "EW": 80},
                   "score": {"NS": 82, "EW": 80}, "reserve": 0}


def test_8_2_declaration_lowers_the_bar() -> None:
    """§8.2 (S2): with a 50 Suivi, 57 trick points suffice (107 against 105)."""
    out = hand_score(CLASSIC, "NS", {"NS": 57, "EW": 105}, None, {"NS": 50}, {})
    assert out["outcome"] == "made"
    assert out["score"] == {"NS": 107, "EW": 105}


def test_8_3_failed_with_belote() -> None:
    """§8.3 (S2 example): takers 70 + belote 20, defenders 92 + tierce 20 -> 20 / 182."""
    out = hand_score(CLASSIC, "NS", {"NS": 70, "EW": 92}, None, {"EW": 20}, {"NS": 20})
    assert out == {"outcome": "failed", "totals": {"NS": 90, "EW": 112},
                   "score": {"NS": 20, "EW": 182}, "reserve": 0}
    defenders = rules(belote_on_failure="defenders")
    assert hand_score(defenders, "NS", {"NS": 70, "EW": 92}, None, {"EW": 20},
                      {"NS": 20})["score"] == {"NS": 0, "EW": 202}


def test_8_3_taker_declarations_transfer() -> None:
    """§8.3 (S2 hand 3): the taker's 50 goes to the defenders: 212; `lost`: 162."""
    out = hand_score(CLASSIC, "NS", {"NS": 40, "EW": 122}, None, {"NS": 50}, {})
    assert out["outcome"] == "failed"
    assert out["score"] == {"NS": 0, "EW": 212}
    lost = rules(taker_decl_on_failure="lost")
    assert hand_score(lost, "NS", {"NS": 40, "EW": 122}, None, {"NS": 50},
                      {})["score"] == {"NS": 0, "EW": 162}


def test_8_4_litige() -> None:
    """§8.4: 81-81 is a litige: defenders score 81, takers their belote, 81 to the reserve."""
    out = hand_score(CLASSIC, "EW", {"NS": 81, "EW": 81}, None, {}, {})
    assert out == {"outcome": "litige", "totals": {"NS": 81, "EW": 81},
                   "score": {"NS": 81, "EW": 0}, "reserve": 81}
    with_belote = hand_score(CLASSIC, "EW", {"NS": 91, "EW": 71}, None, {}, {"EW": 20})
    assert with_belote["score"] == {"NS": 91, "EW": 20}
    assert with_belote["reserve"] == 71
    assert hand_score(rules(tie_rule="fail"), "EW", {"NS": 81, "EW": 81}, None, {},
                      {})["score"] == {"NS": 162, "EW": 0}
    assert hand_score(rules(tie_rule="made"), "EW", {"NS": 81, "EW": 81}, None, {},
                      {})["score"] == {"NS": 81, "EW": 81}


def test_8_4_reserve_goes_to_next_winner() -> None:
    """§8.4: a carried reserve goes to the takers if made, the defenders if failed."""
    made = hand_score(CLASSIC, "NS", {"NS": 100, "EW": 62}, None, {}, {}, reserve=81)
    assert made["score"] == {"NS": 181, "EW": 62}
    assert made["reserve"] == 0
    failed = hand_score(CLASSIC, "NS", {"NS": 60, "EW": 102}, None, {}, {}, reserve=81)
    assert failed["score"] == {"NS": 0, "EW": 243}
    again = hand_score(CLASSIC, "NS", {"NS": 81, "EW": 81}, None, {}, {}, reserve=81)
    assert again["reserve"] == 162


def test_8_5_capot() -> None:
    """§8.5 (S2 example): capot with a 20 Suivi scores 252 + 20 = 272, defenders 0."""
    out = hand_score(CLASSIC, "NS", {"NS": 252, "EW": 0}, "NS", {"NS": 20}, {})
    assert out["score"] == {"NS": 272, "EW": 0}
    # defenders capot the takers: 252 + declarations
    out = hand_score(CLASSIC, "NS", {"NS": 0, "EW": 252}, "EW", {"EW": 50}, {})
    assert out["score"] == {"NS": 0, "EW": 302}


def test_8_5_capot_loser_declarations() -> None:
    """§8.5 capot_loser_declarations: kept | to_capot_team | void."""
    args: tuple[Any, ...] = ("NS", {"NS": 252, "EW": 0}, "NS", {"EW": 100}, {})
    assert hand_score(CLASSIC, *args)["score"] == {"NS": 252, "EW": 100}
    to_team = hand_score(rules(capot_loser_declarations="to_capot_team"), *args)
    assert to_team["score"] == {"NS": 352, "EW": 0}
    assert hand_score(rules(capot_loser_declarations="void"), *args)["score"] == {
        "NS": 252, "EW": 0}


# --- play state and perft ----------------------------------------------------------------------


def test_refplay_last_trick_bonus_and_pop() -> None:
    """§5.1: the last trick earns 10; pop restores the state."""
    state = RefPlay(CLASSIC, "H", {"N": ["AS"], "E": ["7S"], "S": ["TS"], "W": ["7H"]}, "N")
    for card in ["AS", "7S", "TS"]:
        state.push(card)
    state.push("7H")
    assert state.tricks[-1].winner == "W"
    assert state.trick_points == {"NS": 0, "EW": 31}
    state.pop()
    assert state.trick == ["AS", "7S", "TS"] and state.trick_points == {"NS": 0, "EW": 0}


def test_perft_by_hand() -> None:
    """Perft counted by hand (§6.1, §6.3 b, §6.3 c).

    Trick 1: N leads one of 2 spades, E follows with one of 2 spades (no duty to beat),
    S is void and must trump (2 trumps, none on the table), W holds only trumps and
    must overtrump S if able.  Trick 2 is forced.
    """
    hands = {"N": ["7S", "8S"], "E": ["9S", "TS"], "S": ["7H", "JH"], "W": ["8H", "9H"]}
    # S plays 7H -> W must overtrump: 8H or 9H (2); S plays JH -> W cannot: any card (2).
    # 2 (N) * 2 (E) * (2 + 2) = 16 sequences of trick 1; trick 2 is forced.
    assert ref_count_sequences(CLASSIC, "H", hands, "N", [], 4) == 16
    assert ref_count_sequences(CLASSIC, "H", hands, "N", [], 8) == 16
    # must_undertrump makes no difference here (W holds only trumps)
    assert ref_count_sequences(rules(must_undertrump=True), "H", hands, "N", [], 8) == 16


# --- replay -------------------------------------------------------------------------------


def _suits_record() -> dict[str, Any]:
    """N holds every spade, E every heart, S every diamond, W every club; N takes spades."""
    hands = {seat: [r + s for r in "789TJQKA"] for seat, s in zip("NESW", "SHDC", strict=True)}
    plays = []
    for i in range(8):
        plays += [hands["N"][7 - i], hands["E"][i], hands["S"][i], hands["W"][i]]
    return {"profile": "classic", "dealer": "W", "hands": hands, "turned": "7S",
            "bids": ["take"], "plays": plays}


def test_replay_capot_by_hand() -> None:
    """A whole hand checked by hand: N leads spades 8 times and takes every trick (§5.2 capot);
    every seat holds a cent, N's in trumps wins (§7.5 (3)) and NS score 200; N's belote 20.
    Made: NS 252 + 200 + 20 = 472, EW 0 (§8.2, §8.5)."""
    out = ref_replay(_suits_record())
    assert out["complete"] is True
    assert out["contract"] == {"taker": "N", "team": "NS", "trump": "S", "value": None,
                               "multiplier": 1}
    assert [t["winner"] for t in out["tricks"]] == ["N"] * 8
    assert out["tricks"][0] == {"leader": "N", "cards": ["AS", "7H", "7D", "7C"], "winner": "N",
                                "points": 11}
    assert out["tricks"][-1]["points"] == 0 + 11 + 11 + 11 + 100
    assert out["trick_points"] == {"NS": 252, "EW": 0}
    assert out["capot"] == "NS"
    assert out["declarations"] == {"winner": "NS", "points": {"NS": 200, "EW": 0}}
    assert out["belote"] == "NS" and out["belote_points"] == {"NS": 20, "EW": 0}
    assert out["score"] == {"outcome": "made", "totals": {"NS": 472, "EW": 0},
                            "score": {"NS": 472, "EW": 0}, "reserve": 0}
    assert out["next"] is None


def test_replay_unfinished_and_errors() -> None:
    """docs/json.md: fewer than 32 plays -> next seat and its legal cards; bad records refused."""
    record = _suits_record()
    record["plays"] = record["plays"][:5]  # trick 2: N led KS
    out = ref_replay(record)
    assert out["complete"] is False and out["score"] is None
    assert out["next"] == {"seat": "E", "legal": [r + "H" for r in "89TJQKA"]}
    record["plays"] = ["AS", "AH"]  # E holds AH: legal (void in spades, no trump)
    assert ref_replay(record)["next"]["seat"] == "S"
    record["plays"] = ["AS", "AD"]
    with pytest.raises(ValueError, match="trick 1: E does not hold AD"):
        ref_replay(record)
    record["bids"] = ["pass", "take"]  # E takes, but the turned 7S is with N
    record["plays"] = []
    with pytest.raises(ValueError, match="turned"):
        ref_replay(record)
    record["bids"] = ["pass"] * 4 + ["S"]  # round 2 may not name the turned suit (§3.3)
    with pytest.raises(ValueError, match="round 2"):
        ref_replay(record)


def test_replay_illegal_card_message() -> None:
    """CONTRACT: an illegal card names trick, seat, card and rule (§6.3 b: must trump)."""
    record = _suits_record()
    record["hands"]["E"] = ["7H", "8H", "9H", "TH", "JH", "QH", "KH", "7D"]
    record["hands"]["S"] = ["AH", "8D", "9D", "TD", "JD", "QD", "KD", "AD"]
    record["turned"] = "7H"
    record["bids"] = ["pass", "take"]  # E takes hearts
    record["plays"] = ["AS", "7D"]  # E is void in spades and holds trumps
    with pytest.raises(ValueError, match=r"trick 1: E may not play 7D: must trump"):
        ref_replay(record)


def test_replay_all_pass() -> None:
    """§3.3 / §2.4: eight passes void the deal."""
    record = _suits_record()
    record["bids"] = ["pass"] * 8
    record["plays"] = []
    out = ref_replay(record)
    assert out["complete"] is True and out["contract"] is None
    assert out["score"]["outcome"] == "void"
