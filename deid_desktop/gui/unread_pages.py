"""Scanned pages OCR read nothing from: the notice above the document, and the reviewer's
acceptance of such a page.

Such a page may be a blank sheet, or a handwritten or faint one that still shows a name: the
export blacks it out unless the reviewer has looked at it and accepted it as it is. The
acceptance is recorded in the workspace (``Workspace.accept_unread_page``), so it holds for
every later export, and is reachable from the keyboard (the window's action, and the
notice's button, which takes the focus with Tab).
"""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QWidget

from .pdf_view import unread_pages
from .shortcuts import BY_ACTION

NOTICE_STYLE = "QFrame#unreadPages { background: #FFF4CE; border: 1px solid #C8A400; border-radius: 3px; }"


def pending_pages(doc) -> list[int]:
    """Pages (1-based) OCR read nothing from that the reviewer has not accepted yet."""
    blank, accepted = unread_pages(doc)
    return [n for n in blank if n not in accepted]


class UnreadPagesNotice(QFrame):
    """'Page 2: OCR read no text…' with a button that accepts the first such page."""

    accept_requested = Signal(int)  # page number, 1-based

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("unreadPages")
        self.setStyleSheet(NOTICE_STYLE)
        self.label = QLabel()
        self.label.setWordWrap(True)
        self.button = QPushButton()
        self.button.setObjectName("acceptUnreadPage")
        self.button.clicked.connect(self._clicked)
        lay = QHBoxLayout(self)
        lay.setContentsMargins(8, 4, 8, 4)
        lay.addWidget(self.label, 1)
        lay.addWidget(self.button)
        self.page: int | None = None
        self.hide()

    def set_document(self, doc) -> None:
        pages = pending_pages(doc) if doc is not None and doc.format == "pdf" else []
        self.page = pages[0] if pages else None
        if self.page is None:
            self.hide()
            return
        which = f"page {pages[0]}" if len(pages) == 1 else "pages " + ", ".join(map(str, pages))
        self.label.setText(
            f"OCR read no text on {which}: blacked out in the de-identified copy. "
            "Look at it in the Pages tab; if it holds nothing to hide, accept it as it is."
        )
        key = BY_ACTION["accept_unread_page"].keys[0]
        self.button.setText(f"Accept page {self.page} as it is")
        self.button.setToolTip(f"Copy page {self.page} into the de-identified file unchanged ({key})")
        self.show()

    def _clicked(self) -> None:
        if self.page is not None:
            self.accept_requested.emit(self.page)


def accept_unread_page(window, page: int | None = None) -> None:
    """Record the reviewer's acceptance of ``page`` (default: the first one pending) of the
    open document and show the document again with it."""
    c = window.controller
    doc = c.document
    pending = pending_pages(doc) if doc is not None else []
    page = page if page is not None else (pending[0] if pending else None)
    if c.document_id is None or page is None or page not in pending:
        window.show_message("No page of this document is waiting to be accepted: OCR read text on every page.")
        return
    window.workspace.accept_unread_page(c.document_id, page)
    c.document = window.workspace.load_document(c.document_id)
    window.pane.set_document(c.row, c.document, c.text)
    window.pane.set_spans(c.spans, c.span_at)
    window.pane.set_current(c.current_id)
    window.show_message(f"Page {page} accepted: the de-identified copy shows it as it is.")
