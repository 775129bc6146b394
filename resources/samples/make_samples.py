"""Regenerate the bundled sample documents (synthetic clinical letters with fake PHI).

    python resources/samples/make_samples.py [output folder]

Every person, number, address and date here is invented. The output is byte-for-byte the same
on every run (fixed ZIP timestamps, reportlab's invariant mode), so the committed files only
change when this script does.
"""

from __future__ import annotations

import io
import sys
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
_ZIP_TIME = (2024, 5, 14, 9, 30, 0)


# --------------------------------------------------------------------------- referral letter


def referral_letter() -> bytes:
    import docx
    from docx.enum.text import WD_ALIGN_PARAGRAPH
    from docx.shared import Pt, RGBColor

    doc = docx.Document()
    style = doc.styles["Normal"]
    style.font.name = "Calibri"
    style.font.size = Pt(11)

    section = doc.sections[0]
    head = section.header.paragraphs[0]
    head.alignment = WD_ALIGN_PARAGRAPH.RIGHT
    title = head.add_run("Meadowbank Surgery")
    title.bold = True
    title.font.size = Pt(14)
    title.font.color.rgb = RGBColor(0x1F, 0x4E, 0x79)
    head.add_run("\nDr Priya Raghunathan MRCGP  ·  Dr Owen Pritchard MRCGP")
    foot = section.footer.paragraphs[0]
    foot.alignment = WD_ALIGN_PARAGRAPH.CENTER
    foot.text = "Meadowbank Surgery, 14 Larkhill Road, Sheffield S11 8QW  ·  Tel 0114 496 0732  ·  Fax 0114 496 0733"

    doc.add_paragraph("14 May 2024")
    doc.add_paragraph(
        "Dr Helen Okonkwo\nConsultant Rheumatologist\nRheumatology Outpatients\n"
        "Northern General Hospital\nHerries Road, Sheffield S5 7AU"
    )
    ref = doc.add_paragraph()
    ref.add_run("Re: ").bold = True
    # The patient's name is split across runs, as Word does after an edit or a format change.
    ref.add_run("Mrs Margaret ")
    ref.add_run("Elsworth").bold = True
    ref.add_run("  DOB 03/08/1957  NHS No 485 777 3456")
    doc.add_paragraph("47 Carterknowle Avenue, Sheffield S7 2DX  ·  Mobile 07700 900461")

    doc.add_paragraph("Dear Dr Okonkwo,")
    doc.add_paragraph(
        "Thank you for seeing this 66-year-old retired teacher who has had bilateral hand pain and "
        "early-morning stiffness lasting about two hours since February. On examination on 9 May 2024 "
        "she had synovitis of the 2nd and 3rd MCP joints of both hands and a positive squeeze test. "
        "Her CRP was 38 mg/L and anti-CCP antibodies were strongly positive. X-rays of the hands "
        "showed periarticular osteopenia without erosions."
    )
    doc.add_paragraph(
        "She has a history of hypertension and hypothyroidism. Her husband, Mr Geoffrey Elsworth, "
        "has Parkinson's disease and she is his main carer, so early morning appointments are "
        "difficult for her. I would be grateful for your assessment and advice on starting a "
        "disease-modifying drug."
    )
    doc.add_paragraph("Current medication:")
    meds = [
        ("Medicine", "Dose", "Started"),
        ("Amlodipine", "5 mg once daily", "11/2019"),
        ("Levothyroxine", "75 micrograms once daily", "06/2015"),
        ("Naproxen", "500 mg twice daily with food", "03/2024"),
        ("Omeprazole", "20 mg once daily", "03/2024"),
    ]
    table = doc.add_table(rows=len(meds), cols=3)
    table.style = "Table Grid"
    for r, row in enumerate(meds):
        for c, value in enumerate(row):
            cell = table.cell(r, c)
            cell.text = value
            if r == 0:
                cell.paragraphs[0].runs[0].bold = True
    doc.add_paragraph("Allergies: penicillin (rash).")
    doc.add_paragraph(
        "Please contact me on 0114 496 0732 or at p.raghunathan@meadowbank-surgery.example.nhs.uk "
        "if you need any further information."
    )
    doc.add_paragraph("Yours sincerely,")
    doc.add_paragraph("Dr Priya Raghunathan\nGeneral Practitioner")

    props = doc.core_properties
    props.author = "Priya Raghunathan"
    props.last_modified_by = "Priya Raghunathan"
    props.title = "Referral - Margaret Elsworth"
    props.subject = "Rheumatology referral"
    props.keywords = "referral; rheumatology"
    props.comments = "Dictated 14/05/2024"
    props.revision = 3

    buf = io.BytesIO()
    doc.save(buf)
    return _fixed_zip_times(buf.getvalue())


