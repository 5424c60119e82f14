"""The rooms' capacity: per-network and per-identity counts, eviction near the
global cap, and a start-up that replays no room until someone opens it."""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
import time
from pathlib import Path
from typing import Any, TypeVar

import pytest

from belote.bots.base import next_action
from belote.web import create_app, driver, room_state
from belote.web.network import network_of
from belote.web.present import current_trick_json, score_json
from belote.web.room_manager import RoomManager
from belote.web.rooms import Client, Room, RoomError, RoomSettings
from belote.web.seats import RoomStatus, SeatKind, Visibility
from belote.web.security import Limits
from belote.web.store import RoomStore
from tests.helpers import EVERY_TABLE, EVERY_TABLE_IDS

from .support import TestClient, new_identity, run_async

T = TypeVar("T")

QUIET = RoomSettings(bot_delay=0.0, trick_pause=0.0, deal_pause=60.0, max_rooms=100)


async def _nothing(text: str) -> None:
    pass


def watch(room: Room) -> Client:
    """Someone connected to the room (a spectator)."""
    client = Client(_nothing)
    room.attach(client)
    return client


async def play(room: Room, actions: int) -> None:
    """``actions`` calls and cards of the room's bots, as its driver would play them."""
    for _ in range(actions):
        if room.status != RoomStatus.PLAYING:
            return
        if room.between:
            await room.next_deal()
            continue
        rnd = room.round
        assert rnd is not None
        seat = rnd.current_player()
        bot = room.seats[seat].bot
        assert bot is not None
        await room.apply(seat, next_action(bot, rnd.view(seat)))


# --- per-network and per-identity counts ---------------------------------------------


def test_open_rooms_count_against_the_network_and_the_identity(tmp_path: Path) -> None:
    async def scenario() -> None:
        store = RoomStore(tmp_path / "rooms.db")
        manager = RoomManager(QUIET, store=store, rooms_per_client=3)
        home = network_of("192.0.2.10")
        # One identity moving from network to network: its own count stops it.
        for i in range(3):
            await manager.create(client=network_of(f"198.51.{i}.7"), creator="ann")
        with pytest.raises(RoomError, match="3 tables open already"):
            await manager.create(client=home, creator="ann")
        # Many identities (cookies dropped) from addresses of one /24: its count stops them.
        for i in range(3):
            await manager.create(client=network_of(f"192.0.2.{20 + i}"), creator=f"fresh{i}")
        with pytest.raises(RoomError, match="3 tables open already"):
            await manager.create(client=network_of("192.0.2.200"), creator="another")
        # The same for the addresses of one /64.
        for i in range(3):
            await manager.create(client=network_of(f"2001:db8:5:6::{i + 1:x}"), creator=f"v6-{i}")
        with pytest.raises(RoomError, match="3 tables open already"):
            await manager.create(client=network_of("2001:db8:5:6:ffff::1"), creator="v6-new")
        store.close()
        # After a restart the counts are the same: network and creator are stored.
        store = RoomStore(tmp_path / "rooms.db")
        again = RoomManager(QUIET, store=store, rooms_per_client=3)
        assert again.restore() == 9 and again.replays == 0
        with pytest.raises(RoomError, match="3 tables open already"):
            await again.create(client=network_of("203.0.113.1"), creator="ann")
        with pytest.raises(RoomError, match="3 tables open already"):
            await again.create(client=network_of("192.0.2.99"), creator="someone")
        bob = await again.create(client=network_of("203.0.113.1"), creator="bob")
        assert bob.creator == "bob"
        store.close()

    run_async(scenario)


def test_a_finished_game_no_longer_counts(tmp_path: Path) -> None:
    async def scenario() -> None:
        manager = RoomManager(QUIET, rooms_per_client=1)
        room = await manager.create(client="n", creator="ann")
        room.status = RoomStatus.FINISHED
        assert (await manager.create(client="n", creator="ann")).creator == "ann"

    run_async(scenario)


