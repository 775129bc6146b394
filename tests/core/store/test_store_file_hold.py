"""The workspace never loses a confirmed decision when something in the reviewer's process
opens and closes the database file outside SQLite (a file dialog sniffing file types), which
drops the process's POSIX locks and lets another process delete the live WAL."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from deid_desktop.core.categories import Category
from deid_desktop.core.documents.model import Document
from deid_desktop.core.spans import Span
from deid_desktop.core.store import DecisionAction, Workspace, WorkspaceDisturbed
from deid_desktop.core.store.models import Setting, utc_now

PROJECT_ROOT = Path(__file__).resolve().parents[3]
posix_only = pytest.mark.skipif(os.name == "nt", reason="POSIX advisory locks")

# Another process (the retrain worker, any CLI command) opening the workspace through the
# store API, doing ``sys.argv[2]``, and closing it.
OTHER_PROCESS = """
import sys
from deid_desktop.core.store import Workspace

ws = Workspace.open(sys.argv[1], create=False)
try:
    exec(sys.argv[2])
finally:
    ws.close()
"""


def _in_another_process(path: Path, code: str = "pass") -> str:
    env = dict(os.environ, PYTHONPATH=str(PROJECT_ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    done = subprocess.run(
        [sys.executable, "-c", OTHER_PROCESS, str(path), code],
        capture_output=True, text=True, env=env, cwd=path.parent, timeout=60,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def _stray_open_and_close(path: Path) -> None:
    """What a file dialog does when it sniffs a file's type: an open() and close() that
    SQLite knows nothing about."""
    os.close(os.open(path, os.O_RDONLY))


def _three_spans(ws: Workspace) -> tuple[int, list[int]]:
    doc = ws.import_document(Document.from_text("Ann Lee and Bob Ray saw Cy Dee.")).document_id
    run = ws.start_detection_run(config={}, model_versions={}, device="cpu")
    spans = [Span(0, 7, Category.NAME), Span(12, 19, Category.NAME), Span(24, 30, Category.NAME)]
    return doc, ws.save_detections(doc, run, spans)


def _count_decisions_elsewhere(path: Path, doc: int) -> int:
    return int(_in_another_process(path, f"print(len(ws.decisions(document_id={doc})))"))


@posix_only
@pytest.mark.timeout(120)
def test_decisions_after_a_stray_close_and_another_process_are_all_kept(tmp_path: Path):
    path = tmp_path / "review.sqlite"
    ws = Workspace.open(path)
    try:
        doc, spans = _three_spans(ws)
        first = ws.decide(spans[0], DecisionAction.ACCEPT, reviewer="r")
        _stray_open_and_close(path)
        _in_another_process(path)  # its last close used to delete our live -wal and -shm
        second = ws.decide(spans[1], DecisionAction.REJECT, reviewer="r")
        # A retrain or export started now must see every decision made so far.
        assert _count_decisions_elsewhere(path, doc) == 2
        _in_another_process(path, "ws.set_setting('refit_every', 5)")  # another process writes
        third = ws.decide(spans[2], DecisionAction.ACCEPT, reviewer="r")
        assert _count_decisions_elsewhere(path, doc) == 3
        assert ws.get_setting("refit_every") == 5  # and this window sees its write
    finally:
        ws.close()
    with Workspace.open(path, create=False) as reopened:
        assert {d.id for d in reopened.decisions(document_id=doc)} == {first, second, third}
        assert {s.state for s in reopened.list_spans(doc)} == {"accepted", "rejected"}


class _OpenElsewhere:
    """A process that opens the workspace, waits until told, then closes it: the retrain
    worker still running while the window works."""

    def __init__(self, path: Path) -> None:
        env = dict(os.environ, PYTHONPATH=str(PROJECT_ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
        self.process = subprocess.Popen(
            [sys.executable, "-c", OTHER_PROCESS, str(path), "print('open', flush=True); sys.stdin.readline()"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env, cwd=path.parent,
        )
        assert self.process.stdout.readline().strip() == "open"

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.communicate("\n", timeout=60)
        assert self.process.returncode == 0


@posix_only
@pytest.mark.timeout(120)
def test_a_commit_racing_the_breach_is_either_kept_or_reported_unsaved(tmp_path: Path):
    path = tmp_path / "review.sqlite"
    ws = Workspace.open(path)
    worker = _OpenElsewhere(path)
    refused = None
    try:
        try:
            with ws.session() as session:
                session.add(Setting(key="reviewer_note", value_json='"x"', updated_at=utc_now()))
                session.flush()
                # Locks dropped, then the worker's last close deletes the WAL, while this
                # write is still open.
                _stray_open_and_close(path)
                worker.close()
                assert not Path(f"{path}-wal").exists()
        except WorkspaceDisturbed as exc:
            refused = str(exc)
        # Whatever happened to that write, the next one is kept.
        ws.set_setting("after", 1)
    finally:
        worker.close()
        ws.close()
    stored = _in_another_process(path, "print(ws.get_setting('reviewer_note'), ws.get_setting('after'))").split()
    assert stored[1] == "1"
    if refused is None:
        assert stored[0] == "x"  # reported as saved: it is there
    else:
        assert stored[0] == "None" and "NOT saved" in refused  # reported as not saved


@posix_only
@pytest.mark.timeout(120)
def test_closing_leaves_a_complete_sqlite_file_while_another_process_still_has_it_open(tmp_path: Path):
    path = tmp_path / "review.sqlite"
    with Workspace.open(path) as ws:
        doc, spans = _three_spans(ws)
    worker = _OpenElsewhere(path)  # still has the workspace open when the window closes
    try:
        ws = Workspace.open(path, create=False)
        ids = [ws.decide(s, DecisionAction.ACCEPT, reviewer="r") for s in spans]
        ws.close()
        copy = tmp_path / "copy" / "review.sqlite"
        copy.parent.mkdir()
        shutil.copyfile(path, copy)  # the .sqlite alone, as a backup tool would take it
    finally:
        worker.close()
    with Workspace.open(copy, create=False) as backup:
        assert {d.id for d in backup.decisions(document_id=doc)} == set(ids)


def test_a_healthy_workspace_is_never_reopened(tmp_path: Path, caplog):
    with Workspace.open(tmp_path / "review.sqlite") as ws:
        doc, spans = _three_spans(ws)
        for s in spans:
            ws.decide(s, DecisionAction.ACCEPT, reviewer="r")
        assert len(ws.decisions(document_id=doc)) == 3
    assert "reopening" not in caplog.text
