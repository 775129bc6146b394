"""Ages; over 89 scores 1.0. Durations and doses are not ages."""

from __future__ import annotations

import pytest

from .rules_helpers import run, texts


@pytest.mark.parametrize(
    "text, expected",
    [
        ("A 72-year-old man with chest pain.", "72"),
        ("72 yo male.", "72"),
        ("aged 94, lives alone.", "94"),
        ("Age: 45", "45"),
        ("45F presenting with cough.", "45"),
        ("45 y/o M with fever.", "45"),
        ("She is a 93 year old woman.", "93"),
        ("A ninety-two-year-old lady.", "ninety-two"),
        ("A woman in her late 80s.", "80"),
    ],
)
def test_ages_are_found(text, expected):
    assert texts("age", text) == [expected]


def test_over_89_scores_one_and_younger_still_reported():
    old, young = run("age", "aged 94 and her son, a 60-year-old man")
    assert old.score == 1.0
    assert young.score < 1.0 and young.category.value == "AGE"


@pytest.mark.parametrize(
    "text",
    [
        "Smoked for 5 years until 5 years ago.",
        "Metformin 500 mg bd.",
        "14F Foley catheter inserted; 8F sheath.",
        "Gestational age 32 weeks.",
        "Hb 13.2, K+ 4.1.",
        "Pain for 3 years.",
    ],
)
def test_durations_doses_and_gauges_are_not_ages(text):
    assert texts("age", text) == []


def test_an_age_at_the_end_of_a_sentence():
    assert texts("age", "Father died of MI aged 70. Mother aged 4.5? no.") == ["70"]


@pytest.mark.parametrize(
    "text, expected",
    [
        ("Mother       d. 58        ovarian ca dx 55", ["58", "55"]),
        ("Grandfather died at 81 of a stroke.", ["81"]),
        ("Breast cancer diagnosed at 70.", ["70"]),
        ("Onset at 12, worse since.", ["12"]),
    ],
)
def test_ages_in_family_histories_are_found(text, expected):
    assert texts("age", text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "d. 12/03/2020 at home.",  # a date of death, not an age
        "dx 2019, in remission.",
        "dx 3 weeks ago.",
        "Dx: 5.5 cm mass in the left breast.",
        "onset 10:30 this morning.",
        "Seen by Dr Ord. 45 minutes.",
    ],
)
def test_event_words_before_dates_times_and_durations_are_not_ages(text):
    assert texts("age", text) == []


def test_ages_said_in_so_many_words_are_validated_and_bare_ones_are_not():
    # "58 years old" proves itself (the models may not out-vote it); "62F" or a bare "d. 77"
    # may still be something else and stays an ordinary vote.
    text = "a 58-year-old, aged 41, 33 y/o, 62F, d. 77"
    assert {text[s.start : s.end]: s.validated for s in run("age", text)} == {"58": True, "41": True, "33": True, "62": False, "77": False}


def test_family_history_ages_are_validated_by_their_event_word_or_a_pedigree_row():
    text = "Mother   Ann Roe   d. 58   ovarian ca dx 55\nGrandfather died at 81.\nAbx d. 3 of 7."
    assert {text[s.start : s.end]: s.validated for s in run("age", text)} == {"58": True, "55": True, "81": True, "3": False}


@pytest.mark.parametrize(
    "text, age",
    [
        ("Patient: Lorraine G      DOB 27/08/1962   (61)", "61"),
        ("DOB 3/9/1949 (75)     Acct# TPH-5530912", "75"),
        ("D.O.B.: 12 Mar 1950 (74 yrs)", "74"),
        ("Date of birth 01-02-2001 (age 23)", "23"),
    ],
)
def test_the_age_in_brackets_after_a_date_of_birth(text, age):
    found = {text[s.start : s.end]: s.validated for s in run("age", text)}
    assert found.get(age) is True


def test_age_and_sex_on_a_line_that_identifies_the_patient_is_validated():
    text = "DOB 03/03/1951   73F   Wt 60 kg\nWaiting room: 30M with a cough"
    spans = run("age", text)
    found = {text[s.start : s.end]: s.validated for s in spans}
    assert found["73"] is True
    assert found.get("30") is False  # no identity on that line: the models decide
    handover = "Bed 3  Kofi 45M  post lap chole, pain ok."  # a handover's bed, a name, the age and sex
    assert {handover[s.start : s.end]: s.validated for s in run("age", handover)}["45"] is True


