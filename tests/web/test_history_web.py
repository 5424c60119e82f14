"""My games (/history): each browser sees the finished games where it held a seat, and
nothing of anyone else's; the games survive a restart; the record downloads as JSON."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from belote.bots import make_bot
from belote.bots.base import next_action
from belote.game import Match
from belote.web import create_app
from belote.web.room_manager import RoomManager
from belote.web.seats import RoomStatus, Visibility
from belote.web.security import COOKIE
from tests.web.conftest import FAST, GENEROUS
from tests.web.support import TestClient, new_identity


def play_out(browser: Browser, owners: dict[int, str], profile: str = "classic",
             options: dict[str, Any] | None = None, finish: bool = True) -> str:
    """A room where ``owners`` (seat → identity) sit, played by bots for everyone to
    its end (or one deal, ``finish`` false); its id."""
    client = browser.client
    manager: RoomManager = client.app.state.rooms  # type: ignore[attr-defined]

    async def scenario() -> str:
        room = await manager.create(profile, {"target": 150, **(options or {})},
                                    bots="random", visibility=Visibility.INVITE,
                                    creator=next(iter(owners.values())))
        for seat, owner in owners.items():
            await room.join(seat, f"Player{seat}", owner=owner)
        await room.start()
        bot = make_bot("random", seed=5)  # seeded: the same game every run
        deals = 0
        while room.status != RoomStatus.FINISHED:
            if room.between:
                deals += 1
                if not finish:
                    break
                await room.next_deal()
                continue
            rnd = room.round
            assert rnd is not None
            seat = rnd.current_player()
            await room.apply(seat, next_action(bot, rnd.view(seat)))
        return room.id

    portal = client.portal
    assert portal is not None
    return portal.call(scenario)


class Browser:
    """One browser of the test server: its own identity cookie, over the one client
    (one server, one event loop)."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        client.cookies.clear()
        new_identity(client)
        self.cookie: str | None = str(client.cookies[COOKIE])
        self.cookies = self

    def set(self, name: str, value: str) -> None:
        assert name == COOKIE
        self.cookie = value

    def clear(self) -> None:
        self.cookie = None

    def get(self, path: str) -> Any:
        self.client.cookies.clear()
        if self.cookie is not None:
            self.client.cookies.set(COOKIE, self.cookie)
        return self.client.get(path)


def me(browser: Browser) -> str:
    """The identity the browser's signed cookie carries."""
    assert browser.cookie is not None
    return browser.cookie.split(".")[0]


@pytest.fixture
def two(db: Path) -> Iterator[tuple[Browser, Browser]]:
    """Two browsers of one server: Ann's and Bob's."""
    app = create_app(db, settings=FAST, seed=11, limits=GENEROUS)
    with TestClient(app) as client:
        yield Browser(client), Browser(client)


def test_each_player_sees_his_games_and_their_deals(two: tuple[Browser, Browser]) -> None:
    ann, bob = two
    shared = play_out(ann, {0: me(ann), 2: me(bob)})
    own = play_out(ann, {2: me(ann)}, profile="classic-3p", options={"three_deal": "kitty"})
    page = ann.get("/history")
    assert page.status_code == 200
    assert f'href="/history/{shared}"' in page.text and f'href="/history/{own}"' in page.text
    page = bob.get("/history")
    assert f'href="/history/{shared}"' in page.text and own not in page.text
    game = ann.get(f"/history/{shared}")
    assert game.status_code == 200
    assert f'href="/history/{shared}/record.json"' in game.text
    record = ann.get(f"/history/{shared}/record.json")
    assert record.status_code == 200
    assert "attachment" in record.headers["content-disposition"]
    match = Match.from_record(record.json())
    assert match.finished
    assert game.text.count("<tr>") == len(match.rounds) + 1  # the head and a row a deal
    assert bob.get(f"/history/{shared}/record.json").json() == record.json()


