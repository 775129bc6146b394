"""The SQLite file behind a workspace: creation with owner-only permissions, connection
settings, schema migrations, and the read/write sessions every repository method uses."""

from __future__ import annotations

import logging
import os
import secrets
import sqlite3
import stat
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, Engine, create_engine, event, inspect, text
from sqlalchemy.exc import DatabaseError
from sqlalchemy.orm import Session, sessionmaker

from .errors import WorkspaceDisturbed, WorkspaceError

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


def restrict_workspace_file(path: Path) -> None:
    """An existing file about to become (or already holding) a workspace is made owner-only
    before SQLite writes into it: an empty file the user created, or one a looser tool left,
    would otherwise keep its 0644 with documents' text in it. chmod by name opens nothing."""
    if os.name == "nt":
        return
    st = path.stat()
    if stat.S_IMODE(st.st_mode) != OWNER_ONLY and st.st_uid == os.getuid():
        os.chmod(path, OWNER_ONLY)


def restrict_side_files(path: Path) -> None:
    """SQLite gives -wal/-shm the database file's mode; enforce it anyway, because a file
    left over from another tool (or a filesystem that ignores that rule) may be looser."""
    if os.name == "nt":  # file modes are not how Windows restricts access
        return
    for suffix in _SIDE_FILES:
        side = side_file(path, suffix)
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


_PROC_LOCKS = Path("/proc/locks")
# How long a reconnection waits for this process's other sessions on the file to finish.
RECONNECT_WAIT_S = BUSY_TIMEOUT_MS / 1000


def side_file(path: Path, suffix: str) -> Path:
    return path.with_name(path.name + suffix)


def _file_id(path: Path) -> tuple[int, int] | None:
    try:
        st = os.stat(path)  # stat by name: never opens the file, so it cannot drop a lock
    except FileNotFoundError:
        return None
    return st.st_dev, st.st_ino


def _inodes_locked_by_this_process() -> set[int] | None:
    """Inode numbers this process holds POSIX locks on, from Linux's /proc/locks; None where
    the kernel does not tell. Inode numbers only: overlay filesystems report another device."""
    try:
        lines = _PROC_LOCKS.read_text().splitlines()
    except OSError:
        return None
    pid = str(os.getpid())
    held = set()
    for line in lines:
        fields = line.split()
        if len(fields) > 1 and fields[1] == "->":  # a waiter queued behind a lock
            continue
        if len(fields) >= 6 and fields[4] == pid:
            held.add(int(fields[5].rsplit(":", 1)[-1]))
    return held