def test_a_finished_game_on_disk_no_longer_counts_after_a_restart(tmp_path: Path) -> None:
    """The row says the game is over: after a restart, before anyone opens the room
    again, its creator and network may open another table (and it is not listed)."""
    async def scenario() -> None:
        store = RoomStore(tmp_path / "rooms.db")
        manager = RoomManager(QUIET, store=store, rooms_per_client=1)
        room = await manager.create(target=1, bots="random", client="n", creator="ann",
                                    visibility=Visibility.PUBLIC)
        await room.start()
        await play(room, 400)
        assert room.status == RoomStatus.FINISHED
        await store.writer.submit(lambda conn: None)  # what was posted is written
        store.close()
        store = RoomStore(tmp_path / "rooms.db")
        again = RoomManager(QUIET, store=store, rooms_per_client=1)
        assert again.restore() == 1 and [row.finished for row in again.dormant.values()] == [True]
        assert again.public_rooms() == [] and again.replays == 0
        assert (await again.create(client="n", creator="ann")).creator == "ann"
        store.close()

    run_async(scenario)


def test_an_older_database_gets_the_creator_column(tmp_path: Path) -> None:
    async def scenario() -> None:
        path = tmp_path / "old.db"
        conn = sqlite3.connect(path)
        conn.execute(
            "CREATE TABLE rooms (id TEXT PRIMARY KEY, created REAL NOT NULL, touched REAL "
            "NOT NULL, profile TEXT NOT NULL, options TEXT NOT NULL, bots TEXT NOT NULL, "
            "name TEXT NOT NULL, visibility TEXT NOT NULL, invite TEXT, seed INTEGER NOT NULL, "
            "client TEXT NOT NULL, closed TEXT)")
        conn.execute("INSERT INTO rooms VALUES ('old1', 1.0, 2.0, 'classic', '{}', 'random', "
                     "'', 'invite', 'inv', 7, '192.0.2.1', NULL)")
        conn.commit()
        conn.close()
        store = RoomStore(path)
        [row] = store.open_rooms()
        assert row.id == "old1" and row.creator is None and row.client == "192.0.2.1"
        manager = RoomManager(QUIET, store=store)
        manager.restore()
        assert manager.get("old1").creator is None
        assert (await manager.create(creator="ann")).creator == "ann"
        assert {r.creator for r in store.open_rooms()} == {None, "ann"}
        store.close()

    run_async(scenario)


def test_the_http_routes_count_the_browser_identity(db: Path) -> None:
    """A browser opening tables from two networks is stopped by its identity's count;
    a fresh browser on the other network is not."""
    limits = Limits(rooms_per_client=2, rooms_per_minute=6000.0, rooms_burst=1000)
    app = create_app(db, settings=QUIET, limits=limits)
    with TestClient(app, client=("192.0.2.1", 5000)) as home:
        new_identity(home)
        for _ in range(2):
            assert home.post("/api/rooms", json={}).status_code == 201
        away = TestClient(app, client=("198.51.100.1", 5000))
        away.cookies = home.cookies
        away.headers["X-CSRF-Token"] = home.headers["X-CSRF-Token"]
        r = away.post("/api/rooms", json={})
        assert r.status_code == 422 and "2 tables open already" in r.json()["error"]
        new_identity(away)
        assert away.post("/api/rooms", json={}).status_code == 201
        manager: RoomManager = app.state.rooms
        assert sorted(r.client for r in manager.rooms.values()) == [  # their networks
            "192.0.2.0/24", "192.0.2.0/24", "198.51.100.0/24"]
        assert len({r.creator for r in manager.rooms.values()}) == 2


# --- eviction near the cap --------------------------------------------------------------


