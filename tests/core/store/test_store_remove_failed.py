"""A failed import can be taken off the queue; imported documents cannot be removed."""

from __future__ import annotations

from pathlib import Path

import pytest

from deid_desktop.core.documents.model import Document, Segment
from deid_desktop.core.store import DocStatus, Workspace, WorkspaceError


@pytest.fixture
def ws(tmp_path: Path):
    workspace = Workspace.open(tmp_path / "review.sqlite")
    yield workspace
    workspace.close()


def _txt(text: str, path: str) -> Document:
    return Document(
        text=text, format="txt", path=path, segments=[Segment(0, len(text))],
        meta={"encoding": "utf-8", "newline": "\n"}, source_bytes=text.encode("utf-8"),
    )


def test_a_failed_import_is_removed_and_a_later_version_keeps_its_history(ws: Workspace):
    first = ws.import_document(_txt("Seen today.", "/in/note.txt")).document_id
    failed = ws.record_import_error("/in/note.txt", "corrupt", "the file is damaged")
    later = ws.import_document(_txt("Seen again today.", "/in/note.txt"))
    assert later.previous_id == failed
    ws.remove_failed_import(failed)
    assert [d.id for d in ws.list_documents()] == [first, later.document_id]
    assert ws.get_document(later.document_id).previous_id == first
    assert all(d.status != DocStatus.ERROR for d in ws.list_documents())


def test_an_imported_document_is_never_removed(ws: Workspace):
    doc = ws.import_document(_txt("Seen today.", "/in/note.txt")).document_id
    with pytest.raises(WorkspaceError, match="only a failed import can be removed"):
        ws.remove_failed_import(doc)
    assert [d.id for d in ws.list_documents()] == [doc]
