"""The learning loop from the review window: "never flag this again" (Shift+R), "always flag
this" (Alt + a category key), the findings panel's context menu, the weight re-fit after a
document is marked reviewed, and what a dropped folder's non-documents become."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QTextCursor
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QMenu

from deid_desktop.core.categories import Category
from deid_desktop.core.learn.loop import SETTING_REFIT_EVERY
from deid_desktop.core.learn.term_lists import list_terms
from deid_desktop.core.learn.workspace_detector import SETTING_ENSEMBLE
from deid_desktop.core.store import DocStatus

from .conftest import RULES_ONLY, answer_undecided, wait_idle
from .samples import CLINICAL_NOTE, LETTER, write_txt
from .test_import_queue import drop

pytestmark = pytest.mark.gui

SHIFT = Qt.KeyboardModifier.ShiftModifier
ALT = Qt.KeyboardModifier.AltModifier
CTRL = Qt.KeyboardModifier.ControlModifier

LATER_NOTE = "Seen on Kestrel unit overnight by the night team. Mr. Tobias Wren is a retired teacher. Call (212) 555-0187.\n"


def _import(qtbot, window, *paths):
    window.import_paths(list(paths))
    wait_idle(qtbot, window)


def _doc(workspace, name):
    return next(d for d in workspace.list_documents() if d.name == name)


def _texts(workspace, doc_id):
    return {s.text for s in workspace.list_spans(doc_id)}


def _open(window, doc_id):
    window.open_document(doc_id)
    assert window.controller.document_id == doc_id
    window.pane.text_view.setFocus()


def _select_finding(window, workspace, doc_id, text):
    span = next(s for s in workspace.list_spans(doc_id) if s.text == text)
    window.controller.select(span.id)
    return span


def _select_text(window, start, end):
    view = window.pane.text_view
    cur = QTextCursor(view.document())
    cur.setPosition(view.positions.to_view(start))
    cur.setPosition(view.positions.to_view(end), QTextCursor.MoveMode.KeepAnchor)
    view.setTextCursor(cur)
    view.setFocus()
    assert view.selected_range() == (start, end)


@pytest.fixture
def note(qtbot, window, workspace, note_file):
    _import(qtbot, window, note_file)
    (doc,) = workspace.list_documents()
    _open(window, doc.id)
    return doc.id


def test_shift_r_rejects_and_later_documents_no_longer_flag_the_text(qtbot, window, workspace, note, tmp_path):
    assert "teacher" in _texts(workspace, note)  # the rules flag it as a profession
    span = _select_finding(window, workspace, note, "teacher")
    QTest.keyClick(window.pane.text_view, Qt.Key.Key_R, SHIFT)

    assert next(s for s in workspace.list_spans(note) if s.id == span.id).state == "rejected"
    allow = list_terms(workspace, kind="allow")
    assert [(t.term, t.scope) for t in allow] == [("teacher", "workspace")]
    assert "“teacher” will not be flagged again in this workspace" in window.statusBar().currentMessage()
    assert window.controller.current.text != "teacher"  # moved on, as R does

    _import(qtbot, window, write_txt(tmp_path / "later" / "later.txt", LATER_NOTE))
    later = _doc(workspace, "later.txt")
    found = _texts(workspace, later.id)
    assert "Tobias Wren" in found and "teacher" not in found


def test_detecting_again_an_earlier_document_drops_the_never_flagged_text(qtbot, window, workspace, note, tmp_path):
    _import(qtbot, window, write_txt(tmp_path / "later" / "later.txt", LATER_NOTE))
    later = _doc(workspace, "later.txt")
    assert "teacher" in _texts(workspace, later.id)  # detected before the reviewer said "never"
    _open(window, note)
    _select_finding(window, workspace, note, "teacher")
    QTest.keyClick(window.pane.text_view, Qt.Key.Key_R, SHIFT)
    wait_idle(qtbot, window)
    window.queue.redetect_requested.emit([later.id])  # queue → right-click → Detect PHI again
    wait_idle(qtbot, window)
    found = _texts(workspace, later.id)
    assert "Tobias Wren" in found and "teacher" not in found


def test_undo_takes_back_the_rejection_and_the_allow_list_term_together(qtbot, window, workspace, note):
    span = _select_finding(window, workspace, note, "teacher")
    view = window.pane.text_view
    QTest.keyClick(view, Qt.Key.Key_R, SHIFT)
    assert list_terms(workspace, kind="allow")

    QTest.keyClick(view, Qt.Key.Key_Z, CTRL)
    assert next(s for s in workspace.list_spans(note) if s.id == span.id).state == "undecided"
    assert list_terms(workspace, kind="allow") == []

    QTest.keyClick(view, Qt.Key.Key_Z, CTRL | SHIFT)
    assert next(s for s in workspace.list_spans(note) if s.id == span.id).state == "rejected"
    assert [t.term for t in list_terms(workspace, kind="allow")] == ["teacher"]


def test_alt_shift_r_never_flags_the_text_for_this_subject_only(qtbot, window, workspace, tmp_path):
    write_txt(tmp_path / "cohort" / "p001" / "note.txt")
    _import(qtbot, window, tmp_path / "cohort")
    first = _doc(workspace, "note.txt")
    _open(window, first.id)
    _select_finding(window, workspace, first.id, "teacher")
    QTest.keyClick(window.pane.text_view, Qt.Key.Key_R, ALT | SHIFT)

    (term,) = list_terms(workspace, kind="allow")
    assert (term.term, term.scope, term.scope_id) == ("teacher", "subject", str(first.subject_id))
    assert "in documents of this subject" in window.statusBar().currentMessage()

    write_txt(tmp_path / "more" / "p001" / "same-patient.txt", LATER_NOTE)
    write_txt(tmp_path / "more" / "p002" / "other-patient.txt", LATER_NOTE.replace("Tobias", "Tomas"))  # same text: a duplicate
    _import(qtbot, window, tmp_path / "more")
    assert "teacher" not in _texts(workspace, _doc(workspace, "same-patient.txt").id)
    assert "teacher" in _texts(workspace, _doc(workspace, "other-patient.txt").id)


def test_never_flag_for_the_subject_of_a_document_without_one_applies_to_that_document(window, workspace, note):
    assert workspace.get_document(note).subject_id is None
    _select_finding(window, workspace, note, "teacher")
    QTest.keyClick(window.pane.text_view, Qt.Key.Key_R, ALT | SHIFT)
    (term,) = list_terms(workspace, kind="allow")
    assert (term.scope, term.scope_id) == ("document", str(note))
    assert "will not be flagged again in this document" in window.statusBar().currentMessage()


def test_alt_digit_adds_the_selection_and_later_documents_flag_it(qtbot, window, workspace, tmp_path):
    path = write_txt(tmp_path / "in" / "ward.txt", LATER_NOTE)
    _import(qtbot, window, path)
    doc = _doc(workspace, "ward.txt")
    _open(window, doc.id)
    assert "Kestrel" not in _texts(workspace, doc.id)  # the rules miss the ward name
    start = LATER_NOTE.index("Kestrel")
    _select_text(window, start, start + len("Kestrel"))
    QTest.keyClick(window.pane.text_view, Qt.Key.Key_4, ALT)  # 4 = location

    added = [s for s in workspace.list_spans(doc.id) if s.state == "added"]
    assert [(s.text, s.category) for s in added] == [("Kestrel", Category.LOCATION)]
    deny = list_terms(workspace, kind="deny")
    assert [(t.term, t.category, t.scope) for t in deny] == [("Kestrel", Category.LOCATION, "workspace")]
    assert "will always be flagged as" in window.statusBar().currentMessage()

    _import(qtbot, window, write_txt(tmp_path / "later" / "transfer.txt", "Transferred to Kestrel unit on 12/15/2022; Dr. Lindqvist informed.\n"))
    later = _doc(workspace, "transfer.txt")
    flagged = {s.text: s.category for s in workspace.list_spans(later.id)}
    assert flagged.get("Kestrel") == Category.LOCATION

    # one undo step takes back the span and the deny-list term
    QTest.keyClick(window.pane.text_view, Qt.Key.Key_Z, CTRL)
    assert not [s for s in workspace.list_spans(doc.id) if s.state == "added"]
    assert list_terms(workspace, kind="deny") == []


def _context_menu_for(qtbot, window, span_id) -> QMenu:
    """Right-click the findings row of ``span_id`` and return the menu that pops up."""
    dock = window.findings
    source_row = dock.model.row_of(span_id)
    index = dock.proxy.mapFromSource(dock.model.index(source_row, 0))
    dock.table.scrollTo(index)
    pos = dock.table.visualRect(index).center()
    dock.table.customContextMenuRequested.emit(pos)
    qtbot.waitUntil(lambda: any(m.isVisible() for m in dock.findChildren(QMenu)))
    return next(m for m in dock.findChildren(QMenu) if m.isVisible())


def _trigger(menu: QMenu, text: str) -> None:
    action = next(a for a in menu.actions() if a.text() == text)
    assert action.toolTip()
    action.trigger()
    menu.close()


def test_findings_context_menu_never_and_always_flag_the_row(qtbot, window, workspace, note, tmp_path):
    teacher = next(s for s in workspace.list_spans(note) if s.text == "teacher")
    menu = _context_menu_for(qtbot, window, teacher.id)
    assert [a.text() for a in menu.actions()] == [
        "Never flag this text again",
        "Never flag this text again for this subject",
        "Always flag this text",
    ]
    _trigger(menu, "Never flag this text again")
    assert next(s for s in workspace.list_spans(note) if s.id == teacher.id).state == "rejected"
    assert [t.term for t in list_terms(workspace, kind="allow")] == ["teacher"]

    doctor = next(s for s in workspace.list_spans(note) if s.text == "Lindqvist")
    _trigger(_context_menu_for(qtbot, window, doctor.id), "Always flag this text")
    assert next(s for s in workspace.list_spans(note) if s.id == doctor.id).state == "accepted"
    assert [(t.term, t.category) for t in list_terms(workspace, kind="deny")] == [("Lindqvist", Category.NAME)]
    wait_idle(qtbot, window)

    _import(qtbot, window, write_txt(tmp_path / "later" / "later.txt", LATER_NOTE + "Dr Lindqvist agreed.\n"))
    later = _doc(workspace, "later.txt")
    flagged = {s.text: s.category for s in workspace.list_spans(later.id)}
    assert "teacher" not in flagged and flagged.get("Lindqvist") == Category.NAME


def _mark_reviewed(window) -> None:
    QTest.keyClick(window.pane.text_view, Qt.Key.Key_Return, CTRL)
    answer_undecided(window, "accept_all")  # findings are still undecided: accept them all


def test_marking_reviewed_refits_the_weights_when_due(qtbot, window, workspace, note):
    workspace.set_setting(SETTING_ENSEMBLE, RULES_ONLY)
    workspace.set_setting(SETTING_REFIT_EVERY, 1)
    assert workspace.ensemble_weight_history() == []
    _mark_reviewed(window)
    assert workspace.get_document(note).status == DocStatus.REVIEWED
    qtbot.waitUntil(lambda: len(workspace.ensemble_weight_history()) == 1, timeout=60_000)
    qtbot.waitUntil(lambda: "Ensemble weights re-fitted on 1 reviewed documents" in window.statusBar().currentMessage())
    _, weights, n_documents = workspace.ensemble_weight_history()[-1]
    assert n_documents == 1 and set(weights) == {"rules"}
    wait_idle(qtbot, window)  # the detector was rebuilt with the new weights
    assert window.detector_label.text().startswith("rules only")


def test_refit_waits_for_the_configured_number_of_reviewed_documents(qtbot, window, workspace, tmp_path):
    workspace.set_setting(SETTING_ENSEMBLE, RULES_ONLY)
    workspace.set_setting(SETTING_REFIT_EVERY, 2)
    _import(qtbot, window, write_txt(tmp_path / "in" / "a.txt", LETTER), write_txt(tmp_path / "in" / "b.txt", LATER_NOTE))
    _open(window, _doc(workspace, "a.txt").id)
    _mark_reviewed(window)
    qtbot.waitUntil(lambda: not window.refit.running)
    assert workspace.ensemble_weight_history() == []  # one reviewed document is not enough yet
    assert window.controller.document_id == _doc(workspace, "b.txt").id  # the next one opened
    window.pane.text_view.setFocus()
    _mark_reviewed(window)
    qtbot.waitUntil(lambda: len(workspace.ensemble_weight_history()) == 1, timeout=60_000)
    assert workspace.ensemble_weight_history()[-1][2] == 2


def test_dropped_folder_imports_documents_and_skips_other_files(qtbot, window, workspace, tmp_path):
    root = tmp_path / "cohort"
    write_txt(root / "p001" / "note.txt")
    write_txt(root / "p002" / "letter.TXT", LETTER)
    (root / "README.md").write_text("# Cohort export\nOne folder per patient.\n", encoding="utf-8")
    (root / "tools").mkdir()
    (root / "tools" / "rename.py").write_text("import os\n", encoding="utf-8")
    (root / "p001" / "photo.png").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(64))
    messages: list[str] = []
    window.statusBar().messageChanged.connect(messages.append)
    assert drop(window, [root])
    wait_idle(qtbot, window)

    rows = workspace.list_documents()
    assert sorted(r.name for r in rows) == ["letter.TXT", "note.txt"]
    assert all(r.status != DocStatus.ERROR and r.n_spans > 0 for r in rows)
    assert any("Imported 2 new document(s)" in m and "3 other files skipped" in m for m in messages)
    assert not any("could not be read" in m for m in messages)


def test_an_unsupported_file_dropped_by_itself_is_still_an_error_row(qtbot, window, workspace, tmp_path):
    readme = tmp_path / "README.md"
    readme.write_text("# notes\n", encoding="utf-8")
    messages: list[str] = []
    window.statusBar().messageChanged.connect(messages.append)
    assert drop(window, [readme])
    wait_idle(qtbot, window)
    (row,) = workspace.list_documents()
    assert (row.name, row.status, row.error_code) == ("README.md", DocStatus.ERROR, "unsupported")
    assert any("1 could not be read" in m for m in messages)
    assert not any("skipped" in m for m in messages)


def test_closing_the_window_during_a_refit_leaves_no_work_running_afterwards(qtbot, window, workspace, note):
    """A fit that ends after the window closed must not start detection on the closed
    workspace (its queued result used to rebuild the detector on a new thread)."""
    workspace.set_setting(SETTING_ENSEMBLE, RULES_ONLY)
    workspace.set_setting(SETTING_REFIT_EVERY, 1)
    wait_idle(qtbot, window)
    detector = window.detector_label.text()
    _mark_reviewed(window)
    threads = [t for _, t in window.refit.background.running]
    assert threads  # the fit is running
    window.close()
    assert not any(t.isRunning() for t in threads)  # the close waited for the fit to end
    builds: list[int] = []
    build = window.provider.get
    window.provider.get = lambda: builds.append(1) or build()
    qtbot.wait(300)  # the fit's queued result is delivered now
    assert builds == []  # no detector built, and no workspace opened, for a closed window
    assert window.detector_label.text() == detector
    assert not window.busy
    assert len(workspace.ensemble_weight_history()) == 1  # the fit itself was kept
