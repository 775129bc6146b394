"""Detection quality on hand-written notes: the honest out-of-distribution check.

``benchmarks/data/unseen_notes/`` holds clinical notes written by hand, not by the template
generator: note types the templates do not have (paramedic forms, physiotherapy SOAP notes,
email threads, ACC and prior-authorisation forms, …), in US, UK, Australian and New Zealand
conventions, with names, streets, towns and organisations that are mostly in no list the
project ships. PHI is marked inline as ``{{CATEGORY|text}}``. The notes in that folder are
never used for training or for fitting weights (the odd ones from 101 up moved to
``resources/training/notes/`` in the fourteenth pass and are training data now).

The notes are split by their number: odd ones are the development half, which may be read
for error analysis (``--show-misses`` prints only their errors); even ones are the test
half, whose errors are never printed, so fixes made from the development half are measured
on notes nobody tuned against. The test half's figures are the ones to quote (with the caveat
in the data folder's README: its errors were read once, on 2026-11-24).

Rows as in detection_quality.py (the soft-vote weights and the majority tie-breaker are
fitted on synthetic validation documents of the training families). Prints the tables and
how many gold spans the default ensemble missed entirely, by category, and records the
figures in docs/benchmarks.md; ``--show-misses`` also prints the missed and the spurious
spans (the notes are fictional, so their text may be shown).

    .venv/bin/python benchmarks/unseen_notes.py [--val 60] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _report import machine, update_section  # noqa: E402
from detection_quality import HEADER, category_table, fit_validation_weights, load_default_ensemble, row, score_detectors  # noqa: E402

from deid_desktop.core.learn.gold import from_inline_markup  # noqa: E402
from deid_desktop.core.paths import resource  # noqa: E402

NOTES = Path(__file__).resolve().parent / "data" / "unseen_notes"
# Written on 2026-11-28 by people who did not run the detector on them; nothing prints their
# errors (see that folder's README): the one set here that nobody has tuned against.
FRESH = Path(__file__).resolve().parent / "data" / "fresh_notes"


def _by_number(folder: Path) -> list[Path]:
    """The notes in the order of their numbers ("101_..." after "99_...", not before "11_...")."""
    return sorted(folder.glob("*.txt"), key=lambda p: (int(p.name.split("_", 1)[0]), p.name))


def load_notes(folder: Path = NOTES) -> tuple[list, list]:
    """(development half, test half): notes with odd and even numbers, in number order."""
    dev, test = [], []
    for p in _by_number(folder):
        doc = from_inline_markup(p.read_text(encoding="utf-8"), p.name)
        number = int(p.name.split("_", 1)[0])
        (dev if number % 2 else test).append(doc)
    return dev, test


def load_fresh(folder: Path = FRESH) -> list:
    """The fresh notes, all of them a test set (empty when the folder is absent)."""
    return [from_inline_markup(p.read_text(encoding="utf-8"), p.name) for p in _by_number(folder)] if folder.is_dir() else []


def misses(docs: list, preds: list) -> Counter:
    """Gold spans of which the detector found no character, by category."""
    out: Counter = Counter()
    for d, spans in zip(docs, preds):
        for g in d.spans:
            if not any(s.start < g.end and g.start < s.end for s in spans):
                out[g.category.value] += 1
    return out


def fresh_section(fresh: list, results: dict, cats: Counter) -> list[str]:
    return [
        "### Fresh notes (`benchmarks/data/fresh_notes/`): written 2026-11-28, never error-read",
        "",
        f"{len(fresh)} notes in note kinds the independent set has (discharge instructions, referral and",
        "consult letters, phone logs, nursing shift notes, radiology, pathology, social work, pharmacy,",
        "an insurer's report), written by people who did not run the detector on them. Only these totals",
        "are ever printed: the honest figures, since the test half above was read once.",
        f"Gold spans: {sum(cats.values())} ({', '.join(f'{k} {v}' for k, v in sorted(cats.items()))}).",
        "",
        *HEADER, *[row(k, v) for k, v in results.items()],
        "",
        "Word recall per category (fresh notes):",
        "",
        *category_table(results),
        "",
    ]


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--val", type=int, default=60, help="synthetic validation documents for the soft-vote weights")
    ap.add_argument("--config", default=str(resource("ensembles", "default.toml")))
    ap.add_argument("--json", help="write all results here too")
    ap.add_argument("--show-misses", action="store_true", help="print the development half's missed and spurious spans (fictional text)")
    ap.add_argument("--ablation", action="store_true", help="also score each strategy with the issue-10 changes added one at a time")
    args = ap.parse_args()

    dev, test = load_notes()
    if not dev or not test:
        print(f"no notes (or only one half) under {NOTES}", file=sys.stderr)
        return 2
    ens = load_default_ensemble(args.config)
    if ens is None:
        return 2
    n_val, best = fit_validation_weights(ens, args.val)
    default = ens.config.strategy
    # the default ensemble's output is combined from the member spans already computed
    results, _, test_members = score_detectors(ens, test, args.ablation)
    dev_results, _, dev_members = score_detectors(ens, dev, args.ablation)
    preds = [ens.combine(d.text, m) for d, m in zip(test, test_members)]
    missed = misses(test, preds)
    fresh = load_fresh()
    fresh_results = score_detectors(ens, fresh)[0] if fresh else {}
    fresh_cats = Counter(s.category.value for d in fresh for s in d.spans)

    lines = [row(k, v) for k, v in results.items()]
    print("test half:")
    for l in HEADER + lines:
        print(l)
    per_cat = Counter(s.category.value for d in test for s in d.spans)
    print(f"{len(test)} test notes, {sum(per_cat.values())} gold spans: {dict(sorted(per_cat.items()))}")
    print(f"default ensemble ({default}) missed entirely: {dict(sorted(missed.items()))}")
    print("development half:")
    for l in HEADER + [row(k, v) for k, v in dev_results.items()]:
        print(l)
    if fresh_results:
        print(f"fresh notes ({len(fresh)}, never error-read; only their totals are printed):")
        for l in HEADER + [row(k, v) for k, v in fresh_results.items()]:
            print(l)
    if args.show_misses:  # the development half only
        for d, spans in zip(dev, (ens.combine(d.text, m) for d, m in zip(dev, dev_members))):
            for g in d.spans:
                if not any(s.start < g.end and g.start < s.end for s in spans):
                    print(f"  miss {d.id}: {g.category.value} {d.text[g.start:g.end]!r}")
            for s in spans:
                if not any(s.start < g.end and g.start < s.end for g in d.spans):
                    print(f"  false positive {d.id}: {s.category.value} {d.text[s.start:s.end]!r}")

    d_tok = dev_results[f"ensemble: {default}"]["token"]
    update_section("unseen-notes", "\n".join([
        "## Detection quality on hand-written notes (no template, mostly unlisted names and places)",
        "",
        f"`benchmarks/unseen_notes.py` on {machine()}. {len(dev) + len(test)} notes written by hand for this",
        "benchmark (`benchmarks/data/unseen_notes/`, see its README): note types the templates do not",
        "have, in US, UK, Australian and New Zealand conventions, with names, streets, towns and",
        "organisations mostly absent from every list the project ships. They are never trained on.",
        f"Figures are for the **test half** ({len(test)} even-numbered notes; their errors were read once, on 2026-11-24, so",
        "they are optimistic since: see the data folder's README and \"Issue 10, fourth pass\");",
        f"the {len(dev)} odd-numbered notes are for error analysis. Test gold spans: {sum(per_cat.values())}",
        f"({', '.join(f'{k} {v}' for k, v in sorted(per_cat.items()))}).",
        f"Soft-vote weights fitted on {n_val} synthetic validation documents; majority ties go to `{best}`, as in the shipped configuration.",
        "",
        *HEADER, *lines,
        "",
        f"Gold spans the default ensemble ({default}) missed entirely, by category: "
        + (", ".join(f"{k} {v}" for k, v in sorted(missed.items())) or "none") + ".",
        f"Development half, default ensemble: PHI-word recall {d_tok['recall']:.4f}, precision {d_tok['precision']:.4f}.",
        "",
        "Word recall per category (test half):",
        "",
        *category_table(results),
        "",
        *(fresh_section(fresh, fresh_results, fresh_cats) if fresh_results else []),
        "These notes were written by the same team that wrote the templates, so they are not",
        "real records either. No template copies them: the 12 training families added after they",
        "were written (meeting minutes, handover sheets, a phone-call log, a pharmacy medication",
        "letter, …) were written without reading them, though some are kinds of note related to",
        "theirs. Most of their names and places are in no shipped list. Compare with the synthetic",
        "held-out table above: the gap between the two is the honest measure of how far the",
        "synthetic figures flatter.",
    ]))
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
