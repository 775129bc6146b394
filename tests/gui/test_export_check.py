"""After an export, the files the re-scan flagged are shown as written, with the finding and
any replaced value still present highlighted, and N steps from one to the next. The report
used only to count them ("check them before release"), with nowhere showing where."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from deid_desktop.core.store import DocStatus

from .conftest import wait_idle
from .samples import write_txt
from .test_dialogs_fit import assert_fits

pytestmark = pytest.mark.gui


def _export(qtbot, window, out):
    dlg = window.open_export_dialog()
    dlg.folder.edit.setText(str(out))
    assert dlg.start()
    qtbot.waitUntil(lambda: dlg.summary is not None and not dlg.running, timeout=60_000)
    return dlg


def _accept_all_and_mark_reviewed(qtbot, window, workspace, note) -> None:
    window.import_paths([note])
    wait_idle(qtbot, window)
    (doc,) = workspace.list_documents()
    window.open_document(doc.id)
    view = window.pane.text_view
    view.setFocus()
    QTest.keyClick(view, Qt.Key.Key_A, Qt.KeyboardModifier.ShiftModifier)
    QTest.keyClick(view, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    assert workspace.get_document(doc.id).status == DocStatus.REVIEWED


def test_flagged_files_show_where_with_one_key_to_step(qtbot, window, workspace, tmp_path):
    # Every detection accepted as it is: the sample mentions "Okafor" alone twice, which the
    # rules-only detector does not find, so "Margaret Okafor" is replaced and "Okafor" stays.
    _accept_all_and_mark_reviewed(qtbot, window, workspace, write_txt(tmp_path / "in" / "note.txt"))

    dlg = _export(qtbot, window, tmp_path / "released")
    assert dlg.summary.n_to_check == 1
    assert dlg.check_button.isVisible()
    check = dlg.show_check()
    qtbot.addWidget(check)
    assert check.files.count() == 1 and check.files.item(0).text() == "note.deid.txt"
    text = check.text.toPlainText()
    assert text == (tmp_path / "released" / "note.deid.txt").read_text(encoding="utf-8")
    marked = [text[m.start : m.end] for m in check.marks]
    assert marked.count("Okafor") == 2 and {m.kind for m in check.marks} >= {"residual"}
    highlighted = {(s.cursor.selectionStart(), s.cursor.selectionEnd()) for s in check.text.extraSelections()}
    assert highlighted == {(m.start, m.end) for m in check.marks}
    # the first mark is selected; N moves on, wrapping round, Shift+N goes back
    first = check.text.textCursor().selectedText()
    assert first == marked[0]
    qtbot.waitExposed(check)
    check.activateWindow()
    qtbot.waitUntil(check.isActiveWindow, timeout=5_000)
    check.text.setFocus()
    QTest.keyClick(check.text, Qt.Key.Key_N)
    assert check.current == 1 % len(check.marks)
    QTest.keyClick(check.text, Qt.Key.Key_N, Qt.KeyboardModifier.ShiftModifier)
    assert check.current == 0
    assert "still present" in check.where.text()
    assert_fits(check)


def test_a_clean_export_offers_no_check(qtbot, window, workspace, tmp_path):
    _accept_all_and_mark_reviewed(qtbot, window, workspace, write_txt(tmp_path / "in" / "note.txt", "Seen by Dr Aroha Ngata on 03/04/2021.\n"))
    dlg = _export(qtbot, window, tmp_path / "released")
    assert dlg.summary.n_to_check == 0
    assert not dlg.check_button.isVisible() and dlg.show_check() is None


def test_residual_marks_find_whole_words_in_any_case():
    from deid_desktop.gui.export_check import residual_marks

    text = "Seen: OKAFOR. Okaforson is someone else; okafor again."
    marks = residual_marks(text, ["Okafor", "Margaret Okafor", "Li"])
    assert [text[m.start : m.end] for m in marks] == ["OKAFOR", "okafor"]
