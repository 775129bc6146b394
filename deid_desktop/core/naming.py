"""Names of output files and folders that carry no PHI.

File and folder names are PHI more often than not ("Okafor_Margaret_MRN44172290.txt", a
folder per patient), and a detector reading three words without context misses most of
them. A data steward releases what we write, so a name is judged conservatively, word by
word (split at _ - . spaces and camelCase):

1. a word with three or more digits, or digits joined by - . / ("MRN44172290", "AB12CD3",
   "0412", "2021-03-14", "14.03"), is an identifier or a date: it is PHI;
2. a word that is part of a PHI span of the document's own text ("Okafor" where the body
   says "Margaret Okafor") is PHI with that span's category (``phi_words``), whatever the
   word lists say;
3. what the detector finds in the name is PHI;
4. any other word must be known to be harmless: a document-type word (letter, discharge,
   referral, gp...), a word of the shipped English and clinical lists that is not also a
   first name, surname or place in the name dictionaries, a number of at most two digits
   ("v2", "01"), or a code of at most two letters that is not a name ("ED", "OT").

A name with an unknown word becomes a neutral keyed name (``doc-3fa9c2e1``). In surrogate
mode PHI words get the surrogates the text gets (the same engine and subject, and names are
keyed word by word, so "Okafor" in the name and in the body become the same name); in tag and
blackout modes any PHI makes the name neutral. The neutral name is a keyed hash rather than a
counter so it stays the same across runs, workers and added files. A file's suffix is kept
only when it names a file type ("Margaret.Okafor" has none).

The CLI batch plans every output name before it reads any document (resuming, the name map
and clash-free names need the whole plan first), so there only rules 1, 3 and 4 apply; the
GUI export knows each document's reviewed spans and passes them in. The CLI batch and the GUI
export both name their outputs here: one rule, in one place.
"""

from __future__ import annotations

import hashlib
import hmac
import mimetypes
import os
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path, PurePath
from typing import Iterable, Mapping, Sequence

from .categories import Category
from .spans import Span
from .surrogates.modes import ExportMode

# A run of digits joined by - . / stays one word ("2024-05-02", "02.05.2024"): split, a date
# would no longer look like one to the detector.
_WORD = re.compile(r"\d+(?:[-./]\d+)+|[^\W_]+")
_UNSAFE = re.compile(r'[\\/:*?"<>|\x00-\x1f\x7f]+')
# Dates: digits joined by - . / ("14.03"); with three or more digits, see ``_number_phi``.
_JOINED_DIGITS = re.compile(r"\d[-./]\d")
_DATE_LIKE = re.compile(r"\d{1,4}[-./]\d{1,2}(?:[-./]\d{1,4})?|(?:19|20)\d\d(?:[01]\d[0-3]\d)?")

# Words that name a kind of document, service or version and identify no one, even where a
# dictionary also lists them as a name ("Page", "Ward", "Ed"). A file name made of these stays
# readable.
DOCUMENT_WORDS = frozenset("""
    letter letters discharge summary summaries referral referrals scan scanned scans report
    reports note notes clinic clinical gp ed er ot pt dr mr mrs ms miss prof patient slt
    mrn nhi dob id ref admission admit assessment appointment audiology blood bloods cardiology care chart
    consult consultation copy correspondence ct cxr day dental dermatology diagnosis dictation
    doc document draft ecg echo eeg ekg email emergency encounter endoscopy exam examination
    fax file final follow followup form gastro general handover health history hospital
    imaging inpatient intake lab labs medical medication medications meds memo mental mri
    neurology new nurse nursing obs old oncology op operation operative opd outpatient page
    part pathology physio physiotherapy plan practice prescription procedure progress psych
    psychiatry psychology radiology record records reply request response result
    results review rev script signed specialist surgery surgical test tests therapy transfer
    transcript triage ultrasound up update urgent ver version visit ward xray
    a an and at by for from in of on or re the to with
""".split())

