"""Importing in the review window: files and folders read on a worker thread, stored on
the GUI thread, counted for the status bar (``core/usecases/importing.py`` plans and
counts), then handed to detection."""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

from ..core.errors import DeidError
from ..core.usecases.importing import ImportTally, apply_manifest
from . import file_dialogs
from .errors import show_error
from .workers import ImportWorker, start_in_thread


class ImportFlow:
    """Part of :class:`~deid_desktop.gui.main_window.MainWindow` (a mixin: it uses the
    window's widgets, controller and workspace)."""

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
        try:
            doc_id = self._tally.store(self.workspace, item, doc)
        except DeidError as e:
            self._on_file_failed(item, getattr(e, "code", "unreadable"), str(e))
            return
        self.queue_model.update_documents([doc_id])
        self._step_import()

    def _on_file_failed(self, item, code: str, reason: str) -> None:
        if item is None:
            show_error(self, "Import failed", reason)
            return
        doc_id = self._tally.record_failure(self.workspace, item, code, reason)
        self.queue_model.update_documents([doc_id])
        self._step_import()

    def _on_import_finished(self) -> None:
        _worker, thread = self._import
        thread.deleteLater()
        self._import = None
        tally = self._tally  # a queued import starts a tally of its own below
        self.show_message(tally.message())
        self.queue.refresh_subjects()
        self._hide_progress()
        if self._import_queue:
            paths, manifest = self._import_queue.pop(0)
            self.import_paths(paths, manifest)
        self.detect_documents(tally.to_detect)

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
