"""What a workspace learns besides model weights: allow/deny term lists, harvested template
rules and inclusion-list proposals (schema added by migration 0003).

These models live on the store's declarative ``Base`` so one metadata describes the whole
file; they are kept out of ``models.py`` because the learning loop owns them.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Boolean, Index, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from .models import Base, UtcDateTime


class TermRecord(Base):
    """One allow-list ("never PHI") or deny-list ("always PHI") entry.

    ``scope_id`` is "" for workspace-wide terms (not NULL) so the unique constraint also
    holds for them: SQLite treats NULLs as distinct.
    """

    __tablename__ = "term_lists"
    __table_args__ = (
        UniqueConstraint("kind", "term", "is_regex", "scope", "scope_id", name="uq_term_lists_entry"),
        Index("ix_term_lists_scope", "scope", "scope_id"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String)  # "allow" | "deny"
    term: Mapped[str] = mapped_column(Text)
    is_regex: Mapped[bool] = mapped_column(Boolean)
    category: Mapped[str | None] = mapped_column(String)
    fine: Mapped[str | None] = mapped_column(String)
    scope: Mapped[str] = mapped_column(String)  # "workspace" | "subject" | "document"
    scope_id: Mapped[str] = mapped_column(String)
    added_by: Mapped[str] = mapped_column(String)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime())


class TemplateRuleRecord(Base):
    """A deterministic rule harvested from reviewed documents (001). Only the PHI-free
    template and the regular expression are stored, never an example line."""

    __tablename__ = "template_rules"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    template: Mapped[str] = mapped_column(Text)
    pattern: Mapped[str] = mapped_column(Text, unique=True)
    slots_json: Mapped[str] = mapped_column(Text)
    support: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String)  # "proposed" | "approved" | "rejected"
    decided_by: Mapped[str | None] = mapped_column(String)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime())
    decided_at: Mapped[datetime | None] = mapped_column(UtcDateTime())


class InclusionProposalRecord(Base):
    """A sentence reviewers confirmed PHI-free in several documents, proposed for the
    workspace inclusion list (sentences on it skip the models)."""

    __tablename__ = "inclusion_proposals"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    key: Mapped[str] = mapped_column(Text, unique=True)  # normalise_sentence(sentence)
    sentence: Mapped[str] = mapped_column(Text)
    support: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String)
    decided_by: Mapped[str | None] = mapped_column(String)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime())
    decided_at: Mapped[datetime | None] = mapped_column(UtcDateTime())
