"""The table engine on Apache Spark: the rows of ``tables`` de-identified in executors.

Every pyspark import is in this module, and the module is imported only when the Spark
engine is asked for: the app never needs pyspark (``pip install 'deid-desktop[spark]'``).

Each executor runs ``tables.deidentify_cells`` / ``deidentify_json_line`` over its Arrow
batches (``mapInPandas``), with the Deidentifier ``tables.row_worker`` builds once per
executor Python process (Spark reuses its Python workers across tasks). The surrogate of a
value depends only on (key, subject, category, value), so partitions share no state and a
subject split across partitions gets the same surrogates. The key reaches the executors
inside the pickled task (``tables.Secret``), never as a Spark setting, which Spark logs and
shows in its UI.
"""

from __future__ import annotations

import json
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

from .errors import IngestError
from .tables import (
    RowJob,
    TableColumns,
    TableSummary,
    deidentify_cells,
    deidentify_json_line,
    row_worker,
    table_format,
)

ROW = "_deid_row"  # the row's position in the input, for the order of the output and the report
SUBJECT = "_deid_subject"
ERROR = "_deid_error"
COUNTS = "_deid_counts"
HIDDEN = (ROW, SUBJECT, ERROR, COUNTS)


def is_local_master(master: str | None) -> bool:
    return master is None or master.startswith("local")


def session(master: str | None = None, *, ui: bool = False, app_name: str = "deid-desktop"):
    """The Spark session: the one spark-submit made, or a new one on ``master``.

    On a local master the Python workers run this interpreter (Spark would start
    ``python3`` from PATH, which lacks pyarrow and this package) with this package on their
    path. Files Spark writes are owner-only (umask 077): they hold de-identified notes and
    the input's ids."""
    from pyspark.sql import SparkSession

    submitted = "PYSPARK_GATEWAY_PORT" in os.environ  # the driver runs under spark-submit
    builder = SparkSession.builder.appName(app_name)
    if master is None and not submitted:
        master = "local[*]"
    if master is not None:
        builder = builder.master(master)
    if master is not None and is_local_master(master):
        # PySpark names the workers' interpreter from this variable, not from the setting
        os.environ["PYSPARK_PYTHON"] = sys.executable
        package_root = str(Path(__file__).resolve().parents[2])
        builder = (builder.config("spark.pyspark.python", sys.executable)
                   .config("spark.pyspark.driver.python", sys.executable)
                   .config("spark.executorEnv.PYTHONPATH", os.pathsep.join(p for p in (package_root, os.environ.get("PYTHONPATH")) if p)))
    return (builder.config("spark.ui.enabled", "true" if ui else "false")
            .config("spark.hadoop.fs.permissions.umask-mode", "077")
            .config("spark.ui.showConsoleProgress", "false")
            .config("spark.sql.execution.arrow.pyspark.enabled", "true")
            .getOrCreate())


class DeidentifyBatches:
    """The function each executor runs over its partition's batches. Named, with a repr
    that shows no field: Spark prints the function's name in plans, and the job holds the
    key."""

    __name__ = "deidentify_rows"

    def __init__(self, job: RowJob, cols: TableColumns, jsonl: bool):
        self.job = job
        self.cols = cols
        self.jsonl = jsonl

    def __repr__(self) -> str:
        return "deidentify_rows"

    def __call__(self, batches: Iterator[Any]) -> Iterator[Any]:
        deid = row_worker(self.job)
        for pdf in batches:
            yield self._lines(deid, pdf) if self.jsonl else self._cells(deid, pdf)

    def _lines(self, deid, pdf):
        import pandas as pd

        done = [deidentify_json_line(deid, self.job, line, self.cols) for line in pdf["value"].tolist()]
        return pd.DataFrame({
            "value": [line for line, _ in done],
            ROW: pdf[ROW].to_numpy(),
            ERROR: [o.error for _, o in done],
            COUNTS: [json.dumps(o.counts()) for _, o in done],
        })

    def _cells(self, deid, pdf):
        outcomes = deidentify_cells(deid, self.job, pdf[self.cols.text].tolist(), pdf[SUBJECT].tolist())
        out = pdf.drop(columns=[SUBJECT])
        out[self.cols.text] = [o.text for o in outcomes]
        if self.cols.spans:
            out[self.cols.spans] = [o.spans_json() for o in outcomes]
        out[self.cols.errors] = [o.error for o in outcomes]
        out[ERROR] = [o.error for o in outcomes]
        out[COUNTS] = [json.dumps(o.counts()) for o in outcomes]
        return out.astype({self.cols.text: object})


def read_table(spark, path: str, fmt: str):
    """The input as Spark reads it: Parquet with its types, CSV as strings (quoted fields may
    span lines), jsonl as lines parsed by the row function (so a line that is not an object
    is one bad row, as in the local engine)."""
    if fmt == "parquet":
        return spark.read.parquet(path)
    if fmt == "csv":
        return spark.read.csv(path, header=True, multiLine=True, escape='"', encoding="UTF-8")
    from pyspark.sql import functions as F

    return spark.read.text(path).where(F.trim(F.col("value")) != "")


