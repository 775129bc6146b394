"""Structural clean-up of WordprocessingML parts for export.

Each function takes a parsed part and removes one kind of hidden place where identifying
text survives a plain text replacement: tracked changes, comment anchors, field instructions,
alternate-content fallbacks, alt text, data bindings, mail-merge settings, author names.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from lxml import etree

from .docx_xml import MC_FALLBACK, R_NS, W_DEL, W_HYPERLINK, W_INS, W_MOVE_FROM, W_MOVE_TO, w

V_NS = "urn:schemas-microsoft-com:vml"
O_NS = "urn:schemas-microsoft-com:office:office"

_REMOVED_WITH_CONTENT = (
    W_DEL,
    W_MOVE_FROM,
    w("delText"),
    w("delInstrText"),
    w("moveFromRangeStart"),
    w("moveFromRangeEnd"),
    w("moveToRangeStart"),
    w("moveToRangeEnd"),
    w("customXmlDelRangeStart"),
    w("customXmlDelRangeEnd"),
    w("customXmlInsRangeStart"),
    w("customXmlInsRangeEnd"),
    w("customXmlMoveFromRangeStart"),
    w("customXmlMoveFromRangeEnd"),
    w("customXmlMoveToRangeStart"),
    w("customXmlMoveToRangeEnd"),
    # Previous formatting kept for review; it names the author and the date of each change.
    w("rPrChange"),
    w("pPrChange"),
    w("sectPrChange"),
    w("tblPrChange"),
    w("tblPrExChange"),
    w("tcPrChange"),
    w("trPrChange"),
    w("tblGridChange"),
    w("numberingChange"),
    w("cellIns"),
    w("cellDel"),
    w("cellMerge"),
)
# Inside these a w:ins/w:del is only a marker (a paragraph mark or row was inserted/deleted).
_MARKER_HOSTS = frozenset({w("rPr"), w("trPr"), w("tcPr")})

# Fields whose instructions hold no document data; every other field is turned into its
# displayed result (HYPERLINK urls, MERGEFIELD names, AUTHOR, DOCPROPERTY, FILENAME...).
SAFE_FIELDS = frozenset(
    {
        "PAGE", "NUMPAGES", "SECTIONPAGES", "SECTION", "SEQ", "REF", "PAGEREF", "NOTEREF",
        "STYLEREF", "TOC", "TOA", "TC", "LISTNUM", "AUTONUM", "AUTONUMLGL", "AUTONUMOUT", "=",
        "SYMBOL", "EQ", "ADVANCE",
    }
)
_AUTHOR_ATTRS = frozenset({"author", "initials", "userId", "providerId"})


def accept_tracked_changes(root: etree._Element) -> None:
    """Deleted text goes, inserted text stays as ordinary text."""
    for el in list(root.iter(*_REMOVED_WITH_CONTENT)):
        _remove(el)
    for el in list(root.iter(W_INS, W_MOVE_TO)):
        parent = el.getparent()
        if parent is None:
            continue
        if parent.tag in _MARKER_HOSTS:
            _remove(el)
        else:
            _unwrap(el)


def remove_comment_anchors(root: etree._Element) -> None:
    for el in list(root.iter(w("commentRangeStart"), w("commentRangeEnd"), w("commentReference"))):
        _remove(el)


def drop_fallbacks(root: etree._Element) -> None:
    """Word keeps a VML copy of each modern drawing for old readers; the copy would keep the
    original text of text boxes, so only the modern choice is kept."""
    for el in list(root.iter(MC_FALLBACK)):
        _remove(el)


def unlink_fields(root: etree._Element) -> None:
    for el in list(root.iter(w("fldSimple"))):
        if _field_keyword(el.get(w("instr"), "")) not in SAFE_FIELDS:
            _unwrap(el)

    stack: list[dict] = []
    unsafe: list[etree._Element] = []
    for el in root.iter(w("fldChar"), w("instrText")):
        if el.tag == w("instrText"):
            if stack and not stack[-1]["separated"]:
                stack[-1]["instr"].append(el.text or "")
                stack[-1]["els"].append(el)
            else:
                unsafe.append(el)  # an instruction outside any field is left-over markup
            continue
        kind = el.get(w("fldCharType"))
        if kind == "begin":
            stack.append({"els": [el], "instr": [], "separated": False})
        elif kind == "separate" and stack:
            stack[-1]["els"].append(el)
            stack[-1]["separated"] = True
        elif kind == "end" and stack:
            field = stack.pop()
            field["els"].append(el)
            if _field_keyword("".join(field["instr"])) not in SAFE_FIELDS:
                unsafe.extend(field["els"])
        else:
            unsafe.append(el)
    for field in stack:  # never closed: the file is damaged; keep the result text only
        unsafe.extend(field["els"])
    for el in unsafe:
        _remove(el)


def neutralise_drawing_text(root: etree._Element) -> None:
    """Alt text, titles and object names of pictures and shapes (often the image's file name)."""
    for el in root.iter():
        if not isinstance(el.tag, str):
            continue
        qname = etree.QName(el)
        if qname.localname in ("docPr", "cNvPr"):
            for attr in ("descr", "title"):
                el.attrib.pop(attr, None)
            if "name" in el.attrib:
                el.set("name", f"Object {el.get('id', '')}".strip())
        elif qname.namespace == V_NS:
            for attr in ("alt", "title"):
                el.attrib.pop(attr, None)
            el.attrib.pop(f"{{{O_NS}}}title", None)


def drop_data_bindings(root: etree._Element) -> None:
    """A bound content control refills its text from custom XML when Word opens the file."""
    for el in [e for e in root.iter() if isinstance(e.tag, str) and etree.QName(e).localname == "dataBinding"]:
        _remove(el)


def strip_settings(root: etree._Element) -> None:
    """Mail-merge data sources, document variables and the template path (it holds the
    author's user name) live in word/settings.xml."""
    if root.tag != w("settings"):
        return
    for el in list(root.iter(w("mailMerge"), w("docVars"), w("attachedTemplate"))):
        _remove(el)


def strip_authors(root: etree._Element) -> None:
    for el in root.iter():
        if not isinstance(el.tag, str):
            continue
        for attr in [a for a in el.attrib if etree.QName(a).localname in _AUTHOR_ATTRS]:
            del el.attrib[attr]


def remove_hyperlink_tooltips(root: etree._Element) -> None:
    for el in root.iter(W_HYPERLINK):
        el.attrib.pop(w("tooltip"), None)


def remove_dangling_references(root: etree._Element, relationship_ids: set[str]) -> None:
    """Elements pointing at a relationship that export removed (embedded objects, alt chunks,
    chart workbooks, the template) go too, so the file stays valid."""
    doomed = []
    for el in root.iter():
        if not isinstance(el.tag, str) or el is root:
            continue
        for attr, value in el.attrib.items():
            if etree.QName(attr).namespace == R_NS and value and value not in relationship_ids:
                doomed.append(el)
                break
    for el in doomed:
        _remove(el)


def residual_pattern(originals: Iterable[str]) -> re.Pattern[str] | None:
    """One case-insensitive, whole-word pattern for the replaced values worth searching for
    in places the source map does not cover. Values of one or two characters, or of digits
    only shorter than four, would match markup by chance."""
    values = set()
    for value in originals:
        value = value.strip()
        if len(value) < 3 or not any(ch.isalnum() for ch in value):
            continue
        if value.isdigit() and len(value) < 4:
            continue
        values.add(value)
    if not values:
        return None
    alternation = "|".join(re.escape(v) for v in sorted(values, key=len, reverse=True))
    return re.compile(rf"(?<!\w)(?:{alternation})(?!\w)", re.IGNORECASE)


def scrub_residual_text(
    root: etree._Element,
    pattern: re.Pattern[str],
    surrogate_of: Mapping[str, str],
    exclude: set[etree._Element],
) -> None:
    """Replace replaced values wherever else they occur as text or attribute value: alt
    text, watermarks, chart labels, diagram text, field instructions, relationship targets."""

    def sub(value: str) -> str:
        return pattern.sub(lambda m: surrogate_of.get(m.group(0).casefold(), ""), value)

    for el in root.iter():
        if el.text and el not in exclude and isinstance(el.tag, str):
            new = sub(el.text)
            if new != el.text:
                el.text = new
        if el.tail and el.tail.strip():
            el.tail = sub(el.tail)
        if isinstance(el.tag, str):
            for attr, value in el.attrib.items():
                new = sub(value)
                if new != value:
                    el.set(attr, new)


def _field_keyword(instruction: str) -> str:
    parts = instruction.strip().split(None, 1)
    return parts[0].upper() if parts else ""


def _remove(el: etree._Element) -> None:
    parent = el.getparent()
    if parent is not None:
        # Keep the tail text in the tree: it belongs to the parent, not to the removed element.
        if el.tail:
            prev = el.getprevious()
            if prev is not None:
                prev.tail = (prev.tail or "") + el.tail
            else:
                parent.text = (parent.text or "") + el.tail
        parent.remove(el)


def _unwrap(el: etree._Element) -> None:
    parent = el.getparent()
    if parent is None:
        return
    index = parent.index(el)
    for child in list(el):
        parent.insert(index, child)
        index += 1
    _remove(el)
