"""`belote analyze`'s core (belote.analysis): every card's double-dummy value checked
against the solver and a plain minimax, a constructed blunder and its exact loss, the
information view blind to the hidden cards, the bidding, every profile and table, and
the refusals of records that are not one."""

from __future__ import annotations

import random
from functools import cache
from typing import Any

import pytest

from belote.actions import Play
from belote.analysis import DealAnalysis, _verdict, analyze_deal, analyze_record
from belote.bots.base import play_deal
from belote.bots.card_score import world_state
from belote.bots.heuristic import HeuristicBot
from belote.bots.knowledge import World
from belote.cards import KING, QUEEN, Card, card, card_name, scan_forward
from belote.declarations import best_announcement, resolve
from belote.errors import InvalidRecordError
from belote.game import Match
from belote.options import make_rules
from belote.play import PlayState, card_points
from belote.round import Round
from belote.scoring import HandEntry, score_hand
from belote.solver import minimax, solve
from belote.table import Phase, Table

# Every profile and table size: (profile, options).
TABLES: dict[str, tuple[str, dict[str, Any]]] = {
    "classic": ("classic", {}),
    "coinche": ("coinche", {}),
    "moroccan": ("moroccan", {}),
    "classic-sa-ta": ("classic", {"sa_ta_in_classic": True}),
    "3p-kitty": ("classic-3p", {"three_deal": "kitty"}),
    "3p-24": ("classic-3p", {}),
    "2p-stock": ("classic-2p", {}),
    "2p-decouverte": ("classic-2p", {"two_deal": "decouverte"}),
}
# Tables only the bidding's tests use.
MORE_TABLES: dict[str, tuple[str, dict[str, Any]]] = {
    "3p-six": ("classic-3p", {"three_deal": "six_each"}),
}


@cache
def played(name: str, first_seed: int = 0) -> dict[str, Any]:
    """A finished deal of heuristic bots at that table (the first seeded deck taken)."""
    profile, options = {**TABLES, **MORE_TABLES}[name]
    rules = make_rules(profile, options)
    table = Table.of(rules)
    for seed in range(first_seed, first_seed + 200):
        deck = list(table.deck)
        random.Random(seed).shuffle(deck)
        rnd = Round(rules, seed % table.players, deck)
        play_deal(rnd, [HeuristicBot(seed + i) for i in range(table.players)])
        if rnd.phase is Phase.OVER:
            return rnd.record()
    raise AssertionError("no deal taken")  # pragma: no cover


def beneath_of(rnd: Round, covering: int) -> dict[Card, Card]:
    if rnd.piles is None:
        return {}
    return {up: down for pile in rnd.piles for down, up in pile if covering >> up & 1}


def state_before(record: dict[str, Any], action: int) -> tuple[Round, PlayState, dict[Card, Card]]:
    """The deal just before its ``action``-th action (from 1), and the position then."""
    rnd = Round.from_record({**record, "actions": record["actions"][:action - 1]})
    view = rnd.view(rnd.current_player())
    beneath = beneath_of(rnd, view.covering)
    hands = tuple(rnd.hand(s) for s in range(rnd.table.players))
    return rnd, world_state(view, World(hands, 0, beneath), rnd.table), beneath


def side_points(v0: int, side: int, state: PlayState, beneath: dict[Card, Card]) -> int:
    """Side 0's points of the rest as ``side``'s (the capot cases spelt out)."""
    if side == 0:
        return v0
    pts = card_points(state.rules, state.trump)
    cards = set(state.trick) | set(beneath.values())
    for h in state.hands:
        cards |= set(scan_forward(h))
    rest = sum(pts[c] for c in cards)
    if v0 == rest + 100:  # side 0 takes every trick
        return 0
    if v0 == 0 and state.tricks_won[0] == 0:
        return rest + 100
    return rest + 10 - v0


def exact_by_minimax(state: PlayState, beneath: dict[Card, Card]) -> dict[Card, int]:
    """Side 0's value after each legal card, by full minimax."""
    out = {}
    for c in state.legal_cards():
        s = state.copy()
        before = s.trick_points[0]
        done = len(s.tricks)
        s.push(c)
        under = dict(beneath)
        if len(s.tricks) > done:  # a trick completed: its face-down cards turn up
            t = s.tricks[-1]
            for i, x in enumerate(t.cards):
                if x in under:
                    s.hands[(t.leader + i) % s.players] |= 1 << under.pop(x)
        out[c] = s.trick_points[0] - before + minimax(s, under)
    return out


