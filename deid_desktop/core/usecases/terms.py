""""Never flag this again" and "Always flag this": one term for the allow or deny list.

The reviewer adds a term in the same keystroke as a decision, so undo must take back both;
the GUI groups the decision and the term into one undo step. Undo removes the term only
when this change added it; a term that was already on the list stays there.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ..categories import Category, display_name

TermScope = Literal["workspace", "subject", "document"]


@dataclass(frozen=True, slots=True)
class TermChange:
    """One term for the allow list ("allow": never flag) or the deny list ("deny": always
    flag), in the scope the reviewer chose."""

    kind: Literal["allow", "deny"]
    text: str
    scope: str = "workspace"  # workspace | subject | document
    scope_id: int | None = None
    category: Category | None = None  # deny terms: what every match is
    fine: str = "OTHER"
    where: str = "in this workspace"  # for the status bar

    def add(self, workspace) -> tuple[int, bool]:
        """Store the term; returns (term id, whether this call added it)."""
        from ..learn.loop import always_flag, never_flag
        from ..learn.term_lists import list_terms

        before = {t.id for t in list_terms(workspace, kind=self.kind, scope=self.scope, scope_id=self.scope_id)}
        if self.kind == "allow":
            term_id = never_flag(workspace, self.text, self.scope, self.scope_id)
        else:
            term_id = always_flag(workspace, self.text, self.category, self.scope, self.scope_id, fine=self.fine)
        return term_id, term_id not in before

    def remove(self, workspace, term_id: int) -> None:
        """Take back the term this change added."""
        from ..learn.term_lists import remove_term

        remove_term(workspace, term_id)

    def done_message(self, created: bool) -> str:
        # The reviewer is looking at this text on screen, so the status bar may show it;
        # nothing here is logged.
        quoted = f"“{' '.join(self.text.split())}”"
        if self.kind == "allow":
            news = f"{quoted} will not be flagged again {self.where}"
        else:
            news = f"{quoted} will always be flagged as {display_name(self.category) if self.category else 'PHI'} {self.where}"
        if not created:
            news = f"{news} (it was already on the {self.kind} list)"
        return f"{news}. Ctrl+Z undoes it; Model → Allow / deny lists… shows every term."


def term_change(kind: Literal["allow", "deny"], text: str, scope: TermScope, document_id: int, subject_id: int | None, *,
                category: Category | None = None, fine: str = "OTHER") -> TermChange:
    """The change for ``scope``; a "subject" term of a document without a subject applies to
    the document only (the caller says so)."""
    if scope == "document" or (scope == "subject" and subject_id is None):
        return TermChange(kind, text, "document", document_id, category, fine, "in this document")
    if scope == "subject":
        return TermChange(kind, text, "subject", subject_id, category, fine, "in documents of this subject")
    return TermChange(kind, text, "workspace", None, category, fine, "in this workspace")
