"""deid-desktop command line: the GUI's use-cases without a screen."""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Iterator

from .core.paths import build_model_command
from .core.safe_files import open_private_text
from .core.surrogates.modes import MODES, ExportMode

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

log = logging.getLogger("deid_desktop")


def _err(msg: str) -> None:
    print(f"deid-desktop: {msg}", file=sys.stderr)


# -- shared helpers ---------------------------------------------------------------------

def build_detector(args) -> "object":
    """The ensemble named by --ensemble (default config); with --workspace, that workspace's
    active model, ensemble weights, allow/deny lists and approved template rules: the
    window's rule (``core/usecases/detection.py``), and what is missing said on stderr."""
    from .core.usecases.detection import DetectorSettings
    from .core.usecases.detection import build_detector as build

    det = build(DetectorSettings(ensemble_config=getattr(args, "ensemble", None), workspace_path=getattr(args, "workspace", None)))
    if det.missing:
        _err(f"running without {', '.join(det.missing)} (no trained model found; run '{build_model_command()}')")
    if det.rules_only:
        _err("rules-only detection: no transformer model is available")
    return det


def _iter_jsonl(path: str) -> Iterator[tuple[int, dict | None, str | None]]:
    """(line number, document, error) per non-blank line. Each line is decoded on its own,
    so one line that is not UTF-8 is reported (by number, never content) and the rest go on."""
    f = sys.stdin.buffer if path == "-" else open(path, "rb")
    with f:
        for n, raw in enumerate(f, 1):
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError:
                yield n, None, f"line {n}: not UTF-8 text"
                continue
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
                if not isinstance(obj, dict) or not isinstance(obj.get("text"), str):
                    raise ValueError("needs a string field 'text'")
                yield n, obj, None
            except (json.JSONDecodeError, ValueError) as e:
                yield n, None, f"line {n}: {e.__class__.__name__}: not a valid document object"


# -- detect -----------------------------------------------------------------------------

def cmd_detect(args) -> int:
    if args.input != "-" and not Path(args.input).is_file():
        _err("the --input file does not exist")
        return 2
    t_load = time.perf_counter()
    det = build_detector(args)
    load_s = time.perf_counter() - t_load
    # spans only (offsets, labels, scores), but each line carries the input's own id, which
    # may be a file name or a record number: owner-only, like anything naming a patient
    out = sys.stdout if args.output == "-" else open_private_text(args.output)
    n_docs, n_chars, n_bad, t0 = 0, 0, 0, time.perf_counter()
    detect_s, warmed = 0.0, not args.timing
    batch: list[tuple[int, dict | None, str | None]] = []

    def flush() -> None:
        nonlocal n_docs, n_chars, n_bad, detect_s, warmed
        good = [(i, o) for i, (_, o, e) in enumerate(batch) if o is not None]
        if good and not warmed:
            # one warm-up document, untimed (lazy loading, first-call allocation), as a
            # harness timing any peer tool would do
            det.detect(good[0][1]["text"])
            warmed = True
        t_batch = time.perf_counter()
        results = det.detect_many([o["text"] for _, o in good]) if good else []
        detect_s += time.perf_counter() - t_batch
        by_index = {i: r for (i, _), r in zip(good, results)}
        for i, (n, obj, err) in enumerate(batch):
            if obj is None:
                n_bad += 1
                _err(err or f"line {n}: invalid")
                out.write(json.dumps({"id": None, "line": n, "spans": [], "error": err}) + "\n")
                continue
            spans = by_index[i]
            out.write(json.dumps({"id": obj.get("id"), "spans": [s.to_json() for s in spans]}) + "\n")
            n_docs += 1
            n_chars += len(obj["text"])
        out.flush()
        batch.clear()

    try:
        for item in _iter_jsonl(args.input):
            batch.append(item)
            if len(batch) >= args.batch_size:
                flush()
        flush()
    finally:
        if out is not sys.stdout:
            out.close()
    dt = time.perf_counter() - t0
    _err(f"detected PHI in {n_docs} documents ({n_chars} characters) in {dt:.1f} s")
    if args.timing:
        write_timing(Path(args.timing), det, load_s=load_s, detect_s=detect_s, n_docs=n_docs, n_chars=n_chars)
    if n_bad:
        _err(f"{n_bad} line(s) could not be read (see above); every other line was written")
    return 1 if n_bad else 0


