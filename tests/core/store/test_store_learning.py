"""What the learning loop keeps: model versions with rollback, training runs, weights, settings."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from deid_desktop.core.store import RecordNotFound, Workspace


@pytest.fixture
def ws(tmp_path: Path):
    workspace = Workspace.open(tmp_path / "review.sqlite")
    yield workspace
    workspace.close()


def test_model_version_activation_and_rollback(ws: Workspace):
    run = ws.start_training_run({"epochs": 3, "lr": 5e-5})
    base = ws.register_model_version("v1", "/models/v1", {"f1": 0.81})
    tuned = ws.register_model_version(
        "v2", "/models/v2", {"f1": 0.86}, parent="v1", training_run_id=run
    )
    assert ws.active_model_version() is None  # registering is not activating

    ws.activate_model_version(tuned)
    active = ws.active_model_version()
    assert (active.id, active.name, active.parent, active.metrics) == (tuned, "v2", "v1", {"f1": 0.86})
    assert active.training_run_id == run

    ws.activate_model_version(base)  # the new model was worse on the reviewer's documents
    assert ws.active_model_version().id == base
    assert [(v.name, v.active) for v in ws.list_model_versions()] == [("v1", True), ("v2", False)]

    ws.deactivate_model_versions()
    assert ws.active_model_version() is None
    with pytest.raises(RecordNotFound):
        ws.activate_model_version(tuned + 10)


def test_two_active_versions_are_refused_by_the_database(ws: Workspace):
    ws.activate_model_version(ws.register_model_version("v1", "/m/1", {}))
    ws.register_model_version("v2", "/m/2", {})
    raw = sqlite3.connect(ws.path)
    try:
        with pytest.raises(sqlite3.IntegrityError):
            raw.execute("UPDATE model_versions SET active = 1 WHERE name = 'v2'")
    finally:
        raw.close()


def test_model_version_names_are_unique(ws: Workspace):
    ws.register_model_version("v1", "/m/1", {})
    with pytest.raises(ValueError, match="v1"):
        ws.register_model_version("v1", "/m/other", {})
    assert len(ws.list_model_versions()) == 1


def test_training_runs_record_settings_outcome_and_metrics(ws: Workspace):
    ok = ws.start_training_run({"epochs": 2})
    failed = ws.start_training_run({"epochs": 9})
    ws.finish_training_run(ok, status="succeeded", metrics={"f1": 0.9, "loss": [0.5, 0.3]})
    ws.finish_training_run(failed, status="failed", metrics={"reason": "out of memory"})
    runs = {r.id: r for r in ws.list_training_runs()}
    assert runs[ok].settings == {"epochs": 2}
    assert (runs[ok].status, runs[ok].metrics) == ("succeeded", {"f1": 0.9, "loss": [0.5, 0.3]})
    assert runs[failed].status == "failed" and runs[failed].finished_at is not None
    assert ws.start_training_run({}) in {r.id for r in ws.list_training_runs() if r.status == "running"}


def test_ensemble_weight_history_is_kept_in_order(ws: Workspace):
    assert ws.ensemble_weight_history() == []
    ws.save_ensemble_weights({"rules": 1.0, "model": 1.0}, n_documents=0)
    ws.save_ensemble_weights({"rules": 0.6, "model": 1.4}, n_documents=25)
    history = ws.ensemble_weight_history()
    assert [(w, n) for _, w, n in history] == [
        ({"rules": 1.0, "model": 1.0}, 0),
        ({"rules": 0.6, "model": 1.4}, 25),
    ]
    assert history[0][0] <= history[1][0]
    assert history[0][0].tzinfo is not None


def test_settings_round_trip_and_survive_reopening(tmp_path: Path):
    ws = Workspace.open(tmp_path / "review.sqlite")
    ws.set_setting("reviewer", "ann")
    ws.set_setting("policy", {"unreviewed": "reject", "categories": ["NAME", "DATE"], "threshold": 0.35})
    ws.set_setting("reviewer", "bob")
    ws.set_setting("last_folder", None)
    with pytest.raises(TypeError):
        ws.set_setting("bad", object())
    ws.close()

    ws = Workspace.open(tmp_path / "review.sqlite")
    try:
        assert ws.get_setting("reviewer") == "bob"
        assert ws.get_setting("policy") == {
            "unreviewed": "reject", "categories": ["NAME", "DATE"], "threshold": 0.35,
        }
        assert ws.get_setting("last_folder", "fallback") is None  # stored None is a value
        assert ws.get_setting("missing", 7) == 7
        assert ws.get_setting("bad") is None
    finally:
        ws.close()
