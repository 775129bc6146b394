"""Write an OCR'd page: PHI burned out of the page's pixels, the text layer de-identified.

The page is rendered and prepared exactly as it was for OCR (``ocr.prepare``: same
resolution, angle and filter), so each word's box lies on that word. For every replaced
value, every word box it touches is filled — black for blacked-out values, paper white
otherwise — a little larger than the box, since Tesseract's boxes hug the ink and
anti-aliased edges reach past them; then the surrogate or tag is drawn into the pixels in
the first line's box at about the original height. Whole words go, never parts: OCR knows
where words are, not letters. The painted image, re-encoded from its pixels alone (no
metadata), is the whole page of the new PDF; over it an invisible text layer (render mode 3)
carries the de-identified text line by line, so the copy stays searchable and can be read
again without OCR. A page OCR read nothing from is written all black, unless the reviewer
looked at it and accepted it (``ocr.ACCEPTED_PAGES``): then its pixels are copied.

``burn`` is shared with Word pictures (``docx_pictures``), whose words carry boxes in the
picture's own pixels.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from .model import Document, Replacement
from .ocr import LOW_CONFIDENCE, accepted_pages, accepted_page_note, blank_page_note, low_confidence_note, prepare, render

log = logging.getLogger(__name__)

_BLOCKS = frozenset("█▇▆■")
_PAD = 0.15  # of a word box's height, on every side
# A word box runs from the top of its tallest letter to the bottom of its lowest: about 0.76
# of the font size for most words (capitals and ascenders, no descenders).
_BOX_TO_SIZE = 1 / 0.76
_MIN_TEXT_PX = 8
_DESCENT = 0.21  # share of the font size below the baseline
_FONT_FILES = (
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/TTF/DejaVuSans.ttf",
    "/Library/Fonts/Arial.ttf",
    "C:/Windows/Fonts/arial.ttf",
)


@dataclass
class Word:
    """An OCR'd word in the text (``pos``..``end``) and its box in the pixels to paint."""

    pos: int
    end: int
    line: int
    box: tuple[int, int, int, int]


@dataclass
class OcrPageResult:
    """What the writer says about one OCR'd page: notes for the user (no content) and
    whether the page needs a look before release."""

    notes: list[str] = field(default_factory=list)
    check: bool = False
    boxes_painted: int = 0


def page_words(doc: Document, index: int) -> list[Word]:
    words = [
        Word(s.start, s.end, int(s.locator.get("line", 0)), tuple(s.locator["ocr_box"]))  # type: ignore[arg-type]
        for s in doc.segments
        if s.locator.get("page") == index and "ocr_box" in s.locator
    ]
    return sorted(words, key=lambda w: w.pos)


def write_page(canvas, source, index: int, doc: Document, owners: dict[int, Replacement], fonts) -> OcrPageResult:
    """Draw page ``index`` (OCR'd) onto the reportlab canvas and end the page."""
    from PIL import Image
    from reportlab.lib.utils import ImageReader

    info = (doc.meta.get("pages") or [])[index]["ocr"]
    dpi = int(info["dpi"])
    page = source[index]
    width_pt, height_pt = page.get_size()
    page.close()
    canvas.setPageSize((width_pt, height_pt))
    result = OcrPageResult()
    number = index + 1
    if info.get("blank") and number in accepted_pages(doc):
        image = _colour_render(source, index, dpi)
        result.notes.append(accepted_page_note(number))
    elif info.get("blank"):
        image = Image.new("L", tuple(info["size"]), 0)
        result.check = True
        result.notes.append(blank_page_note(number))
    else:
        image = prepare(render(source, index, dpi), float(info.get("angle") or 0.0))
        words = page_words(doc, index)
        result.boxes_painted = burn(image, words, owners)
        scale = (width_pt / image.width, height_pt / image.height)
        text_layer(canvas, doc, words, owners, scale, height_pt, fonts)
        if float(info.get("mean_conf") or 0.0) < LOW_CONFIDENCE:
            result.check = True
            result.notes.append(low_confidence_note(number))
    canvas.drawImage(ImageReader(_fresh(image)), 0, 0, width=width_pt, height=height_pt)
    # the text layer goes on top of the picture; invisible text never hides it
    canvas.showPage()
    return result


def _colour_render(source, index: int, dpi: int):
    """The page as it looks, in colour: what a reviewer accepted is copied as they saw it."""
    page = source[index]
    try:
        return page.render(scale=dpi / 72.0, draw_annots=False, may_draw_forms=False).to_pil().convert("RGB")
    finally:
        page.close()


def _fresh(image):
    """The pixels alone in a new image: nothing the render or Pillow attached travels on."""
    from PIL import Image

    return Image.frombytes(image.mode, image.size, image.tobytes())


