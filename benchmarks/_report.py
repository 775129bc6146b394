"""Shared by the benchmark scripts: machine description and docs/benchmarks.md sections."""

from __future__ import annotations

import os
import platform
import re
from pathlib import Path

DOC = Path(__file__).resolve().parent.parent / "docs" / "benchmarks.md"
HEADER = "# Benchmarks\n\nFigures written by the scripts under `benchmarks/`; each section is replaced when its script runs again.\n"


def machine() -> str:
    try:
        import torch

        dev = torch.cuda.get_device_name(0) if torch.cuda.is_available() else "no GPU"
        tv = torch.__version__
    except Exception:  # torch missing is fine for rules-only figures
        dev, tv = "no GPU", "n/a"
    return f"{platform.processor() or platform.machine()}, {os.cpu_count()} CPU cores, {dev}, Python {platform.python_version()}, torch {tv}"


def update_section(name: str, body: str) -> None:
    """Replace (or append) the block between <!-- name --> and <!-- /name -->."""
    DOC.parent.mkdir(parents=True, exist_ok=True)
    text = DOC.read_text(encoding="utf-8") if DOC.exists() else HEADER
    block = f"<!-- {name} -->\n{body.rstrip()}\n<!-- /{name} -->"
    pat = re.compile(rf"<!-- {re.escape(name)} -->.*?<!-- /{re.escape(name)} -->", re.S)
    text = pat.sub(lambda _: block, text) if pat.search(text) else text.rstrip() + "\n\n" + block + "\n"
    DOC.write_text(text, encoding="utf-8")
