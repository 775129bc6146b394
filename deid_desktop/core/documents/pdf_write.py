"""Write a de-identified PDF that keeps each page's look.

Each page is rendered to an image (pypdfium2, annotations and form fields left out). Where a
value is replaced, the quadrilaterals of its characters (turned with the line, for skewed
text) are painted in the colour of the page around them and the replacement is drawn in
their place at the original font size, in a matching standard font (serif, sans or mono,
bold, italic) and colour, never squeezed or stretched: when it is longer than the value, the
rest of the line moves along until a wider gap (a column) takes up the difference. Text that
was not visible (render mode 3, white on white, type too small to read) stays invisible: its
replacement goes into the text layer only. Letters the reader could not follow (set along a
curve) and letters of fonts without a character map are covered, since nothing says what
they spell. The image becomes the page of a new PDF of the same size (reportlab), under a
text layer carrying the de-identified text at its original position, so the file stays
searchable and re-readable. Words OCR read in the page's images (``pdf_images``) are
burned out of the rendered page and their replacements drawn there, with an invisible
text layer of their own. Nothing of the original file is copied: no content stream, font,
annotation, form field, outline, attachment, script, page label, metadata or XMP packet.
"""

from __future__ import annotations

import io
import logging
import math
import re
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import ExportError
from .model import Document, Replacement

log = logging.getLogger(__name__)

DEFAULT_DPI = 150
_DESCENT = 0.21  # share of the font size below the baseline (Helvetica, Times, DejaVu)
_MIN_VISIBLE_SIZE = 3.0  # points: smaller type is not meant to be read, and hides text
_INK_LEVEL = 48  # of 255: a pixel this far from the background colour is ink
_INK_SHARE = 0.02  # of a value's pixels: less means nothing of it is visible on the page
_BLOCKS = frozenset("█▇▆■")
_UNREADABLE = re.compile(r"\(cid:\d+\)")
_DIRECTION_ANGLE = {"ltr": 0.0, "btt": 90.0, "rtl": 180.0, "ttb": 270.0}
# The 14 standard PDF fonts by (family, bold, italic): every viewer has them.
_FACES = {"sans": ("Helvetica", "Oblique"), "serif": ("Times", "Italic"), "mono": ("Courier", "Oblique")}
_STANDARD_FONTS = {
    (family, bold, italic): base + ("-" if bold or italic else "") + ("Bold" if bold else "") + (slant if italic else "")
    for family, (base, slant) in _FACES.items()
    for bold in (False, True)
    for italic in (False, True)
}
_STANDARD_FONTS[("serif", False, False)] = "Times-Roman"
_FONT_DIRS = (
    "/usr/share/fonts/truetype/dejavu",
    "/usr/share/fonts/dejavu",
    "/usr/share/fonts/TTF",
    "/Library/Fonts",
    "/System/Library/Fonts/Supplemental",
    "C:/Windows/Fonts",
)
# Unicode fonts for text Windows-1252 cannot encode (macrons of Māori names, Polish, Greek):
# per look, the files to try in order; the first found in any folder above is used.
_UNICODE_FONT_FILES = {
    ("sans", False, False): ("DejaVuSans.ttf", "arial.ttf", "Arial.ttf", "segoeui.ttf"),
    ("sans", True, False): ("DejaVuSans-Bold.ttf", "arialbd.ttf", "Arial Bold.ttf"),
    ("sans", False, True): ("DejaVuSans-Oblique.ttf", "ariali.ttf", "Arial Italic.ttf"),
    ("sans", True, True): ("DejaVuSans-BoldOblique.ttf", "arialbi.ttf", "Arial Bold Italic.ttf"),
    ("serif", False, False): ("DejaVuSerif.ttf", "times.ttf", "Times New Roman.ttf"),
    ("serif", True, False): ("DejaVuSerif-Bold.ttf", "timesbd.ttf", "Times New Roman Bold.ttf"),
    ("serif", False, True): ("DejaVuSerif-Italic.ttf", "timesi.ttf", "Times New Roman Italic.ttf"),
    ("serif", True, True): ("DejaVuSerif-BoldItalic.ttf", "timesbi.ttf", "Times New Roman Bold Italic.ttf"),
    ("mono", False, False): ("DejaVuSansMono.ttf", "cour.ttf", "Courier New.ttf"),
    ("mono", True, False): ("DejaVuSansMono-Bold.ttf", "courbd.ttf", "Courier New Bold.ttf"),
    ("mono", False, True): ("DejaVuSansMono-Oblique.ttf", "couri.ttf", "Courier New Italic.ttf"),
    ("mono", True, True): ("DejaVuSansMono-BoldOblique.ttf", "courbi.ttf", "Courier New Bold Italic.ttf"),
}

