"""A seat's knowledge kept between its decisions (:class:`belote.bots.knowledge.Reading`)
against the reference, :func:`belote.bots.knowledge.infer` from the whole view; and
the heuristic bot, which keeps it, deciding as it did when it read every view from
the start."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from belote.bots import heuristic, make_bot
from belote.bots.base import next_action, play_deal
from belote.bots.knowledge import InconsistentViewError, Knowledge, Reading, infer
from belote.game import Match
from belote.options import Rules, make_rules
from belote.round import ALL_PASS, OVER, PLAY, PlayerView, Round
from tests.helpers import EVERY_TABLE, EVERY_TABLE_IDS

TABLES, IDS = EVERY_TABLE, EVERY_TABLE_IDS


def played_views(rules: Rules, seed: int, deals: int,
                 bots: str = "heuristic") -> Iterator[tuple[Round, PlayerView]]:
    """Every view of the card play, of each seat after each card (its turn or not),
    in the order of whole games dealt from ``seed``, the cards played by ``bots``."""
    players = [make_bot(bots, seed=seed * 10 + s) for s in range(rules.players)]
    match = Match(rules, seed=seed)
    for _ in range(deals):
        if match.finished:
            match = Match(rules, seed=match.deals + seed)
        rnd = match.new_round()
        while rnd.phase not in (OVER, ALL_PASS):
            view = rnd.view()
            if rnd.phase is PLAY:
                for s in range(rules.players):
                    yield rnd, (view if s == view.seat else rnd.view(s))
            rnd.apply(next_action(players[view.seat], view))
        match.finish_round()


def reference(view: PlayerView) -> Knowledge | type[InconsistentViewError]:
    try:
        return infer(view)
    except InconsistentViewError:  # pragma: no cover - a view never contradicts itself
        return InconsistentViewError


def kept(reading: Reading, view: PlayerView) -> Knowledge | type[InconsistentViewError]:
    try:
        return reading.infer(view)
    except InconsistentViewError:  # pragma: no cover
        return InconsistentViewError


@pytest.mark.parametrize(("profile", "options"), TABLES, ids=IDS)
def test_the_kept_knowledge_is_the_one_read_from_the_start(
        profile: str, options: dict[str, str]) -> None:
    """Over whole games at every table size and deal, each seat's reading, kept from
    one card to the next and from one deal to the next, knows what :func:`infer` reads
    from the whole view; so does one reading asked at random by every seat and by
    two tables of the same rules in turn (it reads the tricks again where they are not
    the ones it read)."""
    rules = make_rules(profile, options)
    rng = random.Random(7)
    readings: dict[int, Reading] = {}
    shared = Reading()
    checked = 0
    other = played_views(rules, seed=99, deals=60)
    for _rnd, view in played_views(rules, seed=3, deals=30):
        expected = reference(view)
        assert kept(readings.setdefault(view.seat, Reading()), view) == expected
        if rng.random() < 0.3:
            assert kept(shared, view) == expected
            _r, elsewhere = next(other)
            assert kept(shared, elsewhere) == reference(elsewhere)
        checked += 1
    assert checked > 500


def test_a_reading_outside_the_card_play_is_refused_as_infer_refuses() -> None:
    rules = make_rules()
    rnd = Match(rules, seed=1).new_round()
    view = rnd.view()
    with pytest.raises(InconsistentViewError):
        infer(view)
    with pytest.raises(InconsistentViewError):
        Reading().infer(view)


def whole_games(rules: Rules, seed: int, deals: int) -> list[list[dict[str, Any]]]:
    """Every action of ``deals`` deals of heuristic bots dealt from ``seed``, as the
    records write them: the bots kept from one deal to the next, as at a table."""
    bots = [make_bot("heuristic", seed=seed * 10 + s) for s in range(rules.players)]
    match = Match(rules, seed=seed)
    out = []
    for _ in range(deals):
        if match.finished:
            match = Match(rules, seed=match.deals + seed)
        rnd = match.new_round()
        play_deal(rnd, bots)
        out.append(rnd.actions_json())
        match.finish_round()
    return out


@pytest.mark.parametrize(("profile", "options"), TABLES, ids=IDS)
def test_the_heuristic_decides_as_it_did_reading_every_view_from_the_start(
        monkeypatch: pytest.MonkeyPatch, profile: str, options: dict[str, str]) -> None:
    """The same seeds give the same games, action for action, whether the bots keep
    their knowledge or read it from the start at each card (what they did before)."""
    rules = make_rules(profile, options)
    kept_games = [whole_games(rules, seed, 25) for seed in (1, 2)]

    def from_the_start(view: PlayerView, reading: Reading | None = None) -> Knowledge:
        return infer(view)

    monkeypatch.setattr(heuristic, "_knowledge", from_the_start)
    assert kept_games == [whole_games(rules, seed, 25) for seed in (1, 2)]


@pytest.mark.parametrize(("profile", "options"), TABLES[:4], ids=IDS[:4])
def test_the_heuristic_decides_as_it_did_knowing_before_every_card(
        monkeypatch: pytest.MonkeyPatch, profile: str, options: dict[str, str]) -> None:
    """At four players the heuristic works out what its seat knows only when the
    decision reads it (not for a card that follows with no winner, nor for the trick's
    last): the same seeds give the same games, action for action, as the reference,
    which works it out before every card it decides."""
    rules = make_rules(profile, options)
    lazy_games = [whole_games(rules, seed, 25) for seed in (1, 2)]
    lazy = heuristic.HeuristicBot.play
    worked_out = [0]

    def knowing_first(self: heuristic.HeuristicBot, view: PlayerView) -> int:
        if len(view.legal_cards) == 1:
            return lazy(self, view)
        worked_out[0] += 1
        return self.play_knowing(view, heuristic._knowledge(view, self.reading))

    monkeypatch.setattr(heuristic.HeuristicBot, "play", knowing_first)
    assert lazy_games == [whole_games(rules, seed, 25) for seed in (1, 2)]
    assert worked_out[0] > 500
