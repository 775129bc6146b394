"""Person names, found by what surrounds them: a title (Dr, Mrs), a form field (Patient:,
Name:), a sign-off (Signed:, Yours sincerely), a writer's initials closing a note ("... SMS. KW")
or before a bleep ("HC / bleep 4471"), a relationship word (her daughter Aroha), or a first name
from the dictionaries followed by a surname.

A dictionary hit alone is never enough: "Will", "Grace" and "Brown" are ordinary words.
"""

from __future__ import annotations

import re
from collections import Counter
from functools import lru_cache
from typing import Iterator

from ...categories import Category
from ...spans import Span
from ..base import register
from ..guards import BED_WORDS, CREDENTIALS, DEPARTMENT_WORD, TITLE_WORD, opens_a_line
from ..lexicons import clinical_acronyms, encoder_words, first_names, name_words, not_names, surnames
from .common import LO, UP, RuleDetector, after, before, keep_longest, trie_regex

_PART = rf"(?:[{UP}][{LO}]+(?:[{UP}][{LO}]+)?|[{UP}]{{2,}})"  # Smith, McDonald, SMITH
WORD = rf"(?:(?:[OD]['’])?{_PART}(?:['’-]{_PART})*(?![{UP}{LO}\d]))"  # O'Neil-Patel, D'Souza
_INITIAL = rf"[{UP}](?:\.[ \t]*|[ \t]+)"
_PARTICLE = r"(?:van|von|de|der|den|da|di|du|la|le|del|della|bin|binti|ibn|al|el|ter|ten|dos|das|ap|ferch)"
NAME = rf"(?:{_PARTICLE}[ \t]+){{0,2}}(?:{_INITIAL}){{0,3}}{WORD}(?:[ \t]+(?:{_PARTICLE}[ \t]+){{0,2}}(?:{_INITIAL}){{0,2}}{WORD}){{0,3}}"
_LAST_FIRST = rf"{WORD},[ \t]*{WORD}(?:[ ]{WORD})?(?:[ \t]+[{UP}]\b\.?)?"  # "Tran, Minh Khoa", "Doe, Jane Q"
# Police and service ranks name an officer as a title does, "Sen Const. Kylie Brannigan #8812",
# and so do the clergy's, "Chaplain Bartholomew Okoro-Vance".
_RANKS = "Const Constable Cst Sgt Sergeant Det Detective Insp Inspector Cpl Corporal Capt Captain Lt Officer PC DC DS DI DCI DCS PCSO".split()
_CLERGY = "Chaplain Pastor Rabbi Imam".split()
# Kinship and community titles written before a name as "Mrs" is ("Uncle Sione", "Aunty Mere",
# "Whaea Ngāpera", "Kaumātua Matiu Rangiuia"); the title stays outside the name, as annotation
# has it (completion.py strips the same words from a model's span).
_KIN = "Uncle Auntie Aunty Aunt Tío Tía Kuia Koro Whaea Kaumātua Kaumatua Faifeau".split()
TITLES = "Dr Doctor Mr Mrs Ms Miss Mx Prof Professor Nurse Sister Sr Matron Midwife Rev Reverend Sir Dame Master".split() + _RANKS + _CLERGY + _KIN
_TITLE = trie_regex(TITLES + [t.upper() for t in TITLES], ignore_case=False)
_RANK_KEYS = frozenset(r.casefold() for r in _RANKS)
_KIN_KEYS = frozenset(k.casefold() for k in _KIN)
_CLINICIAN_TITLES = {"dr", "doctor", "prof", "professor", "nurse", "sister", "sr", "matron", "midwife"}
_CREDENTIALS = "(?:" + "|".join(re.escape(c) for c in sorted(CREDENTIALS, key=len, reverse=True)) + ")"
_CREDENTIAL_WORDS = frozenset(c.rstrip(".").casefold() for c in CREDENTIALS)
_CREDENTIAL_SET = frozenset(CREDENTIALS)
_TOKEN = re.compile(r"\S+")
_POSSESSIVE_BEFORE = re.compile(r"\b(?:his|her|their|my|your|our|pt'?s|patient'?s)\s+$")
_STREET_BEFORE = re.compile(r"\d+[A-Za-z]?\s+(?:[A-Z][a-z]+\s+){1,3}$")
_PATIENT_BEFORE = re.compile(r"\b(?:patient|pt|client)\W*$")
_SURGEON_AFTER = re.compile(r"consultant|surgeon|frcs|fracs|registrar|physician|cardiologist|anaesthetist|obstetrician|\bgp\b")


def _key(word: str) -> str:
    return re.sub(r"(?:['’]s|[.,;:])+$", "", word).casefold()


def is_known_name(word: str) -> bool:
    k = _key(word)
    return k in first_names() or k in surnames()


def _is_initial(tok: str) -> bool:
    return len(tok.rstrip(".")) == 1 and tok[0].isupper()


def trim_name(text: str, start: int, end: int) -> tuple[int, int] | None:
    """Cut a candidate name at the first word that cannot be part of a name (a heading word, a
    verb starting the next clause, a capitals word that is no known name)."""
    stop = not_names()
    kept: list[tuple[int, int]] = []
    for i, m in enumerate(_TOKEN.finditer(text, start, end)):
        tok = m.group()
        k = _key(tok)
        if _is_initial(tok):
            kept.append(m.span())
            continue
        if k in _CREDENTIAL_WORDS or (k in stop and not (is_known_name(tok) and (i == 0 or k not in name_words()))):
            break
        if i > 0 and tok.isupper() and not is_known_name(tok):
            break
        kept.append(m.span())
    while len(kept) > 1 and _is_initial(text[kept[-1][0] : kept[-1][1]]) and text[kept[-1][1] - 1] != ".":
        if text[kept[-1][1] : kept[-1][1] + 1] in ("", "\n", "\r", ",", ")", ";") or _FIELD_GAP.match(text, kept[-1][1]):
            break  # "Smith, John A" ends with a middle initial, at a line's end or a form's column gap; "Dr Smith I think" does not
        kept.pop()
    if not kept or all(_is_initial(text[s:e]) for s, e in kept):
        return None
    s, e = kept[0][0], kept[-1][1]
    while e > s and text[e - 1] in ".,;:":
        e -= 1
    return s, e


def _words(text: str, start: int, end: int) -> list[str]:
    return [t for t in (_key(m.group()) for m in _TOKEN.finditer(text, start, end)) if len(t) > 1]


def plausible(text: str, start: int, end: int, allow_ordinary: bool = False) -> bool:
    """At least one word, or one part of a double-barrelled word ("Okeke-Landry"), is a known
    first name or surname (that is not also an ordinary word, unless the context already says
    a name follows)."""
    return any(
        w in first_names() or w in surnames()
        for word in _words(text, start, end)
        for w in (word, *(word.split("-") if "-" in word else ()))
        if allow_ordinary or w not in name_words()
    )


class _NameRule(RuleDetector):
    def name_span(
        self, text: str, start: int, end: int, fine: str, score: float, known: bool = False
    ) -> Span | None:
        """The trimmed name as a span; with ``known`` one word must be in the name lists (a
        field such as "Patient:" is as often followed by "Alert and oriented"). A name ends at
        a form's field gap: "Ms Ottilie Brannagh   Hosp No:" is "Ottilie Brannagh"."""
        gap = _FIELD_GAP.search(text, start, end)
        if gap is not None:
            end = gap.start()
        cut = trim_name(text, start, end)
        if cut is None:
            return None
        s, e = cut
        if known and not plausible(text, s, e, allow_ordinary=True):
            return None
        if text[s:e].isupper():
            score -= 0.05
        return self.span(s, e, Category.NAME, fine, score)


# Two spaces or more, or a tab: a form's next field ("Ms Ottilie Brannagh  Hosp No:").
_FIELD_GAP = re.compile(r"\t| {2,}")
_TITLED = re.compile(rf"(?<![\w.])(?P<t>{_TITLE})\b\.?[ \t]+(?P<n>{NAME})")


@register("titled_name")
class TitledNameDetector(_NameRule):
    def detect(self, text: str) -> list[Span]:
        out = []
        for m in _TITLED.finditer(text):
            title = m["t"].lower()
            if title in ("nurse", "sister", "sr") and _POSSESSIVE_BEFORE.search(before(text, m.start(), 20)):
                continue  # "her sister Mary" is a relative, not a nursing sister
            if title == "dr" and _STREET_BEFORE.search(text[max(0, m.start() - 40) : m.start()]):
                continue  # "45 Smith Dr Auckland": Drive, not Doctor
            if title in _CLINICIAN_TITLES:
                fine = "DOCTOR"
            elif title in ("rev", "reverend", "chaplain", "pastor", "rabbi", "imam") or title in _RANK_KEYS:
                fine = "OTHER"
            elif title in _KIN_KEYS:
                fine = "RELATIVE"
            else:
                # UK surgeons are "Mr"; otherwise Mr / Mrs is most often the patient.
                rest = re.split(r"[.;\n]", after(text, m.end("n"), 60), maxsplit=1)[0]
                fine = "DOCTOR" if _SURGEON_AFTER.search(rest) else "PATIENT"
            score = 0.9 if fine == "DOCTOR" or title in ("rev", "reverend") else 0.8
            if (s := self.name_span(text, m.start("n"), m.end("n"), fine, score)) is not None:
                # A title, then words that read as a name ("Mrs. Gutowski's class", which the
                # models passed over): validated. Not a title in capitals before a word that is
                # not ("MS Contin" is a drug).
                if (not m["t"].isupper() or text[s.start : s.end].isupper()) and _reads_as_a_name(
                    [_key(w) for w in text[s.start : s.end].split()]
                ):
                    s = s.with_(validated=True)
                out.append(s)
        for m in _TITLED_LOWER.finditer(text):
            # a message typed in lower case: "dr. haverkamp reviewed", "spoke to mrs okafor";
            # only a word no vocabulary has (the encoder's, the not-names list, the clinic's)
            word = m["n"]
            if word in encoder_words() or word in not_names() or word in _guard_words():
                continue  # "mr gliclazide": a drug's modified release
            out.append(self.span(m.start("n"), m.end("n"), Category.NAME, "OTHER", 0.8, validated=True))
        return out


