"""Screenshots of the review window for the documentation (docs/screenshots/*.png).

Runs the real ``deid-desktop gui --screenshot`` path: first on the bundled samples (import,
background detection), then, after recording some review decisions in the same workspace,
again mid-review, and once on the PDF pages view. Uses xvfb-run when it is installed (real
X11 rendering), else Qt's offscreen platform. Each PNG is kept under 200 KB.

    .venv/bin/python benchmarks/screenshots.py [--ensemble resources/ensembles/default.toml] [--size 1280x800]
"""

from __future__ import annotations

import argparse
import os
import runpy
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

OUT = ROOT / "docs" / "screenshots"
SAMPLES = ROOT / "resources" / "samples"
MAX_BYTES = 200 * 1024

# Runs the CLI with the gui sub-command registered, whether or not commands.py lists it yet.
RUN_CLI = (
    "import sys\n"
    "from deid_desktop import cli\n"
    "from deid_desktop.gui_cli import register\n"
    "cli._EXTRA_COMMANDS.append(register)\n"
    "sys.exit(cli.main(sys.argv[1:]))\n"
)

# A plausible first pass through clinic_note.txt: the reviewer accepted the header findings,
# rejected the age (ages under 90 are not identifying under HIPAA Safe Harbor) and added two
# values the detectors missed. Texts not found in the sample are skipped.
ACCEPT_UNTIL = "21/03/2024"
REJECT = ("40",)
ADD = (("warehouse supervisor", "PROFESSION"), ("Lahore", "LOCATION"))


def gui(args: list[str], env: dict[str, str], use_xvfb: bool) -> None:
    cmd = [sys.executable, "-c", RUN_CLI, "gui", *args]
    if use_xvfb:
        cmd = ["xvfb-run", "-a", "-s", "-screen 0 1600x1000x24", *cmd]
    r = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=900)
    if r.returncode != 0:
        raise SystemExit(f"gui --screenshot failed ({r.returncode}):\n{r.stderr[-3000:]}")


def review_some(workspace_path: Path) -> None:
    from deid_desktop.core.categories import Category
    from deid_desktop.core.store import DecisionAction, Workspace

    with Workspace.open(workspace_path, create=False) as ws:
        doc = next((d for d in ws.list_documents() if d.name == "clinic_note.txt"), None)
        if doc is None:
            return
        spans = ws.list_spans(doc.id)
        for s in spans:
            ws.decide(s.id, DecisionAction.ACCEPT, reviewer="screenshots")
            if s.text == ACCEPT_UNTIL:
                break
        for s in spans:
            if s.text in REJECT:
                ws.decide(s.id, DecisionAction.REJECT, reviewer="screenshots")
        text = ws.load_document(doc.id).text
        taken = [(s.start, s.end) for s in spans]
        for needle, cat in ADD:
            pos = text.find(needle)
            if pos >= 0 and not any(a < pos + len(needle) and pos < b for a, b in taken):
                ws.add_span(doc.id, pos, pos + len(needle), Category(cat), reviewer="screenshots")


def mark_reviewed(workspace_path: Path) -> None:
    """Marks the note decided above reviewed (as Ctrl+Enter does), so the accuracy view has a
    reviewed document to measure the detector on."""
    from deid_desktop.core.store import DocStatus, Workspace

    with Workspace.open(workspace_path, create=False) as ws:
        for d in ws.list_documents():
            if d.name == "clinic_note.txt":
                ws.set_status(d.id, DocStatus.REVIEWED)


def review_twice(workspace_path: Path) -> None:
    """Two reviewers on one document (issue 15): the first accepts every finding but the
    last two, the second rejects the first two and relabels the third, both finish; so the
    adjudication view has disagreements of each kind to show."""
    from deid_desktop.core.categories import Category
    from deid_desktop.core.store import DecisionAction, DocStatus, Workspace

    with Workspace.open(workspace_path, create=False) as ws:
        docs = [d for d in ws.list_documents() if d.name != "clinic_note.txt" and d.status != DocStatus.ERROR and d.n_spans >= 4]
        if not docs:
            return
        doc = docs[0]
        ws.mark_double_review([doc.id], marked_by="screenshots")
        spans = ws.list_spans(doc.id)
        for s in spans[:-2]:
            ws.decide(s.id, DecisionAction.ACCEPT, reviewer="A. Reviewer")
        for s in spans[-2:]:
            ws.decide(s.id, DecisionAction.REJECT, reviewer="A. Reviewer")
        ws.finish_review(doc.id, reviewer="A. Reviewer")
        for s in spans[:2]:
            ws.decide(s.id, DecisionAction.REJECT, reviewer="B. Reviewer")
        other = Category.LOCATION if spans[2].category is not Category.LOCATION else Category.ORGANIZATION
        ws.decide(spans[2].id, DecisionAction.RELABEL, reviewer="B. Reviewer", category=other)
        for s in spans[3:]:
            ws.decide(s.id, DecisionAction.ACCEPT, reviewer="B. Reviewer")
        ws.finish_review(doc.id, reviewer="B. Reviewer")


