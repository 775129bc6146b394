"""The Pages tab draws a finding inside an image of a born-digital PDF page (a pasted photo
of a form, read by OCR) where the word is in the image: its boxes come from the same source
map as the text layer's."""

from __future__ import annotations

import numpy as np
import pypdfium2 as pdfium
import pytest

from deid_desktop.core.documents.ingest import load_document
from deid_desktop.core.documents.ocr import tesseract_missing
from deid_desktop.gui.pdf_view import range_boxes

from ..core.documents.test_pdf_images_ocr import letter_pdf

pytestmark = pytest.mark.skipif(tesseract_missing() is not None, reason="Tesseract OCR is not installed")


def test_a_word_read_in_an_image_is_boxed_where_it_is_on_the_page(tmp_path):
    path = tmp_path / "letter.pdf"
    path.write_bytes(letter_pdf())
    doc = load_document(path)
    scale = 2.0
    pdf = pdfium.PdfDocument(str(path))
    try:
        page = np.asarray(pdf[0].render(scale=scale).to_pil().convert("L"))
    finally:
        pdf.close()
    for word in ("ZAC5361", "Ngata"):
        start = doc.text.index(word)
        ((number, rect),) = range_boxes(doc.segments, start, start + len(word))
        assert number == 0
        region = page[int(rect.top() * scale) : int(rect.bottom() * scale), int(rect.left() * scale) : int(rect.right() * scale)]
        # the box holds the word's ink, and no more than a word's worth of page
        assert (region < 128).mean() > 0.1
        assert rect.width() < 100 and rect.height() < 20
