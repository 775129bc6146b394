"""Gold documents: text plus the spans a reviewer (or the corpus generator) marked.

JSONL lines ``{"id", "text", "spans": [{"start","end","label","sublabel"}]}``, labels being the
coarse categories. Kept free of torch and transformers so metrics and tools load quickly.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Mapping

from ..spans import Span
from ..safe_files import atomic_text


@dataclass
class GoldDocument:
    id: str
    text: str
    spans: list[Span] = field(default_factory=list)

    @classmethod
    def from_json(cls, d: Mapping[str, Any], default_id: str = "") -> "GoldDocument":
        text = str(d["text"])
        spans = [Span.from_json(s, default_source="gold") for s in d.get("spans", [])]
        for s in spans:
            if s.end > len(text):
                raise ValueError(f"document {d.get('id', default_id)}: a span ends past the end of the text")
        return cls(id=str(d.get("id", default_id)), text=text, spans=spans)

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "text": self.text,
            "spans": [{"start": s.start, "end": s.end, "label": s.category.value, "sublabel": s.fine} for s in self.spans],
        }


def as_gold(doc: Any, index: int = 0) -> GoldDocument:
    """Accepts a GoldDocument, a JSON dict, or any object with ``text`` and ``spans``."""
    if isinstance(doc, GoldDocument):
        return doc
    if isinstance(doc, Mapping):
        return GoldDocument.from_json(doc, default_id=str(index))
    spans = [s if isinstance(s, Span) else Span.from_json(s) for s in getattr(doc, "spans")]
    return GoldDocument(id=str(getattr(doc, "id", index)), text=str(getattr(doc, "text")), spans=spans)


def load_jsonl(path: str | Path) -> list[GoldDocument]:
    p = Path(path)
    out: list[GoldDocument] = []
    with p.open(encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                out.append(GoldDocument.from_json(json.loads(line), default_id=f"{p.stem}:{n}"))
            except (ValueError, KeyError, TypeError) as e:
                # The reason names the field, never the text.
                raise ValueError(f"{p.name} line {n}: not a gold document ({type(e).__name__}: {e})") from None
    return out


def save_jsonl(docs: Iterable[GoldDocument], path: str | Path) -> None:
    # gold documents are whole texts: owner-only, like every file holding original text
    with atomic_text(path) as f:
        for d in docs:
            f.write(json.dumps(as_gold(d).to_json(), ensure_ascii=False) + "\n")


_MARK = re.compile(r"\{\{([A-Za-z]+)\|([^{}|\n]*)\}\}")


def from_inline_markup(marked: str, doc_id: str = "") -> GoldDocument:
    """A gold document from text annotated inline as ``{{CATEGORY|text}}`` (the format of the
    hand-written benchmark notes): the markup is removed and each marked text becomes a span.
    Errors name the document and line, never the text."""
    from ..categories import parse_category

    parts: list[str] = []
    spans: list[Span] = []
    pos = 0  # in the plain text
    last = 0  # in the marked text
    for m in _MARK.finditer(marked):
        parts.append(marked[last : m.start()])
        pos += m.start() - last
        line = marked.count("\n", 0, m.start()) + 1
        try:
            category = parse_category(m.group(1))
        except ValueError:
            raise ValueError(f"{doc_id} line {line}: unknown category {m.group(1)!r}") from None
        value = m.group(2)
        if not value or value != value.strip():
            raise ValueError(f"{doc_id} line {line}: a marked span is empty or starts or ends with a space")
        spans.append(Span(pos, pos + len(value), category, source="gold"))
        parts.append(value)
        pos += len(value)
        last = m.end()
    parts.append(marked[last:])
    text = "".join(parts)
    for bad in ("{{", "}}"):
        if bad in text:
            line = text.count("\n", 0, text.index(bad)) + 1
            raise ValueError(f"{doc_id} line {line}: unclosed or malformed markup")
    return GoldDocument(id=doc_id, text=text, spans=spans)
