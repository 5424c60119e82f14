"""`belote analyze RECORD`: the human face, --json and --jsonl, and its refusals (one
``error:`` line, exit 2, ``{"error": ...}`` under --json)."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from belote.bots.base import play_deal
from belote.bots.heuristic import HeuristicBot
from belote.cli import main
from belote.game import Match
from belote.options import make_rules
from tests.test_analyze import played


def belote(args: list[str], monkeypatch: pytest.MonkeyPatch,
           capsys: pytest.CaptureFixture[str], stdin: str = "") -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin.encode()),
                                                       encoding="utf-8"))
    monkeypatch.setenv("COLUMNS", "200")
    capsys.readouterr()
    code = 0
    try:
        main(args)
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 0
    out = capsys.readouterr()
    return code, out.out, out.err


def write(tmp_path: Path, data: Any, name: str = "deal.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(data) if not isinstance(data, str) else data, encoding="utf-8")
    return str(path)


def game_record() -> dict[str, Any]:
    match = Match(make_rules(), seed=11)
    for _ in range(2):
        rnd = match.new_round()
        play_deal(rnd, [HeuristicBot(i) for i in range(4)])
        match.finish_round()
    return match.to_record()


FAST = ["--seat", "N", "--worlds", "4", "--no-progress"]


def test_the_human_face(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = belote(["analyze", write(tmp_path, played("classic")), *FAST],
                            monkeypatch, capsys)
    assert code == 0, err
    for words in ("Donne 1", "prend à", "en double mort", "Enchères", "Pli 1", "Pli 8",
                  "carte jouée", "meilleure", "perte DM", "perte vu", "Par joueur", "double mort"):
        assert words in out, words
    assert "Traceback" not in out + err


def test_json_of_a_deal_and_of_a_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = belote(["analyze", write(tmp_path, played("classic")), "--json", *FAST],
                            monkeypatch, capsys)
    assert code == 0, err
    deal = json.loads(out)
    assert deal["profile"] == "classic" and len(deal["cards"]) == 32
    assert deal["seats"] == ["N"] and deal["worlds"] == 4 and deal["seed"] == 0
    game = write(tmp_path, game_record(), "game.json")
    code, out, err = belote(["analyze", game, "--json", *FAST], monkeypatch, capsys)
    assert code == 0, err
    answer = json.loads(out)
    assert set(answer) == {"deals", "summary"} and len(answer["deals"]) == 2
    assert [p["seat"] for p in answer["summary"]] == ["N", "E", "S", "W"]
    assert sum(p["cards"] for p in answer["summary"]) == sum(
        len(d["cards"]) for d in answer["deals"]) > 0
    code, out, err = belote(["analyze", game, "--jsonl", *FAST], monkeypatch, capsys)
    assert code == 0, err
    lines = [json.loads(line) for line in out.splitlines()]
    assert lines == answer["deals"]


def test_stdin_and_the_seed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                            capsys: pytest.CaptureFixture[str]) -> None:
    text = json.dumps(played("classic"))
    one = belote(["analyze", "-", "--json", *FAST, "--seed", "9"], monkeypatch, capsys, text)
    two = belote(["analyze", write(tmp_path, text), "--json", *FAST, "--seed", "9"],
                 monkeypatch, capsys)
    assert one[0] == two[0] == 0 and one[1] == two[1]
    assert json.loads(one[1])["seed"] == 9


def assert_refused(result: tuple[int, str, str], *needles: str, json_mode: bool) -> None:
    code, out, err = result
    assert code == 2, (code, out, err)
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    assert "Traceback" not in err
    for needle in needles:
        assert needle in lines[0], (needle, lines[0])
    if json_mode:
        assert json.loads(out) == {"error": lines[0][len("error: "):]}


@pytest.mark.parametrize("json_mode", [False, True])
def test_refusals(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                  capsys: pytest.CaptureFixture[str], json_mode: bool) -> None:
    flag = ["--json"] if json_mode else []
    record = played("classic")

    def run(data: Any, *extra: str) -> tuple[int, str, str]:
        return belote(["analyze", write(tmp_path, data), *flag, *FAST, *extra],
                      monkeypatch, capsys)

    assert_refused(run("{not json"), "deal.json", json_mode=json_mode)
    assert_refused(run("[" * 5000), "nested", json_mode=json_mode)
    deck = list(record["deck"])
    deck[3] = deck[4]
    assert_refused(run({**record, "deck": deck}), "deck", json_mode=json_mode)
    actions = list(record["actions"])
    first = next(i for i, a in enumerate(actions) if "card" in a)
    bad = [*actions[:first], {"card": actions[first + 1]["card"]}]
    assert_refused(run({**record, "actions": bad}), f"action {first + 1}", "does not hold",
                   json_mode=json_mode)
    assert_refused(run(record, "--seat", "Z"), "--seat", "'Z'", json_mode=json_mode)
    assert_refused(run(record, "--worlds", "0"), "--worlds", json_mode=json_mode)
    assert_refused(belote(["analyze", str(tmp_path / "missing.json"), *flag], monkeypatch,
                          capsys), "missing.json", json_mode=json_mode)
    three = played("3p-24")
    assert_refused(run(three, "--seat", "W"), "seats", json_mode=json_mode)


def test_double_dummy_only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                           capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, played("classic"))
    code, out, err = belote(["analyze", path, "--json", "--dd-only"], monkeypatch, capsys)
    assert code == 0, err
    deal = json.loads(out)
    assert deal["seats"] == [] and all(c["info"] is None for c in deal["cards"])
    assert all(c["bot_call"] is None for c in deal["calls"])
    assert_refused(belote(["analyze", path, "--json", "--dd-only", "--seat", "N"],
                          monkeypatch, capsys), "--dd-only", json_mode=True)


def test_an_unfinished_deal_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    record = played("classic")
    first = next(i for i, a in enumerate(record["actions"]) if "card" in a)
    cut = {**record, "actions": record["actions"][:first + 5]}
    code, out, err = belote(["analyze", write(tmp_path, cut), *FAST], monkeypatch, capsys)
    assert code == 0, err
    assert "inachevée" in out and "Pli 2" in out and "Pli 3" not in out