Point = tuple[float, float]
Quad = tuple[Point, Point, Point, Point]  # line start at the descent, advance end, then "up" by the font size


@dataclass(frozen=True, slots=True)
class _Char:
    pos: int
    quad: Quad
    angle: float
    style: dict | None


@dataclass
class _Group:
    """Consecutive characters of one line that are either unchanged or inside one replacement."""

    chars: list[_Char]
    replacement: Replacement | None
    text: str = ""
    start: float = 0.0  # along the line, points
    end: float = 0.0
    ink: bool = False
    background: tuple[int, int, int] = (255, 255, 255)
    ink_colour: tuple[int, int, int] = (0, 0, 0)


@dataclass
class _Piece:
    """Text to draw: where its line starts (at the descent), the line's angle, size and look."""

    text: str
    origin: Point
    angle: float
    size: float
    style: dict
    length: float  # the original's extent: invisible text is stretched to it, to line up
    visible: bool
    colour: tuple[float, float, float] = (0.0, 0.0, 0.0)


@dataclass
class _PagePlan:
    paint: list[tuple[Quad, tuple[int, int, int]]] = field(default_factory=list)
    pieces: list[_Piece] = field(default_factory=list)
    hidden_replaced: bool = False
    unreadable_covered: bool = False


def write_pdf(
    doc: Document, replacements: list[Replacement], out_path: str | Path, *, dpi: int = DEFAULT_DPI
) -> tuple[bytes, list[str], list[int], int]:
    """The de-identified PDF, the warnings for the user, the pages (1-based) the export
    cannot vouch for (covered letters it could not read, hidden text it replaced, pictures
    whose pixels may hold text nobody read, scanned pages OCR read poorly or not at all), and
    the number of word boxes burned out of scanned pages and of images."""
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
        owners = _owners(doc, replacements)
        data, notes, to_check, burned = _build(doc, source, lines, owners, fonts, dpi)
    finally:
        source.close()
    # pages whose pixels were copied unread (no text layer, no OCR) hold anything at all
    unread = set(doc.meta.get("pages_unread") or [])
    to_check = sorted(set(to_check) | set(doc.meta.get("pages_with_images") or []) | unread)
    return data, notes + fonts.warnings, to_check, burned


def _owners(doc: Document, replacements: list[Replacement]) -> dict[int, Replacement]:
    """The replacement each replaced character belongs to. Letters of fonts without a
    character map ("(cid:12)") were never readable, so detection could not judge them: they
    are replaced by nothing, which covers them on the page and keeps them out of the text."""
    owner: dict[int, Replacement] = {}
    for r in replacements:
        for pos in range(r.start, r.end):
            owner[pos] = r
    for m in _UNREADABLE.finditer(doc.text):
        if not any(pos in owner for pos in range(m.start(), m.end())):
            blank = Replacement(m.start(), m.end(), "", "unreadable")
            for pos in range(m.start(), m.end()):
                owner[pos] = blank
    return owner


def _lines_by_page(doc: Document) -> dict[int, dict[int, list[_Char]]]:
    lines: dict[int, dict[int, list[_Char]]] = defaultdict(lambda: defaultdict(list))
    directions = {i: p.get("directions") or [] for i, p in enumerate(doc.meta.get("pages") or [])}
    for seg in doc.segments:
        loc = seg.locator
        if "page" not in loc or "image" in loc:
            continue  # words OCR read in an image are painted in the pixels (pdf_images)
        page, k = loc["page"], loc.get("line", 0)
        dirs = directions.get(page, [])
        direction = dirs[k] if k < len(dirs) else "ltr"
        angle, quads = loc.get("angle"), loc.get("quads") or []
        for j, box in enumerate(loc["boxes"]):
            if angle is not None and j < len(quads):
                quad, a = _flat_quad(quads[j]), float(angle)
            else:
                quad, a = _box_quad(box, direction), _DIRECTION_ANGLE.get(direction, 0.0)
            lines[page][k].append(_Char(seg.start + j, quad, a, loc.get("style")))
    return lines


