"""Shared by the OCR tests: run ``deidentify`` once over one file with the rules-only
ensemble (no trained model) and read back the output and the report."""

from __future__ import annotations

import json
from pathlib import Path

from deid_desktop.cli import main
from deid_desktop.core.paths import resource

RULES = str(resource("ensembles", "rules_only.toml"))


def deidentify_once(data: bytes, name: str, root: Path, *, fixed_key: bool = False) -> tuple[int, Path, dict, Path]:
    """(exit status, the one output file, the report, the output folder) of ``deidentify``
    over ``data`` saved as ``name``. ``fixed_key``: the same surrogates every run (a random
    key may draw a surrogate that shares a first name with the original, which a leak check
    would take for a leak)."""
    src, out = root / "in", root / "out"
    src.mkdir()
    (src / name).write_bytes(data)
    key = root / "key"
    if fixed_key:
        key.write_bytes(bytes(range(32)))
    rc = main(["deidentify", str(src), "--out", str(out), "--ensemble", RULES, "--key-file", str(key), "--quiet"])
    suffix = Path(name).suffix
    outputs = list(out.rglob(f"*.deid{suffix}"))
    assert len(outputs) == 1, outputs
    report = json.loads((out / "deid_report.json").read_text(encoding="utf-8"))
    return rc, outputs[0], report, out
