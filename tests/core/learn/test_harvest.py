"""Rules that learn (001): harvested syntax templates and inclusion sentences, approved by a
person before they reach detection."""

from __future__ import annotations

import pytest

from deid_desktop import learn_cli
from deid_desktop.core.categories import Category
from deid_desktop.core.detect.ensemble import Ensemble
from deid_desktop.core.detect.harvested import HarvestedTemplates, read_rules_file, write_rules_file
from deid_desktop.core.detect.workspace_sources import approved_rules
from deid_desktop.core.learn.harvest import HarvestSource, harvest_inclusion_sentences, harvest_templates, shape_of
from deid_desktop.core.learn.loop import SETTING_ENSEMBLE
from deid_desktop.core.learn.proposals import (
    approved_inclusion_sentences,
    decide_inclusion,
    decide_rule,
    harvest_workspace,
    list_inclusion_proposals,
    list_rules,
)
from deid_desktop.core.learn.workspace_detector import workspace_detector, workspace_inclusion
from deid_desktop.core.spans import Span

from tests.core.learning_helpers import NAMES, add_note, at, note_text, open_workspace


def source(i: int, *, mark_name: bool = True, text: str | None = None) -> HarvestSource:
    t, name = note_text(i) if text is None else (text, NAMES[i % len(NAMES)])
    spans = []
    if mark_name and name in t:
        spans.append(Span(*at(t, name), Category.NAME, "DOCTOR"))
    date = t[t.index("Attended on ") + 12 : t.index(" with")]
    spans.append(Span(*at(t, date), Category.DATE))
    return HarvestSource(f"d{i}", t, spans)


def test_shapes():
    assert [shape_of(t) for t in ("Kowhai", "12", "B12", ":")] == ["W", "N", "A", ":"]


def test_a_layout_seen_in_three_documents_becomes_a_rule_that_tags_the_slot():
    rules = harvest_templates([source(i) for i in range(3)])
    by_template = {r.template: r for r in rules}
    assert set(by_template) == {"Ward: W Bed: N Consultant: Dr <NAME>", "Attended on <DATE> with whanau."}
    ward = by_template["Ward: W Bed: N Consultant: Dr <NAME>"]
    assert ward.support == 3 and ward.slots[0].category is Category.NAME and ward.slots[0].fine == "DOCTOR"
    # the rule knows nothing of the names it was learned from
    assert not any(n.split()[0] in ward.pattern or n.split()[0] in ward.template for n in NAMES)
    new = "Ward: Puriri  Bed: 40  Consultant: Dr Mary Anne Smith\nWard: Puriri Bed: 2 Consultant: Dr not yet allocated\n"
    assert [new[s.start : s.end] for s in ward.find(new)] == ["Mary Anne Smith"]
    date = by_template["Attended on <DATE> with whanau."]
    line = "Attended on 02/11/2025 with whanau.\n"
    assert [(line[s.start : s.end], s.category) for s in date.find(line)] == [("02/11/2025", Category.DATE)]


def test_two_documents_are_not_enough():
    assert harvest_templates([source(i) for i in range(2)]) == []
    assert len(harvest_templates([source(i) for i in range(2)], min_support=2)) == 2


def test_a_layout_that_does_not_always_carry_the_same_phi_is_not_proposed():
    docs = [source(i) for i in range(4)] + [source(4, mark_name=False)]
    templates = {r.template for r in harvest_templates(docs)}
    assert "Ward: W Bed: N Consultant: Dr <NAME>" not in templates
    assert "Attended on <DATE> with whanau." in templates


def test_phi_free_sentences_seen_in_three_documents_are_proposed_for_the_inclusion_list():
    docs = [source(i) for i in range(3)]
    props = {p.sentence: p.support for p in harvest_inclusion_sentences(docs)}
    assert props["Plan discussed and agreed by all present."] == 3
    assert props["Parkinson disease reviewed; Foley catheter removed."] == 3
    assert not any("Consultant" in s or "Attended" in s for s in props)
    # a sentence that held PHI anywhere is never proposed
    tainted = HarvestSource("x", "Plan discussed and agreed by all present.\n", [Span(0, 4, Category.NAME)])
    assert "Plan discussed and agreed by all present." not in {p.sentence for p in harvest_inclusion_sentences(docs + [tainted])}


