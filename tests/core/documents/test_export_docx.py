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

from tests.core.docfactory import W_NS, DocxBuilder, docx_parts, find_leaks, replacements_for

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


# --------------------------------------------------------------------------- hidden corners
# A letter named after its patient, with the name, NHI and phone also placed where no text
# is shown: identifiers in attributes, field instructions, style and part names, parts
# nothing references, unknown binaries, and picture metadata.

HOSTILE_SURROGATES = {
    "Tevita Fifita": "Ana Lewis",
    "Tevita": "Ana",
    "ZAC5361": "QRS9876",
    "021 555 0147": "027 555 0199",
    "14/02/2024": "03/05/2024",
}
HOSTILE_SEARCHED = [
    "Tevita", "Fifita", "ZAC5361", "021 555 0147", "0215550147", "021-555-0147", "14/02/2024",
    "Tevita_Fifita", "TevitaFifita", "tevita-fifita",
]
_REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
JPEG_SIZE, PNG_SIZE = (64, 48), (40, 30)


def _hostile(tmp_path):
    from tests.core.docfactory import jpeg_with_metadata, png_with_metadata

    b = DocxBuilder()
    b.paragraph("Patient Tevita Fifita, NHI ZAC5361, phone 021 555 0147, seen 14/02/2024.")
    b.paragraph("Tevita walked in.")
    b.tagged_control("Name: ", "Tevita Fifita", tag="Tevita_Fifita", alias="TevitaFifita ZAC5361")
    b.bookmark("_Tevita", "Wound history", 1)
    b.bookmark("TevitaFifita_0215550147", "Contact details", 2)
    b.complex_field("See ", "REF _Tevita \\h", "Wound history")
    b.complex_field("On page ", "PAGEREF TevitaFifita_0215550147 \\h", "1")
    b.complex_field("Figure ", "SEQ tevita-fifita \\* ARABIC", "1")
    b.simple_field("REF _Tevita \\* MERGEFORMAT", "Wound history")
    b.complex_field("Var ", "DOCVARIABLE Tevita_Fifita_ZAC5361", "x")
    b.internal_link("Jump to contact details", "TevitaFifita_0215550147")
    b.styled_paragraph("A styled line.", "TevitaFifitaLetter", "Tevita Fifita letter")
    b.image(
        png_with_metadata(PNG_SIZE, text="Tevita Fifita", itxt="NHI ZAC5361", xmp_text="TevitaFifita"),
        "word/media/Tevita_Fifita_wound.png",
    )
    b.image(
        jpeg_with_metadata(JPEG_SIZE, description="Tevita Fifita ZAC5361", artist="tevita-fifita", xmp_text="021 555 0147"),
        "word/media/tevita-fifita-photo.jpeg",
    )
    b.package_part("word/orphan.xml", b"<note>Call 021 555 0147 on 14/02/2024 about Tevita</note>")
    b.package_part("word/TevitaFifita.bin", b"\x00\x01Tevita Fifita ZAC5361\x00", f"{_REL}/unknownData")
    return b.save(tmp_path / "Tevita_Fifita letter.docx")


@pytest.fixture(scope="module")
def hostile(tmp_path_factory):
    tmp_path = tmp_path_factory.mktemp("docx_hostile")
    source = _hostile(tmp_path)
    doc = load_document(source)
    reps = replacements_for(doc.text, HOSTILE_SURROGATES)
    out = write_document(doc, reps, tmp_path / "released")
    return source, doc, reps, out


def test_hostile_file_really_holds_each_value_in_its_hidden_corners(hostile):
    source, _, _, _ = hostile
    parts = docx_parts(source.read_bytes())
    names = " ".join(parts)
    assert "Tevita_Fifita_wound.png" in names and "tevita-fifita-photo.jpeg" in names and "word/orphan.xml" in names
    assert b"TevitaFifitaLetter" in parts["word/styles.xml"]
    assert b"tevita-fifita" in parts["word/media/tevita-fifita-photo.jpeg"]  # the EXIF artist


def test_no_value_survives_in_any_member_name_or_byte_of_the_package(hostile):
    _, _, _, out = hostile
    data = out.read_bytes()
    parts = docx_parts(data)
    blobs = [" ".join(parts).encode("utf-8"), *parts.values()]

    assert find_leaks(blobs, HOSTILE_SEARCHED) == []
    assert "word/orphan.xml" not in parts
    assert not any(name.endswith(".bin") for name in parts)
    assert not any(b"w:rsid" in blob for blob in parts.values())