def test_a_flood_cannot_fill_the_server_against_a_newcomer() -> None:
    """One /64 (every address a new one) and one /24 open rooms with no limit of
    their own: near the cap their idle rooms close, the oldest first; the rooms of
    other networks stay, the one someone plays in above all, and a newcomer from
    elsewhere still opens a table."""

    async def scenario() -> None:
        store = RoomStore(":memory:")
        manager = RoomManager(QUIET, store=store, rooms_per_client=10_000)
        # Others, before the flood: a table being played (a connection open) and an
        # idle one nobody is at.
        active = await manager.create(client=network_of("203.0.113.5"), creator="carol")
        await active.join(1, "Carol", client=watch(active))
        await active.start()
        idle = await manager.create(client=network_of("198.51.100.8"), creator="dave")
        flood: list[str] = []
        for i in range(400):
            address = f"2001:db8:1:2:{i:x}::{i + 1:x}" if i % 2 else f"192.0.2.{i % 250}"
            room = await manager.create(client=network_of(address), creator=f"x{i}")
            flood.append(room.id)
            assert len(manager) <= 90  # 90% of the cap: each new room closed an idle one
            assert active.id in manager.rooms  # never the table someone is at
            assert idle.id in manager.rooms  # nor another's while the flood has idle ones
        newcomer = await manager.create(client=network_of("2001:db8:9::1"), creator="eve")
        assert newcomer.id in manager.rooms and active.id in manager.rooms
        closed = [room_id for room_id in flood if room_id not in manager.rooms]
        assert len(closed) == 400 - (90 - 3)
        # The oldest first, the two networks evened out.
        assert closed == flood[:len(closed)]
        left = [manager.rooms[room_id].client for room_id in flood[len(closed):]]
        assert abs(left.count(network_of("192.0.2.1")) - len(left) / 2) <= 1
        # Their links say why, in plain words.
        with pytest.raises(RoomError, match="was closed: the server was full, and this "
                           "table had been left idle the longest"):
            manager.get(closed[0])
        await manager.close()

    run_async(scenario)


def test_rooms_someone_is_at_are_never_closed_to_make_room() -> None:
    async def scenario() -> None:
        settings = RoomSettings(max_rooms=10, grace=20.0)
        manager = RoomManager(settings, rooms_per_client=10_000)
        watched = []
        for i in range(9):
            room = await manager.create(client="flood", creator=f"x{i}")
            watch(room)
            watched.append(room.id)
        # At 90% with nothing idle: the last 10% of the cap still admits a room...
        away = await manager.create(client="other", creator="ann")
        await away.join(0, "Ann")  # seated, not connected yet: within the grace
        # ... and then the server is full.
        with pytest.raises(RoomError, match="holds 10 rooms already; try later"):
            await manager.create(client="newcomer", creator="eve")
        assert set(watched) | {away.id} == set(manager.rooms)
        # Past the grace, the player who never came is no longer waited for.
        seat = away.seats[0]
        assert seat.away_since is not None
        seat.away_since -= 21.0
        await manager.create(client="newcomer", creator="eve")
        assert away.id not in manager.rooms
        await manager.close()

    run_async(scenario)


def test_an_evicted_room_says_why_on_its_page(db: Path) -> None:
    settings = RoomSettings(bot_delay=0.0, trick_pause=0.0, deal_pause=60.0, max_rooms=4)
    limits = Limits(rooms_per_client=100, rooms_per_minute=6000.0, rooms_burst=1000)
    with TestClient(create_app(db, settings=settings, limits=limits)) as client:
        new_identity(client)
        first = client.post("/api/rooms", json={}).json()
        for _ in range(4):
            new_identity(client)
            assert client.post("/api/rooms", json={}).status_code == 201
        r = client.get(first["url"])
        assert r.status_code == 404
        assert "the server was full" in r.text
        r = client.get(first["url"], headers={"Accept-Language": "fr"})
        assert r.status_code == 404
        assert "le serveur était plein" in r.text.replace("&#39;", "'")


