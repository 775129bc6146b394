"""Typed errors. Messages name the file and the reason and never quote document content."""

from __future__ import annotations

import traceback
from pathlib import Path
from types import TracebackType


class DeidError(Exception):
    """Base class of every error the user may see."""


class IngestError(DeidError):
    """A file could not be read as a document."""

    def __init__(self, path: str | Path, reason: str, *, code: str = "unreadable"):
        self.path = str(path)
        self.reason = reason
        self.code = code  # short machine-readable cause for reports: empty, corrupt, encrypted, ...
        super().__init__(f"{Path(self.path).name}: {reason}")


class ExportError(DeidError):
    def __init__(self, path: str | Path, reason: str, *, code: str = "export_failed"):
        self.path = str(path)
        self.reason = reason
        self.code = code
        super().__init__(f"{Path(self.path).name}: {reason}")


class ConfigError(DeidError):
    pass


class ModelError(DeidError):
    pass


def content_free_traceback(exc_type: type[BaseException], tb: TracebackType | None) -> str:
    """Where an error happened (files, lines, functions) and its type — never its message,
    which may quote document text (a KeyError on a name, a ValueError echoing its input)."""
    frames = traceback.extract_tb(tb)
    lines = [f'  File "{f.filename}", line {f.lineno}, in {f.name}' for f in frames]
    return "Traceback (most recent call last):\n" + "\n".join(lines) + f"\n{exc_type.__module__}.{exc_type.__qualname__}"
