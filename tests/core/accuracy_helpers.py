"""A workspace whose reviewed documents have known word counts per model version, shared by
the core and GUI tests of the accuracy dashboard.

Document 1 (version v1, reviewed in March 2024): "Dr Li Wei" proposed as a name and resized
to "Li Wei" (2 TP, 1 FP), the date accepted (3 TP), "Parkinson" rejected (1 FP), "Rata"
proposed as a name and relabelled to a location (1 FP name, 1 FN location), the phone number
added by the reviewer (3 FN contact).
Document 2 (version v2, March 2024): "Li Wei" accepted (2 TP name).
Document 3 (version v1, April 2024): "Li Wei" left undecided in a document marked reviewed
(2 TP name: export replaces it).
Document 4: in review, not yet reviewed: not counted.
Document 5: reviewed with only the reviewer's own span, no detection on record: left out.
"""

from __future__ import annotations

from datetime import datetime, timezone

from deid_desktop.core.categories import Category
from deid_desktop.core.documents.model import Document
from deid_desktop.core.spans import Span
from deid_desktop.core.store import DecisionAction, DocStatus, Workspace

TEXT = "Seen by Dr Li Wei on 12/03/2024 at Rata ward. Parkinson reviewed. Phone 021 555 0199.\n"
V1 = {"rules": "RuleSet", "minilm": "/models/site/v1"}
V2 = {"rules": "RuleSet", "minilm": "v2"}
MARCH = datetime(2024, 3, 14, 9, 0, tzinfo=timezone.utc)
APRIL = datetime(2024, 4, 2, 9, 0, tzinfo=timezone.utc)


def at(value: str) -> tuple[int, int]:
    s = TEXT.index(value)
    return s, s + len(value)


def _span(value: str, category: Category) -> Span:
    s, e = at(value)
    return Span(s, e, category, score=0.9, source="model")


def _import(ws: Workspace, i: int) -> int:
    return ws.import_document(Document.from_text(TEXT + f"Note {i}.\n", path=f"n{i}.txt"), source_path=f"n{i}.txt").document_id


def _detect(ws: Workspace, doc: int, versions: dict, spans: list[Span]) -> list[int]:
    run = ws.start_detection_run(config={}, model_versions=versions, device="cpu")
    return ws.save_detections(doc, run, spans)


def build(ws: Workspace, monkeypatch) -> None:
    import deid_desktop.core.store.review as review

    def decided_at(when: datetime) -> None:
        monkeypatch.setattr(review, "utc_now", lambda: when)

    decided_at(MARCH)
    d1 = _import(ws, 1)
    name, date, parkinson, rata = _detect(ws, d1, V1, [
        _span("Dr Li Wei", Category.NAME), _span("12/03/2024", Category.DATE),
        _span("Parkinson", Category.NAME), _span("Rata", Category.NAME),
    ])
    li = at("Li Wei")
    ws.decide(name, DecisionAction.RESIZE, reviewer="t", start=li[0], end=li[1])
    ws.decide(date, DecisionAction.ACCEPT, reviewer="t")
    ws.decide(parkinson, DecisionAction.REJECT, reviewer="t")
    ws.decide(rata, DecisionAction.RELABEL, reviewer="t", category=Category.LOCATION)
    phone = at("021 555 0199")
    ws.add_span(d1, *phone, Category.CONTACT, "PHONE", reviewer="t")
    ws.set_status(d1, DocStatus.REVIEWED)

    d2 = _import(ws, 2)
    (only,) = _detect(ws, d2, V2, [_span("Li Wei", Category.NAME)])
    ws.decide(only, DecisionAction.ACCEPT, reviewer="t")
    ws.set_status(d2, DocStatus.EXPORTED)

    decided_at(APRIL)
    d3 = _import(ws, 3)
    (left,) = _detect(ws, d3, V1, [_span("Li Wei", Category.NAME)])
    ws.decide(left, DecisionAction.ACCEPT, reviewer="t")
    ws.undo_decision(ws.decisions(document_id=d3)[-1].id, reviewer="t")
    ws.set_status(d3, DocStatus.REVIEWED)

    d4 = _import(ws, 4)
    (open_,) = _detect(ws, d4, V2, [_span("Parkinson", Category.NAME)])
    ws.decide(open_, DecisionAction.REJECT, reviewer="t")

    d5 = _import(ws, 5)
    ws.add_span(d5, *li, Category.NAME, reviewer="t")
    ws.set_status(d5, DocStatus.REVIEWED)
