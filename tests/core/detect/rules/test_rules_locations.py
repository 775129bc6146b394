"""Street addresses, postcodes, places and organisations."""

from __future__ import annotations

import pytest

from .rules_helpers import labelled, run, texts


@pytest.mark.parametrize(
    "text, expected",
    [
        ("Lives at 12 Rosewood Avenue now.", "12 Rosewood Avenue"),
        ("Flat 3, 45 King St is the address.", "Flat 3, 45 King St"),
        ("Moved to Unit 5/22 Smith Rd last year.", "Unit 5/22 Smith Rd"),
        ("Write to PO Box 123 please.", "PO Box 123"),
        ("At 1234 N. Main St today.", "1234 N. Main St"),
        ("221B Baker Street", "221B Baker Street"),
    ],
)
def test_street_addresses(text, expected):
    assert labelled("street_address", text) == [(expected, "STREET")]


def test_the_towns_after_a_street_are_taken_too():
    text = "Address: 12 Rosewood Avenue, Ponsonby, Auckland 1011"
    assert labelled("street_address", text) == [
        ("12 Rosewood Avenue", "STREET"), ("Ponsonby", "CITY"), ("Auckland", "CITY"),
    ]
    text = "1234 N. Main St, Springfield, IL 62704"
    assert labelled("street_address", text)[-1] == ("IL", "STATE")


@pytest.mark.parametrize(
    "text",
    ["Inserted 2 Foley catheters.", "Glasgow Coma Scale 15.", "Seen by 3 Dr Smith colleagues.", "Gave 2 Panadol tabs."],
)
def test_numbers_before_capitalised_words_are_not_addresses(text):
    assert texts("street_address", text) == []


@pytest.mark.parametrize(
    "text, expected",
    [
        ("Springfield, IL 62704-1234", "62704-1234"),
        ("Parramatta NSW 2150", "2150"),
        ("London SW1A 1AA", "SW1A 1AA"),
        ("Manchester M1 1AE", "M1 1AE"),
        ("Ponsonby, Auckland 1011", "1011"),
        ("Christchurch 8011, New Zealand", "8011"),
        ("Postcode: 3000", "3000"),
        ("California 90210", "90210"),
    ],
)
def test_postcodes_in_address_context(text, expected):
    # the state between a town and its code is found too (test below); here only the codes
    assert [x for x in labelled("postcode", text) if x[1] == "ZIP"] == [(expected, "ZIP")]


@pytest.mark.parametrize(
    "text",
    ["Moved to Auckland 2019.", "Platelets 1011 in clinic.", "Hb 13.2, score 2150 points.", "GCS 15 at 2150 hours."],
)
def test_bare_four_and_five_digit_numbers_are_not_postcodes(text):
    assert texts("postcode", text) == []


@pytest.mark.parametrize(
    "text, expected",
    [
        ("She lives in Christchurch with family.", ("Christchurch", "CITY")),
        ("Moved from Samoa in 2010.", ("Samoa", "COUNTRY")),
        ("Born in Palmerston North.", ("Palmerston North", "CITY")),
        ("Town: Gore", ("Gore", "CITY")),
        ("Recently returned from Queensland.", ("Queensland", "STATE")),
    ],
)
def test_places_with_context(text, expected):
    assert labelled("place", text) == [expected]


def test_a_city_before_a_state_abbreviation():
    assert labelled("place", "Referred from Boston, MA today.") == [("Boston", "CITY"), ("MA", "STATE")]


@pytest.mark.parametrize(
    "text",
    [
        "Dunedin is cold.",  # a known place with nothing saying it is one here
        "Glasgow Coma Scale 15.",
        "Down syndrome.",
        "Reading glasses needed.",
        "Bath time was difficult.",
        "Orange juice with breakfast.",
        "Wells score 4.",
    ],
)
def test_place_names_without_place_context_are_not_found(text):
    assert texts("place", text) == []


