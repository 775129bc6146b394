"""Files in, de-identified files out: ingest → detect → surrogates → export → re-scan → report.

The same use-case serves the CLI (batch, several processes) and the GUI export dialog. Reports
never contain PHI: files are named by their de-identified relative path (file and folder
names are PHI more often than not, see ``naming``), and findings are counted per category
with offsets, never quoted. Only the optional name map (0600) links inputs to outputs.
"""

from __future__ import annotations

import csv
import hashlib
import hmac
import json
import logging
import os
import tempfile
import time
from bisect import bisect_right
from collections import Counter
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path, PurePath
from typing import Any, Callable, Iterable, Sequence

from .documents import Document, Replacement, apply_replacements
from .errors import DeidError, ExportError, IngestError, content_free_traceback
from .spans import Span, sort_spans
from .surrogates.keys import normalise_key
from .text import LiteralIndex
from .surrogates.modes import MODES, ExportMode
from .safe_files import atomic_text
from .windows import (
    inside_written,
    OVERLAP_CHARS,
    WINDOW_CHARS,
    WINDOWED_ABOVE,
    RescanRegion,
    aligned_offsets,
    explained_by,
    detect_windowed,
    in_cores,
    ocr_fold,
    output_position,
    propagate_windowed,
    read_back_by_ocr,
    rescan_regions,
    squash,
    residual_findings_near,
    residual_originals_near,
    value_pattern,
)

log = logging.getLogger(__name__)

# Replacements above which a re-scan finding is compared only with the surrogates written
# near it (windows.residual_findings_near), as in a huge text.
NEAR_ONLY_ABOVE = 500

# True (or "targeted"): the re-scan reads what the export changed where it can, "full": the
# whole output always, False: no re-scan.
RESCANS = (True, False, "targeted", "full")


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
    # PDF pages the export cannot vouch for (covered unreadable letters, hidden text,
    # pictures): the warnings say why; these pages need a look before release.
    pages_to_check: list[int] = field(default_factory=list)
    # Scanned PDF pages read by OCR (1-based), pictures of a Word file read by OCR (how
    # many), Tesseract's mean word confidence (0-100) and how many words it read with low
    # confidence, and how many word boxes were burned out of the pages' or pictures' pixels.
    # Counts only: OCR text never reaches the report.
    ocr_pages: list[int] = field(default_factory=list)
    ocr_pictures: int = 0
    ocr_mean_confidence: float | None = None
    ocr_low_confidence_words: int = 0
    image_boxes_redacted: int = 0
    error_code: str | None = None
    error: str | None = None
    seconds: float = 0.0
    # What resuming compares: a keyed SHA-256 of the input's bytes and of the options
    # (mode, format, detector, key identity); a finished output is kept only when both match.
    input_digest: str = ""
    options: str = ""

    @property
    def n_phi(self) -> int:
        return sum(self.counts.values())

    @property
    def needs_check(self) -> bool:
        """Whether a person must look at the output before it is released."""
        return bool(self.rescan_findings) or self.residual_originals > 0 or bool(self.pages_to_check)


def residual_findings(
    out_text: str, detected: Sequence[Span], replacements: Sequence[Replacement], read_by_ocr: Sequence[tuple[int, int]] = ()
) -> list[dict[str, Any]]:
    """Detections in the exported text that are not one of the values just written.

    A detection is expected when the surrogates explain it (``windows.explained_by``): its
    text lies inside a written surrogate, or holds one or overlaps one with only words that
    name no one beside it (a detector may take "Dr" along with the surrogate name), line
    breaks and runs of spaces counting as one space: a PDF read back lays a surrogate out
    on its own line where the value it replaced was broken across two.

    ``read_by_ocr``: where the output's text was read back by OCR (its words' ranges,
    sorted), as a picture in a Word file is. A surrogate painted there comes back with
    OCR's misreadings ("ZQY63DY" as "ZQY630Y", "D" for "0"): a finding there is compared
    with the surrogates with the characters OCR confuses made one (``windows.ocr_fold``)."""
    written = [squash(r.new_text) for r in replacements if r.new_text.strip()]
    found = []
    for s in detected:
        t = squash(out_text[s.start : s.end])
        if explained_by(t, written):
            continue
        if read_by_ocr and read_back_by_ocr(read_by_ocr, s.start, s.end) and explained_by(t, written, ocr_fold):
            continue
        found.append({"category": s.category.value, "start": s.start, "end": s.end, "score": round(s.score, 3)})
    return found


