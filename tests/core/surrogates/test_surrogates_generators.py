"""Fresh values for the synthetic corpus: every category and fine type, every locale."""

from __future__ import annotations

import random
import re

import pytest

from deid_desktop.core.categories import FINE_TYPES, Category
from deid_desktop.core.checkdigits import medicare_valid, nhi_valid, nhs_valid
from deid_desktop.core.surrogates import NAME_ORIGINS, sample_name, sample_value
from deid_desktop.core.surrogates.name_pools import origin_pool
from deid_desktop.core.surrogates.places import country_places

LOCALES = [None, "US", "UK", "AU", "NZ"]
ALL_KINDS = [(c, f) for c, fines in FINE_TYPES.items() for f in fines]


@pytest.mark.parametrize("category, fine", ALL_KINDS)
def test_every_kind_gives_non_empty_values_in_every_locale(category, fine):
    rng = random.Random(11)
    values = {sample_value(category, fine, rng, locale=loc) for loc in LOCALES for _ in range(8)}
    assert all(v.strip() == v and v for v in values)
    assert len(values) > 10  # values vary


def test_the_same_seed_gives_the_same_values():
    a = [sample_value(c, f, random.Random(5), locale="NZ") for c, f in ALL_KINDS]
    b = [sample_value(c, f, random.Random(5), locale="NZ") for c, f in ALL_KINDS]
    assert a == b


def test_national_health_numbers_are_check_digit_valid():
    rng = random.Random(3)
    for _ in range(60):
        assert nhs_valid(sample_value(Category.ID, "HEALTHPLAN", rng, locale="UK"))
        assert medicare_valid(sample_value(Category.ID, "HEALTHPLAN", rng, locale="AU"))
        assert nhi_valid(sample_value(Category.ID, "MRN", rng, locale="NZ"))
        assert re.fullmatch(r"\d{3}[- ]?\d{2}[- ]?\d{4}", sample_value(Category.ID, "SSN", rng, locale="US"))


def test_locale_shapes_dates_phones_and_postcodes():
    rng = random.Random(9)
    for _ in range(40):
        assert re.fullmatch(r"\d{5}(-\d{4})?", sample_value(Category.LOCATION, "ZIP", rng, locale="US"))
        assert re.fullmatch(r"[A-Z]{1,2}\d[A-Z\d]? \d[A-Z]{2}", sample_value(Category.LOCATION, "ZIP", rng, locale="UK"))
        assert re.fullmatch(r"\d{4}", sample_value(Category.LOCATION, "ZIP", rng, locale="NZ"))
        nz_phone = sample_value(Category.CONTACT, "PHONE", rng, locale="NZ")
        assert nz_phone.startswith(("0", "(0", "+64"))
        us_date = sample_value(Category.DATE, "OTHER", rng, locale="US")
        m = re.fullmatch(r"(\d{1,2})/(\d{1,2})/\d{2,4}", us_date)
        assert m is None or int(m.group(1)) <= 12  # month first


def test_training_samples_mix_listed_and_invented_places_organisations_and_jobs():
    """Half of what the corpus generator draws is invented, so a model cannot learn the
    lists by heart; invented values still look like the kind they stand for."""
    rng = random.Random(11)
    cities = [sample_value(Category.LOCATION, "CITY", rng, locale="AU") for _ in range(300)]
    listed = sum(c in country_places("AU").cities for c in cities)
    assert 90 < listed < 210 and len(set(cities)) > 150
    assert all(c[:1].isupper() and not any(ch.isdigit() for ch in c) for c in cities)
    streets = [sample_value(Category.LOCATION, "STREET", rng, locale="NZ") for _ in range(200)]
    assert all(re.fullmatch(r"PO Box \d+", s) or re.match(r"(?:Flat \d+, |\d+/)?\d+[A-C]? \S", s) for s in streets)
    assert len(set(s.split(" ", 1)[1] for s in streets)) > 120
    hospitals = [sample_value(Category.ORGANIZATION, "HOSPITAL", rng, locale="UK") for _ in range(200)]
    assert len(set(hospitals)) > 180
    jobs = {sample_value(Category.PROFESSION, "OTHER", rng) for _ in range(300)}
    assert len(jobs) > 120 and all(j and j == j.strip() for j in jobs)


def test_surrogates_for_real_values_never_use_invented_jobs():
    """Invented jobs are for training text: a surrogate must be a common job."""
    from deid_desktop.core.surrogates.resources import words

    from deid_desktop.core.surrogates import SurrogateEngine

    common = set(words("professions", "professions"))
    engine = SurrogateEngine(b"k" * 32)
    for job in ("freezing worker", "boat deckhand", "teacher", "night-fill supervisor"):
        assert engine.surrogate(job, Category.PROFESSION, subject="subject-1") in common


def test_sample_name_respects_origin_and_gender():
    rng = random.Random(4)
    for origin in NAME_ORIGINS:
        pool = origin_pool(origin)
        for gender in ("F", "M"):
            first, last, g = sample_name(rng, origin=origin, gender=gender)
            assert g == gender
            assert first in (pool.female if gender == "F" else pool.male) or not pool.first(gender)
            assert last in pool.last or not pool.last


def test_sample_name_without_origin_draws_from_many_origins():
    rng = random.Random(8)
    firsts = {sample_name(rng)[0] for _ in range(200)}
    origins = {o for o in NAME_ORIGINS for f in firsts if f in origin_pool(o).first(None)}
    assert len(origins) >= 10


def test_gender_is_applied_to_person_names():
    rng = random.Random(12)
    female_or_last = {n.casefold() for o in NAME_ORIGINS for n in origin_pool(o).female + origin_pool(o).last}
    for _ in range(40):
        value = sample_value(Category.NAME, "PATIENT", rng, locale="NZ", gender="F")
        for token in re.findall(r"[^\W\d_]{2,}", value):
            assert token.casefold() in female_or_last, value


def test_bad_locale_and_gender_are_refused():
    with pytest.raises(ValueError):
        sample_value(Category.NAME, "PATIENT", random.Random(1), locale="FR")
    with pytest.raises(ValueError):
        sample_name(random.Random(1), gender="x")
    with pytest.raises(ValueError):
        sample_name(random.Random(1), origin="martian")
