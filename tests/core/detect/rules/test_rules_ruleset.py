"""RuleSet: the rule detectors run as one ensemble member, with the guard, the inclusion
list, overlap merging and word snapping; and the shipped dictionaries behind them."""

from __future__ import annotations

import importlib.util

import pytest

from deid_desktop.core.categories import Category
from deid_desktop.core.detect.base import DETECTORS
from deid_desktop.core.detect.guards import ClinicalTermGuard
from deid_desktop.core.detect.inclusion import InclusionList
from deid_desktop.core.detect.lexicons import first_names, places, resources_dir, surnames
from deid_desktop.core.detect.rules import RuleSet, default_rule_names
from deid_desktop.core.detect.rules.common import ocr_digits, ocr_misreads

NOTE = """DISCHARGE SUMMARY
Patient: John Smith   MRN: 12345678   NHI: ZAC5361   DOB: 03/14/1950
Address: 12 Rosewood Avenue, Ponsonby, Auckland 1011. Phone: 021 123 4567. Email: john.smith@example.co.nz
Mr Smith is a 94-year-old retired plumber admitted to Auckland City Hospital on 14 March 2021.
Known Parkinson's disease. GCS 15 (Glasgow Coma Scale). Braden score 18. Foley catheter inserted.
Medications: metformin 500 mg bd, 1/2 tab aspirin. BP 120/80. Hb 13.2, K+ 4.1. ICD I21.4.
No known drug allergies.
His daughter Aroha visited; spoke w/ dtr aroha re plan. Will review in clinic. May need bloods.
Yours sincerely,

Dr Anna Kowalski, MBChB FRACP
cc: Dr Hemi Walker, Ponsonby Medical Centre
"""

EXPECTED = {
    ("John Smith", "NAME", "PATIENT"),
    ("12345678", "ID", "MRN"),
    ("ZAC5361", "ID", "MRN"),
    ("03/14/1950", "DATE", "OTHER"),
    ("12 Rosewood Avenue", "LOCATION", "STREET"),
    ("Ponsonby", "LOCATION", "CITY"),
    ("Auckland", "LOCATION", "CITY"),
    ("1011", "LOCATION", "ZIP"),
    ("021 123 4567", "CONTACT", "PHONE"),
    ("john.smith@example.co.nz", "CONTACT", "EMAIL"),
    ("Smith", "NAME", "PATIENT"),
    ("94", "AGE", "OTHER"),
    ("plumber", "PROFESSION", "OTHER"),
    ("Auckland City Hospital", "ORGANIZATION", "HOSPITAL"),
    ("14 March 2021", "DATE", "OTHER"),
    ("Aroha", "NAME", "RELATIVE"),
    ("aroha", "NAME", "RELATIVE"),
    ("Anna Kowalski", "NAME", "DOCTOR"),
    ("Hemi Walker", "NAME", "DOCTOR"),
    ("Ponsonby Medical Centre", "ORGANIZATION", "HOSPITAL"),
}


@pytest.fixture(scope="module")
def rules() -> RuleSet:
    return RuleSet()


def found(rules: RuleSet, text: str) -> set[tuple[str, str, str]]:
    return {(text[s.start : s.end], s.category.value, s.fine) for s in rules.detect(text)}


def test_every_rule_detector_is_registered_by_importing_the_package():
    assert DETECTORS["rules"] is RuleSet
    assert len(default_rule_names()) == len(set(default_rule_names())) >= 20
    for name in default_rule_names():
        assert DETECTORS[name].name == name


@pytest.mark.parametrize("name", default_rule_names())
def test_each_detector_reports_valid_spans_on_a_real_note(name):
    for s in DETECTORS[name]().detect(NOTE):
        assert s.source == name
        assert 0 <= s.start < s.end <= len(NOTE)
        assert 0.0 <= s.score <= 1.0
        assert NOTE[s.start : s.end].strip() == NOTE[s.start : s.end]


def test_a_discharge_summary(rules):
    spans = rules.detect(NOTE)
    assert {(NOTE[s.start : s.end], s.category.value, s.fine) for s in spans} == EXPECTED
    assert all(s.source == "rules" for s in spans)
    assert spans == sorted(spans, key=lambda s: s.start)
    assert all(a.end <= b.start for a, b in zip(spans, spans[1:]))
    age = next(s for s in spans if s.category is Category.AGE)
    assert age.score == 1.0


HARD_NEGATIVES = """Known Parkinson's disease, on levodopa and Sinemet.
GCS 15 (Glasgow Coma Scale 15/15). Braden score 18, Waterlow 10. Apgar 9 at 5 minutes.
Foley catheter inserted; 14F Foley. Hodgkin lymphoma in remission. Cushing's syndrome excluded.
Down syndrome with AVSD. Von Hippel-Lindau disease. Bell's palsy. Crohn's disease. Graves' disease.
Hashimoto's thyroiditis. Barrett's oesophagus. Kaposi sarcoma. Gleason 3+4=7. Wells score 4.
Murphy's sign positive. Babinski negative. Romberg positive. Whipple procedure. Denver shunt.
Swan-Ganz catheter. Holter monitor. Wilms tumour. Alzheimer's dementia. Addison's disease.
Metformin 500 mg bd, paracetamol 1 g qds, 1/2 tab aspirin, Augmentin 625 mg tds, Lasix 40 mg mane.
BP 120/80, HR 72, RR 16, SpO2 98% on RA. Hb 13.2, K+ 4.1, Na 140, INR 1.1. ICD-10 I21.4.
Software v1.2.3. Power 5/5 in all limbs. Symptoms for 3/12, review in 2/52. Stopped 5 years ago.
Will review tomorrow. May need repeat bloods. Mark the site. Grace period. Hope to discharge soon.
Rose by 2 points. Frank haematuria. Young adult. White cell count raised. Page the registrar.
The patient will be seen in the Diabetes Clinic. Mental Health team involved. Seen at 14:30.
FHx: mother Parkinson's disease, father Alzheimer's disease, sister Crohn's disease.
"""


