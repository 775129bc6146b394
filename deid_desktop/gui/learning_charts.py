"""Small charts for the Model menu, drawn with QPainter into a pixmap (no plotting library):
grouped bars for old vs new model scores, lines for the ensemble weight history."""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QImage, QPainter, QPen, QPixmap

# Colour-blind-safe (Okabe–Ito); "before" is grey so the eye goes to the new model.
COLOURS = ["#999999", "#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442"]
MARGIN_L, MARGIN_R, MARGIN_T, MARGIN_B = 44, 12, 28, 48


def _canvas(width: int, height: int) -> tuple[QImage, QPainter]:
    img = QImage(width, height, QImage.Format.Format_ARGB32)
    img.fill(QColor("white"))
    p = QPainter(img)
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    f = QFont()
    f.setPointSize(8)
    p.setFont(f)
    return img, p


def _axes(p: QPainter, plot: QRectF, title: str, y_max: float) -> None:
    p.setPen(QPen(QColor("#333333")))
    p.drawText(QRectF(0, 4, plot.right(), 20), Qt.AlignmentFlag.AlignHCenter, title)
    grid = QPen(QColor("#dddddd"))
    for k in range(5):
        v = y_max * k / 4
        y = plot.bottom() - plot.height() * k / 4
        p.setPen(grid)
        p.drawLine(QPointF(plot.left(), y), QPointF(plot.right(), y))
        p.setPen(QPen(QColor("#333333")))
        p.drawText(QRectF(0, y - 7, MARGIN_L - 6, 14), Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter, f"{v:.2f}")
    p.drawLine(QPointF(plot.left(), plot.bottom()), QPointF(plot.right(), plot.bottom()))


def _legend(p: QPainter, names: list[str], x: float, y: float) -> None:
    for i, name in enumerate(names):
        p.fillRect(QRectF(x, y + 3, 10, 10), QColor(COLOURS[i % len(COLOURS)]))
        p.setPen(QPen(QColor("#333333")))
        p.drawText(QPointF(x + 14, y + 12), name)
        x += 24 + p.fontMetrics().horizontalAdvance(name)


def bar_chart(groups: list[str], series: dict[str, list[float]], *, title: str, width: int = 560, height: int = 260, y_max: float = 1.0) -> QPixmap:
    """Grouped bars: one group per label in ``groups``, one bar per series in it."""
    img, p = _canvas(width, height)
    plot = QRectF(MARGIN_L, MARGIN_T, width - MARGIN_L - MARGIN_R, height - MARGIN_T - MARGIN_B)
    _axes(p, plot, title, y_max)
    names = list(series)
    n = max(1, len(groups))
    slot = plot.width() / n
    bar = slot * 0.8 / max(1, len(names))
    for g, label in enumerate(groups):
        x0 = plot.left() + g * slot + slot * 0.1
        for s, name in enumerate(names):
            v = max(0.0, min(y_max, series[name][g]))
            h = plot.height() * v / y_max
            p.fillRect(QRectF(x0 + s * bar, plot.bottom() - h, bar - 1, h), QColor(COLOURS[s % len(COLOURS)]))
        p.setPen(QPen(QColor("#333333")))
        p.drawText(QRectF(plot.left() + g * slot, plot.bottom() + 2, slot, 16), Qt.AlignmentFlag.AlignHCenter, label)
    _legend(p, names, plot.left(), plot.bottom() + 22)
    p.end()
    return QPixmap.fromImage(img)


def line_chart(series: dict[str, list[float]], *, title: str, width: int = 560, height: int = 260, y_max: float = 1.0) -> QPixmap:
    """One line per series over its points (oldest first); a single point shows as a dot."""
    img, p = _canvas(width, height)
    plot = QRectF(MARGIN_L, MARGIN_T, width - MARGIN_L - MARGIN_R, height - MARGIN_T - MARGIN_B)
    _axes(p, plot, title, y_max)
    names = list(series)
    n = max((len(v) for v in series.values()), default=0)
    for s, name in enumerate(names):
        colour = QColor(COLOURS[(s + 1) % len(COLOURS)])
        pts = []
        for k, v in enumerate(series[name]):
            x = plot.left() + (plot.width() * k / (n - 1) if n > 1 else plot.width() / 2)
            y = plot.bottom() - plot.height() * max(0.0, min(y_max, v)) / y_max
            pts.append(QPointF(x, y))
        p.setPen(QPen(colour, 2))
        for a, b in zip(pts, pts[1:]):
            p.drawLine(a, b)
        p.setBrush(colour)
        for pt in pts:
            p.drawEllipse(pt, 3, 3)
    p.setPen(QPen(QColor("#333333")))
    p.drawText(QRectF(plot.left(), plot.bottom() + 2, plot.width(), 16), Qt.AlignmentFlag.AlignHCenter, "re-fits, oldest to newest")
    # the legend uses the line colours, shifted past the grey "before" colour
    x = plot.left()
    for s, name in enumerate(names):
        p.fillRect(QRectF(x, plot.bottom() + 25, 10, 10), QColor(COLOURS[(s + 1) % len(COLOURS)]))
        p.drawText(QPointF(x + 14, plot.bottom() + 34), name)
        x += 24 + p.fontMetrics().horizontalAdvance(name)
    p.end()
    return QPixmap.fromImage(img)
