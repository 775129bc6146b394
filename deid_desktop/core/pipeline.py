"""Files in, de-identified files out: ingest → detect → surrogates → export → re-scan → report.

The same use-case serves the CLI (batch, several processes) and the GUI export dialog. Reports
never contain PHI: file names are the user's own paths, and findings are counted per category
with offsets, never quoted.
"""

from __future__ import annotations

import csv
import json
import logging
import os
import time
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

from .documents import Document, Replacement, apply_replacements
from .errors import DeidError, ExportError, IngestError, content_free_traceback
from .spans import Span

log = logging.getLogger(__name__)

MODES = ("surrogate", "tag", "blackout")


@dataclass
class FileResult:
    file: str
    status: str  # "ok" | "error" | "skipped"
    output: str | None = None
    subject: str = ""
    counts: dict[str, int] = field(default_factory=dict)
    rescan_findings: list[dict[str, Any]] = field(default_factory=list)
    residual_originals: int = 0
    warnings: list[str] = field(default_factory=list)
    error_code: str | None = None
    error: str | None = None
    seconds: float = 0.0

    @property
    def n_phi(self) -> int:
        return sum(self.counts.values())


def residual_findings(
    out_text: str, detected: Sequence[Span], replacements: Sequence[Replacement]
) -> list[dict[str, Any]]:
    """Detections in the exported text that are not one of the values just written.

    A detection is expected when its text lies inside a written surrogate, or a written
    surrogate lies inside it (a detector may take "Dr" along with the surrogate name)."""
    written = [r.new_text for r in replacements if r.new_text.strip()]
    found = []
    for s in detected:
        t = out_text[s.start : s.end]
        if any(t in w or w in t for w in written):
            continue
        found.append({"category": s.category.value, "start": s.start, "end": s.end, "score": round(s.score, 3)})
    return found


def count_residual_originals(out_text: str, originals: Iterable[str]) -> int:
    """How many replaced original values still occur in the output text (case-insensitive,
    values of 3+ characters). Anything above 0 is a leak to look at before release."""
    hay = out_text.casefold()
    return sum(1 for o in {o.strip().casefold() for o in originals} if len(o) >= 3 and o in hay)


class Deidentifier:
    """One document at a time: detection spans (or reviewed spans) → replacements → file."""

    def __init__(self, detector, engine, *, mode: str = "surrogate", out_format: str | None = None, rescan: bool = True):
        if mode not in MODES:
            raise ValueError(f"mode must be one of {', '.join(MODES)}")
        self.detector = detector
        self.engine = engine
        self.mode = mode
        self.out_format = out_format
        self.rescan = rescan

    def replacements(self, doc: Document, spans: Sequence[Span], subject: str) -> list[Replacement]:
        return self.engine.replacements(doc.text, list(spans), subject=subject, mode=self.mode)

    def export(self, doc: Document, spans: Sequence[Span], subject: str, out_path: Path, result: FileResult) -> Path:
        from .documents.export import export_document, output_suffix
        from .documents.ingest import load_document

        reps = self.replacements(doc, spans, subject)
        result.counts = dict(Counter(s.category.value for s in spans))
        suffix = output_suffix(doc, self.out_format)
        final = out_path.with_suffix(suffix)
        # written under a temporary name and renamed at the end, so a finished output on
        # disk always means a finished file (what resuming a batch relies on)
        exported = export_document(doc, reps, final.with_name(final.stem + ".part" + suffix), self.out_format)
        written = exported.path
        result.warnings.extend(w for w in exported.warnings if w not in result.warnings)
        if self.rescan:
            back = load_document(written)
            out_text = back.text
            if self.mode == "surrogate":
                detected = self.detector.detect(out_text)
                result.rescan_findings = residual_findings(out_text, detected, reps)
            result.residual_originals = count_residual_originals(out_text, (doc.text[r.start : r.end] for r in reps))
        os.replace(written, final)
        return final

    def process_file(self, path: Path, out_path: Path, subject: str) -> FileResult:
        from .documents.ingest import load_document

        t0 = time.perf_counter()
        res = FileResult(file=str(path), status="ok", subject=subject)
        try:
            doc = load_document(path)
            res.warnings = list(doc.warnings)
            spans = self.detector.detect(doc.text)
            res.output = str(self.export(doc, spans, subject, out_path, res))
        except (IngestError, ExportError) as e:
            res.status, res.error_code, res.error = "error", e.code, str(e)
        except DeidError as e:
            res.status, res.error_code, res.error = "error", "failed", str(e)
        except Exception as e:  # a bug must not stop the batch; the log gets no message text
            log.error("unexpected error on %s\n%s", path.name, content_free_traceback(type(e), e.__traceback__))
            res.status, res.error_code, res.error = "error", "internal", f"{path.name}: internal error ({type(e).__name__})"
        res.seconds = round(time.perf_counter() - t0, 3)
        return res


