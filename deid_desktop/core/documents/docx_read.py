"""Read a .docx into text plus a source map of (part, paragraph, text item).

Text order: headers, main body, footnotes, endnotes, footers; parts are separated by a blank
line ("\\n\\n"). Paragraphs end with "\\n". In a table row the cells are separated by "\\t"
and the row ends with "\\n", so a label and its value ("DOB:" | "12/03/1961") stay on one line
as the detectors expect; a cell holding several paragraphs keeps "\\n" between them, and a
nested table is laid out the same way inside its cell. Text boxes follow the paragraph they
are anchored in. ``w:tab``/``w:ptab`` read as "\\t", ``w:br``/``w:cr`` as "\\n".

Comments, deleted text of tracked changes and field instructions are not document text: they
are never shown for review, and the writer removes them.

Text inside pictures is read by OCR (``docx_pictures``) and follows all of the above, one
block per picture.
"""

from __future__ import annotations

from pathlib import Path

from lxml import etree

from ..errors import IngestError
from .docx_xml import (
    W_DEL,
    W_INS,
    W_MOVE_FROM,
    W_P,
    W_STRICT_NS,
    W_TBL,
    W_TC,
    W_TR,
    MC_FALLBACK,
    R_ID,
    item_text,
    own_text_boxes,
    own_text_items,
    paragraphs_in_order,
    w,
)
from .model import Document, Segment
from .docx_pictures import pictures_in_order, read_pictures
from .opc import OpcPackage, XmlRejected, parse_xml

PART_SEPARATOR = "\n\n"
_NOT_CONTENT = frozenset(
    {w("sectPr"), w("pPr"), w("rPr"), w("tblPr"), w("tblGrid"), w("trPr"), w("tcPr"), W_DEL, W_MOVE_FROM, MC_FALLBACK}
)
_ROW_WRAPPERS = frozenset({w("sdt"), w("sdtContent"), w("customXml")})
# Footnote parts start with separator "notes" that only draw the rule above the notes.
_SPECIAL_NOTE_TYPES = frozenset({"separator", "continuationSeparator", "continuationNotice"})


class _TextBuilder:
    def __init__(self) -> None:
        self.chunks: list[str] = []
        self.segments: list[Segment] = []
        self.pos = 0

    def rollback(self, pos: int) -> None:
        """Forget what was added after ``pos`` (only separators, never mapped text)."""
        while self.pos > pos:
            chunk = self.chunks.pop()
            self.pos -= len(chunk)

    def add(self, text: str, locator: dict | None = None) -> None:
        if not text:
            return
        if locator is not None:
            self.segments.append(Segment(self.pos, self.pos + len(text), locator))
        self.chunks.append(text)
        self.pos += len(text)

    @property
    def text(self) -> str:
        return "".join(self.chunks)


class _PartReader:
    """Lays out one story part (body, header, footer, notes) into the builder."""

    def __init__(self, builder: _TextBuilder, part: str, root: etree._Element):
        self.builder = builder
        self.part = part
        self.root = root
        self.paragraphs = paragraphs_in_order(root)
        self.index = {p: i for i, p in enumerate(self.paragraphs)}
        self.emitted: set[int] = set()
        self.started = False
        self.pending = ""

    def read(self) -> None:
        self._walk(self.root)
        # Anything the structural walk did not reach (unusual nesting) is still read, so no
        # text of the file escapes review and replacement.
        for i, p in enumerate(self.paragraphs):
            if i not in self.emitted and any(item_text(el) for el in own_text_items(p)):
                self.pending = "\n" if self.started else ""
                self._paragraph(p)

    def _walk(self, container: etree._Element) -> None:
        for child in container:
            tag = child.tag
            if not isinstance(tag, str) or tag in _NOT_CONTENT:
                continue
            if tag == W_P:
                self._paragraph(child)
            elif tag == W_TBL:
                self._table(child)
            elif tag in (w("footnote"), w("endnote")) and child.get(w("type")) in _SPECIAL_NOTE_TYPES:
                continue
            else:
                self._walk(child)

    def _paragraph(self, p: etree._Element) -> None:
        i = self.index.get(p)
        if i is None or i in self.emitted:
            return
        self.emitted.add(i)
        if self.started:
            self.builder.add(self.pending)
        for k, el in enumerate(own_text_items(p)):
            self.builder.add(item_text(el), {"part": self.part, "para": i, "run": k, "offset": 0})
        self.started = True
        self.pending = "\n"
        for box in own_text_boxes(p):
            self._walk(box)

    def _table(self, tbl: etree._Element) -> None:
        for row in _children(tbl, W_TR):
            for ci, cell in enumerate(_children(row, W_TC)):
                if ci > 0 and self.started:
                    self.pending = "\t"
                self._walk(cell)
            if self.started:
                self.pending = "\n"


def _children(el: etree._Element, tag: str):
    for child in el:
        if child.tag == tag:
            yield child
        elif child.tag in _ROW_WRAPPERS:
            yield from _children(child, tag)


