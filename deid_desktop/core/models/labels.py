"""The tag scheme our models predict, and the way word-level tags become spans.

BIO over the coarse categories: "O", then "B-<CAT>" and "I-<CAT>" for each category in enum
order. A word is tagged by the gold span it overlaps; the first word of a span is B, the rest I.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from ..categories import Category
from ..spans import Span, sort_spans

OUTSIDE = "O"
# Prefixes other tools use: BIO, BILOU/BIOES. "Begin" prefixes open a new span.
BEGIN_PREFIXES = ("B", "U", "S")
INSIDE_PREFIXES = ("I", "L", "E")


@dataclass(frozen=True, slots=True)
class TagMeaning:
    """What one output of a model means to us: a category (None = not PHI), whether it opens a
    new span, and the fine type when the model's label carries one (i2b2 PATIENT vs DOCTOR)."""

    category: Category | None
    begins: bool = False
    fine: str = "OTHER"


@dataclass(frozen=True)
class LabelScheme:
    categories: tuple[Category, ...] = tuple(Category)
    scheme: str = "BIO"

    @property
    def tags(self) -> list[str]:
        out = [OUTSIDE]
        for c in self.categories:
            out += [f"B-{c.value}", f"I-{c.value}"]
        return out

    @property
    def id2label(self) -> dict[int, str]:
        return dict(enumerate(self.tags))

    @property
    def label2id(self) -> dict[str, int]:
        return {t: i for i, t in enumerate(self.tags)}

    @property
    def outside_id(self) -> int:
        return 0

    def begin_id(self, category: Category) -> int:
        return self.label2id[f"B-{category.value}"]

    def inside_id(self, category: Category) -> int:
        return self.label2id[f"I-{category.value}"]

    def is_phi(self, tag_id: int) -> bool:
        return tag_id != self.outside_id

    def meanings(self) -> list[TagMeaning]:
        out = [TagMeaning(None)]
        for c in self.categories:
            out += [TagMeaning(c, begins=True), TagMeaning(c, begins=False)]
        return out

    def matches(self, id2label: dict[int, str] | dict[str, str]) -> bool:
        """True when a model's ``config.id2label`` is exactly this scheme (keys may be strings
        after a JSON round trip)."""
        got = {int(k): str(v) for k, v in id2label.items()}
        return got == self.id2label

    def to_json(self) -> dict:
        return {"scheme": self.scheme, "tags": self.tags}

    @classmethod
    def from_json(cls, d: dict) -> "LabelScheme":
        tags = list(d["tags"])
        cats: list[Category] = []
        for t in tags[1::2]:
            cats.append(Category(t.split("-", 1)[1]))
        scheme = cls(tuple(cats), d.get("scheme", "BIO"))
        if scheme.tags != tags:
            raise ValueError("label scheme tags are not in B/I pairs after O")
        return scheme


DEFAULT_SCHEME = LabelScheme()


def word_tags(word_ranges: Sequence[tuple[int, int]], spans: Sequence[Span], scheme: LabelScheme = DEFAULT_SCHEME) -> list[int]:
    """The gold tag id of each word: B for the first word of a span, I for the others, O for
    words outside every span. A word overlapping two spans takes the earlier one."""
    tags = [scheme.outside_id] * len(word_ranges)
    ordered = sort_spans(spans)
    j = 0
    current: Span | None = None
    for i, (ws, we) in enumerate(word_ranges):
        while j < len(ordered) and ordered[j].end <= ws:
            j += 1
        # Spans that start before this word may still cover it, so look from j onwards only
        # at those that begin before the word ends.
        hit = None
        k = j
        while k < len(ordered) and ordered[k].start < we:
            if ordered[k].end > ws and ordered[k].category in scheme.categories:
                hit = ordered[k]
                break
            k += 1
        if hit is None:
            current = None
            continue
        tags[i] = scheme.inside_id(hit.category) if hit is current else scheme.begin_id(hit.category)
        current = hit
    return tags


class WordDecoder:
    """Turns per-word tag probabilities into spans.

    Probabilities of all tags that mean the same category are added, so a foreign model that
    splits NAME into PATIENT and DOCTOR votes with its whole mass. A word is PHI when some
    category outweighs "not PHI"; neighbouring PHI words of one category join into one span
    unless the second one is more likely a beginning than a continuation.
    """

    def __init__(self, meanings: Sequence[TagMeaning]):
        self.meanings = list(meanings)
        cats = [m.category for m in self.meanings if m.category is not None]
        self.categories: list[Category] = list(dict.fromkeys(cats))
        n_tags, n_cols = len(self.meanings), len(self.categories) + 1
        self._to_cat = np.zeros((n_tags, n_cols), dtype=np.float32)
        self._begin = np.zeros((n_tags, n_cols), dtype=np.float32)
        self._inside = np.zeros((n_tags, n_cols), dtype=np.float32)
        for t, m in enumerate(self.meanings):
            col = 0 if m.category is None else 1 + self.categories.index(m.category)
            self._to_cat[t, col] = 1.0
            if m.category is not None:
                (self._begin if m.begins else self._inside)[t, col] = 1.0

    def decode(
        self,
        word_ranges: Sequence[tuple[int, int]],
        probs: np.ndarray,
        *,
        offset: int = 0,
        source: str = "transformer",
    ) -> list[Span]:
        """``probs`` is (n_words, n_tags), a softmax per row; rows of words the model did not
        see (no sub-word) are all zeros and count as not PHI."""
        if len(word_ranges) == 0:
            return []
        probs = np.asarray(probs, dtype=np.float32)
        cat_p = probs @ self._to_cat
        begin_p = probs @ self._begin
        inside_p = probs @ self._inside
        seen = probs.sum(axis=1) > 0
        col = np.where(seen, cat_p.argmax(axis=1), 0)
        spans: list[Span] = []
        run_start = -1
        run_col = 0
        run_scores: list[float] = []

        def close(last_word: int) -> None:
            cat = self.categories[run_col - 1]
            spans.append(
                Span(
                    start=offset + word_ranges[run_start][0],
                    end=offset + word_ranges[last_word][1],
                    category=cat,
                    fine=self._fine(probs[run_start], cat),
                    score=float(np.mean(run_scores)),
                    source=source,
                )
            )

        for i in range(len(word_ranges)):
            c = int(col[i])
            if run_start >= 0 and (c != run_col or begin_p[i, c] > inside_p[i, c]):
                close(i - 1)
                run_start = -1
            if c == 0:
                continue
            if run_start < 0:
                run_start, run_col, run_scores = i, c, []
            run_scores.append(float(cat_p[i, c]))
        if run_start >= 0:
            close(len(word_ranges) - 1)
        return spans

    def _fine(self, word_probs: np.ndarray, category: Category) -> str:
        best, best_p = "OTHER", -1.0
        for t, m in enumerate(self.meanings):
            if m.category == category and word_probs[t] > best_p:
                best, best_p = m.fine, float(word_probs[t])
        return best
