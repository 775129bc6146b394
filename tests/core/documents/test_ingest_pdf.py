"""PDF ingest: reading order, page breaks, and a box for every character where it is drawn."""

from __future__ import annotations

import io
import math

import pikepdf
import pytest
from reportlab.pdfbase.pdfmetrics import stringWidth

from deid_desktop.core.documents.ingest import load_document
from deid_desktop.core.documents.pdf_read import PAGE_SEPARATOR

from tests.core.docfactory import PdfSpec, make_image_pdf, make_pdf

SPEC = PdfSpec(
    pages=[
        [
            (72, 90, "Discharge summary - Auckland City Hospital"),
            (72, 110, "Patient: Mere Parata"),
            (320, 110, "NHI: ABC1234"),
            (72, 130, "Seen by Dr Aroha Ngata on 02/04/2024."),
        ],
        [
            (72, 90, "Page two: Mere Parata went home."),
            (90, 400, "Follow-up phone 09 555 1234"),
        ],
    ]
)


@pytest.fixture(scope="module")
def two_pages(tmp_path_factory):
    path = tmp_path_factory.mktemp("pdf") / "summary.pdf"
    _, drawn = make_pdf(path, SPEC)
    return load_document(path), drawn


def test_lines_in_reading_order_and_pages_separated_by_a_blank_line(two_pages):
    doc, _ = two_pages
    assert doc.text == (
        "Discharge summary - Auckland City Hospital\n"
        "Patient: Mere Parata NHI: ABC1234\n"
        "Seen by Dr Aroha Ngata on 02/04/2024."
        + PAGE_SEPARATOR
        + "Page two: Mere Parata went home.\n"
        "Follow-up phone 09 555 1234"
    )
    assert doc.meta["page_starts"] == [0, doc.text.index("Page two")]
    assert [(p["width"], p["height"]) for p in doc.meta["pages"]] == [(595.276, 841.89)] * 2


@pytest.mark.parametrize(("word", "occurrence"), [("Parata", 0), ("Parata", 1), ("ABC1234", 0), ("1234", 1)])
def test_each_character_box_lies_where_reportlab_drew_it(two_pages, word, occurrence):
    doc, drawn = two_pages
    start = -1
    for _ in range(occurrence + 1):
        start = doc.text.index(word, start + 1)
    boxes, pages = [], set()
    for seg in doc.segments:
        for k, box in enumerate(seg.locator["boxes"]):
            if start <= seg.start + k < start + len(word):
                boxes.append(box)
                pages.add(seg.locator["page"])
    assert len(boxes) == len(word)
    assert len(pages) == 1
    page = pages.pop()
    # where reportlab put the word: the drawn string's origin plus the width of what precedes it
    line = next(d for d in drawn if d.page == page and word in d.text)
    before = line.text[: line.text.index(word)]
    expected_x0 = line.x0 + stringWidth(before, SPEC.font, SPEC.size)
    expected_x1 = expected_x0 + stringWidth(word, SPEC.font, SPEC.size)
    assert boxes[0][0] == pytest.approx(expected_x0, abs=0.05)
    assert boxes[-1][2] == pytest.approx(expected_x1, abs=0.05)
    for x0, top, x1, bottom in boxes:
        assert x0 < x1 and top < bottom
        assert top == pytest.approx(line.top, abs=0.05) and bottom == pytest.approx(line.bottom, abs=0.05)
    # boxes run left to right, edge to edge
    assert all(a[2] == pytest.approx(b[0], abs=0.02) for a, b in zip(boxes, boxes[1:]))


def test_inserted_spaces_and_line_breaks_have_no_box(two_pages):
    doc, _ = two_pages
    covered = set()
    for seg in doc.segments:
        assert len(seg.locator["boxes"]) == seg.end - seg.start
        covered.update(range(seg.start, seg.end))
    gap = doc.text.index(" NHI")  # between two separately drawn strings
    assert gap not in covered
    assert doc.text.index("\n") not in covered
    assert all(i in covered for i in range(doc.text.index("Mere"), doc.text.index("Mere") + 11))


def test_a_page_without_text_layer_is_reported_and_the_rest_is_read(tmp_path):
    data = make_image_pdf(None, pages=3, text_on_page={0: "Page one Mere Parata", 2: "Page three text"})
    path = tmp_path / "partly_scanned.pdf"
    path.write_bytes(data)

    doc = load_document(path, ocr="never")

    assert doc.text == "Page one Mere Parata" + PAGE_SEPARATOR + "Page three text"
    assert doc.warnings == [
        "page 2 has no text layer and was not read (OCR is turned off); check it before release",
        "pages 1, 3 contain images; text inside images cannot be checked and is copied as it is",
    ]
    assert doc.meta["page_starts"][1] is None
    assert len(doc.meta["pages"]) == 3


def test_a_text_pdf_without_pictures_has_no_image_warning(two_pages):
    doc, _ = two_pages
    assert not any("image" in w for w in doc.warnings)


