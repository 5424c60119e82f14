"""The card model of the PIMC bot's worlds (bots/card_model.py): the others' past cards
read through the heuristic's play (docs/rules.md §5–§7)."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence

import pytest

from belote.bots.base import play_deal, played_by
from belote.bots.bid_sampling import play_hints
from belote.bots.card_model import HeldSampler, PlayModel
from belote.bots.heuristic import HeuristicBot
from belote.bots.knowledge import Unseen, World, infer
from belote.bots.pimc import PimcBot
from belote.bots.sampling import DealSampler
from belote.cards import Card
from belote.deal import cut, new_deck, shuffle
from belote.declarations import Declaration, best_announcement, every_declaration
from belote.options import make_rules
from belote.round import Announced, PlayerView, Round
from belote.table import Table


class _Recorder(HeuristicBot):
    """The heuristic, keeping every card-play view it is asked with (and the bidding's
    views, in ``said``)."""

    def __init__(self, log: list[tuple[PlayerView, Card]],
                 said: list[tuple[PlayerView, str]]) -> None:
        super().__init__(0)
        self.log = log
        self.said = said

    def call(self, view: PlayerView) -> str:
        call = super().call(view)
        self.said.append((view, call))
        return call

    def play(self, view: PlayerView) -> int:
        card = super().play(view)
        self.log.append((view, card))
        return card


def _with_calls(count: int, seed: int, profile: str = "classic") -> list[
        tuple[list[tuple[PlayerView, Card]], list[tuple[PlayerView, str]]]]:
    """``count`` seeded deals played by four heuristic bots (all-passes left out): for
    each, the card-play views with the card played, and the bidding views with the
    call made."""
    rules = make_rules(profile)
    rng = random.Random(seed)
    out = []
    for d in range(count):
        deck = new_deck()
        shuffle(deck, rng)
        rnd = Round(rules, d % 4, cut(deck, rng, 3))
        log: list[tuple[PlayerView, Card]] = []
        said: list[tuple[PlayerView, str]] = []
        play_deal(rnd, [_Recorder(log, said) for _ in range(4)])
        if log:
            out.append((log, said))
    return out


def _deals(count: int, seed: int,
           profile: str = "classic") -> list[list[tuple[PlayerView, Card]]]:
    """The card-play views of :func:`_with_calls`' deals, each with the card played."""
    return [log for log, _ in _with_calls(count, seed, profile)]


def _true_world(log: Sequence[tuple[PlayerView, Card]], i: int) -> World:
    """Every hand when the ``i``-th view of ``log`` was made: a seat's hand at its next
    view (it plays no card in between)."""
    hands = []
    for s in range(4):
        later = [v for v, _ in log[i:] if v.seat == s]
        hands.append(later[0].hand if later else 0)
    return World(tuple(hands))


def _plain(view: PlayerView) -> dict[str, object]:
    return {f.name: getattr(view, f.name) for f in dataclasses.fields(PlayerView)}


def _opponents(seat: int) -> list[int]:
    return [s for s in range(4) if (s ^ seat) & 1]


@pytest.mark.parametrize("profile", ["classic", "coinche"])
def test_past_views_are_the_views_the_seats_had(profile: str) -> None:
    """§5–§7: in the true deal, each rebuilt view is the view the seat was asked with
    (its hand and legal cards then, the tricks, the declarations shown, the belote
    said), but for its own declarations, which the model does not know, and the
    belote it would say with the card (``belote_due``: what the seat says, not which
    card it plays, is no part of the model)."""
    checked = 0
    for log in _deals(25, 11, profile):
        for i, (view, _) in enumerate(log):
            if len(view.tricks) < 2:
                continue
            model = PlayModel(view, _opponents(view.seat))
            asked = [(v, c) for v, c in log[:i] if v.seat in _opponents(view.seat)
                     and len(v.legal_cards) > 1]
            rebuilt = list(model.views(_true_world(log, i)))
            assert len(rebuilt) == len(asked)
            for (_, card, seen), (real, played) in zip(rebuilt, asked, strict=True):
                assert card == played
                want, got = _plain(real), _plain(seen)
                for key in ("my_declarations", "belote_due"):
                    want.pop(key)
                    got.pop(key)
                assert got == want
                checked += 1
    assert checked > 300


def test_the_true_deal_misses_nothing_against_the_heuristic() -> None:
    """Every card the heuristic opponents chose is the model's in the true deal; a
    world drawn among those the voids allow misses some."""
    rng = random.Random(2)
    true_total = drawn_total = views = 0
    for log in _deals(40, 12):
        for i, (view, _) in enumerate(log):
            if len(view.tricks) < 3:
                continue
            model = PlayModel(view, _opponents(view.seat))
            true_total += model.misses(_true_world(log, i), 99)
            drawn_total += model.misses(DealSampler(infer(view)).sample(rng), 99)
            views += 1
    assert views > 200
    assert true_total == 0
    assert drawn_total > views  # more than one miss a view on average


