"""The learning loop (003): every correction makes the next document better.

    reviewed documents ─► dataset (gold + explicit negatives + surrogate rewrites + synthetic + replayed notes)
        ─► fine-tune from the active model ─► old vs new on held-out reviewed documents
        ─► model version (activate now, later, or never; any version can be re-activated)
        ─► soft-vote weights re-fitted in closed form (002) on recent reviewed documents

This module is the façade the CLI and the GUI call; the pieces live in ``reviewed``
(dataset from decisions), ``augment`` (004), ``harvest``/``proposals`` (001 rules and
inclusion sentences), ``term_lists`` (allow/deny) and ``workspace_detector``.
"""

from __future__ import annotations

import logging
import random
import time
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any, Callable, Sequence

from ..categories import Category
from ..detect.ensemble import CategoryWeights, EnsembleConfig, category_weights_json, fit_all_weights, resolve_model_dir
from ..errors import ConfigError, DeidError
from ..store import ModelVersionRow, Workspace
from .metrics import Evaluation
from .uncertainty import MIN_DOCUMENTS
from .reviewed import (
    CorrectionSummary,
    ReviewedDocument,
    correction_summary,
    reviewed_document_rows,
    reviewed_documents,
    split_heldout,
    training_documents,
)
from .term_lists import add_term
from .workspace_detector import (
    SETTING_ENSEMBLE,
    current_weights,
    model_overrides,
    transformer_members,
    workspace_detector,
)

log = logging.getLogger(__name__)

SETTING_REFIT_EVERY = "learn.refit_every"  # re-fit weights after this many newly reviewed documents (0: never)
SETTING_REFIT_RECENT = "learn.refit_recent"  # how many recent reviewed documents the fit uses
SETTING_REVIEWED_AT_REFIT = "learn.reviewed_at_last_refit"
DEFAULT_REFIT_RECENT = 50


# -- settings and results --------------------------------------------------------------------


@dataclass
class RetrainSettings:
    epochs: int | None = None  # None: as many passes as fit the device's sequence budget
    augment: int = 1  # surrogate rewrites of each reviewed document (004)
    synthetic: int = 100  # at most this many synthetic documents, so earlier skill is kept ...
    synthetic_ratio: float = 1.0  # ... and at most this many per reviewed training document
    member: str | None = None  # the transformer member a first retrain starts from and replaces (None: the first)
    # Shipped hand-written training notes mixed in, so what the starting model learned from them
    # is kept: at most this many, and at most replay_ratio per reviewed training document. A
    # retrain on reviewed notes alone buys precision with recall; with 40 of them beside 20
    # reviewed development notes, the fresh notes' recall after one retrain was 0.986 in three
    # runs against 0.980-0.984 in three without (two builds, two seeds; docs/benchmarks.md,
    # "sixteenth pass"; a balanced selection, more replayed notes or epochs were no better). The
    # share of F1 error removed moved by up to twenty points between seeds.
    replay_notes: int = 100
    replay_ratio: float = 2.0
    heldout: float = 0.2  # share of reviewed documents kept out to compare old and new ...
    # ... when that share holds at least this many; fewer cannot tell two models apart
    # (core/learn/uncertainty.MIN_DOCUMENTS), so then every reviewed document is trained on
    min_heldout: int = MIN_DOCUMENTS
    seed: int = 13
    device: str = "auto"
    max_length: int = 128
    batch_size: int = 32
    learning_rate: float = 5e-5
    max_examples: int = 0
    hard_negatives: bool = True
    activate_if_better: bool = False
    training_config: str | None = None  # training TOML (default: resources/training/default.toml)
    ensemble_config: str | None = None

    def validate(self) -> None:
        if self.epochs is not None and self.epochs < 1:
            raise ConfigError("epochs must be at least 1")
        if min(self.augment, self.synthetic, self.synthetic_ratio, self.replay_notes, self.replay_ratio) < 0:
            raise ConfigError("augment, synthetic and replayed notes must not be negative")
        if not 0.0 <= self.heldout < 1.0:
            raise ConfigError("the held-out share must be at least 0 and below 1")
        if self.min_heldout < 0:
            raise ConfigError("the least number of held-out documents must not be negative")


