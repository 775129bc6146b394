"""The PHI categories: one enum in one module; everything else imports it.

Coarse categories are what the models predict and what external tools see; fine types
(i2b2-2014 style) refine them for surrogate generation and reporting.
"""

from __future__ import annotations

from enum import Enum


class Category(str, Enum):
    NAME = "NAME"
    DATE = "DATE"
    AGE = "AGE"
    LOCATION = "LOCATION"
    ORGANIZATION = "ORGANIZATION"
    CONTACT = "CONTACT"
    ID = "ID"
    PROFESSION = "PROFESSION"

    def __str__(self) -> str:  # so f-strings and CSV cells read "NAME", not "Category.NAME"
        return self.value


# What a person reads: title case, British spelling like the rest of the interface. The
# enum values stay as they are — they are the data (files, models, the workspace).
_DISPLAY_NAMES: dict[Category, str] = {
    Category.NAME: "Name",
    Category.DATE: "Date",
    Category.AGE: "Age",
    Category.LOCATION: "Location",
    Category.ORGANIZATION: "Organisation",
    Category.CONTACT: "Contact",
    Category.ID: "ID",
    Category.PROFESSION: "Profession",
}


def display_name(category: Category | str) -> str:
    """The category in the user's words ("Organisation" for ORGANIZATION); accepts the enum
    or its value, as metrics and reports key categories by value."""
    return _DISPLAY_NAMES[Category(category)]


# Fine types per coarse category. "OTHER" is always allowed.
FINE_TYPES: dict[Category, tuple[str, ...]] = {
    Category.NAME: ("PATIENT", "DOCTOR", "RELATIVE", "USERNAME", "OTHER"),
    Category.DATE: ("OTHER",),
    Category.AGE: ("OTHER",),
    Category.LOCATION: ("STREET", "CITY", "STATE", "ZIP", "COUNTRY", "OTHER"),
    Category.ORGANIZATION: ("HOSPITAL", "COMPANY", "OTHER"),
    Category.CONTACT: ("PHONE", "FAX", "EMAIL", "URL", "IPADDR"),
    Category.ID: ("MRN", "SSN", "HEALTHPLAN", "ACCOUNT", "LICENSE", "VEHICLE", "DEVICE", "OTHER"),
    Category.PROFESSION: ("OTHER",),
}

# The order used to resolve conflicts when members disagree and no config overrides it
# (001: names first, then locations, ages, organisations; pattern categories after).
DEFAULT_PRIORITY: tuple[Category, ...] = (
    Category.NAME,
    Category.CONTACT,
    Category.ID,
    Category.DATE,
    Category.AGE,
    Category.LOCATION,
    Category.ORGANIZATION,
    Category.PROFESSION,
)

# Keyboard digits used by the review window to relabel / add spans (1..8).
CATEGORY_KEYS: dict[str, Category] = {str(i + 1): c for i, c in enumerate(Category)}


def parse_category(value: str) -> Category:
    """Accepts "name", "NAME", "Category.NAME"; raises ValueError with the allowed values."""
    v = value.strip().upper().removeprefix("CATEGORY.")
    try:
        return Category(v)
    except ValueError:
        allowed = ", ".join(c.value for c in Category)
        raise ValueError(f"unknown PHI category {value!r}; expected one of {allowed}") from None


def normalise_fine(category: Category, fine: str | None) -> str:
    fine = (fine or "OTHER").strip().upper()
    return fine if fine in FINE_TYPES[category] else "OTHER"
