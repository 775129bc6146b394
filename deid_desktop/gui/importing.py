"""Turning dropped or opened files and folders into documents of the workspace.

Rules the reviewer can predict: a dropped file is one document; a dropped folder is read
recursively and each of its subfolders is one subject (one patient), the layout the batch
CLI uses too; a CSV manifest with the columns ``path,subject`` assigns subjects explicitly and
wins over the folder layout. A file the reviewer named (dropped or opened by itself) always
becomes a queue entry, with its error if it cannot be read. Inside a folder only documents
(.txt, .docx, .pdf) are imported: a cohort folder also holds READMEs, scripts and images,
which are nobody's clinical notes, so they are counted for the status bar rather than listed
as errors; a document of those types that fails to read is still listed with its error.
"""

from __future__ import annotations

import csv
import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

from ..core.documents.ingest import SUPPORTED_SUFFIXES, iter_input_files
from ..core.errors import DeidError
from ..core.pipeline import load_subject_manifest

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class ImportItem:
    path: Path
    subject: str | None  # None: not assigned (exports then key surrogates as "default")


@dataclass(slots=True)
class ImportPlan:
    items: list[ImportItem] = field(default_factory=list)
    skipped: int = 0  # files inside dropped folders that are not documents


def is_document(path: Path) -> bool:
    return path.suffix.lower() in SUPPORTED_SUFFIXES


def is_manifest(path: Path) -> bool:
    """A CSV whose header has ``path`` and ``subject`` columns."""
    if path.suffix.lower() != ".csv" or not path.is_file():
        return False
    try:
        with open(path, newline="", encoding="utf-8-sig") as f:
            header = next(csv.reader(f), [])
    except (OSError, UnicodeDecodeError):
        return False
    return {"path", "subject"} <= {h.strip().lower() for h in header}


def subject_from_manifest(path: Path, manifest: dict[str, str]) -> str | None:
    rp = path.resolve()
    if str(rp) in manifest:
        return manifest[str(rp)]
    for parent in rp.parents:
        if str(parent) in manifest:
            return manifest[str(parent)]
    return None


def plan_import(paths: Iterable[str | Path], manifest: dict[str, str] | None = None) -> ImportPlan:
    """Every file to import, with its subject, and how many files of dropped folders are not
    documents. Manifests found among the paths (or at the top of a dropped folder) are
    applied, not imported."""
    manifest = dict(manifest or {})
    roots: list[Path] = [Path(p) for p in paths]
    for p in list(roots):
        candidates = [p] if p.is_file() else ([c for c in p.iterdir() if c.is_file()] if p.is_dir() else [])
        for c in candidates:
            if is_manifest(c):
                try:
                    manifest.update(load_subject_manifest(c))
                except (DeidError, OSError, UnicodeDecodeError) as e:
                    log.warning("subject manifest %s ignored: %s", c.name, type(e).__name__)
                if c in roots:
                    roots.remove(c)
    plan = ImportPlan()
    seen: set[Path] = set()
    for root in roots:
        if root.is_dir():
            # The CLI's walk: sorted, hidden files and Office lock files skipped.
            for f in iter_input_files([root]):
                if is_manifest(f) or f.resolve() in seen:
                    continue
                seen.add(f.resolve())
                if not is_document(f):
                    plan.skipped += 1
                    continue
                rel = f.relative_to(root)
                folder_subject = rel.parts[0] if len(rel.parts) > 1 else None
                plan.items.append(ImportItem(f, subject_from_manifest(f, manifest) or folder_subject))
        else:
            # A path that does not exist, or of a type that cannot be read, is kept: ingest
            # reports it as an error in the queue.
            if root.resolve() in seen:
                continue
            seen.add(root.resolve())
            plan.items.append(ImportItem(root, subject_from_manifest(root, manifest)))
    return plan


def apply_manifest(workspace, manifest_path: str | Path) -> tuple[int, int]:
    """Assign subjects to documents already in the workspace from a ``path,subject`` CSV.
    Returns (documents assigned, manifest rows that matched no document)."""
    manifest = load_subject_manifest(Path(manifest_path))
    assigned, matched = 0, set()
    for row in workspace.list_documents():
        if not row.source_path:
            continue
        subject = subject_from_manifest(Path(row.source_path), manifest)
        if subject is None:
            continue
        rp = Path(row.source_path).resolve()
        matched.update(k for k in manifest if rp == Path(k) or Path(k) in rp.parents)
        if subject != row.subject_label:
            workspace.assign_subject(row.id, subject)
            assigned += 1
    return assigned, len(set(manifest) - matched)
