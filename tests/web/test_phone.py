"""The web app on a phone (issue 13): Debian's chromium driven by Playwright against
`belote serve`, at 360-430 px wide and at 1280×800.

No page scrolls sideways; at the table, on a 390×844 screen, the hand, the cards on
the felt, the trump, the contract, whose turn it is and the score are in view without
scrolling; the end-of-deal panel fits the screen and folds to show the table; the
score sheet's points follow the taker and an impossible declaration is refused at
its field.  The pages are photographed (``$BELOTE_SCREENSHOTS`` keeps them; the
README's pictures in docs/screenshots/ come from this file)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.support import (
    PHONE,
    live_server,
    no_sideways_scroll,
    open_page,
    wait_my_turn_or_result,
)

SERVER_ARGS = ("--bot-delay", "0.02", "--trick-pause", "0.05", "--deal-pause", "60",
               "--seed", "5")
DESKTOP = {"width": 1280, "height": 800}

# Whether every element of a selector lies inside the screen (scrolled to the top).
IN_VIEW = """(sel) => {
  const els = [...document.querySelectorAll(sel)];
  if (!els.length) return `${sel}: nothing`;
  for (const el of els) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) return `${sel}: not shown`;
    const out = r.left < -0.5 || r.top < -0.5 || r.right > innerWidth + 0.5
      || r.bottom > innerHeight + 0.5;
    const at = [r.left, r.top, r.right, r.bottom].map(Math.round).join(",");
    if (out) return `${sel}: at ${at}`;
  }
  return "";
}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with live_server(tmp_path_factory.mktemp("phone") / "sheets.db", *SERVER_ARGS) as url:
        yield url


def _page(browser: Any, viewport: dict[str, int], errors: list[str],
          storage_state: Any = None) -> Any:
    # A refused form answers 422 on purpose; the browser logs it as a failed load.
    return open_page(browser, errors, viewport=viewport, console=(422,),
                     storage_state=storage_state)


def _in_view(page: Any, *selectors: str) -> None:
    page.evaluate("window.scrollTo(0, 0)")
    for sel in selectors:
        assert page.evaluate(IN_VIEW, sel) == "", f"at {page.viewport_size}: {sel} off screen"


def _radio(page: Any, name: str, value: str) -> None:
    page.click(f'input[name="{name}"][value="{value}"] + span')


def _add_hand(page: Any, taker: str, points: str, decl: tuple[str, str] | None = None) -> None:
    _radio(page, "taker", taker)
    page.fill("#points", points)
    if decl is not None:
        page.select_option('select[name="decl_team"]', decl[0])
        page.fill("#decl_points", decl[1])
    with page.expect_navigation():
        page.click("#add-hand")


def _new_sheet(page: Any, server: str, name: str) -> str:
    page.goto(server + "/sheets")
    page.fill('input[name="name"]', name)
    page.select_option('select[name="profile"]', "classic")
    page.fill('input[name="team_ns"]', "Nous")
    page.fill('input[name="team_ew"]', "Eux")
    with page.expect_navigation():
        page.click("#new-sheet button[type=submit]")
    return str(page.url)


def _shot(page: Any, shots: Path, name: str, full: bool = False) -> None:
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(shots / f"{name}.png"), full_page=full)


# --- (1) no page scrolls sideways ---------------------------------------------------------


@pytest.fixture(scope="module")
def sheet_url(browser: Any, server: str) -> tuple[str, Any]:
    """A score sheet with hands (a declaration among them) and its chart, and the
    browser state (the identity cookie) of its owner, who alone sees it."""
    errors: list[str] = []
    page = _page(browser, DESKTOP, errors)
    url = _new_sheet(page, server, "Vendredi chez Ana")
    _add_hand(page, "NS", "100", ("NS", "50"))
    _add_hand(page, "EW", "90")
    _add_hand(page, "NS", "120")
    _add_hand(page, "EW", "81")
    assert page.locator("#hands-table tbody tr").count() == 4
    owner = page.context.storage_state()
    page.context.close()
    assert errors == []
    return url, owner


