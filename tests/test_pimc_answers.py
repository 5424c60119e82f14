"""``pimc:answers=model`` (docs/rules.md §5, §6, §12): the seats after the bot in the
current trick answer its card as the heuristic's card play would in each world
(:meth:`belote.bots.card_model.PlayModel.answer`), the rest of the deal solved double
dummy from the trick's end (:meth:`belote.bots.pimc.PimcBot._answered`); only while
the table fit says the model reads these players (``answer_fit``)."""

from __future__ import annotations

import functools
import random
from collections.abc import Iterator
from typing import Any

import pytest

from belote.actions import Play
from belote.bots import Bot, make_bot
from belote.bots.base import next_action, played_by
from belote.bots.card_model import PlayModel
from belote.bots.card_score import world_state
from belote.bots.heuristic import HeuristicBot
from belote.bots.knowledge import World
from belote.bots.pimc import PimcBot
from belote.bots.pimc_config import AnswerCheck, Answers, PimcConfig
from belote.cards import Card
from belote.deal import new_deck
from belote.options import make_rules
from belote.play import PlayState
from belote.round import PLAY, PlayerView, Round
from belote.solver import solve
from belote.table import Table
from tests.helpers import bid_to_play, shuffled_rounds, world_behind
from tests.test_small_card_model import SMALL, SMALL_IDS  # the small tables the model reads


def _played(profile: str, options: dict[str, Any], deals: int, seed: int
            ) -> Iterator[list[tuple[PlayerView, World, Card]]]:
    """Each deal of ``deals`` played by heuristic bots: every turn of its card play,
    the view, the real world behind it and the card played."""
    for rnd in shuffled_rounds(profile, options, deals, seed):
        rules = rnd.rules
        bots: list[Bot] = [HeuristicBot(s) for s in range(rules.players)]
        bid_to_play(rnd, bots)
        turns: list[tuple[PlayerView, World, Card]] = []
        while rnd.phase is PLAY:
            seat = rnd.current_player()
            view = rnd.view(seat)
            world = world_behind(rnd, seat)
            action = next_action(bots[seat], view)
            assert isinstance(action, Play)
            turns.append((view, world, action.card))
            rnd.apply(action)
        yield turns


@pytest.mark.parametrize(("profile", "options"), SMALL, ids=SMALL_IDS)
def test_the_answers_in_the_real_deal_are_the_cards_played(profile: str,
                                                           options: dict[str, Any]) -> None:
    """§12: among heuristic players, in the real deal, the model's answers to the card
    a seat played are the cards the seats after it in the trick played (their views
    rebuilt as the seats had them)."""
    asked = 0
    for turns in _played(profile, options, 12, 41):
        for i, (view, world, card) in enumerate(turns):
            n = view.rules.players
            after = n - 1 - len(view.trick)
            if not after:
                continue
            model = PlayModel(view, ())
            state = world_state(view, world)
            state.push(card)
            for _, _, played in turns[i + 1:i + 1 + after]:
                assert model.answer(state, world) == played
                state.push(played)
                asked += 1
    assert asked > 50


class _Perfect(PlayModel):
    """A model that answers as double dummy does: the best card of the seat to play."""

    def answer(self, state: PlayState, world: World) -> Card:
        moves = solve(state, beneath=world.beneath).moves
        best = max if state.team(state.turn) == 0 else min
        return best(moves, key=lambda c: moves[c])


@pytest.mark.parametrize(("profile", "options"), SMALL, ids=SMALL_IDS)
def test_perfect_answers_give_the_solvers_values(profile: str,
                                                 options: dict[str, Any]) -> None:
    """The value after each card, the answers played and the rest solved, is the
    solver's where the answers are double dummy's: the trick's points, the last trick's
    and the capot counted as the solver counts them (a forced answer is the solver's
    too)."""
    bot = PimcBot(1)
    checked = 0
    for turns in _played(profile, options, 6, 42):
        for view, world, _ in turns:
            if len(view.legal_cards) < 2 or len(view.trick) == view.rules.players - 1:
                continue
            state = world_state(view, world)
            values, nodes = bot._answered(state, world, _Perfect(view, ()), 10**9)
            assert values == solve(state).moves
            assert nodes > 0 or len(view.tricks) == Table.of(view.rules).tricks - 1
            checked += 1
    assert checked > 20


