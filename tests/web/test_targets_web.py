"""§11.1: each profile's own targets are offered on the web forms (the score sheet and
a new table), not the Moroccan 500 and 700 to every game."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from belote.options import ALL_PROFILES, TARGET_CHOICES, profile_rules
from tests.web.support import TestClient, live_server


def test_every_profile_has_its_targets_its_default_among_them() -> None:
    assert set(TARGET_CHOICES) == set(ALL_PROFILES)
    for profile, choices in TARGET_CHOICES.items():
        assert profile_rules(profile).target in choices, profile
    assert {500, 700} <= set(TARGET_CHOICES["moroccan"])
    for profile in ("classic", "coinche", "contree", "classic-3p", "classic-2p"):
        assert not {500, 700} & set(TARGET_CHOICES[profile]), profile


@pytest.mark.parametrize("path", ["/sheets", "/play", "/rooms"])
def test_forms_offer_each_profile_its_targets(client: TestClient, path: str) -> None:
    page = client.get(path).text
    lists = {name: [int(v) for v in re.findall(r'<option value="(\d+)">', body)]
             for name, body in re.findall(r'<datalist id="targets-([\w-]+)">(.*?)</datalist>',
                                          page)}
    for profile in re.findall(r'<select name="profile"[^>]*>(.*?)</select>', page, re.S)[0] \
            .split("<option")[1:]:
        name = re.search(r'value="([\w-]+)"', profile)
        assert name is not None
        assert lists[name.group(1)] == list(TARGET_CHOICES[name.group(1)]), path
    field = re.search(r'<input name="target"[^>]*>', page)
    assert field is not None and 'list="targets-classic"' in field.group(0)
    assert "data-targets" in field.group(0)


def test_choosing_a_profile_switches_the_suggested_targets(browser: Any,
                                                           tmp_path: Path) -> None:
    """In a browser the target field follows the profile chosen in its form."""
    with live_server(tmp_path / "sheets.db") as url:
        context = browser.new_context(locale="en-US")
        page = context.new_page()
        for path in ("/sheets", "/play"):
            page.goto(url + path)
            field = page.locator("input[name=target]").first
            assert field.get_attribute("list") == "targets-classic"
            page.locator("select[name=profile]").first.select_option("moroccan")
            assert field.get_attribute("list") == "targets-moroccan"
            page.locator("select[name=profile]").first.select_option("coinche")
            assert field.get_attribute("list") == "targets-coinche"
        context.close()
