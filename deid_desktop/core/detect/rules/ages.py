"""Ages of people. Every age is reported (HIPAA only requires those over 89 to go, but the
evaluation filters); over 89 scores 1.0. Durations ("5 years ago") and doses are not ages."""

from __future__ import annotations

import re

from ...categories import Category
from ...spans import Span
from ..base import register
from .common import RuleDetector, before, keep_longest, pipe_column, trie_regex

_YEARS_OLD = re.compile(r"(?<![\w.])(\d{1,3})(?:\s*|-)(?:years?|yrs?|y)\.?(?:\s*|-)old\b", re.I)
_YO = re.compile(r"(?<![\w.])(\d{1,3})\s*(?:yo|y/o|y\.o\.?|yoa)(?:[mf])?(?![A-Za-z])", re.I)  # "79 YOM", "34yof"
# (a form's "Age at visit: 8 mo 4 d", "Age today: 3")
_AGE_WHEN = r"(?:[ \t]+(?:at[ \t]+(?:visit|review|referral|assessment|admission|exam|contact)|today|now))?"
_AGED = re.compile(rf"\b(?:aged?{_AGE_WHEN}|age\s+of)\s*[:=]?\s*(\d{{1,3}})(?!\d|\.\d)", re.I)
_SEX = re.compile(r"(?<![\w.])(\d{1,3})([MF])(?![\w'])")
# An age with "y" and the sex apart: "63y F", "63y, female", "63 y male".
_Y_SEX = re.compile(r"(?<![\w.])(\d{1,3})[ \t]?y\.?,?[ \t]+(?:[MF]|male|female|man|woman)(?![\w'])", re.I)
# A child's age in years and months: "4 yrs 7 mths", "2y 3m", "3 years and 5 months".
_YEARS_MONTHS = re.compile(
    r"(?<![\w.])(\d{1,2})[ \t]*(?:y|yrs?|years?)\.?,?[ \t]*(?:and[ \t]+)?\d{1,2}[ \t]*(?:m|mths?|mos?|months?)\b(?![ \t]*(?:ago|later|post))", re.I
)
# Family histories and pedigrees: "d. 58", "died at 81", "ovarian ca dx 55", "diagnosed at
# 70", "onset at 12". A number right after the event word, not part of a date or a dose.
_AT_EVENT = re.compile(
    r"(?:\b(?:dx|diagnosed|died|deceased|onset)|(?<![\w.])d\.)\s*(?:at\s+)?(?:age\s+)?(\d{1,3})(?![\d/:-]|\.\d)",
    re.I,
)
# More ages at events after the first: "breast ca dx 48, 66" (each larger than the one before,
# and no word after it: "dx 48, 2 sons" is no age).
_MORE_AT_EVENT = re.compile(r"[ \t]*(?:,|&|and)[ \t]*(\d{1,3})(?![\d/:-]|\.\d)(?![ \t]*[A-Za-z])")
# Tables with an age column: a header of three cells or more (two spaces or a tab apart), one
# of them "Age", "Age / age at death", "Current age", "Age at dx"; its rows until a blank line.
_CELL = re.compile(r"[^\t\n ]+(?: [^\t\n ]+)*")
_AGE_HEADER = re.compile(r"(?:current\s+)?age\b(?!\s*:)", re.I)
_PIPE_AGE_HEADER = re.compile(r"(?i:(?:current[ \t]+)?age(?:[ \t]*\((?:y|yrs|years)\))?)")
_AGE_CELL = re.compile(r"(?:(?:d\.?|died|dec(?:eased|\.)?)\s*)?(\d{1,3})(?:\s*(?:y|yo|yrs?|years?)\.?)?", re.I)
_RULE_ROW = re.compile(r"[\s\-=_|+:]*")
_MAX_TABLE_ROWS = 40
# The age in brackets after a date of birth: "DOB 27/08/1962 (61)", "D.O.B. 3 Mar 1949 (75 y)".
_DOB_AGE = re.compile(
    r"\b(?:DOB|D\.O\.B\.?|date of birth|born)[\s:.]*"  # (a form's leader dots: "DOB ........... 12/12/1940   (84)")
    r"\d{1,4}[/.\s-](?:\d{1,2}|[A-Za-z]{3,9})[/.\s-]\d{2,4}\s*\(\s*(?:age\s*)?(\d{1,3})\s*(?:y|yo|yrs?|years?)?\s*\)",
    re.I,
)
# The age in years after a date of birth on a form's line: "DOB 02/05/1972   52 yrs".
_DOB_THEN_YEARS = re.compile(
    r"\b(?:DOB|D\.O\.B\.?|date of birth)\s*[:.]?\s*\d{1,4}[/.-]\d{1,2}[/.-]\d{2,4}[ \t,]+(?:age[ \t:]*)?(\d{1,3})[ \t]*(?:y|yo|yrs?|years?)\b",
    re.I,
)
# An age in a form's column: the number and its unit or the sex, a column gap before it.
_FORM_AGE = re.compile(r"(?:(?<=[ ]{2})|(?<=\t))(\d{1,3})[ \t]?(?:yrs?|years|y|(?-i:[MF]))(?=[ \t]{2,}|\t|[ \t]*$|[ \t]*[|,])", re.I | re.M)
_IDENTITY_LINE = re.compile(r"\b(?:DOB|D\.O\.B|born|MRN|NHI|NHS|URN?|patient|pt|sex|gender|bed[ \t]*\d{1,3})\b", re.I)
# An age at a life event, in a history: "moved to Cocodrie Landing at 6.", "first psychiatric
# admission at 22 after ...". The number ends the clause (no "pm", ":" or unit: "moved to the
# ward at 6 pm" is a time).
_AT_LIFE_EVENT = re.compile(
    r"\b(?i:moved|emigrated|immigrated|migrated|married|left[ \t]+school|left[ \t]+home|admission|arrested|widowed|divorced"
    r"|adopted|orphaned|expelled)\b(?P<between>[^.;]{0,40}?)\bat[ \t]+(?:age[ \t]+)?(\d{1,2})"
    r"(?=[ \t]*(?:[.,;)]|$)|[ \t]+(?:and|after|when|with|but|years?|yrs?)\b)",
    re.M,
)
_WARD_WORDS = re.compile(r"\b(?i:ward|bay|bed|room|unit|icu|hdu|ccu|theatre|recovery|ed|er|resus|level|floor|chair|home)\b")
# "he's 14", "she is 34.": a person and a bare number that ends the clause ("she's 14 weeks",
# "he is 5 ft 2" are not ages).
_IS_AGE = re.compile(
    r"\b(?i:he|she)(?:['’]s|[ \t]+(?:is|was|turned|turns))[ \t]+(\d{1,3})"
    r"(?=[ \t]*(?:[),.;!?]|$|[ \t]+(?:and|but|now|today|this|next|in|on|with|so)\b))",
    re.M,
)
_DECADE = re.compile(r"\bin\s+(?:his|her|their|the)\s+(?:(?:early|mid|late)[\s-]+)?(\d0)['’]?s\b", re.I)
_TENS = "twenty thirty forty fifty sixty seventy eighty ninety".split()
_ONES = "one two three four five six seven eight nine".split()
_WORDS = re.compile(
    r"\b((?:one[\s-]hundred(?:[\s-]and)?[\s-])?(?:" + "|".join(_TENS) + r")(?:[\s-](?:" + "|".join(_ONES)
    + r"))?|one[\s-]hundred)[\s-]years?[\s-]old\b",
    re.I,
)
# "14F Foley", "8F sheath": French gauge, not a 14-year-old girl.
_GAUGE_AFTER = re.compile(r"\s*(?:fr|french|foley|catheter|cath|sheath|tube|drain|cannula|stent|ngt|ng|idc|ett|g)\b", re.I)
_AGE_IN_MONTHS = re.compile(
    rf"(?<![Gg]estational )(?<!GESTATIONAL )\b(?i:(?:age|aged){_AGE_WHEN})[ \t]*:?[ \t]*(\d{{1,2}})[ \t]*(?i:months?|mths?|mos?|mo|weeks?|wks?)\b"
)
_NOT_AN_AGE_AFTER = re.compile(r"\s*(?:weeks?|wks?|/40|days?|months?|mo|mths?|hours?|%|mg|kg|cm)\b", re.I)
_NOT_AN_AGE_BEFORE = re.compile(r"(?:gestational|corrected|bone|mental|developmental|reading|skeletal)\s+$")


