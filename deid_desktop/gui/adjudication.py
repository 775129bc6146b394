"""Review → Adjudicate disagreements: each place where the two reviewers of a double-reviewed
document disagree, side by side in its sentence; the adjudicator keeps one side, neither, or
sets the spans by hand, at keyboard speed (the keys are in ``shortcuts.ADJUDICATION``).

A view over ``Workspace.adjudication_queue`` (``core.adjudication`` says what a disagreement
and a choice are); each choice is committed when it is made, like a review decision.
"""

from __future__ import annotations

import html

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QDialog,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QProgressBar,
    QPushButton,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from ..core.adjudication import Choice, Disagreement
from ..core.categories import Category
from ..core.errors import DeidError
from ..core.spans import Span
from .adjudication_edit import EditDialog
from .palette import CATEGORY_LABELS
from .shortcuts import ADJUDICATION

CHOICE_WORDS = {
    Choice.FIRST: "kept the left review",
    Choice.SECOND: "kept the right review",
    Choice.NEITHER: "no PHI here",
    Choice.EDIT: "set by hand",
}


def _region_html(text: str, d: Disagreement, spans: tuple[Span, ...]) -> str:
    """The disagreement's region as HTML, this side's spans highlighted and labelled."""
    parts, pos = [], d.start
    for s in sorted(spans, key=lambda s: s.start):
        parts.append(html.escape(text[pos : s.start]))
        parts.append(
            f"<span style='background:#ffe08a;font-weight:bold'>{html.escape(text[s.start:s.end])}</span>"
            f"<sub style='color:#555'>&nbsp;{html.escape(CATEGORY_LABELS[s.category])}</sub>"
        )
        pos = s.end
    parts.append(html.escape(text[pos : d.end]))
    return "".join(parts)