class FileHold:
    """One extra SQLite connection kept open for as long as the workspace is, and the proof
    that this process still holds the database the way SQLite believes it does.

    Why: SQLite's POSIX locks belong to the process, and a close() of *any* descriptor on the
    database or -shm file in this process (a file dialog sniffing file types, a copy, a hash)
    silently drops them all. Another process's last connection then believes it is the only
    user: it checkpoints and deletes the -wal/-shm that this process keeps writing into, and
    every later commit here lands in a deleted file ("How To Corrupt An SQLite Database
    File", 2.2). Kept open, this connection pins the WAL file, so a WAL that vanished or was
    replaced means another process took it away; on Linux the lock table also shows whether
    our locks are still there, before any harm is done.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self._conn = sqlite3.connect(
            path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None, check_same_thread=False
        )
        try:
            self._conn.execute("SELECT count(*) FROM sqlite_master").fetchone()  # opens -wal, -shm
            self._wal = _file_id(side_file(path, "-wal"))
            self._shm = _file_id(side_file(path, "-shm"))
            held = _inodes_locked_by_this_process()
            self._locked = {i[1] for i in (_file_id(path), self._shm) if i is not None}
            # Only trust the lock table where it shows the locks we just took.
            self.locks_visible = held is not None and self._locked <= held
        except BaseException:
            self._conn.close()
            raise

    def broken(self) -> bool:
        """True when another process may have taken the WAL away from under this one."""
        if self._wal is None or _file_id(side_file(self.path, "-wal")) != self._wal:
            return True
        if _file_id(side_file(self.path, "-shm")) != self._shm:
            return True
        if self.locks_visible:
            held = _inodes_locked_by_this_process()
            return held is not None and not self._locked <= held
        return False

    def user_version(self) -> int:
        return int(self._conn.execute("PRAGMA user_version").fetchone()[0])

    def checkpoint(self) -> bool:
        """Copy the WAL into the database file and empty it, so the .sqlite file alone is
        complete. False when a reader in another process kept part of it back."""
        busy, _log, _done = self._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        return busy == 0

    def release(self) -> None:
        self._conn.close()


class Database:
    """Short-lived sessions over one engine. Writes are serialised in-process by a lock and
    across processes by BEGIN IMMEDIATE; reads run concurrently (WAL).

    Before and after every write, and before reads, it checks its ``FileHold``. When the
    hold is broken, nothing more is written through the old connections: they are all
    closed and the file is opened afresh (new locks, the live WAL). A write whose commit
    raced with the breach is looked for in the reopened file (each write stamps a random
    token into ``PRAGMA user_version``); if it is not there the caller gets an error saying
    the change was not saved, never a silent loss.
    """

    def __init__(self, path: Path, engine: Engine) -> None:
        self.path = path
        self.engine = engine
        self._write_lock = threading.Lock()
        self._local = threading.local()
        self._sessions = threading.Condition()
        self._open_sessions = 0
        self._paused = False
        self._reader = sessionmaker(bind=engine, expire_on_commit=False)
        self._writer = sessionmaker(
            bind=engine.execution_options(sqlite_begin="IMMEDIATE"), expire_on_commit=False
        )
        self._hold: FileHold | None = FileHold(path)
        self._locks_visible = self._hold.locks_visible

    @contextmanager
    def reading(self) -> Iterator[Session]:
        """A session whose changes are always discarded."""
        if not self._thread_writing() and self._hold_broken() and self._write_lock.acquire(blocking=False):
            try:
                self._restore_hold()
            except WorkspaceDisturbed:
                log.warning("workspace %s: still disturbed; reads may be out of date", self.path.name)
            finally:
                self._write_lock.release()
        with self._counted():
            session = self._reader()
            try:
                yield session
            finally:
                session.rollback()
                session.close()

    @contextmanager
    def writing(self) -> Iterator[Session]:
        """A session committed when the block ends without error, rolled back otherwise."""
        if self._thread_writing():
            # A second write transaction from the same thread would wait on the first one's
            # database lock until busy_timeout and then fail; say so at once instead.
            raise WorkspaceError(
                "a workspace write is already open in this thread; finish it before starting another"
            )
        with self._write_lock:
            if self._hold_broken():
                self._restore_hold()  # nothing was written since the last check: nothing lost
            token = secrets.randbelow(2**31 - 1) + 1
            self._local.writing = True
            try:
                with self._counted():
                    session = self._writer()
                    try:
                        yield session
                        session.execute(text(f"PRAGMA user_version = {token}"))
                        session.commit()
                    except BaseException:
                        session.rollback()
                        raise
                    finally:
                        session.close()
            finally:
                self._local.writing = False
            if self._hold_broken():
                self._confirm_commit(token)

    def checkpoint(self) -> None:
        """Fold the WAL into the database file (closing the app leaves one complete file)."""
        with self._write_lock:
            if self._hold is None or self._hold_broken():
                return  # the WAL we hold is no longer the file's: never fold it back in
            if not self._hold.checkpoint():
                log.info("workspace %s: another process is reading; part of the journal stays in -wal", self.path.name)

    def dispose(self) -> None:
        self.engine.dispose()
        if self._hold is not None:
            self._hold.release()
            self._hold = None

    # -- the hold on the file ---------------------------------------------------------------

    def _confirm_commit(self, token: int) -> None:
        """The hold broke while a write was committing: the commit may have gone into a WAL
        another process had already deleted. Reopen, and look for this write's token."""
        try:
            self._restore_hold()
        except WorkspaceDisturbed as exc:
            raise WorkspaceDisturbed(
                f"{exc} The last change may not have been saved: check it once reopened."
            ) from None
        assert self._hold is not None
        if self._hold.user_version() != token:
            raise WorkspaceDisturbed(
                f"{self.path.name}: another program closed this workspace's journal while a "
                "change was being saved, and the change was NOT saved. The workspace has been "
                "reopened: make the change again."
            )
        log.warning("workspace %s: reopened after another program disturbed it; the last change is saved", self.path.name)

    def _thread_writing(self) -> bool:
        return getattr(self._local, "writing", False)

    def _hold_broken(self) -> bool:
        return self._hold is None or self._hold.broken()

    @contextmanager
    def _counted(self) -> Iterator[None]:
        with self._sessions:
            while self._paused:
                self._sessions.wait()
            self._open_sessions += 1
        try:
            yield
        finally:
            with self._sessions:
                self._open_sessions -= 1
                self._sessions.notify_all()

    def _restore_hold(self) -> None:
        """Close every connection of this process to the file, then open it afresh. Called
        with the write lock held. All old connections must be closed first: SQLite shares
        one lock record and one -shm mapping per file among a process's connections, so a
        new connection next to an old one would inherit the broken state."""
        log.warning(
            "workspace %s: another program removed or unlocked this workspace's journal; reopening it",
            self.path.name,
        )
        with self._sessions:
            self._paused = True
            try:
                if not self._sessions.wait_for(lambda: self._open_sessions == 0, RECONNECT_WAIT_S):
                    raise WorkspaceDisturbed(
                        f"{self.path.name}: another program disturbed this workspace and it is "
                        "still in use here; nothing more is written. Close the workspace and open it again."
                    )
                self.engine.dispose()
                if self._hold is not None:
                    self._hold.release()
                    self._hold = None
                hold = FileHold(self.path)
                if self._locks_visible and not hold.locks_visible:
                    # Another Workspace in this process still holds the old connection state.
                    hold.release()
                    raise WorkspaceDisturbed(
                        f"{self.path.name}: another program disturbed this workspace and it is "
                        "open twice here; nothing more is written. Close the workspace and open it again."
                    )
                self._hold = hold
            finally:
                self._paused = False
                self._sessions.notify_all()
