"""The ONNX Runtime backend finds the same spans as the torch reference path, exports a model
once per version of its weights, and fails with a clear message."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

pytest.importorskip("onnxruntime")

TEXTS = [
    "Seen by Dr Aroha Ngata at Wellington Hospital on 03/04/2021, NHI ZAC5361, phone 021 555 0199.",
    "Mrs Tevita Fifita (72) lives at 14 Kauri Street, Rotorua 3010; her daughter Mele drove her.",
    "No PHI in this sentence at all. " * 3,
    "A very long line " + "with many words and a name Priya Raman " * 40,  # longer than one model input
    "Plan: review in 6 weeks.\nSigned: J. Smith, registrar, Auckland City Hospital.",
]


def _spans(det, texts=TEXTS):
    return [[(s.start, s.end, s.category, round(s.score, 3)) for s in doc] for doc in det.detect_many(texts)]


def _decisive(folder: Path, seed: int = 0) -> Path:
    """A random tiny model predicts near-uniform probabilities, where float rounding alone
    flips labels; a sharper classifier gives clear decisions to compare, as a trained one
    does."""
    import torch

    from deid_desktop.core.models.hf import load_token_classifier

    model = load_token_classifier(folder)
    with torch.no_grad():
        model.classifier.weight.mul_(40.0)
    model.save_pretrained(str(folder))
    return folder


def _tiny(folder: Path, seed: int, layers: int = 2) -> Path:
    from deid_desktop.core.models.tiny import build_tiny_model

    return _decisive(build_tiny_model(folder, hidden=32, layers=layers, heads=2, seed=seed))


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    return _tiny(tmp_path_factory.mktemp("tiny") / "model", seed=3)


@pytest.fixture(scope="module")
def tiny_with_shapes(tmp_path_factory):
    """A tiny model trained "with word shapes": a random shape embedding, so shapes change
    its predictions and a backend that dropped them would be caught."""
    import torch

    from deid_desktop.core.models.hf import load_token_classifier
    from deid_desktop.core.models.shape_model import ShapeTokenClassifier

    folder = _tiny(tmp_path_factory.mktemp("tiny-shapes") / "model", seed=5, layers=1)
    model = ShapeTokenClassifier(load_token_classifier(folder))
    with torch.no_grad():
        torch.manual_seed(1)
        model.shape_embeddings.weight.normal_(0, 1.0)
    model.save_pretrained(folder)
    return folder


def test_onnx_gives_the_reference_spans(tiny):
    from deid_desktop.core.detect.transformer import TransformerDetector

    ref = TransformerDetector(str(tiny), backend="torch", precision="fp32")
    fast = TransformerDetector(str(tiny), backend="onnx")
    assert ref.backend == "torch" and fast.backend == "onnxruntime"
    expected = _spans(ref)
    assert sum(map(len, expected)) > 10  # a random tiny model tags plenty: the check has teeth
    assert _spans(fast) == expected
    assert fast.describe()["backend"] == "onnxruntime" and fast.describe()["dtype"] == "float32"


def test_spans_do_not_depend_on_the_batch_a_sentence_runs_in(tiny):
    from deid_desktop.core.detect.transformer import TransformerDetector

    one = _spans(TransformerDetector(str(tiny), backend="onnx", batch_size=1))
    many = _spans(TransformerDetector(str(tiny), backend="onnx", batch_size=64))
    alone = [_spans(TransformerDetector(str(tiny), backend="onnx"), [t])[0] for t in TEXTS]
    assert one == many == alone


def test_a_model_with_word_shapes_keeps_them(tiny_with_shapes):
    from deid_desktop.core.detect.transformer import TransformerDetector

    ref = TransformerDetector(str(tiny_with_shapes), backend="torch", precision="fp32")
    fast = TransformerDetector(str(tiny_with_shapes), backend="onnx")
    assert fast.shapes and fast.describe()["shape_features"]
    assert _spans(fast) == _spans(ref)


def test_export_happens_once_and_a_current_export_skips_the_torch_weights(tiny, monkeypatch):
    from deid_desktop.core.detect.transformer import TransformerDetector
    from deid_desktop.core.models import hf

    TransformerDetector(str(tiny), backend="onnx")
    exports = list((tiny / "onnx").glob("model-*.onnx"))
    assert len(exports) == 1
    assert exports[0].stat().st_mode & 0o777 == 0o600
    stamp = exports[0].stat().st_mtime_ns

    def no_torch_load(*a, **k):
        raise AssertionError("the torch weights were loaded although an export exists")

    monkeypatch.setattr(hf, "load_token_classifier", no_torch_load)
    det = TransformerDetector(str(tiny), backend="onnx")
    assert det.detect("Seen by Dr Aroha Ngata.") is not None
    assert list((tiny / "onnx").glob("model-*.onnx")) == exports and exports[0].stat().st_mtime_ns == stamp


def test_new_weights_are_exported_again_and_the_old_export_removed(tmp_path):
    from deid_desktop.core.detect.transformer import TransformerDetector

    folder = _tiny(tmp_path / "m", seed=1, layers=1)
    first = _spans(TransformerDetector(str(folder), backend="onnx"))
    old = list((folder / "onnx").glob("*.onnx"))
    _tiny(folder, seed=2, layers=1)  # "retrained": other weights
    st = (folder / "model.safetensors").stat()
    os.utime(folder / "model.safetensors", ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000))
    second_fast = _spans(TransformerDetector(str(folder), backend="onnx"))
    second_ref = _spans(TransformerDetector(str(folder), backend="torch", precision="fp32"))
    new = list((folder / "onnx").glob("*.onnx"))
    assert second_fast == second_ref != first
    assert len(new) == 1 and new != old


def test_a_read_only_model_is_exported_to_the_user_cache(tiny, tmp_path, monkeypatch):
    import shutil

    from deid_desktop.core.models import onnx_runner
    from deid_desktop.core.detect.transformer import TransformerDetector

    ro = tmp_path / "installed-model"
    shutil.copytree(tiny, ro, ignore=shutil.ignore_patterns("onnx"))
    cache = tmp_path / "cache"
    monkeypatch.setenv("DEID_CACHE", str(cache))
    real_access = os.access
    # an installed model's folder belongs to root (the tests may run as root, who may write anywhere)
    monkeypatch.setattr(onnx_runner.os, "access", lambda p, mode: False if Path(p) == ro else real_access(p, mode))
    det = TransformerDetector(str(ro), backend="onnx")
    assert _spans(det) == _spans(TransformerDetector(str(tiny), backend="onnx"))
    assert not (ro / "onnx").exists()
    (export,) = (cache / "onnx").glob("model-*.onnx")
    assert export.stat().st_mode & 0o777 == 0o600 and (cache / "onnx").stat().st_mode & 0o777 == 0o700


def test_auto_takes_onnx_on_a_cpu_unless_bf16_is_asked_for(tiny):
    from deid_desktop.core.detect.transformer import TransformerDetector, choose_backend
    from deid_desktop.core.errors import ModelError

    assert choose_backend("auto", "cpu", None, "auto") == "onnx"
    assert choose_backend("auto", "cpu", True, "auto") == "onnx"  # int8 on ONNX Runtime
    assert choose_backend("torch", "cpu", True, "auto") == "torch"
    assert choose_backend("auto", "cpu", None, "bf16") == "torch"
    assert choose_backend("auto", "cuda", None, "auto") == "torch"
    with pytest.raises(ModelError, match="CPU only"):
        choose_backend("onnx", "cuda", None, "auto")
    with pytest.raises(ModelError, match="unknown backend"):
        TransformerDetector(str(tiny), backend="tensorrt")
    assert TransformerDetector(str(tiny)).backend == "onnxruntime"


def test_a_damaged_export_is_a_clear_model_error(tmp_path):
    from deid_desktop.core.detect.transformer import TransformerDetector
    from deid_desktop.core.errors import ModelError
    from deid_desktop.core.models.tiny import build_tiny_model

    folder = build_tiny_model(tmp_path / "m", hidden=32, layers=1, heads=2)
    TransformerDetector(str(folder), backend="onnx")
    (export,) = (folder / "onnx").glob("*.onnx")
    export.write_bytes(export.read_bytes()[:1000])
    with pytest.raises(ModelError, match="ONNX Runtime could not load"):
        TransformerDetector(str(folder), backend="onnx")


def test_an_unknown_member_option_is_refused(tiny, tmp_path):
    from deid_desktop.core.detect.ensemble import Ensemble
    from deid_desktop.core.errors import ConfigError


    cfg = tmp_path / "e.toml"
    cfg.write_text(
        f'[ensemble]\nstrategy = "union"\n\n[[member]]\nname = "m"\ntype = "transformer"\nmodel = "{tiny}"\nbackend = "onnx"\nbatchsize = 8\n',
        encoding="utf-8",
    )
    with pytest.raises(ConfigError, match="batchsize"):
        Ensemble.from_config(cfg)
    cfg.write_text(cfg.read_text(encoding="utf-8").replace("batchsize", "batch_size"), encoding="utf-8")
    ens = Ensemble.from_config(cfg)
    assert ens.members["m"].backend == "onnxruntime" and ens.members["m"].batch_size == 8


def test_onnx_export_is_not_a_user_visible_path_leak(tiny, caplog):
    """Messages about exports name the model folder, never a document or a full path."""
    import logging

    from deid_desktop.core.detect.transformer import TransformerDetector

    with caplog.at_level(logging.INFO):
        TransformerDetector(str(tiny), backend="onnx")
    for rec in caplog.records:
        assert str(Path(tiny).parent) not in rec.getMessage()


def test_auto_falls_back_to_torch_when_the_export_fails(tmp_path, monkeypatch, caplog):
    from deid_desktop.core.models import onnx_runner
    from deid_desktop.core.detect.transformer import TransformerDetector
    from deid_desktop.core.errors import ModelError

    folder = _tiny(tmp_path / "odd-model", seed=4, layers=1)

    def cannot(*a, **k):
        raise ModelError("odd-model: the model could not be exported for ONNX Runtime (UnsupportedOp)")

    monkeypatch.setattr(onnx_runner, "export", cannot)
    det = TransformerDetector(str(folder))
    assert det.backend == "torch" and "running on torch instead" in caplog.text
    assert det.detect("Seen by Dr Aroha Ngata.") is not None
    with pytest.raises(ModelError, match="could not be exported"):
        TransformerDetector(str(folder), backend="onnx")


def test_the_light_tokenizer_encodes_exactly_as_transformers_does(tiny):
    from deid_desktop.core.models.fast_tokenizer import FastTokenizer, LabelConfig
    from deid_desktop.core.models.hf import load_config, load_tokenizer

    ref, light = load_tokenizer(tiny), FastTokenizer(tiny)
    texts = [*TEXTS, "Ngā mihi — Māori café naïve 😀 façade", "", "  spaced\tout\r\n", "x" * 3000]
    want = ref(texts, add_special_tokens=True, return_offsets_mapping=True, truncation=False)
    got = light(texts, add_special_tokens=True, return_offsets_mapping=True)
    for key in ("input_ids", "token_type_ids", "attention_mask", "offset_mapping"):
        assert [list(map(tuple, r)) if key == "offset_mapping" else list(r) for r in want[key]] == [
            list(map(tuple, r)) if key == "offset_mapping" else list(r) for r in got[key]
        ], key
    assert light.pad_token_id == ref.pad_token_id
    assert light.num_special_tokens_to_add(False) == ref.num_special_tokens_to_add(pair=False)
    assert LabelConfig(tiny).id2label == load_config(tiny).id2label


def test_a_detector_with_a_current_export_never_imports_torch_or_transformers(tiny):
    """Start-up: importing torch and transformers costs seconds; the CPU path needs neither."""
    import subprocess
    import sys

    from deid_desktop.core.detect.transformer import TransformerDetector

    expected = _spans(TransformerDetector(str(tiny), backend="torch", precision="fp32"))
    TransformerDetector(str(tiny))  # makes sure the export exists
    code = (
        "import sys, json\n"
        "from deid_desktop.core.detect.transformer import TransformerDetector\n"
        f"d = TransformerDetector({str(tiny)!r})\n"
        f"texts = {TEXTS!r}\n"
        "spans = [[(s.start, s.end, s.category.value, round(s.score, 3)) for s in doc] for doc in d.detect_many(texts)]\n"
        "print(json.dumps({'backend': d.backend, 'device': d.device, 'spans': spans,"
        " 'torch': 'torch' in sys.modules, 'transformers': 'transformers' in sys.modules}))\n"
    )
    import json

    env = {k: v for k, v in os.environ.items() if k not in ("CUDA_VISIBLE_DEVICES",)}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    got = json.loads(out.stdout.strip().splitlines()[-1])
    assert got["backend"] == "onnxruntime" and got["device"] == "cpu"
    assert got["torch"] is False and got["transformers"] is False
    assert got["spans"] == [[[a, b, c.value, d] for a, b, c, d in doc] for doc in expected]


def test_worker_processes_share_the_cores_instead_of_each_taking_all(tiny, monkeypatch):
    from deid_desktop import cli
    from deid_desktop.core.detect.transformer import TransformerDetector
    from deid_desktop.core.models import device

    monkeypatch.delenv("DEID_THREADS", raising=False)
    monkeypatch.setattr(device, "physical_cores", lambda: 4)
    assert cli._threads_per_worker(1) == 4 and cli._threads_per_worker(2) == 2 and cli._threads_per_worker(8) == 1
    assert TransformerDetector(str(tiny)).describe()["threads"] == 4
    monkeypatch.setenv("DEID_THREADS", "1")  # what _worker_init sets in each worker process
    assert TransformerDetector(str(tiny)).describe()["threads"] == 1
    monkeypatch.setenv("DEID_THREADS", "lots")  # nonsense is ignored
    assert TransformerDetector(str(tiny)).describe()["threads"] == 4


def _found(spans):
    return {(s, e, c) for doc in spans for s, e, c, _ in doc}


def test_int8_runs_on_onnx_runtime_and_keeps_nearly_all_spans(tiny):
    from deid_desktop.core.detect.transformer import TransformerDetector

    plain = _found(_spans(TransformerDetector(str(tiny), backend="onnx")))
    q = TransformerDetector(str(tiny), quantize=True)
    d = q.describe()
    assert q.backend == "onnxruntime" and d["dtype"] == "int8-dynamic" and q.quantized and d["batch_size"] == 1
    quant = _found(_spans(q))
    # the stated tolerance: int8 may move a few borderline words, not the findings
    assert len(plain & quant) >= 0.9 * len(plain) and len(quant - plain) <= 0.1 * len(plain)


def test_int8_spans_do_not_depend_on_what_a_sentence_is_read_with(tiny):
    from deid_desktop.core.detect.transformer import TransformerDetector

    together = _spans(TransformerDetector(str(tiny), quantize=True))
    alone = [_spans(TransformerDetector(str(tiny), quantize=True), [t])[0] for t in TEXTS]
    assert together == alone


def test_int8_export_is_made_once_beside_the_float32_one_and_replaced_with_new_weights(tmp_path):
    from deid_desktop.core.detect.transformer import TransformerDetector
    from deid_desktop.core.models import onnx_runner

    folder = _tiny(tmp_path / "model", seed=7)
    TransformerDetector(str(folder), quantize=True)
    first = sorted(p.name for p in (folder / "onnx").glob("*.onnx"))
    assert len(first) == 2 and any(n.endswith("-int8.onnx") for n in first)
    stamp = onnx_runner.export_path(folder, int8=True).stat().st_mtime_ns
    TransformerDetector(str(folder), quantize=True)
    assert onnx_runner.export_path(folder, int8=True).stat().st_mtime_ns == stamp  # not made again
    _tiny(folder, seed=8)  # new weights: new exports, the old ones gone
    TransformerDetector(str(folder), quantize=True)
    now = sorted(p.name for p in (folder / "onnx").glob("*.onnx"))
    assert len(now) == 2 and not set(now) & set(first)
