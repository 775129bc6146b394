"""Reading a date string into pieces and writing it back, moved, in the same style.

"14th of March" is read as a day piece ("14th", ordinal), a literal " of ", and a month piece
("March", full name); moving it by -20 days writes "22nd of February". Zero padding, ordinal
suffixes, month names or abbreviations, two- or four-digit years, weekday names and letter
case are kept. A date without a day moves by whole months, a year alone by whole years.
"""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass
from datetime import date, timedelta

from .casing import apply_case, case_pattern

MONTHS = [m.lower() for m in calendar.month_name[1:]]
WEEKDAYS = [d.lower() for d in calendar.day_name]
MONTH_WORDS = {m: i + 1 for i, m in enumerate(MONTHS)} | {m[:3]: i + 1 for i, m in enumerate(MONTHS)}
MONTH_WORDS["sept"] = 9
WEEKDAY_WORDS = {d: i for i, d in enumerate(WEEKDAYS)} | {d[:3]: i for i, d in enumerate(WEEKDAYS)}
WEEKDAY_WORDS |= {"tues": 1, "weds": 2, "thur": 3, "thurs": 3}
_LONG_WEEKDAY_ABBR = ["Mon", "Tues", "Weds", "Thurs", "Fri", "Sat", "Sun"]
# Words that may sit inside a date without changing what it means.
FILLERS = {"of", "the", "on", "at", "t", "am", "pm", "h", "hrs", "hr", "z", "utc", "gmt"}
# With no year given, day and month are placed in a common year (as three years in four
# are), or in a leap year for 29 February.
_REFERENCE_YEAR = 2001
_LEAP_REFERENCE_YEAR = 2000

DATE_TOKEN = re.compile(
    r"(?P<time>\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?)"
    r"|(?P<apos>['’]\d{2})(?!\d)"
    r"|(?P<num>\d+)(?:(?P<ord>st|nd|rd|th)(?![^\W\d_]))?"
    r"|(?P<word>[^\W\d_]+)"
    r"|(?P<other>.)",
    re.S | re.I,
)


@dataclass
class Piece:
    text: str
    role: str = "lit"  # lit | day | month | year | weekday | compact
    style: str = ""

    @property
    def digits(self) -> str:
        """The number without an apostrophe or ordinal suffix ("'21" -> "21", "14th" -> "14")."""
        return "".join(c for c in self.text if c.isdigit())


@dataclass
class ReadDate:
    """A date string read into pieces; ``unit`` says how precise it is."""

    pieces: list[Piece]
    unit: str  # day | month | year | weekday
    year: int | None = None
    month: int | None = None
    day: int | None = None
    weekday: int | None = None
    pad: bool = True
    compact_order: str = ""


def read_date(text: str, day_first: bool) -> ReadDate | None:
    """The pieces of one date, or None when the text is not a single date we can read.
    ``day_first`` decides numeric dates whose first two parts are both 12 or less."""
    pieces: list[Piece] = []
    nums: list[Piece] = []
    months: list[Piece] = []
    weekdays: list[Piece] = []
    for m in DATE_TOKEN.finditer(text):
        if m.group("apos"):
            p = Piece(m.group(), "year", "apos")
            nums.append(p)
        elif m.group("num"):
            p = Piece(m.group(), "num", "ord" if m.group("ord") else "")
            nums.append(p)
        elif m.group("word"):
            w = m.group().lower()
            if w in MONTH_WORDS:
                p = Piece(m.group(), "month", month_style(w))
                months.append(p)
            elif w in WEEKDAY_WORDS:
                p = Piece(m.group(), "weekday", "full" if w in WEEKDAYS else "abbr")
                weekdays.append(p)
            elif w in FILLERS:
                p = Piece(m.group())
            else:
                return None
        else:
            p = Piece(m.group())
        pieces.append(p)
    if len(months) > 1 or len(weekdays) > 1:
        return None
    read = ReadDate(pieces, unit="")
    if weekdays:
        read.weekday = WEEKDAY_WORDS[weekdays[0].text.lower()]
    if months:
        read.month = MONTH_WORDS[months[0].text.lower()]
        if not _roles_with_month_word(nums, read):
            return None
    elif not _roles_numeric(nums, read, day_first):
        return None
    if read.month is not None and read.day is not None:
        read.unit = "day"
    elif read.month is not None:
        read.unit = "month"
    elif read.year is not None and read.day is None:
        read.unit = "year"
    elif read.weekday is not None and not nums:
        read.unit = "weekday"
    else:
        return None
    if read.day is not None and not _valid(read.year or _LEAP_REFERENCE_YEAR, read.month, read.day):
        return None
    # "14 March" shows no padding style: people rarely write "05 March", but systems that
    # print "14-MAR-2021" print "05-MAR-2021".
    read.pad = _padding(nums, default=not months or not any(c.isspace() for c in text))
    return read


