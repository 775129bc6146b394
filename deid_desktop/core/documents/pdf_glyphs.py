"""Where and how a PDF character is drawn: the quadrilateral it covers on the page, the angle
of its baseline, its font size and its look (family, weight, slant, colour).

pdfplumber gives each character an upright bounding box, which is exact only for text set
along the page's axes. For a line turned by a few degrees the boxes of neighbouring letters
overlap the lines above and below, so grouping by box splits the line into fragments (a name
read as "An" + "ita" is no longer a name) and the writer cannot know the true shape of what
it must paint. The text matrix pdfminer keeps with every character gives that shape exactly.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any

AXIS_TOLERANCE = 0.5  # degrees: text closer to an axis than this is read as axis-aligned
_MISFIT = 0.05  # share of the box a reconstructed quadrilateral may miss it by (rounding)

_SUBSET_PREFIX = re.compile(r"^[A-Z]{6}\+")
_MONO = ("courier", "mono", "consol", "menlo", "lucidaconsole", "typewriter", "fixedsys", "ocr")
_SERIF = (
    "times", "serif", "georgia", "garamond", "cambria", "minion", "palatino", "bookman", "century",
    "baskerville", "caslon", "antiqua", "constantia", "charter", "didot", "bodoni", "roman",
)
_BOLD = ("bold", "black", "heavy", "semibold", "demi")
_ITALIC = ("italic", "oblique")


@dataclass(frozen=True, slots=True)
class Glyph:
    """A character's quadrilateral in the viewer's frame (points from the top-left corner of
    the visible page): the corners are the start of the line at the descent, the end of the
    advance, then the same two a font size further "up" the letter."""

    corners: tuple[tuple[float, float], tuple[float, float], tuple[float, float], tuple[float, float]]
    angle: float  # of the baseline, degrees counter-clockwise as the page is viewed, [0, 360)
    size: float  # font size on the page, points
    length: float  # advance along the baseline, points

    @property
    def skewed(self) -> bool:
        """Neither horizontal nor vertical: such lines are grouped along their own direction."""
        off = self.angle % 90.0
        return min(off, 90.0 - off) > AXIS_TOLERANCE

    def flat(self) -> list[float]:
        return [round(v, 2) for point in self.corners for v in point]


def glyph(ch: dict[str, Any], box: list[float]) -> Glyph | None:
    """The quadrilateral of a pdfplumber character whose upright box in the viewer's frame is
    ``box``; None where the matrix does not explain the box (vertical CJK fonts, degenerate
    matrices), so callers keep the box."""
    try:
        a, b, c, d, _e, _f = (float(v) for v in ch["matrix"])
        adv = float(ch.get("adv") or 0.0)
    except (KeyError, TypeError, ValueError):
        return None
    x0, top, x1, bottom = box
    width, height = x1 - x0, bottom - top
    # The box is the matrix applied to (0, descent)-(adv, descent + fontsize): its extents are
    # |a|·adv + |c|·fs across and |b|·adv + |d|·fs up, so either gives the font size fs.
    if abs(d) >= abs(c) and abs(d) > 1e-9:
        fs = (height - abs(b) * adv) / abs(d)
    elif abs(c) > 1e-9:
        fs = (width - abs(a) * adv) / abs(c)
    else:
        return None
    if not (fs > 0 and math.isfinite(fs)):
        return None
    tolerance = _MISFIT * max(width, height) + 0.1
    if abs(abs(a) * adv + abs(c) * fs - width) > tolerance or abs(abs(b) * adv + abs(d) * fs - height) > tolerance:
        return None
    text_space = ((0.0, 0.0), (adv, 0.0), (adv, fs), (0.0, fs))
    device = [(a * x + c * y, b * x + d * y) for x, y in text_space]
    min_x = min(p[0] for p in device)
    max_y = max(p[1] for p in device)
    corners = tuple((x0 + px - min_x, top + max_y - py) for px, py in device)
    angle = math.degrees(math.atan2(b, a)) % 360.0
    return Glyph(corners, angle, fs * math.hypot(c, d), adv * math.hypot(a, b))  # type: ignore[arg-type]


def style(ch: dict[str, Any], size: float) -> dict[str, Any]:
    """What the writer needs to draw a replacement that looks like its neighbours: font size,
    a family it can match (serif, sans, mono), weight, slant and fill colour."""
    name = _SUBSET_PREFIX.sub("", str(ch.get("fontname") or "")).lower().replace(" ", "")
    family = "sans"
    if any(k in name for k in _MONO):
        family = "mono"
    elif "sans" not in name and any(k in name for k in _SERIF):
        family = "serif"
    return {
        "size": round(size, 2),
        "family": family,
        "bold": any(k in name for k in _BOLD),
        "italic": any(k in name for k in _ITALIC),
        "color": fill_rgb(ch.get("non_stroking_color")),
    }


def fill_rgb(color: Any) -> list[float]:
    """A pdfplumber colour (grey, RGB or CMYK components) as RGB in [0, 1]; black for colours
    given by pattern or name, which have no one value."""
    try:
        comps = [float(v) for v in (color if isinstance(color, (list, tuple)) else (color,))]
    except (TypeError, ValueError):
        return [0.0, 0.0, 0.0]
    comps = [min(1.0, max(0.0, v)) for v in comps]
    if len(comps) == 1:
        rgb = comps * 3
    elif len(comps) == 3:
        rgb = comps
    elif len(comps) == 4:
        c, m, y, k = comps
        rgb = [(1 - c) * (1 - k), (1 - m) * (1 - k), (1 - y) * (1 - k)]
    else:
        return [0.0, 0.0, 0.0]
    return [round(v, 3) for v in rgb]
