"""GUI tests drive real widgets offscreen against a real workspace file in tmp_path, with
the rules-only ensemble so no trained model is needed."""

from __future__ import annotations

import os

# Before anything imports Qt.
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

from pathlib import Path  # noqa: E402

import pytest  # noqa: E402

import deid_desktop.gui  # noqa: E402,F401

from .samples import CLINICAL_NOTE  # noqa: E402

RULES_ONLY = str(Path(__file__).with_name("rules_only_no_propagation.toml"))


@pytest.fixture(scope="session", autouse=True)
def gui_thread_collector(qapp):
    """As in the application: cyclic garbage (windows of earlier tests) is collected on the
    GUI thread only, never by a detection thread that happens to allocate."""
    from deid_desktop.gui.collector import install

    collector = install(qapp)
    yield collector
    collector.uninstall()


@pytest.fixture
def workspace(tmp_path):
    from deid_desktop.core.store import Workspace

    ws = Workspace.open(tmp_path / "workspace.sqlite")
    yield ws
    ws.close()


@pytest.fixture
def settings(tmp_path):
    from PySide6.QtCore import QSettings

    from deid_desktop.gui.settings import AppSettings

    s = AppSettings(QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat))
    s.reviewer = "tester"
    return s


@pytest.fixture
def window(qtbot, workspace, settings):
    from deid_desktop.gui.main_window import MainWindow

    w = MainWindow(workspace, settings, ensemble_config=RULES_ONLY)
    qtbot.addWidget(w)
    w.show()
    qtbot.waitExposed(w)
    yield w
    w.close()


def wait_idle(qtbot, window, timeout: int = 60_000) -> None:
    qtbot.waitUntil(lambda: not window.busy, timeout=timeout)


@pytest.fixture
def note_file(tmp_path) -> Path:
    p = tmp_path / "in" / "note.txt"
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(CLINICAL_NOTE, encoding="utf-8")
    return p


def answer_undecided(window, choice: str) -> bool:
    """Answer the "N findings are undecided" question, if it is open: accept_all, review or
    cancel. True when there was a question."""
    from PySide6.QtWidgets import QMessageBox, QPushButton

    # An answered question is deleted later, so look for the one still showing.
    open_ = [b for b in window.findChildren(QMessageBox, "undecidedQuestion") if b.isVisible()]
    if not open_:
        return False
    open_[-1].findChild(QPushButton, choice).click()
    return True
