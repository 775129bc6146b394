"""Throughput on this machine, as a peer harness would time it, and what each lever bought.

1. Detection (`deid-desktop detect --timing`, detection calls only, after one warm-up
   document) on 126 documents: the 36 hand-written unseen notes and 90 synthetic letters of
   held-out template families. Ensembles: the default (ONNX Runtime on a CPU, the cascade:
   the last model reads only the sentences where its vote can count, each model's batches on
   every core), the same without the cascade (the two models side by side, the default
   before), the same ensemble on the torch reference path (float32), int8.toml (the models in
   int8), and rules only. The spans of the fast paths are compared with the reference path's:
   the same spans mean the same accuracy.
   In the same run and on the same documents, the peer tools Philter, Presidio and scrubadub,
   when their environments exist: `make peers` builds them under .venv-peers, apart from the
   product's .venv (benchmarks/peers/setup.sh: the versions pinned beside it, from PyPI; Philter
   on Python 3.10, which it needs), and benchmarks/peers/run_peer.py times each as
   `detect --timing` times ours: built with its documented default configuration (load s),
   one untimed warm-up document, then the calls that find PHI only (run_peer.py's docstring
   says which call for each tool). No English spaCy pipeline is on PyPI, so Presidio runs with
   its pattern recognisers only unless one was installed (SPACY_MODEL_WHEEL, see setup.sh); its
   row says which. Without .venv-peers the peers are left out and the output says so.
2. The same default detection while another process keeps one core busy (a desktop is never
   idle).
3. `deid-desktop deidentify`: start-up (one small file), then seconds per file for .txt,
   .docx and .pdf letters in a batch, at 1 and 2 workers for .txt; peak resident memory of
   each run.

Figures are printed and recorded in docs/benchmarks.md ("Throughput"). Huge files have their
own script (benchmarks/huge_files.py).

    DEID_MODELS=models .venv/bin/python benchmarks/throughput.py [--quick]
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _report import machine, update_section  # noqa: E402

CLI = [sys.executable, "-m", "deid_desktop.cli"]
FLAT = "default without the cascade (ONNX Runtime, the models side by side)"
UNSEEN = ROOT / "benchmarks" / "data" / "unseen_notes"
N_NOTES = 36
DEFAULT = ROOT / "resources" / "ensembles" / "default.toml"
RULES = ROOT / "resources" / "ensembles" / "rules_only.toml"
INT8 = ROOT / "resources" / "ensembles" / "int8.toml"
PEERS_DIR = ROOT / ".venv-peers"
RUN_PEER = ROOT / "benchmarks" / "peers" / "run_peer.py"
# each peer and the interpreter of its environment (benchmarks/peers/setup.sh says why two)
PEERS = {"philter": PEERS_DIR / "philter" / "bin" / "python",
         "presidio": PEERS_DIR / "py311" / "bin" / "python",
         "scrubadub": PEERS_DIR / "py311" / "bin" / "python"}


def corpus(n_synthetic: int) -> list[dict]:
    from deid_desktop.core.learn.synth import generate_corpus

    # the first 36 hand-written notes by number, as plain text: the set has grown since the
    # figures were first recorded, and its files hold the gold markup, which no tool should read
    from deid_desktop.core.learn.gold import from_inline_markup

    notes = sorted(UNSEEN.glob("*.txt"), key=lambda p: int(p.name.split("_", 1)[0]))[:N_NOTES]
    docs = [{"id": p.stem, "text": from_inline_markup(p.read_text(encoding="utf-8"), p.name).text} for p in notes]
    for i, d in enumerate(generate_corpus(n_synthetic, seed=11, split="heldout")):
        docs.append({"id": f"synthetic-{i:03d}", "text": d["text"]})
    return docs


def without_cascade(folder: Path) -> Path:
    """The default ensemble with every model reading every sentence, side by side on a
    share of the cores each (the default before the cascade)."""
    text = DEFAULT.read_text(encoding="utf-8").replace("cascade = true", "cascade = false")
    assert "cascade = false" in text
    path = folder / "default_without_cascade.toml"
    path.write_text(text, encoding="utf-8")
    (folder / "category_weights.toml").write_text((DEFAULT.parent / "category_weights.toml").read_text(encoding="utf-8"), encoding="utf-8")
    return path


def kept(spans: list, reference: list) -> str:
    """How many of the reference spans a path found, and how many others."""
    ref = {(i, s) for i, doc in enumerate(reference) for s in doc}
    got = {(i, s) for i, doc in enumerate(spans) for s in doc}
    if got == ref:
        return "identical"
    return f"{len(ref & got) / max(1, len(ref)):.1%} of them, {len(got - ref)} others"


def torch_reference(folder: Path) -> Path:
    """The default ensemble with its transformer members on the torch float32 path, every
    model reading every sentence."""
    text = DEFAULT.read_text(encoding="utf-8").replace("cascade = true", "cascade = false")
    out = []
    for line in text.splitlines():
        out.append(line)
        if line.strip() == 'type = "transformer"':
            out.append('backend = "torch"')
            out.append('precision = "fp32"')
    path = folder / "default_torch_fp32.toml"
    path.write_text("\n".join(out) + "\n", encoding="utf-8")
    # the category weights file is found beside the configuration
    (folder / "category_weights.toml").write_text((DEFAULT.parent / "category_weights.toml").read_text(encoding="utf-8"), encoding="utf-8")
    return path


# A child's peak resident memory as wait4 reports it is at least its parent's at the fork
# (Linux carries the forked copy's high-water mark across exec), so a small child of this
# script would show this script's size. Each child is therefore started by a small launcher
# whose own child's peak is its own; the launcher writes it to the file named first.
_LAUNCHER = (
    "import os, subprocess, sys\n"
    "p = subprocess.Popen(sys.argv[2:], stdout=subprocess.DEVNULL)\n"
    "_, status, usage = os.wait4(p.pid, 0)\n"
    "open(sys.argv[1], 'w').write(str(usage.ru_maxrss))\n"
    "sys.exit(os.waitstatus_to_exitcode(status))\n"
)


def run_child(cmd: list[str]) -> tuple[int, float, int, str]:
    """Exit status, wall seconds, peak resident MB and standard error of one child process."""
    with tempfile.TemporaryDirectory(prefix="deid-peak-") as tmp:
        peak = Path(tmp) / "maxrss"
        t0 = time.perf_counter()
        proc = subprocess.Popen([sys.executable, "-c", _LAUNCHER, str(peak), *cmd],
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=ROOT)
        # read standard error before waiting: a child that fills the pipe would never end
        err = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
        rc = proc.wait()
        wall = time.perf_counter() - t0
        rss_kb = int(peak.read_text()) if peak.exists() else 0
    return rc, wall, int(rss_kb / 1024), err


def run_measured(cmd: list[str]) -> tuple[float, int]:
    rc, wall, rss, err = run_child(cmd)
    if rc != 0:
        raise SystemExit(f"{' '.join(cmd[2:4])} failed ({rc}): {err.strip()[-400:]}")
    return wall, rss


def detect(docs_file: Path, ensemble: Path, out: Path) -> tuple[dict, int]:
    timing = out.with_suffix(".timing.json")
    _, rss = run_measured([*CLI, "detect", "--input", str(docs_file), "--output", str(out), "--ensemble", str(ensemble), "--timing", str(timing)])
    return json.loads(timing.read_text(encoding="utf-8")), rss


def peer(tool: str, docs_file: Path, out: Path) -> tuple[dict | None, int, str]:
    """One peer's `run_peer.py` figures and peak MB, or None and why not. A peer's standard
    error is not shown: it is a foreign tool's, and may quote the documents."""
    if not PEERS[tool].exists():
        return None, 0, "not installed (`make peers` says why)"
    rc, _, rss, _ = run_child([str(PEERS[tool]), str(RUN_PEER), tool, str(docs_file), str(out)])
    if rc != 0:
        return None, rss, f"failed (exit {rc}; run benchmarks/peers/run_peer.py {tool} by hand to see why)"
    return json.loads(out.read_text(encoding="utf-8")), rss, ""


