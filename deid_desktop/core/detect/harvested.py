"""Harvested template rules (001): deterministic line patterns learned from reviewed
documents and approved by a person, e.g. ``Ward: W  Bed: N  Consultant: <NAME>``.

A rule is data: a regular expression matched against whole lines, with named groups for the
PHI slots, the category of each slot, and a letter-case check a slot value must pass (a name
slot learned from "Dr Hemi Walker" does not fire on "not yet allocated"). Rules come from a
workspace (approved ones only) or from a JSON rules file, so they can move between sites.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, Iterable

from ..categories import Category, normalise_fine, parse_category
from ..errors import ConfigError
from ..spans import Span, sort_spans
from ..text import iter_lines
from .base import Detector, register

CASES = ("title", "upper", "lower", "any")


@dataclass(frozen=True)
class RuleSlot:
    group: str  # the named group of the rule's pattern
    category: Category
    fine: str = "OTHER"
    case: str = "any"  # "title" | "upper" | "lower" | "any"

    def __post_init__(self) -> None:
        if not isinstance(self.category, Category):
            object.__setattr__(self, "category", parse_category(str(self.category)))
        object.__setattr__(self, "fine", normalise_fine(self.category, self.fine))
        if self.case not in CASES:
            raise ValueError(f"unknown letter case {self.case!r}")

    def accepts(self, value: str) -> bool:
        letters = [w for w in re.findall(r"[^\W\d_]+", value)]
        if self.case == "title":
            return bool(letters) and all(w[0].isupper() for w in letters)
        if self.case == "upper":
            return bool(letters) and all(w.isupper() for w in letters)
        if self.case == "lower":
            return bool(letters) and all(w.islower() for w in letters)
        return True

    def to_json(self) -> dict[str, str]:
        return {"group": self.group, "category": self.category.value, "fine": self.fine, "case": self.case}


@dataclass(frozen=True)
class TemplateRule:
    template: str  # what the user reads: literal words, W/N/A shapes and <CATEGORY> slots
    pattern: str
    slots: tuple[RuleSlot, ...]
    support: int = 0  # reviewed documents the rule was seen to hold in
    status: str = "proposed"
    id: int | None = field(default=None, compare=False)

    @cached_property
    def regex(self) -> re.Pattern[str]:
        try:
            rx = re.compile(self.pattern)
        except re.error as e:
            raise ConfigError(f"template rule {self.id or ''} has an invalid pattern ({e.msg})") from None
        missing = [s.group for s in self.slots if s.group not in rx.groupindex]
        if missing:
            raise ConfigError(f"template rule {self.id or ''} names slots its pattern lacks: {', '.join(missing)}")
        return rx

    def find(self, text: str) -> list[Span]:
        out: list[Span] = []
        for ls, le in iter_lines(text):
            m = self.regex.fullmatch(text, ls, le)
            if m is None:
                continue
            for slot in self.slots:
                s, e = m.span(slot.group)
                if e > s and slot.accepts(m.group(slot.group)):
                    out.append(Span(s, e, slot.category, slot.fine, 1.0, source="harvested"))
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            "template": self.template,
            "pattern": self.pattern,
            "slots": [s.to_json() for s in self.slots],
            "support": self.support,
        }

    @classmethod
    def from_json(cls, d: dict[str, Any], *, status: str = "approved", id: int | None = None) -> "TemplateRule":
        try:
            slots = tuple(RuleSlot(**s) for s in d["slots"])
            return cls(str(d["template"]), str(d["pattern"]), slots, int(d.get("support", 0)), status, id)
        except (KeyError, TypeError, ValueError) as e:
            raise ConfigError(f"not a template rule ({type(e).__name__}: {e})") from None


def read_rules_file(path: str | Path) -> list[TemplateRule]:
    p = Path(path)
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError(f"{p.name}: no such rules file") from None
    except json.JSONDecodeError as e:
        raise ConfigError(f"{p.name}: not valid JSON (line {e.lineno})") from None
    items = data.get("rules", []) if isinstance(data, dict) else data
    if not isinstance(items, list):
        raise ConfigError(f"{p.name}: expected a list of rules")
    rules = [TemplateRule.from_json(d) for d in items]
    for r in rules:
        r.regex  # fail on load, not in the middle of a batch
    return rules


def write_rules_file(path: str | Path, rules: Iterable[TemplateRule]) -> int:
    rules = list(rules)
    Path(path).write_text(json.dumps({"rules": [r.to_json() for r in rules]}, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return len(rules)


@register("harvested")
class HarvestedTemplates(Detector):
    """Approved template rules as a detector. Options: ``rules_file`` and/or ``workspace``."""

    authoritative = True  # the user's own terms / approved rules

    def __init__(self, rules: Iterable[TemplateRule] | None = None, *, rules_file: str | None = None, workspace: str | None = None):
        loaded = list(rules or [])
        if rules_file:
            loaded += read_rules_file(rules_file)
        if workspace:
            from .workspace_sources import approved_rules_from_file

            loaded += approved_rules_from_file(workspace)
        for r in loaded:
            r.regex
        self.rules = loaded

    def detect(self, text: str) -> list[Span]:
        found: dict[tuple[int, int], Span] = {}
        for r in self.rules:
            for sp in r.find(text):
                found.setdefault((sp.start, sp.end), sp)
        return sort_spans(found.values())

    def describe(self) -> dict:
        return {"type": "harvested", "rules": len(self.rules)}
