"""Review → Findings across documents: one category or one text through the whole queue.

A keyword-in-context list (the text before each finding right-aligned, the finding bold in
the middle, the text after it) answers "is every NAME a name?" in one pass instead of one
document at a time. Decisions go through the review controller like the keys of the document
view, so each one is committed at once, is one step of the same undo stack, and the open
document is redrawn when it is affected.

It is a separate (non-modal) window rather than a dock: A, R and 1–8 mean "decide this row"
here and "decide the selected finding" in the review window, and the two sets of keys only
stay apart when they belong to different windows.
"""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import QAbstractTableModel, QModelIndex, Qt, QTimer, Signal
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetrics, QKeySequence, QAction
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QStyledItemDelegate,
    QTableView,
    QVBoxLayout,
)

from ..core.categories import CATEGORY_KEYS, Category, normalise_fine
from ..core.errors import DeidError
from ..core.store import DecisionAction
from ..core.store.across import findings_across
from ..core.usecases.review import PHI_STATES, Decide, DecideMany
from .fitting import usable_size
from .palette import CATEGORY_COLOURS, CATEGORY_LABELS, REJECTED_TEXT

MAX_ROWS = 5000  # more would be unreadable; the count line asks to narrow the filter
QUEUE, SUBJECT = "queue", "subject"
STATE_LABELS = {"undecided": "undecided", "accepted": "accepted", "rejected": "rejected", "added": "added"}


class AcrossModel(QAbstractTableModel):
    """Rows of :class:`FindingInContext`; a decision replaces only the rows it changed."""

    DOCUMENT, LEFT, FINDING, RIGHT, CATEGORY, SCORE, STATE = range(7)
    HEADERS = ("Document", "Before", "Finding", "After", "Category", "Score", "Decision")

    def __init__(self) -> None:
        super().__init__()
        self.rows: list = []
        self.names: dict[int, str] = {}
        self._bold = QFont()
        self._bold.setBold(True)

    def set_rows(self, rows: list, names: dict[int, str]) -> None:
        self.beginResetModel()
        self.rows, self.names = list(rows), dict(names)
        self.endResetModel()

    def row_of(self, span_id: int) -> int | None:
        return next((i for i, r in enumerate(self.rows) if r.span_id == span_id), None)

    def update(self, fresh: dict[int, object], gone: set[int]) -> None:
        """Take the re-read spans in ``fresh`` (span id → SpanRow) into their rows; drop the
        rows of spans in ``gone`` (replaced by a new detection run, or an undone addition)."""
        if gone:
            self.beginResetModel()
            self.rows = [r for r in self.rows if r.span_id not in gone]
        for i, r in enumerate(self.rows):
            s = fresh.get(r.span_id)
            if s is not None:
                self.rows[i] = replace(r, category=s.category, fine=s.fine, state=s.state, start=s.start, end=s.end, text=s.text)
                if not gone:
                    self.dataChanged.emit(self.index(i, 0), self.index(i, len(self.HEADERS) - 1))
        if gone:
            self.endResetModel()

    def rowCount(self, parent=QModelIndex()) -> int:  # noqa: N802 (Qt name)
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent=QModelIndex()) -> int:  # noqa: N802 (Qt name)
        return 0 if parent.isValid() else len(self.HEADERS)

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):  # noqa: N802 (Qt name)
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return self.HEADERS[section]
        return None

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        r, col = self.rows[index.row()], index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return (
                self.names.get(r.document_id, f"#{r.document_id}"),
                r.left,
                " ".join(r.text.split()),
                r.right,
                CATEGORY_LABELS[r.category],
                f"{r.score:.2f}",
                STATE_LABELS.get(r.state, r.state),
            )[col]
        if role == Qt.ItemDataRole.TextAlignmentRole:
            if col == self.LEFT:
                return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            if col == self.FINDING:
                return int(Qt.AlignmentFlag.AlignCenter)
            return int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.FontRole and col == self.FINDING:
            return self._bold
        if role == Qt.ItemDataRole.ForegroundRole:
            if r.state == "rejected":
                return QBrush(QColor(REJECTED_TEXT))
            if col == self.CATEGORY:
                return QBrush(QColor(CATEGORY_COLOURS[r.category]))
        return None


