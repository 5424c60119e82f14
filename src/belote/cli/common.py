"""What every `belote` subcommand shares: JSON input and output, and errors.

docs/json.md: input is one JSON object on stdin (or ``--file PATH``), or JSON
Lines with ``--jsonl`` (one answer line per input line, a bad line answering
``{"error": "..."}`` while the others are still answered).  Errors exit with
status 2 and one ``error: ...`` line on stderr, never a traceback; with
``--json`` stdout carries ``{"error": "..."}`` too, and ``"code"`` beside it when
the error is a refusal of the rules (``{"error": "trick 2: ...", "code":
"follow_suit"}``, :class:`~belote.errors.RuleCode`).

JSON is read by :mod:`belote.jsonsafe` (depth, number size and kinds checked
before use).  This module imports neither typer nor rich: the fast paths of
:mod:`belote.cli` use it on their own.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from typing import Any, NoReturn, TypeAlias

from belote import jsonsafe
from belote.errors import BeloteError
from belote.options import parse_option_assignment

EXIT_ERROR = 2
EXIT_INTERRUPTED = 130
MAX_INPUT = 32 * 1024 * 1024  # bytes of JSON read from stdin or a file

JsonFn = Callable[[Any], dict[str, Any]]
#: a file given by --file (pathlib stays unimported on the fast paths)
PathArg: TypeAlias = "str | os.PathLike[str]"


class CommandError(BeloteError):
    """An error of the command line itself (bad file, bad JSON, bad flag value)."""


def echo(text: str, err: bool = False, nl: bool = True) -> None:
    """Write a line to stdout (or stderr); text that the stream cannot encode
    (a lone surrogate from JSON input) is escaped rather than fatal."""
    stream = sys.stderr if err else sys.stdout
    line = text + ("\n" if nl else "")
    try:
        stream.write(line)
    except UnicodeEncodeError:
        encoding = getattr(stream, "encoding", None) or "utf-8"
        stream.write(line.encode(encoding, "backslashreplace").decode(encoding))
    stream.flush()


def dumps(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False)


def error_line(message: str, json_mode: bool = False, code: str | None = None) -> None:
    """``error: message`` on stderr, and ``{"error": message}`` on stdout in JSON mode,
    with ``"code"`` beside it for a refusal of the rules (docs/json.md, the
    :class:`~belote.errors.RuleCode` it names)."""
    message = " ".join(message.split()) or "error"
    if json_mode:
        echo(dumps({"error": message} if code is None else {"error": message, "code": code}))
    echo(f"error: {message}", err=True)


def fail(message: str, json_mode: bool = False, code: str | None = None) -> NoReturn:
    """Print ``error: message`` (and the JSON form when ``json_mode``, with the rule's
    ``code`` when given) and exit 2."""
    error_line(message, json_mode, code)
    raise SystemExit(EXIT_ERROR)


def fail_interrupted(json_mode: bool = False) -> NoReturn:
    """Ctrl-C: ``error: interrupted``, exit status 130."""
    error_line("interrupted", json_mode)
    raise SystemExit(EXIT_INTERRUPTED)


def read_text(file: PathArg | None) -> str:
    """The input: stdin, or ``file``; UTF-8 checked, at most MAX_INPUT bytes."""
    where = "input" if file is None else str(file)
    if file is None:
        buffer = getattr(sys.stdin, "buffer", None)
        if buffer is None:  # pragma: no cover - a text-only stdin
            return sys.stdin.read(MAX_INPUT)
        data = buffer.read(MAX_INPUT + 1)
    else:
        try:
            with open(file, "rb") as stream:
                data = stream.read(MAX_INPUT + 1)
        except OSError as exc:
            raise CommandError(f"cannot read {str(file)!r}: {exc.strerror or exc}") from None
    if len(data) > MAX_INPUT:
        raise CommandError(f"{where}: more than {MAX_INPUT // (1024 * 1024)} MiB of input")
    return jsonsafe.decode(data, where)


def parse_object(text: str, where: str = "input") -> dict[str, Any]:
    """A JSON object, read safely, with ``profile`` and ``options`` of the right kind."""
    obj: dict[str, Any] = jsonsafe.loads(text, where, expect=dict)
    return jsonsafe.check_rules_keys(obj, where)


def read_object(file: PathArg | None, where: str = "input") -> dict[str, Any]:
    return parse_object(read_text(file), where)


def run_json(fn: JsonFn, file: PathArg | None, jsonl: bool, json_mode: bool = True) -> None:
    """Answer ``fn(input)`` for one JSON object, or for each line with ``jsonl``.

    ``fn`` raises :class:`~belote.errors.BeloteError` (a ``ValueError``) for bad
    input; that becomes the error line.  With ``jsonl`` every line is answered
    and the exit status is 2 when any line failed.
    """
    try:
        text = read_text(file)
    except BeloteError as exc:
        fail(str(exc), json_mode)
    if not jsonl:
        try:
            result = fn(parse_object(text))
        except (BeloteError, ValueError, TypeError, KeyError, RecursionError) as exc:
            fail(_message(exc), json_mode, rule_code(exc))
        echo(dumps(result))
        return
    failed = False
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            answer = fn(parse_object(line, f"line {number}"))
        except (BeloteError, ValueError, TypeError, KeyError, RecursionError) as exc:
            failed = True
            message = _message(exc)
            if not message.startswith("line "):
                message = f"line {number}: {message}"
            error_line(message, json_mode=True, code=rule_code(exc))
            continue
        echo(dumps(answer))
    if failed:
        raise SystemExit(EXIT_ERROR)


def rule_code(exc: BaseException) -> str | None:
    """The code of the rule ``exc`` refuses (a :class:`~belote.errors.BeloteError` naming
    one), None for an error of the input's form."""
    code = exc.code if isinstance(exc, BeloteError) else None
    return None if code is None else str(code)


