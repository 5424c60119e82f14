"""The double-dummy solver (issue 5) and `belote solve` (docs/json.md).

The fast :func:`belote.solver.solve` is checked against :func:`minimax` (full
search over ``PlayState``, no pruning) on many random endgames of 2 to 4 tricks,
every trump mode (docs/rules.md §5: suits, SA, TA) and the card-play options of §6,
value and the value after each legal card; against a minimax over the reference
engine (tests/reference) where no capot is possible; and on positions worked out
by hand (§5.1 last trick, §5.2 capot).
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from belote._table_search import solve_table
from belote.cards import HEARTS, NO_TRUMP, SPADES, Card, card_name, mask_of, parse_card
from belote.cli import app
from belote.errors import BeloteError, IllegalPlayError, InvalidRecordError, OptionError
from belote.options import Rules, make_rules
from belote.play import PlayState
from belote.solver import SolveResult, minimax, parse_position, solve, solve_json, solve_value
from tests.helpers import mask, position
from tests.reference.engine import DECK, SEATS, TRUMP_MODES, RefPlay

# The options of docs/rules.md §6 (and §5.4 ta_values) that change the card play.
PLAY_OPTIONS: dict[str, tuple[Any, ...]] = {
    "overtrump_partner_on_trump_lead": (True, False),
    "partner_master_exemption": (True, False),
    "undertrump_partner": ("allowed", "only_if_only_trumps", "must_overtrump_if_only_trumps"),
    "must_undertrump": (True, False),
    "ta_values": ("pc", "ffbc", "scaled"),
}


def random_rules(rng: random.Random) -> Rules:
    options = {name: rng.choice(values) for name, values in PLAY_OPTIONS.items()
               if rng.random() < 0.5}
    return make_rules(rng.choice(("classic", "moroccan", "coinche", "contree")), options)


def random_endgame(rng: random.Random, trump: int, tricks_left: int) -> PlayState:
    """A deal played at random down to ``tricks_left`` tricks, then 0 to 3 more cards
    (a trick in progress); its tricks won are those of that play."""
    deck = list(range(32))
    rng.shuffle(deck)
    state = PlayState(random_rules(rng), trump, [mask_of(deck[8 * i:8 * i + 8]) for i in range(4)],
                      rng.randrange(4))
    while state.tricks_left > tricks_left:
        state.push(rng.choice(state.legal_cards()))
    for _ in range(rng.randrange(4)):
        state.push(rng.choice(state.legal_cards()))
    return state


def reference_moves(state: PlayState) -> dict[Card, int]:
    """Each legal card's value by minimax: the points of a trick it ends plus the rest."""
    out = {}
    for c in state.legal_cards():
        before = state.trick_points[0]
        state.push(c)
        out[c] = state.trick_points[0] - before + minimax(state)
        state.pop()
    return out


def check_against_minimax(state: PlayState) -> None:
    moves = reference_moves(state)
    value = max(moves.values()) if state.turn % 2 == 0 else min(moves.values())
    assert minimax(state) == value
    key = state.key()
    result = solve(state)
    where = (state.rules.overrides(), state.trump, state.key(), state.tricks_won)
    assert result.value == value, where
    assert result.moves == moves, where
    assert solve_value(state) == value, where
    assert state.key() == key  # the state is left as it was


def test_ranked_puts_the_best_card_first_for_either_side() -> None:
    """The cards best first for the side to play, equal values in deck order: NS take
    the most points, EW leave them the fewest (the order `belote solve` prints)."""
    result = SolveResult(value=30, moves={7: 10, 3: 30, 12: 30, 5: 0}, nodes=0)
    assert result.ranked(True) == [3, 12, 7, 5]
    assert result.ranked(False) == [5, 7, 3, 12]
    assert SolveResult(value=0, moves={}, nodes=0).ranked(True) == []


# --- against minimax ------------------------------------------------------------------


@pytest.mark.parametrize("trump", range(6))
def test_matches_minimax_on_random_endgames(trump: int) -> None:
    """§5, §6: value and per-card values equal full minimax, 2-4 tricks left."""
    rng = random.Random(1000 + trump)
    for n in range(36):
        check_against_minimax(random_endgame(rng, trump, (2, 3, 3, 4)[n % 4]))