def count_residual_originals(out_text: str, originals: Iterable[str], written: Sequence[tuple[int, int]] | None = None) -> int:
    """How many replaced original values still occur in the output text (case-insensitive,
    values of 3+ characters, as themselves rather than inside a longer word: the export
    check marks the same places). Anything above 0 is a leak to look at before release.

    ``written``: where the surrogates stand in the output (sorted), when the output is the
    input with the replacements applied. An occurrence inside a surrogate is text the
    export made up, not a leak: the year of "1955" replaced elsewhere, inside a date
    shifted to 04/01/1955.

    The output's words are read once and each value looked up where its first word stands:
    a search of the whole output per value took 25 s of a 50,000-line note's 96."""
    hay = out_text.casefold()
    if written is not None and len(hay) != len(out_text):
        written = None  # case folding moved the offsets (rare letters): no exemption, to be safe
    starts = [a for a, _ in written] if written is not None else []
    index = LiteralIndex(key for key in {o.strip().casefold() for o in originals} if len(key) >= 3)
    left: set[str] = set()  # values standing somewhere outside any surrogate
    for key, a in index.occurrences(hay):
        if key in left or not value_pattern(key).match(hay, a):
            continue
        if written is None or not inside_written(a, a + len(key), written, starts):
            left.add(key)
    return len(left)


@dataclass(frozen=True)
class TextResult:
    """A de-identified text, the spans found in the original (offsets into it) and what
    replaced each of them."""

    text: str
    spans: list[Span]
    replacements: list[Replacement]


# How far through one file: (fraction done in [0, 1], characters of its text). PHI-free.
FileProgress = Callable[[float, int], None]


