"""Opening workspace files: permissions, SQLite settings, refusing files that are not ours."""

from __future__ import annotations

import os
import sqlite3
import stat
import threading
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import text
from sqlalchemy.exc import IntegrityError

from deid_desktop.core.categories import Category
from deid_desktop.core.documents.model import Document
from deid_desktop.core.spans import Span
from deid_desktop.core.store import DecisionAction, Workspace, WorkspaceError
from deid_desktop.core.store.database import head_revision
from deid_desktop.core.store.models import Base, SpanRecord, utc_now

posix_only = pytest.mark.skipif(os.name == "nt", reason="POSIX file modes")


@pytest.fixture
def ws(tmp_path: Path):
    workspace = Workspace.open(tmp_path / "review.sqlite")
    yield workspace
    workspace.close()


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@posix_only
def test_workspace_and_its_wal_files_are_owner_only_even_with_a_permissive_umask(tmp_path: Path):
    path = tmp_path / "review.sqlite"
    old_umask = os.umask(0)
    try:
        ws = Workspace.open(path)
    finally:
        os.umask(old_umask)
    try:
        ws.import_document(Document.from_text("Seen by Dr Jones."), subject_label="P1")
        wal, shm = Path(f"{path}-wal"), Path(f"{path}-shm")
        assert wal.exists() and shm.exists()
        assert _mode(path) == 0o600
        assert _mode(wal) == 0o600
        assert _mode(shm) == 0o600
    finally:
        ws.close()


@posix_only
def test_leftover_wal_file_with_loose_mode_is_tightened_on_open(tmp_path: Path):
    path = tmp_path / "review.sqlite"
    Workspace.open(path).close()
    shm = Path(f"{path}-shm")
    # Non-empty: SQLite itself only fixes the mode of empty side files.
    shm.write_bytes(bytes(32768))
    shm.chmod(0o644)
    ws = Workspace.open(path)
    try:
        assert _mode(shm) == 0o600
    finally:
        ws.close()


def test_connection_uses_wal_full_sync_foreign_keys_and_busy_timeout(ws: Workspace):
    with ws.session(readonly=True) as session:
        assert session.execute(text("PRAGMA journal_mode")).scalar() == "wal"
        assert session.execute(text("PRAGMA foreign_keys")).scalar() == 1
        assert session.execute(text("PRAGMA synchronous")).scalar() == 2  # FULL
        assert session.execute(text("PRAGMA busy_timeout")).scalar() == 5000
    # WAL is a property of the file: any other program opening it sees it too.
    raw = sqlite3.connect(ws.path)
    try:
        assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    finally:
        raw.close()


def test_foreign_keys_are_enforced(ws: Workspace):
    now = utc_now()
    with pytest.raises(IntegrityError):
        with ws.session() as session:
            session.add(
                SpanRecord(
                    document_id=4242, start=0, end=3, category="NAME", fine="OTHER", score=1.0,
                    source="rules", members_json="[]", state="undecided", current_start=0,
                    current_end=3, current_category="NAME", current_fine="OTHER", created_at=now,
                )
            )


def test_secret_is_created_once_and_kept(tmp_path: Path):
    first = Workspace.open(tmp_path / "a.sqlite")
    secret = first.secret
    first.close()
    again = Workspace.open(tmp_path / "a.sqlite", create=False)
    other = Workspace.open(tmp_path / "b.sqlite")
    try:
        assert len(secret) == 32
        assert again.secret == secret
        assert other.secret != secret
    finally:
        again.close()
        other.close()


def test_missing_workspace_is_not_created_when_create_is_false(tmp_path: Path):
    path = tmp_path / "absent.sqlite"
    with pytest.raises(FileNotFoundError):
        Workspace.open(path, create=False)
    assert not path.exists()


def test_file_that_is_not_sqlite_is_refused_without_quoting_it(tmp_path: Path):
    path = tmp_path / "notes.sqlite"
    path.write_bytes(b"Patient Jane Roe, MRN 1234567 " * 200)
    with pytest.raises(WorkspaceError) as info:
        Workspace.open(path)
    assert "notes.sqlite" in str(info.value)
    assert "Jane" not in str(info.value)


