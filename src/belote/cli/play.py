"""`belote play`: a game against bots in a plain terminal.

The person sits at one seat (South by default) with a bot partner and two bot
opponents; at the tables of three and two (docs/rules.md §12, profiles ``classic-3p``
and ``classic-2p``) with two bots or one, everyone for himself (North by default
with two players), each seat's score shown.  As taker of the kitty deal the
person lays two cards aside (§12.1); in belote découverte the other player's
face-up cards are shown, and ``^`` marks a face-up card that still covers one
(§12.2).  Each decision shows the hand sorted by suit with the trump marked,
the trick on the table and who leads, the legal cards highlighted and
numbered; a card is chosen by its number or its name (``10h``, ``JH``, ``J♥``).
Calls are written one way, in the game's French words (``passe``, ``prend``,
``prend à ♠``, ``♠ 110``, ``coinche``), and typed as shown or shorter (``s``,
``110s``); the moroccan profile names suits and cards the Spanish way on screen
and in input (``rey de copas`` or ``12c``, ``prend à oros``), see
:mod:`belote.cli.playtext`.  Hearts and diamonds are red on a colour terminal
(plain through a pipe or under ``NO_COLOR``).  ``?`` asks the strongest bot for a
hint, ``s`` saves the game, ``q`` saves and quits.

This module is the game loop and its prompts (:class:`TerminalGame`, the command);
what the terminal shows is drawn by :mod:`belote.cli.playscreen`, and the saved
games are written and read by :mod:`belote.cli.playsave`.
"""

from __future__ import annotations

import contextlib
import functools
import signal
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape

from belote.actions import Call as CallAction
from belote.actions import Play, plain_play
from belote.bots import Bot, make_bot
from belote.bots.base import BaseBot, apply_for, check_table, next_action
from belote.cards import Card
from belote.cli.common import check_int, fail, fit, keep, targets_text
from belote.cli.playsave import (
    Saved,
    ask_before_overwrite,
    default_save_path,
    load_saved,
    remove_save,
    write_save,
)
from belote.cli.playscreen import Screen
from belote.cli.playtext import Words
from belote.errors import BeloteError
from belote.game import Match
from belote.hand import CardPlayed
from belote.history import HistoryStore, Player, default_history_path, new_game_id
from belote.options import Deck, Rules, make_rules, parse_option_assignment
from belote.play import SEAT_NAMES
from belote.round import Event, PlayerView, Round
from belote.table import Phase

HELP = """\
At a prompt, type:
  a number or a name    the card or call of that number in the list, or by its name
                        (cards such as {examples})
  ?                     a hint from the strongest bot
  l                     the last trick taken: who played what, who took it
  s                     save the game (it is saved at the end of every deal anyway)
  q                     save and quit (Ctrl-C too: the deal in progress is kept)
  help                  this help
Each trick taken shows its points and each side's card points so far in the deal; a
deal's result stays on screen until you press Enter for the next deal."""
HINT_BOT = "pimc:worlds=12"


def typing_at_a_terminal() -> bool:
    """Whether the answers come from a person at a terminal (not a pipe nor a file):
    only then does a new deal wait for Enter, so that piped answers never hang."""
    return sys.stdin.isatty()


class Quit(Exception):
    """The person asked to stop (or the input ended)."""


