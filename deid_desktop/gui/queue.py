"""The document queue (left dock): every document of the workspace with its status,
counts and residual risk, filterable by status, subject and name, sortable (riskiest first
on request), with subject assignment."""

from __future__ import annotations

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QSortFilterProxyModel, Qt, Signal
from PySide6.QtGui import QAction, QBrush, QColor, QFontMetrics
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDockWidget,
    QHBoxLayout,
    QHeaderView,
    QInputDialog,
    QLineEdit,
    QMenu,
    QTableView,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from ..core.store import DocStatus
from ..core.store.risk import DocumentRisk, document_risks
from .export_state import changed_since_export, export_stamps

STATUS_LABELS: dict[DocStatus, str] = {
    DocStatus.IMPORTED: "imported",
    DocStatus.DETECTED: "detected",
    DocStatus.IN_REVIEW: "in review",
    DocStatus.REVIEWED: "reviewed",
    DocStatus.EXPORTED: "exported",
    DocStatus.ERROR: "error",
}
STATUS_HELP: dict[DocStatus, str] = {
    DocStatus.IMPORTED: "Imported; PHI detection has not run yet.",
    DocStatus.DETECTED: "PHI detected; not opened for review yet.",
    DocStatus.IN_REVIEW: "Opened for review.",
    DocStatus.REVIEWED: "Marked reviewed (Ctrl+Enter).",
    DocStatus.EXPORTED: "A de-identified copy has been exported.",
    DocStatus.ERROR: "The file could not be imported.",
}
STATUS_COLOURS: dict[DocStatus, str] = {
    DocStatus.REVIEWED: "#009E73",
    DocStatus.EXPORTED: "#0072B2",
    DocStatus.ERROR: "#B00020",
}
CHANGED_LABEL = "changed since export"
CHANGED_HELP = "Decisions changed after the last export: the exported copy is out of date. Export it again (Ctrl+E)."
CHANGED_COLOUR = "#D55E00"
# Work left first when sorting by status.
STATUS_ORDER = {s: i for i, s in enumerate((DocStatus.ERROR, DocStatus.IMPORTED, DocStatus.DETECTED, DocStatus.IN_REVIEW, DocStatus.REVIEWED, DocStatus.EXPORTED))}

ID_ROLE = Qt.ItemDataRole.UserRole
SORT_ROLE = Qt.ItemDataRole.UserRole + 1
NO_SUBJECT = "—"


