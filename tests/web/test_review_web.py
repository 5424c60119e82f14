"""The review of a finished deal (/review/{game}/{deal}): who may see it (a seat of the
game, or the deal's share link; never a deal still played), its analysis worked out in
another process and kept in the database (a second visit and a restart answer at once),
the limits on analyses, the share links."""

from __future__ import annotations

import asyncio
import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from belote import analysis_cache
from belote.bots import make_bot
from belote.bots.base import next_action
from belote.game import Match
from belote.options import make_rules
from belote.table import Phase
from belote.web import create_app, routes_review
from belote.web import review as review_module
from belote.web.analysis_worker import AnalysisProcess, AnalysisRefused, AnalysisStopped
from belote.web.review import ReviewBusy, Reviews, ReviewSettings
from belote.web.seats import RoomStatus, Visibility
from belote.web.security import COOKIE
from belote.web.store import RoomStore
from tests.web.conftest import FAST, GENEROUS
from tests.web.support import TestClient
from tests.web.test_history_web import Browser, me, play_out
from tests.web.test_refusal_codes_web import _form_error, _reworded

QUICK = ReviewSettings(worlds=2)  # the server's settings in these tests: quick


class Player(Browser):
    """A browser that also posts (with its own CSRF token, as its pages do)."""

    def __init__(self, client: TestClient) -> None:
        super().__init__(client)
        self.client.cookies.set(COOKIE, str(self.cookie))
        self.token = str(client.get("/api/session").json()["csrf"])

    def post(self, path: str) -> Any:
        self.client.cookies.clear()
        if self.cookie is not None:
            self.client.cookies.set(COOKIE, self.cookie)
        return self.client.post(path, headers={"X-CSRF-Token": self.token})


@pytest.fixture
def two(db: Path) -> Iterator[tuple[Player, Player]]:
    app = create_app(db, settings=FAST, seed=11, limits=GENEROUS)
    app.state.reviews.settings = QUICK
    with TestClient(app) as client:
        yield Player(client), Player(client)


def analysed(player: Player, path: str) -> dict[str, Any]:
    """Start the analysis of the review at ``path`` and wait for it (a generous bound:
    a few seconds on an idle machine)."""
    started = player.post(f"{path}/analysis")
    assert started.status_code == 202, started.text
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        state = player.get(f"{path}/analysis").json()
        if state["state"] == "done":
            return dict(state["analysis"])
        assert state["state"] in ("waiting", "running"), state
        time.sleep(0.2)
    raise AssertionError("the analysis did not end")


def played_deal(seed: int) -> dict[str, Any]:
    match = Match(make_rules("classic"), seed=seed)
    rnd = match.new_round()
    bot = make_bot("random", seed=seed)  # seeded too: the same deal every run
    while rnd.phase not in (Phase.OVER, Phase.ALL_PASS):
        rnd.apply(next_action(bot, rnd.view(rnd.current_player())))
    return rnd.record()


def test_a_seat_reviews_a_finished_deal_analysed_once(two: tuple[Player, Player], db: Path) -> None:
    ann, bob = two
    game = play_out(ann, {0: me(ann), 2: me(bob)})
    path = f"/review/{game}/1"
    page = ann.get(path)
    assert page.status_code == 200
    assert 'id="review-data"' in page.text and "no-store" in page.headers["cache-control"]
    assert ann.get(f"{path}/analysis").json() == {"state": "none"}
    result = analysed(ann, path)
    assert result["finished"] and result["worlds"] == QUICK.worlds  # the server's settings
    record = ann.client.app.state.reviews.find_deal(game, 1).record  # type: ignore[attr-defined]
    assert len(result["cards"]) == sum("card" in a for a in record["actions"])
    # kept: Bob's visit is answered at once, the page carries it
    assert bob.get(f"{path}/analysis").json() == {"state": "done", "analysis": result}
    assert '"verdict"' in bob.get(path).text
    assert "Review of deal 1" in page.text  # English unless the browser asks for French
    # the history's page of the game links each deal's review
    assert f'href="{path}"' in ann.get(f"/history/{game}").text
    ann.client.app.state.reviews.close()  # type: ignore[attr-defined]
    # a restart keeps it: the same analysis, nothing started
    again = create_app(db, settings=FAST, seed=11, limits=GENEROUS)
    again.state.reviews.settings = QUICK
    with TestClient(again) as client:
        client.cookies.set(COOKIE, str(ann.cookie))
        assert client.get(f"{path}/analysis").json() == {"state": "done", "analysis": result}
        assert again.state.reviews.jobs == {}