class TerminalGame:
    """The loop of a game against bots, reading answers from the console; what it
    shows is drawn by its :class:`~belote.cli.playscreen.Screen` (``screen``), its
    saves written by :mod:`belote.cli.playsave`."""

    def __init__(
        self,
        match: Match,
        seat: int,
        bot_spec: str,
        console: Console,
        save_path: Path,
        seed: int | None = None,
        *,
        history: Path | None = None,
        game_id: str | None = None,
    ) -> None:
        self.match = match
        # where every finished deal is kept (`belote history`), None: not kept
        self.history = history
        self.game_id = game_id or new_game_id()
        self.rules: Rules = match.rules
        self.seat = seat
        self.bot_spec = bot_spec
        self.console = console
        self.save_path = save_path
        self.players = match.rules.players
        if not 0 <= seat < self.players:
            raise BeloteError(
                f"seat {SEAT_NAMES[seat]!r}: {self.players} players sit at "
                f"{', '.join(SEAT_NAMES[:self.players])}"
            )
        self.bots: list[BaseBot | None] = [
            None if s == seat else make_bot(bot_spec, None if seed is None else seed + s)
            for s in range(self.players)
        ]
        check_table(self.rules, self.bots, "belote play")
        self._hint_bot: Bot | None = None
        self.words = Words(self.rules.deck is Deck.SPANISH)
        self.screen = Screen(match, seat, console, self.words)

    # --- input ---------------------------------------------------------------------

    def ask(self, prompt: str) -> str:
        """An answer typed after ``prompt`` (its last line is the input's prompt; the lines
        before it are printed unwrapped, never cutting a card's or a call's name)."""
        head, newline, prompt = prompt.rpartition("\n")
        if newline:  # wrapped between words on a terminal, never inside a name
            width = self.console.width if self.console.is_terminal else None
            self.console.print(fit(head, width), soft_wrap=True)
        try:
            answer = self.console.input(prompt)
        except EOFError:
            raise Quit from None
        return answer.strip()

    def hint(self, view: PlayerView) -> str:
        if self._hint_bot is None:
            self._hint_bot = make_bot(HINT_BOT, seed=0)
        if view.phase == Phase.BIDDING:
            return f"hint: {self.words.call(self._hint_bot.call(view))}"
        if view.phase == Phase.DISCARD:
            cards = self._hint_bot.discard(view)
            return "hint: lay aside " + " ".join(self.screen.name(c) for c in cards)
        return f"hint: {self.screen.name(self._hint_bot.play(view))}"

    def save(self) -> bool:
        """Write the game, the deal in progress included (its deck and every call and
        card so far: resuming replays them); True when the file is written."""
        try:
            write_save(self.save_path,
                       Saved(self.match, self.seat, self.bot_spec, self.game_id))
        except OSError as exc:
            self.console.print(f"[red]cannot save the game to {escape(str(self.save_path))}: "
                               f"{escape(exc.strerror or str(exc))}[/red]", soft_wrap=True)
            return False
        self.console.print(f"Game saved to {escape(str(self.save_path))}", soft_wrap=True)
        return True

    def command(self, answer: str, view: PlayerView) -> bool:
        """Handle ``?``, ``l``, ``s``, ``q`` and ``help``; True when the answer was one."""
        low = answer.lower()
        if low in ("?", "hint"):
            self.console.print(self.hint(view))
            return True
        if low in ("help", "aide"):
            self.console.print(HELP.format(examples=self.words.examples()), soft_wrap=True)
            return True
        if low in ("l", "last"):
            self.screen.show_last_trick(view)
            return True
        if low in ("s", "save"):
            self.save()
            return True
        if low in ("q", "quit", "exit"):
            raise Quit
        return False

    # --- the person's turns ---------------------------------------------------------

    def human_call(self, rnd: Round) -> None:
        view = rnd.view(self.seat)
        if view.turned is not None and view.calls:
            self.console.print(f"Turned card: [bold]{self.screen.name(view.turned)}[/bold]")
        self.screen.show_hand(view, numbered=False)
        legal = list(view.legal_calls)
        words = self.words
        # A long auction menu numbers passe / coinche / surcoinche; bids are typed.
        calls = legal if len(legal) <= 12 else [
            c for c in legal if c in ("pass", "coinche", "surcoinche")]
        bids = [c for c in legal if c not in calls]
        menu = "  ".join(keep(f"[{i}] {words.call(c)}") for i, c in enumerate(calls, start=1))
        if bids:
            menu += (f"  or a bid from {keep(words.call(bids[0]))} up (typed as shown, or "
                     f"{bids[0].lower()})")
        while True:
            answer = self.ask(f"Your call — {menu}  (? hint, s save, q quit, help)\n> ")
            if not answer or self.command(answer, view):
                continue
            call: str | None
            if answer.isdigit() and 0 < int(answer) <= len(calls):
                call = calls[int(answer) - 1]
            else:
                call = words.parse_call(answer)
            if call is None:
                hint = ("1, " if len(calls) == 1 else f"a number from 1 to {len(calls)}, ") + (
                    words.call_examples() if not bids else
                    f"or a bid such as {words.call(bids[0], False)} (or "
                    f"{bids[0].lower()}), {words.call('capotS', False)}")
                self.console.print(f"[red]not a call: {escape(repr(answer))} ({hint})[/red]",
                                   soft_wrap=True)
                continue
            try:
                rnd.call(call)
            except BeloteError as exc:
                self.screen.error(exc)
                continue
            self.console.print(f"You: {words.call(call)}")
            return

    def human_discard(self, rnd: Round) -> None:
        """Three players, kitty deal (§12.1): lay two of the twelve cards aside."""
        view = rnd.view(self.seat)
        self.console.print("You took the kitty: lay two cards aside (they count in your "
                           "tricks).")
        cards = self.screen.show_hand(view, numbered=True, all_legal=True)
        while True:
            answer = self.ask(
                "Two cards — numbers or names (? hint, s save, q quit, help)\n> ")
            if not answer or self.command(answer, view):
                continue
            parts = answer.split(",") if "," in answer else answer.split()
            try:
                chosen = [self.pick(part, cards) for part in parts]
            except BeloteError as exc:
                self.screen.error(exc, engine=False)
                continue
            try:
                rnd.discard(chosen)
            except BeloteError as exc:
                self.screen.error(exc)
                continue
            self.console.print("You lay aside " + " ".join(self.screen.name(c) for c in chosen))
            return

    def pick(self, answer: str, cards: Sequence[Card]) -> Card:
        """A card by its number in the hand shown or by its name."""
        if answer.isdigit():
            if not 0 < int(answer) <= len(cards):
                raise BeloteError(f"not a card: {answer!r} (a number from 1 to {len(cards)}, "
                                  f"or a card such as {self.words.examples()})")
            return cards[int(answer) - 1]
        return self.words.parse_card(answer)

    def human_card(self, rnd: Round) -> None:
        view = rnd.view(self.seat)
        self.screen.show_table(view)
        self.screen.show_public(rnd, view)
        cards = self.screen.show_hand(view, numbered=True)
        while True:
            answer = self.ask(
                "Your card — number or name (? hint, l last trick, s save, q quit, help)\n> ")
            if not answer or self.command(answer, view):
                continue
            try:
                c = self.pick(answer, cards)
            except BeloteError as exc:
                self.screen.error(exc, engine=False)
                continue
            action = plain_play(c)  # the default announcement, belote said when due
            try:
                rnd.verify(action)
            except BeloteError as exc:
                self.screen.error(exc)
                continue
            self.play_card(rnd, self.seat, functools.partial(rnd.apply, action))
            return

    # --- acting ------------------------------------------------------------------------

    def play_card(self, rnd: Round, seat: int, act: Callable[[], Event]) -> None:
        """A card played by ``act`` (the round's ``apply``), shown with what was said with
        it, the trick it completes and the declarations compared (§7.4)."""
        tricks_before = len(rnd.tricks)
        record = act()
        assert isinstance(record, CardPlayed)
        self.screen.show_card(rnd, seat, record, tricks_before)

    def bot_turn(self, rnd: Round, seat: int) -> None:
        bot = self.bots[seat]
        assert bot is not None
        view = rnd.view(seat)
        action = next_action(bot, view)  # (the arena's driver: the same answers)
        if isinstance(action, Play):
            self.play_card(rnd, seat, lambda: apply_for(rnd, bot, view, action))
            return
        apply_for(rnd, bot, view, action)
        if isinstance(action, CallAction):
            self.console.print(f"{self.screen.who(seat)}: {self.words.call(action.call)}")
        else:
            self.console.print(f"{self.screen.who(seat)} takes the kitty and lays two "
                               "cards aside")

    # --- the game ----------------------------------------------------------------------------

    def run(self) -> None:
        self.screen.opening(self.bot_spec)
        try:
            while not self.match.finished:
                resumed = self.match.current
                rnd = resumed or self.match.new_round()
                self.screen.header(rnd)
                if resumed is not None:
                    self.screen.show_resumed(rnd)
                while rnd.phase in (Phase.BIDDING, Phase.PLAY, Phase.DISCARD):
                    seat = rnd.current_player()
                    if rnd.phase == Phase.PLAY and not rnd.trick:
                        self.screen.trick_header(rnd.view(self.seat))
                    if seat == self.seat:
                        if rnd.phase == Phase.BIDDING:
                            self.human_call(rnd)
                        elif rnd.phase == Phase.DISCARD:
                            self.human_discard(rnd)
                        else:
                            self.human_card(rnd)
                    else:
                        self.bot_turn(rnd, seat)
                self.screen.show_result(rnd)
                self.match.finish_round()
                self.keep_history()
                if not self.match.finished:
                    self.save()  # at every deal's end
                    self.wait_for_next_deal()
        except Quit:
            self.leave()
            return
        except KeyboardInterrupt:
            # Ctrl-C: the deal in progress is kept (a second Ctrl-C while writing is held
            # back so that the save is never left half done).
            self.console.print()
            with hold_interrupts():
                self.leave()
            raise typer.Exit(130) from None
        self.screen.show_end()
        if remove_save(self.save_path):
            self.console.print(f"The game is over: its save {escape(str(self.save_path))} "
                               "is removed.", soft_wrap=True)

    def history_seats(self) -> list[Player]:
        """Who sits where, as the history keeps it: you, and the bots by name."""
        return [Player(SEAT_NAMES[s], "you", "human") if s == self.seat
                else Player(SEAT_NAMES[s], self.bot_spec, "bot")
                for s in range(self.match.players)]

    def keep_history(self) -> None:
        """Keep the game's finished deals in the history (at every deal's end; the
        game is kept again each time, under its id).  A history that cannot be
        written is said once a deal and the game goes on."""
        if self.history is None:
            return
        try:
            with HistoryStore(self.history) as store:
                store.keep(self.match.to_record(), game_id=self.game_id, source="play",
                           seats=self.history_seats())
        except BeloteError as exc:
            self.console.print(f"[red]the deal is not kept in the history: "
                               f"{escape(str(exc))}[/red]", soft_wrap=True)

    def wait_for_next_deal(self) -> None:
        """The deal's result stays on screen until the person asks for the next deal
        (Enter; q saves and quits); with answers from a pipe or a file, no wait."""
        if not typing_at_a_terminal():
            return
        answer = self.ask("Enter: the next deal · q: save and quit > ")
        if answer.lower() in ("q", "quit"):
            raise Quit

    def leave(self) -> None:
        """Quit (q, Ctrl-C, end of input): save, and say how to resume when saved."""
        if self.save() and self.save_path.exists():
            self.console.print(
                f"Bye. Resume with: belote play --resume {escape(str(self.save_path))}",
                soft_wrap=True)
        else:
            self.console.print("Bye. The game could not be saved.")


