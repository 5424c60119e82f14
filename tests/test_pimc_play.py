"""The PIMC bot's card play: the reading of the others' cards played
(belote.bots.card_reading, setting ``card_reads``; docs/rules.md §5, §6)."""

from __future__ import annotations

import itertools
import math
import random

import pytest

from belote.bots import make_bot
from belote.bots import pimc as pimc_module
from belote.bots.card_reading import CardReading
from belote.bots.card_score import CardScorer, world_state
from belote.bots.endgame import fused_values
from belote.bots.knowledge import World, infer
from belote.bots.pimc import PimcBot
from belote.bots.pimc_config import CardReads, HeardReads, Objective, PimcConfig, ReadFit
from belote.bots.sampling import DealSampler
from belote.cards import card_name, mask_of, scan_forward
from belote.errors import OptionError
from belote.options import make_rules
from belote.play import PlayState
from belote.round import PlayerView
from belote.solver import solve
from belote.table import DealMode, Table
from tests.helpers import mask
from tests.test_bots import _endgame
from tests.test_sampling import _deals

# Contrée, N takes 80♥ (tests/test_bots.py's opening): 1 QC AC KC TC (E), 2 7C JC 9C 8C (S),
# 3 QS JS KS 8S (N), 4 7H 8H QH KH (W), 5 QD JD TD 9D (E); E leads the sixth trick.
# W's JS went to NS's trick: W holds neither 7S nor 9S; N's JD to EW's: N holds no 7D, 8D.
HANDS = ("QC 8C KS 7H JD AS KD 9S", "AC 7C 8S 8H TD TS 8D AD",
         "KC JC QS QH 9D JH TH 7S", "TC 9C JS KH QD 9H AH 7D")


def _view(seat: int) -> PlayerView:
    return _endgame(HANDS, "JD TD 9D").view(seat)


def test_5_6_a_seat_that_lost_a_trick_played_its_cheapest_card_of_the_suit() -> None:
    """The clues name the cheaper cards of the suit still unseen by the reader: W's
    JS (NS won the trick) gives 7S and 9S less the reader's own (N holds 9S, S 7S);
    N's JD (EW won) 7D and 8D less the reader's (E holds 8D, W 7D); a trump that went
    over the master (E's 8H, S's QH) and the cards of the winning side give none."""
    assert CardReading.of(_view(0)).clues == ((3, mask("7S")),)
    assert CardReading.of(_view(1)).clues == ((3, mask("7S 9S")), (0, mask("7D")))
    assert CardReading.of(_view(2)).clues == ((3, mask("9S")), (0, mask("7D 8D")))
    assert CardReading.of(_view(3)).clues == ((0, mask("8D")),)
    reading = CardReading.of(_view(1))
    assert reading.broken(World((mask("9S"), 0, mask("7S"), mask("7D")))) == 0
    assert reading.broken(World((mask("7D"), 0, 0, mask("7S 9S")))) == 2


def test_the_true_deal_breaks_far_fewer_clues_than_a_uniform_world() -> None:
    """The reading tells something about real play: against the heuristic the true
    hands break under a quarter as many clues as a world drawn uniformly."""
    rng = random.Random(3)
    clues = truth = uniform = 0
    for rnd, seat in _deals("classic", ["heuristic"] * 4, 60, seed=7):
        view = rnd.view(seat)
        if view.trick or not 1 <= len(view.tricks) <= 6:
            continue  # the start of tricks 2 to 7
        assert rnd._play is not None
        state = rnd._play.state
        reading = CardReading.of(view, Table.of(view.rules))
        clues += len(reading.clues)
        truth += reading.broken(World(tuple(state.hands)))
        uniform += reading.broken(DealSampler(infer(view)).sample(rng))
    assert clues > 150
    assert 4 * truth < uniform, (clues, truth, uniform)