# Titles the name surrogates keep on purpose; they identify no one.
_TITLES = frozenset({"dr", "mr", "mrs", "ms", "miss", "prof", "patient", "pt"})

@dataclass(frozen=True)
class _Word:
    start: int  # offsets into the original name
    end: int


def _camel_parts(name: str, start: int, end: int) -> list[_Word]:
    """"TevitaFifita" → Tevita, Fifita; "GPLetter" → GP, Letter; "ZAC5361" stays whole."""
    run = name[start:end]
    if not run.isalpha():
        return [_Word(start, end)]
    cuts = [0]
    for i in range(1, len(run)):
        a, b = run[i - 1], run[i]
        nxt = run[i + 1] if i + 1 < len(run) else ""
        if (a.islower() and b.isupper()) or (a.isupper() and b.isupper() and nxt.islower()):
            cuts.append(i)
    cuts.append(len(run))
    return [_Word(start + x, start + y) for x, y in zip(cuts, cuts[1:])]


def name_words(name: str) -> list[_Word]:
    """The words of a file or folder name, split at _ - . spaces and camelCase."""
    words: list[_Word] = []
    for m in _WORD.finditer(name):
        words.extend(_camel_parts(name, m.start(), m.end()))
    return words


# -- which words are harmless -------------------------------------------------------------

@lru_cache(maxsize=1)
def _dictionary_names() -> frozenset[str]:
    """Every first name, surname and place the detector's dictionaries know."""
    from .detect.lexicons import first_names, places, surnames

    return frozenset(first_names()) | surnames() | frozenset(places())


@lru_cache(maxsize=1)
def _listed_words() -> frozenset[str]:
    """Words of the shipped English and clinical lists (common words, sentence openers,
    peoples and languages, clinical terms, drugs), as single lower-case words."""
    from .detect.lexicons import guard_terms, not_names, read_list
    from .paths import resources_dir

    common = read_list(resources_dir() / "dictionaries" / "faker_common_words.txt")
    words = {w.casefold() for w in common} | not_names()
    for term in guard_terms():
        words.update(m.group(0).casefold() for m in re.finditer(r"[^\W\d_]+", term))
    return frozenset(words)


@lru_cache(maxsize=1)
def _plain_words() -> frozenset[str]:
    """Listed words that are not also a name or place: "report" and "blood" are plain,
    "rose", "brown" and "may" are not (they may be the patient)."""
    return DOCUMENT_WORDS | (_listed_words() - _dictionary_names())


def _plain(word: str) -> bool:
    """Whether a word (with no PHI number in it) is known to identify no one."""
    w = word.casefold()
    if w.isdigit():
        return len(w) <= 2
    letters = re.findall(r"[^\W\d_]+", w)
    if len(letters) != 1 or letters[0] != w:  # "v2", "week12": each run of letters must be plain
        return bool(letters) and all(_plain(p) for p in letters)
    if len(w) <= 2:  # a code ("ED", "OT", "v"), unless it is only a name ("Li", "Wu")
        return w in _plain_words() or w in _listed_words() or w not in _dictionary_names()
    plain = _plain_words()
    return w in plain or (w.endswith("s") and w[:-1] in plain)


def _number_phi(word: str) -> bool:
    """Identifiers, phone numbers and dates: three or more digits anywhere in the word
    ("MRN44172290", "AB12CD3"), or digits joined by - . / ("14.03")."""
    return sum(c.isdigit() for c in word) >= 3 or _JOINED_DIGITS.search(word) is not None


def _number_category(word: str) -> Category:
    return Category.DATE if _DATE_LIKE.fullmatch(word) else Category.ID


# -- the document's own PHI ---------------------------------------------------------------

PhiWords = Mapping[str, tuple[Category, str]]