def peer_rows(docs_file: Path, tmp: Path, say) -> dict | None:
    """The peers' rows of the detection table; Philter's figures when it was measured."""
    if not PEERS_DIR.exists():
        return None
    philter = None
    for tool in PEERS:
        t, rss, why = peer(tool, docs_file, tmp / f"peer-{tool}.json")
        if t is None:
            say(f"| {tool} | {why} | | | | — |")
            continue
        say(f"| {t['tool']} {t['version']}, {t['config']}, Python {t['python']} | {t['load_s']:.1f} | {t['docs_per_s']:.1f} | "
            f"{t['chars_per_s']:,.0f} | {rss} | — |")
        if tool == "philter":
            philter = t
    return philter


def spans_of(path: Path) -> list:
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [[(s["start"], s["end"], s["label"]) for s in r["spans"]] for r in rows]


def _spin(stop) -> None:
    while not stop.is_set():
        pass


def write_letters(docs: list[dict], folder: Path, n: int) -> dict[str, Path]:
    """n letters each as .txt, .docx and .pdf (two pages' worth of text each)."""
    from docx import Document as Docx
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.styles import getSampleStyleSheet
    from reportlab.platypus import Paragraph, SimpleDocTemplate
    from xml.sax.saxutils import escape

    dirs = {k: folder / k for k in ("txt", "docx", "pdf")}
    for d in dirs.values():
        d.mkdir(parents=True)
    styles = getSampleStyleSheet()
    synthetic = [d["text"] for d in docs if d["id"].startswith("synthetic")]
    for i in range(n):
        text = synthetic[(2 * i) % len(synthetic)] + "\n\n" + synthetic[(2 * i + 1) % len(synthetic)]
        (dirs["txt"] / f"letter_{i:03d}.txt").write_text(text, encoding="utf-8")
        doc = Docx()
        for para in text.split("\n"):
            doc.add_paragraph(para)
        doc.save(str(dirs["docx"] / f"letter_{i:03d}.docx"))
        pdf = SimpleDocTemplate(str(dirs["pdf"] / f"letter_{i:03d}.pdf"), pagesize=A4)
        pdf.build([Paragraph(escape(p) or "&nbsp;", styles["Normal"]) for p in text.split("\n")])
    return dirs


