"""Model → Allow / deny lists: the terms never flagged and always flagged, with import and
export.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QHBoxLayout,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from ...core.categories import Category, display_name
from ...core.errors import DeidError
from .. import file_dialogs
from ..errors import show_error
from .common import notify_model_change, make_table, fill_table, selected_ids


class ListsDialog(QDialog):
    """Terms never flagged (allow) and always flagged (deny), per scope; plain-file import
    and export."""

    def __init__(self, workspace, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Allow / deny lists")
        self.setObjectName("listsDialog")
        self.workspace = workspace
        self.window_ = parent
        layout = QVBoxLayout(self)
        self.table = make_table(["List", "Term", "Category", "Applies to"])
        layout.addWidget(self.table)

        form = QHBoxLayout()
        self.kind = QComboBox()
        self.kind.addItem("Never flag (allow)", "allow")
        self.kind.addItem("Always flag (deny)", "deny")
        self.term = QLineEdit()
        self.term.setPlaceholderText("term, or a regular expression")
        self.is_regex = QCheckBox("regex")
        self.category = QComboBox()
        for c in Category:
            self.category.addItem(display_name(c), c.value)
        self.scope = QComboBox()
        for s in ("workspace", "subject", "document"):
            self.scope.addItem(s, s)
        self.scope_id = QLineEdit()
        self.scope_id.setPlaceholderText("subject or document id")
        self.add_button = QPushButton("Add")
        for w in (self.kind, self.term, self.is_regex, self.category, self.scope, self.scope_id, self.add_button):
            form.addWidget(w)
        layout.addLayout(form)
        self.kind.currentIndexChanged.connect(lambda _i: self.category.setEnabled(self.kind.currentData() == "deny"))
        self.category.setEnabled(False)

        row = QHBoxLayout()
        self.remove_button = QPushButton("Remove selected")
        self.import_button = QPushButton("Import list…")
        self.export_button = QPushButton("Export list…")
        close = QPushButton("Close")
        for b in (self.remove_button, self.import_button, self.export_button):
            row.addWidget(b)
        row.addStretch(1)
        row.addWidget(close)
        layout.addLayout(row)
        self.add_button.clicked.connect(self.add_from_form)
        self.remove_button.clicked.connect(self.remove_selected)
        self.import_button.clicked.connect(self._ask_import)
        self.export_button.clicked.connect(self._ask_export)
        close.clicked.connect(self.close)
        self.resize(820, 420)
        self.refresh()

    def refresh(self) -> None:
        from ...core.learn.term_lists import list_terms

        terms = list_terms(self.workspace)
        rows = [
            ["allow" if t.kind == "allow" else "deny", ("re: " if t.is_regex else "") + t.term, display_name(t.category) if t.category else "",
             t.scope if t.scope == "workspace" else f"{t.scope} {t.scope_id}"]
            for t in terms
        ]
        fill_table(self.table, rows, [t.id for t in terms])

    def add_from_form(self) -> bool:
        from ...core.learn.term_lists import add_term

        kind = self.kind.currentData()
        scope = self.scope.currentData()
        try:
            add_term(self.workspace, kind, self.term.text(), category=self.category.currentData() if kind == "deny" else None,
                     is_regex=self.is_regex.isChecked(), scope=scope, scope_id=self.scope_id.text().strip() or None)
        except (ValueError, DeidError) as e:
            show_error(self, "Allow / deny lists", str(e))
            return False
        self.term.clear()
        self._changed()
        return True

    def remove_selected(self) -> None:
        from ...core.learn.term_lists import remove_term

        ids = selected_ids(self.table)
        for i in ids:
            remove_term(self.workspace, int(i))
        if ids:
            self._changed()

    def import_file(self, path: str | Path, kind: str) -> int:
        from ...core.learn.term_lists import import_terms

        try:
            n = import_terms(self.workspace, path, kind)  # type: ignore[arg-type]
        except DeidError as e:
            show_error(self, "Import list", str(e))
            return 0
        self._changed()
        return n

    def export_file(self, path: str | Path, kind: str) -> int:
        from ...core.learn.term_lists import export_terms

        return export_terms(self.workspace, path, kind)  # type: ignore[arg-type]

    def _ask_import(self) -> None:
        path = file_dialogs.open_file_name(self, "Import list", "", "Text files (*.txt);;All files (*)")
        if path:
            self.import_file(path, self.kind.currentData())

    def _ask_export(self) -> None:
        path = file_dialogs.save_file_name(self, "Export list", f"{self.kind.currentData()}-list.txt", "Text files (*.txt)")
        if path:
            self.export_file(path, self.kind.currentData())

    def _changed(self) -> None:
        self.refresh()
        notify_model_change(self.window_)
