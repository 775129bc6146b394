"""Re-fitting the ensemble weights as documents are marked reviewed.

``maybe_refit_weights`` decides from the workspace's ``learn.refit_every`` whether a fit is
due; a fit runs the detector over recent reviewed documents, which takes seconds with a
transformer member, so the check and the fit run on a worker thread. The workspace
serialises the weights it writes with the review's own writes.
"""

from __future__ import annotations

import logging

from PySide6.QtCore import QObject, Signal

from .learning.background import Background

log = logging.getLogger(__name__)


class ReviewedRefit(QObject):
    refitted = Signal(object, int)  # the workspace, how many reviewed documents the fit used
    message = Signal(str)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.background = Background(self)
        self._running = False
        self._again = None  # a workspace to check once more when the running fit ends
        self._closed = False  # the window closed: queued results start nothing new

    @property
    def running(self) -> bool:
        return self._running

    def after_review(self, workspace) -> None:
        """A document of ``workspace`` was marked reviewed: re-fit if one is due."""
        if self._closed:
            return
        if self._running:
            # Reviews made during a fit may make the next one due; check once it ends.
            self._again = workspace
            return
        self._start(workspace)

    def _start(self, workspace) -> None:
        from ..core.learn.loop import maybe_refit_weights

        def job():
            if maybe_refit_weights(workspace) is None:
                return None
            return workspace, workspace.ensemble_weight_history()[-1][2]

        self._running = True
        self.background.run(job, "could not re-fit the ensemble weights", self._done, self._failed)

    def _done(self, result) -> None:
        self._running = False
        if result is not None:
            workspace, n_documents = result
            self.refitted.emit(workspace, int(n_documents))
        self._next()

    def _failed(self, message: str) -> None:
        self._running = False
        log.warning("%s", message)  # PHI-free: failure_text names only our own errors' reasons
        self.message.emit(message[:1].upper() + message[1:] + ".")
        self._next()

    def _next(self) -> None:
        workspace, self._again = self._again, None
        if workspace is not None and not self._closed:
            self._start(workspace)

    def forget_pending(self) -> None:
        """The window switched workspaces: a check queued for the old one is dropped."""
        self._again = None

    def wait(self, ms: int = 30_000) -> None:
        self.background.wait(ms)

    def shutdown(self, ms: int = 30_000) -> None:
        """The window is closing: drop a queued check, wait for a running fit, and start no
        new one when its result arrives later (it would open a closed workspace)."""
        self._closed = True
        self._again = None
        self.background.wait(ms)
