"""Read a PDF's text layer into text plus one box per character.

Characters come from pdfplumber (duplicates from fake-bold printing removed), grouped into
lines by their vertical position and ordered left to right; a space is inserted where the gap
between two characters is wider than a quarter of the font size and the PDF has no space
character there. Lines end with "\\n"; pages are separated by a blank line ("\\n\\n"). Text
that runs vertically (rotated pages or labels) forms its own lines after the horizontal ones.
Text set at another angle (a skewed scan, a stamp) is grouped along its own baseline, using
each character's text matrix, so its words are read whole. Letters that form no line (each
at its own angle, as along a curve) are left out of the text and listed for the writer to
cover, with a warning.

Source map: one Segment per stretch of real characters of a line that share one look,
locator ``{"page": i (0-based), "line": k, "boxes": [[x0, top, x1, bottom], ...], "style":
{"size", "family", "bold", "italic", "color"}}`` with one box per character in points,
measured from the top-left corner of the page as a viewer shows it (crop box, after /Rotate)
— the same frame as a pypdfium2 rendering of the page. Skewed lines add ``"angle"`` (of the
baseline, degrees counter-clockwise as viewed) and ``"quads"``: per character the four
corners of its font box (line start at the descent, advance end, then one font size up).
Inserted spaces, line breaks and page breaks have no segment.

Pages without a text layer are read by OCR (``ocr.py``) unless OCR is turned off; their
segments are words (see there). A page left unread is listed in ``meta["pages_unread"]`` so
the export flags it: its pixels go out as they are. On pages with a text layer, the text
OCR reads in their images ("auto") follows the page's own text, one block per image
(``pdf_images.py``); pages with images nobody could read are listed in
``meta["pages_with_images"]``, so the export flags them.
"""

from __future__ import annotations

import io
import logging
import math
from collections import defaultdict
from dataclasses import dataclass, field
from operator import itemgetter
from pathlib import Path
from typing import Any, Iterator

from ..errors import IngestError
from .model import Document, Segment
from .pdf_glyphs import glyph as char_glyph
from .pdf_glyphs import style as glyph_style

log = logging.getLogger(__name__)

PAGE_SEPARATOR = "\n\n"
_GAP_FOR_SPACE = 0.25  # of the font size
# Closing punctuation hugs the word before it; a gap there is layout (justification, or a
# shorter replacement drawn in a wider box), not a word break.
_NO_SPACE_BEFORE = frozenset(",.;:!?)]}'’”%")


@dataclass(frozen=True, slots=True)
class PageFrame:
    """Where a page's visible area (crop box, rotated) lies in pdfplumber's coordinates."""

    dx: float
    dy: float
    width: float
    height: float
    rotation: int

    def exact_box(self, ch: dict[str, Any]) -> list[float]:
        return [ch["x0"] + self.dx, ch["top"] + self.dy, ch["x1"] + self.dx, ch["bottom"] + self.dy]

    def box(self, ch: dict[str, Any]) -> list[float]:
        return [
            round(ch["x0"] + self.dx, 2),
            round(ch["top"] + self.dy, 2),
            round(ch["x1"] + self.dx, 2),
            round(ch["bottom"] + self.dy, 2),
        ]


