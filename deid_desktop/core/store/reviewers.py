"""Double review and adjudication in the workspace: marks, the second reviewer's finish, the
two reviews of a document side by side, and the adjudicator's choices.

Which review a decision belongs to is settled in ``passes``; how two reviews are compared and
adjudicated is pure logic in ``core.agreement`` and ``core.adjudication``. This module is the
SQL between them.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Iterable, Sequence

from sqlalchemy import select

from ..adjudication import Adjudication, Choice, Disagreement, resolve
from ..agreement import DocumentPair
from ..spans import REVIEWER, Span
from .database import Database
from .documents import dump_json
from .errors import InvalidDecision, RecordNotFound, WorkspaceError
from .models import AdjudicationChoice, DocumentRecord, DoubleReview, utc_now
from .passes import SECOND, claim_pass, last_first_pass_reviewer
from .review import (
    adjudication_of,
    both_reviews_done,
    final_of,
    first_review_pairs,
    second_review_pairs,
)
from .rows import DocStatus

UNKNOWN_REVIEWER = "unknown"


@dataclass(frozen=True, slots=True)
class DoubleReviewRow:
    document_id: int
    first_reviewer: str | None
    second_reviewer: str | None
    first_done: bool
    second_done: bool
    marked_by: str

    @property
    def both_done(self) -> bool:
        return self.first_done and self.second_done


@dataclass(frozen=True, slots=True)
class AdjudicationRow:
    """One double-reviewed document ready for adjudication. ``text`` is PHI (screen only)."""

    document_id: int
    name: str
    first_reviewer: str
    second_reviewer: str
    text: str
    adjudication: Adjudication


class ReviewersRepository:
    _db: Database

    # ------------------------------------------------------------------ marks

    def mark_double_review(self, document_ids: Iterable[int], *, marked_by: str) -> list[int]:
        """Mark documents for a second, independent review; returns the ids newly marked.
        A document some reviewer already worked on keeps that reviewer as its first."""
        marked: list[int] = []
        with self._db.writing() as session:
            for doc_id in document_ids:
                document = session.get(DocumentRecord, doc_id)
                if document is None:
                    raise RecordNotFound(f"no document with id {doc_id}")
                if document.status == DocStatus.ERROR.value:
                    raise WorkspaceError(f"document {doc_id} failed to import; there is nothing to review twice")
                if session.get(DoubleReview, doc_id) is not None:
                    continue
                session.add(
                    DoubleReview(
                        document_id=doc_id,
                        first_reviewer=last_first_pass_reviewer(session, doc_id),
                        marked_by=marked_by,
                        marked_at=utc_now(),
                    )
                )
                marked.append(doc_id)
        return marked

    def sample_double_review(self, percent: float, *, marked_by: str, seed: int | None = None) -> list[int]:
        """Mark a random ``percent`` of the queue (documents not yet marked, not failed) for
        double review; at least one when the queue has any and ``percent`` > 0."""
        if not 0 < percent <= 100:
            raise ValueError("the share to review twice must be between 0 and 100 %")
        with self._db.reading() as session:
            marked = set(session.scalars(select(DoubleReview.document_id)))
        candidates = [
            d.id for d in self.list_documents(latest_only=True)  # type: ignore[attr-defined]
            if d.status != DocStatus.ERROR and d.id not in marked
        ]
        if not candidates:
            return []
        n = max(1, round(len(candidates) * percent / 100))
        chosen = sorted(random.Random(seed).sample(candidates, min(n, len(candidates))))
        return self.mark_double_review(chosen, marked_by=marked_by)

    def double_reviews(self, document_ids: Iterable[int] | None = None) -> list[DoubleReviewRow]:
        with self._db.reading() as session:
            stmt = select(DoubleReview, DocumentRecord.status).join(
                DocumentRecord, DocumentRecord.id == DoubleReview.document_id
            )
            if document_ids is not None:
                stmt = stmt.where(DoubleReview.document_id.in_(list(document_ids)))
            return [
                DoubleReviewRow(
                    document_id=m.document_id,
                    first_reviewer=m.first_reviewer,
                    second_reviewer=m.second_reviewer,
                    first_done=status in (DocStatus.REVIEWED.value, DocStatus.EXPORTED.value),
                    second_done=m.second_done_at is not None,
                    marked_by=m.marked_by,
                )
                for m, status in session.execute(stmt.order_by(DoubleReview.document_id))
            ]

    # ------------------------------------------------------------------ finishing a review

    def finish_review(self, document_id: int, *, reviewer: str) -> int:
        """Record that ``reviewer`` finished their review of the document; returns which
        review (1 marks the document reviewed, 2 the second review finished)."""
        with self._db.writing() as session:
            review_pass = claim_pass(session, document_id, reviewer)
            document = session.get(DocumentRecord, document_id)
            if document is None:
                raise RecordNotFound(f"no document with id {document_id}")
            if review_pass == SECOND:
                mark = session.get(DoubleReview, document_id)
                assert mark is not None  # a second review exists only on a marked document
                mark.second_done_at = utc_now()
            else:
                document.status = DocStatus.REVIEWED.value
            document.updated_at = utc_now()
            return review_pass

    def reopen_second_review(self, document_id: int) -> None:
        """Undo the second reviewer's "finished" (the first review's status is the document's
        own and is set back with ``set_status``)."""
        with self._db.writing() as session:
            mark = session.get(DoubleReview, document_id)
            if mark is not None:
                mark.second_done_at = None

    # ------------------------------------------------------------------ comparing the reviews

    def review_pairs(self) -> tuple[list[DocumentPair], list[str]]:
        """Both reviews' final spans of every double-reviewed document whose two reviews are
        finished, and the reviewers' names (for agreement figures)."""
        pairs: list[DocumentPair] = []
        names: set[str] = set()
        with self._db.reading() as session:
            for mark in session.scalars(select(DoubleReview).order_by(DoubleReview.document_id)):
                document = session.get(DocumentRecord, mark.document_id)
                if document is None or not both_reviews_done(session, document):
                    continue
                pairs.append(
                    DocumentPair(
                        document.text or "",
                        final_of(first_review_pairs(session, document.id), "accept"),
                        final_of(second_review_pairs(session, document.id), "accept"),
                    )
                )
                names.update(n or UNKNOWN_REVIEWER for n in (mark.first_reviewer, mark.second_reviewer))
        return pairs, sorted(names)

    def adjudication_queue(self) -> list[AdjudicationRow]:
        """Every double-reviewed document with both reviews finished, with its disagreements
        and the choices made so far (documents still to adjudicate first)."""
        rows: list[AdjudicationRow] = []
        with self._db.reading() as session:
            for mark in session.scalars(select(DoubleReview).order_by(DoubleReview.document_id)):
                document = session.get(DocumentRecord, mark.document_id)
                if document is None or not both_reviews_done(session, document):
                    continue
                rows.append(
                    AdjudicationRow(
                        document.id, document.name,
                        mark.first_reviewer or UNKNOWN_REVIEWER, mark.second_reviewer or UNKNOWN_REVIEWER,
                        document.text or "", adjudication_of(session, document.id),
                    )
                )
        return sorted(rows, key=lambda r: (r.adjudication.complete, r.document_id))

    def adjudication(self, document_id: int) -> Adjudication:
        with self._db.reading() as session:
            return adjudication_of(session, document_id)

    def adjudicate(
        self, document_id: int, disagreement: Disagreement, choice: Choice, *, adjudicator: str,
        edited: Sequence[Span] = (),
    ) -> int:
        """Record the adjudicator's choice for one disagreement; returns its id. Committed
        when it returns, like a decision."""
        if not adjudicator or not adjudicator.strip():
            raise InvalidDecision("an adjudication needs the adjudicator's name")
        resolution = resolve(disagreement, Choice(choice), edited)
        with self._db.writing() as session:
            document = session.get(DocumentRecord, document_id)
            if document is None:
                raise RecordNotFound(f"no document with id {document_id}")
            if not both_reviews_done(session, document):
                raise InvalidDecision(f"document {document_id}: both reviews must be finished before adjudication")
            current = {d.key for d in adjudication_of(session, document_id).disagreements}
            if disagreement.key not in current:
                raise InvalidDecision("that disagreement is no longer there (a review changed since)")
            row = AdjudicationChoice(
                document_id=document_id,
                start=resolution.start,
                end=resolution.end,
                choice=resolution.choice.value,
                spans_json=dump_json([{**s.to_json(), "source": REVIEWER} for s in resolution.spans]),
                adjudicator=adjudicator.strip(),
                created_at=utc_now(),
            )
            session.add(row)
            document.updated_at = utc_now()
            session.flush()
            return row.id

    def adjudicators(self, document_id: int) -> list[str]:
        with self._db.reading() as session:
            return sorted(set(session.scalars(
                select(AdjudicationChoice.adjudicator).where(AdjudicationChoice.document_id == document_id)
            )))

    def awaiting_adjudication(self, document_ids: Iterable[int]) -> list[int]:
        """The documents among ``document_ids`` that are double-reviewed but have no
        adjudicated truth yet (a review open, or a disagreement left): exporting them
        releases one reviewer's view, so the export paths warn."""
        out: list[int] = []
        with self._db.reading() as session:
            marks = session.scalars(select(DoubleReview).where(DoubleReview.document_id.in_(list(document_ids))))
            for mark in marks:
                document = session.get(DocumentRecord, mark.document_id)
                if document is None:
                    continue
                if not both_reviews_done(session, document) or not adjudication_of(session, document.id).complete:
                    out.append(document.id)
        return sorted(out)
