"""What a workspace has learned that detection reads: its allow/deny terms and the template
rules a person approved.

These reads live here, below ``learn``, so that the ``allow_deny`` and ``harvested`` members
can take a ``workspace`` option (an ensemble file naming a workspace) without detection
importing the learning loop; ``learn.term_lists`` and ``learn.proposals`` write what this reads.
"""

from __future__ import annotations

import json
from pathlib import Path

from ..categories import Category
from ..store import Workspace
from ..store.learned_items import ProposalStatus, TemplateRuleRow, TermRow
from .harvested import TemplateRule
from .lists import ListKind, ListTerm

APPROVED = ProposalStatus.APPROVED  # only approved rules reach detection


def term_from_record(r: TermRow) -> ListTerm:
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
    return [term_from_record(r) for r in ws.list_term_rows(kind=kind, scope=scope, scope_id=scope_id)]


def workspace_terms_from_file(path: str | Path) -> list[ListTerm]:
    """Workspace-wide terms of the workspace at ``path`` (for detectors built from a TOML)."""
    ws = Workspace.open(path, create=False)
    try:
        return list_terms(ws, scope="workspace")
    finally:
        ws.close()


def rule_from_record(r: TemplateRuleRow) -> TemplateRule:
    return TemplateRule.from_json(
        {"template": r.template, "pattern": r.pattern, "slots": json.loads(r.slots_json), "support": r.support},
        status=r.status,
        id=r.id,
    )


def approved_rules(ws: Workspace) -> list[TemplateRule]:
    """The approved template rules, oldest first."""
    return [rule_from_record(r) for r in ws.list_template_rule_rows(APPROVED)]


def approved_rules_from_file(path: str | Path) -> list[TemplateRule]:
    ws = Workspace.open(path, create=False)
    try:
        return approved_rules(ws)
    finally:
        ws.close()
