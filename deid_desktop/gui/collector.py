"""Python's cyclic garbage collection, kept on the GUI thread.

CPython runs an automatic collection in whichever thread happens to allocate past the
threshold. A closed dialog or window that sits in a reference cycle (a lambda slot holding
its widget, a child holding its parent) is only freed by such a collection, and freeing it
deletes its Qt widgets. When the detection or export thread is the one that allocates, the
widgets are deleted off the GUI thread and Qt aborts the process (seen as a segfault in the
GUI test suite while a model loaded in the background).

:func:`install` switches automatic collection off and runs the same generational
collections from a timer on the GUI thread instead, with the thresholds the interpreter
had. Worker threads never collect; nothing else changes.
"""

from __future__ import annotations

import gc

from PySide6.QtCore import QCoreApplication, QObject, QThread, QTimer

INTERVAL_MS = 500


class GuiThreadCollector(QObject):
    """Collects cyclic garbage from a timer on the thread that created it (the GUI
    thread), generation by generation as the interpreter would have."""

    def __init__(self, parent: QObject | None = None, interval_ms: int = INTERVAL_MS) -> None:
        super().__init__(parent)
        self.setObjectName("guiThreadCollector")
        self.thresholds = gc.get_threshold()
        self.was_enabled = gc.isenabled()
        gc.disable()
        self.timer = QTimer(self)
        self.timer.setInterval(interval_ms)
        self.timer.timeout.connect(self.check)
        self.timer.start()

    def check(self) -> int:
        """One tick: collect the oldest generation whose count is over its threshold.
        Returns the number of unreachable objects found (0 when nothing was due)."""
        counts = gc.get_count()
        generation = -1
        for g in range(3):
            if counts[g] > self.thresholds[g]:
                generation = g
        if generation < 0:
            return 0
        return gc.collect(generation)

    def uninstall(self) -> None:
        """Stops the timer and gives collection back to the interpreter."""
        self.timer.stop()
        if self.was_enabled:
            gc.enable()


def install(app: QCoreApplication) -> GuiThreadCollector:
    """Installs the collector on ``app`` once (a second call returns the first); must be
    called on the GUI thread."""
    if QThread.currentThread() is not app.thread():
        raise RuntimeError("the garbage collector must be installed from the GUI thread")
    existing = app.findChild(GuiThreadCollector, "guiThreadCollector")
    if existing is not None:
        return existing
    return GuiThreadCollector(app)