def test_a_client_cannot_choose_the_settings(two: tuple[Player, Player]) -> None:
    ann, _bob = two
    game = play_out(ann, {2: me(ann)})
    path = f"/review/{game}/1"
    answer = ann.post(f"{path}/analysis?worlds=500&seed=9&seats=N")
    assert answer.status_code == 202
    jobs = list(ann.client.app.state.reviews.jobs.values())  # type: ignore[attr-defined]
    assert len(jobs) == 1
    key = ann.client.app.state.reviews.key_of(jobs[0].record)  # type: ignore[attr-defined]
    assert key == (f"{analysis_cache.deal_hash(jobs[0].record)}/"
                   f"{QUICK.analysis_settings().key()}")
    analysed(ann, path)


def _same_404(answer: Any) -> None:
    assert answer.status_code == 404
    assert "review-data" not in answer.text and "deck" not in answer.text
    assert "hands" not in answer.text


def test_who_may_not_review(two: tuple[Player, Player]) -> None:
    """Another browser, no cookie, a forged cookie, a forged or replaced key, malformed
    ids and deal numbers: 404, the page, its analysis and its link alike."""
    ann, bob = two
    game = play_out(ann, {2: me(ann)})
    path = f"/review/{game}/1"
    assert ann.get(path).status_code == 200
    for suffix in ("", "/analysis"):
        _same_404(bob.get(path + suffix))
    for suffix in ("/analysis", "/link", "/link/revoke"):
        _same_404(bob.post(path + suffix))
    cookie = bob.cookie
    bob.cookies.clear()  # no cookie at all
    _same_404(bob.get(path))
    bob.cookies.set(COOKIE, me(ann) + ".forged")  # Ann's identity, not signed by the server
    _same_404(bob.get(path))
    bob.cookies.set(COOKIE, str(cookie))
    secret = ann.post(f"{path}/link").json()["link"].split("key=")[1]
    assert bob.get(f"{path}?key={secret}").status_code == 200
    forged = ("A" * len(secret), secret[:-1], secret + "x", "", "%00")
    for key in forged:
        _same_404(bob.get(f"{path}?key={key}"))
        _same_404(bob.get(f"{path}/analysis?key={key}"))
    # the key opens that deal only, of that game only, and never makes links
    other = play_out(ann, {2: me(ann)})
    _same_404(bob.get(f"/review/{other}/1?key={secret}"))
    _same_404(bob.get(f"/review/{game}/2?key={secret}"))
    _same_404(bob.post(f"{path}/link?key={secret}"))
    _same_404(bob.post(f"{path}/link/revoke?key={secret}"))
    # a new link replaces the old one; a revoked link opens nothing
    newer = ann.post(f"{path}/link").json()["link"].split("key=")[1]
    assert newer != secret
    _same_404(bob.get(f"{path}?key={secret}"))
    assert bob.get(f"{path}?key={newer}").status_code == 200
    assert ann.post(f"{path}/link/revoke").status_code == 200
    _same_404(bob.get(f"{path}?key={newer}"))
    for bad in (f"/review/{game}/0", f"/review/{game}/-1", f"/review/{game}/abc",
                f"/review/{game}/99999", f"/review/{game}/1.5", "/review/..%2F..%2Fetc/1",
                f"/review/{'a' * 300}/1", "/review/x%20y/1", "/review/doesnotexist1/1"):
        _same_404(ann.get(bad))
        _same_404(ann.get(bad + "/analysis"))