@lru_cache(maxsize=1)
def _guard_words() -> frozenset[str]:
    """The guards' lists (drugs, clinical terms, vocabulary) in lower case, one word each."""
    from ..lexicons import guard_terms

    return frozenset(t.casefold() for t in guard_terms() if " " not in t)


# A title in lower case, then a lower-case word: "dr. haverkamp", a chat's "nurse bec:".
_TITLED_LOWER = re.compile(r"(?<![\w.])(?:dr|mr|mrs|ms|nurse|midwife)\.?[ \t]+(?P<n>[a-z][a-z'’-]{2,}(?:-[a-z]{2,})?)(?![\w'’-])")


def _labels(words: str) -> str:
    return trie_regex(words.split("|"))


_FIELD_LABELS = {
    "PATIENT": _labels(r"patient|patient name|patient's name|name of patient|pt|pt name|client|client name|resident"),
    "DOCTOR": _labels(
        r"attending|attending physician|consultant|surgeon|anaesthetist|anesthetist|anesthesiologist|physician|doctor"
        r"|gp|general practitioner|referring doctor|referring physician|referring clinician|referrer|clinician"
        r"|provider|pcp|primary care physician|ordering physician|ordering provider|registrar|resident doctor"
        r"|author|midwife|lmc|cardiologist|radiologist|pathologist|specialist|responsible clinician|rmo"
    ),
    "RELATIVE": _labels(
        r"next of kin|nok|emergency contact|contact person|mother|father|spouse|partner|guardian|parent"
        r"|caregiver|carer|husband|wife"
    ),
    "OTHER": _labels(
        r"caller|name|full name|surname|family name|last name|first name|given name|given names|forename|forenames"
        r"|preferred name|known as|aka|alias|maiden name|witness|interpreter|social worker|case manager"
    ),
}
_FIELD = re.compile(
    r"(?m)(?:^|(?<=[\s;|,(]))[ \t]*(?P<label>" + "|".join(f"(?P<{k}>{v})" for k, v in _FIELD_LABELS.items())
    + rf")[ \t]*(?::|-|=)[ \t]*(?:(?:{_TITLE})\b\.?[ \t]+)?(?P<n>{_LAST_FIRST}|{NAME})"
)
_USERNAME = re.compile(r"\b(?i:user\s*name|user\s*id|login|logon)[ \t]*[:=][ \t]*(?P<v>[A-Za-z][\w.-]{1,30}[A-Za-z0-9])")
# A staff member's login after their role or an "entered by" label, in lower case as EHRs
# print it: "Triage RN: kmoreno", "Charted by: j.okafor2". The whole field is the handle
# (nothing but a gap, a separator or the line's end after it); a common word is not one.
_HANDLE = re.compile(
    r"(?<![\w.])(?i:(?:(?:triage|charge|primary|scrub|circulating)[ \t]+)?(?:rn|rpn|lpn|en|nurse|hca|scribe|clerk|user|operator|tech|transcriptionist|typist|secretary)"
    r"|(?:entered|recorded|charted|documented|updated|modified|completed|logged|transcribed|typed|taken)[ \t]+by)[ \t]*:[ \t]*"
    r"(?P<v>[a-z]{1,16}(?:\.[a-z]{2,15})?\d{0,4})(?=[ \t]*(?:$|[,;|]|[ \t]{2}|-{2,}))",
    re.MULTILINE,
)


_TYPIST = re.compile(r"(?i:transcri|typ|secretary|taken)")


# The next field's label on the same line: a capitalised word, perhaps with one lower-case
# word after it, then a colon ("Forename:", "First name:", "DOB:").
_NEXT_LABEL = re.compile(r"[A-Z][\w'’-]*(?:[ \t]+[a-z]+)?[ \t]*:")
_WORD_START = re.compile(r"(?<=[ \t])\S")


def _before_next_label(text: str, start: int, end: int) -> int | None:
    """Where a labelled name ends when the next field's label follows it on the line
    ("Surname: AMPOMA Forename: Kolawole" is "AMPOMA", not "AMPOMA Forename"); None when
    the value is itself a label."""
    if _NEXT_LABEL.match(text, start):
        return None
    for w in _WORD_START.finditer(text, start, end):
        if _NEXT_LABEL.match(text, w.start()):
            return len(text[start : w.start()].rstrip()) + start
    return end


@register("labelled_name")
class LabelledNameDetector(_NameRule):
    def detect(self, text: str) -> list[Span]:
        out = []
        for m in _FIELD.finditer(text):
            fine = next(k for k in _FIELD_LABELS if m.group(k) is not None)
            end = _before_next_label(text, m.start("n"), m.end("n"))
            if end is not None and (s := self.name_span(text, m.start("n"), end, fine, 0.9, known=True)) is not None:
                out.append(s)
        for m in _USERNAME.finditer(text):
            out.append(self.span(m.start("v"), m.end("v"), Category.NAME, "USERNAME", 0.85))
        stop = not_names()
        for m in _HANDLE.finditer(text):
            handle = m["v"]
            # a typist signs with initials ("Transcriptionist: rmc"), a login is longer
            shortest = 2 if _TYPIST.search(text, m.start(), m.start("v")) else 4
            if len(handle) >= shortest and handle not in stop and handle not in encoder_words() and handle.upper() not in clinical_acronyms():
                # the label and the shape prove it; the models rarely mark a lower-case login
                out.append(self.span(m.start("v"), m.end("v"), Category.NAME, "USERNAME", 0.85, validated=True))
        return out


_SIGNERS = _labels(
    "electronically signed by|e-signed by|esigned by|signed by|signed|dictated by|authorised by|authorized by"
    "|verified by|reviewed by|reported by|approved by|seen by|referred by|written by|completed by|copy to"
    "|copies to|cc|c.c.|co-signed by|co-signed|cosigned by|cosigned|countersigned by|countersigned|witnessed by"
    "|signature|doctor signature|clinician signature"
)
_STAFF = _labels("transcribed by|typed by|taken by|entered by|recorded by")  # typists, receptionists
_SIGN_LABEL = re.compile(
    rf"(?<![\w.])(?:(?P<staff>{_STAFF})|{_SIGNERS})(?!\w)(?P<colon>(?:[ \t]*\([^()\n]{{1,30}}\))?[ \t]*:)?[ \t]*"
)
_LIST_NAME = re.compile(rf"[ \t]*(?:(?P<t>{_TITLE})\b\.?[ \t]+)?(?P<n>{NAME})[ \t]*(?:,|;|&|\band\b|/)?")
_CLOSING = re.compile(
    r"(?im)^[ \t]*(?:yours\s+(?:sincerely|faithfully|truly)|(?:with\s+)?(?:kind|best|warm|many)\s+(?:regards|thanks)"
    r"|regards|thanks|thank\s+you|best\s+wishes|ng[āa]\s+mihi|sincerely|cheers)[ \t]*[,.!]?[ \t]*$"
)
_SIGNATURE_LINE = re.compile(rf"[ \t]*(?:(?:{_TITLE})\b\.?[ \t]+)?(?P<n>{NAME})")
# Credentials are rare, names common: find the credential, then the name just before it.
_CREDENTIAL = re.compile(rf"(?<=[ \t,]){_CREDENTIALS}(?![\w])")
_NAME_BEFORE_CREDENTIAL = re.compile(rf"(?<![\w.'’-])(?:(?:{_TITLE})\b\.?[ \t]+)?(?P<n>{NAME}),?[ \t]+$")
_INITIALS_LINE = re.compile(rf"(?m)^[ \t]*(?:(?:{_TITLE})\b\.?[ \t]+)?(?P<n>(?:[{UP}]\.[ \t]?){{1,2}}{WORD})[ \t]*$")
# A writer's initials closing a note or a message: alone on its line ("TG", "-DR") or after
# the last sentence ("... sent by SMS. SM"), with nothing but a blank line, a rule of dashes
# or the end of the text after it. And initials before a bleep or an extension ("HC / bleep
# 4471", "JK ext 2290"). Clinical abbreviations and heading words are not taken.
_SIGNOFF_INITIALS = re.compile(r"(?m)(?:^[ \t]*[-–—~]{0,2}[ \t]*|(?<=[.!?)])[ \t]+[-–—~]{0,2}[ \t]*)(?P<n>[A-Z]{2,4})[ \t]*$")
_CLOSING_WORDS = frozenset("OK END NB PS FYI NIL NAD".split())


