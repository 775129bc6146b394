"""Read scanned PDF pages with Tesseract: render, straighten, clean, recognise words.

A page without a text layer (a scan, a fax) is rendered at ``OCR_DPI`` (pypdfium2), turned
upright by the small angle that makes its text lines sharpest (a projection-profile search:
rows of a straight page are either ink or paper, so the row sums vary most), cleaned of
speckle by a median filter, and read by Tesseract (pytesseract ``image_to_data``) into words
with their boxes and confidences. All of it runs on this machine: Tesseract is a local
program, nothing is sent anywhere.

The straightened, cleaned image is the page's *OCR frame*: word boxes are in its pixels. The
export renders the page again and applies the same angle and filter (``prepare``), so the
boxes land exactly on the words it burns out. For the reviewer's page view, each word also
gets boxes in the original page's frame (points from the top-left corner, as pdf_read).

Source map of an OCR'd page: one Segment per word, locator ``{"page": i, "line": k,
"boxes": [...one per character, page points...], "ocr_box": [x0, y0, x1, y1] (OCR-frame
pixels), "conf": c}``. The page's meta gets ``"ocr": {"dpi", "angle", "size", "words",
"mean_conf", "blank"}``.
"""

from __future__ import annotations

import logging
import math
import shutil
from dataclasses import dataclass
from typing import Any

log = logging.getLogger(__name__)

OCR_MODES = ("auto", "always", "never")
OCR_DPI = 300
LOW_CONFIDENCE = 60.0  # Tesseract's word confidence (0-100) below which a reviewer should look
# A word read at less than this is noise (speckle, a stain): a page with only such words is
# one OCR read nothing from.
NOISE_CONFIDENCE = 30.0
_MAX_SKEW = 5.0  # degrees either way: scanner feeds and faxes, not pages turned on their side
_SKEW_STEP = 0.25
_SKEW_WIDTH = 1000  # pixels: the angle search runs on a reduced copy of the page
_MEDIAN = 3  # pixels: removes single-dot speckle, keeps strokes of 10-point type at 300 dpi
# Share of a page's pixels that must be ink (after the speckle filter) for Tesseract to be
# asked at all: about two letters. On a blank page Tesseract's own thresholding turns faint
# grey into thousands of specks and spends a minute on them.
_MIN_INK = 0.00005
_MAX_INK = 0.9
OCR_TIMEOUT = 120  # seconds per page: a page Tesseract cannot finish is treated as unread


@dataclass(frozen=True, slots=True)
class OcrWord:
    text: str
    box: tuple[int, int, int, int]  # x0, y0, x1, y1 in OCR-frame pixels
    conf: float
    line: tuple[int, int, int]  # Tesseract's (block, paragraph, line)


@dataclass
class OcrPage:
    """One page read by OCR: its words in reading order and how its image was prepared."""

    words: list[OcrWord]
    angle: float
    size: tuple[int, int]  # OCR-frame pixels
    points: tuple[float, float]  # the page's size in points

    @property
    def blank(self) -> bool:
        return not any(w.conf >= NOISE_CONFIDENCE and any(ch.isalnum() for ch in w.text) for w in self.words)

    @property
    def mean_conf(self) -> float:
        return sum(w.conf for w in self.words) / len(self.words) if self.words else 0.0


# "auto" keeps a picture's text when OCR reads at least this many words of two or more letters
# or digits at ``LOW_CONFIDENCE`` or better: text, not a photo's texture or a logo's strokes.
MIN_SURE_WORDS = 2


def holds_text(page: OcrPage, ocr: str) -> bool:
    """Whether the words OCR read in a picture (a Word picture, an image on a PDF page) count
    as its text under ``ocr`` ("always": anything read; "auto": enough sure words)."""
    if page.blank:
        return False
    if ocr == "always":
        return True
    sure = [w for w in page.words if w.conf >= LOW_CONFIDENCE and sum(ch.isalnum() for ch in w.text) >= 2]
    return len(sure) >= MIN_SURE_WORDS


def blank_page_note(number: int) -> str:
    """The warning for a page OCR read nothing from (reader and writer say the same)."""
    return f"page {number}: OCR read no text on it; it is blacked out in the de-identified copy"


# The document meta key of the unread pages (1-based) a reviewer looked at and accepted as they
# are: the export copies them instead of blacking them out.
ACCEPTED_PAGES = "accepted_unread_pages"


def accepted_pages(doc) -> set[int]:
    return {int(n) for n in (doc.meta.get(ACCEPTED_PAGES) or [])}


def accepted_page_note(number: int) -> str:
    return f"page {number}: OCR read no text on it; it is copied as it is, as the reviewer accepted it"


def blank_pages(doc) -> list[int]:
    """The pages (1-based) OCR read nothing from."""
    return list((doc.meta.get("ocr") or {}).get("blank_pages") or [])


def low_confidence_note(number: int) -> str:
    return f"page {number} was read by OCR with low confidence; check it before release"


def check_mode(mode: str) -> str:
    if mode not in OCR_MODES:
        raise ValueError(f"ocr must be one of {', '.join(OCR_MODES)}")
    return mode


