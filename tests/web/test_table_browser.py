"""The score sheet and the table as players expect them (issue 13), in Chromium driven
by Playwright against `belote serve`: declarations entered by name with the comparison
shown as one types; at the table the hint button, the animations (a toggle, and the
system's reduced motion), an all-pass deal said and dealt again by itself, the Spanish
suits drawn, a spectator asked for a name before he sits, the mini score table."""

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
from tests.web.test_phone import (
    DESKTOP,
    SERVER_ARGS,
    _act,
    _page,
    _radio,
)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with live_server(tmp_path_factory.mktemp("table") / "sheets.db", *SERVER_ARGS) as url:
        yield url


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_declarations_by_name_in_the_browser(browser: Any, server: str, shots: Path,
                                             viewport: dict[str, int]) -> None:
    errors: list[str] = []
    page = _page(browser, viewport, errors)
    page.goto(server + "/sheets")
    page.fill('input[name="name"]', "By name")
    page.fill('input[name="team_ns"]', "Us")
    page.fill('input[name="team_ew"]', "Them")
    page.click("#new-sheet button[type=submit]")
    page.wait_for_url("**/sheets/*")
    page.click("#decl-names summary")
    no_sideways_scroll(page, "the sheet with the declarations by name")
    _radio(page, "taker", "NS")
    page.fill("#points", "100")
    page.fill('input[name="decl_NS_tierce"]', "1")
    page.fill('input[name="decl_EW_cinquante"]', "1")
    page.wait_for_function(
        "() => document.getElementById('decl-compare').textContent.includes('Them score 50')")
    assert "Best declaration: cinquante (Them) over tierce (Us)" in page.inner_text(
        "#decl-compare")
    size = "phone" if viewport is PHONE else "desktop"
    page.locator(".calc-panel").screenshot(path=str(shots / f"{size}-declarations.png"))
    # equal best declarations: the choice of whose is higher appears
    page.fill('input[name="decl_EW_cinquante"]', "")
    page.fill('input[name="decl_EW_tierce"]', "1")
    page.wait_for_selector("#decl-tie:not([hidden])")
    page.select_option('select[name="decl_tie"]', "NS")
    page.wait_for_function(
        "() => document.getElementById('decl-compare').textContent.includes('Us score 20')")
    page.click("#add-hand")
    page.wait_for_selector("#hands-table")
    assert "Us +20 decl." in page.inner_text("#hands-table")
    assert page.inner_text("#total-NS") == "120"
    assert not errors, errors
    page.context.close()


# --- the table -------------------------------------------------------------------------------


def _bots_table(page: Any, server: str, profile: str = "classic", bots: str = "random") -> None:
    page.goto(server + "/play")
    page.fill('input[name="player"]', "Ana")
    page.select_option("#profile", profile)
    page.select_option("#bots", bots)
    with page.expect_navigation():
        page.click("#play-form button[type=submit]")
    page.wait_for_selector("#hand .card")


def _version(page: Any) -> str:
    return str(page.get_attribute("#room", "data-version"))


def _changed(page: Any, before: str) -> None:
    page.wait_for_function("v => document.getElementById('room').dataset.version !== v",
                           arg=before)


def test_the_hint_button_gives_the_bots_advice(browser: Any, server: str) -> None:
    errors: list[str] = []
    page = _page(browser, PHONE, errors)
    _bots_table(page, server)
    for _ in range(40):
        wait_my_turn_or_result(page)
        if page.is_visible("#result"):
            before = _version(page)
            page.click("#next-deal")
            _changed(page, before)
            continue
        phase = page.get_attribute("#room", "data-phase")
        assert page.is_visible("#hint-btn")
        page.click("#hint-btn")
        page.wait_for_selector("#message.hint")
        text = page.inner_text("#message")
        assert text.startswith("Hint: "), text
        advised = page.locator("#hand .card.hinted, #bidding .hinted")
        assert advised.count() >= 1
        before = _version(page)
        advised.first.click()  # as advised: accepted
        _changed(page, before)
        if phase == "play":
            break
    assert not errors, errors
    page.context.close()


def test_animations_can_be_turned_off_and_follow_reduced_motion(browser: Any,
                                                                 server: str) -> None:
    errors: list[str] = []
    page = _page(browser, PHONE, errors)
    # counts the cards dealt out (animated) and the cards flying onto the felt
    page.add_init_script("""window.__moved = {deal: 0, fly: 0};
      new MutationObserver(() => {
        window.__moved.deal += document.querySelectorAll('#hand .card.deal-in').length;
        window.__moved.fly += document.querySelectorAll('#trick .played.fly').length;
      }).observe(document, {subtree: true, childList: true});""")
    _bots_table(page, server)
    assert "animated" in (page.get_attribute("#room", "class") or "")
    page.wait_for_function("() => window.__moved.deal > 0")  # the cards are dealt out
    for _ in range(30):  # play on until a card is seen flying onto the felt
        if page.evaluate("window.__moved.fly") > 0:
            break
        wait_my_turn_or_result(page)
        if page.is_visible("#result"):
            break
        _act(page)
    assert page.evaluate("window.__moved.fly") > 0
    page.uncheck("#opt-anim")
    assert "animated" not in (page.get_attribute("#room", "class") or "")
    page.reload()
    page.wait_for_selector("#hand .card")
    assert not page.is_checked("#opt-anim")
    assert "animated" not in (page.get_attribute("#room", "class") or "")
    page.check("#opt-anim")
    page.context.close()
    # the system's "reduce motion": no animation whatever the toggle
    page = open_page(browser, errors, viewport=PHONE, reduced_motion="reduce")
    _bots_table(page, server)
    assert "animated" not in (page.get_attribute("#room", "class") or "")
    assert page.locator("#mini-score thead th").all_inner_texts() == ["#", "N–S", "E–W"]
    page.context.close()
    assert not errors, errors


