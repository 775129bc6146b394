"""Dates: every date of a subject moves by the same number of days and keeps its format.

A date string is read into pieces (day, month, year, weekday and the literal text between
them), the date is shifted, and each piece is written back in its original style: zero
padding, ordinal suffix, month name or abbreviation, two- or four-digit year, letter case.
Because one subject has one shift, the interval between any two of its dates is kept.

Reading ambiguous numeric dates (03/04/2021): the order the document itself shows
elsewhere (a day above 12 in first or second place), else the options' locale (US: month
first; anything else: day first). One document is always read one way, so its intervals
hold even if the guess is wrong.

Dates without a day move by whole months (at least one, and never by a whole number of
years, so "March" alone still changes); a year alone moves by whole years (at least one).
The shift is never a multiple of seven days, so a weekday alone ("Monday") changes too.
Strings that are not one readable date ("DOB: 14/03/1950", "14/03 - 20/03/2021",
"Spring 2019") keep their words; each readable date inside is shifted, four-digit years
move by whole years and other digits are replaced.
"""

from __future__ import annotations

import calendar
import random
import re
from datetime import date, timedelta

from ..categories import Category
from .base import SurrogateContext, SurrogateGenerator, register
from .date_format import (
    DATE_TOKEN,
    FILLERS,
    MONTH_WORDS,
    WEEKDAY_WORDS,
    WEEKDAYS,
    Piece,
    month_shift,
    month_style,
    ordinal_suffix,
    read_date,
    shift_date,
    write_month,
    write_weekday,
    year_shift,
)
from .keys import KeyRing, normalise_key
from .options import SurrogateOptions
from .shape import randomise_digits

_NUMERIC_DATE = re.compile(r"(?<!\d)(\d{1,2})[/.-](\d{1,2})(?:[/.-](\d{4}|\d{2}))?(?!\d)")


# ------------------------------------------------------------------------ per-subject shift


def shift_for_subject(keys: KeyRing, subject: str, options: SurrogateOptions) -> int:
    rng = keys.rng("date-shift", subject)
    lo, hi = options.date_shift_min_days, options.date_shift_max_days
    magnitude = rng.randint(lo, hi)
    if any(d % 7 for d in range(lo, min(hi, lo + 7) + 1)):
        while magnitude % 7 == 0:  # a whole number of weeks would leave a weekday unchanged
            magnitude = rng.randint(lo, hi)
    if options.date_shift_direction == "past":
        return -magnitude
    if options.date_shift_direction == "future":
        return magnitude
    return magnitude if rng.random() < 0.5 else -magnitude


def date_order_hint(texts: list[str]) -> bool | None:
    """True if the numeric dates of a document are written day first, False if month
    first, None if they do not say (every part 12 or less, or the evidence is split)."""
    day_first = month_first = 0
    for text in texts:
        for m in _NUMERIC_DATE.finditer(text):
            a, b = int(m.group(1)), int(m.group(2))
            if a > 12 >= b:
                day_first += 1
            elif b > 12 >= a:
                month_first += 1
    if day_first > month_first:
        return True
    if month_first > day_first:
        return False
    return None


# Where a span holds more than one date: "14/03/2021 - 20/03/2021", "3 to 5 March".
_RANGE = re.compile(r"(\s*[–—]\s*|\s+-\s+|\s+(?:to|and|until|till|through)\s+)", re.I)
# Characters that may sit between the parts of one date.
_DATE_GLUE = set(" /.-,'’")


def _fallback(original: str, ctx: SurrogateContext) -> str:
    """Text that is not one readable date: each date found inside it is shifted ("DOB:
    14/03/1950", a range of two dates); what is left keeps its words, with four-digit years
    and month or weekday names shifted and other digits replaced."""
    rng = ctx.rng("DATE", normalise_key(original))
    pieces = _RANGE.split(original)
    return "".join(piece if i % 2 else _shift_runs(piece, ctx, rng) for i, piece in enumerate(pieces))


def _is_dateish(m: re.Match) -> bool:
    if m.group("num") or m.group("apos") or m.group("time"):
        return True
    if m.group("word"):
        w = m.group().lower()
        return w in MONTH_WORDS or w in WEEKDAY_WORDS or w in FILLERS
    return m.group() in _DATE_GLUE


def _shift_runs(text: str, ctx: SurrogateContext, rng: random.Random) -> str:
    tokens = list(DATE_TOKEN.finditer(text))
    out: list[str] = []
    pos = i = 0
    while i < len(tokens):
        if not _is_dateish(tokens[i]):
            i += 1
            continue
        j = i
        while j + 1 < len(tokens) and _is_dateish(tokens[j + 1]):
            j += 1
        start, end = tokens[i].start(), tokens[j].end()
        core = text[start:end].strip(" ,.-/'’")
        if core:
            start = text.index(core, start)
            end = start + len(core)
            out.append(text[pos:start])
            out.append(_shift_list(core, ctx, rng))
            pos = end
        i = j + 1
    out.append(text[pos:])
    return "".join(out)


