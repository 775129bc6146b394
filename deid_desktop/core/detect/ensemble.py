"""The ensemble: members (rule sets, transformers, any registered detector) combined by a
strategy chosen in a TOML file under ``resources/ensembles/``.

Strategies (all decide per word token, then rebuild spans):
  union     001 — a word is PHI if any member says so; its category comes from the member
            highest in ``priority`` that tagged it.
  majority  003 — a word is PHI if more than half of the members say so; a tie is decided by
            ``tie_breaker`` (the best member on validation data).
  soft_vote 002 — p = sum_m w_{m,c} * score_m(word), where c is the category member m gives
            the word and w_{m,c} its weight for that category, fitted in closed form by
            minimising the Brier score per category (weights.py); PHI if p >= threshold.
            A member 99 % precise on dates is so trusted on dates, whatever it is worth on
            names. Categories without fitted weights use the member's overall weight.

After any strategy, two rules keep what the precise members know (issue 10):
  * a ``validated`` member span (a check digit, an e-mail, a URL with its scheme, an IP, a
    full date, a telephone number with enough digits: ``Span.validated``) is accepted even
    when every other member says O;
  * a member span accepted in part is accepted whole, for the categories in
    ``whole_span_categories``: voting per word kept only the words the models also marked,
    so ``https://remote-cardiac.example.org/login`` came out with half of it left behind.
The clinical-term guard still vetoes what it knows is no PHI (eponyms, units, scores).
"""

from __future__ import annotations

import gc
import inspect
import re
import logging
from bisect import bisect_left, bisect_right
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np

from ..categories import Category, parse_category
from ..errors import ConfigError
from ..config_files import NUMBER, Schema, check_choice, check_table, check_value, read_toml, read_toml_chain
from ..paths import resource
from ..spans import Span, sort_spans
from ..text import words
from .base import Detector, detector_type, detector_types
from .completion import complete

log = logging.getLogger(__name__)



class Strategy(StrEnum):
    """How members' votes on a word become the ensemble's decision. A StrEnum: the values are
    what ensemble files and run records hold."""

    UNION = "union"
    MAJORITY = "majority"
    SOFT_VOTE = "soft_vote"


STRATEGIES: tuple[str, ...] = tuple(s.value for s in Strategy)
# The schema of an ensemble file (config_files.check_table): key -> allowed TOML types.
TOP_LEVEL_SCHEMA: Schema = {"ensemble": (dict,), "member": (list,)}
ENSEMBLE_SCHEMA: Schema = {
    "strategy": (str,),
    "priority": (list,),
    "threshold": NUMBER,
    "tie_breaker": (str,),
    "propagate": (bool,),
    "category_weights": (str,),
    "whole_span_categories": (list,),
    "trust_validated": (bool,),
}
MEMBER_SCHEMA: Schema = {"name": (str,), "type": (str,), "weight": NUMBER, "optional": (bool,)}
# What a transformer member may say besides name, type, weight and optional.
TRANSFORMER_SCHEMA: Schema = {
    "model": (str,),
    "device": (str,),
    "batch_size": (int,),
    "label_map": (str, dict),
    "max_length": (int,),
    "quantize": (bool,),
    "precision": (str,),
    "threads": (int,),
    "backend": (str,),
}
RULES_SCHEMA: Schema = {"detectors": (list,)}
# Partial acceptance of these leaves a readable piece of an identifier in the export. Only
# PROFESSION is left out: "consultant cardiologist" without "cardiologist" identifies nobody.
DEFAULT_WHOLE_SPAN = tuple(c for c in Category if c is not Category.PROFESSION)

# member -> category -> weight
CategoryWeights = dict[str, dict[Category, float]]


@dataclass(frozen=True, slots=True)
class Decision:
    """What the ensemble decided for one word: its category, score, and the member span that
    carried the decision (its fine type and extent guide how words join into spans)."""

    category: Category
    score: float
    member: str
    span: Span


@dataclass
class MemberConfig:
    name: str
    type: str  # "rules" | "transformer" | a registered detector name
    weight: float = 1.0
    options: dict[str, Any] = field(default_factory=dict)
    optional: bool = False  # a missing model makes the ensemble run without it instead of failing