@functools.cache
def _answers_change_the_card(profile: str, seed: int) -> tuple[PlayerView, World]:
    """The first turn (deals of ``seed``, heuristic players) with seats after the bot in
    the trick at which ``answers=model`` and the solver (with worlds solved) choose
    different cards, and at
    which in the real world the heuristic's answers to some card are not double dummy's
    (that card's value changes); with its real world."""
    for turns in _played(profile, {}, 20, seed):
        for view, world, _ in turns:
            if (len(view.legal_cards) < 2
                    or len(view.trick) == view.rules.players - 1):
                continue
            solver = PimcBot(5, answers="solver")
            if (solver.play(view) == PimcBot(5, answers="model").play(view)
                    or not solver.last_values):  # (no world solved: the heuristic's)
                continue
            state = world_state(view, world)
            answered, _ = PimcBot(5)._answered(state, world, PlayModel(view, ()), 10**9)
            if answered != solve(state).moves:
                return view, world
    raise AssertionError("no turn where the answers change the card")  # pragma: no cover


@pytest.mark.parametrize("profile", ["classic-3p", "classic-2p"])
def test_the_models_answers_change_the_card(profile: str) -> None:
    """At three players and at two (the stock) among heuristic players, a decision whose
    card changes with the model's answers (the same worlds, the same seed) where the
    heuristic's answer to a card is not double dummy's: the bot weighs the model's
    answers, its values are not the solver's, and its card is the best of its own
    values."""
    view, _ = _answers_change_the_card(profile, 43)
    bot = PimcBot(5, answers="model")
    chosen = bot.play(view)
    assert bot.answers_on == 1 and bot.answers_off == 0 and bot.last_answered
    solver = PimcBot(5, answers="solver")
    assert solver.play(view) != chosen
    assert solver.answers_on == solver.answers_off == 0
    assert bot.last_values.keys() == solver.last_values.keys()
    assert bot.last_values != solver.last_values
    assert chosen == PimcBot.choose_card(view.legal_cards, bot.last_values, bot.last_own,
                                         bot.card_config(Table.of(view.rules)).own_margin)


def test_the_gate_is_off_against_a_table_the_model_misreads() -> None:
    """With every other seat's fitted weight per miss above ``answer_fit`` (players the
    model misreads: a third of their cards missed) the answers are double dummy's: the
    card and the values of ``answers=solver`` at that fit, the gate counted off; at
    ``answer_fit=1`` it stays on."""
    view, _ = _answers_change_the_card("classic-3p", 43)
    table = Table.of(view.rules)
    bots = [PimcBot(5, answers="solver"), PimcBot(5, answers="model"),
            PimcBot(5, answers="model", answer_fit=1)]
    for bot in bots:
        bot.fit_misses, bot.fit_reads = 60, 180
        bot.seat_fits = {s: (30, 90) for s in range(3) if s != view.seat}
    solver, misread, always = bots
    assert all(misread.read_weight(table, s) > misread.card_config(table).answer_fit
               for s in misread.seat_fits)
    assert misread.play(view) == solver.play(view)
    assert misread.last_values == solver.last_values
    assert misread.answers_off == 1 and misread.answers_on == 0
    assert not misread.last_answered
    always.play(view)
    assert always.answers_on == 1 and always.last_answered
    assert always.last_values != solver.last_values


