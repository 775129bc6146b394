"""The workspace schema as typed SQLAlchemy models.

The migrations under ``migrations/versions`` create exactly this schema; a test compares the
two so they cannot drift apart. GUI code never sees these objects: the workspace converts
them to the frozen row types of ``rows.py`` before a session closes.
"""

from __future__ import annotations

from datetime import datetime, timezone

from sqlalchemy import (
    Boolean,
    CheckConstraint,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Text,
    text,
)
from sqlalchemy.engine import Dialect
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column
from sqlalchemy.types import TypeDecorator

# Stable constraint names let later migrations alter tables with Alembic's batch mode on SQLite.
NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


def utc_now() -> datetime:
    return datetime.now(timezone.utc)


class UtcDateTime(TypeDecorator[datetime]):
    """Stores naive UTC (SQLite has no time zones) and hands back aware UTC datetimes, so
    timestamps from the GUI thread and the worker compare and sort the same way."""

    impl = DateTime
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("workspace timestamps must carry a time zone")
        return value.astimezone(timezone.utc).replace(tzinfo=None)

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        return None if value is None else value.replace(tzinfo=timezone.utc)


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)


class WorkspaceInfo(Base):
    """The single row that holds the workspace secret which keys every surrogate."""

    __tablename__ = "workspace_info"
    __table_args__ = (CheckConstraint("id = 1", name="single_row"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    secret: Mapped[bytes] = mapped_column(LargeBinary)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime())


class Subject(Base):
    """A patient. ``salt`` is random per subject, so the subject's key material (date shift,
    surrogate seed) depends on the workspace secret and not on the label alone."""

    __tablename__ = "subjects"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    label: Mapped[str] = mapped_column(String, unique=True)
    salt: Mapped[bytes] = mapped_column(LargeBinary)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime())


class DocumentRecord(Base):
    """One imported version of one file (or an import that failed, with its error)."""

    __tablename__ = "documents"
    __table_args__ = (
        Index("ix_documents_source_path", "source_path"),
        Index("ix_documents_content_hash", "content_hash"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    subject_id: Mapped[int | None] = mapped_column(ForeignKey("subjects.id"))
    previous_id: Mapped[int | None] = mapped_column(ForeignKey("documents.id"))
    source_path: Mapped[str | None] = mapped_column(String)
    name: Mapped[str] = mapped_column(String)
    format: Mapped[str | None] = mapped_column(String)
    content_hash: Mapped[str | None] = mapped_column(String)
    version: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String)
    error_code: Mapped[str | None] = mapped_column(String)
    error_reason: Mapped[str | None] = mapped_column(Text)
    # Heavy columns are deferred so listing documents never reads texts or file bytes.
    text: Mapped[str | None] = mapped_column(Text, deferred=True)
    segments_json: Mapped[str | None] = mapped_column(Text, deferred=True)
    warnings_json: Mapped[str | None] = mapped_column(Text, deferred=True)
    meta_json: Mapped[str | None] = mapped_column(Text, deferred=True)
    source_bytes: Mapped[bytes | None] = mapped_column(LargeBinary, deferred=True)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime())
    updated_at: Mapped[datetime] = mapped_column(UtcDateTime())


class DetectionRun(Base):
    __tablename__ = "detection_runs"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    config_json: Mapped[str] = mapped_column(Text)
    model_versions_json: Mapped[str] = mapped_column(Text)
    device: Mapped[str] = mapped_column(String)
    started_at: Mapped[datetime] = mapped_column(UtcDateTime())
    finished_at: Mapped[datetime | None] = mapped_column(UtcDateTime())
    seconds: Mapped[float | None] = mapped_column(Float)
    documents: Mapped[int | None] = mapped_column(Integer)


