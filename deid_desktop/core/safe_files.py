"""Files written whole or not at all, owner-only unless asked otherwise.

Exported annotations, term lists and name maps hold original text: they are 0600 from the
first byte. Reports are PHI-free and may be readable by others (``mode=0o644``). Either
way a kill leaves the old file or the new one, never half of one."""

from __future__ import annotations

import os
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, TextIO

OWNER_ONLY = 0o600


@contextmanager
def _atomic(path: str | Path, mode: int, open_mode: str, **open_args) -> Iterator:
    """A file written under a temporary name beside ``path`` (one file system, so the
    rename is atomic) and renamed over it once complete. mkstemp creates the temporary file
    0600 before any byte is written; ``mode`` is applied before the rename."""
    path = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent)
    try:
        with os.fdopen(fd, open_mode, **open_args) as f:
            yield f
            if mode != OWNER_ONLY:
                os.fchmod(f.fileno(), mode)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


@contextmanager
def atomic_text(path: str | Path, *, mode: int = OWNER_ONLY, newline: str | None = None) -> Iterator[TextIO]:
    """A text file written whole or not at all (see ``_atomic``)."""
    with _atomic(path, mode, "w", encoding="utf-8", newline=newline) as f:
        yield f


def open_private_text(path: str | Path) -> TextIO:
    """A text file opened for writing that is owner-only from its first byte (and made so
    if it existed already), for output streamed as it is made."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, OWNER_ONLY)
    os.fchmod(fd, OWNER_ONLY)
    return os.fdopen(fd, "w", encoding="utf-8")


def write_atomic_text(path: str | Path, text: str, *, mode: int = OWNER_ONLY) -> None:
    with atomic_text(path, mode=mode) as f:
        f.write(text)


def write_atomic_bytes(path: str | Path, data: bytes, *, mode: int = OWNER_ONLY) -> None:
    """``atomic_text`` for bytes (a rendered PDF): the old file or the new one, never half."""
    with _atomic(path, mode, "wb") as f:
        f.write(data)