def test_answers_default() -> None:
    """``answers`` is ``solver`` by default at four players and in preset v1; at three
    players (§12.1, every deal mode) ``deal``: the others play the heuristic's cards to the
    end of the deal while the table fit reads them; at two (§12.2) ``model``: the
    opponent's answer in the trick is the heuristic's while his cards so far fit it
    (découverte models none); a setting given wins; ``answer_check`` ``deal`` at three and
    two players.  (Fails with THREE_PLAYER_PLAY_DEFAULTS or TWO_PLAYER_PLAY_DEFAULTS
    without ``answers`` or ``answer_check``.)"""
    assert PimcConfig.of().answers is Answers.SOLVER
    assert PimcConfig.of({"preset": "v1"}).answers is Answers.SOLVER
    assert PimcConfig.of().answer_fit == 0.25
    assert PimcConfig.of().answer_check is AnswerCheck.TABLE
    for deal in ("24_cards", "kitty", "six_each"):
        three = Table.of(make_rules("classic-3p", {"three_deal": deal}))
        assert PimcBot(1).card_config(three).answers is Answers.DEAL
        assert PimcBot(1).card_config(three).answer_check is AnswerCheck.DEAL
        assert PimcBot(1, answers="solver").card_config(three).answers is Answers.SOLVER
        given = PimcBot(1, answer_check="table").card_config(three)
        assert given.answer_check is AnswerCheck.TABLE
    stock = Table.of(make_rules("classic-2p", {"two_deal": "stock"}))
    assert PimcBot(1).card_config(stock).answers is Answers.MODEL
    assert PimcBot(1).card_config(stock).answer_check is AnswerCheck.DEAL
    assert PimcBot(1, answers="solver").card_config(stock).answers is Answers.SOLVER
    # découverte takes the two players' defaults, and its card play models no answer
    decouverte = Table.of(make_rules("classic-2p", {"two_deal": "decouverte"}))
    assert PimcBot(1).card_config(decouverte).answers is Answers.MODEL


@pytest.mark.parametrize("settings", [
    {"objective": "points"}, {"objective": "game"}, {"own_points": "1"},
    {"defence": "own", "own_margin": "0"}, {"defence": "side"},
])
def test_the_scorers_take_the_answered_values(settings: dict[str, str]) -> None:
    """Every objective, ``own_points`` and ``defence=own`` score the answered values as
    the solver's: a legal card, the same worlds' cards valued."""
    view, _ = _answers_change_the_card("classic-3p", 43)
    bot = PimcBot(5, answers="model", **settings)
    assert bot.play(view) in view.legal_cards
    assert bot.last_answered and bot.last_values.keys() == set(view.legal_cards)


@pytest.mark.parametrize(("profile", "options"), SMALL, ids=SMALL_IDS)
def test_the_answers_to_the_end_of_the_deal_are_the_cards_played(
        profile: str, options: dict[str, Any]) -> None:
    """``answers=deal`` (§12): among heuristic players, in the real deal, the model's
    answers past the current trick too (each seat's view rebuilt after the tricks
    completed since) are the cards the other seats played to the end of the deal."""
    asked = 0
    for turns in _played(profile, options, 12, 41):
        for i, (view, world, card) in enumerate(turns):
            if len(view.legal_cards) < 2:
                continue
            model = PlayModel(view, ())
            state = world_state(view, world)
            state.push(card)
            for later, _, played in turns[i + 1:]:
                if later.seat != view.seat:
                    assert model.answer(state, world) == played
                    asked += 1
                state.push(played)
    assert asked > 500