def test_sqlite_file_of_another_program_is_refused_and_left_untouched(tmp_path: Path):
    path = tmp_path / "other.sqlite"
    raw = sqlite3.connect(path)
    raw.execute("CREATE TABLE contacts (name TEXT)")
    raw.commit()
    raw.close()
    with pytest.raises(WorkspaceError, match="not a deid-desktop workspace"):
        Workspace.open(path)
    raw = sqlite3.connect(path)
    try:
        tables = {r[0] for r in raw.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    finally:
        raw.close()
    assert tables == {"contacts"}


def test_workspace_from_a_newer_version_is_refused(tmp_path: Path):
    path = tmp_path / "review.sqlite"
    Workspace.open(path).close()
    raw = sqlite3.connect(path)
    raw.execute("UPDATE alembic_version SET version_num = '9999'")
    raw.commit()
    raw.close()
    with pytest.raises(WorkspaceError, match="newer version"):
        Workspace.open(path)


def test_new_workspace_is_at_the_head_revision_and_matches_the_models(ws: Workspace):
    with ws.session(readonly=True) as session:
        connection = session.connection()
        context = MigrationContext.configure(connection)
        assert context.get_current_revision() == head_revision()
        assert compare_metadata(context, Base.metadata) == []


def test_gui_thread_and_worker_thread_can_write_at_the_same_time(ws: Workspace):
    doc_id = ws.import_document(Document.from_text("Ann Lee met Bob Ray in Leeds. " * 20)).document_id
    run = ws.start_detection_run(config={}, model_versions={}, device="cpu")
    span_ids = ws.save_detections(
        doc_id, run, [Span(i * 30, i * 30 + 7, Category.NAME) for i in range(20)]
    )
    errors: list[BaseException] = []

    def review(ids: list[int], action: DecisionAction) -> None:
        try:
            for _ in range(5):
                for span_id in ids:
                    ws.decide(span_id, action, reviewer="r")
                    ws.list_spans(doc_id)
        except BaseException as exc:  # reported by the main thread below
            errors.append(exc)

    threads = [
        threading.Thread(target=review, args=(span_ids[:10], DecisionAction.ACCEPT)),
        threading.Thread(target=review, args=(span_ids[10:], DecisionAction.REJECT)),
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert len(ws.decisions(document_id=doc_id)) == 100
    states = {s.id: s.state for s in ws.list_spans(doc_id)}
    assert all(states[i] == "accepted" for i in span_ids[:10])
    assert all(states[i] == "rejected" for i in span_ids[10:])


def test_two_programs_writing_one_workspace_wait_for_each_other(tmp_path: Path):
    # Two Workspace objects have separate engines and locks, like the GUI and a CLI batch.
    path = tmp_path / "review.sqlite"
    gui, cli = Workspace.open(path), Workspace.open(path)
    errors: list[BaseException] = []

    def write(ws: Workspace, prefix: str) -> None:
        try:
            for i in range(30):
                ws.set_setting(f"{prefix}{i}", i)
                ws.get_or_create_subject(f"{prefix}-patient-{i}")
        except BaseException as exc:  # reported by the main thread below
            errors.append(exc)

    threads = [threading.Thread(target=write, args=(gui, "g")), threading.Thread(target=write, args=(cli, "c"))]
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert errors == []
        assert len(gui.list_subjects()) == 60
        assert cli.get_setting("g29") == 29 and gui.get_setting("c29") == 29
    finally:
        gui.close()
        cli.close()


def test_a_write_inside_an_open_write_session_fails_at_once_instead_of_hanging(ws: Workspace):
    with pytest.raises(WorkspaceError, match="already open"):
        with ws.session():
            ws.set_setting("reviewer", "ann")
    ws.set_setting("reviewer", "ann")  # the failed attempt left nothing locked
    assert ws.get_setting("reviewer") == "ann"
