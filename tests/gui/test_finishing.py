"""Ctrl+Enter with findings still undecided asks before marking the document reviewed."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QMessageBox

from deid_desktop.core.store import DecisionAction, DocStatus

from .conftest import answer_undecided, wait_idle

pytestmark = pytest.mark.gui
CTRL = Qt.KeyboardModifier.ControlModifier


@pytest.fixture
def opened(qtbot, window, workspace, note_file):
    window.import_paths([note_file])
    wait_idle(qtbot, window)
    (doc,) = workspace.list_documents()
    window.open_document(doc.id)
    window.pane.text_view.setFocus()
    QTest.keyClick(window.pane.text_view, Qt.Key.Key_A)  # one finding decided, the rest not
    return doc.id


def _question(window) -> QMessageBox:
    (box,) = [b for b in window.findChildren(QMessageBox, "undecidedQuestion") if b.isVisible()]
    return box


def test_ctrl_enter_asks_and_accept_all_records_each_acceptance(window, workspace, opened):
    n = sum(1 for s in workspace.list_spans(opened) if s.state == "undecided")
    assert n >= 5
    QTest.keyClick(window.pane.text_view, Qt.Key.Key_Return, CTRL)
    assert f"{n:,} findings are undecided" in _question(window).text()
    assert workspace.get_document(opened).status == DocStatus.IN_REVIEW  # nothing happened yet
    assert answer_undecided(window, "accept_all")
    assert workspace.get_document(opened).status == DocStatus.REVIEWED
    assert {s.state for s in workspace.list_spans(opened)} == {"accepted"}
    accepts = [d for d in workspace.decisions(document_id=opened) if d.action == DecisionAction.ACCEPT]
    assert len(accepts) == n + 1 and len({d.batch for d in accepts[1:]}) == 1  # one batch, in the log
    assert "Accepted" in window.statusBar().currentMessage() or "reviewed" in window.statusBar().currentMessage()
    window.controller.undo_stack.undo()  # one step takes back both
    assert workspace.get_document(opened).status == DocStatus.IN_REVIEW
    assert sum(1 for s in workspace.list_spans(opened) if s.state == "undecided") == n


def test_review_them_goes_to_an_undecided_finding_and_cancel_changes_nothing(window, workspace, opened):
    log = workspace.decisions(document_id=opened)
    QTest.keyClick(window.pane.text_view, Qt.Key.Key_Return, CTRL)
    assert answer_undecided(window, "review")
    assert window.controller.current.state == "undecided"
    assert "to decide" in window.statusBar().currentMessage()
    QTest.keyClick(window.pane.text_view, Qt.Key.Key_Return, CTRL)
    assert answer_undecided(window, "cancel")
    assert workspace.get_document(opened).status == DocStatus.IN_REVIEW
    assert workspace.decisions(document_id=opened) == log


def test_no_question_when_every_finding_is_decided(window, workspace, opened):
    QTest.keyClick(window.pane.text_view, Qt.Key.Key_A, Qt.KeyboardModifier.ShiftModifier)
    QTest.keyClick(window.pane.text_view, Qt.Key.Key_Return, CTRL)
    assert not _visible(window)
    assert workspace.get_document(opened).status == DocStatus.REVIEWED


def _visible(window) -> bool:
    return any(b.isVisible() for b in window.findChildren(QMessageBox, "undecidedQuestion"))
