"""Real .docx, .pdf and Compound-File documents for the ingest and export tests.

Word documents start from python-docx and get the parts python-docx cannot make (footnotes,
text boxes, tracked changes, fields, custom properties, bound content controls...) as raw
WordprocessingML, the way Word itself writes them. PDFs are drawn with reportlab, so the
position of every word is known.
"""

from __future__ import annotations

import io
import struct
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

import docx
from docx.oxml import parse_xml
from docx.oxml.ns import nsdecls
from docx.shared import Pt
from PIL import Image
from reportlab.lib.pagesizes import A4
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

W_NS = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
_REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
_CT = "http://schemas.openxmlformats.org/package/2006/content-types"


# --------------------------------------------------------------------------- Word documents


class DocxBuilder:
    """A Word document assembled piece by piece; ``save`` writes a real .docx."""

    def __init__(self) -> None:
        self.doc = docx.Document()
        self._extra_parts: dict[str, tuple[bytes, str | None]] = {}
        self._footnotes: list[str] = []
        self._endnotes: list[str] = []
        self._app: dict[str, str] = {}
        self._custom: dict[str, str] = {}
        self._settings_xml: list[str] = []
        self._settings_rels: list[tuple[str, str, str]] = []

    # -- body -------------------------------------------------------------------------
    def paragraph(self, *runs: str | tuple[str, dict]):
        """A paragraph of runs; a run is text or (text, {"bold": True, "italic": True,
        "hidden": True}). "\\t" and "\\n" in run text become w:tab and w:br."""
        p = self.doc.add_paragraph()
        for run in runs:
            text, fmt = (run, {}) if isinstance(run, str) else run
            r = p.add_run(text)
            r.bold = fmt.get("bold")
            r.italic = fmt.get("italic")
            if fmt.get("hidden"):
                r.font.hidden = True
        return p

    def table(self, rows: list[list[str | list[list[str]]]]):
        """A table; a cell is text (lines separated by "\\n" become paragraphs) or a nested
        table given as a list of rows."""
        table = self.doc.add_table(rows=len(rows), cols=max(len(r) for r in rows))
        _fill_table(table, rows)
        return table

    def page_break_section(self) -> None:
        self.doc.add_section()

    def header(self, text: str, kind: str = "default", section: int = 0) -> None:
        self._story(text, kind, section, header=True)

    def footer(self, text: str, kind: str = "default", section: int = 0, page_field: bool = False) -> None:
        p = self._story(text, kind, section, header=False)
        if page_field:
            # Page numbers are a field Word must keep working after export.
            for xml in (
                '<w:t xml:space="preserve"> Page </w:t>',
                '<w:fldChar w:fldCharType="begin"/>',
                '<w:instrText xml:space="preserve"> PAGE </w:instrText>',
                '<w:fldChar w:fldCharType="separate"/>',
                "<w:t>1</w:t>",
                '<w:fldChar w:fldCharType="end"/>',
            ):
                p._p.append(parse_xml(f'<w:r {nsdecls("w")}>{xml}</w:r>'))

    def _story(self, text: str, kind: str, section: int, *, header: bool):
        sec = self.doc.sections[section]
        if kind == "first":
            sec.different_first_page_header_footer = True
            story = sec.first_page_header if header else sec.first_page_footer
        elif kind == "even":
            self.doc.settings.odd_and_even_pages_header_footer = True
            story = sec.even_page_header if header else sec.even_page_footer
        else:
            story = sec.header if header else sec.footer
        story.is_linked_to_previous = False
        p = story.paragraphs[0]
        p.text = text
        return p

    def raw(self, xml: str):
        """Append raw body XML (one w:p or w:tbl) before the section properties."""
        el = parse_xml(xml)
        body = self.doc.element.body
        body.insert(len(body) - 1, el)
        return el

    def text_box(self, outside: str, inside: str) -> None:
        """A paragraph with a DrawingML text box and its VML fallback copy, as Word saves it."""
        box_p = f"<w:p><w:r><w:t>{inside}</w:t></w:r></w:p>"
        self.raw(
            f'<w:p {nsdecls("w")} xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006"'
            ' xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"'
            ' xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"'
            ' xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape"'
            ' xmlns:v="urn:schemas-microsoft-com:vml">'
            f"<w:r><w:t xml:space=\"preserve\">{outside}</w:t></w:r>"
            '<w:r><mc:AlternateContent><mc:Choice Requires="wps"><w:drawing>'
            '<wp:anchor distT="0" distB="0" distL="0" distR="0" simplePos="0" relativeHeight="1" behindDoc="0"'
            ' locked="0" layoutInCell="1" allowOverlap="1"><wp:simplePos x="0" y="0"/>'
            '<wp:positionH relativeFrom="column"><wp:posOffset>0</wp:posOffset></wp:positionH>'
            '<wp:positionV relativeFrom="paragraph"><wp:posOffset>0</wp:posOffset></wp:positionV>'
            '<wp:extent cx="2000000" cy="500000"/><wp:wrapNone/>'
            '<wp:docPr id="7" name="Text Box 7"/>'
            '<a:graphic><a:graphicData uri="http://schemas.microsoft.com/office/word/2010/wordprocessingShape">'
            '<wps:wsp><wps:cNvSpPr txBox="1"/><wps:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="2000000" cy="500000"/>'
            '</a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></wps:spPr>'
            f"<wps:txbx><w:txbxContent>{box_p}</w:txbxContent></wps:txbx><wps:bodyPr/></wps:wsp>"
            "</a:graphicData></a:graphic></wp:anchor></w:drawing></mc:Choice>"
            '<mc:Fallback><w:pict><v:shape id="tb7" style="width:157pt;height:39pt">'
            f"<v:textbox><w:txbxContent>{box_p}</w:txbxContent></v:textbox></v:shape></w:pict></mc:Fallback>"
            "</mc:AlternateContent></w:r></w:p>"
        )

    def tracked_changes(self, before: str, inserted: str, deleted: str, after: str) -> None:
        self.raw(
            f'<w:p {nsdecls("w")}><w:r><w:t xml:space="preserve">{before}</w:t></w:r>'
            f'<w:ins w:id="91" w:author="Dr Reviewer Hemi" w:date="2024-03-01T10:00:00Z"><w:r><w:t xml:space="preserve">{inserted}</w:t></w:r></w:ins>'
            f'<w:del w:id="92" w:author="Dr Reviewer Hemi" w:date="2024-03-01T10:00:00Z"><w:r><w:delText xml:space="preserve">{deleted}</w:delText></w:r></w:del>'
            f'<w:r><w:t xml:space="preserve">{after}</w:t></w:r></w:p>'
        )

    def hyperlink(self, before: str, link_text: str, target: str) -> None:
        rid = self.doc.part.relate_to(target, f"{_REL}/hyperlink", is_external=True)
        self.raw(
            f'<w:p {nsdecls("w", "r")}><w:r><w:t xml:space="preserve">{before}</w:t></w:r>'
            f'<w:hyperlink r:id="{rid}" w:tooltip="Mail {link_text}"><w:r><w:rPr><w:rStyle w:val="Hyperlink"/></w:rPr>'
            f"<w:t>{link_text}</w:t></w:r></w:hyperlink></w:p>"
        )

    def merge_field(self, label: str, field_name: str, result: str) -> None:
        self.raw(
            f'<w:p {nsdecls("w")}><w:r><w:t xml:space="preserve">{label}</w:t></w:r>'
            '<w:r><w:fldChar w:fldCharType="begin"/></w:r>'
            f'<w:r><w:instrText xml:space="preserve"> MERGEFIELD {field_name} \\* MERGEFORMAT </w:instrText></w:r>'
            '<w:r><w:fldChar w:fldCharType="separate"/></w:r>'
            f"<w:r><w:t>{result}</w:t></w:r>"
            '<w:r><w:fldChar w:fldCharType="end"/></w:r></w:p>'
        )

    def complex_field(self, label: str, instr: str, result: str) -> None:
        """A field as Word writes most of them: begin, instruction, separate, result, end."""
        self.raw(
            f'<w:p {nsdecls("w")}><w:r><w:t xml:space="preserve">{label}</w:t></w:r>'
            '<w:r><w:fldChar w:fldCharType="begin"/></w:r>'
            f'<w:r><w:instrText xml:space="preserve"> {instr} </w:instrText></w:r>'
            '<w:r><w:fldChar w:fldCharType="separate"/></w:r>'
            f"<w:r><w:t>{result}</w:t></w:r>"
            '<w:r><w:fldChar w:fldCharType="end"/></w:r></w:p>'
        )

    def bookmark(self, name: str, text: str, bookmark_id: int) -> None:
        self.raw(
            f'<w:p {nsdecls("w")}><w:bookmarkStart w:id="{bookmark_id}" w:name="{name}"/>'
            f'<w:r><w:t xml:space="preserve">{text}</w:t></w:r><w:bookmarkEnd w:id="{bookmark_id}"/></w:p>'
        )

    def internal_link(self, text: str, anchor: str) -> None:
        """A hyperlink to a bookmark of the same document (w:anchor, no relationship)."""
        self.raw(
            f'<w:p {nsdecls("w")}><w:hyperlink w:anchor="{anchor}" w:history="1"><w:r>'
            f'<w:rPr><w:rStyle w:val="Hyperlink"/></w:rPr><w:t xml:space="preserve">{text}</w:t></w:r></w:hyperlink></w:p>'
        )

    def tagged_control(self, label: str, value: str, tag: str, alias: str) -> None:
        """A plain-text content control whose tag and alias (its title) are set by hand."""
        self.raw(
            f'<w:p {nsdecls("w")}><w:r><w:t xml:space="preserve">{label}</w:t></w:r>'
            f'<w:sdt><w:sdtPr><w:alias w:val="{alias}"/><w:tag w:val="{tag}"/><w:text/></w:sdtPr>'
            f"<w:sdtContent><w:r><w:t>{value}</w:t></w:r></w:sdtContent></w:sdt></w:p>"
        )

    def styled_paragraph(self, text: str, style_id: str, style_name: str):
        """A paragraph in a new paragraph style with the given id and display name."""
        from docx.enum.style import WD_STYLE_TYPE

        style = self.doc.styles.add_style(style_name, WD_STYLE_TYPE.PARAGRAPH)
        style.base_style = self.doc.styles["Normal"]
        style.element.set(f"{{{W_NS}}}styleId", style_id)
        p = self.doc.add_paragraph(text)
        p._p.get_or_add_pPr().get_or_add_pStyle().set(f"{{{W_NS}}}val", style_id)
        return p

    def image(self, data: bytes, part_name: str) -> None:
        """A picture from the given file bytes, stored under the given part name (Word keeps
        the name of the file that was inserted in some versions and tools)."""
        from docx.opc.packuri import PackURI

        run = self.doc.add_paragraph().add_run()
        shape = run.add_picture(io.BytesIO(data), width=Pt(40))
        rid = shape._inline.graphic.graphicData.pic.blipFill.blip.embed
        self.doc.part.related_parts[rid].partname = PackURI("/" + part_name)

    def package_part(self, name: str, data: bytes, rel_type: str | None = None) -> None:
        """An extra part; with ``rel_type`` the main document relates to it, without it
        nothing references it (an orphan part)."""
        self._extra_parts[name] = (data, rel_type)

    def simple_field(self, instr: str, result: str) -> None:
        self.raw(
            f'<w:p {nsdecls("w")}><w:fldSimple w:instr="{instr}"><w:r><w:t>{result}</w:t></w:r></w:fldSimple></w:p>'
        )

    def content_control(self, label: str, value: str, xpath: str) -> None:
        """A content control bound to a custom XML part, as document templates use them."""
        self.raw(
            f'<w:p {nsdecls("w")}><w:r><w:t xml:space="preserve">{label}</w:t></w:r>'
            '<w:sdt><w:sdtPr><w:alias w:val="Patient"/><w:tag w:val="patient"/>'
            f'<w:dataBinding w:xpath="{xpath}" w:storeItemID="{{11111111-2222-3333-4444-555555555555}}"/>'
            f"</w:sdtPr><w:sdtContent><w:r><w:t>{value}</w:t></w:r></w:sdtContent></w:sdt></w:p>"
        )

    def picture(self, alt_text: str, file_name: str) -> None:
        buf = io.BytesIO()
        Image.new("RGB", (40, 30), (200, 30, 30)).save(buf, format="PNG")
        buf.seek(0)
        run = self.doc.add_paragraph().add_run()
        shape = run.add_picture(buf, width=Pt(40))
        doc_pr = shape._inline.docPr
        doc_pr.set("descr", alt_text)
        doc_pr.set("title", alt_text)
        doc_pr.set("name", file_name)
        shape._inline.graphic.graphicData.pic.nvPicPr.cNvPr.set("name", file_name)
        shape._inline.graphic.graphicData.pic.nvPicPr.cNvPr.set("descr", alt_text)

    def watermark(self, text: str) -> None:
        """A VML WordArt watermark in the default header: its text is an attribute."""
        header = self.doc.sections[0].header
        header.is_linked_to_previous = False
        header.paragraphs[0]._p.append(
            parse_xml(
                f'<w:r {nsdecls("w")} xmlns:v="urn:schemas-microsoft-com:vml"><w:pict>'
                '<v:shape id="PowerPlusWaterMarkObject" style="position:absolute;width:400pt;height:100pt">'
                f'<v:textpath style="font-family:Calibri" string="{text}"/></v:shape></w:pict></w:r>'
            )
        )

    def comment(self, paragraph_text: str, comment_text: str, author: str) -> None:
        p = self.doc.add_paragraph()
        run = p.add_run(paragraph_text)
        self.doc.add_comment(run, text=comment_text, author=author, initials="".join(w[0] for w in author.split()))

    # -- notes, properties, settings ---------------------------------------------------
    def footnote(self, anchor_text: str, note: str) -> None:
        self._footnotes.append(note)
        n = len(self._footnotes)
        self.raw(
            f'<w:p {nsdecls("w")}><w:r><w:t xml:space="preserve">{anchor_text}</w:t></w:r>'
            f'<w:r><w:rPr><w:vertAlign w:val="superscript"/></w:rPr><w:footnoteReference w:id="{n}"/></w:r></w:p>'
        )

    def endnote(self, anchor_text: str, note: str) -> None:
        self._endnotes.append(note)
        n = len(self._endnotes)
        self.raw(
            f'<w:p {nsdecls("w")}><w:r><w:t xml:space="preserve">{anchor_text}</w:t></w:r>'
            f'<w:r><w:endnoteReference w:id="{n}"/></w:r></w:p>'
        )

    def core_properties(self, **values: str) -> None:
        """author, title, subject, keywords, comments, last_modified_by, category."""
        cp = self.doc.core_properties
        for key, value in values.items():
            setattr(cp, key, value)

    def app_properties(self, **values: str) -> None:
        """Company, Manager, HyperlinkBase... of docProps/app.xml."""
        self._app.update(values)

    def custom_property(self, name: str, value: str) -> None:
        self._custom[name] = value

    def attached_template(self, path: str) -> None:
        self._settings_rels.append(
            ("rIdTpl", f"{_REL}/attachedTemplate", path)
        )
        self._settings_xml.append('<w:attachedTemplate r:id="rIdTpl"/>')

    def document_variable(self, name: str, value: str) -> None:
        self._settings_xml.append(f'<w:docVars><w:docVar w:name="{name}" w:val="{value}"/></w:docVars>')

    def custom_xml_item(self, xml: str) -> None:
        self._extra_parts["customXml/item9.xml"] = (xml.encode("utf-8"), f"{_REL}/customXml")

    # -- output -------------------------------------------------------------------------
    def to_bytes(self) -> bytes:
        buf = io.BytesIO()
        self.doc.save(buf)
        return _PackageEditor(buf.getvalue()).apply(self)

    def save(self, path: str | Path) -> Path:
        path = Path(path)
        path.write_bytes(self.to_bytes())
        return path


