"""Bots at the tables of three and two players (docs/rules.md §12): drivers, random, heuristic,
the small-table PIMC (knowledge, sampler, solver), `belote simulate`, `belote tournament`
and `belote play` for profiles classic-3p and classic-2p.

docs/rules.md §12.1 (three players: 24_cards, kitty, six_each), §12.2 (two players: stock,
découverte), §6 (legal cards), §7.4–§7.7 (what is said and shown), §8 (the score).
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import random
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from belote.bidding import Call
from belote.bots import Bot, make_bot, play_deal, play_game
from belote.bots.arena import simulate
from belote.bots.base import default_discard, discard_trump, played_by
from belote.bots.card_score import CardScorer, world_state
from belote.bots.heuristic import HeuristicBot, small_strength
from belote.bots.knowledge import Knowledge, World, infer
from belote.bots.pimc import PimcBot
from belote.bots.pimc_config import DECOUVERTE_PLAY_DEFAULTS, SMALL_TABLE_DEFAULTS
from belote.bots.random_bot import RandomBot
from belote.bots.sampling import DealSampler
from belote.cards import HEARTS, SPADES, Card, card_name, mask_of, parse_card, scan_forward
from belote.cli import app
from belote.deal import new_deck
from belote.declarations import Declaration, DeclarationResult
from belote.errors import IllegalActionError, OptionError
from belote.hand import Contract
from belote.options import Rules, make_rules
from belote.play import PlayState, Trick
from belote.round import ALL_PASS, DISCARD, OVER, PLAY, Announced, PlayerView, Round
from belote.solver import SearchLimitError, minimax, solve
from belote.table import DealMode, Table
from belote.tournament import TournamentConfig, run_tournament, seating
from tests.helpers import bid_to_play, mask, played_by_round, world_behind

runner = CliRunner()

MODES: list[tuple[str, dict[str, Any]]] = [
    ("classic-3p", {}),
    ("classic-3p", {"three_deal": "kitty"}),
    ("classic-3p", {"three_deal": "six_each"}),
    ("classic-2p", {}),
    ("classic-2p", {"two_deal": "decouverte"}),
]
MODE_IDS = ["24_cards", "kitty", "six_each", "stock", "decouverte"]
LOW_PIMC = "pimc:worlds=3,tricks=4,nodes=4000"


def _rules(i: int) -> Rules:
    profile, options = MODES[i]
    return make_rules(profile, options)


def _deal(rules: Rules, seed: int, dealer: int = 0) -> Round:
    deck = new_deck(rules.players, rules.three_deal)
    random.Random(seed).shuffle(deck)
    return Round(rules, dealer % rules.players, deck)


def _play(rules: Rules, specs: Sequence[str | Bot], deals: int, seed: int) -> list[Round]:
    """``deals`` seeded deals played to the end by the bots (play_deal refuses any action
    that is not legal: a call not in view.legal_calls, an illegal card, a bad discard)."""
    out = []
    for d in range(deals):
        bots: list[Bot] = [
            make_bot(s, seed + 7 * d + i) if isinstance(s, str) else s
            for i, s in enumerate(specs)
        ]
        rnd = _deal(rules, seed + d, d)
        play_deal(rnd, bots)
        assert rnd.phase in (OVER, ALL_PASS)
        out.append(rnd)
    return out


# --- drivers, legal actions ---------------------------------------------------------------


@pytest.mark.parametrize("mode", range(5), ids=MODE_IDS)
def test_12_random_and_heuristic_finish_every_deal_with_legal_actions(mode: int) -> None:
    """§12.1/§12.2 with §3 calls, §6 cards, §12.1 the kitty discard: every answer is legal
    (play_deal raises IllegalActionError otherwise) and every deal ends."""
    rules = _rules(mode)
    n = rules.players
    rounds = _play(rules, ["random"] * n, 40, seed=1)
    rounds += _play(rules, ["heuristic"] * n, 30, seed=2)
    rounds += _play(rules, (["heuristic", "random"] * 2)[:n], 30, seed=3)
    played = [r for r in rounds if r.phase == OVER]
    assert len(played) > 50
    for rnd in played:
        res = rnd.result()
        assert res.seats is not None and len(res.seats) == n
        assert all(len(t.cards) == n for t in res.tricks)


@pytest.mark.parametrize("mode", range(5), ids=MODE_IDS)
def test_12_small_pimc_plays_legal_cards(mode: int) -> None:
    """The small-table PIMC (``pimc`` at low effort) answers legal cards
    in whole deals, searching from four tricks left."""
    rules = _rules(mode)
    n = rules.players
    specs: list[str | Bot] = [make_bot(LOW_PIMC, seed=s) for s in range(n)]
    rounds = _play(rules, specs, 3, seed=4)
    assert any(r.phase == OVER for r in rounds)


@pytest.mark.parametrize("mode", range(5), ids=MODE_IDS)
def test_12_whole_games_between_bots(mode: int) -> None:
    """play_game seats as many bots as the profile has players; each keeps his own total
    and one seat wins (§11 applied per player, §12)."""
    rules = _rules(mode)
    n = rules.players
    bots: list[Bot] = [make_bot("heuristic" if s == 0 else "random", s) for s in range(n)]
    match = play_game(rules, bots, seed=5)
    assert match.finished and match.winner in range(n)
    assert len(match.seat_totals) == n


def test_drivers_want_one_bot_a_seat() -> None:
    with pytest.raises(OptionError, match=r"seats 3 players \(N E S\): give 3 bots, got 4"):
        play_deal(_deal(_rules(0), 1), [make_bot("random")] * 4)
    with pytest.raises(OptionError, match="give 2 bots, got 3"):
        play_game(_rules(3), [make_bot("random")] * 3, seed=1)
    with pytest.raises(OptionError, match="give 4 bots, got 3"):
        simulate(make_rules(), ["random"] * 3, 1, seed=1)


def test_pimc_plays_the_small_tables() -> None:
    """``pimc`` plays the cards at a three- or two-player table (§12) with its own
    sampler and the search for every table;
    with ``discard=rule`` it lays aside the kitty like the heuristic, by default (the
    search, tests/test_kitty_discard.py) two of its twelve."""
    for mode in range(5):
        rules = _rules(mode)
        out = simulate(rules, ["pimc:worlds=2,tricks=3,nodes=3000"] * rules.players, 2, seed=1)
        assert out.deals == 2
    bot = make_bot("pimc:discard=rule", seed=1)
    rnd = _kitty_round(3)
    view = rnd.view(rnd.current_player())
    assert bot.discard(view) == make_bot("heuristic", seed=1).discard(view)
    searched = make_bot("pimc", seed=1).discard(view)
    assert len(set(searched)) == 2 and all(view.hand >> c & 1 for c in searched)


# --- the kitty discard (§12.1) ------------------------------------------------------------


def _kitty_round(seed: int) -> Round:
    """A kitty deal where the eldest names hearts and must lay two cards aside."""
    rnd = _deal(_rules(1), seed)
    rnd.call("H")
    assert rnd.phase == DISCARD
    return rnd


def test_12_1_default_discard_keeps_trumps_and_aces() -> None:
    """The taker lays aside two of his twelve, no trump and no ace while he holds other
    cards; an unguarded ten is put safe (the discards count in his tricks)."""
    for seed in range(40):
        rnd = _kitty_round(seed)
        view = rnd.view(rnd.current_player())
        assert discard_trump(view) == HEARTS
        cards = default_discard(view)
        assert len(set(cards)) == 2 and all(view.hand >> c & 1 for c in cards)
        assert not any(c >> 3 == HEARTS for c in cards)
        aces = sum(1 for c in scan_forward(view.hand) if c & 7 == 7 and c >> 3 != HEARTS)
        plain = sum(1 for c in scan_forward(view.hand) if c >> 3 != HEARTS)
        if plain - aces >= 2:
            assert not any(c & 7 == 7 for c in cards)
    hand = mask("JH 9H AH TH KH QH 8H 7H TS 7D 8D 9C")  # a bare ten of spades
    view = dataclasses.replace(_kitty_round(0).view(1), hand=hand)
    assert parse_card("TS") in default_discard(view)


def test_12_1_bots_discard_and_the_taker_knows_his_discards() -> None:
    """Every bot lays aside two different cards of its hand; the taker's view of the
    card play shows them to him alone (``discards``), so his knowledge leaves them out
    of the unknown cards, while a defender's counts two cards out."""
    for spec in ("random", "heuristic"):
        for seed in range(6):
            rnd = _kitty_round(seed)
            taker = rnd.current_player()
            bot = make_bot(spec, seed)
            cards = bot.discard(rnd.view(taker))
            rnd.discard(cards)
            mine = rnd.view(taker)
            assert mine.discards == mask_of(cards) and len(set(cards)) == 2
            told = infer(mine)
            assert told.out == 0 and not told.unknown & mask_of(cards)
            for seat in range(3):
                if seat != taker:
                    other = rnd.view(seat)
                    assert other.discards == 0
                    know = infer(other)
                    assert know.out == 2 and know.unknown & mask_of(cards) == mask_of(cards)


