"""The detector a detection run uses (core/usecases/detection.py ``build_detector``), built by
one rule for the window, the command line and the table engine: an ensemble file as it is, or
with a workspace, that workspace's own lists on top."""

from __future__ import annotations

import pytest

from deid_desktop.core.categories import Category
from deid_desktop.core.learn.term_lists import add_term
from deid_desktop.core.learn.workspace_detector import WorkspaceDetector
from deid_desktop.core.paths import resource
from deid_desktop.core.store import Workspace
from deid_desktop.core.usecases.detection import DetectorSettings, EnsembleProvider, build_detector

RULES_ONLY = str(resource("ensembles", "rules_only.toml"))
TEXT = "Discharged to Tamaki Lodge on 12/03/2021."


def found(det, text: str = TEXT) -> set[str]:
    return {text[s.start : s.end] for s in det.detect(text)}


@pytest.fixture
def workspace_path(tmp_path, monkeypatch):
    """A workspace whose reviewer marked "Tamaki Lodge" as always PHI."""
    monkeypatch.setenv("DEID_MODELS", str(tmp_path / "no-models"))
    path = tmp_path / "workspace.sqlite"
    with Workspace.open(path) as ws:
        add_term(ws, "deny", "Tamaki Lodge", category=Category.ORGANIZATION)
    return str(path)


def test_without_a_workspace_the_ensemble_file_runs_as_it_is(workspace_path):
    det = build_detector(DetectorSettings(ensemble_config=RULES_ONLY))
    assert not isinstance(det, WorkspaceDetector)
    assert "12/03/2021" in found(det)
    assert "Tamaki Lodge" not in found(det)  # the workspace's term belongs to the workspace


def test_with_a_workspace_its_always_flag_terms_join_the_ensemble(workspace_path):
    det = build_detector(DetectorSettings(ensemble_config=RULES_ONLY, workspace_path=workspace_path))
    try:
        assert found(det) >= {"Tamaki Lodge", "12/03/2021"}
    finally:
        det.close()  # it opened the workspace for itself


def test_the_window_provider_builds_the_same_detector_once(workspace_path):
    settings = DetectorSettings(ensemble_config=RULES_ONLY, workspace_path=workspace_path)
    provider = EnsembleProvider(settings)
    first = provider.get()
    assert provider.get() is first
    direct = build_detector(settings)
    try:
        assert found(first) == found(direct)
    finally:
        provider.reset()
        direct.close()
