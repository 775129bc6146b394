"""Fine-tuning a token classifier on gold documents.

Settings follow the papers where the CPU allows: AdamW with linear warm-up over 40% of the
steps then linear decay, batch 32 (000); weighted cross-entropy with weight 3 on PHI tags (004);
balanced or imbalanced sentence selection (003). The shipped defaults
(``resources/training/default.toml``, where each departure is explained) train on sentences
for 2 epochs at lr 1e-4 so each default member builds in a few minutes on a 2-core CPU.

Command line:

    python -m deid_desktop.core.learn.train --config resources/training/balanced.toml \\
        [--train gold.jsonl] [--val val.jsonl] [--synthetic 400] [--val-synthetic 40]
"""

from __future__ import annotations

import argparse
import logging
import math
import random
import sys
import time
import tomllib
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

import numpy as np
import torch

from ..errors import ConfigError, DeidError, ModelError
from ..config_files import NUMBER, Schema, check_table, read_toml_chain
from ..paths import resource
from .dataset import (
    SELECTIONS,
    UNITS,
    AugmentFn,
    DataSummary,
    PaddingCollator,
    build_examples,
    encode_examples,
    length_grouped_batches,
)
from .gold import GoldDocument, as_gold, load_jsonl
from .metrics import Evaluation, format_table
from ..models.device import autocast_dtype, pick_device, torch_threads
from ..models.hf import load_config, load_token_classifier, load_tokenizer, resolve_base_model
from ..models.labels import DEFAULT_SCHEME, LabelScheme
from ..models.modelio import load_manifest, resolve_model_dir, save_model
from ..models.shape_model import ShapeTokenClassifier, uses_shapes

log = logging.getLogger(__name__)

ProgressFn = Callable[[int, int, float], None]
StopFlag = Callable[[], bool] | Any  # a callable, or an object with is_set() (threading.Event)


class TrainingCancelled(DeidError):
    """Raised when ``should_stop`` asks the run to end; nothing is saved."""


@dataclass
class TrainConfig:
    name: str = "minilm-balanced"
    base_model: str = "builtin:minilm"
    selection: str = "balanced"  # balanced | imbalanced (003)
    unit: str = "sentence"  # sentence: one per example | chunk: sentences packed up to max_length (004)
    max_length: int = 128
    epochs: int = 2
    batch_size: int = 32
    learning_rate: float = 1e-4
    warmup_ratio: float = 0.4
    weight_decay: float = 0.01
    phi_weight: float = 3.0
    max_grad_norm: float = 1.0
    # Word embeddings stay as pre-trained: half of MiniLM's weights, so the optimiser step is
    # much cheaper on a CPU, and small corpora cannot pull rare-word vectors off (004 lowers
    # their learning rate for the same reason).
    freeze_embeddings: bool = True
    # Word shapes (capitals, digits, length, what surrounds the word) as an extra input the
    # uncased encoder cannot see (shape.py). The shape embedding starts at zero and learns
    # at shape_lr_scale times the learning rate: at the base rate, a few hundred steps
    # barely move it off zero.
    shape_features: bool = False
    shape_lr_scale: float = 20.0
    max_examples: int = 0  # 0: use every example (caps the synthetic corpus, never the notes below)
    # Hand-written training notes (core/learn/notes.py): a folder under resources/training/ or
    # a path ("" for none), read by build-model and this module's command, every sentence
    # kept; and how many surrogate rewrites of each note train beside it.
    notes: str = ""
    note_rewrites: int = 1
    seed: int = 13
    threads: int = 0  # 0: one per physical core
    device: str = "auto"
    # auto: bfloat16 autocast where the hardware does it natively (recent CUDA cards, CPUs
    # with AVX512-BF16/AMX), float32 elsewhere; bf16 or fp32 to force.
    precision: str = "auto"
    source_path: str | None = field(default=None, compare=False)

    def validate(self) -> None:
        if self.selection not in SELECTIONS:
            raise ConfigError(f"selection must be one of {', '.join(SELECTIONS)}")
        if self.unit not in UNITS:
            raise ConfigError(f"unit must be one of {', '.join(UNITS)}")
        if not 8 <= self.max_length <= 4096:
            raise ConfigError("max_length must be between 8 and 4096")
        if self.epochs < 1 or self.batch_size < 1:
            raise ConfigError("epochs and batch_size must be at least 1")
        if not 0 < self.learning_rate < 1:
            raise ConfigError("learning_rate must be in (0, 1)")
        if not 0 <= self.warmup_ratio < 1:
            raise ConfigError("warmup_ratio must be in [0, 1)")
        if self.phi_weight <= 0:
            raise ConfigError("phi_weight must be positive")
        if self.shape_lr_scale <= 0:
            raise ConfigError("shape_lr_scale must be positive")
        if self.precision not in ("auto", "bf16", "fp32"):
            raise ConfigError("precision must be auto, bf16 or fp32")
        if self.max_examples < 0 or self.threads < 0 or self.note_rewrites < 0:
            raise ConfigError("max_examples, threads and note_rewrites must not be negative")

    @classmethod
    def schema(cls) -> Schema:
        """Each setting with the TOML types it may have (a float setting also takes 3)."""
        defaults = cls()
        return {f.name: NUMBER if isinstance(getattr(defaults, f.name), float) else (type(getattr(defaults, f.name)),)
                for f in fields(cls) if f.name != "source_path"}

    @classmethod
    def from_dict(cls, data: dict[str, Any], source: str = "training configuration") -> "TrainConfig":
        """``source`` names the file in error messages."""
        check_table(data, cls.schema(), source, "[training]")
        cfg = cls()
        for k, v in data.items():
            setattr(cfg, k, float(v) if isinstance(getattr(cfg, k), float) else v)
        try:
            cfg.validate()
        except ConfigError as e:
            raise ConfigError(f"{source}: {e}") from None
        return cfg

    @classmethod
    def load(cls, path: str | Path | None = None, **overrides: Any) -> "TrainConfig":
        """Settings from a TOML file's ``[training]`` table; ``extends = "other.toml"`` at
        the top level reads that file first (relative to this one)."""
        p = Path(path) if path else resource("training", "default.toml")
        data = read_toml_chain(p, "training configuration", shipped=resource("training"), check=_check_training_file).get("training", {})
        data.update(overrides)
        cfg = cls.from_dict(data, source=p.name)
        cfg.source_path = str(p)
        return cfg

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d.pop("source_path", None)
        return d


