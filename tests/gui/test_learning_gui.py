"""The Model menu's dialogs, driven offscreen against a real workspace; training runs in a
real separate process on a tiny model."""

from __future__ import annotations

import os

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMainWindow, QMessageBox

from deid_desktop.core.learn.loop import SETTING_REFIT_EVERY
from deid_desktop.core.detect.workspace_sources import approved_rules
from deid_desktop.core.learn.proposals import approved_inclusion_sentences
from deid_desktop.core.learn.term_lists import list_terms
from deid_desktop.gui.learning import (
    EnsembleWeightsDialog,
    ListsDialog,
    ModelVersionsDialog,
    ProposedRulesDialog,
    RetrainDialog,
    build_model_menu,
    open_learning_dialog,
)

from ..core.learning_helpers import add_note, tiny_model, write_ensemble

pytestmark = pytest.mark.gui


class Host(QMainWindow):
    """Stands in for the review window: counts model-change notifications."""

    def __init__(self, workspace):
        super().__init__()
        self.workspace = workspace
        self.refreshed = 0

    def refresh_after_model_change(self):
        self.refreshed += 1


@pytest.fixture
def ws(workspace, tmp_path, monkeypatch):
    monkeypatch.setenv("DEID_MODELS", str(tmp_path / "no-models"))
    for i in range(6):
        add_note(workspace, i)
    return workspace


@pytest.fixture
def host(qtbot, ws):
    h = Host(ws)
    qtbot.addWidget(h)
    return h


def rows(table):
    return [[table.item(r, c).text() if table.item(r, c) else "" for c in range(table.columnCount())] for r in range(table.rowCount())]


def select_row(table, predicate):
    for r, row in enumerate(rows(table)):
        if predicate(row):
            table.selectRow(r)
            return
    raise AssertionError("no such row")


def test_the_review_window_has_the_model_menu(window):
    menus = [a.menu() for a in window.menuBar().actions() if a.menu() is not None and a.menu().objectName() == "modelMenu"]
    assert len(menus) == 1
    titles = [a.text() for a in menus[0].actions() if a.text()]
    assert titles == ["Retrain from corrections…", "Model versions…", "Ensemble weights…", "Proposed rules…", "Allow / deny lists…", "Accuracy on your documents…", "Reviewer a&greement…"]


def test_menu_actions_open_one_dialog_of_each_kind(qtbot, host, ws):
    menu = build_model_menu(host, lambda: ws)
    actions = {a.objectName(): a for a in menu.actions() if a.objectName()}
    actions["model_lists"].trigger()
    first = host._learning_dialogs["lists"]
    assert isinstance(first, ListsDialog) and first.isVisible()
    actions["model_lists"].trigger()
    assert host._learning_dialogs["lists"] is first  # raised, not duplicated
    first.close()


def test_retrain_runs_in_a_separate_process_then_offers_activation(qtbot, host, ws, tmp_path):
    base = ws.register_model_version("base", str(tiny_model(tmp_path)), {"members": ["minilm-balanced"]})
    ws.activate_model_version(base)
    dlg = RetrainDialog(ws, host, ensemble_config=str(write_ensemble(tmp_path)))
    qtbot.addWidget(dlg)
    dlg.show()
    assert "6 reviewed document(s) will be used" in dlg.summary_label.text()
    assert ["Name", "6", "6", "0", "0", "0"] in rows(dlg.category_table)  # 6 accepted, 6 rejected names
    dlg.epochs.setValue(1)  # a fixed count; 0 would be "auto"
    dlg.augment.setValue(0)
    dlg.synthetic.setValue(0)
    dlg.heldout.setValue(0.34)
    dlg.start()
    assert dlg.running and not dlg.start_button.isEnabled()
    pid = dlg.process.processId()
    assert pid and pid != os.getpid()
    qtbot.waitUntil(lambda: not dlg.running, timeout=240_000)
    assert dlg.result is not None and dlg.result["status"] == "ok", dlg.status_label.text()
    assert dlg.result_box.isVisible()
    # a 34 % share of six documents would hold out two, too few to compare two models on:
    # all six were trained on, and the dialog says so instead of showing a comparison
    assert rows(dlg.comparison) == []
    assert "all were trained on" in dlg.verdict.text() and "fewer than 5" in dlg.verdict.text()
    assert dlg.activate_button.isVisible() and dlg.discard_button.isVisible()
    assert ws.active_model_version().name == "base"
    qtbot.mouseClick(dlg.activate_button, Qt.MouseButton.LeftButton)
    assert ws.active_model_version().name == dlg.result["version_name"]
    qtbot.waitUntil(lambda: not dlg.refit.background.busy, timeout=60_000)
    assert host.refreshed >= 2  # at activation, and again once the weights are re-fitted
    assert len(ws.ensemble_weight_history()) == 1
    dlg.close()


