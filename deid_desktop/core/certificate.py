"""The release certificate: a PHI-free record of what an export released and on what grounds.

Written beside the export report as ``release-certificate.json`` (the record) and
``release-certificate.pdf`` (the same for a person to read and sign off). For every output it
names the file by its de-identified name, its SHA-256, a keyed digest of its input, the
reviewers and their decisions by kind, the findings nobody decided that the export replaced
anyway, and what the re-scan of the output found; for the export as a whole the app version,
the detector (models, ensemble file and its SHA-256, strategy) and the replacement mode.

Nothing in it is read from document text or from original file names or paths: files are
named as the report names them (``naming``), the input digest is keyed like the report's
(so the certificate cannot confirm a guessed original), models by name and version, never by
folder. Each export to a folder adds its record; a file written again leaves the record of
the export that wrote it before, so the certificate always describes the files in the folder.
"""

from __future__ import annotations

import hashlib
import io
import json
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path, PurePath
from typing import Any, Iterable, Sequence

from .pipeline import FileResult
from .safe_files import write_atomic_bytes, write_atomic_text

CERTIFICATE_JSON = "release-certificate.json"
CERTIFICATE_PDF = "release-certificate.pdf"
FORMAT_VERSION = 1
# Decision kinds counted per output, in the order a person reads them.
DECISION_KINDS = ("accept", "reject", "relabel", "resize", "add")


def utc_now() -> str:
    return datetime.now(timezone.utc).replace(microsecond=0).isoformat().replace("+00:00", "Z")


def file_sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


# -- what went into an output -------------------------------------------------------------


@dataclass
class Review:
    """What the reviewers did to one document, from the append-only decision log."""

    reviewers: list[str] = field(default_factory=list)
    decisions: dict[str, int] = field(default_factory=dict)  # kind -> decisions in force
    undone: int = 0
    detection_runs: list[int] = field(default_factory=list)
    # Set for a double-reviewed document: {"first", "second", "adjudicators", "adjudicated"}.
    double_review: dict[str, Any] | None = None


def document_review(workspace, document_id: int) -> Review:
    """The decisions in force on a document by kind and who made them; an undone decision is
    counted as undone only, since the export did not follow it."""
    rows = workspace.decisions(document_id=document_id)
    in_force = [d for d in rows if d.action.value != "undo" and not d.undone]
    kinds = Counter(d.action.value for d in in_force)
    runs = sorted({s.detection_run_id for s in workspace.list_spans(document_id) if s.detection_run_id is not None})
    return Review(
        reviewers=sorted({d.reviewer for d in in_force}),
        decisions={k: kinds.get(k, 0) for k in DECISION_KINDS},
        undone=sum(d.undone for d in rows if d.action.value != "undo"),
        detection_runs=runs,
        double_review=_double_review(workspace, document_id),
    )


def _double_review(workspace, document_id: int) -> dict[str, Any] | None:
    marks = workspace.double_reviews([document_id])
    if not marks:
        return None
    mark = marks[0]
    return {
        "first": mark.first_reviewer,
        "second": mark.second_reviewer,
        "adjudicators": workspace.adjudicators(document_id),
        "adjudicated": not workspace.awaiting_adjudication([document_id]),
    }


def agreement_record(workspace) -> dict[str, Any] | None:
    """The workspace's inter-reviewer agreement (``core.agreement``), or None when no
    document has been reviewed twice: figures and reviewer names, no text."""
    from .agreement import agreement

    pairs, reviewers = workspace.review_pairs()
    if not pairs:
        return None
    return {"reviewers": reviewers, **agreement(pairs).to_json()}


def certified_output(
    result: FileResult,
    out_dir: Path,
    *,
    input_digest: str,
    document_id: int | None = None,
    review: Review | None = None,
    auto_accepted: int = 0,
    status_at_export: str | None = None,
) -> dict[str, Any]:
    """One output's entry. ``result.file`` is the report's de-identified name; the output is
    named relative to ``out_dir`` (the folder path above it may be PHI, the relative path is
    the de-identified one the export wrote)."""
    entry: dict[str, Any] = {
        "file": result.file,
        "status": result.status,
        "document_id": document_id,
        "input_hmac_sha256": input_digest,
        "status_at_export": status_at_export,
        "reviewers": list(review.reviewers) if review else [],
        "decisions": dict(review.decisions) if review else {k: 0 for k in DECISION_KINDS},
        "decisions_undone": review.undone if review else 0,
        "detection_runs": list(review.detection_runs) if review else [],
        "double_review": review.double_review if review else None,
        "undecided_auto_accepted": auto_accepted,
        "replaced": dict(sorted(result.counts.items())),
        "rescan_findings": len(result.rescan_findings),
        "residual_originals": result.residual_originals,
        "pages_to_check": list(result.pages_to_check),
        "needs_check": result.needs_check,
    }
    if result.status != "ok" or not result.output:
        entry.update(output=None, output_sha256=None, output_bytes=None, error_code=result.error_code)
        return entry
    path = Path(result.output)
    entry.update(output=_relative_name(path, out_dir), output_sha256=file_sha256(path), output_bytes=path.stat().st_size)
    return entry


