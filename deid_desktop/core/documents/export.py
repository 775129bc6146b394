"""Document + replacements → a de-identified file, in the document's own format or as text.

Formats: "txt" (any document), "docx" (Word documents), "pdf" (PDFs). A .txt document is
written in its own encoding, BOM and line endings; text from a Word document or PDF written
as "txt" is UTF-8 with "\\n" line ends. Files are written to a temporary name first and moved
into place, so a failed export never leaves a partial file.
"""

from __future__ import annotations

import logging
import os
import warnings
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import ExportError
from .model import Document, Replacement, apply_replacements
from .txt import encode_text

log = logging.getLogger(__name__)

FORMATS = ("txt", "docx", "pdf")


class ExportWarning(UserWarning):
    """Something the user should know about a written file (it never quotes content)."""


@dataclass(frozen=True, slots=True)
class ExportResult:
    path: Path
    warnings: list[str] = field(default_factory=list)
    # Pages (1-based, PDF only) the writer cannot vouch for: a report must not call them clean.
    pages_to_check: list[int] = field(default_factory=list)
    # Word boxes burned out of the pixels of scanned (OCR'd) PDF pages and Word pictures.
    image_boxes_redacted: int = 0


def output_suffix(doc: Document, fmt: str | None) -> str:
    """".txt", ".docx" or ".pdf": the suffix of the file ``write_document`` writes."""
    return "." + _resolve_format(doc, fmt)


def write_document(
    doc: Document, replacements: list[Replacement], out_path: str | Path, fmt: str | None = None
) -> Path:
    """Write the de-identified file and return its path. ``out_path`` may be a folder (the
    file is named after the original) or a file name; when the name does not end with the
    output suffix, the suffix is appended. Warnings are issued as ExportWarning."""
    result = export_document(doc, replacements, out_path, fmt)
    for message in result.warnings:
        warnings.warn(message, ExportWarning, stacklevel=2)
    return result.path


def export_document(
    doc: Document, replacements: list[Replacement], out_path: str | Path, fmt: str | None = None
) -> ExportResult:
    """As ``write_document``, returning the warnings instead of issuing them."""
    fmt = _resolve_format(doc, fmt)
    target = _target_path(doc, Path(out_path), "." + fmt)
    reps = _checked(doc, replacements, target)
    try:
        data, notes, to_check, burned = _render(doc, reps, target, fmt)
    except ExportError:
        raise
    except MemoryError:
        raise ExportError(target, "not enough memory to write the file", code="export_failed") from None
    except Exception as e:  # a writer bug must not surface as a traceback in a batch
        log.debug("unexpected failure writing %s", target.name, exc_info=True)
        raise ExportError(target, f"the file could not be written ({type(e).__name__})", code="export_failed") from None
    _write_atomically(target, data)
    return ExportResult(target, notes, to_check, burned)


def _render(doc: Document, reps: list[Replacement], target: Path, fmt: str) -> tuple[bytes, list[str], list[int], int]:
    if fmt == "txt":
        text = apply_replacements(doc.text, reps)
        if doc.format == "txt":
            return (*encode_text(text, doc.meta.get("encoding", "utf-8"), bool(doc.meta.get("bom"))), [], 0)
        return text.encode("utf-8"), [], [], 0
    if fmt == "docx":
        from .docx_write import write_docx

        data, notes, painted = write_docx(doc, reps, target)
        return data, notes, [], painted
    from .pdf_write import write_pdf

    return write_pdf(doc, reps, target)


def _resolve_format(doc: Document, fmt: str | None) -> str:
    native = "txt" if doc.format in ("text", "txt") else doc.format
    if native not in FORMATS:
        raise ExportError(doc.path or "document", f"unknown document format '{doc.format}'", code="unsupported_format")
    if fmt is None:
        return native
    wanted = fmt.lower().lstrip(".")
    wanted = "txt" if wanted == "text" else wanted
    if wanted not in FORMATS:
        raise ExportError(doc.path or "document", f"unknown output format '{fmt}'", code="unsupported_format")
    if wanted not in ("txt", native):
        raise ExportError(
            doc.path or "document",
            f"a {native} document cannot be written as {wanted}; choose {native} or txt",
            code="unsupported_format",
        )
    return wanted


def _target_path(doc: Document, out_path: Path, suffix: str) -> Path:
    if out_path.is_dir():
        stem = Path(doc.path).stem if doc.path else "document"
        return out_path / f"{stem}{suffix}"
    if out_path.suffix.lower() == suffix:
        return out_path
    return out_path.with_name(out_path.name + suffix)


def _checked(doc: Document, replacements: list[Replacement], target: Path) -> list[Replacement]:
    reps = sorted(replacements, key=lambda r: (r.start, r.end))
    end = 0
    for r in reps:
        if not (0 <= r.start <= r.end <= len(doc.text)):
            raise ExportError(target, "a replacement lies outside the document's text", code="invalid_replacements")
        if r.start < end:
            raise ExportError(target, "two replacements overlap", code="invalid_replacements")
        end = r.end
    return [r for r in reps if r.end > r.start]


def _write_atomically(target: Path, data: bytes) -> None:
    tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        with tmp.open("wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except OSError as e:
        tmp.unlink(missing_ok=True)
        raise ExportError(target, f"the file cannot be written ({e.strerror or type(e).__name__})", code="write_failed") from None