class AdjudicationWindow(QDialog):
    def __init__(self, workspace, adjudicator: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("adjudicationWindow")
        self.setWindowTitle("Adjudicate disagreements")
        self.workspace = workspace
        self.adjudicator = adjudicator
        self.rows: list = []
        self.doc_index = 0
        self.index = 0

        self.documents = QListWidget()
        self.documents.setObjectName("adjudicationDocuments")
        self.documents.setMaximumWidth(260)
        self.documents.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.documents.currentRowChanged.connect(self._on_document_chosen)
        self.progress_label = QLabel()
        self.progress_label.setObjectName("adjudicationProgress")
        self.progress = QProgressBar()
        self.progress.setTextVisible(True)
        self.left_title, self.right_title = QLabel(), QLabel()
        self.left, self.right = QTextBrowser(), QTextBrowser()
        for view in (self.left, self.right):
            view.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            view.setMinimumHeight(150)
        self.choice_label = QLabel()
        self.choice_label.setObjectName("adjudicationChoice")
        self.choice_label.setWordWrap(True)

        sides = QGridLayout()
        sides.addWidget(self.left_title, 0, 0)
        sides.addWidget(self.right_title, 0, 1)
        sides.addWidget(self.left, 1, 0)
        sides.addWidget(self.right, 1, 1)
        buttons = QHBoxLayout()
        self.buttons: dict[str, QPushButton] = {}
        for spec in ADJUDICATION:
            b = QPushButton(f"{spec.label.replace('&', '')} ({spec.keys[0]})")
            b.setObjectName(f"adjudicate_{spec.action}")
            b.setToolTip(spec.help)
            b.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            b.clicked.connect(lambda _=False, a=spec.action: self.act(a))
            buttons.addWidget(b)
            self.buttons[spec.action] = b
            for k in spec.keys:
                QShortcut(QKeySequence(k), self, activated=lambda a=spec.action: self.act(a))
        main = QVBoxLayout()
        main.addWidget(self.progress_label)
        main.addWidget(self.progress)
        main.addLayout(sides, 1)
        main.addWidget(self.choice_label)
        main.addLayout(buttons)
        outer = QHBoxLayout(self)
        outer.addWidget(self.documents)
        outer.addLayout(main, 1)
        self.refresh()

    # -- reading -------------------------------------------------------------------------
    def refresh(self) -> None:
        """Re-read the queue of documents to adjudicate, staying on the current place."""
        current = self.row.document_id if self.row else None
        self.rows = self.workspace.adjudication_queue()
        self.documents.blockSignals(True)
        self.documents.clear()
        for r in self.rows:
            a = r.adjudication
            left = len(a.open)
            QListWidgetItem(f"{r.name} — {left} open" if left else f"{r.name} — adjudicated", self.documents)
        ids = [r.document_id for r in self.rows]
        self.doc_index = ids.index(current) if current in ids else 0
        self.documents.setCurrentRow(self.doc_index if self.rows else -1)
        self.documents.blockSignals(False)
        self.index = min(self.index, max(0, len(self.disagreements) - 1))
        self._show()

    @property
    def row(self):
        return self.rows[self.doc_index] if 0 <= self.doc_index < len(self.rows) else None

    @property
    def disagreements(self) -> tuple[Disagreement, ...]:
        return self.row.adjudication.disagreements if self.row else ()

    @property
    def current(self) -> Disagreement | None:
        d = self.disagreements
        return d[self.index] if 0 <= self.index < len(d) else None

    # -- acting ----------------------------------------------------------------------------
    def act(self, action: str) -> None:
        try:
            if action == "next":
                self.step(+1)
            elif action == "previous":
                self.step(-1)
            elif action == "pick_left":
                self.choose(Choice.FIRST)
            elif action == "pick_right":
                self.choose(Choice.SECOND)
            elif action == "neither":
                self.choose(Choice.NEITHER)
            elif action == "edit":
                self.edit()
        except (DeidError, ValueError) as e:
            self.choice_label.setText(f"Not recorded: {e}")

    def step(self, delta: int) -> None:
        """Move to the next (previous) disagreement, across documents."""
        i = self.index + delta
        if 0 <= i < len(self.disagreements):
            self.index = i
        elif delta > 0 and self.doc_index + 1 < len(self.rows):
            self.doc_index, self.index = self.doc_index + 1, 0
        elif delta < 0 and self.doc_index > 0:
            self.doc_index -= 1
            self.index = max(0, len(self.disagreements) - 1)
        self.documents.blockSignals(True)
        self.documents.setCurrentRow(self.doc_index)
        self.documents.blockSignals(False)
        self._show()

    def choose(self, choice: Choice, edited: list[Span] | None = None) -> None:
        d, row = self.current, self.row
        if d is None or row is None:
            return
        self.workspace.adjudicate(row.document_id, d, choice, adjudicator=self.adjudicator, edited=edited or ())
        self.refresh()
        if self.current is not None and self.current.key == d.key:
            self.step(+1)

    def edit(self) -> None:
        d, row = self.current, self.row
        if d is None or row is None:
            return
        sides = d.first or d.second
        dlg = EditDialog(row.text[d.start : d.end], sides[0].category if sides else Category.NAME, self)
        if dlg.exec() == QDialog.DialogCode.Accepted:
            self.choose(Choice.EDIT, [dlg.chosen(d.start)])

    def _on_document_chosen(self, i: int) -> None:
        if 0 <= i < len(self.rows):
            self.doc_index, self.index = i, 0
            self._show()

    # -- showing ---------------------------------------------------------------------------
    def _show(self) -> None:
        row, d = self.row, self.current
        total = sum(len(r.adjudication.disagreements) for r in self.rows)
        done = total - sum(len(r.adjudication.open) for r in self.rows)
        self.progress.setRange(0, max(total, 1))
        self.progress.setValue(done if total else 1)
        self.progress.setFormat(f"{done} of {total} disagreements adjudicated")
        for b in self.buttons.values():
            b.setEnabled(d is not None)
        if row is None:
            self.progress_label.setText("No document has two finished reviews yet: mark documents for double review "
                                        "(Review → Mark for double review) and let a second reviewer finish them.")
            self.left.clear(), self.right.clear()
            self.left_title.clear(), self.right_title.clear()
            self.choice_label.clear()
            return
        n = len(self.disagreements)
        where = f"disagreement {self.index + 1} of {n}" if n else "the two reviews agree everywhere"
        self.progress_label.setText(f"Document {self.doc_index + 1} of {len(self.rows)}: {row.name} — {where}")
        self.left_title.setText(f"<b>Left: {html.escape(row.first_reviewer)}</b> (first review)")
        self.right_title.setText(f"<b>Right: {html.escape(row.second_reviewer)}</b> (second review)")
        if d is None:
            self.left.clear(), self.right.clear()
            self.choice_label.setText("Nothing to adjudicate in this document.")
            return
        before, _region, after = d.context(row.text)
        self.left.setHtml(self._side(row.text, d, d.first, before, after))
        self.right.setHtml(self._side(row.text, d, d.second, before, after))
        chosen = row.adjudication.resolutions.get(d.key)
        self.choice_label.setText(
            f"Adjudicated: {CHOICE_WORDS[chosen.choice]}." if chosen else "Open: pick the left or right review, neither, or edit."
        )

    @staticmethod
    def _side(text: str, d: Disagreement, spans: tuple[Span, ...], before: str, after: str) -> str:
        region = _region_html(text, d, spans)
        if not spans:
            region = f"<span style='text-decoration:underline'>{region}</span>"
        verdict = ", ".join(CATEGORY_LABELS[s.category] for s in spans) or "not PHI"
        return (f"<p style='font-size:12pt'>…{html.escape(before)}{region}{html.escape(after)}…</p>"
                f"<p><i>Marked: {html.escape(verdict)}</i></p>")
