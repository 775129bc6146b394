"""Model → Reviewer agreement: how far the two reviewers of double-reviewed documents agree
(``core.agreement``), beside the accuracy figures. A view only: it writes nothing."""

from __future__ import annotations

from PySide6.QtWidgets import QDialog, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from ..core.agreement import AgreementReport, agreement
from ..core.categories import display_name
from .learning.common import fill_table, make_table

HEADERS = ["Category", "Kappa (words)", "Span precision", "Span recall", "Span F1", "Spans left / right / both"]


def _f(x: float | None) -> str:
    return "–" if x is None else f"{x:.3f}"


class AgreementDialog(QDialog):
    def __init__(self, workspace, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("agreementDialog")
        self.setWindowTitle("Reviewer agreement")
        self.workspace = workspace
        self.summary = QLabel()
        self.summary.setObjectName("agreementSummary")
        self.summary.setWordWrap(True)
        self.table = make_table(HEADERS)
        self.table.setObjectName("agreementTable")
        self.table.setToolTip(
            "Kappa: Cohen's kappa word by word (the category of the span covering each word, or none), corrected for "
            "chance. Spans match when both reviewers marked the same characters with the same category; precision "
            "is the share of the second reviewer's spans the first also marked, recall the share of the first's the "
            "second found."
        )
        layout = QVBoxLayout(self)
        layout.addWidget(self.summary)
        layout.addWidget(self.table, 1)
        row = QHBoxLayout()
        row.addStretch(1)
        close = QPushButton("Close")
        close.clicked.connect(self.close)
        row.addWidget(close)
        layout.addLayout(row)
        self.report: AgreementReport | None = None
        self.refresh()

    def refresh(self) -> None:
        pairs, reviewers = self.workspace.review_pairs()
        self.report = r = agreement(pairs)
        if not r.documents:
            self.summary.setText("No document has two finished reviews yet. Mark documents for double review "
                                 "(Review → Mark for double review, or Sample the queue) and let a second reviewer finish them.")
            fill_table(self.table, [])
            return
        self.summary.setText(
            f"{r.documents} document(s) reviewed by both of {', '.join(reviewers)}; {r.kappa.tokens:,} words compared."
        )
        rows = [("Overall", r.kappa, r.spans)]
        rows += [(display_name(c), r.kappa_by_category[c], r.spans_by_category[c]) for c in r.kappa_by_category]
        fill_table(self.table, [
            [name, _f(k.value), _f(s.precision), _f(s.recall), _f(s.f1), f"{s.first} / {s.second} / {s.matched}"]
            for name, k, s in rows
        ])