def page_frame(page) -> PageFrame:
    """pdfplumber measures from the rotated media box; pdfium renders the crop box (clipped
    to the media box). Both are the same linear frame up to a shift, found here by putting the
    crop box through the rotation pdfminer applies."""
    attrs = page.page_obj.attrs
    media = _rect(attrs.get("MediaBox")) or (0.0, 0.0, 612.0, 792.0)
    crop = _rect(attrs.get("CropBox")) or media
    crop = (max(crop[0], media[0]), max(crop[1], media[1]), min(crop[2], media[2]), min(crop[3], media[3]))
    if crop[2] <= crop[0] or crop[3] <= crop[1]:
        crop = media
    rotation = int(page.rotation) % 360
    corners = [_rotate(rotation, media, x, y) for x in (crop[0], crop[2]) for y in (crop[1], crop[3])]
    vx0, vx1 = min(c[0] for c in corners), max(c[0] for c in corners)
    vy0, vy1 = min(c[1] for c in corners), max(c[1] for c in corners)
    # pdfplumber: x = dev_x + mediabox[0]; top = height - dev_y + mediabox[1]
    mb_x0, mb_top = float(page.mediabox[0]), float(page.mediabox[1])
    height = float(page.height)
    return PageFrame(
        dx=-mb_x0 - vx0,
        dy=vy1 - height - mb_top,
        width=round(vx1 - vx0, 3),
        height=round(vy1 - vy0, 3),
        rotation=rotation,
    )


def _rect(value) -> tuple[float, float, float, float] | None:
    from pdfminer.pdftypes import resolve1

    try:
        vals = [float(resolve1(v)) for v in resolve1(value)]
    except (TypeError, ValueError):
        return None
    if len(vals) != 4:
        return None
    x0, x1 = sorted((vals[0], vals[2]))
    y0, y1 = sorted((vals[1], vals[3]))
    return (x0, y0, x1, y1)


def _rotate(rotation: int, media: tuple[float, float, float, float], x: float, y: float) -> tuple[float, float]:
    """pdfminer's page matrix: user space → device space of the rotated page."""
    x0, y0, x1, y1 = media
    if rotation == 90:
        return (y - y0, x1 - x)
    if rotation == 180:
        return (x1 - x, y1 - y)
    if rotation == 270:
        return (y1 - y, x - x0)
    return (x - x0, y - y0)


@dataclass
class _Line:
    chars: list[dict[str, Any]]
    direction: str  # "ltr", "rtl" (upside-down text), "ttb" (top to bottom) or "btt"
    angle: float | None = None  # of a skewed line's baseline; None for axis-aligned lines


def _group_lines(chars: list[dict[str, Any]]) -> tuple[list[_Line], list[dict[str, Any]]]:
    """Lines in reading order, and the characters that belong to no line (letters set along a
    curve, each at its own angle). The reading direction of an axis-aligned line is the
    direction in which the PDF drew its characters (content-stream order), so upside-down and
    rotated text read forwards; a skewed line reads along its baseline."""
    order = {id(c): i for i, c in enumerate(chars)}
    straight = [c for c in chars if c["glyph"] is None or not c["glyph"].skewed]
    horizontal = [c for c in straight if c.get("upright", True)]
    vertical = [c for c in straight if not c.get("upright", True)]
    lines = []
    for cs, forward, backward in (
        *((cs, "ltr", "rtl") for cs in _cluster(horizontal, "top", "bottom", "x0")),
        *((cs, "ttb", "btt") for cs in _cluster(vertical, "x0", "x1", "top")),
    ):
        steps = [order[id(b)] - order[id(a)] for a, b in zip(cs, cs[1:])]
        if sum(1 for d in steps if d < 0) > sum(1 for d in steps if d > 0):
            lines.append(_Line(cs[::-1], backward))
        else:
            lines.append(_Line(cs, forward))
    skewed, stray = _skewed_lines([c for c in chars if c["glyph"] is not None and c["glyph"].skewed])
    lines.extend(skewed)

    # Lines follow each other the way their text's "up" points: upside-down lines from the
    # bottom of the page, clockwise-turned columns from the right.
    def order_key(line: _Line) -> tuple[int, float]:
        c = line.chars[0]
        return {
            "ltr": (0, c["top"]),
            "rtl": (1, -c["bottom"]),
            "ttb": (2, -c["x1"]),
            "btt": (3, c["x0"]),
        }[line.direction]

    return sorted(lines, key=order_key), stray


_SAME_ANGLE = 1.0  # degrees: letters of one skewed line share their angle to rounding
_MIN_SKEWED_RUN = 4  # fewer letters at one angle are not a line (text set along a curve)