def _fixed_zip_times(data: bytes) -> bytes:
    """python-docx stamps ZIP entries with the current time; fix them for reproducibility."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            entry = zipfile.ZipInfo(info.filename, date_time=_ZIP_TIME)
            entry.compress_type = zipfile.ZIP_DEFLATED
            dst.writestr(entry, src.read(info))
    return out.getvalue()


# --------------------------------------------------------------------------- discharge summary


def discharge_summary() -> bytes:
    from reportlab.lib import colors
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.styles import ParagraphStyle, getSampleStyleSheet
    from reportlab.lib.units import mm
    from reportlab.platypus import PageBreak, Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

    buf = io.BytesIO()
    pdf = SimpleDocTemplate(
        buf,
        pagesize=A4,
        invariant=1,
        leftMargin=20 * mm,
        rightMargin=20 * mm,
        topMargin=18 * mm,
        bottomMargin=18 * mm,
        title="Discharge summary",
        author="Waitematā Health",
    )
    styles = getSampleStyleSheet()
    body = ParagraphStyle("body", parent=styles["BodyText"], fontSize=10, leading=13)
    h1 = ParagraphStyle("h1", parent=styles["Heading1"], fontSize=15, spaceAfter=4)
    h2 = ParagraphStyle("h2", parent=styles["Heading2"], fontSize=11.5, spaceBefore=8, spaceAfter=3)

    def footer(canvas, _doc) -> None:
        canvas.saveState()
        canvas.setFont("Helvetica", 8)
        canvas.drawString(20 * mm, 10 * mm, "North Shore Hospital, 124 Shakespeare Road, Takapuna, Auckland 0620  -  Ph 09 486 8900")
        canvas.drawRightString(190 * mm, 10 * mm, f"Page {canvas.getPageNumber()} of 2")
        canvas.restoreState()

    patient = Table(
        [
            ["Patient", "Tevita Fifita", "NHI", "ZAC4127"],
            ["Date of birth", "21/11/1968", "Admitted", "02/04/2024"],
            ["Address", "38 Glenfield Road, Glenfield, Auckland 0629", "Discharged", "09/04/2024"],
            ["Phone", "021 384 9921", "Ward", "Ward 7 (Cardiology)"],
        ],
        colWidths=[28 * mm, 72 * mm, 24 * mm, 46 * mm],
    )
    patient.setStyle(
        TableStyle(
            [
                ("FONT", (0, 0), (-1, -1), "Helvetica", 9.5),
                ("FONT", (0, 0), (0, -1), "Helvetica-Bold", 9.5),
                ("FONT", (2, 0), (2, -1), "Helvetica-Bold", 9.5),
                ("GRID", (0, 0), (-1, -1), 0.4, colors.grey),
                ("BACKGROUND", (0, 0), (0, -1), colors.whitesmoke),
                ("BACKGROUND", (2, 0), (2, -1), colors.whitesmoke),
            ]
        )
    )
    story = [
        Paragraph("Discharge Summary", h1),
        Paragraph("North Shore Hospital - Department of Cardiology", body),
        Spacer(1, 6),
        patient,
        Paragraph("Responsible clinician", h2),
        Paragraph("Dr Sarah Whitcombe, Consultant Cardiologist. Registrar: Dr Ahmed Farouk.", body),
        Paragraph("Presenting complaint", h2),
        Paragraph(
            "Mr Fifita, a 55-year-old bus driver, presented on 02/04/2024 with 90 minutes of central "
            "chest pain radiating to the left arm while at work. ECG showed ST elevation in leads II, "
            "III and aVF. Troponin T peaked at 2150 ng/L.",
            body,
        ),
        Paragraph("Procedures", h2),
        Paragraph(
            "Primary PCI on 02/04/2024: drug-eluting stent to the right coronary artery (Dr Whitcombe). "
            "Echocardiogram on 04/04/2024: LVEF 45%, inferior hypokinesis, no significant valve disease.",
            body,
        ),
        Paragraph("Progress", h2),
        Paragraph(
            "Uncomplicated recovery. Mobilised on day 2. Seen by the cardiac rehabilitation nurse, "
            "Losa Tuilagi, who has booked him into the Takapuna programme starting 23/04/2024. "
            "His wife, Mele Fifita, attended the education session.",
            body,
        ),
        PageBreak(),
        Paragraph("Medicines on discharge", h2),
    ]
    meds = Table(
        [
            ["Medicine", "Dose", "Comment"],
            ["Aspirin", "100 mg daily", "Lifelong"],
            ["Ticagrelor", "90 mg twice daily", "12 months, until 02/04/2025"],
            ["Atorvastatin", "80 mg nightly", "New"],
            ["Metoprolol succinate", "47.5 mg daily", "New"],
            ["Cilazapril", "2.5 mg daily", "New; check creatinine in 1 week"],
            ["GTN spray", "400 micrograms PRN", "For chest pain"],
        ],
        colWidths=[45 * mm, 45 * mm, 80 * mm],
    )
    meds.setStyle(
        TableStyle(
            [
                ("FONT", (0, 0), (-1, -1), "Helvetica", 9.5),
                ("FONT", (0, 0), (-1, 0), "Helvetica-Bold", 9.5),
                ("GRID", (0, 0), (-1, -1), 0.4, colors.grey),
            ]
        )
    )
    story += [
        meds,
        Paragraph("Follow-up", h2),
        Paragraph(
            "GP: Dr Michael Tan, Glenfield Medical Centre, phone 09 444 6312 - please check renal "
            "function and potassium in one week and titrate metoprolol. Cardiology clinic with "
            "Dr Whitcombe in 6 weeks; the appointment letter will be posted to the home address.",
            body,
        ),
        Paragraph("Information given to the patient", h2),
        Paragraph(
            "Not to drive for 2 weeks (commercial licence: stand down until cleared by cardiology). "
            "Call 111 if chest pain lasts more than 10 minutes after GTN.",
            body,
        ),
        Spacer(1, 10),
        Paragraph("Electronically signed by Dr Ahmed Farouk, Cardiology Registrar, 09/04/2024 15:42.", body),
    ]
    pdf.build(story, onFirstPage=footer, onLaterPages=footer)
    return buf.getvalue()


# --------------------------------------------------------------------------- text notes

CLINIC_NOTE = """\
HILLSIDE MEDICAL PRACTICE - CONSULTATION NOTE