@dataclass
class EnsembleConfig:
    strategy: Strategy = Strategy.UNION
    members: list[MemberConfig] = field(default_factory=list)
    priority: list[str] = field(default_factory=list)  # member names, most trusted first
    threshold: float = 0.5
    tie_breaker: str | None = None
    # After the vote, repeat what was found (a name's parts, an organisation's or place's
    # whole text) wherever else it occurs in the document (detect/propagate.py).
    propagate: bool = True
    # A TOML file of per-member, per-category soft-vote weights (a name is looked up beside
    # the configuration, then under resources/ensembles/); None: the members' weights only.
    category_weights: str | None = None
    whole_span_categories: tuple[Category, ...] = DEFAULT_WHOLE_SPAN
    trust_validated: bool = True  # validated member spans cannot be out-voted
    source_path: str | None = None

    def __post_init__(self) -> None:
        # Code and tests name strategies by their strings; an unknown one is a configuration
        # error at once rather than a silent union later.
        if self.strategy not in STRATEGIES:
            raise ConfigError(f"unknown ensemble strategy {self.strategy!r}; expected one of {', '.join(STRATEGIES)}")
        self.strategy = Strategy(self.strategy)

    @classmethod
    def load(cls, path: str | Path | None = None) -> "EnsembleConfig":
        """The configuration in ``path`` (the shipped default without one), its ``extends``
        chain resolved (an extended file's bare name is also looked up among the shipped
        ensembles) and every file of the chain checked against the schema."""
        p = Path(path) if path else resource("ensembles", "default.toml")
        data = read_toml_chain(p, "ensemble configuration", shipped=resource("ensembles"), check=check_ensemble_file)
        cfg = cls.from_dict(data, source=p.name)
        cfg.source_path = str(p)
        return cfg

    @classmethod
    def from_dict(cls, data: dict[str, Any], source: str = "ensemble configuration") -> "EnsembleConfig":
        """``source`` names the file in error messages."""
        # A misspelt key ("stratgy", "propogate") silently ran the defaults before.
        check_ensemble_file(data, source)
        ens = data.get("ensemble", {})
        members = []
        for m in data.get("member", []):
            m = dict(m)
            name = m.pop("name")
            mtype = m.pop("type")
            members.append(
                MemberConfig(
                    name=name,
                    type=mtype,
                    weight=float(m.pop("weight", 1.0)),
                    optional=bool(m.pop("optional", False)),
                    options=m,
                )
            )
        cfg = cls(
            strategy=ens.get("strategy", Strategy.UNION),
            members=members,
            priority=list(ens.get("priority", [])),
            threshold=float(ens.get("threshold", 0.5)),
            tie_breaker=ens.get("tie_breaker"),
            propagate=bool(ens.get("propagate", True)),
            category_weights=ens.get("category_weights"),
            whole_span_categories=_categories(ens.get("whole_span_categories", [c.value for c in DEFAULT_WHOLE_SPAN])),
            trust_validated=bool(ens.get("trust_validated", True)),
        )
        try:
            cfg.validate()
        except ConfigError as e:
            raise ConfigError(f"{source}: {e}") from None
        return cfg

    def category_weights_path(self) -> Path | None:
        """The per-category weights file, beside this configuration or in the shipped
        ensembles folder."""
        if not self.category_weights:
            return None
        name = Path(self.category_weights)
        candidates = [name] if name.is_absolute() else []
        if self.source_path and not name.is_absolute():
            candidates.append(Path(self.source_path).parent / name)
        candidates.append(resource("ensembles", str(name)))
        for c in candidates:
            if c.is_file():
                return c
        raise ConfigError(f"category weights file {name.name} not found")

    def validate(self) -> None:
        if self.strategy not in STRATEGIES:
            raise ConfigError(f"unknown ensemble strategy {self.strategy!r}; expected one of {', '.join(STRATEGIES)}")
        names = [m.name for m in self.members]
        if not names:
            raise ConfigError("the ensemble has no members")
        if len(set(names)) != len(names):
            raise ConfigError("ensemble member names must be unique")
        for p in self.priority:
            if p not in names:
                raise ConfigError(f"priority names unknown member {p!r}")
        if self.tie_breaker and self.tie_breaker not in names:
            raise ConfigError(f"tie_breaker names unknown member {self.tie_breaker!r}")
        if not 0.0 < self.threshold <= 1.0:
            raise ConfigError("threshold must be in (0, 1]")
        if self.category_weights is not None and not isinstance(self.category_weights, str):
            raise ConfigError("category_weights must name a file")

    def to_dict(self) -> dict[str, Any]:
        return {
            "ensemble": {
                "strategy": self.strategy.value,
                "priority": self.priority,
                "threshold": self.threshold,
                "propagate": self.propagate,
                "whole_span_categories": [c.value for c in self.whole_span_categories],
                "trust_validated": self.trust_validated,
                **({"tie_breaker": self.tie_breaker} if self.tie_breaker else {}),
                **({"category_weights": self.category_weights} if self.category_weights else {}),
            },
            "member": [
                {"name": m.name, "type": m.type, "weight": m.weight, "optional": m.optional, **m.options}
                for m in self.members
            ],
        }