class SpanRecord(Base):
    """A span as a detector (or the reviewer) proposed it, plus its current state.

    The ``start``/``end``/``category``/``fine`` columns never change after insert. The
    ``current_*`` columns and ``state`` are a cache of replaying the span's decisions, written
    in the same transaction as each decision; the decision log stays the truth.
    ``superseded_by_run_id`` is set when a later detection run replaced an undecided span.
    """

    __tablename__ = "spans"
    __table_args__ = (Index("ix_spans_document_id", "document_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    document_id: Mapped[int] = mapped_column(ForeignKey("documents.id"))
    detection_run_id: Mapped[int | None] = mapped_column(ForeignKey("detection_runs.id"))
    superseded_by_run_id: Mapped[int | None] = mapped_column(ForeignKey("detection_runs.id"))
    start: Mapped[int] = mapped_column(Integer)
    end: Mapped[int] = mapped_column(Integer)
    category: Mapped[str] = mapped_column(String)
    fine: Mapped[str] = mapped_column(String)
    score: Mapped[float] = mapped_column(Float)
    source: Mapped[str] = mapped_column(String)
    members_json: Mapped[str] = mapped_column(Text)
    state: Mapped[str] = mapped_column(String)
    current_start: Mapped[int] = mapped_column(Integer)
    current_end: Mapped[int] = mapped_column(Integer)
    current_category: Mapped[str] = mapped_column(String)
    current_fine: Mapped[str] = mapped_column(String)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime())
    # Added by migration 0005: the review a reviewer-added span belongs to (2: the second,
    # independent review of a double-reviewed document). Detected spans are 1 and shared by
    # both reviews; the cached state above is always that of the span's own review.
    review_pass: Mapped[int] = mapped_column(Integer, server_default=text("1"))


class ReviewDecision(Base):
    """One reviewer decision. Append-only: SQLite triggers abort any UPDATE or DELETE, so the
    table is both the audit trail and the training data. ``undoes_id`` is set on UNDO rows."""

    __tablename__ = "review_decisions"
    __table_args__ = (
        Index("ix_review_decisions_span_id", "span_id"),
        Index("ix_review_decisions_document_id", "document_id"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    span_id: Mapped[int] = mapped_column(ForeignKey("spans.id"))
    document_id: Mapped[int] = mapped_column(ForeignKey("documents.id"))
    action: Mapped[str] = mapped_column(String)
    reviewer: Mapped[str] = mapped_column(String)
    category: Mapped[str | None] = mapped_column(String)
    fine: Mapped[str | None] = mapped_column(String)
    start: Mapped[int | None] = mapped_column(Integer)
    end: Mapped[int | None] = mapped_column(Integer)
    batch: Mapped[str | None] = mapped_column(String)
    undoes_id: Mapped[int | None] = mapped_column(ForeignKey("review_decisions.id"))
    created_at: Mapped[datetime] = mapped_column(UtcDateTime())
    # Added by migration 0005: which review of the document the decision belongs to (1, or 2
    # for the second reviewer of a double-reviewed document); every older decision is 1.
    review_pass: Mapped[int] = mapped_column(Integer, server_default=text("1"))


# Added by migration 0005: double review and adjudication.


class DoubleReview(Base):
    """A document marked for a second, independent review. The reviewers are claimed by
    name: the first is whoever decided on the document before (or first after) the mark, the
    second the next other person to decide on it."""

    __tablename__ = "double_reviews"

    document_id: Mapped[int] = mapped_column(ForeignKey("documents.id"), primary_key=True)
    first_reviewer: Mapped[str | None] = mapped_column(String)
    second_reviewer: Mapped[str | None] = mapped_column(String)
    second_done_at: Mapped[datetime | None] = mapped_column(UtcDateTime())
    marked_by: Mapped[str] = mapped_column(String)
    marked_at: Mapped[datetime] = mapped_column(UtcDateTime())


class AdjudicationChoice(Base):
    """One choice of an adjudicator about one disagreement (a region of text). Append-only
    like the decision log: a later choice for the same region replaces an earlier one."""

    __tablename__ = "adjudications"
    __table_args__ = (Index("ix_adjudications_document_id", "document_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    document_id: Mapped[int] = mapped_column(ForeignKey("documents.id"))
    start: Mapped[int] = mapped_column(Integer)
    end: Mapped[int] = mapped_column(Integer)
    choice: Mapped[str] = mapped_column(String)
    spans_json: Mapped[str] = mapped_column(Text)
    adjudicator: Mapped[str] = mapped_column(String)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime())


# Added by migration 0002: what the learning loop records.


class TrainingRun(Base):
    __tablename__ = "training_runs"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    settings_json: Mapped[str] = mapped_column(Text)
    status: Mapped[str] = mapped_column(String)
    metrics_json: Mapped[str | None] = mapped_column(Text)
    started_at: Mapped[datetime] = mapped_column(UtcDateTime())
    finished_at: Mapped[datetime | None] = mapped_column(UtcDateTime())


class ModelVersion(Base):
    __tablename__ = "model_versions"
    __table_args__ = (
        # At most one active version: the database refuses a second, whatever the caller does.
        Index(
            "uq_model_versions_one_active",
            "active",
            unique=True,
            sqlite_where=text("active = 1"),
        ),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String, unique=True)
    path: Mapped[str] = mapped_column(String)
    metrics_json: Mapped[str] = mapped_column(Text)
    parent: Mapped[str | None] = mapped_column(String)
    training_run_id: Mapped[int | None] = mapped_column(ForeignKey("training_runs.id"))
    active: Mapped[bool] = mapped_column(Boolean)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime())


class EnsembleWeights(Base):
    __tablename__ = "ensemble_weights"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    weights_json: Mapped[str] = mapped_column(Text)
    # Added by migration 0004: {member: {category: weight}}; NULL for fits made before it.
    category_weights_json: Mapped[str | None] = mapped_column(Text)
    n_documents: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime())


class Setting(Base):
    __tablename__ = "settings"

    key: Mapped[str] = mapped_column(String, primary_key=True)
    value_json: Mapped[str] = mapped_column(Text)
    updated_at: Mapped[datetime] = mapped_column(UtcDateTime())
