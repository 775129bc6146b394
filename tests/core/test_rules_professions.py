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
    ],
)
def test_professions_with_context(text, expected):
    assert texts("profession", text) == [expected]


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
    ],
)
def test_jobs_in_no_list_are_found_after_a_label_or_works_as(text, expected):
    (span,) = run("profession", text)
    assert text[span.start : span.end] == expected
    assert span.validated  # the wording proves it: the models may not out-vote it


@pytest.mark.parametrize(
    "text",
    ["Occupation: unemployed", "Occupation: N/A", "Occupation: retired", "Job: none", "Employment: full time",
     "They work as a team with the nurses.", "Job: 2 days a week."],
)
def test_labels_that_name_no_job_give_none(text):
    assert texts("profession", text) == []
