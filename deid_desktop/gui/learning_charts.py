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


def _axes(p: QPainter, plot: QRectF, title: str, y_lo: float, y_hi: float, ticks: int = 4) -> None:
    p.setPen(QPen(QColor("#333333")))
    p.drawText(QRectF(0, 4, plot.right(), 20), Qt.AlignmentFlag.AlignHCenter, title)
    grid = QPen(QColor("#dddddd"))
    for k in range(ticks + 1):
        v = y_lo + (y_hi - y_lo) * k / ticks
        y = plot.bottom() - plot.height() * k / ticks
        p.setPen(grid)
        p.drawLine(QPointF(plot.left(), y), QPointF(plot.right(), y))
        p.setPen(QPen(QColor("#333333")))
        p.drawText(QRectF(0, y - 7, plot.left() - 6, 14), Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter, f"{v:.2f}")
    p.drawLine(QPointF(plot.left(), plot.bottom()), QPointF(plot.right(), plot.bottom()))


def _legend(p: QPainter, names: list[str], x: float, y: float, colours: list[str] = COLOURS) -> None:
    for i, name in enumerate(names):
        p.fillRect(QRectF(x, y + 3, 10, 10), QColor(colours[i % len(colours)]))
        p.setPen(QPen(QColor("#333333")))
        p.drawText(QPointF(x + 14, y + 12), name)
        x += 24 + p.fontMetrics().horizontalAdvance(name)


def bar_chart(groups: list[str], series: dict[str, list[float]], *, title: str, width: int = 560, height: int = 260, y_max: float = 1.0) -> QPixmap:
    """Grouped bars: one group per label in ``groups``, one bar per series in it."""
    img, p = _canvas(width, height)
    plot = QRectF(MARGIN_L, MARGIN_T, width - MARGIN_L - MARGIN_R, height - MARGIN_T - MARGIN_B)
    _axes(p, plot, title, 0.0, y_max)
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


def xy_image(
    series: dict[str, list[tuple[float, float]]],
    *,
    title: str,
    x_label: str,
    x_ticks: list[float] | None = None,
    y_range: tuple[float, float] = (0.0, 1.0),
    colours: list[str] | None = None,
    width: int = 560,
    height: int = 260,
) -> QImage:
    """One line with dots per series of (x, y) points; a single x shows in the middle. Needs
    only a QGuiApplication, so scripts (benchmarks/learning_curve.py) draw with it too."""
    colours = colours or COLOURS
    img, p = _canvas(width, height)
    plot = QRectF(MARGIN_L, MARGIN_T, width - MARGIN_L - MARGIN_R, height - MARGIN_T - MARGIN_B)
    y_lo, y_hi = y_range
    _axes(p, plot, title, y_lo, y_hi)
    xs = [x for points in series.values() for x, _ in points]
    x_lo, x_hi = min(xs, default=0.0), max(xs, default=0.0)

    def at(x: float, y: float) -> QPointF:
        px = plot.left() + (plot.width() * (x - x_lo) / (x_hi - x_lo) if x_hi > x_lo else plot.width() / 2)
        py = plot.bottom() - plot.height() * (max(y_lo, min(y_hi, y)) - y_lo) / ((y_hi - y_lo) or 1.0)
        return QPointF(px, py)

    for s, (name, points) in enumerate(series.items()):
        colour = QColor(colours[s % len(colours)])
        pts = [at(x, y) for x, y in points]
        p.setPen(QPen(colour, 2))
        for a, b in zip(pts, pts[1:]):
            p.drawLine(a, b)
        p.setBrush(colour)
        for pt in pts:
            p.drawEllipse(pt, 3, 3)
    p.setPen(QPen(QColor("#333333")))
    for x in x_ticks or []:
        p.drawText(QRectF(at(x, y_lo).x() - 20, plot.bottom() + 2, 40, 14), Qt.AlignmentFlag.AlignHCenter, f"{x:g}")
    p.drawText(QRectF(plot.left(), plot.bottom() + (16 if x_ticks else 2), plot.width(), 16), Qt.AlignmentFlag.AlignHCenter, x_label)
    _legend(p, list(series), plot.left(), plot.bottom() + (34 if x_ticks else 22), colours)
    p.end()
    return img


def line_chart(series: dict[str, list[float]], *, title: str, width: int = 560, height: int = 260, y_max: float = 1.0) -> QPixmap:
    """One line per series over its points (oldest first); a single point shows as a dot.
    The lines use the colours after the grey "before" one."""
    points = {name: list(enumerate(values)) for name, values in series.items()}
    img = xy_image(points, title=title, x_label="re-fits, oldest to newest", y_range=(0.0, y_max), colours=COLOURS[1:], width=width, height=height)
    return QPixmap.fromImage(img)
