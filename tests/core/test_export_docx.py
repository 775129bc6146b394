"""Word export: replacements land in the right runs, the file stays a valid Word document,
and no byte of an original value survives in any part of the package."""

from __future__ import annotations

import re

import docx
import pytest

from deid_desktop.core.documents import Replacement, apply_replacements
from deid_desktop.core.documents.export import write_document
from deid_desktop.core.documents.ingest import load_document
from deid_desktop.core.errors import ExportError

from .docfactory import DocxBuilder, docx_parts, find_leaks, replacements_for

SURROGATES = {
    "Mere Parata": "Ana Lewis",
    "Parata": "Lewis",
    "Aroha Ngata": "Kate Moore",
    "Jonathan Smithson": "Peter Brown",
    "Smithson": "Brown",
    "mere.parata@example.co.nz": "ana.lewis@example.org",
    "ABC1234": "QRS9876",
    "12/03/1961": "04/07/1959",
    "12 Kauri Street": "3 Rimu Road",
    "Hamilton": "Taupō",
    "07 838 1234": "07 555 0199",
    "Riverside Medical Centre": "Lakeside Health",
    "Wellington": "Nelson",
    "Tauranga": "Napier",
    "Hemi Walker": "Sam Hill",
}
# Values that are in the file but never in the document's text: the writer must remove them.
HIDDEN_ONLY = ["Deleted Person", "ArohaNgata", "Phone Hemi on 021 555 0101", "PatientName", "Dr Reviewer Hemi"]


def _full_featured(tmp_path):
    b = DocxBuilder()
    b.header("Riverside Medical Centre - Dr Aroha Ngata")
    b.header("First page header Wellington", kind="first")
    b.header("Even page header Tauranga", kind="even")
    b.footer("12 Kauri Street, Hamilton - 07 838 1234", page_field=True)
    b.paragraph("Patient: ", "Dr ", ("Smith", {"bold": True}), "son\tDOB 12/03/1961")
    b.paragraph("Hidden: ", ("Jonathan Smithson", {"hidden": True}))
    b.table([["Name", "Mere Parata"], ["Meds", [["Drug", "Dose"], ["Metformin", "500 mg"]]]])
    b.text_box("See box:", "Box holds NHI ABC1234")
    b.tracked_changes("Seen by ", "Dr Aroha Ngata", "Dr Deleted Person", " today.")
    b.hyperlink("Email: ", "mere.parata@example.co.nz", "mailto:mere.parata@example.co.nz")
    b.hyperlink("Portal: ", "patient portal", "https://portal.example/?patient=Mere+Parata&nhi=ABC1234")
    b.merge_field("Dear ", "PatientName", "Mere Parata")
    b.content_control("Name: ", "Mere Parata", "/patient/name")
    b.custom_xml_item("<patient><name>Mere Parata</name><nhi>ABC1234</nhi></patient>")
    b.picture("Photo of Mere Parata", "mere_parata.png")
    b.watermark("Mere Parata CONFIDENTIAL")
    b.comment("A commented paragraph.", "Phone Hemi on 021 555 0101", "Dr Aroha Ngata")
    b.footnote("Referred by GP", "Dr Aroha Ngata, Riverside")
    b.endnote("End", "Copy to Hemi Walker")
    b.core_properties(
        author="Dr Aroha Ngata",
        title="Letter for Mere Parata",
        subject="Mere Parata",
        keywords="Parata; ABC1234",
        comments="Dictated for Mere Parata",
        last_modified_by="Aroha Ngata",
        category="Parata",
    )
    b.app_properties(Company="Riverside Medical Centre", Manager="Aroha Ngata")
    b.custom_property("Patient", "Mere Parata")
    b.attached_template("file:///C:/Users/ArohaNgata/Templates/Normal.dotm")
    b.document_variable("patient", "Mere Parata")
    return b.save(tmp_path / "letter.docx")


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    tmp_path = tmp_path_factory.mktemp("docx_export")
    doc = load_document(_full_featured(tmp_path))
    reps = replacements_for(doc.text, SURROGATES)
    out = write_document(doc, reps, tmp_path / "letter.deid.docx")
    return doc, reps, out


def test_no_original_value_in_any_part_of_the_package(exported):
    doc, reps, out = exported
    data = out.read_bytes()
    parts = docx_parts(data)
    originals = sorted({doc.text[r.start : r.end] for r in reps} | set(HIDDEN_ONLY))

    assert find_leaks(list(parts.values()) + [data], originals) == []


def test_reading_the_output_gives_the_replaced_text_and_nothing_else_changed(exported):
    doc, reps, out = exported
    back = load_document(out)
    assert back.text == apply_replacements(doc.text, reps)


def test_output_is_a_valid_word_document_without_comments_or_properties(exported):
    _, _, out = exported
    parts = docx_parts(out.read_bytes())
    assert not any("comments" in name or name.startswith("customXml/") for name in parts)
    assert "docProps/custom.xml" not in parts and "docProps/thumbnail.jpeg" not in parts

    opened = docx.Document(str(out))
    props = opened.core_properties
    assert (props.author, props.title, props.subject, props.keywords, props.comments, props.last_modified_by) == (
        "",
        "",
        "",
        "",
        "",
        "",
    )
    assert any("DOB 04/07/1959" in p.text for p in opened.paragraphs)