def write_timing(path: Path, det, *, load_s: float, detect_s: float, n_docs: int, n_chars: int) -> None:
    """``detect --timing``: the figures a harness compares tools by (detection calls only,
    after one warm-up document). PHI-free: counts, seconds, the device and the ensemble."""
    from .core.safe_files import write_atomic_text

    desc = det.describe() if hasattr(det, "describe") else {}
    devices = sorted({str(m["device"]) for m in desc.get("members", {}).values() if m.get("device")})
    config = getattr(getattr(det, "config", None), "source_path", None)
    figures = {
        "load_s": round(load_s, 3),
        "detect_s": round(detect_s, 4),
        "n_docs": n_docs,
        "n_chars": n_chars,
        "docs_per_s": round(n_docs / detect_s, 3) if detect_s > 0 else None,
        "chars_per_s": round(n_chars / detect_s, 1) if detect_s > 0 else None,
        "device": ",".join(devices) or "cpu",
        "config": {"file": config, "strategy": desc.get("strategy"), "members": sorted(desc.get("members", {}))},
    }
    write_atomic_text(path, json.dumps(figures, indent=2) + "\n", mode=0o644)


# -- deidentify -------------------------------------------------------------------------

_WORKER = None


def _worker_init(ensemble: str | None, workspace: str | None, key: bytes, mode: str, fmt: str | None, rescan: bool, options: dict, threads: int = 0, ocr: str = "auto") -> None:
    global _WORKER
    logging.basicConfig(level=logging.WARNING)
    if threads:
        # each worker process gets its share of the cores: N workers each running one
        # thread per core oversubscribed the machine and ran slower than one worker
        from .core.models.device import THREADS_ENV

        os.environ[THREADS_ENV] = str(threads)
        # Tesseract (a child process) takes its thread count from OpenMP's limit
        os.environ.setdefault("OMP_THREAD_LIMIT", str(threads))
    _WORKER = _make_deidentifier(argparse.Namespace(ensemble=ensemble, workspace=workspace), key, mode, fmt, rescan, options, ocr=ocr)