def _fill_table(table, rows) -> None:
    for r, row in enumerate(rows):
        for c, value in enumerate(row):
            cell = table.cell(r, c)
            if isinstance(value, list):
                cell.paragraphs[0].text = ""
                nested = cell.add_table(rows=len(value), cols=max(len(x) for x in value))
                _fill_table(nested, value)
            else:
                lines = value.split("\n")
                cell.paragraphs[0].text = lines[0]
                for line in lines[1:]:
                    cell.add_paragraph(line)


class _PackageEditor:
    """Adds parts python-docx has no API for, straight into the ZIP."""

    def __init__(self, data: bytes):
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            self.parts = {n: z.read(n) for n in z.namelist()}

    def apply(self, b: DocxBuilder) -> bytes:
        if b._footnotes:
            self._notes("footnotes", b._footnotes)
        if b._endnotes:
            self._notes("endnotes", b._endnotes)
        if b._app:
            self._app(b._app)
        if b._custom:
            self._custom(b._custom)
        if b._settings_xml:
            self._settings(b._settings_xml, b._settings_rels)
        for name, (data, rel_type) in b._extra_parts.items():
            self.parts[name] = data
            if rel_type is not None:
                self._relate("word/_rels/document.xml.rels", rel_type, "../" + name)
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
            for name, data in self.parts.items():
                entry = zipfile.ZipInfo(name, date_time=(2024, 1, 1, 0, 0, 0))
                entry.compress_type = zipfile.ZIP_DEFLATED
                z.writestr(entry, data)
        return buf.getvalue()

    def _notes(self, kind: str, notes: list[str]) -> None:
        tag = kind[:-1]
        body = "".join(
            f'<w:{tag} w:id="{i}"><w:p><w:r><w:rPr><w:vertAlign w:val="superscript"/></w:rPr>'
            f'<w:{tag}Ref/></w:r><w:r><w:t xml:space="preserve"> {note}</w:t></w:r></w:p></w:{tag}>'
            for i, note in enumerate(notes, start=1)
        )
        xml = (
            f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:{kind} xmlns:w="{W_NS}">'
            f'<w:{tag} w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:{tag}>'
            f'<w:{tag} w:type="continuationSeparator" w:id="0"><w:p><w:r><w:continuationSeparator/></w:r></w:p></w:{tag}>'
            f"{body}</w:{kind}>"
        )
        self.parts[f"word/{kind}.xml"] = xml.encode("utf-8")
        self._relate("word/_rels/document.xml.rels", f"{_REL}/{kind}", f"{kind}.xml")
        self._override(
            f"word/{kind}.xml", f"application/vnd.openxmlformats-officedocument.wordprocessingml.{kind}+xml"
        )

    def _app(self, values: dict[str, str]) -> None:
        xml = self.parts["docProps/app.xml"].decode("utf-8")
        extra = "".join(f"<{k}>{v}</{k}>" for k, v in values.items())
        self.parts["docProps/app.xml"] = xml.replace("</Properties>", extra + "</Properties>").encode("utf-8")

    def _custom(self, values: dict[str, str]) -> None:
        props = "".join(
            f'<property fmtid="{{D5CDD505-2E9C-101B-9397-08002B2CF9AE}}" pid="{i}" name="{k}"><vt:lpwstr>{v}</vt:lpwstr></property>'
            for i, (k, v) in enumerate(values.items(), start=2)
        )
        self.parts["docProps/custom.xml"] = (
            '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
            '<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/custom-properties"'
            ' xmlns:vt="http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes">'
            f"{props}</Properties>"
        ).encode("utf-8")
        self._relate("_rels/.rels", f"{_REL}/custom-properties", "docProps/custom.xml")
        self._override("docProps/custom.xml", "application/vnd.openxmlformats-officedocument.custom-properties+xml")

    def _settings(self, xml_bits: list[str], rels: list[tuple[str, str, str]]) -> None:
        xml = self.parts["word/settings.xml"].decode("utf-8")
        head, sep, tail = xml.partition("<w:defaultTabStop")
        if not sep:
            head, sep, tail = xml.partition("</w:settings>")
        self.parts["word/settings.xml"] = (head + "".join(xml_bits) + sep + tail).encode("utf-8")
        if 'xmlns:r="' not in xml:
            self.parts["word/settings.xml"] = self.parts["word/settings.xml"].replace(
                b"<w:settings ", f'<w:settings xmlns:r="{_REL}" '.encode(), 1
            )
        for rid, rel_type, target in rels:
            self._relate("word/_rels/settings.xml.rels", rel_type, target, rid=rid, external=True)

    def _relate(self, rels: str, rel_type: str, target: str, rid: str | None = None, external: bool = False) -> None:
        xml = self.parts.get(rels, (
            '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
            '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"></Relationships>'
        ).encode()).decode("utf-8")
        rid = rid or f"rIdX{xml.count('<Relationship ') + 1}"
        mode = ' TargetMode="External"' if external else ""
        xml = xml.replace(
            "</Relationships>", f'<Relationship Id="{rid}" Type="{rel_type}" Target="{target}"{mode}/></Relationships>'
        )
        self.parts[rels] = xml.encode("utf-8")

    def _override(self, name: str, content_type: str) -> None:
        xml = self.parts["[Content_Types].xml"].decode("utf-8")
        xml = xml.replace("</Types>", f'<Override PartName="/{name}" ContentType="{content_type}"/></Types>')
        self.parts["[Content_Types].xml"] = xml.encode("utf-8")


