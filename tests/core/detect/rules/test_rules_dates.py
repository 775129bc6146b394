"""Dates in every common form; times, doses, ratios, UK durations, lab values and versions
are not dates."""

from __future__ import annotations

import pytest

from .rules_helpers import run, texts


@pytest.mark.parametrize(
    "text, expected",
    [
        ("Seen on 03/14/2021 in clinic.", "03/14/2021"),
        ("Seen on 14/03/2021 in clinic.", "14/03/2021"),
        ("Bloods 14.03.21 normal.", "14.03.21"),
        ("Admitted 14-3-2021.", "14-3-2021"),
        ("Admitted 14 March 2021.", "14 March 2021"),
        ("Review March 14th, 2021 please.", "March 14th, 2021"),
        ("Follow up Mar 14 at the clinic.", "Mar 14"),
        ("Operated on the 14th of March.", "14th of March"),
        ("Last seen Jan '21.", "Jan '21"),
        ("Diagnosed January 2021.", "January 2021"),
        ("Scan 2021-03-14 reported.", "2021-03-14"),
        ("DOB: 19500314", "19500314"),
        ("Collected 14-Mar-2021 08:00.", "14-Mar-2021"),
        ("ADMITTED 3 JAN 2021", "3 JAN 2021"),
        ("Symptoms began in 2019 and settled.", "2019"),
        ("Worse since March.", "March"),
        ("Seen on 3/4 for review.", "3/4"),
    ],
)
def test_dates_are_found_with_exact_offsets(text, expected):
    assert texts("date", text) == [expected]


@pytest.mark.parametrize(
    "text",
    [
        "BP 120/80, HR 72.",
        "Take 1/2 tab nocte.",
        "Power 5/5 in all limbs.",
        "Symptoms for 3/12, review in 2/52, rash for 5/7.",
        "Cough since 3/12 ago.",
        "Hb 13.2, K+ 4.1, Na 140.",
        "ICD-10 I21.4 and J18.9.",
        "Software v1.2.3 and version 2.10.14 installed.",
        "Seen at 14:30 and again at 09:00.",
        "Metformin 500 mg bd, 2000 units heparin.",
        "Ref 20210314 on the request form.",
        "We may march on; he will mar the record.",
        "GCS 15, Apgar 9, Braden score 18.",
    ],
)
def test_things_that_only_look_like_dates_are_not_found(text):
    assert texts("date", text) == []


def test_a_date_with_a_time_covers_only_the_date():
    text = "Admitted 14/03/2021 14:30 via ED."
    assert texts("date", text) == ["14/03/2021"]


def test_scores_are_higher_with_a_year():
    with_year, without = run("date", "on 14 March 2021 and on 14 March")
    assert with_year.score > without.score


def test_iso_and_compact_dates_lean_on_context():
    (bare,) = run("date", "Scan 2021-03-14 reported.")
    (dated,) = run("date", "Collected on 2021-03-14.")
    assert bare.score < dated.score
    assert texts("date", "Infection 20210314") == []


@pytest.mark.parametrize(
    "text, expected",
    [
        ("Clinic booked Tue 14 May, bring letters.", "Tue 14 May"),
        ("Reviewed Thursday, 2 November 2023 by the team.", "Thursday, 2 November 2023"),
        ("Phoned WED 03/01/2024 re results.", "WED 03/01/2024"),
        ("Can you do Sun 7th instead?", "Sun 7th"),
        ("Visit Thu 8/2 confirmed.", "Thu 8/2"),
    ],
)
def test_a_weekday_belongs_to_the_date_after_it(text, expected):
    assert texts("date", text) == [expected]


@pytest.mark.parametrize("text", ["Antibiotics for 5/7 then review.", "Sunday lunch with family.", "Mon-Fri 9 to 5."])
def test_a_weekday_alone_or_a_duration_is_no_date(text):
    assert texts("date", text) == []


@pytest.mark.parametrize(
    "text, month",
    [("HbA1c repeat October.", "October"), ("Family trip in Dec, back after", "Dec"), ("Power cut ~April (bill owing)", "April"),
     ("Last seen in june by the GP", "june")],
)
def test_a_month_alone_after_a_time_word_is_a_validated_date(text, month):
    spans = run("date", text)
    assert [text[s.start : s.end] for s in spans] == [month]
    assert spans[0].validated


@pytest.mark.parametrize("text", ["Symptoms may improve in may cases", "in march formation", "Patient may go home"])
def test_may_and_march_in_lower_case_are_verbs(text):
    assert texts("date", text) == []


