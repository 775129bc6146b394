"""An export from the dialog writes the release certificate beside the report and shows it:
the reviewer's decisions are counted, the outputs named by their de-identified names only."""

from __future__ import annotations

import json
import stat

import pytest
from PySide6.QtCore import Qt

from deid_desktop.core.certificate import CERTIFICATE_JSON, CERTIFICATE_PDF
from deid_desktop.core.store import DecisionAction, DocStatus

from .conftest import wait_idle
from .samples import write_txt
from .test_dialogs_fit import assert_fits

pytestmark = pytest.mark.gui

PHI = ("Margaret", "Okafor", "44172290", "03/14/2021", "Lindqvist", "555-0142", "m.okafor@example.com", "2021-03-14")


def test_export_writes_and_shows_the_release_certificate(qtbot, window, workspace, tmp_path):
    window.import_paths([write_txt(tmp_path / "in" / "p001" / "Margaret_Okafor_2021-03-14.txt")])
    wait_idle(qtbot, window)
    (doc,) = workspace.list_documents()
    spans = workspace.list_spans(doc.id)
    workspace.decide(spans[0].id, DecisionAction.ACCEPT, reviewer="tester")
    workspace.decide(spans[1].id, DecisionAction.REJECT, reviewer="tester")
    workspace.set_status(doc.id, DocStatus.REVIEWED)
    window.queue_model.refresh()
    window.open_document(doc.id)

    dlg = window.open_export_dialog()
    assert not dlg.certificate_button.isVisible()
    out = tmp_path / "released"
    dlg.folder.edit.setText(str(out))
    assert dlg.start()
    qtbot.waitUntil(lambda: dlg.summary is not None and not dlg.running, timeout=60_000)

    cert = json.loads((out / CERTIFICATE_JSON).read_text(encoding="utf-8"))
    (o,) = cert["exports"][0]["outputs"]
    assert o["reviewers"] == ["tester"] and o["decisions"]["accept"] == 1 and o["decisions"]["reject"] == 1
    assert o["undecided_auto_accepted"] == len(spans) - 2
    assert (out / o["output"]).is_file()
    for p in (out / CERTIFICATE_JSON, out / CERTIFICATE_PDF):
        assert stat.S_IMODE(p.stat().st_mode) == 0o600
    assert f"Release certificate: {out / CERTIFICATE_PDF}" in dlg.report.toPlainText()

    assert dlg.certificate_button.isVisible()
    assert_fits(dlg)
    qtbot.mouseClick(dlg.certificate_button, Qt.MouseButton.LeftButton)
    view = dlg.certificate_view
    assert view is not None and view.isVisible()
    shown = view.text.toPlainText()
    assert view.text.isReadOnly()
    assert "Exported by: tester" in shown and o["output"] in shown and o["output_sha256"] in shown
    assert "Decisions: 1 accept, 1 reject" in shown
    for original in PHI:
        assert original not in shown, original
    assert_fits(view)
    view.close()
    dlg.close()
