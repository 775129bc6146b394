from __future__ import annotations

import json

import pytest

from deid_desktop.core.detect.transformer import TransformerDetector
from deid_desktop.core.errors import ModelError
from deid_desktop.core.models.labels import DEFAULT_SCHEME
from deid_desktop.core.models.modelio import (
    current_version,
    list_versions,
    load_manifest,
    resolve_model_dir,
    set_current,
    verify_manifest,
)

from tests.core.learn_fixtures import letters, train_tiny


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    return train_tiny(tmp_path_factory.mktemp("modelio"))


def test_saved_model_has_manifest_card_and_current_pointer(trained, tmp_path):
    path = trained.save("tiny-names", models_root=tmp_path)
    assert path == tmp_path / "tiny-names" / "v1"
    assert (tmp_path / "tiny-names" / "CURRENT").read_text().strip() == "v1"
    assert not (tmp_path / "tiny-names" / "CURRENT").is_symlink()
    m = load_manifest(path)
    assert m["name"] == "tiny-names" and m["version"] == "v1"
    assert m["label_scheme"]["tags"] == DEFAULT_SCHEME.tags
    assert m["config"]["max_length"] == 64 and m["config"]["phi_weight"] == 3.0
    assert m["data"]["examples_used"] > 0
    assert m["metrics"]["token"]["support"] > 0
    assert "created" in m
    assert {"config.json", "model.safetensors", "tokenizer.json", "model_card.md"} <= set(m["files"])
    assert all(len(f["sha256"]) == 64 for f in m["files"].values())
    card = (path / "model_card.md").read_text()
    assert "tiny-base" in card and "PHI words" in card and "balanced" in card
    assert verify_manifest(path) == []


def test_verify_finds_changed_missing_and_unlisted_files(trained, tmp_path):
    path = trained.save("m", models_root=tmp_path)
    weights = path / "model.safetensors"
    data = bytearray(weights.read_bytes())
    data[-1] ^= 0xFF
    weights.write_bytes(bytes(data))
    (path / "tokenizer.json").unlink()
    (path / "extra.bin").write_bytes(b"x")
    problems = verify_manifest(path)
    assert any("model.safetensors was changed" in p for p in problems)
    assert any("tokenizer.json is missing" in p for p in problems)
    assert any("extra.bin is not listed" in p for p in problems)
    (path / "manifest.json").write_text("{not json")
    assert verify_manifest(path) == ["v1: manifest.json is not valid JSON"]


def test_verify_notices_labels_edited_in_config(trained, tmp_path):
    path = trained.save("m", models_root=tmp_path)
    cfg = json.loads((path / "config.json").read_text())
    cfg["id2label"]["1"] = "B-SOMETHING"
    (path / "config.json").write_text(json.dumps(cfg))
    problems = verify_manifest(path)
    assert "config.json labels differ from the manifest's label scheme" in problems


def test_versions_and_current(trained, tmp_path):
    v1 = trained.save("m", models_root=tmp_path)
    v2 = trained.save("m", models_root=tmp_path)
    assert (v1.name, v2.name) == ("v1", "v2")
    name_dir = tmp_path / "m"
    assert list_versions(name_dir) == ["v1", "v2"] and current_version(name_dir) == "v2"
    assert resolve_model_dir(name_dir) == v2
    set_current(name_dir, "v1")
    assert resolve_model_dir(name_dir) == v1
    assert resolve_model_dir("m", models_root=tmp_path) == v1
    v3 = trained.save("m", models_root=tmp_path, make_current=False)
    assert v3.name == "v3" and current_version(name_dir) == "v1"
    with pytest.raises(ModelError):
        set_current(name_dir, "v9")
    with pytest.raises(ModelError):
        trained.save("m", models_root=tmp_path, version="v1")
    with pytest.raises(ModelError):
        trained.save("../escape", models_root=tmp_path)
    with pytest.raises(ModelError):
        resolve_model_dir(tmp_path / "nothing-here")