def deidentify(paths: list[Path], out: Path, workers: int = 1) -> tuple[float, int]:
    return run_measured([*CLI, "deidentify", *map(str, paths), "--out", str(out), "--quiet", "--workers", str(workers)])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="fewer documents (a smoke run, not for the record)")
    ap.add_argument("--no-record", action="store_true", help="print only")
    args = ap.parse_args()
    n_syn, n_letters = (10, 4) if args.quick else (90, 20)
    lines: list[str] = []

    def say(s: str) -> None:
        print(s, flush=True)
        lines.append(s)

    with tempfile.TemporaryDirectory(prefix="deid-throughput-") as tmp:
        tmp = Path(tmp)
        docs = corpus(n_syn)
        docs_file = tmp / "docs.jsonl"
        docs_file.write_text("".join(json.dumps(d) + "\n" for d in docs), encoding="utf-8")
        n_chars = sum(len(d["text"]) for d in docs)
        say(f"Machine: {machine()}. Corpus: {len(docs)} documents ({n_chars:,} characters): the {len(docs) - n_syn} unseen notes and "
            f"{n_syn} synthetic letters of held-out families.")
        say("")
        say("### Detection (`detect --timing`: detection calls only, after one warm-up document)")
        say("")
        say("| ensemble or tool | load s | docs/s | chars/s | peak MB | spans as the torch reference |")
        say("|---|---|---|---|---|---|")
        ref_cfg = torch_reference(tmp)
        flat_cfg = without_cascade(tmp)
        results = {}
        rows = (
            ("default, torch float32 (reference)", ref_cfg),
            (FLAT, flat_cfg),
            ("default (ONNX Runtime)", DEFAULT),
            ("int8.toml (ONNX Runtime int8)", INT8),
            ("rules only", RULES),
        )
        for label, cfg in rows:
            out = tmp / f"{len(results)}.jsonl"
            t, rss = detect(docs_file, cfg, out)
            results[label] = (t, out)
            same = "—"
            if label != "rules only" and cfg is not ref_cfg:
                same = kept(spans_of(out), spans_of(results["default, torch float32 (reference)"][1]))
            say(f"| {label} | {t['load_s']:.1f} | {t['docs_per_s']:.1f} | {t['chars_per_s']:,.0f} | {rss} | {same} |")
        philter = peer_rows(docs_file, tmp, say)
        speedup = results["default (ONNX Runtime)"][0]["docs_per_s"] / results["default, torch float32 (reference)"][0]["docs_per_s"]
        say("")
        if not PEERS_DIR.exists():
            say("The peer tools (Philter, Presidio, scrubadub) were not measured: their environment, .venv-peers, "
                "is missing (`make peers` builds it).")
        elif philter is None:
            say("Philter was not measured (see its row).")
        else:
            ours = results["default (ONNX Runtime)"][0]["docs_per_s"]
            say(f"default ensemble docs/s ÷ Philter docs/s = {ours / philter['docs_per_s']:.1f}× "
                f"(Philter's per-file encoding detection, {philter['encoding_s']:.2f} s, is left out of its time "
                f"as reading is left out of ours).")
        say("")
        say(f"ONNX Runtime against the torch float32 path: {speedup:.2f}x the documents per second.")
        fig = {label: results[label][0]["docs_per_s"] for label, _ in rows}
        say(f"The cascade against every model reading everything side by side: "
            f"{fig['default (ONNX Runtime)'] / fig[FLAT]:.2f}x; "
            f"int8 against the default: {fig['int8.toml (ONNX Runtime int8)'] / fig['default (ONNX Runtime)']:.2f}x.")
        say("")

        for label, cfg in (("default, torch float32 (reference)", ref_cfg), (FLAT, flat_cfg), ("default (ONNX Runtime)", DEFAULT)):
            stop = multiprocessing.Event()
            spinner = multiprocessing.Process(target=_spin, args=(stop,), daemon=True)
            spinner.start()
            try:
                t, _ = detect(docs_file, cfg, tmp / "busy.jsonl")
            finally:
                stop.set()
                spinner.join(5)
            quiet = results[label][0]["docs_per_s"]
            say(f"{label}, with one other process keeping a core busy: {t['docs_per_s']:.1f} documents/s "
                f"({t['docs_per_s'] / quiet:.0%} of its quiet figure).")
        say("")
        say("### `deidentify` (whole command: reading, detection, surrogates, writing, re-scan)")
        say("")
        letters = write_letters(docs, tmp / "letters", n_letters)
        start_wall, start_rss = deidentify([letters["txt"] / "letter_000.txt"], tmp / "out-start")
        say(f"Start-up and one .txt letter: {start_wall:.1f} s (peak {start_rss} MB).")
        say("")
        say("| input | files | workers | wall s | s per file after start-up | peak MB |")
        say("|---|---|---|---|---|---|")
        for kind, workers in (("txt", 1), ("txt", 2), ("docx", 1), ("pdf", 1)):
            wall, rss = deidentify([letters[kind]], tmp / f"out-{kind}-{workers}", workers)
            per = max(0.0, wall - start_wall) / n_letters
            say(f"| .{kind} | {n_letters} | {workers} | {wall:.1f} | {per:.2f} | {rss} |")

    if not args.no_record and not args.quick:
        update_section("throughput", "## Throughput (`benchmarks/throughput.py`)\n\n" + "\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