def test_12_1_a_bad_discard_is_refused_and_a_bot_without_discard_gets_the_default() -> None:
    class Hoarder(RandomBot):
        def discard(self, view: PlayerView) -> list[Card]:
            return [next(scan_forward(view.hand))]

    class Thief(RandomBot):
        def discard(self, view: PlayerView) -> list[Card]:
            outside = [c for c in range(32) if not view.hand >> c & 1]
            return outside[:2]

    for cheat in (Hoarder(0), Thief(0)):
        rnd = _kitty_round(3)
        with pytest.raises(IllegalActionError, match=r"kitty discard is two different cards"):
            play_deal(rnd, [cheat] * 3)

    class Plain:
        """A bot of the protocol's first four methods only (no discard)."""

        name = "plain"

        def call(self, view: PlayerView) -> str:
            return "H" if "H" in view.legal_calls else view.legal_calls[0]

        def play(self, view: PlayerView) -> int:
            return min(view.legal_cards)

        def declarations(self, view: PlayerView) -> None:
            return None

        def say_belote(self, view: PlayerView, card: int) -> bool:
            return True

    rnd = _deal(_rules(1), 9)
    play_deal(rnd, [Plain(), Plain(), Plain()])  # type: ignore[list-item]
    assert rnd.phase == OVER and rnd.discards.bit_count() == 2


# --- the heuristic at small tables ----------------------------------------------------------


def test_4_player_heuristic_unchanged_by_the_small_table_code() -> None:
    """The four-player heuristic never reads the small-table tables: a view of four
    players takes the 4-player path (tests/test_bots.py pins its choices)."""
    rnd = _deal(make_rules(), 3)
    bot = HeuristicBot(0)
    assert bot.call(rnd.view(rnd.current_player())) in ("take", "pass")


