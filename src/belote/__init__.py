"""belote: the rules engine, score calculator, score sheets and bots for belote,
coinche and contrée.

The core (cards, options, deal, bidding, play, declarations, scoring, hand,
round, game, replay) uses only the standard library; the command line lives in
:mod:`belote.cli`.
"""

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

__version__ = "0.1.0"

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