@pytest.mark.parametrize("width", [360, 390, 430, 1280])
def test_no_page_scrolls_sideways(browser: Any, server: str, sheet_url: tuple[str, Any],
                                  shots: Path,
                                  width: int) -> None:
    viewport = {"width": width, "height": 844 if width < 1000 else 800}
    size = {390: "phone", 1280: "desktop"}.get(width)
    errors: list[str] = []
    url, owner = sheet_url
    page = _page(browser, viewport, errors, owner)
    for path, name in (("/", "home"), ("/sheets", "sheets"), (url, "sheet"),
                       ("/play", "play"), ("/rooms", "rooms")):
        page.goto(path if path.startswith("http") else server + path)
        no_sideways_scroll(page, path)
        if size:
            _shot(page, shots, f"{size}-{name}", full=name == "sheet")
    # The sheet's chart scales to the screen.
    page.goto(url)
    box = page.locator("svg.chart").bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
    # A room with friends: its lobby, then its table (bots in the empty seats).
    page.goto(server + "/rooms")
    page.fill('input[name="name"]', "Dimanche")
    with page.expect_navigation():
        page.click("#room-form button[type=submit]")
    page.wait_for_selector("#lobby:not([hidden])")
    page.fill("#player-name", "Ana")
    page.click('button[data-sit="S"]')
    page.wait_for_selector('.lobby-seat[data-seat="S"] >> text=Ana')
    no_sideways_scroll(page, "a room's lobby")
    if size:
        _shot(page, shots, f"{size}-room-lobby")
    page.click("#start")
    page.wait_for_selector("#hand .card")
    no_sideways_scroll(page, "a room's table")
    # A table against bots.
    page.goto(server + "/play")
    with page.expect_navigation():
        page.click("#play-form button[type=submit]")
    page.wait_for_selector("#hand .card")
    no_sideways_scroll(page, "a table against bots")
    page.context.close()
    assert errors == []


# --- (2) at the table: everything that matters in view ------------------------------------


def _act(page: Any) -> None:
    """Our turn: take (or name a suit) when bidding, else the first legal card."""
    before = page.get_attribute("#room", "data-version")
    if page.get_attribute("#room", "data-phase") == "bidding":
        take = page.locator('#bidding [data-call="take"]')
        if take.count():
            take.click()
        else:
            page.locator("#bidding button.suit-btn").first.click()
    else:
        page.locator("#hand .card.legal").first.click()
    page.wait_for_function("v => document.getElementById('room').dataset.version !== v",
                           arg=before)


TABLE_KEYS = ("#hand .card", "#felt-score", ".seat-box.turn", "#center-info")
PLAY_KEYS = ("#felt-trump", "#felt-contract")


def _play_a_deal(page: Any, shots: Path, size: str) -> dict[str, bool]:
    """Play our cards until the deal's result; check the table at each of our turns."""
    seen = {"play": False, "trick": False, "declared": False}
    for _ in range(80):
        wait_my_turn_or_result(page)
        if page.is_visible("#result"):
            break
        no_sideways_scroll(page, "the table")
        keys: tuple[str, ...] = TABLE_KEYS
        if page.get_attribute("#room", "data-phase") == "play":
            keys += PLAY_KEYS
            seen["play"] = True
            if page.locator("#trick .played").count():
                keys += ("#trick .played",)
                if not seen.get("shot") and page.locator("#trick .played").count() >= 2:
                    _shot(page, shots, f"{size}-table")
                    seen["shot"] = True
                seen["trick"] = True
            if page.locator(".seat-box .shown").count():
                seen["declared"] = True
        _in_view(page, *keys)
        _act(page)
    return seen


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_table_and_its_result_fit_the_screen(browser: Any, server: str, shots: Path,
                                                 size: str) -> None:
    viewport = PHONE if size == "phone" else DESKTOP
    errors: list[str] = []
    page = _page(browser, viewport, errors)
    page.goto(server + "/play")
    page.fill('input[name="player"]', "Ana")
    page.select_option("#bots", "random")
    with page.expect_navigation():
        page.click("#play-form button[type=submit]")
    page.wait_for_selector("#table:not([hidden])")
    seen = {"play": False, "trick": False}
    for _ in range(6):  # deals where everyone passes are dealt again
        got = _play_a_deal(page, shots, size)
        seen = {k: seen.get(k, False) or got[k] for k in ("play", "trick")}
        _in_view(page, "#result .result-card", "#result h2")
        if page.locator("#next-deal").count():
            _in_view(page, "#next-deal")
        no_sideways_scroll(page, "the result")
        if got["play"]:
            break
        before = page.get_attribute("#room", "data-version")
        page.click("#next-deal")
        page.wait_for_function("v => document.getElementById('room').dataset.version !== v",
                               arg=before)
    assert seen["play"] and seen["trick"], seen
    _shot(page, shots, f"{size}-result")
    # The panel folds to its heading, and the table shows again behind it.
    card = page.locator("#result .result-card")
    tall = card.bounding_box()["height"]
    page.click("#result-toggle")
    folded = card.bounding_box()["height"]
    assert folded < tall and folded < viewport["height"] / 3
    _in_view(page, "#result .result-card", "#next-deal", "#felt-score")
    page.click("#result-toggle")
    assert card.bounding_box()["height"] == tall
    page.click("#next-deal")
    page.wait_for_selector("#result", state="hidden")
    page.context.close()
    assert errors == []


