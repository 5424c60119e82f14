"""`belote score`: the JSON faces of docs/json.md and the interactive calculator."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from belote.cli import score

runner = CliRunner()


def make_app() -> typer.Typer:
    app = typer.Typer()
    score.register(app)

    @app.command("version")  # a second command keeps "score" a sub-command
    def version() -> None:
        typer.echo("test")

    return app


APP = make_app()


@pytest.fixture(autouse=True)
def _db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The calculator keeps every hand: in a database of the test's own."""
    monkeypatch.setenv("BELOTE_DB", str(tmp_path / "sheets.db"))


def run(args: list[str], text: str = "") -> tuple[int, str, str]:
    result = runner.invoke(APP, args, input=text)
    return result.exit_code, result.stdout, result.stderr


# --- JSON -----------------------------------------------------------------------------


def test_score_hand_json_seed002_failed() -> None:
    """docs/json.md `score hand --json`, seed 002: 70 + belote against 92 + tierce."""
    obj = {"taker": "NS", "trick_points": {"NS": 70}, "declarations": {"EW": 20},
           "belote": "NS"}
    code, out, err = run(["score", "hand", "--json"], json.dumps(obj))
    assert code == 0 and err == ""
    assert json.loads(out) == {"outcome": "failed", "totals": {"NS": 90, "EW": 112},
                               "score": {"NS": 20, "EW": 182}, "reserve": 0}


def test_score_hand_json_file(tmp_path: Path) -> None:
    """docs/json.md: --file PATH reads the input from a file; profile and options come from it."""
    path = tmp_path / "hand.json"
    path.write_text(json.dumps({"profile": "contree", "taker": "NS", "contract": 110,
                                "trick_points": {"NS": 117}}), encoding="utf-8")
    code, out, _ = run(["score", "hand", "--json", "--file", str(path)])
    assert code == 0
    assert json.loads(out)["score"] == {"NS": 230, "EW": 50}


def test_score_hand_json_error() -> None:
    """docs/json.md errors: exit 2, `error: ...` on stderr, {"error": ...} on stdout."""
    code, out, err = run(["score", "hand", "--json"],
                         '{"taker": "NS", "trick_points": {"NS": 163}}')
    assert code == 2
    assert json.loads(out) == {"error": "hand: trick_points.NS: 163 is outside 0..162"}
    assert err == "error: hand: trick_points.NS: 163 is outside 0..162\n"
    code, out, err = run(["score", "hand", "--json"], "{not json")
    assert code == 2 and err.startswith("error: input: not valid JSON")
    code, _, err = run(["score", "hand", "--json", "--file", "/nonexistent/hand.json"])
    assert code == 2 and err.startswith("error: cannot read")
    code, _, err = run(["score", "hand", "--json"], '{"profile": "bridge", "taker": "NS"}')
    assert code == 2 and "unknown profile 'bridge'" in err


def test_score_hand_jsonl() -> None:
    """docs/json.md --jsonl: one answer per line, in order; a bad line answers {"error": ...} and
    the others are still answered; exit 2 when a line failed."""
    lines = [
        '{"taker": "NS", "trick_points": {"NS": 92}}',
        "not json",
        '{"taker": "NS", "trick_points": {"NS": 92}, "declarations": {"NS": 20, "EW": 20}}',
        "",
        '{"taker": "EW", "trick_points": {"EW": 81}}',
    ]
    code, out, err = run(["score", "hand", "--jsonl"], "\n".join(lines) + "\n")
    answers = [json.loads(line) for line in out.splitlines()]
    assert code == 2
    assert len(answers) == 4
    assert answers[0]["score"] == {"NS": 92, "EW": 70}
    assert answers[1]["error"].startswith("line 2: not valid JSON")
    assert answers[2] == {"error": "line 3: hand: declarations: both teams have points "
                                   "(20 and 20): only the team that wins the comparison "
                                   "scores (§7.6)"}
    assert answers[3] == {"outcome": "litige", "totals": {"NS": 81, "EW": 81},
                          "score": {"NS": 81, "EW": 0}, "reserve": 81}
    assert err.count("error: ") == 2


def test_score_game_json() -> None:
    """docs/json.md `score game --json`."""
    game = {"profile": "classic", "target": 150,
            "hands": [{"taker": "NS", "trick_points": {"NS": 81}},
                      {"taker": "EW", "trick_points": {"EW": 92}}]}
    code, out, _ = run(["score", "game", "--json"], json.dumps(game))
    assert code == 0
    answer = json.loads(out)
    assert answer["running"] == [{"NS": 0, "EW": 81}, {"NS": 70, "EW": 254}]
    assert (answer["finished"], answer["winner"], answer["reserve"]) == (True, "EW", 0)
    assert answer["hands"][1]["score"] == {"NS": 70, "EW": 173}


