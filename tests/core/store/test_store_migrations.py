"""A workspace written by the first schema revision opens in the current version with its data."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from sqlalchemy import inspect, text

from deid_desktop.core.categories import Category
from deid_desktop.core.store import DecisionAction, DocStatus, Workspace
from deid_desktop.core.store.database import (
    create_owner_only_file,
    current_revision,
    head_revision,
    make_engine,
    migrate,
)

TEXT = "Seen by Dr Ann Lee on 2020-03-04."
WHEN = "2024-05-01 10:00:00.000000"


def _workspace_at_first_revision(path: Path) -> None:
    """What the first release of the app left on disk: schema 0001 with review data."""
    create_owner_only_file(path)
    engine = make_engine(path)
    try:
        migrate(engine, path, "0001")
        with engine.begin() as c:
            assert current_revision(c) == "0001"
            assert "settings" not in inspect(c).get_table_names()
            c.execute(text("INSERT INTO workspace_info VALUES (1, :s, :t)"), {"s": b"k" * 32, "t": WHEN})
            c.execute(text("INSERT INTO subjects VALUES (1, 'P1', :salt, :t)"), {"salt": b"s" * 16, "t": WHEN})
            c.execute(
                text(
                    "INSERT INTO documents (id, subject_id, source_path, name, format, content_hash,"
                    " version, status, text, segments_json, warnings_json, meta_json, created_at,"
                    " updated_at) VALUES (1, 1, '/in/a.txt', 'a.txt', 'txt', 'h1', 1, 'in_review',"
                    " :text, :seg, '[]', '{}', :t, :t)"
                ),
                {"text": TEXT, "seg": f"[[0,{len(TEXT)},{{}}]]", "t": WHEN},
            )
            c.execute(
                text("INSERT INTO detection_runs (id, config_json, model_versions_json, device, started_at)"
                     " VALUES (1, '{}', '{}', 'cpu', :t)"),
                {"t": WHEN},
            )
            c.execute(
                text(
                    "INSERT INTO spans VALUES (1, 1, 1, NULL, 11, 18, 'NAME', 'DOCTOR', 0.9, 'model',"
                    " '[\"model\"]', 'accepted', 11, 18, 'NAME', 'DOCTOR', :t)"
                ),
                {"t": WHEN},
            )
            c.execute(
                text(
                    "INSERT INTO review_decisions (id, span_id, document_id, action, reviewer, created_at)"
                    " VALUES (1, 1, 1, 'accept', 'ann', :t)"
                ),
                {"t": WHEN},
            )
    finally:
        engine.dispose()


def test_first_revision_workspace_is_upgraded_and_keeps_its_data(tmp_path: Path):
    path = tmp_path / "old.sqlite"
    _workspace_at_first_revision(path)

    ws = Workspace.open(path, create=False)
    try:
        with ws.session(readonly=True) as session:
            assert current_revision(session.connection()) == head_revision() != "0001"
        assert ws.secret == b"k" * 32
        (doc,) = ws.list_documents()
        assert (doc.name, doc.subject_label, doc.status) == ("a.txt", "P1", DocStatus.IN_REVIEW)
        assert ws.load_document(doc.id).text == TEXT
        (span,) = ws.list_spans(doc.id)
        assert (span.text, span.state, span.members) == ("Ann Lee", "accepted", ("model",))
        (decision,) = ws.decisions()
        assert (decision.action, decision.reviewer) == (DecisionAction.ACCEPT, "ann")
        assert decision.created_at.year == 2024

        # The log written by the old version keeps working with the new code.
        ws.undo_decision(decision.id, reviewer="ann")
        assert ws.list_spans(doc.id)[0].state == "undecided"
        ws.add_span(doc.id, 22, 32, Category.DATE, reviewer="ann")
        assert len(ws.final_spans(doc.id, unreviewed_policy="reject")) == 1

        # The tables of the second revision work.
        ws.set_setting("reviewer", "ann")
        assert ws.get_setting("reviewer") == "ann"
        ws.activate_model_version(ws.register_model_version("v1", "/m/v1", {"f1": 0.8}))
        assert ws.active_model_version().name == "v1"
        ws.save_ensemble_weights({"rules": 1.0}, n_documents=1)
        assert len(ws.ensemble_weight_history()) == 1
    finally:
        ws.close()

    raw = sqlite3.connect(path)
    try:
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            raw.execute("DELETE FROM review_decisions")
    finally:
        raw.close()


def test_workspaces_created_in_several_threads_at_once_all_open(tmp_path):
    """A background worker opening the workspace while the window creates another must not
    break either (Alembic's migration context is process-global)."""
    import threading

    errors: list[BaseException] = []
    opened: list[Workspace] = []
    start = threading.Barrier(6)

    def create(i: int) -> None:
        try:
            start.wait()
            for j in range(3):
                opened.append(Workspace.open(tmp_path / f"ws-{i}-{j}.sqlite"))
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=create, args=(i,)) for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    try:
        assert errors == []
        assert len(opened) == 18
        for ws in opened:
            assert ws.list_documents() == []
    finally:
        for ws in opened:
            ws.close()
