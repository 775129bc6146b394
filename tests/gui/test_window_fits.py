"""The review window at the sizes people use: the text under review is shown whole, the
document keeps room on a small screen, the PDF pages can be zoomed, and the help table
shows every row whole."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QFontMetrics, QWheelEvent
from PySide6.QtWidgets import QApplication, QStyle, QTableWidget

from deid_desktop.core.categories import Category
from deid_desktop.gui.findings import FindingsModel

from .conftest import wait_idle
from .samples import CLINICAL_NOTE, write_pdf, write_txt

pytestmark = pytest.mark.gui

NAME = "Daniel Ashworth-Reid"


def _open(qtbot, window, workspace, path):
    window.import_paths([path])
    wait_idle(qtbot, window)
    doc = workspace.list_documents()[0]
    window.open_document(doc.id)
    qtbot.waitUntil(lambda: window.controller.document_id == doc.id)
    return doc.id


def _span_row(window, text):
    model = window.findings.model
    i = next(i for i, r in enumerate(model.rows) if r.span.text == text)
    return window.findings.proxy.mapFromSource(model.index(i, FindingsModel.TEXT))


def test_findings_show_the_whole_text_with_its_context(qtbot, window, workspace, tmp_path):
    window.resize(1600, 1000)
    path = write_txt(tmp_path / "in" / "note.txt", CLINICAL_NOTE.replace("Margaret Okafor", NAME))
    doc_id = _open(qtbot, window, workspace, path)
    if not any(s.text == NAME for s in window.controller.spans):
        start = window.controller.text.index(NAME)
        window.controller.mark_span(start, start + len(NAME), Category.NAME)
    QApplication.processEvents()
    table = window.findings.table
    idx = _span_row(window, NAME)
    needed = QFontMetrics(table.font()).horizontalAdvance(NAME)
    assert table.columnWidth(FindingsModel.TEXT) >= needed + 8
    assert table.columnViewportPosition(FindingsModel.TEXT) + table.columnWidth(FindingsModel.TEXT) <= table.viewport().width()
    assert table.textElideMode() == Qt.TextElideMode.ElideRight
    tip = idx.data(Qt.ItemDataRole.ToolTipRole)
    assert "Patient:" in tip and NAME in tip and "MRN" in tip
    assert workspace.get_document(doc_id).n_spans >= 1


def test_small_window_keeps_half_for_the_document_and_every_toolbar_action(qtbot, window, workspace, tmp_path):
    # A desktop's UI font is wider than the offscreen platform's; the bar must fit with it.
    font = window.toolbar.font()
    font.setPointSizeF(font.pointSizeF() * 1.25)
    window.toolbar.setFont(font)
    window.resize(1024, 700)
    _open(qtbot, window, workspace, write_txt(tmp_path / "in" / "note.txt"))
    qtbot.waitUntil(lambda: window.width() == 1024)
    QApplication.processEvents()
    assert window.pane.width() >= window.width() // 2, (window.pane.width(), window.queue.width(), window.findings.width())
    assert window.queue.isVisible() and window.findings.isVisible()
    for action_id in ("export", "mark_reviewed", "accept", "reject"):
        button = window.toolbar.widgetForAction(window.actions_by_id[action_id])
        assert button is not None and button.isVisible(), action_id
        assert window.toolbar.rect().contains(button.geometry()), action_id


def test_help_table_shows_every_row_whole(qtbot, window):
    from PySide6.QtCore import QRect

    from .test_dialogs_fit import assert_fits

    dlg = window.show_shortcuts()
    qtbot.waitExposed(dlg)
    table = dlg.findChild(QTableWidget)
    QApplication.processEvents()
    fm = QFontMetrics(table.font())
    # Qt's item delegate lays text out inside the cell less this margin on either side.
    margin = table.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, table) + 1
    for r in range(table.rowCount()):
        for c in range(table.columnCount()):
            text = table.item(r, c).text()
            room = QRect(0, 0, table.columnWidth(c) - 2 * margin, 10_000)
            needed = fm.boundingRect(room, int(Qt.TextFlag.TextWordWrap), text).height()
            assert table.rowHeight(r) >= needed, (r, c, table.rowHeight(r), needed)
    assert_fits(dlg)
    dlg.close()


def _wheel(widget, delta: int, modifiers) -> None:
    pos = QPointF(widget.width() / 2, widget.height() / 2)
    event = QWheelEvent(
        pos, widget.mapToGlobal(pos), QPoint(0, 0), QPoint(0, delta), Qt.MouseButton.NoButton, modifiers, Qt.ScrollPhase.NoScrollPhase, False
    )
    QApplication.sendEvent(widget, event)


def test_pdf_pages_zoom_with_keys_and_ctrl_wheel_and_fit_the_width(qtbot, window, workspace, tmp_path):
    from PySide6.QtTest import QTest

    window.resize(1280, 800)
    _open(qtbot, window, workspace, write_pdf(tmp_path / "in" / "clinic.pdf"))
    pane, view = window.pane, window.pane.pages_view
    canvas = view.canvas
    window.pane.text_view.setFocus()
    QTest.keyClick(window.pane.text_view, Qt.Key.Key_Equal, Qt.KeyboardModifier.ControlModifier)  # Ctrl+=
    assert pane.tabs.currentIndex() == pane.PAGES_TAB  # zooming shows the pages
    qtbot.waitUntil(lambda: len(canvas.images) == 1)
    zoomed = view.scale
    QTest.keyClick(view, Qt.Key.Key_Minus, Qt.KeyboardModifier.ControlModifier)
    assert view.scale < zoomed and canvas.images[0].width() < 612 * zoomed
    before = view.scale
    _wheel(view.viewport(), 120, Qt.KeyboardModifier.ControlModifier)
    assert view.scale == pytest.approx(before * 1.25)
    _wheel(view.viewport(), -240, Qt.KeyboardModifier.ControlModifier)
    assert view.scale == pytest.approx(before / 1.25)
    QTest.keyClick(view, Qt.Key.Key_0, Qt.KeyboardModifier.ControlModifier)  # fit width
    QApplication.processEvents()
    page = canvas.images[0]
    assert abs(page.width() - view.viewport().width()) <= 6, (page.width(), view.viewport().width())
    assert canvas.boxes and view.zoom is None
