"""Findings across documents as a keyword-in-context list: filters, context, subject scope."""

from __future__ import annotations

from pathlib import Path

import pytest

from deid_desktop.core.categories import Category
from deid_desktop.core.documents.model import Document, Segment
from deid_desktop.core.spans import Span
from deid_desktop.core.store import DecisionAction, Workspace
from deid_desktop.core.store.across import findings_across, matches_string

NOTE_A = "Seen today: Ann Grey, 54, at Leeds clinic.\nPlan: review by Dr Grey in two weeks."
NOTE_B = "Letter for ANN GREY from the Leeds team; call Ann Grey on Monday."
NOTE_C = "Clinic note of Paul Baker in Leeds."


@pytest.fixture
def ws(tmp_path: Path):
    workspace = Workspace.open(tmp_path / "across.sqlite")
    yield workspace
    workspace.close()


def _import(ws: Workspace, text: str, path: str, subject: str) -> int:
    doc = Document(text=text, format="txt", path=path, segments=[Segment(0, len(text))], meta={}, source_bytes=text.encode())
    return ws.import_document(doc, subject_label=subject).document_id


def _span(text: str, needle: str, category: Category, nth: int = 0) -> Span:
    start = -1
    for _ in range(nth + 1):
        start = text.index(needle, start + 1)
    return Span(start, start + len(needle), category, score=0.8, source="rules")


@pytest.fixture
def queue(ws: Workspace):
    a = _import(ws, NOTE_A, "/in/p1/a.txt", "P1")
    b = _import(ws, NOTE_B, "/in/p1/b.txt", "P1")
    c = _import(ws, NOTE_C, "/in/p2/c.txt", "P2")
    run = ws.start_detection_run(config={}, model_versions={}, device="cpu")
    ws.save_detections(a, run, [_span(NOTE_A, "Ann Grey", Category.NAME), _span(NOTE_A, "Leeds", Category.LOCATION), _span(NOTE_A, "Grey", Category.NAME, 1)])
    ws.save_detections(b, run, [_span(NOTE_B, "ANN GREY", Category.NAME), _span(NOTE_B, "Leeds", Category.LOCATION), _span(NOTE_B, "Ann Grey", Category.NAME)])
    ws.save_detections(c, run, [_span(NOTE_C, "Paul Baker", Category.NAME), _span(NOTE_C, "Leeds", Category.LOCATION)])
    return a, b, c


def test_category_filter_lists_that_category_in_every_document_with_context(ws, queue):
    a, b, c = queue
    rows = findings_across(ws, category=Category.NAME)
    assert [(r.document_id, r.text) for r in rows] == [
        (a, "Ann Grey"), (a, "Grey"), (b, "ANN GREY"), (b, "Ann Grey"), (c, "Paul Baker"),
    ]
    first = rows[0]
    assert first.left == "Seen today: "
    # 40 characters, the line break shown as a space
    assert first.right == ", 54, at Leeds clinic. Plan: review by D" and len(first.right) == 40
    assert NOTE_A[first.start : first.end] == "Ann Grey" and first.state == "undecided"
    assert first.score == pytest.approx(0.8)
    assert all(r.category is Category.NAME for r in rows)


def test_string_filter_ignores_case_but_not_length(ws, queue):
    a, b, _ = queue
    rows = findings_across(ws, text="  ann grey ")
    assert [(r.document_id, r.text) for r in rows] == [(a, "Ann Grey"), (b, "ANN GREY"), (b, "Ann Grey")]
    assert findings_across(ws, text="Grey")[0].left.endswith("review by Dr ")
    assert matches_string("Grey", "GREY") and not matches_string("Greyson", "Grey")


def test_subject_scope_and_undecided_only(ws, queue):
    a, b, c = queue
    p2 = next(s.id for s in ws.list_subjects() if s.label == "P2")
    assert [(r.document_id, r.text) for r in findings_across(ws, category=Category.LOCATION, subject_id=p2)] == [(c, "Leeds")]
    leeds_a = findings_across(ws, category=Category.LOCATION)[0]
    ws.decide(leeds_a.span_id, DecisionAction.ACCEPT, reviewer="tester")
    rows = findings_across(ws, category=Category.LOCATION, undecided_only=True)
    assert [r.document_id for r in rows] == [b, c]
    assert findings_across(ws, category=Category.LOCATION)[0].state == "accepted"


def test_relabelled_finding_is_listed_under_its_new_category(ws, queue):
    a, _, _ = queue
    grey = findings_across(ws, text="Grey")[0]
    ws.decide(grey.span_id, DecisionAction.RELABEL, reviewer="tester", category=Category.ORGANIZATION)
    assert [r.span_id for r in findings_across(ws, category=Category.ORGANIZATION)] == [grey.span_id]
    assert grey.span_id not in [r.span_id for r in findings_across(ws, category=Category.NAME)]


def test_limit_and_empty_string(ws, queue):
    assert len(findings_across(ws, limit=2)) == 2
    assert findings_across(ws, text="   ") == []
    assert "Grey" not in repr(findings_across(ws, text="Grey")[0])


def test_failed_imports_are_skipped(ws, queue):
    ws.record_import_error("/in/p1/broken.pdf", "corrupt", "cannot be read")
    assert len(findings_across(ws)) == 8
