"""Fresh realistic values for the synthetic training corpus, from the same generators the
surrogate engine uses (Chambon et al. use one generator for both jobs), so the model learns
on values that look like the surrogates it will later see, and the other way round.

Importing this module registers every generator.
"""

from __future__ import annotations

import random

from ..categories import Category, normalise_fine, parse_category
from . import ages, contact, dates, names, numbers, organisations, places, professions  # noqa: F401
from .base import sampler_for
from .name_pools import NAME_ORIGINS
from .names import normalise_gender, sample_name
from .numbers import sample_identifier
from .options import LOCALES

__all__ = ["NAME_ORIGINS", "sample_name", "sample_value"]


def sample_value(
    category: Category | str,
    fine: str,
    rng: random.Random,
    *,
    locale: str | None = None,
    gender: str | None = None,
) -> str:
    """A realistic value of this category and fine type, drawn with ``rng``.

    ``locale`` (US, UK, AU, NZ or None for any) shapes dates, phone numbers, postcodes,
    identifiers and the mix of name origins; ``gender`` ("F", "M" or None) applies to names.
    """
    category = category if isinstance(category, Category) else parse_category(str(category))
    fine = normalise_fine(category, fine)
    locale = _locale(locale)
    gender = normalise_gender(gender)
    if category is Category.ID:
        return sample_identifier(fine, rng, locale)
    return sampler_for(category, fine).sample(rng, locale, gender)


def _locale(locale: str | None) -> str | None:
    if locale is None:
        return None
    loc = locale.upper()
    loc = "UK" if loc == "GB" else loc
    if loc not in LOCALES:
        raise ValueError(f"unknown locale {locale!r}; expected one of {', '.join(LOCALES)} or None")
    return loc