def phi_words(text: str, spans: Iterable[Span]) -> dict[str, tuple[Category, str]]:
    """Each word of the document's PHI spans, case-folded, with its span's category and fine
    type: a file name word equal to one of them is PHI, whatever the word lists say. Left
    out, for they identify no one on their own: titles ("Dr"), one letter or one or two
    digits ("J.", the "3" of "3 May"), and document-type words of spans other than names
    (the "Clinic" of "Wellington Clinic"; but "Page" of "Will Page" is his name)."""
    out: dict[str, tuple[Category, str]] = {}
    for s in spans:
        value = text[s.start : s.end]
        for word in _phi_parts(value, s.category):
            out.setdefault(word, (s.category, s.fine))
    return out


def _phi_parts(value: str, category: Category) -> list[str]:
    """The case-folded words of one PHI value that identify someone (see ``phi_words``)."""
    words = [value[w.start : w.end].casefold() for w in name_words(value)]
    return [w for w in words
            if len(w) > 1 and w not in _TITLES and not (w.isdigit() and len(w) <= 2)
            and not (w in DOCUMENT_WORDS and category is not Category.NAME)]


def _non_overlapping(spans: Sequence[Span]) -> list[Span]:
    """Longest first, then left to right; the engine needs spans that do not overlap."""
    kept: list[Span] = []
    for s in sorted(spans, key=lambda s: (-(s.end - s.start), s.start)):
        if all(s.end <= k.start or s.start >= k.end for k in kept):
            kept.append(s)
    return sorted(kept, key=lambda s: s.start)


def _capitalised(text: str) -> str | None:
    """The text with each word's first letter upper-cased, so a lower-case name ("aroha
    ngata") reads to the rules as a name; None where that would change the offsets."""
    out = re.sub(r"[^\W\d_]+", lambda m: m.group(0)[:1].upper() + m.group(0)[1:], text)
    return out if len(out) == len(text) and out != text else None


@dataclass
class _Reading:
    """A name read word by word: the words joined by spaces, each word's bounds in that
    text, the PHI spans over whole words, and whether a word is neither PHI nor plain."""

    words: list[_Word]
    text: str
    bounds: list[tuple[int, int]]
    spans: list[Span]
    unknown: list[int]  # indexes of words that are neither PHI nor known to be harmless


def read_name(name: str, detector, phi: PhiWords | None = None) -> _Reading:
    """What is PHI in a name (numbers, the document's own PHI words, the detector's finds)
    and which words are unknown."""
    words = name_words(name)
    text = " ".join(name[w.start : w.end] for w in words)
    bounds, pos = [], 0
    for w in words:
        bounds.append((pos, pos + w.end - w.start))
        pos += w.end - w.start + 1
    found = _detected(text, bounds, detector) if text.strip() else []
    spans = list(found)
    for i, (a, b) in enumerate(bounds):
        if any(s.start <= a and b <= s.end for s in found):
            continue
        word = text[a:b]
        known = (phi or {}).get(word.casefold())
        if _number_phi(word):
            spans.append(Span(a, b, _number_category(word), "OTHER", 1.0, "file name"))
        elif known is not None:
            spans.append(Span(a, b, known[0], known[1], 1.0, "document"))
    spans = _non_overlapping(spans)
    unknown = [i for i, (a, b) in enumerate(bounds)
               if not any(s.start <= a and b <= s.end for s in spans) and not _plain(text[a:b])]
    return _Reading(words, text, bounds, spans, unknown)


def _detected(text: str, bounds: list[tuple[int, int]], detector) -> list[Span]:
    """The detector's spans over the name's words (also read capitalised), widened to whole
    words."""
    found = list(detector.detect(text))
    cap = _capitalised(text)
    if cap is not None:
        found.extend(detector.detect(cap))
    widened = []
    for s in found:
        touched = [i for i, (a, b) in enumerate(bounds) if a < s.end and s.start < b]
        if touched:
            start, end = bounds[touched[0]][0], bounds[touched[-1]][1]
            widened.append(Span(start, end, s.category, s.fine, s.score, s.source))
    return _non_overlapping(widened)


