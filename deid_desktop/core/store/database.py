"""The SQLite file behind a workspace: creation with owner-only permissions, connection
settings, schema migrations, and the read/write sessions every repository method uses."""

from __future__ import annotations

import logging
import os
import stat
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, Engine, create_engine, event, inspect
from sqlalchemy.exc import DatabaseError
from sqlalchemy.orm import Session, sessionmaker

from .errors import WorkspaceError

log = logging.getLogger(__name__)

MIGRATIONS_DIR = Path(__file__).resolve().parent / "migrations"
BUSY_TIMEOUT_MS = 5000
OWNER_ONLY = 0o600
_SIDE_FILES = ("-wal", "-shm")


def create_owner_only_file(path: Path) -> bool:
    """Create an empty file readable by its owner only, before SQLite ever opens it, so no
    other account can read the workspace even for the instant between creation and chmod.
    Returns False when the file already existed."""
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, OWNER_ONLY)
    except FileExistsError:
        return False
    os.close(fd)
    # The umask can only remove bits; chmod makes the mode exact whatever the umask was.
    os.chmod(path, OWNER_ONLY)
    return True


def restrict_side_files(path: Path) -> None:
    """SQLite gives -wal/-shm the database file's mode; enforce it anyway, because a file
    left over from another tool (or a filesystem that ignores that rule) may be looser."""
    if os.name == "nt":  # file modes are not how Windows restricts access
        return
    for suffix in _SIDE_FILES:
        side = path.with_name(path.name + suffix)
        try:
            st = side.stat()
        except FileNotFoundError:
            continue
        if stat.S_IMODE(st.st_mode) != OWNER_ONLY and st.st_uid == os.getuid():
            os.chmod(side, OWNER_ONLY)


def make_engine(path: Path) -> Engine:
    # One engine shared by the GUI thread and the detection worker; check_same_thread=False
    # because pooled connections move between threads, each used by one session at a time.
    engine = create_engine(
        f"sqlite:///{path}",
        connect_args={"check_same_thread": False, "timeout": BUSY_TIMEOUT_MS / 1000},
    )

    @event.listens_for(engine, "connect")
    def _configure(dbapi_connection, _record) -> None:  # type: ignore[no-untyped-def]
        # Let SQLAlchemy's "begin" event emit BEGIN itself: the pysqlite driver's implicit
        # transactions start too late for BEGIN IMMEDIATE to be possible.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        try:
            cursor.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            cursor.execute("PRAGMA journal_mode = WAL")
            # FULL syncs the WAL on every commit: a decision is on disk when decide() returns.
            cursor.execute("PRAGMA synchronous = FULL")
            cursor.execute("PRAGMA foreign_keys = ON")
        finally:
            cursor.close()

    @event.listens_for(engine, "begin")
    def _begin(conn: Connection) -> None:
        # Writers take the write lock up front: a deferred transaction that reads and then
        # writes can fail at once with SQLITE_BUSY when another process wrote meanwhile,
        # which busy_timeout cannot wait out.
        mode = conn.get_execution_options().get("sqlite_begin", "DEFERRED")
        conn.exec_driver_sql(f"BEGIN {mode}")

    return engine


def migrations_config(connection: Connection | None = None) -> Config:
    config = Config()
    # configparser interpolation would read a "%" in the install path as a placeholder.
    config.set_main_option("script_location", str(MIGRATIONS_DIR).replace("%", "%%"))
    config.set_main_option("path_separator", "os")
    if connection is not None:
        config.attributes["connection"] = connection
    return config


def head_revision() -> str:
    head = ScriptDirectory.from_config(migrations_config()).get_current_head()
    if head is None:
        raise WorkspaceError("the workspace schema has no migrations")
    return head


def current_revision(connection: Connection) -> str | None:
    return MigrationContext.configure(connection).get_current_revision()


# Alembic's command API runs env.py through module-global proxies (``alembic.context``,
# ``alembic.op``) that it installs and deletes around each run, so two threads migrating at
# once (a background worker opening the workspace while the window opens another) break each
# other with a KeyError. Every migration in this process goes through this lock.
_MIGRATION_LOCK = threading.Lock()


def migrate(engine: Engine, path: Path, revision: str = "head") -> None:
    """Create or upgrade the schema; refuses files that are not workspaces of this app."""
    scripts = ScriptDirectory.from_config(migrations_config())
    target = scripts.get_current_head() if revision == "head" else revision
    try:
        with engine.connect().execution_options(sqlite_begin="IMMEDIATE") as connection:
            with connection.begin():
                _check_is_workspace(connection, path, scripts)
                if current_revision(connection) == target:
                    return  # already current: no need to run env.py at all
                with _MIGRATION_LOCK:
                    command.upgrade(migrations_config(connection), revision)
    except DatabaseError as exc:
        # Only the SQLite error class is shown: its message never contains row data.
        raise WorkspaceError(
            f"{path.name}: cannot open the workspace ({type(exc.orig).__name__})"
        ) from None


def _check_is_workspace(connection: Connection, path: Path, scripts: ScriptDirectory) -> None:
    tables = set(inspect(connection).get_table_names())
    if tables and "alembic_version" not in tables:
        raise WorkspaceError(f"{path.name}: this SQLite file is not a deid-desktop workspace")
    revision = current_revision(connection)
    if revision is not None and revision not in {s.revision for s in scripts.walk_revisions()}:
        raise WorkspaceError(
            f"{path.name}: the workspace was written by a newer version of deid-desktop"
        )


class Database:
    """Short-lived sessions over one engine. Writes are serialised in-process by a lock and
    across processes by BEGIN IMMEDIATE; reads run concurrently (WAL)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._write_lock = threading.Lock()
        self._local = threading.local()
        self._reader = sessionmaker(bind=engine, expire_on_commit=False)
        self._writer = sessionmaker(
            bind=engine.execution_options(sqlite_begin="IMMEDIATE"), expire_on_commit=False
        )

    @contextmanager
    def reading(self) -> Iterator[Session]:
        """A session whose changes are always discarded."""
        session = self._reader()
        try:
            yield session
        finally:
            session.rollback()
            session.close()

    @contextmanager
    def writing(self) -> Iterator[Session]:
        """A session committed when the block ends without error, rolled back otherwise."""
        if getattr(self._local, "writing", False):
            # A second write transaction from the same thread would wait on the first one's
            # database lock until busy_timeout and then fail; say so at once instead.
            raise WorkspaceError(
                "a workspace write is already open in this thread; finish it before starting another"
            )
        with self._write_lock:
            self._local.writing = True
            session = self._writer()
            try:
                yield session
                session.commit()
            except BaseException:
                session.rollback()
                raise
            finally:
                session.close()
                self._local.writing = False

    def dispose(self) -> None:
        self.engine.dispose()
