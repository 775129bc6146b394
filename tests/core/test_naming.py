"""Output file names carry no PHI: a data steward releases the names we write, so numbers and
dates in a name are PHI, a word of the document's own PHI is PHI, and a name with any word not
known to be harmless becomes a neutral keyed name. Ordinary names stay readable."""

from __future__ import annotations

import json
import re
from pathlib import PurePath

import pytest

from deid_desktop.core.categories import Category
from deid_desktop.core.detect.ensemble import Ensemble
from deid_desktop.core.naming import FileNamer, phi_words, withheld_name
from deid_desktop.core.paths import resource
from deid_desktop.core.spans import Span
from deid_desktop.core.surrogates import SurrogateEngine

SECRET = b"naming tests secret, 32 bytes..."
NEUTRAL = re.compile(r"(doc|folder)-[0-9a-f]{8}")


@pytest.fixture(scope="module")
def rules():
    return Ensemble.from_config(str(resource("ensembles", "rules_only.toml")))


def namer(rules, mode="surrogate") -> FileNamer:
    return FileNamer(rules, SurrogateEngine(SECRET), SECRET, mode)


def assert_gone(name: str, *originals: str) -> None:
    """No original in any form: any case, and with the separators taken out ("okafor",
    "MargaretOkafor", "44172290" inside "MRN44172290")."""
    flat = re.sub(r"[\W_]+", "", name).casefold()
    for o in originals:
        assert re.sub(r"[\W_]+", "", o).casefold() not in flat, (o, name)


def _span(text: str, value: str, category: Category, fine: str = "OTHER") -> Span:
    start = text.index(value)
    return Span(start, start + len(value), category, fine)


LEAKS = [
    ("Okafor_Margaret_MRN44172290", ("Okafor", "Margaret", "44172290")),  # kept the names
    ("Margaret Okafor 44172290", ("Okafor", "Margaret", "44172290")),  # kept the bare number
    ("okafor margaret", ("okafor", "margaret")),  # surname first, lower case
    ("Fifita_Tevita_letter", ("Fifita", "Tevita")),
    ("ngata aroha referral", ("ngata", "aroha")),
    ("Rose_Brown_letter", ("Rose", "Brown")),  # names that are also English words
    ("discharge_summary_20210314", ("20210314", "2021")),  # a date written without separators
    ("letter_14.03", ("14.03", "1403")),  # a day and month
    ("clinic_2021", ("2021",)),
    ("referral_AB12CD3", ("AB12CD3",)),  # an identifier whose digits are not in one run
    ("Tevita_Fifita_letter", ("Tevita", "Fifita")),
    ("discharge_summary_2021-03-14", ("2021-03-14", "2021")),
    ("scan 0412 555 019", ("0412", "555", "019")),
]


@pytest.mark.parametrize("mode", ["surrogate", "tag"])
@pytest.mark.parametrize("stem, originals", LEAKS, ids=[s for s, _ in LEAKS])
def test_no_name_number_or_date_survives_in_a_file_name(rules, mode, stem, originals):
    out = namer(rules, mode).relative(PurePath(stem + ".txt"), ["p1"])
    assert out.suffix == ".txt"
    assert_gone(out.stem, *originals)


def test_a_name_with_an_unknown_word_becomes_neutral_and_stays_the_same(rules):
    """"Okafor" and "Margaret" are found by nothing that reads four words without context:
    the whole name is withheld, under the same keyed name in every run."""
    first = namer(rules).file_stem("Okafor_Margaret_MRN44172290", "p1")
    assert NEUTRAL.fullmatch(first)
    assert namer(rules).file_stem("Okafor_Margaret_MRN44172290", "p1") == first


