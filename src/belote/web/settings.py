"""The web server's settings: the rooms' pace (:class:`RoomSettings`) and what one
client may not exceed (:class:`Limits`), each with its default in one place.

A field that ``belote serve`` lets its user set carries a :class:`Flag` in its
metadata (the flag's name, help text and range); the command's options are made
from these fields (:func:`flags_of`), so a default, a range or a help text is
written here and nowhere else.  This module imports nothing but the standard
library, so that the command line can read it without loading the web app.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Flag:
    """How a settings field is shown as a ``belote serve`` option.

    The option's value is ``field value / scale`` (``--idle-hours`` sets a field
    held in seconds); ``zero_is_none`` makes 0 mean "no limit" (the field's None).
    ``low``/``high`` bound the option's value; ``what`` names its kind in the
    refusal ("--grace: -1.0 is not a number of seconds in 0..3600").  A field
    with ``bursts`` is a rate whose burst field (named there) is set with it,
    ``burst_factor`` times the rate, at least 1.
    """

    name: str
    help: str
    low: float
    high: float
    what: str = ""
    scale: float = 1.0
    zero_is_none: bool = False
    bursts: str = ""
    burst_factor: float = 0.0


def flag(default: Any, name: str, help: str, low: float, high: float, what: str = "",
         **more: Any) -> Any:
    """A dataclass field whose default is ``default``, settable by the option ``name``."""
    return dataclasses.field(default=default, metadata={
        "flag": Flag(name, help, low, high, what, **more)})


def flags_of(cls: type) -> list[tuple[dataclasses.Field[Any], Flag]]:
    """The fields of the settings dataclass ``cls`` that are ``belote serve`` options."""
    return [(f, f.metadata["flag"]) for f in dataclasses.fields(cls) if "flag" in f.metadata]


def option_default(f: dataclasses.Field[Any], how: Flag) -> Any:
    """The default of the option of field ``f``: the field's default, in the option's unit."""
    value = f.default
    if value is None and how.zero_is_none:
        return 0.0
    if isinstance(value, float) and how.scale != 1.0:
        return value / how.scale
    return value


def check_option(how: Flag, value: float) -> str | None:
    """Why ``value`` cannot be given to the option ``how`` (None: it can)."""
    if isinstance(how.low, int) and isinstance(how.high, int) and isinstance(value, int):
        if value < how.low:
            return f"{how.name}: {value} is too small (at least {how.low})"
        if value > how.high:
            return f"{how.name}: {value} is too large (at most {how.high})"
        return None
    if not how.low <= value <= how.high:  # NaN fails too
        return f"{how.name}: {value!r} is not {how.what} in {how.low}..{how.high}"
    return None


def settings_from_options(cls: type[Any], values: dict[str, Any]) -> Any:
    """An instance of ``cls`` with its flagged fields set from ``values`` (by field
    name, in the options' units); fields without a flag keep their defaults."""
    kwargs: dict[str, Any] = {}
    for f, how in flags_of(cls):
        if f.name not in values:
            continue
        value = values[f.name]
        if how.zero_is_none and value == 0:
            value = None
        elif how.scale != 1.0:
            value = value * how.scale
        kwargs[f.name] = value
        if how.bursts:
            kwargs[how.bursts] = max(1, int(values[f.name] * how.burst_factor))
    return cls(**kwargs)


_SECONDS = "a number of seconds"


@dataclass(frozen=True)
class RoomSettings:
    """Pace and limits of the rooms of one server."""

    bot_delay: float = flag(
        0.6, "--bot-delay", "Seconds a bot waits before it acts.", 0, 3600, _SECONDS)
    trick_pause: float = flag(
        0.9, "--trick-pause",
        "More seconds before a bot leads a new trick (the last stays shown).", 0, 3600,
        _SECONDS)
    deal_pause: float = flag(
        30.0, "--deal-pause",
        "Seconds a finished deal stays shown unless a player asks for the next.", 0, 3600,
        _SECONDS)
    all_pass_pause: float = 3.0  # an all-pass deal stays shown this long, then the next is dealt
    idle_ttl: float = flag(
        6 * 3600.0, "--idle-hours", "A room nobody visits for this long is closed.",
        0.01, 24 * 365, "a number of hours", scale=3600.0)
    max_rooms: int = flag(
        2000, "--max-rooms",
        "Rooms the server holds at most (near the cap, each new room closes the longest "
        "idle one).", 1, 1_000_000)
    grace: float = flag(
        20.0, "--grace", "Seconds a dropped player keeps his seat before a bot plays for him.",
        0, 3600, _SECONDS)
    turn_timer: float | None = flag(
        None, "--turn-timer",
        "Seconds a player has for each move before a bot plays it (0: no limit).", 0, 3600,
        _SECONDS, zero_is_none=True)
    # "My games" has the deals of its statistics analysed by a background thread
    # (web/analysis_fill.py); off, only the analyses kept already are counted
    background_analyses: bool = True
    analysis_cache_bytes: float = flag(
        128.0 * 2**20, "--analysis-cache-mb",
        "Megabytes of deal analyses kept for the reviews (some 10 KB a deal); past it, "
        "those read least recently are dropped (the statistics keep their numbers).",
        1, 1_000_000, "a number of megabytes", scale=2.0**20)


@dataclass(frozen=True)
class Limits:
    """Sizes and rates one client cannot exceed."""

    max_body: int = 1_000_000  # bytes of one HTTP request body (a sheet import fits)
    max_json: int = 64_000  # bytes of a JSON body or WebSocket message
    max_depth: int = 20  # nesting of JSON arrays and objects
    max_digits: int = 18  # digits of a JSON number
    rooms_per_minute: float = flag(
        10.0, "--rooms-per-minute", "New tables one network (/24 or /64) may open a minute.",
        0.1, 100_000, "a rate", bursts="rooms_burst", burst_factor=2)
    rooms_burst: int = 20  # ... and at once
    rooms_per_client: int = flag(
        30, "--rooms-per-client", "Open tables one address may hold.", 1, 100_000)
    messages_per_second: float = flag(
        10.0, "--messages-per-second",
        "WebSocket messages a connection may send a second (bursts of 4x).", 0.1, 100_000,
        "a rate", bursts="messages_burst", burst_factor=4)
    messages_burst: int = 40  # ... and at once
    network_messages_per_second: float = flag(
        100.0, "--network-messages-per-second",
        "WebSocket messages all the connections of one network (/24 or /64) may send a "
        "second (bursts of 4x).", 0.1, 1_000_000, "a rate",
        bursts="network_messages_burst", burst_factor=4)
    network_messages_burst: int = 400  # ... and at once
    sockets_per_network: int = flag(
        64, "--sockets-per-network",
        "WebSocket connections one network (/24 or /64) may hold open.", 1, 1_000_000)
    hello_seconds: float = 10.0  # a WebSocket silent this long after opening is closed
