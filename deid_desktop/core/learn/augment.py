"""Surrogates as training-data augmentation (004).

A reviewed document is rewritten ``k`` times by the surrogate engine, each time under a
different made-up subject key, so every rewrite puts different (realistic) names, dates and
numbers in the PHI slots. Gold spans move to the offsets of their replacements; rejected
detections (explicit negatives) and any other text move with the text around them. The
model sees the document's layout ``k + 1`` times with varied values, which is what teaches it
the slot rather than the one name a reviewer happened to correct.
"""

from __future__ import annotations

import logging
from bisect import bisect_right
from typing import Any, Callable

from ..spans import Span, sort_spans
from ..surrogates.modes import ExportMode
from .gold import as_gold

log = logging.getLogger(__name__)


def _shift(pos: int, starts: list[int], deltas: list[int]) -> int:
    """Where ``pos`` (not inside a replaced range) lands after the replacements."""
    k = bisect_right(starts, pos)
    return pos + (deltas[k - 1] if k else 0)


def rewrite(text: str, spans: list[Span], replacements: list, negatives: list[dict] | None = None) -> dict[str, Any]:
    """The gold document after ``replacements`` (one per span, in span order, as the
    surrogate engine returns them)."""
    ordered = sort_spans(spans)
    if len(replacements) != len(ordered):
        raise ValueError("the surrogate engine returned a different number of replacements than spans")
    parts: list[str] = []
    new_spans: list[dict[str, Any]] = []
    pos = 0
    out_len = 0
    starts: list[int] = []
    deltas: list[int] = []
    total = 0
    for sp, rep in sorted(zip(ordered, replacements), key=lambda p: p[0].start):
        parts.append(text[pos : sp.start])
        out_len += sp.start - pos
        value = rep.new_text
        lead = len(value) - len(value.lstrip())
        core = value.strip()
        if core:
            new_spans.append({"start": out_len + lead, "end": out_len + lead + len(core), "label": sp.category.value, "sublabel": sp.fine})
        parts.append(value)
        out_len += len(value)
        total += len(value) - (sp.end - sp.start)
        starts.append(sp.end)
        deltas.append(total)
        pos = sp.end
    parts.append(text[pos:])
    moved_negatives = []
    for n in negatives or []:
        if any(s.start < n["end"] and n["start"] < s.end for s in ordered):
            continue
        moved_negatives.append(dict(n, start=_shift(n["start"], starts, deltas), end=_shift(n["end"] - 1, starts, deltas) + 1))
    return {"text": "".join(parts), "spans": new_spans, "negatives": moved_negatives}


def surrogate_variants(doc: dict[str, Any], engine: Any, k: int, *, key: str = "augment") -> list[dict[str, Any]]:
    """``k`` rewrites of a gold document, each under its own subject key."""
    if k <= 0 or not doc.get("spans"):
        return []
    gold = as_gold(doc)
    out: list[dict[str, Any]] = []
    for i in range(k):
        try:
            reps = engine.replacements(gold.text, list(gold.spans), subject=f"{key}/{gold.id}/{i}", mode=ExportMode.SURROGATE)
            variant = rewrite(gold.text, list(gold.spans), reps, doc.get("negatives"))
        except (ValueError, KeyError) as e:
            # The reason class only: the message could quote a value.
            log.warning("document %s: surrogate rewrite %d skipped (%s)", gold.id, i, type(e).__name__)
            continue
        variant["id"] = f"{gold.id}-aug{i}"
        out.append(variant)
    return out


def augmenter(engine: Any, k: int, *, only_prefix: str = "ws-", key: str = "augment") -> Callable[[Any], list[dict[str, Any]]]:
    """An ``augment`` callback for ``train_model``: rewrites reviewed documents (ids starting
    with ``only_prefix``), leaves the synthetic corpus as it is (it is surrogate text already)."""

    def augment(doc: Any) -> list[dict[str, Any]]:
        gold = as_gold(doc)
        if not gold.id.startswith(only_prefix):
            return []
        return surrogate_variants(gold.to_json(), engine, k, key=key)

    return augment
