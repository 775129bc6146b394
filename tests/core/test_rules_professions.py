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
