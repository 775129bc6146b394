"""A detection run: the detector built from the settings, run over documents one at a
time, its detections and the run's record stored in the workspace.

Loading transformer weights takes seconds, so the ensemble is built lazily (by whichever
worker needs it first, in the window) and then shared by detection and export re-scans.
The window's ``DetectionWorker`` only runs :func:`detect_documents` on a thread and turns its
callbacks into signals.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

log = logging.getLogger(__name__)


def rules_only_no_model() -> str:
    from ..paths import build_model_command

    return f"rules-only: no model built (run {build_model_command()})"


@dataclass(frozen=True)
class DetectorSettings:
    ensemble_config: str | None = None  # TOML path; None: the shipped default ensemble
    model_folder: str | None = None  # where named models live (models/ by default)
    workspace_path: str | None = None  # its active model version and fitted weights apply


class EnsembleProvider:
    """Thread-safe lazy holder of the current ensemble."""

    def __init__(self, settings: DetectorSettings | None = None) -> None:
        self._settings = settings or DetectorSettings()
        self._lock = threading.Lock()
        self._ensemble = None

    @property
    def settings(self) -> DetectorSettings:
        return self._settings

    def reset(self, settings: DetectorSettings | None = None) -> None:
        """Forget the built ensemble; the next ``get`` builds it again (after a new model is
        activated, or the ensemble settings changed)."""
        with self._lock:
            if settings is not None:
                self._settings = settings
            old, self._ensemble = self._ensemble, None
        if old is not None and hasattr(old, "close"):
            old.close()  # the workspace connection a workspace detector opened for itself

    def get(self):
        with self._lock:
            if self._ensemble is None:
                self._ensemble = self._build(self._settings)
            return self._ensemble

    @property
    def built(self) -> bool:
        return self._ensemble is not None

    @staticmethod
    def _build(s: DetectorSettings):
        if s.model_folder:
            # resolve_model_dir reads the models folder from the environment, so the setting
            # reaches every member the configuration names.
            os.environ["DEID_MODELS"] = str(Path(s.model_folder).expanduser())
        return build_detector(s)


def build_detector(s: DetectorSettings):
    """The detector the settings name, for the window, the command line and the table
    engine's workers alike: with a workspace, its active model, fitted weights, allow/deny
    lists and approved template rules apply (core/learn/workspace_detector.py); without one,
    the ensemble file as it is. The models folder is the environment's (``DEID_MODELS``)."""
    if s.workspace_path:
        from ..learn.workspace_detector import open_workspace_detector

        return open_workspace_detector(s.workspace_path, s.ensemble_config or None)
    from ..detect.ensemble import Ensemble

    return Ensemble.from_config(s.ensemble_config or None)


def member_devices(description: dict[str, Any]) -> dict[str, str]:
    out = {}
    for name, desc in (description.get("members") or {}).items():
        desc = desc if isinstance(desc, dict) else {}
        out[name] = str(desc.get("device") or "cpu")
    return out


def detector_summary(ensemble) -> str:
    """One line for the status bar: which members run where, or plainly that no model is
    built."""
    desc = ensemble.describe()
    if ensemble.rules_only:
        if ensemble.missing:
            return rules_only_no_model()
        return "rules only (no transformer member in this ensemble)"
    parts = []
    for name, device in member_devices(desc).items():
        parts.append(name if name == "rules" else f"{name} on {device}")
    text = f"Detector: {' + '.join(parts)} ({desc.get('strategy', 'union')})"
    if ensemble.missing:
        text += f"; not built: {', '.join(ensemble.missing)}"
    return text


def run_record(ensemble) -> dict[str, Any]:
    """What ``Workspace.start_detection_run`` stores about the detector."""
    desc = ensemble.describe()
    devices = sorted(set(member_devices(desc).values())) or ["cpu"]
    versions: dict[str, str] = {}
    for name, d in (desc.get("members") or {}).items():
        d = d if isinstance(d, dict) else {}
        versions[name] = str(d.get("version") or d.get("model") or d.get("path") or d.get("type") or name)
    config = ensemble.config.to_dict() if hasattr(ensemble, "config") else {}
    return {"config": config, "model_versions": versions, "device": ",".join(devices)}


# -- running it ---------------------------------------------------------------------------