@pytest.mark.parametrize(("profile", "options"), SMALL, ids=SMALL_IDS)
def test_perfect_answers_to_the_end_give_the_solvers_values(
        profile: str, options: dict[str, Any]) -> None:
    """``answers=deal``: with answers as double dummy's, each card's value (the deal
    played out, the bot's own later cards double dummy) is the solver's; and so it is
    with the heuristic's model given no seat to play (the gate closed for every seat:
    they answer double dummy), in the trick (``answers=model``) as to the deal's end."""
    bot = PimcBot(1)
    checked = 0
    for turns in _played(profile, options, 4, 42):
        for view, world, _ in turns:
            if len(view.legal_cards) < 2:
                continue
            state = world_state(view, world)
            moves = solve(state).moves
            assert bot._played_out(state, world, _Perfect(view, ()), 10**9)[0] == moves
            model = PlayModel(view, ())
            assert bot._played_out(state, world, model, 10**9, frozenset())[0] == moves
            if len(view.trick) < view.rules.players - 1:
                assert bot._answered(state, world, model, 10**9, frozenset())[0] == moves
            checked += 1
    assert checked > 10


def test_the_deals_answers_change_the_card() -> None:
    """At three players among heuristic players, ``answers=deal`` weighs the heuristic's
    cards to the end of the deal: at the turn where ``answers=model`` parts from the
    solver, its values are neither's (the same worlds, the same seed), the gate counted
    on."""
    view, _ = _answers_change_the_card("classic-3p", 43)
    bot = PimcBot(5, answers="deal")
    chosen = bot.play(view)
    assert bot.answers_on == 1 and bot.answers_off == 0 and bot.last_answered
    model, solver = PimcBot(5, answers="model"), PimcBot(5, answers="solver")
    model.play(view)
    solver.play(view)
    assert bot.last_values.keys() == solver.last_values.keys()
    assert bot.last_values not in (solver.last_values, model.last_values)
    assert chosen == PimcBot.choose_card(view.legal_cards, bot.last_values, bot.last_own,
                                         bot.card_config(Table.of(view.rules)).own_margin)


# --- the gate seat by seat: the model answers only for the seats it reads ----------------


def test_the_fit_is_kept_seat_by_seat() -> None:
    """``read_fit=table`` at three players (§12), over a game against one heuristic and
    one random player: the heuristic's seat misses nothing and keeps the base weight,
    the random seat misses most of its cards and is not read (weight 1), and so would
    the table be on its pooled weight.  ``answers=deal``'s gate plays the heuristic's
    seat by the model and the random seat double dummy.  (Fails with the fit pooled only:
    ``seat_fits`` stays empty.)"""
    from belote.bots.base import play_game

    rules = make_rules("classic-3p", {"target": 400})
    table = Table.of(rules)
    bot = make_bot("pimc:answers=deal,worlds=6", seed=1)
    assert isinstance(bot, PimcBot)
    play_game(rules, [bot, HeuristicBot(2), make_bot("random", 3)], seed=5)
    (miss1, read1), (miss2, read2) = bot.seat_fits[1], bot.seat_fits[2]
    assert bot.seat_fits.keys() == {1, 2}
    assert miss1 == 0 and read1 > 10
    assert miss2 > read2 / 4
    assert bot.fit_misses == miss2 and bot.fit_reads == read1 + read2
    assert bot.read_weight(table, 1) == 0.25 and bot.read_weight(table, 2) == 1.0
    assert bot.read_weight(table) > bot.card_config(table).answer_fit  # (pooled: none read)
    view, _ = _answers_change_the_card("classic-3p", 43)
    # (the view is another seat's: the same fits moved to the seats after it)
    read, misread = (view.seat + 1) % 3, (view.seat + 2) % 3
    bot.seat_fits = {read: bot.seat_fits[1], misread: bot.seat_fits[2]}
    answering = bot._answering(view, table)
    assert answering is not None and answering[1] == {read}


