"""The review actions' adapter to Qt: the open document, the selection, signals and the
undo stack — no widgets, and no review rules.

The views call a :class:`ReviewController` with the reviewer's intent ("accept the selected
finding", "add this selection as a NAME") and redraw when it signals a change. What an
action does to the workspace, and how it is undone, is a command of
``core/usecases/review.py``; the controller picks the command from the selection, runs it
once and pushes it on a ``QUndoStack`` as one step (undo appends UNDO decisions, redo
decides again with fresh decisions).

The controller is put together from parts, one concern each: the selection and J / K
(``review_selection.py``), the never / always flag actions (``flagging.py``) and the undo
stack's steps (``review_steps.py``); this module keeps the signals, the open document and
the actions that decide findings.
"""

from __future__ import annotations

from typing import Callable

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoStack

from ..core.categories import Category
from ..core.store import DecisionAction, DocStatus
from ..core.usecases.review import (
    DecideIdentical,
    Edge,
    MarkReviewed,
    Scope,
    accept_intent,
    accept_remaining,
    begin_review,
    first_to_show,
    identical_documents,
    mark_intent,
    refresh_in_place,
    reject_intent,
    relabel_intent,
    resize_intent,
    selection_extent,
    span_order,
)
from .flagging import TermFlagging
from .palette import CATEGORY_LABELS
from .review_selection import ReviewSelection
from .review_steps import ReviewSteps


class ReviewController(ReviewSelection, TermFlagging, ReviewSteps, QObject):
    """The open document, its findings and the review actions; the selection, the never /
    always flag actions and the undo stack are its parts (``review_selection``,
    ``flagging``, ``review_steps``)."""

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
        first = first_to_show(self.spans)
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
            fresh = [s for s in self._workspace.get_spans(changed, reviewer=self.reviewer) if s.document_id == self.document_id] if changed else []
            moved = refresh_in_place(self.spans, fresh, changed)
            if moved:
                self.spans_changed.emit()
            elif moved is not None and fresh:
                self.spans_updated.emit([s.id for s in fresh])
            if moved is not None:
                return
        self._load_spans()
        self.spans_changed.emit()

    def _load_spans(self) -> None:
        if self.document_id is None or (self.row is not None and self.row.status == DocStatus.ERROR):
            self.spans = []
            return
        self.spans = sorted(self._workspace.list_spans(self.document_id, reviewer=self.reviewer), key=span_order)

    # -- single-finding actions ----------------------------------------------------------

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
