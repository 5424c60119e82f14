"""The `belote` command's face: --version, help texts, and every error one line.

Issue 12: usage errors and hostile input (deep nesting, huge numbers, options
of the wrong kind, bad bytes) exit with status 2 and one ``error: ...`` line on
stderr naming the field and the value, ``{"error": ...}`` on stdout under
``--json``/``--jsonl``; never a traceback nor a boxed panel.  Most cases run
:func:`belote.cli.main` in the test process; a few run the real command.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from belote import __version__
from belote.cli import COMMANDS, app, main
from belote.options import ALL_PROFILES, OPTION_NAMES, profile_rules

HAND = '{"taker": "NS", "trick_points": {"NS": 92}, "belote": "NS"}'
HAND_SCORE = {"outcome": "made", "totals": {"NS": 112, "EW": 70},
              "score": {"NS": 112, "EW": 70}, "reserve": 0}


class Result:
    def __init__(self, code: int, out: str, err: str) -> None:
        self.code, self.out, self.err = code, out, err

    @property
    def error_lines(self) -> list[str]:
        return self.err.splitlines()


@pytest.fixture(autouse=True)
def _db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BELOTE_DB", str(tmp_path / "sheets.db"))
    monkeypatch.delenv("BELOTE_DEBUG", raising=False)


def belote(args: list[str], stdin: str | bytes = b"", *,
           monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Result:
    data = stdin.encode("utf-8", "surrogatepass") if isinstance(stdin, str) else stdin
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))
    capsys.readouterr()
    code = 0
    try:
        main(args)
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    captured = capsys.readouterr()
    return Result(code, captured.out, captured.err)


def assert_one_error(res: Result, *needles: str, json_mode: bool = False) -> str:
    """Exit 2, one ``error:`` line on stderr holding every needle, no panel or traceback;
    under --json the same message as ``{"error": ...}`` on stdout."""
    assert res.code == 2, (res.code, res.out, res.err)
    assert len(res.error_lines) == 1, res.err
    line = res.error_lines[0]
    assert line.startswith("error: "), line
    assert "Traceback" not in res.err and "╭" not in res.err and "│" not in res.err
    for needle in needles:
        assert needle in line, (needle, line)
    if json_mode:
        answers = [json.loads(x) for x in res.out.splitlines()]
        assert {"error": line[len("error: "):]} in answers, res.out
    return line


# --- --version and help ---------------------------------------------------------------


def test_version(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    res = belote(["--version"], monkeypatch=monkeypatch, capsys=capsys)
    assert (res.code, res.out, res.err) == (0, f"belote {__version__}\n", "")


@pytest.mark.parametrize("args", [[], ["--help"], ["-h"], ["help"]])
def test_top_help_lists_every_command_once_a_line(
    args: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    res = belote(args, monkeypatch=monkeypatch, capsys=capsys)
    assert res.code == 0
    lines = res.out.splitlines()
    for name, _, summary in COMMANDS:
        rows = [line for line in lines if line.startswith(f"  {name} ")]
        assert len(rows) == 1 and rows[0].rstrip().endswith(summary.rstrip())
    assert "--version" in res.out and "docs/json.md" in res.out and "docs/rules.md" in res.out
    assert all(len(line) <= 80 for line in lines)


COMMAND_PATHS = [[name] for name, _, _ in COMMANDS] + [
    ["score", "hand"], ["score", "game"],
    *[["sheet", sub] for sub in ("new", "add", "undo", "edit", "delete", "show", "list",
                                 "export", "import")],
]


@pytest.mark.parametrize("path", COMMAND_PATHS, ids=" ".join)
def test_help_is_plain(
    path: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    res = belote([*path, "--help"], monkeypatch=monkeypatch, capsys=capsys)
    assert res.code == 0, res.err
    assert res.out.startswith(f"Usage: belote {' '.join(path)}")
    for noise in ("<bool>", "╭", "RULES.md", "CONTRACT.md", "shared/"):
        assert noise not in res.out, noise


@pytest.mark.parametrize("path", [
    ["score", "hand"], ["score", "game"], ["replay"], ["solve"], ["rotation"], ["rules"],
    ["sheet", "add"], ["sheet", "edit"], ["simulate"], ["tournament"], ["analyze"],
], ids=" ".join)
def test_json_commands_point_to_their_keys(
    path: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    res = belote([*path, "--help"], monkeypatch=monkeypatch, capsys=capsys)
    assert "docs/json.md" in res.out


def test_help_of_a_command_is_reached_by_help(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    res = belote(["help", "rotation"], monkeypatch=monkeypatch, capsys=capsys)
    assert res.code == 0 and res.out.startswith("Usage: belote rotation")


def test_a_group_without_its_command_shows_its_help(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    res = belote(["sheet"], monkeypatch=monkeypatch, capsys=capsys)
    assert res.code == 0 and "Usage: belote sheet" in res.out and res.err == ""


# --- usage errors ---------------------------------------------------------------------

BIG = "99999999999999999999999"

USAGE_ERRORS = [
    (["simulate", "--deals", "-1"], ["--deals", "-1"]),
    (["simulate", "--deals", "abc"], ["--deals", "'abc'", "whole number"]),
    (["simulate", "--bogus"], ["--bogus"]),
    (["score", "--target", "0"], ["--target", "0"]),
    (["score", "hand", "--target", "0"], ["--target", "0"]),
    (["score", "hand", "--json", "--bogus"], ["--bogus"]),
    (["score", "--option"], ["--option"]),
    (["rotation"], ["N"]),
    (["rotation", "4", "--json"], ["5, 6 or 7", "4"]),
    (["rotation", "-1"], ["5, 6 or 7", "-1"]),
    (["frob"], ["frob"]),
    (["--frob"], ["--frob"]),
    (["sheet", "new", "--target", BIG], ["--target", BIG[:20]]),
    (["sheet", "new", "--target", "0"], ["--target", "0"]),
    (["sheet", "new", "--players", BIG], ["--players"]),
    (["sheet", "new", "--option", f"target={BIG}"], ["target", BIG[:20]]),
    (["sheet", "new", "--option", "nope=1"], ["nope"]),
    (["sheet", "edit", "1", BIG], [BIG[:20]]),
    (["sheet", "show", BIG], ["not a sheet id", BIG[:20]]),
    (["sheet", "frob"], ["frob"]),
    (["serve", "--port", "99999"], ["--port", "99999"]),
    (["serve", "--bot-delay", "-1"], ["--bot-delay", "-1"]),
    (["tournament", "--deals", "0"], ["--deals", "0"]),
    (["tournament", "--workers", "0"], ["--workers", "0"]),
    (["play", "--target", "0"], ["--target", "0"]),
    (["play", "--target", BIG], ["--target"]),
]


@pytest.mark.parametrize(("args", "needles"), USAGE_ERRORS, ids=lambda v: " ".join(v))
def test_usage_errors_are_one_line(
    args: list[str], needles: list[str], monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert_one_error(belote(args, monkeypatch=monkeypatch, capsys=capsys), *needles)


@pytest.mark.parametrize("args", [
    ["simulate", "--deals", "-1", "--json"],
    ["simulate", "--deals", "x", "--json"],
    ["score", "hand", "--json", "--bogus"],
    ["score", "hand", "--json", "--target", "0"],
    ["rotation", "9", "--json"],
    ["sheet", "new", "--target", BIG, "--json"],
    ["frob", "--json"],
    ["tournament", "--deals", "1", "--bogus", "--json"],
], ids=" ".join)
def test_usage_errors_answer_json_too(
    args: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert_one_error(belote(args, monkeypatch=monkeypatch, capsys=capsys), json_mode=True)


# --- hostile JSON -----------------------------------------------------------------------

JSON_COMMANDS = [
    ["score", "hand", "--json"], ["score", "hand", "--jsonl"], ["score", "game", "--json"],
    ["score", "game"], ["replay", "--json"], ["replay"], ["solve", "--json"], ["solve"],
    ["sheet", "import", "-", "--json"], ["sheet", "import", "-"],
    ["sheet", "add", "1", "--json"], ["sheet", "add", "1"], ["sheet", "add", "1", "--jsonl"],
    ["sheet", "edit", "1", "1", "--json"],
]

HOSTILE: dict[str, tuple[str | bytes, list[str]]] = {
    "deep 5000": ("[" * 5000, ["nested deeper"]),
    "deep 100000": ("[" * 100000, ["nested deeper"]),
    "deep objects": ('{"a": ' * 5000 + "1" + "}" * 5000, ["nested deeper"]),
    "deep closed": ("[" * 3000 + "]" * 3000, ["nested deeper"]),
    "5000 digits": ('{"taker": "NS", "trick_points": {"NS": ' + "9" * 5000 + "}}",
                    ["trick_points.NS", "5000 digits"]),
    "negative digits": ('{"target": -' + "1" * 40 + ', "hands": []}', ["target", "40 digits"]),
    "huge float": ('{"taker": "NS", "trick_points": {"NS": 1e999}}',
                   ["trick_points.NS", "1e999"]),
    "NaN": ('{"taker": "NS", "trick_points": {"NS": NaN}}', ["NaN"]),
    "options string": ('{"taker": "NS", "trick_points": {"NS": 92}, "options": ""}',
                       ["options", "a string"]),
    "options zero": ('{"taker": "NS", "trick_points": {"NS": 92}, "options": 0}',
                     ["options", "a number"]),
    "options list": ('{"taker": "NS", "trick_points": {"NS": 92}, "options": []}',
                     ["options", "an array"]),
    "profile null": ('{"taker": "NS", "trick_points": {"NS": 92}, "profile": null}',
                     ["profile", "null"]),
    "profile number": ('{"taker": "NS", "trick_points": {"NS": 92}, "profile": 1}',
                       ["profile", "a number"]),
    "array": ("[1, 2]", ["expected a JSON object", "an array"]),
    "string": ('"hand"', ["expected a JSON object", "a string"]),
    "empty": ("", ["not valid JSON"]),
    "syntax": ("{not json", ["not valid JSON"]),
    "bad bytes": (b"\xff\xfe{}", ["UTF-8"]),
}


@pytest.fixture
def sheet(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Sheet 1 with one hand, for add and edit."""
    assert belote(["sheet", "new", "--json"], monkeypatch=monkeypatch, capsys=capsys).code == 0
    res = belote(["sheet", "add", "1", "--json"], HAND, monkeypatch=monkeypatch, capsys=capsys)
    assert res.code == 0, res.err