@pytest.mark.parametrize(
    "text, year",
    [("T2DM (dx 2011), HbA1c 61.", "2011"), ("Ex-smoker, quit 2015.", "2015"), ("Retired 2019 from the mill.", "2019"),
     ("Born 1956 in Leeds.", "1956"), ("Emigrated 2004 with family.", "2004")],
)
def test_a_year_told_with_an_event_of_a_life_or_illness_is_a_date_no_vote_removes(text, year):
    """"dx 2011": the rules found the year, both models said O, and the vote dropped it, so
    the year went out in the export. The wording proves it a date (validated)."""
    (span,) = run("date", text)
    assert text[span.start : span.end] == year and span.validated


def test_a_year_after_a_plain_time_word_is_still_only_a_vote():
    (span,) = run("date", "Symptoms began in 2019 and settled.")
    assert not span.validated
    assert texts("date", "Retired 2000 mg dose.") == []


def test_a_day_and_month_after_an_appointment_is_a_date():
    text = "Next appt 12/5 3pm. Coordinate with PCP."
    assert [text[s.start : s.end] for s in run("date", text)] == ["12/5"]


def test_a_day_and_month_after_a_word_of_time_is_a_validated_date():
    # "ED on 2/10": the rules alone found it, and both models out-voted them
    text = "Was seen at Campbelltown Hospital ED on 2/10. Works part time."
    spans = run("date", text)
    assert [(text[s.start : s.end], s.validated) for s in spans] == [("2/10", True)]


def test_a_day_and_month_after_a_chemotherapy_cycle_is_a_date():
    # "Next cycle 12/5": one model read only the "5"
    assert texts("date", "Next cycle 12/5. RN Alicia Duarte") == ["12/5"]
    assert texts("date", "f/u 3/12 in clinic with bloods") == []  # three months: a duration


@pytest.mark.parametrize(
    "text, expected",
    [
        ("Paliperidone 150 mg monthly, last given 7/4. PANSS total fell", ["7/4"]),
        ("Return 3/4/25 for C4D1; labs 3/3. Triage line", ["3/4/25", "3/3"]),
        ("bloods taken 12/6, results pending", ["12/6"]),
        ("low mood since about May, tearful most days", ["May"]),
        ("given 1/2 of the dose", []),  # a fraction of something
        ("Paracetamol given 1/2 tab", []),
        ("given 5/7 of the course", []),
    ],
)
def test_a_day_and_month_after_a_word_that_says_what_was_done_then_is_a_date(text, expected):
    """"last given 7/4", "labs 3/3": one model read them and was out-voted; the wording makes
    them dates."""
    spans = run("date", text)
    assert [text[s.start : s.end] for s in spans] == expected
    assert all(s.validated for s in spans)


@pytest.mark.parametrize(
    "text, expected",
    [
        ("Increase after 1/52. Continue HBT. Review 25/3.", ["25/3"]),  # "Review" in capitals was missed
        ("review 4/6 with bloods", ["4/6"]),
        ("Please draw at the lab before 12/15. Please tell pt.", ["12/15"]),
        ("BP 128/76 at visit 9/22.", ["9/22"]),
        ("Returned 3/4 from respite.", ["3/4"]),
        ("after 2/3 of the dose", []),  # a fraction of something
        ("review 2/52", []),  # two weeks
        ("| C3D1  | 4/15 | 4 | delayed 7 days", ["4/15"]),  # a chemotherapy table's cycle and day
    ],
)
def test_a_day_and_month_after_review_visit_or_before_is_a_date(text, expected):
    """The word list read "reviewed?" (review-e-d) and "returned?", so "Review 25/3" and
    "return 4/5" were never dates; and it matched only in lower case."""
    spans = run("date", text)
    assert [text[s.start : s.end] for s in spans] == expected
    assert all(s.validated for s in spans)


def test_a_day_and_a_months_name_is_a_date_whatever_the_vote():
    """"hui with whānau 2 Sept": both models missed the abbreviation and out-voted the rule."""
    text = "Plan: hui with whanau 2 Sept at school."
    spans = run("date", text)
    assert [(text[s.start : s.end], s.validated) for s in spans] == [("2 Sept", True)]


@pytest.mark.parametrize(
    "text, expected",
    [
        ("Hui held at the marae  --  Rāapa 4 Hune 2025, 10am", ["Rāapa 4 Hune 2025"]),
        ("Review hui 2 Hōngongoi 10am, same place", ["2 Hōngongoi"]),
        ("HbA1c under 64 by Mahuru.", ["Mahuru"]),  # a traditional month's name alone
        ("Rapare 12 Hepetema", ["Rapare 12 Hepetema"]),  # written without macrons
        ("Mei Lin called back", []),  # a transliterated month alone is a name as often
        ("Hune Tawhiri whānau lead", []),
    ],
)
def test_months_and_weekdays_in_te_reo_maori(text, expected):
    """Development notes 167-185 (thirteenth pass): a whānau ora plan dated in te reo."""
    assert texts("date", text) == expected