_AFTER_SIGNOFF = re.compile(r"[ \t]*(?:\Z|\n[ \t]*(?:\n|\Z|[-=_*~]{3,}))")
# A letter's typist in brackets after the dictation or typing date, "Typed: 18/10/2024 (sw)",
# and a UK letter's reference of the author's and the typist's initials, "Our ref: IOH/sw".
_TYPED_INITIALS = re.compile(
    r"\b(?i:typed|transcribed|dictated|dict)\b[ \t]*(?i:by)?[ \t]*:?[ \t]*(?:\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}[ \t]*)?"
    r"\([ \t]*(?P<n>[A-Za-z]{2,3})[ \t]*\)"
)
# The typist's initials alone after the label, at the line's end, before the date or a column
# gap: "Typed: kl", "Typed by: JM 20/11/24", "Transcribed by: TLB   Prairie View Imaging".
_TYPED_BY = re.compile(
    r"\b(?i:typed|typist|transcribed|transcriptionist|prepared|dictated)\b[ \t]*(?i:by)?[ \t]*(?::[ \t]*|"
    # or the initials alone before a slash or a column gap: "Dictated NT / typed jlw     Page 1"
    r"[ \t](?=[A-Za-z]{2,3}(?:[ \t]*/|\t|[ ]{2,}|[ \t]*$))|"
    # or the date typed, then the typist: "Typed 04.10.24 ak"
    r"[ \t](?:on[ \t]+)?\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}[ \t]+)(?P<n>[A-Za-z]{2,3})"
    r"(?=[ \t]*(?:$|[,;/]|\d{1,2}[/.-]\d)|\t|[ ]{2,})",
    re.M,
)
# ... and the same pair in brackets after the writer's role: "Bereavement Coordinator (DOH/lr)".
_BRACKET_REF = re.compile(r"\((?P<a>[A-Z]{2,4})/(?P<b>[a-z]{2,3})\)")
_LETTER_REF = re.compile(
    r"(?<![\w.])(?i:(?:our|your|my)[ \t]+)?(?i:ref|reference)\b\.?[ \t]*(?i:no\.?)?[ \t]*:[ \t]*"
    r"(?P<a>[A-Z]{2,4})[ \t]*/[ \t]*(?P<b>[A-Za-z]{2,4})(?![\w/])"
)
# Initials after a technician's or a scribe's label ("Tech: RBK", "Sonographer: JWP"), and
# initials before a role in brackets ("- SB (RN).", "JO (HCA)"): a member of staff signing.
_ROLE_LABEL_INITIALS = re.compile(
    r"\b(?i:tech|technologist|technician|sonographer|radiographer|scribe|typist|transcriptionist"
    r"|midwife|student[ \t]+(?:midwife|mw|nurse)|pharmacist|dietitian|interpreter|chaperone)\b[ \t]*:[ \t]*(?P<n>[A-Z]{2,4})(?![\w])"
)
# A clinician's title before their initials: "Dr IS (phone + in person)", "Dr E-M aware".
_TITLE_THEN_INITIALS = re.compile(r"\b(?:Dr|Dr\.|Prof|Nurse|Sister|Midwife)[ \t]+(?P<n>[A-Z]{2,3}|[A-Z]-[A-Z])(?![\w'’-])(?![ \t]+[A-Z][a-z])")
# Initials in lower case signing a message with the writer's credential after them ("Routed to
# Dr. Okwuosa. - mkb, LPN").
_INITIALS_BEFORE_CREDENTIAL = re.compile(r"[-–—][ \t]*(?P<n>[a-z]{2,4}),?[ \t]+(?:RN|LPN|LVN|CMA|MA|EN|RPN|HCA|CNA)\b")
_INITIALS_BEFORE_ROLE = re.compile(
    r"(?<![\w/])(?P<n>[A-Z]{2,3})[ \t]*\((?:RN|EN|RM|HCA|HCSW|SN|NA|CNA|LPN|LVN|CNS|NP|PCW|AIN|SW|OT|PT|DN"
    # ... or a role in words: "Checked: DR (pharmacy technician)"
    r"|(?:[a-z]+[ \t]+)?(?:pharmacist|technician|nurse|carer|physio|therapist|assistant|coordinator|receptionist|student|clerk))\)"
)
# Initials in brackets after the role of the one they name ("OT (MG)", "Physio (KL) to
# review"), the initials after "by" that end a clause ("fortnightly visits by RP."), and
# initials opening a numbered item or a line before a dash ("1. SC -- reports ...",
# "TR - phoned"): meeting minutes and care plans attribute so.
# (found from the bracketed capitals back, which are rare, to the role before them)
_BRACKETED_INITIALS = re.compile(r"\([ \t]*(?P<n>[A-Z]{2,3}|[A-Z]{1,2}Ma?c[A-Z]?)[ \t]*\)")
_ROLE_BEFORE_BRACKET = re.compile(
    r"\b(?:OT|PT|SW|RN|EN|SLT|SALT|(?i:physio|physiotherapist|dietitian|dietician|psych|psychologist|pharmacist|pharm"
    r"|social[ \t]+worker|nurse|district[ \t]+nurse|registrar|consultant|chaplain|case[ \t]+manager|key[ \t]?worker"
    r"|care[ \t]+coordinator|podiatrist|audiologist|psychiatrist|coordinator|midwife|health[ \t]+worker)"
    r"|Dr|RMO|Reg|NP|CNS|HCA|CNM|NUM|ANUM|CNC|CNE|ANP|RM)[ \t]*$"
)
# A name, perhaps its role in brackets, then its initials after a dash or in brackets
# ("Precious Mhlanga (OT) -- PM", "Dr Rangi Doherty -- RD", "Gráinne McAteer (GMcA)"): a
# key to the initials a table or a log signs with, like "PM = Precious Mhlanga".
# (found from the initials back, which are rare, rather than from every capitalised word)
_INITIALS_AFTER_MARK = re.compile(r"(?:--?|–|—|\(|\[)[ \t]*(?P<n>[A-Z]{2,4}|[A-Z]{1,2}Ma?c[A-Z]?)(?![\w])")
_NAME_BEFORE_MARK = re.compile(
    # (a name's words a space or two apart: a wider gap is a form's column before the name,
    # "Receptionist   Chidimma Okwu (Receptionist)   [CO]")
    rf"(?<![\w'’-])(?P<full>(?:[{UP}]\.[ \t]?|[{UP}][{LO}]+[ ]{{1,2}})(?:[{UP}][{LO}]+[ ]{{1,2}})?[{UP}][{LO}][\w'’-]*)"
    r"(?:,?[ \t]+[A-Za-z][A-Za-z ]{0,24}?)?(?:[ \t]*\([A-Za-z ]{1,20}\))?[ \t]*$"
)
_ATTENDANCE = re.compile(
    r"\b(?i:present|attendees|attending|in[ \t]+attendance|participants|apologies)[ \t]*:(?P<list>[^\n]+)"
)
_LIST_ITEM = re.compile(r"(?:(?<=[:,;&/])|(?<=\band)|^)[ \t]*(?P<n>[A-Z]{2,4})(?=[ \t]*(?:[,;&/)]|\band\b|$))", re.M)
_BY_INITIALS = re.compile(r"\b(?i:by)[ \t]+(?P<n>[A-Z]{2,3})(?=[ \t]*(?:[.;,)]|$)|[ \t]+\d{1,2}[./]\d{1,2})", re.M)
_ITEM_INITIALS = re.compile(r"(?m)^[ \t]*(?:\d{1,2}[.)][ \t]*)?(?P<n>[A-Z]{2,3})[ \t]+(?:--?|–|—)[ \t]+(?=[a-z])")
_INITIALS_BEFORE_NUMBER = re.compile(r"(?<![\w/])(?P<n>[A-Z]{2,3})[ \t]*(?:/[ \t]*)?(?=(?:bleep|ext|extn|pager)\b\.?[ \t]*:?[ \t]*\d)", re.I)
# A message or phone log: lines stamped with a date (and a time). Staff sign each entry with
# their initials, as a speaker tag after the stamp ("12/02/25 1040  TP: LM on home #") or at
# the entry's end ("... bring cuff to appt. TP", "... 10 mg. -AY"), and the models rarely mark
# two capitals. Only in a document with two stamped lines or more.
_LOG_TIME = r"[ \t,]+(?:at[ \t]+|@[ \t]*)?(?:[01]?\d|2[0-3]):?[0-5]\d(?:[ \t]*(?:h|hrs?|[ap]\.?m\.?))?"
# a date with its year (and maybe a time), or a day and month with a time: "1.2 Plan" and
# "1.1 Background" (numbered sections) are no stamps
_LOG_STAMP = re.compile(
    rf"(?m)^[ \t]*(?:\d{{1,2}}[/.-]\d{{1,2}}[/.-]\d{{2,4}}(?:{_LOG_TIME})?|\d{{1,2}}[/-]\d{{1,2}}{_LOG_TIME})[ \t]*[-–:|]?[ \t]+"
)
# A line of a message thread opened by its speaker: a first name in lower case (any
# alphabet's letters: "przemysław:") or two or three capitals ("KT:"), perhaps with a role in
# brackets ("doyinsola (niece):").
_CHAT_LINE = re.compile(r"(?m)^[ \t]*(?=(?P<who>(?-i:[A-Z]{2,3})|[^\W\d_][^\W\d_'’-]{1,19})(?:[ \t]+\([^)\n]{1,20}\))?[ \t]*:[ \t]+\S)")
_LOG_TAG = re.compile(r"(?P<n>[A-Z]{2,3}|[a-z]{2,3})[ \t]*:(?![/\d])")
# (initials of a Mc or Mac surname keep its small letters: "-KMc")
_LOG_END = re.compile(
    r"(?:(?<=[.!?)])[ \t]+[-–—~]?|[ \t]+[-–—~])[ \t]*(?P<n>[A-Z]{2,3}|[A-Z]{1,2}Ma?c[A-Z]?)[ \t]*$"
    r"|[ \t]+[-–—~]{1,2}[ \t]*(?P<low>[a-z]{2,3})[ \t]*$",
    re.M,
)
# Words that open a message thread's lines as labels or roles, not as someone's name.
_CHAT_LABELS = frozenset(
    """plan note notes obs meds update reply answer question txt text msg sms call phone email from sent subject
    date time me you them us patient client nurse doctor mum mom dad nan koro son daughter wife husband
    partner carer staff reception admin system auto bot re fyi""".split()
)
_LOG_LABELS = frozenset(
    "RE CC PT MD DR RN NP PA GP BP HR RR OT ST SW ED ER CT MR DX HX RX TX SX PS NB FYI DOB MRN NHI NHS ID "
    "AM PM OK NOK LM VM IV PO".split()
)