@pytest.mark.parametrize(
    "text, expected",
    [
        ("Admitted to St Vincent's Hospital overnight.", ("St Vincent's Hospital", "HOSPITAL")),
        ("Transferred to Auckland City Hospital.", ("Auckland City Hospital", "HOSPITAL")),
        ("Referred to Mayo Clinic.", ("Mayo Clinic", "HOSPITAL")),
        ("Trained at Royal Melbourne.", ("Royal Melbourne", "HOSPITAL")),
        ("GP at Riverside Medical Centre.", ("Riverside Medical Centre", "HOSPITAL")),
        ("Under Counties Manukau Health.", ("Counties Manukau Health", "HOSPITAL")),
        ("Seen at Ponsonby Family Practice.", ("Ponsonby Family Practice", "HOSPITAL")),
        ("Works for Acme Widgets Pty Ltd.", ("Acme Widgets Pty Ltd", "COMPANY")),
        ("Employed by Globex Inc since June.", ("Globex Inc", "COMPANY")),
        ("Spoke with Deb at Hallmark Drug (ph 555-0134)", ("Hallmark Drug", "HOSPITAL")),  # an ordinary word first
        ("Also called Saveway Rx in Millbrook.", ("Saveway Rx", "HOSPITAL")),
        ("Scripts from Mason Drug Store on Elm.", ("Mason Drug Store", "HOSPITAL")),
        ("- 08/15/2023 WorkWell Occupational Clinic, Tran Bao Chau, PA-C", ("WorkWell Occupational Clinic", "HOSPITAL")),  # camel case
    ],
)
def test_organisations(text, expected):
    assert labelled("organisation", text) == [expected]


@pytest.mark.parametrize(
    "text, expected",
    [
        ("Sept-Nov 2023 Ridgeline Physical Therapy: 18 visits", ("Ridgeline Physical Therapy", "HOSPITAL")),
        ("Dr. Henrik Vandersloot, Tamarack Orthopedic & Spine: L5 TFESI", ("Tamarack Orthopedic & Spine", "HOSPITAL")),
        ("Physio (Bluegum Kids Physio, fortnightly)", ("Bluegum Kids Physio", "HOSPITAL")),
        ("s.117 aftercare via Brackenfold CMHT (care coordinator)", ("Brackenfold CMHT", "HOSPITAL")),
        ("Raumati Ridge Urgent & After Hours -- session notes", ("Raumati Ridge Urgent & After Hours", "HOSPITAL")),
        ("School Psychologist, Wandoo Ridge SHS -- AHPRA PSY0002184736", ("Wandoo Ridge SHS", "OTHER")),
        ("attends Terrebonne Bayside High.", ("Terrebonne Bayside High", "OTHER")),
        ("Year 10 at Kaitāia College", ("Kaitāia College", "OTHER")),
        ("St Brannock's CofE Primary, Y3", ("St Brannock's CofE Primary", "OTHER")),  # a word in camel case
    ],
)
def test_allied_health_practices_and_schools_by_the_word_that_ends_their_name(text, expected):
    """Practices and schools whose last word is no hospital's: before, the name was found in
    part or not at all ("Ridgeline Physical" without "Therapy"). A name word of its own makes
    one whatever the models say (they read "Physio" as a person's name)."""
    assert labelled("organisation", text) == [expected]
    assert all(s.validated for s in run("organisation", text))


@pytest.mark.parametrize(
    "text",
    [
        "Referred for Cognitive Behavioural Therapy.",
        "started Nicotine Replacement Therapy",
        "Continue Physio twice weekly.",
        "seen by Dr Smith, Physio",  # a person and a role
        "moved up to Senior High",
        "Speech Therapy review",
        "the Mental Health CMHT",
    ],
)
def test_a_treatment_or_a_year_group_before_those_words_is_no_organisation(text):
    assert labelled("organisation", text) == []


