"""Proposed template rules and inclusion sentences, and the person's verdict on each.

Harvesting (``harvest.py``) proposes; nothing reaches detection until someone approves it.
A rejected proposal stays rejected: harvesting again does not bring it back.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime

from ..detect.harvested import TemplateRule
from ..detect.workspace_sources import APPROVED, rule_from_record
from ..store import Workspace
from ..store.learned_items import NewInclusionProposal, NewTemplateRule, ProposalStatus
from .harvest import MIN_SUPPORT, HarvestResult, harvest_inclusion_sentences, harvest_templates

PROPOSED, REJECTED = ProposalStatus.PROPOSED, ProposalStatus.REJECTED
STATUSES = tuple(s.value for s in ProposalStatus)


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
    new = [
        NewTemplateRule(rule.template, rule.pattern, json.dumps([sl.to_json() for sl in rule.slots]), rule.support)
        for rule in rules
    ]
    return ws.save_template_rule_proposals(new, status=PROPOSED)


def list_rules(ws: Workspace, status: str | None = None) -> list[TemplateRule]:
    """Rule proposals, oldest first, optionally only those with ``status``."""
    _check_status(status)
    return [rule_from_record(r) for r in ws.list_template_rule_rows(status)]


def decide_rule(ws: Workspace, rule_id: int, *, approve: bool, reviewer: str) -> None:
    ws.decide_template_rule(rule_id, status=APPROVED if approve else REJECTED, reviewer=reviewer)


# -- inclusion sentences --------------------------------------------------------------------


def save_inclusion_proposals(ws: Workspace, proposals) -> int:
    return ws.save_inclusion_proposals([NewInclusionProposal(p.key, p.sentence, p.support) for p in proposals], status=PROPOSED)


def list_inclusion_proposals(ws: Workspace, status: str | None = None) -> list[InclusionProposal]:
    _check_status(status)
    return [InclusionProposal(r.id, r.sentence, r.key, r.support, r.status, r.created_at) for r in ws.list_inclusion_proposal_rows(status)]


def decide_inclusion(ws: Workspace, proposal_id: int, *, approve: bool, reviewer: str) -> None:
    ws.decide_inclusion_proposal(proposal_id, status=APPROVED if approve else REJECTED, reviewer=reviewer)


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