def with_positions(df):
    """Each row's 0-based position in the input: an id that grows with the input's order
    (partition index in its top bits) rebased onto the row counts of earlier partitions."""
    from pyspark.sql import functions as F

    tagged = df.withColumn("_pid", F.spark_partition_id()).withColumn("_mid", F.monotonically_increasing_id())
    counts = dict(tagged.groupBy("_pid").count().collect())
    offsets, total = [], 0
    for pid in sorted(counts):
        offsets += [F.lit(pid), F.lit(total)]
        total += counts[pid]
    local_index = F.col("_mid") - F.shiftleft(F.col("_pid").cast("long"), 33)
    offset = F.create_map(*offsets)[F.col("_pid")] if offsets else F.lit(0)
    return tagged.withColumn(ROW, (offset + local_index).cast("long")).drop("_pid", "_mid")


def deidentified_frame(spark, src: str, job: RowJob, cols: TableColumns, *, partitions: int | None = None):
    """The de-identified rows (hidden columns included), in input order when
    ``partitions`` left the input's partitioning alone."""
    from pyspark.sql import functions as F
    from pyspark.sql.types import LongType, StringType, StructField, StructType

    fmt = table_format(src)
    df = with_positions(read_table(spark, src, fmt))
    jsonl = fmt == "jsonl"
    if not jsonl:
        if cols.text not in df.columns:
            raise IngestError(src, f"the table has no text column '{cols.text}'", code="no_column")
        subject = F.col(cols.subject).cast("string") if cols.subject else F.lit(None).cast("string")
        df = df.withColumn(SUBJECT, subject)
    if partitions:
        df = df.repartition(partitions)
    hidden = [StructField(ERROR, StringType()), StructField(COUNTS, StringType())]
    if jsonl:
        schema = StructType([StructField("value", StringType()), StructField(ROW, LongType()), *hidden])
    else:
        kept = [StructField(f.name, StringType() if f.name == cols.text else f.dataType, True)
                for f in df.schema if f.name != SUBJECT]
        schema = StructType(kept + [StructField(c, StringType()) for c in cols.added()] + hidden)
    return df.mapInPandas(DeidentifyBatches(job, cols, jsonl), schema)


@dataclass
class SparkRun:
    summary: TableSummary
    timings: dict[str, float]
    partitions: int


def deidentify_table_spark(spark, src: str, dst: str, job: RowJob, cols: TableColumns, *,
                           partitions: int | None = None, overwrite: bool = False) -> SparkRun:
    """Reads ``src``, de-identifies it in the executors and writes ``dst`` as a folder of
    parts in input order (Spark's way: each executor writes its own). The rows are computed
    once: kept (memory, then disk) while the output is written and the report counted."""
    from pyspark import StorageLevel

    t0 = time.perf_counter()
    fmt_out = table_format(dst)
    fmt_in = table_format(src)
    if (fmt_in == "jsonl") != (fmt_out == "jsonl"):
        raise IngestError(src, "a jsonl table can be written as .jsonl only (and only a jsonl table as .jsonl)", code="unsupported")
    frame = deidentified_frame(spark, src, job, cols, partitions=partitions)
    if partitions:
        # the output in input order, in as many parts as asked for
        frame = frame.repartitionByRange(partitions, ROW).sortWithinPartitions(ROW)
    frame = frame.persist(StorageLevel.MEMORY_AND_DISK)
    try:
        _write(frame.drop(*[c for c in HIDDEN if c in frame.columns]), dst, fmt_out, overwrite)
        write_s = time.perf_counter() - t0
        summary = _summary(frame)
        n_parts = frame.rdd.getNumPartitions()
    finally:
        frame.unpersist()
    restrict_permissions(dst)
    return SparkRun(summary, {"deidentify_s": write_s, "total_s": time.perf_counter() - t0}, n_parts)


def _write(df, dst: str, fmt: str, overwrite: bool) -> None:
    writer = df.write.mode("overwrite" if overwrite else "errorifexists")
    if fmt == "parquet":
        writer.parquet(dst)
    elif fmt == "csv":
        writer.csv(dst, header=True, escape='"', encoding="UTF-8")
    else:
        writer.text(dst)


def _summary(frame) -> TableSummary:
    """The report's figures: one summary per partition, made where the rows are kept, and
    merged here (one small row per partition reaches the driver)."""
    from pyspark.sql.types import StringType, StructField, StructType

    parts = frame.select(ROW, ERROR, COUNTS).mapInPandas(summarise_batches, StructType([StructField("summary", StringType())]))
    summary = TableSummary()
    for row in parts.collect():
        summary.merge(TableSummary.from_json(json.loads(row["summary"])))
    return summary


def summarise_batches(batches: Iterator[Any]) -> Iterator[Any]:
    """A partition's rows → one row holding its ``TableSummary`` as JSON."""
    import pandas as pd

    summary = TableSummary()
    for pdf in batches:
        for position, error, counts in zip(pdf[ROW].tolist(), pdf[ERROR].tolist(), pdf[COUNTS].tolist()):
            summary.add_row(int(position), error if isinstance(error, str) else None, json.loads(counts))
    yield pd.DataFrame({"summary": [json.dumps(summary.state())]})


def restrict_permissions(dst: str) -> None:
    """Owner-only files (0600) and folders (0700) in a local output, whatever the cluster's
    file system made of the umask setting. A remote output (hdfs://, s3a://) keeps the
    permissions its store gives."""
    root = Path(dst[len("file:"):] if dst.startswith("file:") else dst)
    if "://" in dst or not root.exists():
        return
    if root.is_file():
        os.chmod(root, 0o600)
        return
    os.chmod(root, 0o700)
    for folder, dirs, files in os.walk(root):
        for d in dirs:
            os.chmod(os.path.join(folder, d), 0o700)
        for f in files:
            os.chmod(os.path.join(folder, f), 0o600)
