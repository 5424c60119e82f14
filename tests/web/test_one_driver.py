"""One game, one driver: a seeded deal played by the same seeded bots through the
arena (``play_deal``), a web room whose four seats are bots (its driver task, the
room's log on disk as its record) and the terminal game (``belote play``, the person's
seat answered by the same bot) gives one record, the deck and every action: at four
players, at three with the kitty (§12.1) and at two in belote découverte (§12.2)."""

from __future__ import annotations

import asyncio
import io
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from belote.actions import Call, Discard, Play
from belote.bots.base import BaseBot, next_action, play_deal
from belote.bots.registry import make_bot
from belote.cards import card_name, parse_card
from belote.cli.play import Quit, TerminalGame
from belote.errors import IllegalActionError
from belote.game import Match
from belote.options import Rules, make_rules
from belote.round import PlayerView
from belote.table import parse_seat
from belote.web.clients import Client
from belote.web.rooms import Room, RoomSettings
from belote.web.seats import RoomStatus
from belote.web.store import RoomStore

SETTINGS = RoomSettings(bot_delay=0.0, trick_pause=0.0)
LIVENESS_S = 120.0  # a deal of quick bots takes milliseconds: only a hang reaches this

# (profile, options, bots, the room's seed): each seed's first deal is played to its end
# (no all-pass), the kitty deal's with a discard.
CASES = [
    ("classic", {}, "heuristic", 1),
    ("classic", {}, "random", 2),
    ("coinche", {"coinche_in_turn": False}, "random", 1),
    ("classic-3p", {"three_deal": "kitty"}, "heuristic", 3),
    ("classic-2p", {"two_deal": "decouverte"}, "heuristic", 1),
]


def _deal(record: dict[str, Any]) -> dict[str, Any]:
    """What a deal's record says of its play: the dealer, the deck and the actions."""
    return {k: record[k] for k in ("dealer", "deck", "actions")}


async def _room_deal(rules: Rules, bots: str, seed: int, store: RoomStore
                     ) -> tuple[Room, list[int]]:
    """The first deal of a room of bots, played by its driver to its end; the room and
    its bots' seeds."""
    room = Room("one-driver", rules, bots, SETTINGS, seed=seed, store=store)
    await store.add_room(room.row(), [s.row() for s in room.seats])

    async def send(text: str) -> None:
        pass

    async def no_next_deal(version: int | None = None) -> None:
        pass  # the driver would deal on (a table of bots): one deal is played

    room.new_deal = no_next_deal  # type: ignore[method-assign]
    watcher = Client(send, "a watcher")
    room.attach(watcher)  # the table plays while someone watches
    await room.start()
    seeds = [getattr(s.bot, "seed", None) for s in room.seats]
    assert all(isinstance(x, int) for x in seeds)
    try:
        async with asyncio.timeout(LIVENESS_S):
            while not room.between and room.error is None:
                await asyncio.sleep(0.005)
    finally:
        await room.stop()
    assert room.error is None, room.error
    return room, [int(x) for x in seeds if x is not None]


def _room_record(store: RoomStore, room_id: str) -> dict[str, Any]:
    """The room's first deal as its log on disk has it."""
    log = store.log(room_id)
    kinds = [kind for _seq, kind, _data in log]
    assert kinds[:2] == ["start", "deal"] and set(kinds[2:]) == {"action"}
    deal = log[1][2]
    return {"dealer": deal["dealer"], "deck": deal["deck"],
            "actions": [data for _seq, _kind, data in log[2:]]}


def _terminal_deal(rules: Rules, bots: str, seeds: list[int], dealer: int,
                   deck: list[int], tmp_path: Path) -> dict[str, Any]:
    """The deal played by ``belote play``'s loop, the person's seat (the first)
    answered by the bot the room seated there."""
    seat = 0
    match = Match(rules, first_dealer=dealer)
    match.new_round(deck)
    console = Console(file=io.StringIO(), width=120)
    game = TerminalGame(match, seat, bots, console, tmp_path / "save.json")
    game.bots = [None if s == seat else make_bot(bots, seeds[s]) for s in range(rules.players)]
    person = make_bot(bots, seeds[seat])

    def ask(prompt: str) -> str:
        rnd = game.match.current
        assert rnd is not None
        view = rnd.view(seat)
        action = next_action(person, view)
        if isinstance(action, Call):
            legal = list(view.legal_calls)
            if len(legal) > 12 and action.call not in ("pass", "coinche", "surcoinche"):
                return action.call.lower()  # a bid of a long auction is typed (80h, generalec)
            numbered = legal if len(legal) <= 12 else [
                c for c in legal if c in ("pass", "coinche", "surcoinche")]
            return str(numbered.index(action.call) + 1)
        if isinstance(action, Discard):
            return " ".join(card_name(c) for c in action.cards)
        assert action.declarations is None and action.belote  # the person's defaults
        return card_name(action.card)

    def one_deal() -> None:
        raise Quit  # after the first deal: save and leave

    game.ask = ask  # type: ignore[method-assign]
    game.wait_for_next_deal = one_deal  # type: ignore[method-assign]
    game.run()
    return _deal(game.match.rounds[0].record())


