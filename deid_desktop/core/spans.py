"""Spans: character offsets into a document's extracted text (end exclusive)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Iterable

from .categories import Category, normalise_fine, parse_category

REVIEWER = "reviewer"


@dataclass(frozen=True, slots=True)
class Span:
    start: int
    end: int
    category: Category
    fine: str = "OTHER"
    score: float = 1.0
    source: str = "rules"
    # Which ensemble members found it (filled by the ensemble; a single detector leaves it empty).
    members: tuple[str, ...] = field(default=(), compare=False)
    # Set by a rule whose value checks itself (a check digit, an e-mail or URL, a full date):
    # the ensemble accepts such a span even when every other member says O.
    validated: bool = field(default=False, compare=False)

    def __post_init__(self) -> None:
        if not (0 <= self.start < self.end):
            raise ValueError(f"invalid span offsets {self.start}..{self.end}")
        if not isinstance(self.category, Category):
            object.__setattr__(self, "category", parse_category(str(self.category)))
        object.__setattr__(self, "fine", normalise_fine(self.category, self.fine))
        object.__setattr__(self, "score", float(min(1.0, max(0.0, self.score))))

    @property
    def length(self) -> int:
        return self.end - self.start

    def text(self, doc_text: str) -> str:
        return doc_text[self.start : self.end]

    def overlaps(self, other: "Span") -> bool:
        return self.start < other.end and other.start < self.end

    def with_(self, **changes) -> "Span":
        return replace(self, **changes)

    def to_json(self) -> dict:
        """The external JSONL shape: {start, end, label, sublabel, score, source}."""
        return {
            "start": self.start,
            "end": self.end,
            "label": self.category.value,
            "sublabel": self.fine,
            "score": round(self.score, 4),
            "source": self.source,
        }

    @classmethod
    def from_json(cls, d: dict, default_source: str = "gold") -> "Span":
        return cls(
            start=int(d["start"]),
            end=int(d["end"]),
            category=parse_category(str(d.get("label") or d.get("category"))),
            fine=d.get("sublabel") or d.get("fine") or "OTHER",
            score=float(d.get("score", 1.0)),
            source=str(d.get("source", default_source)),
        )


def sort_spans(spans: Iterable[Span]) -> list[Span]:
    return sorted(spans, key=lambda s: (s.start, -s.end, s.category.value))


def first_of_overlaps(spans: Iterable[Span]) -> list[Span]:
    """In text order, each span that does not overlap the one kept before it (the longest
    of spans starting together): one label per character."""
    out: list[Span] = []
    for s in sort_spans(spans):
        if out and s.start < out[-1].end:
            continue
        out.append(s)
    return out


def _is_word_char(ch: str) -> bool:
    return ch.isalnum() or ch in "_'’"


def snap_to_words(text: str, span: Span) -> Span:
    """Widen a span so it never cuts a word in half, and trim surrounding whitespace and
    punctuation that is not part of the value."""
    start, end = span.start, span.end
    while start > 0 and _is_word_char(text[start - 1]) and _is_word_char(text[start]):
        start -= 1
    while end < len(text) and _is_word_char(text[end - 1]) and _is_word_char(text[end]):
        end += 1
    while start < end and (text[start].isspace() or text[start] in ",;:([{\"'"):
        start += 1
    while end > start and (text[end - 1].isspace() or text[end - 1] in ",;:)]}\"'"):
        end -= 1
    if end <= start:
        return span
    if (start, end) == (span.start, span.end):
        return span
    return span.with_(start=start, end=end)


def merge_overlapping(spans: Iterable[Span], text: str | None = None, join_gap: str = "") -> list[Span]:
    """Merge spans of the same category that overlap (or touch, or are separated only by
    characters in ``join_gap``). Spans of different categories are left to the caller's
    conflict policy; here the longer one wins a true overlap, then the higher score."""
    out: list[Span] = []
    for s in sort_spans(spans):
        if out:
            last = out[-1]
            gap = text[last.end : s.start] if (text is not None and s.start >= last.end) else ""
            touching = s.start <= last.end or (
                text is not None and s.start > last.end and gap and all(c in join_gap for c in gap)
            )
            if touching and s.category == last.category:
                members = tuple(dict.fromkeys(last.members + s.members))
                end = max(last.end, s.end)
                # Validated only where a validated span reaches over the whole: a surname
                # validated after its title ("Dr Zbiciak") does not vouch for a longer guess
                # merged with it ("Zbiciak, Tasman" of "Dr Zbiciak, Tasman Hospital").
                validated = (last.validated and s.validated) or (last.validated and last.end >= end) or (
                    s.validated and s.start <= last.start and s.end >= end
                )
                out[-1] = last.with_(end=end, score=max(last.score, s.score), members=members, validated=validated)
                continue
            if s.start < last.end:  # true overlap of different categories
                if (s.length, s.score) > (last.length, last.score):
                    out[-1] = s
                continue
        out.append(s)
    return out
