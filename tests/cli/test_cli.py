"""The command line as a user runs it: detect over JSONL, batch de-identification with
subjects, resume, bad files and the PHI-free report."""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from pathlib import Path

import pytest

from deid_desktop.cli import main
from deid_desktop.core.paths import resource

RULES = str(resource("ensembles", "rules_only.toml"))

NOTE = (
    "Patient: Aroha Ngata\nDOB: 14/03/1952\nNHI: ZAC5361\n"
    "Seen by Dr Graham Whitcombe on 02/05/2024 at Wellington Regional Hospital.\n"
    "Phone (04) 385 5999. Known Parkinson's disease, metoprolol 25 mg bd.\n"
)
PHI = ["Aroha", "Ngata", "14/03/1952", "ZAC5361", "Whitcombe", "02/05/2024", "385 5999"]


def run(*argv: str) -> int:
    return main(list(argv))


def test_detect_jsonl_round_trip(tmp_path, capsys):
    inp = tmp_path / "in.jsonl"
    inp.write_text(
        json.dumps({"id": "a", "text": NOTE}) + "\n" + "not json\n" + json.dumps({"id": "b", "text": "No PHI here."}) + "\n",
        encoding="utf-8",
    )
    out = tmp_path / "out.jsonl"
    # a bad line is written as an error line and makes the exit status non-zero
    assert run("detect", "--input", str(inp), "--output", str(out), "--ensemble", RULES) == 1
    lines = [json.loads(l) for l in out.read_text(encoding="utf-8").splitlines()]
    assert [l.get("id") for l in lines] == ["a", None, "b"]
    assert "error" in lines[1] and lines[2]["spans"] == []
    found = {NOTE[s["start"] : s["end"]]: s["label"] for s in lines[0]["spans"]}
    assert found.get("14/03/1952") == "DATE"
    assert found.get("ZAC5361") == "ID"
    assert any("Whitcombe" in t and lab == "NAME" for t, lab in found.items())
    assert not any("Parkinson" in t for t in found)
    for s in lines[0]["spans"]:
        assert set(s) == {"start", "end", "label", "sublabel", "score", "source"}
    assert "line 2" in capsys.readouterr().err  # the bad line is named, its content is not


def test_detect_with_a_workspace_finds_what_its_reviewer_always_flags(tmp_path, monkeypatch):
    # the window's rule for the detector (core/usecases/detection.py): the workspace's lists
    # apply on top of the ensemble file, on the command line as in the window
    from deid_desktop.core.categories import Category
    from deid_desktop.core.learn.term_lists import add_term
    from deid_desktop.core.store import Workspace

    monkeypatch.setenv("DEID_MODELS", str(tmp_path / "no-models"))
    ws_path = tmp_path / "workspace.sqlite"
    with Workspace.open(ws_path) as ws:
        add_term(ws, "deny", "Tamaki Lodge", category=Category.ORGANIZATION)
    text = "Discharged to Tamaki Lodge."
    inp = tmp_path / "in.jsonl"
    inp.write_text(json.dumps({"id": "a", "text": text}) + "\n", encoding="utf-8")

    def found(*extra: str) -> list[str]:
        out = tmp_path / "out.jsonl"
        assert run("detect", "--input", str(inp), "--output", str(out), "--ensemble", RULES, *extra) == 0
        return [text[s["start"] : s["end"]] for s in json.loads(out.read_text(encoding="utf-8"))["spans"]]

    assert found() == []
    assert found("--workspace", str(ws_path)) == ["Tamaki Lodge"]


def test_detect_output_is_owner_only_because_ids_may_name_patients(tmp_path):
    inp = tmp_path / "in.jsonl"
    inp.write_text(json.dumps({"id": "Okafor_Margaret_letter.txt", "text": NOTE}) + "\n", encoding="utf-8")
    out = tmp_path / "out.jsonl"
    out.write_text("an older run\n", encoding="utf-8")
    out.chmod(0o644)
    assert run("detect", "--input", str(inp), "--output", str(out), "--ensemble", RULES) == 0
    assert out.stat().st_mode & 0o777 == 0o600
    assert json.loads(out.read_text(encoding="utf-8").splitlines()[0])["id"] == "Okafor_Margaret_letter.txt"


