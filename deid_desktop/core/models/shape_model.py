"""A Hugging Face token classifier that also reads word shapes (see ``shape.py``).

The shape embedding is added to the word embeddings before the encoder
(``inputs_embeds = word_embeddings(input_ids) + shape_embeddings(shape_ids)``), so the encoder
itself is unchanged and any model whose forward takes ``inputs_embeds`` can carry it. It starts
at zero: a fresh wrapper predicts exactly what the model under it predicts, and training moves
it only as far as shapes help.

On disk the model is what ``save_pretrained`` writes, plus ``shape_embeddings.safetensors``
and the ``deid_shape_features`` entry in config.json that says so. A folder without that entry
loads as the plain model it is.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import torch
from safetensors.torch import load_file, save_file

from ..errors import ModelError
from .shape import CONFIG_KEY, SHAPE_SPEC, check_spec

WEIGHTS_FILE = "shape_embeddings.safetensors"


class ShapeTokenClassifier(torch.nn.Module):
    """``base`` (a token classifier) with a learned embedding of word shapes."""

    def __init__(self, base: Any, spec: dict[str, Any] | None = None):
        super().__init__()
        self.base = base
        self.shape_spec = dict(spec or SHAPE_SPEC)
        hidden = base.get_input_embeddings().embedding_dim
        self.shape_embeddings = torch.nn.Embedding(int(self.shape_spec["vocab_size"]), hidden)
        torch.nn.init.zeros_(self.shape_embeddings.weight)

    @property
    def config(self) -> Any:
        return self.base.config

    def get_input_embeddings(self) -> torch.nn.Module:
        return self.base.get_input_embeddings()

    def forward(self, input_ids: torch.Tensor, shape_ids: torch.Tensor | None = None, **kwargs: Any) -> Any:
        embeds = self.base.get_input_embeddings()(input_ids)
        if shape_ids is not None:
            embeds = embeds + self.shape_embeddings(shape_ids).to(embeds.dtype)
        return self.base(inputs_embeds=embeds, **kwargs)

    def save_pretrained(self, folder: str | Path) -> None:
        self.base.config.update({CONFIG_KEY: self.shape_spec})
        try:
            self.base.save_pretrained(str(folder))
        finally:
            # The flag belongs to the folder; the base object in memory stays a plain model.
            delattr(self.base.config, CONFIG_KEY)
        save_file({"weight": self.shape_embeddings.weight.detach().float().cpu().contiguous()}, str(Path(folder) / WEIGHTS_FILE))


def saved_spec(config: Any) -> dict[str, Any] | None:
    """The shape vocabulary a loaded config records, or None for a plain model."""
    spec = getattr(config, CONFIG_KEY, None)
    return dict(spec) if spec else None


def wrap_loaded(base: Any, folder: str | Path) -> Any:
    """``base`` as loaded from ``folder``: wrapped with its saved shape embedding when the
    folder's config says it was trained with one, unchanged otherwise."""
    spec = saved_spec(base.config)
    if spec is None:
        return base
    name = Path(folder).name
    if not check_spec(spec):
        raise ModelError(f"{name}: the model was trained with word-shape features of another version")
    delattr(base.config, CONFIG_KEY)
    f = Path(folder) / WEIGHTS_FILE
    if not f.is_file():
        raise ModelError(f"{name}: {WEIGHTS_FILE} is missing (the model needs its word-shape weights)")
    try:
        weight = load_file(str(f))["weight"]
    except Exception as e:  # a truncated or foreign file; the user needs one message
        raise ModelError(f"{name}: {WEIGHTS_FILE} could not be read ({type(e).__name__})") from None
    model = ShapeTokenClassifier(base, spec)
    if tuple(weight.shape) != tuple(model.shape_embeddings.weight.shape):
        raise ModelError(f"{name}: {WEIGHTS_FILE} does not fit the model")
    with torch.no_grad():
        model.shape_embeddings.weight.copy_(weight)
    return model


def uses_shapes(model: Any) -> bool:
    return isinstance(model, ShapeTokenClassifier)