def test_12_heuristic_bids_by_strength() -> None:
    """Three players, 24 cards: the jack, nine and ace of trumps with side aces take;
    a hand without trump honours passes (seed 000 §9 tip 1, thresholds of §12 deals)."""
    strong = mask("JH 9H AH TS AS")
    weak = mask("9S TD QD 9C KC")
    assert small_strength(strong | mask("KH"), HEARTS) >= 60
    assert small_strength(weak | mask("KH"), HEARTS) < 60
    rnd = _deal(_rules(0), 0)
    view = rnd.view(rnd.current_player())
    turned = parse_card("KH")
    strong_view = dataclasses.replace(view, hand=strong, turned=turned)
    weak_view = dataclasses.replace(view, hand=weak, turned=turned)
    assert HeuristicBot(0).call(strong_view) == "take"
    assert HeuristicBot(0).call(weak_view) == "pass"
    kitty = _deal(_rules(1), 0)
    view = kitty.view(kitty.current_player())
    assert HeuristicBot(0).call(dataclasses.replace(
        view, hand=mask("JS 9S AS TS KS AH AD 7C 8C 9D"))) == "S"


def _three_player_feed_round() -> Round:
    """24 cards, trump hearts, N takes and leads his only trump, E overtrumps; E leads
    K♠, S follows Q♠ and N, void in spades, discards 9♦ (so he holds no trump either,
    §6.3b); E now leads A♠ with S to play before N."""
    hands = {
        0: "9D TD JD QD 9C TC JC",  # + QH, the turned card
        1: "JH KS AS JS AH KD QC KC",
        2: "KH QS TS 9S 9H TH AD AC",
    }
    cards = {s: [parse_card(t) for t in h.split()] for s, h in hands.items()}
    deck: list[Card] = [0] * 24
    slots = {0: [0, 1, 2, 9, 10, 16, 17], 1: [3, 4, 5, 11, 12, 18, 19, 20],
             2: [6, 7, 8, 13, 14, 21, 22, 23]}
    for s, places in slots.items():
        for i, c in zip(places, cards[s], strict=True):
            deck[i] = c
    deck[15] = parse_card("QH")
    rnd = Round(_rules(0), 2, deck)
    rnd.call("take")
    for t in ("QH", "JH", "KH", "KS", "QS", "9D"):
        rnd.play_card(parse_card(t))
    rnd.play_card(parse_card("AS"))
    return rnd


def test_12_1_a_defender_feeds_the_other_defender_holding_the_trick() -> None:
    """Three players: the defenders are one side (§12.1).  E's ace of spades holds the
    trick against N, known void in spades and in trumps, so S gives it his ten, not the
    nine; the taker N, void, throws his lowest card."""
    rnd = _three_player_feed_round()
    assert rnd.current_player() == 2
    view = rnd.view(2)
    assert set(view.legal_cards) == {parse_card("TS"), parse_card("9S")}
    assert card_name(HeuristicBot(0).play(view)) == "TS"
    know = infer(view)
    assert not know.possible(0) & mask("9S TS JS QS KS AS 9H TH JH QH KH AH")
    rnd.play_card(parse_card("TS"))
    assert card_name(HeuristicBot(0).play(rnd.view(0))) in ("TD", "9C", "TC", "JD", "QD", "JC")


def _three_player_ace_round() -> Round:
    """24 cards, E takes clubs in round 2 (§3.3); after four tricks N, a defender,
    leads A♥ and E, the taker, follows Q♥: S, the other defender, last to play, holds
    T♥ and K♥ and settles the trick for N."""
    rnd = _deal(_rules(0), 533, 0)
    starts = {0: "9S JS AS AH 9D KD TC KC", 1: "QS QH QD AD 9C JC QC AC",
              2: "TS KS 9H TH JH KH TD JD"}
    for call in ("pass", "pass", "pass", "C"):
        rnd.call(call)
    for seat, hand in starts.items():
        assert rnd.view(seat).hand == mask(hand)
    played = "JC 9H KC 9C JH TC AD JD 9D QS KS AS AH QH"
    for t in played.split():
        rnd.play_card(parse_card(t))
    return rnd


def test_12_1_a_defender_plays_for_his_own_points() -> None:
    """Three players: each defender scores his own trick points (§12.1).  N's ace of
    hearts wins the trick; S, last, gives it his king, not his ten: the ten would be
    N's points, not his.  Counting the side's score alone (``own_points=0``), the ten
    looks better (the side keeps it); with ``own_points=1`` each point fed to the other
    defender weighs twice a point the side takes from the taker, and the ten, fed,
    costs 2 x 10, the king 2 x 4, in every world."""
    rnd = _three_player_ace_round()
    view = rnd.view(2)
    assert rnd.current_player() == 2 and view.contract is not None
    assert set(view.legal_cards) == {parse_card("TH"), parse_card("KH")}
    side, own = PimcBot(0, own_points=0), PimcBot(0, own_points=1)
    assert card_name(side.play(view)) == "TH"
    assert card_name(own.play(view)) == "KH"
    ten, king = parse_card("TH"), parse_card("KH")
    gap = side.last_values[ten] - side.last_values[king]
    assert own.last_values[ten] - own.last_values[king] == pytest.approx(gap - 2 * (10 - 4))
    # the taker and four players are unchanged: a taker has no partner to feed
    taker = rnd.view(1)
    scorer = CardScorer(taker, own_points=1)
    assert scorer.seat_bonus(World(tuple(0 for _ in range(3)))) == {}


