"""The review actions' adapter to Qt: the open document, the selection, signals and the
undo stack — no widgets, and no review rules.

The views call a :class:`ReviewController` with the reviewer's intent ("accept the selected
finding", "add this selection as a NAME") and redraw when it signals a change. What an
action does to the workspace, and how it is undone, is a command of
``core/usecases/review.py``; the controller picks the command from the selection, runs it
once and pushes it on a ``QUndoStack`` as one step (undo appends UNDO decisions, redo
decides again with fresh decisions).
"""

from __future__ import annotations

from typing import Callable

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoCommand, QUndoStack

from ..core.categories import Category, normalise_fine
from ..core.errors import DeidError
from ..core.store import DecisionAction, DocStatus
from ..core.usecases.review import (
    PHI_STATES,
    DecideIdentical,
    Edge,
    MarkReviewed,
    ReviewCommand,
    Scope,
    StepResult,
    accept_intent,
    accept_remaining,
    begin_review,
    identical_documents,
    mark_intent,
    next_undecided,
    overlaps,
    reject_intent,
    relabel_intent,
    resize_intent,
    selection_extent,
    span_at,
    span_order,
)
from ..core.usecases.terms import TermChange, TermScope, term_change
from .flagging import TermListStep
from .palette import CATEGORY_LABELS



# -- undo steps ---------------------------------------------------------------------------


class ReviewStep(QUndoCommand):
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
        self._skip_first_redo = True

    def redo(self) -> None:
        if self._skip_first_redo:
            self._skip_first_redo = False
            return
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


# -- the controller -----------------------------------------------------------------------