@pytest.mark.parametrize("name", list(HOSTILE))
@pytest.mark.parametrize("args", JSON_COMMANDS, ids=" ".join)
@pytest.mark.usefixtures("sheet")
def test_hostile_json_is_one_error_line(
    args: list[str], name: str, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    text, needles = HOSTILE[name]
    if args[0] != "score" or args[1] != "hand":  # the field paths are a hand's
        needles = [n for n in needles if not n.startswith(("trick_points", "target"))]
    if "--jsonl" in args and name == "empty":
        pytest.skip("no line, no answer")
    res = belote(args, text, monkeypatch=monkeypatch, capsys=capsys)
    json_mode = "--json" in args or "--jsonl" in args
    assert_one_error(res, *needles, json_mode=json_mode)


def test_jsonl_answers_every_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = "\n".join([HAND, "[" * 5000, '{"options": []}', HAND])
    res = belote(["score", "hand", "--jsonl"], lines, monkeypatch=monkeypatch, capsys=capsys)
    assert res.code == 2
    answers = [json.loads(x) for x in res.out.splitlines()]
    assert answers[0] == HAND_SCORE == answers[3]
    assert answers[1]["error"].startswith("line 2: ")
    assert answers[2]["error"].startswith("line 3: ") and "options" in answers[2]["error"]
    assert [x[len("error: "):] for x in res.error_lines] == [answers[1]["error"],
                                                            answers[2]["error"]]


def test_a_lone_surrogate_is_quoted_not_fatal(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    res = belote(["score", "hand", "--json"], '{"taker": "\\ud800"}',
                 monkeypatch=monkeypatch, capsys=capsys)
    assert_one_error(res, "taker", json_mode=True)


def test_the_calculator_refuses_piped_json(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    res = belote(["score", "hand"], HAND, monkeypatch=monkeypatch, capsys=capsys)
    assert_one_error(res, "--json")


# --- the fast paths answer as the typer commands do ----------------------------------


@pytest.mark.parametrize(("args", "stdin"), [
    (["score", "hand", "--json"], HAND),
    (["score", "hand", "--jsonl"], HAND + "\n" + HAND),
    (["score", "game", "--json"], '{"hands": [' + HAND + "]}"),
    (["rotation", "5", "--json"], ""),
    (["rotation", "--json", "7"], ""),
    (["rules", "--json"], ""),
    (["score", "hand", "--json"], '{"taker": "XX"}'),
], ids=lambda v: " ".join(v) if isinstance(v, list) else "")
def test_fast_path_and_typer_command_agree(
    args: list[str], stdin: str, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from belote.cli import fast

    fast_res = belote(args, stdin, monkeypatch=monkeypatch, capsys=capsys)
    monkeypatch.setattr(fast, "run", lambda command, rest: False)
    slow_res = belote(args, stdin, monkeypatch=monkeypatch, capsys=capsys)
    assert (fast_res.code, fast_res.out, fast_res.err) == (
        slow_res.code, slow_res.out, slow_res.err)
    if args[:2] == ["score", "hand"] and fast_res.code == 0:
        assert json.loads(fast_res.out.splitlines()[0]) == HAND_SCORE


def test_file_flag(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                   capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "hand.json"
    path.write_text(HAND, encoding="utf-8")
    for flag in (["--file", str(path)], [f"--file={path}"]):
        res = belote(["score", "hand", "--json", *flag], monkeypatch=monkeypatch, capsys=capsys)
        assert res.code == 0 and json.loads(res.out) == HAND_SCORE
    res = belote(["score", "hand", "--json", "--file", str(tmp_path / "none.json")],
                 monkeypatch=monkeypatch, capsys=capsys)
    assert_one_error(res, "none.json", json_mode=True)


# --- belote rules --------------------------------------------------------------------


def test_rules_json_is_the_code(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    res = belote(["rules", "--json"], monkeypatch=monkeypatch, capsys=capsys)
    data = json.loads(res.out)
    assert list(data["profiles"]) == list(ALL_PROFILES)
    assert list(data["options"]) == list(OPTION_NAMES)
    for name, info in data["options"].items():
        for profile, value in info["default"].items():
            assert getattr(profile_rules(profile), name) == value
        if isinstance(info["values"], list):
            assert info["default"]["classic"] in info["values"]
    assert data["options"]["tie_rule"]["values"] == ["litige", "fail", "made"]
    assert data["profiles"]["moroccan"]["deck"] == "spanish"


def test_rules_text_names_every_option(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    res = belote(["rules"], monkeypatch=monkeypatch, capsys=capsys)
    assert res.code == 0
    for name in (*OPTION_NAMES, *ALL_PROFILES):
        assert f"  {name} " in res.out
    assert "coinche: 250" in res.out  # max_bid's coinche default beside classic's


# --- the real command ------------------------------------------------------------------

BELOTE = [sys.executable, "-m", "belote"]


def test_the_command_answers_hostile_input_without_traceback() -> None:
    for args, stdin in ((["score", "hand", "--json"], "[" * 100000),
                        (["sheet", "new", "--target", BIG], ""),
                        (["simulate", "--deals", "-1"], "")):
        proc = subprocess.run([*BELOTE, *args], input=stdin, capture_output=True, text=True,
                              timeout=60)
        assert proc.returncode == 2, proc.stderr
        assert proc.stderr.count("\n") == 1 and proc.stderr.startswith("error: ")


def test_fast_paths_import_neither_typer_nor_rich_nor_other_commands(tmp_path: Path) -> None:
    code = (
        "import io, sys\n"
        "from belote.cli import main\n"
        "for args in (['--help'], ['--version'], ['rotation', '5', '--json'],\n"
        "             ['score', 'hand', '--json'], ['rules', '--json'],\n"
        "             ['sheet', 'list', '--json'], ['sheet', 'show', '1', '--json']):\n"
        "    sys.stdin = io.TextIOWrapper(io.BytesIO(b'{\"taker\": \"NS\", \"capot\": \"NS\"}'))\n"
        "    try:\n"
        "        main(args)\n"
        "    except SystemExit as exc:\n"
        "        assert args[:2] == ['sheet', 'show'] and exc.code == 2\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('typer', 'rich', 'click',\n"
        "             'pydantic') or m in ('belote.cli.score', 'belote.cli.play', 'belote.bots',\n"
        "             'belote.tournament', 'multiprocessing'))\n"
        "print('IMPORTED', bad, file=sys.stderr)\n"
    )
    env = {**os.environ, "BELOTE_DB": str(tmp_path / "s.db")}
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60, env=env)
    assert proc.returncode == 0, proc.stderr
    assert "IMPORTED []" in proc.stderr, proc.stderr


def test_version_of_the_command() -> None:
    proc = subprocess.run([*BELOTE, "--version"], capture_output=True, text=True, timeout=60)
    assert proc.stdout == f"belote {__version__}\n" and proc.returncode == 0


def test_input_size_is_bounded(monkeypatch: pytest.MonkeyPatch,
                               capsys: pytest.CaptureFixture[str]) -> None:
    from belote.cli import common

    monkeypatch.setattr(common, "MAX_INPUT", 100)
    res = belote(["score", "hand", "--json"], HAND + " " * 100,
                 monkeypatch=monkeypatch, capsys=capsys)
    assert_one_error(res, "MiB of input", json_mode=True)


@pytest.mark.parametrize("text", ["[" * 100000, '{"belote_play": ' + "9" * 5000 + "}", "\udcff"])
def test_a_hostile_saved_game_is_one_error_line(
    text: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = tmp_path / "saved.json"
    path.write_bytes(text.encode("utf-8", "surrogateescape"))
    res = belote(["play", "--resume", str(path)], monkeypatch=monkeypatch, capsys=capsys)
    assert_one_error(res, "saved game")


SHEET_FAST = [
    (["sheet", "add", "1", "--json"], HAND),
    (["sheet", "add", "1", "--jsonl"], HAND + "\n[1]\n" + HAND),
    (["sheet", "add", "1", "--json"], '{"taker": "NS", "trick_points": {"NS": 200}}'),
    (["sheet", "add", "1", "--json"], "[" * 5000),
    (["sheet", "add", "9", "--json"], HAND),
    (["sheet", "add", "9" * 30, "--json"], HAND),
    (["sheet", "undo", "1", "--json"], ""),
    (["sheet", "show", "1", "--json"], ""),
    (["sheet", "show", "x", "--json"], ""),
    (["sheet", "list", "--json"], ""),
]


@pytest.mark.parametrize(("args", "stdin"), SHEET_FAST,
                         ids=lambda v: " ".join(v)[:40] if isinstance(v, list) else "")
def test_sheet_fast_paths_and_typer_commands_agree(
    args: list[str], stdin: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Each on its own database holding the same sheet 1 with one hand."""
    from belote.cli import fast

    answers = []
    for name, fast_on in (("fast.db", True), ("typer.db", False)):
        db = ["--db", str(tmp_path / name)]
        for setup, text in ((["sheet", "new", "--name", "s", "--json"], ""),
                            (["sheet", "add", "1", "--json"], HAND)):
            assert belote([*setup, *db], text, monkeypatch=monkeypatch, capsys=capsys).code == 0
        if not fast_on:
            monkeypatch.setattr(fast, "run", lambda command, rest: False)
        res = belote([*args, *db], stdin, monkeypatch=monkeypatch, capsys=capsys)
        out = [json.loads(line) for line in res.out.splitlines()]
        for item in out:  # the list's timestamps differ
            for sheet in item.get("sheets", []):
                sheet.pop("updated")
        answers.append((res.code, out, res.err))
    assert answers[0] == answers[1]
    assert answers[0][1], "an answer on stdout"


def test_sheet_fast_path_takes_the_database_from_belote_db(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("BELOTE_DB", str(tmp_path / "env.db"))
    assert belote(["sheet", "new", "--json"], monkeypatch=monkeypatch, capsys=capsys).code == 0
    res = belote(["sheet", "add", "1", "--json"], HAND, monkeypatch=monkeypatch, capsys=capsys)
    assert res.code == 0 and json.loads(res.out)["totals"] == HAND_SCORE["totals"]
    res = belote(["sheet", "list", "--json", f"--db={tmp_path / 'other.db'}"],
                 monkeypatch=monkeypatch, capsys=capsys)
    assert json.loads(res.out) == {"sheets": []}


# --- questions wrapped between words, plurals ---------------------------------------------


def test_fit_wraps_between_words_never_inside_a_name() -> None:
    from belote.cli.common import fit, keep

    menu = ("Your call — " + "  ".join(keep(f"[{i}] prend à {suit}")
                                       for i, suit in enumerate(("espadas", "copas", "oros"), 1))
            + "  (? hint, s save, q quit, help)")
    lines = fit(menu, 30).split("\n")
    assert len(lines) > 1 and all(len(line) <= 29 for line in lines)
    named = [line.strip() for line in lines if "prend" in line]
    assert [line[:line.index("prend") + 30].split("  ")[0] for line in named] == [
        "[1] prend à espadas", "[2] prend à copas", "[3] prend à oros"]
    assert " ".join(" ".join(lines).split()) == " ".join(fit(menu, None).split())
    assert fit(menu, None) == menu.replace("\u00a0", " ")  # not a terminal: as it is


def test_calculator_questions_wrap_between_words_on_a_narrow_terminal(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from belote.cli import questions

    monkeypatch.setattr(questions, "terminal_width", lambda: 40)
    result = CliRunner().invoke(app, ["score", "--sheet", "F"], input="NS\n92\nno\n0\n0\nno\nq\n",
                                env={"BELOTE_DB": str(tmp_path / "s.db")})
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Hand 1: who took? (NS, EW; pass = all\n  passed; q = quit): " in out
    question = out[out.index("Declarations of NS"):]
    question = question[:question.index("[0]:")]
    assert all(len(line) <= 33 for line in question.split("\n")), question
    assert " ".join(question.split()) == ("Declarations of NS: names or points (tierce, "
                                          "quarte, quinte, carre, carre9, carreJ; "
                                          "tierce+carre)")


def test_counts_say_one_hand_and_partners_once() -> None:
    from belote.cli.common import plural, times

    assert (plural(1, "hand"), plural(2, "hand"), plural(0, "deal")) == (
        "1 hand", "2 hands", "0 deals")
    assert (times(1), times(2), times(3)) == ("once", "twice", "3 times")
    out = " ".join(CliRunner().invoke(app, ["rotation", "5"], env={"COLUMNS": "200"})
                   .stdout.split())
    assert "every pair are partners once and opponents twice" in out
    assert "1 times" not in out and "2 times" not in out
