"""Merging the spans of one member: extents, scores and what stays validated."""

from __future__ import annotations

from deid_desktop.core.categories import Category
from deid_desktop.core.spans import Span, merge_overlapping

TEXT = "GP: Dr Zbiciak, Tasman Hospital"


def at(value: str) -> tuple[int, int]:
    i = TEXT.index(value)
    return i, i + len(value)


def test_overlapping_spans_of_one_category_merge_to_their_union():
    a = Span(*at("Zbiciak"), Category.NAME, "DOCTOR", 0.8, "r")
    b = Span(*at("Zbiciak, Tasman"), Category.NAME, "OTHER", 0.9, "r")
    (merged,) = merge_overlapping([a, b], TEXT)
    assert (TEXT[merged.start : merged.end], merged.score) == ("Zbiciak, Tasman", 0.9)


def test_a_validated_span_does_not_vouch_for_the_longer_guess_merged_with_it():
    sure = Span(*at("Zbiciak"), Category.NAME, "DOCTOR", 0.8, "r", validated=True)
    guess = Span(*at("Zbiciak, Tasman"), Category.NAME, "OTHER", 0.9, "r")
    (merged,) = merge_overlapping([sure, guess], TEXT)
    assert not merged.validated  # else the vote could not give "Tasman" to the hospital


def test_a_validated_span_that_covers_the_merge_keeps_it_validated():
    whole = Span(*at("Zbiciak, Tasman"), Category.NAME, "OTHER", 0.9, "r", validated=True)
    part = Span(*at("Tasman"), Category.NAME, "OTHER", 0.7, "r")
    (merged,) = merge_overlapping([part, whole], TEXT)
    assert merged.validated
    both = [Span(*at("Zbiciak"), Category.NAME, "DOCTOR", 0.8, "r", validated=True),
            Span(*at("Tasman"), Category.NAME, "DOCTOR", 0.8, "r", validated=True)]
    assert [m.validated for m in merge_overlapping(both, TEXT, join_gap=", ")] == [True]
