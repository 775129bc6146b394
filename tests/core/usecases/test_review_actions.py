"""Review actions as plain commands (core/usecases/review.py), against a real workspace file
and without Qt: what each does to the decision log and how undo takes it back."""

from __future__ import annotations

import pytest

from deid_desktop.core.categories import Category
from deid_desktop.core.documents.model import Document
from deid_desktop.core.spans import Span
from deid_desktop.core.store import DecisionAction, DocStatus, Workspace
from deid_desktop.core.usecases.review import (
    AddSpan,
    CorrectSpan,
    Decide,
    DecideIdentical,
    MarkReviewed,
    accept_remaining,
    begin_review,
    find_occurrences,
    identical_documents,
    resized_extent,
)
from deid_desktop.core.usecases.terms import term_change

TEXT = "Ann Lee was seen. Ann Lee is well. Annual review with Lee."
WHO = "tester"


@pytest.fixture
def ws(tmp_path):
    w = Workspace.open(tmp_path / "workspace.sqlite")
    yield w
    w.close()


def _import(ws, text: str, spans: list[Span], subject: str | None = "p1", name: str = "a.txt") -> int:
    doc = Document(text=text, format="txt", path=f"/data/{name}", source_bytes=text.encode())
    doc_id = ws.import_document(doc, subject_label=subject, source_path=f"/data/{name}").document_id
    ws.save_detections(doc_id, ws.start_detection_run(config={}, model_versions={}, device="cpu"), spans)
    return doc_id


@pytest.fixture
def doc(ws):
    return _import(ws, TEXT, [Span(0, 7, Category.NAME, score=0.9, source="rules"), Span(35, 41, Category.DATE, score=0.9, source="rules")])


def _states(ws, doc_id) -> dict[str, tuple[str, Category]]:
    return {s.text: (s.state, s.category) for s in ws.list_spans(doc_id)}


def test_find_occurrences_respects_word_edges():
    assert find_occurrences("Ann met Annual Ann.", "Ann") == [(0, 3), (15, 18)]
    assert find_occurrences("(555) 1 and (555) 1", "(555) 1") == [(0, 7), (12, 19)]


def test_resized_extent_stops_at_one_word():
    text = "seen by Dr Jane Doe today"
    s, e = text.index("Jane"), text.index("Jane") + 4
    assert resized_extent(text, s, e, "start", grow=False) is None
    assert resized_extent(text, s, e, "end", grow=True) == (s, text.index("Doe") + 3)
    assert resized_extent(text, s, e, "start", grow=True) == (text.index("Dr"), e)


def test_opening_starts_the_review_once(ws, doc):
    assert ws.get_document(doc).status == DocStatus.DETECTED
    assert begin_review(ws, doc) is True
    assert ws.get_document(doc).status == DocStatus.IN_REVIEW
    assert begin_review(ws, doc) is False  # already in review: nothing to change


def test_a_decision_and_its_undo_are_appended_to_the_log(ws, doc):
    span = next(s for s in ws.list_spans(doc) if s.text == "Ann Lee")
    relabel = Decide(doc, WHO, span.id, DecisionAction.RELABEL, options={"category": Category.ID, "fine": "OTHER"})
    result = relabel.apply(ws)
    assert _states(ws, doc)["Ann Lee"] == ("accepted", Category.ID)
    assert result.focus == span.id and result.changed == frozenset({span.id})
    relabel.undo(ws, result)
    assert _states(ws, doc)["Ann Lee"] == ("undecided", Category.NAME)
    assert [d.action for d in ws.decisions(document_id=doc)] == [DecisionAction.RELABEL, DecisionAction.UNDO]


def test_added_span_is_removed_by_undo(ws, doc):
    start = TEXT.rindex("Lee")
    add = AddSpan(doc, WHO, start, start + 3, Category.NAME)
    result = add.apply(ws)
    assert _states(ws, doc)["Lee"] == ("added", Category.NAME)
    add.undo(ws, result)
    assert "Lee" not in _states(ws, doc)


def test_correcting_a_span_resizes_relabels_and_rejects_the_rest_in_one_batch(ws, doc):
    spans = sorted(ws.list_spans(doc), key=lambda s: s.start)
    fix = CorrectSpan(doc, WHO, spans[0].id, Category.NAME, 0, 3, Category.ID, "OTHER", (spans[1].id,))
    result = fix.apply(ws)
    states = _states(ws, doc)
    assert states["Ann"] == ("accepted", Category.ID)
    assert states["Annual"][0] == "rejected"
    assert len({d.batch for d in ws.decisions(document_id=doc)}) == 1
    assert len(result.decision_ids) == 3