def _relative_name(path: Path, out_dir: Path) -> str:
    try:
        return path.resolve().relative_to(out_dir.resolve()).as_posix()
    except ValueError:  # an output outside the folder: its name only, never its folders
        return path.name


# -- the detector ---------------------------------------------------------------------------


def detector_record(detector, *, active_model: str | None = None) -> dict[str, Any]:
    """Models by name and version, the ensemble file by name and SHA-256, the strategy and
    weights: enough to tell two detectors apart, with no folder (a path names the user)."""
    desc = detector.describe() if hasattr(detector, "describe") else {}
    config = getattr(detector, "config", None)
    source = Path(config.source_path) if config is not None and getattr(config, "source_path", None) else None
    members = {}
    for name, d in sorted((desc.get("members") or {}).items()):
        d = d if isinstance(d, dict) else {}
        members[name] = {k: _no_folder(d.get(k)) for k in ("type", "model", "version", "base_model") if d.get(k) is not None}
    return {
        "strategy": desc.get("strategy") or (config.strategy if config is not None else None),
        "ensemble_file": source.name if source else None,
        "ensemble_sha256": file_sha256(source) if source and source.is_file() else None,
        "members": members,
        "missing_members": list(desc.get("missing") or []),
        "weights": dict(sorted((desc.get("weights") or {}).items())),
        "active_model_version": active_model,
    }


def detection_runs(workspace, run_ids: Iterable[int]) -> dict[str, dict[str, Any]]:
    """The detection runs whose findings the exported documents carry: when they ran and
    with which model versions (the export's own detector only re-scans)."""
    ids = sorted(set(run_ids))
    if not ids:
        return {}
    return {
        str(r.id): {
            "started_utc": _iso(r.started_at),
            "model_versions": {k: _no_folder(v) for k, v in sorted(r.model_versions.items())},
        }
        for r in workspace.detection_run_rows(ids)
    }


def _iso(value: datetime | None) -> str | None:
    if value is None:
        return None
    if value.tzinfo is None:
        value = value.replace(tzinfo=timezone.utc)
    return value.astimezone(timezone.utc).replace(microsecond=0).isoformat().replace("+00:00", "Z")


def _no_folder(value: Any) -> Any:
    """A model named by a folder keeps the folder's own name only."""
    if isinstance(value, str) and ("/" in value or "\\" in value):
        return PurePath(value.replace("\\", "/")).name
    return value


# -- one export, and the certificate of a folder -----------------------------------------------


def export_record(
    outputs: Sequence[dict[str, Any]],
    *,
    tool: str,
    exported_by: str,
    options: dict[str, Any],
    detector: dict[str, Any],
    runs: dict[str, dict[str, Any]] | None = None,
    agreement: dict[str, Any] | None = None,
) -> dict[str, Any]:
    from .. import __version__

    outputs = sorted(outputs, key=lambda o: o["file"])
    record = {
        "exported_utc": utc_now(),
        "app_version": __version__,
        "tool": tool,
        "exported_by": exported_by,
        "options": dict(sorted(options.items())),
        "detector": detector,
        "detection_runs": runs or {},
        "outputs": outputs,
        "totals": totals(outputs),
    }
    if agreement is not None:
        record["agreement"] = agreement
    return record


def totals(outputs: Sequence[dict[str, Any]]) -> dict[str, Any]:
    ok = [o for o in outputs if o["status"] == "ok"]
    replaced: Counter[str] = Counter()
    decisions: Counter[str] = Counter()
    for o in ok:
        replaced.update(o["replaced"])
        decisions.update(o["decisions"])
    return {
        "outputs": len(ok),
        "failed": len(outputs) - len(ok),
        "replaced": dict(sorted(replaced.items())),
        "decisions": {k: decisions.get(k, 0) for k in DECISION_KINDS},
        "undecided_auto_accepted": sum(o["undecided_auto_accepted"] for o in ok),
        "rescan_findings": sum(o["rescan_findings"] for o in ok),
        "residual_originals": sum(o["residual_originals"] for o in ok),
        "outputs_to_check": sum(bool(o["needs_check"]) for o in ok),
    }


