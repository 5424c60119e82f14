"""My statistics on "my games" (/history): the deals of the seats this browser's identity
held, the points lost per card over the deals analysed in the background, the charts
by week; nothing of another identity's seats."""

from __future__ import annotations

import dataclasses
import re
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest

from belote.analysis import analyze_deal
from belote.analysis_cache import DD_ONLY, cached_analysis, card_losses, scored_deals
from belote.history import GameSummary, Player, get_game, stats
from belote.web import create_app
from belote.web.security import COOKIE
from tests.web.conftest import FAST, GENEROUS
from tests.web.support import TestClient
from tests.web.test_history_web import Browser, me, play_out

QUIET = dataclasses.replace(FAST, background_analyses=False)


def panel(text: str) -> str:
    """The stats panel of a /history page ('' when there is none)."""
    found = re.search(r'<section class="panel" id="my-stats".*?</section>', text, re.S)
    return found.group(0) if found else ""


def cell(text: str, label: str) -> str:
    found = re.search(rf'<th scope="row">{re.escape(label)}</th>\s*<td>([^<]*)', text)
    assert found, label
    return found.group(1).strip()


def kept(db: Path, game: str) -> Any:
    """The game as the history keeps it: the page that summed it up handed it to the
    writer thread, nobody waiting, so it is read again until the thread has written it."""
    deadline = time.monotonic() + 30  # a bound for a stuck thread, not a speed
    conn = sqlite3.connect(db)
    try:
        while (found := get_game(conn, game)) is None and time.monotonic() < deadline:
            time.sleep(0.05)
        return found
    finally:
        conn.close()


def all_analysed(ann: Any, filler: Any, total: int) -> str:
    """Once the background filler has no deal waiting, the statistics panel as soon as
    it counts all ``total`` deals analysed (their numbers go through the writer thread)."""
    deadline = time.monotonic() + 300  # a bound for a stuck thread, not a speed
    while filler.waiting() and time.monotonic() < deadline:
        time.sleep(0.2)
    assert filler.waiting() == 0
    deadline = time.monotonic() + 30  # the writes queued to the writer thread
    later = ""
    while time.monotonic() < deadline:
        later = panel(ann.get("/history").text)
        if f"over {total} deals analysed out of {total}" in later:
            break
        time.sleep(0.2)
    assert f"over {total} deals analysed out of {total}" in later
    return later


def test_my_stats_count_my_seats_only(db: Path) -> None:
    """Ann and Bob share a game of three (each his own score column) and Ann plays one
    alone: each panel counts only his identity's seats, by the same numbers as
    `stats`; a browser without a game or without an identity has no panel."""
    app = create_app(db, settings=QUIET, seed=11, limits=GENEROUS)
    with TestClient(app) as client:
        ann, bob = Browser(client), Browser(client)
        shared = play_out(ann, {0: me(ann), 1: me(bob)}, profile="classic-3p",
                          options={"three_deal": "six_each"})
        own = play_out(ann, {2: me(ann)})
        ann_page, bob_page = ann.get("/history").text, bob.get("/history").text
        cara = Browser(client)
        assert panel(cara.get("/history").text) == ""
        cara.clear()
        assert panel(cara.get("/history").text) == ""
    games = {g: kept(db, g) for g in (shared, own)}
    expected = {}
    for name, seats in (("ann", {(shared, "N"), (own, "S")}), ("bob", {(shared, "E")})):
        def who(g: GameSummary, p: Player, s: set[tuple[str, str]] = seats
                ) -> tuple[str, str] | None:
            return ("human", "me") if (g.id, p.seat) in s else None

        expected[name] = stats(games.values(), {}, who=who)[0]
    for name, page in (("ann", ann_page), ("bob", bob_page)):
        text, row = panel(page), expected[name]
        assert cell(text, "Deals played") == str(row["deals"])
        assert cell(text, "Contracts taken") == str(row["taken"])
        assert cell(text, "Contracts made") == str(row["made"])
        assert cell(text, "Points per deal") == f"{row['points_per_deal']:.1f}"
        assert f"average over 0 deals analysed out of {row['deals']}" in text
        assert text.count("<svg") == 1 and "Points per deal, by week" in text
    # Bob's numbers are not Ann's: his one seat of the shared game
    assert expected["bob"]["deals"] == len(
        [d for d in games[shared].deals if d.result["outcome"] != "void"])
    assert expected["ann"]["deals"] > expected["bob"]["deals"]
    assert expected["ann"]["points"] != expected["bob"]["points"] or \
        expected["ann"]["deals"] != expected["bob"]["deals"]


