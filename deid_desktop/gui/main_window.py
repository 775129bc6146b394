"""The review window: queue on the left, document in the centre, findings on the right.

The window wires views to the review controller and runs background work (reading files,
detection); it holds no review rules itself. Its parts live beside it: actions, menus and
status bar (``window_menus``), the review wiring (``window_review``), importing
(``window_importing``), detection and idleness (``window_detection``), the default models
built in the background (``window_model_build``) and the dialogs it opens
(``window_dialogs``); the use cases are in ``core/usecases``.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Callable

from PySide6.QtCore import Qt, QThread, QTimer, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QApplication, QMainWindow

from ..core.errors import DeidError
from ..core.usecases.detection import DetectorSettings, EnsembleProvider
from ..core.usecases.importing import ImportTally
from .errors import describe, show_error
from .across import AcrossDialog
from .export_dialog import ExportDialog, start_export_session
from .findings import FindingsDock
from .pane import DocumentPane
from .queue import DocumentQueueModel, QueueDock
from .refit import ReviewedRefit
from .review import ReviewController
from .room import DocumentRoom
from .settings import AppSettings
from .workers import DetectionWorker, ImportWorker
from .window_detection import DetectionFlow
from .window_dialogs import WindowDialogs
from .window_importing import ImportFlow
from .window_model_build import ModelBuildFlow
from .window_menus import build_actions, build_menus, build_status_bar
from .window_review import ReviewWiring

log = logging.getLogger(__name__)


class MainWindow(ReviewWiring, ImportFlow, DetectionFlow, ModelBuildFlow, WindowDialogs, QMainWindow):
    idle = Signal()  # no import or detection running or waiting

    def __init__(
        self,
        workspace,
        settings: AppSettings,
        *,
        ensemble_config: str | None = None,
        owns_workspace: bool = False,
        restore_layout: bool = True,
        build_models: bool = False,
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

        build_status_bar(self)
        self.actions_by_id: dict[str, QAction] = {}
        build_actions(self)
        build_menus(self)
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
        # With build_models, missing default models train in a separate process meanwhile.
        self._init_model_build(build_models)

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

    # -- window events --------------------------------------------------------------------
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
