"""Bad input: every broken, hostile or mislabelled file gets an IngestError with a code and a
message that names the file and the reason — never a traceback, a hang, or document content."""

from __future__ import annotations

import io
import os
import zipfile
from pathlib import Path

import pytest

from deid_desktop.core.documents.ingest import iter_input_files, load_document
from deid_desktop.core.errors import IngestError

from tests.core.docfactory import (
    DocxBuilder,
    PdfSpec,
    encrypt_pdf,
    make_encrypted_docx,
    make_image_pdf,
    make_legacy_doc,
    make_pdf,
)

SECRET = "Mere Parata"


def _refused(path: Path, code: str, **kwargs) -> IngestError:
    with pytest.raises(IngestError) as err:
        load_document(path, **kwargs)
    e = err.value
    assert e.code == code, (e.code, str(e))
    assert str(e).startswith(f"{path.name}: ")
    assert str(path.parent) not in str(e)  # the base name only
    assert SECRET.lower() not in str(e).lower()
    return e


def _docx_bytes() -> bytes:
    b = DocxBuilder()
    b.paragraph(f"Patient {SECRET} was seen today.")
    return b.to_bytes()


def _pdf_bytes() -> bytes:
    data, _ = make_pdf(None, PdfSpec(pages=[[(72, 90, f"Patient {SECRET} was seen today.")]]))
    return data


@pytest.mark.parametrize("suffix", [".txt", ".docx", ".pdf"])
def test_empty_file(tmp_path, suffix):
    path = tmp_path / f"empty{suffix}"
    path.write_bytes(b"")
    _refused(path, "empty")


def test_whitespace_only_text_is_empty(tmp_path):
    path = tmp_path / "blank.txt"
    path.write_bytes(b"  \r\n\t\r\n")
    _refused(path, "empty")


def test_binary_garbage_named_txt(tmp_path):
    path = tmp_path / "garbage.txt"
    path.write_bytes(bytes((i * 37 + 11) % 256 for i in range(4000)))
    _refused(path, "binary")


def test_text_with_many_nul_bytes_is_binary(tmp_path):
    path = tmp_path / "nul.txt"
    path.write_bytes(b"Mere Parata\x00\x00\x00\x01\x02\x03" * 50 + b"\x00" * 333)
    _refused(path, "binary")


def test_truncated_docx(tmp_path):
    path = tmp_path / "truncated.docx"
    path.write_bytes(_docx_bytes()[:3000])
    _refused(path, "corrupt")


