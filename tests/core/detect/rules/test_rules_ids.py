"""SSNs, labelled record numbers, national health identifiers, vehicles and devices."""

from __future__ import annotations

import pytest

from .rules_helpers import labelled, run, texts


def test_ssn_with_dashes_and_plain_with_a_label():
    text = "SSN 123-45-6789; SSN: 123 45 6789; acct 123456789"
    assert labelled("ssn", text) == [("123-45-6789", "SSN"), ("123 45 6789", "SSN")]


@pytest.mark.parametrize(
    "text",
    ["Veteran called. Last 4: 5512. Requests appt", "SSN (last 4) 5512 verified", "ID checked, last four of SSN 5512",
     "SSN: XXX-XX-5512", "social security no. ***-**-5512"],
)
def test_the_last_four_digits_of_an_ssn_are_an_identifier(text):
    spans = run("ssn", text)
    assert [(text[s.start : s.end], s.fine, s.validated) for s in spans] == [("5512", "SSN", True)]


@pytest.mark.parametrize("text", ["Last 4 visits: 2019 onwards", "last 4 weeks 1200 mL/day", "the last 4 1000s"])
def test_other_last_fours_are_no_ssn(text):
    assert texts("ssn", text) == []


@pytest.mark.parametrize("number", ["000-12-3456", "666-12-3456", "912-34-5678", "123-00-4567", "123-45-0000"])
def test_never_issued_ssns_are_not_found(number):
    assert texts("ssn", f"SSN {number}") == []


@pytest.mark.parametrize(
    "text, expected",
    [
        ("MRN: 12345678.", ("12345678", "MRN")),
        ("Hosp No 998877A", ("998877A", "MRN")),
        ("UR number 554433", ("554433", "MRN")),
        ("Acct # 12-3456-789", ("12-3456-789", "ACCOUNT")),
        ("Licence: DL123456", ("DL123456", "LICENSE")),
        ("DEA AB1234563", ("AB1234563", "LICENSE")),
        ("Policy 99887766", ("99887766", "HEALTHPLAN")),
        ("Member ID: XJ4455667", ("XJ4455667", "HEALTHPLAN")),
        ("Medicare No. 2123 45670 1", ("2123 45670 1", "HEALTHPLAN")),
        ("NDIS No: 431 882 907", ("431 882 907", "HEALTHPLAN")),  # Australia's disability scheme
        ("CRN: 204 517 339K", ("204 517 339K", "HEALTHPLAN")),  # Centrelink's, its letter and all
        ("IRN 1      Pension/HCC 412 887 301X", ("412 887 301X", "HEALTHPLAN")),  # a concession card
        ("inmate: DUMITRESCU, C   PNC 19/482937K   cell B2-17", ("19/482937K", "OTHER")),  # a police record
        ("IHI 8003 6012 3456 7890", ("8003 6012 3456 7890", "HEALTHPLAN")),
        ("Author: Dr N Sato, HPI-I 8003 6100 1234 5678", ("8003 6100 1234 5678", "HEALTHPLAN")),  # a provider's identifier
        ("Patient   : IYABODE TRAORE           Lab No   : CZ31\nDOB", ("CZ31", "OTHER")),  # a lab's short code
        ("Medicare MBI: 1EG4-TE5-MK73", ("1EG4-TE5-MK73", "HEALTHPLAN")),
        ("NHS number 943 476 5919", ("943 476 5919", "MRN")),
        ("Specimen 21-0456789", ("21-0456789", "OTHER")),
        ("ID: 778899", ("778899", "OTHER")),
        ("Ofc. H. Lord, badge 4471, attended", ("4471", "OTHER")),
        ("Badge #4471", ("4471", "OTHER")),
        ("Service number 8812345", ("8812345", "OTHER")),
        # registration bodies' numbers: Dental, Pharmacy and Nursing Councils of NZ, UK's NMC, HCPC
        ("Dentist: Dr Freya Oldenburg (DCNZ 14893). Recall", ("14893", "LICENSE")),
        ("Staff nurse, NMC PIN 12A3456E", ("12A3456E", "LICENSE")),
        ("Physiotherapist HCPC PH123456", ("PH123456", "LICENSE")),
    ],
)
def test_numbers_after_their_labels(text, expected):
    assert labelled("record_number", text) == [expected]