def tesseract_missing() -> str | None:
    """Why OCR cannot run here (a sentence for the user), or None when it can."""
    if shutil.which("tesseract") is None:
        return "Tesseract OCR is not installed (run packaging/install-sysdeps.sh, or install tesseract-ocr)"
    try:
        import pytesseract

        if "eng" not in pytesseract.get_languages(config=""):
            return "Tesseract has no English language data (install tesseract-ocr-eng)"
    except ImportError:
        return "the pytesseract package is not installed"
    except Exception as e:  # a broken install: say so, without a traceback
        return f"Tesseract OCR cannot run ({type(e).__name__})"
    return None


def render(pdf, index: int, dpi: int = OCR_DPI):
    """Page ``index`` of an open pypdfium2 document as a greyscale image at ``dpi``."""
    page = pdf[index]
    try:
        return page.render(scale=dpi / 72.0, grayscale=True, draw_annots=False, may_draw_forms=False).to_pil().convert("L")
    finally:
        page.close()


def skew_angle(image) -> float:
    """The angle (degrees, counter-clockwise) that turns the page's text lines level.

    Coarse search over ±``_MAX_SKEW`` on a reduced, thresholded copy, then a finer one around
    the best: each candidate rotates the ink and scores the squared differences of
    neighbouring row sums, which peak when lines of text and the gaps between them align
    with the rows."""
    import numpy as np
    from PIL import Image

    scale = min(1.0, _SKEW_WIDTH / max(1, image.width))
    small = image.resize((max(1, int(image.width * scale)), max(1, int(image.height * scale))), Image.Resampling.BILINEAR)
    ink = small.point(lambda v: 255 if v < 128 else 0)
    if not np.asarray(ink).any():
        return 0.0

    def score(angle: float) -> float:
        rows = np.asarray(ink.rotate(angle, resample=Image.Resampling.NEAREST, fillcolor=0), dtype=np.float64).sum(axis=1)
        return float(np.square(np.diff(rows)).sum())

    coarse = [i * 4 * _SKEW_STEP for i in range(-int(_MAX_SKEW / (4 * _SKEW_STEP)), int(_MAX_SKEW / (4 * _SKEW_STEP)) + 1)]
    best = max(coarse, key=score)
    fine = [best + i * _SKEW_STEP / 2 for i in range(-8, 9)]
    best = max(fine, key=score)
    return 0.0 if abs(best) < _SKEW_STEP / 2 else round(best, 3)


def prepare(image, angle: float):
    """The OCR frame: the page turned by ``angle`` (same size, paper-white corners) and
    cleaned of speckle. Deterministic, so the export can rebuild it from the same render."""
    from PIL import Image, ImageFilter

    if angle:
        image = image.rotate(angle, resample=Image.Resampling.BICUBIC, fillcolor=255)
    return image.filter(ImageFilter.MedianFilter(_MEDIAN))


def read_page(pdf, index: int, dpi: int = OCR_DPI) -> OcrPage:
    """Render, straighten, clean and recognise one page."""
    return read_image(render(pdf, index, dpi), dpi)


def read_image(original, dpi: int = OCR_DPI) -> OcrPage:
    """Straighten, clean and recognise a greyscale image (a rendered page, a picture);
    ``dpi`` gives its size in points."""
    angle = skew_angle(original)
    image = prepare(original, angle)
    width_pt, height_pt = original.width * 72.0 / dpi, original.height * 72.0 / dpi
    words = recognise(image) if has_ink(image) else []
    return OcrPage(words, angle, image.size, (width_pt, height_pt))


def has_ink(image) -> bool:
    """Whether the page may hold text: some ink, but not a page that is nearly all dark (a
    blacked-out or unexposed page, where Tesseract would only chase noise)."""
    return _MIN_INK <= _ink_share(image) <= _MAX_INK


def inkless(image) -> bool:
    """Whether an image, cleaned of speckle (``prepare``), holds less ink than two letters."""
    if image.mode != "L" or _MEDIAN != 3:
        return _ink_share(prepare(image, 0.0)) < _MIN_INK
    return _median_ink_share(image) < _MIN_INK


def _median_ink_share(image) -> float:
    """``_ink_share(prepare(image, 0.0))`` for a greyscale image, counted without building
    the filtered image (six times faster on a page; the export's read-back asks it of every
    page it rendered). The median of a pixel's 3 x 3 neighbourhood is below 128 exactly when
    five or more of the nine are, and Pillow's filter repeats the edge pixels outwards, as
    ``np.pad(mode="edge")`` does; a test compares the two on random images."""
    import numpy as np

    dark = np.asarray(image) < 128
    if not dark.any():
        return 0.0
    padded = np.pad(dark.view(np.uint8), 1, mode="edge")
    rows = padded[:-2] + padded[1:-1] + padded[2:]
    votes = rows[:, :-2] + rows[:, 1:-1] + rows[:, 2:]
    return float((votes >= 5).mean())


def _ink_share(image) -> float:
    import numpy as np

    return float((np.asarray(image) < 128).mean())


