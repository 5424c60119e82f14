"""Verify / can / act for every action of a deal: calls, the kitty discard, cards.

Each refusal says what was refused and where (the seat, the phase, the rule).
"""

from __future__ import annotations

import gc
import random
from typing import Any

import pytest

from belote.auction import NumericAuction
from belote.bidding import TakePassBidding
from belote.cards import card_name, parse_card
from belote.declarations import Declaration
from belote.errors import IllegalActionError, IllegalBidError, IllegalPlayError, RuleCode
from belote.hand import CardPlayed
from belote.options import make_rules
from belote.play import illegal_code
from belote.round import OVER, PLAY, PlayerView, Round
from belote.table import Table

DECK = list(range(32))


def classic() -> Round:
    return Round(make_rules(), 0, DECK)


def kitty() -> Round:
    return Round(make_rules("classic-3p", {"three_deal": "kitty"}), 0, DECK)


def test_call_out_of_turn_at_take_or_pass() -> None:
    """docs/rules.md §3.2: from the eldest, each player in turn takes or passes."""
    rnd = classic()
    assert rnd.can_call("pass") and rnd.can_call("take", 1)
    assert not rnd.can_call("pass", 2)
    with pytest.raises(IllegalActionError, match=r"^it is E's turn to call$") as refused:
        rnd.verify_call("pass", 2)
    assert refused.value.code is RuleCode.NOT_YOUR_TURN and refused.value.turn == 1
    with pytest.raises(IllegalActionError, match=r"^it is E's turn to call$"):
        rnd.call("pass", 2)
    assert rnd.bidding.calls == []  # nothing was done


def test_round_one_call_is_take_or_pass() -> None:
    """docs/rules.md §3.2 First round: each player either takes or passes."""
    rnd = classic()
    assert not rnd.can_call("H")
    with pytest.raises(IllegalBidError,
                       match=r"E may not call 'H' in round 1: .*\(§3\.2\)") as refused:
        rnd.verify_call("h")  # spelt as the bidding knows it
    assert refused.value.code is RuleCode.FIRST_ROUND_TAKE_OR_PASS
    assert (refused.value.seat, refused.value.call) == (1, "H")
    rnd.call("Pass")
    assert [c.call for c in rnd.bidding.calls] == ["pass"]


def test_round_two_refuses_the_turned_suit() -> None:
    """docs/rules.md §3.3: in the second round a player names any *other* suit."""
    rnd = classic()
    for _ in range(4):
        rnd.call("pass")
    assert rnd.turned is not None
    turned_suit = "SHDC"[rnd.turned >> 3]
    with pytest.raises(IllegalBidError, match=r"it is the turned suit \(§3\.3\)") as refused:
        rnd.verify_call(turned_suit)
    assert refused.value.code is RuleCode.TURNED_SUIT_AGAIN
    with pytest.raises(IllegalBidError, match=r"may not call 'take' in round 2") as refused:
        rnd.call("take")
    assert refused.value.code is RuleCode.SECOND_ROUND_NO_TAKE
    assert not rnd.can_call(turned_suit) and rnd.can_call("pass")


def test_no_call_after_the_bidding() -> None:
    """docs/rules.md §3.2: the first take ends the bidding."""
    rnd = classic()
    rnd.call("take")
    assert rnd.phase == "play" and not rnd.can_call("pass")
    with pytest.raises(IllegalActionError,
                       match=r"^no call now: the deal is in phase play$") as refused:
        rnd.verify_call("pass")
    assert refused.value.code is RuleCode.WRONG_PHASE and refused.value.phase == "play"


def test_take_pass_bidding_alone_checks_the_seat() -> None:
    """docs/rules.md §3.2: one call a turn, from the eldest (the bidding on its own)."""
    bidding = TakePassBidding(make_rules(), 3, parse_card("JH"))
    assert bidding.can("take", 0) and not bidding.can("take", 1)
    with pytest.raises(IllegalBidError, match=r"^E may not call 'take': it is N's turn$"):
        bidding.call("take", 1)
    assert bidding.call("take", 0).seat == 0 and bidding.trump == 1


