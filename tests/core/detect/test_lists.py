"""Allow-list (never PHI) and deny-list (always PHI), scoped to a document, a subject or the
workspace, editable from review decisions and portable as plain files."""

from __future__ import annotations

import pytest

from deid_desktop import learn_cli
from deid_desktop.core.categories import Category
from deid_desktop.core.detect.lists import AllowDenyList, ListTerm, apply_allow_list, deny_spans, parse_terms, read_terms_file
from deid_desktop.core.documents.model import Document
from deid_desktop.core.errors import ConfigError
from deid_desktop.core.learn.loop import SETTING_ENSEMBLE, always_flag, never_flag
from deid_desktop.core.learn.term_lists import add_term, export_terms, import_terms, list_terms, remove_term, terms_for_document
from deid_desktop.core.learn.workspace_detector import workspace_detector
from deid_desktop.core.spans import Span

from tests.core.learning_helpers import at, open_workspace

TEXT = "Dr Edwards placed a Foley catheter; Parkinson disease. Seen at Ward 5 by Ana Kupu."


def allow(term, regex=False):
    return ListTerm("allow", term, regex)


def deny(term, cat, regex=False, fine="OTHER"):
    return ListTerm("deny", term, regex, cat, fine)


def texts(text, spans):
    return [(text[s.start : s.end], s.category.value) for s in spans]


def test_allow_list_removes_spans_it_covers_and_trims_partial_overlaps():
    spans = [
        Span(*at(TEXT, "Foley"), Category.NAME),
        Span(*at(TEXT, "Dr Edwards"), Category.NAME),
        Span(*at(TEXT, "Parkinson disease"), Category.NAME),
        Span(*at(TEXT, "Ana Kupu"), Category.NAME),
    ]
    out = apply_allow_list(TEXT, spans, [allow("foley"), allow("Parkinson"), allow("Ward")])
    # "Ward" does not touch "Edwards"; "Parkinson" is cut out of the longer span
    assert texts(TEXT, out) == [("Dr Edwards", "NAME"), ("disease", "NAME"), ("Ana Kupu", "NAME")]
    only = apply_allow_list(TEXT, spans, [allow(r"Parkinson\s+\w+", regex=True)])
    assert ("Parkinson disease", "NAME") not in texts(TEXT, only) and len(only) == 3


def test_deny_list_adds_spans_with_the_given_category():
    text = "Results sent by EPIC  Systems to ana kupu; ref MRX-2231."
    spans = deny_spans(text, [deny("Epic Systems", "ORGANIZATION", fine="COMPANY"), deny("Ana Kupu", "NAME"), deny(r"MRX-\d{4}", "ID", regex=True)])
    assert texts(text, spans) == [("EPIC  Systems", "ORGANIZATION"), ("ana kupu", "NAME"), ("MRX-2231", "ID")]
    assert spans[0].fine == "COMPANY" and spans[0].source == "allow_deny"


def test_terms_are_checked_when_made():
    with pytest.raises(ValueError, match="needs a PHI category"):
        ListTerm("deny", "Ana Kupu")
    with pytest.raises(ValueError, match="not a valid regular expression"):
        ListTerm("allow", "(unclosed", True)
    with pytest.raises(ValueError, match="scope"):
        ListTerm("allow", "x", scope="ward")


