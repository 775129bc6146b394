"""Starting the review application (``deid-desktop gui``)."""

from __future__ import annotations

import logging
import os
import shutil
import sys
from pathlib import Path

log = logging.getLogger(__name__)

SCREENSHOT_TIMEOUT_MS = 15 * 60 * 1000


def parse_size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise ValueError(f"window size must look like 1280x800, not {text!r}") from None
    if w < 320 or h < 240:
        raise ValueError("window size must be at least 320x240")
    return w, h


def application():
    from PySide6.QtWidgets import QApplication

    from .settings import APPLICATION, ORGANISATION

    app = QApplication.instance()
    if app is None:
        app = QApplication(sys.argv[:1])
    app.setOrganizationName(ORGANISATION)
    app.setApplicationName(APPLICATION)
    app.setApplicationDisplayName("deid-desktop")
    # Cyclic garbage holding widgets must be freed on this thread, never on a worker's.
    from .collector import install

    install(app)
    return app


def choose_first_document(window, view: str) -> int | None:
    """The first document in queue order worth showing: with findings (a PDF for the pages
    view), else any readable one."""
    from ..core.store import DocStatus

    rows = {r.id: r for r in window.queue_model.rows}
    ids = window.queue.visible_ids()
    readable = [i for i in ids if DocStatus(rows[i].status) != DocStatus.ERROR]
    if view in ("pdf", "ocr"):
        pdfs = [i for i in readable if (rows[i].format or "") == "pdf"]
        readable = pdfs or readable
    with_findings = [i for i in readable if rows[i].n_spans > 0]
    chosen = with_findings or readable
    return chosen[0] if chosen else None


def take_screenshot(window, out: Path, view: str) -> None:
    from PySide6.QtWidgets import QApplication

    doc_id = choose_first_document(window, view)
    if doc_id is not None:
        window.open_document(doc_id)
        c = window.controller
        if c.spans:
            # The finding the reviewer would work on next: the first undecided one.
            first = next((sp for sp in c.spans if sp.state == "undecided"), c.spans[0])
            c.select(first.id)
        if view in ("pdf", "ocr") and window.pane.tabs.isTabEnabled(window.pane.PAGES_TAB):
            window.pane.tabs.setCurrentIndex(window.pane.PAGES_TAB)
            QApplication.processEvents()
            window.pane.pages_view.fit_to_width()
            if c.current_id is not None:
                window.pane.pages_view.set_current(c.current_id)
        c.message.emit("Reviewing — A accept · R reject · J/K next/previous · 1–8 relabel · F1 all shortcuts")
    if view == "risk":
        window.queue.riskiest_first.setChecked(True)
    for _ in range(5):
        QApplication.processEvents()
    target = window
    if view == "across":
        target = _across_view(window)
    elif view == "certificate":
        target = _certificate_view(window, out)
    elif view == "accuracy":
        target = _accuracy_view(window)
    elif view == "adjudication":
        target = _adjudication_view(window)
    for _ in range(5):
        QApplication.processEvents()
    out.parent.mkdir(parents=True, exist_ok=True)
    try:
        if not target.grab().save(str(out)):
            raise OSError(f"could not write the screenshot {out.name}")
    finally:
        scratch = getattr(target, "screenshot_scratch", None)
        if scratch is not None:
            shutil.rmtree(scratch, ignore_errors=True)


def _across_view(window):
    """The findings-across-documents list, filtered to names, as a reviewer opens it."""
    from ..core.categories import Category

    dlg = window.open_across()
    i = dlg.category.findData(Category.NAME)
    if i < 0:
        i = next((k for k in range(dlg.category.count()) if "name" in dlg.category.itemText(k).lower()), -1)
    if i >= 0:
        dlg.category.setCurrentIndex(i)
    dlg.refresh()
    dlg.resize(min(1200, window.width()), min(560, window.height()))
    dlg.table.selectRow(0)
    return dlg