def main_document_part(pkg: OpcPackage, path: str | Path) -> str:
    for rel in pkg.relationships(""):
        if rel.kind == "officeDocument" and not rel.external:
            found = pkg.find(rel.target)
            if found is not None:
                return found
    raise IngestError(path, "not a Word document (the package has no main document part)", code="corrupt")


def story_parts(pkg: OpcPackage, main: str, main_root: etree._Element) -> list[str]:
    """Headers (in the order sections reference them), body, footnotes, endnotes, footers.
    Headers and footers no section references are included too: their text is in the file."""
    rels = pkg.relationships(main)
    by_id = {r.id: r for r in rels}

    def ordered(kind: str) -> list[str]:
        out: list[str] = []
        for ref in main_root.iter(w(f"{kind}Reference")):
            rel = by_id.get(ref.get(R_ID, ""))
            if rel is not None and rel.kind == kind and not rel.external:
                out.append(rel.target)
        out.extend(r.target for r in rels if r.kind == kind and not r.external)
        return [name for name in dict.fromkeys(pkg.find(t) for t in out) if name is not None]

    notes = [
        found
        for kind in ("footnotes", "endnotes")
        for r in rels
        if r.kind == kind and not r.external and (found := pkg.find(r.target)) is not None
    ]
    return ordered("header") + [main] + list(dict.fromkeys(notes)) + ordered("footer")


def read_docx(data: bytes, path: str | Path, *, ocr: str = "auto") -> Document:
    """The document's text and source map; ``ocr`` says which pictures are read by OCR
    ("auto": those holding text, "always", "never"), see ``docx_pictures``."""
    pkg = OpcPackage.from_bytes(data, path)
    main = main_document_part(pkg, path)
    main_root = _parse(pkg, main, path)
    if etree.QName(main_root).namespace == W_STRICT_NS:
        raise IngestError(
            path, "the document is saved as Strict Open XML; save it as a regular Word document (.docx)", code="unsupported"
        )
    if main_root.tag != w("document"):
        raise IngestError(path, "not a Word document (the main part is not a WordprocessingML document)", code="unsupported")

    parts = story_parts(pkg, main, main_root)
    builder = _TextBuilder()
    roots = {}
    for part in parts:
        root = main_root if part == main else _parse(pkg, part, path)
        roots[part] = root
        before = builder.pos
        if before:
            builder.add(PART_SEPARATOR)
        _PartReader(builder, part, root).read()
        if before and builder.pos == before + len(PART_SEPARATOR):
            builder.rollback(before)  # a part without text leaves no blank lines behind

    names = pictures_in_order(pkg, parts, roots)
    pictures = read_pictures(pkg, names, builder.pos, ocr, path)
    text = builder.text + pictures.text
    if not text.strip():
        raise IngestError(path, "the Word document contains no text", code="no_text")
    meta: dict = {"parts": parts}
    if pictures.pictures:
        meta["pictures"] = pictures.pictures
        meta["ocr"] = pictures.summary()
    return Document(
        text=text,
        format="docx",
        path=str(path),
        segments=builder.segments + pictures.segments,
        warnings=_notes_for_reviewer(pkg, main, roots, len(pictures.pictures), pictures.ran) + pictures.warnings,
        meta=meta,
        source_bytes=data,
    )


def _parse(pkg: OpcPackage, part: str, path: str | Path) -> etree._Element:
    data = pkg.get(part)
    if data is None:
        raise IngestError(path, "a part of the Word document is missing", code="corrupt")
    try:
        return parse_xml(data)
    except XmlRejected as e:
        raise IngestError(path, f"a part of the Word document is unusable ({e})", code="corrupt") from None


def _notes_for_reviewer(pkg: OpcPackage, main: str, roots: dict[str, etree._Element], read: int = 0, looked: bool = False) -> list[str]:
    notes = []
    if any(next(root.iter(W_DEL, W_INS, W_MOVE_FROM), None) is not None for root in roots.values()):
        notes.append("the document has tracked changes; they are accepted on export and deleted text is removed")
    kinds = {r.kind for r in pkg.relationships(main)}
    if "comments" in kinds:
        notes.append("the document has comments; they are not shown for review and are removed on export")
    names = [n.lower() for n in pkg.parts]
    if any(n.startswith("word/embeddings/") for n in names) or "aFChunk" in kinds:
        notes.append("the document contains embedded objects; they are removed on export")
    if any(n.startswith(("word/charts/", "word/diagrams/")) for n in names):
        notes.append("the document contains charts or diagrams; their text is not shown for review")
    images = sum(1 for n in names if n.startswith("word/media/"))
    if read:
        notes.append(
            f"text in {read} picture(s) was read by OCR; it follows the document's text, "
            "and what is replaced there is painted out of the picture"
        )
    if images > read and looked:
        notes.append(f"the document contains {images - read} image(s) without text OCR could read; check them before release")
    elif images > read:
        notes.append(f"the document contains {images - read} image(s); text inside images cannot be checked")
    return notes
