"""Dates in the forms clinicians write them; times of day, doses, ratios and versions are not."""

from __future__ import annotations

import re

from ...categories import Category
from ...spans import Span
from ..base import register
from ..calendar_words import MAORI_MONTHS, MAORI_TRADITIONAL_MONTHS, MAORI_WEEKDAYS
from ..lexicons import clinical_acronyms
from .common import RuleDetector, before, keep_longest, trie_regex, unit_follows

_MONTH_WORDS = [
    "January", "February", "March", "April", "May", "June", "July", "August", "September",
    "October", "November", "December", "Jan", "Feb", "Mar", "Apr", "Jun", "Jul", "Aug", "Sep",
    "Sept", "Oct", "Nov", "Dec",
]
# Title case or capitals only: "may" and "march" in lower case are verbs.
# Only an abbreviation takes a full stop ("Mar."); after "March" the stop ends the sentence.
_FULL_FORMS = trie_regex([f for w in _MONTH_WORDS[:12] for f in (w, w.upper())], ignore_case=False)
_SHORT_FORMS = trie_regex([f for w in _MONTH_WORDS[12:] for f in (w, w.upper())], ignore_case=False)
MONTH = rf"(?<![A-Za-z])(?:{_FULL_FORMS}|{_SHORT_FORMS}\.?)(?![A-Za-z])"
_FULL_MONTH = trie_regex(_MONTH_WORDS[:12], ignore_case=False) + r"(?![A-Za-z])"
_DAY = r"(?P<d>[0-3]?\d)(?:st|nd|rd|th)?"
_YEAR = r"(?P<y>(?:19|20)\d{2}(?!\d)|['’]\d{2}(?!\d))"

