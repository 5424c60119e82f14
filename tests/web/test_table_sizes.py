"""The table at every table size on every screen: Debian's chromium driven by
Playwright against `belote serve`, in French.

Four players, three (the kitty, 24-card and six-each deals) and two (the stock and
découverte deals) on a 360×740, 390×844 and 430×932 phone, a phone on its side
(844×390) and a tablet (768×1024).  Each test plays one whole deal against fast bots
and, at every one of our turns, checks by the page's geometry that:

- the page is no wider than the screen (the configured width: a mobile Chromium widens
  ``innerWidth`` to the page, so it is no measure);
- the whole hand is in view, each card showing a strip at least 28 px wide and 44 px
  tall where the fan overlaps them, and a tap in that strip lands on that card (the
  cards are played by tapping there);
- the contract (or the bidding), the trump once known, whose turn it is, the trick and
  every score are in view, the bidding buttons too, and the scores do not cover the
  seat at the top.

After a trick, one tap on the felt's trick pile shows the last trick."""

from __future__ import annotations

import re
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.support import live_server, open_page

SERVER_ARGS = ("--bot-delay", "0", "--trick-pause", "0.02", "--deal-pause", "60",
               "--rooms-per-minute", "6000", "--rooms-per-client", "1000")
MIN_STRIP = 28  # px of a card's face showing when the fan overlaps them
MIN_TALL = 44

# (width, height, animations): one screen keeps the animations (and waits for them
# before measuring), the others ask for reduced motion.
SCREENS = {
    "360x740": (360, 740, False),
    "390x844": (390, 844, True),
    "430x932": (430, 932, False),
    "844x390": (844, 390, False),  # a phone on its side
    "768x1024": (768, 1024, False),  # a tablet
}
# (profile, deal option, its value): the table sizes and their deals (docs/rules.md §12).
TABLES = {
    "4": ("classic", None, None),
    "3-kitty": ("classic-3p", "three_deal", "kitty"),
    "3-24": ("classic-3p", "three_deal", "24_cards"),
    "3-six": ("classic-3p", "three_deal", "six_each"),
    "2-stock": ("classic-2p", "two_deal", "stock"),
    "2-decouverte": ("classic-2p", "two_deal", "decouverte"),
}

# Everything that must be seen at a turn, measured against the configured screen:
# answers a list of what is wrong (empty: all is well).
CHECK = """([W, H]) => {
  const bad = [];
  const root = document.documentElement;
  if (root.scrollWidth > W) bad.push(`page ${root.scrollWidth} px wide`);
  const inView = (el, what) => {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) { bad.push(`${what}: not shown`); return null; }
    if (r.left < -0.5 || r.top < -0.5 || r.right > W + 0.5 || r.bottom > H + 0.5) {
      bad.push(`${what} at ${[r.left, r.top, r.right, r.bottom].map(Math.round)}`);
    }
    return r;
  };
  // in view and, but for our own seat, not under something else (the hand and the
  // calls kept at the bottom of the screen); the trick's cards may overlap each other
  const need = (sel, what, optional) => {
    const els = [...document.querySelectorAll(sel)];
    if (!els.length && !optional) bad.push(`${what}: missing`);
    for (const el of els) {
      const r = inView(el, what);
      if (!r || el.closest(".seat-box")) continue;
      const x = r.left + r.width / 2;
      const hit = document.elementFromPoint(x, r.top + Math.min(r.height, 24) / 2);
      const mine = hit && (el.contains(hit) || hit.contains(el)
        || (el.closest("#trick") && hit.closest("#trick")));
      if (hit && !mine) bad.push(`${what} under #${hit.id} ${hit.getAttribute("class")}`);
    }
  };
  const room = document.getElementById("room");
  const phase = room.dataset.phase;
  need("#felt-contract", "the contract");
  need("#felt-score .fs", "the scores");
  need(".seat-box.turn", "whose turn");
  need("#center-info", "the turn's line");
  if (phase === "play") {
    need("#felt-trump", "the trump");
    need("#trick", "the trick");
    need("#trick .played .card", "a card of the trick", true);
  }
  if (phase === "bidding") need("#bidding button", "the bidding buttons");
  if (phase === "discard") need("#discard-confirm", "the lay-aside button");
  // the scores, even of four digits, never cover the seat at the top
  const top = document.getElementById("pos-top");
  const totals = [...document.querySelectorAll("#felt-score .fs b")];
  const was = totals.map((b) => b.textContent);
  totals.forEach((b) => { b.textContent = "1000"; });
  const score = document.getElementById("felt-score").getBoundingClientRect();
  if (!top.hidden) {
    const t = top.getBoundingClientRect();
    if (score.left < t.right && t.left < score.right
        && score.top < t.bottom && t.top < score.bottom) {
      bad.push("the scores cover the seat at the top");
    }
  }
  if (score.right > W + 0.5) bad.push("the scores go off the screen");
  totals.forEach((b, i) => { b.textContent = was[i]; });
  const cards = [...document.querySelectorAll("#hand .card")];
  if (!cards.length) bad.push("no hand");
  for (const el of document.querySelectorAll("#hand .card.illegal")) {
    if (Number(getComputedStyle(el).opacity) > 0.8) bad.push(`${el.dataset.card} not greyed`);
  }
  cards.forEach((el, i) => {
    const r = inView(el, `card ${el.dataset.card}`);
    if (!r) return;
    const next = cards[i + 1] ? cards[i + 1].getBoundingClientRect() : null;
    const sameRow = next && Math.abs(next.top - r.top) < r.height / 2;
    const wide = sameRow ? next.left - r.left : r.width;
    const below = next && !sameRow && next.top > r.top;
    const tall = below ? Math.min(r.height, next.top - r.top) : r.height;
    if (wide < MIN_STRIP - 0.5 || tall < MIN_TALL - 0.5) {
      bad.push(`card ${el.dataset.card} shows ${Math.round(wide)}x${Math.round(tall)} px`);
    }
    const x = r.left + Math.min(wide, r.width) / 2;
    const y = r.top + Math.min(tall, r.height) / 2;
    const hit = document.elementFromPoint(x, y);
    if (!hit || hit.closest(".card") !== el) bad.push(`a tap on ${el.dataset.card} misses it`);
  });
  return bad;
}""".replace("MIN_STRIP", str(MIN_STRIP)).replace("MIN_TALL", str(MIN_TALL))

