"""Write a de-identified .docx from the original package and a list of replacements.

Replacements go into the exact text items the source map names: the replacement text goes
into the first item of the range (keeping that run's formatting) and the rest of the range is
cut out of the following items. The package keeps only what the writer understands: parts
that cannot be de-identified (comments, people, custom XML, glossary, thumbnail, custom
properties, embedded objects, macros), parts nothing references and non-XML parts other than
pictures are dropped; pictures are re-encoded without metadata and renamed, and the words OCR read in them that
were replaced are painted out of their pixels first (docx_pictures). Then every hidden
place that can still hold the original values is cleaned (see docx_scrub), identifiers are
renamed consistently, document properties are reset, external link targets are checked, and
a last pass replaces any remaining occurrence of a replaced value, whole or joined into an
identifier, anywhere in the XML and in part names. docs/scrubbing.md has the whole list.
"""

from __future__ import annotations

import bisect
import posixpath
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from lxml import etree

from ..errors import ExportError, IngestError
from . import docx_scrub as scrub
from .docx_read import main_document_part
from .docx_pictures import PicturePainter
from .images import placeholder, reencode
from .docx_xml import (
    MC_FALLBACK,
    R_ID,
    TEXT_ITEM_TAGS,
    W_DEL,
    W_HYPERLINK,
    W_MOVE_FROM,
    W_R,
    W_T,
    XML_NS,
    item_text,
    own_text_items,
    paragraphs_in_order,
)
from .model import Document, Replacement, Segment
from .opc import CONTENT_TYPES, CT_NS, RELS_NS, OpcPackage, XmlRejected, parse_xml, serialise_xml, source_of_rels

# Parts that hold text the reviewer never saw or that cannot be de-identified in place.
_DROPPED_RELATIONSHIPS = frozenset(
    {
        "comments", "commentsExtended", "commentsIds", "commentsExtensible", "people",
        "customXml", "glossaryDocument", "custom-properties", "thumbnail", "oleObject",
        "package", "aFChunk", "attachedTemplate", "mailMergeSource", "mailMergeHeaderSource",
        "recipientData", "vbaProject", "subDocument",
    }
)
_DROPPED_PREFIXES = (
    "customxml/", "word/embeddings/", "word/glossary/", "docprops/thumbnail", "docprops/custom.xml",
    "word/comments", "word/people.xml", "word/vbaproject", "word/vbadata",
)
_XML_SUFFIXES = (".xml", ".rels", ".vml", ".svg")
BLANK_TARGET = "about:blank"
_MAIN_CONTENT_TYPE = "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"

_CORE_PROPERTIES = (
    b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
    b'<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties"'
    b' xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/"'
    b' xmlns:dcmitype="http://purl.org/dc/dcmitype/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"/>'
)
_APP_PROPERTIES = (
    b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
    b'<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties"'
    b' xmlns:vt="http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes">'
    b"<Application>deid-desktop</Application></Properties>"
)


def write_docx(doc: Document, replacements: list[Replacement], out_path: str | Path) -> tuple[bytes, list[str], int]:
    """The de-identified package, notes for the user and the number of word boxes painted
    out of pictures read by OCR."""
    if doc.source_bytes is None:
        raise ExportError(out_path, "the original Word file's bytes are not available", code="no_source")
    try:
        pkg = OpcPackage.from_bytes(doc.source_bytes, doc.path or out_path)
        main = main_document_part(pkg, doc.path or out_path)
    except IngestError as e:
        raise ExportError(out_path, f"the original Word file cannot be read again ({e.reason})", code="no_source") from None

    reps = sorted(replacements, key=lambda r: r.start)
    residual = scrub.Residual((doc.text[r.start : r.end], r.new_text) for r in reps) or None
    new_texts = _segment_texts(doc, reps)

    by_part: dict[str, list[tuple[Segment, str | None]]] = defaultdict(list)
    for seg in doc.segments:
        part = seg.locator.get("part")
        if part is not None:
            by_part[part].append((seg, new_texts.get(id(seg))))

    # The package is reduced to what the writer understands before any part is edited, so
    # references to what was dropped can be removed while each part is edited.
    _drop_unsafe_parts(pkg)
    pkg.drop_unreachable_parts()
    images = _image_parts(pkg)
    roots = _parse_xml_parts(pkg, set(by_part), images, out_path)
    painter = PicturePainter(doc.segments, reps)
    _check_pictures(doc, pkg, images, out_path)
    notes = _clean_images(pkg, images, painter)

    names = scrub.NeutralNames.collect(roots.values(), residual)
    link_targets: dict[str, dict[str, _LinkText | None]] = {}
    for name, root in roots.items():
        mapped: set[etree._Element] = set()
        if name in by_part:
            mapped, link_targets[name] = _edit_story(doc, name, root, by_part[name], out_path)
        _scrub_part(root, pkg, name, names)
        if residual is not None:
            scrub.scrub_residual_text(root, residual, mapped)
        pkg.set(name, serialise_xml(root))

    _reset_properties(pkg)
    _plain_document_type(pkg, main)
    _neutral_part_names(pkg, residual)
    pkg.tidy_content_types()
    _rewrite_relationships(pkg, link_targets, residual)
    return pkg.to_bytes(), notes, painter.boxes_painted