def load_certificate(folder: Path) -> dict[str, Any] | None:
    p = folder / CERTIFICATE_JSON
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) and isinstance(data.get("exports"), list) else None


def merged(previous: dict[str, Any] | None, record: dict[str, Any]) -> dict[str, Any]:
    """The folder's certificate with ``record`` added. Earlier exports keep the outputs this
    one did not write again; an earlier export with none left is dropped."""
    written = {o["file"] for o in record["outputs"]} | {o["output"] for o in record["outputs"] if o.get("output")}
    exports = []
    for old in (previous or {}).get("exports", []):
        kept = [o for o in old.get("outputs", []) if o.get("file") not in written and (o.get("output") or "") not in written]
        if kept:
            exports.append({**old, "outputs": kept, "totals": totals(kept)})
    exports.append(record)
    return {
        "certificate": "deid-desktop release certificate",
        "format_version": FORMAT_VERSION,
        "updated_utc": record["exported_utc"],
        "exports": exports,
    }


def write_certificate(folder: Path, record: dict[str, Any]) -> tuple[Path, Path, dict[str, Any]]:
    """Add ``record`` to the folder's certificate and write it as JSON and PDF, each whole or
    not at all and owner-only (it names reviewers)."""
    cert = merged(load_certificate(folder), record)
    jp, pp = folder / CERTIFICATE_JSON, folder / CERTIFICATE_PDF
    write_atomic_text(jp, json.dumps(cert, sort_keys=True, indent=2) + "\n")
    write_atomic_bytes(pp, render_pdf(cert))
    return jp, pp, cert


# -- for people ------------------------------------------------------------------------------


def _counts(d: dict[str, int]) -> str:
    shown = [f"{n} {k}" for k, n in d.items() if n]
    return ", ".join(shown) if shown else "none"


def _detector_line(det: dict[str, Any]) -> str:
    members = []
    for name, m in det.get("members", {}).items():
        what = " ".join(str(m[k]) for k in ("model", "version") if m.get(k) and m.get(k) != name)
        members.append(f"{name} ({what})" if what else name)
    line = f"{' + '.join(members) or 'none'}, strategy {det.get('strategy') or '-'}"
    if det.get("active_model_version"):
        line += f", workspace model {det['active_model_version']}"
    return line


def summary_lines(cert: dict[str, Any]) -> list[str]:
    """The certificate as lines of plain text: what the app shows and the PDF's first part."""
    lines = [f"Release certificate (updated {cert.get('updated_utc', '-')})"]
    for i, e in enumerate(cert.get("exports", []), 1):
        t, o = e["totals"], e["options"]
        lines += [
            "",
            f"Export {i} of {len(cert['exports'])}: {e['exported_utc']}, deid-desktop {e['app_version']} ({e['tool']})",
            f"Exported by: {e['exported_by'] or 'not named'}",
            f"Replacement: {o.get('mode')}; format: {o.get('format')}; documents not marked reviewed: {o.get('unreviewed_policy', '-')}; re-scan: {'on' if o.get('rescan') else 'off'}",
            f"Detector: {_detector_line(e['detector'])}",
            f"Ensemble file: {e['detector'].get('ensemble_file') or '-'} (SHA-256 {e['detector'].get('ensemble_sha256') or '-'})",
            f"Outputs: {t['outputs']} written, {t['failed']} failed; {t['outputs_to_check']} to check before release",
            f"Decisions: {_counts(t['decisions'])}; undecided findings auto-accepted: {t['undecided_auto_accepted']}",
            f"Replaced: {_counts(t['replaced'])}",
            f"Re-scan: {t['rescan_findings']} finding(s), {t['residual_originals']} replaced value(s) still present",
        ]
        if e.get("agreement"):
            lines.append(_agreement_line(e["agreement"]))
        for out in e["outputs"]:
            lines.append(f"  {out['file']}: " + _output_line(out))
    return lines


def _agreement_line(a: dict[str, Any]) -> str:
    o = a["overall"]

    def f(x: float | None) -> str:
        return "-" if x is None else f"{x:.3f}"

    return (
        f"Reviewer agreement ({', '.join(a['reviewers'])}; {a['documents']} document(s) reviewed twice): "
        f"kappa {f(o['kappa'])} over {o['tokens']} words; spans precision {f(o['precision'])}, "
        f"recall {f(o['recall'])}, F1 {f(o['f1'])}"
    )