def test_nobody_sees_another_browsers_game(two: tuple[Browser, Browser]) -> None:
    """Another browser, no cookie, a forged cookie, a malformed id, an id that does not
    exist: the same 404, which says nothing of whether the game exists."""
    ann, bob = two
    game = play_out(ann, {2: me(ann)})
    assert ann.get(f"/history/{game}").status_code == 200
    nothing = bob.get("/history/doesnotexist1")
    assert nothing.status_code == 404
    for path in (f"/history/{game}", f"/history/{game}/record.json"):
        answer = bob.get(path)
        assert answer.status_code == 404
        assert "Player2" not in answer.text and "deck" not in answer.text
        # the same words as for a game that does not exist
        assert answer.text.replace(path, "") == bob.get(
            path.replace(game, "doesnotexist1")).text.replace(
            path.replace(game, "doesnotexist1"), "")
    assert game not in bob.get("/history").text
    bob.cookies.clear()  # no cookie: a new browser
    assert bob.get(f"/history/{game}").status_code == 404
    assert game not in bob.get("/history").text
    bob.cookies.set(COOKIE, me(ann) + ".forged")  # Ann's identity, not signed by the server
    assert bob.get(f"/history/{game}").status_code == 404
    assert bob.get(f"/history/{game}/record.json").status_code == 404
    for bad in ("..%2F..%2Fetc", "a" * 300, "x%20y", "%00"):
        assert ann.get(f"/history/{bad}").status_code == 404
        assert ann.get(f"/history/{bad}/record.json").status_code == 404


def test_a_game_still_played_is_not_listed(two: tuple[Browser, Browser]) -> None:
    """The deals of a game still on the table are not shown (its decks would tell the
    players more than the table does)."""
    ann, _bob = two
    game = play_out(ann, {2: me(ann)}, options={"target": 1000}, finish=False)
    assert game not in ann.get("/history").text
    assert ann.get(f"/history/{game}").status_code == 404
    assert ann.get(f"/history/{game}/record.json").status_code == 404


def test_games_survive_a_restart(db: Path) -> None:
    app = create_app(db, settings=FAST, seed=11, limits=GENEROUS)
    with TestClient(app) as client:
        ann = Browser(client)
        game = play_out(ann, {2: me(ann)})
        before = ann.get(f"/history/{game}/record.json").json()  # summed up and kept
        unseen = play_out(ann, {2: me(ann)})  # never looked at: read from its log later
        manager: RoomManager = app.state.rooms
        unseen_record = manager.rooms[unseen].match.to_record()  # type: ignore[union-attr]
    again = create_app(db, settings=FAST, seed=11, limits=GENEROUS)
    with TestClient(again) as client:
        client.cookies.set(COOKIE, str(ann.cookie))
        listed = client.get("/history").text
        assert f'href="/history/{game}"' in listed and f'href="/history/{unseen}"' in listed
        assert client.get(f"/history/{game}/record.json").json() == before
        assert client.get(f"/history/{unseen}/record.json").json() == unseen_record


def test_an_old_room_log_reads_as_a_game_record(db: Path) -> None:
    """Rooms logged before the history (rows start, deal, action) are read as the game's
    record: the log on disk is the record, nothing to migrate."""
    app = create_app(db, settings=FAST, seed=11, limits=GENEROUS)
    with TestClient(app) as client:
        ann = Browser(client)
        game = play_out(ann, {2: me(ann)})
        store = app.state.rooms.store
        log = store.log(game)
    kinds = {kind for _seq, kind, _data in log}
    assert kinds == {"start", "deal", "action"}
    from belote.web.store import record_of_log

    record = record_of_log("classic", {"target": 150}, log)
    assert record is not None and Match.from_record(record).finished
    assert json.loads(json.dumps(record)) == record


def test_the_pages_speak_french(two: tuple[Browser, Browser]) -> None:
    ann, _bob = two
    game = play_out(ann, {2: me(ann)})
    ann.client.headers["Accept-Language"] = "fr-FR"
    page = ann.get("/history")
    assert "Mes parties" in page.text
    page = ann.get(f"/history/{game}")
    assert "Donne" in page.text and "terminée" in page.text