def test_auction_coinche_refusals_name_the_rule() -> None:
    """docs/rules.md §4.5: only an opponent of the highest bidder may coinche, in turn
    by default."""
    rnd = Round(make_rules("coinche"), 0, DECK)
    assert isinstance(rnd.bidding, NumericAuction)
    with pytest.raises(IllegalBidError, match=r"there is no bid to coinche \(§4\.5\)") as no_bid:
        rnd.verify_call("coinche")
    assert no_bid.value.code is RuleCode.NO_BID_TO_COINCHE
    rnd.call("80H")  # E
    with pytest.raises(IllegalBidError, match=r"^N may not call 'coinche': a coinche is made "
                       r"in turn \(§4\.5 coinche_in_turn\)$"):
        rnd.verify_call("coinche", 0)
    with pytest.raises(IllegalBidError, match=r"^W may not call '90H': it is S's turn$"):
        rnd.verify_call("90H", 3)
    assert rnd.can_call("coinche") and not rnd.can_call("coinche", 0)
    with pytest.raises(IllegalBidError, match=r"does not go higher than 80H \(§4\.3\)") as low:
        rnd.call("80C")
    assert low.value.code is RuleCode.BID_TOO_LOW and low.value.bid == "80H"


def test_discard_only_in_its_phase() -> None:
    """docs/rules.md §12.1 kitty: the taker lays 2 cards aside after taking."""
    rnd = kitty()
    with pytest.raises(IllegalActionError,
                       match=r"^no discard now: the deal is in phase bidding$") as refused:
        rnd.verify_discard([0, 1])
    assert refused.value.code is RuleCode.NO_DISCARD_NOW
    assert not rnd.can_discard([0, 1])


def test_discard_two_different_cards_held() -> None:
    """docs/rules.md §12.1 kitty: the taker adds the kitty to his hand and lays 2 cards
    aside."""
    rnd = kitty()
    rnd.call("H")  # E takes
    assert rnd.phase == "discard"
    hand = rnd.hands[1]
    held = [c for c in range(32) if hand >> c & 1]
    foreign = next(c for c in range(32) if not hand >> c & 1)
    with pytest.raises(IllegalActionError,
                       match=r"^E must lay aside two different cards$") as refused:
        rnd.verify_discard([held[0], held[0]])
    assert refused.value.code is RuleCode.DISCARD_TWO_CARDS and refused.value.seat == 1
    with pytest.raises(IllegalActionError, match=r"^E must lay aside two different cards$"):
        rnd.discard(held[:3])
    with pytest.raises(IllegalActionError, match=r"^E does not hold ") as refused:
        rnd.discard([held[0], foreign])
    assert refused.value.code is RuleCode.CARD_NOT_HELD
    assert refused.value.cards == (card_name(foreign),)
    assert not rnd.can_discard([held[0], foreign]) and rnd.can_discard(held[:2])
    assert rnd.phase == "discard" and rnd.hands[1] == hand  # refusals change nothing
    rnd.discard(held[:2])
    assert rnd.phase == "play" and rnd.discards == 1 << held[0] | 1 << held[1]


def test_card_refusals_name_the_rule() -> None:
    """docs/rules.md §6.1: holding the led plain suit, a player follows it."""
    rnd = classic()
    with pytest.raises(IllegalActionError, match=r"^no card now: the deal is in phase bidding$"):
        rnd.verify_play(0)
    assert not rnd.can_play(0)
    rnd.call("take")
    assert rnd._play is not None
    leader = rnd.current_player()
    lead = rnd.legal_cards()[0]
    assert rnd.can_play(lead)
    rnd.play_card(lead)
    seat = rnd.current_player()
    hand = rnd.hand(seat)
    legal = rnd.legal_cards()
    refused = [c for c in range(32) if hand >> c & 1 and c not in legal]
    if refused:
        assert not rnd.can_play(refused[0])
        with pytest.raises(IllegalPlayError, match=r"^trick 1: [NESW] may not play \w\w: ") as no:
            rnd.verify_play(refused[0])
        assert no.value.code is illegal_code(rnd._play.state, refused[0])
        assert no.value.code is not None and no.value.code.section.startswith("§6")
        assert no.value.card == card_name(refused[0])
    foreign = next(c for c in range(32) if not hand >> c & 1 and c != lead)
    with pytest.raises(IllegalPlayError, match=r"^trick 1: [NESW] does not hold \w\w$") as no:
        rnd.play_card(foreign)
    assert no.value.code is RuleCode.CARD_NOT_HELD and no.value.where == ("trick 1",)
    assert rnd.current_player() == seat != leader


