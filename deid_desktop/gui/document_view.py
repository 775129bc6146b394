"""The document text with its findings highlighted, and the colour legend.

Three looks that stay apart without colour: undecided findings are lightly tinted and
underlined, accepted (and reviewer-added) findings are filled solid, rejected ones are
struck through in grey. The underline's line style is the category's (palette.UNDERLINE_STYLES),
so categories whose pale tints merge for a colour-blind reviewer still differ. The selected
finding gets a dark frame; it is scrolled to the middle of the view. Words OCR read with low
confidence get a dotted grey line above them (the underline is the category's) and a tooltip
that sends the reviewer to the page image.
"""

from __future__ import annotations

import bisect

from PySide6.QtCore import QEvent, QPointF, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QColor, QFont, QFontDatabase, QFontMetrics, QPainter, QPainterPath, QPen, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import QPlainTextEdit, QTextEdit, QToolTip, QWidget

from ..core.categories import Category
from .palette import (
    CATEGORY_COLOURS,
    CATEGORY_LABELS,
    CURRENT_OUTLINE,
    KEY_FOR_CATEGORY,
    LOW_CONFIDENCE_MARK,
    LOW_CONFIDENCE_TIP,
    REJECTED_TEXT,
    UNDECIDED_ALPHA,
    UNDERLINE_STYLES,
    text_colour_on,
    underline_colour,
)
from .positions import PositionMap

PHI_STATES = ("accepted", "added")

_U = QTextCharFormat.UnderlineStyle
TEXT_UNDERLINES = {
    "single": _U.SingleUnderline,
    "dash": _U.DashUnderline,
    "dot": _U.DotLine,
    "dashdot": _U.DashDotLine,
    "dashdotdot": _U.DashDotDotLine,
    "wave": _U.WaveUnderline,
}
LEGEND_PENS = {
    "single": Qt.PenStyle.SolidLine,
    "dash": Qt.PenStyle.DashLine,
    "dot": Qt.PenStyle.DotLine,
    "dashdot": Qt.PenStyle.DashDotLine,
    "dashdotdot": Qt.PenStyle.DashDotDotLine,
}


def underline_style(category: Category) -> QTextCharFormat.UnderlineStyle:
    """The underline of an undecided ``category`` finding."""
    return TEXT_UNDERLINES[UNDERLINE_STYLES[category]]


def highlight_format(category: Category, state: str) -> QTextCharFormat:
    colour = QColor(CATEGORY_COLOURS[category])
    fmt = QTextCharFormat()
    if state in PHI_STATES:
        fmt.setBackground(colour)
        fmt.setForeground(QColor(text_colour_on(CATEGORY_COLOURS[category])))
    elif state == "rejected":
        fmt.setForeground(QColor(REJECTED_TEXT))
        fmt.setFontStrikeOut(True)
    else:
        tint = QColor(colour)
        tint.setAlpha(UNDECIDED_ALPHA)
        fmt.setBackground(tint)
        fmt.setUnderlineStyle(underline_style(category))
        fmt.setUnderlineColor(QColor(underline_colour(category)))
    fmt.setProperty(QTextCharFormat.Property.UserProperty, state)
    return fmt


def document_font() -> QFont:
    font = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
    font.setPointSizeF(10)
    return font