class Cancelled(Exception):
    """Raised inside a progress callback to stop between steps."""


def failure_text(exc: BaseException, what: str) -> str:
    """A message for the status bar: our own errors are PHI-free by contract; for anything
    else only the exception type is shown, as its message might quote document text."""
    from ..errors import DeidError

    if isinstance(exc, DeidError):
        return f"{what}: {exc}"
    return f"{what}: internal error ({type(exc).__name__}); see the log"


def _ignore(*_args) -> None:
    return None


@dataclass
class DetectionCallbacks:
    """What a detection run reports, document by document (all optional)."""

    document_started: Callable[[int, int, int], None] = _ignore  # document id, index, total
    member_started: Callable[[int, str], None] = _ignore  # document id, member name
    document_progress: Callable[[int, float], None] = _ignore  # document id, share detected
    document_done: Callable[[int, int], None] = _ignore  # document id, spans stored
    document_failed: Callable[[int, str], None] = _ignore  # document id, PHI-free message
    should_stop: Callable[[], bool] = lambda: False


class RunNotRecorded(Exception):
    """The workspace could not record the start of the run; nothing was detected."""


@dataclass
class DetectionOutcome:
    documents: int = 0  # detected and stored
    seconds: float = 0.0
    cancelled: bool = False
    failed: list[int] = field(default_factory=list)


def detect_document(ensemble, workspace, doc_id: int, callbacks: DetectionCallbacks):
    """The spans of one workspace document: members one by one (so progress and cancelling
    work inside a long document), then the vote; a workspace detector also applies the
    document- and subject-scoped lists."""
    text = workspace.load_document(doc_id).text

    def progress(member: str) -> None:
        if callbacks.should_stop():
            raise Cancelled
        callbacks.member_started(doc_id, member)

    def fraction(done: float) -> None:
        # Called batch by batch inside a model: cancelling stops a long document midway.
        if callbacks.should_stop():
            raise Cancelled
        callbacks.document_progress(doc_id, done)

    if hasattr(ensemble, "member_spans") and hasattr(ensemble, "combine"):
        by_member = ensemble.member_spans([text], progress=progress, fraction=fraction, cascade=True)[0]
        if callbacks.should_stop():
            raise Cancelled
        from ..learn.workspace_detector import WorkspaceDetector

        if isinstance(ensemble, WorkspaceDetector):
            return ensemble.combine(text, by_member, document_id=doc_id)
        return ensemble.combine(text, by_member)
    return ensemble.detect(text)


def detect_documents(ensemble, workspace, document_ids: Sequence[int], callbacks: DetectionCallbacks | None = None) -> DetectionOutcome:
    """Detect PHI in ``document_ids`` as one detection run and store the detections. One
    document failing is reported and the others go on; stopping keeps what was stored.
    Raises :class:`RunNotRecorded` (its cause attached) when the run cannot be recorded."""
    cb = callbacks or DetectionCallbacks()
    ids = list(document_ids)
    t0, outcome, run_id = time.perf_counter(), DetectionOutcome(), None
    try:
        if ids:
            try:
                run_id = workspace.start_detection_run(**run_record(ensemble))
            except Exception as e:
                log.error("starting the detection run failed (%s)", type(e).__name__)
                raise RunNotRecorded(failure_text(e, "cannot record the detection run")) from e
        for i, doc_id in enumerate(ids):
            if cb.should_stop():
                break
            cb.document_started(doc_id, i, len(ids))
            try:
                stored = workspace.save_detections(doc_id, run_id, detect_document(ensemble, workspace, doc_id, cb))
            except Cancelled:
                break
            except Exception as e:
                log.error("detection failed on document %s (%s)", doc_id, type(e).__name__)
                outcome.failed.append(doc_id)
                cb.document_failed(doc_id, failure_text(e, "detection failed"))
                continue
            cb.document_done(doc_id, len(stored))
            outcome.documents += 1
    finally:
        outcome.seconds = time.perf_counter() - t0
        outcome.cancelled = cb.should_stop()
        if run_id is not None:
            try:
                workspace.finish_detection_run(run_id, seconds=round(outcome.seconds, 3), documents=outcome.documents)
            except Exception as e:
                log.error("closing the detection run failed (%s)", type(e).__name__)
    return outcome