def test_hard_negatives_give_nothing(rules):
    assert found(rules, HARD_NEGATIVES) == set()


def test_the_guard_is_what_keeps_eponyms_out():
    text = "FHx: mother Parkinson's disease, father Alzheimer's disease."
    unguarded = RuleSet(guard=ClinicalTermGuard([]))
    assert {t for t, _, _ in found(unguarded, text)} >= {"Parkinson's", "Alzheimer's"}
    assert found(RuleSet(), text) == set()


def test_sentences_on_the_inclusion_list_are_skipped():
    text = "Discussed with Dr Smith. Reviewed by Dr Jones."
    listed = RuleSet(inclusion=InclusionList(["Discussed with Dr Smith."]))
    assert found(listed, text) == {("Jones", "NAME", "DOCTOR")}
    assert found(RuleSet(inclusion=InclusionList()), text) == {("Smith", "NAME", "DOCTOR"), ("Jones", "NAME", "DOCTOR")}


def test_overlapping_finds_merge_and_boundaries_snap_to_words(rules):
    text = "NHS number 943 476 5919. A woman in her late 80s. 45F with cough."
    spans = rules.detect(text)
    assert [(text[s.start : s.end], s.category.value) for s in spans] == [
        ("943 476 5919", "ID"), ("80s", "AGE"), ("45F", "AGE"),
    ]
    assert spans[0].score == 1.0  # the labelled, checksum-valid reading wins


def test_a_chosen_subset_runs_only_those_rules():
    text = "Dr Smith saw her on 14 March 2021."
    assert found(RuleSet(["date"]), text) == {("14 March 2021", "DATE", "OTHER")}
    with pytest.raises(ValueError, match="unknown rule detector"):
        RuleSet(["date", "no_such_rule"])
    with pytest.raises(ValueError):
        RuleSet(["rules"])


def test_shipped_dictionaries_are_small_and_cover_the_regions():
    folder = resources_dir() / "dictionaries"
    assert sum(p.stat().st_size for p in folder.iterdir()) < 4_000_000
    firsts, lasts, known = first_names(), surnames(), places()
    for name, gender in (("aroha", "F"), ("wiremu", "M"), ("sione", "M"), ("fatima", "F"), ("kwame", "M")):
        assert firsts[name] == gender
    for name in ("ngata", "tuilagi", "haddad", "mensah", "zhang", "kim", "tanaka", "kowalski", "smith"):
        assert name in lasts
    for name, kind in (("auckland", "city"), ("christchurch", "city"), ("parramatta", "city"),
                       ("manchester", "city"), ("new south wales", "state"), ("samoa", "country")):
        assert known[name] == kind


def test_the_build_script_regenerates_the_faker_lists():
    spec = importlib.util.spec_from_file_location("build_dictionaries", resources_dir() / "dictionaries" / "build_dictionaries.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    first, last = module.build_names()
    shipped = (resources_dir() / "dictionaries" / "faker_first_names.csv").read_text(encoding="utf-8").splitlines()[1:]
    assert sorted(first.values()) == sorted(shipped)
    assert len(last) == len((resources_dir() / "dictionaries" / "faker_surnames.txt").read_text(encoding="utf-8").splitlines())


@pytest.mark.parametrize(
    "text, value, category",
    [
        ("RE: PT BRAYDEN  D0B O3/11/2O14\n", "O3/11/2O14", Category.DATE),  # O for 0, as a fax is read
        ("DATE: 1O/22/2O25   PAGES: 4", "1O/22/2O25", Category.DATE),
        ("Mobile: 021 555 12l4 (after 5)", "021 555 12l4", Category.CONTACT),
    ],
)
def test_digits_a_scan_read_as_letters_are_still_found(text, value, category):
    found = {(text[s.start : s.end], s.category) for s in RuleSet().detect(text)}
    assert (value, category) in found


def test_letters_beside_digits_that_are_letters_are_left_alone():
    text = "O2 at 10l/min via NP, K0WALCZYK seen in Ward lO. GMC O9248072, Hosp No I60571, ICD-10 I48.0"
    assert ocr_digits(text) == text and ocr_misreads(text) == []


def test_a_misread_date_far_into_a_long_text_is_found_where_it_stands():
    text = "Seen in clinic, settled. " * 400 + "D0B O3/11/2O14 per the fax. " + "Plan unchanged. " * 400
    value = "O3/11/2O14"
    found = [(s.start, s.end) for s in RuleSet().detect(text) if s.category is Category.DATE]
    assert (text.index(value), text.index(value) + len(value)) in found
