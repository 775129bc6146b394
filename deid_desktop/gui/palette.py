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

# A second cue for undecided findings, whose pale fills merge under deuteranopia (the most
# common colour-vision deficiency): Name, Organisation and ID look alike, as do Location and
# Age, and Date and Contact. Each category's underline has its own line style among those that
# look alike; the legend shows the same lines. Styles: single, dash, dot, dashdot,
# dashdotdot, wave (document_view.py draws them).
UNDERLINE_STYLES: dict[Category, str] = {
    Category.NAME: "single",
    Category.ORGANIZATION: "dash",
    Category.ID: "dot",
    Category.AGE: "wave",
    Category.LOCATION: "dashdot",
    Category.DATE: "dashdotdot",
    Category.CONTACT: "single",
    Category.PROFESSION: "dash",
}

REJECTED_TEXT = "#8A8A8A"
# Words OCR read with low confidence: a dotted line above the word in the text and a dotted
# frame around it on the page. Above, not under: the underline belongs to the category cue,
# and a neutral dark grey is none of the category colours.
LOW_CONFIDENCE_MARK = "#4D4D4D"
LOW_CONFIDENCE_TIP = "read by OCR with low confidence — check the page image"
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


def underline_colour(category: Category) -> str:
    """The category's colour darkened until it stands out 3:1 against white (WCAG's figure
    for graphics): a dotted underline in pale yellow or sky blue would be a cue nobody sees."""
    r, g, b = (int(CATEGORY_COLOURS[category][i : i + 2], 16) for i in (1, 3, 5))
    hex_colour = CATEGORY_COLOURS[category]
    while 1.05 / (_luminance(hex_colour) + 0.05) < 3.0:
        r, g, b = (int(c * 0.9) for c in (r, g, b))
        hex_colour = f"#{r:02X}{g:02X}{b:02X}"
    return hex_colour


def text_colour_on(fill: str) -> str:
    """Black or white, whichever reads better on ``fill`` (WCAG contrast)."""
    lum = _luminance(fill)
    return "#000000" if (lum + 0.05) / 0.05 >= 1.05 / (lum + 0.05) else "#FFFFFF"
