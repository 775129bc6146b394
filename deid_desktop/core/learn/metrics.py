"""How good a detector is against gold spans.

* token: PHI vs not, per word token (``text.words``); support = gold PHI words (001).
* typed_token: the same, but a word counts only when the category is right too.
* entity: strict — a prediction counts only with exactly the gold start, end and category (003).
* span_recall_any_token: share of gold spans with at least one word found as PHI (004);
  span_recall_all_tokens: with every word found.
* per_category: the figures above per gold category.

A ratio whose denominator is zero is reported as 0.0; the counts next to it tell why.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections import Counter
from dataclasses import asdict, dataclass, field
from typing import Any, Iterable, Mapping, Sequence

from ..categories import Category
from ..spans import Span
from ..text import words
from .gold import GoldDocument, as_gold

AGE_LIMIT = 89


@dataclass(frozen=True, slots=True)
class Scores:
    """Precision, recall and F1 with the counts they come from (support = tp + fn)."""

    precision: float
    recall: float
    f1: float
    tp: int
    fp: int
    fn: int
    support: int

    def to_dict(self) -> dict[str, float | int]:
        return asdict(self)


@dataclass(frozen=True, slots=True)
class CategoryScores:
    """The figures of one gold category (typed: the category must be right too)."""

    tokens: int
    spans: int
    token_recall: float
    typed_precision: float
    typed_recall: float
    typed_f1: float
    entity_precision: float
    entity_recall: float
    entity_f1: float
    span_recall_any_token: float

    def to_dict(self) -> dict[str, float | int]:
        return asdict(self)


@dataclass(frozen=True, slots=True)
class Evaluation:
    """What ``evaluate`` measured. ``to_dict`` is the JSON form written to model manifests,
    the workspace and ``evaluate --json`` (field order as always), ``from_dict`` reads it back."""

    documents: int
    only_ages_over_89: bool
    token: Scores
    typed_token: Scores
    entity: Scores
    spans: int  # gold spans covering at least one word
    span_recall_any_token: float
    span_recall_all_tokens: float
    per_category: dict[str, CategoryScores] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Evaluation":
        return cls(
            documents=int(data["documents"]),
            only_ages_over_89=bool(data.get("only_ages_over_89", False)),
            token=Scores(**data["token"]),
            typed_token=Scores(**data["typed_token"]),
            entity=Scores(**data["entity"]),
            spans=int(data["spans"]),
            span_recall_any_token=float(data["span_recall_any_token"]),
            span_recall_all_tokens=float(data["span_recall_all_tokens"]),
            per_category={c: CategoryScores(**m) for c, m in (data.get("per_category") or {}).items()},
        )


@dataclass
class _Counts:
    tp: int = 0
    fp: int = 0
    fn: int = 0

    def scores(self) -> Scores:
        p = _ratio(self.tp, self.tp + self.fp)
        r = _ratio(self.tp, self.tp + self.fn)
        f = 2 * p * r / (p + r) if p + r else 0.0
        return Scores(precision=p, recall=r, f1=f, tp=self.tp, fp=self.fp, fn=self.fn, support=self.tp + self.fn)


def _ratio(a: int, b: int) -> float:
    return a / b if b else 0.0


def _pred_spans(item: Any) -> tuple[str | None, list[Span]]:
    if isinstance(item, (list, tuple)):
        return None, [s if isinstance(s, Span) else Span.from_json(s, "prediction") for s in item]
    if isinstance(item, Mapping):
        raw = item.get("spans", [])
        return (str(item["id"]) if "id" in item else None), [
            s if isinstance(s, Span) else Span.from_json(s, "prediction") for s in raw
        ]
    spans = list(getattr(item, "spans"))
    return str(getattr(item, "id", "")) or None, [s if isinstance(s, Span) else Span.from_json(s) for s in spans]


def _align(gold: list[GoldDocument], preds: Sequence[Any]) -> list[list[Span]]:
    parsed = [_pred_spans(p) for p in preds]
    ids = [i for i, _ in parsed]
    gold_ids = [g.id for g in gold]
    if all(i is not None for i in ids) and set(ids) <= set(gold_ids) and len(set(ids)) == len(ids):
        by_id = {i: s for i, s in parsed}
        return [by_id.get(g, []) for g in gold_ids]
    if len(parsed) != len(gold):
        raise ValueError(f"{len(gold)} gold documents but {len(parsed)} predictions")
    return [s for _, s in parsed]


_NUMBER_WORDS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13,
    "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18,
    "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60,
    "seventy": 70, "eighty": 80, "ninety": 90,
}


def age_value(text: str) -> float | None:
    """The age an AGE span states: "92", "92yo", "ninety-two", "one hundred and one"; None
    when it cannot be read."""
    m = re.search(r"\d+(?:[.,]\d+)?", text)
    if m:
        return float(m.group().replace(",", "."))
    total, seen = 0, False
    for w in re.findall(r"[a-z]+", text.lower()):
        if w in _NUMBER_WORDS:
            total += _NUMBER_WORDS[w]
            seen = True
        elif w == "hundred":
            total = max(total, 1) * 100
            seen = True
    return float(total) if seen else None


def _filter_ages(text: str, gold: list[Span], pred: list[Span]) -> tuple[list[Span], list[Span]]:
    """HIPAA Safe Harbor: only ages over 89 are PHI. Young gold ages leave the gold set, and
    predictions on them (or predicted ages that read as 89 or less) are not counted."""

    def young(s: Span) -> bool:
        v = age_value(s.text(text))
        return v is not None and v <= AGE_LIMIT

    dropped = [s for s in gold if s.category == Category.AGE and young(s)]
    gold = [s for s in gold if not (s.category == Category.AGE and young(s))]
    pred = [
        p for p in pred
        if not any(p.overlaps(d) for d in dropped) and not (p.category == Category.AGE and young(p))
    ]
    return gold, pred


class _WordIndex:
    """The word tokens of one text, for finding the words a span covers."""

    def __init__(self, text: str):
        self.toks = words(text)
        self.starts = [s for s, _ in self.toks]
        self.ends = [e for _, e in self.toks]

    def covered(self, sp: Span) -> range:
        lo = bisect_right(self.ends, sp.start)
        hi = bisect_left(self.starts, sp.end)
        return range(lo, max(lo, hi))

    def labels(self, spans: list[Span]) -> list[Category | None]:
        """Each word's category; where spans overlap, the higher score wins."""
        out: list[Category | None] = [None] * len(self.toks)
        best = [-1.0] * len(self.toks)
        for sp in spans:
            for t in self.covered(sp):
                if sp.score > best[t]:
                    out[t], best[t] = sp.category, sp.score
        return out