def _parse_xml_parts(
    pkg: OpcPackage, stories: set[str], images: set[str], out_path: str | Path
) -> dict[str, etree._Element]:
    """Every XML part the writer re-serialises, parsed. Parts it cannot parse and non-XML
    parts other than pictures are dropped rather than copied unchecked (fonts, printer
    settings, binaries of unknown kind)."""
    roots: dict[str, etree._Element] = {}
    for name in list(pkg.parts):
        if name not in pkg.parts or name == CONTENT_TYPES or name.endswith(".rels") or name in images:
            continue
        if name.lower() in ("docprops/core.xml", "docprops/app.xml"):
            continue  # replaced wholesale by _reset_properties
        if not name.lower().endswith(_XML_SUFFIXES):
            pkg.drop_part(name)
            continue
        try:
            roots[name] = parse_xml(pkg.parts[name])
        except XmlRejected:
            if name in stories:
                raise ExportError(out_path, "a part of the original Word file is not well-formed XML", code="no_source") from None
            pkg.drop_part(name)
    return roots


def _image_parts(pkg: OpcPackage) -> set[str]:
    """Parts a relationship names as a picture (bitmaps only; SVG pictures are XML and are
    cleaned as XML)."""
    found = set()
    for rels in pkg.rels_parts():
        for rel in pkg.relationships(source_of_rels(rels)):
            name = None if rel.external or rel.kind != "image" else pkg.find(rel.target)
            if name is not None and not name.lower().endswith(_XML_SUFFIXES):
                found.add(name)
    return found


def _check_pictures(doc: Document, pkg: OpcPackage, images: set[str], out_path: str | Path) -> None:
    """Every picture OCR read must still be there to paint: otherwise its words, replaced in
    the text, would leave the package unpainted."""
    for picture in doc.meta.get("pictures") or []:
        if picture.get("part") not in images or picture["part"] not in pkg.parts:
            raise ExportError(out_path, "the source map does not match the original Word file", code="source_mismatch")


def _clean_images(pkg: OpcPackage, images: set[str], painter: PicturePainter) -> list[str]:
    """Each picture re-encoded from its pixels (with the PHI OCR read in it painted out) and
    named image1, image2... (a picture's name is often the photo's file name); one that
    cannot be decoded becomes a plain grey box. Returns a note for the user (counts only)."""
    blanked = 0
    taken = {name.lower() for name in pkg.parts}
    n = 0
    for name in sorted(images):
        clean = reencode(pkg.parts[name], painter.edit_for(name))
        if clean is None:
            clean = placeholder()
            blanked += 1
        taken.discard(name.lower())
        n += 1
        while f"word/media/image{n}.{clean.extension}" in taken:
            n += 1
        new_name = f"word/media/image{n}.{clean.extension}"
        taken.add(new_name)
        pkg.set(name, clean.data)
        pkg.rename_part(name, new_name)
        pkg.set_content_type(new_name, clean.content_type)
    if blanked:
        return [f"{blanked} picture(s) could not be re-encoded without their metadata and were replaced by a grey box"]
    return []


def _neutral_part_names(pkg: OpcPackage, residual: scrub.Residual | None) -> None:
    """Any part whose name holds a replaced value gets a neutral name."""
    if residual is None:
        return
    n = 0
    for name in list(pkg.parts):
        if name == CONTENT_TYPES or name.endswith(".rels") or not residual.found_in_identifier(name):
            continue
        extension = posixpath.splitext(name)[1]
        if residual.found_in_identifier(extension):
            extension = ".xml"  # only XML parts and pictures (already renamed) are left
        n += 1
        while pkg.find(f"word/part{n}{extension}") is not None:
            n += 1
        pkg.rename_part(name, f"word/part{n}{extension}")


