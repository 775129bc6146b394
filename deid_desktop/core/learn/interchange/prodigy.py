"""Prodigy's ner_manual JSONL: text, tokens, spans with token_start/token_end, answer."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Iterable

from ...safe_files import atomic_text
from ...spans import first_of_overlaps
from .base import AnnotatedDocument, LabelMapper, ReadReport, jsonl_records, make_span
from .registry import register


def read_prodigy(p: Path, mapper: LabelMapper, report: ReadReport) -> list[AnnotatedDocument]:
    out = []
    for n, obj in jsonl_records(p, report):
        if obj.get("answer", "accept") != "accept":
            continue  # rejected or ignored in Prodigy: not a reviewed document
        text = obj["text"]
        where = f"{p.name} line {n}"
        spans = [
            sp
            for d in obj.get("spans") or []
            if isinstance(d, dict) and (sp := make_span(text, d.get("start"), d.get("end"), d.get("label", ""), d.get("sublabel"), mapper, report, where))
        ]
        meta = obj.get("meta") or {}
        doc_id = meta.get("id", obj.get("id", f"{p.stem}-{n}"))
        out.append(AnnotatedDocument(str(doc_id), text, spans, meta.get("subject")))
    return out


_TOKEN = re.compile(r"[^\W_]+|\S")


def _tokens(text: str, start: int = 0, end: int | None = None) -> list[tuple[int, int]]:
    return [m.span() for m in _TOKEN.finditer(text, start, len(text) if end is None else end)]


def write_prodigy(docs: Iterable[AnnotatedDocument], out: Path) -> int:
    n = 0
    with atomic_text(out) as f:
        for d in docs:
            toks = _tokens(d.text)
            tokens = [
                {"text": d.text[s:e], "start": s, "end": e, "id": i, "ws": e < len(d.text) and d.text[e].isspace()}
                for i, (s, e) in enumerate(toks)
            ]
            spans = []
            for s in first_of_overlaps(d.spans):
                inside = [i for i, (a, b) in enumerate(toks) if a < s.end and s.start < b]
                item: dict[str, Any] = {"start": s.start, "end": s.end, "label": s.category.value, "sublabel": s.fine}
                if inside:
                    item["token_start"], item["token_end"] = inside[0], inside[-1]
                spans.append(item)
            meta: dict[str, Any] = {"id": d.id}
            if d.subject:
                meta["subject"] = d.subject
            f.write(json.dumps({"text": d.text, "tokens": tokens, "spans": spans, "answer": "accept", "meta": meta}, ensure_ascii=False) + "\n")
            n += 1
    return n


register("prodigy", read_prodigy, write_prodigy)