def test_the_rooms_invitation_opens_its_finished_deals(two: tuple[Player, Player]) -> None:
    """Whoever was invited to the room (its invitation, as its link carries it) may
    review its finished deals, never make a share link; a wrong or another room's
    invitation opens nothing."""
    ann, bob = two
    game = play_out(ann, {2: me(ann)})
    other = play_out(ann, {2: me(ann)})
    rooms = ann.client.app.state.rooms.rooms  # type: ignore[attr-defined]
    invite, foreign = rooms[game].invite, rooms[other].invite
    assert invite and foreign and invite != foreign
    page = bob.get(f"/review/{game}/1?invite={invite}")
    assert page.status_code == 200
    assert f"/analysis?invite={invite}" in page.text  # the script asks with it
    assert bob.get(f"/review/{game}/1/analysis?invite={invite}").json() == {"state": "none"}
    for wrong in (foreign, invite[:-1], invite + "x", "A" * len(invite), ""):
        _same_404(bob.get(f"/review/{game}/1?invite={wrong}"))
        _same_404(bob.get(f"/review/{game}/1/analysis?invite={wrong}"))
    _same_404(bob.post(f"/review/{game}/1/link?invite={invite}"))


def test_a_deal_in_progress_is_nobodys_to_review(two: tuple[Player, Player]) -> None:
    """Not even its players see a deal still played: no hand, no analysis."""
    ann, bob = two
    game = play_out(ann, {2: me(ann)}, options={"target": 1000}, finish=False)
    manager = ann.client.app.state.rooms  # type: ignore[attr-defined]
    room = manager.rooms[game]
    portal = ann.client.portal
    assert portal is not None
    portal.call(room.next_deal)  # deal 2 dealt: under way
    deck = room.round.record()["deck"]
    assert ann.get(f"/review/{game}/1").status_code == 200  # deal 1 is over
    for answer in (ann.get(f"/review/{game}/2"), ann.get(f"/review/{game}/2/analysis"),
                   ann.post(f"/review/{game}/2/analysis"), ann.post(f"/review/{game}/2/link")):
        assert answer.status_code == 403, answer.text
        assert "review-data" not in answer.text
        assert not any(f'"{card}"' in answer.text for card in deck)
        assert "still being played" in answer.text
    _same_404(bob.get(f"/review/{game}/2"))
    invited = bob.get(f"/review/{game}/2?invite={room.invite}")
    assert invited.status_code == 403 and not any(f'"{card}"' in invited.text for card in deck)
    _same_404(ann.get(f"/review/{game}/3"))  # not dealt yet


def test_french_refusal_and_page(two: tuple[Player, Player]) -> None:
    ann, _bob = two
    game = play_out(ann, {2: me(ann)}, options={"target": 1000}, finish=False)
    room = ann.client.app.state.rooms.rooms[game]  # type: ignore[attr-defined]
    portal = ann.client.portal
    assert portal is not None
    portal.call(room.next_deal)
    ann.client.headers["Accept-Language"] = "fr-FR"
    try:
        assert "Revue de la donne 1" in ann.get(f"/review/{game}/1").text
        assert "se joue encore" in ann.get(f"/review/{game}/2").text
        assert "se joue encore" in ann.get(f"/review/{game}/2/analysis").json()["error"]
    finally:
        del ann.client.headers["Accept-Language"]


# --- the service: limits and cache ------------------------------------------------------


