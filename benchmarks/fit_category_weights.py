"""Fit the shipped per-member, per-category soft-vote weights and write them to
``resources/ensembles/category_weights.toml``, which the shipped ensembles read
(``category_weights = "category_weights.toml"`` in their ``[ensemble]`` table).

The fit is 002's closed-form Brier minimisation (Eq. 6, weights.py), once per category, on
synthetic development documents of the TRAINING template families (a seed no benchmark or
training run uses), never on a test set or on the hand-written notes. A workspace replaces
these defaults with its own fit on reviewed documents (Model → Ensemble weights, or
``deid-desktop learn refit``).

    DEID_MODELS=/path/to/models .venv/bin/python benchmarks/fit_category_weights.py [--docs 150]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from deid_desktop.core.categories import Category  # noqa: E402
from deid_desktop.core.detect.ensemble import Ensemble, EnsembleConfig, fit_weights_on  # noqa: E402
from deid_desktop.core.learn.gold import as_gold  # noqa: E402
from deid_desktop.core.learn.synth import generate_corpus  # noqa: E402
from deid_desktop.core.paths import resource  # noqa: E402

SEED = 5151  # development documents: not the training (0, 1000), validation (4242) or test (2024) seeds


def render(weights: dict[str, dict[Category, float]], overall: dict[str, float], n_docs: int, config: str) -> str:
    """The TOML text: a [fit] table saying where the numbers come from, then one
    [weights.<member>] table per member."""
    lines = [
        "# Per-member, per-category soft-vote weights (002, Eq. 6, fitted per category).",
        "# Written by benchmarks/fit_category_weights.py; do not edit by hand, re-run it.",
        "# A category missing from a member falls back to the member's overall weight.",
        "",
        "[fit]",
        f"documents = {n_docs}",
        f"seed = {SEED}",
        'split = "train"',
        f"config = {Path(config).name!r}".replace("'", '"'),
        "overall = { " + ", ".join(f'"{n}" = {w:.4f}' for n, w in overall.items()) + " }",
    ]
    for member, row in weights.items():
        lines += ["", f'[weights."{member}"]']
        lines += [f"{c.value} = {w:.4f}" for c, w in sorted(row.items(), key=lambda kv: kv[0].value)]
    return "\n".join(lines) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--docs", type=int, default=150, help="synthetic development documents")
    ap.add_argument("--config", default=str(resource("ensembles", "default.toml")))
    ap.add_argument("--out", default=str(resource("ensembles", "category_weights.toml")))
    args = ap.parse_args()

    cfg = EnsembleConfig.load(args.config)
    cfg.category_weights = None  # fit from scratch, whatever file is there now
    ens = Ensemble.from_config(cfg)
    if ens.missing:
        print(f"models missing for {', '.join(ens.missing)}: run `make model` first", file=sys.stderr)
        return 2
    docs = [as_gold(d, i) for i, d in enumerate(generate_corpus(args.docs, seed=SEED, split="train"))]
    pairs = [(d.text, list(d.spans)) for d in docs]
    overall, by_cat = fit_weights_on(list(ens.order), pairs, ens.member_spans([d.text for d in docs]))
    Path(args.out).write_text(render(by_cat, overall, len(docs), args.config), encoding="utf-8")
    print(f"overall: {overall}")
    for m, row in by_cat.items():
        print(f"{m}: " + ", ".join(f"{c.value} {w:.3f}" for c, w in sorted(row.items(), key=lambda kv: kv[0].value)))
    print(f"written to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
