"""The review of a deal in a real browser (Debian's chromium), on a 390×844 phone in
French: from the history's page of a finished game to a deal's review, its analysis
worked out with its progress shown, stepped through card by card (buttons, keyboard,
the list of tricks), a mistake marked; no sideways scroll, no axe-core violation; the
table's result panel offers the review.  The screenshots go to $BELOTE_SCREENSHOTS
when set (``BELOTE_SCREENSHOTS=docs/screenshots`` makes the README's)."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from belote.bots import make_bot
from belote.bots.base import next_action
from belote.web import create_app
from belote.web.review import ReviewSettings
from belote.web.room_manager import RoomManager
from belote.web.seats import RoomStatus, Visibility
from belote.web.security import COOKIE
from tests.web.conftest import FAST, GENEROUS
from tests.web.support import free_port, no_sideways_scroll
from tests.web.test_accessibility import violations

PHONE = {"width": 390, "height": 844}
WAIT_MS = 120_000  # the analysis, on a machine that may be busy and lack the compiled solver


class Server:
    """The app under uvicorn in a thread of this process (its review settings quick)."""

    def __init__(self, db: Path) -> None:
        import uvicorn

        self.app = create_app(db, settings=FAST, seed=5, limits=GENEROUS)
        self.app.state.reviews.settings = ReviewSettings(worlds=2)
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.server = uvicorn.Server(uvicorn.Config(self.app, host="127.0.0.1", port=self.port,
                                                    log_level="warning"))
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> Server:
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.05)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(30)

    def play_out(self, owner: str, profile: str = "classic") -> tuple[str, str]:
        """A game of ``profile`` where ``owner`` holds North, played by bots to its end;
        its id and North's token."""
        manager: RoomManager = self.app.state.rooms

        async def scenario() -> tuple[str, str]:
            room = await manager.create(profile, {"target": 150}, bots="random",
                                        visibility=Visibility.INVITE, creator=owner)
            token = await room.join(0, "Ana", owner=owner)
            await room.start()
            bot = make_bot("random", seed=5)  # seeded: the same game every run
            while room.status != RoomStatus.FINISHED:
                if room.between:
                    await room.next_deal()
                    continue
                rnd = room.round
                assert rnd is not None
                seat = rnd.current_player()
                await room.apply(seat, next_action(bot, rnd.view(seat)))
            return room.id, token

        loop = manager._loop
        assert loop is not None
        return asyncio.run_coroutine_threadsafe(scenario(), loop).result(60)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with Server(tmp_path_factory.mktemp("review") / "sheets.db") as s:
        yield s


def test_review_on_a_phone_in_french(browser: Any, server: Server, shots: Path) -> None:
    context = browser.new_context(viewport=PHONE, locale="fr-FR", device_scale_factor=1)
    page = context.new_page()
    try:
        page.goto(server.url + "/history")
        cookie = next(c["value"] for c in context.cookies() if c["name"] == COOKIE)
        game, token = server.play_out(cookie.split(".")[0])
        # the table's result panel offers the review of the deal
        page.goto(f"{server.url}/rooms/{game}#seat=N&token={token}")
        page.wait_for_selector("#review-deal", timeout=WAIT_MS)
        assert page.inner_text("#review-deal") == "Revoir la donne"
        # from the history: the game, then its first deal's review
        page.goto(server.url + "/history")
        page.click(f'a[href="/history/{game}"]')
        page.click(f'a[href="/review/{game}/1"]')
        page.wait_for_selector("#review-progress-text")
        page.wait_for_selector("#review-status", state="hidden", timeout=WAIT_MS)
        assert page.inner_text("h1").startswith("Revue de la donne 1")
        assert "Pli 1, carte 1 sur" in page.inner_text("#review-step")
        page.click("#review-next")
        assert "carte 2 sur" in page.inner_text("#review-step")
        page.keyboard.press("ArrowRight")
        assert "carte 3 sur" in page.inner_text("#review-step")
        page.keyboard.press("ArrowLeft")
        assert "carte 2 sur" in page.inner_text("#review-step")
        no_sideways_scroll(page, "the review at its start")
        assert violations(page) == []
        page.screenshot(path=str(shots / "review-phone-fr.png"))
        # a card that lost points is marked in the list of tricks; open it
        marked = page.locator("#review-tricks button.loss-big, #review-tricks button.loss-small")
        assert marked.count() > 0, "no card of this deal lost a point"
        marked.first.click()
        verdict = page.inner_text("#review-card .verdict")
        assert verdict in ("erreur", "perte", "malchance", "chance")
        assert "points perdus à jeu ouvert" in page.inner_text("#review-card")
        assert page.locator("#review-hands .rv-card.played").count() == 1
        assert "Meilleure carte" in page.inner_text("#review-card")
        assert page.locator("#review-summary tbody tr").count() == 4
        assert page.locator("#review-calls tbody tr").count() > 0
        no_sideways_scroll(page, "the review of a card that lost points")
        assert violations(page) == []
        page.locator("#review-card").scroll_into_view_if_needed()
        page.screenshot(path=str(shots / "review-phone-mistake-fr.png"), full_page=True)
        # the share link opens the review in another browser, nothing else
        page.click("#review-share")
        page.wait_for_function("() => document.getElementById('review-share-link').value")
        link = page.input_value("#review-share-link")
        assert "key=" in link
        other = browser.new_context(viewport=PHONE, locale="fr-FR")
        try:
            guest = other.new_page()
            guest.goto(link)
            guest.wait_for_selector("#review-status", state="hidden", timeout=WAIT_MS)
            assert guest.locator("#review-share").count() == 0
            assert guest.goto(f"{server.url}/history/{game}").status == 404
        finally:
            other.close()
    finally:
        context.close()


