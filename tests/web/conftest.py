"""Fixtures of the web tests: the application over a temporary database, a
TestClient, and the browser (Debian's chromium driven by Playwright)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from belote.web import RoomSettings, create_app
from belote.web.security import Limits
from tests.web.support import CHROMIUM, CHROMIUM_ARGS, TestClient, new_identity

# Tests read every message: bots answer at once, a finished deal waits for "next".
FAST = RoomSettings(bot_delay=0.0, trick_pause=0.0, deal_pause=60.0, grace=0.0)


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "sheets.db"


# The tests drive whole games as fast as the server answers, from one address:
# limits far above a person's (test_security.py checks the real ones).
GENEROUS = Limits(messages_per_second=1000.0, messages_burst=1000, rooms_per_minute=6000.0,
                  rooms_burst=1000, rooms_per_client=1000, network_messages_per_second=10_000.0,
                  network_messages_burst=10_000)


@pytest.fixture
def client(db: Path) -> Iterator[TestClient]:
    app = create_app(db, settings=FAST, seed=11, limits=GENEROUS)
    with TestClient(app) as c:
        new_identity(c)
        yield c


@pytest.fixture(scope="session")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the browser tests leave their screenshots ($BELOTE_SCREENSHOTS to keep them)."""
    chosen = os.environ.get("BELOTE_SCREENSHOTS")
    if chosen:
        path = Path(chosen)
        path.mkdir(parents=True, exist_ok=True)
        return path
    return tmp_path_factory.mktemp("screenshots")


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    """Debian's chromium (never a downloaded browser); skipped only when it is absent.

    Module-scoped: Playwright's sync API holds an event loop in the main thread
    while it runs, which the other tests must not inherit."""
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"{CHROMIUM} is missing (scripts/setup.sh installs Debian's chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()