def _check_training_file(data: dict[str, Any], file: str) -> None:
    """One training file as written: a ``[training]`` table of known settings."""
    check_table(data, {"training": (dict,)}, file, "the file")
    check_table(data.get("training", {}), TrainConfig.schema(), file, "[training]")


@dataclass
class TrainResult:
    model: Any
    tokenizer: Any
    config: TrainConfig
    scheme: LabelScheme
    base_model: str
    init_from: str | None
    data: dict[str, Any]
    losses: list[float]
    steps: int
    seconds: float
    train_seq_per_s: float
    device: str
    precision: str = "float32"
    metrics: Evaluation | None = None  # on the validation documents, if any
    validation: dict[str, Any] | None = None

    def save(
        self,
        name: str | None = None,
        *,
        models_root: str | Path | None = None,
        version: str | None = None,
        make_current: bool = True,
    ) -> Path:
        """Write the model under ``models/<name>/<version>/`` with manifest and model card."""
        extra: dict[str, Any] = {
            "training": {
                "steps": self.steps,
                "seconds": round(self.seconds, 1),
                "train_seq_per_s": round(self.train_seq_per_s, 2),
                "device": self.device,
                "precision": self.precision,
                "final_loss": round(float(np.mean(self.losses[-20:])), 4) if self.losses else None,
            }
        }
        if self.init_from:
            extra["init_from"] = self.init_from
        # Recorded for people and programs; loading reads the same from config.json.
        extra["shape_features"] = self.model.shape_spec if uses_shapes(self.model) else None
        if self.validation:
            extra["validation"] = self.validation
        return save_model(
            self.model,
            self.tokenizer,
            name or self.config.name,
            models_root=models_root,
            version=version,
            make_current=make_current,
            base_model=self.base_model,
            label_scheme=self.scheme.to_json(),
            config=self.config.to_dict(),
            data=self.data,
            metrics=self.metrics.to_dict() if self.metrics else {},
            metrics_table=format_table(self.metrics) if self.metrics else "",
            extra=extra,
        )


