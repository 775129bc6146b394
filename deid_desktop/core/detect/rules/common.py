"""Pieces every rule detector shares: the span factory, context windows, and the
regex fragments for capitalised words and units."""

from __future__ import annotations

import bisect
import re
from typing import Iterable

from ...categories import Category
from ...spans import Span
from ..base import Detector

# Upper / lower case letters of the Latin-script languages in the name lists.
UP = "A-ZÀ-ÖØ-ÞĀĂĄĆČĎĐĒĖĘĚĞĪİŁŃŇŌŐŒŘŚŞŠŢŤŪŮŰŹŻŽ"
LO = "a-zß-öø-ÿāăąćčďđēėęěğīıłńňōőœřśşšţťūůűźżž"

# Units and words after a number that make it a dose, measurement or count, never PHI.
UNITS = (
    r"(?:mg|mcg|µg|ug|g|kg|ml|mL|l|L|mmol|mol|iu|IU|units?|u|mEq|meq|mm|cm|m|km|mmhg|mmHg|bpm|"
    r"kcal|cal|%|x|tabs?|tablets?|caps?|capsules?|puffs?|drops?|doses?|sachets?|amps?|vials?|"
    r"hrs?|hours?|mins?|minutes?|secs?|seconds?|days?|d|wks?|weeks?|months?|mths?|yrs?|years?|"
    r"times|cycles?|beats|breaths|litres?|liters?|mls?|l/min|ml/hr|mg/kg|mg/dl|mmol/l|g/l|g/dl)"
)
UNIT_AFTER = re.compile(rf"\s*{UNITS}(?![A-Za-z])", re.I)


# A North American phone number written as one: area code and exchange from 2-9, with dashes
# ("210-555-0193"). One ten-digit number in eleven passes the NHS number's check, so the
# NHS and phone rules both read this shape as a phone unless an NHS label stands before it.
NANP_DASHED = re.compile(r"[2-9]\d{2}-[2-9]\d{2}-\d{4}")


class RuleDetector(Detector):
    """A regex / dictionary detector. Subclasses implement ``detect``."""

    def span(
        self, start: int, end: int, category: Category, fine: str = "OTHER", score: float = 0.9, *, validated: bool = False
    ) -> Span:
        """``validated``: the value proved itself (check digit, full date, address syntax), so
        the ensemble must not out-vote it (``Span.validated``)."""
        return Span(start, end, category, fine, round(score, 3), source=self.name, validated=validated)


def trie_regex(words: Iterable[str], ignore_case: bool = True) -> str:
    """One regex for a word list, shaped as a trie ("d(?:a(?:d|ughter)|tr)") so the engine
    rejects a position after one character instead of trying every word in turn. A space in
    a word matches any run of spaces or tabs; longer words win over their prefixes."""
    trie: dict = {}
    for word in words:
        node = trie
        for ch in word.casefold() if ignore_case else word:
            node = node.setdefault(ch, {})
        node[""] = {}

    def emit(node: dict) -> str:
        branches = [
            ("[ \\t]+" if ch == " " else re.escape(ch)) + emit(sub) for ch, sub in sorted(node.items()) if ch
        ]
        if not branches:
            return ""
        body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
        return f"(?:{body})?" if "" in node else body

    return ("(?i:" if ignore_case else "(?:") + emit(trie) + ")"


def before(text: str, pos: int, width: int = 40) -> str:
    """The lower-cased text just before ``pos`` on the same line."""
    chunk = text[max(0, pos - width) : pos]
    return chunk[chunk.rfind("\n") + 1 :].lower()


def after(text: str, pos: int, width: int = 40) -> str:
    chunk = text[pos : pos + width]
    nl = chunk.find("\n")
    return (chunk if nl < 0 else chunk[:nl]).lower()


def unit_follows(text: str, pos: int) -> bool:
    return UNIT_AFTER.match(text, pos) is not None


def keep_longest(spans: Iterable[Span]) -> list[Span]:
    """One span per stretch of text: the longest (then highest-scoring, then validated) of
    overlapping ones."""
    starts: list[int] = []
    chosen: list[Span] = []  # kept sorted by start, never overlapping
    for s in sorted(spans, key=lambda s: (-s.length, -s.score, not s.validated, s.start)):
        i = bisect.bisect_left(starts, s.start)
        if (i > 0 and chosen[i - 1].end > s.start) or (i < len(chosen) and chosen[i].start < s.end):
            continue
        starts.insert(i, s.start)
        chosen.insert(i, s)
    return chosen