def _skewed_lines(chars: list[dict[str, Any]]) -> tuple[list[_Line], list[dict[str, Any]]]:
    """Skewed characters grouped by angle, then by baseline, and read along the baseline."""
    lines: list[_Line] = []
    stray: list[dict[str, Any]] = []
    by_angle: list[list[dict[str, Any]]] = []
    for c in sorted(chars, key=lambda c: c["glyph"].angle):
        if by_angle and c["glyph"].angle - by_angle[-1][-1]["glyph"].angle <= _SAME_ANGLE:
            by_angle[-1].append(c)
        else:
            by_angle.append([c])
    for group in by_angle:
        if len(group) < _MIN_SKEWED_RUN:
            stray.extend(group)
            continue
        angle = sum(c["glyph"].angle for c in group) / len(group)
        rad = math.radians(angle)
        along, up = (math.cos(rad), -math.sin(rad)), (-math.sin(rad), -math.cos(rad))
        for c in group:
            ox, oy = c["glyph"].corners[0]
            c["along"] = ox * along[0] + oy * along[1]
            c["across"] = ox * up[0] + oy * up[1]
        current: list[dict[str, Any]] = []
        base = size = 0.0
        for c in sorted(group, key=lambda c: (c["across"], c["along"])):
            if current and abs(c["across"] - base) <= 0.5 * min(size, c["glyph"].size):
                current.append(c)
                continue
            if current:
                lines.append(_skewed_line(current, angle))
            current, base, size = [c], c["across"], c["glyph"].size
        lines.append(_skewed_line(current, angle))
    return lines, stray


def _skewed_line(chars: list[dict[str, Any]], angle: float) -> _Line:
    nearest = round(angle / 90.0) % 4
    direction = ("ltr", "btt", "rtl", "ttb")[nearest]
    return _Line(sorted(chars, key=lambda c: c["along"]), direction, angle)


def _cluster(chars: list[dict[str, Any]], lo: str, hi: str, along: str) -> list[list[dict[str, Any]]]:
    """Chars whose centres across the reading direction are within half a character of the
    current line's centre join it."""
    out: list[list[dict[str, Any]]] = []
    centre = extent = 0.0
    for c in sorted(chars, key=lambda c: ((c[lo] + c[hi]) / 2, c[along])):
        mid = (c[lo] + c[hi]) / 2
        size = max(0.1, c[hi] - c[lo])
        if out and abs(mid - centre) <= 0.5 * min(size, extent):
            out[-1].append(c)
        else:
            out.append([c])
            centre, extent = mid, size
    return [sorted(cs, key=lambda c: c[along]) for cs in out]


def _is_space(ch: dict[str, Any]) -> bool:
    return not ch["text"].strip()


