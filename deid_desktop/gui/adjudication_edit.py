"""Adjudication's "Edit…": the adjudicator sets a disagreement's span by hand."""

from __future__ import annotations

from PySide6.QtWidgets import QComboBox, QDialog, QDialogButtonBox, QLabel, QPlainTextEdit, QVBoxLayout, QWidget

from ..core.categories import Category
from ..core.spans import Span
from .palette import CATEGORY_LABELS


class EditDialog(QDialog):
    """Set the region's span by hand: select the words in the region, pick the category."""

    def __init__(self, region: str, category: Category, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Set the span by hand")
        self.text = QPlainTextEdit(region)
        self.text.setReadOnly(True)
        self.text.setMaximumHeight(90)
        self.category = QComboBox()
        for c in Category:
            self.category.addItem(CATEGORY_LABELS[c], c)
        self.category.setCurrentIndex(self.category.findData(category))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel("Select the text that is PHI (nothing selected: the whole region)."))
        layout.addWidget(self.text)
        layout.addWidget(self.category)
        layout.addWidget(buttons)

    def chosen(self, offset: int) -> Span:
        cursor = self.text.textCursor()
        lo, hi = sorted((cursor.selectionStart(), cursor.selectionEnd()))
        if lo == hi:
            lo, hi = 0, len(self.text.toPlainText())
        return Span(offset + lo, offset + hi, self.category.currentData())