# -- batch reports ----------------------------------------------------------------------

REPORT_JSON = "deid_report.json"
REPORT_CSV = "deid_report.csv"


def load_report(out_dir: Path) -> dict[str, FileResult]:
    p = out_dir / REPORT_JSON
    if not p.is_file():
        return {}
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError):
        return {}
    return {r["file"]: FileResult(**r) for r in data.get("files", [])}


def write_report(out_dir: Path, results: dict[str, FileResult], meta: dict[str, Any]) -> tuple[Path, Path]:
    """JSON (everything) and CSV (one row per file). Both PHI-free by construction."""
    out_dir.mkdir(parents=True, exist_ok=True)
    rows = sorted(results.values(), key=lambda r: r.file)
    cats = sorted({c for r in rows for c in r.counts})
    summary = {
        "files": len(rows),
        "ok": sum(r.status == "ok" for r in rows),
        "errors": sum(r.status == "error" for r in rows),
        "skipped": sum(r.status == "skipped" for r in rows),
        "phi_replaced": dict(Counter({c: sum(r.counts.get(c, 0) for r in rows) for c in cats})),
        "files_with_rescan_findings": sum(bool(r.rescan_findings) for r in rows),
        "files_with_residual_originals": sum(r.residual_originals > 0 for r in rows),
    }
    jp = out_dir / REPORT_JSON
    tmp = jp.with_suffix(".json.part")
    tmp.write_text(json.dumps({"meta": meta, "summary": summary, "files": [asdict(r) for r in rows]}, indent=2), encoding="utf-8")
    os.replace(tmp, jp)
    cp = out_dir / REPORT_CSV
    with open(cp, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["file", "status", "output", "subject", *[f"n_{c}" for c in cats], "rescan_findings", "residual_originals", "error_code", "error", "warnings", "seconds"])
        for r in rows:
            w.writerow([r.file, r.status, r.output or "", r.subject, *[r.counts.get(c, 0) for c in cats], len(r.rescan_findings), r.residual_originals, r.error_code or "", r.error or "", " | ".join(r.warnings), r.seconds])
    return jp, cp


def load_subject_manifest(path: Path) -> dict[str, str]:
    """CSV with columns ``path`` (file or folder, relative to the manifest or absolute) and
    ``subject``. Returns resolved path → subject."""
    out: dict[str, str] = {}
    with open(path, newline="", encoding="utf-8-sig") as f:
        reader = csv.DictReader(f)
        if not reader.fieldnames or not {"path", "subject"} <= {h.strip().lower() for h in reader.fieldnames}:
            raise DeidError(f"{path.name}: subject manifest needs the columns 'path' and 'subject'")
        for row in reader:
            row = {k.strip().lower(): (v or "").strip() for k, v in row.items() if k}
            p = Path(row["path"])
            if not p.is_absolute():
                p = path.parent / p
            out[str(p.resolve())] = row["subject"]
    return out


def subject_for(file: Path, root: Path | None, manifest: dict[str, str]) -> str:
    """Manifest first (the file, then its nearest listed folder); else the first folder below
    the input folder ("one folder per patient"); else "default"."""
    rf = file.resolve()
    if str(rf) in manifest:
        return manifest[str(rf)]
    for parent in rf.parents:
        if str(parent) in manifest:
            return manifest[str(parent)]
    if root is not None and root.is_dir():
        rel = rf.relative_to(root.resolve())
        if len(rel.parts) > 1:
            return rel.parts[0]
    return "default"


def plan_outputs(inputs: Sequence[Path], out_dir: Path) -> list[tuple[Path, Path | None, Path]]:
    """(file, input root, output path) for every file under the inputs, keeping the folder
    structure below each input folder."""
    from .documents.ingest import iter_input_files

    plan = []
    for inp in inputs:
        root = inp if inp.is_dir() else None
        for f in iter_input_files([inp]):
            rel = f.relative_to(root) if root else Path(f.name)
            out = out_dir / rel.parent / f"{rel.stem}.deid{rel.suffix}"
            plan.append((f, root, out))
    return plan
