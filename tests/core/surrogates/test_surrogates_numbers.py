"""Identifiers and contact details keep their shape; national numbers stay check-digit valid."""

from __future__ import annotations

import random
import re

import pytest

from deid_desktop.core.categories import Category
from deid_desktop.core.checkdigits import (
    medicare_check_digit,
    medicare_valid,
    nhi_check_char,
    nhi_valid,
    nhs_check_digit,
    nhs_valid,
)
from deid_desktop.core.surrogates import SurrogateEngine, SurrogateOptions

SUBJECTS = [f"s{i}" for i in range(30)]


@pytest.fixture(scope="module")
def engine() -> SurrogateEngine:
    return SurrogateEngine(b"numbers-secret-0123456789abcdef0")


def shape(text: str) -> str:
    return re.sub(r"[a-z]", "a", re.sub(r"[A-Z]", "A", re.sub(r"\d", "9", text)))


def valid_nhs(rng: random.Random) -> str:
    while True:
        first9 = str(rng.randint(4, 6)) + "".join(str(rng.randint(0, 9)) for _ in range(8))
        try:
            d = first9 + nhs_check_digit(first9)
        except ValueError:
            continue
        return f"{d[:3]} {d[3:6]} {d[6:]}"


def valid_nhi(rng: random.Random, new_format: bool) -> str:
    letters = "ABCDEFGHJKLMNPQRSTUVWXYZ"
    while True:
        head = "".join(rng.choice(letters) for _ in range(3))
        body = f"{rng.randint(0, 99):02d}{rng.choice(letters)}" if new_format else f"{rng.randint(0, 999):03d}"
        try:
            return head + body + nhi_check_char(head + body)
        except ValueError:
            continue


def valid_medicare(rng: random.Random) -> str:
    first8 = str(rng.randint(2, 6)) + "".join(str(rng.randint(0, 9)) for _ in range(7))
    d = first8 + medicare_check_digit(first8) + str(rng.randint(1, 9))
    return f"{d[:4]} {d[4:9]} {d[9]}"


def test_nhs_numbers_get_valid_nhs_surrogates(engine):
    rng = random.Random(1)
    for subject in SUBJECTS:
        original = valid_nhs(rng)
        out = engine.surrogate(original, Category.ID, "HEALTHPLAN", subject=subject)
        assert nhs_valid(out) and out != original and shape(out) == shape(original)
        assert out.startswith("999")  # the range reserved for testing, never issued


@pytest.mark.parametrize("new_format", [False, True])
def test_nhis_get_valid_nhi_surrogates_from_the_test_range(engine, new_format):
    rng = random.Random(2)
    for subject in SUBJECTS:
        original = valid_nhi(rng, new_format)
        out = engine.surrogate(original, Category.ID, "MRN", subject=subject)
        # New format starting with Z: reserved for testing, so no person holds it.
        assert nhi_valid(out) and out != original and re.fullmatch(r"Z[A-Z]{2}\d{2}[A-Z]{2}", out)
        assert "I" not in out and "O" not in out


def test_medicare_numbers_get_valid_medicare_surrogates():
    # An Australian document: some Medicare numbers also pass the NHS check by chance, and
    # with no country known those are read as NHS numbers.
    engine = SurrogateEngine(b"numbers-secret-0123456789abcdef0", SurrogateOptions(locale="AU"))
    rng = random.Random(3)
    for subject in SUBJECTS:
        original = valid_medicare(rng)
        out = engine.surrogate(original, Category.ID, "OTHER", subject=subject)
        assert medicare_valid(out) and out != original and shape(out) == shape(original)


def test_other_identifiers_keep_shape_case_and_punctuation(engine):
    for original in ("4433245", "MRN-00123456", "6TR-435", "SN-4F8K2-93JD", "ab12cd", "D1234567", "3-1272852"):
        for subject in SUBJECTS[:5]:
            out = engine.surrogate(original, Category.ID, subject=subject)
            assert shape(out) == shape(original) and out != original


