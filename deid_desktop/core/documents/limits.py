"""Limits that keep a hostile or broken input from exhausting memory or time.

Every check here runs before the file's content is decoded: the size comes from ``stat`` and
the ZIP limits from the ZIP central directory, so an oversized file or a ZIP bomb is refused
without being read or inflated.
"""

from __future__ import annotations

import zipfile
from dataclasses import dataclass
from pathlib import Path

from ..errors import IngestError

DEFAULT_MAX_BYTES = 50 * 1024**2


@dataclass(frozen=True, slots=True)
class ZipLimits:
    # A Word document of a few hundred pages inflates to tens of MiB; these bounds sit far
    # above that and far below what would exhaust a desktop's memory.
    max_total_uncompressed: int = 512 * 1024**2
    max_entries: int = 10_000
    # XML compresses about 5-20x; a member that inflates more than 100x and is large is a
    # bomb, not a document (small members may compress better and do no harm).
    max_ratio: float = 100.0
    ratio_applies_above: int = 8 * 1024**2


def check_file_size(path: Path, max_bytes: int) -> int:
    """The file's size from ``stat``; refuses files larger than ``max_bytes`` without reading."""
    try:
        st = path.stat()
    except FileNotFoundError:
        raise IngestError(path, "the file does not exist", code="not_found") from None
    except OSError as e:
        raise IngestError(path, f"the file cannot be read ({e.strerror or type(e).__name__})", code="unreadable") from None
    if not path.is_file():
        raise IngestError(path, "not a regular file", code="unreadable")
    if st.st_size > max_bytes:
        raise IngestError(
            path,
            f"the file is {st.st_size / 1024**2:.1f} MiB, over the {max_bytes / 1024**2:.1f} MiB limit",
            code="too_large",
        )
    if st.st_size == 0:
        raise IngestError(path, "the file is empty", code="empty")
    return st.st_size


def check_zip_directory(path: str | Path, archive: zipfile.ZipFile, limits: ZipLimits = ZipLimits()) -> None:
    """Refuse a ZIP whose central directory promises more than a document could need."""
    infos = archive.infolist()
    if len(infos) > limits.max_entries:
        raise IngestError(path, f"the archive has {len(infos)} entries; it looks like a ZIP bomb", code="zip_bomb")
    total = 0
    for info in infos:
        total += info.file_size
        if info.file_size > limits.ratio_applies_above:
            ratio = info.file_size / max(1, info.compress_size)
            if ratio > limits.max_ratio:
                raise IngestError(
                    path,
                    f"a part inflates {ratio:.0f} times its stored size; it looks like a ZIP bomb",
                    code="zip_bomb",
                )
    if total > limits.max_total_uncompressed:
        raise IngestError(
            path,
            f"the archive inflates to {total / 1024**2:.0f} MiB; it looks like a ZIP bomb",
            code="zip_bomb",
        )
