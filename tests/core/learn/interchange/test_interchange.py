"""Annotations move both ways between this app and brat, CoNLL, Prodigy, doccano and Label
Studio."""

from __future__ import annotations

import json

import pytest

from deid_desktop import learn_cli
from deid_desktop.core.categories import Category
from deid_desktop.core.errors import ConfigError
from deid_desktop.core.learn.interchange import (
    FORMATS,
    AnnotatedDocument,
    detect_format,
    export_reviewed,
    import_reviewed,
    read_annotations,
    write_annotations,
)
from deid_desktop.core.spans import Span
from deid_desktop.core.store import DecisionAction, DocStatus

from tests.core.learning_helpers import add_note, at, open_workspace

TEXT = "Seen by Dr Hemi Walker on 12/03/2024.\r\nPhone (09) 555 1234, Kōwhai ward.\nNext: O'Brien-Smith.\n"


def doc() -> AnnotatedDocument:
    spans = [
        Span(*at(TEXT, "Hemi Walker"), Category.NAME, "DOCTOR"),
        Span(*at(TEXT, "12/03/2024"), Category.DATE),
        Span(*at(TEXT, "(09) 555 1234"), Category.CONTACT, "PHONE"),
        Span(*at(TEXT, "Kōwhai"), Category.LOCATION),
        Span(*at(TEXT, "O'Brien-Smith"), Category.NAME, "PATIENT"),
    ]
    return AnnotatedDocument("note-1", TEXT, spans, "subject-7")


def values(d: AnnotatedDocument, fine: bool = True):
    return [(d.text[s.start : s.end], s.category.value) + ((s.fine,) if fine else ()) for s in d.spans]


OUT = {"brat": "brat", "conll": "x.conll", "labelstudio": "x.json"}
KEEPS_FINE = {"jsonl", "brat", "prodigy"}
KEEPS_TEXT = {"jsonl", "brat", "prodigy", "doccano", "labelstudio"}


@pytest.mark.parametrize("fmt", FORMATS)
def test_round_trip_keeps_every_span(fmt, tmp_path):
    out = tmp_path / OUT.get(fmt, "x.jsonl")
    empty = AnnotatedDocument("note-2", "No PHI here.\n", [])
    assert write_annotations([doc(), empty], out, fmt) == 2
    assert detect_format(out) == fmt
    back, report = read_annotations(out)
    assert report.problems == [] and not report.unknown_labels
    assert len(back) == 2 and back[1].spans == []
    fine = fmt in KEEPS_FINE
    assert values(back[0], fine) == values(doc(), fine)
    if fmt in KEEPS_TEXT:
        assert back[0].text == TEXT  # offsets were exact, \r\n and all
    if fmt in ("jsonl", "prodigy", "doccano", "labelstudio"):
        assert back[0].subject == "subject-7"


def test_foreign_labels_are_mapped_and_unknown_ones_reported(tmp_path):
    p = tmp_path / "foreign.jsonl"
    t = "Mr Tane Wiremu at Auckland City Hospital, MRN 1234567, a CEO, likes jazz."
    spans = [
        {"start": 3, "end": 14, "label": "PERSON"},
        {"start": 18, "end": 40, "label": "HOSPITAL"},
        {"start": 46, "end": 53, "label": "MEDICALRECORD"},
        {"start": 57, "end": 60, "label": "OCCUPATION_X"},
        {"start": 68, "end": 72, "label": "MISC"},
        {"start": 60, "end": 95, "label": "NAME"},  # past the end of the text
    ]
    p.write_text(json.dumps({"id": "f1", "text": t, "spans": spans}) + "\n", encoding="utf-8")
    [d], report = read_annotations(p, "jsonl")
    assert values(d) == [("Tane Wiremu", "NAME", "OTHER"), ("Auckland City Hospital", "ORGANIZATION", "HOSPITAL"), ("1234567", "ID", "MRN")]
    assert report.unknown_labels == {"OCCUPATION_X": 1}
    assert report.problems == ["foreign.jsonl line 1: span 60..95 lies outside the text"]
    [d2], _ = read_annotations(p, "jsonl", label_map={"OCCUPATION_X": "PROFESSION"})
    assert ("CEO", "PROFESSION", "OTHER") in values(d2)


def test_conll_with_bioes_tags_and_blank_line_pairs_between_documents(tmp_path):
    p = tmp_path / "x.bio"
    p.write_text(
        "Dr O\nAna S-PER\nKupu O\n\nsaw O\nJohn B-PER\nvan I-PER\nDyke E-PER\n\n\nSecond O\ndoc O\nOtago U-LOC\n\n",
        encoding="utf-8",
    )
    docs, report = read_annotations(p)
    assert [values(d, fine=False) for d in docs] == [[("Ana", "NAME"), ("John van Dyke", "NAME")], [("Otago", "LOCATION")]]
    assert docs[0].text == "Dr Ana Kupu\nsaw John van Dyke\n"


