"""Where a bundled (frozen) app finds models: the defaults shipped read-only in the bundle
until the user builds their own, and never the bundle as a place to write."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from deid_desktop.core import paths
from deid_desktop.core.models.modelio import resolve_model_dir


def _model(root: Path, name: str, version: str = "v1") -> Path:
    folder = root / name / version
    folder.mkdir(parents=True)
    (folder / "config.json").write_text("{}", encoding="utf-8")
    (root / name / "CURRENT").write_text(version + "\n", encoding="utf-8")
    return folder


@pytest.fixture
def frozen(tmp_path, monkeypatch):
    """A bundle folder laid out as PyInstaller's one-folder build, with shipped models,
    and a user whose data folder is empty."""
    bundle = tmp_path / "opt" / "deid-desktop" / "_internal"
    shipped = _model(bundle / "models", "minilm-balanced")
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.setattr(sys, "_MEIPASS", str(bundle), raising=False)
    monkeypatch.setattr(paths, "in_checkout", lambda: False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.delenv("DEID_MODELS", raising=False)
    return bundle, shipped


def test_a_bundle_finds_its_shipped_default_model(frozen):
    bundle, shipped = frozen
    assert paths.models_dir() == bundle / "models"
    assert resolve_model_dir("minilm-balanced") == shipped


def test_models_the_user_built_take_the_place_of_the_shipped_ones(frozen, tmp_path):
    own = _model(tmp_path / "data" / "deid-desktop" / "models", "minilm-balanced", "v3")
    assert resolve_model_dir("minilm-balanced") == own


def test_a_bundle_builds_models_in_the_users_folder_never_in_itself(frozen, tmp_path):
    bundle, _ = frozen
    assert paths.own_models_dir() == tmp_path / "data" / "deid-desktop" / "models"
    assert bundle not in paths.own_models_dir().parents


def test_deid_models_overrides_the_shipped_models(frozen, tmp_path, monkeypatch):
    mine = _model(tmp_path / "elsewhere", "minilm-balanced", "v7")
    monkeypatch.setenv("DEID_MODELS", str(tmp_path / "elsewhere"))
    assert resolve_model_dir("minilm-balanced") == mine


def test_outside_a_bundle_models_stay_where_they_were(tmp_path, monkeypatch):
    monkeypatch.delattr(sys, "_MEIPASS", raising=False)
    monkeypatch.setattr(paths, "in_checkout", lambda: False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.delenv("DEID_MODELS", raising=False)
    assert paths.models_dir() == tmp_path / "data" / "deid-desktop" / "models"


def test_a_shipped_model_is_exported_for_onnx_runtime_in_the_users_cache(frozen, tmp_path, monkeypatch):
    """Even where the bundle could be written (root, or a bundle unpacked in a home folder),
    the export goes to the user's cache and the bundle stays as installed."""
    from deid_desktop.core.models.onnx_runner import export_path

    _, shipped = frozen
    monkeypatch.delenv("DEID_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    target = export_path(shipped)
    assert target.parent == tmp_path / "cache" / "deid-desktop" / "onnx"
