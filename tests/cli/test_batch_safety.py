"""A batch loses nothing and leaks no name: file and folder names are PHI, outputs never
collide, the app never reads its own files, bad links and damaged inputs are reported
without a traceback, and resuming keeps only outputs of the very same bytes and options."""

from __future__ import annotations

import csv
import json
import os
import stat
from pathlib import Path

from deid_desktop.cli import main
from deid_desktop.core.paths import resource

RULES = str(resource("ensembles", "rules_only.toml"))
NAMES = ("Tevita", "Fifita")
LETTER = "Patient: Tevita Fifita\nDOB: 14/03/1952\nSeen on 02/05/2024. Known Parkinson's disease.\n"


def deidentify(tmp_path: Path, *args: str) -> int:
    return main(["deidentify", *args, "--ensemble", RULES, "--key-file", str(tmp_path / "key"), "--quiet"])


def all_text(out: Path) -> str:
    return (out / "deid_report.json").read_text(encoding="utf-8") + (out / "deid_report.csv").read_text(encoding="utf-8")


def assert_no_names(text: str) -> None:
    for name in NAMES:
        assert name not in text


def test_file_and_folder_names_are_deidentified_with_the_text_surrogates(tmp_path, capsys):
    src, out, name_map = tmp_path / "in", tmp_path / "out", tmp_path / "private" / "names.csv"
    (src / "Tevita_Fifita").mkdir(parents=True)
    (src / "Tevita_Fifita" / "Tevita_Fifita_letter.txt").write_text(LETTER, encoding="utf-8")
    (src / "Tevita_Fifita" / "TevitaFifita-scan.docx").write_bytes(b"PK\x03\x04 not a zip at all")
    name_map.parent.mkdir()
    rc = deidentify(tmp_path, str(src), "--out", str(out), "--name-map", str(name_map))
    assert rc == 1  # the damaged file failed, the letter went on
    err = capsys.readouterr().err
    assert "scan.docx" in err  # the failure is reported, under its de-identified name
    assert_no_names(err)
    outputs = [p for p in out.rglob("*") if p.is_file()]
    for p in outputs:
        assert_no_names(str(p.relative_to(out)))
    letters = [p for p in outputs if p.name.endswith("_letter.deid.txt")]
    assert len(letters) == 1
    body = letters[0].read_text(encoding="utf-8")
    assert_no_names(body)
    first, last = body.splitlines()[0].removeprefix("Patient: ").split()
    # the same keyed surrogate in the body, the file name and the subject's folder name
    assert letters[0].name == f"{first}_{last}_letter.deid.txt"
    assert letters[0].parent.name == f"{first}_{last}"
    report = all_text(out)
    assert_no_names(report)
    assert f"{first}_{last}/{first}_{last}_letter.txt" in report
    # only the name map links the two, and only its owner can read it
    assert stat.S_IMODE(name_map.stat().st_mode) == 0o600
    rows = list(csv.DictReader(open(name_map, encoding="utf-8")))
    assert {Path(r["input"]).name for r in rows} == {"Tevita_Fifita_letter.txt", "TevitaFifita-scan.docx"}
    assert str(letters[0]) in {r["output"] for r in rows}


def test_tag_mode_gives_neutral_names(tmp_path, capsys):
    src, out = tmp_path / "in", tmp_path / "out"
    (src / "Tevita_Fifita").mkdir(parents=True)
    (src / "Tevita_Fifita" / "Tevita_Fifita_letter.txt").write_text(LETTER, encoding="utf-8")
    (src / "Tevita_Fifita" / "referral.txt").write_text(LETTER, encoding="utf-8")
    assert deidentify(tmp_path, str(src), "--out", str(out), "--mode", "tag") == 0
    names = sorted(str(p.relative_to(out)) for p in out.rglob("*.deid.txt"))
    assert len(names) == 2
    folder = Path(names[0]).parent.name
    assert folder.startswith("folder-") and all(Path(n).parent.name == folder for n in names)
    assert {Path(n).name.startswith("doc-") for n in names} == {True, False}  # "referral" holds no PHI
    assert_no_names(all_text(out) + capsys.readouterr().err)


