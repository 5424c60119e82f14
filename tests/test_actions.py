"""Actions as values (belote.actions), Round.legal_actions / verify / can / apply / clone,
the one bot driver (next_action), and records read back through apply: a deal's and a
game's, at every profile and table size; the arena and the terminal game give the same
record for the same seeded game."""

from __future__ import annotations

import io
import json
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from belote.actions import Call, Discard, Play, action_from_json, plain_play
from belote.bidding import Call as BidCall
from belote.bots.base import BaseBot, next_action, play_deal, play_game, played_by
from belote.bots.registry import make_bot
from belote.cards import Card, card_name, parse_card, scan_forward
from belote.cli.play import TerminalGame
from belote.declarations import Declaration, best_announcement
from belote.errors import IllegalActionError, IllegalPlayError, InvalidRecordError
from belote.game import Match
from belote.hand import DECOUVERTE, CardPlayed
from belote.options import Rules, make_rules
from belote.round import Discarded, PlayerView, Round, action_of
from belote.table import Phase

# Every profile and table size: four players, three with each deal mode, two with each.
TABLES: tuple[tuple[str, dict[str, Any]], ...] = (
    ("classic", {}), ("moroccan", {}), ("coinche", {}), ("contree", {}),
    ("coinche", {"coinche_in_turn": False}),
    ("classic-3p", {"three_deal": "24_cards"}), ("classic-3p", {"three_deal": "kitty"}),
    ("classic-3p", {"three_deal": "six_each"}),
    ("classic-2p", {"two_deal": "stock"}), ("classic-2p", {"two_deal": "decouverte"}),
)


class Chooser(BaseBot):
    """A random bot that also chooses what it says: it announces a random part of what it
    holds (or the default), declines belote now and then, and coinches out of turn."""

    kind = "chooser"

    def call(self, view: PlayerView) -> str:
        return self.rng.choice(view.legal_calls)

    def play(self, view: PlayerView) -> int:
        return self.rng.choice(view.legal_cards)

    def declarations(self, view: PlayerView) -> Sequence[Declaration] | None:
        if view.contract is None or view.contract.value == DECOUVERTE or self.rng.random() < 0.5:
            return None
        held = best_announcement(view.hand, view.rules, view.contract.trump)
        return [d for d in held if self.rng.random() < 0.5]

    def say_belote(self, view: PlayerView, card: Card) -> bool:
        return self.rng.random() < 0.7


def _game(rules: Rules, seed: int) -> Match:
    bots = [Chooser(seed=seed * 10 + s) for s in range(rules.players)]
    return play_game(rules, bots, seed=seed, max_deals=12)


# --- the actions ------------------------------------------------------------------------


def test_actions_are_frozen_hashable_values_read_and_written_as_json() -> None:
    values: list[Call | Discard | Play] = [
        Call("take"), Call("coinche", 1), Discard((parse_card("7D"), parse_card("8D"))),
        Play(parse_card("JH")), Play(parse_card("QS"), None, False),
        Play(parse_card("9H"), ((parse_card("7H"), parse_card("8H"), parse_card("9H")),))]
    assert len(set(values)) == len(values)
    for action in values:
        assert action_from_json(action.to_json()) == action
        assert hash(action_from_json(action.to_json())) == hash(action)
        assert type(action).from_json(action.to_json()) == action
    assert Play(parse_card("JH")).to_json() == {"card": "JH"}
    assert Call("coinche", 1).to_json() == {"call": "coinche", "seat": "E"}
    assert Play(parse_card("9H"), ()).to_json() == {"card": "9H", "declarations": []}
    with pytest.raises(AttributeError):
        Play(0).card = 1  # type: ignore[misc]


@pytest.mark.parametrize(("data", "message"), [
    ([], "action: expected an object"),
    ({"bid": "take"}, "neither a call nor a card"),
    ({"card": "1H"}, "not a card: '1H'"),
    ({"discard": "7D 8D"}, "'discard' must list cards"),
    ({"card": "JH", "declarations": "7H8H9H"}, "'declarations' must list combinations"),
    ({"call": "coinche", "seat": "X"}, "action.seat: 'X' is not a seat"),
])
def test_a_bad_action_is_refused_saying_what(data: Any, message: str) -> None:
    with pytest.raises(Exception, match=message):
        action_from_json(data)
    with pytest.raises(IllegalActionError, match="not a card"):
        Play.from_json({"call": "pass"})


# --- the round: legal_actions, verify, can, apply, clone --------------------------------