class FileNamer:
    """De-identifies file and folder names with a detector and the surrogate engine.

    ``secret`` keys the neutral names; pass the same secret the engine was made with."""

    def __init__(self, detector, engine, secret: bytes, mode: ExportMode | str = ExportMode.SURROGATE):
        self.detector = detector
        self.engine = engine
        self.mode = ExportMode.parse(mode)
        self._key = hmac.new(secret, b"deid-desktop file names", hashlib.sha256).digest()
        self._cache: dict[tuple, str] = {}

    def neutral(self, name: str, subject: str, kind: str = "doc") -> str:
        digest = hmac.new(self._key, f"{kind}\x00{subject}\x00{name}".encode("utf-8", "surrogatepass"), hashlib.sha256)
        return f"{kind}-{digest.hexdigest()[:8]}"

    def component(self, name: str, subject: str, kind: str = "doc", phi: PhiWords | None = None) -> str:
        """One name (no folder separators, no suffix) without PHI; ``phi`` holds the words
        of the document's own PHI (``phi_words``). Cached: a folder name is asked for once
        per file inside it."""
        mine = {name[w.start : w.end].casefold() for w in name_words(name)}
        relevant = frozenset((w, v) for w, v in (phi or {}).items() if w in mine)
        key = (name, subject, kind, relevant)
        if key not in self._cache:
            self._cache[key] = self._component(name, subject, kind, dict(relevant))
        return self._cache[key]

    def _component(self, name: str, subject: str, kind: str, phi: PhiWords) -> str:
        r = read_name(name, self.detector, phi)
        if r.unknown:
            return self.neutral(name, subject, kind)
        if not r.spans:
            return _safe(name) or self.neutral(name, subject, kind)
        if self.mode is not ExportMode.SURROGATE:
            return self.neutral(name, subject, kind)
        first_word = {a: i for i, (a, _) in enumerate(r.bounds)}
        last_word = {b: i for i, (_, b) in enumerate(r.bounds)}
        out, pos = [], 0
        for rep in self.engine.replacements(r.text, r.spans, subject=subject, mode=ExportMode.SURROGATE):
            a, b = r.words[first_word[rep.start]].start, r.words[last_word[rep.end]].end
            out.append(name[pos:a])
            # one word keeps the name's own separator ("wellington_referral" →
            # "Central_University_referral"); camelCase words stay joined
            sep = _separator(name[a:b] if first_word[rep.start] != last_word[rep.end] else name)
            out.append(re.sub(r"\s+", sep, rep.new_text.strip()))
            pos = b
        out.append(name[pos:])
        renamed = _safe("".join(out))
        if not renamed or _still_there(renamed, r.text, r.spans):
            return self.neutral(name, subject, kind)
        return renamed

    def file_stem(self, stem: str, subject: str, phi: PhiWords | None = None) -> str:
        return self.component(stem, subject, "doc", phi)

    def folder(self, name: str, subject: str) -> str:
        """A folder's name. The document's own PHI words are not used here: a folder holds
        several documents and must get one name."""
        return self.component(name, subject, "folder")

    def label(self, value: str) -> str:
        """A subject label or other short string as it may appear in a report."""
        return self.component(value, value, "subject") if value and value != "default" else value

    def relative(self, rel: PurePath, subjects: Sequence[str], phi: PhiWords | None = None) -> PurePath:
        """Each folder of ``rel`` renamed with its subject, then the file's stem (the suffix
        stays when it names a type, not a person). ``subjects`` gives one subject per part."""
        parts = list(rel.parts)
        out = [self.folder(p, s) for p, s in zip(parts[:-1], subjects[:-1])]
        stem, suffix = split_suffix(parts[-1])
        out.append(self.file_stem(stem, subjects[-1], phi) + suffix)
        return PurePath(*out)


# Suffixes common in clinical exports that the standard MIME table lacks.
_MORE_SUFFIXES = frozenset({"docx", "xlsx", "pptx", "odt", "ods", "odp", "md", "msg", "dcm", "hl7", "log", "dat",
                            "parquet", "jsonl", "ndjson"})


@lru_cache(maxsize=1)
def _known_suffixes() -> frozenset[str]:
    """File-type suffixes of Python's built-in MIME table (not the system's, so every
    machine names a file alike), without the dot."""
    table = mimetypes.MimeTypes()
    return frozenset(k[1:] for strict in (True, False) for k in table.types_map[strict]) | _MORE_SUFFIXES


