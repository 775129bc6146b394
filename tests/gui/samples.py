"""Real sample files for the GUI tests: a clinical note as .txt, .docx and .pdf, and files
that cannot be imported."""

from __future__ import annotations

from pathlib import Path

CLINICAL_NOTE = """DISCHARGE SUMMARY

Patient: Margaret Okafor
MRN: 44172290
Date of admission: 03/14/2021
Date of discharge: 03/19/2021
Attending: Dr. Samuel Lindqvist

Mrs. Okafor is a 67 year old retired teacher admitted with community-acquired pneumonia.
She has Parkinson's disease; Glasgow Coma Scale 15 on arrival. Amoxicillin 500 mg three times daily.
Phone: (617) 555-0142. Email: m.okafor@example.com.
Okafor improved on antibiotics and was discharged home on 03/19/2021.
Follow-up with Dr. Lindqvist on 04/02/2021. Her daughter was informed; Okafor agreed with the plan.
"""

LETTER = """Clinic letter

Dear colleague,
I saw Mr. Tobias Wren on 11/02/2022 regarding his hypertension.
Blood pressure 142/88 mmHg. Please call (212) 555-0187 with questions.
Next review on 12/15/2022.
"""


def write_txt(path: Path, text: str = CLINICAL_NOTE) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def write_docx(path: Path, text: str = LETTER) -> Path:
    import docx

    path.parent.mkdir(parents=True, exist_ok=True)
    d = docx.Document()
    for line in text.splitlines():
        d.add_paragraph(line)
    d.save(str(path))
    return path


def write_pdf(path: Path, text: str = LETTER) -> Path:
    from reportlab.lib.pagesizes import letter
    from reportlab.pdfgen import canvas

    path.parent.mkdir(parents=True, exist_ok=True)
    c = canvas.Canvas(str(path), pagesize=letter)
    c.setFont("Helvetica", 11)
    y = 740
    for line in text.splitlines():
        c.drawString(72, y, line)
        y -= 16
    c.save()
    return path


def write_bad_files(folder: Path) -> dict[str, str]:
    """File name -> the ingest error code it should get."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "empty.txt").write_bytes(b"")
    (folder / "broken.pdf").write_bytes(b"%PDF-1.7\n1 0 obj << /Type /Catalog >>\nthis is not a pdf body\n")
    (folder / "scan.tiff").write_bytes(b"II*\x00" + bytes(200))
    return {"empty.txt": "empty", "broken.pdf": "corrupt", "scan.tiff": "unsupported"}
