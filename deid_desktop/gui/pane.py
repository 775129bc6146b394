"""The centre of the window: the legend above the document, as text or as PDF pages."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel, QTabWidget, QVBoxLayout, QWidget

from ..core.store import DocStatus

from .document_view import DocumentTextView, Legend
from .pdf_view import PdfPagesView
from .unread_pages import UnreadPagesNotice


# One line of the keys a first-time reviewer needs; F1 lists the rest.
KEY_HINT = "A accept  ·  R reject  ·  J / K next / previous  ·  1–8 relabel  ·  [ ] { } span edges  ·  Ctrl+Enter done  ·  F1 every key"
ERROR_STYLE = "color: #B00020; padding: 2px 6px;"
HINT_STYLE = "color: palette(mid); padding: 0 6px;"


class DocumentPane(QWidget):
    TEXT_TAB, PAGES_TAB = 0, 1

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.title = QLabel("Drop files or folders here, or use File → Open.")
        self.title.setObjectName("documentTitle")
        self.title.setStyleSheet("font-weight: 600; padding: 2px 6px;")
        self.hint = QLabel()
        self.hint.setObjectName("documentHint")
        self.hint.setWordWrap(True)
        self.hint.hide()
        self.legend = Legend()
        self.unread_notice = UnreadPagesNotice()
        self.text_view = DocumentTextView()
        self.pages_view = PdfPagesView()
        self.tabs = QTabWidget()
        self.tabs.setDocumentMode(True)
        self.tabs.addTab(self.text_view, "Text")
        self.tabs.addTab(self.pages_view, "Pages")
        self.tabs.setTabToolTip(self.PAGES_TAB, "The PDF's pages with the findings drawn where they are")
        self.tabs.setTabEnabled(self.PAGES_TAB, False)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(2)
        lay.addWidget(self.title)
        lay.addWidget(self.hint)
        lay.addWidget(self.legend)
        lay.addWidget(self.unread_notice)
        lay.addWidget(self.tabs, 1)

    def set_document(self, row, document, text: str) -> None:
        if row is None:
            self.title.setText("Drop files or folders here, or use File → Open.")
            self._set_hint(None)
        else:
            subject = f"  ·  subject {row.subject_label}" if row.subject_label else ""
            self.title.setText(f"{row.name}{subject}")
        self._set_hint(row)
        from ..core.documents.ocr import low_confidence_spans

        low = low_confidence_spans(document) if document is not None and document.text == text else []
        self.text_view.set_text(text, low)
        self.unread_notice.set_document(document)
        is_pdf = document is not None and document.format == "pdf" and bool(document.source_bytes)
        self.tabs.setTabEnabled(self.PAGES_TAB, is_pdf)
        if not is_pdf and self.tabs.currentIndex() == self.PAGES_TAB:
            self.tabs.setCurrentIndex(self.TEXT_TAB)
        self.pages_view.set_document(document if is_pdf else None)

    def _set_hint(self, row) -> None:
        """The keys under the title; for a file that could not be imported, why instead
        (the pane would otherwise be blank)."""
        if row is None:
            self.hint.hide()
            return
        if row.status == DocStatus.ERROR:
            reason = row.error_reason or row.error_code or "unknown reason"
            self.hint.setText(f"This file could not be imported: {reason}.")
            self.hint.setStyleSheet(ERROR_STYLE)
        else:
            self.hint.setText(KEY_HINT)
            self.hint.setStyleSheet(HINT_STYLE)
        self.hint.show()

    def set_spans(self, spans, span_at=None) -> None:
        self.text_view.set_spans(spans, span_at)
        self.pages_view.set_spans(spans)

    def update_spans(self, changed) -> None:
        """Findings decided in place: only their highlights change."""
        self.text_view.update_spans(changed)
        self.pages_view.update_spans(changed)

    def zoom_in(self) -> None:
        self._zoom(self.pages_view.zoom_in)

    def zoom_out(self) -> None:
        self._zoom(self.pages_view.zoom_out)

    def fit_width(self) -> None:
        self._zoom(self.pages_view.fit_width)

    def _zoom(self, change) -> None:
        """Zooming is for the PDF's pages: from the Text tab of a PDF it shows them first."""
        if self.tabs.isTabEnabled(self.PAGES_TAB):
            self.tabs.setCurrentIndex(self.PAGES_TAB)
        change()

    def set_current(self, span_id: int | None) -> None:
        self.text_view.set_current(span_id)
        self.pages_view.set_current(span_id)