_INITIALS_KEY = re.compile(
    # capitals with "=", a dash or a colon; small letters only with "=" or opening a line
    # ("kp = Karine Petrosyan, RN")
    rf"(?<![\w/])(?:(?P<n>[A-Z]{{2,3}}|[A-Z]{{1,2}}Ma?c[A-Z]?)[ \t]*(?:=|[-–—:])|(?P<low>(?<![^\s(\[|])[a-z]{{2,3}})[ \t]*=)"
    rf"[ \t]*(?:(?:{_TITLE})\b\.?[ \t]+)?"
    # the given name may be an initial ("RV = Dr R. Vukasinovic") or hyphenated ("Jae-won Kim")
    rf"(?P<full>(?:[{UP}]\.[ \t]*(?=[{UP}][{LO}])|[{UP}][{LO}]+(?:[-'’][{LO}]+)?[ \t]+)"
    rf"[{UP}][{LO}][\w'’-]*(?:[ \t]+[{UP}][{LO}][\w'’-]*)?)"  # (not a role after it: "TW = Talia Wirihana ANUM")
)
# (after a word in capitals or capitalised: a name's last word, not "the drug ("Keytruda")")
_QUOTED_NICKNAME = re.compile(
    rf"(?<![\w'’-])[{UP}][\w'’-]*[ \t]*\([ \t]*[\"“'‘](?P<n>[{UP}][{LO}]+(?:[ -][{UP}][{LO}]+)?)[\"”'’][ \t]*\)"
)
_LAST_FIRST_FORM = re.compile(rf"(?<![\w,])(?P<last>{WORD}),[ \t]*(?P<first>{WORD})(?:[ \t]+[{UP}]\b\.?)?")


@register("signature_name")
class SignatureNameDetector(_NameRule):
    def detect(self, text: str) -> list[Span]:
        out: list[Span] = []
        for m in _SIGN_LABEL.finditer(text):
            fine = "OTHER" if m["staff"] else "DOCTOR"  # a typist or receptionist is not a clinician
            # "CC:" is also the chief complaint, so a name after it must look like one.
            strict = m["colon"] is None or m.group().strip(" \t:").lower() in ("cc", "c.c.")
            out.extend(self._name_list(text, m.end(), fine, strict=strict))
        for m in _CLOSING.finditer(text):
            line = _next_line(text, m.end())
            if line is not None and (n := _SIGNATURE_LINE.match(text, line)) is not None:
                if (s := self.name_span(text, n.start("n"), n.end("n"), "DOCTOR", 0.85, known=True)) is not None:
                    out.append(s)
        for c in _CREDENTIAL.finditer(text):
            line_start = text.rfind("\n", 0, c.start()) + 1
            m = _NAME_BEFORE_CREDENTIAL.search(text, max(line_start, c.start() - 80), c.start())
            if m is not None and plausible(text, m.start("n"), m.end("n")):
                if (s := self.name_span(text, m.start("n"), m.end("n"), "DOCTOR", 0.85)) is not None:
                    out.append(s)
        for m in _INITIALS_LINE.finditer(text):  # "F. McAllister" alone on a line signs a note
            if (s := self.name_span(text, m.start("n"), m.end("n"), "DOCTOR", 0.7)) is not None:
                out.append(s)
        out.extend(self._initials(text))
        for m in _QUOTED_NICKNAME.finditer(text):
            # the name one goes by, in quotes in brackets after the full one: 'KEREAMA-HOLLIS ("Bill")'
            if m["n"].casefold() not in not_names():
                out.append(self.span(m.start("n"), m.end("n"), Category.NAME, "PATIENT", 0.85, validated=True))
        stop = not_names()
        for m in _LAST_FIRST_FORM.finditer(text):
            last, first = _key(m["last"]), _key(m["first"])
            if last in surnames() and first in first_names() and not {last, first} & stop:
                if not (last in name_words() and first in name_words()):
                    out.append(self.span(m.start(), m.end(), Category.NAME, "DOCTOR", 0.75))
        return keep_longest(out)

    def _initials(self, text: str) -> Iterator[Span]:
        """Initials that sign a note or stand before someone's bleep or extension; validated,
        as the models rarely mark two capitals (the wording proves them)."""

        def plain(value: str, dashed: bool = False) -> bool:
            # after a dash ("-DR") the capitals sign the note even where they spell a word
            return value not in clinical_acronyms() and (dashed or value.casefold() not in not_names())

        for m in _SIGNOFF_INITIALS.finditer(text):
            dashed = any(c in "-–—~" for c in text[m.start() : m.start("n")])
            # alone on the note's last line, capitals sign it even where they spell a word
            # ("...Book telephone appt.\nTO"), though not a closing word ("OK", "END")
            if m["n"] in _CLOSING_WORDS:
                continue
            last = not text[m.end() :].strip() and opens_a_line(text, m.start("n"))
            if m.start("n") > 0 and plain(m["n"], dashed or last) and _AFTER_SIGNOFF.match(text, m.end()):
                yield self.span(m.start("n"), m.end("n"), Category.NAME, "DOCTOR", 0.8, validated=True)
        for m in _INITIALS_BEFORE_NUMBER.finditer(text):
            if m["n"].isupper() and plain(m["n"]):
                yield self.span(m.start("n"), m.end("n"), Category.NAME, "DOCTOR", 0.8, validated=True)
        for m in _TITLE_THEN_INITIALS.finditer(text):
            if _no_abbreviation(m["n"], acronyms=False):
                yield self.span(m.start("n"), m.end("n"), Category.NAME, "DOCTOR", 0.8, validated=True)
        for m in _ROLE_LABEL_INITIALS.finditer(text):
            if plain(m["n"]):
                yield self.span(m.start("n"), m.end("n"), Category.NAME, "OTHER", 0.8, validated=True)
        for m in _INITIALS_BEFORE_CREDENTIAL.finditer(text):
            if m["n"] not in encoder_words():
                yield self.span(m.start("n"), m.end("n"), Category.NAME, "OTHER", 0.8, validated=True)
        for m in _INITIALS_BEFORE_ROLE.finditer(text):
            # the role in brackets says a person signed, even where the letters spell an
            # abbreviation ("SB (RN)")
            yield self.span(m.start("n"), m.end("n"), Category.NAME, "OTHER", 0.8, validated=True)
        for m in (*_TYPED_INITIALS.finditer(text), *_TYPED_BY.finditer(text)):
            if plain(m["n"].upper()) and plain(m["n"]):
                yield self.span(m.start("n"), m.end("n"), Category.NAME, "OTHER", 0.8, validated=True)
        for m in (*_LETTER_REF.finditer(text), *_BRACKET_REF.finditer(text)):
            if any(m[g] in _ROLE_INITIALS for g in ("a", "b")):
                continue  # "Ref: GP/OT": services
            for g in ("a", "b"):
                if plain(m[g].upper()) and plain(m[g]):
                    yield self.span(m.start(g), m.end(g), Category.NAME, "DOCTOR" if g == "a" else "OTHER", 0.8, validated=True)
        for m in _ATTENDANCE.finditer(text):
            # a meeting's attendance list: "Present: GM, IPW, DAH, Dr Tuilagi"
            for item in _LIST_ITEM.finditer(text, m.start("list"), m.end("list")):
                if _signing_initials(item["n"]) and item["n"] not in _COMMON_CAPITALS:
                    yield self.span(item.start("n"), item.end("n"), Category.NAME, "OTHER", 0.8, validated=True)
        for m in _role_then_initials(text):
            # the role before the bracket says a person: even letters that spell an
            # abbreviation ("OT (MG)") are their initials, unless another role's or a service's
            if m["n"] not in _ROLE_INITIALS and m["n"] not in _SERVICES and m["n"] not in CREDENTIALS:
                yield self.span(m.start("n"), m.end("n"), Category.NAME, "OTHER", 0.8, validated=True)
        for m in (*_BY_INITIALS.finditer(text), *_ITEM_INITIALS.finditer(text)):
            if _signing_initials(m["n"]) and m["n"] not in _COMMON_CAPITALS:
                yield self.span(m.start("n"), m.end("n"), Category.NAME, "OTHER", 0.8, validated=True)
        keyed: set[str] = set()
        for full, initials, start, end in _initials_after_names(text):
            words = full.replace(".", " ").split()
            if len(words) > 2 and words[0] in TITLES:
                words = words[1:]  # "Dr Rangi Doherty -- RD"
            mac = re.search(r"Ma?c", initials)
            last = words[-1].startswith(initials[mac.start() :]) if mac else initials[-1] == words[-1][0]
            given = words[0]  # a person's: an initial, a listed first name or no everyday word
            person = len(given) == 1 or given.casefold() in first_names() or given.casefold() not in encoder_words()
            if person and initials[0] == given[0] and last and (len(initials) < 3 or mac or initials[1] in "".join(w[0] for w in words[1:])):
                keyed.add(initials)
                yield self.span(start, end, Category.NAME, "OTHER", 0.8, validated=True)
        for m in _LABEL_THEN_INITIALS.finditer(text):
            # initials after a word that says someone checked, verified or witnessed:
            # "Verified 06/11/25 16:51 IMT", "Countersigned HMcK (team mgr)", "checked by ward
            # pharmacist EMcG", "(measurements checked -RQ)", "witness: JT"
            if _no_abbreviation(m["n"]):
                yield self.span(m.start("n"), m.end("n"), Category.NAME, "OTHER", 0.8, validated=True)
        for m in _LABEL_THEN_LOGIN.finditer(text):
            # a login after a signing label: "Electronically signed: mtuilagi 10/15/2025",
            # "Received by hub: dpennant 21/01/2026", "COLLECTOR: DPRUITT (PHLEB)"
            if m["n"].casefold() not in encoder_words() and m["n"].casefold() not in not_names():
                yield self.span(m.start("n"), m.end("n"), Category.NAME, "OTHER", 0.8, validated=True)
        for m in _STAMP_ROLE_INITIALS.finditer(text):
            # a log entry's columns: "9/03  1330-1440  RN  MTS  BP 92/58", "14/06/24 1130  EN MR   ATE 75%"
            if _no_abbreviation(m["n"], roles=False):
                keyed.add(m["n"])
                yield self.span(m.start("n"), m.end("n"), Category.NAME, "OTHER", 0.8, validated=True)
        for m in _rows_of_names_and_initials(text):
            keyed.add(m["n"])
            yield self.span(m.start("n"), m.end("n"), Category.NAME, "OTHER", 0.8, validated=True)
        for m in _INITIALS_KEY.finditer(text):
            # a key to the initials ("HC = Hywel Cadwaladr", "TP - Tegan Parry"): the letters
            # are the name's own, whatever word they spell
            g = "n" if m["n"] else "low"
            value = m[g]
            letters = value if g == "n" else value.upper()
            words = m["full"].replace(".", ". ").split()
            # ... and a name, not a glossary's words ("ED = Emergency Department")
            mac = re.search(r"Ma?c", letters)
            last = words[-1].startswith(value[mac.start() :]) if mac else letters[-1] == words[-1][0]
            if letters[0] == words[0][0] and last and not all(w.casefold() in encoder_words() for w in words):
                keyed.add(value)
                yield self.span(m.start(g), m.end(g), Category.NAME, "OTHER", 0.8, validated=True)
        for m in _implicitly_keyed(text, keyed):
            # initials of a person named in the note, where initials sign: "Mereana Tawhiri RN
            # (APC 281904) / MT", "... -MT" (no key says so, the name does)
            yield self.span(m.start(), m.end(), Category.NAME, "OTHER", 0.8, validated=True)
        for value in keyed:
            # the keyed initials wherever else they stand, in the same capitals: a table's cell
            # ("| PM |"), brackets ("(PM)"), a line's start ("PR reported that ..."); not after a
            # number ("2 PM"). Letters that are also a word or an abbreviation ("PM", "OT")
            # only where a signature stands: a cell, brackets, a dash, before a colon.
            anywhere = (
                value.isupper() and value not in _COMMON_CAPITALS and value not in clinical_acronyms() and value not in _ROLE_INITIALS
            )
            places = (_ANYWHERE, _SIGNING_PLACE) if anywhere else (_SIGNING_PLACE,)
            for where in places:
                for m in re.finditer(where.format(re.escape(value)), text, re.M):
                    g = "n" if m["n"] is not None else "n2"
                    yield self.span(m.start(g), m.end(g), Category.NAME, "OTHER", 0.8, validated=True)
        yield from self._log_initials(text, plain)

    def _log_initials(self, text: str, plain) -> Iterator[Span]:
        """Initials as a stamped entry's speaker tag or at its end. In capitals they need only
        not be a clinical abbreviation; in lower case ("jk: called Bartell", "... -jk") or as
        an abbreviation ("-RM", "RM:") the same letters must sign the log twice or more."""
        starts = [m.end() for m in _LOG_STAMP.finditer(text)]
        speakers: list[re.Match[str]] = []
        if len(starts) < 2:
            # a message thread without stamps, each line opened by its speaker ("przemysław:
            # hi can i get...", "KT: booked w/ Dr HWANG -KT"): three such lines or more, two
            # of them a first name in lower case (no word of the vocabulary: not "plan:")
            chat = [m for m in _CHAT_LINE.finditer(text) if m["who"].islower() or m["who"].isupper()]
            people = sum(1 for m in chat if m["who"].islower() and m["who"] not in encoder_words())
            if len(chat) < 3 or people < 2:
                return
            starts = [m.end() for m in chat]
            speakers = [m for m in chat if m["who"].islower()]
        found: list[tuple[int, int, str]] = []
        for at in starts:
            line_end = text.find("\n", at)
            line_end = len(text) if line_end < 0 else line_end
            tag = _LOG_TAG.match(text, at, line_end)
            if tag is not None:
                found.append((tag.start("n"), tag.end("n"), tag["n"]))
            end = _LOG_END.search(text, at, line_end)
            if end is not None:
                g = "n" if end["n"] else "low"
                found.append((end.start(g), end.end(g), end[g]))
        times = Counter(v.upper() for _, _, v in found)
        for start, end, value in found:
            if value.upper() in _LOG_LABELS:
                continue
            if (value.isupper() and plain(value, dashed=True)) or (
                times[value.upper()] >= 2 and value.casefold() not in encoder_words()
            ):
                yield self.span(start, end, Category.NAME, "OTHER", 0.8, validated=True)
        # in a message thread two people or more speak in lower case; one who speaks twice or
        # more is a person even where the name is a word too ("tam: kia ora kiri its tam")
        turns = Counter(m["who"] for m in speakers)
        for m in speakers:
            who = m["who"]
            if turns[who] >= 2 and len(who) >= 3 and who not in _CHAT_LABELS and who.upper() not in _LOG_LABELS:
                yield self.span(m.start("who"), m.end("who"), Category.NAME, "OTHER", 0.8, validated=True)

    def _name_list(self, text: str, pos: int, fine: str, strict: bool) -> Iterator[Span]:
        """Names after a sign-off label, several after "cc:". Without a colon ("seen by ...")
        a name must be titled or look like one from the dictionaries."""
        line_end = text.find("\n", pos)
        line_end = len(text) if line_end < 0 else line_end
        # a column gap ends the field: "Transcribed by: TLB   Prairie View Imaging, Salina"
        gap = _FIELD_GAP.search(text, _BLANKS.match(text, pos).end(), line_end)  # (after the label's own spaces)
        line_end = gap.start() if gap is not None else line_end
        first = True
        while pos < line_end and (m := _LIST_NAME.match(text, pos, line_end)) is not None:
            if not strict or m["t"] or plausible(text, m.start("n"), m.end("n")):
                if (s := self.name_span(text, m.start("n"), m.end("n"), fine, 0.85)) is not None:
                    value = text[s.start : s.end]
                    if first and not strict and _CAPITALS.fullmatch(value) and _signing_initials(value):
                        # initials after "Signed:", "Co-signed (event):": the label proves them,
                        # and the models rarely mark two capitals
                        s = self.span(s.start, s.end, Category.NAME, fine, 0.8, validated=True)
                    yield s
            if m.end() == pos or not _LIST_SEPARATOR_END.search(m.group()):
                break  # the list goes on only after a separator, not into the next field
            pos, first = m.end(), False


