"""benchmarks/roles.py: a kept tournament's deals split by each seat's role."""

from __future__ import annotations

from functools import partial
from pathlib import Path

import pytest

from belote.cli.tournament import keep_records
from belote.history import HistoryStore, stats
from belote.tournament import TournamentConfig, run_tournament
from tests.helpers import load_benchmark

_script = partial(load_benchmark, "roles")  # benchmarks/roles.py, loaded afresh


def _kept(tmp_path: Path, profile: str) -> Path:
    db = tmp_path / f"{profile}.db"
    config = TournamentConfig(bots=("random", "heuristic"), mode="deals", boards=4, seed=3,
                              profile=profile)
    keep_records(db, run_tournament(config, workers=1, keep_records=True))
    return db


@pytest.mark.parametrize("profile", ["classic-3p", "classic-2p", "classic"])
def test_the_roles_add_up_to_the_historys_own_counts(tmp_path: Path, profile: str) -> None:
    db = _kept(tmp_path, profile)
    with HistoryStore(db) as store:
        games = store.all_games()
    tallies = _script().roles(games)
    assert set(tallies) == {"random", "heuristic"}
    for row in stats(games, {}):
        tally = tallies[row["name"]]
        roles = tally.roles
        assert tally.scored == row["deals"]
        assert roles["taker"].deals == row["taken"]
        assert roles["taker"].made == row["made"]
        assert sum(t.points for t in roles.values()) == row["points"]
        data = tally.to_json()
        parts = sum(data[r]["part_a_seat_deal"] for r in ("taker", "partner", "defender")
                    if r in data)
        assert parts == pytest.approx(data["points_a_seat_deal"], abs=0.03)
    partners = sum(t.roles["partner"].deals for t in tallies.values())
    assert (partners > 0) == (profile == "classic")  # (a partner only at four players)


def test_the_script_prints_each_bot_and_refuses_what_is_no_kept_history(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    roles = _script()
    db = _kept(tmp_path, "classic-3p")
    assert roles.main([str(db)]) == 0
    out = capsys.readouterr().out
    assert "random:" in out and "heuristic:" in out and "as taker:" in out
    assert roles.main([str(tmp_path / "none.db")]) == 2
    assert "none.db: no such history file" in capsys.readouterr().err
    empty = tmp_path / "empty.db"
    HistoryStore(empty).close()
    assert roles.main([str(empty)]) == 2
    assert "empty.db: no game kept" in capsys.readouterr().err
