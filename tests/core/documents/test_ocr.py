"""Scanned letters: a PDF that is only a picture of a letter is read by OCR, its PHI found,
and the de-identified copy has the PHI burned out of the pixels — nothing of the original
picture, its EXIF or the PDF's metadata survives, and a blank page comes out black."""

from __future__ import annotations

import io
import json
import random

import numpy as np
import pikepdf
import pypdfium2 as pdfium
import pytest
from PIL import Image, ImageDraw, ImageFont

from deid_desktop.cli import main
from deid_desktop.core.documents.export import export_document
from deid_desktop.core.documents.ingest import load_document
from deid_desktop.core.documents.ocr import low_confidence_spans, tesseract_missing
from deid_desktop.core.errors import IngestError
from deid_desktop.core.paths import resource

from .ocr_helpers import deidentify_once
from tests.core.docfactory import find_leaks, pdf_stream_bytes, replacements_for

pytestmark = pytest.mark.skipif(tesseract_missing() is not None, reason="Tesseract OCR is not installed")

RULES = str(resource("ensembles", "rules_only.toml"))
FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
LETTER = [
    "Wellington Regional Hospital",
    "",
    "Patient: Aroha Ngata",
    "NHI: ZAC5361",
    "DOB: 14/03/1952",
    "Phone: (04) 385 5999",
    "",
    "Diagnosis: hypertension, well controlled.",
    "Plan: continue metformin 500 mg twice daily.",
]
PHI = ["Aroha", "Ngata", "ZAC5361", "14/03/1952", "385 5999"]
CLINICAL = ["hypertension", "metformin"]
DPI = 200


def _scan(lines: list[str], *, angle: float = 1.5, seed: int = 1) -> Image.Image:
    """A page as a scanner gives it: type at 200 dpi, turned a little, with speckle."""
    w, h = int(8.27 * DPI), int(11.69 * DPI)
    page = Image.new("L", (w, h), 255)
    draw = ImageDraw.Draw(page)
    font = ImageFont.truetype(FONT, 40)
    for i, line in enumerate(lines):
        draw.text((160, 200 + 70 * i), line, fill=0, font=font)
    page = page.rotate(angle, resample=Image.Resampling.BICUBIC, fillcolor=255)
    rnd, px = random.Random(seed), page.load()
    for _ in range(int(w * h * 0.002)):
        px[rnd.randrange(w), rnd.randrange(h)] = 0
    return page


def _jpeg_with_exif(image: Image.Image) -> bytes:
    """The page as a JPEG whose EXIF names the patient (as a scanner's "document name")."""
    exif = Image.Exif()
    exif[0x010D] = "Aroha Ngata ZAC5361"  # DocumentName
    exif[0x013B] = "Aroha Ngata"  # Artist
    buf = io.BytesIO()
    image.save(buf, format="JPEG", quality=90, exif=exif, comment=b"Aroha Ngata")
    return buf.getvalue()


def _image_pdf(pages: list[Image.Image], *, title: str = "Letter for Aroha Ngata") -> bytes:
    """Image-only pages; the JPEGs go in as they are (EXIF included), with a title in the
    document information and an XMP packet, as scanning software writes them."""
    from reportlab.lib.utils import ImageReader
    from reportlab.pdfgen.canvas import Canvas

    buf = io.BytesIO()
    c = Canvas(buf, pagesize=(595.28, 841.89))
    c.setTitle(title)
    c.setAuthor("Aroha Ngata")
    for page in pages:
        c.drawImage(ImageReader(io.BytesIO(_jpeg_with_exif(page))), 0, 0, width=595.28, height=841.89)
        c.showPage()
    c.save()
    with pikepdf.open(io.BytesIO(buf.getvalue())) as pdf:
        with pdf.open_metadata() as meta:
            meta["dc:creator"] = ["Aroha Ngata"]
        out = io.BytesIO()
        pdf.save(out)
    return out.getvalue()


@pytest.fixture(scope="module")
def scan_path(tmp_path_factory):
    """Page 1: the letter; page 2: a blank sheet with speckle."""
    path = tmp_path_factory.mktemp("scan") / "scan.pdf"
    path.write_bytes(_image_pdf([_scan(LETTER), _scan([], angle=0.0, seed=2)]))
    return path


