"""Detections and the reviewer's decision log: current state, final spans, append-only log."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from deid_desktop.core.categories import Category
from deid_desktop.core.documents.model import Document
from deid_desktop.core.spans import Span
from deid_desktop.core.store import (
    DecisionAction,
    DocStatus,
    InvalidDecision,
    InvalidSpan,
    Workspace,
    WorkspaceError,
)
from deid_desktop.core.store.models import DetectionRun, ReviewDecision

TEXT = "Seen by Dr Ann Lee at Leeds General on 2020-03-04. Parkinson's stable."
#       0         1         2         3         4         5         6
#       0123456789012345678901234567890123456789012345678901234567890123456789
NAME = Span(11, 18, Category.NAME, "DOCTOR", 0.9, "model", ("model", "rules"))
HOSPITAL = Span(22, 35, Category.ORGANIZATION, "HOSPITAL", 0.7, "model")
DATE = Span(39, 49, Category.DATE, score=1.0, source="rules")
EPONYM = Span(51, 62, Category.NAME, score=0.4, source="model")


@pytest.fixture
def ws(tmp_path: Path):
    workspace = Workspace.open(tmp_path / "review.sqlite")
    yield workspace
    workspace.close()


@pytest.fixture
def doc(ws: Workspace) -> int:
    return ws.import_document(Document.from_text(TEXT, path="/in/note.txt"), subject_label="P1").document_id


def _detect(ws: Workspace, doc: int, spans: list[Span]) -> list[int]:
    run = ws.start_detection_run(config={"members": ["rules", "model"]}, model_versions={"model": "v1"}, device="cpu")
    ids = ws.save_detections(doc, run, spans)
    ws.finish_detection_run(run, seconds=0.25, documents=1)
    return ids


def _spans_by_id(ws: Workspace, doc: int):
    return {s.id: s for s in ws.list_spans(doc)}


def test_detections_are_listed_with_their_text_and_the_run_is_recorded(ws: Workspace, doc: int):
    ids = _detect(ws, doc, [NAME, HOSPITAL, DATE])
    spans = ws.list_spans(doc)
    assert [s.id for s in spans] == ids
    assert [s.text for s in spans] == ["Ann Lee", "Leeds General", "2020-03-04"]
    assert spans[0].members == ("model", "rules")
    assert spans[0].fine == "DOCTOR" and spans[0].score == pytest.approx(0.9)
    assert {s.state for s in spans} == {"undecided"}
    assert "Ann" not in repr(spans[0])  # rows may be logged; the covered text must not be
    row = ws.get_document(doc)
    assert row.status is DocStatus.DETECTED
    assert (row.n_spans, row.n_undecided) == (3, 3)
    with ws.session(readonly=True) as session:
        run = session.scalars(select(DetectionRun)).one()
        assert (run.device, run.documents, run.seconds) == ("cpu", 1, 0.25)
        assert run.finished_at is not None


def test_new_detections_replace_undecided_spans_but_keep_decided_ones(ws: Workspace, doc: int):
    name, hospital, date, eponym = _detect(ws, doc, [NAME, HOSPITAL, DATE, EPONYM])
    ws.decide(name, DecisionAction.ACCEPT, reviewer="ann")
    ws.decide(eponym, DecisionAction.REJECT, reviewer="ann")

    new_ids = _detect(
        ws, doc,
        [
            Span(8, 18, Category.NAME, source="model"),   # overlaps the accepted name
            Span(51, 62, Category.NAME, source="model"),  # the rejected eponym again
            Span(22, 35, Category.LOCATION, source="rules"),
        ],
    )

    spans = _spans_by_id(ws, doc)
    assert len(new_ids) == 1
    assert set(spans) == {name, eponym, new_ids[0]}
    assert spans[name].state == "accepted" and spans[eponym].state == "rejected"
    assert spans[new_ids[0]].category is Category.LOCATION
    assert hospital not in spans and date not in spans
    assert len(ws.decisions(document_id=doc)) == 2
    with pytest.raises(InvalidDecision, match="replaced"):
        ws.decide(hospital, DecisionAction.ACCEPT, reviewer="ann")


def test_accept_reject_and_policies_decide_what_export_replaces(ws: Workspace, doc: int):
    name, hospital, date, eponym = _detect(ws, doc, [NAME, HOSPITAL, DATE, EPONYM])
    ws.decide(name, DecisionAction.ACCEPT, reviewer="ann")
    ws.decide(eponym, DecisionAction.REJECT, reviewer="ann")
    assert ws.get_document(doc).status is DocStatus.IN_REVIEW

    accept = ws.final_spans(doc)
    reject = ws.final_spans(doc, unreviewed_policy="reject")
    assert [(s.start, s.end) for s in accept] == [(11, 18), (22, 35), (39, 49)]
    assert [(s.start, s.end) for s in reject] == [(11, 18)]
    assert accept[0].source == "model" and accept[0].fine == "DOCTOR"
    with pytest.raises(ValueError):
        ws.final_spans(doc, unreviewed_policy="maybe")


def test_relabel_and_resize_change_the_effective_span(ws: Workspace, doc: int):
    name, hospital, _, _ = _detect(ws, doc, [NAME, HOSPITAL, DATE, EPONYM])
    ws.decide(hospital, DecisionAction.RELABEL, reviewer="ann", category=Category.LOCATION, fine="city")
    ws.decide(name, DecisionAction.RESIZE, reviewer="ann", start=8, end=18)

    spans = _spans_by_id(ws, doc)
    assert (spans[hospital].category, spans[hospital].fine, spans[hospital].state) == (
        Category.LOCATION, "CITY", "accepted",
    )
    assert (spans[name].start, spans[name].end, spans[name].text) == (8, 18, "Dr Ann Lee")
    assert spans[name].category is Category.NAME and spans[name].fine == "DOCTOR"
    final = {(s.start, s.end): s for s in ws.final_spans(doc, unreviewed_policy="reject")}
    assert final[(8, 18)].category is Category.NAME
    assert final[(22, 35)].category is Category.LOCATION and final[(22, 35)].fine == "CITY"


def test_undo_of_an_older_decision_keeps_the_later_ones(ws: Workspace, doc: int):
    (name,) = _detect(ws, doc, [NAME])
    relabel = ws.decide(name, DecisionAction.RELABEL, reviewer="ann", category=Category.PROFESSION)
    ws.decide(name, DecisionAction.RESIZE, reviewer="ann", start=8, end=18)
    undo = ws.undo_decision(relabel, reviewer="ann")

    span = _spans_by_id(ws, doc)[name]
    assert (span.category, span.fine, span.start, span.end) == (Category.NAME, "DOCTOR", 8, 18)
    log = {d.id: d for d in ws.decisions(document_id=doc)}
    assert log[relabel].undone and not log[undo].undone
    assert log[undo].action is DecisionAction.UNDO and log[undo].undoes == relabel
    with pytest.raises(InvalidDecision, match="already undone"):
        ws.undo_decision(relabel, reviewer="ann")

    ws.undo_decision(undo, reviewer="ann")  # undoing the undo re-applies the relabel
    assert _spans_by_id(ws, doc)[name].category is Category.PROFESSION
    assert not {d.id: d for d in ws.decisions()}[relabel].undone


def test_undo_of_a_reject_makes_the_span_undecided_again(ws: Workspace, doc: int):
    (eponym,) = _detect(ws, doc, [EPONYM])
    reject = ws.decide(eponym, DecisionAction.REJECT, reviewer="ann")
    assert ws.final_spans(doc) == []
    ws.undo_decision(reject, reviewer="ann")
    assert _spans_by_id(ws, doc)[eponym].state == "undecided"
    assert [(s.start, s.end) for s in ws.final_spans(doc)] == [(51, 62)]
    assert ws.final_spans(doc, unreviewed_policy="reject") == []


def test_added_span_is_exported_as_reviewer_and_wins_over_an_overlapping_detection(ws: Workspace, doc: int):
    (partial,) = _detect(ws, doc, [Span(22, 27, Category.LOCATION, "CITY", 0.5, "rules")])
    added = ws.add_span(doc, 22, 35, Category.ORGANIZATION, "hospital", reviewer="ann")

    spans = _spans_by_id(ws, doc)
    assert spans[added].state == "added" and spans[added].source == "reviewer"
    assert spans[added].text == "Leeds General"
    assert spans[partial].state == "undecided"
    final = ws.final_spans(doc)
    assert [(s.start, s.end, s.category, s.fine, s.source) for s in final] == [
        (22, 35, Category.ORGANIZATION, "HOSPITAL", "reviewer")
    ]


def test_undoing_an_add_removes_the_span_and_redo_brings_it_back(ws: Workspace, doc: int):
    added = ws.add_span(doc, 39, 49, Category.DATE, reviewer="ann")
    (add_decision,) = [d.id for d in ws.decisions(document_id=doc)]
    ws.decide(added, DecisionAction.RELABEL, reviewer="ann", category=Category.AGE)
    undo = ws.undo_decision(add_decision, reviewer="ann")

    assert ws.list_spans(doc) == []
    assert ws.final_spans(doc) == []
    assert ws.get_document(doc).n_spans == 0
    with pytest.raises(InvalidDecision, match="removed"):
        ws.decide(added, DecisionAction.ACCEPT, reviewer="ann")

    ws.undo_decision(undo, reviewer="ann")
    (span,) = ws.list_spans(doc)
    assert (span.id, span.state, span.category) == (added, "added", Category.AGE)


def test_batch_of_identical_accepts_is_undone_together(ws: Workspace):
    text = "Ann Lee called. Ann Lee left. Ann Lee returned."
    doc = ws.import_document(Document.from_text(text)).document_id
    a, b, c = _detect(ws, doc, [Span(0, 7, Category.NAME), Span(16, 23, Category.NAME), Span(30, 37, Category.NAME)])
    single = ws.decide(a, DecisionAction.ACCEPT, reviewer="ann")
    for span_id in (b, c):
        ws.decide(span_id, DecisionAction.ACCEPT, reviewer="ann", batch="same-text-1")

    undos = ws.undo_batch("same-text-1", reviewer="ann")

    assert len(undos) == 2
    states = {s.id: s.state for s in ws.list_spans(doc)}
    assert states == {a: "accepted", b: "undecided", c: "undecided"}
    assert [d.batch for d in ws.decisions(document_id=doc) if d.action is DecisionAction.ACCEPT] == [
        None, "same-text-1", "same-text-1",
    ]
    assert not {d.id: d for d in ws.decisions()}[single].undone


def test_decisions_since_an_id_are_the_ones_written_later(ws: Workspace, doc: int):
    name, hospital = _detect(ws, doc, [NAME, HOSPITAL])
    first = ws.decide(name, DecisionAction.ACCEPT, reviewer="ann")
    second = ws.decide(hospital, DecisionAction.REJECT, reviewer="bob")
    later = ws.decisions(since_id=first)
    assert [(d.id, d.action, d.reviewer, d.span_id, d.document_id) for d in later] == [
        (second, DecisionAction.REJECT, "bob", hospital, doc)
    ]
    assert later[0].created_at.tzinfo is not None


def test_invalid_decisions_are_refused_without_quoting_the_text(ws: Workspace, doc: int):
    (name,) = _detect(ws, doc, [NAME])
    bad_calls = [
        dict(action=DecisionAction.RESIZE, start=60, end=500),
        dict(action=DecisionAction.RESIZE, start=12),
        dict(action=DecisionAction.RELABEL),
        dict(action=DecisionAction.RELABEL, category=Category.DATE, start=1, end=2),
        dict(action=DecisionAction.ACCEPT, category=Category.DATE),
        dict(action=DecisionAction.ADD),
        dict(action=DecisionAction.UNDO),
    ]
    for call in bad_calls:
        with pytest.raises(ValueError) as info:  # InvalidDecision or InvalidSpan
            ws.decide(name, reviewer="ann", **call)
        assert "Ann" not in str(info.value) and "Leeds" not in str(info.value)
    with pytest.raises(InvalidDecision):
        ws.decide(name, DecisionAction.ACCEPT, reviewer=" ")
    with pytest.raises(InvalidSpan):
        ws.add_span(doc, 10, 10, Category.NAME, reviewer="ann")
    with pytest.raises(InvalidSpan):
        ws.save_detections(doc, 1, [Span(60, 200, Category.DATE)])
    assert ws.decisions() == []
    assert _spans_by_id(ws, doc)[name].state == "undecided"


def test_failed_import_has_no_spans(ws: Workspace):
    error_id = ws.record_import_error("/in/broken.docx", "corrupt", "not a valid Word file")
    with pytest.raises(WorkspaceError, match="broken.docx"):
        ws.list_spans(error_id)


def test_decision_log_refuses_update_and_delete(ws: Workspace, doc: int):
    (name,) = _detect(ws, doc, [NAME])
    decision = ws.decide(name, DecisionAction.ACCEPT, reviewer="ann")

    raw = sqlite3.connect(ws.path)
    try:
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            raw.execute("UPDATE review_decisions SET action = 'reject' WHERE id = ?", (decision,))
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            raw.execute("DELETE FROM review_decisions WHERE id = ?", (decision,))
        raw.rollback()
    finally:
        raw.close()
    with pytest.raises(IntegrityError):
        with ws.session() as session:
            session.get(ReviewDecision, decision).reviewer = "mallory"
    with pytest.raises(IntegrityError):
        with ws.session() as session:
            session.delete(session.get(ReviewDecision, decision))

    (row,) = ws.decisions()
    assert (row.id, row.action, row.reviewer) == (decision, DecisionAction.ACCEPT, "ann")


def test_the_log_is_the_truth_a_tampered_span_state_is_replayed_back(ws: Workspace, doc: int):
    name, hospital = _detect(ws, doc, [NAME, HOSPITAL])
    ws.decide(name, DecisionAction.RESIZE, reviewer="ann", start=8, end=18)
    ws.decide(hospital, DecisionAction.REJECT, reviewer="ann")
    expected = ws.list_spans(doc)

    raw = sqlite3.connect(ws.path)
    try:
        raw.execute("UPDATE spans SET state = 'undecided', current_start = start, current_end = \"end\"")
        raw.commit()
    finally:
        raw.close()
    assert ws.list_spans(doc) != expected

    assert ws.replay_decisions() == 2
    assert ws.list_spans(doc) == expected
    assert ws.replay_decisions() == 0


def test_offsets_are_checked_against_text_with_nul_characters(ws: Workspace):
    text = "Scan\x00header\x00 Ann Lee"
    doc = ws.import_document(Document.from_text(text)).document_id
    added = ws.add_span(doc, 13, 20, Category.NAME, reviewer="ann")
    assert _spans_by_id(ws, doc)[added].text == "Ann Lee"


def test_get_spans_rereads_only_the_decided_spans_and_leaves_out_withdrawn_ones(ws: Workspace, doc: int):
    name_id, hospital_id, date_id = _detect(ws, doc, [NAME, HOSPITAL, DATE])
    ws.decide(name_id, DecisionAction.ACCEPT, reviewer="ann")
    ws.decide(date_id, DecisionAction.RESIZE, reviewer="ann", start=39, end=43)
    added = ws.add_span(doc, 51, 62, Category.NAME, reviewer="ann")
    got = {s.id: s for s in ws.get_spans([name_id, date_id, added])}
    assert got == {k: v for k, v in _spans_by_id(ws, doc).items() if k in (name_id, date_id, added)}
    assert got[name_id].state == "accepted" and got[date_id].text == "2020"
    (add_decision,) = [d for d in ws.decisions(document_id=doc) if d.span_id == added]
    ws.undo_decision(add_decision.id, reviewer="ann")
    assert [s.id for s in ws.get_spans([added, hospital_id])] == [hospital_id]
    assert ws.get_spans([]) == []


def test_opening_a_detected_document_starts_its_review_and_nothing_else_does(ws, doc):
    d = doc
    assert ws.begin_review(d) is False  # imported, not detected: opening it starts nothing
    assert ws.get_document(d).status == DocStatus.IMPORTED.value
    run = ws.start_detection_run(config={}, model_versions={}, device="cpu")
    ws.save_detections(d, run, [NAME])
    ws.set_status(d, DocStatus.DETECTED)
    assert ws.begin_review(d) is True
    assert ws.get_document(d).status == DocStatus.IN_REVIEW.value
    assert ws.begin_review(d) is False  # already in review
    ws.set_status(d, DocStatus.REVIEWED)
    assert ws.begin_review(d) is False and ws.get_document(d).status == DocStatus.REVIEWED.value
    with pytest.raises(WorkspaceError):
        ws.begin_review(99999)
