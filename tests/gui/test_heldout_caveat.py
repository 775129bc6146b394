"""The retrain dialog says on how many held-out documents its before / after figures rest,
with 95% intervals, and when that is too little to judge."""

from __future__ import annotations

import copy

import pytest

from deid_desktop.core.learn.metrics import Evaluation
from deid_desktop.core.learn.uncertainty import compare, wilson_interval
from deid_desktop.gui.learning import RetrainDialog

from .test_dialogs_fit import RESULT

pytestmark = pytest.mark.gui


def test_wilson_interval_matches_the_published_values():
    lo, hi = wilson_interval(90, 100)
    assert (round(lo, 3), round(hi, 3)) == (0.826, 0.945)
    assert wilson_interval(0, 10)[0] == 0.0 and wilson_interval(10, 10)[1] == pytest.approx(1.0)
    assert wilson_interval(0, 0) == (0.0, 1.0)


def _result(documents: int, tp_after: int, words: int) -> dict:
    r = copy.deepcopy(RESULT)
    for key in ("metrics", "previous_metrics"):
        r[key]["documents"] = documents
    before, after = r["previous_metrics"]["token"], r["metrics"]["token"]
    before.update(tp=int(words * 0.6), fn=words - int(words * 0.6), fp=int(words * 0.3))
    after.update(tp=tp_after, fn=words - tp_after, fp=int(words * 0.02))
    return r


def test_one_held_out_document_is_too_few_to_judge(qtbot, workspace):
    dlg = RetrainDialog(workspace)
    qtbot.addWidget(dlg)
    dlg.show_result(_result(1, 95, 100))
    text = dlg.caveat.text()
    assert dlg.caveat.isVisibleTo(dlg)
    assert "1 held-out document (100 PHI words)" in text and "95% intervals" in text
    lo, hi = wilson_interval(95, 100)
    assert f"after {lo:.2f}–{hi:.2f}" in text
    assert "Too few held-out documents to judge" in text
    assert "too little data" in dlg.verdict.text()
    assert "1 held-out reviewed document" in dlg.result_box.title()


def test_many_documents_with_a_clear_difference_are_judged(qtbot, workspace):
    dlg = RetrainDialog(workspace)
    qtbot.addWidget(dlg)
    dlg.show_result(_result(40, 3800, 4000))
    assert compare(Evaluation.from_dict(dlg.result["previous_metrics"]), Evaluation.from_dict(dlg.result["metrics"])).judgeable
    assert "Too few" not in dlg.caveat.text() and "overlap" not in dlg.caveat.text()
    assert "too little data" not in dlg.verdict.text()


def test_overlapping_intervals_are_called_indistinguishable(qtbot, workspace):
    r = _result(40, 61, 100)  # 0.61 vs 0.60 recall on 100 words
    r["metrics"]["token"]["fp"] = r["previous_metrics"]["token"]["fp"]
    dlg = RetrainDialog(workspace)
    qtbot.addWidget(dlg)
    dlg.show_result(r)
    assert "cannot tell the two models apart" in dlg.caveat.text()
