"""Write a de-identified PDF that keeps each page's look.

Each page is rendered to an image (pypdfium2, annotations and form fields left out); the
boxes of the replaced characters are painted white and the replacement text is drawn in
their place with a font fitted to the box; the image becomes the page of a new PDF of the same
size (reportlab), under an invisible text layer (render mode 3) carrying the unchanged text at
its original position, so the file stays searchable and re-readable. Nothing of the original
file is copied: no content stream, font, annotation, metadata or XMP packet, so no original
text survives in the output except as pixels outside the painted boxes.
"""

from __future__ import annotations

import io
import logging
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from ..errors import ExportError
from .model import Document, Replacement

log = logging.getLogger(__name__)

DEFAULT_DPI = 150
_PAD = 1.0  # points around painted boxes: anti-aliased glyph edges reach past the box
_DESCENT = 0.21  # share of the font size below the baseline (Helvetica, DejaVu)
_MIN_SQUEEZE, _MAX_STRETCH = 0.6, 1.5
_BLOCKS = frozenset("█▇▆■")
_BASE_FONT = "Helvetica"
_UNICODE_FONT = "DeidUnicode"
_UNICODE_FONT_FILES = (
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/TTF/DejaVuSans.ttf",
    "C:/Windows/Fonts/arial.ttf",
    "C:/Windows/Fonts/segoeui.ttf",
    "/System/Library/Fonts/Supplemental/Arial.ttf",
    "/Library/Fonts/Arial.ttf",
)


@dataclass(frozen=True, slots=True)
class _Char:
    pos: int
    box: tuple[float, float, float, float]


@dataclass
class _Piece:
    """Text to draw in a box on one line: unchanged text (invisible) or a replacement."""

    text: str
    box: tuple[float, float, float, float]
    direction: str
    visible: bool


def write_pdf(
    doc: Document, replacements: list[Replacement], out_path: str | Path, *, dpi: int = DEFAULT_DPI
) -> tuple[bytes, list[str]]:
    import pypdfium2 as pdfium

    if doc.source_bytes is None:
        raise ExportError(out_path, "the original PDF's bytes are not available", code="no_source")
    pages_meta = doc.meta.get("pages") or []
    try:
        source = pdfium.PdfDocument(doc.source_bytes)
    except pdfium.PdfiumError:
        raise ExportError(out_path, "the original PDF cannot be opened again", code="no_source") from None
    try:
        lines = _lines_by_page(doc)
        if (pages_meta and len(pages_meta) != len(source)) or any(p >= len(source) for p in lines):
            raise ExportError(out_path, "the source map does not match the original PDF", code="source_mismatch")
        fonts = _Fonts()
        blanks, pieces = _plan(doc, replacements, lines)
        data = _build(source, blanks, pieces, fonts, dpi)
    finally:
        source.close()
    return data, fonts.warnings


def _lines_by_page(doc: Document) -> dict[int, dict[int, list[_Char]]]:
    lines: dict[int, dict[int, list[_Char]]] = defaultdict(lambda: defaultdict(list))
    for seg in doc.segments:
        loc = seg.locator
        if "page" not in loc:
            continue
        for k, box in enumerate(loc["boxes"]):
            lines[loc["page"]][loc.get("line", 0)].append(_Char(seg.start + k, tuple(box)))
    return lines


def _plan(
    doc: Document, replacements: list[Replacement], lines: dict[int, dict[int, list[_Char]]]
) -> tuple[dict[int, list[tuple]], dict[int, list[_Piece]]]:
    """Boxes to paint white and text pieces to draw, per page."""
    reps = sorted(replacements, key=lambda r: r.start)
    covered: dict[int, Replacement] = {}
    for r in reps:
        for pos in range(r.start, r.end):
            covered[pos] = r
    directions = {i: p.get("directions") or [] for i, p in enumerate(doc.meta.get("pages") or [])}
    blanks: dict[int, list[tuple]] = defaultdict(list)
    pieces: dict[int, list[_Piece]] = defaultdict(list)
    surrogate_drawn: set[int] = set()
    for page in sorted(lines):
        for k in sorted(lines[page]):
            chars = sorted(lines[page][k], key=lambda c: c.pos)
            dirs = directions.get(page, [])
            direction = dirs[k] if k < len(dirs) else "ltr"
            for group in _groups(chars, covered):
                box = _union(c.box for c in group)
                r = covered.get(group[0].pos)
                if r is None:
                    text = doc.text[group[0].pos : group[-1].pos + 1]
                    pieces[page].append(_Piece(text, box, direction, visible=False))
                    continue
                blanks[page].append(box)
                if id(r) not in surrogate_drawn:
                    surrogate_drawn.add(id(r))
                    pieces[page].append(_Piece(r.new_text.replace("\n", " "), box, direction, visible=True))
    return blanks, pieces


def _groups(chars: list[_Char], covered: dict[int, Replacement]) -> list[list[_Char]]:
    """Runs of consecutive characters that are either unchanged, or inside one replacement."""
    out: list[list[_Char]] = []
    for c in chars:
        r = covered.get(c.pos)
        if out:
            last = out[-1][-1]
            same_owner = covered.get(last.pos) is r
            if same_owner and (r is not None or c.pos == last.pos + 1):
                out[-1].append(c)
                continue
        out.append([c])
    return out


def _union(boxes) -> tuple[float, float, float, float]:
    boxes = list(boxes)
    return (
        min(b[0] for b in boxes),
        min(b[1] for b in boxes),
        max(b[2] for b in boxes),
        max(b[3] for b in boxes),
    )


