"""The export dialog: what to write, where, for which documents — then progress, the report
and the release certificate, with the export itself running on a worker thread."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QThread, Signal
from PySide6.QtWidgets import (
    QButtonGroup,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QMessageBox,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QRadioButton,
    QVBoxLayout,
    QWidget,
)

from ..core.store import DocStatus
from ..core.usecases.exporting import ExportJob, ExportOptions, ExportSummary
from .certificate_dialog import CertificateDialog
from .export_check import ExportCheckDialog
from .export_state import record_exported
from .settings import AppSettings, _PathField
from .workers import ExportWorker, start_in_thread

MODES = (
    ("surrogate", "Surrogates — realistic replacements, consistent within a subject"),
    ("tag", "Tags — [NAME], [DATE], …"),
    ("blackout", "Blackout — █████"),
)
DEFAULT_MODE = "surrogate"  # the safe default: readable copies, no original left in place
FORMAT_CHOICES = (
    (None, "Same as input"),
    ("txt", "Plain text (.txt)"),
    ("docx", "Word (.docx)"),
    ("pdf", "PDF (.pdf)"),
)


def start_export_session(settings: AppSettings) -> None:
    """Each start of the application exports with the default mode until the reviewer picks
    another: a Blackout chosen weeks ago must not silently apply to today's export."""
    settings.export_mode = DEFAULT_MODE


def confirm_unadjudicated(parent: QWidget, n: int) -> bool:
    """Ask before exporting double-reviewed documents whose two reviews are not adjudicated:
    their export would follow the first review alone. Cancel is the default."""
    box = QMessageBox(
        QMessageBox.Icon.Warning, "Not adjudicated",
        f"{n} document(s) in this export were reviewed twice and are not adjudicated yet. Exported now, they "
        "follow the first reviewer's decisions alone, not an adjudicated truth.",
        QMessageBox.StandardButton.Cancel, parent,
    )
    box.setObjectName("unadjudicatedQuestion")
    export = box.addButton("Export anyway", QMessageBox.ButtonRole.AcceptRole)
    box.setDefaultButton(QMessageBox.StandardButton.Cancel)
    box.exec()
    return box.clickedButton() is export


def _mode_label(mode: str) -> str:
    return next((label for key, label in MODES if key == mode), mode)