@pytest.mark.parametrize(("profile", "options"), TABLES)
def test_legal_actions_are_what_apply_accepts_at_every_table(
    profile: str, options: dict[str, Any]
) -> None:
    rules = make_rules(profile, options)
    rng = random.Random(5)
    for deal in range(6):
        deck = list(Round(rules, 0, sorted(_pack(rules))).deck)
        rng.shuffle(deck)
        rnd = Round(rules, deal % rules.players, deck)
        while rnd.phase in (Phase.BIDDING, Phase.DISCARD, Phase.PLAY):
            legal = rnd.legal_actions()
            assert legal and all(rnd.can(a) for a in legal)
            if rnd.phase is Phase.PLAY:
                assert [a.card for a in legal if isinstance(a, Play)] == rnd.legal_cards()
                held = scan_forward(rnd.hand(rnd.current_player()))
                for c in held:
                    if plain_play(c) not in legal:
                        assert not rnd.can(plain_play(c))
                        with pytest.raises(IllegalPlayError) as refused:
                            rnd.verify(plain_play(c))
                        with pytest.raises(IllegalPlayError) as same:
                            rnd.verify_play(c)
                        assert str(refused.value) == str(same.value)
            before = rnd.actions_json()
            twin = rnd.clone()
            action = rng.choice(legal)
            event = rnd.apply(action)
            assert rnd.events()[-1] == event and action_of(event) == action
            assert twin.actions_json() == before  # the clone is left as it was
            assert twin.apply(action) == event and twin.actions_json() == rnd.actions_json()
        assert rnd.legal_actions() == []


def _pack(rules: Rules) -> list[Card]:
    return list(Match(rules, seed=0)._pack)


def test_apply_refuses_with_the_rules_own_messages() -> None:
    rnd = Round(make_rules(), 0, list(range(32)))
    with pytest.raises(IllegalActionError, match="no card now: the deal is in phase bidding"):
        rnd.apply(plain_play(0))
    with pytest.raises(IllegalActionError, match="no discard now"):
        rnd.verify(Discard((0, 1)))
    assert not rnd.can(Call("coinche")) and rnd.can(Call("take"))
    with pytest.raises(IllegalActionError, match="not an action"):
        rnd.apply("take")  # type: ignore[arg-type]
    event = rnd.apply(Call("take"))
    assert isinstance(event, BidCall) and (event.seat, event.call) == (1, "take")
    assert rnd.phase is Phase.PLAY and rnd.taker == 1 and rnd.calls == (event,)
    # an announcement is checked by verify as by apply (§7.4: with the first card only)
    seat = rnd.current_player()
    first = rnd.legal_cards()[0]
    assert rnd.can(Play(first, ()))
    fake = Play(first, ((0, 1, 2),))
    held = rnd.hand(seat)
    if not all(held >> c & 1 for c in (0, 1, 2)):
        with pytest.raises(IllegalActionError, match="does not hold"):
            rnd.verify(fake)
        assert not rnd.can(fake)
    rnd.apply(plain_play(first))
    for _ in range(3):
        rnd.apply(rnd.legal_actions()[0])
    assert rnd.can(Play(rnd.legal_cards()[0], ()))  # nothing announced: always allowed


def test_an_announcement_after_the_first_card_is_refused_by_verify_and_apply() -> None:
    for seed in range(50):
        deck = list(range(32))
        random.Random(seed).shuffle(deck)
        rnd = Round(make_rules(), 0, deck)
        rnd.apply(Call("take"))
        for _ in range(4):
            rnd.apply(rnd.legal_actions()[0])
        held = rnd.hand(rnd.current_player())
        runs = [c for c in range(30) if c % 8 < 6 and all(held >> x & 1 for x in (c, c + 1, c + 2))]
        if runs:
            break
    late = Play(rnd.legal_cards()[0], ((runs[0], runs[0] + 1, runs[0] + 2),))
    for act in (rnd.verify, rnd.apply):
        with pytest.raises(IllegalPlayError, match=r"trick 2: .* may announce only with the first"):
            act(late)


def test_the_kitty_discard_is_an_action() -> None:
    rules = make_rules("classic-3p", {"three_deal": "kitty"})
    rnd = Round(rules, 0, list(range(32)))
    rnd.apply(Call("H"))
    assert rnd.phase is Phase.DISCARD
    legal = rnd.legal_actions()
    assert len(legal) == 66 and all(isinstance(a, Discard) for a in legal)  # 12 cards, 2 aside
    event = rnd.apply(legal[0])
    assert isinstance(event, Discarded) and event.seat == 1
    assert str(rnd.phase) == "play"


# --- the driver --------------------------------------------------------------------------


