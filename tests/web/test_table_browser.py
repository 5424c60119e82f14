"""The score sheet and the table as players expect them (issue 13), in Chromium driven
by Playwright against `belote serve`: declarations entered by name with the comparison
shown as one types, on a phone."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.web.support import live_server
from tests.web.test_phone import (
    DESKTOP,
    PHONE,
    SERVER_ARGS,
    _no_sideways_scroll,
    _page,
    _radio,
)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with live_server(tmp_path_factory.mktemp("table") / "sheets.db", *SERVER_ARGS) as url:
        yield url


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_declarations_by_name_in_the_browser(browser: Any, server: str,
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
    _no_sideways_scroll(page, "the sheet with the declarations by name")
    _radio(page, "taker", "NS")
    page.fill("#points", "100")
    page.fill('input[name="decl_NS_tierce"]', "1")
    page.fill('input[name="decl_EW_cinquante"]', "1")
    page.wait_for_function(
        "() => document.getElementById('decl-compare').textContent.includes('Them score 50')")
    assert "Best declaration: cinquante (Them) over tierce (Us)" in page.inner_text(
        "#decl-compare")
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