_RELATIVE_LINE = re.compile(
    r"\b(?:mother|father|mum|mom|dad|brother|sister|sibling|aunt|uncle|grand\w*|son|daughter|cousin|niece|nephew|"
    r"maternal|paternal|husband|wife|partner)\b",
    re.I,
)


# A relative's age after their name and a comma, in a family's list: "Sibling: Kiri-Ana
# Lendrum, 4, at Little Kōwhai Kindergarten", "Mother Itzel Quispe, 34, dental hygienist".
_KIN_NAME_AGE = re.compile(
    r"\b" + trie_regex(
        "mother father mum mom dad brother sister sibling siblings half-brother half-sister stepson stepdaughter stepfather stepmother "
        "son daughter husband wife partner grandson granddaughter grandmother grandfather".split()
    ) + r"\b[ \t]*:?[ \t]+"
    r"[A-Z][\w'’-]+(?:[ \t]+[A-Z][\w'’-]+){0,2},[ \t]*(\d{1,2})(?=[ \t]*(?:[,;)(]|$))",
    re.M,
)


def _line(text: str, at: int, reach: int = 160) -> str:
    """The line around ``at``, at most ``reach`` characters either side (a text of one huge
    line must not be read whole for every match)."""
    lo, hi = max(0, at - reach), min(len(text), at + reach)
    start = text.rfind("\n", lo, at) + 1 or lo
    end = text.find("\n", at, hi)
    return text[start : end if end >= 0 else hi]


