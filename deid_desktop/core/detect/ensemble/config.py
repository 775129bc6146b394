"""What an ensemble file says: the strategies, the file's schema and its check (errors name the
file, the key and what is allowed), members' settings and per-category weights."""

from __future__ import annotations

import inspect
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any

from ...categories import Category, parse_category
from ...errors import ConfigError
from ...config_files import NUMBER, Schema, check_choice, check_table, check_value, read_toml, read_toml_chain
from ...paths import resource
from ..base import detector_type, detector_types


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
    "side_by_side": (bool,),
    "cascade": (bool,),
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
    "batch_threads": (int,),
}
RULES_SCHEMA: Schema = {"detectors": (list,)}
# Partial acceptance of these leaves a readable piece of an identifier in the export. Only
# PROFESSION is left out: "consultant cardiologist" without "cardiologist" identifies nobody.
DEFAULT_WHOLE_SPAN = tuple(c for c in Category if c is not Category.PROFESSION)

# member -> category -> weight
CategoryWeights = dict[str, dict[Category, float]]


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
    # Run the models side by side, each on its share of the cores, where that is safe
    # (members.side_by_side_threads); false: one after another with all the cores each.
    side_by_side: bool = True
    # The last model reads only the sentences where its vote can change the outcome
    # (ensemble/cascade.py): the same spans for less work; false: every model reads all.
    cascade: bool = True
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
            side_by_side=bool(ens.get("side_by_side", True)),
            cascade=bool(ens.get("cascade", True)),
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
                "side_by_side": self.side_by_side,
                "cascade": self.cascade,
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
        from ..rules import rule_detector_names

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