class _PageText:
    """Lays out one page's lines, recording per character its box (and, on skewed lines, its
    quadrilateral) and per segment the look of its characters. A segment ends where a space
    is inserted or where the look changes, so each segment has one style."""

    def __init__(self, page_index: int, frame: PageFrame):
        self.page_index = page_index
        self.frame = frame
        self.text: list[str] = []
        self.segments: list[tuple[int, int, dict]] = []  # offsets relative to the page start
        self.pos = 0

    def add_line(self, k: int, line: _Line) -> None:
        if self.pos:
            self._add("\n")
        run = _Run(k, line.angle)
        prev = None
        for ch in line.chars:
            look = _look(ch, line.direction)
            if prev is not None and self._needs_space(prev, ch, line):
                self._flush(run)
                self._add(" ")
            elif run.text and look != run.style:
                self._flush(run)
            run.style = look
            text = ch["text"]
            run.text.append(text)
            run.boxes.extend(_split_box(self.frame.box(ch), len(text), line.direction))
            if line.angle is not None:
                run.quads.extend(_split_quad(ch["glyph"].flat(), len(text)))
            prev = ch
        self._flush(run)

    def _needs_space(self, prev: dict[str, Any], ch: dict[str, Any], line: _Line) -> bool:
        if _is_space(prev) or _is_space(ch) or ch["text"] in _NO_SPACE_BEFORE:
            return False
        if line.angle is not None:
            size = max(prev["glyph"].size, ch["glyph"].size)
            gap = ch["along"] - (prev["along"] + prev["glyph"].length)
            return gap > _GAP_FOR_SPACE * size
        size = max(prev.get("size") or 0, ch.get("size") or 0) or (prev["bottom"] - prev["top"])
        gap = {
            "ltr": ch["x0"] - prev["x1"],
            "rtl": prev["x0"] - ch["x1"],
            "ttb": ch["top"] - prev["bottom"],
            "btt": prev["top"] - ch["bottom"],
        }[line.direction]
        return gap > _GAP_FOR_SPACE * size

    def _flush(self, run: "_Run") -> None:
        if not run.text:
            return
        text = "".join(run.text)
        start = self.pos
        self._add(text)
        loc: dict[str, Any] = {"page": self.page_index, "line": run.line, "boxes": list(run.boxes), "style": run.style}
        if run.angle is not None:
            loc["angle"] = round(run.angle, 3)
            loc["quads"] = list(run.quads)
        self.segments.append((start, self.pos, loc))
        run.text.clear()
        run.boxes.clear()
        run.quads.clear()

    def _add(self, s: str) -> None:
        self.text.append(s)
        self.pos += len(s)


@dataclass
class _Run:
    line: int
    angle: float | None
    text: list[str] = field(default_factory=list)
    boxes: list[list[float]] = field(default_factory=list)
    quads: list[list[float]] = field(default_factory=list)
    style: dict[str, Any] | None = None


def _look(ch: dict[str, Any], direction: str) -> dict[str, Any]:
    g = ch["glyph"]
    if g is not None:
        size = g.size
    else:
        size = (ch["bottom"] - ch["top"]) if direction in ("ltr", "rtl") else (ch["x1"] - ch["x0"])
    return glyph_style(ch, size)


def _split_quad(quad: list[float], n: int) -> list[list[float]]:
    """As ``_split_box`` for a skewed character: equal shares along its baseline."""
    if n <= 1:
        return [quad] * n
    (ax, ay, bx, by, cx, cy, dx, dy) = quad
    out = []
    for i in range(n):
        f, g = i / n, (i + 1) / n
        out.append(
            [
                round(ax + (bx - ax) * f, 2), round(ay + (by - ay) * f, 2),
                round(ax + (bx - ax) * g, 2), round(ay + (by - ay) * g, 2),
                round(dx + (cx - dx) * g, 2), round(dy + (cy - dy) * g, 2),
                round(dx + (cx - dx) * f, 2), round(dy + (cy - dy) * f, 2),
            ]
        )
    return out


def _split_box(box: list[float], n: int, direction: str) -> list[list[float]]:
    """A ligature ("fi") is one PDF character holding several letters: share its box."""
    if n <= 1:
        return [box] * n
    x0, top, x1, bottom = box
    out = []
    for i in range(n):
        if direction in ("ltr", "rtl"):
            a, b = x0 + (x1 - x0) * i / n, x0 + (x1 - x0) * (i + 1) / n
            out.append([round(a, 2), top, round(b, 2), bottom])
        else:
            a, b = top + (bottom - top) * i / n, top + (bottom - top) * (i + 1) / n
            out.append([x0, round(a, 2), x1, round(b, 2)])
    return out[::-1] if direction in ("rtl", "btt") else out