# --- (3) the score sheet's hand form --------------------------------------------------------


def test_the_points_follow_the_taker_and_declarations_are_checked(
    browser: Any, server: str, shots: Path
) -> None:
    errors: list[str] = []
    page = _page(browser, PHONE, errors)
    _new_sheet(page, server, "Points du preneur")
    # Eux take: the 100 typed are theirs.
    _radio(page, "taker", "EW")
    assert page.input_value("#points_team") == "EW"
    page.fill("#points", "100")
    page.wait_for_function("() => document.getElementById('other-points').textContent === '62'")
    page.wait_for_function("() => document.getElementById('preview').textContent"
                           ".includes('Eux +100')")
    assert "made" in page.inner_text("#preview")
    _radio(page, "taker", "NS")
    assert page.input_value("#points_team") == "NS"
    _radio(page, "taker", "EW")
    # One may still enter the other team's points.
    page.select_option("#points_team", "NS")
    page.select_option("#points_team", "EW")
    with page.expect_navigation():
        page.click("#add-hand")
    assert page.inner_text("#total-EW") == "100" and page.inner_text("#total-NS") == "62"

    # A declaration no hand can make: refused at its field, as typed and when sent.
    _radio(page, "taker", "NS")
    page.fill("#points", "92")
    page.select_option('select[name="decl_team"]', "NS")
    page.fill("#decl_points", "1000")
    page.wait_for_selector("#decl-error:not([hidden])")
    assert "at most 550" in page.inner_text("#decl-error")
    assert page.get_attribute("#decl_points", "aria-invalid") == "true"
    with page.expect_navigation():
        page.click("#add-hand")
    assert "1000 is more than one team can declare" in page.inner_text("#decl-error")
    assert page.is_hidden("#form-error")
    assert page.input_value("#decl_points") == "1000"
    assert page.evaluate("document.activeElement.id") == "decl_points"  # the page opens there
    no_sideways_scroll(page, "the refused hand")
    _shot(page, shots, "phone-sheet-declaration-refused")
    page.fill("#decl_points", "30")
    page.wait_for_function("() => document.getElementById('decl-error').textContent"
                           ".includes('no hand makes 30')")
    page.fill("#decl_points", "70")
    page.wait_for_selector("#decl-error", state="hidden")
    with page.expect_navigation():
        page.click("#add-hand")
    assert page.inner_text("#total-NS") == str(62 + 92 + 70)
    page.context.close()
    assert errors == []


# --- (4) the pages' frame ------------------------------------------------------------------


def test_a_table_against_bots_is_under_play(browser: Any, server: str) -> None:
    errors: list[str] = []
    page = _page(browser, PHONE, errors)
    page.goto(server + "/play")
    with page.expect_navigation():
        page.click("#play-form button[type=submit]")
    page.wait_for_selector("#hand .card")
    # the tab's short name on a phone ("Bots"), its whole name on a wider screen
    assert page.get_attribute(".topbar nav a.active", "href") == "/play"
    assert page.inner_text(".topbar nav a.active") == "Bots"
    title = page.inner_text("#room-title")
    assert title not in page.inner_text("#room-rules")  # said once
    assert page.locator("#share-link").count() == 0  # private: nothing to share
    page.goto(server + "/rooms")
    page.fill('input[name="name"]', "Dimanche")
    with page.expect_navigation():
        page.click("#room-form button[type=submit]")
    page.wait_for_selector("#lobby:not([hidden])")
    assert page.inner_text(".topbar nav a.active") == "Rooms"
    assert page.inner_text("#room-title") == "Dimanche"
    assert "Classic" in page.inner_text("#room-rules")
    assert "invite=" in page.input_value("#share-link")
    page.context.close()
    assert errors == []