def test_hostile_output_opens_in_python_docx_with_the_surrogates_in_its_text(hostile):
    _, doc, reps, out = hostile
    opened = docx.Document(str(out))
    text = "\n".join(p.text for p in opened.paragraphs)
    assert "Patient Ana Lewis, NHI QRS9876, phone 027 555 0199, seen 03/05/2024." in text
    assert "Ana walked in." in text
    assert load_document(out).text == apply_replacements(doc.text, reps)


def test_renamed_bookmarks_are_still_the_targets_of_refs_and_internal_links(hostile):
    from lxml import etree

    _, _, _, out = hostile
    body = etree.fromstring(docx_parts(out.read_bytes())["word/document.xml"])
    ns = {"w": W_NS}
    bookmarks = {el.get(f"{{{W_NS}}}name") for el in body.iterfind(".//w:bookmarkStart", ns)}
    assert bookmarks == {"_bm1", "bm2"}

    instructions = ["".join(el.itertext()) for el in body.iterfind(".//w:instrText", ns)]
    instructions += [el.get(f"{{{W_NS}}}instr") for el in body.iterfind(".//w:fldSimple", ns)]
    refs = [i.split() for i in instructions if i.split()[0] in ("REF", "PAGEREF")]
    assert sorted(r[0] for r in refs) == ["PAGEREF", "REF", "REF"]
    assert all(r[1] in bookmarks for r in refs)
    assert any(i.split()[:2] == ["SEQ", "seq1"] for i in instructions)
    assert not any("DOCVARIABLE" in i for i in instructions)

    anchors = [el.get(f"{{{W_NS}}}anchor") for el in body.iterfind(".//w:hyperlink", ns)]
    assert anchors == ["bm2"]
    # REF and the link lead to the same places as before
    assert "REF _bm1" in " ".join(instructions) and "PAGEREF bm2" in " ".join(instructions)


def test_content_control_tag_and_alias_and_a_phi_style_get_neutral_names(hostile):
    _, _, _, out = hostile
    opened = docx.Document(str(out))
    styled = next(p for p in opened.paragraphs if p.text == "A styled line.")
    assert styled.style.name == "Style 1" and styled.style.style_id == "Style1"
    assert opened.styles["Normal"].style_id == "Normal"  # styles without PHI keep their names
    body = docx_parts(out.read_bytes())["word/document.xml"].decode()
    assert '<w:tag w:val="tag1"/>' in body and '<w:alias w:val="Field 1"/>' in body


def test_pictures_keep_their_pixels_and_lose_every_metadata_chunk(hostile):
    import io

    from PIL import Image

    _, _, _, out = hostile
    opened = docx.Document(str(out))
    images = [rel.target_part for rel in opened.part.rels.values() if rel.reltype.endswith("/image")]
    assert sorted(p.partname for p in images) == ["/word/media/image1.png", "/word/media/image2.jpeg"]
    sizes = {}
    for part in images:
        with Image.open(io.BytesIO(part.blob)) as im:
            im.load()
            sizes[im.format] = im.size
            assert not set(im.info) & {"exif", "xmp", "XML:com.adobe.xmp", "icc_profile", "comment", "Author", "Description"}
            assert len(im.getexif()) == 0
    assert sizes == {"PNG": PNG_SIZE, "JPEG": JPEG_SIZE}
    with Image.open(io.BytesIO(images[0].blob if images[0].partname.endswith("png") else images[1].blob)) as im:
        assert im.convert("RGB").getpixel((0, 0)) == (200, 30, 30)


