"""The Model menu and opening its dialogs (one of each kind per window)."""

from __future__ import annotations

from typing import Any, Callable

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog, QMenu, QMessageBox

from .common import window_ensemble_config
from .retrain import RetrainDialog
from .versions import ModelVersionsDialog
from .weights import EnsembleWeightsDialog
from .proposals import ProposedRulesDialog
from .lists import ListsDialog


DIALOGS = {
    "retrain": ("Retrain from corrections…", "Fine-tune the model on the documents you reviewed"),
    "versions": ("Model versions…", "Every trained version with its scores; activate one to roll back"),
    "weights": ("Ensemble weights…", "The fitted soft-vote weights, whether the active strategy uses them, and their history"),
    "rules": ("Proposed rules…", "Approve or reject harvested template rules and inclusion sentences"),
    "lists": ("Allow / deny lists…", "Terms never flagged, and terms always flagged"),
    "accuracy": ("Accuracy on your documents…", "Precision and recall per category on the documents you reviewed, per model version and over time"),
}


def open_learning_dialog(window: Any, workspace_getter: Callable[[], Any], kind: str) -> QDialog | None:
    """Open (or raise) one of the Model menu's dialogs; one of each kind per window."""
    ws = workspace_getter()
    if ws is None:
        QMessageBox.information(window, "Model", "Open a workspace first.")
        return None
    dialogs: dict[str, QDialog] = window.__dict__.setdefault("_learning_dialogs", {})
    dlg = dialogs.get(kind)
    if dlg is not None and dlg.isVisible() and getattr(dlg, "workspace", None) is ws:
        dlg.raise_()
        dlg.activateWindow()
        return dlg
    cfg = window_ensemble_config(window)
    if kind == "retrain":
        dlg = RetrainDialog(ws, window, ensemble_config=cfg)
    elif kind == "versions":
        dlg = ModelVersionsDialog(ws, window, ensemble_config=cfg)
    elif kind == "weights":
        dlg = EnsembleWeightsDialog(ws, window, ensemble_config=cfg)
    elif kind == "rules":
        dlg = ProposedRulesDialog(ws, window)
    elif kind == "lists":
        dlg = ListsDialog(ws, window)
    elif kind == "accuracy":
        from ..accuracy import AccuracyDialog  # loaded on first use

        dlg = AccuracyDialog(ws, window)
    else:
        raise ValueError(f"unknown dialog {kind!r}")
    dlg.setWindowFlag(Qt.WindowType.Window, True)
    dialogs[kind] = dlg
    dlg.show()
    return dlg


def build_model_menu(window: Any, workspace_getter: Callable[[], Any]) -> QMenu:
    menu = QMenu("&Model", window)
    menu.setObjectName("modelMenu")
    menu.setToolTipsVisible(True)
    for kind, (title, tip) in DIALOGS.items():
        action = menu.addAction(title)
        action.setObjectName(f"model_{kind}")
        action.setToolTip(tip)
        action.triggered.connect(lambda _checked=False, k=kind: open_learning_dialog(window, workspace_getter, k))
        if kind == "versions":
            menu.addSeparator()
    return menu
