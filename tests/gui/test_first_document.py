"""After an import the first detected document opens by itself, with its first finding
selected and a line of keys; a file that could not be imported shows why, not a blank pane."""

from __future__ import annotations

import pytest

from deid_desktop.core.store import DocStatus

from .conftest import wait_idle
from .samples import LETTER, write_bad_files, write_txt

pytestmark = pytest.mark.gui


def test_the_first_detected_document_opens_with_its_first_finding_selected(qtbot, window, workspace, tmp_path):
    assert window.pane.title.text().startswith("Drop files")
    window.import_paths([write_txt(tmp_path / "in" / "a.txt", LETTER), write_txt(tmp_path / "in" / "b.txt")])
    wait_idle(qtbot, window)
    opened = window.controller.document_id
    assert opened is not None
    row = workspace.get_document(opened)
    assert row.status == DocStatus.IN_REVIEW
    assert window.pane.title.text().startswith(row.name)
    assert "Tobias Wren" in window.pane.text_view.toPlainText() or "Okafor" in window.pane.text_view.toPlainText()
    first = min(workspace.list_spans(opened), key=lambda s: (s.start, -s.end))
    assert window.controller.current_id == first.id
    assert window.pane.hint.isVisible() and "A accept" in window.pane.hint.text() and "F1" in window.pane.hint.text()
    other = next(d for d in workspace.list_documents() if d.id != opened)
    assert other.status == DocStatus.DETECTED  # only the first one is opened


def test_an_error_row_shows_its_reason_and_is_not_counted_for_export(qtbot, window, workspace, tmp_path):
    write_bad_files(tmp_path / "bad")
    window.import_paths([tmp_path / "bad" / "empty.txt", write_txt(tmp_path / "in" / "a.txt", LETTER)])
    wait_idle(qtbot, window)
    error = next(d for d in workspace.list_documents() if d.status == DocStatus.ERROR)
    window.open_document(error.id)
    assert window.pane.hint.isVisible() and "could not be imported" in window.pane.hint.text()
    assert (error.error_reason or error.error_code) in window.pane.hint.text()
    dlg = window.open_export_dialog()
    assert dlg.scope_all.text() == "Whole queue (1)"
    assert error.id not in dlg.scope_ids() if dlg.scope_all.isChecked() else True
    dlg.scope_all.setChecked(True)
    assert error.id not in dlg.scope_ids()
    dlg.close()


def test_error_rows_can_be_removed_from_the_queue(qtbot, window, workspace, tmp_path):
    write_bad_files(tmp_path / "bad")
    window.import_paths([tmp_path / "bad" / "empty.txt", tmp_path / "bad" / "broken.pdf", write_txt(tmp_path / "in" / "a.txt", LETTER)])
    wait_idle(qtbot, window)
    errors = [d.id for d in workspace.list_documents() if d.status == DocStatus.ERROR]
    good = next(d.id for d in workspace.list_documents() if d.status != DocStatus.ERROR)
    assert len(errors) == 2
    window.open_document(errors[0])
    window.queue.table.selectAll()  # the reviewer selects every row and right-clicks
    window.queue._context_menu(window.queue.table.viewport().rect().center())
    remove = window.queue.context_menu.findChild(type(window.actions_by_id["accept"]), "removeFailed")
    assert remove is not None and remove.text() == "Remove 2 file(s) that could not be imported"
    window.queue.context_menu.close()
    remove.trigger()
    assert [d.id for d in workspace.list_documents()] == [good]  # the imported document stays
    assert window.queue_model.rowCount() == 1
    assert window.controller.document_id is None  # the removed row's pane is closed
    with pytest.raises(Exception, match="only a failed import can be removed"):
        workspace.remove_failed_import(good)
