"""The bundled sample documents: current with their generator, and readable as documents."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from deid_desktop.core.documents.ingest import load_document

SAMPLES = Path(__file__).resolve().parents[3] / "resources" / "samples"


def _generator():
    spec = importlib.util.spec_from_file_location("make_samples", SAMPLES / "make_samples.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_committed_samples_are_what_the_generator_makes(tmp_path):
    written = _generator().build_all(tmp_path)
    assert sorted(p.name for p in written) == [
        "clinic_note.txt",
        "discharge_summary.pdf",
        "phone_message.txt",
        "referral_letter.docx",
    ]
    for p in written:
        assert p.read_bytes() == (SAMPLES / p.name).read_bytes(), f"{p.name} is stale: run make_samples.py"


def test_referral_letter_reads_header_table_footer_and_split_name():
    doc = load_document(SAMPLES / "referral_letter.docx")
    text = doc.text
    assert text.startswith("Meadowbank Surgery\nDr Priya Raghunathan")  # letterhead in the header
    assert "Re: Mrs Margaret Elsworth  DOB 03/08/1957" in text  # name split over runs
    assert "Levothyroxine\t75 micrograms once daily\t06/2015" in text  # medication table row
    assert text.rstrip().endswith("Tel 0114 496 0732  ·  Fax 0114 496 0733")  # footer last
    runs = {doc.text[s.start : s.end] for s in doc.segments}
    assert {"Mrs Margaret ", "Elsworth"} <= runs


def test_discharge_summary_is_two_pages_with_identifiers_on_both():
    doc = load_document(SAMPLES / "discharge_summary.pdf")
    assert len(doc.meta["pages"]) == 2
    first, second = doc.text[: doc.meta["page_starts"][1]], doc.text[doc.meta["page_starts"][1] :]
    assert "Patient Tevita Fifita NHI ZAC4127" in first
    assert "Date of birth 21/11/1968" in first
    assert "Dr Michael Tan, Glenfield Medical Centre, phone 09 444 6312" in second
    assert doc.warnings == []


@pytest.mark.parametrize(("name", "newline"), [("clinic_note.txt", "\r\n"), ("phone_message.txt", "\n")])
def test_text_samples_keep_their_line_endings(name, newline):
    doc = load_document(SAMPLES / name)
    assert doc.meta == {"encoding": "utf-8", "bom": False, "newline": newline}
    assert doc.text.count(newline) >= 10 if name == "clinic_note.txt" else doc.text.count("\n") >= 8