def test_12_1_the_bonus_needs_the_trick_settled() -> None:
    """A defender's card earns or costs points of his own only when the trick's winner
    is settled in the world: a later seat holding a card that beats it leaves it open
    (the side's score alone decides)."""
    rnd = _three_player_feed_round()
    view = rnd.view(2)  # S second, after E's ace of spades, N to play after him
    scorer = CardScorer(view, own_points=1)
    east = mask("JS AH KD QC KC")
    void = World((mask("TD JD QD 9C TC JC"), east, view.hand))
    assert scorer.seat_bonus(void) == {parse_card("TS"): -20.0, parse_card("9S"): 0.0}
    # (a world the view rules out, for the rule alone: N holding a trump could win it)
    trump = World((mask("TD JD QD 9C TC AH"), mask("JS JC KD QC KC"), view.hand))
    assert scorer.seat_bonus(trump) == {}


def test_12_heuristic_beats_random_at_three_and_two() -> None:
    """Seed 000 §9 at small tables: over seeded deals with the heuristic at each seat in
    turn against random bots, its score is well above theirs (measured with these seeds:
    1.68 times the random seats' mean at three players, 24 cards, 180 deals; 1.89 times
    at two, stock, 120 deals)."""
    for mode, deals in ((0, 60), (3, 60)):
        rules = _rules(mode)
        n = rules.players
        mine = theirs = 0.0
        for seat in range(n):
            specs = ["heuristic" if s == seat else "random" for s in range(n)]
            out = simulate(rules, specs, deals, seed=40 + seat)
            mine += out.score[seat]
            theirs += sum(out.score[s] for s in range(n) if s != seat) / (n - 1)
        assert mine > 1.3 * theirs, (MODE_IDS[mode], mine, theirs)


# --- knowledge and sampling -------------------------------------------------------------


@pytest.mark.parametrize("mode", range(5), ids=MODE_IDS)
def test_sampled_worlds_agree_with_the_view_and_the_truth_is_one_of_them(mode: int) -> None:
    """At every card of random deals: the real deal agrees with what the seat knows
    (voids of §6 read right, turned card §3.4, belote §7.7, shown declarations §7.6),
    and every sampled world agrees with the knowledge."""
    rules = _rules(mode)
    rng = random.Random(mode)
    checked = 0
    for d in range(12):
        rnd = _deal(rules, 100 + d, d)
        bots: list[Bot] = [RandomBot(d * 3 + s) for s in range(rules.players)]
        bid_to_play(rnd, bots)
        while rnd.phase == PLAY:
            seat = rnd.current_player()
            view = rnd.view(seat)
            know = infer(view)
            world = world_behind(rnd, seat)
            if rnd.mode != "decouverte":
                assert know.allows(world), (d, seat, len(view.tricks))
            sampler = DealSampler(know)
            assert sampler.count() > 0
            for _ in range(3):
                sampled = sampler.sample(rng)
                assert know.allows(sampled)
                state = world_state(view, sampled)
                legal = mask_of(view.legal_cards)
                assert state.turn == seat and state.legal_mask() == legal
            checked += 1
            rnd.play_card(rng.choice(rnd.legal_cards()), belote=rng.random() < 0.9)
    assert checked > 60


def test_the_sampler_is_uniform_over_the_deals_it_allows() -> None:
    """Four unknown cards, E and S to get one each, two out of play (the six-each deal):
    12 deals, each drawn about as often; a void rules some out."""
    k = Knowledge(
        seat=0, table=Table(3, DealMode.SIX_EACH), trump=SPADES, sizes=(1, 1, 1),
        known=(mask("7S"), 0, 0), forbidden=(0, 0, 0), unknown=mask("7H 8H 9H TH"), out=2,
    )
    sampler = DealSampler(k)
    assert sampler.count() == 12
    rng = random.Random(1)
    seen = Counter(tuple(sampler.sample(rng).hands) for _ in range(6000))
    assert len(seen) == 12 and all(380 < v < 620 for v in seen.values()), seen
    void = dataclasses.replace(k, forbidden=(0, mask("7H 8H"), 0))
    ruled = DealSampler(void)
    assert ruled.count() == 6
    assert all(not w.hands[1] & mask("7H 8H") for w in (ruled.sample(rng) for _ in range(50)))


def test_decouverte_knowledge_finds_the_covering_cards() -> None:
    """§12.2: both players see which face-up cards still cover a face-down one (the
    view's ``covering``); they are exactly the real ones, and the face-down cards under
    each seat are counted right."""
    rules = _rules(4)
    for d in range(6):
        rnd = _deal(rules, 200 + d, d)
        rng = random.Random(d)
        while rnd.phase == PLAY:
            seat = rnd.current_player()
            view = rnd.view(seat)
            assert view.covering == rnd.view(1 - seat).covering
            know = infer(view)
            truth = world_behind(rnd, seat)
            assert know.covering == truth.covering
            assert know.under == tuple(m.bit_count() for m in truth.covering)
            assert know.unknown == truth.out
            assert know.allows(truth)
            rnd.play_card(rng.choice(rnd.legal_cards()))


# --- no hidden information --------------------------------------------------------------------


_ALLOWED = (int, str, bool, type(None), Rules, Contract, Trick, Declaration, Call,
            PlayerView, Announced, DeclarationResult)


def _walk(obj: object) -> None:
    if isinstance(obj, tuple):
        for x in obj:
            _walk(x)
        return
    assert isinstance(obj, _ALLOWED), type(obj).__name__
    if dataclasses.is_dataclass(obj) and not isinstance(obj, Rules):
        for f in dataclasses.fields(obj):
            _walk(getattr(obj, f.name))