def test_the_deals_are_analysed_in_the_background_and_counted(db: Path) -> None:
    """The page analyses nothing: its first visit hands the deals to the background
    analyses, a later visit counts them, with analysis.py's own numbers."""
    app = create_app(db, settings=FAST, seed=11, limits=GENEROUS)
    with TestClient(app) as client:
        ann = Browser(client)
        game = play_out(ann, {2: me(ann)}, options={"target": 300})
        first = panel(ann.get("/history").text)
        total = int(cell(first, "Deals played"))
        filler = app.state.analysis_filler
        later = all_analysed(ann, filler, total)
        assert later.count("<svg") == 2 and "Points lost per card, by week" in later
    summary = kept(db, game)
    conn = sqlite3.connect(db)
    lost = cards = 0.0
    for record in scored_deals([summary]):
        analysis = cached_analysis(conn, record, DD_ONLY)
        assert analysis == analyze_deal(record, seats=[]).to_json()
        got = card_losses(analysis, 2)
        lost, cards = lost + got[0], cards + got[1]
    conn.close()
    assert cell(later, "Points lost per card, every hand known").split("<")[0].strip() \
        == f"{round(lost / cards, 3):.2f}"


def test_another_identity_sees_none_of_my_numbers(db: Path) -> None:
    """Bob's panel is only his game's; a forged cookie carrying Ann's identity gets no
    panel; the background analyses are handed only the deals of the visitor's games."""
    app = create_app(db, settings=QUIET, seed=11, limits=GENEROUS)
    with TestClient(app) as client:
        ann, bob = Browser(client), Browser(client)
        play_out(ann, {2: me(ann)}, options={"target": 500})
        bobs = play_out(bob, {0: me(bob)})
        bob_page = panel(bob.get("/history").text)
        game = kept(db, bobs)
        row = stats([game], {}, who=lambda g, p: ("human", "me") if p.seat == "N" else None)[0]
        others = stats([game], {}, who=lambda g, p: ("human", p.seat) if p.seat != "N" else None)
        assert all(o["points_per_deal"] != row["points_per_deal"] for o in others
                   if o["name"] in "EW")  # the other side's seats: other numbers
        assert cell(bob_page, "Deals played") == str(row["deals"])
        assert cell(bob_page, "Points per deal") == f"{row['points_per_deal']:.1f}"
        assert cell(bob_page, "Contracts taken") == str(row["taken"])
        bob.cookies.set(COOKIE, me(ann) + ".forged")
        assert panel(bob.get("/history").text) == ""


@pytest.mark.parametrize("width", [390, 360])
def test_the_panel_on_a_phone_in_french(browser: Any, tmp_path: Path, width: int) -> None:
    """At 390×844 (and 360 wide), in French: the panel and its charts shown, no axe
    violation, nothing wider than the screen."""
    from tests.web.support import live_server
    from tests.web.test_accessibility import violations

    db = tmp_path / "sheets.db"
    app = create_app(db, settings=QUIET, seed=11, limits=GENEROUS)
    with TestClient(app) as client:
        ann = Browser(client)
        play_out(ann, {2: me(ann)}, profile="coinche", options={"target": 300})
        play_out(ann, {1: me(ann)}, profile="classic-2p")
    with live_server(db) as url:
        context = browser.new_context(viewport={"width": width, "height": 844}, locale="fr-FR")
        host = url.split("//", 1)[1].split(":")[0]
        context.add_cookies([{"name": COOKIE, "value": str(ann.cookie), "domain": host,
                              "path": "/"}])
        page = context.new_page()
        page.goto(url + "/history")
        stats_panel = page.locator("#my-stats")
        assert stats_panel.is_visible()
        assert "Mes statistiques" in stats_panel.inner_text()
        assert "perte moyenne sur" in stats_panel.inner_text()
        assert page.locator("#my-stats svg.chart").count() >= 1
        found = violations(page)
        wide = "() => document.documentElement.scrollWidth > window.innerWidth"
        assert not page.evaluate(wide)
        context.close()
    assert found == [], "\n".join(found)