@pytest.mark.parametrize(
    "text, value",
    [
        ("Prior auth sent to Express Scripts today.", "Express Scripts"),  # in no member's view before
        ("Medicaid through CareSource (ID 1054876321).", "CareSource"),
        ("Meds from Rite Aid - Manheim.", "Rite Aid"),
        ("cell B2-17, HMP Altcourse, arrived Tuesday", "HMP Altcourse"),  # a prison by its prefix
        ("Bloods drawn at Quest Diagnostics on Elm.", "Quest Diagnostics"),  # a pathology network
        ("Hospital bed delivered by Lincare -- done 11/4.", "Lincare"),  # a home-equipment supplier
        ("conflict with supervisor Brent at Fred Meyer in Gresham", "Fred Meyer"),  # an employer
        ("He works as a bike courier for Deliveroo in Footscray.", "Deliveroo"),
        ("QML PATHOLOGY   Lab No 24-7718293", "QML PATHOLOGY"),  # a listed name in a header's capitals
    ],
)
def test_known_insurers_and_pharmacy_chains_are_validated_organisations(text, value):
    spans = run("organisation", text)
    assert [(text[s.start : s.end], s.validated) for s in spans] == [(value, True)]


@pytest.mark.parametrize(
    "text, expected",
    [
        ("Employer: Fulton Hogan (Rolleston depot)\nOccupation", "Fulton Hogan"),  # names a person's
        ("DOB 07/07/1980   Employer: Lockheed Martin\nClaim", "Lockheed Martin"),
        ("Daycare: Bright Horizons on Wade Hampton Blvd.", "Bright Horizons"),
        ("Workers comp carrier: BWC Ohio.", "BWC Ohio"),  # the sentence's stop is left out
        ("School: Brunswick Junior School. Referred to the hospital", "Brunswick Junior School"),  # nor the next sentence
    ],
)
def test_an_employers_insurers_or_schools_field_is_a_validated_organisation(text, expected):
    spans = run("organisation", text)
    assert [(text[s.start : s.end], s.validated) for s in spans] == [(expected, True)]


@pytest.mark.parametrize(
    "text", ["School: Year 9\n", "Employer: Self employed\n", "Employer: None\n", "School: Attending regularly\n"]
)
def test_an_organisation_field_without_one_gives_none(text):
    assert texts("organisation", text) == []


def test_an_organisation_named_by_hyphened_capitals_is_found():
    text = "Pharmacy: H-E-B Pharmacy #418, Harlingen"
    assert texts("organisation", text) == ["H-E-B Pharmacy"]


@pytest.mark.parametrize(
    "text",
    [
        "Mental Health team involved.",
        "Seen in the Diabetes Clinic.",
        "General Practice follow up.",
        "Cardiac Surgery review.",
        "Hospital admission was brief.",
        "Blood group O positive.",
        "URINE DRUG SCREEN negative.",
        "Illicit Drug Use: denies.",
        "Adverse Drug Reaction reported.",
        "Stopped the drug on Monday.",
    ],
)
def test_services_and_departments_are_not_organisations(text):
    assert texts("organisation", text) == []


def test_a_street_without_a_number_needs_a_town_after_it():
    text = "Northern General Hospital, Herries Road, Sheffield S5 7AU"
    assert labelled("street_address", text) == [("Herries Road", "STREET"), ("Sheffield", "CITY")]
    assert texts("street_address", "Walked along the High Street, slowly.") == []


def test_letterheads_in_capitals_and_businesses():
    assert labelled("organisation", "HILLSIDE MEDICAL PRACTICE - CONSULTATION NOTE") == [
        ("HILLSIDE MEDICAL PRACTICE", "HOSPITAL")
    ]
    assert labelled("organisation", "Supervisor at Kirkstall Logistics since 2019.") == [("Kirkstall Logistics", "COMPANY")]
    assert texts("organisation", "Usual pharmacy: the one in town. MENTAL HEALTH SERVICES. City Council.") == []
    # a support provider or a practice's partnership by its last word
    assert labelled("organisation", "Also linked with Access Community Services.") == [("Access Community Services", "COMPANY")]
    assert labelled("organisation", "Referred to Tamar Cardiology Partners.") == [("Tamar Cardiology Partners", "COMPANY")]
    assert texts("organisation", "Refer to Social Services. Children's Services aware.") == []


