"""Residual risk per document: the riskiest document is the one with the most open findings
the ensemble was unsure about or split on; reasons count, never quote."""

from __future__ import annotations

from pathlib import Path

import pytest

from deid_desktop.core.categories import Category
from deid_desktop.core.documents.model import Document
from deid_desktop.core.spans import Span
from deid_desktop.core.store import DecisionAction, DocStatus, Workspace
from deid_desktop.core.store.risk import document_risks

MEMBERS = {"rules": "r1", "minilm-balanced": "m1", "minilm-imbalanced": "m2"}
ALL = tuple(MEMBERS)
TEXT = "Seen by Dr Ann Lee at Leeds General on 2020-03-04 with Mary Fox, phone 0113 496 0000."
NAME = (11, 18)  # Ann Lee
PLACE = (22, 35)  # Leeds General
DATE = (39, 49)
OTHER = (55, 63)  # Mary Fox
PHONE = (71, 84)


@pytest.fixture
def ws(tmp_path: Path):
    workspace = Workspace.open(tmp_path / "risk.sqlite")
    yield workspace
    workspace.close()


def _doc(ws: Workspace, name: str, spans: list[Span], threshold: float = 0.5) -> int:
    # Each document its own bytes: identical bytes would import as one duplicate document.
    doc = ws.import_document(Document.from_text(f"{TEXT} Copy {name}.", path=f"/in/{name}.txt")).document_id
    run = ws.start_detection_run(config={"ensemble": {"strategy": "majority", "threshold": threshold}}, model_versions=MEMBERS, device="cpu")
    ws.save_detections(doc, run, spans)
    return doc


def _span(at: tuple[int, int], score: float = 1.0, members: tuple[str, ...] = ALL, category=Category.NAME) -> Span:
    return Span(at[0], at[1], category, score=score, source=members[0] if members else "propagation", members=members)


def test_split_and_unsure_findings_rank_above_sure_ones_and_decided_documents_score_zero(ws: Workspace):
    sure = _doc(ws, "sure", [_span(NAME), _span(PLACE, category=Category.ORGANIZATION), _span(DATE, category=Category.DATE)])
    split = _doc(ws, "split", [_span(NAME, 0.9, ("rules",)), _span(OTHER, 0.9, ("rules", "minilm-balanced"))])
    unsure = _doc(ws, "unsure", [_span(NAME, 0.55), _span(OTHER, 0.6)])
    worst = _doc(ws, "worst", [_span(NAME, 0.52, ("minilm-balanced",)), _span(OTHER, 0.58, ("rules",)), _span(PHONE, 1.0, category=Category.CONTACT)])
    reviewed = _doc(ws, "reviewed", [_span(NAME, 0.51, ("rules",))])
    for span in ws.list_spans(reviewed):
        ws.decide(span.id, DecisionAction.ACCEPT, reviewer="r")
    ws.set_status(reviewed, DocStatus.REVIEWED)

    risks = document_risks(ws)
    ranked = sorted(risks, key=lambda i: -risks[i].score)
    assert ranked == [worst, split, unsure, sure, reviewed]
    assert risks[reviewed].score == 0
    assert risks[reviewed].reason == "nothing left open"
    assert risks[worst].reason == "3 open findings, 2 where the detectors disagree, 2 low-confidence"
    assert risks[split].reason == "2 open findings, 2 where the detectors disagree"
    assert risks[sure].reason == "3 open findings"


def test_accepting_every_finding_of_the_riskiest_document_drops_it_to_the_bottom(ws: Workspace):
    risky = _doc(ws, "risky", [_span(NAME, 0.5, ("rules",)), _span(OTHER, 0.55, ("minilm-balanced",))])
    calm = _doc(ws, "calm", [_span(DATE, 1.0, category=Category.DATE)])
    assert document_risks(ws)[risky].score > document_risks(ws)[calm].score
    first, second = ws.list_spans(risky)
    ws.decide(first.id, DecisionAction.ACCEPT, reviewer="r")
    half = document_risks(ws, [risky])[risky]
    assert (half.open, half.disagreed, half.low_confidence) == (1, 1, 1)
    ws.decide(second.id, DecisionAction.REJECT, reviewer="r")
    risks = document_risks(ws)
    assert risks[risky].score == 0 < risks[calm].score


def test_uncertainty_is_measured_from_the_runs_own_threshold(ws: Workspace):
    # 0.8 is sure under the default threshold but right at a soft vote's 0.8.
    default = _doc(ws, "default", [_span(NAME, 0.8)])
    strict = _doc(ws, "strict", [_span(NAME, 0.8)], threshold=0.8)
    risks = document_risks(ws)
    assert risks[strict].score > risks[default].score
    assert (risks[strict].low_confidence, risks[default].low_confidence) == (1, 0)


def test_findings_from_outside_the_vote_and_single_member_runs_are_no_disagreement(ws: Workspace):
    propagated = _doc(ws, "propagated", [_span(NAME, 1.0, ("propagation",)), _span(OTHER, 1.0, ())])
    doc = ws.import_document(Document.from_text(TEXT, path="/in/rules-only.txt")).document_id
    run = ws.start_detection_run(config={}, model_versions={"rules": "r1"}, device="cpu")
    ws.save_detections(doc, run, [_span(NAME, 1.0, ("rules",))])
    risks = document_risks(ws)
    assert risks[propagated].disagreed == 0
    assert risks[doc].disagreed == 0
    assert risks[doc].reason == "1 open finding"


def test_a_stale_export_counts_and_says_so(ws: Workspace):
    doc = _doc(ws, "exported", [])
    ws.set_status(doc, DocStatus.EXPORTED)
    assert document_risks(ws)[doc].score == 0
    stale = document_risks(ws, changed_since_export={doc})[doc]
    assert stale.score > 0 and stale.reason == "changed since export"


def test_documents_without_findings_to_rank_have_no_score_and_say_why(ws: Workspace):
    undetected = ws.import_document(Document.from_text(TEXT, path="/in/new.txt")).document_id
    failed = ws.record_import_error("/in/broken.pdf", "corrupt", "the PDF is damaged")
    risks = document_risks(ws)
    assert risks[undetected].score is None
    assert "detection has not run" in risks[undetected].reason
    assert risks[failed].score is None
    assert risks[failed].reason == "could not be imported: nothing to review"


def test_reasons_hold_no_document_text_and_a_subset_query_matches_the_full_one(ws: Workspace):
    docs = [_doc(ws, f"n{i}", [_span(NAME, 0.5 + i / 10, ("rules",) if i % 2 else ALL), _span(PHONE, 0.9, category=Category.CONTACT)]) for i in range(4)]
    full = document_risks(ws)
    for doc in docs:
        assert document_risks(ws, [doc]) == {doc: full[doc]}
        for span in ws.list_spans(doc):
            assert span.text not in full[doc].reason
            assert not set(span.text.split()) & set(full[doc].reason.split())
