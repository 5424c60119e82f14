"""benchmarks/where_points.py: where one bot's points against another come from."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers import BENCHMARKS, load_benchmark


def test_boards_of_several_seeds_are_counted_apart(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Two seeds' runs over the same board numbers, written to one file: each line
    carries its seed, the split counts four boards (not the two numbers), and at two
    players the reference margins of a board's tables add up to zero (§12.2: each
    seating once, so the board's mean difference is its margin)."""
    monkeypatch.syspath_prepend(str(BENCHMARKS))  # (it imports paired_boards beside it)
    where = load_benchmark("where_points")
    out = tmp_path / "where.jsonl"
    for seed in (11, 12):
        assert where.main(["--bots", "random,heuristic", "--profile", "classic-2p",
                           "--seed", str(seed), "--boards", "0:2", "--out", str(out)]) == 0
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert sorted({(r["seed"], r["board"]) for r in rows}) == [(11, 0), (11, 1), (12, 0), (12, 1)]
    for key in {(r["seed"], r["board"]) for r in rows}:
        tables = [r for r in rows if (r["seed"], r["board"]) == key]
        assert len(tables) == 2
        assert sum(r["reference_margin"] for r in tables) == 0
    capsys.readouterr()
    split = tmp_path / "split.json"
    assert where.main(["--read", str(out), "--json", str(split)]) == 0
    assert "8 tables of 4 boards" in capsys.readouterr().out
    assert json.loads(split.read_text())["boards"] == 4
    # a file written before the seed was kept: its boards are told apart by number alone
    old = tmp_path / "old.jsonl"
    old.write_text("".join(json.dumps({k: v for k, v in r.items() if k != "seed"}) + "\n"
                           for r in rows))
    assert where.main(["--read", str(old)]) == 0
    assert "8 tables of 2 boards" in capsys.readouterr().out