PEDIGREE = """FAMILY HISTORY
  Relation            Name                     Age / age at death   Cancer history
  ------------------  -----------------------  -------------------  ----------------
  Mother              Ruth Abrams                 d. 58                ovarian ca
  Maternal aunt       Gitta Fromm                 70                   breast ca
  Maternal grandfather Nathan Abrams           d. 81                prostate ca
  Brother             Sam                          38                   none

Plan: 12 months review, panel of 47 genes."""


def test_numbers_under_an_age_column_heading_are_validated_ages():
    """Family-history tables give ages in a column headed "Age": the heading says what
    the bare numbers are, even where a row is typed a few characters out of line."""
    found = {PEDIGREE[s.start : s.end]: s.validated for s in run("age", PEDIGREE)}
    assert found == {"58": True, "70": True, "81": True, "38": True}


@pytest.mark.parametrize(
    "text, expected",
    [
        # no "Age" heading: the numbers are something else
        ("Test        Result    Range\nHb          132       115-165\nPlt         70        150-400\n", []),
        # "Age:" is a label, not a column heading; the numbers below are doses
        ("Age: see DOB    Weight: 60 kg    Height: 165\nMetformin   500    bd\n", []),
        # the column holds durations, not bare ages
        ("Visit   Age      Weight   Length\n1       6 mo     7.2      65\n", []),
        # a blank line ends the table
        ("Name   Age   Status\nAnn    71    well\n\nDose   10    mg\n", ["71"]),
    ],
)
def test_numbers_outside_an_age_column_are_not_ages(text, expected):
    assert texts("age", text) == expected


@pytest.mark.parametrize(
    "text, expected",
    [
        ("Maternal aunt: breast ca dx 48, 66.", ["48", "66"]),
        ("Sister dx 41 and 52; well since.", ["41", "52"]),
        ("Mother dx 48, 2 sons.", ["48"]),  # a count, not an age
        ("Father dx 55, 12 cycles of chemo.", ["55"]),
        ("Aunt dx 60, 35", ["60"]),  # smaller than the first: not a second diagnosis
    ],
)
def test_second_ages_listed_after_an_event_word(text, expected):
    assert texts("age", text) == expected


@pytest.mark.parametrize(
    "text, age",
    [("my grandson jayden (he's 14) found me", "14"), ("Lives with her 2 children; she is 34.", "34"), ("He turned 80 in March", "80")],
)
def test_a_person_and_a_number_that_ends_the_clause_is_an_age(text, age):
    assert [(text[s.start : s.end], s.validated) for s in run("age", text)] == [(age, True)]


@pytest.mark.parametrize("text", ["she's 14 weeks pregnant", "he is 5 ft 2", "she is 2 days post op", "he's 1 of 3 brothers"])
def test_a_number_with_a_unit_after_he_or_she_is_no_age(text):
    assert texts("age", text) == []


@pytest.mark.parametrize(
    "text, age",
    [("Family moved to\nCocodrie Landing at 6. Completed 10th grade", "6"),
     ("First psychiatric admission at 22 after\ncommand AH.", "22"), ("Emigrated from Tonga at age 9 with parents", "9")],
)
def test_an_age_at_a_life_event_in_a_history(text, age):
    assert [(text[s.start : s.end], s.validated) for s in run("age", text)] == [(age, True)]


@pytest.mark.parametrize("text", ["Moved to the ward at 6 pm.", "Admission at 22:00 via ED", "moved to bay 4 at 10, settled", "Married at St Mary's"])
def test_a_time_after_a_life_event_is_no_age(text):
    assert texts("age", text) == []


@pytest.mark.parametrize(
    "text, expected, validated",
    [
        ("DOB: 07/22/1961   63y F\nDate of service: Tue 2/11/2025", "63", True),  # the sex apart from the "y"
        ("Pt is 63y, female, with chest pain", "63", True),
        ("22:40  Aroha-Lee Tamihana   NHI HMC9059   4 yrs 7 mths", "4", True),  # a child's age on an identity line
        ("Reviewed today, 2 yrs 3 mths, walking well", "2", False),  # the models must agree
    ],
)
def test_ages_with_a_y_before_the_sex_or_in_years_and_months(text, expected, validated):
    spans = run("age", text)
    assert [(text[s.start : s.end], s.validated) for s in spans] == [(expected, validated)]


