"""A born-digital letter (it has a text layer) with a pasted photo of a referral form: the
form is read by OCR and its text follows the page's text, its PHI found by the rules, burned
out of the exported page's pixels (surrogates drawn in) with the clinical words left
readable, the text layer's PHI replaced as before, and nothing of the photo — its pixels,
its EXIF — survives in the output. With OCR turned off, the image is left as it was."""

from __future__ import annotations

import base64
import io
import random

import numpy as np
import pikepdf
import pytest
from PIL import Image

from deid_desktop.core.detect.ensemble import Ensemble
from deid_desktop.core.documents.export import export_document
from deid_desktop.core.documents.ingest import load_document
from deid_desktop.core.documents.ocr import tesseract_missing
from deid_desktop.core.paths import resource

from .ocr_helpers import CLINICAL, PHI, deidentify_once, form_picture
from tests.core.docfactory import find_leaks, pdf_stream_bytes, replacements_for

pytestmark = pytest.mark.skipif(tesseract_missing() is not None, reason="Tesseract OCR is not installed")

RULES = str(resource("ensembles", "rules_only.toml"))
LETTER = [
    "Wellington Regional Hospital",
    "Discharge summary",
    "Patient: Mere Parata",
    "NHI: PRP1660",
    "Seen for hypertension; continue metformin.",
]
AFTER = "Plan: review in clinic in six weeks."
TEXT_PHI = ["Mere Parata", "PRP1660"]
# where the form is drawn on the page (points, PDF coordinates: origin bottom-left)
FORM_X, FORM_Y, FORM_W = 72, 400, 360


def _jpeg_with_exif(image: Image.Image) -> bytes:
    """A JPEG whose EXIF names the patient; reportlab embeds JPEGs as they are."""
    exif = Image.Exif()
    exif[0x010D] = "Aroha Ngata ZAC5361"  # DocumentName
    exif[0x013B] = "Aroha Ngata"  # Artist
    buf = io.BytesIO()
    image.save(buf, format="JPEG", quality=92, exif=exif)
    return buf.getvalue()


def letter_pdf() -> bytes:
    """The letter: five lines of text, the form pasted below them, one more line under it."""
    from reportlab.lib.utils import ImageReader
    from reportlab.pdfgen.canvas import Canvas

    form = form_picture()
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=(595.28, 841.89))
    c.setFont("Helvetica", 12)
    for i, line in enumerate(LETTER):
        c.drawString(72, 770 - 18 * i, line)
    c.drawImage(ImageReader(io.BytesIO(_jpeg_with_exif(form))), FORM_X, FORM_Y, width=FORM_W, height=FORM_W * form.height / form.width)
    c.drawString(72, 380, AFTER)
    c.showPage()
    c.save()
    return buf.getvalue()


def _images(data: bytes) -> list[Image.Image]:
    """Every image XObject of every page, decoded by pikepdf."""
    out = []
    with pikepdf.open(io.BytesIO(data)) as pdf:
        for page in pdf.pages:
            for _name, raw in page.get_images().items():
                out.append(pikepdf.PdfImage(raw).as_pil_image())
    return out


def _image_streams(data: bytes) -> list[bytes]:
    """Every image XObject's stream with its ASCII85 layer taken off (pikepdf will not
    decode a stream whose last filter is DCT): a JPEG embedded as it was, EXIF and all."""
    out = []
    with pikepdf.open(io.BytesIO(data)) as pdf:
        for page in pdf.pages:
            for _name, raw in page.get_images().items():
                stream = raw.read_raw_bytes().strip()
                if "/ASCII85Decode" in str(raw.get("/Filter")):
                    stream = base64.a85decode(stream.removeprefix(b"<~").removesuffix(b"~>"))
                out.append(stream)
    return out


def _ocr(image: Image.Image) -> str:
    """Tesseract's own reading of an image, independent of the app's OCR path."""
    import pytesseract

    return pytesseract.image_to_string(image.convert("L"), lang="eng")


@pytest.fixture(scope="module")
def letter_path(tmp_path_factory):
    path = tmp_path_factory.mktemp("letter") / "letter.pdf"
    path.write_bytes(letter_pdf())
    return path


@pytest.fixture(scope="module")
def letter(letter_path):
    return load_document(letter_path)


@pytest.fixture(scope="module")
def batch(letter_path, tmp_path_factory):
    """``deidentify`` once over the letter (rules only, no trained model), with a fixed key."""
    return deidentify_once(letter_path.read_bytes(), "letter.pdf", tmp_path_factory.mktemp("batch"), fixed_key=True)


def test_the_source_really_carries_the_phi_in_its_image(letter_path):
    # the assertions on the output mean something only if the input has the PHI in the
    # image's pixels and its EXIF, and not in the text layer
    data = letter_path.read_bytes()
    assert find_leaks(_image_streams(data), ["Aroha Ngata"])
    (image,) = _images(data)
    assert "ZAC5361" in _ocr(image)
    assert "ZAC5361" not in load_document(letter_path, ocr="never").text