def recognise(image) -> list[OcrWord]:
    """Tesseract's words on ``image`` in its reading order (blocks, paragraphs, lines)."""
    import pytesseract

    try:
        data = pytesseract.image_to_data(
            image, lang="eng", config="--psm 3", output_type=pytesseract.Output.DICT, timeout=OCR_TIMEOUT
        )
    except RuntimeError as e:
        if "timeout" not in str(e).lower():
            raise
        log.warning("OCR gave up on a page after %d s; it is treated as unread", OCR_TIMEOUT)
        return []
    words = []
    for i, text in enumerate(data["text"]):
        text = (text or "").strip()
        conf = float(data["conf"][i])
        if not text or conf < 0:
            continue
        x, y, w, h = (int(data[k][i]) for k in ("left", "top", "width", "height"))
        line = (int(data["block_num"][i]), int(data["par_num"][i]), int(data["line_num"][i]))
        words.append(OcrWord(text, (x, y, x + w, y + h), conf, line))
    return words


@dataclass
class PageText:
    """An OCR'd page as text (words joined by spaces, lines by newlines, paragraphs by a
    blank line) and its segments, with offsets relative to the page's start."""

    text: str
    segments: list[tuple[int, int, dict[str, Any]]]
    low_confidence: list[tuple[int, int]]
    lines: int


def layout(words: list[OcrWord]) -> tuple[str, list[tuple[int, int, OcrWord, int]], int]:
    """Words as text: joined by spaces, lines by newlines, paragraphs by a blank line.
    Returns the text, each word's (start, end, word, line number) and the number of lines."""
    parts: list[str] = []
    placed: list[tuple[int, int, OcrWord, int]] = []
    pos = 0
    prev: tuple[int, int, int] | None = None
    k = -1
    for w in words:
        if prev is None or w.line != prev:
            if prev is not None:
                sep = "\n\n" if w.line[:2] != prev[:2] else "\n"
                parts.append(sep)
                pos += len(sep)
            k += 1
        else:
            parts.append(" ")
            pos += 1
        prev = w.line
        parts.append(w.text)
        placed.append((pos, pos + len(w.text), w, k))
        pos += len(w.text)
    return "".join(parts), placed, k + 1


def page_text(page: OcrPage, index: int, dpi: int = OCR_DPI) -> PageText:
    text, placed, lines = layout(page.words)
    segments: list[tuple[int, int, dict[str, Any]]] = []
    low: list[tuple[int, int]] = []
    for start, end, w, k in placed:
        boxes = char_boxes(_page_box(w.box, page, dpi), len(w.text))
        segments.append((start, end, {"page": index, "line": k, "boxes": boxes, "ocr_box": list(w.box), "conf": round(w.conf, 1)}))
        if w.conf < LOW_CONFIDENCE:
            low.append((start, end))
    return PageText(text, segments, low, lines)


def page_meta(page: OcrPage, dpi: int = OCR_DPI) -> dict[str, Any]:
    return {
        "dpi": dpi,
        "angle": page.angle,
        "size": list(page.size),
        "words": len(page.words),
        "mean_conf": round(page.mean_conf, 1),
        "blank": page.blank,
    }


def _page_box(box: tuple[int, int, int, int], page: OcrPage, dpi: int) -> list[float]:
    """A word's OCR-frame box as an upright box on the original page, in points."""
    k = 72.0 / dpi
    return [round(v * k, 2) for v in unrotated_box(box, page.size, page.angle)]


def unrotated_box(box: tuple[int, int, int, int], size: tuple[int, int], angle: float) -> tuple[float, float, float, float]:
    """A box of the OCR frame as the upright box that holds it in the original image (pixels):
    its corners turned back by the deskew angle about the image centre (PIL turns about the
    centre). A little larger than the word when the angle is not 0, never smaller."""
    cx, cy = size[0] / 2.0, size[1] / 2.0
    rad = math.radians(angle)
    cos, sin = math.cos(rad), math.sin(rad)
    xs, ys = [], []
    for x, y in ((box[0], box[1]), (box[2], box[1]), (box[2], box[3]), (box[0], box[3])):
        # PIL's rotate(angle) turns the picture counter-clockwise as viewed (y grows
        # downwards): (dx, dy) went to (dx·cos + dy·sin, dy·cos - dx·sin); this undoes it
        dx, dy = x - cx, y - cy
        xs.append(cx + dx * cos - dy * sin)
        ys.append(cy + dx * sin + dy * cos)
    return min(xs), min(ys), max(xs), max(ys)


def char_boxes(box: list[float], n: int) -> list[list[float]]:
    """A word's box shared equally among its characters: OCR knows words, not letters."""
    x0, top, x1, bottom = box
    step = (x1 - x0) / max(1, n)
    return [[round(x0 + i * step, 2), top, round(x0 + (i + 1) * step, 2), bottom] for i in range(n)]


def low_confidence_spans(doc) -> list[tuple[int, int]]:
    """Offsets of the words OCR read with low confidence (for the report and the reviewer)."""
    return [tuple(v) for v in (doc.meta.get("ocr") or {}).get("low_confidence", [])]
