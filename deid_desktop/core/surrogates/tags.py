"""The two non-realistic modes: a category tag, or a black bar of the same length."""

from __future__ import annotations

from ..categories import Category

# Liu et al. write "<**PERSON**>"; their other labels follow the same idea.
STAR_LABELS: dict[Category, str] = {
    Category.NAME: "PERSON",
    Category.DATE: "DATE",
    Category.AGE: "AGE",
    Category.LOCATION: "LOCATION",
    Category.ORGANIZATION: "ORGANIZATION",
    Category.CONTACT: "CONTACT",
    Category.ID: "IDN",
    Category.PROFESSION: "PROFESSION",
}


def tag(category: Category, style: str = "brackets") -> str:
    if style == "stars":
        return f"<**{STAR_LABELS[category]}**>"
    return f"[{category.value}]"


def blackout(original: str, char: str = "█") -> str:
    """Same length as the original; spaces and line breaks stay so the layout holds."""
    return "".join(c if c.isspace() else char for c in original)