def test_the_gate_plays_the_misread_seat_double_dummy() -> None:
    """At a decision where the model's answers change the values, a bot whose fit
    misreads one seat (a third of its cards missed) models the other alone: its values
    are neither those of every seat modelled nor the solver's; misreading both, the
    solver's values, the gate counted off."""
    view, _ = _answers_change_the_card("classic-3p", 43)
    table = Table.of(view.rules)
    others = [s for s in range(3) if s != view.seat]
    every, solver = PimcBot(5, answers="deal"), PimcBot(5, answers="solver")
    every.play(view)
    solver.play(view)
    found = set()
    for misread in others:
        one = PimcBot(5, answers="deal")
        one.seat_fits = {misread: (30, 90)}
        assert one.read_weight(table, misread) > one.card_config(table).answer_fit
        one.play(view)
        assert one.answers_on == 1 and one.last_answered
        found.add(one.last_values not in (every.last_values, solver.last_values))
    assert True in found
    none = PimcBot(5, answers="deal")
    none.seat_fits = {s: (30, 90) for s in others}
    none.play(view)
    assert none.answers_off == 1 and not none.last_answered
    assert none.last_values == solver.last_values


def test_a_seat_the_fit_does_not_read_follows_the_tables_weight() -> None:
    """Four players: the fit reads the opponents' cards only (§5), so the partner has no
    fit of his own and answers as the table's pooled weight says; the opponents each
    by their own."""
    bot = PimcBot(5, answers="deal")
    assert bot.read_weight(None, 2) == 0.25  # nothing read yet: the base weight
    bot.fit_misses, bot.fit_reads = 30, 180
    bot.seat_fits = {1: (30, 90), 3: (0, 90)}
    assert bot.read_weight(None, 2) == bot.read_weight() > 0.25
    assert bot.read_weight(None, 1) > bot.read_weight() and bot.read_weight(None, 3) == 0.25


# --- answer_check=deal: a seat's cards so far in the deal count in its gate ---------------


def _views_beside(others: tuple[str, ...], deals: int, seed: int,
                  profile: str = "classic-3p") -> Iterator[PlayerView]:
    """Seat 0's views at two or three players (with 24 cards, the stock: §12), where it
    has a choice after trick 1, a heuristic at seat 0 and ``others`` (bot specs) at the
    other seats."""
    rules = make_rules(profile, {})
    rng = random.Random(seed)
    for d in range(deals):
        deck = new_deck(rules.players, rules.three_deal)
        rng.shuffle(deck)
        rnd = Round(rules, d % rules.players, deck)
        bots: list[Bot] = [HeuristicBot(d), *(make_bot(o, seed=10 * d + i)
                                              for i, o in enumerate(others, 1))]
        bid_to_play(rnd, bots)
        while rnd.phase is PLAY:
            seat = rnd.current_player()
            view = rnd.view(seat)
            if seat == 0 and view.tricks and len(view.legal_cards) > 1:
                yield view
            rnd.apply(next_action(bots[seat], view))


@pytest.mark.parametrize("profile", ["classic-3p", "classic-2p"])
def test_the_check_within_the_deal_drops_a_seat_the_model_misreads(profile: str) -> None:
    """``answer_check=deal`` (§12): a bot made afresh (no deal done, so the fit of the
    deals done models every seat) beside a random player (and at three players a
    heuristic) stops modelling the random seat once the fewest misses of its cards this
    deal over the worlds drawn weigh it above ``answer_fit``; its values are then those
    of a bot whose fit of the deals done misreads that seat (the same worlds: the check
    draws nothing), and the decision is counted.  With ``answer_check=table`` the random
    seat is modelled."""
    rules = make_rules(profile, {})
    table = Table.of(rules)
    others = ("heuristic", "random") if rules.players == 3 else ("random",)
    wild = rules.players - 1
    found = 0
    for view in _views_beside(others, 6, 3, profile):
        bot = PimcBot(5, answers="deal", answer_check="deal", worlds=8)
        bot.play(view)
        if not bot.answers_checked:
            continue
        found += 1
        assert bot._missed[wild] >= 1 and not bot._missed.get(1 if wild == 2 else 2)
        assert bot.answers_checked == 1 and bot.last_answered is (rules.players == 3)
        plain = PimcBot(5, answers="deal", answer_check="table", worlds=8)
        plain.play(view)
        assert plain.answers_checked == 0 and plain._missed == {} and plain.last_answered
        misread = PimcBot(5, answers="deal", answer_check="table", worlds=8)
        misread.seat_fits = {wild: (30, 90)}
        assert misread.read_weight(table, wild) > misread.card_config(table).answer_fit
        misread.play(view)
        assert bot.last_values == misread.last_values
    assert found >= 5


