"""The centre of the window: the legend above the document, as text or as PDF pages."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel, QTabWidget, QVBoxLayout, QWidget

from .document_view import DocumentTextView, Legend
from .pdf_view import PdfPagesView


class DocumentPane(QWidget):
    TEXT_TAB, PAGES_TAB = 0, 1

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.title = QLabel("Drop files or folders here, or use File → Open.")
        self.title.setObjectName("documentTitle")
        self.title.setStyleSheet("font-weight: 600; padding: 2px 6px;")
        self.legend = Legend()
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
        lay.addWidget(self.legend)
        lay.addWidget(self.tabs, 1)

    def set_document(self, row, document, text: str) -> None:
        if row is None:
            self.title.setText("Drop files or folders here, or use File → Open.")
        else:
            subject = f"  ·  subject {row.subject_label}" if row.subject_label else ""
            self.title.setText(f"{row.name}{subject}")
        self.text_view.set_text(text)
        is_pdf = document is not None and document.format == "pdf" and bool(document.source_bytes)
        self.tabs.setTabEnabled(self.PAGES_TAB, is_pdf)
        if not is_pdf and self.tabs.currentIndex() == self.PAGES_TAB:
            self.tabs.setCurrentIndex(self.TEXT_TAB)
        self.pages_view.set_document(document if is_pdf else None)

    def set_spans(self, spans, span_at=None) -> None:
        self.text_view.set_spans(spans, span_at)
        self.pages_view.set_spans(spans)

    def set_current(self, span_id: int | None) -> None:
        self.text_view.set_current(span_id)
        self.pages_view.set_current(span_id)