# --- start-up: nothing replayed until a room is opened --------------------------------


def test_start_up_replays_no_room_and_a_room_resumes_where_it_was(tmp_path: Path) -> None:
    path = tmp_path / "rooms.db"
    before: dict[str, dict[str, Any]] = {}

    async def first_run() -> None:
        store = RoomStore(path)
        manager = RoomManager(QUIET, seed=3, store=store)
        for i in range(12):
            room = await manager.create("coinche" if i % 2 else "classic", bots="random",
                                  client=f"n{i}", creator=f"c{i}")
            await room.join(2, "Ann", owner=f"c{i}")
            await room.start()
            await play(room, 15 + 11 * i)
            before[room.id] = {str(seat): room.state_for(seat) for seat in (0, 2, None)}
        await manager.close()
        store.close()

    run_async(first_run)

    async def second_run() -> None:
        store = RoomStore(path)
        manager = RoomManager(QUIET, seed=3, store=store)
        assert manager.restore() == 12
        assert manager.replays == 0 and manager.rooms == {} and len(manager) == 12
        # One room opened: only it is replayed, and it is where it was.
        room_id = sorted(before)[5]
        room = manager.get(room_id)
        assert manager.replays == 1 and manager.get(room_id) is room
        for seat in (0, 2, None):
            after = room.state_for(seat)
            was = before[room_id][str(seat)]
            assert after["deal"] == was["deal"] and after["score"] == was["score"]
            assert after["actions"] == was["actions"]
        assert [s.kind for s in room.seats] == [SeatKind.BOT, SeatKind.BOT, SeatKind.HUMAN,
                                                SeatKind.BOT]
        # The rooms nobody opens stay on disk, and are closed when idle too.
        assert manager.replays == 1 and len(manager.dormant) == 11
        assert await manager.sweep(room.touched + QUIET.idle_ttl + 1) == 12
        assert len(manager) == 0
        with pytest.raises(RoomError, match="nobody visited it for 6 hours"):
            manager.get(sorted(before)[0])
        await manager.close()
        store.close()

    run_async(second_run)


def test_a_room_that_cannot_be_replayed_is_closed_when_opened(tmp_path: Path) -> None:
    path = tmp_path / "rooms.db"

    async def first_run() -> str:
        store = RoomStore(path)
        manager = RoomManager(QUIET, seed=3, store=store)
        room = await manager.create(bots="random")
        await room.start()
        await play(room, 6)
        await manager.close()
        store.close()
        return room.id

    room_id = run_async(first_run)
    conn = sqlite3.connect(path)
    conn.execute("UPDATE room_log SET data = '{\"type\": \"nonsense\"}' WHERE seq = 4")
    conn.commit()
    conn.close()

    async def second_run() -> None:
        store = RoomStore(path)
        manager = RoomManager(QUIET, store=store)
        assert manager.restore() == 1
        with pytest.raises(RoomError, match="was closed: it could not be restored"):
            manager.get(room_id)
        with pytest.raises(RoomError, match="was closed: it could not be restored"):
            manager.get(room_id)
        assert len(manager) == 0
        store.close()

    run_async(second_run)


def test_public_rooms_on_disk_are_listed(db: Path) -> None:
    limits = Limits(rooms_per_client=100, rooms_per_minute=6000.0, rooms_burst=1000)
    with TestClient(create_app(db, settings=QUIET, limits=limits)) as client:
        new_identity(client)
        r = client.post("/api/rooms", json={"visibility": "public", "name": "Vendredi soir"})
        room_id = r.json()["id"]
    with TestClient(create_app(db, settings=QUIET, limits=limits)) as client:
        manager: RoomManager = client.app.state.rooms  # type: ignore[attr-defined]
        assert manager.replays == 0
        page = client.get("/rooms")
        assert "Vendredi soir" in page.text and room_id in page.text
        assert manager.replays == 1


# --- a broadcast builds what every seat sees once -------------------------------------


