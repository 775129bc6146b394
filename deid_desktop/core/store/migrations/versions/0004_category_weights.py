"""Per-category ensemble weights beside the overall ones in the weight history (issue 10: a
member 99 % precise on dates is trusted on dates).

Revision ID: 0004
Revises: 0003
Create Date: 2025-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("ensemble_weights") as batch:
        batch.add_column(sa.Column("category_weights_json", sa.Text(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("ensemble_weights") as batch:
        batch.drop_column("category_weights_json")
