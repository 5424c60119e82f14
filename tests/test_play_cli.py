"""`belote play` driven as a person would: typed answers in, the screen read back."""

from __future__ import annotations

import json
import os
import queue
import re
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from typer.testing import CliRunner

from belote.cli import app
from tests.cli_support import ctrl_c_heard

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
    assert lines[i].strip() == ("Declarations: NS scores 100 — North shows carré of 10 "
                                "(10♠ 10♥ 10♦ 10♣)")
    assert lines[i - 2].startswith("Trick 2 ·")  # after the first card of trick 2
    assert "plays" in lines[i - 1]
    trick1 = lines.index(next(line for line in lines if line.startswith("Trick 1 ·")))
    assert any("announces carré" in line for line in lines[trick1:i])


# --- one way of writing: calls, suits, colours; Spanish throughout the Moroccan profile ---


FRENCH_SUITS = "♠♥♦♣"


def test_moroccan_spanish_names_for_display_and_input(tmp_path: Path) -> None:
    """Suits and cards the Spanish way (§1.2), shown and typed: the shown name is taken,
    so is the short form; refusals name the cards the same way; never a French suit."""
    typed = ["pass", "pique", "oros", "copas",  # round 2: a French suit is no call here
             "sota de oros", "JH", "caballo de espadas", "as de copas", "q"]
    lines = play_lines("--profile", "moroccan", "--bots", "random", "--seed", "1",
                       "--save", str(tmp_path / "g.json"), typed="\n".join(typed) + "\n")
    out = "\n".join(lines)
    assert "Turned card: as de oros (dealer East)" in out
    assert ("Your call — [1] passe  [2] prend à espadas  [3] prend à copas  "
            "[4] prend à bastos") in out
    assert "not a call: 'pique'" in out
    assert "You may not name 'prend à oros' in round 2: it is the turned suit (§3.3)" in out
    assert "You: prend à copas\nTrick 1 · trump copas (taken by You) · You lead" in out
    assert "Your hand: 1:as de copas*  2:rey de copas*" in out
    assert "trick 1: you do not hold sota de oros" in out
    assert "not a card: 'JH' (a number from the hand shown, or a card such as 12c" in out
    assert "You play as de copas" in out
    assert "caballo de espadas" in out.split("You play as de copas")[0].split("JH")[1]
    assert not any(s in out for s in FRENCH_SUITS)
    assert not re.search(r"\b(take|pass)\b", out)


def test_moroccan_short_names_and_refusals(tmp_path: Path) -> None:
    """``12c`` is the rey de copas; an illegal card is refused with its Spanish name."""
    typed = ["pass", "copas", "12c", "q"]
    out = "\n".join(play_lines("--profile", "moroccan", "--bots", "random", "--seed", "1",
                               "--save", str(tmp_path / "g.json"),
                               typed="\n".join(typed) + "\n"))
    assert "You play rey de copas" in out
    typed = ["pass", "pass", "7 de espadas", "7o", "q"]  # seed 2: East leads copas
    out = "\n".join(play_lines("--profile", "moroccan", "--bots", "random", "--seed", "2",
                               "--save", str(tmp_path / "g2.json"),
                               typed="\n".join(typed) + "\n"))
    assert "trick 1: you may not play 7 de espadas: must follow suit (§6.1)" in out
    assert "trick 1: you may not play 7 de oros: must follow suit (§6.1)" in out
    assert not any(s in out for s in FRENCH_SUITS)


def test_a_whole_moroccan_game_never_mixes_french_suits(tmp_path: Path) -> None:
    lines = play_lines("--profile", "moroccan", "--bots", "random", "--seed", "5",
                       "--target", "200", "--save", str(tmp_path / "g.json"),
                       typed=answers(cycle=4000))
    out = "\n".join(lines)
    assert "Game over" in out and "de oros" in out and "de copas" in out
    assert not any(s in out for s in FRENCH_SUITS)


CALL_LINE = re.compile(r"^(North|East|West|You): (.*)$")


