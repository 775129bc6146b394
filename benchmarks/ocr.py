"""Scanned letters: OCR speed and how much PHI detection loses to OCR.

Generated notes (``learn.synth``, with their gold PHI spans) are written twice: as a
born-digital PDF (reportlab text) and as a scan of the same lines (Pillow at 200 dpi, turned
1.5°, speckled, image-only PDF). Both are read with ``load_document``; the scans go through
OCR, two files at a time in two processes with one Tesseract thread each ("2 cores"). Then
the detector runs on both texts and a gold PHI word counts as found when a detected span
covers an occurrence of it. Prints the figures and records them in docs/benchmarks.md.

    .venv/bin/python benchmarks/ocr.py [--n 12] [--ensemble rules_only.toml --ensemble default.toml]
"""

from __future__ import annotations

import argparse
import io
import os
import random
import re
import sys
import tempfile
import textwrap
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _report import machine, update_section  # noqa: E402

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
DPI = 200
WIDTH_CHARS = 80
PAGE_PT = (595.28, 841.89)
MARGIN_PT = 60
LINE_PT = 15
SIZE_PT = 10.5


def _lines(text: str) -> list[str]:
    out: list[str] = []
    for para in text.split("\n"):
        out.extend(textwrap.wrap(para, WIDTH_CHARS) or [""])
    return out


def _pages(lines: list[str]) -> list[list[str]]:
    per = int((PAGE_PT[1] - 2 * MARGIN_PT) // LINE_PT)
    return [lines[i : i + per] for i in range(0, len(lines), per)] or [[]]


def born_digital(text: str) -> bytes:
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont
    from reportlab.pdfgen.canvas import Canvas

    if "DejaVu" not in pdfmetrics.getRegisteredFontNames():
        pdfmetrics.registerFont(TTFont("DejaVu", FONT))
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=PAGE_PT)
    for page in _pages(_lines(text)):
        c.setFont("DejaVu", SIZE_PT)
        for i, line in enumerate(page):
            c.drawString(MARGIN_PT, PAGE_PT[1] - MARGIN_PT - (i + 1) * LINE_PT, line)
        c.showPage()
    c.save()
    return buf.getvalue()


def scanned(text: str, seed: int) -> bytes:
    from PIL import Image, ImageDraw, ImageFont

    k = DPI / 72
    rnd = random.Random(seed)
    font = ImageFont.truetype(FONT, round(SIZE_PT * k))
    images = []
    for page in _pages(_lines(text)):
        im = Image.new("L", (round(PAGE_PT[0] * k), round(PAGE_PT[1] * k)), 255)
        draw = ImageDraw.Draw(im)
        for i, line in enumerate(page):
            draw.text((MARGIN_PT * k, (MARGIN_PT + (i + 1) * LINE_PT) * k), line, fill=0, font=font, anchor="ls")
        im = im.rotate(rnd.choice((-1.5, 1.5)), resample=Image.Resampling.BICUBIC, fillcolor=255)
        px = im.load()
        for _ in range(int(im.width * im.height * 0.001)):
            px[rnd.randrange(im.width), rnd.randrange(im.height)] = 0
        images.append(im)
    buf = io.BytesIO()
    images[0].save(buf, format="PDF", resolution=DPI, save_all=True, append_images=images[1:])
    return buf.getvalue()


def _read(path: str) -> tuple[str, int, float]:
    from deid_desktop.core.documents.ingest import load_document

    t0 = time.perf_counter()
    doc = load_document(path)
    return doc.text, len(doc.meta.get("ocr", {}).get("pages", [])), time.perf_counter() - t0


def _limit_threads() -> None:
    os.environ["OMP_THREAD_LIMIT"] = "1"  # one Tesseract thread per process


def phi_words(note: dict) -> list[str]:
    words = []
    for s in note["spans"]:
        for w in note["text"][s["start"] : s["end"]].split():
            w = w.strip(".,;:()[]'\"")
            if len(w) >= 2:
                words.append(w)
    return words