def _flat_quad(v: list[float]) -> Quad:
    return ((v[0], v[1]), (v[2], v[3]), (v[4], v[5]), (v[6], v[7]))


def _box_quad(box, direction: str) -> Quad:
    """An axis-aligned character box as a quadrilateral that starts where its line reads from."""
    x0, top, x1, bottom = box
    if direction == "rtl":
        return ((x1, top), (x0, top), (x0, bottom), (x1, bottom))
    if direction == "ttb":
        return ((x0, top), (x0, bottom), (x1, bottom), (x1, top))
    if direction == "btt":
        return ((x1, bottom), (x1, top), (x0, top), (x0, bottom))
    return ((x0, bottom), (x1, bottom), (x1, top), (x0, top))


def _axes(angle: float) -> tuple[Point, Point]:
    """Unit vectors along the line and towards the top of its letters, in the viewer's frame
    (y grows downwards, angles turn counter-clockwise as the page is viewed)."""
    rad = math.radians(angle)
    return (math.cos(rad), -math.sin(rad)), (-math.sin(rad), -math.cos(rad))


def _dot(p: Point, u: Point) -> float:
    return p[0] * u[0] + p[1] * u[1]


def _height(quad: Quad) -> float:
    return math.hypot(quad[3][0] - quad[0][0], quad[3][1] - quad[0][1])


def _groups(doc: Document, chars: list[_Char], owner: dict[int, Replacement]) -> list[_Group]:
    """Runs of consecutive characters that are either inside one replacement, or unchanged
    words; spaces drawn as characters form their own runs, so a line pushed along can close
    up a wide gap of spaces the way it closes up any other gap."""
    out: list[_Group] = []
    for c in chars:
        r = owner.get(c.pos)
        if out:
            last = out[-1].chars[-1]
            if owner.get(last.pos) is r and (
                r is not None or (c.pos == last.pos + 1 and doc.text[c.pos].isspace() == doc.text[last.pos].isspace())
            ):
                out[-1].chars.append(c)
                continue
        out.append(_Group([c], r))
    return out


def _build(doc: Document, source, lines, owners: dict[int, Replacement], fonts: "_Fonts", dpi: int) -> tuple[bytes, list[str], list[int], int]:
    import numpy as np
    from reportlab.lib.utils import ImageReader
    from reportlab.pdfgen.canvas import Canvas

    from .ocr_write import text_layer
    from .pdf_images import paint_images

    buf = io.BytesIO()
    canvas = Canvas(buf, invariant=1, pageCompression=1)
    canvas.setAuthor("")
    canvas.setTitle("De-identified document")
    canvas.setSubject("")
    canvas.setKeywords("")
    canvas.setCreator("deid-desktop")
    canvas.setProducer("deid-desktop")
    pages_meta = doc.meta.get("pages") or []
    notes: list[str] = []
    to_check: list[int] = []
    drawn: set[int] = set()  # replacements already drawn (one spread over two lines is drawn once)
    burned = 0
    scale = dpi / 72.0
    for i in range(len(source)):
        if i < len(pages_meta) and "ocr" in pages_meta[i]:
            from .ocr_write import write_page

            done = write_page(canvas, source, i, doc, owners, fonts)
            burned += done.boxes_painted
            notes.extend(done.notes)
            if done.check:
                to_check.append(i + 1)
            continue
        page = source[i]
        width, height = page.get_size()
        canvas.setPageSize((width, height))
        image = page.render(scale=scale, draw_annots=False, may_draw_forms=False).to_pil().convert("RGB")
        page.close()
        pixels = np.asarray(image)
        sampler = _Sampler(pixels, image.width / width, image.height / height)
        plan = _PagePlan()
        for k in sorted(lines.get(i, {})):
            _plan_line(doc, sorted(lines[i][k], key=lambda c: c.pos), owners, drawn, sampler, fonts, plan)
        stray = pages_meta[i].get("covered") if i < len(pages_meta) else None
        for flat in stray or []:
            quad = _flat_quad(flat)
            plan.paint.append((quad, sampler.sample([quad])[1]))
        _paint(image, plan.paint, sampler)
        image_words, painted = paint_images(image, doc, i, owners, scale)
        burned += painted
        canvas.drawImage(ImageReader(_compact(image)), 0, 0, width=width, height=height)
        for piece in plan.pieces:
            _draw_piece(canvas, piece, height, fonts)
        if image_words:
            text_layer(canvas, doc, image_words, owners, (width / image.width, height / image.height), height, fonts)
        canvas.showPage()
        page_notes = _page_notes(i + 1, plan, bool(stray))
        notes.extend(page_notes)
        if page_notes:
            to_check.append(i + 1)
    canvas.save()
    return buf.getvalue(), notes, to_check, burned