@pytest.mark.parametrize("trump", range(6))
def test_matches_minimax_when_a_capot_is_open(trump: int) -> None:
    """§5.2: with one team holding every trick so far, the last trick may be worth 100."""
    rng = random.Random(2000 + trump)
    for n in range(16):
        left = 2 + n % 2
        deck = list(range(32))
        rng.shuffle(deck)
        hands = [mask_of(deck[left * i:left * i + left]) for i in range(4)]
        won = (8 - left, 0) if n % 4 < 2 else (0, 8 - left)
        state = PlayState(random_rules(rng), trump, hands, rng.randrange(4), tricks_won=won)
        for _ in range(rng.randrange(4)):
            state.push(rng.choice(state.legal_cards()))
        check_against_minimax(state)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), trump=st.integers(0, 5), left=st.integers(1, 3))
def test_property_solve_is_minimax(seed: int, trump: int, left: int) -> None:
    """§5, §6: for any seeded endgame, solve() and minimax() agree."""
    check_against_minimax(random_endgame(random.Random(seed), trump, left))


def ref_minimax(play: RefPlay) -> int:
    """NS's points from here by minimax over the reference engine."""
    if play.is_over():
        return 0
    values = []
    for card in play.legal():
        before = play.trick_points["NS"]
        play.push(card)
        values.append(play.trick_points["NS"] - before + ref_minimax(play))
        play.pop()
    return max(values) if SEATS.index(play.turn) % 2 == 0 else min(values)


def test_matches_the_reference_engine() -> None:
    """§5, §6 from the independent reference engine, where both teams hold a trick
    (the reference engine knows no tricks won before the position: no capot)."""
    rng = random.Random(77)
    checked = 0
    while checked < 40:
        trump = rng.randrange(6)
        state = random_endgame(rng, trump, 2 + checked % 2)
        if 0 in state.tricks_won:
            continue
        cards_on = len(state.trick)
        hands = {SEATS[s]: [DECK[c] for c in range(32) if state.hands[s] >> c & 1]
                 for s in range(4)}
        for i, c in enumerate(state.trick):  # the reference takes the trick's cards back
            hands[SEATS[(state.leader + i) % 4]].append(DECK[c])
        ref = RefPlay(state.rules, TRUMP_MODES[trump], hands, SEATS[state.leader])
        for c in state.trick:
            ref.push(DECK[c])
        assert len(ref.trick) == cards_on
        assert solve(state).value == ref_minimax(ref)
        checked += 1


# --- positions worked out by hand -----------------------------------------------------


def test_5_1_last_trick_value_and_bonus() -> None:
    """§5.1: one trick left; NS win it with JH: 20 + 11 + 10 + 0 + dix de der 10 = 51."""
    s = position(("JH", "AS", "TH", "7C"), "H")
    s.tricks_won = [4, 3]
    s.tricks_left = 1
    r = solve(s)
    assert (r.value, r.moves) == (51, {parse_card("JH"): 51})


def test_5_1_last_trick_lost_is_zero() -> None:
    """§5.1: EW take the last trick: NS get nothing from it."""
    s = position(("7S", "AS", "8S", "9S"), "H")
    s.tricks_won = [4, 3]
    s.tricks_left = 1
    assert solve(s).value == 0


def test_5_2_capot_bonus_depends_on_the_tricks_won() -> None:
    """§5.2: NS take both last tricks: dix de der 100 if EW have no trick, else 10."""
    hands = ("JH AS", "7H 7S", "9H TS", "8H KS")
    capot = position(hands, "H")
    capot.tricks_won = [6, 0]
    plain = position(hands, "H")
    plain.tricks_won = [5, 1]
    assert solve(capot).value == minimax(capot) == 34 + 25 + 100
    assert solve(plain).value == minimax(plain) == 34 + 25 + 10


def test_5_2_full_deal_capot_is_252() -> None:
    """§5.2: N holds all eight trumps and leads: NS take all 8 tricks, 152 + 100."""
    hands = ("JH 9H AH TH KH QH 8H 7H", "7S 8S 9S TS JS QS KS AS",
             "7D 8D 9D TD JD QD KD AD", "7C 8C 9C TC JC QC KC AC")
    s = position(hands, "H")
    r = solve(s)
    assert r.value == 252
    assert set(r.moves.values()) == {252}
    assert len(r.moves) == 8


