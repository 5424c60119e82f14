"""The web app in a real browser: Debian's chromium driven by Playwright against
`belote serve` started on a free loopback port.  Each page is photographed
(``$BELOTE_SCREENSHOTS`` keeps the pictures)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.support import DESKTOP, WAIT_MS, live_server, open_page, wait_my_turn_or_result

SERVER_ARGS = ("--bot-delay", "0.03", "--trick-pause", "0.1", "--deal-pause", "60",
               "--seed", "5")


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    with live_server(tmp_path / "sheets.db", *SERVER_ARGS) as url:
        yield url


def _page(browser: Any, errors: list[str]) -> Any:
    # A refused form answers 422 on purpose; the browser logs it as a failed load.
    return open_page(browser, errors, console=(422,))


# --- (1) a score sheet from creation to a finished game ----------------------------------


def _radio(page: Any, name: str, value: str) -> None:
    page.click(f'input[name="{name}"][value="{value}"] + span')


def _hand(page: Any, taker: str, points: str | None = None, points_team: str | None = None,
          capot: str = "", belote: str = "", decl: tuple[str, str] | None = None) -> None:
    _radio(page, "taker", taker)
    _radio(page, "capot", capot)
    _radio(page, "belote", belote)
    if points is not None:
        page.select_option("#points_team", points_team or taker)
        page.fill("#points", points)
    if decl is not None:
        page.select_option('select[name="decl_team"]', decl[0])
        page.fill('input[name="decl_points"]', decl[1])
    with page.expect_navigation():
        page.click("#add-hand")


def test_score_sheet_from_creation_to_a_finished_game(
    browser: Any, server: str, shots: Path
) -> None:
    errors: list[str] = []
    page = _page(browser, errors)
    page.goto(server + "/sheets")
    page.fill('input[name="name"]', "Friday night")
    page.select_option('select[name="profile"]', "classic")
    page.fill('input[name="target"]', "500")
    page.fill('input[name="team_ns"]', "Us")
    page.fill('input[name="team_ew"]', "Them")
    with page.expect_navigation():
        page.click("#new-sheet button[type=submit]")
    assert re.search(r"/sheets/\d+$", page.url)
    sheet_url = page.url

    # The other team's points are worked out as one types, and the score previewed.
    _radio(page, "taker", "NS")
    page.fill("#points", "100")
    page.wait_for_function("() => document.getElementById('other-points').textContent === '62'")
    page.wait_for_function(
        "() => document.getElementById('preview').textContent.includes('made')")
    assert "Us +100" in page.inner_text("#preview")
    _radio(page, "capot", "EW")
    page.wait_for_function(
        "() => document.getElementById('other-points').textContent.includes('252')")
    assert page.is_disabled("#points")
    _radio(page, "capot", "")
    with page.expect_navigation():
        page.click("#add-hand")
    assert page.inner_text("#total-NS") == "100" and page.inner_text("#total-EW") == "62"

    # A refused hand: the message beside the form, the fields as typed.
    _radio(page, "taker", "EW")
    page.select_option("#points_team", "EW")
    page.fill("#points", "170")
    _radio(page, "belote", "EW")
    with page.expect_navigation():
        page.click("#add-hand")
    assert "cannot have made 170 trick points" in page.inner_text("#form-error")
    assert page.input_value("#points") == "170"
    assert page.is_checked('input[name="belote"][value="EW"]')
    assert page.is_checked('input[name="taker"][value="EW"]')
    page.screenshot(path=str(shots / "sheet-error.png"), full_page=True)

    # A litige, then EW make it with belote and take the reserve (docs/rules.md §8.4).
    _hand(page, "NS", "81")
    assert page.inner_text("#reserve .team-total") == "81"
    _hand(page, "EW", "90", belote="EW")
    assert page.inner_text("#reserve .team-total") == "0"
    # Edit hand 1 and undo a hand.
    page.click('a[title="Edit hand 1"]')
    assert page.input_value("#points") == "100"
    page.fill("#points", "110")
    with page.expect_navigation():
        page.click("#add-hand")
    assert page.url.startswith(sheet_url)
    assert page.inner_text("#total-NS") == str(110 + 0 + 72)
    page.on("dialog", lambda dialog: dialog.accept())
    with page.expect_navigation():
        page.click("#undo")
    assert page.inner_text("#total-EW") == str(52 + 81)
    _hand(page, "EW", "90", belote="EW")
    # A capot with a fifty, then the last hand.
    _hand(page, "NS", capot="NS", decl=("NS", "50"))
    _hand(page, "NS", "120")
    assert "Us won the game" in page.inner_text("#winner")
    assert page.locator("svg.chart polyline").count() == 2
    assert page.locator("#hands-table tbody tr").count() == 5
    assert page.locator("#hand-form").count() == 0
    for link in ("Export JSON", "Export CSV"):
        href = page.get_attribute(f"a:has-text('{link}')", "href")
        assert href is not None
        response = page.request.get(server + href)
        assert response.ok
    page.screenshot(path=str(shots / "sheet-finished.png"), full_page=True)
    page.goto(server + "/sheets")
    assert "Friday night" in page.inner_text("#sheet-list")
    page.screenshot(path=str(shots / "sheets-list.png"), full_page=True)
    page.goto(server + "/")
    page.screenshot(path=str(shots / "home.png"), full_page=True)
    assert errors == []


# --- (2) a whole hand against bots, by clicking -----------------------------------------


def _version(page: Any) -> str:
    return str(page.get_attribute("#room", "data-version"))


def _act(page: Any, shots: Path | None = None, state: dict[str, Any] | None = None) -> None:
    """Our turn: take (or name a suit) when bidding, else the first legal card."""
    before = _version(page)
    if page.get_attribute("#room", "data-phase") == "bidding":
        take = page.locator('#bidding [data-call="take"]')
        if take.count():
            take.click()
        else:
            page.locator("#bidding button.suit-btn").first.click()
    else:
        if state is not None and not state.get("illegal") and page.locator(
                "#hand .card.illegal").count():
            # said to be disabled (aria-disabled), still tapped: the refusal says why
            page.locator("#hand .card.illegal").first.click(force=True)
            page.wait_for_selector("#message.error")
            state["illegal"] = page.inner_text("#message")
            if shots is not None:
                page.screenshot(path=str(shots / "bots-illegal.png"))
        if state is not None and shots is not None and page.locator(
                "#trick .played").count() >= 2 and not state.get("shot"):
            state["shot"] = True
            page.screenshot(path=str(shots / "bots-table.png"))
        page.locator("#hand .card.legal").first.click()
    page.wait_for_function("v => document.getElementById('room').dataset.version !== v",
                           arg=before)


def test_a_whole_hand_against_bots_by_clicking(browser: Any, server: str, shots: Path) -> None:
    errors: list[str] = []
    page = _page(browser, errors)
    page.goto(server + "/play")
    page.fill('input[name="player"]', "Alice")
    page.select_option("#profile", "classic")
    page.select_option("#bots", "random")
    with page.expect_navigation():
        page.click("#play-form button[type=submit]")
    page.wait_for_selector("#table:not([hidden])")
    assert page.get_attribute("#room", "data-seat") == "S"
    assert "#" not in page.url  # the token went to the browser's storage
    # The table is private: another browser can neither see it nor find it listed.
    other = browser.new_context(viewport=DESKTOP, locale="en-US")
    try:
        peek = other.new_page()
        response = peek.goto(page.url)
        assert response is not None and response.status == 404
        peek.goto(server + "/rooms")
        assert page.url.split("/rooms/")[1] not in peek.content()
    finally:
        other.close()
    state: dict[str, Any] = {}
    for _ in range(60):
        wait_my_turn_or_result(page)
        if page.is_visible("#result"):
            break
        _act(page, shots, state)
    assert page.is_visible("#result")
    heading = page.inner_text("#result h2")
    assert "contract" in heading or "passed" in heading
    # The illegal card was refused with the rule broken (docs/rules.md §6).
    # the rule in plain words, no § number (issue 13)
    assert "may not play" in state["illegal"] and "§" not in state["illegal"]
    page.screenshot(path=str(shots / "bots-result.png"))
    totals = [int(page.inner_text(f"#total-{t}")) for t in ("NS", "EW")]
    assert sum(totals) >= 162
    page.click("#last-trick-btn")
    assert page.locator("#last-trick .lt-card").count() == 4
    assert page.locator("#last-trick .lt-card.winner").count() == 1
    # The next deal: the hand is sorted by suit, the trump marked once it is known.
    before = _version(page)
    page.click("#next-deal")
    page.wait_for_function("v => document.getElementById('room').dataset.version !== v",
                           arg=before)
    assert page.is_hidden("#result")
    assert page.locator("#hand .card").count() == 5
    for _ in range(30):
        wait_my_turn_or_result(page)
        if page.get_attribute("#room", "data-phase") == "play" or page.is_visible("#result"):
            break
        _act(page)
    if page.get_attribute("#room", "data-phase") == "play":
        suits = [c[1] for c in page.eval_on_selector_all(
            "#hand .card", "els => els.map(e => e.dataset.card)")]
        groups = [s for i, s in enumerate(suits) if i == 0 or suits[i - 1] != s]
        assert len(groups) == len(set(groups))  # each suit in one block
        trumps = page.eval_on_selector_all("#hand .card.trump",
                                           "els => els.map(e => e.dataset.card)")
        assert trumps and all(t[1] == suits[0] for t in trumps)  # the trump first
        page.screenshot(path=str(shots / "bots-trump.png"))
    assert errors == []


def test_the_moroccan_table_shows_spanish_cards(browser: Any, server: str, shots: Path) -> None:
    """docs/rules.md §1.2: 4 5 6 7 sota caballo rey as of oros, copas, espadas, bastos."""
    errors: list[str] = []
    page = _page(browser, errors)
    page.goto(server + "/play")
    page.select_option("#profile", "moroccan")
    with page.expect_navigation():
        page.click("#play-form button[type=submit]")
    page.wait_for_selector("#hand .card")
    titles = page.eval_on_selector_all("#hand .card", "els => els.map(e => e.title)")
    assert len(titles) == 5
    assert all(re.fullmatch(r"(4|5|6|7|sota|caballo|rey|as) de (oros|copas|espadas|bastos)", t)
               for t in titles), titles
    assert page.locator("#hand .card.spanish").count() == 5
    page.screenshot(path=str(shots / "moroccan.png"))
    assert errors == []


# --- (3) two browsers in one room ---------------------------------------------------------


def _play_until_result(pages: list[Any]) -> None:
    for _ in range(1000):
        if all(p.is_visible("#result") for p in pages):
            return
        for p in pages:
            if p.get_attribute("#room", "data-myturn") == "1" and not p.is_visible("#result"):
                _act(p)
        pages[0].wait_for_timeout(30)
    raise AssertionError("the deal did not end")


def test_two_browsers_take_seats_in_one_room(browser: Any, server: str, shots: Path) -> None:
    errors: list[str] = []
    ann = _page(browser, errors)
    ann.goto(server + "/rooms")
    ann.fill('input[name="name"]', "Sunday belote")
    ann.select_option("#bots", "random")
    with ann.expect_navigation():
        ann.click("#room-form button[type=submit]")
    ann.wait_for_selector("#lobby:not([hidden])")
    ann.fill("#player-name", "Ann")
    ann.click('button[data-sit="N"]')
    ann.wait_for_selector('.lobby-seat[data-seat="N"] >> text=Ann')
    link = ann.input_value("#share-link")
    assert re.fullmatch(re.escape(server) + r"/rooms/\w+\?invite=[\w-]+", link)

    # Without the invitation a stranger's browser finds no room (not even its lobby).
    stranger = browser.new_context(viewport=DESKTOP, locale="en-US")
    try:
        response = stranger.new_page().goto(link.split("?")[0])
        assert response is not None and response.status == 404
    finally:
        stranger.close()

    bob = open_page(browser, errors)
    bob.goto(link)
    bob.fill("#player-name", "Bob")
    bob.click('button[data-sit="E"]')
    ann.wait_for_selector('.lobby-seat[data-seat="E"] >> text=Bob')
    ann.click('button[data-bot="S"]')
    bob.wait_for_selector('.lobby-seat[data-seat="S"] >> text=Bot S')
    ann.screenshot(path=str(shots / "room-lobby.png"))
    bob.click("#start")
    for p in (ann, bob):
        p.wait_for_selector("#table:not([hidden])")
        p.wait_for_selector("#hand .card")
    assert ann.get_attribute("#room", "data-seat") == "N"
    assert bob.get_attribute("#room", "data-seat") == "E"
    hands = [set(p.eval_on_selector_all("#hand .card", "els => els.map(e => e.dataset.card)"))
             for p in (ann, bob)]
    assert len(hands[0]) == len(hands[1]) == 5 and not hands[0] & hands[1]
    # Neither page holds the other's cards anywhere.
    for p, other in ((ann, hands[1]), (bob, hands[0])):
        shown = set(p.eval_on_selector_all("[data-card]", "els => els.map(e => e.dataset.card)"))
        assert not shown & other
    # Ann sees Bob's seat on her right (anticlockwise play: E follows N).
    assert ann.get_attribute("#pos-right", "data-seat") == "E"
    assert bob.get_attribute("#pos-bottom", "data-seat") == "E"
    _play_until_result([ann, bob])
    ann.screenshot(path=str(shots / "room-ann-result.png"))
    bob.screenshot(path=str(shots / "room-bob-result.png"))
    # Bob drops: a bot plays for him until he comes back with his token.
    bob.close()
    ann.wait_for_selector('.seat-box[data-seat="E"] .chip.away')
    ann.screenshot(path=str(shots / "room-bob-away.png"))
    bob = bob.context.new_page()  # the same browser: its cookie and token
    bob.set_default_timeout(WAIT_MS)
    bob.goto(link)
    bob.wait_for_selector('#room[data-seat="E"]')
    ann.wait_for_selector('.seat-box[data-seat="E"] .chip.away', state="detached")
    assert bob.locator("#hand .card").count() == 0 or bob.is_visible("#result")
    bob.screenshot(path=str(shots / "room-bob-back.png"))
    assert errors == []