def shrink(png: Path) -> None:
    """Keep the PNG small: a 256-colour palette loses nothing visible in a UI screenshot."""
    from PIL import Image

    if png.stat().st_size <= MAX_BYTES:
        return
    with Image.open(png) as im:
        im.convert("RGB").quantize(colors=256, method=Image.Quantize.MEDIANCUT).save(png, optimize=True)
    if png.stat().st_size > MAX_BYTES:
        raise SystemExit(f"{png.name} is {png.stat().st_size // 1024} KB, over the 200 KB limit")


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--ensemble", help="ensemble TOML (default: the shipped default ensemble)")
    ap.add_argument("--size", default="1280x800")
    ap.add_argument("--offscreen", action="store_true", help="use Qt's offscreen platform even if xvfb-run exists")
    ap.add_argument("--only", choices=("adjudication",), help="import the samples and take only this view")
    args = ap.parse_args()

    use_xvfb = not args.offscreen and shutil.which("xvfb-run") is not None
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        tmpdir = Path(tmp)
        env = dict(os.environ, XDG_CONFIG_HOME=str(tmpdir / "config"), XDG_DATA_HOME=str(tmpdir / "data"), HF_HUB_OFFLINE="1")
        env["QT_QPA_PLATFORM"] = "xcb" if use_xvfb else "offscreen"
        ws = tmpdir / "screenshots.sqlite"
        # Only the sample documents: the folder also holds its README and generator script.
        samples = tmpdir / "samples"
        samples.mkdir()
        for f in sorted(SAMPLES.iterdir()):
            if f.suffix.lower() in (".txt", ".docx", ".pdf"):
                shutil.copy2(f, samples / f.name)
        common = ["--workspace", str(ws), "--size", args.size] + (["--ensemble", args.ensemble] if args.ensemble else [])
        shots = []

        first = OUT / "detected.png" if not args.only else tmpdir / "detected.png"
        gui([*common, "--open", str(samples), "--screenshot", str(first)], env, use_xvfb)
        if args.only:
            review_twice(ws)
            png = OUT / f"{args.only}.png"
            gui([*common, "--screenshot", str(png), "--view", args.only], env, use_xvfb)
            shrink(png)
            print(f"{png.relative_to(ROOT)}: {png.stat().st_size // 1024} KB ({'Xvfb' if use_xvfb else 'offscreen'})")
            return 0
        shots.append(first)

        review_some(ws)
        mid = OUT / "review.png"
        gui([*common, "--screenshot", str(mid)], env, use_xvfb)
        shots.append(mid)

        pages = OUT / "pdf-pages.png"
        gui([*common, "--screenshot", str(pages), "--view", "pdf"], env, use_xvfb)
        shots.append(pages)

        # The issue-12 views: the queue riskiest first, one category across the queue, the
        # release certificate of an export, and the accuracy on the reviewed note.
        # Issue 15: the adjudication of a document two reviewers disagree on.
        for view in ("risk", "across", "certificate", "accuracy", "adjudication"):
            if view == "accuracy":
                mark_reviewed(ws)
            if view == "adjudication":
                review_twice(ws)
            png = OUT / f"{view}.png"
            gui([*common, "--screenshot", str(png), "--view", view], env, use_xvfb)
            shots.append(png)

        # A faxed referral read by OCR (the generator's scanned letter, in a workspace of its own):
        # finding boxes on the page image, the unsure word's dotted frame, the unread page's notice.
        scans = tmpdir / "scans"
        scans.mkdir()
        (scans / "faxed_referral.pdf").write_bytes(runpy.run_path(str(SAMPLES / "make_samples.py"))["scanned_letter"]())
        ocr = OUT / "ocr.png"
        gui(["--workspace", str(tmpdir / "ocr.sqlite"), *common[2:], "--open", str(scans), "--screenshot", str(ocr), "--view", "ocr"], env, use_xvfb)
        shots.append(ocr)

    for png in shots:
        shrink(png)
        print(f"{png.relative_to(ROOT)}: {png.stat().st_size // 1024} KB ({'Xvfb' if use_xvfb else 'offscreen'})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
