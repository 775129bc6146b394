"""Turning dropped or opened files and folders into documents of the workspace.

The batch CLI's rules (``core/pipeline.py``: the manifest's columns, which subject a path
gets; the folder walk) with what the window adds. Rules the reviewer can predict: a dropped
file is one document; a dropped folder is read recursively and each of its subfolders is
one subject (one patient), the layout the batch CLI uses too; a CSV manifest with the columns ``path,subject`` assigns subjects explicitly and
wins over the folder layout. A file the reviewer named (dropped or opened by itself) always
becomes a queue entry, with its error if it cannot be read. Inside a folder only documents
(.txt, .docx, .pdf) are imported: a cohort folder also holds READMEs, scripts and images,
which are nobody's clinical notes, so they are counted for the status bar rather than listed
as errors; a document of those types that fails to read is still listed with its error.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

from ..documents.ingest import SUPPORTED_SUFFIXES, iter_input_files
from ..errors import DeidError
from ..pipeline import is_subject_manifest, layout_subject, load_subject_manifest, manifest_subject

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


def plan_import(paths: Iterable[str | Path], manifest: dict[str, str] | None = None) -> ImportPlan:
    """Every file to import, with its subject, and how many files of dropped folders are not
    documents. Manifests found among the paths (or at the top of a dropped folder) are
    applied, not imported."""
    manifest = dict(manifest or {})
    roots: list[Path] = [Path(p) for p in paths]
    for p in list(roots):
        candidates = [p] if p.is_file() else ([c for c in p.iterdir() if c.is_file()] if p.is_dir() else [])
        for c in candidates:
            if is_subject_manifest(c):
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
                if is_subject_manifest(f) or f.resolve() in seen:
                    continue
                seen.add(f.resolve())
                if not is_document(f):
                    plan.skipped += 1
                    continue
                plan.items.append(ImportItem(f, manifest_subject(f, manifest) or layout_subject(f, root)))
        else:
            # A path that does not exist, or of a type that cannot be read, is kept: ingest
            # reports it as an error in the queue.
            if root.resolve() in seen:
                continue
            seen.add(root.resolve())
            plan.items.append(ImportItem(root, manifest_subject(root, manifest)))
    return plan


def apply_manifest(workspace, manifest_path: str | Path) -> tuple[int, int]:
    """Assign subjects to documents already in the workspace from a ``path,subject`` CSV.
    Returns (documents assigned, manifest rows that matched no document)."""
    manifest = load_subject_manifest(Path(manifest_path))
    assigned, matched = 0, set()
    for row in workspace.list_documents():
        if not row.source_path:
            continue
        subject = manifest_subject(Path(row.source_path), manifest)
        if subject is None:
            continue
        rp = Path(row.source_path).resolve()
        matched.update(k for k in manifest if rp == Path(k) or Path(k) in rp.parents)
        if subject != row.subject_label:
            workspace.assign_subject(row.id, subject)
            assigned += 1
    return assigned, len(set(manifest) - matched)


# -- results ------------------------------------------------------------------------------


@dataclass
class ImportTally:
    """What one import did, for the status bar, and which documents detection must run on:
    new ones, and duplicates whose detection never ran."""

    new: int = 0
    duplicates: int = 0
    failed: int = 0
    skipped: int = 0  # files in dropped folders that are not documents
    total: int = 0
    done: int = 0
    to_detect: list[int] = field(default_factory=list)

    def store(self, workspace, item: ImportItem, doc) -> int:
        """Put a read document into the workspace and count it; a DeidError from the store
        propagates (the caller records the file as failed)."""
        from ..store import DocStatus

        res = workspace.import_document(doc, subject_label=item.subject, source_path=str(item.path))
        if res.status == "duplicate":
            self.duplicates += 1
            if DocStatus(workspace.get_document(res.document_id).status) == DocStatus.IMPORTED:
                self.to_detect.append(res.document_id)
        else:
            self.new += 1
            self.to_detect.append(res.document_id)
        return res.document_id

    def record_failure(self, workspace, item: ImportItem, code: str, reason: str) -> int:
        """A file that could not be read stays in the queue with its (PHI-free) reason."""
        self.failed += 1
        doc_id = workspace.record_import_error(str(item.path), code, reason)
        if item.subject:
            workspace.assign_subject(doc_id, item.subject)
        return doc_id

    def message(self) -> str:
        parts = [f"Imported {self.new} new document(s)"]
        if self.duplicates:
            parts.append(f"{self.duplicates} already in the workspace")
        if self.failed:
            parts.append(f"{self.failed} could not be read (marked “error” in the queue; hover for the reason)")
        if self.skipped:
            parts.append(f"{self.skipped} other file{'s' if self.skipped != 1 else ''} skipped (only .txt, .docx and .pdf files in folders are read)")
        return "; ".join(parts) + "."