class Deidentifier:
    """One document at a time: detection spans (or reviewed spans) → replacements → file.

    A text longer than ``windowed_above`` characters is detected in windows (``windows``):
    detection of a whole huge text grew faster than the text. ``progress`` hears how far
    through such a file the work is, after every window of detection and of the re-scan.

    The re-scan of a written output looks for PHI the export left in it. Reading the whole
    output again doubled the detection time of every file, so where the caller hands
    ``export`` the detector's own spans on the input (a batch does) and the output's text
    is the input's with the values replaced, only the lines around the replacements (and
    around detections left unreplaced) are read again (``rescan="full"``: always the whole
    output). A reviewer's spans (the app's export) say nothing of what this detector finds
    elsewhere in the input, so such an output is re-scanned whole: a detection the reviewer
    rejected stays in the output and is reported again, as it always was."""

    # The share of an output above which the lines near its changes are as good as all of
    # it: a dense note is then read whole, in one call, with the propagation run once.
    rescan_whole_above = 0.5

    def __init__(
        self,
        detector,
        engine,
        *,
        mode: ExportMode | str = ExportMode.SURROGATE,
        out_format: str | None = None,
        rescan: bool | str = True,
        windowed_above: int = WINDOWED_ABOVE,
        window_chars: int = WINDOW_CHARS,
        progress: FileProgress | None = None,
        ocr: str = "auto",
        windows_at_once: int | None = None,
    ):
        """``windows_at_once``: windows of a huge text detected at the same time (None: two
        where there are two cores or more, so one window's vote and rules overlap another's
        model passes)."""
        from .documents.ocr import check_mode

        if mode not in MODES:
            raise ValueError(f"mode must be one of {', '.join(MODES)}")
        if rescan not in RESCANS:
            raise ValueError("rescan must be True, False, 'targeted' or 'full'")
        self.ocr = check_mode(ocr)
        self.detector = detector
        self.engine = engine
        self.mode = ExportMode(mode)
        self.out_format = out_format
        self.rescan = rescan
        self.windowed_above = windowed_above
        self.window_chars = window_chars
        self.progress = progress
        if windows_at_once is None:
            from .models.device import default_threads

            windows_at_once = 2 if default_threads() >= 2 else 1
        self.windows_at_once = max(1, int(windows_at_once))

    def is_huge(self, text: str) -> bool:
        return len(text) > self.windowed_above

    def detect(self, text: str, stage: tuple[float, float] = (0.0, 1.0)) -> list[Span]:
        """The detector's spans on ``text``; a huge text window by window, reporting the
        fraction done mapped into ``stage`` (the part of the file's work this is)."""
        if not self.is_huge(text):
            return self.detector.detect(text)
        return detect_windowed(
            self.detector, text, size=self.window_chars, overlap=self._overlap(), progress=self._reporter(stage), at_once=self.windows_at_once
        )

    def _overlap(self) -> int:
        return min(OVERLAP_CHARS, self.window_chars // 4)

    def _reporter(self, stage: tuple[float, float]) -> Callable[[int, int], None] | None:
        """(characters done, in all) -> ``progress`` of the file, mapped into ``stage``."""
        if self.progress is None:
            return None
        lo, width = stage[0], stage[1] - stage[0]
        return lambda done, total: self.progress(lo + width * done / max(1, total), total)

    def rescan_detect(self, original: str, out_text: str, reps: Sequence[Replacement], detected: Sequence[Span] | None) -> list[Span]:
        """The detector's spans on the written output ``out_text``: those of the lines near
        a change when ``detected`` (the detector's spans on ``original``) is known and the
        output lines up with the input, else those of the whole output."""
        stage = self._stages()[1]
        if self.rescan != "full" and detected is not None:
            reps = sorted(reps, key=lambda r: r.start)
            where = aligned_offsets(original, out_text, reps)
            if where is not None:
                return self._detect_changed(out_text, reps, where, detected, stage)
        # The output's text is not the input's with the values replaced (a PDF read back
        # lays out its words its own way), or what the detector finds in the input is not
        # known: any line of the output may hold a finding.
        return self.detect(out_text, stage)

    def _detect_changed(
        self,
        out_text: str,
        reps: list[Replacement],
        where: list[tuple[int, int]],
        detected: Sequence[Span],
        stage: tuple[float, float],
    ) -> list[Span]:
        """What a re-scan of the whole output finds, read from the lines near a change.

        Changed are the replacements and the detections left in place (rejected by a
        reviewer): away from them the output is the input, where the detector found
        nothing. The ensemble's propagation (a name found once is marked wherever it stands)
        reaches the whole text, so it runs on the whole output, from the spans the vote
        found near the changes, as it would after reading all of it."""
        starts = [r.start for r in reps]
        marks = list(where)
        for d in detected:
            i = bisect_right(starts, d.start) - 1
            if i < 0 or reps[i].end < d.end:  # not inside a replacement: still in the output
                marks.append((output_position(d.start, reps, where), output_position(d.end, reps, where)))
        regions = rescan_regions(out_text, marks)
        if sum(r.end - r.start for r in regions) > self.rescan_whole_above * len(out_text):
            return self.detect(out_text, stage)
        report = self._reporter(stage)
        found: list[Span] = []
        for batch in self._region_batches(regions):
            texts = [out_text[r.start : r.end] for r in batch]
            for region, spans in zip(batch, self._detect_texts(texts)):
                found.extend(in_cores([s.with_(start=s.start + region.start, end=s.end + region.start) for s in spans], region))
            if report is not None:
                report(batch[-1].end, len(out_text))
        propagator = getattr(self.detector, "propagator", None)
        if propagator is None:
            return sort_spans(found)
        from .detect.propagate import SOURCE

        voted = [s for s in found if s.source != SOURCE]  # spread again below, from the whole text
        if self.is_huge(out_text):
            return propagate_windowed(propagator, out_text, voted, size=self.window_chars, overlap=self._overlap())
        return propagator.propagate(out_text, voted)

    def _region_batches(self, regions: list[RescanRegion]) -> Iterable[list[RescanRegion]]:
        """Regions in groups of about ``window_chars`` characters, read in one call so the
        model members batch their sentences; a huge region alone (read in windows)."""
        batch: list[RescanRegion] = []
        size = 0
        for r in regions:
            if batch and size + (r.end - r.start) > self.window_chars:
                yield batch
                batch, size = [], 0
            batch.append(r)
            size += r.end - r.start
        if batch:
            yield batch

    def _detect_texts(self, texts: list[str]) -> list[list[Span]]:
        """The detector's spans on each text; a huge one in windows, its progress told by
        the caller (a part of the output, not the whole of it)."""
        if len(texts) == 1 and self.is_huge(texts[0]):
            return [detect_windowed(self.detector, texts[0], size=self.window_chars, overlap=self._overlap(), at_once=self.windows_at_once)]
        if len(texts) == 1 or not hasattr(self.detector, "detect_many"):
            return [self.detector.detect(t) for t in texts]
        return self.detector.detect_many(texts)

    def _stages(self) -> tuple[tuple[float, float], tuple[float, float]]:
        """The parts of a file's work that detecting its text and re-scanning its output
        take: halves when the output is re-scanned with the detector, else all and none."""
        if self.rescan and self.mode is ExportMode.SURROGATE:
            return (0.0, 0.5), (0.5, 1.0)
        return (0.0, 1.0), (1.0, 1.0)

    def replacements(self, doc: Document, spans: Sequence[Span], subject: str) -> list[Replacement]:
        return self.text_replacements(doc.text, spans, subject)

    def text_replacements(self, text: str, spans: Sequence[Span], subject: str) -> list[Replacement]:
        return self.engine.replacements(text, list(spans), subject=subject, mode=self.mode)

    def deidentify_text(self, text: str, subject: str) -> "TextResult":
        """One text of one subject, de-identified as a batch's file would be (the same
        detection, the same keyed replacements), for callers that hold text rather than
        files: the table engines run this per row, in this process or in Spark executors.
        It depends on nothing but the text, the subject, the detector and the key, so any
        process computes the same result."""
        spans = self.detect(text)
        reps = self.text_replacements(text, spans, subject)
        return TextResult(apply_replacements(text, reps), spans, reps)

    def export(
        self,
        doc: Document,
        spans: Sequence[Span],
        subject: str,
        out_path: Path,
        result: FileResult,
        detected: Sequence[Span] | None = None,
    ) -> Path:
        """Writes ``doc`` with ``spans`` replaced and checks the output. ``detected``: the
        detector's own spans on ``doc.text`` when known (what lets the re-scan read only
        what changed, see the class)."""
        from .documents.export import export_document, output_suffix
        from .documents.ingest import load_document

        reps = self.replacements(doc, spans, subject)
        result.counts = dict(Counter(s.category.value for s in spans))
        suffix = output_suffix(doc, self.out_format)
        final = out_path.with_suffix(suffix)
        # written under a temporary name and renamed at the end, so a finished output on
        # disk always means a finished file (what resuming a batch relies on)
        part = final.with_name(final.stem + ".part" + suffix)
        try:
            written = export_document(doc, reps, part, self.out_format)
            result.warnings.extend(w for w in written.warnings if w not in result.warnings)
            result.pages_to_check = list(written.pages_to_check)
            result.image_boxes_redacted = written.image_boxes_redacted
            if self.rescan:
                # pictures of a Word output are read again by OCR: what was painted is checked
                out_doc = load_document(written.path, ocr=self.ocr)
                out_text = out_doc.text
                read_by_ocr = sorted((g.start, g.end) for g in out_doc.segments if "conf" in g.locator)
                del out_doc
                huge = self.is_huge(doc.text) or self.is_huge(out_text)
                if self.mode is ExportMode.SURROGATE:
                    found = self.rescan_detect(doc.text, out_text, reps, detected)
                    # each finding against every surrogate is the product of two counts that
                    # grow with the text: past a few hundred values, only those written near it
                    find = residual_findings_near if huge or len(reps) > NEAR_ONLY_ABOVE else residual_findings
                    result.rescan_findings = find(out_text, found, reps, read_by_ocr=read_by_ocr)
                # a value written as itself on purpose (an age up to the cap) is no leak
                changed = [r for r in reps if normalise_key(r.new_text) != normalise_key(doc.text[r.start : r.end])]
                if huge:
                    result.residual_originals = residual_originals_near(doc.text, out_text, changed)
                else:
                    made_up = aligned_offsets(doc.text, out_text, reps)  # where the surrogates stand
                    result.residual_originals = count_residual_originals(out_text, (doc.text[r.start : r.end] for r in changed), made_up)
                del out_text
            os.replace(written.path, final)
        finally:
            # a failed export leaves no half-written file that could pass for an output
            part.unlink(missing_ok=True)
        return final

    def process_file(self, path: Path, out_path: Path, subject: str, display: str | None = None, subject_label: str | None = None) -> FileResult:
        """One file to one output. ``display`` is the de-identified name that the result,
        its messages and the log use instead of the input's own name (which may be PHI);
        ``subject_label`` likewise for the subject."""
        from .documents.ingest import load_document

        display = display or path.name
        t0 = time.perf_counter()
        res = FileResult(file=display, status="ok", subject=subject if subject_label is None else subject_label)
        try:
            doc = load_document(path, ocr=self.ocr)
            res.warnings = list(doc.warnings)
            _note_ocr(res, doc)
            spans = self.detect(doc.text, self._stages()[0])
            res.output = str(self.export(doc, spans, subject, out_path, res, detected=spans))
            if self.progress is not None and self.is_huge(doc.text):
                self.progress(1.0, len(doc.text))
        except (IngestError, ExportError) as e:
            res.status, res.error_code, res.error = "error", e.code, f"{display}: {e.reason}"
        except DeidError as e:
            res.status, res.error_code, res.error = "error", "failed", renamed_message(str(e), path, display)
        except Exception as e:  # a bug must not stop the batch; the log gets no message text
            log.error("unexpected error on %s\n%s", display, content_free_traceback(type(e), e.__traceback__))
            res.status, res.error_code, res.error = "error", "internal", f"{display}: internal error ({type(e).__name__})"
        res.seconds = round(time.perf_counter() - t0, 3)
        return res


def _note_ocr(res: FileResult, doc: Document) -> None:
    """The OCR figures a report gives for a file (pages or pictures, confidence,
    low-confidence words)."""
    summary = doc.meta.get("ocr") if doc.format in ("pdf", "docx") else None
    if not summary:
        return
    res.ocr_pages = list(summary.get("pages") or [])
    res.ocr_pictures = len(summary.get("pictures") or [])
    res.ocr_mean_confidence = summary.get("mean_conf") if summary.get("words") else None
    res.ocr_low_confidence_words = len(summary.get("low_confidence") or [])


def renamed_message(message: str, path: Path, display: str) -> str:
    """A message with the input's own path and name replaced by its de-identified name."""
    for original in (str(path), path.name, path.stem):
        if original:
            message = message.replace(original, display)
    return message


# -- batch reports ----------------------------------------------------------------------

REPORT_JSON = "deid_report.json"
REPORT_CSV = "deid_report.csv"


def load_report(out_dir: Path) -> dict[str, FileResult]:
    p = out_dir / REPORT_JSON
    if not p.is_file():
        return {}
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
        known = {f.name for f in fields(FileResult)}
        rows = [FileResult(**{k: v for k, v in r.items() if k in known}) for r in data.get("files", [])]
    except (OSError, ValueError, TypeError, AttributeError):
        return {}  # a damaged report means "nothing finished": everything is redone
    return {r.file: r for r in rows}


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
        "files_with_pages_to_check": sum(bool(r.pages_to_check) for r in rows),
        "files_read_by_ocr": sum(bool(r.ocr_pages) or r.ocr_pictures > 0 for r in rows),
    }
    jp = out_dir / REPORT_JSON
    with atomic_text(jp, mode=0o644) as f:
        json.dump({"meta": meta, "summary": summary, "files": [asdict(r) for r in rows]}, f, indent=2)
    cp = out_dir / REPORT_CSV
    with atomic_text(cp, mode=0o644, newline="") as f:
        w = csv.writer(f)
        w.writerow(["file", "status", "output", "subject", *[f"n_{c}" for c in cats], "rescan_findings", "residual_originals", "pages_to_check", "ocr_pages", "ocr_pictures", "ocr_mean_confidence", "ocr_low_confidence_words", "image_boxes_redacted", "error_code", "error", "warnings", "seconds"])
        for r in rows:
            w.writerow([r.file, r.status, r.output or "", r.subject, *[r.counts.get(c, 0) for c in cats], len(r.rescan_findings), r.residual_originals, " ".join(map(str, r.pages_to_check)), " ".join(map(str, r.ocr_pages)), r.ocr_pictures, "" if r.ocr_mean_confidence is None else r.ocr_mean_confidence, r.ocr_low_confidence_words, r.image_boxes_redacted, r.error_code or "", r.error or "", " | ".join(r.warnings), r.seconds])
    return jp, cp


