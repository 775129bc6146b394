"""A fine-tuned transformer token classifier as an ensemble member.

Documents are read one sentence at a time (001). Across all documents of a call, sentences on
the inclusion list are skipped, identical sentences are run once, and the rest are sorted by
length and batched with padding to the longest in the batch. What a sentence gave is kept
for later calls (``SentenceMemo``): the re-scan of a written output reads again only the
sentences a surrogate changed, and a batch's repeated headers and templates run once. Each
word takes the prediction of its first sub-word; neighbouring words of one category form a
span whose score is the mean probability of that category over its words.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import warnings
from bisect import bisect_right
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Mapping, Sequence

import numpy as np

from ..errors import ModelError
from ..models.alignment import first_subwords
from ..models.chunking import content_budget, split_long
from ..models.device import accelerator_possible, default_threads
from ..models.fast_tokenizer import FastTokenizer, LabelConfig
from ..models.label_map import meanings_for
from ..models.labels import WordDecoder
from ..models.modelio import CURRENT, MANIFEST, load_manifest, resolve_model_dir
from ..models.shape import check_spec, shape_ids
from ..parallel import in_order
from ..spans import Span
from ..text import sentences as split_sentences
from ..text import words
from .base import Detector, register
from ..models.onnx_runner import OnnxRunner, open_runner
from ..models.onnx_runner import available as onnx_available

log = logging.getLogger(__name__)

# Backends and number formats on CPU. Measured first with a fine-tuned MiniLM on 703 held-out
# synthetic sentences (2-core AMD EPYC with AVX512-BF16, shared with other jobs, so ranges;
# sentences/s):
#   float32                       120-375
#   bfloat16 autocast             200-680
#   dynamic int8 Linear layers    225-940   word recall 0.9945 -> 0.9868 (precision up), and
#                                           115 of ~720 spans changed with the batch a
#                                           sentence ran in: activation scales are per batch
# Then benchmarks/throughput.py (120 documents, the default ensemble; docs/benchmarks.md):
#   torch float32, 64 a batch    9.4 docs/s idle, 3.1 with one core busy elsewhere, load 5.1 s
#   ONNX Runtime float32, 8      7.0 docs/s idle, 5.1 with one core busy elsewhere, load 0.7 s
#   identical spans; bfloat16 autocast changed 3 of 1,415 spans and was not faster here.
#   ONNX Runtime, the two models side by side, one thread each: 1.4x one after the other
#   ONNX Runtime int8 (weights per channel), one sentence at a time: 1.3-1.4x float32 again,
#   PHI-word recall within 0.2 points, precision 0.2-0.3 lower (onnx_runner.py)
# So on a CPU the default is ONNX Runtime in float32 (models/onnx_runner.py): quick to start, light,
# and steady on a desktop that is doing other work; `backend = "torch"` suits an idle batch
# machine. int8 (quantize=True) is opt-in, on ONNX Runtime (on torch with backend = "torch");
# bfloat16 (precision="bf16") is opt-in on the torch backend, which a GPU also uses.

# Sentences handled per pass: bounds memory for very large calls; within a pass they are
# sorted by length, so padding stays small.
WINDOW = 8192
# Sentences per forward pass when the ensemble file does not say (see _setup).
TORCH_BATCH = 64
ONNX_BATCH = 8
# Short pieces fill a batch further: up to the padded tokens of ``batch_size`` pieces of this
# many tokens, and at most this many times ``batch_size`` pieces (see _batches).
SLOT_TOKENS = 32
MAX_BATCH_GROWTH = 8


# Characters of sentences whose results are kept between calls (about twice that in bytes,
# with their spans): a whole 20 MB text's, so its re-scan reads only what changed.
MEMO_CHARS = 24_000_000


class SentenceMemo:
    """What the model found in each sentence it read (offsets within the sentence), the
    least recently used forgotten first past ``max_chars`` characters of sentences. The
    model reads a sentence alone, so its spans there do not depend on the call it came in
    (tests/core/detect/test_transformer.py checks batch against single). Held in memory
    only, for this loaded model: a retrained model is a new detector with an empty memo."""

    def __init__(self, max_chars: int = MEMO_CHARS):
        self.max_chars = max_chars
        self.chars = 0
        self._items: OrderedDict[str, list[Span]] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._items)

    def get(self, sentence: str) -> list[Span] | None:
        with self._lock:
            spans = self._items.get(sentence)
            if spans is not None:
                self._items.move_to_end(sentence)
            return spans

    def put(self, sentence: str, spans: list[Span]) -> None:
        if len(sentence) > self.max_chars:
            return
        with self._lock:
            if sentence in self._items:
                return
            self._items[sentence] = spans
            self.chars += len(sentence)
            while self.chars > self.max_chars:
                old, _ = self._items.popitem(last=False)
                self.chars -= len(old)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
            self.chars = 0


@dataclass
class _Piece:
    """One model input: a sentence, or part of an over-long one."""

    sentence: int  # index into the call's unique sentences
    offset: int  # start of the piece inside the sentence
    text: str
    enc: dict[str, list[int]]
    offsets: list[tuple[int, int]]


def quantize_linear_int8(model: Any) -> Any:
    """Dynamic int8 quantisation of every Linear layer (a torch module); None where this
    torch cannot."""
    import torch

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the eager API is deprecated in favour of torchao
            return torch.ao.quantization.quantize_dynamic(model, {torch.nn.Linear}, dtype=torch.qint8)
    except (AttributeError, RuntimeError, ImportError) as e:
        log.warning("int8 quantisation is not available here (%s); running in float32", type(e).__name__)
        return None


def _model_name(path: Path, manifest: Mapping[str, Any]) -> str:
    if manifest.get("name"):
        return str(manifest["name"])
    if (path.parent / CURRENT).is_file():  # models/<name>/<version>
        return path.parent.name
    return path.name


@register("transformer")
class TransformerDetector(Detector):
    def __init__(
        self,
        model_dir: str,
        *,
        name: str | None = None,
        device: str = "auto",
        batch_size: int | None = None,
        label_map: str | dict | None = None,
        max_length: int | None = None,
        quantize: bool | None = None,
        inclusion: Any = None,
        precision: str = "auto",
        threads: int | None = None,
        backend: str = "auto",
        batch_threads: int | None = None,
    ):
        """``threads``: the CPU threads of one forward pass; ``batch_threads``: forward
        passes run at once, each in a thread of its own (ONNX Runtime only; 1 without)."""
        path = resolve_model_dir(model_dir)
        manifest: dict[str, Any] = {}
        if (path / MANIFEST).is_file():
            try:
                manifest = load_manifest(path)
            except ModelError as e:
                log.warning("%s", e)
        device_name = resolve_device(device)
        chosen = choose_backend(backend, device_name, quantize, precision)
        n_threads = threads or default_threads()
        model: Any = None
        runner: OnnxRunner | None = None
        tokenizer: Any = None
        config: Any = None
        if chosen == "onnx":
            # With a current export neither torch nor transformers is imported, nor are the
            # weights loaded: start-up is ONNX Runtime's (seconds less; benchmarks/throughput.py).
            config = LabelConfig(path)
            if config.shape_spec is not None and not check_spec(config.shape_spec):
                raise ModelError(f"{path.name}: the model was trained with word-shape features of another version")
            try:
                runner = open_runner(path, n_threads, lambda: _exportable(path, config.shape_spec is not None), int8=bool(quantize))
                tokenizer = FastTokenizer(path)
            except ModelError as e:
                if backend == "onnx":
                    raise
                # "auto": a model the exporter cannot take still runs, on torch
                log.warning("%s; running on torch instead", e)
                runner = None
        if runner is None:
            from ..models.hf import load_config, load_token_classifier, load_tokenizer

            tokenizer = load_tokenizer(path)
            config = load_config(path)  # a clear error for a broken config before the weights load
            model = load_token_classifier(path)
        self._setup(
            model,
            tokenizer,
            config=config,
            runner=runner,
            name=name or _model_name(path, manifest),
            device=device,
            batch_size=batch_size,
            label_map=label_map,
            max_length=max_length or (manifest.get("config") or {}).get("max_length"),
            quantize=quantize,
            inclusion=inclusion,
            precision=precision,
            threads=n_threads,
            path=path,
            manifest=manifest,
            batch_threads=batch_threads,
        )

    @classmethod
    def from_loaded(
        cls,
        model: Any,
        tokenizer: Any,
        *,
        name: str = "transformer",
        device: str = "auto",
        batch_size: int | None = None,
        label_map: str | dict | None = None,
        max_length: int | None = None,
        quantize: bool | None = False,
        inclusion: Any = None,
        precision: str = "auto",
        threads: int | None = None,
    ) -> "TransformerDetector":
        """A detector over a model already in memory (evaluation right after training)."""
        det = cls.__new__(cls)
        det._setup(
            model, tokenizer, config=model.config, runner=None, name=name, device=device, batch_size=batch_size, label_map=label_map,
            max_length=max_length, quantize=quantize, inclusion=inclusion, precision=precision,
            threads=threads, path=None, manifest={},
        )
        return det

    def _setup(
        self,
        model: Any,
        tokenizer: Any,
        *,
        config: Any,
        runner: "OnnxRunner | None",
        name: str,
        device: str,
        batch_size: int | None,
        label_map: str | Mapping | None,
        max_length: int | None,
        quantize: bool | None,
        inclusion: Any,
        precision: str,
        threads: int | None,
        path: Path | None,
        manifest: dict[str, Any],
        batch_threads: int | None = None,
    ) -> None:
        onnx_int8 = runner is not None and bool(quantize)
        if onnx_int8:
            # int8 activation scales are taken over the whole input: one sentence at a time,
            # a sentence's spans do not depend on what it was read with (onnx_runner.py).
            batch_size = 1
        elif batch_size is None:
            # ONNX Runtime on a CPU is fastest on small batches (less padding, measured in
            # docs/benchmarks.md, "Throughput"); torch, and a GPU, on large ones.
            batch_size = ONNX_BATCH if runner is not None else TORCH_BATCH
        if batch_size < 1:
            raise ModelError("batch_size must be at least 1")
        self.name = name
        self.inclusion = inclusion
        self.batch_size = batch_size
        self.path = path
        self.manifest = manifest
        self.tokenizer = tokenizer
        meanings, self.label_reading = meanings_for(config.id2label, label_map)
        self.decoder = WordDecoder(meanings)
        limit = min(
            int(getattr(config, "max_position_embeddings", 512) or 512),
            int(getattr(tokenizer, "model_max_length", 512) or 512),
            512,
        )
        self.max_length = min(int(max_length), limit) if max_length else limit
        self.budget = content_budget(tokenizer, self.max_length)
        self._device: Any = CPU if runner is not None else _torch_device(device)
        self.threads = threads or default_threads()
        self.runner = runner
        # Forward passes at once: an ONNX Runtime session runs calls from several threads,
        # each on its caller's thread when the session has one thread; torch has one pool.
        self.batch_threads = max(1, int(batch_threads or 1)) if runner is not None else 1
        self.quantized = onnx_int8
        self._autocast: Any = None  # a torch.dtype to autocast to, on the torch path
        if runner is not None:
            # A model trained with word shapes gets them computed from each piece's cased text.
            self.shapes = "shape_ids" in runner.input_names
            self.model = None
        else:
            from ..models.device import autocast_dtype
            from ..models.shape_model import uses_shapes

            self.shapes = uses_shapes(model)
            model = model.to(self._device).eval()
            want_int8 = bool(quantize)  # None: the default, which is off (see the table above)
            if want_int8 and self._device.type == "cpu":
                q = quantize_linear_int8(model)
                if q is not None:
                    model, self.quantized = q, True
            if not self.quantized and self._device.type in ("cuda", "cpu"):
                self._autocast = autocast_dtype(self._device, precision)
            self.model = model
        self.pad_id = tokenizer.pad_token_id if tokenizer.pad_token_id is not None else 0
        self.memo = SentenceMemo()

    # -- description ---------------------------------------------------------------------
    @property
    def device(self) -> str:
        return str(self._device)

    @property
    def backend(self) -> str:
        return "onnxruntime" if self.runner is not None else "torch"

    @property
    def dtype(self) -> str:
        if self.quantized:
            return "int8-dynamic"
        if self._autocast is not None:
            return str(self._autocast).removeprefix("torch.")
        return "float32"

    def describe(self) -> dict[str, Any]:
        m = self.manifest
        return {
            "type": "transformer",
            "name": self.name,
            "model": m.get("name") or (self.path.name if self.path else self.name),
            "version": m.get("version") or (self.path.name if self.path else None),
            "path": str(self.path) if self.path else None,
            "base_model": m.get("base_model"),
            "device": self.device,
            "backend": self.backend,
            "dtype": self.dtype,
            "quantized": self.quantized,
            "labels": self.label_reading,
            "shape_features": self.shapes,
            "max_length": self.max_length,
            "batch_size": self.batch_size,
            "threads": (self.runner.threads if self.runner is not None else self.threads) if self._device.type == "cpu" else None,
            "batch_threads": self.batch_threads,
        }

    # -- detection -----------------------------------------------------------------------
    def detect(self, text: str) -> list[Span]:
        return self.detect_many([text])[0]

    def detect_many(
        self,
        texts: Sequence[str],
        progress: Callable[[float], None] | None = None,
        wanted: Sequence[Sequence[tuple[int, int]] | None] | None = None,
    ) -> list[list[Span]]:
        """``progress``, when given, is called after each batch with the share of the
        call's sentences done (0-1): a long document takes a while. ``wanted``, when given,
        holds for each text the sorted, disjoint character ranges whose sentences are to be
        read (None: all of that text); the other sentences are left unread and give no
        spans (the ensemble's cascade, ensemble/cascade.py)."""
        # CPU threads: one per physical core while this runs (``threads`` to change it).
        if self.runner is not None:  # the session has its own threads
            return self._detect_many(texts, progress, wanted)
        from ..models.device import torch_threads

        with torch_threads(self.threads if self._device.type == "cpu" else None):
            return self._detect_many(texts, progress, wanted)

    def _detect_many(
        self,
        texts: Sequence[str],
        progress: Callable[[float], None] | None = None,
        wanted: Sequence[Sequence[tuple[int, int]] | None] | None = None,
    ) -> list[list[Span]]:
        results: list[list[Span]] = [[] for _ in texts]
        unique: dict[str, int] = {}
        sentence_texts: list[str] = []
        placements: list[list[tuple[int, int]]] = []  # per sentence to run: (doc, offset)
        for di, text in enumerate(texts):
            ranges = wanted[di] if wanted is not None else None
            starts = [r[0] for r in ranges] if ranges is not None else None
            for s, e in split_sentences(text):
                if ranges is not None:
                    i = bisect_right(starts, e - 1)  # the last range starting inside or before
                    if i == 0 or ranges[i - 1][1] <= s:
                        continue
                sent = text[s:e]
                if not words(sent):
                    continue  # punctuation or symbols only: nothing to tag
                if self.inclusion is not None and self.inclusion.contains(sent):
                    continue
                known = self.memo.get(sent)
                if known is not None:
                    results[di].extend(sp.with_(start=sp.start + s, end=sp.end + s) for sp in known)
                    continue
                k = unique.get(sent)
                if k is None:
                    k = unique[sent] = len(sentence_texts)
                    sentence_texts.append(sent)
                    placements.append([])
                placements[k].append((di, s))
        total = len(sentence_texts)
        for w in range(0, total, WINDOW):
            window = sentence_texts[w : w + WINDOW]
            done = (lambda f, w=w, n=len(window): progress((w + f * n) / total)) if progress else None
            found = self._run_sentences(window, done)
            for k, spans in enumerate(found):
                self.memo.put(window[k], spans)
                for di, off in placements[w + k]:
                    results[di].extend(sp.with_(start=sp.start + off, end=sp.end + off) for sp in spans)
        if progress is not None and total == 0:
            progress(1.0)
        return [sorted(r, key=lambda s: (s.start, s.end)) for r in results]

    def _run_sentences(self, sents: list[str], progress: Callable[[float], None] | None = None) -> list[list[Span]]:
        pieces = self._pieces(sents)
        out: list[list[Span]] = [[] for _ in sents]
        order = sorted(range(len(pieces)), key=lambda i: len(pieces[i].enc["input_ids"]))
        batches = [(e, [pieces[i] for i in order[b:e]]) for b, e in self._batches([len(pieces[i].enc["input_ids"]) for i in order])]
        for e, batch, probs in self._forwarded(batches):
            for piece, p in zip(batch, probs):
                ws = words(piece.text)
                firsts = first_subwords(ws, piece.offsets)
                word_probs = np.zeros((len(ws), p.shape[-1]), dtype=np.float32)
                for wi, j in enumerate(firsts):
                    if j is not None:
                        word_probs[wi] = p[j]
                out[piece.sentence].extend(self.decoder.decode(ws, word_probs, offset=piece.offset, source=self.name))
            if progress is not None:
                progress(min(1.0, e / len(order)))
        return out

    def _forwarded(self, batches: list[tuple[int, list[_Piece]]]) -> Iterator[tuple[int, list[_Piece], list[np.ndarray]]]:
        """(end, batch, probabilities) for each batch, in the order given. With
        ``batch_threads`` above one the forward passes run that many at once in threads of
        their own, a few batches ahead of the caller, who decodes (``parallel.in_order``); a
        pass's result does not depend on what runs beside it, so the spans are those of one
        pass after another (tests/core/detect/test_cascade.py)."""
        threads = self.batch_threads if len(batches) > 1 else 1
        for (e, batch), probs in in_order(lambda b: self._forward(b[1]), batches, threads, "deid-batch"):
            yield e, batch, probs

    def _batches(self, lengths: list[int]) -> Iterable[tuple[int, int]]:
        """(start, end) of each forward pass over pieces of ``lengths`` (in tokens, sorted):
        ``batch_size`` pieces, and more while the padded batch holds no more tokens than
        ``batch_size`` pieces of ``SLOT_TOKENS`` would (at most ``MAX_BATCH_GROWTH`` times
        as many pieces). Short lines ("HR 72 reg", a log's entries) are read 1.2x faster
        in batches of tens (one thread, the short-line file of benchmarks/huge_files.py);
        sentences of ordinary notes keep the small batches that suit them and their speed
        (docs/benchmarks.md, "Issues 10 and 11, sixth pass"). A piece's result does not
        depend on its batch (tests/core/detect/test_transformer.py)."""
        size = self.batch_size
        budget = size * SLOT_TOKENS
        cap = size * MAX_BATCH_GROWTH if size > 1 else 1
        b = 0
        while b < len(lengths):
            e = min(b + size, len(lengths))
            while e < len(lengths) and e - b < cap and (e - b + 1) * lengths[e] <= budget:
                e += 1
            yield b, e
            b = e

    def _encode(self, texts: list[str]) -> dict[str, list]:
        if self.runner is not None:
            return self.tokenizer(texts, add_special_tokens=True, return_offsets_mapping=True, truncation=False)
        from ..models.hf import quiet

        with quiet():  # over-long sentences warn; they are cut below
            return self.tokenizer(texts, add_special_tokens=True, return_offsets_mapping=True, truncation=False)

    def _pieces(self, sents: list[str]) -> list[_Piece]:
        if not sents:
            return []
        enc = self._encode(sents)
        keys = [k for k in enc.keys() if k != "offset_mapping"]
        pieces: list[_Piece] = []
        long: list[tuple[int, str, int]] = []  # (sentence, piece text, offset in sentence)
        for i, sent in enumerate(sents):
            offs = [tuple(o) for o in enc["offset_mapping"][i]]
            if len(offs) <= self.max_length:
                pieces.append(self._piece(i, 0, sent, {k: enc[k][i] for k in keys}, offs))
                continue
            for c in split_long(sent, 0, len(sent), [o for o in offs if o[1] > o[0]], self.budget):
                long.append((i, sent[c.start : c.end], c.start))
        if long:
            enc2 = self._encode([t for _, t, _ in long])
            keys2 = [k for k in enc2.keys() if k != "offset_mapping"]
            for n, (i, text, off) in enumerate(long):
                offs = [tuple(o) for o in enc2["offset_mapping"][n]][: self.max_length]
                ids = {k: enc2[k][n][: self.max_length] for k in keys2}
                pieces.append(self._piece(i, off, text, ids, offs))
        return pieces

    def _piece(self, sentence: int, offset: int, text: str, enc: dict[str, list[int]], offs: list) -> _Piece:
        if self.shapes:
            enc = {**enc, "shape_ids": shape_ids(text, offs)}
        return _Piece(sentence, offset, text, enc, offs)

    def _forward(self, batch: list[_Piece]) -> list[np.ndarray]:
        n = max(len(p.enc["input_ids"]) for p in batch)
        feeds: dict[str, np.ndarray] = {}
        for key in batch[0].enc:
            fill = self.pad_id if key == "input_ids" else 0
            feeds[key] = np.array([p.enc[key] + [fill] * (n - len(p.enc[key])) for p in batch], dtype=np.int64)
        if self.runner is not None:
            probs = _softmax(self.runner(feeds))
        else:
            probs = self._torch_forward(feeds)
        return [probs[i, : len(p.enc["input_ids"])] for i, p in enumerate(batch)]

    def _torch_forward(self, feeds: dict[str, np.ndarray]) -> np.ndarray:
        import torch

        tensors = {k: torch.from_numpy(v).to(self._device) for k, v in feeds.items()}
        ctx = (
            torch.autocast(device_type=self._device.type, dtype=self._autocast)
            if self._autocast is not None
            else contextlib.nullcontext()
        )
        with torch.inference_mode(), ctx:
            logits = self.model(**tensors).logits
        return torch.softmax(logits.float(), dim=-1).cpu().numpy()


def _softmax(logits: np.ndarray) -> np.ndarray:
    z = logits.astype(np.float32, copy=False)
    z = np.exp(z - z.max(axis=-1, keepdims=True))
    return z / z.sum(axis=-1, keepdims=True)


BACKENDS = ("auto", "torch", "onnx")


def choose_backend(backend: str, device: str, quantize: bool | None, precision: str) -> str:
    """"torch" or "onnx" for ``backend`` on ``device`` (a device type: "cpu", "cuda", "mps").
    "auto" takes ONNX Runtime on the CPU (float32, the same spans; starts seconds sooner in
    a third of the memory and keeps most of its speed on a busy machine, where torch
    collapses; int8 too) unless bfloat16 was asked for, which only the torch path has;
    torch on a GPU."""
    if backend not in BACKENDS:
        raise ModelError(f"unknown backend {backend!r}; expected one of {', '.join(BACKENDS)}")
    if backend == "torch":
        return "torch"
    on_cpu = device == "cpu"
    if backend == "onnx":
        if not on_cpu:
            raise ModelError(f"backend = \"onnx\" runs on the CPU only, not on {device}")
        if not onnx_available():
            raise ModelError("backend = \"onnx\" needs the onnxruntime package, which is not installed")
        return "onnx"
    if on_cpu and precision != "bf16" and onnx_available():
        return "onnx"
    return "torch"


class _Cpu:
    """The device of the ONNX Runtime path, without importing torch for a torch.device."""

    type = "cpu"

    def __str__(self) -> str:
        return "cpu"


CPU = _Cpu()


def resolve_device(device: str) -> str:
    """The device type ``device`` means here: "auto" asks torch only where an accelerator
    is possible at all (a CUDA build of torch with an NVIDIA driver, or a Mac), so a CPU
    machine never pays torch's import to learn it has none."""
    if device and device != "auto":
        return str(device).split(":")[0]
    if not accelerator_possible():
        return "cpu"
    return _torch_device("auto").type


def _torch_device(device: str) -> Any:
    from ..models.device import pick_device

    return pick_device(device)


def _exportable(path: Path, shapes: bool) -> tuple[Any, list[str]]:
    """The torch model of ``path`` and the input names its tokenizer produces, for export."""
    from ..models.hf import load_token_classifier, load_tokenizer

    return load_token_classifier(path), input_names(load_tokenizer(path), shapes)


def input_names(tokenizer: Any, shapes: bool) -> list[str]:
    """The model inputs the tokenizer produces (input_ids, attention_mask, ...), plus the
    word shapes for a model trained with them."""
    from ..models.hf import quiet

    with quiet():
        keys = [k for k in tokenizer(["a"], return_offsets_mapping=True).keys() if k != "offset_mapping"]
    return keys + (["shape_ids"] if shapes else [])
