"""Model → Model versions: every trained version with its scores; activating one rolls back."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QHBoxLayout,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from .common import notify_model_change, make_table, fill_table, selected_ids, score_text
from .background import WeightRefit


class ModelVersionsDialog(QDialog):
    """Every trained version with its held-out scores; Activate makes any of them (or the
    shipped model) the one detection uses."""

    SHIPPED = -1

    def __init__(self, workspace, parent: QWidget | None = None, *, ensemble_config: str | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Model versions")
        self.setObjectName("modelVersionsDialog")
        self.workspace = workspace
        self.window_ = parent
        self.ensemble_config = ensemble_config
        self.refit: WeightRefit | None = None
        layout = QVBoxLayout(self)
        self.table = make_table(["Version", "Active", "Created", "Held-out F1", "Recall", "Precision", "Before F1", "Trained on"])
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        layout.addWidget(self.table)
        row = QHBoxLayout()
        self.activate_button = QPushButton("Activate selected")
        self.activate_button.setToolTip("Make the selected version the one detection uses (an older one: rollback)")
        close = QPushButton("Close")
        row.addWidget(self.activate_button)
        row.addStretch(1)
        row.addWidget(close)
        layout.addLayout(row)
        self.activate_button.clicked.connect(self.activate_selected)
        close.clicked.connect(self.close)
        self.resize(760, 360)
        self.refresh()

    def refresh(self) -> None:
        versions = self.workspace.list_model_versions()
        rows: list[list[Any]] = [["shipped model", "yes" if not any(v.active for v in versions) else "", "", "", "", "", "", ""]]
        ids: list[int] = [self.SHIPPED]
        for v in versions:
            h = (v.metrics.get("heldout") or {}).get("token") or {}
            b = (v.metrics.get("previous") or {}).get("token") or {}
            docs = v.metrics.get("train_documents")
            rows.append([v.name, "yes" if v.active else "", f"{v.created_at:%Y-%m-%d %H:%M}", score_text(h.get("f1")), score_text(h.get("recall")),
                         score_text(h.get("precision")), score_text(b.get("f1")), f"{docs} reviewed" if docs is not None else ""])
            ids.append(v.id)
        fill_table(self.table, rows, ids)

    def select(self, version_id: int) -> None:
        for r in range(self.table.rowCount()):
            if self.table.item(r, 0).data(Qt.ItemDataRole.UserRole) == version_id:
                self.table.selectRow(r)

    def activate_selected(self) -> None:
        ids = selected_ids(self.table)
        if not ids:
            return
        if ids[0] == self.SHIPPED:
            self.workspace.deactivate_model_versions()
        else:
            self.workspace.activate_model_version(int(ids[0]))
        self.refresh()
        notify_model_change(self.window_)
        self.refit = WeightRefit(self.workspace, self.ensemble_config, self)
        self.refit.finished.connect(lambda _w: notify_model_change(self.window_))
        self.refit.start()

    def closeEvent(self, event) -> None:  # noqa: N802
        if self.refit is not None:
            self.refit.background.wait()
        super().closeEvent(event)
