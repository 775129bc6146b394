"""Which review of a document a reviewer works in.

A document has one review unless it is marked for double review. Then the first reviewer's
decisions form review 1 (the document's own state: queue counts, risk, accuracy read it) and
the second reviewer's form review 2, a separate stream over the same detected spans, so the
second reviewer starts from the detector's findings and never from the first one's decisions.
Reviewers are claimed by name on their first decision: this is attribution, not access
control (design notes: no passwords).
"""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from .errors import InvalidDecision
from .models import DoubleReview, ReviewDecision

FIRST, SECOND = 1, 2


def double_review(session: Session, document_id: int) -> DoubleReview | None:
    return session.get(DoubleReview, document_id)


def pass_for(session: Session, document_id: int, reviewer: str | None) -> int:
    """The review ``reviewer`` works in, without claiming anything (for reading)."""
    mark = double_review(session, document_id)
    if mark is None or reviewer is None:
        return FIRST
    if reviewer == mark.second_reviewer:
        return SECOND
    if mark.first_reviewer in (None, reviewer):
        return FIRST
    if mark.second_reviewer is None:
        return SECOND
    return FIRST


def claim_pass(session: Session, document_id: int, reviewer: str) -> int:
    """The review a decision of ``reviewer`` belongs to, claiming a free reviewer place (same
    transaction as the decision). A third person may not write into either review: their
    decisions would make one review no longer one reviewer's."""
    mark = double_review(session, document_id)
    if mark is None:
        return FIRST
    if reviewer == mark.second_reviewer:
        return SECOND
    if mark.first_reviewer is None:
        mark.first_reviewer = reviewer
        return FIRST
    if reviewer == mark.first_reviewer:
        return FIRST
    if mark.second_reviewer is None:
        mark.second_reviewer = reviewer
        return SECOND
    raise InvalidDecision(
        f"document {document_id} is double-reviewed by two other reviewers; "
        "adjudicate it (Model → Adjudicate) instead of reviewing it a third time"
    )


def last_first_pass_reviewer(session: Session, document_id: int) -> str | None:
    """Who made the latest review-1 decision on a document (the first reviewer of a document
    marked for double review after someone already reviewed it)."""
    return session.scalar(
        select(ReviewDecision.reviewer)
        .where(ReviewDecision.document_id == document_id, ReviewDecision.review_pass == FIRST)
        .order_by(ReviewDecision.id.desc())
        .limit(1)
    )