@dataclass
class _Tally:
    """Every count ``evaluate`` adds up over the documents, overall and per gold category."""

    token: _Counts = field(default_factory=_Counts)
    typed: _Counts = field(default_factory=_Counts)
    entity: _Counts = field(default_factory=_Counts)
    any_found: int = 0
    all_found: int = 0
    spans_with_tokens: int = 0
    cat_token: dict[Category, _Counts] = field(default_factory=lambda: {c: _Counts() for c in Category})
    cat_typed: dict[Category, _Counts] = field(default_factory=lambda: {c: _Counts() for c in Category})
    cat_entity: dict[Category, _Counts] = field(default_factory=lambda: {c: _Counts() for c in Category})
    cat_spans: Counter = field(default_factory=Counter)
    cat_any: Counter = field(default_factory=Counter)
    cat_all: Counter = field(default_factory=Counter)


def evaluate(gold_docs: Iterable[Any], pred_docs: Sequence[Any], *, only_ages_over_89: bool = False) -> Evaluation:
    """Scores of ``pred_docs`` against ``gold_docs``.

    ``gold_docs``: GoldDocument, gold JSON dicts or objects with ``text`` and ``spans``.
    ``pred_docs``: per document either a list of Spans (matched by position) or a document
    with ``spans`` (matched by ``id`` when every prediction has one)."""
    gold = [as_gold(d, i) for i, d in enumerate(gold_docs)]
    preds = _align(gold, pred_docs)
    tally = _Tally()
    for doc, pred in zip(gold, preds):
        _count_document(tally, doc, list(pred), only_ages_over_89)
    return Evaluation(
        documents=len(gold),
        only_ages_over_89=only_ages_over_89,
        token=tally.token.scores(),
        typed_token=tally.typed.scores(),
        entity=tally.entity.scores(),
        spans=tally.spans_with_tokens,
        span_recall_any_token=_ratio(tally.any_found, tally.spans_with_tokens),
        span_recall_all_tokens=_ratio(tally.all_found, tally.spans_with_tokens),
        per_category=_per_category(tally),
    )


def _count_document(tally: _Tally, doc: GoldDocument, p_spans: list[Span], only_ages_over_89: bool) -> None:
    """One document's words, entities and gold spans into the tally. A prediction past the
    end of the text is an error: it was made on another text, and scoring it would mislead."""
    g_spans = list(doc.spans)
    if any(s.end > len(doc.text) for s in p_spans):
        raise ValueError(f"document {doc.id}: a predicted span ends past the end of the text")
    if only_ages_over_89:
        g_spans, p_spans = _filter_ages(doc.text, g_spans, p_spans)
    index = _WordIndex(doc.text)
    p_lab = index.labels(p_spans)
    _count_words(tally, index.labels(g_spans), p_lab)
    _count_entities(tally, g_spans, p_spans)
    _count_span_coverage(tally, index, g_spans, p_lab)


