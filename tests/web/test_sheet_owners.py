"""Score sheets with owners: another browser gets the 404 of a sheet that does not
exist everywhere; the follow link reads, the keep link adds, undoes and edits; a
renewed or revoked link ends the old one; the machine owner's sheets on loopback;
a schema-1 database migrated; the live page's WebSocket (web/routes_sheets.py,
web/sheet_live.py)."""

from __future__ import annotations

import json
import re
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from starlette.websockets import WebSocketDisconnect

from belote.sheets import EXPORT_KEYS, SCHEMA_VERSION, SheetStore
from belote.web import create_app, routes_sheets
from tests.web.conftest import FAST, GENEROUS
from tests.web.support import (
    TestClient,
    WebSocketTestSession,
    add_hand,
    new_identity,
    new_sheet,
    receive,
    send,
    sheet_state,
)

EVIL = "http://evil.example"
HAND = {"taker": "NS", "points_team": "NS", "points": "100"}


@dataclass
class Browser:
    """One browser's identity cookie and CSRF token, to act as it on a shared client."""

    cookies: dict[str, str]
    token: str


def browser(client: TestClient) -> Browser:
    """A new browser, and the client now acts as it."""
    token = new_identity(client)
    return Browser(dict(client.cookies), token)


def act_as(client: TestClient, who: Browser) -> None:
    client.cookies.clear()
    client.cookies.update(who.cookies)
    client.headers["X-CSRF-Token"] = who.token


def sheet_id_of(path: str) -> int:
    return int(path.rsplit("/", 1)[1])


def make_link(client: TestClient, sheet: str, kind: str, action: str = "make") -> str:
    """The owner makes (renews, revokes) a link; its path read from the owner's page."""
    r = client.post(sheet + "/share", data={"kind": kind, "action": action},
                    follow_redirects=False)
    assert r.status_code == 303, r.text
    page = client.get(sheet).text
    links = re.findall(rf'value="http://[^/"]+(/sheets/\d+/{kind}/[^"]+)"', page)
    if action == "revoke":
        assert not links
        return ""
    assert len(links) == 1, page
    return str(links[0])


@pytest.fixture
def owned(client: TestClient) -> Iterator[tuple[Browser, str]]:
    """A sheet with one hand, made by the browser the client starts as."""
    owner = Browser(dict(client.cookies), client.headers["X-CSRF-Token"])
    sheet = new_sheet(client)
    assert add_hand(client, sheet, **HAND).status_code == 303
    yield owner, sheet


# --- (1) another browser: the 404 of a sheet that does not exist, everywhere ---------------


def _every_route(client: TestClient, sid: int) -> list[tuple[str, Any]]:
    """(what, answer) of every page, form, export and API of sheet ``sid``."""
    return [
        ("page", client.get(f"/sheets/{sid}")),
        ("edit form", client.get(f"/sheets/{sid}/hands/1/edit")),
        ("export.json", client.get(f"/sheets/{sid}/export.json")),
        ("export.csv", client.get(f"/sheets/{sid}/export.csv")),
        ("api", client.get(f"/api/sheets/{sid}")),
        ("preview", client.post(f"/api/sheets/{sid}/preview", json={"taker": "NS"})),
        ("add", client.post(f"/sheets/{sid}/hands", data=HAND, follow_redirects=False)),
        ("undo", client.post(f"/sheets/{sid}/undo", follow_redirects=False)),
        ("edit", client.post(f"/sheets/{sid}/hands/1", data=HAND, follow_redirects=False)),
        ("share", client.post(f"/sheets/{sid}/share", data={"kind": "follow",
                                                              "action": "make"},
                              follow_redirects=False)),
        ("delete", client.post(f"/sheets/{sid}/delete", follow_redirects=False)),
    ]


def unnumbered(text: str, sid: int) -> str:
    """``text`` with the sheet's number (after a slash or a space) said as N."""
    return re.sub(rf"(?<=sheets/){sid}\b|(?<= ){sid}\b", "N", text)