def test_5_2_a_capot_against_ns_is_zero() -> None:
    """§5.2: EW hold every trump and E leads: NS take nothing."""
    hands = ("7S 8S 9S TS JS QS KS AS", "JH 9H AH TH KH QH 8H 7H",
             "7C 8C 9C TC JC QC KC AC", "7D 8D 9D TD JD QD KD AD")
    r = solve(position(hands, "H", leader=1))
    assert r.value == 0


def test_cards_on_the_trick_count_for_its_winner() -> None:
    """§5.5: with AS, TS on the table, W to play last: the trick's points go to its winner."""
    # N led AS, E played TS, S played KS; W can only follow with 7S: NS take 25 + 10.
    s = position(("", "", "", "7S"), "H", leader=0, played="AS TS KS")
    s.tricks_won = [4, 3]
    s.tricks_left = 1
    r = solve(s)
    assert (r.value, r.moves) == (35, {parse_card("7S"): 35})


def test_equivalent_cards_share_a_value() -> None:
    """7S 8S 9S of one hand (plain, 0 points, nothing between them) are one choice."""
    s = position(("7S 8S 9S JH", "AS TS 7D 8D", "7H 8H 9H TH", "QS KS 9D TD"), "H")
    s.tricks_won = [2, 2]
    s.tricks_left = 4
    r = solve(s)
    assert set(r.moves) == {parse_card(c) for c in ("7S", "8S", "9S", "JH")}
    assert r.moves[parse_card("7S")] == r.moves[parse_card("8S")] == r.moves[parse_card("9S")]
    assert r.moves == reference_moves(s)


def test_solve_value_only_and_finished_hand() -> None:
    s = position(("JH AS", "7H 7S", "9H TS", "8H KS"), "H")
    s.tricks_won = [3, 3]
    s.tricks_left = 2
    r = solve(s, moves=False)
    assert (r.value, r.moves) == (69, {})
    while not s.is_over():
        s.push(s.legal_cards()[0])
    assert solve(s).value == 0 and solve(s).moves == {}


def test_full_deal_in_no_trump_matches_its_first_trick_split() -> None:
    """A full 32-card deal: the value is the best of the per-card values, each exact
    for its card (checked by solving the position after that card)."""
    rng = random.Random(5)
    deck = list(range(32))
    rng.shuffle(deck)
    s = PlayState(make_rules(), NO_TRUMP, [mask_of(deck[8 * i:8 * i + 8]) for i in range(4)], 0)
    r = solve(s)
    assert r.value == max(r.moves.values())
    c = min(r.moves, key=lambda card: r.moves[card])
    s.push(c)
    assert solve(s).value == r.moves[c]


# --- the JSON face ----------------------------------------------------------------------

POSITION: dict[str, Any] = {
    "profile": "classic", "options": {}, "trump": "H",
    "hands": {"N": ["JH", "AS"], "E": ["7H", "7S"], "S": ["9H", "TS"], "W": ["8H", "KS"]},
    "leader": "N", "trick": [], "tricks_won": {"NS": 3, "EW": 3},
}


def with_(**changes: Any) -> dict[str, Any]:
    out: dict[str, Any] = json.loads(json.dumps(POSITION))
    out.update(changes)
    return out


def test_solve_json_answers_the_contract_shape() -> None:
    out = solve_json(POSITION)
    assert list(out) == ["value", "moves", "nodes"]
    assert out["value"] == 69 and out["moves"] == {"AS": 69, "JH": 69}
    assert isinstance(out["nodes"], int) and out["nodes"] > 0


def test_solve_json_trick_in_progress() -> None:
    """CONTRACT: the seat to play follows the cards of ``trick``; those who played hold
    one card fewer; the cards on the table count for the trick's winner."""
    pos = with_(hands={"N": ["AS"], "E": ["7H", "7S"], "S": ["9H", "TS"], "W": ["8H", "KS"]},
                trick=["jh"])
    out = solve_json(pos)
    assert out["moves"] == {"7H": 69}  # E must follow trumps (§6.2)
    assert out["value"] == 69


def test_parse_position_accepts_the_input_forms() -> None:
    pos = with_(hands={"N": ["J♥", "as"], "E": ["7H", "7S"], "S": ["9H", "10S"],
                       "W": ["8h", "KS"]}, leader="n")
    state = parse_position(pos)
    assert state.hands[2] == mask("9H TS") and state.turn == 0


