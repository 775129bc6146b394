"""A table of notes for the table engines' tests: several patients, several notes each,
with names the rules find (after a title), dates and phone numbers, plus bad rows."""

from __future__ import annotations

import csv
import json
from pathlib import Path

from deid_desktop.core.paths import resource
from deid_desktop.core.tables import DetectorSpec, RowJob, Secret, TableColumns

KEY = bytes(range(32))
RULES = str(resource("ensembles", "rules_only.toml"))
PATIENTS = {
    "S-001": ("Harriet", "Pemberton"),
    "S-002": ("Oliver", "Castellano"),
    "S-003": ("Wiremu", "Tamihana"),
    "S-004": ("Priya", "Raghunathan"),
}
NOTES_PER_PATIENT = 6
MAX_CHARS = 400
COLS = TableColumns(spans="spans")


def job(key: bytes = KEY, mode: str = "surrogate") -> RowJob:
    return RowJob(DetectorSpec(ensemble=RULES), Secret(key), mode=mode, max_chars=MAX_CHARS)


def note(first: str, last: str, i: int) -> str:
    return (f"Seen today: Mr {first} {last}, reviewed on 1{i}/03/2021 by Dr Alison Whitcombe.\n"
            f"Plan discussed with Mr {last}; call 021 555 {1200 + i} if worse.")


def good_rows() -> list[dict]:
    """Notes interleaved by patient, so any split into partitions spreads each patient."""
    rows = []
    for i in range(NOTES_PER_PATIENT):
        for subject, (first, last) in PATIENTS.items():
            rows.append({"id": f"MRN{len(rows):05d}", "subject": subject, "text": note(first, last, i), "ward": f"W{i}"})
    return rows


def bad_rows() -> list[dict]:
    """No text, empty text, text too long; the 'not a string' row is added per format."""
    return [
        {"id": "MRN90001", "subject": "S-001", "text": None, "ward": "W9"},
        {"id": "MRN90002", "subject": "S-002", "text": "   ", "ward": "W9"},
        {"id": "MRN90003", "subject": "S-003", "text": "Mr Harriet Pemberton " * 30, "ward": "W9"},
    ]


def write_table(path: Path, rows: list[dict]) -> Path:
    """rows as .jsonl, .csv (None as an empty field) or .parquet (text a string column)."""
    if path.suffix == ".jsonl":
        path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    elif path.suffix == ".csv":
        with open(path, "w", newline="", encoding="utf-8") as f:
            w = csv.DictWriter(f, fieldnames=list(rows[0]))
            w.writeheader()
            w.writerows({k: "" if v is None else v for k, v in r.items()} for r in rows)
    else:
        import pyarrow as pa
        import pyarrow.parquet as pq

        pq.write_table(pa.Table.from_pylist(rows), path)
    return path


def table(path: Path) -> Path:
    """The test table in the format of ``path``'s suffix, bad rows last."""
    rows = good_rows() + bad_rows()
    if path.suffix == ".jsonl":
        rows.append({"id": "MRN90004", "subject": "S-004", "text": 12345, "ward": "W9"})
    return write_table(path, rows)


def originals() -> list[str]:
    return [w for pair in PATIENTS.values() for w in pair] + ["Whitcombe"]


def surrogate_of(rows: list[dict], subject: str) -> set[str]:
    """The set of texts the patient's surname became, in the subject's good rows: the
    second span of each note is the first 'Mr …' name."""
    found = set()
    for r in rows:
        if r.get("subject") == subject and not r.get("errors"):
            spans = json.loads(r["spans"])
            names = [s for s in spans if s["label"] == "NAME"]
            # the text changed, so take the surrogate by position in the output: the
            # first name span's replacement starts where the original did
            start = names[0]["start"]
            found.add(r["text"][start:].split(",")[0])
    return found
