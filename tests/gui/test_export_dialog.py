"""Exporting through the export dialog: the file is written from the reviewer's decisions,
contains the surrogates and none of the originals, and the report lands next to it."""

from __future__ import annotations

import json

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from deid_desktop.core.categories import Category
from deid_desktop.core.documents.model import apply_replacements
from deid_desktop.core.store import DocStatus
from deid_desktop.core.surrogates import SurrogateEngine, SurrogateOptions

from .conftest import wait_idle
from .samples import LETTER, write_docx, write_txt

pytestmark = pytest.mark.gui

ORIGINALS = ("Margaret Okafor", "Okafor", "44172290", "(617) 555-0142", "m.okafor@example.com", "Samuel Lindqvist", "03/14/2021")


@pytest.fixture
def imported(qtbot, window, workspace, tmp_path):
    window.import_paths([write_txt(tmp_path / "in" / "p001" / "note.txt")])
    wait_idle(qtbot, window)
    (doc,) = workspace.list_documents()
    workspace.assign_subject(doc.id, "p001")
    window.queue_model.refresh()
    window.open_document(doc.id)
    return doc.id


def _run_export(qtbot, dialog) -> None:
    assert dialog.start()
    qtbot.waitUntil(lambda: dialog.summary is not None and not dialog.running, timeout=60_000)


def test_reviewed_document_exports_with_surrogates_and_a_report(qtbot, window, workspace, imported, tmp_path):
    view = window.pane.text_view
    view.setFocus()
    # Add the two occurrences the detector missed, then accept everything and mark reviewed.
    window.controller.select(next(s.id for s in window.controller.spans if s.text == "Okafor"))
    QTest.keyClick(view, Qt.Key.Key_I, Qt.KeyboardModifier.ControlModifier)
    QTest.keyClick(view, Qt.Key.Key_A, Qt.KeyboardModifier.ShiftModifier)
    QTest.keyClick(view, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    assert workspace.get_document(imported).status == DocStatus.REVIEWED

    dlg = window.open_export_dialog()
    out = tmp_path / "released"
    dlg.folder.edit.setText(str(out))
    assert dlg.mode.currentData() == "surrogate"
    assert dlg.scope_current.isChecked()
    _run_export(qtbot, dlg)

    written = out / "note.deid.txt"
    assert written.is_file()
    text = written.read_text(encoding="utf-8")
    for original in ORIGINALS:
        assert original not in text
    # exactly what the keyed surrogate engine gives for the reviewed spans of subject p001
    s = window.settings
    engine = SurrogateEngine(workspace.secret, SurrogateOptions(date_shift_min_days=s.date_shift_min_days, date_shift_max_days=s.date_shift_max_days, age_cap=s.age_cap))
    doc = workspace.load_document(imported)
    spans = workspace.final_spans(imported, unreviewed_policy="accept")
    reps = engine.replacements(doc.text, spans, subject="p001", mode="surrogate")
    assert text == apply_replacements(doc.text, reps)
    name_surrogate = next(r.new_text for r in reps if r.category == Category.NAME.value)
    assert name_surrogate in text and name_surrogate != "Margaret Okafor"

    assert workspace.get_document(imported).status == DocStatus.EXPORTED
    assert window.queue_model.index(0, window.queue_model.STATUS).data() == "exported"
    report = json.loads((out / "deid_report.json").read_text(encoding="utf-8"))
    assert report["summary"]["ok"] == 1 and report["summary"]["phi_replaced"]["NAME"] >= 5
    assert (out / "deid_report.csv").is_file()
    assert "1 document(s) exported, 0 failed" in dlg.report.toPlainText()
    for original in ORIGINALS:
        assert original not in (out / "deid_report.json").read_text(encoding="utf-8")
    dlg.close()


def test_unreviewed_documents_stop_the_export_unless_accepted(qtbot, window, workspace, imported, tmp_path):
    dlg = window.open_export_dialog()
    out = tmp_path / "out"
    dlg.folder.edit.setText(str(out))
    dlg.scope_all.setChecked(True)
    assert dlg.unreviewed_stop.isChecked()
    assert not dlg.start()
    assert "not marked reviewed: note.txt" in dlg.notice.text()
    assert not out.exists()

    dlg.unreviewed_accept.setChecked(True)
    dlg.mode.setCurrentIndex(dlg.mode.findData("tag"))
    _run_export(qtbot, dlg)
    text = (out / "note.deid.txt").read_text(encoding="utf-8")
    # Only what the detector found is replaced when nobody reviewed the document.
    for original in ("Margaret Okafor", "44172290", "(617) 555-0142", "Samuel Lindqvist"):
        assert original not in text
    assert "[NAME]" in text or "[PATIENT]" in text
    assert workspace.get_document(imported).status == DocStatus.EXPORTED
    dlg.close()


def test_word_document_exports_as_word_and_subject_scope(qtbot, window, workspace, tmp_path):
    import docx

    path = write_docx(tmp_path / "in" / "letter.docx", LETTER)
    window.import_paths([path])
    wait_idle(qtbot, window)
    (doc,) = workspace.list_documents()
    workspace.assign_subject(doc.id, "S-1")
    workspace.set_status(doc.id, DocStatus.REVIEWED)
    window.queue_model.refresh()
    dlg = window.open_export_dialog()
    dlg.folder.edit.setText(str(tmp_path / "out"))
    dlg.scope_subject.setChecked(True)
    dlg.subject.setCurrentIndex(dlg.subject.findText("S-1"))
    assert dlg.scope_ids() == [doc.id]
    dlg.format.setCurrentIndex(dlg.format.findData("pdf"))
    assert not dlg.start()
    assert "not PDF files" in dlg.notice.text()
    dlg.format.setCurrentIndex(dlg.format.findData(None))
    dlg.mode.setCurrentIndex(dlg.mode.findData("blackout"))
    _run_export(qtbot, dlg)
    out = tmp_path / "out" / "letter.deid.docx"
    text = "\n".join(p.text for p in docx.Document(str(out)).paragraphs)
    assert "Tobias Wren" not in text and "(212) 555-0187" not in text
    assert "█" in text
    dlg.close()


def test_exported_file_name_and_report_carry_no_name_from_the_original(qtbot, window, workspace, tmp_path):
    """The export dialog names its outputs with the CLI's rule: the patient's name in the
    file name becomes the surrogate the text gets, and the report never shows the original."""
    text = "Patient: Tobias Wren\nSeen on 11/02/2022 regarding his hypertension.\n"
    window.import_paths([write_txt(tmp_path / "in" / "Tobias_Wren_letter.txt", text)])
    wait_idle(qtbot, window)
    (doc,) = workspace.list_documents()
    workspace.assign_subject(doc.id, "p002")
    workspace.set_status(doc.id, DocStatus.REVIEWED)
    window.queue_model.refresh()
    window.open_document(doc.id)
    dlg = window.open_export_dialog()
    out = tmp_path / "released"
    dlg.folder.edit.setText(str(out))
    _run_export(qtbot, dlg)
    (written,) = out.glob("*.deid.txt")
    first, last = written.read_text(encoding="utf-8").splitlines()[0].removeprefix("Patient: ").split()
    assert written.name == f"{first}_{last}_letter.deid.txt"
    shown = (out / "deid_report.json").read_text(encoding="utf-8") + (out / "deid_report.csv").read_text(encoding="utf-8")
    assert "Wren" not in shown and "Tobias" not in shown
    assert f"{first}_{last}_letter.txt" in shown
    dlg.close()


@pytest.mark.parametrize("where", ["in/p001", "in/p001/deid", "in/p001/../p001"])
def test_export_into_the_folder_of_the_originals_is_refused(qtbot, window, workspace, imported, tmp_path, where):
    window.controller.accept_remaining_and_mark_reviewed()
    dlg = window.open_export_dialog()
    assert not dlg.folder.text()  # no default folder, so never next to the originals by default
    out = tmp_path / where
    dlg.folder.edit.setText(str(out))
    assert not dlg.start()
    assert "holds original documents" in dlg.notice.text()
    assert sorted(p.name for p in (tmp_path / "in" / "p001").rglob("*")) == ["note.txt"]  # nothing written
    assert workspace.get_document(imported).status == DocStatus.REVIEWED
    dlg.folder.edit.setText(str(tmp_path / "released"))
    _run_export(qtbot, dlg)  # a folder outside the source data is fine
    assert (tmp_path / "released" / "note.deid.txt").is_file()


def test_a_decision_after_export_marks_the_document_changed_since_export(qtbot, window, workspace, imported, tmp_path):
    window.controller.accept_remaining_and_mark_reviewed()
    dlg = window.open_export_dialog()
    dlg.folder.edit.setText(str(tmp_path / "released"))
    _run_export(qtbot, dlg)
    dlg.close()
    status = window.queue_model.index(0, window.queue_model.STATUS)
    assert status.data() == "exported"
    window.open_document(imported)
    window.controller.select(window.controller.spans[0].id)
    window.activateWindow()  # the offscreen platform does not hand activation back on close
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window)
    window.pane.text_view.setFocus()
    QTest.keyClick(window.pane.text_view, Qt.Key.Key_R)  # a decision changed after the export
    assert workspace.get_document(imported).status == DocStatus.EXPORTED
    from deid_desktop.gui.export_state import export_stamps
    assert status.data() == "changed since export"
    assert "Export it again" in status.data(Qt.ItemDataRole.ToolTipRole)
    qtbot.waitUntil(lambda: "changed since export" in window.statusBar().currentMessage())
    assert "Ctrl+E" in window.statusBar().currentMessage()
    again = window.open_export_dialog()
    again.folder.edit.setText(str(tmp_path / "released-2"))
    _run_export(qtbot, again)
    assert status.data() == "exported"  # the copy is current again


