"""Never flag this text again — but not silently for a name.

An allow-list term hides its text in every document of its scope. For "teacher" that is the
point; for "Patel" it would let a common surname through in every other note of the
workspace. When the text is a known name, or was accepted as PHI in another document, the
reviewer is asked first, and the offered default is this document only.
"""

from __future__ import annotations

import re

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox, QWidget

from ..core.detect.rules.names import is_known_name
from ..core.store import DocStatus
from ..core.usecases.review import PHI_STATES
from .review import ReviewController

THIS_DOCUMENT, WHOLE_WORKSPACE, CANCEL = "document", "workspace", "cancel"
_WORD = re.compile(r"[^\W\d_]+(?:['’-][^\W\d_]+)*")


def accepted_elsewhere(workspace, document_id: int, text: str) -> int:
    """In how many other documents the same text was accepted (or added) as PHI."""
    n = 0
    for doc in workspace.list_documents():
        if doc.id == document_id or doc.status == DocStatus.ERROR:
            continue
        if any(s.text == text and s.state in PHI_STATES for s in workspace.list_spans(doc.id)):
            n += 1
    return n


def risks(workspace, document_id: int, text: str) -> list[str]:
    """Why never flagging ``text`` in the whole workspace could hide PHI; empty when nothing
    suggests it."""
    reasons = []
    names = [w for w in _WORD.findall(text) if is_known_name(w)]
    if names:
        reasons.append(f"{', '.join(f'“{w}”' for w in names)} {'is a name' if len(names) == 1 else 'are names'} in the name lists")
    others = accepted_elsewhere(workspace, document_id, text)
    if others:
        reasons.append(f"it was accepted as PHI in {others} other document{'s' if others != 1 else ''}")
    return reasons


def never_flag_asking(parent: QWidget, controller: ReviewController) -> QMessageBox | None:
    """Reject the selected finding and never flag its text again: in the whole workspace when
    nothing suggests it is PHI elsewhere; otherwise after asking, defaulting to this document.
    Returns the open question, or None when none was needed."""
    cur = controller.current
    if cur is None or controller.document_id is None:
        controller.reject_and_never_flag(WHOLE_WORKSPACE)  # says "select a finding first"
        return None
    reasons = risks(controller.workspace, controller.document_id, cur.text)
    if not reasons:
        controller.reject_and_never_flag(WHOLE_WORKSPACE)
        return None
    box = QMessageBox(parent)
    box.setObjectName("neverFlagQuestion")
    box.setIcon(QMessageBox.Icon.Warning)
    box.setWindowTitle("Never flag this text again")
    box.setText(f"“{' '.join(cur.text.split())}” may be PHI elsewhere: " + "; ".join(reasons) + ".")
    box.setInformativeText(
        "Never flagging it in the whole workspace would hide it in every document. "
        "Reject it and never flag it again in this document only, or in the whole workspace?"
    )
    here = box.addButton("This document only", QMessageBox.ButtonRole.AcceptRole)
    here.setObjectName(THIS_DOCUMENT)
    everywhere = box.addButton("Whole workspace", QMessageBox.ButtonRole.DestructiveRole)
    everywhere.setObjectName(WHOLE_WORKSPACE)
    cancel = box.addButton(QMessageBox.StandardButton.Cancel)
    cancel.setObjectName(CANCEL)
    box.setDefaultButton(here)
    box.setEscapeButton(cancel)
    span_id = cur.id

    def answered(button) -> None:
        parent.activateWindow()
        choice = button.objectName()
        if choice in (THIS_DOCUMENT, WHOLE_WORKSPACE) and controller.current_id == span_id:
            controller.reject_and_never_flag(choice)

    box.buttonClicked.connect(answered)
    box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    box.setWindowModality(Qt.WindowModality.WindowModal)
    box.open()
    return box