def _stop_requested(flag: StopFlag | None) -> bool:
    if flag is None:
        return False
    if hasattr(flag, "is_set"):
        return bool(flag.is_set())
    return bool(flag())


def _seed_everything(seed: int) -> None:
    random.seed(seed)
    np.random.seed(seed % (2**32))
    torch.manual_seed(seed)


def _start_model(path: Path, scheme: LabelScheme, shapes: bool = False) -> Any:
    """The model to fine-tune: as saved when it already predicts our tags, otherwise the
    encoder with a fresh classification head for our tags. ``shapes`` adds a word-shape
    embedding to a model that has none; a model saved with one keeps it either way (its
    weights were trained expecting it)."""
    cfg = load_config(path)
    id2label = getattr(cfg, "id2label", None) or {}
    if scheme.matches(id2label):
        model = load_token_classifier(path)
    else:
        model = load_token_classifier(
            path,
            num_labels=len(scheme.tags),
            id2label=scheme.id2label,
            label2id=scheme.label2id,
            ignore_mismatched_sizes=True,
        )
    if shapes and not uses_shapes(model):
        model = ShapeTokenClassifier(model)
    return model


def _optimizer(model: torch.nn.Module, cfg: TrainConfig) -> torch.optim.Optimizer:
    decay, no_decay, shape = [], [], []
    for n, p in model.named_parameters():
        if not p.requires_grad:
            continue
        if n.startswith("shape_embeddings."):
            shape.append(p)
            continue
        # Biases and normalisation gains are not weights to shrink.
        (no_decay if p.ndim < 2 or "LayerNorm" in n or "layer_norm" in n else decay).append(p)
    groups = [{"params": decay, "weight_decay": cfg.weight_decay}, {"params": no_decay, "weight_decay": 0.0}]
    if shape:  # the scheduler scales every group's own rate, so the ratio holds throughout
        groups.append({"params": shape, "weight_decay": 0.0, "lr": cfg.learning_rate * cfg.shape_lr_scale})
    try:  # the fused kernel is a third faster on CPU; older torch builds lack it there
        return torch.optim.AdamW(groups, lr=cfg.learning_rate, fused=True)
    except (RuntimeError, TypeError, ValueError):
        return torch.optim.AdamW(groups, lr=cfg.learning_rate)


def _linear_warmup(optimizer: torch.optim.Optimizer, warmup: int, total: int) -> torch.optim.lr_scheduler.LambdaLR:
    def factor(step: int) -> float:
        if step < warmup:
            return (step + 1) / max(1, warmup)
        return max(0.0, (total - step) / max(1, total - warmup))

    return torch.optim.lr_scheduler.LambdaLR(optimizer, factor)


def class_weights(scheme: LabelScheme, phi_weight: float) -> torch.Tensor:
    w = torch.full((len(scheme.tags),), float(phi_weight))
    w[scheme.outside_id] = 1.0
    return w


def train_model(
    config: TrainConfig,
    train_docs: Iterable[Any],
    val_docs: Sequence[Any] | None = None,
    *,
    init_from: str | None = None,
    progress: ProgressFn | None = None,
    should_stop: StopFlag | None = None,
    augment: AugmentFn | None = None,
    whole_docs: Sequence[Any] | None = None,
) -> TrainResult:
    """Fine-tune ``config.base_model`` (or the token classifier at ``init_from``) on
    ``train_docs`` and, when ``val_docs`` are given, score the result on them.
    ``whole_docs`` (hand-written notes) train beside them with every example kept:
    ``config.max_examples`` samples only ``train_docs``' examples.

    ``progress(step, total_steps, loss)`` is called after every optimiser step;
    ``should_stop`` (callable or threading.Event) is checked before every step and ends the
    run with TrainingCancelled. ``augment(doc)`` returns extra variants of a training document
    (004: surrogate replacement as augmentation)."""
    config.validate()
    device = pick_device(config.device)
    with torch_threads(config.threads if device.type == "cpu" else None):
        return _train(config, device, train_docs, val_docs, init_from, progress, should_stop, augment, whole_docs)