def test_blackout_is_said_when_remembered_and_reset_in_a_new_session(qtbot, window, workspace, settings, imported, tmp_path):
    from deid_desktop.gui.main_window import MainWindow

    from .conftest import RULES_ONLY

    window.controller.accept_remaining()
    window.actions_by_id["mark_reviewed"].trigger()
    dlg = window.open_export_dialog()
    assert not dlg.mode_note.isVisibleTo(dlg)
    dlg.mode.setCurrentIndex(dlg.mode.findData("blackout"))
    dlg.folder.edit.setText(str(tmp_path / "released"))
    _run_export(qtbot, dlg)
    dlg.close()

    again = window.open_export_dialog()  # same session: kept, and said so
    assert again.mode.currentData() == "blackout"
    assert again.mode_note.isVisibleTo(again) and "remembered from your last export" in again.mode_note.text()
    again.mode.setCurrentIndex(again.mode.findData("tag"))
    assert not again.mode_note.isVisibleTo(again)  # the reviewer's own choice needs no note
    again.close()
    window.close()

    later = MainWindow(workspace, settings, ensemble_config=RULES_ONLY)  # the next start of the app
    qtbot.addWidget(later)
    wait_idle(qtbot, later)
    fresh = later.open_export_dialog()
    assert fresh.mode.currentData() == "surrogate" and not fresh.mode_note.isVisibleTo(fresh)
    fresh.close()
    later.close()
