"""What the learning loop learns besides the model: allow/deny term lists with their scope,
harvested template rules awaiting approval, and inclusion-list proposals.

Revision ID: 0003
Revises: 0002
Create Date: 2025-11-21
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "term_lists",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(), nullable=False),
        sa.Column("term", sa.Text(), nullable=False),
        sa.Column("is_regex", sa.Boolean(), nullable=False),
        sa.Column("category", sa.String(), nullable=True),
        sa.Column("fine", sa.String(), nullable=True),
        sa.Column("scope", sa.String(), nullable=False),
        sa.Column("scope_id", sa.String(), nullable=False),
        sa.Column("added_by", sa.String(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_term_lists")),
        sa.UniqueConstraint("kind", "term", "is_regex", "scope", "scope_id", name="uq_term_lists_entry"),
    )
    op.create_index("ix_term_lists_scope", "term_lists", ["scope", "scope_id"])
    op.create_table(
        "template_rules",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("template", sa.Text(), nullable=False),
        sa.Column("pattern", sa.Text(), nullable=False),
        sa.Column("slots_json", sa.Text(), nullable=False),
        sa.Column("support", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(), nullable=False),
        sa.Column("decided_by", sa.String(), nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("decided_at", sa.DateTime(), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_template_rules")),
        sa.UniqueConstraint("pattern", name=op.f("uq_template_rules_pattern")),
    )
    op.create_table(
        "inclusion_proposals",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("key", sa.Text(), nullable=False),
        sa.Column("sentence", sa.Text(), nullable=False),
        sa.Column("support", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(), nullable=False),
        sa.Column("decided_by", sa.String(), nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("decided_at", sa.DateTime(), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_inclusion_proposals")),
        sa.UniqueConstraint("key", name=op.f("uq_inclusion_proposals_key")),
    )


def downgrade() -> None:
    op.drop_table("inclusion_proposals")
    op.drop_table("template_rules")
    op.drop_index("ix_term_lists_scope", table_name="term_lists")
    op.drop_table("term_lists")