@pytest.mark.parametrize(
    "text",
    [
        "Blood group O+.",
        "An account of events was given.",
        "ID 2 doses.",
        "Ref range 3.5-5.0.",
        "Visit: 12/03/2021.",
        "Policy discussed with family.",
        "car registration ABC123",
        "Wearing a visitor badge today.",
    ],
)
def test_labels_without_identifiers_find_nothing(text):
    assert texts("record_number", text) == []


@pytest.mark.parametrize(
    "text, expected",
    [
        ("NHI: ZGCO4PL", ("ZGCO4PL", "MRN")),  # a scan's "0" read as "O"
        ("MRN: 5B2OIS", ("5B2OIS", "MRN")),
        ("Acct no. AB8OI7", ("AB8OI7", "ACCOUNT")),
    ],
)
def test_a_record_number_a_scan_misread_is_still_found_after_its_label(text, expected):
    """OCR of a scanned form reads some digits as the letters they look like; the label
    still says what the value is. Before, "NHI: ZGCO4PL" had one digit left and went out
    as written."""
    assert labelled("record_number", text) == [expected]


@pytest.mark.parametrize("text", ["Ref: ZGCO4PL", "MRN: B12 given", "Policy 2 SOBOLD"])
def test_letters_like_digits_count_only_after_a_records_own_label_and_beside_a_digit(text):
    assert texts("record_number", text) == []


def test_valid_nhs_number_is_found_without_a_label_and_invalid_only_with_one():
    found = run("nhs_number", "Ref 943 476 5919 and 943 476 5918.")
    assert [s.fine for s in found] == ["MRN"] and found[0].score >= 0.9
    labelled_invalid = run("nhs_number", "NHS No: 943 476 5918")
    assert len(labelled_invalid) == 1 and labelled_invalid[0].score < 0.9
    assert texts("nhs_number", "Tel 943 476 5919") == []
    # a US phone that passes the check by chance, written as US phones are
    assert texts("nhs_number", "Please call our office at 210-555-0193 if") == []
    assert texts("nhs_number", "NHS no 210-555-0193") == ["210-555-0193"]


def test_nhi_old_and_new_formats():
    text = "NHI ZAC5361, seen with ZSC21TN; code ZZZ0044 is invalid."
    assert texts("nhi", text) == ["ZAC5361", "ZSC21TN"]
    assert texts("nhi", "NHI: ZZZ0044") == ["ZZZ0044"]
    assert texts("nhi", "the abc1234 batch") == []


def test_medicare_number_found_and_scored_by_label():
    (plain,) = run("medicare", "Card 2123 45670 1 on file.")
    (with_label,) = run("medicare", "Medicare 2123 45670 1")
    assert plain.fine == "HEALTHPLAN" and with_label.score > plain.score
    assert texts("medicare", "Card 2123 45671 1") == []
    assert texts("medicare", "Medicare: 2123 45671 1") == ["2123 45671 1"]


def test_vins_and_number_plates():
    text = "VIN 1HGCM82633A004352; car rego ABC123; number plate: XYZ-789"
    assert labelled("vehicle", text) == [
        ("1HGCM82633A004352", "VEHICLE"), ("ABC123", "VEHICLE"), ("XYZ-789", "VEHICLE"),
    ]
    assert texts("vehicle", "Platelet count 150; plate count 150.") == []


