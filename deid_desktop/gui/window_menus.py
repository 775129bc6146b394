"""The review window's actions, menus and status bar, built from the shortcut registry
(``gui/shortcuts.py``): every action id is listed there once; here each gets its handler
and its place."""

from __future__ import annotations

import logging
from typing import Callable

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QLabel, QMenu, QMessageBox, QProgressBar, QPushButton, QSizePolicy

from ..core.categories import CATEGORY_KEYS
from ..core.store import DecisionAction
from .detect_progress import DetectionProgress
from .finishing import finish_document
from .never_flag import never_flag_asking
from .learning import build_model_menu
from .shortcuts import MENUS, SHORTCUTS, tooltip
from .unread_pages import accept_unread_page
from .toolbar import build_review_toolbar

log = logging.getLogger(__name__)


def handlers(window) -> dict[str, Callable[[], None]]:
    """What each action id of the registry does in this window."""
    c = window.controller
    h: dict[str, Callable[[], None]] = {
        "accept": c.accept,
        "reject": c.reject,
        "reject_never_flag": lambda: never_flag_asking(window, c),
        "reject_never_flag_subject": lambda: c.reject_and_never_flag("subject"),
        "next": c.next_finding,
        "previous": c.previous_finding,
        "next_document": lambda: window._open_neighbour(+1),
        "previous_document": lambda: window._open_neighbour(-1),
        "accept_remaining": lambda: c.accept_remaining(),
        "accept_remaining_category": lambda: c.accept_remaining(same_category=True),
        "accept_identical_document": lambda: c.decide_identical(DecisionAction.ACCEPT, "document"),
        "accept_identical_subject": lambda: c.decide_identical(DecisionAction.ACCEPT, "subject"),
        "reject_identical_document": lambda: c.decide_identical(DecisionAction.REJECT, "document"),
        "reject_identical_subject": lambda: c.decide_identical(DecisionAction.REJECT, "subject"),
        "review_across": window.open_across,
        "widen_start": lambda: c.resize("start", True),
        "shrink_start": lambda: c.resize("start", False),
        "widen_end": lambda: c.resize("end", True),
        "shrink_end": lambda: c.resize("end", False),
        "mark_reviewed": lambda: finish_document(window, c),
        "zoom_in": window.pane.zoom_in,
        "zoom_out": window.pane.zoom_out,
        "fit_width": window.pane.fit_width,
        "accept_unread_page": lambda: accept_unread_page(window),
        "open": window.open_files_dialog,
        "open_folder": window.open_folder_dialog,
        "export": window.open_export_dialog,
        "find_document": window._focus_filter,
        "mark_double_review": window.mark_double_review,
        "sample_double_review": window.open_sample_dialog,
        "adjudicate": window.open_adjudication,
        "agreement": window.open_agreement,
        "settings": window.open_settings,
        "shortcuts_help": window.show_shortcuts,
        "quit": window.close,
    }
    for key, cat in CATEGORY_KEYS.items():
        h[f"category_{key}"] = (lambda cat=cat: window.category_key(cat))
        h[f"always_flag_{key}"] = (lambda cat=cat: window.always_flag_key(cat))
    return h


def build_actions(window) -> None:
    """One action per registry entry, with its handler; an entry without a handler is an
    error here rather than a key that silently does nothing."""
    bound = handlers(window)
    stack = window.controller.undo_stack
    made_by_stack = {"undo": stack.createUndoAction, "redo": stack.createRedoAction}
    missing = [s.action for s in SHORTCUTS if s.action not in bound and s.action not in made_by_stack]
    if missing:
        raise KeyError(f"no handler for the actions {', '.join(missing)}")
    for spec in SHORTCUTS:
        if spec.action in made_by_stack:
            a = made_by_stack[spec.action](window, spec.label.replace("&", ""))
        else:
            a = QAction(spec.label, window)
            a.triggered.connect(lambda _=False, handler=bound[spec.action]: window._guarded(handler))
        a.setObjectName(f"action_{spec.action}")
        a.setShortcuts([QKeySequence(k) for k in spec.keys])
        a.setToolTip(tooltip(spec.action))
        a.setStatusTip(spec.help)
        window.addAction(a)
        window.actions_by_id[spec.action] = a
    window.manifest_action = QAction("Import subject &manifest…", window)
    window.manifest_action.setToolTip("Assign subjects from a CSV with the columns path,subject")
    window.manifest_action.triggered.connect(lambda: window._guarded(window.import_manifest_dialog))
    window.redetect_action = QAction("&Detect PHI again in this document", window)
    window.redetect_action.setToolTip("Run the detector again; decided findings are kept")
    window.redetect_action.triggered.connect(lambda: window.detect_documents([window.controller.document_id] if window.controller.document_id else []))
    window.about_action = QAction("&About deid-desktop", window)
    window.about_action.triggered.connect(lambda: about(window))


