"""Names of output files and folders that carry no PHI.

File and folder names are PHI more often than not ("Tevita_Fifita_letter.docx", a folder per
patient). Every name component is split into words ("Tevita Fifita letter"), run through the
same detector as the text, and what it finds is replaced: by the surrogate the text gets (the
same engine, subject and category, so "Tevita" in the name and in the body become the same
name) in surrogate mode, or by a neutral keyed name (``doc-3fa9c2e1``) in tag and blackout
modes or whenever the renamed component still looks unsafe. The neutral name is a keyed hash
rather than a counter so it stays the same across runs, workers and added files.

The CLI batch and the GUI export both name their outputs here: one rule, in one place.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import re
from dataclasses import dataclass
from pathlib import Path, PurePath
from typing import Sequence

from .spans import Span

# A run of digits joined by - . / stays one word ("2024-05-02", "02.05.2024"): split, a date
# would no longer look like one to the detector.
_WORD = re.compile(r"\d+(?:[-./]\d+)+|[^\W_]+")
_UNSAFE = re.compile(r'[\\/:*?"<>|\x00-\x1f\x7f]+')


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


def _capitalised(text: str) -> str | None:
    """The text with each word's first letter upper-cased, so a lower-case name ("aroha
    ngata") reads to the rules as a name; None where that would change the offsets."""
    out = re.sub(r"[^\W\d_]+", lambda m: m.group(0)[:1].upper() + m.group(0)[1:], text)
    return out if len(out) == len(text) and out != text else None


def _non_overlapping(spans: Sequence[Span]) -> list[Span]:
    """Longest first, then left to right; the engine needs spans that do not overlap."""
    kept: list[Span] = []
    for s in sorted(spans, key=lambda s: (-(s.end - s.start), s.start)):
        if all(s.end <= k.start or s.start >= k.end for k in kept):
            kept.append(s)
    return sorted(kept, key=lambda s: s.start)


class FileNamer:
    """De-identifies file and folder names with a detector and the surrogate engine.

    ``secret`` keys the neutral names; pass the same secret the engine was made with."""

    def __init__(self, detector, engine, secret: bytes, mode: str = "surrogate"):
        self.detector = detector
        self.engine = engine
        self.mode = mode
        self._key = hmac.new(secret, b"deid-desktop file names", hashlib.sha256).digest()
        self._cache: dict[tuple[str, str, str], str] = {}

    def neutral(self, name: str, subject: str, kind: str = "doc") -> str:
        digest = hmac.new(self._key, f"{kind}\x00{subject}\x00{name}".encode("utf-8", "surrogatepass"), hashlib.sha256)
        return f"{kind}-{digest.hexdigest()[:8]}"

    def phi_spans(self, name: str) -> tuple[str, list[tuple[int, int]], list[Span]]:
        """(the name's words joined by spaces, each word's (start, end) in that text,
        detections widened to whole words)."""
        words = name_words(name)
        text = " ".join(name[w.start : w.end] for w in words)
        bounds, pos = [], 0
        for w in words:
            bounds.append((pos, pos + w.end - w.start))
            pos += w.end - w.start + 1
        if not text.strip():
            return text, bounds, []
        found = list(self.detector.detect(text))
        cap = _capitalised(text)
        if cap is not None:
            found.extend(self.detector.detect(cap))
        widened = []
        for s in found:
            touched = [i for i, (a, b) in enumerate(bounds) if a < s.end and s.start < b]
            if touched:
                start, end = bounds[touched[0]][0], bounds[touched[-1]][1]
                widened.append(Span(start, end, s.category, s.fine, s.score, s.source))
        return text, bounds, _non_overlapping(widened)

    def component(self, name: str, subject: str, kind: str = "doc") -> str:
        """One name (no folder separators, no suffix) without PHI. Cached: a folder name is
        asked for once per file inside it."""
        key = (name, subject, kind)
        if key not in self._cache:
            self._cache[key] = self._component(name, subject, kind)
        return self._cache[key]

    def _component(self, name: str, subject: str, kind: str) -> str:
        text, bounds, spans = self.phi_spans(name)
        if not spans:
            return _safe(name) or self.neutral(name, subject, kind)
        if self.mode != "surrogate":
            return self.neutral(name, subject, kind)
        words = name_words(name)
        first_word = {a: i for i, (a, _) in enumerate(bounds)}
        last_word = {b: i for i, (_, b) in enumerate(bounds)}
        out, pos = [], 0
        for r in self.engine.replacements(text, spans, subject=subject, mode="surrogate"):
            a, b = words[first_word[r.start]].start, words[last_word[r.end]].end
            out.append(name[pos:a])
            out.append(re.sub(r"\s+", _separator(name[a:b]), r.new_text.strip()))
            pos = b
        out.append(name[pos:])
        renamed = _safe("".join(out))
        if not renamed or _still_there(renamed, [text[s.start : s.end] for s in spans]):
            return self.neutral(name, subject, kind)
        return renamed

    def file_stem(self, stem: str, subject: str) -> str:
        return self.component(stem, subject, "doc")

    def folder(self, name: str, subject: str) -> str:
        return self.component(name, subject, "folder")

    def label(self, value: str) -> str:
        """A subject label or other short string as it may appear in a report."""
        return self.component(value, value, "subject") if value and value != "default" else value

    def relative(self, rel: PurePath, subjects: Sequence[str]) -> PurePath:
        """Each folder of ``rel`` renamed with its subject, then the file's stem (the suffix
        stays: it names a type, not a person). ``subjects`` gives one subject per part."""
        parts = list(rel.parts)
        out = [self.folder(p, s) for p, s in zip(parts[:-1], subjects[:-1])]
        leaf = PurePath(parts[-1])
        out.append(self.file_stem(leaf.stem, subjects[-1]) + leaf.suffix)
        return PurePath(*out)


