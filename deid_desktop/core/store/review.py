"""Detection results and the reviewer's decisions about them.

Every method here commits before it returns: when ``decide`` hands back a decision id, the
decision is in the WAL and fsynced, so killing the process cannot lose it.
"""

from __future__ import annotations

import json
from typing import Iterable

from sqlalchemy import select
from sqlalchemy.orm import Session

from ..categories import Category, normalise_fine, parse_category
from ..spans import REVIEWER, Span, merge_overlapping, sort_spans
from .database import Database
from .documents import current_span_filter, dump_json
from .errors import InvalidDecision, InvalidSpan, RecordNotFound, WorkspaceError
from .models import AdjudicationChoice, DetectionRun, DocumentRecord, ReviewDecision, SpanRecord, utc_now
from .passes import FIRST, SECOND, claim_pass, double_review, pass_for
from .replay import WITHDRAWN, initial_state, replay, undone_ids
from .rows import DecisionAction, DecisionRow, DocStatus, SpanRow, SpanState

UNREVIEWED_POLICIES = ("accept", "reject")
_STATUSES_BEFORE_REVIEW = (DocStatus.IMPORTED.value, DocStatus.DETECTED.value)


class ReviewRepository:
    _db: Database

    # ---------------------------------------------------------------- detection

    def start_detection_run(self, *, config: dict, model_versions: dict, device: str) -> int:
        with self._db.writing() as session:
            run = DetectionRun(
                config_json=dump_json(config),
                model_versions_json=dump_json(model_versions),
                device=device,
                started_at=utc_now(),
            )
            session.add(run)
            session.flush()
            return run.id

    def finish_detection_run(self, run_id: int, *, seconds: float, documents: int) -> None:
        with self._db.writing() as session:
            run = session.get(DetectionRun, run_id)
            if run is None:
                raise RecordNotFound(f"no detection run with id {run_id}")
            run.finished_at = utc_now()
            run.seconds = float(seconds)
            run.documents = int(documents)

    def save_detections(self, document_id: int, run_id: int, spans: list[Span]) -> list[int]:
        """Replace the document's undecided spans with ``spans``; decided spans stay.

        A new span that overlaps a span the reviewer already decided on (accepted, rejected,
        added) is not stored: the reviewer has judged that text, and two overlapping final
        spans could not both be replaced on export. Returns the ids of the stored spans in
        the order of ``spans``.
        """
        with self._db.writing() as session:
            document = _document_with_text(session, document_id)
            length = _text_length(session, document_id)
            if session.get(DetectionRun, run_id) is None:
                raise RecordNotFound(f"no detection run with id {run_id}")
            for span in spans:
                _check_offsets(document_id, span.start, span.end, length)
            decided: list[tuple[int, int]] = []
            judged_second = _judged_in_second_review(session, document_id)
            for record in _current_spans(session, document_id):
                if record.state == SpanState.UNDECIDED and record.id not in judged_second:
                    record.superseded_by_run_id = run_id
                else:
                    decided.append((record.current_start, record.current_end))
            now = utc_now()
            stored: list[SpanRecord] = []
            for span in spans:
                if any(span.start < end and start < span.end for start, end in decided):
                    continue
                record = SpanRecord(
                    document_id=document_id,
                    detection_run_id=run_id,
                    start=span.start,
                    end=span.end,
                    category=span.category.value,
                    fine=span.fine,
                    score=span.score,
                    source=span.source,
                    members_json=dump_json(list(span.members)),
                    state=SpanState.UNDECIDED,
                    current_start=span.start,
                    current_end=span.end,
                    current_category=span.category.value,
                    current_fine=span.fine,
                    created_at=now,
                )
                session.add(record)
                stored.append(record)
            document.status = DocStatus.DETECTED.value
            document.updated_at = now
            session.flush()
            return [record.id for record in stored]

    def list_spans(self, document_id: int, *, reviewer: str | None = None) -> list[SpanRow]:
        """The document's spans as ``reviewer`` sees them: for the second reviewer of a
        double-reviewed document, the detector's findings with only their own decisions;
        for everyone else (and without a reviewer) the document's first review."""
        with self._db.reading() as session:
            text = _document_with_text(session, document_id).text or ""
            if pass_for(session, document_id, reviewer) == SECOND:
                return second_review_rows(session, document_id, text)
            return [_span_row(record, text) for record in _current_spans(session, document_id)]

    def get_spans(self, span_ids: Iterable[int], *, reviewer: str | None = None) -> list[SpanRow]:
        """The current spans among ``span_ids`` (a withdrawn or superseded one is left out),
        seen as ``list_spans`` shows them to ``reviewer``. Re-reading the few spans a
        decision changed costs the same in a long document as in a short one, where
        ``list_spans`` reads them all."""
        ids = sorted(set(span_ids))
        if not ids:
            return []
        with self._db.reading() as session:
            records = list(
                session.scalars(select(SpanRecord).where(SpanRecord.id.in_(ids)))
            )
            texts = {
                doc_id: session.scalar(select(DocumentRecord.text).where(DocumentRecord.id == doc_id)) or ""
                for doc_id in {r.document_id for r in records}
            }
            second = {d for d in texts if pass_for(session, d, reviewer) == SECOND}
            rows = [
                row for d in sorted(second) for row in second_review_rows(session, d, texts[d]) if row.id in ids
            ]
            rows += [
                _span_row(r, texts[r.document_id]) for r in records
                if r.document_id not in second and _is_current_first(r)
            ]
            return rows

    # ------------------------------------------------------------------- review

    def decide(
        self,
        span_id: int,
        action: DecisionAction,
        *,
        reviewer: str,
        category: Category | None = None,
        fine: str | None = None,
        start: int | None = None,
        end: int | None = None,
        batch: str | None = None,
    ) -> int:
        action = DecisionAction(action)
        if action is DecisionAction.ADD:
            raise InvalidDecision("use add_span to add a span")
        if action is DecisionAction.UNDO:
            raise InvalidDecision("use undo_decision to undo a decision")
        _check_reviewer(reviewer)
        with self._db.writing() as session:
            span = _decidable_span(session, span_id)
            review_pass = claim_pass(session, span.document_id, reviewer)
            _check_span_in_pass(span, review_pass)
            decision = ReviewDecision(
                span_id=span.id,
                document_id=span.document_id,
                action=action.value,
                reviewer=reviewer,
                batch=batch,
                created_at=utc_now(),
                review_pass=review_pass,
            )
            if action is DecisionAction.RELABEL:
                if start is not None or end is not None:
                    raise InvalidDecision("a relabel changes the category, not the offsets")
                if category is None and fine is None:
                    raise InvalidDecision("a relabel needs a category or a fine type")
                new_category = (
                    parse_category(str(category)) if category is not None
                    else Category(span.current_category)
                )
                if fine is None and new_category.value == _state_in_pass(session, span, review_pass).category:
                    fine = _state_in_pass(session, span, review_pass).fine
                decision.category = new_category.value
                decision.fine = normalise_fine(new_category, fine)
            elif action is DecisionAction.RESIZE:
                if category is not None or fine is not None:
                    raise InvalidDecision("a resize changes the offsets, not the category")
                if start is None or end is None:
                    raise InvalidDecision("a resize needs both start and end")
                _check_offsets(span.document_id, start, end, _text_length(session, span.document_id))
                decision.start, decision.end = start, end
            elif any(v is not None for v in (category, fine, start, end)):
                raise InvalidDecision(f"{action.value} takes no category or offsets")
            session.add(decision)
            session.flush()
            _refresh_span(session, span)
            _mark_in_review(session, span.document_id, review_pass)
            return decision.id

    def add_span(
        self,
        document_id: int,
        start: int,
        end: int,
        category: Category,
        fine: str = "OTHER",
        *,
        reviewer: str,
        batch: str | None = None,
    ) -> int:
        _check_reviewer(reviewer)
        category = parse_category(str(category))
        fine = normalise_fine(category, fine)
        with self._db.writing() as session:
            _document_with_text(session, document_id)
            _check_offsets(document_id, start, end, _text_length(session, document_id))
            review_pass = claim_pass(session, document_id, reviewer)
            now = utc_now()
            span = SpanRecord(
                review_pass=review_pass,
                document_id=document_id,
                detection_run_id=None,
                start=start,
                end=end,
                category=category.value,
                fine=fine,
                score=1.0,
                source=REVIEWER,
                members_json="[]",
                state=WITHDRAWN,
                current_start=start,
                current_end=end,
                current_category=category.value,
                current_fine=fine,
                created_at=now,
            )
            session.add(span)
            session.flush()
            session.add(
                ReviewDecision(
                    span_id=span.id,
                    document_id=document_id,
                    action=DecisionAction.ADD.value,
                    reviewer=reviewer,
                    category=category.value,
                    fine=fine,
                    start=start,
                    end=end,
                    batch=batch,
                    created_at=now,
                    review_pass=review_pass,
                )
            )
            session.flush()
            _refresh_span(session, span)
            _mark_in_review(session, document_id, review_pass)
            return span.id

    def begin_review(self, document_id: int) -> bool:
        """Opening a detected document starts its review (DETECTED becomes IN_REVIEW); the
        transition is ``_mark_in_review``, the one the first decision makes too. Returns
        whether the status changed."""
        with self._db.writing() as session:
            return _mark_in_review(session, document_id, FIRST, from_statuses=(DocStatus.DETECTED.value,))

    def review_pass_of(self, document_id: int, reviewer: str | None) -> int:
        """1, or 2 when ``reviewer`` is (or would become) the second, independent reviewer
        of a double-reviewed document."""
        with self._db.reading() as session:
            return pass_for(session, document_id, reviewer)

    def undo_decision(self, decision_id: int, *, reviewer: str) -> int:
        """Append an UNDO of ``decision_id`` (undoing an UNDO re-applies the original);
        returns the id of the UNDO decision."""
        _check_reviewer(reviewer)
        with self._db.writing() as session:
            return _undo(session, decision_id, reviewer)

    def undo_batch(self, batch: str, *, reviewer: str) -> list[int]:
        """Undo, in one transaction, every decision of a batch ("accept all identical") that
        is still in force; returns the ids of the UNDO decisions."""
        _check_reviewer(reviewer)
        with self._db.writing() as session:
            targets = session.scalars(
                select(ReviewDecision)
                .where(
                    ReviewDecision.batch == batch,
                    ReviewDecision.action != DecisionAction.UNDO.value,
                )
                .order_by(ReviewDecision.id.desc())
            ).all()
            in_force = [t for t in targets if t.id not in _undone_for_spans(session, [t.span_id])]
            return [_undo(session, t.id, reviewer) for t in in_force]

    def decisions(
        self, *, document_id: int | None = None, since_id: int | None = None
    ) -> list[DecisionRow]:
        """The decision log in the order it was written, with whether each one is undone."""
        with self._db.reading() as session:
            stmt = select(ReviewDecision).order_by(ReviewDecision.id)
            undo_stmt = select(ReviewDecision).where(
                ReviewDecision.action == DecisionAction.UNDO.value
            )
            if document_id is not None:
                stmt = stmt.where(ReviewDecision.document_id == document_id)
                undo_stmt = undo_stmt.where(ReviewDecision.document_id == document_id)
            if since_id is not None:
                stmt = stmt.where(ReviewDecision.id > since_id)
            undone = undone_ids(session.scalars(undo_stmt))
            return [_decision_row(d, undone) for d in session.scalars(stmt)]

    def final_spans(self, document_id: int, *, unreviewed_policy: str = "accept") -> list[Span]:
        """The spans an export replaces, at their decided offsets and categories.

        Accepted, added, relabelled and resized spans always; undecided ones only under the
        "accept" policy. The result never overlaps, because export cannot replace the same
        characters twice: where spans overlap, a reviewer's decision wins over an undecided
        detection, and among equals same-category spans are merged and otherwise the
        longer span wins.
        """
        if unreviewed_policy not in UNREVIEWED_POLICIES:
            raise ValueError(
                f"unknown unreviewed policy {unreviewed_policy!r}; expected accept or reject"
            )
        with self._db.reading() as session:
            document = _document_with_text(session, document_id)
            if double_review(session, document_id) is not None:
                adjudicated = adjudicated_spans(session, document)
                if adjudicated is not None:
                    return adjudicated
            spans = [(r.state, _final_span(r)) for r in _current_spans(session, document_id)]
        return final_of(spans, unreviewed_policy)

    def replay_decisions(self) -> int:
        """Recompute every span's cached state from the decision log; returns how many
        spans were out of step. The log is the truth, so this is always safe to run."""
        changed = 0
        with self._db.writing() as session:
            for span in session.scalars(select(SpanRecord).order_by(SpanRecord.id)):
                before = (span.state, span.current_start, span.current_end,
                          span.current_category, span.current_fine)
                _refresh_span(session, span)
                after = (span.state, span.current_start, span.current_end,
                         span.current_category, span.current_fine)
                changed += before != after
        return changed


