"""The workspace store: one SQLite file per workspace (SQLAlchemy models, Alembic migrations).

Callers use ``Workspace`` and its frozen row types; ``Workspace.session`` is the one way to
reach the ORM models, for queries the methods do not cover.
"""

from __future__ import annotations

# Importing ``learned`` puts the learning loop's tables on the shared metadata, so that the
# metadata always describes the whole workspace file (migrations, schema checks).
from . import learned as _learned  # noqa: F401
from .errors import InvalidDecision, InvalidSpan, RecordNotFound, WorkspaceDisturbed, WorkspaceError
from .rows import (
    DecisionAction,
    DecisionRow,
    DocStatus,
    DocumentRow,
    ImportResult,
    ModelVersionRow,
    SpanRow,
    SpanState,
    SubjectRow,
    TrainingRunRow,
)
from .workspace import Workspace

__all__ = [
    "DecisionAction",
    "DecisionRow",
    "DocStatus",
    "DocumentRow",
    "ImportResult",
    "InvalidDecision",
    "InvalidSpan",
    "ModelVersionRow",
    "RecordNotFound",
    "SpanRow",
    "SpanState",
    "SubjectRow",
    "TrainingRunRow",
    "Workspace",
    "WorkspaceDisturbed",
    "WorkspaceError",
]
