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
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Annotated, Any, NamedTuple

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from belote import jsonsafe
from belote.actions import Call as CallAction
from belote.actions import Play, plain_play
from belote.bots import Bot, make_bot
from belote.bots.base import BaseBot, apply_for, check_table, discard_trump, next_action
from belote.cards import (
    ALL_TRUMP,
    NO_TRUMP,
    Card,
    CardMask,
    order_table,
    scan_forward,
    suit_of,
)
from belote.cli.common import check_int, fail, fit, keep, targets_text
from belote.cli.playtext import Words
from belote.errors import BeloteError
from belote.game import Match
from belote.hand import DECOUVERTE, CardPlayed
from belote.history import (
    HistoryStore,
    Player,
    check_game_id,
    default_history_path,
    new_game_id,
)
from belote.options import Deck, Rules, make_rules, parse_option_assignment
from belote.play import SEAT_NAMES, TEAM_NAMES
from belote.round import Event, PlayerView, Round
from belote.scoring import Outcome
from belote.table import DealMode, Phase

SEAT_WORDS = ("North", "East", "South", "West")
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


def default_save_path() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "belote" / "saved-game.json"


def typing_at_a_terminal() -> bool:
    """Whether the answers come from a person at a terminal (not a pipe nor a file):
    only then does a new deal wait for Enter, so that piped answers never hang."""
    return sys.stdin.isatty()


class Quit(Exception):
    """The person asked to stop (or the input ended)."""