# ------------------------------------------------------------------- helpers


def final_of(spans: Iterable[tuple[str, Span]], unreviewed_policy: str) -> list[Span]:
    """The spans an export replaces, from (state, span) pairs of one review: decided ones,
    and undecided ones that overlap none of them under the "accept" policy; never overlapping."""
    spans = list(spans)
    decided = merge_overlapping(s for state, s in spans if SpanState(state).is_phi)
    if unreviewed_policy == "reject":
        return decided
    undecided = [
        s for state, s in spans
        if state == SpanState.UNDECIDED and not any(s.overlaps(d) for d in decided)
    ]
    return sort_spans(decided + merge_overlapping(undecided))


def first_review_pairs(session: Session, document_id: int) -> list[tuple[str, Span]]:
    return [(r.state, _final_span(r)) for r in _current_spans(session, document_id)]


def second_review_records(session: Session, document_id: int) -> list[tuple[SpanRecord, str, int, int, str, str]]:
    """The second review of a document: every current detected span with the state the
    second reviewer's decisions give it (none of the first reviewer's count), and the spans
    the second reviewer added. (record, state, start, end, category, fine) in text order."""
    records = list(
        session.scalars(
            select(SpanRecord).where(
                SpanRecord.document_id == document_id,
                SpanRecord.superseded_by_run_id.is_(None),
                ((SpanRecord.detection_run_id.is_not(None)) | (SpanRecord.review_pass == SECOND)),
            )
        )
    )
    out = []
    for record in records:
        state = _state_in_pass(session, record, SECOND)
        if state.state != WITHDRAWN:
            out.append((record, state.state, state.start, state.end, state.category, state.fine))
    out.sort(key=lambda x: (x[2], x[3], x[0].id))
    return out


