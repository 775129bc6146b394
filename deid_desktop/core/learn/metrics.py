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
from dataclasses import dataclass
from typing import Any, Iterable, Mapping, Sequence

from ..categories import Category
from ..spans import Span
from ..text import words
from .gold import GoldDocument, as_gold

AGE_LIMIT = 89


@dataclass
class _Counts:
    tp: int = 0
    fp: int = 0
    fn: int = 0

    def as_dict(self) -> dict[str, float | int]:
        p = _ratio(self.tp, self.tp + self.fp)
        r = _ratio(self.tp, self.tp + self.fn)
        f = 2 * p * r / (p + r) if p + r else 0.0
        return {
            "precision": p,
            "recall": r,
            "f1": f,
            "tp": self.tp,
            "fp": self.fp,
            "fn": self.fn,
            "support": self.tp + self.fn,
        }


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


def evaluate(gold_docs: Iterable[Any], pred_docs: Sequence[Any], *, only_ages_over_89: bool = False) -> dict[str, Any]:
    """Scores of ``pred_docs`` against ``gold_docs``.

    ``gold_docs``: GoldDocument, gold JSON dicts or objects with ``text`` and ``spans``.
    ``pred_docs``: per document either a list of Spans (matched by position) or a document
    with ``spans`` (matched by ``id`` when every prediction has one)."""
    gold = [as_gold(d, i) for i, d in enumerate(gold_docs)]
    preds = _align(gold, pred_docs)

    token, typed, entity = _Counts(), _Counts(), _Counts()
    any_found = all_found = spans_with_tokens = 0
    cat_token = {c: _Counts() for c in Category}
    cat_typed = {c: _Counts() for c in Category}
    cat_entity = {c: _Counts() for c in Category}
    cat_spans = Counter()
    cat_any = Counter()
    cat_all = Counter()

    for doc, pred in zip(gold, preds):
        g_spans, p_spans = list(doc.spans), list(pred)
        for s in p_spans:
            if s.end > len(doc.text):
                raise ValueError(f"document {doc.id}: a predicted span ends past the end of the text")
        if only_ages_over_89:
            g_spans, p_spans = _filter_ages(doc.text, g_spans, p_spans)
        index = _WordIndex(doc.text)
        g_lab = index.labels(g_spans)
        p_lab = index.labels(p_spans)
        for g, p in zip(g_lab, p_lab):
            if g is not None and p is not None:
                token.tp += 1
                cat_token[g].tp += 1
            elif g is not None:
                token.fn += 1
                cat_token[g].fn += 1
            elif p is not None:
                token.fp += 1
                cat_token[p].fp += 1
            if g is not None and g == p:
                typed.tp += 1
                cat_typed[g].tp += 1
                continue
            if g is not None:
                typed.fn += 1
                cat_typed[g].fn += 1
            if p is not None:
                typed.fp += 1
                cat_typed[p].fp += 1

        g_keys = Counter((s.start, s.end, s.category) for s in g_spans)
        p_keys = Counter((s.start, s.end, s.category) for s in p_spans)
        for key, n in g_keys.items():
            hit = min(n, p_keys.get(key, 0))
            entity.tp += hit
            entity.fn += n - hit
            cat_entity[key[2]].tp += hit
            cat_entity[key[2]].fn += n - hit
        for key, n in p_keys.items():
            extra = n - min(n, g_keys.get(key, 0))
            entity.fp += extra
            cat_entity[key[2]].fp += extra

        for sp in g_spans:
            cat_spans[sp.category] += 1
            idx = index.covered(sp)
            if not idx:
                continue
            spans_with_tokens += 1
            found = [p_lab[t] is not None for t in idx]
            if any(found):
                any_found += 1
                cat_any[sp.category] += 1
            if all(found):
                all_found += 1
                cat_all[sp.category] += 1

    per_category: dict[str, dict[str, Any]] = {}
    for c in Category:
        tc, yc, ec = cat_token[c].as_dict(), cat_typed[c].as_dict(), cat_entity[c].as_dict()
        if not (tc["support"] or tc["fp"] or ec["support"] or ec["fp"]):
            continue
        per_category[c.value] = {
            "tokens": tc["support"],
            "spans": cat_spans[c],
            "token_recall": tc["recall"],
            "typed_precision": yc["precision"],
            "typed_recall": yc["recall"],
            "typed_f1": yc["f1"],
            "entity_precision": ec["precision"],
            "entity_recall": ec["recall"],
            "entity_f1": ec["f1"],
            "span_recall_any_token": _ratio(cat_any[c], cat_spans[c]),
        }
    return {
        "documents": len(gold),
        "only_ages_over_89": only_ages_over_89,
        "token": token.as_dict(),
        "typed_token": typed.as_dict(),
        "entity": entity.as_dict(),
        "spans": spans_with_tokens,
        "span_recall_any_token": _ratio(any_found, spans_with_tokens),
        "span_recall_all_tokens": _ratio(all_found, spans_with_tokens),
        "per_category": per_category,
    }


def format_table(result: Mapping[str, Any]) -> str:
    """A plain-text table for the terminal and model cards."""
    lines = [f"{'':24}{'precision':>10}{'recall':>10}{'f1':>10}{'support':>10}"]
    for key, title in (("token", "PHI words"), ("typed_token", "PHI words, typed"), ("entity", "Entities (strict)")):
        m = result[key]
        lines.append(f"{title:24}{m['precision']:>10.4f}{m['recall']:>10.4f}{m['f1']:>10.4f}{m['support']:>10}")
    lines.append(f"{'Spans, >=1 word found':24}{'':>10}{result['span_recall_any_token']:>10.4f}{'':>10}{result['spans']:>10}")
    lines.append(f"{'Spans, all words found':24}{'':>10}{result['span_recall_all_tokens']:>10.4f}{'':>10}{result['spans']:>10}")
    if result.get("per_category"):
        lines.append("")
        lines.append(
            f"{'category':14}{'words':>7}{'spans':>7}{'word R':>9}{'typed P':>9}{'typed R':>9}"
            f"{'entity F1':>11}{'span>=1 R':>11}"
        )
        for cat, m in result["per_category"].items():
            lines.append(
                f"{cat:14}{m['tokens']:>7}{m['spans']:>7}{m['token_recall']:>9.4f}{m['typed_precision']:>9.4f}"
                f"{m['typed_recall']:>9.4f}{m['entity_f1']:>11.4f}{m['span_recall_any_token']:>11.4f}"
            )
    if result.get("only_ages_over_89"):
        lines.append("(ages of 89 or less not counted)")
    return "\n".join(lines)