def jpeg_with_metadata(size: tuple[int, int], *, description: str, artist: str, xmp_text: str) -> bytes:
    """A JPEG as a phone camera writes it: EXIF description, artist and GPS position, an
    XMP packet and a comment."""
    exif = Image.Exif()
    exif[0x010E] = description  # ImageDescription
    exif[0x013B] = artist  # Artist
    exif[0x8825] = {1: "S", 2: (37.0, 47.0, 12.0), 3: "E", 4: (175.0, 17.0, 3.0)}  # GPS IFD
    xmp = (
        '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'
        f'<rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:creator>{xmp_text}</dc:creator>'
        "</rdf:Description></rdf:RDF></x:xmpmeta>"
    ).encode("utf-8")
    buf = io.BytesIO()
    _striped(size).save(buf, format="JPEG", exif=exif.tobytes(), xmp=xmp, comment=description.encode("utf-8"))
    return buf.getvalue()


def png_with_metadata(size: tuple[int, int], *, text: str, itxt: str, xmp_text: str) -> bytes:
    """A PNG with tEXt, compressed iTXt and XMP (iTXt "XML:com.adobe.xmp") chunks."""
    from PIL import PngImagePlugin

    info = PngImagePlugin.PngInfo()
    info.add_text("Author", text)
    info.add_itxt("Description", itxt, zip=True)
    info.add_itxt("XML:com.adobe.xmp", f"<x:xmpmeta><dc:creator>{xmp_text}</dc:creator></x:xmpmeta>")
    buf = io.BytesIO()
    _striped(size).save(buf, format="PNG", pnginfo=info)
    return buf.getvalue()