def _build(source, blanks, pieces, fonts: "_Fonts", dpi: int) -> bytes:
    from PIL import ImageDraw
    from reportlab.lib.utils import ImageReader
    from reportlab.pdfgen.canvas import Canvas

    buf = io.BytesIO()
    canvas = Canvas(buf, invariant=1, pageCompression=1)
    canvas.setAuthor("")
    canvas.setTitle("De-identified document")
    canvas.setSubject("")
    canvas.setKeywords("")
    canvas.setCreator("deid-desktop")
    canvas.setProducer("deid-desktop")
    scale = dpi / 72.0
    for i in range(len(source)):
        page = source[i]
        width, height = page.get_size()
        canvas.setPageSize((width, height))
        image = page.render(scale=scale, draw_annots=False, may_draw_forms=False).to_pil().convert("RGB")
        page.close()
        sx, sy = image.width / width, image.height / height
        draw = ImageDraw.Draw(image)
        for x0, top, x1, bottom in blanks.get(i, []):
            draw.rectangle(
                [(x0 - _PAD) * sx, (top - _PAD) * sy, (x1 + _PAD) * sx, (bottom + _PAD) * sy], fill=(255, 255, 255)
            )
        canvas.drawImage(ImageReader(_compact(image)), 0, 0, width=width, height=height)
        for piece in pieces.get(i, []):
            _draw_piece(canvas, piece, height, fonts)
        canvas.showPage()
    canvas.save()
    return buf.getvalue()


def _compact(image):
    """Grey pages (most letters) are stored as one channel: a third of the size."""
    import numpy as np

    arr = np.asarray(image)
    if (arr[..., 0] == arr[..., 1]).all() and (arr[..., 1] == arr[..., 2]).all():
        return image.convert("L")
    return image


def _draw_piece(canvas, piece: _Piece, page_height: float, fonts: "_Fonts") -> None:
    from reportlab.pdfbase.pdfmetrics import stringWidth

    text = piece.text
    if not text.strip():
        return
    x0, top, x1, bottom = piece.box
    horizontal = piece.direction in ("ltr", "rtl")
    thickness = (bottom - top) if horizontal else (x1 - x0)
    length = (x1 - x0) if horizontal else (bottom - top)
    if thickness <= 0 or length <= 0:
        return
    if piece.visible and set(text) <= _BLOCKS:
        canvas.setFillColorRGB(0, 0, 0)
        canvas.rect(x0, page_height - bottom, x1 - x0, bottom - top, stroke=0, fill=1)
        return
    font, text = fonts.choose(text)
    size = thickness
    natural = stringWidth(text, font, size)
    if natural <= 0:
        return
    stretch = length / natural
    if piece.visible:
        if stretch < _MIN_SQUEEZE:
            size *= stretch / _MIN_SQUEEZE
            stretch = _MIN_SQUEEZE
        stretch = min(stretch, _MAX_STRETCH)
    descent = _DESCENT * size
    # Origin on the baseline at the start of the text, and the rotation that makes the text
    # advance the way the original line did.
    if piece.direction == "ltr":
        origin, angle = (x0, page_height - bottom + descent), 0
    elif piece.direction == "rtl":
        origin, angle = (x1, page_height - top - descent), 180
    elif piece.direction == "ttb":
        origin, angle = (x0 + descent, page_height - top), -90
    else:
        origin, angle = (x1 - descent, page_height - bottom), 90
    canvas.saveState()
    canvas.translate(*origin)
    canvas.rotate(angle)
    obj = canvas.beginText()
    obj.setTextRenderMode(0 if piece.visible else 3)
    obj.setFont(font, size)
    obj.setHorizScale(max(1.0, 100.0 * stretch))
    obj.setTextOrigin(0, 0)
    obj.textOut(text)
    canvas.setFillColorRGB(0, 0, 0)
    canvas.drawText(obj)
    canvas.restoreState()


class _Fonts:
    """Helvetica for text it can encode (Windows-1252), else a Unicode TrueType font from the
    system (macrons of Māori names, Polish, Greek...)."""

    def __init__(self) -> None:
        self.warnings: list[str] = []
        self._unicode: str | None | bool = False  # False: not looked for yet

    def choose(self, text: str) -> tuple[str, str]:
        try:
            text.encode("cp1252")
            return _BASE_FONT, text
        except UnicodeEncodeError:
            pass
        font = self._unicode_font()
        if font is not None:
            return font, text
        message = "some characters could not be drawn in the PDF text layer (no Unicode font found); they were written as '?'"
        if message not in self.warnings:
            self.warnings.append(message)
        return _BASE_FONT, text.encode("cp1252", "replace").decode("cp1252")

    def _unicode_font(self) -> str | None:
        if self._unicode is False:
            self._unicode = None
            from reportlab.pdfbase import pdfmetrics
            from reportlab.pdfbase.ttfonts import TTFont, TTFError

            for candidate in _UNICODE_FONT_FILES:
                if Path(candidate).is_file():
                    try:
                        if _UNICODE_FONT not in pdfmetrics.getRegisteredFontNames():
                            pdfmetrics.registerFont(TTFont(_UNICODE_FONT, candidate))
                        self._unicode = _UNICODE_FONT
                        break
                    except (TTFError, OSError):
                        log.debug("font %s unusable", candidate)
        return self._unicode  # type: ignore[return-value]
