"""Two reviewers of one document: blind second review, adjudication as the truth export and
retraining read, and workspaces of the previous schema keeping every decision."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from sqlalchemy import text

from deid_desktop.core.adjudication import Choice
from deid_desktop.core.categories import Category
from deid_desktop.core.documents.model import Document
from deid_desktop.core.learn.reviewed import load_reviewed, reviewed_documents
from deid_desktop.core.spans import Span
from deid_desktop.core.store import DecisionAction, DocStatus, InvalidDecision, Workspace
from deid_desktop.core.store.database import create_owner_only_file, current_revision, head_revision, make_engine, migrate

TEXT = "Seen by Dr Ann Lee at Leeds General on 2020-03-04. Parkinson's stable."
NAME = Span(11, 18, Category.NAME, "DOCTOR", 0.9, "model")
HOSPITAL = Span(22, 35, Category.ORGANIZATION, "HOSPITAL", 0.7, "model")
DATE = Span(39, 49, Category.DATE, score=1.0, source="rules")
EPONYM = Span(51, 62, Category.NAME, score=0.4, source="model")


@pytest.fixture
def ws(tmp_path: Path):
    workspace = Workspace.open(tmp_path / "review.sqlite")
    yield workspace
    workspace.close()


def _detected(ws: Workspace, text_: str = TEXT) -> tuple[int, list[int]]:
    doc = ws.import_document(Document.from_text(text_), subject_label="P1").document_id
    run = ws.start_detection_run(config={}, model_versions={}, device="cpu")
    return doc, ws.save_detections(doc, run, [NAME, HOSPITAL, DATE, EPONYM])


def _reviewed_twice(ws: Workspace) -> int:
    """Ann and Bob disagree on the eponym (Ann rejects, Bob keeps) and on the hospital
    (Ann keeps, Bob relabels it a location)."""
    doc, (name, hospital, date, eponym) = _detected(ws)
    ws.decide(name, DecisionAction.ACCEPT, reviewer="ann")
    ws.decide(eponym, DecisionAction.REJECT, reviewer="ann")
    assert ws.mark_double_review([doc], marked_by="lead") == [doc]
    ws.finish_review(doc, reviewer="ann")
    ws.decide(hospital, DecisionAction.RELABEL, reviewer="bob", category=Category.LOCATION)
    ws.finish_review(doc, reviewer="bob")
    return doc


def test_second_reviewer_sees_the_detector_not_the_first_reviewers_decisions(ws: Workspace):
    doc, (name, hospital, date, eponym) = _detected(ws)
    ws.decide(eponym, DecisionAction.REJECT, reviewer="ann")
    ws.decide(name, DecisionAction.RELABEL, reviewer="ann", category=Category.ID)
    ann_added = ws.add_span(doc, 0, 4, Category.NAME, reviewer="ann")
    ws.mark_double_review([doc], marked_by="lead")
    (mark,) = ws.double_reviews()
    assert (mark.first_reviewer, mark.second_reviewer) == ("ann", None)

    # Bob, before and after his first decision: every detection undecided, as detected;
    # Ann's rejection, relabel and added span are nowhere.
    for _ in range(2):
        seen = {s.id: s for s in ws.list_spans(doc, reviewer="bob")}
        assert set(seen) == {name, hospital, date, eponym}
        assert all(s.state == "undecided" for s in seen.values() if s.id != date)
        assert seen[name].category is Category.NAME
        assert ann_added not in seen
        if ws.double_reviews()[0].second_reviewer is None:
            ws.decide(date, DecisionAction.ACCEPT, reviewer="bob")
    assert ws.double_reviews()[0].second_reviewer == "bob"
    assert {s.id: s.state for s in ws.get_spans([eponym, date], reviewer="bob")} == {eponym: "undecided", date: "accepted"}

    bob_added = ws.add_span(doc, 64, 70, Category.NAME, reviewer="bob")
    ws.decide(eponym, DecisionAction.ACCEPT, reviewer="bob")
    # Ann's review is untouched by Bob's decisions, and Bob's added span is not in it.
    ann_view = {s.id: s for s in ws.list_spans(doc, reviewer="ann")}
    assert ann_view[eponym].state == "rejected" and ann_view[date].state == "undecided"
    assert bob_added not in ann_view and ann_added in ann_view
    assert {s.id for s in ws.list_spans(doc)} == set(ann_view)  # the document's own view is the first review
    # Neither may decide on the other's added span; a third person may not review at all.
    with pytest.raises(InvalidDecision, match="other review"):
        ws.decide(bob_added, DecisionAction.REJECT, reviewer="ann")
    with pytest.raises(InvalidDecision, match="adjudicate"):
        ws.decide(name, DecisionAction.ACCEPT, reviewer="cy")
    # Undo in the second review stays in the second review.
    last = ws.decisions(document_id=doc)[-1]
    ws.undo_decision(last.id, reviewer="bob")
    assert {s.id: s.state for s in ws.get_spans([eponym], reviewer="bob")} == {eponym: "undecided"}
    assert ws.get_spans([eponym], reviewer="ann")[0].state == "rejected"
    # Every decision is in the one append-only log, with who made it.
    assert {d.reviewer for d in ws.decisions(document_id=doc)} == {"ann", "bob"}


def test_adjudication_is_what_export_and_retraining_read(ws: Workspace):
    doc = _reviewed_twice(ws)
    first_review = ws.final_spans(doc)
    assert ws.awaiting_adjudication([doc]) == [doc]

    adjudication = ws.adjudication(doc)
    hospital_d, eponym_d = adjudication.disagreements
    assert hospital_d.first[0].category is Category.ORGANIZATION and hospital_d.second[0].category is Category.LOCATION
    assert eponym_d.first == () and len(eponym_d.second) == 1
    ws.adjudicate(doc, hospital_d, Choice.SECOND, adjudicator="cy")
    # Half done: still the first review, still awaiting adjudication.
    assert ws.final_spans(doc) == first_review
    assert ws.awaiting_adjudication([doc]) == [doc]
    ws.adjudicate(doc, eponym_d, Choice.NEITHER, adjudicator="cy")
    assert ws.awaiting_adjudication([doc]) == []

    truth = [(s.start, s.end, s.category) for s in ws.final_spans(doc)]
    assert truth == [
        (11, 18, Category.NAME), (22, 35, Category.LOCATION), (39, 49, Category.DATE),
    ]
    gold = [(s.start, s.end, s.category) for s in load_reviewed(ws, doc).spans]
    assert gold == truth
    # An edit replaces the choice: the adjudicator cuts the hospital to "Leeds".
    ws.adjudicate(doc, hospital_d, Choice.EDIT, adjudicator="cy", edited=[Span(22, 27, Category.LOCATION, "CITY")])
    assert (22, 27, Category.LOCATION) in [(s.start, s.end, s.category) for s in ws.final_spans(doc)]
    assert ws.adjudicators(doc) == ["cy"]


def test_unadjudicated_double_reviews_are_left_out_of_training(ws: Workspace):
    doc = _reviewed_twice(ws)
    single, _ = _detected(ws, TEXT + " Seen again.")
    ws.set_status(single, DocStatus.REVIEWED)
    assert [d.document_id for d in reviewed_documents(ws)] == [single]
    for d in ws.adjudication(doc).disagreements:
        ws.adjudicate(doc, d, Choice.FIRST, adjudicator="cy")
    assert sorted(d.document_id for d in reviewed_documents(ws)) == sorted([doc, single])


def test_adjudication_waits_for_both_reviews(ws: Workspace):
    doc, (name, *_rest) = _detected(ws)
    ws.mark_double_review([doc], marked_by="lead")
    ws.decide(name, DecisionAction.ACCEPT, reviewer="ann")
    ws.finish_review(doc, reviewer="ann")
    assert ws.adjudication_queue() == []
    assert ws.review_pairs() == ([], [])
    ws.decide(name, DecisionAction.REJECT, reviewer="bob")
    assert ws.finish_review(doc, reviewer="bob") == 2
    (row,) = ws.adjudication_queue()
    assert (row.first_reviewer, row.second_reviewer) == ("ann", "bob")
    pairs, names = ws.review_pairs()
    assert names == ["ann", "bob"] and len(pairs) == 1


def test_sample_marks_a_share_of_the_queue(ws: Workspace):
    ids = [ws.import_document(Document.from_text(f"Note {i} for Ann Lee.")).document_id for i in range(10)]
    chosen = ws.sample_double_review(30, marked_by="lead", seed=1)
    assert len(chosen) == 3 and set(chosen) <= set(ids)
    again = ws.sample_double_review(30, marked_by="lead", seed=1)
    assert not set(again) & set(chosen)  # already marked documents are not drawn again
    with pytest.raises(ValueError):
        ws.sample_double_review(0, marked_by="lead")


WHEN = "2024-05-01 10:00:00.000000"


def _workspace_at_previous_revision(path: Path) -> None:
    """Schema 0004 (the release before reviewer identity) with a document, detections and a
    decision log of accepts, a relabel, an addition and an undo."""
    create_owner_only_file(path)
    engine = make_engine(path)
    try:
        migrate(engine, path, "0004")
        with engine.begin() as c:
            assert current_revision(c) == "0004"
            c.execute(text("INSERT INTO workspace_info VALUES (1, :s, :t)"), {"s": b"k" * 32, "t": WHEN})
            c.execute(
                text(
                    "INSERT INTO documents (id, name, format, content_hash, version, status, text, segments_json,"
                    " warnings_json, meta_json, created_at, updated_at) VALUES (1, 'a.txt', 'txt', 'h1', 1,"
                    " 'reviewed', :text, :seg, '[]', '{}', :t, :t)"
                ),
                {"text": TEXT, "seg": f"[[0,{len(TEXT)},{{}}]]", "t": WHEN},
            )
            c.execute(text("INSERT INTO detection_runs (id, config_json, model_versions_json, device, started_at)"
                           " VALUES (1, '{}', '{}', 'cpu', :t)"), {"t": WHEN})
            spans = [
                (1, 1, 11, 18, "NAME", "DOCTOR", "accepted", 11, 18, "NAME", "DOCTOR"),
                (2, 1, 22, 35, "ORGANIZATION", "HOSPITAL", "accepted", 22, 35, "LOCATION", "OTHER"),
                (3, 1, 51, 62, "NAME", "OTHER", "undecided", 51, 62, "NAME", "OTHER"),
                (4, None, 39, 49, "DATE", "OTHER", "added", 39, 49, "DATE", "OTHER"),
            ]
            for sid, run, s, e, cat, fine, state, cs, ce, cc, cf in spans:
                c.execute(
                    text("INSERT INTO spans VALUES (:id, 1, :run, NULL, :s, :e, :cat, :fine, 0.9, 'model', '[]',"
                         " :state, :cs, :ce, :cc, :cf, :t)"),
                    dict(id=sid, run=run, s=s, e=e, cat=cat, fine=fine, state=state, cs=cs, ce=ce, cc=cc, cf=cf, t=WHEN),
                )
            decisions = [
                (1, 1, "accept", "ann", None, None, None, None, None),
                (2, 2, "relabel", "ann", "LOCATION", "OTHER", None, None, None),
                (3, 4, "add", "bob", "DATE", "OTHER", 39, 49, None),
                (4, 3, "reject", "bob", None, None, None, None, None),
                (5, 3, "undo", "bob", None, None, None, None, 4),
            ]
            for did, sid, action, who, cat, fine, s, e, undoes in decisions:
                c.execute(
                    text("INSERT INTO review_decisions (id, span_id, document_id, action, reviewer, category, fine,"
                         " start, \"end\", undoes_id, created_at) VALUES (:id, :sid, 1, :a, :who, :cat, :fine, :s, :e,"
                         " :u, :t)"),
                    dict(id=did, sid=sid, a=action, who=who, cat=cat, fine=fine, s=s, e=e, u=undoes, t=WHEN),
                )
    finally:
        engine.dispose()


def test_migrating_a_previous_workspace_keeps_every_decision(tmp_path: Path):
    path = tmp_path / "old.sqlite"
    _workspace_at_previous_revision(path)
    raw = sqlite3.connect(path)
    before = raw.execute("SELECT id, span_id, action, reviewer, category, start, \"end\", undoes_id FROM review_decisions ORDER BY id").fetchall()
    raw.close()

    ws = Workspace.open(path, create=False)
    try:
        with ws.session(readonly=True) as session:
            assert current_revision(session.connection()) == head_revision() != "0004"
        log = ws.decisions()
        assert [(d.id, d.span_id, d.action.value, d.reviewer) for d in log] == [(b[0], b[1], b[2], b[3]) for b in before]
        assert [d.undone for d in log] == [False, False, False, True, False]
        assert ws.replay_decisions() == 0  # the cached states still follow from the log
        states = {s.id: (s.state, s.category) for s in ws.list_spans(1)}
        assert states == {
            1: ("accepted", Category.NAME), 2: ("accepted", Category.LOCATION),
            3: ("undecided", Category.NAME), 4: ("added", Category.DATE),
        }
        # The migrated document can be double-reviewed: its last reviewer is the first.
        ws.mark_double_review([1], marked_by="lead")
        assert ws.double_reviews()[0].first_reviewer == "bob"
        assert [s.state for s in ws.list_spans(1, reviewer="cy")] == ["undecided"] * 3  # detected only
    finally:
        ws.close()

    raw = sqlite3.connect(path)
    try:
        assert raw.execute("SELECT review_pass, COUNT(*) FROM review_decisions GROUP BY review_pass").fetchall() == [(1, 5)]
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            raw.execute("UPDATE review_decisions SET reviewer = 'x'")
        raw.execute("INSERT INTO adjudications (document_id, start, \"end\", choice, spans_json, adjudicator,"
                    " created_at) VALUES (1, 0, 4, 'neither', '[]', 'cy', :t)", {"t": WHEN})
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            raw.execute("DELETE FROM adjudications")
    finally:
        raw.close()


def test_agreement_command_prints_text_and_json(tmp_path: Path, capsys):
    import json

    from deid_desktop.cli import main

    path = tmp_path / "w.sqlite"
    with Workspace.open(path) as ws:
        _reviewed_twice(ws)
    assert main(["agreement", "--workspace", str(path)]) == 0
    out = capsys.readouterr().out
    assert "Reviewers: ann, bob" in out and "Overall" in out
    assert main(["agreement", "--workspace", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    # Ann: NAME, HOSPITAL, DATE; Bob: NAME, LOCATION (relabelled hospital), DATE, EPONYM.
    assert (data["overall"]["spans_first"], data["overall"]["spans_second"], data["overall"]["spans_matched"]) == (3, 4, 2)
    assert data["reviewers"] == ["ann", "bob"] and "Ann" not in json.dumps(data)
