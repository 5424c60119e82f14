"""One safe way to read JSON that comes from outside (stdin, a file, a request).

:func:`loads` refuses, with a message that says where, what :func:`json.loads`
would choke on or let through:

* nesting deeper than ``max_depth`` (``'[' * 100000`` would end in a
  RecursionError);
* a number longer than ``max_digits`` digits (Python's own "Exceeds the limit
  (4300 digits)" names no field), a float too large to be finite, and the
  non-JSON constants ``NaN``, ``Infinity``;
* text that is not UTF-8 (:func:`decode`);
* a top-level value of the wrong kind (``expect``).

:func:`check_rules_keys` checks the two keys every rules-bearing input shares:
``"profile"`` must be a string and ``"options"`` an object when present (a
``null`` profile is not silently the default one).

Standard library only, so that the command line and the web app share it.

>>> loads('{"a": [1, 2]}')
{'a': [1, 2]}
>>> loads('[' * 5000)
Traceback (most recent call last):
...
belote.jsonsafe.JsonInputError: input: JSON nested deeper than 64 levels
>>> try:
...     loads('{"hands": [{"target": ' + '9' * 5000 + '}]}')
... except JsonInputError as exc:
...     print(exc)  # doctest: +ELLIPSIS
input: hands[0].target: a number of 5000 digits (9999...); numbers have at most 18 digits
"""

from __future__ import annotations

import json
import math
import re
from typing import Any, Final

from belote.errors import BeloteError

MAX_DEPTH: Final = 64
MAX_DIGITS: Final = 18  # fits a signed 64-bit integer (SQLite, every count of the game)

_STRING_OR_BRACKET: Final = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]', re.DOTALL)


class JsonInputError(BeloteError):
    """JSON input that cannot be read safely: bad syntax, too deep, a number too
    large, a value of the wrong kind."""


class NotJsonError(JsonInputError):
    """Input that is not JSON text at all: not UTF-8, or not valid JSON."""


class _TooLong:
    """A number whose text is too long to convert; reported with its path."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text


def decode(data: bytes, where: str = "input") -> str:
    """UTF-8 bytes as text (a leading BOM dropped), or JsonInputError."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise NotJsonError(
            f"{where}: not UTF-8 text (byte {exc.start + 1}: 0x{data[exc.start]:02x})"
        ) from None


def depth(text: str) -> int:
    """The deepest nesting of ``[`` and ``{`` in ``text``, strings skipped.

    >>> depth('{"a": [1, {"b": "[[["}]}')
    3
    """
    deepest = level = 0
    for match in _STRING_OR_BRACKET.finditer(text):
        char = match.group()
        if char in "[{":
            level += 1
            deepest = max(deepest, level)
        elif char in "]}":
            level -= 1
    return deepest


def _number(limit: int) -> tuple[Any, Any]:
    def parse_int(text: str) -> Any:
        digits = len(text) - (text[0] == "-")
        return _TooLong(text) if digits > limit else int(text)

    def parse_float(text: str) -> Any:
        if len(text) > 64:
            return _TooLong(text)
        value = float(text)
        return value if math.isfinite(value) else _TooLong(text)

    return parse_int, parse_float


def _constant(name: str) -> Any:
    raise JsonInputError(f"{name} is not a JSON value")


def _path(parts: list[str | int]) -> str:
    out = ""
    for part in parts:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else part)
    return out


def _find_too_long(value: Any) -> tuple[str, _TooLong] | None:
    """The first over-long number and its path (iteratively: no recursion)."""
    stack: list[tuple[list[str | int], Any]] = [([], value)]
    while stack:
        parts, item = stack.pop()
        if isinstance(item, _TooLong):
            return _path(parts), item
        if isinstance(item, dict):
            stack.extend(([*parts, str(k)], v) for k, v in reversed(list(item.items())))
        elif isinstance(item, list):
            stack.extend(([*parts, i], v) for i, v in reversed(list(enumerate(item))))
    return None


KIND_NAMES: Final[dict[type, str]] = {
    dict: "an object", list: "an array", str: "a string", int: "a number",
    float: "a number", bool: "true or false", type(None): "null",
}


def kind(value: Any) -> str:
    """The JSON name of a value's kind: ``an object``, ``a string``, ``null``..."""
    return KIND_NAMES.get(type(value), type(value).__name__)


def loads(
    text: str, where: str = "input", *, expect: type | None = None,
    max_depth: int = MAX_DEPTH, max_digits: int = MAX_DIGITS,
) -> Any:
    """Parse ``text`` as JSON, or raise :class:`JsonInputError` saying why and where.

    ``expect`` (``dict``, ``list``...) is the kind the top-level value must be.
    """
    if depth(text) > max_depth:
        raise JsonInputError(f"{where}: JSON nested deeper than {max_depth} levels")
    parse_int, parse_float = _number(max_digits)
    try:
        value = json.loads(text, parse_int=parse_int, parse_float=parse_float,
                           parse_constant=_constant)
    except JsonInputError as exc:
        raise NotJsonError(f"{where}: not valid JSON: {exc}") from None
    except json.JSONDecodeError as exc:
        raise NotJsonError(
            f"{where}: not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}"
        ) from None
    except (RecursionError, ValueError) as exc:  # pragma: no cover - depth() came first
        raise NotJsonError(f"{where}: not valid JSON: {exc}") from None
    found = _find_too_long(value)
    if found is not None:
        path, number = found
        shown = number.text[:20] + ("..." if len(number.text) > 20 else "")
        field = f"{path}: " if path else ""
        if "." in number.text or "e" in number.text.lower():
            raise JsonInputError(f"{where}: {field}the number {shown} is too large")
        digits = len(number.text) - number.text.startswith("-")
        raise JsonInputError(
            f"{where}: {field}a number of {digits} digits ({shown}); "
            f"numbers have at most {max_digits} digits"
        )
    if expect is not None and not isinstance(value, expect):
        names: dict[type, str] = {dict: "a JSON object", list: "a JSON array"}
        want = names.get(expect) or KIND_NAMES.get(expect) or expect.__name__
        raise JsonInputError(f"{where}: expected {want}, got {kind(value)}")
    return value


def check_rules_keys(obj: dict[str, Any], where: str = "input") -> dict[str, Any]:
    """``obj`` itself, once its ``"profile"`` (a string) and ``"options"`` (an
    object) are of the right kind where present.

    >>> check_rules_keys({"profile": None})
    Traceback (most recent call last):
    ...
    belote.jsonsafe.JsonInputError: input: profile: expected a string (a profile name), got null
    """
    if "profile" in obj and not isinstance(obj["profile"], str):
        raise JsonInputError(
            f"{where}: profile: expected a string (a profile name), got {kind(obj['profile'])}")
    if "options" in obj and not isinstance(obj["options"], dict):
        raise JsonInputError(
            f"{where}: options: expected a JSON object of option names and values, "
            f"got {kind(obj['options'])}")
    return obj
