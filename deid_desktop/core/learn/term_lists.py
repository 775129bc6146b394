"""The workspace's allow-list and deny-list: storing, scoping, importing and exporting terms.

A term applies to a document when its scope is the workspace, the document's subject or the
document itself. Subject and document scopes are stored by id (as text), so renaming a
subject label keeps its terms.
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterable

from ..categories import Category
from ..detect.lists import ListKind, ListTerm, read_terms_file, write_terms_file
from ..detect.workspace_sources import list_terms
from ..store import Workspace


def add_term(
    ws: Workspace,
    kind: ListKind,
    term: str,
    *,
    category: Category | str | None = None,
    fine: str = "OTHER",
    is_regex: bool = False,
    scope: str = "workspace",
    scope_id: int | str | None = None,
    added_by: str = "reviewer",
) -> int:
    """Store a term; returns its id (the existing id when the same term is already there)."""
    t = ListTerm(kind, term.strip(), is_regex, category, fine, scope, "" if scope_id is None else str(scope_id))  # type: ignore[arg-type]
    if t.scope != "workspace" and not t.scope_id:
        raise ValueError(f"a {t.scope}-scoped term needs the {t.scope} id")
    return ws.add_term(
        t.kind, t.term, is_regex=t.is_regex, category=t.category.value if t.category else None,
        fine=t.fine if t.category else None, scope=t.scope, scope_id=t.scope_id, added_by=added_by,
    )


def remove_term(ws: Workspace, term_id: int) -> None:
    ws.remove_term(term_id)


def terms_for_document(ws: Workspace, document_id: int | None) -> list[ListTerm]:
    """Workspace-wide terms plus those of the document's subject and of the document."""
    terms = list_terms(ws, scope="workspace")
    if document_id is None:
        return terms
    row = ws.get_document(document_id)
    if row.subject_id is not None:
        terms += list_terms(ws, scope="subject", scope_id=row.subject_id)
    return terms + list_terms(ws, scope="document", scope_id=document_id)


def import_terms(
    ws: Workspace, path: str | Path, kind: ListKind, *, scope: str = "workspace", scope_id: int | str | None = None, added_by: str = "import"
) -> int:
    """Add the terms of a plain list file; returns how many were new."""
    before = len(list_terms(ws, kind=kind))
    for t in read_terms_file(path, kind, scope=scope, scope_id="" if scope_id is None else str(scope_id)):
        add_term(ws, kind, t.term, category=t.category, fine=t.fine, is_regex=t.is_regex, scope=scope, scope_id=scope_id, added_by=added_by)
    return len(list_terms(ws, kind=kind)) - before


def export_terms(ws: Workspace, path: str | Path, kind: ListKind, *, scope: str | None = None, scope_id: int | str | None = None) -> int:
    """Write the terms as a plain list file; returns how many were written."""
    return write_terms_file(path, _unique(list_terms(ws, kind=kind, scope=scope, scope_id=scope_id)))


def _unique(terms: Iterable[ListTerm]) -> list[ListTerm]:
    # The same term in several scopes is one line in a file (files carry no scope).
    seen: set[tuple] = set()
    out = []
    for t in terms:
        key = (t.kind, t.term, t.is_regex, t.category, t.fine)
        if key not in seen:
            seen.add(key)
            out.append(t)
    return out