def test_a_past_view_known_for_any_hand_is_inferred() -> None:
    """What a past view says of the hidden cards, worked out once less the hand, is
    :func:`infer` of that view with any hand the worlds give it (§3.4, §6, §7.6, §7.7)."""
    rng = random.Random(5)
    compared = 0
    for log in _deals(12, 15, "coinche") + _deals(12, 15):
        for view, _ in log[12::5]:
            model = PlayModel(view, _opponents(view.seat))
            sampler = DealSampler(infer(view))
            first = {i: seen for i, _, seen in model.views(sampler.sample(rng))}
            for i, _, seen in model.views(sampler.sample(rng)):
                if i in first:
                    unseen = Unseen(first[i])
                    assert unseen.knowledge(seen.hand) == infer(seen)
                    compared += 1
    assert compared > 100


def test_past_calls_are_read_from_the_views_the_seats_had() -> None:
    """§3.1–§3.3: each call read comes with its seat's bidding view, the cards aside:
    with the five cards the seat held then, it is the view the seat called with,
    and the model's call with them is the call made."""
    bot = HeuristicBot(0)
    read = 0
    for log, said in _with_calls(40, 16):
        view = log[-1][0]
        others = [s for s in range(4) if s != view.seat]
        model = PlayModel(view, _opponents(view.seat), callers=others)
        asked = [(v, c) for v, c in said if v.seat != view.seat]
        assert len(model.calls) == len(asked)
        for (seat, call, template), (real, made) in zip(model.calls, asked, strict=True):
            assert (seat, call) == (real.seat, made)
            seen = dataclasses.replace(template, hand=real.hand)
            assert _plain(seen) == _plain(real)
            assert bot.call(seen) == made
            read += 1
    assert read > 60


def test_calls_weigh_against_worlds_that_do_not_fit_them() -> None:
    """A world drawn among those the cards allow misses more calls of the heuristic
    than the true deal (whose first five are drawn too), on average."""
    rng = random.Random(6)
    true_total = drawn_total = 0
    for log, _ in _with_calls(80, 17):
        view = log[8][0]
        others = [s for s in range(4) if s != view.seat]
        model = PlayModel(view, (), callers=others)
        sampler = DealSampler(infer(view))
        for _ in range(10):
            true_total += model.misses(_true_world(log, 8), 99, rng)
            drawn_total += model.misses(sampler.sample(rng), 99, rng)
    assert drawn_total > 1.25 * true_total  # (about 0.7 a world against 0.46)
    # without a generator the calls are not read
    assert all(PlayModel(log[8][0], (), callers=[0, 1, 2, 3]).misses(_true_world(log, 8), 9)
               == 0 for log, _ in _with_calls(5, 17))


def test_misses_stop_at_the_limit() -> None:
    rng = random.Random(4)
    counts = []
    for log in _deals(6, 13):
        for view, _ in log:
            if 3 <= len(view.tricks) <= 5:
                model = PlayModel(view, _opponents(view.seat))
                sampler = DealSampler(infer(view))
                for world in (sampler.sample(rng) for _ in range(5)):
                    counts.append((model.misses(world, 99), model.misses(world, 2)))
    assert all(limited == min(full, 2) for full, limited in counts)
    assert any(full > 2 for full, _ in counts)


def test_pimc_weighs_the_worlds_by_the_model() -> None:
    """``card_reads=model``: the worlds solved come likeliest first, each weighed by
    ``read_weight`` per call or card the heuristic would not have made, none at the
    limit."""
    log = _deals(20, 14)[3]
    view = next(v for v, _ in reversed(log) if len(v.legal_cards) > 1 and len(v.tricks) >= 4)
    bot = PimcBot(7, card_reads="model", read_weight=0.5, model_misses=3, model_draws=60)
    sampler = bot.sampler(view)
    assert sampler is not None
    hints, before = play_hints(view, 50), played_by(view)
    weighed, _, _ = bot._weighed_worlds(view, Table.of(view.rules), sampler,
                                     lambda w: all(h.fits(w.hands[h.seat] | before[h.seat])
                                                   for h in hints), 0.5)
    weights = [w for _, w in weighed]
    assert weights == sorted(weights, reverse=True)
    assert set(weights) <= {1.0, 0.5, 0.25}
    model = PlayModel(view, _opponents(view.seat))  # the cards only (the calls vary
    for world, weight in weighed:                    # with the five cards drawn)
        assert weight <= 0.5 ** model.misses(world, 3)
    card: Card = bot.play(view)
    assert card in view.legal_cards
    assert bot.last_worlds >= 1


def _heard_key(said: Sequence[Announced] | Sequence[Declaration]) -> list[tuple[str, int, int]]:
    """What the table hears of the combinations ``said``: kind, length, height (§7.4)."""
    return sorted((d.kind, d.length, d.rank) for d in said)


