"""The release certificate an export writes beside its report: every output linked to its
input digest, its own SHA-256, the decisions it was made from and what the re-scan found —
and nothing from the documents' text or original file names."""

from __future__ import annotations

import hashlib
import json
import stat
from pathlib import Path

import pdfplumber
import pytest

from deid_desktop import __version__
from deid_desktop.cli import main
from deid_desktop.core.categories import Category
from deid_desktop.core.certificate import CERTIFICATE_JSON, CERTIFICATE_PDF, verify_certificate
from deid_desktop.core.detect.ensemble import Ensemble
from deid_desktop.core.documents.ingest import iter_input_files, load_document
from deid_desktop.core.paths import resource
from deid_desktop.core.pipeline import input_digest
from deid_desktop.core.store import DecisionAction, DocStatus, Workspace
from deid_desktop.core.usecases.exporting import ExportJob, ExportOptions

from .docfactory import pdf_stream_bytes

RULES = str(resource("ensembles", "rules_only.toml"))
TEXT = (
    "Patient Margaret Okafor (MRN 44172290) was seen on 03/14/2021 by Dr Samuel Lindqvist.\n"
    "Phone (617) 555-0142. Parkinson's disease, stable on levodopa. Hana drove her home.\n"
)
# PHI of the text, and of the original file name and folder ("p-Okafor" is a folder per patient)
TEXT_PHI = ("Margaret", "Okafor", "44172290", "03/14/2021", "Samuel", "Lindqvist", "555-0142", "Hana drove")
NAME_PHI = ("Margaret_Okafor", "2021-03-14", "Okafor")


class Provider:
    def __init__(self):
        self.ensemble = Ensemble.from_config(RULES)

    def get(self):
        return self.ensemble


@pytest.fixture
def ws(tmp_path):
    w = Workspace.open(tmp_path / "ws.sqlite")
    yield w
    w.close()


def _import(ws: Workspace, path: Path, text: str, subject: str) -> int:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    doc = load_document(path)
    did = ws.import_document(doc, subject_label=subject, source_path=str(path)).document_id
    run = ws.start_detection_run(config={}, model_versions={"rules": "rules-2024"}, device="cpu")
    ws.save_detections(did, run, Provider().get().detect(doc.text))
    ws.finish_detection_run(run, seconds=0.1, documents=1)
    return did


def _export(ws, ids, out: Path, *, unreviewed="stop", reviewer="alice"):
    return ExportJob(ws, ids, ExportOptions(out_dir=out, unreviewed=unreviewed, reviewer=reviewer), Provider()).run()


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_each_output_is_linked_to_its_hashes_decisions_and_rescan(ws, tmp_path):
    a_src = tmp_path / "in" / "a" / "letter.txt"
    b_src = tmp_path / "in" / "b" / "referral.txt"
    a = _import(ws, a_src, TEXT, "p1")
    b = _import(ws, b_src, TEXT.replace("Margaret", "Hinemoa"), "p2")
    spans = {s.text: s for s in ws.list_spans(a)}
    ws.decide(spans["Margaret Okafor"].id, DecisionAction.ACCEPT, reviewer="bob")
    ws.decide(spans["44172290"].id, DecisionAction.RELABEL, reviewer="carol", category=Category.ID, fine="MRN")
    undone = ws.decide(spans["(617) 555-0142"].id, DecisionAction.REJECT, reviewer="carol")
    ws.undo_decision(undone, reviewer="carol")
    ws.decide(spans["03/14/2021"].id, DecisionAction.REJECT, reviewer="bob")
    missed = TEXT.index("Hana")  # a name the rules do not find, added by the reviewer
    ws.add_span(a, missed, missed + len("Hana"), Category.NAME, reviewer="bob")
    ws.set_status(a, DocStatus.REVIEWED)
    undecided_a = sum(s.state == "undecided" for s in ws.list_spans(a))
    detections_b = len(ws.list_spans(b))

    out = tmp_path / "released"
    summary = _export(ws, [a, b], out, unreviewed="accept")
    assert summary.n_ok == 2
    cert_json, cert_pdf = out / CERTIFICATE_JSON, out / CERTIFICATE_PDF
    assert summary.certificate_json == cert_json and summary.certificate_pdf == cert_pdf
    assert f"Release certificate: {cert_pdf}" in summary.text()
    for p in (cert_json, cert_pdf):
        assert stat.S_IMODE(p.stat().st_mode) == 0o600
    raw = cert_json.read_text(encoding="utf-8")
    cert = json.loads(raw)
    assert raw == json.dumps(cert, sort_keys=True, indent=2) + "\n"

    (export,) = cert["exports"]
    assert export["app_version"] == __version__ and export["exported_by"] == "alice"
    assert export["exported_utc"].endswith("Z")
    assert export["options"] == {"mode": "surrogate", "format": "same as input", "unreviewed_policy": "accept", "rescan": True}
    assert export["detector"]["ensemble_file"] == "rules_only.toml"
    assert export["detector"]["ensemble_sha256"] == _sha256(Path(RULES))
    assert export["detector"]["strategy"] == "union"
    assert [r["model_versions"] for r in export["detection_runs"].values()] == [{"rules": "rules-2024"}] * 2

    by_doc = {o["document_id"]: o for o in export["outputs"]}
    report = {r["file"]: r for r in json.loads((out / "deid_report.json").read_text(encoding="utf-8"))["files"]}
    for did, src in ((a, a_src), (b, b_src)):
        o = by_doc[did]
        written = out / o["output"]
        assert o["output_sha256"] == _sha256(written) and o["output_bytes"] == written.stat().st_size
        assert o["input_hmac_sha256"] == input_digest(src, ws.secret)
        r = report[o["file"]]
        assert o["replaced"] == r["counts"]
        assert (o["rescan_findings"], o["residual_originals"]) == (len(r["rescan_findings"]), r["residual_originals"])
    oa, ob = by_doc[a], by_doc[b]
    assert oa["reviewers"] == ["bob", "carol"]
    assert oa["decisions"] == {"accept": 1, "reject": 1, "relabel": 1, "resize": 0, "add": 1}
    assert oa["decisions_undone"] == 1
    assert oa["undecided_auto_accepted"] == undecided_a > 0
    assert oa["status_at_export"] == "reviewed" and ob["status_at_export"] == "detected"
    assert ob["reviewers"] == [] and sum(ob["decisions"].values()) == 0
    assert ob["undecided_auto_accepted"] == detections_b
    assert export["totals"]["outputs"] == 2 and export["totals"]["undecided_auto_accepted"] == undecided_a + detections_b
    assert export["totals"]["decisions"]["accept"] == 1

    with pdfplumber.open(cert_pdf) as pdf:
        page_text = "\n".join(p.extract_text() or "" for p in pdf.pages)
    assert "Release certificate" in page_text
    assert "Exported by: alice" in page_text
    assert oa["output_sha256"][:32] in page_text.replace("\n", "")


