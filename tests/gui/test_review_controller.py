"""The review controller against a real workspace file, without any widget."""

from __future__ import annotations

import pytest

from deid_desktop.core.categories import Category
from deid_desktop.core.documents.model import Document
from deid_desktop.core.spans import Span
from deid_desktop.core.store import DecisionAction, DocStatus
from deid_desktop.gui.review import ReviewController

from .samples import CLINICAL_NOTE

pytestmark = pytest.mark.gui


def _span(text: str, needle: str, category: Category, nth: int = 0, source: str = "rules") -> Span:
    start = -1
    for _ in range(nth + 1):
        start = text.index(needle, start + 1)
    return Span(start, start + len(needle), category, score=0.9, source=source, members=(source,))


def _import(ws, text: str, subject: str | None = None, name: str = "note.txt", spans: list[Span] | None = None) -> int:
    doc = Document(text=text, format="txt", path=f"/data/{name}", source_bytes=text.encode())
    doc_id = ws.import_document(doc, subject_label=subject, source_path=f"/data/{name}").document_id
    run = ws.start_detection_run(config={}, model_versions={}, device="cpu")
    ws.save_detections(doc_id, run, spans or [])
    return doc_id


@pytest.fixture
def note(workspace):
    t = CLINICAL_NOTE
    spans = [
        _span(t, "Margaret Okafor", Category.NAME),
        _span(t, "44172290", Category.ID),
        _span(t, "03/14/2021", Category.DATE),
        _span(t, "03/19/2021", Category.DATE),
        _span(t, "Okafor", Category.NAME, nth=1),  # "Mrs. Okafor"
        _span(t, "(617) 555-0142", Category.CONTACT),
    ]
    return _import(workspace, t, subject="p001", spans=spans)


@pytest.fixture
def controller(qapp, workspace, note):
    c = ReviewController(workspace, "tester")
    c.open_document(note)
    return c


def _state(ws, doc_id: int, text: str) -> dict[str, tuple[str, Category]]:
    return {s.text: (s.state, s.category) for s in ws.list_spans(doc_id) if s.text == text} or {}


def test_opening_a_detected_document_puts_it_in_review(workspace, controller, note):
    assert workspace.get_document(note).status == DocStatus.IN_REVIEW
    assert controller.current.text == "Margaret Okafor"  # first undecided finding


def test_accept_and_reject_are_committed_and_advance_to_the_next_undecided(workspace, controller, note):
    controller.accept()
    assert controller.current.text == "44172290"
    controller.reject()
    spans = {s.text: s.state for s in workspace.list_spans(note)}
    assert spans["Margaret Okafor"] == "accepted"
    assert spans["44172290"] == "rejected"
    assert controller.current.text == "03/14/2021"
    actions = [d.action for d in workspace.decisions(document_id=note)]
    assert actions == [DecisionAction.ACCEPT, DecisionAction.REJECT]


def test_undo_appends_an_undo_decision_and_redo_decides_afresh(workspace, controller, note):
    controller.accept()
    controller.undo_stack.undo()
    first = next(s for s in workspace.list_spans(note) if s.text == "Margaret Okafor")
    assert first.state == "undecided"
    log = workspace.decisions(document_id=note)
    assert [d.action for d in log] == [DecisionAction.ACCEPT, DecisionAction.UNDO]
    assert log[0].undone
    controller.undo_stack.redo()
    first = next(s for s in workspace.list_spans(note) if s.text == "Margaret Okafor")
    assert first.state == "accepted"
    log = workspace.decisions(document_id=note)
    assert [d.action for d in log] == [DecisionAction.ACCEPT, DecisionAction.UNDO, DecisionAction.ACCEPT]
    assert not log[-1].undone


def test_relabel_changes_category_and_counts_as_accepted(workspace, controller, note):
    controller.select(next(s.id for s in controller.spans if s.text == "44172290"))
    controller.relabel(Category.CONTACT)
    span = next(s for s in workspace.list_spans(note) if s.text == "44172290")
    assert (span.state, span.category) == ("accepted", Category.CONTACT)
    controller.undo_stack.undo()
    span = next(s for s in workspace.list_spans(note) if s.text == "44172290")
    assert (span.state, span.category) == ("undecided", Category.ID)


def test_marking_missed_text_adds_a_span_snapped_to_words(workspace, controller, note):
    t = CLINICAL_NOTE
    s = t.index("Samuel Lindqvist")
    # A sloppy selection: starts mid-word, ends after the trailing newline.
    controller.mark_span(s + 2, s + len("Samuel Lindqvist") + 1, Category.NAME)
    added = [x for x in workspace.list_spans(note) if x.state == "added"]
    assert [(x.text, x.category, x.source) for x in added] == [("Samuel Lindqvist", Category.NAME, "reviewer")]
    assert controller.current.id == added[0].id
    controller.undo_stack.undo()
    assert not [x for x in workspace.list_spans(note) if x.text == "Samuel Lindqvist"]


