"""The package's shape, checked: one file per dialog in the GUI (that core imports no Qt is
tests/core/test_import_graph.py)."""

from __future__ import annotations

import ast
from pathlib import Path

GUI = Path(__file__).resolve().parents[1] / "deid_desktop" / "gui"
DIALOG_BASES = {"QDialog", "QInputDialog", "QMessageBox", "QFileDialog", "QProgressDialog", "QWizard"}


def _base_names(node: ast.ClassDef) -> set[str]:
    names = set()
    for base in node.bases:
        if isinstance(base, ast.Name):
            names.add(base.id)
        elif isinstance(base, ast.Attribute):
            names.add(base.attr)
    return names


def dialog_classes(path: Path) -> list[str]:
    """Classes of a module that are dialogs: Qt dialog subclasses, and subclasses of a dialog
    class defined earlier in the same module."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    dialogs: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and _base_names(node) & (DIALOG_BASES | set(dialogs)):
            dialogs.append(node.name)
    return dialogs


def test_every_gui_module_defines_at_most_one_dialog():
    crowded = {str(p.relative_to(GUI)): names for p in sorted(GUI.rglob("*.py")) if len(names := dialog_classes(p)) > 1}
    assert crowded == {}


def test_the_dialog_check_sees_two_dialogs_in_one_file(tmp_path):
    module = tmp_path / "two.py"
    module.write_text("from PySide6 import QtWidgets\nclass A(QtWidgets.QDialog): pass\nclass B(A): pass\n")
    assert dialog_classes(module) == ["A", "B"]