def test_the_background_analyses_are_bounded_and_stop_with_the_store(tmp_path: Path) -> None:
    """A deal is queued once; no more than the bound wait; a deal the analysis refuses
    is not asked again; the thread ends when the store closes."""
    from belote.analysis_cache import deal_hash
    from belote.bots import make_bot
    from belote.bots.base import play_game
    from belote.options import make_rules
    from belote.web.analysis_fill import AnalysisFiller
    from belote.web.store import RoomStore

    bots = [make_bot("random", seed=i) for i in range(4)]
    match = play_game(make_rules("classic", {"target": 1000}), bots, seed=2)
    records = [r.record() for r in match.rounds[:3]]
    assert len(records) == 3
    store = RoomStore(tmp_path / "s.db")
    try:
        bad = {**records[0], "deck": records[0]["deck"][::-1]}  # a card played not held
        filler = AnalysisFiller(store, max_queued=2)
        assert filler.want([bad, records[0], records[1]]) == 2
        assert filler.want([records[0]]) == 0  # waiting already
        deadline = time.monotonic() + 300  # a bound for a stuck thread, not a speed
        while filler.waiting() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert filler.want([bad]) == 0  # refused once: not asked again
        assert filler.want([records[0], records[2]]) == 1  # analysed: not again
        thread = filler._thread
        assert thread is not None
    finally:
        store.close()
    thread.join(timeout=30)
    assert not thread.is_alive()
    conn = sqlite3.connect(tmp_path / "s.db")
    kept = {row[0] for row in conn.execute("SELECT deal FROM analysis_cache")}
    conn.close()
    assert deal_hash(records[0]) in kept and deal_hash(bad) not in kept


def test_the_background_analyses_run_in_another_process(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """The search holds the interpreter's lock: it must not run in the server's own
    process.  Here the server's copy of the analysis is broken; the child's is not."""
    from belote import analysis_cache
    from belote.analysis_cache import deal_hash
    from belote.bots import make_bot
    from belote.bots.base import play_game
    from belote.options import make_rules
    from belote.web import analysis_fill, analysis_worker
    from belote.web.store import RoomStore

    def broken(*args: object, **kwargs: object) -> None:
        raise AssertionError("analysed in the server's process")

    monkeypatch.setattr(analysis_cache, "analyse", broken)
    monkeypatch.setattr(analysis_worker, "analyse", broken)
    bots = [make_bot("random", seed=i) for i in range(4)]
    match = play_game(make_rules("classic", {"target": 1000}), bots, seed=3)
    record = match.rounds[0].record()
    store = RoomStore(tmp_path / "s.db")
    try:
        filler = analysis_fill.AnalysisFiller(store)
        assert filler.want([record]) == 1
        deadline = time.monotonic() + 300  # a bound for a stuck child, not a speed
        while filler.waiting() and time.monotonic() < deadline:
            time.sleep(0.1)
        store.writer.post(lambda conn: None)
    finally:
        store.close()
    conn = sqlite3.connect(tmp_path / "s.db")
    kept = {row[0] for row in conn.execute("SELECT deal FROM analysis_cache")}
    conn.close()
    assert deal_hash(record) in kept


def test_the_statistics_keep_their_numbers_past_the_caches_bound(db: Path) -> None:
    """With a cache that keeps one analysis, the background analyses still cover every
    deal: each analysis's numbers stay when it is dropped, the panel counts them all
    with the same result, and no deal is handed to the analyses again."""
    tight = dataclasses.replace(FAST, analysis_cache_bytes=1.0)
    app = create_app(db, settings=tight, seed=11, limits=GENEROUS)
    with TestClient(app) as client:
        ann = Browser(client)
        game = play_out(ann, {2: me(ann)}, options={"target": 300})
        total = int(cell(panel(ann.get("/history").text), "Deals played"))
        filler = app.state.analysis_filler
        assert filler.cache_bytes == 1
        later = all_analysed(ann, filler, total)
        assert filler.waiting() == 0  # nothing asked again
    conn = sqlite3.connect(db)
    assert conn.execute("SELECT COUNT(*) FROM analysis_cache").fetchone()[0] == 1
    conn.close()
    lost = cards = 0.0
    for record in scored_deals([kept(db, game)]):
        got = card_losses(analyze_deal(record, seats=[]).to_json(), 2)
        lost, cards = lost + got[0], cards + got[1]
    assert cell(later, "Points lost per card, every hand known").split("<")[0].strip() \
        == f"{round(lost / cards, 3):.2f}"
