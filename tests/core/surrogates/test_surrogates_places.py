"""Locations, organisations and professions: replaced by their own kind."""

from __future__ import annotations

import re

import pytest

from deid_desktop.core.categories import Category
from deid_desktop.core.surrogates import SurrogateEngine, SurrogateOptions
from deid_desktop.core.surrogates.places import countries, country_places
from deid_desktop.core.surrogates.resources import words

SUBJECTS = [f"s{i}" for i in range(8)]


@pytest.fixture(scope="module")
def engine() -> SurrogateEngine:
    return SurrogateEngine(b"places-secret-0123456789abcdef01")


def place(engine, text: str, fine: str = "OTHER", subject: str = "s") -> str:
    return engine.surrogate(text, Category.LOCATION, fine, subject=subject)


def test_streets_keep_number_shape_and_street_type(engine):
    for subject in SUBJECTS:
        out = place(engine, "12 Rosewood Avenue", "STREET", subject)
        m = re.fullmatch(r"(\d{2}) (.+) Avenue", out)
        assert m and m.group(2) != "Rosewood"
        assert m.group(2) in words("places", "streets.single")
        out = place(engine, "Flat 3, 12A Park View Road", subject=subject)
        assert re.fullmatch(r"Flat \d, \d{2}[A-Z] .+ View Road", out) and "Park" not in out


def test_the_same_street_name_is_replaced_alike_whatever_the_number(engine):
    a = place(engine, "12 Rosewood Avenue").split()[1]
    b = place(engine, "407 Rosewood Ave").split()[1]
    assert a == b


def test_a_leading_saint_is_part_of_the_street_name(engine):
    out = place(engine, "St Kilda Road")
    assert out.endswith(" Road") and "Kilda" not in out


def test_towns_are_replaced_by_towns_of_the_same_country(engine):
    for city, country in (("Auckland", "NZ"), ("Springfield", "US"), ("Leeds", "UK"), ("Ballarat", "AU")):
        for subject in SUBJECTS:
            out = place(engine, city, "CITY", subject)
            assert out in country_places(country).cities and out != city
    assert place(engine, "AUCKLAND", "CITY").isupper()


def test_unknown_towns_come_from_the_locale(engine):
    nz = SurrogateEngine(b"places-secret-0123456789abcdef01", SurrogateOptions(locale="NZ"))
    assert nz.surrogate("Zqxville", Category.LOCATION, "CITY", subject="s") in country_places("NZ").cities


def test_states_and_abbreviations(engine):
    for subject in SUBJECTS:
        assert place(engine, "Illinois", subject=subject) in country_places("US").states
        assert place(engine, "IL", subject=subject) in country_places("US").state_abbr
        assert place(engine, "NSW", subject=subject) in country_places("AU").state_abbr
        assert place(engine, "Canterbury", "STATE", subject) in country_places("NZ").states


def test_countries_become_other_countries(engine):
    for subject in SUBJECTS:
        out = place(engine, "France", subject=subject)
        assert out in countries() and out != "France"


def test_postcodes_keep_their_shape(engine):
    for subject in SUBJECTS:
        assert re.fullmatch(r"\d{5}", place(engine, "02139", "ZIP", subject))
        assert re.fullmatch(r"\d{5}-\d{4}", place(engine, "02139-4307", subject=subject))
        uk = place(engine, "SW1A 1AA", subject=subject)
        assert re.fullmatch(r"[A-Z]{2}\d[A-Z\d] \d[A-Z]{2}", uk) and uk != "SW1A 1AA"
        assert re.fullmatch(r"[A-Z]\d \d[A-Z]{2}", place(engine, "M1 1AE", subject=subject))
        assert re.fullmatch(r"\d{4}", place(engine, "1010", subject=subject))


def test_a_whole_address_line_is_replaced_part_by_part(engine):
    for subject in SUBJECTS:
        out = place(engine, "Springfield, IL 62704", subject=subject)
        m = re.fullmatch(r"(.+), ([A-Z]{2}) (\d{5})", out)
        assert m and m.group(1) in country_places("US").cities and m.group(2) in country_places("US").state_abbr
        out = place(engine, "12 Rosewood Avenue\nSpringfield IL 62704", subject=subject)
        line1, line2 = out.split("\n")
        assert re.fullmatch(r"\d{2} .+ Avenue", line1) and re.fullmatch(r".+ [A-Z]{2} \d{5}", line2)
        assert "Rosewood" not in out and "Springfield" not in out


def test_named_places_keep_their_type_words(engine):
    out = place(engine, "Ridgeway Nursing Home")
    assert out.endswith(" Nursing Home") and "Ridgeway" not in out


def org(engine, text: str, fine: str = "OTHER", subject: str = "s") -> str:
    return engine.surrogate(text, Category.ORGANIZATION, fine, subject=subject)


def test_hospitals_become_plausible_hospitals(engine):
    for subject in SUBJECTS:
        out = org(engine, "St Mary's Hospital", "HOSPITAL", subject)
        assert out.endswith(" Hospital") and "Mary" not in out and len(out.split()) >= 2
        out = org(engine, "Veterans Memorial Medical Center", subject=subject)
        assert out.endswith(" Medical Center") and "Veterans" not in out


def test_companies_keep_their_legal_form(engine):
    for subject in SUBJECTS:
        out = org(engine, "Acme Widgets Ltd", "COMPANY", subject)
        assert out.endswith(" Ltd") and "Acme" not in out


def test_acronyms_and_upper_case_organisations(engine):
    out = org(engine, "MGH")
    assert re.fullmatch(r"[A-Z]{3}", out) and out != "MGH"
    out = org(engine, "AUCKLAND CITY HOSPITAL", "HOSPITAL")
    assert out.isupper() and out.endswith(" HOSPITAL") and "AUCKLAND" not in out


def test_an_organisation_of_type_words_only_still_changes(engine):
    out = org(engine, "General Hospital", "HOSPITAL")
    assert out.endswith("General Hospital") and out != "General Hospital"


def test_professions_become_other_professions(engine):
    for subject in SUBJECTS:
        out = engine.surrogate("teacher", Category.PROFESSION, subject=subject)
        assert out in words("professions", "professions") and out != "teacher"
        out = engine.surrogate("retired Builder", Category.PROFESSION, subject=subject)
        assert out.startswith("retired ") and out[8].isupper() and "Builder" not in out
