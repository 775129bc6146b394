"""The real base encoder loads from site-packages with the network cut off."""

from __future__ import annotations

import socket

import pytest
import torch

from deid_desktop.core.detect.transformer import TransformerDetector
from deid_desktop.core.models.hf import load_tokenizer, resolve_base_model
from deid_desktop.core.models.labels import DEFAULT_SCHEME
from deid_desktop.core.models.tiny import build_tiny_model
from deid_desktop.core.learn.train import _start_model


@pytest.fixture()
def no_network(monkeypatch):
    attempts = []

    def refuse(self, address):
        attempts.append(address)
        raise OSError("network access attempted during an offline test")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket.socket, "connect_ex", refuse)
    return attempts


def test_builtin_minilm_loads_offline_as_a_token_classifier(no_network):
    path = resolve_base_model("builtin:minilm")
    tok = load_tokenizer(path)
    model = _start_model(path, DEFAULT_SCHEME)
    assert model.config.hidden_size == 384 and model.config.num_hidden_layers == 6
    assert model.config.id2label == DEFAULT_SCHEME.id2label
    enc = tok(["Seen by Dr Ngata on 3/4/2020."], return_tensors="pt")
    with torch.inference_mode():
        logits = model(**enc).logits
    assert logits.shape == (1, enc["input_ids"].shape[1], len(DEFAULT_SCHEME.tags))
    assert no_network == []


def test_a_saved_detector_loads_offline(no_network, tmp_path):
    folder = build_tiny_model(tmp_path / "m")
    det = TransformerDetector(str(folder))
    det.detect("Seen by Dr Ngata today.")
    assert no_network == []
