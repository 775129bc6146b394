"""Tables of notes in, the same tables out with the text de-identified.

A table (.jsonl, .csv, .parquet) holds one note per row: a text column, optionally a subject
column (whose surrogates a note shares) and any other columns, carried through unchanged.
Both table engines, this process (``deidentify_table_local``) and Spark executors
(``spark_engine``), run every row through the same function, ``deidentify_cells``, over the
batch's ``Deidentifier.deidentify_text``: a row's output depends only on its text, its
subject, the detector and the key, never on which rows share its batch or partition, so the
two engines write the same table.

A bad row (no text, text that is not a string, text over the length limit, a jsonl line that
is not an object) gets its reason in the errors column and no text; the job goes on. The
report (``TableSummary``) counts findings per category and errors per reason and names bad
rows by position only: ids are often record numbers, which are PHI.
"""

from __future__ import annotations

import csv
import hashlib
import hmac
import json
import logging
import math
import os
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Iterator, Sequence

from .errors import DeidError, IngestError, ModelError, content_free_traceback
from .safe_files import atomic_text, write_atomic_text
from .surrogates.modes import ExportMode

log = logging.getLogger(__name__)

FORMATS = ("jsonl", "csv", "parquet")
# Longer texts are refused per row: a table row is a note, and one megabyte of text in a
# cell is a mistake (a whole export pasted in) that would stall its partition.
MAX_CHARS = 1_000_000
ROWS_PER_CHUNK = 256
# How many bad-row positions the report lists per reason (the count is always complete).
POSITIONS_LISTED = 1000
DEFAULT_SUBJECT = "default"

REASONS = {
    "no_text": "the text is missing or empty",
    "not_text": "the text is not a string",
    "too_long": "the text is longer than the limit",
    "not_json": "the line is not a JSON object",
    "failed": "de-identification failed (internal error)",
}


def table_format(path: str | Path) -> str:
    """"jsonl", "csv" or "parquet", from the name's suffix (a Parquet folder included)."""
    suffix = Path(str(path).rstrip("/")).suffix.lower()
    fmt = {".jsonl": "jsonl", ".ndjson": "jsonl", ".json": "jsonl", ".csv": "csv", ".parquet": "parquet"}.get(suffix)
    if fmt is None:
        raise IngestError(path, "not a table this command reads (.jsonl, .csv or .parquet)", code="unsupported")
    return fmt


@dataclass(frozen=True)
class TableColumns:
    """Where the text and the subject are read, and where spans and errors are written."""

    text: str = "text"
    subject: str | None = "subject"
    spans: str | None = None
    errors: str = "errors"

    def added(self) -> list[str]:
        return [c for c in (self.spans, self.errors) if c]


def resolve_columns(path: str | Path, available: Sequence[str], *, text: str, subject: str | None, subject_given: bool,
                    id_column: str | None, id_given: bool, spans: str | None, errors: str) -> TableColumns:
    """The columns of this table, checked: a named column that is missing, or an output
    column the input has already, is an error naming the file. The default subject column
    is used when present; without one every row is one subject, "default"."""
    have = set(available)
    if text not in have:
        raise IngestError(path, f"the table has no text column '{text}' (columns: {', '.join(available) or 'none'})", code="no_column")
    if subject_given and subject not in have:
        raise IngestError(path, f"the table has no subject column '{subject}'", code="no_column")
    if id_given and id_column not in have:
        raise IngestError(path, f"the table has no id column '{id_column}'", code="no_column")
    for out in (spans, errors):
        if out and out in have:
            raise IngestError(path, f"the table has a column '{out}' already; name the output column otherwise", code="column_clash")
    if spans and spans == errors:
        raise DeidError("the spans and errors columns need different names")
    return TableColumns(text=text, subject=subject if subject in have else None, spans=spans, errors=errors)


# -- the surrogate key and the detector, as a worker process rebuilds them -------------------

class Secret:
    """The surrogate key on its way to a worker. It travels inside the pickled task, never
    as a setting: Spark prints its configuration and job descriptions, not closures. Its
    repr hides it so no log line, plan or traceback can show it."""

    __slots__ = ("_value",)

    def __init__(self, value: bytes):
        self._value = bytes(value)

    def reveal(self) -> bytes:
        return self._value

    def identity(self) -> str:
        """A keyed hash that tells keys apart without disclosing them (cache keys, reports)."""
        return hmac.new(self._value, b"deid-desktop key identity", hashlib.sha256).hexdigest()[:16]

    def __repr__(self) -> str:
        return "Secret(<withheld>)"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Secret) and hmac.compare_digest(self._value, other._value)

    def __hash__(self) -> int:
        return hash(self.identity())

    def __getstate__(self) -> bytes:
        return self._value

    def __setstate__(self, value: bytes) -> None:
        self._value = value