def test_certificate_holds_no_text_and_no_original_file_name(ws, tmp_path):
    src = tmp_path / "in" / "p-Okafor" / "Margaret_Okafor_2021-03-14.txt"
    did = _import(ws, src, TEXT, "p-Okafor")
    out = tmp_path / "released"
    summary = _export(ws, [did], out, unreviewed="accept")
    assert summary.n_ok == 1
    data = (out / CERTIFICATE_JSON).read_bytes()
    pdf = (out / CERTIFICATE_PDF).read_bytes()
    with pdfplumber.open(out / CERTIFICATE_PDF) as doc:
        pdf_text = "\n".join(p.extract_text() or "" for p in doc.pages)
    haystacks = [data, pdf_text.encode("utf-8"), *pdf_stream_bytes(pdf)]
    for needle in (*TEXT_PHI, *NAME_PHI, str(tmp_path), "levodopa"):
        for hay in haystacks:
            assert needle.encode("utf-8") not in hay, needle
    # the outputs are still named: by their de-identified names
    (o,) = json.loads(data)["exports"][0]["outputs"]
    assert (out / o["output"]).is_file() and o["output"].endswith(".deid.txt")


def test_a_later_export_to_the_folder_adds_its_record_and_replaces_rewritten_files(ws, tmp_path):
    a = _import(ws, tmp_path / "in" / "a" / "one.txt", TEXT, "p1")
    b = _import(ws, tmp_path / "in" / "b" / "two.txt", TEXT.replace("Margaret", "Hinemoa"), "p2")
    out = tmp_path / "released"
    _export(ws, [a], out, unreviewed="accept", reviewer="alice")
    _export(ws, [b], out, unreviewed="accept", reviewer="bob")
    cert = json.loads((out / CERTIFICATE_JSON).read_text(encoding="utf-8"))
    assert [[o["document_id"] for o in e["outputs"]] for e in cert["exports"]] == [[a], [b]]
    assert [e["exported_by"] for e in cert["exports"]] == ["alice", "bob"]

    # document a written again: its first record has nothing left and goes
    summary = _export(ws, [a], out, unreviewed="accept", reviewer="carol")
    assert [[o["document_id"] for o in e["outputs"]] for e in summary.certificate["exports"]] == [[b], [a]]
    check = verify_certificate(summary.certificate, out)
    assert check.ok and len(check.unchanged) == 2


