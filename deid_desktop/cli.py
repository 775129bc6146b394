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

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

log = logging.getLogger("deid_desktop")


def _err(msg: str) -> None:
    print(f"deid-desktop: {msg}", file=sys.stderr)


# -- shared helpers ---------------------------------------------------------------------

def build_detector(args) -> "object":
    """The ensemble named by --ensemble (default config); with --workspace, that workspace's
    active model, ensemble weights, allow/deny lists and approved template rules."""
    ws_path = getattr(args, "workspace", None)
    if ws_path:
        from .core.learn.workspace_detector import open_workspace_detector

        det = open_workspace_detector(ws_path, getattr(args, "ensemble", None))
    else:
        from .core.detect.ensemble import Ensemble

        det = Ensemble.from_config(getattr(args, "ensemble", None))
    if det.missing:
        _err(f"running without {', '.join(det.missing)} (no trained model found; run '{build_model_command()}')")
    if det.rules_only:
        _err("rules-only detection: no transformer model is available")
    return det


def _iter_jsonl(path: str) -> Iterator[tuple[int, dict | None, str | None]]:
    f = sys.stdin if path == "-" else open(path, encoding="utf-8")
    with f:
        for n, line in enumerate(f, 1):
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
    det = build_detector(args)
    out = sys.stdout if args.output == "-" else open(args.output, "w", encoding="utf-8")
    n_docs, n_chars, t0 = 0, 0, time.perf_counter()
    batch: list[tuple[int, dict | None, str | None]] = []

    def flush() -> None:
        nonlocal n_docs, n_chars
        good = [(i, o) for i, (_, o, e) in enumerate(batch) if o is not None]
        results = det.detect_many([o["text"] for _, o in good]) if good else []
        by_index = {i: r for (i, _), r in zip(good, results)}
        for i, (n, obj, err) in enumerate(batch):
            if obj is None:
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
    except FileNotFoundError:
        _err(f"{args.input}: no such file")
        return 2
    finally:
        if out is not sys.stdout:
            out.close()
    dt = time.perf_counter() - t0
    _err(f"detected PHI in {n_docs} documents ({n_chars} characters) in {dt:.1f} s")
    return 0


# -- deidentify -------------------------------------------------------------------------

_WORKER = None


def _worker_init(ensemble: str | None, workspace: str | None, key: bytes, mode: str, fmt: str | None, rescan: bool, options: dict) -> None:
    global _WORKER
    logging.basicConfig(level=logging.WARNING)
    _WORKER = _make_deidentifier(argparse.Namespace(ensemble=ensemble, workspace=workspace), key, mode, fmt, rescan, options)


def _make_deidentifier(ns, key: bytes, mode: str, fmt: str | None, rescan: bool, options: dict):
    from .core.pipeline import Deidentifier
    from .core.surrogates import SurrogateEngine, SurrogateOptions

    engine = SurrogateEngine(key, SurrogateOptions(**options))
    return Deidentifier(build_detector(ns), engine, mode=mode, out_format=fmt, rescan=rescan)


def _worker_run(path: str, out: str, subject: str):
    Path(out).parent.mkdir(parents=True, exist_ok=True)
    return _WORKER.process_file(Path(path), Path(out), subject)