MANIFEST_COLUMNS = frozenset({"path", "subject"})


def _manifest_header(fieldnames) -> bool:
    return bool(fieldnames) and MANIFEST_COLUMNS <= {h.strip().lower() for h in fieldnames}


def is_subject_manifest(path: Path) -> bool:
    """A CSV whose header has ``path`` and ``subject`` columns (a manifest dropped among the
    documents is applied, not imported)."""
    if path.suffix.lower() != ".csv" or not path.is_file():
        return False
    try:
        with open(path, newline="", encoding="utf-8-sig") as f:
            return _manifest_header(next(csv.reader(f), []))
    except (OSError, UnicodeDecodeError):
        return False


def load_subject_manifest(path: Path) -> dict[str, str]:
    """CSV with columns ``path`` (file or folder, relative to the manifest or absolute) and
    ``subject``. Returns resolved path → subject."""
    out: dict[str, str] = {}
    with open(path, newline="", encoding="utf-8-sig") as f:
        reader = csv.DictReader(f)
        if not _manifest_header(reader.fieldnames):
            raise DeidError(f"{path.name}: subject manifest needs the columns 'path' and 'subject'")
        for row in reader:
            row = {k.strip().lower(): (v or "").strip() for k, v in row.items() if k}
            p = Path(row["path"])
            if not p.is_absolute():
                p = path.parent / p
            out[str(p.resolve())] = row["subject"]
    return out