def _striped(size: tuple[int, int]) -> Image.Image:
    img = Image.new("RGB", size, (240, 240, 240))
    for x in range(0, size[0], 4):
        for y in range(size[1]):
            img.putpixel((x, y), (200, 30, 30))
    return img


def docx_parts(data: bytes) -> dict[str, bytes]:
    """Every part of a .docx, inflated."""
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        return {n: z.read(n) for n in z.namelist()}


# --------------------------------------------------------------------------- PDFs


@dataclass(frozen=True)
class DrawnText:
    """A string reportlab drew, with the box it occupies (points, from the page's top-left)."""

    page: int
    text: str
    x0: float
    top: float
    x1: float
    bottom: float


@dataclass
class PdfSpec:
    pages: list[list[tuple[float, float, str]]] = field(default_factory=list)  # (x, baseline from top, text)
    font: str = "Helvetica"
    size: float = 11
    pagesize: tuple[float, float] = A4
    title: str | None = None
    author: str | None = None
    subject: str | None = None


def make_pdf(path: str | Path | None, spec: PdfSpec) -> tuple[bytes, list[DrawnText]]:
    """Draw the spec's strings and return the file and where each string landed."""
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=spec.pagesize, invariant=1)
    if spec.title:
        c.setTitle(spec.title)
    if spec.author:
        c.setAuthor(spec.author)
    if spec.subject:
        c.setSubject(spec.subject)
    width, height = spec.pagesize
    drawn: list[DrawnText] = []
    for page_no, lines in enumerate(spec.pages):
        c.setFont(spec.font, spec.size)
        for x, baseline, text in lines:
            c.drawString(x, height - baseline, text)
            w = stringWidth(text, spec.font, spec.size)
            # pdfminer's character box: one font size high, starting at the font's descent
            # (Helvetica: 207/1000 below the baseline)
            drawn.append(DrawnText(page_no, text, x, baseline - 0.793 * spec.size, x + w, baseline + 0.207 * spec.size))
        c.showPage()
    c.save()
    data = buf.getvalue()
    if path is not None:
        Path(path).write_bytes(data)
    return data, drawn