@pytest.mark.parametrize(("profile", "options"), [
    ("classic", {}), ("coinche", {}), ("moroccan", {}),
    ("classic-3p", {"three_deal": "kitty"}), ("classic-3p", {"three_deal": "six_each"}),
    ("classic-2p", {"two_deal": "stock"}), ("classic-2p", {"two_deal": "decouverte"}),
])
def test_the_public_deal_is_the_same_from_every_seat(profile: str,
                                                      options: dict[str, str]) -> None:
    """:func:`room_state.states_for` builds the public part of the deal once, from
    the spectator's view: at every move of whole games it is what each seat's own
    view gives, and each seat's state is what it was built alone; the text sent is
    that state, and the score and history kept from one deal to the next are the
    game's."""

    async def scenario() -> None:
        manager = RoomManager(QUIET, seed=11)
        room = await manager.create(profile, options, target=1500, bots="random")
        await room.start()
        seats: list[int | None] = [*range(room.players), None]
        checked = 0
        while room.status == RoomStatus.PLAYING and checked < 400:
            rnd = room.round
            assert rnd is not None
            spectator = rnd.spectator_view()
            public = room_state.public_deal(room, rnd, spectator,
                                            room_state.view_trump(spectator))
            for seat in range(room.players):
                view = room_state.known_view(room, rnd, seat)
                assert room_state.public_deal(room, rnd, view,
                                              room_state.view_trump(view)) == public
            together = room_state.states_for(room, seats)
            assert together == [room_state.state_for(room, seat) for seat in seats]
            # the texts sent: the same states as json.dumps writes them, to the byte
            # (their fixed and game parts written once)
            assert room_state.state_texts(room, seats) == [
                json.dumps(state, ensure_ascii=False) for state in together]
            # the score and history kept between deals are the game's now
            assert room.match is not None
            assert together[0]["history"] == room_state.history_of(room)
            assert together[0]["score"] == score_json(room.match.score)
            await play(room, 1)
            checked += 1
        assert checked > 60
        await manager.close()

    run_async(scenario)


@pytest.mark.parametrize(("profile", "options"), EVERY_TABLE, ids=EVERY_TABLE_IDS)
@pytest.mark.parametrize("bots", ["random", "heuristic"])
def test_the_texts_kept_between_broadcasts_follow_every_change(
        profile: str, options: dict[str, Any], bots: str) -> None:
    """:func:`room_state.state_texts` keeps each room's parts of text (its fields, the
    seats, the deal's bidding, tricks and what was said) and writes one again only when
    the values it is made of change: at every move of whole games at every table size,
    and after each change a room sees between moves (a seat's name, a connection come
    or gone, a person's seat or a bot's, his grace over, the room's name and error), the texts of
    every seat and a spectator are ``json.dumps`` of :func:`room_state.states_for`, the
    reference, to the byte; and the texts of a second broadcast with nothing changed
    are the first's."""

    async def scenario() -> None:
        rng = random.Random(f"{profile}{options}{bots}")
        manager = RoomManager(QUIET, seed=13)
        room = await manager.create(profile, options, target=3000, bots=bots)
        await room.start()
        seats: list[int | None] = [*range(room.players), None]
        checked = 0
        while room.status == RoomStatus.PLAYING and checked < 300:
            change = rng.randrange(8)
            seat = room.seats[rng.randrange(room.players)]
            if change == 0:
                seat.name = rng.choice(["Anaïs", "Bob", "Zoé \"Z\""])
            elif change == 1:  # a connection comes or goes
                if seat.clients:
                    seat.clients.clear()
                else:
                    seat.clients.add(Client(_nowhere))
            elif change == 2:  # a person's seat, away since now (his grace runs), or a bot's
                seat.kind = SeatKind.HUMAN if seat.kind != SeatKind.HUMAN else SeatKind.BOT
                seat.away_since = time.monotonic()
            elif change == 5:  # his grace is over: a stand-in plays, nothing else changed
                seat.away_since = 0.0
            elif change == 3:
                room.name = rng.choice(["Vendredi soir", "Ma table", "x"])
            elif change == 4:
                room.error = rng.choice([None, "the game could not be saved"])
            texts = room_state.state_texts(room, seats)
            assert texts == [json.dumps(state, ensure_ascii=False)
                             for state in room_state.states_for(room, seats)]
            assert room_state.state_texts(room, seats) == texts
            if room.between:
                await room.next_deal()
            else:
                rnd = room.round
                assert rnd is not None
                turn = rnd.current_player()
                bot = room.seats[turn].bot  # (a bot's seat, whatever its kind now)
                assert bot is not None
                await room.apply(turn, next_action(bot, rnd.view(turn)))
            checked += 1
        assert checked > 60
        await manager.close()

    run_async(scenario)