def found(text: str, spans, word: str) -> bool:
    for m in re.finditer(re.escape(word), text):
        if any(s.start <= m.start() and m.end() <= s.end for s in spans):
            return True
    return False


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=12)
    ap.add_argument("--ensemble", action="append", help="ensemble TOML, repeatable (default: rules_only.toml)")
    args = ap.parse_args()
    from deid_desktop.core.detect.ensemble import Ensemble
    from deid_desktop.core.documents.ingest import load_document
    from deid_desktop.core.learn.synth import generate_corpus
    from deid_desktop.core.paths import resource

    notes = list(generate_corpus(args.n, seed=11, split="all"))
    with tempfile.TemporaryDirectory() as tmp:
        digital, scans = [], []
        for i, note in enumerate(notes):
            d, s = Path(tmp) / f"d{i}.pdf", Path(tmp) / f"s{i}.pdf"
            d.write_bytes(born_digital(note["text"]))
            s.write_bytes(scanned(note["text"], i))
            digital.append(load_document(d).text)
            scans.append(str(s))
        t0 = time.perf_counter()
        with ProcessPoolExecutor(2, initializer=_limit_threads) as ex:
            read = list(ex.map(_read, scans))
        wall = time.perf_counter() - t0
    ocr_texts = [r[0] for r in read]
    pages = sum(r[1] for r in read)
    per_page = sum(r[2] for r in read) / max(1, pages)

    total = sum(len(phi_words(n)) for n in notes)
    read_ok = sum(w in ocr for n, ocr in zip(notes, ocr_texts) for w in phi_words(n))
    lines = [
        f"scanned pages: {pages} in {wall:.1f} s on 2 processes = {pages / wall:.2f} pages/s "
        f"({per_page:.1f} s per page per process, read + straighten + OCR)",
        f"PHI words: {total}; read verbatim by OCR: {read_ok / total:.1%}",
    ]
    rows = []
    for config in args.ensemble or [str(resource("ensembles", "rules_only.toml"))]:
        det = Ensemble.from_config(Path(config))
        born_hits = ocr_hits = 0
        for note, born, ocr in zip(notes, digital, ocr_texts):
            born_spans, ocr_spans = det.detect(born), det.detect(ocr)
            # words, not whole values: both texts are wrapped into lines where the note was not
            for w in phi_words(note):
                born_hits += found(born, born_spans, w)
                ocr_hits += found(ocr, ocr_spans, w)
        name = Path(config).name
        lines.append(f"PHI-word recall ({name}): born-digital {born_hits / total:.1%}, OCR {ocr_hits / total:.1%}")
        rows.append(f"| PHI-word recall ({name}): born-digital text / OCR text | {born_hits / total:.1%} / {ocr_hits / total:.1%} |")
    print("\n".join(lines))
    update_section("ocr", "\n".join([
        "## Scanned letters: OCR speed and PHI recall (`benchmarks/ocr.py`)",
        "",
        f"Machine: {machine()}. {len(notes)} generated notes, each written as a born-digital PDF and as a "
        f"{DPI} dpi scan (turned 1.5°, speckled, {SIZE_PT} pt DejaVu Sans); Tesseract {_tesseract_version()}, "
        "one thread per process, two processes.",
        "",
        "| figure | value |",
        "|---|---:|",
        f"| scanned pages | {pages} |",
        f"| OCR pages/s on 2 cores (render 300 dpi, straighten, denoise, Tesseract) | {pages / wall:.2f} |",
        f"| seconds per page in one process | {per_page:.1f} |",
        f"| gold PHI words | {total} |",
        f"| PHI words OCR read verbatim | {read_ok / total:.1%} |",
        *rows,
    ]))
    return 0


def _tesseract_version() -> str:
    import pytesseract

    return str(pytesseract.get_tesseract_version()).split()[0]


if __name__ == "__main__":
    raise SystemExit(main())
