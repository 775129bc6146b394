"""A PDF's pages as images with the findings drawn as boxes where their characters are.

Pages are rendered with pypdfium2 from the bytes kept in the workspace; the boxes come from
the document's source map (one box per character, in points from the page's top-left corner,
the same frame pdfium renders), so what the reviewer sees is where the text really is.
Scanned pages read by OCR carry boxes in the same frame (per word, shared among its letters),
so they are drawn alike; words OCR read with low confidence get a dotted grey frame, and a
page OCR read nothing from says so across its top until the reviewer accepts it.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from PySide6.QtCore import QPointF, QRectF, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QImage, QPainter, QPen
from PySide6.QtWidgets import QScrollArea, QWidget

from ..core.categories import Category
from .palette import CATEGORY_COLOURS, CURRENT_OUTLINE, LOW_CONFIDENCE_MARK, REJECTED_TEXT, UNDECIDED_ALPHA

log = logging.getLogger(__name__)

PAGE_GAP = 12
PAGE_MARGIN = 12  # above and below the pages
SIDE_MARGIN = 2  # beside them: "fit width" gives the page the whole width
RENDER_SCALE = 1.5  # pixels per point when the view's width is not known yet
MIN_SCALE, MAX_SCALE = 0.6, 2.5  # what "fit width" may choose
ZOOM_MIN, ZOOM_MAX = 0.5, 5.0  # what zooming in and out may reach
ZOOM_STEP = 1.25
BACKDROP = "#D9D9D9"


@dataclass(frozen=True, slots=True)
class SpanBox:
    span_id: int
    page: int
    rect: QRectF  # points, top-left origin


def span_boxes(segments, spans) -> list[SpanBox]:
    """One rectangle per span per line stretch, merged from the character boxes."""
    return [SpanBox(s.id, page, rect) for s in spans for page, rect in range_boxes(segments, s.start, s.end)]


def range_boxes(segments, start: int, end: int) -> list[tuple[int, QRectF]]:
    """(page, rectangle in points) of the text [start, end), one per segment it touches."""
    out: list[tuple[int, QRectF]] = []
    for seg in segments:
        if seg.end <= start or seg.start >= end:
            continue
        loc = seg.locator or {}
        boxes = loc.get("boxes") or []
        page = loc.get("page")
        if page is None or not boxes:
            continue
        lo, hi = max(start, seg.start) - seg.start, min(end, seg.end) - seg.start
        chosen = [b for b in boxes[lo:hi] if len(b) == 4]
        if not chosen:
            continue
        x0 = min(b[0] for b in chosen)
        top = min(b[1] for b in chosen)
        x1 = max(b[2] for b in chosen)
        bottom = max(b[3] for b in chosen)
        out.append((int(page), QRectF(x0, top, x1 - x0, bottom - top)))
    return out


def low_confidence_boxes(doc) -> list[tuple[int, QRectF]]:
    """Where the words OCR read with low confidence are on the pages."""
    from ..core.documents.ocr import low_confidence_spans

    if doc is None:
        return []
    ranges = sorted(low_confidence_spans(doc))
    if not ranges:
        return []
    ocr_segments = sorted((s for s in doc.segments if "ocr_box" in (s.locator or {}) and "page" in s.locator), key=lambda s: s.start)
    return [box for a, b in ranges for box in range_boxes(ocr_segments, a, b)]


def unread_pages(doc) -> tuple[list[int], set[int]]:
    """The pages (1-based) OCR read nothing from, and those of them the reviewer accepted."""
    from ..core.documents.ocr import accepted_pages, blank_pages

    if doc is None:
        return [], set()
    return blank_pages(doc), accepted_pages(doc)


def unread_page_label(number: int, accepted: bool) -> str:
    if accepted:
        return f"Page {number}: OCR read no text; you accepted it, so it is copied as it is"
    from .shortcuts import BY_ACTION

    key = BY_ACTION["accept_unread_page"].keys[0]
    return f"Page {number}: OCR read no text; it is blacked out on export unless you accept it ({key})"


def page_widths(data: bytes) -> list[float]:
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(data)
    try:
        return [pdf[i].get_size()[0] for i in range(len(pdf))]
    finally:
        pdf.close()


def fit_scale(widest_page_points: float, view_width: int) -> float:
    """Pixels per point that fit the widest page into the view."""
    if widest_page_points <= 0 or view_width <= 0:
        return RENDER_SCALE
    return max(MIN_SCALE, min(MAX_SCALE, (view_width - 2 * SIDE_MARGIN) / widest_page_points))


def _pen(colour: QColor, width: float, style: Qt.PenStyle = Qt.PenStyle.SolidLine) -> QPen:
    """A cosmetic pen: as thin on screen at 400 % as at 60 %, so outlines never cover the text."""
    pen = QPen(colour, width, style)
    pen.setCosmetic(True)
    return pen


def render_pages(data: bytes, scale: float = RENDER_SCALE) -> list[QImage]:
    import pypdfium2 as pdfium

    images: list[QImage] = []
    pdf = pdfium.PdfDocument(data)
    try:
        for i in range(len(pdf)):
            page = pdf[i]
            try:
                pil = page.render(scale=scale).to_pil().convert("RGB")
            finally:
                page.close()
            buf = pil.tobytes()
            img = QImage(buf, pil.width, pil.height, 3 * pil.width, QImage.Format.Format_RGB888)
            images.append(img.copy())  # detach from the Python buffer
    finally:
        pdf.close()
    return images


class PdfCanvas(QWidget):
    span_clicked = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.images: list[QImage] = []
        self.boxes: list[SpanBox] = []
        self._states: dict[int, tuple[str, str]] = {}  # span id -> (category value, state)
        self.low_confidence: list[tuple[int, QRectF]] = []  # (page, points) of unsure OCR words
        self.unread: dict[int, bool] = {}  # page index OCR read nothing from -> accepted
        self.current_id: int | None = None
        self.scale = RENDER_SCALE

    def page_origin(self, page: int) -> QPointF:
        y = PAGE_MARGIN
        for img in self.images[:page]:
            y += img.height() + PAGE_GAP
        width = max((i.width() for i in self.images), default=0) + 2 * SIDE_MARGIN
        x = (max(self.width(), width) - self.images[page].width()) / 2 if self.images else 0
        return QPointF(x, y)

    def box_rect(self, box: SpanBox) -> QRectF:
        o = self.page_origin(box.page)
        r = box.rect
        return QRectF(o.x() + r.x() * self.scale, o.y() + r.y() * self.scale, r.width() * self.scale, r.height() * self.scale)

    def sizeHint(self) -> QSize:
        w = max((i.width() for i in self.images), default=400) + 2 * SIDE_MARGIN
        h = sum(i.height() + PAGE_GAP for i in self.images) + 2 * PAGE_MARGIN if self.images else 300
        return QSize(w, h)

    def set_pages(self, images: list[QImage], scale: float = RENDER_SCALE) -> None:
        self.images = images
        self.scale = scale
        self.setMinimumSize(self.sizeHint())
        self.update()

    def set_spans(self, boxes: list[SpanBox], spans) -> None:
        self.boxes = [b for b in boxes if b.page < len(self.images)]
        self._states = {s.id: (s.category.value, s.state) for s in spans}
        self.update()

    def update_states(self, spans) -> None:
        """New looks for findings decided in place; their boxes stay where they are."""
        for s in spans:
            self._states[s.id] = (s.category.value, s.state)
        self.update()

    def paintEvent(self, _event) -> None:
        p = QPainter(self)
        p.fillRect(self.rect(), QColor(BACKDROP))
        for i, img in enumerate(self.images):
            origin = self.page_origin(i)
            p.setPen(_pen(QColor("#A0A0A0"), 1))
            p.drawRect(QRectF(origin.x() - 1, origin.y() - 1, img.width() + 1, img.height() + 1))
            p.drawImage(origin, img)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        for b in self.boxes:
            cat, state = self._states.get(b.span_id, ("NAME", "undecided"))
            colour = QColor(CATEGORY_COLOURS[Category(cat)])
            r = self.box_rect(b)
            if state in ("accepted", "added"):
                fill = QColor(colour)
                fill.setAlpha(150)
                p.setPen(_pen(colour, 1))
                p.setBrush(fill)
                p.drawRect(r)
            elif state == "rejected":
                p.setPen(_pen(QColor(REJECTED_TEXT), 1, Qt.PenStyle.DotLine))
                p.setBrush(Qt.BrushStyle.NoBrush)
                p.drawRect(r)
                p.drawLine(QPointF(r.left(), r.center().y()), QPointF(r.right(), r.center().y()))
            else:
                fill = QColor(colour)
                fill.setAlpha(UNDECIDED_ALPHA)
                p.setPen(_pen(colour, 1, Qt.PenStyle.DashLine))
                p.setBrush(fill)
                p.drawRect(r)
            if b.span_id == self.current_id:
                p.setPen(_pen(QColor(CURRENT_OUTLINE), 2))
                p.setBrush(Qt.BrushStyle.NoBrush)
                p.drawRect(r.adjusted(-2, -2, 2, 2))
        self._paint_ocr_marks(p)
        p.end()

    def low_confidence_rect(self, page: int, rect: QRectF) -> QRectF:
        """Where a low-confidence word's dotted frame is drawn: just outside its box, so it
        never hides a finding's outline."""
        return self.box_rect(SpanBox(-1, page, rect)).adjusted(-3, -3, 3, 3)

    def _paint_ocr_marks(self, p: QPainter) -> None:
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.setPen(_pen(QColor(LOW_CONFIDENCE_MARK), 1.5, Qt.PenStyle.DotLine))
        for page, rect in self.low_confidence:
            if page < len(self.images):
                p.drawRect(self.low_confidence_rect(page, rect))
        for page, accepted in self.unread.items():
            if page >= len(self.images):
                continue
            o, img = self.page_origin(page), self.images[page]
            strip = QRectF(o.x(), o.y(), img.width(), 30)
            p.fillRect(strip, QColor(255, 255, 255, 225))
            p.setPen(QColor("#1A1A1A"))
            p.drawText(strip.adjusted(8, 0, -8, 0), Qt.AlignmentFlag.AlignVCenter, unread_page_label(page + 1, accepted))

    def mousePressEvent(self, event) -> None:
        for b in self.boxes:
            if self.box_rect(b).contains(event.position()):
                self.span_clicked.emit(b.span_id)
                return
        super().mousePressEvent(event)


