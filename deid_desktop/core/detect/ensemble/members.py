"""Members built from their settings: the detector registry's types, models found by name."""

from __future__ import annotations

import inspect
import logging
from pathlib import Path
from typing import Sequence

from ...errors import ConfigError
from ..base import Detector, detector_type, detector_types
from .config import TRANSFORMER_SCHEMA, MemberConfig

log = logging.getLogger(__name__)


def resolve_model_dir(spec: str | Path) -> Path | None:
    """The model folder ``spec`` names (see ``models.modelio.resolve_model_dir``), or None
    when nothing usable is there — an optional member is then skipped."""
    from ...errors import ModelError
    from ...models.modelio import resolve_model_dir as resolve

    try:
        return resolve(spec)
    except ModelError:
        return None


def build_member(
    mc: MemberConfig, *, inclusion=None, model_override: str | None = None, threads: int | None = None,
    batch_threads: int | None = None,
) -> Detector | None:
    """The member ``mc`` describes, or None for an optional model that is not there.
    ``threads`` is a transformer's CPU thread count and ``batch_threads`` its forward
    passes at once, where its settings give none."""
    if mc.type == "rules":
        from ..rules import RuleSet

        return RuleSet(mc.options.get("detectors"), inclusion=inclusion)
    if mc.type == "transformer":
        from ..transformer import TransformerDetector

        spec = model_override or mc.options.get("model")
        if not spec:
            raise ConfigError(f"transformer member {mc.name!r} names no model")
        path = resolve_model_dir(spec)
        if path is None:
            if mc.optional:
                log.warning("model for ensemble member %s not found; running without it", mc.name)
                return None
            raise ConfigError(f"model folder for member {mc.name!r} not found: {spec}")
        unknown = sorted(set(mc.options) - set(TRANSFORMER_SCHEMA))
        if unknown:
            raise ConfigError(f"unknown key {unknown[0]!r} in member {mc.name!r}; allowed: {', '.join(sorted(TRANSFORMER_SCHEMA))}")
        opts = {k: v for k, v in mc.options.items() if k != "model"}
        if threads is not None:
            opts.setdefault("threads", threads)
        if batch_threads is not None and "threads" not in mc.options:
            opts.setdefault("batch_threads", batch_threads)
        det = TransformerDetector(str(path), name=mc.name, **opts)
        if inclusion is not None:
            det.inclusion = inclusion
        return det
    cls = detector_type(mc.type)
    if cls is not None:
        return cls(**mc.options)
    known = ", ".join(sorted(["transformer", *detector_types()]))
    raise ConfigError(f"ensemble member {mc.name!r} has unknown type {mc.type!r}; known types: {known}")


def reports_progress(detector: Detector) -> bool:
    """Whether the member's ``detect_many`` takes a ``progress`` callback (a transformer
    does: detection of a long document takes seconds there)."""
    try:
        return "progress" in inspect.signature(detector.detect_many).parameters
    except (TypeError, ValueError):
        return False


def work_shares(members: Sequence[Detector]) -> list[float]:
    """Each member's share of a detection's time, for the progress shown: the members
    reporting their own progress take it all (the rules finish in a blink next to a model);
    with none of those, every member takes the same."""
    reporting = [reports_progress(m) for m in members]
    if not any(reporting):
        return [1.0 / len(members)] * len(members) if members else []
    n = sum(reporting)
    return [1.0 / n if r else 0.0 for r in reporting]


def side_by_side_threads(members: Sequence[MemberConfig], model_overrides: dict[str, str] | None = None) -> int | None:
    """CPU threads for each transformer member when they are to run side by side, one per
    share of the cores, or None to run them one after another with all the cores each.

    Side by side only where that is safe and pays: at least two model members whose models
    are present, all on ONNX Runtime (each session has threads of its own; torch's are one
    pool for the whole process), and at least one core for each. On this project's 2-core
    CPU two single-threaded sessions side by side ran the default ensemble's models 1.4x
    faster than one two-threaded session after the other, with the same spans
    (benchmarks/throughput.py): small matrices spread over two threads spend much of their
    time waiting for each other."""
    present = _onnx_models(members, model_overrides)
    if present is None or len(present) < 2:
        return None
    from ...models.device import default_threads

    cores = default_threads()
    return cores // len(present) if cores >= len(present) else None


def batch_threads(members: Sequence[MemberConfig], model_overrides: dict[str, str] | None = None) -> int | None:
    """Forward passes at once for each transformer member, each on one core of its own, when
    the models are to read their batches in parallel and one after another (the ensemble's
    cascade, where the last model waits for the others' spans), or None.

    Only where every model present runs on ONNX Runtime (a session takes calls from several
    threads; torch's threads are one pool) and there are two cores or more. On this
    project's 2-core CPU one model's batches over two single-threaded calls at once ran 1.8x
    as fast as one call after another, as two models side by side do
    (docs/benchmarks.md, "Issue 11, tenth pass")."""
    present = _onnx_models(members, model_overrides)
    if not present:
        return None
    from ...models.device import default_threads

    cores = default_threads()
    return cores if cores >= 2 else None


def _onnx_models(members: Sequence[MemberConfig], model_overrides: dict[str, str] | None) -> list[MemberConfig] | None:
    """The transformer members whose models are present, or None when one of them would
    not run on ONNX Runtime."""
    models = [mc for mc in members if mc.type == "transformer"]
    specs = [((model_overrides or {}).get(mc.name) or mc.options.get("model"), mc) for mc in models]
    present = [mc for spec, mc in specs if spec and resolve_model_dir(spec) is not None]
    if not present:
        return []  # before the imports below: a rules-only ensemble starts without them
    from ...errors import ModelError
    from ..transformer import choose_backend, resolve_device

    for mc in present:
        o = mc.options
        try:
            backend = choose_backend(o.get("backend", "auto"), resolve_device(o.get("device", "auto")), o.get("quantize"), o.get("precision", "auto"))
        except ModelError:
            return None
        if backend != "onnx":
            return None
    return present


def runs_apart(detector: Detector) -> bool:
    """Whether the member may run in a thread beside others: a model on ONNX Runtime (its
    session releases the interpreter while it computes)."""
    return is_model(detector) and getattr(detector, "runner", None) is not None


def is_model(detector: Detector) -> bool:
    # by name, so that checking does not import torch for a rules-only ensemble; a subclass
    # of the transformer member is a model too
    return any(c.__name__ == "TransformerDetector" for c in type(detector).__mro__)
