"""PDF export: the page looks the same, the replaced values are painted over and redrawn,
and the original values are nowhere in the file — not in a stream, not in the metadata."""

from __future__ import annotations

import io
import re

import numpy as np
import pikepdf
import pypdfium2 as pdfium
import pytest

from deid_desktop.core.documents import apply_replacements
from deid_desktop.core.documents.export import ExportWarning, export_document, write_document
from deid_desktop.core.documents.ingest import load_document
from deid_desktop.core.errors import ExportError

from tests.core.docfactory import (
    PdfLine,
    PdfSpec,
    add_pdf_extras,
    find_leaks,
    make_arc_pdf,
    make_image_pdf,
    make_lines_pdf,
    make_pdf,
    pdf_stream_bytes,
    replacements_for,
)

SPEC = PdfSpec(
    pages=[
        [
            (72, 90, "Discharge summary - Auckland City Hospital"),
            (72, 110, "Patient: Mere Parata   NHI: ABC1234"),
            (72, 130, "DOB 12/03/1961, seen by Dr Aroha Ngata."),
            (300, 160, "Phone 09 555 1234"),
        ],
        [
            (72, 90, "Page two: Mere Parata was discharged home."),
            (72, 110, "Follow-up with Dr Aroha Ngata in 2 weeks."),
        ],
    ],
    title="Discharge summary for Mere Parata",
    author="Dr Aroha Ngata",
    subject="NHI ABC1234",
)
SURROGATES = {
    "Mere Parata": "Hone Walker",
    "Aroha Ngata": "Ruth Kemp",
    "ABC1234": "XYZ9876",
    "12/03/1961": "04/07/1959",
    "Auckland City Hospital": "Waikato Hospital",
    "09 555 1234": "07 444 9876",
}


def _normalised(text: str) -> str:
    return re.sub(r"[ \t]+", " ", text).strip()


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("pdf_export")
    source, _ = make_pdf(tmp / "summary.pdf", SPEC)
    doc = load_document(tmp / "summary.pdf")
    reps = replacements_for(doc.text, SURROGATES)
    out = write_document(doc, reps, tmp / "summary.deid.pdf")
    return doc, reps, out


def test_no_original_value_in_any_stream_string_or_metadata(exported):
    doc, reps, out = exported
    originals = sorted({doc.text[r.start : r.end] for r in reps} | {"Parata", "Ngata"})
    assert find_leaks(pdf_stream_bytes(out.read_bytes()), originals) == []


def test_metadata_is_neutral_and_there_is_no_xmp_packet(exported):
    _, _, out = exported
    with pikepdf.open(out) as pdf:
        info = {str(k): str(v) for k, v in pdf.docinfo.items()}
        assert "/Metadata" not in pdf.Root
    assert info.get("/Author", "") == ""
    assert info["/Title"] == "De-identified document"
    assert info.get("/Subject", "") == ""
    assert info["/Producer"] == "deid-desktop"


def test_reading_the_output_gives_the_replaced_text(exported):
    doc, reps, out = exported
    back = load_document(out)
    assert _normalised(back.text) == _normalised(apply_replacements(doc.text, reps))
    assert back.meta["pages"] == [{k: v for k, v in p.items()} for p in doc.meta["pages"]]


def test_surrogate_starts_where_the_value_did_on_the_same_line_at_the_same_size(exported):
    doc, reps, out = exported
    back = load_document(out)
    start = doc.text.index("ABC1234")
    old = _boxes(doc, start, start + 7)
    new_start = back.text.index("XYZ9876")
    new = _boxes(back, new_start, new_start + 7)
    assert new[0][0] == pytest.approx(old[0][0], abs=0.5)
    assert np.mean([b[1] for b in new]) == pytest.approx(np.mean([b[1] for b in old]), abs=0.5)
    assert np.mean([b[3] - b[1] for b in new]) == pytest.approx(np.mean([b[3] - b[1] for b in old]), abs=0.2)