def _count_words(tally: _Tally, g_lab: list[Category | None], p_lab: list[Category | None]) -> None:
    """Per word: PHI or not (token, 001's unit), and PHI of the right category (typed). A
    typed miss with a wrong category counts both as a miss of the gold category and as a
    false alarm of the predicted one."""
    for g, p in zip(g_lab, p_lab):
        if g is not None and p is not None:
            tally.token.tp += 1
            tally.cat_token[g].tp += 1
        elif g is not None:
            tally.token.fn += 1
            tally.cat_token[g].fn += 1
        elif p is not None:
            tally.token.fp += 1
            tally.cat_token[p].fp += 1
        if g is not None and g == p:
            tally.typed.tp += 1
            tally.cat_typed[g].tp += 1
            continue
        if g is not None:
            tally.typed.fn += 1
            tally.cat_typed[g].fn += 1
        if p is not None:
            tally.typed.fp += 1
            tally.cat_typed[p].fp += 1


def _count_entities(tally: _Tally, g_spans: list[Span], p_spans: list[Span]) -> None:
    """Strict entities (003): a prediction counts only with the gold start, end and category;
    repeats are matched as multisets so a duplicated prediction is a false positive."""
    g_keys = Counter((s.start, s.end, s.category) for s in g_spans)
    p_keys = Counter((s.start, s.end, s.category) for s in p_spans)
    for key, n in g_keys.items():
        hit = min(n, p_keys.get(key, 0))
        tally.entity.tp += hit
        tally.entity.fn += n - hit
        tally.cat_entity[key[2]].tp += hit
        tally.cat_entity[key[2]].fn += n - hit
    for key, n in p_keys.items():
        extra = n - min(n, g_keys.get(key, 0))
        tally.entity.fp += extra
        tally.cat_entity[key[2]].fp += extra


def _count_span_coverage(tally: _Tally, index: _WordIndex, g_spans: list[Span], p_lab: list[Category | None]) -> None:
    """Gold spans with some / all of their words found as PHI (004): what a reader of the
    export sees, a name partly left or wholly gone. Spans covering no word are left out."""
    for sp in g_spans:
        tally.cat_spans[sp.category] += 1
        idx = index.covered(sp)
        if not idx:
            continue
        tally.spans_with_tokens += 1
        found = [p_lab[t] is not None for t in idx]
        if any(found):
            tally.any_found += 1
            tally.cat_any[sp.category] += 1
        if all(found):
            tally.all_found += 1
            tally.cat_all[sp.category] += 1


def _per_category(tally: _Tally) -> dict[str, CategoryScores]:
    """The categories that occur in the gold or the predictions, in the enum's order."""
    out: dict[str, CategoryScores] = {}
    for c in Category:
        tc, yc, ec = tally.cat_token[c].scores(), tally.cat_typed[c].scores(), tally.cat_entity[c].scores()
        if not (tc.support or tc.fp or ec.support or ec.fp):
            continue
        out[c.value] = CategoryScores(
            tokens=tc.support,
            spans=tally.cat_spans[c],
            token_recall=tc.recall,
            typed_precision=yc.precision,
            typed_recall=yc.recall,
            typed_f1=yc.f1,
            entity_precision=ec.precision,
            entity_recall=ec.recall,
            entity_f1=ec.f1,
            span_recall_any_token=_ratio(tally.cat_any[c], tally.cat_spans[c]),
        )
    return out


def format_table(result: Evaluation) -> str:
    """A plain-text table for the terminal and model cards."""
    lines = [f"{'':24}{'precision':>10}{'recall':>10}{'f1':>10}{'support':>10}"]
    for m, title in ((result.token, "PHI words"), (result.typed_token, "PHI words, typed"), (result.entity, "Entities (strict)")):
        lines.append(f"{title:24}{m.precision:>10.4f}{m.recall:>10.4f}{m.f1:>10.4f}{m.support:>10}")
    lines.append(f"{'Spans, >=1 word found':24}{'':>10}{result.span_recall_any_token:>10.4f}{'':>10}{result.spans:>10}")
    lines.append(f"{'Spans, all words found':24}{'':>10}{result.span_recall_all_tokens:>10.4f}{'':>10}{result.spans:>10}")
    if result.per_category:
        lines.append("")
        lines.append(
            f"{'category':14}{'words':>7}{'spans':>7}{'word R':>9}{'typed P':>9}{'typed R':>9}"
            f"{'entity F1':>11}{'span>=1 R':>11}"
        )
        for cat, c in result.per_category.items():
            lines.append(
                f"{cat:14}{c.tokens:>7}{c.spans:>7}{c.token_recall:>9.4f}{c.typed_precision:>9.4f}"
                f"{c.typed_recall:>9.4f}{c.entity_f1:>11.4f}{c.span_recall_any_token:>11.4f}"
            )
    if result.only_ages_over_89:
        lines.append("(ages of 89 or less not counted)")
    return "\n".join(lines)
