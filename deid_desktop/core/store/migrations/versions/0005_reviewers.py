"""Two reviewers of one document (issue 15): the review each decision and reviewer-added span
belongs to, documents marked for double review, and the adjudicator's choices.

Every existing decision and span keeps its row and its recorded reviewer name and becomes part
of the first (only) review: ADD COLUMN with a default rewrites no row, so the append-only
triggers of the decision log stay in force throughout.

Revision ID: 0005
Revises: 0004
Create Date: 2025-12-10
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

ADJUDICATIONS_APPEND_ONLY = (
    """
    CREATE TRIGGER adjudications_no_update
    BEFORE UPDATE ON adjudications
    BEGIN
        SELECT RAISE(ABORT, 'adjudications are append-only');
    END
    """,
    """
    CREATE TRIGGER adjudications_no_delete
    BEFORE DELETE ON adjudications
    BEGIN
        SELECT RAISE(ABORT, 'adjudications are append-only');
    END
    """,
)


def upgrade() -> None:
    # Not batch mode: batch rebuilds the table, which would drop the append-only triggers.
    op.add_column("review_decisions", sa.Column("review_pass", sa.Integer(), server_default=sa.text("1"), nullable=False))
    op.add_column("spans", sa.Column("review_pass", sa.Integer(), server_default=sa.text("1"), nullable=False))
    op.create_table(
        "double_reviews",
        sa.Column("document_id", sa.Integer(), nullable=False),
        sa.Column("first_reviewer", sa.String(), nullable=True),
        sa.Column("second_reviewer", sa.String(), nullable=True),
        sa.Column("second_done_at", sa.DateTime(), nullable=True),
        sa.Column("marked_by", sa.String(), nullable=False),
        sa.Column("marked_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["document_id"], ["documents.id"], name=op.f("fk_double_reviews_document_id_documents")),
        sa.PrimaryKeyConstraint("document_id", name=op.f("pk_double_reviews")),
    )
    op.create_table(
        "adjudications",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("document_id", sa.Integer(), nullable=False),
        sa.Column("start", sa.Integer(), nullable=False),
        sa.Column("end", sa.Integer(), nullable=False),
        sa.Column("choice", sa.String(), nullable=False),
        sa.Column("spans_json", sa.Text(), nullable=False),
        sa.Column("adjudicator", sa.String(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["document_id"], ["documents.id"], name=op.f("fk_adjudications_document_id_documents")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_adjudications")),
    )
    op.create_index("ix_adjudications_document_id", "adjudications", ["document_id"])
    for trigger in ADJUDICATIONS_APPEND_ONLY:
        op.execute(trigger)


def downgrade() -> None:
    op.execute("DROP TRIGGER IF EXISTS adjudications_no_delete")
    op.execute("DROP TRIGGER IF EXISTS adjudications_no_update")
    op.drop_index("ix_adjudications_document_id", table_name="adjudications")
    op.drop_table("adjudications")
    op.drop_table("double_reviews")
    op.execute("ALTER TABLE spans DROP COLUMN review_pass")
    op.execute("ALTER TABLE review_decisions DROP COLUMN review_pass")
