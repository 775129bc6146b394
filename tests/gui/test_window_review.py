"""Reviewing with the keyboard in the real window: import a real file, wait for background
detection, press keys, check the workspace rows and the highlights drawn in the text."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QItemSelectionModel, Qt
from PySide6.QtGui import QColor, QTextCharFormat, QTextCursor
from PySide6.QtTest import QTest

from deid_desktop.core.categories import Category
from deid_desktop.core.store import DecisionAction, DocStatus
from deid_desktop.gui.document_view import underline_style
from deid_desktop.gui.palette import CATEGORY_COLOURS, REJECTED_TEXT
from deid_desktop.gui.shortcuts import SHORTCUTS

from .conftest import wait_idle
from .samples import CLINICAL_NOTE

pytestmark = pytest.mark.gui


@pytest.fixture
def reviewing(qtbot, window, workspace, note_file):
    window.import_paths([note_file])
    wait_idle(qtbot, window)
    (doc,) = workspace.list_documents()
    assert window.controller.document_id == doc.id  # opened as soon as it was detected
    window.queue.table.selectRow(0)  # clicking it in the queue keeps it open
    assert window.controller.document_id == doc.id
    window.pane.text_view.setFocus()
    return doc.id


def _span(workspace, doc_id, text):
    return next(s for s in workspace.list_spans(doc_id) if s.text == text)


def _press(view, key, modifier=Qt.KeyboardModifier.NoModifier):
    QTest.keyClick(view, key, modifier)


def test_detection_runs_in_the_background_and_fills_queue_and_findings(window, workspace, reviewing):
    row = workspace.get_document(reviewing)
    assert row.n_spans >= 10 and row.status == DocStatus.IN_REVIEW
    assert window.detector_label.text().startswith("rules only")
    assert window.findings.model.rowCount() == row.n_spans
    assert window.queue_model.rows[0].n_undecided == row.n_spans
    assert window.statusBar().currentMessage().startswith("Detected PHI in 1 document(s)")
    assert workspace.list_spans(reviewing)[0].detection_run_id is not None
    assert not window.progress.isVisible() and not window.cancel_button.isVisible()


def test_keyboard_review_accept_reject_relabel_undo_redo(window, workspace, reviewing):
    view = window.pane.text_view
    c = window.controller
    assert c.current.text == "Margaret Okafor"
    start = c.current.start
    _, _, fmt = view.highlight_at(start)
    assert fmt.underlineStyle() == underline_style(Category.NAME)  # undecided look: the category's underline

    _press(view, Qt.Key.Key_A)
    assert _span(workspace, reviewing, "Margaret Okafor").state == "accepted"
    _, _, fmt = view.highlight_at(start)
    assert fmt.background().color() == QColor(CATEGORY_COLOURS[Category.NAME])  # solid fill
    assert fmt.underlineStyle() == QTextCharFormat.UnderlineStyle.NoUnderline
    assert c.current.text == "44172290"  # moved on to the next undecided finding

    _press(view, Qt.Key.Key_R)
    rejected = _span(workspace, reviewing, "44172290")
    assert rejected.state == "rejected"
    _, _, fmt = view.highlight_at(rejected.start)
    assert fmt.fontStrikeOut() and fmt.foreground().color() == QColor(REJECTED_TEXT)

    assert c.current.text == "03/14/2021"
    _press(view, Qt.Key.Key_7)  # 7 = ID
    relabelled = _span(workspace, reviewing, "03/14/2021")
    assert (relabelled.category, relabelled.state) == (Category.ID, "accepted")
    _, _, fmt = view.highlight_at(relabelled.start)
    assert fmt.background().color() == QColor(CATEGORY_COLOURS[Category.ID])

    _press(view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    back = _span(workspace, reviewing, "03/14/2021")
    assert (back.category, back.state) == (Category.DATE, "undecided")
    _press(view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert _span(workspace, reviewing, "03/14/2021").category == Category.ID
    log = [d.action for d in workspace.decisions(document_id=reviewing)]
    assert log == [DecisionAction.ACCEPT, DecisionAction.REJECT, DecisionAction.RELABEL, DecisionAction.UNDO, DecisionAction.RELABEL]


def test_delete_rejects_and_jk_navigate(window, workspace, reviewing):
    view = window.pane.text_view
    c = window.controller
    _press(view, Qt.Key.Key_J)
    assert c.current.text == "44172290"
    _press(view, Qt.Key.Key_K)
    assert c.current.text == "Margaret Okafor"
    _press(view, Qt.Key.Key_N)
    _press(view, Qt.Key.Key_Delete)
    assert _span(workspace, reviewing, "44172290").state == "rejected"
    _press(view, Qt.Key.Key_P)
    assert c.current.text == "44172290"


def test_ctrl_shift_a_accepts_the_rest_of_one_category(window, workspace, reviewing):
    view = window.pane.text_view
    c = window.controller
    c.select(_span(workspace, reviewing, "03/14/2021").id)
    _press(view, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    spans = workspace.list_spans(reviewing)
    assert {s.state for s in spans if s.category == Category.DATE} == {"accepted"}
    assert {s.state for s in spans if s.category != Category.DATE} == {"undecided"}


def test_selecting_missed_text_and_pressing_a_number_adds_a_span(window, workspace, reviewing):
    view = window.pane.text_view
    pos = CLINICAL_NOTE.index("Okafor improved")
    cur = view.textCursor()
    cur.setPosition(pos)
    view.setTextCursor(cur)
    for _ in range(len("Okafor")):
        _press(view, Qt.Key.Key_Right, Qt.KeyboardModifier.ShiftModifier)
    assert view.selected_range() == (pos, pos + 6)
    _press(view, Qt.Key.Key_1)
    added = [s for s in workspace.list_spans(reviewing) if s.state == "added"]
    assert [(s.start, s.end, s.category) for s in added] == [(pos, pos + 6, Category.NAME)]
    _, _, fmt = view.highlight_at(pos)
    assert fmt.background().color() == QColor(CATEGORY_COLOURS[Category.NAME])
    assert window.controller.current.id == added[0].id
    _press(view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert not [s for s in workspace.list_spans(reviewing) if s.state == "added"]
    assert view.highlight_at(pos) is None


def test_brackets_widen_and_shrink_the_span(window, workspace, reviewing):
    view = window.pane.text_view
    c = window.controller
    c.select(next(s.id for s in c.spans if s.text == "Okafor"))
    _press(view, Qt.Key.Key_BracketLeft)
    assert c.current.text == "Mrs. Okafor"
    _press(view, Qt.Key.Key_BraceLeft)  # "{", typed as Shift+[
    assert c.current.text == "Okafor"
    _press(view, Qt.Key.Key_BracketRight)
    assert c.current.text == "Okafor is"
    _press(view, Qt.Key.Key_BraceRight)  # "}"
    assert c.current.text == "Okafor"
    assert [d.action for d in workspace.decisions(document_id=reviewing)] == [DecisionAction.RESIZE] * 4


def test_accept_all_identical_is_one_step_and_reported(window, workspace, reviewing):
    view = window.pane.text_view
    c = window.controller
    c.select(next(s.id for s in c.spans if s.text == "Okafor"))
    _press(view, Qt.Key.Key_I, Qt.KeyboardModifier.ControlModifier)
    okafors = [s for s in workspace.list_spans(reviewing) if s.text == "Okafor"]
    assert len(okafors) == 3 and {s.state for s in okafors} <= {"accepted", "added"}
    assert "Accepted 3 identical occurrence(s)" in window.statusBar().currentMessage()
    batches = {d.batch for d in workspace.decisions(document_id=reviewing)}
    assert len(batches) == 1
    _press(view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert [s.state for s in workspace.list_spans(reviewing) if s.text == "Okafor"] == ["undecided"]


def test_shift_a_accepts_the_rest_and_ctrl_enter_marks_reviewed(window, workspace, reviewing):
    view = window.pane.text_view
    _press(view, Qt.Key.Key_A, Qt.KeyboardModifier.ShiftModifier)
    assert {s.state for s in workspace.list_spans(reviewing)} == {"accepted"}
    assert window.queue_model.rows[0].n_undecided == 0
    _press(view, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    assert workspace.get_document(reviewing).status == DocStatus.REVIEWED
    status_cell = window.queue_model.index(0, window.queue_model.STATUS).data()
    assert status_cell == "reviewed"


def test_clicking_a_highlight_selects_that_finding(qtbot, window, workspace, reviewing):
    view = window.pane.text_view
    target = _span(workspace, reviewing, "(617) 555-0142")
    view.scroll_to(target.start, target.end)
    rect = view.span_rects(target.start, target.end)[0]
    QTest.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, rect.center().toPoint())
    assert window.controller.current_id == target.id
    row = window.findings.table.selectionModel().currentIndex()
    assert row.data(Qt.ItemDataRole.UserRole) == target.id


def test_findings_panel_sorts_and_selecting_a_row_scrolls_the_text(window, workspace, reviewing):
    table = window.findings.table
    table.sortByColumn(3, Qt.SortOrder.DescendingOrder)  # score
    proxy = window.findings.proxy
    scores = [float(proxy.index(r, 3).data()) for r in range(proxy.rowCount())]
    assert scores == sorted(scores, reverse=True)
    table.sortByColumn(0, Qt.SortOrder.AscendingOrder)  # category
    cats = [proxy.index(r, 0).data(Qt.ItemDataRole.UserRole + 1) for r in range(proxy.rowCount())]
    assert cats == sorted(cats)
    target = _span(workspace, reviewing, "04/02/2021")
    row = next(r for r in range(proxy.rowCount()) if proxy.index(r, 0).data(Qt.ItemDataRole.UserRole) == target.id)
    table.selectionModel().setCurrentIndex(proxy.index(row, 0), QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows)
    assert window.controller.current_id == target.id
    view = window.pane.text_view
    assert view.positions.to_text(view.textCursor().position()) == target.start
    assert view.cursorRect().intersects(view.viewport().rect())


def test_every_shortcut_is_documented_in_help_and_tooltips(window):
    dlg = window.show_shortcuts()
    from PySide6.QtWidgets import QTableWidget

    table = dlg.findChild(QTableWidget)
    keys_shown = {table.item(r, 1).text() for r in range(table.rowCount())}
    for s in SHORTCUTS:
        assert " / ".join(s.keys) in keys_shown
        action = window.actions_by_id[s.action]
        assert s.keys[0] in action.toolTip()
        assert [k.toString() for k in action.shortcuts()][0] == s.keys[0].replace("Return", "Return")
    dlg.close()


def test_opening_another_document_from_the_queue(qtbot, window, workspace, reviewing, tmp_path):
    from .samples import LETTER, write_txt

    window.import_paths([write_txt(tmp_path / "in" / "letter.txt", LETTER)])
    wait_idle(qtbot, window)
    other = next(d for d in workspace.list_documents() if d.name == "letter.txt")
    assert other.status == DocStatus.DETECTED
    _press(window.pane.text_view, Qt.Key.Key_PageUp, Qt.KeyboardModifier.ControlModifier)  # letter.txt sorts first
    assert window.controller.document_id == other.id
    assert workspace.get_document(other.id).status == DocStatus.IN_REVIEW
    assert "Tobias Wren" in window.pane.text_view.toPlainText()


def test_highlights_line_up_in_crlf_text_with_emoji(qtbot, window, workspace, tmp_path):
    text = "Clinic note 😀\r\nPatient: Margaret Okafor\r\nSeen 03/14/2021 by Dr. Samuel Lindqvist.\r\nOkafor agreed.\r\n"
    path = tmp_path / "crlf.txt"
    path.write_bytes(text.encode("utf-8"))
    window.import_paths([path])
    wait_idle(qtbot, window)
    (doc,) = workspace.list_documents()
    window.open_document(doc.id)
    view = window.pane.text_view
    spans = workspace.list_spans(doc.id)
    assert spans
    for s in spans:
        start, end, _ = view.highlight_at(s.start)
        assert (start, end) == (s.start, s.end)
        cur = QTextCursor(view.document())
        cur.setPosition(view.positions.to_view(s.start))
        cur.setPosition(view.positions.to_view(s.end), QTextCursor.MoveMode.KeepAnchor)
        assert cur.selectedText() == s.text  # the highlight covers exactly the span's text
    # a keyboard selection on the last line adds exactly the selected word
    pos = text.rindex("Okafor")
    cur = QTextCursor(view.document())
    cur.setPosition(view.positions.to_view(pos))
    cur.setPosition(view.positions.to_view(pos + 6), QTextCursor.MoveMode.KeepAnchor)
    view.setTextCursor(cur)
    view.setFocus()
    _press(view, Qt.Key.Key_1)
    added = [s for s in workspace.list_spans(doc.id) if s.state == "added"]
    assert [(s.start, s.end, s.text) for s in added] == [(pos, pos + 6, "Okafor")]


def test_position_map_round_trips():
    from deid_desktop.gui.positions import PositionMap

    text = "a\r\nb😀c\r\n\r\nd"
    m = PositionMap(text)
    assert [m.to_view(i) for i in range(len(text) + 1)] == [0, 1, 2, 2, 3, 5, 6, 7, 7, 8, 8, 9]
    for i in range(len(text) + 1):
        if text[i - 1 : i + 1] != "\r\n":
            assert m.to_text(m.to_view(i)) == i
    assert PositionMap("plain").identity


def test_status_bar_names_the_transformer_member_and_its_device(qtbot, workspace, settings, tmp_path, note_file):
    import torch

    from deid_desktop.core.models.tiny import build_tiny_model
    from deid_desktop.gui.main_window import MainWindow

    model = build_tiny_model(tmp_path / "tiny-model", hidden=32, layers=1, heads=2)
    config = tmp_path / "ensemble.toml"
    config.write_text(
        '[ensemble]\nstrategy = "union"\n\n[[member]]\nname = "rules"\ntype = "rules"\n\n'
        f'[[member]]\nname = "tiny"\ntype = "transformer"\nmodel = "{model}"\nquantize = false\n',
        encoding="utf-8",
    )
    w = MainWindow(workspace, settings, ensemble_config=str(config))
    qtbot.addWidget(w)
    w.show()
    w.import_paths([note_file])
    wait_idle(qtbot, w, timeout=120_000)
    label = w.detector_label.text()
    device = "cuda" if torch.cuda.is_available() else "cpu"
    assert label.startswith("Detector: rules + tiny on ") and device in label
    assert workspace.list_documents()[0].n_spans > 0
    w.close()
