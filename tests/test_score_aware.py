"""The game score in a seat's view, and bidding that weighs it.

docs/rules.md §11 (the game to its target: each side's total, the target), §8.4 (the
litige reserve, already in the view), §3.2 (take or pass), §12 (per-seat totals).
"""

from __future__ import annotations

import dataclasses
import random

from belote.bots import make_bot
from belote.bots.base import BaseBot, play_deal, play_game
from belote.bots.bid_search import GameOutlook
from belote.bots.card_score import CardScorer
from belote.bots.heuristic import GAME_SHIFT, HeuristicBot, game_needs, game_shift
from belote.bots.pimc import PimcBot
from belote.cards import parse_card
from belote.game import Match
from belote.options import make_rules
from belote.round import BIDDING, PlayerView, Round
from belote.table import Phase
from tests.helpers import mask
from tests.test_pimc_bidding import _deck


class _Recorder(BaseBot):
    """The heuristic's calls and cards, keeping every view it is shown."""

    kind = "recorder"

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self.inner = HeuristicBot(seed)
        self.views: list[PlayerView] = []

    def call(self, view: PlayerView) -> str:
        self.views.append(view)
        return self.inner.call(view)

    def play(self, view: PlayerView) -> int:
        self.views.append(view)
        return self.inner.play(view)


def test_11_views_in_a_game_carry_the_game_score_and_target() -> None:
    """§11: every view of a deal of a game, in the bidding and the play, carries the
    totals before the deal and the target; a seat's view holds its own cards only."""
    rules = make_rules("classic", {"target": 500})
    bots = [_Recorder(s) for s in range(4)]
    match = play_game(rules, bots, seed=3)
    assert len(match.rounds) >= 3 and match.finished
    seen = {view.game_score for bot in bots for view in bot.views}
    assert all(view.target == 500 for bot in bots for view in bot.views)
    scored = 0
    for rnd in match.rounds:
        before = (0, 0) if scored == 0 else match.score.running[scored - 1]
        assert before in seen
        for seat in range(4):
            view = rnd.view(seat)
            assert view.game_score == before and view.target == 500
            held = rnd.dealt(seat)
            assert view.hand & ~held == 0  # nothing of another seat's cards
        spectator = rnd.spectator_view()
        assert spectator.game_score == before and spectator.hand == 0
        scored += rnd.phase is Phase.OVER
    assert seen <= {(0, 0), *match.score.running}


def test_11_a_match_tells_each_round_the_totals_so_far() -> None:
    """Match.new_round deals with the tally's totals and target (a seat's own column at
    the tables of three, §12)."""
    match = Match(make_rules("classic-3p"), seed=1)
    rnd = match.new_round()
    view = rnd.view(0)
    assert view.game_score == (0, 0, 0) and view.target == match.rules.target
    assert game_needs(view) == (match.rules.target, match.rules.target)


def test_a_deal_outside_a_game_has_no_score() -> None:
    """A single deal (belote simulate, the solver's positions): () and None."""
    rnd = Round(make_rules(), 0, list(range(32)))
    view = rnd.view(1)
    assert view.game_score == () and view.target is None
    assert game_needs(view) is None and game_shift(view) == 0
    assert GameOutlook.of(view) is None


def _bid_view(hand: str, turned: str, score: tuple[int, int]) -> PlayerView:
    """The eldest's first call (seat 1, EW: the score's second column is his side's)."""
    return PlayerView(
        seat=1, rules=make_rules(), dealer=0, phase=Phase.BIDDING, hand=mask(hand),
        turned=parse_card(turned), calls=(), contract=None, tricks=(), trick_leader=1,
        trick=(), announced=(None,) * 4, shown=((),) * 4, belote_cards=(), turn=1,
        legal_calls=("pass", "take"), game_score=score, target=1000,
    )


