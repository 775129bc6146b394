"""Word ingest: every place text can live is read, in a stable order, with a source map
that points at the exact run."""

from __future__ import annotations

import zipfile

from deid_desktop.core.documents.docx_xml import item_text, own_text_items, paragraphs_in_order
from deid_desktop.core.documents.ingest import load_document
from deid_desktop.core.documents.opc import parse_xml

from tests.core.docfactory import DocxBuilder


def _segments_text(doc, start, end):
    """Which (part, para, run) items cover [start, end)."""
    return [
        (s.locator["part"], s.locator["para"], s.locator["run"], doc.text[s.start : s.end])
        for s in doc.segments
        if s.start < end and start < s.end
    ]


def test_name_split_across_runs_is_one_string_with_a_map_to_each_run(tmp_path):
    b = DocxBuilder()
    b.paragraph("Seen by ", "Dr ", ("Smith", {"bold": True}), "son today.")
    path = b.save(tmp_path / "split.docx")

    doc = load_document(path)

    assert doc.text == "Seen by Dr Smithson today."
    start = doc.text.index("Dr Smithson")
    covered = _segments_text(doc, start, start + len("Dr Smithson"))
    assert [c[3] for c in covered] == ["Dr ", "Smith", "son today."]
    assert {c[0] for c in covered} == {"word/document.xml"}
    assert [c[2] for c in covered] == [1, 2, 3]
    # the map points at the real w:t elements
    root = parse_xml(zipfile.ZipFile(path).read("word/document.xml"))
    para = paragraphs_in_order(root)[covered[0][1]]
    assert [item_text(own_text_items(para)[c[2]]) for c in covered] == ["Dr ", "Smith", "son today."]


def test_tabs_and_breaks_become_tab_and_newline(tmp_path):
    b = DocxBuilder()
    b.paragraph("Name:\tMere Parata", "\nNHI:\tABC1234")
    doc = load_document(b.save(tmp_path / "tabs.docx"))
    assert doc.text == "Name:\tMere Parata\nNHI:\tABC1234"


def test_tables_cells_by_tab_rows_by_newline_nested_tables_inside_their_cell(tmp_path):
    b = DocxBuilder()
    b.paragraph("Before")
    b.table(
        [
            ["Name", "Mere Parata"],
            ["Medicines", [["Drug", "Dose"], ["Metformin", "500 mg"]]],
            ["Notes", "line one\nline two"],
        ]
    )
    b.paragraph("After")
    doc = load_document(b.save(tmp_path / "table.docx"))

    assert doc.text == (
        "Before\n"
        "Name\tMere Parata\n"
        # a cell holding a table: its empty first paragraph, the table, the empty paragraph
        # Word requires after a table at the end of a cell
        "Medicines\t\nDrug\tDose\nMetformin\t500 mg\n\n"
        "Notes\tline one\nline two\n"
        "After"
    )
    nested = doc.text.index("Metformin")
    assert _segments_text(doc, nested, nested + 9)[0][3] == "Metformin"


def test_headers_footers_of_all_kinds_and_sections_are_read_in_page_order(tmp_path):
    b = DocxBuilder()
    b.header("Default header Riverside")
    b.header("First page header Wellington", kind="first")
    b.header("Even page header Tauranga", kind="even")
    b.footer("Footer 07 838 1234", page_field=True)
    b.paragraph("Body text.")
    b.page_break_section()
    b.paragraph("Second section text.")
    b.header("Section two header Napier", section=1)
    b.footer("Section two footer Gisborne", section=1)
    doc = load_document(b.save(tmp_path / "hf.docx"))

    text = doc.text
    for expected in (
        "Default header Riverside",
        "First page header Wellington",
        "Even page header Tauranga",
        "Section two header Napier",
        "Footer 07 838 1234 Page 1",
        "Section two footer Gisborne",
    ):
        assert text.count(expected) == 1, expected
    body = text.index("Body text.")
    assert max(text.index(h) for h in ("Riverside", "Wellington", "Tauranga", "Napier")) < body
    assert min(text.index(f) for f in ("07 838 1234", "Gisborne")) > text.index("Second section text.")
    parts = {s.locator["part"] for s in doc.segments}
    assert sum(p.startswith("word/header") for p in parts) == 4
    assert sum(p.startswith("word/footer") for p in parts) == 2


def test_footnotes_endnotes_and_text_boxes_are_read_once(tmp_path):
    b = DocxBuilder()
    b.footnote("Referred by the GP.", "Dr Aroha Ngata, Riverside Medical")
    b.endnote("See the endnote.", "Letter copied to Hemi Walker")
    b.text_box("Anchor paragraph.", "Box: NHI ZZZ9999")
    doc = load_document(b.save(tmp_path / "notes.docx"))

    assert doc.text.count("Dr Aroha Ngata, Riverside Medical") == 1
    assert doc.text.count("Letter copied to Hemi Walker") == 1
    # the VML fallback copy of the text box is not read a second time
    assert doc.text.count("Box: NHI ZZZ9999") == 1
    assert doc.text.index("Anchor paragraph.") < doc.text.index("Box: NHI ZZZ9999")
    parts = {s.locator["part"] for s in doc.segments}
    assert {"word/footnotes.xml", "word/endnotes.xml"} <= parts
    assert doc.text.index("Box: NHI") < doc.text.index("Dr Aroha Ngata") < doc.text.index("Hemi Walker")


def test_comments_and_deleted_text_are_not_content_but_insertions_and_hidden_text_are(tmp_path):
    b = DocxBuilder()
    b.comment("A paragraph with a comment.", "Phone Hemi on 021 555 0101", "Dr Aroha Ngata")
    b.tracked_changes("Seen by ", "Dr Mere Parata", "Dr Deleted Person", " today.")
    b.paragraph("Hidden: ", ("Jonathan Smithson", {"hidden": True}))
    doc = load_document(b.save(tmp_path / "changes.docx"))

    assert "021 555 0101" not in doc.text
    assert "Deleted Person" not in doc.text
    assert "Seen by Dr Mere Parata today." in doc.text
    assert "Hidden: Jonathan Smithson" in doc.text
    assert any("tracked changes" in w for w in doc.warnings)
    assert any("comments" in w for w in doc.warnings)


def test_fields_show_their_result_not_their_instruction(tmp_path):
    b = DocxBuilder()
    b.merge_field("Dear ", "PatientName", "Mere Parata")
    b.simple_field(" AUTHOR ", "Aroha Ngata")
    b.content_control("Name: ", "Mere Parata", "/patient/name")
    doc = load_document(b.save(tmp_path / "fields.docx"))

    assert "Dear Mere Parata" in doc.text
    assert "Aroha Ngata" in doc.text
    assert "Name: Mere Parata" in doc.text
    assert "MERGEFIELD" not in doc.text and "AUTHOR" not in doc.text


def test_source_bytes_are_the_file(tmp_path):
    b = DocxBuilder()
    b.paragraph("Hello")
    path = b.save(tmp_path / "bytes.docx")
    doc = load_document(path)
    assert doc.source_bytes == path.read_bytes()
    assert doc.format == "docx"
    assert doc.meta["parts"][0] == "word/document.xml"