class _Answers(BaseBot):
    kind = "answers"

    def __init__(self, call: Any = "pass", card: Any = None, **kw: Any) -> None:
        super().__init__(seed=0)
        self.answer_call, self.answer_card = call, card

    def call(self, view: PlayerView) -> str:
        return self.answer_call  # type: ignore[no-any-return]

    def play(self, view: PlayerView) -> int:
        return self.answer_card if self.answer_card is not None else view.legal_cards[0]


def test_next_action_refuses_a_bots_answer_naming_the_bot_and_the_seat() -> None:
    rnd = Round(make_rules(), 0, list(range(32)))
    with pytest.raises(IllegalActionError, match=r"bot 'answers' at E answered the call 'x'"):
        next_action(_Answers(call="x"), rnd.view())
    rnd.apply(Call("take"))
    with pytest.raises(IllegalActionError, match=r"bot 'answers' at E, trick 1: 'J' is not"):
        next_action(_Answers(card="J"), rnd.view())
    illegal = next(c for c in scan_forward(rnd.hand(1)) if c not in rnd.legal_cards()) \
        if len(rnd.legal_cards()) < 8 else None
    bots = [_Answers(card=illegal)] * 4
    if illegal is not None:
        with pytest.raises(IllegalActionError, match="is not a legal card"):
            play_deal(rnd, bots)


def test_the_kitty_discard_falls_back_for_a_bot_without_one() -> None:
    class NoDiscard:
        name = "plain"

        def call(self, view: PlayerView) -> str:
            return "H" if "H" in view.legal_calls else view.legal_calls[0]

        def play(self, view: PlayerView) -> int:
            return view.legal_cards[0]

        def declarations(self, view: PlayerView) -> None:
            return None

        def say_belote(self, view: PlayerView, card: Card) -> bool:
            return True

    rules = make_rules("classic-3p", {"three_deal": "kitty"})
    rnd = Round(rules, 0, list(range(32)))
    play_deal(rnd, [NoDiscard()] * 3)  # type: ignore[list-item]
    assert rnd.phase is Phase.OVER
    assert [card_name(c) for c in scan_forward(rnd.events()[1].cards)] == ["7D", "8D"]  # type: ignore[union-attr]


def test_belote_is_asked_only_when_the_seat_may_say_it() -> None:
    asked: list[tuple[int, Card]] = []

    class Ask(Chooser):
        def say_belote(self, view: PlayerView, card: Card) -> bool:
            asked.append((view.seat, card))
            assert view.belote_due >> card & 1
            other = card ^ 3  # the king <-> the queen of the suit
            mine = view.hand | _played_by(view, view.seat)
            assert mine >> other & 1
            return super().say_belote(view, card)

    for profile, options in TABLES:
        rules = make_rules(profile, options)
        play_game(rules, [Ask(seed=s) for s in range(rules.players)], seed=3, max_deals=6)
    assert asked
    # Belote découverte (§12.2): never asked while the other card lies face down.
    rules = make_rules("classic-2p", {"two_deal": "decouverte"})
    for seed in range(12):
        play_game(rules, [Ask(seed=seed), Ask(seed=seed + 1)], seed=seed, max_deals=8)


def _played_by(view: PlayerView, seat: int) -> int:
    return played_by(view)[seat]


# --- records both ways --------------------------------------------------------------------


@pytest.mark.parametrize(("profile", "options"), TABLES)
def test_records_read_back_give_the_same_record_and_score(
    profile: str, options: dict[str, Any]
) -> None:
    rules = make_rules(profile, options)
    for seed in range(8):
        match = _game(rules, seed)
        record = match.to_record()
        again = Match.from_record(record)
        assert again.to_record() == record
        assert again.score == match.score and again.deals == match.deals
        for rnd in match.rounds:
            deal = rnd.record()
            back = Round.from_record(deal)
            assert back.record() == deal
            assert back.to_record() == rnd.to_record()
            if rnd.phase is Phase.OVER:
                assert back.result().score == rnd.result().score


def test_a_deal_record_cut_short_reads_back_where_it_stopped() -> None:
    rules = make_rules("coinche")
    match = _game(rules, 4)
    rnd = match.rounds[-1]
    record = rnd.record()
    for n in range(len(record["actions"]) + 1):
        part = {**record, "actions": record["actions"][:n]}
        assert Round.from_record(part).record() == part