class ReviewController(QObject):
    """The open document, its findings, the selected finding and the review actions."""

    document_opened = Signal(int)  # document id, or -1 when none is open
    spans_changed = Signal()  # the open document's findings were re-read: redraw them all
    spans_updated = Signal(list)  # span ids whose state or category changed in place (same order)
    current_changed = Signal(int)  # span id, or -1
    documents_changed = Signal(list)  # ids whose status or counts changed
    document_reviewed = Signal(int)
    message = Signal(str)
    terms_changed = Signal()  # the allow or deny list changed: detection must pick it up

    def __init__(self, workspace, reviewer: str = "reviewer", parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._workspace = workspace
        self.reviewer = reviewer or "reviewer"
        self.undo_stack = QUndoStack(self)
        self.document_id: int | None = None
        self.document = None  # core Document of the open document (text, segments, source bytes)
        self.row = None  # DocumentRow
        self.text = ""
        self.spans: list = []  # SpanRow, sorted by position
        self.current_id: int | None = None

    # -- workspace and document ---------------------------------------------------------

    @property
    def workspace(self):
        return self._workspace

    def set_workspace(self, workspace) -> None:
        self.undo_stack.clear()
        self._workspace = workspace
        self.close_document()

    def close_document(self) -> None:
        self.document_id, self.document, self.row, self.text = None, None, None, ""
        self.spans, self.current_id = [], None
        self.document_opened.emit(-1)
        self.spans_changed.emit()
        self.current_changed.emit(-1)

    def open_document(self, document_id: int) -> None:
        ws = self._workspace
        row = ws.get_document(document_id)
        self.document_id, self.row = document_id, row
        if row.status == DocStatus.ERROR:
            self.document, self.text = None, ""
        else:
            self.document = ws.load_document(document_id)
            self.text = self.document.text
        self._begin_review()
        self._load_spans()
        first = next((s for s in self.spans if s.state == "undecided"), self.spans[0] if self.spans else None)
        self.current_id = first.id if first else None
        self.document_opened.emit(document_id)
        self.spans_changed.emit()
        self.current_changed.emit(self.current_id if self.current_id is not None else -1)

    def _begin_review(self) -> None:
        """An open detected document is in review (also when detection finishes while it is
        open): the status changes in core, the queue hears of it here."""
        if self.document_id is not None and begin_review(self._workspace, self.document_id):
            self.row = self._workspace.get_document(self.document_id)
            self.documents_changed.emit([self.document_id])

    def reload(self) -> None:
        """Re-read the open document's findings (after detection saved new ones)."""
        if self.document_id is None:
            return
        self.row = self._workspace.get_document(self.document_id)
        self._begin_review()
        self._load_spans()
        if self.current_id is not None and self.span(self.current_id) is None:
            self.current_id = self.spans[0].id if self.spans else None
        self.spans_changed.emit()
        self.current_changed.emit(self.current_id if self.current_id is not None else -1)

    def _refresh_spans(self, changed: frozenset[int] | None) -> None:
        """Re-read the findings an action changed and tell the views. Only ``changed`` when
        they are all still there with their extents (a decision's usual case); everything
        when the action added, removed or moved findings, or did not say what it changed."""
        if changed is not None:
            index = {s.id: i for i, s in enumerate(self.spans)} if changed else {}
            fresh = [s for s in self._workspace.get_spans(changed, reviewer=self.reviewer) if s.document_id == self.document_id] if changed else []
            if len(fresh) == len(changed) and all(s.id in index for s in fresh):
                moved = False
                for s in fresh:
                    old = self.spans[index[s.id]]
                    moved = moved or (old.start, old.end) != (s.start, s.end)
                    self.spans[index[s.id]] = s
                if moved:
                    self.spans.sort(key=span_order)
                    self.spans_changed.emit()
                elif fresh:
                    self.spans_updated.emit([s.id for s in fresh])
                return
        self._load_spans()
        self.spans_changed.emit()

    def _load_spans(self) -> None:
        if self.document_id is None or (self.row is not None and self.row.status == DocStatus.ERROR):
            self.spans = []
            return
        self.spans = sorted(self._workspace.list_spans(self.document_id, reviewer=self.reviewer), key=span_order)

    # -- selection and navigation ---------------------------------------------------------

    @property
    def current(self):
        return self.span(self.current_id) if self.current_id is not None else None

    def span(self, span_id: int):
        return next((s for s in self.spans if s.id == span_id), None)

    def select(self, span_id: int | None) -> None:
        if span_id is not None and self.span(span_id) is None:
            return
        if span_id == self.current_id:
            return
        self.current_id = span_id
        self.current_changed.emit(span_id if span_id is not None else -1)

    def span_at(self, position: int):
        """The finding under a character position (``core.usecases.review.span_at``)."""
        return span_at(self.spans, position)

    def next_finding(self) -> None:
        self._step_selection(+1)

    def previous_finding(self) -> None:
        self._step_selection(-1)

    def _step_selection(self, direction: int) -> None:
        if not self.spans:
            self.message.emit("This document has no findings.")
            return
        ids = [s.id for s in self.spans]
        if self.current_id not in ids:
            self.select(ids[0] if direction > 0 else ids[-1])
            return
        i = ids.index(self.current_id) + direction
        if 0 <= i < len(ids):
            self.select(ids[i])
        else:
            self.message.emit("Last finding of this document." if direction > 0 else "First finding of this document.")

    def _advance_from(self, span_id: int | None) -> None:
        """After a decision: the next undecided finding below, else the first one above."""
        ref = self.span(span_id) if span_id is not None else None
        target = next_undecided(self.spans, ref)
        if target is None:
            if ref is not None:
                self.select(span_id)
            self.message.emit("Every finding in this document is decided — Ctrl+Enter marks it reviewed.")
            return
        self.select(target.id)

    # -- single-finding actions ----------------------------------------------------------

    def _require_current(self):
        cur = self.current
        if cur is None:
            self.message.emit("Select a finding first (J / K move through them).")
        return cur

    def accept(self) -> None:
        self._on_current(lambda cur: accept_intent(self.document_id, self.reviewer, cur), moves_on=True)

    def reject(self) -> None:
        self._on_current(lambda cur: reject_intent(self.document_id, self.reviewer, cur), moves_on=True)

    def relabel(self, category: Category) -> None:
        self._on_current(lambda cur: relabel_intent(self.document_id, self.reviewer, cur, category))

    def resize(self, edge: Edge, grow: bool) -> None:
        self._on_current(lambda cur: resize_intent(self.document_id, self.reviewer, self.text, cur, edge, grow))

    def _on_current(self, intent_for: Callable, *, moves_on: bool = False) -> None:
        """Run what a key means for the selected finding (``core.usecases.review``); where
        there is nothing to decide, an accept or reject key still moves on and a category
        or edge key says why."""
        cur = self._require_current()
        if cur is None:
            return
        intent = intent_for(cur)
        if intent.command is not None:
            self._run(intent.label, intent.command)
        elif moves_on:
            self._advance_from(cur.id)
        else:
            self.message.emit(intent.label)

    def mark_span(self, start: int, end: int, category: Category) -> None:
        """The reviewer selected text and pressed a category key: add it as a span, or — when
        it overlaps findings — make the first of them exactly this extent and category and
        reject the others, as one step."""
        extent = self._selection_extent(start, end, category)
        if extent is not None:
            self._mark_extent(extent[0], extent[1], category)

    def _selection_extent(self, start: int, end: int, category: Category) -> tuple[int, int] | None:
        """The selection snapped to whole words; None (and a hint) when nothing is selected."""
        if self.document_id is None:
            return None
        extent = selection_extent(self.text, start, end, category)
        if extent is None:
            self.message.emit("Select some text first, then press a category key (1–8).")
        return extent

    def _mark_extent(self, start: int, end: int, category: Category) -> None:
        exact = next((s for s in self.spans if s.start == start and s.end == end), None)
        if exact is not None:
            self.select(exact.id)
            self.relabel(category)
            return
        intent = mark_intent(self.document_id, self.reviewer, self.spans, start, end, category)
        self._run(intent.label, intent.command)

    # -- never flag / always flag -----------------------------------------------------------

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

    # -- bulk actions ---------------------------------------------------------------------

    def accept_remaining(self, *, same_category: bool = False) -> None:
        if self.document_id is None:
            return
        category = None
        if same_category:
            cur = self._require_current()
            if cur is None:
                return
            category = cur.category
        command = accept_remaining(self.document_id, self.reviewer, self.spans, self.current_id, category)
        n = len(command.targets(self._workspace))
        what = f"remaining {CATEGORY_LABELS[category]} findings" if category else "remaining findings"
        if not n:
            self.message.emit(f"No undecided {what.removeprefix('remaining ')} in this document.")
            return
        self._run(f"Accept {n} {what}", command)

    def decide_identical(self, action: DecisionAction, scope: Scope) -> None:
        """Apply the selected finding's decision to every identical string in the document
        or in all documents of its subject, as one undoable step with one batch id."""
        cur = self._require_current()
        if cur is None or self.row is None:
            return
        if action not in (DecisionAction.ACCEPT, DecisionAction.REJECT):
            raise ValueError("identical-string decisions are accept or reject")
        subject_id = self.row.subject_id
        if scope == "subject" and subject_id is None:
            self.message.emit("This document has no subject; applying to this document only.")
            scope = "document"
        doc_ids = identical_documents(self._workspace, self.document_id, subject_id, scope)
        where = "this document" if scope == "document" else f"{len(doc_ids)} document(s) of this subject"
        command = DecideIdentical(
            self.document_id, self.reviewer, doc_ids, self.text[cur.start : cur.end], action,
            cur.category, cur.fine, cur.id, where, open_text=self.text,
        )
        self._run(f"{command.verb[:-2]} all identical ({scope})", command, nothing=f"Nothing to change: every identical occurrence is already {command.verb.lower()}.")

    def undecided_count(self) -> int:
        return sum(1 for s in self.spans if s.state == "undecided")

    def select_first_undecided(self) -> None:
        """Go to the first undecided finding, with a reminder of the keys that decide it."""
        first = next((s for s in self.spans if s.state == "undecided"), None)
        if first is None:
            return
        self.select(first.id)
        n = self.undecided_count()
        self.message.emit(f"{n:,} finding(s) to decide: A accepts, R rejects, J / K move; Ctrl+Enter when done.")

    def mark_reviewed(self) -> None:
        doc_id = self.document_id
        if self._mark_reviewed_step():
            self.document_reviewed.emit(doc_id)

    def accept_remaining_and_mark_reviewed(self) -> None:
        """Accept every undecided finding and mark the document reviewed: one undo step, and
        the acceptances are ordinary decisions in the log (one batch)."""
        doc_id, n = self.document_id, self.undecided_count()
        if doc_id is None:
            return
        self.undo_stack.beginMacro(f"Accept {n} remaining findings and mark reviewed")
        try:
            self.accept_remaining()
            reviewed = self._mark_reviewed_step()
        finally:
            self.undo_stack.endMacro()
        if reviewed:
            self.message.emit(f"Accepted {n:,} undecided finding(s) and marked the document reviewed.")
            self.document_reviewed.emit(doc_id)

    def _mark_reviewed_step(self) -> bool:
        if self.document_id is None or self.row is None:
            return False
        if self.row.status == DocStatus.ERROR:
            self.message.emit("This file could not be imported; there is nothing to review.")
            return False
        command = MarkReviewed(self.document_id, self.reviewer, DocStatus(self.row.status), self.undecided_count(), self.current_id)
        return self._run("Mark document reviewed", command)

    # -- running and replaying steps --------------------------------------------------------

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
                if focus is None and self.current_id is not None and self.span(self.current_id) is None:
                    focus = self.spans[0].id if self.spans else None
                self.current_id = focus if focus is not None else self.current_id
                self.current_changed.emit(self.current_id if self.current_id is not None else -1)
        self.documents_changed.emit(sorted(touched))
        if result.summary:
            self.message.emit(result.summary)