def read_pdf(data: bytes, path: str | Path, *, ocr: str = "auto") -> Document:
    """Read the PDF's text layer; pages without one are read by OCR when ``ocr`` is "auto"
    ("always": every page is read by OCR, its text layer ignored; "never": none is, and a
    PDF without any text layer is refused)."""
    import pdfplumber
    from pdfminer.pdfdocument import PDFEncryptionError, PDFPasswordIncorrect

    from .ocr import check_mode

    check_mode(ocr)

    def classify(e: BaseException) -> IngestError:
        inner = e.args[0] if e.args and isinstance(e.args[0], BaseException) else e
        if isinstance(inner, (PDFPasswordIncorrect, PDFEncryptionError)):
            return IngestError(path, "the PDF is password-protected; remove the password and try again", code="encrypted")
        return IngestError(path, "the PDF is damaged or truncated and cannot be read", code="corrupt")

    try:
        pdf = pdfplumber.open(io.BytesIO(data))
    except Exception as e:  # pdfminer raises many unrelated types on damaged files
        raise classify(e) from None

    warnings: list[str] = []
    texts: list[str] = []
    segments: list[Segment] = []
    pages_meta: list[dict] = []
    pages_with_images: list[int] = []
    pages_unread: list[int] = []
    page_starts: list[int | None] = []
    scanner = _Scanner(data, path)
    pos = 0
    with pdf, scanner:
        try:
            pages = pdf.pages
        except Exception as e:
            raise classify(e) from None
        if not pages:
            raise IngestError(path, "the PDF has no pages", code="corrupt")
        for i, page in enumerate(pages):
            try:
                frame = page_frame(page)
                chars = _page_chars(page, frame)
            except Exception as e:
                raise classify(e) from None
            page_meta = {"width": frame.width, "height": frame.height, "rotation": frame.rotation}
            pages_meta.append(page_meta)
            use_ocr = ocr == "always" or (ocr == "auto" and not chars)
            if use_ocr and ocr == "always" and scanner.problem:
                raise IngestError(path, f"OCR was asked for but cannot run: {scanner.problem}", code="ocr_unavailable")
            use_ocr = use_ocr and not scanner.problem
            if any("(cid:" in c["text"] for c in chars) and not use_ocr:
                warnings.append(f"page {i + 1} uses fonts without a character map; some of its text may be unreadable")
            if _has_annotations(page):
                warnings.append(f"page {i + 1} has form fields or annotations; they are left out of the de-identified copy")
            if use_ocr:
                sep = PAGE_SEPARATOR if texts else ""
                added = scanner.read(i, page_meta, pos + len(sep), segments, warnings)
                if added:
                    page_starts.append(pos + len(sep))
                    texts.extend((sep, added))
                    pos += len(sep) + len(added)
                else:
                    page_starts.append(None)
                continue
            if not chars:
                # Its pixels are copied as they are: the page must be looked at before release.
                pages_unread.append(i + 1)
                why = scanner.problem if ocr == "auto" else "OCR is turned off"
                warnings.append(f"page {i + 1} has no text layer and was not read ({why}); check it before release")
                page_starts.append(None)
                continue
            images = _page_images(page, frame, chars, i, ocr, scanner)
            if images.unchecked:
                pages_with_images.append(i + 1)
            layout = _PageText(i, frame)
            lines, stray = _group_lines(chars)
            if stray:
                # Letters that form no line cannot be read, so nothing can say whether they
                # spell a name: the writer covers them and the text leaves them out.
                page_meta["covered"] = [c["glyph"].flat() for c in stray]
                warnings.append(
                    f"page {i + 1} has letters set along a curve or at scattered angles that cannot be read as text; "
                    "they are covered in the de-identified copy"
                )
            if not lines and not images.read:
                page_starts.append(None)
                continue
            for k, line in enumerate(lines):
                layout.add_line(k, line)
            if texts:
                texts.append(PAGE_SEPARATOR)
                pos += len(PAGE_SEPARATOR)
            page_meta["directions"] = [line.direction for line in lines]
            page_starts.append(pos)
            texts.append("".join(layout.text))
            segments.extend(Segment(pos + a, pos + b, loc) for a, b, loc in layout.segments)
            pos += layout.pos
            if images.read:
                pos += scanner.add_images(i, page_meta, images.read, pos, bool(layout.pos), texts, segments, warnings)

    if not texts:
        if scanner.pages:
            raise IngestError(path, "the PDF has no text layer and OCR read no text on its pages", code="no_text")
        if ocr == "never":
            raise IngestError(
                path, "the PDF has no text layer (it is probably a scan) and OCR is turned off; turn OCR on to read it", code="no_text"
            )
        if scanner.problem:
            raise IngestError(path, f"the PDF has no text layer (it is probably a scan) and OCR cannot run: {scanner.problem}", code="no_text")
        raise IngestError(path, "the PDF has no text layer", code="no_text")
    warnings.extend(_image_notes(pages_with_images, scanner))
    if b"%%EOF" not in data[-2048:]:
        warnings.append("the PDF looks truncated; some content may be missing")
    meta = {"pages": pages_meta, "page_starts": page_starts, "pages_with_images": pages_with_images, "pages_unread": pages_unread}
    if scanner.pages or scanner.images:
        meta["ocr"] = scanner.summary()
    return Document(
        text="".join(texts),
        format="pdf",
        path=str(path),
        segments=segments,
        warnings=warnings,
        meta=meta,
        source_bytes=data,
    )