def check_ensemble_file(data: dict[str, Any], file: str) -> None:
    """The schema of one ensemble file as written (before ``extends`` is merged in): known
    keys with values of the right type, a known strategy, members of known types with only
    the options their type takes. Errors name ``file``, the key and what is allowed."""
    check_table(data, TOP_LEVEL_SCHEMA, file, "the file")
    ens = data.get("ensemble", {})
    check_table(ens, ENSEMBLE_SCHEMA, file, "[ensemble]")
    if "strategy" in ens:
        check_choice(ens["strategy"], STRATEGIES, file, "ensemble strategy")
    for key in ("priority", "whole_span_categories"):
        for item in ens.get(key, []):
            check_value(item, (str,), file, f"each entry of {key} in [ensemble]")
    for i, member in enumerate(data.get("member", []), start=1):
        check_value(member, (dict,), file, f"[[member]] number {i}")
        _check_member(member, file, i)


def _check_member(member: dict[str, Any], file: str, number: int) -> None:
    for key in ("name", "type"):
        if key not in member:
            raise ConfigError(f"{file}: ensemble member number {number} is missing {key!r}")
    generic = {k: v for k, v in member.items() if k in MEMBER_SCHEMA}
    check_table(generic, MEMBER_SCHEMA, file, f"member {member['name']!r}")
    options = member_option_schema(member["type"])
    if options is None:
        known = ", ".join(sorted(["transformer", *detector_types()]))
        raise ConfigError(f"{file}: ensemble member {member['name']!r} has unknown type {member['type']!r}; known types: {known}")
    rest = {k: v for k, v in member.items() if k not in MEMBER_SCHEMA}
    allowed = {**MEMBER_SCHEMA, **options}
    for key, value in rest.items():
        if key not in options:
            raise ConfigError(f"{file}: unknown key {key!r} in member {member['name']!r} ({member['type']}); allowed: {', '.join(sorted(allowed))}")
        check_value(value, options[key], file, f"{key!r} in member {member['name']!r}")
    if member["type"] == "rules" and "detectors" in rest:
        from .rules import rule_detector_names

        known_rules = rule_detector_names()
        for name in rest["detectors"]:
            check_choice(name, known_rules, file, f"rule detector (in the detectors of member {member['name']!r})")


def member_option_schema(member_type: str) -> Schema | None:
    """The options a member of this type takes (besides name, type, weight and optional);
    a registered detector takes the keyword arguments of its constructor. None: no such type."""
    if member_type == "transformer":
        return TRANSFORMER_SCHEMA
    if member_type == "rules":
        return RULES_SCHEMA
    cls = detector_type(member_type)
    if cls is None:
        return None
    params = inspect.signature(cls.__init__).parameters.values()
    kinds = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    return {p.name: (object,) for p in params if p.kind in kinds and p.name != "self"}


def _reject_unknown(table: dict[str, Any], allowed: frozenset[str], where: str) -> None:
    unknown = sorted(set(table) - allowed)
    if unknown:
        raise ConfigError(f"unknown key {unknown[0]!r} in {where}; expected some of {', '.join(sorted(allowed))}")


def _categories(values: Any) -> tuple[Category, ...]:
    if not isinstance(values, (list, tuple)):
        raise ConfigError("whole_span_categories must be a list of categories")
    try:
        return tuple(parse_category(str(v)) for v in values)
    except ValueError as e:
        raise ConfigError(f"whole_span_categories: {e}") from None


def parse_category_weights(data: dict[str, Any], where: str = "category weights") -> CategoryWeights:
    """{member: {category: weight}} from a TOML/JSON table, checked: known categories,
    non-negative numbers."""
    if not isinstance(data, dict):
        raise ConfigError(f"{where} must be a table of members")
    out: CategoryWeights = {}
    for member, table in data.items():
        if not isinstance(table, dict):
            raise ConfigError(f"{where}: member {member!r} must map categories to weights")
        row: dict[Category, float] = {}
        for cat, w in table.items():
            try:
                c = parse_category(str(cat))
            except ValueError as e:
                raise ConfigError(f"{where}: {e}") from None
            if isinstance(w, bool) or not isinstance(w, (int, float)) or w < 0:
                raise ConfigError(f"{where}: the weight of {member!r} for {c.value} must be a number >= 0")
            row[c] = float(w)
        out[str(member)] = row
    return out