def test_limits_one_analysis_per_browser_and_a_small_queue(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """One analysis a browser at a time; ``running`` + ``waiting`` at most; the same
    deal asked twice is one analysis; the answer is kept."""
    release = threading.Event()
    ran: list[dict[str, Any]] = []

    def fake_run(self: Any, record: dict[str, Any], settings: Any,
                 progress: Any, cancelled: Any = None) -> dict[str, Any]:
        progress(1, 2)
        release.wait(30)
        ran.append(record)
        return {"cards": [], "dealer": record["dealer"]}

    monkeypatch.setattr(AnalysisProcess, "run", fake_run)
    store = RoomStore(tmp_path / "r.db")
    reviews = Reviews(store, ReviewSettings(running=1, waiting=1))
    one, two_, three = played_deal(1), played_deal(2), played_deal(3)

    async def scenario() -> None:
        first = reviews.start("ann", one)
        with pytest.raises(ReviewBusy, match="one analysis at a time"):
            reviews.start("ann", two_)
        assert reviews.start("bob", one) is first  # the same deal: the same analysis
        reviews.start("bob", two_)
        with pytest.raises(ReviewBusy, match="busy"):
            reviews.start("cat", three)
        await asyncio.sleep(0.05)
        assert first.state == "running" and (first.done, first.total) == (1, 2)
        assert reviews.job(two_).state == "waiting"  # type: ignore[union-attr]
        release.set()
        while any(j.active for j in reviews.jobs.values()):
            await asyncio.sleep(0.01)
        reviews.start("cat", three)  # room again
        while any(j.active for j in reviews.jobs.values()):
            await asyncio.sleep(0.01)

    asyncio.run(scenario())
    assert [r["dealer"] for r in ran] == [one["dealer"], two_["dealer"], three["dealer"]]
    assert reviews.cached(one) == {"cards": [], "dealer": one["dealer"]}
    reviews.close()
    store.close()


def test_the_analysis_runs_in_another_process(tmp_path: Path) -> None:
    """The real worker: a process of its own answers the analysis and its progress, and
    is kept for the next one; a refused record is said as such and the child goes on;
    a child stopped ends the analysis under way, and makes no other."""
    steps: list[tuple[int, int]] = []
    record = played_deal(4)
    process = AnalysisProcess()
    try:
        out = process.run(record, ReviewSettings(dd_only=True).analysis_settings(),
                          lambda d, t: steps.append((d, t)))
        child = process.process
        assert child is not None and child.pid != os.getpid()
        assert steps[-1] == (len(record["actions"]), len(record["actions"]))
        assert out["seats"] == [] and out["finished"]
        bad = {**record, "deck": record["deck"][::-1]}  # a card played that is not held
        with pytest.raises(AnalysisRefused):
            process.run(bad, analysis_cache.DD_ONLY)
        again = process.run(played_deal(5), analysis_cache.DD_ONLY)
        assert again["finished"] and process.process is child  # the same child
        with pytest.raises(AnalysisStopped):  # cancelled while it works: killed
            process.run(record, ReviewSettings(worlds=2).analysis_settings(),
                        cancelled=lambda: True)
        assert not child.is_alive() and process.process is None
        process.stop()  # the server stops: no analysis after
        with pytest.raises(AnalysisStopped, match="stopping"):
            process.run(record, analysis_cache.DD_ONLY)
        assert process.process is None
    finally:
        process.stop()


def test_cache_key_is_the_deal_and_the_settings(tmp_path: Path) -> None:
    """The review keeps its analyses in the core's cache (the statistics read it too),
    under the deal and the server's settings: other worlds are another analysis."""
    import dataclasses
    import sqlite3

    record = played_deal(5)
    asked = QUICK.analysis_settings()
    conn = sqlite3.connect(tmp_path / "c.db")
    analysis_cache.setup(conn)
    assert analysis_cache.cached_analysis(conn, record, asked) is None
    analysis_cache.store_analysis(conn, record, asked, {"a": 1})
    assert analysis_cache.cached_analysis(conn, record, asked) == {"a": 1}
    shuffled = dict(reversed(list(record.items())))
    assert analysis_cache.cached_analysis(conn, shuffled, asked) == {"a": 1}
    other = dataclasses.replace(QUICK, worlds=(QUICK.worlds or 16) + 1).analysis_settings()
    assert analysis_cache.cached_analysis(conn, record, other) is None
    assert analysis_cache.cached_analysis(conn, played_deal(6), asked) is None


def test_a_failed_analysis_says_so_and_may_be_asked_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from belote.errors import BeloteError

    def broken(self: Any, record: dict[str, Any], settings: Any,
               progress: Any, cancelled: Any = None) -> dict[str, Any]:
        raise BeloteError("the analysis stopped before its end")

    monkeypatch.setattr(AnalysisProcess, "run", broken)
    store = RoomStore(tmp_path / "r.db")
    reviews = Reviews(store, ReviewSettings())
    record = played_deal(7)

    async def scenario() -> None:
        job = reviews.start("ann", record)
        assert job.task is not None
        await job.task
        assert job.state == "failed" and job.error
        assert reviews.cached(record) is None
        again = reviews.start("ann", record)  # not counted as under way
        assert again is not job
        assert again.task is not None
        await again.task

    asyncio.run(scenario())
    reviews.close()
    store.close()


@pytest.mark.parametrize(("profile", "options"), [
    ("classic", {}), ("coinche", {}), ("classic-3p", {"three_deal": "kitty"}),
    ("classic-2p", {"two_deal": "decouverte"})])
def test_the_page_replays_every_card_from_the_hands(profile: str, options: dict[str, Any]) -> None:
    """Each step shows the hands as they were: the card played is in its player's hand,
    the trick on the table is the cards before it, each trick ends with its taker."""
    match = Match(make_rules(profile, options), seed=3)
    rnd = match.new_round()
    bot = make_bot("random", seed=3)  # seeded too: the same deal every run
    while rnd.phase not in (Phase.OVER, Phase.ALL_PASS):
        rnd.apply(next_action(bot, rnd.view(rnd.current_player())))
    replay = review_module.replay_steps(rnd.record())
    steps = replay["steps"]
    assert len(steps) == sum(len(t.cards) for t in rnd.tricks)
    assert len(replay["calls"]) == len(rnd.calls)
    for i, st in enumerate(steps):
        assert st["card"] in st["hands"][st["seat"]]
        assert all(st["card"] not in cards for seat, cards in st["hands"].items()
                   if seat != st["seat"])
        first = i == 0 or "winner" in steps[i - 1]
        assert (st["table"] == []) == first
    assert [st["winner"] for st in steps if "winner" in st] == [
        "NESW"[t.winner] for t in rnd.tricks]


def test_the_page_sees_the_progress_and_is_told_to_try_later(
        two: tuple[Player, Player], monkeypatch: pytest.MonkeyPatch) -> None:
    """Over HTTP: the analysis's progress while it runs; a second analysis of the same
    browser, and one beyond the queue, refused with 429 and words to try later."""
    release = threading.Event()

    def slow(self: Any, record: dict[str, Any], settings: Any,
             progress: Any, cancelled: Any = None) -> dict[str, Any]:
        progress(3, 40)
        release.wait(30)
        return {"cards": [], "summary": []}

    monkeypatch.setattr(AnalysisProcess, "run", slow)
    ann, bob = two
    ann.client.app.state.reviews.settings = ReviewSettings(  # type: ignore[attr-defined]
        worlds=2, running=1, waiting=0)
    game = play_out(ann, {0: me(ann), 2: me(bob)})
    other = play_out(ann, {0: me(ann), 2: me(bob)})
    try:
        assert ann.post(f"/review/{game}/1/analysis").status_code == 202
        deadline = time.monotonic() + 30
        while (state := ann.get(f"/review/{game}/1/analysis").json())["done"] != 3:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        assert state == {"state": "running", "done": 3, "total": 40, "error": None}
        mine = ann.post(f"/review/{other}/1/analysis")
        assert mine.status_code == 429 and "One analysis at a time" in mine.json()["error"]
        full = bob.post(f"/review/{other}/1/analysis")
        assert full.status_code == 429 and "try again in a minute" in full.json()["error"]
        assert bob.post(f"/review/{game}/1/analysis").status_code == 202  # the same one
    finally:
        release.set()
    deadline = time.monotonic() + 30
    while ann.get(f"/review/{game}/1/analysis").json()["state"] != "done":
        assert time.monotonic() < deadline
        time.sleep(0.05)
    assert bob.post(f"/review/{other}/1/analysis").status_code == 202  # room again


# Each refusal of the review, by code, and its French (docs/json.md).
REVIEW_FRENCH = {
    "deal_in_play": "Cette donne se joue encore : sa revue s'ouvre quand elle est finie.",
    "no_page": "Cette adresse ne mène à aucune page.",
    "no_identity": "Rechargez d'abord la page : ce navigateur n'a pas encore d'identité.",
    "one_analysis_at_a_time":
        "Une analyse à la fois : attendez la fin de celle en cours, puis réessayez.",
    "analyses_busy": "Le serveur analyse d'autres donnes : réessayez dans une minute.",
}


def _review_refusals(ann: Player, bob: Player, games: dict[str, str],
                     monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """What the review's pages (status, message) and its JSON answers (status, body)
    say to each of its refusals."""
    done, playing, other = games["done"], games["playing"], games["other"]
    out: dict[str, Any] = {}
    for name, answer in (("in play page", ann.get(f"/review/{playing}/2")),
                         ("no page", bob.get(f"/review/{done}/1"))):
        out[name] = (answer.status_code, _form_error(answer.text))
    for name, answer in (
            ("in play state", ann.get(f"/review/{playing}/2/analysis")),
            ("in play start", ann.post(f"/review/{playing}/2/analysis")),
            ("in play link", ann.post(f"/review/{playing}/2/link")),
            ("no page state", bob.get(f"/review/{done}/1/analysis")),
            ("no page link", bob.post(f"/review/{done}/1/link")),
            ("no page revoke", bob.post(f"/review/{done}/1/link/revoke")),
            ("no page deal", ann.get(f"/review/{done}/0/analysis")),
            ("mine busy", ann.post(f"/review/{other}/1/analysis")),
            ("server busy", bob.post(f"/review/{other}/1/analysis"))):
        out[name] = (answer.status_code, answer.json())
    # a request that passed the CSRF check without an identity (the share link opens
    # the deal): starting the analysis is refused
    key = ann.post(f"/review/{done}/1/link").json()["link"].split("key=")[1]
    with monkeypatch.context() as patch:
        patch.setattr(routes_review, "identity", lambda request: None)
        answer = bob.post(f"/review/{done}/1/analysis?key={key}")
    out["no identity"] = (answer.status_code, answer.json())
    return out


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_the_reviews_refusals_are_said_from_their_codes(
        two: tuple[Player, Player], monkeypatch: pytest.MonkeyPatch, lang: str) -> None:
    """Each refusal of the review carries its code in its JSON answer (docs/json.md),
    its words in the reader's language, its status as before; rewording every English
    message (errors.REFUSAL_ENGLISH) changes nothing a page or an answer says."""
    release = threading.Event()

    def slow(self: Any, record: dict[str, Any], settings: Any,
             progress: Any, cancelled: Any = None) -> dict[str, Any]:
        release.wait(30)
        return {"cards": [], "summary": []}

    monkeypatch.setattr(AnalysisProcess, "run", slow)
    ann, bob = two
    ann.client.app.state.reviews.settings = ReviewSettings(  # type: ignore[attr-defined]
        worlds=2, running=1, waiting=0)
    games = {"done": play_out(ann, {0: me(ann)}),
             "other": play_out(ann, {0: me(ann), 2: me(bob)}),
             "playing": play_out(ann, {0: me(ann)}, options={"target": 1000}, finish=False)}
    room = ann.client.app.state.rooms.rooms[games["playing"]]  # type: ignore[attr-defined]
    portal = ann.client.portal
    assert portal is not None
    portal.call(room.next_deal)  # deal 2 under way
    ann.client.headers["Accept-Language"] = lang
    try:
        assert ann.post(f"/review/{games['done']}/1/analysis").status_code == 202
        before = _review_refusals(ann, bob, games, monkeypatch)
        codes = {name: body["code"] for name, (_, body) in before.items()
                 if isinstance(body, dict)}
        assert codes == {
            "in play state": "deal_in_play", "in play start": "deal_in_play",
            "in play link": "deal_in_play", "no page state": "no_page",
            "no page link": "no_page", "no page revoke": "no_page", "no page deal": "no_page",
            "mine busy": "one_analysis_at_a_time", "server busy": "analyses_busy",
            "no identity": "no_identity"}
        statuses = {name: status for name, (status, _) in before.items()}
        assert statuses == {
            "in play page": 403, "no page": 404, "in play state": 403, "in play start": 403,
            "in play link": 403, "no page state": 404, "no page link": 404,
            "no page revoke": 404, "no page deal": 404, "mine busy": 429,
            "server busy": 429, "no identity": 403}
        said = {name: body["error"] if isinstance(body, dict) else body
                for name, (_, body) in before.items()}
        assert said["in play page"] == said["in play state"]
        assert said["no page"] == said["no page state"]
        if lang == "fr":
            assert {name: REVIEW_FRENCH[code] for name, code in codes.items()} == {
                name: said[name] for name in codes}
            assert said["in play page"] == REVIEW_FRENCH["deal_in_play"]
            assert said["no page"] == REVIEW_FRENCH["no_page"]
        else:
            assert said["mine busy"] == (
                "One analysis at a time: wait for the one under way, then try again.")
            assert said["no page"] == "This address leads to no page."
        _reworded(monkeypatch)
        after = _review_refusals(ann, bob, games, monkeypatch)
        assert after == before
        assert "REWORDED" not in str(after)
    finally:
        del ann.client.headers["Accept-Language"]
        release.set()


def _room_of(player: Player, owner: str, visibility: Visibility, finish: bool = True) -> str:
    """A room of ``visibility`` where ``owner`` holds North, played by bots (to its end,
    or its first deal only, the second dealt and under way)."""
    manager = player.client.app.state.rooms  # type: ignore[attr-defined]

    async def scenario() -> str:
        room = await manager.create("classic", {"target": 150 if finish else 1000},
                                    bots="random", visibility=visibility, creator=owner)
        await room.join(0, "Ann", owner=owner)
        await room.start()
        bot = make_bot("random", seed=3)
        while room.status != RoomStatus.FINISHED:
            if room.between:
                await room.next_deal()
                if not finish:
                    break
                continue
            rnd = room.round
            assert rnd is not None
            await room.apply(rnd.current_player(), next_action(bot, rnd.view(rnd.current_player())))
        return str(room.id)

    portal = player.client.portal
    assert portal is not None
    return portal.call(scenario)


def test_a_public_rooms_finished_deals_are_anyones_to_review(
        two: tuple[Player, Player]) -> None:
    """Anyone could watch a public room live: anyone may review its finished deals,
    without its invitation and even without an identity; never a deal still played,
    never a share link of his own; starting the analysis still needs an identity."""
    ann, bob = two
    game = _room_of(ann, me(ann), Visibility.PUBLIC)
    path = f"/review/{game}/1"
    page = bob.get(path)
    assert page.status_code == 200 and 'id="review-data"' in page.text
    assert f"{path}/analysis\"" in page.text  # asked without a key or an invitation
    assert bob.get(f"{path}/analysis").json() == {"state": "none"}
    assert bob.post(f"{path}/analysis").status_code == 202
    _same_404(bob.post(f"{path}/link"))
    _same_404(bob.post(f"{path}/link/revoke"))
    _same_404(bob.get(f"/history/{game}"))  # the game's page stays its players'
    bob.cookies.clear()
    assert bob.get(path).status_code == 200
    assert bob.post(f"{path}/analysis").status_code == 403  # no identity, no CSRF token
    # a deal still played stays hidden, as from an invited watcher
    playing = _room_of(ann, me(ann), Visibility.PUBLIC, finish=False)
    room = ann.client.app.state.rooms.rooms[playing]  # type: ignore[attr-defined]
    deck = room.round.record()["deck"]
    for answer in (bob.get(f"/review/{playing}/2"), bob.get(f"/review/{playing}/2/analysis")):
        assert answer.status_code == 403 and "still being played" in answer.text
        assert not any(f'"{card}"' in answer.text for card in deck)
    assert bob.get(f"/review/{playing}/1").status_code == 200
    _same_404(bob.get(f"/review/{playing}/3"))


@pytest.mark.parametrize("visibility", [Visibility.PRIVATE, Visibility.INVITE])
def test_a_private_or_invited_rooms_outsiders_still_get_the_404(
        two: tuple[Player, Player], visibility: Visibility) -> None:
    """A table against bots and a room with friends: their outsiders see nothing, the
    answer the same as for a game that does not exist; the player still sees it."""
    ann, bob = two
    game = _room_of(ann, me(ann), visibility)
    path = f"/review/{game}/1"
    assert ann.get(path).status_code == 200
    for answer in (bob.get(path), bob.get(f"{path}/analysis"), bob.post(f"{path}/analysis")):
        _same_404(answer)
    bob.cookies.clear()
    _same_404(bob.get(path))


def test_the_servers_setting_bounds_the_reviews_cache(db: Path) -> None:
    import dataclasses

    tight = dataclasses.replace(FAST, analysis_cache_bytes=3.0 * 2**20)
    for settings, bound in ((tight, 3 * 2**20), (None, 128 * 2**20)):  # and the default
        app = create_app(db, settings=settings)
        with TestClient(app):
            assert app.state.reviews.cache_bytes == bound


def test_a_trimmed_deals_review_works_its_analysis_out_again(
        two: tuple[Player, Player], db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A review's visit notes when its analysis was read (the order the cache drops
    them in).  Past the cache's bound the analysis read longest ago is dropped: its
    review says there is none and works it out again when asked (the same answer); the
    statistics keep its numbers meanwhile."""
    import sqlite3

    monkeypatch.setattr(review_module, "TOUCH_EVERY_S", 0.0)
    ann, _bob = two
    reviews = ann.client.app.state.reviews  # type: ignore[attr-defined]
    game = play_out(ann, {2: me(ann)}, options={"target": 1000}, finish=False)
    portal = ann.client.portal
    assert portal is not None
    room = ann.client.app.state.rooms.rooms[game]  # type: ignore[attr-defined]
    first = analysed(ann, f"/review/{game}/1")
    record = reviews.find_deal(game, 1).record
    key = (analysis_cache.deal_hash(record), QUICK.analysis_settings().key())
    conn = sqlite3.connect(db)
    query = "SELECT read, created FROM analysis_cache WHERE deal = ? AND settings = ?"
    deadline = time.monotonic() + 30  # the note goes through the writer thread
    while (row := conn.execute(query, key).fetchone())[0] <= row[1]:
        assert time.monotonic() < deadline, "the review's visit was not noted"
        ann.get(f"/review/{game}/1")
        time.sleep(0.05)
    conn.close()
    reviews.cache_bytes = 1  # from now on only the analysis just written is kept
    portal.call(room.next_deal)  # deal 2 dealt: played by the bots to its end

    async def finish() -> None:
        bot = make_bot("random", seed=1)
        while not room.between:
            rnd = room.round
            await room.apply(rnd.current_player(), next_action(bot, rnd.view(rnd.current_player())))

    portal.call(finish)
    analysed(ann, f"/review/{game}/2")
    conn = sqlite3.connect(db)
    try:
        kept = {row[0] for row in conn.execute("SELECT deal FROM analysis_cache")}
        assert analysis_cache.deal_hash(record) not in kept and len(kept) == 1
        numbers = analysis_cache.losses_for_stats(conn, [analysis_cache.deal_hash(record)])
        assert numbers  # the statistics still count deal 1
    finally:
        conn.close()
    assert ann.get(f"/review/{game}/1/analysis").json() == {"state": "none"}
    assert analysed(ann, f"/review/{game}/1") == first


class _Crash:
    """Read back in the child, it ends the child at once (a crash under an analysis)."""

    def __reduce__(self) -> tuple[Any, tuple[int]]:
        return os._exit, (1,)


def test_a_child_that_dies_ends_its_analysis_and_the_next_gets_another() -> None:
    """The child dead under an analysis (a crash): that analysis says it stopped, the
    next one is answered by a new child."""
    process = AnalysisProcess()
    record = played_deal(4)
    try:
        with pytest.raises(AnalysisStopped, match="before its end"):
            process.run(record, _Crash())  # type: ignore[arg-type]
        assert process.process is None  # forgotten
        again = process.run(record, analysis_cache.DD_ONLY)
        assert again["finished"] and process.process is not None
        assert process.process.is_alive()
    finally:
        process.stop()