async def _nowhere(text: str) -> None:
    """A connection's send that sends nothing."""


def test_the_trick_in_progress_is_written_from_its_cards_texts() -> None:
    """:func:`room_state.trick_text`, put together from each card's text, is the JSON
    of :func:`current_trick_json` (the reference) for every leader, every number of
    cards and every table size, on random cards."""
    rng = random.Random(5)
    for players in (4, 3, 2):
        for leader in range(players):
            for size in range(players):
                for _ in range(20):
                    cards = rng.sample(range(32), size)
                    assert room_state.trick_text(leader, cards, players) == json.dumps(
                        current_trick_json(leader, cards, players), ensure_ascii=False)


def test_only_the_newest_public_rooms_on_disk_are_brought_back_to_be_listed(
        tmp_path: Path) -> None:
    async def scenario() -> None:
        store = RoomStore(tmp_path / "rooms.db")
        manager = RoomManager(QUIET, store=store, rooms_per_client=100)
        for i in range(8):
            await manager.create(name=f"table {i}", visibility=Visibility.PUBLIC)
            await manager.create(name=f"private {i}")
        store.close()
        store = RoomStore(tmp_path / "rooms.db")
        again = RoomManager(QUIET, store=store)
        again.restore()
        listed = again.public_rooms(3)
        assert [r.name for r in listed] == ["table 7", "table 6", "table 5"]
        assert again.replays == 3
        assert [r.name for r in again.public_rooms(3)] == ["table 7", "table 6", "table 5"]
        assert again.replays == 3
        store.close()

    run_async(scenario)


def test_the_rooms_module_doctests() -> None:
    import doctest

    import belote.web.driver
    import belote.web.room_manager
    import belote.web.room_state
    import belote.web.rooms

    for module in (belote.web.rooms, belote.web.room_manager, belote.web.room_state,
                   belote.web.driver):
        failures, _tried = doctest.testmod(module)
        assert failures == 0
    assert doctest.testmod(belote.web.room_manager).attempted >= 1


# --- the bots' pauses: one timer a point of the grid ---------------------------------


def test_pauses_ending_together_share_one_timer() -> None:
    """Fifty tables' pauses ending on one point of the grid are woken by one timer of
    the event loop (two when they straddle a point), none before its end; a pause
    cancelled meanwhile leaves the others to end."""

    async def scenario() -> None:
        loop = asyncio.get_running_loop()
        timers: list[float] = []
        call_at = loop.call_at

        def counted(when: float, callback: Any, *args: Any, **kwargs: Any
                    ) -> asyncio.TimerHandle:
            timers.append(when)
            return call_at(when, callback, *args, **kwargs)

        loop.call_at = counted  # type: ignore[method-assign,assignment]
        start = loop.time()
        pauses = [driver.pace(0.1) for _ in range(50)]
        await asyncio.sleep(0)
        pauses[7].cancel()
        done = await asyncio.wait_for(asyncio.gather(*pauses, return_exceptions=True), 5)
        ended = loop.time()
        assert len(timers) <= 2
        assert ended >= driver.pace_end(start, 0.1) - 0.005  # (the clock's resolution)
        assert isinstance(done[7], asyncio.CancelledError)
        assert [d for i, d in enumerate(done) if i != 7] == [None] * 49

    run_async(scenario)


