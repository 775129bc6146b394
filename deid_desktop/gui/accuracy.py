"""Model → Accuracy on your documents: how the detector does on this site's reviewed
documents, per category, per detector version and over time (``core.learn.accuracy``).

A view only: it reads the workspace when opened or when the period changes, and writes
nothing. Figures resting on too few documents or words say so next to them, as the retrain
comparison does, so a handful of reviewed notes is not read as a verdict.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QPixmap
from PySide6.QtWidgets import QComboBox, QDialog, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from ..core.categories import display_name
from ..core.learn.accuracy import MIN_WORDS, PERIODS, AccuracyReport, Tally, VersionAccuracy, accuracy_on_reviewed
from ..core.learn.uncertainty import MIN_DOCUMENTS
from .fitting import ScrollBody
from .learning.common import fill_table, make_table
from .learning_charts import COLOURS, xy_image

HEADERS = ["Category", "Precision", "95% interval", "Recall", "95% interval",
           "Found (words)", "Wrongly flagged", "Missed", "Documents", ""]
TOO_FEW = "too few to judge"
TABLE_MAX_WIDTH, TABLE_MAX_HEIGHT = 1100, 360
EMPTY = ("No reviewed documents yet: mark documents reviewed (Ctrl+Enter) and this shows how "
         "the detector does on them — what it proposed against what your reviewers kept.")


def tally_row(name: str, t: Tally) -> list[str]:
    """One table row: the ratios with their intervals, the counts behind them, a verdict."""
    return [
        name,
        _ratio(t.precision), _interval(t.precision, t.precision_interval),
        _ratio(t.recall), _interval(t.recall, t.recall_interval),
        str(t.tp), str(t.fp), str(t.fn), str(t.documents),
        TOO_FEW if t.too_few else "",
    ]


def _ratio(x: float | None) -> str:
    return "–" if x is None else f"{x:.3f}"


def _interval(x: float | None, ci: tuple[float, float]) -> str:
    return "" if x is None else f"{ci[0]:.2f}–{ci[1]:.2f}"


class AccuracyDialog(QDialog):
    def __init__(self, workspace, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Accuracy on your documents")
        self.setObjectName("accuracyDialog")
        self.workspace = workspace
        self.report: AccuracyReport | None = None
        body = QWidget()
        layout = QVBoxLayout(body)
        self.summary = QLabel()
        self.summary.setObjectName("accuracySummary")
        self.summary.setWordWrap(True)
        layout.addWidget(self.summary)
        pick = QHBoxLayout()
        pick.addWidget(QLabel("Detector version:"))
        self.version = QComboBox()
        self.version.setObjectName("accuracyVersion")
        self.version.setToolTip("Each detector version is measured only on the documents it detected in")
        pick.addWidget(self.version, 1)
        pick.addWidget(QLabel("Over time by:"))
        self.period = QComboBox()
        for p in PERIODS:
            self.period.addItem(p, p)
        pick.addWidget(self.period)
        layout.addLayout(pick)
        self.table = make_table(HEADERS)
        self.table.setObjectName("accuracyTable")
        self.table.setToolTip(
            "Counted word by word. Found: proposed with the category your reviewers kept. Wrongly flagged: "
            "proposed but rejected, relabelled away or cut off by a resize. Missed: added by a reviewer, "
            f"relabelled to it or taken in by a resize. Below {MIN_DOCUMENTS} documents or {MIN_WORDS} words "
            "a figure is too few to judge."
        )
        layout.addWidget(self.table)
        self.chart = QLabel()
        self.chart.setObjectName("accuracyChart")
        self.chart.setAlignment(Qt.AlignmentFlag.AlignHCenter)
        layout.addWidget(self.chart)
        outer = QVBoxLayout(self)
        outer.addWidget(ScrollBody(body), 1)
        row = QHBoxLayout()
        row.addStretch(1)
        close = QPushButton("Close")
        close.clicked.connect(self.close)
        row.addWidget(close)
        outer.addLayout(row)
        self.version.currentIndexChanged.connect(self.show_version)
        self.period.currentIndexChanged.connect(self.refresh)
        self.refresh()

    def refresh(self) -> None:
        """Re-read the workspace; keeps the chosen version when it is still there."""
        chosen = self.version.currentData()
        self.report = accuracy_on_reviewed(self.workspace, period=self.period.currentData() or "month")
        self.version.blockSignals(True)
        self.version.clear()
        for v in self.report.versions:
            self.version.addItem(f"{v.label} (active)" if v.active else v.label, v.label)
        active = self.report.active()
        index = self.version.findData(chosen if self.version.findData(chosen) >= 0 else (active.label if active else None))
        self.version.setCurrentIndex(max(0, index))
        self.version.blockSignals(False)
        self.version.setEnabled(not self.report.empty)
        self.period.setEnabled(not self.report.empty)
        self.summary.setText(self._summary())
        self.show_version()

    def selected(self) -> VersionAccuracy | None:
        label = self.version.currentData()
        return next((v for v in self.report.versions if v.label == label), None) if self.report else None

    def show_version(self) -> None:
        v = self.selected()
        if v is None:
            fill_table(self.table, [])
            self.chart.clear()
            return
        rows = [tally_row(display_name(c), t) for c, t in v.per_category.items()]
        fill_table(self.table, rows + [tally_row("All categories", v.overall)])
        self._show_whole_table()
        self.chart.setPixmap(self._chart(v))

    def _show_whole_table(self) -> None:
        """Ask for room for every row and column (at most one category per row, so it stays
        small); the scrolling body still keeps the dialog on a small screen."""
        t = self.table
        t.resizeColumnsToContents()
        frame = 2 * t.frameWidth() + 2
        width = t.horizontalHeader().length() + frame
        height = t.verticalHeader().length() + t.horizontalHeader().height() + frame
        t.setMinimumSize(min(width, TABLE_MAX_WIDTH), min(height, TABLE_MAX_HEIGHT))

    def _summary(self) -> str:
        r = self.report
        if r is None or r.empty:
            return EMPTY
        text = (f"Measured on {r.documents} reviewed document{'s' if r.documents != 1 else ''} of this workspace: "
                "what the detector proposed, word by word, against what your reviewers kept.")
        if r.without_detection:
            n = r.without_detection
            text += f" {n} reviewed document{'s' if n != 1 else ''} with no detection on record {'are' if n != 1 else 'is'} left out."
        return text

    def _chart(self, v: VersionAccuracy) -> QPixmap:
        """Precision and recall of the version per period, oldest first."""
        names = [p.period for p in v.periods]
        series = {
            "precision": [(i, p.overall.precision) for i, p in enumerate(v.periods) if p.overall.precision is not None],
            "recall": [(i, p.overall.recall) for i, p in enumerate(v.periods) if p.overall.recall is not None],
        }
        span = names[0] if len(names) == 1 else f"{names[0]} to {names[-1]}"
        img = xy_image(series, title=f"All categories, per {self.period.currentData()} of review",
                       x_label=f"{len(names)} period{'s' if len(names) != 1 else ''}: {span}",
                       colours=COLOURS[1:], width=640, height=220)
        return QPixmap.fromImage(img)