def manifest_subject(path: Path, manifest: dict[str, str]) -> str | None:
    """The manifest's subject of a file or folder: its own row, else its nearest listed
    folder; None when the manifest does not name it."""
    rp = path.resolve()
    for p in (rp, *rp.parents):
        if str(p) in manifest:
            return manifest[str(p)]
    return None


def layout_subject(file: Path, root: Path | None) -> str | None:
    """"One folder per patient": the first folder below the input folder ``root``; None for
    a file directly in it or given by itself."""
    if root is None:
        return None
    rel = _relative(file, root)
    return rel.parts[0] if len(rel.parts) > 1 else None


def subject_for(file: Path, root: Path | None, manifest: dict[str, str]) -> str:
    """Manifest first (the file, then its nearest listed folder); else the first folder below
    the input folder ("one folder per patient"); else "default"."""
    listed = manifest_subject(file, manifest)
    if listed is not None:
        return listed
    return layout_subject(file, root) or "default"


def folder_subject(folder: Path, root: Path, manifest: dict[str, str]) -> str:
    """The subject a folder name is de-identified with: its manifest subject, else the first
    folder below the input folder, which is the subject of every file inside it."""
    listed = manifest_subject(folder, manifest)
    if listed is not None:
        return listed
    rel = _relative(folder, root)
    return rel.parts[0] if rel.parts else "default"


