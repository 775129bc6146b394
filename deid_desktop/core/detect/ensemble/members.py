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


def build_member(mc: MemberConfig, *, inclusion=None, model_override: str | None = None) -> Detector | None:
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


def is_model(detector: Detector) -> bool:
    # by name, so that checking does not import torch for a rules-only ensemble
    return type(detector).__name__ == "TransformerDetector"
