"""Incremental ensemble weights (002): re-fitted in closed form on recent reviewed documents."""

from __future__ import annotations

import pytest

from deid_desktop import learn_cli
from deid_desktop.core.detect.ensemble import Ensemble
from deid_desktop.core.learn.loop import (
    SETTING_ENSEMBLE,
    SETTING_REFIT_EVERY,
    maybe_refit_weights,
    refit_weights,
    workspace_ensemble_settings,
)

from tests.core.learning_helpers import NAMES, add_note, open_workspace


@pytest.fixture
def ws(tmp_path, monkeypatch):
    """Two deterministic members: a staff list that matches the reviewers' names, and a list
    of words reviewers never marked. The fit must trust the first."""
    monkeypatch.setenv("DEID_MODELS", str(tmp_path / "no-models"))
    good = tmp_path / "staff.txt"
    good.write_text("".join(f"NAME\t{n}\n" for n in NAMES), encoding="utf-8")
    bad = tmp_path / "noise.txt"
    bad.write_text("NAME\tParkinson\nNAME\tFoley\nNAME\tPlan\n", encoding="utf-8")
    cfg = tmp_path / "soft.toml"
    cfg.write_text(
        '[ensemble]\nstrategy = "soft_vote"\nthreshold = 0.5\n\n'
        f'[[member]]\nname = "staff"\ntype = "allow_deny"\ndeny_file = "{good}"\nweight = 0.5\n\n'
        f'[[member]]\nname = "noise"\ntype = "allow_deny"\ndeny_file = "{bad}"\nweight = 0.5\n',
        encoding="utf-8",
    )
    w = open_workspace(tmp_path)
    w.set_setting(SETTING_ENSEMBLE, str(cfg))
    yield w
    w.close()


def test_refit_trusts_the_member_that_agrees_with_the_reviewers(ws):
    for i in range(4):
        add_note(ws, i)
    weights = refit_weights(ws)
    assert set(weights) == {"staff", "noise"}
    assert sum(weights.values()) == pytest.approx(1.0)
    assert weights["staff"] > 0.9 > 0.1 > weights["noise"]
    (when, saved, n_docs), = ws.ensemble_weight_history()
    assert saved == weights and n_docs == 4


def test_the_fitted_weights_are_what_detection_in_the_workspace_uses(ws):
    for i in range(3):
        add_note(ws, i)
    text = "Plan agreed with Dr Hemi Walker.\n"
    equal = Ensemble.from_config(ws.get_setting(SETTING_ENSEMBLE))
    # with equal weights either member alone reaches the threshold
    assert {text[s.start : s.end] for s in equal.detect(text)} == {"Plan", "Hemi Walker"}
    refit_weights(ws)
    overrides, weights = workspace_ensemble_settings(ws.path)
    assert overrides is None
    fitted = Ensemble.from_config(ws.get_setting(SETTING_ENSEMBLE), weights=weights)
    assert {text[s.start : s.end] for s in fitted.detect(text)} == {"Hemi Walker"}


def test_refit_uses_only_the_most_recent_reviewed_documents(ws):
    for i in range(5):
        add_note(ws, i)
    refit_weights(ws, recent=2)
    assert ws.ensemble_weight_history()[-1][2] == 2


def test_automatic_refit_after_every_n_newly_reviewed_documents(ws):
    add_note(ws, 0)
    assert maybe_refit_weights(ws) is None  # off unless the workspace asks for it
    ws.set_setting(SETTING_REFIT_EVERY, 3)
    add_note(ws, 1)
    assert maybe_refit_weights(ws) is None  # 2 reviewed, fewer than 3
    add_note(ws, 2)
    assert maybe_refit_weights(ws) is not None
    add_note(ws, 3)
    assert maybe_refit_weights(ws) is None  # 1 since the last fit
    add_note(ws, 4)
    add_note(ws, 5)
    assert maybe_refit_weights(ws) is not None
    assert [n for _, _, n in ws.ensemble_weight_history()] == [3, 6]


def test_refit_command(ws, capsys):
    assert learn_cli.main(["refit-weights", "--workspace", str(ws.path)]) == 1  # nothing reviewed yet
    add_note(ws, 0)
    assert learn_cli.main(["refit-weights", "--workspace", str(ws.path), "--every", "5"]) == 0
    assert "staff=" in capsys.readouterr().out
    assert ws.get_setting(SETTING_REFIT_EVERY) == 5


@pytest.fixture
def ws_two_specialists(tmp_path, monkeypatch):
    """Two members, each precise on one category and wrong on the other: 'staff' finds the
    reviewers' names but calls "Plan" a date; 'dates' finds the dates but calls "Ward" a name."""
    from tests.core.learning_helpers import note_text

    monkeypatch.setenv("DEID_MODELS", str(tmp_path / "no-models"))
    staff = tmp_path / "staff.txt"
    staff.write_text("".join(f"NAME\t{n}\n" for n in NAMES) + "DATE\tPlan\n", encoding="utf-8")
    dates = tmp_path / "dates.txt"
    dates.write_text("NAME\tWard\n" + "".join(f"DATE\t{10 + i}/03/2024\n" for i in range(18)), encoding="utf-8")
    cfg = tmp_path / "soft.toml"
    cfg.write_text(
        '[ensemble]\nstrategy = "soft_vote"\nthreshold = 0.5\n\n'
        f'[[member]]\nname = "staff"\ntype = "allow_deny"\ndeny_file = "{staff}"\nweight = 0.5\n\n'
        f'[[member]]\nname = "dates"\ntype = "allow_deny"\ndeny_file = "{dates}"\nweight = 0.5\n',
        encoding="utf-8",
    )
    w = open_workspace(tmp_path)
    w.set_setting(SETTING_ENSEMBLE, str(cfg))
    yield w, note_text(9)[0]
    w.close()


def test_refit_learns_per_category_weights_and_detection_in_the_workspace_uses_them(ws_two_specialists):
    from deid_desktop.core.learn.workspace_detector import workspace_detector

    ws, text = ws_two_specialists
    for i in range(8):
        add_note(ws, i)
    before = {text[s.start : s.end] for s in workspace_detector(ws).detect_many([text])[0]}
    # the overall weights are 0.5 each, so either member alone carries a word
    assert {"Plan", "Ward"} <= before
    refit_weights(ws)
    by_cat = ws.ensemble_category_weights()
    assert by_cat["staff"]["NAME"] > 0.9 and by_cat["dates"]["DATE"] > 0.9
    assert by_cat["staff"]["DATE"] < 0.1 and by_cat["dates"]["NAME"] < 0.1
    after = {text[s.start : s.end] for s in workspace_detector(ws).detect_many([text])[0]}
    assert "Plan" not in after and "Ward" not in after
    assert {"Aroha Ngata", "19/03/2024"} <= after
