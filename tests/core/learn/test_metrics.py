from __future__ import annotations

import json

import pytest

from deid_desktop.core.categories import Category
from deid_desktop.core.learn.gold import GoldDocument
from deid_desktop.core.learn.metrics import Evaluation, age_value, evaluate, format_table
from deid_desktop.core.spans import Span

TEXT = "Mary Smith saw Dr Jones on 3/4/2020 in Boston."


def at(text: str, piece: str, category: Category) -> Span:
    start = text.index(piece)
    return Span(start, start + len(piece), category)


@pytest.fixture()
def case():
    gold = GoldDocument(
        "a",
        TEXT,
        [
            at(TEXT, "Mary Smith", Category.NAME),
            at(TEXT, "Jones", Category.NAME),
            at(TEXT, "3/4/2020", Category.DATE),
            at(TEXT, "Boston", Category.LOCATION),
        ],
    )
    pred = [
        at(TEXT, "Mary", Category.NAME),  # half of a name
        at(TEXT, "Dr Jones", Category.NAME),  # the title too: one false word, boundary miss
        at(TEXT, "3/4/2020", Category.DATE),  # exact
        at(TEXT, "Boston", Category.ORGANIZATION),  # found, wrong category
    ]
    return gold, pred


def test_binary_word_scores_count_phi_regardless_of_category(case):
    gold, pred = case
    r = evaluate([gold], [pred])
    t = r.token
    # gold PHI words: Mary Smith Jones 3 4 2020 Boston = 7; found: all but Smith; extra: Dr
    assert (t.tp, t.fp, t.fn, t.support) == (6, 1, 1, 7)
    assert t.precision == pytest.approx(6 / 7)
    assert t.recall == pytest.approx(6 / 7)
    assert t.f1 == pytest.approx(6 / 7)


def test_typed_word_scores_need_the_right_category(case):
    gold, pred = case
    t = evaluate([gold], [pred]).typed_token
    # Boston as ORGANIZATION is both a miss of LOCATION and a false ORGANIZATION
    assert (t.tp, t.fp, t.fn) == (5, 2, 2)
    assert t.precision == pytest.approx(5 / 7)
    assert t.recall == pytest.approx(5 / 7)


def test_strict_entities_need_exact_offsets_and_label(case):
    gold, pred = case
    e = evaluate([gold], [pred]).entity
    assert (e.tp, e.fp, e.fn) == (1, 3, 3)
    assert e.precision == pytest.approx(0.25)
    assert e.recall == pytest.approx(0.25)


def test_span_recall_with_at_least_one_word(case):
    gold, pred = case
    r = evaluate([gold], [pred])
    assert r.spans == 4
    assert r.span_recall_any_token == pytest.approx(1.0)
    assert r.span_recall_all_tokens == pytest.approx(0.75)  # Smith was missed


def test_per_category_figures(case):
    gold, pred = case
    pc = evaluate([gold], [pred]).per_category
    assert pc["NAME"].tokens == 3 and pc["NAME"].spans == 2
    assert pc["NAME"].token_recall == pytest.approx(2 / 3)
    assert pc["NAME"].typed_precision == pytest.approx(2 / 3)  # Mary, Jones right; Dr wrong
    assert pc["LOCATION"].token_recall == pytest.approx(1.0)
    assert pc["LOCATION"].typed_recall == pytest.approx(0.0)
    assert pc["DATE"].entity_f1 == pytest.approx(1.0)
    assert pc["ORGANIZATION"].tokens == 0 and pc["ORGANIZATION"].typed_precision == 0.0
    assert "AGE" not in pc


def test_perfect_prediction_scores_one_and_empty_prediction_scores_zero(case):
    gold, _ = case
    perfect = evaluate([gold], [list(gold.spans)])
    assert perfect.token.f1 == 1.0 and perfect.entity.f1 == 1.0
    nothing = evaluate([gold], [[]])
    assert nothing.token.recall == 0.0 and nothing.token.precision == 0.0
    assert nothing.span_recall_any_token == 0.0


def test_predictions_matched_by_document_id():
    a = GoldDocument("a", "Seen by Ann.", [Span(8, 11, Category.NAME)])
    b = GoldDocument("b", "No names here.", [])
    preds = [
        {"id": "b", "spans": []},
        {"id": "a", "spans": [{"start": 8, "end": 11, "label": "NAME"}]},
    ]
    assert evaluate([a, b], preds).entity.tp == 1
    with pytest.raises(ValueError):
        evaluate([a, b], [[]])


def test_only_ages_over_89():
    text = "Aged 45, her father aged 92 died; grandmother one hundred and one."
    gold = GoldDocument(
        "g",
        text,
        [at(text, "45", Category.AGE), at(text, "92", Category.AGE), at(text, "one hundred and one", Category.AGE)],
    )
    pred = [at(text, "45", Category.AGE), at(text, "one hundred and one", Category.AGE)]
    everything = evaluate([gold], [pred])
    assert everything.entity.tp == 2 and everything.entity.fn == 1
    old_only = evaluate([gold], [pred], only_ages_over_89=True)
    # 45 leaves gold and its prediction is not counted; 92 and 101 remain
    assert (old_only.entity.tp, old_only.entity.fp, old_only.entity.fn) == (1, 0, 1)
    assert old_only.per_category["AGE"].spans == 2
    assert old_only.only_ages_over_89 is True


def test_age_values_in_words_and_digits():
    assert age_value("92yo") == 92
    assert age_value("ninety-one") == 91
    assert age_value("eighty nine") == 89
    assert age_value("one hundred and one") == 101
    assert age_value("elderly") is None


def test_format_table_shows_the_figures(case):
    gold, pred = case
    table = format_table(evaluate([gold], [pred], only_ages_over_89=True))
    assert "PHI words" in table and "Entities (strict)" in table
    assert "0.8571" in table  # 6/7
    assert "NAME" in table and "LOCATION" in table
    assert "89" in table
    # The table reports figures, never document text.
    assert "Boston" not in table and "Mary" not in table


def test_the_json_form_keeps_the_written_keys_and_reads_back(case):
    """Model manifests, the workspace and ``evaluate --json`` hold this form: its keys and
    their order are the file format."""
    gold, pred = case
    r = evaluate([gold], [pred])
    d = r.to_dict()
    assert list(d) == ["documents", "only_ages_over_89", "token", "typed_token", "entity", "spans",
                       "span_recall_any_token", "span_recall_all_tokens", "per_category"]
    assert list(d["token"]) == ["precision", "recall", "f1", "tp", "fp", "fn", "support"]
    assert list(d["per_category"]["NAME"]) == [
        "tokens", "spans", "token_recall", "typed_precision", "typed_recall", "typed_f1",
        "entity_precision", "entity_recall", "entity_f1", "span_recall_any_token"]
    assert Evaluation.from_dict(json.loads(json.dumps(d))) == r
