"""Running a workspace read (weight fitting, harvesting) off the GUI thread for the Model
menu's dialogs; the results are written on the GUI thread.
"""

from __future__ import annotations

import logging
from typing import Any, Callable

from PySide6.QtCore import QObject, Qt, QThread, Signal, Slot

from ...core.usecases.detection import failure_text
from ..workers import Worker, start_in_thread

log = logging.getLogger(__name__)


class CallWorker(Worker):
    """Runs one read-only function off the GUI thread."""

    done = Signal(object)
    failed = Signal(str)

    def __init__(self, fn: Callable[[], Any], what: str) -> None:
        super().__init__()
        self._fn = fn
        self._what = what

    @Slot()
    def run(self) -> None:
        try:
            self.done.emit(self._fn())
        except Exception as e:
            log.error("%s failed (%s)", self._what, type(e).__name__)
            self.failed.emit(failure_text(e, self._what))
        finally:
            self.finished.emit()


class Background(QObject):
    """Keeps a worker and its thread alive until the work is done."""

    def __init__(self, parent: QObject) -> None:
        super().__init__(parent)
        self.running: list[tuple[Worker, QThread]] = []

    def run(self, fn: Callable[[], Any], what: str, on_done: Callable[[Any], None], on_failed: Callable[[str], None]) -> None:
        worker = CallWorker(fn, what)
        worker.done.connect(on_done, Qt.ConnectionType.QueuedConnection)
        worker.failed.connect(on_failed, Qt.ConnectionType.QueuedConnection)
        # _reap is a method of this QObject, so it runs on the GUI thread, after this append.
        self.running.append((worker, start_in_thread(self, worker, self._reap)))

    def _reap(self) -> None:
        self.running = [(w, t) for w, t in self.running if not t.isFinished()]

    @property
    def busy(self) -> bool:
        return bool(self.running)

    def wait(self, ms: int = 30_000) -> None:
        for _, thread in list(self.running):
            thread.wait(ms)


class WeightRefit(QObject):
    """Fits the soft-vote weights off the GUI thread and saves them on it."""

    finished = Signal(object)  # the weights, or None

    def __init__(self, workspace, config: str | None, parent: QObject) -> None:
        super().__init__(parent)
        self.workspace = workspace
        self.config = config
        self.background = Background(self)

    def start(self) -> None:
        from ...core.learn.loop import fit_weights

        ws, cfg = self.workspace, self.config
        self.background.run(lambda: fit_weights(ws, config=cfg), "re-fitting the ensemble weights", self._done, self._failed)

    def _done(self, fit) -> None:
        from ...core.learn.loop import save_weight_fit

        if fit is not None:
            save_weight_fit(self.workspace, fit)
        self.finished.emit(fit.weights if fit is not None else None)

    def _failed(self, message: str) -> None:
        log.warning("%s", message)
        self.finished.emit(None)
