"""Where an export needs a look: each exported file the re-scan flagged, shown as written,
with the re-scan's findings and any replaced value still present highlighted, one key to
step from one to the next.

The report only counts them ("2 files have re-scan findings: check them before release");
a data steward has to see where. The text shown is the exported file as read back, so what
is highlighted is exactly what would be released.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QKeySequence, QShortcut, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QTextEdit,
    QVBoxLayout,
    QWidget,
)

from ..core.categories import Category, display_name
from ..core.errors import DeidError
from ..core.windows import value_pattern

log = logging.getLogger(__name__)

RESCAN_FILL = QColor("#F0B54A")  # a finding the re-scan made in the written text
RESIDUAL_FILL = QColor("#E8747C")  # a value the export replaced that is still there


@dataclass(frozen=True)
class Mark:
    start: int
    end: int
    kind: str  # "rescan" | "residual"
    label: str


def residual_marks(out_text: str, originals: list[str]) -> list[Mark]:
    """Every place a replaced original (3+ characters, any case, whole words) still occurs
    in the written text."""
    marks = []
    for o in sorted({o.strip() for o in originals if len(o.strip()) >= 3}, key=len, reverse=True):
        for m in value_pattern(o, re.IGNORECASE).finditer(out_text):
            if not any(k.start < m.end() and m.start() < k.end for k in marks):
                marks.append(Mark(m.start(), m.end(), "residual", "replaced value still present"))
    return marks


def marks_for(out_text: str, rescan_findings: list[dict], originals: list[str]) -> list[Mark]:
    found = [
        Mark(int(f["start"]), int(f["end"]), "rescan", f"re-scan: {display_name(f.get('category', ''))}")
        for f in rescan_findings
        if 0 <= int(f["start"]) < int(f["end"]) <= len(out_text)
    ]
    residual = [m for m in residual_marks(out_text, originals) if not any(f.start < m.end and m.start < f.end for f in found)]
    return sorted(found + residual, key=lambda m: (m.start, m.end))


class ExportCheckDialog(QDialog):
    """The files of one export that need a look, and each one's marks in its written text.
    N (or F3) steps to the next mark, Shift+N (Shift+F3) to the previous one."""

    def __init__(self, summary, workspace, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Check before release")
        self.setObjectName("exportCheckDialog")
        self.summary = summary
        self.workspace = workspace
        self.keys = [k for k, r in sorted(summary.results.items()) if r.status == "ok" and r.needs_check]
        self.marks: list[Mark] = []
        self.current = -1

        self.files = QListWidget()
        self.files.setObjectName("checkFiles")
        for k in self.keys:
            r = summary.results[k]
            item = QListWidgetItem(Path(r.output).name if r.output else k)
            item.setToolTip(self._file_summary(r))
            self.files.addItem(item)
        self.text = QPlainTextEdit()
        self.text.setObjectName("checkText")
        self.text.setReadOnly(True)
        self.where = QLabel()
        self.where.setWordWrap(True)
        self.prev_button = QPushButton("&Previous")
        self.next_button = QPushButton("&Next")
        self.prev_button.setToolTip("Previous mark (Shift+N, Shift+F3)")
        self.next_button.setToolTip("Next mark (N, F3)")
        self.prev_button.clicked.connect(lambda: self.step(-1))
        self.next_button.clicked.connect(lambda: self.step(1))
        for seq, d in (("N", 1), ("F3", 1), ("Shift+N", -1), ("Shift+F3", -1)):
            QShortcut(QKeySequence(seq), self, activated=lambda d=d: self.step(d))

        right = QWidget()
        rl = QVBoxLayout(right)
        rl.setContentsMargins(0, 0, 0, 0)
        rl.addWidget(self.where)
        rl.addWidget(self.text, 1)
        nav = QHBoxLayout()
        legend = QLabel(
            f'<span style="background:{RESCAN_FILL.name()}">&nbsp;re-scan finding&nbsp;</span> '
            f'<span style="background:{RESIDUAL_FILL.name()}">&nbsp;replaced value still present&nbsp;</span>'
        )
        nav.addWidget(legend)
        nav.addStretch(1)
        nav.addWidget(self.prev_button)
        nav.addWidget(self.next_button)
        rl.addLayout(nav)
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(self.files)
        split.addWidget(right)
        split.setStretchFactor(1, 3)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.close)
        lay = QVBoxLayout(self)
        lay.addWidget(QLabel("Exported files the re-scan flagged, as written. Fix the decisions in the review window and export again."))
        lay.addWidget(split, 1)
        lay.addWidget(buttons)
        self.files.currentRowChanged.connect(self.show_file)
        self.resize(980, 600)
        if self.keys:
            self.files.setCurrentRow(0)

    @staticmethod
    def _file_summary(r) -> str:
        parts = []
        if r.rescan_findings:
            parts.append(f"{len(r.rescan_findings)} re-scan finding(s)")
        if r.residual_originals:
            parts.append(f"{r.residual_originals} replaced value(s) still present")
        if r.pages_to_check:
            parts.append("pages to check: " + ", ".join(map(str, r.pages_to_check)))
        return "; ".join(parts) or "nothing flagged"

    def _originals(self, key: str) -> list[str]:
        d = getattr(self.summary, "documents", {}).get(key)
        if d is None:
            return []
        try:
            text = self.workspace.load_document(d.document_id).text
            # ages up to the cap are written as themselves on purpose (the count skips them too)
            spans = self.workspace.final_spans(d.document_id, unreviewed_policy="accept")
            return [text[s.start : s.end] for s in spans if s.category is not Category.AGE]
        except DeidError:
            return []

    def show_file(self, row: int) -> None:
        from ..core.documents.ingest import load_document

        if not 0 <= row < len(self.keys):
            return
        key = self.keys[row]
        r = self.summary.results[key]
        try:
            out_text = load_document(Path(r.output)).text
        except (DeidError, OSError) as e:
            log.warning("an exported file could not be read back (%s)", type(e).__name__)
            self.text.setPlainText("")
            self.where.setText("The exported file could not be read back; it may have been moved or changed since.")
            self.marks, self.current = [], -1
            return
        self.text.setPlainText(out_text)
        self.marks = marks_for(out_text, r.rescan_findings, self._originals(key))
        selections = []
        for m in self.marks:
            sel = QTextEdit.ExtraSelection()
            fmt = QTextCharFormat()
            fmt.setBackground(RESCAN_FILL if m.kind == "rescan" else RESIDUAL_FILL)
            sel.format = fmt
            cur = QTextCursor(self.text.document())
            cur.setPosition(m.start)
            cur.setPosition(m.end, QTextCursor.MoveMode.KeepAnchor)
            sel.cursor = cur
            selections.append(sel)
        self.text.setExtraSelections(selections)
        self.current = -1
        self.where.setText(self._file_summary(r) + (" — N steps through them." if self.marks else ""))
        if self.marks:
            self.step(1)

    def step(self, direction: int) -> Mark | None:
        """Moves to the next (1) or previous (-1) mark, wrapping round, and centres it."""
        if not self.marks:
            return None
        self.current = (self.current + direction) % len(self.marks)
        m = self.marks[self.current]
        cur = self.text.textCursor()
        cur.setPosition(m.start)
        cur.setPosition(m.end, QTextCursor.MoveMode.KeepAnchor)
        self.text.setTextCursor(cur)
        self.text.centerCursor()
        r = self.summary.results[self.keys[self.files.currentRow()]]
        self.where.setText(f"{self.current + 1} of {len(self.marks)}: {m.label}. " + self._file_summary(r))
        return m
