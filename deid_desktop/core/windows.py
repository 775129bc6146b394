"""Huge texts in bounded windows: detection, the export checks and progress within a file.

Detection looks at a whole document at once, and parts of it grow with the document times
what it finds (propagation searches the text for every name it found; the model members
hold a whole document's tokens). A 20 MB text of one line did not finish in ten minutes.
So a text above ``WINDOWED_ABOVE`` characters is detected window by window: each window
owns the stretch between two cuts (at a line end, else at a space), sees ``overlap``
characters more on either side so a value across a cut is read whole, and keeps the spans
that start in the stretch it owns. Surrogates are still chosen once for the whole file
(one map: a name has one surrogate wherever it stands), and the output is written whole.

What a window cannot see: propagation finds a name again only within the window where the
name was found (about ``size`` characters), not at the far end of a 20 MB file; the export
checks compare a re-scan finding with the surrogates written near it (and with every
surrogate text exactly), and look for replaced originals near where they stood and, as whole
words, anywhere in the output.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Iterator, Sequence

from .documents import Replacement
from .parallel import in_order
from .spans import Span, first_of_overlaps, sort_spans

WINDOW_CHARS = 64_000
OVERLAP_CHARS = 2_000
WINDOWED_ABOVE = 1_000_000

# (characters done, characters in all): called after each window
Progress = Callable[[int, int], None]

_SPACE = re.compile(r"\s")
_WORD = re.compile(r"[^\W_]+")


def squash(text: str) -> str:
    """``text`` with each run of white space (line breaks included) as one space, and none
    at the ends: how a surrogate and a re-scan finding are compared."""
    return " ".join(text.split())


# Characters OCR takes for one another (Tesseract on a surrogate drawn into a picture or a
# page): each class read as its first member, after case folding. Letters and digits only,
# so a word's edges stay where they were.
_OCR_ALIKE = str.maketrans(
    {c: k for k, cs in {"0": "odq", "1": "il", "2": "z", "4": "a", "5": "s", "6": "g", "7": "t", "8": "b"}.items() for c in cs}
)


def ocr_fold(text: str) -> str:
    """``text`` with the letters and digits OCR confuses ("0"/"O"/"D", "1"/"I"/"l", "5"/"S",
    "8"/"B", "2"/"Z", "4"/"A", "6"/"G", "7"/"T") made one, and in one case: how a re-scan
    finding read back by OCR is compared with the surrogate that was painted there. The
    same length as ``text``, each character in its place."""
    return "".join(c if len(c.lower()) != 1 else c.lower() for c in text).translate(_OCR_ALIKE)


def explained_by(finding: str, surrogates: Iterable[str], fold: Callable[[str], str] | None = None) -> bool:
    """Whether a re-scan finding is what the export wrote there: inside one surrogate, or
    made of surrogates (whole, or the first or last words of one at its edges) with nothing
    else but words that name no one ("Dr", "Pt", "Results", a field's label: ``_PLAIN``).
    A surname left beside a replaced first name ("Jane Kowalczyk" where only "Mary" was
    replaced) is a finding; so is any other word the surrogates do not explain. Texts with
    white space squashed.

    ``fold``: compare the finding and the surrogates as ``fold`` gives them (``ocr_fold``
    where the finding was read back by OCR, which reads "ZQY63DY" as "ZQY630Y"); it must
    keep each character in its place, so the words left over are judged as written."""
    key_of = fold or (lambda text: text)
    keys = sorted({key_of(w) for w in surrogates if w}, key=len, reverse=True)
    key, rest = key_of(finding), finding
    if any(key in w for w in keys):
        return True
    explained = False
    for w in keys:
        i = key.find(w)
        while i >= 0:
            blank = " " * len(w)
            key, rest = key[:i] + blank + key[i + len(w) :], rest[:i] + blank + rest[i + len(w) :]
            explained = True
            i = key.find(w, i + len(w))
    for w in keys:
        for k in range(min(len(key), len(w)) - 1, 2, -1):
            # whole words only: the surrogate's first words ending the finding, or its
            # last words opening it
            if key.endswith(w[:k]) and _edge(w, k) and _edge(key, len(key) - k):
                key, rest, explained = key[:-k], rest[:-k], True
                break
            if key.startswith(w[-k:]) and _edge(w, len(w) - k) and _edge(key, k):
                key, rest, explained = key[k:], rest[k:], True
                break
    return explained and all(_plain(w) for w in _WORD.findall(rest))


def _edge(text: str, i: int) -> bool:
    """Whether offset ``i`` of ``text`` falls between two words (not inside one)."""
    return i <= 0 or i >= len(text) or not (text[i - 1].isalnum() and text[i].isalnum())


# Labels written beside a value that name no one (beyond ``lexicons.not_names``).
_LABEL_WORDS = frozenset(
    "lab no mob mobile ph phone txt sms thread ref id dob nhi nhs mrn ur urn age sex gender addr address email".split()
)


def _plain(word: str) -> bool:
    from .detect.lexicons import not_names

    w = word.casefold()
    return w in _LABEL_WORDS or w in not_names()


def value_pattern(value: str, flags: int = 0) -> re.Pattern[str]:
    """Where a replaced ``value`` still stands in a text as itself: not run into a longer
    word ("Cho" is not in "Chizoba", "ACT" is not in "action"). What the export's count of
    replaced values still present and the export check's marks both look for."""
    return re.compile(rf"(?<![^\W_]){re.escape(value)}(?![^\W_])", flags)


@dataclass(frozen=True, slots=True)
class Window:
    start: int  # what the detector reads
    end: int
    own_from: int  # the spans it keeps start here or later, and before own_to
    own_to: int


def _cut(text: str, lo: int, hi: int) -> int:
    """Where to end a stretch that may end anywhere in (lo, hi]: after the last line end,
    else after the last space, else at ``hi`` (a line with no space at all)."""
    if hi >= len(text):
        return len(text)
    i = max(text.rfind("\n", lo, hi), text.rfind("\r", lo, hi))
    if i >= 0:
        return i + 1
    i = max(text.rfind(" ", lo, hi), text.rfind("\t", lo, hi))
    return i + 1 if i >= 0 else hi


def _after_space(text: str, pos: int, limit: int) -> int:
    """The first place at or after ``pos`` (but not past ``limit``) that follows whitespace,
    so a window does not begin inside a word."""
    if pos <= 0:
        return 0
    if text[pos - 1].isspace():
        return pos
    m = _SPACE.search(text, pos, limit)
    return m.end() if m else limit


def windows(text: str, size: int = WINDOW_CHARS, overlap: int = OVERLAP_CHARS) -> list[Window]:
    """The windows covering ``text``; their owned stretches tile it without gaps."""
    if size <= 0 or overlap < 0:
        raise ValueError("the window size must be positive and the overlap not negative")
    n = len(text)
    cuts = [0]
    while cuts[-1] < n:
        lo = cuts[-1]
        cuts.append(_cut(text, lo + size // 2, lo + size))
    out = []
    for a, b in zip(cuts, cuts[1:]):
        start = _after_space(text, max(0, a - overlap), a)
        end = b if b >= n else _cut(text, b, min(n, b + overlap))
        out.append(Window(start, end, a, b))
    return out or [Window(0, n, 0, n)]


def detect_windowed(
    detector,
    text: str,
    *,
    size: int = WINDOW_CHARS,
    overlap: int = OVERLAP_CHARS,
    progress: Progress | None = None,
    at_once: int = 1,
) -> list[Span]:
    """The detector's spans on ``text``, found window by window (offsets into ``text``).
    Where the windows on either side of a cut disagree about a value across it, the window
    that saw the value begin keeps its reading. ``at_once``: windows detected at the same
    time, each in a thread of its own (the detector must allow that; an ensemble does), so
    one window's single-threaded steps (the vote, the rules) overlap another's model passes;
    a window's spans do not depend on what runs beside it, and ``progress`` is told in this
    thread, in order."""
    kept: list[Span] = []
    wins = windows(text, size, overlap)
    work = lambda w: detector.detect(text[w.start : w.end])  # noqa: E731
    for w, found in in_order(work, wins, at_once if len(wins) > 1 else 1, "deid-window"):
        for s in found:
            start = s.start + w.start
            if w.own_from <= start < w.own_to:
                kept.append(s.with_(start=start, end=s.end + w.start))
        if progress is not None:
            progress(w.own_to, len(text))
    return first_of_overlaps(kept)


def _output_offsets(replacements: Sequence[Replacement]) -> list[tuple[int, int]]:
    """Where each replacement's new text stands in the output (replacements sorted, apart)."""
    out, shift = [], 0
    for r in replacements:
        a = r.start + shift
        out.append((a, a + len(r.new_text)))
        shift += len(r.new_text) - (r.end - r.start)
    return out


def read_back_by_ocr(ranges: Sequence[tuple[int, int]], start: int, end: int) -> bool:
    """Whether ``start``-``end`` of an output touches text OCR read back (``ranges``: the
    output's OCR'd words, sorted and apart)."""
    i = bisect_left(ranges, (end, end)) - 1
    return i >= 0 and ranges[i][1] > start


def residual_findings_near(
    out_text: str,
    detected: Sequence[Span],
    replacements: Sequence[Replacement],
    reach: int = OVERLAP_CHARS,
    read_by_ocr: Sequence[tuple[int, int]] = (),
) -> list[dict[str, Any]]:
    """``pipeline.residual_findings`` for a huge output: a re-scan finding is expected when
    its text is a surrogate just written, or a surrogate written within ``reach``
    characters of it explains it (``explained_by``). Comparing every finding with every
    surrogate of the file took the product of the two. ``read_by_ocr``: as there."""
    reps = sorted(replacements, key=lambda r: r.start)
    where = _output_offsets(reps)
    starts = [a for a, _ in where]
    exact = {squash(r.new_text) for r in reps if r.new_text.strip()}
    found = []
    for s in detected:
        t = squash(out_text[s.start : s.end])
        if t in exact:
            continue
        lo, hi = bisect_left(starts, s.start - reach), bisect_right(starts, s.end + reach)
        near = [squash(reps[i].new_text) for i in range(lo, hi) if reps[i].new_text.strip()]
        if explained_by(t, near):
            continue
        if read_by_ocr and read_back_by_ocr(read_by_ocr, s.start, s.end) and explained_by(t, near, ocr_fold):
            continue
        found.append({"category": s.category.value, "start": s.start, "end": s.end, "score": round(s.score, 3)})
    return found


def inside_written(a: int, b: int, written: Sequence[tuple[int, int]], starts: list[int]) -> bool:
    """Whether [a, b) of an output lies inside one surrogate the export wrote (``written``:
    where each stands, sorted and apart; ``starts``: their starts): text the export made up."""
    i = bisect_right(starts, a) - 1
    return i >= 0 and written[i][1] >= b


def residual_originals_near(
    original: str, out_text: str, replacements: Sequence[Replacement], reach: int = OVERLAP_CHARS
) -> int:
    """``pipeline.count_residual_originals`` for a huge output: each replaced value (3+
    characters, case-insensitive, not inside a longer word) is looked for in the output
    within ``reach`` characters of where it was written, and, when it is one word, as a word
    anywhere in the output. As there, an occurrence inside a surrogate is text the export
    made up, not a leak (another value's surrogate that happens to read the same: a date of
    birth shifted onto another patient's); counting those flagged a clean 1,000,000-line note
    with 495 values "still present" where the ordinary count found none."""
    reps = sorted(replacements, key=lambda r: r.start)
    where = _output_offsets(reps)
    starts = [a for a, _ in where]
    found: set[str] = set()
    words: dict[str, str] = {}
    for r, (a, b) in zip(reps, where):
        value = original[r.start : r.end].strip().casefold()
        if len(value) < 3 or value in found:
            continue
        lo = max(0, a - reach)
        raw = out_text[lo : b + reach]
        hay = raw.casefold()
        # case folding that changes a length moves the offsets: then no exemption, to be safe
        aligned = len(hay) == len(raw)
        if any(not (aligned and inside_written(lo + m.start(), lo + m.end(), where, starts)) for m in value_pattern(value).finditer(hay)):
            found.add(value)
        elif _WORD.fullmatch(value):
            words[value] = value
    if words:
        for w, a, b in _iter_words(out_text):
            if w in words and not inside_written(a, b, where, starts):
                found.add(words.pop(w))
                if not words:
                    break
    return len(found)


def _iter_words(text: str, block: int = WINDOW_CHARS) -> Iterator[tuple[str, int, int]]:
    """The words of ``text``, case-folded, with where each stands, a block at a time (never
    a list of all of them)."""
    pos = 0
    while pos < len(text):
        end = _cut(text, pos + block // 2, pos + block)
        for m in _WORD.finditer(text, pos, end):
            yield m.group().casefold(), m.start(), m.end()
        pos = end


# -- re-scanning only what the export changed ---------------------------------------------
#
# An output line with no replacement in it, and none within ``RESCAN_CONTEXT_LINES``
# non-blank lines of one, is the input's line unchanged, and what the detector finds there
# it found in the input already: the rules look at most a line or two around a value
# (a closing line before a signature, a value broken over a line end), the models read one
# sentence (which never crosses a line) at a time. So the re-scan reads the lines around
# each replacement, with as many lines again of context, and keeps what it finds in the
# first part. Lines are capped at ``OVERLAP_CHARS`` on either side, cut after a space, so a
# text of one huge line is read in pieces too.

RESCAN_CONTEXT_LINES = 2


@dataclass(frozen=True, slots=True)
class RescanRegion:
    start: int  # what the detector reads
    end: int
    cores: tuple[tuple[int, int], ...]  # the stretches whose findings are kept


def aligned_offsets(original: str, out_text: str, replacements: Sequence[Replacement]) -> list[tuple[int, int]] | None:
    """Where each replacement stands in ``out_text`` (sorted by start) when ``out_text`` is
    ``original`` with the replacements applied and nothing else changed; None otherwise
    (a PDF's text read back from the written file differs in its spacing)."""
    reps = sorted(replacements, key=lambda r: r.start)
    where = _output_offsets(reps)
    if len(out_text) != len(original) + sum(len(r.new_text) - (r.end - r.start) for r in reps):
        return None
    pos = 0
    for r, (a, b) in zip(reps, where):
        if r.start < pos or not out_text.startswith(original[pos : r.start], a - (r.start - pos)):
            return None
        if not out_text.startswith(r.new_text, a):
            return None
        pos = r.end
    return where if out_text.endswith(original[pos:]) else None


def output_position(pos: int, replacements: Sequence[Replacement], where: Sequence[tuple[int, int]]) -> int:
    """Where input offset ``pos`` lies in the output (replacements sorted, ``where`` their
    output offsets); inside a replacement, where that replacement's new text begins."""
    i = bisect_right([r.start for r in replacements], pos) - 1
    if i < 0:
        return pos
    r, (a, b) = replacements[i], where[i]
    return a if pos < r.end else b + (pos - r.end)


def _line_start(text: str, pos: int, lo: int) -> int:
    """Start of the line holding ``pos``, or -1 when it begins before ``lo`` (not 0)."""
    i = max(text.rfind("\n", lo, pos), text.rfind("\r", lo, pos))
    return i + 1 if i >= 0 else (0 if lo == 0 else -1)


def _line_end(text: str, pos: int, hi: int) -> int:
    """End of the line holding ``pos`` (before its break), or -1 when it ends after ``hi``."""
    found = [i for i in (text.find("\n", pos, hi), text.find("\r", pos, hi)) if i >= 0]
    return min(found) if found else (len(text) if hi >= len(text) else -1)


def _reach_back(text: str, pos: int, lines: int, chars: int) -> int:
    """The start of the line ``lines`` non-blank lines before the one holding ``pos`` (blank
    lines between count for nothing), but not more than ``chars`` before ``pos``."""
    lo = max(0, pos - chars)
    start, left = _line_start(text, pos, lo), lines
    while start > 0 and left > 0:
        prev = _line_start(text, start - 1, lo)
        if prev < 0:
            start = -1
            break
        left -= bool(text[prev : start - 1].strip())
        start = prev
    return start if start >= 0 else _after_space(text, lo, pos)


def _reach_forward(text: str, pos: int, lines: int, chars: int) -> int:
    """``_reach_back`` the other way: the end of the line ``lines`` non-blank lines after
    the one holding ``pos``, but not more than ``chars`` after it."""
    hi = min(len(text), pos + chars)
    end, left = _line_end(text, pos, hi), lines
    while 0 <= end < len(text) and left > 0:
        nxt = _line_end(text, end + 1, hi)
        if nxt < 0:
            end = -1
            break
        left -= bool(text[end + 1 : nxt].strip())
        end = nxt
    return end if end >= 0 else _cut(text, pos, hi)


def rescan_regions(
    text: str, marks: Sequence[tuple[int, int]], lines: int = RESCAN_CONTEXT_LINES, chars: int = OVERLAP_CHARS
) -> list[RescanRegion]:
    """The parts of ``text`` to re-scan for the changed stretches ``marks``: each mark's
    lines and ``lines`` more on either side are kept (the cores), read with ``lines`` more
    again as context; regions that touch are read as one."""
    cores: list[list[int]] = []
    for a, b in sorted(marks):
        ca, cb = _reach_back(text, a, lines, chars), _reach_forward(text, b, lines, chars)
        if cores and ca <= cores[-1][1]:
            cores[-1][1] = max(cores[-1][1], cb)
        else:
            cores.append([ca, cb])
    regions: list[RescanRegion] = []
    for ca, cb in cores:
        ra, rb = _reach_back(text, ca, lines, chars), _reach_forward(text, cb, lines, chars)
        if regions and ra <= regions[-1].end:
            last = regions[-1]
            regions[-1] = RescanRegion(last.start, max(last.end, rb), (*last.cores, (ca, cb)))
        else:
            regions.append(RescanRegion(ra, rb, ((ca, cb),)))
    return regions


def in_cores(spans: Sequence[Span], region: RescanRegion) -> list[Span]:
    """The spans (offsets into the whole text) that overlap one of the region's cores."""
    starts = [a for a, _ in region.cores]
    kept = []
    for s in spans:
        # the cores are sorted and apart: the last one starting before the span's end
        # reaches furthest, so it alone can tell
        i = bisect_left(starts, s.end) - 1
        if i >= 0 and region.cores[i][1] > s.start:
            kept.append(s)
    return kept


def propagate_windowed(propagator, text: str, spans: Sequence[Span], *, size: int = WINDOW_CHARS, overlap: int = OVERLAP_CHARS) -> list[Span]:
    """``propagator.propagate`` over a huge text the way ``detect_windowed`` runs it: each
    window repeats what was found in it, within it, and keeps what starts in its stretch."""
    spans = sort_spans(spans)
    starts = [s.start for s in spans]
    kept: list[Span] = []
    for w in windows(text, size, overlap):
        lo, hi = bisect_left(starts, w.start), bisect_left(starts, w.end)
        inside = [s.with_(start=s.start - w.start, end=s.end - w.start) for s in spans[lo:hi] if s.end <= w.end]
        if not inside:
            continue
        for s in propagator.propagate(text[w.start : w.end], inside):
            start = s.start + w.start
            if w.own_from <= start < w.own_to:
                kept.append(s.with_(start=start, end=s.end + w.start))
    return first_of_overlaps(kept)