def _segment_texts(doc: Document, reps: list[Replacement]) -> dict[int, str]:
    """New text of every segment a replacement touches, keyed by id(segment)."""
    segs = [s for s in doc.segments if "part" in s.locator]
    segs.sort(key=lambda s: s.start)
    ends = [s.end for s in segs]
    touched: dict[int, list[tuple[Replacement, bool]]] = defaultdict(list)
    for r in reps:
        i = bisect.bisect_right(ends, r.start)
        anchor = True
        while i < len(segs) and segs[i].start < r.end:
            touched[i].append((r, anchor))
            anchor = False
            i += 1
    out: dict[int, str] = {}
    for i, hits in touched.items():
        seg = segs[i]
        pieces = []
        cursor = seg.start
        for r, is_anchor in hits:
            pieces.append(doc.text[cursor : max(cursor, r.start)])
            if is_anchor:
                pieces.append(r.new_text)
            cursor = max(cursor, min(r.end, seg.end))
        pieces.append(doc.text[cursor : seg.end])
        out[id(seg)] = "".join(pieces)
    return out


def _edit_story(
    doc: Document,
    part: str,
    root: etree._Element,
    segments: list[tuple[Segment, str | None]],
    out_path: str | Path,
) -> tuple[set[etree._Element], dict[str, _LinkText | None]]:
    paragraphs = paragraphs_in_order(root)
    items_of = [own_text_items(p) for p in paragraphs]
    mapped = {el for items in items_of for el in items}

    hyperlinks = list(root.iter(W_HYPERLINK))
    links_before = [_link_text(h) for h in hyperlinks]
    targets: list[tuple[etree._Element, str]] = []
    for seg, new in segments:
        loc = seg.locator
        try:
            el = items_of[loc["para"]][loc["run"]]
        except (IndexError, KeyError, TypeError):
            raise ExportError(out_path, "the source map does not match the original Word file", code="source_mismatch") from None
        if item_text(el) != doc.text[seg.start : seg.end]:
            raise ExportError(out_path, "the source map does not match the original Word file", code="source_mismatch")
        if new is not None:
            targets.append((el, new))
    for el, new in targets:
        _set_item_text(el, new, mapped)

    links: dict[str, _LinkText | None] = {}
    for hyperlink, before in zip(hyperlinks, links_before):
        rid = hyperlink.get(R_ID)
        if rid:
            link = _LinkText(before, _link_text(hyperlink))
            # One relationship shared by links of different text: keep none of them.
            links[rid] = link if links.get(rid, link) == link else None
    return mapped, links


def _set_item_text(el: etree._Element, new: str, mapped: set[etree._Element]) -> None:
    if el.tag == W_T:
        el.text = new
        el.set(f"{{{XML_NS}}}space", "preserve")
        return
    if new == item_text(el):
        return
    parent = el.getparent()
    if new:
        t = etree.Element(W_T)
        t.text = new
        t.set(f"{{{XML_NS}}}space", "preserve")
        parent.replace(el, t)
        mapped.add(t)
    else:
        parent.remove(el)


def _link_text(hyperlink: etree._Element) -> str:
    hidden = {W_DEL, W_MOVE_FROM, MC_FALLBACK}
    out = []
    for el in hyperlink.iter(*TEXT_ITEM_TAGS):
        parent = el.getparent()
        if parent is None or parent.tag != W_R:
            continue
        if any(a.tag in hidden for a in el.iterancestors()):
            continue
        out.append(item_text(el))
    return "".join(out).strip()


@dataclass(frozen=True, slots=True)
class _LinkText:
    """A hyperlink's visible text before and after replacement."""

    before: str
    after: str


def _resolve_link(target: str, link: _LinkText | None) -> str:
    if link is None:
        return BLANK_TARGET
    prefix = "mailto:" if target.lower().startswith("mailto:") else ""
    bare = target[len(prefix) :].strip().rstrip("/").casefold()
    if not bare or bare != link.before.strip().rstrip("/").casefold():
        return BLANK_TARGET
    if link.after == link.before:
        return target
    return prefix + link.after if link.after else BLANK_TARGET


