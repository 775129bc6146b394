"""What every annotation format shares: the document and read report types, foreign labels
mapped to our categories, and the checks every span read from a file passes.

Reading never trusts a file: offsets outside the text, unknown labels and malformed records
are counted and reported (by record number and label name, never by content) and skipped.
Foreign labels are mapped to our categories through the label maps under
``resources/label_maps/`` (PERSON, PER -> NAME; HOSPITAL -> ORGANIZATION/HOSPITAL; ...).
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

from ...categories import Category, normalise_fine, parse_category
from ...errors import ConfigError
from ...spans import Span

IMPORT_REVIEWER = "import"
_SHIPPED_MAPS = ("i2b2", "pii", "conll")


@dataclass
class AnnotatedDocument:
    id: str
    text: str
    spans: list[Span] = field(default_factory=list)
    subject: str | None = None


@dataclass
class ReadReport:
    """What reading skipped, in words that never quote a document."""

    documents: int = 0
    spans: int = 0
    unknown_labels: Counter = field(default_factory=Counter)
    problems: list[str] = field(default_factory=list)

    def summary(self) -> str:
        parts = [f"{self.documents} document(s), {self.spans} span(s)"]
        if self.unknown_labels:
            parts.append("unknown labels skipped: " + ", ".join(f"{k} ({v})" for k, v in sorted(self.unknown_labels.items())))
        if self.problems:
            parts.append(f"{len(self.problems)} problem(s)")
        return "; ".join(parts)


# -- labels -----------------------------------------------------------------------------------


class LabelMapper:
    """Foreign label -> (category, fine). Our own categories and "CATEGORY/FINE" first, then the
    shipped label maps in order, then an optional user table."""

    def __init__(self, extra: dict[str, str] | None = None):
        from ...models.label_map import LabelMap

        self.maps = []
        if extra:
            self.maps.append(LabelMap.from_dict(extra, name="custom"))
        for name in _SHIPPED_MAPS:
            try:
                self.maps.append(LabelMap.load(name))
            except ConfigError:
                continue

    def __call__(self, label: str, sublabel: str | None = None) -> tuple[Category, str] | None:
        from ...models.label_map import split_label

        raw = str(label).strip()
        head, sep, tail = raw.partition("/")
        try:
            cat = parse_category(head)
            return cat, normalise_fine(cat, sublabel or (tail if sep else None))
        except ValueError:
            pass
        _, bare = split_label(raw)
        for m in self.maps:
            hit = m.lookup(bare)
            if hit is False:
                continue
            if hit is None:
                return None
            cat, fine = hit  # type: ignore[misc]
            return cat, normalise_fine(cat, sublabel) if sublabel else fine
        raise KeyError(bare)


def make_span(text: str, start: Any, end: Any, label: str, sublabel: str | None, mapper: LabelMapper, report: ReadReport, where: str) -> Span | None:
    try:
        s, e = int(start), int(end)
    except (TypeError, ValueError):
        report.problems.append(f"{where}: span offsets are not numbers")
        return None
    if not (0 <= s < e <= len(text)):
        report.problems.append(f"{where}: span {s}..{e} lies outside the text")
        return None
    try:
        meaning = mapper(label, sublabel)
    except KeyError as k:
        report.unknown_labels[str(k.args[0])] += 1
        return None
    if meaning is None:
        return None
    # Tools often include surrounding spaces in a selection; a span never does.
    while s < e and text[s].isspace():
        s += 1
    while e > s and text[e - 1].isspace():
        e -= 1
    if e <= s:
        return None
    report.spans += 1
    return Span(s, e, meaning[0], meaning[1], 1.0, source=IMPORT_REVIEWER)


def jsonl_records(p: Path, report: ReadReport) -> Iterator[tuple[int, dict]]:
    """The JSON objects of a JSON-lines file that carry a string ``text``, with line numbers."""
    with p.open(encoding="utf-8-sig") as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
            except json.JSONDecodeError:
                report.problems.append(f"{p.name} line {n}: not valid JSON")
                continue
            if not isinstance(obj, dict) or not isinstance(obj.get("text"), str):
                report.problems.append(f"{p.name} line {n}: no string field 'text'")
                continue
            yield n, obj


def jsonl_records_any(p: Path, report: ReadReport) -> Iterator[tuple[int, dict]]:
    """Every JSON value of a JSON-lines file, with line numbers; bad lines are reported."""
    with p.open(encoding="utf-8-sig") as f:
        for n, line in enumerate(f, 1):
            if line.strip():
                try:
                    yield n, json.loads(line)
                except json.JSONDecodeError:
                    report.problems.append(f"{p.name} line {n}: not valid JSON")
