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


def describe_error(exc: BaseException, *, workspace: str | Path | None = None, file_label=None) -> str:
    """One PHI-free line for any exception that reaches the command line: the file it is
    about (``file_label`` de-identifies an input's name) and the reason, never the
    exception's own message unless it is one of our PHI-free ``DeidError`` messages.

    A database error (a damaged or foreign workspace) names the workspace file: SQLAlchemy's
    own message quotes the SQL statement and its parameters, which can be document text."""
    label = file_label or (lambda name: Path(name).name)
    if isinstance(exc, (IngestError, ExportError)):
        return f"{label(exc.path)}: {exc.reason}"
    if isinstance(exc, DeidError):
        return str(exc)
    if _is_database_error(exc):
        where = f"the workspace {Path(workspace).name}" if workspace else "the workspace"
        return f"{where} cannot be read: the file is damaged or is not a deid-desktop workspace ({type(exc).__name__})"
    if isinstance(exc, OSError):
        reason = exc.strerror or type(exc).__name__
        return f"{label(str(exc.filename))}: {reason}" if exc.filename else reason
    if isinstance(exc, UnicodeError):
        return f"a file is not readable as text ({type(exc).__name__})"
    if isinstance(exc, MemoryError):
        return "out of memory"
    return f"internal error ({type(exc).__name__}), at:\n" + content_free_traceback(
        type(exc), exc.__traceback__
    )


def _is_database_error(exc: BaseException) -> bool:
    import sqlite3

    return isinstance(exc, sqlite3.Error) or type(exc).__module__.startswith("sqlalchemy")