class DocumentQueueModel(QAbstractTableModel):
    NAME, SUBJECT, STATUS, PHI, UNDECIDED, RISK = range(6)
    HEADERS = ("Document", "Subject", "Status", "PHI", "Open", "Risk")
    # PHI counts every finding still in the document (detected or added, rejected ones too:
    # the workspace counts them without a per-document query); Open counts the undecided.
    TOOLTIPS = (
        "File name",
        "The patient or case the document belongs to: surrogates are consistent within a subject. Double-click to edit.",
        "Where the document is in the workflow",
        "PHI findings in the document, detected or added (rejected ones included)",
        "Open findings: not decided yet",
        "Residual risk: open findings, counting more where the detectors disagreed or were unsure, "
        "and a copy exported before later changes. Hover a document's risk for the reason.",
    )

    subject_edited = Signal(int, str)  # document id, new label

    def __init__(self, workspace=None) -> None:
        super().__init__()
        self._workspace = workspace
        self.rows: list = []
        self._stamps: dict[str, str] = {}  # export stamps (export_state)
        self._risks: dict[int, DocumentRisk] = {}
        # Risks are read only while the queue is ordered by them: they cost a query per
        # decision (a quarter of a decision's time in a long note), for a column not shown.
        self.risks_wanted = False

    @property
    def workspace(self):
        return self._workspace

    def set_workspace(self, workspace) -> None:
        self._workspace = workspace
        self.refresh()

    def refresh(self) -> None:
        self.beginResetModel()
        self.rows = list(self._workspace.list_documents()) if self._workspace is not None else []
        self._stamps = export_stamps(self._workspace) if self._workspace is not None else {}
        self._risks = self._read_risks(self.rows, every=True)
        self.endResetModel()

    def is_changed_since_export(self, row) -> bool:
        return changed_since_export(row, self._stamps)

    def want_risks(self, on: bool) -> None:
        """Start (reading every document's risk now) or stop keeping the risks."""
        if on == self.risks_wanted:
            return
        self.risks_wanted = on
        self._risks = self._read_risks(self.rows, every=True) if on else {}
        if self.rows:
            self.dataChanged.emit(self.index(0, self.RISK), self.index(len(self.rows) - 1, self.RISK))

    def _read_risks(self, rows, *, every: bool = False) -> dict[int, DocumentRisk]:
        """The risks of ``rows`` in one query (of the whole workspace when ``every``)."""
        if self._workspace is None or not self.risks_wanted:
            return {}
        stale = [r.id for r in rows if self.is_changed_since_export(r)]
        return document_risks(self._workspace, None if every else [r.id for r in rows], changed_since_export=stale)

    def update_documents(self, ids) -> None:
        """Re-read the given documents (new ones are appended)."""
        if not ids:
            return
        self._stamps = export_stamps(self._workspace)
        fresh = [self._workspace.get_document(doc_id) for doc_id in ids]
        # Risks first: an inserted or changed row is sorted by them as soon as it is announced.
        self._risks.update(self._read_risks(fresh))
        for row in fresh:
            i = self.row_of(row.id)
            if i is None:
                self.beginInsertRows(QModelIndex(), len(self.rows), len(self.rows))
                self.rows.append(row)
                self.endInsertRows()
            else:
                self.rows[i] = row
                self.dataChanged.emit(self.index(i, 0), self.index(i, len(self.HEADERS) - 1))

    def row_of(self, doc_id: int) -> int | None:
        return next((i for i, r in enumerate(self.rows) if r.id == doc_id), None)

    # -- Qt model interface ------------------------------------------------------------
    def rowCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.HEADERS)

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):
        if orientation != Qt.Orientation.Horizontal:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return self.HEADERS[section]
        if role == Qt.ItemDataRole.ToolTipRole:
            return self.TOOLTIPS[section]
        return None

    def _phi_count(self, r) -> int:
        return r.n_spans

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        r, col = self.rows[index.row()], index.column()
        status = DocStatus(r.status)
        if role == ID_ROLE:
            return r.id
        if col == self.RISK and role in (Qt.ItemDataRole.DisplayRole, SORT_ROLE, Qt.ItemDataRole.ToolTipRole):
            return self._risk_data(r.id, role)
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.EditRole):
            if col == self.NAME:
                return r.name + (f"  (v{r.version})" if r.version and r.version > 1 and role == Qt.ItemDataRole.DisplayRole else "")
            if col == self.SUBJECT:
                return r.subject_label or (NO_SUBJECT if role == Qt.ItemDataRole.DisplayRole else "")
            if col == self.STATUS:
                return CHANGED_LABEL if self.is_changed_since_export(r) else STATUS_LABELS[status]
            if status == DocStatus.ERROR or status == DocStatus.IMPORTED:
                return "" if role == Qt.ItemDataRole.DisplayRole else 0
            if col == self.PHI:
                return self._phi_count(r)
            if col == self.UNDECIDED:
                return r.n_undecided
        if role == SORT_ROLE:
            if col == self.STATUS:
                return STATUS_ORDER[status]
            if col == self.PHI:
                return self._phi_count(r)
            if col == self.UNDECIDED:
                return r.n_undecided
            return (self.data(index, Qt.ItemDataRole.EditRole) or "").lower()
        if role == Qt.ItemDataRole.ToolTipRole:
            if status == DocStatus.ERROR:
                return f"{r.name} could not be imported: {r.error_reason or r.error_code or 'unknown reason'}"
            if col == self.STATUS:
                return CHANGED_HELP if self.is_changed_since_export(r) else STATUS_HELP[status]
            return r.source_path or r.name
        if role == Qt.ItemDataRole.ForegroundRole and col == self.STATUS and self.is_changed_since_export(r):
            return QBrush(QColor(CHANGED_COLOUR))
        if role == Qt.ItemDataRole.ForegroundRole and col == self.STATUS and status in STATUS_COLOURS:
            return QBrush(QColor(STATUS_COLOURS[status]))
        if role == Qt.ItemDataRole.TextAlignmentRole and col in (self.PHI, self.UNDECIDED, self.RISK):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def _risk_data(self, doc_id: int, role):
        risk = self._risks.get(doc_id)
        if role == Qt.ItemDataRole.ToolTipRole:
            return risk.reason if risk is not None else None
        score = risk.score if risk is not None else None
        if role == SORT_ROLE:
            return -1.0 if score is None else score  # nothing to rank: below every score
        return "" if score is None else f"{score:.1f}".removesuffix(".0")

    def flags(self, index):
        f = super().flags(index)
        if index.isValid() and index.column() == self.SUBJECT:
            f |= Qt.ItemFlag.ItemIsEditable
        return f

    def setData(self, index, value, role=Qt.ItemDataRole.EditRole) -> bool:
        if role != Qt.ItemDataRole.EditRole or index.column() != self.SUBJECT:
            return False
        label = str(value or "").strip()
        r = self.rows[index.row()]
        if not label or label == (r.subject_label or ""):
            return False
        self._workspace.assign_subject(r.id, label)
        self.update_documents([r.id])
        self.subject_edited.emit(r.id, label)
        return True


