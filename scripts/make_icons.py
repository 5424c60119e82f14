"""Draw the web app's icons: static/icon.svg and the same picture as icon-192.png and
icon-512.png (Pillow).  A green tile, a gold card behind a white one, a red heart.

Run from the repository root: ``.venv/bin/python scripts/make_icons.py``.
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw

STATIC = Path(__file__).resolve().parent.parent / "src" / "belote" / "web" / "static"
GREEN, GOLD, WHITE, RED, EDGE = "#14532d", "#e8b931", "#ffffff", "#c92a2a", "#0b3b1f"
# On a 512 grid: (x0, y0, x1, y1, radius) of the tile and the two cards; the heart's
# two circles (cx, cy, r) and its point (a triangle).
TILE = (0, 0, 512, 512, 96)
BACK = (196, 118, 386, 378, 22)
FRONT = (126, 150, 316, 410, 22)
CIRCLES = ((190, 252, 34), (252, 252, 34))
POINT = ((158, 266), (284, 266), (221, 340))


def svg() -> str:
    def rect(box: tuple[int, int, int, int, int], fill: str, stroke: str = "") -> str:
        x0, y0, x1, y1, r = box
        line = f' stroke="{stroke}" stroke-width="6"' if stroke else ""
        return (f'<rect x="{x0}" y="{y0}" width="{x1 - x0}" height="{y1 - y0}" rx="{r}" '
                f'fill="{fill}"{line}/>')

    circles = "".join(f'<circle cx="{x}" cy="{y}" r="{r}" fill="{RED}"/>' for x, y, r in CIRCLES)
    points = " ".join(f"{x},{y}" for x, y in POINT)
    return ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512">'
            f'{rect(TILE, GREEN)}{rect(BACK, GOLD, EDGE)}{rect(FRONT, WHITE, EDGE)}'
            f'{circles}<polygon points="{points}" fill="{RED}"/></svg>\n')


def png(size: int) -> Image.Image:
    k = 4 * size / 512  # drawn four times larger, then reduced (smooth edges)
    big = Image.new("RGBA", (4 * size, 4 * size), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)

    def rect(box: tuple[int, int, int, int, int], fill: str, stroke: str = "") -> None:
        x0, y0, x1, y1, r = box
        d.rounded_rectangle((x0 * k, y0 * k, x1 * k, y1 * k), radius=r * k, fill=fill,
                            outline=stroke or None, width=round(6 * k) if stroke else 0)

    rect((*TILE[:4], 0), GREEN)  # square: a maskable icon fills its tile, the OS rounds it
    rect(BACK, GOLD, EDGE)
    rect(FRONT, WHITE, EDGE)
    for x, y, r in CIRCLES:
        d.ellipse(((x - r) * k, (y - r) * k, (x + r) * k, (y + r) * k), fill=RED)
    d.polygon([(x * k, y * k) for x, y in POINT], fill=RED)
    return big.resize((size, size), Image.LANCZOS)


def main() -> None:
    (STATIC / "icon.svg").write_text(svg(), encoding="utf-8")
    for size in (192, 512):
        png(size).save(STATIC / f"icon-{size}.png", optimize=True)


if __name__ == "__main__":
    main()