class _Scanner:
    """OCR for the pages that need it: opens the PDF in pypdfium2 on the first such page and
    keeps the totals a report gives (pages read, word confidence, low-confidence words)."""

    def __init__(self, data: bytes, path: str | Path):
        self.data = data
        self.path = path
        self.pages: list[int] = []
        self.blank: list[int] = []
        self.low: list[list[int]] = []
        self.confidences: list[float] = []
        self.images: list[tuple[int, int]] = []  # (page, image on it) of the images whose text was read
        self.images_unread = False  # whether images of text pages were left unread (OCR off or missing)
        self._pdf = None
        self._problem: str | None | bool = False  # False: not checked yet

    @property
    def problem(self) -> str | None:
        """Why OCR cannot run on this machine, or None; checked once, when first needed."""
        if self._problem is False:
            from .ocr import tesseract_missing

            self._problem = tesseract_missing()
        return self._problem  # type: ignore[return-value]

    def _open(self):
        import pypdfium2 as pdfium

        if self._pdf is None:
            try:
                self._pdf = pdfium.PdfDocument(self.data)
            except pdfium.PdfiumError:
                raise IngestError(self.path, "the PDF's pages cannot be rendered for OCR", code="corrupt") from None
        return self._pdf

    def read(self, index: int, page_meta: dict, start: int, segments: list[Segment], warnings: list[str]) -> str:
        """The page's text by OCR (segments appended at offset ``start``), "" when OCR read nothing."""
        from .ocr import LOW_CONFIDENCE, blank_page_note, low_confidence_note, page_text, read_page
        from .ocr import page_meta as ocr_meta

        pdf = self._open()
        try:
            page = read_page(pdf, index)
        except Exception as e:  # Tesseract failing on one page is named, never a traceback
            log.debug("OCR failed on a page", exc_info=True)
            raise IngestError(self.path, f"OCR failed on page {index + 1} ({type(e).__name__})", code="ocr_failed") from None
        self.pages.append(index + 1)
        page_meta["ocr"] = ocr_meta(page)
        if page.blank:
            self.blank.append(index + 1)
            warnings.append(blank_page_note(index + 1))
            return ""
        text = page_text(page, index)
        page_meta["directions"] = ["ltr"] * text.lines
        self.confidences.extend(w.conf for w in page.words)
        self.low.extend([start + a, start + b] for a, b in text.low_confidence)
        segments.extend(Segment(start + a, start + b, loc) for a, b, loc in text.segments)
        if page.mean_conf < LOW_CONFIDENCE:
            warnings.append(low_confidence_note(index + 1))
        return text.text

    def read_images(self, index: int, boxes: list[list[float]], text_boxes: list[list[float]]):
        """OCR of the images at ``boxes`` on page ``index`` (see ``pdf_images``)."""
        from .ocr import OCR_DPI
        from .pdf_images import read_images

        pdf = self._open()
        try:
            return read_images(pdf, index, boxes, text_boxes, "auto", OCR_DPI)
        except Exception as e:  # Tesseract failing on one image is named, never a traceback
            log.debug("OCR failed on an image", exc_info=True)
            raise IngestError(self.path, f"OCR failed on an image on page {index + 1} ({type(e).__name__})", code="ocr_failed") from None

    def add_images(
        self, index: int, page_meta: dict, images: list, start: int, after_text: bool, texts: list[str], segments: list[Segment], warnings: list[str]
    ) -> int:
        """Lay out the text of the images read on page ``index`` after the page's own text
        (which ends at ``start``); returns the length added."""
        from .ocr import LOW_CONFIDENCE, OCR_DPI
        from .pdf_images import IMAGE_SEPARATOR, image_meta, image_text

        directions = page_meta["directions"]
        block = image_text(index, images, OCR_DPI, len(directions))
        # a page whose only text is in its images starts with that text, not a blank line
        shift = 0 if after_text else len(IMAGE_SEPARATOR)
        text = block.text[shift:]
        texts.append(text)
        segments.extend(Segment(start + a - shift, start + b - shift, loc) for a, b, loc in block.segments)
        self.low.extend([start + a - shift, start + b - shift] for a, b in block.low_confidence)
        directions.extend(["ltr"] * block.lines)
        page_meta["images"] = [image_meta(im) for im in images]
        for n, im in enumerate(images):
            self.images.append((index + 1, n))
            self.confidences.extend(w.conf for w in im.page.words)
            if im.page.mean_conf < LOW_CONFIDENCE:
                warnings.append(f"an image on page {index + 1} was read by OCR with low confidence; check it before release")
        return len(text)

    def summary(self) -> dict:
        """What a report may say about the OCR (counts and offsets, never text). Images of
        text pages whose text was read count as "pictures", as a Word file's do."""
        mean = sum(self.confidences) / len(self.confidences) if self.confidences else 0.0
        return {
            "pages": self.pages,
            "blank_pages": self.blank,
            "pictures": list(range(1, len(self.images) + 1)),
            "words": len(self.confidences),
            "mean_conf": round(mean, 1),
            "low_confidence": self.low,
        }

    def __enter__(self) -> "_Scanner":
        return self

    def __exit__(self, *exc) -> None:
        if self._pdf is not None:
            self._pdf.close()
            self._pdf = None


