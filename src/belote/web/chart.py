"""The running totals of a score sheet as an inline SVG chart, drawn by the server.

>>> svg = running_chart([{"NS": 92, "EW": 70}, {"NS": 92, "EW": 252}], 1000, ("Us", "Them"))
>>> svg.startswith("<svg") and "Us" in svg and svg.count("<polyline") == 2
True
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Final

from markupsafe import escape

from belote.web.i18n import N_

WIDTH: Final = 640
HEIGHT: Final = 260
LEFT: Final = 48
RIGHT: Final = 16
TOP: Final = 30
BOTTOM: Final = 34
COLOURS: Final = {"NS": "#1f6feb", "EW": "#d9480f"}


def _nice_step(span: float) -> int:
    """A round step giving about five grid lines over ``span``."""
    raw = max(span / 5, 1)
    magnitude = 10 ** (len(str(int(raw))) - 1)
    for factor in (1, 2, 2.5, 5, 10):
        step = factor * magnitude
        if step >= raw:
            return int(step)
    return int(10 * magnitude)  # pragma: no cover


def _same(text: str) -> str:
    return text


def _grid(top: float, step: float, y: Callable[[float], float], right: int) -> list[str]:
    """The horizontal lines from 0 to ``top``, every ``step``, each with its value at
    the left (a float written short, ``:g``); ``right``: the chart's right edge."""
    lines = []
    v: float = 0 if isinstance(step, int) else 0.0
    while v <= top:
        shown = f"{v:g}" if isinstance(v, float) else f"{v}"
        lines.append(
            f'<line x1="{LEFT}" x2="{right}" y1="{y(v):.1f}" y2="{y(v):.1f}" '
            f'class="chart-grid"/>'
            f'<text x="{LEFT - 6}" y="{y(v) + 4:.1f}" class="chart-label" '
            f'text-anchor="end">{shown}</text>')
        v += step
    return lines


def running_chart(
    running: Sequence[Mapping[str, int]], target: int, team_names: Sequence[str],
    gettext: Callable[[str], str] = _same,
) -> str:
    """Both teams' totals after each hand (from 0), with the target as a dashed line;
    its words through ``gettext`` (the page's language)."""
    # the words, outside the f-strings (where the catalogue's extractor does not look)
    label = escape(gettext(N_("Running totals after each hand")))
    hand_word = escape(gettext(N_("hand")))
    target_word = escape(gettext(N_("target %(n)s")) % {"n": target})
    after_hand = gettext(N_("%(points)s after hand %(n)s"))
    points = [{"NS": 0, "EW": 0}, *running]
    n = len(points) - 1
    highest = max([target, *(p[t] for p in points for t in ("NS", "EW"))])
    top = max(highest, 1) * 1.06
    step = _nice_step(top)
    inner_w = WIDTH - LEFT - RIGHT
    inner_h = HEIGHT - TOP - BOTTOM

    def x(i: int) -> float:
        return LEFT + (inner_w * i / n if n else 0)

    def y(v: float) -> float:
        return TOP + inner_h * (1 - v / top)

    parts = [
        f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-label="{label}" '
        f'xmlns="http://www.w3.org/2000/svg">',
        f'<rect x="{LEFT}" y="{TOP}" width="{inner_w}" height="{inner_h}" class="chart-bg"/>',
    ]
    parts += _grid(top, step, y, WIDTH - RIGHT)
    label_every = max(1, (n + 11) // 12)
    for i in range(0, n + 1, label_every):
        parts.append(
            f'<text x="{x(i):.1f}" y="{HEIGHT - BOTTOM + 16}" class="chart-label" '
            f'text-anchor="middle">{i}</text>'
        )
    parts.append(
        f'<text x="{LEFT + inner_w / 2:.1f}" y="{HEIGHT - 4}" class="chart-label" '
        f'text-anchor="middle">{hand_word}</text>'
    )
    parts.append(
        f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y(target):.1f}" y2="{y(target):.1f}" '
        f'class="chart-target"/>'
        f'<text x="{WIDTH - RIGHT - 4}" y="{y(target) - 5:.1f}" class="chart-label" '
        f'text-anchor="end">{target_word}</text>'
    )
    for k, team in enumerate(("NS", "EW")):
        colour = COLOURS[team]
        coords = " ".join(f"{x(i):.1f},{y(p[team]):.1f}" for i, p in enumerate(points))
        parts.append(
            f'<polyline points="{coords}" fill="none" stroke="{colour}" stroke-width="2.5" '
            f'stroke-linejoin="round" class="chart-line chart-{team}"/>'
        )
        for i, p in enumerate(points[1:], start=1):
            parts.append(
                f'<circle cx="{x(i):.1f}" cy="{y(p[team]):.1f}" r="3.5" fill="{colour}">'
                f"<title>{escape(team_names[k])}: "
                f"{escape(after_hand % {'points': p[team], 'n': i})}"
                "</title></circle>"
            )
        lx = LEFT + k * 170
        parts.append(
            f'<rect x="{lx}" y="9" width="14" height="4" fill="{colour}"/>'
            f'<text x="{lx + 20}" y="15" class="chart-legend">'
            f"{escape(team_names[k][:24])}</text>"
        )
    parts.append("</svg>")
    return "".join(parts)


