"""The per-seat calculator of three and two players (docs/rules.md §12, docs/json.md).

The cross-check: for many random deals played by the engine, the hand entry a
table would write from the deal's facts (who took, each seat's trick points, the
capot, declarations, belote per seat) is scored by ``belote score hand --json``
exactly as the engine scored the played hand (``HandResult.seats``), and a whole
game entered hand by hand ends as :class:`belote.game.Match` ends it.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from belote.cards import trump_name
from belote.errors import BeloteError, InvalidRecordError, OptionError
from belote.game import Match
from belote.hand import DECOUVERTE, HandResult
from belote.options import make_rules
from belote.round import OVER, Round
from belote.scoring import (
    SEAT_LETTERS,
    GameTally,
    HandEntry,
    HandScore,
    Outcome,
    SeatEntry,
    game_status,
    parse_seat_entry,
    score_game_json,
    score_hand_json,
    score_seat_hand,
    seat_dict,
    seat_entry_to_json,
)
from tests.test_small_tables import play_round

MODES = [
    ("classic-3p", {}),
    ("classic-3p", {"three_deal": "kitty"}),
    ("classic-3p", {"three_deal": "six_each"}),
    ("classic-2p", {}),
    ("classic-2p", {"two_deal": "decouverte"}),
]
VARIANTS: list[dict[str, Any]] = [
    {},
    {"sa_ta_in_classic": True},
    {"sa_ta_in_classic": True, "ta_values": "scaled"},
    {"tie_rule": "fail", "taker_decl_on_failure": "lost", "belote_on_failure": "defenders"},
    {"rounding": "nearest10_5up", "capot_loser_declarations": "to_capot_team"},
]


def _facts(rnd: Round, res: HandResult, rng: random.Random) -> dict[str, Any]:
    """The hand entry a table writes down from what happened in the deal."""
    play = rnd._play
    assert play is not None
    n = rnd.players
    by_seat = play.state.points_by_seat()
    contract = res.contract
    obj: dict[str, Any] = {"profile": rnd.rules.profile, "options": rnd.rules.overrides()}
    if contract.value == DECOUVERTE:
        points = list(res.trick_points)
        obj["taker"] = None
        obj["capot"] = None if res.capot is None else SEAT_LETTERS[res.capot]
    elif n == 2:
        points = list(res.trick_points)
        obj["taker"] = SEAT_LETTERS[contract.taker]
        obj["capot"] = None if res.capot is None else SEAT_LETTERS[res.capot]
    else:
        points = list(by_seat)
        points[contract.taker] = res.trick_points[0]  # the kitty's discards included
        obj["taker"] = SEAT_LETTERS[contract.taker]
        obj["capot"] = None if res.capot is None else ("taker", "defenders")[res.capot]
        obj["leader"] = SEAT_LETTERS[play.first_leader]
    obj["trick_points"] = seat_dict(points)
    # validated declarations per side, written against one seat of the side
    decl: dict[str, int] = {}
    for side, value in enumerate(res.declarations.points):
        if value:
            seats = [s for s in range(n) if contract.teams()[s] == side]
            decl[SEAT_LETTERS[rng.choice(seats)]] = value
    obj["declarations"] = decl
    obj["belote"] = {SEAT_LETTERS[s]: p for s, p in enumerate(play.belote_by_seat()) if p}
    obj["trump"] = trump_name(contract.trump)
    if play.in_play is not None:
        obj["trick_total"] = play.in_play
    if rnd.reserve:
        obj["reserve"] = rnd.reserve
    return obj


def _leave_one_out(obj: dict[str, Any], rng: random.Random) -> dict[str, Any] | None:
    """The same entry with one seat's trick points left out (worked out), when the
    entry still decides them."""
    out: dict[str, Any] = json.loads(json.dumps(obj))
    points = out["trick_points"]
    capot = obj.get("capot")
    if capot is None:
        del points[rng.choice(sorted(points))]
        return out
    if capot == "taker":
        del points[obj["taker"]]
        return out
    if capot in SEAT_LETTERS:
        del points[capot]
        return out
    if "kitty" in json.dumps(obj.get("options")):
        return None  # the defenders' own points decide their shares
    defenders = [s for s in points if s != obj["taker"]]
    del points[rng.choice(defenders)]
    return out


@pytest.mark.parametrize(("profile", "options"), MODES)
@pytest.mark.parametrize("variant", range(len(VARIANTS)))
def test_entries_from_played_deals_score_as_the_engine(
    profile: str, options: dict[str, Any], variant: int
) -> None:
    extra = VARIANTS[variant]
    if profile == "classic-2p" and options and "sa_ta_in_classic" in extra:
        extra = {}
    rules = make_rules(profile, {**options, **extra})
    rng = random.Random(f"{profile}{options}{variant}")
    scored = 0
    for i in range(150):
        deck = list(Match(rules, seed=rng.randrange(10**6))._pack)
        rng.shuffle(deck)
        rnd = Round(rules, i % rules.players, deck, reserve=rng.choice([0, 0, 0, 40]))
        if rules.two_deal == "decouverte" and rules.players == 2:
            rnd = Round(rules, i % rules.players, deck)
        play_round(rnd, rng)
        if rnd.phase != OVER:
            continue
        res = rnd.result()
        assert res.seats is not None
        obj = _facts(rnd, res, rng)
        answer = score_hand_json(json.loads(json.dumps(obj)))
        assert answer["score"] == seat_dict(res.seats), (obj, res)
        assert answer["outcome"] == res.score.outcome
        assert list(answer["totals"].values()) == list(res.score.totals)
        assert answer["reserve"] == res.score.reserve
        short = _leave_one_out(obj, rng)
        if short is not None:
            assert score_hand_json(short) == answer, short
        # the stored form reads back to the same entry
        entry = parse_seat_entry(obj, rules)
        again = parse_seat_entry(seat_entry_to_json(entry), rules)
        assert again == entry
        assert score_seat_hand(rules, again).score == res.seats
        scored += 1
    assert scored > 60


@pytest.mark.parametrize(("profile", "options"), MODES)
@pytest.mark.parametrize(
    "rule", [{}, {"both_cross": "taker_must_make"}, {"both_cross": "draw", "target": 300},
             {"limit": "deals", "target": 5}])
def test_a_game_entered_hand_by_hand_ends_as_the_engine(
    profile: str, options: dict[str, Any], rule: dict[str, Any]
) -> None:
    rules = make_rules(profile, {"target": 500, **options, **rule})
    rng = random.Random(f"game {profile}{options}{rule}")
    for game in range(6):
        match = Match(rules, seed=rng.randrange(10**6))
        hands: list[dict[str, Any]] = []
        while not match.finished and match.deals < 300:
            rnd = match.new_round()
            play_round(rnd, rng)
            result = rnd.result() if rnd.phase == OVER else None
            match.finish_round()
            if result is None:
                continue
            obj = _facts(rnd, result, rng)
            for key in ("profile", "options", "reserve"):
                obj.pop(key, None)
            hands.append(obj)
            answer = score_game_json(
                {"profile": profile, "options": rules.overrides(), "hands": hands})
            assert list(answer["totals"].values()) == match.seat_totals, game
            assert answer["finished"] == match.finished
            if match.finished:
                assert answer["winner"] == (
                    None if match.winner is None else SEAT_LETTERS[match.winner])
                assert answer["reserve"] == 0
            else:
                assert answer["reserve"] == match.reserve
        assert match.finished


def test_three_player_entry_by_hand() -> None:
    """§12.1: E takes and makes; N and S each score their own tricks and share the rest."""
    answer = score_hand_json({
        "profile": "classic-3p", "taker": "E", "trick_points": {"E": 92, "N": 40},
        "declarations": {"S": 20}, "belote": "N", "leader": "S",
    })
    # the defenders' T is 70 + 20 + 20 = 110 against 92: failed; they score
    # 162 + 20 + 20 = 202: N 40 + 20 (belote), S 30, and 112 shared
    assert answer == {"outcome": "failed", "totals": {"taker": 92, "defenders": 110},
                      "score": {"N": 40 + 20 + 56, "E": 0, "S": 30 + 56},
                      "reserve": 0}
    made = score_hand_json({"profile": "classic-3p", "taker": "N",
                            "trick_points": {"N": 100, "E": 31}, "declarations": {"E": 20}})
    # N 100 against 62 + 20: made; E 31, S 31, the 20 shared (odd point: none)
    assert made["score"] == {"N": 100, "E": 41, "S": 41}
    litige = score_hand_json({"profile": "classic-3p", "taker": "S",
                              "trick_points": {"S": 81, "E": 81}})
    assert litige == {"outcome": "litige", "totals": {"taker": 81, "defenders": 81},
                      "score": {"N": 0, "E": 81, "S": 0}, "reserve": 81}
    capot = score_hand_json({"profile": "classic-3p", "taker": "E", "capot": "taker"})
    assert capot["score"] == {"N": 0, "E": 252, "S": 0}


def test_two_player_entries() -> None:
    stock = score_hand_json({"profile": "classic-2p", "taker": "E",
                             "trick_points": {"E": 70}, "trick_total": 110})
    assert stock == {"outcome": "made", "totals": {"N": 40, "E": 70},
                     "score": {"N": 40, "E": 70}, "reserve": 0}
    failed = score_hand_json({"profile": "classic-2p", "taker": "E",
                              "trick_points": {"E": 50, "N": 60}})
    assert failed["score"] == {"N": 110, "E": 0}  # the trick total, not 162 (§12)
    decouverte = score_hand_json({
        "profile": "classic-2p", "options": {"two_deal": "decouverte"},
        "trick_points": {"N": 100}, "belote": "E"})
    assert decouverte == {"outcome": "counted", "totals": {"N": 100, "E": 82},
                          "score": {"N": 100, "E": 82}, "reserve": 0}


@pytest.mark.parametrize(
    ("obj", "message"),
    [
        ({"taker": "W", "trick_points": {"N": 92, "E": 40}},
         r"taker: 'W' is not a seat \(N, E, S\)"),
        ({"taker": "NS", "trick_points": {"NS": 92}}, "taker: 'NS' is not a seat"),
        ({"trick_points": {"N": 92, "E": 40}}, "taker: required"),
        ({"taker": "N", "trick_points": {"N": 92}}, "every seat's points, or all but one"),
        ({"taker": "N", "trick_points": {"N": 92, "E": 80}}, "is more than 162"),
        ({"taker": "N", "trick_points": {"N": 92, "E": 40, "S": 40}}, "does not add to 162"),
        ({"taker": "N", "capot": "defenders", "trick_points": {"N": 10}},
         r"trick_points.N: 10 with a capot: N took no trick"),
        ({"taker": "N", "capot": "N"}, "capot: 'N' is not 'taker', 'defenders'"),
        ({"taker": "N", "trick_points": {"N": 92, "E": 40}, "belote": {"E": 20, "S": 20}},
         "two seats have belote"),
        ({"taker": "N", "trick_points": {"N": 92, "E": 40}, "declarations": {"N": 20, "E": 50}},
         "the taker and a defender have points"),
        ({"taker": "N", "trick_points": {"N": 92, "E": 40}, "declarations": {"E": 30}},
         "declarations.E: 30 is not a sum"),
        ({"taker": "N", "trick_points": {"N": 92, "E": 40}, "contract": 80},
         "unknown key 'contract'"),
        ({"taker": "N", "trick_points": {"N": 92, "E": 40}, "trick_total": 150},
         "the whole pack is played here"),
        ({"taker": "N", "trick_points": {"N": 92, "E": 40}, "leader": "W"},
         "leader: 'W' is not a seat"),
    ],
)
def test_three_player_entry_errors(obj: dict[str, Any], message: str) -> None:
    with pytest.raises(BeloteError, match=message):
        score_hand_json({"profile": "classic-3p", **obj})


@pytest.mark.parametrize(
    ("options", "obj", "message"),
    [
        ({}, {"taker": "E", "trick_points": {"E": 70}}, "trick_total: required"),
        ({}, {"taker": "S", "trick_points": {"N": 70, "E": 40}}, "'S' is not a seat"),
        ({}, {"taker": "N", "trick_points": {"N": 70, "E": 40}, "leader": "E"},
         "only with three players"),
        ({"two_deal": "decouverte"}, {"taker": "N", "trick_points": {"N": 70}},
         "nobody takes in belote découverte"),
        ({"two_deal": "decouverte"}, {"trick_points": {"N": 70}, "reserve": 20},
         "carries no reserve"),
        ({"two_deal": "decouverte"}, {"trick_points": {"N": 70}, "declarations": {"N": 20}},
         "no declarations in belote découverte"),
    ],
)
def test_two_player_entry_errors(options: dict[str, Any], obj: dict[str, Any],
                                 message: str) -> None:
    with pytest.raises(BeloteError, match=message):
        score_hand_json({"profile": "classic-2p", "options": options, **obj})


def test_game_refuses_a_hand_after_the_end() -> None:
    hands = [{"taker": "N", "trick_points": {"N": 162, "E": 0}}] * 8
    with pytest.raises(InvalidRecordError, match="hand 8: the game was already won"):
        score_game_json({"profile": "classic-3p", "target": 1000, "hands": hands})


def test_seat_entry_checks_the_profile() -> None:
    rules = make_rules("classic-3p")
    with pytest.raises(InvalidRecordError, match="classic-3p is played by 3"):
        score_seat_hand(rules, SeatEntry(2, 0, (92, 70)))


def test_one_tally_for_every_table() -> None:
    """§11, §12: GameTally keeps the game per seat at a table of three, in the same
    GameScore as two teams; a team entry has no place there."""
    rules = make_rules("classic-3p")
    tally = GameTally(rules, target=150)
    assert tally.totals == (0, 0, 0)
    tally.add(SeatEntry(3, 0, (92, 40, 30)))
    game = tally.result()
    assert game.players == 3 and game.running == ((92, 40, 30),)
    assert game.to_json()["totals"] == {"N": 92, "E": 40, "S": 30}
    with pytest.raises(OptionError, match="scored per seat"):
        tally.add(HandEntry(taker=0, trick_points=(92, 70)))


def test_game_status_per_seat() -> None:
    """§11.3 per seat: ``draw`` only on equal highest totals (two teams: as soon as both
    reach the target); ``taker_must_make`` takes a taker who failed out, after the last
    deal of a deal-limited game too."""
    entry = SeatEntry(3, 0, (40, 60, 62))
    failed = HandScore(Outcome.FAILED, (40, 122), (0, 81, 81), 0, 3)
    draw = make_rules("classic-3p", {"both_cross": "draw"})
    assert game_status(draw, (160, 170, 0), 150, entry, failed) == (True, 1)
    assert game_status(draw, (170, 170, 0), 150, entry, failed) == (True, None)
    assert game_status(make_rules("classic", {"both_cross": "draw"}), (160, 170), 150) == (
        True, None)
    must = make_rules("classic-3p", {"both_cross": "taker_must_make"})
    assert game_status(must, (200, 170, 0), 150, entry, failed) == (True, 1)
    assert game_status(must, (200, 100, 0), 150, entry, failed) == (True, 0)  # alone at it
    deals = make_rules("classic-3p", {"both_cross": "taker_must_make", "limit": "deals"})
    assert game_status(deals, (200, 170, 0), 5, entry, failed, deals_played=5) == (True, 1)
    assert game_status(deals, (200, 170, 0), 5, entry, failed, deals_played=4) == (False, None)