def test_a_postcode_after_a_town_in_an_address_line_may_be_followed_by_more_text():
    text = "Address 38 Glenfield Road, Glenfield, Auckland 0629 Discharged 09/04/2024"
    assert texts("postcode", text) == ["0629"]


@pytest.mark.parametrize(
    "text, expected",
    [
        # towns in no list, after words that say where someone lives or comes from
        ("She lives in Pukeroa Flats with her sister.", ["Pukeroa Flats"]),
        ("Born in Vallecorsa, Lazio, and came here aged 9.", ["Vallecorsa", "Lazio"]),
        ("Family moved to\nMiddlemarsh Crossing when he was small.", ["Middlemarsh Crossing"]),
        ("Grew up in Kelso Bay.", ["Kelso Bay"]),
        # in lower case, as quick notes write them: words of no vocabulary, or listed places
        ("pt seen with aunty. lives in otara with aunty and uncle", ["otara"]),
        ("moved to papatoetoe last year", ["papatoetoe"]),
        ("born in lagos, came here at 9", ["lagos"]),
        ("Has a flat in Felling now, near the metro.", ["Felling"]),  # where a home is
        ("staying in papatoetoe over summer", ["papatoetoe"]),
    ],
)
def test_unlisted_towns_after_residence_words_are_validated_places(text, expected):
    spans = run("place", text)
    assert [text[s.start : s.end] for s in spans] == expected
    assert all(s.validated for s in spans)  # the wording proves it: the models may not out-vote it


@pytest.mark.parametrize(
    "text",
    [
        "Moved to Ward 12 overnight.",
        "Moved to ICU for monitoring.",
        "Born in March, full term.",
        "Moved to Rehab on day 5.",
        "Lives in Sheltered Housing.",
        "Moved to Dr Ngata's list.",
        "Moved to Anna's for the week.",
        "Lives at Kowhai Manor now.",
        "lives in a flat with partner",
        "lives in supported housing",
        "lives in her car since march",
        "moved to rehab on day 5",
        "lives in temporary accom",
        "Staying in Hospital for a week.",
        "house in the country",
    ],
)
def test_wards_months_people_and_homes_after_residence_words_are_no_place(text):
    assert texts("place", text) == []


@pytest.mark.parametrize(
    "text, state",
    [
        ("4410 W Kickapoo Bend, Suite 210, Okemah, OK 74859", "OK"),
        ("Agawam Shores, MI 49731", "MI"),
        ("Shop 3, 27 Mulga Parade, Karratha WA 6714", "WA"),
        ("12 Bell St, Coburg, VIC 3058", "VIC"),
    ],
)
def test_the_state_between_a_town_and_its_postcode_is_a_validated_place(text, state):
    found = {text[s.start : s.end]: s for s in run("postcode", text)}
    assert found[state].validated and found[state].fine == "STATE"
    # the code after it is a postcode for certain, whatever a model calls it
    (code,) = [s for v, s in found.items() if s.fine == "ZIP"]
    assert code.validated


def test_a_state_code_in_a_sentence_is_not_taken():
    text = "Go home OK 12345 times. The ACT 2000 rule."
    assert [text[s.start : s.end] for s in run("postcode", text) if s.fine == "STATE"] == []


@pytest.mark.parametrize(
    "text, value",
    [
        ("of 7 Kestrel Cl, Wymondham\nNR18 0QP. She turned 90", "NR18 0QP"),  # the models out-voted it
        ("14 Larch Grove, Stevenage SG1 4PQ.", "SG1 4PQ"),
        ("Postcode: EH6 7RQ", "EH6 7RQ"),
    ],
)
def test_a_uk_postcode_written_in_full_in_an_address_is_validated(text, value):
    spans = [s for s in run("postcode", text) if text[s.start : s.end] == value]
    assert spans and spans[0].validated


