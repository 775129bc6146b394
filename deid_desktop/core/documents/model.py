"""The one Document model: extracted text plus a source map back to the original structure."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Segment:
    """A stretch of the extracted text [start, end) and where it came from.

    ``locator`` is format specific and JSON-serialisable so it can be stored in the workspace:
      txt:  {}                                           (identity mapping)
      docx: {"part": "word/document.xml", "para": [path...], "run": i, "offset": k}
      pdf:  {"page": p, "boxes": [[x0, top, x1, bottom], ...]} one box per character
      pdf page read by OCR: the same, one segment per word, plus "ocr_box" (the word's box
            in the straightened page image) and "conf" (Tesseract's confidence), see ocr.py
    """

    start: int
    end: int
    locator: dict[str, Any] = field(default_factory=dict)


@dataclass
class Document:
    text: str
    format: str  # "txt" | "docx" | "pdf" | "text" (text given directly, e.g. JSONL)
    path: str | None = None
    segments: list[Segment] = field(default_factory=list)
    # Human-readable notes about the extraction ("page 3 has no text layer; OCR is needed").
    # They never quote document content.
    warnings: list[str] = field(default_factory=list)
    # Format details writers need: txt encoding/BOM/newline; pdf page sizes; etc.
    meta: dict[str, Any] = field(default_factory=dict)
    # The original file's bytes, so writers can rebuild the file even if it moved.
    source_bytes: bytes | None = field(default=None, repr=False)

    @property
    def content_hash(self) -> str:
        data = self.source_bytes if self.source_bytes is not None else self.text.encode("utf-8")
        return hashlib.sha256(data).hexdigest()

    @classmethod
    def from_text(cls, text: str, path: str | None = None) -> "Document":
        return cls(text=text, format="text", path=path, segments=[Segment(0, len(text))])


@dataclass(frozen=True, slots=True)
class Replacement:
    """What an export writes in place of the text [start, end) of ``Document.text``."""

    start: int
    end: int
    new_text: str
    category: str  # coarse category value, for reports and tag styling


def apply_replacements(text: str, replacements: list[Replacement]) -> str:
    """Replace non-overlapping ranges of ``text``; raises ValueError on overlap."""
    out: list[str] = []
    pos = 0
    for r in sorted(replacements, key=lambda r: r.start):
        if r.start < pos:
            raise ValueError("overlapping replacements")
        out.append(text[pos : r.start])
        out.append(r.new_text)
        pos = r.end
    out.append(text[pos:])
    return "".join(out)