def load_category_weights(path: str | Path) -> CategoryWeights:
    """The ``[weights.<member>]`` tables of a category weights file (see
    benchmarks/fit_category_weights.py, which writes the shipped one)."""
    data = read_toml(path, "category weights")
    _reject_unknown(data, frozenset({"weights", "fit"}), "category weights")
    return parse_category_weights(data.get("weights", {}))


def category_weights_json(weights: CategoryWeights) -> dict[str, dict[str, float]]:
    return {m: {c.value: round(float(w), 6) for c, w in row.items()} for m, row in weights.items()}


def resolve_model_dir(spec: str | Path) -> Path | None:
    """The model folder ``spec`` names (see ``models.modelio.resolve_model_dir``), or None
    when nothing usable is there — an optional member is then skipped."""
    from ..errors import ModelError
    from ..models.modelio import resolve_model_dir as resolve

    try:
        return resolve(spec)
    except ModelError:
        return None


def build_member(mc: MemberConfig, *, inclusion=None, model_override: str | None = None) -> Detector | None:
    if mc.type == "rules":
        from .rules import RuleSet

        return RuleSet(mc.options.get("detectors"), inclusion=inclusion)
    if mc.type == "transformer":
        from .transformer import TransformerDetector

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


def _reports_progress(detector: Detector) -> bool:
    """Whether the member's ``detect_many`` takes a ``progress`` callback (a transformer
    does: detection of a long document takes seconds there)."""
    try:
        return "progress" in inspect.signature(detector.detect_many).parameters
    except (TypeError, ValueError):
        return False


def _work_shares(members: Sequence[Detector]) -> list[float]:
    """Each member's share of a detection's time, for the progress shown: the members
    reporting their own progress take it all (the rules finish in a blink next to a model);
    with none of those, every member takes the same."""
    reporting = [_reports_progress(m) for m in members]
    if not any(reporting):
        return [1.0 / len(members)] * len(members) if members else []
    n = sum(reporting)
    return [1.0 / n if r else 0.0 for r in reporting]


def _is_model(detector: Detector) -> bool:
    # by name, so that checking does not import torch for a rules-only ensemble
    return type(detector).__name__ == "TransformerDetector"


