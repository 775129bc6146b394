"""What a file really is, from its first bytes, whatever its name says."""

from __future__ import annotations

import struct
from enum import Enum


class FileKind(str, Enum):
    PDF = "pdf"
    ZIP = "zip"
    OLE2 = "ole2"  # Compound File: legacy .doc, or an encrypted Office package
    RTF = "rtf"
    OTHER = "other"  # no known signature: possibly plain text


OLE2_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
# The PDF specification lets readers accept the header anywhere in the first 1024 bytes.
PDF_HEADER_WINDOW = 1024


def sniff(head: bytes, *, named_pdf: bool = False) -> FileKind:
    """Kind of a file from its first bytes (at least 1024 of them when available). A file
    named .pdf may have junk before its header, as readers tolerate; any other file must
    start with it (a note that merely mentions "%PDF-" stays a note)."""
    if head.startswith(OLE2_MAGIC):
        return FileKind.OLE2
    if head[:4] in (b"PK\x03\x04", b"PK\x05\x06", b"PK\x07\x08"):
        return FileKind.ZIP
    if head.startswith(b"%PDF-") or (named_pdf and b"%PDF-" in head[:PDF_HEADER_WINDOW]):
        return FileKind.PDF
    if head.lstrip(b"\xef\xbb\xbf").startswith(b"{\\rtf"):
        return FileKind.RTF
    return FileKind.OTHER


def ole2_stream_names(data: bytes, max_entries: int = 4096) -> list[str]:
    """Names in a Compound File's directory (the streams of a .doc or an encrypted package).

    Follows the directory's sector chain through the FAT; returns what it could read from a
    damaged file rather than failing."""
    if len(data) < 512 or not data.startswith(OLE2_MAGIC):
        return []
    sector_size = 1 << struct.unpack_from("<H", data, 30)[0]
    if sector_size not in (512, 4096):
        return []
    n_fat = struct.unpack_from("<I", data, 44)[0]
    first_dir = struct.unpack_from("<I", data, 48)[0]
    difat = [s for s in struct.unpack_from("<109I", data, 76) if s < 0xFFFFFFFA][:n_fat]

    def sector(n: int) -> bytes:
        off = (n + 1) * sector_size
        return data[off : off + sector_size]

    fat: list[int] = []
    for s in difat:
        chunk = sector(s)
        fat.extend(struct.unpack(f"<{len(chunk) // 4}I", chunk[: len(chunk) // 4 * 4]))

    names: list[str] = []
    seen: set[int] = set()
    s = first_dir
    while s < 0xFFFFFFFA and s not in seen and len(names) < max_entries:
        seen.add(s)
        chunk = sector(s)
        for off in range(0, len(chunk) - 127, 128):
            name_len = struct.unpack_from("<H", chunk, off + 64)[0]
            kind = chunk[off + 66]
            if kind in (1, 2, 5) and 2 <= name_len <= 64:
                names.append(chunk[off : off + name_len - 2].decode("utf-16-le", "replace"))
        s = fat[s] if s < len(fat) else 0xFFFFFFFE
    return names


def ole2_is_encrypted_package(data: bytes) -> bool:
    """An Office 2007+ file saved with a password is a Compound File holding these streams."""
    names = set(ole2_stream_names(data))
    return "EncryptionInfo" in names or "EncryptedPackage" in names
