"""Learning-loop sub-commands: retrain, import/export reviewed annotations, re-fit weights,
harvest rules, allow/deny lists, model versions.

Registered into the main parser by ``deid_desktop/commands.py`` (``learn_cli.register``);
``python -m deid_desktop.learn_cli ...`` runs them on their own, which is how the GUI starts
a retrain in a separate process. With ``--progress json`` every line on stdout is one JSON
event ({"event": "progress" | "summary" | "result", ...}) carrying counts and metrics only.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .core.learn.metrics import Evaluation, Scores

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")


def _err(msg: str) -> None:
    print(f"deid-desktop: {msg}", file=sys.stderr)


def _open(path: str):
    """The workspace at ``path``, created (owner-only) when nothing is there yet, as the app
    does: importing reviewed files into a new workspace is how one starts from them."""
    from .core.store import Workspace

    return Workspace.open(path)


def _fmt(x: float | None) -> str:
    return "   -  " if x is None else f"{x:6.3f}"


def comparison_table(new: Evaluation | None, old: Evaluation | None) -> str:
    """Old and new model side by side: binary P/R/F1, then per-category recall and F1."""
    if new is None:
        return "(no held-out documents: nothing to compare)"
    lines = [f"{'':22}{'before P':>9}{'R':>7}{'F1':>7}   {'after P':>8}{'R':>7}{'F1':>7}"]

    def row(title: str, o: tuple[float, float, float] | None, n: tuple[float, float, float]) -> str:
        before = "".join(f"{_fmt(v):>{w}}" for v, w in zip(o or (None, None, None), (9, 7, 7)))
        return f"{title:22}{before}   {_fmt(n[0]):>8}{_fmt(n[1]):>7}{_fmt(n[2]):>7}"

    def prf(s: Scores) -> tuple[float, float, float]:
        return s.precision, s.recall, s.f1

    lines.append(row("PHI words (binary)", prf(old.token) if old else None, prf(new.token)))
    lines.append(row("PHI words, typed", prf(old.typed_token) if old else None, prf(new.typed_token)))
    for cat, m in new.per_category.items():
        o = old.per_category.get(cat) if old else None
        lines.append(row(
            f"  {cat}",
            (o.typed_precision, o.typed_recall, o.typed_f1) if o else None,
            (m.typed_precision, m.typed_recall, m.typed_f1),
        ))
    return "\n".join(lines)


# -- retrain ----------------------------------------------------------------------------------


def cmd_retrain(args) -> int:
    from .core.learn.loop import Progress, RetrainSettings, retrain, retrain_summary

    ws = _open(args.workspace)
    stop = threading.Event()

    def should_stop() -> bool:
        return stop.is_set() or bool(args.stop_file and Path(args.stop_file).exists())

    previous = signal.signal(signal.SIGTERM, lambda *_: stop.set())
    as_json = args.progress == "json"

    def say(obj: dict[str, Any]) -> None:
        print(json.dumps(obj), flush=True)

    bar: dict[str, Any] = {}

    def on_progress(p: Progress) -> None:
        if as_json:
            say({"event": "progress", **p.to_json()})
        elif args.progress == "bar":
            if p.stage == "training":
                if "bar" not in bar:
                    from tqdm import tqdm

                    bar["bar"] = tqdm(total=p.total, desc="training", unit="step", file=sys.stderr)
                bar["bar"].update(p.done - bar["bar"].n)
                if p.loss is not None:
                    bar["bar"].set_postfix(loss=f"{p.loss:.4f}")
            elif "bar" in bar:
                bar.pop("bar").close()

    try:
        summary = retrain_summary(ws)
        if as_json:
            say({"event": "summary", **summary.__dict__})
        else:
            _err(f"{summary.reviewed_documents} reviewed document(s); {summary.new_reviewed_documents} with decisions since the last model")
        settings = RetrainSettings(
            epochs=args.epochs, augment=args.augment, synthetic=args.synthetic, replay_notes=args.replay_notes, member=args.member,
            heldout=args.heldout, min_heldout=args.min_heldout,
            seed=args.seed, device=args.device, max_length=args.max_length, batch_size=args.batch_size,
            activate_if_better=args.activate_if_better, training_config=args.training_config,
            ensemble_config=args.ensemble,
        )
        outcome = retrain(ws, settings, progress=on_progress, should_stop=should_stop)
    finally:
        if "bar" in bar:
            bar.pop("bar").close()
        signal.signal(signal.SIGTERM, previous)
        ws.close()
    if as_json:
        say({"event": "result", **outcome.to_json()})
    else:
        for note in outcome.notes:
            _err(note)
        if outcome.status == "ok":
            print(f"new model version {outcome.version_name} ({outcome.counts.get('total', 0)} training documents, {outcome.seconds:.0f} s)")
            print(comparison_table(outcome.metrics, outcome.previous_metrics))
            if outcome.activated:
                print("activated: it scored better on the held-out reviewed documents")
            elif args.activate_if_better:
                print("kept the previous model active: the new one did not score better")
            else:
                print("not activated; activate it with: deid-desktop model-versions --workspace W --activate ID")
    if outcome.status == "cancelled":
        _err("training cancelled; nothing was saved")
        return 130
    if outcome.status == "nothing_to_learn":
        _err("no reviewed documents yet: review some documents first")
        return 1
    return 0


# -- annotations in and out --------------------------------------------------------------------


def _label_map(path: str | None) -> dict[str, str] | None:
    if not path:
        return None
    p = Path(path)
    if p.suffix.lower() == ".json":
        return json.loads(p.read_text(encoding="utf-8"))
    import tomllib

    data = tomllib.loads(p.read_text(encoding="utf-8"))
    return data.get("labels", data)


def cmd_import_reviewed(args) -> int:
    from .core.learn.interchange import import_reviewed

    ws = _open(args.workspace)
    try:
        report = import_reviewed(ws, args.file, args.format, label_map=_label_map(args.label_map))
    finally:
        ws.close()
    for problem in report.read.problems[:20]:
        _err(problem)
    print(report.summary())
    return 0 if report.imported or report.duplicates else 1


def cmd_export_reviewed(args) -> int:
    from .core.learn.interchange import export_reviewed, labelstudio_config

    from .core.learn.reviewed import reviewed_document_rows
    from .review_cli import unadjudicated_warning

    ws = _open(args.workspace)
    try:
        warning = unadjudicated_warning(ws, [r.id for r in reviewed_document_rows(ws)])
        n = export_reviewed(ws, args.out, args.format)
    finally:
        ws.close()
    if warning:
        _err(warning)
    print(f"{n} reviewed document(s) written to {args.out}")
    if args.format == "labelstudio":
        cfg = Path(args.out).with_suffix(".label_config.xml")
        cfg.write_text(labelstudio_config(), encoding="utf-8")
        print(f"Label Studio labelling interface: {cfg}")
    return 0


# -- weights, rules, lists, versions -------------------------------------------------------------


def cmd_refit_weights(args) -> int:
    from .core.learn.loop import SETTING_REFIT_EVERY, refit_weights

    ws = _open(args.workspace)
    try:
        if args.every is not None:
            ws.set_setting(SETTING_REFIT_EVERY, args.every)
        weights = refit_weights(ws, recent=args.recent)
    finally:
        ws.close()
    if weights is None:
        _err("no reviewed documents yet: nothing to fit the weights on")
        return 1
    print("  ".join(f"{k}={v:.3f}" for k, v in weights.items()))
    return 0


def cmd_harvest(args) -> int:
    from .core.learn.proposals import harvest_workspace

    ws = _open(args.workspace)
    try:
        result = harvest_workspace(ws, min_support=args.min_support)
    finally:
        ws.close()
    print(f"{len(result.rules)} new template rule(s) and {len(result.sentences)} new inclusion sentence(s) proposed")
    for r in result.rules:
        print(f"  rule (in {r.support} documents): {r.template}")
    return 0


def cmd_lists(args) -> int:
    from .core.learn.term_lists import export_terms, import_terms, list_terms

    if args.action in ("import", "export") and not args.file:
        _err("--file is required to import or export a list")
        return 2
    ws = _open(args.workspace)
    try:
        if args.action == "import":
            n = import_terms(ws, args.file, args.kind, scope=args.scope, scope_id=args.scope_id)
            print(f"{n} new {args.kind}-list term(s)")
        elif args.action == "export":
            n = export_terms(ws, args.file, args.kind, scope=args.scope if args.scope_id else None, scope_id=args.scope_id)
            print(f"{n} {args.kind}-list term(s) written to {args.file}")
        else:
            for t in list_terms(ws, kind=args.kind):
                where = t.scope if t.scope == "workspace" else f"{t.scope} {t.scope_id}"
                print(f"{t.id}\t{t.kind}\t{t.category or ''}\t{where}\t{'re:' if t.is_regex else ''}{t.term}")
    finally:
        ws.close()
    return 0


def cmd_model_versions(args) -> int:
    from .core.learn.loop import activate

    ws = _open(args.workspace)
    try:
        if args.shipped:
            activate(ws, None)
        elif args.activate is not None:
            activate(ws, args.activate)
        rows = ws.list_model_versions()
        print(f"{'id':>4}  {'name':14}{'active':8}{'held-out F1':>12}{'recall':>8}  created")
        for v in rows:
            m = (v.metrics.get("heldout") or {}).get("token") or {}
            f1 = f"{m['f1']:.3f}" if "f1" in m else "-"
            rc = f"{m['recall']:.3f}" if "recall" in m else "-"
            print(f"{v.id:>4}  {v.name:14}{'yes' if v.active else '':8}{f1:>12}{rc:>8}  {v.created_at:%Y-%m-%d %H:%M}")
        if not any(v.active for v in rows):
            print("active: the shipped model (no workspace version)")
    finally:
        ws.close()
    return 0


# -- registration --------------------------------------------------------------------------------


def register(sub) -> None:
    from .core.learn.interchange import FORMATS

    r = sub.add_parser("retrain", help="fine-tune the workspace's model on its reviewed documents")
    r.add_argument("--workspace", required=True)
    r.add_argument("--activate-if-better", action="store_true", help="activate the new model when it scores better on held-out reviewed documents")
    r.add_argument("--epochs", type=int, default=None, help="passes over the data (default: as many as fit about 3600 sequences on CPU, 36000 on GPU, at most 10)")
    r.add_argument("--augment", type=int, default=1, metavar="K", help="surrogate rewrites of each reviewed document (default 1)")
    r.add_argument("--synthetic", type=int, default=100, metavar="N", help="at most N synthetic documents mixed in, one per reviewed document (default 100)")
    r.add_argument("--replay-notes", type=int, default=100, metavar="N",
                   help="at most N of the shipped hand-written training notes mixed in, two per reviewed document (default 100; 0: none)")
    r.add_argument("--member", help="the ensemble's transformer member a first retrain starts from and replaces (default: the first)")
    r.add_argument("--heldout", type=float, default=0.2, help="share of reviewed documents kept out for comparison (default 0.2)")
    from .core.learn.uncertainty import MIN_DOCUMENTS  # light: no torch

    r.add_argument("--min-heldout", type=int, default=MIN_DOCUMENTS,
                   help=f"hold out documents only when the share gives at least this many; else train on all (default {MIN_DOCUMENTS})")
    r.add_argument("--seed", type=int, default=13)
    r.add_argument("--device", default="auto", help="auto (GPU when present), cpu, cuda, mps")
    r.add_argument("--max-length", type=int, default=128)
    r.add_argument("--batch-size", type=int, default=32)
    r.add_argument("--training-config", help="training TOML (default: resources/training/default.toml)")
    r.add_argument("--ensemble", help="ensemble TOML used to compare old and new")
    r.add_argument("--progress", choices=("bar", "json", "none"), default="bar")
    r.add_argument("--stop-file", help="cancel when this file appears (used by the GUI)")
    r.set_defaults(func=cmd_retrain)

    i = sub.add_parser("import-reviewed", help="import annotated documents as reviewed documents")
    i.add_argument("--workspace", required=True)
    i.add_argument("file", help="JSONL / CoNLL file, BRAT folder or .ann file, Prodigy/doccano/Label Studio export")
    i.add_argument("--format", choices=FORMATS, help="default: guessed from the file")
    i.add_argument("--label-map", help="TOML or JSON table: foreign label -> CATEGORY[/FINE]")
    i.set_defaults(func=cmd_import_reviewed)

    e = sub.add_parser("export-reviewed", help="export reviewed documents with their final spans")
    e.add_argument("--workspace", required=True)
    e.add_argument("out", help="output file (a folder for brat)")
    e.add_argument("--format", choices=FORMATS, default="jsonl")
    e.set_defaults(func=cmd_export_reviewed)

    w = sub.add_parser("refit-weights", help="re-fit the soft-vote weights on recent reviewed documents (002)")
    w.add_argument("--workspace", required=True)
    w.add_argument("--recent", type=int, help="how many recent reviewed documents (default 50)")
    w.add_argument("--every", type=int, help="also re-fit automatically after this many newly reviewed documents (0: off)")
    w.set_defaults(func=cmd_refit_weights)

    h = sub.add_parser("harvest", help="propose template rules and inclusion sentences from reviewed documents")
    h.add_argument("--workspace", required=True)
    h.add_argument("--min-support", type=int, default=3)
    h.set_defaults(func=cmd_harvest)

    li = sub.add_parser("lists", help="show, import or export the allow/deny lists")
    li.add_argument("action", choices=("show", "import", "export"))
    li.add_argument("--workspace", required=True)
    li.add_argument("--kind", choices=("allow", "deny"), default="allow")
    li.add_argument("--file", help="plain list file (one term per line; CATEGORY<TAB>term for deny)")
    li.add_argument("--scope", choices=("workspace", "subject", "document"), default="workspace")
    li.add_argument("--scope-id", help="subject or document id for a narrower scope")
    li.set_defaults(func=cmd_lists)

    v = sub.add_parser("model-versions", help="list the workspace's model versions; activate one (rollback)")
    v.add_argument("--workspace", required=True)
    v.add_argument("--activate", type=int, metavar="ID")
    v.add_argument("--shipped", action="store_true", help="go back to the shipped model")
    v.set_defaults(func=cmd_model_versions)


def main(argv: list[str] | None = None) -> int:
    import logging

    from .core.errors import DeidError

    p = argparse.ArgumentParser(prog="deid-desktop")
    register(p.add_subparsers(dest="command", required=True))
    args = p.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    try:
        return int(args.func(args) or 0)
    except DeidError as e:
        _err(str(e))
        return 2
    except Exception as e:  # the GUI shows stderr: never an exception message, which could quote text
        import traceback

        frames = "".join(f"  {f.filename}:{f.lineno} in {f.name}\n" for f in traceback.extract_tb(e.__traceback__))
        sys.stderr.write(frames)
        _err(f"internal error ({type(e).__name__})")
        return 1


if __name__ == "__main__":
    sys.exit(main())