def _threads_per_worker(workers: int) -> int:
    from .core.models.device import default_threads

    return max(1, default_threads() // max(1, workers))


def _make_deidentifier(ns, key: bytes, mode: str, fmt: str | None, rescan: bool, options: dict, detector=None, ocr: str = "auto"):
    from .core.pipeline import Deidentifier
    from .core.surrogates import SurrogateEngine, SurrogateOptions

    engine = SurrogateEngine(key, SurrogateOptions(**options))
    return Deidentifier(detector if detector is not None else build_detector(ns), engine, mode=mode, out_format=fmt, rescan=rescan, ocr=ocr)


def _worker_run(path: str, out: str, subject: str, display: str, label: str, progress_label: str | None = None):
    _WORKER.progress = _ProgressLine(progress_label, Path(path)) if progress_label else None
    return _WORKER.process_file(Path(path), Path(out), subject, display, label)


class _ProgressLine:
    """How far through a huge file the work is, as "file 3/10: 35 % (7.0 of 20.0 MB)" on
    stderr, at most every ``every`` seconds. The file is named by its number in the batch:
    its name may be PHI, and this line is printed before its de-identified name is final
    in the report."""

    def __init__(self, label: str, path: Path, every: float = 5.0, write=None):
        self.label = label
        try:
            self.size = path.stat().st_size
        except OSError:
            self.size = 0
        self.every = every
        self.write = write or (lambda line: print(line, file=sys.stderr, flush=True))
        self._last = time.monotonic()

    def __call__(self, fraction: float, chars: int) -> None:
        now = time.monotonic()
        if now - self._last < self.every and fraction < 1.0:
            return
        self._last = now
        mb = self.size / 1e6
        self.write(f"{self.label}: {100 * fraction:.0f} % ({fraction * mb:.1f} of {mb:.1f} MB)")


def _load_key(args) -> bytes:
    if args.workspace:
        from .core.store import Workspace

        with Workspace.open(args.workspace) as ws:  # a new path starts a workspace, as in the app
            return ws.secret
    from .core.keys import load_or_create_key

    return load_or_create_key(args.key_file)


def _inside(path: Path, folder: Path) -> bool:
    return path.resolve().is_relative_to(folder.resolve())


def cmd_deidentify(args) -> int:
    from tqdm import tqdm

    from .core.naming import FileNamer
    from .core.pipeline import (
        FileResult,
        check_writable,
        input_digest,
        is_finished,
        load_report,
        load_subject_manifest,
        options_digest,
        plan_outputs,
        remove_part_files,
        write_name_map,
        write_report,
    )

    out_dir = Path(args.out)
    inputs = [Path(p) for p in args.paths]
    for i, p in enumerate(inputs, 1):
        if not p.exists():
            # the path itself may be PHI: the argument is named by its position
            _err(f"input {i} of {len(inputs)} does not exist (no such file or folder)")
            return 2
    name_map = Path(args.name_map) if args.name_map else None
    if name_map is not None and _inside(name_map, out_dir):
        _err("--name-map holds the original file names: write it outside the output folder")
        return 2
    problem = check_writable(out_dir)
    if problem:
        _err(f"cannot write to the output folder {out_dir}: {problem}")
        return 2
    manifest = load_subject_manifest(Path(args.subjects)) if args.subjects else {}
    key = _load_key(args)
    options = {}
    if args.age_cap is not None:
        options["age_cap"] = args.age_cap
    deid = _make_deidentifier(args, key, args.mode, args.format, not args.no_rescan, options, ocr=args.ocr)
    namer = FileNamer(deid.detector, deid.engine, key, args.mode)
    opts_id = options_digest(key, {
        "mode": args.mode, "format": args.format, "rescan": not args.no_rescan, "surrogates": options, "ocr": args.ocr,
        "detector": deid.detector.describe() if hasattr(deid.detector, "describe") else type(deid.detector).__name__,
    })
    removed = remove_part_files(out_dir)
    if removed:
        _err(f"removed {removed} unfinished file(s) left by an interrupted run")
    exclude = [out_dir] + ([name_map] if name_map else [])
    plan = plan_outputs(inputs, out_dir, namer, manifest, out_format=args.format, exclude=exclude,
                        on_skip=lambda name, reason: _err(f"skipped {name}: {reason}"))
    if name_map is not None:
        write_name_map(name_map, plan)
    if args.workspace:
        _remember_names(args.workspace, plan)
    results = load_report(out_dir) if not args.force else {}
    todo = []
    for item in plan:
        digest = input_digest(item.source, key)
        if not args.force and is_finished(results.get(item.display), digest, opts_id):
            continue  # resumable: finished outputs of these very bytes and options are kept
        todo.append((item, digest))
    skipped = len(plan) - len(todo)
    if skipped:
        _err(f"resuming: {skipped} file(s) already done")
    meta = {"mode": args.mode, "format": args.format or "same as input", "ocr": args.ocr, "options": opts_id,
            "started": time.strftime("%Y-%m-%dT%H:%M:%S"), "tool": "deid-desktop"}

    def record(r: FileResult, item, digest: str) -> None:
        # other files found in a folder (README, images) are skipped, not failures; a file
        # named on the command line that cannot be read is an error
        if r.error_code == "unsupported" and item.from_folder:
            r.status = "skipped"
        r.input_digest, r.options = digest, opts_id
        prev = results.get(r.file)
        if prev and prev.output and prev.output != r.output and r.status == "ok" and _inside(Path(prev.output), out_dir):
            Path(prev.output).unlink(missing_ok=True)  # an output of other options or bytes
        results[r.file] = r
        if r.status == "error":
            _err(r.error or r.file)
        write_report(out_dir, results, meta)  # after every file: a kill loses nothing finished

    bar = tqdm(total=len(todo), unit="file", disable=args.quiet, desc="de-identifying")
    for item, _ in todo:
        item.output.parent.mkdir(parents=True, exist_ok=True)
    if args.workers > 1 and len(todo) > 1:
        import multiprocessing as mp

        with ProcessPoolExecutor(args.workers, mp_context=mp.get_context("spawn"), initializer=_worker_init,
                                 initargs=(args.ensemble, args.workspace, key, args.mode, args.format, not args.no_rescan, options,
                                           _threads_per_worker(args.workers), args.ocr)) as ex:
            futs = {ex.submit(_worker_run, str(it.source), str(it.output), it.subject, it.display, it.subject_label,
                              None if args.quiet else f"file {i}/{len(todo)}"): (it, d)
                    for i, (it, d) in enumerate(todo, 1)}
            for fut in as_completed(futs):
                record(fut.result(), *futs[fut])
                bar.update()
    else:
        for i, (item, digest) in enumerate(todo, 1):
            if not args.quiet:
                deid.progress = _ProgressLine(f"file {i}/{len(todo)}", item.source, write=lambda line: tqdm.write(line, file=sys.stderr))
            record(deid.process_file(item.source, item.output, item.subject, item.display, item.subject_label), item, digest)
            bar.update()
    bar.close()
    jp, cp = write_report(out_dir, results, meta)
    cert = _write_certificate(out_dir, results, opts_id, args, deid.detector)
    n_ok = sum(r.status == "ok" for r in results.values())
    n_err = sum(r.status == "error" for r in results.values())
    n_skip = sum(r.status == "skipped" for r in results.values())
    n_find = sum(bool(r.rescan_findings) or r.residual_originals > 0 for r in results.values())
    _err(f"{n_ok} file(s) de-identified, {n_err} failed, {n_skip} skipped (not .txt/.docx/.pdf); report: {jp}"
         + (f"; release certificate: {cert}" if cert else ""))
    if n_find:
        _err(f"{n_find} file(s) have re-scan findings or replaced values still present elsewhere in the text: "
             "review them before release (see the report)")
    return 1 if n_err else 0


def _write_certificate(out_dir: Path, results: dict, opts_id: str, args, detector) -> Path | None:
    """The release certificate of the files these options made (this run's and those it
    resumed). Nobody reviewed a batch: every finding is replaced without a decision."""
    from .core import certificate

    made = [r for r in results.values() if r.options == opts_id and r.status in ("ok", "error")]
    if not made:
        return None
    record = certificate.export_record(
        [certificate.certified_output(r, out_dir, input_digest=r.input_digest, auto_accepted=r.n_phi) for r in made],
        tool="deid-desktop deidentify",
        exported_by="",
        options={"mode": args.mode, "format": args.format or "same as input", "unreviewed_policy": "accept", "rescan": not args.no_rescan},
        detector=certificate.detector_record(detector),
    )
    return certificate.write_certificate(out_dir, record)[1]


def cmd_verify_certificate(args) -> int:
    from .core.certificate import verify_certificate

    path = Path(args.certificate)
    try:
        cert = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        _err(f"cannot read the certificate {path.name}: {getattr(e, 'strerror', None) or type(e).__name__}")
        return 2
    if not isinstance(cert, dict) or not isinstance(cert.get("exports"), list):
        _err(f"{path.name} is not a release certificate")
        return 2
    v = verify_certificate(cert, Path(args.folder) if args.folder else path.parent)
    for name in v.changed:
        print(f"changed since release: {name}")
    for name in v.missing:
        print(f"missing: {name}")
    print(f"{len(v.unchanged)} file(s) as released, {len(v.changed)} changed, {len(v.missing)} missing")
    return 0 if v.ok else 1


NAME_MAP_SETTING = "batch_name_map"


def _remember_names(workspace: str, plan) -> None:
    """The workspace may hold PHI, so it keeps the input → output names as well."""
    from .core.store import Workspace

    with Workspace.open(workspace, create=False) as ws:
        known = dict(ws.get_setting(NAME_MAP_SETTING, {}) or {})
        known.update({str(p.output): str(p.source.absolute()) for p in plan})
        ws.set_setting(NAME_MAP_SETTING, known)


# -- main -------------------------------------------------------------------------------

def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="deid-desktop", description="De-identify clinical documents (txt, PDF, Word).")
    p.add_argument("-v", "--verbose", action="store_true", help="log progress details (never document content)")
    sub = p.add_subparsers(dest="command", required=True)

    d = sub.add_parser("detect", help="find PHI in JSONL documents ({id, text} per line)")
    d.add_argument("--input", required=True, help="JSONL file, or - for stdin")
    d.add_argument("--output", required=True, help="JSONL file, or - for stdout")
    d.add_argument("--ensemble", help="ensemble TOML (default: resources/ensembles/default.toml)")
    d.add_argument("--workspace", help="use this workspace's active model and ensemble weights")
    d.add_argument("--batch-size", type=int, default=64)
    d.add_argument("--timing", metavar="FILE", help="write load and detection times (after one warm-up document) as JSON")
    d.set_defaults(func=cmd_detect)

    x = sub.add_parser("deidentify", help="write de-identified copies of files and folders")
    x.add_argument("paths", nargs="+", help="files (.txt .docx .pdf) and folders")
    x.add_argument("--out", required=True, help="output folder (the report is written there too)")
    x.add_argument("--mode", choices=MODES, default=ExportMode.SURROGATE.value)
    x.add_argument("--format", choices=("txt", "docx", "pdf"), help="output format (default: same as input)")
    x.add_argument("--subjects", help="CSV manifest with columns path,subject")
    x.add_argument("--workers", type=int, default=1)
    x.add_argument("--ensemble", help="ensemble TOML")
    x.add_argument("--workspace", help="use this workspace's secret, model and weights")
    x.add_argument("--key-file", help="surrogate key file (default: in your user data folder)")
    x.add_argument("--age-cap", type=int, help="ages above this become '90+' style (default 89)")
    x.add_argument("--no-rescan", action="store_true", help="skip the verification re-scan of outputs")
    x.add_argument("--ocr", choices=("auto", "always", "never"), default="auto",
                   help="read scanned PDF pages with Tesseract OCR: auto (pages without a text layer), "
                        "always (every page), never (refuse PDFs without a text layer)")
    x.add_argument("--force", action="store_true", help="redo files already finished")
    x.add_argument("--name-map", help="CSV linking each input to its output (holds original names; written 0600, "
                                      "never inside --out)")
    x.add_argument("--quiet", action="store_true")
    x.set_defaults(func=cmd_deidentify)

    c = sub.add_parser("verify-certificate", help="check that the files a release certificate lists are as released")
    c.add_argument("certificate", help="release-certificate.json")
    c.add_argument("folder", nargs="?", help="the released folder (default: the certificate's folder)")
    c.set_defaults(func=cmd_verify_certificate)

    for register in _EXTRA_COMMANDS:
        register(sub)
    return p


