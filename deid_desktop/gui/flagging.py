"""The "never flag" / "always flag" actions of the review controller, and their term as a
step of the review's undo stack.

What the term is and how it is stored is ``core/usecases/terms.py``; the controller groups a
decision and a :class:`TermListStep` into one undo macro, so Ctrl+Z takes back both.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Callable

from ..core.categories import Category, normalise_fine
from ..core.errors import DeidError
from ..core.usecases.review import PHI_STATES
from ..core.usecases.terms import TermChange, TermScope, term_change
from .palette import CATEGORY_LABELS
from .review_steps import DoneStep

if TYPE_CHECKING:
    from .review import ReviewController

log = logging.getLogger(__name__)


class TermListStep(DoneStep):
    """The term half of a "never flag" or "always flag" step. The term is added before the
    step is pushed (so a failure never leaves a step on the stack); ``redo`` after an undo
    adds it again."""

    def __init__(self, controller: "ReviewController", change: TermChange, term_id: int, created: bool) -> None:
        super().__init__(f"{'Never' if change.kind == 'allow' else 'Always'} flag a term")
        self._controller = controller
        self.change = change
        self.term_id = term_id
        self.created = created

    def again(self) -> None:
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
        try:
            self.change.remove(self._controller.workspace, self.term_id)
        except Exception as e:
            log.error("removing a list term failed (%s)", type(e).__name__)
            self._failed("undo", e)
            return
        self._controller.terms_changed.emit()

    def _failed(self, what: str, e: BaseException) -> None:
        reason = str(e) if isinstance(e, DeidError) else type(e).__name__
        self._controller.message.emit(f"Could not {what} the {self.change.kind}-list change: {reason}")


class TermFlagging:
    """Part of :class:`~deid_desktop.gui.review.ReviewController` (a mixin: it uses the
    controller's open document, selection, undo stack and signals): a decision together with
    a term on the allow or deny list, as one undo step."""

    def reject_and_never_flag(self, scope: TermScope = "workspace") -> None:
        """Reject the selected finding and put its text on the allow list, so detection never
        flags it again in ``scope`` ("subject": the open document's subject). One undo step."""
        cur = self._require_current()
        if cur is None:
            return
        change = self._term_change("allow", cur.text, scope)
        self._with_term("Reject and never flag", change, self.reject)

    def always_flag_current(self, category: Category | None = None) -> None:
        """Accept the selected finding (as ``category`` when given) and put its text on the
        deny list, so detection always flags it. One undo step."""
        cur = self._require_current()
        if cur is None:
            return
        category = category or cur.category
        fine = normalise_fine(category, cur.fine)
        change = self._term_change("deny", cur.text, "workspace", category=category, fine=fine)
        action = (lambda: self.relabel(category)) if (cur.category != category or cur.state not in PHI_STATES) else (lambda: None)
        self._with_term(f"Accept as {CATEGORY_LABELS[category]} and always flag", change, action)

    def mark_span_and_always_flag(self, start: int, end: int, category: Category) -> None:
        """Add the selected text as a ``category`` span (as a category key does) and put it on
        the deny list, so detection flags it in every later document. One undo step."""
        extent = self._selection_extent(start, end, category)
        if extent is None:
            return
        s, e = extent
        change = self._term_change("deny", self.text[s:e], "workspace", category=category, fine=normalise_fine(category, "OTHER"))
        self._with_term(f"Add {CATEGORY_LABELS[category]} span and always flag", change, lambda: self._mark_extent(s, e, category))

    def _term_change(self, kind, text: str, scope: TermScope, *, category: Category | None = None, fine: str = "OTHER") -> TermChange:
        subject_id = self.row.subject_id if self.row is not None else None
        if scope == "subject" and self.row is not None and subject_id is None:
            self.message.emit("This document has no subject; the term applies to this document only.")
        if scope == "subject" and self.row is None:
            scope = "workspace"
        return term_change(kind, text, scope, self.document_id, subject_id, category=category, fine=fine)

    def _with_term(self, label: str, change: TermChange, decide: Callable[[], None]) -> None:
        """Add ``change``'s term, then run ``decide``; both become one entry of the undo stack."""
        if self.document_id is None:
            return
        if not change.text.strip():
            self.message.emit("There is no text to put on the list.")
            return
        try:
            term_id, created = change.add(self._workspace)
        except (DeidError, ValueError) as e:
            self.message.emit(f"Could not add the term to the {change.kind} list: {e}")
            return
        self.undo_stack.beginMacro(label)
        try:
            # The term's step first: should the decision fail, the added term is still undoable.
            self.undo_stack.push(TermListStep(self, change, term_id, created))
            decide()
        finally:
            self.undo_stack.endMacro()
        if created:
            self.terms_changed.emit()
        self.message.emit(change.done_message(created))