@dataclass(frozen=True)
class Progress:
    stage: str  # preparing | training | evaluating | saving | weights | done
    done: int
    total: int
    eta_s: float | None = None
    loss: float | None = None

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


ProgressFn = Callable[[Progress], None]


@dataclass
class TrainingSet:
    documents: list[dict[str, Any]]
    counts: dict[str, int] = field(default_factory=dict)


@dataclass
class RetrainOutcome:
    status: str  # ok | cancelled | failed | nothing_to_learn
    training_run_id: int | None = None
    model_version_id: int | None = None
    version_name: str | None = None
    path: str | None = None
    metrics: Evaluation | None = None  # the new model on the held-out documents
    previous_metrics: Evaluation | None = None  # what was active, on the same documents
    activated: bool = False
    counts: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0
    notes: list[str] = field(default_factory=list)

    @property
    def better(self) -> bool | None:
        if self.metrics is None or self.previous_metrics is None:
            return None
        return _score(self.metrics) > _score(self.previous_metrics)

    def to_json(self) -> dict[str, Any]:
        """The form ``learn retrain --json`` prints as its result event (the GUI reads it)."""
        d = asdict(self)
        d["better"] = self.better
        return d

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "RetrainOutcome":
        """Back from ``to_json`` (``better`` is derived, so it is not read)."""
        known = {f.name for f in fields(cls)}
        values = {k: v for k, v in data.items() if k in known}
        for key in ("metrics", "previous_metrics"):
            if values.get(key) is not None:
                values[key] = Evaluation.from_dict(values[key])
        return cls(**values)


def _stored(metrics: Evaluation | None) -> dict[str, Any] | None:
    """The JSON form the workspace keeps (model versions, training runs)."""
    return None if metrics is None else metrics.to_dict()


def _score(metrics: Evaluation) -> tuple[float, float]:
    return (round(metrics.token.f1, 6), round(metrics.token.recall, 6))


# -- what a retrain would use ----------------------------------------------------------------


def last_trained_decision(ws: Workspace) -> int | None:
    """The newest decision the last finished training run learned from."""
    for run in reversed(ws.list_training_runs()):
        if run.status == "ok":
            return run.settings.get("last_decision_id")
    return None


def retrain_summary(ws: Workspace) -> CorrectionSummary:
    """Reviewed documents and decisions since the last model, per category (shown before
    training)."""
    return correction_summary(ws, last_trained_decision(ws))


def workspace_models_root(ws: Workspace) -> Path:
    """Model versions trained in a workspace live next to its file."""
    return ws.path.parent / f"{ws.path.stem}-models"


def ensemble_config(ws: Workspace, override: str | None = None) -> EnsembleConfig:
    return EnsembleConfig.load(override or ws.get_setting(SETTING_ENSEMBLE))


def starting_model(ws: Workspace, config: EnsembleConfig, member: str | None = None) -> tuple[str | None, str, list[str]]:
    """(folder, description, members) of the model a retrain continues from and the ensemble
    members the result will serve: the active workspace version and the members it serves,
    else the first transformer member that is built (or ``member``, when named) and that
    member alone, else None (the base encoder with a new tagging head) for the first
    transformer member.

    The new version replaces only the member it was trained from. The other shipped member
    keeps voting beside it: on 20 reviewed hand-written notes, a retrained model in place of
    both members removed 12 % of the remaining F1 error on the test notes, in place of the
    one it came from 22 % (docs/benchmarks.md, "learn-from-notes"), as two copies of one
    model outvote everything else."""
    first = next(iter(transformer_members(config)), None)
    active = ws.active_model_version()
    if active is not None and resolve_model_dir(active.path) is not None:
        members = list(active.metrics.get("members") or ([first] if first else []))
        return str(resolve_model_dir(active.path)), active.name, members
    for m in config.members:
        if member is not None and m.name != member:
            continue
        if m.type == "transformer" and m.options.get("model"):
            p = resolve_model_dir(m.options["model"])
            if p is not None:
                return str(p), m.name, [m.name]
    return None, "base encoder", [first] if first else []