def test_score_game_json_hand_after_the_end() -> None:
    """docs/json.md: "A hand entered after the game is finished is an error"."""
    game = {"target": 100, "hands": [{"taker": "NS", "trick_points": {"NS": 120}},
                                     {"taker": "NS", "trick_points": {"NS": 120}}]}
    code, out, err = run(["score", "game", "--json"], json.dumps(game))
    assert code == 2
    assert json.loads(out) == {"error": "hand 2: the game was already won after hand 1"}
    assert err == "error: hand 2: the game was already won after hand 1\n"


def test_score_game_jsonl() -> None:
    """docs/json.md `score game --jsonl`: a bad line answers {"error": ...}."""
    lines = ['{"hands": []}', '{"hands": [{"taker": "XY"}]}']
    code, out, _ = run(["score", "game", "--jsonl"], "\n".join(lines))
    answers = [json.loads(line) for line in out.splitlines()]
    assert code == 2
    assert answers[0]["finished"] is False
    assert answers[1] == {"error": "line 2: hand 1: taker: 'XY' is not NS or EW"}


def test_score_game_human_form() -> None:
    """docs/json.md human form, §8.4: without --json `score game` shows the sheet as a table."""
    game = {"target": 150, "hands": [{"taker": "NS", "trick_points": {"NS": 81}},
                                     {"taker": "EW", "trick_points": {"EW": 92}}]}
    code, out, _ = run(["score", "game"], json.dumps(game))
    assert code == 0
    assert "litige" in out and "254" in out and "EW win the game" in out
    code, _, err = run(["score", "game"], '{"hands": 3}')
    assert code == 2 and err.startswith("error: game: hands: 3")


# --- the interactive calculator -------------------------------------------------------


def test_calculator_session_refuses_impossible_entries() -> None:
    """§8.6, §8.5, §7.6: the calculator refuses 163 points, a capot with points for
    the other side and declarations for both teams, saying why, asks again, and
    plays to the end."""
    answers = [
        "NS", "163", "92", "EW", "no", "20", "50", "0", "0", "no",  # hand 1: 92 / 70
        "EW", "122", "", "", "", "EW",  # hand 2: EW 122 + belote
    ]
    code, out, _ = run(["score", "--target", "200"], "\n".join(answers) + "\n")
    assert code == 0
    assert "refused: 163 is outside 0..162" in out
    assert "refused: a capot by EW leaves NS no trick, but NS has 92 trick points" in out
    assert "refused: both teams have declaration points" in out
    assert "Hand 1: made" in out and "Hand 2: made" in out
    assert "EW win the game, 212 to 132." in " ".join(out.split())


def test_calculator_litige_and_reserve() -> None:
    """§8.4 in the calculator: the reserve is shown and awarded with the next hand."""
    answers = ["NS", "81", "", "", "", "", "EW", "102", "", "", "", "", "q"]
    code, out, _ = run(["score", "hand"], "\n".join(answers) + "\n")
    assert code == 0
    assert "Hand 1: litige" in out and "Reserve (litige): 81" in out
    assert "NS 60, EW 264: the game goes on." in " ".join(out.split())


def test_calculator_coinche() -> None:
    """The calculator asks the contract and coinche level in coinche (§9.2)."""
    answers = ["NS", "95", "100", "coinche", "117", "no", "0", "0", "NS", "quit"]
    code, out, _ = run(["score", "--profile", "coinche", "--option", "target=3000"],
                       "\n".join(answers) + "\n")
    assert code == 0
    assert "refused: 95 is not a multiple of 10" in out
    assert "game in 3000 points" in out
    assert "NS 540, EW 0: the game goes on." in " ".join(out.split())


def test_calculator_all_pass_and_end_of_input() -> None:
    """§2.4: an all-pass deal scores nothing; the input ending stops the calculator."""
    code, out, _ = run(["score"], "pass\nNS\n")
    assert code == 0
    assert "Hand 1: all passed" in out
    assert "NS 0, EW 0: the game goes on." in " ".join(out.split())


def test_calculator_tout_atout_scaled() -> None:
    """§5.4 in the calculator: raw TA points out of 258, belote per team."""
    answers = ["NS", "TA", "172", "", "", "", "20", "40", "q"]
    code, out, _ = run(["score", "--option", "sa_ta_in_classic=true",
                        "--option", "ta_values=scaled"], "\n".join(answers) + "\n")
    assert code == 0
    assert "NS 172, EW 86" in out
    assert "NS 128, EW 94: the game goes on." in " ".join(out.split())


def test_calculator_bad_option() -> None:
    """docs/json.md: an unknown profile or a bad option value exits 2 with `error:`."""
    code, _, err = run(["score", "--option", "tie_rule=coin"])
    assert code == 2 and err.startswith("error: option 'tie_rule'")
    code, _, err = run(["score", "--profile", "bridge"])
    assert code == 2 and "unknown profile" in err


