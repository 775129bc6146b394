"""Dialogs that fit a small laptop screen: their content scrolls, their buttons never do.

A 1366×768 screen less a taskbar leaves about 720 px; a dialog taller than that pushes its
buttons off the screen, where no one can press them.
"""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtWidgets import QFrame, QScrollArea, QWidget

# The smallest screen the window is made for: 1366×768 less a 48-px taskbar.
SMALL_SCREEN = QSize(1366, 720)
# A dialog's window frame, margins and button row, which the scrolling part must leave room for.
_CHROME = QSize(40, 120)


def usable_size(widget: QWidget) -> QSize:
    """The room a dialog may take: the screen it is on, and never more than a small laptop's."""
    screen = widget.screen()
    available = screen.availableGeometry().size() if screen is not None else SMALL_SCREEN
    return available.boundedTo(SMALL_SCREEN)


class ScrollBody(QScrollArea):
    """The scrolling body of a dialog. It asks for its content's whole size, as a plain layout
    would, but no more than the screen leaves beside the dialog's buttons — so a dialog opens
    as large as it needs and scrolls only where the screen is too small."""

    def __init__(self, content: QWidget, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("scrollBody")
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        self.setWidget(content)

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt name)
        content = self.widget()
        hint = content.sizeHint() if content is not None else super().sizeHint()
        extra = QSize(self.verticalScrollBar().sizeHint().width() + 2 * self.frameWidth(), 2 * self.frameWidth())
        return (hint + extra).boundedTo(usable_size(self) - _CHROME)