def test_announcements_read_rule_out_what_is_not_held() -> None:
    """§7.4, §7.6: what a seat announced with its first card is read in a world.  The
    true deal misses nothing; a drawn world is ruled out (the limit) when the seat's
    hand at trick 1 holds no combination of a kind and height heard, and misses one
    per seat that would have announced otherwise (the model announces all it holds,
    best grouped)."""
    rng = random.Random(8)
    rules = make_rules("classic")
    ruled_out = missed = kept = heard_views = 0
    for log in _deals(60, 21):
        for i, (view, _) in enumerate(log):
            if len(view.tricks) != 1 or view.trick:
                continue  # trick 2's lead: every seat has announced (§7.4)
            others = [s for s in range(4) if s != view.seat]
            assert view.contract is not None
            model = PlayModel(view, (), announcers=others)
            assert model.misses(_true_world(log, i), 99) == 0
            heard_views += any(view.announced[s] for s in others)
            played = played_by(view)
            sampler = DealSampler(infer(view))
            for world in (sampler.sample(rng) for _ in range(20)):
                got = model.misses(world, 3)
                out = want = 0
                for s in others:
                    dealt = world.hands[s] | played[s]
                    held = best_announcement(dealt, rules, view.contract.trump)
                    said = view.announced[s] or ()
                    if any(not any(d.cards & dealt == d.cards for d in every_declaration()
                                   if _heard_key([d]) == _heard_key([a])) for a in said):
                        out += 1
                    elif _heard_key(held) != _heard_key(said):
                        want += 1
                if out:
                    assert got >= 3
                    ruled_out += 1
                else:
                    assert got == min(want, 3)
                    missed += want > 0
                    kept += 1
    assert heard_views > 15 and ruled_out > 200 and missed > 150 and kept > 300


def test_no_announcement_is_read_without_declarations() -> None:
    """§7.1: with declarations off (contrée), nothing is announced and nothing read."""
    rng = random.Random(3)
    for log in _deals(10, 5, "contree"):
        view = next(v for v, _ in log if len(v.tricks) == 2)
        others = [s for s in range(4) if s != view.seat]
        model = PlayModel(view, (), announcers=others)
        sampler = DealSampler(infer(view))
        assert all(model.misses(sampler.sample(rng), 9) == 0 for _ in range(10))


def _support(base: DealSampler, rng: random.Random) -> list[tuple[int, ...]]:
    """Every deal ``base`` allows (each hand now), by drawing: for small counts only."""
    count = base.count()
    seen = {base.sample(rng).hands: None for _ in range(40 * count)}
    assert len(seen) == count
    return list(seen)


def test_held_sampler_draws_uniformly_among_the_deals_that_hold_what_was_heard() -> None:
    """§7.4: a seat holds what it announced.  The deals drawn are those of the plain
    sampler in which each seat's hand at trick 1 holds a combination of each kind and
    height heard, each as often (late views of seeded deals, few deals: all seen; a
    tierce heard that two suits could make, placed in turn in each)."""
    rng = random.Random(5)
    checked = ways = 0
    tierces = {(d.length, d.rank): d for d in every_declaration() if d.length == 3}
    for log in _deals(40, 23):
        for view, _ in log:
            if len(view.tricks) < 4:
                continue
            base = DealSampler(infer(view))
            if not 3 <= base.count() <= 60:
                continue
            support = _support(base, rng)
            played = played_by(view)
            for seat in (s for s in range(4) if s != view.seat):
                for tierce in tierces.values():
                    # a tierce to this height heard from ``seat``: the deals that hold one
                    heard = list(view.announced)
                    heard[seat] = (*(view.announced[seat] or ()), Announced.of(tierce))
                    asked = dataclasses.replace(view, announced=tuple(heard))
                    model = PlayModel(asked, (), announcers=[seat])
                    holding = [h for h in support if model.misses(World(h), 99) < 99]
                    suits = {d.suit for d in every_declaration() if d.length == 3
                             and d.rank == tierce.rank for h in holding
                             if d.cards & (h[seat] | played[seat]) == d.cards}
                    if len(suits) < 2:
                        continue
                    held = HeldSampler(base, asked, [seat])
                    draws = 40 * len(holding)
                    seen: dict[tuple[int, ...], int] = {}
                    for _ in range(draws):
                        h = held.sample(rng).hands
                        seen[h] = seen.get(h, 0) + 1
                    assert set(seen) == set(holding)
                    # uniform: chi-square within five of its standard deviations
                    chi = sum((n - 40) ** 2 / 40 for n in seen.values())
                    df = len(holding) - 1
                    assert chi < df + 5 * (2 * df) ** 0.5 + 5
                    checked += 1
                    ways += len(held._ways)
                    # more ways than ``most``: the plain sampler's deals
                    plain = HeldSampler(base, asked, [seat], most=1)
                    assert ([plain.sample(random.Random(1)) for _ in range(3)]
                            == [base.sample(random.Random(1)) for _ in range(3)])
    assert checked >= 5 and ways >= 2 * checked