# The README's pictures (docs/screenshots/, made by scripts/screenshots.sh, which runs
# these tests with $BELOTE_SCREENSHOTS=docs/screenshots): each table size on a phone
# and on a phone on its side.
SHOT_TABLES = {"4": "table-4p", "3-kitty": "table-3p-kitty", "2-stock": "table-2p-stock",
               "2-decouverte": "table-2p-decouverte"}
SHOTS = {(table, screen): f"{name}-{way}"
         for table, name in SHOT_TABLES.items()
         for screen, way in (("390x844", "phone"), ("844x390", "landscape"))}

# English words that have no place on a French table (its visible text), bots included.
ENGLISH = ("North", "South", "East", "West", "Bot W", "heuristic", "random", "trump",
           "trick", "Hint", "Pass", "take", "Take", "dealer", "turn", "to play", "to speak",
           "kitty", "turned", "last", "Show", "face", "spades", "hearts", "diamonds",
           "clubs", "jack", "queen", "king", "Deal", "bidding", "Bidding", "won", "wins",
           "You", "you", "Waiting", "Declarations", "Tricks", "points", "player")
# The French words of the table, checked at every turn: no English word, the French
# pack's letters (V D R, never J Q K) on the faces, each card's name in words for a
# screen reader, illegal cards said to be so, a space before each colon.
FRENCH_CHECK = r"""(english) => {
  const bad = [];
  const text = document.body.innerText;
  for (const word of english) {
    const m = new RegExp("(^|[^\\p{L}])" + word + "($|[^\\p{L}])", "u").exec(text);
    if (m) bad.push(`"${word}" in "${text.slice(Math.max(0, m.index - 30), m.index + 30)}"`);
  }
  const colon = /[\p{L}\d)][:;!?]/u.exec(text.replace(/https?:\/\/\S+/g, ""));
  if (colon) bad.push(`no space before the colon: ${colon[0]}`);
  for (const el of document.querySelectorAll("#hand .card, #trick .card")) {
    const face = el.querySelector(".corner").textContent;
    if (/[JQK]/.test(face)) bad.push(`${el.dataset.card} shows ${face}`);
    const name = el.getAttribute("aria-label") || "";
    const french = /^(7|8|9|10|valet|dame|roi|as) de (pique|cœur|carreau|trèfle)/;
    const spanish = /^(4|5|6|7|sota|caballo|rey|as) de (oros|copas|espadas|bastos)/;
    const words = document.getElementById("room").dataset.deck === "spanish" ? spanish : french;
    if (!words.test(name)) {
      bad.push(`${el.dataset.card} is called "${name}"`);
    }
  }
  for (const el of document.querySelectorAll("#hand .card")) {
    const off = el.classList.contains("illegal");
    if (off !== (el.getAttribute("aria-disabled") === "true")) {
      bad.push(`${el.dataset.card}: aria-disabled does not say whether it is legal`);
    }
  }
  return bad;
}"""