def test_replaced_area_no_longer_shows_the_original_pixels_and_the_rest_does(exported):
    doc, reps, out = exported
    source = pdfium.PdfDocument(doc.source_bytes)
    result = pdfium.PdfDocument(out.read_bytes())
    scale = 150 / 72  # the resolution the writer renders at: pixels line up one to one
    before = np.asarray(source[0].render(scale=scale).to_pil().convert("L"), dtype=float)
    after = np.asarray(result[0].render(scale=scale).to_pil().convert("L"), dtype=float)
    assert before.shape == after.shape

    def region(img, box):
        x0, top, x1, bottom = (int(v * scale) for v in box)
        return img[top:bottom, x0:x1]

    start = doc.text.index("ABC1234")
    phi = _union(_boxes(doc, start, start + 7))
    kept = _union(_boxes(doc, doc.text.index("Discharge"), doc.text.index("Discharge") + 9))
    assert np.abs(region(before, phi) - region(after, phi)).mean() > 20
    assert np.abs(region(before, kept) - region(after, kept)).mean() < 2


def test_page_count_and_sizes_are_kept_and_image_only_pages_stay(tmp_path):
    data = make_image_pdf(None, pages=2, text_on_page={0: "Patient Mere Parata"})
    path = tmp_path / "mixed.pdf"
    path.write_bytes(data)
    doc = load_document(path)
    # the second page is a picture with no text OCR can read: it is blacked out, and the user told so
    with pytest.warns(ExportWarning, match="page 2: OCR read no text on it; it is blacked out"):
        out = write_document(doc, replacements_for(doc.text, {"Mere Parata": "Hone Walker"}), tmp_path / "mixed.deid.pdf")
    with pikepdf.open(out) as pdf:
        assert len(pdf.pages) == 2
        assert [round(float(v), 2) for v in pdf.pages[1].MediaBox] == [0, 0, 595.28, 841.89]
    assert load_document(out).text == "Patient Hone Walker"


def test_rotated_page_round_trip(tmp_path):
    data, _ = make_pdf(None, PdfSpec(pages=[[(72, 90, "Patient: Mere Parata seen today")]]))
    pdf = pikepdf.open(io.BytesIO(data))
    pdf.pages[0].Rotate = 270
    pdf.pages[0].CropBox = [20, 30, 560, 800]
    buf = io.BytesIO()
    pdf.save(buf)
    path = tmp_path / "rot.pdf"
    path.write_bytes(buf.getvalue())
    doc = load_document(path)
    out = write_document(doc, replacements_for(doc.text, {"Mere Parata": "Hone Walker"}), tmp_path / "rot.deid.pdf")
    back = load_document(out)
    assert back.text == "Patient: Hone Walker seen today"
    assert (back.meta["pages"][0]["width"], back.meta["pages"][0]["height"]) == (770.0, 540.0)


def test_non_latin_surrogates_are_searchable(tmp_path):
    make_pdf(tmp_path / "m.pdf", PdfSpec(pages=[[(72, 90, "Address: 19 Kowhai Street, Naenae")]]))
    doc = load_document(tmp_path / "m.pdf")
    out = write_document(doc, replacements_for(doc.text, {"Kowhai Street": "Tōtara Road"}), tmp_path / "m.deid.pdf")
    assert "Tōtara Road" in load_document(out).text


def test_a_source_map_that_does_not_fit_the_file_is_refused(exported, tmp_path):
    doc, reps, _ = exported
    other, _ = make_pdf(None, PdfSpec(pages=[[(72, 90, "One page only")]]))
    stale = load_document(doc.path)
    stale.source_bytes = other
    with pytest.raises(ExportError) as err:
        write_document(stale, reps, tmp_path / "stale.pdf")
    assert err.value.code == "source_mismatch"
    assert not (tmp_path / "stale.pdf").exists()


def _boxes(doc, start, end):
    return [
        b
        for s in doc.segments
        for k, b in enumerate(s.locator["boxes"])
        if start <= s.start + k < end
    ]


def _union(boxes):
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))


