"""The score sheet on a phone (360 x 740, in French), in Chromium against `belote
serve`: every column of the hands table in view (each hand a block of its own), the
extra chips clear of the result badges, the declarations entered by name shown in the
"declarations won" fields (not "personne"), the preview's colon spaced the French way,
axe with nothing to say; and a card of the Spanish pack named with its article in an
English sentence."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from belote.errors import IllegalPlayError, RuleCode
from belote.web.refusals import rule_text
from tests.web.support import SMALL_PHONE, live_server, open_page
from tests.web.test_accessibility import violations
from tests.web.test_phone import _radio

SERVER_ARGS = ("--seed", "3")
PHONE = SMALL_PHONE

# Each shown cell of the hands table whose box goes past the screen's edges, with no
# scrolling hint for it (a region that scrolls sideways and says so).
CELLS_OUT = r"""() => {
  const width = document.documentElement.clientWidth;
  const out = [];
  for (const td of document.querySelectorAll('#hands-table tbody td')) {
    const r = td.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;
    if (r.left < 0 || r.right > width + 0.5) {
      out.push(`${td.className}: ${Math.round(r.left)}..${Math.round(r.right)}`);
    }
  }
  const wrap = document.querySelector('#hands .table-wrap');
  const scrolls = wrap && wrap.scrollWidth > wrap.clientWidth + 1;
  return { out: out, scrolls: !!scrolls, width: width,
           cells: document.querySelectorAll('#hands-table tbody td').length };
}"""

# Each chip whose box meets a badge's, in any row.
CHIPS_ON_BADGES = r"""() => {
  const hits = [];
  const meet = (a, b) => a.left < b.right && b.left < a.right
                         && a.top < b.bottom && b.top < a.bottom;
  for (const row of document.querySelectorAll('#hands-table tbody tr')) {
    const badges = [...row.querySelectorAll('.badge')]
      .map((b) => [b.textContent, b.getBoundingClientRect()]);
    for (const chip of row.querySelectorAll('.chip')) {
      const c = chip.getBoundingClientRect();
      for (const [text, b] of badges) {
        if (meet(c, b)) hits.push(`${chip.textContent.trim()} / ${text.trim()}`);
      }
    }
  }
  return hits;
}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with live_server(tmp_path_factory.mktemp("sheetphone") / "sheets.db", *SERVER_ARGS) as url:
        yield url


def _phone(browser: Any, errors: list[str]) -> Any:
    return open_page(browser, errors, viewport=PHONE, locale="fr-FR")


def _sheet(page: Any, server: str, profile: str) -> None:
    page.goto(server + "/sheets")
    page.fill('input[name="name"]', "Vendredi soir chez Ana")
    page.select_option('select[name="profile"]', profile)
    page.fill('input[name="team_ns"]', "Les Anciens")
    page.fill('input[name="team_ew"]', "Les Modernes")
    with page.expect_navigation():
        page.click("#new-sheet button[type=submit]")


def _hand(page: Any, taker: str, points: str = "", **radios: str) -> None:
    _radio(page, "taker", taker)
    for name, team in radios.items():
        _radio(page, name, team)
    if points:
        page.fill("#points", points)
    with page.expect_navigation():
        page.click("#add-hand")


def _check_table(page: Any, what: str) -> None:
    assert page.evaluate(CHIPS_ON_BADGES) == [], what
    geometry = page.evaluate(CELLS_OUT)
    assert geometry["cells"] > 0, what
    assert geometry["out"] == [] and not geometry["scrolls"], (what, geometry)