_DAY_MONTH = re.compile(
    rf"(?<![\w/.-]){_DAY}(?:\s+of)?[\s./-]*{MONTH}(?:,?[\s./-]*{_YEAR}|-(?P<y2>\d{{2}})(?!\d))?"
)
_MONTH_DAY = re.compile(rf"{MONTH}\s*{_DAY}(?![\d:])(?!\s*[.:]\d)(?:,?\s+{_YEAR})?")
_MONTH_YEAR = re.compile(rf"{MONTH},?\s*(?:of\s+)?{_YEAR}")
# A month and a two-digit year joined by a hyphen, as results and histories write them ("HbA1c
# 9.1% Mar-24", "baseline 96 Jun-24", "last HIV test Feb-25"): a date either way it is read.
_MONTH_DASH_YY = re.compile(rf"(?<![\w-]){MONTH}-(?P<y>\d{{2}}|(?:19|20)\d{{2}})(?![\w-])")
_NUMERIC = re.compile(r"(?<![\w./-])(\d{1,2})([/.-])(\d{1,2})\2(\d{4}|\d{2})(?![\w/]|[.-]\d)")
_ISO = re.compile(r"(?<![\w./-])((?:19|20)\d{2})([/.-])(\d{1,2})\2(\d{1,2})(?![\w/]|[.-]\d)")
_COMPACT = re.compile(r"(?<![\w./-])((?:19|20)\d{2})(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])(?![\w/]|[.-]\d)")
_DAY_SLASH_MONTH = re.compile(r"(?<![\w./-])(\d{1,2})/(\d{1,2})(?![\w/]|[.-]\d)")
_YEAR_ALONE = re.compile(r"(?<![\w./-])((?:19|20)\d{2})(?![\w/]|[.-]\d)")
# A month alone after a word that places something in time ("since March", "repeat July",
# "~May", "in Dec"): a date element of its own. Lower case only for the months that are no
# verbs ("in june"); abbreviations in title case.
_LOWER_MONTHS = [w.lower() for w in _MONTH_WORDS[:12] if w not in ("May", "March")]
_IN_MONTH = re.compile(
    r"(?:\b(?:in|since|during|until|till|til|by|from|for|early|mid|late|last|next|this|before|after|repeat|due|around|about|approx\.?|approximately|circa|"
    r"(?:see|c)\s+(?:you|u|ya)|"  # a message's "see you april"
    r"ceased|stopped|started|commenced|completed|finished|[Cc]eased|[Ss]topped|[Ss]tarted|[Cc]ommenced|"
    r"end\s+of|start\s+of|beginning\s+of)[\s-]+|~\s*)"
    rf"({_FULL_MONTH}|{trie_regex(_LOWER_MONTHS, ignore_case=False)}(?![A-Za-z])|{trie_regex(_MONTH_WORDS[12:], ignore_case=False)}\.?(?![A-Za-z]))"
)
# A day and a month in lower case, as hurried messages write them ("appt moved to 3 june",
# "on the 12th of august"): not "may" or "march", verbs after a number too ("2 may need").
_DAY_LOWER_MONTH = re.compile(
    rf"(?<![\w/.-])(?P<d>[0-3]?\d)(?:st|nd|rd|th)?(?:[ \t]+of)?[ \t]+({trie_regex(_LOWER_MONTHS, ignore_case=False)})(?![A-Za-z])(?:,?[ \t]+{_YEAR})?"
)
# A date in te reo Māori ("Rāapa 4 Hune 2025", "hui 2 Hōngongoi", "by Mahuru"): a day and any
# month, any month and a year, or a traditional month's name alone.
_MAORI_WEEKDAY = trie_regex(MAORI_WEEKDAYS, ignore_case=False) + r"(?![\w-])"
_MAORI_ANY_MONTH = trie_regex(MAORI_MONTHS, ignore_case=False) + r"(?![\w-])"
_MAORI_DATE = re.compile(
    rf"(?<![\w-])(?:{_MAORI_WEEKDAY},?[ \t]+)?(?:[0-3]?\d[ \t]+{_MAORI_ANY_MONTH}(?:,?[ \t]+(?:19|20)\d\d(?!\d))?"
    rf"|{_MAORI_ANY_MONTH}[ \t]+(?:19|20)\d\d(?!\d)|{trie_regex(MAORI_TRADITIONAL_MONTHS, ignore_case=False)}(?![\w-]))"
)
# A day and month written before a blood pressure taken that day, in a home or clinic log
# ("bp log: 3/16 132/84, 3/18 128/82"): a date, where a reading follows after one space (a
# table's columns are wider) and the line says it is a log or holds two such pairs.
_DATE_THEN_BP = re.compile(r"(?<![\w./-])(\d{1,2})/(\d{1,2})(?:[ \t]?[-:][ \t]?| )(\d{2,3})/(\d{2,3})(?![\w/]|[.-]\d)")
_LOG_WORDS = re.compile(r"(?i:\b(?:bp|b/p|blood\s+pressures?|log|readings?|diary|home\s+bps?)\b)")
_ORDINAL = re.compile(r"\b(?:on|from|until|since|by|before|after)\s+the\s+([0-3]?\d(?:st|nd|rd|th))\b", re.I)

