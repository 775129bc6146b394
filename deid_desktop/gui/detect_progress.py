"""How far detection has got, on the status bar's progress bar: documents done and, inside a
long document, the share of it detected.

A 40-page note keeps a model busy for many seconds; counting whole documents alone would
leave the bar standing still for all of them. The bar counts in hundredths of a document, so
the within-document share the detection worker reports moves it too.
"""

from __future__ import annotations

from PySide6.QtWidgets import QProgressBar

STEPS = 100  # bar units per document


class DetectionProgress:
    """Drives ``bar`` from the detection worker's signals (all on the GUI thread)."""

    def __init__(self, bar: QProgressBar) -> None:
        self.bar = bar
        self.index = 0
        self.total = 0
        self.member = ""
        self.share = 0.0

    def start(self, total: int) -> None:
        """Detection of ``total`` documents begins (the detector is loaded)."""
        self.index, self.total, self.member, self.share = 0, total, "", 0.0
        self.bar.setRange(0, max(total, 1) * STEPS)
        self.bar.setValue(0)
        self.bar.setFormat(f"Detecting PHI: 0 of {total} documents" if total != 1 else "Detecting PHI…")

    def document(self, index: int, total: int) -> None:
        """Document ``index`` (0-based) of ``total`` starts."""
        if total != self.total:
            self.start(total)
        self.index, self.member, self.share = index, "", 0.0
        self._show()

    def member_started(self, member: str) -> None:
        self.member = member
        self._show()

    def fraction(self, share: float) -> None:
        """``share`` (0-1) of the current document is detected."""
        self.share = min(1.0, max(0.0, share))
        self._show()

    def document_done(self) -> None:
        self.share = 1.0
        self.bar.setValue(min(self.bar.maximum(), (self.index + 1) * STEPS))

    def text(self) -> str:
        """What the bar says: which document of how many, how much of it, and by whom."""
        where = f"Detecting document {self.index + 1} of {self.total}: {round(self.share * 100)} %"
        return f"{where} ({self.member})" if self.member else where

    def _show(self) -> None:
        self.bar.setValue(min(self.bar.maximum(), self.index * STEPS + round(self.share * STEPS)))
        # The bar substitutes only %p, %v and %m; "40 % (" contains none of them.
        self.bar.setFormat(self.text())
