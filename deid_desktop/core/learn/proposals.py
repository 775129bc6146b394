"""Proposed template rules and inclusion sentences, and the person's verdict on each.

Harvesting (``harvest.py``) proposes; nothing reaches detection until someone approves it.
A rejected proposal stays rejected: harvesting again does not bring it back.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select

from ..detect.harvested import TemplateRule
from ..detect.workspace_sources import APPROVED, rule_from_record
from ..store import Workspace
from ..store.errors import RecordNotFound
from ..store.learned import InclusionProposalRecord, TemplateRuleRecord
from ..store.models import utc_now
from .harvest import MIN_SUPPORT, HarvestResult, harvest_inclusion_sentences, harvest_templates

PROPOSED, REJECTED = "proposed", "rejected"
STATUSES = (PROPOSED, APPROVED, REJECTED)


@dataclass(frozen=True)
class InclusionProposal:
    id: int
    sentence: str
    key: str
    support: int
    status: str
    created_at: datetime


def _check_status(status: str | None) -> None:
    if status is not None and status not in STATUSES:
        raise ValueError(f"unknown proposal status {status!r}")


# -- template rules -------------------------------------------------------------------------


def save_rule_proposals(ws: Workspace, rules: list[TemplateRule]) -> int:
    """Store newly harvested rules as proposals; a rule already known keeps its verdict and
    gets the new support count. Returns how many are new."""
    new = 0
    with ws.session() as s:
        for rule in rules:
            rec = s.scalar(select(TemplateRuleRecord).where(TemplateRuleRecord.pattern == rule.pattern))
            if rec is not None:
                rec.support = max(rec.support, rule.support)
                continue
            s.add(
                TemplateRuleRecord(
                    template=rule.template,
                    pattern=rule.pattern,
                    slots_json=json.dumps([sl.to_json() for sl in rule.slots]),
                    support=rule.support,
                    status=PROPOSED,
                    created_at=utc_now(),
                )
            )
            new += 1
    return new


def _list(ws: Workspace, record_type, status: str | None, to_row) -> list:
    """Proposals of one kind, oldest first, optionally only those with ``status``."""
    _check_status(status)
    stmt = select(record_type).order_by(record_type.id)
    if status is not None:
        stmt = stmt.where(record_type.status == status)
    with ws.session(readonly=True) as s:
        return [to_row(r) for r in s.scalars(stmt)]


def list_rules(ws: Workspace, status: str | None = None) -> list[TemplateRule]:
    return _list(ws, TemplateRuleRecord, status, rule_from_record)


def _decide(ws: Workspace, record_type, record_id: int, what: str, *, approve: bool, reviewer: str) -> None:
    """Approve or reject one proposal (a template rule or an inclusion sentence)."""
    with ws.session() as s:
        rec = s.get(record_type, record_id)
        if rec is None:
            raise RecordNotFound(f"no {what} with id {record_id}")
        rec.status = APPROVED if approve else REJECTED
        rec.decided_by = reviewer
        rec.decided_at = utc_now()


def decide_rule(ws: Workspace, rule_id: int, *, approve: bool, reviewer: str) -> None:
    _decide(ws, TemplateRuleRecord, rule_id, "template rule", approve=approve, reviewer=reviewer)


# -- inclusion sentences --------------------------------------------------------------------


def save_inclusion_proposals(ws: Workspace, proposals) -> int:
    new = 0
    with ws.session() as s:
        for p in proposals:
            rec = s.scalar(select(InclusionProposalRecord).where(InclusionProposalRecord.key == p.key))
            if rec is not None:
                rec.support = max(rec.support, p.support)
                continue
            s.add(InclusionProposalRecord(key=p.key, sentence=p.sentence, support=p.support, status=PROPOSED, created_at=utc_now()))
            new += 1
    return new


def list_inclusion_proposals(ws: Workspace, status: str | None = None) -> list[InclusionProposal]:
    return _list(ws, InclusionProposalRecord, status,
                 lambda r: InclusionProposal(r.id, r.sentence, r.key, r.support, r.status, r.created_at))


def decide_inclusion(ws: Workspace, proposal_id: int, *, approve: bool, reviewer: str) -> None:
    _decide(ws, InclusionProposalRecord, proposal_id, "inclusion proposal", approve=approve, reviewer=reviewer)


def approved_inclusion_sentences(ws: Workspace) -> list[str]:
    return [p.sentence for p in list_inclusion_proposals(ws, APPROVED)]


# -- harvesting a workspace ----------------------------------------------------------------


def harvest(ws: Workspace, *, min_support: int = MIN_SUPPORT) -> HarvestResult:
    """Rules and inclusion sentences harvested from every reviewed document (read only)."""
    from .reviewed import reviewed_documents

    sources = [d.harvest_source() for d in reviewed_documents(ws)]
    return HarvestResult(
        rules=harvest_templates(sources, min_support=min_support),
        sentences=harvest_inclusion_sentences(sources, min_support=min_support),
    )


def save_harvest(ws: Workspace, result: HarvestResult) -> HarvestResult:
    """Store harvested items as proposals; returns those that were not known before."""
    known_rules = {r.pattern for r in list_rules(ws)}
    known_sentences = {p.key for p in list_inclusion_proposals(ws)}
    save_rule_proposals(ws, result.rules)
    save_inclusion_proposals(ws, result.sentences)
    return HarvestResult(
        rules=[r for r in result.rules if r.pattern not in known_rules],
        sentences=[p for p in result.sentences if p.key not in known_sentences],
    )


def harvest_workspace(ws: Workspace, *, min_support: int = MIN_SUPPORT) -> HarvestResult:
    """Harvest, store the new items as proposals, and return what was newly proposed."""
    return save_harvest(ws, harvest(ws, min_support=min_support))
