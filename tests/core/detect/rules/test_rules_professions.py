"""Occupations after words that say someone does the job."""

from __future__ import annotations

import pytest

from .rules_helpers import run, texts


@pytest.mark.parametrize(
    "text, expected",
    [
        ("He works as a plumber in town.", "plumber"),
        ("Occupation: Teacher", "Teacher"),
        ("Retired builder, lives alone.", "builder"),
        ("She was a taxi driver for years.", "taxi driver"),
        ("Employed as a software engineer.", "software engineer"),
        ("Former police officer.", "police officer"),
        ("Now volunteers as a\nbarista at the church op shop.", "barista"),
    ],
)
def test_professions_with_context(text, expected):
    assert texts("profession", text) == [expected]


@pytest.mark.parametrize(
    "text, expected",
    [
        ("58M, bus driver with Translink, T2DM", ["bus driver"]),
        ("34 yo M, forestry worker from Tokoroa", ["forestry worker"]),
        ("72-year-old man, welder, ex-smoker", ["welder"]),
        ("66M, ex-haul truck driver (mine)", ["haul truck driver"]),  # the "ex-" context reads it
        ("67M, carer for his wife", []),  # what he does for someone
        ("45F, smoker, lives alone", []),
        ("History: 34F, primary school teacher, 6/52 fatigue.", ["primary school teacher"]),
    ],
)
def test_a_job_after_a_patients_age_and_sex_is_found(text, expected):
    """A description line ("58M, bus driver with Translink"): before, nothing said the words
    were a job, and one model's reading was out-voted."""
    assert texts("profession", text) == expected


def test_a_label_scores_higher_than_is_a():
    (label,) = run("profession", "Occupation: nurse")
    (weak,) = run("profession", "She is a nurse.")
    assert label.score > weak.score


@pytest.mark.parametrize(
    "text",
    ["Retired to bed early.", "He is a 45 year old man.", "Nurse Smith reviewed.", "Former smoker.", "The plumber's bill."],
)
def test_no_profession_without_context(text):
    assert texts("profession", text) == []


@pytest.mark.parametrize(
    "text, expected",
    [
        # jobs in no list: after a label or "works as a", the phrase is the job
        ("Hx: Works as a fly-in fly-out underground jumbo operator (2 wks on / 1 wk off) at the mine",
         "fly-in fly-out underground jumbo operator"),
        ("Occupation: forestry skid worker / log loader    Employer: Kaingaroa Ltd", "forestry skid worker / log loader"),
        ("Worked as a shrimp boat deckhand. First admission at 22.", "shrimp boat deckhand"),
        ("Works as a barista at a cafe in town.", "barista"),
        ("Social: lives alone. Occ: embalmer.", "embalmer"),  # the short label left it in an export
    ],
)
def test_jobs_in_no_list_are_found_after_a_label_or_works_as(text, expected):
    (span,) = run("profession", text)
    assert text[span.start : span.end] == expected
    assert span.validated  # the wording proves it: the models may not out-vote it


@pytest.mark.parametrize(
    "text",
    ["Occupation: unemployed", "Occupation: N/A", "Occupation: retired", "Job: none", "Employment: full time",
     "They work as a team with the nurses.", "Job: 2 days a week.", "Occ: nil", "Occ: 2"],
)
def test_labels_that_name_no_job_give_none(text):
    assert texts("profession", text) == []


@pytest.mark.parametrize(
    "text, expected",
    [
        # a listed job or a generic head, with the words of the job before it
        ("Mr K is a retired mail carrier, lives with his wife.", ["mail carrier"]),
        ("She is a hospital laundry supervisor on night shifts.", ["hospital laundry supervisor"]),
        ("Ex-fisherman and cannery worker, now on a pension.", ["fisherman", "cannery worker"]),
        ("Used to be a vineyard tractor operator.", ["vineyard tractor operator"]),
        ("Former cafe owner; sold the business in 2019.", ["cafe owner"]),
        ("He used to be a drovers' cook up north.", ["drovers' cook"]),
    ],
)
def test_jobs_ending_in_a_job_word_are_taken_with_their_modifiers(text, expected):
    spans = run("profession", text)
    assert [text[s.start : s.end] for s in spans] == expected
    assert all(s.validated for s in spans)  # the models rarely say PROFESSION: they may not out-vote it