@contextlib.contextmanager
def hold_interrupts() -> Iterator[None]:
    """Ctrl-C ignored inside the block (main thread only), as it was outside after it."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)

def register(app: typer.Typer) -> None:
    @app.command("play")
    def play_command(
        profile: Annotated[str, typer.Option(
            metavar="NAME",
            help="classic, moroccan, coinche or contree; classic-3p, classic-2p")] = "classic",
        bots: Annotated[str, typer.Option(
            metavar="BOT", help="the bots' strength: random, heuristic, pimc")] = "heuristic",
        target: Annotated[int | None, typer.Option(
            metavar="N", help="points to win (default: the profile's; customary: "
            f"{targets_text()})")] = None,
        seat: Annotated[str | None, typer.Option(
            metavar="SEAT",
            help="your seat: N, E, S or W (N, E, S with three; N, E with two); "
            "default S, or N with two players")] = None,
        option: Annotated[list[str] | None, typer.Option(
            "--option", metavar="NAME=VALUE",
            help="override an option (`belote rules` lists them), repeatable")] = None,
        seed: Annotated[int | None, typer.Option(
            metavar="N", help="seed for the deals and the bots")] = None,
        save: Annotated[Path | None, typer.Option(
            metavar="PATH",
            help="where the game is saved (at every deal's end, on s, q and Ctrl-C); "
            "default in the user's data folder")] = None,
        resume: Annotated[Path | None, typer.Option(
            metavar="PATH", help="resume a saved game (the deal in progress included)")] = None,
        overwrite: Annotated[bool, typer.Option(
            "--overwrite", help="start a new game over a saved one without asking")] = False,
        history: Annotated[Path | None, typer.Option(
            metavar="PATH", help="where every finished deal is kept (`belote history`); "
            "default: $BELOTE_HISTORY, else history.db in the user's data folder")] = None,
        no_history: Annotated[bool, typer.Option(
            "--no-history", help="keep nothing in the history")] = False,
    ) -> None:
        """Play a game against bots in the terminal."""
        check_int("--target", target, 1, 1_000_000)
        console = Console(highlight=False)
        if resume is None and not overwrite:
            path = save or default_save_path()
            if path.exists():
                choice = ask_before_overwrite(console, path)
                if choice == "keep":
                    console.print(f"The saved game is kept. Resume it with: belote play "
                                  f"--resume {escape(str(path))}", soft_wrap=True)
                    return
                if choice == "resume":
                    resume = path
        try:
            game_id: str | None = None
            if resume is not None:
                match, seat_no, bot_spec, game_id = load_saved(resume)
                save_path = save or resume
            else:
                options: dict[str, Any] = {}
                for text in option or []:
                    name, value = parse_option_assignment(text)
                    options[name] = value
                if target is not None:
                    options["target"] = target
                rules = make_rules(profile, options)
                names = SEAT_NAMES[:rules.players]
                if seat is None:
                    seat = "S" if rules.players >= 3 else "N"
                seat_no = names.find(seat.strip().upper())
                if seat_no < 0 or len(seat.strip()) != 1:
                    raise BeloteError(
                        f"--seat: {seat!r} is not a seat ({', '.join(names)})"
                        + ("" if rules.players == 4 else f" of {rules.players} players")
                    )
                make_bot(bots)  # refuse an unknown bot before the game starts
                bot_spec = bots
                match = Match(rules, seed=seed)
                save_path = save or default_save_path()
            kept = None if no_history else (history or default_history_path())
            game = TerminalGame(match, seat_no, bot_spec, console, save_path, seed,
                                history=kept, game_id=game_id)
        except BeloteError as exc:
            fail(str(exc))
        game.run()


__all__ = ["TerminalGame", "default_save_path", "load_saved", "register"]