def _train(
    config: TrainConfig,
    device: torch.device,
    train_docs: Iterable[Any],
    val_docs: Sequence[Any] | None,
    init_from: str | None,
    progress: ProgressFn | None,
    should_stop: StopFlag | None,
    augment: AugmentFn | None,
    whole_docs: Sequence[Any] | None = None,
) -> TrainResult:
    """Load, encode, fit, score. The steps run in this order on purpose: seeding comes
    before the new head is initialised and one ``rng`` samples examples then orders batches,
    so a seed gives the same model as before the steps had names."""
    t_start = time.perf_counter()
    _seed_everything(config.seed)
    start_path, base_model = _starting_point(config, init_from)
    scheme = DEFAULT_SCHEME
    tokenizer = load_tokenizer(start_path)
    model = _start_model(start_path, scheme, shapes=config.shape_features)
    if config.freeze_embeddings:
        model.get_input_embeddings().weight.requires_grad_(False)
    rng = random.Random(config.seed)
    encoded, data = _training_examples(config, train_docs, tokenizer, model, scheme, augment, rng, whole_docs)
    fit = _fit(model, tokenizer, encoded, config, device, scheme, rng, progress, should_stop)
    model.eval()
    result = TrainResult(
        model=model,
        tokenizer=tokenizer,
        config=config,
        scheme=scheme,
        base_model=base_model,
        init_from=str(init_from) if init_from else None,
        data=data,
        losses=fit.losses,
        steps=fit.steps,
        seconds=0.0,
        train_seq_per_s=fit.seen / fit.seconds if fit.seconds > 0 else 0.0,
        device=str(device),
        precision=str(fit.amp).removeprefix("torch.") if fit.amp is not None else "float32",
    )
    if val_docs:
        result.metrics, result.validation = evaluate_model(model, tokenizer, val_docs, max_length=config.max_length)
    result.seconds = time.perf_counter() - t_start
    return result


def _starting_point(config: TrainConfig, init_from: str | None) -> tuple[Any, str]:
    """The folder training starts from (a trained version, else the base encoder) and the
    base encoder to record: a retrained version keeps the encoder its first version started
    from, so its lineage survives any number of retrains."""
    start_path = resolve_model_dir(init_from) if init_from else resolve_base_model(config.base_model)
    base_model = str(config.base_model)
    if init_from:
        try:
            base_model = str(load_manifest(start_path).get("base_model") or base_model)
        except ModelError:
            pass
    return start_path, base_model


def _training_examples(
    config: TrainConfig, train_docs: Iterable[Any], tokenizer: Any, model: Any, scheme: LabelScheme,
    augment: AugmentFn | None, rng: random.Random, whole_docs: Sequence[Any] | None = None,
) -> tuple[list[Any], dict[str, Any]]:
    """Encoded examples and the data record for the manifest. ``max_examples`` caps the
    examples of ``train_docs`` by a seeded sample so a quick run is still reproducible; every
    sentence of ``whole_docs`` (whatever ``config.selection``) is added after it. No example
    at all is an error rather than a model that learned nothing."""

    def examples_of(docs_in: Iterable[Any], selection: str) -> tuple[list[Any], DataSummary]:
        docs = [as_gold(d, i) for i, d in enumerate(docs_in)]
        return build_examples(
            docs,
            tokenizer,
            max_length=config.max_length,
            selection=selection,
            unit=config.unit,
            scheme=scheme,
            seed=config.seed,
            augment=augment,
        )

    examples, summary = examples_of(train_docs, config.selection)
    if config.max_examples and len(examples) > config.max_examples:
        keep = sorted(rng.sample(range(len(examples)), config.max_examples))
        examples = [examples[i] for i in keep]
    whole: list[Any] = []
    whole_summary = None
    if whole_docs:
        # every sentence, whatever the member's selection: a balanced one would drop PHI-free
        # sentences of the notes at random
        whole, whole_summary = examples_of(whole_docs, "imbalanced")
    encoded = encode_examples(examples + whole, tokenizer, config.max_length, shapes=uses_shapes(model))
    if not encoded:
        raise ModelError("no training examples: the documents contain no words to learn from")
    record = _data_record(summary, len(encoded), sum(len(e) for e in encoded))
    if whole_summary is not None:
        record["notes"] = {"documents": whole_summary.documents, "examples": len(whole), "phi_words": whole_summary.phi_words}
    return encoded, record