class Ensemble(Detector):
    name = "ensemble"

    def __init__(
        self,
        config: EnsembleConfig,
        members: dict[str, Detector],
        *,
        inclusion=None,
        weights: dict[str, float] | None = None,
        category_weights: CategoryWeights | None = None,
        guard=None,
    ):
        self.config = config
        self.members = members  # name -> detector, only those that loaded
        self.inclusion = inclusion
        # The clinical-term guard applies to the combined output too, so a model's reading of
        # an eponym or a unit ("Parkinson's", "ng/L") as a name is dropped like a rule's.
        self.guard = guard
        self.propagator = None
        if config.propagate:
            from .propagate import Propagator

            self.propagator = Propagator(guard)
        self.missing = [m.name for m in config.members if m.name not in members]
        order = config.priority or [m.name for m in config.members]
        order += [m.name for m in config.members if m.name not in order]
        self.order = [n for n in order if n in members]
        w = {m.name: m.weight for m in config.members}
        if weights:
            w.update(weights)
        self.weights = self._normalised({n: w.get(n, 1.0) for n in self.order})
        if category_weights is None and config.category_weights:
            category_weights = load_category_weights(config.category_weights_path())
        self.set_category_weights(category_weights or {})

    def set_category_weights(self, category_weights: CategoryWeights) -> None:
        """Per-category weights, normalised over the loaded members for each category. A
        category where some loaded member has no weight uses the overall weights."""
        self.category_weights: CategoryWeights = {n: {} for n in self.order}
        for c in Category:
            if not self.order or not all(c in category_weights.get(n, {}) for n in self.order):
                continue
            row = self._normalised({n: category_weights[n][c] for n in self.order})
            for n, v in row.items():
                self.category_weights[n][c] = v

    def weight(self, member: str, category: Category) -> float:
        """The soft-vote weight of ``member`` when it says ``category``."""
        return self.category_weights.get(member, {}).get(category, self.weights.get(member, 0.0))

    @staticmethod
    def _normalised(w: dict[str, float]) -> dict[str, float]:
        total = sum(max(0.0, v) for v in w.values())
        if total <= 0:
            return {k: 1.0 / len(w) for k in w} if w else {}
        return {k: max(0.0, v) / total for k, v in w.items()}

    @classmethod
    def from_config(
        cls,
        config: EnsembleConfig | str | Path | None = None,
        *,
        inclusion=None,
        weights: dict[str, float] | None = None,
        model_overrides: dict[str, str] | None = None,
        category_weights: CategoryWeights | None = None,
    ) -> "Ensemble":
        cfg = config if isinstance(config, EnsembleConfig) else EnsembleConfig.load(config)
        if inclusion is None:
            from .inclusion import InclusionList

            inclusion = InclusionList.default()
        members: dict[str, Detector] = {}
        for mc in cfg.members:
            det = build_member(mc, inclusion=inclusion, model_override=(model_overrides or {}).get(mc.name))
            if det is not None:
                members[mc.name] = det
        if not members:
            raise ConfigError("no ensemble member could be loaded")
        if any(_is_model(d) for d in members.values()):
            # Loading torch, transformers and the weights leaves hundreds of thousands of
            # long-lived objects; without this every full garbage collection re-scans them and
            # holds the GIL for ~0.3 s, which froze the review window while detecting
            # (benchmarks/gui_responsiveness.py). Freezing moves them out of the collector's way.
            gc.freeze()
        from .guards import ClinicalTermGuard

        return cls(
            cfg, members, inclusion=inclusion, weights=weights, category_weights=category_weights, guard=ClinicalTermGuard.default()
        )

    # -- running ------------------------------------------------------------------------
    @property
    def rules_only(self) -> bool:
        """No model member loaded: only rules and the user's own lists detect."""
        return not any(_is_model(d) for d in self.members.values())

    def describe(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "strategy": self.config.strategy.value,
            "members": {},
            "missing": self.missing,
            "weights": {k: round(v, 4) for k, v in self.weights.items()},
            "category_weights": category_weights_json(self.category_weights),
        }
        for n, d in self.members.items():
            desc = d.describe() if hasattr(d, "describe") else {"type": type(d).__name__}
            out["members"][n] = desc
        return out

    def member_spans(
        self,
        texts: Sequence[str],
        progress: Callable[[str], None] | None = None,
        fraction: Callable[[float], None] | None = None,
    ) -> list[dict[str, list[Span]]]:
        """Each member's spans per text. ``progress(member)`` is called as each member
        starts; ``fraction(done)`` with the share of the whole call done (0-1) after each
        member and, inside members that report it (a transformer, batch by batch), as they
        go, so a long document's detection can show how far it has got. Either callback may
        raise to stop."""
        per_doc: list[dict[str, list[Span]]] = [{} for _ in texts]
        shares = _work_shares([self.members[n] for n in self.order])
        done = 0.0
        for n, share in zip(self.order, shares):
            if progress:
                progress(n)
            member = self.members[n]
            if fraction is not None and _reports_progress(member):

                def within(f: float, base: float = done, share: float = share) -> None:
                    fraction(min(1.0, base + share * f))

                results = member.detect_many(list(texts), progress=within)
            else:
                results = member.detect_many(list(texts))
            done += share
            if fraction is not None:
                fraction(min(1.0, done))
            for i, spans in enumerate(results):
                per_doc[i][n] = [s.with_(source=n) if s.source != n else s for s in spans]
        return per_doc

    def detect(self, text: str) -> list[Span]:
        return self.detect_many([text])[0]

    def detect_many(self, texts: Sequence[str]) -> list[list[Span]]:
        return [self.combine(t, ms) for t, ms in zip(texts, self.member_spans(texts))]

    # -- combining ----------------------------------------------------------------------
    def combine(self, text: str, by_member: dict[str, list[Span]], strategy: Strategy | str | None = None) -> list[Span]:
        strategy = Strategy(strategy or self.config.strategy)
        toks = words(text)
        if not toks:
            return []
        names = [n for n in self.order if n in by_member]
        votes = token_votes(toks, {n: by_member[n] for n in names})
        decided: list[Decision | None] = []
        for t in range(len(toks)):
            tv = {n: votes[n][t] for n in names if votes[n][t] is not None}
            decided.append(self._decide(tv, names, strategy))
        member_spans = {n: by_member[n] for n in names}
        if self.config.trust_validated:
            decided = accept_validated(toks, decided, member_spans)
        decided = accept_whole(text, toks, decided, member_spans, self.config.whole_span_categories)
        spans = rebuild_spans(text, toks, decided, by_member)
        if self.guard is not None:
            firm = [s for s in spans if any(getattr(self.members.get(m), "authoritative", False) for m in s.members)]
            spans = sort_spans(firm + self.guard.filter(text, [s for s in spans if s not in firm]))
        # No identifier or name left in pieces; after the guard, so a piece it drops does not
        # stop a neighbour's widening.
        spans = complete(text, spans)
        if self.propagator is not None:
            spans = self.propagator.propagate(text, spans)
        return spans

    def _decide(self, tv: dict[str, Span], names: list[str], strategy: Strategy) -> Decision | None:
        if not tv:
            return None
        if strategy is Strategy.UNION:
            best = next(n for n in names if n in tv)
            return Decision(tv[best].category, max(s.score for s in tv.values()), best, tv[best])
        if strategy is Strategy.MAJORITY:
            n_yes, n_all = len(tv), len(names)
            # the configured tie-breaker, or the most trusted member when it is not loaded
            tb = self.config.tie_breaker if self.config.tie_breaker in names else names[0]
            if 2 * n_yes < n_all or (2 * n_yes == n_all and tb not in tv):
                return None
            counts: dict[Category, int] = {}
            for s in tv.values():
                counts[s.category] = counts.get(s.category, 0) + 1
            top = max(counts.values())
            cats = [c for c, k in counts.items() if k == top]
            if len(cats) > 1 and tb in tv and tv[tb].category in cats:
                cat = tv[tb].category
            else:
                cat = next(tv[n].category for n in names if n in tv and tv[n].category in cats)
            src = next(n for n in names if n in tv and tv[n].category == cat)
            return Decision(cat, float(np.mean([s.score for s in tv.values()])), src, tv[src])
        # soft vote: each member counts with its weight for the category it gives the word
        p = sum(self.weight(n, s.category) * s.score for n, s in tv.items())
        if p < self.config.threshold:
            return None
        per_cat: dict[Category, float] = {}
        for n, s in tv.items():
            per_cat[s.category] = per_cat.get(s.category, 0.0) + self.weight(n, s.category) * s.score
        cat = max(per_cat, key=per_cat.get)
        src = max((n for n in tv if tv[n].category == cat), key=lambda n: self.weight(n, cat) * tv[n].score)
        return Decision(cat, float(min(1.0, p)), src, tv[src])