def second_review_rows(session: Session, document_id: int, text: str) -> list[SpanRow]:
    return [
        SpanRow(
            id=r.id, document_id=r.document_id, start=start, end=end, category=Category(category), fine=fine,
            score=r.score, source=r.source, members=tuple(json.loads(r.members_json)),
            state=SpanState(state),
            text=text[start:end], detection_run_id=r.detection_run_id,
        )
        for r, state, start, end, category, fine in second_review_records(session, document_id)
    ]


def second_review_pairs(session: Session, document_id: int) -> list[tuple[str, Span]]:
    return [
        (state, Span(start, end, Category(category), fine, r.score,
                     source=REVIEWER if state == SpanState.ADDED else r.source, members=tuple(json.loads(r.members_json))))
        for r, state, start, end, category, fine in second_review_records(session, document_id)
    ]


def adjudication_of(session: Session, document_id: int):
    """The document's adjudication (``core.adjudication.Adjudication``) from both reviews'
    final spans and the adjudicator's stored choices, oldest first so later ones win."""
    from ..adjudication import Choice, Resolution, adjudicate

    first = final_of(first_review_pairs(session, document_id), "accept")
    second = final_of(second_review_pairs(session, document_id), "accept")
    stored = session.scalars(
        select(AdjudicationChoice).where(AdjudicationChoice.document_id == document_id).order_by(AdjudicationChoice.id)
    )
    resolutions = [
        Resolution(c.start, c.end, Choice(c.choice), tuple(Span.from_json(d, REVIEWER) for d in json.loads(c.spans_json)))
        for c in stored
    ]
    return adjudicate(first, second, resolutions)


