"""Reviewing a scanned PDF: the OCR text in the Text tab with its unsure words marked, the
findings as boxes on the page image, and a page OCR read nothing from flagged until the
reviewer accepts it (from the keyboard); the acceptance is kept in the workspace and the
export then copies that page instead of blacking it out."""

from __future__ import annotations

import runpy

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from deid_desktop.core.documents.ocr import tesseract_missing
from deid_desktop.core.paths import resource

from .conftest import wait_idle

pytestmark = pytest.mark.skipif(tesseract_missing() is not None, reason="Tesseract OCR is not installed")


@pytest.fixture
def scan_id(qtbot, window, workspace, tmp_path):
    make = runpy.run_path(str(resource("samples", "make_samples.py")))
    path = tmp_path / "fax.pdf"
    path.write_bytes(make["scanned_letter"]())
    window.import_paths([path])
    wait_idle(qtbot, window)
    (doc,) = workspace.list_documents()
    window.open_document(doc.id)
    return doc.id


def test_unsure_words_are_marked_in_the_text_and_on_the_page(qtbot, window, workspace, scan_id):
    doc = workspace.load_document(scan_id)
    low = [tuple(v) for v in doc.meta["ocr"]["low_confidence"]]
    assert low  # the sample's squeezed word
    pane = window.pane
    assert pane.text_view.low_confidence == low
    a, b = low[0]
    rect = pane.text_view.span_rects(a, b)[0]
    assert pane.text_view.tooltip_at(rect.center().toPoint()).startswith("read by OCR with low confidence")
    name = doc.text.index("Ngata")
    assert pane.text_view.low_confidence_at(name) is None
    pane.tabs.setCurrentIndex(pane.PAGES_TAB)
    canvas = pane.pages_view.canvas
    qtbot.waitUntil(lambda: len(canvas.images) == 2)
    assert [p for p, _ in canvas.low_confidence] == [0]
    # finding boxes of the OCR'd page sit on dark (text) pixels of the page image
    spans = workspace.list_spans(scan_id)
    target = next(s for s in spans if "Ngata" in s.text)
    box = next(bx for bx in canvas.boxes if bx.span_id == target.id)
    r, origin, page = canvas.box_rect(box), canvas.page_origin(0), canvas.images[0]
    dark = sum(
        1
        for x in range(int(r.left() - origin.x()), int(r.right() - origin.x()))
        for y in range(int(r.top() - origin.y()), int(r.bottom() - origin.y()))
        if page.pixelColor(x, y).lightness() < 128
    )
    assert dark > 20


def test_an_unread_page_is_flagged_and_accepted_from_the_keyboard(qtbot, window, workspace, scan_id, tmp_path):
    from deid_desktop.core.documents.export import export_document

    notice = window.pane.unread_notice
    assert notice.isVisible() and notice.page == 2
    assert "page 2" in notice.label.text()
    assert window.pane.pages_view.canvas.unread == {1: False}
    qtbot.waitExposed(window)
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    QTest.keyClick(window, Qt.Key.Key_U, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    qtbot.waitUntil(lambda: not notice.isVisible())
    assert window.pane.pages_view.canvas.unread == {1: True}
    # kept in the workspace: the next export copies the page instead of blacking it out
    doc = workspace.load_document(scan_id)
    assert doc.meta["accepted_unread_pages"] == [2]
    result = export_document(doc, [], tmp_path / "out.pdf")
    assert 2 not in result.pages_to_check
    assert any("reviewer accepted" in w for w in result.warnings)
    import pypdfium2 as pdfium
    import numpy as np

    pdf = pdfium.PdfDocument(str(result.path))
    try:
        assert np.asarray(pdf[1].render(scale=0.5).to_pil().convert("L")).mean() > 200  # paper, not black
    finally:
        pdf.close()