def _message(exc: BaseException) -> str:
    if isinstance(exc, BeloteError):
        return str(exc)
    if isinstance(exc, RecursionError):
        return "input: nested too deeply"
    return f"input: {exc.__class__.__name__}: {exc}"


def require_object(obj: Any, where: str = "input") -> dict[str, Any]:
    if not isinstance(obj, dict):
        raise CommandError(f"{where}: expected a JSON object, got {jsonsafe.kind(obj)}")
    return jsonsafe.check_rules_keys(obj, where)


def parse_options(texts: list[str] | None) -> dict[str, Any]:
    """The ``--option NAME=VALUE`` flags as the overrides of the rules, each value read
    for its option (:func:`belote.options.parse_option_assignment`); a later flag wins."""
    return dict(parse_option_assignment(text) for text in texts or [])


def check_int(name: str, value: int | None, low: int, high: int,
              json_mode: bool = False) -> None:
    """Fail unless ``value`` (a flag's) is None or within ``low..high``."""
    if value is None or low <= value <= high:
        return
    shown = str(value) if len(str(value)) <= 24 else str(value)[:20] + "..."
    if value < low:
        fail(f"{name}: {shown} is too small (at least {low})", json_mode)
    fail(f"{name}: {shown} is too large (at most {high})", json_mode)


def rules_flags(profile: str | None, option_texts: list[str] | None,
                target: int | None = None) -> Callable[[dict[str, Any]], dict[str, Any]]:
    """What ``--profile``, ``--option NAME=VALUE`` and ``--target`` do to a JSON input
    (docs/json.md, "Profiles and options"): they fill in its ``profile``, ``options``
    and ``target`` where it has none; an input that says otherwise is refused, naming
    both.  The flags themselves are checked here, before any input is read."""
    from belote.options import profile_rules

    options = parse_options(option_texts)
    if profile is not None:
        profile_rules(profile)  # an unknown profile is refused now

    def apply(obj: dict[str, Any]) -> dict[str, Any]:
        obj = dict(obj)
        if profile is not None:
            given = obj.setdefault("profile", profile)
            if given != profile:
                raise CommandError(f"profile: the input says {dumps(given)}, "
                                   f"--profile says {dumps(profile)}")
        if options:
            given_options = obj.get("options") or {}
            for name, value in options.items():
                if name in given_options and given_options[name] != value:
                    raise CommandError(
                        f"options.{name}: the input says {dumps(given_options[name])}, "
                        f"--option says {dumps(value)}")
            obj["options"] = {**options, **given_options}
        if target is not None:
            given_target = obj.setdefault("target", target)
            if given_target != target:
                raise CommandError(f"target: the input says {dumps(given_target)}, "
                                   f"--target says {target}")
        return obj

    return apply


def targets_text() -> str:
    """Each profile's customary targets (§11.1), for the help of a --target flag:
    ``classic 501, 1000, 1001; moroccan 500, 700, 1000; ...``."""
    from belote.options import TARGET_CHOICES

    seen: dict[tuple[int, ...], list[str]] = {}
    for profile, choices in TARGET_CHOICES.items():
        seen.setdefault(choices, []).append(profile)
    return "; ".join(f"{', '.join(profiles)}: {', '.join(map(str, choices))}"
                     for choices, profiles in seen.items())


def plural(count: int, word: str, words: str | None = None) -> str:
    """``1 hand``, ``2 hands`` (``words``: the plural where it is not ``word + "s"``)."""
    return f"{count} {word if count == 1 else (words or word + 's')}"


def times(count: int) -> str:
    """``once``, ``twice``, ``3 times``."""
    return {1: "once", 2: "twice"}.get(count, f"{count} times")


#: a space that :func:`fit` never breaks a line at (inside a card's or a call's name)
KEEP = "\u00a0"


def keep(text: str) -> str:
    """``text`` (a name such as ``prend à ♠``) never cut by :func:`fit`."""
    return text.replace(" ", KEEP)


def fit(text: str, width: int | None) -> str:
    """``text`` wrapped at word boundaries to ``width`` columns (each line of it; a
    space made with :func:`keep` never breaks), the last line leaving room to type;
    as it is (the kept spaces plain again) when ``width`` is None (not a terminal)."""
    if width is not None:
        import textwrap

        wrapper = textwrap.TextWrapper(width=max(width - 1, 20), break_long_words=False,
                                       break_on_hyphens=False, subsequent_indent="  ")
        text = "\n".join("\n".join(wrapper.wrap(line)) or line for line in text.split("\n"))
    return text.replace(KEEP, " ")


def terminal_width() -> int | None:
    """The width of the terminal that stdout writes to; None when it writes to none
    (a pipe, a file: then nothing is wrapped)."""
    import shutil

    if not sys.stdout.isatty():
        return None
    return shutil.get_terminal_size().columns