def both_reviews_done(session: Session, document: DocumentRecord) -> bool:
    mark = double_review(session, document.id)
    return (
        mark is not None
        and mark.second_done_at is not None
        and document.status in (DocStatus.REVIEWED.value, DocStatus.EXPORTED.value)
    )


def adjudicated_spans(session: Session, document: DocumentRecord) -> list[Span] | None:
    """The adjudicated truth of a double-reviewed document, or None while either review is
    open or a disagreement is not adjudicated yet."""
    if not both_reviews_done(session, document):
        return None
    adjudication = adjudication_of(session, document.id)
    return adjudication.spans() if adjudication.complete else None


def _judged_in_second_review(session: Session, document_id: int) -> set[int]:
    return set(
        session.scalars(
            select(ReviewDecision.span_id).where(
                ReviewDecision.document_id == document_id, ReviewDecision.review_pass == SECOND
            )
        )
    )


def _is_current_first(record: SpanRecord) -> bool:
    return record.superseded_by_run_id is None and record.state != WITHDRAWN and record.review_pass == FIRST


def _check_span_in_pass(span: SpanRecord, review_pass: int) -> None:
    """A reviewer decides on detected spans and on spans added in their own review only."""
    if span.detection_run_id is None and span.review_pass != review_pass:
        raise InvalidDecision(f"span {span.id} belongs to the other review of this document")