@pytest.fixture(scope="module")
def scan_doc(scan_path):
    return load_document(scan_path)


@pytest.fixture(scope="module")
def batch(scan_path, tmp_path_factory):
    """``deidentify`` run once over the scanned letter (rules only, no trained model)."""
    return deidentify_once(scan_path.read_bytes(), "scan.pdf", tmp_path_factory.mktemp("batch"))


def _render(path, index: int, dpi: int = 100) -> np.ndarray:
    pdf = pdfium.PdfDocument(str(path))
    try:
        page = pdf[index]
        return np.asarray(page.render(scale=dpi / 72).to_pil().convert("L"))
    finally:
        pdf.close()


def test_the_source_really_carries_the_name_in_its_metadata(scan_path):
    # the leak tests below mean something only if the input has the name outside its pixels
    assert find_leaks(pdf_stream_bytes(scan_path.read_bytes()), ["Aroha Ngata"])


def test_ocr_reads_the_planted_phi_and_the_clinical_words(scan_doc):
    text = scan_doc.text.casefold()
    for value in PHI + CLINICAL:
        assert value.casefold() in text
    assert "Patient: Aroha Ngata\nNHI: ZAC5361" in scan_doc.text  # lines are kept
    summary = scan_doc.meta["ocr"]
    assert summary["pages"] == [1, 2]
    assert summary["mean_conf"] > 80
    assert low_confidence_spans(scan_doc) == [tuple(v) for v in summary["low_confidence"]]
    # every word maps to a box on page 1, in the page's points, where the word is
    start = scan_doc.text.index("Ngata")
    seg = next(s for s in scan_doc.segments if s.start <= start < s.end)
    assert seg.locator["page"] == 0 and len(seg.locator["boxes"]) == seg.end - seg.start
    x0, top, x1, bottom = seg.locator["boxes"][0]
    assert 60 < x0 < 300 and 60 < top < 200 and bottom - top > 8


def test_a_blank_scanned_page_is_flagged(scan_doc):
    assert scan_doc.meta["ocr"]["blank_pages"] == [2]
    assert any(w.startswith("page 2: OCR read no text") for w in scan_doc.warnings)
    assert all(s.locator["page"] == 0 for s in scan_doc.segments)


def test_deidentify_burns_the_phi_out_of_the_pixels(batch):
    rc, output, report, _ = batch
    assert rc == 0
    # OCR of the exported pixels (its text layer ignored) reads no PHI, but the letter
    reread = load_document(output, ocr="always").text.casefold()
    for value in PHI:
        assert value.casefold() not in reread
    for word in CLINICAL:
        assert word in reread
    # and the searchable text layer is de-identified too
    layer = load_document(output, ocr="never").text
    assert not [v for v in PHI if v.casefold() in layer.casefold()]
    assert "metformin" in layer


def test_the_export_keeps_nothing_of_the_original_file(batch):
    _, output, _, _ = batch
    data = output.read_bytes()
    assert find_leaks(pdf_stream_bytes(data), PHI + ["Aroha Ngata"]) == []
    with pikepdf.open(output) as pdf:
        assert "/Metadata" not in pdf.Root
        images = [img for page in pdf.pages for img in page.get_images().values()]
        assert len(images) == 2
        for img in images:
            assert "/Metadata" not in img
            assert img.get("/Filter") != pikepdf.Name.DCTDecode  # not the scanner's JPEG
            raw = img.read_raw_bytes()
            assert b"Exif" not in raw and b"\xff\xe1" not in raw[:4]


def test_the_blank_page_is_blacked_out_and_listed_to_check(batch):
    _, output, report, _ = batch
    (entry,) = report["files"]
    assert entry["pages_to_check"] == [2]
    assert sum("OCR read no text" in w for w in entry["warnings"]) == 1  # said once, by page number
    assert _render(output, 1).mean() < 5  # all black
    assert _render(output, 0).mean() > 200  # the letter page is still paper


