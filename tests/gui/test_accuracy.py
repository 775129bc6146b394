"""Model → Accuracy on your documents: the figures of the site's own reviewed documents, per
detector version, as a reviewer reads them."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QAction

from deid_desktop.gui.accuracy import EMPTY, TOO_FEW, AccuracyDialog

from ..core.accuracy_helpers import build
from .test_dialogs_fit import assert_fits

pytestmark = pytest.mark.gui


def cells(dlg: AccuracyDialog) -> dict[str, list[str]]:
    t = dlg.table
    return {t.item(r, 0).text(): [t.item(r, c).text() for c in range(1, t.columnCount())] for r in range(t.rowCount())}


def test_the_model_menu_opens_the_dashboard_with_the_figures_of_each_version(qtbot, window, workspace, monkeypatch):
    build(workspace, monkeypatch)
    action = window.findChild(QAction, "model_accuracy")
    assert action is not None and action.text() == "Accuracy on your documents…"
    action.trigger()
    dlg = window._learning_dialogs["accuracy"]
    qtbot.addWidget(dlg)
    assert dlg.isVisible()
    assert [dlg.version.itemText(i) for i in range(dlg.version.count())] == ["minilm v1, rules RuleSet", "minilm v2, rules RuleSet"]
    assert dlg.version.currentData() == "minilm v2, rules RuleSet"  # none active: the latest used
    assert "3 reviewed documents" in dlg.summary.text() and "1 reviewed document with no detection on record is left out" in dlg.summary.text()
    dlg.version.setCurrentIndex(0)
    rows = cells(dlg)
    # precision, interval, recall, interval, found, wrongly flagged, missed, documents, verdict
    assert rows["Name"][0] == "0.571" and rows["Name"][2] == "1.000"
    assert rows["Name"][4:8] == ["4", "3", "0", "2"]
    assert rows["Contact"][0] == "–" and rows["Contact"][2] == "0.000" and rows["Contact"][6] == "3"
    assert rows["All categories"][4:9] == ["7", "3", "4", "2", TOO_FEW]
    assert not dlg.chart.pixmap().isNull()
    dlg.version.setCurrentIndex(1)
    assert list(cells(dlg)) == ["Name", "All categories"]
    assert cells(dlg)["Name"][4:8] == ["2", "0", "0", "1"]


def test_an_empty_workspace_says_there_is_nothing_reviewed_yet(qtbot, workspace):
    dlg = AccuracyDialog(workspace)
    qtbot.addWidget(dlg)
    assert dlg.summary.text() == EMPTY and dlg.table.rowCount() == 0
    assert not dlg.version.isEnabled()


def test_weekly_periods_keep_the_chosen_version_and_the_dashboard_fits_a_small_laptop(qtbot, workspace, monkeypatch):
    build(workspace, monkeypatch)
    dlg = AccuracyDialog(workspace)
    qtbot.addWidget(dlg)
    dlg.version.setCurrentIndex(0)
    dlg.period.setCurrentIndex(dlg.period.findData("week"))
    assert dlg.version.currentIndex() == 0 and cells(dlg)["All categories"][4:8] == ["7", "3", "4", "2"]
    dlg.show()
    assert_fits(dlg)
