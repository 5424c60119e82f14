"""benchmarks/read_sharpness.py: the Brier score of the worlds' chances that each other
seat holds each card not seen (docs/rules.md §12: two and three players), and the
script's table."""

from __future__ import annotations

import pytest

from belote.bots.knowledge import World
from belote.cards import mask_of
from tests.helpers import load_benchmark

read_sharpness = load_benchmark("read_sharpness")


def test_brier_is_zero_when_every_world_is_the_deal() -> None:
    truth = [mask_of([0, 1]), mask_of([2, 3])]
    worlds = [World((truth[0], truth[1]))] * 3
    assert read_sharpness.brier(worlds, [1.0, 2.0, 0.5], [1], truth, mask_of([2, 3])) == 0.0


def test_brier_counts_each_card_and_weight() -> None:
    """Seat 1 really holds cards 2 and 3 (4 and 5 are elsewhere); two worlds give it 2, 3
    and 4, 5.  Alike: each card's chance is 1/2, four cards of (1/2)² each: 1.  Weighed
    3 to 1 for the true one: (1/4)² for each of the four cards: 0.25."""
    truth = [0, mask_of([2, 3])]
    worlds = [World((0, mask_of([2, 3]))), World((0, mask_of([4, 5])))]
    cards = mask_of([2, 3, 4, 5])
    assert read_sharpness.brier(worlds, [1.0, 1.0], [1], truth, cards) == pytest.approx(1.0)
    assert read_sharpness.brier(worlds, [3.0, 1.0], [1], truth, cards) == pytest.approx(0.25)


def test_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    """Against the heuristic at two players the heuristic's model sharpens the worlds
    (its mean less the alike weighing's below zero on these deals)."""
    read_sharpness.main(["--deals", "4", "--seed", "2", "--left", "5", "4", "--worlds",
                         "16", "--search-worlds", "4"])
    out = capsys.readouterr().out
    assert "8 decisions" in out
    rows = {line.split(" | ")[0].lstrip("| "): line.split(" | ")
            for line in out.splitlines() if line.startswith("| ") and "---" not in line}
    assert set(rows) >= {"alike", "heuristic model", "search model", "both"}
    assert float(rows["heuristic model"][2].split()[0]) < 0


def test_four_players_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        read_sharpness.main(["--profile", "classic", "--deals", "1"])
    assert "two or three players" in capsys.readouterr().err