_CAPITALS = re.compile(r"[A-Z]{2,4}")
_ANYWHERE = r"(?<![\w/.'’-])(?<!\d )(?P<n>{0})(?![\w/'’-])"
_SIGNING_PLACE = (
    # a cell, brackets, after a dash, in a list of initials ("(LT, QD)", "| JvdM / QD |")
    r"(?:(?<=\|)|(?<=\()|(?<=\[)|(?<=-)|(?<=,)|(?<=[ \t]/)|^)[ \t]*(?P<n>{0})(?=[ \t]*(?:\||\)|\]|:|--|,|[ \t]/|$))"
    r"|^[ \t]*(?P<n2>{0})(?=[ \t]+[a-z]+(?:ed|s)\b)"  # a line's subject: "PR reported that ..."
)
# Services and teams that sign or refer as often as people do ("Referred by: GP").
_SERVICES = frozenset("ER ED DN IDT MDT AMHP CMHT OOH ICU HDU CCU SCBU NICU PICU".split())


# Capitals that stand after "by" or open an item as often as initials do, and are no one's.
_COMMON_CAPITALS = frozenset(
    "AM PM UK US USA NZ AU NHS ACC WINZ MSD DHB HB TBC TBA NA NIL NFA SOS ASAP FYI AKA ETA DNA RIP WHO CEO".split()
)


def _role_then_initials(text: str) -> Iterator[re.Match[str]]:
    """Initials in brackets right after the role of the one they name ("OT (MG)")."""
    for m in _BRACKETED_INITIALS.finditer(text):
        if _ROLE_BEFORE_BRACKET.search(text, max(0, m.start() - 32), m.start()):
            yield m


# An attendance table's row: the name opens the line, the initials close it, a column gap or
# a cell's bar before them ("  Dr Harpreet Saini-Walsh    Palliative care physician    HSW").
_ROW_NAME_THEN_INITIALS = re.compile(
    rf"(?m)^[ \t|]*(?:(?:{_TITLE})\.?[ \t]+)?"
    rf"(?P<full>[{UP}][{LO}]+(?:-[{UP}]?[{LO}]+)?(?:[ \t](?:{_PARTICLE}[ \t]){{0,2}}[{UP}][{LO}'’]+(?:-[{UP}][{LO}]+)?){{1,2}})"
    r"(?:[ \t]{2,}|\t|[ \t]*\|)[^\n]*?(?:[ \t]{2,}|\t|\|[ \t]*)(?P<n>[A-Z][A-Za-z]{1,4})[ \t]*\|?[ \t]*$"
)