class DocumentTextView(QPlainTextEdit):
    """Read-only text; selectable with mouse and keyboard so a missed span can be marked."""

    span_clicked = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("documentText")
        self.setReadOnly(True)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse | Qt.TextInteractionFlag.TextSelectableByKeyboard)
        self.setFont(document_font())
        self.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self.setToolTip(
            "Click a highlight to select it. Select text and press 1–8 to add a missed span. "
            "A accept · R reject · J/K next/previous · F1 all shortcuts"
        )
        self._spans: list = []
        # The drawn highlights, in span order, and where each finding's is: a decision swaps
        # one entry instead of rebuilding thousands.
        self._selections: list[QTextEdit.ExtraSelection] = []
        self._selection_of: dict[int, int] = {}
        self._span_index: dict[int, int] = {}
        self.positions = PositionMap("")
        self._cursors: dict[tuple[int, int], QTextCursor] = {}
        self._formats: dict[tuple[Category, str], QTextCharFormat] = {}
        self._current_id: int | None = None
        self._clicked_id: int | None = None  # the finding a click in this view is selecting
        self._span_at = None  # callable(position) -> span or None, from the controller
        self._low: list[tuple[int, int]] = []  # words OCR read with low confidence, sorted

    # -- content ----------------------------------------------------------------------
    def set_text(self, text: str, low_confidence: list[tuple[int, int]] | None = None) -> None:
        self._spans, self._current_id = [], None
        self._low = sorted((a, b) for a, b in (low_confidence or []) if 0 <= a < b <= len(text))
        self._selections, self._selection_of, self._span_index = [], {}, {}
        self.positions = PositionMap(text)
        self._cursors.clear()
        self.setExtraSelections([])
        self.setPlainText(text)

    def _cursor(self, start: int, end: int) -> QTextCursor:
        # Cursors and formats are reused between redraws: a decision changes one finding, not
        # the thousands of others in a long document.
        cur = self._cursors.get((start, end))
        if cur is None:
            cur = QTextCursor(self.document())
            cur.setPosition(self.positions.to_view(start))
            cur.setPosition(self.positions.to_view(end), QTextCursor.MoveMode.KeepAnchor)
            self._cursors[(start, end)] = cur
        return cur

    def _format(self, category: Category, state: str) -> QTextCharFormat:
        fmt = self._formats.get((category, state))
        if fmt is None:
            fmt = self._formats[(category, state)] = highlight_format(category, state)
        return fmt

    def set_spans(self, spans, span_at=None) -> None:
        self._spans = list(spans)
        self._span_at = span_at
        self._span_index = {s.id: i for i, s in enumerate(self._spans)}
        self._selections, self._selection_of = [], {}
        n = self.positions.length
        for s in self._spans:
            if s.end > n:
                continue
            sel = QTextEdit.ExtraSelection()
            sel.cursor = self._cursor(s.start, s.end)
            sel.format = self._format(s.category, s.state)
            self._selection_of[s.id] = len(self._selections)
            self._selections.append(sel)
        self.setExtraSelections(self._selections)
        self.viewport().update()

    def update_spans(self, changed) -> None:
        """Redraw findings whose state or category changed, keeping their extents: only
        their highlights are swapped (Qt repaints just the lines they are on)."""
        for s in changed:
            i = self._span_index.get(s.id)
            if i is None:
                continue
            self._spans[i] = s
            j = self._selection_of.get(s.id)
            if j is not None:
                sel = QTextEdit.ExtraSelection()
                sel.cursor = self._cursor(s.start, s.end)
                sel.format = self._format(s.category, s.state)
                self._selections[j] = sel
        self.setExtraSelections(self._selections)

    def _span(self, span_id: int | None):
        i = self._span_index.get(span_id) if span_id is not None else None
        return self._spans[i] if i is not None else None

    def highlight_at(self, offset: int) -> tuple[int, int, QTextCharFormat] | None:
        """The highlight drawn over the character at a text offset: (start, end, format), as
        text offsets."""
        position = self.positions.to_view(offset)
        selections = self.extraSelections()
        for sel in selections:
            cursor = sel.cursor
            if cursor.selectionStart() <= position < cursor.selectionEnd():
                # A copy: the selection list owns the format and goes away with it.
                start, end = self.positions.to_text(cursor.selectionStart()), self.positions.to_text(cursor.selectionEnd())
                return start, end, QTextCharFormat(sel.format)
        return None

    def set_current(self, span_id: int | None, *, scroll: bool = True) -> None:
        """Frame the selected finding and bring it to the middle of the view, where the eye
        stays while J / K or a decision moves on; a finding clicked in the text stays put
        under the mouse."""
        self._current_id = span_id
        span = self._span(span_id)
        if span is not None and scroll and span_id != self._clicked_id:
            self.scroll_to(span.start, span.end)
        self.viewport().update()

    def scroll_to(self, start: int, end: int) -> None:
        """Put the cursor at ``start`` and scroll its line to the vertical middle (as far
        as the document's end allows)."""
        cur = QTextCursor(self.document())
        cur.setPosition(min(self.positions.to_view(start), self.document().characterCount() - 1))
        self.setTextCursor(cur)
        self.centerCursor()

    def selected_range(self) -> tuple[int, int] | None:
        cur = self.textCursor()
        if not cur.hasSelection():
            return None
        return self.positions.to_text(cur.selectionStart()), self.positions.to_text(cur.selectionEnd())

    def clear_selection(self) -> None:
        cur = self.textCursor()
        cur.clearSelection()
        self.setTextCursor(cur)

    # -- geometry ------------------------------------------------------------------------
    def span_rects(self, start: int, end: int) -> list[QRectF]:
        """Viewport rectangles covering the text offsets [start, end), one per visual line."""
        start, end = self.positions.to_view(start), self.positions.to_view(end)
        rects: list[QRectF] = []
        block = self.document().findBlock(start)
        offset = self.contentOffset()
        while block.isValid() and block.position() < end:
            layout = block.layout()
            geo = self.blockBoundingGeometry(block).translated(offset)
            lp = layout.position()
            bpos = block.position()
            for i in range(layout.lineCount()):
                line = layout.lineAt(i)
                ls = bpos + line.textStart()
                le = ls + line.textLength()
                s, e = max(start, ls), min(end, le)
                if s >= e:
                    continue
                x0 = _x(line.cursorToX(s - bpos))
                x1 = _x(line.cursorToX(e - bpos))
                rects.append(QRectF(geo.left() + lp.x() + x0, geo.top() + lp.y() + line.y(), x1 - x0, line.height()))
            block = block.next()
        return rects

    # -- painting and mouse ----------------------------------------------------------------
    @property
    def low_confidence(self) -> list[tuple[int, int]]:
        return list(self._low)

    def low_confidence_at(self, offset: int) -> tuple[int, int] | None:
        """The low-confidence OCR word at a text offset, if any."""
        i = bisect.bisect_right(self._low, (offset, float("inf"))) - 1
        return self._low[i] if i >= 0 and self._low[i][0] <= offset < self._low[i][1] else None

    def _visible_low(self) -> list[tuple[int, int]]:
        """Low-confidence words on the lines in view: a long scan has hundreds of them."""
        if not self._low:
            return []
        first = self.firstVisibleBlock()
        last = self.cursorForPosition(self.viewport().rect().bottomRight()).block()
        lo = self.positions.to_text(first.position())
        hi = self.positions.to_text(last.position() + last.length())
        i = bisect.bisect_left(self._low, (lo, -1))
        j = bisect.bisect_right(self._low, (hi, float("inf")))
        return self._low[max(0, i - 1) : j]

    def _paint_low_confidence(self) -> None:
        words = self._visible_low()
        if not words:
            return
        painter = QPainter(self.viewport())
        pen = QPen(QColor(LOW_CONFIDENCE_MARK), 1.5, Qt.PenStyle.DotLine)
        painter.setPen(pen)
        for a, b in words:
            for r in self.span_rects(a, b):
                painter.drawLine(QPointF(r.left(), r.top() + 1), QPointF(r.right(), r.top() + 1))
        painter.end()

    def tooltip_at(self, point) -> str | None:
        """The low-confidence note for the word under a viewport point, if any."""
        pos = self.positions.to_text(self.cursorForPosition(point).position())
        return LOW_CONFIDENCE_TIP if self.low_confidence_at(pos) is not None else None

    def viewportEvent(self, e) -> bool:
        # tooltips are asked of the viewport, which the scroll area forwards here
        if e.type() == QEvent.Type.ToolTip and self._low:
            tip = self.tooltip_at(e.pos())
            if tip is not None:
                QToolTip.showText(e.globalPos(), tip, self.viewport())
                return True
        return super().viewportEvent(e)

    def paintEvent(self, event) -> None:
        super().paintEvent(event)
        self._paint_low_confidence()
        span = self._span(self._current_id)
        if span is None:
            return
        painter = QPainter(self.viewport())
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        pen = QPen(QColor(CURRENT_OUTLINE), 2)
        painter.setPen(pen)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        for r in self.span_rects(span.start, span.end):
            painter.drawRoundedRect(r.adjusted(-2, -1, 2, 1), 3, 3)
        painter.end()

    def mouseReleaseEvent(self, event) -> None:
        super().mouseReleaseEvent(event)
        if event.button() != Qt.MouseButton.LeftButton or self.textCursor().hasSelection():
            return
        span = self.span_at_point(event.position())
        if span is not None:
            self._clicked_id = span.id
            try:
                self.span_clicked.emit(span.id)
            finally:
                self._clicked_id = None

    def span_at_point(self, point: QPointF):
        pos = self.positions.to_text(self.cursorForPosition(point.toPoint()).position())
        for p in (pos, pos - 1):
            hits = [s for s in self._spans if s.start <= p < s.end]
            for s in sorted(hits, key=lambda s: (s.state == "rejected", s.end - s.start)):
                if any(r.adjusted(-1, 0, 1, 0).contains(point) for r in self.span_rects(s.start, s.end)):
                    return s
        return None


