"""What a tournament plays and the checks of it: the bots, the mode (deals or games), the
boards, the seed and the rules (every deal shuffled, docs/rules.md §2.2); the error a
tournament raises; the optional packages it may need.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Final

from belote.deal import new_deck
from belote.errors import BeloteError, OptionError
from belote.options import Rules, make_rules
from belote.round import Round
from belote.table import Table

__all__ = ["EXTRAS", "MODES", "TournamentConfig", "TournamentError", "board_range",
           "import_optional"]

MODES: Final = ("deals", "games")
# The pyproject extra that installs each optional package.
EXTRAS: Final[Mapping[str, str]] = MappingProxyType({"matplotlib": "plot", "ray": "cluster"})


class TournamentError(BeloteError):
    """A tournament that cannot run: bad settings, a missing optional package, a cluster
    that cannot be reached, a file that cannot be written, a bot that failed.

    ``traceback_text``: where a bot raised, the full traceback of its exception,
    formatted where it was raised (a worker process, a Ray task) so that it travels
    back with the error; None otherwise.
    """

    def __init__(self, message: str, traceback_text: str | None = None) -> None:
        super().__init__(message)
        self.traceback_text = traceback_text


def import_optional(module: str, why: str) -> Any:
    """``module`` imported, or a :class:`TournamentError` naming what to install."""
    package = module.split(".")[0]
    try:
        return importlib.import_module(module)
    except ImportError:
        raise TournamentError(
            f"{why} needs the {package!r} package: pip install 'belote[{EXTRAS[package]}]'"
        ) from None


def board_range(text: str) -> range:
    """``START:STOP`` (the development scripts' ``--boards``) as the boards it names: a
    board's deck and seats come from the seed and its index alone, so a range of boards
    is a slice of the same tournament.

    >>> board_range("200:500")
    range(200, 500)
    >>> board_range("5")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    belote.tournament.config.TournamentError: '5' is not START:STOP with 0 <= START < ...
    """
    start, colon, stop = text.partition(":")
    try:
        boards = range(int(start), int(stop))
    except ValueError:
        boards = range(0)
        colon = ""
    if not colon or not boards or boards.start < 0:
        raise TournamentError(
            f"{text!r} is not START:STOP with 0 <= START < STOP (e.g. 0:200)")
    return boards


@dataclass(frozen=True)
class TournamentConfig:
    """What to play: the bots (specs for :func:`belote.bots.make_bot`), the mode,
    the number of duplicate boards per pairing, the seed and the rules."""

    bots: tuple[str, ...]
    mode: str = "deals"
    boards: int = 100
    seed: int = 0
    profile: str = "classic"
    options: Mapping[str, Any] = field(default_factory=dict)

    def rules(self) -> Rules:
        """The rules, every deal shuffled (see the module docstring)."""
        if self.options.get("shuffle_each_deal") is False:
            raise OptionError(
                "option 'shuffle_each_deal': a tournament shuffles every deal, so that both "
                "tables of a duplicate board see the same decks (false would make every deck "
                "after the first depend on the play)"
            )
        return make_rules(self.profile, {**self.options, "shuffle_each_deal": True})

    def check(self) -> Rules:
        """Refuse bad settings (:class:`TournamentError`); the rules when all is well."""
        if self.mode not in MODES:
            raise TournamentError(f"mode: {self.mode!r} is not one of {', '.join(MODES)}")
        if len(self.bots) < 2:
            raise TournamentError(f"bots: {list(self.bots)!r}: at least two bots are needed")
        for spec in self.bots:
            if not isinstance(spec, str) or not spec.strip():
                raise TournamentError(f"bots: {spec!r} is not a bot name")
        seen: set[str] = set()
        for spec in self.bots:
            if spec in seen:
                raise TournamentError(f"bots: {spec!r} is named twice")
            seen.add(spec)
        if isinstance(self.boards, bool) or not isinstance(self.boards, int) or self.boards < 1:
            raise TournamentError(f"boards: {self.boards!r} is not a positive whole number")
        if isinstance(self.seed, bool) or not isinstance(self.seed, int):
            raise TournamentError(f"seed: {self.seed!r} is not a whole number")
        rules = self.rules()
        # a profile the live engine cannot deal fails here
        Round(rules, 0, new_deck(rules.players, rules.three_deal))
        return rules

    @property
    def table(self) -> Table:
        """The profile's table: four players in two teams, or three and two (§12)."""
        return Table.of(make_rules(self.profile, self.options))

    @property
    def pairings(self) -> list[tuple[int, int]]:
        """Every pair of bots (a round robin), in order: (0, 1), (0, 2), ..., (1, 2), ..."""
        n = len(self.bots)
        return [(i, j) for i in range(n) for j in range(i + 1, n)]

    @property
    def anchor(self) -> int:
        """The bot rated 0: ``random`` when it plays, else the first bot."""
        return self.bots.index("random") if "random" in self.bots else 0

    def to_json(self) -> dict[str, Any]:
        return {
            "bots": list(self.bots), "mode": self.mode, "boards": self.boards,
            "seed": self.seed, "profile": self.profile, "options": dict(self.options),
        }
