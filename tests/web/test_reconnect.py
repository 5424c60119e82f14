"""A table's page when its WebSocket is refused before any route for want of an
identity cookie (code 4401): it asks the server for one and connects again; when
the cookie does not stick it says what is wrong instead of reconnecting for ever."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from tests.web.support import live_server

VIEWPORT = {"width": 1280, "height": 860}
WAIT_MS = 20_000

# Keeps the page's WebSockets and their close codes where the test can read them.
SPY = """(() => {
  const Native = window.WebSocket;
  window.__sockets = [];
  window.__codes = [];
  window.WebSocket = function (url) {
    const ws = new Native(url);
    window.__sockets.push(ws);
    ws.addEventListener("close", (e) => window.__codes.push(e.code));
    return ws;
  };
  window.WebSocket.OPEN = Native.OPEN;
})();"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with live_server(tmp_path_factory.mktemp("reconnect") / "sheets.db") as url:
        yield url


def _without_cookies(route: Any) -> None:
    """An answer that sets no cookie, as for a browser that refuses this site's
    cookies (asking the server through ``route.fetch`` would store its cookie)."""
    route.fulfill(status=200, content_type="application/json", body='{"csrf": ""}')


def _room_page(browser: Any, server: str) -> tuple[Any, Any]:
    """A new room's page, its WebSocket connected; then its cookies cleared."""
    context = browser.new_context(viewport=VIEWPORT, locale="fr-FR")
    page = context.new_page()
    page.set_default_timeout(WAIT_MS)
    page.add_init_script(SPY)
    page.goto(server + "/rooms")
    with page.expect_navigation():
        page.click("#room-form button[type=submit]")
    page.wait_for_selector("#lobby:not([hidden])")
    page.wait_for_function("window.__sockets.length === 1 && "
                           "window.__sockets[0].readyState === 1")
    context.clear_cookies()
    return context, page


def test_a_page_that_lost_its_cookie_gets_one_and_connects_again(browser: Any,
                                                                 server: str) -> None:
    context, page = _room_page(browser, server)
    try:
        page.evaluate("window.__sockets[0].close()")
        page.wait_for_function("window.__sockets.length === 3 && "
                               "window.__sockets[2].readyState === 1")
        assert page.evaluate("window.__codes")[1] == 4401
        assert any(c["name"] == "belote_id" for c in context.cookies())
        assert page.is_hidden("#notice")
    finally:
        context.close()


def test_a_page_whose_cookie_does_not_stick_stops_and_says_why(browser: Any,
                                                                server: str) -> None:
    context, page = _room_page(browser, server)
    try:
        context.route("**/api/session", _without_cookies)
        page.evaluate("window.__sockets[0].close()")
        try:
            page.wait_for_selector("#notice:has-text('autorisez les cookies')")
        except Exception as exc:  # say what the page went through (a rare failure under load)
            raise AssertionError(f"close codes {page.evaluate('window.__codes')}, "
                                 f"notice {page.text_content('#notice')!r}") from exc
        time.sleep(1.5)  # no third try comes after the message
        assert page.evaluate("window.__codes")[1:] == [4401, 4401]
        assert page.evaluate("window.__sockets.length") == 3
    finally:
        context.close()
