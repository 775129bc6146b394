"""Subjects (patients) and imported documents of a workspace."""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from pathlib import Path
from typing import Any

from sqlalchemy import ColumnElement, and_, exists, func, select
from sqlalchemy.orm import Session, aliased

from ..documents.model import Document, Segment
from .database import Database
from .errors import RecordNotFound, WorkspaceError
from .models import DocumentRecord, SpanRecord, Subject, utc_now
from .replay import WITHDRAWN
from .rows import DocStatus, DocumentRow, ImportResult, SpanState, SubjectRow

SUBJECT_SALT_BYTES = 16
UNNAMED_DOCUMENT = "untitled"


def dump_json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def current_span_filter() -> ColumnElement[bool]:
    """Spans of a document's (first) review: not replaced by a later detection run, not a
    withdrawn addition, not added in the second review of a double-reviewed document."""
    return and_(
        SpanRecord.superseded_by_run_id.is_(None), SpanRecord.state != WITHDRAWN, SpanRecord.review_pass == 1
    )


class DocumentsRepository:
    _db: Database
    secret: bytes

    # ----------------------------------------------------------------- subjects

    def get_or_create_subject(self, label: str) -> SubjectRow:
        with self._db.writing() as session:
            return _subject_row(_subject_for_label(session, label))

    def list_subjects(self) -> list[SubjectRow]:
        with self._db.reading() as session:
            subjects = session.scalars(select(Subject).order_by(Subject.label, Subject.id))
            return [_subject_row(s) for s in subjects]

    def assign_subject(self, document_id: int, subject_label: str) -> None:
        with self._db.writing() as session:
            document = _document(session, document_id)
            document.subject_id = _subject_for_label(session, subject_label).id
            document.updated_at = utc_now()

    def subject_key(self, subject_id: int) -> bytes:
        """32 bytes of key material for one subject (date shift, surrogate seeds).

        Derived from the workspace secret and the subject's random salt, so knowing a
        patient's label is not enough to recompute it, and it stays the same for every
        document of the subject in any process that opens this workspace.
        """
        with self._db.reading() as session:
            subject = session.get(Subject, subject_id)
            if subject is None:
                raise RecordNotFound(f"no subject with id {subject_id}")
            return hmac.new(self.secret, b"deid-desktop/subject/" + subject.salt, hashlib.sha256).digest()

    # ---------------------------------------------------------------- documents

    def import_document(
        self,
        doc: Document,
        *,
        subject_label: str | None = None,
        source_path: str | None = None,
    ) -> ImportResult:
        path = source_path if source_path is not None else doc.path
        content_hash = doc.content_hash
        with self._db.writing() as session:
            duplicate = session.scalar(
                select(DocumentRecord.id)
                .where(DocumentRecord.content_hash == content_hash)
                .order_by(DocumentRecord.id)
                .limit(1)
            )
            if duplicate is not None:
                return ImportResult(duplicate, "duplicate", None)
            previous = _latest_at_path(session, path)
            subject_id = (
                _subject_for_label(session, subject_label).id
                if subject_label is not None
                else (previous.subject_id if previous is not None else None)
            )
            now = utc_now()
            record = DocumentRecord(
                subject_id=subject_id,
                previous_id=previous.id if previous is not None else None,
                source_path=path,
                name=_display_name(path),
                format=doc.format,
                content_hash=content_hash,
                version=previous.version + 1 if previous is not None else 1,
                status=DocStatus.IMPORTED.value,
                text=doc.text,
                segments_json=dump_json([[s.start, s.end, s.locator] for s in doc.segments]),
                warnings_json=dump_json(list(doc.warnings)),
                meta_json=dump_json(doc.meta),
                source_bytes=doc.source_bytes,
                created_at=now,
                updated_at=now,
            )
            session.add(record)
            session.flush()
            if previous is None:
                return ImportResult(record.id, "new", None)
            return ImportResult(record.id, "new_version", previous.id)

    def record_import_error(self, source_path: str, code: str, reason: str) -> int:
        """Remember a file that failed to import. A repeated failure of the same file updates
        the existing error row instead of stacking new ones."""
        with self._db.writing() as session:
            previous = _latest_at_path(session, source_path)
            now = utc_now()
            if previous is not None and previous.status == DocStatus.ERROR.value:
                previous.error_code, previous.error_reason = code, reason
                previous.updated_at = now
                return previous.id
            record = DocumentRecord(
                subject_id=previous.subject_id if previous is not None else None,
                previous_id=previous.id if previous is not None else None,
                source_path=source_path,
                name=_display_name(source_path),
                version=previous.version + 1 if previous is not None else 1,
                status=DocStatus.ERROR.value,
                error_code=code,
                error_reason=reason,
                created_at=now,
                updated_at=now,
            )
            session.add(record)
            session.flush()
            return record.id

    def remove_failed_import(self, document_id: int) -> None:
        """Forget a file that could not be imported. Such a row has no text, findings or
        decisions; any other document stays, as its decisions are the append-only log."""
        with self._db.writing() as session:
            document = _document(session, document_id)
            if document.status != DocStatus.ERROR.value:
                raise WorkspaceError(f"document {document_id} was imported; only a failed import can be removed")
            # A later version of the same path points at this row: point it further back.
            for newer in session.scalars(select(DocumentRecord).where(DocumentRecord.previous_id == document.id)):
                newer.previous_id = document.previous_id
            session.delete(document)

    def list_documents(
        self,
        *,
        status: DocStatus | None = None,
        subject_id: int | None = None,
        latest_only: bool = False,
    ) -> list[DocumentRow]:
        """Documents in import order; ``latest_only`` hides versions a newer import replaced."""
        conditions: list[ColumnElement[bool]] = []
        if status is not None:
            conditions.append(DocumentRecord.status == DocStatus(status).value)
        if subject_id is not None:
            conditions.append(DocumentRecord.subject_id == subject_id)
        if latest_only:
            newer = aliased(DocumentRecord)
            conditions.append(~exists().where(newer.previous_id == DocumentRecord.id))
        with self._db.reading() as session:
            return _document_rows(session, conditions)

    def get_document(self, document_id: int) -> DocumentRow:
        with self._db.reading() as session:
            rows = _document_rows(session, [DocumentRecord.id == document_id])
        if not rows:
            raise RecordNotFound(f"no document with id {document_id}")
        return rows[0]

    def load_document(self, document_id: int) -> Document:
        with self._db.reading() as session:
            record = session.get(DocumentRecord, document_id)
            if record is None:
                raise RecordNotFound(f"no document with id {document_id}")
            if record.text is None:
                raise WorkspaceError(
                    f"{record.name}: has no extracted text (import failed: {record.error_code})"
                )
            return Document(
                text=record.text,
                format=record.format or "text",
                path=record.source_path,
                segments=[Segment(s, e, loc) for s, e, loc in json.loads(record.segments_json or "[]")],
                warnings=list(json.loads(record.warnings_json or "[]")),
                meta=dict(json.loads(record.meta_json or "{}")),
                source_bytes=record.source_bytes,
            )

    def accept_unread_page(self, document_id: int, page: int) -> None:
        """Record that the reviewer looked at ``page`` (1-based), a scanned page OCR read
        nothing from, and accepted it as it is: the export then copies it instead of
        blacking it out. Kept in the document's meta (``ocr.ACCEPTED_PAGES``), which the
        writers read, so no schema change; the document counts as changed (since export)."""
        from ..documents.ocr import ACCEPTED_PAGES

        with self._db.writing() as session:
            document = _document(session, document_id)
            meta = dict(json.loads(document.meta_json or "{}"))
            if page not in ((meta.get("ocr") or {}).get("blank_pages") or []):
                raise WorkspaceError(f"page {page} of document {document_id} is not a page OCR could not read")
            meta[ACCEPTED_PAGES] = sorted({*meta.get(ACCEPTED_PAGES, []), page})
            document.meta_json = dump_json(meta)
            document.updated_at = utc_now()

    def set_status(self, document_id: int, status: DocStatus) -> None:
        value = DocStatus(status).value
        with self._db.writing() as session:
            document = _document(session, document_id)
            document.status = value
            document.updated_at = utc_now()