@dataclass
class _Fit:
    """What the optimisation loop reports: per-step losses, steps, examples seen, seconds
    spent, and the autocast dtype it ran under (None: float32)."""

    losses: list[float]
    steps: int
    seen: int
    seconds: float
    amp: Any


def _training_dtype(device: torch.device, precision: str) -> Any:
    """The autocast dtype, or None. float16 needs loss scaling this loop does not do, so it
    falls back to float32; bfloat16 does not need it."""
    amp = autocast_dtype(device, precision) if device.type in ("cuda", "cpu") else None
    return None if amp is torch.float16 else amp


def _fit(
    model: Any, tokenizer: Any, encoded: list[Any], config: TrainConfig, device: torch.device, scheme: LabelScheme,
    rng: random.Random, progress: ProgressFn | None, should_stop: StopFlag | None,
) -> _Fit:
    """The epochs: batches grouped by length (less padding), linear warm-up and decay, PHI
    classes weighted up (``phi_weight``) because most words are not PHI. Cancelling is
    checked before every step, so a stop request ends training within one batch."""
    model.to(device).train()
    collate = PaddingCollator(tokenizer.pad_token_id if tokenizer.pad_token_id is not None else 0)
    total = math.ceil(len(encoded) / config.batch_size) * config.epochs
    optimizer = _optimizer(model, config)
    trainable = [p for p in model.parameters() if p.requires_grad]
    scheduler = _linear_warmup(optimizer, int(round(config.warmup_ratio * total)), total)
    loss_fn = torch.nn.CrossEntropyLoss(weight=class_weights(scheme, config.phi_weight).to(device), ignore_index=-100)
    amp = _training_dtype(device, config.precision)
    lengths = [len(e) for e in encoded]
    fit = _Fit(losses=[], steps=0, seen=0, seconds=0.0, amp=amp)
    t_train = time.perf_counter()
    for _epoch in range(config.epochs):
        for batch_idx in length_grouped_batches(lengths, config.batch_size, rng):
            if _stop_requested(should_stop):
                raise TrainingCancelled("training was cancelled")
            batch = {k: v.to(device) for k, v in collate([encoded[i] for i in batch_idx]).items()}
            value = _step(model, batch, loss_fn, optimizer, scheduler, trainable, config.max_grad_norm, amp, device)
            fit.steps += 1
            fit.seen += len(batch_idx)
            fit.losses.append(value)
            if progress is not None:
                progress(fit.steps, total, value)
    fit.seconds = time.perf_counter() - t_train
    return fit


def _step(model: Any, batch: dict[str, Any], loss_fn: Any, optimizer: Any, scheduler: Any, trainable: list[Any],
          max_grad_norm: float, amp: Any, device: torch.device) -> float:
    """One optimiser step; returns its loss. A loss that is not a number stops training at
    once: every later step would only spread it through the weights."""
    labels = batch.pop("labels")
    if amp is not None:
        with torch.autocast(device.type, dtype=amp):
            logits = model(**batch).logits
    else:
        logits = model(**batch).logits
    loss = loss_fn(logits.float().reshape(-1, logits.shape[-1]), labels.reshape(-1))
    optimizer.zero_grad(set_to_none=True)
    loss.backward()
    if max_grad_norm > 0:
        torch.nn.utils.clip_grad_norm_(trainable, max_grad_norm)
    optimizer.step()
    scheduler.step()
    value = float(loss.detach())
    if not math.isfinite(value):
        raise ModelError("training diverged (the loss is not a number); try a lower learning_rate")
    return value


def _data_record(summary: DataSummary, n_encoded: int, n_tokens: int) -> dict[str, Any]:
    d = summary.to_json()
    d["examples_used"] = n_encoded
    d["tokens"] = n_tokens
    return d