def _token_range(starts: np.ndarray, ends: np.ndarray, span: Span) -> range:
    """Indices of the word tokens ``span`` touches."""
    lo = int(np.searchsorted(ends, span.start, side="right"))
    hi = int(np.searchsorted(starts, span.end, side="left"))
    return range(lo, hi)


def _bounds(toks: list[tuple[int, int]]) -> tuple[np.ndarray, np.ndarray]:
    return np.array([s for s, _ in toks]), np.array([e for _, e in toks])


def accept_validated(
    toks: list[tuple[int, int]], decided: list[Decision | None], by_member: dict[str, list[Span]]
) -> list[Decision | None]:
    """Every word of a validated member span is PHI of that span's category, whatever the
    vote said: a value that checks itself is not a matter of opinion. Where two validated
    spans cover one word the surer one decides."""
    out = list(decided)
    starts, ends = _bounds(toks)
    validated = sorted(
        ((n, sp) for n, spans in by_member.items() for sp in spans if sp.validated), key=lambda x: x[1].score
    )
    for n, sp in validated:  # ascending score: the surest is written last
        for t in _token_range(starts, ends, sp):
            d = out[t]
            if d is None or d.category != sp.category or not d.span.validated:
                out[t] = Decision(sp.category, max(sp.score, d.score if d else 0.0), n, sp)
    return out


def accept_whole(
    text: str,
    toks: list[tuple[int, int]],
    decided: list[Decision | None],
    by_member: dict[str, list[Span]],
    categories: Sequence[Category],
) -> list[Decision | None]:
    """A member span of one of ``categories`` that the vote accepted in part (one word or
    more decided PHI of the span's category) is accepted whole, up to any layout gap, so no
    piece of a URL, an identifier or a name is left in the export. Judged on the vote as it
    stood, so one expansion never triggers another."""
    wanted = set(categories)
    if not wanted:
        return decided
    out = list(decided)
    starts, ends = _bounds(toks)
    for n, spans in by_member.items():
        for sp in spans:
            if sp.category not in wanted:
                continue
            for idx in _segments(text, toks, _token_range(starts, ends, sp)):
                hits = [decided[t] for t in idx if decided[t] is not None and decided[t].category == sp.category]
                if not hits or len(hits) == len(idx):
                    continue
                score = max(d.score for d in hits)
                for t in idx:
                    if out[t] is None:
                        out[t] = Decision(sp.category, score, n, sp)
    return out