def build_menus(window) -> None:
    """The menu bar as ``shortcuts.MENUS`` lays it out, then the toolbar."""
    placed: dict[str, list[QAction]] = {}
    for spec in SHORTCUTS:
        placed.setdefault(spec.menu, []).append(window.actions_by_id[spec.action])
    # the window's actions without keys join the sections they belong to, at the end
    placed.setdefault("&File/import", []).append(window.manifest_action)
    placed.setdefault("&Review/finish", []).append(window.redetect_action)
    placed.setdefault("&Help/help", []).append(window.about_action)
    bar = window.menuBar()
    for title, sections in MENUS:
        if title == "&Model":
            menu = _model_menu(window)
            if menu is None:
                continue
        else:
            menu = QMenu(title, window)
        for section in sections:
            if section == "-":
                menu.addSeparator()
                continue
            target = menu
            if section.startswith(">"):
                target = menu.addMenu(section[1:])
                target.setToolTipsVisible(True)
            for action in placed.get(f"{title}/{section}", ()):
                target.addAction(action)
        menu.setToolTipsVisible(True)
        bar.addMenu(menu)
    window.toolbar = build_review_toolbar(window, window.actions_by_id)
    window.addToolBar(Qt.ToolBarArea.TopToolBarArea, window.toolbar)


def _model_menu(window) -> QMenu | None:
    try:
        return build_model_menu(window, lambda: window.workspace)
    except Exception as e:  # the review window must open even if that menu cannot
        log.error("the model menu could not be built (%s)", type(e).__name__)
        return None


def build_status_bar(window) -> None:
    """Progress and Cancel for background work, the models built in the background, the
    reviewer's name and the detector."""
    bar = window.statusBar()
    window.detector_label = QLabel("Detector: not loaded yet")
    window.detector_label.setObjectName("detectorLabel")
    window.detector_label.setToolTip("The detection models and the device they run on")
    window.progress = QProgressBar()
    window.progress.setObjectName("workProgress")
    window.progress.setMaximumWidth(220)
    window.progress.setTextVisible(True)
    window.progress.hide()
    window.detect_progress = DetectionProgress(window.progress)
    window.cancel_button = QPushButton("Cancel")
    window.cancel_button.setObjectName("cancelWork")
    window.cancel_button.setToolTip("Stop reading files and detecting; finished documents are kept")
    window.cancel_button.clicked.connect(window.cancel_background_work)
    window.cancel_button.hide()
    window.reviewer_label = QLabel()
    window.reviewer_label.setObjectName("reviewerLabel")
    window.reviewer_label.setToolTip("Recorded with every decision (File → Settings changes it)")
    # The default models built in the background (window_model_build.py): shown only then.
    window.model_build_label = QLabel()
    window.model_build_label.setObjectName("modelBuildLabel")
    # long, so it gives way (clipped, whole in its tooltip) rather than widen the window
    window.model_build_label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
    window.model_build_label.setMinimumWidth(120)
    window.model_build_label.hide()
    window.model_build_progress = QProgressBar()
    window.model_build_progress.setObjectName("modelBuildProgress")
    window.model_build_progress.setMaximumWidth(140)
    window.model_build_progress.setToolTip("Training the default detection models in a separate process")
    window.model_build_progress.hide()
    bar.addPermanentWidget(window.model_build_label, 1)
    bar.addPermanentWidget(window.model_build_progress)
    bar.addPermanentWidget(window.progress)
    bar.addPermanentWidget(window.cancel_button)
    bar.addPermanentWidget(window.reviewer_label)
    bar.addPermanentWidget(window.detector_label)


def about(window) -> None:
    QMessageBox.about(
        window,
        "About deid-desktop",
        "deid-desktop finds protected health information in clinical documents, lets you review every finding, "
        "and writes de-identified copies. Everything runs on this computer.",
    )
