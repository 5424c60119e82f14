"""The chat of a room in Chromium (Playwright) against `belote serve`: two browsers at
one table, one on a phone in English and one in French on a wider screen, exchange a
quick message (each reads it in his language) and a text; a payload of markup shows as
text; a muted player's messages disappear, and stay muted after a reload; an over-long
message and a flood are refused in the panel; folded and scrolled past on the phone, a
message shows its count in a corner pill; a stranger's socket is refused; axe finds
nothing wrong with the panel open, in the lobby and at the table in play."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.web.support import SMALL_PHONE, live_server, open_page
from tests.web.test_accessibility import violations

SERVER_ARGS = ("--bot-delay", "0", "--trick-pause", "0.02", "--deal-pause", "60",
               "--seed", "7")
PHONE = SMALL_PHONE
WIDE = {"width": 1280, "height": 800}
PAYLOAD = '<img src=x onerror="window.pwned=1"><script>window.pwned=2</script>'


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with live_server(tmp_path_factory.mktemp("chat") / "sheets.db", *SERVER_ARGS) as url:
        yield url


def _page(browser: Any, viewport: dict[str, int], locale: str, errors: list[str]) -> Any:
    return open_page(browser, errors, viewport=viewport, locale=locale)


def _sit(page: Any, seat: str, name: str) -> None:
    page.wait_for_selector("#lobby:not([hidden])")
    page.fill("#player-name", name)
    page.dispatch_event("#player-name", "change")
    page.click(f'#lobby-seats [data-sit="{seat}"]')
    page.wait_for_selector(f'.lobby-seat.mine[data-seat="{seat}"]')


def _lines(page: Any) -> list[str]:
    return [t.strip() for t in page.locator("#chat-log li .chat-said").all_inner_texts()]


def test_two_friends_chat_mute_and_refusals(browser: Any, server: str) -> None:
    errors: list[str] = []
    ann = _page(browser, PHONE, "en-US", errors)
    ann.goto(server + "/rooms")
    ann.fill('#room-form input[name="name"]', "Chat")
    with ann.expect_navigation():
        ann.click("#room-form button[type=submit]")
    _sit(ann, "N", "Ann")
    link = ann.input_value("#share-link")
    luc = _page(browser, WIDE, "fr-FR", errors)
    luc.goto(link)
    _sit(luc, "E", "Luc")

    # On the phone the panel is folded; on the wide screen it is open.
    assert ann.is_hidden("#chat-body") and ann.get_attribute("#chat-toggle",
                                                             "aria-expanded") == "false"
    assert luc.is_visible("#chat-body")
    # A quick message: the phone counts it unread, each reads it in his language.
    luc.click('#chat [data-quick="well_played"]')
    luc.wait_for_function("() => document.querySelectorAll('#chat-log li').length === 1")
    assert _lines(luc) == ["Bien joué"]
    assert "Luc (Est)" in luc.inner_text("#chat-log li .chat-who")
    ann.wait_for_selector("#chat-badge:not([hidden])")
    assert ann.inner_text("#chat-badge") == "1"
    ann.click("#chat-toggle")
    assert ann.is_hidden("#chat-badge")
    assert _lines(ann) == ["Well played"]
    assert ann.inner_text("#chat-log li .chat-who") == "Luc (East):"

    # A text full of markup arrives as text, runs nothing, adds no element.
    ann.fill("#chat-text", PAYLOAD)
    ann.press("#chat-text", "Enter")
    luc.wait_for_function("() => document.querySelectorAll('#chat-log li').length === 2")
    assert _lines(luc)[-1] == PAYLOAD
    assert ann.input_value("#chat-text") == ""  # heard by the table: cleared
    for page in (ann, luc):
        assert page.locator("#chat-log img, #chat-log script").count() == 0
        assert page.evaluate("window.pwned") is None

    # axe, with the panel open on both (French and English, phone and wide).
    found = {"phone, en": violations(ann), "wide, fr": violations(luc)}
    assert found == {"phone, en": [], "wide, fr": []}, found

    # Luc mutes Ann: her messages go, the next ones too, and a reload keeps it so.
    luc.click('#chat-log li:has-text("<img") .chat-mute')
    assert _lines(luc) == ["Bien joué"]
    assert "Ann (Nord) est masqué ici." in luc.inner_text("#chat-muted")
    ann.fill("#chat-text", "encore moi")
    ann.press("#chat-text", "Enter")
    ann.wait_for_function("() => document.querySelectorAll('#chat-log li').length === 3")
    luc.click('#chat [data-quick="thanks"]')  # a message after Ann's: hers came first
    luc.wait_for_function("() => document.querySelectorAll('#chat-log li').length === 2")
    assert _lines(luc) == ["Bien joué", "Merci"]
    luc.reload()
    luc.wait_for_function("() => document.querySelectorAll('#chat-log li').length === 2")
    assert _lines(luc) == ["Bien joué", "Merci"]  # the last messages came back, Ann muted
    luc.click("#chat-muted .chat-mute")  # unmuted: everything said shows again
    assert _lines(luc) == ["Bien joué", PAYLOAD, "encore moi", "Merci"]

    # An over-long message (past the field's own limit) is refused in plain words.
    ann.evaluate("document.getElementById('chat-text').removeAttribute('maxlength')")
    ann.fill("#chat-text", "x" * 201)
    ann.press("#chat-text", "Enter")
    ann.wait_for_selector("#chat-error:not([hidden])")
    assert ann.inner_text("#chat-error") == (
        "Chat: a message has at most 200 characters (this one has 201).")
    assert ann.input_value("#chat-text") == "x" * 201  # kept, to be shortened
    # A flood: the quick buttons pressed far faster than anyone talks.
    ann.evaluate("""() => { const b = document.querySelector('#chat [data-quick="oops"]');
                            for (let i = 0; i < 12; i++) b.click(); }""")
    ann.wait_for_function(
        "() => document.getElementById('chat-error').textContent.includes('too many')")
    oops = ann.locator('#chat-log li .chat-said:text-is("Oops")').count()
    assert 1 <= oops < 12

    # A stranger (no invitation, no seat): no page, and his socket is closed unheard.
    stranger = _page(browser, WIDE, "en-US", errors)
    room_path = link.split("?")[0]
    assert stranger.goto(room_path).status == 404
    closed = stranger.evaluate("""path => new Promise((done) => {
        const ws = new WebSocket(location.origin.replace('http', 'ws') + '/ws/rooms/'
                                 + path.split('/').pop());
        const said = [];
        ws.onopen = () => {
          ws.send(JSON.stringify({type: 'hello', invite: 'guess'}));
          ws.send(JSON.stringify({type: 'chat', text: 'spam from outside'}));
        };
        ws.onmessage = (e) => said.push(JSON.parse(e.data));
        ws.onclose = (e) => done({code: e.code, said: said});
      })""", room_path)
    assert closed["code"] == 4404, closed
    assert all(m["type"] == "error" for m in closed["said"]), closed
    luc.click('#chat [data-quick="hello"]')
    luc.wait_for_function("() => [...document.querySelectorAll('#chat-log .chat-said')]"
                          ".some((e) => e.textContent === 'Salut !')")
    assert "spam from outside" not in luc.inner_text("#chat-log")
    # The game on: the panel open at the table, axe still finds nothing.
    ann.click("#start")
    ann.wait_for_selector("#hand .card")
    luc.wait_for_selector("#hand .card")
    assert ann.is_visible("#chat-body") and luc.is_visible("#chat-body")
    # Folded and scrolled past on the phone: a message shows its count in a corner pill,
    # which opens the panel.
    ann.click("#chat-toggle")
    ann.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    ann.wait_for_function("() => document.getElementById('chat-toggle')"
                          ".getBoundingClientRect().bottom < 0")
    assert ann.is_hidden("#chat-ping")
    luc.click('#chat [data-quick="come_on"]')
    ann.wait_for_selector("#chat-ping:not([hidden])")
    assert ann.inner_text("#chat-ping-count") == "1"
    box = ann.locator("#chat-ping").bounding_box()
    assert box is not None and box["y"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    assert violations(ann) == []
    ann.click("#chat-ping")
    assert ann.is_visible("#chat-body") and ann.is_hidden("#chat-ping")
    assert _lines(ann)[-1] == "Come on!"
    found = {"phone, en, in play": violations(ann), "wide, fr, in play": violations(luc)}
    assert found == {"phone, en, in play": [], "wide, fr, in play": []}, found
    assert not errors, errors
    for page in (ann, luc, stranger):
        page.context.close()
