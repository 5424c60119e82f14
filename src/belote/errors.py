"""Exceptions of the belote engine.

Every error is a :class:`ValueError` subclass whose message says what is wrong
and where (field, trick, seat, card), so that the command line can print it as
it is.
"""

from __future__ import annotations

from collections.abc import Callable


class BeloteError(ValueError):
    """Base class of every error the engine raises on bad input or a refused action."""


class InvalidCardError(BeloteError):
    """A card, suit or trump that cannot be parsed."""


class OptionError(BeloteError):
    """An unknown profile or option, or an option value of the wrong kind."""


class IllegalActionError(BeloteError):
    """An action that is well formed but not allowed now by the rules."""


class IllegalBidError(IllegalActionError):
    """A call (take, pass, suit, bid, coinche...) that the bidding rules refuse."""


class IllegalPlayError(IllegalActionError):
    """A card that the seat does not hold or may not play (docs/rules.md §6)."""


class IllegalDeclarationError(IllegalActionError):
    """A declaration that is not held, not a combination, or announced out of time."""


class InvalidRecordError(BeloteError):
    """A malformed record or score entry (missing field, wrong type, impossible values)."""


def allowed(verify: Callable[[], object]) -> bool:
    """Whether ``verify`` passes: the *can* of the verify / can / act triads, which
    answer what *verify* would raise (an :class:`IllegalActionError`) as a bool."""
    try:
        verify()
    except IllegalActionError:
        return False
    return True
