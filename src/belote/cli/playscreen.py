"""What `belote play` draws in the terminal: the table as the person at it sees it.

:class:`Screen` prints every part of the game on the console: the hand sorted by
suit with the trump marked (``*``) and, in belote découverte, the face-up cards
that still cover one (``^``, docs/rules.md §12.2); the legal cards numbered; the
cards face up for all; each deal's header, each trick's, each card played with what
was said with it, the declarations compared (§7.4–§7.6), a deal's result and the
game's end, per team or, at the tables of three and two, per seat (§12).  It reads
the game and never changes it: the game loop and its prompts are
:mod:`belote.cli.play`'s, the saved games :mod:`belote.cli.playsave`'s.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from belote.bots.base import discard_trump
from belote.cards import ALL_TRUMP, NO_TRUMP, Card, CardMask, order_table, scan_forward, suit_of
from belote.cli.playtext import Words
from belote.game import Match
from belote.hand import DECOUVERTE, CardPlayed
from belote.play import TEAM_NAMES
from belote.round import PlayerView, Round
from belote.scoring import Outcome
from belote.table import DealMode, Phase

SEAT_WORDS = ("North", "East", "South", "West")


def score_line(names: Sequence[str], totals: Sequence[int]) -> str:
    """``NS 120 – EW 80``, or per seat ``North 40 – East 52 – South 12`` (§12)."""
    return " – ".join(f"{name} {t}" for name, t in zip(names, totals, strict=True))



class Screen:
    """The game ``match`` drawn on ``console`` for the person at ``seat``, cards and
    calls in ``words``."""

    def __init__(self, match: Match, seat: int, console: Console, words: Words) -> None:
        self.match = match
        self.seat = seat
        self.console = console
        self.words = words
        self.players = match.rules.players

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

    def opening(self, bot_spec: str) -> None:
        """The game's first line: the profile, the target, the person's seat and company,
        the bots."""
        rules = self.match.rules
        if self.players == 4:
            company = f"partner {SEAT_WORDS[self.seat ^ 2]}"
        else:
            others = [SEAT_WORDS[s] for s in range(self.players) if s != self.seat]
            company = "against " + " and ".join(others) + ", each for himself"
        self.console.print(f"[bold]belote[/bold] · {rules.profile} · target {rules.target} · "
                           f"you are {SEAT_WORDS[self.seat]}, {company} "
                           f"· bots: {escape(bot_spec)}", soft_wrap=True)

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

    def show_card(self, rnd: Round, seat: int, record: CardPlayed, tricks_before: int) -> None:
        """A card just played by ``seat``, with what was said with it, the trick it
        completes (``tricks_before``: the tricks taken before it) and the declarations
        compared as the first card of trick 2 is played (§7.4)."""
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