def _letters_of(full: str) -> set[str]:
    """The initials a name is signed with: every part's first letter ("JvdM" for Joost van der
    Merwe, "HSW" for Harpreet Saini-Walsh), in capitals too, or the first and the last."""
    parts = re.split(r"[ \t-]+", full.strip())
    every = "".join(p[0] for p in parts if p)
    capitals = [p[0] for p in parts if p and p[0].isupper()]
    return {every, every.upper(), capitals[0] + capitals[-1]} if len(capitals) >= 2 else {every}


# A person's name: a given name and a surname, capitalised (a hyphen may join either).
_PERSON = re.compile(rf"(?<![\w'’-])(?P<given>[{UP}][{LO}]{{2,}}(?:-[{UP}]?[{LO}]+)?)[ ](?:{_PARTICLE}[ ]){{0,2}}(?P<last>[{UP}][{LO}'’]+(?:-[{UP}][{LO}]+)?)(?![\w'’-])")
# After a dash, in brackets, a cell, a list of initials, after a slash or before a column gap:
# where initials sign. (Any such capitals are found in one pass; those of a named person kept.)
_CAPITALS_TOKEN = re.compile(r"(?<![A-Za-z'’])(?:[A-Z](?:[a-z]{0,2}[A-Z]){1,3}|[A-Z]{2,4})(?![A-Za-z'’])")
_IMPLICIT_BEFORE = re.compile(r"(?:-|\(|\||[ \t]/|,|\[|[ ]{2}|\t)[ \t]*$")
_IMPLICIT_AFTER = re.compile(r"[ \t]*(?:\||\)|\]|,|[ \t]/|$)|[ ]{2,}|\t", re.M)


def _no_abbreviation(value: str, acronyms: bool = True, roles: bool = True) -> bool:
    """Whether capitals standing where initials sign may be someone's: not a common
    abbreviation or a credential, and (unless the caller's context already rules them out)
    not a clinical abbreviation or a role's letters."""
    return not (
        value in _COMMON_CAPITALS or value in _CREDENTIAL_SET
        or (acronyms and value in clinical_acronyms()) or (roles and value in _ROLE_INITIALS)
    )


def _implicitly_keyed(text: str, keyed: set[str]) -> Iterator[re.Match[str]]:
    """Initials of people named in the text where initials sign (the matches hold the
    initials alone). A person: a listed given name, or a given name and a surname that are no
    everyday words ("Wellington Hospital", "Blood Pressure" are none)."""
    candidates = [
        m for m in _CAPITALS_TOKEN.finditer(text)
        if _IMPLICIT_BEFORE.search(text, max(0, m.start() - 4), m.start()) and _IMPLICIT_AFTER.match(text, m.end())
        and m.group() not in keyed and m.group() not in _LOG_LABELS and _no_abbreviation(m.group())
    ]
    if not candidates:
        return
    words, given_names = encoder_words(), first_names()
    initials: set[str] = set()
    for m in _PERSON.finditer(text):
        given, last = m["given"].casefold(), m["last"].casefold()
        if given in given_names or (given not in words and last not in words):
            initials.update(v for v in _letters_of(m.group()) if len(v) >= 2)
    yield from (m for m in candidates if m.group() in initials)


_CHECK_LABEL = (
    r"(?i:verified|countersigned|counter-signed|co-signed|cosigned|checked(?:[ \t]+by)?|collector|collected[ \t]+by"
    r"|specimen[ \t]+receipt|witness(?:ed[ \t]+by)?|sig|scribe|minutes|chaperone|received[ \t]+by(?:[ \t]+hub)?)"
)
_STAMP_AFTER_LABEL = r"(?:\d{1,2}[/.-]\d{1,2}(?:[/.-]\d{2,4})?[ \t]+(?:\d{1,2}:?\d{2}[ \t]+)?)?"
_LABEL_THEN_INITIALS = re.compile(
    rf"\b{_CHECK_LABEL}\b[ \t]*:?[ \t]*(?:-[ \t]*)?(?:(?-i:[a-z]+)[ \t]+){{0,3}}{_STAMP_AFTER_LABEL}"
    r"(?P<n>[A-Z]{2,4}|[A-Z]{1,2}Ma?c[A-Z]|[A-Z]O['’][A-Z])(?=[ \t]*(?:$|[),;|]|\(|[ \t]{2,}|\t|\d|\.(?:\s|$)))",
    re.M,
)
# A login: small letters (and digits or a dot), or capitals, a person's initial and surname run
# together, after a label that says who signed or handled a record.
_LOGIN_LABEL = (
    r"(?i:electronically[ \t]+signed(?:[ \t]+by)?|e-?signed(?:[ \t]+by)?|signed[ \t]+by|entered[ \t]+by|received[ \t]+by(?:[ \t]+hub)?"
    r"|collector|collected[ \t]+by|bed[ \t]+flow|disp|dispatcher|user(?:name)?|login)"
)
_LABEL_THEN_LOGIN = re.compile(
    rf"\b{_LOGIN_LABEL}\b[ \t]*:?[ \t]*{_STAMP_AFTER_LABEL}(?P<n>(?-i:[a-z][a-z.]{{4,19}}\d{{0,3}}|[A-Z]{{5,15}}))(?=[ \t]*(?:$|[(|,;]|\d|[ \t]{{2,}}))",
    re.M,
)


# A log entry whose columns are its date, its time (or span of time), the writer's role and
# the writer's initials, then the entry.
_STAMP_ROLE_INITIALS = re.compile(
    r"(?m)^[ \t]*\d{1,2}[/.-]\d{1,2}(?:[/.-]\d{2,4})?[ \t]+(?:(?:[01]?\d|2[0-3]):?[0-5]\d(?:[ \t]*[-–][ \t]*(?:[01]?\d|2[0-3]):?[0-5]\d)?[ \t]+)?"
    r"(?:RN|EN|RPN|LPN|LVN|CNA|HCA|HHA|PCA|PCW|AIN|CN|SN|NP|PA|SW|MSW|LMSW|CHAP|OT|PT|SLP|DN|HV|MW|RM|MO|HO|DR|Dr)[ \t]+"
    r"(?P<n>[A-Z]{2,4}|[A-Z]{1,2}O['’][A-Z])(?=[ \t]{2,}|\t|[ \t]*$)"
)


def _rows_of_names_and_initials(text: str) -> Iterator[re.Match[str]]:
    for m in _ROW_NAME_THEN_INITIALS.finditer(text):
        words = m["full"].split()
        if m["n"] in _letters_of(m["full"]) and not all(w.casefold() in encoder_words() for w in words):
            yield m


def _initials_after_names(text: str) -> Iterator[tuple[str, str, int, int]]:
    """(name, initials, start, end) for each name followed by its initials."""
    for m in _INITIALS_AFTER_MARK.finditer(text):
        line_start = text.rfind("\n", 0, m.start()) + 1
        name = _NAME_BEFORE_MARK.search(text, max(line_start, m.start() - 90), m.start())
        if name is not None:
            yield name["full"], m["n"], m.start("n"), m.end("n")


def _signing_initials(value: str) -> bool:
    """Capitals after a signing label that are a person's initials, not a service's."""
    return not (
        value in clinical_acronyms() or value in _ROLE_INITIALS or value in _LOG_LABELS or value in _SERVICES or value in CREDENTIALS
        or value.casefold() in not_names()
    )
_LIST_SEPARATOR_END = re.compile(r"(?:,|;|&|\band|/)$")
_BLANKS = re.compile(r"[ \t]*")


def _next_line(text: str, pos: int, max_lines: int = 4) -> int | None:
    """Start of the first non-blank line within a few lines after ``pos``."""
    for _ in range(max_lines):
        nl = text.find("\n", pos)
        if nl < 0:
            return None
        pos = nl + 1
        end = text.find("\n", pos)
        if text[pos : len(text) if end < 0 else end].strip():
            return pos
    return None


_RELATIONS = _labels(
    r"wife|husband|partner|spouse|son|daughter|dtr|dau|mother|mum|mom|mam|father|dad|brother|bro|sister|sis"
    r"|sibling|aunt|aunty|auntie|uncle|niece|nephew|cousin|grandson|granddaughter|grandmother|grandfather"
    r"|grandma|grandpa|nana|nan|granny|koro|kuia|fiance|fiancee|fiancé|fiancée|girlfriend|boyfriend|friend"
    r"|neighbour|neighbor|flatmate|carer|caregiver|guardian|stepson|stepdaughter|stepmother|stepfather"
    r"|son-in-law|daughter-in-law|mother-in-law|father-in-law|brother-in-law|sister-in-law|whanau|whānau"
    r"|next of kin|nok|parent|twin|ex-wife|ex-husband|widow|widower|half-brother|half-sister|stepbrother"
    r"|stepsister|step-brother|step-sister|stepdad|stepmum|stepmom|step-dad|step-mum|step-mom|step-son|step-daughter"
)
# (A relation's possessive counts only with the name in brackets after it: "his mother's
# (Ingrid)" is a name, "his mother's house" is not.)
# A child named in brackets or after a comma, in lower case ("child (Rhys) fever 102"): with a
# capital, "Child Protection" and "Baby Friendly" are names of things.
_YOUNG = r"(?:child|kid|baby|infant|toddler|grandchild)[ \t]*[(,]"
_RELATIVE = re.compile(
    rf"(?<![\w-])(?:{_RELATIONS}(?![\w-])[ \t]*[,:(]?|{_RELATIONS}['’]s[ \t]*\(|{_YOUNG})[ \t]*(?:(?i:named|called)[ \t]+)?"
    rf"(?P<n>{NAME}|[{LO}]{{2,}}(?:[ \t]+[{LO}]{{2,}})?)"
)
# Children listed with their ages in brackets after the word for them: "3 children (Tama 9,
# Mereana 6 and baby Kiri)", "two sons (Liam 12, Noah 8)". Each name before an age is a child's,
# and validated: the word for children, the brackets and the ages say so, where the models,
# reading a pedigree's "2 children (Osian 8, Elin 5)", see two small numbers.
_CHILDREN_LIST = re.compile(
    r"\b(?i:children|kids|sons|daughters|grandchildren|grandkids|siblings|tamariki|mokopuna|moko)\b[^()\n]{0,24}\(([^()\n]{3,120})\)"
)
_CHILD_WITH_AGE = re.compile(rf"(?<![\w'’-])(?P<n>{WORD})[ \t]*(?:,[ \t]*)?(?:aged[ \t]+)?\(?(?P<age>\d{{1,2}})[ \t]*(?:y|yo|yrs?|years?|m|mo|months?)?\)?(?![\w/.:])")
# A relative's age in brackets after their name: "half-brother Kai (7)", "son Rhys (4 yrs)".
_AGE_IN_BRACKETS = re.compile(r"[ \t]*\([ \t]*\d{1,2}[ \t]*(?:y|yo|yrs?|years?|m|mo|months?)?[ \t]*\)")
# "Mere Parata (daughter)": the bracketed relation is found first, then the name before it.
_BRACKETED_RELATION = re.compile(rf"\([ \t]*{_RELATIONS}[ \t]*\)")
_NAME_BEFORE_BRACKET = re.compile(rf"(?<![\w'’-])(?P<n>{NAME})[ \t]*$")