def _state_in_pass(session: Session, span: SpanRecord, review_pass: int):
    """The span's state in one review: the cached one for its own review, else a replay of
    that review's decisions over the span as detected."""
    log = _span_decisions(session, [span.id], review_pass)
    return replay(
        initial_state(span.start, span.end, span.category, span.fine, added_by_reviewer=span.detection_run_id is None),
        log,
        undone_ids(log),
    )


def _check_reviewer(reviewer: str) -> None:
    if not reviewer or not reviewer.strip():
        raise InvalidDecision("a decision needs the reviewer's name")


def _check_offsets(document_id: int, start: int, end: int, length: int) -> None:
    if not (0 <= start < end <= length):
        raise InvalidSpan(
            f"span {start}..{end} lies outside document {document_id} ({length} characters)"
        )


def _document_with_text(session: Session, document_id: int) -> DocumentRecord:
    document = session.get(DocumentRecord, document_id)
    if document is None:
        raise RecordNotFound(f"no document with id {document_id}")
    if document.status == DocStatus.ERROR.value:
        raise WorkspaceError(f"{document.name}: failed to import, so it has no spans")
    return document


def _text_length(session: Session, document_id: int) -> int:
    # Measured in Python: SQLite's length() stops at the first NUL, which extracted text
    # from odd files can contain.
    text = session.scalar(select(DocumentRecord.text).where(DocumentRecord.id == document_id))
    return len(text or "")


def _current_spans(session: Session, document_id: int) -> list[SpanRecord]:
    return list(
        session.scalars(
            select(SpanRecord)
            .where(SpanRecord.document_id == document_id, current_span_filter())
            .order_by(SpanRecord.current_start, SpanRecord.current_end, SpanRecord.id)
        )
    )


def _decidable_span(session: Session, span_id: int) -> SpanRecord:
    span = session.get(SpanRecord, span_id)
    if span is None:
        raise RecordNotFound(f"no span with id {span_id}")
    if span.superseded_by_run_id is not None:
        raise InvalidDecision(f"span {span_id} was replaced by a later detection run")
    if span.state == WITHDRAWN:
        raise InvalidDecision(f"span {span_id} was removed (its addition was undone)")
    return span