# A word of digits with letters a scan read for them: "2O14", "1O/22/2O25" (O for 0, I or l
# for 1). At least two real digits and no other letter, so "D0B", "K0WALCZYK", "10l/min" and
# "ml" stay as they are. A word's first letter is read as a digit only where the word is then
# a date ("O3/11/2O14"): "I60571", "O9248072" and "I48.0" are identifiers and codes that start
# with a letter.
_DIGIT_WORD = re.compile(r"(?<![^\s(\[:;,])[\dOoIl][\dOoIl/.:-]*[\dOoIl](?![^\s)\].,;:])")
_MISREAD = str.maketrans("OoIl", "0011")
_DATE_SHAPE = re.compile(r"\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}")


def _read_as_digits(word: str) -> str:
    if sum(c.isdigit() for c in word) < 2 or word.isdigit():
        return word
    read = word.translate(_MISREAD)
    if word[0] in "OoIl" and not _DATE_SHAPE.fullmatch(read):
        read = word[0] + word[1:].translate(_MISREAD)
    return read


def ocr_misreads(text: str) -> list[tuple[int, str]]:
    """Each word of digits with letters a scan read for them, as (start, the word read with
    digits); none in most texts."""
    out = []
    for m in _DIGIT_WORD.finditer(text):
        read = _read_as_digits(m.group())
        if read != m.group():
            out.append((m.start(), read))
    return out


def ocr_digits(text: str) -> str:
    """``text`` with O, o, I and l read as digits inside words of digits (same length, so
    offsets are the text's own)."""
    return _DIGIT_WORD.sub(lambda m: _read_as_digits(m.group()), text)


def misread_regions(text: str, misreads: list[tuple[int, str]], reach: int = 160) -> list[tuple[int, int]]:
    """The stretches of ``text`` around ``misreads`` (``ocr_misreads``), ``reach`` characters
    either side (widened to whitespace), overlapping ones joined: what the rules read again,
    rather than the whole text."""
    out: list[tuple[int, int]] = []
    for at, word in misreads:
        lo, hi = max(0, at - reach), min(len(text), at + len(word) + reach)
        while lo > 0 and not text[lo - 1].isspace():
            lo -= 1
        while hi < len(text) and not text[hi].isspace():
            hi += 1
        if out and lo <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], hi))
        else:
            out.append((lo, hi))
    return out


_RULE_CELLS = re.compile(r"[\s\-=_|+:]*")
_MAX_PIPE_ROWS = 40


def pipe_column(text: str, header: re.Pattern[str]) -> list[tuple[int, int]]:
    """(start, end) of each cell's value under a heading of a table drawn with bars
    ("| Name | Relationship | Age | Occupation |"), read by the cell's place in its row, not
    by its column of characters: bars typed by hand seldom line up. The heading cell must
    match ``header`` whole; rows run until a blank line or a line with no bar."""
    found: list[tuple[int, int]] = []
    if "|" not in text:
        return found
    lines = text.split("\n")
    offsets = [0]
    for line in lines[:-1]:
        offsets.append(offsets[-1] + len(line) + 1)
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.count("|") < 2 or len(line) > 400:
            i += 1
            continue
        cells = line.split("|")
        column = next((k for k, c in enumerate(cells) if c.strip() and header.fullmatch(c.strip())), None)
        if column is None:
            i += 1
            continue
        j = i + 1
        while j < len(lines) and j <= i + _MAX_PIPE_ROWS:
            row = lines[j]
            if not row.strip() or "|" not in row:
                break
            if not _RULE_CELLS.fullmatch(row):
                parts = row.split("|")
                if len(parts) > column:
                    start = offsets[j] + sum(len(p) + 1 for p in parts[:column])
                    value = parts[column]
                    lead = len(value) - len(value.lstrip())
                    if value.strip():
                        found.append((start + lead, start + lead + len(value.strip())))
            j += 1
        i = j
    return found
