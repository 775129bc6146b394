"""Shared by the OCR tests: the referral form they photograph (its text, its PHI, its
picture) and ``deidentify`` run once over one file with the rules-only ensemble (no trained
model), reading back the output and the report."""

from __future__ import annotations

import json
import random
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from deid_desktop.cli import main
from deid_desktop.core.paths import resource

RULES = str(resource("ensembles", "rules_only.toml"))
FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"  # fonts-dejavu-core (install-sysdeps.sh)
FORM = [
    "REFERRAL FORM",
    "Patient: Aroha Ngata",
    "NHI: ZAC5361",
    "Phone: (04) 385 5999",
    "Reason: diabetes review",
    "Please book a referral to the clinic.",
]
PHI = ["Aroha", "Ngata", "ZAC5361", "385 5999"]
CLINICAL = ["referral", "diabetes"]


def form_picture(*, angle: float = 1.5, seed: int = 3) -> Image.Image:
    """The form as a phone or scanner gives it: 32 px type (about 11 pt at 300 dpi), turned
    a little, with speckle."""
    page = Image.new("RGB", (1500, 620), "white")
    draw = ImageDraw.Draw(page)
    font = ImageFont.truetype(FONT, 32)
    for i, line in enumerate(FORM):
        draw.text((80, 60 + 80 * i), line, fill=(20, 20, 20), font=font)
    page = page.rotate(angle, resample=Image.Resampling.BICUBIC, fillcolor="white")
    rnd, px = random.Random(seed), page.load()
    for _ in range(int(page.width * page.height * 0.002)):
        px[rnd.randrange(page.width), rnd.randrange(page.height)] = (0, 0, 0)
    return page


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
