"""Reviewing a long note in the real window: a decision changes exactly its finding, rapid
key presses all land, the selected finding sits in the middle of the view, detection shows
how far it is inside a long document, and the category cues survive colour blindness."""

from __future__ import annotations

import itertools
import math
import re

import pytest
from PySide6.QtCore import QItemSelectionModel, QPoint, QSize, Qt
from PySide6.QtGui import QColor, QFontMetrics, QTextFormat
from PySide6.QtTest import QTest

from deid_desktop.core.categories import Category
from deid_desktop.gui.document_view import Legend, underline_style
from deid_desktop.gui.findings import FindingsModel
from deid_desktop.gui.palette import CATEGORY_COLOURS, UNDECIDED_ALPHA, UNDERLINE_STYLES

from .conftest import wait_idle

pytestmark = pytest.mark.gui

PAGES = 12  # enough for a document taller than many screens, with hundreds of findings


def long_note(pages: int = PAGES, seed: int = 3) -> str:
    """Generated clinical notes (names, dates, IDs, contacts) joined to ``pages`` pages."""
    from deid_desktop.core.learn.synth import generate_corpus

    parts, size = [], 0
    for doc in generate_corpus(200, seed=seed, split="all"):
        parts.append(doc["text"])
        size += len(doc["text"])
        if size >= pages * 3000:
            break
    return "\n\n".join(parts)


@pytest.fixture
def long_doc(qtbot, window, workspace, tmp_path):
    path = tmp_path / "in" / "long_note.txt"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(long_note(), encoding="utf-8")
    window.import_paths([path])
    wait_idle(qtbot, window)
    (doc,) = workspace.list_documents()
    assert doc.n_spans >= 300
    window.open_document(doc.id)
    window.pane.text_view.setFocus()
    return doc.id


def drawn_states(view) -> dict[tuple[int, int], str]:
    """(start, end) of every highlight in the text view -> the decision look drawn."""
    out = {}
    for sel in view.extraSelections():
        c = sel.cursor
        key = (view.positions.to_text(c.selectionStart()), view.positions.to_text(c.selectionEnd()))
        out[key] = sel.format.property(QTextFormat.Property.UserProperty)
    return out


def table_states(model: FindingsModel) -> dict[int, str]:
    return {r.span.id: r.display[FindingsModel.DECISION] for r in model.rows}


def test_an_accept_in_a_long_note_changes_that_finding_alone(window, workspace, long_doc, monkeypatch):
    view, c = window.pane.text_view, window.controller
    drawn_before, table_before = drawn_states(view), table_states(window.findings.model)
    target = c.current
    assert target.state == "undecided"
    # A decision re-reads the finding it changed, not the document's thousands of findings.
    reads = []
    original = type(workspace).list_spans
    monkeypatch.setattr(type(workspace), "list_spans", lambda ws, doc_id: reads.append(doc_id) or original(ws, doc_id))

    QTest.keyClick(view, Qt.Key.Key_A)

    assert reads == []
    spans = {s.id: s for s in workspace.list_spans(long_doc)}
    assert spans[target.id].state == "accepted"
    drawn_after, table_after = drawn_states(view), table_states(window.findings.model)
    key = (target.start, target.end)
    assert drawn_before[key] == "undecided" and drawn_after[key] == "accepted"
    _, _, fmt = view.highlight_at(target.start)
    assert fmt.background().color() == QColor(CATEGORY_COLOURS[target.category])  # solid fill
    assert {k: v for k, v in drawn_after.items() if k != key} == {k: v for k, v in drawn_before.items() if k != key}
    assert table_after[target.id] == "accepted"
    assert {k: v for k, v in table_after.items() if k != target.id} == {k: v for k, v in table_before.items() if k != target.id}
    assert c.current_id != target.id and c.current.state == "undecided"  # moved on


