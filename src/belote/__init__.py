"""belote: the rules engine, score calculator, score sheets and bots for belote,
coinche and contrée.

The core (cards, options, deal, bidding, play, declarations, scoring, hand,
round, game, replay) uses only the standard library; the command line lives in
:mod:`belote.cli`.

The names below are imported on first use (``from belote import make_rules``
works as usual), so that ``import belote`` alone costs nothing: the command
line's fast paths (``belote --version``, ``belote rotation 5 --json``) start
without loading the engine.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

if TYPE_CHECKING:  # pragma: no cover - what the lazy names are, for type checkers
    from belote.cards import CardSet, card_name, parse_card
    from belote.errors import (
        BeloteError,
        IllegalActionError,
        IllegalBidError,
        IllegalDeclarationError,
        IllegalPlayError,
        InvalidCardError,
        InvalidRecordError,
        OptionError,
    )
    from belote.options import PROFILES, Rules, make_rules

_LAZY = {
    "CardSet": "belote.cards", "card_name": "belote.cards", "parse_card": "belote.cards",
    "BeloteError": "belote.errors", "IllegalActionError": "belote.errors",
    "IllegalBidError": "belote.errors", "IllegalDeclarationError": "belote.errors",
    "IllegalPlayError": "belote.errors", "InvalidCardError": "belote.errors",
    "InvalidRecordError": "belote.errors", "OptionError": "belote.errors",
    "PROFILES": "belote.options", "Rules": "belote.options", "make_rules": "belote.options",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'belote' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_LAZY])


__all__ = [
    "PROFILES",
    "BeloteError",
    "CardSet",
    "IllegalActionError",
    "IllegalBidError",
    "IllegalDeclarationError",
    "IllegalPlayError",
    "InvalidCardError",
    "InvalidRecordError",
    "OptionError",
    "Rules",
    "__version__",
    "card_name",
    "make_rules",
    "parse_card",
]
