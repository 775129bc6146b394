"""Retraining on a tiny real model: versions, activation, rollback, cancel, the commands."""

from __future__ import annotations

import json
from argparse import Namespace

import pytest
import torch
from safetensors.torch import load_file

from deid_desktop import learn_cli
from deid_desktop.core.learn.metrics import Evaluation, Scores
from deid_desktop.core.detect.ensemble import Ensemble, EnsembleConfig
from deid_desktop.core.learn.loop import (
    SETTING_ENSEMBLE,
    RetrainOutcome,
    RetrainSettings,
    activate,
    retrain,
    workspace_ensemble_settings,
)

from tests.core.learning_helpers import add_note, open_workspace, tiny_model, write_ensemble

FAST = dict(epochs=1, augment=1, synthetic=2, heldout=0.34, min_heldout=1, batch_size=8, max_length=64)


@pytest.fixture
def ws(tmp_path, monkeypatch):
    # No shipped model may leak in: the workspace's own version is all there is.
    monkeypatch.setenv("DEID_MODELS", str(tmp_path / "no-models"))
    w = open_workspace(tmp_path)
    for i in range(6):
        add_note(w, i)
    base = w.register_model_version("base", str(tiny_model(tmp_path)), {"members": ["minilm-balanced"]})
    w.activate_model_version(base)
    w.set_setting(SETTING_ENSEMBLE, str(write_ensemble(tmp_path)))
    yield w
    w.close()


def classifier(path):
    return load_file(str(path / "model.safetensors"))["classifier.weight"]


def member_path(ws):
    overrides, weights = workspace_ensemble_settings(ws.path)
    cfg = EnsembleConfig.load(ws.get_setting(SETTING_ENSEMBLE))
    ens = Ensemble.from_config(cfg, weights=weights, model_overrides=overrides)
    return ens.describe()["members"]["minilm-balanced"]["path"]


def test_retrain_fine_tunes_the_active_model_into_a_new_inactive_version(ws):
    base = ws.active_model_version()
    steps = []
    out = retrain(ws, RetrainSettings(**FAST), progress=steps.append)
    assert out.status == "ok" and not out.activated
    assert {p.stage for p in steps} >= {"preparing", "training", "saving", "evaluating", "done"}
    train = [p for p in steps if p.stage == "training"]
    assert train[-1].done == train[-1].total and train[-1].eta_s == 0
    versions = ws.list_model_versions()
    assert [v.name for v in versions] == ["base", out.version_name]
    new = versions[-1]
    assert not new.active and ws.active_model_version().name == "base"
    assert new.parent == "base" and new.metrics["members"] == ["minilm-balanced"]
    # both models scored on the same held-out reviewed documents
    assert new.metrics["heldout"]["documents"] == new.metrics["previous"]["documents"] == 2
    assert new.metrics["train_documents"] == 4
    assert out.counts["reviewed"] == 4 and out.counts["augmented"] == 4 and out.counts["synthetic"] == 2
    assert out.counts["epochs"] == 1
    # fine-tuned from the active model: same shape, moved weights
    from pathlib import Path

    before, after = classifier(Path(base.path)), classifier(Path(new.path))
    assert before.shape == after.shape and not torch.equal(before, after)
    manifest = json.loads((Path(new.path) / "manifest.json").read_text())
    assert manifest["init_from"] == base.path
    run = ws.list_training_runs()[-1]
    assert run.status == "ok" and run.settings["last_decision_id"] == max(d.id for d in ws.decisions())
    assert sorted(run.settings["heldout_documents"] + run.settings["train_documents"]) == [r.id for r in ws.list_documents()]


def test_activation_and_rollback_change_what_detection_loads(ws):
    from deid_desktop.cli import build_detector

    base = ws.active_model_version()
    out = retrain(ws, RetrainSettings(**FAST))
    assert member_path(ws) == base.path
    weights = activate(ws, out.model_version_id)
    assert ws.active_model_version().name == out.version_name
    assert member_path(ws) == out.path
    assert weights == {"minilm-balanced": 1.0}  # re-fitted for the new model
    assert workspace_ensemble_settings(ws.path)[1] == weights
    # `deid-desktop detect --workspace W` predicts with the active version
    det = build_detector(Namespace(ensemble=ws.get_setting(SETTING_ENSEMBLE), workspace=str(ws.path)))
    assert det.describe()["members"]["minilm-balanced"]["path"] == out.path
    activate(ws, base.id)  # rollback
    assert member_path(ws) == base.path
    # back to the shipped model, of which there is none here: nothing to fit weights for,
    # and the activation still stands
    assert activate(ws, None) is None
    assert workspace_ensemble_settings(ws.path)[0] is None
    assert len(ws.list_model_versions()) == 2  # every version stays listed
    assert len(ws.ensemble_weight_history()) == 2


