"""Files → Document: the one entry point for reading .txt, .docx and .pdf files.

What a file is comes from its bytes, not its name: a PDF named .docx is read as a PDF, a Word
document named .txt as a Word document, and plain text named .pdf or .docx as text, each
with a warning that says so (the exported copy then has the suffix of what the file really
is). Bytes that are no known document (a legacy .doc, RTF, another ZIP, random bytes under a
document suffix) are refused with a clear reason.

Every failure is an IngestError whose message names the file (base name only) and the reason,
never the content; checks that protect memory (size, ZIP directory) run before decoding.
"""

from __future__ import annotations

import io
import logging
import os
import zipfile
from pathlib import Path
from typing import Callable, Sequence

from ..errors import IngestError
from .docx_read import read_docx
from .limits import DEFAULT_MAX_BYTES, check_file_size
from .model import Document, Segment
from .ocr import check_mode
from .pdf_read import read_pdf
from .sniff import FileKind, ole2_is_encrypted_package, sniff
from .txt import decode_text

log = logging.getLogger(__name__)

SUPPORTED_SUFFIXES = (".txt", ".docx", ".pdf")
_NAMES = {"txt": "a text file", "docx": "a Word document", "pdf": "a PDF"}
_DECLARED = {".txt": "txt", ".docx": "docx", ".pdf": "pdf"}
_SNIFF_BYTES = 4096


def load_document(path: str | Path, *, max_bytes: int = DEFAULT_MAX_BYTES, ocr: str = "auto") -> Document:
    """Read one file; raises IngestError with a ``code``: unsupported, not_found, unreadable,
    too_large, empty, binary, corrupt, encrypted, zip_bomb, no_text, ocr_unavailable,
    ocr_failed. ``ocr`` says which PDF pages and Word pictures are read by OCR ("auto": pages
    without a text layer and pictures holding text; "always"; "never"), see
    ``pdf_read.read_pdf`` and ``docx_pictures``."""
    check_mode(ocr)  # a caller's mistake, not the file's: raised as it is
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in SUPPORTED_SUFFIXES:
        raise IngestError(
            path,
            f"unsupported file type '{suffix or '(none)'}'; supported types are {', '.join(SUPPORTED_SUFFIXES)}",
            code="unsupported",
        )
    check_file_size(path, max_bytes)
    try:
        with path.open("rb") as fh:
            # Never more than the limit, even if the file grew since stat.
            data = fh.read(max_bytes + 1)
    except OSError as e:
        raise IngestError(path, f"the file cannot be read ({e.strerror or type(e).__name__})", code="unreadable") from None
    if len(data) > max_bytes:
        raise IngestError(path, f"the file is over the {max_bytes / 1024**2:.1f} MiB limit", code="too_large")
    if not data:
        raise IngestError(path, "the file is empty", code="empty")
    try:
        return _read(path, data, _DECLARED[suffix], ocr)
    except IngestError:
        raise
    except MemoryError:
        raise IngestError(path, "the file needs more memory than is available", code="too_large") from None
    except Exception as e:  # a reader bug or an exotic damage must not surface as a traceback
        log.debug("unexpected failure reading %s", path.name, exc_info=True)
        raise IngestError(path, f"the file could not be read ({type(e).__name__})", code="corrupt") from None


def _read(path: Path, data: bytes, declared: str, ocr: str = "auto") -> Document:
    kind = sniff(data[:_SNIFF_BYTES], named_pdf=declared == "pdf")
    if kind is FileKind.PDF:
        return _noting_mismatch(read_pdf(data, path, ocr=ocr), declared, "pdf")
    if kind is FileKind.ZIP:
        if not _is_word_package(data):
            if declared == "txt":
                raise IngestError(path, "the file is a ZIP archive, not text", code="binary")
            raise IngestError(path, "the file is a ZIP archive but not a Word document", code="corrupt" if declared == "docx" else "unsupported")
        return _noting_mismatch(read_docx(data, path, ocr=ocr), declared, "docx")
    if kind is FileKind.OLE2:
        if ole2_is_encrypted_package(data):
            raise IngestError(path, "the document is password-protected; remove the password and try again", code="encrypted")
        raise IngestError(path, "a legacy Office file (for example Word 97-2003 .doc); save it as .docx", code="unsupported")
    if kind is FileKind.RTF:
        raise IngestError(path, "an RTF file; save it as .docx or .txt", code="unsupported")
    if declared != "txt":
        try:
            doc = _read_text(path, data)
        except IngestError as e:
            if e.code == "binary":
                raise IngestError(path, f"not {_NAMES[declared]}: the content is damaged or of another kind", code="corrupt") from None
            raise
        return _noting_mismatch(doc, declared, "txt")
    return _read_text(path, data)


