"""The ZIP-level view of an Office Open XML package: parts, relationships, content types.

python-docx covers the main story; de-identification must reach every part (comments,
properties, thumbnails, custom XML...), so readers and writers work on the package directly.
"""

from __future__ import annotations

import io
import posixpath
import zipfile
from dataclasses import dataclass
from pathlib import Path

from lxml import etree

from ..errors import IngestError
from .limits import ZipLimits, check_zip_directory

RELS_NS = "http://schemas.openxmlformats.org/package/2006/relationships"
CT_NS = "http://schemas.openxmlformats.org/package/2006/content-types"
CONTENT_TYPES = "[Content_Types].xml"
_READABLE_COMPRESSION = frozenset({zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED, zipfile.ZIP_BZIP2, zipfile.ZIP_LZMA})
# A fixed timestamp for every entry: the time of export says nothing the reader needs.
_ZIP_TIME = (1980, 1, 1, 0, 0, 0)

# Entities are never expanded and no DTD or network is touched, so a hostile part cannot
# blow up (billion laughs) or reach out.
XML_PARSER = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False)


class XmlRejected(ValueError):
    """A part that is not well-formed XML, or declares a DTD (Office never writes one; a DTD
    only serves entity tricks that would hide text from the reader)."""


_DOCTYPE_MARKS = (b"<!DOCTYPE", "<!DOCTYPE".encode("utf-16-le"), "<!DOCTYPE".encode("utf-16-be"))


def parse_xml(data: bytes) -> etree._Element:
    head = data[:8192]
    if any(mark in head for mark in _DOCTYPE_MARKS):
        raise XmlRejected("the part declares a DTD")
    try:
        root = etree.fromstring(data, XML_PARSER)
    except etree.XMLSyntaxError as e:
        raise XmlRejected("not well-formed XML") from e
    if root.getroottree().docinfo.doctype:
        raise XmlRejected("the part declares a DTD")
    return root


def serialise_xml(root: etree._Element) -> bytes:
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8", standalone=True)


@dataclass(frozen=True, slots=True)
class Relationship:
    source: str  # the part whose .rels file holds it; "" for the package itself
    id: str
    type: str
    target: str  # resolved part name, or the raw target when external
    external: bool

    @property
    def kind(self) -> str:
        """Last segment of the relationship type: "header", "hyperlink", "comments"..."""
        return self.type.rstrip("/").rsplit("/", 1)[-1]


def rels_name(part: str) -> str:
    folder, name = posixpath.split(part)
    return posixpath.join(folder, "_rels", f"{name}.rels")


