"""The release certificate shown after an export (and by ``--screenshot``)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QPlainTextEdit, QVBoxLayout, QWidget

from ..core.certificate import certificate_text


class CertificateDialog(QDialog):
    """The certificate as a person reads it: each export's facts and one line per output.
    The text scrolls; the dialog keeps to a small laptop's screen."""

    def __init__(self, cert: dict, pdf: Path | None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Release certificate")
        self.setObjectName("certificateDialog")
        where = QLabel(f"Written beside the report: {pdf.name} and {pdf.with_suffix('.json').name} in {pdf.parent}" if pdf else "")
        where.setWordWrap(True)
        self.text = QPlainTextEdit(certificate_text(cert))
        self.text.setObjectName("certificateText")
        self.text.setReadOnly(True)
        self.text.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.close)
        lay = QVBoxLayout(self)
        lay.addWidget(where)
        lay.addWidget(self.text, 1)
        lay.addWidget(buttons)
        self.resize(760, 520)