# A line break, a tab or a run of spaces: the gap between two cells of a table or two fields
# of a form, which a model's span sometimes runs across ("49  152/88   106i" in a vitals row).
_LAYOUT_GAP = re.compile(r"\n|\r|\t| {2,}")


def _segments(text: str, toks: list[tuple[int, int]], idx: range) -> list[list[int]]:
    """The word indices of one member span, cut at layout gaps: each piece is taken whole
    on its own, so a span joining two cells does not carry the second in with the first
    (measured on the development notes: those joins were most of what whole-span acceptance
    added wrongly)."""
    pieces: list[list[int]] = []
    for t in idx:
        if pieces and not _LAYOUT_GAP.search(text, toks[t - 1][1], toks[t][0]):
            pieces[-1].append(t)
        else:
            pieces.append([t])
    return pieces


def token_votes(toks: list[tuple[int, int]], by_member: dict[str, list[Span]]) -> dict[str, list[Span | None]]:
    """For each member, the span (if any) that covers each word token. When a member has two
    spans over one word, the higher-scoring one counts."""
    out: dict[str, list[Span | None]] = {}
    starts = np.array([s for s, _ in toks])
    ends = np.array([e for _, e in toks])
    for n, spans in by_member.items():
        col: list[Span | None] = [None] * len(toks)
        for sp in spans:
            lo = int(np.searchsorted(ends, sp.start, side="right"))
            hi = int(np.searchsorted(starts, sp.end, side="left"))
            for t in range(lo, hi):
                cur = col[t]
                if cur is None or sp.score > cur.score:
                    col[t] = sp
        out[n] = col
    return out


def rebuild_spans(
    text: str,
    toks: list[tuple[int, int]],
    decided: list[Decision | None],
    by_member: dict[str, list[Span]],
) -> list[Span]:
    """Group consecutive PHI words of one category into spans. Two words join when one member
    span of that category covers both, or when only spaces (no line break) separate them and
    the deciding spans agree on the fine type ("Leeds" CITY and "LS6 2PQ" ZIP stay apart, so
    each gets a surrogate of its own kind). Span edges then widen over non-word characters
    that a member of the same category included (the "(" of "(09) 555 1234"), never over
    other words."""
    index = _SpanIndex(by_member)
    groups: list[list[int]] = []
    for t, d in enumerate(decided):
        if d is None:
            continue
        if groups:
            last = groups[-1][-1]
            pd = decided[last]
            if last == t - 1 and pd is not None and pd.category == d.category:
                gap = text[toks[last][1] : toks[t][0]]
                covered = index.covers(d.category, toks[last][0], toks[t][1])
                spaces_only = gap.strip(" \t") == "" and "\n" not in gap and "\r" not in gap
                if covered or (spaces_only and pd.span.fine == d.span.fine):
                    groups[-1].append(t)
                    continue
        groups.append([t])
    out: list[Span] = []
    for g in groups:
        cat = decided[g[0]].category
        s, e = toks[g[0]][0], toks[g[-1]][1]
        lo_lim = toks[g[0] - 1][1] if g[0] > 0 else 0
        hi_lim = toks[g[-1] + 1][0] if g[-1] + 1 < len(toks) else len(text)
        contributors = index.overlapping(cat, s, e)
        for _, sp in contributors:
            if lo_lim <= sp.start < s:
                s = sp.start
            if e < sp.end <= hi_lim:
                e = sp.end
        score = max(decided[t].score for t in g)
        members = tuple(dict.fromkeys(n for n, _ in contributors))
        fines = [sp.fine for n in members for _, sp in [c for c in contributors if c[0] == n] if sp.fine != "OTHER"]
        src = decided[g[0]].member
        out.append(Span(s, e, cat, fines[0] if fines else "OTHER", score, source=src, members=members))
    return sort_spans(out)


