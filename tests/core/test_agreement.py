"""Agreement between two reviewers against figures worked out by hand."""

from __future__ import annotations

import pytest

from deid_desktop.core.adjudication import Choice, adjudicate, disagreements, resolve
from deid_desktop.core.agreement import DocumentPair, agreement, cohen_kappa, span_agreement, token_labels
from deid_desktop.core.categories import Category
from deid_desktop.core.spans import Span

TEXT = "Ann Lee saw Bob at Leeds on Monday."
#       0123456789012345678901234567890123
ANN_LEE = Span(0, 7, Category.NAME)
BOB = Span(12, 15, Category.NAME)
LEEDS = Span(19, 24, Category.LOCATION)
MONDAY = Span(28, 34, Category.DATE)
FIRST = [ANN_LEE, BOB, LEEDS]
SECOND = [ANN_LEE, LEEDS, MONDAY]


def test_kappa_and_span_figures_match_the_worked_example():
    # Words:     Ann Lee saw Bob at Leeds on Monday   (8 tokens)
    # First:     N   N   O   N   O  L     O  O
    # Second:    N   N   O   O   O  L     O  D
    # Agreement on 6 of 8 words: po = 6/8 = 0.75.
    # Label counts, first: N 3, O 4, L 1; second: N 2, O 4, L 1, D 1.
    # pe = (3·2 + 4·4 + 1·1 + 0·1) / 8² = 23/64.
    # kappa = (48/64 − 23/64) / (1 − 23/64) = 25/41 ≈ 0.6098.
    assert token_labels(TEXT, FIRST) == ["NAME", "NAME", "O", "NAME", "O", "LOCATION", "O", "O"]
    report = agreement([DocumentPair(TEXT, FIRST, SECOND)])
    assert report.documents == 1
    assert report.kappa.tokens == 8
    assert report.kappa.observed == pytest.approx(0.75)
    assert report.kappa.expected == pytest.approx(23 / 64)
    assert report.kappa.value == pytest.approx(25 / 41)

    # NAME or not: first N N O N O O O O (3 N), second N N O O O O O O (2 N).
    # po = 7/8; pe = (3·2 + 5·6)/64 = 36/64; kappa = (56 − 36)/(64 − 36) = 20/28 = 5/7.
    assert report.kappa_by_category[Category.NAME].value == pytest.approx(5 / 7)
    # LOCATION: the same single word on both sides, kappa 1.
    assert report.kappa_by_category[Category.LOCATION].value == pytest.approx(1.0)
    # DATE: the first never says DATE: po = 7/8, pe = (0·1 + 8·7)/64 = 7/8, kappa = 0.
    assert report.kappa_by_category[Category.DATE].value == pytest.approx(0.0)

    # Spans: {Ann Lee, Bob, Leeds} against {Ann Lee, Leeds, Monday}: 2 match.
    # precision = 2/3 (of the second's), recall = 2/3 (of the first's), F1 = 2/3.
    assert report.spans.matched == 2
    assert report.spans.precision == pytest.approx(2 / 3)
    assert report.spans.recall == pytest.approx(2 / 3)
    assert report.spans.f1 == pytest.approx(2 / 3)
    # NAME: first 2 spans, second 1, matched 1: precision 1, recall 1/2.
    name = report.spans_by_category[Category.NAME]
    assert (name.precision, name.recall) == (pytest.approx(1.0), pytest.approx(0.5))
    # DATE: only the second marked one: precision 0/1, recall undefined (nothing to find).
    date = report.spans_by_category[Category.DATE]
    assert (date.precision, date.recall) == (0.0, None)

    as_json = report.to_json()
    assert as_json["overall"]["kappa"] == round(25 / 41, 4)
    assert as_json["categories"]["DATE"]["recall"] is None
    assert "Ann" not in str(as_json)  # counts only, never text


def test_pooled_documents_count_every_word_once():
    # Two copies of the example: the same proportions, so the same kappa; counts double.
    report = agreement([DocumentPair(TEXT, FIRST, SECOND)] * 2)
    assert report.kappa.tokens == 16
    assert report.kappa.value == pytest.approx(25 / 41)
    assert (report.spans.first, report.spans.second, report.spans.matched) == (6, 6, 4)


def test_kappa_is_undefined_when_chance_explains_everything():
    # Both say O for every word: po = pe = 1, (po − pe)/(1 − pe) is 0/0.
    assert cohen_kappa(["O"] * 5, ["O"] * 5).value is None
    # Perfect agreement with two labels is kappa 1.
    assert cohen_kappa(["O", "NAME"], ["O", "NAME"]).value == pytest.approx(1.0)
    assert span_agreement([], []).precision is None
    with pytest.raises(ValueError):
        cohen_kappa(["O"], [])


def test_disagreements_group_overlapping_spans_and_pass_agreed_ones():
    split = [Span(0, 3, Category.NAME), Span(4, 7, Category.NAME)]  # "Ann" and "Lee" apart
    found, agreed = disagreements([ANN_LEE, BOB, LEEDS], [*split, LEEDS, MONDAY])
    assert [d.key for d in found] == [(0, 7), (12, 15), (28, 34)]
    assert found[0].first == (ANN_LEE,) and found[0].second == tuple(split)
    assert agreed == [LEEDS]
    assert found[1].context(TEXT, 4) == ("saw ", "Bob", " at ")


def test_adjudicated_spans_are_the_agreed_ones_plus_each_choice():
    found, _ = disagreements(FIRST, SECOND)
    bob, monday = found
    partial = adjudicate(FIRST, SECOND, [resolve(bob, Choice.FIRST)])
    assert not partial.complete and [d.key for d in partial.open] == [monday.key]
    with pytest.raises(ValueError):
        partial.spans()
    edited = Span(28, 34, Category.DATE, "OTHER")
    done = adjudicate(
        FIRST, SECOND,
        [resolve(bob, Choice.NEITHER), resolve(bob, Choice.FIRST), resolve(monday, Choice.EDIT, [edited])],
    )
    assert done.complete
    # the later choice for Bob (first reviewer's) replaced "neither"
    assert done.spans() == [ANN_LEE, BOB, LEEDS, edited]
    with pytest.raises(ValueError, match="inside"):
        resolve(monday, Choice.EDIT, [Span(20, 34, Category.DATE)])