def _cells(line: str) -> list[tuple[int, int]]:
    """(start, end) of each cell of a table row: words one space apart, cells two spaces or
    a tab apart."""
    return [m.span() for m in _CELL.finditer(line)]


def _age_columns(text: str) -> list[tuple[int, int]]:
    """(start, end) in ``text`` of the number in each row's cell under an "Age" column
    heading, row by row until a blank line or a line that is no table row."""
    found: list[tuple[int, int]] = []
    if "age" not in text.lower():
        return found
    lines = text.split("\n")
    starts = [0]
    for line in lines[:-1]:
        starts.append(starts[-1] + len(line) + 1)
    for i, line in enumerate(lines):
        if len(line) > 300 or "ge" not in line.lower():
            continue
        cells = _cells(line)
        if len(cells) < 3:
            continue
        column = next(((a, b) for a, b in cells if b - a <= 30 and _AGE_HEADER.match(line, a)), None)
        if column is None:
            continue
        for j in range(i + 1, min(len(lines), i + 1 + _MAX_TABLE_ROWS)):
            row = lines[j]
            if not row.strip():
                break
            if _RULE_ROW.fullmatch(row):
                continue  # "------  -----" under the heading
            row_cells = _cells(row)
            if len(row_cells) < 2:
                break
            for a, b in row_cells:
                # the cell under the heading, give or take a few characters of hand alignment
                if a < column[1] + 3 and b > column[0] - 3:
                    m = _AGE_CELL.fullmatch(row, a, b)
                    if m is not None:
                        found.append((starts[j] + m.start(1), starts[j] + m.end(1)))
                    break
    return found


def _words_value(words: str) -> int:
    parts = re.split(r"[\s-]+", words.lower())
    value = 0
    if "hundred" in parts:
        value, parts = 100, parts[parts.index("hundred") + 1 :]
    for p in parts:
        if p in _TENS:
            value += (_TENS.index(p) + 2) * 10
        elif p in _ONES:
            value += _ONES.index(p) + 1
    return value