# Other modules add their sub-commands here (learning, GUI) so this file stays small.
_EXTRA_COMMANDS: list = []


def main(argv: list[str] | None = None) -> int:
    from . import commands  # noqa: F401  (registers the remaining sub-commands)

    args = build_parser().parse_args(argv)
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    try:
        return int(args.func(args) or 0)
    except BrokenPipeError:  # output piped into head/less that closed early
        sys.stderr.close()
        return 0
    except KeyboardInterrupt:
        _err("interrupted; finished files are kept and the batch resumes where it stopped")
        return 130
    except Exception as e:  # every error, ours or not, as one PHI-free line
        from .core.errors import describe_error

        _err(describe_error(e, workspace=getattr(args, "workspace", None), file_label=_withheld))
        return 2


def _withheld(name: str) -> str:
    """A file name for an error message, with what the rules find in it withheld."""
    from .core.detect.ensemble import Ensemble
    from .core.naming import withheld_name
    from .core.paths import resource

    try:
        return withheld_name(name, Ensemble.from_config(str(resource("ensembles", "rules_only.toml"))))
    except Exception:  # the error message must come out even if the rules cannot load
        return "a file"


if __name__ == "__main__":
    # run as "python -m deid_desktop.cli": the sub-commands register into the imported
    # module, not into __main__, so the module's own main must be the one called
    from deid_desktop.cli import main as _main

    sys.exit(_main())
