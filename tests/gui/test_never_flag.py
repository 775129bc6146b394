""""Never flag this again" on a known name, or on text accepted as PHI elsewhere, asks first
and offers this document only; other text goes to the workspace's allow list as before."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QMessageBox, QPushButton

from deid_desktop.core.learn.term_lists import list_terms

from .conftest import wait_idle
from .samples import write_txt

pytestmark = pytest.mark.gui
SHIFT = Qt.KeyboardModifier.ShiftModifier


def _question(window) -> QMessageBox:
    (box,) = [b for b in window.findChildren(QMessageBox, "neverFlagQuestion") if b.isVisible()]
    return box


def _shift_r_on(window, workspace, doc_id, text):
    span = next(s for s in workspace.list_spans(doc_id) if s.text == text)
    window.controller.select(span.id)
    window.pane.text_view.setFocus()
    QTest.keyClick(window.pane.text_view, Qt.Key.Key_R, SHIFT)
    return span


@pytest.fixture
def note(qtbot, window, workspace, note_file):
    window.import_paths([note_file])
    wait_idle(qtbot, window)
    (doc,) = workspace.list_documents()
    window.open_document(doc.id)
    return doc.id


def test_a_surname_asks_and_defaults_to_this_document(window, workspace, note):
    span = _shift_r_on(window, workspace, note, "Okafor")
    box = _question(window)
    assert "“Okafor” is a name in the name lists" in box.text()
    assert box.defaultButton().objectName() == "document"
    assert list_terms(workspace, kind="allow") == []  # nothing applied before the answer
    box.defaultButton().click()
    (term,) = list_terms(workspace, kind="allow")
    assert (term.term, term.scope, term.scope_id) == ("Okafor", "document", str(note))
    assert next(s for s in workspace.list_spans(note) if s.id == span.id).state == "rejected"
    assert "in this document" in window.statusBar().currentMessage()


def test_the_reviewer_may_still_choose_the_whole_workspace_or_cancel(window, workspace, note):
    _shift_r_on(window, workspace, note, "Okafor")
    _question(window).findChild(QPushButton, "cancel").click()
    assert list_terms(workspace, kind="allow") == []
    _shift_r_on(window, workspace, note, "Okafor")
    _question(window).findChild(QPushButton, "workspace").click()
    assert [(t.term, t.scope) for t in list_terms(workspace, kind="allow")] == [("Okafor", "workspace")]


def test_text_accepted_in_another_document_asks(qtbot, window, workspace, note, tmp_path):
    mrn = next(s for s in workspace.list_spans(note) if s.text == "44172290")
    window.controller.select(mrn.id)
    window.controller.accept()
    window.import_paths([write_txt(tmp_path / "in" / "referral.txt", "Referral\nMRN: 44172290\nPlease review.\n")])
    wait_idle(qtbot, window)
    other = next(d for d in workspace.list_documents() if d.name == "referral.txt")
    window.open_document(other.id)
    _shift_r_on(window, workspace, other.id, "44172290")
    assert "accepted as PHI in 1 other document" in _question(window).text()


def test_ordinary_text_goes_to_the_workspace_list_without_a_question(window, workspace, note):
    _shift_r_on(window, workspace, note, "teacher")
    assert not [b for b in window.findChildren(QMessageBox, "neverFlagQuestion") if b.isVisible()]
    assert [(t.term, t.scope) for t in list_terms(workspace, kind="allow")] == [("teacher", "workspace")]
