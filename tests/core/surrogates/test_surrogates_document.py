"""Surrogates of a whole note: what the document tells each of its values.

Initials follow the names they stand for, one number keeps one surrogate whatever its label,
places come from the note's country and stay apart, times and dates stay valid, and national
numbers come from the ranges reserved for testing. All through ``engine.replacements``.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from datetime import date
from pathlib import Path

import pytest

from deid_desktop.core.categories import Category
from deid_desktop.core.checkdigits import nhi_valid, nhs_valid
from deid_desktop.core.documents.model import apply_replacements
from deid_desktop.core.spans import Span
from deid_desktop.core.surrogates import SurrogateEngine
from deid_desktop.core.surrogates.resources import words

SECRET = bytes(range(32))
ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def engine() -> SurrogateEngine:
    return SurrogateEngine(SECRET)


def spans_of(text: str, marked: list[tuple[str, Category, str]]) -> list[Span]:
    """Spans for the given values, each the next occurrence after the previous one."""
    spans, pos = [], 0
    for value, category, fine in marked:
        start = text.index(value, pos)
        spans.append(Span(start, start + len(value), category, fine))
        pos = start + len(value)
    return spans


def replaced(engine: SurrogateEngine, text: str, marked, subject: str = "patient-1", **kw) -> dict[str, str]:
    """Original -> surrogate for every marked value of the note."""
    spans = spans_of(text, marked)
    reps = engine.replacements(text, spans, subject=subject, **kw)
    return {text[r.start : r.end]: r.new_text for r in reps}


def initials(name: str) -> str:
    return "".join(w[0] for w in name.split())


# ------------------------------------------------------------------------------ initials


def test_initials_follow_the_surrogate_of_the_name_they_stand_for(engine):
    note = (
        "Tevita Fifita attended with his daughter. Plan discussed with TF, who agrees.\n"
        "Signed T.F. on the consent form; nurse note: tf ate well."
    )
    out = replaced(engine, note, [
        ("Tevita Fifita", Category.NAME, "PATIENT"),
        ("TF", Category.NAME, "PATIENT"),
        ("T.F.", Category.NAME, "PATIENT"),
        ("tf", Category.NAME, "PATIENT"),
    ])
    surrogate = initials(out["Tevita Fifita"]).upper()
    assert surrogate != "TF"
    assert out["TF"] == surrogate
    assert out["T.F."] == f"{surrogate[0]}.{surrogate[1]}."
    assert out["tf"] == surrogate.lower()


def test_initials_of_a_reversed_name_and_an_initial_before_a_surname(engine):
    note = "FIFITA, Tevita (NHI below). Reviewed by T. Fifita's GP. TF to return."
    out = replaced(engine, note, [
        ("FIFITA, Tevita", Category.NAME, "PATIENT"),
        ("T. Fifita", Category.NAME, "PATIENT"),
        ("TF", Category.NAME, "PATIENT"),
    ])
    last, first = out["FIFITA, Tevita"].split(", ")
    assert out["TF"] == (first[0] + last[0]).upper()
    assert out["T. Fifita"].startswith(f"{first[0]}. ")


def test_initials_of_no_name_in_the_note_are_still_replaced(engine):
    note = "Seen by Dr Hemi Walker. Handover to JK at 5pm."
    out = replaced(engine, note, [("Hemi Walker", Category.NAME, "DOCTOR"), ("JK", Category.NAME, "OTHER")])
    assert re.fullmatch(r"[A-Z]{2}", out["JK"]) and out["JK"][0] != "J" and out["JK"][1] != "K"


# --------------------------------------------------------------------------- digit strings


def test_one_number_labelled_contact_in_one_letter_and_id_in_another_gets_one_surrogate(engine):
    letter_1 = "Please call the patient's mobile on 021 555 1234 after discharge."
    letter_2 = "Client ref 0215551234 (as given on the referral form)."
    a = replaced(engine, letter_1, [("021 555 1234", Category.CONTACT, "PHONE")])
    b = replaced(engine, letter_2, [("0215551234", Category.ID, "OTHER")])
    first, second = a["021 555 1234"], b["0215551234"]
    assert re.fullmatch(r"\d{3} \d{3} \d{4}", first) and re.fullmatch(r"\d{10}", second)  # layouts kept
    assert first.replace(" ", "") == second != "0215551234"
    assert first.startswith("021")  # still a New Zealand mobile number


# ------------------------------------------------------------------------------- country

NOTES = {
    # An unknown town in each, a postcode, a phone number and the national health number.
    "UK": (
        "Mrs Ann Lowe, 4 Chapel Row, Otley, LS21 3AB. Tel 07700 900123. NHS No: 943 476 5919.",
        [("Otley", "CITY"), ("LS21 3AB", "ZIP")],
        ("07700 900123", "07"),
    ),
    "NZ": (
        "Mr Hemi Walker, 12 Kowhai Street, Otorohanga 3900. Ph 027 555 0199. NHI ZAC5361.",
        [("Otorohanga", "CITY"), ("3900", "ZIP")],
        ("027 555 0199", "027"),
    ),
    "AU": (
        "Ms Jo Tran, 7 Wattle Court, Yackandandah VIC 3749. Mobile 0412 345 678.",
        [("Yackandandah", "CITY"), ("3749", "ZIP")],
        ("0412 345 678", "04"),
    ),
}


@pytest.mark.parametrize("country", sorted(NOTES))
def test_a_note_gets_towns_postcodes_and_phones_of_its_own_country(engine, country):
    note, places, (phone, prefix) = NOTES[country]
    marked = [(v, Category.LOCATION, fine) for v, fine in places] + [(phone, Category.CONTACT, "PHONE")]
    marked.sort(key=lambda m: note.index(m[0]))
    out = replaced(engine, note, marked)
    town = places[0][0]
    assert out[town] in words("places", f"{country}.cities")
    code = out[places[1][0]]
    if country == "UK":
        assert re.fullmatch(r"[A-Z]{1,2}\d[A-Z\d]? \d[A-Z]{2}", code)
    else:
        assert re.fullmatch(r"\d{4}", code)
    assert out[phone].startswith(prefix) and len(out[phone]) == len(phone)


def test_an_explicit_country_wins_over_the_guess(engine):
    note = "Lives in Waipukurau with her son."
    out = replaced(engine, note, [("Waipukurau", Category.LOCATION, "CITY")], country="NZ")
    assert out["Waipukurau"] in words("places", "NZ.cities")


# -------------------------------------------------------------------------- distinctness


def test_two_different_places_of_one_note_get_different_surrogates(engine):
    note = "Moved from Otley to Dewsbury last spring; still visits Otley weekly."
    marked = [("Otley", Category.LOCATION, "CITY"), ("Dewsbury", Category.LOCATION, "CITY"),
              ("Otley", Category.LOCATION, "CITY")]
    spans = spans_of(note, marked)
    reps = engine.replacements(note, spans, subject="patient-1")
    new = [r.new_text for r in reps]
    assert new[0] != new[1]
    assert new[0] == new[2]  # the same town stays the same town


def test_many_places_of_one_note_are_all_different_and_none_is_an_original(engine):
    towns = ["Otley", "Ilkley", "Skipton", "Settle", "Masham", "Bedale", "Thirsk", "Selby", "Tadcaster",
             "Wetherby", "Pudsey", "Morley", "Batley", "Dewsbury", "Keighley", "Bingley", "Leeds", "York"]
    note = "Clinics held in " + ", ".join(towns) + "."
    marked = [(t, Category.LOCATION, "CITY") for t in towns]
    out = replaced(engine, note, marked)
    assert len(set(out.values())) == len(towns)
    assert not set(out.values()) & set(towns)


def test_who_yields_does_not_depend_on_the_order_of_the_note_or_the_process(engine):
    a = "Moved from Otley to Dewsbury."
    b = "Moved from Dewsbury to Otley."
    marked_a = [("Otley", Category.LOCATION, "CITY"), ("Dewsbury", Category.LOCATION, "CITY")]
    marked_b = list(reversed(marked_a))
    assert replaced(engine, a, marked_a) == replaced(engine, b, marked_b)
    code = (
        "import json\n"
        "from deid_desktop.core.categories import Category\n"
        "from deid_desktop.core.spans import Span\n"
        "from deid_desktop.core.surrogates import SurrogateEngine\n"
        f"text = {b!r}\n"
        "spans = [Span(text.index(t), text.index(t) + len(t), Category.LOCATION, 'CITY') for t in ('Dewsbury', 'Otley')]\n"
        "reps = SurrogateEngine(bytes(range(32))).replacements(text, spans, subject='patient-1')\n"
        "print(json.dumps({text[r.start:r.end]: r.new_text for r in reps}))\n"
    )
    env = dict(os.environ, PYTHONHASHSEED="123")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT, check=True)
    assert json.loads(run.stdout) == replaced(engine, a, marked_a)


# ----------------------------------------------------------------------- dates and times


def test_a_time_labelled_as_a_date_stays_a_valid_time(engine):
    note = "Arrived 10:47, seen 1130hrs, discharged 9.05 pm."
    out = replaced(engine, note, [("10:47", Category.DATE, "OTHER"), ("1130hrs", Category.DATE, "OTHER"),
                                  ("9.05 pm", Category.DATE, "OTHER")])
    h, m = map(int, out["10:47"].split(":"))
    assert 0 <= h <= 23 and 0 <= m <= 59 and out["10:47"] != "10:47"
    hhmm = re.fullmatch(r"(\d{2})(\d{2})hrs", out["1130hrs"])
    assert hhmm and int(hhmm.group(1)) <= 23 and int(hhmm.group(2)) <= 59
    twelve = re.fullmatch(r"(\d{1,2})\.(\d{2}) [ap]m", out["9.05 pm"])
    assert twelve and 1 <= int(twelve.group(1)) <= 12 and int(twelve.group(2)) <= 59


def read_dmy(text: str) -> date:
    d, m, y = map(int, text.split("/"))
    return date(y, m, d)  # raises ValueError for an impossible date


def test_leap_days_shift_to_valid_dates_and_keep_their_interval(engine):
    note = "Admitted 29/02/2024. Inpatient 29/02/2024-01/03/2024, then home."
    out = replaced(engine, note, [("29/02/2024", Category.DATE, "OTHER"),
                                  ("29/02/2024-01/03/2024", Category.DATE, "OTHER")])
    shifted = read_dmy(out["29/02/2024"])
    start, end = (read_dmy(p) for p in out["29/02/2024-01/03/2024"].split("-"))
    assert start == shifted and (end - start).days == 1
    assert shifted != date(2024, 2, 29)


# -------------------------------------------------------------------- national numbers


def test_national_numbers_come_from_the_ranges_reserved_for_testing(engine):
    note = "NHS No: 943 476 5919. Previously NZ resident, NHI ZAC5361 (old) and ABC12DS."
    out = replaced(engine, note, [("943 476 5919", Category.ID, "HEALTHPLAN"), ("ZAC5361", Category.ID, "MRN"),
                                  ("ABC12DS", Category.ID, "MRN")])
    nhs = out["943 476 5919"]
    assert re.fullmatch(r"999 \d{3} \d{4}", nhs) and nhs_valid(nhs)
    for original in ("ZAC5361", "ABC12DS"):
        nhi = out[original]
        assert re.fullmatch(r"Z[A-HJ-NP-Z]{2}\d{2}[A-HJ-NP-Z]{2}", nhi) and nhi_valid(nhi) and nhi != original


def test_the_rewritten_note_reads_as_one_consistent_note(engine):
    note = "Tevita Fifita (TF), Otahuhu. Ph 021 555 1234; NHI ZAC5361. Seen 10:47 on 29/02/2024."
    marked = [("Tevita Fifita", Category.NAME, "PATIENT"), ("TF", Category.NAME, "PATIENT"),
              ("Otahuhu", Category.LOCATION, "CITY"), ("021 555 1234", Category.CONTACT, "PHONE"),
              ("ZAC5361", Category.ID, "MRN"), ("10:47", Category.DATE, "OTHER"),
              ("29/02/2024", Category.DATE, "OTHER")]
    spans = spans_of(note, marked)
    text = apply_replacements(note, engine.replacements(note, spans, subject="patient-1"))
    for original, _, _ in marked:
        assert original not in text


KOREAN_STAFF = ["Taeyang", "Sungho", "Hyunwoo", "Kyungsoo", "Jihoon", "Minjun", "Dongwook", "Seojun"]


@pytest.mark.parametrize("seed", range(12))
def test_no_name_is_replaced_by_another_persons_real_name_from_the_same_letter(seed):
    """A telephone message names a patient, a receptionist and doctors whose first names
    come from one small pool of names; the surrogate of one of them must never be another
    of the letter's own names, or the export carries a real person's name where the patient
    stood (and the replaced-value check flags the letter for nothing a reviewer can fix)."""
    text = "\n".join(f"Note {i}: {who} called re bloods." for i, who in enumerate(KOREAN_STAFF)) + "\n"
    spans = spans_of(text, [(who, Category.NAME, "OTHER") for who in KOREAN_STAFF])
    engine = SurrogateEngine(bytes([seed]) * 32)
    reps = engine.replacements(text, spans, subject="s1")
    written = {r.new_text.casefold() for r in reps}
    assert not written & {w.casefold() for w in KOREAN_STAFF}
    # the same word keeps its surrogate within the letter
    again = engine.replacements(text + "Taeyang again.\n", [*spans, Span(len(text), len(text) + 7, Category.NAME)], subject="s1")
    assert again[-1].new_text == again[0].new_text


def test_a_document_naming_every_name_of_the_pools_still_gets_surrogates(engine):
    """A huge text of many notes run together can hold every name the surrogate pools
    offer, so no surrogate is free of the document's own words; that failed the whole
    4 MB file with an internal error (LookupError) after five minutes of detection.
    The names are still replaced, each consistently."""
    from deid_desktop.core.surrogates.name_pools import token_info
    from deid_desktop.core.surrogates.names import _candidate_pools

    names = sorted({c.name for pool in _candidate_pools(token_info("Smith")) for c in pool})
    assert "Smith" in names
    text = "".join(f"Seen by Dr {n}.\n" for n in names)
    spans = spans_of(text, [(n, Category.NAME, "DOCTOR") for n in names])
    reps = engine.replacements(text, spans, subject="s1")
    assert len(reps) == len(names)
    by_original = {text[r.start : r.end]: r.new_text for r in reps}
    assert by_original["Smith"] and by_original["Smith"] != "Smith"
    again = engine.replacements(text + "Smith again.\n", [*spans, Span(len(text), len(text) + 5, Category.NAME, "DOCTOR")], subject="s1")
    assert again[-1].new_text == by_original["Smith"]


@pytest.mark.parametrize(
    "value, fine",
    [
        ("P 03 6382 1190   E reception@quandonglaneeyecare.com.au", "PHONE"),
        ("reception@quandonglaneeyecare.com.au ph 03 6382 1190", "EMAIL"),
        ("Ph 021 555 1234 or www.kurrajongclinic.com.au/book", "PHONE"),
        ("03 6382 1190 / fax 03 6382 1191 / quandong.eye@bigpond.com", "OTHER"),
    ],
)
def test_a_contact_value_holding_a_phone_and_an_address_has_both_replaced(engine, value, fine):
    """A model marked a letterhead's phone and e-mail as one span; the phone generator
    changed the digits and wrote the clinic's e-mail address out as it stood (and the
    e-mail generator, given such a span, kept the phone number). Each detail is replaced,
    each as it would be alone, and the words between stay."""
    text = f"Quandong Lane Eye Care\n{value}\n"
    start = text.index(value)
    new = engine.replacements(text, [Span(start, start + len(value), Category.CONTACT, fine)], subject="s1")[0].new_text
    for detail in re.findall(r"[\w.]+@[\w.]+|www\.\S+|\d[\d ]{7,}\d", value):
        assert detail not in new
        alone = engine.replacements(detail, [Span(0, len(detail), Category.CONTACT, "OTHER")], subject="s1")[0].new_text
        assert alone in new
    assert [w for w in ("P", "E", "ph", "or", "fax") if f" {w} " in f" {value} "] == [w for w in ("P", "E", "ph", "or", "fax") if f" {w} " in f" {new} "]


def test_an_organisations_surrogate_is_never_another_organisation_of_the_same_letter(engine):
    """A pharmacy's surrogate came out as the church the patient volunteers at, named in the
    same letter ("Scripts from St Columba's"): the redraw that should have told them apart
    drew the same phrase again."""
    alone = "Scripts from Nordrift Chemist."
    first = engine.replacements(alone, spans_of(alone, [("Nordrift Chemist", Category.ORGANIZATION, "HOSPITAL")]), subject="s1")[0].new_text
    text = f"Scripts from Nordrift Chemist. Volunteers at {first} op shop."
    reps = engine.replacements(
        text, spans_of(text, [("Nordrift Chemist", Category.ORGANIZATION, "HOSPITAL"), (first, Category.ORGANIZATION, "OTHER")]), subject="s1"
    )
    assert reps[0].new_text != first and reps[0].new_text != "Nordrift Chemist"
    again = engine.replacements(alone, spans_of(alone, [("Nordrift Chemist", Category.ORGANIZATION, "HOSPITAL")]), subject="s1")[0].new_text
    assert again == first  # alone, it keeps its surrogate