def month_style(word: str) -> str:
    if word == "sept":
        return "sept"
    return "full" if word in MONTHS else "abbr"


def _roles_with_month_word(nums: list[Piece], read: ReadDate) -> bool:
    for p in nums:
        digits = p.digits
        if p.style == "apos" or (len(digits) <= 2 and read.day is not None and p.style != "ord"):
            if read.year is not None:
                return False
            p.role, p.style = "year", p.style or "2"
            read.year = _full_year(int(digits))
        elif len(digits) == 4 and p.style != "ord":
            if read.year is not None:
                return False
            p.role, p.style = "year", "4"
            read.year = int(digits)
        elif len(digits) <= 2 and 1 <= int(digits) <= 31:
            if read.day is not None:
                return False
            p.role = "day"
            read.day = int(digits)
        else:
            return False
    return True


def _roles_numeric(nums: list[Piece], read: ReadDate, day_first: bool) -> bool:
    if any(p.style == "ord" for p in nums):
        return False
    texts = [p.digits for p in nums]
    lens = [len(t) for t in texts]
    vals = [int(t) for t in texts]
    if len(nums) == 1:
        p = nums[0]
        if p.style == "apos" or lens[0] == 4:
            p.role, p.style = "year", p.style or "4"
            read.year = vals[0] if lens[0] == 4 else _full_year(vals[0])
            return True
        if lens[0] == 8:
            return _compact(p, texts[0], read, day_first)
        return False
    if len(nums) == 2:
        a, b = nums
        if lens == [4, 1] or lens == [4, 2]:
            return _assign(read, year=(a, "4", vals[0]), month=(b, vals[1]))
        if lens in ([1, 4], [2, 4]):
            return _assign(read, month=(a, vals[0]), year=(b, "4", vals[1]))
        if max(lens) <= 2 and "apos" not in (a.style, b.style):
            first_is_day = _first_is_day(vals[0], vals[1], day_first)
            if first_is_day is None:
                return False
            d, mo = (a, b) if first_is_day else (b, a)
            return _assign(read, day=(d, int(d.digits)), month=(mo, int(mo.digits)))
        return False
    if len(nums) == 3:
        a, b, c = nums
        if lens[0] == 4 and lens[1] <= 2 and lens[2] <= 2:
            return _assign(read, year=(a, "4", vals[0]), month=(b, vals[1]), day=(c, vals[2]))
        if lens[0] <= 2 and lens[1] <= 2 and (lens[2] in (2, 4) or c.style == "apos"):
            first_is_day = _first_is_day(vals[0], vals[1], day_first)
            if first_is_day is None:
                return False
            d, mo = (a, b) if first_is_day else (b, a)
            year_style = "apos" if c.style == "apos" else str(lens[2])
            year = vals[2] if lens[2] == 4 else _full_year(vals[2])
            return _assign(read, day=(d, int(d.digits)), month=(mo, int(mo.digits)), year=(c, year_style, year))
    return False


def _first_is_day(a: int, b: int, day_first: bool) -> bool | None:
    if a > 12 and b > 12:
        return None
    if a > 12:
        return True
    if b > 12:
        return False
    return day_first


def _assign(read: ReadDate, *, day=None, month=None, year=None) -> bool:
    if month is not None:
        piece, value = month
        if not 1 <= value <= 12:
            return False
        piece.role, piece.style = "month", "num"
        read.month = value
    if day is not None:
        piece, value = day
        if not 1 <= value <= 31:
            return False
        piece.role = "day"
        read.day = value
    if year is not None:
        piece, style, value = year
        piece.role, piece.style = "year", style
        read.year = value
    return True


def _compact(p: Piece, digits: str, read: ReadDate, day_first: bool) -> bool:
    y, m, d = int(digits[:4]), int(digits[4:6]), int(digits[6:])
    if 1800 <= y <= 2199 and _valid(y, m, d):
        order = "YMD"
    else:
        a, b, y = int(digits[:2]), int(digits[2:4]), int(digits[4:])
        first_is_day = _first_is_day(a, b, day_first)
        if first_is_day is None:
            return False
        order = "DMY" if first_is_day else "MDY"
        d, m = (a, b) if first_is_day else (b, a)
        if not _valid(y, m, d):
            return False
    p.role = "compact"
    read.compact_order = order
    read.year, read.month, read.day = y, m, d
    return True


