"""A detection run (core/usecases/detection.py) without Qt: documents detected one by one and
stored, one failure reported without stopping the rest, stopping between documents."""

from __future__ import annotations

import pytest

from deid_desktop.core.categories import Category
from deid_desktop.core.documents.model import Document
from deid_desktop.core.spans import Span
from deid_desktop.core.store import DocStatus, Workspace
from deid_desktop.core.usecases.detection import DetectionCallbacks, detect_documents, run_record


class NameFinder:
    """The smallest detector: every "Ann" is a NAME; a note that says "boom" breaks it."""

    def describe(self) -> dict:
        return {"members": {"rules": {"device": "cpu", "type": "rules"}}, "strategy": "union"}

    def detect(self, text: str) -> list[Span]:
        if "boom" in text:
            raise RuntimeError(text)  # its message quotes the note: it must not be shown
        at = text.find("Ann")
        return [Span(at, at + 3, Category.NAME, score=1.0, source="rules")] if at >= 0 else []


@pytest.fixture
def ws(tmp_path):
    w = Workspace.open(tmp_path / "workspace.sqlite")
    yield w
    w.close()


def _import(ws, text: str, name: str) -> int:
    doc = Document(text=text, format="txt", path=f"/data/{name}", source_bytes=text.encode())
    return ws.import_document(doc, source_path=f"/data/{name}").document_id


def test_each_document_is_stored_and_a_failure_is_reported_without_its_text(ws):
    ids = [_import(ws, "Ann was seen.", "a.txt"), _import(ws, "boom Ann", "b.txt"), _import(ws, "Seen by Ann.", "c.txt")]
    events = []
    cb = DetectionCallbacks(
        document_started=lambda d, i, n: events.append(("start", d, i, n)),
        document_done=lambda d, n: events.append(("done", d, n)),
        document_failed=lambda d, msg: events.append(("failed", d, msg)),
    )
    outcome = detect_documents(NameFinder(), ws, ids, cb)
    assert (outcome.documents, outcome.failed, outcome.cancelled) == (2, [ids[1]], False)
    assert events == [
        ("start", ids[0], 0, 3), ("done", ids[0], 1),
        ("start", ids[1], 1, 3), ("failed", ids[1], "detection failed: internal error (RuntimeError); see the log"),
        ("start", ids[2], 2, 3), ("done", ids[2], 1),
    ]
    assert [s.text for s in ws.list_spans(ids[2])] == ["Ann"]
    assert ws.get_document(ids[0]).status == DocStatus.DETECTED
    assert ws.get_document(ids[1]).status == DocStatus.IMPORTED


def test_stopping_keeps_what_was_stored_and_detects_nothing_more(ws):
    ids = [_import(ws, "Ann was seen.", "a.txt"), _import(ws, "Ann again.", "b.txt")]
    done: list[int] = []
    outcome = detect_documents(NameFinder(), ws, ids, DetectionCallbacks(document_done=lambda d, n: done.append(d), should_stop=lambda: bool(done)))
    assert (outcome.documents, outcome.cancelled, done) == (1, True, [ids[0]])
    assert ws.get_document(ids[1]).status == DocStatus.IMPORTED


def test_the_run_record_names_members_devices_and_versions():
    assert run_record(NameFinder()) == {"config": {}, "model_versions": {"rules": "rules"}, "device": "cpu"}