def _relative(path: Path, root: Path) -> PurePath:
    """``path`` below ``root``; the walk lists files under the root as given, so this is
    lexical (a link inside the folder resolves elsewhere, and must not fail here)."""
    try:
        return path.relative_to(root)
    except ValueError:
        return PurePath(os.path.relpath(path.resolve(), root.resolve()))


@dataclass
class PlannedFile:
    source: Path
    root: Path | None
    subject: str
    subject_label: str  # the subject as reports may show it
    display: str  # the de-identified relative input path: what reports and messages name
    output: Path
    from_folder: bool


def plan_outputs(
    inputs: Sequence[Path],
    out_dir: Path,
    namer,
    manifest: dict[str, str] | None = None,
    *,
    out_format: str | None = None,
    exclude: Sequence[Path] = (),
    on_skip: Callable[[str, str], None] | None = None,
) -> list[PlannedFile]:
    """Every file under the inputs, with its subject, its de-identified name and its output.

    The folder structure below each input folder is mirrored under ``out_dir`` with every
    folder and file name de-identified (``naming.FileNamer``). No two inputs share an output:
    when two input arguments would write the same path, each of them gets its position on
    the command line as a top folder ("1/", "2/"), and any clash left gets "-2", "-3"."""
    from .documents.ingest import iter_input_files, real_key
    from .naming import claim, output_name, split_suffix

    manifest = manifest or {}
    entries: list[tuple[int, Path, Path | None, str, PurePath]] = []
    seen: set[str] = set()

    def skipped(path: Path, root: Path, reason: str) -> None:
        if on_skip is not None:
            rel = _relative(path, root)
            subjects = [rel.parts[0] if len(rel.parts) > 1 else "default"] * len(rel.parts)
            if not rel.parts:
                on_skip("an input folder", reason)
                return
            # never read, so never worth the risk of a name the detector misses: the entry
            # gets a neutral name, its folders their usual de-identified ones
            folders = namer.relative(rel, subjects).parent
            on_skip((folders / (namer.neutral(rel.name, subjects[-1], "entry") + split_suffix(rel.name)[1])).as_posix(), reason)

    for argi, inp in enumerate(inputs):
        root = inp if inp.is_dir() else None
        for f in iter_input_files([inp], exclude=exclude, on_skip=skipped):
            key = real_key(f)
            if key in seen:
                continue
            seen.add(key)
            subject = subject_for(f, root, manifest)
            rel = _relative(f, root) if root else PurePath(f.name)
            subjects = [folder_subject(root.joinpath(*rel.parts[: i + 1]), root, manifest) for i in range(len(rel.parts) - 1)] if root else []
            entries.append((argi, f, root, subject, namer.relative(rel, [*subjects, subject])))

    suffix_for = (lambda rel: "." + out_format) if out_format else (lambda rel: rel.suffix.lower())
    owner: dict[str, int] = {}
    clashing: set[int] = set()
    for argi, _, _, _, rel in entries:
        k = rel.with_suffix("").as_posix().casefold()
        if owner.setdefault(k, argi) != argi:
            clashing |= {owner[k], argi}

    plan, taken, shown = [], set(), set()
    for argi, f, root, subject, rel in entries:
        if argi in clashing:
            rel = PurePath(str(argi + 1)) / rel
        out = claim(out_dir / rel.parent / output_name(rel.stem, suffix_for(rel)), taken)
        display = rel.as_posix()
        n = 1
        while display.casefold() in shown:
            n += 1
            display = f"{rel.as_posix()} ({n})"
        shown.add(display.casefold())
        plan.append(PlannedFile(f, root, subject, namer.label(subject), display, out, root is not None))
    return plan


