"""Errors of the workspace store. Messages carry ids, file names and reasons, never document
text or span text."""

from __future__ import annotations

from ..errors import DeidError


class WorkspaceError(DeidError):
    """The workspace file cannot be used (not a workspace, made by a newer version, ...)."""


class RecordNotFound(WorkspaceError, LookupError):
    """An id that names no current document, span, decision or model version."""


class InvalidDecision(WorkspaceError, ValueError):
    """A review decision that cannot apply to its span (wrong arguments, span gone, ...)."""


class InvalidSpan(WorkspaceError, ValueError):
    """Span offsets that do not lie inside the document's text."""


class WorkspaceDisturbed(WorkspaceError):
    """Another program broke this process's hold on the workspace file (see
    ``database.FileHold``): the change in hand was refused or not saved, and the message says
    which; nothing is ever written into a journal another process has deleted."""