def _page_notes(number: int, plan: _PagePlan, stray: bool) -> list[str]:
    """What the user must know about a page the export cannot fully vouch for (no content)."""
    notes = []
    if stray:
        notes.append(f"page {number}: letters that could not be read as lines of text were covered; check the page")
    if plan.unreadable_covered:
        notes.append(f"page {number}: text in fonts without a character map could not be read; it was covered")
    if plan.hidden_replaced:
        notes.append(
            f"page {number}: hidden text (invisible or too small to read) held replaced values; "
            "their replacements are in the text layer only"
        )
    return notes


def _plan_line(
    doc: Document,
    chars: list[_Char],
    owners: dict[int, Replacement],
    drawn: set[int],
    sampler: "_Sampler",
    fonts: "_Fonts",
    plan: _PagePlan,
) -> None:
    """Paint and draw one line. Replacements are drawn at the original size from where the
    value started; text after a longer replacement moves along so nothing overlaps, but only
    as far as it must: a gap wider than a space (a column, a tab stop) takes up the shift."""
    angle = chars[0].angle
    along, _ = _axes(angle)
    groups = _groups(doc, chars, owners)
    for g in groups:
        g.start = min(_dot(c.quad[0], along) for c in g.chars)
        g.end = max(_dot(c.quad[1], along) for c in g.chars)
        g.ink, g.background, g.ink_colour = sampler.sample([c.quad for c in g.chars])
        r = g.replacement
        if r is None:
            g.text = doc.text[g.chars[0].pos : g.chars[-1].pos + 1]
        elif id(r) not in drawn:
            drawn.add(id(r))
            g.text = r.new_text.replace("\n", " ")
    cursor: float | None = None
    prev_end = 0.0
    for g in sorted(groups, key=lambda g: g.start):
        if g.replacement is None and not g.text.strip():
            continue  # spaces: the gap they leave is what the reader and the layout go by
        style = g.chars[0].style or {}
        size = float(style.get("size") or _height(g.chars[0].quad))
        r = g.replacement
        visible = g.ink and size >= _MIN_VISIBLE_SIZE
        if r is not None and g.ink:
            plan.paint.extend((c.quad, g.background) for c in g.chars)
        if r is not None and r.category == "unreadable":
            plan.unreadable_covered = plan.unreadable_covered or g.ink
            continue
        if not visible:
            if r is not None and g.text.strip():
                plan.hidden_replaced = True
            length = 0.0 if r is not None else g.end - g.start
            plan.pieces.append(_Piece(g.text, _origin(g, g.start, along), angle, size, style, length, visible=False))
            continue
        start = g.start
        if cursor is not None:
            start = max(g.start, cursor + min(g.start - prev_end, fonts.width(" ", style, size)))
        prev_end = g.end
        colour = _colour(style, g)
        if r is not None and set(g.text.strip()) <= _BLOCKS and g.text.strip():
            plan.pieces.append(_Piece(g.text, _origin(g, g.start, along), angle, size, style, g.end - g.start, True, colour))
            cursor = g.end
        elif r is not None or start > g.start + 0.01:
            if r is None:  # pushed along by a longer replacement: the original glyphs go
                plan.paint.extend((c.quad, g.background) for c in g.chars)
            plan.pieces.append(_Piece(g.text, _origin(g, start, along), angle, size, style, 0.0, True, colour))
            cursor = start + fonts.width(g.text, style, size)
        else:
            plan.pieces.append(_Piece(g.text, _origin(g, g.start, along), angle, size, style, g.end - g.start, False))
            cursor = g.end


