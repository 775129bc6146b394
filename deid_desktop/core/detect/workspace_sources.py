"""What a workspace has learned that detection reads: its allow/deny terms and the template
rules a person approved.

These reads live here, below ``learn``, so that the ``allow_deny`` and ``harvested`` members
can take a ``workspace`` option (an ensemble file naming a workspace) without detection
importing the learning loop; ``learn.term_lists`` and ``learn.proposals`` write what this reads.
"""

from __future__ import annotations

import json
from pathlib import Path

from sqlalchemy import select

from ..categories import Category
from ..store import Workspace
from ..store.learned import TemplateRuleRecord, TermRecord
from .harvested import TemplateRule
from .lists import ListKind, ListTerm

# the verdict ``learn.proposals`` records on a rule or sentence a person approved
APPROVED = "approved"


def term_from_record(r: TermRecord) -> ListTerm:
    return ListTerm(
        kind=r.kind,  # type: ignore[arg-type]
        term=r.term,
        is_regex=bool(r.is_regex),
        category=Category(r.category) if r.category else None,
        fine=r.fine or "OTHER",
        scope=r.scope,
        scope_id=r.scope_id,
        id=r.id,
    )


def list_terms(
    ws: Workspace, *, kind: ListKind | None = None, scope: str | None = None, scope_id: int | str | None = None
) -> list[ListTerm]:
    stmt = select(TermRecord).order_by(TermRecord.kind, TermRecord.id)
    if kind is not None:
        stmt = stmt.where(TermRecord.kind == kind)
    if scope is not None:
        stmt = stmt.where(TermRecord.scope == scope)
    if scope_id is not None:
        stmt = stmt.where(TermRecord.scope_id == str(scope_id))
    with ws.session(readonly=True) as s:
        return [term_from_record(r) for r in s.scalars(stmt)]


def workspace_terms_from_file(path: str | Path) -> list[ListTerm]:
    """Workspace-wide terms of the workspace at ``path`` (for detectors built from a TOML)."""
    ws = Workspace.open(path, create=False)
    try:
        return list_terms(ws, scope="workspace")
    finally:
        ws.close()


def rule_from_record(r: TemplateRuleRecord) -> TemplateRule:
    return TemplateRule.from_json(
        {"template": r.template, "pattern": r.pattern, "slots": json.loads(r.slots_json), "support": r.support},
        status=r.status,
        id=r.id,
    )


def approved_rules(ws: Workspace) -> list[TemplateRule]:
    """The approved template rules, oldest first."""
    stmt = select(TemplateRuleRecord).where(TemplateRuleRecord.status == APPROVED).order_by(TemplateRuleRecord.id)
    with ws.session(readonly=True) as s:
        return [rule_from_record(r) for r in s.scalars(stmt)]


def approved_rules_from_file(path: str | Path) -> list[TemplateRule]:
    ws = Workspace.open(path, create=False)
    try:
        return approved_rules(ws)
    finally:
        ws.close()