def test_calls_are_written_one_way(tmp_path: Path) -> None:
    lines = play_lines("--bots", "random", "--seed", "7", "--target", "300",
                       "--save", str(tmp_path / "g.json"), typed=answers(cycle=3000))
    calls = {m.group(2) for line in lines if (m := CALL_LINE.match(line))}
    assert "passe" in calls and calls <= {"passe", "prend"} | {
        f"prend à {s}" for s in [*FRENCH_SUITS, "sans-atout", "tout-atout"]}
    assert any(line.startswith("Your call — [1] passe  [2] prend") for line in lines)


def test_coinche_calls_typed_and_shown_as_suit_then_value(tmp_path: Path) -> None:
    """A bid is shown "♠ 110"; typed as shown, or 110s, or 110 pique."""
    typed = ["♥ 80", "pass", "pass", "pass", "pass", "q"]
    res = runner.invoke(app, ["play", "--profile", "coinche", "--bots", "random", "--seed", "4",
                              "--save", str(tmp_path / "g.json")], input="\n".join(typed) + "\n")
    lines = res.stdout.splitlines()
    bid = re.compile(rf"^(passe|coinche|surcoinche|([{FRENCH_SUITS}]|sans-atout|tout-atout) "
                     r"(\d+|capot|générale))$")
    calls = [m.group(2) for line in lines if (m := CALL_LINE.match(line))]
    assert calls and all(bid.match(c) for c in calls), calls
    assert "110S" not in res.stdout and "80H" not in res.stdout
    assert "Your call — [1] passe  or a bid from ♠ 80 up (typed as shown, or 80s)" in res.stdout
    for typed_bid in ("♠ 90", "90s", "90 pique", "pique 90", "90 ♠"):
        res = runner.invoke(app, ["play", "--profile", "coinche", "--bots", "random",
                                  "--seed", "4", "--save", str(tmp_path / "g.json"),
                                  "--overwrite"], input=f"xx\n{typed_bid}\nq\n")
        assert "not a call: 'xx' (1, or a bid such as ♠ 80 (or 80s), ♠ capot)" in res.stdout
        assert "You: ♠ 90" in res.stdout


