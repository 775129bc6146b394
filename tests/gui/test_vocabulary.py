"""One vocabulary: wherever the window names a PHI category a person reads "Organisation",
"Location", … — never the data value "ORGANIZATION"."""

from __future__ import annotations

import re

import pytest
from PySide6.QtWidgets import QComboBox, QLabel, QMainWindow, QTableWidget

from deid_desktop.core.categories import Category, display_name
from deid_desktop.core.learn.term_lists import add_term
from deid_desktop.gui.learning import open_learning_dialog

from .test_dialogs_fit import RESULT

pytestmark = pytest.mark.gui

# ID reads the same either way.
RAW = re.compile(r"\b(" + "|".join(c.value for c in Category if c is not Category.ID) + r")\b")


def _texts(dlg) -> list[str]:
    out = [lbl.text() for lbl in dlg.findChildren(QLabel)]
    for t in dlg.findChildren(QTableWidget):
        out += [t.item(r, c).text() for r in range(t.rowCount()) for c in range(t.columnCount()) if t.item(r, c)]
        out += [t.horizontalHeaderItem(c).text() for c in range(t.columnCount()) if t.horizontalHeaderItem(c)]
    for box in dlg.findChildren(QComboBox):
        out += [box.itemText(i) for i in range(box.count())]
    return out


def test_display_names():
    assert display_name(Category.ORGANIZATION) == "Organisation"
    assert display_name("LOCATION") == "Location" and display_name(Category.ID) == "ID"


def test_model_dialogs_name_categories_in_the_users_words(qtbot, workspace, tmp_path, monkeypatch):
    from ..core.learning_helpers import add_note

    monkeypatch.setenv("DEID_MODELS", str(tmp_path / "no-models"))
    for i in range(3):
        add_note(workspace, i)
    add_term(workspace, "deny", "Whanganui Hospital", category=Category.ORGANIZATION)
    host = QMainWindow()
    host.workspace = workspace
    host.refresh_after_model_change = lambda: None
    qtbot.addWidget(host)
    retrain = open_learning_dialog(host, lambda: workspace, "retrain")
    retrain.show_result(RESULT)
    lists = open_learning_dialog(host, lambda: workspace, "lists")
    texts = _texts(retrain) + _texts(lists)
    assert "Organisation" in texts and "Location" in texts
    assert not [t for t in texts if RAW.search(t)]
    for dlg in (retrain, lists):
        dlg.close()
