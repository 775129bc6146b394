"""The Spark engine against the local one: the same table out, row for row, from executors
that share nothing; bad rows reported; owner-only output; the key in no setting or log.

One Spark session (local[2], no UI) serves the whole module: starting one takes seconds."""

from __future__ import annotations

import base64
import json
import os
import shutil
import stat

import pytest

from deid_desktop.cli import main
from deid_desktop.core.tables import deidentify_table_local, read_rows, report_path

from .table_helpers import COLS, KEY, PATIENTS, RULES, good_rows, job, originals, surrogate_of, table

pytestmark = [
    pytest.mark.spark,
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("java") is None and not os.environ.get("JAVA_HOME"),
                       reason="Spark needs Java (packaging/install-sysdeps.sh installs default-jre-headless)"),
]
PARTITIONS = 3


@pytest.fixture(scope="session")
def spark_log(tmp_path_factory):
    """Where the Spark JVM (and the Python workers it starts) write their output: they
    inherit the standard streams of the moment the session starts, which pytest's capture
    of a later test cannot reach."""
    return tmp_path_factory.mktemp("spark") / "jvm.log"


@pytest.fixture(scope="session")
def spark(spark_log):
    from deid_desktop.core.spark_engine import session

    fd = os.open(spark_log, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    saved = [os.dup(1), os.dup(2)]
    os.dup2(fd, 1)
    os.dup2(fd, 2)
    try:
        s = session("local[2]")
    finally:
        os.dup2(saved[0], 1)
        os.dup2(saved[1], 2)
        for f in (*saved, fd):
            os.close(f)
    s.sparkContext.setLogLevel("ERROR")
    yield s
    s.stop()


def _spark_run(spark, src, dst, **kw):
    from deid_desktop.core.spark_engine import deidentify_table_spark

    return deidentify_table_spark(spark, str(src), str(dst), kw.pop("job", job()), COLS, partitions=PARTITIONS, **kw)


@pytest.mark.parametrize("suffix", [".jsonl", ".csv", ".parquet"])
def test_spark_writes_the_table_the_local_engine_writes(spark, tmp_path, suffix):
    src = table(tmp_path / f"notes{suffix}")
    local = deidentify_table_local(src, tmp_path / f"local{suffix}", job(), COLS)
    remote = _spark_run(spark, src, tmp_path / f"spark{suffix}")
    assert read_rows(tmp_path / f"spark{suffix}") == read_rows(tmp_path / f"local{suffix}")
    assert remote.summary.to_json() == local.summary.to_json()
    assert remote.partitions == PARTITIONS


def test_bad_rows_are_reported_and_the_job_completes(spark, tmp_path):
    src = table(tmp_path / "notes.jsonl")
    with open(src, "a", encoding="utf-8") as f:
        f.write("this line is not JSON\n")
    run = _spark_run(spark, src, tmp_path / "out.jsonl")
    rows = read_rows(tmp_path / "out.jsonl")
    n = len(good_rows())
    assert [r["errors"] for r in rows[n:]] == ["no_text", "no_text", "too_long", "not_text", "not_json"]
    assert all(r["errors"] is None and r["text"] for r in rows[:n])
    assert run.summary.to_json()["errors_by_reason"]["too_long"]["rows"] == [n + 2]


def test_a_subject_split_across_partitions_keeps_its_surrogates(spark, tmp_path):
    from pyspark.sql import functions as F

    from deid_desktop.core.spark_engine import deidentified_frame

    src = table(tmp_path / "notes.parquet")
    frame = deidentified_frame(spark, str(src), job(), COLS, partitions=PARTITIONS)
    placed = frame.withColumn("partition", F.spark_partition_id())
    spread = dict(placed.groupBy("subject").agg(F.countDistinct("partition").alias("n")).collect())
    assert all(spread[s] > 1 for s in PATIENTS), spread  # every patient's notes in several partitions
    rows = [r.asDict() for r in frame.select("subject", "text", "spans", "errors").collect()]
    per_subject = {s: surrogate_of(rows, s) for s in PATIENTS}
    assert all(len(v) == 1 for v in per_subject.values()), per_subject
    assert len({next(iter(v)) for v in per_subject.values()}) == len(PATIENTS)


def test_output_folder_is_owner_only(spark, tmp_path):
    dst = tmp_path / "out.parquet"
    _spark_run(spark, table(tmp_path / "notes.parquet"), dst)
    assert stat.S_IMODE(dst.stat().st_mode) == 0o700
    files = [p for p in dst.rglob("*") if p.is_file()]
    assert files and all(stat.S_IMODE(p.stat().st_mode) == 0o600 for p in files)
    body = b"".join(p.read_bytes() for p in files)
    for original in originals():
        assert original.encode() not in body


def test_the_key_is_in_no_setting_plan_or_log(spark, spark_log, tmp_path, capfd):
    key = os.urandom(32)
    forms = [key.hex(), key.hex().upper(), base64.b64encode(key).decode(), base64.urlsafe_b64encode(key).decode(), repr(key)]
    logged_before = spark_log.stat().st_size
    spark.sparkContext.setLogLevel("INFO")
    try:
        from deid_desktop.core.spark_engine import deidentified_frame

        plan = deidentified_frame(spark, str(table(tmp_path / "notes.parquet")), job(key), COLS)._jdf.queryExecution().toString()
        _spark_run(spark, tmp_path / "notes.parquet", tmp_path / "out.parquet", job=job(key))
    finally:
        spark.sparkContext.setLogLevel("ERROR")
    captured = capfd.readouterr()
    with open(spark_log, encoding="utf-8", errors="replace") as f:
        f.seek(logged_before)
        logs = f.read()
    settings = "\n".join(f"{k}={v}" for k, v in spark.sparkContext.getConf().getAll())
    assert "INFO" in logs and "deidentify_rows" in plan  # there was something to search
    for form in forms:
        for where, text in (("conf", settings), ("plan", plan), ("Spark log", logs), ("stdout", captured.out), ("stderr", captured.err)):
            assert form not in text, f"the key appears in the {where}"


def test_cli_runs_the_spark_engine(spark, tmp_path, capsys):
    src = table(tmp_path / "notes.csv")
    key = tmp_path / "k.key"
    key.write_bytes(KEY)
    dst = tmp_path / "out.csv"
    rc = main(["deidentify-table", str(src), str(dst), "--engine", "spark", "--spark-master", "local[2]", "--partitions", "2",
               "--ensemble", RULES, "--key-file", str(key), "--spans-column", "spans", "--max-chars", "400"])
    err = capsys.readouterr().err
    assert rc == 1, err  # the bad rows
    assert f"{len(good_rows())} of {len(good_rows()) + 3} row(s) de-identified" in err
    report = json.loads(report_path(dst).read_text(encoding="utf-8"))
    assert report["meta"]["engine"] == "spark" and "spark_startup_s" in report["timings"]
    deidentify_table_local(src, tmp_path / "local.csv", job(), COLS)
    assert read_rows(dst) == read_rows(tmp_path / "local.csv")
