"""benchmarks/strength.py: runs on fresh seeds, recorded, pooled with Wilson intervals."""

from __future__ import annotations

import json
import re
from functools import partial
from pathlib import Path

import pytest

from belote.tournament.stats import wilson_interval
from tests.helpers import load_benchmark

_script = partial(load_benchmark, "strength")  # benchmarks/strength.py, loaded afresh


def _run(tmp_path: Path, name: str, *extra: str) -> dict[str, object]:
    out = tmp_path / name
    assert _script().main(["run", "--bots", "random,heuristic", "--deals", "3",
                           "--profile", "classic-2p", "--out", str(out), *extra]) == 0
    data: dict[str, object] = json.loads(out.read_text())
    return data


def test_a_run_draws_its_seed_when_it_runs_and_records_it(tmp_path: Path) -> None:
    a = _run(tmp_path, "a.json")
    b = _run(tmp_path, "b.json")
    assert a["seed_source"] == b["seed_source"] == "fresh"
    assert isinstance(a["seed"], int) and isinstance(b["seed"], int)
    assert a["seed"] != b["seed"]  # (two draws of 63 bits)
    assert "strength" in str(a["command"]) or "--bots" in str(a["command"])
    given = _run(tmp_path, "c.json", "--seed", "7")
    assert given["seed"] == 7 and given["seed_source"] == "given"


def test_pool_adds_fresh_runs_refuses_a_seed_twice_and_leaves_given_seeds_out(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    strength = _script()
    runs = [_run(tmp_path, f"{i}.json") for i in range(2)]
    _run(tmp_path, "dev.json", "--seed", "3")
    entries = strength.pool([tmp_path / "0.json", tmp_path / "1.json", tmp_path / "dev.json"])
    assert len(entries) == 1
    entry = entries[0]
    records = [r["pairings"][0]["deal_results"] for r in runs]  # type: ignore[index]
    assert entry.wins == sum(r["wins"] for r in records)
    assert entry.played == sum(r["played"] for r in records) == 6
    assert set(entry.seeds) == {r["seed"] for r in runs}
    low, high = wilson_interval(entry.wins + entry.ties / 2, entry.played)
    assert (entry.rate.low, entry.rate.high) == (low, high)
    with_dev = strength.pool([tmp_path / "0.json", tmp_path / "dev.json"], with_given=True)
    assert with_dev[0].played == 6
    # the same deals twice: refused, with the file and the seed named
    copy = tmp_path / "copy.json"
    copy.write_text((tmp_path / "0.json").read_text())
    assert strength.main(["pool", str(tmp_path / "0.json"), str(copy)]) == 2
    err = capsys.readouterr().err
    assert "copy.json" in err and "pooled already" in err
    # only given seeds: nothing to pool
    assert strength.main(["pool", str(tmp_path / "dev.json")]) == 2
    assert "no run to pool" in capsys.readouterr().err
    not_json = tmp_path / "x.json"
    not_json.write_text("{")
    assert strength.main(["pool", str(not_json)]) == 2
    assert "x.json: not a readable JSON file" in capsys.readouterr().err


def test_pool_plots_the_intervals(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    _run(tmp_path, "a.json")
    png = tmp_path / "pooled.png"
    assert _script().main(["pool", str(tmp_path / "a.json"), "--plot", str(png)]) == 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_long_label_is_wrapped_at_its_commas_and_spaces() -> None:
    """The plot's labels (a bot's spec has no spaces): every line within the width
    where a break exists, nothing lost or reordered."""
    wrapped = _script().wrapped
    spec = ("pimc:bidding=heuristic,worlds=16,tricks=7,nodes=100000,play_calls=ignore,"
            "kitty_read=uniform,discard=rule,card_reads=ignore vs pimc (classic-3p "
            '{"three_deal": "kitty"}, deals)  n=400')
    for width in (20, 40, 60, 200):
        text = wrapped(spec, width)
        assert text.replace("\n", "").replace(" ", "") == spec.replace(" ", "")
        # a line is over the width only when it cannot break (one piece)
        assert all(len(line) <= width or not re.search(r"[, ].", line)
                   for line in text.split("\n"))
        assert (text.count("\n") == 0) == (len(spec) <= width)
    assert wrapped("a,b", 1) == "a,\nb"  # (a piece longer than the width stays whole)


def _answer(seed: int, margins: list[float]) -> dict[str, object]:
    """A tournament's answer with one pairing whose boards had these margins."""
    from belote.tournament.stats import mean_estimate

    wins = sum(1 for m in margins if m > 0)
    losses = sum(1 for m in margins if m < 0)
    return {"seed": seed, "seed_source": "fresh", "profile": "classic-2p", "options": {},
            "mode": "deals",
            "pairings": [{"bots": ["a", "b"], "boards": len(margins),
                          "deal_results": {"wins": wins, "losses": losses,
                                           "ties": len(margins) - wins - losses},
                          "margin_per_deal": mean_estimate(margins).to_json()}]}


def test_pool_gives_the_margin_of_every_board_pooled(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from belote.tournament.stats import mean_estimate

    strength = _script()
    runs = [[12.0, -4.0, 30.0, 0.0, 7.5], [-20.0, 3.0, 16.0], [40.0]]
    for i, margins in enumerate(runs):
        (tmp_path / f"{i}.json").write_text(json.dumps(_answer(100 + i, margins)))
    entry = strength.pool([tmp_path / f"{i}.json" for i in range(3)])[0]
    every = mean_estimate([m for margins in runs for m in margins])
    assert entry.margin.value == pytest.approx(every.value)
    assert entry.margin.low == pytest.approx(every.low)
    assert entry.margin.high == pytest.approx(every.high)
    assert strength.main(["pool", *(str(tmp_path / f"{i}.json") for i in range(3))]) == 0
    out = capsys.readouterr().out
    assert f"second {every.value:+.2f} [{every.low:+.1f}, {every.high:+.1f}]" in out
    assert strength.main(["pool", "--json", str(tmp_path / "0.json")]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data[0]["margin_per_deal"]["value"] == pytest.approx(sum(runs[0]) / 5)
    # a pairing without its margin: refused with the file named, nothing pooled
    broken = _answer(200, [1.0, 2.0])
    del broken["pairings"][0]["margin_per_deal"]  # type: ignore[index]
    (tmp_path / "broken.json").write_text(json.dumps(broken))
    assert strength.main(["pool", str(tmp_path / "broken.json")]) == 2
    assert "broken.json: a vs b has no boards and margin_per_deal" in capsys.readouterr().err