def test_accept_remaining_accepts_only_the_undecided_of_the_category(ws, doc):
    cmd = accept_remaining(doc, WHO, ws.list_spans(doc), None, Category.NAME)
    result = cmd.apply(ws)
    states = _states(ws, doc)
    assert states["Ann Lee"][0] == "accepted"
    assert [s for t, (s, c) in states.items() if c == Category.DATE] == ["undecided"]
    assert result.summary == "Accepted 1 remaining Name findings."


def test_accept_identical_adds_missed_occurrences_but_not_inside_longer_words(ws, doc):
    span = next(s for s in ws.list_spans(doc) if s.text == "Ann Lee")
    cmd = DecideIdentical(doc, WHO, (doc,), "Ann Lee", DecisionAction.ACCEPT, Category.NAME, "OTHER", span.id)
    result = cmd.apply(ws)
    names = [s for s in ws.list_spans(doc) if s.text == "Ann Lee"]
    assert sorted(s.state for s in names) == ["accepted", "added"]
    assert result.summary == "Accepted 2 identical occurrence(s) in this document (1 the detectors had missed)."
    cmd.undo(ws, result)
    assert [s.state for s in ws.list_spans(doc) if s.text == "Ann Lee"] == ["undecided"]


def test_identical_reaches_the_subjects_readable_documents_only(ws, doc):
    same = _import(ws, "Ann Lee again.", [], subject="p1", name="b.txt")
    other = _import(ws, "Ann Lee elsewhere.", [], subject="p2", name="c.txt")
    subject_id = ws.get_document(doc).subject_id
    assert identical_documents(ws, doc, subject_id, "subject") == (doc, same)
    assert identical_documents(ws, doc, subject_id, "document") == (doc,)
    assert identical_documents(ws, doc, None, "subject") == (doc,)
    assert other not in identical_documents(ws, doc, subject_id, "subject")


def test_identical_decisions_are_accept_or_reject_only(doc):
    with pytest.raises(ValueError):
        DecideIdentical(doc, WHO, (doc,), "Ann", DecisionAction.RESIZE)


def test_mark_reviewed_is_a_step_and_undo_restores_the_status(ws, doc):
    begin_review(ws, doc)
    cmd = MarkReviewed(doc, WHO, DocStatus.IN_REVIEW, undecided=2)
    result = cmd.apply(ws)
    assert ws.get_document(doc).status == DocStatus.REVIEWED
    assert result.summary == "Document marked reviewed. 2 undecided finding(s) will be treated as PHI at export."
    cmd.undo(ws, result)
    assert ws.get_document(doc).status == DocStatus.IN_REVIEW


def test_a_subject_term_without_a_subject_applies_to_the_document(doc):
    change = term_change("allow", "teacher", "subject", doc, None)
    assert (change.scope, change.scope_id, change.where) == ("document", doc, "in this document")
    change = term_change("deny", "Ann", "subject", doc, 7, category=Category.NAME)
    assert (change.scope, change.scope_id) == ("subject", 7)
    assert term_change("allow", "x", "workspace", doc, 7).scope_id is None
    assert "will always be flagged as Name in documents of this subject" in change.done_message(True)


class _Row:
    def __init__(self, id, start, end, state="undecided"):
        self.id, self.start, self.end, self.state = id, start, end, state


def test_a_decision_moves_to_the_next_undecided_below_else_the_first_above():
    from deid_desktop.core.usecases.review import next_undecided

    a, b, c = _Row(1, 0, 5), _Row(2, 10, 15, "accepted"), _Row(3, 20, 25)
    assert next_undecided([a, b, c], b) is c
    assert next_undecided([a, b, c], c) is a  # nothing undecided below: back to the top
    assert next_undecided([a, b, c], None) is a
    assert next_undecided([b], b) is None


def test_the_finding_under_the_caret_prefers_kept_then_shorter_findings():
    from deid_desktop.core.usecases.review import span_at

    wide, short_rejected, short = _Row(1, 0, 20), _Row(2, 5, 8, "rejected"), _Row(3, 5, 10)
    assert span_at([wide, short_rejected, short], 6) is short
    assert span_at([wide, short_rejected], 6) is wide
    assert span_at([wide], 25) is None


def test_a_selection_snaps_to_whole_words_and_blank_is_nothing():
    from deid_desktop.core.usecases.review import selection_extent

    text = "seen by Dr Jane Doe today"
    assert selection_extent(text, text.index("ane"), text.index("Doe") + 1, Category.NAME) == (text.index("Jane"), text.index("Doe") + 3)
    assert selection_extent(text, 4, 5, Category.NAME) is None  # a lone space


