"""The PIMC bot's card play: the reading of the others' cards played
(belote.bots.card_reading, setting ``card_reads``; docs/rules.md §5, §6)."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from belote.bots import make_bot
from belote.bots import pimc as pimc_module
from belote.bots.card_reading import CardReading
from belote.bots.card_score import CardScorer, world_state
from belote.bots.knowledge import World, infer
from belote.bots.pimc import PimcBot
from belote.bots.sampling import DealSampler
from belote.cards import card_name
from belote.options import make_rules
from belote.play import PlayState
from belote.round import OVER, PLAY, PlayerView, Round
from belote.solver import solve
from belote.table import Table
from tests.helpers import mask
from tests.test_bots import _endgame

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


def _views(spec: str, deals: int, seed: int) -> Iterator[tuple[PlayerView, PlayState]]:
    """Views at the start of tricks 2 to 7 of seeded classic deals played by ``spec``,
    with the true position."""
    rules = make_rules("classic")
    rng = random.Random(seed)
    for d in range(deals):
        bots = [make_bot(spec, seed * 100 + d * 4 + i) for i in range(4)]
        deck = list(range(32))
        rng.shuffle(deck)
        rnd = Round(rules, d % 4, deck)
        while rnd.phase not in (OVER, "all_pass"):
            seat = rnd.current_player()
            view = rnd.view(seat)
            if rnd.phase == PLAY:
                if not view.trick and 1 <= len(view.tricks) <= 6:
                    assert rnd.play is not None
                    yield view, rnd.play.state
                rnd.play_card(bots[seat].play(view))
            else:
                rnd.call(bots[seat].call(view))


def test_the_true_deal_breaks_far_fewer_clues_than_a_uniform_world() -> None:
    """The reading tells something about real play: against the heuristic the true
    hands break under a quarter as many clues as a world drawn uniformly."""
    rng = random.Random(3)
    clues = truth = uniform = 0
    for view, state in _views("heuristic", 60, seed=7):
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
    world_state = pimc_module.world_state

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
    assert rnd.play is not None
    truth = World(tuple(rnd.play.state.hands))
    scorer = CardScorer(view)
    cards, aside = scorer.in_play(truth)
    moves = solve(world_state(view, truth)).moves
    value = {card_name(c): scorer.utility(v, scorer.belote(truth), cards, aside)
             for c, v in moves.items()}
    assert value["TS"] > value["AD"] + 100


def test_the_presets_do_not_read_the_cards() -> None:
    """v1, v2 and v3 keep their decisions: the reading is off unless asked for."""
    for preset in ("v1", "v2", "v3"):
        bot = make_bot(f"pimc:preset={preset}", 1)
        assert isinstance(bot, PimcBot)
        assert bot.settings["card_reads"] == "ignore"