def test_the_deals_misses_are_the_fewest_over_the_worlds_drawn() -> None:
    """``_deal_misses`` against the plain count: each seat's misses are the fewest, over
    the worlds drawn, of :class:`PlayModel`'s count of that seat's cards alone, and its
    cards read the cards it played."""
    checked = 0
    for view in _views_beside(("heuristic", "random"), 3, 4):
        table = Table.of(view.rules)
        bot = PimcBot(5, answer_check="deal")
        sampler = bot.sampler(view)
        assert sampler is not None
        rng = random.Random(len(view.tricks))
        drawn = [(1, sampler.sample(rng)) for _ in range(12)]
        got = bot._deal_misses(view, table, drawn)
        for s in (1, 2):
            model = PlayModel(view, (s,), table, bot.heuristic)
            assert got[s] == (min(model.misses(w, 99) for _, w in drawn),
                              played_by(view)[s].bit_count())
        checked += got[2][0] > 0
    assert checked >= 5


def test_the_check_within_the_deal_keeps_the_heuristics_seats() -> None:
    """Beside two heuristic players the model misses none of their cards in the real
    world, and over these deals some world drawn always matched them: nothing is left
    out, and the values are ``answer_check=table``'s."""
    for view in _views_beside(("heuristic", "heuristic"), 4, 8):
        bot = PimcBot(5, answer_check="deal", worlds=8)
        plain = PimcBot(5, answer_check="table", worlds=8)
        bot.play(view)
        plain.play(view)
        assert bot.answers_checked == 0 and not any(bot._missed.values())
        assert bot.last_values == plain.last_values


def test_a_seat_found_missing_stays_so_for_the_deal() -> None:
    """The misses a seat's cards were found to have (the fewest over the worlds drawn)
    count for the rest of that deal, whatever the later worlds (here one world that
    misses nothing), and a new deal starts clean."""
    views = list(_views_beside(("heuristic", "random"), 4, 3))
    first = views[0]
    later = next(v for v in views[1:] if v.tricks[0] == first.tricks[0]
                 and len(v.tricks) > len(first.tricks))
    other = next(v for v in views if v.tricks[0] != first.tricks[0])
    table = Table.of(first.rules)
    bot = PimcBot(5, answer_check="deal")
    world = World((0, 0, 0), 0)  # (a world that misses nothing is not read)
    bot._deal_misses(first, table, [(0, world)])  # the deal's key, nothing missed
    assert not any(bot._missed.values())
    bot._missed[2] = 2
    got = bot._deal_misses(later, table, [(0, world)])
    assert got[2][0] == 2 and got[1][0] == 0
    assert got[2][1] == played_by(later)[2].bit_count()
    assert all(m == 0 for m, _ in bot._deal_misses(other, table, [(0, world)]).values())


def test_a_miss_in_the_deal_weighs_by_the_seats_record() -> None:
    """``read_weight(table, seat, in_deal)``: the deal's misses and cards add to the
    seat's record of the deals done.  With 24 cards (§12.1) one miss in a deal shuts a
    seat not yet read (weight above ``answer_fit``); a seat with a long clean record
    stays modelled."""
    table = Table.of(make_rules("classic-3p", {}))
    fit = PimcBot(5).card_config(table).answer_fit
    bot = PimcBot(5, answer_check="deal")
    assert bot.read_weight(table, 1, (0, 6)) == 0.25
    assert bot.read_weight(table, 1, (1, 6)) > fit
    bot.seat_fits = {1: (0, 200)}
    assert bot.read_weight(table, 1, (1, 6)) == 0.25
    assert bot.read_weight(table, 1, (1, 6)) <= fit
