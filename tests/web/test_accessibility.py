"""Accessibility as a test: axe-core (``axe-playwright-python``) in Debian's chromium on
every page of the web app, in French and in English, with no violation: the home
page, the play and rooms forms, a table in play, the sheets list, a score sheet (its
owner's page with a share link, and the page of a browser that opened the link) and a
rotation sheet."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from tests.web.support import PHONE, live_server, open_page, wait_my_turn_or_result
from tests.web.test_phone import _add_hand, _new_sheet

SERVER_ARGS = ("--bot-delay", "0", "--trick-pause", "0.02", "--deal-pause", "60",
               "--seed", "3")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with live_server(tmp_path_factory.mktemp("axe") / "sheets.db", *SERVER_ARGS) as url:
        yield url


# French puts a space before a colon (and ; ! ?): a letter or digit glued to one is wrong.
GLUED_COLON = r"""() => {
  const text = document.body.innerText.replace(/https?:\/\/\S+/g, "");
  const m = /[\p{L}\d)»][:;!?](\s|$)/u.exec(text);
  return m ? text.slice(Math.max(0, m.index - 30), m.index + 10) : "";
}"""


def violations(page: Any) -> list[str]:
    """What axe-core finds wrong on the page as it stands: rule, impact, where (and, on
    a French page, a colon with no space before it)."""
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    found: list[str] = []
    if page.evaluate("document.documentElement.lang") == "fr":
        glued = page.evaluate(GLUED_COLON)
        if glued:
            found.append(f"no space before the colon: {glued!r}")
    for v in results.response["violations"]:
        targets = [" ".join(map(str, n["target"])) for n in v["nodes"]][:4]
        found.append(f"{v['id']} ({v['impact']}, {len(v['nodes'])}): {targets}")
    return found


def _rotation_sheet(page: Any, server: str) -> None:
    """A rotation sheet of five players (docs/rules.md §13) with a hand: its page."""
    page.goto(server + "/sheets")
    page.fill('#new-sheet input[name="name"]', "Tournante")
    page.select_option("#players", "5")
    page.fill('input[name="player_names"]', "Ana, Bob, Cléo, Dan, Eve")
    with page.expect_navigation():
        page.click("#new-sheet button[type=submit]")
    _add_hand(page, "NS", "100")


def tour_pages(browser: Any, server: str, locale: str, look: Callable[[Any], list[str]],
               errors: list[str], table: bool = True) -> dict[str, list[str]]:
    """Every page of the web app in a phone's browser (``locale``), ``look`` run on each:
    what it found, by page.  The forms, a score sheet with hands, its follow link made
    and the page of a second browser that opened it, a rotation sheet, the sheets'
    list, a room's lobby and, with ``table``, a table at four from the bidding to the
    deal's result.  The pages' script errors are added to ``errors``."""
    page = open_page(browser, errors, viewport=PHONE, locale=locale)
    found: dict[str, list[str]] = {}
    for path in ("/", "/play", "/rooms", "/sheets"):
        page.goto(server + path)
        found[path] = look(page)
    _new_sheet(page, server, "Vendredi")
    _add_hand(page, "NS", "100", ("NS", "50"))
    _add_hand(page, "EW", "90")
    found["a sheet"] = look(page)
    # Shared: the owner's page with its follow link made, and the sheet as the second
    # browser that opened the link sees it (read only, followed live).
    with page.expect_navigation():
        page.click("#make-follow")
    found["a sheet with its link"] = look(page)
    shared = open_page(browser, errors, viewport=PHONE, locale=locale)
    shared.goto(page.input_value("#link-follow"))
    shared.wait_for_selector("#role-note")
    found["a shared sheet"] = look(shared)
    shared.context.close()
    _rotation_sheet(page, server)
    assert page.locator("#hands-table tbody tr").count() == 1
    found["a rotation sheet"] = look(page)
    page.goto(server + "/sheets")
    found["the sheets list"] = look(page)
    # A room's lobby, then a table in play: the bidding, then the card play.
    page.goto(server + "/rooms")
    page.fill('input[name="name"]', "Dimanche")
    with page.expect_navigation():
        page.click("#room-form button[type=submit]")
    page.wait_for_selector("#lobby:not([hidden])")
    found["a room's lobby"] = look(page)
    if not table:
        page.context.close()
        return found
    page.goto(server + "/play")
    page.select_option("#bots", "random")
    with page.expect_navigation():
        page.click("#play-form button[type=submit]")
    page.wait_for_selector("#hand .card")
    found["a table"] = look(page)
    for _ in range(40):
        wait_my_turn_or_result(page)
        if page.is_visible("#result"):
            found["a deal's result"] = look(page)
            break
        before = page.get_attribute("#room", "data-version")
        if page.get_attribute("#room", "data-phase") == "bidding":
            take = page.locator('#bidding [data-call="take"]')
            (take if take.count() else page.locator("#bidding button.suit-btn").first).click()
        else:
            if "a table in play" not in found and page.locator("#trick .played").count():
                found["a table in play"] = look(page)
            page.locator("#hand .card.legal").first.click()
        page.wait_for_function("v => document.getElementById('room').dataset.version !== v",
                               arg=before)
    page.context.close()
    return found


@pytest.mark.parametrize("locale", ["fr-FR", "en-US"])
def test_every_page_passes_axe(browser: Any, server: str, locale: str) -> None:
    errors: list[str] = []
    found = tour_pages(browser, server, locale, violations, errors)
    bad = {k: v for k, v in found.items() if v}
    assert bad == {}, "\n".join(f"{k}: {x}" for k, v in bad.items() for x in v)
    assert errors == []