def _origin(g: _Group, start: float, along: Point) -> Point:
    """Where text of the group begins when it is to start at ``start`` along the line."""
    first = min(g.chars, key=lambda c: _dot(c.quad[0], along))
    shift = start - _dot(first.quad[0], along)
    return (first.quad[0][0] + shift * along[0], first.quad[0][1] + shift * along[1])


def _colour(style: dict, g: _Group) -> tuple[float, float, float]:
    """The original fill colour, unless it does not show against the background (text in
    render mode 3 over a scanned image of itself): then the colour of the ink seen there."""
    rgb = style.get("color")
    if isinstance(rgb, (list, tuple)) and len(rgb) == 3:
        contrast = max(abs(float(v) * 255 - b) for v, b in zip(rgb, g.background))
        if contrast > _INK_LEVEL:
            return (float(rgb[0]), float(rgb[1]), float(rgb[2]))
    return tuple(v / 255 for v in g.ink_colour)  # type: ignore[return-value]


class _Sampler:
    """Looks at the rendered page: is anything of a value visible, and on what background."""

    def __init__(self, pixels, sx: float, sy: float):
        self.pixels = pixels
        self.sx, self.sy = sx, sy

    def polygon(self, quad: Quad, pad: float = 0.0) -> list[Point]:
        return [(x * self.sx, y * self.sy) for x, y in _grow(quad, pad)]

    def sample(self, quads: list[Quad]) -> tuple[bool, tuple[int, int, int], tuple[int, int, int]]:
        """(any ink inside the quads, the colour around them, the strongest ink colour)."""
        import numpy as np
        from PIL import Image, ImageDraw

        polys = [self.polygon(q) for q in quads]
        h, w = self.pixels.shape[:2]
        xs = [x for p in polys for x, _ in p]
        ys = [y for p in polys for _, y in p]
        x0, x1 = max(0, int(min(xs)) - 3), min(w, int(math.ceil(max(xs))) + 3)
        y0, y1 = max(0, int(min(ys)) - 3), min(h, int(math.ceil(max(ys))) + 3)
        white = (255, 255, 255)
        if x1 - x0 < 2 or y1 - y0 < 2:
            return False, white, (0, 0, 0)
        region = self.pixels[y0:y1, x0:x1].astype(int)
        mask_img = Image.new("L", (x1 - x0, y1 - y0), 0)
        draw = ImageDraw.Draw(mask_img)
        for p in polys:
            draw.polygon([(x - x0, y - y0) for x, y in p], fill=255)
        inside = np.asarray(mask_img) > 0
        ring = np.ones(inside.shape, dtype=bool)
        ring[2:-2, 2:-2] = False
        ring &= ~inside
        edge = region[ring] if ring.any() else region.reshape(-1, 3)
        background = np.median(edge, axis=0)
        glyph = region[inside]
        if glyph.size == 0:
            return False, tuple(int(v) for v in background), (0, 0, 0)  # type: ignore[return-value]
        distance = np.abs(glyph - background).max(axis=1)
        ink = bool((distance > _INK_LEVEL).mean() >= _INK_SHARE)
        strongest = glyph[int(distance.argmax())]
        return ink, tuple(int(v) for v in background), tuple(int(v) for v in strongest)  # type: ignore[return-value]


def _grow(quad: Quad, pad: float) -> Quad:
    """The quadrilateral widened by ``pad`` points on every side, along its own axes."""
    if pad <= 0:
        return quad
    (ax, ay), (bx, by), _, (dx, dy) = quad
    lu, lv = math.hypot(bx - ax, by - ay), math.hypot(dx - ax, dy - ay)
    u = ((bx - ax) / lu, (by - ay) / lu) if lu > 0 else (1.0, 0.0)
    v = ((dx - ax) / lv, (dy - ay) / lv) if lv > 0 else (0.0, -1.0)
    signs = ((-1, -1), (1, -1), (1, 1), (-1, 1))
    return tuple(  # type: ignore[return-value]
        (x + pad * (su * u[0] + sv * v[0]), y + pad * (su * u[1] + sv * v[1])) for (x, y), (su, sv) in zip(quad, signs)
    )


