"""The table engine in this process: tables in and out, bad rows, subjects, the report, the CLI."""

from __future__ import annotations

import json
import stat

import pytest

from deid_desktop.cli import main
from deid_desktop.core.pipeline import Deidentifier
from deid_desktop.core.surrogates import SurrogateEngine
from deid_desktop.core.tables import (
    deidentify_table_local,
    read_rows,
    report_path,
    row_worker,
    write_table_report,
)

from .table_helpers import COLS, KEY, PATIENTS, RULES, good_rows, job, originals, surrogate_of, table, write_table


def _mode(path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.mark.parametrize("suffix", [".jsonl", ".csv", ".parquet"])
def test_round_trip_keeps_columns_and_replaces_names(tmp_path, suffix):
    src = table(tmp_path / f"notes{suffix}")
    dst = tmp_path / f"out{suffix}"
    run = deidentify_table_local(src, dst, job(), COLS)
    rows_in, rows_out = read_rows(src), read_rows(dst)
    assert len(rows_out) == len(rows_in) == run.summary.rows
    for a, b in zip(rows_in, rows_out):
        assert b["id"] == a["id"] and b["subject"] == a["subject"] and b["ward"] == a["ward"]
    body = dst.read_bytes()
    for original in originals():
        assert original.encode() not in body
    assert _mode(dst) == 0o600
    assert list(rows_out[0]) == ["id", "subject", "text", "ward", "spans", "errors"]
    ok = [r for r in rows_out if not r["errors"]]
    assert len(ok) == len(good_rows())
    assert all(json.loads(r["spans"]) for r in ok)


def test_csv_to_parquet_keeps_the_rows(tmp_path):
    src = table(tmp_path / "notes.csv")
    dst = tmp_path / "out.parquet"
    deidentify_table_local(src, dst, job(), COLS)
    assert [r["id"] for r in read_rows(dst)] == [r["id"] for r in read_rows(src)]


def test_bad_rows_have_a_reason_and_no_text_and_the_rest_is_done(tmp_path):
    src = table(tmp_path / "notes.jsonl")
    with open(src, "a", encoding="utf-8") as f:
        f.write("[1, 2]\nthis line is not JSON\n\n")
    dst = tmp_path / "out.jsonl"
    run = deidentify_table_local(src, dst, job(), COLS)
    rows = read_rows(dst)
    n = len(good_rows())
    assert [r["errors"] for r in rows[n:]] == ["no_text", "no_text", "too_long", "not_text", "not_json", "not_json"]
    assert all(r.get("text") is None for r in rows[n:])
    assert "this line" not in dst.read_text(encoding="utf-8")
    s = run.summary.to_json()
    assert s["rows"] == n + 6 and s["ok"] == n
    assert s["errors_by_reason"]["no_text"]["rows"] == [n, n + 1]
    assert s["errors_by_reason"]["not_json"]["rows"] == [n + 4, n + 5]


def test_a_patient_keeps_one_surrogate_and_patients_get_different_ones(tmp_path):
    dst = tmp_path / "out.jsonl"
    deidentify_table_local(table(tmp_path / "notes.jsonl"), dst, job(), COLS)
    rows = read_rows(dst)
    per_subject = {s: surrogate_of(rows, s) for s in PATIENTS}
    assert all(len(v) == 1 for v in per_subject.values()), per_subject
    assert len({next(iter(v)) for v in per_subject.values()}) == len(PATIENTS)


def test_the_same_name_under_two_subjects_gets_two_surrogates(tmp_path):
    text = "Seen today: Mr Harriet Pemberton, reviewed on 12/03/2021."
    src = write_table(tmp_path / "two.jsonl", [{"subject": "A", "text": text}, {"subject": "B", "text": text}, {"subject": "A", "text": text}])
    dst = tmp_path / "out.jsonl"
    deidentify_table_local(src, dst, job(), COLS)
    a1, b, a2 = (r["text"] for r in read_rows(dst))
    assert a1 == a2 and a1 != b


def test_the_row_function_is_the_batch_pipeline(tmp_path):
    """A row's text is what the folder batch's Deidentifier makes of the same text."""
    from deid_desktop.core.detect.ensemble import Ensemble

    text = good_rows()[0]["text"]
    batch = Deidentifier(Ensemble.from_config(RULES), SurrogateEngine(KEY), rescan=False)
    assert row_worker(job()).deidentify_text(text, "S-001").text == batch.deidentify_text(text, "S-001").text


def test_report_holds_counts_and_positions_only(tmp_path):
    src = table(tmp_path / "notes.csv")
    dst = tmp_path / "out.csv"
    run = deidentify_table_local(src, dst, job(), COLS)
    path = write_table_report(dst, run.summary, {"engine": "local"}, run.timings)
    assert path == report_path(dst)
    body = path.read_text(encoding="utf-8")
    for secret in [*originals(), "MRN", "S-00", "Alison"]:
        assert secret not in body
    report = json.loads(body)
    assert report["summary"]["phi_replaced"]["NAME"] >= 2 * len(good_rows())
    assert report["summary"]["errors_by_reason"]["too_long"]["rows"] == [len(good_rows()) + 2]


def test_cli_writes_the_table_and_its_report(tmp_path, capsys):
    src = table(tmp_path / "notes.csv")
    dst = tmp_path / "out.csv"
    key = tmp_path / "k.key"
    key.write_bytes(KEY)
    rc = main(["deidentify-table", str(src), str(dst), "--ensemble", RULES, "--key-file", str(key), "--spans-column", "spans",
               "--max-chars", "400"])
    assert rc == 1  # some rows had errors
    err = capsys.readouterr().err
    assert f"{len(good_rows())} of {len(good_rows()) + 3} row(s) de-identified, 3 with errors" in err
    assert "Pemberton" not in err and "MRN" not in err
    assert json.loads(report_path(dst).read_text())["meta"]["engine"] == "local"
    deidentify_table_local(src, tmp_path / "again.csv", job(), COLS)
    assert read_rows(dst) == read_rows(tmp_path / "again.csv")


def test_cli_names_the_file_and_a_missing_text_column(tmp_path, capsys):
    src = write_table(tmp_path / "notes.csv", [{"id": "1", "body": "Mr Harriet Pemberton"}])
    rc = main(["deidentify-table", str(src), str(tmp_path / "out.csv"), "--ensemble", RULES, "--key-file", str(tmp_path / "k")])
    err = capsys.readouterr().err
    assert rc == 2
    assert "notes.csv" in err and "no text column 'text'" in err
    assert not (tmp_path / "out.csv").exists()


def test_cli_names_the_file_of_an_unreadable_table(tmp_path, capsys):
    src = tmp_path / "notes.parquet"
    src.write_bytes(b"this is not parquet at all")
    rc = main(["deidentify-table", str(src), str(tmp_path / "out.parquet"), "--ensemble", RULES, "--key-file", str(tmp_path / "k")])
    err = capsys.readouterr().err
    assert rc == 2
    assert "notes.parquet: the table cannot be read" in err


def test_cli_refuses_a_missing_subject_column_it_was_told_of(tmp_path, capsys):
    src = write_table(tmp_path / "notes.csv", [{"id": "1", "text": "Mr Harriet Pemberton"}])
    rc = main(["deidentify-table", str(src), str(tmp_path / "out.csv"), "--subject-column", "patient", "--ensemble", RULES,
               "--key-file", str(tmp_path / "k")])
    assert rc == 2
    assert "no subject column 'patient'" in capsys.readouterr().err


def test_a_numeric_subject_is_one_patient_whatever_type_carries_it():
    # pandas and Spark read an integer column with a gap as floats; JSON as ints: one patient
    import numpy as np

    from deid_desktop.core.tables import subject_of

    assert subject_of(1234) == subject_of(1234.0) == subject_of(np.float64(1234.0)) == subject_of(np.int64(1234)) == "1234"
    assert subject_of(12.5) == "12.5" and subject_of(float("nan")) == subject_of(None) == subject_of("  ") == "default"