SPANISH_SUITS = ("oros", "copas", "espadas", "bastos")


@pytest.mark.parametrize(("locale", "lang"), [("fr-FR", "fr"), ("en-GB", "en")])
def test_a_moroccan_deal_is_reviewed_with_the_spanish_cards(
        browser: Any, server: Server, shots: Path, locale: str, lang: str) -> None:
    """A Moroccan game's deal shows the cards as its table did (the Spanish pack: the
    numbers 1, 4-7, 10-12, each suit's picture and name, "la sota de oros"), in French
    and in English: never the French pack's letters or symbols."""
    context = browser.new_context(viewport=PHONE, locale=locale, device_scale_factor=1)
    page = context.new_page()
    try:
        page.goto(server.url + "/history")
        cookie = next(c["value"] for c in context.cookies() if c["name"] == COOKIE)
        game, _token = server.play_out(cookie.split(".")[0], profile="moroccan")
        page.goto(f"{server.url}/review/{game}/1")
        page.wait_for_selector("#review-status", state="hidden", timeout=WAIT_MS)
        hands = page.locator("#review-hands .rv-card")
        shown = hands.count()
        assert shown >= 32  # the four hands of 8 at the first card, the trick empty
        assert page.locator("#review-hands .rv-card.spanish svg.sp-suit").count() == shown
        faces = page.inner_text("#review-hands")
        assert not any(symbol in faces for symbol in "♠♥♦♣")
        ranks = set(page.eval_on_selector_all(
            "#review-hands .rv-card", "cards => cards.map(c => c.textContent.trim())"))
        assert ranks <= {"1", "4", "5", "6", "7", "10", "11", "12"}, ranks
        names = page.eval_on_selector_all(
            "#review-hands .rv-card", "cards => cards.map(c => c.getAttribute('aria-label'))")
        assert all(name.split(" de ")[1] in SPANISH_SUITS for name in names), names
        assert any(name.startswith(("sota ", "caballo ", "rey ", "as ")) for name in names)
        # in words in the sentences, as the table says them
        step = page.inner_text("#review-step")
        assert any(f" de {suit}" in step for suit in SPANISH_SUITS), step
        if lang == "fr":
            assert "Pli 1, carte 1 sur" in step
            assert any(f" joue {article}" in step for article in ("le ", "la ", "l'")), step
        else:
            assert "Trick 1, card 1 of" in step and " plays the " in step, step
        contract = page.inner_text("#review-contract")
        assert any(suit in contract for suit in SPANISH_SUITS), contract
        assert not any(symbol in contract for symbol in "♠♥♦♣")
        # the tricks and the card's analysis draw the same faces
        tricks = page.locator("#review-tricks .rv-card")
        assert tricks.count() == page.locator("#review-tricks .rv-card svg.sp-suit").count() > 0
        for _ in range(8):  # to a card that was not forced: its best card is drawn
            page.click("#review-next")
            if page.locator("#review-card .rv-card").count():
                break
        assert page.locator("#review-card .rv-card").count() >= 1
        assert page.locator("#review-card .rv-card svg.sp-suit").count() == \
            page.locator("#review-card .rv-card").count()
        assert not any(symbol in page.inner_text("#review-card") for symbol in "♠♥♦♣")
        no_sideways_scroll(page, "the review of a Moroccan deal")
        assert violations(page) == []
        page.screenshot(path=str(shots / f"review-moroccan-{lang}.png"), full_page=True)
    finally:
        context.close()