def _page_chars(page, frame: PageFrame) -> list[dict[str, Any]]:
    """The page's characters without fake-bold duplicates, each with its glyph geometry.

    pdfplumber's duplicate test allows one point of offset, which in 1-point text is more
    than a letter's width ("ii" would become "i"); a tenth of the font size stays below the
    narrowest letter at every size."""
    chars = [c for c in page.chars if c.get("text")]
    by_size: dict[float, list[dict[str, Any]]] = {}
    for c in chars:
        by_size.setdefault(c.get("size") or 0.0, []).append(c)
    kept = {id(c) for size, group in by_size.items() for c in _without_copies(group, tolerance=min(1.0, 0.1 * size))}
    out = []
    for c in chars:
        if id(c) in kept:
            c = dict(c)
            c["glyph"] = char_glyph(c, frame.exact_box(c))
            out.append(c)
    return out


def _without_copies(chars: list[dict[str, Any]], tolerance: float) -> Iterator[dict[str, Any]]:
    """The characters ``pdfplumber.utils.dedupe_chars`` keeps (same letter, font and
    size within ``tolerance`` of each other in both directions: one is kept, the highest
    then leftmost), in no particular order. pdfplumber's own function also puts them back in
    the page's order with ``list.index``, which is quadratic: 60 ms a page of 1,500
    characters, for an order nobody here uses."""
    from pdfplumber.utils import cluster_objects

    same: dict[tuple, list[dict[str, Any]]] = defaultdict(list)
    for c in chars:
        same[(c["upright"], c["text"], c["fontname"], c["size"])].append(c)
    position = itemgetter("doctop", "x0")
    for group in same.values():
        if len(group) == 1:
            yield group[0]
            continue
        for row in cluster_objects(group, itemgetter("doctop"), tolerance):
            for spot in cluster_objects(row, itemgetter("x0"), tolerance):
                yield min(spot, key=position)


