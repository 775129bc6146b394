"""The document keeps at least half of the window's width; the side panels give way first.

QMainWindow hands a shrinking window's lost width to the central widget and leaves docks as
they are, so on a 1024-px screen the document — what is being reviewed — ended up a narrow
strip between two full-width panels. This watches the window's size and narrows the docks.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Qt, QTimer
from PySide6.QtWidgets import QDockWidget, QMainWindow, QWidget

DOCUMENT_SHARE = 0.5  # the least part of the window's width the document keeps
DOCK_MIN_WIDTH = 160  # a side panel narrower than this shows nothing useful


class DocumentRoom(QObject):
    """Told by the window after each resize or show (``schedule``): docks wider than their
    share shrink (in proportion to their widths) until ``central`` has its share.

    The window calls it from its own resizeEvent rather than through an event filter: a
    Python event filter on the main window still received the window's last events while
    the garbage collector was tearing the pair down, and crashed the process (one GUI test
    run in three)."""

    def __init__(self, window: QMainWindow, central: QWidget, docks: list[QDockWidget]) -> None:
        super().__init__(window)
        self.window, self.central, self.docks = window, central, docks
        for dock in docks:
            dock.setMinimumWidth(DOCK_MIN_WIDTH)
        # After the layout has placed the docks for the new size, not during the resize.
        self._pending = QTimer(self)
        self._pending.setSingleShot(True)
        self._pending.setInterval(0)
        self._pending.timeout.connect(self.fit)

    def schedule(self) -> None:
        self._pending.start()

    def fit(self) -> None:
        """Narrow the side-by-side docks so the document has its share of the width."""
        side = [d for d in self.docks if d.isVisible() and not d.isFloating()]
        want = int(self.window.width() * DOCUMENT_SHARE)
        short = want - self.central.width()
        if not side or short <= 0:
            return
        total = sum(d.width() for d in side)
        widths = [max(DOCK_MIN_WIDTH, d.width() - round(short * d.width() / total)) for d in side]
        self.window.resizeDocks(side, widths, Qt.Orientation.Horizontal)
