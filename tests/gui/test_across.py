"""Review → Findings across documents: the keyword-in-context list, its keys and its bulk
accept, on the real review window."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication
from PySide6.QtTest import QTest

from deid_desktop.core.categories import Category
from deid_desktop.core.documents.model import Document, Segment
from deid_desktop.core.spans import Span
from deid_desktop.gui.across import AcrossModel

from .conftest import wait_idle
from .test_dialogs_fit import assert_fits

pytestmark = pytest.mark.gui

NOTE_A = "Seen today: Ann Grey, 54, at Leeds clinic. Plan: review by Dr Grey in two weeks."
NOTE_B = "Letter for Ann Grey from the Leeds team; her GP is Dr Paul Baker."


def _span(text: str, needle: str, category: Category, nth: int = 0) -> Span:
    start = -1
    for _ in range(nth + 1):
        start = text.index(needle, start + 1)
    return Span(start, start + len(needle), category, score=0.8, source="rules")


@pytest.fixture
def queue(qtbot, window, workspace):
    """Two detected documents of one subject, both naming Ann Grey."""
    wait_idle(qtbot, window)
    ids = []
    for i, text in enumerate((NOTE_A, NOTE_B)):
        doc = Document(text=text, format="txt", path=f"/in/p1/n{i}.txt", segments=[Segment(0, len(text))], meta={}, source_bytes=text.encode())
        ids.append(workspace.import_document(doc, subject_label="P1").document_id)
    run = workspace.start_detection_run(config={}, model_versions={}, device="cpu")
    workspace.save_detections(ids[0], run, [_span(NOTE_A, "Ann Grey", Category.NAME), _span(NOTE_A, "Leeds", Category.LOCATION), _span(NOTE_A, "Grey", Category.NAME, 1)])
    workspace.save_detections(ids[1], run, [_span(NOTE_B, "Ann Grey", Category.NAME), _span(NOTE_B, "Leeds", Category.LOCATION), _span(NOTE_B, "Paul Baker", Category.NAME)])
    window.queue_model.refresh()
    return ids


def _open_list(window, category: Category | None = None, text: str = ""):
    dlg = window.open_across()
    # Its keys are its own while it is the active window, as after Ctrl+Shift+F on a desktop;
    # the offscreen platform activates a window only once it is exposed.
    QTest.qWaitForWindowExposed(dlg)
    dlg.activateWindow()
    QTest.qWaitForWindowActive(dlg)
    if category is not None:
        dlg.category.setCurrentIndex(dlg.category.findData(category))
    dlg.search.setText(text)
    dlg.refresh()
    return dlg


def _row_index(dlg, doc_id: int, text: str) -> int:
    return next(i for i, r in enumerate(dlg.model.rows) if r.document_id == doc_id and r.text == text)


def _press(dlg, key) -> None:
    dlg.table.setFocus()
    QTest.keyClick(dlg.table, key)


def _state(workspace, doc_id: int, text: str) -> str:
    return next(s.state for s in workspace.list_spans(doc_id) if s.text == text)


def test_name_filter_lists_names_of_both_documents_in_context(window, queue):
    a, b = queue
    dlg = _open_list(window, Category.NAME)
    assert QApplication.activeWindow() is dlg
    rows = dlg.model.rows
    assert {(r.document_id, r.text) for r in rows} == {(a, "Ann Grey"), (a, "Grey"), (b, "Ann Grey"), (b, "Paul Baker")}
    i = _row_index(dlg, b, "Paul Baker")
    shown = [dlg.model.data(dlg.model.index(i, c)) for c in range(dlg.model.columnCount())]
    assert shown[AcrossModel.DOCUMENT] == "n1.txt"
    assert shown[AcrossModel.LEFT] == " Grey from the Leeds team; her GP is Dr "  # 40 characters
    assert shown[AcrossModel.FINDING] == "Paul Baker" and shown[AcrossModel.RIGHT] == "."
    assert dlg.model.data(dlg.model.index(i, AcrossModel.LEFT), Qt.ItemDataRole.TextAlignmentRole) & Qt.AlignmentFlag.AlignRight
    assert dlg.model.data(dlg.model.index(i, AcrossModel.FINDING), Qt.ItemDataRole.FontRole).bold()
    assert "2 document(s)" in dlg.count.text()


def test_a_accepts_the_row_and_the_open_document_shows_it(window, workspace, queue):
    a, b = queue
    window.open_document(a)
    dlg = _open_list(window, Category.NAME)
    dlg.table.selectRow(_row_index(dlg, a, "Grey"))
    _press(dlg, Qt.Key.Key_A)
    assert _state(workspace, a, "Grey") == "accepted"
    assert _state(workspace, a, "Ann Grey") == "undecided"  # the review window's A did not fire too
    assert next(s for s in window.controller.spans if s.text == "Grey").state == "accepted"
    i = _row_index(dlg, a, "Grey")
    assert dlg.model.data(dlg.model.index(i, AcrossModel.STATE)) == "accepted"
    assert dlg.table.currentIndex().row() == i + 1  # on to the next row
    # the same undo stack as the document view: Ctrl+Z in the list takes it back
    QTest.keyClick(dlg.table, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert _state(workspace, a, "Grey") == "undecided"
    assert dlg.model.data(dlg.model.index(i, AcrossModel.STATE)) == "undecided"
    assert next(s for s in window.controller.spans if s.text == "Grey").state == "undecided"


def test_r_rejects_and_a_digit_relabels_in_another_document(window, workspace, queue):
    a, b = queue
    window.open_document(a)
    dlg = _open_list(window, Category.NAME)
    dlg.table.selectRow(_row_index(dlg, b, "Paul Baker"))
    _press(dlg, Qt.Key.Key_R)
    assert _state(workspace, b, "Paul Baker") == "rejected"
    dlg.table.selectRow(_row_index(dlg, a, "Grey"))
    _press(dlg, Qt.Key.Key_5)  # 5 is ORGANIZATION, as in the document view
    grey = next(s for s in workspace.list_spans(a) if s.text == "Grey")
    assert grey.category is Category.ORGANIZATION
    assert window.controller.document_id == a  # deciding in the list opened nothing


def test_accept_all_identical_accepts_both_documents_as_one_step(window, workspace, queue):
    a, b = queue
    window.open_document(b)
    dlg = _open_list(window, text="ann grey")
    assert {r.document_id for r in dlg.model.rows} == {a, b}
    dlg.table.selectRow(0)
    depth = window.controller.undo_stack.count()
    dlg.identical_button.click()
    assert _state(workspace, a, "Ann Grey") == "accepted" and _state(workspace, b, "Ann Grey") == "accepted"
    assert _state(workspace, a, "Grey") == "undecided"  # another text is not identical
    assert next(s for s in window.controller.spans if s.text == "Ann Grey").state == "accepted"
    assert {dlg.model.data(dlg.model.index(i, AcrossModel.STATE)) for i in range(2)} == {"accepted"}
    assert window.controller.undo_stack.count() == depth + 1
    window.controller.undo_stack.undo()
    assert _state(workspace, a, "Ann Grey") == "undecided" and _state(workspace, b, "Ann Grey") == "undecided"


def test_enter_opens_the_document_with_the_finding_selected(window, workspace, queue):
    a, b = queue
    window.open_document(a)
    dlg = _open_list(window, Category.NAME)
    i = _row_index(dlg, b, "Paul Baker")
    dlg.table.selectRow(i)
    _press(dlg, Qt.Key.Key_Return)
    assert window.controller.document_id == b
    assert window.controller.current is not None and window.controller.current.text == "Paul Baker"
    assert window.findings.model.spans[window.findings.model.row_of(window.controller.current_id)].text == "Paul Baker"


def test_subject_scope_follows_the_open_document(window, workspace, queue):
    a, b = queue
    doc = Document(text="Dr Paul Baker again.", format="txt", path="/in/p2/x.txt", segments=[Segment(0, 20)], meta={}, source_bytes=b"x")
    other = workspace.import_document(doc, subject_label="P2").document_id
    run = workspace.start_detection_run(config={}, model_versions={}, device="cpu")
    workspace.save_detections(other, run, [Span(3, 13, Category.NAME, score=0.9, source="rules")])
    window.open_document(other)
    dlg = _open_list(window, text="Paul Baker")
    assert {r.document_id for r in dlg.model.rows} == {b, other}
    dlg.scope.setCurrentIndex(dlg.scope.findData("subject"))
    assert {r.document_id for r in dlg.model.rows} == {other}


def test_the_list_fits_a_small_screen_and_has_a_shortcut(window, queue):
    window.actions_by_id["review_across"].trigger()
    dlg = window.across_dialog
    assert dlg is not None and dlg.isVisible()
    assert_fits(dlg)
    dlg.close()


def test_after_switching_workspaces_a_key_never_decides_a_finding_of_the_other_file(window, workspace, queue, tmp_path):
    from deid_desktop.core.store import Workspace

    other_path = tmp_path / "other.sqlite"
    with Workspace.open(other_path) as other:
        doc = Document(text=NOTE_A, format="txt", path="/in/q/z.txt", segments=[Segment(0, len(NOTE_A))], meta={}, source_bytes=b"z")
        z = other.import_document(doc).document_id
        run = other.start_detection_run(config={}, model_versions={}, device="cpu")
        # the same span ids as the first workspace's first document
        other.save_detections(z, run, [_span(NOTE_A, "Ann Grey", Category.NAME), _span(NOTE_A, "Leeds", Category.LOCATION), _span(NOTE_A, "Grey", Category.NAME, 1)])
    dlg = _open_list(window, Category.NAME)
    dlg.table.selectRow(0)
    assert window.switch_workspace(other_path)
    _press(dlg, Qt.Key.Key_A)
    assert [s.state for s in window.workspace.list_spans(z)] == ["undecided"] * 3
    assert {r.document_id for r in dlg.model.rows} == {z}  # the list was read again from the open file