# -- how much to train -------------------------------------------------------------------------

# A 128-sub-word training sequence holds about 300 characters of clinical text (measured on
# the synthetic corpus and on the learning-curve notes).
CHARS_PER_SEQUENCE = 300
# Sequences (examples x epochs) one retrain may cost: on a 2-core CPU MiniLM trains ten to
# twenty sequences per second, so 3600 keeps a retrain near 3-6 minutes whatever the number
# of reviewed documents (a set larger than the budget gets its one pass); a GPU affords ten
# times more. Small sets need the passes: on 20 reviewed hand-written notes the share of the
# remaining F1 error removed on the test notes went 22 % -> 27 % -> 31 % with 3, 6 and 10
# epochs (docs/benchmarks.md, "learn-from-notes"); the budget was 1200 (3 epochs there).
SEQUENCE_BUDGET = {"cpu": 3600, "gpu": 36000}
MAX_AUTO_EPOCHS = 10


def estimated_sequences(docs: Sequence[dict[str, Any]]) -> int:
    return sum(max(1, -(-len(d["text"]) // CHARS_PER_SEQUENCE)) for d in docs)


def training_hardware(device: str) -> str:
    if device == "cpu":
        return "cpu"
    if device != "auto":
        return "gpu"
    import torch

    mps = getattr(torch.backends, "mps", None)
    return "gpu" if torch.cuda.is_available() or (mps is not None and mps.is_available()) else "cpu"


def auto_epochs(n_sequences: int, hardware: str) -> int:
    """Small sets get several passes (a few optimiser steps teach nothing), large ones one:
    the cost stays near the budget either way."""
    budget = SEQUENCE_BUDGET[hardware]
    return int(min(MAX_AUTO_EPOCHS, max(1, round(budget / max(1, n_sequences)))))


# -- the dataset -----------------------------------------------------------------------------


def build_training_set(
    train_docs: Sequence[ReviewedDocument],
    settings: RetrainSettings,
    *,
    engine: Any = None,
    synthetic: Sequence[dict] | None = None,
    replay: Sequence[dict] | None = None,
) -> TrainingSet:
    """Reviewed documents (gold and explicit negatives), ``settings.augment`` surrogate
    rewrites of each, the synthetic sample and the replayed shipped notes."""
    from .augment import surrogate_variants

    docs = training_documents(train_docs, hard_negatives=settings.hard_negatives)
    counts = {"reviewed": len(train_docs), "hard_negatives": len(docs) - len(train_docs)}
    variants: list[dict[str, Any]] = []
    if settings.augment and engine is not None:
        for d in train_docs:
            variants += surrogate_variants(d.to_gold(), engine, settings.augment, key=f"augment/{settings.seed}")
    counts["augmented"] = len(variants)
    syn = list(synthetic or [])
    counts["synthetic"] = len(syn)
    old = list(replay or [])
    counts["replayed_notes"] = len(old)
    all_docs = docs + variants + syn + old
    random.Random(settings.seed).shuffle(all_docs)
    counts["total"] = len(all_docs)
    return TrainingSet(all_docs, counts)


def synthetic_sample(n: int, seed: int, notes: list[str]) -> list[dict]:
    if n <= 0:
        return []
    try:
        from .synth import generate_corpus

        return list(generate_corpus(n, seed, split="train"))
    except (DeidError, ValueError, OSError, ImportError) as e:
        notes.append(f"synthetic corpus unavailable ({type(e).__name__}); trained on reviewed documents only")
        return []


def replay_sample(n: int, seed: int, notes: list[str], training_config: str | None = None) -> list[dict]:
    """``n`` of the shipped hand-written training notes (the training configuration's
    ``notes`` folder), chosen by ``seed``: the starting model learned them, and a retrain on
    reviewed documents and synthetic letters alone forgets part of that."""
    if n <= 0:
        return []
    from .notes import load_notes, notes_folder
    from .train import TrainConfig

    try:
        folder = notes_folder(TrainConfig.load(training_config).notes)
        shipped = load_notes(folder) if folder is not None else []
    except (DeidError, ValueError, OSError) as e:
        notes.append(f"shipped training notes unavailable ({type(e).__name__}); none were replayed")
        return []
    picked = random.Random(f"replay/{seed}").sample(shipped, min(n, len(shipped)))
    return [d.to_json() for d in picked]


def surrogate_engine(ws: Workspace, notes: list[str]) -> Any:
    try:
        from ..surrogates import SurrogateEngine
    except ImportError as e:
        notes.append(f"surrogate engine unavailable ({type(e).__name__}); reviewed documents were not rewritten")
        return None
    return SurrogateEngine(ws.secret)


# -- retraining -------------------------------------------------------------------------------


def _train_config(settings: RetrainSettings, epochs: int | None = None):
    from .train import TrainConfig

    overrides = {
        "name": "workspace",
        "epochs": epochs or settings.epochs or 1,
        "seed": settings.seed,
        "device": settings.device,
        "max_length": settings.max_length,
        "batch_size": settings.batch_size,
        "learning_rate": settings.learning_rate,
        "max_examples": settings.max_examples,
        # Every sentence of a reviewed document counts; a balanced selection would drop
        # PHI-free sentences at random, rejected detections with them (003's balanced
        # member gets its recall from the synthetic corpus instead).
        "selection": "imbalanced",
        # Not every shipped note with its rewrites again: a seeded sample of them is in the
        # training set (replay_notes), beside the synthetic sample, so the starting model
        # keeps what it learned from them.
        "notes": "",
    }
    try:
        return TrainConfig.load(settings.training_config, **overrides)
    except ConfigError:
        if settings.training_config:
            raise
        return TrainConfig.from_dict(overrides)


def evaluate_detector(det: Any, docs: Sequence[ReviewedDocument]) -> Evaluation:
    from .metrics import evaluate

    preds = det.detect_many([d.text for d in docs], document_ids=[d.document_id for d in docs])
    return evaluate([d.to_gold() for d in docs], preds)


def _version_name(ws: Workspace, root: Path) -> str:
    from ..models.modelio import next_version

    taken = {v.name for v in ws.list_model_versions()}
    name = next_version(root / "workspace")
    return name if name not in taken else f"{name}-{int(time.time())}"


@dataclass
class _Plan:
    """What a retrain works from, settled before any training starts."""

    config: EnsembleConfig
    train_docs: list[ReviewedDocument]
    held_docs: list[ReviewedDocument]
    training_set: TrainingSet
    epochs: int
    last_decision: int | None
    notes: list[str]
    members: list[str] = field(default_factory=list)  # the ensemble members the new model replaces


def retrain(
    ws: Workspace,
    settings: RetrainSettings | None = None,
    *,
    progress: ProgressFn | None = None,
    should_stop: Callable[[], bool] | None = None,
) -> RetrainOutcome:
    """Fine-tune on the workspace's reviewed documents and register the result as a new
    model version; activates it only with ``settings.activate_if_better`` and a better
    held-out score. Never raises for a cancelled run: the outcome says so."""
    settings = settings or RetrainSettings()
    settings.validate()
    t0 = time.perf_counter()
    emit = progress or (lambda p: None)
    stopped = should_stop or (lambda: False)
    emit(Progress("preparing", 0, 1))
    if stopped():
        return RetrainOutcome("cancelled")
    plan = _plan(ws, settings)
    if isinstance(plan, RetrainOutcome):
        return plan
    if stopped():
        return RetrainOutcome("cancelled", counts=plan.training_set.counts, notes=plan.notes)
    outcome = _train_and_register(ws, settings, plan, emit, should_stop)
    if outcome.status == "ok" and settings.activate_if_better and outcome.better:
        emit(Progress("weights", 0, 1))
        activate(ws, outcome.model_version_id)
        outcome.activated = True
    outcome.seconds = time.perf_counter() - t0
    if outcome.status == "ok":
        emit(Progress("done", 1, 1))
    return outcome


def _plan(ws: Workspace, settings: RetrainSettings) -> _Plan | RetrainOutcome:
    """Split the reviewed documents, build the training set (reviewed, rewrites, a synthetic
    share and a sample of the shipped notes, so earlier skill is kept) and size the epochs to
    the device's budget; nothing to learn is an outcome, not an error."""
    config = ensemble_config(ws, settings.ensemble_config)
    if settings.member is not None and settings.member not in transformer_members(config):
        raise ConfigError(f"the ensemble has no transformer member named {settings.member!r} to retrain")
    reviewed = reviewed_documents(ws)
    if not reviewed:
        return RetrainOutcome("nothing_to_learn", notes=["no reviewed documents yet"])
    last_decision = max((d.id for d in ws.decisions()), default=None)
    notes: list[str] = []
    share = settings.heldout
    if share > 0 and round(share * len(reviewed)) < settings.min_heldout:
        # On 20 reviewed hand-written notes, training on all 20 instead of 16 removed 31 %
        # of the remaining F1 error on the test notes instead of 16 % (docs/benchmarks.md).
        notes.append(
            f"{len(reviewed)} reviewed documents: all were trained on, since a {share:.0%} share would hold out fewer than "
            f"{settings.min_heldout} (too few to compare old and new); the comparison starts with more reviewed documents"
        )
        share = 0.0
    train_docs, held_docs = split_heldout(reviewed, share)
    n_synthetic = min(settings.synthetic, int(round(settings.synthetic_ratio * len(train_docs))))
    synthetic = synthetic_sample(n_synthetic, settings.seed, notes)
    n_replay = min(settings.replay_notes, int(round(settings.replay_ratio * len(train_docs))))
    replay = replay_sample(n_replay, settings.seed, notes, settings.training_config)
    tset = build_training_set(
        train_docs, settings, engine=surrogate_engine(ws, notes) if settings.augment else None, synthetic=synthetic, replay=replay
    )
    tset.counts["estimated_sequences"] = estimated_sequences(tset.documents)
    epochs = settings.epochs or auto_epochs(tset.counts["estimated_sequences"], training_hardware(settings.device))
    tset.counts["epochs"] = epochs
    return _Plan(config, list(train_docs), list(held_docs), tset, epochs, last_decision, notes)


def _train_and_register(
    ws: Workspace, settings: RetrainSettings, plan: _Plan, emit: ProgressFn, should_stop: Callable[[], bool] | None
) -> RetrainOutcome:
    """Train, save, compare and register, recording the training run's end whatever
    happens: cancelled and failed runs are kept in the history with their status."""
    # Imported only now: loading torch takes seconds, and a run cancelled while its data
    # was being prepared should end at once.
    from .train import TrainingCancelled, train_model

    init_from, init_name, plan.members = starting_model(ws, plan.config, settings.member)
    if init_from is None:
        plan.notes.append("no trained model found: fine-tuning the base encoder with a new tagging head")
    # The version trained from, read before training: the new one records it as its parent.
    active = ws.active_model_version()
    run_id = _start_run(ws, settings, plan, init_name)
    outcome = RetrainOutcome("ok", training_run_id=run_id, counts=plan.training_set.counts, notes=plan.notes)
    t_train = time.perf_counter()

    def on_step(step: int, total: int, loss: float) -> None:
        elapsed = time.perf_counter() - t_train
        eta = elapsed / step * (total - step) if step else None
        emit(Progress("training", step, total, eta, loss))

    try:
        if not plan.training_set.documents:
            raise ConfigError("nothing to train on")
        result = train_model(_train_config(settings, plan.epochs), plan.training_set.documents, init_from=init_from,
                             progress=on_step, should_stop=should_stop)
        emit(Progress("saving", 0, 1))
        root = workspace_models_root(ws)
        name = _version_name(ws, root)
        path = result.save("workspace", models_root=root, version=name, make_current=False)
        outcome.version_name, outcome.path = name, str(path)
        _compare_on_heldout(ws, plan, str(path), outcome, emit)
        outcome.model_version_id = _register_version(ws, plan, outcome, result, active, init_name, run_id)
    except TrainingCancelled:
        ws.finish_training_run(run_id, status="cancelled", metrics={})
        outcome.status = "cancelled"
        return outcome
    except BaseException as e:
        ws.finish_training_run(run_id, status="failed", metrics={"error": type(e).__name__})
        raise
    ws.finish_training_run(run_id, status="ok", metrics={"heldout": _stored(outcome.metrics), "previous": _stored(outcome.previous_metrics)})
    return outcome


def _start_run(ws: Workspace, settings: RetrainSettings, plan: _Plan, init_name: str) -> int:
    """The training run's record: what it learned from (up to which decision, which
    documents), so the next summary counts only newer corrections."""
    return ws.start_training_run(
        {
            "settings": asdict(settings),
            "last_decision_id": plan.last_decision,
            "train_documents": [d.document_id for d in plan.train_docs],
            "heldout_documents": [d.document_id for d in plan.held_docs],
            "init_from": init_name,
            "counts": plan.training_set.counts,
        }
    )


def _compare_on_heldout(ws: Workspace, plan: _Plan, path: str, outcome: RetrainOutcome, emit: ProgressFn) -> None:
    """Score the active model and the new one on the same held-out reviewed documents; the
    comparison is what activation is judged on."""
    if not plan.held_docs:
        outcome.notes.append("no held-out documents: old and new model were not compared")
        return
    emit(Progress("evaluating", 0, 2))
    outcome.previous_metrics = evaluate_detector(workspace_detector(ws, plan.config), plan.held_docs)
    emit(Progress("evaluating", 1, 2))
    outcome.metrics = evaluate_detector(workspace_detector(ws, plan.config, model_path=path, replaces=plan.members), plan.held_docs)
    emit(Progress("evaluating", 2, 2))


def _register_version(
    ws: Workspace, plan: _Plan, outcome: RetrainOutcome, result: Any, active: ModelVersionRow | None, init_name: str, run_id: int
) -> int:
    """The new model version with its figures and lineage. It serves the same ensemble
    members it was trained to replace (``starting_model``)."""
    members = plan.members
    return ws.register_model_version(
        outcome.version_name,
        outcome.path,
        {
            "heldout": _stored(outcome.metrics),
            "previous": _stored(outcome.previous_metrics),
            "previous_model": active.name if active else init_name,
            "heldout_documents": len(plan.held_docs),
            "train_documents": len(plan.train_docs),
            "counts": plan.training_set.counts,
            "members": members,
            "device": result.device,
            "train_seconds": round(result.seconds, 1),
        },
        parent=active.name if active else None,
        training_run_id=run_id,
    )


# -- versions ---------------------------------------------------------------------------------


def activate(ws: Workspace, model_version_id: int | None, *, refit: bool = True) -> dict[str, float] | None:
    """Make a version the one detection uses (an older one: rollback; None: the shipped
    model) and, by default, re-fit the soft-vote weights for it. Returns the new weights."""
    if model_version_id is None:
        ws.deactivate_model_versions()
    else:
        ws.activate_model_version(model_version_id)
    if not refit:
        return None
    try:
        return refit_weights(ws)
    except DeidError as e:
        # The activation stands; the previous weights stay in use until a fit succeeds.
        log.warning("ensemble weights not re-fitted after activation: %s", e)
        return None


# -- ensemble weights (002) ------------------------------------------------------------------


@dataclass(frozen=True)
class WeightFit:
    weights: dict[str, float]
    n_documents: int
    reviewed_total: int
    # per member and category (a member precise on dates is trusted on dates); categories
    # with too few reviewed words are absent and fall back to ``weights``
    category_weights: CategoryWeights = field(default_factory=dict)


def fit_weights(ws: Workspace, *, recent: int | None = None, config: str | None = None) -> WeightFit | None:
    """Fit the soft-vote weights in closed form (Brier score, 002), overall and per category,
    on the most recent reviewed documents, without saving them (a GUI worker computes, the
    GUI thread saves). None when no document is reviewed yet."""
    rows = reviewed_document_rows(ws)
    if not rows:
        return None
    n = recent or int(ws.get_setting(SETTING_REFIT_RECENT, DEFAULT_REFIT_RECENT))
    docs = reviewed_documents(ws, [r.id for r in rows[-n:]])
    det = workspace_detector(ws, ensemble_config(ws, config))
    weights, by_category = fit_all_weights(det.ensemble, [(d.text, d.spans) for d in docs])
    return WeightFit(weights, len(docs), len(rows), by_category)


def save_weight_fit(ws: Workspace, fit: WeightFit) -> None:
    ws.save_ensemble_weights(
        fit.weights, n_documents=fit.n_documents, category_weights=category_weights_json(fit.category_weights)
    )
    ws.set_setting(SETTING_REVIEWED_AT_REFIT, fit.reviewed_total)


def refit_weights(ws: Workspace, *, recent: int | None = None, config: str | None = None) -> dict[str, float] | None:
    """Fit the weights and append them to the workspace's weight history; returns them."""
    fit = fit_weights(ws, recent=recent, config=config)
    if fit is None:
        return None
    save_weight_fit(ws, fit)
    return fit.weights


def maybe_refit_weights(ws: Workspace) -> dict[str, float] | None:
    """Call after a document is marked reviewed: re-fits once ``learn.refit_every`` more
    documents were reviewed since the last fit (0 or unset: never)."""
    every = int(ws.get_setting(SETTING_REFIT_EVERY, 0) or 0)
    if every <= 0:
        return None
    n = len(reviewed_document_rows(ws))
    if n - int(ws.get_setting(SETTING_REVIEWED_AT_REFIT, 0) or 0) < every:
        return None
    return refit_weights(ws)


# -- what detection in a workspace uses -------------------------------------------------------


def _open(workspace: Workspace | str | Path) -> tuple[Workspace, bool]:
    if isinstance(workspace, Workspace):
        return workspace, False
    if not Path(workspace).is_file():
        raise ConfigError(f"{Path(workspace).name}: no such workspace")
    return Workspace.open(workspace, create=False), True


def workspace_ensemble_settings(workspace_path: Workspace | str | Path) -> tuple[dict[str, str] | None, dict[str, float] | None]:
    """(model overrides: member -> folder of the active model version, soft-vote weights) for
    ``Ensemble.from_config``. Both None for a workspace that has learned nothing yet."""
    ws, owned = _open(workspace_path)
    try:
        config = ensemble_config(ws)
        return model_overrides(ws, config), current_weights(ws)
    finally:
        if owned:
            ws.close()


# -- allow / deny from the review window ------------------------------------------------------


def never_flag(workspace: Workspace, text: str, scope: str = "workspace", scope_id: int | str | None = None) -> int:
    """"Never flag this again": ``text`` joins the allow list in ``scope``. Returns the term id."""
    return add_term(workspace, "allow", text, scope=scope, scope_id=scope_id, added_by="reviewer")


def always_flag(
    workspace: Workspace, text: str, category: Category | str, scope: str = "workspace", scope_id: int | str | None = None, fine: str = "OTHER"
) -> int:
    """"Always flag this": ``text`` joins the deny list with its category. Returns the term id."""
    return add_term(workspace, "deny", text, category=category, fine=fine, scope=scope, scope_id=scope_id, added_by="reviewer")


__all__ = [
    "Progress",
    "RetrainOutcome",
    "RetrainSettings",
    "TrainingSet",
    "activate",
    "always_flag",
    "build_training_set",
    "maybe_refit_weights",
    "never_flag",
    "fit_weights",
    "refit_weights",
    "save_weight_fit",
    "retrain",
    "retrain_summary",
    "workspace_detector",
    "workspace_ensemble_settings",
    "workspace_models_root",
]
