"""Running a transformer member with ONNX Runtime on the CPU.

Measured on this project's 2-core CPU (benchmarks/throughput.py, docs/benchmarks.md,
"Throughput"), against the torch float32 path: the same spans; loads in 0.7 s instead of 5 s
(neither torch nor transformers is imported) and peaks at a third of the memory; about a
quarter fewer documents per second on an idle machine, but 72 % of its own speed kept while
another process keeps a core busy, where torch, whose worker threads spin, kept 32 % and ended
slower. A desktop is rarely idle, so the CPU default is this runner. The graph is exported
from the torch model once and cached:

- beside the model, in ``<model>/onnx/``, when that folder can be written (a model built by
  ``make model`` or a workspace's retrained version), else
- in the user's cache folder (an installed, read-only model, or one a bundle ships: never
  written to, even where the file system would let root).

The cache file is named by a fingerprint of the weights and config files (path, size,
modification time), the torch version and the inputs, so a retrained or rebuilt model is
exported again and an old export is never used for new weights.

int8 (``quantize = true`` on a member) is a second export made from the float32 one:
ONNX Runtime's dynamic quantisation of the weight matrices (queries, keys, values, the
attention output and the feed-forward layers; per-channel int8 weights, activations
quantised per call). Activation scales are taken over the whole input, so the detector runs
an int8 model one sentence at a time: a sentence gives the same spans whatever it is read
with. Measured on the default ensemble (docs/benchmarks.md, "Throughput"): 1.3-1.4x the
documents per second of float32, PHI-word recall within 0.2 points on the development and
test halves of the hand-written notes and the synthetic held-out letters, precision 0.2-0.3
points lower; so it is offered, not the default. (Batches of 8 were 1.8x but lost 0.33
points of recall on the test half and changed with the batch; static quantisation with
calibrated scales lost up to a point.)
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import logging
import os
import tempfile
import warnings
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

import numpy as np

from ..errors import ModelError
from ..paths import in_bundle

log = logging.getLogger(__name__)

EXPORT_VERSION = "1"
OPSET = 17
# The weights, the labels and the tokenizer (which decides the graph's inputs).
FINGERPRINT_FILES = (
    "config.json",
    "model.safetensors",
    "pytorch_model.bin",
    "shape_embeddings.safetensors",
    "tokenizer.json",
    "tokenizer_config.json",
)


def available() -> bool:
    try:
        import onnxruntime  # noqa: F401
    except ImportError:
        return False
    return True


def cache_root() -> Path:
    """The per-user cache for exports of models whose own folder is read-only."""
    env = os.environ.get("DEID_CACHE")
    if env:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "deid-desktop"


def fingerprint(model_dir: Path) -> str:
    try:
        torch_version = importlib.metadata.version("torch")  # the exporter; not imported here
    except importlib.metadata.PackageNotFoundError:
        torch_version = "none"
    h = hashlib.sha256()
    h.update(f"{EXPORT_VERSION}|{OPSET}|{torch_version}|{model_dir.resolve()}".encode())
    for name in FINGERPRINT_FILES:
        f = model_dir / name
        if f.is_file():
            st = f.stat()
            h.update(f"|{name}:{st.st_size}:{st.st_mtime_ns}".encode())
    return h.hexdigest()[:24]


def _writable_dir(folder: Path) -> bool:
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError:
        return False
    return os.access(folder, os.W_OK | os.X_OK)


def export_path(model_dir: Path, int8: bool = False) -> Path:
    """Where the export of ``model_dir`` lives (it may not exist yet); ``int8``: its
    quantised version."""
    name = f"model-{fingerprint(model_dir)}{'-int8' if int8 else ''}.onnx"
    own = model_dir / "onnx"
    if not in_bundle(model_dir) and (own.is_dir() or os.access(model_dir, os.W_OK)):
        return own / name
    return cache_root() / "onnx" / name


class _LogitsOnly:
    """Wraps the token classifier so the exported graph takes named integer inputs and gives
    the logits alone."""

    def __new__(cls, model: Any, input_names: Sequence[str]):
        import torch

        names = list(input_names)

        class Wrapper(torch.nn.Module):
            def __init__(self) -> None:
                super().__init__()
                self.model = model

            def forward(self, *args: torch.Tensor) -> torch.Tensor:
                return self.model(**dict(zip(names, args))).logits

        return Wrapper()


def export(model: Any, input_names: Sequence[str], target: Path) -> Path:
    """Exports ``model`` (a torch token classifier) to ``target`` atomically, with the batch
    and sequence axes dynamic."""
    import torch

    target.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    wrapper = _LogitsOnly(model.float().cpu().eval(), input_names)
    sample = tuple(torch.ones((2, 8), dtype=torch.long) for _ in input_names)
    axes = {n: {0: "batch", 1: "sequence"} for n in [*input_names, "logits"]}

    def write(tmp: str) -> None:
        with warnings.catch_warnings(), torch.inference_mode(False), torch.no_grad():
            warnings.simplefilter("ignore")  # tracer notes on shape-dependent Python branches
            torch.onnx.export(
                wrapper,
                sample,
                tmp,
                input_names=list(input_names),
                output_names=["logits"],
                dynamic_axes=axes,
                opset_version=OPSET,
                dynamo=False,
            )

    return _write_export(target, write, "exported")


def _write_export(target: Path, write: Callable[[str], None], done: str) -> Path:
    """``write(path)`` into a private temporary file beside ``target``, which then replaces
    ``target`` (a half-written graph is never loaded); the exports of earlier weights go.
    ``done`` names the step in the one error message ("exported", "quantised")."""
    fd, tmp = tempfile.mkstemp(prefix=".export-", suffix=".onnx", dir=str(target.parent))
    os.close(fd)
    try:
        write(tmp)
        os.chmod(tmp, 0o600)
        os.replace(tmp, target)
    except Exception as e:
        Path(tmp).unlink(missing_ok=True)
        raise ModelError(f"{target.parent.parent.name}: the model could not be {done} for ONNX Runtime ({type(e).__name__})") from None
    _forget_earlier(target)
    return target


def _forget_earlier(target: Path) -> None:
    """Removes the exports of earlier weights beside ``target`` (this version's float32 and
    int8 files stay)."""
    keep = target.name.removesuffix(".onnx").removesuffix("-int8")
    for old in target.parent.glob("model-*.onnx"):
        if old.name.removesuffix(".onnx").removesuffix("-int8") != keep:
            old.unlink(missing_ok=True)


def weight_matmuls(path: Path) -> list[str]:
    """The graph's matrix products with a weight matrix: queries, keys, values, the
    attention output and the feed-forward layers (not the attention's own products of
    activations, nor the small classifier)."""
    import onnx

    graph = onnx.load(str(path), load_external_data=False).graph
    weights = {i.name for i in graph.initializer}
    return [n.name for n in graph.node if n.op_type == "MatMul" and any(x in weights for x in n.input) and "classifier" not in n.name]


def quantize_export(source: Path, target: Path) -> Path:
    """The int8 version of the float32 export ``source``, written atomically to ``target``."""
    from onnxruntime.quantization import QuantType, quantize_dynamic


    def write(tmp: str) -> None:
        # The quantiser logs advice on the root logger; the user has nothing to do about it.
        logging.disable(logging.WARNING)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                quantize_dynamic(
                    str(source), tmp, per_channel=True, weight_type=QuantType.QInt8,
                    op_types_to_quantize=["MatMul"], nodes_to_quantize=weight_matmuls(source),
                )
        finally:
            logging.disable(logging.NOTSET)

    return _write_export(target, write, "quantised")


class OnnxRunner:
    """An ONNX Runtime session over an exported token classifier: integer feeds in, logits
    out (float32, batch x sequence x labels)."""

    def __init__(self, path: Path, threads: int) -> None:
        import onnxruntime as ort

        so = ort.SessionOptions()
        so.intra_op_num_threads = max(1, int(threads))
        so.inter_op_num_threads = 1
        so.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
        so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        # Spinning workers burn the cores they wait on; on a desktop busy with other work that
        # turned a share of the machine into a collapse (issue 11). Sleep instead.
        so.add_session_config_entry("session.intra_op.allow_spinning", "0")
        so.log_severity_level = 3
        try:
            self.session = ort.InferenceSession(str(path), so, providers=["CPUExecutionProvider"])
        except Exception as e:  # a truncated or foreign file: one clear message
            raise ModelError(f"{path.name}: ONNX Runtime could not load the exported model ({type(e).__name__})") from None
        self.input_names = [i.name for i in self.session.get_inputs()]
        self.threads = so.intra_op_num_threads

    def __call__(self, feeds: Mapping[str, np.ndarray]) -> np.ndarray:
        return self.session.run(["logits"], {k: feeds[k] for k in self.input_names})[0]


def open_runner(model_dir: Path, threads: int, exportable: Callable[[], tuple[Any, list[str]]], int8: bool = False) -> OnnxRunner:
    """The runner for ``model_dir``, exporting it first when there is no current export;
    ``exportable()`` gives the torch model and its input names for that (it imports torch).
    ``int8``: the quantised version, made from the float32 export once."""
    path = export_path(model_dir)
    if not path.is_file():
        if not _writable_dir(path.parent):
            raise ModelError(f"{model_dir.name}: no writable folder for the ONNX export")
        log.info("exporting %s for ONNX Runtime (once per model version)", model_dir.name)
        model, names = exportable()
        export(model, names, path)
    if not int8:
        return OnnxRunner(path, threads)
    quantized = export_path(model_dir, int8=True)
    if not quantized.is_file():
        log.info("quantising %s to int8 for ONNX Runtime (once per model version)", model_dir.name)
        quantize_export(path, quantized)
    return OnnxRunner(quantized, threads)
