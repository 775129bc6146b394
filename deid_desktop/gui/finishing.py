"""Marking a document reviewed while findings are still undecided asks first.

An undecided finding is exported as PHI, so "reviewed" with hundreds of them left is almost
always a slip of Ctrl+Enter. The reviewer chooses: accept them all (recorded as ACCEPT
decisions in the decision log, one batch, one undo step), go and review them, or cancel.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox, QWidget

from ..core.store import DocStatus
from .review import ReviewController

ACCEPT_ALL, REVIEW_THEM, CANCEL = "accept_all", "review", "cancel"


def finish_document(parent: QWidget, controller: ReviewController) -> QMessageBox | None:
    """Mark the open document reviewed, asking first when findings are undecided; returns the
    open question (window-modal, answered later), or None when no question was needed."""
    row = controller.row
    n = controller.undecided_count()
    if row is None or row.status == DocStatus.ERROR or n == 0:
        controller.mark_reviewed()
        return None
    box = QMessageBox(parent)
    box.setObjectName("undecidedQuestion")
    box.setIcon(QMessageBox.Icon.Question)
    box.setWindowTitle("Mark document reviewed")
    noun = "finding is" if n == 1 else "findings are"
    box.setText(f"{n:,} {noun} undecided.")
    box.setInformativeText(
        "Accept them all as PHI (each is recorded as your decision in the log) and mark the document reviewed, "
        "review them first, or cancel."
    )
    accept = box.addButton(f"Accept all {n:,}", QMessageBox.ButtonRole.AcceptRole)
    accept.setObjectName(ACCEPT_ALL)
    review = box.addButton("Review them", QMessageBox.ButtonRole.ActionRole)
    review.setObjectName(REVIEW_THEM)
    cancel = box.addButton(QMessageBox.StandardButton.Cancel)
    cancel.setObjectName(CANCEL)
    box.setDefaultButton(review)  # the safe answer for a reflexive Enter
    box.setEscapeButton(cancel)
    document_id = controller.document_id

    def answered(button) -> None:
        # Keys go back to the review window, whatever the platform does when a sheet closes.
        parent.activateWindow()
        if controller.document_id != document_id:
            return  # another document was opened meanwhile; the question no longer applies
        choice = button.objectName()
        if choice == ACCEPT_ALL:
            controller.accept_remaining_and_mark_reviewed()
        elif choice == REVIEW_THEM:
            controller.select_first_undecided()

    box.buttonClicked.connect(answered)
    box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    box.setWindowModality(Qt.WindowModality.WindowModal)
    box.open()
    return box