def fast(record: dict[str, Any], **kwargs: Any) -> DealAnalysis:
    """Double dummy only, with a small search budget (the early cards of a small table
    left unsolved: the last tricks are what is checked)."""
    kwargs.setdefault("seats", [])
    kwargs.setdefault("max_nodes", 30_000)
    return analyze_deal(record, **kwargs)


# --- every card's value, exact ----------------------------------------------------------


@pytest.mark.parametrize("name", list(TABLES))
def test_last_tricks_match_the_solver_and_minimax(name: str) -> None:
    record = played(name)
    analysis = fast(record)
    table = Table.of(make_rules(*TABLES[name]))
    assert analysis.finished and analysis.players == table.players
    assert len(analysis.cards) == len(table.deck) - (
        len(table.deck) - table.players * table.tricks)  # every card played
    checked = 0
    for c in analysis.cards:
        if c.trick <= table.tricks - 3:
            continue
        rnd, state, beneath = state_before(record, c.action)
        assert card_name(c.card) == record["actions"][c.action - 1]["card"]
        assert c.legal == tuple(sorted(state.legal_cards()))
        if len(c.legal) == 1:
            assert c.verdict == "forced" and c.dd_loss == 0
            continue
        assert rnd.contract is not None
        side = table.sides(rnd.contract.taker)[c.seat]
        exact = exact_by_minimax(state, beneath)
        solver = solve(state, beneath=beneath or None).moves
        assert exact == solver
        want = {k: side_points(v, side, state, beneath) for k, v in exact.items()}
        assert c.dd == want, (name, c.action)
        assert c.dd_best == max(want.values())
        assert c.dd_loss == max(want.values()) - want[c.card]
        assert c.verdict in ("best", "loss") and (c.verdict == "best") == (c.dd_loss == 0)
        checked += 1
    assert checked > 0


@pytest.mark.parametrize("name", ["classic", "coinche"])
def test_every_card_of_a_four_player_deal_matches_the_solver(name: str) -> None:
    record = played(name)
    analysis = analyze_deal(record, seats=[])
    assert all(c.dd is not None for c in analysis.cards if len(c.legal) > 1)
    for c in analysis.cards:
        if len(c.legal) == 1:
            continue
        _, state, _ = state_before(record, c.action)
        v0 = solve(state).moves
        side = c.seat & 1
        assert c.dd == {k: side_points(v, side, state, {}) for k, v in v0.items()}


# --- a constructed blunder ----------------------------------------------------------------


def blunder_record() -> tuple[dict[str, Any], int, int]:
    """A classic deal with, three tricks from the end, the first seat that has a card
    worse than its best playing its worst card instead (the rest played by the first
    legal card): the record, that action, and the exact loss by minimax."""
    for deal in range(0, 1000, 100):
        record = played("classic", deal)
        first = next(i for i, a in enumerate(record["actions"], start=1) if "card" in a)
        for i in range(first + 4 * 5, len(record["actions"]) + 1):
            rnd, state, _ = state_before(record, i)
            exact = exact_by_minimax(state, {})
            sign = 1 if state.turn % 2 == 0 else -1
            best = max(sign * v for v in exact.values())
            worst = min(exact, key=lambda c: (sign * exact[c], c))
            if sign * exact[worst] == best:
                continue
            rnd.apply(Play(worst))
            while rnd.phase is Phase.PLAY:
                rnd.apply(Play(rnd.legal_cards()[0]))
            return rnd.record(), i, best - sign * exact[worst]
    raise AssertionError("no card to blunder")  # pragma: no cover


def test_a_blunder_is_marked_with_its_exact_loss() -> None:
    record, action, loss = blunder_record()
    assert loss > 0
    analysis = analyze_deal(record, seats=[], worlds=8)
    card = next(c for c in analysis.cards if c.action == action)
    assert card.dd_loss == loss
    assert card.verdict == "loss"
    # The seat's own view: worked out, the blunder is a mistake or bad luck, never
    # best on both counts.
    seat = card.seat
    seen = analyze_deal(record, seats=[seat], worlds=16, seed=3)
    card = next(c for c in seen.cards if c.action == action)
    assert card.dd_loss == loss and card.info is not None and card.worlds > 0
    assert card.verdict in ("mistake", "unlucky")
    summary = seen.summary[seat]
    assert summary.dd_lost >= loss
    assert any(c.action == action for _, c in summary.biggest) or card.verdict == "unlucky"


