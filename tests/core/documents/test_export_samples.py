"""De-identifying each bundled sample leaves none of its identifiers in the written file."""

from __future__ import annotations

from pathlib import Path

import pytest

from deid_desktop.core.documents import apply_replacements
from deid_desktop.core.documents.export import write_document
from deid_desktop.core.documents.ingest import load_document

from tests.core.docfactory import docx_parts, find_leaks, pdf_stream_bytes, replacements_for

SAMPLES = Path(__file__).resolve().parents[3] / "resources" / "samples"

PHI = {
    "referral_letter.docx": {
        "Margaret Elsworth": "Joan Hadley",
        "Elsworth": "Hadley",
        "03/08/1957": "14/01/1956",
        "485 777 3456": "401 023 2137",
        "47 Carterknowle Avenue": "9 Oak Lane",
        "S7 2DX": "S10 1AB",
        "07700 900461": "07700 900123",
        "Priya Raghunathan": "Anne Cole",
        "Raghunathan": "Cole",
        "Owen Pritchard": "Luke Ward",
        "Helen Okonkwo": "Mary Adams",
        "Okonkwo": "Adams",
        "Geoffrey Elsworth": "Brian Hadley",
        "Meadowbank Surgery": "Elm Practice",
        "14 Larkhill Road": "2 Mill Road",
        "S11 8QW": "S12 2XY",
        "0114 496 0732": "0114 496 0999",
        "0114 496 0733": "0114 496 0998",
        "p.raghunathan@meadowbank-surgery.example.nhs.uk": "a.cole@example.org",
    },
    "discharge_summary.pdf": {
        "Tevita Fifita": "Sione Lātū",
        "Fifita": "Lātū",
        "ZAC4127": "PQR6630",
        "21/11/1968": "02/10/1967",
        "38 Glenfield Road": "5 Beach Road",
        "021 384 9921": "021 555 0142",
        "Sarah Whitcombe": "Jane Ford",
        "Whitcombe": "Ford",
        "Ahmed Farouk": "Omar Said",
        "Losa Tuilagi": "Ana Vea",
        "Mele Fifita": "Lose Lātū",
        "Michael Tan": "Paul Lee",
        "09 444 6312": "09 555 0177",
        "Waitematā Health": "-",
    },
    "clinic_note.txt": {
        "Daniel Ashworth-Reid": "Mark Bell",
        "17/02/1984": "03/06/1983",
        "943 476 5919": "401 555 2290",
        "22 Cromwell Street": "8 High Street",
        "LS6 2PQ": "LS1 1AA",
        "Fiona McAllister": "Claire Dunn",
        "McAllister": "Dunn",
        "Sophie Ng": "Amy Fox",
        "07700 900318": "07700 900999",
        "Kirkstall Logistics": "Acme Freight",
    },
    "phone_message.txt": {
        "Wiremu Tāwhai": "Rawiri Kereama",
        "Hinemoa Tāwhai": "Mereana Kereama",
        "PRK5531": "JKL4410",
        "05/09/1941": "11/02/1940",
        "027 415 8830": "027 555 0123",
        "04 569 2210": "04 555 0188",
        "19 Kōwhai Street": "7 Rātā Street",
    },
}


@pytest.mark.parametrize("name", sorted(PHI))
def test_sample_deidentifies_without_leaks(tmp_path, name):
    doc = load_document(SAMPLES / name)
    surrogates = PHI[name]
    reps = replacements_for(doc.text, surrogates)
    found = {doc.text[r.start : r.end].casefold() for r in reps}
    in_text = [v for v in surrogates if v.casefold() in doc.text.casefold()]
    assert all(v.casefold() in found or any(v.casefold() in f for f in found) for v in in_text)

    out = write_document(doc, reps, tmp_path / name)
    data = out.read_bytes()
    if name.endswith(".docx"):
        blobs = [data, *docx_parts(data).values()]
    elif name.endswith(".pdf"):
        blobs = pdf_stream_bytes(data)
    else:
        blobs = [data]
    assert find_leaks(blobs, list(surrogates)) == []

    back = load_document(out)
    expected = apply_replacements(doc.text, reps)
    if name.endswith(".pdf"):
        assert " ".join(back.text.split()) == " ".join(expected.split())
    else:
        assert back.text == expected
