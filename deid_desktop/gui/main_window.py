"""The review window: queue on the left, document in the centre, findings on the right.

The window wires views to the review controller and runs background work (reading files,
detection); it holds no review rules itself.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Callable, Sequence

from PySide6.QtCore import Qt, QThread, QTimer, Signal
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QApplication,
    QDialog,
    QInputDialog,
    QLabel,
    QMainWindow,
    QMessageBox,
    QProgressBar,
    QPushButton,
)

from ..core.categories import CATEGORY_KEYS, Category
from ..core.errors import DeidError
from ..core.store import DecisionAction, DocStatus
from .detect_progress import DetectionProgress
from .detection import DetectorSettings, EnsembleProvider, detector_summary
from . import file_dialogs
from .errors import describe, show_error
from .across import AcrossDialog
from .export_dialog import ExportDialog, start_export_session
from .findings import FindingsDock
from .finishing import finish_document
from .never_flag import never_flag_asking
from .importing import apply_manifest
from .learning import build_model_menu
from .pane import DocumentPane
from .queue import DocumentQueueModel, QueueDock
from .refit import ReviewedRefit
from .review import ReviewController
from .room import DocumentRoom
from .settings import AppSettings, SettingsDialog
from .shortcuts import BY_ACTION, tooltip
from .unread_pages import accept_unread_page
from .shortcuts_help import shortcuts_dialog
from .toolbar import build_review_toolbar
from .workers import DetectionWorker, ImportWorker, start_in_thread

log = logging.getLogger(__name__)

NEEDS_REVIEW = (DocStatus.DETECTED, DocStatus.IN_REVIEW)


class ImportTally:
    def __init__(self) -> None:
        self.new = self.duplicates = self.failed = self.total = self.done = 0
        self.skipped = 0  # files in dropped folders that are not documents
        self.to_detect: list[int] = []


class MainWindow(QMainWindow):
    idle = Signal()  # no import or detection running or waiting

    def __init__(
        self,
        workspace,
        settings: AppSettings,
        *,
        ensemble_config: str | None = None,
        owns_workspace: bool = False,
        restore_layout: bool = True,
    ) -> None:
        super().__init__()
        self.setObjectName("mainWindow")
        self.workspace = workspace
        self.settings = settings
        start_export_session(settings)
        self._owns_workspace = owns_workspace
        self._closing = False  # set on close: results still queued start no new work
        self._ensemble_override = ensemble_config
        self.provider = EnsembleProvider(self._detector_settings())
        self.controller = ReviewController(workspace, settings.reviewer, self)
        self.refit = ReviewedRefit(self)

        self.queue_model = DocumentQueueModel(workspace)
        self.queue = QueueDock(self.queue_model, self, settings=settings)
        self.findings = FindingsDock(self)
        self.pane = DocumentPane(self)
        self.pane.text_view.setAcceptDrops(False)
        self.setCentralWidget(self.pane)
        self.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, self.queue)
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.findings)
        self.setAcceptDrops(True)

        self._build_status_bar()
        self.actions_by_id: dict[str, QAction] = {}
        self._build_actions()
        self._build_menus()
        self._connect()

        self._import: tuple[ImportWorker, QThread] | None = None
        self._import_queue: list[tuple[list[str], dict | None]] = []
        self._tally = ImportTally()
        self._detect: tuple[DetectionWorker, QThread, list[int]] | None = None
        self._pending_detect: list[int] = []
        self._probe_requested = False
        # Until the deferred start-up check has run, the window counts as busy, so a caller
        # waiting for "idle" does not slip in before detection of leftovers begins.
        self._starting = True
        self.export_dialog: ExportDialog | None = None
        self.across_dialog: AcrossDialog | None = None

        self._update_title()
        self._update_reviewer_label()
        self.queue_model.refresh()
        self.resize(1280, 800)
        self.resizeDocks([self.queue, self.findings], [350, 390], Qt.Orientation.Horizontal)
        self.room = DocumentRoom(self, self.pane, [self.queue, self.findings])
        geometry, state = settings.window_state() if restore_layout else (None, None)
        if geometry:
            self.restoreGeometry(geometry)
        if state:
            self.restoreState(state)
        QTimer.singleShot(0, self._resume_pending_work)
        app = QApplication.instance()
        if app is not None:
            # Quitting the application (not only closing this window) must not destroy a
            # thread that is still detecting.
            app.aboutToQuit.connect(self._stop_background_work)

    # -- construction -----------------------------------------------------------------------
    def _detector_settings(self) -> DetectorSettings:
        return DetectorSettings(
            ensemble_config=self._ensemble_override or self.settings.ensemble_config or None,
            model_folder=self.settings.model_folder or None,
            workspace_path=str(self.workspace.path) if getattr(self.workspace, "path", None) else None,
        )

    def _build_status_bar(self) -> None:
        bar = self.statusBar()
        self.detector_label = QLabel("Detector: not loaded yet")
        self.detector_label.setObjectName("detectorLabel")
        self.detector_label.setToolTip("The detection models and the device they run on")
        self.progress = QProgressBar()
        self.progress.setObjectName("workProgress")
        self.progress.setMaximumWidth(220)
        self.progress.setTextVisible(True)
        self.progress.hide()
        self.detect_progress = DetectionProgress(self.progress)
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.setObjectName("cancelWork")
        self.cancel_button.setToolTip("Stop reading files and detecting; finished documents are kept")
        self.cancel_button.clicked.connect(self.cancel_background_work)
        self.cancel_button.hide()
        self.reviewer_label = QLabel()
        self.reviewer_label.setObjectName("reviewerLabel")
        self.reviewer_label.setToolTip("Recorded with every decision (File → Settings changes it)")
        bar.addPermanentWidget(self.progress)
        bar.addPermanentWidget(self.cancel_button)
        bar.addPermanentWidget(self.reviewer_label)
        bar.addPermanentWidget(self.detector_label)

    def _handlers(self) -> dict[str, Callable[[], None]]:
        c = self.controller
        h: dict[str, Callable[[], None]] = {
            "accept": c.accept,
            "reject": c.reject,
            "reject_never_flag": lambda: never_flag_asking(self, c),
            "reject_never_flag_subject": lambda: c.reject_and_never_flag("subject"),
            "next": c.next_finding,
            "previous": c.previous_finding,
            "next_document": lambda: self._open_neighbour(+1),
            "previous_document": lambda: self._open_neighbour(-1),
            "accept_remaining": lambda: c.accept_remaining(),
            "accept_remaining_category": lambda: c.accept_remaining(same_category=True),
            "accept_identical_document": lambda: c.decide_identical(DecisionAction.ACCEPT, "document"),
            "accept_identical_subject": lambda: c.decide_identical(DecisionAction.ACCEPT, "subject"),
            "reject_identical_document": lambda: c.decide_identical(DecisionAction.REJECT, "document"),
            "reject_identical_subject": lambda: c.decide_identical(DecisionAction.REJECT, "subject"),
            "review_across": self.open_across,
            "widen_start": lambda: c.resize("start", True),
            "shrink_start": lambda: c.resize("start", False),
            "widen_end": lambda: c.resize("end", True),
            "shrink_end": lambda: c.resize("end", False),
            "mark_reviewed": lambda: finish_document(self, c),
            "zoom_in": self.pane.zoom_in,
            "zoom_out": self.pane.zoom_out,
            "fit_width": self.pane.fit_width,
            "accept_unread_page": lambda: accept_unread_page(self),
            "open": self.open_files_dialog,
            "open_folder": self.open_folder_dialog,
            "export": self.open_export_dialog,
            "find_document": self._focus_filter,
            "mark_double_review": self.mark_double_review,
            "sample_double_review": self.open_sample_dialog,
            "adjudicate": self.open_adjudication,
            "agreement": self.open_agreement,
            "settings": self.open_settings,
            "shortcuts_help": self.show_shortcuts,
            "quit": self.close,
        }
        for key, cat in CATEGORY_KEYS.items():
            h[f"category_{key}"] = (lambda cat=cat: self.category_key(cat))
            h[f"always_flag_{key}"] = (lambda cat=cat: self.always_flag_key(cat))
        return h

    def _build_actions(self) -> None:
        for action_id, handler in self._handlers().items():
            spec = BY_ACTION[action_id]
            a = QAction(spec.label, self)
            a.setObjectName(f"action_{action_id}")
            a.setShortcuts([QKeySequence(k) for k in spec.keys])
            a.setToolTip(tooltip(action_id))
            a.setStatusTip(spec.help)
            a.triggered.connect(lambda _=False, handler=handler: self._guarded(handler))
            self.addAction(a)
            self.actions_by_id[action_id] = a
        stack = self.controller.undo_stack
        for action_id, make in (("undo", stack.createUndoAction), ("redo", stack.createRedoAction)):
            spec = BY_ACTION[action_id]
            a = make(self, spec.label.replace("&", ""))
            a.setObjectName(f"action_{action_id}")
            a.setShortcuts([QKeySequence(k) for k in spec.keys])
            a.setToolTip(tooltip(action_id))
            a.setStatusTip(spec.help)
            self.addAction(a)
            self.actions_by_id[action_id] = a
        self.manifest_action = QAction("Import subject &manifest…", self)
        self.manifest_action.setToolTip("Assign subjects from a CSV with the columns path,subject")
        self.manifest_action.triggered.connect(lambda: self._guarded(self.import_manifest_dialog))
        self.redetect_action = QAction("&Detect PHI again in this document", self)
        self.redetect_action.setToolTip("Run the detector again; decided findings are kept")
        self.redetect_action.triggered.connect(lambda: self.detect_documents([self.controller.document_id] if self.controller.document_id else []))

    def _build_menus(self) -> None:
        a = self.actions_by_id
        mb = self.menuBar()
        file = mb.addMenu("&File")
        for k in ("open", "open_folder"):
            file.addAction(a[k])
        file.addAction(self.manifest_action)
        file.addSeparator()
        file.addAction(a["export"])
        file.addSeparator()
        file.addAction(a["settings"])
        file.addSeparator()
        file.addAction(a["quit"])
        edit = mb.addMenu("&Edit")
        edit.addAction(a["undo"])
        edit.addAction(a["redo"])
        review = mb.addMenu("&Review")
        for k in ("accept", "reject", "reject_never_flag", "reject_never_flag_subject"):
            review.addAction(a[k])
        cats = review.addMenu("Relabel / add as")
        cats.setToolTipsVisible(True)
        for key in CATEGORY_KEYS:
            cats.addAction(a[f"category_{key}"])
        always = review.addMenu("Add and &always flag as")
        always.setToolTipsVisible(True)
        for key in CATEGORY_KEYS:
            always.addAction(a[f"always_flag_{key}"])
        review.addSeparator()
        for k in ("accept_remaining", "accept_remaining_category"):
            review.addAction(a[k])
        review.addSeparator()
        for k in ("accept_identical_document", "accept_identical_subject", "reject_identical_document", "reject_identical_subject"):
            review.addAction(a[k])
        review.addAction(a["review_across"])
        review.addSeparator()
        span = review.addMenu("Span &edges")
        for k in ("widen_start", "shrink_start", "widen_end", "shrink_end"):
            span.addAction(a[k])
        review.addSeparator()
        review.addAction(a["mark_reviewed"])
        review.addAction(self.redetect_action)
        review.addSeparator()
        for k in ("mark_double_review", "sample_double_review", "adjudicate"):
            review.addAction(a[k])
        nav = mb.addMenu("&Navigate")
        for k in ("next", "previous", "next_document", "previous_document", "find_document"):
            nav.addAction(a[k])
        view = mb.addMenu("&View")
        for k in ("zoom_in", "zoom_out", "fit_width", "accept_unread_page"):
            view.addAction(a[k])
        try:
            model = build_model_menu(self, lambda: self.workspace)
            model.addAction(a["agreement"])  # beside the accuracy figures
            mb.addMenu(model)
        except Exception as e:  # the review window must open even if that menu cannot
            log.error("the model menu could not be built (%s)", type(e).__name__)
        help_menu = mb.addMenu("&Help")
        help_menu.addAction(a["shortcuts_help"])
        about = help_menu.addAction("&About deid-desktop")
        about.triggered.connect(self._about)
        for m in (file, edit, review, nav, view, help_menu):
            m.setToolTipsVisible(True)

        self.toolbar = build_review_toolbar(self, a)
        self.addToolBar(Qt.ToolBarArea.TopToolBarArea, self.toolbar)

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

    # -- small helpers --------------------------------------------------------------------
    def show_message(self, text: str) -> None:
        self.statusBar().showMessage(text)

    def _guarded(self, fn: Callable[[], None]) -> None:
        """Run a user action; an error becomes a readable dialog, never a crash."""
        try:
            fn()
        except DeidError as e:
            show_error(self, "deid-desktop", str(e))
        except Exception as e:
            log.error("action failed (%s)", type(e).__name__)
            message, details = describe(e)
            show_error(self, "deid-desktop", message, details)

    def _update_title(self) -> None:
        name = Path(str(getattr(self.workspace, "path", "workspace"))).name
        self.setWindowTitle(f"deid-desktop — {name}")

    def _focus_filter(self) -> None:
        self.queue.show()
        self.queue.search.setFocus()
        self.queue.search.selectAll()

    def _about(self) -> None:
        QMessageBox.about(
            self,
            "About deid-desktop",
            "deid-desktop finds protected health information in clinical documents, lets you review every finding, "
            "and writes de-identified copies. Everything runs on this computer.",
        )

    # -- opening documents ---------------------------------------------------------------
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

    # -- two reviewers ------------------------------------------------------------------------
    def _update_reviewer_label(self) -> None:
        c = self.controller
        second = c.document_id is not None and self.workspace.review_pass_of(c.document_id, c.reviewer) == 2
        self.reviewer_label.setText(f"Reviewer: {c.reviewer}" + (" · second review" if second else ""))

    def mark_double_review(self) -> None:
        doc_id = self.controller.document_id
        if doc_id is None:
            self.show_message("Open a document to mark it for double review.")
            return
        marked = self.workspace.mark_double_review([doc_id], marked_by=self.controller.reviewer)
        self.show_message("Marked for a second, independent review." if marked else "This document is already marked for double review.")
        self._update_reviewer_label()

    def open_sample_dialog(self) -> QInputDialog:
        dlg = QInputDialog(self)
        dlg.setObjectName("sampleDoubleReview")
        dlg.setWindowTitle("Sample for double review")
        dlg.setLabelText("Share of the queue to review twice (%):")
        dlg.setInputMode(QInputDialog.InputMode.IntInput)
        dlg.setIntRange(1, 100)
        dlg.setIntValue(10)
        dlg.intValueSelected.connect(self.sample_double_review)
        dlg.open()
        return dlg

    def sample_double_review(self, percent: int) -> None:
        marked = self.workspace.sample_double_review(percent, marked_by=self.controller.reviewer)
        self.show_message(f"{len(marked)} document(s) marked for a second, independent review.")

    def open_adjudication(self) -> QDialog:
        from .adjudication import AdjudicationWindow

        dlg = getattr(self, "adjudication_window", None)
        if dlg is None or not dlg.isVisible() or dlg.workspace is not self.workspace:
            dlg = AdjudicationWindow(self.workspace, self.controller.reviewer, self)
            dlg.resize(min(1200, self.width()), min(620, self.height()))
            self.adjudication_window = dlg
        else:
            dlg.adjudicator = self.controller.reviewer
            dlg.refresh()
        dlg.show()
        dlg.raise_()
        dlg.activateWindow()
        return dlg

    def open_agreement(self) -> QDialog:
        from .agreement import AgreementDialog

        dlg = AgreementDialog(self.workspace, self)
        dlg.resize(min(900, self.width()), min(480, self.height()))
        dlg.show()
        return dlg

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
        ids = self.queue.visible_ids()
        after = ids[ids.index(doc_id) + 1 :] + ids[: ids.index(doc_id)] if doc_id in ids else ids
        rows = {r.id: r for r in self.queue_model.rows}
        nxt = next((i for i in after if i in rows and DocStatus(rows[i].status) in NEEDS_REVIEW), None)
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

    # -- importing ---------------------------------------------------------------------
    def import_paths(self, paths: Sequence[str | Path], manifest: dict[str, str] | None = None) -> None:
        paths = [str(p) for p in paths]
        if not paths or self._closing:
            return
        if self._import is not None:
            self._import_queue.append((paths, manifest))
            return
        self._tally = ImportTally()
        worker = ImportWorker(paths, manifest)
        worker.planned.connect(self._on_import_planned)
        worker.skipped.connect(self._on_import_skipped)
        worker.loaded.connect(self._on_file_loaded)
        worker.failed_file.connect(self._on_file_failed)
        thread = start_in_thread(self, worker, self._on_import_finished)
        self._import = (worker, thread)
        self._show_progress("Reading files", 0)

    def _on_import_planned(self, n: int) -> None:
        self._tally.total = n
        self._show_progress("Reading files", n)

    def _on_import_skipped(self, n: int) -> None:
        self._tally.skipped += n

    def _step_import(self) -> None:
        self._tally.done += 1
        self.progress.setValue(self._tally.done)

    def _on_file_loaded(self, item, doc) -> None:
        t = self._tally
        try:
            res = self.workspace.import_document(doc, subject_label=item.subject, source_path=str(item.path))
        except DeidError as e:
            self._on_file_failed(item, getattr(e, "code", "unreadable"), str(e))
            return
        if res.status == "duplicate":
            t.duplicates += 1
            if DocStatus(self.workspace.get_document(res.document_id).status) == DocStatus.IMPORTED:
                t.to_detect.append(res.document_id)
        else:
            t.new += 1
            t.to_detect.append(res.document_id)
        self.queue_model.update_documents([res.document_id])
        self._step_import()

    def _on_file_failed(self, item, code: str, reason: str) -> None:
        if item is None:
            show_error(self, "Import failed", reason)
            return
        self._tally.failed += 1
        doc_id = self.workspace.record_import_error(str(item.path), code, reason)
        if item.subject:
            self.workspace.assign_subject(doc_id, item.subject)
        self.queue_model.update_documents([doc_id])
        self._step_import()

    def _on_import_finished(self) -> None:
        _worker, thread = self._import
        thread.deleteLater()
        self._import = None
        t = self._tally
        parts = [f"Imported {t.new} new document(s)"]
        if t.duplicates:
            parts.append(f"{t.duplicates} already in the workspace")
        if t.failed:
            parts.append(f"{t.failed} could not be read (marked “error” in the queue; hover for the reason)")
        if t.skipped:
            parts.append(f"{t.skipped} other file{'s' if t.skipped != 1 else ''} skipped (only .txt, .docx and .pdf files in folders are read)")
        self.show_message("; ".join(parts) + ".")
        self.queue.refresh_subjects()
        self._hide_progress()
        if self._import_queue:
            paths, manifest = self._import_queue.pop(0)
            self.import_paths(paths, manifest)
        self.detect_documents(t.to_detect)

    # -- detection ------------------------------------------------------------------------
    def detect_documents(self, ids: Sequence[int]) -> None:
        for i in ids:
            if i not in self._pending_detect:
                self._pending_detect.append(i)
        self._start_detection()

    def refresh_after_model_change(self) -> None:
        """Rebuild the detector (a model was trained or activated, or settings changed)."""
        self.provider.reset(self._detector_settings())
        self.detector_label.setText("Detector: reloading…")
        self._probe_requested = True
        self._start_detection()

    def _resume_pending_work(self) -> None:
        # Documents imported in an earlier session whose detection never finished.
        ids = [r.id for r in self.workspace.list_documents(status=DocStatus.IMPORTED)]
        self._starting = False
        self._probe_requested = not ids
        self.detect_documents(ids)
        self._check_idle()

    def _start_detection(self) -> None:
        if self._closing or self._detect is not None or self._import is not None:
            return
        if not self._pending_detect and not self._probe_requested:
            self._check_idle()
            return
        ids, self._pending_detect = self._pending_detect, []
        self._probe_requested = False
        worker = DetectionWorker(self.provider, self.workspace, ids)
        worker.ready.connect(self._on_detector_ready)
        worker.document_started.connect(self._on_detect_started)
        worker.member_started.connect(self._on_member_started)
        worker.document_progress.connect(self._on_detect_progress)
        worker.document_done.connect(self._on_detected)
        worker.document_failed.connect(self._on_detect_failed)
        worker.failed.connect(self._on_detector_failed)
        worker.summary.connect(self._on_detection_summary)
        thread = start_in_thread(self, worker, self._on_detection_thread_finished)
        self._detect = (worker, thread, ids)
        self._show_progress("Loading the detector", 0 if not self.provider.built else len(ids))

    def _on_detector_ready(self, ensemble) -> None:
        self.detector_label.setText(detector_summary(ensemble))
        ids = self._detect[2] if self._detect else []
        if ids:
            self._show_progress("Detecting PHI", len(ids))
            self.detect_progress.start(len(ids))

    def _on_detect_started(self, doc_id: int, index: int, total: int) -> None:
        self.detect_progress.document(index, total)
        row = next((r for r in self.queue_model.rows if r.id == doc_id), None)
        if row is not None:
            self.show_message(f"Detecting PHI in {row.name} ({index + 1} of {total})…")

    def _on_member_started(self, doc_id: int, member: str) -> None:
        self.detect_progress.member_started(member)

    def _on_detect_progress(self, doc_id: int, share: float) -> None:
        self.detect_progress.fraction(share)

    def _on_detected(self, doc_id: int, _n_spans: int) -> None:
        self.queue_model.update_documents([doc_id])
        self.detect_progress.document_done()
        if self.controller.document_id is None and not self._closing:
            # The first document ready is opened at once, its first finding selected, rather
            # than leaving an empty pane above a queue of detected documents.
            self.open_document(doc_id)
            return
        if doc_id == self.controller.document_id:
            if DocStatus(self.workspace.get_document(doc_id).status) == DocStatus.DETECTED:
                self.workspace.set_status(doc_id, DocStatus.IN_REVIEW)
                self.queue_model.update_documents([doc_id])
            self.controller.reload()

    def _on_detect_failed(self, doc_id: int, message: str) -> None:
        self.show_message(message)

    def _on_detector_failed(self, message: str) -> None:
        self.detector_label.setText("Detector: not available")
        show_error(self, "Detection cannot run", message)

    def _on_detection_summary(self, cancelled: bool, seconds: float, n: int) -> None:
        ids = self._detect[2] if self._detect else []
        if ids:
            left = len(ids) - n
            if cancelled:
                self.show_message(f"Detection cancelled after {n} document(s); {left} still to detect (right-click → Detect PHI again).")
            else:
                self.show_message(f"Detected PHI in {n} document(s) in {seconds:.1f} s.")

    def _on_detection_thread_finished(self) -> None:
        if self._detect is not None:
            self._detect[1].deleteLater()
        self._detect = None
        self._hide_progress()
        self._start_detection()

    # -- background state ---------------------------------------------------------------
    @property
    def busy(self) -> bool:
        return (
            self._starting
            or self._import is not None
            or self._detect is not None
            or bool(self._pending_detect)
            or bool(self._import_queue)
            or self._probe_requested
        )

    def _check_idle(self) -> None:
        if not self.busy:
            self.idle.emit()

    def run_when_idle(self, fn: Callable[[], None]) -> None:
        """Call ``fn`` once no import or detection is running or waiting."""
        if not self.busy:
            QTimer.singleShot(0, fn)
            return

        def once() -> None:
            self.idle.disconnect(once)
            fn()

        self.idle.connect(once)

    def cancel_background_work(self) -> None:
        self._import_queue.clear()
        self._pending_detect.clear()
        if self._import is not None:
            self._import[0].cancel()
        if self._detect is not None:
            self._detect[0].cancel()
        self.show_message("Cancelling…")

    def _show_progress(self, what: str, total: int) -> None:
        self.progress.setRange(0, total)
        self.progress.setValue(0)
        self.progress.setFormat(f"{what}: %v / %m" if total else f"{what}…")
        self.progress.show()
        self.cancel_button.show()

    def _hide_progress(self) -> None:
        if self._import is None and self._detect is None:
            self.progress.hide()
            self.cancel_button.hide()

    # -- dialogs ------------------------------------------------------------------------
    def open_files_dialog(self) -> None:
        files = file_dialogs.open_file_names(self, "Import documents", "", "Documents (*.txt *.docx *.pdf);;All files (*)")
        self.import_paths(files)

    def open_folder_dialog(self) -> None:
        folder = file_dialogs.existing_directory(self, "Import a folder (one subfolder per subject)")
        if folder:
            self.import_paths([folder])

    def import_manifest_dialog(self) -> None:
        path = file_dialogs.open_file_name(self, "Subject manifest", "", "CSV (*.csv)")
        if path:
            self.apply_manifest(path)

    def apply_manifest(self, path: str | Path) -> None:
        assigned, unmatched = apply_manifest(self.workspace, path)
        self.queue_model.refresh()
        self._on_subjects_changed()
        note = f"; {unmatched} manifest row(s) matched no document" if unmatched else ""
        self.show_message(f"Assigned subjects to {assigned} document(s){note}.")

    def open_export_dialog(self) -> ExportDialog:
        if self.export_dialog is not None and self.export_dialog.running:
            self.export_dialog.raise_()
            return self.export_dialog
        dlg = ExportDialog(
            self.workspace,
            self.provider,
            self.settings,
            current_id=self.controller.document_id,
            selected_ids=self.queue.selected_ids(),
            parent=self,
        )
        dlg.documents_changed.connect(self._on_exported)
        self.export_dialog = dlg
        dlg.setWindowModality(Qt.WindowModality.WindowModal)
        dlg.show()
        return dlg

    def _offer_reexport(self, ids: list) -> None:
        """A decision changed a document already exported: say so, and how to write it again."""
        stale = [r for r in self.queue_model.rows if r.id in ids and self.queue_model.is_changed_since_export(r)]
        if stale:
            what = stale[0].name if len(stale) == 1 else f"{len(stale)} documents"
            self.show_message(f"{what} changed since export; the exported copy is out of date — Ctrl+E exports it again.")

    def _on_exported(self, ids: list) -> None:
        self.queue_model.update_documents(ids)
        if self.controller.document_id in ids:
            self.controller.row = self.workspace.get_document(self.controller.document_id)

    def open_settings(self) -> SettingsDialog:
        dlg = SettingsDialog(self.settings, self, open_workspace=str(getattr(self.workspace, "path", "") or "") or None)
        dlg.accepted.connect(lambda: self._apply_settings(dlg))
        dlg.setWindowModality(Qt.WindowModality.WindowModal)
        dlg.show()
        return dlg

    def _apply_settings(self, dlg: SettingsDialog) -> None:
        change = dlg.change
        if change.reviewer:
            self.controller.reviewer = self.settings.reviewer
            self.controller.reload()  # a second reviewer sees their own review of the open document
            self._update_reviewer_label()
        if change.workspace:
            self.switch_workspace(self.settings.workspace_path)
        elif change.detector:
            self.refresh_after_model_change()
        self.show_message("Settings saved.")

    def switch_workspace(self, path: str | Path) -> bool:
        from ..core.store import Workspace

        if self.busy:
            self.cancel_background_work()
            self._wait_for_threads(10_000)
        self.refit.wait(10_000)  # it reads and writes the workspace about to be closed
        try:
            new = Workspace.open(path)
        except DeidError as e:
            show_error(self, "Cannot open the workspace", str(e))
            return False
        self.refit.forget_pending()
        old, owned = self.workspace, self._owns_workspace
        self.workspace, self._owns_workspace = new, True
        self.controller.set_workspace(new)
        self.queue_model.set_workspace(new)
        if owned:
            old.close()
        self._update_title()
        self.provider.reset(self._detector_settings())
        self._resume_pending_work()
        return True

    def open_across(self) -> AcrossDialog:
        """Review → Findings across documents; one list, kept with its filters between uses."""
        if self.across_dialog is None:
            self.across_dialog = AcrossDialog(self)
        self.across_dialog.show()
        self.across_dialog.raise_()
        self.across_dialog.activateWindow()
        return self.across_dialog

    def show_shortcuts(self) -> QDialog:
        dlg = shortcuts_dialog(self)
        dlg.show()
        self.shortcuts_dialog = dlg
        return dlg

    # -- drag and drop --------------------------------------------------------------------
    def dragEnterEvent(self, event) -> None:
        if event.mimeData().hasUrls() and any(u.isLocalFile() for u in event.mimeData().urls()):
            event.acceptProposedAction()
        else:
            event.ignore()

    def dragMoveEvent(self, event) -> None:
        self.dragEnterEvent(event)

    def dropEvent(self, event) -> None:
        paths = [u.toLocalFile() for u in event.mimeData().urls() if u.isLocalFile()]
        if paths:
            event.acceptProposedAction()
            self.import_paths(paths)

    # -- closing --------------------------------------------------------------------------
    def _wait_for_threads(self, ms: int) -> None:
        for job in (self._import, self._detect):
            if job is not None:
                job[1].quit()
                job[1].wait(ms)
        self.refit.wait(ms)

    def _stop_background_work(self) -> None:
        self.cancel_background_work()
        if self.export_dialog is not None and self.export_dialog.running:
            self.export_dialog.cancel()
            self.export_dialog.wait(30_000)
        self._wait_for_threads(30_000)

    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt name)
        super().resizeEvent(event)
        self._make_room()

    def showEvent(self, event) -> None:  # noqa: N802 (Qt name)
        super().showEvent(event)
        self._make_room()

    def _make_room(self) -> None:
        # the side panels give way first (room.py); none yet while __init__ sizes the window
        room = getattr(self, "room", None)
        if room is not None:
            room.schedule()

    def closeEvent(self, event) -> None:
        self._closing = True
        self.refit.shutdown(30_000)
        self._stop_background_work()
        self.settings.save_window_state(bytes(self.saveGeometry().data()), bytes(self.saveState().data()))
        if self._owns_workspace:
            self.workspace.close()
        super().closeEvent(event)