def test_prodigy_and_label_studio_skip_what_their_users_rejected(tmp_path):
    p = tmp_path / "p.jsonl"
    lines = [
        {"text": "Ana Kupu", "spans": [{"start": 0, "end": 8, "label": "PERSON"}], "answer": "accept", "_task_hash": 1},
        {"text": "Bo Li", "spans": [{"start": 0, "end": 5, "label": "PERSON"}], "answer": "reject", "_task_hash": 2},
    ]
    p.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    assert [d.text for d in read_annotations(p)[0]] == ["Ana Kupu"]
    ls = tmp_path / "ls.json"
    task = {"data": {"text": "Ana Kupu"}, "annotations": [
        {"result": [{"value": {"start": 0, "end": 8, "labels": ["PER"]}}], "was_cancelled": False},
        {"result": [{"value": {"start": 0, "end": 3, "labels": ["PER"]}}], "was_cancelled": True},
    ]}
    ls.write_text(json.dumps([task]), encoding="utf-8")
    [d], _ = read_annotations(ls)
    assert values(d, fine=False) == [("Ana Kupu", "NAME")]


def test_unreadable_input_is_named_not_quoted(tmp_path):
    with pytest.raises(ConfigError, match="missing.jsonl: no such file"):
        read_annotations(tmp_path / "missing.jsonl")
    odd = tmp_path / "notes.xyz"
    odd.write_text("x", encoding="utf-8")
    with pytest.raises(ConfigError, match="notes.xyz: cannot tell the annotation format"):
        read_annotations(odd)
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"text": "Ana Kupu"\n{"id": 2}\n', encoding="utf-8")
    docs, report = read_annotations(bad, "jsonl")
    assert docs == [] and report.problems == ["bad.jsonl line 1: not valid JSON", "bad.jsonl line 2: no string field 'text'"]


def test_imported_documents_become_reviewed_with_add_decisions_by_import(tmp_path):
    src = tmp_path / "gold.jsonl"
    write_annotations([doc()], src, "jsonl")
    ws = open_workspace(tmp_path)
    report = import_reviewed(ws, src)
    assert report.imported == 1 and report.spans == 5
    [row] = ws.list_documents()
    assert row.status is DocStatus.REVIEWED and row.subject_label == "subject-7"
    decisions = ws.decisions(document_id=row.id)
    assert {(d.action, d.reviewer) for d in decisions} == {(DecisionAction.ADD, "import")}
    assert [(TEXT[s.start : s.end], s.category.value, s.fine) for s in ws.final_spans(row.id)] == values(doc())
    again = import_reviewed(ws, src)
    assert again.imported == 0 and again.duplicates == 1
    assert len(ws.list_documents()) == 1
    ws.close()


@pytest.mark.parametrize("fmt", FORMATS)
def test_workspace_export_then_import_into_another_workspace(fmt, tmp_path):
    a = open_workspace(tmp_path, "a.sqlite")
    notes = [add_note(a, i) for i in range(2)]
    out = tmp_path / OUT.get(fmt, "x.jsonl")
    assert export_reviewed(a, out, fmt) == 2
    b = open_workspace(tmp_path, "b.sqlite")
    assert learn_cli.main(["import-reviewed", "--workspace", str(b.path), str(out), "--format", fmt]) == 0
    for note, row in zip(notes, b.list_documents()):
        expect = [(note.text[s.start : s.end], s.category.value) for s in a.final_spans(note.document_id)]
        text = b.load_document(row.id).text
        assert [(text[s.start : s.end], s.category.value) for s in b.final_spans(row.id)] == expect
        assert "Parkinson" not in {text[s.start : s.end] for s in b.final_spans(row.id)}  # rejected stays out
    a.close()
    b.close()


def test_export_command_writes_a_label_studio_interface(tmp_path, capsys):
    ws = open_workspace(tmp_path)
    add_note(ws, 0)
    out = tmp_path / "tasks.json"
    assert learn_cli.main(["export-reviewed", "--workspace", str(ws.path), str(out), "--format", "labelstudio"]) == 0
    xml = (tmp_path / "tasks.label_config.xml").read_text(encoding="utf-8")
    assert '<Label value="NAME"/>' in xml and "$text" in xml
    assert "1 reviewed document(s)" in capsys.readouterr().out
    ws.close()


def test_a_registered_format_is_read_and_written_through_the_registry(tmp_path, monkeypatch):
    """A new format is one module calling ``register``: reading, writing and the format list
    reach it with no other edit."""
    from deid_desktop.core.learn.interchange import registry

    monkeypatch.setattr(registry, "_FORMATS", dict(registry._FORMATS))

    def write_lines(docs, out):
        out.write_text("\n".join(d.text for d in docs), encoding="utf-8")
        return len(docs)

    def read_lines(p, mapper, report):
        return [AnnotatedDocument(str(k), line) for k, line in enumerate(p.read_text(encoding="utf-8").splitlines())]

    registry.register("lines", read_lines, write_lines)
    assert registry.format_names()[-1] == "lines"
    out = tmp_path / "sub" / "notes.lines"
    assert write_annotations([AnnotatedDocument("a", "one"), AnnotatedDocument("b", "two")], out, "lines") == 2
    docs, report = read_annotations(out, "lines")
    assert [d.text for d in docs] == ["one", "two"] and report.documents == 2
    with pytest.raises(ValueError, match="registered twice"):
        registry.register("lines", read_lines, write_lines)
    with pytest.raises(ConfigError, match="unknown annotation format 'nope'; expected one of jsonl, brat, conll"):
        write_annotations([], tmp_path / "x", "nope")