def test_a_cancelled_retrain_leaves_no_version(ws):
    # cancelled while training: the run is recorded as cancelled
    out = retrain(ws, RetrainSettings(**FAST), should_stop=lambda: bool(ws.list_training_runs()))
    assert out.status == "cancelled" and out.model_version_id is None
    assert [r.status for r in ws.list_training_runs()] == ["cancelled"]
    # cancelled before training started: nothing is recorded at all
    out = retrain(ws, RetrainSettings(**FAST), should_stop=lambda: True)
    assert out.status == "cancelled"
    assert len(ws.list_training_runs()) == 1
    assert [v.name for v in ws.list_model_versions()] == ["base"]


def test_nothing_to_learn_without_reviewed_documents(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("DEID_MODELS", str(tmp_path / "none"))
    w = open_workspace(tmp_path, "empty.sqlite")
    assert retrain(w, RetrainSettings(**FAST)).status == "nothing_to_learn"
    w.close()
    assert learn_cli.main(["retrain", "--workspace", str(tmp_path / "empty.sqlite"), "--progress", "none"]) == 1
    assert "no reviewed documents" in capsys.readouterr().err


def test_better_means_higher_binary_f1_then_recall():
    def m(f1, r):
        words = Scores(precision=0.0, recall=r, f1=f1, tp=0, fp=0, fn=0, support=0)
        return Evaluation(1, False, words, words, words, 0, 0.0, 0.0)

    assert RetrainOutcome("ok", metrics=m(0.8, 0.7), previous_metrics=m(0.7, 0.9)).better is True
    assert RetrainOutcome("ok", metrics=m(0.8, 0.9), previous_metrics=m(0.8, 0.7)).better is True
    assert RetrainOutcome("ok", metrics=m(0.8, 0.7), previous_metrics=m(0.8, 0.7)).better is False
    assert RetrainOutcome("ok", metrics=m(0.8, 0.7)).better is None


def test_retrain_command_reports_json_events_and_activates_only_if_better(ws, capsys):
    code = learn_cli.main(
        ["retrain", "--workspace", str(ws.path), "--augment", "0", "--synthetic", "50", "--heldout", "0.34",
         "--min-heldout", "1", "--batch-size", "8", "--max-length", "64", "--progress", "json", "--activate-if-better"]
    )
    assert code == 0
    events = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    kinds = [e["event"] for e in events]
    assert kinds[0] == "summary" and kinds[-1] == "result" and "progress" in kinds
    assert events[0]["reviewed_documents"] == 6
    result = events[-1]
    assert result["status"] == "ok" and result["activated"] == result["better"]
    # no --epochs: four short notes get the most passes the automatic choice allows
    assert result["counts"]["epochs"] == 10
    # at most one synthetic document per reviewed training document, however many were allowed
    assert result["counts"]["synthetic"] == 4
    assert ws.active_model_version().name == (result["version_name"] if result["better"] else "base")
    # no document text in the machine-readable output
    assert "Hemi" not in json.dumps(events) and "Parkinson" not in json.dumps(events)
    assert learn_cli.main(["model-versions", "--workspace", str(ws.path), "--activate", str(result["model_version_id"])]) == 0
    listing = capsys.readouterr().out
    assert result["version_name"] in listing and "yes" in listing
    assert ws.active_model_version().name == result["version_name"]
    assert learn_cli.main(["model-versions", "--workspace", str(ws.path), "--shipped"]) == 0
    assert ws.active_model_version() is None


def test_retrain_command_is_cancelled_by_its_stop_file(ws, tmp_path, capsys):
    stop = tmp_path / "stop"
    stop.write_text("")
    code = learn_cli.main(["retrain", "--workspace", str(ws.path), "--synthetic", "0", "--progress", "none", "--stop-file", str(stop)])
    assert code == 130
    assert "cancelled" in capsys.readouterr().err
    assert len(ws.list_model_versions()) == 1


def test_the_result_event_reads_back_into_an_outcome():
    """``learn retrain --json`` prints ``to_json``; whoever reads it gets the same outcome."""
    words = Scores(precision=0.5, recall=0.25, f1=1 / 3, tp=1, fp=1, fn=3, support=4)
    metrics = Evaluation(2, False, words, words, words, 3, 0.5, 0.25)
    outcome = RetrainOutcome("ok", training_run_id=4, model_version_id=7, version_name="v0003", metrics=metrics,
                             previous_metrics=metrics, counts={"total": 9}, notes=["a note"])
    event = json.loads(json.dumps(outcome.to_json()))
    assert event["better"] is False and event["metrics"]["token"]["fn"] == 3
    assert RetrainOutcome.from_json(event) == outcome


def two_member_workspace(tmp_path, monkeypatch):
    """A workspace with six reviewed notes and an ensemble of two shipped tiny members."""
    from deid_desktop.core.models.tiny import build_tiny_model

    shipped = tmp_path / "models"
    build_tiny_model(shipped / "minilm-balanced", hidden=32, layers=1, heads=2)
    build_tiny_model(shipped / "minilm-imbalanced", hidden=32, layers=1, heads=2)
    monkeypatch.setenv("DEID_MODELS", str(shipped))
    w = open_workspace(tmp_path)
    for i in range(6):
        add_note(w, i)
    body = '[ensemble]\nstrategy = "majority"\n\n'
    for name in ("minilm-balanced", "minilm-imbalanced"):
        body += f'[[member]]\nname = "{name}"\ntype = "transformer"\nmodel = "{name}"\nquantize = false\n\n'
    (tmp_path / "two.toml").write_text(body, encoding="utf-8")
    w.set_setting(SETTING_ENSEMBLE, str(tmp_path / "two.toml"))
    return w


@pytest.mark.parametrize("member, replaced, kept", [(None, "minilm-balanced", "minilm-imbalanced"), ("minilm-imbalanced", "minilm-imbalanced", "minilm-balanced")])
def test_a_retrain_from_a_shipped_member_replaces_that_member_only(tmp_path, monkeypatch, member, replaced, kept):
    """Two transformer members ship; the retrained model takes the place of the one it was
    fine-tuned from (the first, or the one ``member`` names) and the other keeps voting with
    its shipped weights (two copies of one model would outvote the rest of the ensemble)."""
    w = two_member_workspace(tmp_path, monkeypatch)

    out = retrain(w, RetrainSettings(**FAST, member=member))
    new = w.list_model_versions()[-1]
    assert new.metrics["members"] == [replaced]
    assert new.metrics["previous_model"] == replaced
    activate(w, out.model_version_id)
    overrides, _ = workspace_ensemble_settings(w.path)
    assert overrides == {replaced: out.path}
    members = Ensemble.from_config(EnsembleConfig.load(tmp_path / "two.toml"), model_overrides=overrides).describe()["members"]
    assert members[replaced]["path"] == out.path
    assert members[kept]["path"] != out.path
    # the next retrain continues from the active version and replaces the same member
    retrain(w, RetrainSettings(**FAST))
    assert w.list_model_versions()[-1].metrics["members"] == [replaced]
    w.close()


def test_too_few_reviewed_documents_to_compare_are_all_trained_on(ws):
    """A 34 % share of six documents would hold out two, fewer than the five a comparison
    needs: all six are trained on and the outcome says why nothing was compared."""
    out = retrain(ws, RetrainSettings(**{**FAST, "min_heldout": 5}))
    assert out.status == "ok"
    assert out.counts["reviewed"] == 6 and out.metrics is None
    assert any("all were trained on" in n for n in out.notes)
    run = ws.list_training_runs()[-1]
    assert run.settings["heldout_documents"] == [] and len(run.settings["train_documents"]) == 6


def test_a_member_that_is_not_in_the_ensemble_is_refused(ws):
    from deid_desktop.core.errors import ConfigError

    with pytest.raises(ConfigError, match="no-such-member"):
        retrain(ws, RetrainSettings(**FAST, member="no-such-member"))
