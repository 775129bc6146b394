"""Colours of the PHI categories: the Okabe-Ito palette, distinguishable with the common
colour-vision deficiencies, so a category never depends on telling red from green."""

from __future__ import annotations

from ..core.categories import CATEGORY_KEYS, Category, display_name

# Okabe & Ito (2008), "Color Universal Design". The eighth colour is black; PROFESSION is the
# rarest category, and black fill with white text is still unmistakable.
CATEGORY_COLOURS: dict[Category, str] = {
    Category.NAME: "#D55E00",  # vermillion
    Category.DATE: "#56B4E9",  # sky blue
    Category.AGE: "#CC79A7",  # reddish purple
    Category.LOCATION: "#009E73",  # bluish green
    Category.ORGANIZATION: "#E69F00",  # orange
    Category.CONTACT: "#0072B2",  # blue
    Category.ID: "#F0E442",  # yellow
    Category.PROFESSION: "#000000",  # black
}

REJECTED_TEXT = "#8A8A8A"
CURRENT_OUTLINE = "#1A1A1A"

# How strongly an undecided finding is tinted (0-255): light enough that the solid fill of an
# accepted finding is clearly "more decided".
UNDECIDED_ALPHA = 70

CATEGORY_LABELS: dict[Category, str] = {c: display_name(c) for c in Category}

KEY_FOR_CATEGORY: dict[Category, str] = {c: k for k, c in CATEGORY_KEYS.items()}


def _luminance(hex_colour: str) -> float:
    r, g, b = (int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5))

    def lin(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b)


def text_colour_on(fill: str) -> str:
    """Black or white, whichever reads better on ``fill`` (WCAG contrast)."""
    lum = _luminance(fill)
    return "#000000" if (lum + 0.05) / 0.05 >= 1.05 / (lum + 0.05) else "#FFFFFF"