def test_annotations_and_their_text_are_left_out(tmp_path):
    from reportlab.pdfgen.canvas import Canvas

    path = tmp_path / "annotated.pdf"
    c = Canvas(str(path), invariant=1)
    c.setFont("Helvetica", 11)
    c.drawString(72, 700, "Reviewed today, no change.")
    c.textAnnotation("Call Mere Parata on 021 555 0101", Rect=(72, 650, 200, 680))
    c.showPage()
    c.save()

    doc = load_document(path)
    assert doc.warnings == ["page 1 has form fields or annotations; they are left out of the de-identified copy"]
    out = write_document(doc, [], tmp_path / "annotated.deid.pdf")

    with pikepdf.open(out) as pdf:
        assert "/Annots" not in pdf.pages[0]
    assert find_leaks(pdf_stream_bytes(out.read_bytes()), ["Mere Parata", "021 555 0101"]) == []


# --------------------------------------------------------------------------- hard cases

NAME, PHONE = "Anita Whaanga", "021 555 0199"
TURNED = [
    PdfLine(72, 90, "Clinic letter, routine review."),
    PdfLine(72, 160, f"Patient {NAME} phone {PHONE}", angle=4),
    PdfLine(90, 260, f"Patient {NAME} phone {PHONE}", angle=-3),
    PdfLine(520, 760, f"Patient {NAME} phone {PHONE}", angle=90),
]


def _render(data: bytes, scale: float = 2.0) -> np.ndarray:
    pdf = pdfium.PdfDocument(data)
    try:
        return np.asarray(pdf[0].render(scale=scale).to_pil().convert("L"), dtype=float)
    finally:
        pdf.close()


def _inside(img: np.ndarray, quad, scale: float = 2.0) -> np.ndarray:
    """The pixels of ``img`` inside a quadrilateral given in points."""
    from PIL import Image, ImageDraw

    mask = Image.new("L", (img.shape[1], img.shape[0]), 0)
    ImageDraw.Draw(mask).polygon([(x * scale, y * scale) for x, y in quad], fill=255)
    return img[np.asarray(mask) > 0]


def _fragments(value: str, n: int) -> set[str]:
    parts = re.findall(r"\w+", value)
    return {p[i:j].lower() for p in parts for i in range(len(p)) for j in range(i + n, len(p) + 1)}


def _texts(data: bytes) -> list[str]:
    """The output's text as two independent readers see it."""
    import pdfplumber

    with pdfplumber.open(io.BytesIO(data)) as pdf:
        plumber = "\n".join(page.extract_text() or "" for page in pdf.pages)
    pdf = pdfium.PdfDocument(data)
    try:
        pdfium_text = "\n".join(pdf[i].get_textpage().get_text_range() for i in range(len(pdf)))
    finally:
        pdf.close()
    return [plumber, pdfium_text]


def _content_streams(data: bytes) -> list[str]:
    """Every page content stream, decoded: where text objects would be."""
    with pikepdf.open(io.BytesIO(data)) as pdf:
        return [page.obj.Contents.read_bytes().decode("latin-1") for page in pdf.pages]


def test_turned_and_skewed_lines_are_replaced_whole_with_no_fragment_left(tmp_path):
    make_lines_pdf(tmp_path / "turned.pdf", TURNED)
    doc = load_document(tmp_path / "turned.pdf")
    reps = replacements_for(doc.text, {NAME: "Hone Walker", PHONE: "07 444 9876"})
    result = export_document(doc, reps, tmp_path / "turned.deid.pdf")
    data = result.path.read_bytes()
    # what the output should say, also backwards: pdfplumber reads text turned 90 degrees
    # from its last letter ("Patient" → "tneitaP", which holds "ita")
    expected = apply_replacements(doc.text, reps).lower()
    expected += "\n" + expected[::-1]

    assert len(reps) == 6  # the name and the phone on each of the three lines, read whole
    assert find_leaks(pdf_stream_bytes(data), [NAME, PHONE, "Anita", "Whaanga"]) == []
    texts = [t.lower() for t in _texts(data)]
    assert all("hone walker" in t and "07 444 9876" in t for t in texts)
    leftovers = {f for f in _fragments(NAME, 3) if f not in expected}
    leftovers |= {d for d in _fragments(PHONE, 2) if d not in expected}
    assert leftovers  # "ita", "nga", "555", "99", ... are not in the de-identified text
    found = [f for f in leftovers if any(f in t.replace(" ", "") for t in texts)]
    found += [f for f in leftovers if not f.isdigit() and any(f in s.lower() for s in _content_streams(data))]
    assert found == []