def test_verify_certificate_names_changed_and_missing_outputs(ws, tmp_path, capsys):
    a = _import(ws, tmp_path / "in" / "a" / "one.txt", TEXT, "p1")
    b = _import(ws, tmp_path / "in" / "b" / "two.txt", TEXT.replace("Margaret", "Hinemoa"), "p2")
    out = tmp_path / "released"
    summary = _export(ws, [a, b], out, unreviewed="accept")
    cert_path = str(out / CERTIFICATE_JSON)
    assert main(["verify-certificate", cert_path]) == 0
    assert "2 file(s) as released, 0 changed, 0 missing" in capsys.readouterr().out

    by_doc = {o["document_id"]: o["output"] for o in summary.certificate["exports"][0]["outputs"]}
    with open(out / by_doc[a], "a", encoding="utf-8") as f:
        f.write("edited after release\n")
    (out / by_doc[b]).unlink()
    assert main(["verify-certificate", cert_path, str(out)]) == 1
    printed = capsys.readouterr().out
    assert f"changed since release: {by_doc[a]}" in printed and f"missing: {by_doc[b]}" in printed
    assert "0 file(s) as released, 1 changed, 1 missing" in printed


def test_verify_certificate_refuses_a_file_that_is_not_one(tmp_path, capsys):
    bad = tmp_path / "release-certificate.json"
    bad.write_text('{"files": []}', encoding="utf-8")
    assert main(["verify-certificate", str(bad)]) == 2
    assert "is not a release certificate" in capsys.readouterr().err


def test_batch_deidentify_writes_a_certificate_and_never_reads_one_back(tmp_path, capsys):
    src = tmp_path / "in" / "p1" / "Margaret_Okafor_2021-03-14.txt"
    src.parent.mkdir(parents=True)
    src.write_text(TEXT, encoding="utf-8")
    out = tmp_path / "out"
    key = tmp_path / "key"
    assert main(["deidentify", str(tmp_path / "in"), "--out", str(out), "--ensemble", RULES, "--key-file", str(key), "--quiet"]) == 0
    assert "release certificate:" in capsys.readouterr().err
    raw = (out / CERTIFICATE_JSON).read_text(encoding="utf-8")
    (export,) = json.loads(raw)["exports"]
    (o,) = export["outputs"]
    report = json.loads((out / "deid_report.json").read_text(encoding="utf-8"))["files"][0]
    assert export["tool"] == "deid-desktop deidentify" and o["reviewers"] == []
    assert o["input_hmac_sha256"] == report["input_digest"] != ""
    assert o["undecided_auto_accepted"] == sum(report["counts"].values()) > 0
    assert o["output_sha256"] == _sha256(out / o["output"])
    for needle in (*TEXT_PHI, *NAME_PHI, str(tmp_path)):
        assert needle not in raw, needle
    # the certificate is the app's own file: a folder holding one never offers it as input
    assert [p.name for p in iter_input_files([out])] == [Path(o["output"]).name]


def test_a_double_reviewed_export_names_both_reviewers_the_adjudicator_and_the_agreement(ws, tmp_path):
    from deid_desktop.core.adjudication import Choice

    doc = _import(ws, tmp_path / "in" / "letter.txt", TEXT, "p1")
    spans = {s.text: s for s in ws.list_spans(doc)}
    ws.decide(spans["Margaret Okafor"].id, DecisionAction.ACCEPT, reviewer="ann")
    ws.decide(spans["03/14/2021"].id, DecisionAction.REJECT, reviewer="ann")
    ws.mark_double_review([doc], marked_by="lead")
    ws.finish_review(doc, reviewer="ann")
    ws.decide(spans["03/14/2021"].id, DecisionAction.ACCEPT, reviewer="bob")  # they disagree on the date
    ws.finish_review(doc, reviewer="bob")
    for d in ws.adjudication(doc).disagreements:
        ws.adjudicate(doc, d, Choice.SECOND, adjudicator="cy")
    ws.set_status(doc, DocStatus.REVIEWED)

    out = tmp_path / "released"
    summary = _export(ws, [doc], out, unreviewed="accept")
    assert summary.n_ok == 1
    cert = json.loads((out / CERTIFICATE_JSON).read_text(encoding="utf-8"))
    (export,) = cert["exports"]
    (o,) = export["outputs"]
    assert o["double_review"]["first"] == "ann" and o["double_review"]["second"] == "bob"
    assert o["double_review"]["adjudicated"] is True and o["double_review"]["adjudicators"] == ["cy"]
    agreement = export["agreement"]
    assert agreement["reviewers"] == ["ann", "bob"] and agreement["documents"] == 1
    assert agreement["overall"]["kappa"] is not None and agreement["overall"]["kappa"] < 1.0
    # the adjudicated truth was exported: the date Bob kept is replaced
    exported = (out / o["output"]).read_text(encoding="utf-8")
    assert "03/14/2021" not in exported and "Margaret" not in exported
    text = (out / CERTIFICATE_PDF).read_bytes()
    assert b"Margaret" not in text and b"03/14/2021" not in text
    with pdfplumber.open(out / CERTIFICATE_PDF) as pdf:
        words = " ".join(p.extract_text() or "" for p in pdf.pages)
    assert "ann" in words and "bob" in words and "Reviewer agreement" in words