def test_heuristic_game_shift_same_hand_different_scores() -> None:
    """A light take (J 9 of trumps, 52) is taken in an even game and passed when a
    failure would give the others (at 900) the game; a hand without two master trumps
    (55, ``loose=60``) is passed in an even game and taken when a make ends it for us."""
    aware = HeuristicBot(0, game="aware")
    plain = HeuristicBot(0)
    light = _bid_view("JH 7H 8S 8D KC", "9H", (0, 0))
    assert aware.call(light) == plain.call(light) == "take"
    near_them = dataclasses.replace(light, game_score=(900, 500))
    assert game_shift(near_them) == GAME_SHIFT
    assert aware.call(near_them) == "pass" and plain.call(near_them) == "take"
    loose_aware = HeuristicBot(0, loose=60, game="aware")
    loose = _bid_view("AH TH 7H AS 8D", "8H", (0, 0))
    assert loose_aware.call(loose) == HeuristicBot(0, loose=60).call(loose) == "pass"
    near_us = dataclasses.replace(loose, game_score=(500, 920))
    assert game_shift(near_us) == -GAME_SHIFT
    assert loose_aware.call(near_us) == "take"
    assert HeuristicBot(0, loose=60).call(near_us) == "pass"


def test_heuristic_loose_takes_without_two_master_trumps() -> None:
    """``loose``: a hand of strength 55 without the jack and nine (or ace) of trumps is
    taken from ``loose=50`` (the default), never with ``loose=0`` (seed 000 §9 tip 1)."""
    view = _bid_view("AH TH 7H AS 8D", "8H", (0, 0))
    assert HeuristicBot(0, loose=0).call(view) == "pass"
    assert HeuristicBot(0, loose=50).call(view) == HeuristicBot(0).call(view) == "take"
    assert HeuristicBot(0, loose=56).call(view) == "pass"


def test_game_outlook_weighs_a_hand_by_the_game() -> None:
    """Far from the target a hand is worth about its score difference; near it a failure
    that gives the others the game costs more than a make gains, and a lost cause or a
    won game leaves little to gain or lose."""
    even = GameOutlook(_bid_view("JH 7H 8S 8D KC", "9H", (0, 0)))
    assert even.now == 0.5
    assert abs(even.value(100, 62) - 38) < 5 and abs(even.value(0, 162) + 162) < 10
    assert even.value(0, 0) == 0.0
    # EW (the seat's side) at 880, NS at 900: a failure loses the game, a make wins it
    tight = GameOutlook(_bid_view("JH 7H 8S 8D KC", "9H", (900, 880)))
    assert tight.value(162, 0) > 0 > tight.value(0, 162)
    assert tight.value(130, 32) > 100 and tight.value(0, 162) < -80
    hopeless = GameOutlook(_bid_view("JH 7H 8S 8D KC", "9H", (950, 100)))
    assert abs(hopeless.value(100, 62)) < 1 and abs(hopeless.value(0, 162)) < 1


SEARCH = ("pimc:bid_nodes=2000000,bid_worlds=40,bid_min_worlds=2,bid_prior=none,"
          "pass_model=zero")


def test_pimc_game_aware_same_hand_different_scores() -> None:
    """A take made about seven times in ten: worth it in an even game; not when we are
    near the target and far ahead (a failure would bring the others within reach,
    and a pass keeps our lead), nor at 950 against 845 (a failure gives them the
    game); ``game=ignore`` takes at every score."""
    rules = make_rules("classic")
    deck = _deck(rules, 3, {0: "JH AS 8S 8D 7C"}, 1, "7H")
    calls: dict[tuple[str, tuple[int, int]], str] = {}
    for game in ("ignore", "aware"):
        for score in ((0, 0), (880, 700), (950, 845)):
            bot = make_bot(f"{SEARCH},game={game}", seed=1)
            assert isinstance(bot, PimcBot)
            rnd = Round(rules, 3, deck, game_score=score, target=1000)
            calls[game, score] = bot.call(rnd.view(0))
            assert bot.last_bid_worlds >= 2
    assert calls["ignore", (0, 0)] == calls["ignore", (880, 700)] == "take"
    assert calls["ignore", (950, 845)] == "take"
    assert calls["aware", (0, 0)] == "take"
    assert calls["aware", (880, 700)] == calls["aware", (950, 845)] == "pass"


