"""Dates keep their format and move by the subject's shift; ages above the cap are capped."""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta

import pytest

from deid_desktop.core.categories import Category
from deid_desktop.core.spans import Span
from deid_desktop.core.surrogates import SurrogateEngine, SurrogateOptions
from deid_desktop.core.surrogates.dates import date_order_hint

SECRET = b"dates-secret-0123456789abcdef0123"
SUBJECTS = [f"s{i}" for i in range(12)]


@pytest.fixture(scope="module")
def engine() -> SurrogateEngine:
    return SurrogateEngine(SECRET)


def shifted(engine, text: str, subject: str = "s0") -> str:
    return engine.surrogate(text, Category.DATE, subject=subject)


# (original, strptime format of original and surrogate, shape the surrogate must have)
FULL_DATES = [
    ("14/03/2021", "%d/%m/%Y", r"\d\d/\d\d/\d{4}"),
    ("14.03.21", "%d.%m.%y", r"\d\d\.\d\d\.\d\d"),
    ("2021-03-14", "%Y-%m-%d", r"\d{4}-\d\d-\d\d"),
    ("20210314", "%Y%m%d", r"\d{8}"),
    ("14 March 2021", "%d %B %Y", r"\d{1,2} [A-Z][a-z]+ \d{4}"),
    ("14-MAR-2021", "%d-%b-%Y", r"\d\d-[A-Z]{3}-\d{4}"),
    ("Sunday 14 March 2021", "%A %d %B %Y", r"[A-Z][a-z]+day \d{1,2} [A-Z][a-z]+ \d{4}"),
    ("Sun, 14 Mar 2021", "%a, %d %b %Y", r"[A-Z][a-z]{2}, \d{1,2} [A-Z][a-z]{2} \d{4}"),
    ("2021-03-14T10:30:00Z", "%Y-%m-%dT%H:%M:%SZ", r"\d{4}-\d\d-\d\dT10:30:00Z"),
]


@pytest.mark.parametrize("original, fmt, shape", FULL_DATES)
def test_full_dates_move_by_the_subject_shift_and_keep_their_format(engine, original, fmt, shape):
    for subject in SUBJECTS[:4]:
        out = shifted(engine, original, subject)
        assert re.fullmatch(shape, out), out
        moved = datetime.strptime(out, fmt) - datetime.strptime(original, fmt)
        assert moved == timedelta(days=engine.date_shift_days(subject))
        # the weekday written is the weekday of the new date
        if "%A" in fmt or "%a" in fmt:
            assert datetime.strptime(out, fmt).strftime("%a") == out[:3]


def test_ordinal_and_us_style_dates(engine):
    shift = timedelta(days=engine.date_shift_days("s0"))
    new = date(2021, 3, 14) + shift
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(new.day % 10 if not 10 <= new.day <= 20 else 0, "th")
    assert shifted(engine, "March 14th, 2021") == f"{new:%B} {new.day}{suffix}, {new.year}"
    assert shifted(engine, "14th of March") == f"{new.day}{suffix} of {new:%B}"
    assert shifted(engine, "Mar 14") == f"{new:%b} {new.day}"
    us = SurrogateEngine(SECRET, SurrogateOptions(locale="US"))
    new = date(2021, 3, 4) + timedelta(days=us.date_shift_days("s0"))
    assert us.surrogate("03/04/2021", Category.DATE, subject="s0") == f"{new:%m/%d/%Y}"
    assert us.surrogate("3/4/21", Category.DATE, subject="s0") == f"{new.month}/{new.day}/{new:%y}"


def test_unambiguous_dates_are_read_either_way(engine):
    shift = timedelta(days=engine.date_shift_days("s0"))
    us, uk = date(2021, 3, 14) + shift, date(2021, 3, 14) + shift
    assert shifted(engine, "03/14/2021") == f"{us:%m/%d/%Y}"
    assert shifted(engine, "14/03/2021") == f"{uk:%d/%m/%Y}"


def test_intervals_between_dates_of_a_subject_are_kept(engine):
    for subject in SUBJECTS:
        a = datetime.strptime(shifted(engine, "28 February 2020", subject), "%d %B %Y")
        b = datetime.strptime(shifted(engine, "2020-03-09", subject), "%Y-%m-%d")
        assert (b - a).days == 10