class _ElideLeft(QStyledItemDelegate):
    """The text before a finding loses its far end, not the words next to the finding."""

    def initStyleOption(self, option, index) -> None:  # noqa: N802 (Qt name)
        super().initStyleOption(option, index)
        option.textElideMode = Qt.TextElideMode.ElideLeft


class KwicTable(QTableView):
    """The list's keys: the same letters and digits as the document view."""

    decide = Signal(str)  # "accept", "reject", "open" or a category key "1".."8"

    def keyPressEvent(self, event) -> None:  # noqa: N802 (Qt name)
        mods = event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
        key, text = event.key(), event.text()
        if mods == Qt.KeyboardModifier.NoModifier:
            if key == Qt.Key.Key_A:
                self.decide.emit("accept")
                return
            if key in (Qt.Key.Key_R, Qt.Key.Key_Delete):
                self.decide.emit("reject")
                return
            if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
                self.decide.emit("open")
                return
            if text in CATEGORY_KEYS:
                self.decide.emit(text)
                return
        super().keyPressEvent(event)


class AcrossDialog(QDialog):
    """The list, its filters and its actions. ``window`` is the review window: its controller
    records the decisions and it opens a document on Enter."""

    def __init__(self, window) -> None:
        super().__init__(window)
        self.setObjectName("acrossDialog")
        self.setWindowTitle("Findings across documents")
        self._window = window
        self.controller = window.controller
        self.model = AcrossModel()
        self._listed_from = None  # the workspace the rows were read from
        self._build()
        self._debounce = QTimer(self)
        self._debounce.setSingleShot(True)
        self._debounce.setInterval(300)
        self._debounce.timeout.connect(self.refresh)
        self._connect()
        room = usable_size(self)
        self.resize(min(1000, room.width() - 40), min(560, room.height() - 60))

    # -- construction ----------------------------------------------------------------
    def _build(self) -> None:
        self.category = QComboBox()
        self.category.setObjectName("acrossCategory")
        self.category.addItem("All categories", None)
        for cat in Category:
            self.category.addItem(CATEGORY_LABELS[cat], cat)
        self.search = QLineEdit()
        self.search.setObjectName("acrossSearch")
        self.search.setPlaceholderText("Exact text (any case)")
        self.search.setClearButtonEnabled(True)
        self.scope = QComboBox()
        self.scope.setObjectName("acrossScope")
        self.scope.addItem("Whole queue", QUEUE)
        self.scope.addItem("Current subject", SUBJECT)
        self.undecided = QCheckBox("Undecided only")
        self.undecided.setObjectName("acrossUndecided")
        self.undecided.setChecked(True)
        bar = QHBoxLayout()
        for w in (QLabel("Category:"), self.category, self.search, QLabel("In:"), self.scope, self.undecided):
            bar.addWidget(w)

        self.table = KwicTable()
        self.table.setObjectName("acrossTable")
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setWordWrap(False)
        self.table.verticalHeader().hide()
        # Uniform row heights: the view never measures thousands of rows.
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        fm = QFontMetrics(self.table.font())
        self.table.verticalHeader().setDefaultSectionSize(fm.height() + 8)
        self.table.setItemDelegateForColumn(AcrossModel.LEFT, _ElideLeft(self.table))
        h = self.table.horizontalHeader()
        widths = {AcrossModel.DOCUMENT: 16, AcrossModel.LEFT: 30, AcrossModel.FINDING: 18, AcrossModel.CATEGORY: 11, AcrossModel.SCORE: 5, AcrossModel.STATE: 9}
        for col, chars in widths.items():
            h.setSectionResizeMode(col, QHeaderView.ResizeMode.Interactive)
            h.resizeSection(col, fm.averageCharWidth() * chars + 16)
        h.setSectionResizeMode(AcrossModel.RIGHT, QHeaderView.ResizeMode.Stretch)

        self.count = QLabel()
        self.count.setObjectName("acrossCount")
        self.note = QLabel("A accepts, R rejects, 1–8 relabel the selected row; Enter opens its document; Ctrl+Z undoes.")
        self.note.setObjectName("acrossNote")
        self.note.setWordWrap(True)
        self.status = QLabel()
        self.status.setObjectName("acrossStatus")
        self.status.setWordWrap(True)
        buttons = QHBoxLayout()
        self.accept_button = QPushButton("&Accept")
        self.reject_button = QPushButton("&Reject")
        self.identical_button = QPushButton("Accept all &identical")
        self.identical_button.setObjectName("acrossAcceptIdentical")
        self.identical_button.setToolTip("Accept every finding with exactly this text and category in the list's scope (one undo step)")
        self.open_button = QPushButton("&Open document")
        close = QPushButton("Close")
        close.clicked.connect(self.close)
        for b in (self.accept_button, self.reject_button, self.identical_button, self.open_button):
            b.setAutoDefault(False)
            buttons.addWidget(b)
        buttons.addStretch(1)
        close.setAutoDefault(False)
        buttons.addWidget(close)

        lay = QVBoxLayout(self)
        lay.addLayout(bar)
        lay.addWidget(self.count)
        lay.addWidget(self.table, 1)
        lay.addWidget(self.status)
        lay.addWidget(self.note)
        lay.addLayout(buttons)

        stack = self.controller.undo_stack
        for make, keys in ((stack.createUndoAction, ("Ctrl+Z",)), (stack.createRedoAction, ("Ctrl+Shift+Z", "Ctrl+Y"))):
            action: QAction = make(self)
            action.setShortcuts([QKeySequence(k) for k in keys])
            self.addAction(action)

    def _connect(self) -> None:
        self.category.currentIndexChanged.connect(lambda _i: self.refresh())
        self.scope.currentIndexChanged.connect(lambda _i: self.refresh())
        self.undecided.toggled.connect(lambda _on: self.refresh())
        self.search.textChanged.connect(lambda _t: self._debounce.start())
        self.search.returnPressed.connect(self.refresh)
        self.table.decide.connect(self._on_key)
        self.table.doubleClicked.connect(lambda _index: self.open_selected())
        self.accept_button.clicked.connect(lambda: self.decide_selected(DecisionAction.ACCEPT))
        self.reject_button.clicked.connect(lambda: self.decide_selected(DecisionAction.REJECT))
        self.identical_button.clicked.connect(self.accept_identical)
        self.open_button.clicked.connect(self.open_selected)
        self.controller.documents_changed.connect(self._on_documents_changed)
        self.controller.message.connect(self.status.setText)

    # -- listing --------------------------------------------------------------------------
    def _subject_scope(self) -> tuple[bool, int | None]:
        """(can list, subject id): the whole queue, or the open document's subject."""
        if self.scope.currentData() != SUBJECT:
            return True, None
        row = self.controller.row
        if row is None or row.subject_id is None:
            return False, None
        return True, row.subject_id

    def refresh(self) -> None:
        """List the findings the filters ask for, identical texts together."""
        self._debounce.stop()
        ok, subject_id = self._subject_scope()
        if not ok:
            self.model.set_rows([], {})
            self.count.setText("The open document has no subject: choose “Whole queue”, or open a document of a subject.")
            return
        ws = self._listed_from = self.controller.workspace
        text = self.search.text().strip() or None
        rows = findings_across(
            ws,
            category=self.category.currentData(),
            text=text,
            subject_id=subject_id,
            undecided_only=self.undecided.isChecked(),
            limit=MAX_ROWS + 1,
        )
        more = len(rows) > MAX_ROWS
        rows = sorted(rows[:MAX_ROWS], key=lambda r: (r.text.casefold(), r.text, r.document_id, r.start))
        names = {d.id: d.name for d in ws.list_documents(subject_id=subject_id)}
        self.model.set_rows(rows, names)
        docs = len({r.document_id for r in rows})
        tail = f" — the first {MAX_ROWS:,} only; narrow the filter to see the rest" if more else ""
        self.count.setText(f"{len(rows):,} finding(s) in {docs:,} document(s){tail}.")
        if rows:
            self.table.selectRow(0)

    def showEvent(self, event) -> None:  # noqa: N802 (Qt name)
        super().showEvent(event)
        self.refresh()
        self.table.setFocus()

    def _stale(self) -> bool:
        """The window switched workspaces since the list was read: its span ids would name
        findings of the wrong file, so it is read again instead."""
        if self._listed_from is self.controller.workspace:
            return False
        self.refresh()
        return True

    def selected(self):
        if self._stale():
            return None
        index = self.table.currentIndex()
        return self.model.rows[index.row()] if index.isValid() and index.row() < len(self.model.rows) else None

    def _select_row(self, row: int) -> None:
        if 0 <= row < len(self.model.rows):
            self.table.selectRow(row)
            self.table.scrollTo(self.model.index(row, AcrossModel.FINDING))

    def _on_documents_changed(self, ids: list) -> None:
        """A decision here, in the review window, or an undo: re-read the listed findings of
        those documents so each row shows its current decision."""
        if not self.isVisible() or self._stale():
            return
        wanted = {r.span_id for r in self.model.rows if r.document_id in set(ids)}
        if not wanted:
            return
        fresh = {s.id: s for s in self.controller.workspace.get_spans(wanted)}
        self.model.update(fresh, wanted - set(fresh))

    # -- decisions ------------------------------------------------------------------------
    def _on_key(self, what: str) -> None:
        if what == "accept":
            self.decide_selected(DecisionAction.ACCEPT)
        elif what == "reject":
            self.decide_selected(DecisionAction.REJECT)
        elif what == "open":
            self.open_selected()
        else:
            self.relabel_selected(CATEGORY_KEYS[what])

    def decide_selected(self, action: DecisionAction) -> None:
        """Accept or reject the selected row's finding (an unchanged decision just moves on)."""
        row = self.selected()
        if row is None:
            return
        already = row.state in PHI_STATES if action == DecisionAction.ACCEPT else row.state == "rejected"
        if not already:
            label = "Accept finding" if action == DecisionAction.ACCEPT else "Reject finding"
            if not self._decide(row, action, label):
                return
        self._select_row(self.table.currentIndex().row() + 1)

    def relabel_selected(self, category: Category) -> None:
        """As a category key in the document view: accept it if it already has that category,
        otherwise relabel it; then on to the next row."""
        row = self.selected()
        if row is None:
            return
        name = CATEGORY_LABELS[category]
        if row.category == category and row.state in PHI_STATES:
            self.controller.message.emit(f"Already accepted as {name}.")
            return
        if row.category == category:
            done = self._decide(row, DecisionAction.ACCEPT, f"Accept as {name}")
        else:
            done = self._decide(row, DecisionAction.RELABEL, f"Relabel as {name}", category=category, fine=normalise_fine(category, row.fine))
        if done:
            self._select_row(self.table.currentIndex().row() + 1)

    def _decide(self, row, action: DecisionAction, label: str, **kwargs) -> bool:
        c = self.controller
        return self._guarded(lambda: c.run_step(label, Decide(row.document_id, c.reviewer, row.span_id, action, options=kwargs)))

    def accept_identical(self) -> None:
        """Accept every finding with exactly the selected row's text and category in the
        list's scope (whatever the other filters), as one undo step with one batch id."""
        row = self.selected()
        if row is None:
            return
        ok, subject_id = self._subject_scope()
        if not ok:
            return
        c, text, category = self.controller, row.text, row.category
        where = "this subject" if subject_id is not None else "the queue"

        def targets(workspace) -> list[tuple[int, int]]:
            return [
                (r.document_id, r.span_id) for r in findings_across(workspace, category=category, text=text, subject_id=subject_id)
                if r.text == text and r.state not in PHI_STATES
            ]

        name = CATEGORY_LABELS[category]
        command = DecideMany(
            row.document_id, c.reviewer, targets=targets,
            summary=lambda n, docs: f"Accepted {n} identical {name} finding(s) in {len(docs)} document(s) of {where}.",
        )
        self._guarded(lambda: c.run_step(
            f"Accept all identical {name} ({where})", command,
            nothing=f"Nothing to change: every identical {name} finding in {where} is already accepted.",
        ))

    def open_selected(self) -> None:
        """Open the row's document in the review window with its finding selected."""
        row = self.selected()
        if row is None:
            return
        self._window.open_document(row.document_id)
        if self.controller.document_id != row.document_id:
            return  # it could not be opened; the window said why
        self.controller.select(row.span_id)
        self._window.raise_()
        self._window.activateWindow()

    def _guarded(self, fn) -> bool:
        try:
            return bool(fn())
        except DeidError as e:
            self.controller.message.emit(f"Could not decide: {e}")
            self.refresh()
            return False