def test_a_british_plate_after_a_word_about_a_car():
    text = "Vehicle: blue Corsa reg. KX19 BHT, blue badge no. 1187"
    spans = run("vehicle", text)
    assert [text[s.start : s.end] for s in spans] == ["KX19 BHT"] and spans[0].validated
    assert texts("vehicle", "Seen by AB12 CDE team") == []  # no car before it
    drives = "He still drives his Land Rover (SV14 KXD) to the Co-op"
    assert texts("vehicle", drives) == ["SV14 KXD"]
    arrival = "Attendance: 9/7/2008 0200   Arrival: Ambulance (JT21 CDI)"
    assert texts("vehicle", arrival) == ["JT21 CDI"]


def test_device_serial_numbers():
    text = "Medtronic pacemaker model ADDR01 serial PJN123456; S/N: 12-34567"
    assert labelled("device_serial", text) == [("ADDR01", "DEVICE"), ("PJN123456", "DEVICE"), ("12-34567", "DEVICE")]
    assert texts("device_serial", "Serial bloods; model of care; version 2.1") == []


def test_a_labelled_record_number_of_five_digits_or_more_is_validated():
    # the models cut it into an ID and a phone number; the label says what it is
    text = "Worker: Mr L. Fitzgerald-Nguyen   Claim no: 5402 118 336   Employer: Riverina"
    spans = run("record_number", text)
    assert [(text[s.start : s.end], s.validated) for s in spans] == [("5402 118 336", True)]
    short = "Ref: 4471 on file"  # four digits: the vote decides
    assert [s.validated for s in run("record_number", short)] == [False]


@pytest.mark.parametrize(
    "text, expected",
    [
        ("Eyecare Plus Gunnadoo   ABN 41 623 887 519", ["41 623 887 519"]),
        ("Ph (08) 9144 7730  |  ABN: 63114902557", ["63114902557"]),
        ("Ph (08) 9144 7730  |  63 114 902 557", []),  # no label: as likely a phone or an account
    ],
)
def test_an_australian_business_number_after_its_label_is_a_validated_identifier(text, expected):
    spans = run("abn", text)
    assert [text[s.start : s.end] for s in spans] == expected
    assert all(s.validated and s.category.value == "ID" for s in spans)


@pytest.mark.parametrize(
    "text, expected",
    [
        ("Candidate: O. Fairbanks   NI number QQ 12 34 56 C", ["QQ 12 34 56 C"]),  # the published example, labelled
        ("NINO: AB123456C on the payslip", ["AB123456C"]),
        ("Payroll record JT 44 91 20 A attached", ["JT 44 91 20 A"]),  # an issued prefix needs no label
        ("Batch QQ 12 34 56 C on the box", []),  # never issued and not labelled
        ("Lot DF 11 22 33 B", []),
    ],
)
def test_a_national_insurance_number_is_a_validated_identifier(text, expected):
    spans = run("ni_number", text)
    assert [text[s.start : s.end] for s in spans] == expected
    assert all(s.validated for s in spans)


def test_a_labs_short_code_is_validated_and_a_short_reference_is_not():
    lab = "Lab no: AE17     Interim report"
    assert [(lab[s.start : s.end], s.validated) for s in run("record_number", lab)] == [("AE17", True)]
    ref = "Ref: NG28 guideline"  # a guideline's number after a reference label
    assert [(ref[s.start : s.end], s.validated) for s in run("record_number", ref)] == [("NG28", False)]


def test_a_vehicles_label_proves_its_number_and_a_bare_plate_does_not():
    """"Vehicle: SC-214" (an ambulance's call sign) was found by the rule and out-voted; a
    plate in an operation note is no vehicle's."""
    text = "Case No: 24-0317-04126     Vehicle: SC-214     Rego: AMB 062"
    spans = run("vehicle", text)
    assert [(text[s.start : s.end], s.validated) for s in spans] == [("SC-214", True), ("AMB 062", True)]
    bare = "Fixed with a plate LCP 3 and six screws"
    assert all(not s.validated for s in run("vehicle", bare))
