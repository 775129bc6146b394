"""Reviewed documents in and out of a workspace through any registered annotation format."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ...spans import first_of_overlaps
from .base import IMPORT_REVIEWER, AnnotatedDocument, ReadReport
from .registry import read_annotations, write_annotations


@dataclass
class ImportReport:
    imported: int = 0
    duplicates: int = 0
    spans: int = 0
    read: ReadReport = field(default_factory=ReadReport)
    document_ids: list[int] = field(default_factory=list)

    def summary(self) -> str:
        return f"{self.imported} reviewed document(s) imported with {self.spans} span(s), {self.duplicates} already in the workspace; read: {self.read.summary()}"


def import_reviewed(ws, path: str | Path, fmt: str | None = None, *, label_map: dict[str, str] | None = None, reviewer: str = IMPORT_REVIEWER) -> ImportReport:
    """Import annotated documents as reviewed documents: each span becomes an ADD decision by
    ``reviewer``. A document whose text is already in the workspace is left as it is."""
    from ...documents.model import Document
    from ...store import DocStatus

    p = Path(path)
    docs, read = read_annotations(p, fmt, label_map=label_map)
    report = ImportReport(read=read)
    for d in docs:
        result = ws.import_document(Document.from_text(d.text, path=f"{p.name}#{d.id}"), subject_label=d.subject, source_path=f"{p.name}#{d.id}")
        if result.status == "duplicate":
            report.duplicates += 1
            continue
        for s in first_of_overlaps(d.spans):
            ws.add_span(result.document_id, s.start, s.end, s.category, s.fine, reviewer=reviewer)
            report.spans += 1
        ws.set_status(result.document_id, DocStatus.REVIEWED)
        report.imported += 1
        report.document_ids.append(result.document_id)
    return report


def reviewed_annotations(ws) -> list[AnnotatedDocument]:
    from ..reviewed import reviewed_document_rows

    out = []
    for row in reviewed_document_rows(ws):
        text = ws.load_document(row.id).text
        out.append(AnnotatedDocument(str(row.id), text, ws.final_spans(row.id, unreviewed_policy="accept"), row.subject_label))
    return out


def export_reviewed(ws, out: str | Path, fmt: str = "jsonl") -> int:
    """Write every reviewed document with its final spans; returns how many."""
    return write_annotations(reviewed_annotations(ws), out, fmt)


__all__ = ["ImportReport", "export_reviewed", "import_reviewed", "reviewed_annotations"]