def colour_run(tmp_path: Path, **env: str) -> str:
    proc = subprocess.run(
        [sys.executable, "-m", "belote", "play", "--bots", "random", "--seed", "3",
         "--save", str(tmp_path / "g.json"), "--overwrite"],
        input="pass\npass\nq\n", capture_output=True, text=True, timeout=120,
        env={k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
        | env,
    )
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def test_red_hearts_and_diamonds_on_a_colour_terminal(tmp_path: Path) -> None:
    out = colour_run(tmp_path, FORCE_COLOR="1", COLUMNS="200")
    red = re.findall(r"\x1b\[[0-9;]*31m([^\x1b]*)", out)
    assert red and all(("♥" in t or "♦" in t) for t in red), red
    black = re.findall(r"(?:^|[ :])((?:10|[789JQKA])[♠♣])", re.sub(r"\x1b\[[0-9;]*m", "", out))
    assert black  # spades and clubs are there, never red
    assert not re.search(r"31m[^\x1b]*[♠♣]", out)
    plain = colour_run(tmp_path, FORCE_COLOR="1", NO_COLOR="1")
    assert "31m" not in plain and "♥" in plain + "♦"


# --- running trick points, the last trick on demand ---------------------------------------


TRICK_LINE = re.compile(r"^  → trick (\d) to (\w+) \((\d+) points\) · so far NS (\d+) – EW (\d+)$")


def test_running_trick_points_add_up_to_the_deal(tmp_path: Path) -> None:
    lines = play_lines("--bots", "random", "--seed", "7", "--target", "300",
                       "--save", str(tmp_path / "g.json"), typed=answers(cycle=3000))
    totals = [0, 0]
    deals = 0
    for line in lines:
        m = TRICK_LINE.match(line)
        if m:
            number, winner, points = int(m.group(1)), m.group(2), int(m.group(3))
            if number == 1:
                totals = [0, 0]
            totals[0 if winner in ("North", "You") else 1] += points
            assert totals == [int(m.group(4)), int(m.group(5))], line
        elif line.startswith("│ tricks"):  # the deal's table: the same card points
            assert [int(x) for x in re.findall(r"\d+", line)] == totals, (line, totals)
            assert sum(totals) in (162, 252)
            deals += 1
    assert deals >= 2


def test_last_trick_on_demand(tmp_path: Path) -> None:
    """``l`` at any card prompt shows the last trick taken, as it was played."""
    typed = [x for i in range(3000) for x in ("l", str(i % 8 + 1))]
    lines = play_lines("--bots", "random", "--seed", "3", "--target", "150",
                       "--save", str(tmp_path / "g.json"), typed="\n".join(typed) + "\n")
    assert any("No trick has been taken yet in this deal." in line for line in lines)
    played: list[str] = []
    last: tuple[str, str] | None = None
    checked = 0
    for line in lines:
        text = line.removeprefix("> ")
        if m := re.match(r"^(You|North|East|West) plays? (\S+)", text):
            played.append(f"{m.group(1)} {m.group(2)}")
        elif m := TRICK_LINE.match(line):
            last = (", ".join(played[-4:]) + f" → {m.group(2)}, {m.group(3)} points", m.group(1))
            played = []
        elif text.startswith("Last trick"):
            assert last is not None
            assert text == f"Last trick (trick {last[1]}): {last[0]}", (text, last)
            checked += 1
        elif text.startswith("── Deal"):
            last = None
    assert checked > 10


def test_in_game_help_names_the_keys(tmp_path: Path) -> None:
    out = "\n".join(play_lines("--bots", "random", "--seed", "3", "--save",
                               str(tmp_path / "g.json"), typed="help\nq\n"))
    assert "(? hint, s save, q quit, help)" in out
    for key in ("  ?  ", "  l  ", "  s  ", "  q  ", "Ctrl-C", "last trick"):
        assert key in out


# --- saving: every deal, Ctrl-C, never over a save unasked, never a save that is not there -----


class Live:
    """`belote play` in a real process, read line by line as it writes."""

    def __init__(self, *args: str) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "belote", "play", *args],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            env={k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
            | {"PYTHONUNBUFFERED": "1"},
            preexec_fn=ctrl_c_heard,
        )
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.seen: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def type(self, text: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(text)
        self.proc.stdin.flush()

    def wait_for(self, start: str, count: int = 1) -> None:
        """Until ``count`` lines (so far) contain ``start`` after the prompt."""
        while sum(start in line for line in self.seen) < count:
            line = self.lines.get(timeout=60)
            assert line is not None, self.seen
            self.seen.append(line)

    def finish(self) -> tuple[int, str]:
        rc = self.proc.wait(timeout=60)
        while (line := self.lines.get(timeout=60)) is not None:
            self.seen.append(line)
        return rc, "\n".join(self.seen)


def test_ctrl_c_saves_the_deal_in_progress_and_resume_continues_it(tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    live = Live("--bots", "random", "--seed", "3", "--save", str(save))
    live.type("pass\npass\n1\n")  # West takes ♣ in round 2; South leads J♣ to trick 1
    live.wait_for("Your card", 2)  # South leads trick 2: the person is thinking
    live.proc.send_signal(signal.SIGINT)
    rc, out = live.finish()
    assert rc == 130, out + live.proc.stderr.read()  # type: ignore[union-attr]
    assert "Traceback" not in live.proc.stderr.read()  # type: ignore[union-attr]
    assert f"Game saved to {save}" in out and f"Resume with: belote play --resume {save}" in out
    actions = json.loads(save.read_text())["match"]["deals"][0]["actions"]
    assert [a.get("call") for a in actions[:6]] == ["pass"] * 5 + ["C"]
    assert {"card": "JC"} in actions and len(actions) == 10  # 6 calls, trick 1
    proc = subprocess.run([sys.executable, "-m", "belote", "play", "--resume", str(save)],
                          input="l\nq\n", capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[1].startswith("── Deal 1 ·")  # the same deal, not a new one
    assert "The deal goes on where it stopped." in lines
    assert "Tricks so far: 1 · NS 25 – EW 0" in lines
    assert "Trick 2 · trump ♣ (taken by West) · You lead" in lines
    assert "Your hand: 1:7♣*  2:K♠  3:J♠  4:K♥  5:9♥  6:K♦  7:9♦  (* trump)" in lines
    assert any(line.endswith("Last trick (trick 1): You J♣, West Q♣, North 8♣, East J♥ → You, "
                             "25 points") for line in lines)


def test_quitting_in_the_first_deal_saves_it(tmp_path: Path) -> None:
    """The resume command printed names a save that is there, with the deal so far."""
    save = tmp_path / "g.json"
    for end in ("q\n", ""):  # q, or the end of the input
        res = runner.invoke(app, ["play", "--bots", "random", "--seed", "3", "--save", str(save),
                                  "--overwrite"], input="pass\n" + end)
        assert res.exit_code == 0, res.output
        assert f"Resume with: belote play --resume {save}" in res.stdout and save.exists()
        res = runner.invoke(app, ["play", "--resume", str(save)], input="q\n")
        assert "── Deal 1 ·" in res.stdout and "Calls so far: You passe" in res.stdout
        save.unlink()


def test_no_resume_command_when_the_save_cannot_be_written(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    save = blocker / "g.json"
    res = runner.invoke(app, ["play", "--bots", "random", "--seed", "3", "--save", str(save)],
                        input="pass\nq\n")
    assert res.exit_code == 0, res.output
    assert "cannot save the game to" in res.stdout and "Traceback" not in res.output
    assert "Resume with" not in res.stdout and "Game saved" not in res.stdout
    assert "Bye. The game could not be saved." in res.stdout


def test_saved_at_every_deal_and_game_saved_only_while_the_file_stays(tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    res = runner.invoke(app, ["play", "--bots", "random", "--seed", "7", "--target", "300",
                              "--save", str(save)], input=answers(cycle=3000))
    assert res.exit_code == 0, res.output
    lines = res.stdout.splitlines()
    deals = [i for i, line in enumerate(lines) if line.startswith("── Deal ")]
    saved = [i for i, line in enumerate(lines) if "Game saved to" in line]
    assert len(deals) >= 3 and len(saved) == len(deals) - 1
    # one save between each deal and the next, none after the last deal begins
    assert all(deals[k] < saved[k] < deals[k + 1] for k in range(len(saved)))
    assert f"The game is over: its save {save} is removed." in lines[-1]
    assert not save.exists()


def test_a_new_game_asks_before_overwriting_a_save(tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    args = ["play", "--bots", "random", "--seed", "3", "--save", str(save)]
    other = ["play", "--bots", "random", "--seed", "5", "--save", str(save)]
    runner.invoke(app, args, input="pass\npass\n1\nq\n")
    before = save.read_bytes()
    for answer in ("n\n", "\n", ""):  # no, just Enter, end of input: kept
        res = runner.invoke(app, other, input=answer + "pass\nq\n")
        assert res.exit_code == 0, res.output
        assert (f"A game is saved at {save}: a classic game at deal 1, NS 0 – EW 0."
                in res.stdout)
        assert "Start a new game and overwrite it?" in res.stdout
        assert f"The saved game is kept. Resume it with: belote play --resume {save}" in res.stdout
        assert "── Deal" not in res.stdout and save.read_bytes() == before
    res = runner.invoke(app, args, input="r\nq\n")  # resume it
    assert "The deal goes on where it stopped." in res.stdout
    assert save.read_bytes() == before
    res = runner.invoke(app, other, input="y\nq\n")  # a new game over it
    assert "── Deal 1" in res.stdout and "The deal goes on" not in res.stdout
    assert save.read_bytes() != before
    again = save.read_bytes()
    res = runner.invoke(app, [*args, "--overwrite"], input="q\n")
    assert "Start a new game" not in res.stdout and save.read_bytes() != again


def test_declarations_at_a_table_of_three(tmp_path: Path) -> None:
    """§12.1: the taker against the two defenders, each side named as it scores."""
    typed = []
    for i in range(6000):
        typed.append(str(i % 12 + 1))
        if i % 5 == 0:
            typed.append(f"{i % 12 + 1} {(i + 5) % 12 + 1}")
    lines = play_lines("--profile", "classic-3p", "--bots", "random", "--seed", "0",
                       "--target", "300", "--save", str(tmp_path / "g.json"),
                       typed="\n".join(typed) + "\n")
    said = [line.strip() for line in lines if "Declarations:" in line]
    assert "Declarations: the defenders score 20 — You show tierce (10♦ J♦ Q♦)" in said
    assert "Declarations: You score 20 — You show tierce (9♥ 10♥ J♥)" in said
    assert any(re.search(r"so far You \d+ – the defenders \d+$", line) for line in lines)


def test_target_help_offers_each_profile_its_own_targets() -> None:
    """§11.1: 500 and 700 are Moroccan targets, not every game's."""
    for command in (["play", "--help"], ["score", "--help"]):
        result = CliRunner().invoke(app, command, env={"COLUMNS": "200"})
        text = " ".join(result.output.split())
        assert "classic, classic-3p, classic-2p: 501, 1000, 1001;" in text, command
        assert "moroccan: 500, 700, 1000;" in text
        assert "coinche, contree: 1000, 1500, 2000, 3000" in text


def test_three_players_end_of_deal_shows_each_seats_own_points(tmp_path: Path) -> None:
    """§12.1: beside taker against defenders, each seat's own trick points (a defender's
    share starts from them), adding up to the sides'."""
    typed = [str(i % 12 + 1) for i in range(6000)]
    lines = play_lines("--profile", "classic-3p", "--bots", "random", "--seed", "0",
                       "--target", "300", "--save", str(tmp_path / "g.json"),
                       typed="\n".join(typed) + "\n")

    def row(line: str) -> list[int]:
        return [int(cell) for cell in line.split("│")[2:-1]]

    sides = [row(line) for line in lines if line.startswith("│ tricks ")]
    own = [row(line) for line in lines if line.startswith("│ own tricks ")]
    takers = [re.search(r"\((\w+) took\)", line) for line in lines if "took)" in line]
    assert len(own) == len(sides) == len(takers) >= 2
    names = ["North", "East", "You"]
    for (taker_points, defenders), seats, took in zip(sides, own, takers, strict=True):
        assert took is not None
        taker = names.index(took.group(1))
        assert seats[taker] == taker_points
        assert sum(seats) - seats[taker] == defenders


def test_a_new_deal_waits_for_enter_at_a_terminal(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """The result of a deal stays on screen until Enter (q saves and quits); answers
    from a pipe never wait (every other test here pipes them)."""
    from rich.console import Console

    from belote.cli import play as play_module
    from belote.game import Match
    from belote.options import make_rules

    args = ("--bots", "random", "--seed", "7", "--target", "150")
    piped = play_lines(*args, "--save", str(tmp_path / "a.json"), typed=answers(cycle=3000))
    assert not any("Enter: the next deal" in line for line in piped)
    monkeypatch.setattr(play_module, "typing_at_a_terminal", lambda: True)
    lines = play_lines(*args, "--save", str(tmp_path / "b.json"), typed=answers(cycle=3000))
    deals = [line for line in lines if "── Deal " in line]
    assert len(deals) >= 2 and deals[0].startswith("── Deal 1 ")
    for line in deals[1:]:  # the result, then the wait; Enter, and the next deal
        assert line.startswith("Enter: the next deal · q: save and quit > ── Deal "), line
    waits = sum("Enter: the next deal" in line for line in lines)
    assert waits == len(deals) - 1  # not after the last deal: the game is over
    game = play_module.TerminalGame(Match(make_rules("classic", {})), 2, "random",
                                    Console(), tmp_path / "c.json")
    monkeypatch.setattr(game.console, "input", lambda prompt: "q")
    with pytest.raises(play_module.Quit):
        game.wait_for_next_deal()
    monkeypatch.setattr(game.console, "input", lambda prompt: "")
    game.wait_for_next_deal()  # Enter: on to the next deal


def test_questions_wrap_between_words_on_a_narrow_terminal(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    from rich.console import Console

    from belote.cli.play import TerminalGame
    from belote.game import Match
    from belote.options import make_rules

    screen = io.StringIO()
    console = Console(file=screen, force_terminal=True, width=30, color_system=None)
    game = TerminalGame(Match(make_rules("classic", {})), 2, "random", console,
                        tmp_path / "g.json")
    monkeypatch.setattr(console, "input", lambda prompt: "1")
    assert game.ask("Your card — number or name (? hint, l last trick, s save, q quit, "
                    "help)\n> ") == "1"
    lines = screen.getvalue().splitlines()
    assert lines == ["Your card — number or name (?", "  hint, l last trick, s save,",
                     "  q quit, help)"]