def _same_as_missing(client: TestClient, sid: int, missing: int) -> None:
    """Every route of ``sid`` answers exactly as for the sheet ``missing`` that does
    not exist: status and body (its number aside)."""
    theirs = _every_route(client, sid)
    none = _every_route(client, missing)
    for (what, got), (_, expected) in zip(theirs, none, strict=True):
        assert got.status_code == 404, (what, got.status_code, got.text[:300])
        assert unnumbered(got.text, sid) == unnumbered(expected.text, missing), what
        assert "Friday</" not in got.text, what


def test_another_browser_gets_the_404_of_a_missing_sheet_everywhere(
        client: TestClient, owned: tuple[Browser, str]) -> None:
    owner, sheet = owned
    sid = sheet_id_of(sheet)
    browser(client)  # a stranger
    _same_as_missing(client, sid, 999)
    assert 'id="sheet-list"' not in client.get("/sheets").text
    # nothing was changed, nothing was made
    act_as(client, owner)
    state = sheet_state(client, sheet)
    assert len(state["hands"]) == 1 and client.get(sheet).status_code == 200
    assert "link-follow" not in client.get(sheet).text  # the stranger made no link


def test_the_ids_that_follow_each_other_tell_nothing(client: TestClient) -> None:
    """Sheets 1 and 2 of two browsers: each sees its own, the other's answers as sheet 3
    that does not exist (nor ever did)."""
    a = browser(client)
    first = new_sheet(client, name="Mine")
    b = browser(client)
    second = new_sheet(client, name="Yours")
    _same_as_missing(client, sheet_id_of(first), 3)
    act_as(client, a)
    _same_as_missing(client, sheet_id_of(second), 3)
    page = client.get("/sheets").text
    assert "Mine" in page and "Yours" not in page
    act_as(client, b)
    page = client.get("/sheets").text
    assert "Yours" in page and "Mine" not in page


def test_a_deleted_sheet_answers_its_owner_as_any_missing_sheet(
        client: TestClient, owned: tuple[Browser, str]) -> None:
    _, sheet = owned
    assert client.post(sheet + "/delete", follow_redirects=False).status_code == 303
    _same_as_missing(client, sheet_id_of(sheet), 999)


def test_an_imported_sheet_belongs_to_the_importer(
        client: TestClient, owned: tuple[Browser, str]) -> None:
    owner, sheet = owned
    make_link(client, sheet, "follow")
    make_link(client, sheet, "keep")
    exported = client.get(sheet + "/export.json")
    doc = exported.json()
    # the export carries neither the owner nor the links' secrets
    assert list(doc) == list(EXPORT_KEYS)
    assert "/follow/" not in exported.text and "/keep/" not in exported.text
    with SheetStore(client.app.state.sheets.path) as store:  # type: ignore[attr-defined]
        secrets = [s for s in store.links(sheet_id_of(sheet)).values() if s]
    assert len(secrets) == 2 and not any(s in exported.text for s in secrets)
    assert not any(s in client.get(sheet + "/export.csv").text for s in secrets)
    importer = browser(client)
    token = importer.token
    r = client.post(f"/sheets/import?csrf_token={token}",
                    files={"file": ("s.json", exported.content, "application/json")},
                    follow_redirects=False)
    assert r.status_code == 303, r.text
    copy = r.headers["location"]
    assert len(sheet_state(client, copy)["hands"]) == 1
    assert "link-follow" not in client.get(copy).text  # no link came with it
    assert 'id="make-follow"' in client.get(copy).text  # its owner may make one
    act_as(client, owner)
    assert client.get(copy).status_code == 404
    assert client.get("/api" + copy).status_code == 404


# --- (2) the follow link --------------------------------------------------------------------