def test_ocr_reads_the_image_after_the_page_text(letter):
    page_text = "\n".join([*LETTER, AFTER])
    assert letter.text.startswith(page_text + "\n\n")
    block = letter.text[len(page_text) :]
    for value in PHI + CLINICAL:
        assert value.casefold() in block.casefold()
    assert letter.meta["ocr"]["pictures"] == [1] and letter.meta["ocr"]["pages"] == []
    assert letter.meta["ocr"]["mean_conf"] > 80
    assert any("image(s) on page 1 was read by OCR" in w for w in letter.warnings)
    assert not any("cannot be checked" in w for w in letter.warnings)
    assert letter.meta["pages_with_images"] == []
    # each word maps to its box on the page, inside the image, where the Pages tab draws it
    start = letter.text.index("ZAC5361")
    seg = next(s for s in letter.segments if s.start <= start < s.end)
    loc = seg.locator
    assert loc["page"] == 0 and loc["image"] == 0 and len(loc["boxes"]) == len("ZAC5361")
    x0, top, x1, bottom = loc["box"]
    form_top = 841.89 - FORM_Y - FORM_W * 620 / 1500
    assert FORM_X < x0 < x1 < FORM_X + FORM_W and form_top < top < bottom < 841.89 - FORM_Y
    # the form's third line: drawn 60 + 2 × 80 px down the 1500 px form, which is 360 pt wide
    assert abs(top - (form_top + 220 * FORM_W / 1500)) < 8


def test_the_rules_find_the_phi_in_the_image_text(letter):
    spans = Ensemble.from_config(RULES).detect(letter.text)
    found = " ".join(letter.text[s.start : s.end] for s in spans)
    for value in PHI + TEXT_PHI:
        assert value in found


def test_deidentify_burns_the_image_phi_out_and_replaces_the_text_layer_phi(batch):
    rc, output, report, _ = batch
    assert rc == 0
    data = output.read_bytes()
    reread = " ".join(_ocr(image) for image in _images(data)).casefold()
    for value in PHI + TEXT_PHI:
        assert value.casefold() not in reread
    for word in CLINICAL + ["hypertension", "metformin"]:
        assert word in reread
    text = load_document(output, ocr="never").text
    assert "Seen for hypertension" in text and not [v for v in PHI + TEXT_PHI if v in text]
    (entry,) = report["files"]
    assert entry["rescan_findings"] == [] and entry["residual_originals"] == 0


def test_nothing_of_the_original_image_survives(batch):
    _, output, _, _ = batch
    data = output.read_bytes()
    assert find_leaks(pdf_stream_bytes(data), PHI + TEXT_PHI + ["Aroha Ngata"]) == []
    with pikepdf.open(io.BytesIO(data)) as pdf:
        for page in pdf.pages:
            for _name, raw in page.get_images().items():
                # pixels alone: no JPEG (with its EXIF) passed through, no metadata stream
                assert "/Metadata" not in raw and raw.get("/Filter") != "/DCTDecode"
                assert not pikepdf.PdfImage(raw).as_pil_image().info.get("exif")


def test_the_report_counts_the_image_and_its_boxes_without_phi(batch):
    _, _, report, out = batch
    (entry,) = report["files"]
    assert entry["ocr_pictures"] == 1 and entry["ocr_pages"] == []
    assert entry["image_boxes_redacted"] >= len(PHI)
    assert entry["pages_to_check"] == []
    assert report["summary"]["files_read_by_ocr"] == 1
    raw = (out / "deid_report.json").read_text(encoding="utf-8") + (out / "deid_report.csv").read_text(encoding="utf-8")
    assert not [v for v in PHI + TEXT_PHI if v in raw]


def test_blackout_paints_black_bars_over_the_name_in_the_image(letter, tmp_path):
    reps = replacements_for(letter.text, {"Aroha Ngata": "███████████"})
    result = export_document(letter, reps, tmp_path / "black.pdf")
    assert result.image_boxes_redacted == 2
    (page,) = _images(result.path.read_bytes())
    seg = next(s for s in letter.segments if s.start == letter.text.index("Ngata"))
    k = page.width / 595.28
    x0, top, x1, bottom = (round(v * k) for v in seg.locator["box"])
    assert np.asarray(page.convert("L").crop((x0, top, x1, bottom))).mean() < 10


def test_ocr_never_leaves_the_image_as_it_was_and_says_so(letter_path, tmp_path):
    doc = load_document(letter_path, ocr="never")
    assert doc.text == "\n".join([*LETTER, AFTER])
    assert "ocr" not in doc.meta and doc.meta["pages_with_images"] == [1]
    assert "page 1 contains images; text inside images cannot be checked and is copied as it is" in doc.warnings
    result = export_document(doc, replacements_for(doc.text, {"Mere Parata": "Hone Walker"}), tmp_path / "never.pdf")
    assert result.pages_to_check == [1] and result.image_boxes_redacted == 0
    (page,) = _images(result.path.read_bytes())
    assert "ZAC5361" in _ocr(page)


def test_a_picture_without_text_flags_the_page_and_adds_no_text(tmp_path):
    from reportlab.lib.utils import ImageReader
    from reportlab.pdfgen.canvas import Canvas

    rnd = random.Random(5)
    photo = Image.new("RGB", (600, 400))
    photo.putdata([(rnd.randrange(256), rnd.randrange(120), 90) for _ in range(600 * 400)])
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=(595.28, 841.89))
    c.setFont("Helvetica", 12)
    c.drawString(72, 770, "Wound photograph attached.")
    c.drawImage(ImageReader(photo), 72, 400, width=300, height=200)
    c.showPage()
    c.save()
    path = tmp_path / "photo.pdf"
    path.write_bytes(buf.getvalue())
    doc = load_document(path)
    assert doc.text == "Wound photograph attached."
    assert doc.meta["pages_with_images"] == [1]
    assert any("without text OCR could read" in w for w in doc.warnings)


def test_the_output_reads_back_without_its_page_image_read_twice(batch):
    # the exported page is one image under a text layer that says what it shows, the form's
    # words included: OCR reads only what the letters of that layer leave (the form's
    # speckle), so the text read back is the text layer's, once
    _, output, _, _ = batch
    auto, never = load_document(output), load_document(output, ocr="never")
    assert auto.text == never.text and "ocr" not in auto.meta
    assert "ZAC5361" not in auto.text and "diabetes review" in auto.text
