"""benchmarks/gauntlet.py --report: the table of kept runs, each cell its runs pooled."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import pytest

from tests.helpers import load_benchmark as _load


@pytest.fixture(scope="module")
def gauntlet() -> ModuleType:
    _load("strength")
    return _load("gauntlet")


def _run(gauntlet: ModuleType, path: Path, bots: tuple[str, str] = ("heuristic", "random"),
         profile: str = "classic-2p", mode: str = "deals", seed: int | None = None,
         options: dict[str, str] | None = None) -> dict[str, object]:
    answer: dict[str, object] = gauntlet.run(bots, profile, options or {}, mode, 3, seed, 1,
                                             path)
    return answer


def test_the_report_pools_each_cells_runs_in_the_gauntlets_order(
        gauntlet: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    runs = [_run(gauntlet, tmp_path / f"r{i}.json") for i in range(2)]
    _run(gauntlet, tmp_path / "3p.json", profile="classic-3p")
    _run(gauntlet, tmp_path / "dev.json", seed=5)  # a development seed: left out
    files = [str(tmp_path / f) for f in ("3p.json", "r0.json", "r1.json", "dev.json")]
    assert gauntlet.main(["--bot", "heuristic", "--report", *files]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0].startswith("`heuristic` against each opponent, deals mode")
    assert lines[2] == "| opponent | 3 players | 2 players |"  # (largest table first)
    row = next(line for line in lines if line.startswith("| random |"))
    records = [r["pairings"][0]["deal_results"] for r in runs]  # type: ignore[index]
    wins = sum(r["wins"] for r in records) + sum(r["ties"] for r in records) / 2
    cells = row.split(" | ")
    assert cells[1].endswith("n=3")  # three players: one run of 3 boards
    assert cells[2].endswith("n=6 |")  # two players: two runs pooled, the dev run left out
    assert cells[2].startswith(f"{wins / 6:.1%} [")


def test_the_report_plots_the_cells(gauntlet: ModuleType, tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    _run(gauntlet, tmp_path / "a.json")
    png = tmp_path / "g.png"
    assert gauntlet.main(["--bot", "heuristic", "--report", str(tmp_path / "a.json"),
                          "--plot", str(png)]) == 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_report_refuses_runs_that_are_no_cell_of_the_gauntlet(
        gauntlet: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    def refused(*files: str, bot: str = "heuristic") -> str:
        assert gauntlet.main(["--bot", bot, "--report",
                              *(str(tmp_path / f) for f in files)]) == 2
        return capsys.readouterr().err

    _run(gauntlet, tmp_path / "plain.json")
    _run(gauntlet, tmp_path / "swapped.json", bots=("random", "heuristic"))
    assert "random vs heuristic (classic-2p, deals): not a pairing of the gauntlet of " \
        "'heuristic'" in refused("plain.json", "swapped.json")
    assert "not a pairing of the gauntlet of 'pimc'" in refused("plain.json", bot="pimc")
    _run(gauntlet, tmp_path / "decouverte.json", options={"two_deal": "decouverte"})
    assert "default options" in refused("decouverte.json")
    _run(gauntlet, tmp_path / "games.json", mode="games")
    assert "one table is one mode" in refused("plain.json", "games.json")
    _run(gauntlet, tmp_path / "dev.json", seed=3)
    assert "no run to report" in refused("dev.json")
    copy = tmp_path / "copy.json"
    copy.write_text((tmp_path / "plain.json").read_text())
    assert "pooled already" in refused("plain.json", "copy.json")
    assert gauntlet.main(["--plot", str(tmp_path / "x.png")]) == 2
    assert "--plot draws the cells of --report's runs" in capsys.readouterr().err