def make_image_pdf(path: str | Path | None, pages: int = 1, *, text_on_page: dict[int, str] | None = None) -> bytes:
    """Scan-like pages (only an image); ``text_on_page`` adds a text line to some pages."""
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=A4, invariant=1)
    img = Image.new("L", (120, 160), 235)
    for x in range(10, 110, 7):
        for y in range(20, 140, 12):
            img.putpixel((x, y), 20)
    from reportlab.lib.utils import ImageReader

    for i in range(pages):
        c.drawImage(ImageReader(img), 50, 300, width=400, height=500)
        if text_on_page and i in text_on_page:
            c.setFont("Helvetica", 12)
            c.drawString(72, 100, text_on_page[i])
        c.showPage()
    c.save()
    data = buf.getvalue()
    if path is not None:
        Path(path).write_bytes(data)
    return data


def encrypt_pdf(data: bytes, *, user: str, owner: str = "owner-secret") -> bytes:
    import pikepdf

    with pikepdf.open(io.BytesIO(data)) as pdf:
        out = io.BytesIO()
        pdf.save(out, encryption=pikepdf.Encryption(owner=owner, user=user, R=6))
        return out.getvalue()


def pdf_stream_bytes(data: bytes) -> list[bytes]:
    """The raw file plus every stream of every object, decoded where pikepdf can decode it,
    and every string of the document information dictionary and the XMP packet."""
    import pikepdf

    out = [data]
    with pikepdf.open(io.BytesIO(data)) as pdf:
        for obj in pdf.objects:
            if isinstance(obj, pikepdf.Stream):
                out.append(obj.read_raw_bytes())
                try:
                    out.append(obj.read_bytes())
                except pikepdf.PdfError:
                    pass
            elif isinstance(obj, pikepdf.Dictionary):
                out.append(repr(obj).encode("utf-8", "replace"))
        for key, value in pdf.docinfo.items():
            out.append(f"{key}={value}".encode("utf-8", "replace"))
        if "/Metadata" in pdf.Root:
            out.append(pdf.Root.Metadata.read_bytes())
    return out


