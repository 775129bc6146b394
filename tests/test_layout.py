"""The package's shape, checked: one file per dialog in the GUI, and tests of core laid out as
core is, without Qt (that core itself imports no Qt is tests/core/test_import_graph.py)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GUI = ROOT / "deid_desktop" / "gui"
CORE = ROOT / "deid_desktop" / "core"
CORE_TESTS = ROOT / "tests" / "core"
QT_MODULES = ("PySide6", "pytestqt", "deid_desktop.gui")
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



def misplaced_tests(tests: Path, package: Path) -> list[str]:
    """Test files whose folder names no package: tests/core/detect/test_x.py must test
    deid_desktop/core/detect, so a newcomer finds a module's tests by its path and back."""
    return sorted(
        str(path.relative_to(tests))
        for path in tests.rglob("test_*.py")
        if not (package / path.parent.relative_to(tests) / "__init__.py").is_file()
    )


def qt_imports(tests: Path) -> list[str]:
    """Test files of core that import Qt or the GUI: pure functions are tested directly."""
    found = []
    for path in sorted(tests.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom) and not node.level:
                names = [node.module or ""]
            if any(n == q or n.startswith(q + ".") for n in names for q in QT_MODULES):
                found.append(str(path.relative_to(tests)))
                break
    return found


def test_tests_of_core_mirror_its_packages():
    assert misplaced_tests(CORE_TESTS, CORE) == []


def test_the_layout_check_flags_a_test_in_a_folder_with_no_package(tmp_path):
    package, tests = tmp_path / "core", tmp_path / "tests"
    for folder in (package, package / "detect"):
        folder.mkdir(parents=True)
        (folder / "__init__.py").write_text("")
    for test in ("test_top.py", "detect/test_rule.py", "detection/test_rule.py", "detect/rules/test_age.py"):
        (tests / test).parent.mkdir(parents=True, exist_ok=True)
        (tests / test).write_text("")
    assert misplaced_tests(tests, package) == ["detect/rules/test_age.py", "detection/test_rule.py"]


def test_tests_of_core_import_no_qt():
    assert qt_imports(CORE_TESTS) == []


def test_the_qt_check_sees_a_gui_import(tmp_path):
    (tmp_path / "test_a.py").write_text("from deid_desktop.gui.review import ReviewController\n")
    (tmp_path / "test_b.py").write_text("import PySide6.QtCore\n")
    (tmp_path / "test_c.py").write_text("from deid_desktop.core import spans\nfrom . import guiding\n")
    assert qt_imports(tmp_path) == ["test_a.py", "test_b.py"]
