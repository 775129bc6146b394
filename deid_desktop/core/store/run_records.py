"""Reads about detection runs that reports and accuracy figures need: when each run was made
and with which model versions, what it proposed on a document, when a document was last
decided. Plain values out; the SQL stays in the store."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Iterable

from sqlalchemy import func, select

from ..categories import Category
from ..spans import Span
from .database import Database
from .documents import current_span_filter
from .models import DetectionRun, DocumentRecord, ReviewDecision, SpanRecord


@dataclass(frozen=True, slots=True)
class DetectionRunRow:
    id: int
    started_at: datetime | None
    model_versions: dict[str, Any]


class RunRecordsRepository:
    _db: Database

    def detection_run_rows(self, run_ids: Iterable[int] | None = None) -> list[DetectionRunRow]:
        """The runs ``run_ids`` (all without it), oldest first."""
        stmt = select(DetectionRun.id, DetectionRun.started_at, DetectionRun.model_versions_json).order_by(DetectionRun.id)
        if run_ids is not None:
            stmt = stmt.where(DetectionRun.id.in_(sorted(set(run_ids))))
        with self._db.reading() as s:
            return [DetectionRunRow(i, started, json.loads(versions or "{}")) for i, started, versions in s.execute(stmt)]

    def detected_spans(self, document_id: int) -> tuple[str, list[tuple[Span, int]]]:
        """The document's text and its current detected spans as the detector gave them
        (offsets, category, score before any decision), each with the run that found it."""
        with self._db.reading() as s:
            text = s.scalar(select(DocumentRecord.text).where(DocumentRecord.id == document_id)) or ""
            records = s.execute(
                select(SpanRecord.start, SpanRecord.end, SpanRecord.category, SpanRecord.score, SpanRecord.detection_run_id)
                .where(SpanRecord.document_id == document_id, SpanRecord.detection_run_id.is_not(None), current_span_filter())
            ).all()
        return text, [(Span(st, en, Category(c), score=sc), run) for st, en, c, sc, run in records]

    def last_decision_times(self, document_ids: Iterable[int]) -> dict[int, datetime]:
        """Each document's newest decision time (documents without decisions are absent)."""
        with self._db.reading() as s:
            last = s.execute(
                select(ReviewDecision.document_id, func.max(ReviewDecision.created_at))
                .where(ReviewDecision.document_id.in_(list(document_ids)))
                .group_by(ReviewDecision.document_id)
            ).all()
        # max() keeps the column's type, so these come back as aware UTC datetimes.
        return {doc: t for doc, t in last if t is not None}