def test_a_picture_that_cannot_be_decoded_becomes_a_grey_box_and_the_user_is_told(tmp_path):
    from deid_desktop.core.documents.export import export_document

    b = DocxBuilder()
    b.paragraph("Drawing for Tevita Fifita")
    b.picture("Drawing", "drawing.png")
    source = b.save(tmp_path / "d.docx")
    parts = docx_parts(source.read_bytes())
    media = next(n for n in parts if n.startswith("word/media/"))
    parts[media] = b"\x01\x00\x00\x00 EMF-like drawing naming Tevita Fifita"
    _rezip(source, parts)
    doc = load_document(source)

    result = export_document(doc, replacements_for(doc.text, HOSTILE_SURROGATES), tmp_path / "d.deid.docx")

    assert any("could not be re-encoded" in w for w in result.warnings)
    out_parts = docx_parts(result.path.read_bytes())
    assert find_leaks(list(out_parts.values()), ["Tevita"]) == []
    assert "word/media/image1.png" in out_parts
    assert docx.Document(str(result.path)).inline_shapes[0].type is not None


def test_joined_forms_are_found_in_attributes_but_ordinary_words_are_left_alone(tmp_path):
    b = DocxBuilder()
    b.paragraph("Ann was seen for her annual review.")
    b.watermark("Annual planning for Ann_Smith and annSmith")
    doc = load_document(b.save(tmp_path / "w.docx"))
    out = write_document(doc, [Replacement(0, 3, "Bea", "NAME")], tmp_path / "w.deid.docx")

    header = next(v for k, v in docx_parts(out.read_bytes()).items() if k.startswith("word/header")).decode()
    assert 'string="Annual planning for Bea_Smith and BeaSmith"' in header
    assert "Bea was seen for her annual review." in [p.text for p in docx.Document(str(out)).paragraphs]


def _rezip(path, parts: dict[str, bytes]) -> None:
    import io
    import zipfile

    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in parts.items():
            z.writestr(name, data)
    path.write_bytes(buf.getvalue())


@pytest.mark.parametrize(
    ("instruction", "kept"),
    [
        (' TOC \\o "1-3" \\h \\z \\u ', ' TOC \\o "1-3" \\h \\z \\u '),
        (' SYMBOL 183 \\f "Symbol" \\s 10 ', " SYMBOL 183 \\s 10 "),
        (' PAGE \\# "Tevita 0" ', " PAGE "),
        (" SEQ Tevita \\* ARABIC Fifita ", " SEQ seq1 \\* ARABIC "),
        (' STYLEREF "Tevita" ', None),
        (' TC "Tevita Fifita" \\l 1 ', None),
        (" REF NoSuchBookmark ", None),
        ("= SUM(ABOVE)", None),
    ],
)
def test_field_instructions_keep_only_keywords_renamed_targets_and_numeric_switches(instruction, kept):
    from deid_desktop.core.documents.docx_scrub import NeutralNames, safe_instruction

    assert safe_instruction(instruction, NeutralNames()) == kept


def test_a_photo_taken_on_its_side_stays_upright_when_its_exif_is_dropped():
    # Word turns a phone photo by its EXIF orientation; without the EXIF block the pixels
    # themselves must be turned, or the picture shows on its side in the export.
    import io

    from PIL import Image

    from deid_desktop.core.documents.images import reencode

    im = Image.new("RGB", (40, 20), (200, 30, 30))
    exif = Image.Exif()
    exif[0x0112] = 6  # rotate 90 degrees clockwise to display
    exif[0x010E] = "Tevita Fifita wound"
    buf = io.BytesIO()
    im.save(buf, format="JPEG", exif=exif.tobytes())
    clean = reencode(buf.getvalue())
    assert clean is not None and clean.extension == "jpeg"
    with Image.open(io.BytesIO(clean.data)) as out:
        assert out.size == (20, 40)
        assert not out.getexif()
    assert b"Tevita" not in clean.data


def test_a_value_repeated_in_many_attributes_is_replaced_in_every_one():
    from lxml import etree

    from deid_desktop.core.documents.docx_scrub import Residual, scrub_residual_text

    root = etree.fromstring(
        '<r><a title="Tevita_Fifita" size="24"/><b title="Tevita_Fifita" size="24"/>'
        '<c alt="photo of tevitafifita" size="24"/><d title="Tevita_Fifita">Tevita Fifita</d></r>'
    )
    scrub_residual_text(root, Residual([("Tevita Fifita", "Hone Walker")]), exclude=set())
    titles = [el.get("title") for el in root if el.get("title")]
    assert titles == ["Hone_Walker"] * 3
    assert root[2].get("alt") == "photo of HoneWalker"
    assert [el.get("size") for el in root[:3]] == ["24"] * 3 and root[3].text == "Hone Walker"