def test_rapid_presses_in_a_long_note_all_land(window, workspace, long_doc):
    view, c = window.pane.text_view, window.controller
    presses = 30
    expected = []
    for _ in range(presses):
        expected.append(c.current_id)
        QTest.keyClick(view, Qt.Key.Key_A)  # no waiting between presses
    spans = workspace.list_spans(long_doc)
    assert {s.id for s in spans if s.state == "accepted"} == set(expected) and len(set(expected)) == presses
    # What the window shows agrees with the workspace, finding by finding.
    assert drawn_states(view) == {(s.start, s.end): s.state for s in spans}
    assert table_states(window.findings.model) == {s.id: s.state for s in spans}
    undecided = sum(s.state == "undecided" for s in spans)
    assert f"{undecided} undecided" in window.findings.counts.text()
    assert window.queue_model.rows[0].n_undecided == undecided


def _line_height(view) -> int:
    return QFontMetrics(view.font()).lineSpacing()


def _off_centre(view) -> float:
    return abs(view.cursorRect().center().y() - view.viewport().height() / 2)


def test_choosing_a_finding_far_down_centres_it(window, long_doc):
    view, c = window.pane.text_view, window.controller
    proxy, table = window.findings.proxy, window.findings.table
    row = proxy.rowCount() * 3 // 5  # far down, well before the document's end
    table.selectionModel().setCurrentIndex(
        proxy.index(row, 0), QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows
    )
    target = c.current
    assert target.id == proxy.index(row, 0).data(Qt.ItemDataRole.UserRole)
    assert view.positions.to_text(view.textCursor().position()) == target.start
    assert _off_centre(view) <= 2 * _line_height(view)


def test_j_centres_the_next_finding_even_when_it_was_already_in_view(window, long_doc):
    view, c = window.pane.text_view, window.controller
    # Two findings in a row, the second on a later line, half-way down the document.
    mid = len(c.spans) // 2
    i = next(i for i in range(mid, len(c.spans) - 1) if "\n" in c.text[c.spans[i].start : c.spans[i + 1].start])
    here, nxt = c.spans[i], c.spans[i + 1]
    c.select(here.id)
    # Scroll back until the next finding's line is near the bottom of the view.
    bar = view.verticalScrollBar()
    height = view.viewport().height()
    while True:
        rects = view.span_rects(nxt.start, nxt.end)
        if rects and rects[0].bottom() > height * 0.75 or bar.value() == bar.minimum():
            break
        bar.setValue(bar.value() - 1)
    rects = view.span_rects(nxt.start, nxt.end)
    assert rects and rects[0].bottom() <= height and rects[0].top() > height * 0.6  # visible, near the bottom
    QTest.keyClick(view, Qt.Key.Key_J)
    assert c.current_id == nxt.id
    assert _off_centre(view) <= 2 * _line_height(view)