@pytest.mark.parametrize(
    "text, expected",
    [
        ("DNA. txt sent | Thurs the 5th | --", ["Thurs the 5th"]),
        ("hs-TnI 12 -> 2,840 ng/L on 11/12. TIMI risk score 4.", ["11/12"]),  # "on" makes 11/12 a day
        ("Symptoms for 3/12, review 2/52", []),  # months and weeks
    ],
)
def test_a_weekday_with_the_ordinal_and_a_day_after_on(text, expected):
    assert texts("date", text) == expected


@pytest.mark.parametrize(
    "text, expected",
    [
        # development notes 187, 217 and 225 (thirteenth pass): three writers, one form
        ("PMHx: T2DM (HbA1c 9.1% Mar-24), CKD 3a", ["Mar-24"]),
        ("Creatinine 214 -> 118 umol/L (baseline 96 Jun-24)", ["Jun-24"]),
        ("Last HIV test Feb-25 neg.", ["Feb-25"]),
        ("seen Mar-2024 in clinic", ["Mar-2024"]),
        ("Hb 12-Mar-24", ["12-Mar-24"]),  # a whole date stays whole
    ],
)
def test_a_month_and_a_two_digit_year_joined_by_a_hyphen(text, expected):
    assert texts("date", text) == expected


@pytest.mark.parametrize(
    "text, expected",
    [
        ("Pump: 46-h 5-FU CADD pump d/c'd 1/30 by the home infusion nurse", ["1/30"]),  # development note 239
        ("Port: R chest, accessed? NO (de-accessed 1/30).", ["1/30"]),
        ("upgrade per cert. Start 6/10.", ["6/10"]),
    ],
)
def test_a_day_after_what_was_done_to_a_line_or_a_pump(text, expected):
    assert texts("date", text) == expected


def test_days_in_a_blood_pressure_log_are_dates():
    """A portal message's home readings: each day and month before that day's pressure. The
    rules found none and one model alone could not carry them through the vote."""
    text = "bp log: 3/16 132/84, 3/18 128/82, 3/20 126/80, today 124/78."
    assert texts("date", text) == ["3/16", "3/18", "3/20"]
    assert [s.validated for s in run("date", text)] == [True, True, True]
    # two pairs side by side make a log without the word
    assert texts("date", "readings 14/7 138/86 and 15/7 142/90") == ["14/7", "15/7"]


@pytest.mark.parametrize(
    "text",
    [
        "pain 8/10 120/80 on arrival",  # a score then a pressure: no log
        "GCS 14/15 132/84",  # no month 14 or 15
        "Log: 3/16   132/84",  # a table's column gap
        "BP log 3/16 300/84",  # no pressure
    ],
)
def test_a_fraction_before_a_pressure_outside_a_log_is_no_date(text):
    assert texts("date", text) == []


@pytest.mark.parametrize(
    "text, expected",
    [
        ("cough a little better. see you april. -lupe", ["april"]),
        ("appt moved to 3 june, ok?", ["3 june"]),
        ("booked for october, c u then", ["october"]),
        ("on the 12th of august 2024 she fell", ["12th of august 2024"]),
    ],
)
def test_months_in_a_lower_case_message_are_dates(text, expected):
    assert texts("date", text) == expected


@pytest.mark.parametrize("text", ["dose 2 may be given later", "the 3 march past the ward", "walk for may help"])
def test_may_and_march_in_lower_case_stay_verbs(text):
    assert texts("date", text) == []


@pytest.mark.parametrize(
    "text, year",
    [("PMHx: Parkinson's disease, L hip ORIF 2023, dysphagia.", "2023"), ("G3 P2 (SVD 2017, LSCS 2021 for distress)", "2021"),
     ("CABG 2015, on aspirin.", "2015")],
)
def test_a_year_after_a_procedures_abbreviation_is_a_date_vote(text, year):
    """"LSCS 2021": one model found the year, the other did not, and with no rule beside it
    the vote dropped it, so the year of the patient's operation went out in the export."""
    spans = [s for s in run("date", text) if text[s.start : s.end] == year]
    assert len(spans) == 1 and not spans[0].validated


def test_a_year_after_capitals_that_are_no_clinical_abbreviation_is_not_a_date():
    assert texts("date", "Ref XQZ 2021 filed.") == []
    assert texts("date", "Dose TKA 2000 mg.") == []