def cmd_deidentify(args) -> int:
    from tqdm import tqdm

    from .core.keys import load_or_create_key
    from .core.pipeline import FileResult, load_report, load_subject_manifest, plan_outputs, subject_for, write_report

    out_dir = Path(args.out)
    inputs = [Path(p) for p in args.paths]
    for p in inputs:
        if not p.exists():
            _err(f"{p}: no such file or folder")
            return 2
    manifest = load_subject_manifest(Path(args.subjects)) if args.subjects else {}
    if args.workspace:
        from .core.store import Workspace

        ws = Workspace.open(args.workspace)  # a new path starts a workspace, as in the app
        key = ws.secret
        ws.close()
    else:
        key = load_or_create_key(args.key_file)
    options = {}
    if args.age_cap is not None:
        options["age_cap"] = args.age_cap
    plan = plan_outputs(inputs, out_dir)
    results = load_report(out_dir) if not args.force else {}
    todo = []
    from_folder: set[str] = set()
    for f, root, out in plan:
        prev = results.get(str(f))
        if not args.force and prev and prev.status == "ok" and prev.output and Path(prev.output).is_file():
            continue  # resumable: finished outputs are kept
        todo.append((f, out, subject_for(f, root, manifest)))
        if root is not None:
            from_folder.add(str(f))
    skipped = len(plan) - len(todo)
    if skipped:
        _err(f"resuming: {skipped} file(s) already done")
    meta = {"mode": args.mode, "format": args.format or "same as input", "started": time.strftime("%Y-%m-%dT%H:%M:%S"), "tool": "deid-desktop"}

    def record(r: FileResult) -> None:
        # other files found in a folder (README, images) are skipped, not failures; a file
        # named on the command line that cannot be read is an error
        if r.error_code == "unsupported" and r.file in from_folder:
            r.status = "skipped"
        results[r.file] = r
        if r.status == "error":
            _err(r.error or r.file)

    bar = tqdm(total=len(todo), unit="file", disable=args.quiet, desc="de-identifying")
    if args.workers > 1 and len(todo) > 1:
        import multiprocessing as mp

        with ProcessPoolExecutor(args.workers, mp_context=mp.get_context("spawn"), initializer=_worker_init,
                                 initargs=(args.ensemble, args.workspace, key, args.mode, args.format, not args.no_rescan, options)) as ex:
            futs = [ex.submit(_worker_run, str(f), str(o), s) for f, o, s in todo]
            for i, fut in enumerate(as_completed(futs), 1):
                record(fut.result())
                bar.update()
                if i % 20 == 0:
                    write_report(out_dir, results, meta)
    else:
        deid = _make_deidentifier(args, key, args.mode, args.format, not args.no_rescan, options)
        for i, (f, o, s) in enumerate(todo, 1):
            o.parent.mkdir(parents=True, exist_ok=True)
            record(deid.process_file(f, o, s))
            bar.update()
            if i % 20 == 0:
                write_report(out_dir, results, meta)
    bar.close()
    jp, cp = write_report(out_dir, results, meta)
    n_ok = sum(r.status == "ok" for r in results.values())
    n_err = sum(r.status == "error" for r in results.values())
    n_skip = sum(r.status == "skipped" for r in results.values())
    n_find = sum(bool(r.rescan_findings) or r.residual_originals > 0 for r in results.values())
    _err(f"{n_ok} file(s) de-identified, {n_err} failed, {n_skip} skipped (not .txt/.docx/.pdf); report: {jp}")
    if n_find:
        _err(f"{n_find} file(s) have re-scan findings or replaced values still present elsewhere in the text: "
             "review them before release (see the report)")
    return 1 if n_err else 0


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
    d.set_defaults(func=cmd_detect)

    x = sub.add_parser("deidentify", help="write de-identified copies of files and folders")
    x.add_argument("paths", nargs="+", help="files (.txt .docx .pdf) and folders")
    x.add_argument("--out", required=True, help="output folder (the report is written there too)")
    x.add_argument("--mode", choices=("surrogate", "tag", "blackout"), default="surrogate")
    x.add_argument("--format", choices=("txt", "docx", "pdf"), help="output format (default: same as input)")
    x.add_argument("--subjects", help="CSV manifest with columns path,subject")
    x.add_argument("--workers", type=int, default=1)
    x.add_argument("--ensemble", help="ensemble TOML")
    x.add_argument("--workspace", help="use this workspace's secret, model and weights")
    x.add_argument("--key-file", help="surrogate key file (default: in your user data folder)")
    x.add_argument("--age-cap", type=int, help="ages above this become '90+' style (default 89)")
    x.add_argument("--no-rescan", action="store_true", help="skip the verification re-scan of outputs")
    x.add_argument("--force", action="store_true", help="redo files already finished")
    x.add_argument("--quiet", action="store_true")
    x.set_defaults(func=cmd_deidentify)

    for register in _EXTRA_COMMANDS:
        register(sub)
    return p


# Other modules add their sub-commands here (learning, GUI) so this file stays small.
_EXTRA_COMMANDS: list = []


def main(argv: list[str] | None = None) -> int:
    from . import commands  # noqa: F401  (registers the remaining sub-commands)

    args = build_parser().parse_args(argv)
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    from .core.errors import DeidError

    try:
        return int(args.func(args) or 0)
    except DeidError as e:
        _err(str(e))
        return 2
    except BrokenPipeError:  # output piped into head/less that closed early
        sys.stderr.close()
        return 0
    except KeyboardInterrupt:
        _err("interrupted; finished files are kept and the batch resumes where it stopped")
        return 130


if __name__ == "__main__":
    sys.exit(main())
