"""Text inside the images of PDF pages that have a text layer: read by OCR, painted out on export.

A born-digital letter may carry a pasted photo of a referral form, a scanned signature block
or a letterhead image with an address: text the text layer does not hold. On such a page
(``ocr`` "auto" or "always" — "always" reads the whole page by OCR anyway, so this runs in
"auto" only) each image the page draws (pdfplumber's ``page.images``: XObjects, inline
images, images inside forms) is looked at where it shows on the page: the page is rendered
at ``ocr.OCR_DPI`` (pypdfium2, so masks, clipping, rotation and the crop box come out as a
viewer shows them), the characters of the text layer are painted white first — so OCR reads
what the image adds, not the page's own text drawn over it, and an invisible OCR layer a
scanner left over its scan leaves OCR only what that layer missed — and the image's box is
cut out, straightened, cleaned and read (``ocr.read_image``). Images too small to hold a
line of text (rules, bullets, icons) are skipped.

An image's text counts under the rule Word pictures follow (``ocr.holds_text``). Each such
image's text follows its page's own text as a block of its own, after a blank line (in the
order pdfplumber lists the images); the page's text starts as before, so nothing of the
text layer's source map moves. Images OCR looked at and found no text in keep the page on
the list of pages to check (a handwritten name OCR cannot read is still a name).

Source map: one Segment per word, locator ``{"page": i, "image": n (0-based, on that
page), "line": k (unique on the page), "boxes": [...one per character, page points...],
"box": [x0, top, x1, bottom] (page points, the upright box that holds the word),
"ocr_box": [...] (pixels of the straightened image frame), "conf": c}`` — "page" and "boxes"
as the text layer's, so the Pages tab draws findings and low-confidence marks there alike;
"image" keeps the text-layer writer away from them.

On export the page is rendered anyway (``pdf_write``): nothing of the original image goes
out but those pixels. Every word box a replacement touches is filled in the rendered page
(white, or black for blacked-out values) and the surrogate or tag drawn in its place
(``ocr_write.burn``), then an invisible text layer carries the image's de-identified text.
"""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass, field
from typing import Any

from .model import Document, Replacement

log = logging.getLogger(__name__)

IMAGE_SEPARATOR = "\n\n"
# Points: an image narrower than this on its short side holds no line of readable type (a
# rule, a border), and one shorter than the long minimum on both sides is an icon or a bullet.
MIN_SHORT_SIDE = 8.0
MIN_LONG_SIDE = 40.0
# Of a character's height, on every side: anti-aliased edges of the text layer's glyphs
# reach past their boxes and would otherwise be read as strokes.
_TEXT_PAD = 0.15


def image_boxes(page, frame) -> list[list[float]]:
    """Where the page's images show (points, top-left origin of the visible page, as
    ``pdf_read``), clipped to the page, each once, big enough to hold text."""
    try:
        images = page.images
    except Exception:  # a damaged image dictionary should not stop the text from being read
        log.debug("unreadable images on a page", exc_info=True)
        return []
    out: list[list[float]] = []
    for im in images:
        x0, top, x1, bottom = frame.exact_box(im)
        x0, top = max(0.0, x0), max(0.0, top)
        x1, bottom = min(frame.width, x1), min(frame.height, bottom)
        w, h = x1 - x0, bottom - top
        if min(w, h) < MIN_SHORT_SIDE or max(w, h) < MIN_LONG_SIDE:
            continue
        box = [round(x0, 2), round(top, 2), round(x1, 2), round(bottom, 2)]
        if box not in out:
            out.append(box)
    return out


@dataclass
class ImageRead:
    """One image OCR read text from: where it is, how its picture was prepared, its words."""

    box: list[float]  # page points
    page: Any  # ocr.OcrPage of the cut-out image
    origin: tuple[int, int]  # the cut-out's top-left corner in pixels of the page render


@dataclass
class PageImages:
    """What OCR found in one page's images."""

    read: list[ImageRead] = field(default_factory=list)
    without_text: int = 0  # images with ink beyond the text layer's letters that OCR read no text from


