"""Detection in the review window: the queue of documents waiting for the detector, the
worker that runs ``core/usecases/detection.py`` on its thread, progress, and when the window
is idle."""

from __future__ import annotations

from typing import Callable, Sequence

from PySide6.QtCore import QTimer

from ..core.store import DocStatus
from ..core.usecases.detection import detector_summary
from .errors import show_error
from .workers import DetectionWorker, start_in_thread


class DetectionFlow:
    """Part of :class:`~deid_desktop.gui.main_window.MainWindow` (a mixin: it uses the
    window's widgets, controller and workspace)."""

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
        self.maybe_build_models(ensemble)  # window_model_build: only with gui --build-models
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
            self.controller.reload()  # starts its review too (core/usecases/review.begin_review)

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

    def _wait_for_threads(self, ms: int) -> None:
        for job in (self._import, self._detect):
            if job is not None:
                job[1].quit()
                job[1].wait(ms)
        self.refit.wait(ms)

    def _stop_background_work(self) -> None:
        self.stop_model_build()
        self.cancel_background_work()
        if self.export_dialog is not None and self.export_dialog.running:
            self.export_dialog.cancel()
            self.export_dialog.wait(30_000)
        self._wait_for_threads(30_000)