def test_a_finished_hand_is_worth_nothing_more() -> None:
    pos = with_(hands={"N": [], "E": [], "S": [], "W": []}, tricks_won={"NS": 5, "EW": 3})
    assert solve_json(pos) == {"value": 0, "moves": {}, "nodes": 0}


def test_tricks_won_default_is_none_won() -> None:
    pos = {"trump": "SA", "leader": "N", "hands": {
        s: [DECK[c] for c in range(8 * i, 8 * i + 8)] for i, s in enumerate(SEATS)}}
    state = parse_position(pos)
    assert state.tricks_won == [0, 0] and state.tricks_left == 8 and state.trump == NO_TRUMP


@pytest.mark.parametrize(("changes", "error", "words"), [
    ({"hands": {"N": ["JH", "JH"], "E": ["7H", "7S"], "S": ["9H", "TS"], "W": ["8H", "KS"]}},
     InvalidRecordError, "hands.N[1]: JH is also in hands.N"),
    ({"hands": {"N": ["JH", "AS"], "E": ["7H", "7S"], "S": ["9H", "AS"], "W": ["8H", "KS"]}},
     InvalidRecordError, "hands.S[1]: AS is also in hands.N"),
    ({"hands": {"N": ["JH", "AS"], "E": ["7H", "7S"], "S": ["9H", "TS"], "W": ["8H"]}},
     InvalidRecordError, "hands.W: 1 cards, expected 2"),
    ({"hands": {"N": ["JH", "XS"], "E": ["7H", "7S"], "S": ["9H", "TS"], "W": ["8H", "KS"]}},
     InvalidRecordError, "hands.N[1]: not a card: 'XS'"),
    ({"hands": {"N": ["JH", "AS"], "E": ["7H", "7S"], "S": ["9H", "TS"]}},
     InvalidRecordError, "hands: seat W is missing"),
    ({"hands": {"N": ["JH", "AS"], "E": ["7H", "7S"], "S": ["9H", "TS"], "W": ["8H", "KS"],
                "X": []}}, InvalidRecordError, "hands: key: 'X' is not a seat"),
    ({"hands": ["JH"]}, InvalidRecordError, "hands: expected an object"),
    ({"trick": ["JH"]}, InvalidRecordError, "hands.N[0]: JH is also in trick"),
    ({"trick": ["AD", "7D", "8D", "9D"]}, InvalidRecordError, "trick: 4 cards"),
    ({"trick": "JH"}, InvalidRecordError, "trick: expected a list of cards"),
    ({"hands": {"N": [], "E": [], "S": [], "W": []}, "trick": ["AS"],
      "tricks_won": {"NS": 4, "EW": 4}}, InvalidRecordError, "hands.E: no card left to play"),
    ({"leader": "X"}, InvalidRecordError, "leader: 'X' is not a seat"),
    ({"trump": "Z"}, InvalidRecordError, "trump: not a trump: 'Z'"),
    ({"tricks_won": {"NS": 3, "EW": 4}}, InvalidRecordError, "tricks_won: NS 3 + EW 4 = 7"),
    ({"tricks_won": {"NS": -1, "EW": 7}}, InvalidRecordError, "tricks_won.NS: -1"),
    ({"tricks_won": {"NS": 3, "WE": 3}}, InvalidRecordError, "tricks_won: 'WE' is not a team"),
    ({"tricks_won": {"NS": True, "EW": 5}}, InvalidRecordError, "tricks_won.NS: True"),
    ({"colour": "H"}, InvalidRecordError, "input: unknown key 'colour'"),
    ({"profile": "bridge"}, OptionError, "unknown profile 'bridge'"),
    ({"options": {"must_undertrump": 1}}, OptionError, "option 'must_undertrump'"),
    ({"profile": "classic-3p"}, InvalidRecordError, "for 3 players"),
])
def test_parse_position_refuses_bad_input(changes: dict[str, Any], error: type[BeloteError],
                                          words: str) -> None:
    with pytest.raises(error) as info:
        parse_position(with_(**changes))
    assert words in str(info.value)


def test_parse_position_refuses_a_missing_field() -> None:
    for key in ("trump", "hands", "leader"):
        pos = with_()
        del pos[key]
        with pytest.raises(InvalidRecordError, match=f"input: '{key}' is missing"):
            parse_position(pos)
    with pytest.raises(InvalidRecordError, match="expected a JSON object"):
        parse_position([POSITION])


