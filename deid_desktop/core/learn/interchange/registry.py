"""The annotation format registry: each format module registers its reader and writer under
its name; reading, writing, the CLI's ``--format`` choices and the workspace import/export all
go through here, so a new format is one module and one ``register`` call."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable

from ...errors import ConfigError
from .base import AnnotatedDocument, LabelMapper, ReadReport

Reader = Callable[[Path, LabelMapper, ReadReport], list[AnnotatedDocument]]
Writer = Callable[[list[AnnotatedDocument], Path], int]


@dataclass(frozen=True)
class AnnotationFormat:
    name: str
    read: Reader
    write: Writer
    # The output is a folder the writer makes (brat), not a file whose parent must exist.
    writes_folder: bool = False


_FORMATS: dict[str, AnnotationFormat] = {}


def register(name: str, read: Reader, write: Writer, *, writes_folder: bool = False) -> AnnotationFormat:
    """Make a format known by ``name``; formats are listed in the order they registered."""
    if name in _FORMATS:
        raise ValueError(f"annotation format {name!r} is registered twice")
    fmt = AnnotationFormat(name, read, write, writes_folder)
    _FORMATS[name] = fmt
    return fmt


def format_names() -> tuple[str, ...]:
    return tuple(_FORMATS)


def annotation_format(name: str) -> AnnotationFormat:
    """The registered format ``name``; an error listing the known ones otherwise."""
    try:
        return _FORMATS[name]
    except KeyError:
        raise ConfigError(f"unknown annotation format {name!r}; expected one of {', '.join(format_names())}") from None


def detect_format(path: str | Path) -> str:
    """The format of ``path`` from its suffix and, for JSON lines, the keys of its first record
    (a new format that can be told apart this way adds its case here)."""
    p = Path(path)
    if p.is_dir() or p.suffix.lower() in (".ann", ".txt"):
        return "brat"
    suffix = p.suffix.lower()
    if suffix in (".conll", ".bio", ".iob", ".iob2", ".tsv"):
        return "conll"
    if suffix == ".json":
        return "labelstudio"
    if suffix in (".jsonl", ".ndjson"):
        with p.open(encoding="utf-8") as f:
            for line in f:
                if line.strip():
                    try:
                        first = json.loads(line)
                    except json.JSONDecodeError:
                        break
                    if isinstance(first, dict):
                        if "data" in first and "annotations" in first:
                            return "labelstudio"
                        if "tokens" in first or "answer" in first or "_task_hash" in first:
                            return "prodigy"
                        if "label" in first or "entities" in first:
                            return "doccano"
                    break
        return "jsonl"
    raise ConfigError(f"{p.name}: cannot tell the annotation format; give --format ({', '.join(format_names())})")


def read_annotations(path: str | Path, fmt: str | None = None, *, label_map: dict[str, str] | None = None) -> tuple[list[AnnotatedDocument], ReadReport]:
    """The documents of an annotation file (or brat folder) and what reading skipped;
    ``label_map`` adds foreign label -> category entries before the shipped maps."""
    p = Path(path)
    if not p.exists():
        raise ConfigError(f"{p.name}: no such file or folder")
    reader = annotation_format(fmt or detect_format(p)).read
    report = ReadReport()
    try:
        docs = reader(p, LabelMapper(label_map), report)
    except UnicodeDecodeError:
        raise ConfigError(f"{p.name}: not UTF-8 text") from None
    report.documents = len(docs)
    return docs, report


def write_annotations(docs: Iterable[AnnotatedDocument], out: str | Path, fmt: str) -> int:
    """Write ``docs`` in ``fmt``; returns how many were written."""
    chosen = annotation_format(fmt)
    p = Path(out)
    if not chosen.writes_folder:
        p.parent.mkdir(parents=True, exist_ok=True)
    return chosen.write(list(docs), p)