def test_rotated_page_reads_in_display_order_with_boxes_in_display_space(tmp_path):
    data, _ = make_pdf(None, PdfSpec(pages=[[(72, 90, "First line Parata"), (72, 110, "Second line")]]))
    pdf = pikepdf.open(io.BytesIO(data))
    pdf.pages[0].Rotate = 90
    out = io.BytesIO()
    pdf.save(out)
    path = tmp_path / "rotated.pdf"
    path.write_bytes(out.getvalue())

    doc = load_document(path)

    assert doc.text == "First line Parata\nSecond line"
    page = doc.meta["pages"][0]
    assert (page["width"], page["height"], page["rotation"]) == (841.89, 595.276, 90)
    start = doc.text.index("Parata")
    boxes = [b for s in doc.segments for k, b in enumerate(s.locator["boxes"]) if start <= s.start + k < start + 6]
    # text runs down the page: each next letter is lower, all in one column near the right edge
    assert all(a[1] < b[1] for a, b in zip(boxes, boxes[1:]))
    assert all(b[0] > page["width"] - 110 for b in boxes)


def test_pdf_with_empty_user_password_is_readable(tmp_path):
    from tests.core.docfactory import encrypt_pdf

    data, _ = make_pdf(None, PdfSpec(pages=[[(72, 90, "Protected against editing only")]]))
    path = tmp_path / "owner_only.pdf"
    path.write_bytes(encrypt_pdf(data, user=""))
    assert load_document(path).text == "Protected against editing only"


@pytest.mark.parametrize("angle", [4, -3, 30])
def test_a_skewed_line_reads_whole_with_its_quadrilaterals_and_style(tmp_path, angle):
    from tests.core.docfactory import PdfLine, make_lines_pdf

    line = PdfLine(72, 200, "Patient Anita Whaanga phone 021 555 0199", angle=angle, font="Times-Bold", size=12)
    make_lines_pdf(tmp_path / "skew.pdf", [PdfLine(72, 90, "Clinic letter, routine review."), line])

    doc = load_document(tmp_path / "skew.pdf")

    assert doc.text == "Clinic letter, routine review.\nPatient Anita Whaanga phone 021 555 0199"
    start = doc.text.index("Anita")
    seg = next(s for s in doc.segments if s.start <= start < s.end)
    assert seg.locator["angle"] == pytest.approx(angle % 360, abs=0.01)
    assert seg.locator["style"] == {"size": 12.0, "family": "serif", "bold": True, "italic": False, "color": [0.0, 0.0, 0.0]}
    # the first letter's quadrilateral starts a descent (Times-Bold: 0.217 em) below where
    # reportlab put the letter on the turned baseline, and is one font size high
    rad = math.radians(angle)
    along, up = (math.cos(rad), -math.sin(rad)), (-math.sin(rad), -math.cos(rad))
    offset = stringWidth("Patient ", "Times-Bold", 12)
    ax, ay, _, _, _, _, dx, dy = seg.locator["quads"][start - seg.start]
    assert ax + 0.217 * 12 * up[0] == pytest.approx(line.x + offset * along[0], abs=0.3)
    assert ay + 0.217 * 12 * up[1] == pytest.approx(line.baseline + offset * along[1], abs=0.3)
    assert math.hypot(dx - ax, dy - ay) == pytest.approx(12, abs=0.05)


def test_tiny_text_keeps_its_double_letters(tmp_path):
    from tests.core.docfactory import PdfLine, make_lines_pdf

    make_lines_pdf(tmp_path / "tiny.pdf", [PdfLine(72, 90, "Seen today."), PdfLine(72, 300, "Rawiri Tane", size=1)])
    assert load_document(tmp_path / "tiny.pdf").text == "Seen today.\nRawiri Tane"


def _overprinted_pdf(path):
    """A line drawn twice a third of a point apart (how some letter generators make bold),
    a second line drawn once, and 'ii' in 1-point type."""
    from reportlab.pdfgen import canvas

    c = canvas.Canvas(str(path))
    for dx in (0.0, 0.3):
        c.setFont("Helvetica", 11)
        c.drawString(72 + dx, 700, "Patient: Mere Parata")
    c.drawString(72, 680, "Seen in clinic; bloods normal.")
    c.setFont("Helvetica", 1)
    c.drawString(72, 660, "ii")
    c.save()


def test_a_line_overprinted_for_bold_is_read_once_and_tiny_letters_are_kept(tmp_path):
    path = tmp_path / "bold.pdf"
    _overprinted_pdf(path)
    text = load_document(path).text
    assert text.count("Mere Parata") == 1
    assert "Patient: Mere Parata" in text and "Seen in clinic; bloods normal." in text
    assert "ii" in text.split()


def test_the_copy_remover_keeps_what_pdfplumber_keeps(tmp_path):
    import pdfplumber
    from pdfplumber.utils import dedupe_chars

    from deid_desktop.core.documents.pdf_read import _without_copies

    path = tmp_path / "bold.pdf"
    _overprinted_pdf(path)
    with pdfplumber.open(path) as pdf:
        chars = list(pdf.pages[0].chars)
    for tolerance in (0.1, 0.5, 1.0):
        ours = sorted(id(c) for c in _without_copies(chars, tolerance))
        theirs = sorted(id(c) for c in dedupe_chars(chars, tolerance=tolerance))
        assert ours == theirs
    assert len(list(_without_copies(chars, 1.0))) < len(chars)