def _accuracy_view(window):
    """Model → Accuracy on your documents, as a reviewer opens it: the figures of the
    documents reviewed so far (none on a fresh workspace: the dialog says so)."""
    from .learning import open_learning_dialog

    dlg = open_learning_dialog(window, lambda: window.workspace, "accuracy")
    if dlg is None:
        raise OSError("no workspace is open")
    dlg.resize(min(1000, window.width()), min(700, window.height()))
    return dlg


def _adjudication_view(window):
    """Review → Adjudicate disagreements on the first double-reviewed document with two
    finished reviews (benchmarks/screenshots.py records such reviews before it shoots)."""
    dlg = window.open_adjudication()
    dlg.resize(min(1200, window.width()), min(560, window.height()))
    return dlg


def _certificate_view(window, out: Path):
    """Exports the queue (undecided findings accepted) into a folder beside the screenshot
    and shows the release certificate that export wrote."""
    import tempfile

    from .certificate_dialog import CertificateDialog
    from ..core.usecases.exporting import ExportJob, ExportOptions

    folder = Path(tempfile.mkdtemp(prefix="deid-screenshot-export-"))
    ids = [r.id for r in window.queue_model.rows]
    job = ExportJob(window.workspace, ids, ExportOptions(out_dir=folder, unreviewed="accept", reviewer="screenshots"), window.provider)
    summary = job.run()
    if summary.certificate is None:
        raise OSError("the export wrote no certificate")
    dlg = CertificateDialog(summary.certificate, summary.certificate_pdf, window)
    dlg.screenshot_scratch = folder  # the export is removed once the picture is taken
    dlg.resize(min(1100, window.width()), min(700, window.height()))
    dlg.show()
    return dlg


def run(args) -> int:
    """Open the window; with ``--screenshot`` save it once detection is done and exit."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    size = parse_size(args.size) if getattr(args, "size", None) else None
    app = application()

    from PySide6.QtCore import QTimer

    from ..core.errors import DeidError
    from ..core.store import Workspace
    from .errors import install_excepthook
    from .main_window import MainWindow
    from .settings import AppSettings

    settings = AppSettings()
    if not settings.reviewer_chosen and not args.screenshot:
        from .settings import ask_reviewer_name

        if not ask_reviewer_name(settings):
            print("deid-desktop: a reviewer name is needed to record decisions", file=sys.stderr)
            return 2
    ws_path = Path(args.workspace or settings.workspace_path).expanduser()
    try:
        workspace = Workspace.open(ws_path)
    except DeidError as e:
        print(f"deid-desktop: {e}", file=sys.stderr)
        return 2
    # Screenshots use the default layout, not whatever the user last arranged.
    # A screenshot never starts the model build: it shows the window as it is and exits.
    build_models = bool(getattr(args, "build_models", False)) and not args.screenshot
    window = MainWindow(workspace, settings, ensemble_config=args.ensemble, owns_workspace=True,
                        restore_layout=not args.screenshot, build_models=build_models)
    install_excepthook(lambda: window)
    if size:
        window.resize(*size)
    window.show()
    if args.open:
        missing = [p for p in args.open if not Path(p).exists()]
        for p in missing:
            print(f"deid-desktop: {p}: no such file or folder", file=sys.stderr)
        window.import_paths([p for p in args.open if Path(p).exists()])

    status = {"code": 0}
    if args.screenshot:
        out = Path(args.screenshot)
        view = getattr(args, "view", "text") or "text"

        def shoot() -> None:
            try:
                take_screenshot(window, out, view)
                print(f"deid-desktop: screenshot saved to {out}", file=sys.stderr)
            except Exception as e:
                print(f"deid-desktop: screenshot failed ({type(e).__name__}: {e})", file=sys.stderr)
                status["code"] = 1
            window.close()
            app.quit()

        def too_slow() -> None:
            print("deid-desktop: detection did not finish in time for the screenshot", file=sys.stderr)
            status["code"] = 1
            window.close()
            app.quit()

        window.run_when_idle(shoot)
        QTimer.singleShot(SCREENSHOT_TIMEOUT_MS, too_slow)
    rc = app.exec()
    return status["code"] or rc