@pytest.mark.parametrize(
    "text",
    [
        "She is a hard worker at school.",
        "He is a carrier of the familial variant.",
        "Smoking is a key driver of his symptoms.",
        "This is a doctor's note for work.",
        "Former heavy smoker, quit 2015.",
        "He was a passenger in the car.",
        "She is a dog owner.",
    ],
)
def test_a_job_word_without_a_job_gives_none(text):
    assert texts("profession", text) == []


def test_an_adverb_between_works_and_as_still_opens_the_job():
    text = "He works occasionally as a ski lift attendant in winter."
    assert texts("profession", text) == ["ski lift attendant"]


def test_a_good_cook_keeps_only_the_job():
    assert texts("profession", "She is a good cook and a keen gardener.") == ["cook"]


@pytest.mark.parametrize(
    "text, expected",
    [
        ("Mum (she's a line supervisor) collected her", ["line supervisor"]),
        ("i work nights i am packer there", ["packer"]),
        ("Role: HGV class 2 driver (days)", ["HGV class 2 driver"]),
        ("Works as a\n  lorry mechanic at the depot", ["lorry mechanic"]),
        ("says he is a\n   road crew foreman, away a lot", ["road crew foreman"]),
    ],
)
def test_jobs_after_am_shes_a_role_and_a_line_break(text, expected):
    assert texts("profession", text) == expected


@pytest.mark.parametrize("text", ["Spoke to Dr Roe's nurse about the dressing", "Position: supine, arms by side"])
def test_a_possessive_or_a_position_is_no_job_context(text):
    assert texts("profession", text) == []


def test_a_forms_post_label_names_the_job_and_post_op_does_not():
    text = "Post: Band 5 staff nurse, Leighton Hospital"
    assert [text[s.start : s.end] for s in run("profession", text)] == ["Band 5 staff nurse"]
    assert run("profession", "Post-op day 2: mobilising with physio") == []


def test_a_retired_magistrate_is_a_job():
    text = "this 76 year old retired magistrate with breathlessness"
    assert [text[s.start : s.end] for s in run("profession", text)] == ["magistrate"]


@pytest.mark.parametrize(
    "text, expected",
    [
        ("NOK:      son Christos (plumber) 0412 506 883", ["plumber"]),
        ("Daughter Mai Okafor (29, pharmacy technician) also on HIPAA release.", ["pharmacy technician"]),
        ("lives with wife Halina (part-time school cook).", ["school cook"]),
        ("Mum -- Hineāmaru Paewai (meat-works labourer, night shift)", ["meat-works labourer"]),
        ("older sister Tiare (19, early childhood teacher) helps.", ["early childhood teacher"]),
        ("he's a\n  farrier, on his feet all day", ["farrier"]),  # a trade the list did not have
        ("son Tom (see plumber's quote)", []),  # the bracket says something else
        ("Sister Jones (nurse) reviewed the wound", []),  # a ward sister and her role, no relative
        ("son Ari (7) and daughter (12)", []),  # ages, no job
        ("husband Huy (primary caregiver; long-haul truck driver)", []),  # what he does for her
    ],
)
def test_a_relatives_job_in_brackets_after_them_is_found(text, expected):
    """Social histories name a relative and put the job in brackets: "son Christos (plumber)".
    Nothing said those words were a job, so the one model that read one was out-voted."""
    assert texts("profession", text) == expected


