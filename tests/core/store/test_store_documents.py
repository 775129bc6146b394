"""Importing documents into a workspace: duplicates, new versions, subjects, failed imports."""

from __future__ import annotations

from pathlib import Path

import pytest

from deid_desktop.core.categories import Category
from deid_desktop.core.documents.model import Document, Segment
from deid_desktop.core.spans import Span
from deid_desktop.core.store import (
    DecisionAction,
    DocStatus,
    RecordNotFound,
    Workspace,
    WorkspaceError,
)


@pytest.fixture
def ws(tmp_path: Path):
    workspace = Workspace.open(tmp_path / "review.sqlite")
    yield workspace
    workspace.close()


def _txt(text: str, path: str) -> Document:
    data = text.encode("utf-8")
    return Document(
        text=text, format="txt", path=path, segments=[Segment(0, len(text))],
        meta={"encoding": "utf-8", "newline": "\n"}, source_bytes=data,
    )


def test_first_import_is_new_and_listed_with_its_subject(ws: Workspace):
    result = ws.import_document(_txt("Mr Smith, 54, seen today.", "/in/p1/note.txt"), subject_label="P1")
    assert result.status == "new" and result.previous_id is None
    row = ws.get_document(result.document_id)
    assert row.name == "note.txt"
    assert row.source_path == "/in/p1/note.txt"
    assert row.subject_label == "P1"
    assert row.version == 1
    assert row.status is DocStatus.IMPORTED
    assert row.format == "txt"
    assert row.content_hash == _txt("Mr Smith, 54, seen today.", "x").content_hash
    assert (row.n_spans, row.n_undecided) == (0, 0)
    assert [d.id for d in ws.list_documents()] == [result.document_id]


def test_same_content_again_is_a_duplicate_even_from_another_path(ws: Workspace):
    first = ws.import_document(_txt("Mr Smith, 54, seen today.", "/in/note.txt"))
    again = ws.import_document(_txt("Mr Smith, 54, seen today.", "/in/note.txt"))
    copy = ws.import_document(_txt("Mr Smith, 54, seen today.", "/elsewhere/copy.txt"))
    assert again.status == "duplicate" and again.document_id == first.document_id
    assert copy.status == "duplicate" and copy.document_id == first.document_id
    assert len(ws.list_documents()) == 1


def test_changed_file_becomes_a_new_version_and_old_decisions_stay(ws: Workspace):
    v1 = ws.import_document(_txt("Mr Smith seen today.", "/in/note.txt"), subject_label="P1")
    run = ws.start_detection_run(config={}, model_versions={}, device="cpu")
    (span_id,) = ws.save_detections(v1.document_id, run, [Span(3, 8, Category.NAME)])
    decision = ws.decide(span_id, DecisionAction.ACCEPT, reviewer="ann")

    v2 = ws.import_document(_txt("Mr Smith seen today and tomorrow.", "/in/note.txt"))

    assert v2.status == "new_version" and v2.previous_id == v1.document_id
    new_row = ws.get_document(v2.document_id)
    assert new_row.version == 2
    assert new_row.previous_id == v1.document_id
    assert new_row.subject_label == "P1"  # a new version belongs to the same patient
    assert [d.id for d in ws.decisions(document_id=v1.document_id)] == [decision]
    assert [(s.id, s.state) for s in ws.list_spans(v1.document_id)] == [(span_id, "accepted")]
    assert ws.load_document(v1.document_id).text == "Mr Smith seen today."
    assert ws.list_spans(v2.document_id) == []
    assert [d.id for d in ws.list_documents(latest_only=True)] == [v2.document_id]
    assert [d.id for d in ws.list_documents()] == [v1.document_id, v2.document_id]


def test_load_document_rebuilds_text_segments_meta_warnings_and_bytes(ws: Workspace):
    doc = Document(
        text="Name: Ann Lee\nDOB: 1970-01-02",
        format="docx",
        path="/in/letter.docx",
        segments=[
            Segment(0, 13, {"part": "word/document.xml", "para": [0], "run": 0, "offset": 0}),
            Segment(14, 29, {"part": "word/document.xml", "para": [1], "run": 2, "offset": 5}),
        ],
        warnings=["a text box was skipped"],
        meta={"page_sizes": [[595.0, 842.0]], "core": {"has_comments": False}},
        source_bytes=b"PK\x03\x04 not really a zip \x00\xff",
    )
    loaded = ws.load_document(ws.import_document(doc).document_id)
    assert loaded.text == doc.text
    assert loaded.format == "docx"
    assert loaded.path == "/in/letter.docx"
    assert loaded.segments == doc.segments
    assert loaded.warnings == doc.warnings
    assert loaded.meta == doc.meta
    assert loaded.source_bytes == doc.source_bytes
    assert loaded.content_hash == doc.content_hash


