"""A file dialog listing the workspace's folder never opens the workspace's files, so the
window keeps its SQLite locks and no other process can delete the journal it writes into."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest
from PySide6.QtWidgets import QFileDialog, QFileSystemModel

from deid_desktop.core.store.database import _inodes_locked_by_this_process
from deid_desktop.gui import file_dialogs

linux_only = pytest.mark.skipif(
    not sys.platform.startswith("linux") or _inodes_locked_by_this_process() is None,
    reason="reads this process's POSIX locks from /proc/locks",
)


def _list_folder(qtbot, dlg: QFileDialog, folder: Path) -> None:
    """Show the dialog on ``folder`` until it has listed it and drawn every entry."""
    model = dlg.findChild(QFileSystemModel)
    dlg.setViewMode(QFileDialog.ViewMode.Detail)
    with qtbot.waitSignal(model.directoryLoaded, timeout=10_000):
        dlg.setDirectory(str(folder))
        dlg.show()
    qtbot.waitUntil(lambda: model.rowCount(model.index(str(folder))) >= 3, timeout=10_000)
    qtbot.wait(300)  # icons and types are gathered on a background thread after listing
    dlg.reject()


@linux_only
def test_listing_the_workspace_folder_leaves_the_workspace_locked(qtbot, workspace, tmp_path):
    from deid_desktop.core.documents.model import Document

    workspace.import_document(Document.from_text("Seen by Ann Lee."))
    assert workspace.path.parent == tmp_path and Path(f"{workspace.path}-wal").exists()
    dlg = file_dialogs._dialog(None, "Import documents", str(tmp_path), "All files (*)")
    qtbot.addWidget(dlg)
    _list_folder(qtbot, dlg, tmp_path)
    # Qt's default dialog opens the .sqlite, -wal and -shm files to sniff their type,
    # which drops every lock SQLite holds for this process.
    assert not workspace._db._hold.broken()


def test_the_gui_shows_file_dialogs_only_through_the_name_only_helper():
    gui = Path(file_dialogs.__file__).parent
    offenders = []
    for module in gui.glob("*.py"):
        if module.name == "file_dialogs.py":
            continue
        names = {n.id for n in ast.walk(ast.parse(module.read_text(encoding="utf-8"))) if isinstance(n, ast.Name)}
        names |= {n.attr for n in ast.walk(ast.parse(module.read_text(encoding="utf-8"))) if isinstance(n, ast.Attribute)}
        if "QFileDialog" in names:
            offenders.append(module.name)
    assert offenders == []