def _full_year(two_digits: int) -> int:
    # A fixed pivot rather than "today", so the same text reads the same way every year.
    return 2000 + two_digits if two_digits < 50 else 1900 + two_digits


def _valid(y: int, m: int | None, d: int | None) -> bool:
    if m is None or d is None or not 1 <= m <= 12 or y < 1:
        return False
    return 1 <= d <= calendar.monthrange(y, m)[1]


def _padding(nums: list[Piece], default: bool) -> bool:
    """Whether day and month numbers are zero-padded: shown by a leading zero or a single
    digit in the original; two-digit values give no clue."""
    for p in nums:
        if p.role in ("day", "month") and p.style in ("", "num", "ord"):
            t = p.digits
            if len(t) == 1:
                return False
            if t.startswith("0"):
                return True
    return default


# ---------------------------------------------------------------- shifting and writing back


def month_shift(days: int) -> int:
    sign = -1 if days < 0 else 1
    months = sign * max(1, round(abs(days) / 30.4375))
    if months % 12 == 0:  # a whole number of years would leave a month name unchanged
        months += sign
    return months


def year_shift(days: int) -> int:
    sign = -1 if days < 0 else 1
    return sign * max(1, round(abs(days) / 365.2425))


def shift_date(read: ReadDate, days: int) -> str:
    new_year, new_month, new_day = read.year, read.month, read.day
    if read.unit == "day":
        year = read.year or (_LEAP_REFERENCE_YEAR if (read.month, read.day) == (2, 29) else _REFERENCE_YEAR)
        moved = date(year, read.month, read.day) + timedelta(days=days)
        new_year = moved.year if read.year is not None else None
        new_month, new_day = moved.month, moved.day
    elif read.unit == "month":
        total = (read.year or _REFERENCE_YEAR) * 12 + read.month - 1 + month_shift(days)
        new_year = total // 12 if read.year is not None else None
        new_month = total % 12 + 1
    elif read.unit == "year":
        new_year = read.year + year_shift(days)
    new_weekday = None
    if read.weekday is not None:
        # The stated weekday moves with the date, even when the original was inconsistent.
        step = days if read.unit in ("day", "weekday") else 0
        new_weekday = (read.weekday + step) % 7
    return write_date(read, new_year, new_month, new_day, new_weekday)


def write_date(read: ReadDate, year, month, day, weekday) -> str:
    out = []
    for p in read.pieces:
        if p.role == "day":
            out.append(_write_day(p, day, read.pad))
        elif p.role == "month":
            out.append(write_month(p, month, read.pad))
        elif p.role == "year":
            out.append(_write_year(p, year))
        elif p.role == "weekday":
            out.append(write_weekday(p, weekday))
        elif p.role == "compact":
            parts = {"Y": f"{year:04d}", "M": f"{month:02d}", "D": f"{day:02d}"}
            if read.compact_order == "YMD":
                out.append(parts["Y"] + parts["M"] + parts["D"])
            else:
                out.append("".join(parts[c] for c in read.compact_order))
        else:
            out.append(p.text)
    return "".join(out)


def _write_day(p: Piece, day: int, pad: bool) -> str:
    if p.style == "ord":  # "14th": padded only if the original was ("03rd")
        text = f"{day:02d}" if p.text.startswith("0") else str(day)
        suffix = ordinal_suffix(day)
        return text + (suffix.upper() if p.text[-1].isupper() else suffix)
    return f"{day:02d}" if pad else str(day)


def write_month(p: Piece, month: int, pad: bool) -> str:
    if p.style == "num":
        return f"{month:02d}" if pad else str(month)
    name = calendar.month_name[month]
    if p.style == "sept":
        name = "Sept" if month == 9 else name[:3]
    elif p.style == "abbr":
        name = name[:3]
    return apply_case(case_pattern(p.text), name)


def _write_year(p: Piece, year: int) -> str:
    if p.style == "apos":
        return p.text[0] + f"{year % 100:02d}"
    if p.style == "2":
        return f"{year % 100:02d}"
    return f"{year:04d}"


def write_weekday(p: Piece, weekday: int) -> str:
    name = calendar.day_name[weekday]
    if p.style == "abbr":
        name = _LONG_WEEKDAY_ABBR[weekday] if len(p.text) > 3 else name[:3]
    return apply_case(case_pattern(p.text), name)


def ordinal_suffix(n: int) -> str:
    if 10 <= n % 100 <= 20:
        return "th"
    return {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
