"""Our own gold JSONL: {"id", "text", "spans": [{"start", "end", "label", "sublabel"}], "subject"?}."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterable

from ...safe_files import atomic_text
from ...spans import first_of_overlaps
from .base import AnnotatedDocument, LabelMapper, ReadReport, jsonl_records, make_span
from .registry import register


def read_jsonl(p: Path, mapper: LabelMapper, report: ReadReport) -> list[AnnotatedDocument]:
    out = []
    for n, obj in jsonl_records(p, report):
        text = obj["text"]
        where = f"{p.name} line {n}"
        spans = [
            sp
            for d in obj.get("spans") or []
            if isinstance(d, dict)
            and (sp := make_span(text, d.get("start"), d.get("end"), d.get("label") or d.get("category") or "", d.get("sublabel") or d.get("fine"), mapper, report, where))
        ]
        subject = obj.get("subject") or (obj.get("meta") or {}).get("subject")
        out.append(AnnotatedDocument(str(obj.get("id", f"{p.stem}-{n}")), text, spans, str(subject) if subject else None))
    return out


def write_jsonl(docs: Iterable[AnnotatedDocument], out: Path) -> int:
    n = 0
    with atomic_text(out) as f:
        for d in docs:
            rec: dict[str, Any] = {"id": d.id, "text": d.text, "spans": [{"start": s.start, "end": s.end, "label": s.category.value, "sublabel": s.fine} for s in first_of_overlaps(d.spans)]}
            if d.subject:
                rec["subject"] = d.subject
            f.write(json.dumps(rec, ensure_ascii=False) + "\n")
            n += 1
    return n


register("jsonl", read_jsonl, write_jsonl)