@pytest.fixture
def ws(tmp_path, monkeypatch):
    monkeypatch.setenv("DEID_MODELS", str(tmp_path / "no-models"))
    empty = tmp_path / "none.txt"
    empty.write_text("", encoding="utf-8")
    cfg = tmp_path / "lists-only.toml"
    cfg.write_text(f'[ensemble]\nstrategy = "union"\n\n[[member]]\nname = "lists"\ntype = "allow_deny"\ndeny_file = "{empty}"\n', encoding="utf-8")
    w = open_workspace(tmp_path)
    w.set_setting(SETTING_ENSEMBLE, str(cfg))
    yield w
    w.close()


def test_approved_rules_become_a_detector_and_rejected_ones_stay_rejected(ws, tmp_path):
    for i in range(4):
        add_note(ws, i)
    result = harvest_workspace(ws)
    assert {r.template for r in result.rules} == {"Ward: W Bed: N Consultant: Dr <NAME>", "Attended on <DATE> with whanau."}
    assert approved_rules(ws) == []
    text = "Ward: Rimu  Bed: 9  Consultant: Dr Wiremu Tane\nAttended on 01/02/2025 with whanau.\n"
    det = workspace_detector(ws)
    assert det.detect(text) == []  # proposals do nothing until approved
    ward = next(r for r in list_rules(ws) if "Ward" in r.template)
    date = next(r for r in list_rules(ws) if "Attended" in r.template)
    decide_rule(ws, ward.id, approve=True, reviewer="tester")
    decide_rule(ws, date.id, approve=False, reviewer="tester")
    found = [(text[s.start : s.end], s.category) for s in workspace_detector(ws).detect(text)]
    assert found == [("Wiremu Tane", Category.NAME)]
    # the registered member loads the same approved rules from the workspace file
    assert [text[s.start : s.end] for s in HarvestedTemplates(workspace=str(ws.path)).detect(text)] == ["Wiremu Tane"]
    add_note(ws, 5)
    again = harvest_workspace(ws)
    assert again.rules == []  # nothing new
    statuses = {r.template: (r.status, r.support) for r in list_rules(ws)}
    assert statuses["Attended on <DATE> with whanau."] == ("rejected", 5)
    assert statuses["Ward: W Bed: N Consultant: Dr <NAME>"] == ("approved", 5)


def test_approved_inclusion_sentences_join_the_workspace_inclusion_list(ws):
    for i in range(3):
        add_note(ws, i)
    harvest_workspace(ws)
    props = {p.sentence: p for p in list_inclusion_proposals(ws)}
    plan = props["Plan discussed and agreed by all present."]
    assert not workspace_inclusion(ws).contains(plan.sentence)
    decide_inclusion(ws, plan.id, approve=True, reviewer="tester")
    decide_inclusion(ws, props["Whanau hui minutes"].id, approve=False, reviewer="tester")
    assert approved_inclusion_sentences(ws) == [plan.sentence]
    inclusion = workspace_inclusion(ws)
    assert inclusion.contains("plan discussed and  agreed by all present.")
    assert not inclusion.contains("Whanau hui minutes")


def test_rules_travel_as_files_and_load_as_an_ensemble_member(tmp_path):
    rules = harvest_templates([source(i) for i in range(3)])
    path = tmp_path / "rules.json"
    assert write_rules_file(path, rules) == 2
    back = read_rules_file(path)
    assert [(r.template, r.pattern, r.slots, r.support) for r in back] == [(r.template, r.pattern, r.slots, r.support) for r in rules]
    assert {r.status for r in back} == {"approved"}  # a rules file is a list of approved rules
    cfg = tmp_path / "e.toml"
    cfg.write_text(f'[ensemble]\nstrategy = "union"\n\n[[member]]\nname = "templates"\ntype = "harvested"\nrules_file = "{path}"\n', encoding="utf-8")
    text = "Ward: Rimu Bed: 9 Consultant: Dr Ana Kupu\n"
    spans = Ensemble.from_config(cfg).detect(text)
    assert [text[s.start : s.end] for s in spans] == ["Ana Kupu"]


def test_harvest_command(ws, capsys):
    for i in range(3):
        add_note(ws, i)
    assert learn_cli.main(["harvest", "--workspace", str(ws.path)]) == 0
    out = capsys.readouterr().out
    assert "2 new template rule(s)" in out and "Ward: W Bed: N Consultant: Dr <NAME>" in out
    assert not any(n in out for n in NAMES)
