"""Dropping folders onto the window, the queue's statuses, errors, filters and subjects,
and the PDF pages view."""

from __future__ import annotations

import warnings

import pytest
from PySide6.QtCore import QMimeData, QPoint, QPointF, Qt, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from deid_desktop.core.store import DocStatus
from deid_desktop.gui.queue import DocumentQueueModel

from .conftest import wait_idle
from .samples import LETTER, write_bad_files, write_docx, write_pdf, write_txt

pytestmark = pytest.mark.gui


@pytest.fixture
def dropped_folder(tmp_path):
    root = tmp_path / "cohort"
    write_txt(root / "p001" / "note.txt")
    write_docx(root / "p001" / "letter.docx")
    write_pdf(root / "p002" / "clinic.pdf")
    bad = write_bad_files(root / "p002")
    # Inside a folder a file that is no document (an image here) is counted, not listed;
    # the documents that fail to read keep their error rows.
    del bad["scan.tiff"]
    (root / "p002" / ".DS_Store").write_bytes(b"\x00\x01")
    return root, bad


def drop(window, paths) -> bool:
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(p)) for p in paths])
    with warnings.catch_warnings():
        # PySide marks the only QDragEnterEvent constructor it offers as deprecated.
        warnings.simplefilter("ignore", DeprecationWarning)
        enter = QDragEnterEvent(QPoint(20, 20), Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(window, enter)
    if not enter.isAccepted():
        return False
    event = QDropEvent(QPointF(20, 20), Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(window, event)
    return True


def test_dropped_folder_imports_good_files_and_lists_bad_ones_with_their_error(qtbot, window, workspace, dropped_folder):
    root, bad = dropped_folder
    messages: list[str] = []
    window.statusBar().messageChanged.connect(messages.append)
    assert drop(window, [root])
    wait_idle(qtbot, window)
    rows = {r.name: r for r in workspace.list_documents()}
    assert set(rows) == {"note.txt", "letter.docx", "clinic.pdf", *bad}  # hidden files are not documents
    for name, code in bad.items():
        assert rows[name].status == DocStatus.ERROR and rows[name].error_code == code
    for name in ("note.txt", "letter.docx", "clinic.pdf"):
        assert rows[name].status in (DocStatus.DETECTED, DocStatus.IN_REVIEW)
        assert rows[name].n_spans > 0
    # each subfolder of the dropped folder is one subject
    assert {n: rows[n].subject_label for n in rows} == {
        "note.txt": "p001", "letter.docx": "p001", "clinic.pdf": "p002", **{n: "p002" for n in bad}
    }
    model = window.queue_model
    i = model.row_of(rows["broken.pdf"].id)
    tip = model.index(i, DocumentQueueModel.STATUS).data(Qt.ItemDataRole.ToolTipRole)
    assert "broken.pdf could not be imported" in tip and rows["broken.pdf"].error_reason in tip
    assert model.index(i, DocumentQueueModel.STATUS).data() == "error"
    assert any(f"{len(bad)} could not be read" in m and "1 other file skipped" in m for m in messages)


def test_queue_filters_by_status_subject_and_name_and_sorts(qtbot, window, workspace, dropped_folder):
    root, bad = dropped_folder
    window.import_paths([root])
    wait_idle(qtbot, window)
    q = window.queue

    def shown() -> set[str]:
        return {q.proxy.index(r, 0).data() for r in range(q.proxy.rowCount())}

    q.status_filter.setCurrentIndex(q.status_filter.findData(DocStatus.ERROR))
    assert shown() == set(bad)
    q.status_filter.setCurrentIndex(0)
    q.subject_filter.setCurrentIndex(q.subject_filter.findData("p001"))
    assert shown() == {"note.txt", "letter.docx"}
    q.subject_filter.setCurrentIndex(0)
    QTest.keyClicks(q.search, "clin")
    assert shown() == {"clinic.pdf"}
    q.search.clear()
    q.table.sortByColumn(DocumentQueueModel.STATUS, Qt.SortOrder.AscendingOrder)
    statuses = [q.proxy.index(r, DocumentQueueModel.STATUS).data() for r in range(q.proxy.rowCount())]
    assert statuses[: len(bad)] == ["error"] * len(bad)  # work that needs attention first


def test_an_import_queued_behind_another_leaves_neither_batch_undetected(qtbot, window, workspace, tmp_path):
    # The second drop waits for the first; when the first ends, its documents still go to
    # detection (they were lost once the queued import reset the count they were listed in).
    window.import_paths([write_txt(tmp_path / "first" / "a.txt", LETTER)])
    window.import_paths([write_txt(tmp_path / "second" / "b.txt")])
    wait_idle(qtbot, window)
    statuses = {d.name: DocStatus(d.status) for d in workspace.list_documents()}
    assert set(statuses) == {"a.txt", "b.txt"}
    assert DocStatus.IMPORTED not in statuses.values()


def test_subject_column_is_editable_and_assigns_in_the_workspace(qtbot, window, workspace, tmp_path):
    window.import_paths([write_txt(tmp_path / "a.txt", LETTER)])
    wait_idle(qtbot, window)
    (doc,) = workspace.list_documents()
    model = window.queue_model
    idx = model.index(model.row_of(doc.id), DocumentQueueModel.SUBJECT)
    assert idx.flags() & Qt.ItemFlag.ItemIsEditable
    assert model.setData(idx, "case-17")
    assert workspace.get_document(doc.id).subject_label == "case-17"
    assert window.queue.subject_filter.findData("case-17") >= 0
    window.queue.assign_subject([doc.id], "case-18")
    assert workspace.get_document(doc.id).subject_label == "case-18"


def test_the_subject_column_shows_only_once_a_document_has_a_subject(qtbot, window, workspace, tmp_path):
    """A column of dashes took the room the document names need (names were cut to "disc….pdf")."""
    window.import_paths([write_txt(tmp_path / "a_long_discharge_summary.txt", LETTER)])
    wait_idle(qtbot, window)
    (doc,) = workspace.list_documents()
    q = window.queue
    assert q.table.isColumnHidden(DocumentQueueModel.SUBJECT)
    q.assign_subject([doc.id], "case-17")
    assert not q.table.isColumnHidden(DocumentQueueModel.SUBJECT)


def test_subject_manifest_assigns_subjects_to_imported_documents(qtbot, window, workspace, tmp_path):
    a = write_txt(tmp_path / "in" / "a.txt", LETTER)
    b = write_txt(tmp_path / "in" / "b.txt", LETTER.replace("Tobias", "Tomas"))
    window.import_paths([tmp_path / "in"])
    wait_idle(qtbot, window)
    manifest = tmp_path / "subjects.csv"
    manifest.write_text(f"path,subject\n{a},patient-A\n{b.name},patient-B\nmissing.txt,patient-C\n", encoding="utf-8")
    # relative paths are relative to the manifest, as in the CLI
    (tmp_path / "b.txt").write_text("x", encoding="utf-8")
    window.apply_manifest(manifest)
    subjects = {r.name: r.subject_label for r in workspace.list_documents()}
    assert subjects == {"a.txt": "patient-A", "b.txt": None}
    assert "Assigned subjects to 1 document(s)" in window.statusBar().currentMessage()


def test_manifest_dropped_with_files_sets_their_subjects(qtbot, window, workspace, tmp_path):
    folder = tmp_path / "drop"
    write_txt(folder / "x.txt", LETTER)
    (folder / "subjects.csv").write_text("path,subject\nx.txt,S-9\n", encoding="utf-8")
    assert drop(window, [folder])
    wait_idle(qtbot, window)
    rows = workspace.list_documents()
    assert [(r.name, r.subject_label) for r in rows] == [("x.txt", "S-9")]


def test_pdf_pages_show_boxes_where_the_findings_are(qtbot, window, workspace, tmp_path):
    pdf = write_pdf(tmp_path / "clinic.pdf")
    window.import_paths([pdf])
    wait_idle(qtbot, window)
    (doc,) = workspace.list_documents()
    window.open_document(doc.id)
    pane = window.pane
    assert pane.tabs.isTabEnabled(pane.PAGES_TAB)
    pane.tabs.setCurrentIndex(pane.PAGES_TAB)
    canvas = pane.pages_view.canvas
    qtbot.waitUntil(lambda: len(canvas.images) == 1)
    spans = workspace.list_spans(doc.id)
    assert {b.span_id for b in canvas.boxes} == {s.id for s in spans}
    page = canvas.images[0]
    for b in canvas.boxes:
        r = canvas.box_rect(b)
        assert 0 <= r.left() < r.right() <= canvas.width() and 0 <= r.top() < r.bottom() <= page.height()
    # a box sits on dark (text) pixels of the rendered page
    target = next(s for s in spans if s.text == "Tobias Wren")
    box = next(b for b in canvas.boxes if b.span_id == target.id)
    r = canvas.box_rect(box)
    origin = canvas.page_origin(0)
    dark = sum(
        1
        for x in range(int(r.left() - origin.x()), int(r.right() - origin.x()))
        for y in range(int(r.top()), int(r.bottom()))
        if page.pixelColor(x, y).lightness() < 128
    )
    assert dark > 20
    QTest.mouseClick(canvas, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, r.center().toPoint())
    assert window.controller.current_id == target.id
    assert canvas.current_id == target.id
