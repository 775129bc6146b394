"""The review controller's undo stack: a core review command run once and pushed as a
``QUndoStack`` step (:class:`ReviewStep`), undone and redone from there, and what the views
must redraw after each. The commands and their undo are ``core/usecases/review.py``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtGui import QUndoCommand

from ..core.errors import DeidError
from ..core.usecases.review import ReviewCommand, StepResult, focus_after_replay

if TYPE_CHECKING:
    from .review import ReviewController


class DoneStep(QUndoCommand):
    """An undo-stack step whose work is done before it is pushed (so a failure never leaves
    a step on the stack): the push's own ``redo`` is skipped; later redos call the
    subclass's ``again``."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self._skip_first_redo = True

    def redo(self) -> None:
        if self._skip_first_redo:
            self._skip_first_redo = False
            return
        self.again()  # type: ignore[attr-defined]  (every subclass defines it)


class ReviewStep(DoneStep):
    """One entry of the undo stack, wrapping a core review command. The command runs once
    before it is pushed (so a failure never leaves a step on the stack); ``redo`` after an
    undo applies it again. Undo and redo are recorded under the name of whoever presses the
    key now (Settings may have changed it), except where the command keeps its own."""

    def __init__(self, controller: "ReviewController", text: str, command: ReviewCommand, first: StepResult) -> None:
        super().__init__(text)
        self._controller = controller
        self.command = command
        self.document_id = command.document_id
        self.result = first

    def again(self) -> None:
        self._controller._replay(self, redo=True)

    def undo(self) -> None:
        self._controller._replay(self, redo=False)

    def _current_reviewer(self) -> None:
        if self.command.follows_reviewer:
            self.command.reviewer = self._controller.reviewer

    def run_again(self) -> StepResult:
        self._current_reviewer()
        self.result = self.command.apply(self._controller.workspace)
        return self.result

    def revert(self) -> None:
        self._current_reviewer()
        self.command.undo(self._controller.workspace, self.result)


class ReviewSteps:
    """Part of :class:`~deid_desktop.gui.review.ReviewController` (a mixin: it uses the
    controller's undo stack, open document, selection and signals)."""

    def run_step(self, label: str, command: ReviewCommand, *, nothing: str = "") -> bool:
        """Run ``command`` (decisions about findings of any documents, not only the open one)
        as one step of the undo stack. Undoing it opens the command's document, where the
        reviewer sees what the undo changed; the open document is redrawn when the step
        touched it."""
        return self._run(label, command, nothing=nothing)

    def _run(self, label: str, command: ReviewCommand, *, nothing: str = "") -> bool:
        try:
            result = command.apply(self._workspace)
        except DeidError as e:
            self.message.emit(f"Could not {label.lower()}: {e}")
            self.reload()
            return False
        if not result.decision_ids and not command.always_a_step:
            self.message.emit(nothing or "Nothing to change.")
            return False
        step = ReviewStep(self, label, command, result)
        self.undo_stack.push(step)
        self._after(step, result)
        return True

    def _replay(self, step: ReviewStep, *, redo: bool) -> None:
        if step.document_id != self.document_id:
            self.open_document(step.document_id)
        try:
            if redo:
                result = step.run_again()
            else:
                step.revert()
                result = StepResult(focus=step.result.focus, touched=set(step.result.touched), changed=step.result.changed)
                result.summary = f"Undone: {step.text()}."
        except DeidError as e:
            self.message.emit(f"Could not {'redo' if redo else 'undo'} “{step.text()}”: {e}")
            self.reload()
            return
        if redo and not result.summary:
            result.summary = f"Redone: {step.text()}."
        result.advance = False
        self._after(step, result)

    def _after(self, step: ReviewStep, result: StepResult) -> None:
        touched = set(result.touched) | {step.document_id}
        if self.document_id in touched:
            self.row = self._workspace.get_document(self.document_id)
            self._refresh_spans(result.changed)
            focus = result.focus if result.focus is not None and self.span(result.focus) is not None else None
            if result.advance:
                self._advance_from(focus)
            else:
                self.current_id = focus_after_replay(self.spans, focus, self.current_id)
                self.current_changed.emit(self.current_id if self.current_id is not None else -1)
        self.documents_changed.emit(sorted(touched))
        if result.summary:
            self.message.emit(result.summary)
