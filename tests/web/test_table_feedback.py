"""What the players' usual apps give at the table, in Debian's chromium (French):

- short pop-ups, said by a screen reader (a polite live region), for the take, the
  declarations (announced, then who wins them), belote and rebelote, coinche and capot,
  that let a tap through and never stay over the hand;
- the deal-by-deal score history over the table, at four (teams), three and two
  (seats): a button by the felt's scores opens it, Esc, a tap on the shade or its
  button closes it, the focus goes into it and back;
- sounds (WebAudio, no file) and a vibration at one's turn, with a switch kept in
  localStorage, silent by default under prefers-reduced-motion;
- the turn timer, only when the server has one (``--turn-timer``);
- illegal cards greyed even while they are being dealt.

The state's own parts (the deals' ``history``, ``turn_left``) are tested over the
room protocol too (TestClient)."""

from __future__ import annotations

import itertools
import random
import re
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from belote.web import RoomSettings, create_app
from tests.web.conftest import GENEROUS
from tests.web.support import TestClient, live_server, new_identity, receive, send, until_state
from tests.web.test_accessibility import violations
from tests.web.test_table_sizes import (
    SERVER_ARGS,
    _tap,
    _tap_card,
    _version,
    _wait_change,
    _wait_turn,
    open_table,
)

# Every state the page is sent, kept in window.__states (a WebSocket wrapped before the
# page's script runs); a capot may be written into the first result (window.__capot),
# to see its pop-up without waiting for random bots to make one.
RECORD = """(() => {
  window.__states = [];
  window.__toasts = [];
  window.__capot = false;
  const Real = window.WebSocket;
  window.WebSocket = function (url, protocols) {
    const ws = new Real(url, protocols);
    Object.defineProperty(ws, "onmessage", {
      set(handler) {
        ws.__handler = handler;
        Real.prototype.__lookupSetter__("onmessage").call(ws, (event) => {
          let data = event.data;
          try {
            const msg = JSON.parse(data);
            if (msg.type === "state") {
              if (window.__capot && msg.result && msg.between_deals) {
                const r = msg.result;
                if (r.sides) r.capot = 0; else r.capot = r.contract.team;
                window.__capot = false;
                data = JSON.stringify(msg);
              }
              window.__states.push(JSON.parse(data));
            }
          } catch (e) { /* not ours */ }
          handler({ data: data });
        });
      },
    });
    return ws;
  };
  window.WebSocket.prototype = Real.prototype;
  window.WebSocket.OPEN = Real.OPEN;
  document.addEventListener("DOMContentLoaded", () => {
    const el = document.getElementById("toast");
    if (!el) return;
    new MutationObserver(() => {
      if (!el.hidden) window.__toasts.push(el.innerText.replace(/\\s+/g, " ").trim());
    }).observe(el, { childList: true, subtree: true, attributes: true });
  });
})();"""

# A fake WebAudio and vibrator that count what the page asks of them.
FAKE_SOUND = """(() => {
  window.__tones = 0;
  window.__vibrations = 0;
  class Node { connect(n) { return n || this; } }
  class Param { setValueAtTime() {} exponentialRampToValueAtTime() {} set value(v) {} }
  class Osc extends Node {
    constructor() { super(); this.frequency = new Param(); }
    start() { window.__tones += 1; }
    stop() {}
  }
  class Gain extends Node { constructor() { super(); this.gain = new Param(); } }
  window.AudioContext = class {
    constructor() { this.currentTime = 0; this.state = "running"; this.destination = new Node(); }
    createOscillator() { return new Osc(); }
    createGain() { return new Gain(); }
    resume() { return Promise.resolve(); }
  };
  navigator.vibrate = () => { window.__vibrations += 1; return true; };
})();"""


def seed_of(test: str) -> int:
    return zlib.crc32(test.encode()) % 100_000