class OpcPackage:
    """All parts of a package in memory, in their original order."""

    def __init__(self, parts: dict[str, bytes]):
        self.parts = parts
        self._lower = {name.lower(): name for name in parts}

    @classmethod
    def from_bytes(cls, data: bytes, path: str | Path, limits: ZipLimits = ZipLimits()) -> "OpcPackage":
        try:
            with zipfile.ZipFile(io.BytesIO(data)) as archive:
                check_zip_directory(path, archive, limits)
                parts = {}
                for info in archive.infolist():
                    if info.is_dir():
                        continue
                    if info.flag_bits & 0x1:
                        raise IngestError(path, "the ZIP container is password-protected", code="encrypted")
                    if info.compress_type not in _READABLE_COMPRESSION:
                        raise IngestError(path, "the ZIP container uses an unknown compression method", code="corrupt")
                    parts[info.filename.lstrip("/")] = archive.read(info)
        except IngestError:
            raise
        except (zipfile.BadZipFile, OSError, EOFError, ValueError, RuntimeError, zipfile.LargeZipFile):
            raise IngestError(path, "the ZIP container is damaged or truncated", code="corrupt") from None
        return cls(parts)

    def find(self, name: str) -> str | None:
        """The stored name of a part (OPC part names are case-insensitive)."""
        return self._lower.get(name.lstrip("/").lower())

    def get(self, name: str) -> bytes | None:
        found = self.find(name)
        return None if found is None else self.parts[found]

    def set(self, name: str, data: bytes) -> None:
        found = self.find(name) or name
        self.parts[found] = data
        self._lower[found.lower()] = found

    def relationships(self, source: str) -> list[Relationship]:
        data = self.get(rels_name(source) if source else "_rels/.rels")
        if data is None:
            return []
        out = []
        for el in parse_xml(data).iter(f"{{{RELS_NS}}}Relationship"):
            external = el.get("TargetMode") == "External"
            target = el.get("Target", "")
            out.append(
                Relationship(
                    source=source,
                    id=el.get("Id", ""),
                    type=el.get("Type", ""),
                    target=target if external else resolve_target(source, target),
                    external=external,
                )
            )
        return out

    def rels_parts(self) -> list[str]:
        return [name for name in self.parts if name.endswith(".rels")]

    def drop_part(self, name: str) -> None:
        """Remove a part, its own relationships, its content-type override and every
        relationship that points at it."""
        found = self.find(name)
        if found is None:
            return
        self._forget(found)
        own_rels = self.find(rels_name(found))
        if own_rels is not None:
            self._forget(own_rels)
        self._edit_references(found, lambda el, source: el.getparent().remove(el))

    def _edit_references(self, found: str, edit) -> None:
        """Call ``edit(element, source part)`` on every internal relationship that points at
        the part ``found`` and on its content-type override (source None), and re-serialise
        what changed."""
        for rels in self.rels_parts():
            source = source_of_rels(rels)
            root = parse_xml(self.parts[rels])
            hits = [
                el
                for el in root.iter(f"{{{RELS_NS}}}Relationship")
                if el.get("TargetMode") != "External" and resolve_target(source, el.get("Target", "")).lower() == found.lower()
            ]
            for el in hits:
                edit(el, source)
            if hits:
                self.parts[rels] = serialise_xml(root)
        ct = self.find(CONTENT_TYPES)
        if ct is not None:
            root = parse_xml(self.parts[ct])
            for el in [el for el in root.iter(f"{{{CT_NS}}}Override") if el.get("PartName", "").lstrip("/").lower() == found.lower()]:
                edit(el, None)
            self.parts[ct] = serialise_xml(root)

    def reachable_parts(self) -> set[str]:
        """Stored names of the parts reachable through internal relationships from the
        package root: the only parts a reader of the package ever opens."""
        seen: set[str] = set()
        stack = [""]
        while stack:
            for rel in self.relationships(stack.pop()):
                found = None if rel.external else self.find(rel.target)
                if found is not None and found not in seen:
                    seen.add(found)
                    stack.append(found)
        return seen

    def drop_unreachable_parts(self) -> None:
        """Parts nothing references are never shown and never reviewed; they go, with the
        relationship files of parts that are gone."""
        keep = self.reachable_parts()
        for name in list(self.parts):
            if name == CONTENT_TYPES or name in keep:
                continue
            if name.endswith(".rels"):
                source = source_of_rels(name)
                if source == "" or self.find(source) in keep:
                    continue
            self._forget(name)
        self.tidy_content_types()

    def rename_part(self, old: str, new: str) -> None:
        """Move a part to a new name; every relationship pointing at it, its own
        relationships and its content-type override follow."""
        found = self.find(old)
        if found is None or found == new:
            return
        own_rels = self.find(rels_name(found))
        own_rels_data = self.parts.get(own_rels) if own_rels else None
        data = self.parts[found]
        self._forget(found)
        if own_rels is not None:
            self._forget(own_rels)
        self.set(new, data)
        if own_rels_data is not None:
            root = parse_xml(own_rels_data)
            for el in root.iter(f"{{{RELS_NS}}}Relationship"):
                if el.get("TargetMode") != "External":
                    target = resolve_target(found, el.get("Target", ""))
                    el.set("Target", relative_target(new, target))
            self.set(rels_name(new), serialise_xml(root))
        def point_at_new(el, source: str | None) -> None:
            if source is None:
                el.set("PartName", "/" + new)
            else:
                el.set("Target", relative_target(source, new))

        self._edit_references(found, point_at_new)

    def set_content_type(self, name: str, content_type: str) -> None:
        """An override naming the part's type exactly (a re-encoded picture may change type)."""
        ct = self.find(CONTENT_TYPES)
        if ct is None:
            return
        root = parse_xml(self.parts[ct])
        for el in list(root.iter(f"{{{CT_NS}}}Override")):
            if el.get("PartName", "").lstrip("/").lower() == name.lower():
                root.remove(el)
        etree.SubElement(root, f"{{{CT_NS}}}Override", PartName="/" + name, ContentType=content_type)
        self.parts[ct] = serialise_xml(root)

    def tidy_content_types(self) -> None:
        """Overrides only for parts that exist, defaults only for extensions in use (a
        left-over entry would still name a removed part)."""
        ct = self.find(CONTENT_TYPES)
        if ct is None:
            return
        root = parse_xml(self.parts[ct])
        overridden = set()
        for el in list(root.iter(f"{{{CT_NS}}}Override")):
            name = el.get("PartName", "").lstrip("/")
            if self.find(name) is None:
                root.remove(el)
            else:
                overridden.add(name.lower())
        in_use = {
            posixpath.splitext(name)[1].lstrip(".").lower()
            for name in self.parts
            if name != CONTENT_TYPES and name.lower() not in overridden
        }
        for el in list(root.iter(f"{{{CT_NS}}}Default")):
            if el.get("Extension", "").lower() not in in_use:
                root.remove(el)
        self.parts[ct] = serialise_xml(root)

    def _forget(self, name: str) -> None:
        del self.parts[name]
        del self._lower[name.lower()]

    def to_bytes(self) -> bytes:
        buf = io.BytesIO()
        names = sorted(self.parts, key=lambda n: n != CONTENT_TYPES)
        with zipfile.ZipFile(buf, "w", compression=zipfile.ZIP_DEFLATED) as archive:
            for name in names:
                info = zipfile.ZipInfo(name, date_time=_ZIP_TIME)
                info.compress_type = zipfile.ZIP_DEFLATED
                info.external_attr = 0o600 << 16
                archive.writestr(info, self.parts[name])
        return buf.getvalue()


def resolve_target(source: str, target: str) -> str:
    if target.startswith("/"):
        return posixpath.normpath(target.lstrip("/"))
    base = posixpath.dirname(source)
    return posixpath.normpath(posixpath.join(base, target)).lstrip("/")


def relative_target(source: str, part: str) -> str:
    """The relationship target that leads from ``source`` ("" for the package) to ``part``."""
    if not source:
        return part
    return posixpath.relpath(part, posixpath.dirname(source) or ".")


def source_of_rels(rels: str) -> str:
    """The part a .rels file belongs to ("" for the package's own _rels/.rels)."""
    folder, name = posixpath.split(rels)
    owner_folder = posixpath.dirname(folder)
    owner = name[: -len(".rels")]
    return posixpath.join(owner_folder, owner) if owner else ""
