"""`belote sheet share ID` (docs/json.md `belote sheet`): the follow or keep link of a
sheet made on the command line, its human and JSON faces, the lean path and the
typer command agreeing, and its refusals."""

from __future__ import annotations

import io
import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest

from belote.cli import fast, main
from belote.sheets import SheetStore

SECRET = r"[A-Za-z0-9_-]{43}"


def belote(args: list[str], monkeypatch: pytest.MonkeyPatch,
           capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b""), encoding="utf-8"))
    capsys.readouterr()
    code = 0
    try:
        main(args)
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "sheets.db"
    with SheetStore(path) as store:
        store.create("classic", name="Friday")
    return path


def share(db: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
          *args: str) -> dict[str, Any]:
    code, out, err = belote(["sheet", "share", "1", "--json", "--db", str(db), *args],
                            monkeypatch, capsys)
    assert code == 0 and err == "", err
    answer: dict[str, Any] = json.loads(out)
    return answer


def test_the_json_face(db: Path, monkeypatch: pytest.MonkeyPatch,
                       capsys: pytest.CaptureFixture[str]) -> None:
    first = share(db, monkeypatch, capsys)
    assert list(first) == ["id", "link", "path", "url", "revoked"]
    assert first["id"] == 1 and first["link"] == "follow" and first["url"] is None
    assert re.fullmatch(rf"/sheets/1/follow/{SECRET}", first["path"])
    assert first["revoked"] is False
    # asked again: the same link, now with the whole address
    again = share(db, monkeypatch, capsys, "--base", "http://192.168.1.10:8000/")
    assert again["path"] == first["path"]
    assert again["url"] == "http://192.168.1.10:8000" + first["path"]
    keep = share(db, monkeypatch, capsys, "--keep")
    assert keep["link"] == "keep" and re.fullmatch(rf"/sheets/1/keep/{SECRET}", keep["path"])
    assert keep["path"].rsplit("/", 1)[1] != first["path"].rsplit("/", 1)[1]
    renewed = share(db, monkeypatch, capsys, "--renew")
    assert renewed["path"] != first["path"]
    with SheetStore(db) as store:
        assert store.links(1) == {"follow": renewed["path"].rsplit("/", 1)[1],
                                  "keep": keep["path"].rsplit("/", 1)[1]}
    revoked = share(db, monkeypatch, capsys, "--keep", "--revoke")
    assert revoked == {"id": 1, "link": "keep", "path": None, "url": None, "revoked": True}
    with SheetStore(db) as store:
        assert store.links(1)["keep"] is None
        # the export carries no secret
        assert "/follow/" not in json.dumps(store.export_json(1))


def test_the_human_face(db: Path, monkeypatch: pytest.MonkeyPatch,
                        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = belote(["sheet", "share", "1", "--db", str(db)], monkeypatch, capsys)
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == "sheet 1: follow link (read only, the page follows the score live):"
    assert re.fullmatch(rf"  /sheets/1/follow/{SECRET}", lines[1])
    assert "--base URL" in lines[2]
    code, out, _ = belote(["sheet", "share", "1", "--keep", "--base", "https://belote.example",
                           "--db", str(db)], monkeypatch, capsys)
    assert code == 0
    assert out.splitlines()[0] == "sheet 1: keeper's link (add, undo and edit hands):"
    assert re.fullmatch(rf"  https://belote.example/sheets/1/keep/{SECRET}",
                        out.splitlines()[1])
    code, out, _ = belote(["sheet", "share", "1", "--revoke", "--db", str(db)],
                          monkeypatch, capsys)
    assert code == 0
    assert out == "sheet 1: follow link revoked: the old link no longer opens the sheet\n"


@pytest.mark.parametrize(("args", "needle"), [
    (["9"], "sheet 9: no such sheet"),
    (["x"], "sheet 'x': not a sheet id"),
    (["1", "--renew", "--revoke"], "--renew and --revoke: choose one"),
    (["1", "--base", "ftp://host"], "--base: 'ftp://host' is not an http:// or https://"),
    (["1", "--base", "host:8000"], "is not an http:// or https:// address"),
    (["1", "--base", "http://host:port"], "is not an http:// or https:// address"),
    (["1", "--base", "http://host/?a=1"], "give only the scheme, host, port and path"),
    (["1", "--base", "http://user@host"], "give only the scheme, host, port and path"),
])
def test_refusals_say_what_and_change_nothing(
        db: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        args: list[str], needle: str) -> None:
    for json_flag in ([], ["--json"]):
        code, out, err = belote(["sheet", "share", *args, *json_flag, "--db", str(db)],
                                monkeypatch, capsys)
        assert code == 2, (out, err)
        assert err.startswith("error: ") and needle in err and "Traceback" not in err
        assert len(err.splitlines()) == 1
        if json_flag:
            assert needle in json.loads(out)["error"]
    with SheetStore(db) as store:
        assert store.links(1) == {"follow": None, "keep": None}


def test_a_deleted_sheet_has_no_link(db: Path, monkeypatch: pytest.MonkeyPatch,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    with SheetStore(db) as store:
        store.delete(1)
    code, _, err = belote(["sheet", "share", "1", "--db", str(db)], monkeypatch, capsys)
    assert code == 2 and err.startswith("error: sheet 1: deleted on ")


@pytest.mark.parametrize("args", [
    [], ["--keep"], ["--renew"], ["--keep", "--revoke"], ["--renew", "--revoke"],
    ["--base", "http://h:1"], ["--base=http://h:1/"], ["--base", "nope"],
])
def test_the_lean_path_and_the_typer_command_agree(
        args: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    answers = []
    taken: list[bool] = []
    real_run = fast.run

    def spy(command: str, rest: list[str]) -> bool:
        try:
            done = real_run(command, rest)
        except SystemExit:  # a refusal, answered on the lean path
            taken.append(True)
            raise
        taken.append(done)
        return done

    for name, lean in (("lean.db", True), ("typer.db", False)):
        path = tmp_path / name
        with SheetStore(path) as store:
            store.create("classic")
        monkeypatch.setattr(fast, "run", spy if lean else (lambda command, rest: False))
        code, out, err = belote(["sheet", "share", "1", "--json", "--db", str(path), *args],
                                monkeypatch, capsys)
        answer = json.loads(out)
        for key in ("path", "url"):  # the secrets differ
            if answer.get(key):
                answer[key] = re.sub(SECRET + "$", "SECRET", answer[key])
        answers.append((code, answer, err))
    assert taken == [True]  # the lean path answered the first
    assert answers[0] == answers[1]
