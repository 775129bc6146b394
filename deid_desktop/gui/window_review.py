"""The review window's wiring between the review controller and the views: opening
documents, redrawing what a decision changed, category keys, what opens after "mark
reviewed". The rules themselves are in ``core/usecases``."""

from __future__ import annotations

from typing import Callable

from PySide6.QtCore import QTimer

from ..core.categories import Category
from ..core.errors import DeidError
from ..core.store import DocStatus
from ..core.usecases.queue import next_to_review
from .errors import show_error
from .never_flag import never_flag_asking
from .unread_pages import accept_unread_page


class ReviewWiring:
    """Part of :class:`~deid_desktop.gui.main_window.MainWindow` (a mixin: it uses the
    window's widgets, controller and workspace)."""

    def _connect(self) -> None:
        c = self.controller
        c.document_opened.connect(self._on_document_opened)
        c.spans_changed.connect(self._on_spans_changed)
        c.spans_updated.connect(self._on_spans_updated)
        c.current_changed.connect(self._on_current_changed)
        c.documents_changed.connect(self.queue_model.update_documents)
        # After the step's own summary, which the controller reports once the queue is updated.
        c.documents_changed.connect(lambda ids: QTimer.singleShot(0, lambda: self._offer_reexport(ids)))
        c.message.connect(self.show_message)
        c.document_reviewed.connect(self._on_document_reviewed)
        c.terms_changed.connect(self.refresh_after_model_change)
        self.refit.refitted.connect(self._on_weights_refitted)
        self.refit.message.connect(self.show_message)
        self.queue.document_chosen.connect(self.open_document)
        self.queue.redetect_requested.connect(self.detect_documents)
        self.queue.documents_removed.connect(lambda ids: c.close_document() if c.document_id in ids else None)
        self.queue.subjects_changed.connect(self._on_subjects_changed)
        self.findings.finding_chosen.connect(c.select)
        self.findings.never_flag_requested.connect(lambda span_id: self._on_finding(span_id, lambda: never_flag_asking(self, c)))
        self.findings.never_flag_subject_requested.connect(lambda span_id: self._on_finding(span_id, lambda: c.reject_and_never_flag("subject")))
        self.findings.always_flag_requested.connect(lambda span_id: self._on_finding(span_id, c.always_flag_current))
        self.pane.text_view.span_clicked.connect(c.select)
        self.pane.pages_view.span_clicked.connect(c.select)
        self.pane.unread_notice.accept_requested.connect(lambda page: self._guarded(lambda: accept_unread_page(self, page)))

    def open_document(self, doc_id: int) -> None:
        if doc_id == self.controller.document_id:
            return
        try:
            self.controller.open_document(doc_id)
        except DeidError as e:
            show_error(self, "Cannot open the document", str(e))
            return
        row = self.controller.row
        if row is not None and row.status == DocStatus.ERROR:
            self.show_message(f"{row.name} could not be imported: {row.error_reason or row.error_code}")
        elif row is not None and row.status == DocStatus.IMPORTED:
            self.show_message(f"{row.name}: PHI detection has not run yet.")

    def _open_neighbour(self, step: int) -> None:
        target = self.queue.neighbour(self.controller.document_id, step)
        if target is None:
            self.show_message("No more documents in the queue." if step > 0 else "This is the first document.")
            return
        self.open_document(target)

    def _on_document_opened(self, doc_id: int) -> None:
        c = self.controller
        self.pane.set_document(c.row, c.document, c.text)
        if doc_id >= 0:
            self.queue.select_document(doc_id)
        self._update_reviewer_label()

    def _on_spans_changed(self) -> None:
        c = self.controller
        self.pane.set_spans(c.spans, c.span_at)
        self.findings.set_spans(c.spans, c.text)

    def _on_spans_updated(self, ids: list) -> None:
        c = self.controller
        changed = [s for s in (c.span(i) for i in ids) if s is not None]
        self.pane.update_spans(changed)
        self.findings.update_spans(changed, c.spans)

    def _on_current_changed(self, span_id: int) -> None:
        self.pane.set_current(span_id if span_id >= 0 else None)
        self.findings.select_span(span_id)

    def _on_document_reviewed(self, doc_id: int) -> None:
        # Every N reviewed documents (the workspace's learn.refit_every) the ensemble weights
        # are fitted again; the check and the fit run off the GUI thread.
        self.refit.after_review(self.workspace)
        rows = {r.id: r for r in self.queue_model.rows}
        nxt = next_to_review(self.queue.visible_ids(), {i: r.status for i, r in rows.items()}, doc_id)
        if nxt is not None:
            self.open_document(nxt)
            self.show_message(f"{rows[doc_id].name} marked reviewed; opened the next document to review.")
        else:
            self.show_message("Document marked reviewed. No document is waiting for review — File → Export when ready.")

    def _on_subjects_changed(self) -> None:
        if self.controller.document_id is not None:
            self.controller.row = self.workspace.get_document(self.controller.document_id)
            self.pane.set_document(self.controller.row, self.controller.document, self.controller.text)
            self._on_spans_changed()
            self._on_current_changed(self.controller.current_id if self.controller.current_id is not None else -1)

    def _on_weights_refitted(self, workspace, n_documents: int) -> None:
        if workspace is not self.workspace or self._closing:
            return  # the window switched workspaces, or closed, while the fit ran
        self.show_message(f"Ensemble weights re-fitted on {n_documents} reviewed documents.")
        self.refresh_after_model_change()

    def _on_finding(self, span_id: int, action: Callable[[], None]) -> None:
        """A findings-panel context-menu action on the row ``span_id``."""
        self.controller.select(span_id)
        if self.controller.current_id == span_id:
            self._guarded(action)

    def always_flag_key(self, category: Category) -> None:
        """Alt + a number key: like the number key alone, and the text joins the deny list."""
        if self.pane.tabs.currentIndex() == self.pane.TEXT_TAB:
            selected = self.pane.text_view.selected_range()
            if selected is not None:
                self.pane.text_view.clear_selection()
                self.controller.mark_span_and_always_flag(selected[0], selected[1], category)
                return
        self.controller.always_flag_current(category)

    def category_key(self, category: Category) -> None:
        """A number key: with text selected, mark it as ``category``; otherwise relabel the
        selected finding."""
        if self.pane.tabs.currentIndex() == self.pane.TEXT_TAB:
            selected = self.pane.text_view.selected_range()
            if selected is not None:
                self.pane.text_view.clear_selection()
                self.controller.mark_span(selected[0], selected[1], category)
                return
        self.controller.relabel(category)

    def _focus_filter(self) -> None:
        self.queue.show()
        self.queue.search.setFocus()
        self.queue.search.selectAll()