def _shift_list(core: str, ctx: SurrogateContext, rng: random.Random) -> str:
    """One date, or a list of them ("14/3, 20/3"), or loose date words."""
    read = read_date(core, ctx.day_first)
    if read is not None:
        return shift_date(read, ctx.shift_days)
    parts = re.split(r"(\s*,\s*)", core)
    if len(parts) > 1 and all(read_date(p, ctx.day_first) for p in parts[::2]):
        return "".join(p if i % 2 else shift_date(read_date(p, ctx.day_first), ctx.shift_days) for i, p in enumerate(parts))
    return _loose_tokens(core, ctx, rng)


def _loose_tokens(text: str, ctx: SurrogateContext, rng: random.Random) -> str:
    out = []
    for m in DATE_TOKEN.finditer(text):
        t = m.group()
        if m.group("num"):
            digits = m.group("num")
            if m.group("ord"):  # a day with no month ("the 3rd"): another day, written alike
                day = rng.randint(1, 28)
                suffix = ordinal_suffix(day)
                out.append(str(day) + (suffix.upper() if m.group("ord").isupper() else suffix))
            elif len(digits) == 4 and 1800 <= int(digits) <= 2199:
                out.append(str(int(digits) + year_shift(ctx.shift_days)))
            else:
                out.append(randomise_digits(digits, rng))
        elif m.group("word") and t.lower() in MONTH_WORDS:
            month = (MONTH_WORDS[t.lower()] - 1 + month_shift(ctx.shift_days)) % 12 + 1
            out.append(write_month(Piece(t, "month", month_style(t.lower())), month, True))
        elif m.group("word") and t.lower() in WEEKDAY_WORDS:
            weekday = (WEEKDAY_WORDS[t.lower()] + ctx.shift_days) % 7
            out.append(write_weekday(Piece(t, "weekday", "full" if t.lower() in WEEKDAYS else "abbr"), weekday))
        else:
            out.append("".join(randomise_digits(c, rng) if c.isdigit() else c for c in t))
    return "".join(out)


@register
class DateGenerator(SurrogateGenerator):
    category = Category.DATE
    fines = ("OTHER",)
    fallback = True

    def surrogate(self, original: str, ctx: SurrogateContext) -> str:
        read = read_date(original, ctx.day_first)
        if read is None:
            return _fallback(original, ctx)
        return shift_date(read, ctx.shift_days)

    def sample(self, rng: random.Random, locale: str | None, gender: str | None) -> str:
        return sample_date(rng, locale)


def sample_date(rng: random.Random, locale: str | None, *, start: date = date(1925, 1, 1), end: date = date(2030, 12, 31)) -> str:
    d = start + timedelta(days=rng.randrange((end - start).days + 1))
    month_first = locale == "US" or (locale is None and rng.random() < 0.4)
    mon, month, wd = calendar.month_abbr[d.month], calendar.month_name[d.month], calendar.day_name[d.weekday()]
    suffix = ordinal_suffix(d.day)
    if month_first:
        formats = [
            f"{d.month:02d}/{d.day:02d}/{d.year}", f"{d.month}/{d.day}/{d.year}",
            f"{d.month}/{d.day}/{d.year % 100:02d}", f"{month} {d.day}, {d.year}",
            f"{mon} {d.day}, {d.year}", f"{d.year}-{d.month:02d}-{d.day:02d}",
            f"{d.month}/{d.day}", f"{month} {d.day}{suffix}", f"{month} {d.year}",
            f"{d.day:02d}-{mon}-{d.year}", f"{wd}, {month} {d.day}, {d.year}", str(d.year),
        ]
        weights = [20, 16, 8, 10, 6, 6, 8, 4, 5, 4, 2, 3]
    else:
        formats = [
            f"{d.day:02d}/{d.month:02d}/{d.year}", f"{d.day}/{d.month}/{d.year}",
            f"{d.day}/{d.month}/{d.year % 100:02d}", f"{d.day} {month} {d.year}",
            f"{d.day} {mon} {d.year}", f"{d.day}{suffix} {month} {d.year}",
            f"{d.year}-{d.month:02d}-{d.day:02d}", f"{d.day:02d}.{d.month:02d}.{d.year}",
            f"{d.day}/{d.month}", f"{d.day}{suffix} of {month}", f"{month} {d.year}",
            f"{d.day:02d}-{mon}-{d.year}", f"{wd} {d.day} {month} {d.year}", str(d.year),
        ]
        weights = [20, 14, 8, 12, 8, 4, 6, 3, 6, 3, 5, 4, 2, 3]
    return rng.choices(formats, weights=weights)[0]