def test_a_saved_model_loads_and_detects_as_it_did_in_memory(trained, tmp_path):
    trained.save("tiny-names", models_root=tmp_path)
    det = TransformerDetector(str(tmp_path / "tiny-names"), quantize=False)
    d = det.describe()
    assert (d["name"], d["version"], d["max_length"]) == ("tiny-names", "v1", 64)
    doc = letters(1, seed=77)[0]
    found = {(s.start, s.end, s.category) for s in det.detect(doc.text)}
    mem = TransformerDetector.from_loaded(trained.model, trained.tokenizer, quantize=False, max_length=64)
    assert found == {(s.start, s.end, s.category) for s in mem.detect(doc.text)}
    assert found  # it finds something in a letter like those it learned from


@pytest.fixture(scope="module")
def trained_shapes(tmp_path_factory):
    return train_tiny(tmp_path_factory.mktemp("modelio-shapes"), shapes=True)


def test_a_model_with_shape_features_round_trips(trained_shapes, tmp_path):
    from deid_desktop.core.models.shape import SHAPE_SPEC
    from deid_desktop.core.models.shape_model import ShapeTokenClassifier

    path = trained_shapes.save("tiny-shapes", models_root=tmp_path)
    assert load_manifest(path)["shape_features"] == SHAPE_SPEC
    assert load_manifest(path)["config"]["shape_features"] is True
    assert json.loads((path / "config.json").read_text())["deid_shape_features"] == SHAPE_SPEC
    assert verify_manifest(path) == []  # the shape weights are listed with the rest
    assert "reads word shapes" in (path / "model_card.md").read_text()
    det = TransformerDetector(str(path), quantize=False, precision="fp32", backend="torch")
    assert isinstance(det.model, ShapeTokenClassifier) and det.describe()["shape_features"]
    mem = TransformerDetector.from_loaded(trained_shapes.model, trained_shapes.tokenizer, quantize=False, precision="fp32", max_length=64)
    for doc in letters(3, seed=78):
        found = {(s.start, s.end, s.category, round(s.score, 4)) for s in det.detect(doc.text)}
        assert found == {(s.start, s.end, s.category, round(s.score, 4)) for s in mem.detect(doc.text)}
        assert found


def test_a_shape_model_missing_its_shape_weights_is_refused(trained_shapes, tmp_path):
    path = trained_shapes.save("tiny-shapes", models_root=tmp_path)
    (path / "shape_embeddings.safetensors").unlink()
    with pytest.raises(ModelError, match="shape"):
        TransformerDetector(str(path))


def test_a_plain_model_folder_loads_and_predicts_exactly_as_before(trained, tmp_path):
    from transformers import AutoModelForTokenClassification

    from deid_desktop.core.models.hf import load_token_classifier

    path = trained.save("tiny-plain", models_root=tmp_path)
    assert not (path / "shape_embeddings.safetensors").exists()
    assert "deid_shape_features" not in json.loads((path / "config.json").read_text())
    assert load_manifest(path)["shape_features"] is None
    assert "word shapes" not in (path / "model_card.md").read_text()
    model = load_token_classifier(path)
    assert type(model).__name__ == "BertForTokenClassification"  # not wrapped
    det = TransformerDetector(str(path), quantize=False, precision="fp32", backend="torch")
    assert det.shapes is False and not det.describe()["shape_features"]
    # The same folder read straight through transformers, with none of our loading code.
    raw = AutoModelForTokenClassification.from_pretrained(str(path), local_files_only=True)
    ref = TransformerDetector.from_loaded(raw, trained.tokenizer, quantize=False, precision="fp32", max_length=64)
    for doc in letters(3, seed=79):
        got = [(s.start, s.end, s.category, s.score) for s in det.detect(doc.text)]
        assert got == [(s.start, s.end, s.category, s.score) for s in ref.detect(doc.text)]