@pytest.mark.parametrize("locale", ["fr-FR", "en-US"])
def test_my_games_pages_pass_axe_on_a_phone(browser: Any, tmp_path: Path, locale: str) -> None:
    """The list and a game's page, at 390×844, in French and English: no axe violation,
    nothing wider than the screen."""
    from tests.web.support import live_server
    from tests.web.test_accessibility import violations

    db = tmp_path / "sheets.db"
    app = create_app(db, settings=FAST, seed=11, limits=GENEROUS)
    with TestClient(app) as client:
        ann = Browser(client)
        game = play_out(ann, {2: me(ann)}, profile="coinche", options={"target": 300})
    with live_server(db) as url:
        context = browser.new_context(viewport={"width": 390, "height": 844}, locale=locale)
        host = url.split("//", 1)[1].split(":")[0]
        context.add_cookies([{"name": COOKIE, "value": str(ann.cookie), "domain": host,
                              "path": "/"}])
        page = context.new_page()
        found: dict[str, list[str]] = {}
        page.goto(url + "/history")
        assert page.locator(f'a[href="/history/{game}"]').count() == 1
        found["the list"] = violations(page)
        wide = "() => document.documentElement.scrollWidth > window.innerWidth"
        assert not page.evaluate(wide)
        page.goto(url + f"/history/{game}")
        assert page.locator("#history-deals tbody tr").count() >= 1
        found["a game"] = violations(page)
        assert not page.evaluate(wide)
        context.close()
    bad = {k: v for k, v in found.items() if v}
    assert bad == {}, "\n".join(f"{k}: {x}" for k, v in bad.items() for x in v)


def test_a_game_still_played_is_read_again_only_once_it_moved(
        two: tuple[Browser, Browser], monkeypatch: pytest.MonkeyPatch) -> None:
    """The list does not replay a game still played at every visit: only once its log
    grew (or its room closed)."""
    from belote import history

    ann, _bob = two
    game = play_out(ann, {2: me(ann)}, options={"target": 1000}, finish=False)
    ann.client.app.state.rooms.rooms.pop(game)  # type: ignore[attr-defined]  # asleep on disk
    reads: list[str] = []
    summarise = history.summarise

    def counted(*args: Any, **kwargs: Any) -> Any:
        reads.append(kwargs["game_id"])
        return summarise(*args, **kwargs)

    monkeypatch.setattr(history, "summarise", counted)
    for _ in range(3):
        assert game not in ann.get("/history").text
    assert reads == [game]


def test_a_room_written_before_the_history_is_listed(db: Path) -> None:
    """A room's rows as an earlier server wrote them (no history tables, the log's
    start, deal and action rows) are read as a finished game's record."""
    from belote.bots.base import play_game
    from belote.options import make_rules
    from belote.play import SEAT_NAMES

    app = create_app(db, settings=FAST, seed=11, limits=GENEROUS)
    with TestClient(app) as client:
        ann = Browser(client)
    rules = make_rules("classic-3p", {"three_deal": "six_each", "target": 300})
    match = play_game(rules, [make_bot("random", seed=i) for i in range(3)], seed=4)
    assert match.finished
    rows: list[tuple[str, Any]] = [("start", {})]
    for rnd in match.rounds:
        rows.append(("deal", {"dealer": SEAT_NAMES[rnd.dealer],
                              "deck": rnd.record()["deck"]}))
        rows += [("action", a) for a in rnd.actions_json()]
    import sqlite3

    conn = sqlite3.connect(db)
    with conn:
        conn.execute("DROP TABLE IF EXISTS history_deals")
        conn.execute("DROP TABLE IF EXISTS history_games")
        conn.execute(
            "INSERT INTO rooms (id, created, touched, profile, options, bots, name, "
            "visibility, invite, seed, client, closed, creator) "
            "VALUES ('oldroom1', 1.0, 2.0, 'classic-3p', ?, 'random', '', 'private', NULL, "
            "1, 'net', NULL, ?)", (json.dumps(rules.overrides()), me(ann)))
        for seat in range(3):
            conn.execute("INSERT INTO room_seats (room, seat, kind, name, token, owner) "
                         "VALUES ('oldroom1', ?, ?, ?, ?, ?)",
                         (seat, "human" if seat == 0 else "bot", f"S{seat}",
                          "tok" if seat == 0 else None, me(ann) if seat == 0 else None))
        conn.executemany("INSERT INTO room_log (room, seq, kind, data) VALUES (?,?,?,?)",
                         [("oldroom1", i + 1, kind, json.dumps(data))
                          for i, (kind, data) in enumerate(rows)])
    conn.close()
    again = create_app(db, settings=FAST, seed=11, limits=GENEROUS)
    with TestClient(again) as client:
        client.cookies.set(COOKIE, str(ann.cookie))
        assert 'href="/history/oldroom1"' in client.get("/history").text
        assert client.get("/history/oldroom1/record.json").json() == match.to_record()
        page = client.get("/history/oldroom1")
        assert page.status_code == 200 and page.text.count("<tr>") == len(match.rounds) + 1