def draw_cue(p: QPainter, style: str, x0: float, x1: float, y: float, colour: QColor) -> None:
    """A category's underline, as the text view draws it under an undecided finding."""
    pen = QPen(colour, 1.5)
    if style == "wave":
        path = QPainterPath(QPointF(x0, y))
        x, up = x0, True
        while x < x1:
            nx = min(x + 3, x1)
            path.quadTo(QPointF((x + nx) / 2, y + (-2 if up else 2)), QPointF(nx, y))
            x, up = nx, not up
        p.setPen(pen)
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.drawPath(path)
        return
    pen.setStyle(LEGEND_PENS[style])
    p.setPen(pen)
    p.drawLine(QPointF(x0, y), QPointF(x1, y))


def _x(value) -> float:
    # PySide returns (x, cursorPos) for QTextLine.cursorToX because cursorPos is in/out in C++.
    return float(value[0] if isinstance(value, tuple) else value)


class Legend(QWidget):
    """Category colours with their keys and underlines, and the three decision looks. Drawn
    by hand so it shows exactly the styles the text view uses, wrapping to the width it is
    given."""

    STATES = (("undecided", "undecided"), ("accepted", "accepted"), ("rejected", "rejected"))

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("legend")
        self.setToolTip(
            "Press the number to relabel the selected finding, or to add selected text as that category. "
            "An undecided finding is underlined in its category's line style, shown under each label."
        )
        self._pad, self._gap, self._row_gap = 6, 6, 4

    def _items(self) -> list[tuple[str, str, str]]:
        """(kind, text, key) in drawing order."""
        items = [("category", f"{KEY_FOR_CATEGORY[c]}  {CATEGORY_LABELS[c]}", c.value) for c in Category]
        items += [("state", label, state) for state, label in self.STATES]
        return items

    def _layout(self, width: int) -> tuple[list[tuple[QRectF, tuple[str, str, str]]], int]:
        fm = QFontMetrics(self.font())
        h = fm.height() + 9  # room under the text for the underline cue
        x, y, placed = self._pad, self._pad, []
        for i, item in enumerate(self._items()):
            w = fm.horizontalAdvance(item[1]) + 14
            if item[0] == "state" and self._items()[i - 1][0] == "category":
                x += 12  # visual break between categories and decision looks
            if x + w > width - self._pad and x > self._pad:
                x, y = self._pad, y + h + self._row_gap
            placed.append((QRectF(x, y, w, h), item))
            x += w + self._gap
        return placed, int(y + h + self._pad)

    def category_rects(self) -> dict[Category, QRectF]:
        """Where each category's chip is drawn at the current width."""
        return {Category(key): rect for rect, (kind, _text, key) in self._layout(self.width())[0] if kind == "category"}

    @staticmethod
    def cue_y(rect: QRectF) -> float:
        """The height of the underline drawn in a chip: below the text, inside the chip."""
        return rect.bottom() - 2.5

    def hasHeightForWidth(self) -> bool:
        return True

    def heightForWidth(self, width: int) -> int:
        return self._layout(width)[1]

    def sizeHint(self) -> QSize:
        return QSize(600, self.heightForWidth(600))

    def minimumSizeHint(self) -> QSize:
        return QSize(200, self.heightForWidth(max(200, self.width())))

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        h = self.heightForWidth(self.width())
        if h != self.minimumHeight():
            self.setMinimumHeight(h)
            self.setMaximumHeight(h)

    def paintEvent(self, _event) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        placed, _ = self._layout(self.width())
        sample = QColor(CATEGORY_COLOURS[Category.DATE])
        for rect, (kind, text, key) in placed:
            if kind == "category":
                fill = CATEGORY_COLOURS[Category(key)]
                p.setPen(Qt.PenStyle.NoPen)
                p.setBrush(QColor(fill))
                p.drawRoundedRect(rect, 4, 4)
                ink = QColor(text_colour_on(fill))
                p.setPen(ink)
                p.drawText(rect.adjusted(0, 0, 0, -3), Qt.AlignmentFlag.AlignCenter, text)
                draw_cue(p, UNDERLINE_STYLES[Category(key)], rect.left() + 4, rect.right() - 4, self.cue_y(rect), ink)
                continue
            if key == "undecided":
                tint = QColor(sample)
                tint.setAlpha(UNDECIDED_ALPHA)
                p.setPen(Qt.PenStyle.NoPen)
                p.setBrush(tint)
                p.drawRect(rect)
                p.setPen(self.palette().text().color())
                p.drawText(rect.adjusted(0, 0, 0, -3), Qt.AlignmentFlag.AlignCenter, text)
                cue = QColor(underline_colour(Category.DATE))
                draw_cue(p, UNDERLINE_STYLES[Category.DATE], rect.left() + 4, rect.right() - 4, self.cue_y(rect), cue)
            elif key == "accepted":
                p.setPen(Qt.PenStyle.NoPen)
                p.setBrush(sample)
                p.drawRect(rect)
                p.setPen(QColor(text_colour_on(CATEGORY_COLOURS[Category.DATE])))
                p.drawText(rect, Qt.AlignmentFlag.AlignCenter, text)
            else:
                p.setPen(QColor(REJECTED_TEXT))
                p.drawText(rect, Qt.AlignmentFlag.AlignCenter, text)
                fm = QFontMetrics(self.font())
                tw = fm.horizontalAdvance(text)
                y = rect.center().y() + 1
                p.drawLine(QPointF(rect.center().x() - tw / 2, y), QPointF(rect.center().x() + tw / 2, y))
        p.end()
