"""Every dialog fits a 1366×768 laptop screen less a taskbar, with its buttons on it — also
the retrain dialog once a result with every category is shown (it grew to 801 px)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, QRect
from PySide6.QtWidgets import QAbstractButton, QMainWindow

from deid_desktop.core.categories import Category
from deid_desktop.gui.learning import open_learning_dialog

from ..core.learning_helpers import add_note

pytestmark = pytest.mark.gui

SCREEN = QRect(0, 0, 1366, 720)  # 1366×768 less a 48-px taskbar


def _metrics(f1: float) -> dict:
    """An ``Evaluation.to_dict()`` as the ``learn retrain --json`` result event carries it."""
    token = {"precision": f1, "recall": f1, "f1": f1, "tp": 90, "fp": 10, "fn": 10, "support": 100}
    per = {
        c.value: {"tokens": 12, "spans": 6, "token_recall": f1, "typed_precision": f1, "typed_recall": f1, "typed_f1": f1,
                  "entity_precision": f1, "entity_recall": f1, "entity_f1": f1, "span_recall_any_token": f1}
        for c in Category
    }
    return {"documents": 3, "only_ages_over_89": False, "token": token, "typed_token": dict(token), "entity": dict(token),
            "spans": 50, "span_recall_any_token": f1, "span_recall_all_tokens": f1, "per_category": per}


RESULT = {
    "status": "ok",
    "metrics": _metrics(0.91),
    "previous_metrics": _metrics(0.88),
    "better": True,
    "activated": False,
    "model_version_id": 7,
    "version_name": "workspace-v3",
    "seconds": 50.0,
    "counts": {"total": 200},
}


def assert_fits(dlg) -> None:
    hint = dlg.sizeHint()
    assert hint.width() <= SCREEN.width() and hint.height() <= SCREEN.height(), (dlg.objectName(), hint)
    dlg.resize(dlg.size().boundedTo(SCREEN.size()))
    dlg.adjustSize()
    size = dlg.size()
    assert size.width() <= SCREEN.width() and size.height() <= SCREEN.height(), (dlg.objectName(), size)
    for b in dlg.findChildren(QAbstractButton):
        if b.isVisibleTo(dlg) and b.window() is dlg and b.text():
            top_left = b.mapTo(dlg, QPoint(0, 0))
            assert dlg.rect().contains(QRect(top_left, b.size())), (dlg.objectName(), b.text())


@pytest.fixture
def host(qtbot, workspace, tmp_path, monkeypatch):
    monkeypatch.setenv("DEID_MODELS", str(tmp_path / "no-models"))
    for i in range(6):
        add_note(workspace, i)
    for i in range(12):
        workspace.save_ensemble_weights({"rules": 0.2 + i / 100, "minilm-balanced": 0.5, "minilm-recall": 0.3}, n_documents=i + 1)
    h = QMainWindow()
    h.workspace = workspace
    h.refresh_after_model_change = lambda: None
    qtbot.addWidget(h)
    return h


@pytest.mark.parametrize("kind", ["retrain", "versions", "weights", "rules", "lists", "accuracy"])
def test_model_menu_dialogs_fit_the_screen(qtbot, host, workspace, kind):
    dlg = open_learning_dialog(host, lambda: workspace, kind)
    qtbot.addWidget(dlg)
    if kind == "retrain":
        dlg.show_result(RESULT)
        assert dlg.activate_button.isVisibleTo(dlg) and dlg.close_button.isVisibleTo(dlg)
    assert_fits(dlg)
    dlg.close()


def test_review_window_dialogs_fit_the_screen(qtbot, window):
    for dlg in (window.open_export_dialog(), window.open_settings(), window.show_shortcuts()):
        assert_fits(dlg)
        dlg.close()