class Spy(RandomBot):
    """Plays at random and checks that each view names only what its seat may know."""

    kind = "spy"

    def __init__(self, seed: int, rnd_ref: list[Round]) -> None:
        super().__init__(seed)
        self.rnd_ref = rnd_ref
        self.seen = 0

    def _inspect(self, view: PlayerView) -> None:
        _walk(view)  # only plain values: no hand, deck or round reachable
        rnd = self.rnd_ref[0]
        mine = rnd.hand(view.seat)
        assert view.hand == mine
        hidden = 0
        for s in range(rnd.players):
            if s != view.seat:
                hidden |= rnd.hand(s)
        named = view.hand | view.played | view.public
        if rnd.mode == "decouverte":
            assert rnd._play is not None
            face_down = mask_of(u for c, u in rnd._play.beneath.items()
                                if not played_by_round(rnd) >> c & 1)
            assert not named & face_down  # §12.2: nobody sees a face-down card
            assert view.public == rnd.hand(1 - view.seat)
        else:
            assert not named & hidden, card_name(next(scan_forward(named & hidden)))
            expected = 0
            if rnd.mode in ("six_each", "stock") and rnd.bergere is not None:
                assert rnd.turned is not None
                expected = 1 << rnd.bergere | 1 << rnd.turned  # §12: left face up
            assert view.public == expected
        if rnd.mode == "kitty" and rnd.discards and view.seat != rnd.bidding.taker:
            assert not named & rnd.discards  # the taker's discards stay unseen
        if rnd.mode == "kitty" and rnd.first is not None and view.phase == "bidding":
            assert not named & mask_of(rnd.first.stock)  # nor the kitty before it is taken
        self.seen += 1

    def call(self, view: PlayerView) -> str:
        self._inspect(view)
        return super().call(view)

    def play(self, view: PlayerView) -> int:
        self._inspect(view)
        return super().play(view)

    def discard(self, view: PlayerView) -> list[Card]:
        self._inspect(view)
        return super().discard(view)


@pytest.mark.parametrize("mode", range(5), ids=MODE_IDS)
def test_12_views_hold_no_hidden_card(mode: int) -> None:
    """A view names only the seat's own cards, the cards played, the turned card and the
    bergère (§12: left face up), the other player's face-up cards in découverte, and what
    was said or shown (§7.4–§7.7): never a card of another hand, the stock, the kitty
    discard or a face-down card."""
    rules = _rules(mode)
    ref: list[Round] = []
    spies = [Spy(s, ref) for s in range(rules.players)]
    for d in range(8):
        rnd = _deal(rules, 300 + d, d)
        ref[:] = [rnd]
        play_deal(rnd, spies)
    assert all(s.seen > 10 for s in spies)


# --- the solver ---------------------------------------------------------------------------


def _endgame(
    rng: random.Random, n: int, k: int, cover: int = 0
) -> tuple[PlayState, dict[int, int]]:
    """A random position: ``k`` cards a seat, ``cover`` of them over a face-down card
    (découverte), some cards of the current trick already played."""
    deck = list(range(32))
    rng.shuffle(deck)
    hands = [mask_of(deck[s * k:(s + 1) * k]) for s in range(n)]
    beneath: dict[int, int] = {}
    pos = n * k
    for s in range(n):
        ups = list(scan_forward(hands[s]))
        rng.shuffle(ups)
        for c in ups[:cover]:
            beneath[c] = deck[pos]
            pos += 1
    teams = rng.choice([(0, 1, 1), (1, 0, 1), (1, 1, 0)]) if n == 3 else (0, 1)
    rules = make_rules("classic-3p" if n == 3 else "classic-2p")
    state = PlayState(rules, rng.randrange(4), hands, rng.randrange(n), tricks_left=k + cover,
                      tricks_won=(rng.randint(0, 1), rng.randint(0, 1)), teams=teams)
    for _ in range(rng.randrange(n)):
        state.push(rng.choice(state.legal_cards()))
    return state, beneath


@pytest.mark.parametrize(("n", "k", "cover"), [(3, 3, 0), (3, 4, 0), (2, 5, 0), (2, 3, 2),
                                               (2, 4, 1)])
def test_small_solver_agrees_with_plain_minimax(n: int, k: int, cover: int) -> None:
    """The alpha-beta solver with its transposition table gives the value of the plain
    minimax, for the position and after each legal card (§5.1 points, dix de der, §5.2
    capot bonus; §12.2 face-down cards turned up as the cards above them are played)."""
    rng = random.Random(n * 100 + k * 10 + cover)
    for _ in range(25):
        state, beneath = _endgame(rng, n, k, cover)
        before = (list(state.hands), list(state.trick), list(state.trick_points))
        result = solve(state, beneath=beneath)
        assert (list(state.hands), list(state.trick), list(state.trick_points)) == before
        assert result.value == minimax(state, beneath)
        assert set(result.moves) == set(state.legal_cards())
        for c, v in result.moves.items():
            gained = state.trick_points[0]
            state.push(c)
            gained = state.trick_points[0] - gained
            shown = []
            if not state.trick:
                t = state.tricks[-1]
                for i, x in enumerate(t.cards):
                    if x in beneath:
                        shown.append(((t.leader + i) % n, beneath[x]))
                        state.hands[shown[-1][0]] |= 1 << beneath[x]
            assert v == gained + minimax(state, beneath)
            for p, u in shown:
                state.hands[p] &= ~(1 << u)
            state.pop()