def test_cancel_stops_the_training_process_without_a_new_version(qtbot, host, ws, tmp_path):
    base = ws.register_model_version("base", str(tiny_model(tmp_path)), {"members": ["minilm-balanced"]})
    ws.activate_model_version(base)
    dlg = RetrainDialog(ws, host, ensemble_config=str(write_ensemble(tmp_path)))
    qtbot.addWidget(dlg)
    dlg.synthetic.setValue(0)
    dlg.start()
    dlg.cancel()
    qtbot.waitUntil(lambda: not dlg.running, timeout=240_000)
    assert "cancelled" in dlg.status_label.text()
    assert [v.name for v in ws.list_model_versions()] == ["base"]
    assert dlg.start_button.isEnabled()


def test_versions_dialog_rolls_back_and_returns_to_the_shipped_model(qtbot, host, ws, tmp_path):
    old = ws.register_model_version("v1", str(tiny_model(tmp_path / "a")), {"members": ["minilm-balanced"], "heldout": {"token": {"f1": 0.5, "recall": 0.6, "precision": 0.4}}})
    new = ws.register_model_version("v2", str(tiny_model(tmp_path / "b")), {"members": ["minilm-balanced"], "heldout": {"token": {"f1": 0.7, "recall": 0.8, "precision": 0.6}}})
    ws.activate_model_version(new)
    dlg = ModelVersionsDialog(ws, host, ensemble_config=str(write_ensemble(tmp_path)))
    qtbot.addWidget(dlg)
    table = rows(dlg.table)
    assert [r[0] for r in table] == ["shipped model", "v1", "v2"]
    assert table[2][1] == "yes" and table[2][3] == "0.700" and table[1][3] == "0.500"
    dlg.select(old)
    qtbot.mouseClick(dlg.activate_button, Qt.MouseButton.LeftButton)
    assert ws.active_model_version().id == old
    assert rows(dlg.table)[1][1] == "yes"
    qtbot.waitUntil(lambda: not dlg.refit.background.busy, timeout=60_000)
    dlg.select(ModelVersionsDialog.SHIPPED)
    qtbot.mouseClick(dlg.activate_button, Qt.MouseButton.LeftButton)
    assert ws.active_model_version() is None and rows(dlg.table)[0][1] == "yes"
    qtbot.waitUntil(lambda: not dlg.refit.background.busy, timeout=60_000)
    assert host.refreshed >= 2
    dlg.close()


def test_weights_dialog_shows_current_weights_history_and_refits(qtbot, host, ws, tmp_path):
    staff = tmp_path / "staff.txt"
    staff.write_text("NAME\tHemi Walker\nNAME\tAroha Ngata\n", encoding="utf-8")
    ws.save_ensemble_weights({"a": 0.5, "b": 0.5}, n_documents=3)
    ws.save_ensemble_weights({"a": 0.8, "b": 0.2}, n_documents=6)
    dlg = EnsembleWeightsDialog(ws, host, ensemble_config=str(write_ensemble(tmp_path, deny_file=staff)))
    qtbot.addWidget(dlg)
    assert "a 0.800" in dlg.current.text() and "6 reviewed" in dlg.current.text()
    assert not dlg.chart.pixmap().isNull()
    assert len(rows(dlg.history)) == 2
    dlg.every.setValue(5)
    assert ws.get_setting(SETTING_REFIT_EVERY) == 5
    qtbot.mouseClick(dlg.refit_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: dlg.refit_button.isEnabled(), timeout=60_000)
    assert len(ws.ensemble_weight_history()) == 3
    assert "staff" in dlg.current.text()
    dlg.close()


def test_proposed_rules_are_harvested_then_approved_or_rejected(qtbot, host, ws):
    dlg = ProposedRulesDialog(ws, host)
    qtbot.addWidget(dlg)
    assert rows(dlg.rules) == []
    qtbot.mouseClick(dlg.harvest_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: dlg.rules.rowCount() == 2, timeout=60_000)
    assert "2 new template rule(s)" in dlg.info.text()
    select_row(dlg.rules, lambda r: r[0].startswith("Ward:"))
    qtbot.mouseClick(dlg.approve_button, Qt.MouseButton.LeftButton)
    assert [r.template for r in approved_rules(ws)] == ["Ward: W Bed: N Consultant: Dr <NAME>"]
    assert ["Ward: W Bed: N Consultant: Dr <NAME>", "6 documents", "approved"] in rows(dlg.rules)
    dlg.tabs.setCurrentWidget(dlg.sentences)
    select_row(dlg.sentences, lambda r: r[0] == "Plan discussed and agreed by all present.")
    qtbot.mouseClick(dlg.approve_button, Qt.MouseButton.LeftButton)
    select_row(dlg.sentences, lambda r: r[0] == "Whanau hui minutes")
    qtbot.mouseClick(dlg.reject_button, Qt.MouseButton.LeftButton)
    assert approved_inclusion_sentences(ws) == ["Plan discussed and agreed by all present."]
    assert host.refreshed == 3
    dlg.close()


