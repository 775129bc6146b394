""""Never flag this again" and "Always flag this" as steps of the review's undo stack.

The reviewer adds a term to the workspace's allow list or deny list in the same keystroke as
a decision, so Ctrl+Z must take back both: the controller groups the decision and a
:class:`TermListStep` into one undo macro. Undo removes the term only when this step added
it; a term that was already on the list stays there.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from PySide6.QtGui import QUndoCommand

from ..core.categories import Category
from ..core.errors import DeidError
from .palette import CATEGORY_LABELS

if TYPE_CHECKING:
    from .review import ReviewController

log = logging.getLogger(__name__)

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
        from ..core.learn.loop import always_flag, never_flag
        from ..core.learn.term_lists import list_terms

        before = {t.id for t in list_terms(workspace, kind=self.kind, scope=self.scope, scope_id=self.scope_id)}
        if self.kind == "allow":
            term_id = never_flag(workspace, self.text, self.scope, self.scope_id)
        else:
            term_id = always_flag(workspace, self.text, self.category, self.scope, self.scope_id, fine=self.fine)
        return term_id, term_id not in before

    def done_message(self, created: bool) -> str:
        # The reviewer is looking at this text on screen, so the status bar may show it;
        # nothing here is logged.
        quoted = f"“{' '.join(self.text.split())}”"
        if self.kind == "allow":
            news = f"{quoted} will not be flagged again {self.where}"
        else:
            news = f"{quoted} will always be flagged as {CATEGORY_LABELS[self.category] if self.category else 'PHI'} {self.where}"
        if not created:
            news = f"{news} (it was already on the {self.kind} list)"
        return f"{news}. Ctrl+Z undoes it; Model → Allow / deny lists… shows every term."


class TermListStep(QUndoCommand):
    """The term half of a "never flag" or "always flag" step. The term is added before the
    step is pushed (so a failure never leaves a step on the stack); ``redo`` after an undo
    adds it again."""

    def __init__(self, controller: "ReviewController", change: TermChange, term_id: int, created: bool) -> None:
        super().__init__(f"{'Never' if change.kind == 'allow' else 'Always'} flag a term")
        self._controller = controller
        self.change = change
        self.term_id = term_id
        self.created = created
        self._skip_first_redo = True

    def redo(self) -> None:
        if self._skip_first_redo:
            self._skip_first_redo = False
            return
        # Qt calls this from C++, where an exception would vanish: report it instead.
        try:
            self.term_id, self.created = self.change.add(self._controller.workspace)
        except (DeidError, ValueError, OSError) as e:
            self._failed("redo", e)
            return
        except Exception as e:
            log.error("adding a list term again failed (%s)", type(e).__name__)
            self._failed("redo", e)
            return
        self._controller.terms_changed.emit()

    def undo(self) -> None:
        if not self.created:
            return
        from ..core.learn.term_lists import remove_term

        try:
            remove_term(self._controller.workspace, self.term_id)
        except Exception as e:
            log.error("removing a list term failed (%s)", type(e).__name__)
            self._failed("undo", e)
            return
        self._controller.terms_changed.emit()

    def _failed(self, what: str, e: BaseException) -> None:
        reason = str(e) if isinstance(e, DeidError) else type(e).__name__
        self._controller.message.emit(f"Could not {what} the {self.change.kind}-list change: {reason}")