HINT = re.compile(r"Conseil : jouez (le (7|8|9|10|valet|roi|4|5|6|caballo|rey)|la (dame|sota)|l'as)"
                  r" de (pique|cœur|carreau|trèfle|oros|copas|espadas|bastos)")

# Where to tap a card of the hand: the middle of its visible strip.
TAP_AT = """(code) => {
  const cards = [...document.querySelectorAll("#hand .card")];
  const i = cards.findIndex((el) => el.dataset.card === code);
  const r = cards[i].getBoundingClientRect();
  const next = cards[i + 1] ? cards[i + 1].getBoundingClientRect() : null;
  const sameRow = next && Math.abs(next.top - r.top) < r.height / 2;
  const wide = sameRow ? Math.min(r.width, next.left - r.left) : r.width;
  return [r.left + wide / 2, r.top + Math.min(r.height, 44) / 2 + 4];
}"""


def seed_of(test: str) -> int:
    """A test's own seed, from its name: its room (the server's first) is dealt the
    same cards whatever ran before it, in this process or another (xdist)."""
    return zlib.crc32(test.encode()) % 100_000


@pytest.fixture
def server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A server of the test's own, seeded from the test's name (a room's seed is the
    server's plus the rooms it opened before)."""
    seed = str(seed_of(request.node.name))
    with live_server(tmp_path / "sheets.db", *SERVER_ARGS, "--seed", seed) as url:
        yield url


def _version(page: Any) -> str:
    return str(page.get_attribute("#room", "data-version"))


def _wait_change(page: Any, before: str) -> None:
    try:
        page.wait_for_function("v => document.getElementById('room').dataset.version !== v",
                               arg=before)
    except Exception as exc:  # say where the page stood (a rare failure under load)
        room = page.evaluate("({...document.getElementById('room').dataset})")
        notice = page.text_content("#notice")
        raise AssertionError(f"no new state after version {before}: room {room}, "
                             f"notice {notice!r}") from exc


def _wait_turn(page: Any) -> None:
    page.wait_for_function(
        "() => { const r = document.getElementById('room');"
        " return r.dataset.myturn === '1' || !document.getElementById('result').hidden; }")


# Where a player sees an element: the middle of its box, when it is in view and not
# under something else (None otherwise).
SEEN_AT = """(sel) => {
  const el = document.querySelector(sel);
  const r = el.getBoundingClientRect();
  const x = r.left + r.width / 2, y = r.top + r.height / 2;
  if (r.width === 0 || x < 0 || y < 0 || x > innerWidth || y > innerHeight) return null;
  const hit = document.elementFromPoint(x, y);
  return hit && (el === hit || el.contains(hit)) ? [x, y] : null;
}"""


def _tap(page: Any, selector: str) -> None:
    """Tap ``selector`` where it shows, as a finger does: never scrolling the page to
    it (``page.tap`` would), so that a control out of view or covered fails the test."""
    at = page.evaluate(SEEN_AT, selector)
    assert at is not None, f"{selector} is out of view or covered"
    page.touchscreen.tap(*at)


def _tap_card(page: Any, code: str) -> None:
    x, y = page.evaluate(TAP_AT, code)
    page.touchscreen.tap(x, y)


def open_table(browser: Any, server: str, screen: str, table: str,
               errors: list[str], script: str = "") -> Any:
    """A French table against the random bots at ``table`` on ``screen``: its page
    (``script`` runs in it before the page's own)."""
    width, height, animated = SCREENS[screen]
    page = open_page(browser, errors, viewport={"width": width, "height": height},
                     locale="fr-FR", console=(), is_mobile=True, has_touch=True,
                     reduced_motion="no-preference" if animated else "reduce")
    if script:
        page.add_init_script(script)
    profile, option, value = {**TABLES, "moroccan": ("moroccan", None, None),
                              "coinche": ("coinche", None, None)}[table]
    page.goto(server + "/play")
    page.select_option("#profile", profile)
    if option:
        page.select_option("#" + option, value)
    page.select_option("#bots", "random")
    page.fill('input[name="player"]', "Ana")
    with page.expect_navigation():
        page.click("#play-form button[type=submit]")
    page.wait_for_selector("#table:not([hidden])")
    return page


def play_one_deal(page: Any, screen: str, shots: Path, shot: str = "",
                  hint: bool = False, discard: bool = False) -> dict[str, int]:
    """Play our turns until a deal's result, checking the screen at each; deals where
    everyone passes are dealt again; photographed as ``shot`` at the first turn with
    cards on the felt.  Answers how many turns of each phase were seen."""
    width, height, animated = SCREENS[screen]
    seen = {"bidding": 0, "discard": 0, "play": 0, "last_trick": 0, "hint": 0}
    for _ in range(200):
        _wait_turn(page)
        if page.is_visible("#result"):
            if seen["play"] and (seen["discard"] or not discard):
                return seen
            before = _version(page)
            _tap(page, "#next-deal")
            _wait_change(page, before)
            continue
        phase = str(page.get_attribute("#room", "data-phase"))
        if animated:
            page.wait_for_function("() => document.getAnimations().every("
                                   "(a) => a.playState !== 'running')")
        bad = page.evaluate(CHECK, [width, height])
        if bad:
            players = page.get_attribute("#room", "data-players")
            page.screenshot(path=str(shots / f"sizes-failed-{players}-{screen}.png"))
        assert bad == [], f"{phase} at {screen}: {bad}"
        # whose turn it is, said aloud (a live region)
        assert page.get_attribute("#message", "aria-live") == "assertive"
        assert "vous" in page.inner_text("#message").lower()
        bad = page.evaluate(FRENCH_CHECK, list(ENGLISH))
        assert bad == [], f"English at {phase}: {bad}"
        seen[phase] += 1
        if shot and phase == "play" and page.locator("#trick .played").count() >= 1:
            page.screenshot(path=str(shots / f"{shot}.png"))
            shot = ""
        before = _version(page)
        if phase == "bidding":
            take = '#bidding [data-call="take"]'
            _tap(page, take if page.locator(take).count() else "#bidding button.suit-btn")
        elif phase == "discard":
            cards = page.eval_on_selector_all("#hand .card", "els => els.map(e => e.dataset.card)")
            _tap_card(page, cards[-1])
            _tap_card(page, cards[0])
            assert page.locator("#hand .card.chosen").count() == 2
            _tap(page, "#discard-confirm")
        else:
            if page.locator("#trick-pile:not([hidden])").count() and not seen["last_trick"]:
                # once a deal: the last trick on one tap of the pile, then the trick again
                _tap(page, "#trick-pile")
                page.wait_for_selector("#trick.last-shown")
                shown = page.locator("#trick .played").count()
                assert shown == page.locator(".seat-box:not([hidden])").count()
                seen["last_trick"] += 1
                _tap(page, "#trick-pile")
                page.wait_for_selector("#trick:not(.last-shown)")
            if hint and page.locator("#hand .card").count() <= 2:
                # the strongest bot's advice names the card as one says it
                _tap(page, "#hint-btn")
                page.wait_for_selector("#message.hint")
                assert HINT.fullmatch(page.inner_text("#message")), page.inner_text("#message")
                hint = False
                seen["hint"] += 1
            legal = page.eval_on_selector_all("#hand .card.legal",
                                              "els => els.map(e => e.dataset.card)")
            dim = page.eval_on_selector_all("#hand .card.illegal",
                                            "els => els.map(e => e.dataset.card)")
            assert legal and len(legal) + len(dim) == page.locator("#hand .card").count()
            _tap_card(page, legal[-1])
        _wait_change(page, before)
    raise AssertionError("no deal was played to its end")


@pytest.mark.parametrize("screen", list(SCREENS))
@pytest.mark.parametrize("table", list(TABLES))
def test_a_whole_deal_fits_the_screen(browser: Any, server: str, shots: Path, table: str,
                                      screen: str) -> None:
    errors: list[str] = []
    page = open_table(browser, server, screen, table, errors)
    shot = SHOTS.get((table, screen), "")
    # at three with the kitty, until we take it: twelve cards in hand (on two rows at 360 px)
    seen = play_one_deal(page, screen, shots, shot, discard=table == "3-kitty")
    assert seen["play"] > 0 and seen["last_trick"] >= 1, seen
    if table == "3-kitty":
        assert seen["discard"] == 1, seen
    page.context.close()
    assert errors == []


@pytest.mark.parametrize("profile", ["classic", "moroccan"])
def test_a_hint_and_the_spanish_pack_in_french(browser: Any, server: str, shots: Path,
                                               profile: str) -> None:
    """The hint names its card in French words ("jouez le valet de carreau"); the
    Spanish pack keeps its own (sota, caballo, rey, as of oros, copas, espadas, bastos)."""
    errors: list[str] = []
    page = open_table(browser, server, "390x844", "4" if profile == "classic" else profile,
                      errors)
    assert page.get_attribute("#room", "data-deck") == (
        "spanish" if profile == "moroccan" else "french")
    seen = play_one_deal(page, "390x844", shots, hint=True)
    assert seen["play"] > 0 and seen["hint"] == 1, seen
    page.context.close()
    assert errors == []