def test_corrupt_xml_inside_docx(tmp_path):
    buf = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(_docx_bytes())) as src, zipfile.ZipFile(buf, "w") as dst:
        for info in src.infolist():
            data = src.read(info)
            if info.filename == "word/document.xml":
                data = data[: len(data) // 2]
            dst.writestr(info, data)
    path = tmp_path / "badxml.docx"
    path.write_bytes(buf.getvalue())
    _refused(path, "corrupt")


def test_truncated_pdf(tmp_path):
    path = tmp_path / "truncated.pdf"
    data = _pdf_bytes()
    path.write_bytes(data[: len(data) // 2])
    _refused(path, "corrupt")


def test_garbage_after_pdf_header(tmp_path):
    path = tmp_path / "garbage.pdf"
    path.write_bytes(b"%PDF-1.7\n" + bytes((i * 91 + 7) % 256 for i in range(3000)))
    _refused(path, "corrupt")


def test_pdf_named_docx_is_read_as_pdf_with_a_warning(tmp_path):
    path = tmp_path / "actually_pdf.docx"
    path.write_bytes(_pdf_bytes())
    doc = load_document(path)
    assert doc.format == "pdf"
    assert SECRET in doc.text
    assert doc.warnings[0] == "the file is named .docx but is a PDF; it was read as a PDF"


def test_docx_named_txt_is_read_as_word(tmp_path):
    path = tmp_path / "actually_word.txt"
    path.write_bytes(_docx_bytes())
    doc = load_document(path)
    assert doc.format == "docx"
    assert doc.text == f"Patient {SECRET} was seen today."
    assert "read as a Word document" in doc.warnings[0]


def test_plain_text_named_pdf_is_read_as_text(tmp_path):
    path = tmp_path / "actually_text.pdf"
    path.write_text(f"Patient {SECRET}", encoding="utf-8")
    doc = load_document(path)
    assert doc.format == "txt"
    assert "read as a text file" in doc.warnings[0]


def test_pdf_header_after_junk_is_accepted_only_in_a_file_named_pdf(tmp_path):
    junk = b"\x00\x01 mail gateway banner\r\n" + _pdf_bytes()
    (tmp_path / "prefixed.pdf").write_bytes(junk)
    assert SECRET in load_document(tmp_path / "prefixed.pdf").text
    note = tmp_path / "note.txt"
    note.write_bytes(b"Scanned letter saved as %PDF-1.4 attached.\r\n")
    assert load_document(note).format == "txt"


def test_random_bytes_named_docx_or_pdf_are_corrupt(tmp_path):
    for name in ("noise.docx", "noise.pdf"):
        path = tmp_path / name
        path.write_bytes(bytes((i * 53 + 3) % 256 for i in range(2000)))
        _refused(path, "corrupt")


def test_other_zip_archive_named_txt_or_docx(tmp_path):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("xl/workbook.xml", "<workbook/>")
    (tmp_path / "sheet.txt").write_bytes(buf.getvalue())
    (tmp_path / "sheet.docx").write_bytes(buf.getvalue())
    _refused(tmp_path / "sheet.txt", "binary")
    _refused(tmp_path / "sheet.docx", "corrupt")


def test_password_protected_word_document(tmp_path):
    path = tmp_path / "locked.docx"
    path.write_bytes(make_encrypted_docx())
    e = _refused(path, "encrypted")
    assert "password" in e.reason


def test_legacy_word_97_file_renamed_docx(tmp_path):
    path = tmp_path / "old.docx"
    path.write_bytes(make_legacy_doc())
    e = _refused(path, "unsupported")
    assert ".doc" in e.reason


def test_password_protected_pdf(tmp_path):
    path = tmp_path / "locked.pdf"
    path.write_bytes(encrypt_pdf(_pdf_bytes(), user="letmein"))
    e = _refused(path, "encrypted")
    assert "password" in e.reason


def test_scanned_pdf_without_text(tmp_path):
    path = tmp_path / "scan.pdf"
    make_image_pdf(path, pages=2)
    e = _refused(path, "no_text")
    assert "OCR" in e.reason


def test_word_document_without_text(tmp_path):
    b = DocxBuilder()
    b.paragraph("")
    path = b.save(tmp_path / "blank.docx")
    _refused(path, "no_text")


def test_too_large_is_refused_from_stat_without_opening_the_file(tmp_path, monkeypatch):
    path = tmp_path / "huge.txt"
    with path.open("wb") as fh:
        fh.truncate(100 * 1024**2)  # sparse: costs no disk and no time

    opened = []
    real_open = Path.open
    monkeypatch.setattr(Path, "open", lambda self, *a, **k: opened.append(self) or real_open(self, *a, **k))
    e = _refused(path, "too_large")
    assert opened == []
    assert "100.0 MiB" in e.reason and "50.0 MiB" in e.reason

    small = tmp_path / "small.txt"
    small.write_bytes(b"x" * 2048)
    _refused(small, "too_large", max_bytes=1024)


def test_zip_bomb_disguised_as_docx_is_refused_before_inflating(tmp_path, monkeypatch):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("[Content_Types].xml", "<Types/>")
        z.writestr("word/document.xml", b"<w:document>" + b"\0" * (40 * 1024**2) + b"</w:document>")
    path = tmp_path / "bomb.docx"
    path.write_bytes(buf.getvalue())
    assert path.stat().st_size < 200 * 1024

    inflated = []
    real_read = zipfile.ZipFile.read
    monkeypatch.setattr(zipfile.ZipFile, "read", lambda self, name, *a: inflated.append(name) or real_read(self, name, *a))
    _refused(path, "zip_bomb")
    assert inflated == []


def test_many_entry_zip_bomb(tmp_path):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("word/document.xml", "<w:document/>")
        for i in range(10_001):
            z.writestr(f"word/media/x{i}", b"")
    path = tmp_path / "entries.docx"
    path.write_bytes(buf.getvalue())
    _refused(path, "zip_bomb")


def test_entity_expansion_in_docx_is_refused_without_expanding(tmp_path):
    lol = (
        '<?xml version="1.0"?><!DOCTYPE w:document [<!ENTITY a "lollollollollollollollollollol">'
        + "".join(f'<!ENTITY {chr(98 + i)} "{("&" + chr(97 + i) + ";") * 10}">' for i in range(9))
        + ']><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">'
        "<w:body><w:p><w:r><w:t>Seen &j; today</w:t></w:r></w:p></w:body></w:document>"
    )
    buf = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(_docx_bytes())) as src, zipfile.ZipFile(buf, "w") as dst:
        for info in src.infolist():
            dst.writestr(info, lol if info.filename == "word/document.xml" else src.read(info))
    path = tmp_path / "laughs.docx"
    path.write_bytes(buf.getvalue())
    # Word never writes a DTD; one that is there would hide text behind unexpanded entities
    e = _refused(path, "corrupt")
    assert "DTD" in e.reason


@pytest.mark.parametrize("name", ["letter.doc", "letter.rtf", "scan.png", "README"])
def test_unsupported_suffix(tmp_path, name):
    path = tmp_path / name
    path.write_bytes(b"anything")
    e = _refused(path, "unsupported")
    assert ".txt, .docx, .pdf" in e.reason


def test_rtf_named_docx(tmp_path):
    path = tmp_path / "letter.docx"
    path.write_bytes(b"{\\rtf1\\ansi Patient Mere Parata}")
    _refused(path, "unsupported")


def test_missing_file_and_folder(tmp_path):
    _refused(tmp_path / "gone.txt", "not_found")
    folder = tmp_path / "folder.txt"
    folder.mkdir()
    _refused(folder, "unreadable")


def test_iter_input_files_expands_folders_sorted_and_keeps_unsupported_files(tmp_path):
    root = tmp_path / "in"
    for rel in ("b.txt", "A.docx", "sub/c.pdf", "sub/deeper/d.txt", "notes.rtf", ".hidden.txt", "~$A.docx", ".git/x.txt"):
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(b"x")
    loose = tmp_path / "loose.txt"
    loose.write_bytes(b"x")
    missing = tmp_path / "missing.pdf"

    files = iter_input_files([root, loose, missing, root / "b.txt"])

    assert [f.relative_to(tmp_path).as_posix() for f in files] == [
        "in/A.docx",
        "in/b.txt",
        "in/notes.rtf",
        "in/sub/c.pdf",
        "in/sub/deeper/d.txt",
        "loose.txt",
        "missing.pdf",
    ]


def test_a_bad_file_does_not_stop_the_rest_of_a_folder(tmp_path):
    (tmp_path / "1_good.txt").write_text("Seen today.", encoding="utf-8")
    (tmp_path / "2_bad.docx").write_bytes(b"PK\x03\x04 broken")
    (tmp_path / "3_good.pdf").write_bytes(_pdf_bytes())
    outcomes = []
    for f in iter_input_files([tmp_path]):
        try:
            outcomes.append(load_document(f).format)
        except IngestError as e:
            outcomes.append(e.code)
    assert outcomes == ["txt", "corrupt", "pdf"]


@pytest.mark.skipif(os.name == "nt" or os.geteuid() == 0, reason="root can read any file")
def test_unreadable_file(tmp_path):
    path = tmp_path / "private.txt"
    path.write_text("x")
    path.chmod(0)
    _refused(path, "unreadable")
