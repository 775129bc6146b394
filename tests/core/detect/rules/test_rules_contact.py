"""Phone, fax and pager numbers (US, UK, AU, NZ), e-mail, URLs and IP addresses."""

from __future__ import annotations

import pytest

from .rules_helpers import labelled, texts


@pytest.mark.parametrize(
    "number",
    [
        "(555) 123-4567", "555-123-4567", "+1 555 123 4567", "555-123-4567 ext 123", "(555) 123-4567 x 45",
        "020 7946 0958", "07700 900123", "+44 20 7946 0958", "01632 960 001",
        "(02) 9876 5432", "0412 345 678", "+61 2 9876 5432", "1300 123 456",
        "(09) 123 4567", "021 123 4567", "+64 9 123 4567", "0800 123 456", "09 123 4567",
    ],
)
def test_phone_numbers_in_every_format(number):
    text = f"Please call {number} tomorrow."
    assert labelled("phone", text) == [(number, "PHONE")]


def test_fax_and_pager_take_their_type_from_the_nearest_word():
    text = "Tel: 09 123 4567 Fax: 09 765 4321 Pager: 1234 5678"
    assert labelled("phone", text) == [("09 123 4567", "PHONE"), ("09 765 4321", "FAX"), ("1234 5678", "PHONE")]


def test_a_short_local_number_needs_a_phone_word():
    assert texts("phone", "ph 123 4567") == ["123 4567"]
    assert texts("phone", "Platelets 123 4567") == []


@pytest.mark.parametrize(
    "text",
    [
        "Metformin 500 mg bd, 1000 ml saline.",
        "Hb 13.2, K+ 4.1, eGFR 60.",
        "BP 120/80.",
        "Bloods 14.03.2021 and 03-14-2021.",
        "NHS number 943 476 5919.",
        "MRN 0123456789.",
        "Medicare 2123 45670 1.",
        "SSN 123-45-6789.",
    ],
)
def test_doses_lab_values_dates_and_identifiers_are_not_phones(text):
    assert texts("phone", text) == []


def test_a_us_phone_that_passes_the_nhs_check_is_a_phone():
    # 2105550193 passes the NHS number's check digit; written with dashes it is a US phone
    assert labelled("phone", "Please call our office at 210-555-0193 if you") == [("210-555-0193", "PHONE")]
    assert texts("phone", "Ref 210 555 0193 on file") == []  # spaced and unlabelled: as likely an NHS number


def test_email_addresses():
    text = "Email john.smith@example.co.nz, or J_O'Neil+gp@health.govt.nz."
    assert labelled("email", text) == [("john.smith@example.co.nz", "EMAIL"), ("J_O'Neil+gp@health.govt.nz", "EMAIL")]
    assert texts("email", "Contact mere.parata@hospital.org.nz today") == ["mere.parata@hospital.org.nz"]


@pytest.mark.parametrize(
    "text, expected",
    [
        ("See https://example.com/a?b=1.", "https://example.com/a?b=1"),
        ("Portal at www.x.org.", "www.x.org"),
        ("Information at mayoclinic.org.", "mayoclinic.org"),
        ("Go to health.govt.nz/covid for advice.", "health.govt.nz/covid"),
        ("(http://intranet.example.org/p?id=7)", "http://intranet.example.org/p?id=7"),
    ],
)
def test_urls(text, expected):
    assert labelled("url", text) == [(expected, "URL")]


@pytest.mark.parametrize("text", ["e.g. the report.pdf", "i.e. St.John", "john@example.com", "Hb 13.2"])
def test_things_that_are_not_urls(text):
    assert texts("url", text) == []


def test_ip_addresses():
    text = "From 192.168.1.20 and fe80::1ff:fe23:4567:890a, also 2001:db8::1."
    assert labelled("ip_address", text) == [
        ("192.168.1.20", "IPADDR"), ("fe80::1ff:fe23:4567:890a", "IPADDR"), ("2001:db8::1", "IPADDR"),
    ]


@pytest.mark.parametrize("text", ["version 1.2.3.4", "v1.2.3", "octet 10.0.0.256", "at 14:30:00", "14.03.2021"])
def test_versions_times_and_bad_octets_are_not_ip_addresses(text):
    assert texts("ip_address", text) == []


@pytest.mark.parametrize(
    "text, number",
    [
        ("FY1 Dr A reviewed (bleep 2217) at 03:58.", "2217"),
        ("C. Smith RSW  ext 8841", "8841"),
        ("House Officer, pager 238", "238"),
        ("ward desk extn. 4412 after hours", "4412"),
    ],
)
def test_an_internal_number_after_its_label_is_a_contact_that_cannot_be_out_voted(text, number):
    from .rules_helpers import run

    found = [s for s in run("phone", text) if text[s.start : s.end] == number]
    assert found and found[0].validated


def test_numbers_near_but_not_after_an_extension_word_are_not_contacts():
    assert texts("phone", "Extension of the knee to 120 degrees, 2 x 500 mg.") == []
