"""benchmarks/plot_games.py: several tournament runs of one pairing in one picture."""

from __future__ import annotations

import json
from functools import partial
from pathlib import Path

import pytest

from tests.helpers import load_benchmark

_script = partial(load_benchmark, "plot_games")  # benchmarks/plot_games.py, loaded afresh

DOCS = Path(__file__).parent.parent / "docs" / "results"


def _games(*paths: Path) -> tuple[list[int], list[int]]:
    """Each file's games won by its second bot (the first bot's losses), and played."""
    pairings = [json.loads(p.read_text())["pairings"][0]["games"] for p in paths]
    return [g["losses"] for g in pairings], [g["played"] for g in pairings]


def test_runs_are_counted_alone_and_pooled(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    """Each run's count is the second bot's wins (the first bot's losses), and a
    group pools its runs' games."""
    pytest.importorskip("matplotlib")
    png = tmp_path / "games.png"
    a = DOCS / "tournament-heuristic-vs-pimc-v5.json"
    b = DOCS / "tournament-heuristic-vs-pimc-v5-seed12.json"
    assert _script().main(["--out", str(png), f"x={a}", f"x={b}"]) == 0
    printed = capsys.readouterr().out
    wins, played = _games(a, b)
    assert f"x, seed 11 (pimc:card_reads=model): {wins[0]} of {played[0]}" in printed
    assert f"x, all 2 seeds: {sum(wins)} of {sum(played)}" in printed
    assert "every group" not in printed  # one group: its pool is the whole
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_several_groups_are_pooled_together_too(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    """With two groups each is pooled alone, and a last row pools every run."""
    pytest.importorskip("matplotlib")
    a = DOCS / "tournament-heuristic-vs-pimc-v5.json"
    b = DOCS / "tournament-heuristic-vs-pimc-v5-seed12.json"
    assert _script().main(["--out", str(tmp_path / "g.png"), f"x={a}", f"y={b}"]) == 0
    printed = capsys.readouterr().out.splitlines()
    wins, played = _games(a, b)
    assert any(line.startswith(f"x, its one seed: {wins[0]} of {played[0]}") for line in printed)
    assert any(line.startswith(f"y, its one seed: {wins[1]} of {played[1]}") for line in printed)
    assert printed[-2].startswith(f"every group, all 2 seeds: {sum(wins)} of {sum(played)}")


@pytest.mark.parametrize("arg", ["nolabel", "=x.json", "x=", "x=/no/such/file.json"])
def test_a_bad_run_is_refused_by_name(arg: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        _script().main(["--out", "unused.png", arg])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "LABEL=FILE" in err or "not one tournament pairing" in err


def test_a_file_of_deals_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = json.loads((DOCS / "tournament-heuristic-vs-pimc-v5.json").read_text())
    data["mode"] = "deals"
    path = tmp_path / "deals.json"
    path.write_text(json.dumps(data))
    with pytest.raises(SystemExit):
        _script().main(["--out", str(tmp_path / "x.png"), f"x={path}"])
    assert "mode 'deals', not games" in capsys.readouterr().err
