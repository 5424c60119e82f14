"""`belote play` driven as a person would: typed answers in, the screen read back."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from belote.cli import app

runner = CliRunner()


def answers(*first: str, cycle: int = 600) -> str:
    """Some typed answers, then numbers 1..8 in turn: an illegal one is refused and
    the next is tried, so every prompt is answered in the end."""
    lines = list(first) + [str(i % 8 + 1) for i in range(cycle)]
    return "\n".join(lines) + "\n"


def test_a_whole_game_against_random_bots(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    res = runner.invoke(
        app, ["play", "--bots", "random", "--seed", "7", "--target", "150", "--save", str(save)],
        input=answers(cycle=3000),
    )
    assert res.exit_code == 0, res.output
    out = res.stdout
    assert "you are South, partner North" in out
    assert "Your hand:" in out and "Trick 1" in out
    assert "Game over:" in out
    assert not save.exists()  # a finished game leaves no save behind


def test_illegal_card_is_refused_with_the_rule(tmp_path: Path) -> None:
    res = runner.invoke(
        app, ["play", "--bots", "random", "--seed", "7", "--target", "150",
              "--save", str(tmp_path / "g.json")],
        input=answers(cycle=3000),
    )
    assert "may not play" in res.stdout and "§6" in res.stdout


def test_hint_save_quit_and_resume(tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    args = ["play", "--bots", "random", "--seed", "11", "--target", "300", "--save", str(save)]
    res = runner.invoke(app, args, input="pass\n?\nq\n")
    assert res.exit_code == 0, res.output
    assert "hint:" in res.stdout and "Game saved" in res.stdout
    data = json.loads(save.read_text())
    assert data["belote_play"]["seat"] == "S"
    res = runner.invoke(app, ["play", "--resume", str(save)], input=answers(cycle=4000))
    assert res.exit_code == 0, res.output
    assert "Game over:" in res.stdout


def test_bad_options_exit_2() -> None:
    res = runner.invoke(app, ["play", "--seat", "X"])
    assert res.exit_code == 2 and "--seat: 'X' is not a seat" in res.stderr
    res = runner.invoke(app, ["play", "--bots", "genius"])
    assert res.exit_code == 2 and "unknown bot 'genius'" in res.stderr
    res = runner.invoke(app, ["play", "--option", "tie_rule=coin"])
    assert res.exit_code == 2 and "tie_rule" in res.stderr
    res = runner.invoke(app, ["play", "--profile", "classic-2p", "--seat", "W"])
    assert res.exit_code == 2 and "--seat: 'W' is not a seat (N, E) of 2 players" in res.stderr


def test_moroccan_shows_spanish_cards(tmp_path: Path) -> None:
    res = runner.invoke(
        app, ["play", "--profile", "moroccan", "--bots", "random", "--seed", "2",
              "--save", str(tmp_path / "g.json")],
        input="pass\nq\n",
    )
    assert res.exit_code == 0, res.output
    assert " de " in res.stdout  # e.g. "sota de copas"


def test_coinche_game_by_calls(tmp_path: Path) -> None:
    res = runner.invoke(
        app, ["play", "--profile", "coinche", "--bots", "random", "--seed", "4",
              "--target", "300", "--save", str(tmp_path / "g.json")],
        input=answers("pass", "pass", "80H", "pass", "pass", cycle=6000),
    )
    assert res.exit_code == 0, res.output
    assert "Game over:" in res.stdout


def test_plain_terminal_subprocess(tmp_path: Path) -> None:
    """Through a pipe, as a plain terminal program: no colour codes, answers read."""
    proc = subprocess.run(
        [sys.executable, "-m", "belote", "play", "--bots", "random", "--seed", "3",
         "--save", str(tmp_path / "g.json")],
        input="pass\npass\nq\n", capture_output=True, text=True, timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert "Your hand:" in proc.stdout and "\x1b[" not in proc.stdout
    assert "Bye." in proc.stdout
    assert proc.stdout.splitlines()[2].startswith("Turned card: ")


# --- what everyone sees: the turned card, the declarations at trick 2 ------------------------


def play_lines(*args: str, typed: str) -> list[str]:
    res = runner.invoke(app, ["play", *args], input=typed)
    assert res.exit_code == 0, res.output
    return res.stdout.splitlines()


def test_turned_card_shown_to_everyone_as_bidding_starts(tmp_path: Path) -> None:
    """Whoever bids first, the turned card is on screen before the first call."""
    lines = play_lines("--bots", "random", "--seed", "7", "--target", "150",
                       "--save", str(tmp_path / "g.json"), typed=answers(cycle=3000))
    deals = [i for i, line in enumerate(lines) if line.startswith("── Deal ")]
    assert len(deals) >= 2
    for i in deals:
        assert lines[i + 1].startswith("Turned card: "), lines[i:i + 3]
        assert "(dealer " in lines[i + 1]
    # at least one deal where a bot calls before the person
    assert any(not lines[i + 2].startswith("Your hand") for i in deals)


def test_declarations_result_announced_at_trick_2(tmp_path: Path) -> None:
    """§7.4: compared as the first card of trick 2 is played; the winners show theirs."""
    lines = play_lines("--bots", "random", "--seed", "4", "--target", "150",
                       "--save", str(tmp_path / "g.json"), typed=answers(cycle=3000))
    i = next(i for i, line in enumerate(lines) if "Declarations:" in line)
    assert lines[i].strip() == ("Declarations: NS scores 100 — North shows carré of T "
                                "(10♠ 10♥ 10♦ 10♣)")
    assert lines[i - 2].startswith("Trick 2 ·")  # after the first card of trick 2
    assert "plays" in lines[i - 1]
    trick1 = lines.index(next(line for line in lines if line.startswith("Trick 1 ·")))
    assert any("announces carré" in line for line in lines[trick1:i])