def make_batch(root: Path) -> None:
    (root / "patient-1").mkdir(parents=True)
    (root / "patient-2").mkdir()
    (root / "patient-1" / "visit1.txt").write_text(NOTE, encoding="utf-8")
    (root / "patient-1" / "visit2.txt").write_text(NOTE.replace("02/05/2024", "12/05/2024"), encoding="utf-8")
    (root / "patient-2" / "visit1.txt").write_text(NOTE, encoding="utf-8")
    (root / "patient-2" / "letter.docx").write_bytes(b"PK\x03\x04 definitely not a zip")
    (root / "patient-2" / "notes.md").write_text("# readme", encoding="utf-8")


def test_deidentify_batch_subjects_report_and_resume(tmp_path, capsys):
    src, out = tmp_path / "in", tmp_path / "out"
    make_batch(src)
    key = tmp_path / "key"
    # A fixed key: with a random one the two patients drew the same surrogate name now and
    # then (finite name pools), and the test below failed by chance.
    key.write_bytes(bytes(range(32)))
    rc = run("deidentify", str(src), "--out", str(out), "--ensemble", RULES, "--key-file", str(key), "--quiet")
    assert rc == 1  # one file failed, the rest went on
    err = capsys.readouterr().err
    assert "letter.docx" in err
    a = (out / "patient-1" / "visit1.deid.txt").read_text(encoding="utf-8")
    b = (out / "patient-1" / "visit2.deid.txt").read_text(encoding="utf-8")
    c = (out / "patient-2" / "visit1.deid.txt").read_text(encoding="utf-8")
    for text in (a, b, c):
        for value in PHI:
            assert value not in text
        assert "Parkinson's disease" in text and "metoprolol 25 mg bd" in text
    name_a = a.splitlines()[0]
    assert name_a == b.splitlines()[0]  # same patient, same surrogate name in both documents
    assert name_a != c.splitlines()[0]  # another patient gets another one
    report = json.loads((out / "deid_report.json").read_text(encoding="utf-8"))
    by_name = {Path(f["file"]).name: f for f in report["files"]}
    assert by_name["letter.docx"]["status"] == "error" and by_name["letter.docx"]["error_code"] == "corrupt"
    assert by_name["notes.md"]["status"] == "skipped"
    assert by_name["visit1.txt"]["counts"]["DATE"] >= 2
    assert report["summary"]["ok"] == 3
    raw = (out / "deid_report.json").read_text(encoding="utf-8") + (out / "deid_report.csv").read_text(encoding="utf-8")
    for value in PHI:
        assert value not in raw  # the report holds no PHI
    rows = list(csv.DictReader(open(out / "deid_report.csv", encoding="utf-8")))
    assert {r["status"] for r in rows} == {"ok", "error", "skipped"}

    # resume: finished outputs are kept, not redone
    before = (out / "patient-1" / "visit1.deid.txt").stat().st_mtime_ns
    run("deidentify", str(src), "--out", str(out), "--ensemble", RULES, "--key-file", str(key), "--quiet")
    assert "resuming: 3 file(s) already done" in capsys.readouterr().err
    assert (out / "patient-1" / "visit1.deid.txt").stat().st_mtime_ns == before


def test_manifest_assigns_subjects_and_tag_mode(tmp_path):
    src = tmp_path / "in"
    src.mkdir()
    (src / "x.txt").write_text(NOTE, encoding="utf-8")
    (src / "y.txt").write_text(NOTE, encoding="utf-8")
    manifest = tmp_path / "subjects.csv"
    manifest.write_text("path,subject\nin/x.txt,P1\nin/y.txt,P1\n", encoding="utf-8")
    out = tmp_path / "out"
    run("deidentify", str(src), "--out", str(out), "--ensemble", RULES, "--key-file", str(tmp_path / "k"),
        "--subjects", str(manifest), "--quiet")
    report = json.loads((out / "deid_report.json").read_text(encoding="utf-8"))
    assert {f["subject"] for f in report["files"]} == {"P1"}
    assert (out / "x.deid.txt").read_text(encoding="utf-8") == (out / "y.deid.txt").read_text(encoding="utf-8")
    out2 = tmp_path / "tags"
    run("deidentify", str(src / "x.txt"), "--out", str(out2), "--ensemble", RULES, "--mode", "tag",
        "--key-file", str(tmp_path / "k"), "--quiet")
    tagged = (out2 / "x.deid.txt").read_text(encoding="utf-8")
    assert "[DATE]" in tagged and "[NAME]" in tagged and "Ngata" not in tagged


