"""Files that hold original text (exported annotations, term lists, name maps): owner-only
(0600) from the first byte, and written whole or not at all."""

from __future__ import annotations

import os
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, TextIO


@contextmanager
def private_text(path: str | Path, newline: str | None = None) -> Iterator[TextIO]:
    """A text file for the owner only. mkstemp creates it 0600 before any byte is written,
    beside the target so the final rename stays on one file system; the rename puts it in
    place only once complete, and a failure leaves nothing behind."""
    path = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=".private-", suffix=".part", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline=newline) as f:
            yield f
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_private_text(path: str | Path, text: str) -> None:
    with private_text(path) as f:
        f.write(text)
