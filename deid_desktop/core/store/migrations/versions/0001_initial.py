"""Initial workspace: subjects, documents, detection runs, spans, append-only review decisions.

Revision ID: 0001
Revises:
Create Date: 2025-11-21
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

# The schema is written out here rather than taken from models.py: a migration must keep
# creating the schema of its own time after the models have moved on.

APPEND_ONLY_TRIGGERS = (
    """
    CREATE TRIGGER review_decisions_no_update
    BEFORE UPDATE ON review_decisions
    BEGIN
        SELECT RAISE(ABORT, 'review decisions are append-only');
    END
    """,
    """
    CREATE TRIGGER review_decisions_no_delete
    BEFORE DELETE ON review_decisions
    BEGIN
        SELECT RAISE(ABORT, 'review decisions are append-only');
    END
    """,
)


def upgrade() -> None:
    op.create_table(
        "workspace_info",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("secret", sa.LargeBinary(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.CheckConstraint("id = 1", name=op.f("ck_workspace_info_single_row")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_workspace_info")),
    )
    op.create_table(
        "subjects",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("label", sa.String(), nullable=False),
        sa.Column("salt", sa.LargeBinary(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_subjects")),
        sa.UniqueConstraint("label", name=op.f("uq_subjects_label")),
    )
    op.create_table(
        "documents",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("subject_id", sa.Integer(), nullable=True),
        sa.Column("previous_id", sa.Integer(), nullable=True),
        sa.Column("source_path", sa.String(), nullable=True),
        sa.Column("name", sa.String(), nullable=False),
        sa.Column("format", sa.String(), nullable=True),
        sa.Column("content_hash", sa.String(), nullable=True),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(), nullable=False),
        sa.Column("error_code", sa.String(), nullable=True),
        sa.Column("error_reason", sa.Text(), nullable=True),
        sa.Column("text", sa.Text(), nullable=True),
        sa.Column("segments_json", sa.Text(), nullable=True),
        sa.Column("warnings_json", sa.Text(), nullable=True),
        sa.Column("meta_json", sa.Text(), nullable=True),
        sa.Column("source_bytes", sa.LargeBinary(), nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["previous_id"], ["documents.id"], name=op.f("fk_documents_previous_id_documents")
        ),
        sa.ForeignKeyConstraint(
            ["subject_id"], ["subjects.id"], name=op.f("fk_documents_subject_id_subjects")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_documents")),
    )
    op.create_index("ix_documents_content_hash", "documents", ["content_hash"])
    op.create_index("ix_documents_source_path", "documents", ["source_path"])
    op.create_table(
        "detection_runs",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("config_json", sa.Text(), nullable=False),
        sa.Column("model_versions_json", sa.Text(), nullable=False),
        sa.Column("device", sa.String(), nullable=False),
        sa.Column("started_at", sa.DateTime(), nullable=False),
        sa.Column("finished_at", sa.DateTime(), nullable=True),
        sa.Column("seconds", sa.Float(), nullable=True),
        sa.Column("documents", sa.Integer(), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_detection_runs")),
    )
    op.create_table(
        "spans",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("document_id", sa.Integer(), nullable=False),
        sa.Column("detection_run_id", sa.Integer(), nullable=True),
        sa.Column("superseded_by_run_id", sa.Integer(), nullable=True),
        sa.Column("start", sa.Integer(), nullable=False),
        sa.Column("end", sa.Integer(), nullable=False),
        sa.Column("category", sa.String(), nullable=False),
        sa.Column("fine", sa.String(), nullable=False),
        sa.Column("score", sa.Float(), nullable=False),
        sa.Column("source", sa.String(), nullable=False),
        sa.Column("members_json", sa.Text(), nullable=False),
        sa.Column("state", sa.String(), nullable=False),
        sa.Column("current_start", sa.Integer(), nullable=False),
        sa.Column("current_end", sa.Integer(), nullable=False),
        sa.Column("current_category", sa.String(), nullable=False),
        sa.Column("current_fine", sa.String(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["detection_run_id"],
            ["detection_runs.id"],
            name=op.f("fk_spans_detection_run_id_detection_runs"),
        ),
        sa.ForeignKeyConstraint(
            ["document_id"], ["documents.id"], name=op.f("fk_spans_document_id_documents")
        ),
        sa.ForeignKeyConstraint(
            ["superseded_by_run_id"],
            ["detection_runs.id"],
            name=op.f("fk_spans_superseded_by_run_id_detection_runs"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_spans")),
    )
    op.create_index("ix_spans_document_id", "spans", ["document_id"])
    op.create_table(
        "review_decisions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("span_id", sa.Integer(), nullable=False),
        sa.Column("document_id", sa.Integer(), nullable=False),
        sa.Column("action", sa.String(), nullable=False),
        sa.Column("reviewer", sa.String(), nullable=False),
        sa.Column("category", sa.String(), nullable=True),
        sa.Column("fine", sa.String(), nullable=True),
        sa.Column("start", sa.Integer(), nullable=True),
        sa.Column("end", sa.Integer(), nullable=True),
        sa.Column("batch", sa.String(), nullable=True),
        sa.Column("undoes_id", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["document_id"],
            ["documents.id"],
            name=op.f("fk_review_decisions_document_id_documents"),
        ),
        sa.ForeignKeyConstraint(
            ["span_id"], ["spans.id"], name=op.f("fk_review_decisions_span_id_spans")
        ),
        sa.ForeignKeyConstraint(
            ["undoes_id"],
            ["review_decisions.id"],
            name=op.f("fk_review_decisions_undoes_id_review_decisions"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_review_decisions")),
    )
    op.create_index("ix_review_decisions_document_id", "review_decisions", ["document_id"])
    op.create_index("ix_review_decisions_span_id", "review_decisions", ["span_id"])
    for trigger in APPEND_ONLY_TRIGGERS:
        op.execute(trigger)


def downgrade() -> None:
    op.execute("DROP TRIGGER IF EXISTS review_decisions_no_delete")
    op.execute("DROP TRIGGER IF EXISTS review_decisions_no_update")
    op.drop_table("review_decisions")
    op.drop_table("spans")
    op.drop_table("detection_runs")
    op.drop_table("documents")
    op.drop_table("subjects")
    op.drop_table("workspace_info")
