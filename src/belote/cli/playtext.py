"""The words of `belote play`: cards, suits, calls, and the engine's messages as shown.

One way of writing each thing, in the product's words (French belote terms): calls are
``passe``, ``prend``, ``prend à ♠``, ``♠ 110``, ``♥ capot``, ``♠ générale``, ``coinche``,
``surcoinche``; trump is a suit symbol, ``sans-atout`` or ``tout-atout``.  The Moroccan
profile (Spanish pack, docs/rules.md §1.2) names suits and cards the Spanish way
everywhere: ``rey de copas``, ``prend à oros``; what is shown is accepted as typed input,
and so are the short forms (``12c``, ``1o``).  Hearts and diamonds (copas and oros) are
red on a colour terminal; rich leaves the text plain elsewhere or under ``NO_COLOR``.

The engine decides every call and card: :meth:`Words.parse_call` and
:meth:`Words.parse_card` only turn typed text into the engine's forms, and
:meth:`Words.message` rewrites the engine's refusals (``S does not hold KH``) in the
same words as the screen.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable
from typing import Final

from belote.cards import (
    ALL_TRUMP,
    NO_TRUMP,
    RANK_LETTERS,
    SPANISH_RANK_NAMES,
    SPANISH_SUIT_NAMES,
    SUIT_LETTERS,
    SUIT_SYMBOLS,
    TEN,
    Card,
    TrumpMode,
    card_symbol,
    parse_card,
    spanish_name,
    suit_of,
)
from belote.declarations import CARRE, Declaration
from belote.errors import InvalidCardError

RED_SUITS: Final = (1, 2)  # hearts / copas, diamonds / oros

_FRENCH_SUITS: Final = {
    "s": 0, "♠": 0, "♤": 0, "pique": 0, "piques": 0, "spades": 0,
    "h": 1, "♥": 1, "♡": 1, "coeur": 1, "cœur": 1, "coeurs": 1, "cœurs": 1, "hearts": 1,
    "d": 2, "♦": 2, "♢": 2, "carreau": 2, "carreaux": 2, "diamonds": 2,
    "c": 3, "♣": 3, "♧": 3, "trèfle": 3, "trefle": 3, "trèfles": 3, "trefles": 3,
    "clubs": 3,
}
_SPANISH_SUITS: Final = {
    "e": 0, "espadas": 0, "espada": 0,
    "c": 1, "copas": 1, "copa": 1,
    "o": 2, "oros": 2, "oro": 2,
    "b": 3, "bastos": 3, "basto": 3,
}
_MODES: Final = {"sa": NO_TRUMP, "ta": ALL_TRUMP}
_SPANISH_RANKS: Final = {
    "4": 0, "5": 1, "6": 2, "7": 3, "10": 4, "sota": 4, "11": 5, "caballo": 5,
    "12": 6, "rey": 6, "1": 7, "as": 7,
}
_VALUE_WORDS: Final = {"capot": "capot", "générale": "generale", "generale": "generale"}
_PASS: Final = ("passe", "pass", "p", "je passe")
_TAKE: Final = ("prend", "prends", "je prends", "take")
_PREFIXES: Final = ("je prends à ", "je prends a ", "prends à ", "prends a ", "prend à ",
                    "prend a ", "à ")


class Words:
    """How one game's table writes and reads cards and calls."""

    def __init__(self, spanish: bool) -> None:
        self.spanish = spanish
        self._suits = _SPANISH_SUITS if spanish else _FRENCH_SUITS

    # --- writing ----------------------------------------------------------------------

    def card(self, c: Card, markup: bool = True) -> str:
        """``10♥`` (``rey de copas`` with the Spanish pack); red for hearts and diamonds
        when ``markup`` (rich markup, plain off a terminal)."""
        text = spanish_name(c) if self.spanish else card_symbol(c)
        if markup and suit_of(c) in RED_SUITS:
            return f"[red]{text}[/red]"
        return text

    def suit(self, s: int, markup: bool = True) -> str:
        text = SPANISH_SUIT_NAMES[s] if self.spanish else SUIT_SYMBOLS[s]
        return f"[red]{text}[/red]" if markup and s in RED_SUITS else text

    def trump(self, mode: TrumpMode, markup: bool = True) -> str:
        if mode == NO_TRUMP:
            return "sans-atout"
        if mode == ALL_TRUMP:
            return "tout-atout"
        return self.suit(mode, markup)

    def call(self, call: str, markup: bool = True) -> str:
        """An engine call as shown: ``pass`` → ``passe``, ``H`` → ``prend à ♥``,
        ``110S`` → ``♠ 110``, ``capotH`` → ``♥ capot``; ``E:coinche`` → ``coinche``."""
        call = call.partition(":")[2] if ":" in call else call
        if call == "pass":
            return "passe"
        if call == "take":
            return "prend"
        if call in ("coinche", "surcoinche"):
            return call
        mode = self._engine_denomination(call)
        if mode is not None:
            return f"prend à {self.trump(mode, markup)}"
        m = re.fullmatch(r"(\d+|capot|generale)(SA|TA|[SHDC])", call)
        if m:
            mode = self._engine_denomination(m.group(2))
            assert mode is not None
            value = "générale" if m.group(1) == "generale" else m.group(1)
            return f"{self.trump(mode, markup)} {value}"
        return call

    @staticmethod
    def _engine_denomination(text: str) -> TrumpMode | None:
        if text in ("SA", "TA"):
            return NO_TRUMP if text == "SA" else ALL_TRUMP
        if len(text) == 1 and text in SUIT_LETTERS:
            return SUIT_LETTERS.index(text)
        return None

    def rank(self, rank: int) -> str:
        if self.spanish:
            return SPANISH_RANK_NAMES[rank]
        return "10" if rank == TEN else RANK_LETTERS[rank]

    def declaration(self, d: Declaration) -> str:
        """``tierce``, ``cinquante``, ``cent``, ``carré of J`` (``carré of sota``)."""
        if d.kind == CARRE:
            return f"carré of {self.rank(d.rank)}"
        return d.name

    def examples(self) -> str:
        """Card forms for a prompt's error."""
        if self.spanish:
            return "12c, rey de copas, sota de oros, 1o"
        return "10♥, 10h, JH, J♠"

    def call_examples(self) -> str:
        if self.spanish:
            return "passe, prend, prend à copas (or just copas / c)"
        return "passe, prend, prend à ♠ (or ♠ / pique)"

    # --- reading ----------------------------------------------------------------------

    def parse_card(self, text: str) -> Card:
        """A typed card: the shown name or a short form; InvalidCardError otherwise."""
        t = text.strip().lower()
        if self.spanish:
            words = [w for w in re.findall(r"\d+|[^\d\s]+", t) if w != "de"]
            if len(words) == 2 and words[0] in _SPANISH_RANKS and words[1] in _SPANISH_SUITS:
                return _SPANISH_SUITS[words[1]] * 8 + _SPANISH_RANKS[words[0]]
        else:
            try:
                return parse_card(t.replace(" ", ""))
            except InvalidCardError:
                pass
        raise InvalidCardError(
            f"not a card: {text!r} (a number from the hand shown, or a card such as "
            f"{self.examples()})"
        )

    def parse_call(self, text: str) -> str | None:
        """A typed call in the engine's form (``pass``, ``take``, ``S``, ``SA``, ``110S``,
        ``capotH``, ``coinche``, ``surcoinche``); None when it is no call at all."""
        t = " ".join(text.strip().lower().split())
        if t in _PASS:
            return "pass"
        if t in _TAKE:
            return "take"
        if t in ("coinche", "contre"):
            return "coinche"
        if t in ("surcoinche", "surcontre"):
            return "surcoinche"
        for prefix in _PREFIXES:
            if t.startswith(prefix):
                t = t[len(prefix):]
                break
        for long, short in (("sans-atout", "sa"), ("sans atout", "sa"),
                            ("tout-atout", "ta"), ("tout atout", "ta")):
            t = t.replace(long, f" {short} ")
        for word in _VALUE_WORDS:
            t = t.replace(word, f" {word} ")
        tokens = re.findall(r"\d+|[^\d\s]+", t)
        denominations = [tok for tok in tokens if tok in self._suits or tok in _MODES]
        values = [tok for tok in tokens if tok.isdigit() or tok in _VALUE_WORDS]
        if len(denominations) != 1 or len(values) > 1 or len(tokens) != 1 + len(values):
            return None
        d = denominations[0]
        letter = d.upper() if d in _MODES else SUIT_LETTERS[self._suits[d]]
        if not values:
            return letter
        value = values[0]
        if not value.isdigit():
            value = _VALUE_WORDS[value]
        elif len(value) > 4:
            return None
        return f"{value}{letter}"

    # --- the engine's messages ----------------------------------------------------------

    def message(self, text: str, who: Callable[[int], str]) -> str:
        """An engine refusal in the screen's words: cards and calls as shown, seats by
        ``who`` (``You do not hold rey de copas``)."""
        suit_list = r"(?:SA|TA|[SHDC])(?:, (?:SA|TA|[SHDC]))*"
        text = re.sub(
            rf"name one of ({suit_list}) or pass",
            lambda m: "name one of " + ", ".join(
                self.call(x, markup=False).removeprefix("prend à ")
                for x in m.group(1).split(", ")) + " or passe",
            text,
        )
        text = text.replace(
            "(pass, a bid such as 80H or capotS, coinche, surcoinche)",
            f"(passe, a bid such as {self.call('80H', False)} or {self.call('capotS', False)}"
            ", coinche, surcoinche)",
        )

        def quoted(m: re.Match[str]) -> str:
            inner = m.group(1)
            shown = self.call(inner, markup=False)
            if shown == inner:
                with contextlib.suppress(InvalidCardError):
                    shown = self.card(parse_card(inner), markup=False)
            return f"'{shown}'"

        text = re.sub(r"'([^'\n]{1,20})'", quoted, text)
        text = re.sub(r"\b(?:10|[789TJQKA])[SHDC]\b",
                      lambda m: self.card(parse_card(m.group(0)), markup=False), text)
        text = re.sub(r"\b(?:\d{2,}|capot|generale)(?:SA|TA|[SHDC])\b",
                      lambda m: self.call(m.group(0), markup=False), text)
        text = re.sub(r"^(SA|TA) is not allowed",
                      lambda m: self.call(m.group(1), markup=False).removeprefix("prend à ")
                      + " is not allowed", text)
        seats = "NESW"

        def seat(m: re.Match[str]) -> str:
            return who(seats.index(m.group(1)))

        text = re.sub(r"\b([NESW])\b(?='s turn| may | does | must | announces |: )", seat, text)
        text = re.sub(r"\bseat ([NESW])\b", seat, text)
        for before, after in (("You does ", "You do "), ("You announces ", "You announce "),
                              ("it is You's turn", "it is your turn")):
            text = text.replace(before, after)
        text = re.sub(r"(?<=: )You\b", "you", text)
        return text


__all__ = ["RED_SUITS", "Words"]
