"""Every key in Help → Keyboard shortcuts, pressed on the real window: its action fires once
and Qt never calls the press ambiguous (an ambiguous shortcut does nothing at all)."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QKeySequence
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QDialog, QMessageBox

from deid_desktop.gui.shortcuts import SHORTCUTS, conflicts, reported_combinations

from .conftest import wait_idle

pytestmark = pytest.mark.gui

# Ctrl+Q closes the window, so its keys are pressed last.
BY_QUIT = next(s.keys for s in SHORTCUTS if s.action == "quit")


def test_no_press_matches_two_listed_sequences():
    # Shift+[ and { were both listed for "shrink start": desktop key mappers report that one
    # press as both, Qt printed "Ambiguous shortcut overload" and the span never shrank.
    assert reported_combinations("Shift+[") == {"Shift+[", "{"}
    assert conflicts() == []


def _close_popups(window) -> None:
    for w in QApplication.topLevelWidgets():
        if w is not window and w.isVisible() and isinstance(w, (QDialog, QMessageBox)):
            w.close()


def _press(view, sequence: str) -> None:
    combo = QKeySequence(sequence)[0]
    QTest.keyClick(view, combo.key(), combo.keyboardModifiers())


def test_every_listed_key_fires_its_action(qtbot, qtlog, monkeypatch, window, workspace, note_file):
    from deid_desktop.gui import file_dialogs

    # every dialog goes through the name-only helper (file_dialogs); cancel the ones Ctrl+O
    # and Ctrl+Shift+O open instead of waiting on them
    monkeypatch.setattr(file_dialogs, "open_file_names", lambda *a, **k: [])
    monkeypatch.setattr(file_dialogs, "existing_directory", lambda *a, **k: "")
    window.import_paths([note_file])
    wait_idle(qtbot, window)
    window.open_document(workspace.list_documents()[0].id)
    view = window.pane.text_view
    fired: dict[str, int] = {}
    for action_id, action in window.actions_by_id.items():
        action.triggered.connect(lambda _=False, a=action_id: fired.__setitem__(a, fired.get(a, 0) + 1))
    presses = [(s.action, k) for s in SHORTCUTS for k in s.keys if s.action != "quit"]
    presses += [("quit", k) for k in BY_QUIT]
    stack = window.controller.undo_stack
    for action_id, key in presses:
        if action_id == "redo" and not stack.canRedo():
            stack.undo()
        if action_id == "undo" and not stack.canUndo():
            window.controller.accept_remaining()
        if window.controller.current is None and window.controller.spans:
            window.controller.select(window.controller.spans[0].id)
        window.activateWindow()
        view.setFocus()
        before = fired.get(action_id, 0)
        _press(view, key)
        assert fired.get(action_id, 0) == before + 1, f"{key} did not fire {action_id}"
        _close_popups(window)
    assert not window.isVisible()  # Ctrl+Q, pressed last, closed the window
    assert not [r.message for r in qtlog.records if "mbiguous" in r.message]


def _menu_actions(menu) -> list:
    out = []
    for action in menu.actions():
        out.append(action)
        if action.menu() is not None:
            out += _menu_actions(action.menu())
    return out


def test_every_registered_action_is_in_its_menu_once(window):
    # The registry is the one list of action ids: the menus are laid out from it.
    bar = {a.text(): [x for x in _menu_actions(a.menu())] for a in window.menuBar().actions()}
    for s in SHORTCUTS:
        title = s.menu.split("/")[0]
        assert bar[title].count(window.actions_by_id[s.action]) == 1, s.action
    review = [a.text() for a in window.menuBar().actions()[2].menu().actions() if a.menu() is not None]
    assert review == ["Relabel / add as", "Add and &always flag as", "Span &edges"]
    assert [a.text() for a in window.menuBar().actions()] == ["&File", "&Edit", "&Review", "&Navigate", "&View", "&Model", "&Help"]
