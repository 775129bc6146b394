"""The review toolbar: the actions used on every document, under short labels.

The menu texts ("Accept all identical in document", "Mark document reviewed") made the bar
wider than a 1024-px window with a desktop font, and Qt moved the last buttons — Mark
reviewed and Export — into the overflow menu, out of sight. The bar shows short labels; the
menus and tooltips keep the full ones.
"""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QToolBar, QWidget

# action id -> toolbar label; None separates groups
TOOLBAR_LABELS: tuple[tuple[str, str] | None, ...] = (
    ("accept", "Accept"),
    ("reject", "Reject"),
    ("previous", "Previous"),
    ("next", "Next"),
    None,
    ("undo", "Undo"),
    ("redo", "Redo"),
    None,
    ("accept_identical_document", "Accept identical"),
    ("mark_reviewed", "Mark reviewed"),
    None,
    ("export", "Export…"),
)


def build_review_toolbar(parent: QWidget, actions: dict[str, QAction]) -> QToolBar:
    tools = QToolBar("Review", parent)
    tools.setObjectName("reviewToolbar")
    tools.setMovable(False)
    tools.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
    tools.setIconSize(QSize(16, 16))
    for entry in TOOLBAR_LABELS:
        if entry is None:
            tools.addSeparator()
            continue
        action_id, label = entry
        action = actions[action_id]
        # iconText is what a text-only tool button shows; menus keep the action's text.
        action.setIconText(label)
        tools.addAction(action)
    return tools