def test_month_year_dates_move_by_whole_months(engine):
    for subject in SUBJECTS:
        out = shifted(engine, "January 2021", subject)
        assert re.fullmatch(r"[A-Z][a-z]+ \d{4}", out) and out != "January 2021"
        new = datetime.strptime(out, "%B %Y")
        months = (new.year - 2021) * 12 + new.month - 1
        assert months < 0  # into the past, like the day shift
        apos = shifted(engine, "Jan '21", subject)
        assert apos == f"{new:%b} '{new:%y}"
        assert shifted(engine, "01/2021", subject) == f"{new:%m/%Y}"


def test_month_alone_weekday_alone_and_year_alone_change(engine):
    for subject in SUBJECTS:
        assert shifted(engine, "March", subject) != "March"
        weekday = shifted(engine, "Monday", subject)
        assert weekday != "Monday" and weekday.endswith("day")
        assert int(shifted(engine, "2019", subject)) < 2019


def test_weekday_without_year_moves_with_the_shift(engine):
    days = engine.date_shift_days("s0")
    names = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
    out = shifted(engine, "Monday 14 March", "s0")
    assert out.split()[0] == names[days % 7]


def test_unreadable_dates_keep_their_text_and_change_digits(engine):
    out = shifted(engine, "Spring 2019")
    assert out.startswith("Spring ") and int(out.split()[1]) < 2019
    out = shifted(engine, "the 3rd")
    assert re.fullmatch(r"the \d{1,2}(st|nd|rd|th)", out) and out != "the 3rd"
    assert shifted(engine, "yesterday") == "[DATE]"


def test_dates_inside_longer_text_and_ranges_are_shifted(engine):
    days = timedelta(days=engine.date_shift_days("s0"))
    assert shifted(engine, "DOB: 14/03/1950") == f"DOB: {date(1950, 3, 14) + days:%d/%m/%Y}"
    out = shifted(engine, "14/03/2021 - 20/03/2021")
    a, b = (datetime.strptime(x, "%d/%m/%Y") for x in out.split(" - "))
    assert a.date() == date(2021, 3, 14) + days and (b - a).days == 6
    out = shifted(engine, "14/3, 20/3")
    assert out == f"{date(2001, 3, 14) + days:%-d/%-m}, {date(2001, 3, 20) + days:%-d/%-m}"


def test_document_order_decides_ambiguous_numeric_dates():
    assert date_order_hint(["14/03/2021", "03/04/2021"]) is True
    assert date_order_hint(["03/14/2021", "03/04/2021"]) is False
    assert date_order_hint(["03/04/2021"]) is None
    text = "Admitted 03/14/2021, reviewed 04/03/2021."
    spans = [Span(9, 19, Category.DATE), Span(30, 40, Category.DATE)]
    engine = SurrogateEngine(SECRET)  # locale unset: day first unless the document says
    a, b = engine.replacements(text, spans, subject="p")
    first = datetime.strptime(a.new_text, "%m/%d/%Y")
    second = datetime.strptime(b.new_text, "%m/%d/%Y")
    assert (second - first).days == (date(2021, 4, 3) - date(2021, 3, 14)).days


def test_invalid_calendar_dates_do_not_crash(engine):
    out = shifted(engine, "31/02/2021")
    assert out != "31/02/2021" and re.fullmatch(r"\d\d/\d\d/\d{4}", out)


@pytest.mark.parametrize(
    "original, expected",
    [
        ("92", "90+"),
        ("92-year-old", "90+ year old"),
        ("aged 101 years", "aged 90+ years"),
        ("92yo", "90+ yo"),
        ("ninety-two", "90+"),
        ("nonagenarian", "90+"),
        ("45", "45"),
        ("89", "89"),
        ("45-year-old", "45-year-old"),
    ],
)
def test_ages_above_the_cap_are_capped_and_others_stay(engine, original, expected):
    assert engine.surrogate(original, Category.AGE, subject="s") == expected


def test_age_cap_and_text_are_options():
    engine = SurrogateEngine(SECRET, SurrogateOptions(age_cap=79, age_cap_text="80+"))
    assert engine.surrogate("82", Category.AGE) == "80+"
    assert engine.surrogate("79", Category.AGE) == "79"