class _SpanIndex:
    """The member spans by category, sorted by start, for the two questions ``rebuild_spans``
    asks of every group of words. Asking them of every member span in turn made a long
    document cost the product of its words and its spans (a 200 KB note: seconds)."""

    def __init__(self, by_member: dict[str, list[Span]]) -> None:
        rows: dict[Category, list[tuple[int, int, str, Span]]] = {}
        order = 0
        for n, spans in by_member.items():
            for sp in spans:
                rows.setdefault(sp.category, []).append((sp.start, order, n, sp))
                order += 1
        self._rows: dict[Category, list[tuple[int, int, str, Span]]] = {}
        self._starts: dict[Category, list[int]] = {}
        self._reach: dict[Category, list[int]] = {}  # the furthest end among spans up to here
        self._longest: dict[Category, int] = {}
        for cat, row in rows.items():
            row.sort(key=lambda r: (r[0], r[1]))
            self._rows[cat] = row
            self._starts[cat] = [r[0] for r in row]
            reach, far = [], -1
            for r in row:
                far = max(far, r[3].end)
                reach.append(far)
            self._reach[cat] = reach
            self._longest[cat] = max(r[3].end - r[3].start for r in row)

    def covers(self, category: Category, start: int, end: int) -> bool:
        """Whether one span of ``category`` reaches from ``start`` or before to ``end`` or after."""
        starts = self._starts.get(category)
        if not starts:
            return False
        i = bisect_right(starts, start)
        return i > 0 and self._reach[category][i - 1] >= end

    def overlapping(self, category: Category, start: int, end: int) -> list[tuple[str, Span]]:
        """(member, span) of ``category`` overlapping [start, end), in the members' order."""
        starts = self._starts.get(category)
        if not starts:
            return []
        row = self._rows[category]
        lo = bisect_left(starts, start - self._longest[category])
        hi = bisect_left(starts, end)
        hits = sorted((r for r in row[lo:hi] if r[3].end > start), key=lambda r: r[1])
        return [(r[2], r[3]) for r in hits]


def member_token_matrix(
    text: str, by_member: dict[str, list[Span]], gold: list[Span], names: Sequence[str]
) -> tuple[np.ndarray, np.ndarray]:
    """F (tokens, members) of member PHI scores and y (tokens,) of gold PHI labels for one
    document — the data the Brier fit runs on."""
    F, _, y = member_token_data(text, by_member, gold, names)
    return F, y


def member_token_data(
    text: str, by_member: dict[str, list[Span]], gold: list[Span], names: Sequence[str]
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """F (tokens, members) of member PHI scores, labels (tokens, members) of the category
    each member gives each word (None for O) and y (tokens,) of gold PHI labels."""
    toks = words(text)
    if not toks:
        return np.zeros((0, len(names))), np.empty((0, len(names)), dtype=object), np.zeros(0)
    votes = token_votes(toks, {n: by_member.get(n, []) for n in names})
    F = np.array([[votes[n][t].score if votes[n][t] is not None else 0.0 for n in names] for t in range(len(toks))])
    labels = np.array(
        [[votes[n][t].category if votes[n][t] is not None else None for n in names] for t in range(len(toks))], dtype=object
    )
    gv = token_votes(toks, {"gold": gold})["gold"]
    y = np.array([1.0 if g is not None else 0.0 for g in gv])
    return F, labels, y


def fit_weights_on(
    names: Sequence[str], docs: Sequence[tuple[str, list[Span]]], member_spans: Sequence[dict[str, list[Span]]]
) -> tuple[dict[str, float], CategoryWeights]:
    """(overall weights, per-category weights) by the closed-form Brier fit (002, Eq. 6) on
    documents with gold spans and the members' spans on them. Empty dicts without words."""
    from .weights import fit_brier_weights, fit_brier_weights_by_category

    data = [member_token_data(text, bm, gold, names) for (text, gold), bm in zip(docs, member_spans)]
    data = [d for d in data if len(d[2])]
    if not data:
        return {}, {}
    F = np.concatenate([d[0] for d in data])
    labels = np.concatenate([d[1] for d in data])
    y = np.concatenate([d[2] for d in data])
    overall = {n: float(v) for n, v in zip(names, fit_brier_weights(F, y))}
    by_cat = fit_brier_weights_by_category(F, labels, y, list(Category))
    per_member: CategoryWeights = {n: {} for n in names}
    for c, w in by_cat.items():
        for n, v in zip(names, w):
            per_member[n][c] = float(v)
    return overall, per_member


def fit_all_weights(
    ensemble: Ensemble, docs: Sequence[tuple[str, list[Span]]]
) -> tuple[dict[str, float], CategoryWeights]:
    """Overall and per-category soft-vote weights fitted on (text, gold spans) pairs; the
    ensemble's current ones where there is nothing to fit on."""
    names = list(ensemble.order)
    overall, by_cat = fit_weights_on(names, docs, ensemble.member_spans([t for t, _ in docs]))
    if not overall:
        return dict(ensemble.weights), {n: dict(r) for n, r in ensemble.category_weights.items()}
    return overall, by_cat


def fit_ensemble_weights(ensemble: Ensemble, docs: Sequence[tuple[str, list[Span]]]) -> dict[str, float]:
    """Fit the overall soft-vote weights on (text, gold spans) pairs; returns {member: weight}."""
    return fit_all_weights(ensemble, docs)[0]