@dataclass
class _Images:
    """What became of a text page's images: those whose text OCR read, and whether any
    is left that nobody read (OCR off or unavailable, no text OCR could read, read poorly)."""

    read: list = field(default_factory=list)
    unchecked: bool = False


def _page_images(page, frame: PageFrame, chars: list[dict[str, Any]], index: int, ocr: str, scanner: "_Scanner") -> _Images:
    """OCR of the images of a page with a text layer (``pdf_images``), in "auto" only:
    "always" reads the whole page by OCR, "never" reads none."""
    from .ocr import LOW_CONFIDENCE
    from .pdf_images import image_boxes

    if not _has_images(page):
        return _Images()
    if ocr != "auto" or scanner.problem:
        scanner.images_unread = True
        return _Images(unchecked=True)
    boxes = image_boxes(page, frame)
    if not boxes:
        return _Images()
    found = scanner.read_images(index, boxes, [frame.box(c) for c in chars])
    poorly_read = any(im.page.mean_conf < LOW_CONFIDENCE for im in found.read)
    return _Images(found.read, unchecked=bool(found.without_text) or poorly_read)


def _image_notes(pages_with_images: list[int], scanner: "_Scanner") -> list[str]:
    """What the reviewer must know about the images of pages with a text layer (no content)."""
    notes = []
    if scanner.images:
        pages = sorted({n for n, _ in scanner.images})
        notes.append(
            f"text in {len(scanner.images)} image(s) on {_pages_phrase(pages)} was read by OCR; it follows the page's text, "
            "and what is replaced there is painted out of the page"
        )
    if pages_with_images and scanner.images_unread:
        # The export paints over text it replaced; pixels of pictures (a scanned signature,
        # a photographed label) are carried over as they are, so the reviewer must look.
        which = ", ".join(map(str, pages_with_images))
        noun = "page {} contains" if len(pages_with_images) == 1 else "pages {} contain"
        notes.append(f"{noun.format(which)} images; text inside images cannot be checked and is copied as it is")
    elif pages_with_images:
        notes.append(
            f"{_pages_phrase(pages_with_images)} {'has' if len(pages_with_images) == 1 else 'have'} images without text OCR could read "
            "or read with low confidence; check them before release"
        )
    return notes


def _pages_phrase(pages: list[int]) -> str:
    return ("page " if len(pages) == 1 else "pages ") + ", ".join(map(str, pages))


def _has_images(page) -> bool:
    try:
        return bool(page.images)
    except Exception:  # a damaged image dictionary should not stop the text from being read
        log.debug("unreadable images on a page", exc_info=True)
        return False


def _has_annotations(page) -> bool:
    """Annotations other than links: comments, form fields, stamps. Their text is not part
    of the page content pdfplumber reads."""
    try:
        annots = page.annots
    except Exception:  # a damaged annotation array should not stop the text from being read
        log.debug("unreadable annotations on a page", exc_info=True)
        return False
    for a in annots:
        subtype = (a.get("data") or {}).get("Subtype")
        name = getattr(subtype, "name", subtype)
        if isinstance(name, bytes):
            name = name.decode("latin-1")
        if name not in ("Link", "Popup", None):
            return True
    return False
