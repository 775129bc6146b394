"""Settings persist in QSettings and take effect; errors become readable dialogs whose
details and log lines never contain document text; detection can be cancelled."""

from __future__ import annotations

import logging

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QMessageBox

from deid_desktop.core.errors import IngestError
from deid_desktop.core.store import DocStatus
from deid_desktop.gui.errors import make_excepthook
from deid_desktop.gui.settings import AppSettings

from .conftest import RULES_ONLY, wait_idle
from .samples import CLINICAL_NOTE, write_txt

pytestmark = pytest.mark.gui


def _error_box(window) -> QMessageBox:
    boxes = [b for b in window.findChildren(QMessageBox) if b.objectName() == "errorMessage" and b.isVisible()]
    assert boxes, "no error dialog is shown"
    return boxes[-1]


def test_settings_dialog_saves_to_qsettings_and_applies(qtbot, window, tmp_path):
    dlg = window.open_settings()
    dlg.shift_min.setValue(30)
    dlg.shift_max.setValue(20)
    dlg.accept()
    assert dlg.isVisible() and "must not be larger" in dlg.error.text()  # refused, still open
    dlg.shift_max.setValue(400)
    dlg.age_cap.setValue(85)
    dlg.reviewer.setText("Dr Reviewer")
    dlg.ensemble.edit.setText(RULES_ONLY)
    dlg.accept()
    assert not dlg.isVisible()
    again = AppSettings(QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat))
    assert (again.date_shift_min_days, again.date_shift_max_days, again.age_cap) == (30, 400, 85)
    assert again.reviewer == "Dr Reviewer" and again.ensemble_config == RULES_ONLY
    assert window.controller.reviewer == "Dr Reviewer"
    export = window.open_export_dialog()
    assert (export.options().date_shift_min_days, export.options().age_cap) == (30, 85)
    export.close()


def test_a_new_reviewer_name_is_recorded_with_decisions(qtbot, window, workspace, note_file):
    window.import_paths([note_file])
    wait_idle(qtbot, window)
    dlg = window.open_settings()
    dlg.reviewer.setText("second reader")
    dlg.accept()
    window.open_document(workspace.list_documents()[0].id)
    window.controller.accept()
    assert [d.reviewer for d in workspace.decisions()] == ["second reader"]


def test_default_ensemble_without_a_built_model_says_so_plainly(qtbot, window, tmp_path, monkeypatch):
    monkeypatch.setenv("DEID_MODELS", str(tmp_path / "no-models"))
    window._ensemble_override = None  # the shipped default ensemble with transformer members
    window.refresh_after_model_change()
    qtbot.waitUntil(lambda: window.detector_label.text() == "rules-only: no model built (run make model)", timeout=60_000)
    wait_idle(qtbot, window)


def test_unexpected_error_shows_a_dialog_and_logs_no_document_text(qtbot, window, caplog):
    hook = make_excepthook(lambda: window)
    secret = "Margaret Okafor"
    try:
        {}[secret]
    except KeyError as e:
        with caplog.at_level(logging.ERROR):
            hook(type(e), e, e.__traceback__)
    box = _error_box(window)
    assert "KeyError" in box.text() and "decision" in box.text()
    assert "test_settings_errors.py" in box.detailedText()
    assert secret not in box.text() + box.detailedText()
    assert caplog.records and secret not in caplog.text
    box.close()


def test_our_own_errors_are_shown_with_their_message(qtbot, window):
    hook = make_excepthook(lambda: window)
    err = IngestError("/data/scan.pdf", "the PDF is password-protected; remove the password and try again", code="encrypted")
    hook(IngestError, err, None)
    box = _error_box(window)
    assert box.text() == "scan.pdf: the PDF is password-protected; remove the password and try again"
    box.close()


def test_a_failing_action_is_reported_not_raised(qtbot, window, workspace, note_file, monkeypatch):
    import sqlite3

    window.import_paths([note_file])
    wait_idle(qtbot, window)

    def disk_failure(*_args, **_kwargs):
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(workspace, "decide", disk_failure)
    window.open_document(workspace.list_documents()[0].id)
    window.actions_by_id["accept"].trigger()
    box = _error_box(window)
    assert "OperationalError" in box.text()
    assert window.isVisible()


def test_cancel_stops_detection_and_leaves_the_rest_to_detect(qtbot, window, workspace, tmp_path):
    folder = tmp_path / "many"
    big = (CLINICAL_NOTE + "\n") * 60
    for i in range(12):
        write_txt(folder / f"note{i:02d}.txt", big.replace("44172290", f"{44172290 + i}"))
    window.import_paths([folder])
    qtbot.waitUntil(lambda: any(d.status != DocStatus.IMPORTED for d in workspace.list_documents()), timeout=60_000)
    assert window.cancel_button.isVisible() and window.progress.isVisible()
    window.cancel_button.click()
    wait_idle(qtbot, window)
    statuses = [d.status for d in workspace.list_documents()]
    assert len(statuses) == 12
    assert DocStatus.IMPORTED in statuses  # not detected: cancelled
    assert "Detection cancelled" in window.statusBar().currentMessage()
    assert not window.progress.isVisible()


def test_choosing_another_workspace_in_settings_switches_to_it(qtbot, window, workspace, note_file, tmp_path):
    window.import_paths([note_file])
    wait_idle(qtbot, window)
    assert window.queue_model.rowCount() == 1
    other = tmp_path / "other.sqlite"
    dlg = window.open_settings()
    dlg.workspace.edit.setText(str(other))
    dlg.accept()
    wait_idle(qtbot, window)
    assert window.workspace.path == other and other.is_file()
    assert window.queue_model.rowCount() == 0
    assert window.windowTitle().endswith("other.sqlite")
    assert window.controller.document_id is None


def test_settings_show_the_workspace_that_is_open(qtbot, window, workspace, settings, tmp_path):
    remembered = settings.workspace_path
    assert remembered != str(workspace.path)  # opened with another file than the remembered one
    dlg = window.open_settings()
    assert dlg.workspace.text() == str(workspace.path)
    dlg.reviewer.setText("someone else")
    dlg.accept()  # OK without touching the workspace field: no switch, nothing remembered
    assert window.workspace is workspace
    assert settings.workspace_path == remembered and settings.reviewer == "someone else"