def test_small_solver_node_budget_raises_like_the_four_player_solver() -> None:
    rng = random.Random(5)
    state, _ = _endgame(rng, 3, 7)
    with pytest.raises(SearchLimitError):
        solve(state, max_nodes=50)
    assert solve(state, moves=False).value == solve(state).value


def test_small_solver_counts_a_turned_up_card() -> None:
    """§12.2: N's 7♦ covers the A♥ (trump hearts): after N plays it, the ace is his
    to play in the last trick."""
    rules = make_rules("classic-2p", {"two_deal": "decouverte"})
    state = PlayState(rules, HEARTS, [mask("7D"), mask("8D KH")], 0, tricks_left=2,
                      tricks_won=(1, 1))
    beneath = {parse_card("7D"): parse_card("AH")}
    # trick 1: 7D, 8D to E (0 points); trick 2: AH beats KH: 11 + 4 + 10 to N
    assert solve(state, beneath=beneath).value == minimax(state, beneath) == 25


# --- the small-table PIMC ---------------------------------------------------------------------


def test_small_pimc_evaluates_and_keeps_to_its_node_budget() -> None:
    rules = _rules(0)
    bot = PimcBot(3, worlds=6, tricks=8, nodes=5000)
    decided = 0
    for d in range(4):
        rnd = _deal(rules, 400 + d, d)
        while rnd.phase == "bidding":
            rnd.call(bot.call(rnd.view(rnd.current_player())))
        while rnd.phase == PLAY:
            view = rnd.view(rnd.current_player())
            c = bot.play(view)
            assert c in view.legal_cards
            assert bot.last_nodes <= 2 * 5000
            if bot.last_worlds:
                assert set(bot.last_values) == set(view.legal_cards)
                decided += 1
            rnd.play_card(c)
    assert decided > 10


def test_small_pimc_is_deterministic_for_a_seed() -> None:
    rules = _rules(3)

    def actions(seed: int) -> list[Any]:
        return [r.actions_json() for r in _play(
            rules, [make_bot(LOW_PIMC, seed=seed), make_bot(LOW_PIMC, seed=seed + 1)], 3, 9)]

    assert actions(1) == actions(1)


def test_small_pimc_plays_perfectly_once_nothing_is_hidden() -> None:
    """§12.2 découverte: once no face-down card is left, both hands are seen, every world
    is the true deal, and PIMC's card is one the solver rates best in it."""
    rules = _rules(4)
    checked = 0
    for d in range(12):
        rnd = _deal(rules, 600 + d, d)
        bots = [HeuristicBot(0), HeuristicBot(1)]
        pimc = [PimcBot(d, worlds=2, tricks=6, objective="points") for _ in range(2)]
        while rnd.phase == PLAY:
            seat = rnd.current_player()
            view = rnd.view(seat)
            card = pimc[seat].play(view)
            assert rnd._play is not None
            state = rnd._play.state
            if infer(view).under == (0, 0) and (
                    state.tricks_left <= 6 and len(view.legal_cards) > 1):
                truth = solve(state.copy())
                pick = max if state.team(seat) == 0 else min
                assert truth.moves[card] == pick(truth.moves.values())
                checked += 1
            rnd.play_card(bots[seat].play(view))
    assert checked > 5


def test_small_pimc_takes_the_bots_seed_and_settings() -> None:
    """At two and three players the card play takes the settings given, the small
    tables' defaults for the others, and samples with the bot's own generator."""
    bot = make_bot("pimc:worlds=5,nodes=1000", seed=4)
    assert isinstance(bot, PimcBot)
    small = bot.card_config(Table(3, DealMode.KITTY))
    assert small.worlds == 5 and small.nodes == 1000
    assert small.tricks == SMALL_TABLE_DEFAULTS["tricks"]  # not given
    assert small.objective is SMALL_TABLE_DEFAULTS["objective"]
    assert bot.card_config(Table(4, DealMode.CLASSIC)) is bot.config
    assert bot.rng.random() == random.Random(4).random()


@pytest.mark.parametrize("mode", range(4), ids=MODE_IDS[:4])
def test_small_pimc_searches_from_the_first_card(mode: int) -> None:
    """At two and three players the card play is searched from the first trick of
    every deal with a bidding (10 tricks at most, the kitty's), over up to 32 worlds:
    the budgets measured best on development seeds (the first tricks were the
    heuristic's, from 7 tricks left, with 16 worlds)."""
    rules = _rules(mode)
    heuristic = HeuristicBot(0)
    for seed in itertools.count(80):  # the first deal somebody takes
        rnd = _deal(rules, seed)
        while rnd.phase not in (PLAY, OVER, ALL_PASS):
            seat = rnd.current_player()
            if rnd.phase == DISCARD:
                rnd.discard(heuristic.discard(rnd.view(seat)))
            else:
                rnd.call(heuristic.call(rnd.view(seat)))
        if rnd.phase == PLAY:
            break
    bot = PimcBot(1)
    while len(rnd.legal_cards()) == 1:
        rnd.play_card(rnd.legal_cards()[0])
    view = rnd.view(rnd.current_player())
    assert len(view.tricks) == 0
    bot.play(view)
    assert SMALL_TABLE_DEFAULTS["tricks"] >= Table.of(rules).tricks
    assert 2 <= bot.last_worlds <= 32 and bot.last_values