@register("relative_name")
class RelativeNameDetector(_NameRule):
    def detect(self, text: str) -> list[Span]:
        out = []
        stop, common = not_names(), name_words()
        for m in _RELATIVE.finditer(text):
            if m.group().startswith("Sister") and not _POSSESSIVE_BEFORE.search(before(text, m.start(), 20)):
                continue  # the nursing title, found by the title rule
            start, end = m.start("n"), m.end("n")
            value = m["n"]
            if value[0].islower():
                # "spoke w/ dtr aroha": lower case only when the first word is a first name.
                words = value.split()
                k = _key(words[0])
                if k not in first_names() or k in common or k in stop:
                    continue
                if len(words) > 1 and _key(words[1]) not in surnames():
                    end = start + len(words[0])
                out.append(self.span(start, end, Category.NAME, "RELATIVE", 0.65))
                continue
            first = _key(value.split()[0])
            if first in common and not plausible(text, start, end):
                continue  # "wife Will visit": an ordinary word, no name beside it
            score = 0.85 if is_known_name(value.split()[0]) else 0.75
            if (s := self.name_span(text, start, end, "RELATIVE", score)) is not None:
                if _AGE_IN_BRACKETS.match(text, s.end) and _reads_as_a_name([_key(w) for w in text[s.start : s.end].split()]):
                    s = s.with_(validated=True)  # "half-brother Kai (7)": the relation and the age say so
                out.append(s)
        for c in _CHILDREN_LIST.finditer(text):
            for m in _CHILD_WITH_AGE.finditer(text, c.start(1), c.end(1)):
                if not _reads_as_a_name([_key(m["n"])]):
                    continue  # "Year 9", "Grade 3": ordinary words
                if (s := self.name_span(text, m.start("n"), m.end("n"), "RELATIVE", 0.85)) is not None:
                    out.append(s.with_(validated=True))
        for b in _BRACKETED_RELATION.finditer(text):
            m = _NAME_BEFORE_BRACKET.search(text, max(text.rfind("\n", 0, b.start()) + 1, b.start() - 60), b.start())
            if m is None:
                continue
            if (s := self.name_span(text, m.start("n"), m.end("n"), "RELATIVE", 0.95, known=True)) is not None:
                out.append(s)
        return keep_longest(out)


# A staff member named in brackets beside their role, as notes write a first name they only
# half know: "Podiatrist (Hamish) due Fri", "seen by physio (Kirsteen)", and the other way
# round, "Harriet (admin)", "Bronagh Keaveney (CPN)". The brackets and the role say a person
# is named, so the name need not be in a list; a word of the bracket that is an ordinary
# word or a clinical acronym ("Physio (Outpatients)", "OT (Community)") is no name.
_ROLE_WORDS_TEXT = (
    r"physio|physiotherapist|podiatrist|occupational therapist|social worker|dietitian|dietician|pharmacist"
    r"|nurse|carer|caregiver|support worker|healthcare assistant|interpreter|translator|chaplain|speech therapist"
    r"|speech and language therapist|psychologist|counsellor|counselor|key worker|keyworker|care coordinator"
    r"|case manager|registrar|consultant|midwife|surgeon|physician|house officer|nurse practitioner"
    r"|radiographer|sonographer|paramedic|receptionist|admin|administrator|secretary|manager|ward clerk"
    r"|navigator|liaison|advocate|kaiāwhina|kaimahi|kaiawhina|teacher|supervisor|landlord|solicitor|lawyer"
    r"|technician|phlebotomist|orderly|porter|volunteer|coordinator|doctor|therapist"
)
_ROLE_WORDS = _labels(_ROLE_WORDS_TEXT)
_ROLE_LIKE = re.compile(r"(?:ist|ician|apist)s?$")
_ROLE_WORDS_LOWER = trie_regex(_ROLE_WORDS_TEXT.split("|"), ignore_case=False)
_ROLE_INITIALS = frozenset("OT SW RN EN RMN CPN HCA SLT GP RMO CNS NP PA MHSW AHP NA CSW".split())
_ROLE_ACRONYMS = trie_regex(sorted(_ROLE_INITIALS), ignore_case=False)
_ROLE = rf"(?:(?i:{_ROLE_WORDS})|{_ROLE_ACRONYMS}|(?i:{TITLE_WORD}))"
# (found from the bracket, which is rare, back to the role: the role pattern tried at every
# word of a long text cost a tenth of a second per 200 kB)
_LOWER_IN_BRACKETS = re.compile(r"\([ \t]*(?P<n>[a-z][a-z'’-]{2,})[ \t]*\)")
_ROLE_BEFORE = re.compile(rf"(?<![\w-]){_ROLE}[ \t]*$")
_ROLE_INITIALS_THEN_NAME = re.compile(
    r"(?<![\w/-])(?:RN|EN|PCW|AIN|HCA|CN|RM|SN|NUM|CNS|CNC|HCSW|CSW)[ \t]+(?P<n>[A-Z][a-z'’-]{2,}(?:[ \t][A-Z][a-z'’-]{2,})?)(?![\w'’-])"
)
_ROLE_THEN_NAME = re.compile(rf"(?<![\w-]){_ROLE}[ \t]*\([ \t]*(?P<n>{NAME})[ \t]*\)")
# A role word in lower case, then the name with nothing between: "spoke w/ pharmacist
# Nizhoni: can get tmrw", "physio Kirsteen reviewed". One or two capitalised words that read
# as a name; a capitalised role ("Nurse Triage Line", "Consultant Radiologist") is as often a
# service's or a title's first word.
_ROLE_WORD_THEN_NAME = re.compile(rf"(?<![\w-])(?:{_ROLE_WORDS_LOWER})[ \t]+(?P<n>{WORD}(?:[ \t]+{WORD})?)")
_NAME_THEN_ROLE = re.compile(rf"(?<![\w'’.-])(?P<n>{NAME})[ \t]*\([ \t]*{_ROLE}[ \t]*\)")
# ... and the one to call, before an extension or a pager: "Call Gretchen @ ext 223".
_NAME_THEN_EXTENSION = re.compile(
    rf"(?<![\w'’.-])(?P<n>{NAME})[ \t]*(?:@|at|on)?[ \t]*(?i:bleep|ext|extn|extension|pager)\.?[ \t]*(?:no\.?)?[ \t]*:?[ \t]*\d"
)
_FIRST_WORD = re.compile(r"(\w+)[ \t]+")
_ASKING = frozenset("call page contact ring phone text ask please paging via".split())


def _reads_as_a_name(keys: list[str]) -> bool:
    """Whether words that context says are a person's (a role beside them, an age after them)
    read as a name: none is a not-a-name word, a clinical acronym or a department, and one is a
    listed name or no word of the encoder's vocabulary ("Physio (Outpatients)", "Year 9" are
    ordinary words; "Kirsteen", "Mereana" are in no list and no vocabulary)."""
    stop, acronyms, vocab = not_names(), clinical_acronyms(), encoder_words()
    if not keys or any(k in stop or k.upper() in acronyms or DEPARTMENT_WORD.fullmatch(k) for k in keys):  # "Cardiology (Consultant)"
        return False
    firsts, lasts = first_names(), surnames()
    return any(k not in vocab or k in firsts or k in lasts for k in keys if len(k) > 1)