Patient:   Mr Daniel Ashworth-Reid
DOB:       17/02/1984
NHS No:    943 476 5919
Address:   Flat 3, 22 Cromwell Street, Leeds LS6 2PQ
Seen by:   Dr Fiona McAllister (GP)    Date: 21/03/2024

History: 40 y/o man, warehouse supervisor at Kirkstall Logistics. 3/52 of productive cough,
night sweats and 4 kg weight loss. Ex-smoker (15 pack-years, stopped 2019). No haemoptysis.
Travelled to Lahore to visit family Dec 2023 - Jan 2024. Partner Sophie Ng well.

Examination: T 37.9, HR 96, RR 18, SpO2 96% RA. Crackles R upper zone. No lymphadenopathy.

Plan:
- CXR today at Leeds General Infirmary (request sent)
- Sputum x3 for AFB, FBC, CRP, HIV test (consented)
- Safety-netted; review Tue 26/03/2024 or sooner if worse
- Contact mobile 07700 900318 with results

F. McAllister
"""

PHONE_MESSAGE = """\
PHONE MESSAGE - Te Awakairangi Health Centre
Taken by: Ana (reception)   12/06/2024 10:47

Caller: Wiremu Tāwhai (son) for his mother Hinemoa Tāwhai, NHI PRK5531, DOB 05/09/1941
Call back on 027 415 8830 (mobile) or 04 569 2210 (home), 19 Kōwhai Street, Naenae, Lower Hutt 5011