_COMPACT_CONTEXT = re.compile(r"\b(?:date|dob|d\.o\.b|born|collected|admitted|discharged|dated|seen|reported|received|on)\W*$")
_SHORT_CONTEXT = re.compile(
    r"(?i:\b(?:on|from|since|until|till|dated|date|dob|seen|admitted|discharged|due|review(?:ed)?|d/c|appt|appointment"
    # what was done on a day: "last given 7/4", "labs 3/3", "bloods taken 12/6"; a sentence's
    # first word too ("Review 25/3.", "Seen 4/6")
    r"|cycle|given|labs|bloods|taken|collected|received|started|stopped|ceased|commenced|booked|sent|return(?:ed)?"
    r"|visit|visited|before|after|c\d{1,2}d\d{1,2}"  # a chemotherapy table's "C3D1  | 4/15"
    # what was done to a line, a pump or a drug on a day: "d/c'd 1/30", "de-accessed 1/30"
    r"|d/c'?d|dc'?d|discontinued|accessed|de-accessed|placed|inserted|removed|changed|dispensed|faxed|start|starts)\W*)$"
)
# "on 11/12", "dated 3/7": a day, not eleven months or three days
_ON_BEFORE = re.compile(r"\b(?i:on|dated)[ \t]+$")
_YEAR_CONTEXT = re.compile(r"\b(?:in|since|from|until|till|during|circa|c\.|year|early|late|mid|before|after)[\s-]*$")
# An event of a life or an illness told with its year ("dx 2011", "retired 2019", "quit
# 2015"): the wording proves the year a date.
_EVENT_YEAR_CONTEXT = re.compile(
    r"\b(?:dx|dx'?d|diagnosed|onset|born|died|retired|emigrated|migrated|married|widowed|divorced|quit)[\s-]*$", re.I
)
# A history's procedure or illness written as its abbreviation, then its year ("L hip ORIF
# 2023", "SVD 2017, LSCS 2021", "CABG 2015"): most likely the year of an event of the
# patient's (the abbreviations of resources/dictionaries/clinical_acronyms.txt, in capitals).
_ACRONYM_BEFORE_YEAR = re.compile(r"(?<![\w/.-])([A-Z]{2,6})[ \t]+$")
# UK shorthand: 3/12 = three months, 2/52 = two weeks, 5/7 = five days, 4/24 = four hours.
_DURATION_DENOMINATORS = {"12", "52", "7", "24"}
_NOT_A_DATE_AFTER = re.compile(r"\s*(?:ago|tabs?|tablets?|power|strength|weeks?|days?|months?|hrs?|hours?|times|doses?|x|of)\b")
_WEEKDAY_WORDS = [
    "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday",
    "Mon", "Tue", "Tues", "Wed", "Thu", "Thur", "Thurs", "Fri", "Sat", "Sun",
]
_WEEKDAY = trie_regex([f for w in _WEEKDAY_WORDS for f in (w, w.upper())], ignore_case=False)
# "Sat 9 Mar", "Monday, 18 March 2024": the weekday belongs to the date it is written before.
_WEEKDAY_BEFORE = re.compile(rf"(?<![A-Za-z]){_WEEKDAY}\.?,?[ \t]+$")
# "Fri 5th", "Fri 5/7": after a weekday a bare day or day/month is a date, not a count or a
# duration ("5/7" alone is five days).
_WEEKDAY_DAY = re.compile(
    rf"(?<![A-Za-z]){_WEEKDAY}\.?,?[ \t]+(?:(?:the[ \t]+)?[0-3]?\d(?:st|nd|rd|th)|\d{{1,2}}/\d{{1,2}})(?![\w/]|[.-]\d)"
)
_VERSION_BEFORE = re.compile(r"(?:\bv|version|ver\.?|release|build)\s*$")


def _valid_day_month(day: int, month: int) -> bool:
    return 1 <= day <= 31 and 1 <= month <= 12