def _display_name(path: str | None) -> str:
    return Path(path).name if path else UNNAMED_DOCUMENT


def _document(session: Session, document_id: int) -> DocumentRecord:
    document = session.get(DocumentRecord, document_id)
    if document is None:
        raise RecordNotFound(f"no document with id {document_id}")
    return document


def _latest_at_path(session: Session, path: str | None) -> DocumentRecord | None:
    if path is None:
        return None
    return session.scalars(
        select(DocumentRecord)
        .where(DocumentRecord.source_path == path)
        .order_by(DocumentRecord.version.desc(), DocumentRecord.id.desc())
        .limit(1)
    ).first()


def _subject_for_label(session: Session, label: str) -> Subject:
    cleaned = label.strip()
    if not cleaned:
        raise ValueError("a subject label cannot be empty")
    subject = session.scalars(select(Subject).where(Subject.label == cleaned)).first()
    if subject is None:
        subject = Subject(
            label=cleaned, salt=secrets.token_bytes(SUBJECT_SALT_BYTES), created_at=utc_now()
        )
        session.add(subject)
        session.flush()
    return subject


def _subject_row(subject: Subject) -> SubjectRow:
    return SubjectRow(id=subject.id, label=subject.label, created_at=subject.created_at)


def _document_rows(session: Session, conditions: list[ColumnElement[bool]]) -> list[DocumentRow]:
    def span_count(*extra: ColumnElement[bool]):  # type: ignore[no-untyped-def]
        return (
            select(func.count(SpanRecord.id))
            .where(SpanRecord.document_id == DocumentRecord.id, current_span_filter(), *extra)
            .scalar_subquery()
        )

    d = DocumentRecord
    stmt = (
        select(
            d.id, d.subject_id, Subject.label, d.source_path, d.name, d.format, d.content_hash,
            d.version, d.status, d.error_code, d.error_reason, d.created_at, d.updated_at,
            d.previous_id, span_count(), span_count(SpanRecord.state == SpanState.UNDECIDED),
        )
        .outerjoin(Subject, Subject.id == d.subject_id)
        .where(*conditions)
        .order_by(d.id)
    )
    return [
        DocumentRow(
            id=r[0], subject_id=r[1], subject_label=r[2], source_path=r[3], name=r[4],
            format=r[5], content_hash=r[6], version=r[7], status=DocStatus(r[8]),
            error_code=r[9], error_reason=r[10], n_spans=r[14], n_undecided=r[15],
            created_at=r[11], updated_at=r[12], previous_id=r[13],
        )
        for r in session.execute(stmt)
    ]
