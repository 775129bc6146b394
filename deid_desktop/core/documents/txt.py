"""Plain text files: find the encoding, keep BOM and line endings, write back the same way.

The text offsets of a .txt document are offsets into the decoded text exactly as it is in the
file, CRLF line endings included, so writing back is "replace the ranges, encode again".
"""

from __future__ import annotations

import codecs
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import IngestError

# Longest BOM first: the UTF-32-LE BOM starts with the UTF-16-LE one.
_BOMS: tuple[tuple[bytes, str], ...] = (
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)
_BOM_OF = {enc: bom for bom, enc in _BOMS}

# Control characters a real text file may hold; anything else below U+0020 (NUL above all)
# means the bytes are not text in the encoding we tried.
_TEXT_CONTROLS = frozenset("\t\n\r\f\v\x1a")
_MAX_CONTROL_SHARE = 0.02
_SAMPLE = 64 * 1024


@dataclass(frozen=True, slots=True)
class DecodedText:
    text: str
    encoding: str
    bom: bool
    newline: str  # "\r\n", "\n", "\r", "mixed" or "" when the text has no line break
    warnings: list[str] = field(default_factory=list)

    @property
    def meta(self) -> dict:
        return {"encoding": self.encoding, "bom": self.bom, "newline": self.newline}


def decode_text(data: bytes, path: str | Path) -> DecodedText:
    """Decode a text file's bytes; raises IngestError "binary" or "empty"."""
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            text = _strict(data[len(bom) :], encoding)
            if text is None:
                raise IngestError(path, f"the file starts with a {encoding.upper()} byte-order mark but is not valid {encoding.upper()}", code="binary")
            return _checked(path, text, encoding, bom=True)

    utf16 = _bomless_utf16(data)
    if utf16 is not None:
        text = _strict(data, utf16)
        if text is not None and not _looks_binary(text):
            return _checked(path, text, utf16, bom=False)

    text = _strict(data, "utf-8")
    if text is not None:
        return _checked(path, text, "utf-8", bom=False)
    text = _strict(data, "cp1252")
    if text is not None:
        return _checked(path, text, "cp1252", bom=False)
    guessed = _charset_normalizer_guess(data)
    if guessed is not None:
        text = _strict(data, guessed)
        if text is not None and not _looks_binary(text):
            return _checked(path, text, guessed, bom=False)
    # Latin-1 decodes any byte string; C1 controls it produces count against it as binary.
    decoded = _checked(path, data.decode("latin-1"), "latin-1", bom=False)
    decoded.warnings.append("the text encoding could not be recognised; it was read as Latin-1")
    return decoded


def encode_text(text: str, encoding: str, bom: bool) -> tuple[bytes, list[str]]:
    """Bytes of ``text`` in the document's own encoding, or UTF-8 (with BOM) and a warning when
    a replacement value cannot be written in that encoding."""
    try:
        body = text.encode(encoding)
    except UnicodeEncodeError:
        warning = (
            f"some replacement text cannot be written in {encoding}; the file was written as UTF-8 instead"
        )
        return codecs.BOM_UTF8 + text.encode("utf-8"), [warning]
    return (_BOM_OF.get(encoding, b"") if bom else b"") + body, []


def newline_style(text: str) -> str:
    crlf = text.count("\r\n")
    cr = text.count("\r") - crlf
    lf = text.count("\n") - crlf
    kinds = [nl for nl, n in (("\r\n", crlf), ("\n", lf), ("\r", cr)) if n]
    if not kinds:
        return ""
    return kinds[0] if len(kinds) == 1 else "mixed"


def _strict(data: bytes, encoding: str) -> str | None:
    try:
        return data.decode(encoding)
    except (UnicodeDecodeError, LookupError):
        return None


def _checked(path: str | Path, text: str, encoding: str, *, bom: bool) -> DecodedText:
    if _looks_binary(text):
        raise IngestError(path, "the file holds binary data, not text", code="binary")
    if not text.strip():
        raise IngestError(path, "the file contains no text", code="empty")
    return DecodedText(text=text, encoding=encoding, bom=bom, newline=newline_style(text))


def _looks_binary(text: str) -> bool:
    sample = text[:_SAMPLE]
    if not sample:
        return False
    bad = sum(
        1
        for ch in sample
        if ch not in _TEXT_CONTROLS and (ord(ch) < 0x20 or 0x7F <= ord(ch) <= 0x9F or unicodedata.category(ch) == "Cs")
    )
    return bad / len(sample) > _MAX_CONTROL_SHARE


def _bomless_utf16(data: bytes) -> str | None:
    """UTF-16 without a BOM: mostly-Latin text has a zero in every other byte."""
    sample = data[:_SAMPLE]
    if len(sample) < 4 or len(data) % 2:
        return None
    even, odd = sample[0::2], sample[1::2]
    even_zero = even.count(0) / len(even)
    odd_zero = odd.count(0) / len(odd)
    if odd_zero > 0.3 and even_zero < 0.05:
        return "utf-16-le"
    if even_zero > 0.3 and odd_zero < 0.05:
        return "utf-16-be"
    return None


def _charset_normalizer_guess(data: bytes) -> str | None:
    from charset_normalizer import from_bytes

    best = from_bytes(data[:_SAMPLE]).best()
    return None if best is None else codecs.lookup(best.encoding).name