def _span_decisions(session: Session, span_ids: Iterable[int], review_pass: int | None = None) -> list[ReviewDecision]:
    stmt = select(ReviewDecision).where(ReviewDecision.span_id.in_(list(span_ids)))
    if review_pass is not None:
        stmt = stmt.where(ReviewDecision.review_pass == review_pass)
    return list(session.scalars(stmt.order_by(ReviewDecision.id)))


def _undone_for_spans(session: Session, span_ids: Iterable[int]) -> set[int]:
    return undone_ids(_span_decisions(session, span_ids))


def _refresh_span(session: Session, span: SpanRecord) -> None:
    """Rewrite the span's cached state from a full replay of its log in its own review
    (same transaction); a second reviewer's decisions on a detected span leave it alone."""
    log = _span_decisions(session, [span.id], span.review_pass)
    state = replay(
        initial_state(
            span.start, span.end, span.category, span.fine,
            added_by_reviewer=span.detection_run_id is None,
        ),
        log,
        undone_ids(log),
    )
    span.state = state.state
    span.current_start, span.current_end = state.start, state.end
    span.current_category, span.current_fine = state.category, state.fine


def _undo(session: Session, decision_id: int, reviewer: str) -> int:
    target = session.get(ReviewDecision, decision_id)
    if target is None:
        raise RecordNotFound(f"no decision with id {decision_id}")
    if decision_id in _undone_for_spans(session, [target.span_id]):
        raise InvalidDecision(f"decision {decision_id} is already undone")
    span = session.get(SpanRecord, target.span_id)
    assert span is not None  # the foreign key guarantees it
    if span.superseded_by_run_id is not None:
        raise InvalidDecision(f"span {span.id} was replaced by a later detection run")
    undo = ReviewDecision(
        span_id=target.span_id,
        document_id=target.document_id,
        action=DecisionAction.UNDO.value,
        reviewer=reviewer,
        undoes_id=target.id,
        created_at=utc_now(),
        review_pass=target.review_pass,
    )
    session.add(undo)
    session.flush()
    _refresh_span(session, span)
    return undo.id


def _mark_in_review(
    session: Session, document_id: int, review_pass: int = FIRST, *, from_statuses: tuple[str, ...] = _STATUSES_BEFORE_REVIEW
) -> bool:
    """The one place a document enters review: on its first review's first decision (from
    imported or detected) or when a detected document is opened (``begin_review``)."""
    document = session.get(DocumentRecord, document_id)
    if document is None:
        raise RecordNotFound(f"no document with id {document_id}")
    # The document's status is its first review's; the second review keeps its own.
    changed = review_pass == FIRST and document.status in from_statuses
    if changed:
        document.status = DocStatus.IN_REVIEW.value
        document.updated_at = utc_now()
    elif from_statuses == _STATUSES_BEFORE_REVIEW:
        document.updated_at = utc_now()  # a decision touches the document either way
    return changed


def _span_row(record: SpanRecord, text: str) -> SpanRow:
    return SpanRow(
        id=record.id,
        document_id=record.document_id,
        start=record.current_start,
        end=record.current_end,
        category=Category(record.current_category),
        fine=record.current_fine,
        score=record.score,
        source=record.source,
        members=tuple(json.loads(record.members_json)),
        state=SpanState(record.state),
        text=text[record.current_start : record.current_end],
        detection_run_id=record.detection_run_id,
    )


def _final_span(record: SpanRecord) -> Span:
    return Span(
        start=record.current_start,
        end=record.current_end,
        category=Category(record.current_category),
        fine=record.current_fine,
        score=record.score,
        source=REVIEWER if record.state == SpanState.ADDED else record.source,
        members=tuple(json.loads(record.members_json)),
    )


def _decision_row(decision: ReviewDecision, undone: set[int]) -> DecisionRow:
    return DecisionRow(
        id=decision.id,
        span_id=decision.span_id,
        document_id=decision.document_id,
        action=DecisionAction(decision.action),
        reviewer=decision.reviewer,
        category=Category(decision.category) if decision.category is not None else None,
        fine=decision.fine,
        start=decision.start,
        end=decision.end,
        batch=decision.batch,
        created_at=decision.created_at,
        undone=decision.id in undone,
        undoes=decision.undoes_id,
    )
