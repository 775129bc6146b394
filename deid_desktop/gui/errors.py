"""Errors as readable messages, never as a crash.

Exception messages can quote document text (a KeyError on a name, a ValueError echoing its
input), so for anything that is not one of our own PHI-free ``DeidError`` messages only the
exception type and the code locations reach the log and the "Show details…" text.
"""

from __future__ import annotations

import logging
import sys
from types import TracebackType
from typing import Callable

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QMessageBox, QWidget

from ..core.errors import DeidError, content_free_traceback

log = logging.getLogger("deid_desktop.gui")


def describe(exc: BaseException) -> tuple[str, str]:
    """(message, details) for a dialog."""
    if isinstance(exc, DeidError):
        return str(exc), f"{type(exc).__name__}"
    msg = (
        f"Something went wrong ({type(exc).__name__}). Every decision you made before this is saved "
        "in the workspace; you can carry on, or restart the application."
    )
    return msg, content_free_traceback(type(exc), exc.__traceback__)


def show_error(parent: QWidget | None, title: str, message: str, details: str | None = None) -> QMessageBox:
    """A warning box with an optional "Show details…" section. It is opened window-modal
    and returned at once, so a background signal or a test never blocks on it."""
    box = QMessageBox(QMessageBox.Icon.Warning, title, message, QMessageBox.StandardButton.Ok, parent)
    box.setObjectName("errorMessage")
    if details:
        box.setDetailedText(details)
    box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    box.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    box.open()
    return box


def make_excepthook(parent_getter: Callable[[], QWidget | None]):
    def hook(exc_type: type[BaseException], exc: BaseException, tb: TracebackType | None) -> None:
        if issubclass(exc_type, KeyboardInterrupt):
            QApplication.quit()
            return
        if isinstance(exc, DeidError):
            log.error("%s", exc)
        else:
            log.error("unhandled error\n%s", content_free_traceback(exc_type, tb))
        if QApplication.instance() is None:
            return
        message, details = describe(exc.with_traceback(tb) if exc.__traceback__ is None else exc)
        try:
            show_error(parent_getter(), "deid-desktop: error", message, details)
        except Exception:  # showing the error must never raise from inside the hook
            log.error("could not show the error dialog")

    return hook


def install_excepthook(parent_getter: Callable[[], QWidget | None]) -> None:
    sys.excepthook = make_excepthook(parent_getter)
