"""Text export, and the rules every writer shares: format choice, file naming, refusal of
bad replacement lists."""

from __future__ import annotations

import codecs

import pytest

from deid_desktop.core.documents import Document, Replacement, apply_replacements
from deid_desktop.core.documents.export import ExportWarning, export_document, output_suffix, write_document
from deid_desktop.core.documents.ingest import load_document
from deid_desktop.core.errors import ExportError

from tests.core.docfactory import DocxBuilder, find_leaks, replacements_for

NOTE = "Patient: Mere Parata\r\nNHI ABC1234, seen by Dr Aroha Ngata\r\nPhone 027 415 8830\r\n"
SURROGATES = {"Mere Parata": "Ana Lewis", "ABC1234": "QRS9876", "Aroha Ngata": "Kate Moore", "027 415 8830": "021 555 0101"}


@pytest.mark.parametrize(
    ("encoding", "bom"),
    [("utf-8", b""), ("utf-8", codecs.BOM_UTF8), ("utf-16-le", codecs.BOM_UTF16_LE), ("utf-16-be", b""), ("cp1252", b"")],
)
def test_round_trip_keeps_encoding_bom_and_crlf(tmp_path, encoding, bom):
    path = tmp_path / "note.txt"
    path.write_bytes(bom + NOTE.encode(encoding))
    doc = load_document(path)
    reps = replacements_for(doc.text, SURROGATES)

    out = write_document(doc, reps, tmp_path / "note.deid.txt")

    raw = out.read_bytes()
    expected = apply_replacements(NOTE, reps)
    assert raw == bom + expected.encode(encoding)
    assert expected.count("\r\n") == 3
    assert find_leaks([raw], list(SURROGATES)) == []
    back = load_document(out)
    assert back.text == expected and back.meta == doc.meta


def test_surrogate_outside_windows_1252_falls_back_to_utf8_with_a_warning(tmp_path):
    path = tmp_path / "ansi.txt"
    path.write_bytes("Patient: Zoë Walker\r\n".encode("cp1252"))
    doc = load_document(path)
    reps = replacements_for(doc.text, {"Zoë Walker": "Łukasz Tāwhai"})

    with pytest.warns(ExportWarning, match="UTF-8"):
        out = write_document(doc, reps, tmp_path / "ansi.deid.txt")

    assert out.read_bytes() == codecs.BOM_UTF8 + "Patient: Łukasz Tāwhai\r\n".encode("utf-8")
    assert load_document(out).text == "Patient: Łukasz Tāwhai\r\n"
    result = export_document(doc, reps, tmp_path / "again.txt")
    assert len(result.warnings) == 1 and "Zoë" not in result.warnings[0]


def test_text_given_directly_is_written_as_utf8(tmp_path):
    doc = Document.from_text("Seen: Mere Parata")
    out = write_document(doc, replacements_for(doc.text, SURROGATES), tmp_path)
    assert out == tmp_path / "document.txt"
    assert out.read_text(encoding="utf-8") == "Seen: Ana Lewis"


def test_output_suffix_and_allowed_formats(tmp_path):
    b = DocxBuilder()
    b.paragraph("Mere Parata")
    docx_doc = load_document(b.save(tmp_path / "a.docx"))
    text_doc = Document.from_text("x")

    assert output_suffix(docx_doc, None) == ".docx"
    assert output_suffix(docx_doc, "txt") == ".txt"
    assert output_suffix(text_doc, None) == ".txt"
    for doc, fmt in ((docx_doc, "pdf"), (text_doc, "docx"), (docx_doc, "rtf")):
        with pytest.raises(ExportError) as err:
            write_document(doc, [], tmp_path / "out", fmt=fmt)
        assert err.value.code == "unsupported_format"


def test_suffix_is_appended_when_the_name_lacks_it_and_folders_get_the_original_name(tmp_path):
    path = tmp_path / "letter.txt"
    path.write_text("Mere Parata", encoding="utf-8")
    doc = load_document(path)

    # the batch pipeline writes to "<name>.part" and renames afterwards
    assert write_document(doc, [], tmp_path / "letter.deid.txt.part").name == "letter.deid.txt.part.txt"
    assert write_document(doc, [], tmp_path / "letter.deid.txt").name == "letter.deid.txt"
    outdir = tmp_path / "out"
    outdir.mkdir()
    assert write_document(doc, [], outdir) == outdir / "letter.txt"
    assert write_document(doc, [], tmp_path / "new" / "sub" / "x.txt").is_file()


def test_overlapping_or_out_of_range_replacements_are_refused_and_nothing_is_written(tmp_path):
    doc = Document.from_text("Mere Parata")
    for reps in (
        [Replacement(0, 6, "A", "NAME"), Replacement(4, 11, "B", "NAME")],
        [Replacement(5, 40, "A", "NAME")],
    ):
        with pytest.raises(ExportError) as err:
            write_document(doc, reps, tmp_path / "bad.txt")
        assert err.value.code == "invalid_replacements"
    assert list(tmp_path.iterdir()) == []


def test_writing_needs_the_original_bytes_for_word_and_pdf(tmp_path):
    b = DocxBuilder()
    b.paragraph("Mere Parata")
    doc = load_document(b.save(tmp_path / "a.docx"))
    doc.source_bytes = None
    with pytest.raises(ExportError) as err:
        write_document(doc, [], tmp_path / "a.deid.docx")
    assert err.value.code == "no_source"
    assert write_document(doc, [], tmp_path / "a.deid", fmt="txt").read_text(encoding="utf-8") == "Mere Parata"