@pytest.mark.parametrize("text", ["L5 S1 and C5 6NR roots", "see ref AB1 2CD in the protocol"])
def test_a_postcode_shape_away_from_an_address_is_not_validated(text):
    assert not any(s.validated for s in run("postcode", text))


@pytest.mark.parametrize(
    "text, expected",
    [
        ("hi its dolores from apt 3B at 1200 n lamar blvd. my grandson", "apt 3B at 1200 n lamar blvd."),
        ("lives at 22 kowhai st with mum", "22 kowhai st"),
    ],
)
def test_a_street_address_in_lower_case_after_a_word_of_place_is_validated(text, expected):
    spans = run("street_address", text)
    assert [(text[s.start : s.end], s.validated) for s in spans] == [(expected, True)]


@pytest.mark.parametrize(
    "text",
    ["take 2 tabs at 10 pm daily", "seen at 4 west ward", "went to 2 tennis courts", "d/w dr at 2 pm per dr"],
)
def test_numbers_and_words_in_lower_case_are_no_street(text):
    assert texts("street_address", text) == []


def test_an_organisation_name_stops_at_a_column_gap():
    # the patient's name field and the next column's label are no hospice
    text = "Pt: Beulah Mae Ashcraft   Hospice ID HO-55217\n"
    assert texts("organisation", text) == []
    assert texts("organisation", "Pt seen at Beulah Mae  Hospice today") == ["Beulah Mae  Hospice"]


@pytest.mark.parametrize(
    "text, expected, validated",
    [
        ("Address: Unit 4/19 Quandong Cl, Tahmoor NSW 2573", "Unit 4/19 Quandong Cl", True),  # a unit number
        ("Lives 3/18 Wattlebird Close with her son", "3/18 Wattlebird Close", True),  # a unit before the "/"
        ("Address: 31 Wattlebird Crescent, Cranbourne West", "31 Wattlebird Crescent", True),  # after a label
        ("Parked at 12 Rosewood Avenue again.", "12 Rosewood Avenue", False),
    ],
)
def test_a_street_with_a_unit_number_or_an_address_label_is_validated(text, expected, validated):
    spans = [s for s in run("street_address", text) if s.fine == "STREET"]
    assert [(text[s.start : s.end], s.validated) for s in spans] == [(expected, validated)]


@pytest.mark.parametrize(
    "text, expected",
    [
        ("Next visit at home, 29 Mutu Street.\nBring notes", "29 Mutu Street"),  # the sentence's stop
        ("lives at 4 Elm Lane. Then to clinic", "4 Elm Lane"),
        ("at 4 Elm Cres. Then to clinic", "4 Elm Cres."),  # an abbreviation keeps its stop
    ],
)
def test_a_street_takes_a_full_stop_only_after_an_abbreviation(text, expected):
    assert texts("street_address", text) == [expected]


def test_us_fax_abbreviations_and_prefixed_hyphened_words_end_and_make_organisations():
    text = "*** FAX ***   TO: Mid-Valley Sleep Ctr   FROM: Salem Pulmonary Assoc\n"
    assert texts("organisation", text) == ["Mid-Valley Sleep Ctr", "Salem Pulmonary Assoc"]
    # a double-barrelled surname before "of" stays the person's
    letter = "I saw Ioannis Papadakis-Wren of Casey Fields Medical Clinic today."
    assert texts("organisation", letter) == ["Casey Fields Medical Clinic"]


def test_an_organisation_is_not_read_back_across_a_street_and_the_next_sentence():
    """"... to Kowhai Drug on Main St. Also Bellbird Rx" was one organisation from "Kowhai" to
    "Rx": "St." read as Saint and the sentence's "Also" as a word of the name."""
    text = "Script sent to Kowhai Drug on Main St. Also Bellbird Rx faxed."
    assert texts("organisation", text) == ["Kowhai Drug", "Bellbird Rx"]
    saint = "Referred to St. Vincent Community Pharmacy today."
    assert texts("organisation", saint) == ["St. Vincent Community Pharmacy"]


