"""WordprocessingML walking shared by the .docx reader and writer.

Both sides must agree on two orders, or the source map points at the wrong text:
  * paragraphs of a part: document order of its ``w:p`` elements (``root.iter``), leaving out
    those inside ``mc:Fallback`` (the writer drops fallbacks, the reader never shows them);
  * text items of a paragraph: document order of the paragraph's own ``w:t``/``w:tab``/``w:br``/
    ``w:cr``/``w:noBreakHyphen``/``w:ptab`` run children, leaving out deleted text and the text
    of text boxes anchored in it (those belong to the text box's own paragraphs).
"""

from __future__ import annotations

from lxml import etree

W_NS = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
W_STRICT_NS = "http://purl.oclc.org/ooxml/wordprocessingml/main"
R_NS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
MC_NS = "http://schemas.openxmlformats.org/markup-compatibility/2006"
XML_NS = "http://www.w3.org/XML/1998/namespace"


def w(tag: str) -> str:
    return f"{{{W_NS}}}{tag}"


W_P, W_R, W_T, W_TBL, W_TR, W_TC = w("p"), w("r"), w("t"), w("tbl"), w("tr"), w("tc")
W_TAB, W_PTAB, W_BR, W_CR, W_NBHYPHEN = w("tab"), w("ptab"), w("br"), w("cr"), w("noBreakHyphen")
W_DEL, W_MOVE_FROM, W_INS, W_MOVE_TO = w("del"), w("moveFrom"), w("ins"), w("moveTo")
W_TXBX = w("txbxContent")
W_HYPERLINK = w("hyperlink")
MC_FALLBACK = f"{{{MC_NS}}}Fallback"
R_ID = f"{{{R_NS}}}id"

# What each non-w:t text item stands for in the extracted text.
ITEM_TEXT = {W_TAB: "\t", W_PTAB: "\t", W_BR: "\n", W_CR: "\n", W_NBHYPHEN: "-"}
TEXT_ITEM_TAGS = (W_T, *ITEM_TEXT)
# Content under these never shows as text of the enclosing paragraph.
_HIDDEN_ANCESTORS = frozenset({W_DEL, W_MOVE_FROM, MC_FALLBACK, W_TXBX})


def item_text(el: etree._Element) -> str:
    if el.tag == W_T:
        return el.text or ""
    return ITEM_TEXT[el.tag]


def in_fallback(el: etree._Element) -> bool:
    return any(a.tag == MC_FALLBACK for a in el.iterancestors())


def paragraphs_in_order(root: etree._Element) -> list[etree._Element]:
    return [p for p in root.iter(W_P) if not in_fallback(p)]


def own_text_items(p: etree._Element) -> list[etree._Element]:
    """The text items that belong to paragraph ``p`` itself, in document order."""
    items = []
    for el in p.iter(*TEXT_ITEM_TAGS):
        parent = el.getparent()
        if parent is None or parent.tag != W_R:
            continue  # w:tab also defines tab stops inside w:pPr
        if _belongs_to(el, p):
            items.append(el)
    return items


def own_text_boxes(p: etree._Element) -> list[etree._Element]:
    """Text boxes anchored in paragraph ``p`` (not in a nested paragraph, not in a fallback)."""
    boxes = []
    for box in p.iter(W_TXBX):
        parent = box.getparent()
        owner = _nearest_paragraph(parent) if parent is not None else None
        if owner is p and not _hidden_between(parent, p):
            boxes.append(box)
    return boxes


def _belongs_to(el: etree._Element, p: etree._Element) -> bool:
    a = el.getparent()
    while a is not None and a is not p:
        if a.tag in _HIDDEN_ANCESTORS or a.tag == W_P:
            return False
        a = a.getparent()
    return a is p


def _nearest_paragraph(el: etree._Element) -> etree._Element | None:
    a = el
    while a is not None and a.tag != W_P:
        a = a.getparent()
    return a


def _hidden_between(el: etree._Element, p: etree._Element) -> bool:
    a = el
    while a is not None and a is not p:
        if a.tag in _HIDDEN_ANCESTORS:
            return True
        a = a.getparent()
    return False
