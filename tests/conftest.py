"""Every test keeps its games' history in its own folder, never in the user's."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def _own_history(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BELOTE_HISTORY", str(tmp_path / "history.db"))