@dataclass(frozen=True)
class DetectorSpec:
    """How a process builds the detector: an ensemble file, a workspace (its model, weights
    and lists), and the model folder as that process sees it. Paths, not objects: a model
    is loaded where it runs, once per process (``row_worker``)."""

    ensemble: str | None = None
    workspace: str | None = None
    models: str | None = None
    # the members the driver loaded: an executor that cannot load one of them (its model
    # folder was not shipped) fails the job rather than quietly detecting with fewer
    members: tuple[str, ...] = ()

    def build(self):
        if self.models:
            # the members resolve their model folders through this (core/paths.py)
            os.environ["DEID_MODELS"] = self.models
        from .usecases.detection import DetectorSettings, build_detector

        detector = build_detector(DetectorSettings(ensemble_config=self.ensemble, workspace_path=self.workspace))
        lacking = sorted(set(self.members) - set(detector.describe().get("members", {})))
        if lacking:
            raise ModelError(f"this worker could not load the ensemble member(s) {', '.join(lacking)}: "
                             "make the model folder readable here (--models-path, docs/spark.md)")
        return detector


@dataclass(frozen=True)
class RowJob:
    """Everything a process needs to de-identify rows: picklable, so Spark ships it."""

    detector: DetectorSpec
    key: Secret
    mode: ExportMode = ExportMode.SURROGATE
    max_chars: int = MAX_CHARS

    def __post_init__(self) -> None:
        # The command line hands the mode over as the string it read.
        object.__setattr__(self, "mode", ExportMode.parse(self.mode))

    def cache_key(self) -> tuple:
        return (self.detector, self.key.identity(), self.mode)


# One Deidentifier per job and process: Spark reuses its Python workers across tasks, so the
# model is read once per executor process, not once per partition.
_WORKERS: dict[tuple, Any] = {}


def row_worker(job: RowJob, detector=None):
    """The job's Deidentifier, built on first use in this process (``detector``: one the
    caller built already, as the command line does to report missing models)."""
    key = job.cache_key()
    deid = _WORKERS.get(key)
    if deid is None:
        from .pipeline import Deidentifier
        from .surrogates import SurrogateEngine

        deid = Deidentifier(detector if detector is not None else job.detector.build(), SurrogateEngine(job.key.reveal()),
                            mode=job.mode, rescan=False)
        _WORKERS[key] = deid
    return deid


# -- the row function both engines share -------------------------------------------------

@dataclass
class RowOutcome:
    text: str | None
    spans: list = field(default_factory=list)
    error: str | None = None

    def counts(self) -> dict[str, int]:
        return dict(Counter(s.category.value for s in self.spans))

    def spans_json(self) -> str | None:
        return None if self.error else json.dumps([s.to_json() for s in self.spans])


def _missing(value: Any) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value))


def subject_of(value: Any) -> str:
    """A row's subject as the surrogates key it: its text, "default" when there is none.

    A whole number is keyed by its digits whatever type carries it: pandas and Spark read an
    integer column with a gap as floats (1234.0), JSON reads it as an int (1234), and the
    two engines must give one patient one set of surrogates."""
    if _missing(value):
        return DEFAULT_SUBJECT
    if hasattr(value, "item") and not isinstance(value, (str, bytes)):
        value = value.item()  # a numpy scalar, as pandas hands them out
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    text = str(value).strip()
    return text or DEFAULT_SUBJECT


def deidentify_cell(deid, value: Any, subject: str, max_chars: int) -> RowOutcome:
    """One row's text → its de-identified text and spans, or the reason it has none.
    A bad row never raises: the errors column tells it, and the rest of the table goes on."""
    if _missing(value):
        return RowOutcome(None, error="no_text")
    if not isinstance(value, str):
        return RowOutcome(None, error="not_text")
    if not value.strip():
        return RowOutcome(None, error="no_text")
    if len(value) > max_chars:
        return RowOutcome(None, error="too_long")
    try:
        done = deid.deidentify_text(value, subject)
    except Exception as e:  # a bug on one row must not stop the table; the log gets no text
        log.error("de-identifying a row failed\n%s", content_free_traceback(type(e), e.__traceback__))
        return RowOutcome(None, error="failed")
    return RowOutcome(done.text, list(done.spans))


