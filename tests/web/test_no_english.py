"""No English word on a French page: Debian's chromium in French (fr-FR) over the home
page, the play and rooms forms, a room's lobby, the score sheets' list, a sheet
with hands, its follow link and the page of a second browser that opened it, a
rotation sheet (the same tour as the accessibility test), and a table in play at
each table size (four, three with the kitty, two with the stock and in découverte)
from its bidding to its result and its history of the deals.

What is checked is what a person meets: the page's visible text, and the words a
screen reader or a tooltip gives (placeholder, title, aria-label, alt).  The word list
is the common English words of an interface, the table's English words and the bots'
English names."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.support import live_server
from tests.web.test_accessibility import tour_pages
from tests.web.test_table_feedback import _next_deal, _play_turn
from tests.web.test_table_sizes import ENGLISH, SERVER_ARGS, _tap, _wait_turn, open_table

# Common words of an interface (and of this one) that a French page says otherwise.
UI_WORDS = (
    "Score sheets", "Sheets", "Rooms", "Play", "Playing", "Name", "Start", "Next", "New",
    "Delete", "Save", "Cancel", "Close", "Settings", "Sound", "Sounds", "History",
    "Hand", "Hands", "Team", "Teams", "Back", "Copy", "Link", "Share", "Join", "Leave",
    "Players", "Create", "Edit", "Add", "Remove", "Open", "Game", "Contract", "made",
    "failed", "Sit", "empty", "Target", "Rules", "Loading", "Error", "the", "and", "of",
    "with", "to", "your", "Your", "by", "seat", "Seat", "Time", "left", "Language",
    "Everyone", "passed", "Result", "Total score", "Undo", "Follow", "Watch", "Private",
    "Cards", "card", "Trump", "Hint", "Deals", "deal", "Strongest", "Beginner", "Random",
)
FRENCH_TOO = {"points", "face"}  # French words as well ("les points", "face visible")
WORDS = tuple(w for w in dict.fromkeys((*ENGLISH, *UI_WORDS)) if w not in FRENCH_TOO)

# The English words in what the page shows and says: its text, then the placeholder,
# title, aria-label and alt of each element (hidden ones aside).
FIND = r"""(words) => {
  const said = [["text", document.body.innerText]];
  for (const el of document.querySelectorAll("[placeholder], [title], [aria-label], [alt]")) {
    if (el.closest("[hidden]") || el.closest("script")) continue;
    for (const attr of ["placeholder", "title", "aria-label", "alt"]) {
      const v = el.getAttribute(attr);
      if (v) said.push([`${el.tagName.toLowerCase()}#${el.id || ""} ${attr}`, v]);
    }
  }
  const bad = [];
  for (const [where, text] of said) {
    for (const word of words) {
      const m = new RegExp("(^|[^\\p{L}'’])" + word + "($|[^\\p{L}'’])", "u").exec(text);
      if (!m) continue;
      const around = text.slice(Math.max(0, m.index - 25), m.index + word.length + 25);
      bad.push(`${where}: "${word}" in "${around.replace(/\s+/g, " ")}"`);
    }
  }
  return bad;
}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with live_server(tmp_path_factory.mktemp("fr") / "sheets.db", *SERVER_ARGS,
                     "--seed", "17") as url:
        yield url


def english(page: Any) -> list[str]:
    """The English words the page shows or says (empty: none)."""
    found: list[str] = page.evaluate(FIND, list(WORDS))
    return found


def test_the_word_list_finds_english(browser: Any, server: str) -> None:
    """The check itself: an English page is caught, words inside French ones are not."""
    context = browser.new_context(locale="en-US")
    page = context.new_page()
    page.goto(server + "/sheets")
    found = english(page)
    assert any('"Score sheets"' in f for f in found), found
    page.set_content('<p title="Tout le monde passe">Partie, contrat, entame, atout</p>')
    assert english(page) == []
    context.close()


def test_the_pages_say_no_english_word_in_french(browser: Any, server: str) -> None:
    """Every page but a table (each table size has its own test below)."""
    errors: list[str] = []
    found = tour_pages(browser, server, "fr-FR", english, errors, table=False)
    bad = {k: v for k, v in found.items() if v}
    assert bad == {}, "\n".join(f"{k}: {x}" for k, v in bad.items() for x in v)
    assert errors == []


@pytest.mark.parametrize("table", ["4", "3-kitty", "2-stock", "2-decouverte"])
def test_a_table_says_no_english_word_in_french(browser: Any, server: str, shots: Path,
                                                table: str) -> None:
    """From the bidding to the deal's result and the history of the deals, a second
    deal begun: every turn of ours checked."""
    errors: list[str] = []
    page = open_table(browser, server, "390x844", table, errors)
    found: dict[str, list[str]] = {}
    deals = 0
    for turn in range(200):
        _wait_turn(page)
        if page.is_visible("#result"):
            found["the result"] = english(page)
            _tap(page, "#history-btn")
            page.wait_for_selector("#history:not([hidden])")
            found["the history"] = english(page)
            page.keyboard.press("Escape")
            deals += 1
            if deals == 2:
                break
            _next_deal(page)
            continue
        phase = page.get_attribute("#room", "data-phase")
        found[f"{phase} {turn}"] = english(page)
        _play_turn(page)
    assert deals == 2
    page.context.close()
    bad = {k: v for k, v in found.items() if v}
    assert bad == {}, "\n".join(f"{k}: {x}" for k, v in bad.items() for x in v)
    assert errors == []