class TerminalGame:
    """The loop of a game against bots, reading answers from the console."""

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

    # --- names ------------------------------------------------------------------

    def name(self, c: Card) -> str:
        """A card as shown: ``10♥`` (red on a colour terminal), ``rey de copas``."""
        return self.words.card(c)

    def who(self, seat: int) -> str:
        return "You" if seat == self.seat else SEAT_WORDS[seat]

    def trump_text(self, trump: int) -> str:
        return self.words.trump(trump)

    def error(self, exc: Exception, engine: bool = True) -> None:
        """A refusal in the screen's words: the engine's with cards and calls as shown."""
        text = self.words.message(str(exc), self.who) if engine else str(exc)
        self.console.print(f"[red]{escape(text)}[/red]", soft_wrap=True)

    # --- the hand on screen ------------------------------------------------------

    def sorted_hand(self, hand: CardMask, trump: int | None) -> list[Card]:
        """Suits in the order ♠ ♥ ♦ ♣ with the trump first; strongest card first."""
        suits = [0, 1, 2, 3]
        if trump is not None and trump < NO_TRUMP:
            suits.remove(trump)
            suits.insert(0, trump)

        strength = order_table(NO_TRUMP if trump is None else trump)
        out: list[Card] = []
        for s in suits:
            cards = [c for c in scan_forward(hand) if suit_of(c) == s]
            out += sorted(cards, key=strength.__getitem__, reverse=True)
        return out

    def show_hand(self, view: PlayerView, numbered: bool, all_legal: bool = False) -> list[Card]:
        trump = view.contract.trump if view.contract else None
        if view.phase == Phase.DISCARD:
            trump = discard_trump(view)
        cards = self.sorted_hand(view.hand, trump)
        legal = set(view.legal_cards)
        if all_legal:
            legal = set(cards)
        covering = self.covering(self.seat)
        parts = []
        for i, c in enumerate(cards, start=1):
            text = self.name(c)
            if trump is not None and (trump == ALL_TRUMP or suit_of(c) == trump):
                text += "*"
            if covering >> c & 1:
                text += "^"
            # legal cards: a green number and the card in bold (its suit's colour kept)
            if numbered and c in legal:
                text = f"[bold green]{i}:[/bold green][bold]{text}[/bold]"
            elif numbered:
                text = f"[dim]{i}:{text}[/dim]"
            parts.append(text)
        marks = (["* trump"] if trump is not None else []) + (
            ["^ covers a face-down card"] if covering else [])
        notes = [f"({', '.join(marks)})"] if marks else []
        self.print_items("Your hand: ", parts + notes)
        return cards

    def print_items(self, head: str, items: Sequence[str]) -> None:
        """``head`` then the items two spaces apart, wrapped between items only (a card
        name such as ``caballo de bastos`` is never cut), continuation lines indented."""
        width = self.console.width
        indent = " " * min(len(Text.from_markup(head).plain), 12)
        line, size = head, Text.from_markup(head).cell_len
        fresh = True
        for item in items:
            n = Text.from_markup(item).cell_len
            if not fresh and size + 2 + n > width:
                self.console.print(line, soft_wrap=True)
                line, size, fresh = indent + item, len(indent) + n, False
                continue
            line += item if fresh else "  " + item
            size += n if fresh else 2 + n
            fresh = False
        self.console.print(line, soft_wrap=True)

    def covering(self, seat: int) -> CardMask:
        """Belote découverte: the face-up cards of ``seat`` that still cover a face-down
        card (everybody sees them, §12.2)."""
        rnd = self.match.current
        if rnd is None:
            return 0
        return rnd.covering() & rnd.hand(seat)

    def show_public(self, rnd: Round, view: PlayerView) -> None:
        """The cards face up for all: the other player's in découverte; the turned card
        and the bergère of the six-each and stock deals (§12)."""
        if not view.public:
            return
        if rnd.mode is DealMode.DECOUVERTE:
            other = 1 - self.seat
            trump = view.contract.trump if view.contract else None
            cover = self.covering(other)
            self.print_items(f"{SEAT_WORDS[other]}'s face-up cards: ", [
                self.name(c) + ("^" if cover >> c & 1 else "")
                for c in self.sorted_hand(view.public, trump)
            ])
            return
        self.print_items("Face up on the table, out of play: ",
                         [self.name(c) for c in scan_forward(view.public)])

    def header(self, rnd: Round) -> None:
        """The deal's number, the dealer, the game's score (per team, or per seat at a
        table of three or two, §12) and the reserve."""
        line = (f"── Deal {self.match.deals} · dealer {SEAT_WORDS[rnd.dealer]} · "
                f"{score_line(self.score_names(), self.match.score.totals)}")
        if self.match.reserve:
            line += f" · reserve {self.match.reserve}"
        self.console.print(f"[bold]{line} ──[/bold]")
        self.show_turned(rnd)

    def score_names(self) -> list[str]:
        """Who the game's score is kept for: the teams, or each seat (§12)."""
        if self.players == 4:
            return list(TEAM_NAMES)
        return [self.who(s) for s in range(self.players)]

    def show_turned(self, rnd: Round) -> None:
        """The turned card, face up for everyone as the bidding starts (§3.1)."""
        if rnd.phase == Phase.BIDDING and rnd.turned is not None and not rnd.calls:
            self.console.print(f"Turned card: [bold]{self.name(rnd.turned)}[/bold] "
                               f"(dealer {SEAT_WORDS[rnd.dealer]})")

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
            return "hint: lay aside " + " ".join(self.name(c) for c in cards)
        return f"hint: {self.name(self._hint_bot.play(view))}"

    def save(self) -> bool:
        """Write the game, the deal in progress included (its deck and every call and
        card so far: resuming replays them); True when the file is written."""
        data = {
            "belote_play": {"seat": SEAT_NAMES[self.seat], "bots": self.bot_spec,
                            "game_id": self.game_id},
            "match": self.match.to_record(),
        }
        tmp = self.save_path.with_name(self.save_path.name + ".tmp")
        try:
            self.save_path.parent.mkdir(parents=True, exist_ok=True)
            tmp.write_text(json.dumps(data), encoding="utf-8")
            os.replace(tmp, self.save_path)
        except OSError as exc:
            with contextlib.suppress(OSError):
                tmp.unlink()
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
            self.show_last_trick(view)
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
            self.console.print(f"Turned card: [bold]{self.name(view.turned)}[/bold]")
        self.show_hand(view, numbered=False)
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
                self.error(exc)
                continue
            self.console.print(f"You: {words.call(call)}")
            return

    def human_discard(self, rnd: Round) -> None:
        """Three players, kitty deal (§12.1): lay two of the twelve cards aside."""
        view = rnd.view(self.seat)
        self.console.print("You took the kitty: lay two cards aside (they count in your "
                           "tricks).")
        cards = self.show_hand(view, numbered=True, all_legal=True)
        while True:
            answer = self.ask(
                "Two cards — numbers or names (? hint, s save, q quit, help)\n> ")
            if not answer or self.command(answer, view):
                continue
            parts = answer.split(",") if "," in answer else answer.split()
            try:
                chosen = [self.pick(part, cards) for part in parts]
            except BeloteError as exc:
                self.error(exc, engine=False)
                continue
            try:
                rnd.discard(chosen)
            except BeloteError as exc:
                self.error(exc)
                continue
            self.console.print("You lay aside " + " ".join(self.name(c) for c in chosen))
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
        self.show_table(view)
        self.show_public(rnd, view)
        cards = self.show_hand(view, numbered=True)
        while True:
            answer = self.ask(
                "Your card — number or name (? hint, l last trick, s save, q quit, help)\n> ")
            if not answer or self.command(answer, view):
                continue
            try:
                c = self.pick(answer, cards)
            except BeloteError as exc:
                self.error(exc, engine=False)
                continue
            action = plain_play(c)  # the default announcement, belote said when due
            try:
                rnd.verify(action)
            except BeloteError as exc:
                self.error(exc)
                continue
            self.play_card(rnd, self.seat, functools.partial(rnd.apply, action))
            return

    def trick_header(self, view: PlayerView) -> None:
        contract = view.contract
        assert contract is not None
        if contract.value == DECOUVERTE:
            taken = "belote découverte, no bidding"
        else:
            value = "" if contract.value is None else (
                f" for {'générale' if contract.value == 'generale' else contract.value}")
            level = {2: " coinched", 4: " surcoinched"}.get(contract.multiplier, "")
            taken = f"taken by {self.who(contract.taker)}{value}{level}"
        self.console.print(
            f"[bold]Trick {len(view.tricks) + 1}[/bold] · trump "
            f"{self.trump_text(contract.trump)} ({taken}) · {self.who(view.trick_leader)} "
            f"{'lead' if view.trick_leader == self.seat else 'leads'}"
        )

    def side_name(self, side: int, taker: int) -> str:
        """A side of the hand: NS / EW; with three players the taker's or the defenders'
        (§12.1); with two the seat."""
        if self.players == 4:
            return TEAM_NAMES[side]
        if self.players == 3:
            return self.who(taker) if side == 0 else "the defenders"
        return self.who(side)

    def show_table(self, view: PlayerView) -> None:
        if view.trick:
            on_table = ", ".join(
                f"{self.who((view.trick_leader + i) % self.players)} {self.name(c)}"
                for i, c in enumerate(view.trick)
            )
            self.console.print(f"On the table: {on_table}", soft_wrap=True)

    # --- acting ------------------------------------------------------------------------

    def play_card(self, rnd: Round, seat: int, act: Callable[[], Event]) -> None:
        """A card played by ``act`` (the round's ``apply``), shown with what was said with
        it, the trick it completes and the declarations compared (§7.4)."""
        tricks_before = len(rnd.tricks)
        record = act()
        assert isinstance(record, CardPlayed)
        line = (f"{self.who(seat)} {'play' if seat == self.seat else 'plays'} "
                f"{self.name(record.card)}")
        if record.declarations:
            said = ", ".join(self.words.declaration(d) for d in record.declarations)
            line += f" and {'announce' if seat == self.seat else 'announces'} {said}"
        if record.belote:
            line += f" — {record.belote.capitalize()}!"
        self.console.print(line)
        tricks = rnd.tricks
        if len(tricks) > tricks_before:
            trick = tricks[-1]
            self.console.print(
                f"  → trick {len(tricks)} to {self.who(trick.winner)} "
                f"({trick.points} points) · so far {self.running_points(rnd)}"
            )
        if len(tricks) == 1 and len(rnd.trick) == 1:
            self.show_declarations(rnd)

    def running_points(self, rnd: Round) -> str:
        """The card points each side has taken so far this deal: ``NS 42 – EW 19``."""
        taker = rnd.taker
        assert taker is not None
        points = rnd.trick_points
        return " – ".join(f"{self.side_name(i, taker)} {points[i]}" for i in (0, 1))

    def show_last_trick(self, view: PlayerView) -> None:
        """The last trick taken, on demand (``l``): who played what, who took it."""
        if not view.tricks:
            self.console.print("No trick has been taken yet in this deal.")
            return
        trick = view.tricks[-1]
        cards = ", ".join(
            f"{self.who((trick.leader + i) % self.players)} {self.name(c)}"
            for i, c in enumerate(trick.cards)
        )
        self.console.print(
            f"Last trick (trick {len(view.tricks)}): {cards} → {self.who(trick.winner)}, "
            f"{trick.points} points", soft_wrap=True)

    def show_declarations(self, rnd: Round) -> None:
        """The declarations compared as the first card of trick 2 is played (§7.4–§7.6):
        who scores them, and the combinations the winners show."""
        result = rnd.declaration_result()
        if result is None or not any(rnd.announced):
            return
        if result.winner is None:
            self.console.print("  Declarations: equal, nobody scores them (§7.5)")
            return
        taker = rnd.taker
        assert taker is not None
        side = self.side_name(result.winner, taker)
        shown = rnd.view(self.seat).shown
        parts = [
            f"{self.who(s)} {'show' if s == self.seat else 'shows'} "
            + ", ".join(f"{self.words.declaration(d)} "
                        f"({' '.join(self.name(c) for c in scan_forward(d.cards))})"
                        for d in combos)
            for s, combos in enumerate(shown) if combos
        ]
        self.console.print(
            f"  Declarations: {side} {'score' if side in ('You', 'the defenders') else 'scores'} "
            f"{result.points[result.winner]}" + (" — " + "; ".join(parts) if parts else ""),
            soft_wrap=True,
        )

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
            self.console.print(f"{self.who(seat)}: {self.words.call(action.call)}")
        else:
            self.console.print(f"{self.who(seat)} takes the kitty and lays two cards aside")

    # --- the game ----------------------------------------------------------------------------

    def run(self) -> None:
        c = self.console
        if self.players == 4:
            company = f"partner {SEAT_WORDS[self.seat ^ 2]}"
        else:
            others = [SEAT_WORDS[s] for s in range(self.players) if s != self.seat]
            company = "against " + " and ".join(others) + ", each for himself"
        c.print(f"[bold]belote[/bold] · {self.rules.profile} · target {self.rules.target} · "
                f"you are {SEAT_WORDS[self.seat]}, {company} "
                f"· bots: {escape(self.bot_spec)}", soft_wrap=True)
        try:
            while not self.match.finished:
                resumed = self.match.current
                rnd = resumed or self.match.new_round()
                self.header(rnd)
                if resumed is not None:
                    self.show_resumed(rnd)
                while rnd.phase in (Phase.BIDDING, Phase.PLAY, Phase.DISCARD):
                    seat = rnd.current_player()
                    if rnd.phase == Phase.PLAY and not rnd.trick:
                        self.trick_header(rnd.view(self.seat))
                    if seat == self.seat:
                        if rnd.phase == Phase.BIDDING:
                            self.human_call(rnd)
                        elif rnd.phase == Phase.DISCARD:
                            self.human_discard(rnd)
                        else:
                            self.human_card(rnd)
                    else:
                        self.bot_turn(rnd, seat)
                self.show_result(rnd)
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
            c.print()
            with hold_interrupts():
                self.leave()
            raise typer.Exit(130) from None
        self.show_end()

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

    def show_resumed(self, rnd: Round) -> None:
        """A saved deal taken up where it stopped: what was said and played so far."""
        if not rnd.actions_json():
            return
        self.console.print("The deal goes on where it stopped.")
        if rnd.phase == Phase.BIDDING:
            if rnd.turned is not None and rnd.calls:
                self.console.print(f"Turned card: [bold]{self.name(rnd.turned)}[/bold] "
                                   f"(dealer {SEAT_WORDS[rnd.dealer]})")
            said = ", ".join(f"{self.who(call.seat)} {self.words.call(call.call)}"
                             for call in rnd.calls)
            if said:
                self.console.print(f"Calls so far: {said}", soft_wrap=True)
        elif rnd.phase == Phase.PLAY:
            view = rnd.view(self.seat)
            if view.tricks:
                self.console.print(f"Tricks so far: {len(view.tricks)} · "
                                   f"{self.running_points(rnd)}")
            if view.trick:
                self.trick_header(view)
                self.show_table(view)

    def leave(self) -> None:
        """Quit (q, Ctrl-C, end of input): save, and say how to resume when saved."""
        if self.save() and self.save_path.exists():
            self.console.print(
                f"Bye. Resume with: belote play --resume {escape(str(self.save_path))}",
                soft_wrap=True)
        else:
            self.console.print("Bye. The game could not be saved.")

    def show_result(self, rnd: Round) -> None:
        """The deal's points per side, then what each team or seat scores (§8, §12)."""
        if rnd.phase == Phase.ALL_PASS:
            self.console.print("Everybody passed: the cards are dealt again (§2.4).")
            return
        assert rnd.phase == Phase.OVER
        res = rnd.result()
        taker = res.contract.taker
        if self.players == 4:
            title = f"Deal {self.match.deals}: {res.score.outcome}"
        elif res.score.outcome is Outcome.COUNTED:
            title = f"Deal {self.match.deals}: each scores his own (belote découverte)"
        else:
            title = f"Deal {self.match.deals}: {res.score.outcome} ({self.who(taker)} took)"
        table = Table(title=title)
        table.add_column("")
        for side in (0, 1):
            table.add_column(self.side_name(side, taker), justify="right")
        table.add_row("tricks", *(str(p) for p in res.trick_points))
        table.add_row("declarations", *(str(p) for p in res.declarations.points))
        table.add_row("belote", *(str(p) for p in res.belote_points))
        score = res.score.score if res.seats is None else res.seats
        after = [t + p for t, p in zip(self.match.score.totals, score, strict=True)]
        if self.players != 4:
            # per seat (§12): the sides' points above, each seat's score below
            self.console.print(table)
            table = Table(title="Scores")
            table.add_column("")
            for name in self.score_names():
                table.add_column(name, justify="right")
            if self.players == 3:
                # each seat's own points, the defenders' too: their shares start there
                own = rnd.seat_entry()
                table.add_row("own tricks", *(str(p) for p in own.trick_points))
                if any(own.belote or ()):
                    table.add_row("own belote", *(str(p) for p in own.belote or ()))
        table.add_row("score" if self.players == 4 else "this deal",
                      *(f"[bold]{p}[/bold]" for p in score))
        table.add_row("running total", *(str(p) for p in after))
        self.console.print(table)
        if res.score.reserve:
            self.console.print(f"Litige: {res.score.reserve} points in reserve (§8.4).")

    def show_end(self) -> None:
        score = self.match.score
        winner = score.winner
        if self.players == 4:
            totals = score.totals
            if winner is None:
                self.console.print(f"Game over: a draw at NS {totals[0]} – EW {totals[1]}.")
            else:
                verdict = "You win!" if winner == self.seat & 1 else "You lose."
                self.console.print(
                    f"[bold]Game over: {TEAM_NAMES[winner]} wins "
                    f"{totals[winner]} to {totals[1 - winner]}. {verdict}[/bold]")
        else:
            line = ", ".join(f"{name} {t}" for name, t in
                             zip(self.score_names(), score.totals, strict=True))
            if winner is None:
                self.console.print(f"Game over: a draw ({line}).")
            elif winner == self.seat:
                self.console.print(f"[bold]Game over ({line}). You win![/bold]")
            else:
                self.console.print(f"[bold]Game over: {self.who(winner)} wins "
                                   f"({line}). You lose.[/bold]")
        self.remove_save()

    def remove_save(self) -> None:
        """A finished game leaves no save behind (one written at an earlier deal goes)."""
        if self.save_path.exists():
            with contextlib.suppress(OSError):
                self.save_path.unlink()
            self.console.print(f"The game is over: its save {escape(str(self.save_path))} "
                               "is removed.", soft_wrap=True)


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