def test_hyperlinks_email_gets_its_surrogate_other_targets_are_blanked(exported):
    _, _, out = exported
    rels = docx_parts(out.read_bytes())["word/_rels/document.xml.rels"].decode()
    targets = re.findall(r'Target="([^"]*)" TargetMode="External"', rels)
    assert "mailto:ana.lewis@example.org" in targets
    assert "about:blank" in targets  # the portal link behind other words
    assert all(t in ("mailto:ana.lewis@example.org", "about:blank") for t in targets)


def test_fields_page_numbers_keep_working_data_fields_become_text(exported):
    _, _, out = exported
    parts = docx_parts(out.read_bytes())
    footer = next(v for k, v in parts.items() if k.startswith("word/footer")).decode()
    body = parts["word/document.xml"].decode()
    assert "PAGE" in footer and "fldChar" in footer
    assert "MERGEFIELD" not in body and "instrText" not in body
    assert "w:del " not in body and "w:ins " not in body and "commentReference" not in body
    assert "dataBinding" not in body


def test_replacement_goes_into_the_first_run_and_keeps_each_runs_formatting(tmp_path):
    b = DocxBuilder()
    b.paragraph("Seen by ", "Dr ", ("Smith", {"bold": True}), ("son", {"italic": True}), " today.")
    doc = load_document(b.save(tmp_path / "runs.docx"))

    # one replacement over the bold part only, one spanning three runs
    surname = doc.text.index("Smithson")
    out = write_document(
        doc, [Replacement(surname, surname + len("Smithson"), "Jones", "NAME")], tmp_path / "a.docx"
    )
    runs = docx.Document(str(out)).paragraphs[0].runs
    assert [(r.text, r.bold, r.italic) for r in runs] == [
        ("Seen by ", None, None),
        ("Dr ", None, None),
        ("Jones", True, None),
        ("", None, True),
        (" today.", None, None),
    ]

    start = doc.text.index("Dr Smithson")
    out = write_document(doc, [Replacement(start, start + len("Dr Smithson"), "Dr Jones", "NAME")], tmp_path / "b.docx")
    runs = docx.Document(str(out)).paragraphs[0].runs
    assert [r.text for r in runs] == ["Seen by ", "Dr Jones", "", "", " today."]
    assert load_document(out).text == "Seen by Dr Jones today."


def test_two_replacements_in_one_run_and_a_replacement_over_a_tab(tmp_path):
    b = DocxBuilder()
    b.paragraph("Mere Parata and Hemi Walker\tABC1234 end")
    doc = load_document(b.save(tmp_path / "multi.docx"))
    reps = replacements_for(doc.text, {"Mere Parata": "Ana Lewis", "Hemi Walker": "Sam Hill"})
    tab = doc.text.index("\t")
    reps.append(Replacement(tab, tab + 8, " [ID]", "ID"))
    out = write_document(doc, reps, tmp_path / "multi.deid.docx")
    assert load_document(out).text == "Ana Lewis and Sam Hill [ID] end"


def test_a_source_map_that_does_not_fit_the_file_is_refused(tmp_path):
    one = DocxBuilder()
    one.paragraph("Mere Parata was seen.")
    other = DocxBuilder()
    other.paragraph("Something else entirely.")
    doc = load_document(one.save(tmp_path / "one.docx"))
    doc.source_bytes = other.to_bytes()

    with pytest.raises(ExportError) as err:
        write_document(doc, replacements_for(doc.text, {"Mere Parata": "Ana Lewis"}), tmp_path / "x.docx")
    assert err.value.code == "source_mismatch"
    assert not (tmp_path / "x.docx").exists()


def test_docx_can_be_written_as_plain_text(tmp_path):
    b = DocxBuilder()
    b.paragraph("Patient Mere Parata")
    b.table([["NHI", "ABC1234"]])
    doc = load_document(b.save(tmp_path / "t.docx"))
    reps = replacements_for(doc.text, {"Mere Parata": "Ana Lewis", "ABC1234": "QRS9876"})
    out = write_document(doc, reps, tmp_path / "t.deid", fmt="txt")
    assert out.name == "t.deid.txt"
    assert out.read_text(encoding="utf-8") == "Patient Ana Lewis\nNHI\tQRS9876"


def test_macro_enabled_document_is_written_as_a_plain_docx_without_macros(tmp_path):
    import io
    import zipfile

    b = DocxBuilder()
    b.paragraph("Macro document for Mere Parata")
    buf = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(b.to_bytes())) as src, zipfile.ZipFile(buf, "w") as dst:
        for info in src.infolist():
            data = src.read(info)
            if info.filename == "[Content_Types].xml":
                data = data.replace(b"wordprocessingml.document.main+xml", b"ms-word.document.macroEnabled.main+xml")
            dst.writestr(info, data)
        dst.writestr("word/vbaProject.bin", b"\xd0\xcf\x11\xe0 Mere Parata macro source")
    path = tmp_path / "macro.docx"
    path.write_bytes(buf.getvalue())
    doc = load_document(path)

    out = write_document(doc, replacements_for(doc.text, {"Mere Parata": "Ana Lewis"}), tmp_path / "macro.deid.docx")

    parts = docx_parts(out.read_bytes())
    assert "word/vbaProject.bin" not in parts
    assert b"macroEnabled" not in parts["[Content_Types].xml"]
    assert find_leaks(list(parts.values()), ["Mere Parata"]) == []
    assert docx.Document(str(out)).paragraphs[0].text == "Macro document for Ana Lewis"
