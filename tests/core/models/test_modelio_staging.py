"""A version folder is only a model once ``save_model`` has renamed it to its final name: the
hidden folder a stopped save leaves behind (its process killed) is never loaded, and
``build-model --if-missing`` builds the model again."""

from __future__ import annotations

import pytest

from deid_desktop.core.errors import ModelError
from deid_desktop.core.models.modelio import list_versions, resolve_model_dir


def _half_saved(name_dir, version: str = "v1"):
    staging = name_dir / f".{version}.k2x9qz"  # as tempfile.mkdtemp(prefix=".v1.") names it
    staging.mkdir(parents=True)
    (staging / "config.json").write_text("{}", encoding="utf-8")  # written first; weights never came
    return staging


def test_a_half_saved_first_version_is_no_model(tmp_path):
    name_dir = tmp_path / "minilm-balanced"
    _half_saved(name_dir)
    assert list_versions(name_dir) == []
    with pytest.raises(ModelError):
        resolve_model_dir(name_dir)
    with pytest.raises(ModelError):
        resolve_model_dir("minilm-balanced", models_root=tmp_path)


def test_a_half_saved_later_version_leaves_the_complete_one_in_use(tmp_path):
    name_dir = tmp_path / "m"
    (name_dir / "v1").mkdir(parents=True)
    (name_dir / "v1" / "config.json").write_text("{}", encoding="utf-8")
    _half_saved(name_dir, "v2")
    assert list_versions(name_dir) == ["v1"]
    assert resolve_model_dir(name_dir) == name_dir / "v1"
