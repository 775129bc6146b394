"""The only file dialogs the app shows: Qt's own dialog with an icon provider that judges a
file by its name and never opens it.

Why: to pick an icon and a type, Qt's default provider (and the native GTK dialog, through
GIO) opens each listed file and reads its first bytes. When the listed folder holds the open
workspace, that open()+close() of the .sqlite, -wal or -shm file silently drops every POSIX
lock SQLite holds for this process, and the next process to close the workspace deletes the
journal this window still writes into. Listing a folder must only ever stat() its files.
"""

from __future__ import annotations

from PySide6.QtCore import QFileInfo
from PySide6.QtGui import QAbstractFileIconProvider, QIcon
from PySide6.QtWidgets import QFileDialog, QFileIconProvider, QWidget


class NameOnlyIconProvider(QAbstractFileIconProvider):
    """Icons and type names from ``QFileInfo`` alone (a stat), never from file contents."""

    def __init__(self) -> None:
        super().__init__()
        self._icons = QFileIconProvider()

    def icon(self, what) -> QIcon:  # type: ignore[override]
        if isinstance(what, QFileInfo):
            kind = QAbstractFileIconProvider.IconType.Folder if what.isDir() else QAbstractFileIconProvider.IconType.File
            return self._icons.icon(kind)
        return self._icons.icon(what)

    def type(self, info: QFileInfo) -> str:  # type: ignore[override]
        if info.isDir():
            return "Folder"
        suffix = info.suffix()
        return f"{suffix.upper()} file" if suffix else "File"


_PROVIDER: NameOnlyIconProvider | None = None


def _dialog(parent: QWidget | None, caption: str, start: str, file_filter: str) -> QFileDialog:
    global _PROVIDER
    if _PROVIDER is None:  # one for the application: the dialog does not own it
        _PROVIDER = NameOnlyIconProvider()
    dlg = QFileDialog(parent, caption, start, file_filter)
    # A native dialog runs the platform's own type sniffing inside this process.
    dlg.setOption(QFileDialog.Option.DontUseNativeDialog, True)
    dlg.setIconProvider(_PROVIDER)
    return dlg


def _run(dlg: QFileDialog) -> list[str]:
    try:
        return dlg.selectedFiles() if dlg.exec() == QFileDialog.DialogCode.Accepted else []
    finally:
        dlg.deleteLater()


def open_file_names(parent: QWidget | None, caption: str, start: str = "", file_filter: str = "") -> list[str]:
    dlg = _dialog(parent, caption, start, file_filter)
    dlg.setFileMode(QFileDialog.FileMode.ExistingFiles)
    return _run(dlg)


def open_file_name(parent: QWidget | None, caption: str, start: str = "", file_filter: str = "") -> str:
    dlg = _dialog(parent, caption, start, file_filter)
    dlg.setFileMode(QFileDialog.FileMode.ExistingFile)
    return next(iter(_run(dlg)), "")


def save_file_name(
    parent: QWidget | None, caption: str, start: str = "", file_filter: str = "", *, confirm_overwrite: bool = True
) -> str:
    dlg = _dialog(parent, caption, start, file_filter)
    dlg.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
    dlg.setOption(QFileDialog.Option.DontConfirmOverwrite, not confirm_overwrite)
    return next(iter(_run(dlg)), "")


def existing_directory(parent: QWidget | None, caption: str, start: str = "") -> str:
    dlg = _dialog(parent, caption, start, "")
    dlg.setFileMode(QFileDialog.FileMode.Directory)
    dlg.setOption(QFileDialog.Option.ShowDirsOnly, True)
    return next(iter(_run(dlg)), "")
