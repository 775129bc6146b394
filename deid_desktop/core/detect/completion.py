"""After the vote, an identifier or a name is never left in pieces.

Word tokens split at hyphens, so a model that marks the digits of "KHC-0441972" or the first
half of "Papadopoulos-Reid" leaves the rest of the value in the export, where it still
identifies the patient. Measured on the development notes, most partial finds were of this
kind: record numbers with a letter prefix (``CR-23-004417``, ``SEH-23-0612``) and
double-barrelled surnames. A span of these categories is widened to the whole hyphen- or
slash-joined token it lies in, and a phone number that has its closing bracket gets the
opening one. A job cut before its last word ("packhouse forklift" of "packhouse forklift
driver") gets that word. An organisation or a place followed at once by the capitalised words
that end an organisation's name gets them ("Pelletier Aquatic" + "Center", "Nelson" +
"Medical Centre"): the name is one organisation, and the word left out was counted as a miss.

The other way round, what a model ran on into is left out: the verb after a name ("His sister
Philippa has"), the next field's label across a column gap, a department in an open bracket,
a person's possessive, the clock time that opens a log's line or a piece of one beside a date;
a surrogate would replace those too, and the reviewer would see the sentence lose its words.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from functools import lru_cache
from typing import Iterable

from ..categories import Category
from ..spans import Span, sort_spans
from .guards import CREDENTIALS, DATE_THEN_TIME, DEPARTMENT, ID_LABELS, job_end, log_times, service_words
from .rules.common import unit_follows
from .rules.addresses import STREET
from .rules.postcodes import STATE_ABBR
from .rules.web import EMAIL

# What may join the parts of one value without a space.
_JOINER = "-/"
_PART = re.compile(r"[^\W_]+", re.UNICODE)

# The categories whose values are single tokens or names that must leave whole.
COMPLETED = frozenset({Category.ID, Category.NAME, Category.CONTACT})


def _widen_end(text: str, end: int, category: Category, lower: bool = False) -> int:
    while end + 1 < len(text) and text[end] in _JOINER:
        m = _PART.match(text, end + 1)
        if m is None or not _continues(m.group(), category, lower):
            break
        end = m.end()
    return end


def _widen_start(text: str, start: int, category: Category, lower: bool = False) -> int:
    while start >= 2 and text[start - 1] in _JOINER:
        j = start - 1
        i = j
        while i > 0 and (text[i - 1].isalnum()):
            i -= 1
        if i == j or not _continues(text[i:j], category, lower):
            break
        start = i
    return start


# A user name ("lupe.ibarra71", "t_nguyen"): lower-case letters and digits joined by dots or
# underscores, written as one token. A name found inside one is the whole handle; mixed case
# is left alone ("Smith.Plan" is two sentences run together).
_HANDLE = re.compile(r"[a-z][a-z0-9]*(?:[._][a-z0-9]+)+")
_HANDLE_CHARS = re.compile(r"[A-Za-z0-9._]+")


def _handle_bounds(text: str, start: int, end: int) -> tuple[int, int]:
    """The bounds of the lower-case user name that ``start``-``end`` lies in, or the span's
    own bounds when it lies in none."""
    i = start
    while i > 0 and (text[i - 1].isalnum() or text[i - 1] in "._"):
        i -= 1
    m = _HANDLE_CHARS.match(text, i)
    if m is None or m.end() < end:
        return start, end
    token = m.group().strip(".")
    lo = i + (len(m.group()) - len(m.group().lstrip(".")))
    hi = lo + len(token)
    if lo > start or hi < end or (lo, hi) == (start, end) or not _HANDLE.fullmatch(token):
        return start, end
    if lo > 0 and text[lo - 1] == "@" or hi < len(text) and text[hi] == "@":
        return start, end  # an e-mail address: the contact rules' own
    return lo, hi


def _continues(part: str, category: Category, lower: bool = False) -> bool:
    """Whether a joined part belongs to the value: for a name, another capitalised name part
    ("-Reid", not "-year-old" or "-based"), or, when the name found is itself written in lower
    case (``lower``: a hurried message's "soon-ja", "jean-luc"), another lower-case word of
    letters; for an identifier or a contact, letters or digits of an identifier's shape (upper
    case or digits, not a lower-case word like "-related")."""
    if category is Category.NAME:
        if lower and part.isalpha() and part.islower():
            return True
        return part[:1].isupper() and (len(part) == 1 or not part.isupper() or len(part) <= 4)
    return any(c.isdigit() for c in part) or part.isupper()


# Words that end an organisation's name ("... Center", "... Medical Centre", "... Trust"), and
# words that may stand between the name and that ending ("Medical", "Health", "Community").
_ORG_HEADS = frozenset(
    """
    center centre hospital hospitals clinic clinics practice pharmacy chemist chemists surgery school college
    academy university trust church infirmary hospice institute foundation society group services laboratory
    laboratories imaging radiology pathology board council club library museum network partners associates prison
    authority ministry agency corporation ltd limited inc llc pty plc drug drugs drugstore rx apothecary dispensary
    """.split()
)
_ORG_LINKS = frozenset(
    """
    medical health healthcare community dental eye heart cancer family general district regional memorial
    children's women's maternity mental care specialist surgical private public rehabilitation aquatic
    sports leisure day primary secondary high grammar middle elementary junior senior
    """.split()
)
_NEXT_WORD = re.compile(r"[ \t]([A-Z][\w'’]*)")
# The word that makes a person's name a place's when it follows it directly: "Barbara Davis
# Center", "Mary Potter Hospice".
_NAMED_FOR_HEADS = frozenset("center centre institute foundation hospital hospice clinic infirmary elementary academy".split())


# Words that begin an organisation's name when it comes first, as other languages name
# hospitals and clinics ("Hospital Özel Karşıyaka", "Clínica San Rafael", "Hôpital Nord",
# "Hospice Ōhiwa Coast"): a model marked the rest of the name and left that word out.
_LEADING_HEADS = frozenset(
    """
    hospital hospice hôpital hopital clínica clinica clinique klinik klinikum policlínica policlinica
    policlinico poliklinik ospedale sanatorio sanatorium
    """.split()
)
_HEAD_WORD_BEFORE = re.compile(r"(\w[\w'’-]*)[ \t]+$")


def _leading_head(text: str, start: int) -> int | None:
    """Where a capitalised head word that begins an organisation's name starts, when it stands
    right before ``start`` (one space) and does not itself end the capitalised name before it
    ("Whangārei Hospital" + "Özel" is not "Hospital Özel"); None otherwise."""
    j = start - 1
    if j < 1 or text[j] not in " \t":
        return None
    k = j
    while k > 0 and text[k - 1].isalpha():
        k -= 1
    word = text[k:j]
    if not word or not word[0].isupper() or word.casefold() not in _LEADING_HEADS:
        return None
    if k > 0 and (text[k - 1].isalnum() or text[k - 1] in "-'’."):
        return None
    before = _HEAD_WORD_BEFORE.search(text, max(0, k - 40), k)
    if before is not None and before.group(1)[0].isupper() and "\n" not in text[before.start() : k]:
        return None
    return k


def _org_end(text: str, end: int) -> int | None:
    """Where an organisation's name ends when the capitalised words after ``end`` are its
    ending: link words, then a head word ("Medical Centre", "Center"); None if they are not."""
    pos, found = end, None
    for _ in range(4):
        m = _NEXT_WORD.match(text, pos)
        if m is None:
            break
        word = m.group(1).casefold()
        if word in _ORG_HEADS:
            found = pos = m.end()
            continue
        if word not in _ORG_LINKS:
            break
        pos = m.end()
    return found


# Initials between two pieces of one organisation's name ("Cherokee Nation W" + ".W. " +
# "Hastings Hospital", where a model stopped at a letter and the rest was left in the export).
_INITIALS_GAP = re.compile(r"\.?[ \t]?(?:[A-Z]\.[ \t]?){1,3}")
_PLACES = (Category.ORGANIZATION, Category.LOCATION)
_ONE_PLACE_WORD = re.compile(r"[A-Z][a-zāēīōū'’-]+")
_OF_END = re.compile(r"[ \t]of(?:[ \t]the)?$")


@lru_cache(maxsize=1)
def _known_organisations() -> frozenset[str]:
    from .lexicons import hospitals

    return frozenset(hospitals())


def _widen_organisations(text: str, ordered: list[Span]) -> list[Span]:
    """An organisation or a place followed by an organisation's ending is one organisation
    with it; a neighbour of either kind right before it (one space, or initials) joins it.
    Two pieces of one organisation's name with only initials between them are one, and so
    are a town and the organisation right after it ("Gunnadoo" "Amcal", "St Brannock" "'s
    CofE Primary")."""
    out: list[Span] = []
    skip: set[int] = set()
    for i, s in enumerate(ordered):
        if i in skip:
            continue
        if (
            s.category in (Category.NAME, *_PLACES)
            and (lead := _leading_head(text, s.start)) is not None
            and (not out or out[-1].end <= lead)
        ):
            s = _as_organisation(s, start=lead)  # "Hospital" + "Özel Karşıyaka"
        if s.category is Category.NAME and (head := _NEXT_WORD.match(text, s.end)) is not None and head.group(1).casefold() in _NAMED_FOR_HEADS:
            nxt = ordered[i + 1] if i + 1 < len(ordered) else None
            if nxt is not None and (nxt.start, nxt.end) == (head.start(1), head.end()) and nxt.category in _PLACES:
                skip.add(i + 1)  # the head word, read alone as an organisation ("Isaac Dickson" "Elementary")
                nxt = None
            if nxt is None or head.end() <= nxt.start:
                s = _as_organisation(s, end=head.end())  # "Barbara Davis" + " Center": named for a person
        if s.category is Category.LOCATION and " " in text[s.start : s.end] and _last_word(text, s).casefold() in _ORG_HEADS:
            s = _as_organisation(s)  # "Barker High School": a place does not end in a school
        if s.category in _PLACES:
            end = _org_end(text, s.end)
            if end is not None and _last_word(text, s).casefold() in _ORG_HEADS and all(
                w.casefold() in _service_after_head() or _DEPARTMENT_WORD.fullmatch(w) for w in text[s.end : end].split()
            ):
                end = None  # "Whangārei Hospital" + "General Surgery": the hospital's department
            nxt = ordered[i + 1] if i + 1 < len(ordered) else None
            if end is not None and (nxt is None or end <= nxt.start):
                s = _as_organisation(s, end=end)
            prev = out[-1] if out else None
            if (
                prev is not None
                and prev.category is Category.ORGANIZATION
                and s.category is Category.ORGANIZATION
                and text[prev.end : s.start] == ", "
                and _ONE_PLACE_WORD.fullmatch(text, s.start, s.end)
                and (end is None or end <= s.end)
                and text[s.start : s.end] not in _known_organisations()
            ):
                # "Shakespeare Medical Practice, Burmantofts": the word after an organisation
                # and its comma is where it is
                out.append(s.with_(category=Category.LOCATION, fine="CITY"))
                continue
            if (
                prev is not None
                and prev.category is Category.ORGANIZATION
                and s.category is Category.LOCATION
                and (
                    (_OF_END.search(text, prev.start, prev.end) and text[prev.end : s.start] == " ")
                    # "Free Wesleyan Church" + " of " + "Tonga": the place ends the name
                    or (text[prev.end : s.start] == " of " and _last_word(text, prev).casefold() in _ORG_HEADS)
                )
            ):
                # "Blue Cross Blue Shield of" + "Michigan": the place ends the organisation's name
                out[-1] = _as_organisation(prev, end=s.end, score=max(prev.score, s.score))
                continue
            if prev is not None and prev.category in _PLACES and Category.ORGANIZATION in (prev.category, s.category):
                gap = text[prev.end : s.start]
                town_then_org = gap in (" ", "'", "’") and prev.category is Category.LOCATION and s.category is Category.ORGANIZATION
                both = gap == " " and prev.category is s.category is Category.ORGANIZATION
                if (gap == " " and s.category is Category.ORGANIZATION and end is not None) or town_then_org or both or _INITIALS_GAP.fullmatch(gap):
                    out[-1] = _as_organisation(prev, end=s.end, score=max(prev.score, s.score))
                    continue
        out.append(s)
    return out


def _last_word(text: str, s: Span) -> str:
    return text[s.start : s.end].rsplit(None, 1)[-1].strip(".,;:()'’")


def _as_organisation(s: Span, **changes) -> Span:
    fine = s.fine if s.category is Category.ORGANIZATION else "OTHER"  # a place's CITY is no organisation's kind
    return s.with_(category=Category.ORGANIZATION, fine=fine, **changes)


def _is_identifier_token(value: str) -> bool:
    """A joined token worth taking whole as an identifier: letters and digits together
    ("KHC-0441972"), or three numbers or more joined by hyphens, one of them of five digits
    or more ("2024-11-558102", a claim number a model read as a month and a number); two
    numbers joined ("152/88", "35-40") are a pressure or a range, and a date's numbers are
    shorter."""
    if _NUMBERS_JOINED.fullmatch(value):
        return any(len(part) >= 5 for part in value.split("-"))
    return any(c.isalpha() for c in value) and any(c.isdigit() for c in value)


_NUMBERS_JOINED = re.compile(r"\d+(?:-\d+){2,}")


# A greeting a model took into the name it opens ("Hi Leighton,"): the surrogate would replace it too.
_GREETING = re.compile(r"(?i:hi|hey|hello|dear|thanks|cheers|morning|good[ \t]+morning|kia[ \t]+ora|g'day|attn)[ \t,]+(?=[A-Z]|[a-z]+$)")


def _without_greeting(text: str, s: Span) -> Span:
    m = _GREETING.match(text, s.start, s.end)
    return s.with_(start=m.end()) if m and m.end() < s.end else s


# A date that took in the hour of a clock time after it ("Sat 9 Mar 07" of "[Sat 9 Mar 07:41]",
# "NOV 20, 2024@09" of "NOV 20, 2024@09:14") or the minutes of one before it ("20 19/3" of
# "16:20 19/3").
_HOUR_AT_END = re.compile(r"(?:[ \t]+|[ \t]*@[ \t]*)(?:[01]?\d|2[0-3])$")
_MINUTES_AT_START = re.compile(r"[0-5]\d[ \t]+")


_WEEKDAY_NAMES = r"(?:Mon|Tue|Tues|Wed|Weds|Thu|Thur|Thurs|Fri|Sat|Sun)(?:day)?|Wednesday|Thursday|Saturday"
_WEEKDAY_LEAD = re.compile(rf"(?i:{_WEEKDAY_NAMES})\.?,?[ \t]+")
# The weekday written just before a date dates it as much as the rest ("Tues 4/11"), and the
# annotation takes the two as one value; a model that marked the date alone left it out.
_WEEKDAY_JUST_BEFORE = re.compile(rf"(?<![\w/])(?i:{_WEEKDAY_NAMES})\.?,?[ \t]+$")
_DAY_FIRST = re.compile(r"\d")
_CLOCK_LIKE = re.compile(r"(?i:[ap]\.?m\.?|:\d\d)$")


# Words a model took in before a date that say something of it, not which day it is.
_DATE_LEAD_WORDS = re.compile(
    r"[Tt]he[ \t]+(?=(?:19|20)\d\d(?!\d))"
    # "week of 3rd Nov", "w/c 14/7": the words say which week; the date is the value
    r"|(?:(?:[Tt]he[ \t]+)?(?:[Ww]eek|[Ww]k|[Ww]eekend|[Ee]nd|[Ss]tart|[Bb]eginning)[ \t]+of|[Ww]/[Cc])[ \t]+(?=\d)"
    # "Wednesdays in May": the weekdays say how often; the month is the date
    r"|(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)days[ \t]+(?:in|of|during)[ \t]+(?=[A-Z])"
)


def _with_weekday(text: str, s: Span, prev: Span | None) -> Span:
    """The date without the words before it that are no part of it ("the 2026 season", "week
    of 3rd Nov"), and with the weekday written just before it ("Tues 4/11"); not a clock time's
    ("Mon-Fri 8-9am")."""
    if (the := _DATE_LEAD_WORDS.match(text, s.start, s.end)) is not None:
        s = s.with_(start=the.end())  # "the 2026 season": the article is the sentence's
    if not _DAY_FIRST.match(text, s.start) or _CLOCK_LIKE.search(text, s.start, s.end):
        return s
    w = _WEEKDAY_JUST_BEFORE.search(text, max(0, s.start - 12), s.start)
    return s if w is None or (prev is not None and prev.end > w.start()) else s.with_(start=w.start())


def _without_time(text: str, s: Span) -> Span:
    """A date found with the clock time after it ("12/02/25 1040") keeps the date alone: a
    time identifies no one, and its surrogate would be a second date. Nor does a date keep a
    piece of a clock time beside it."""
    w = _WEEKDAY_LEAD.match(text, s.start, s.end)  # "Mon 10/11 0915": a log line's weekday, date and time
    m = DATE_THEN_TIME.fullmatch(text, w.end() if w is not None else s.start, s.end)
    if m:
        return s.with_(end=m.end("date"))
    if text.startswith(":", s.end) and text[s.end + 1 : s.end + 3].isdigit():
        h = _HOUR_AT_END.search(text, s.start, s.end)
        if h is not None and h.start() > s.start:
            s = s.with_(end=h.start())
    if s.start > 0 and text[s.start - 1] == ":" and s.start >= 2 and text[s.start - 2].isdigit():
        m2 = _MINUTES_AT_START.match(text, s.start, s.end)
        if m2 is not None and m2.end() < s.end:
            s = s.with_(start=m2.end())
    return s


# A name's possessive ending ("Uziel's bday", "Dr Tesfamariam's nurse") is no part of it; the
# surrogate keeps it after it.
_POSSESSIVE_END = re.compile(r"['’]s$")


def _without_possessive(text: str, s: Span) -> Span:
    m = _POSSESSIVE_END.search(text, s.start, s.end)
    return s.with_(end=m.start()) if m is not None and m.start() > s.start else s


# Lower-case words that follow a name in a sentence and never end one ("His sister Philippa
# has seropositive RA", "Dr Tan and"): a model that ran on into them would have the surrogate
# replace them too, and the sentence would lose its verb. Modal verbs that are also names
# ("may", "will", "can") are not among them.
_NOT_A_NAMES_END = frozenset(
    """
    a an the and or but nor of to in on at by for from with without as than is was are were be been being
    has had have having does did do says said rang called came went who whom whose which that this these
    those he she it they his her its their him them also then now not today yesterday tomorrow here there
    """.split()
)
_LAST_WORD = re.compile(r"[ \t]+([a-z]+)$")


_NEXT_IS_CAPITAL = re.compile(r"[ \t]+[A-Z]")


# The article or preposition a model took in before a place or an organisation ("the Derwent
# Sailing Squadron", "worked out of Eden"): in lower case it belongs to the sentence, not the
# name ("The Alfred" is one); so does a sentence's opening verb of residence ("Lives 4
# Ashfield Grove").
_LEADING_ARTICLE = re.compile(
    r"(?:the|a|an|of|in|at|from|to|near|(?:Lives|Lived|Living|Resides)(?:[ \t]+(?:at|in))?|GP:?(?=[ \t]+[A-Z][a-zā-ū]))"
    r"[ \t]+(?=\S)"
)
# ... and a note in capitals: "DAUGHTER CHIDINMA IN LEXINGTON NOTIFIED"
_CAPS_PREPOSITION = re.compile(r"(?:IN|AT|FROM|TO|NEAR)[ \t]+(?=[A-Z]{2})")


_CAPITAL_WORD_BEFORE = re.compile(r"[A-Z][\w'’-]*[ \t]+$")


# A sentence's opening adverb or conjunction, capitalised only because it opens the sentence
# ("... on Main St. Also Bellbird Rx faxed."): never a word of the name after it.
_SENTENCE_OPENER = re.compile(r"(?:Also|Then|And|But|So|Now|Please|Today|Yesterday|Tomorrow|Later|Meanwhile)[ \t]+(?=[A-Z])")
_SENTENCE_END_BEFORE = re.compile(r"(?:[.!?][ \t]+|^[ \t]*)$", re.M)


def _without_leading_article(text: str, s: Span, prev: Span | None) -> Span:
    """Not where a value or a capitalised word stands just before it: "Hauora" + "a Toi Bay
    of Plenty" is one name in two spans (te reo Māori "a", "of"), whether or not the first
    piece was found."""
    if (o := _SENTENCE_OPENER.match(text, s.start, s.end)) is not None and o.end() < s.end:
        if _SENTENCE_END_BEFORE.search(text, max(0, s.start - 4), s.start):
            return s.with_(start=o.end())
    if prev is not None and prev.end <= s.start and text[prev.end : s.start].strip(" \t") == "":
        return s
    if (caps := _CAPS_PREPOSITION.match(text, s.start, s.end)) is not None and caps.end() < s.end:
        return s.with_(start=caps.end())  # in a note in capitals every word before is one
    if _CAPITAL_WORD_BEFORE.search(text, max(0, s.start - 40), s.start):
        return s
    m = _LEADING_ARTICLE.match(text, s.start, s.end)
    return s.with_(start=m.end()) if m is not None and m.end() < s.end else s


# A small number and a comma a model took in before a phone number ("Band 6, 028 9335 8120").
_SMALL_NUMBER_BEFORE = re.compile(r"\d{1,2}[ \t]*[,;][ \t]*(?=[(+\d])")


def _without_number_before(text: str, s: Span) -> Span:
    m = _SMALL_NUMBER_BEFORE.match(text, s.start, s.end)
    if m is None or sum(c.isdigit() for c in text[m.end() : s.end]) < 7:
        return s
    return s.with_(start=m.end())


# What annotation marks as the value and a model took in with it (the i2b2 convention the
# hand-written notes follow): the sex after an age ("68M"), a kinship word or a role before a
# name ("Uncle Wally", "CN Eilidh Mhoireach") and a credential after it ("Jasmeet Bhullar
# EN"), a day or a time after a place ("Osaka tonite"), a label word before an identifier
# ("lic P-884102", "NCNZ 219874"). A surrogate would replace those words too.
_AGE_SEX = re.compile(r"(\d{1,3})(?:[MFmf]|yo|y/o|yrs?|y)")  # "68M", "91yo"
# Kinship words taken in any case before a name, and those that are also people's names
# ("Tia", "Nana", "Koro", "Moko", "Tāne", "Cousin") taken only in lower case, so "Tia Morgan"
# keeps her first name.
_KIN_ANY_CASE = r"uncle|auntie|aunty|aunt|tío|tía|kuia|kui|koro|whaea|matua|faifeau|grandma|grandpa|granny|pāpā|māmā|babcia|dziadek|abuela|abuelo|nonna|nonno"
_KIN_LOWER_ONLY = r"tio|tia|nana|mokopuna|moko|cousin|cuz|tane|tāne|wahine|kaimahi|kaitiaki|para"
_KIN_TITLES = rf"{_KIN_ANY_CASE}|{_KIN_LOWER_ONLY}"
_NAME_LEAD = re.compile(
    rf"(?i:{_KIN_ANY_CASE})[ \t]+(?=[A-Z])|(?:{_KIN_LOWER_ONLY})[ \t]+(?=[A-Z])"
    r"|(?:CN|RN|EN|SN|HCA|NP|RM|MW|CNM|CNS|CNC|NUM|ANUM|NIC|NRP|EMT|OT|SW|PT|MO|HO|PCP|GP|PCW|AIN|AHW|CA|HCSW|CSW"
    # (a health visitor, a duly authorised officer, a flight nurse, a paramedic)
    r"|HV|DAO|FN|Para|Paramedic|ANNP|RNP|SCPHN)[ \t]+(?=[A-Z])"
    # a letter's greeting or a sign-off's "by" in te reo: "Tēnā koe Ingrid", "Nā Rāwiri Te Kani"
    r"|(?:T[ēe]n[āa][ \t]+koe|T[ēe]n[āa][ \t]+korua|Nā)[ \t]+(?=[A-ZĀĒĪŌŪ])"
    r"|(?:Phoned|Called|Rang|Emailed|Texted|Paged|Messaged|Visited|Asked|Informed|Advised)[ \t]+(?=[A-Z][a-z])"
    r"|(?:Pt|Pts|Patient|Client|Resident|Res)\.?:?[ \t]+(?=[A-Z])"  # "Pt DUBROVSKY, LEV A": the role, in any case after it
    # a church's or a community's title ("Deacon Harold Wilkerson", "Sis. Lottie Bishop",
    # "Kaumātua Matiu Rangiuia")
    r"|(?:Deacon|Pastor|Reverend|Rev\.?|Revd\.?|Fr\.?|Father|Elder|Imam|Rabbi|Sister|Sis\.|Sr\.?|Brother|Bro\.|Kaum[āa]tua)[ \t]+(?=[A-Z][a-z])"
    # a probation or a police officer by rank ("PO Wood", "DC Craig Hunter", "DS Patel")
    r"|(?:PO|DC|DS|DI|DCI|PC|PCSO|Sgt|Const|Constable|Cst|SC|Snr[ \t]+Const|Insp|Det|Capt)\.?[ \t]+(?=[A-Z][a-z])"
    # a care team's member by role: "Podiatrist Arjun Nair", "DE Fiona Blake"
    r"|(?:Podiatrist|Dietitian|Dietician|Physiotherapist|Physio|Pharmacist|Paramedic|Midwife|Psychologist"
    r"|Counsell?or|Interpreter|Radiographer|Sonographer|Audiologist|Optometrist|Educator|DE|CDE)[ \t]+(?=[A-Z][a-z])"
    r"|(?:nbsp|amp|quot|lt|gt|#\d{2,4});(?=\w)"  # an HTML entity left in a pasted note: "Dr&nbsp;Olamide"
)
# In a note written in lower case: "my moko tamati".
_KIN_LEAD_LOWER = re.compile(rf"(?:{_KIN_TITLES})[ \t]+(?=[a-z])")
_NUMBER_END = re.compile(r"[ \t]+\d+$")
_RE_END = re.compile(r"[ \t]+(?:re|Re|RE)\b:?$")
_CREDENTIAL_ALTERNATIVES = "|".join(re.escape(c) for c in sorted({*CREDENTIALS, "EN", "NRP", "CN", "HCA", "EMT", "EMT-P"}, key=len, reverse=True))
# (one or several joined by a slash: "Mirela Dragomir RN/RM")
_NAME_CREDENTIAL_END = re.compile(rf"[ \t,]+(?:{_CREDENTIAL_ALTERNATIVES})(?:/(?:{_CREDENTIAL_ALTERNATIVES}))*$")
_PLACE_TIME_END = re.compile(
    r"[ \t]+(?i:(?:mon|tues|wednes|thurs|fri|satur|sun)day|(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)\.?|tonight|tonite|today|tomorrow|tmrw|yesterday"
    r"|(?:[01]?\d|2[0-3])(?::[0-5]\d)?[ \t]?[ap]\.?m\.?)$"
)
# A registration body's or a record's label in capitals, or a short label in lower case
# ("lic", "reg"). Not any capitals: "LGC 4401-0072" is written so, the letters and all.
# A label before an address or a number: "E reception@...", "T 07 306", "email marta.wt@...".
_CONTACT_LABEL_LEAD = re.compile(r"(?:[ETMFPW]|(?i:e-?mail|ph|phone|tel|mob|mobile|cell|fax))[:.]?[ \t]+(?=[\w(+])")
# Lower-case words after the word that ends an organisation's name: "... Medical Center
# parking garage", "Gunnadoo Land Council bus".
_LOWER_AFTER_HEAD = re.compile(
    r"\b(?:Center|Centre|Hospital|Clinic|Council|Practice|Pharmacy|Surgery|School|College|University|Trust|Church)"
    r"(?P<tail>(?:[ \t]+[a-z][a-z'’-]*)+)$"
)
# Lower-case words after a capitalised one that ends a place's or an organisation's name:
# "Fonterra site", "Wemyss Bay route" ("Ilkley Moor north" keeps its direction).
_LOWER_TAIL = re.compile(
    r"[A-Z][\w'’-]*(?P<tail>(?:[ \t]+(?!(?:north|south|east|west|de|la|du|da|di|van|von|y)\b)[a-z]{3,})+)$"
)
_ID_LABEL_LEAD = re.compile(r"(?:[a-z]{2,5}\.?|(?:" + "|".join(sorted(ID_LABELS)) + r")\b\.?:?)[ \t]+(?=\S*\d)")


# A word after a date that is no part of it ("16/09 Wt 3480", "2/10 Pt"): anything but a
# month, a weekday, a season or a holiday's "Day".
_DATE_TAIL = re.compile(r"[ \t]+([A-Za-z]+)\.?$")
_DATE_TAIL_WORDS = frozenset(
    """jan january feb february mar march apr april may jun june jul july aug august sep sept september oct october
    nov november dec december mon monday tue tues tuesday wed wednesday thu thur thurs thursday fri friday sat saturday
    sun sunday day eve spring summer autumn fall winter ad bc bce ce""".split()
)
# A word of the sentence before a date: "in 2021", "since 3/4" (annotated "2021", "3/4").
_DATE_LEAD = re.compile(r"(?i:in|on|at|since|from|by|until|till)[ \t]+")
# A number before a whole date that is no part of it: a value in the column before ("96
# Jun-24" of "baseline 96 Jun-24", "22 14/07/2025" of a form's row).
_NUMBER_BEFORE_DATE = re.compile(r"\d{1,3}[ \t]+(?=\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}$|[A-Z][a-z]{2}-\d{2}$)")
# A clock time after a date ("Sunday 16 March, 0900", "19th march 10am", "Wed 14/8 8.55"); a
# year is never taken for one.
_TIME_AFTER_DATE = re.compile(
    r",?[ \t]+(?:(?:@|at)[ \t]*)?(?:(?!19\d\d|20\d\d)(?:[01]\d|2[0-3])[0-5]\d|\d{1,2}(?:[.:][0-5]\d)?[ \t]*(?i:am|pm)|\d{1,2}[.:][0-5]\d)$"
)
# A word that says a date is roughly known, taken in with a month or a year: "around
# November", "approx. 2019" (annotated "November", "2019").
_DATE_ROUGHLY_LEAD = re.compile(r"(?i:(?:since|from|until|till|by|in)[ \t]+)?(?i:around|about|approx\.?|approximately|circa|c\.|roughly)[ \t]+")
# The first half of a hyphenated word a job's span starts inside ("long-" + "haul trucker").
_HYPHENED_BEFORE = re.compile(r"(?<![\w-])(?!(?i:ex|non|semi|part|full|self|pre|post|co)-)[A-Za-z]+-$")
# An unclosed bracket and what follows it at an identifier's end.
_OPEN_BRACKET_END = re.compile(r"[ \t]*\([^)]*$")
# A name that ends with an initial keeps the initial's full stop, as annotated ("Siphokazi M.").
_INITIAL_END = re.compile(r"(?:^|[ \t])[A-Z]$")


# A department or a ward written beside an organisation's name after a dash or a gap ("NHS
# Highland - Diabetes", "Greenwood Nursing Home - Hospital Wing", "St Catherine's Clinic  Blood
# Sciences", "GP - Noble Memorial Health"): annotation leaves it out, as it names no one's.
_BESIDE = re.compile(r"[ \t]+[-–—]{1,2}[ \t]+|[ \t]{2,}")


@lru_cache(maxsize=1)
def _service_after_head() -> frozenset[str]:
    """The words that name a hospital's service after its name ("Redcliffe Hospital Renal"):
    the organisation rule's generic words and a ward's, not the kinds of body among the
    service words ("... Healthcare NHS Trust" keeps its "NHS Trust", "... Hospital Group" its
    "Group")."""
    from .rules.organisations import GENERIC_WORDS

    return frozenset(GENERIC_WORDS) | frozenset(
        "department dept unit ward clinic clinics service services outpatients device general internal acute".split()
    )


_DEPARTMENT_WORD = re.compile(DEPARTMENT)
_DEPARTMENT_AFTER_HEAD = re.compile(
    r"\b(?i:Hospital|Hospitals|Infirmary|Healthcare|Trust|Institute|Center|Centre)(?P<tail>(?:[ \t]+[A-Z][A-Za-z&-]*){1,3})$"
)


def _generic_words(part: str) -> bool:
    words = [w.casefold() for w in re.findall(r"[^\W\d_][\w'’&-]*", part)]
    return bool(words) and all(w in service_words() for w in words)


def _without_department_beside(text: str, s: Span) -> Span:
    seps = list(_BESIDE.finditer(text, s.start, s.end))
    if not seps:
        m = _DEPARTMENT_AFTER_HEAD.search(text, s.start, s.end)
        if m is not None and all(w.casefold() in _service_after_head() or _DEPARTMENT_WORD.fullmatch(w) for w in m["tail"].split()):
            return s.with_(end=m.start("tail"))  # "Redcliffe Hospital Renal": the ward's service
        return s
    last, first = seps[-1], seps[0]
    if _generic_words(text[last.end() : s.end]) and not _generic_words(text[s.start : last.start()]):
        s = s.with_(end=last.start())
    elif _generic_words(text[s.start : first.start()]) and not _generic_words(text[first.end() : s.end]):
        s = s.with_(start=first.end())
    return s


# A "date" with a run of five digits or more that is no compact date: an identifier's token
# the models read as a date ("PNC 19/482937K").
_NOT_A_DATE = re.compile(r"(?=[\w/-]*\d{5})(?!\d{8}$)[\w/-]+")


# A woman's age and her obstetric history read as one identifier: "24 G1P0 @ 38w2d".
_AGE_THEN_GRAVIDA = re.compile(r"(?P<age>\d{1,2})[ \t]+G\d{1,2}[ \t]?P\d{1,4}")
# "retired signalman", "ex-shearer", "former police officer": the job is what follows.
_JOB_QUALIFIER_LEAD = re.compile(r"(?i:(?:(?:semi-)?retired|former|formerly)[ \t]+|ex-[ \t]*|ex[ \t]+)(?=[A-Za-z])")


def _without_annotation_extras(text: str, s: Span) -> Span:
    value = text[s.start : s.end]
    if s.category is Category.DATE and _NOT_A_DATE.fullmatch(value):
        return s.with_(category=Category.ID, fine="OTHER")
    if s.category is Category.DATE:
        m = _DATE_LEAD.match(value)
        if m is not None and any(c.isdigit() for c in value[m.end() :]):
            s, value = s.with_(start=s.start + m.end()), value[m.end() :]
        m = _DATE_ROUGHLY_LEAD.match(value)
        if m is not None and m.end() < len(value):
            s, value = s.with_(start=s.start + m.end()), value[m.end() :]
        m = _NUMBER_BEFORE_DATE.match(value)
        if m is not None:
            s, value = s.with_(start=s.start + m.end()), value[m.end() :]
        m = _TIME_AFTER_DATE.search(value)
        if m is not None and m.start() > 0 and re.search(r"\d|[A-Za-z]{3}", value[: m.start()]):
            s, value = s.with_(end=s.start + m.start()), value[: m.start()]
        m = _DATE_TAIL.search(value)
        if m is not None and m.group(1).casefold() not in _DATE_TAIL_WORDS and any(c.isdigit() for c in value[: m.start()]):
            return s.with_(end=s.start + m.start())
        return s
    if s.category is Category.AGE:
        m = _AGE_SEX.fullmatch(value)
        return s.with_(end=s.start + len(m.group(1))) if m else s
    if s.category is Category.ID and (m := _AGE_THEN_GRAVIDA.fullmatch(value)) is not None:
        return s.with_(end=s.start + m.end("age"), category=Category.AGE, fine="OTHER")  # "24 G1P0"
    if s.category is Category.PROFESSION:
        m = _JOB_QUALIFIER_LEAD.match(value)
        return s.with_(start=s.start + m.end()) if m is not None and m.end() < len(value) else s
    if s.category is Category.NAME:
        for _ in range(3):  # a role, then a title: "kaitiaki Whaea Ngāpera"
            value = text[s.start : s.end]
            m = _NAME_LEAD.match(value) or (_KIN_LEAD_LOWER.match(value) if value.islower() else None)
            if m is None or m.end() >= len(value):
                break
            s = s.with_(start=s.start + m.end())
        m = _RE_END.search(text, s.start, s.end)
        if m is not None and m.start() > s.start:
            s = s.with_(end=m.start())  # "Call placed to Dr Oxendine re: culture"
        m = _NUMBER_END.search(text, s.start, s.end)
        if m is not None and m.start() > s.start:
            s = s.with_(end=m.start())  # "DR OKAFOR 0225": the time he saw the patient
        if _INITIAL_END.search(text, s.start, s.end) and text[s.end : s.end + 1] == "." and s.end - s.start > 2:
            s = s.with_(end=s.end + 1)
        m = _NAME_CREDENTIAL_END.search(text, s.start, s.end)
        if text[s.start : s.end].isupper():
            # "NGUYEN VAN DO": in capitals a surname may spell a credential; after "SURNAME,
            # GIVEN" a credential of three letters or more is one ("ESCOBEDO, MARISOL FNP")
            whole = text[s.start : s.end]
            if m is None or "," not in whole[: m.start() - s.start] or len(whole[m.start() - s.start :].strip(" ,\t")) < 3:
                return s
        return s.with_(end=m.start()) if m is not None and m.start() > s.start else s
    if s.category is Category.LOCATION:
        m = _PLACE_TIME_END.search(text, s.start, s.end)
        if m is not None and m.start() > s.start:
            return s.with_(end=m.start())
    if s.category is Category.ORGANIZATION:
        s = _without_department_beside(text, s)
    if s.category in (Category.LOCATION, Category.ORGANIZATION):
        m = _LOWER_AFTER_HEAD.search(text, s.start, s.end) or _LOWER_TAIL.search(text, s.start, s.end)
        return s.with_(end=m.start("tail")) if m is not None else s
    if s.category is Category.CONTACT:
        m = _CONTACT_LABEL_LEAD.match(value)
        if m is not None and m.end() < len(value):
            s = s.with_(start=s.start + m.end())
        m = _NUMBER_END.search(text, s.start, s.end)
        if m is not None and m.start() > s.start and unit_follows(text, s.end):
            return s.with_(end=m.start())  # "022 390 4417 25 min": the call's length
        return s
    if s.category is Category.ID:
        m = _OPEN_BRACKET_END.search(value)
        if m is not None and m.start() > 0:
            s, value = s.with_(end=s.start + m.start()), value[: m.start()]  # "5774 12150 3 (4": an IRN's bracket
        m = _ID_LABEL_LEAD.match(value)
        if m is not None and sum(c.isdigit() for c in value[m.end() :]) >= 4:
            return s.with_(start=s.start + m.end())
    return s


# Two values written as a pair that a model read as one: "01478 960 235 / 07700 900 841",
# "2017, 2021", "06/08/24 - 20/08/24". Each is its own value (and gets its own surrogate).
_PAIR_SEP = re.compile(r"[ \t]*(?:/|,|;|-|–|to|or|&|and)[ \t]*")
# (also a day and a month's name, "14 Feb and 22 April", which the models read as one date)
_FULL_DATE = re.compile(
    r"\d{1,2}[/.-]\d{1,2}[/.-](?:\d{4}|\d{2})|(?:19|20)\d{2}"
    r"|\d{1,2}(?:st|nd|rd|th)?[ \t]+(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sept?|Oct|Nov|Dec)[a-z]*\.?(?:[ \t]+(?:19|20)\d{2})?"
)
_EXTENSION = re.compile(r"[ \t,]*(?i:ext|extn|extension|x)\.?[ \t]*(\d{2,5})")
_PHONE_PART = re.compile(r"\+?[\d()][\d() -]{6,}\d")


# An e-mail address (the e-mail rule's pattern) inside a contact span that took in markup
# around it ('<a href="mailto:x@y.com">x@y.com</a>' is one whitespace-free token to a model).


# A town and its postcode read as one place ("Paeroa 3600"): the annotation has each on its
# own, as a surrogate replaces each.
_TOWN_THEN_POSTCODE = re.compile(r"(?P<town>[A-ZĀĒĪŌŪ][^,\n\d]*[^\W\d_])[ \t]+(?P<code>\d{4,5})")


_PHONE_THEN_LABEL = re.compile(r"(?P<phone>\+?[\d()][\d() -]{6,}\d)[ \t]+(?i:e-?mail|fax|ph|phone|tel|mob|mobile|cell|web)\b:?")


def _pair_parts(text: str, s: Span) -> list[Span]:
    if s.category is Category.CONTACT and "@" in text[s.start : s.end]:
        emails = list(EMAIL.finditer(text, s.start, s.end))
        if emails and text[s.start : s.end].strip() != " ".join(m.group() for m in emails) and any(c in "<>\"=" for c in text[s.start : s.end]):
            return [s.with_(start=m.start(), end=m.end()) for m in emails]
        # a phone number and an e-mail address read as one contact: "07 555 0171 / x@y.nz",
        # "(07) 5550 2917  reports@brolga.com.au"
        phones = [m for m in _PHONE_PART.finditer(text, s.start, s.end) if sum(c.isdigit() for c in m.group()) >= 7]
        phones = [m for m in phones if not any(e.start() < m.end() and m.start() < e.end() for e in emails)]
        if emails and phones:
            return sort_spans([*(s.with_(start=m.start(), end=m.end()) for m in emails), *(s.with_(start=m.start(), end=m.end()) for m in phones)])
    if s.category is Category.CONTACT and (m := _PHONE_THEN_LABEL.fullmatch(text, s.start, s.end)) is not None:
        return [s.with_(end=m.end("phone"))]  # "(505) 555-0185  Email": the next field's label
    if s.category is Category.LOCATION:
        m = _TOWN_THEN_POSTCODE.fullmatch(text, s.start, s.end)
        if m is not None and not STREET.search(m["town"]):
            return [s.with_(end=m.end("town")), s.with_(start=m.start("code"), fine="ZIP")]
    if s.category is Category.DATE:
        part = _FULL_DATE
    elif s.category is Category.CONTACT:
        part = _PHONE_PART
    else:
        return [s]
    value = text[s.start : s.end]
    first = part.match(value)
    if first is None:
        return [s]
    if s.category is Category.CONTACT and (ext := _EXTENSION.fullmatch(value, first.end())) is not None:
        # "0800 559 009 ext 4471": the number and its extension, each a number to call
        return [s.with_(end=s.start + first.end()), s.with_(start=s.start + ext.start(1))]
    sep = _PAIR_SEP.match(value, first.end())
    if sep is None or sep.end() == first.end() or not value[first.end() : sep.end()].strip():
        return [s]
    second = part.fullmatch(value, sep.end())
    if second is None or (s.category is Category.CONTACT and sum(c.isdigit() for c in first.group()) < 7):
        return [s]
    return [s.with_(end=s.start + first.end()), s.with_(start=s.start + sep.end())]


# Words that end no place's or organisation's name: "Harvey Milk Elementary in" of "... in
# the fall" is the school.
_NOT_A_PLACES_END = frozenset("a an the and or of to in on at by for from with as".split())
_NEXT_LINE_IS_CAPITAL = re.compile(r"\s+[A-Z]")
_PREPOSITIONS = frozenset("in at from to with for by as".split())  # not "on": "Walgreens on Maple Ave"


# A weekday after a name ("Seeing counsellor Mr Dempsey Thurs."): when, not who. ("Sun" is a
# surname too, so it is left.)
_WEEKDAY_WORD = r"(?:Mon|Tue|Tues|Wed|Weds|Thu|Thur|Thurs|Fri|Sat|Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)s?"
_WEEKDAY_END = re.compile(rf"[ \t]+{_WEEKDAY_WORD}(?:[-–/&]{_WEEKDAY_WORD}|[-–/&]Sun)*\.?$")  # "Losa Mon-Fri"


def _without_weekday_after(text: str, s: Span) -> Span:
    m = _WEEKDAY_END.search(text, s.start, s.end)
    return s.with_(end=m.start()) if m is not None and m.start() > s.start else s


def _without_trailing_words(text: str, s: Span) -> Span:
    """Not where a capital follows: "Hauora a Toi" is one name (te reo Māori "a", "of"), and
    the model stopped before its last part, which will be found on its own; for a place or an
    organisation, not where one follows on the next line either ("Bank of" / "America")."""
    place = s.category in (Category.LOCATION, Category.ORGANIZATION)
    words_end = _NOT_A_PLACES_END if place else _NOT_A_NAMES_END
    if (_NEXT_LINE_IS_CAPITAL if place else _NEXT_IS_CAPITAL).match(text, s.end):
        if not place:
            return s
        # a preposition of the sentence ends a place's name even before a capital ("Primanti
        # Bros in" + "Harrisburg"); "a", "of", "the", "and" may join one ("Hauora a Toi")
        words_end = _PREPOSITIONS
    end = s.end
    while (m := _LAST_WORD.search(text, s.start, end)) is not None and m.start() > s.start and m.group(1) in words_end:
        end = m.start()
    return s if end == s.end else s.with_(end=end)


# A street address that stops before its flat or unit number ("88 Ferncliff Rd apt" + " 2",
# "88 Ferncliff Rd" + ", Apt 2"): the number is part of the address.
_UNIT_AFTER = re.compile(r"(?:,?[ \t]+(?i:apt|apartment|unit|flat|suite|ste)\.?)?[ \t]*#?[ \t]*\d{1,4}[A-Za-z]?(?![\w/.:-])")
_UNIT_WORD_END = re.compile(r"(?i:apt|apartment|unit|flat|suite|ste|#)\.?$")
_UNIT_WORD_AFTER = re.compile(r",?[ \t]+[A-Za-z]")


def _with_unit(text: str, s: Span, nxt: Span | None) -> Span:
    """Not where the unit is a span of its own already ("4410 Sassafras Pkwy" and "Suite 210")."""
    if not text[s.start : s.start + 1].isdigit():
        return s  # a street address starts with its number
    m = _UNIT_AFTER.match(text, s.end)
    if m is None or (nxt is not None and nxt.start < m.end()):
        return s
    if _UNIT_WORD_END.search(text, s.start, s.end) or _UNIT_WORD_AFTER.match(text, s.end, m.end()):
        return s.with_(end=m.end())
    return s


# A name that ran on across a form's column gap into the next field's label ("Declan
# Moorcroft-Achebe    RiO: 2201837"): the label is no part of it.
_COLUMN_GAP = re.compile(r"[ \t]*(?:\t|[ ]{2,})[ \t]*")
_LABEL_COLON = re.compile(r"[ \t]*:")


def _without_next_label(text: str, s: Span) -> Span:
    gaps = list(_COLUMN_GAP.finditer(text, s.start, s.end))
    if not gaps or gaps[-1].start() <= s.start or gaps[-1].end() >= s.end:
        return s
    label = text[gaps[-1].end() : s.end]
    # the next field's label, with its colon after the span or known by its letters (a scan's
    # "D0B": "BJ0RNSTAD, ELLA  D0B O3/11/1949")
    if _LABEL_COLON.match(text, s.end) or label.upper().replace("0", "O").replace(".", "") in _FIELD_LABEL_WORDS:
        return s.with_(end=gaps[-1].start())
    return s


_FIELD_LABEL_WORDS = frozenset({"DOB", "AGE", "SEX", "DOD", "ADMITTED", "ADDRESS", *ID_LABELS})


# A surname a scan's OCR read with a zero for its O ("BJ0RNSTAD, ELLA"), taken for an
# identifier: beside a name's comma, it is the name's.
_NAME_WITH_ZERO = re.compile(r"[A-Z]+0[A-Z0]*[A-Z]|[A-Z]*[A-Z]0[A-Z]+")


def _ocr_surnames(text: str, ordered: list[Span]) -> list[Span]:
    out: list[Span] = []
    k = 0
    while k < len(ordered):
        s = ordered[k]
        nxt = ordered[k + 1] if k + 1 < len(ordered) else None
        value = text[s.start : s.end]
        if (
            s.category is Category.ID
            and _NAME_WITH_ZERO.fullmatch(value)
            and sum(c.isalpha() for c in value) >= 4
            and value.count("0") <= 2
            and nxt is not None
            and nxt.category is Category.NAME
            and text[s.end : nxt.start] in (", ", ",")
        ):
            # "SURNAME, First" is one name, as annotation takes it
            out.append(s.with_(category=Category.NAME, fine=nxt.fine, end=nxt.end, score=max(s.score, nxt.score)))
            k += 2
            continue
        out.append(s)
        k += 1
    return out


# A single initial the models kept without the first name before it ("Sue P. RN"): a listed
# first name right before it is the same person's.
_FIRST_NAME_BEFORE = re.compile(r"(?<![\w'’-])([A-Z][a-z]{1,15})[ \t]$")


def _with_first_name_before(text: str, s: Span, prev: Span | None) -> Span:
    if s.end - s.start != 1 or not text[s.start].isupper():
        return s
    m = _FIRST_NAME_BEFORE.search(text, max(0, s.start - 18), s.start)
    if m is None or (prev is not None and prev.end > m.start(1)):
        return s
    from .lexicons import first_names, not_names

    word = m.group(1).casefold()
    if word not in first_names() or word in not_names():
        return s
    end = s.end + 1 if text[s.end : s.end + 1] == "." else s.end  # the initial keeps its full stop
    return s.with_(start=m.start(1), end=end)


# A name that ran into the department in brackets after it ("Mr S. Venkatesan (Orthopaedics),
# Dunmore Royal Infirmary"): the bracket opens in the span and the department is no name.
# The acronyms in capitals only: "Edward (Ed" is a nickname's bracket.
_OPEN_DEPARTMENT = re.compile(rf"[ \t]*\([ \t]*(?:{DEPARTMENT}|ED|A&E|ICU|O&G)[ \t]*\)?$")


def _without_department(text: str, s: Span) -> Span:
    cut = text.find("(", s.start, s.end)
    if cut <= s.start or ")" in text[cut : s.end] or not _OPEN_DEPARTMENT.match(text, cut, s.end):
        return s
    end = cut
    while end > s.start and text[end - 1] in " \t":
        end -= 1
    return s.with_(end=end)


# A first initial before a surname the vote kept without it ("Doctor's signature: R
# Bhattacharjee", "Seen by: K Patel"): after a label's colon, a title, or at a line's start
# (not "A" or "I" there, which open sentences).
_INITIAL_BEFORE = re.compile(
    r"(?:(?:(?<=:)|(?<=\bDr)|(?<=\bMr)|(?<=\bMrs)|(?<=\bMs)|(?<=\bMx)|(?<=\bMiss)|(?<=\bProf)|(?<=\b(?:Dr|Mr|Ms|Mx)\.)|(?<=\bMrs\.))[ \t]+"
    r"|^(?=[B-HJ-Z]))(?P<i>[A-Z])\.?[ \t]+$",
    re.M,
)


# A surname in capitals, its comma and the first name's initial ("ABERNATHY, T (EMT-B",
# "OYELARAN-MARSH, T  NPI"): a model that stopped at the comma left the initial out.
_INITIAL_AFTER_CAPITALS = re.compile(r",[ \t]?([B-HJ-Z])(?=\.?(?:[ \t]*\(|[ \t]{2,}|\t|[ \t]*$|[ \t]*[,;|]))", re.M)


def _with_initial_after(text: str, s: Span, nxt: Span | None) -> Span:
    value = text[s.start : s.end]
    if len(value) < 2 or not value.replace("-", "").replace("'", "").isalpha() or not value.isupper():
        return s
    m = _INITIAL_AFTER_CAPITALS.match(text, s.end)
    if m is None or (nxt is not None and nxt.start < m.end()):
        return s
    return s.with_(end=m.end(1))


def _with_initial_before(text: str, s: Span, prev: Span | None) -> Span:
    if not text[s.start : s.start + 2].istitle() or not text[s.start + 1 : s.start + 2].isalpha():
        return s
    m = _INITIAL_BEFORE.search(text, max(0, s.start - 16), s.start)
    if m is None or (prev is not None and prev.end > m.start("i")):
        return s
    return s.with_(start=m.start("i"))


# A name or a place has its letters on both sides of an apostrophe ("Bo'ness", "O'Rourke",
# "D'Arcy"): a span that stops at it leaves the rest of the word in the export. Not a
# possessive or a contraction ("Smith's", "John'll").
_APOSTROPHE = "'\u2019"
_WORD_AFTER = re.compile(r"[^\W\d_]+")
_CONTRACTIONS = frozenset("s ll re ve d t m".split())
_WORD_BEFORE = re.compile(r"(?:^|(?<=[\s(\[\"/,;:]))[A-Z][a-z]{0,2}$")
# Values made of words, which a clock time or an apostrophe may cut.
_WORD_VALUES = frozenset({Category.NAME, Category.LOCATION, Category.ORGANIZATION})


def _over_apostrophes(text: str, start: int, end: int) -> tuple[int, int]:
    if end + 1 < len(text) and text[end] in _APOSTROPHE:
        m = _WORD_AFTER.match(text, end + 1)
        if m is not None and m.group().casefold() not in _CONTRACTIONS:
            end = m.end()
    if start >= 2 and text[start - 1] in _APOSTROPHE and text[start].isupper():
        m = _WORD_BEFORE.search(text, max(0, start - 5), start - 1)
        if m is not None:
            start = m.start()
    return start, end


def complete(text: str, spans: Iterable[Span]) -> list[Span]:
    """``spans`` with every ID, NAME and CONTACT span widened to its whole joined token, unless
    the widening would reach into a span of another category; names, places and organisations
    widened across an apostrophe; and what a model took in beside a value left out of it (a
    greeting, the sentence's next words, the next field's label, a department in brackets, a
    person's possessive, a log line's clock time, a piece of a clock time beside a date, and
    the words annotation leaves out of a value: an age's sex, a name's kinship word, role or
    credential, a day after a place, a label before an identifier, an age's "yo", a word
    after a date, a department beside an organisation); a pair of dates or phone numbers read
    as one split in two, and so a town and its state ("Goolwa SA") and the pieces of a pasted
    HL7 message; the state after a town and its comma that no member marked."""
    ordered = _streets_named_for_people(text, _without_log_times(text, sort_spans(spans)))
    ordered = sort_spans(
        p
        for s in ordered
        for f in _field_parts(text, s)
        for n in _name_parts(text, f)
        for w in _places_either_side(text, n)
        for a in _age_before_address(text, w)
        for t in _street_and_town(text, a)
        for q in _town_and_state(text, t)
        for p in _pair_parts(text, _without_annotation_extras(text, q))
    )
    ordered = _ocr_surnames(text, _whole_identifier_tokens(text, ordered))
    # an identifier joined from pieces may now begin with its label ("lic" + "P" + "884102")
    ordered = [_without_annotation_extras(text, s) if s.category is Category.ID else s for s in ordered]
    out: list[Span] = []
    for i, s in enumerate(ordered):
        if s.category is Category.PROFESSION:
            s = _without_trailing_words(text, s)  # "boats for" of "oyster boats for 40 years"
            m = _HYPHENED_BEFORE.search(text, max(0, s.start - 24), s.start)
            if m is not None and (i == 0 or ordered[i - 1].end <= m.start()):
                s = s.with_(start=m.start())  # "long-" of "long-haul trucker"
            end = job_end(text, s)
            nxt = ordered[i + 1] if i + 1 < len(ordered) else None
            if end is not None and end > s.end and (nxt is None or end <= nxt.start or nxt.category is s.category):
                s = s.with_(end=end)
            out.append(s)
            continue
        if s.category is Category.DATE:
            s = _with_weekday(text, _without_time(text, s), out[-1] if out else None)
        if s.category is Category.NAME:
            s = _with_initial_before(text, s, out[-1] if out else None)
            s = _with_initial_after(text, s, ordered[i + 1] if i + 1 < len(ordered) else None)
            s = _with_first_name_before(text, s, out[-1] if out else None)
            s = _without_greeting(text, s)
            s = _without_weekday_after(text, _without_trailing_words(text, s))
            s = _without_next_label(text, s)
            s = _without_department(text, s)
            s = _without_possessive(text, s)  # a person's; an organisation keeps its own ("St Vincent's")
        if s.category in (Category.LOCATION, Category.ORGANIZATION):
            s = _without_trailing_words(text, _without_leading_article(text, s, ordered[i - 1] if i > 0 else None))
        if s.category is Category.CONTACT:
            s = _without_number_before(text, s)
        if s.category is Category.LOCATION:
            s = _with_unit(text, s, ordered[i + 1] if i + 1 < len(ordered) else None)
        if s.category in _WORD_VALUES:
            s = _apostrophe_widened(text, s, ordered, i)
        if s.category not in COMPLETED:
            out.append(s)
            continue
        lower = s.category is Category.NAME and text[s.start : s.end].isalpha() and text[s.start : s.end].islower()
        start = _widen_start(text, s.start, s.category, lower)
        end = _widen_end(text, s.end, s.category, lower)
        if s.category is Category.NAME:
            h_start, h_end = _handle_bounds(text, s.start, s.end)
            start, end = min(start, h_start), max(end, h_end)
        if s.category is Category.ID and (start, end) != (s.start, s.end) and not _is_identifier_token(text[start:end]):
            start, end = s.start, s.end
        if s.category is Category.CONTACT and start > 0 and text[start - 1] == "(" and ")" in text[start:end] and "(" not in text[start:end]:
            start -= 1
        out.append(_widened(s, start, end, ordered, i))
    joined = _join_pieces(text, _merge_same(_with_state_after(text, _join_nicknames(text, _widen_organisations(text, sort_spans(out))))))
    return _ages_after_names(text, sort_spans(p for s in joined for p in _value_parts(text, s)))


# Pieces of one value, split where a model's words met a hyphen or a space ("Fairbrother" +
# "Assefa", "High" + "Street", "Cần" + "Thơ"): one name, one place, one organisation. Two
# values of one kind stand apart by more than one space or a mark between them.
_JOINABLE = (Category.NAME, Category.LOCATION, Category.ORGANIZATION)


# A town's state or postcode after it is a place of its own ("Goolwa SA", "Leeds LS6 2PQ").
_OWN_PLACE_KINDS = frozenset({"STATE", "ZIP", "COUNTRY"})
_PLACE_PART = re.compile(r"[A-Z]{2,3}|.*\d.*")


def _join_pieces(text: str, spans: list[Span]) -> list[Span]:
    out: list[Span] = []
    for s in spans:
        last = out[-1] if out else None
        if (
            last is not None and last.category is s.category and s.category in _JOINABLE
            and text[last.end : s.start] in (" ", "-") and text[last.end - 1 : last.end].isalpha() and text[s.start : s.start + 1].isalpha()
            and not (_PLACE_PART.fullmatch(text, s.start, s.end) or {last.fine, s.fine} & _OWN_PLACE_KINDS)
        ):
            out[-1] = last.with_(end=s.end, score=max(last.score, s.score), validated=last.validated or s.validated)
            continue
        out.append(s)
    return out


# A date list read as one value ("2016, 2019, 2022", "Sept-Nov 2023", "Monday the 9th (June
# 2025", "Jan '24, 30"): each date on its own, and what is no date left out. A name's pieces
# around a slash ("LC/ss", "Ferris/Oyelaran") are two people; what stands before a name that
# no name holds (a bed, a number: "Bed 3  Gwendolyn", "40  SIONE, Penitoa") is left out.
_MONTH_NAME = r"(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)[a-z]*"
_DATE_PIECE = re.compile(
    rf"(?:(?:Mon|Tue|Tues|Wed|Thu|Thur|Thurs|Fri|Sat|Sun)[a-z]*\.?,?[ \t]+)?(?:the[ \t]+)?\d{{1,2}}(?:st|nd|rd|th)?(?:[ \t]+(?:of[ \t]+)?{_MONTH_NAME}\.?)?(?:[ \t]+(?:19|20)\d\d|[ \t]+['’]\d\d)?"
    rf"|{_MONTH_NAME}\.?(?:[ \t]+\d{{1,2}}(?:st|nd|rd|th)?)?(?:,?[ \t]+(?:19|20)\d\d|[ \t]+['’]\d\d)?"
    r"|\d{1,4}[/.-]\d{1,2}(?:[/.-]\d{2,4})?|(?:19|20)\d\d"
)
# (a hyphen between two months' names, not "12-Mar": a day before it is the same date's)
# (and a hyphen between two days and months, a range: "3/14-3/17", "19/2-21/2")
_DATE_LIST_SEP = re.compile(
    r"[ \t]*(?:,|;|\(|\)|(?<=[A-Za-z.])[-–](?=[A-Z])|(?:(?<=/\d)|(?<=/\d\d))[ \t]*[-–](?=[ \t]*\d{1,2}/\d)|\band\b|&|\bin\b(?=[ \t]+[A-Z][a-z]{2}))[ \t]*"
)
_SLASH_PIECE = re.compile(r"(\d{1,2})/(\d{1,2})")
_MONTH_DAY_END = re.compile(rf"{_MONTH_NAME}\.?[ \t]+\d{{1,2}}(?:st|nd|rd|th)?$")
_YEAR_START = re.compile(r"(?:19|20)\d\d(?!\d)")
_NAME_SLASH = re.compile(r"[A-Za-z][\w'’-]*/[A-Za-z][\w'’-]*")
_NOT_A_NAMES_START = re.compile(r"(?:(?i:bed|bay|rm|room)[ \t]*\d+[A-Za-z]?|\d+)[ \t]{2,}(?=\S)")


def _value_parts(text: str, s: Span) -> list[Span]:
    value = text[s.start : s.end]
    if s.category is Category.DATE:
        if value.endswith(".") and not value[:-1].endswith((".", " ")) and re.search(r"[A-Za-z]\.$", value):
            s, value = s.with_(end=s.end - 1), value[:-1]  # "6th Feb.": the stop is the sentence's
        if not _DATE_LIST_SEP.search(value):
            return [s]
        parts: list[Span] = []
        pos = 0
        seps = [
            m for m in _DATE_LIST_SEP.finditer(value)
            if not (m.group().strip() == "," and _MONTH_DAY_END.search(value, 0, m.start()) and _YEAR_START.match(value, m.end()))
        ]  # "June 17, 2024" is one date
        if not seps:
            return [s]
        for sep in [*seps, None]:
            end = len(value) if sep is None else sep.start()
            piece = value[pos:end]
            m = _DATE_PIECE.fullmatch(piece)
            if m is None:
                return [s]  # not a plain list of dates: left as it is
            slash = _SLASH_PIECE.fullmatch(piece)
            possible = slash is None or any(1 <= int(a) <= 31 and 1 <= int(b) <= 12 for a, b in (slash.groups(), slash.groups()[::-1]))
            if possible and re.search(r"[A-Za-z/.'’-]|\d{4}", piece):  # a bare number ("30") or a score ("14/30") is none
                parts.append(s.with_(start=s.start + pos, end=s.start + end))
            pos = len(value) if sep is None else sep.end()
        return parts or [s]
    if s.category is Category.NAME:
        if (m := _NOT_A_NAMES_START.match(value)) is not None and m.end() < len(value):
            return [s.with_(start=s.start + m.end())]
        if _NAME_SLASH.fullmatch(value):
            cut = value.index("/")
            return [s.with_(end=s.start + cut), s.with_(start=s.start + cut + 1)]
    return [s]


# A person's age in brackets right after their name: "1020 Priya (14) HEADSSS f/u", "son
# Pádraig (44), an HGV driver". The annotation marks the number as an age; nothing else can
# stand there but an age (a bed or a ward comes before a name, not after it).
_AGE_IN_BRACKETS = re.compile(r"[ \t]*\((\d{1,3})(?=[ \t]*(?:\)|,[ \t]*[A-Za-z]))")


def _ages_after_names(text: str, spans: list[Span]) -> list[Span]:
    added: list[Span] = []
    for i, s in enumerate(spans):
        if s.category is not Category.NAME or (m := _AGE_IN_BRACKETS.match(text, s.end)) is None:
            continue
        if not 0 < int(m[1]) <= 120 or (i + 1 < len(spans) and spans[i + 1].start < m.end(1)):
            continue
        added.append(s.with_(start=m.start(1), end=m.end(1), category=Category.AGE, fine="OTHER", validated=False))
    return sort_spans(spans + added) if added else spans


# The field and component separators of a pasted HL7 message ("PID|1||...||TAUMALOLO^SIONE^
# LATU||"): no value holds one, and each piece between them is a value of its own. A bar
# with spaces round it is a table's column ("14 | Date March 21st"), left to the other steps.
_FIELD_SEPARATORS = re.compile(r"(?:\^|(?<! )\|(?! )|~)+")


# A writer's initials after a dash at a line's end, read with the name before them ("Dr HWANG
# -KT"), and a speaker's tag read with the first word of the message ("arinola: cant"): two
# people, and one person without the message.
_DASH_INITIALS = re.compile(r"[ \t]+[-–](?P<n>[A-Z]{2,3})$")
_TAG_COLON = re.compile(r":[ \t]")


def _name_parts(text: str, s: Span) -> list[Span]:
    if s.category is not Category.NAME:
        return [s]
    m = _TAG_COLON.search(text, s.start, s.end)
    if m is not None and m.start() > s.start:
        s = s.with_(end=m.start())
    m = _DASH_INITIALS.search(text, s.start, s.end)
    if m is not None and m.start() > s.start:
        return [s.with_(end=m.start()), s.with_(start=m.start("n"))]
    return [s]


def _field_parts(text: str, s: Span) -> list[Span]:
    value = text[s.start : s.end]
    if "|" not in value and "^" not in value:
        return [s]
    out, pos = [], s.start
    for m in [*_FIELD_SEPARATORS.finditer(text, s.start, s.end), None]:
        end = s.end if m is None else m.start()
        piece = text[pos:end]
        if piece.strip():
            lead = len(piece) - len(piece.lstrip())
            out.append(s.with_(start=pos + lead, end=pos + len(piece.rstrip())))
        if m is not None:
            pos = m.end()
    return out or [s]


# A town and its state read as one place or as an organisation ("Goolwa SA" after a care
# home's name, "Woonsocket RI"): annotated, and replaced, as two places.
_TOWN_STATE = re.compile(rf"(?P<town>[A-Z][a-z'’-]+(?:[ \t][A-Z][a-z'’-]+){{0,2}}),?[ \t]+(?P<state>{STATE_ABBR})")


def _town_and_state(text: str, s: Span) -> list[Span]:
    if s.category not in _PLACES:
        return [s]
    m = _TOWN_STATE.fullmatch(text, s.start, s.end)
    if m is None or any(w.casefold() in _ORG_HEADS or w.casefold() in _ORG_LINKS for w in m["town"].split()):
        return [s]
    return [
        s.with_(end=m.end("town"), category=Category.LOCATION, fine="CITY"),
        s.with_(start=m.start("state"), category=Category.LOCATION, fine="STATE"),
    ]


# A street named for a person, read as the person ("Wade Hampton" + "Blvd", "Martin Luther
# King Jr" + "Drive"): the name and the street's word after it (with the house number before
# it) are one place. Street words that are also surnames or words ("Lane", "Green", "Way")
# are left out; "St" only where no capitalised word follows it ("St Vincent's" is a saint).
_STREET_WORD_AFTER = re.compile(
    r"[ \t]+(?:Street|Road|Rd|Avenue|Ave|Boulevard|Blvd|Highway|Hwy|Parkway|Pkwy|Crescent|Cres|Terrace|Tce"
    r"|Parade|Pde|Esplanade|Drive|St(?![ \t.]*[A-Z]))\b"
)
_HOUSE_NUMBER_BEFORE = re.compile(r"(?<![\w/.-])\d{1,5}[A-Za-z]?[ \t]+$")


def _streets_named_for_people(text: str, ordered: list[Span]) -> list[Span]:
    out: list[Span] = []
    skip_to = -1
    for k, s in enumerate(ordered):
        if s.start < skip_to:
            continue
        m = _STREET_WORD_AFTER.match(text, s.end) if s.category is Category.NAME else None
        if m is None or any(o.start < m.end() and o.end > m.end() for o in ordered[k + 1 : k + 3]):
            out.append(s)
            continue
        start = s.start
        number = _HOUSE_NUMBER_BEFORE.search(text, max(0, s.start - 8), s.start)
        if number is not None and not (out and out[-1].end > number.start()):
            start = number.start()
        out.append(s.with_(start=start, end=m.end(), category=Category.LOCATION, fine="STREET"))
        skip_to = m.end()  # the street's word, marked apart by a model, is inside it now
    return out


# Two places read as one with the word that relates them ("Tonga in Ranui", "Route 23 near
# Pikeville"): each is a place, the word between them none.
_BETWEEN_PLACES = re.compile(r"[ \t]+(?:in|near|at|outside|off|via)[ \t]+(?=[A-Z])")


def _places_either_side(text: str, s: Span) -> list[Span]:
    if s.category is not Category.LOCATION:
        return [s]
    m = _BETWEEN_PLACES.search(text, s.start, s.end)
    if m is None or not text[s.start].isupper() or not (text[s.start : m.start()].strip()):
        return [s]
    return [s.with_(end=m.start()), *_places_either_side(text, s.with_(start=m.end()))]


# A person's age and the address after it read as one place ("Mrs Hilda Blowers, 86, 3 Mill
# Cottages, Aylsham"): the age, after the name's comma, is an age.
_AGE_THEN_ADDRESS = re.compile(r"(?P<age>\d{1,3}),[ \t]+(?=\d{1,5}[A-Za-z]?[ \t]+[A-Z])")


def _age_before_address(text: str, s: Span) -> list[Span]:
    if s.category is not Category.LOCATION:
        return [s]
    m = _AGE_THEN_ADDRESS.match(text, s.start, s.end)
    if m is None or text[max(0, s.start - 2) : s.start] != ", " or not 0 < int(m["age"]) <= 120:
        return [s]
    return [s.with_(end=m.end("age"), category=Category.AGE, fine="OTHER"), s.with_(start=m.end())]


# A street and its town read as one place ("220 Market St Ste 4, Sunbury"): annotated, and
# replaced, as two. Only where what stands before the comma is a street with its number (and
# a unit after it) and what follows is a town's capitalised words: "Flat 6, Penwarden House,
# 22 Penhallow Mews" is one address.
_STREET_THEN_TOWN = re.compile(
    rf"(?P<street>{STREET.pattern}(?:[ \t,]+(?i:apt|apartment|unit|suite|ste|#)\.?[ \t]*#?[ \t]*\d{{1,4}}[A-Za-z]?)?)"
    r",[ \t]+(?P<town>[A-Z][a-zāēīōū'’-]+(?:[ \t][A-Z][a-zāēīōū'’-]+){0,2})"
)


def _street_and_town(text: str, s: Span) -> list[Span]:
    if s.category is not Category.LOCATION or "," not in text[s.start : s.end]:
        return [s]
    m = _STREET_THEN_TOWN.fullmatch(text, s.start, s.end)
    if m is None or STREET.search(m["town"]) is not None:
        return [s]
    return [s.with_(end=m.end("street"), fine="STREET"), s.with_(start=m.start("town"), fine="CITY")]


# The state after a town and its comma that no member marked ("Mountain Home, AR;",
# "Located at: Trehpven, TAS - with friend"), where the line or the clause ends after it:
# after a place a state's letters are no credential. After a town a model read as a name,
# only an Australian state's three letters ("Jordan Smith, PA" is a physician assistant).
_STATE_AFTER = re.compile(rf",[ \t]*(?P<state>{STATE_ABBR})(?=[ \t]*(?:$|[,;.)]|\d|[-–]))", re.M)
_AU_STATES_3 = frozenset("NSW VIC QLD TAS ACT".split())


def _with_state_after(text: str, spans: list[Span]) -> list[Span]:
    out: list[Span] = []
    for i, s in enumerate(spans):
        out.append(s)
        if s.category not in (Category.LOCATION, Category.ORGANIZATION, Category.NAME):
            continue
        m = _STATE_AFTER.match(text, s.end)
        if m is not None and s.category is Category.NAME and m["state"] not in _AU_STATES_3:
            continue
        nxt = spans[i + 1] if i + 1 < len(spans) else None
        if m is not None and (nxt is None or nxt.start >= m.end()):
            out.append(s.with_(start=m.start("state"), end=m.end("state"), category=Category.LOCATION, fine="STATE", validated=False))
    return out


# A nickname in brackets or quotes between a first name and a surname: the three are one
# name, as annotated ("Elspeth (Betty) Gruar", 'Haralambos "Harry" Karagiannopoulos'), and a
# surrogate for the whole keeps the brackets balanced.
_NICK_OPEN = re.compile(r"[ \t]*[(\"“'‘][ \t]*")
_NICK_CLOSE = re.compile(r"[ \t]*[)\"”'’][ \t]*")


def _join_nicknames(text: str, spans: list[Span]) -> list[Span]:
    out: list[Span] = []
    i = 0
    while i < len(spans):
        a = spans[i]
        if i + 2 < len(spans) and all(s.category is Category.NAME for s in spans[i : i + 3]):
            b, c = spans[i + 1], spans[i + 2]
            if (
                _NICK_OPEN.fullmatch(text, a.end, b.start)
                and _NICK_CLOSE.fullmatch(text, b.end, c.start)
                and " " not in text[b.start : b.end]
                and "\n" not in text[a.start : c.end]
            ):
                out.append(a.with_(end=c.end, score=max(a.score, b.score, c.score)))
                i += 3
                continue
        out.append(a)
        i += 1
    return out


def _whole_identifier_tokens(text: str, ordered: list[Span]) -> list[Span]:
    """An identifier written as one token that the vote cut into pieces ("LAU" a name and
    "00928841" an ID of "LAU-00928841"; "88" an ID, "33219" a contact and "K" an ID of
    "88-33219-K") is one identifier: the other pieces inside its token are dropped."""
    dropped: set[int] = set()
    widened: dict[int, Span] = {}
    for k, s in enumerate(ordered):
        if s.category is not Category.ID or k in dropped:
            continue
        start, end = _widen_start(text, s.start, s.category), _widen_end(text, s.end, s.category)
        if (start, end) == (s.start, s.end):
            continue
        # the neighbours inside the token: the spans are sorted, so only those next to it
        inside = []
        j = k - 1
        while j >= 0 and ordered[j].end > start:
            if ordered[j].start >= start:
                inside.append(j)
            j -= 1
        j = k + 1
        while j < len(ordered) and ordered[j].start < end:
            if ordered[j].end <= end:
                inside.append(j)
            j += 1
        if not inside or not _is_identifier_token(text[start:end]):
            continue
        dropped.update(inside)
        widened[k] = s.with_(start=start, end=end)
    if not widened:
        return ordered
    return sort_spans(widened.get(k, s) for k, s in enumerate(ordered) if k not in dropped)


def _widened(s: Span, start: int, end: int, ordered: list[Span], i: int) -> Span:
    """``s`` (``ordered[i]``) widened to ``start``-``end``, each side only where it does not
    reach into a neighbour of another category."""
    prev = ordered[i - 1] if i > 0 else None
    nxt = ordered[i + 1] if i + 1 < len(ordered) else None
    if prev is not None and prev.category is not s.category and start < prev.end:
        start = s.start
    if nxt is not None and nxt.category is not s.category and end > nxt.start:
        end = s.end
    return s if (start, end) == (s.start, s.end) else s.with_(start=start, end=end)


def _apostrophe_widened(text: str, s: Span, ordered: list[Span], i: int) -> Span:
    return _widened(s, *_over_apostrophes(text, s.start, s.end), ordered, i)


_SPACES = re.compile(r"[ \t]+")


def _without_log_times(text: str, spans: list[Span]) -> list[Span]:
    """A span that took in the clock time opening a log's line ("1100 Harold" of "1100 Harold
    ambulating in hall") starts after it; one that is only the time is no value."""
    if not spans:
        return spans
    times = {a: b for a, b in log_times(text)}
    if not times:
        return spans
    out = []
    for s in spans:
        end = times.get(s.start)
        if end is not None and (end >= s.end or s.category in _WORD_VALUES):  # a phone's "0412 ..." stays whole
            if end >= s.end:
                continue
            m = _SPACES.match(text, end)
            if m is None or m.end() >= s.end:
                out.append(s)
                continue
            s = s.with_(start=m.end())
        out.append(s)
    return out


def whole_handles(text: str, spans: Iterable[Span]) -> list[Span]:
    """Every name span inside a lower-case user name widened to the whole handle, where no
    span of another category lies in it: for the spans propagation adds after completion (a
    first name found again inside "lupe.ibarra71" further down a portal log)."""
    ordered = sort_spans(spans)
    starts = [s.start for s in ordered]
    widened: set[int] = set()
    out: list[Span] = []
    for s in ordered:
        if s.category is Category.NAME:
            lo, hi = _handle_bounds(text, s.start, s.end)
            # a span that overlaps the handle starts before its end, and no value runs on
            # for more than _NEAR characters
            near = ordered[bisect_left(starts, lo - _NEAR) : bisect_left(starts, hi)]
            if (lo, hi) != (s.start, s.end) and not any(o.category is not Category.NAME and o.end > lo for o in near):
                s = s.with_(start=lo, end=hi)
                widened.add(len(out))
        out.append(s)
    if not widened:
        return ordered
    # the name pieces a handle now holds go ("lupe" and "ibarra71" of "lupe.ibarra71")
    kept: list[Span] = []
    cover: Span | None = None
    for k in sorted(range(len(out)), key=lambda k: (out[k].start, -out[k].end, k not in widened)):
        s = out[k]
        if cover is not None and s.category is Category.NAME and cover.start <= s.start and s.end <= cover.end:
            continue
        if k in widened:
            cover = s
        kept.append(s)
    return sort_spans(kept)


_NEAR = 1000


def _merge_same(spans: list[Span]) -> list[Span]:
    """Widening may make two spans of one category touch or overlap: keep them as one."""
    merged: list[Span] = []
    for s in spans:
        if merged and merged[-1].category is s.category and s.start <= merged[-1].end:
            last = merged[-1]
            if s.end > last.end:
                merged[-1] = last.with_(end=s.end, score=max(last.score, s.score))
            continue
        merged.append(s)
    return merged