def test_same_relative_path_in_two_inputs_gives_two_outputs(tmp_path, capsys):
    a, b, out = tmp_path / "a", tmp_path / "b", tmp_path / "out"
    for folder, date in ((a, "02/05/2024"), (b, "09/09/2023")):
        (folder / "notes").mkdir(parents=True)
        (folder / "notes" / "visit.txt").write_text(f"Seen on {date}.", encoding="utf-8")
    assert deidentify(tmp_path, str(a), str(b), "--out", str(out)) == 0
    outputs = sorted(out.rglob("*.deid.txt"))
    assert [str(p.relative_to(out)) for p in outputs] == ["1/notes/visit.deid.txt", "2/notes/visit.deid.txt"]
    assert outputs[0].read_text(encoding="utf-8") != outputs[1].read_text(encoding="utf-8")
    files = json.loads((out / "deid_report.json").read_text(encoding="utf-8"))["files"]
    assert sorted(f["output"] for f in files) == [str(p) for p in outputs]
    # two files named on the command line with one base name
    out2 = tmp_path / "out2"
    assert deidentify(tmp_path, str(a / "notes" / "visit.txt"), str(b / "notes" / "visit.txt"), "--out", str(out2)) == 0
    assert len(list(out2.rglob("*.deid.txt"))) == 2


def test_output_folder_inside_the_input_is_never_read(tmp_path, capsys):
    src = tmp_path / "in"
    src.mkdir()
    (src / "visit.txt").write_text(LETTER, encoding="utf-8")
    out = src / "released"
    for _ in range(2):
        assert deidentify(tmp_path, str(src), "--out", str(out), "--force") == 0
    assert sorted(p.relative_to(src).as_posix() for p in src.rglob("*.txt")) == ["released/visit.deid.txt", "visit.txt"]
    report = json.loads((out / "deid_report.json").read_text(encoding="utf-8"))
    assert [f["file"] for f in report["files"]] == ["visit.txt"]
    assert not list(src.rglob("*.deid.deid*"))
    # a later run to another folder does not read the earlier output either
    elsewhere = tmp_path / "elsewhere"
    assert deidentify(tmp_path, str(src), "--out", str(elsewhere)) == 0
    assert [p.relative_to(elsewhere).as_posix() for p in elsewhere.rglob("*.txt")] == ["visit.deid.txt"]
    assert "the output folder of an earlier run" in capsys.readouterr().err


def test_bad_links_are_skipped_and_the_batch_goes_on(tmp_path, capsys):
    src, out, elsewhere = tmp_path / "in", tmp_path / "out", tmp_path / "elsewhere"
    src.mkdir()
    elsewhere.mkdir()
    (elsewhere / "Tevita_Fifita.txt").write_text(LETTER, encoding="utf-8")
    (src / "visit.txt").write_text(LETTER, encoding="utf-8")
    os.symlink(src / "Tevita_loop.txt", src / "Tevita_loop.txt")  # a link to itself
    os.symlink(elsewhere / "Tevita_Fifita.txt", src / "Fifita_Tevita.txt")  # leaves the input folder
    assert deidentify(tmp_path, str(src), "--out", str(out)) == 0
    err = capsys.readouterr().err
    assert "loops or leads nowhere" in err and "leads outside the input folder" in err
    assert "Traceback" not in err
    assert_no_names(err + all_text(out))
    assert [p.name for p in out.rglob("*.deid.txt")] == ["visit.deid.txt"]


def test_unwritable_output_folder_is_one_error_before_any_work(tmp_path, capsys):
    src = tmp_path / "in"
    src.mkdir()
    for i in range(3):
        (src / f"v{i}.txt").write_text(LETTER, encoding="utf-8")
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("", encoding="utf-8")
    assert deidentify(tmp_path, str(src), "--out", str(blocker / "out")) == 2
    err = capsys.readouterr().err
    assert "cannot write to the output folder" in err
    assert "Traceback" not in err and err.count("deid-desktop:") == 1


def test_resume_redoes_edited_inputs_and_changed_options(tmp_path, capsys):
    src, out = tmp_path / "in", tmp_path / "out"
    src.mkdir()
    (src / "a.txt").write_text("Seen on 02/05/2024.", encoding="utf-8")
    (src / "b.txt").write_text(LETTER, encoding="utf-8")
    assert deidentify(tmp_path, str(src), "--out", str(out)) == 0
    first_b = (out / "b.deid.txt").stat().st_mtime_ns
    (src / "a.txt").write_text("Seen on 02/05/2024. Follow-up with Dr Graham Whitcombe.", encoding="utf-8")
    assert deidentify(tmp_path, str(src), "--out", str(out)) == 0
    assert "resuming: 1 file(s) already done" in capsys.readouterr().err
    assert "Follow-up with Dr" in (out / "a.deid.txt").read_text(encoding="utf-8")
    assert (out / "b.deid.txt").stat().st_mtime_ns == first_b
    # another mode: nothing is "already done", every output is in the new mode
    assert deidentify(tmp_path, str(src), "--out", str(out), "--mode", "tag") == 0
    assert "resuming" not in capsys.readouterr().err
    assert "[NAME]" in (out / "b.deid.txt").read_text(encoding="utf-8")
    assert "[DATE]" in (out / "a.deid.txt").read_text(encoding="utf-8")
    # a half-written output left by a kill is removed, never taken as finished
    (out / "a.deid.txt").unlink()
    (out / "a.deid.part.txt").write_text("half", encoding="utf-8")
    assert deidentify(tmp_path, str(src), "--out", str(out), "--mode", "tag") == 0
    assert not (out / "a.deid.part.txt").exists()
    assert "[DATE]" in (out / "a.deid.txt").read_text(encoding="utf-8")
    assert not list(out.glob("*.part"))