# --- the information view sees only what the seat saw ------------------------------------


def swapped_deck(record: dict[str, Any], seat: int, action: int) -> dict[str, Any] | None:
    """The record's deck with two cards of one plain suit swapped between two other
    seats, neither played before ``action`` nor the turned card: what ``seat`` knows
    is the same (its hand, the cards played, the calls, the voids)."""
    rnd, _, _ = state_before(record, action)
    assert rnd.contract is not None
    trump = rnd.contract.trump
    others = [s for s in range(4) if s != seat]
    for suit in range(4):
        if suit == trump:
            continue
        for a in others:
            for b in others:
                if a >= b:
                    continue
                ca = [c for c in scan_forward(rnd.hand(a)) if c // 8 == suit]
                cb = [c for c in scan_forward(rnd.hand(b)) if c // 8 == suit]
                turned = rnd.turned
                ca = [c for c in ca if c != turned]
                cb = [c for c in cb if c != turned]
                if ca and cb:
                    deck = list(record["deck"])
                    x, y = deck.index(card_name(ca[0])), deck.index(card_name(cb[0]))
                    deck[x], deck[y] = deck[y], deck[x]
                    return {**record, "deck": deck, "actions": record["actions"][:action]}
    return None


@pytest.mark.parametrize("profile", ["classic", "coinche"])
def test_the_information_view_never_uses_a_hidden_card(profile: str) -> None:
    # declarations off: an announcement would tell the swap apart
    rules = make_rules(profile, {"declarations": False})
    table = Table.of(rules)
    base: dict[str, Any] = {}
    for seed in range(200):
        deck = list(table.deck)
        random.Random(seed).shuffle(deck)
        rnd = Round(rules, 0, deck)
        play_deal(rnd, [HeuristicBot(seed + i) for i in range(4)])
        if rnd.phase is Phase.OVER:
            base = rnd.record()
            break
    compared = 0
    for action, entry in enumerate(base["actions"], start=1):
        if "card" not in entry:
            continue
        rnd, _, _ = state_before(base, action)
        seat = rnd.current_player()
        if len(rnd.legal_cards()) < 2 or len(rnd.tricks) < 2:
            continue
        other = swapped_deck(base, seat, action)
        if other is None:
            continue
        cut = {**base, "actions": base["actions"][:action]}
        one = analyze_deal(cut, seats=[seat], worlds=12, seed=7).cards[-1]
        two = analyze_deal(other, seats=[seat], worlds=12, seed=7).cards[-1]
        assert one.action == two.action == action
        assert one.info is not None and one.info == two.info, action
        assert one.worlds == two.worlds
        compared += 1
        if compared == 2:
            break
    assert compared == 2


def test_verdicts() -> None:
    assert _verdict(1, 0, None, 5) == "forced"
    assert _verdict(3, 0, None, 5) == "best"
    assert _verdict(3, 0, 5.0, 5) == "best"  # within the tolerance
    assert _verdict(3, 0, 5.5, 5) == "lucky"
    assert _verdict(3, 8, 0.0, 5) == "unlucky"
    assert _verdict(3, 8, 4.0, 5) == "unlucky"
    assert _verdict(3, 8, 9.0, 5) == "mistake"
    assert _verdict(3, 8, None, 5) == "loss"
    assert _verdict(3, None, None, 5) == "unsolved"
    assert _verdict(3, None, 9.0, 5) == "mistake"
    assert _verdict(3, None, 1.0, 5) == "best"


def test_the_same_seed_gives_the_same_numbers_and_another_seed_may_not() -> None:
    record = played("classic")
    a = analyze_deal(record, seats=[0], worlds=8, seed=1).to_json()
    b = analyze_deal(record, seats=[0], worlds=8, seed=1).to_json()
    assert a == b
    c = analyze_deal(record, seats=[0], worlds=8, seed=2).to_json()
    assert [x["dd"] for x in a["cards"]] == [x["dd"] for x in c["cards"]]
    assert a["cards"] != c["cards"]  # the worlds drawn differ


# --- the bidding, the deal, the summary -------------------------------------------------------


def test_the_bidding_of_a_take_or_pass_deal() -> None:
    record = played("classic")
    analysis = analyze_deal(record, seats=[0, 1, 2, 3], worlds=4)
    rnd = Round.from_record(record)
    assert rnd.contract is not None
    assert len(analysis.calls) == len(rnd.calls)
    for c in analysis.calls:
        assert c.bot_call in c.legal and c.call in c.legal
        # every call of take-or-pass weighed; a take or a suit has a value
        assert set(c.values) == set(c.legal)
        assert all(v is not None for k, v in c.values.items() if k != "pass")
    last = analysis.calls[-1]  # the take
    assert last.seat == rnd.contract.taker and last.values["pass"] is None
    passes = [c for c in analysis.calls if c.call == "pass"]
    # A pass is the contract the record reached: one number for every pass, its sign the
    # team's (the score difference of one side is the other's, negated).
    by_team = {c.seat & 1: c.values["pass"] for c in passes}
    for c in passes:
        assert c.values["pass"] == by_team[c.seat & 1] is not None
    if len(by_team) == 2:
        assert by_team[0] == -by_team[1]  # type: ignore[operator]
    # That pass's value is the take's of the taker's team, the contract as played.
    taker_team = rnd.contract.taker & 1
    if (taker_team ^ 1) in by_team:
        assert by_team[taker_team ^ 1] == -last.values[last.call]  # type: ignore[operator]
    trump = analysis.contract["trump"] if analysis.contract else None
    assert trump in analysis.trumps and analysis.trumps[trump] is not None


def test_an_auction_weighs_the_best_bid_of_each_trump() -> None:
    analysis = analyze_deal(played("coinche"), seats=[])
    first = analysis.calls[0]
    bids = [k for k in first.values if k[0].isdigit()]
    assert len({b[-1] for b in bids}) == len(bids) - (first.call in bids and sum(
        b[-1] == first.call[-1] for b in bids) > 1)
    assert first.loss is not None and first.loss >= 0


def test_the_deal_under_each_trump_has_sa_and_ta_where_the_rules_do() -> None:
    with_ = fast(played("classic-sa-ta"))
    without = fast(played("classic"))
    assert set(with_.trumps) == {"S", "H", "D", "C", "SA", "TA"}
    assert set(without.trumps) == {"S", "H", "D", "C"}


def test_the_summary_counts_contracts_and_losses() -> None:
    record = played("classic")
    analysis = analyze_deal(record, seats=[])
    rnd = Round.from_record(record)
    assert rnd.contract is not None
    taker = analysis.summary[rnd.contract.taker]
    assert taker.taken == 1 and taker.made == int(analysis.outcome == "made")
    for s in analysis.summary:
        assert s.cards == 8
        assert s.dd_lost == sum(c.dd_loss or 0 for c in analysis.cards if c.seat == s.seat)
        assert s.info_lost is None


def test_a_game_record_analyses_each_deal() -> None:
    match = Match(make_rules(), seed=5)
    for _ in range(2):
        rnd = match.new_round()
        play_deal(rnd, [HeuristicBot(i) for i in range(4)])
        match.finish_round()
    analyses = analyze_record(match.to_record(), seats=[], max_nodes=30_000)
    assert len(analyses) == 2
    assert [a.dealer for a in analyses] == [r.dealer for r in match.rounds]
    save = {"match": match.to_record(), "belote_play": {"seat": "S", "bots": "heuristic"}}
    again = analyze_record(save, seats=[], max_nodes=30_000)
    assert [a.to_json() for a in again] == [a.to_json() for a in analyses]


def test_progress_is_reported_for_every_action() -> None:
    record = played("classic")
    seen: list[tuple[int, int]] = []
    analyze_deal(record, seats=[], progress=lambda d, t: seen.append((d, t)))
    n = len(record["actions"])
    assert seen == [(i, n) for i in range(1, n + 1)]
    match = Match(make_rules(), seed=5)
    for _ in range(2):
        rnd = match.new_round()
        play_deal(rnd, [HeuristicBot(i) for i in range(4)])
        match.finish_round()
    seen.clear()
    analyze_record(match.to_record(), seats=[], max_nodes=30_000,
                   progress=lambda d, t: seen.append((d, t)))
    total = sum(len(r.actions()) for r in match.rounds)
    assert seen == [(i, total) for i in range(1, total + 1)]


@pytest.mark.parametrize("name", ["3p-kitty", "3p-24", "2p-stock", "2p-decouverte"])
def test_the_information_view_at_the_small_tables(name: str) -> None:
    record = played(name)
    table = Table.of(make_rules(*TABLES[name]))
    rnd = Round.from_record(record)
    assert rnd.contract is not None
    seat = rnd.contract.taker
    analysis = fast(record, seats=[seat], worlds=4, seed=2)
    late = [c for c in analysis.cards
            if c.seat == seat and len(c.legal) > 1 and c.trick > table.tricks - 4]
    assert late, "no decision of the taker late in the deal"
    for c in late:
        assert c.info is not None and set(c.info) == set(c.legal) and c.worlds > 0
        assert c.info_best == max(c.info.values()) and c.info_loss is not None
        assert c.info_loss >= 0
        assert c.verdict in ("best", "mistake", "unlucky", "lucky")
    assert analysis.summary[seat].info_lost is not None
    assert all(c.info is None for c in analysis.cards if c.seat != seat)


def test_json_shape() -> None:
    out = analyze_deal(played("classic"), seats=[2], worlds=4).to_json()
    assert set(out) == {"profile", "players", "dealer", "finished", "contract", "outcome",
                        "score", "trumps", "calls", "cards", "summary", "seats", "worlds",
                        "seed"}
    card = out["cards"][0]
    assert set(card) == {"action", "trick", "seat", "card", "legal", "dd", "dd_best",
                         "dd_loss", "info", "info_best", "info_loss", "worlds", "verdict"}
    assert set(out["calls"][0]) == {"action", "seat", "call", "legal", "bot_call", "values",
                                    "loss"}
    assert set(out["summary"][0]) == {"seat", "cards", "dd_lost", "info_lost", "mistakes",
                                      "unlucky", "calls_lost", "taken", "made", "biggest"}
    assert out["seats"] == ["S"]
    s_cards = [c for c in out["cards"] if c["seat"] == "S" and len(c["legal"]) > 1]
    assert s_cards and all(c["info"] is not None for c in s_cards)
    assert all(c["info"] is None for c in out["cards"] if c["seat"] != "S")


# --- records cut short and refused -------------------------------------------------------------


def test_an_unfinished_deal_is_analysed_up_to_where_it_stops() -> None:
    record = played("classic")
    first = next(i for i, a in enumerate(record["actions"]) if "card" in a)
    cut = {**record, "actions": record["actions"][:first + 6]}
    analysis = fast(cut)
    assert not analysis.finished and analysis.outcome is None and analysis.score is None
    assert len(analysis.cards) == 6
    bidding_only = fast({**record, "actions": record["actions"][:1]})
    assert not bidding_only.finished and bidding_only.cards == () and bidding_only.trumps == {}
    assert len(bidding_only.calls) == 1 and bidding_only.calls[0].values.get("pass") is None


def refused(data: Any) -> str:
    with pytest.raises(InvalidRecordError) as info:
        analyze_record(data, seats=[])
    return str(info.value)


def test_malformed_records_are_refused_saying_where() -> None:
    record = played("classic")
    assert "expected an object" in refused([1, 2])
    deck = list(record["deck"])
    deck[0] = deck[1]
    assert "deck" in refused({**record, "deck": deck})
    assert "deck" in refused({**record, "deck": deck[:20]})
    assert "deck" in refused({k: v for k, v in record.items() if k != "deck"})
    actions = list(record["actions"])
    first = next(i for i, a in enumerate(actions) if "card" in a)
    # the first card replaced by the next seat's: a card its seat does not hold
    other = actions[first + 1]["card"]
    bad = [*actions[:first], {"card": other}, *actions[first + 1:]]
    message = refused({**record, "actions": bad})
    assert f"action {first + 1}" in message
    assert "action 1" in refused({**record, "actions": [{"call": "surcoinche"}]})
    assert "action" in refused({**record, "actions": [{"dance": 1}]})
    assert "profile" in refused({**record, "profile": "bridge"})
    assert "'actions'" in refused({**record, "actions": "all"})
    assert "dealer" in refused({**record, "dealer": "X"})
    assert "deal 1" in refused({"version": 1, "profile": "classic", "first_dealer": "N",
                                "deals": [{"dealer": "N", "deck": ["JH"], "actions": []}]})
    assert "no deal" in refused({"version": 1, "profile": "classic", "first_dealer": "N",
                                 "deals": []})


def test_a_bad_seat_is_refused() -> None:
    with pytest.raises(InvalidRecordError, match="seats"):
        analyze_deal(played("classic"), seats=[7])



# --- the bidding at three and two players ------------------------------------------------

SMALL_BIDDING = ["3p-kitty", "3p-24", "3p-six", "2p-stock"]


def contract_value(record: dict[str, Any], seat: int) -> float:
    """The reached contract played out double dummy from the card play's start (the
    record's deal and kitty discard) and scored with the table's scoring, for
    ``seat``: his score less the others' mean (three players: the defenders' score
    half each)."""
    start = Round.from_record({**record, "actions": []})
    rnd = Round.from_record({**record, "actions": []})
    for action in Round.from_record(record).actions():
        if rnd.phase is Phase.PLAY:
            break
        rnd.apply(action)
    assert rnd.phase is Phase.PLAY and rnd.contract is not None
    rules, table = rnd.rules, start.table
    taker, trump = rnd.contract.taker, rnd.contract.trump
    sides = table.sides(taker)
    side = sides[taker]
    hands = [rnd.hand(s) for s in range(table.players)]
    leader = rnd.view(rnd.current_player()).trick_leader
    state = PlayState(rules, trump, list(hands), leader, teams=sides, table=table)
    v = solve(state, moves=False).value
    pts = card_points(rules, trump)
    in_hands = sum(pts[c] for h in hands for c in scan_forward(h))
    assert 0 < v <= in_hands + 10, "a capot: pick another deal"
    points = [v, in_hands + 10 - v]
    points[side] += sum(pts[c] for c in scan_forward(rnd.discards))
    announced = [best_announcement(h, rules, trump) for h in hands]
    decl = resolve(announced, rules, trump, leader, sides).points
    belote = [0, 0]
    for s, h in enumerate(hands):
        if h >> card(trump, KING) & 1 and h >> card(trump, QUEEN) & 1:
            belote[sides[s]] += 20
    entry = HandEntry(taker=side, trick_points=(points[0], points[1]),
                      declarations=(decl[0], decl[1]), belote=(belote[0], belote[1]),
                      trump=trump, in_play=(in_hands + 10 if table.mode.leaves_cards_out
                                            else None))
    score = score_hand(rules, entry).score
    mine, theirs = score[sides[seat]], score[1 - sides[seat]]
    if table.players == 2:
        return mine - theirs
    if seat == taker:
        return mine - theirs / 2
    return mine / 4 - theirs / 2  # a defender: half his side's score, less the others' mean


@pytest.mark.parametrize("name", SMALL_BIDDING)
def test_the_calls_at_three_and_two_players_are_the_contracts_played_out(name: str) -> None:
    record = played(name)
    analysis = analyze_deal(record, seats=[])
    rnd = Round.from_record(record)
    assert rnd.contract is not None
    taker = rnd.contract.taker
    assert len(analysis.calls) == len(rnd.calls)
    for c in analysis.calls:
        # every call of take-or-pass weighed; every take valued
        assert set(c.values) == set(c.legal)
        assert all(v is not None for k, v in c.values.items() if k != "pass")
        assert c.loss is not None and c.loss >= 0
        made = c.values[c.call]
        assert made is not None
        assert c.loss == max(v for v in c.values.values() if v is not None) - made
    last = analysis.calls[-1]
    assert last.seat == taker and last.call != "pass" and last.values["pass"] is None
    # The call made: the contract as the record dealt it, played out and scored apart.
    assert last.values[last.call] == round(contract_value(record, taker))
    # A pass made: the contract the record reached, seen from the passer's seat.
    for c in analysis.calls[:-1]:
        assert c.call == "pass"
        assert c.values["pass"] == round(contract_value(record, c.seat))


def test_the_small_tables_bidding_is_weighed_in_every_deal_that_has_one() -> None:
    passes = 0
    for name in SMALL_BIDDING:
        analysis = analyze_deal(played(name), seats=[])
        assert analysis.calls and all(c.values for c in analysis.calls)
        passes += sum(c.call == "pass" for c in analysis.calls)
    assert passes > 0  # the pass of a record is checked somewhere
    decouverte = analyze_deal(played("2p-decouverte"), seats=[])
    assert decouverte.calls == ()  # (no bidding in belote découverte)


def test_a_small_table_call_in_json() -> None:
    out = analyze_deal(played("2p-stock"), seats=[0]).to_json()
    for c in out["calls"]:
        assert set(c) == {"action", "seat", "call", "legal", "bot_call", "values", "loss"}
        assert set(c["values"]) == set(c["legal"]) and isinstance(c["loss"], int)
        assert all(isinstance(v, int) or (k == "pass" and v is None)
                   for k, v in c["values"].items())
    summary = out["summary"]
    losses = {s: 0 for s in ("N", "E")}
    for c in out["calls"]:
        losses[c["seat"]] += c["loss"]
    assert {s["seat"]: s["calls_lost"] for s in summary} == losses
