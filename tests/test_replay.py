"""`belote replay` (docs/json.md) on hand-made records (docs/rules.md §3, §5–§8)."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest
from typer.testing import CliRunner

from belote.cards import rank_of
from belote.cli import app
from belote.errors import BeloteError, InvalidRecordError
from belote.options import make_rules
from belote.replay import replay
from belote.round import Round

# A fixed deal: N holds every heart, E every spade, S every diamond, W every club.
HANDS = {
    "N": ["7H", "8H", "9H", "TH", "JH", "QH", "KH", "AH"],
    "E": ["7S", "8S", "9S", "TS", "JS", "QS", "KS", "AS"],
    "S": ["7D", "8D", "9D", "TD", "JD", "QD", "KD", "AD"],
    "W": ["7C", "8C", "9C", "TC", "JC", "QC", "KC", "AC"],
}


def record(**changes: Any) -> dict[str, Any]:
    rec: dict[str, Any] = {
        "profile": "classic",
        "dealer": "W",
        "hands": copy.deepcopy(HANDS),
        "turned": "AH",
        "bids": ["take"],
        "plays": [],
    }
    rec.update(changes)
    return rec


def capot_plays() -> list[str]:
    # N leads trumps from the top; everybody else is void and discards.
    plays = []
    n_order = ["JH", "9H", "AH", "TH", "KH", "QH", "8H", "7H"]
    for i in range(8):
        plays += [n_order[i], HANDS["E"][i], HANDS["S"][i], HANDS["W"][i]]
    return plays


def test_capot_with_declarations_and_belote() -> None:
    """§5.2 capot 252; §7 N's cent (8 hearts) and the spade, diamond, club cents; §7.7 belote."""
    out = replay(record(plays=capot_plays()))
    assert out["complete"] is True
    assert out["contract"] == {"taker": "N", "team": "NS", "trump": "H", "value": None,
                               "multiplier": 1}
    assert out["capot"] == "NS"
    assert out["trick_points"] == {"NS": 252, "EW": 0}
    assert out["tricks"][-1]["points"] == 100 + out["tricks"][-1]["points"] - 100
    assert sum(t["points"] for t in out["tricks"]) == 252
    # Every seat holds an 8-card run (one cent each, §7.3). N's is in trumps with the
    # ace on top: the trump run beats the equal plain ones (§7.5 (3)); NS scores N's and S's.
    assert out["declarations"] == {"winner": "NS", "points": {"NS": 200, "EW": 0}}
    assert out["belote"] == "NS" and out["belote_points"] == {"NS": 20, "EW": 0}
    assert out["score"] == {"outcome": "made", "totals": {"NS": 472, "EW": 0},
                            "score": {"NS": 472, "EW": 0}, "reserve": 0}
    assert out["next"] is None


def test_belote_not_announced_scores_nothing() -> None:
    out = replay(record(plays=capot_plays(), belote={"N": False}))
    assert out["belote"] is None and out["belote_points"] == {"NS": 0, "EW": 0}


def test_declarations_given_explicitly() -> None:
    """§7.4: a seat left out announces nothing; here only E announces a tierce."""
    out = replay(record(plays=capot_plays(), declarations={"E": [["7S", "8S", "9S"]]}))
    assert out["declarations"] == {"winner": "EW", "points": {"NS": 0, "EW": 20}}


def test_incomplete_answers_the_legal_cards() -> None:
    out = replay(record(plays=["7H"]))
    assert out["complete"] is False and out["score"] is None
    assert out["next"] == {"seat": "E", "legal": HANDS["E"]}  # void in hearts: anything


def test_all_pass_is_void() -> None:
    out = replay(record(bids=["pass"] * 8))
    assert out == {"complete": True, "contract": None,
                   "score": {"outcome": "void", "totals": {"NS": 0, "EW": 0},
                             "score": {"NS": 0, "EW": 0}, "reserve": 0}}


def test_unfinished_bidding_answers_the_legal_calls() -> None:
    out = replay(record(bids=["pass"] * 5))
    assert out["complete"] is False
    assert out["next"] == {"seat": "E", "legal": ["pass", "S", "D", "C"]}


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"plays": ["7S"]}, "trick 1: N does not hold 7S"),
        ({"plays": ["7H", "7H"]}, "trick 1: E does not hold 7H"),
        ({"bids": ["pass", "pass", "pass", "pass", "pass", "H"]}, "turned suit"),
        ({"bids": ["pass", "take"]}, "turned: AH must end in the taker's hand (E"),
        ({"dealer": "Q"}, "dealer: 'Q' is not a seat"),
        ({"turned": "1H"}, "turned: not a card: '1H'"),
        ({"bids": ["take", "pass"]}, "bid 2:"),
        ({"plays": ["7H"] * 33}, "plays: 33 cards"),
        ({"colour": 1}, "unknown key 'colour'"),
        ({"declarations": {"N": [["7S", "8S", "9S"]]}}, "does not hold"),
        ({"declarations": {"N": [["7H", "8H", "TH"]]}}, "not a sequence"),
        ({"options": {"must_undertrump": "yes"}}, "'must_undertrump'"),
        ({"belote": {"E": True}}, "belote.E: E does not hold the trump king and queen (§7.7)"),
        ({"belote": {"N": "no"}}, "belote.N: expected true or false"),
    ],
)
def test_errors_name_what_and_where(changes: dict[str, Any], message: str) -> None:
    with pytest.raises(BeloteError) as info:
        replay(record(**changes))
    assert message in str(info.value)