def _still_there(renamed: str, originals: Sequence[str]) -> bool:
    """Whether a replaced word survived (a surrogate that kept a token, "Dr Smith" → "Dr
    Smith-Jones"): then the renamed name is not used."""
    left = {renamed[w.start : w.end].casefold() for w in name_words(renamed)}
    gone = {t.casefold() for o in originals for t in o.split() if len(t) > 1 and t.casefold() not in _KEPT_WORDS}
    return bool(left & gone)


# Titles the name surrogates keep on purpose; they identify no one.
_KEPT_WORDS = frozenset({"dr", "mr", "mrs", "ms", "miss", "prof", "patient", "pt"})


def _separator(original: str) -> str:
    """The character the original name put between the replaced words ("_", "-", " "), or
    none for camelCase."""
    m = re.search(r"[\s_.\-]", original)
    return m.group(0) if m else ""


def _safe(name: str) -> str:
    """A name every file system takes: no separators or reserved characters, no leading dot."""
    return _UNSAFE.sub("_", name).strip().lstrip(".").strip()


def withheld_name(name: str, detector) -> str:
    """A name for a message outside any batch (no key, no subject): what the detector finds
    becomes its category tag, "[NAME]_letter.txt"."""
    base = PurePath(name).name
    stem, suffix = (base[: -len(PurePath(base).suffix)], PurePath(base).suffix) if PurePath(base).suffix else (base, "")
    namer = FileNamer(detector, None, b"", "tag")
    text, bounds, spans = namer.phi_spans(stem)
    words = name_words(stem)
    first_word = {a: i for i, (a, _) in enumerate(bounds)}
    last_word = {b: i for i, (_, b) in enumerate(bounds)}
    out, pos = [], 0
    for s in spans:
        a, b = words[first_word[s.start]].start, words[last_word[s.end]].end
        out.append(stem[pos:a] + f"[{s.category.value}]")
        pos = b
    return _safe("".join(out) + stem[pos:]) + suffix


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