def test_clicking_a_highlight_does_not_scroll_it_away(qtbot, window, long_doc):
    view, c = window.pane.text_view, window.controller
    c.select(c.spans[len(c.spans) // 3].id)
    height, line = view.viewport().height(), _line_height(view)
    # A finding wholly in view, not the selected one, and far enough from the middle that
    # centring it would move it by three lines or more. (The top fifth was asked for before:
    # whether a finding stands there depends on the generated note and the detectors.)
    target = next(
        s
        for s in c.spans
        if s.id != c.current_id
        and (r := view.span_rects(s.start, s.end))
        and 0 < r[0].top()
        and r[0].bottom() < height
        and abs(r[0].center().y() - height / 2) > 3 * line
    )
    rect = view.span_rects(target.start, target.end)[0]
    QTest.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, rect.center().toPoint())
    assert c.current_id == target.id
    assert view.span_rects(target.start, target.end)[0] == rect  # still under the mouse


# -- colour-vision deficiency ---------------------------------------------------------------

# Viénot, Brettel & Mollon (1999): deuteranopia in linear RGB.
DEUTERANOPIA = ((0.29031, 0.70969, 0.0), (0.29031, 0.70969, 0.0), (-0.02197, 0.02197, 1.0))
CONFUSABLE_DELTA_E = 20  # CIE76 distance under which two pale tints are hard to tell apart


def _linear(c: float) -> float:
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _lab(rgb_linear) -> tuple[float, float, float]:
    r, g, b = rgb_linear
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def deuteranope_sees(hex_colour: str, alpha: float = 1.0) -> tuple[float, float, float]:
    """CIELAB of ``hex_colour`` laid over white at ``alpha``, as a deuteranope sees it."""
    rgb = [alpha * int(hex_colour[i : i + 2], 16) / 255 + (1 - alpha) for i in (1, 3, 5)]
    lin = [_linear(c) for c in rgb]
    return _lab([sum(m * v for m, v in zip(row, lin)) for row in DEUTERANOPIA])


def confusable_pairs() -> list[tuple[Category, Category]]:
    seen = {c: deuteranope_sees(h, UNDECIDED_ALPHA / 255) for c, h in CATEGORY_COLOURS.items()}
    return [(a, b) for a, b in itertools.combinations(Category, 2) if math.dist(seen[a], seen[b]) < CONFUSABLE_DELTA_E]


def test_undecided_tints_that_merge_under_deuteranopia_have_different_underlines():
    pairs = confusable_pairs()
    # The merges reported: Name/Organisation/ID, Location/Age, Date/Contact.
    for a, b in [(Category.NAME, Category.ORGANIZATION), (Category.ORGANIZATION, Category.ID), (Category.AGE, Category.LOCATION), (Category.DATE, Category.CONTACT)]:
        assert (a, b) in pairs or (b, a) in pairs
    for a, b in pairs:
        assert underline_style(a) != underline_style(b), (a, b)
    looks = {(CATEGORY_COLOURS[c], underline_style(c)) for c in Category}
    assert len(looks) == len(Category)


def test_the_text_view_and_the_legend_show_each_category_s_underline(window, long_doc):
    view, c = window.pane.text_view, window.controller
    for cat in Category:
        s = next((s for s in c.spans if s.category == cat and s.state == "undecided"), None)
        if s is not None:
            _, _, fmt = view.highlight_at(s.start)
            assert fmt.underlineStyle() == underline_style(cat)
    accepted = next(s for s in c.spans if s.state == "undecided")
    c.select(accepted.id)
    QTest.keyClick(view, Qt.Key.Key_A)
    _, _, fmt = view.highlight_at(accepted.start)
    assert fmt.underlineStyle() == fmt.UnderlineStyle.NoUnderline  # accepted: the solid fill alone

    # The legend draws the same cue under each category's label: chips of categories whose
    # tints merge show different underline patterns.
    legend = Legend()
    legend.resize(QSize(1400, legend.heightForWidth(1400)))
    image = legend.grab().toImage()
    marks = {}
    for cat, rect in legend.category_rects().items():
        fill = QColor(CATEGORY_COLOURS[cat])
        y0 = int(legend.cue_y(rect)) - 3
        rows = []
        for y in range(y0, y0 + 6):
            row = ""
            for x in range(int(rect.left()) + 6, int(rect.right()) - 6):
                px = image.pixelColor(x, y)
                far = abs(px.red() - fill.red()) + abs(px.green() - fill.green()) + abs(px.blue() - fill.blue())
                row += "#" if far > 120 else "."
            rows.append(row[:40])
        marks[cat] = "\n".join(rows)
        assert "#" in marks[cat], cat  # a cue is drawn
    for a, b in confusable_pairs():
        assert UNDERLINE_STYLES[a] != UNDERLINE_STYLES[b] and marks[a] != marks[b], (a, b)


# -- queue ----------------------------------------------------------------------------------


def test_a_long_document_name_keeps_its_start_and_extension_in_the_queue(qtbot, window, workspace, tmp_path):
    from .samples import write_txt

    name = "discharge_summary_cardiology_ward_7_second_admission_after_readmission_review.txt"
    write_txt(tmp_path / "in" / name)
    window.import_paths([tmp_path / "in" / name])
    wait_idle(qtbot, window)
    table = window.queue.table
    assert table.textElideMode() == Qt.TextElideMode.ElideMiddle
    width = table.columnWidth(0) - 12
    fm = QFontMetrics(table.font())
    assert fm.horizontalAdvance(name) > width  # the name does not fit: it is elided
    shown = fm.elidedText(name, table.textElideMode(), width)
    head, tail = shown.split("…")
    assert head and tail and name.startswith(head) and name.endswith(tail)  # its start and its end stay visible
    index = window.queue.proxy.index(0, 0)
    assert name in index.data(Qt.ItemDataRole.ToolTipRole)  # the whole name on hover


# -- detection progress -----------------------------------------------------------------------


def test_detection_shows_progress_inside_a_long_document(qtbot, workspace, settings, tmp_path):
    from deid_desktop.core.models.tiny import build_tiny_model
    from deid_desktop.gui.main_window import MainWindow

    model = build_tiny_model(tmp_path / "tiny-model", hidden=32, layers=1, heads=2)
    config = tmp_path / "ensemble.toml"
    config.write_text(
        '[ensemble]\nstrategy = "union"\n\n[[member]]\nname = "rules"\ntype = "rules"\n\n'
        f'[[member]]\nname = "tiny"\ntype = "transformer"\nmodel = "{model}"\nquantize = false\nbatch_size = 2\n',
        encoding="utf-8",
    )
    note = tmp_path / "in" / "long.txt"
    note.parent.mkdir(parents=True)
    note.write_text(
        "\n".join(f"Visit {i}: seen by Dr Okafor on 03/{i % 28 + 1:02d}/2021, plan number {i} agreed." for i in range(40)),
        encoding="utf-8",
    )
    w = MainWindow(workspace, settings, ensemble_config=str(config))
    qtbot.addWidget(w)
    w.show()
    shown: list[tuple[int, str]] = []
    w.progress.valueChanged.connect(lambda v: shown.append((v, w.progress.text())))
    w.import_paths([note])
    wait_idle(qtbot, w, timeout=120_000)
    within = [
        (v, int(m.group(1)))
        for v, text in shown
        if (m := re.match(r"Detecting document 1 of 1: (\d+) %", text))
    ]
    percents = [p for _, p in within]
    assert any(0 < p < 100 for p in percents), shown  # moved inside the document, not only at its end
    assert len(set(percents)) >= 3
    assert percents == sorted(percents)
    assert [v for v, _ in within] == sorted(v for v, _ in within)
    w.close()


def _column(table, col: int) -> list:
    proxy = table.model()
    return [proxy.index(r, col).data(Qt.ItemDataRole.UserRole + 1) for r in range(proxy.rowCount())]


def test_sorting_the_findings_by_a_column_keeps_the_order_and_the_selected_finding(window, long_doc):
    findings, c = window.findings, window.controller
    table, header = findings.table, findings.table.horizontalHeader()
    assert _column(table, FindingsModel.POSITION) == sorted(_column(table, FindingsModel.POSITION))
    chosen = c.spans[len(c.spans) // 3]
    c.select(chosen.id)
    at = QPoint(header.sectionViewportPosition(FindingsModel.SCORE) + header.sectionSize(FindingsModel.SCORE) // 2, header.height() // 2)
    QTest.mouseClick(header.viewport(), Qt.MouseButton.LeftButton, pos=at)  # a click on "Score"
    if header.sortIndicatorOrder() != Qt.SortOrder.DescendingOrder:
        QTest.mouseClick(header.viewport(), Qt.MouseButton.LeftButton, pos=at)
    scores = _column(table, FindingsModel.SCORE)
    assert scores == sorted(scores, reverse=True) and len(scores) == len(c.spans)
    # the selection followed its finding to its new row
    current = table.selectionModel().currentIndex()
    assert current.data(Qt.ItemDataRole.UserRole) == chosen.id
    # a decision leaves the row where it is; the spans reloaded keep the chosen order
    row = current.row()
    QTest.keyClick(window.pane.text_view, Qt.Key.Key_R)
    assert table.model().index(row, 0).data(Qt.ItemDataRole.UserRole) == chosen.id
    findings.set_spans(list(reversed(c.spans)), c.text)
    assert _column(table, FindingsModel.SCORE) == sorted(scores, reverse=True)
