"""A tiny, randomly initialised BERT token classifier in a local folder.

Real forward and backward passes in seconds: tests, benchmarks of the plumbing and GUI smoke
runs use it where the real encoder's quality is not the point. It reuses the vocabulary and
tokenizer of the built-in MiniLM so text is tokenised exactly like the real model's.
"""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

import torch

from .hf import load_tokenizer, quiet, resolve_base_model, transformers
from .labels import DEFAULT_SCHEME


def build_tiny_model(
    out_dir: str | Path,
    *,
    labels: Sequence[str] | None = None,
    hidden: int = 32,
    layers: int = 2,
    heads: int = 2,
    seed: int = 0,
    tokenizer_from: str = "builtin:minilm",
) -> Path:
    """Write a tiny BertForTokenClassification with ``labels`` (our BIO tags by default) and
    the tokenizer of ``tokenizer_from`` to ``out_dir``; returns the folder."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    tokenizer = load_tokenizer(resolve_base_model(tokenizer_from))
    tags = list(labels) if labels is not None else DEFAULT_SCHEME.tags
    config = transformers.BertConfig(
        vocab_size=len(tokenizer),
        hidden_size=hidden,
        num_hidden_layers=layers,
        num_attention_heads=heads,
        intermediate_size=hidden * 2,
        max_position_embeddings=512,
        id2label=dict(enumerate(tags)),
        label2id={t: i for i, t in enumerate(tags)},
    )
    torch.manual_seed(seed)
    with quiet():
        model = transformers.BertForTokenClassification(config)
        model.save_pretrained(str(out))
        tokenizer.save_pretrained(str(out))
    return out