def test_every_pixel_of_a_turned_value_is_painted_out(tmp_path):
    source = make_lines_pdf(tmp_path / "turned.pdf", TURNED)
    doc = load_document(tmp_path / "turned.pdf")
    reps = replacements_for(doc.text, {NAME: "", PHONE: ""})
    out = export_document(doc, reps, tmp_path / "turned.deid.pdf").path
    before, after = _render(source), _render(out.read_bytes())

    for line in TURNED[1:]:
        for value in (NAME, PHONE):
            start = line.text.index(value)
            quad = line.span_quad(start, start + len(value))
            assert _inside(before, quad).min() < 100  # the value was there, in ink
            assert _inside(after, quad).min() > 245, f"ink left of a line turned {line.angle} degrees"
        kept = line.span_quad(0, len("Patient"))
        assert _inside(after, kept).min() < 100  # and the words around it stay


HIDDEN = [
    PdfLine(72, 90, "Clinic letter, routine review."),
    PdfLine(72, 200, "Note for Rawiri Tane", render_mode=3),
    PdfLine(72, 300, "Rawiri Tane", size=1, colour=(1, 1, 1)),
]


def test_hidden_text_stays_hidden_and_its_replacement_is_only_in_the_text_layer(tmp_path):
    make_lines_pdf(tmp_path / "hidden.pdf", HIDDEN)
    doc = load_document(tmp_path / "hidden.pdf")
    reps = replacements_for(doc.text, {"Rawiri Tane": "Hemi Walker"})
    assert len(reps) == 2
    result = export_document(doc, reps, tmp_path / "hidden.deid.pdf")
    data = result.path.read_bytes()
    after = _render(data)

    for line in HIDDEN[1:]:
        quad = line.span_quad(0, len(line.text))
        grown = [(x + dx, y + dy) for (x, y), (dx, dy) in zip(quad, ((-3, 3), (60, 3), (60, -3), (-3, -3)))]
        assert _inside(after, grown).min() > 245  # nothing drawn where the hidden text was
    assert load_document(result.path).text.count("Hemi Walker") == 2
    assert find_leaks(pdf_stream_bytes(data), ["Rawiri Tane", "Rawiri"]) == []
    assert any(w.startswith("page 1: hidden text") for w in result.warnings)
    assert not any("Rawiri" in w or "Hemi" in w for w in result.warnings)


def test_longer_surrogate_keeps_the_font_size_and_look_and_pushes_the_line_along(tmp_path):
    import pdfplumber
    from reportlab.pdfbase.pdfmetrics import stringWidth

    line = PdfLine(72, 120, "Seen by Dr Li today, reviewed.", font="Times-Roman", size=12)
    make_lines_pdf(tmp_path / "short.pdf", [line])
    doc = load_document(tmp_path / "short.pdf")
    reps = replacements_for(doc.text, {"Li": "Bartholomew"})
    out = export_document(doc, reps, tmp_path / "short.deid.pdf").path

    with pdfplumber.open(out) as pdf:
        chars = [c for c in pdf.pages[0].chars if c["text"].strip()]
    text = "".join(c["text"] for c in chars)
    at = text.index("Bartholomew")
    surrogate = chars[at : at + len("Bartholomew")]
    for c in surrogate:
        assert c["size"] == pytest.approx(12, abs=0.05)
        assert c["fontname"] == "Times-Roman"
        assert c["x1"] - c["x0"] == pytest.approx(stringWidth(c["text"], "Times-Roman", 12), abs=0.05)
    assert surrogate[0]["x0"] == pytest.approx(72 + stringWidth("Seen by Dr ", "Times-Roman", 12), abs=0.3)
    today = chars[text.index("today")]
    assert today["x0"] >= surrogate[-1]["x1"] + 1.5  # moved along, a space apart, not overlapped

    # in the image too: the surrogate's capital is as tall as the capital of "Seen"
    img = _render(out.read_bytes())

    def ink_rows(x0: float, x1: float) -> tuple[int, int]:
        band = img[int(100 * 2) : int(125 * 2), int(x0 * 2) : int(x1 * 2)]
        rows = np.where((band < 128).any(axis=1))[0]
        return rows.min(), rows.max()

    b = surrogate[0]
    assert ink_rows(b["x0"], b["x1"]) == ink_rows(72, 72 + stringWidth("S", "Times-Roman", 12))