def test_detect_reports_a_non_utf8_line_and_keeps_the_rest(tmp_path, capsys):
    inp, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    good = json.dumps({"id": "a", "text": "Seen on 02/05/2024."}).encode() + b"\n"
    inp.write_bytes(good + b'{"id": "b", "text": "Tevita \xff\xfe Fifita"}\n' + good.replace(b'"a"', b'"c"'))
    assert main(["detect", "--input", str(inp), "--output", str(out), "--ensemble", RULES]) == 1
    lines = [json.loads(l) for l in out.read_text(encoding="utf-8").splitlines()]
    assert [l["id"] for l in lines] == ["a", None, "c"]
    assert lines[0]["spans"] and lines[2]["spans"]
    err = capsys.readouterr().err
    assert "line 2" in err and "Traceback" not in err
    assert_no_names(err + out.read_text(encoding="utf-8"))


def test_a_damaged_workspace_is_one_phi_free_line(tmp_path, capsys):
    from deid_desktop.core.documents.ingest import load_document
    from deid_desktop.core.store import Workspace

    note = tmp_path / "note.txt"
    note.write_text("Patient Tevita Fifita seen 02/05/2024. " * 200, encoding="utf-8")
    good = tmp_path / "good.sqlite"
    with Workspace.open(good) as ws:
        ws.import_document(load_document(note), subject_label="Tevita Fifita")
    data = good.read_bytes()
    inp = tmp_path / "in.txt"
    inp.write_text("Seen on 02/05/2024.", encoding="utf-8")
    failures = 0
    # every page in turn overwritten: wherever the damage lands, no traceback and no text
    for page in range(1, len(data) // 4096):
        damaged = tmp_path / f"damaged{page}.sqlite"
        damaged.write_bytes(data[: page * 4096] + bytes(range(256)) * 16 + data[(page + 1) * 4096 :])
        rc = deidentify(tmp_path, str(inp), "--out", str(tmp_path / f"out{page}"), "--workspace", str(damaged))
        err = capsys.readouterr().err
        assert "Traceback" not in err
        assert_no_names(err)
        if rc != 0:
            failures += 1
            assert rc == 2 and f"damaged{page}.sqlite" in err
    assert failures  # the damage was noticed at least once


def test_a_workspace_keeps_the_name_map(tmp_path, capsys):
    """With --workspace (which may hold PHI) the input → output names are kept there too."""
    from deid_desktop.cli import NAME_MAP_SETTING
    from deid_desktop.core.store import Workspace

    ws_path = tmp_path / "ws.sqlite"
    Workspace.open(ws_path).close()
    src = tmp_path / "in"
    src.mkdir()
    (src / "Tevita_Fifita_letter.txt").write_text(LETTER, encoding="utf-8")
    out = tmp_path / "out"
    assert main(["deidentify", str(src), "--out", str(out), "--ensemble", RULES, "--workspace", str(ws_path), "--quiet"]) == 0
    (written,) = out.glob("*.deid.txt")
    assert_no_names(written.name)
    with Workspace.open(ws_path, create=False) as ws:
        names = ws.get_setting(NAME_MAP_SETTING)
    assert Path(names[str(written)]).name == "Tevita_Fifita_letter.txt"


def test_a_pdf_page_the_export_cannot_vouch_for_is_named_in_the_report_and_not_called_clean(tmp_path):
    # A stamp whose letters form no line is covered, not read: the report must say that page
    # needs a look instead of counting the file among the clean ones.
    from tests.core.docfactory import make_arc_pdf

    src, out = tmp_path / "in", tmp_path / "out"
    src.mkdir()
    make_arc_pdf(src / "scan.pdf", "WHAANGA")
    (src / "letter.txt").write_text(LETTER, encoding="utf-8")
    assert deidentify(tmp_path, str(src), "--out", str(out)) == 0
    report = json.loads((out / "deid_report.json").read_text(encoding="utf-8"))
    by_name = {r["file"]: r for r in report["files"]}
    assert by_name["scan.pdf"]["pages_to_check"] == [1]
    assert by_name["letter.txt"]["pages_to_check"] == []
    assert report["summary"]["files_with_pages_to_check"] == 1
    with open(out / "deid_report.csv", newline="", encoding="utf-8") as f:
        rows = {r["file"]: r for r in csv.DictReader(f)}
    assert rows["scan.pdf"]["pages_to_check"] == "1"
