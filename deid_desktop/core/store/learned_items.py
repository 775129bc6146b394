"""What a workspace has learned, stored: allow/deny terms, proposed template rules and
inclusion sentences with the person's verdict. Plain rows out, so ``detect`` and ``learn``
turn them into their own types without touching SQL."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Iterable

from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError

from .database import Database
from .errors import RecordNotFound
from .learned import InclusionProposalRecord, TemplateRuleRecord, TermRecord
from .models import utc_now


class ProposalStatus(StrEnum):
    """A proposed rule's or sentence's verdict; the values are what the status columns hold.
    Only approved ones reach detection, and a rejected one stays rejected when harvested again."""

    PROPOSED = "proposed"
    APPROVED = "approved"
    REJECTED = "rejected"


@dataclass(frozen=True, slots=True)
class TermRow:
    id: int
    kind: str  # "allow" | "deny"
    term: str
    is_regex: bool
    category: str | None
    fine: str | None
    scope: str  # "workspace" | "subject" | "document"
    scope_id: str


@dataclass(frozen=True, slots=True)
class TemplateRuleRow:
    id: int
    template: str
    pattern: str
    slots_json: str
    support: int
    status: str


@dataclass(frozen=True, slots=True)
class InclusionProposalRow:
    id: int
    sentence: str
    key: str
    support: int
    status: str
    created_at: datetime


@dataclass(frozen=True, slots=True)
class NewTemplateRule:
    template: str
    pattern: str
    slots_json: str
    support: int


@dataclass(frozen=True, slots=True)
class NewInclusionProposal:
    key: str
    sentence: str
    support: int


class LearnedItemsRepository:
    _db: Database

    # -- allow / deny terms -----------------------------------------------------------------
    def add_term(self, kind: str, term: str, *, is_regex: bool, category: str | None, fine: str | None,
                 scope: str, scope_id: str, added_by: str) -> int:
        """Store a term; returns its id (the existing id when the same term is already there,
        also when another process added it meanwhile)."""
        key = (kind, term, is_regex, scope, scope_id)
        existing = self.find_term(*key)
        if existing is not None:
            return existing
        try:
            with self._db.writing() as s:
                rec = TermRecord(kind=kind, term=term, is_regex=is_regex, category=category, fine=fine,
                                 scope=scope, scope_id=scope_id, added_by=added_by, created_at=utc_now())
                s.add(rec)
                s.flush()
                return rec.id
        except IntegrityError:
            found = self.find_term(*key)
            if found is None:
                raise
            return found

    def find_term(self, kind: str, term: str, is_regex: bool, scope: str, scope_id: str) -> int | None:
        with self._db.reading() as s:
            return s.scalar(
                select(TermRecord.id).where(
                    TermRecord.kind == kind, TermRecord.term == term, TermRecord.is_regex == is_regex,
                    TermRecord.scope == scope, TermRecord.scope_id == scope_id,
                )
            )

    def remove_term(self, term_id: int) -> None:
        with self._db.writing() as s:
            s.execute(delete(TermRecord).where(TermRecord.id == term_id))

    def list_term_rows(self, *, kind: str | None = None, scope: str | None = None, scope_id: int | str | None = None) -> list[TermRow]:
        """Terms by kind, then in the order they were added."""
        stmt = select(TermRecord).order_by(TermRecord.kind, TermRecord.id)
        if kind is not None:
            stmt = stmt.where(TermRecord.kind == kind)
        if scope is not None:
            stmt = stmt.where(TermRecord.scope == scope)
        if scope_id is not None:
            stmt = stmt.where(TermRecord.scope_id == str(scope_id))
        with self._db.reading() as s:
            return [TermRow(r.id, r.kind, r.term, bool(r.is_regex), r.category, r.fine, r.scope, r.scope_id) for r in s.scalars(stmt)]

    # -- proposals ------------------------------------------------------------------------
    def save_template_rule_proposals(self, rules: Iterable[NewTemplateRule], *, status: str) -> int:
        """A rule already known (same pattern) keeps its verdict and gets the larger support;
        the others are stored with ``status``. Returns how many are new."""
        new = 0
        with self._db.writing() as s:
            for rule in rules:
                rec = s.scalar(select(TemplateRuleRecord).where(TemplateRuleRecord.pattern == rule.pattern))
                if rec is not None:
                    rec.support = max(rec.support, rule.support)
                    continue
                s.add(TemplateRuleRecord(template=rule.template, pattern=rule.pattern, slots_json=rule.slots_json,
                                         support=rule.support, status=status, created_at=utc_now()))
                new += 1
        return new

    def save_inclusion_proposals(self, proposals: Iterable[NewInclusionProposal], *, status: str) -> int:
        """As ``save_template_rule_proposals``, keyed by the normalised sentence."""
        new = 0
        with self._db.writing() as s:
            for p in proposals:
                rec = s.scalar(select(InclusionProposalRecord).where(InclusionProposalRecord.key == p.key))
                if rec is not None:
                    rec.support = max(rec.support, p.support)
                    continue
                s.add(InclusionProposalRecord(key=p.key, sentence=p.sentence, support=p.support, status=status, created_at=utc_now()))
                new += 1
        return new

    def list_template_rule_rows(self, status: str | None = None) -> list[TemplateRuleRow]:
        """Oldest first, optionally only those with ``status``."""
        with self._db.reading() as s:
            return [TemplateRuleRow(r.id, r.template, r.pattern, r.slots_json, r.support, r.status)
                    for r in s.scalars(_by_status(TemplateRuleRecord, status))]

    def list_inclusion_proposal_rows(self, status: str | None = None) -> list[InclusionProposalRow]:
        with self._db.reading() as s:
            return [InclusionProposalRow(r.id, r.sentence, r.key, r.support, r.status, r.created_at)
                    for r in s.scalars(_by_status(InclusionProposalRecord, status))]

    def decide_template_rule(self, rule_id: int, *, status: str, reviewer: str) -> None:
        self._decide(TemplateRuleRecord, rule_id, "template rule", status, reviewer)

    def decide_inclusion_proposal(self, proposal_id: int, *, status: str, reviewer: str) -> None:
        self._decide(InclusionProposalRecord, proposal_id, "inclusion proposal", status, reviewer)

    def _decide(self, record_type, record_id: int, what: str, status: str, reviewer: str) -> None:
        with self._db.writing() as s:
            rec = s.get(record_type, record_id)
            if rec is None:
                raise RecordNotFound(f"no {what} with id {record_id}")
            rec.status = status
            rec.decided_by = reviewer
            rec.decided_at = utc_now()


def _by_status(record_type, status: str | None):
    stmt = select(record_type).order_by(record_type.id)
    return stmt if status is None else stmt.where(record_type.status == status)