@pytest.mark.parametrize(
    "text, expected",
    [
        ("started July from Te Kura Kaupapa Māori o Waioeka) vision screen", ["Te Kura Kaupapa Māori o Waioeka"]),
        ("Older sibling at Te Kōhanga Reo o Pukekawa; whānau support", ["Te Kōhanga Reo o Pukekawa"]),
        ("- Crisis: Leeds Crisis Resolution Team 01632 960999", ["Leeds Crisis Resolution Team"]),
        ("Discussed at the MDT Team meeting", []),  # an acronym names no team of anyone's
        ("Crisis Resolution Team referral made", []),  # a kind of team
        ("Adult Social Care, Safeguarding Adults Team |", []),  # an English word the vocabulary lacks
        ("Reablement Team visit booked", []),
    ],
)
def test_maori_medium_schools_and_teams_named_for_a_place(text, expected):
    spans = run("organisation", text)
    assert [text[s.start : s.end] for s in spans] == expected


@pytest.mark.parametrize(
    "text, expected",
    [
        ("glad that Harrowby & Daughters Funeral Directors of Sturminster Newton were", ["Harrowby & Daughters Funeral Directors"]),
        ("advocate Femi Adebanjo from Speak Up Nene Advocacy (Declan asked)", ["Speak Up Nene Advocacy"]),
        ("referred to Perth Toxicology Reference Lab, TAT 5-7 days", ["Perth Toxicology Reference Lab"]),
        ("born 14.10.25 at 03:52, Lydmoor Midwife-Led Unit | Baby", ["Lydmoor Midwife-Led Unit"]),
        ("Send to Lab today", []),
    ],
)
def test_funeral_directors_advocacy_services_labs_and_birth_units(text, expected):
    assert texts("organisation", text) == expected


@pytest.mark.parametrize(
    "text, expected",
    [
        ("Venue: Meeting Rm 2, Culcairn & District MPS + MS Teams", ["Culcairn & District MPS"]),  # a multi-purpose service
        ("Healthcare provider: Tees & Wear Justice Health CIC   Printed", ["Tees & Wear Justice Health CIC"]),
        ("Refer to MPS for review", []),
    ],
)
def test_a_multi_purpose_service_and_a_community_interest_company(text, expected):
    """Development notes 167-185 (thirteenth pass)."""
    assert texts("organisation", text) == expected


@pytest.mark.parametrize(
    "detector, text, expected",
    [
        # development notes 207-225 (thirteenth pass)
        ("organisation", "VISIT AUTHORIZATION: REDBUD MUTUAL auth # PA-25-0219947", ["REDBUD MUTUAL"]),
        ("organisation", "Insurance: Great Plains Mutual PPO, member ID GPM884201736", ["Great Plains Mutual"]),
        ("postcode", "DOB 09/1993   Postcode district PO4\n", ["PO4"]),
        ("postcode", "District PO4 meeting", []),
    ],
)
def test_an_insurer_and_a_postcode_district(detector, text, expected):
    assert texts(detector, text) == expected


@pytest.mark.parametrize(
    "text, expected",
    [
        ("Home infusion notified: Cedarline Home Infusion on-call pharmacist", ["Cedarline Home Infusion"]),
        ("reported 20/01/26 via 101: West Marlshire Police ref WMP-20260120-0611", ["West Marlshire Police"]),
    ],
)
def test_a_home_infusion_company_and_a_police_force(text, expected):
    """Development notes 239 and 241 (thirteenth pass)."""
    assert texts("organisation", text) == expected


@pytest.mark.parametrize(
    "text, expected",
    [
        # development notes 267-285 (thirteenth pass)
        ("URINE DIPSTICK: LEUC +++. MSU SENT TO GRAMPIANS PATHOLOGY.", ["GRAMPIANS PATHOLOGY"]),
        ("CPAP ordered through Cypremort Home Respiratory (337-555-0171)", ["Cypremort Home Respiratory"]),
    ],
)
def test_pathology_and_equipment_suppliers(text, expected):
    assert texts("organisation", text) == expected