def _scrub_part(root: etree._Element, pkg: OpcPackage, name: str, names: scrub.NeutralNames) -> None:
    scrub.accept_tracked_changes(root)
    scrub.drop_fallbacks(root)
    scrub.remove_comment_anchors(root)
    scrub.unlink_fields(root, names)
    scrub.rename_identifiers(root, names)
    scrub.strip_revision_ids(root)
    scrub.neutralise_drawing_text(root)
    scrub.drop_data_bindings(root)
    scrub.strip_settings(root)
    scrub.strip_authors(root)
    scrub.remove_hyperlink_tooltips(root)
    scrub.remove_dangling_references(root, {r.id for r in pkg.relationships(name)})


def _drop_unsafe_parts(pkg: OpcPackage) -> None:
    for rels in pkg.rels_parts():
        source = source_of_rels(rels)
        for rel in pkg.relationships(source):
            if rel.kind in _DROPPED_RELATIONSHIPS:
                if not rel.external:
                    pkg.drop_part(rel.target)
                _remove_relationship(pkg, rels, rel.id)
    for name in list(pkg.parts):
        if name.lower().startswith(_DROPPED_PREFIXES) and name in pkg.parts:
            pkg.drop_part(name)


def _remove_relationship(pkg: OpcPackage, rels: str, rid: str) -> None:
    data = pkg.get(rels)
    if data is None:
        return
    root = parse_xml(data)
    for el in list(root.iter(f"{{{RELS_NS}}}Relationship")):
        if el.get("Id") == rid:
            root.remove(el)
    pkg.set(rels, serialise_xml(root))


def _reset_properties(pkg: OpcPackage) -> None:
    for rel in pkg.relationships(""):
        if rel.kind == "core-properties" and pkg.find(rel.target):
            pkg.set(rel.target, _CORE_PROPERTIES)
        elif rel.kind == "extended-properties" and pkg.find(rel.target):
            pkg.set(rel.target, _APP_PROPERTIES)
    for name in ("docProps/core.xml", "docProps/app.xml"):
        if pkg.find(name):
            pkg.set(name, _CORE_PROPERTIES if name.endswith("core.xml") else _APP_PROPERTIES)


def _plain_document_type(pkg: OpcPackage, main: str) -> None:
    """A macro-enabled document or a template (.docm, .dotx) is written as a plain .docx:
    the macros are gone, and Word refuses a .docx whose main part claims another type."""
    ct = pkg.find(CONTENT_TYPES)
    if ct is None:
        return
    root = parse_xml(pkg.parts[ct])
    for el in root.iter(f"{{{CT_NS}}}Override"):
        if el.get("PartName", "").lstrip("/").lower() == main.lower() and el.get("ContentType") != _MAIN_CONTENT_TYPE:
            el.set("ContentType", _MAIN_CONTENT_TYPE)
    pkg.parts[ct] = serialise_xml(root)


def _rewrite_relationships(
    pkg: OpcPackage,
    link_targets: dict[str, dict[str, _LinkText | None]],
    residual: scrub.Residual | None,
) -> None:
    """External targets: a hyperlink keeps its target only when the target is the link's own
    visible text and that text was not replaced (it was reviewed); a replaced address gets
    its surrogate; anything else (template paths, linked files, links behind other words)
    becomes about:blank, since its content was never shown for review. Internal targets
    name parts, which are already neutral."""
    for rels in pkg.rels_parts():
        source = source_of_rels(rels)
        root = parse_xml(pkg.parts[rels])
        decisions = link_targets.get(source, {})
        for el in root.iter(f"{{{RELS_NS}}}Relationship"):
            rid = el.get("Id", "")
            if residual is not None:
                el.set("Id", residual.identifier(rid))  # as the r:id attributes of the parts
            if el.get("TargetMode") != "External":
                continue
            kind = el.get("Type", "").rstrip("/").rsplit("/", 1)[-1]
            link = decisions.get(rid) if kind == "hyperlink" else None
            target = _resolve_link(el.get("Target", ""), link)
            el.set("Target", residual.identifier(target) if residual is not None else target)
        pkg.parts[rels] = serialise_xml(root)
    ct = pkg.find(CONTENT_TYPES)
    if ct is not None and residual is not None:
        root = parse_xml(pkg.parts[ct])
        scrub.scrub_residual_text(root, residual, set())
        pkg.parts[ct] = serialise_xml(root)
