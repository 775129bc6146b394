"""The findings panel (right dock): the spans of the open document, sortable, in step with
the selected finding of the text view.

A long document has thousands of findings, so each row's cells are computed once when the
spans change, and a decision that changes a few rows updates only those rows.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QAbstractTableModel, QItemSelectionModel, QModelIndex, QSortFilterProxyModel, Qt, Signal
from PySide6.QtGui import QAction, QBrush, QColor, QFont, QFontMetrics
from PySide6.QtWidgets import QAbstractItemView, QDockWidget, QHeaderView, QLabel, QMenu, QTableView, QVBoxLayout, QWidget

from .palette import CATEGORY_COLOURS, CATEGORY_LABELS, KEY_FOR_CATEGORY, REJECTED_TEXT

ID_ROLE = Qt.ItemDataRole.UserRole
SORT_ROLE = Qt.ItemDataRole.UserRole + 1

DECISION_LABELS = {"undecided": "undecided", "accepted": "accepted", "rejected": "rejected", "added": "added"}
DECISION_ORDER = {"undecided": 0, "accepted": 1, "added": 2, "rejected": 3}
CONTEXT_WORDS = 4  # words either side of a finding in its Text tooltip
TEXT_COLUMN_CHARS = 36  # the Text column grows to its longest finding, up to about this many characters


def context_of(text: str, start: int, end: int, words: int = CONTEXT_WORDS) -> str:
    """The finding between a few words either side, on one line — enough to judge it
    without looking away from the table."""
    before = text[max(0, start - 200) : start].split()[-words:] if words else []
    after = text[end : end + 200].split()[:words] if words else []
    lead = "… " if start > 0 and len(text[:start].split()) > len(before) else ""
    tail = " …" if len(text[end:].split()) > len(after) else ""
    found = " ".join(text[start:end].split())
    return f"{lead}{' '.join(before)} «{found}» {' '.join(after)}{tail}".replace("  ", " ").strip()


def found_by(s) -> str:
    if s.source == "reviewer" and not s.members:
        return "reviewer"
    return ", ".join(s.members) if s.members else s.source


@dataclass(frozen=True, slots=True)
class FindingRow:
    span: object  # SpanRow
    display: tuple
    sort: tuple
    tooltip: str

    @classmethod
    def of(cls, s) -> "FindingRow":
        members = found_by(s)
        decision = DECISION_LABELS.get(s.state, s.state)
        return cls(
            span=s,
            display=(CATEGORY_LABELS[s.category], " ".join(s.text.split()), members, f"{s.score:.2f}", decision, s.start),
            sort=(s.category.value, s.text.casefold(), members, s.score, DECISION_ORDER.get(s.state, 9), s.start),
            tooltip=(
                f"{CATEGORY_LABELS[s.category]} ({s.fine.lower()}, key {KEY_FOR_CATEGORY[s.category]}), found by {members}, "
                f"score {s.score:.2f}, {decision}; characters {s.start}–{s.end}"
            ),
        )


class FindingsModel(QAbstractTableModel):
    CATEGORY, TEXT, MEMBERS, SCORE, DECISION, POSITION = range(6)
    HEADERS = ("Category", "Text", "Found by", "Score", "Decision", "Position")

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[FindingRow] = []
        self._row_of: dict[int, int] = {}
        self._order = (self.POSITION, Qt.SortOrder.AscendingOrder)  # what the rows are sorted by
        self.text = ""  # the document's text, for the context in the Text tooltip
        self._strike = QFont()
        self._strike.setStrikeOut(True)
        self._grey = QBrush(QColor(REJECTED_TEXT))
        self._colours = {c: QColor(v) for c, v in CATEGORY_COLOURS.items()}

    @property
    def spans(self) -> list:
        return [r.span for r in self.rows]

    def set_spans(self, spans, text: str | None = None) -> None:
        spans = list(spans)
        if text is not None:
            self.text = text
        if [s.id for s in spans] == [r.span.id for r in self.rows]:
            # Same findings, some decided differently: update those rows in place, which keeps
            # the selection and the sort and costs nothing for the thousands that stayed.
            for i, s in enumerate(spans):
                if s != self.rows[i].span:
                    self.rows[i] = FindingRow.of(s)
                    self.dataChanged.emit(self.index(i, 0), self.index(i, len(self.HEADERS) - 1))
            return
        self.beginResetModel()
        self.rows = self._sorted([FindingRow.of(s) for s in spans])
        self._row_of = {r.span.id: i for i, r in enumerate(self.rows)}
        self.endResetModel()

    def _sorted(self, rows: list[FindingRow]) -> list[FindingRow]:
        column, order = self._order
        return sorted(rows, key=lambda r: r.sort[column], reverse=order == Qt.SortOrder.DescendingOrder)

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        """Sorted here, by one key per row: a sorting proxy compares rows pairwise through
        ``data()``, which for 1,918 findings held the window for a third of a second each
        time a document opened (benchmarks/gui_responsiveness.py). A decided row keeps its
        place until the table is sorted again, so it does not jump away from the reviewer."""
        if not 0 <= column < len(self.HEADERS):
            return
        self._order = (column, order)
        self.layoutAboutToBeChanged.emit()
        persistent = self.persistentIndexList()
        ids = [self.rows[p.row()].span.id if p.row() < len(self.rows) else None for p in persistent]
        self.rows = self._sorted(self.rows)
        self._row_of = {r.span.id: i for i, r in enumerate(self.rows)}
        moved = [self.index(self._row_of[i], p.column()) if i in self._row_of else QModelIndex() for i, p in zip(ids, persistent)]
        self.changePersistentIndexList(persistent, moved)
        self.layoutChanged.emit()

    def update_spans(self, changed) -> None:
        """Rows of findings decided in place: each changes alone (one dataChanged per row)."""
        last = len(self.HEADERS) - 1
        for s in changed:
            i = self._row_of.get(s.id)
            if i is not None and s != self.rows[i].span:
                self.rows[i] = FindingRow.of(s)
                self.dataChanged.emit(self.index(i, 0), self.index(i, last))

    def row_of(self, span_id: int) -> int | None:
        return self._row_of.get(span_id)

    def rowCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.HEADERS)

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return self.HEADERS[section]
        return None

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        row, col = self.rows[index.row()], index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return row.display[col]
        if role == SORT_ROLE:
            return row.sort[col]
        if role == ID_ROLE:
            return row.span.id
        rejected = row.span.state == "rejected"
        if role == Qt.ItemDataRole.DecorationRole and col == self.CATEGORY:
            return self._colours[row.span.category]
        if role == Qt.ItemDataRole.ForegroundRole and rejected:
            return self._grey
        if role == Qt.ItemDataRole.FontRole and rejected and col == self.TEXT:
            return self._strike
        if role == Qt.ItemDataRole.TextAlignmentRole and col in (self.SCORE, self.POSITION):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.ToolTipRole:
            if col == self.TEXT and self.text:
                # Computed on hover only: thousands of rows would otherwise pay for it up front.
                return f"{context_of(self.text, row.span.start, row.span.end)}\n{row.tooltip}"
            return row.tooltip
        return None


class SortInSource(QSortFilterProxyModel):
    """Passes sorting to the source model (``FindingsModel.sort``) and keeps its order."""

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        self.sourceModel().sort(column, order)


class FindingsDock(QDockWidget):
    finding_chosen = Signal(int)
    # context-menu intents on a row (span id); the window turns them into review actions
    never_flag_requested = Signal(int)
    never_flag_subject_requested = Signal(int)
    always_flag_requested = Signal(int)

    def __init__(self, parent=None) -> None:
        super().__init__("Findings", parent)
        self.setObjectName("findingsDock")
        self.model = FindingsModel()
        self.proxy = SortInSource()
        self.proxy.setSourceModel(self.model)
        self.table = QTableView()
        self.table.setObjectName("findingsTable")
        self.table.setModel(self.proxy)
        self.table.setSortingEnabled(True)
        self.table.sortByColumn(FindingsModel.POSITION, Qt.SortOrder.AscendingOrder)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().hide()
        # Uniform row heights: the view never measures thousands of rows.
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.table.verticalHeader().setDefaultSectionSize(QFontMetrics(self.table.font()).height() + 8)
        self.table.setWordWrap(False)
        self.table.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.table.setTextElideMode(Qt.TextElideMode.ElideRight)
        self._size_columns()
        self.table.setColumnHidden(FindingsModel.POSITION, True)
        self.counts = QLabel()
        self.counts.setObjectName("findingsCounts")
        body = QWidget()
        lay = QVBoxLayout(body)
        lay.setContentsMargins(4, 4, 4, 4)
        lay.addWidget(self.counts)
        lay.addWidget(self.table)
        self.setWidget(body)
        self.table.selectionModel().currentRowChanged.connect(self._current_changed)
        self.table.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.table.customContextMenuRequested.connect(self._context_menu)
        self._suppress = False

    def _size_columns(self) -> None:
        """Compact columns from the font, the Text column as wide as its longest finding
        (within reason), and "Found by" last, taking what is left: the text under review is
        the point of the table, so it is never the column that gets squeezed."""
        h = self.table.horizontalHeader()
        fm = QFontMetrics(self.table.font())
        pad = 14
        # Fixed widths from the font, never "resize to contents", which measures every cell.
        widths = {
            FindingsModel.CATEGORY: fm.horizontalAdvance("Organisation") + 30,
            FindingsModel.TEXT: fm.horizontalAdvance("Text") + pad,
            FindingsModel.SCORE: fm.horizontalAdvance("Score") + pad,
            FindingsModel.DECISION: fm.horizontalAdvance("undecided") + pad,
            FindingsModel.POSITION: fm.horizontalAdvance("Position") + pad,
        }
        for c, w in widths.items():
            h.setSectionResizeMode(c, QHeaderView.ResizeMode.Interactive)
            h.resizeSection(c, w)
        h.moveSection(h.visualIndex(FindingsModel.MEMBERS), len(FindingsModel.HEADERS) - 1)
        h.setStretchLastSection(True)
        h.setMinimumSectionSize(fm.horizontalAdvance("Score") + 8)

    def _fit_text_column(self) -> None:
        """The Text column as wide as the longest finding's text, capped; longer ones are
        elided at their end and shown whole, with their context, in the tooltip."""
        fm = QFontMetrics(self.table.font())
        longest = max((fm.horizontalAdvance(r.display[FindingsModel.TEXT]) for r in self.model.rows), default=0)
        cap = fm.averageCharWidth() * TEXT_COLUMN_CHARS
        floor = fm.horizontalAdvance("Text") + 14
        self.table.horizontalHeader().resizeSection(FindingsModel.TEXT, max(floor, min(cap, longest + 14)))

    def set_spans(self, spans, text: str | None = None) -> None:
        """Show ``spans``; ``text`` is the document's text (for the context tooltips), given
        when a document is opened or its spans are reloaded."""
        reset = [s.id for s in spans] != [r.span.id for r in self.model.rows]
        self._suppress = True
        try:
            self.model.set_spans(spans, text)
        finally:
            self._suppress = False
        if reset:
            self._fit_text_column()
        self._count(spans)

    def update_spans(self, changed, spans) -> None:
        """``changed`` were decided in place; ``spans`` are all of them now (for the counts)."""
        self._suppress = True
        try:
            self.model.update_spans(changed)
        finally:
            self._suppress = False
        self._count(spans)

    def _count(self, spans) -> None:
        n = len(spans)
        undecided = sum(s.state == "undecided" for s in spans)
        rejected = sum(s.state == "rejected" for s in spans)
        self.counts.setText(f"{n} findings · {undecided} undecided · {rejected} rejected" if n else "No findings")

    def select_span(self, span_id: int) -> None:
        i = self.model.row_of(span_id) if span_id >= 0 else None
        self._suppress = True
        try:
            if i is None:
                self.table.clearSelection()
                return
            idx = self.proxy.mapFromSource(self.model.index(i, 0))
            self.table.selectionModel().setCurrentIndex(
                idx, QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows
            )
            self.table.scrollTo(idx)
        finally:
            self._suppress = False

    def span_id_at(self, pos) -> int | None:
        idx = self.table.indexAt(pos)
        return int(idx.data(ID_ROLE)) if idx.isValid() else None

    def context_menu(self, span_id: int) -> QMenu:
        """The right-click menu of the row ``span_id`` (built apart from showing it, so the
        keyboard-free path can be driven the same way)."""
        menu = QMenu(self)
        menu.setToolTipsVisible(True)
        for text, tip, signal, keys in (
            (
                "Never flag this text again",
                "Reject this finding and add its text to the allow list of this workspace",
                self.never_flag_requested,
                "Shift+R",
            ),
            (
                "Never flag this text again for this subject",
                "Reject this finding and add its text to the allow list of this document's subject",
                self.never_flag_subject_requested,
                "Alt+Shift+R",
            ),
            (
                "Always flag this text",
                "Accept this finding and add its text, with its category, to the deny list of this workspace",
                self.always_flag_requested,
                "Alt+category key",
            ),
        ):
            action = QAction(text, menu)
            action.setToolTip(f"{tip} ({keys})")
            action.triggered.connect(lambda _=False, signal=signal: signal.emit(span_id))
            menu.addAction(action)
        return menu

    def _context_menu(self, pos) -> None:
        span_id = self.span_id_at(pos)
        if span_id is None:
            return
        menu = self.context_menu(span_id)
        menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        menu.popup(self.table.viewport().mapToGlobal(pos))

    def _current_changed(self, current, _previous) -> None:
        if self._suppress or not current.isValid():
            return
        self.finding_chosen.emit(int(current.data(ID_ROLE)))
