"""Exporting reviewed documents from the workspace — the export dialog's job, without Qt.

Spans come from the reviewer's decisions (``Workspace.final_spans``); the file is written by
the same ``Deidentifier.export`` the CLI uses (surrogates keyed by the workspace secret and
the document's subject, re-scan of the output); the PHI-free report and the release
certificate (``core.certificate``) go next to the files.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Literal, Sequence

from .. import certificate
from ..categories import display_name
from ..documents.export import output_suffix
from ..errors import DeidError
from ..naming import FileNamer, claim, output_name, phi_words
from ..pipeline import FileResult, bytes_digest, load_report, renamed_message, write_report
from ..store import DocStatus
from ..surrogates.options import DEFAULT_OPTIONS, SurrogateOptions

log = logging.getLogger(__name__)

UnreviewedPolicy = Literal["stop", "accept"]
DONE_STATUSES = (DocStatus.REVIEWED, DocStatus.EXPORTED)


@dataclass
class ExportOptions:
    out_dir: Path
    mode: str = "surrogate"  # surrogate | tag | blackout
    fmt: str | None = None  # None: same as input
    unreviewed: UnreviewedPolicy = "stop"
    date_shift_min_days: int = DEFAULT_OPTIONS.date_shift_min_days
    date_shift_max_days: int = DEFAULT_OPTIONS.date_shift_max_days
    age_cap: int = DEFAULT_OPTIONS.age_cap
    reviewer: str = ""


@dataclass
class ExportedDocument:
    """What the certificate needs about a document that the file result does not say."""

    document_id: int
    status_at_export: str
    input_digest: str = ""
    auto_accepted: int = 0  # undecided findings the export replaced without a decision
    review: certificate.Review | None = None  # the decisions the export followed


@dataclass
class ExportSummary:
    results: dict[str, FileResult] = field(default_factory=dict)
    documents: dict[str, ExportedDocument] = field(default_factory=dict)  # by result key
    report_json: Path | None = None
    report_csv: Path | None = None
    certificate_json: Path | None = None
    certificate_pdf: Path | None = None
    certificate: dict[str, Any] | None = None
    exported_ids: list[int] = field(default_factory=list)
    cancelled: bool = False

    @property
    def n_ok(self) -> int:
        return len(self.exported_ids)

    @property
    def n_failed(self) -> int:
        return sum(r.status == "error" for r in self.results.values())

    @property
    def n_to_check(self) -> int:
        return sum(r.needs_check for r in self.results.values() if r.status == "ok")

    def text(self) -> str:
        """The end-of-export report shown in the dialog (counts and file names only)."""
        lines = [f"{self.n_ok} document(s) exported, {self.n_failed} failed" + (" — cancelled" if self.cancelled else "") + "."]
        phi: dict[str, int] = {}
        for r in self.results.values():
            for c, n in r.counts.items():
                phi[c] = phi.get(c, 0) + n
        if phi:
            lines.append("Replaced: " + ", ".join(f"{n} {display_name(c)}" for c, n in sorted(phi.items())) + ".")
        if self.n_to_check:
            lines.append(f"{self.n_to_check} exported file(s) have re-scan findings or pages the export cannot vouch for: check them before release.")
        for r in sorted(self.results.values(), key=lambda r: r.file):
            if r.status == "error":
                lines.append(f"  failed: {r.error}")
        if self.report_json:
            lines.append(f"Report: {self.report_json}")
        if self.certificate_pdf:
            lines.append(f"Release certificate: {self.certificate_pdf}")
        return "\n".join(lines)


def needs_review(rows) -> list:
    """Documents of an export that the reviewer has not marked reviewed."""
    return [r for r in rows if r.status != DocStatus.ERROR and r.status not in DONE_STATUSES]


def document_stem(row, namer, phi=None) -> tuple[str, str]:
    """The CLI's naming rule (``core.naming``) for a workspace document: its file name's stem
    de-identified with its subject and its own PHI words (``phi``), and its input suffix.
    The stem names the output and, with the suffix, the document in the PHI-free report."""
    name = Path(row.name or f"document-{row.id}")
    return namer.file_stem(name.stem, row.subject_label or "default", phi), name.suffix


class ExportJob:
    def __init__(self, workspace, document_ids: Sequence[int], options: ExportOptions, detector_provider) -> None:
        self.workspace = workspace
        self.document_ids = list(dict.fromkeys(document_ids))
        self.options = options
        self._provider = detector_provider

    def rows(self) -> list:
        return [self.workspace.get_document(i) for i in self.document_ids]

    def blocked(self) -> list:
        """Under "warn and stop", the unreviewed documents that prevent the export."""
        return needs_review(self.rows()) if self.options.unreviewed == "stop" else []

    def run(
        self,
        *,
        progress: Callable[[int, int, str], None] | None = None,
        exported: Callable[[int], None] | None = None,
        should_stop: Callable[[], bool] | None = None,
    ) -> ExportSummary:
        from ..pipeline import Deidentifier
        from ..surrogates import SurrogateEngine

        opts = self.options
        blocked = self.blocked()
        if blocked:
            raise DeidError(f"{len(blocked)} document(s) are not marked reviewed")
        opts.out_dir.mkdir(parents=True, exist_ok=True)
        engine = SurrogateEngine(
            self.workspace.secret,
            SurrogateOptions(date_shift_min_days=opts.date_shift_min_days, date_shift_max_days=opts.date_shift_max_days, age_cap=opts.age_cap),
        )
        deid = Deidentifier(self._provider.get(), engine, mode=opts.mode, out_format=opts.fmt, rescan=True)
        namer = FileNamer(deid.detector, engine, self.workspace.secret, opts.mode)
        summary = ExportSummary()
        # Reports of earlier exports to the same folder are kept, as the CLI does.
        all_results = load_report(opts.out_dir)
        taken: set[str] = set()
        rows = self.rows()
        for i, row in enumerate(rows):
            if should_stop and should_stop():
                summary.cancelled = True
                break
            if progress:
                progress(i, len(rows), row.name)
            # the report is PHI-free: documents are named by their de-identified file name
            loaded = self._load(row)
            phi = phi_words(loaded[0].text, loaded[1]) if isinstance(loaded, tuple) else {}
            stem, suffix = document_stem(row, namer, phi)
            key = stem + suffix
            if key in summary.results:
                key = f"{key} (document {row.id})"
            exported_doc = ExportedDocument(row.id, str(row.status))
            result = self._export_one(deid, row, loaded, stem, opts, taken, key, namer, exported_doc)
            summary.results[key] = result
            summary.documents[key] = exported_doc
            if result.status == "ok":
                summary.exported_ids.append(row.id)
                if exported:
                    exported(row.id)
        if progress and not summary.cancelled:
            progress(len(rows), len(rows), "")
        all_results.update(summary.results)
        meta = {
            "tool": "deid-desktop gui",
            "mode": opts.mode,
            "format": opts.fmt or "same as input",
            "unreviewed_policy": opts.unreviewed,
            "reviewer": opts.reviewer,
            "finished": time.strftime("%Y-%m-%dT%H:%M:%S"),
        }
        summary.report_json, summary.report_csv = write_report(opts.out_dir, all_results, meta)
        if summary.results:
            record = self._certificate_record(summary, deid.detector)
            summary.certificate_json, summary.certificate_pdf, summary.certificate = certificate.write_certificate(opts.out_dir, record)
        return summary

    def _certificate_record(self, summary: ExportSummary, detector) -> dict[str, Any]:
        """This export's record for the release certificate: each result with the decisions
        its document's spans were read with."""
        opts = self.options
        outputs, runs = [], set()
        for key, result in summary.results.items():
            d = summary.documents[key]
            review = d.review if result.status == "ok" else None
            runs.update(review.detection_runs if review else ())
            outputs.append(certificate.certified_output(
                result, opts.out_dir, input_digest=d.input_digest, document_id=d.document_id, review=review,
                auto_accepted=d.auto_accepted, status_at_export=d.status_at_export,
            ))
        active = self.workspace.active_model_version()
        return certificate.export_record(
            outputs,
            tool="deid-desktop gui",
            exported_by=opts.reviewer,
            options={"mode": opts.mode, "format": opts.fmt or "same as input", "unreviewed_policy": opts.unreviewed, "rescan": True},
            detector=certificate.detector_record(detector, active_model=active.name if active else None),
            runs=certificate.detection_runs(self.workspace, runs),
            agreement=certificate.agreement_record(self.workspace),
        )

    def _load(self, row):
        """The document and the spans it is exported with, read once for its file name and
        its export; the error instead when it cannot be read (``_export_one`` reports it,
        and the name still gets the list-based rule); None for a failed import."""
        if row.status == DocStatus.ERROR:
            return None
        try:
            # Undecided detections are exported as PHI in every case: a document marked
            # reviewed with findings left open must not leak them, and under the "accept"
            # policy that is exactly what the reviewer chose.
            return self.workspace.load_document(row.id), self.workspace.final_spans(row.id, unreviewed_policy="accept")
        except DeidError as e:
            return e

    def _export_one(self, deid, row, loaded, stem: str, opts: ExportOptions, taken: set[str], key: str, namer, exported_doc: ExportedDocument) -> FileResult:
        t0 = time.perf_counter()
        subject = row.subject_label or "default"
        result = FileResult(file=key, status="ok", subject=namer.label(subject))
        if row.status == DocStatus.ERROR:
            result.status, result.error_code = "error", row.error_code or "unreadable"
            result.error = f"{key}: not imported ({row.error_reason or 'unreadable'})"
            return result
        try:
            if isinstance(loaded, DeidError):
                raise loaded
            doc, spans = loaded
            result.warnings = list(doc.warnings)
            exported_doc.input_digest = bytes_digest(doc.source_bytes if doc.source_bytes is not None else doc.text.encode("utf-8"), self.workspace.secret)
            exported_doc.auto_accepted = len(spans) - len(self.workspace.final_spans(row.id, unreviewed_policy="reject"))
            exported_doc.review = certificate.document_review(self.workspace, row.id)
            # no two documents on one output, as in a batch
            out = claim(opts.out_dir / output_name(stem, output_suffix(doc, opts.fmt)), taken)
            result.output = str(deid.export(doc, spans, subject, out, result))
        except DeidError as e:
            reason = getattr(e, "reason", None)
            message = f"{key}: {reason}" if reason else renamed_message(str(e), Path(row.name or "-"), key)
            result.status, result.error_code, result.error = "error", getattr(e, "code", "failed"), message
        except Exception as e:  # a bug must not stop the batch; the message carries no content
            log.error("export of document %s failed (%s)", row.id, type(e).__name__)
            result.status, result.error_code = "error", "internal"
            result.error = f"{key}: internal error ({type(e).__name__})"
        result.seconds = round(time.perf_counter() - t0, 3)
        return result
