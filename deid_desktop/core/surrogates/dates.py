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


# Dates run together with no space around the joining character: "29/02/2024-01/03/2024".
_FULL_NUMERIC_DATE = re.compile(r"(\d{4}-\d{1,2}-\d{1,2}|(?<!\d)\d{1,2}[/.-]\d{1,2}[/.-](?:\d{4}|\d{2})(?!\d))")
# A clock time on its own: "10:47", "9.05 pm", "10h47", "1047hrs", "23:59:30".
_CLOCK = re.compile(
    r"^(?P<h>\d{1,2})(?P<sep>:|\.|\s?h\s?)(?P<m>\d{2})(?P<sec>:\d{2})?(?P<tail>\s*(?:[ap]\.?m\.?|hrs?|h)?)$"
    r"|^(?P<h4>\d{2})(?P<m4>\d{2})(?P<tail4>\s*(?:hrs?|h))$",
    re.I,
)


# ------------------------------------------------------------------------------- times


def read_clock_time(text: str) -> tuple[int, int, bool] | None:
    """(hour, minute, twelve-hour clock) of a bare clock time, or None."""
    m = _CLOCK.match(text.strip())
    if m is None:
        return None
    hour, minute = (int(m.group("h")), int(m.group("m"))) if m.group("h") else (int(m.group("h4")), int(m.group("m4")))
    tail = (m.group("tail") or m.group("tail4") or "").strip().lower()
    twelve = tail[:1] in ("a", "p")
    if minute > 59 or hour > (12 if twelve else 23) or (twelve and hour == 0):
        return None
    return hour, minute, twelve


def time_shift_minutes(ctx: SurrogateContext) -> int:
    """Minutes every bare time of a subject moves by (never a whole number of hours, so the
    time always changes; in the date shift's direction)."""
    minutes = ctx.keys.rng("time-shift", ctx.subject).randint(1, 179)
    if minutes % 60 == 0:
        minutes += 7
    return -minutes if ctx.shift_days < 0 else minutes


def shift_time(text: str, minutes: int) -> str:
    """The time moved by ``minutes``, written as the original was (padding, separator,
    am/pm and its case); always a valid time of day."""
    lead, core = text[: len(text) - len(text.lstrip())], text.strip()
    trail = text[len(text.rstrip()) :]
    read = read_clock_time(core)
    if read is None:
        return text
    hour, minute, twelve = read
    m = _CLOCK.match(core)
    if twelve:
        tail = m.group("tail")
        pm = tail.strip().lower().startswith("p")
        total = ((hour % 12) + (12 if pm else 0)) * 60 + minute + minutes
        total %= 24 * 60
        new_pm = total >= 12 * 60
        new_hour = (total // 60) % 12 or 12
        if new_pm != pm:
            tail = _swap_meridiem(tail, new_pm)
    else:
        tail = m.group("tail") if m.group("h") else m.group("tail4")
        total = (hour * 60 + minute + minutes) % (24 * 60)
        new_hour = total // 60
    new_minute = total % 60
    if m.group("h4"):
        return f"{lead}{new_hour:02d}{new_minute:02d}{tail}{trail}"
    width = len(m.group("h"))
    hour_text = f"{new_hour:0{width}d}" if width == 2 and m.group("h").startswith("0") else str(new_hour)
    if width == 2 and not m.group("h").startswith("0") and new_hour < 10 and not twelve:
        hour_text = f"{new_hour:02d}"  # "10:47" -> "08:12", as a 24-hour clock writes it
    return f"{lead}{hour_text}{m.group('sep')}{new_minute:02d}{m.group('sec') or ''}{tail}{trail}"


def _swap_meridiem(tail: str, pm: bool) -> str:
    out = []
    for c in tail:
        if c.lower() in "ap":
            new = "p" if pm else "a"
            out.append(new.upper() if c.isupper() else new)
        else:
            out.append(c)
    return "".join(out)


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
    """One date, or a list of them ("14/3, 20/3"), or dates run together without spaces
    ("29/02/2024-01/03/2024"), or loose date words."""
    read = read_date(core, ctx.day_first)
    if read is not None:
        return shift_date(read, ctx.shift_days)
    parts = re.split(r"(\s*,\s*)", core)
    if len(parts) > 1 and all(read_date(p, ctx.day_first) for p in parts[::2]):
        return "".join(p if i % 2 else shift_date(read_date(p, ctx.day_first), ctx.shift_days) for i, p in enumerate(parts))
    parts = _FULL_NUMERIC_DATE.split(core)
    if len(parts) > 1:
        return "".join(_shift_one(p, ctx, rng) if i % 2 else _loose_tokens(p, ctx, rng) for i, p in enumerate(parts))
    return _loose_tokens(core, ctx, rng)


def _shift_one(text: str, ctx: SurrogateContext, rng: random.Random) -> str:
    read = read_date(text, ctx.day_first)
    return shift_date(read, ctx.shift_days) if read is not None else _loose_tokens(text, ctx, rng)


def _loose_tokens(text: str, ctx: SurrogateContext, rng: random.Random) -> str:
    """Words that are not one readable date, token by token. Whatever comes out must still
    be a possible date or time: a clock time moves by the subject's minutes, a day number
    stays within 1-28 (valid in every month)."""
    if read_clock_time(text) is not None:
        return shift_time(text, time_shift_minutes(ctx))
    out = []
    for m in DATE_TOKEN.finditer(text):
        t = m.group()
        if m.group("time"):
            out.append(shift_time(t, time_shift_minutes(ctx)) if read_clock_time(t) else t)
        elif m.group("num"):
            digits = m.group("num")
            if m.group("ord"):  # a day with no month ("the 3rd"): another day, written alike
                day = rng.randint(1, 28)
                suffix = ordinal_suffix(day)
                out.append(str(day) + (suffix.upper() if m.group("ord").isupper() else suffix))
            elif len(digits) == 4 and 1800 <= int(digits) <= 2199:
                out.append(str(int(digits) + year_shift(ctx.shift_days)))
            elif len(digits) <= 2:  # a day or month number: one that every month has
                value = rng.randint(1, 12 if int(digits) <= 12 else 28)
                out.append(f"{value:0{len(digits)}d}" if digits.startswith("0") else str(value))
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
        if read_clock_time(original) is not None:  # a time labelled as a date: "10:47", "1047hrs"
            return shift_time(original, time_shift_minutes(ctx))
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