def _paint(image, paint: list[tuple[Quad, tuple[int, int, int]]], sampler: _Sampler) -> None:
    """Fill each quadrilateral, widened by an eighth of its height (anti-aliased edges,
    accents and descenders reach past the font box), with the colour around it."""
    from PIL import ImageDraw

    draw = ImageDraw.Draw(image)
    for quad, colour in paint:
        pad = max(1.0, 0.12 * _height(quad))
        draw.polygon(sampler.polygon(quad, pad), fill=colour)


def _compact(image):
    """Grey pages (most letters) are stored as one channel: a third of the size."""
    import numpy as np

    arr = np.asarray(image)
    if (arr[..., 0] == arr[..., 1]).all() and (arr[..., 1] == arr[..., 2]).all():
        return image.convert("L")
    return image


def _draw_piece(canvas, piece: _Piece, page_height: float, fonts: "_Fonts") -> None:
    from reportlab.pdfbase.pdfmetrics import stringWidth

    if not piece.text.strip() or piece.size <= 0:
        return
    _, up = _axes(piece.angle)
    descent = _DESCENT * piece.size
    x, y = piece.origin[0] + descent * up[0], piece.origin[1] + descent * up[1]
    canvas.saveState()
    canvas.translate(x, page_height - y)
    canvas.rotate(piece.angle)
    if piece.visible and set(piece.text.strip()) <= _BLOCKS:
        canvas.setFillColorRGB(0, 0, 0)
        canvas.rect(0, -descent, piece.length, piece.size, stroke=0, fill=1)
        canvas.restoreState()
        return
    font, text = fonts.choose(piece.text, piece.style)
    obj = canvas.beginText()
    obj.setTextRenderMode(0 if piece.visible else 3)
    obj.setFont(font, piece.size)
    natural = stringWidth(text, font, piece.size)
    if not piece.visible and piece.length > 0 and natural > 0:
        # the invisible layer lines up with the letters in the image, for search and selection
        obj.setHorizScale(100.0 * piece.length / natural)
    obj.setTextOrigin(0, 0)
    obj.textOut(text)
    canvas.setFillColorRGB(*piece.colour)
    canvas.drawText(obj)
    canvas.restoreState()


def _look(style: dict | None) -> tuple[str, bool, bool]:
    style = style or {}
    family = style.get("family") if style.get("family") in ("sans", "serif", "mono") else "sans"
    return family, bool(style.get("bold")), bool(style.get("italic"))


class _Fonts:
    """A standard PDF font of the original's look for text it can encode (Windows-1252), else
    a Unicode TrueType font of that look from the system (else any Unicode font found)."""

    def __init__(self) -> None:
        self.warnings: list[str] = []
        self._unicode: dict[tuple[str, bool, bool], str | None] = {}

    def choose(self, text: str, style: dict | None) -> tuple[str, str]:
        look = _look(style)
        try:
            text.encode("cp1252")
            return _STANDARD_FONTS[look], text
        except UnicodeEncodeError:
            pass
        font = self._unicode_font(look) or self._unicode_font(("sans", False, False))
        if font is not None:
            return font, text
        message = "some characters could not be drawn in the PDF text layer (no Unicode font found); they were written as '?'"
        if message not in self.warnings:
            self.warnings.append(message)
        return _STANDARD_FONTS[look], text.encode("cp1252", "replace").decode("cp1252")

    def width(self, text: str, style: dict | None, size: float) -> float:
        from reportlab.pdfbase.pdfmetrics import stringWidth

        font, text = self.choose(text, style)
        return stringWidth(text, font, size)

    def _unicode_font(self, look: tuple[str, bool, bool]) -> str | None:
        if look not in self._unicode:
            self._unicode[look] = self._register(look)
        return self._unicode[look]

    @staticmethod
    def _register(look: tuple[str, bool, bool]) -> str | None:
        from reportlab.pdfbase import pdfmetrics
        from reportlab.pdfbase.ttfonts import TTFont, TTFError

        name = "DeidUnicode-" + "-".join((look[0], "b" if look[1] else "r", "i" if look[2] else "u"))
        if name in pdfmetrics.getRegisteredFontNames():
            return name
        for folder in _FONT_DIRS:
            for file in _UNICODE_FONT_FILES[look]:
                candidate = Path(folder) / file
                if candidate.is_file():
                    try:
                        pdfmetrics.registerFont(TTFont(name, str(candidate)))
                        return name
                    except (TTFError, OSError):
                        log.debug("font %s unusable", candidate)
        return None
