"""Sub-commands for the synthetic corpus, the default models and evaluation."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

DEFAULT_MEMBERS = ("balanced", "imbalanced")  # resources/training/<member>.toml


def _err(msg: str) -> None:
    print(f"deid-desktop: {msg}", file=sys.stderr)


def cmd_synth(args) -> int:
    from .core.learn.synth import generate_corpus, write_jsonl

    n = write_jsonl(generate_corpus(args.n, seed=args.seed, split=args.split), Path(args.out))
    _err(f"wrote {n} synthetic documents ({args.split} split) to {args.out}")
    return 0


def cmd_build_model(args) -> int:
    """Fine-tune the default ensemble's transformer members on the synthetic corpus and the
    hand-written training notes (resources/training/notes/).

    With two members, two or more CPU cores and no ``--threads``, the members train side by
    side, each in its own process on its share of the cores: on 2 cores 283 s against 338 s
    one after the other (a single training gains little from its second thread)."""
    from .core.detect.ensemble import resolve_model_dir
    from .core.learn.train import TrainConfig
    from .core.models.device import default_threads
    from .core.paths import own_models_dir, resource

    root = Path(args.models_dir) if args.models_dir else own_models_dir()  # never the read-only bundle
    todo = []
    for member in args.members.split(","):
        cfg = TrainConfig.load(resource("training", f"{member.strip()}.toml"))
        if args.if_missing and resolve_model_dir(root / cfg.name) is not None:
            continue
        todo.append(cfg)
    if not todo:
        _err("default models are present (models/); nothing to build")
        return 0
    t0 = time.perf_counter()
    cores = default_threads()
    side_by_side = len(todo) > 1 and not args.threads and cores >= len(todo) and not getattr(args, "one_at_a_time", False)
    for cfg in todo:
        if args.epochs:
            cfg.epochs = args.epochs
        if getattr(args, "notes", None) is not None:
            cfg.notes = str(Path(args.notes).resolve()) if args.notes else ""
        if args.threads:
            cfg.threads = args.threads
        elif side_by_side:
            cfg.threads = cores // len(todo)
    how = f"side by side, {cores // len(todo)} thread(s) each" if side_by_side else "one after the other"
    notes = " and the hand-written training notes" if any(c.notes for c in todo) else ""
    _err(f"building {', '.join(c.name for c in todo)} ({how}) from {args.docs} synthetic documents{notes}; "
         "this takes a few minutes on a CPU")
    jobs = [(cfg, args.docs, args.val_docs, args.seed, str(root), i if side_by_side else None) for i, cfg in enumerate(todo)]
    if side_by_side:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        # spawned, not forked: a fork of a process that has started torch's threads can hang
        with ProcessPoolExecutor(max_workers=len(jobs), mp_context=multiprocessing.get_context("spawn")) as pool:
            for done in [pool.submit(_build_member, *job) for job in jobs]:
                done.result()
    else:
        for job in jobs:
            _build_member(*job)
    _err(f"done in {time.perf_counter() - t0:.0f} s")
    return 0


def _build_member(cfg, docs: int, val_docs: int, seed: int, root: str, bar: int | None) -> None:
    """Train one member and save it under ``root`` (in this process or a worker's). The
    corpus is generated here from the seed: the same documents in every process."""
    from .core.learn.gold import as_gold
    from .core.learn.notes import config_notes
    from .core.learn.synth import generate_corpus
    from .core.learn.train import tqdm_progress, train_model

    # Training documents come from the training template families only; validation uses
    # fresh fills of the same families (the held-out families are kept for benchmarks).
    train = [as_gold(d, i) for i, d in enumerate(generate_corpus(docs, seed=seed, split="train"))]
    val = [as_gold(d, i) for i, d in enumerate(generate_corpus(val_docs, seed=seed + 1000, split="train"))]
    # Hand-written notes (resources/training/notes/) and surrogate rewrites of them, every
    # sentence kept: on notes of styles nobody here tuned against they lift PHI-word recall
    # from 0.972 to 0.990 (docs/benchmarks.md, "fourteenth pass").
    notes = config_notes(cfg)
    update, close = tqdm_progress(cfg.name, position=bar)
    try:
        result = train_model(cfg, train, val, progress=update, whole_docs=notes)
    finally:
        close()
    path = result.save(cfg.name, models_root=Path(root))
    recall, precision = (result.metrics.token.recall, result.metrics.token.precision) if result.metrics else (float("nan"), float("nan"))
    read = f"{len(notes)} notes and rewrites, " if notes else ""
    _err(f"{cfg.name}: saved {path} ({read}{result.steps} steps, {result.seconds:.0f} s, "
         f"validation PHI-word recall {recall:.3f}, precision {precision:.3f})")
    _prepare_cpu_runtime(path)


def _prepare_cpu_runtime(path: Path) -> None:
    """Exports the new model for ONNX Runtime now, so the first detection does not wait for
    it (core/models/onnx_runner.py); where that cannot be done it happens, or is skipped, at
    first use."""
    from .core.detect.transformer import TransformerDetector
    from .core.errors import ModelError

    try:
        det = TransformerDetector(str(path))
    except ModelError as e:
        _err(f"{path.name}: not prepared for ONNX Runtime ({e})")
        return
    if det.backend == "onnxruntime":
        _err(f"{path.parent.name}: exported for ONNX Runtime")


def cmd_evaluate(args) -> int:
    from .core.learn.gold import load_jsonl
    from .core.learn.metrics import evaluate, format_table

    gold = load_jsonl(args.gold)
    if args.pred:
        preds = []
        with open(args.pred, encoding="utf-8") as f:
            for line in f:
                if line.strip():
                    preds.append(json.loads(line))
        from .core.spans import Span

        pred_docs = [{"id": p.get("id"), "spans": [Span.from_json(s) for s in p.get("spans", [])]} for p in preds]
        by_id = {p["id"]: p["spans"] for p in pred_docs}
        missing = [g.id for g in gold if g.id not in by_id]
        if missing:
            _err(f"{len(missing)} gold document(s) have no prediction (first: {missing[0]}); they count as all missed")
        pred_spans = [by_id.get(g.id, []) for g in gold]
    elif args.ensemble:
        from .cli import build_detector

        det = build_detector(args)
        pred_spans = det.detect_many([g.text for g in gold])
    else:
        _err("give --pred FILE or --ensemble CONFIG")
        return 2
    result = evaluate(gold, pred_spans, only_ages_over_89=args.ages_over_89)
    print(format_table(result))
    if args.json:
        Path(args.json).write_text(json.dumps(result.to_dict(), indent=2), encoding="utf-8")
    return 0


def register(sub) -> None:
    s = sub.add_parser("synth", help="generate synthetic gold documents (JSONL)")
    s.add_argument("--n", type=int, required=True)
    s.add_argument("--out", required=True)
    s.add_argument("--seed", type=int, default=0)
    s.add_argument("--split", choices=("train", "heldout", "all"), default="train",
                   help="template families and name origins to draw from (heldout: those never used in training)")
    s.set_defaults(func=cmd_synth)

    b = sub.add_parser("build-model", help="fine-tune the default ensemble's transformer members (offline)")
    b.add_argument("--if-missing", action="store_true", help="only build members that have no model yet")
    b.add_argument("--members", default=",".join(DEFAULT_MEMBERS), help="training configs under resources/training/")
    b.add_argument("--docs", type=int, default=1200, help="synthetic training documents")
    b.add_argument("--val-docs", type=int, default=80)
    b.add_argument("--epochs", type=int, help="override the configs' epochs")
    b.add_argument("--seed", type=int, default=0)
    b.add_argument("--threads", type=int, default=0, help="CPU threads for each training (default: the cores shared among the members)")
    b.add_argument("--one-at-a-time", action="store_true", help="train the members one after the other, not side by side")
    b.add_argument("--models-dir", help="default: models/")
    b.add_argument("--notes", help="folder of hand-written training notes marked up as {{CATEGORY|text}} "
                                   "(default: the configs' notes, resources/training/notes/; \"\": none)")
    b.set_defaults(func=cmd_build_model)

    e = sub.add_parser("evaluate", help="precision/recall/F1 of predictions against gold JSONL")
    e.add_argument("--gold", required=True)
    g = e.add_mutually_exclusive_group()
    g.add_argument("--pred", help="predictions JSONL (deid-desktop detect output)")
    g.add_argument("--ensemble", help="predict with this ensemble config first")
    e.add_argument("--workspace", help="with --ensemble: use this workspace's active model and weights")
    e.add_argument("--ages-over-89", action="store_true", help="count only ages over 89 (HIPAA)")
    e.add_argument("--json", help="also write the full result as JSON")
    e.set_defaults(func=cmd_evaluate)
