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
from deid_desktop.core.documents.export import write_document
from deid_desktop.core.documents.ingest import load_document
from deid_desktop.core.errors import ExportError

from .docfactory import PdfSpec, find_leaks, make_image_pdf, make_pdf, pdf_stream_bytes, replacements_for

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


def test_surrogate_is_drawn_inside_the_box_of_the_value_it_replaces(exported):
    doc, reps, out = exported
    back = load_document(out)
    start = doc.text.index("ABC1234")
    old = _boxes(doc, start, start + 7)
    new_start = back.text.index("XYZ9876")
    new = _boxes(back, new_start, new_start + 7)
    assert min(b[0] for b in new) >= min(b[0] for b in old) - 1.0
    assert max(b[2] for b in new) <= max(b[2] for b in old) + 1.0
    assert abs(np.mean([b[1] for b in new]) - np.mean([b[1] for b in old])) < 2.0


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