def test_parse_position_checks_the_trick_is_legal() -> None:
    """§6.1: E holds spades and may not discard a heart on N's spade lead."""
    pos = with_(hands={"N": ["JH"], "E": ["7S"], "S": ["9H", "TS"], "W": ["8H", "KS"]},
                trick=["AS", "7H"])
    with pytest.raises(IllegalPlayError, match=r"trick\[1\]: E may not play 7H: must follow"):
        parse_position(pos)


# --- the command ------------------------------------------------------------------------

runner = CliRunner()


def test_cli_solve_json() -> None:
    res = runner.invoke(app, ["solve", "--json"], input=json.dumps(POSITION))
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert out["value"] == 69 and out["moves"] == {"AS": 69, "JH": 69}


def test_cli_solve_file_and_jsonl(tmp_path: Any) -> None:
    path = tmp_path / "pos.json"
    path.write_text(json.dumps(POSITION))
    res = runner.invoke(app, ["solve", "--json", "--file", str(path)])
    assert res.exit_code == 0 and json.loads(res.stdout)["value"] == 69
    bad = with_(trump="Z")
    lines = "\n".join(json.dumps(p) for p in (POSITION, bad, POSITION))
    res = runner.invoke(app, ["solve", "--jsonl"], input=lines)
    assert res.exit_code == 2
    answers = [json.loads(line) for line in res.stdout.splitlines()]
    assert answers[0]["value"] == 69 and answers[2]["value"] == 69
    assert answers[1] == {"error": "line 2: trump: not a trump: 'Z' (S H D C, SA or TA)"}


def test_cli_solve_bad_input_exits_2_with_error() -> None:
    pos = with_(hands={"N": ["JH", "AS"], "E": ["7H", "7S"], "S": ["9H", "AS"], "W": ["8H", "KS"]})
    res = runner.invoke(app, ["solve", "--json"], input=json.dumps(pos))
    assert res.exit_code == 2
    assert res.stderr.startswith("error: hands.S[1]: AS is also in hands.N")
    assert json.loads(res.stdout) == {"error": "hands.S[1]: AS is also in hands.N"}
    res = runner.invoke(app, ["solve", "--json"], input="{not json")
    assert res.exit_code == 2 and res.stderr.startswith("error: input: not valid JSON")
    assert "Traceback" not in res.output


def test_cli_solve_human_form() -> None:
    res = runner.invoke(app, ["solve"], input=json.dumps(POSITION))
    assert res.exit_code == 0, res.output
    assert "N to play" in res.stdout and "69" in res.stdout and "best" in res.stdout
    res = runner.invoke(app, ["solve"], input=json.dumps(with_(leader="Q")))
    assert res.exit_code == 2 and res.stderr.startswith("error: leader: 'Q' is not a seat")


def test_solver_handles_spades_and_hearts_constants() -> None:
    """The constants used above name the suits of belote.cards."""
    assert card_name(SPADES * 8 + 7) == "AS" and card_name(HEARTS * 8 + 4) == "JH"


def test_max_nodes_bounds_the_search_and_leaves_the_state() -> None:
    """A search past ``max_nodes`` positions stops with SearchLimitError; the position
    is unchanged and a search with room gives the usual answer."""
    from belote.solver import SearchLimitError

    deck = list(range(32))
    random.Random(4).shuffle(deck)
    hands = [mask_of(deck[i * 8:i * 8 + 8]) for i in range(4)]
    state = PlayState(make_rules(), HEARTS, hands, 0)
    key = state.key()
    full = solve(state, moves=False)
    assert full.nodes > 100
    with pytest.raises(SearchLimitError) as info:
        solve(state, moves=False, max_nodes=100)
    assert info.value.nodes > 100
    assert state.key() == key and state.turn == 0 and not state.trick
    assert solve(state, moves=False, max_nodes=full.nodes + 10).value == full.value


def test_the_reference_search_for_every_table_agrees_at_four() -> None:
    """The slow reference search written for any number of seats (§12's tables,
    découverte's face-down cards) gives the engine's value and card values at four."""
    rng = random.Random(12)
    for n in range(40):
        state = random_endgame(rng, n % 6, (2, 3, 3, 4)[n % 4])
        table = solve_table(state, None, True, None)
        engine = solve(state)
        assert (table.value, table.moves) == (engine.value, engine.moves)
        assert table.value == minimax(state)
