"""The clinical-term guard: eponyms and drug names are not PHI.

"Parkinson's disease", "Glasgow Coma Scale", "Foley catheter" and "Hodgkin lymphoma" contain
words that the name and place detectors rightly find elsewhere. A NAME, LOCATION or
ORGANIZATION span that lies inside an occurrence of a guarded term is dropped.

Quantities are not ages or dates either: a bare number labelled AGE or DATE is dropped when
a unit follows it ("15 pack-years", "82 kg", "20 units"), and a bare number labelled DATE
when a duration follows it ("diabetic for 12 years" is no date). Nor are clock times
("02:29"), blood pressures ("168/92", where no date has a part over 31), a bare DATE number
that no day or year can be ("104"), or a bare ID of three digits or fewer (a pulse, a
glucose, a bed; record numbers are longer). A score, a visual acuity or a fraction of a
week after its label ("GCS 14/15", "VA 6/12", "pain 5/10", "for 7/7") is no date, nor is an
ordinal no day can be ("50th centile"), nor two numbers that no date can be ("4/121", "24/30"); a diagnosis
code ("S62.6"), a code on a line of SNOMED, ICD, Read or procedure codes, or a gene variant
("c.4388T>G", "BRAF V600E") is no record number; a "contact" without a digit, "@" or a dot is no contact;
and a lone word that only says what kind of body it is ("Clinic", "Audiology") names none.
A fraction of a week ("review 2/52") is no date, a section of an act ("s.28"), a count of
people ("4 children") or of times ("x3") no age or identifier, a cited author ("Cooper et al.")
and a clinical abbreviation in capitals ("NSTEMI") no name, and a profession must name a job
("rice" and "forestry" name none).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Iterable

from ..categories import Category
from ..spans import Span, sort_spans
from ..checkdigits import snomed_concept_id
from .lexicons import clinical_acronyms, encoder_words, guard_terms, places, professions
from .calendar_words import MAORI_MONTH_NAME

GUARDED_CATEGORIES = frozenset({Category.NAME, Category.LOCATION, Category.ORGANIZATION})

# A lone eponym ("Foley", "Whipple") stays a name when a title stands before it: Dr Foley.
# (on the same line: a title ending one line names no one on the next, "...^ARJUN^^^DR" / "OBR|1")
_TITLE_BEFORE = re.compile(r"\b(?:Dr|Doctor|Mr|Mrs|Ms|Miss|Mx|Prof|Professor|Nurse|Sister)\.?[ \t]+$", re.I)
# So does an everyday word of the guard's after a word for a relative: "half-brother Kai (7)",
# "daughter Aroha" (te reo Māori "food", "love", and names).
_RELATIVE_BEFORE = re.compile(
    r"(?<![\w-])(?:son|daughter|dtr|brother|bro|sister|sis|half-brother|half-sister|stepson|stepdaughter|stepbrother"
    r"|stepsister|wife|husband|partner|mother|father|mum|mom|dad|grandson|granddaughter|niece|nephew|cousin|aunt|aunty"
    r"|auntie|uncle|moko|mokopuna|child|baby|twin)[ \t]*[:,(]?[ \t]*$",
    re.I,
)
_WORD = re.compile(r"[^\W\d_][\w'’]*")
_POSSESSIVE = re.compile(r"(?:['’]s|s['’]|['’])$")

# A measurement: a number and its unit, possibly compound and broken by a PDF line wrap
# ("2150 ng/L", "4.1 mmol/L", "90 mL/min/1.73m2", "12 x10^9/L"). Models trained on prose
# sometimes read a lone "ng" or "L" as an initial or a name.
_UNIT = r"(?:[munpµμ]?g|[muµμnp]?mol|[dmuµμ]?L|U|IU|mIU|mEq|units?|x10\^?\d+|10\^\d+|min|h|hr|d|kg|m2|1\.73m2|mmHg|%)"
_MEASURE = re.compile(rf"\d[\d.,]*\s*{_UNIT}(?:\s*/\s*{_UNIT})*(?![A-Za-z])")


# What may follow a bare number that is neither an age nor a date.
_PACK_YEARS = r"pack[\s\-]*(?:years?|yrs?)\b|py\b"
_AFTER_QUANTITY = re.compile(rf"\s*(?:{_PACK_YEARS}|(?:[munpµμ]?g|[muµμnp]?mol|[dmuµμ]?L|IU|mIU|mEq|units?|kg|cm|mm|mmHg|bpm|%)(?![A-Za-z0-9]))", re.I)
_AFTER_DURATION = re.compile(r"\s*(?:years?|yrs?|months?|mths?|weeks?|wks?|days?|hours?|hrs?)\b(?![\s\-]*old)", re.I)
_BARE_NUMBER = re.compile(r"\d{1,3}(?:\.\d+)?")


# "." is left out: "12.03" may be the 12th of March.
_CLOCK = re.compile(r"(?:[01]?\d|2[0-3])[:h][0-5]\d(?::[0-5]\d)?(?:\s*[ap]\.?m\.?)?(?:\s*hrs?)?", re.I)
_PRESSURE = re.compile(r"(\d{2,3})\s*/\s*(\d{2,3})")
_NUMBERS = re.compile(r"[\d/\s.]+")


def _is_pressure(value: str) -> bool:
    m = _PRESSURE.fullmatch(value)
    if m is None:
        return False
    high, low = int(m.group(1)), int(m.group(2))
    return 50 <= high <= 300 and 20 <= low <= 200 and high > low


_SCORE_LABEL = re.compile(
    r"(?:GCS|ESS|Epworth|MoCA|MMSE|AMTS|ACE-?III|pain|VAS|NRS|score[ds]?|VA|acuity|Snellen|power|"
    r"mood|anxiety|cravings?|distress|energy|motivation|fatigue|SUDS|"
    r"Apgars?|K10|PHQ-?9|GAD-?7|AUDIT(?:-C)?|NEWS2?|ECOG|Waterlow|Braden|Barthel|MRC|strength|grade|"
    r"RUE|LUE|RLE|LLE|RUL|LUL|RLL|LLL|"  # a limb's power: "(RUE 2/5, RLE 3/5)"
    r"rated|scored|out of)[\s:=\"'“‘]*(?:[RL]\s*)?$",
    re.IGNORECASE,
)
# UK shorthand for a span of days, weeks or months: "for 7/7", "x 3/52", "over 6/12",
# "review 2/52", "~5/7 days", "6/52 post op". Of 20 such fractions in the 51 hand-written
# notes one was a date, and a weekday stood before it ("Fri 5/7").
_DURATION_LABEL = re.compile(
    r"(?:\b(?:for|x|over|within|past|last|in|after|every|q|next|review|visit|follow[\s-]?up|f/?u|repeat|recheck|"
    r"approx\.?|about|off"
    # a dose's frequency before a course's length: "Cefalexin 500 mg TDS 10/7"
    r"|tds|tid|bd|bid|qds|qid|od|daily|mane|nocte|prn)|~|@)\s*$",
    re.IGNORECASE,
)
# A range of weeks, "4-6/52" (no month has 52 weeks' number), and of days or months after a
# label, "for 3-5/7", "review 3-6/12" ("4-6/12" alone may be the 4th to the 6th of December).
_DURATION_RANGE = re.compile(r"(?<![\d/])\d{1,2}[ \t]*[-–][ \t]*\d{1,2}[ \t]*/[ \t]*(52|7|12|24)(?![\d/])")
# A fraction of an inch: 5/8" board, 3/4 in.
_INCHES_AFTER = re.compile(r"[ \t]*(?:[\"″”]|(?:in|inch|inches)\b)")
# A time range written with dots, "10.00-12.15": a side whose minutes no month can be (00 or
# over 12) says the two are times, not "1.12-3.12", the 1st to the 3rd of December.
_DOT_TIME_RANGE = re.compile(r"(?<![\d.:/])((?:[01]?\d|2[0-3])\.([0-5]\d))[ \t]*(?:-|–|to)[ \t]*((?:[01]?\d|2[0-3])\.([0-5]\d))(?![\d.:/])")


def _dot_time_range(text: str, span: Span) -> bool:
    lo = max(0, span.start - 24)
    for m in _DOT_TIME_RANGE.finditer(text, lo, min(len(text), span.end + 24)):
        if m.start() <= span.start and span.end <= m.end() and any(int(x) == 0 or int(x) > 12 for x in (m.group(2), m.group(4))):
            return True
    return False


def _is_a_time_or_measure_not_a_date(text: str, span: Span, value: str) -> bool:
    """A DATE that is a range of weeks ("4-6/52"), a fraction of an inch ("5/8\"") or a dotted
    time range ("10.00-12.15")."""
    for m in _DURATION_RANGE.finditer(text, max(0, span.start - 8), min(len(text), span.end + 8)):
        if m.start() <= span.start and span.end <= m.end():
            # (no month is 24 either: "BF x 3-4/24", three or four times a day)
            if m.group(1) in ("52", "24") or _DURATION_LABEL.search(text, max(0, m.start() - 16), m.start()):
                return True
    if _SLASH_PAIR.fullmatch(value) and _INCHES_AFTER.match(text, span.end):
        return True
    return _dot_time_range(text, span)
_COURSE_BEFORE = re.compile(r"\b(?i:for|x|tds|tid|bd|bid|qds|qid|od|daily|mane|nocte)\s*$")
_AGO_AFTER = re.compile(r"\s*(?:ago|later|post|time|days?|weeks?|months?|hx|history|dose|old)\b", re.IGNORECASE)
_DURATION = re.compile(r"(\d{1,2})/(7|52|12)")
# Before "n/52" only a birth says it may be a month and a year ("DOB 4/52").
_BIRTH_BEFORE = re.compile(r"\b(?:DOB|D\.O\.B|born|birth)\b\W*$", re.IGNORECASE)


def _is_duration(text: str, span: Span, value: str, before: str) -> bool:
    """A fraction of a week, a month or a year: "2/52" (no month has 52 weeks' number), or
    "3/7" and "6/12" with a label or a unit word that says a span of time."""
    m = _DURATION.fullmatch(value)
    if m is None or int(m.group(1)) == 0:
        return False
    if int(m.group(1)) > int(m.group(2)):
        # a course longer than a week after its dose or "for": "TDS 10/7", "for 14/7" (after
        # "review" 10/7 is the tenth of July)
        return m.group(2) == "7" and int(m.group(1)) <= 28 and _COURSE_BEFORE.search(before) is not None
    if m.group(2) == "52":
        return not _BIRTH_BEFORE.search(before)
    return bool(_DURATION_LABEL.search(before) or _AGO_AFTER.match(text, span.end))
_FRACTION = re.compile(r"\d{1,2}\s*/\s*\d{1,2}(?:\s+\d{1,2}\s*/\s*\d{1,2})?")
_ORDINAL = re.compile(r"(\d{1,3})(?:st|nd|rd|th)", re.IGNORECASE)
# A row of an eye examination: "VA (unaided)   6/12   6/18", "BCVA R 6/7.5 L 6/9.5". Snellen
# fractions (6/… or 20/…) on a line that names visual acuity are acuities, however far apart.
_ACUITY_LINE = re.compile(r"\b(?:VA|BCVA|UCVA|visual acuity|acuity|acuities|Snellen|pinhole|vision)\b", re.IGNORECASE)
_SNELLEN = re.compile(r"(?:6|20)\s*/\s*\d{1,3}(?:\.\d)?(?:[\sRL:,/()-]+(?:6|20)\s*/\s*\d{1,3}(?:\.\d)?)*")
# "6/7.5": no day or month has a decimal point.
_DECIMAL_FRACTION = re.compile(r"\d{1,2}\s*/\s*\d{1,2}\.\d")
_ICD10 = re.compile(r"[A-TV-Z]\d{2}\.\d{1,4}[A-Z]?")
# Two numbers joined by a slash that no date can be: no day/month, month/day, month/year
# ("4/98") or month/four-digit year reading. Radiology image numbers ("series 4 (4/121)"),
# scores out of a maximum ("24/30", "16/24") and counts ("3/205") are caught here whatever
# their label.
_SLASH_PAIR = re.compile(r"(\d{1,4})\s*/\s*(\d{1,4})")
# A line that lists classification codes (SNOMED, ICD, Read, OPCS, CPT): its codes identify a
# diagnosis or a procedure, not a person.
_CODE_LINE = re.compile(r"\b(?:SNOMED(?:[- ]?CT)?|ICD-?(?:9|10|11)(?:-?(?:AM|CM))?|Read codes?|OPCS-?4?|CPT|HCPCS|ACHI)\b", re.IGNORECASE)
# A protein change after a gene symbol ("BRAF V600E", "KRAS G12D", "TP53 R175H").
_PROTEIN_CHANGE = re.compile(r"[ACDEFGHIKLMNPQRSTVWY]\d{1,4}(?:[ACDEFGHIKLMNPQRSTVWY*]|fs|del|dup)")
_GENE_BEFORE = re.compile(r"\b[A-Z][A-Z0-9]{1,7}(?:\s+(?:p\.)?)?\s*$")


# The end of a sentence: a code list does not reach past it.
_SENTENCE_END = re.compile(r"[.!?][ \t]+(?=[A-Z])")


def _after_a_code_label(text: str, at: int) -> bool:
    """Whether ``at`` is on a line of classification codes: after a code system's name on its
    line and in the same sentence. A text whose line breaks were lost (one huge line, a
    pasted export) put a hospital number 170 characters and two sentences after "SNOMED
    49436004." on the same "line", and the number went out as written."""
    last = None
    for last in _CODE_LINE.finditer(text, _line_start(text, at), at):
        pass
    return last is not None and _SENTENCE_END.search(text, last.end(), at) is None


def _no_date_reading(value: str) -> bool:
    m = _SLASH_PAIR.fullmatch(value)
    if m is None:
        return False
    a, b = m.group(1), m.group(2)
    x, y = int(a), int(b)
    readings = (
        1 <= x <= 31 and 1 <= y <= 12 and len(b) <= 2,  # day/month
        1 <= x <= 12 and 1 <= y <= 31 and len(b) <= 2,  # month/day
        1 <= x <= 12 and len(b) == 2,  # month/two-digit year
        1 <= x <= 12 and len(b) == 4 and 1900 <= y <= 2099,  # month/year
        len(a) == 4 and 1900 <= x <= 2099 and 1 <= y <= 12,  # year/month
    )
    return len(a) <= 2 and not any(readings) or len(a) > 2 and not readings[-1]


# A clock time or a range of them: "14:30-15:40", "(01:02 -> 05:48)". No part of one is a date.
# A roster's or a log's range of four-digit times, "0730-0830", "1700-1730", unless a side
# could be a year ("1939-1945", "2019-2021").
_TIME_RANGE = re.compile(
    r"(?<![\d:])(?:[01]?\d|2[0-3]):[0-5]\d(?:\s*(?:-|–|->|to)\s*(?:[01]?\d|2[0-3]):[0-5]\d)?(?![\d:])"
    r"|(?<![\w:/.-])(?:(?!19|20)(?:[01]\d|2[0-3])[0-5]\d\s*(?:-|–|to)\s*(?:[01]\d|2[0-3])[0-5]\d"
    r"|(?:[01]\d|2[0-3])[0-5]\d\s*(?:-|–|to)\s*(?!19|20)(?:[01]\d|2[0-3])[0-5]\d)(?![\w:/.-])"
)
# (one side that cannot be a year makes both times: a night shift "1900-0730"; "1998-2003" is years)
# A clock time with its unit, "found at approx 0630hrs", "1400 h": no date, place or number of anyone's.
_CLOCK_HOURS = re.compile(r"(?<![\w:/.-])(?:[01]\d|2[0-3])[0-5]\d[ \t]?(?:hrs?|h)\b")
# A clock time with "a"/"p" for am/pm as message apps write it: "9:55a", "12:05p".
_CLOCK_AMPM = re.compile(r"(?<![\w:/.-])(?:[01]?\d|2[0-3]):[0-5]\d[ \t]?(?i:a|p|am|pm|a\.m\.|p\.m\.)(?![\w])")
# Chemotherapy regimens, and a cycle's day: "FOLFIRINOX C4D1", "R-CHOP C2".
_REGIMENS = frozenset(
    "FOLFIRINOX FOLFOX FOLFIRI FOLFOXIRI CAPOX XELOX CAPIRI CHOP R-CHOP R-CVP ABVD BEACOPP FEC FEC-T EC AC AC-T CMF BEP "
    "TCH TCHP ECF ECX EOX DCF FLOT GEMCAP CARBO/PEM R-BENDA BR VRD VCD DARA-VRD".split()
)
_CYCLE_DAY = re.compile(r"C\d{1,2}(?:D\d{1,2})?|D\d{1,2}")
# Gravida and para: "G1P0", "G3P2012", "G2 P1".
_GRAVIDA_PARA = re.compile(r"G\d{1,2}[ \t]?P\d{1,4}(?:[ \t]?A\d)?")
# The day of the week before a time: "Mon  0730-0830" of a roster is a time, not a date.
_WEEKDAY = re.compile(r"(?i:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)(?i:day)?\.?[ \t]+")
# A gene variant in HGVS notation: "c.4388T>G", "p.Arg175His", "c.5266dupC".
_HGVS = re.compile(r"\b[cgpmnr]\.[\w*>_+-]+")
# A measurement just before a bracketed "n/m": a radiology image reference, "9 mm (5/44)".
_MEASURED_BEFORE = re.compile(r"\d(?:\.\d+)?\s*(?:mm|cm)\b[^()\n]{0,24}\($")
# Numbers said to be a duration before a year unit: "quit 15 y", "exposure ~6 yrs", "worked
# 30 yrs at the mill", "married 52 years".
_DURATION_BEFORE = re.compile(
    r"(?:\b(?:quit|for|over|past|last|since|about|approx\.?|approximately|x|worked|served|married|lived|smoked|"
    r"drank|drinking|smoking|employed|sober|clean|abstinent)|~)\s*$",
    re.IGNORECASE,
)
_YEARS_AFTER = re.compile(r"\s*(?:y|yrs?|years?)\b(?![\s-]*old)", re.IGNORECASE)
# A label that makes a short number something to call: "ph", "ext", "bleep 2217".
_CONTACT_LABEL = re.compile(r"\b(?:ph|phone|tel|telephone|mob|mobile|cell|fax|pager|page|bleep|ext|extn|extension|x|call|contact|dial)\b\W{0,4}$", re.IGNORECASE)
# Table cells: numbers of one to three digits apart by a layout gap ("30   45").
_CELLS = re.compile(r"\d{1,3}(?:(?:\t| {2,})\d{1,3})+")


def _inside(rx: re.Pattern[str], text: str, span: Span, reach: int = 24) -> bool:
    """Whether ``span`` lies wholly inside one match of ``rx`` near it."""
    lo = max(0, span.start - reach)
    return any(m.start() <= span.start and span.end <= m.end() for m in rx.finditer(text, lo, min(len(text), span.end + reach)))


# Degrees and credentials written after a name ("Lorenzo Bevilacqua, MD, MPH", "Chaplain
# B. Okoro-Vance, M.Div., BCC"): the name rules stop before them, and a name span of them
# alone is no one's.
CREDENTIALS = (
    "MD", "M.D.", "DO", "RN", "NP", "PA-C", "MBChB", "MB ChB", "MBBS", "FRACP", "FRACS", "FRCP", "FRCS", "FRCSEd",
    "FRANZCP", "FRNZCGP", "FRACGP", "FRCPC", "FACP", "FACS", "FRCA", "FANZCA", "PhD", "DNP", "CNS", "RM", "MRCP",
    "MRCGP", "MRCS", "DPhil", "APRN", "LPN", "CNP", "PharmD", "DDS", "DMD", "DPT", "BPharm", "BPhty",
    "M.Div.", "MDiv", "D.Min.", "BCC", "LCSW", "LICSW", "LMSW", "MSW", "PsyD", "DPM", "CNM", "CRNA", "FRCOphth",
    "FRCR", "FRCPath", "MRCPsych", "CCC-SLP", "MPH",
    # colleges' fellowships and memberships of Australia, New Zealand, the UK and Ireland
    "FRANZCR", "FRANZCOG", "FACEM", "FCICM", "FAFRM", "FAChPM", "FACD", "FACRRM", "FRCPCH", "FRCOG",
    "MRCOG", "FRCEM", "FFICM", "FRCPsych", "FRCPI", "FRCSI", "MRCPI", "FRCGP", "FDSRCS", "FAAP", "FACC",
    "FACOG", "FACR", "RDMS", "RDCS", "RVT", "MLS(ASCP)", "MLS", "RCIS", "RCES", "SCPHN", "FNP", "FNP-C",
    # nurses' specialty certifications ("Kateri Begay, RN, OCN")
    "OCN", "CCRN", "CEN", "CNOR", "RNC", "PCCN", "CHPN", "WOCN", "CWOCN", "CDCES", "CDE", "IBCLC", "BSN", "MSN",
    # advanced practitioners in the UK ("K. Idowu ANP")
    "ANP", "ACP", "ENP",
    # nursing posts written after the name in Australia and New Zealand ("Talia Wirihana ANUM")
    "ANUM", "NUM", "CNM", "CNC", "CNE",
)
_CREDENTIAL_KEYS = frozenset(c.replace(".", "").replace(" ", "").casefold() for c in CREDENTIALS)
_CREDENTIAL_PARTS = re.compile(r"[^\s,;/]+")


_WORD_BEFORE = re.compile(r"(?<![\w.])([A-Za-z][\w.]*)[ \t]+$")


def _only_credentials(text: str, span: Span) -> bool:
    """A name (or a place, an organisation, an identifier) that is only degrees or
    credentials written after a name and its comma ("..., M.Div", "..., MD, MPH", "Loretta
    Hatfield, LCSW"). A state's letters are left as a place ("MD" is Maryland too); and
    initials that sign a log ("-RM") are someone's."""
    if span.category not in (Category.NAME, Category.LOCATION, Category.ORGANIZATION, Category.ID):
        return False
    if not text[max(0, span.start - 3) : span.start].rstrip(" \t").endswith(","):
        # ... or after another credential: "S. Pritchard-Evans RN SCPHN"
        prev = _WORD_BEFORE.search(text, max(0, span.start - 16), span.start)
        if prev is None or prev[1].replace(".", "").casefold() not in _CREDENTIAL_KEYS:
            return False
    parts = _CREDENTIAL_PARTS.findall(text, span.start, span.end)
    if span.category is not Category.NAME and any(_state().fullmatch(p) for p in parts):
        return False  # "MD" after a town's comma is Maryland
    return bool(parts) and all(p.replace(".", "").casefold() in _CREDENTIAL_KEYS for p in parts)


@lru_cache(maxsize=1)
def _state() -> re.Pattern[str]:
    from .rules.postcodes import STATE_ABBR  # (the rules import this module)

    return re.compile(STATE_ABBR)


# A clinician's job title by its ending: "Histopathologist", "Physiotherapist", "Radiographer",
# "Paediatrician". Read as a name when it follows one ("Dr Adeyemi, Consultant Histopathologist").
# A clinician's title ("Rheumatologist", "Podiatrist") and a department's name ("Cardiology",
# "Orthopaedics", "Psychiatry"), read by this guard, the staff-name rule and completion; and the
# other health professions by name ("Denturist", "Hygienist", "Chiropractor").
TITLE_WORD = (
    r"(?:[A-Za-z]{3,}(?:ologist|ician|iatrist|ographer|apist|ometrist|ogist)s?"
    r"|(?i:(?:dent|dentur|hygien|orthodont|orthopt|prosthet|orthot|pharmac|phlebotom|anaesthet|anesthet|nutrition"
    r"|acupunctur|chiropod)ists?|(?:chiropractor|osteopath|naturopath)s?))"
)
DEPARTMENT = r"(?i:[a-z]+(?:ology|ologies|ics|iatry)|surgery|medicine)"
_TITLE_WORD = re.compile(TITLE_WORD)
DEPARTMENT_WORD = re.compile(DEPARTMENT)


# A clinician's role written in title case after a name: "Consultant Colorectal Surgeon",
# "Clinical Nurse Specialist". Read as an organisation or a name; it names neither.
_ROLE_HEAD = frozenset(
    "surgeon physician registrar consultant specialist practitioner therapist nurse midwife pharmacist worker visitor "
    "coordinator educator assistant officer dietitian dietician paramedic adjuster manager director administrator "
    "receptionist secretary adviser advisor navigator planner".split()
)
_ROLE_WORDS = frozenset(
    "consultant senior junior clinical specialist general advanced charge staff lead associate health district community "
    "practice public school mental occupational dental research ward theatre home visiting liaison discharge care "
    "support social claims case sr sr. snr unit team programme program medical nursing patient".split()
)


def _is_job_title(text: str, span: Span) -> bool:
    if span.category not in (Category.NAME, Category.ORGANIZATION):
        return False
    parts = [p.strip(",.;:()") for p in text[span.start : span.end].split()]
    if not parts:
        return False
    if _SPECIALTY_BEFORE.search(text, max(0, span.start - 40), span.start):
        return True  # "Consultant in Old Age Psychiatry": the post's specialty
    if len(parts) == 1 and text[span.start - 1 : span.start] == "(" and DEPARTMENT_WORD.fullmatch(parts[0]):
        return True  # a clinician's department in brackets after the name: "Mr S. Venkatesan (Orthopaedics)"
    if all(_TITLE_WORD.fullmatch(p) for p in parts):
        return True  # "Rheumatologist" read as a name or a body
    # the head ends it ("Nurse", "Rheumatologist"); the words before it say what kind
    # ("Colorectal", "Clinical Nurse", "Public Health Nurse", "Consultant Rheumatologist")
    return (parts[-1].casefold() in _ROLE_HEAD or (len(parts) > 1 and _TITLE_WORD.fullmatch(parts[-1]))) and all(
        p.casefold() in _ROLE_WORDS or p.casefold() in _ROLE_HEAD or _TITLE_WORD.fullmatch(p) or p.islower() or _CLINICAL_ADJECTIVE.fullmatch(p)
        for p in parts[:-1]
    )


_SPECIALTY_BEFORE = re.compile(r"\b(?:Consultant|Specialist|Registrar|Fellow|Lecturer|Senior[ \t]+Lecturer|Trainee|Physician)[ \t]+in[ \t]+$")
# Adjectives of specialties: "Colorectal", "Vascular", "Paediatric", "Orthopaedic".
_CLINICAL_ADJECTIVE = re.compile(r"[A-Z][a-z]+(?:al|ic|ar|ary|ive)")


# Dates that belong to a product, not a person: "Batch AB123 exp 03/2026", "use by 12/25".
_EXPIRY_BEFORE = re.compile(r"\b(?:exp|expiry|expires|expiring|expiration|use[\s-]by|best[\s-]before|BB)\b\.?\s*(?:date)?\s*[:=-]?\s*$", re.IGNORECASE)
# The year of an act, a regulation or a guideline: "Equality Act 2010", "BSR 2015 guideline".
# An act's short form counts too: "Section 3 MHA 1983", "MCA 2005", "PACE 1984".
_ORDER_BEFORE = re.compile(
    r"\b(?i:order|CTO|certificate|cert|licen[cs]e|DoLS|authori[sz]ation|permit|visa|warrant|tribunal|section|plan|referral|enduring)\b"
)
_LAW_BEFORE = re.compile(r"\b(?:Act|Acts|Regulations?|Regs|Code|Order|Rules|Bill|Amendment|MHA|MCA|PACE|HIPAA)\s*(?:\(\w+\)\s*)?$")
_REVISION_BEFORE = re.compile(r"\b(?i:rev\.?|revised|revision|version|ver\.?)[ \t]*$")
_GUIDELINE_AFTER = re.compile(r"\)?\s*(?:guidelines?|guidance|criteria|consensus|classification|recommendations?|edition|ed\.|version)\b", re.IGNORECASE)
# A weekday alone says nothing of a person ("Next visit Tue/Fri").
# (and their plurals: "visits mum Sundays")
_WEEKDAYS = re.compile(
    r"(?:(?:mon|tues?|wed|weds|thu|thur|thurs|fri|sat|sun)(?:days?)?|wednesdays?|thursdays?|saturdays?)\.?(?:\s*(?:/|&|and|or|,|-)\s*"
    r"(?:(?:mon|tues?|wed|weds|thu|thur|thurs|fri|sat|sun)(?:days?)?|wednesdays?|thursdays?|saturdays?)\.?)*",
    re.IGNORECASE,
)
# A tooth in Palmer or FDI notation after a dental word: "LR6", "UL7", "tooth 36".
_TOOTH = re.compile(r"(?:[UL][RL]\s?[1-8][A-E]?|[1-4][1-8]|[5-8][1-5])")
_DENTAL_BEFORE = re.compile(r"\b(?:tooth|teeth|molar|premolar|incisor|canine|wisdom|extraction of|extract|XLA|RCT|crown on|filling)\b\W*$", re.IGNORECASE)


# A gestation or a range of them: "28/40", "13+2/40", "36+5", "24-28/40".
# A pregnancy's weeks (and days): "38/40", "36-37/40", "36+2", "38w2d", "38 wk 2 d".
_GESTATION = re.compile(
    r"\d{1,2}(?:\+\d)?(?:\s*[-–]\s*\d{1,2}(?:\+\d)?)?\s*/\s*40|\d{1,2}\+[0-6]|\d{1,2}[ \t]?(?i:w|wk|wks)[ \t]?\d[ \t]?[dD]"
)
# A score's value right after its label: "K10 24", "PHQ-9 12", "MoCA 26", "NEWS2 5".
_SCORE_VALUE_BEFORE = re.compile(
    r"\b(?:K10|K-10|PHQ-?9|PHQ-?2|GAD-?7|AUDIT(?:-C)?|NEWS2?|PEWS|MEWS|MoCA|MMSE|AMTS|ACE-?III|GCS|ESS|EPDS|"
    r"HoNOS|DASS(?:-21)?|CURB-?65|Wells|ABCD2|CHA2DS2-VASc|HAS-BLED|Rockall|Blatchford|APGAR|Barthel|Waterlow|Braden|Norton)"
    r"\s*(?:score)?\s*[:=]?\s*$",
    re.IGNORECASE,
)
# Where in a hospital a patient lies, before its number ("Bed 12", "Rm 4", "Side room 3"): the
# one list for the guards below and the handover-line rule (rules/names.py).
BED_WORDS = r"bed|bd|room|rm|bay|cubicle|cub|cot|chair|pod|side[ \t]+room"
# A room, bed or bay number: "Room 12", "bed 4", "Bay 3".
_PLACE_NUMBER_BEFORE = re.compile(rf"\b(?:{BED_WORDS}|level|floor|theatre|OR)\s*(?:no\.?|number|#)?\s*$", re.IGNORECASE)


# What a date must hold: a digit, a month, or a day that names a date (a holiday, a season).
_DATE_WORD = re.compile(
    r"\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\b|"
    r"\b(?:christmas|xmas|easter|anzac|thanksgiving|new\s+year|boxing|waitangi|matariki|diwali|eid|ramadan|hanukkah|"
    r"passover|halloween|spring|summer|autumn|fall|winter|yesterday|today|tomorrow|tonight)\b",
    re.IGNORECASE,
)
_NUMBER_WORD = re.compile(r"\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|teen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred)", re.IGNORECASE)


def _has_no_date_or_age_in_it(text: str, span: Span) -> bool:
    """A DATE with no digit, month or dated day in it ("Born", "Dest"), an AGE with no digit
    or number word, or an ID that is one ordinary word ("Serial" of "Serial PZL612847H"):
    the model read a neighbour's label, not a value."""
    value = text[span.start : span.end]
    if any(c.isdigit() for c in value):
        return False
    if span.category == Category.DATE:
        return _DATE_WORD.search(value) is None and MAORI_MONTH_NAME.search(value) is None
    if span.category == Category.AGE:
        return _NUMBER_WORD.search(value) is None
    if span.category == Category.ID:
        return value.isalpha() and value.casefold() in encoder_words()
    return False


# Habits are no jobs, though "ex-" stands before both ("ex-smoker", "ex-shearer"). (Dropping a
# model's profession where nothing says a job was measured too: on the hand-written notes it
# lost more real jobs than it removed false ones, so only habits go.)
_HABITS = frozenset(
    "smoker smokers drinker drinkers user users vaper vapers gambler gamblers "
    # and states of life, written where a job would be ("retired dairy farmer and widower")
    "widower widowers widow widows divorcee divorcees retiree retirees retired pensioner pensioners".split()
)


def _is_a_habit(text: str, span: Span) -> bool:
    """A habit, not a job: "smoker", "lifelong non-smoker", "ex-drinker"."""
    if span.category != Category.PROFESSION:
        return False
    words = text[span.start : span.end].split()
    return bool(words) and words[-1].casefold().rsplit("-", 1)[-1] in _HABITS


_SCHOOL_YEAR = re.compile(r"Y(?:[1-9]|1[0-3])")
_SCHOOL_YEAR_WORDS = re.compile(r"(?i:year|yr|grade)[ \t]*(?:[1-9]|1[0-3])")
_SCHOOL_YEAR_BEFORE = re.compile(r"\b(?:Year|Yr|Grade|year|grade)[ \t]*$")
_CENTILE_AFTER = re.compile(r"(?:\s+(?:to|and|-|–)\s+\d{1,3}(?:st|nd|rd|th))?\s*(?:centile|percentile|%ile|pctl)", re.IGNORECASE)
_WARD_BEFORE = re.compile(r"\bward\s+[\w-]{1,4}\s*\(\s*$", re.IGNORECASE)
_CLOSE_BRACKET = re.compile(r"\s*\)")
_ONE_WORD = re.compile(r"[A-Z][\w'’-]+")


# Words for a relative that are also first names ("Nan", "Nana", "Koro", "Sis"): a relation
# where it is written in lower case, followed by the relative's name in brackets, or after a
# possessive ("his nan's place", "Nan (Dot) says", "my Nana").
_KIN_WORDS = frozenset("nan nana nanna gran granny grandma grandpa pop poppa koro kuia mum mom mam dad sis bro aunty auntie uncle".split())
_BRACKET_AFTER = re.compile(r"[ \t]*\([ \t]*[A-Z]")
_POSSESSIVE_KIN = re.compile(r"\b(?i:his|her|their|my|your|our|pt'?s|patient'?s)[ \t]+$")


def _is_not_anyones(text: str, span: Span) -> bool:
    """Dates and numbers tied to a product, a law or the week, not to a person: a gestation,
    a score's value after its label, a room or bed number, an expiry
    date after its label, the year of an act or a guideline, a weekday alone, a tooth; and
    an identifier too short to single anyone out (fewer than three digits in fewer than six
    characters: a gene such as "MLH1", a school year "Y3", a label "SN"); a school year or a
    centile read as an age; the name of a ward in brackets after its number."""
    value = text[span.start : span.end]
    before = text[max(0, span.start - 24) : span.start]
    if span.category in (Category.DATE, Category.AGE) and _GESTATION.fullmatch(value):
        return True
    if span.category in (Category.DATE, Category.AGE, Category.ID) and _BARE_NUMBER.fullmatch(value):
        if _SCORE_VALUE_BEFORE.search(before) or _PLACE_NUMBER_BEFORE.search(before):
            return True
    if span.category == Category.DATE:
        if _EXPIRY_BEFORE.search(before) and not _ORDER_BEFORE.search(text, max(0, span.start - 48), span.start):
            return True  # a product's expiry; an order's or a licence's ("CTO expires 30/06/25") is a date of the person's
        if re.fullmatch(r"(?:19|20)\d\d", value) and (_LAW_BEFORE.search(before) or _GUIDELINE_AFTER.match(text, span.end)):
            return True
        if re.fullmatch(r"(?:19|20)\d\d", value) and _REVISION_BEFORE.search(before):
            return True  # "protocol ... rev. 2024": a document's edition
    if span.category in (Category.DATE, Category.AGE) and _SCHOOL_YEAR_WORDS.fullmatch(value):
        return True  # "Tobias (Year 9)": a school year
    if span.category == Category.AGE and value.isdigit() and int(value) <= 13 and _SCHOOL_YEAR_BEFORE.search(text, max(0, span.start - 8), span.start):
        return True  # "Year 11 at Bendigo South East College": the year alone read as an age
    if span.category in (Category.DATE, Category.NAME, Category.LOCATION, Category.ORGANIZATION) and _WEEKDAYS.fullmatch(value.strip()):
        return True  # "visits Tues & Sat", read as a place too
    if span.category in (Category.AGE, Category.DATE, Category.ID) and _TOOTH.fullmatch(value) and (
        _DENTAL_BEFORE.search(before) or value[:1] in "UL"
    ):
        return True
    if span.category == Category.AGE and (_SCHOOL_YEAR.fullmatch(value) or (_ORDINAL.fullmatch(value) and _CENTILE_AFTER.match(text, span.end))):
        return True  # a school year ("St Brannock's Primary, Y3"), a centile ("from 50th to 25th centile")
    if span.category == Category.NAME and _WARD_BEFORE.search(before) and _CLOSE_BRACKET.match(text, span.end) and _ONE_WORD.fullmatch(value):
        return True  # a ward's name: "Ward 7 (Trelawney)"
    if span.category == Category.NAME and value.casefold() in _KIN_WORDS and (
        value.islower() or _BRACKET_AFTER.match(text, span.end) or _POSSESSIVE_KIN.search(before)
    ):
        return True  # a relation, not a name: "at his nan's place", "Nan (Dot) says"
    if span.category == Category.ID and _SCALE_THEN_VALUE.fullmatch(value):
        return True  # "K10 31": a questionnaire and its score
    if span.category == Category.ID and _TEST_NAME.fullmatch(value):
        return True  # a test named by its minutes: "baseline 6MWT 412 m"
    if span.category == Category.ID and _SECTION.fullmatch(value):
        return True  # a section of an act: "police used s136", "detained under s2"
    if span.category == Category.ID:
        alnum = [c for c in value if c.isalnum()]
        # alone: a piece of a longer number ("1" of "4948 63413 4 1") is kept with the rest
        near = text[max(0, span.start - 2) : span.start] + text[span.end : span.end + 2]
        if sum(c.isdigit() for c in alnum) < 3 and len(alnum) < 6 and not any(c.isdigit() for c in near) and not _SPECIMEN_BEFORE.search(before):
            return True
    return False


# A date, then a clock time ("12/02/25 0915", "14/11/2025 @ 1602", "NOV 20, 2024@09:31:07",
# "21/11 0215", "Mon the 11th 0830"): message logs, result headers and EHR note headers stamp
# each entry so, and a model reads the time as an ID or as more of the date. A date without
# its year takes only a time that cannot be a year ("21/11 0215", not "21/11 2019").
_STAMP_SEP = r"(?:[ \t]+(?:at[ \t]+|@[ \t]*)?|[ \t]*@[ \t]*)"
_NOT_A_YEAR = r"(?:(?:0\d|1[0-8])[0-5]\d|2[1-3][0-5]\d|(?:[01]?\d|2[0-3]):[0-5]\d)(?![\w/.-])"
DATE_THEN_TIME = re.compile(
    r"(?P<date>\d{1,2}[/.-]\d{1,2}[/.-](?:\d{4}|\d{2})|\d{1,2}[ \t]+[A-Za-z]{3,9}\.?[ \t]+\d{4}|\d{4}-\d{2}-\d{2}"
    r"|[A-Za-z]{3,9}\.?[ \t]+\d{1,2},?[ \t]+\d{4}"
    rf"|(?:\d{{1,2}}/\d{{1,2}}|\d{{1,2}}(?:st|nd|rd|th)|\d{{1,2}}[ \t]+(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]{{0,6}}\.?)(?={_STAMP_SEP}{_NOT_A_YEAR}))"
    rf"{_STAMP_SEP}(?P<time>(?:[01]\d|2[0-3])[0-5]\d|(?:[01]?\d|2[0-3]):[0-5]\d(?::[0-5]\d)?)(?:[ \t]*(?:h|hrs?))?(?![\w:/.-])"
)


# A nursing or phone log whose lines open with a 24-hour clock time ("0700 pt awake",
# "1830 handed over to ..."): the times are no dates, ages, places or numbers of anyone's.
# A column of years ("2015 CABG", "2019 TKR") also reads as times, so the column counts as
# times only when one of them cannot be a year (before 1900: "0700", "1100").
_LINE_TIME = re.compile(r"(?m)^[ \t]*((?:[01]\d|2[0-3])[0-5]\d)(?=[ \t]*(?:hrs?\b|h\b)?[ \t:,-]*[ \t]+\S)")


@lru_cache(maxsize=2)
def log_times(text: str) -> frozenset[tuple[int, int]]:
    """Where the clock times that open a log's lines stand, (start, end) each. Kept for the
    last two texts: propagation asks the guard about each span it adds, and a search of a
    whole huge text per span took the product of the two."""
    found = [(m.start(1), m.end(1), int(m.group(1))) for m in _LINE_TIME.finditer(text)]
    if len(found) < 2 or all(v >= 1900 for _, _, v in found):
        return frozenset()
    return frozenset((a, b) for a, b, _ in found)


def opens_a_line(text: str, at: int) -> bool:
    """Whether only spaces or tabs stand between the start of its line and ``at``."""
    i = at
    while i > 0 and text[i - 1] in " \t":
        i -= 1
    return i == 0 or text[i - 1] == "\n"


def _time_after_date(text: str, span: Span) -> bool:
    """An identifier, contact or age that is only the clock time stamped after a date."""
    if span.category not in (Category.ID, Category.CONTACT, Category.AGE):
        return False
    for m in DATE_THEN_TIME.finditer(text, max(0, span.start - 24), min(len(text), span.end + 6)):
        if m.start("time") == span.start and m.end("time") == span.end:
            return True
    return False


_CELL_BEFORE = re.compile(r"\d(?:\t|[ ]{3,})$")
_CELL_AFTER = re.compile(r"(?:\t|[ ]{3,})\d")


def _is_table_cell(text: str, span: Span) -> bool:
    """A number of five digits or fewer with a number in the next column on either side."""
    if not re.fullmatch(r"\d{1,5}", text[span.start : span.end]):
        return False
    return bool(_CELL_BEFORE.search(text, max(0, span.start - 12), span.start) or _CELL_AFTER.match(text, span.end))


# Registration bodies' and records' labels, which a model sometimes marks alone as the
# identifier ("NCPDP 0533871"); completion also cuts them off the front of an identifier.
ID_LABELS = frozenset(
    "NCNZ SWRB GDC GMC NMC HCPC MCNZ AHPRA NPI DEA NCPDP MRN NHI NHS UR URN CHI EMPI DVA IRD SSN TFN CRN NDIS IHI REG LIC".split()
)
# An age just before a lone "M" or "F" ("71 y.o. F"): the letter is the sex.
_AGE_BEFORE_SEX = re.compile(r"\d{1,3}[ \t]*(?:y\.?o\.?|y/o|yrs?|years?(?:[ \t]+old)?)?[ \t]*$")
# A value that goes on right after the span ("2211" of "2211-MA").
_JOINED_AFTER = re.compile(r"[-/\w]")
# A lab's or a specimen's label, after which a short code is the lab's number ("Lab no: AE17").
_SPECIMEN_BEFORE = re.compile(r"\b(?i:lab|specimen|accession|sample)[ \t]*(?i:no\.?|number|#|id)?[ \t]*[:#]?[ \t]*$")
_YEAR_MAKE = re.compile(
    r"(?:19|20)\d\d[ \t]+(?:Honda|Toyota|Ford|Holden|Mazda|Nissan|Subaru|Hyundai|Kia|Chevrolet|Chevy|Dodge|Jeep"
    r"|Volkswagen|VW|BMW|Mercedes|Audi|Mitsubishi|Suzuki|Tesla|Vauxhall|Skoda|Peugeot|Renault|Volvo|Lexus|GMC|Ram)\b"
)
_AMOUNT_WITH_UNIT = re.compile(r"\d+(?:\.\d+)?(?:g|kg|mg|mcg|ug|ml|mL|L|cm|mm|mmHg|mmol|bpm|kcal)")
_CLOCK_12H = re.compile(r"(?:[1-9]|1[0-2])(?:[:.][0-5]\d)?[ \t]?(?i:am|pm|a\.m\.?|p\.m\.?)")
# The item codes of a US home-health assessment (OASIS: "M0066", "GG0130").
_FORM_ITEM = re.compile(r"(?:M|GG)\d{4}[A-Z]?")
_FIELD_START = re.compile(r"(?:^|\n|\t|[ ]{2}|\[[ xX✓]?\])[ \t]*$")  # (or a checkbox: "[X] M1033")


# A four-digit 24-hour time standing alone: not a piece of a phone number ("0431 608 214"),
# a date or a decimal.
_BARE_CLOCK = re.compile(r"(?<![\d/.:-])(?<!\d[ ])(?:[01]\d|2[0-3])[0-5]\d(?![ ]?\d)(?![/.:-]?\d)")
# (verbs of a shift's or a flight's events, not any past tense: "operated 2019" is a year)
_TIME_VERB_BEFORE = re.compile(
    r"(?<![\w-])(?:(?i:informed|notified|called|phoned|rang|paged|arrived|departed|landed|conveyed|closed|handed[ \t]+over"
    r"|dispatched|cleared|woke|settled|checked|administered|given)|at|@|to[ \t]+[A-Z]{2,4})[ \t]+$"
)
# ... but the year of a life's event: "retired 2019", "diagnosed 2011", "since 1998"
_YEAR_EVENT_BEFORE = re.compile(
    r"(?<![\w-])(?i:retired|diagnosed|dx|married|widowed|divorced|emigrated|migrated|immigrated|moved|born|died|"
    r"started|stopped|ceased|quit|commenced|since|in|from|until|till|during|year|circa|c\.)[ \t]+$"
)


_BAR_BEFORE = re.compile(r"\|[ \t]*$")
_BAR_AFTER = re.compile(r"[ \t]*\|")


@lru_cache(maxsize=2)  # (propagation asks the guard about each span it adds, with the whole text)
def _clock_times(text: str) -> tuple[frozenset[tuple[int, int]], bool]:
    """(where the times of a line of times stand, whether the text writes 24-hour times): a
    retrieval or ambulance record's row "Call 1322 | Accepted 1326 | Wheels up 1349", an obs
    chart's "Time | 1614 | 1640 | 1715", three times or more on a line, one of them no year; the text writes such
    times where three stand anywhere that no year can be (before 1900)."""
    rows: set[tuple[int, int]] = set()
    early = 0
    pos = 0
    for line in text.split("\n"):
        found = [(m.start() + pos, m.end() + pos) for m in _BARE_CLOCK.finditer(line)]
        before_1900 = sum(1 for a, b in found if int(text[a:b]) < 1900)
        early += before_1900
        if len(found) >= 3 and before_1900:  # (not a list of years: "admissions (2016, 2019, 2022)")
            rows.update(found)
        pos += len(line) + 1
    return frozenset(rows), early >= 3


def _a_clock_time(text: str, span: Span, clock: tuple[frozenset[tuple[int, int]], bool]) -> bool:
    """A date, contact, place or identifier that is a four-digit clock time: one of a line of
    times (unless a phone's label stands before it), or, in a text that writes 24-hour
    times, a year-like one after a verb or "at" ("RAN informed 1921", "conveyed 2010",
    "flight log closed 1952")."""
    if span.category not in (Category.DATE, Category.CONTACT, Category.LOCATION, Category.ID):
        return False
    if not _CLOCK_TIME.fullmatch(text, span.start, span.end):
        return False
    rows, writes_times = clock
    lo = max(0, span.start - 24)
    if (span.start, span.end) in rows:
        return not _NUMBER_LABEL.search(text, lo, span.start)
    if not writes_times:
        return False
    if span.category != Category.DATE:
        # a cell of its own in a table of such times ("| 13/03  | 0800 | 0840  |")
        return _BAR_BEFORE.search(text, lo, span.start) is not None and _BAR_AFTER.match(text, span.end) is not None
    return _TIME_VERB_BEFORE.search(text, lo, span.start) is not None and _YEAR_EVENT_BEFORE.search(text, lo, span.start) is None


def _clock_time_after_a_verb(text: str, span: Span) -> bool:
    """A 24-hour clock time after a verb or a preposition ("Ambulance called 0230"); a
    postcode, which models also call a contact, follows a town or a state."""
    if not _CLOCK_TIME.fullmatch(text[span.start : span.end]):
        return False
    lo = max(0, span.start - 24)
    return bool(_LOWER_WORD_BEFORE.search(text, lo, span.start)) and not _CONTACT_LABEL.search(text, lo, span.start)


_CLOCK_TIME = re.compile(r"(?:[01]\d|2[0-3])[0-5]\d")
_LOWER_WORD_BEFORE = re.compile(r"(?<![\w-])[a-z]+[ \t]+$")
# A label that says the number after it is when something happened, in any case: an
# ambulance record's "Depart 0734 | At hosp 0749 | Handover 0752", "ETA 0930", "seen well
# ~2100". A postcode follows a town or a state, never one of these.
_TIME_LABEL_BEFORE = re.compile(
    r"(?:(?<![\w-])(?i:ETA|ETD|depart(?:ed|ure|s)?|arriv(?:ed|al|es?)|handover|handed[ \t]+over|on[ \t]+scene|at[ \t]+scene"
    r"|at[ \t]+pt|at[ \t]+patient|at[ \t]+hosp(?:ital)?|dispatch(?:ed)?|clear(?:ed)?|en[ \t]+route|since|until|till"
    r"|approx\.?|around|about|time|times|from|by|@)[ \t]*:?|~)[ \t]*$"
)
# Money: "$18,400.00", "£2,604.60", "AUD 350": an amount is no one's number.
_MONEY = re.compile(r"(?:[$£€]|\b(?:AUD|NZD|USD|GBP|EUR)[ \t]?)[ \t]?\d{1,3}(?:,\d{3})*(?:\.\d{2})?(?![\d,])|(?<![\w.,])\d{1,3}(?:,\d{3})+\.\d{2}(?![\d,])")


def _clock_time_after_a_time_label(text: str, span: Span) -> bool:
    """A four-digit 24-hour time after a word that says when ("Depart 0734", "ETA 0930"), with
    no label that makes it a number to call in the line before it."""
    if not _CLOCK_TIME.fullmatch(text[span.start : span.end]):
        return False
    lo = max(0, span.start - 24)
    if _TIMES_LINE.match(text, _line_start(text, span.start), span.start):
        # "Times: Call 0641 | On scene 0658": on a line of times even "call" says when
        return not _NUMBER_LABEL.search(text, lo, span.start)
    if _CONTACT_LABEL.search(text, lo, span.start):
        return False
    return bool(_TIME_LABEL_BEFORE.search(text, lo, span.start))


# A record's line of times ("Times: Call 0641 | On scene 0658 | ..."), and the labels that
# still make a number one to call there.
_TIMES_LINE = re.compile(r"[ \t]*(?i:times?)[ \t]*:")
_NUMBER_LABEL = re.compile(r"\b(?i:ph|phone|tel|telephone|mob|mobile|cell|fax|pager|bleep|ext|extn|extension)\b\W{0,4}$")


def _is_not_phi_by_shape(text: str, span: Span) -> bool:
    """Shapes that are never PHI whatever a model read: a piece of a clock time or a time
    range, a piece of a gene variant, a bracketed image reference after a measurement, a
    duration in years read as an age, a number of three digits or fewer read as a phone number
    with no label before it (postcodes, which models sometimes call contacts, have four or
    more), a row of small table numbers or one cell of it read as an identifier or a phone
    number, a clock time after a verb, a 12-hour time read as a date, an age over 125, a
    visit's time range or a form's item code read as an identifier, a record's label alone,
    the sex after an age, an amount with its unit written on."""
    value = text[span.start : span.end]
    if span.category in (Category.DATE, Category.AGE, Category.ID, Category.CONTACT):
        if _inside(_HGVS, text, span):
            return True
        if _inside(_MONEY, text, span):
            return True  # "$18,400.00": a sum of money
    if _time_after_date(text, span):
        return True
    if _inside(_CLOCK_HOURS, text, span):
        return True
    if span.category in (Category.AGE, Category.ID, Category.CONTACT) and _inside(_CLOCK_AMPM, text, span):
        return True  # "[11/20 9:55a]": a message's time, "55a" no age
    if span.category == Category.ID and _GRAVIDA_PARA.fullmatch(value):
        return True  # "G1P0": an obstetric history
    if span.category == Category.ID and all(w.upper() in _REGIMENS or _CYCLE_DAY.fullmatch(w) for w in value.split()):
        return True  # "FOLFIRINOX C4D1": a chemotherapy regimen and its cycle and day
    if span.category == Category.DATE and _CLOCK_12H.fullmatch(value):
        return True  # "11pm": a time of day is no date
    if span.category in (Category.LOCATION, Category.AGE, Category.CONTACT) and _inside(_TIME_RANGE, text, span):
        return True  # "SHIFT NOTE 1900-0730": a shift's hours
    if span.category == Category.DATE:
        day = _WEEKDAY.match(text, span.start, span.end)
        if _inside(_TIME_RANGE, text, span if day is None else span.with_(start=day.end())):
            return True
        if _SLASH_PAIR.fullmatch(value) and text[span.end : span.end + 1] == ")" and _MEASURED_BEFORE.search(text, max(0, span.start - 40), span.start):
            return True
    if span.category == Category.AGE and _BARE_NUMBER.fullmatch(value):
        if _YEARS_AFTER.match(text, span.end) and _DURATION_BEFORE.search(text, max(0, span.start - 16), span.start):
            return True
    if span.category == Category.CONTACT:
        digits = sum(c.isdigit() for c in value)
        if re.fullmatch(r"[\d\s]+", value) and digits <= 3 and not _CONTACT_LABEL.search(text, max(0, span.start - 24), span.start):
            return True
        # a row of an audiogram or a lab table ("10   10   15   30"): every phone number has a
        # group of four digits or more, or is written without layout gaps
        if _CELLS.fullmatch(value) and not _CONTACT_LABEL.search(text, max(0, span.start - 24), span.start):
            return True
        # one cell of such a row, cut from its neighbours at the column gaps ("CK     2210   2980")
        if _is_table_cell(text, span) and not _CONTACT_LABEL.search(text, max(0, span.start - 24), span.start):
            return True
        # a 24-hour clock time after a verb or a preposition ("Ambulance called 0230", "phoned
        # 0300 on 0418 ..."): a postcode, which models also call a contact, follows a town or a state
        if _clock_time_after_a_verb(text, span):
            return True
        if _clock_time_after_a_time_label(text, span):
            return True  # "Depart 0734", "ETA 0930": when, not a number to call
    if span.category == Category.AGE and re.fullmatch(r"\d{3,5}", value) and int(value) > 125:
        return True  # "Dr notified 2250": no one's age
    if span.category == Category.ID and (
        _inside(_TIME_RANGE, text, span) or (_FORM_ITEM.fullmatch(value) and _FIELD_START.search(text, max(0, span.start - 4), span.start))
    ):
        return True  # "Visit time 0930-1115"; an OASIS item's code opening its line ("M0066 DOB:")
    if span.category == Category.ID and value.upper() in ID_LABELS:
        return True  # the label alone
    if span.category == Category.NAME and value in ("SN", "S/N") and _SERIAL_AFTER.match(text, span.end):
        return True  # "SN RNB204418S": a serial number's label
    if span.category == Category.NAME and len(value) == 1 and value.islower():
        return True  # "baby v sleepy today": initials are capitals
    if span.category == Category.LOCATION and _LOWER_WORD.fullmatch(value) and value in encoder_words() and value not in places():
        return True  # "in dorm": an everyday word in lower case is where, not which place
    if span.category in (Category.LOCATION, Category.ORGANIZATION, Category.NAME) and value in _FIELD_LABELS_AS_WORDS and (_LABEL_COLON_AFTER.match(text, span.end) or value == "Addr"):
        return True  # "Location: Tesco Extra": the field's label
    if span.category == Category.NAME and value in ("M", "F") and _AGE_BEFORE_SEX.search(text, max(0, span.start - 16), span.start):
        return True  # "71 y.o. F": the sex after an age
    if span.category == Category.NAME and value in ("Y", "N") and _QUESTION_BEFORE.search(text, _line_start(text, span.start), span.start):
        return True  # "Self-harm or suicide attempt ever?     Y -- OD 2019": the answer
    if span.category == Category.DATE and any(m.start() <= span.start and span.end <= m.end() and min(int(m[1]), int(m[2])) < 1900 for m in _CLOCK_RANGE.finditer(text, max(0, span.start - 10), min(len(text), span.end + 10))):
        return True  # "Night shift Tue 3rd Feb 2130-0730": a shift's hours (not "2014-2019", years)
    if span.category in (Category.CONTACT, Category.ID, Category.LOCATION) and _ITEM_BEFORE.search(text, max(0, span.start - 16), span.start):
        return True  # "covered by Medicare; item 73045": a schedule's item number
    if span.category in (Category.CONTACT, Category.ID) and _inside(_PAGE_NUMBER, text, span):
        return True  # a fax's page count: "P.001/003"
    if span.category == Category.CONTACT and _SHORT_RANGE.fullmatch(value):
        return True  # "fasting 82-94": a range of values, too few digits for any number to call
    if span.category == Category.ID and value.isdigit() and snomed_concept_id(value) and _TERM_AFTER.match(text, span.end) and _coded_list(text):
        return True  # a coded problem list's SNOMED CT concept: "2026-01-06  87522002   Iron deficiency anaemia"
    if span.category == Category.ID and _inside(_LOINC, text, span):
        return True  # a laboratory test's LOINC code: "HEMOGLOBIN A1C (4548-4)", "OBX|8|NM|2132-9^COBALAMIN^LN"
    if span.category == Category.ID and _PARITY.fullmatch(value) and _GRAVIDA_BEFORE.search(text, max(0, span.start - 6), span.start):
        return True  # "G2 P1001": an obstetric history's parity (term, preterm, abortions, living)
    if span.category in (Category.LOCATION, Category.CONTACT) and value.isdigit() and _after_a_code_label(text, span.start):
        return True  # "CPT 97110, 97140, 97530": procedure codes, not ZIP codes
    if span.category == Category.LOCATION and _clock_time_after_a_verb(text, span) and not _JOINED_AFTER.match(text, span.end):
        return True  # "CATT to visit 2300."; not a piece of "member 2211-MA"
    if span.category in GUARDED_CATEGORIES and (_ACT_END.search(value) or _ACT_AFTER.match(text, span.end)):
        return True  # "the Oranga Tamariki Act 1989", "Mental Health Act": a law's title
    if span.category in GUARDED_CATEGORIES and _IWI.fullmatch(value) and not _IWI_BODY_AFTER.match(text, span.end):
        return True  # "Iwi: Ngāti Kahu": an affiliation, as an ethnicity is; "Ngāti Kahu Hauora" is a body
    if span.category in GUARDED_CATEGORIES and _IWI_LABEL.search(text, _line_start(text, span.start), span.start) and not _IWI_BODY_AFTER.match(text, span.end):
        return True  # "Iwi: Te Aitanga-a-Māhaki, Ngāti Porou": whatever the label's line lists
    if span.category in (Category.LOCATION, Category.ORGANIZATION, Category.NAME) and _YEAR_MAKE.match(value):
        return True  # "lives in his car (2009 Honda Civic)": a car's year and make
    if span.category in (Category.ID, Category.CONTACT) and _AMOUNT_WITH_UNIT.fullmatch(value):
        return True  # "Wt 3640g": a measure, its unit written on
    if span.category == Category.ID and _CELLS.fullmatch(value):
        return True
    return False


_LOWER_WORD = re.compile(r"[a-z]{3,}")
_CLOCK_RANGE = re.compile(r"(?<![\d/.:-])((?:[01]\d|2[0-3])[0-5]\d)[ \t]*[-–][ \t]*((?:[01]\d|2[0-3])[0-5]\d)(?![\d/.:-])")
_ITEM_BEFORE = re.compile(r"\b(?i:MBS[ \t]+)?(?i:items?)(?:[ \t]+(?i:no\.?|number|#))?[ \t]*:?[ \t]*$")
_TERM_AFTER = re.compile(r"[ \t]+[A-Z]?[a-z]{3,}")
_CODE_THEN_TERM = re.compile(r"(?<![\w-])(\d{6,18})[ \t]+[A-Z]?[a-z]{3,}")


@lru_cache(maxsize=2)
def _coded_list(text: str) -> bool:
    """Whether the text lists two SNOMED CT concepts or more, each before its term."""
    return sum(1 for m in _CODE_THEN_TERM.finditer(text) if snomed_concept_id(m[1])) >= 2


_LOINC = re.compile(r"\(\d{3,6}-\d\)|(?<![\w-])\d{3,6}-\d(?=\^)")
_SHORT_RANGE = re.compile(r"\d{1,3}[ \t]*[-–][ \t]*\d{1,3}")
_PARITY = re.compile(r"P\d{4}")
_GRAVIDA_BEFORE = re.compile(r"\bG\d{1,2}[ \t]*,?[ \t]*$")
_QUESTION_BEFORE = re.compile(r"\?[ \t]*(?:[-–:|][ \t]*)?$")
_PAGE_NUMBER = re.compile(r"\b(?i:p|pg|page)\.?[ \t]*\d{1,3}[ \t]*(?:/|of)[ \t]*\d{1,3}(?![\d/])")
# A law's title: the span ends with "Act", or "Act" follows it after at most three more
# capitalised words ("Oranga" of "Oranga Tamariki Act 1989").
_ACT_END = re.compile(r"(?<![\w-])(?:Act|Bill)$")
_ACT_AFTER = re.compile(r"(?:[ \t]+[A-ZĀĒĪŌŪ][\w'’-]*){0,3}[ \t]+(?:Act|Bill)\b(?![\w'’-])")
# An iwi by the word that says so ("Ngāti Kahu", "Ngai Tahu"), and what makes one a body.
_IWI = re.compile(r"(?:Ngāti|Ngati|Ngāi|Ngai)[ \t]+[A-ZĀĒĪŌŪ][\w'’-]*(?:[ \t]+[A-ZĀĒĪŌŪ][\w'’-]*)?")
# (the label's value: words a single space apart, up to a full stop, a semicolon, a bar or a
# column gap: "Iwi: Ngāti Tamaterā.  Occupation: ..." holds no more)
_IWI_LABEL = re.compile(r"\b(?i:iwi(?:[ \t]+affiliations?)?|hapū|hapu)[ \t]*:[ \t]*(?:[^\s.;|]+[ ]?)*$")
_IWI_BODY_AFTER = re.compile(r"[ \t]+(?:Hauora|Trust|Rūnanga|Runanga|Health|Services|Iwi|Incorporated|Inc|Ltd|Limited|Charitable)\b")
_SERIAL_AFTER = re.compile(r"[ \t]*[:#]?[ \t]*[A-Z0-9-]*\d")
# Form labels a model read as the value after them ("Location: Tesco Extra").
_FIELD_LABELS_AS_WORDS = frozenset("Location Address Addr Facility Site Place Venue Organisation Organization Employer School Name".split())
_LABEL_COLON_AFTER = re.compile(r"[ \t]*:|[ ]{3,}|\t")  # (or a form's column gap: "Address     7 Quantock Ope")


# A section of an act written as one word: "s136", "s.2", "ss47".
_SECTION = re.compile(r"ss?\.?\d{1,3}[A-Z]?")
# A reference into a law or a document: "Coroners Act 2003, s.28", "reg 12", "para 4" (not the
# "s" of "he's 14").
_SECTION_BEFORE = re.compile(r"(?<!['’])\b(?:s|ss|sec|sect|section|reg|regulation|cl|clause|para|paragraph|art|article|rule|sch|schedule|p|pp|page)\.?\s*$", re.IGNORECASE)
# A count of people, not their age: "4 children aged 7 to 15", "2 sisters".
_PEOPLE_AFTER = re.compile(
    r"\s+(?:children|kids|sons|daughters|grandchildren|grandkids|siblings|brothers|sisters|boys|girls|"
    r"dependants|dependents|people|adults|staff|friends|cousins)\b",
    re.IGNORECASE,
)
# A temperature in Fahrenheit, not a 28-year-old woman: "cold, 28F outside".
_WEATHER_NEAR = re.compile(r"\b(?:cold|hot|warm|freezing|weather|temp\w*|outside|outdoors|degrees?)\b", re.IGNORECASE)
# "Cooper et al.": an author cited, not a person in the care.
_ET_AL_AFTER = re.compile(r"\s*(?:et\.?\s*al\b|and\s+colleagues\b|\(\d{4}\))")


def _is_not_a_persons_number(text: str, span: Span) -> bool:
    """Numbers and names that point elsewhere: the numerator of a fraction read as an age
    ("6" of "6/52"), a pregnancy's weeks ("36+2"), a section of an act ("s.28"), a count of
    people ("4 children"), a count of times ("CABG x3"), a numbered item read as a date
    ("MenB (2)"), a temperature ("28F outside"), a cited author ("Cooper et al."), an
    electronic signature's mark ("/es/")."""
    value = text[span.start : span.end]
    if span.category == Category.NAME:
        if value.casefold() in ("s", "es") and text[span.start - 1 : span.start] == "/" and text[span.end : span.end + 1] == "/":
            return True  # the mark of a signature, "/es/ MARISOL J GUTIERREZ-FALK", "/s/"
        return _ET_AL_AFTER.match(text, span.end) is not None
    if span.category not in (Category.AGE, Category.DATE, Category.ID):
        return False
    if span.category == Category.ID and re.fullmatch(r"[x×]\d{1,2}", value) and not text[span.end : span.end + 1].isalnum():
        return True
    if not _BARE_NUMBER.fullmatch(value):
        if span.category == Category.AGE and re.fullmatch(r"\d{1,3}F", value):
            near = text[max(0, span.start - 20) : span.start] + text[span.end : span.end + 20]
            return _WEATHER_NEAR.search(near) is not None
        return False
    if _SECTION_BEFORE.search(text, max(0, span.start - 12), span.start):
        return True
    if span.category == Category.AGE:
        if re.match(r"\s*/\s*\d", text[span.end : span.end + 4]):
            return True
        if re.match(r"\+\d", text[span.end : span.end + 2]):
            return True  # weeks and days of a pregnancy: "G2P1, 36+2"
        return _PEOPLE_AFTER.match(text, span.end) is not None
    if span.category == Category.DATE and len(value) <= 2 and text[span.end : span.end + 1] == ")":
        return True  # a dose or item number, "6-in-1 (2)", "1) ...": a day alone is written "the 2nd"
    return False


# The words of a span, as written: "SIADH/CKD" is two.
_ACRONYM_PARTS = re.compile(r"[^\s/,&+]+")


_CAPITALS = re.compile(r"[A-Z][A-Z0-9]{1,4}")
_DIAGNOSIS_BEFORE = re.compile(r"\b(?i:dx|diagnosis|diagnoses|ddx|impression)[ \t]*[:\-][ \t]*$")


_SCALE_THEN_VALUE = re.compile(r"(?i:K-?10|K6|PHQ-?9|PHQ-?2|GAD-?7|HoNOS|EPDS|AUDIT(?:-C)?|DASS-?21|MMSE|MoCA)[ \t:=]*\d{1,3}")
_TEST_NAME = re.compile(r"(?:2|6|12)MW[TD]|30s?STS|5xSTS")
# A title read as a name of its own before the name it belongs to ("Sr" + "Comfort
# Asante-Boateng", "Deacon" + "Harold Wilkerson"): no one's name.
_TITLES_ALONE = frozenset(
    """dr doctor mr mrs ms miss mx prof professor sister sr sis matron rev reverend deacon pastor rabbi imam
    chaplain kaumātua kaumatua whaea matua faifeau father bro brother elder koro kuia kui pāpā māmā aunty auntie uncle
    babcia dziadek abuela abuelo lola lolo nonna nonno teta jiddo tūpuna nana nanny granny grandma
    grandad grandpa const constable sgt sergeant insp inspector det capt captain""".split()
)
# A grandparent called by the word for one ("Did not want Nana told", "Nana rang school"):
# the relation, not a name, where no name follows.
_KIN_WORDS_ALONE = frozenset("nana nan nanny gran granny grandma grandad grandpa koro kuia mam mammy".split())
_CAPITAL_NEXT = re.compile(r"\.?[ \t]+[A-Z]")


def _only_a_title(text: str, span: Span) -> bool:
    if span.category != Category.NAME:
        return False
    word = text[span.start : span.end].rstrip(".").casefold()
    if word in _KIN_WORDS_ALONE and _CAPITAL_NEXT.match(text, span.end) is None:
        return True  # ("Nan Whitlock" is a name)
    return word in _TITLES_ALONE and _CAPITAL_NEXT.match(text, span.end) is not None


# Initials that sign an entry off after a dash at the end of its line ("... mmol/L. -OT",
# "Report date 6 May 2025.  -- TPR"): a colleague, whatever abbreviation the letters also spell.
# A dash that opens the line is a list's bullet ("- CBC"), not a sign-off.
_SIGN_OFF_DASH = re.compile(r"[^\s-][ \t]+(?:-{1,2}|–|—)[ \t]?$")
_INITIALS = re.compile(r"[A-Z]{2,4}")
_LINE_ENDS = re.compile(r"[ \t]*(?:\r?\n|$)")


def _signs_off(text: str, span: Span) -> bool:
    if span.category is not Category.NAME or not _INITIALS.fullmatch(text, span.start, span.end):
        return False
    if _LINE_ENDS.match(text, span.end) is None:
        return False
    # the dash and the word before it lie within a few characters (never the whole of a huge line)
    lo = max(text.rfind("\n", max(0, span.start - 16), span.start) + 1, span.start - 16)
    return _SIGN_OFF_DASH.search(text, lo, span.start) is not None


def _only_acronyms(text: str, span: Span) -> bool:
    """A name, place or organisation made only of clinical abbreviations in capitals ("CBC",
    "NSTEMI", "CAMHS"), unless a title stands before it."""
    if span.category not in GUARDED_CATEGORIES:
        return False
    if _CAPITALS.fullmatch(text, span.start, span.end) and _DIAGNOSIS_BEFORE.search(text, max(0, span.start - 20), span.start):
        return True  # "Dx: RA (M05.79)": right after a diagnosis's label, capitals are one
    parts = _ACRONYM_PARTS.findall(text, span.start, span.end)
    known = clinical_acronyms()
    if any(len(p.strip(".()")) < 3 for p in parts):
        return False  # two capitals are as often a colleague's initials ("RA", "TG")
    if not parts or not all(p.strip(".()") in known or (p.endswith("s") and p[:-1] in known) for p in parts):
        return False
    return not _TITLE_BEFORE.search(text[max(0, span.start - 20) : span.start])


# Words that join a place's or an organisation's name and never make one alone.
_FUNCTION_WORDS = frozenset("the a of and or at in on for to by with from also then but so please".split())


def _only_function_words(text: str, span: Span) -> bool:
    """An organisation or place that is only "The" (a model's span of the article before
    "Zellholm Bay Infirmary", written out as "Harbourside The"). Names are left: "An" is one."""
    if span.category not in (Category.ORGANIZATION, Category.LOCATION):
        return False
    words = _ACRONYM_PARTS.findall(text, span.start, span.end)
    return bool(words) and all(w.strip(".,()").casefold() in _FUNCTION_WORDS for w in words)


# A bed, room, bay or ward and its number ("Bed 12", "Rm 4", "Ward 6B"): where in the hospital
# a patient lies, which no note kind here counts as an identifier and a surrogate place would
# only garble ("Harbourside  Wilhelmina").
_BED_OR_ROOM_PART = rf"(?i:{BED_WORDS}|ward)\.?[ \t]*(?i:no\.?[ \t]*)?\d{{1,4}}[A-Za-z]?"
# A hospital unit by its floor and wing after "Unit" or "Ward": "Unit 6 North", "Ward 4 East".
_UNIT_WING = re.compile(r"\d{1,2}[A-Z]?[ \t]+(?:North|South|East|West|N|S|E|W|NE|NW|SE|SW)")
# A storey: "second-floor", "ground floor", "3rd floor".
_FLOOR = re.compile(
    r"(?i:ground|first|second|third|fourth|fifth|sixth|top|upper|lower|\d{1,2}(?:st|nd|rd|th))[- \t](?i:floor|storey|story)"
)
_UNIT_BEFORE = re.compile(r"\b(?i:unit|ward|floor|level|wing)[ \t]+$")
_BED_OR_ROOM = re.compile(rf"{_BED_OR_ROOM_PART}(?:[ \t]*[,/]?[ \t]*{_BED_OR_ROOM_PART})*")  # "Ward 6B bed 12" too


def _bed_or_room(text: str, span: Span) -> bool:
    if span.category not in (Category.LOCATION, Category.ORGANIZATION, Category.ID):
        return False
    if _UNIT_WING.fullmatch(text, span.start, span.end) and _UNIT_BEFORE.search(text, max(0, span.start - 8), span.start):
        return True  # "Unit 6 North"
    if _FLOOR.fullmatch(text, span.start, span.end):
        return True  # "a second-floor apartment"
    return _BED_OR_ROOM.fullmatch(text, span.start, span.end) is not None


def _possessive_tail(text: str, span: Span) -> bool:
    """The "s" of a possessive and the common words after it ("Marquise's house" marked as an
    organisation "s house" by a model): a finding that starts at the "s" right after an
    apostrophe, with nothing but lower-case words after it, names nobody. "O'Brien's Pharmacy"
    cut as "s Pharmacy" stays: the capital may be a name's."""
    if span.category not in (Category.ORGANIZATION, Category.LOCATION, Category.NAME):
        return False
    if span.start == 0 or text[span.start - 1] not in "'\u2019" or text[span.start] not in "sS":
        return False
    rest = text[span.start + 1 : span.end]
    if rest and rest[0].isalnum():
        return False  # "O'Sullivan" cut after its apostrophe is a name
    return not any(c.isupper() or c.isdigit() for c in rest)


# The last word of a job: a listed occupation's last word, or a word made like a job's name
# ("-er", "-ist", "-ian", "-man"...). "rice", "forestry", "chainsaws", "mowing" are none.
_JOB_ENDING = re.compile(
    r"(?:er|or|ist|ian|man|men|woman|women|ant|ent|eur|euse|ess|wright|smith|hand|maid|keeper|ee|ie|ic|ive|ary|ster|ress|ier|yer|mason|nurse|pilot|chef|cook|vet|guard|aide|staff|crew|person|people)s?$",
)


@lru_cache(maxsize=1)
def _job_words() -> frozenset[str]:
    return frozenset(p.split()[-1] for p in professions())


# Words of a sentence made like a job's last word ("for", "her", "after"): "oyster boats for
# 40 years" is no "boats for".
_NOT_JOB_ENDS = frozenset(
    "for or nor her after over under per other others never ever either neither rather whether together later "
    "further however whenever wherever whatever whoever hereafter thereafter ago anymore "
    # where one lives or what is done to one, made like a job's word ("a second-floor apartment")
    "apartment apartments basement appointment appointments treatment assessment management equipment "
    "environment placement settlement floor floors door doors indoor outdoor corner "
    # things made like a job's word ("fell off a ladder")
    "ladder ladders computer computers heater water shower letter letters paper number numbers power tower "
    "border trailer freezer cooler counter matter winter summer weather dinner supper".split()
)


def names_a_job(word: str) -> bool:
    """Whether ``word`` can end a job's name: a listed occupation's last word, or a word
    made like one ("packer", "foreman", "pilot")."""
    last = word.casefold()
    if last in _NOT_JOB_ENDS:
        return False
    singular = last[:-1] if last.endswith("s") else last
    return last in _job_words() or singular in _job_words() or _JOB_ENDING.search(last) is not None


_NEXT_WORD = re.compile(r"[ \t]+([a-z][a-z'’-]*)")


def job_end(text: str, span: Span) -> int | None:
    """Where the job in a PROFESSION span ends: the span's own end when its last word names a
    job, the end of one of the next two lower-case words when that one does ("packhouse
    forklift" + "driver"), else None."""
    words = re.findall(r"[A-Za-z][A-Za-z'’-]*", text[span.start : span.end])
    if words and names_a_job(words[-1]):
        return span.end
    at = span.end
    for _ in range(2):
        m = _NEXT_WORD.match(text, at)
        if m is None:
            return None
        if names_a_job(m.group(1)):
            return m.end()
        at = m.end()
    return None


def _is_no_job(text: str, span: Span) -> bool:
    """A PROFESSION that names nothing a person does for a living ("rice", "chainsaws",
    "forestry"), and is not the first words of a job either."""
    return span.category == Category.PROFESSION and job_end(text, span) is None


# How far back "the line" reaches: a text of one huge line made every span search it all.
_LINE_REACH = 200


def _line_start(text: str, at: int) -> int:
    """The start of the line ``at`` is on, or ``_LINE_REACH`` characters back if nearer."""
    lo = max(0, at - _LINE_REACH)
    return text.rfind("\n", lo, at) + 1 or lo


# A report's part count after its heading or a page label: "CHEMISTRY (2/5)", "Page 2/5",
# "p. 3/4". The first number is at most the second, and the heading ends there ("REVIEWED
# (5/10) BY GP" reads on, and its 5/10 may be a date).
_PAGE_OF = re.compile(r"(?:^[ \t]*[A-Z][A-Z0-9 &/,-]{2,}[ \t]*\(|\b(?i:page|pg|p\.|part|sheet)[ \t]*\(?)[ \t]*$")


_PART_COUNT_END = re.compile(r"\)?(?:[ \t]*$|[ \t]{2,}|\t)", re.M)  # the heading's end: a line end or a column gap


def _is_part_count(value: str, text: str, end: int) -> bool:
    m = _SLASH_PAIR.fullmatch(value.replace(" ", ""))
    return m is not None and 1 <= int(m.group(1)) <= int(m.group(2)) <= 50 and _PART_COUNT_END.match(text, end) is not None


def _is_not_a_date_or_id(text: str, span: Span) -> bool:
    """A DATE that is a score, an acuity, a fraction of a week or month, or a centile; an
    ID that is a diagnosis code or a gene variant; a CONTACT with nothing to call or write to."""
    value = text[span.start : span.end]
    if span.category == Category.DATE:
        before = text[max(0, span.start - 16) : span.start]
        if _FRACTION.fullmatch(value) and _SCORE_LABEL.search(before):
            return True
        if _FRACTION.fullmatch(value) and _PAGE_OF.search(text, _line_start(text, span.start), span.start) and _is_part_count(value, text, span.end):
            return True
        if _DECIMAL_FRACTION.fullmatch(value):
            return True
        line_start = _line_start(text, span.start)
        if _SNELLEN.fullmatch(value) and _ACUITY_LINE.search(text, line_start, span.start):
            return True
        if _is_duration(text, span, value, before):
            return True
        if _is_a_time_or_measure_not_a_date(text, span, value):
            return True
        if _no_date_reading(value):
            return True
        m = _ORDINAL.fullmatch(value)
        return m is not None and int(m.group(1)) > 31
    if span.category == Category.ID:
        if _ICD10.fullmatch(value):
            return True
        if _after_a_code_label(text, span.start):
            return True
        if _PROTEIN_CHANGE.fullmatch(value) and _GENE_BEFORE.search(text, max(0, span.start - 12), span.start):
            return True
        before, after = text[max(0, span.start - 2) : span.start], text[span.end : span.end + 1]
        return before.endswith(("c.", "p.", "g.")) or after == ">" or bool(re.search(r"\d+_\d+(?:del|dup|ins)", value))
    if span.category == Category.CONTACT:
        return not any(c.isdigit() or c in "@." for c in value)
    return False


# A form's or a list's next column after a date of birth: "DOB 06.01.1938   86F". A model's
# date span ran across the gap, and the number alone in that column is the age.
_BIRTH_DATE_COLUMN = re.compile(r"(?:\d{1,2}[/.-]\d{1,2}[/.-](?:\d{4}|\d{2})|\d{4}-\d{2}-\d{2})(?:\t|[ ]{3,})$")
_AGE_NUMBER = re.compile(r"\d{1,3}")


def _age_after_birth_date(text: str, span: Span) -> Span:
    value = text[span.start : span.end]
    if span.category == Category.DATE and _AGE_NUMBER.fullmatch(value) and int(value) <= 120:
        if _BIRTH_DATE_COLUMN.search(text, max(0, span.start - 24), span.start):
            return span.with_(category=Category.AGE, fine="OTHER")
    return span


def _is_quantity(text: str, span: Span) -> bool:
    """A number labelled AGE, DATE or ID that is really an amount, a duration, a time or a
    vital sign."""
    if span.category not in (Category.AGE, Category.DATE, Category.ID):
        return False
    value = text[span.start : span.end]
    if span.category != Category.AGE and _NUMBERS.fullmatch(value) and any(_is_pressure(t) for t in value.split()):
        return True  # "168/92", or "49  152/88" (a pulse and a pressure from a vitals table)
    if span.category == Category.DATE and _CLOCK.fullmatch(value):
        return True
    if not _BARE_NUMBER.fullmatch(value):
        return False
    if span.category == Category.ID:
        # alone, not a piece of a longer number ("752" of "752.959.5815", "4948 63413 4 1")
        near = text[max(0, span.start - 2) : span.start] + text[span.end : span.end + 2]
        return value.isdigit() and len(value) <= 3 and not any(c.isdigit() for c in near)
    if _AFTER_QUANTITY.match(text, span.end):
        return True
    if span.category == Category.DATE:
        if value.isdigit() and int(value) > 31:
            return True  # no day; a year has four digits
        return _AFTER_DURATION.match(text, span.end) is not None
    return False


@lru_cache(maxsize=1)
def _kind_words() -> frozenset[str]:
    from ..surrogates.resources import words

    names = ("hospital_types", "organisation_types", "company_types")
    return frozenset(w.casefold() for n in names for w in words("organisations", n)) - {"&", "of", "and", "the", "for"}


# A capitalised word just before: "Tri-County" + "Urology" is a practice's name in two pieces.
_NAME_WORD_BEFORE = re.compile(r"[A-Z][\w'’-]*[ \t]$")


# A form's label after the word: "Lab No   : 7-3621605", "Member #: AVU585235312".
_FIELD_LABEL_AFTER = re.compile(r"[ \t]*(?:#|No\.?|Number|ID)?[ \t]*:")


# A capitalised word just before, on the same line or the one above: "Dunn\nMemorial Hospice".
_NAME_LINE_BEFORE = re.compile(r"[A-Z][\w'’-]*[ \t]*\n?[ \t]*$")
_SERVICE_EXTRA = (
    "& and of pre-op assessment device infection sciences science cellular wing lab labs gp doctor doctors "
    # what a specialist clinic treats: "Medical Retina Clinic", "Heart Failure Clinic"
    "retina retinal glaucoma cornea corneal cataract cataracts uveitis macular failure lipid lipids nurse nurses nursing "
    "anticoagulation warfarin inr stoma headache epilepsy colposcopy"
)


@lru_cache(maxsize=1)
def service_words() -> frozenset[str]:
    """Words that name what a service does or what kind of body it is, never whose it is:
    the organisation rule's generic words, the surrogate lists' kinds of organisation, and a
    few department words ("Blood Sciences", "Hospital Wing", "Pre-op Assessment Clinic").
    One set for the guard ("WOUND CARE CLINIC" alone) and for completion (a department
    beside an organisation's name)."""
    from .rules.organisations import GENERIC_WORDS

    return frozenset(GENERIC_WORDS) | _kind_words() | frozenset(_SERVICE_EXTRA.split())


def _is_service_word(word: str) -> bool:
    return word.strip(".,:;()'’").casefold() in service_words() or DEPARTMENT_WORD.fullmatch(word) is not None


_INSTITUTION_HEADS = frozenset("hospital hospitals infirmary".split())


def _only_kind_word(text: str, span: Span) -> bool:
    """One word that says what kind of body it is ("Hospital"), is a form's label ("Member
    #:") or names a department ("Audiology"), or words that only name a service ("WOUND CARE
    CLINIC"), with no capitalised word before them ("Tri-County Urology" is a practice): no
    organisation of anyone's."""
    parts = text[span.start : span.end].split()
    if len(parts) > 1:
        # a service named only by what it does ("WOUND CARE CLINIC", "Device Clinic"); a
        # capitalised word before it that names a service too is the service's own ("Medical
        # Retina Clinic"), not an owner's name
        if not all(_is_service_word(p) for p in parts):
            return False
        if len(parts) >= 3 and parts[-1].strip(".,;:()").casefold() in _INSTITUTION_HEADS:
            return False  # "Women's and Children's Hospital": an institution, named as many are
        before = _NAME_LINE_BEFORE.search(text, max(0, span.start - 40), span.start)
        return before is None or _is_service_word(before.group().strip())
    if len(parts) != 1:
        return False
    if parts[0].casefold() in _kind_words() or _FIELD_LABEL_AFTER.match(text, span.end):
        return True
    return DEPARTMENT_WORD.fullmatch(parts[0]) is not None and not _NAME_WORD_BEFORE.search(text, max(0, span.start - 40), span.start)


def _token_pattern(token: str, alone: bool) -> str:
    """Regex for one word of a term. Possessives and plurals are optional inside a phrase;
    a one-word term written with a possessive needs one ("Parkinson's", not "Parkinson")."""
    possessive = bool(_POSSESSIVE.search(token))
    base = _POSSESSIVE.sub("", token) if possessive else token
    base_re = re.escape(base)
    if alone and possessive:
        return base_re + (r"['’]s?" if base.lower().endswith("s") else r"(?:['’]s|s['’]?)")
    return base_re + r"(?:['’]s|s['’]|['’]|e?s)?"


def _strip_suffix(word: str) -> str:
    return _POSSESSIVE.sub("", word.casefold())


@lru_cache(maxsize=8)
def _compile(terms: tuple[str, ...]) -> tuple[dict[str, re.Pattern[str]], frozenset[str]]:
    """Phrase patterns grouped by their first word, so a check only tries the few terms that
    can start at each nearby word instead of one alternation of a thousand."""
    by_first: dict[str, list[str]] = {}
    bare: set[str] = set()
    for term in sorted(set(terms), key=len, reverse=True):
        tokens = [t for t in re.split(r"[\s\-]+", term.strip()) if t]
        if not tokens:
            continue
        if len(tokens) == 1 and not _POSSESSIVE.search(tokens[0]):
            bare.add(tokens[0].casefold())
            continue
        pattern = r"[\s\-]+".join(_token_pattern(t, len(tokens) == 1) for t in tokens)
        by_first.setdefault(_strip_suffix(tokens[0]), []).append(pattern)
    phrases = {k: re.compile(r"(?:" + "|".join(v) + r")(?!\w)", re.I) for k, v in by_first.items()}
    return phrases, frozenset(bare)


# A state's letters with the ZIP or postcode after them ("New Braunfels, TX 78130"): an
# address, however the letters read as a clinical abbreviation elsewhere ("Tx", "MS", "PA").
_POSTCODE_AFTER = re.compile(r"\.?,?[ \t]+\d{4,5}(?:-\d{4})?(?![\w-])")


def _state_before_postcode(text: str, span: Span) -> bool:
    value = text[span.start : span.end]
    return span.category == Category.LOCATION and 2 <= len(value) <= 3 and value.isupper() and _POSTCODE_AFTER.match(text, span.end) is not None


# A drug no list has, by the stem its class name ends in ("pegfilgrastim", "zanubrutinib",
# "risankizumab"): international nonproprietary names are built so, and no name or place
# ends so.
_DRUG_STEM = re.compile(
    r"[a-z]{3,}(?:mab|tinib|rafenib|ciclib|grastim|poetin|parin|xaban|gatran|gliptin|gliflozin|glutide|sartan|pril|olol"
    r"|statin|prazole|floxacin|cillin|mycin|cycline|ciclovir|clovir|navir|tegravir|buvir|conazole|tidine|dronate"
    r"|setron|triptan|zepam|zolam|oxetine|platin|rubicin|taxel|lukast|profen|semide|thiazide|dipine|lamide|tropium)"
)
# Four digits that can be a 24-hour clock time and no year of anyone's care ("Mon 10/11 0915",
# "Rang back 0450"): a model's date there is a time.
_CLOCK_NOT_YEAR = re.compile(r"(?:0\d|1[0-8])[0-5]\d|2[1-3][0-5]\d")


def _clock_time_read_as_date(text: str, span: Span) -> bool:
    """Four digits that can be no year, or a piece of a clock time with its seconds
    ("02:08:40", read as a date in a run report's table of times)."""
    if span.category != Category.DATE:
        return False
    if _CLOCK_NOT_YEAR.fullmatch(text, span.start, span.end) is not None:
        return True
    for m in _HMS.finditer(text, max(0, span.start - 6), min(len(text), span.end + 6)):
        if m.start() <= span.start and span.end <= m.end():
            return True
    return False


# A document writes its dates day first (UK, AU, NZ) or month first (US); its dates with a
# year and a day above twelve say which. In a day-first letter "10/14" and "8/14" are
# scores in a test's table (no month is 14), though "4/15" would be a US visit.
_FULL_NUMERIC_DATE = re.compile(r"(?<![\w./-])(\d{1,2})([/.-])(\d{1,2})\2(?:\d{4}|\d{2})(?![\w/]|[.-]\d)")
_BARE_DAY_MONTH = re.compile(r"(\d{1,2})/(\d{1,2})(?:/(?:\d{4}|\d{2}))?")


@lru_cache(maxsize=2)
def date_order(text: str) -> str | None:
    """"dm" where the text's full dates are written day first, "md" where month first, None
    where they do not say or say both."""
    day_first = month_first = False
    for m in _FULL_NUMERIC_DATE.finditer(text):
        a, b = int(m[1]), int(m[3])
        day_first |= 12 < a <= 31 and 1 <= b <= 12
        month_first |= 12 < b <= 31 and 1 <= a <= 12
    if day_first != month_first:
        return "dm" if day_first else "md"
    return None


def _no_month_in_the_documents_order(text: str, span: Span, order: str | None) -> bool:
    if order is None or span.category != Category.DATE:
        return False
    m = _BARE_DAY_MONTH.fullmatch(text, span.start, span.end)
    return m is not None and int(m[2] if order == "dm" else m[1]) > 12


_HMS = re.compile(r"(?<![\d:])(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d(?![\d:])")
# A score out of a fixed total written again and again down a table's column ("13/20",
# "11/20", "14/20"): a scale, not dates (no month is 20). Three times or more in the text.
_OUT_OF = re.compile(r"(\d{1,3})/(\d{2,3})")


def _repeated_score(text: str, span: Span) -> bool:
    if span.category != Category.DATE or (m := _OUT_OF.fullmatch(text, span.start, span.end)) is None:
        return False
    total = int(m[2])
    if total <= 12 or int(m[1]) > total:
        return False
    # and one of them no month ("13/20"): "3/15", "4/15", "5/15" are a US patient's visits on
    # the fifteenth, the family of a score holds a value above twelve
    tops = [int(v) for v in re.findall(rf"(?<![\d/.])(\d{{1,3}})/{m[2]}(?![\d/])", text)]
    return len(tops) >= 3 and max(tops) > 12


# A share of something ("Ate 1/2 of supper", "3/4 of the dose"): a fraction, not 1 February.
_SHARE = re.compile(r"(\d)/(\d)")
_OF_AFTER = re.compile(r"[ \t]+of\b")


def _fraction_of(text: str, span: Span) -> bool:
    if span.category != Category.DATE or (m := _SHARE.fullmatch(text, span.start, span.end)) is None:
        return False
    return 0 < int(m[1]) < int(m[2]) <= 8 and _OF_AFTER.match(text, span.end) is not None


# Scores out of ten down a chart ("pain 5/10", "4/10", "7/10"): a note that speaks of pain or a
# score and writes three or more of them, none above ten. Ten is also October, so a lone
# "5/10", or a note without such a word, keeps its date.
_TENTHS = re.compile(r"(?<![\d/.])(\d{1,2})/10(?![\d/]|\.\d)")
_SCORE_WORDS = re.compile(r"(?i:\b(?:pain|score|scores|vas|nrs|severity|itch|nausea|rating)\b)")


def _a_tenth(text: str, span: Span) -> bool:
    return span.category == Category.DATE and (m := _TENTHS.fullmatch(text, span.start, span.end)) is not None and int(m[1]) <= 10


def _a_chart_of_tenths(text: str) -> bool:
    """Whether the text is such a chart: read once per text by the guard, not once per span
    (a huge note has thousands of spans)."""
    tops = [int(v) for v in _TENTHS.findall(text)]
    return len(tops) >= 3 and max(tops) <= 10 and _SCORE_WORDS.search(text) is not None


# The second term of a ratio, a risk or a dilution ("combined screen (1:5200)", "titre 1:640").
_RATIO_BEFORE = re.compile(r"(?<![\w:.])1[ \t]*:[ \t]*$")
_DIGITS = re.compile(r"\d[\d,]*")


# A recurrence, not a date ("photograph every 2nd Friday"); a duration's range ("remove
# sutures at 10-14 days").
_EVERY_BEFORE = re.compile(r"\b(?i:every|each|alternate)[ \t]+$")
_RANGE_THEN_UNIT = re.compile(r"\d{1,3}[ \t]*[-–][ \t]*\d{1,3}")
_UNIT_AFTER = re.compile(r"[ \t]*(?i:days?|weeks?|wks?|months?|mths?|years?|yrs?|hours?|hrs?|minutes?|mins?)\b")


_AM_PM_RANGE = re.compile(r"(?i)\d{1,2}(?:[:.]\d\d)?[ \t]*(?:[ap]\.?m\.?)?[ \t]*[-–][ \t]*\d{1,2}(?:[:.]\d\d)?[ \t]*[ap]\.?m\.?")


# A clock time written before a date ("CN Hoàng 0752 17/03") read as a number; an age with letters in it ("Dx05",
# a triage disposition); a multiplier ("D7240 x2"); a tooth by its US number and a dental
# procedure's code in a dental letter ("removal of #1, #16, #17 (D7210, D7240)").
_CLOCK_THEN_DATE = re.compile(r"[ \t]+\d{1,2}/\d{1,2}(?:/\d{2,4})?(?!\d)")
_CLOCK_4 = re.compile(r"(?:[01]\d|2[0-3])[0-5]\d")
_LETTERED_AGE = re.compile(r"[A-Za-z]+\d+")
_MULTIPLIER = re.compile(r"[xX]\d{1,2}")
_DENTAL_CONTEXT = re.compile(r"(?i)\b(?:tooth|teeth|molars?|extractions?|dental|oral surgeon|odontectomy|pericoronitis|CDT)\b")
_US_TOOTH = re.compile(r"#\d{1,2}|D\d{4}")
_CDT_CODES = re.compile(r"(?<![\w-])D\d{4}(?![\w-])")


def _no_ones_number(text: str, span: Span) -> bool:
    value = text[span.start : span.end]
    if span.category in (Category.ID, Category.CONTACT, Category.AGE) and _CLOCK_4.fullmatch(value) and _CLOCK_THEN_DATE.match(text, span.end):
        return True
    if span.category == Category.AGE and _LETTERED_AGE.fullmatch(value):
        return True
    if span.category == Category.ID and _MULTIPLIER.fullmatch(value):
        return True
    if span.category == Category.ID and _DENTAL_CONTEXT.search(text):
        start = span.start - 1 if text[span.start - 1 : span.start] == "#" else span.start
        if _US_TOOTH.fullmatch(text, start, span.end):
            if value.startswith("D"):  # procedure codes come in lists; a patient's "D4411" stands alone
                return len(_CDT_CODES.findall(text)) >= 2
            return int(value.lstrip("#")) <= 32
    return False


def _recurrence_or_duration(text: str, span: Span) -> bool:
    if span.category != Category.DATE:
        return False
    if _AM_PM_RANGE.fullmatch(text, span.start, span.end):
        return True  # "Mon-Fri 8-9am": hours of a visit
    if _EVERY_BEFORE.search(text, max(0, span.start - 12), span.start):
        return True
    return _RANGE_THEN_UNIT.fullmatch(text, span.start, span.end) is not None and _UNIT_AFTER.match(text, span.end) is not None


def _ratio_term(text: str, span: Span) -> bool:
    return (
        span.category in (Category.ID, Category.DATE, Category.AGE, Category.CONTACT)
        and _DIGITS.fullmatch(text, span.start, span.end) is not None
        and _RATIO_BEFORE.search(text, max(0, span.start - 6), span.start) is not None
    )


# Routes and frequencies written after a drug's name.
_DOSE_WORDS = frozenset("po iv im sc sl pr ng pv top inh neb bd bid tds tid qid qds od om on prn mane nocte stat".split())


class ClinicalTermGuard:
    """Drops name / place / organisation spans that are part of a clinical term."""

    def __init__(self, terms: Iterable[str] | None = None) -> None:
        self.terms = tuple(guard_terms() if terms is None else terms)
        self._phrases, self._bare = _compile(self.terms)

    @classmethod
    def default(cls) -> "ClinicalTermGuard":
        return cls()

    def _is_bare_term(self, word: str) -> bool:
        w = _strip_suffix(word)
        return w in self._bare or (w.endswith("s") and w[:-1] in self._bare) or _DRUG_STEM.fullmatch(w) is not None

    @staticmethod
    @lru_cache(maxsize=4096)
    def _phrase_keys(word: str) -> tuple[str, ...]:
        w = _strip_suffix(word)
        return (w, w[:-1]) if w.endswith("s") else (w,)

    def covers(self, text: str, start: int, end: int) -> bool:
        """True when text[start:end] lies inside an occurrence of a guarded term, or inside
        the unit of a measurement."""
        for m in _MEASURE.finditer(text, max(0, start - 24), min(len(text), end + 24)):
            if m.start() <= start and end <= m.end() and not any(c.isdigit() for c in text[start:end]):
                return True
        for w in _WORD.finditer(text, max(0, start - 48)):
            if w.start() > start:
                break
            for key in self._phrase_keys(w.group()):
                rx = self._phrases.get(key)
                if rx is not None and (m := rx.match(text, w.start())) is not None and m.end() >= end:
                    return True
        words = _WORD.findall(text, start, end)
        bare = [self._is_bare_term(w) for w in words]
        # a drug with its route or frequency ("Amoxicillin-clav PO", "Keppra BD") is as bare
        if any(bare) and all(b or w.casefold() in _DOSE_WORDS for b, w in zip(bare, words)):
            ahead = text[max(0, start - 20) : start]
            return not (_TITLE_BEFORE.search(ahead) or (words[0][0].isupper() and _RELATIVE_BEFORE.search(ahead)))
        return False

    def filter(self, text: str, spans: Iterable[Span]) -> list[Span]:
        spans = [_age_after_birth_date(text, s) for s in spans]
        signs = [_signs_off(text, s) for s in spans]
        if any(signs):  # kept as they are; the rest guarded (one pass, not a search per span)
            signed = [s for s, y in zip(spans, signs) if y]
            return sort_spans(signed + self.filter(text, [s for s, y in zip(spans, signs) if not y]))
        if any(_CLOCK_TIME.fullmatch(text, s.start, s.end) for s in spans):
            clock = _clock_times(text)
            spans = [s for s in spans if not _a_clock_time(text, s, clock)]
        if any(s.category == Category.DATE and _BARE_DAY_MONTH.fullmatch(text, s.start, s.end) for s in spans):
            order = date_order(text)
            spans = [s for s in spans if not _no_month_in_the_documents_order(text, s, order)]
        times = log_times(text) if any(opens_a_line(text, s.start) for s in spans) else frozenset()
        scores = any(_a_tenth(text, s) for s in spans) and _a_chart_of_tenths(text)
        return [
            s for s in spans
            if (s.start, s.end) not in times
            and not _is_quantity(text, s)
            and not _clock_time_read_as_date(text, s)
            and not _ratio_term(text, s)
            and not _repeated_score(text, s)
            and not (scores and _a_tenth(text, s))
            and not _fraction_of(text, s)
            and not _recurrence_or_duration(text, s)
            and not _no_ones_number(text, s)
            and not _is_not_a_date_or_id(text, s)
            and not _is_not_phi_by_shape(text, s)
            and not _is_job_title(text, s)
            and not _is_not_anyones(text, s)
            and not _has_no_date_or_age_in_it(text, s)
            and not _is_a_habit(text, s)
            and not _is_not_a_persons_number(text, s)
            and not _only_acronyms(text, s)
            and not _only_a_title(text, s)
            and not _only_credentials(text, s)
            and not _is_no_job(text, s)
            and not (s.category == Category.ORGANIZATION and _only_kind_word(text, s))
            and not _only_function_words(text, s)
            and not _possessive_tail(text, s)
            and not _bed_or_room(text, s)
            and (s.category not in GUARDED_CATEGORIES or _state_before_postcode(text, s) or not self.covers(text, s.start, s.end))
        ]