def test_a_word_known_only_from_the_document_gets_the_surrogate_the_body_gets(rules):
    """"Whaanga" is in no word list the name is read with; the document says it is the
    patient's name, so the file name takes the body's surrogate for it."""
    body = "Patient: Aroha Whaanga\nReviewed at Pacific Radiology on 14/03/2021.\n"
    spans = [_span(body, "Aroha Whaanga", Category.NAME, "PATIENT"),
             _span(body, "Pacific Radiology", Category.ORGANIZATION, "COMPANY"), _span(body, "14/03/2021", Category.DATE)]
    engine = SurrogateEngine(SECRET)
    surrogate = next(r.new_text for r in engine.replacements(body, spans, subject="p1") if r.start == 9)
    named = FileNamer(rules, engine, SECRET).file_stem("Whaanga_letter", "p1", phi_words(body, spans))
    assert named == f"{surrogate.split()[-1]}_letter"
    # "Pacific" is an ordinary word of the lists, but this document's organisation
    assert namer(rules).file_stem("Pacific_report", "p1") == "Pacific_report"
    out = namer(rules).file_stem("Pacific_report", "p1", phi_words(body, spans))
    assert_gone(out, "pacific")
    assert out.endswith("_report")


def test_the_gui_export_passes_the_documents_own_phi_to_the_file_name(tmp_path, rules):
    from deid_desktop.core.documents.ingest import load_document
    from deid_desktop.core.store import DocStatus, Workspace
    from deid_desktop.core.usecases.exporting import ExportJob, ExportOptions

    src = tmp_path / "in" / "Pacific_report.txt"
    src.parent.mkdir()
    src.write_text("Imaging by Pacific Radiology for the patient.\n", encoding="utf-8")

    class Provider:
        def get(self):
            return rules

    with Workspace.open(tmp_path / "ws.sqlite") as ws:
        doc_id = ws.import_document(load_document(src), subject_label="p1").document_id
        ws.add_span(doc_id, 11, 28, Category.ORGANIZATION, "COMPANY", reviewer="tester")
        ws.set_status(doc_id, DocStatus.REVIEWED)
        summary = ExportJob(ws, [doc_id], ExportOptions(tmp_path / "out"), Provider()).run()
    (written,) = (tmp_path / "out").glob("*.deid.txt")
    assert_gone(written.name, "Pacific")
    report = json.loads((tmp_path / "out" / "deid_report.json").read_text(encoding="utf-8"))
    assert [f["output"] for f in report["files"]] == [str(written)]
    assert "Pacific" not in json.dumps(report) and "Pacific" not in summary.text()


@pytest.mark.parametrize("name", ["discharge_summary.docx", "GP_letter.txt", "referral.pdf", "clinic_letter_v2.txt",
                                  "Discharge Summary (2).pdf", "ED_notes.docx"])
def test_ordinary_names_stay_readable(rules, name):
    assert str(namer(rules, "tag").relative(PurePath(name), ["p1"])) == name
    assert withheld_name(name, rules) == name


def test_a_name_after_the_last_dot_is_not_kept_as_a_suffix(rules):
    out = namer(rules).relative(PurePath("notes") / "Margaret.Okafor", ["p1", "p1"])
    assert_gone(str(out), "Okafor", "Margaret")
    assert withheld_name("Margaret.Okafor", rules) == "[NAME]"


@pytest.mark.parametrize("name", ["Okafor_Margaret_MRN44172290.txt", "Margaret Okafor 44172290.pdf",
                                  "okafor margaret.docx", "Fifita_Tevita_letter.docx"])
def test_messages_name_a_file_without_its_phi(rules, name):
    shown = withheld_name(name, rules)
    assert_gone(shown, "Okafor", "Margaret", "44172290", "Fifita", "Tevita")
    assert shown.endswith(PurePath(name).suffix) and "[" in shown


def test_a_document_word_that_is_the_patients_name_is_replaced_too(rules):
    """"Page" names a kind of thing and stays in "page_2"; in "Will_Page_letter", where the
    document says the patient is Will Page, it is his surname."""
    body = "Patient: Will Page, seen at Wellington Clinic."
    spans = [_span(body, "Will Page", Category.NAME, "PATIENT"), _span(body, "Wellington Clinic", Category.ORGANIZATION, "HOSPITAL")]
    phi = phi_words(body, spans)
    out = namer(rules).file_stem("Will_Page_letter", "p1", phi)
    assert_gone(out, "will", "page")
    assert out.endswith("_letter")
    assert namer(rules).file_stem("clinic_letter", "p1", phi) == "clinic_letter"  # the kind of place, not its name
    assert namer(rules).file_stem("page_2", "p1") == "page_2"