def test_decouverte_pimc_searches_from_the_first_trick() -> None:
    """§12.2: in découverte (16 tricks, no bidding) the card play is searched from the
    first trick, within 4,000,000 positions a card (8,000,000 at most), the budgets
    measured best on development seeds (the first six tricks were the heuristic's, from
    10 tricks left); settings given still win over them."""
    rules = _rules(4)
    table = Table.of(rules)
    bot = PimcBot(1)
    decouverte = bot.card_config(table)
    assert (decouverte.tricks, decouverte.nodes) == (16, 4_000_000) == (
        DECOUVERTE_PLAY_DEFAULTS["tricks"], DECOUVERTE_PLAY_DEFAULTS["nodes"])
    assert decouverte.worlds == SMALL_TABLE_DEFAULTS["worlds"]
    stock = bot.card_config(Table.of(_rules(3)))
    assert (stock.tricks, stock.nodes) == (10, 1_000_000)
    given = PimcBot(1, tricks=10, nodes=500).card_config(table)
    assert (given.tricks, given.nodes) == (10, 500)
    rnd = _deal(rules, 80)
    view = rnd.view(rnd.current_player())
    assert len(view.tricks) == 0 and table.tricks == 16 and len(view.legal_cards) > 1
    bot.play(view)
    assert bot.last_worlds >= 1 and set(bot.last_values) == set(view.legal_cards)
    assert bot.last_nodes <= 2 * 4_000_000


# --- simulate -------------------------------------------------------------------------------


def test_simulate_small_tables_gives_per_seat_results() -> None:
    """Per-seat scores; the same seed gives the same deals and result (docs/json.md
    `belote simulate`, extended for §12 by seat)."""
    rules = _rules(0)
    a = simulate(rules, ["heuristic", "random", "random"], deals=30, seed=3)
    b = simulate(rules, ["heuristic", "random", "random"], deals=30, seed=3)
    assert a == b and a.players == 3 and len(a.score) == 3
    out = a.to_json()
    assert set(out) == {"deals", "seconds", "players", "score", "all_passes", "taken", "made",
                        "failed", "litiges", "counted", "capots", "reserve", "bots", "seed"}
    assert list(out["score"]) == ["N", "E", "S"] and list(out["bots"]) == ["N", "E", "S"]
    assert sum(out["taken"].values()) + a.all_passes == 30
    dec = simulate(_rules(4), ["heuristic", "random"], deals=10, seed=1)
    assert dec.counted == 10 and sum(dec.taken) == 0 and list(dec.to_json()["score"]) == ["N", "E"]


def test_simulate_four_players_json_is_unchanged() -> None:
    out = simulate(make_rules(), ["random"] * 4, deals=3, seed=1).to_json()
    assert set(out) == {"deals", "seconds", "score", "all_passes", "taken", "made", "failed",
                        "litiges", "capots", "reserve", "bots", "seed"}
    assert list(out["score"]) == ["NS", "EW"]


@pytest.mark.parametrize("mode", range(5), ids=MODE_IDS)
def test_cli_simulate_small_tables(mode: int) -> None:
    profile, options = MODES[mode]
    n = make_rules(profile, options).players
    args = ["simulate", "--profile", profile, "--deals", "12", "--seed", "4", "--json"]
    for key, value in options.items():
        args += ["--option", f"{key}={value}"]
    result = runner.invoke(app, [*args, "--bots", ",".join(["heuristic", "random", "random"][:n])])
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["players"] == n and len(out["score"]) == n and out["profile"] == profile
    again = runner.invoke(app, [*args, "--bots", ",".join(["heuristic", "random", "random"][:n])])
    assert json.loads(again.stdout)["score"] == out["score"]
    one = runner.invoke(app, args)  # default: random at every seat
    assert one.exit_code == 0 and set(json.loads(one.stdout)["bots"].values()) == {"random"}


def test_cli_simulate_small_tables_errors_and_human_form() -> None:
    result = runner.invoke(app, ["simulate", "--profile", "classic-3p", "--bots", "random,random",
                                 "--deals", "2", "--json"])
    assert result.exit_code == 2
    assert "3 players: give 3 (N,E,S) or 1" in json.loads(result.stdout)["error"]
    assert "Traceback" not in result.output
    result = runner.invoke(app, ["simulate", "--profile", "classic-2p", "--bots",
                                 "heuristic,random", "--deals", "8", "--seed", "2"])
    assert result.exit_code == 0, result.output
    assert "8 deals" in result.stdout and "2 players" in result.stdout
    assert "heuristic" in result.stdout


# --- tournaments ----------------------------------------------------------------------------


def test_seating_rotates_every_bot_round_every_seat() -> None:
    """With three or two players a board is played once a seat; over a board each bot sits
    at each seat equally often, and over two boards each sits alone as often."""
    for n in (2, 3):
        for board in (0, 1):
            tables = [seating(n, board, t) for t in range(n)]
            for s in range(n):
                assert sorted(t[s] for t in tables).count(board % 2) == 1
        alone = [Counter(seating(n, b, 0)).most_common()[-1][0] for b in (0, 1)]
        assert alone == [0, 1] or n == 2
    assert seating(4, 0, 0) == (0, 1, 0, 1) and seating(4, 0, 1) == (1, 0, 1, 0)


LOG: list[tuple[tuple[str, ...], list[int], int]] = []


def recording_driver(rnd: Round, bots: Sequence[Any]) -> None:
    LOG.append((tuple(b.name for b in bots), list(rnd.deck), rnd.dealer))
    play_deal(rnd, bots)