def test_letters_that_form_no_line_are_covered_and_the_page_is_flagged(tmp_path):
    source = make_arc_pdf(tmp_path / "stamp.pdf", "WHAANGA")
    doc = load_document(tmp_path / "stamp.pdf")
    assert doc.text == "Stamped copy, see below."
    result = export_document(doc, [], tmp_path / "stamp.deid.pdf")
    before, after = _render(source), _render(result.path.read_bytes())

    ring = (before[int(300 * 2) : int(500 * 2), int(200 * 2) : int(400 * 2)] < 128).sum()
    assert ring > 100  # the stamp's letters were on the page
    assert (after[int(300 * 2) : int(500 * 2), int(200 * 2) : int(400 * 2)] < 128).sum() == 0
    assert "Stamped copy" in load_document(result.path).text
    assert result.warnings == [
        "page 1: letters that could not be read as lines of text were covered; check the page"
    ]


def test_nothing_but_the_pages_is_carried_over(tmp_path):
    """Outlines, annotations, form fields, attachments, scripts, page labels, document
    information and XMP of the original: none reaches the output (docs/scrubbing.md, PDF)."""
    secret = "Anita Whaanga"
    page = make_lines_pdf(None, [PdfLine(72, 90, "Letter about the patient, routine review.")])
    path = tmp_path / "extras.pdf"
    path.write_bytes(add_pdf_extras(page, secret))
    doc = load_document(path)
    out = export_document(doc, [], tmp_path / "extras.deid.pdf").path

    with pikepdf.open(out) as pdf:
        assert set(pdf.Root.keys()) <= {"/Type", "/Pages", "/PageMode"}
        assert not pdf.attachments
        assert "/Annots" not in pdf.pages[0]
        assert {str(k) for k in pdf.docinfo.keys()} <= {"/Author", "/Title", "/Subject", "/Keywords", "/Creator", "/Producer", "/CreationDate", "/ModDate", "/Trapped"}
    assert find_leaks(pdf_stream_bytes(out.read_bytes()), [secret, "Whaanga", "app.alert"]) == []


def test_invisible_ocr_text_over_a_scan_gets_the_scanned_value_painted_out(tmp_path):
    from tests.core.docfactory import make_ocr_pdf

    lines = [PdfLine(72, 90, "Referral letter, routine."), PdfLine(72, 130, f"Patient {NAME} seen today")]
    source = make_ocr_pdf(tmp_path / "scan.pdf", lines)
    doc = load_document(tmp_path / "scan.pdf")
    reps = replacements_for(doc.text, {NAME: "Hone Walker"})
    out = export_document(doc, reps, tmp_path / "scan.deid.pdf").path
    before, after = _render(source), _render(out.read_bytes())

    start = lines[1].text.index(NAME)
    gone = lines[1].span_quad(start, start + len(NAME))
    assert _inside(before, gone).min() < 100
    # the picture of the name is gone and the surrogate is seen in its place, as on any page
    assert np.abs(_inside(after, gone) - _inside(before, gone)).mean() > 20
    assert _inside(after, lines[1].span_quad(start, start + len("Hone Walker"))).min() < 100
    from reportlab.pdfbase.pdfmetrics import stringWidth

    x0 = 72 + stringWidth("Patient Hone Walker", "Helvetica", 11) + 2
    x1 = 72 + stringWidth(f"Patient {NAME}", "Helvetica", 11)
    tail = [(x0, 133), (x1, 133), (x1, 119.5), (x0, 119.5)]  # the longer name's last letters
    assert _inside(before, tail).min() < 100 and _inside(after, tail).min() > 245
    assert "Hone Walker" in load_document(out).text
