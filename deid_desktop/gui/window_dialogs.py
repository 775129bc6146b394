"""The dialogs the review window opens (export, settings, findings across documents,
shortcuts, double review, adjudication, agreement) and what their answers change."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog, QInputDialog

from ..core.errors import DeidError
from .errors import show_error
from .across import AcrossDialog
from .export_dialog import ExportDialog
from .settings import SettingsDialog
from .shortcuts_help import shortcuts_dialog


class WindowDialogs:
    """Part of :class:`~deid_desktop.gui.main_window.MainWindow` (a mixin: it uses the
    window's widgets, controller and workspace)."""

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
