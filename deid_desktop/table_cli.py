"""The ``deidentify-table`` sub-command: a table of notes in, the same table de-identified out,
in this process (``--engine local``) or on Spark (``--engine spark``, imported only then)."""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

from .cli import _err, _load_key, build_detector
from .core.surrogates.modes import MODES, ExportMode


def cmd_deidentify_table(args: argparse.Namespace) -> int:
    from .core.tables import (
        DetectorSpec,
        RowJob,
        Secret,
        resolve_columns,
        table_columns,
        remove_output,
        table_format,
        write_table_report,
    )
    from .core.errors import IngestError

    src, dst = args.input, args.output
    fmt_in, fmt_out = table_format(src), table_format(dst)
    remote = "://" in src
    if not remote and not Path(src).exists():
        raise IngestError(src, "the table does not exist", code="not_found")
    if fmt_in == "jsonl" and fmt_out != "jsonl":
        raise IngestError(src, "a jsonl table can be written as .jsonl only: its columns are not known up front", code="unsupported")
    if "://" not in dst and Path(dst).exists() and not args.overwrite:
        _err(f"the output {Path(dst).name} exists already; choose another name or pass --overwrite")
        return 2
    available = [] if (fmt_in == "jsonl" or remote) else table_columns(src)
    if fmt_in == "jsonl" or remote:
        from .core.tables import TableColumns

        cols = TableColumns(text=args.text_column, subject=args.subject_column or "subject", spans=args.spans_column, errors=args.errors_column)
    else:
        cols = resolve_columns(src, available, text=args.text_column, subject=args.subject_column or "subject",
                               subject_given=args.subject_column is not None, id_column=args.id_column or "id",
                               id_given=args.id_column is not None, spans=args.spans_column, errors=args.errors_column)
        if cols.subject is None:
            _err("no subject column: every row is keyed as one subject ('default')")
    key = _load_key(args)
    t0 = time.perf_counter()
    detector = build_detector(args)  # on the driver too: its messages, and what executors must load
    load_s = time.perf_counter() - t0
    described = _describe(detector)
    spec = DetectorSpec(ensemble=args.ensemble, workspace=args.workspace,
                        models=args.models_path or os.environ.get("DEID_MODELS"), members=tuple(described["members"]))
    job = RowJob(spec, Secret(key), mode=args.mode, max_chars=args.max_chars)
    meta = {"tool": "deid-desktop deidentify-table", "engine": args.engine, "mode": args.mode, "input_format": fmt_in,
            "output_format": fmt_out, "key": job.key.identity(), "detector": described,
            "started": time.strftime("%Y-%m-%dT%H:%M:%S")}
    if args.overwrite and "://" not in dst:
        remove_output(dst)
    if args.engine == "local":
        from .core.tables import deidentify_table_local

        run = deidentify_table_local(src, dst, job, cols, detector=detector)
        summary, timings = run.summary, {**run.timings, "load_s": load_s + run.timings["load_s"]}
    else:
        summary, timings = _run_spark(args, src, dst, job, cols, meta)
        timings["driver_load_s"] = load_s
    report = write_table_report(dst, summary, meta, timings)
    s = summary.to_json()
    rate = s["rows"] / timings["deidentify_s"] if timings.get("deidentify_s") else 0.0
    _err(f"{s['ok']} of {s['rows']} row(s) de-identified, {s['errors']} with errors "
         f"({', '.join(f'{n} {r}' for r, n in sorted(summary.errors.items())) or 'none'}); "
         f"{rate:.1f} rows/s; report: {report}")
    return 1 if s["errors"] else 0


def _describe(detector) -> dict:
    desc = detector.describe() if hasattr(detector, "describe") else {}
    return {"strategy": desc.get("strategy"), "members": sorted(desc.get("members", {}))}


def _run_spark(args, src: str, dst: str, job, cols, meta: dict):
    try:
        from .core import spark_engine
    except ImportError:
        raise SystemExit("deid-desktop: the Spark engine needs pyspark: pip install 'deid-desktop[spark]'") from None
    t0 = time.perf_counter()
    spark = spark_engine.session(args.spark_master)
    startup_s = time.perf_counter() - t0
    meta["spark_master"] = spark.sparkContext.master
    run = spark_engine.deidentify_table_spark(spark, src, dst, job, cols, partitions=args.partitions, overwrite=args.overwrite)
    meta["partitions"] = run.partitions
    return run.summary, {"spark_startup_s": startup_s, **run.timings, "total_s": time.perf_counter() - t0}


def register(sub) -> None:
    t = sub.add_parser("deidentify-table", help="de-identify the text column of a table of notes (.jsonl, .csv, .parquet)")
    t.add_argument("input", help="table of notes: .jsonl, .csv or .parquet (a Parquet folder for Spark)")
    t.add_argument("output", help="the same table with the text de-identified (Spark writes a folder of parts); "
                                  "the report is written beside it as OUTPUT.report.json")
    t.add_argument("--engine", choices=("local", "spark"), default="local")
    t.add_argument("--spark-master", help="Spark master URL, e.g. local[4] or spark://host:7077 "
                                          "(default: spark-submit's, else local[*])")
    t.add_argument("--partitions", type=int, help="Spark: spread the rows over this many partitions")
    t.add_argument("--id-column", help="column identifying a row (default: id); carried through, never printed")
    t.add_argument("--subject-column", help="column naming the patient a note belongs to (default: subject, "
                                            "if the table has one; else every row is one subject)")
    t.add_argument("--text-column", default="text")
    t.add_argument("--spans-column", help="also write the spans found (JSON: offsets into the original text, labels)")
    t.add_argument("--errors-column", default="errors", help="column telling why a row has no output text")
    t.add_argument("--mode", choices=MODES, default=ExportMode.SURROGATE.value)
    which = t.add_mutually_exclusive_group()
    which.add_argument("--ensemble", help="ensemble TOML")
    which.add_argument("--workspace", help="use this workspace's secret, model and weights (a path every executor can read)")
    t.add_argument("--key-file", help="surrogate key file (default: in your user data folder)")
    t.add_argument("--models-path", help="the model folder as the executors see it (default: DEID_MODELS)")
    t.add_argument("--max-chars", type=int, default=1_000_000, help="longer texts are reported as errors")
    t.add_argument("--overwrite", action="store_true", help="replace an existing output")
    t.set_defaults(func=cmd_deidentify_table)

