"""Findings across documents, each with the text either side (keyword in context).

Reviewing one category or one string through the whole queue at once ("every NAME", "every
'Dr Grey'") is quicker and more consistent than meeting them document by document. The
query filters spans in SQL and reads each matching document's text on its own, only to cut
the finding and its context out of it, so a queue of thousands of documents is never held
in memory at once.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterator

from sqlalchemy import ColumnElement, exists, select

from ..categories import Category
from .documents import current_span_filter
from .models import DocumentRecord, DoubleReview, SpanRecord
from .rows import DocStatus, SpanState

CONTEXT_CHARS = 40


@dataclass(frozen=True, slots=True)
class FindingInContext:
    """One current finding, its document and the text around it. The text fields are PHI, so
    they are kept out of repr: logging a row never leaks them."""

    document_id: int
    span_id: int
    start: int
    end: int
    category: Category
    fine: str
    score: float
    state: SpanState
    subject_id: int | None
    text: str = field(repr=False)
    left: str = field(repr=False)
    right: str = field(repr=False)


def matches_string(found: str, needle: str) -> bool:
    """The same characters, ignoring case: "GREY" matches "Grey" but not "Greyson"."""
    return len(found) == len(needle) and found.casefold() == needle.casefold()


def findings_across(
    workspace,
    *,
    category: Category | None = None,
    text: str | None = None,
    subject_id: int | None = None,
    undecided_only: bool = False,
    context: int = CONTEXT_CHARS,
    limit: int | None = None,
) -> list[FindingInContext]:
    """Current findings of every imported document, in document order then by position.

    ``category``: only findings (currently) of it. ``text``: only findings whose text is
    exactly this, ignoring case and surrounding spaces. ``subject_id``: only documents of
    that subject. ``undecided_only``: only findings nobody has decided yet. ``limit`` stops
    after that many rows, so a view can say "narrow the filter" instead of listing 100,000.
    """
    return list(_iter_findings(workspace, category, text, subject_id, undecided_only, context, limit))


def _iter_findings(workspace, category, text, subject_id, undecided_only, context, limit) -> Iterator[FindingInContext]:
    needle = text.strip() if text is not None else None
    if needle == "":
        return
    conditions = _span_conditions(category, needle, subject_id, undecided_only)
    stmt = (
        select(
            SpanRecord.id, SpanRecord.document_id, SpanRecord.current_start, SpanRecord.current_end,
            SpanRecord.current_category, SpanRecord.current_fine, SpanRecord.score, SpanRecord.state,
            DocumentRecord.subject_id,
        )
        .join(DocumentRecord, DocumentRecord.id == SpanRecord.document_id)
        .where(*conditions)
        .order_by(SpanRecord.document_id, SpanRecord.current_start, SpanRecord.current_end, SpanRecord.id)
    )
    produced = 0
    with workspace.session(readonly=True) as session:
        spans = session.execute(stmt).all()
        doc_id, doc_text = None, ""
        for sid, did, start, end, cat, fine, score, state, subject in spans:
            if did != doc_id:
                # One document's text at a time: the previous one is dropped here.
                doc_id = did
                doc_text = session.scalar(select(DocumentRecord.text).where(DocumentRecord.id == did)) or ""
            found = doc_text[start:end]
            if needle is not None and not matches_string(found, needle):
                continue
            yield FindingInContext(
                document_id=did, span_id=sid, start=start, end=end, category=Category(cat), fine=fine,
                score=score, state=SpanState(state), subject_id=subject, text=found,
                left=_one_line(doc_text[max(0, start - context) : start]),
                right=_one_line(doc_text[end : end + context]),
            )
            produced += 1
            if limit is not None and produced >= limit:
                return


def _span_conditions(category, needle, subject_id, undecided_only) -> list[ColumnElement[bool]]:
    conditions: list[ColumnElement[bool]] = [
        current_span_filter(),
        DocumentRecord.status != DocStatus.ERROR.value,
        # A document in double review is left out until its second review is finished: the
        # list shows first-review states, which the second reviewer must not see.
        ~exists().where(DoubleReview.document_id == SpanRecord.document_id, DoubleReview.second_done_at.is_(None)),
    ]
    if category is not None:
        conditions.append(SpanRecord.current_category == Category(category).value)
    if needle is not None:
        # Only spans of the needle's length can match, so only their documents are read.
        conditions.append(SpanRecord.current_end - SpanRecord.current_start == len(needle))
    if subject_id is not None:
        conditions.append(DocumentRecord.subject_id == subject_id)
    if undecided_only:
        conditions.append(SpanRecord.state == SpanState.UNDECIDED)
    return conditions


def _one_line(text: str) -> str:
    """Line breaks and tabs as spaces, so a context fits one table row."""
    return " ".join(text.replace("\t", " ").split("\n")).replace("\r", " ")