def test_the_hands_of_a_classic_sheet_on_a_phone(browser: Any, server: str) -> None:
    errors: list[str] = []
    page = _phone(browser, errors)
    _sheet(page, server, "classic")
    # Declarations by name: the comparison's result fills "declarations won".
    page.click("#decl-names summary")
    _radio(page, "taker", "NS")
    page.fill("#points", "100")
    page.fill('input[name="decl_NS_tierce"]', "1")
    page.fill('input[name="decl_EW_cinquante"]', "1")
    page.wait_for_function(
        "() => document.querySelector('select[name=decl_team]').value === 'EW'")
    assert page.input_value("#decl_points") == "50"
    assert page.evaluate("document.querySelector('select[name=decl_team]')"
                         ".selectedOptions[0].textContent") == "Les Modernes"
    assert page.is_disabled('select[name="decl_team"]') and page.is_disabled("#decl_points")
    # the preview: "fait : Les Anciens +..." with the French space before the colon
    page.wait_for_function(r"() => / : Les Anciens \+/.test("
                           "document.getElementById('preview').textContent)")
    assert violations(page) == []
    # Emptied by name: the fields are free and empty again.
    page.fill('input[name="decl_NS_tierce"]', "")
    page.fill('input[name="decl_EW_cinquante"]', "")
    page.wait_for_function(
        "() => !document.querySelector('select[name=decl_team]').disabled")
    assert page.input_value("#decl_points") == ""
    page.fill('input[name="decl_NS_tierce"]', "1")
    page.fill('input[name="decl_EW_cinquante"]', "1")
    page.wait_for_function("() => document.getElementById('decl_points').value === '50'")
    _radio(page, "belote", "NS")
    with page.expect_navigation():
        page.click("#add-hand")
    assert "Les Modernes +50 annonces" in page.inner_text("#hands-table")
    _hand(page, "EW", "81")  # litige: 81 in reserve
    _hand(page, "NS", "81")  # litige again
    _hand(page, "EW", capot="EW")  # a capot takes the reserve: a long chip by the badge
    assert page.locator("#hands-table tbody tr").count() == 4
    assert "de la réserve" in page.inner_text("#hands-table")
    _check_table(page, "a classic sheet")
    # the totals of both teams are on screen, in the first hand's block
    first = page.locator("#hands-table tbody tr").first
    for team in ("NS", "EW"):
        box = first.locator(f"td.team-{team}").bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 360
    assert violations(page) == []
    assert not errors, errors
    page.context.close()


def test_the_hands_of_a_coinche_sheet_on_a_phone(browser: Any, server: str) -> None:
    errors: list[str] = []
    page = _phone(browser, errors)
    _sheet(page, server, "coinche")
    for taker, points, contract, multiplier in (("NS", "100", "90", "2"),
                                                ("EW", "40", "120", "4")):
        _radio(page, "taker", taker)
        page.fill("#points", points)
        page.select_option('select[name="contract"]', contract)
        page.select_option('select[name="multiplier"]', multiplier)
        page.select_option('select[name="decl_team"]', taker)
        page.fill("#decl_points", "100")
        _radio(page, "belote", taker)
        with page.expect_navigation():
            page.click("#add-hand")
    assert page.locator("#hands-table tbody tr").count() == 2
    _check_table(page, "a coinche sheet")
    assert violations(page) == []
    assert not errors, errors
    page.context.close()


def test_a_spanish_card_takes_its_article_in_english() -> None:
    """The Moroccan profile's Spanish pack (docs/rules.md §1.2): a card named in words
    takes "the" in an English sentence, as it takes "le", "la" or "l'" in French."""
    for code, en, fr in (("JH", "the sota de copas", "la sota de copas"),
                         ("AS", "the as de espadas", "l'as de espadas"),
                         ("KC", "the rey de bastos", "le rey de bastos")):
        refusal = IllegalPlayError(RuleCode.FOLLOW_SUIT, seat=2, card=code,
                                   where=("trick 3",))
        assert rule_text("en", refusal, seat=2, spanish=True).startswith(
            f"You may not play {en}: ")
        assert rule_text("fr", refusal, seat=2, spanish=True).startswith(
            f"Vous ne pouvez pas jouer {fr} : ")
        assert rule_text("en", refusal, seat=2).startswith("You may not play ")
        assert "the" not in rule_text("en", refusal, seat=2).split(":")[0]