@register("staff_name")
class StaffNameDetector(_NameRule):
    """A name in brackets after a role, before a role in brackets, or before an extension."""

    def detect(self, text: str) -> list[Span]:
        out = []
        for m in _ROLE_INITIALS_THEN_NAME.finditer(text):
            # "RN Okonkwo assessed", "PCW Harpreet found": a nurse or carer by the initials of
            # the role, then the name; validated where it reads as one
            keys = [_key(w) for w in m["n"].split()]
            if _reads_as_a_name(keys) and all(k not in not_names() for k in keys):
                if (s := self.name_span(text, m.start("n"), m.end("n"), "OTHER", 0.8)) is not None:
                    out.append(s.with_(validated=True))
        for m in _ROLE_WORD_THEN_NAME.finditer(text):
            keys = [_key(w) for w in m["n"].split()]
            # every word must read as a name alone, and none as a role ("the consultant
            # Radiologist", "nurse Specialist")
            if all(_reads_as_a_name([k]) and not _ROLE_LIKE.search(k) for k in keys) and all(k not in not_names() for k in keys):
                if (s := self.name_span(text, m.start("n"), m.end("n"), "OTHER", 0.8)) is not None:
                    out.append(s.with_(validated=True))
        for rx in (_ROLE_THEN_NAME, _NAME_THEN_ROLE, _NAME_THEN_EXTENSION):
            for m in rx.finditer(text):
                start, end = m.start("n"), m.end("n")
                while (w := _FIRST_WORD.match(text, start, end)) is not None and w[1].casefold() in _ASKING:
                    start = w.end()  # "Call Gretchen", "Please page Dr Tan"
                if not _reads_as_a_name([_key(w) for w in text[start:end].split()]):
                    continue
                if (s := self.name_span(text, start, end, "DOCTOR", 0.85)) is not None:
                    out.append(s)
        # in lower case, as quick messages write it ("ring the on call nurse (hemi)"): a listed
        # first name that is no ordinary word
        firsts, common = first_names(), name_words() | not_names()
        for m in _LOWER_IN_BRACKETS.finditer(text):
            if m["n"] in firsts and m["n"] not in common and _ROLE_BEFORE.search(text, max(0, m.start() - 40), m.start()):
                out.append(self.span(m.start("n"), m.end("n"), Category.NAME, "DOCTOR", 0.8, validated=True))
        return keep_longest(out)


# A handover sheet's or a ward list's patient line: a name at the start of a line (after a bed
# or room number) and then an age with a sex, "Bed 14  Ostap Hrynkiv, 67M", "3. Grace Brown
# 81 F", "Bed 12  Wilhelmina (Willa) Oosthuizen, 81F". The age and sex make the words before
# them a person's, listed or not.
_BED_LABEL = rf"(?:(?i:{BED_WORDS})\.?[ \t]*(?:(?i:no)\.?[ \t]*)?\w{{1,4}}[ \t]*[:\-–|.)]?[ \t]*)"
_LINE_NUMBER = r"(?:\d{1,3}[ \t]*[:.)\-–|]?[ \t]+)"
_HANDOVER_LINE = re.compile(
    rf"(?m)^[ \t]*(?:{_BED_LABEL}|{_LINE_NUMBER})?(?P<n>{_LAST_FIRST}|{NAME})"
    rf"(?:[ \t]+\([ \t]*(?P<nick>{WORD})[ \t]*\)[ \t]+(?P<n2>{NAME}))?"
    r",?[ \t]+\(?(?P<age>\d{1,3})[ \t]*(?:y/?o|yo|yrs?|y)?\.?[ \t]*(?:M|F|[Mm]ale|[Ff]emale)\b(?![\w/-])"
)
# ... or a shift handover's line that opens with the patient's name and then the bed: "Tahlia -
# bed 4. Settled overnight", "Bronson (bed 6)", "Ngaire, Rm 9:".
_NAME_THEN_BED = re.compile(rf"(?m)^[ \t]*[-*•]?[ \t]*(?P<n>{NAME})[ \t]*(?:[-–:,(][ \t]*)?(?i:{BED_WORDS})\.?[ \t]*(?:(?i:no)\.?[ \t]*)?\d{{1,3}}[A-Za-z]?\b")


# ... or a bed's line with the name (a title may stand before it) and an age without a sex,
# then a column gap: "Bed 7  Stanislaw Wozniak 76  CAP on IV co-amox". The bed label is
# required here; the age is found with the name.
_BED_NAME_AGE = re.compile(
    rf"(?m)^[ \t]*{_BED_LABEL}(?:(?:Mr|Mrs|Ms|Miss|Mx|Dr)\.?[ \t]+)?(?P<n>{NAME}),?[ \t]+\(?(?P<age>\d{{1,3}})\)?"
    r"(?=\t|[ ]{2,}|[ \t]*(?:$|[,;]))"
)


# ... or a bed's line that gives the name the resident goes by, then the full name and the age
# in brackets: "RM 2  MAVIS (MAVIS TE WHATA, 94)", "Rm 7 Jack (Mr Jacobus van der Heuvel, 88)".
_BED_NICK_FULL_AGE = re.compile(
    rf"(?m)^[ \t]*{_BED_LABEL}(?P<nick>{WORD})[ \t]*\([ \t]*(?:(?i:mr|mrs|ms|miss|mx|dr)\.?[ \t]+)?(?P<n>{NAME}),[ \t]*(?P<age>\d{{1,3}})[ \t]*\)"
)


@register("handover_name")
class HandoverNameDetector(_NameRule):
    """The patient's name on a handover sheet or ward list line, before the age and sex or
    before the bed."""

    def detect(self, text: str) -> list[Span]:
        out = []
        stop, acronyms, vocab, common = not_names(), clinical_acronyms(), encoder_words(), name_words()
        firsts, lasts = first_names(), surnames()
        for m in _BED_NICK_FULL_AGE.finditer(text):
            # the bracket's full name and age prove the line, in capitals too ("MAVIS TE WHATA",
            # where the name trimmer would stop at "TE"); its words must still be no heading's
            keys = [_key(w) for w in re.split(r"[ \t,]+", f"{m['nick']} {m['n']}") if w]
            if any(k in stop or k.upper() in acronyms for k in keys) or not 0 < int(m["age"]) <= 120:
                continue
            if all(k in vocab and k not in firsts and k not in lasts for k in keys):
                continue  # ordinary words ("Falls (Post op, 2)")
            out.extend(self.span(m.start(g), m.end(g), Category.NAME, "PATIENT", 0.85, validated=True) for g in ("nick", "n"))
            out.append(self.span(m.start("age"), m.end("age"), Category.AGE, "OTHER", 0.8, validated=True))
        for m in (*_HANDOVER_LINE.finditer(text), *_NAME_THEN_BED.finditer(text), *_BED_NAME_AGE.finditer(text)):
            groups = [g for g in ("n", "nick", "n2") if m.groupdict().get(g)]
            keys = [_key(w) for g in groups for w in re.split(r"[ \t,]+", m[g]) if w]
            if any(k in stop or k.upper() in acronyms for k in keys):
                continue  # "Sepsis, 67M", "COPD 81F": a problem list, not a name
            words = [k for k in keys if len(k) > 1]
            known = [k for k in words if k in firsts or k in lasts]
            if not (any(k not in vocab for k in words) or any(k not in common for k in known)
                    or (len(words) > 1 and len(known) == len(words))):
                continue  # ordinary words ("Fall, 81F"); "Grace Brown, 81F" is two names
            for g in groups:
                if trim_name(text, m.start(g), m.end(g)) != (m.start(g), m.end(g)):
                    break
            else:
                out.extend(self.span(m.start(g), m.end(g), Category.NAME, "PATIENT", 0.85, validated=True) for g in groups)
                if m.groupdict().get("age") and 0 < int(m["age"]) <= 120:
                    # the age of the line's patient ("Tran, Minh Khoa  55 M  MRN ...")
                    out.append(self.span(m.start("age"), m.end("age"), Category.AGE, "OTHER", 0.8, validated=True))
        return out


# (words one space apart: two spaces or a tab is a form's next field, "Giuseppina Lombardi  Room 14")
_CAP_RUN = re.compile(rf"{WORD}(?:[ ](?:[{UP}]\.?[ ])?{WORD}){{1,3}}")
_INITIAL_SURNAME = re.compile(rf"(?<![\w.])(?:[{UP}]\.[ \t]?){{1,2}}(?P<last>{WORD})")  # "F. McAllister"
_ORG_OR_STREET_AFTER = re.compile(
    r"[ \t]+(?:Hospital|Clinic|Centre|Center|Health|Practice|Surgery|Street|St|Road|Rd|Avenue|Ave|Lane|Drive"
    r"|Place|Crescent|Court|Terrace|Way|House|Hall|Building|Ward|Unit|School|College|University|Trust|Ltd|Inc)\b"
)


@register("dictionary_name")
class DictionaryNameDetector(_NameRule):
    """First name + surname from the dictionaries, both capitalised: "Anna Kowalski"."""

    def detect(self, text: str) -> list[Span]:
        firsts, lasts, stop, common = first_names(), surnames(), not_names(), name_words()
        out = []
        for m in _CAP_RUN.finditer(text):
            if m.group().isupper() or _ORG_OR_STREET_AFTER.match(text, m.end()):
                continue  # headings in capitals; "John Hunter Hospital" is the organisation rule's
            if text[max(0, m.start() - 3) : m.start()].rstrip().endswith(("St", "St.")):
                continue
            tokens = [(t.start(), t.end(), _key(t.group())) for t in _TOKEN.finditer(text, m.start(), m.end())]
            words = [t for t in tokens if len(t[2]) > 1]
            for i in range(len(words) - 1):
                first, last = words[i], words[i + 1]
                if first[2] not in firsts or not (last[2] in lasts or last[2] in firsts):
                    continue
                if _FIELD_GAP.search(text, first[1], last[0]):
                    continue  # "Bernadette   Hosp no:": the next field, not a surname
                if first[2] in stop or last[2] in stop:
                    continue
                ambiguous = (first[2] in common) + (last[2] in common)
                if ambiguous == 2:
                    continue
                end = words[i + 2][1] if i + 2 < len(words) and words[i + 2][2] in lasts else last[1]
                fine = "PATIENT" if _PATIENT_BEFORE.search(before(text, first[0], 20)) else "OTHER"
                out.append(self.span(first[0], end, Category.NAME, fine, 0.55 if ambiguous else 0.7))
                break
        for m in _INITIAL_SURNAME.finditer(text):
            last = _key(m["last"])
            if last in lasts and last not in common and last not in stop and not m["last"].isupper():
                out.append(self.span(m.start(), m.end(), Category.NAME, "OTHER", 0.6))
        return keep_longest(out)