@pytest.mark.parametrize(
    "text, expected",
    [
        # a social history that opens with the job and says where
        ("Scaffolder, Kaiwaka Access Scaffolding. Injured at work.", ["Scaffolder"]),
        ("Barista at Fern and Flat White, Paekakariki. Rolled ankle.", ["Barista"]),
        ("Teacher at Rangiora High School, off work 2/52.", ["Teacher"]),
        # the jobs of those who treat are no social history
        ("Nurse at bedside reports pt settled.", []),
        ("Physiotherapist, Ward 7 review booked.", []),
        # a social history's label, an age before the job, a relative named before it, "later"
        ("Social history: Barista. Lives alone.", ["Barista"]),
        ("HISTORY: 44-year-old right-handed commercial drywall finisher, with Brightline Interiors", ["commercial drywall finisher"]),
        ("Her mother Chiamaka, a ward sister at Dawley Community Hospital, attended.", ["ward sister"]),
        ("son Tomasz, a\n  long-distance lorry driver, is home at weekends", ["long-distance lorry driver"]),
        ("Ex-shearer, later school caretaker. Widowed.", ["shearer", "school caretaker"]),
        # without a relative or a job word there is nothing to find
        ("Dr Okafor, a surgeon at Lakes, reviewed him.", []),
        ("a 35-year-old with asthma", []),
        ("Social: lives with wife, independent.", []),
    ],
)
def test_a_job_opening_a_social_history_or_after_a_relatives_name_is_found(text, expected):
    """Dev notes of the twelfth pass: "Scaffolder, Kāpiti Access Scaffolding", "a 44-year-old
    right-handed commercial drywall finisher", "Her mother ..., a ward sister" were missed."""
    spans = run("profession", text)
    assert [text[s.start : s.end] for s in spans] == expected
    assert all(s.validated for s in spans)


@pytest.mark.parametrize(
    "text, expected",
    [
        ("Her granddaughter shaye (a vet nurse in Warkworth) asked to be copied in", ["vet nurse"]),
        ("travelling behind with son Padraig (44), an HGV driver for Dalesway Haulage", ["HGV driver"]),
        ("she is an ICU nurse on nights", ["ICU nurse"]),
        ("son Tom (see plumber in town)", []),  # the bracket says something else
    ],
)
def test_a_relatives_job_with_its_article_place_age_or_licence(text, expected):
    assert texts("profession", text) == expected


@pytest.mark.parametrize(
    "text, expected",
    [
        ("NEIGHBOR LAST SAW PT WELL. PT IS A RETIRED COAL MINE ELECTRICIAN, LIVES ALONE.", ["COAL MINE ELECTRICIAN"]),
        ("her mum Agnieszka, who works nights as a\n  care assistant at Hollins Brook Care Home", ["care assistant"]),
        ("PT IS A KNOWN ASTHMATIC, NO HOME O2.", []),
    ],
)
def test_jobs_in_a_note_written_in_capitals_and_after_works_nights_as(text, expected):
    assert texts("profession", text) == expected


@pytest.mark.parametrize(
    "text, expected",
    [
        ("Income: Centrelink DSP. Previously forklift operator at Westgate Cold Chain", ["forklift operator"]),
        ("Lives alone; daughter Agnieszka Frost\n(domiciliary care worker) visits daily", ["domiciliary care worker"]),
    ],
)
def test_previously_without_an_article_and_a_relatives_job_on_the_next_line(text, expected):
    assert texts("profession", text) == expected


@pytest.mark.parametrize(
    "text, expected",
    [
        # development notes 167-185 (thirteenth pass)
        ("Mother Itzel Quispe, 34, dental hygienist, on parental leave", ["dental hygienist"]),  # name, age, job
        ("daughter Shandiin (respiratory therapist, cell 218-555-0178)", ["respiratory therapist"]),
        ("Registered GP  Nether Brook Practice\nOccupation  HGV driver (nights)\n", ["HGV driver"]),  # a form's column
        ("Despina (72) is main carer, sleeping poorly.", []),  # who cares for him, not a job
        ("Mother Jane, 34, and baby", []),
    ],
)
def test_a_relatives_job_after_name_and_age_a_forms_column_and_a_main_carer(text, expected):
    assert texts("profession", text) == expected


@pytest.mark.parametrize(
    "text, expected",
    [
        ("Clinical details (as provided):\n45M scaffolder. 6/52 L buttock pain", ["scaffolder"]),  # development note 201
        ("45M presented with chest pain", []),
    ],
)
def test_a_job_after_an_age_and_a_sex_in_capitals(text, expected):
    assert texts("profession", text) == expected


def test_a_forms_occ_column():
    """Development note 221 (thirteenth pass): an ambulance record's "OCC" label."""
    assert texts("profession", "PCP    Dr Aurelie Ngata-Brunel\nOCC    orchard supervisor (Totara Flats Kiwifruit)") == ["orchard supervisor"]