def test_the_report_gives_ocr_figures_and_no_phi(batch):
    _, _, report, out = batch
    (entry,) = report["files"]
    assert entry["ocr_pages"] == [1, 2]
    assert entry["ocr_mean_confidence"] > 80
    assert entry["ocr_low_confidence_words"] >= 0
    assert entry["image_boxes_redacted"] >= len(PHI)
    assert report["summary"]["files_read_by_ocr"] == 1
    raw = (out / "deid_report.json").read_text(encoding="utf-8") + (out / "deid_report.csv").read_text(encoding="utf-8")
    assert not [v for v in PHI if v in raw]


def test_blackout_mode_paints_black_boxes(scan_doc, tmp_path):
    reps = replacements_for(scan_doc.text, {"Aroha Ngata": "███████████"})
    result = export_document(scan_doc, reps, tmp_path / "black.pdf")
    assert result.image_boxes_redacted == 2
    page = _render(result.path, 0, dpi=DPI)
    # where the name was, a solid black bar now (the exported page is the straightened scan,
    # the frame OCR's word boxes are in)
    seg = next(s for s in scan_doc.segments if s.start == scan_doc.text.index("Aroha"))
    scale = DPI / scan_doc.meta["pages"][0]["ocr"]["dpi"]
    x0, top, x1, bottom = (int(v * scale) for v in seg.locator["ocr_box"])
    assert page[top:bottom, x0:x1].mean() < 10


def test_ocr_never_refuses_a_scan_with_a_clear_message(scan_path, tmp_path, capsys):
    with pytest.raises(IngestError) as e:
        load_document(scan_path, ocr="never")
    assert e.value.code == "no_text" and "OCR is turned off" in e.value.reason
    out = tmp_path / "out"
    rc = main(["deidentify", str(scan_path), "--out", str(out), "--ensemble", RULES, "--key-file", str(tmp_path / "key"),
               "--quiet", "--ocr", "never"])
    assert rc == 1
    assert "OCR is turned off" in capsys.readouterr().err
    report = json.loads((out / "deid_report.json").read_text(encoding="utf-8"))
    assert report["files"][0]["error_code"] == "no_text"


def test_an_unread_scanned_page_is_listed_to_check(tmp_path):
    """A born-digital page followed by a scanned one, read without OCR: the scanned page's
    pixels go out as they are, so the export must not call the file clean."""
    from reportlab.lib.utils import ImageReader
    from reportlab.pdfgen.canvas import Canvas

    buf = io.BytesIO()
    c = Canvas(buf, pagesize=(595.28, 841.89))
    c.drawString(72, 760, "Clinic letter, page one.")
    c.showPage()
    c.drawImage(ImageReader(_scan(LETTER, angle=0.0)), 0, 0, width=595.28, height=841.89)
    c.showPage()
    c.save()
    path = tmp_path / "mixed.pdf"
    path.write_bytes(buf.getvalue())
    doc = load_document(path, ocr="never")
    assert doc.text == "Clinic letter, page one."
    result = export_document(doc, [], tmp_path / "mixed.deid.pdf")
    assert result.pages_to_check == [2]


def test_the_fast_speckle_count_agrees_with_pillows_median_filter():
    """The export's read-back decides whether a page image still shows ink beyond its text
    layer by counting ink after the speckle filter; the count made without building the
    filtered image must be Pillow's own, edges included, or an image with text could be
    taken for an empty one."""
    from PIL import ImageFilter

    from deid_desktop.core.documents.ocr import _median_ink_share, inkless

    rng = np.random.default_rng(7)
    for _ in range(150):
        h, w = (int(v) for v in rng.integers(1, 48, 2))
        pixels = np.where(rng.random((h, w)) < rng.random(), 0, 255).astype(np.uint8)
        grey = rng.random((h, w)) < 0.3
        pixels[grey] = rng.integers(0, 256, int(grey.sum()))
        image = Image.fromarray(pixels, "L")
        expected = float((np.asarray(image.filter(ImageFilter.MedianFilter(3))) < 128).mean())
        assert _median_ink_share(image) == pytest.approx(expected, abs=0.0)
    speckle = Image.new("L", (400, 400), 255)
    speckle.putpixel((50, 50), 0)  # one dot: the filter removes it
    assert inkless(speckle)
    ImageDraw.Draw(speckle).text((20, 20), "Ward 7", fill=0)
    assert not inkless(speckle.resize((1600, 1600), Image.Resampling.NEAREST))