@register("age")
class AgeDetector(RuleDetector):
    def detect(self, text: str) -> list[Span]:
        found: list[Span] = []

        def add(start: int, end: int, age: int, score: float, validated: bool = False) -> None:
            if 0 < age <= 125:
                found.append(self.span(start, end, Category.AGE, "OTHER", 1.0 if age > 89 else score, validated=validated))

        # An age said in so many words ("58 years old", "58 y/o", "aged 58", "fifty years
        # old") proves itself: the models must not out-vote it (Span.validated).
        for rx, score in ((_YEARS_OLD, 0.95), (_YO, 0.9)):
            for m in rx.finditer(text):
                add(m.start(1), m.end(1), int(m[1]), score, validated=True)
        for m in _AT_LIFE_EVENT.finditer(text):
            if not _WARD_WORDS.search(m["between"]):  # "moved to bay 4 at 10": a time on the ward
                add(m.start(2), m.end(2), int(m[2]), 0.8, validated=True)
        for m in _IS_AGE.finditer(text):
            add(m.start(1), m.end(1), int(m[1]), 0.85, validated=True)
        for m in _AGED.finditer(text):
            if not _NOT_AN_AGE_AFTER.match(text, m.end()) and not _NOT_AN_AGE_BEFORE.search(before(text, m.start(), 20)):
                add(m.start(1), m.end(1), int(m[1]), 0.9, validated=True)
        # The event word and the number after it say it is an age ("ovarian ca dx 55", "died
        # at 81"); a bare "d. 58" only on a line that names a relative (a pedigree row), as
        # "d. 3" may be a day elsewhere.
        for m in _AT_EVENT.finditer(text):
            if not _NOT_AN_AGE_AFTER.match(text, m.end()):
                sure = not m[0].lower().startswith("d.") or _RELATIVE_LINE.search(_line(text, m.start()))
                add(m.start(1), m.end(1), int(m[1]), 0.85, validated=bool(sure))
                last, end = int(m[1]), m.end()
                while (more := _MORE_AT_EVENT.match(text, end)) is not None and last < int(more[1]) <= 110:
                    if _NOT_AN_AGE_AFTER.match(text, more.end()):
                        break
                    add(more.start(1), more.end(1), int(more[1]), 0.85, validated=bool(sure))
                    last, end = int(more[1]), more.end()
        # A number under a table's "Age" heading ("Maternal aunt   Gittel F.   70   breast ca"):
        # the heading says what it is.
        for a, b in _age_columns(text):
            add(a, b, int(text[a:b]), 0.85, validated=True)
        for a, b in pipe_column(text, _PIPE_AGE_HEADER):
            if (m := _AGE_CELL.fullmatch(text, a, b)) is not None:
                add(m.start(1), m.end(1), int(m[1]), 0.85, validated=True)
        for m in _KIN_NAME_AGE.finditer(text):
            add(m.start(1), m.end(1), int(m[1]), 0.85, validated=True)
        for m in _DOB_THEN_YEARS.finditer(text):
            add(m.start(1), m.end(1), int(m[1]), 0.85, validated=True)
        for m in _FORM_AGE.finditer(text):
            # "PRYDDERCH, Gwilym   81 M   NHS 414 139 6427", "NHI HYG5438   86 yrs": a column of
            # a line that identifies the patient
            if _IDENTITY_LINE.search(_line(text, m.start())):
                add(m.start(1), m.end(1), int(m[1]), 0.8, validated=True)
        for m in _DOB_AGE.finditer(text):
            add(m.start(1), m.end(1), int(m[1]), 0.9, validated=True)
        for m in _SEX.finditer(text):
            if not _GAUGE_AFTER.match(text, m.end()) and "size" not in before(text, m.start(), 12):
                # "75F" on a line that identifies the patient (a date of birth, a record
                # number, a handover's bed) is the patient's age and sex, whatever the models say
                add(m.start(1), m.end(1), int(m[1]), 0.7, validated=bool(_IDENTITY_LINE.search(_line(text, m.start()))))
        for m in _Y_SEX.finditer(text):
            add(m.start(1), m.end(1), int(m[1]), 0.85, validated=True)  # "63y F": the sex makes the number an age
        for m in _YEARS_MONTHS.finditer(text):
            # "NHI HMC9059   4 yrs 7 mths": a child's age, sure on a line that identifies the
            # patient; a duration ("for 3 yrs 2 mths") is dropped by the guard, which reads the
            # word before
            add(m.start(1), m.end(1), int(m[1]), 0.8, validated=bool(_IDENTITY_LINE.search(_line(text, m.start()))))
        for m in _AGE_IN_MONTHS.finditer(text):
            add(m.start(1), m.end(1), 1, 0.85, validated=True)  # "Age 4 months 3 weeks": a baby's age (counted in months, under a year)
        for m in _DECADE.finditer(text):
            add(m.start(1), m.end(1), int(m[1]), 0.8, validated=bool(_IDENTITY_LINE.search(_line(text, m.start()))))
        if "old" in text.lower():  # spelt-out ages are rare; skip the scan when they cannot occur
            for m in _WORDS.finditer(text):
                add(m.start(1), m.end(1), _words_value(m[1]), 0.9, validated=True)
        return keep_longest(found)
