"""The detector the window uses: built once, off the GUI thread, from the settings.

Loading transformer weights takes seconds, so the ensemble is built lazily by whichever
worker needs it first and then shared by detection and export re-scans.
"""

from __future__ import annotations

import logging
import os
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)


def rules_only_no_model() -> str:
    from ..core.paths import build_model_command

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
        from ..core.detect.ensemble import Ensemble

        if s.model_folder:
            # resolve_model_dir reads the models folder from the environment, so the setting
            # reaches every member the configuration names.
            os.environ["DEID_MODELS"] = str(Path(s.model_folder).expanduser())
        if s.workspace_path:
            # the workspace's active model, fitted weights, allow/deny lists and approved
            # template rules all apply (core/learn/workspace_detector.py)
            from ..core.learn.workspace_detector import open_workspace_detector

            return open_workspace_detector(s.workspace_path, s.ensemble_config or None)
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
