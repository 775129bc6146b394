"""Label Studio: a JSON list of tasks {"data": {"text"}, "annotations": [{"result": [...]}]}
(also JSON-lines and the JSON-MIN export), and the labelling configuration for our categories."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterable

from ...categories import Category
from ...errors import ConfigError
from ...safe_files import atomic_text
from ...spans import first_of_overlaps
from .base import AnnotatedDocument, LabelMapper, ReadReport, jsonl_records_any, make_span
from .registry import register


def read_labelstudio(p: Path, mapper: LabelMapper, report: ReadReport) -> list[AnnotatedDocument]:
    try:
        if p.suffix.lower() in (".jsonl", ".ndjson"):
            tasks = [obj for _, obj in jsonl_records_any(p, report)]
        else:
            tasks = json.loads(p.read_text(encoding="utf-8-sig"))
    except json.JSONDecodeError as e:
        raise ConfigError(f"{p.name}: not valid JSON (line {e.lineno})") from None
    if isinstance(tasks, dict):
        tasks = [tasks]
    out = []
    for n, task in enumerate(tasks, 1):
        where = f"{p.name} task {n}"
        if not isinstance(task, dict):
            report.problems.append(f"{where}: not a task object")
            continue
        data = task.get("data") if isinstance(task.get("data"), dict) else task
        text = data.get("text")
        if not isinstance(text, str):
            report.problems.append(f"{where}: no text")
            continue
        results: list[dict] = []
        annotations = [a for a in task.get("annotations") or [] if isinstance(a, dict) and not a.get("was_cancelled")]
        if annotations:
            results = annotations[-1].get("result") or []  # the latest annotation wins
        elif isinstance(task.get("label"), list):  # the JSON-MIN export
            results = [{"value": v} for v in task["label"]]
        spans = []
        for r in results:
            v = r.get("value") if isinstance(r, dict) else None
            if not isinstance(v, dict) or "start" not in v:
                continue
            labels = v.get("labels") or v.get("hypertextlabels") or []
            for label in labels[:1]:
                sp = make_span(text, v.get("start"), v.get("end"), str(label), None, mapper, report, where)
                if sp:
                    spans.append(sp)
        meta = task.get("meta") or {}
        out.append(AnnotatedDocument(str(data.get("id") or meta.get("id") or task.get("id") or f"{p.stem}-{n}"), text, spans, meta.get("subject")))
    return out


def write_labelstudio(docs: Iterable[AnnotatedDocument], out: Path) -> int:
    tasks = []
    for k, d in enumerate(docs, 1):
        result = [
            {
                "id": f"r{k}-{i}",
                "from_name": "label",
                "to_name": "text",
                "type": "labels",
                "value": {"start": s.start, "end": s.end, "text": d.text[s.start : s.end], "labels": [s.category.value]},
            }
            for i, s in enumerate(first_of_overlaps(d.spans))
        ]
        meta: dict[str, Any] = {"id": d.id}
        if d.subject:
            meta["subject"] = d.subject
        tasks.append({"id": k, "data": {"text": d.text, "id": d.id}, "meta": meta, "annotations": [{"result": result, "was_cancelled": False}]})
    with atomic_text(out) as f:
        f.write(json.dumps(tasks, ensure_ascii=False, indent=1) + "\n")
    return len(tasks)


def labelstudio_config() -> str:
    """The labelling interface matching our categories, for a new Label Studio project."""
    labels = "\n".join(f'    <Label value="{c.value}"/>' for c in Category)
    return f'<View>\n  <Labels name="label" toName="text">\n{labels}\n  </Labels>\n  <Text name="text" value="$text"/>\n</View>\n'


register("labelstudio", read_labelstudio, write_labelstudio)