@pytest.mark.parametrize("mode", [0, 3, 4], ids=["24_cards", "stock", "decouverte"])
def test_tournament_small_tables_rotates_seats_on_the_same_deal(mode: int) -> None:
    """Every table of a board gets the same deck and dealer (§2.1, §2.3), the bots rotated;
    results per bot; the heuristic wins the boards against random."""
    profile, options = MODES[mode]
    n = make_rules(profile, options).players
    LOG.clear()
    config = TournamentConfig(bots=("random", "heuristic"), boards=8, seed=2, profile=profile,
                              options=options)
    result = run_tournament(config, workers=1, play_deal=recording_driver)
    assert len(LOG) == 8 * n
    for board in range(8):
        tables = LOG[board * n:(board + 1) * n]
        assert len({(tuple(deck), dealer) for _bots, deck, dealer in tables}) == 1
        for t, (bots, _deck, _dealer) in enumerate(tables):
            expected = tuple(("random", "heuristic")[b] for b in seating(n, board, t))
            assert bots == expected
    pairing = result.pairings[0]
    assert pairing.deals == 8 * n
    assert pairing.deal_results.losses > pairing.deal_results.wins  # random is bot A
    assert pairing.points_per_deal[1] > pairing.points_per_deal[0]
    out = result.to_json()
    assert out["players"] == n and out["tables_per_board"] == n and out["seating"] == "rotated"
    assert [e["bot"] for e in out["elo"]] == ["heuristic", "random"]


def test_tournament_small_tables_games_mode() -> None:
    """Games to the target (§11 per player, §12): the bot at the winning seat wins."""
    config = TournamentConfig(bots=("random", "heuristic"), mode="games", boards=2, seed=5,
                              profile="classic-3p", options={"target": 300})
    result = run_tournament(config, workers=1)
    games = result.pairings[0].games
    assert games is not None and games.played == 6
    assert games.losses >= 4


def test_cli_tournament_small_table() -> None:
    result = runner.invoke(app, ["tournament", "--profile", "classic-2p", "--bots",
                                 "random,heuristic", "--deals", "6", "--seed", "1",
                                 "--workers", "1", "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["players"] == 2 and out["pairings"][0]["deals"] == 12
    human = runner.invoke(app, ["tournament", "--profile", "classic-3p", "--bots",
                                "random,heuristic", "--deals", "3", "--seed", "1",
                                "--workers", "1", "--no-progress"])
    assert human.exit_code == 0, human.output
    assert "3 times with the seats rotated" in human.stdout


# --- belote play ----------------------------------------------------------------------------


def _answers(cycle: int = 6000) -> str:
    """Card numbers in turn, and now and then two numbers (a kitty discard): an answer that
    does not fit the prompt is refused and the next is tried."""
    lines = []
    for i in range(cycle):
        lines.append(str(i % 12 + 1))
        if i % 5 == 0:
            lines.append(f"{i % 12 + 1} {(i + 5) % 12 + 1}")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("mode", range(5), ids=MODE_IDS)
def test_cli_play_a_whole_game_at_a_small_table(mode: int, tmp_path: Path) -> None:
    profile, options = MODES[mode]
    args = ["play", "--profile", profile, "--bots", "random", "--seed", "3", "--target", "300",
            "--save", str(tmp_path / "g.json")]
    for key, value in options.items():
        args += ["--option", f"{key}={value}"]
    res = runner.invoke(app, args, input=_answers())
    assert res.exit_code == 0, res.output
    out = res.stdout
    assert "against" in out.splitlines()[0] and "Game over" in out
    assert "running total" in out and "Scores" in out
    if mode == 1:
        assert "You took the kitty" in out and "You lay aside" in out
    if mode == 4:
        assert "East's face-up cards:" in out and "^" in out
        assert "belote découverte, no bidding" in out
    if mode in (2, 3):
        assert "Face up on the table, out of play:" in out


def test_cli_play_small_table_seat_hint_and_resume(tmp_path: Path) -> None:
    res = runner.invoke(app, ["play", "--profile", "classic-2p", "--seat", "S"])
    assert res.exit_code == 2 and "--seat: 'S' is not a seat (N, E) of 2 players" in res.stderr
    save = tmp_path / "g.json"
    args = ["play", "--profile", "classic-3p", "--bots", "heuristic", "--seed", "8",
            "--target", "300", "--seat", "E", "--save", str(save)]
    res = runner.invoke(app, args, input="?\n1\n?\nq\n")
    assert res.exit_code == 0, res.output
    assert "hint:" in res.stdout and "Game saved" in res.stdout
    assert json.loads(save.read_text())["belote_play"]["seat"] == "E"
    res = runner.invoke(app, ["play", "--resume", str(save)], input=_answers())
    assert res.exit_code == 0, res.output
    assert "Game over" in res.stdout


def test_cli_play_seats_pimc_at_a_small_table(tmp_path: Path) -> None:
    res = runner.invoke(app, ["play", "--profile", "classic-3p", "--bots", "pimc",
                              "--save", str(tmp_path / "g.json")], input="q\n")
    assert res.exit_code == 0 and "Traceback" not in res.output


def test_every_seat_of_the_bots_gets_only_its_view() -> None:
    """Each bot is asked with its own seat's view (§12 tables too)."""
    seen: list[tuple[int, int]] = []

    class Tell(RandomBot):
        def play(self, view: PlayerView) -> int:
            seen.append((view.seat, view.turn))
            return super().play(view)

    rules = _rules(2)
    rnd = _deal(rules, 1)
    play_deal(rnd, [Tell(s) for s in range(3)])
    assert seen and all(s == t for s, t in seen)
    assert set(itertools.chain.from_iterable((s,) for s, _ in seen)) == {0, 1, 2}
    assert played_by(rnd.view(0)) and len(played_by(rnd.view(0))) == 3