def test_failed_import_is_recorded_once_and_a_fixed_file_follows_it(ws: Workspace):
    error_id = ws.record_import_error("/in/scan.pdf", "image_only", "no text layer; OCR is needed")
    again = ws.record_import_error("/in/scan.pdf", "encrypted", "the PDF is password protected")
    assert again == error_id
    row = ws.get_document(error_id)
    assert row.status is DocStatus.ERROR
    assert (row.error_code, row.error_reason) == ("encrypted", "the PDF is password protected")
    assert row.content_hash is None
    assert [d.id for d in ws.list_documents(status=DocStatus.ERROR)] == [error_id]
    with pytest.raises(WorkspaceError, match="scan.pdf"):
        ws.load_document(error_id)

    fixed = ws.import_document(_txt("Readable now.", "/in/scan.pdf"))
    assert fixed.status == "new_version" and fixed.previous_id == error_id
    assert ws.get_document(fixed.document_id).version == 2


def test_subjects_are_found_by_label_and_assigned_to_documents(ws: Workspace):
    p1 = ws.get_or_create_subject("P1")
    assert ws.get_or_create_subject(" P1 ").id == p1.id
    doc = ws.import_document(_txt("Ann Lee.", "/in/a.txt")).document_id
    other = ws.import_document(_txt("Bob Ray.", "/in/b.txt"), subject_label="P2").document_id
    ws.assign_subject(doc, "P1")
    assert [s.label for s in ws.list_subjects()] == ["P1", "P2"]
    assert [d.id for d in ws.list_documents(subject_id=p1.id)] == [doc]
    assert ws.get_document(other).subject_label == "P2"
    with pytest.raises(ValueError):
        ws.get_or_create_subject("   ")


def test_subject_key_is_stable_per_workspace_and_differs_between_subjects(tmp_path: Path):
    first = Workspace.open(tmp_path / "a.sqlite")
    p1, p2 = first.get_or_create_subject("P1"), first.get_or_create_subject("P2")
    key1, key2 = first.subject_key(p1.id), first.subject_key(p2.id)
    first.close()
    reopened = Workspace.open(tmp_path / "a.sqlite")
    elsewhere = Workspace.open(tmp_path / "b.sqlite")
    try:
        assert len(key1) == 32 and key1 != key2
        assert reopened.subject_key(p1.id) == key1
        # The same label in another workspace gets unrelated key material.
        assert elsewhere.subject_key(elsewhere.get_or_create_subject("P1").id) != key1
    finally:
        reopened.close()
        elsewhere.close()


def test_status_changes_are_listed_and_unknown_ids_are_reported(ws: Workspace):
    doc = ws.import_document(_txt("Ann Lee.", "/in/a.txt")).document_id
    ws.set_status(doc, DocStatus.REVIEWED)
    assert ws.get_document(doc).status is DocStatus.REVIEWED
    assert [d.id for d in ws.list_documents(status=DocStatus.REVIEWED)] == [doc]
    assert ws.list_documents(status=DocStatus.IMPORTED) == []
    with pytest.raises(RecordNotFound):
        ws.get_document(doc + 100)
    with pytest.raises(RecordNotFound):
        ws.set_status(doc + 100, DocStatus.REVIEWED)


def test_a_page_ocr_could_not_read_is_accepted_once_and_kept(ws: Workspace):
    doc = Document(text="Clinic letter.", format="pdf", path="/in/scan.pdf", segments=[Segment(0, 14, {"page": 0})],
                   meta={"ocr": {"pages": [1, 2], "blank_pages": [2]}}, source_bytes=b"%PDF-1.4 scan")
    doc_id = ws.import_document(doc).document_id
    before = ws.get_document(doc_id).updated_at
    ws.accept_unread_page(doc_id, 2)
    ws.accept_unread_page(doc_id, 2)
    meta = ws.load_document(doc_id).meta
    assert meta["accepted_unread_pages"] == [2] and meta["ocr"]["blank_pages"] == [2]
    assert ws.get_document(doc_id).updated_at >= before
    with pytest.raises(WorkspaceError):
        ws.accept_unread_page(doc_id, 1)  # OCR read page 1: nothing to accept