def split_suffix(name: str) -> tuple[str, str]:
    """(stem, suffix) of a file name. The suffix is copied into the output name as it is, so
    only a known file type, or a short suffix that is no name, counts as one: "letter.txt" →
    ("letter", ".txt"), "notes.md" → ("notes", ".md"), but "Margaret.Okafor" is all stem."""
    suffix = PurePath(name).suffix
    body = suffix[1:].casefold()
    if name == suffix or not body.isalnum():
        return name, ""
    if body in _known_suffixes() or (len(body) <= 4 and body not in _dictionary_names()):
        return name[: -len(suffix)], suffix
    return name, ""


def _still_there(renamed: str, text: str, spans: Sequence[Span]) -> bool:
    """Whether a replaced word survived (a surrogate that kept a token, "Dr Smith" → "Dr
    Smith-Jones"): then the renamed name is not used. Titles and document-type words the
    surrogates keep on purpose ("Dr", the "Radiology" of an organisation) do not count."""
    left = {renamed[w.start : w.end].casefold() for w in name_words(renamed)}
    gone = {w for s in spans for w in _phi_parts(text[s.start : s.end], s.category)}
    return bool(left & gone)


def _separator(original: str) -> str:
    """The character the original name put between the replaced words ("_", "-", " "), or
    none for camelCase."""
    m = re.search(r"[\s_.\-]", original)
    return m.group(0) if m else ""


def _safe(name: str) -> str:
    """A name every file system takes: no separators or reserved characters, no leading dot."""
    return _UNSAFE.sub("_", name).strip().lstrip(".").strip()


UNKNOWN_TAG = "[?]"


def withheld_name(name: str, detector) -> str:
    """A name for a message outside any batch (no key, no subject): what is PHI becomes its
    category tag and every word not known to be harmless "[?]", one tag for a run of them:
    "Okafor_Margaret_MRN44172290.txt" → "[?]_[ID].txt", "GP_letter.txt" stays."""
    stem, suffix = split_suffix(PurePath(name).name)
    r = read_name(stem, detector)
    tags: list[str | None] = [None] * len(r.words)
    for s in r.spans:
        for i, (a, b) in enumerate(r.bounds):
            if s.start <= a and b <= s.end:
                tags[i] = f"[{s.category.value}]"
    for i in r.unknown:
        tags[i] = UNKNOWN_TAG
    out, pos = [], 0
    for i, w in enumerate(r.words):
        if tags[i] is None:
            continue
        if i > 0 and tags[i - 1] == tags[i]:
            pos = w.end  # the run goes on: its words and separators share the first tag
            continue
        out.append(_UNSAFE.sub("_", stem[pos : w.start]) + tags[i])
        pos = w.end
    return ("".join(out) + _UNSAFE.sub("_", stem[pos:])).strip().lstrip(".").strip() + suffix


# -- output paths -------------------------------------------------------------------------

DEID_MARK = ".deid"
PART_MARK = ".part"


def output_name(stem: str, suffix: str) -> str:
    return f"{stem}{DEID_MARK}{suffix}"


def claim(path: Path, taken: set[str]) -> Path:
    """``path``, or ``name-2.deid.txt``, ``name-3...`` when another output already has that
    name: two inputs never share an output. Compared without the suffix (the final suffix
    follows what a file really is) and without case (macOS and Windows ignore it)."""
    stem = path.name[: -len(path.suffix)] if path.suffix else path.name
    base = stem[: -len(DEID_MARK)] if stem.endswith(DEID_MARK) else stem
    n = 1
    candidate = path
    while _key(candidate) in taken:
        n += 1
        candidate = path.with_name(output_name(f"{base}-{n}", path.suffix))
    taken.add(_key(candidate))
    return candidate


def _key(path: Path) -> str:
    return os.path.normcase(str(path.with_suffix(""))).casefold()