def test_duplicate_card_in_hands() -> None:
    rec = record()
    rec["hands"]["N"][0] = "7S"
    with pytest.raises(BeloteError, match=r"hands.E\[0\]: 7S is also in hands.N"):
        replay(rec)


def test_illegal_card_names_the_rule() -> None:
    # N leads 7H (trump); E, void, may discard; S void; W void. Trick 1 to N.
    # Then N leads 8H... build a must-follow case with a mixed deal instead.
    hands = {
        "N": ["7H", "8S", "9D", "TC", "JH", "QS", "KD", "AC"],
        "E": ["8H", "9S", "TD", "JC", "QH", "KS", "AD", "7C"],
        "S": ["9H", "TS", "JD", "QC", "KH", "AS", "7D", "8C"],
        "W": ["TH", "JS", "QD", "KC", "AH", "7S", "8D", "9C"],
    }
    rec = record(hands=hands, turned="AH", dealer="S", bids=["take"])  # W takes hearts
    rec["plays"] = ["TH", "8H"]  # W leads TH; N must overtrump with JH
    with pytest.raises(BeloteError, match="trick 1: N does not hold 8H"):
        replay(rec)
    rec["plays"] = ["TH", "7H"]
    with pytest.raises(BeloteError, match=r"trick 1: N may not play 7H: must play higher"):
        replay(rec)


def random_records(n: int, seed: int) -> list[tuple[dict[str, Any], Round]]:
    rng = random.Random(seed)
    out = []
    for i in range(n):
        deck = list(range(32))
        rng.shuffle(deck)
        rnd = Round(make_rules(), i % 4, deck)
        while rnd.phase == "bidding":
            rnd.call(rng.choice(rnd.legal_calls()))
        stop = rng.choice([32, 32, rng.randrange(33)])
        while rnd.phase == "play" and len(rnd.cards_played()) < stop:
            rnd.play_card(rng.choice(rnd.legal_cards()), belote=rng.random() < 0.8)
        out.append((rnd.to_record(), rnd))
    return out


def test_live_round_and_replay_agree() -> None:
    """A deal played live and its record replayed give the same tricks and score."""
    for rec, rnd in random_records(200, 11):
        out = replay(json.loads(json.dumps(rec)))
        if rnd.phase == "over":
            res = rnd.result()
            assert out["score"] == res.score.to_json()
            assert [t["winner"] for t in out["tricks"]] == ["NESW"[t.winner] for t in res.tricks]
        elif rnd.phase == "play":
            assert out["next"]["legal"] == sorted(out["next"]["legal"],
                                                  key=lambda c: ("SHDC".index(c[1]),
                                                                 "789TJQKA".index(c[0])))


runner = CliRunner()


def test_cli_json_and_jsonl() -> None:
    rec = record(plays=capot_plays())
    res = runner.invoke(app, ["replay", "--json"], input=json.dumps(rec))
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["capot"] == "NS"
    lines = "\n".join([json.dumps(rec), "{bad", json.dumps(record(plays=["7S"]))])
    res = runner.invoke(app, ["replay", "--jsonl"], input=lines)
    assert res.exit_code == 2
    answers = [json.loads(line) for line in res.stdout.splitlines()]
    assert answers[0]["complete"] is True
    assert answers[1]["error"].startswith("line 2: not valid JSON")
    assert "does not hold 7S" in answers[2]["error"]


def test_cli_error_exit_2_no_traceback() -> None:
    res = runner.invoke(app, ["replay", "--json"], input=json.dumps(record(plays=["7S"])))
    assert res.exit_code == 2
    assert json.loads(res.stdout) == {"error": "trick 1: N does not hold 7S",
                                      "code": "card_not_held"}
    assert "error: trick 1: N does not hold 7S" in res.stderr
    assert "Traceback" not in res.output


def test_cli_human_form() -> None:
    res = runner.invoke(app, ["replay"], input=json.dumps(record(plays=capot_plays())))
    assert res.exit_code == 0
    assert "N takes for NS" in res.stdout and "made" in res.stdout


def test_one_replay_path_counts_the_plays_of_every_table() -> None:
    """docs/rules.md §12.1 (24_cards: 8 tricks of three) and §1 (32 cards): a record
    holds at most the cards of a deal's tricks, at every table."""
    for profile, most in (("classic", 32), ("classic-3p", 24)):
        rules = make_rules(profile)
        deck = [c for c in range(32) if profile == "classic" or rank_of(c) >= 2]
        rnd = Round(rules, 0, deck)
        rnd.call("take")
        record = rnd.to_record()
        record["plays"] = ["7S"] * (most + 1)
        with pytest.raises(InvalidRecordError, match=rf"^plays: {most + 1} cards, at most {most}$"):
            replay(record)
