"""A workspace: one SQLite file holding a reviewer's documents, spans, decisions and models."""

from __future__ import annotations

import errno
import logging
import secrets
from contextlib import AbstractContextManager
from pathlib import Path
from types import TracebackType

from sqlalchemy import select
from sqlalchemy.orm import Session

from .database import (
    Database,
    create_owner_only_file,
    make_engine,
    migrate,
    restrict_side_files,
    restrict_workspace_file,
)
from .documents import DocumentsRepository
from .errors import WorkspaceError
from .learned_items import LearnedItemsRepository
from .learning import LearningRepository
from .models import WorkspaceInfo, utc_now
from .review import ReviewRepository
from .reviewers import ReviewersRepository
from .run_records import RunRecordsRepository

log = logging.getLogger(__name__)

SECRET_BYTES = 32


class Workspace(
    DocumentsRepository, ReviewRepository, ReviewersRepository, LearningRepository, LearnedItemsRepository, RunRecordsRepository
):
    """Thread-safe: one engine, a short-lived session per call, writes serialised.

    The GUI thread and a detection worker may call the same instance concurrently.
    """

    def __init__(self, path: Path, db: Database, secret: bytes) -> None:
        self.path = path
        self._db = db
        self.secret = secret

    @classmethod
    def open(cls, path: str | Path, *, create: bool = True) -> "Workspace":
        path = Path(path).expanduser().absolute()
        if path.is_dir():
            raise WorkspaceError(f"{path.name}: is a folder, not a workspace file")
        if not path.exists():
            if not create:
                raise FileNotFoundError(errno.ENOENT, "no workspace at this path", str(path))
            if create_owner_only_file(path):
                log.info("created workspace %s", path.name)
        restrict_workspace_file(path)
        engine = make_engine(path)
        try:
            migrate(engine, path)
            restrict_side_files(path)
            db = Database(path, engine)
            secret = _load_or_create_secret(db)
        except BaseException:
            engine.dispose()
            raise
        return cls(path, db, secret)

    def close(self) -> None:
        """Fold the WAL into the .sqlite file (so that file alone is complete, even when
        another process still has the workspace open), then close every connection."""
        try:
            self._db.checkpoint()
        finally:
            self._db.dispose()

    def __enter__(self) -> "Workspace":
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Workspace({self.path.name!r})"

    def session(self, *, readonly: bool = False) -> AbstractContextManager[Session]:
        """A short-lived ORM session for queries the methods above do not cover.

        Committed when the block ends without error (rolled back on error). With
        ``readonly=True`` it never commits and does not wait for the write lock; use that
        for long reads such as collecting training data.
        """
        return self._db.reading() if readonly else self._db.writing()


def _load_or_create_secret(db: Database) -> bytes:
    with db.writing() as session:
        info = session.scalars(select(WorkspaceInfo)).first()
        if info is None:
            info = WorkspaceInfo(id=1, secret=secrets.token_bytes(SECRET_BYTES), created_at=utc_now())
            session.add(info)
        return info.secret