def _double_line(d: dict[str, Any] | None) -> str:
    if not d:
        return ""
    state = "adjudicated" if d["adjudicated"] else "NOT ADJUDICATED"
    by = f" by {', '.join(d['adjudicators'])}" if d["adjudicators"] else ""
    return f"; double review {d['first'] or '-'} / {d['second'] or '-'}, {state}{by}"


def _output_line(out: dict[str, Any]) -> str:
    if out["status"] != "ok":
        return f"not written ({out.get('error_code') or 'failed'})"
    check = " — CHECK BEFORE RELEASE" if out["needs_check"] else ""
    return (
        f"{out['output']}, SHA-256 {out['output_sha256']}; reviewers {', '.join(out['reviewers']) or 'none'}"
        f"{_double_line(out.get('double_review'))}; "
        f"decisions {_counts(out['decisions'])}; auto-accepted {out['undecided_auto_accepted']}; "
        f"re-scan {out['rescan_findings']}, residual {out['residual_originals']}{check}"
    )


def certificate_text(cert: dict[str, Any]) -> str:
    return "\n".join(summary_lines(cert))


def render_pdf(cert: dict[str, Any]) -> bytes:
    """A few pages: each export's facts, then a table of its outputs (hashes in full, so the
    page can be checked against the files by hand)."""
    from reportlab.lib import colors
    from reportlab.lib.pagesizes import A4, landscape
    from reportlab.lib.styles import getSampleStyleSheet
    from reportlab.lib.units import mm
    from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle
    from xml.sax.saxutils import escape

    styles = getSampleStyleSheet()
    small = styles["BodyText"].clone("small", fontSize=7, leading=8.5)
    buf = io.BytesIO()
    doc = SimpleDocTemplate(
        buf, pagesize=landscape(A4), leftMargin=12 * mm, rightMargin=12 * mm, topMargin=12 * mm, bottomMargin=12 * mm,
        title="Release certificate", author="", subject="", creator="deid-desktop", producer="deid-desktop",
    )
    story: list[Any] = [Paragraph("Release certificate", styles["Title"]), Paragraph(escape(f"Updated {cert.get('updated_utc', '-')}"), styles["BodyText"])]
    head = ["File", "Output SHA-256", "Reviewers", "Decisions", "Auto-accepted", "Re-scan", "Residual", "Check"]
    for i, e in enumerate(cert.get("exports", []), 1):
        heading, *facts = summary_lines({"exports": [e], "updated_utc": ""})[2:]
        story.append(Paragraph(escape(heading.replace("Export 1 of 1", f"Export {i} of {len(cert['exports'])}")), styles["Heading3"]))
        story += [Paragraph(escape(line), styles["BodyText"]) for line in facts if not line.startswith("  ")]
        story.append(Spacer(1, 4 * mm))
        rows = [[Paragraph(h, small) for h in head]]
        for out in e["outputs"]:
            ok = out["status"] == "ok"
            cells = [
                f"{out['file']}" + (f" → {out['output']}" if ok and out["output"] != out["file"] else ""),
                out["output_sha256"] if ok else f"not written ({out.get('error_code') or 'failed'})",
                ", ".join(out["reviewers"]) or "none",
                _counts(out["decisions"]),
                str(out["undecided_auto_accepted"]),
                str(out["rescan_findings"]),
                str(out["residual_originals"]),
                "yes" if out["needs_check"] else "no",
            ]
            rows.append([Paragraph(escape(c), small) for c in cells])
        table = Table(rows, colWidths=[60 * mm, 60 * mm, 30 * mm, 40 * mm, 24 * mm, 16 * mm, 16 * mm, 12 * mm], repeatRows=1)
        table.setStyle(TableStyle([
            ("GRID", (0, 0), (-1, -1), 0.25, colors.grey),
            ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#E8E8E8")),
            ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ]))
        story.append(table)
    doc.build(story)
    return buf.getvalue()


# -- checking a released folder -------------------------------------------------------------------


@dataclass
class Verification:
    unchanged: list[str] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.changed and not self.missing


def verify_certificate(cert: dict[str, Any], folder: Path) -> Verification:
    """Re-hash every output the certificate lists, below ``folder``: which are as released,
    which changed since, which are gone."""
    v = Verification()
    for e in cert.get("exports", []):
        for out in e.get("outputs", []):
            if out.get("status") != "ok" or not out.get("output"):
                continue
            path = folder / out["output"]
            if not path.is_file():
                v.missing.append(out["output"])
            elif file_sha256(path) != out.get("output_sha256"):
                v.changed.append(out["output"])
            else:
                v.unchanged.append(out["output"])
    return v
