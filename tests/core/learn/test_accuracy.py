"""The accuracy dashboard's figures: word counts per category, model version and period,
measured on the reviewed documents of a workspace built through the real review API."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from deid_desktop.core.categories import Category
from deid_desktop.core.learn.accuracy import Tally, accuracy_on_reviewed, period_of, version_label
from deid_desktop.core.store import Workspace

from tests.core.accuracy_helpers import build

V1 = "minilm v1, rules RuleSet"
V2 = "minilm v2, rules RuleSet"


@pytest.fixture
def ws(tmp_path, monkeypatch):
    w = Workspace.open(tmp_path / "ws.sqlite")
    build(w, monkeypatch)
    yield w
    w.close()


def counts(t: Tally) -> tuple[int, int, int, int]:
    return t.tp, t.fp, t.fn, t.documents


def test_each_decision_counts_word_by_word_for_the_version_that_proposed_it(ws):
    report = accuracy_on_reviewed(ws)
    assert [v.label for v in report.versions] == [V1, V2]
    assert report.documents == 3  # the document in review is not counted
    assert report.without_detection == 1  # nor the one no detector ever looked at
    v1, v2 = report.versions
    # resize "Dr Li Wei" -> "Li Wei": 2 TP + 1 FP; Parkinson rejected, Rata relabelled: 2 FP;
    # the undecided name of the reviewed April note: 2 TP
    assert counts(v1.per_category[Category.NAME]) == (4, 3, 0, 2)
    assert counts(v1.per_category[Category.DATE]) == (3, 0, 0, 1)
    assert counts(v1.per_category[Category.LOCATION]) == (0, 0, 1, 1)  # relabelled to location
    assert counts(v1.per_category[Category.CONTACT]) == (0, 0, 3, 1)  # added by the reviewer
    assert counts(v1.overall) == (7, 3, 4, 2)
    assert v1.per_category[Category.NAME].precision == pytest.approx(4 / 7)
    assert v1.per_category[Category.CONTACT].recall == 0.0
    assert v1.per_category[Category.CONTACT].precision is None  # it proposed no contact
    # the second version saw only its own document
    assert set(v2.per_category) == {Category.NAME}
    assert counts(v2.overall) == (2, 0, 0, 1)


def test_periods_split_a_version_by_the_month_of_review(ws):
    v1, v2 = accuracy_on_reviewed(ws).versions
    assert [p.period for p in v1.periods] == ["2024-03", "2024-04"]
    march, april = v1.periods
    assert counts(march.overall) == (5, 3, 4, 1)
    assert counts(april.overall) == (2, 0, 0, 1)
    assert counts(april.per_category[Category.NAME]) == (2, 0, 0, 1)
    assert [p.period for p in v2.periods] == ["2024-03"]
    weekly = accuracy_on_reviewed(ws, period="week").versions[0]
    assert [p.period for p in weekly.periods] == ["2024-W11", "2024-W14"]


def test_the_active_model_version_is_the_one_whose_name_the_runs_record(ws):
    assert accuracy_on_reviewed(ws).active().label == V2  # none active: the latest used
    ws.activate_model_version(ws.register_model_version("v1", "/models/site/v1", {}))
    report = accuracy_on_reviewed(ws)
    assert report.active().label == V1 and report.versions[0].active


def test_few_documents_are_too_few_to_judge_and_intervals_are_wilson():
    assert Tally(tp=400, fp=10, fn=20, documents=2).too_few
    assert Tally(tp=5, fp=1, fn=1, documents=40).too_few
    sure = Tally(tp=400, fp=10, fn=20, documents=40)
    assert not sure.too_few
    lo, hi = sure.precision_interval
    assert lo < 400 / 410 < hi and hi - lo < 0.05


def test_an_empty_workspace_has_nothing_to_show(tmp_path):
    with Workspace.open(tmp_path / "empty.sqlite") as w:
        report = accuracy_on_reviewed(w)
    assert report.empty and report.active() is None and report.documents == 0


def test_labels_show_model_folders_by_their_own_name_only():
    assert version_label({"minilm": "/home/someone/models/v3", "rules": "rules"}) == "minilm v3, rules"
    assert version_label({}) == "detector not recorded"


def test_an_unknown_period_is_refused(ws):
    with pytest.raises(ValueError, match="unknown period"):
        accuracy_on_reviewed(ws, period="fortnight")
    assert period_of(datetime(2024, 12, 30, tzinfo=timezone.utc), "week") == "2025-W01"