class PdfPagesView(QScrollArea):
    """Scrollable pages; rendering waits until the tab is first shown for a document.

    The pages fit the view's width until the reviewer zooms (keys, or Ctrl+wheel); a zoom
    holds for the following documents until "fit width" again."""

    span_clicked = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("pdfPages")
        self.canvas = PdfCanvas()
        self.canvas.span_clicked.connect(self.span_clicked)
        self.setWidget(self.canvas)
        self.setWidgetResizable(True)
        self.setAlignment(Qt.AlignmentFlag.AlignHCenter)
        self._doc = None
        self._spans: list = []
        self._rendered_for = None
        self._rendered_width = 0
        self.zoom: float | None = None  # pixels per point chosen by zooming; None: fit the width
        # Re-render at the new width once resizing has settled, not on every pixel.
        self._rerender = QTimer(self)
        self._rerender.setSingleShot(True)
        self._rerender.setInterval(250)
        self._rerender.timeout.connect(self._render_again)

    def set_document(self, doc) -> None:
        self._doc = doc
        self._rendered_for = None
        self.canvas.set_pages([])
        if self.isVisible():
            self._ensure_rendered()

    def set_spans(self, spans) -> None:
        self._spans = list(spans)
        self._apply_spans()

    def update_spans(self, changed) -> None:
        """Findings whose state or category changed in place (same extents)."""
        by_id = {s.id: s for s in changed}
        self._spans = [by_id.get(s.id, s) for s in self._spans]
        self.canvas.update_states(changed)

    def set_current(self, span_id: int | None) -> None:
        self.canvas.current_id = span_id
        self.canvas.update()
        boxes = [b for b in self.canvas.boxes if b.span_id == span_id]
        if boxes:
            r = self.canvas.box_rect(boxes[0])
            self.ensureVisible(int(r.center().x()), int(r.center().y()), 80, 120)

    def _apply_spans(self) -> None:
        segments = self._doc.segments if self._doc is not None else []
        self.canvas.low_confidence = low_confidence_boxes(self._doc)
        blank, accepted = unread_pages(self._doc)
        self.canvas.unread = {n - 1: n in accepted for n in blank}
        self.canvas.set_spans(span_boxes(segments, self._spans), self._spans)

    def showEvent(self, event) -> None:
        super().showEvent(event)
        self._ensure_rendered()

    def _available_width(self) -> int:
        # Leave room for the vertical scroll bar, which a long document will show.
        return self.width() - 2 * self.frameWidth() - self.verticalScrollBar().sizeHint().width()

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        if self.zoom is None and self._rendered_for is not None and abs(self._available_width() - self._rendered_width) > 40:
            self._rerender.start()

    @property
    def scale(self) -> float:
        """Pixels per point the pages are drawn at."""
        return self.canvas.scale

    def zoom_in(self) -> None:
        self.set_zoom(self.scale * ZOOM_STEP)

    def zoom_out(self) -> None:
        self.set_zoom(self.scale / ZOOM_STEP)

    def set_zoom(self, scale: float) -> None:
        self.zoom = max(ZOOM_MIN, min(ZOOM_MAX, scale))
        self._render_again()

    def fit_width(self) -> None:
        """Back to pages as wide as the view, following its width again."""
        self.zoom = None
        self._rerender.stop()
        self._render_again()

    def wheelEvent(self, event) -> None:
        if event.modifiers() & Qt.KeyboardModifier.ControlModifier:
            steps = event.angleDelta().y() / 120
            if steps:
                self.set_zoom(self.scale * ZOOM_STEP**steps)
            event.accept()
            return
        super().wheelEvent(event)

    def fit_to_width(self) -> None:
        """Render the pages again at the current width (after the view was resized), unless
        the reviewer chose a zoom."""
        self._rerender.stop()
        if self.zoom is None and self._rendered_for is not None and self._available_width() != self._rendered_width:
            self._render_again()

    def _render_again(self) -> None:
        self._rendered_for = None
        if self.isVisible():  # otherwise when the Pages tab is next shown
            self._ensure_rendered()

    def _ensure_rendered(self) -> None:
        doc = self._doc
        if doc is None or self._rendered_for is doc:
            return
        self._rendered_for = doc
        if doc.format != "pdf" or not doc.source_bytes:
            self.canvas.set_pages([])
            return
        try:
            self._rendered_width = self._available_width()
            scale = self.zoom or fit_scale(max(page_widths(doc.source_bytes), default=0), self._rendered_width)
            self.canvas.set_pages(render_pages(doc.source_bytes, scale), scale)
        except Exception as e:  # a page pdfium cannot draw must not break the review
            log.warning("rendering PDF pages failed (%s)", type(e).__name__)
            self.canvas.set_pages([])
        self._apply_spans()
        self.set_current(self.canvas.current_id)