def test_an_all_pass_deal_says_so_and_moves_on(browser: Any, server: str) -> None:
    """We pass; heuristic bots with weak hands pass too: the panel says everyone passed
    (never "Bidding…") and the next deal comes by itself."""
    errors: list[str] = []
    page = _page(browser, DESKTOP, errors)
    _bots_table(page, server, bots="heuristic")
    for _ in range(12):
        page.wait_for_function(
            "() => { const r = document.getElementById('room');"
            " return r.dataset.myturn === '1' || r.dataset.phase === 'all_pass'"
            " || !document.getElementById('result').hidden; }")
        if page.get_attribute("#room", "data-phase") == "all_pass":
            break
        if page.is_visible("#result"):
            before = _version(page)
            page.click("#next-deal")
            _changed(page, before)
            continue
        before = _version(page)
        if page.get_attribute("#room", "data-phase") == "bidding":
            page.click('#bidding [data-call="pass"]')
        else:
            page.locator("#hand .card.legal").first.click()
        _changed(page, before)
    else:
        pytest.fail("no deal where everyone passed")
    assert "Everyone passed: new deal" in page.inner_text("#contract-box")
    assert "Bidding" not in page.inner_text("#contract-box")
    assert "Everyone passed: new deal" in page.inner_text("#felt-info")
    # the server deals again after its pause (3 s), with no click
    page.wait_for_function("() => document.getElementById('room').dataset.phase === 'bidding'",
                           timeout=15_000)
    assert not errors, errors
    page.context.close()


def test_spanish_suits_are_drawn(browser: Any, server: str, shots: Path) -> None:
    errors: list[str] = []
    page = _page(browser, PHONE, errors)
    _bots_table(page, server, profile="moroccan")
    cards = page.locator("#hand .card").count()
    assert cards >= 5 and page.locator("#hand .card.spanish svg.sp-suit").count() == cards
    page.wait_for_timeout(1200)  # the cards dealt out
    page.screenshot(path=str(shots / "phone-moroccan.png"))
    # every suit's picture has a dark outline: readable on the white card
    strokes = page.eval_on_selector_all(
        "#hand .card svg.sp-suit", "els => els.map(e => e.querySelector('[stroke]')"
        ".getAttribute('stroke'))")
    assert all(s in ("#5c3b00", "#5e0d0a", "#0d2a57", "#143d19") for s in strokes), strokes
    for _ in range(10):  # the trump on the felt is drawn too, once someone took
        if page.locator("#felt-trump").count():
            break
        wait_my_turn_or_result(page)
        if page.get_attribute("#room", "data-phase") == "bidding":
            _act(page)
    page.wait_for_selector("#felt-trump svg.sp-suit")
    assert not errors, errors
    page.context.close()


def test_a_spectator_who_sits_is_asked_for_a_name(browser: Any, server: str) -> None:
    errors: list[str] = []
    host = _page(browser, DESKTOP, errors)
    host.goto(server + "/rooms")
    host.fill('input[name="name"]', "Lundi")
    with host.expect_navigation():
        host.click("#room-form button[type=submit]")
    host.wait_for_selector("#lobby:not([hidden])")
    host.fill("#player-name", "Ana")
    host.click('button[data-sit="S"]')
    host.wait_for_selector('.lobby-seat[data-seat="S"] >> text=Ana')
    host.click("#start")
    host.wait_for_selector("#hand .card")
    link = host.input_value("#share-link")
    guest = _page(browser, PHONE, errors)  # another browser: a spectator
    guest.goto(link)
    guest.wait_for_selector("#spectator-bar:not([hidden])")
    guest.fill("#spectator-name", "")
    guest.click('#pos-left button[data-sit], #pos-right button[data-sit]')
    guest.wait_for_selector("#message.error")
    assert "Type your name first" in guest.inner_text("#message")
    assert guest.evaluate("document.activeElement.id") == "spectator-name"
    guest.fill("#spectator-name", "Bea")
    guest.locator("button[data-sit]").first.click()
    guest.wait_for_selector("#pos-bottom .seat-name >> text=Bea")
    guest.wait_for_selector("#spectator-bar", state="hidden")
    assert not errors, errors
    guest.context.close()
    host.context.close()
