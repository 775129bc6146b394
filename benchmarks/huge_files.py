"""Huge plain-text files through `deid-desktop deidentify`: a 20 MB text of one line and a
text of 1,000,000 short lines (~11 MB), both generated here with planted synthetic PHI.
Prints seconds and peak resident memory per file and records them in docs/benchmarks.md.

    DEID_MODELS=models .venv/bin/python benchmarks/huge_files.py [--ensemble FILE] [--scale 1.0]
        [--line-scale S] [--lines-scale S]

``--line-scale`` and ``--lines-scale`` size the one-line and the many-line file apart (each
defaults to ``--scale``; 0 leaves that file out): the full 1,000,000 lines take minutes, the
full 20 MB line far longer.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _report import machine, update_section  # noqa: E402
from throughput import run_child  # noqa: E402

from deid_desktop.core.learn.synth import generate_corpus  # noqa: E402

FIRST = ["John", "Aroha", "Mei", "Olu", "Priya", "Sven", "Ana"]
LAST = ["Smith", "Ngata", "Chen", "Adeyemi", "Patel", "Berg", "Silva"]
PLAIN = ["BP 120/80", "HR 72 reg", "Temp 37.1", "SpO2 98%", "feels ok", "no pain", "eating well"]


def one_line(n_chars: int) -> str:
    """Synthetic notes (names, dates, numbers as the corpus plants them) run into one line."""
    parts, size = [], 0
    for doc in generate_corpus(10**9, seed=3, split="all"):
        parts.append(" ".join(doc["text"].split()))
        size += len(parts[-1]) + 1
        if size >= n_chars:
            break
    return " ".join(parts)[:n_chars]


def many_lines(n_lines: int) -> str:
    rng = random.Random(3)
    out = []
    for i in range(n_lines):
        k = i % 10
        if k == 0:
            out.append(f"Pt {rng.choice(FIRST)} {rng.choice(LAST)}")
        elif k == 3:
            out.append(f"DOB {rng.randint(1, 28):02d}/{rng.randint(1, 12):02d}/19{rng.randint(30, 99)}")
        elif k == 6:
            out.append(f"Ph 021 {rng.randint(100, 999)} {rng.randint(1000, 9999)}")
        else:
            out.append(rng.choice(PLAIN))
    return "\n".join(out) + "\n"


def run(path: Path, out: Path, ensemble: str | None) -> tuple[float, float, int]:
    """(seconds, peak RSS in MB of the deidentify process, exit status). The report's
    re-scan findings and replaced values still present are read by ``flagged``."""
    cmd = [sys.executable, "-m", "deid_desktop.cli", "deidentify", str(path), "--out", str(out), "--force",
           "--key-file", str(out.parent / "key")]
    if ensemble:
        cmd += ["--ensemble", ensemble]
    # Each child's own peak: the children's figure from getrusage is the largest of every
    # child so far, and a forked child starts from this script's size (throughput.run_child).
    rc, secs, peak_mb, err = run_child(cmd)
    if rc != 0:
        print(err.strip()[-400:], file=sys.stderr)
    return secs, float(peak_mb), rc


def flagged(out: Path) -> str:
    """What the report asks a steward to check in the file: re-scan findings and replaced
    values still present (counts only: the report holds no PHI)."""
    import json

    report = out / "deid_report.json"
    if not report.is_file():
        return "no report"
    f = json.loads(report.read_text(encoding="utf-8"))["files"][0]
    return f"{len(f['rescan_findings'])} / {f['residual_originals']}"


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--ensemble", help="ensemble TOML (default: the default ensemble)")
    ap.add_argument("--scale", type=float, default=1.0, help="fraction of the full sizes (0.1: 2 MB and 100,000 lines)")
    ap.add_argument("--line-scale", type=float, help="fraction of the 20 MB one-line file (default: --scale; 0: left out)")
    ap.add_argument("--lines-scale", type=float, help="fraction of the 1,000,000-line file (default: --scale; 0: left out)")
    args = ap.parse_args()
    line = args.scale if args.line_scale is None else args.line_scale
    lines = args.scale if args.lines_scale is None else args.lines_scale
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        files = {}
        if line > 0:
            files[f"one line, {20 * line:g} MB"] = (tmp / "one_line.txt", lambda: one_line(int(20_000_000 * line)))
        if lines > 0:
            files[f"{int(1_000_000 * lines):,} lines"] = (tmp / "many_lines.txt", lambda: many_lines(int(1_000_000 * lines)))
        for name, (path, make) in files.items():
            path.write_text(make(), encoding="utf-8")
            secs, mb, rc = run(path, tmp / ("out_" + path.stem), args.ensemble)
            size = path.stat().st_size / 1e6
            check = flagged(tmp / ("out_" + path.stem))
            rows.append((name, size, secs, mb, rc, check))
            print(f"{name}: {size:.1f} MB, {secs:.1f} s, peak RSS {mb:.0f} MB, exit {rc}, re-scan findings / values still present {check}")
    table = ["| input | MB | seconds | peak RSS (MB) | exit status | re-scan findings / replaced values still present |",
             "|---|---:|---:|---:|---:|---|"]
    table += [f"| {n} | {s:.1f} | {t:.1f} | {m:.0f} | {rc} | {c} |" for n, s, t, m, rc, c in rows]
    update_section("huge-files", "\n".join([
        "## Huge files",
        "",
        f"`benchmarks/huge_files.py --line-scale {line:g} --lines-scale {lines:g}` on {machine()}, ensemble "
        f"`{Path(args.ensemble).name if args.ensemble else 'default.toml'}`, one process, re-scan on. "
        "Peak RSS is the deidentify process's own (a spawned worker is not counted).",
        "",
        *table,
    ]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
