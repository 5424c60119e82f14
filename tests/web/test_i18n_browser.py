"""The language switch in the browser (issue 13): Debian's chromium on a phone's screen
switches the pages to French and back to English, and the choice is remembered after a
reload; the table's texts (drawn by the script from the catalogue the page embeds) follow.

The browser's own language is set (en-US) so that nothing depends on the machine's."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.support import PHONE, SMALL_PHONE, live_server, no_sideways_scroll, open_page
from tests.web.test_phone import SERVER_ARGS


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with live_server(tmp_path_factory.mktemp("lang") / "sheets.db", *SERVER_ARGS) as url:
        yield url


def _page(browser: Any, errors: list[str]) -> Any:
    return open_page(browser, errors, viewport=PHONE)


def _lang(page: Any) -> str:
    return str(page.evaluate("document.documentElement.lang"))


def test_the_switch_turns_the_pages_french_then_english_and_is_remembered(
        browser: Any, server: str, shots: Path) -> None:
    errors: list[str] = []
    page = _page(browser, errors)
    page.goto(server + "/sheets")
    assert _lang(page) == "en" and page.inner_text("h1") == "Score sheets"
    assert page.is_visible("#lang-switch") and page.inner_text("#lang-en") == "EN"
    with page.expect_navigation():
        page.click("#lang-fr")
    assert page.url == server + "/sheets"
    assert _lang(page) == "fr" and page.inner_text("h1") == "Feuilles de score"
    assert page.inner_text("#new-sheet button[type=submit]") == "Créer la feuille"
    assert page.get_attribute("#lang-fr", "aria-current") == "true"
    page.reload()
    assert _lang(page) == "fr" and page.inner_text("h1") == "Feuilles de score"
    for path in ("/", "/play", "/rooms", "/sheets"):
        page.goto(server + path)
        assert _lang(page) == "fr", path
        no_sideways_scroll(page, "fr " + path)
    page.screenshot(path=str(shots / "phone-sheets-fr.png"))

    # a table against bots, in French: the script's texts come from the catalogue
    page.goto(server + "/play")
    with page.expect_navigation():
        page.click("#play-form button[type=submit]")
    page.wait_for_selector("#pos-bottom .seat-dir")
    dirs = page.locator(".seat-box .seat-dir").all_inner_texts()
    assert sorted(dirs) == ["Est", "Nord", "Ouest", "Sud"], dirs
    page.wait_for_function("""() => {
      const b = document.querySelector('#bidding');
      return (b && !b.hidden && b.textContent.includes('Passer'))
        || document.querySelector('#room').dataset.phase === 'play';
    }""")
    if page.evaluate("document.querySelector('#room').dataset.phase") == "bidding":
        calls = page.inner_text("#bidding")
        assert "Passer" in calls and "Prendre" in calls, calls
    no_sideways_scroll(page, "fr table")
    page.screenshot(path=str(shots / "phone-table-fr.png"))

    # back to English from the table: the same room, remembered after a reload
    room = page.url.split("#")[0]
    with page.expect_navigation():
        page.click("#lang-en")
    assert page.url.split("#")[0] == room and _lang(page) == "en"
    page.wait_for_selector("#pos-bottom .seat-dir")
    dirs = page.locator(".seat-box .seat-dir").all_inner_texts()
    assert sorted(dirs) == ["East", "North", "South", "West"], dirs
    page.reload()
    assert _lang(page) == "en"
    page.goto(server + "/sheets")
    assert page.inner_text("h1") == "Score sheets"
    page.context.close()
    assert errors == []


def test_a_french_browser_gets_french_and_the_smallest_phoneno_sideways_scroll(
        browser: Any, server: str) -> None:
    errors: list[str] = []
    page = open_page(browser, errors, viewport=SMALL_PHONE, locale="fr-FR")
    page.goto(server + "/")
    assert _lang(page) == "fr" and "Feuilles" in page.inner_text("nav")
    no_sideways_scroll(page, "fr home at 360")
    page.goto(server + "/sheets/abc")
    assert "Cette adresse ne mène à aucune page." in page.inner_text("main")
    # the refusals of the sheets and the rooms, said from their codes
    page.goto(server + "/sheets/999")
    assert "Il n'y a pas de feuille de score numéro 999." in page.inner_text("main")
    page.goto(server + "/rooms/nope")
    assert "Cette salle n'existe pas (elle a peut-être fermé)." in page.inner_text("main")
    # the service worker registers (localhost-like origin) and the manifest is linked
    assert page.evaluate("!!document.querySelector('link[rel=manifest]')")
    page.goto(server + "/")
    registered = page.evaluate("""async () => {
      if (!('serviceWorker' in navigator)) return 'none';
      const reg = await navigator.serviceWorker.ready;
      return reg.scope;
    }""")
    assert registered in (server + "/", "none"), registered
    page.context.close()
    assert errors == []
