"""Reviewed documents as training data: the decision log turned into gold documents.

The gold spans of a reviewed document are its final spans (accepted, added, relabelled and
resized, at their decided offsets and categories: exactly what export replaces). Detections
the reviewer rejected are kept as explicit negatives: the gold document lists them under
``negatives`` and their words carry no span, so they train as O. Because a balanced
selection (003) would drop a PHI-free sentence at random, each sentence that holds a
rejected detection is also added once more as its own small example, so the correction is
never silently lost behind the synthetic corpus.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Iterable, Sequence

from ..categories import Category
from ..spans import Span, sort_spans
from ..store import DecisionAction, DocStatus, SpanState, Workspace
from ..text import sentences
from .harvest import HarvestSource

REVIEWED_STATUSES = (DocStatus.REVIEWED, DocStatus.EXPORTED)


@dataclass
class ReviewedDocument:
    document_id: int
    text: str
    spans: list[Span]  # gold: the final spans
    rejected: list[Span] = field(default_factory=list)  # explicit negatives (not overlapping gold)
    subject: str | None = None
    updated_at: datetime | None = None

    @property
    def key(self) -> str:
        return f"ws-{self.document_id}"

    def to_gold(self) -> dict[str, Any]:
        return {
            "id": self.key,
            "text": self.text,
            "spans": [_gold_span(s) for s in self.spans],
            "negatives": [{"start": s.start, "end": s.end, "label": s.category.value} for s in self.rejected],
        }

    def harvest_source(self) -> HarvestSource:
        return HarvestSource(self.key, self.text, self.spans)


def _gold_span(s: Span) -> dict[str, Any]:
    return {"start": s.start, "end": s.end, "label": s.category.value, "sublabel": s.fine}


def reviewed_document_rows(ws: Workspace) -> list:
    """Rows of reviewed (or already exported) documents, latest versions only, oldest first."""
    rows = [r for st in REVIEWED_STATUSES for r in ws.list_documents(status=st, latest_only=True)]
    return sorted(rows, key=lambda r: (r.updated_at, r.id))


def load_reviewed(ws: Workspace, document_id: int) -> ReviewedDocument:
    row = ws.get_document(document_id)
    text = ws.load_document(document_id).text
    gold = ws.final_spans(document_id, unreviewed_policy="accept")
    rejected = [
        Span(r.start, r.end, r.category, r.fine, r.score, source=r.source)
        for r in ws.list_spans(document_id)
        if r.state == SpanState.REJECTED
    ]
    # A rejected detection that overlaps a final span is a boundary or label correction, not
    # a negative: the final span already says what those characters are.
    negatives = [s for s in rejected if not any(s.overlaps(g) for g in gold)]
    return ReviewedDocument(document_id, text, gold, sort_spans(negatives), row.subject_label, row.updated_at)


def reviewed_documents(ws: Workspace, document_ids: Iterable[int] | None = None) -> list[ReviewedDocument]:
    """The training and weight-fitting documents. A double-reviewed document counts once it is
    adjudicated (its gold is the adjudicated spans, via ``final_spans``); before that either
    review alone is one reviewer's opinion the second review exists to check, so it waits."""
    ids = [r.id for r in reviewed_document_rows(ws)] if document_ids is None else list(document_ids)
    waiting = set(ws.awaiting_adjudication(ids))
    return [load_reviewed(ws, i) for i in ids if i not in waiting]


def hard_negative_examples(doc: ReviewedDocument) -> list[dict[str, Any]]:
    """Each sentence holding a rejected detection, as its own gold document."""
    out: list[dict[str, Any]] = []
    seen: set[tuple[int, int]] = set()
    for s, e in sentences(doc.text):
        if (s, e) in seen or not any(n.start < e and s < n.end for n in doc.rejected):
            continue
        if any(g.start < s < g.end or g.start < e < g.end for g in doc.spans):
            continue  # a gold span crosses the sentence edge: the whole document covers it
        seen.add((s, e))
        out.append(
            {
                "id": f"{doc.key}-neg-{s}",
                "text": doc.text[s:e],
                "spans": [
                    _gold_span(g.with_(start=g.start - s, end=g.end - s)) for g in doc.spans if s <= g.start and g.end <= e
                ],
                "negatives": [
                    {"start": n.start - s, "end": n.end - s, "label": n.category.value}
                    for n in doc.rejected
                    if s <= n.start and n.end <= e
                ],
            }
        )
    return out


def training_documents(docs: Sequence[ReviewedDocument], *, hard_negatives: bool = True) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for d in docs:
        out.append(d.to_gold())
        if hard_negatives:
            out.extend(hard_negative_examples(d))
    return out


def split_heldout(docs: Sequence[ReviewedDocument], share: float, *, salt: str = "") -> tuple[list[ReviewedDocument], list[ReviewedDocument]]:
    """(train, held out): a stable split by a hash of the document id, so a document stays on
    its side between retrains and old and new models are compared on documents neither saw.
    At least one document is held out whenever there are two or more and share > 0."""
    if not 0.0 <= share < 1.0:
        raise ValueError("the held-out share must be at least 0 and below 1")
    ranked = sorted(docs, key=lambda d: hashlib.sha256(f"{salt}/{d.document_id}".encode()).hexdigest())
    n_held = int(round(share * len(docs)))
    if share > 0 and n_held == 0 and len(docs) >= 2:
        n_held = 1
    held = {d.document_id for d in ranked[:n_held]}
    return [d for d in docs if d.document_id not in held], [d for d in docs if d.document_id in held]


@dataclass
class CorrectionSummary:
    """What a retrain would learn from: shown before training starts."""

    reviewed_documents: int = 0
    new_reviewed_documents: int = 0
    decisions: dict[str, int] = field(default_factory=dict)  # action -> count since the last model
    per_category: dict[str, dict[str, int]] = field(default_factory=dict)  # category -> action -> count
    since_decision_id: int | None = None


def correction_summary(ws: Workspace, since_decision_id: int | None) -> CorrectionSummary:
    rows = reviewed_document_rows(ws)
    reviewed_ids = {r.id for r in rows}
    out = CorrectionSummary(reviewed_documents=len(rows), since_decision_id=since_decision_id)
    new_docs: set[int] = set()
    span_categories: dict[int, str] = {}
    for d in ws.decisions(since_id=since_decision_id):
        if d.undone or d.action is DecisionAction.UNDO or d.document_id not in reviewed_ids:
            continue
        action = DecisionAction(d.action).value
        out.decisions[action] = out.decisions.get(action, 0) + 1
        if d.document_id not in new_docs:
            span_categories.update({r.id: r.category.value for r in ws.list_spans(d.document_id)})
        cat = (d.category.value if isinstance(d.category, Category) else d.category) or span_categories.get(d.span_id, "?")
        per = out.per_category.setdefault(cat, {})
        per[action] = per.get(action, 0) + 1
        new_docs.add(d.document_id)
    out.new_reviewed_documents = len(new_docs)
    return out