def _read_text(path: Path, data: bytes) -> Document:
    decoded = decode_text(data, path)
    return Document(
        text=decoded.text,
        format="txt",
        path=str(path),
        segments=[Segment(0, len(decoded.text))],
        warnings=list(decoded.warnings),
        meta=decoded.meta,
        source_bytes=data,
    )


def _is_word_package(data: bytes) -> bool:
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            names = {n.lower().lstrip("/") for n in archive.namelist()}
    except (zipfile.BadZipFile, OSError, ValueError, EOFError):
        # A damaged Word file still starts with the ZIP signature; let the reader say so.
        return True
    return any(n.startswith("word/") for n in names)


def _noting_mismatch(doc: Document, declared: str, actual: str) -> Document:
    if declared != actual:
        doc.warnings.insert(
            0, f"the file is named .{declared} but is {_NAMES[actual]}; it was read as {_NAMES[actual]}"
        )
    return doc


# Names this app gives its own files: never read back as input (a report, the release
# certificate, a half-written output, a temporary report).
APP_FILE_NAMES = frozenset({
    "deid_report.json", "deid_report.csv", "deid_report.json.part", "deid_report.csv.part",
    "release-certificate.json", "release-certificate.pdf",
})
PART_INFIX = ".part"

SkipHandler = Callable[[Path, Path, str], None]


def is_app_file(name: str) -> bool:
    """A report, a release certificate or a ``.part`` file this app wrote (``x.deid.part.txt``, ``deid_report.json.part``)."""
    lower = name.lower()
    return lower in APP_FILE_NAMES or lower.endswith(PART_INFIX) or ".deid.part." in lower


def iter_input_files(
    paths: list[str | Path],
    *,
    exclude: Sequence[str | Path] = (),
    on_skip: SkipHandler | None = None,
) -> list[Path]:
    """Files to process: folders are expanded recursively (sorted; hidden files and folders
    and Office lock files "~$..." skipped), named files are kept as given even when their
    type is unsupported or they do not exist, so the caller can report them. Each file once.

    Inside a folder, entries that would make a batch read what it should not are skipped and
    passed to ``on_skip(path, input folder, reason)``: the folders in ``exclude`` (the output
    folder, which may lie inside the input) and any folder holding a batch report (the
    output of an earlier run to another place), files this app wrote, links that loop,
    dangle or lead outside the input folder, folders that cannot be listed."""
    out: list[Path] = []
    seen: set[str] = set()
    excluded = {real_key(Path(e)) for e in exclude}
    skip = on_skip or (lambda path, root, reason: log.info("skipped an entry: %s", reason))

    def add(p: Path) -> None:
        key = real_key(p)
        if key not in seen:
            seen.add(key)
            out.append(p)

    for item in paths:
        p = Path(item)
        if not p.is_dir():
            add(p)
            continue
        for f in _walk(p, excluded, skip):
            add(f)
    return out


def _walk(top: Path, excluded: set[str], skip: SkipHandler) -> list[Path]:
    root_real = Path(os.path.realpath(top))
    found: list[Path] = []

    def unreadable(err: OSError) -> None:
        skip(Path(err.filename or top), top, "a folder that cannot be read")

    for root, dirs, names in os.walk(top, onerror=unreadable):
        kept = []
        for d in dirs:
            full = Path(root) / d
            if d.startswith(".") or real_key(full) in excluded:
                continue
            if full.is_symlink():
                skip(full, top, "a link to a folder (links to folders are not followed)")
                continue
            if (full / "deid_report.json").is_file():
                skip(full, top, "the output folder of an earlier run")
                continue
            kept.append(d)
        dirs[:] = kept
        for n in names:
            full = Path(root) / n
            if n.startswith((".", "~$")) or is_app_file(n):
                continue
            if full.is_symlink():
                reason = _bad_link(full, root_real)
                if reason:
                    skip(full, top, reason)
                    continue
            found.append(full)
    return sorted(found, key=lambda f: [part.casefold() for part in f.relative_to(top).parts])


def _bad_link(link: Path, root_real: Path) -> str | None:
    """Why a file link inside an input folder must not be read, or None when it may."""
    try:
        target = link.resolve(strict=True)
    except (OSError, RuntimeError):  # RuntimeError: a loop, on Python before 3.13
        return "a link that loops or leads nowhere"
    if not target.is_relative_to(root_real):
        return "a link that leads outside the input folder"
    return None


def real_key(p: Path) -> str:
    """One key per file however it is reached (relative, via links, in another case on
    Windows); never fails, even on a link loop."""
    try:
        real = os.path.realpath(p)
    except (OSError, RuntimeError, ValueError):
        real = os.path.abspath(p)
    return os.path.normcase(real)
