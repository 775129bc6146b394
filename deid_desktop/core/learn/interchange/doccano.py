"""doccano's sequence-labelling JSONL: {"id", "text", "label": [[start, end, "LABEL"], ...]}
(or "entities" with start_offset/end_offset, as newer versions export)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterable

from ...safe_files import atomic_text
from ...spans import first_of_overlaps
from .base import AnnotatedDocument, LabelMapper, ReadReport, jsonl_records, make_span
from .registry import register


def read_doccano(p: Path, mapper: LabelMapper, report: ReadReport) -> list[AnnotatedDocument]:
    out = []
    for n, obj in jsonl_records(p, report):
        text = obj["text"]
        where = f"{p.name} line {n}"
        spans = []
        for item in obj.get("label") or obj.get("labels") or []:
            if isinstance(item, (list, tuple)) and len(item) == 3:
                sp = make_span(text, item[0], item[1], str(item[2]), None, mapper, report, where)
                if sp:
                    spans.append(sp)
        for ent in obj.get("entities") or []:
            if isinstance(ent, dict):
                sp = make_span(text, ent.get("start_offset"), ent.get("end_offset"), str(ent.get("label", "")), None, mapper, report, where)
                if sp:
                    spans.append(sp)
        out.append(AnnotatedDocument(str(obj.get("id", f"{p.stem}-{n}")), text, spans, obj.get("subject")))
    return out


def write_doccano(docs: Iterable[AnnotatedDocument], out: Path) -> int:
    n = 0
    with atomic_text(out) as f:
        for d in docs:
            rec: dict[str, Any] = {"id": d.id, "text": d.text, "label": [[s.start, s.end, s.category.value] for s in first_of_overlaps(d.spans)]}
            if d.subject:
                rec["subject"] = d.subject
            f.write(json.dumps(rec, ensure_ascii=False) + "\n")
            n += 1
    return n


register("doccano", read_doccano, write_doccano)