def describe_save(path: Path) -> str:
    """A saved game in a few words, for the question before overwriting it."""
    try:
        match = load_saved(path).match
    except BeloteError:
        return "a file that is not a readable saved game"
    names = TEAM_NAMES if match.players == 4 else SEAT_WORDS[:match.players]
    score = score_line(names, match.score.totals)
    return f"a {match.rules.profile} game at deal {max(match.deals, 1)}, {score}"


def score_line(names: Sequence[str], totals: Sequence[int]) -> str:
    """``NS 120 – EW 80``, or per seat ``North 40 – East 52 – South 12`` (§12)."""
    return " – ".join(f"{name} {t}" for name, t in zip(names, totals, strict=True))


def ask_before_overwrite(console: Console, path: Path) -> str:
    """A game is saved at ``path``: ``new`` (overwrite it), ``resume`` or ``keep``."""
    console.print(f"A game is saved at {escape(str(path))}: {describe_save(path)}.",
                  soft_wrap=True)
    console.print("Start a new game and overwrite it?  y: a new game over it  r: resume it  "
                  "anything else: keep it and stop", soft_wrap=True)
    try:
        answer = console.input("> ")
    except (EOFError, KeyboardInterrupt):
        answer = ""
        console.print()
    answer = answer.strip().lower()
    if answer in ("y", "yes", "o", "oui"):
        return "new"
    if answer in ("r", "resume"):
        return "resume"
    return "keep"