def deidentify_cells(deid, job: RowJob, texts: Sequence[Any], subjects: Sequence[Any]) -> list[RowOutcome]:
    return [deidentify_cell(deid, t, subject_of(s), job.max_chars) for t, s in zip(texts, subjects)]


def deidentify_record(deid, job: RowJob, record: dict, cols: TableColumns) -> tuple[dict, RowOutcome]:
    """A row as a dict → the output row (text replaced, spans and errors added)."""
    subject = record.get(cols.subject) if cols.subject else None
    outcome = deidentify_cells(deid, job, [record.get(cols.text)], [subject])[0]
    return with_outcome(record, outcome, cols), outcome


def with_outcome(record: dict, outcome: RowOutcome, cols: TableColumns) -> dict:
    out = dict(record)
    out[cols.text] = outcome.text
    if cols.spans:
        out[cols.spans] = outcome.spans_json()
    out[cols.errors] = outcome.error
    return out


def deidentify_json_line(deid, job: RowJob, line: str, cols: TableColumns) -> tuple[str, RowOutcome]:
    """One jsonl line → its output line. A line that is not a JSON object becomes an object
    holding only the reason: its content is never copied to the output."""
    try:
        record = json.loads(line)
    except ValueError:
        record = None
    if not isinstance(record, dict):
        outcome = RowOutcome(None, error="not_json")
        return json.dumps({cols.errors: outcome.error}, ensure_ascii=False), outcome
    out, outcome = deidentify_record(deid, job, record, cols)
    return json.dumps(out, ensure_ascii=False), outcome


# -- the report ----------------------------------------------------------------------------

@dataclass
class TableSummary:
    """What a table run did, PHI-free: counts and row positions (0-based, in input order;
    a jsonl file's blank lines are not rows), never ids or text."""

    rows: int = 0
    phi_replaced: Counter = field(default_factory=Counter)
    errors: Counter = field(default_factory=Counter)
    error_rows: dict[str, list[int]] = field(default_factory=dict)

    def add(self, position: int, outcome: RowOutcome) -> None:
        self.add_row(position, outcome.error, outcome.counts())

    def add_row(self, position: int, error: str | None, counts: dict[str, int]) -> None:
        self.rows += 1
        self.phi_replaced.update(counts)
        if error:
            self.add_error(position, error)

    def add_error(self, position: int, error: str) -> None:
        self.errors[error] += 1
        listed = self.error_rows.setdefault(error, [])
        if len(listed) < POSITIONS_LISTED:
            listed.append(position)

    def merge(self, other: "TableSummary") -> None:
        """Adds the figures of another part of the table (a Spark partition)."""
        self.rows += other.rows
        self.phi_replaced.update(other.phi_replaced)
        self.errors.update(other.errors)
        for reason, positions in other.error_rows.items():
            self.error_rows[reason] = sorted(self.error_rows.get(reason, []) + positions)[:POSITIONS_LISTED]

    def state(self) -> dict[str, Any]:
        """Everything ``from_json`` needs (a partition's summary on its way to the driver)."""
        return {"rows": self.rows, "phi_replaced": dict(self.phi_replaced), "errors": dict(self.errors), "error_rows": self.error_rows}

    @classmethod
    def from_json(cls, state: dict[str, Any]) -> "TableSummary":
        return cls(state["rows"], Counter(state["phi_replaced"]), Counter(state["errors"]), dict(state["error_rows"]))

    def to_json(self) -> dict[str, Any]:
        return {
            "rows": self.rows,
            "ok": self.rows - sum(self.errors.values()),
            "errors": sum(self.errors.values()),
            "phi_replaced": dict(sorted(self.phi_replaced.items())),
            "errors_by_reason": {
                reason: {"count": n, "explanation": REASONS.get(reason, reason), "rows": sorted(self.error_rows.get(reason, []))}
                for reason, n in sorted(self.errors.items())
            },
        }


def report_path(output: str | Path) -> Path:
    out = Path(str(output).rstrip("/"))
    return out.with_name(out.name + ".report.json")