@pytest.fixture
def server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A server of the test's own, seeded from the test's name."""
    seed = str(seed_of(request.node.name))
    with live_server(tmp_path / "sheets.db", *SERVER_ARGS, "--seed", seed) as url:
        yield url


def _table(browser: Any, server: str, table: str, errors: list[str], screen: str = "390x844",
           script: str = RECORD) -> Any:
    """open_table's page, ``script`` run before the page's own."""
    return open_table(browser, server, screen, table, errors, script)


def _play_turn(page: Any) -> None:
    """Our one move: take (or name the first suit, or pass), lay aside two cards, or
    play the last legal card; then wait for the state it makes."""
    before = _version(page)
    phase = page.get_attribute("#room", "data-phase")
    if phase == "discard":
        cards = page.eval_on_selector_all("#hand .card", "els => els.map(e => e.dataset.card)")
        _tap_card(page, cards[-1])
        _tap_card(page, cards[0])
        _tap(page, "#discard-confirm")
        _wait_change(page, before)
        return
    _tap_move(page, phase)
    try:
        page.wait_for_function(CHANGED, arg=before, timeout=8_000)
    except Exception:
        # A tap that lands while the page redraws its controls (a state came just
        # then) is lost, as a finger's would be: tap again, as a player does, if
        # nothing came and it is still our turn at the same point.
        if _version(page) == before and page.get_attribute("#room", "data-myturn") == "1":
            _tap_move(page, phase)
    _wait_change(page, before)


CHANGED = "v => document.getElementById('room').dataset.version !== v"


def _tap_move(page: Any, phase: str | None) -> None:
    """Tap our call (take, else the first suit, else pass) or our last legal card."""
    if phase == "bidding":
        for call in ('#bidding [data-call="take"]', "#bidding button.suit-btn",
                     '#bidding [data-call="pass"]'):
            if page.locator(call).count():
                _tap(page, call)
                return
    else:
        legal = page.eval_on_selector_all("#hand .card.legal",
                                          "els => els.map(e => e.dataset.card)")
        _tap_card(page, legal[-1])


def _play_to_result(page: Any) -> None:
    for _ in range(200):
        _wait_turn(page)
        if page.is_visible("#result"):
            return
        _play_turn(page)
    raise AssertionError("no deal came to its end")


def _next_deal(page: Any) -> None:
    before = _version(page)
    _tap(page, "#next-deal")
    _wait_change(page, before)


NAMES = {"N": "Bot N", "E": "Bot E", "S": "Ana", "W": "Bot O"}


def expected_pop_ups(states: list[dict[str, Any]]) -> list[str]:
    """What the pop-ups must say, worked out from the states the page was sent (the
    seats by their names, the suits by their symbols)."""
    out: list[str] = []
    for prev, st in itertools.pairwise(states):
        d, p = st["deal"], prev["deal"]
        if not d or not p or d["number"] != p["number"]:
            continue
        for c in d["calls"][len(p["calls"]):]:
            if c["call"] == "take" or re.fullmatch(r"[SHDC]", c["call"]):
                out.append(f"{NAMES[c['seat']]} prend à")
            elif c["call"] in ("coinche", "surcoinche"):
                out.append(f"{NAMES[c['seat']]} {c['call']} ! Contrat :")
        if st["auction"] and d["contract"] and not p["contract"]:
            value = str(d["contract"]["value"]).replace("generale", "générale")
            out.append(f"Contrat : {value}")
        said: dict[str, int] = {}
        for i, b in enumerate(d["belote"]):
            said[b["seat"]] = said.get(b["seat"], 0) + 1
            if i >= len(p["belote"]):
                word = "belote" if said[b["seat"]] == 1 else "rebelote"
                out.append(f"{NAMES[b['seat']]} : {word}")
        out += [f"{NAMES[s]} annonce" for s in d["announced"] if s not in p["announced"]]
        out += [f"Les annonces vont à {NAMES[s]}" for s in d["shown"] if s not in p["shown"]]
        if st["between_deals"] and not prev["between_deals"] and st["result"] \
                and st["result"]["capot"] is not None:
            out.append("Capot pour")
    return out


KINDS = {"classic": ("prend à", "annonce", "Les annonces vont", "belote", "Capot pour"),
         "coinche": ("coinche !", "Contrat :", "Capot pour")}


@pytest.mark.parametrize("profile", list(KINDS))
def test_pop_ups_say_the_take_the_declarations_belote_and_capot(browser: Any, server: str,
                                                                 profile: str) -> None:
    """Each pop-up says what happened, and each thing that happened has its pop-up
    (deals played until each kind was seen; the first deal's result made a capot):
    the take, the declarations, belote; with the auction a coinche and the contract."""
    errors: list[str] = []
    kinds = KINDS[profile]
    page = _table(browser, server, "4" if profile == "classic" else profile, errors)
    seen: set[str] = set()
    checked = False
    for deal in range(10):
        page.evaluate("() => { window.__states = window.__states.slice(-1);"
                      " window.__toasts.length = 0;"
                      f" window.__capot = {'true' if deal == 0 else 'false'}; }}")
        for _ in range(200):
            _wait_turn(page)
            if page.is_visible("#result"):
                break
            toast = page.locator("#toast")
            if not checked and toast.is_visible():
                # a polite live region; a tap goes through it; never over the hand
                assert toast.get_attribute("role") == "status"
                assert toast.get_attribute("aria-live") == "polite"
                assert page.evaluate("getComputedStyle(document.getElementById('toast'))"
                                     ".pointerEvents") == "none"
                box, hand = toast.bounding_box(), page.locator("#hand").bounding_box()
                assert box["y"] + box["height"] <= hand["y"], (box, hand)
                found = violations(page)
                assert found == [], found
                checked = True
            _play_turn(page)
        page.wait_for_timeout(100)
        wanted = expected_pop_ups(page.evaluate("window.__states"))
        toasts = page.evaluate("window.__toasts")
        for line in wanted:
            assert any(line in t for t in toasts), (line, toasts)
        for t in toasts:
            assert any(line in t for line in wanted), (t, wanted)
        seen |= {k for k in kinds for line in wanted if k in line}
        if seen == set(kinds):
            break
        _next_deal(page)
    assert checked
    assert seen == set(kinds), seen
    # it goes away by itself
    page.wait_for_selector("#toast", state="hidden", timeout=8000)
    page.context.close()
    assert errors == []


@pytest.mark.parametrize("table", ["4", "3-kitty", "2-stock"])
def test_the_score_history_over_the_table(browser: Any, server: str, table: str) -> None:
    errors: list[str] = []
    page = _table(browser, server, table, errors, screen="360x740")
    for deal in range(2):
        _play_to_result(page)
        if deal == 0:
            _next_deal(page)
    states = page.evaluate("window.__states")
    last = states[-1]
    hands = last["score"]["hands"]
    assert len(last["history"]) == len(hands) >= 1
    # the button by the felt's scores, seen and tapped where it shows
    _tap(page, "#history-btn")
    page.wait_for_selector("#history:not([hidden])")
    assert page.evaluate("document.activeElement.id") == "history-close"
    assert page.get_attribute("#history-btn", "aria-expanded") == "true"
    rows = page.locator("#history-table tbody tr")
    assert rows.count() == len(hands)
    columns = (["NS", "EW"] if table == "4" else last["score"]["seats"])
    for i, row in enumerate(rows.all()):
        cells = row.locator("td.num").all_inner_texts()
        points = hands[i]["score"] if table == "4" else hands[i]
        running = last["score"]["running"][i]
        assert [c.split() for c in cells] == [
            [f"+{points[c]}", str(running[c])] for c in columns]
        words = row.locator(".history-contract").inner_text()
        assert re.search(r"(pris|:)", words) and re.search(
            r"(fait|chut|litige|chacun)", words), words
    totals = page.locator("#history-table tfoot td").all_inner_texts()
    assert totals == [str(last["score"]["totals"][c]) for c in columns]
    # inside the screen, axe-clean, the focus kept inside with Tab
    box = page.locator(".history-card").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 360 and box["y"] >= 0
    assert violations(page) == []
    page.keyboard.press("Tab")
    assert page.evaluate("document.getElementById('history').contains(document.activeElement)")
    page.keyboard.press("Escape")
    page.wait_for_selector("#history", state="hidden")
    assert page.evaluate("document.activeElement.id") == "history-btn"
    # a tap on the shade closes it too, a tap on the card does not
    _tap(page, "#history-btn")
    page.wait_for_selector("#history:not([hidden])")
    page.locator(".history-card h2").click()
    assert page.is_visible("#history")
    page.mouse.click(3, 3)
    page.wait_for_selector("#history", state="hidden")
    page.context.close()
    assert errors == []


def test_sounds_and_vibration_with_their_switch(browser: Any, server: str) -> None:
    errors: list[str] = []
    page = _table(browser, server, "4", errors, script=RECORD + FAKE_SOUND)
    _wait_turn(page)
    # our turn came: a chime and a vibration (no reduced motion asked: on by default)
    assert page.is_checked("#opt-sound")
    _play_turn(page)
    _play_to_result(page)
    tones, buzzes = page.evaluate("[window.__tones, window.__vibrations]")
    assert tones > 10 and buzzes >= 2, (tones, buzzes)
    # off, remembered across a reload: silence
    # (the result's panel lies over the side panel on a phone: by the keyboard)
    page.focus("#opt-sound")
    page.keyboard.press("Space")
    assert not page.is_checked("#opt-sound")
    assert page.evaluate("localStorage.getItem('belote-sound')") == "off"
    page.reload()
    page.wait_for_selector("#table:not([hidden])")
    assert not page.is_checked("#opt-sound")
    _next_deal(page)
    _play_to_result(page)
    assert page.evaluate("[window.__tones, window.__vibrations]") == [0, 0]
    page.context.close()
    # under reduced motion it starts silent (the switch unticked)
    page = _table(browser, server, "4", errors, screen="360x740", script=RECORD + FAKE_SOUND)
    assert page.evaluate("matchMedia('(prefers-reduced-motion: reduce)').matches")
    assert not page.is_checked("#opt-sound")
    _play_to_result(page)
    assert page.evaluate("[window.__tones, window.__vibrations]") == [0, 0]
    page.context.close()
    assert errors == []


def test_illegal_cards_are_greyed_while_they_are_dealt(browser: Any, server: str) -> None:
    """A card dealt just before our turn and not legal lands greyed (the deal-in
    animation ends on the card's own look) and says it is disabled."""
    errors: list[str] = []
    page = _table(browser, server, "4", errors)  # 390x844 keeps the animations
    for _ in range(200):
        _wait_turn(page)
        if page.locator("#hand .card.illegal").count():
            break
        if page.is_visible("#result"):
            _next_deal(page)
            continue
        _play_turn(page)
    late = page.evaluate("""() => {
      const el = document.querySelector("#hand .card.illegal");
      el.classList.remove("deal-in");  // (still there from the deal: restart it)
      void el.offsetWidth;
      el.classList.add("deal-in");
      const a = el.getAnimations().find((x) => x.animationName === "deal-in");
      a.pause();
      a.currentTime = a.effect.getComputedTiming().endTime - 20;
      return [Number(getComputedStyle(el).opacity), el.getAttribute("aria-disabled")];
    }""")
    assert late[0] < 0.7 and late[1] == "true", late
    page.context.close()
    assert errors == []


@pytest.mark.parametrize("timer", [None, 40])
def test_the_turn_timer_shows_only_when_the_server_has_one(
        browser: Any, tmp_path: Path, timer: int | None) -> None:
    extra = ("--turn-timer", str(timer)) if timer else ()
    with live_server(tmp_path / "sheets.db", *SERVER_ARGS, "--seed", "5", *extra) as url:
        errors: list[str] = []
        page = _table(browser, url, "4", errors)
        _wait_turn(page)
        if timer is None:
            assert page.locator("#turn-timer").count() == 0
            assert page.evaluate("window.__states.at(-1).turn_left") is None
        else:
            chip = page.locator(".seat-box.turn #turn-timer")
            assert chip.get_attribute("role") == "timer"
            seconds = int(chip.inner_text().split()[0])
            assert 0 < seconds <= timer
            assert page.locator(".seat-box.turn").get_attribute("data-seat") == "S"
        page.context.close()
        assert errors == []


# --- the state's own parts, over the room protocol -------------------------------------

def _choose(rng: random.Random, deal: dict[str, Any]) -> dict[str, Any]:
    if deal["phase"] == "bidding":
        return {"type": "call", "call": rng.choice(deal["legal"])}
    if deal["phase"] == "discard":
        return {"type": "discard", "cards": deal["hand"][:2]}
    return {"type": "play", "card": rng.choice(deal["legal"])}


@pytest.mark.parametrize(("profile", "options"), [
    ("classic", {}), ("coinche", {}), ("classic-3p", {"three_deal": "kitty"}),
    ("classic-2p", {"two_deal": "decouverte"})])
def test_the_state_lists_each_scored_deal(client: TestClient, profile: str,
                                          options: dict[str, str]) -> None:
    """``history``: one entry a scored deal, in the score's order, with the contract,
    the outcome and the capot its result said (all-passes skipped, numbered among the
    deals dealt)."""
    data = {"profile": profile, "bots": "random", "target": "300", "player": "Me", **options}
    r = client.post("/play", data=data, follow_redirects=False)
    assert r.status_code == 303, r.text
    location = r.headers["location"]
    room_id = location.split("/")[2].split("#")[0]
    token = location.split("token=")[1]
    rng = random.Random(profile)
    results: list[dict[str, Any]] = []
    with client.websocket_connect(f"/ws/rooms/{room_id}") as ws:
        send(ws, {"type": "hello", "token": token})
        me = receive(ws)["seat"]
        for _ in range(20_000):
            state = until_state(ws)
            assert len(state["history"]) == len(state["score"]["hands"])
            if state["between_deals"]:
                r_ = state["result"]
                if r_ is not None and (not results or results[-1]["deal"]
                                       != state["deal"]["number"]):
                    small = "sides" in r_
                    capot = r_["capot"]
                    results.append({
                        "deal": state["deal"]["number"], "contract": r_["contract"],
                        "outcome": r_["outcome"] if small else r_["score"]["outcome"],
                        "capot": None if capot is None else (
                            r_["sides"][capot] if small else list(capot))})
                if state["status"] == "finished":
                    break
                send(ws, {"type": "next"})
            elif state["deal"]["turn"] == me and (state["deal"]["legal"]
                                                  or state["deal"]["must_discard"]):
                send(ws, _choose(rng, state["deal"]))
    assert state["status"] == "finished"
    assert state["history"] == results
    assert len(results) >= 1


def test_turn_left_counts_down_for_a_connected_player_only(db: Path) -> None:
    settings = RoomSettings(bot_delay=0.0, trick_pause=0.0, deal_pause=60.0, grace=0.0,
                            turn_timer=30.0)
    app = create_app(db, settings=settings, seed=11, limits=GENEROUS)
    with TestClient(app) as client:
        new_identity(client)
        r = client.post("/play", data={"profile": "classic", "bots": "random",
                                       "player": "Me"}, follow_redirects=False)
        location = r.headers["location"]
        room_id = location.split("/")[2].split("#")[0]
        token = location.split("token=")[1]
        with client.websocket_connect(f"/ws/rooms/{room_id}") as ws:
            send(ws, {"type": "hello", "token": token})
            assert receive(ws)["seat"] == "S"
            for _ in range(1000):
                state = until_state(ws)
                if state["deal"]["turn"] == "S" and state["deal"]["legal"]:
                    break
                # a bot's turn: no timer runs
                assert state["turn_left"] is None, state["deal"]["turn"]
            assert state["turn_timer"] == 30.0
            assert 0 < state["turn_left"] <= 30.0