def test_marking_over_a_finding_corrects_it_instead_of_overlapping(workspace, controller, note):
    t = CLINICAL_NOTE
    s = t.index("Mrs. Okafor")
    controller.mark_span(s, s + len("Mrs. Okafor"), Category.NAME)
    spans = [x for x in workspace.list_spans(note) if x.start <= s + 6 < x.end]
    assert [(x.text, x.state) for x in spans] == [("Mrs. Okafor", "accepted")]


def test_resize_by_a_word_at_either_edge(workspace, controller, note):
    t = CLINICAL_NOTE
    controller.select(next(s.id for s in controller.spans if s.text == "Okafor"))
    controller.resize("start", grow=True)
    span = controller.current
    assert span.text == "Mrs. Okafor"
    controller.resize("start", grow=False)
    assert controller.current.text == "Okafor"
    controller.resize("end", grow=True)
    assert controller.current.text == "Okafor is"
    controller.undo_stack.undo()
    assert controller.current.text == "Okafor"
    assert t[controller.current.start : controller.current.end] == "Okafor"


def test_accept_remaining_of_a_category_is_one_undo_step_with_one_batch(workspace, controller, note):
    controller.select(next(s.id for s in controller.spans if s.text == "03/14/2021"))
    controller.accept_remaining(same_category=True)
    dates = [s for s in workspace.list_spans(note) if s.category == Category.DATE]
    assert {s.state for s in dates} == {"accepted"}
    assert any(s.state == "undecided" for s in workspace.list_spans(note))
    batches = {d.batch for d in workspace.decisions(document_id=note)}
    assert len(batches) == 1 and None not in batches
    controller.undo_stack.undo()
    assert {s.state for s in workspace.list_spans(note) if s.category == Category.DATE} == {"undecided"}
    controller.accept_remaining()
    assert {s.state for s in workspace.list_spans(note)} == {"accepted"}


def test_accept_identical_in_document_adds_missed_occurrences(workspace, controller, note):
    messages = []
    controller.message.connect(messages.append)
    controller.select(next(s.id for s in controller.spans if s.text == "Okafor"))
    controller.decide_identical(DecisionAction.ACCEPT, "document")
    okafors = [s for s in workspace.list_spans(note) if s.text == "Okafor"]
    # "Mrs. Okafor", "Okafor improved", "Okafor agreed" ("Margaret Okafor" overlaps a finding).
    assert len(okafors) == 3
    assert {s.state for s in okafors} == {"accepted", "added"}
    assert "3 identical" in messages[-1] and "2 the detectors had missed" in messages[-1]
    assert "m.okafor" not in [s.text for s in okafors]  # part of a longer word is not identical
    controller.undo_stack.undo()
    okafors = [s for s in workspace.list_spans(note) if s.text == "Okafor"]
    assert [s.state for s in okafors] == ["undecided"]


def test_identical_in_subject_reaches_the_subjects_other_documents_only(workspace, controller, note):
    text_a, text_b = "Okafor was seen again. Okafor is well.", "Okafor was seen in clinic."
    same_subject = _import(workspace, text_a, subject="p001", name="later.txt", spans=[_span(text_a, "Okafor", Category.NAME)])
    other_subject = _import(workspace, text_b, subject="p002", name="stranger.txt", spans=[_span(text_b, "Okafor", Category.NAME)])
    controller.select(next(s.id for s in controller.spans if s.text == "Okafor"))
    controller.decide_identical(DecisionAction.REJECT, "subject")
    assert {s.state for s in workspace.list_spans(same_subject)} == {"rejected"}
    assert {s.state for s in workspace.list_spans(other_subject)} == {"undecided"}
    batch = {d.batch for d in workspace.decisions() if d.action == DecisionAction.REJECT}
    assert len(batch) == 1
    controller.undo_stack.undo()
    assert {s.state for s in workspace.list_spans(same_subject)} == {"undecided"}


def test_mark_reviewed_sets_status_and_undo_restores_it(workspace, controller, note):
    reviewed = []
    controller.document_reviewed.connect(reviewed.append)
    controller.mark_reviewed()
    assert workspace.get_document(note).status == DocStatus.REVIEWED
    assert reviewed == [note]
    controller.undo_stack.undo()
    assert workspace.get_document(note).status == DocStatus.IN_REVIEW


def test_undo_reopens_the_document_the_step_belongs_to(workspace, controller, note):
    other = _import(workspace, "Seen on 01/02/2020.", name="b.txt", spans=[Span(8, 18, Category.DATE)])
    controller.accept()
    controller.open_document(other)
    controller.undo_stack.undo()
    assert controller.document_id == note
    assert all(s.state == "undecided" for s in workspace.list_spans(note))


def test_navigation_moves_through_findings_in_text_order(controller):
    texts = []
    for _ in range(len(controller.spans)):
        texts.append(controller.current.text)
        controller.next_finding()
    assert texts == [s.text for s in sorted(controller.spans, key=lambda s: s.start)]
    controller.previous_finding()
    assert controller.current.text == texts[-2]