@register("date")
class DateDetector(RuleDetector):
    def detect(self, text: str) -> list[Span]:
        found: list[Span] = []

        def add(start: int, end: int, score: float, full: bool = False) -> None:
            # ``full``: day, month and year all present and possible, so it is a date
            # however the other members vote (Span.validated).
            found.append(self.span(start, end, Category.DATE, "OTHER", score, validated=full))

        for m in _DAY_MONTH.finditer(text):
            if 1 <= int(m["d"]) <= 31 and not (m["y"] is None and m["y2"] is None and unit_follows(text, m.end())):
                # a day and a month's name is a date with or without its year ("hui 2 Sept":
                # both models missed the abbreviation and out-voted the rule)
                add(m.start(), m.end(), 0.95 if (m["y"] or m["y2"]) else 0.85, full=True)
        for m in _MONTH_DAY.finditer(text):
            if 1 <= int(m["d"]) <= 31 and (m["y"] or not unit_follows(text, m.end())):
                add(m.start(), m.end(), 0.95 if m["y"] else 0.85, full=bool(m["y"]))
        for m in _MONTH_YEAR.finditer(text):
            add(m.start(), m.end(), 0.9)
        for m in _MONTH_DASH_YY.finditer(text):
            add(m.start(), m.end(), 0.85, full=True)
        for m in _NUMERIC.finditer(text):
            a, b = int(m[1]), int(m[3])
            if m[2] == "." and _VERSION_BEFORE.search(before(text, m.start(), 12)):
                continue
            if _valid_day_month(a, b) or _valid_day_month(b, a):
                add(m.start(), m.end(), 0.95 if len(m[4]) == 4 else 0.85, full=True)
        for m in _ISO.finditer(text):
            if _valid_day_month(int(m[4]), int(m[3])) and not _VERSION_BEFORE.search(before(text, m.start(), 12)):
                # Unambiguous in shape, but reference numbers are written the same way.
                add(m.start(), m.end(), 0.95 if _COMPACT_CONTEXT.search(before(text, m.start(), 25)) else 0.8, full=True)
        for m in _COMPACT.finditer(text):
            if _COMPACT_CONTEXT.search(before(text, m.start(), 25)):
                add(m.start(), m.end(), 0.85)
        for m in _DAY_SLASH_MONTH.finditer(text):
            a, b = int(m[1]), int(m[2])
            if (
                (m[2] not in _DURATION_DENOMINATORS or _ON_BEFORE.search(before(text, m.start(), 8)))
                and (_valid_day_month(a, b) or _valid_day_month(b, a))
                and _SHORT_CONTEXT.search(before(text, m.start(), 20))
                and not _NOT_A_DATE_AFTER.match(text, m.end())
            ):
                add(m.start(), m.end(), 0.7, full=True)
        for m in _YEAR_ALONE.finditer(text):
            if unit_follows(text, m.end()):
                continue
            if _EVENT_YEAR_CONTEXT.search(before(text, m.start(), 15)):
                add(m.start(), m.end(), 0.75, full=True)
            elif _YEAR_CONTEXT.search(before(text, m.start(), 15)):
                add(m.start(), m.end(), 0.6)
            elif (a := _ACRONYM_BEFORE_YEAR.search(text, max(0, m.start() - 12), m.start())) is not None and a.group(1) in clinical_acronyms():
                add(m.start(), m.end(), 0.7)  # a vote: "GCS 2015" would need a model to agree
        pairs = [m for m in _DATE_THEN_BP.finditer(text) if _bp_after_date(m)]
        for k, m in enumerate(pairs):
            # the line before the pair, as far as a log's label could stand (not all of a huge line)
            line = text[max(text.rfind("\n", max(0, m.start() - 80), m.start()) + 1, m.start() - 80) : m.start()]
            beside = (k > 0 and m.start() - pairs[k - 1].end() <= 40) or (k + 1 < len(pairs) and pairs[k + 1].start() - m.end() <= 40)
            if beside or _LOG_WORDS.search(line):
                add(m.start(), m.end(2), 0.7, full=True)
        for m in _IN_MONTH.finditer(text):
            add(m.start(1), m.end(1), 0.75, full=True)  # the wording proves it
        for m in _DAY_LOWER_MONTH.finditer(text):
            if 1 <= int(m["d"]) <= 31 and not unit_follows(text, m.end()):
                add(m.start(), m.end(), 0.8, full=True)
        for m in _MAORI_DATE.finditer(text):
            add(m.start(), m.end(), 0.85, full=True)
        for m in _ORDINAL.finditer(text):
            if 1 <= int(re.sub(r"\D", "", m[1])) <= 31:
                add(m.start(1), m.end(1), 0.6)
        for m in _WEEKDAY_DAY.finditer(text):
            day = re.search(r"\d+", m.group()[m.group().rfind(" ") :])
            if day and 1 <= int(day.group()) <= 31:
                add(m.start(), m.end(), 0.8)
        return [_with_weekday(text, s) for s in keep_longest(found)]


def _bp_after_date(m: re.Match) -> bool:
    a, b, sys_, dia = int(m[1]), int(m[2]), int(m[3]), int(m[4])
    return (_valid_day_month(a, b) or _valid_day_month(b, a)) and 70 <= sys_ <= 260 and 30 <= dia <= 160 and dia < sys_


def _with_weekday(text: str, span: Span) -> Span:
    """The date with the weekday written just before it, which dates it as much as the rest."""
    w = _WEEKDAY_BEFORE.search(text, max(0, span.start - 12), span.start)
    return span if w is None else span.with_(start=w.start())