def test_the_follow_link_reads_but_changes_nothing(
        client: TestClient, owned: tuple[Browser, str]) -> None:
    owner, sheet = owned
    sid = sheet_id_of(sheet)
    link = make_link(client, sheet, "follow")
    assert re.fullmatch(rf"/sheets/{sid}/follow/[A-Za-z0-9_-]{{40,}}", link)
    follower = browser(client)
    r = client.get(link, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == sheet  # the secret is left
    page = client.get(sheet)
    assert page.status_code == 200 and "Friday" in page.text
    assert 'id="hand-form"' not in page.text and "/undo" not in page.text
    assert "/delete" not in page.text and 'id="share"' not in page.text
    assert "/edit" not in page.text and 'id="role-note"' in page.text
    assert client.get("/api" + sheet).status_code == 200
    assert client.get(sheet + "/export.json").status_code == 200
    assert client.get(sheet + "/export.csv").status_code == 200
    # listed apart from the browser's own sheets
    listing = client.get("/sheets").text
    assert 'id="shared-list"' in listing and "you follow" in listing
    assert 'id="sheet-list"' not in listing  # none of its own
    # 403, not 404: the follower knows the sheet exists, the refusal tells him nothing new
    refused = {
        "add": client.post(sheet + "/hands", data=HAND, follow_redirects=False),
        "undo": client.post(sheet + "/undo", follow_redirects=False),
        "edit": client.post(sheet + "/hands/1", data=HAND, follow_redirects=False),
        "edit form": client.get(sheet + "/hands/1/edit"),
        "preview": client.post(f"/api/sheets/{sid}/preview", json={"taker": "NS"}),
        "delete": client.post(sheet + "/delete", follow_redirects=False),
        "share": client.post(sheet + "/share", data={"kind": "keep", "action": "make"},
                             follow_redirects=False),
    }
    for what, r in refused.items():
        assert r.status_code == 403, (what, r.status_code)
    assert "follow score sheet 1, not change it" in refused["add"].text
    assert refused["preview"].json() == {
        "error": "sheet 1: this link lets you follow the sheet, not change it",
        "code": "follow_only"}
    assert "Only the owner" in refused["delete"].text
    # the browser keeps its access on later visits (its identity is remembered)
    assert client.get(sheet).status_code == 200
    act_as(client, owner)
    assert len(sheet_state(client, sheet)["hands"]) == 1
    assert client.get(sheet).status_code == 200
    del follower


def test_a_wrong_or_old_secret_is_a_missing_sheet(
        client: TestClient, owned: tuple[Browser, str]) -> None:
    _, sheet = owned
    sid = sheet_id_of(sheet)
    link = make_link(client, sheet, "follow")
    secret = link.rsplit("/", 1)[1]
    browser(client)
    for wrong in (f"/follow/{secret[:-1]}x", "/follow/x", f"/keep/{secret}",
                  f"/follow/{secret}{'a' * 200}"):
        r = client.get(f"/sheets/{sid}{wrong}", follow_redirects=False)
        missing = client.get(f"/sheets/999{wrong}", follow_redirects=False)
        assert r.status_code == missing.status_code == 404, wrong
        assert unnumbered(r.text, sid) == unnumbered(missing.text, 999), wrong
    assert client.get(f"/sheets/{sid}/other/{secret}").status_code == 404
    assert client.get(sheet).status_code == 404  # nothing was granted


# --- (3) the keep link ----------------------------------------------------------------------


def test_the_keep_link_adds_undoes_and_edits_but_neither_deletes_nor_shares(
        client: TestClient, owned: tuple[Browser, str]) -> None:
    owner, sheet = owned
    sid = sheet_id_of(sheet)
    link = make_link(client, sheet, "keep")
    keeper = browser(client)
    assert client.get(link, follow_redirects=False).status_code == 303
    page = client.get(sheet).text
    assert 'id="hand-form"' in page and "/undo" in page and "/edit" in page
    assert "/delete" not in page and 'id="share"' not in page
    assert add_hand(client, sheet, taker="EW", points_team="EW", points="90").status_code == 303
    assert len(sheet_state(client, sheet)["hands"]) == 2
    r = client.post(sheet + "/hands/2", data={"taker": "EW", "points_team": "EW",
                                               "points": "100"}, follow_redirects=False)
    assert r.status_code == 303
    assert client.post(sheet + "/undo", follow_redirects=False).status_code == 303
    assert client.post(f"/api/sheets/{sid}/preview", json=HAND).status_code == 200
    assert client.get(sheet + "/hands/1/edit").status_code == 200
    for action in ("make", "renew", "revoke"):
        r = client.post(sheet + "/share", data={"kind": "keep", "action": action},
                        follow_redirects=False)
        assert r.status_code == 403, action
    r = client.post(sheet + "/delete", follow_redirects=False)
    assert r.status_code == 403 and "Only the owner" in r.text
    assert "you keep the score" in client.get("/sheets").text
    act_as(client, owner)
    assert [h["outcome"] for h in sheet_state(client, sheet)["hands"]] == ["made"]
    assert client.get(link.replace("/keep/", "/follow/")).status_code == 404
    del keeper


# --- (4) renew and revoke -------------------------------------------------------------------


def test_renewing_or_revoking_a_link_ends_the_old_one(
        client: TestClient, owned: tuple[Browser, str]) -> None:
    owner, sheet = owned
    old = make_link(client, sheet, "follow")
    keep = make_link(client, sheet, "keep")
    follower = browser(client)
    client.get(old)
    assert client.get(sheet).status_code == 200
    keeper = browser(client)
    client.get(keep)
    assert client.get(sheet).status_code == 200
    act_as(client, owner)
    new = make_link(client, sheet, "follow", "renew")
    assert new != old
    act_as(client, follower)  # the browser let in by the old link is out
    assert client.get(sheet).status_code == 404
    assert client.get(old).status_code == 404
    assert client.get(new, follow_redirects=False).status_code == 303
    assert client.get(sheet).status_code == 200
    act_as(client, keeper)  # the other link holds
    assert client.get(sheet).status_code == 200
    act_as(client, owner)
    make_link(client, sheet, "keep", "revoke")
    act_as(client, keeper)
    assert client.get(sheet).status_code == 404
    assert client.get(keep).status_code == 404
    assert 'id="shared-list"' not in client.get("/sheets").text
    act_as(client, owner)  # a new keep link: a new secret
    assert make_link(client, sheet, "keep") != keep


def test_a_bad_share_form_is_refused(client: TestClient, owned: tuple[Browser, str]) -> None:
    _, sheet = owned
    for data in ({"kind": "all", "action": "make"}, {"kind": "follow", "action": "x"}, {}):
        r = client.post(sheet + "/share", data=data, follow_redirects=False)
        assert r.status_code == 400, data


# --- (5) the machine owner --------------------------------------------------------------------


def _cli_sheet(db: Path) -> int:
    with SheetStore(db) as store:
        sid = int(store.create("classic", name="Terminal")["id"])
        store.add_hand(sid, {"taker": "NS", "trick_points": {"NS": 100}})
    return sid


@pytest.mark.parametrize(("local_owner", "host", "sees"), [
    (True, "127.0.0.1", True), (True, "::1", True), (True, "192.168.1.20", False),
    (False, "127.0.0.1", False), (False, "testclient", False),
])
def test_the_machine_owner_is_a_loopback_browser_of_a_loopback_server(
        db: Path, local_owner: bool, host: str, sees: bool) -> None:
    sid = _cli_sheet(db)
    app = create_app(db, settings=FAST, seed=1, limits=GENEROUS, local_owner=local_owner)
    with TestClient(app, client=(host, 50000)) as client:
        new_identity(client)
        assert ("Terminal" in client.get("/sheets").text) is sees
        if sees:
            assert client.get(f"/sheets/{sid}").status_code == 200
            assert add_hand(client, f"/sheets/{sid}", **HAND).status_code == 303
            assert 'id="share"' in client.get(f"/sheets/{sid}").text
        else:
            _same_as_missing(client, sid, 999)


@pytest.mark.parametrize("header", [{"X-Forwarded-For": "203.0.113.9"},
                                    {"Forwarded": "for=203.0.113.9"}])
def test_a_request_relayed_by_a_local_proxy_is_not_the_machine_owner(
        db: Path, header: dict[str, str]) -> None:
    """A proxy on this machine that nobody named (--trusted-proxy) makes every visitor
    come from loopback: a relayed request is not the owner's."""
    sid = _cli_sheet(db)
    app = create_app(db, settings=FAST, seed=1, limits=GENEROUS, local_owner=True)
    with TestClient(app, client=("127.0.0.1", 50000)) as client:
        new_identity(client)
        assert "Terminal" not in client.get("/sheets", headers=header).text
        assert client.get(f"/sheets/{sid}", headers=header).status_code == 404
        assert client.get(f"/sheets/{sid}").status_code == 200  # not relayed: the owner


def test_a_loopback_browser_does_not_own_another_browsers_sheet(db: Path) -> None:
    app = create_app(db, settings=FAST, seed=1, limits=GENEROUS, local_owner=True)
    with TestClient(app, client=("127.0.0.1", 50000)) as client:
        new_identity(client)
        sheet = new_sheet(client, name="Phone")
        new_identity(client)
        assert client.get(sheet).status_code == 404
        assert "Phone" not in client.get("/sheets").text


def test_serve_on_loopback_tells_the_app(monkeypatch: pytest.MonkeyPatch, db: Path) -> None:
    """``belote serve`` passes local_owner=True exactly when --host is a loopback name."""
    import typer
    from typer.testing import CliRunner

    import belote.web
    from belote.cli import serve

    seen: list[bool] = []

    def fake_create_app(*args: Any, **kwargs: Any) -> Any:
        seen.append(kwargs["local_owner"])
        raise SystemExit(0)

    monkeypatch.setattr(belote.web, "create_app", fake_create_app)
    monkeypatch.setattr(serve, "_check_port", lambda host, port: None)
    app = typer.Typer()
    serve.register(app)
    app.command("other")(lambda: None)
    for host, local in (("127.0.0.1", True), ("localhost", True), ("::1", True),
                        ("0.0.0.0", False), ("192.168.1.2", False)):
        CliRunner().invoke(app, ["serve", "--host", host, "--db", str(db)])
        assert seen[-1] is local, host


# --- (6) a database of schema 1 ---------------------------------------------------------------

SCHEMA_1 = """
CREATE TABLE sheets (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL,
    profile TEXT NOT NULL, options TEXT NOT NULL, target INTEGER NOT NULL,
    team_names TEXT NOT NULL, players INTEGER, player_names TEXT, created TEXT NOT NULL,
    updated TEXT NOT NULL, deleted TEXT);
CREATE TABLE events (id INTEGER PRIMARY KEY AUTOINCREMENT, sheet_id INTEGER NOT NULL,
    seq INTEGER NOT NULL, kind TEXT NOT NULL CHECK (kind IN ('add', 'undo', 'edit')),
    hand INTEGER NOT NULL, entry TEXT, created TEXT NOT NULL, UNIQUE (sheet_id, seq));
INSERT INTO sheets (name, profile, options, target, team_names, created, updated)
    VALUES ('Old', 'classic', '{}', 1000, '["Us", "Them"]', '2026-01-01', '2026-01-01');
INSERT INTO events (sheet_id, seq, kind, hand, entry, created) VALUES
    (1, 1, 'add', 1, '{"taker": "NS", "trick_points": {"NS": 100, "EW": 62}}', '2026-01-01');
PRAGMA user_version = 1;
"""


def test_a_schema_1_database_is_migrated_its_sheets_the_machine_owners(db: Path) -> None:
    conn = sqlite3.connect(db)
    conn.executescript(SCHEMA_1)
    conn.close()
    with SheetStore(db) as store:
        assert len(store.state(1)["hands"]) == 1
        assert store.role(1, "someone-else-entirely-22", machine=False) is None
        assert store.role(1, None, machine=True) == "owner"
        assert store.export_json(1)["name"] == "Old"
    conn = sqlite3.connect(db)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 2
    columns = {r[1] for r in conn.execute("PRAGMA table_info(sheets)")}
    assert {"owner", "follow_secret", "keep_secret"} <= columns
    assert conn.execute("SELECT owner FROM sheets").fetchall() == [(None,)]
    conn.close()
    app = create_app(db, settings=FAST, seed=1, limits=GENEROUS, local_owner=True)
    with TestClient(app, client=("127.0.0.1", 50000)) as client:
        new_identity(client)
        assert "Old" in client.get("/sheets").text
        assert sheet_state(client, "/sheets/1")["totals"] == {"NS": 100, "EW": 62}
    with TestClient(create_app(db, settings=FAST, seed=1, limits=GENEROUS)) as client:
        new_identity(client)
        assert client.get("/sheets/1").status_code == 404


# --- (7) the live page's WebSocket ------------------------------------------------------------


def closed_with(ws: WebSocketTestSession) -> tuple[list[dict[str, Any]], int]:
    seen: list[dict[str, Any]] = []
    for _ in range(1000):
        try:
            seen.append(receive(ws))
        except WebSocketDisconnect as exc:
            return seen, exc.code
    raise AssertionError("the connection was never closed")


def refused(client: TestClient, sid: int, hello: Any, headers: dict[str, str] | None = None
            ) -> tuple[dict[str, Any], int]:
    with client.websocket_connect(f"/ws/sheets/{sid}", headers=headers or {}) as ws:
        if hello is not None:
            ws.send_text(hello if isinstance(hello, str) else json.dumps(hello))
        seen, code = closed_with(ws)
    assert len(seen) == 1 and seen[0]["fatal"] is True, seen
    return seen[0], code


def test_a_stranger_socket_is_refused_as_for_a_missing_sheet(
        client: TestClient, owned: tuple[Browser, str]) -> None:
    _, sheet = owned
    sid = sheet_id_of(sheet)
    make_link(client, sheet, "follow")
    browser(client)
    for hello in ({"type": "follow"}, {"type": "follow", "secret": "x" * 43}):
        msg, code = refused(client, sid, hello)
        missing, missing_code = refused(client, 999, hello)
        assert code == missing_code == 4404
        assert unnumbered(msg["message"], sid) == unnumbered(missing["message"], 999)


def test_the_owner_follower_and_keeper_follow_live(
        client: TestClient, owned: tuple[Browser, str]) -> None:
    owner, sheet = owned
    sid = sheet_id_of(sheet)
    secret = make_link(client, sheet, "follow").rsplit("/", 1)[1]
    keep = make_link(client, sheet, "keep").rsplit("/", 1)[1]
    with client.websocket_connect(f"/ws/sheets/{sid}") as own:
        send(own, {"type": "follow"})
        assert receive(own) == {"type": "welcome", "role": "owner", "events": 1}
        browser(client)  # a browser that never opened a link, with the secret in the hello
        with client.websocket_connect(f"/ws/sheets/{sid}") as fol, \
                client.websocket_connect(f"/ws/sheets/{sid}") as kee:
            send(fol, {"type": "follow", "secret": secret})
            assert receive(fol)["role"] == "follow"
            send(kee, {"type": "follow", "secret": keep})
            assert receive(kee)["role"] == "keep"
            send(fol, {"type": "ping"})
            assert receive(fol) == {"type": "pong"}
            act_as(client, owner)
            for path, data in (("/hands", HAND), ("/undo", {}), ("/hands/1", HAND)):
                assert client.post(sheet + path, data=data,
                                   follow_redirects=False).status_code == 303
                start = time.monotonic()
                got = [receive(ws, timeout=1.0) for ws in (own, fol, kee)]
                # the requirement's bound: within 1 s of the change (the page pokes at once)
                assert time.monotonic() - start < 1.0
                assert {m["type"] for m in got} == {"changed"}
                assert len({m["events"] for m in got}) == 1


def test_a_hand_added_by_another_process_reaches_the_followers(
        client: TestClient, owned: tuple[Browser, str], db: Path) -> None:
    _, sheet = owned
    sid = sheet_id_of(sheet)
    with client.websocket_connect(f"/ws/sheets/{sid}") as ws:
        send(ws, {"type": "follow"})
        assert receive(ws)["events"] == 1
        hand = json.dumps({"taker": "EW", "trick_points": {"EW": 90}})
        done = subprocess.run(
            [sys.executable, "-m", "belote", "sheet", "add", str(sid), "--json", "--db",
             str(db)], input=hand, capture_output=True, text=True, timeout=60, check=False)
        start = time.monotonic()
        assert done.returncode == 0, done.stderr
        # belote sheet add is another process: seen by the poll (every 0.5 s), within 1 s
        msg = receive(ws, timeout=1.0)
        assert time.monotonic() - start < 1.0
        assert msg == {"type": "changed", "events": 2}


def test_a_revoked_link_or_a_deleted_sheet_closes_its_sockets(
        client: TestClient, owned: tuple[Browser, str]) -> None:
    owner, sheet = owned
    sid = sheet_id_of(sheet)
    secret = make_link(client, sheet, "follow").rsplit("/", 1)[1]
    keep_link = make_link(client, sheet, "keep")
    keeper = browser(client)
    client.get(keep_link)
    browser(client)  # a browser that never opened a link: the secret in its hello
    with client.websocket_connect(f"/ws/sheets/{sid}") as by_secret:
        send(by_secret, {"type": "follow", "secret": secret})
        assert receive(by_secret)["role"] == "follow"
        act_as(client, keeper)
        by_grant = client.websocket_connect(f"/ws/sheets/{sid}").__enter__()
        send(by_grant, {"type": "follow"})
        assert receive(by_grant)["role"] == "keep"
        act_as(client, owner)
        make_link(client, sheet, "follow", "renew")
        seen, code = closed_with(by_secret)
        assert code == 4404 and seen[-1]["code"] == "no_such_sheet"
        assert seen[-1]["message"] == f"There is no score sheet number {sid}."
        act_as(client, owner)
        assert client.post(sheet + "/delete", follow_redirects=False).status_code == 303
        seen, code = closed_with(by_grant)
        assert code == 4404
        by_grant.__exit__(None, None, None)


def test_a_socket_of_another_site_or_saying_nothing_valid_is_closed(
        client: TestClient, owned: tuple[Browser, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _, sheet = owned
    sid = sheet_id_of(sheet)
    msg, code = refused(client, sid, {"type": "follow"}, headers={"origin": EVIL})
    assert code == 4403 and "another site" in msg["message"]
    for hello in ("not json", {"type": "hello"}, {"type": "follow", "secret": 5},
                  {"type": "follow", "secret": "s" * 101}, {"type": "follow", "extra": 1},
                  [1, 2], json.dumps({"type": "follow", "pad": "x" * 600})):
        msg, code = refused(client, sid, hello)
        assert code == 4400, hello
    monkeypatch.setattr(routes_sheets, "HELLO_TIMEOUT_S", 0.3)
    msg, code = refused(client, sid, None)
    assert code == 4400 and "within 0.3 s" in msg["message"]
    # after the hello: only pings, small, at a bounded rate
    with client.websocket_connect(f"/ws/sheets/{sid}") as ws:
        send(ws, {"type": "follow"})
        receive(ws)
        send(ws, {"type": "follow"})
        _, code = closed_with(ws)
        assert code == 4400
    with client.websocket_connect(f"/ws/sheets/{sid}") as ws:
        send(ws, {"type": "follow"})
        receive(ws)
        ws.send_text(json.dumps({"type": "ping", "pad": "x" * 600}))
        _, code = closed_with(ws)
        assert code == 1008


def test_the_machine_owner_lists_his_sheet_once_even_through_a_link(db: Path) -> None:
    sid = _cli_sheet(db)
    with SheetStore(db) as store:
        secret = store.set_link(sid, "follow")
        assert set(store.pulse(list(range(1, 1200)))) == {sid}  # ids by chunks of 500
        store.grant(sid, "a-browser-identity-of-22", "follow")
        assert [s["role"] for s in store.shared_sheets("a-browser-identity-of-22")] == ["follow"]
        assert store.shared_sheets("a-browser-identity-of-22", machine=True) == []
    app = create_app(db, settings=FAST, seed=1, limits=GENEROUS, local_owner=True)
    with TestClient(app, client=("127.0.0.1", 50000)) as client:
        new_identity(client)
        assert client.get(f"/sheets/{sid}/follow/{secret}").status_code == 200
        page = client.get("/sheets").text
        assert page.count(f'href="/sheets/{sid}"') == 1 and 'id="shared-list"' not in page
