"""The "never flag" / "always flag" term as a step of the review's undo stack.

What the term is and how it is stored is ``core/usecases/terms.py``; the controller groups a
decision and a :class:`TermListStep` into one undo macro, so Ctrl+Z takes back both.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from PySide6.QtGui import QUndoCommand

from ..core.errors import DeidError
from ..core.usecases.terms import TermChange

if TYPE_CHECKING:
    from .review import ReviewController

log = logging.getLogger(__name__)


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