# --------------------------------------------------------------------------- Compound Files


def make_cfb(streams: dict[str, bytes]) -> bytes:
    """A Compound File Binary (version 3) holding small streams in its mini stream — the
    container of legacy .doc files and of password-protected Office 2007+ documents."""
    sector, mini = 512, 64
    free, end, fat_sect, nostream = 0xFFFFFFFF, 0xFFFFFFFE, 0xFFFFFFFD, 0xFFFFFFFF
    names = sorted(streams, key=lambda n: (len(n), n.upper()))  # sibling order of the tree

    mini_stream = b""
    minifat: list[int] = []
    starts = {}
    for name in names:
        data = streams[name]
        if len(data) >= 4096:
            raise ValueError("make_cfb keeps streams under 4096 bytes (mini stream only)")
        n = max(1, -(-len(data) // mini))
        starts[name] = len(minifat)
        minifat.extend(range(len(minifat) + 1, len(minifat) + n))
        minifat.append(end)
        mini_stream += data.ljust(n * mini, b"\0")
    container_sectors = max(1, -(-len(mini_stream) // sector))
    dir_sectors = -(-(len(names) + 1) * 128 // sector)
    first_dir = 2  # sector 0: FAT, 1: mini FAT, then the directory, then the mini stream container
    first_container = first_dir + dir_sectors

    def dir_entry(name: str, kind: int, start: int, size: int, left=nostream, right=nostream, child=nostream) -> bytes:
        raw = name.encode("utf-16-le") + b"\0\0"
        e = raw.ljust(64, b"\0") + struct.pack("<HBB", len(raw), kind, 1)
        e += struct.pack("<III", left, right, child) + b"\0" * 16 + b"\0" * 4 + b"\0" * 16
        return e + struct.pack("<IQ", start, size)

    entries = [dir_entry("Root Entry", 5, first_container, len(mini_stream), child=1)]
    for i, name in enumerate(names, start=1):
        right = i + 1 if i < len(names) else nostream
        entries.append(dir_entry(name, 2, starts[name], len(streams[name]), right=right))
    directory = b"".join(entries)
    empty = b"\0" * 64 + struct.pack("<HBB", 0, 0, 0) + struct.pack("<III", nostream, nostream, nostream) + b"\0" * 48
    directory = directory.ljust(dir_sectors * sector, b"\0")
    directory = b"".join(
        directory[i : i + 128] if directory[i : i + 128].strip(b"\0") else empty for i in range(0, len(directory), 128)
    )

    fat = [fat_sect, end]
    fat.extend(list(range(first_dir + 1, first_dir + dir_sectors)) + [end])
    fat.extend(list(range(first_container + 1, first_container + container_sectors)) + [end])
    fat_bytes = struct.pack(f"<{len(fat)}I", *fat).ljust(sector, b"\xff")
    minifat_bytes = struct.pack(f"<{len(minifat)}I", *minifat).ljust(sector, b"\xff")

    header = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 16
    header += struct.pack("<HHHHH", 0x3E, 3, 0xFFFE, 9, 6) + b"\0" * 6
    header += struct.pack("<IIIIIIIII", 0, 1, first_dir, 0, 4096, 1, 1, end, 0)
    header += struct.pack("<109I", 0, *([free] * 108))
    return header + fat_bytes + minifat_bytes + directory + mini_stream.ljust(container_sectors * sector, b"\0")


def make_encrypted_docx() -> bytes:
    """What Word writes for "Encrypt with Password": an EncryptionInfo stream and the
    encrypted package, inside a Compound File (contents here are stand-ins of the right shape)."""
    info = struct.pack("<HHI", 4, 4, 0x40) + b"<?xml version=\"1.0\"?><encryption/>"
    return make_cfb({"EncryptionInfo": info, "EncryptedPackage": struct.pack("<Q", 1200) + bytes(range(256)) * 4})


def make_legacy_doc() -> bytes:
    return make_cfb({"WordDocument": b"\xec\xa5" + b"\0" * 600, "1Table": b"\0" * 300})


# --------------------------------------------------------------------------- checks


def replacements_for(text: str, surrogates: dict[str, str], category: str = "NAME") -> list:
    """A Replacement for every occurrence (any case) of each original, longest first."""
    import re

    from deid_desktop.core.documents import Replacement

    taken: set[int] = set()
    out = []
    for original in sorted(surrogates, key=len, reverse=True):
        for m in re.finditer(re.escape(original), text, re.IGNORECASE):
            if taken.intersection(range(m.start(), m.end())):
                continue
            taken.update(range(m.start(), m.end()))
            out.append(Replacement(m.start(), m.end(), surrogates[original], category))
    return sorted(out, key=lambda r: r.start)


def find_leaks(blobs: list[bytes], originals: list[str]) -> list[str]:
    """Originals found in any blob: in UTF-8, Latin-1, UTF-16 (both byte orders), XML-escaped,
    in any letter case. Returns "original (encoding)" for each hit."""
    from xml.sax.saxutils import escape

    hay = [b.lower() for b in blobs]
    hits = []
    for original in originals:
        variants = {original, escape(original), escape(original, {"'": "&apos;", '"': "&quot;"})}
        for variant in variants:
            for encoding in ("utf-8", "latin-1", "utf-16-le", "utf-16-be"):
                try:
                    needle = variant.lower().encode(encoding)
                except UnicodeEncodeError:
                    continue
                if any(needle in h for h in hay):
                    hits.append(f"{original} ({encoding})")
    return sorted(set(hits))


# --------------------------------------------------------------------------- PDFs: hard cases


@dataclass
class PdfLine:
    """One string drawn with reportlab: baseline origin (points from the page's top-left),
    turned ``angle`` degrees counter-clockwise, in any font, size, colour and render mode
    (3 = invisible)."""

    x: float
    baseline: float
    text: str
    angle: float = 0.0
    font: str = "Helvetica"
    size: float = 11
    colour: tuple[float, float, float] = (0, 0, 0)
    render_mode: int = 0

    def span_quad(self, start: int, end: int) -> list[tuple[float, float]]:
        """The rotated font box (descent to ascent) of ``text[start:end]``, as four points in
        the viewer's frame: what must be painted for those letters to be gone."""
        import math

        a = stringWidth(self.text[:start], self.font, self.size)
        b = stringWidth(self.text[:end], self.font, self.size)
        rad = math.radians(self.angle)
        along = (math.cos(rad), -math.sin(rad))
        up = (-math.sin(rad), -math.cos(rad))
        lo, hi = -0.25 * self.size, 0.95 * self.size
        return [
            (self.x + s * along[0] + t * up[0], self.baseline + s * along[1] + t * up[1])
            for s, t in ((a, lo), (b, lo), (b, hi), (a, hi))
        ]


def make_lines_pdf(path: str | Path | None, lines: list[PdfLine], pagesize: tuple[float, float] = A4) -> bytes:
    """A one-page PDF of the given lines, each drawn as one text object."""
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=pagesize, invariant=1)
    height = pagesize[1]
    for line in lines:
        c.saveState()
        c.translate(line.x, height - line.baseline)
        c.rotate(line.angle)
        c.setFillColorRGB(*line.colour)
        t = c.beginText(0, 0)
        t.setTextRenderMode(line.render_mode)
        t.setFont(line.font, line.size)
        t.textOut(line.text)
        c.drawText(t)
        c.restoreState()
    return _finish(c, buf, path)


def _finish(c: Canvas, buf: io.BytesIO, path: str | Path | None) -> bytes:
    """End the one-page canvas and hand back its bytes, written to ``path`` when given."""
    c.showPage()
    c.save()
    data = buf.getvalue()
    if path is not None:
        Path(path).write_bytes(data)
    return data


def make_arc_pdf(path: str | Path | None, word: str, centre: tuple[float, float] = (300, 400), radius: float = 60) -> bytes:
    """A rubber-stamp look: each letter of ``word`` on a circle, turned its own way."""
    import math

    buf = io.BytesIO()
    c = Canvas(buf, pagesize=A4, invariant=1)
    c.setFont("Helvetica", 11)
    c.drawString(72, A4[1] - 90, "Stamped copy, see below.")
    for i, letter in enumerate(word):
        angle = 150 - i * 22  # none of the letters upright or on its side
        rad = math.radians(angle)
        c.saveState()
        c.translate(centre[0] + radius * math.cos(rad), A4[1] - centre[1] + radius * math.sin(rad))
        c.rotate(angle - 90)
        c.setFont("Helvetica-Bold", 14)
        c.drawString(0, 0, letter)
        c.restoreState()
    return _finish(c, buf, path)


def add_pdf_extras(data: bytes, secret: str) -> bytes:
    """Everything a PDF may carry besides its page content, each holding ``secret``: an
    outline entry, a text annotation, a filled form field, an attached file, document-level
    JavaScript, a page label, document information and an XMP packet."""
    import pikepdf

    with pikepdf.open(io.BytesIO(data)) as pdf:
        page = pdf.pages[0]
        with pdf.open_outline() as outline:
            outline.root.append(pikepdf.OutlineItem(f"Notes on {secret}", 0))
        field_ = pdf.make_indirect(
            pikepdf.Dictionary(
                Type=pikepdf.Name.Annot, Subtype=pikepdf.Name.Widget, FT=pikepdf.Name.Tx,
                T=pikepdf.String("patient"), V=pikepdf.String(secret), Rect=[72, 600, 300, 620], P=page.obj,
            )
        )
        note = pdf.make_indirect(
            pikepdf.Dictionary(
                Type=pikepdf.Name.Annot, Subtype=pikepdf.Name.Text, Rect=[72, 650, 92, 670],
                Contents=pikepdf.String(f"Call {secret}"),
            )
        )
        page.obj.Annots = pdf.make_indirect(pikepdf.Array([field_, note]))
        pdf.Root.AcroForm = pikepdf.Dictionary(Fields=pikepdf.Array([field_]))
        pdf.attachments["referral.txt"] = pikepdf.AttachedFileSpec(pdf, f"Referral for {secret}".encode())
        js = pdf.make_stream(f"app.alert('{secret}');".encode())
        pdf.Root.Names.JavaScript = pikepdf.Dictionary(
            Names=pikepdf.Array([pikepdf.String("hello"), pikepdf.Dictionary(S=pikepdf.Name.JavaScript, JS=js)])
        )
        pdf.Root.PageLabels = pikepdf.Dictionary(
            Nums=pikepdf.Array([0, pikepdf.Dictionary(S=pikepdf.Name.D, P=pikepdf.String(f"{secret}-"))])
        )
        with pdf.open_metadata(set_pikepdf_as_editor=False) as meta:
            meta["dc:creator"] = [secret]
            meta["dc:title"] = f"Letter about {secret}"
        pdf.docinfo["/Author"] = secret
        pdf.docinfo["/Keywords"] = secret
        out = io.BytesIO()
        pdf.save(out)
        return out.getvalue()


def make_ocr_pdf(path: str | Path | None, lines: list[PdfLine], dpi: int = 200) -> bytes:
    """What a scanner with OCR writes: the page as a picture, with the recognised text laid
    over it invisibly (render mode 3) where the picture shows it."""
    import pypdfium2 as pdfium
    from reportlab.lib.utils import ImageReader

    pdf = pdfium.PdfDocument(make_lines_pdf(None, lines))
    picture = pdf[0].render(scale=dpi / 72).to_pil().convert("L")
    pdf.close()
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=A4, invariant=1)
    c.drawImage(ImageReader(picture), 0, 0, width=A4[0], height=A4[1])
    for line in lines:
        t = c.beginText(line.x, A4[1] - line.baseline)
        t.setTextRenderMode(3)
        t.setFont(line.font, line.size)
        t.textOut(line.text)
        c.drawText(t)
    return _finish(c, buf, path)