def test_view_has_typed_legal_lists() -> None:
    """docs/rules.md §3.2 then §6: calls in the bidding, cards in the play, each typed."""
    rnd = classic()
    view = rnd.view(1)
    assert view.legal_calls == ("pass", "take") and view.legal_cards == ()
    assert rnd.view(2).legal_calls == ()  # not its turn
    rnd.call("take")
    seat = rnd.current_player()
    view = rnd.view(seat)
    assert view.legal_calls == () and view.legal_cards == tuple(rnd.legal_cards())
    assert all(isinstance(c, int) for c in view.legal_cards)


def test_views_follow_the_deal() -> None:
    """docs/rules.md §5, §7.4: a view made after each card holds every trick so far,
    the same as a view of a fresh copy of the deal."""
    rnd = classic()
    copy = classic()
    for r in (rnd, copy):
        r.call("pass")
        r.call("take")
    while rnd.phase == "play":
        c = rnd.legal_cards()[-1]
        rnd.play_card(c)
        copy.play_card(c)
        seat = rnd.current_player()
        if seat >= 0 and len(rnd.actions_json()) % 5 == 0:
            fresh = Round(make_rules(), 0, DECK)
            fresh.apply_actions(rnd.actions_json())
            assert rnd.view(seat) == fresh.view(seat) == copy.view(seat)
    assert rnd.view(0) == copy.view(0) and rnd.spectator_view() == copy.spectator_view()


def _reachable(view: PlayerView) -> list[Any]:
    """Every object a view leads to (not classes, modules or functions)."""
    seen: dict[int, Any] = {}
    todo: list[Any] = [view]
    while todo:
        obj = todo.pop()
        if id(obj) in seen or isinstance(obj, type) or callable(obj):
            continue
        seen[id(obj)] = obj
        todo.extend(gc.get_referents(obj))
    return list(seen.values())


def _fields(view: PlayerView) -> dict[str, Any]:
    return {name: getattr(view, name) for name in PlayerView.__dataclass_fields__}


@pytest.mark.parametrize(("profile", "options"), [
    ("classic", {}), ("coinche", {}), ("classic-3p", {"three_deal": "kitty"}),
    ("classic-2p", {"two_deal": "decouverte"}),
])
def test_a_view_stays_what_it_was_and_holds_no_other_hand(
    profile: str, options: dict[str, str]
) -> None:
    """A view of the card play works its fields out on their first read: read after the
    round has moved on, it is still the view of its moment (equal to a view of a fresh
    replay stopped there), and nothing it leads to is the round's, a hand, the deck or
    a declaration's cards not shown (§7.4, §7.6)."""
    rules = make_rules(profile, options)
    rng = random.Random(4)
    deck = list(Table.of(rules).deck)
    rng.shuffle(deck)
    rnd = Round(rules, 1, deck)
    kept: list[tuple[list[Any], list[PlayerView]]] = []
    while rnd.phase != PLAY:
        views = [rnd.view(s) for s in range(rules.players)] + [rnd.spectator_view()]
        kept.append((rnd.actions_json(), views))  # the bidding's views, not read yet
        if rnd.legal_calls():
            rnd.call("pass" if rnd.current_player() != 2 % rules.players else
                     rnd.legal_calls()[-1])
        else:
            held = [c for c in range(32) if rnd.hands[rnd.current_player()] >> c & 1]
            rnd.discard(held[:2])
    while rnd.phase == PLAY:
        views = [rnd.view(s) for s in range(rules.players)] + [rnd.spectator_view()]
        kept.append((rnd.actions_json(), views))  # not read yet
        rnd.play_card(rng.choice(rnd.legal_cards()))
    assert rnd._play is not None
    over = [rnd.view(s) for s in range(rules.players)] + [rnd.spectator_view()]
    assert all(v.phase == OVER and v.turn == -1 and v.legal_cards == () for v in over)
    hidden = [rnd, rnd._play, rnd._play.state, rnd._play.state.hands, rnd._play.history,
              rnd._play.announced, rnd.hands, rnd.deck, rnd.bidding, rnd.first, rnd.piles]
    for actions, views in kept:
        fresh = Round(rules, 1, deck)
        fresh.apply_actions(actions)
        for view in views:
            now = fresh.spectator_view() if view.seat < 0 else fresh.view(view.seat)
            assert _fields(view) == _fields(now)
            assert view.phase == fresh.phase  # worked out, not read from the round
            assert view.turn == fresh.current_player()
            reached = _reachable(view)
            assert not any(x is h for x in reached for h in hidden if h is not None)
            allowed = {id(d) for shown in view.shown for d in shown}
            allowed |= {id(d) for d in view.my_declarations or ()}
            for x in reached:
                if isinstance(x, Declaration):  # shown since, or the seat's own
                    assert id(x) in allowed or any(
                        x in shown for shown in rnd.view(0).shown), x


