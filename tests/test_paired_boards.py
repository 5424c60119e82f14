"""benchmarks/paired_boards.py: two bots on the same duplicate boards."""

from __future__ import annotations

import gc
import json
import re
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import load_benchmark

_script = partial(load_benchmark, "paired_boards")  # benchmarks/paired_boards.py, loaded afresh


def test_the_same_bot_twice_differs_by_nothing(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    """Both bots get the same seeds on the same boards: one bot twice is alike on
    every board."""
    out = tmp_path / "boards.jsonl"
    assert _script().main(["--bots", "random,random", "--opponent", "heuristic",
                           "--boards", "3:5", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "2 boards: " in printed and "difference +0.00" in printed
    assert "2 boards alike" in printed
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [(r["board"], r["bot"]) for r in rows] == [
        (3, "random"), (3, "random"), (4, "random"), (4, "random")]
    assert rows[0]["margin"] == rows[1]["margin"]


def test_the_oracle_sees_the_true_deal(capsys: pytest.CaptureFixture[str]) -> None:
    """The oracle plays the true deal's best card: over a few boards it does at least
    as well as a random card play would, and far better than random on average."""
    assert _script().main(["--bots", "random,oracle", "--opponent", "heuristic",
                           "--boards", "0:4"]) == 0
    line = capsys.readouterr().out.strip().splitlines()[-1]
    first = float(line.split("random ")[1].split(",")[0])
    second = float(line.split("oracle ")[1].split(" a deal")[0])
    assert second > first + 30


def test_a_rule_option_reaches_every_board(monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    """``--option`` changes the profile's rules for every board both bots play."""
    script = _script()
    played = script.play_chunk
    seen: list[object] = []

    def spy(job: Any) -> Any:
        seen.append(job.rules.three_deal)
        return played(job)

    monkeypatch.setattr(script, "play_chunk", spy)
    assert script.main(["--bots", "random,random", "--profile", "classic-3p",
                        "--option", "three_deal=kitty", "--boards", "0:2"]) == 0
    assert "2 boards: " in capsys.readouterr().out
    assert [str(d) for d in seen] == ["kitty"] * 4


@pytest.mark.parametrize(("args", "said"), [
    (["--bots", "random"], "give two bot specs"),
    (["--bots", "random,nosuch"], "unknown bot 'nosuch'"),
    (["--bots", "random,random", "--opponent", "pimc:worlds=0"], "'worlds': 0 is below 1"),
    # a spec's second setting stays with it (not taken for a third bot)
    (["--bots", "random,pimc:worlds=2,nodes=0"], "'nodes': 0 is below 1"),
    (["--bots", "oracle:model,oracle:model=solver"], "not together"),
    (["--bots", "oracle,oracle:model=solver", "--own-tricks", "3"],
     "only with oracle:model"),
    (["--bots", "oracle,oracle:model", "--own-tricks", "0"], "0 is below 1"),
    (["--bots", "random,random", "--boards", "x"], "'x' is not START:STOP"),
    (["--bots", "random,random", "--boards", "5:2"], "'5:2' is not START:STOP"),
    (["--bots", "random,random", "--profile", "nope"], "unknown profile 'nope'"),
    (["--bots", "random,random", "--option", "nosuch=1"], "unknown option 'nosuch'"),
    (["--bots", "random,random", "--option", "nosuch"], "'nosuch': KEY=VALUE expected"),
    (["--bots", "random,random", "--profile", "classic-3p", "--option", "three_deal=x"],
     "'x' is not one of"),
])
def test_bad_arguments_are_refused_by_name(args: list[str], said: str,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        _script().main(args)
    assert exit_.value.code == 2
    assert said in capsys.readouterr().err


def test_the_gate_is_counted_deal_by_deal_and_no_bot_is_kept(
        capsys: pytest.CaptureFixture[str]) -> None:
    """``answers=model``'s gate is added up from each deal's bots as the deal ends, and
    no bot outlives its board (a run of thousands of boards once kept every bot it
    made, some 0.13 MB a board at two players)."""
    script = _script()
    assert script.main(["--bots", "heuristic,pimc:answers=model,worlds=4,nodes=20000",
                        "--profile", "classic-3p", "--boards", "0:2"]) == 0
    line = capsys.readouterr().out.strip().splitlines()[-1]
    found = re.search(r"answers by the model (\d+) of (\d+)", line)
    assert found is not None, line
    on, every = int(found[1]), int(found[2])
    assert on == every > 0  # against the heuristic the model misses nothing: always on
    gc.collect()
    assert len(script._SPEC) == 0


def test_the_seats_left_out_within_the_deal_are_counted(
        capsys: pytest.CaptureFixture[str]) -> None:
    """``answer_check=deal`` against a random opponent: the seats the check leaves out
    are added up and printed beside the gate (none against the heuristic, above)."""
    script = _script()
    assert script.main(["--bots", "heuristic,pimc:answer_check=deal,worlds=4,nodes=20000",
                        "--opponent", "random", "--profile", "classic-3p",
                        "--boards", "0:2"]) == 0
    line = capsys.readouterr().out.strip().splitlines()[-1]
    found = re.search(r"answers by the model (\d+) of (\d+), (\d+) seats left out", line)
    assert found is not None, line
    assert int(found[3]) > 0


def test_the_model_yardstick_plays_for_the_heuristics_misplay() -> None:
    """``oracle:model`` values a card by the deal played out with the others' real rule
    (the heuristic), not double dummy: three players, seed 1's board 4 played by the
    heuristic, the taker (East, clubs trumps) last to the second trick on the spade 9 and
    ten holds the spade jack and ace.  Double dummy the jack, giving the trick away, is
    worth 4 points more; against the heuristic's answers the ace, taking it, is worth
    12 more, with the taker's own later cards searched against them: the two
    yardsticks part."""
    from belote.bots.base import next_action
    from belote.options import make_rules
    from belote.round import Round
    from belote.tournament.seeding import board_deal

    script = _script()
    rules = make_rules("classic-3p", {})
    dealer, deck = board_deal(rules, 1, 4)
    rnd = Round(rules, dealer, deck)
    bots = [script.make_bot("heuristic") for _ in range(3)]
    while not (str(rnd.phase) == "play" and len(rnd.tricks) == 1 and len(rnd.trick) == 2):
        view = rnd.view()
        rnd.apply(next_action(bots[view.seat], view))
    view = rnd.view()
    assert view.contract is not None
    assert view.seat == 1 == view.contract.taker and view.legal_cards == (4, 7)  # JS, AS
    script._Oracle.current = rnd
    solved = script._Oracle(0).evaluate(view)
    modelled = script._Modelled(0).evaluate(view)
    assert round(solved[4] - solved[7]) == 4
    assert round(modelled[7] - modelled[4]) == 12
    assert script._Oracle(0).play(view) == 4
    assert script._Modelled(0).play(view) == 7
    # its own later cards double dummy (oracle:model=solver), not searched: the jack
    # still, the ace's gain is in the taker's own later cards against the heuristic's
    script._Modelled.solver = True
    try:
        assert script._Modelled(0).play(view) == 4
    finally:
        script._Modelled.solver = False
    # searched in the deal's last six tricks (all those after this one: --own-tricks 6),
    # the ace as above, with the same values; in the last three only, the jack
    try:
        script._Modelled.own_tricks = 6
        assert script._Modelled(0).evaluate(view) == modelled
        script._Modelled.own_tricks = 3
        assert script._Modelled(0).play(view) == 4
    finally:
        script._Modelled.own_tricks = None


def test_the_model_yardstick_foresees_the_heuristic_exactly(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Alone against two heuristic seats (three players, an odd board), ``oracle:model``
    foresees the deal: at each of its decisions, its card's side points at the end of
    the deal are those the deal ends with."""
    from belote.options import make_rules
    from belote.table import Table
    from belote.tournament.play import Chunk, play_chunk

    script = _script()
    chosen: list[int] = []
    played = script._Modelled.play

    def play(self: Any, view: Any) -> int:
        c: int = played(self, view)
        if len(view.legal_cards) > 1:
            chosen.append(self.foreseen[c])
        return c

    ended: list[int] = []

    def driver(rnd: Any, bots: Any) -> None:
        script._driver(rnd, bots)
        if rnd.contract is None:  # (all passed)
            return
        sides = Table.of(rnd.rules).sides(rnd.contract.taker)
        ended.extend([sum(t.points for t in rnd.tricks if sides[t.winner] == 0)]
                     * (len(chosen) - len(ended)))

    monkeypatch.setattr(script._Modelled, "play", play)
    rules = make_rules("classic-3p", {})
    for board in (1, 3, 5):
        play_chunk(Chunk(rules, "deals", 61, 0, ("heuristic", "oracle:model"), board,
                         board + 1, script._factory, driver))
    assert len(chosen) > 10 and chosen == ended