@pytest.mark.parametrize(("change", "message"), [
    ({"deck": ["JH"] * 32}, "deal record: the deck must hold the 32 cards"),
    ({"deck": "JH"}, "'deck' must list the cards"),
    ({"dealer": "Q"}, r"deal record.dealer: 'Q' is not a seat"),
    ({"profile": "bridge"}, "unknown profile"),
    ({"reserve": -1}, "'reserve' must be a whole number"),
    ({"actions": {}}, "'actions' must be a list"),
    ({"actions": [{"card": "JH"}]}, "deal record: action 1: no card now"),
    ({"actions": [{"call": "pass"}, {"bid": 1}]}, "deal record: action 2: neither a call nor"),
    ({"actions": [{"call": "pass"}, {"call": "pass"}, {"call": "coinche"}]},
     r"deal record: action 3: W may not call 'coinche' in round 1"),
])
def test_a_bad_deal_record_is_refused_saying_where(change: dict[str, Any], message: str) -> None:
    record = Round(make_rules(), 0, list(range(32))).record()
    with pytest.raises(InvalidRecordError, match=message):
        Round.from_record({**record, **change})
    with pytest.raises(InvalidRecordError, match="expected an object"):
        Round.from_record([])


def test_a_refused_action_in_a_record_is_refused_again() -> None:
    rules = make_rules()
    match = _game(rules, 1)
    rnd = next(r for r in match.rounds if r.phase is Phase.OVER)
    record = rnd.record()
    cards = [i for i, a in enumerate(record["actions"]) if "card" in a]
    i, j = cards[4], cards[5]  # two cards of trick 2 swapped: one of them is out of turn
    actions = list(record["actions"])
    actions[i], actions[j] = actions[j], actions[i]
    with pytest.raises(InvalidRecordError, match=f"deal record: action {i + 1}: trick 2: "):
        Round.from_record({**record, "actions": actions})


# --- one driver: the arena and the terminal game ------------------------------------------


@pytest.mark.parametrize(("profile", "options", "seed"), [
    ("classic", {"target": 501}, 3), ("classic-3p", {"three_deal": "kitty", "target": 301}, 5),
    ("classic-2p", {"two_deal": "decouverte", "target": 301}, 2),
])
def test_the_arena_and_the_terminal_game_make_the_same_record(
    tmp_path: Path, profile: str, options: dict[str, Any], seed: int
) -> None:
    rules = make_rules(profile, options)
    n = rules.players
    arena = play_game(rules, [make_bot("heuristic", seed + s) for s in range(n)], seed=seed)
    assert arena.finished
    seat = 0
    console = Console(file=io.StringIO(), width=120)
    game = TerminalGame(Match(rules, seed=seed), seat, "heuristic", console,
                        tmp_path / "save.json", seed)
    person = make_bot("heuristic", seed + seat)  # the person answers as the arena's bot

    def ask(prompt: str) -> str:
        rnd = game.match.current
        assert rnd is not None
        view = rnd.view(seat)
        action = next_action(person, view)
        if isinstance(action, Call):
            return str(list(view.legal_calls).index(action.call) + 1)
        if isinstance(action, Discard):
            return " ".join(card_name(c) for c in action.cards)
        assert action.declarations is None and action.belote  # the person's defaults
        return card_name(action.card)

    game.ask = ask  # type: ignore[method-assign]
    game.run()
    assert game.match.finished
    assert game.match.to_record() == arena.to_record()
    events = [e for r in arena.rounds for e in r.events()]
    assert any(isinstance(e, CardPlayed) for e in events)


@pytest.mark.parametrize(("profile", "options"), TABLES)
def test_replay_reads_a_deal_record_as_its_hand_record(
    profile: str, options: dict[str, Any]
) -> None:
    from belote.replay import replay

    rules = make_rules(profile, options)
    match = _game(rules, 2)
    for rnd in match.rounds:
        assert replay(json.loads(json.dumps(rnd.record()))) == replay(rnd.to_record())
    with pytest.raises(InvalidRecordError, match="record: action 1: no discard now"):
        replay({**match.rounds[0].record(), "actions": [{"discard": ["JH", "9H"]}]})


def test_belote_replay_reads_a_deal_record(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from belote.cli import app

    rnd = _game(make_rules("coinche"), 6).rounds[-1]
    runner = CliRunner()
    by_deck = runner.invoke(app, ["replay", "--json"], input=json.dumps(rnd.record()))
    by_hands = runner.invoke(app, ["replay", "--json"], input=json.dumps(rnd.to_record()))
    assert by_deck.exit_code == 0, by_deck.output
    assert json.loads(by_deck.stdout) == json.loads(by_hands.stdout)
    bad = runner.invoke(app, ["replay", "--json"],
                        input=json.dumps({**rnd.record(), "deck": ["JH"]}))
    assert bad.exit_code == 2 and "record: the deck must hold" in bad.output