def evaluate_model(
    model: Any, tokenizer: Any, val_docs: Sequence[Any], *, max_length: int | None = None
) -> tuple[Evaluation, dict[str, Any]]:
    """Metrics of a model in memory on gold documents, run the way the detector runs it by
    default (sentence by sentence). Returns (metrics, how it was run)."""
    from ..detect.transformer import TransformerDetector
    from .metrics import evaluate

    gold = [as_gold(d, i) for i, d in enumerate(val_docs)]
    det = TransformerDetector.from_loaded(
        model, tokenizer, name="validation", max_length=max_length, quantize=None, threads=torch.get_num_threads()
    )
    t = time.perf_counter()
    preds = det.detect_many([g.text for g in gold])
    seconds = time.perf_counter() - t
    metrics = evaluate(gold, preds)
    info = {
        "documents": len(gold),
        "device": det.device,
        "dtype": det.dtype,
        "seconds": round(seconds, 2),
    }
    # The detector may have moved or wrapped the model; training code gets it back as it was.
    model.train(False)
    return metrics, info


# -- command line -----------------------------------------------------------------------


def tqdm_progress(desc: str = "training", position: int | None = None) -> tuple[ProgressFn, Callable[[], None]]:
    """A progress callback drawing a tqdm bar (on line ``position`` when several processes
    draw one each), and a function that closes the bar."""
    from tqdm import tqdm

    bar: dict[str, Any] = {}

    def update(step: int, total: int, loss: float) -> None:
        if "bar" not in bar:
            bar["bar"] = tqdm(total=total, desc=desc, unit="step", dynamic_ncols=True, position=position)
        b = bar["bar"]
        b.update(step - b.n)
        b.set_postfix(loss=f"{loss:.4f}")

    def close() -> None:
        if "bar" in bar:
            bar["bar"].close()

    return update, close


def _parse_overrides(items: Sequence[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep:
            raise ConfigError(f"--set expects key=value, got {item!r}")
        try:
            out[key.strip()] = tomllib.loads(f"v = {value}")["v"]
        except tomllib.TOMLDecodeError:
            out[key.strip()] = value
    return out


def _synthetic(n: int, seed: int, split: str) -> list[GoldDocument]:
    from .synth import generate_corpus

    return [as_gold(d, i) for i, d in enumerate(generate_corpus(n, seed, split=split))]


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m deid_desktop.core.learn.train", description=__doc__.split("\n\n")[0])
    ap.add_argument("--config", help="training TOML (default: resources/training/default.toml)")
    ap.add_argument("--train", action="append", default=[], help="gold JSONL file (repeatable)")
    ap.add_argument("--val", action="append", default=[], help="validation gold JSONL file (repeatable)")
    ap.add_argument("--synthetic", type=int, default=0, help="add N synthetic training documents")
    ap.add_argument("--val-synthetic", type=int, default=0, help="validate on N synthetic held-out documents")
    ap.add_argument("--synthetic-seed", type=int, default=0)
    ap.add_argument("--models-dir", help="where models/<name>/<version> go (default: models/)")
    ap.add_argument("--name", help="model name (default: the config's name)")
    ap.add_argument("--version", help="version folder name (default: next vN)")
    ap.add_argument("--init-from", help="continue from this token-classification model folder")
    ap.add_argument("--no-current", action="store_true", help="do not point CURRENT at the new version")
    ap.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="override a setting")
    args = ap.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(message)s")
    try:
        cfg = TrainConfig.load(args.config, **_parse_overrides(args.set))
        train_docs: list[GoldDocument] = []
        for p in args.train:
            train_docs += load_jsonl(p)
        if args.synthetic:
            train_docs += _synthetic(args.synthetic, args.synthetic_seed, "train")
        val_docs: list[GoldDocument] = []
        for p in args.val:
            val_docs += load_jsonl(p)
        if args.val_synthetic:
            val_docs += _synthetic(args.val_synthetic, args.synthetic_seed + 1, "heldout")
        from .notes import config_notes

        if not train_docs:
            print("error: no training documents: give --train FILE and/or --synthetic N", file=sys.stderr)
            return 2
        update, close = tqdm_progress(cfg.name)
        try:
            result = train_model(cfg, train_docs, val_docs or None, init_from=args.init_from, progress=update,
                                 whole_docs=config_notes(cfg))
        finally:
            close()
        path = result.save(args.name, models_root=args.models_dir, version=args.version, make_current=not args.no_current)
    except (DeidError, ValueError, OSError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    print(f"saved {path}")
    print(
        f"{result.data['examples_used']} examples, {result.steps} steps in {result.seconds:.0f} s "
        f"({result.train_seq_per_s:.1f} sequences/s on {result.device})"
    )
    if result.metrics:
        print(format_table(result.metrics))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