@pytest.mark.parametrize(("profile", "options", "bots", "seed"), CASES)
def test_the_arena_the_room_and_the_terminal_game_make_the_same_record(
    tmp_path: Path, profile: str, options: dict[str, Any], bots: str, seed: int
) -> None:
    rules = make_rules(profile, options)
    n = rules.players
    store = RoomStore(tmp_path / "rooms.db")
    try:
        room, seeds = asyncio.run(_room_deal(rules, bots, seed, store))
        web = _room_record(store, room.id)
    finally:
        store.close()
    assert room.status in (RoomStatus.PLAYING, RoomStatus.FINISHED)
    assert room.between and room.round is not None
    assert str(room.round.phase) == "over"
    # The room's log is the deal's record, as the engine writes it.
    assert web == _deal(room.round.record())
    dealer, deck = parse_seat(web["dealer"], "dealer"), [parse_card(c) for c in web["deck"]]

    # The arena: the same deck, the same bots.
    arena = Match(rules, first_dealer=dealer)
    rnd = arena.new_round(deck)
    play_deal(rnd, [make_bot(bots, seeds[s]) for s in range(n)])
    assert _deal(rnd.record()) == web
    assert rnd.record() == room.round.record()  # the game around it too

    # The terminal game: the same again.
    assert _terminal_deal(rules, bots, seeds, dealer, deck, tmp_path) == web

    # What each table does: bids (and at three, the kitty laid aside), or découverte.
    kinds = {next(iter(a)) for a in web["actions"]}
    if rules.players == 3:
        assert "discard" in kinds
    if rules.players == 2:
        assert "call" not in kinds
    else:
        assert "call" in kinds


def test_a_bots_action_is_checked_as_a_persons(tmp_path: Path) -> None:
    """``Room.apply`` (the driver's) checks whose turn it is as the players' messages
    do, in the room's words, and the action's rule by the engine; nothing refused is
    written."""
    rules = make_rules("classic-3p", {"three_deal": "kitty"})
    store = RoomStore(tmp_path / "rooms.db")

    async def scenario() -> None:
        room = Room("checked", rules, "heuristic", SETTINGS, seed=4, store=store)
        await store.add_room(room.row(), [s.row() for s in room.seats])
        await room.start()  # nobody watches: the driver waits
        rnd = room.round
        assert rnd is not None
        turn = rnd.current_player()
        other = (turn + 1) % 3
        written = len(store.log(room.id))
        with pytest.raises(IllegalActionError, match=r"it is \w's turn to call, not \w's"):
            await room.apply(other, Call("pass"))
        with pytest.raises(IllegalActionError, match="no card now, the bidding goes on"):
            await room.apply(turn, Play(rnd.legal_cards()[0] if rnd.legal_cards() else 0))
        with pytest.raises(IllegalActionError, match="nothing to lay aside now"):
            await room.apply(turn, Discard((0, 1)))
        with pytest.raises(IllegalActionError, match="may not call for"):
            await room.apply(other, Call("pass", turn))  # a seat acts for itself only
        with pytest.raises(IllegalActionError, match="may not call 'coinche'"):
            await room.apply(turn, Call("coinche"))  # the engine's rule
        assert len(store.log(room.id)) == written and rnd.calls == ()
        assert await room.apply(turn, Call("pass"))
        assert len(store.log(room.id)) == written + 1
        assert store.log(room.id)[-1][2] == {"call": "pass"}  # as the arena records it
        await room.stop()

    try:
        asyncio.run(scenario())
    finally:
        store.close()


class _Wrong(BaseBot):
    """A bot with bugs: a call that is no call, a card that is not legal."""

    kind = "wrong"

    def call(self, view: PlayerView) -> str:
        return "nonsense"

    def play(self, view: PlayerView) -> int:
        illegal = [c for c in range(32) if c not in view.legal_cards]
        return illegal[0]


def test_a_bot_answering_what_is_not_legal_plays_on_with_a_legal_action(
    tmp_path: Path
) -> None:
    """A bot's wrong answer (refused by ``next_action`` or by the engine) is logged and
    a legal action played for it: the deal goes on to its end, nothing refused written."""
    rules = make_rules("classic", {})
    store = RoomStore(tmp_path / "rooms.db")

    async def scenario() -> Room:
        room = Room("wrong", rules, "random", SETTINGS, seed=5, store=store)
        await store.add_room(room.row(), [s.row() for s in room.seats])

        async def no_next_deal(version: int | None = None) -> None:
            pass

        async def send(text: str) -> None:
            pass

        room.new_deal = no_next_deal  # type: ignore[method-assign]
        room.attach(Client(send, "a watcher"))
        await room.start()
        assert room.round is not None
        room.seats[(room.round.dealer + 1) % 4].bot = _Wrong()  # the first to call
        async with asyncio.timeout(LIVENESS_S):
            while not room.between and room.error is None:
                await asyncio.sleep(0.005)
        await room.stop()
        return room

    try:
        room = asyncio.run(scenario())
        record = _room_record(store, room.id)
    finally:
        store.close()
    assert room.error is None and room.round is not None
    assert str(room.round.phase) in ("over", "all_pass")
    assert record == _deal(room.round.record())  # the log: the engine's legal actions
    assert record["actions"][0] == {"call": "pass"}  # its call turned into a pass
    cards = [a["card"] for a in record["actions"] if "card" in a]
    assert len(cards) == 32  # and its cards into legal ones