def test_pimc_presets_keep_the_game_score_out() -> None:
    """The presets' bidding ignores the game score and takes as before (``game`` and
    ``loose`` default to ignore and 0): the same calls with and without a score."""
    rules = make_rules("classic")
    rng = random.Random(5)
    # (v1, and what was v3: v7 without the reading and with loose=0)
    for preset in ("preset=v1", "loose=0,card_reads=ignore,read_fit=fixed,heard_reads=ignore,"
                                "objective=score"):
        for _ in range(3):
            deck = list(range(32))
            rng.shuffle(deck)
            plain = Round(rules, 0, deck)
            scored = Round(rules, 0, deck, game_score=(900, 880), target=1000)
            a = make_bot(f"pimc:{preset},bid_nodes=300000,bid_worlds=4", seed=2)
            b = make_bot(f"pimc:{preset},bid_nodes=300000,bid_worlds=4", seed=2)
            while plain.phase is BIDDING:
                seat = plain.current_player()
                call = a.call(plain.view(seat))
                assert b.call(scored.view(seat)) == call
                plain.call(call)
                scored.call(call)


def _play_views(score: tuple[int, int], seed: int) -> list[PlayerView]:
    """The card-play views of one heuristic deal of a game to 1000 at ``score``."""
    rules = make_rules("classic")
    rng = random.Random(seed)
    while True:
        deck = list(range(32))
        rng.shuffle(deck)
        rnd = Round(rules, 0, deck, game_score=score, target=1000)
        bots = [_Recorder(s) for s in range(4)]
        play_deal(rnd, bots)
        views = [v for b in bots for v in b.views if v.phase is Phase.PLAY]
        if views:
            return views


def test_card_scorer_weighs_a_hand_by_the_game() -> None:
    """§11, pimc ``objective=game``: far from the target a hand's value is about its
    score difference; when one side has the game won whatever happens, hardly any
    card play matters."""
    for view in _play_views((0, 0), 4)[::5]:
        plain, weighed = CardScorer(view), CardScorer(view, outlook=GameOutlook.of(view))
        for value in range(0, _left(plain) + 1, 9):
            a, b = plain.utility(value, (0, 0)), weighed.utility(value, (0, 0))
            assert abs(a - b) <= 0.1 * abs(a) + 5
    for view in _play_views((990, 100), 4)[::5]:  # NS win the game whoever scores
        weighed = CardScorer(view, outlook=GameOutlook.of(view))
        assert all(abs(weighed.utility(v, (0, 0))) < 1 for v in range(0, _left(weighed) + 1, 9))


def _left(scorer: CardScorer) -> int:
    """The card points still to win (with the dix de der, §5): a value past them is
    not a deal's."""
    return scorer.card_total + 10 - sum(scorer.past)


def test_pimc_objective_game_is_the_score_outside_a_game() -> None:
    """A single deal has no game score: ``objective=game`` plays as ``score``; in a
    game near the target its values differ."""
    rules = make_rules("classic")
    rng = random.Random(8)
    for _ in range(2):
        deck = list(range(32))
        rng.shuffle(deck)
        rnd = Round(rules, 0, deck)
        bots = [_Recorder(s) for s in range(4)]
        play_deal(rnd, bots)
        for view in [v for b in bots for v in b.views if v.phase is Phase.PLAY][:6]:
            a = make_bot("pimc:worlds=6,objective=score", seed=3)
            b = make_bot("pimc:worlds=6,objective=game", seed=3)
            assert isinstance(a, PimcBot) and isinstance(b, PimcBot)
            assert a.evaluate(view) == b.evaluate(view)
    near = next(v for v in _play_views((900, 880), 6) if len(v.legal_cards) > 1)
    a = make_bot("pimc:worlds=6,objective=score", seed=3)
    b = make_bot("pimc:worlds=6,objective=game", seed=3)
    assert isinstance(a, PimcBot) and isinstance(b, PimcBot)
    assert a.evaluate(near) != b.evaluate(near)
