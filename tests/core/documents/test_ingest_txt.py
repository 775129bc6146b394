"""Plain text ingest: encodings, byte-order marks and line endings survive exactly."""

from __future__ import annotations

import codecs

import pytest

from deid_desktop.core.documents.ingest import load_document

NOTE = "Patient: Zoë Müller — seen by Dr Ngata\nDOB 12/03/1961\n"


@pytest.mark.parametrize(
    ("raw", "encoding", "bom"),
    [
        (NOTE.encode("utf-8"), "utf-8", False),
        (codecs.BOM_UTF8 + NOTE.encode("utf-8"), "utf-8", True),
        (codecs.BOM_UTF16_LE + NOTE.encode("utf-16-le"), "utf-16-le", True),
        (codecs.BOM_UTF16_BE + NOTE.encode("utf-16-be"), "utf-16-be", True),
        (NOTE.encode("utf-16-le"), "utf-16-le", False),
        (NOTE.encode("utf-16-be"), "utf-16-be", False),
        (NOTE.encode("cp1252"), "cp1252", False),
    ],
    ids=["utf8", "utf8-bom", "utf16le-bom", "utf16be-bom", "utf16le-no-bom", "utf16be-no-bom", "cp1252"],
)
def test_encodings_are_recognised(tmp_path, raw, encoding, bom):
    path = tmp_path / "note.txt"
    path.write_bytes(raw)

    doc = load_document(path)

    assert doc.text == NOTE  # no BOM character, no mojibake
    assert doc.format == "txt"
    assert doc.meta["encoding"] == encoding
    assert doc.meta["bom"] is bom
    assert doc.source_bytes == raw
    assert doc.path == str(path)


def test_crlf_line_endings_are_kept_and_offsets_count_them(tmp_path):
    text = "Name: Aroha Ngata\r\nNHI: ABC1234\r\nSeen 01/02/2024\r\n"
    path = tmp_path / "crlf.txt"
    path.write_bytes(text.encode("utf-8"))

    doc = load_document(path)

    assert doc.text == text
    assert doc.meta["newline"] == "\r\n"
    start = doc.text.index("ABC1234")
    assert start == text.index("ABC1234") == 24  # both CR and LF of the first line count
    assert [(s.start, s.end) for s in doc.segments] == [(0, len(text))]


def test_mixed_and_old_mac_line_endings_are_reported(tmp_path):
    (tmp_path / "mixed.txt").write_bytes(b"one\r\ntwo\nthree\n")
    (tmp_path / "mac.txt").write_bytes(b"one\rtwo\r")

    assert load_document(tmp_path / "mixed.txt").meta["newline"] == "mixed"
    mac = load_document(tmp_path / "mac.txt")
    assert mac.meta["newline"] == "\r"
    assert mac.text == "one\rtwo\r"


def test_windows_1252_punctuation_decodes(tmp_path):
    raw = "Mrs O\u2019Connor \u2013 \u201cno change\u201d \u20ac20".encode("cp1252")
    path = tmp_path / "smart.txt"
    path.write_bytes(raw)

    doc = load_document(path)

    assert doc.text == "Mrs O\u2019Connor \u2013 \u201cno change\u201d \u20ac20"
    assert doc.meta["encoding"] == "cp1252"


def test_uppercase_suffix_is_accepted(tmp_path):
    path = tmp_path / "NOTE.TXT"
    path.write_bytes(b"Seen today.")
    assert load_document(path).text == "Seen today."