class DocumentFilter(QSortFilterProxyModel):
    """Status, subject and name filters combined."""

    def __init__(self) -> None:
        super().__init__()
        self.status: DocStatus | None = None
        self.subject: str | None = None  # None: any; "": documents without a subject
        self.text = ""
        self.setSortRole(SORT_ROLE)
        self.setDynamicSortFilter(True)

    def set_filters(self, *, status=..., subject=..., text=...) -> None:
        self.beginFilterChange()
        if status is not ...:
            self.status = status
        if subject is not ...:
            self.subject = subject
        if text is not ...:
            self.text = text.strip().casefold()
        self.endFilterChange(QSortFilterProxyModel.Direction.Rows)

    def filterAcceptsRow(self, source_row: int, source_parent) -> bool:
        r = self.sourceModel().rows[source_row]
        if self.status is not None and DocStatus(r.status) != self.status:
            return False
        if self.subject is not None and (r.subject_label or "") != self.subject:
            return False
        return not self.text or self.text in (r.name or "").casefold()


class QueueDock(QDockWidget):
    document_chosen = Signal(int)
    redetect_requested = Signal(list)
    documents_removed = Signal(list)  # ids of failed imports taken off the queue
    subjects_changed = Signal()

    def __init__(self, model: DocumentQueueModel, parent=None, *, settings=None) -> None:
        super().__init__("Documents", parent)
        self.setObjectName("queueDock")
        self.model = model
        self._settings = settings  # AppSettings: remembers "Riskiest first"
        # The visible order when the reviewer last picked a document or changed the order;
        # Next and Previous walk it (see ``neighbour``).
        self._walk: list[int] = []
        self.proxy = DocumentFilter()
        self.proxy.setSourceModel(model)
        self.search = QLineEdit()
        self.search.setPlaceholderText("Filter by name…  (Ctrl+F)")
        self.search.setClearButtonEnabled(True)
        self.status_filter = QComboBox()
        self.status_filter.addItem("All statuses", None)
        for s, label in STATUS_LABELS.items():
            self.status_filter.addItem(label, s)
        self.status_filter.setToolTip("Show only documents with this status")
        self.subject_filter = QComboBox()
        self.subject_filter.setToolTip("Show only documents of this subject")
        self.riskiest_first = QToolButton()
        self.riskiest_first.setObjectName("riskiestFirst")
        self.riskiest_first.setText("Riskiest first")
        self.riskiest_first.setCheckable(True)
        self.riskiest_first.setToolTip(
            "Order the queue by residual risk, riskiest on top: open findings, counting more where "
            "the detectors disagreed or were unsure. Hover a document's Risk for the reason."
        )
        self.table = QTableView()
        self.table.setObjectName("queueTable")
        self.table.setModel(self.proxy)
        self.table.setSortingEnabled(True)
        self.table.sortByColumn(DocumentQueueModel.NAME, Qt.SortOrder.AscendingOrder)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.DoubleClicked | QAbstractItemView.EditTrigger.EditKeyPressed)
        self.table.verticalHeader().hide()
        self.table.setAlternatingRowColors(True)
        self.table.setWordWrap(False)
        self.table.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.table.setTextElideMode(Qt.TextElideMode.ElideMiddle)  # keeps the file extension visible
        h = self.table.horizontalHeader()
        h.setSectionResizeMode(DocumentQueueModel.NAME, QHeaderView.ResizeMode.Stretch)
        fm = QFontMetrics(self.table.font())
        # Widths from the font, never "resize to contents", which reads every row of a big queue.
        for c, sample in (
            (DocumentQueueModel.SUBJECT, "Subject"),
            (DocumentQueueModel.STATUS, "in review"),
            (DocumentQueueModel.PHI, "9999"),
            (DocumentQueueModel.UNDECIDED, "Open"),
            (DocumentQueueModel.RISK, "99.9"),
        ):
            h.setSectionResizeMode(c, QHeaderView.ResizeMode.Interactive)
            h.resizeSection(c, fm.horizontalAdvance(sample) + 18)
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.table.verticalHeader().setDefaultSectionSize(fm.height() + 8)
        self.table.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.table.customContextMenuRequested.connect(self._context_menu)
        self.table.selectionModel().currentRowChanged.connect(self._current_changed)

        top = QHBoxLayout()
        top.addWidget(self.search, 1)
        top.addWidget(self.riskiest_first)
        filters = QHBoxLayout()
        filters.addWidget(self.status_filter)
        filters.addWidget(self.subject_filter, 1)
        body = QWidget()
        lay = QVBoxLayout(body)
        lay.setContentsMargins(4, 4, 4, 4)
        lay.addLayout(top)
        lay.addLayout(filters)
        lay.addWidget(self.table)
        self.setWidget(body)

        self.search.textChanged.connect(lambda t: self.proxy.set_filters(text=t))
        self.status_filter.currentIndexChanged.connect(lambda _: self.proxy.set_filters(status=self.status_filter.currentData()))
        self.subject_filter.currentIndexChanged.connect(self._subject_filter_changed)
        model.modelReset.connect(self.refresh_subjects)
        model.subject_edited.connect(lambda *_: self._subjects_edited())
        self._suppress = False
        for changed in (self.search.textChanged, self.status_filter.currentIndexChanged, self.subject_filter.currentIndexChanged, h.sortIndicatorChanged):
            changed.connect(self._forget_walk)
        h.sortIndicatorChanged.connect(self._sort_changed)
        self.riskiest_first.toggled.connect(self.set_riskiest_first)
        if settings is not None and settings.queue_riskiest_first:
            self.set_riskiest_first(True)
        self._sort_changed()

    # -- order ----------------------------------------------------------------------------
    def set_riskiest_first(self, on: bool) -> None:
        """Riskiest first, or back to the name order; remembered for the next session."""
        if on:
            self.model.want_risks(True)  # before sorting by them
            self.table.sortByColumn(DocumentQueueModel.RISK, Qt.SortOrder.DescendingOrder)
        elif self.is_riskiest_first():
            self.table.sortByColumn(DocumentQueueModel.NAME, Qt.SortOrder.AscendingOrder)

    def is_riskiest_first(self) -> bool:
        h = self.table.horizontalHeader()
        return h.sortIndicatorSection() == DocumentQueueModel.RISK and h.sortIndicatorOrder() == Qt.SortOrder.DescendingOrder

    def _sort_changed(self, *_args) -> None:
        # A click on a column header is a choice of order too: the button follows it.
        on = self.is_riskiest_first()
        self.model.want_risks(on)
        self.riskiest_first.blockSignals(True)
        self.riskiest_first.setChecked(on)
        self.riskiest_first.blockSignals(False)
        # The dock has no room for both counts beside a readable name: in the risk order the
        # Risk column, which explains it, takes the PHI column's place.
        self.table.setColumnHidden(DocumentQueueModel.RISK, not on)
        self.table.setColumnHidden(DocumentQueueModel.PHI, on)
        if self._settings is not None and self._settings.queue_riskiest_first != on:
            self._settings.queue_riskiest_first = on

    def _forget_walk(self, *_args) -> None:
        self._walk = []

    # -- subjects -------------------------------------------------------------------------
    def refresh_subjects(self) -> None:
        current = self.subject_filter.currentData()
        labels = sorted({r.subject_label for r in self.model.rows if r.subject_label})
        self.subject_filter.blockSignals(True)
        self.subject_filter.clear()
        self.subject_filter.addItem("All subjects", None)
        self.subject_filter.addItem("No subject", "")
        for label in labels:
            self.subject_filter.addItem(label, label)
        i = self.subject_filter.findData(current)
        self.subject_filter.setCurrentIndex(max(0, i))
        self.subject_filter.blockSignals(False)
        # A column of dashes takes the room the document names need; it shows once a
        # document has a subject.
        self.table.setColumnHidden(DocumentQueueModel.SUBJECT, not labels)

    def _subject_filter_changed(self, _i: int) -> None:
        self.proxy.set_filters(subject=self.subject_filter.currentData())

    def _subjects_edited(self) -> None:
        self.refresh_subjects()
        self.subjects_changed.emit()

    def assign_subject(self, ids: list[int], label: str) -> None:
        ws = self.model._workspace
        for doc_id in ids:
            ws.assign_subject(doc_id, label)
        self.model.update_documents(ids)
        self._subjects_edited()

    # -- selection ------------------------------------------------------------------------
    def _current_changed(self, current, _previous) -> None:
        if self._suppress or not current.isValid():
            return
        self._walk = self.visible_ids()  # the order the reviewer picked it from
        self.document_chosen.emit(int(current.data(ID_ROLE)))

    def select_document(self, doc_id: int) -> None:
        """Show ``doc_id`` as current without re-opening it."""
        i = self.model.row_of(doc_id)
        if i is None:
            return
        idx = self.proxy.mapFromSource(self.model.index(i, 0))
        if not idx.isValid():
            return
        self._suppress = True
        try:
            self.table.selectionModel().setCurrentIndex(
                idx, self.table.selectionModel().SelectionFlag.ClearAndSelect | self.table.selectionModel().SelectionFlag.Rows
            )
            self.table.scrollTo(idx)
        finally:
            self._suppress = False

    def selected_ids(self) -> list[int]:
        rows = self.table.selectionModel().selectedRows()
        return [int(i.data(ID_ROLE)) for i in rows]

    def visible_ids(self) -> list[int]:
        return [int(self.proxy.index(r, 0).data(ID_ROLE)) for r in range(self.proxy.rowCount())]

    def neighbour(self, doc_id: int | None, step: int) -> int | None:
        """The document after (step +1) or before (-1) ``doc_id`` in the queue.

        Sorted by risk or status, the open document moves while it is reviewed (accepting
        its findings lowers its risk; opening it makes it "in review"), so the live order
        would skip the documents it passed. Next and Previous therefore walk the order the
        reviewer last saw before choosing a document or an order, with documents that have
        since appeared added at its end and those now filtered out left out.
        """
        live = self.visible_ids()
        if not live:
            return None
        if doc_id not in self._walk:
            self._walk = live
        shown = set(live)
        ids = [i for i in self._walk if i in shown or i == doc_id]
        walked = set(ids)
        ids += [i for i in live if i not in walked]
        if doc_id not in walked:
            return ids[0]
        i = ids.index(doc_id) + step
        return ids[i] if 0 <= i < len(ids) else None

    def _context_menu(self, pos) -> None:
        ids = self.selected_ids()
        if not ids:
            return
        menu = QMenu(self)
        assign = QAction(f"Assign {len(ids)} document(s) to subject…", menu)
        assign.triggered.connect(lambda: self._ask_subject(ids))
        menu.addAction(assign)
        existing = sorted({r.subject_label for r in self.model.rows if r.subject_label})
        if existing:
            sub = menu.addMenu("Assign to existing subject")
            for label in existing:
                a = sub.addAction(label)
                a.triggered.connect(lambda _=False, label=label: self.assign_subject(ids, label))
        detect = QAction("Detect PHI again", menu)
        detect.setToolTip("Run the detector again; your decisions are kept.")
        detect.triggered.connect(lambda: self.redetect_requested.emit(ids))
        menu.addAction(detect)
        failed = self.failed_among(ids)
        if failed:
            remove = QAction(f"Remove {len(failed)} file(s) that could not be imported", menu)
            remove.setObjectName("removeFailed")
            remove.setToolTip("Take them off the queue; the files themselves are not touched.")
            remove.triggered.connect(lambda: self.remove_failed(failed))
            menu.addAction(remove)
        menu.popup(self.table.viewport().mapToGlobal(pos))
        self.context_menu = menu

    def failed_among(self, ids: list[int]) -> list[int]:
        errors = {r.id for r in self.model.rows if DocStatus(r.status) == DocStatus.ERROR}
        return [i for i in ids if i in errors]

    def remove_failed(self, ids: list[int]) -> None:
        """Forget failed imports (only those): nothing of theirs is left to review or export."""
        ids = self.failed_among(ids)
        for doc_id in ids:
            self.model.workspace.remove_failed_import(doc_id)
        if ids:
            self.model.refresh()
            self.documents_removed.emit(ids)

    def _ask_subject(self, ids: list[int]) -> None:
        label, ok = QInputDialog.getText(self, "Assign subject", "Subject (patient or case identifier):")
        if ok and label.strip():
            self.assign_subject(ids, label.strip())
