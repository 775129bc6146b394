"""Typed errors. Messages name the file and the reason and never quote document content."""

from __future__ import annotations

from pathlib import Path


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
