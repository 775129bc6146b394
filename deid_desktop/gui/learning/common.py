"""Small helpers the Model menu's dialogs share: tables, durations, telling the window a model
changed.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableWidget, QTableWidgetItem


def notify_model_change(window: Any) -> None:
    refresh = getattr(window, "refresh_after_model_change", None)
    if callable(refresh):
        refresh()


def window_ensemble_config(window: Any) -> str | None:
    """The ensemble the window detects with, so a retrain compares and fits what the user runs."""
    provider = getattr(window, "provider", None)
    settings = getattr(provider, "settings", None)
    return getattr(settings, "ensemble_config", None)


def duration_text(seconds: float | None) -> str:
    if seconds is None:
        return "estimating…"
    s = int(round(seconds))
    if s < 60:
        return f"about {s} s left"
    return f"about {s // 60} min {s % 60:02d} s left"


def make_table(headers: list[str]) -> QTableWidget:
    t = QTableWidget(0, len(headers))
    t.setHorizontalHeaderLabels(headers)
    t.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    t.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    t.verticalHeader().setVisible(False)
    t.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    t.horizontalHeader().setStretchLastSection(True)
    return t


def fill_table(table: QTableWidget, rows: list[list[Any]], ids: list[Any] | None = None) -> None:
    table.setRowCount(len(rows))
    for r, row in enumerate(rows):
        for c, value in enumerate(row):
            item = QTableWidgetItem("" if value is None else str(value))
            if ids is not None and c == 0:
                item.setData(Qt.ItemDataRole.UserRole, ids[r])
            table.setItem(r, c, item)


def selected_ids(table: QTableWidget) -> list[Any]:
    rows = sorted({i.row() for i in table.selectedItems()})
    return [table.item(r, 0).data(Qt.ItemDataRole.UserRole) for r in rows]


def score_text(x: float | None) -> str:
    return "–" if x is None else f"{x:.3f}"