# -- resuming -----------------------------------------------------------------------------

def _digest_key(secret: bytes) -> bytes:
    return hmac.new(secret, b"deid-desktop resume", hashlib.sha256).digest()


def input_digest(path: Path, secret: bytes) -> str:
    """Keyed SHA-256 of a file's bytes: tells an edited input from the one already done,
    and, being keyed, cannot be used to confirm a guessed document from the report."""
    h = hmac.new(_digest_key(secret), digestmod=hashlib.sha256)
    try:
        with open(path, "rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                h.update(block)
    except OSError:
        return ""  # unreadable: never matches, so the file is tried (and its error reported)
    return h.hexdigest()


def bytes_digest(data: bytes, secret: bytes) -> str:
    """``input_digest`` of bytes already in memory (a workspace keeps each imported file's
    bytes), so an export from the app names its input the way a batch report does."""
    return hmac.new(_digest_key(secret), data, hashlib.sha256).hexdigest()


def options_digest(secret: bytes, options: dict[str, Any]) -> str:
    """Identity of everything that shapes an output: mode, format, detector, surrogate
    options and the key (by a keyed hash: the key itself never reaches the report)."""
    key_id = hmac.new(secret, b"deid-desktop key identity", hashlib.sha256).hexdigest()[:16]
    blob = json.dumps({**options, "key": key_id}, sort_keys=True, default=str)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()[:32]


def is_finished(prev: FileResult | None, digest: str, options: str) -> bool:
    """A file is done when the report says so for these very bytes and options and the
    output it names is on disk (a ``.part`` file is never an output)."""
    return bool(
        prev
        and prev.status == "ok"
        and digest
        and prev.input_digest == digest
        and prev.options == options
        and prev.output
        and Path(prev.output).is_file()
    )


def remove_part_files(out_dir: Path) -> int:
    """Delete the half-written outputs and reports a killed run left behind."""
    from .documents.ingest import is_app_file

    n = 0
    if not out_dir.is_dir():
        return 0
    for root, _, names in os.walk(out_dir):
        for name in names:
            if is_app_file(name) and (".deid.part." in name.lower() or name.lower().endswith(".part")):
                (Path(root) / name).unlink(missing_ok=True)
                n += 1
    return n


def check_writable(folder: Path) -> str | None:
    """Why no output can be written in ``folder`` (created if missing), or None."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, probe = tempfile.mkstemp(prefix=".deid-probe-", dir=folder)
        os.close(fd)
        os.unlink(probe)
    except OSError as e:
        return e.strerror or type(e).__name__
    return None


# -- the name map ---------------------------------------------------------------------------

def write_name_map(path: Path, plan: Sequence[PlannedFile]) -> None:
    """input path → output path, the one record that links the two. It holds original
    names, so it is written 0600 and never inside the output folder. Rows of earlier runs
    for other outputs are kept."""
    rows: dict[str, dict[str, str]] = {}
    if path.is_file():
        with open(path, newline="", encoding="utf-8") as f:
            for r in csv.DictReader(f):
                if r.get("output"):
                    rows[r["output"]] = r
    for p in plan:
        rows[str(p.output)] = {"input": str(p.source.absolute()), "output": str(p.output), "report_name": p.display, "subject": p.subject}
    with atomic_text(path, newline="") as f:
        w = csv.DictWriter(f, fieldnames=["input", "output", "report_name", "subject"])
        w.writeheader()
        w.writerows(rows.values())