def test_workers_agree_with_a_single_process(tmp_path):
    """Surrogates are keyed, so a batch split across processes gives the same output."""
    src = tmp_path / "in"
    make_batch(src)
    key = tmp_path / "key"
    outs = {}
    for workers in ("1", "2"):
        out = tmp_path / f"out{workers}"
        subprocess.run(
            [sys.executable, "-m", "deid_desktop.cli", "deidentify", str(src), "--out", str(out), "--ensemble", RULES,
             "--key-file", str(key), "--workers", workers, "--quiet", "--no-rescan"],
            check=False, capture_output=True, timeout=300,
        )
        outs[workers] = {p.relative_to(out): p.read_bytes() for p in out.rglob("*.deid.txt")}
    assert len(outs["1"]) == 3 and outs["1"] == outs["2"]


def test_detect_timing_gives_a_harness_the_figures_it_compares_tools_by(tmp_path):
    inp = tmp_path / "in.jsonl"
    inp.write_text("".join(json.dumps({"id": str(i), "text": NOTE}) + "\n" for i in range(5)), encoding="utf-8")
    timing = tmp_path / "timing.json"
    assert run("detect", "--input", str(inp), "--output", str(tmp_path / "out.jsonl"), "--ensemble", RULES, "--timing", str(timing)) == 0
    t = json.loads(timing.read_text(encoding="utf-8"))
    assert set(t) == {"load_s", "detect_s", "n_docs", "n_chars", "docs_per_s", "chars_per_s", "device", "config"}
    assert t["n_docs"] == 5 and t["n_chars"] == 5 * len(NOTE)
    assert t["detect_s"] > 0 and t["docs_per_s"] == pytest.approx(5 / t["detect_s"], rel=0.05)  # detect_s is rounded
    assert t["device"] == "cpu"
    assert t["config"]["file"].endswith("rules_only.toml") and t["config"]["members"] == ["rules"]
    assert "Whitcombe" not in timing.read_text(encoding="utf-8")


@pytest.mark.slow
def test_build_model_trains_both_members_side_by_side_and_each_is_usable(tmp_path, monkeypatch, capfd):
    """`make run` on a fresh machine builds the models in the background; with two cores the two
    members train at once, each in its own process on one core, and both land where the
    detector looks for them, exported for ONNX Runtime."""
    monkeypatch.setenv("DEID_THREADS", "2")
    models = tmp_path / "models"
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "1_log.txt").write_text("0940 {{NAME|kavitha}}: called back re {{NAME|Hemi}}'s meds -{{NAME|TP}}\n", encoding="utf-8")
    rc = main(["build-model", "--models-dir", str(models), "--docs", "2", "--val-docs", "1", "--epochs", "1", "--notes", str(notes)])
    err = capfd.readouterr().err
    assert rc == 0, err[-2000:]
    assert "side by side, 1 thread(s) each" in err and "and the hand-written training notes" in err
    assert err.count("3 notes and rewrites") == 2  # the note and its two surrogate rewrites, in each member
    assert "kavitha" not in err and "Hemi" not in err
    for name in ("minilm-balanced", "minilm-imbalanced"):
        assert (models / name / "CURRENT").read_text(encoding="utf-8").strip() == "v1"
        assert f"{name}: exported for ONNX Runtime" in err
    assert main(["build-model", "--models-dir", str(models), "--if-missing"]) == 0
    assert "nothing to build" in capfd.readouterr().err