WEEK_WIDTH: Final = 420  # narrower than the score sheet's: its words stay readable on a phone
WEEK_HEIGHT: Final = 180
WEEK_COLOUR: Final = "#1f6feb"


def week_chart(
    weeks: Sequence[str], values: Sequence[float | None], title: str,
    gettext: Callable[[str], str] = _same,
) -> str:
    """One value a week as bars (a week without one, ``None``, shows none), each bar
    with its week and value as a tooltip; ``title`` (already in the page's language)
    names the chart, the other words through ``gettext``.

    >>> svg = week_chart(["2026-W48", "2026-W49"], [81.5, None], "Points per deal")
    >>> svg.count("<rect") - 1, "2026-W49: –" in svg, "W49" in svg
    (1, True, True)
    """
    no_value = gettext(N_("no deal analysed"))
    label = escape(title)
    n = max(len(weeks), 1)
    known = [v for v in values if v is not None]
    top = max([*known, 1.0]) * 1.1
    step: float = _nice_step(top) if top >= 5 else 1.0
    inner_w = WEEK_WIDTH - LEFT - RIGHT
    inner_h = WEEK_HEIGHT - TOP - BOTTOM
    slot = inner_w / n
    bar = min(slot * 0.7, 60)

    def y(v: float) -> float:
        return TOP + inner_h * (1 - v / top)

    parts = [
        f'<svg class="chart" viewBox="0 0 {WEEK_WIDTH} {WEEK_HEIGHT}" role="img" '
        f'aria-label="{label}" style="max-width: {WIDTH}px" '
        f'xmlns="http://www.w3.org/2000/svg">',
        f'<rect x="{LEFT}" y="{TOP}" width="{inner_w}" height="{inner_h}" class="chart-bg"/>',
        f'<text x="{LEFT}" y="18" class="chart-legend">{label}</text>',
    ]
    parts += _grid(top, float(step), y, WEEK_WIDTH - RIGHT)
    label_every = max(1, (n + 5) // 6)
    for i, (week, value) in enumerate(zip(weeks, values, strict=True)):
        middle = LEFT + slot * (i + 0.5)
        if value is not None:
            text = escape(f"{week}: {value:g}")
            parts.append(
                f'<rect x="{middle - bar / 2:.1f}" y="{y(value):.1f}" width="{bar:.1f}" '
                f'height="{max(y(0) - y(value), 0):.1f}" fill="{WEEK_COLOUR}" '
                f'class="chart-bar"><title>{text}</title></rect>')
        else:
            tip = escape(f"{week}: – ({no_value})")
            parts.append(f'<text x="{middle:.1f}" y="{y(0) - 4:.1f}" class="chart-label" '
                         f'text-anchor="middle"><title>{tip}</title>–</text>')
        if i % label_every == 0:
            parts.append(
                f'<text x="{middle:.1f}" y="{WEEK_HEIGHT - BOTTOM + 16}" class="chart-label" '
                f'text-anchor="middle">{escape(week.split("-")[-1])}</text>')
    parts.append("</svg>")
    return "".join(parts)
