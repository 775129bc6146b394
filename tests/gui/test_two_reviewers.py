"""Two reviewers in the window: the second one starts from the detector's findings, the
adjudication window is driven from the keyboard, and export warns before releasing a
document whose two reviews are not adjudicated."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from deid_desktop.core.store import DecisionAction

from .conftest import wait_idle

pytestmark = pytest.mark.gui


def _open_note(qtbot, window, workspace, note_file) -> int:
    window.import_paths([note_file])
    wait_idle(qtbot, window)
    doc_id = workspace.list_documents()[0].id
    window.open_document(doc_id)
    return doc_id


def _switch_reviewer(window, name: str) -> None:
    window.settings.reviewer = name
    window.controller.reviewer = name
    window.controller.reload()
    window._update_reviewer_label()


def test_second_reviewer_sees_the_findings_not_the_first_review(qtbot, window, workspace, note_file):
    doc_id = _open_note(qtbot, window, workspace, note_file)
    c = window.controller
    assert window.reviewer_label.text() == "Reviewer: tester"
    c.select(c.spans[0].id)
    c.reject()
    c.accept_remaining()
    assert all(s.state != "undecided" for s in c.spans)
    window.actions_by_id["mark_double_review"].trigger()
    window.actions_by_id["mark_reviewed"].trigger()
    QTest.qWait(50)

    _switch_reviewer(window, "bob")
    window.open_document(doc_id)
    assert window.reviewer_label.text() == "Reviewer: bob · second review"
    assert c.spans and all(s.state == "undecided" for s in c.spans)
    shown = window.pane.text_view.toPlainText()
    assert shown == c.text  # the same document, only the decisions differ
    c.select(c.spans[0].id)
    c.accept()
    # Bob's acceptance is his: the first review keeps its rejection.
    assert c.span(c.spans[0].id).state == "accepted"
    assert workspace.list_spans(doc_id, reviewer="tester")[0].state == "rejected"


def _reviewed_twice(workspace, note_file) -> int:
    from deid_desktop.core.documents.model import Document
    from deid_desktop.core.spans import Span
    from deid_desktop.core.categories import Category

    text = note_file.read_text(encoding="utf-8")
    doc = workspace.import_document(Document.from_text(text)).document_id
    run = workspace.start_detection_run(config={}, model_versions={}, device="cpu")
    first = text.index("Patient")
    ids = workspace.save_detections(doc, run, [Span(first, first + 7, Category.NAME), Span(0, 4, Category.ID)])
    workspace.mark_double_review([doc], marked_by="lead")
    workspace.decide(ids[0], DecisionAction.REJECT, reviewer="ann")
    workspace.finish_review(doc, reviewer="ann")
    workspace.decide(ids[1], DecisionAction.REJECT, reviewer="bob")
    workspace.finish_review(doc, reviewer="bob")
    return doc


def test_adjudication_window_at_keyboard_speed(qtbot, window, workspace, note_file):
    doc = _reviewed_twice(workspace, note_file)
    assert len(workspace.adjudication(doc).disagreements) == 2
    window.actions_by_id["adjudicate"].trigger()
    w = window.adjudication_window
    qtbot.waitExposed(w)
    w.activateWindow()
    qtbot.waitUntil(w.isActiveWindow)
    assert "0 of 2" in w.progress.text()
    assert "disagreement 1 of 2" in w.progress_label.text()
    assert "ann" in w.left_title.text() and "bob" in w.right_title.text()
    QTest.keyClick(w, Qt.Key.Key_Right)  # keep bob's: the ID at 0..4 stays rejected
    assert "1 of 2" in w.progress.text()
    assert "disagreement 2 of 2" in w.progress_label.text()  # moved on by itself
    QTest.keyClick(w, Qt.Key.Key_K)
    assert "disagreement 1 of 2" in w.progress_label.text()
    assert "kept the right review" in w.choice_label.text()
    QTest.keyClick(w, Qt.Key.Key_J)
    QTest.keyClick(w, Qt.Key.Key_Left)  # keep ann's: "Patient" is not a name
    assert "2 of 2" in w.progress.text()
    assert workspace.awaiting_adjudication([doc]) == []
    assert workspace.final_spans(doc) == []  # the adjudicated truth: both findings rejected
    assert workspace.adjudicators(doc) == ["tester"]


def test_export_warns_before_releasing_an_unadjudicated_document(qtbot, monkeypatch, tmp_path, window, workspace, note_file):
    from deid_desktop.gui import export_dialog

    doc = _reviewed_twice(workspace, note_file)
    asked: list[int] = []
    monkeypatch.setattr(export_dialog, "confirm_unadjudicated", lambda parent, n: asked.append(n) or False)
    dlg = window.open_export_dialog()
    dlg.folder.edit.setText(str(tmp_path / "out"))
    assert dlg.start() is False
    assert asked == [1]
    assert "await adjudication" in dlg.notice.text()
    for d in workspace.adjudication(doc).disagreements:
        from deid_desktop.core.adjudication import Choice

        workspace.adjudicate(doc, d, Choice.FIRST, adjudicator="cy")
    assert dlg.start() is True
    assert asked == [1]  # adjudicated: no question
    qtbot.waitUntil(lambda: not dlg.running, timeout=60_000)


@pytest.mark.parametrize("answer, chosen", [("Ana Reviewer", True), (None, False)])
def test_first_start_asks_for_the_reviewer_name_and_keeps_it(qtbot, monkeypatch, tmp_path, answer, chosen):
    from PySide6.QtCore import QSettings, QTimer
    from PySide6.QtWidgets import QApplication, QInputDialog, QLineEdit

    from deid_desktop.gui.settings import REVIEWER_ENV, AppSettings, ask_reviewer_name

    monkeypatch.delenv(REVIEWER_ENV, raising=False)
    ini = str(tmp_path / "settings.ini")
    fresh = AppSettings(QSettings(ini, QSettings.Format.IniFormat))
    assert not fresh.reviewer_chosen  # a first start: the app will ask

    def respond():
        dialog = QApplication.activeModalWidget()
        assert isinstance(dialog, QInputDialog)
        if answer is None:
            dialog.reject()
            return
        dialog.findChild(QLineEdit).setText(answer)
        dialog.accept()

    QTimer.singleShot(200, respond)
    assert ask_reviewer_name(fresh) is chosen
    again = AppSettings(QSettings(ini, QSettings.Format.IniFormat))  # the next start
    assert again.reviewer_chosen is chosen
    if chosen:
        assert again.reviewer == answer
