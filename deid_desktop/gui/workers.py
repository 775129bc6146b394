"""Background work: reading files, detecting PHI, exporting.

Each worker is a QObject moved to its own QThread; it reports through queued signals and
never touches widgets. The workspace engine is shared across threads (WAL lets reads run
beside writes, and the workspace serialises writes): workers read documents, the detection
worker also stores its detections and the re-fit after a review (refit.py) its weights;
every other write happens on the GUI thread.
"""

from __future__ import annotations

import logging
import threading
import time
from pathlib import Path
from typing import Callable, Sequence

from PySide6.QtCore import QObject, Qt, QThread, Signal, Slot

from ..core.errors import DeidError, IngestError
from ..core.usecases.detection import DetectionCallbacks, RunNotRecorded, detect_documents, failure_text

log = logging.getLogger(__name__)


class Worker(QObject):
    finished = Signal()

    def __init__(self) -> None:
        super().__init__()
        self._stop = threading.Event()

    def cancel(self) -> None:
        self._stop.set()

    @property
    def cancelled(self) -> bool:
        return self._stop.is_set()


def start_in_thread(owner: QObject, worker: Worker, on_finished: Callable[[], None] | None = None) -> QThread:
    """Run ``worker.run`` on a new thread owned by ``owner``; the thread quits when the
    worker emits ``finished``, and ``on_finished`` runs on the GUI thread once it has ended.
    The caller keeps references to both until then."""
    thread = QThread(owner)
    worker.moveToThread(thread)
    thread.started.connect(worker.run)
    # Direct: QThread.quit is thread-safe, and a queued quit would only run once the GUI
    # thread's event loop turns, so a window waiting on the thread (closing, switching
    # workspaces) would wait out its whole timeout for work that had already ended.
    worker.finished.connect(thread.quit, Qt.ConnectionType.DirectConnection)
    # Connected before start: a short job can end before this function returns, and a
    # finished signal emitted before anyone listens is lost (the window then stays busy).
    if on_finished is not None:
        thread.finished.connect(on_finished)
    thread.start()
    return thread


class ImportWorker(Worker):
    """Plans the import of dropped paths and reads each file into a Document."""

    planned = Signal(int)  # number of files
    skipped = Signal(int)  # files in dropped folders that are not documents
    loaded = Signal(object, object)  # ImportItem, Document
    failed_file = Signal(object, str, str)  # ImportItem, error code, reason (PHI-free)

    def __init__(self, paths: Sequence[str | Path], manifest: dict[str, str] | None = None) -> None:
        super().__init__()
        self._paths = [Path(p) for p in paths]
        self._manifest = manifest

    @Slot()
    def run(self) -> None:
        from ..core.documents.ingest import load_document
        from ..core.usecases.importing import plan_import

        try:
            plan = plan_import(self._paths, self._manifest)
            if plan.skipped:
                self.skipped.emit(plan.skipped)
            self.planned.emit(len(plan.items))
            for item in plan.items:
                if self.cancelled:
                    break
                try:
                    doc = load_document(item.path)
                except IngestError as e:
                    self.failed_file.emit(item, e.code, e.reason)
                except DeidError as e:
                    self.failed_file.emit(item, "unreadable", str(e))
                except Exception as e:  # one broken file must not stop the batch
                    log.error("reading %s failed (%s)", item.path.name, type(e).__name__)
                    self.failed_file.emit(item, "internal", f"internal error while reading ({type(e).__name__})")
                else:
                    self.loaded.emit(item, doc)
        except Exception as e:
            log.error("import planning failed (%s)", type(e).__name__)
            self.failed_file.emit(None, "internal", failure_text(e, "import"))
        finally:
            self.finished.emit()


class DetectionWorker(Worker):
    """Builds (or reuses) the ensemble and runs the detection use case
    (``core/usecases/detection.py``) on this thread, its progress as signals.

    Saving a few thousand spans takes a noticeable moment, so it happens here rather than on
    the GUI thread; the workspace serialises it with the reviewer's decisions."""

    ready = Signal(object)  # the ensemble
    member_started = Signal(int, str)  # document id, member name
    document_started = Signal(int, int, int)  # document id, index (0-based), total
    document_progress = Signal(int, float)  # document id, share of it detected (0-1)
    document_done = Signal(int, int)  # document id, number of spans stored
    document_failed = Signal(int, str)
    failed = Signal(str)
    summary = Signal(bool, float, int)  # cancelled, seconds, documents detected

    def __init__(self, provider, workspace, document_ids: Sequence[int]) -> None:
        super().__init__()
        self._provider = provider
        self._workspace = workspace
        self._ids = list(document_ids)

    @Slot()
    def run(self) -> None:
        t0, done = time.perf_counter(), 0
        try:
            try:
                ensemble = self._provider.get()
            except Exception as e:
                log.error("building the detector failed (%s)", type(e).__name__)
                self.failed.emit(failure_text(e, "cannot build the detector"))
                return
            self.ready.emit(ensemble)
            callbacks = DetectionCallbacks(
                document_started=self.document_started.emit,
                member_started=self.member_started.emit,
                document_progress=self.document_progress.emit,
                document_done=self.document_done.emit,
                document_failed=self.document_failed.emit,
                should_stop=lambda: self.cancelled,
            )
            try:
                done = detect_documents(ensemble, self._workspace, self._ids, callbacks).documents
            except RunNotRecorded as e:
                self.failed.emit(str(e))
        finally:
            self.summary.emit(self.cancelled, time.perf_counter() - t0, done)
            self.finished.emit()


class ExportWorker(Worker):
    """Runs an :class:`~deid_desktop.core.usecases.exporting.ExportJob` off the GUI thread."""

    progress = Signal(int, int, str)  # done, total, document name
    exported = Signal(int)  # document id
    done = Signal(object)  # ExportSummary
    failed = Signal(str)

    def __init__(self, job) -> None:
        super().__init__()
        self._job = job

    @Slot()
    def run(self) -> None:
        try:
            summary = self._job.run(
                progress=lambda i, n, name: self.progress.emit(i, n, name),
                exported=self.exported.emit,
                should_stop=lambda: self.cancelled,
            )
            self.done.emit(summary)
        except Exception as e:
            log.error("export failed (%s)", type(e).__name__)
            self.failed.emit(failure_text(e, "export failed"))
        finally:
            self.finished.emit()