Mum has had a fall at home this morning, no injury she says but very shaky. Ran out of her
warfarin on Sunday. Wants a home visit from Dr Patel or the district nurse (Leilani) today if possible.
Usual pharmacy: Naenae Unichem, fax 04 567 1920.
"""


# --------------------------------------------------------------------------- scanned letter

SCANNED_LETTER = [
    "Kapiti Coast Medical Centre",
    "",
    "Patient: Aroha Ngata",
    "NHI: ZAC5361",
    "Phone: (04) 385 5999",
    "",
    "Reason for referral: type 2 diabetes,",
    "poorly controlled on metformin.",
]
# a word squeezed to a third of its width, as a fax squashes a line: Tesseract reads it with
# low confidence, so the reviewer's cue for such words shows
SQUEEZED_WORD = "Wiremu"


def scanned_letter() -> bytes:
    """A faxed referral: page 1 the letter as a 200 dpi greyscale image, turned 1.2 degrees,
    speckled, with one faded, squeezed word; page 2 a blank speckled sheet. No text layer: only OCR
    reads it. Not among the bundled samples (OCR makes the first run slow); the review-window
    screenshot of a scan and the GUI tests write it where they need it."""
    import random

    from PIL import Image, ImageDraw, ImageFilter, ImageFont
    from reportlab.lib.utils import ImageReader
    from reportlab.pdfgen.canvas import Canvas

    dpi, font_file = 200, "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
    w, h = int(8.27 * dpi), int(11.69 * dpi)

    def speckled(page, seed: int):
        rnd, px = random.Random(seed), page.load()
        for _ in range(int(w * h * 0.002)):
            px[rnd.randrange(w), rnd.randrange(h)] = 0
        return page

    letter = Image.new("L", (w, h), 255)
    draw = ImageDraw.Draw(letter)
    font = ImageFont.truetype(font_file, 40)
    for i, line in enumerate(SCANNED_LETTER):
        draw.text((160, 200 + 70 * i), line, fill=0, font=font)
    squeezed = Image.new("L", (600, 60), 255)
    ImageDraw.Draw(squeezed).text((0, 5), SQUEEZED_WORD, fill=0, font=ImageFont.truetype(font_file, 34))
    squeezed = squeezed.filter(ImageFilter.GaussianBlur(0.8))
    rnd, px = random.Random(4), squeezed.load()
    for _ in range(1500):  # toner drop-outs
        x, y = rnd.randrange(600), rnd.randrange(60)
        px[x, y] = 255 if px[x, y] < 128 else px[x, y]
    letter.paste(squeezed.resize((200, 60)), (160, 200 + 70 * len(SCANNED_LETTER) + 40))
    letter = letter.rotate(1.2, resample=Image.Resampling.BICUBIC, fillcolor=255)
    pages = [speckled(letter, 1), speckled(Image.new("L", (w, h), 255), 2)]
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=(595.28, 841.89), invariant=1)
    for page in pages:
        c.drawImage(ImageReader(page), 0, 0, width=595.28, height=841.89)
        c.showPage()
    c.save()
    return buf.getvalue()


# --------------------------------------------------------------------------- main


def build_all(out_dir: Path = HERE) -> list[Path]:
    out_dir.mkdir(parents=True, exist_ok=True)
    outputs = {
        "referral_letter.docx": referral_letter(),
        "discharge_summary.pdf": discharge_summary(),
        # UK practice systems run on Windows: CRLF line endings.
        "clinic_note.txt": CLINIC_NOTE.replace("\n", "\r\n").encode("utf-8"),
        "phone_message.txt": PHONE_MESSAGE.encode("utf-8"),
    }
    written = []
    for name, data in outputs.items():
        path = out_dir / name
        path.write_bytes(data)
        written.append(path)
    return written


if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else HERE
    for p in build_all(target):
        print(p)