class Saved(NamedTuple):
    """A game saved by `belote play`: the game, the person's seat, the bots, the game's
    id in the history."""

    match: Match
    seat: int
    bots: str
    game_id: str


def load_saved(path: Path) -> Saved:
    """The game saved at ``path``.  The game is a game's record (docs/json.md), read
    through :meth:`Match.from_record`; a save of an earlier version, without a
    ``game_id``, gets a new one (its finished deals are kept in the history from the
    next deal's end)."""
    try:
        text = jsonsafe.decode(path.read_bytes(), str(path))
        # a saved game may hold a generator's state: numbers longer than an input's
        data: Any = jsonsafe.loads(text, str(path), max_digits=400)
    except OSError as exc:
        raise BeloteError(f"cannot read saved game {str(path)!r}: {exc}") from None
    except BeloteError as exc:
        raise BeloteError(f"cannot read saved game: {exc}") from None
    meta = data.get("belote_play") if isinstance(data, dict) else None
    if not isinstance(meta, dict):
        raise BeloteError(f"{str(path)!r} is not a game saved by belote play")
    seat = "NESW".find(str(meta.get("seat", "")))
    if seat < 0:
        raise BeloteError(f"{str(path)!r}: bad seat {meta.get('seat')!r}")
    match = Match.from_record(data.get("match"))
    if seat >= match.players:
        raise BeloteError(f"{str(path)!r}: bad seat {meta.get('seat')!r} for "
                          f"{match.players} players")
    game_id = meta.get("game_id")
    if game_id is None:  # a save of before the history: a new id
        game_id = new_game_id()
    check_game_id(game_id, f"{str(path)!r}: game_id")
    return Saved(match, seat, str(meta.get("bots", "heuristic")), game_id)


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