def test_a_weight_of_zero_keeps_only_the_worlds_that_fit_the_reading(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``read_weight=0``: every world solved breaks no clue (draws rejected instead)."""
    view = _view(1)
    reading = CardReading.of(view)
    seen: list[World] = []

    def spy(v: PlayerView, world: World, table: Table | None = None) -> PlayState:
        seen.append(world)
        return world_state(v, world, table)

    monkeypatch.setattr(pimc_module, "world_state", spy)
    bot = make_bot("pimc:card_reads=low,read_weight=0,worlds=40", 1)
    assert isinstance(bot, PimcBot)
    bot.play(view)
    assert len(seen) == bot.last_worlds == 40 and not bot.last_relaxed
    assert all(reading.broken(w) == 0 for w in seen)
    assert bot.last_rejected > 0


def test_the_reading_finds_the_lead_that_the_uniform_worlds_miss() -> None:
    """E to lead from TS 8D AD: over the worlds that ignore the play, the AD looks best;
    W's JS under NS's trick says W holds neither 7S nor 9S, and over the worlds that
    fit it the TS is: the better card in the true deal too (NS's contract falls)."""
    rnd = _endgame(HANDS, "JD TD 9D")
    view = rnd.view(1)
    for seed in range(3):
        plain = make_bot("pimc:worlds=600,play_calls=ignore", seed)
        read = make_bot("pimc:worlds=600,play_calls=ignore,card_reads=low,read_weight=0", seed)
        assert card_name(plain.play(view)) == "AD"
        assert card_name(read.play(view)) == "TS"
    assert rnd.contract is not None
    truth = World(tuple(rnd.hand(s) for s in range(4)))
    scorer = CardScorer(view)
    cards, aside = scorer.in_play(truth)
    moves = solve(world_state(view, truth)).moves
    value = {card_name(c): scorer.utility(v, scorer.belote(truth), cards, aside)
             for c, v in moves.items()}
    assert value["TS"] > value["AD"] + 100


def test_the_baseline_preset_does_not_read_the_cards() -> None:
    """v1, the baseline, keeps its decisions: the reading is off unless asked for; v7,
    the default, reads the others' choices through the card model (bots/card_model.py)
    and their announcements at trick 1 (§7.4), fits the model's weight to the table and
    weighs its card play by the game (§11).  The presets removed (v2 to v6) are refused;
    each is v7 with a few settings given (the pimc module's docstring)."""
    v1 = make_bot("pimc:preset=v1", 1)
    assert isinstance(v1, PimcBot)
    assert v1.config.card_reads is CardReads.IGNORE
    assert v1.config.heard_reads is HeardReads.IGNORE
    assert v1.config.objective is Objective.SCORE
    assert v1.config.read_fit is ReadFit.FIXED
    v7 = make_bot("pimc:preset=v7", 1)
    plain = make_bot("pimc", 1)
    assert isinstance(v7, PimcBot) and isinstance(plain, PimcBot) and v7.config == plain.config
    assert (v7.config.card_reads, v7.config.heard_reads, v7.config.objective,
            v7.config.read_fit) == ("model", "model", "game", "table")
    v5 = PimcConfig.of({"read_fit": "fixed", "heard_reads": "ignore", "objective": "score"})
    assert (v5.card_reads, v5.heard_reads, v5.objective) == ("model", "ignore", "score")
    assert make_bot("pimc:preset=v1,card_reads=model", 1).settings["card_reads"] == "model"
    for removed in ("v2", "v6", "auto"):
        with pytest.raises(OptionError, match=f"setting 'preset': '{removed}' is not one of "
                                              "v7, v1$"):
            make_bot(f"pimc:preset={removed}")


# --- the last tricks without strategy fusion (belote.bots.endgame, setting ``endgame``) -----


def _small_worlds(rng: random.Random, worlds: int) -> tuple[list[PlayState], int]:
    """A position with three tricks left (a few cards of the trick already played,
    the same in every world) and up to ``worlds`` deals of the other seats' cards;
    the seat to play."""
    rules = make_rules("classic")
    while True:
        cards = rng.sample(range(32), 12)
        trump = rng.randrange(6)
        leader = rng.randrange(4)
        hands = [mask_of(cards[3 * s:3 * s + 3]) for s in range(4)]
        state = PlayState(rules, trump, hands, leader, tricks_left=3)
        for _ in range(rng.randrange(4)):
            state.push(rng.choice(state.legal_cards()))
        seat = state.turn
        if len(state.legal_cards()) < 2:
            continue
        prefix = list(state.trick)
        others = [s for s in range(4) if s != seat]
        pool = [c for s in others for c in scan_forward(state.hands[s])]
        out = [state]
        for _ in range(20 * worlds):
            if len(out) == worlds:
                break
            rng.shuffle(pool)
            now = list(state.hands)
            i = 0
            for s in others:
                k = state.hands[s].bit_count()
                now[s] = mask_of(pool[i:i + k])
                i += k
            for j, c in enumerate(prefix):
                now[(leader + j) % 4] |= 1 << c
            world = PlayState(rules, trump, now, leader, tricks_left=3)
            for c in prefix:
                if not world.legal_mask() >> c & 1:
                    break
                world.push(c)
            else:
                out.append(world)
        return out, seat


def _plans_best(states: list[PlayState], seat: int, first: int) -> int | None:
    """Brute force: the best total over the worlds (the seat's side's points) of every
    plan of the seat's later cards (one card an information set: the cards played
    since the position) after ``first``, the others playing each world's best reply;
    None when there are more than 2,000 plans."""
    team = states[0].team(seat)
    sign = 1 if team == 0 else -1
    choices: dict[tuple[int, ...], list[int]] = {}

    def explore(s: PlayState, hist: tuple[int, ...]) -> None:
        if s.is_over():
            return
        legal = s.legal_cards()
        if s.turn == seat and len(legal) > 1:
            choices[hist] = legal
        for c in legal:
            s.push(c)
            explore(s, (*hist, c))
            s.pop()

    def value(s: PlayState, hist: tuple[int, ...], plan: dict[tuple[int, ...], int]) -> int:
        if s.is_over():
            return sign * s.trick_points[0]
        legal = s.legal_cards()
        if s.turn == seat:
            legal = [plan[hist]] if len(legal) > 1 else legal
        results = []
        for c in legal:
            s.push(c)
            results.append(value(s, (*hist, c), plan))
            s.pop()
        return max(results) if s.team(s.turn) == team else min(results)

    for s in states:
        s.push(first)
        explore(s, (first,))
    keys = list(choices)
    if math.prod(len(choices[k]) for k in keys) > 2000:
        for s in states:
            s.pop()
        return None
    best = None
    for picks in itertools.product(*(choices[k] for k in keys)):
        plan = dict(zip(keys, picks, strict=True))
        total = sum(value(s, (first,), plan) for s in states)
        best = total if best is None else max(best, total)
    for s in states:
        s.pop()
    assert best is not None
    return best


def test_endgame_search_matches_brute_force_over_the_plans() -> None:
    """αμ at full depth equals the best plan of the seat's later cards found by trying
    every plan, on random three-trick endings of one to three worlds; with one world
    it is the double-dummy value."""
    rng = random.Random(4)
    checked = 0
    for _ in range(60):
        states, seat = _small_worlds(rng, rng.randint(1, 3))
        sign = 1 if states[0].team(seat) == 0 else -1
        fronts, _ = fused_values(states, seat)
        for c, front in fronts.items():
            best = max(sum(sign * v for v in vector) for vector in front)
            brute = _plans_best(states, seat, c)
            if brute is not None:
                assert best == brute
                checked += 1
        if len(states) == 1:
            assert {c: f[0][0] for c, f in fronts.items()} == solve(states[0]).moves
    assert checked > 60


def test_endgame_search_never_rates_a_card_above_the_average_of_each_worlds_best() -> None:
    """Averaging each world's double-dummy value credits the seat with knowing the
    world: the plan's value is never above it, and below it in some endings."""
    rng = random.Random(9)
    below = 0
    for _ in range(40):
        states, seat = _small_worlds(rng, 12)
        sign = 1 if states[0].team(seat) == 0 else -1
        fronts, _ = fused_values(states, seat)
        for c, front in fronts.items():
            plan = max(sum(sign * v for v in vector) for vector in front)
            average = sum(sign * solve(s).moves[c] for s in states)
            assert plan <= average
            below += plan < average
    assert below > 0


def test_the_bot_plans_its_last_cards_over_the_same_worlds() -> None:
    """``endgame=3`` at three tricks left: the same worlds as plain PIMC (same seed),
    each card rated at most PIMC's average; at two tricks left nothing is left to
    plan (the last card is forced) and the values are PIMC's."""
    view = _view(1)
    plain = make_bot("pimc", 5)
    planned = make_bot("pimc:endgame=3", 5)
    assert isinstance(plain, PimcBot) and isinstance(planned, PimcBot)
    plain.play(view)
    planned.play(view)
    assert planned.last_worlds == plain.last_worlds == 64
    assert set(planned.last_values) == set(plain.last_values)
    assert all(planned.last_values[c] <= v + 1e-9 for c, v in plain.last_values.items())
    later = _endgame(HANDS, "JD TD 9D TS 7S 7D AS").view(0)  # N leads from KD 9S
    assert len(later.tricks) == 6 and len(later.legal_cards) == 2
    plain.play(later)
    planned.play(later)
    assert planned.last_values == pytest.approx(plain.last_values)


def test_too_many_plans_fall_back_to_the_average(monkeypatch: pytest.MonkeyPatch) -> None:
    """Past FRONT_LIMIT vectors at a node the search gives up and the card is rated as
    PIMC rates it, over the same worlds."""
    from belote.bots import endgame

    view = _view(1)
    plain = make_bot("pimc", 5)
    planned = make_bot("pimc:endgame=3", 5)
    assert isinstance(plain, PimcBot) and isinstance(planned, PimcBot)
    states = [world_state(view, DealSampler(infer(view)).sample(random.Random(s)))
              for s in range(8)]
    monkeypatch.setattr(endgame, "FRONT_LIMIT", 0)
    with pytest.raises(endgame.FrontTooLargeError):
        fused_values(states, 1)
    assert planned.play(view) == plain.play(view)
    assert planned.last_values == pytest.approx(plain.last_values)


# --- the card model's weight fitted to the table (setting ``read_fit``) --------------------


def test_read_fit_keeps_the_weight_against_the_heuristic_and_drops_the_reading_otherwise(
) -> None:
    """``read_fit=table``: against the heuristic (the model) the deals as they were miss
    no opponent's card, so the weight stays ``read_weight`` and the bot plays as v6;
    against random players most cards are missed and the weight reaches 1 (not read)."""
    from belote.bots.base import play_game
    from belote.options import make_rules

    rules = make_rules("classic", {"target": 300})
    for opponent, weight in (("heuristic", 0.25), ("random", 1.0)):
        bot = make_bot("pimc:preset=v7,worlds=8", seed=1)
        assert isinstance(bot, PimcBot)
        match = play_game(rules, [bot, make_bot(opponent, 2), make_bot("heuristic", 3),
                                  make_bot(opponent, 4)], seed=5)
        deals = sum(1 for r in match.rounds if r.contract is not None)
        assert deals >= 2 and bot.fit_reads >= 3 * deals
        if opponent == "heuristic":
            assert bot.fit_misses == 0
        else:
            assert bot.fit_misses > bot.fit_reads / 3
        assert bot.read_weight() == weight


def test_read_weight_follows_the_odds_of_a_miss() -> None:
    """The weight is the odds of a miss (with FIT_PRIOR cards matched) over those of a
    world drawn at random, between ``read_weight`` and 1; ``read_fit=fixed`` keeps it."""
    from belote.bots.pimc_config import FIT_PRIOR, RANDOM_MISS_ODDS

    bot = make_bot("pimc:preset=v7", 1)
    assert isinstance(bot, PimcBot)
    assert bot.read_weight() == 0.25
    bot.fit_misses, bot.fit_reads = 1, 40
    assert bot.read_weight() == 0.25  # (1 in 50: far below a random world's odds)
    bot.fit_misses, bot.fit_reads = 10, 50
    assert bot.read_weight() == pytest.approx(
        10 / (50 + FIT_PRIOR - 10) / RANDOM_MISS_ODDS[DealMode.CLASSIC])
    bot.fit_misses, bot.fit_reads = 20, 50
    assert bot.read_weight() == 1.0
    fixed = make_bot("pimc:read_fit=fixed", 1)
    assert isinstance(fixed, PimcBot)
    fixed.fit_misses, fixed.fit_reads = 20, 50
    assert fixed.read_weight() == 0.25
