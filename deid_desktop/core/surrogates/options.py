"""What a user can tune about surrogates; every field has a safe default."""

from __future__ import annotations

from dataclasses import dataclass

LOCALES = ("US", "UK", "AU", "NZ")
TAG_STYLES = ("brackets", "stars")
SHIFT_DIRECTIONS = ("past", "future", "either")


@dataclass
class SurrogateOptions:
    # Magnitude of the per-subject date shift in days; the direction is set below.
    date_shift_min_days: int = 14
    date_shift_max_days: int = 365
    date_shift_direction: str = "past"
    # HIPAA Safe Harbor: ages above the cap are aggregated into one bucket.
    age_cap: int = 89
    age_cap_text: str = "90+"
    # Ages at or below the cap may stay as they are (allowed by Safe Harbor). This is the one
    # documented case where a surrogate may equal its original.
    keep_ages_under_cap: bool = True
    # "brackets" -> "[NAME]"; "stars" -> "<**PERSON**>" as in Liu et al.
    tag_style: str = "brackets"
    blackout_char: str = "█"
    # Where the documents come from (US, UK, AU, NZ). It decides how an ambiguous numeric
    # date such as 03/04/2021 is read when the document itself gives no clue (US: month
    # first, anything else: day first) and which country unknown places are drawn from.
    # None: each document's country is guessed from its identifiers, phones and postcodes
    # (``country.guess_country``), and where nothing tells, places are drawn as for the US.
    locale: str | None = None

    def __post_init__(self) -> None:
        if self.date_shift_min_days < 1 or self.date_shift_max_days < self.date_shift_min_days:
            raise ValueError("date shift range must satisfy 1 <= min <= max")
        if self.date_shift_direction not in SHIFT_DIRECTIONS:
            raise ValueError(f"date_shift_direction must be one of {', '.join(SHIFT_DIRECTIONS)}")
        if self.age_cap < 0:
            raise ValueError("age_cap must not be negative")
        if self.tag_style not in TAG_STYLES:
            raise ValueError(f"tag_style must be one of {', '.join(TAG_STYLES)}")
        if len(self.blackout_char) != 1:
            raise ValueError("blackout_char must be a single character")
        if self.locale is not None:
            self.locale = self.locale.upper()
            if self.locale == "GB":
                self.locale = "UK"
            if self.locale not in LOCALES:
                raise ValueError(f"locale must be one of {', '.join(LOCALES)} or None")

    @property
    def day_first(self) -> bool:
        return self.locale != "US"

    @property
    def home_country(self) -> str:
        return self.locale or "US"


# The one place the defaults are read from elsewhere (the export job, the window's settings).
DEFAULT_OPTIONS = SurrogateOptions()