def test_plain_list_files(tmp_path):
    terms = parse_terms(["# staff", "NAME/DOCTOR\tHemi Walker", "", "ORGANIZATION\tre:Epic\\s+Systems"], "deny")
    assert [(t.term, t.category, t.fine, t.is_regex) for t in terms] == [
        ("Hemi Walker", Category.NAME, "DOCTOR", False),
        ("Epic\\s+Systems", Category.ORGANIZATION, "OTHER", True),
    ]
    bad = tmp_path / "bad.txt"
    bad.write_text("Hemi Walker\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"bad.txt line 1: a deny-list line is CATEGORY<TAB>term"):
        read_terms_file(bad, "deny")


@pytest.fixture
def ws(tmp_path, monkeypatch):
    """A workspace whose detector (a stand-in list member) flags Foley and nothing else."""
    monkeypatch.setenv("DEID_MODELS", str(tmp_path / "no-models"))
    flags = tmp_path / "flags.txt"
    flags.write_text("NAME\tFoley\n", encoding="utf-8")
    cfg = tmp_path / "e.toml"
    cfg.write_text(f'[ensemble]\nstrategy = "union"\n\n[[member]]\nname = "lists"\ntype = "allow_deny"\ndeny_file = "{flags}"\n', encoding="utf-8")
    w = open_workspace(tmp_path)
    w.set_setting(SETTING_ENSEMBLE, str(cfg))
    yield w
    w.close()


def import_doc(ws, name, subject):
    return ws.import_document(Document.from_text(f"{name}: {TEXT}", path=name), subject_label=subject).document_id


def test_never_and_always_flag_apply_in_their_scope_only(ws):
    a1, a2, b1 = import_doc(ws, "a1", "A"), import_doc(ws, "a2", "A"), import_doc(ws, "b1", "B")
    subject_a = ws.get_document(a1).subject_id
    never_flag(ws, "Foley", "document", a1)
    always_flag(ws, "Ana Kupu", Category.NAME, "subject", subject_a)
    det = workspace_detector(ws)
    texts_ = [ws.load_document(i).text for i in (a1, a2, b1)]
    found = [{t[s.start : s.end] for s in spans} for t, spans in zip(texts_, det.detect_many(texts_, document_ids=[a1, a2, b1]))]
    assert found == [{"Ana Kupu"}, {"Foley", "Ana Kupu"}, {"Foley"}]
    # without a document id only workspace-wide terms apply
    assert {texts_[0][s.start : s.end] for s in det.detect(texts_[0])} == {"Foley"}
    never_flag(ws, "Foley")  # workspace-wide from now on
    det = workspace_detector(ws)
    assert [[texts_[k][s.start : s.end] for s in sp] for k, sp in enumerate(det.detect_many(texts_, document_ids=[a1, a2, b1]))] == [["Ana Kupu"], ["Ana Kupu"], []]
    assert len(terms_for_document(ws, a2)) == 2 and len(terms_for_document(ws, b1)) == 1


def test_deny_terms_overrule_the_vote_and_allow_terms_remove_harvested_hits(ws):
    d = import_doc(ws, "x", "A")
    always_flag(ws, "Foley catheter", Category.ORGANIZATION)
    text = ws.load_document(d).text
    spans = workspace_detector(ws).detect(text, document_id=d)
    # the voted NAME "Foley" yields to the deny-listed ORGANIZATION over the same words
    assert texts(text, spans) == [("Foley catheter", "ORGANIZATION")]


def test_terms_are_stored_once_and_can_be_removed(ws):
    first = never_flag(ws, "Braden score")
    assert never_flag(ws, "Braden score") == first
    assert add_term(ws, "allow", "Braden score", scope="document", scope_id=7) != first
    with pytest.raises(ValueError, match="needs the document id"):
        add_term(ws, "allow", "Apgar", scope="document")
    remove_term(ws, first)
    assert [(t.term, t.scope, t.scope_id) for t in list_terms(ws)] == [("Braden score", "document", "7")]


def test_lists_import_and_export_as_plain_files(ws, tmp_path):
    src = tmp_path / "deny.txt"
    src.write_text("NAME/DOCTOR\tHemi Walker\nORGANIZATION\tre:Epic\\s+Systems\n", encoding="utf-8")
    assert import_terms(ws, src, "deny") == 2
    assert import_terms(ws, src, "deny") == 0
    out = tmp_path / "out.txt"
    assert export_terms(ws, out, "deny") == 2
    assert out.read_text(encoding="utf-8") == src.read_text(encoding="utf-8")
    assert out.stat().st_mode & 0o777 == 0o600  # a deny list is a list of patients' names
    never_flag(ws, "Glasgow Coma Scale")
    allow_out = tmp_path / "allow.txt"
    assert learn_cli.main(["lists", "export", "--workspace", str(ws.path), "--kind", "allow", "--file", str(allow_out)]) == 0
    assert allow_out.read_text(encoding="utf-8") == "Glasgow Coma Scale\n"
    assert allow_out.stat().st_mode & 0o777 == 0o600
    more = tmp_path / "more.txt"
    more.write_text("Foley\nApgar\n", encoding="utf-8")
    assert learn_cli.main(["lists", "import", "--workspace", str(ws.path), "--kind", "allow", "--file", str(more), "--scope", "subject", "--scope-id", "3"]) == 0
    assert {(t.term, t.scope) for t in list_terms(ws, kind="allow")} == {("Glasgow Coma Scale", "workspace"), ("Foley", "subject"), ("Apgar", "subject")}


def test_the_list_detector_as_an_ensemble_member_reads_files(tmp_path):
    d = tmp_path / "d.txt"
    d.write_text("NAME\tAna Kupu\n", encoding="utf-8")
    a = tmp_path / "a.txt"
    a.write_text("Kupu\n", encoding="utf-8")
    det = AllowDenyList(deny_file=str(d), allow_file=str(a))
    spans = det.detect(TEXT)
    assert texts(TEXT, spans) == [("Ana Kupu", "NAME")]
    assert texts(TEXT, det.filter(TEXT, spans)) == [("Ana", "NAME")]