def write_table_report(output: str | Path, summary: TableSummary, meta: dict[str, Any], timings: dict[str, float]) -> Path:
    """Beside the output, readable by others: it holds counts, reasons, positions and
    seconds only."""
    path = report_path(output)
    body = {"meta": meta, "summary": summary.to_json(), "timings": {k: round(v, 3) for k, v in timings.items()}}
    write_atomic_text(path, json.dumps(body, indent=2) + "\n", mode=0o644)
    return path


def remove_output(dst: str | Path) -> None:
    """An earlier output removed before it is replaced (a file, or a folder of parts)."""
    import shutil

    p = Path(dst)
    if p.is_dir():
        shutil.rmtree(p)
    elif p.exists():
        p.unlink()


# -- reading and writing tables in this process ----------------------------------------------

def _unreadable(path: str | Path, e: BaseException) -> IngestError:
    reason = getattr(e, "strerror", None) or type(e).__name__
    return IngestError(path, f"the table cannot be read ({reason})", code="unreadable")


def table_columns(path: str | Path) -> list[str]:
    """The column names of a .csv or .parquet table (a jsonl table has none up front)."""
    fmt = table_format(path)
    try:
        if fmt == "csv":
            with open(path, newline="", encoding="utf-8-sig") as f:
                return next(csv.reader(f), [])
        if fmt == "parquet":
            import pyarrow.parquet as pq

            return list(pq.read_schema(_parquet_file(path)).names)
    except UnicodeDecodeError:
        raise IngestError(path, "the table is not UTF-8 text", code="binary") from None
    except (OSError, ValueError) as e:
        raise _unreadable(path, e) from None
    return []


def _parquet_file(path: str | Path) -> str:
    """A Parquet file, or the first part of a Parquet folder (its schema is the table's)."""
    p = Path(path)
    if p.is_dir():
        parts = sorted(q for q in p.iterdir() if q.suffix == ".parquet" and not q.name.startswith((".", "_")))
        if not parts:
            raise IngestError(path, "the Parquet folder holds no .parquet part", code="empty")
        return str(parts[0])
    return str(p)


def _part_files(folder: Path) -> list[Path]:
    """A Spark output folder's data files in row order (part-00000, part-00001, …)."""
    return sorted(q for q in folder.iterdir() if q.name.startswith("part-") and not q.name.endswith(".crc"))


def iter_json_lines(path: str | Path) -> Iterator[str]:
    """The non-blank lines of a jsonl file or of a folder of parts. Undecodable bytes become
    U+FFFD, as Spark's text reader makes them, so both engines read the same lines."""
    p = Path(path)
    for part in _part_files(p) if p.is_dir() else [p]:
        with open(part, "rb") as f:
            for raw in f:
                line = raw.decode("utf-8", errors="replace").rstrip("\r\n")
                if line.strip():
                    yield line


def read_rows(path: str | Path) -> list[dict]:
    """A whole table as dicts (a file or a Spark output folder): for tests and checks on
    tables that fit in memory."""
    fmt = table_format(path)
    p = Path(path)
    if fmt == "jsonl":
        return [json.loads(line) for line in iter_json_lines(p)]
    if fmt == "csv":
        rows: list[dict] = []
        for part in _part_files(p) if p.is_dir() else [p]:
            with open(part, newline="", encoding="utf-8-sig") as f:
                rows.extend(csv.DictReader(f))
        return rows
    import pyarrow.parquet as pq

    if p.is_dir():
        import pyarrow as pa

        return pa.concat_tables([pq.read_table(q) for q in _part_files(p) if q.suffix == ".parquet"]).to_pylist()
    return pq.read_table(p).to_pylist()


def _chunks(items: Iterable, n: int) -> Iterator[list]:
    chunk: list = []
    for item in items:
        chunk.append(item)
        if len(chunk) >= n:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


@dataclass
class LocalRun:
    summary: TableSummary
    timings: dict[str, float]


