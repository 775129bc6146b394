"""Structural clean-up of WordprocessingML parts for export.

Each function takes a parsed part and removes one kind of hidden place where identifying
text survives a plain text replacement: tracked changes, comment anchors, field instructions,
alternate-content fallbacks, alt text, data bindings, mail-merge settings, author names,
revision ids. ``NeutralNames`` renames the identifiers a document keeps in attributes
(bookmarks, styles, content-control tags, sequence names) consistently across all parts, and
``Residual`` finds replaced values left anywhere else, whole or joined into identifiers.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from lxml import etree

from .docx_xml import MC_FALLBACK, R_NS, W_DEL, W_HYPERLINK, W_INS, W_MOVE_FROM, W_MOVE_TO, W_NS, XML_NS, w

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

# Fields kept working after export, by what their first argument is. Their instructions are
# rebuilt from the keyword, a renamed argument and switches whose values are numbers or
# known format words, so no free text of the instruction survives. Every other field
# (HYPERLINK urls, MERGEFIELD names, AUTHOR, DOCPROPERTY, FILENAME, EQ, TC...) is turned
# into its displayed result.
_FIELD_ARGUMENT = {
    "PAGE": None, "NUMPAGES": None, "SECTIONPAGES": None, "SECTION": None, "AUTONUM": None,
    "AUTONUMLGL": None, "AUTONUMOUT": None, "ADVANCE": None, "TOC": None,
    "REF": "bookmark", "PAGEREF": "bookmark", "NOTEREF": "bookmark",
    "SEQ": "sequence", "STYLEREF": "style", "SYMBOL": "number", "LISTNUM": "dropped",
}
SAFE_FIELDS = frozenset(_FIELD_ARGUMENT) | {"="}
_FORMAT_WORDS = frozenset(
    {
        "MERGEFORMAT", "CHARFORMAT", "ARABIC", "ARABICDASH", "ALPHABETIC", "ROMAN", "CARDTEXT",
        "ORDTEXT", "ORDINAL", "HEX", "DOLLARTEXT", "UPPER", "LOWER", "FIRSTCAP", "CAPS",
    }
)
_SAFE_SWITCH_VALUE = re.compile(r"[0-9 .,#%$+\-:;()]*")
_FORMULA = re.compile(r"=[\s0-9.,+\-*/%^()<>=]*")
_FIELD_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|\\\S|[^\s"\\]+')
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


def unlink_fields(root: etree._Element, names: "NeutralNames") -> None:
    """Fields Word can recompute keep a rebuilt instruction; every other field keeps only its
    displayed result. Field data (w:fldData) is opaque and goes."""
    for el in list(root.iter(w("fldData"))):
        _remove(el)
    for el in list(root.iter(w("fldSimple"))):
        safe = safe_instruction(el.get(w("instr"), ""), names)
        if safe is None:
            _unwrap(el)
        else:
            el.set(w("instr"), safe)

    stack: list[dict] = []
    unsafe: list[etree._Element] = []
    for el in root.iter(w("fldChar"), w("instrText")):
        if el.tag == w("instrText"):
            if stack and not stack[-1]["separated"]:
                stack[-1]["instr"].append(el)
            else:
                unsafe.append(el)  # an instruction outside any field is left-over markup
            continue
        kind = el.get(w("fldCharType"))
        if kind == "begin":
            stack.append({"marks": [el], "instr": [], "separated": False})
        elif kind == "separate" and stack:
            stack[-1]["marks"].append(el)
            stack[-1]["separated"] = True
        elif kind == "end" and stack:
            field = stack.pop()
            field["marks"].append(el)
            safe = safe_instruction("".join(i.text or "" for i in field["instr"]), names)
            if safe is None:
                unsafe.extend(field["marks"] + field["instr"])
            else:
                _rewrite_instruction(field["instr"], safe)
        else:
            unsafe.append(el)
    for field in stack:  # never closed: the file is damaged; keep the result text only
        unsafe.extend(field["marks"] + field["instr"])
    for el in unsafe:
        _remove(el)


def safe_instruction(instruction: str, names: "NeutralNames") -> str | None:
    """The instruction rebuilt from what cannot carry document data, or None when the
    field must become plain text."""
    stripped = instruction.strip()
    if stripped.startswith("="):
        return f" {stripped} " if _FORMULA.fullmatch(stripped) else None
    tokens = _FIELD_TOKEN.findall(instruction)
    if not tokens or tokens[0].upper() not in _FIELD_ARGUMENT:
        return None
    keyword = tokens[0].upper()
    kind = _FIELD_ARGUMENT[keyword]
    out = [keyword]
    rest = tokens[1:]
    if kind is not None and rest and not rest[0].startswith("\\"):
        argument = names.field_argument(kind, _unquote(rest[0]))
        if argument is None:
            return None
        if argument:
            out.append(f'"{argument}"' if " " in argument else argument)
        rest = rest[1:]
    elif kind in ("bookmark", "sequence", "style", "number"):
        return None
    i = 0
    while i < len(rest):
        switch = rest[i]
        value = rest[i + 1] if i + 1 < len(rest) and not rest[i + 1].startswith("\\") else None
        i += 1 if value is None else 2
        if not switch.startswith("\\"):
            continue  # a stray word: free text, dropped
        if value is None:
            out.append(switch)
            continue
        bare = _unquote(value)
        if switch == "\\*" and bare.upper() in _FORMAT_WORDS:
            out += [switch, bare]
        elif switch == "\\b" and keyword == "TOC" and (mark := names.bookmark(bare)) is not None:
            out += [switch, mark]
        elif _SAFE_SWITCH_VALUE.fullmatch(bare):
            out += [switch, f'"{bare}"' if value.startswith('"') else bare]
    return " " + " ".join(out) + " "


def _rewrite_instruction(items: list[etree._Element], instruction: str) -> None:
    if not items:
        return
    items[0].text = instruction
    items[0].set(f"{{{XML_NS}}}space", "preserve")
    for el in items[1:]:
        _remove(el)


def _unquote(token: str) -> str:
    if len(token) >= 2 and token.startswith('"') and token.endswith('"'):
        return token[1:-1].replace('\\"', '"')
    return token


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


_STYLE_REFERENCES = tuple(
    w(tag) for tag in ("pStyle", "rStyle", "tblStyle", "basedOn", "next", "link", "numStyleLink", "styleLink")
)
_STANDARD_FRAMES = frozenset({"_blank", "_self", "_parent", "_top"})


@dataclass
class NeutralNames:
    """Neutral names for identifiers kept in attributes, shared by all parts of one package
    so that references keep working: a bookmark and every REF, PAGEREF and hyperlink anchor
    to it; a style and every paragraph, run and style that uses it."""

    bookmarks: dict[str, str] = field(default_factory=dict)
    style_ids: dict[str, str] = field(default_factory=dict)
    style_names: dict[str, str] = field(default_factory=dict)  # casefolded old name -> new name
    kept_style_names: set[str] = field(default_factory=set)  # casefolded
    sequences: dict[str, str] = field(default_factory=dict)
    controls: dict[tuple[str, str], str] = field(default_factory=dict)

    @classmethod
    def collect(cls, roots: Iterable[etree._Element], residual: "Residual | None") -> "NeutralNames":
        names = cls()
        for root in roots:
            for el in root.iter(w("bookmarkStart")):
                names._bookmark_for(el.get(w("name"), ""))
            if root.tag == w("styles"):
                names._collect_styles(root, residual)
        return names

    def bookmark(self, name: str) -> str | None:
        """The new name of a bookmark of this package, None for a name no bookmark has."""
        return self.bookmarks.get(name.casefold())

    def field_argument(self, kind: str, value: str) -> str | None:
        if kind == "bookmark":
            return self.bookmark(value)
        if kind == "sequence":
            return self.sequences.setdefault(value.casefold(), f"seq{len(self.sequences) + 1}")
        if kind == "style":
            key = value.casefold()
            if key in self.style_names:
                return self.style_names[key]
            return value if key in self.kept_style_names else None
        if kind == "number":
            return value if value.isdigit() else None
        return ""  # an optional argument that is dropped

    def control(self, kind: str, value: str) -> str:
        label = "tag" if kind == "tag" else "Field "
        key = (kind, value)
        if key not in self.controls:
            self.controls[key] = f"{label}{sum(1 for k in self.controls if k[0] == kind) + 1}"
        return self.controls[key]

    def _bookmark_for(self, name: str) -> str:
        key = name.casefold()
        if key not in self.bookmarks:
            # A leading underscore keeps a bookmark hidden in Word's list (_Toc, _Ref, _GoBack).
            prefix = "_bm" if name.startswith("_") else "bm"
            self.bookmarks[key] = f"{prefix}{len(self.bookmarks) + 1}"
        return self.bookmarks[key]

    def _collect_styles(self, root: etree._Element, residual: "Residual | None") -> None:
        taken = {s.get(w("styleId"), "") for s in root.iter(w("style"))}
        for style in root.iter(w("style")):
            sid = style.get(w("styleId"), "")
            name = _child_val(style, "name")
            if sid in self.style_ids:
                continue  # the same style in stylesWithEffects.xml
            labels = [sid, name, _child_val(style, "aliases")]
            if residual is None or not any(residual.found_in_identifier(t) for t in labels if t):
                if name:
                    self.kept_style_names.add(name.casefold())
                continue
            n = len(self.style_ids) + 1
            while f"Style{n}" in taken:
                n += 1
            taken.add(f"Style{n}")
            self.style_ids[sid] = f"Style{n}"
            if name:
                self.style_names[name.casefold()] = f"Style {n}"


def rename_identifiers(root: etree._Element, names: NeutralNames) -> None:
    """Bookmarks, hyperlink anchors, content-control tags and aliases, and styles whose name
    holds a replaced value get their neutral names."""
    for el in root.iter(w("bookmarkStart")):
        el.set(w("name"), names._bookmark_for(el.get(w("name"), "")))
    for el in root.iter(W_HYPERLINK):
        anchor = el.get(w("anchor"))
        if anchor is not None:
            target = names.bookmark(anchor)
            if target is None:
                del el.attrib[w("anchor")]  # points nowhere in this document
            else:
                el.set(w("anchor"), target)
        el.attrib.pop(w("docLocation"), None)
        if el.get(w("tgtFrame")) not in (None, *_STANDARD_FRAMES):
            del el.attrib[w("tgtFrame")]
    for props in root.iter(w("sdtPr")):
        for el in props.findall(w("tag")) + props.findall(w("alias")):
            el.set(w("val"), names.control(etree.QName(el).localname, el.get(w("val"), "")))
        # Placeholder text lives in the glossary (dropped); list items are choices never shown.
        for el in list(props.iter(w("placeholder"), w("listItem"))):
            _remove(el)
        for el in props.iter(w("date")):
            el.attrib.pop(w("fullDate"), None)
    for el in root.iter(*_STYLE_REFERENCES):
        value = el.get(w("val"))
        if value in names.style_ids:
            el.set(w("val"), names.style_ids[value])
    if root.tag == w("styles"):
        for style in root.iter(w("style")):
            sid = style.get(w("styleId"), "")
            if sid not in names.style_ids:
                continue
            style.set(w("styleId"), names.style_ids[sid])
            for el in list(style.iter(w("aliases"))):
                _remove(el)
            for el in style.iter(w("name")):
                el.set(w("val"), names.style_names.get(el.get(w("val"), "").casefold(), names.style_ids[sid]))


def strip_revision_ids(root: etree._Element) -> None:
    """Revision-session ids (rsid) tie a file to other files edited in the same sessions."""
    for el in list(root.iter(w("rsids"), w("rsid"))):
        _remove(el)
    for el in root.iter():
        if not isinstance(el.tag, str):
            continue
        for attr in [a for a in el.attrib if a.startswith(f"{{{W_NS}}}rsid")]:
            del el.attrib[attr]


def _child_val(el: etree._Element, tag: str) -> str:
    child = el.find(w(tag))
    return "" if child is None else child.get(w("val"), "")


_LETTER = r"[^\W\d_]"
_SEPARATORS = re.compile(r"[\W_]+")
_CAMEL = r"(?-i:(?<=[a-z])(?=[A-Z]))"


class Residual:
    """Replaced values left in places the source map does not cover.

    Two patterns, both case-insensitive. Everywhere: the value with its parts separated by
    anything or nothing ("Tevita Fifita", "Tevita_Fifita", "TevitaFifita", "tevita-fifita"),
    starting and ending at a non-letter or a camel-case boundary, so "Ann" is found in
    "Ann_Smith" and "annSmith" but not in "planning". In attribute values and names only,
    also such forms of five letters or more anywhere ("patienttevita"). Values of one or two characters, and of digits only shorter than four,
    would match markup by chance; digits never match inside a longer number.
    """

    def __init__(self, pairs: Iterable[tuple[str, str]]):
        self.surrogates: dict[str, str] = {}
        joined, embedded = set(), set()
        for original, surrogate in pairs:
            value = original.strip()
            chunks = _SEPARATORS.split(value)
            chunks = [c for c in chunks if c]
            if len(value) < 3 or not chunks or (value.isdigit() and len(value) < 4):
                continue
            self.surrogates.setdefault(_normalised(value), surrogate)
            body = r"[\W_]*".join(re.escape(c) for c in chunks)
            head = r"(?<!\d)" if chunks[0][0].isdigit() else rf"(?:(?<!{_LETTER})|{_CAMEL})"
            tail = r"(?!\d)" if chunks[-1][-1].isdigit() else rf"(?:(?!{_LETTER})|{_CAMEL})"
            joined.add(head + body + tail)
            if len("".join(chunks)) >= 5 and any(ch.isalpha() for ch in value):
                embedded.add((r"(?<!\d)" if chunks[0][0].isdigit() else "") + body + (r"(?!\d)" if chunks[-1][-1].isdigit() else ""))
        self.joined = _alternation(joined)
        self.embedded = _alternation(embedded)

    def __bool__(self) -> bool:
        return self.joined is not None

    def text(self, value: str) -> str:
        return self._sub(value, (self.joined,))

    def identifier(self, value: str) -> str:
        return self._sub(value, (self.joined, self.embedded))

    def found_in_identifier(self, value: str) -> bool:
        return any(p is not None and p.search(value) for p in (self.joined, self.embedded))

    def _sub(self, value: str, patterns) -> str:
        for pattern in patterns:
            if pattern is not None and value:
                value = pattern.sub(self._surrogate_for, value)
        return value

    def _surrogate_for(self, m: re.Match[str]) -> str:
        found = m.group(0)
        surrogate = self.surrogates.get(_normalised(found), "")
        if any(ch.isspace() for ch in found):
            return surrogate
        # Joined by a separator or by case: the surrogate is joined the same way.
        separator = next((ch for ch in found if not ch.isalnum()), "")
        return separator.join(c for c in _SEPARATORS.split(surrogate) if c)


def _normalised(value: str) -> str:
    return _SEPARATORS.sub("", value).casefold()


def _alternation(bodies: set[str]) -> re.Pattern[str] | None:
    if not bodies:
        return None
    ordered = sorted(bodies, key=len, reverse=True)  # "Tevita Fifita" before "Tevita"
    return re.compile("|".join(ordered), re.IGNORECASE)


def scrub_residual_text(root: etree._Element, residual: Residual, exclude: set[etree._Element]) -> None:
    """Replace replaced values wherever else they occur as text or attribute value: alt
    text, watermarks, chart labels, diagram text, field instructions, relationship targets.

    Each distinct attribute value is read once: a part repeats the same few hundred values
    (sizes, revision ids, style names) across tens of thousands of attributes, and reading
    each one was a fifth of a second per two-page letter (benchmarks/throughput.py)."""
    scrubbed: dict[str, str] = {}
    for el in root.iter():
        if el.text and el not in exclude and isinstance(el.tag, str):
            new = residual.text(el.text)
            if new != el.text:
                el.text = new
        if el.tail and el.tail.strip():
            el.tail = residual.text(el.tail)
        if isinstance(el.tag, str):
            for attr, value in el.attrib.items():
                new = scrubbed.get(value)
                if new is None:
                    new = scrubbed[value] = residual.identifier(value)
                if new != value:
                    el.set(attr, new)


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