def test_a_document_opens_on_its_first_undecided_finding_else_its_first():
    from deid_desktop.core.usecases.review import first_to_show, undecided_count

    a, b, c = _Row(1, 0, 5, "accepted"), _Row(2, 10, 15), _Row(3, 20, 25)
    assert first_to_show([a, b, c]) is b and undecided_count([a, b, c]) == 2
    assert first_to_show([a]) is a and undecided_count([a]) == 0
    assert first_to_show([]) is None


def test_j_and_k_move_one_finding_and_say_so_at_either_end():
    from deid_desktop.core.usecases.review import step_selection

    rows = [_Row(1, 0, 5), _Row(2, 10, 15), _Row(3, 20, 25)]
    assert step_selection(rows, 1, +1) == (2, "")
    assert step_selection(rows, 2, -1) == (1, "")
    assert step_selection(rows, 3, +1) == (None, "Last finding of this document.")
    assert step_selection(rows, 1, -1) == (None, "First finding of this document.")
    # nothing selected: J starts at the top, K at the bottom
    assert step_selection(rows, None, +1) == (1, "") and step_selection(rows, None, -1) == (3, "")
    assert step_selection([], None, +1) == (None, "This document has no findings.")


def test_a_decision_redraws_its_findings_in_place_unless_one_came_or_went():
    from deid_desktop.core.usecases.review import refresh_in_place

    a, b, c = _Row(1, 0, 5), _Row(2, 10, 15), _Row(3, 20, 25)
    spans = [a, b, c]
    decided = _Row(2, 10, 15, "accepted")
    assert refresh_in_place(spans, [decided], frozenset({2})) is False  # same place: redraw it alone
    assert spans == [a, decided, c]
    resized = _Row(2, 21, 30, "accepted")  # now after c: the order is mended
    assert refresh_in_place(spans, [resized], frozenset({2})) is True
    assert [s.id for s in spans] == [1, 3, 2]
    # a finding of another document, or one deleted by the step: everything is re-read
    assert refresh_in_place(spans, [], frozenset({2})) is None
    assert refresh_in_place(spans, [_Row(9, 0, 1)], frozenset({9})) is None
    assert [s.id for s in spans] == [1, 3, 2]


def test_an_undo_keeps_the_selection_on_its_finding_or_falls_back_to_the_first():
    from deid_desktop.core.usecases.review import focus_after_replay

    rows = [_Row(1, 0, 5), _Row(2, 10, 15)]
    assert focus_after_replay(rows, 2, 1) == 2  # the step's own finding
    assert focus_after_replay(rows, None, 1) == 1  # else the selection stays
    assert focus_after_replay(rows, None, 7) == 1  # the selected finding is gone (an undone add)
    assert focus_after_replay([], None, 7) == 7
    assert focus_after_replay(rows, None, None) is None


def test_keys_on_a_finding_become_commands_or_say_why_not(ws, doc):
    from deid_desktop.core.usecases.review import accept_intent, mark_intent, reject_intent, relabel_intent, resize_intent

    name = next(s for s in ws.list_spans(doc) if s.text == "Ann Lee")
    assert accept_intent(doc, WHO, name).label == "Accept finding"
    assert reject_intent(doc, WHO, name).command.action == DecisionAction.REJECT
    relabel = relabel_intent(doc, WHO, name, Category.ID)
    assert (relabel.label, relabel.command.options) == ("Relabel as ID", {"category": Category.ID, "fine": "OTHER"})
    assert resize_intent(doc, WHO, TEXT, name, "start", grow=True).command is None  # no word before the first
    shrink = resize_intent(doc, WHO, TEXT, name, "end", grow=False)
    assert (shrink.label, shrink.command.options) == ("Shrink span end", {"start": 0, "end": 3})
    accept_intent(doc, WHO, name).command.apply(ws)
    kept = next(s for s in ws.list_spans(doc) if s.text == "Ann Lee")
    assert accept_intent(doc, WHO, kept).command is None
    assert relabel_intent(doc, WHO, kept, Category.NAME) == type(relabel)("Already accepted as Name.")
    over = mark_intent(doc, WHO, ws.list_spans(doc), 0, 3, Category.NAME)
    assert over.label == "Correct span to Name" and over.command.keep_id == kept.id
    assert mark_intent(doc, WHO, ws.list_spans(doc), TEXT.rindex("Lee"), len(TEXT) - 1, Category.NAME).label == "Add Name span"
