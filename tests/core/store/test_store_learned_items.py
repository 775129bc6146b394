"""The store's own queries for what a workspace learned (terms, proposals) and for detection
runs: detect and learn read and write these through Workspace methods, never through SQL."""

from __future__ import annotations

import pytest

from deid_desktop.core.categories import Category
from deid_desktop.core.documents import Document
from deid_desktop.core.spans import Span
from deid_desktop.core.store import DecisionAction, RecordNotFound
from deid_desktop.core.store.learned_items import NewInclusionProposal, NewTemplateRule

from tests.core.learning_helpers import add_note, open_workspace


def test_a_term_is_stored_once_per_scope_and_can_be_removed(tmp_path):
    ws = open_workspace(tmp_path)
    kw = dict(is_regex=False, category="NAME", fine="OTHER", added_by="reviewer")
    first = ws.add_term("deny", "Kōwhai", scope="workspace", scope_id="", **kw)
    assert ws.add_term("deny", "Kōwhai", scope="workspace", scope_id="", **kw) == first
    other = ws.add_term("deny", "Kōwhai", scope="document", scope_id="3", **kw)
    allow = ws.add_term("allow", "Parkinson", is_regex=False, category=None, fine=None, scope="workspace", scope_id="", added_by="reviewer")
    assert [r.id for r in ws.list_term_rows()] == [allow, first, other]  # by kind, then as added
    assert [r.id for r in ws.list_term_rows(kind="deny", scope="document", scope_id=3)] == [other]
    assert ws.find_term("allow", "Parkinson", False, "workspace", "") == allow
    ws.remove_term(first)
    assert [r.term for r in ws.list_term_rows(kind="deny")] == ["Kōwhai"] and ws.find_term("deny", "Kōwhai", False, "workspace", "") is None
    ws.close()


def test_proposals_keep_their_verdict_when_harvested_again(tmp_path):
    ws = open_workspace(tmp_path)
    rule = NewTemplateRule("Dr {NAME}", r"Dr (\w+)", "[]", 3)
    assert ws.save_template_rule_proposals([rule], status="proposed") == 1
    (row,) = ws.list_template_rule_rows()
    ws.decide_template_rule(row.id, status="rejected", reviewer="ann")
    assert ws.save_template_rule_proposals([NewTemplateRule("Dr {NAME}", r"Dr (\w+)", "[]", 5)], status="proposed") == 0
    (again,) = ws.list_template_rule_rows()
    assert (again.status, again.support) == ("rejected", 5)
    assert ws.list_template_rule_rows("proposed") == []
    assert ws.save_inclusion_proposals([NewInclusionProposal("seen by", "Seen by the team.", 2)], status="proposed") == 1
    (p,) = ws.list_inclusion_proposal_rows("proposed")
    ws.decide_inclusion_proposal(p.id, status="approved", reviewer="ann")
    assert [x.sentence for x in ws.list_inclusion_proposal_rows("approved")] == ["Seen by the team."]
    with pytest.raises(RecordNotFound):
        ws.decide_template_rule(999, status="approved", reviewer="ann")
    ws.close()


def test_detection_runs_what_they_proposed_and_when_a_document_was_decided(tmp_path):
    ws = open_workspace(tmp_path)
    note = add_note(ws, 1)
    other = ws.import_document(Document.from_text("Nothing decided here.", path="x.txt"), source_path="x.txt").document_id
    run = ws.start_detection_run(config={}, model_versions={"minilm": "v0002"}, device="cpu")
    (rows_all, rows_one) = ws.detection_run_rows(), ws.detection_run_rows([run])
    assert [r.id for r in rows_one] == [run] and rows_one[0].model_versions == {"minilm": "v0002"}
    assert [r.id for r in rows_all][-1] == run and rows_all[0].model_versions == {}
    text, proposed = ws.detected_spans(note.document_id)
    assert text == note.text and len(proposed) == 3
    # as the detector gave it, whatever was decided afterwards
    first_span = min(proposed, key=lambda p: p[0].start)[0]
    assert isinstance(first_span, Span) and first_span.category in (Category.NAME, Category.DATE)
    times = ws.last_decision_times([note.document_id, other])
    assert set(times) == {note.document_id}
    assert times[note.document_id] == max(d.created_at for d in ws.decisions() if d.document_id == note.document_id)
    assert DecisionAction.ACCEPT in {d.action for d in ws.decisions()}
    ws.close()
