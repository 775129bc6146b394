"""The default detection models built in the background (``gui --build-models``): the window
opens at once with the rules, the missing transformer members train in a separate process
(``model_build.py``), and once they are saved the window switches to the full ensemble and
detects again every document not yet reviewed. Decided findings are kept (the store replaces
only undecided ones, ``ReviewRepository.save_detections``)."""

from __future__ import annotations

import logging

from PySide6.QtCore import QTimer

from ..core.paths import build_model_command
from ..core.store import DocStatus
from . import model_build

log = logging.getLogger(__name__)

# Documents the new models look at again: those nobody has marked reviewed (or exported).
REDETECT_STATUSES = (DocStatus.IMPORTED, DocStatus.DETECTED, DocStatus.IN_REVIEW)

BUILDING = "Building the detection models (first start, about 15 minutes on two CPU cores{elapsed}): findings so far come from the rules only"
READY = "Detection models ready: documents re-checked with the full ensemble"


def _clock(ms: int) -> str:
    s = max(0, ms // 1000)
    return f"{s // 60}:{s % 60:02d}"


class ModelBuildFlow:
    """Part of :class:`~deid_desktop.gui.main_window.MainWindow` (a mixin: it uses the
    window's status bar, provider and detection flow)."""

    def _init_model_build(self, wanted: bool) -> None:
        self._build_models_wanted = wanted
        self._build_tried = False  # once per session: a failed build is not retried
        self.model_build: model_build.ModelBuild | None = None
        self._build_clock = QTimer(self)
        self._build_clock.setInterval(1000)
        self._build_clock.timeout.connect(self._show_build_state)

    def maybe_build_models(self, ensemble) -> None:
        """Start the build when asked to and the ensemble lacks members (called with each
        detector the window loads; starts at most once)."""
        if not self._build_models_wanted or self._build_tried or self._closing:
            return
        if not list(getattr(ensemble, "missing", None) or []):
            return
        self._build_tried = True
        build = model_build.ModelBuild(self)
        build.progress.connect(lambda _percent: self._show_build_state())
        build.finished.connect(self._on_models_built)
        self.model_build = build
        log.info("building the missing detection models in the background")
        self.model_build_progress.setRange(0, 0)  # busy until the child reports a percentage
        self.model_build_progress.setFormat("")
        self.model_build_progress.show()
        self.model_build_label.show()
        self._build_clock.start()
        # the detector's own summary says "run make model": true only if this build fails
        self._detector_text = self.detector_label.text()
        self.detector_label.setText("rules-only until the models are built")
        build.start()  # a command that cannot start ends in _on_models_built at once
        self._show_build_state()

    @property
    def building_models(self) -> bool:
        return self.model_build is not None and self.model_build.running

    def _show_build_state(self) -> None:
        build = self.model_build
        if build is None or not build.running:
            return
        elapsed = f"; {_clock(build.elapsed.elapsed())} so far" if build.elapsed.isValid() else ""
        text = BUILDING.format(elapsed=elapsed)
        self.model_build_label.setText(text)
        self.model_build_label.setToolTip(text)
        if build.percent is not None:
            self.model_build_progress.setRange(0, 100)
            self.model_build_progress.setValue(build.percent)
            self.model_build_progress.setFormat("Training: %p%")

    def _end_build_display(self) -> None:
        self._build_clock.stop()
        self.model_build_progress.hide()

    def _on_models_built(self, ok: bool, reason: str) -> None:
        self._end_build_display()
        if self._closing:
            return
        if not ok:
            self.detector_label.setText(self._detector_text)
            text = (f"Building the detection models failed ({reason}); detection stays rules-only. "
                    f"Run {build_model_command()} to build them.")
            log.warning("background model build failed (%s)", reason)
            self.model_build_label.setText(text)
            self.model_build_label.setToolTip(text)
            self.model_build_label.show()
            self.show_message(text)
            return
        text = "Detection models ready: re-checking the documents with the full ensemble…"
        self.model_build_label.setText(text)
        self.model_build_label.setToolTip(text)
        self.show_message(text)
        # A detection under way uses the old detector; switch once it has ended.
        self.run_when_idle(self._switch_to_built_models)

    def _switch_to_built_models(self) -> None:
        if self._closing:
            return
        ids = [r.id for r in self.workspace.list_documents(latest_only=True) if DocStatus(r.status) in REDETECT_STATUSES]
        self.refresh_after_model_change()
        self.detect_documents(ids)
        self.run_when_idle(lambda: self._models_switched(len(ids)))

    def _models_switched(self, n: int) -> None:
        if self._closing:
            return
        still = list(getattr(self.provider.get(), "missing", None) or []) if self.provider.built else []
        if still:
            text = f"Models built, but this ensemble still has no model for: {', '.join(still)}; those members stay off"
        else:
            text = READY if n else "Detection models ready: the full ensemble detects from now on"
        self.model_build_label.setText(text)
        self.model_build_label.setToolTip(text)
        self.show_message(text)
        QTimer.singleShot(60_000, self.model_build_label, self.model_build_label.hide)

    def stop_model_build(self) -> None:
        """End a build still running (the window closes): nothing is asked, no process is left."""
        self._build_clock.stop()
        if self.model_build is not None:
            self.model_build.stop()
