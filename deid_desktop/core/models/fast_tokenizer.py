"""A model folder's tokenizer and label config read without transformers or torch.

Importing torch and transformers takes ~4 s on a 2-core laptop: most of the start-up of a
batch or of the review window's first detection. The ONNX Runtime path needs neither: the
fast tokenizer is the ``tokenizers`` library's own (what transformers wraps), and the labels
are in config.json. Both give exactly what the transformers classes give for our calls
(tests/core/models/test_onnx_runner.py compares them).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Sequence

from ..errors import ModelError
from .shape import CONFIG_KEY

os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

# transformers' stand-in for "no limit" in tokenizer_config.json
_NO_LIMIT = 10**12


def _read_json(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise ModelError(f"{path.parent.name}: {path.name} could not be read ({type(e).__name__})") from None
    if not isinstance(data, dict):
        raise ModelError(f"{path.parent.name}: {path.name} is not a JSON object")
    return data


def _token_text(value: Any) -> str | None:
    if isinstance(value, dict):  # {"content": "[PAD]", ...}
        value = value.get("content")
    return value if isinstance(value, str) else None


class FastTokenizer:
    """The calls TransformerDetector makes of a transformers fast tokenizer, served by the
    ``tokenizers`` library from ``tokenizer.json``."""

    is_fast = True

    def __init__(self, folder: str | Path) -> None:
        from tokenizers import Tokenizer

        folder = Path(folder)
        f = folder / "tokenizer.json"
        if not f.is_file():
            raise ModelError(f"{folder.name}: a fast tokenizer (tokenizer.json) is needed for character offsets")
        try:
            self._tok = Tokenizer.from_file(str(f))
        except Exception as e:  # the library raises its own exception type
            raise ModelError(f"{folder.name}: the tokenizer could not be loaded ({type(e).__name__})") from None
        # transformers turns both off for unpadded, untruncated calls; so do we
        self._tok.no_truncation()
        self._tok.no_padding()
        cfg_file = folder / "tokenizer_config.json"
        cfg = _read_json(cfg_file) if cfg_file.is_file() else {}
        pad = _token_text(cfg.get("pad_token"))
        self.pad_token_id = self._tok.token_to_id(pad) if pad else None
        limit = cfg.get("model_max_length")
        self.model_max_length = int(limit) if isinstance(limit, (int, float)) and limit < _NO_LIMIT else _NO_LIMIT

    def num_special_tokens_to_add(self, pair: bool = False) -> int:
        return self._tok.num_special_tokens_to_add(pair)

    def __call__(
        self,
        texts: str | Sequence[str],
        add_special_tokens: bool = True,
        return_offsets_mapping: bool = False,
        return_attention_mask: bool = True,
        truncation: bool = False,
    ) -> dict[str, list]:
        if truncation:
            raise ValueError("truncation is done by the caller (chunking.split_long)")
        if isinstance(texts, str):  # one text: flat lists, as transformers gives
            return {k: v[0] for k, v in self([texts], add_special_tokens, return_offsets_mapping, return_attention_mask).items()}
        encs = self._tok.encode_batch(list(texts), add_special_tokens=add_special_tokens)
        out: dict[str, list] = {"input_ids": [e.ids for e in encs], "token_type_ids": [e.type_ids for e in encs]}
        if return_attention_mask:
            out["attention_mask"] = [e.attention_mask for e in encs]
        if return_offsets_mapping:
            out["offset_mapping"] = [e.offsets for e in encs]
        return out


class LabelConfig:
    """What TransformerDetector reads of config.json: the labels, the position limit and
    whether the model reads word shapes."""

    def __init__(self, folder: str | Path) -> None:
        folder = Path(folder)
        data = _read_json(folder / "config.json")
        raw = data.get("id2label")
        if not isinstance(raw, dict) or not raw:
            raise ModelError(f"{folder.name}: config.json names no labels (id2label)")
        try:
            self.id2label = {int(k): str(v) for k, v in raw.items()}
        except ValueError:
            raise ModelError(f"{folder.name}: config.json has label ids that are not numbers") from None
        self.max_position_embeddings = int(data.get("max_position_embeddings") or 512)
        spec = data.get(CONFIG_KEY)
        self.shape_spec: dict[str, Any] | None = dict(spec) if isinstance(spec, dict) and spec else None