def read_images(pdf, index: int, boxes: list[list[float]], text_boxes: list[list[float]], ocr: str, dpi: int) -> PageImages:
    """OCR of the images at ``boxes`` on page ``index`` of the pypdfium2 document ``pdf``,
    the text layer's character boxes ``text_boxes`` painted white first."""
    from PIL import ImageDraw

    from .ocr import holds_text, inkless, read_image, render

    out = PageImages()
    if not boxes:
        return out
    picture = render(pdf, index, dpi)
    scale = dpi / 72.0
    draw = ImageDraw.Draw(picture)
    for x0, top, x1, bottom in text_boxes:
        pad = _TEXT_PAD * (bottom - top)
        draw.rectangle(
            (math.floor((x0 - pad) * scale), math.floor((top - pad) * scale), math.ceil((x1 + pad) * scale), math.ceil((bottom + pad) * scale)),
            fill=255,
        )
    for box in boxes:
        left, upper = math.floor(box[0] * scale), math.floor(box[1] * scale)
        right = min(picture.width, math.ceil(box[2] * scale))
        lower = min(picture.height, math.ceil(box[3] * scale))
        if right - left < 2 or lower - upper < 2:
            continue
        cut = picture.crop((left, upper, right, lower))
        if inkless(cut):
            continue  # all it showed was the text layer's own letters (a scan under its OCR layer)
        page = read_image(cut, dpi)
        if holds_text(page, ocr):
            out.read.append(ImageRead(box, page, (left, upper)))
        else:
            out.without_text += 1
    return out


@dataclass
class ImageText:
    """A page's image blocks as text (offsets relative to where the first block's separator
    starts) with their segments and the words read with low confidence."""

    text: str
    segments: list[tuple[int, int, dict[str, Any]]]
    low_confidence: list[tuple[int, int]]
    lines: int


def image_text(index: int, images: list[ImageRead], dpi: int, first_line: int) -> ImageText:
    """Each image's words as a block after ``IMAGE_SEPARATOR``; line numbers go on from
    ``first_line`` so they stay unique on the page."""
    from .ocr import LOW_CONFIDENCE, char_boxes, layout, unrotated_box

    parts: list[str] = []
    segments: list[tuple[int, int, dict[str, Any]]] = []
    low: list[tuple[int, int]] = []
    pos = 0
    line = first_line
    k = 72.0 / dpi
    for n, im in enumerate(images):
        text, placed, lines = layout(im.page.words)
        pos += len(IMAGE_SEPARATOR)
        parts.extend((IMAGE_SEPARATOR, text))
        for a, b, w, j in placed:
            x0, y0, x1, y1 = unrotated_box(w.box, im.page.size, im.page.angle)
            box = [round((x0 + im.origin[0]) * k, 2), round((y0 + im.origin[1]) * k, 2), round((x1 + im.origin[0]) * k, 2), round((y1 + im.origin[1]) * k, 2)]
            loc = {"page": index, "image": n, "line": line + j, "boxes": char_boxes(box, len(w.text)), "box": box, "ocr_box": list(w.box), "conf": round(w.conf, 1)}
            segments.append((pos + a, pos + b, loc))
            if w.conf < LOW_CONFIDENCE:
                low.append((pos + a, pos + b))
        line += lines
        pos += len(text)
    return ImageText("".join(parts), segments, low, line - first_line)


def image_meta(im: ImageRead) -> dict[str, Any]:
    """What the page's meta keeps of an image read (no text)."""
    return {"box": im.box, "angle": im.page.angle, "words": len(im.page.words), "mean_conf": round(im.page.mean_conf, 1)}


def page_image_words(doc: Document, index: int, scale: float):
    """The OCR'd words of page ``index``'s images, boxes in pixels of a render at ``scale``
    pixels per point."""
    from .ocr_write import Word

    words = []
    for s in doc.segments:
        loc = s.locator
        if loc.get("page") != index or "image" not in loc or "box" not in loc:
            continue
        x0, top, x1, bottom = loc["box"]
        box = (math.floor(x0 * scale), math.floor(top * scale), math.ceil(x1 * scale), math.ceil(bottom * scale))
        words.append(Word(s.start, s.end, int(loc.get("line", 0)), box))
    return sorted(words, key=lambda w: w.pos)


def paint_images(canvas_image, doc: Document, index: int, owners: dict[int, Replacement], scale: float):
    """Burn the replaced words of page ``index``'s images out of its render (``scale``
    pixels per point). Returns the words (for the text layer) and how many boxes were filled."""
    from .ocr_write import burn

    words = page_image_words(doc, index, scale)
    if not words:
        return words, 0
    return words, burn(canvas_image, words, owners)
