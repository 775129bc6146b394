"""Uncertainty of a before / after comparison on few held-out documents (no display needed)."""

from __future__ import annotations

import pytest

from deid_desktop.core.categories import Category, display_name
from deid_desktop.core.learn.metrics import Evaluation, Scores
from deid_desktop.core.learn.uncertainty import MIN_DOCUMENTS, compare, wilson_interval


def _metrics(documents: int, tp: int, fp: int, fn: int) -> Evaluation:
    # compare reads only the documents and the word counts
    words = Scores(precision=0.0, recall=0.0, f1=0.0, tp=tp, fp=fp, fn=fn, support=tp + fn)
    return Evaluation(documents, False, words, words, words, 0, 0.0, 0.0)


def test_wilson_interval_known_values_and_edges():
    assert tuple(round(x, 3) for x in wilson_interval(90, 100)) == (0.826, 0.945)
    assert wilson_interval(0, 10)[0] == 0.0
    assert wilson_interval(10, 10)[1] == pytest.approx(1.0)
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_one_document_is_never_judgeable_even_with_a_large_gap():
    c = compare(_metrics(1, 60, 30, 40), _metrics(1, 99, 1, 1))
    assert c.too_few_documents and not c.judgeable
    assert c.words == 100


def test_many_documents_with_separated_intervals_are_judgeable():
    c = compare(_metrics(MIN_DOCUMENTS, 600, 300, 400), _metrics(MIN_DOCUMENTS, 950, 20, 50))
    assert not c.within_uncertainty and c.judgeable


def test_overlapping_intervals_are_within_uncertainty():
    c = compare(_metrics(40, 60, 30, 40), _metrics(40, 61, 30, 39))
    assert c.within_uncertainty and not c.judgeable


def test_display_names_are_the_users_words():
    assert [display_name(c) for c in Category] == ["Name", "Date", "Age", "Location", "Organisation", "Contact", "ID", "Profession"]
    assert display_name("ORGANIZATION") == "Organisation"