class ExportDialog(QDialog):
    documents_changed = Signal(list)  # ids now EXPORTED
    export_finished = Signal(object)  # ExportSummary

    SCOPE_CURRENT, SCOPE_SELECTED, SCOPE_ALL, SCOPE_SUBJECT = range(4)

    def __init__(
        self,
        workspace,
        provider,
        settings: AppSettings,
        *,
        current_id: int | None,
        selected_ids: list[int],
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("Export de-identified documents")
        self.setObjectName("exportDialog")
        self.workspace, self.provider, self.settings = workspace, provider, settings
        self.current_id = current_id
        self.selected_ids = list(selected_ids)
        self.summary: ExportSummary | None = None
        self._worker: ExportWorker | None = None
        self._thread: QThread | None = None

        self.mode = QComboBox()
        for key, label in MODES:
            self.mode.addItem(label, key)
        self.mode.setCurrentIndex(max(0, self.mode.findData(settings.export_mode)))
        # A mode other than the default, kept from an earlier export, is said out loud.
        self.mode_note = QLabel(
            f"Mode remembered from your last export: {_mode_label(self.mode.currentData())}. "
            f"The default is {_mode_label(DEFAULT_MODE).split(' — ')[0]}."
        )
        self.mode_note.setObjectName("exportModeRemembered")
        self.mode_note.setWordWrap(True)
        self.mode_note.setStyleSheet("color: #8A5A00;")
        self.mode_note.setVisible(self.mode.currentData() != DEFAULT_MODE)
        self.mode.currentIndexChanged.connect(lambda _i: self.mode_note.hide())
        self.format = QComboBox()
        for key, label in FORMAT_CHOICES:
            self.format.addItem(label, key)
        self.format.setToolTip("Same as input keeps .txt, .docx and .pdf; any document can also be written as plain text.")
        self.folder = _PathField(settings.export_folder, folder=True, caption="Destination folder")
        self.folder.edit.setPlaceholderText("a folder outside the source data")

        self.unreviewed_stop = QRadioButton("Warn and stop: export only when every document is marked reviewed")
        self.unreviewed_accept = QRadioButton("Export them anyway, with every detection accepted")
        self.unreviewed_stop.setChecked(True)
        policy = QButtonGroup(self)
        policy.addButton(self.unreviewed_stop)
        policy.addButton(self.unreviewed_accept)

        docs = workspace.list_documents()
        # A file that could not be imported has nothing to export: it is not counted.
        self._all_ids = [d.id for d in docs if d.status != DocStatus.ERROR]
        self.scope_buttons = QButtonGroup(self)
        self.scope_current = QRadioButton("Current document")
        self.scope_selected = QRadioButton(f"Selected documents ({len(self.selected_ids)})")
        self.scope_all = QRadioButton(f"Whole queue ({len(self._all_ids)})")
        self.scope_subject = QRadioButton("Subject")
        self.subject = QComboBox()
        for s in workspace.list_subjects():
            self.subject.addItem(s.label, s.id)
        for i, b in enumerate((self.scope_current, self.scope_selected, self.scope_all, self.scope_subject)):
            self.scope_buttons.addButton(b, i)
        self.scope_current.setEnabled(current_id is not None)
        self.scope_selected.setEnabled(bool(self.selected_ids))
        self.scope_subject.setEnabled(self.subject.count() > 0)
        self.subject.setEnabled(self.subject.count() > 0)
        (self.scope_selected if len(self.selected_ids) > 1 else self.scope_current if current_id is not None else self.scope_all).setChecked(True)

        self.progress = QProgressBar()
        self.progress.setFormat("%v / %m documents")
        self.progress.hide()
        self.notice = QLabel()
        self.notice.setObjectName("exportNotice")
        self.notice.setWordWrap(True)
        self.report = QPlainTextEdit()
        self.report.setObjectName("exportReport")
        self.report.setReadOnly(True)
        self.report.setPlaceholderText("The export report appears here.")
        self.report.setMaximumHeight(140)

        what = QGroupBox("What to write")
        f = QFormLayout(what)
        f.addRow("Replace PHI with", self.mode)
        f.addRow("", self.mode_note)
        f.addRow("File format", self.format)
        f.addRow("Destination folder", self.folder)
        scope = QGroupBox("Which documents")
        sl = QVBoxLayout(scope)
        for b in (self.scope_current, self.scope_selected, self.scope_all):
            sl.addWidget(b)
        row = QHBoxLayout()
        row.addWidget(self.scope_subject)
        row.addWidget(self.subject, 1)
        sl.addLayout(row)
        unrev = QGroupBox("Documents not marked reviewed")
        ul = QVBoxLayout(unrev)
        ul.addWidget(self.unreviewed_stop)
        ul.addWidget(self.unreviewed_accept)

        self.buttons = QDialogButtonBox()
        self.export_button = QPushButton("Export")
        self.export_button.setDefault(True)
        self.cancel_button = QPushButton("Cancel")
        self.close_button = QPushButton("Close")
        # shown once an export has written its certificate
        self.certificate_button = QPushButton("Show certificate")
        self.certificate_button.setObjectName("showCertificate")
        self.certificate_button.clicked.connect(self.show_certificate)
        self.certificate_view: CertificateDialog | None = None
        self.buttons.addButton(self.certificate_button, QDialogButtonBox.ButtonRole.ActionRole)
        self.buttons.addButton(self.export_button, QDialogButtonBox.ButtonRole.ActionRole)
        self.buttons.addButton(self.cancel_button, QDialogButtonBox.ButtonRole.RejectRole)
        self.buttons.addButton(self.close_button, QDialogButtonBox.ButtonRole.AcceptRole)
        self.cancel_button.hide()
        self.certificate_button.hide()  # adding a button to the box shows it
        # shown once an export has files the re-scan flagged: where, not only how many
        self.check_button = QPushButton("Check flagged files…")
        self.check_button.setObjectName("checkFlagged")
        self.check_button.setToolTip("The exported files the re-scan flagged, as written, with each finding highlighted (N steps)")
        self.check_button.clicked.connect(self.show_check)
        self.check_view: ExportCheckDialog | None = None
        self.buttons.addButton(self.check_button, QDialogButtonBox.ButtonRole.ActionRole)
        self.check_button.hide()
        self.export_button.clicked.connect(self.start)
        self.cancel_button.clicked.connect(self.cancel)
        self.close_button.clicked.connect(self.close)

        lay = QVBoxLayout(self)
        for w in (what, scope, unrev, self.notice, self.progress, self.report, self.buttons):
            lay.addWidget(w)
        self.resize(640, self.sizeHint().height())

    # -- choices --------------------------------------------------------------------------
    def options(self) -> ExportOptions:
        s = self.settings
        return ExportOptions(
            out_dir=Path(self.folder.text()).expanduser(),
            mode=self.mode.currentData(),
            fmt=self.format.currentData(),
            unreviewed="accept" if self.unreviewed_accept.isChecked() else "stop",
            date_shift_min_days=s.date_shift_min_days,
            date_shift_max_days=s.date_shift_max_days,
            age_cap=s.age_cap,
            reviewer=s.reviewer,
        )

    def scope_ids(self) -> list[int]:
        scope = self.scope_buttons.checkedId()
        if scope == self.SCOPE_CURRENT:
            return [self.current_id] if self.current_id is not None else []
        if scope == self.SCOPE_SELECTED:
            return list(self.selected_ids)
        if scope == self.SCOPE_SUBJECT:
            sid = self.subject.currentData()
            return [d.id for d in self.workspace.list_documents(subject_id=sid)] if sid is not None else []
        return list(self._all_ids)

    def _among_originals(self, out_dir: Path) -> bool:
        """Whether ``out_dir`` is, or lies inside, a folder an imported document came from:
        copies written there sit next to the originals and a later folder import takes them in."""
        target = _resolved(out_dir)
        for row in self.workspace.list_documents():
            if row.source_path:
                source_folder = _resolved(Path(row.source_path).parent)
                if target == source_folder or target.is_relative_to(source_folder):
                    return True
        return False

    @property
    def running(self) -> bool:
        return self._thread is not None

    def wait(self, ms: int) -> bool:
        """Block until the export thread has stopped (after ``cancel``)."""
        return self._thread.wait(ms) if self._thread is not None else True

    # -- running --------------------------------------------------------------------------
    def start(self) -> bool:
        """Check the choices and start the export; False (with the reason shown) if not."""
        if self.running:
            return False
        opts = self.options()
        if not self.folder.text():
            self._say("Choose a destination folder.")
            return False
        if self._among_originals(opts.out_dir):
            self._say(
                "That folder holds original documents of this workspace (or lies inside such a folder). "
                "Choose a folder outside the source data, so de-identified copies are never mixed with originals."
            )
            return False
        ids = self.scope_ids()
        if not ids:
            self._say("There are no documents in this selection.")
            return False
        if opts.fmt in ("docx", "pdf"):
            wrong = [r.name for r in (self.workspace.get_document(i) for i in ids) if r.format != opts.fmt and r.status != DocStatus.ERROR]
            if wrong:
                self._say(
                    f"{len(wrong)} document(s) are not {opts.fmt.upper()} files and can only be written as themselves or as "
                    "plain text: choose “Same as input” or “Plain text”."
                )
                return False
        job = ExportJob(self.workspace, ids, opts, self.provider)
        blocked = job.blocked()
        if blocked:
            names = ", ".join(r.name for r in blocked[:5]) + (" …" if len(blocked) > 5 else "")
            self._say(
                f"{len(blocked)} document(s) are not marked reviewed: {names}. Review them (Ctrl+Enter marks a document "
                "reviewed) or choose “Export them anyway, with every detection accepted”."
            )
            return False
        waiting = self.workspace.awaiting_adjudication(ids)
        if waiting and not confirm_unadjudicated(self, len(waiting)):
            self._say(f"{len(waiting)} double-reviewed document(s) await adjudication (Review → Adjudicate disagreements).")
            return False
        self.settings.export_folder = self.folder.text()
        self.settings.export_mode = opts.mode
        self._say("")
        self.report.clear()
        self.certificate_button.hide()
        self.check_button.hide()
        self.progress.setRange(0, len(ids))
        self.progress.setValue(0)
        self.progress.show()
        self.export_button.setEnabled(False)
        self.close_button.setEnabled(False)
        self.cancel_button.show()
        worker = ExportWorker(job)
        worker.progress.connect(self._on_progress)
        worker.exported.connect(self._on_exported)
        worker.done.connect(self._on_done)
        worker.failed.connect(self._on_failed)
        self._worker = worker
        self._thread = start_in_thread(self, worker, self._on_thread_finished)
        return True

    def cancel(self) -> None:
        if self._worker is not None:
            self._worker.cancel()
            self._say("Cancelling after the current document…")
        else:
            self.reject()

    def _say(self, text: str) -> None:
        self.notice.setText(text)
        self.notice.setStyleSheet("color: #B00020" if text else "")

    def _on_progress(self, done: int, total: int, name: str) -> None:
        self.progress.setMaximum(max(1, total))
        self.progress.setValue(done)
        if name:
            self.notice.setStyleSheet("")
            self.notice.setText(f"Exporting {name}…")

    def _on_exported(self, doc_id: int) -> None:
        self.workspace.set_status(doc_id, DocStatus.EXPORTED)
        record_exported(self.workspace, doc_id)
        self.documents_changed.emit([doc_id])

    def _on_done(self, summary: ExportSummary) -> None:
        self.summary = summary
        self.notice.setStyleSheet("")
        self.notice.setText("Export cancelled." if summary.cancelled else "Export finished.")
        self.report.setPlainText(summary.text())
        self.certificate_button.setVisible(summary.certificate is not None)
        self.check_button.setVisible(summary.n_to_check > 0)
        self.export_finished.emit(summary)

    def show_check(self) -> "ExportCheckDialog | None":
        """The flagged files of the export just made, with their marks highlighted."""
        if self.summary is None or not self.summary.n_to_check:
            return None
        if self.check_view is not None:
            self.check_view.close()
        self.check_view = ExportCheckDialog(self.summary, self.workspace, self)
        self.check_view.show()
        return self.check_view

    def show_certificate(self) -> "CertificateDialog | None":
        """The release certificate of the folder just exported to, read-only."""
        if self.summary is None or self.summary.certificate is None:
            return None
        if self.certificate_view is not None:
            self.certificate_view.close()
        self.certificate_view = CertificateDialog(self.summary.certificate, self.summary.certificate_pdf, self)
        self.certificate_view.show()
        return self.certificate_view

    def _on_failed(self, message: str) -> None:
        self._say(message)

    def _on_thread_finished(self) -> None:
        if self._thread is not None:
            self._thread.deleteLater()
        self._worker, self._thread = None, None
        self.cancel_button.hide()
        self.export_button.setEnabled(True)
        self.close_button.setEnabled(True)

    def closeEvent(self, event) -> None:
        if self.running:
            self._worker.cancel()
            event.ignore()
            return
        super().closeEvent(event)

    def done(self, result: int) -> None:
        if self.running:
            self._worker.cancel()
            return
        super().done(result)


def _resolved(path: Path) -> Path:
    try:
        return path.expanduser().resolve()
    except OSError:  # an unreadable link: compare the path as written
        return path.expanduser().absolute()
