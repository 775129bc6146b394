"""Help → Keyboard shortcuts: the shortcut table, every row shown whole."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractItemView, QDialog, QHeaderView, QLabel, QTableWidget, QTableWidgetItem, QVBoxLayout, QWidget

from .fitting import SMALL_SCREEN
from .shortcuts import help_rows

INTRO = "Every action is saved as you make it; Ctrl+Z undoes it (the audit log keeps both)."


def shortcuts_table(parent: QWidget) -> QTableWidget:
    rows = help_rows()
    table = QTableWidget(len(rows), 3, parent)
    table.setObjectName("shortcutsTable")
    table.setHorizontalHeaderLabels(["", "Keys", "What it does"])
    for r, (group, keys, what) in enumerate(rows):
        for c, text in enumerate((group, keys, what)):
            table.setItem(r, c, QTableWidgetItem(text))
    table.verticalHeader().hide()
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    table.setWordWrap(True)
    table.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    header = table.horizontalHeader()
    header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
    header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
    header.setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
    # Long descriptions wrap; each row is as tall as its wrapped text (a fixed row height
    # cut them to their first line). The table scrolls, so the dialog stays on the screen.
    table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    return table


def shortcuts_dialog(parent: QWidget) -> QDialog:
    dlg = QDialog(parent)
    dlg.setObjectName("shortcutsHelp")
    dlg.setWindowTitle("Keyboard shortcuts")
    lay = QVBoxLayout(dlg)
    lay.addWidget(QLabel(INTRO))
    lay.addWidget(shortcuts_table(dlg))
    dlg.resize(min(900, SMALL_SCREEN.width() - 40), min(620, SMALL_SCREEN.height() - 60))
    dlg.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    return dlg