def test_zero_padded_identifiers_keep_their_padding(engine):
    out = engine.surrogate("0000123", Category.ID, "MRN", subject="s")
    assert out.startswith("0000") and out[4] != "0" and out != "0000123"


def test_ssns_keep_shape_and_issued_ranges(engine):
    for subject in SUBJECTS:
        out = engine.surrogate("123-45-6789", Category.ID, "SSN", subject=subject)
        assert re.fullmatch(r"\d{3}-\d{2}-\d{4}", out)
        area, group, serial = out.split("-")
        assert area not in ("000", "666") and area[0] != "9" and group != "00" and serial != "0000"
    bare = engine.surrogate("123456789", Category.ID, "SSN", subject="s")
    assert re.fullmatch(r"\d{9}", bare) and bare[:3] not in ("000", "666")


@pytest.mark.parametrize(
    "original, kept",
    [
        ("546-123-0543", ""),
        ("(09) 123 4567", "(09) "),
        ("+64 21 123 4567", "+64 2"),
        ("+44 7700 900123", "+44 7"),
        ("07700 900123", "07"),
        ("1-800-555-0199", "1-"),
        ("1-12435", ""),
    ],
)
def test_phone_numbers_keep_layout_and_country_prefix(engine, original, kept):
    for subject in SUBJECTS[:8]:
        out = engine.surrogate(original, Category.CONTACT, "PHONE", subject=subject)
        assert shape(out) == shape(original) and out != original
        assert out.startswith(kept)


def test_ipv4_octets_stay_valid_and_keep_their_width(engine):
    for original in ("127.0.0.1", "192.168.10.254", "10.0.0.255"):
        for subject in SUBJECTS:
            out = engine.surrogate(original, Category.CONTACT, subject=subject)
            octets = out.split(".")
            assert len(octets) == 4 and all(0 <= int(o) <= 255 for o in octets)
            assert [len(o) for o in octets] == [len(o) for o in original.split(".")]
            assert out != original and int(octets[0]) > 0


def test_ipv6_keeps_its_layout(engine):
    original = "2001:db8::ff00:42:8329"
    out = engine.surrogate(original, Category.CONTACT, "IPADDR", subject="s")
    assert re.sub(r"[0-9a-f]", "h", out) == re.sub(r"[0-9a-f]", "h", original) and out != original


def test_email_at_an_institution_gets_an_invented_domain(engine):
    out = engine.surrogate("john.smith@care.com", Category.CONTACT, subject="s")
    local, domain = out.split("@")
    assert re.fullmatch(r"[a-z]+\.[a-z]+", local) and domain.endswith(".com") and domain != "care.com"
    nhs = engine.surrogate("a.jones@stmarys.nhs.uk", Category.CONTACT, subject="s")
    assert nhs.endswith(".nhs.uk") and "stmarys" not in nhs and "jones" not in nhs


def test_same_domain_becomes_the_same_invented_domain_for_a_subject(engine):
    a = engine.surrogate("john.smith@care.com", Category.CONTACT, subject="s").split("@")[1]
    b = engine.surrogate("reception@care.com", Category.CONTACT, subject="s")
    assert b == f"reception@{a}"
    c = engine.surrogate("https://care.com/contact", Category.CONTACT, subject="s")
    assert c == f"https://{a}/contact"


def test_web_addresses_keep_structure(engine):
    out = engine.surrogate("www.mayoclinic.org", Category.CONTACT, subject="s")
    assert out.startswith("www.") and out.endswith(".org") and "mayo" not in out
    out = engine.surrogate("https://www.stmarys.nhs.uk/patients/12345", Category.CONTACT, "URL", subject="s")
    assert re.fullmatch(r"https://www\.[a-z0-9]+\.nhs\.uk/patients/\d{5}", out) and "12345" not in out