def burn(image, words: list[Word], owners: dict[int, Replacement]) -> int:
    """Fill the boxes of every word a replacement touches and draw the replacement once, in
    the first line it covers. Returns the number of word boxes filled. Colours are named, so
    a greyscale page and a colour picture get the same black and white."""
    from PIL import ImageDraw

    draw = ImageDraw.Draw(image)
    covered: dict[int, list[Word]] = defaultdict(list)
    reps: dict[int, Replacement] = {}
    for w in words:
        hit = {id(owners[p]): owners[p] for p in range(w.pos, w.end) if p in owners}
        for key, r in hit.items():
            covered[key].append(w)
            reps[key] = r
    heights = _line_heights(words)
    painted: set[int] = set()
    for key, ws in covered.items():
        r = reps[key]
        black = bool(r.new_text.strip()) and set(r.new_text.strip()) <= _BLOCKS
        for w in ws:
            painted.add(w.pos)
            draw.rectangle(_padded(w.box, image.size), fill="black" if black else "white")
    for key, ws in covered.items():
        r = reps[key]
        text = r.new_text.replace("\n", " ").strip()
        if not text or set(text) <= _BLOCKS:
            continue
        first = [w for w in ws if w.line == ws[0].line]
        _draw_text(draw, text, first, heights[ws[0].line])
    return len(painted)


def _padded(box: tuple[int, int, int, int], size: tuple[int, int]) -> tuple[int, int, int, int]:
    x0, y0, x1, y1 = box
    pad = max(2, round(_PAD * (y1 - y0)))
    return (max(0, x0 - pad), max(0, y0 - pad), min(size[0] - 1, x1 + pad), min(size[1] - 1, y1 + pad))


def _line_heights(words: list[Word]) -> dict[int, float]:
    """The median word height of each line: the type size there, whatever one word's
    descenders or capitals do."""
    by_line: dict[int, list[int]] = defaultdict(list)
    for w in words:
        by_line[w.line].append(w.box[3] - w.box[1])
    return {k: float(sorted(hs)[len(hs) // 2]) for k, hs in by_line.items()}


def _draw_text(draw, text: str, words: list[Word], line_height: float) -> None:
    """The replacement at about the size of the line's type, from where the replaced words
    began, shrunk (not below a readable size) when it is much wider than they were."""
    x0 = min(w.box[0] for w in words)
    x1 = max(w.box[2] for w in words)
    baseline = sorted(w.box[3] for w in words)[len(words) // 2]
    px = max(_MIN_TEXT_PX, round(_BOX_TO_SIZE * line_height))
    font = _font(px)
    width = draw.textlength(text, font=font)
    room = max(1, x1 - x0)
    if width > 1.5 * room:
        px = max(_MIN_TEXT_PX, int(px * 1.5 * room / width))
        font = _font(px)
    draw.text((x0, baseline), text, fill="black", font=font, anchor="ls")


_FONTS: dict[int, object] = {}


def _font(px: int):
    from PIL import ImageFont

    if px not in _FONTS:
        for file in _FONT_FILES:
            if Path(file).is_file():
                try:
                    _FONTS[px] = ImageFont.truetype(file, px)
                    break
                except OSError:
                    log.debug("font %s unusable", file)
        else:
            _FONTS[px] = ImageFont.load_default(px)
    return _FONTS[px]


def text_layer(canvas, doc: Document, words: list[Word], owners: dict[int, Replacement], scale, height_pt: float, fonts) -> None:
    """Each OCR line's de-identified text, invisible, stretched over the line's extent."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    lines: dict[int, list[Word]] = defaultdict(list)
    for w in words:
        lines[w.line].append(w)
    emitted: set[int] = set()
    sx, sy = scale
    for k in sorted(lines):
        ws = lines[k]
        text = _deidentified(doc.text, ws[0].pos, ws[-1].end, owners, emitted).strip()
        if not text:
            continue
        x0, x1 = min(w.box[0] for w in ws) * sx, max(w.box[2] for w in ws) * sx
        top, bottom = min(w.box[1] for w in ws) * sy, max(w.box[3] for w in ws) * sy
        size = max(1.0, (bottom - top) / (1 - _DESCENT))
        font, text = fonts.choose(text, None)
        obj = canvas.beginText()
        obj.setTextRenderMode(3)
        obj.setFont(font, size)
        natural = stringWidth(text, font, size)
        if natural > 0:
            obj.setHorizScale(100.0 * max(1.0, x1 - x0) / natural)
        obj.setTextOrigin(x0, height_pt - bottom + _DESCENT * size)
        obj.textOut(text)
        canvas.drawText(obj)


def _deidentified(text: str, start: int, end: int, owners: dict[int, Replacement], emitted: set[int]) -> str:
    """text[start:end] with each replacement written once (where it begins on the page)."""
    out: list[str] = []
    pos = start
    while pos < end:
        r = owners.get(pos)
        if r is None:
            out.append(text[pos])
            pos += 1
            continue
        if id(r) not in emitted:
            emitted.add(id(r))
            out.append(r.new_text.replace("\n", " "))
        pos = min(r.end, end) if r.end > pos else pos + 1
    return "".join(out)

