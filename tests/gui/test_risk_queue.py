"""The queue's "Riskiest first" order: riskiest document on top with its reason, re-ranked
as decisions are made, remembered across sessions, and walked in order by Next."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest

from deid_desktop.core.categories import Category
from deid_desktop.core.documents.model import Document
from deid_desktop.core.spans import Span
from deid_desktop.gui.queue import DocumentQueueModel

from .conftest import RULES_ONLY, wait_idle

pytestmark = pytest.mark.gui

MEMBERS = {"rules": "r1", "minilm-balanced": "m1", "minilm-imbalanced": "m2"}
ALL = tuple(MEMBERS)
TEXT = "Seen by Dr Ann Lee at Leeds General on 2020-03-04 with Mary Fox, phone 0113 496 0000."
NAME, OTHER, PHONE = (11, 18), (55, 63), (71, 84)


def _import(ws, name: str, spans: list[tuple[tuple[int, int], float, tuple[str, ...]]]) -> int:
    text = f"{TEXT} Copy {name}."
    doc = Document(text=text, format="txt", path=f"/data/{name}.txt", source_bytes=text.encode())
    doc_id = ws.import_document(doc, source_path=f"/data/{name}.txt").document_id
    run = ws.start_detection_run(config={"ensemble": {"threshold": 0.5}}, model_versions=MEMBERS, device="cpu")
    ws.save_detections(doc_id, run, [Span(a, b, Category.NAME, score=s, source=m[0], members=m) for (a, b), s, m in spans])
    return doc_id


@pytest.fixture
def cohort(workspace):
    """Three documents whose order by name (a, b, c) is the reverse of their risk."""
    calm = _import(workspace, "a-calm", [(NAME, 1.0, ALL)])
    middling = _import(workspace, "b-middling", [(NAME, 0.9, ALL), (OTHER, 0.9, ("rules",))])
    risky = _import(workspace, "c-risky", [(NAME, 0.52, ("rules",)), (OTHER, 0.55, ("minilm-balanced",)), (PHONE, 0.6, ALL)])
    return {"calm": calm, "middling": middling, "risky": risky}


def _open_window(qtbot, workspace, settings):
    from deid_desktop.gui.main_window import MainWindow

    w = MainWindow(workspace, settings, ensemble_config=RULES_ONLY, restore_layout=False)
    qtbot.addWidget(w)
    w.show()
    qtbot.waitExposed(w)
    wait_idle(qtbot, w)
    return w


def _column(window, col: int, role=Qt.ItemDataRole.DisplayRole) -> list:
    proxy = window.queue.proxy
    return [proxy.index(r, col).data(role) for r in range(proxy.rowCount())]


def test_riskiest_first_puts_the_riskiest_on_top_with_its_reason_and_reranks_after_decisions(qtbot, workspace, settings, cohort):
    window = _open_window(qtbot, workspace, settings)
    try:
        queue = window.queue
        assert queue.visible_ids() == [cohort["calm"], cohort["middling"], cohort["risky"]]  # by name
        assert queue.table.isColumnHidden(DocumentQueueModel.RISK)
        queue.riskiest_first.click()
        assert queue.visible_ids() == [cohort["risky"], cohort["middling"], cohort["calm"]]
        # the Risk column shows, in the PHI column's place
        assert not queue.table.isColumnHidden(DocumentQueueModel.RISK)
        assert queue.table.isColumnHidden(DocumentQueueModel.PHI)
        reasons = _column(window, DocumentQueueModel.RISK, Qt.ItemDataRole.ToolTipRole)
        assert reasons[0] == "3 open findings, 2 where the detectors disagree, 3 low-confidence"
        assert reasons[2] == "1 open finding"
        scores = [float(s) for s in _column(window, DocumentQueueModel.RISK)]
        assert scores == sorted(scores, reverse=True) and scores[-1] > 0

        window.open_document(cohort["risky"])
        window.controller.accept_remaining()
        assert queue.visible_ids() == [cohort["middling"], cohort["calm"], cohort["risky"]]
        assert _column(window, DocumentQueueModel.RISK)[-1] == "0"
        assert _column(window, DocumentQueueModel.RISK, Qt.ItemDataRole.ToolTipRole)[-1] == "nothing left open"
    finally:
        window.close()


def test_next_document_walks_the_risk_order_the_reviewer_started_from(qtbot, workspace, settings, cohort):
    window = _open_window(qtbot, workspace, settings)
    try:
        queue = window.queue
        queue.riskiest_first.click()
        # The reviewer picks the riskiest document in the queue and clears it; it sinks to the
        # bottom, and Next must still go to the document that was below it, not report the end.
        queue.table.selectRow(0)
        qtbot.waitUntil(lambda: window.controller.document_id == cohort["risky"])
        window.controller.accept_remaining()
        assert queue.visible_ids()[-1] == cohort["risky"]
        window.actions_by_id["next_document"].trigger()
        assert window.controller.document_id == cohort["middling"]
        window.actions_by_id["next_document"].trigger()
        assert window.controller.document_id == cohort["calm"]
        window.actions_by_id["previous_document"].trigger()
        assert window.controller.document_id == cohort["middling"]
    finally:
        window.close()


def test_the_riskiest_first_choice_is_remembered_and_a_header_click_clears_it(qtbot, workspace, settings, cohort):
    window = _open_window(qtbot, workspace, settings)
    window.queue.riskiest_first.click()
    assert settings.queue_riskiest_first
    window.close()

    again = _open_window(qtbot, workspace, settings)
    try:
        queue = again.queue
        assert queue.riskiest_first.isChecked()
        assert queue.visible_ids() == [cohort["risky"], cohort["middling"], cohort["calm"]]
        header = queue.table.horizontalHeader()
        at = QPoint(header.sectionViewportPosition(DocumentQueueModel.NAME) + 5, header.height() // 2)
        QTest.mouseClick(header.viewport(), Qt.MouseButton.LeftButton, pos=at)
        if header.sortIndicatorOrder() != Qt.SortOrder.AscendingOrder:  # a click toggles the order
            QTest.mouseClick(header.viewport(), Qt.MouseButton.LeftButton, pos=at)
        assert not queue.riskiest_first.isChecked()
        assert not settings.queue_riskiest_first
        assert queue.table.isColumnHidden(DocumentQueueModel.RISK)
        assert not queue.table.isColumnHidden(DocumentQueueModel.PHI)
        assert queue.visible_ids() == [cohort["calm"], cohort["middling"], cohort["risky"]]
    finally:
        again.close()


def test_risks_are_read_only_while_the_queue_is_ordered_by_them(qtbot, workspace, settings, cohort, monkeypatch):
    """Reading every touched document's risk cost about a quarter of each decision in a long
    note, for a column that is not shown outside the risk order."""
    from deid_desktop.gui import queue as queue_module

    calls = []
    real = queue_module.document_risks
    monkeypatch.setattr(queue_module, "document_risks", lambda *a, **k: calls.append(1) or real(*a, **k))
    window = _open_window(qtbot, workspace, settings)
    window.open_document(cohort["risky"])
    calls.clear()
    window.controller.select(window.controller.spans[0].id)
    window.controller.accept()
    assert calls == []
    window.queue.riskiest_first.setChecked(True)
    assert calls and _column(window, DocumentQueueModel.RISK)[0] != ""
    calls.clear()
    window.controller.accept()
    assert calls  # in the risk order a decision re-ranks its document