def test_years_old_male_or_female_in_capitals():
    assert texts("age", "FOUND 79 YOM SUPINE ON KITCHEN FLOOR") == ["79"]
    assert texts("age", "34yof presents with") == ["34"]


@pytest.mark.parametrize(
    "text, expected",
    [
        ("Baby KAHU     DOB 03/03/2025     Age 4 months 3 weeks     NHI ZAB1234", ["4"]),
        ("aged 7 weeks, feeding well", ["7"]),
        ("Gestational age 32 weeks at delivery.", []),
    ],
)
def test_a_babys_age_in_months_or_weeks_after_its_label(text, expected):
    spans = run("age", text)
    assert [text[s.start : s.end] for s in spans] == expected
    assert all(s.validated for s in spans)


@pytest.mark.parametrize(
    "text, expected",
    [
        ("DOB: 11.03.2024     Sex: M     Age at visit: 8 mo 4 d", ["8"]),  # development note 171
        ("Age today: 3 yrs", ["3"]),
        ("Gestational age 8 weeks", []),
    ],
)
def test_an_age_at_the_visit(text, expected):
    assert texts("age", text) == expected


@pytest.mark.parametrize(
    "text, expected",
    [
        ("Sibling: Kiri-Ana Lendrum, 4, at Little Kowhai Kindergarten", ["4"]),  # development note 189
        ("FAMILY\nMother Itzel Quispe, 34, dental hygienist", ["34"]),
        ("Son Tom, 12 Main St", []),  # a house number
    ],
)
def test_a_relatives_age_after_their_name_in_a_familys_list(text, expected):
    assert texts("age", text) == expected


HOUSEHOLD = (
    "HOUSEHOLD\n"
    "| Name                     | Relationship   | Age | Occupation                                           |\n"
    "|--------------------------|----------------|-----|------------------------------------------------------|\n"
    "| Ioana Balanescu          | mother         | 31  | dental nurse (Smilecraft Dental), on maternity leave |\n"
    "| Tom McIlwraith        | father, PR     | 34  | scaffolder, self-employed, 2 wks paternity |\n"
    "| Ollie McIlwraith          | brother        | 3   | attends Little Acorns Day Nursery 3 days |\n"
    "| Viorica Balanescu        | mat. grandmother | 58 | retired seamstress, from Brasov |\n"
    "| Baby | son | 12 days | N/A |\n"
    "\nBP | 120/80 | 3\n"
)


def test_ages_and_jobs_under_a_bar_tables_headings():
    """Development notes 173 and 193 (thirteenth pass): a household's table drawn with bars
    that do not line up; the cells are read by their place in the row."""
    assert texts("age", HOUSEHOLD) == ["31", "34", "3", "58"]
    assert texts("profession", HOUSEHOLD) == ["dental nurse", "scaffolder", "seamstress"]


def test_the_age_in_years_after_a_date_of_birth_on_a_forms_line():
    """Development note 211 (thirteenth pass)."""
    assert texts("age", "Haruto Brennan-Sato   DOB 02/05/1972   52 yrs   Chart WG-11837") == ["52"]


@pytest.mark.parametrize(
    "text, expected",
    [
        # development notes 227-245 (thirteenth pass)
        ("Bed 14 -- PRYDDERCH, Gwilym   81 M   NHS 414 139 6427", ["81"]),
        ('Client: Tame Kereopa ("Koro Tame")   NHI HYG5438   86 yrs\n', ["86"]),
        ("MRN TRC-5540196   DOB 11/30/1961   63 F\n", ["63"]),
        ("Bay 4   2 M   cleaned", []),  # no line that identifies a patient
    ],
)
def test_an_age_in_a_column_of_a_line_that_identifies_the_patient(text, expected):
    assert texts("age", text) == expected


def test_the_age_in_brackets_after_a_date_of_birth_behind_a_forms_leader_dots():
    """Development note 285 (thirteenth pass)."""
    assert texts("age", "DOB ........... 12/12/1940   (84)               NHS no") == ["84"]