def test_one_log_of_events() -> None:
    """docs/rules.md §3.2, §12.1: calls, then the discard, then the cards, once each."""
    rnd = kitty()
    rnd.call("H", 1)
    held = [c for c in range(32) if rnd.hands[1] >> c & 1]
    rnd.discard(held[:2])
    rnd.play_card(rnd.legal_cards()[0], declarations=[])
    events = rnd.events()
    assert [type(e).__name__ for e in events] == ["Call", "Discarded", "CardPlayed"]
    assert rnd.actions_json() == [
        {"call": "H", "seat": "E"},
        {"discard": [card_name(c) for c in held[:2]]},
        {"card": card_name(rnd.cards_played()[0]), "declarations": []},
    ]


@pytest.mark.parametrize("seed", range(6))
def test_each_card_played_is_recorded_with_what_was_said(seed: int) -> None:
    """§7.4, §7.7: each card of the log is the CardPlayed of its seat, card, what was
    announced and said with it and what was chosen, whether made for it or shared
    (nothing said, the defaults chosen)."""
    rng = random.Random(seed)
    deck = list(range(32))
    rng.shuffle(deck)
    rnd = Round(make_rules(), seed % 4, deck)
    rnd.call("take")
    while rnd.phase == PLAY:
        says = rng.random() < 0.5
        explicit: list[Declaration] | None = None if rng.random() < 0.7 else []
        record = rnd.play_card(rng.choice(rnd.legal_cards()), explicit, says)
        assert type(record) is CardPlayed
        assert record == CardPlayed(record.seat, record.card, record.declarations,
                                    record.belote, explicit is not None, says)
    assert [e.card for e in rnd.events() if isinstance(e, CardPlayed)] == rnd.cards_played()



@pytest.mark.parametrize(("profile", "options"), [
    ("classic", {}), ("coinche", {}), ("classic", {"king_first": True}),
    ("classic-3p", {"three_deal": "kitty"}), ("classic-2p", {"two_deal": "decouverte"}),
])
def test_a_card_checked_by_the_view_plays_as_a_card_checked_again(
    profile: str, options: dict[str, Any]
) -> None:
    """Round.play_card's path for a card its view found legal (a card with nothing to
    announce, say or turn up written out) against HandPlay's checked path (a card
    played with no view made first): the same events, record, views and score, deal
    after deal, with belote sometimes declined and combinations sometimes announced
    explicitly (§7.4, §7.7, §12.2)."""
    rules = make_rules(profile, options)
    for seed in range(25):
        rng = random.Random(seed)
        deck = list(Table.of(rules).deck)
        rng.shuffle(deck)
        fast, slow = Round(rules, seed % rules.players, deck), Round(rules, seed % rules.players,
                                                                        deck)
        while fast.phase not in (PLAY, OVER, "all_pass"):
            action = rng.choice(fast.legal_actions())
            fast.apply(action)
            slow.apply(action)
        while fast.phase == PLAY:
            seat = fast.current_player()
            view = fast.view(seat)  # (its legal cards: the fast path's check)
            card = rng.choice(view.legal_cards)
            decls: list[Declaration] | None = None if rng.random() < 0.8 else []
            says = rng.random() < 0.8
            if decls is not None and fast.announced[seat] is not None:
                decls = None  # (an announcement after the first card: refused by both)
            assert fast.play_card(card, decls, says) == slow.play_card(card, decls, says)
            assert fast.view(seat) == slow.view(seat)
        assert fast.events() == slow.events() and fast.record() == slow.record()
        if fast.phase == OVER:
            assert fast.result() == slow.result()