def test_lists_dialog_adds_removes_imports_and_exports(qtbot, host, ws, tmp_path):
    dlg = ListsDialog(ws, host)
    qtbot.addWidget(dlg)
    dlg.kind.setCurrentIndex(1)
    dlg.term.setText("Ana Kupu")
    dlg.category.setCurrentText("Name")
    assert dlg.add_from_form()
    assert rows(dlg.table) == [["deny", "Ana Kupu", "Name", "workspace"]]
    dlg.kind.setCurrentIndex(0)
    dlg.term.setText("(unclosed")
    dlg.is_regex.setChecked(True)
    assert not dlg.add_from_form()
    boxes = [w for w in dlg.findChildren(QMessageBox) if w.isVisible()]
    assert boxes and "not a valid regular expression" in boxes[0].text()
    boxes[0].close()
    src = tmp_path / "allow.txt"
    src.write_text("Foley\nGlasgow Coma Scale\n", encoding="utf-8")
    assert dlg.import_file(src, "allow") == 2
    assert len(rows(dlg.table)) == 3
    out = tmp_path / "out.txt"
    assert dlg.export_file(out, "allow") == 2
    assert out.read_text(encoding="utf-8") == "Foley\nGlasgow Coma Scale\n"
    select_row(dlg.table, lambda r: r[1] == "Foley")
    qtbot.mouseClick(dlg.remove_button, Qt.MouseButton.LeftButton)
    assert {t.term for t in list_terms(ws)} == {"Glasgow Coma Scale", "Ana Kupu"}
    assert host.refreshed == 3
    dlg.close()


def test_no_workspace_no_dialog(qtbot, host, monkeypatch):
    shown = []
    monkeypatch.setattr(QMessageBox, "information", lambda *a, **k: shown.append(a[2]))
    assert open_learning_dialog(host, lambda: None, "retrain") is None
    assert shown == ["Open a workspace first."]


@pytest.mark.parametrize("strategy, in_use", [("majority", False), ("union", False), ("soft_vote", True)])
def test_weights_are_labelled_in_use_only_under_the_soft_vote(qtbot, host, ws, tmp_path, strategy, in_use):
    ws.save_ensemble_weights({"a": 0.8, "b": 0.2}, n_documents=6)
    dlg = EnsembleWeightsDialog(ws, host, ensemble_config=str(write_ensemble(tmp_path, strategy=strategy)))
    qtbot.addWidget(dlg)
    text = dlg.current.text()
    assert "a 0.800" in text and "6 reviewed" in text
    assert text.startswith("In use by the soft vote") == in_use
    if not in_use:
        assert text.startswith("Not in use") and ("majority vote" in text or "union" in text)
    dlg.close()


def test_weights_dialog_shows_each_members_weight_per_category(qtbot, host, ws, tmp_path):
    staff = tmp_path / "staff.txt"
    staff.write_text("NAME\tHemi Walker\n", encoding="utf-8")
    (tmp_path / "by_cat.toml").write_text(
        '[weights.minilm-balanced]\nDATE = 0.2\nNAME = 0.7\n\n[weights.staff]\nDATE = 0.8\nNAME = 0.3\n', encoding="utf-8"
    )
    config = write_ensemble(tmp_path, deny_file=staff)
    config.write_text(config.read_text(encoding="utf-8").replace("threshold = 0.5\n", 'threshold = 0.5\ncategory_weights = "by_cat.toml"\n'), encoding="utf-8")
    dlg = EnsembleWeightsDialog(ws, host, ensemble_config=str(config))
    qtbot.addWidget(dlg)
    table = dlg.findChild(type(dlg.by_category), "categoryWeightsTable")
    headers = [table.horizontalHeaderItem(c).text() for c in range(table.columnCount())]
    shown = {r[0]: dict(zip(headers[1:], r[1:])) for r in rows(table)}
    # before any fit in the workspace: the configuration's weights
    assert "as shipped" in dlg.by_category_source.text()
    assert shown["staff"]["Date"] == "0.800" and shown["minilm-balanced"]["Name"] == "0.700"
    assert shown["staff"]["Age"] == "–"  # no weight of its own: the overall one applies
    # a fit in the workspace replaces them
    ws.save_ensemble_weights({"staff": 1.0}, n_documents=4, category_weights={"staff": {"DATE": 0.25, "NAME": 1.0}})
    dlg.refresh()
    shown = {r[0]: dict(zip(headers[1:], r[1:])) for r in rows(table)}
    assert "fitted on reviewed documents" in dlg.by_category_source.text()
    assert shown == {"staff": {h: {"Date": "0.250", "Name": "1.000"}.get(h, "–") for h in headers[1:]}}
    dlg.close()