def deidentify_table_local(src: str | Path, dst: str | Path, job: RowJob, cols: TableColumns, *, detector=None) -> LocalRun:
    """The reference engine: the table read, de-identified and written by this process.
    The output holds de-identified text and the input's other columns (ids among them), so
    it is owner-only, and written under a temporary name: a finished file is a whole one."""
    t0 = time.perf_counter()
    deid = row_worker(job, detector)
    load_s = time.perf_counter() - t0
    summary = TableSummary()
    fmt_in, fmt_out = table_format(src), table_format(dst)
    t1 = time.perf_counter()
    records = _local_records(src, fmt_in, cols)
    outputs = _local_outputs(deid, job, records, cols, summary)
    _write_local(dst, fmt_out, outputs, _output_fields(src, fmt_in, fmt_out, cols))
    work_s = time.perf_counter() - t1
    return LocalRun(summary, {"load_s": load_s, "deidentify_s": work_s, "total_s": time.perf_counter() - t0})


def _local_records(src: str | Path, fmt: str, cols: TableColumns) -> Iterator[dict | str]:
    """Rows as dicts (csv, parquet) or as raw lines (jsonl, parsed by the row function)."""
    try:
        if fmt == "jsonl":
            yield from iter_json_lines(src)
        elif fmt == "csv":
            with open(src, newline="", encoding="utf-8-sig") as f:
                yield from csv.DictReader(f)
        else:
            import pyarrow.parquet as pq

            for part in _parquet_parts(src):
                for batch in pq.ParquetFile(part).iter_batches(batch_size=ROWS_PER_CHUNK):
                    yield from batch.to_pylist()
    except UnicodeDecodeError:
        raise IngestError(src, "the table is not UTF-8 text", code="binary") from None
    except csv.Error:
        raise IngestError(src, "the table is not valid CSV", code="corrupt") from None
    except (OSError, ValueError) as e:
        raise _unreadable(src, e) from None


def _parquet_parts(src: str | Path) -> list[Path]:
    p = Path(src)
    return [q for q in _part_files(p) if q.suffix == ".parquet"] if p.is_dir() else [p]


def _local_outputs(deid, job: RowJob, records: Iterable[dict | str], cols: TableColumns, summary: TableSummary) -> Iterator[dict | str]:
    position = 0
    for record in records:
        if isinstance(record, str):
            out, outcome = deidentify_json_line(deid, job, record, cols)
        else:
            out, outcome = deidentify_record(deid, job, record, cols)
        summary.add(position, outcome)
        position += 1
        yield out


def _output_fields(src: str | Path, fmt_in: str, fmt_out: str, cols: TableColumns) -> Any:
    """The output's columns: the input's (the text column now a string) plus the added ones;
    a pyarrow schema for Parquet (a CSV table's columns are all strings)."""
    if fmt_out == "jsonl":
        return None
    if fmt_in == "jsonl":
        raise DeidError("a jsonl table can be written as .jsonl only: its columns are not known up front")
    import pyarrow as pa

    if fmt_in == "csv":
        schema = pa.schema([pa.field(c, pa.string()) for c in table_columns(src)])
    else:
        import pyarrow.parquet as pq

        schema = pq.read_schema(_parquet_file(src))
    if fmt_out == "csv":
        return [*schema.names, *cols.added()]
    fields = [pa.field(f.name, pa.string() if f.name == cols.text else f.type, nullable=True) for f in schema]
    return pa.schema(fields + [pa.field(c, pa.string(), nullable=True) for c in cols.added()])


def _write_local(dst: str | Path, fmt: str, rows: Iterable[dict | str], fields: Any) -> None:
    dst = Path(dst)
    if fmt == "parquet":
        _write_parquet(dst, rows, fields)
        return
    with atomic_text(dst, newline="" if fmt == "csv" else None) as f:
        if fmt == "jsonl":
            for row in rows:
                f.write((row if isinstance(row, str) else json.dumps(row, ensure_ascii=False)) + "\n")
            return
        w = csv.DictWriter(f, fieldnames=fields, extrasaction="ignore")
        w.writeheader()
        for row in rows:
            w.writerow(row)


def _write_parquet(dst: Path, rows: Iterable[dict | str], schema: Any) -> None:
    """Parquet written to a 0600 temporary file beside ``dst`` and renamed over it."""
    import tempfile

    import pyarrow as pa
    import pyarrow.parquet as pq

    fd, tmp = tempfile.mkstemp(prefix=f".{dst.name}.", suffix=".part", dir=dst.parent)
    os.close(fd)
    try:
        with pq.ParquetWriter(tmp, schema) as w:
            for chunk in _chunks(rows, ROWS_PER_CHUNK):
                w.write_table(pa.Table.from_pylist(chunk, schema=schema))
        os.chmod(tmp, 0o600)
        os.replace(tmp, dst)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
