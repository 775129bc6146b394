"""Rules-only detection throughput: documents/s and characters/s on the bundled samples and
on a generated corpus (default 600 documents). Prints the figures and records them in
docs/benchmarks.md.

    .venv/bin/python benchmarks/rules_throughput.py [--n 600] [--repeat 3]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _report import machine, update_section  # noqa: E402

from deid_desktop.core.detect.ensemble import Ensemble  # noqa: E402
from deid_desktop.core.documents.ingest import iter_input_files, load_document  # noqa: E402
from deid_desktop.core.learn.synth import generate_corpus  # noqa: E402
from deid_desktop.core.paths import resource  # noqa: E402


def timed(det, texts: list[str], repeat: int) -> tuple[float, float, float]:
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        det.detect_many(texts)
        best = min(best, time.perf_counter() - t0)
    chars = sum(len(t) for t in texts)
    return best, len(texts) / best, chars / best


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=600)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    det = Ensemble.from_config(resource("ensembles", "rules_only.toml"))
    det.detect("warm up Dr Smith 12/03/2021")  # dictionaries load once per process

    t0 = time.perf_counter()
    samples = [load_document(p).text for p in iter_input_files([resource("samples")]) if p.suffix in (".txt", ".docx", ".pdf")]
    ingest_s = time.perf_counter() - t0
    corpus = [d["text"] for d in generate_corpus(args.n, seed=7, split="all")]

    rows = []
    for name, texts in (("bundled samples", samples), (f"synthetic corpus ({args.n} docs)", corpus)):
        secs, dps, cps = timed(det, texts, args.repeat)
        rows.append((name, len(texts), sum(len(t) for t in texts), secs, dps, cps))
        print(f"{name}: {len(texts)} docs, {secs:.3f} s, {dps:.1f} docs/s, {cps/1000:.1f} k chars/s")
    print(f"ingest of the samples: {ingest_s:.2f} s")

    table = ["| input | documents | characters | seconds (best of %d) | documents/s | characters/s |" % args.repeat,
             "|---|---:|---:|---:|---:|---:|"]
    for name, n, chars, secs, dps, cps in rows:
        table.append(f"| {name} | {n} | {chars:,} | {secs:.3f} | {dps:,.1f} | {cps:,.0f} |")
    update_section("rules-throughput", "\n".join([
        "## Rules-only detection throughput",
        "",
        f"`benchmarks/rules_throughput.py` on {machine()}, one process, ensemble `rules_only.toml`",
        "(every rule detector, eponym guard, inclusion list). Ingest time is not included.",
        "",
        *table,
    ]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