def test_registered_on_the_belote_command() -> None:
    """`belote score` is registered in belote.cli (docs/json.md)."""
    from belote.cli import app

    result = runner.invoke(app, ["score", "hand", "--json"],
                           input='{"taker": "EW", "trick_points": {"NS": 70}}')
    assert result.exit_code == 0
    assert json.loads(result.stdout)["score"] == {"NS": 70, "EW": 92}


# --- --profile and --option with --json (docs/json.md, "Profiles and options") --------


TIE = {"taker": "NS", "trick_points": {"NS": 81}}


def test_score_hand_json_applies_option_and_profile() -> None:
    """--option and --profile fill in the input's own; before, they were dropped and
    81 each stayed a litige."""
    code, out, err = run(["score", "hand", "--json", "--option", "tie_rule=fail"],
                         json.dumps(TIE))
    assert (code, err) == (0, "")
    assert json.loads(out) == {"outcome": "failed", "totals": {"NS": 81, "EW": 81},
                               "score": {"NS": 0, "EW": 162}, "reserve": 0}
    coinche = {**TIE, "contract": 80}
    for args in (["score", "hand", "--json", "--profile", "coinche"],
                 ["score", "--profile", "coinche", "hand", "--json"]):
        code, out, _ = run(args, json.dumps(coinche))
        assert code == 0 and json.loads(out)["score"] == {"NS": 0, "EW": 240}, args
    # the very answer of an input that names the profile itself
    _, own, _ = run(["score", "hand", "--json"], json.dumps({**coinche, "profile": "coinche"}))
    assert json.loads(own) == json.loads(out)


def test_score_hand_jsonl_applies_the_flags_to_every_line() -> None:
    lines = "\n".join([json.dumps(TIE), json.dumps({**TIE, "options": {"tie_rule": "fail"}}),
                       json.dumps({**TIE, "options": {"tie_rule": "made"}})])
    code, out, err = run(["score", "hand", "--jsonl", "--option", "tie_rule=fail"], lines)
    answers = [json.loads(line) for line in out.splitlines()]
    assert code == 2
    assert [a.get("outcome") for a in answers[:2]] == ["failed", "failed"]
    assert answers[2] == {"error": 'line 3: options.tie_rule: the input says "made", '
                                   '--option says "fail"'}
    assert err == 'error: line 3: options.tie_rule: the input says "made", --option says "fail"\n'


def test_score_hand_json_refuses_what_it_cannot_apply() -> None:
    """An input that contradicts a flag, a bad flag, and the calculator's --target,
    --sheet and --db: `error: ...`, exit 2, never silently dropped."""
    code, out, err = run(["score", "hand", "--json", "--profile", "coinche"],
                         json.dumps({**TIE, "profile": "classic"}))
    assert code == 2 and err == ('error: profile: the input says "classic", '
                                 '--profile says "coinche"\n')
    assert json.loads(out) == {"error": err[7:].strip()}
    for flags, needle in ((["--profile", "bridge"], "unknown profile 'bridge'"),
                          (["--option", "tie_rule=maybe"], "tie_rule"),
                          (["--target", "500"], "--target:"),
                          (["--sheet", "Friday"], "--sheet:"),
                          (["--db", "/tmp/x.db"], "--db:")):
        code, out, err = run(["score", "hand", "--json", *flags], json.dumps(TIE))
        assert code == 2 and err.startswith("error: ") and needle in err, (flags, err)
        assert "outcome" not in out
    code, _, err = run(["score", "--profile", "coinche", "hand", "--json", "--profile",
                        "classic"], json.dumps(TIE))
    assert code == 2 and "--profile: given twice" in err


def test_score_game_json_applies_the_flags() -> None:
    game = {"hands": [TIE]}
    code, out, _ = run(["score", "game", "--json", "--option", "tie_rule=fail",
                        "--target", "100"], json.dumps(game))
    assert code == 0
    assert json.loads(out) == {
        "hands": [{"outcome": "failed", "totals": {"NS": 81, "EW": 81},
                   "score": {"NS": 0, "EW": 162}, "reserve": 0}],
        "running": [{"NS": 0, "EW": 162}], "totals": {"NS": 0, "EW": 162}, "reserve": 0,
        "finished": True, "winner": "EW"}
    code, _, err = run(["score", "game", "--json", "--target", "100"],
                       json.dumps({**game, "target": 1000}))
    assert code == 2 and err == "error: target: the input says 1000, --target says 100\n"
    code, out, _ = run(["score", "game", "--option", "tie_rule=fail"], json.dumps(game))
    assert code == 0 and "failed" in out