def test_pauses_ending_on_one_point_end_in_slices_in_order(monkeypatch: pytest.MonkeyPatch
                                                           ) -> None:
    """The pauses due on one point of the grid end in the order they began, at most
    ``GRID_SLICE`` a turn of the event loop (the loop reads its sockets between two
    slices); a pause cancelled meanwhile takes no place in a slice, and none is lost."""
    monkeypatch.setattr(driver, "GRID_SLICE", 4)

    async def scenario() -> None:
        loop = asyncio.get_running_loop()
        turn = [0]

        def count_turns() -> None:  # one call a turn of the loop
            turn[0] += 1
            loop.call_soon(count_turns)

        woken: list[tuple[int, int]] = []  # (pause, turn of the loop it ended in)

        async def wait(i: int) -> None:
            await driver.pace(0.1)
            woken.append((i, turn[0]))

        tasks = [loop.create_task(wait(i)) for i in range(22)]
        await asyncio.sleep(0)  # every pause begun, on one point of the grid
        assert len(driver._GRID[loop]) == 1
        tasks[5].cancel()
        loop.call_soon(count_turns)
        await asyncio.wait_for(asyncio.gather(*tasks, return_exceptions=True), 5)
        assert [i for i, _ in woken] == [i for i in range(22) if i != 5]
        per_turn: dict[int, int] = {}
        for _i, t in woken:
            per_turn[t] = per_turn.get(t, 0) + 1
        assert sorted(per_turn.values()) == [1, 4, 4, 4, 4, 4]  # 21 pauses, 4 a turn
        assert len(per_turn) == 6

    run_async(scenario)


def test_bots_acting_in_slices_write_every_move_in_order(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    """Thirty tables of bots due together act in slices of three: every move of every
    table is written, in the order it was played, none lost (the log on disk replays
    to the game in memory), and the slices' moves were committed together."""
    monkeypatch.setattr(driver, "GRID_SLICE", 3)

    async def scenario() -> None:
        store = RoomStore(tmp_path / "rooms.db")
        settings = RoomSettings(bot_delay=0.02, trick_pause=0.0, deal_pause=0.0,
                                max_rooms=100)
        manager = RoomManager(settings, seed=5, store=store, rooms_per_client=100)
        rooms = [await manager.create("classic", bots="heuristic", target=1_000_000,
                                      client="t", creator=f"c{i}") for i in range(30)]
        for room in rooms:
            await room.start()
            watch(room)
        for _ in range(500):
            if all(r.actions >= 40 for r in rooms):
                break
            await asyncio.sleep(0.02)
        for room in rooms:
            await room.stop()
        writer = store.writer
        assert writer is not None
        await writer.submit(lambda conn: None)  # every write queued before is committed
        commits, actions = writer.commits, sum(r.actions for r in rooms)
        await manager.close()
        for room in rooms:
            assert room.actions >= 40
            assert room.match is not None
            record = room.match.to_record()
            log = store.log(room.id)
            assert [seq for seq, _, _ in log] == list(range(1, len(log) + 1))
            assert [d["actions"] for d in record["deals"]] == [
                d["actions"] for d in _deals(log)]
        assert commits < actions  # moves of a slice shared a commit
        store.close()

    run_async(scenario)


def _deals(log: list[tuple[int, str, Any]]) -> list[dict[str, Any]]:
    deals: list[dict[str, Any]] = []
    for _seq, kind, data in log:
        if kind == "deal":
            deals.append({"actions": []})
        elif kind == "action":
            deals[-1]["actions"].append(data)
    return deals
